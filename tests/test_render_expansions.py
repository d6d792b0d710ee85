"""Renderers with the expansions: stone walls, nomad tiles on their spaces, capitols and caves in the text
board (own characters, explained by the legend) and in pictures (drawn pieces and a key)."""

from __future__ import annotations

import numpy as np
import pytest

from kbenv import Game
from kbenv.board.codes import LOCATION_LETTERS, TERRAIN_LETTERS
from kbenv.board.colours import (
    CAPITOL_MARK,
    CAVE_MARK,
    NOMAD_TILE_LABELS,
    NOMAD_TILE_MARKS,
    WALL_MARK,
)
from kbenv.catalogue import NOMAD_KINDS
from kbenv.kingdom_builder_v1 import raw_env
from kbenv.positions.files import game_from_position
from kbenv.present.image import HEX_W, MARGIN, PIECE_KEY, RADIUS, TERRAIN_KEY, board_image, hex_centre, piece_key
from kbenv.present.text import board_text, legend

BOARD_W = int(MARGIN * 2 + HEX_W * 20.5)
ALL = ("nomads", "capitol", "caves")
WALLS = [(0, 0), (0, 1), (2, 2)]
CAPITOL = (4, 12)
CAVES = [(3, 16), (4, 6), (16, 0), (16, 12)]
NOMAD_TILES = {(7, 6): "treasure", (16, 16): "donation-T"}


def position(pieces: bool) -> dict:
    """Sections garden, harbor, tavern (turned), caravan (turned); with or without the expansion pieces."""
    pos = {"expansions": list(ALL), "cards": ["hermits", "lords", "shepherds"],
           "sections": [["garden", False], ["harbor", False], ["tavern", True], ["caravan", True]],
           "settlements": [[[0, 3], [0, 4]], [[10, 0]]], "hands": ["G", "C"]}
    if pieces:
        pos.update({"walls": [list(rc) for rc in WALLS], "capitols": [list(CAPITOL)],
                    "caves": [list(rc) for rc in CAVES],
                    "nomad_spaces": {f"{r},{c}": kind for (r, c), kind in NOMAD_TILES.items()}})
    return pos


@pytest.fixture(scope="module")
def games() -> tuple[Game, Game]:
    return game_from_position(position(True)), game_from_position(position(False))


def test_the_position_holds_every_piece(games):
    with_pieces, without = games
    assert with_pieces.walls() == set(WALLS) and with_pieces.capitols() == {CAPITOL}
    assert with_pieces.caves() == set(CAVES) and with_pieces.nomad_spaces() == NOMAD_TILES
    assert not without.walls() and not without.capitols() and not without.caves()
    assert set(without.nomad_spaces().values()) == {None}


def _char(text: str, r: int, c: int) -> str:
    """The character of hex (r, c) in a plain `board_text`."""
    line = text.splitlines()[1 + r]
    return line[3 + r % 2 + 2 * c]


# ----- text ------------------------------------------------------------------------------------------------
def test_text_board_marks_every_piece(games):
    with_pieces, without = games
    text, plain = board_text(with_pieces, colour=False), board_text(without, colour=False)
    for rc in WALLS:
        assert _char(text, *rc) == WALL_MARK and _char(plain, *rc) != WALL_MARK
    for rc in CAVES:
        assert _char(text, *rc) == CAVE_MARK and _char(plain, *rc) == "m"
    assert _char(text, *CAPITOL) == CAPITOL_MARK and _char(plain, *CAPITOL) == "k"
    for rc, kind in NOMAD_TILES.items():
        assert _char(text, *rc) == NOMAD_TILE_MARKS[kind] and _char(plain, *rc) == "n"
    assert text.splitlines()[-1] == "nomad tiles: 7,6 Tre, 16,16 D-T"
    assert "nomad tiles" not in plain
    assert _char(text, 0, 3) == "0" and _char(text, 10, 0) == "1"  # settlements as before


def test_ansi_board_holds_the_new_characters(games):
    with_pieces, without = games
    text = board_text(with_pieces, colour=True)
    for mark in (WALL_MARK, CAPITOL_MARK, CAVE_MARK, NOMAD_TILE_MARKS["treasure"], NOMAD_TILE_MARKS["donation-T"]):
        assert f"{mark} \x1b[0m" in text, mark
    plain = board_text(without, colour=True)
    assert not any(f"{mark} \x1b[0m" in plain for mark in (WALL_MARK, CAPITOL_MARK, CAVE_MARK))


def test_piece_marks_are_distinct_from_every_other_character():
    taken = set(TERRAIN_LETTERS.lower()) | set(LOCATION_LETTERS.upper()) | set("01234")
    marks = {WALL_MARK, CAPITOL_MARK, CAVE_MARK} | set(NOMAD_TILE_MARKS.values())
    assert len(marks) == 3 + 5  # one mark for the donations, one for each other kind
    assert not marks & taken and all(len(m) == 1 for m in marks)
    assert set(NOMAD_TILE_MARKS) == set(NOMAD_TILE_LABELS) == set(NOMAD_KINDS)
    assert len(set(NOMAD_TILE_LABELS.values())) == len(NOMAD_KINDS)
    assert NOMAD_TILE_LABELS["donation-G"] == "D-G" and NOMAD_TILE_LABELS["resettlement"] == "Res"
    assert [NOMAD_TILE_LABELS[k] for k in ("outpost", "sword", "treasure")] == ["Out", "Swd", "Tre"]


def test_legend_explains_the_pieces_of_the_expansions_in_play():
    key = legend(2, ALL)
    for text in (f"{WALL_MARK} stone wall", f"{CAPITOL_MARK} capitol", f"{CAVE_MARK} cave",
                 f"{NOMAD_TILE_MARKS['donation-G']} donation", "D-G", "~ resettlement (Res)",
                 "> outpost (Out)", "! sword (Swd)", "$ treasure (Tre)"):
        assert text in key, text
    assert legend(2).splitlines() == key.splitlines()[:3]  # the base game's legend is unchanged
    caves_only = legend(2, ("caves",))
    assert f"{CAVE_MARK} cave" in caves_only and "stone wall" not in caves_only and "capitol" not in caves_only


# ----- pictures --------------------------------------------------------------------------------------------
def _hex_patch(image: np.ndarray, r: int, c: int) -> np.ndarray:
    x, y = hex_centre(r, c)
    s = int(RADIUS * 0.6)
    return image[int(y) - s:int(y) + s, int(x) - s:int(x) + s]


def test_picture_draws_every_piece(games):
    with_pieces, without = games
    a, b = board_image(with_pieces), board_image(without)
    for rc in [*WALLS, *CAVES, CAPITOL, *NOMAD_TILES]:
        assert not np.array_equal(_hex_patch(a, *rc), _hex_patch(b, *rc)), rc
    for rc in [(0, 3), (10, 0), (5, 5), (12, 12)]:  # settlements and plain hexes look the same
        assert np.array_equal(_hex_patch(a, *rc), _hex_patch(b, *rc)), rc
    board = a[:, :BOARD_W].reshape(-1, 3)
    colours = set(map(tuple, np.unique(board, axis=0)))
    for name, rgb in piece_key(ALL):
        assert rgb in colours, name  # the key's colour is the piece's colour on the board


def test_picture_key_names_the_pieces(games):
    with_pieces, _ = games
    names = [name for name, _ in piece_key(with_pieces.expansions)]
    assert names == ["stone wall", "nomad tile", "capitol (on a castle)", "cave (on a mountain)"]
    assert piece_key(()) == [] and [n for n, _ in piece_key(("caves",))] == ["cave (on a mountain)"]
    panel = board_image(with_pieces)[:, BOARD_W:].reshape(-1, 3)
    colours = set(map(tuple, np.unique(panel, axis=0)))
    for name, rgb, _ in PIECE_KEY:
        assert rgb in colours, name
    for name, rgb in TERRAIN_KEY:
        assert rgb in colours, name


def test_base_pictures_have_no_piece_key():
    panel = board_image(Game.new(2, seed=3))[:, BOARD_W:].reshape(-1, 3)
    colours = set(map(tuple, np.unique(panel, axis=0)))
    assert not any(rgb in colours for _, rgb, _ in PIECE_KEY)


def test_five_players_with_every_expansion_fit_the_picture():
    game = Game.new(5, seed=2, expansions=list(ALL))
    image = board_image(game)
    panel = image[:, BOARD_W:].reshape(-1, 3)
    colours = set(map(tuple, np.unique(panel, axis=0)))
    for name, rgb in [*TERRAIN_KEY, *piece_key(ALL)]:
        assert rgb in colours, name
    assert image.shape[1] > BOARD_W


def test_the_v1_environment_renders_the_pieces():
    env = raw_env(num_players=2, expansions=list(ALL), render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert CAVE_MARK in text and "nomad tiles:" in text
    env = raw_env(num_players=2, expansions=list(ALL), render_mode="rgb_array")
    env.reset(seed=1)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3
