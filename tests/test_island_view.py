"""The Island on the text board, the PNG and the browser page's JSON (issue 23 part 2), and base pictures unchanged.

The position: 2 players on the shipped side `island-substitute-1` (kbenv/data/islands/island-substitute-1.txt):

    line 0  G F G T
    line 1   G L W D      L = the rope bridge (EN 1443: 2 tiles on it)
    line 2  C W D M
    line 3   F T M C
    line 4  D F T C

with player_1's settlement on island 0,0 (grass) and player_0's on island 4,3 (canyon), given in the position file
form `["island", r, c]` (docs/api.md). The expected letters, digits, colours and places follow from that file, the
documented drawing (render_text's and render_image's docstrings: the island below the text board and right of the
picture's board, odd lines half a hex right) and kbenv.board.colours, not from the renderers' output.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from kbenv import Game
from kbenv.board.colours import LOCATION_RGB, SEAT_RGB, TERRAIN_RGB
from kbenv.engine import state as S
from kbenv.expansions.island.view import hex_words, island_facts, parse_island_hex
from kbenv.game.view import PlayerView
from kbenv.positions.files import game_from_position
from kbenv.present.image import BOARD_W, ISLAND_W, PANEL_W, board_image, hex_centre, mayor_mark_centre
from kbenv.present.text import board_text, legend
from kbenv.serve.views import board_meta, seat_view, spectator_view

from .game_checks import played_game

SIDE_1 = ("GFGT", "G\u00f1WD", "CWDM", "FTMC", "DFTC")  # the rope bridge's letter is ñ (catalogue)


def island_game(**extra) -> Game:
    """The position of the module docstring (board sections as the base tests use them)."""
    position = {"sections": [["tower", False], ["paddock", False], ["barn", False], ["oasis", False]],
                "cards": ["fishermen", "knights", "merchants"], "expansions": ["island"],
                "island": {"side": "island-substitute-1"},
                "settlements": [[["island", 4, 3]], [["island", 0, 0]]], **extra}
    return game_from_position(position)


def test_the_island_facts():
    g = island_game()
    facts = island_facts(g)
    assert facts.side == "island-substitute-1" and facts.rows == SIDE_1
    assert facts.location == (1, 1) and facts.location_type == "rope_bridge" and facts.tiles_left == 2
    assert facts.mayor_lines == {}
    assert island_facts(Game.new(2, seed=1)) is None
    assert PlayerView(g, 1).island() == facts  # public: every seat sees it


def test_hex_words_and_typed_island_hexes():
    assert hex_words((3, 4)) == "3,4" and hex_words((21, 2)) == "island 1,2"
    assert parse_island_hex("island 1,2") == (1, 2) and parse_island_hex("Island 4 3") == (4, 3)
    assert parse_island_hex("i 0,0") == (0, 0)
    assert "off the island" in parse_island_hex("island 5,0") and "off the island" in parse_island_hex("island 0,4")
    assert parse_island_hex("3,4") is None and parse_island_hex("oracle") is None


def cell(line: str, row: int, col: int) -> str:
    """The two characters of hex (row, col) in a text line (3 columns of line number, odd lines shifted)."""
    at = 3 + (row % 2) + 2 * col
    return line[at : at + 2]


def test_text_draws_the_island_below_the_board():
    lines = board_text(island_game(), colour=False).split("\n")
    head = next(k for k, line in enumerate(lines) if line.startswith("island ("))
    assert head == 21  # column numbers, 20 board rows, then the island
    assert "island-substitute-1" in lines[head] and "not connected" in lines[head]
    rows = lines[head + 2 : head + 7]
    assert [line[:3] for line in rows] == [" 0 ", " 1 ", " 2 ", " 3 ", " 4 "]
    # letters: terrain lower case, the location upper case (Ñ), a settlement the owner's digit
    assert cell(rows[0], 0, 0) == "1 " and cell(rows[4], 4, 3) == "0 "
    assert cell(rows[1], 1, 1) == "\u00d1 " and cell(rows[1], 1, 2) == "w " and cell(rows[2], 2, 3) == "m "
    assert cell(rows[3], 3, 0) == "f " and rows[3][3] == " "  # odd line: half a hex right
    assert "island location: rope bridge at island 1,1, 2 tiles left" in lines
    assert "island: drawn below the board" in legend(2, ["island"])
    assert "island" not in legend(2, []) and "island" not in board_text(Game.new(2, seed=1), colour=False)


def test_text_with_colour_uses_the_terrain_and_seat_colours():
    from kbenv.board.colours import SEAT_ANSI, TERRAIN_ANSI

    lines = board_text(island_game(), colour=True).split("\n")
    head = next(k for k, line in enumerate(lines) if line.startswith("island ("))
    line0 = lines[head + 2]
    assert line0.startswith(f" 0 \x1b[48;5;{TERRAIN_ANSI['G']}m\x1b[1;38;5;{SEAT_ANSI[1]}m1 ")
    assert f"\x1b[48;5;{TERRAIN_ANSI['T']}m\x1b[38;5;0mt " in line0  # island 0,3: forest


def test_text_shows_the_island_mayors_marks():
    g = island_game(expansions=["island", "harvest"], cards=["mayors", "fishermen", "knights"])
    g.state[S.ISLAND_MAYOR_LINES + 2] = 2  # island line 2 marked for player_1 (seat + 1)
    lines = board_text(g, colour=False).split("\n")
    head = next(k for k, line in enumerate(lines) if line.startswith("island ("))
    assert lines[head + 4].endswith("M1") and not lines[head + 3].endswith(("M0", "M1"))
    assert "mayors island lines: line 2 player_1" in lines


def test_the_picture_draws_the_island_right_of_the_board():
    g = island_game()
    image = board_image(g)
    assert image.shape[1] == BOARD_W + ISLAND_W + PANEL_W  # the island widens the picture by its column only
    x, y = (int(round(v)) for v in hex_centre(20 + 1, 2))  # island 1,2: water, empty
    assert tuple(image[y - 10, x]) == TERRAIN_RGB["W"]
    x, y = (int(round(v)) for v in hex_centre(20 + 2, 3))  # island 2,3: mountain
    assert tuple(image[y - 10, x]) == TERRAIN_RGB["M"]
    x, y = (int(round(v)) for v in hex_centre(20 + 1, 1))  # the rope bridge: the location colour
    assert tuple(image[y - 15, x]) == LOCATION_RGB  # between the inner outline (0.75 R) and the edge
    for (r, c), seat in (((0, 0), 1), ((4, 3), 0)):  # a settlement: a house in the seat's colour at its centre
        x, y = (int(round(v)) for v in hex_centre(20 + r, c))
        assert tuple(image[y, x]) == SEAT_RGB[seat]
    # the island is not connected: a gap of background between the board's last column and the island
    left = min(hex_centre(20 + r, 0)[0] for r in range(5)) - np.sqrt(3) * 17 / 2
    assert left > BOARD_W + 10
    y = int(round(hex_centre(20 + 2, 0)[1]))
    assert all(tuple(image[y, x]) == (250, 247, 240) for x in range(BOARD_W, int(left) - 1))


def test_the_picture_marks_island_lines_for_mayors():
    g = island_game(expansions=["island", "harvest"], cards=["mayors", "fishermen", "knights"])
    g.state[S.ISLAND_MAYOR_LINES + 1] = 1  # island line 1 (odd: its free end is on the left) for player_0
    image = board_image(g)
    x, y = (int(round(v)) for v in mayor_mark_centre(20 + 1))
    assert tuple(image[y, x]) == SEAT_RGB[0]
    assert x < hex_centre(20 + 1, 0)[0] - 17  # left of the line's first hex


# sha256 (first 24 hex digits) of board_image / board_text(colour=True) of these games: base and other expansions'
# pictures and text stay the same when the island is drawn. The text digests were taken with the code before the
# island was drawn (commit 6b97d68). The picture digests were taken again after the letters beyond ASCII got a font
# that has them (kbenv.present.image._font): the only pixels that changed were the legend's lines with Ñ, Æ, ... and,
# in the Harvest game, its location letters on the board (checked pixel by pixel against the island branch).
BEFORE = {
    "base2": ("a4b59e2bce35c41093e4f0fc", "f0d585ff800b618edf9b90d5"),
    "base5": ("c973c7453401276c221fc10a", "d3581bd3afd1ac7a8bd911c9"),
    "harvest": ("538c1c6b959db73ff4bc6d4c", "4296bfc02008a859298fc1b4"),
    "crossroads": ("f2ebf94707d72ab98477eb84", "293374b23d93877e9b2eda18"),
}


@pytest.mark.parametrize("name, game", [
    ("base2", lambda: played_game(3, 40, 2)), ("base5", lambda: played_game(11, 120, 5)),
    ("harvest", lambda: played_game(4, 50, 3, ["harvest"])),
    ("crossroads", lambda: played_game(7, 60, 4, ["crossroads", "nomads"]))])
def test_pictures_and_text_without_the_island_are_unchanged(name, game):
    g = game()
    image, text = board_image(g), board_text(g, colour=True)
    assert (hashlib.sha256(image.tobytes()).hexdigest()[:24],
            hashlib.sha256(text.encode()).hexdigest()[:24]) == BEFORE[name]


def test_the_page_json_has_the_island():
    g = island_game()
    for view in (seat_view(g, 0, ["human", "greedy"]), spectator_view(g, ["human", "greedy"])):
        island = view["board"]["island"]
        assert island["side"] == "island-substitute-1" and island["rows"] == list(SIDE_1)
        assert island["settlements"] == [[[4, 3]], [[0, 0]]]
        assert island["location"] == {"hex": [1, 1], "letter": "\u00f1", "type": "rope_bridge", "tiles_left": 2}
        # the board's own lists hold board hexes only (the page indexes 20 x 20 centres with them)
        assert view["board"]["settlements"] == [[], []]
        assert all(loc["hex"][0] < 20 for loc in view["board"]["locations"])
    assert seat_view(Game.new(2, seed=1), 0, ["human"] * 2)["board"]["island"] is None
    meta = board_meta()["geometry"]
    assert meta["island"]["centres"][2][1] == [round(v, 3) for v in hex_centre(22, 1)]
    assert meta["island"]["width"] > meta["width"] and meta["island"]["mayor_marks"][1] == \
        [round(v, 3) for v in mayor_mark_centre(21)]


def test_legal_island_hexes_are_island_decisions_with_words():
    # player_0 holds grass and has no settlement next to grass (island 4,3 touches 4,2 T, 3,2 M, 3,3 C): any free
    # grass hex is legal, on the island 0,2 and 1,0 (0,0 is player_1's)
    g = island_game(hands=["G", "C"])
    view = seat_view(g, 0, ["human", "human"])
    islands = [d for d in view["legal"] if d["kind"] == "island"]
    assert [d["island"] for d in islands] == [[0, 2], [1, 0]]
    assert [d["action"] for d in islands] == [458 + 2, 458 + 4]
    assert [d["name"] for d in islands] == ["island 0,2", "island 1,0"]
    assert [d["words"] for d in islands] == ["build at island 0,2", "build at island 1,0"]


def test_a_build_on_the_island_reaches_the_page():
    g = island_game(hands=["G", "C"])
    g.step(458 + 2)  # `island 0,2`: player_0 builds on island 0,2 (grass)
    assert seat_view(g, 1, ["human"] * 2)["board"]["island"]["settlements"][0] == [[0, 2], [4, 3]]


def test_a_replayed_island_record_has_the_island():
    from kbenv.serve.replay import Replay

    record = Game.new(2, seed=8, expansions=["island"], island_side="island-substitute-2").to_record()
    island = Replay(record, None, "island record").view(0, None)["board"]["island"]
    assert island["side"] == "island-substitute-2" and island["location"]["type"] == "tree_house"
    assert island["location"]["tiles_left"] == 2  # EN 1443
