"""Renderers: seats are player_0 .. player_{n-1} with one colour each, the same in text and pictures."""

from __future__ import annotations

import numpy as np
import pytest

from kbenv import Game, raw_env
from kbenv.board.colours import SEAT_ANSI, SEAT_COLOUR_NAMES, SEAT_RGB, XTERM_RGB, ansi256
from kbenv.present.image import HEX_W, MARGIN, TERRAIN_KEY, board_image, hex_centre
from kbenv.present.text import board_text, legend, score_text
from tests.conftest import play_random

BOARD_W = int(MARGIN * 2 + HEX_W * 20.5)


@pytest.fixture(scope="module", params=[2, 5])
def game(request) -> Game:
    return play_random(Game.new(num_players=request.param, seed=3), np.random.default_rng(1), max_decisions=80)


def test_seat_colours_are_one_palette_for_text_and_pictures():
    assert len(set(SEAT_RGB)) == len(SEAT_RGB) == len(SEAT_ANSI) == 5
    for rgb, code in zip(SEAT_RGB, SEAT_ANSI, strict=True):
        assert ansi256(rgb) == code and XTERM_RGB[code] == rgb  # the ANSI colour is the picture's colour


def test_text_board_and_score_table_name_seats_player_p(game):
    n = game.num_players
    plain = board_text(game, colour=False)
    for p in range(n):
        if game.settlements(p):
            assert str(p) in plain
    table = score_text(game.scores(), game.cards)
    assert [line.split()[0] for line in table.splitlines()[1:]] == [f"player_{p}" for p in range(n)]
    key = legend(n)
    assert all(f"{p} player_{p} ({SEAT_COLOUR_NAMES[p]})" in key for p in range(n))
    assert "nomad space" in key and "caravan" in key


def test_ansi_board_uses_the_seat_colours(game):
    text = board_text(game, colour=True)
    for p in range(game.num_players):
        assert game.settlements(p)
        assert f"\x1b[1;38;5;{SEAT_ANSI[p]}m{p} " in text, p


def test_picture_settlements_have_the_seat_colour(game):
    image = board_image(game)
    for p in range(game.num_players):
        for r, c in sorted(game.settlements(p))[:3]:
            x, y = hex_centre(r, c)
            assert tuple(image[int(y) + 2, int(x)]) == SEAT_RGB[p]


def test_picture_panel_holds_the_seat_legend_and_the_terrain_key(game):
    panel = board_image(game)[:, BOARD_W:].reshape(-1, 3)
    colours = set(map(tuple, np.unique(panel, axis=0)))
    for p in range(game.num_players):
        assert SEAT_RGB[p] in colours
    for name, rgb in TERRAIN_KEY:
        assert rgb in colours, name  # every key swatch is drawn inside the picture, also with 5 players


def test_env_renders_use_the_same_names_and_colours():
    env = raw_env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    for _ in range(30):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    text = env.render()
    assert "player_0" in text and "player_2" in text
    assert any(f"\x1b[1;38;5;{SEAT_ANSI[p]}m" in text for p in range(3))


# ----- custom section files (kbenv/board/sections.py): what is shown is what the file holds now -----------
def test_an_edited_section_file_is_read_again(tmp_path):
    from kbenv.board.sections import load_section
    from kbenv.setup import standard_setup

    path = tmp_path / "mine.txt"
    grass = ["G" * 10] * 10
    path.write_text("\n".join(grass))
    assert load_section(str(path)) == grass
    sections = [(str(path), False), ("paddock", False), ("oasis", False), ("farm", False)]
    assert standard_setup(2, 0, sections=sections).board[0][:10] == "G" * 10
    forest = ["T" * 10] * 10  # same size, written at once: the modification time may not even change
    path.write_text("\n".join(forest))
    assert load_section(str(path)) == forest
    assert standard_setup(2, 0, sections=sections).board[0][:10] == "T" * 10


def test_missing_or_unreadable_section_files_are_named(tmp_path):
    from kbenv.board.sections import load_section

    with pytest.raises(ValueError, match="no such file"):
        load_section(str(tmp_path / "missing.txt"))
    (tmp_path / "folder.txt").mkdir()
    with pytest.raises(ValueError, match="is a folder"):
        load_section(str(tmp_path / "folder.txt"))
    with pytest.raises(ValueError, match="unknown section 'nowhere'"):
        load_section("nowhere")
    rows = load_section("tavern")
    rows[0] = "changed"  # a caller's copy: the built-in cache stays intact
    assert load_section("tavern")[0] != "changed"
