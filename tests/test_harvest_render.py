"""Text and picture of a Harvest position (issue 22): farmland and silos, scouts, Mayors marks at the row ends,
number tiles, Rovers sections and the silo phase; and PlayerView's public Harvest facts.

The positions write the state fields the rules name (number tiles, Mayors marks, scouts, Rovers sections) on a
seeded Harvest set-up; the expected marks and colours follow from the documented drawing (render_text's
docstring and legend, render_image's colours), not from the renderer's output.
"""

from __future__ import annotations

import numpy as np

from kbenv import Game
from kbenv.board.colours import SEAT_RGB, TERRAIN_RGB
from kbenv.board.geometry import hex_id
from kbenv.engine import state as S
from kbenv.expansions.harvest.view import harvest_facts
from kbenv.game.view import PlayerView
from kbenv.present.image import BACKGROUND, board_image, hex_centre, mayor_mark_centre
from kbenv.present.text import board_text, legend

SCOUT_HEXES = ((5, 5), (12, 7))


def position() -> Game:
    """A 3-player Harvest set-up with number tiles 3, 0, 5, row 4 marked for player 0 and row 9 for player 2,
    the Rovers sections 0 and 2 this turn and two scouts of the turn owner on free hexes."""
    g = Game.new(3, seed=4, expansions=["harvest"], cards=["mayors", "rovers", "fishermen"])
    st = g.state
    st[S.NUMBER_TILES : S.NUMBER_TILES + 3] = [3, 0, 5]
    st[S.MAYOR_LINES + 4] = 1
    st[S.MAYOR_LINES + 9] = 3
    st[S.ROVER_SECTIONS] = 0b0101
    for r, c in SCOUT_HEXES:
        assert g.board[r][c] in "GCDFTWM", "scouts stand on plain terrain, water or mountain (A-H4)"
        h = hex_id(r, c)
        st[S.SCOUTS + h // 60] |= 1 << (h % 60)
    return g


def cell(line: str, row: int, col: int) -> str:
    """The two characters of hex (row, col) in a board_text line (3 columns of row number, odd rows shifted)."""
    at = 3 + (row % 2) + 2 * col
    return line[at : at + 2]


def test_text_shows_scouts_marks_number_tiles_and_rovers():
    g = position()
    owner = g.current_player
    lines = board_text(g, colour=False).split("\n")
    rows = lines[1:21]
    for r, c in SCOUT_HEXES:
        assert cell(rows[r], r, c) == f"{owner}%"  # the turn owner's digit, then the scout mark
    assert rows[4].endswith("M0") and rows[9].endswith("M2")
    assert not any(rows[r].rstrip().endswith(("M0", "M1", "M2")) for r in range(20) if r not in (4, 9))
    side = lines[21:]
    assert "number tiles: player_0 3, player_1 0, player_2 5 (pool: 10 of 18 left)" in side
    assert "mayors rows: row 4 player_0, row 9 player_2" in side
    assert "rovers sections this turn: 0, 2" in side
    assert f"scouts: 5,5 12,7 (player_{owner}'s, 0 left)" in side
    key = legend(3, ["harvest"])
    assert "a farmland, o silo, 0% scout" in key and "M0 after a row: marked for Mayors by player_0" in key


def test_text_letters_of_farmland_and_silos():
    g = position()
    rows = board_text(g, colour=False).split("\n")[1:21]
    letters = {(r, c): ch for r, row in enumerate(g.board) for c, ch in enumerate(row)}
    farmland = [rc for rc, ch in letters.items() if ch == "A"]
    silos = [rc for rc, ch in letters.items() if ch == "O"]
    assert farmland and silos
    assert all(cell(rows[r], r, c) == "a " for r, c in farmland)
    assert all(cell(rows[r], r, c) == "o " for r, c in silos)


def test_picture_draws_scouts_marks_and_terrain_colours():
    g = position()
    img = board_image(g)

    def at(x: float, y: float) -> tuple[int, ...]:
        return tuple(int(v) for v in img[round(y), round(x)])

    owner = g.current_player
    for r, c in SCOUT_HEXES:
        assert at(*hex_centre(r, c)) == SEAT_RGB[owner]
    assert at(*mayor_mark_centre(4)) == SEAT_RGB[0]  # an even row: the disc in the right margin
    assert at(*mayor_mark_centre(9)) == SEAT_RGB[2]  # an odd row: in the left margin
    assert at(*mayor_mark_centre(6)) == BACKGROUND and at(*mayor_mark_centre(7)) == BACKGROUND
    letters = {(r, c): ch for r, row in enumerate(g.board) for c, ch in enumerate(row)}
    farmland = next(rc for rc, ch in letters.items() if ch == "A")
    silo = next(rc for rc, ch in letters.items() if ch == "O")
    assert at(*hex_centre(*farmland)) == TERRAIN_RGB["A"] and at(*hex_centre(*silo)) == TERRAIN_RGB["O"]


def _silo_game() -> Game:
    for seed in range(12):
        g = Game.new(2 + seed % 3, seed=seed, expansions=["harvest"])
        rng = np.random.default_rng(seed)
        while not g.done:
            if g.phase == "silo" and g.state[S.SILO_AT] > 0:
                return g
            g.step(int(rng.choice(g.legal_actions())))
    raise AssertionError("no silo phase with a silo begun in the random games")


def test_the_silo_phase_in_text_and_picture():
    g = _silo_game()
    st = g.state
    at = int(st[S.SILO_AT]) - 1
    r, c = at // 20, at % 20
    mode = ("build, move or done", "building", "moving")[int(st[S.SILO_MODE])]
    expect = f"silo phase: player_{g.decider} at {r},{c}, {mode}, {int(st[S.SILO_STEPS])} of 3 taken"
    assert expect in board_text(g, colour=False).split("\n")
    img = board_image(g)
    assert img.shape[2] == 3  # the panel's status line holds the same words (drawn text: not compared)


def test_player_view_shows_the_public_harvest_facts():
    g = position()
    for p in range(3):
        view = PlayerView(g, p)
        facts = view.harvest()
        assert facts == harvest_facts(g.state)
        assert facts.number_tiles == (3, 0, 5) and facts.mayor_lines == {4: 0, 9: 2}
        assert facts.scouts == SCOUT_HEXES and facts.scouts_left == 0 and facts.rover_sections == (0, 2)
    assert PlayerView(Game.new(2, seed=1), 0).harvest() is None
