"""Location letters beyond ASCII are drawn as letters: one column in the text board, a real glyph in the PNG."""

from __future__ import annotations

import re

from kbenv import Game
from kbenv.board.codes import LOCATION_LETTERS, display_letter
from kbenv.present.image import _font
from kbenv.present.text import board_text

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_every_location_letter_is_drawn_as_one_letter():
    # The palisade's ß upper-cases to "SS" in Python and JavaScript: two letters in one hex's column.
    assert all(len(display_letter(ch)) == 1 for ch in LOCATION_LETTERS)
    assert display_letter("ß") == "ß" and display_letter("ñ") == "Ñ" and display_letter("o") == "O"


def test_a_palisade_keeps_the_text_board_rows_aligned():
    # Harvest seed 2 has a palisade on row 6: that row is as wide as the other rows of its parity.
    g = Game.new(2, seed=2, expansions=["harvest"])
    rows = [ANSI.sub("", line) for line in board_text(g).splitlines()[1:21]]
    assert any("ß" in row for row in rows)
    assert {len(row) for row in rows[0::2]} == {len(rows[0])} and {len(row) for row in rows[1::2]} == {len(rows[1])}


def test_letters_beyond_ascii_get_a_font_that_has_them():
    # Pillow's default font draws Ñ, Ý, Æ, Ø, Þ, Ð, Ç as its "missing glyph" box; the PNG's font for them must
    # draw each as a glyph of its own (masks differ from each other and from an unassigned code point).
    missing = bytes(_font(14, "Ñ").getmask("\uffff"))
    masks = {ch: bytes(_font(14, ch).getmask(ch)) for ch in "ÑÝÆØÞÐÇ"}
    assert all(mask != missing for mask in masks.values())
    assert len(set(masks.values())) == len(masks)
