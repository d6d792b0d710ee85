"""Crossroads task cards (C-15..C-20, A-C10), scored by the kernels of kbenv.engine.crossroads.tasks.

Boards are mountain-filled (conftest ``make_board``); every hex a test names as a settlement is grass
unless the test gives it another code. The kernels are called directly on ``game.state``; the tasks in
play (for ``score_tasks``) are written into a copy of the state.

Odd-r diagonals used below (conftest docstring): from (r, c) the SE neighbour is (r+1, c) on an even
row and (r+1, c+1) on an odd row; the SW neighbour is (r+1, c-1) on an even row and (r+1, c) on an odd
row.

Rule text quoted (the comments below name these):

TASKS_GENERAL (EN 926): "Each player who meets a task card's requirement earns the reward. Meeting a card's
    requirement more than once does not increase the amount of gold earned."
HOME_COUNTRY (EN 932-934): "5 gold for a terrain area completely populated by your own settlements. This terrain
    area may not contain any empty spaces or spaces with other players' settlements."
HOME_COUNTRY_TG (TG (D)): "Single water and mountain hexes DO qualify."
FORTRESS (EN 940): "6 gold for an own settlement surrounded by another 6 of your own settlements."
ROAD (EN 946-948): "7 gold, if at least 7 of your own settlements form a continuous diagonal line. Each settlement
    in this line must be adjacent to another of your settlements in this line. A horizontal line does not qualify!
    The diagonal orientation of this line does not matter."
PLACE_OF_REFUGE (EN 954; DE 1064 "komplett von 6 eigenen Siedlungen umgeben"): "8 gold for a location, castle or
    nomads space completely surrounded by your own settlements."
ADVANCE (EN 960-962): "9 gold, if at least 7 of your own settlements are built at one of the 4 game board edges.
    Each corner space is part of two edges. These settlements need not be adjacent to one another; they may be built
    discretely."
COMPASS_POINTS (EN 968-970): "10 gold, if at least 1 of your own settlements is built at each of the 4 game board
    edges. Each corner space is part of two edges!"
"""

from __future__ import annotations

import pytest

from kbenv.board.bitset import HEX_BIT, HEX_WORD
from kbenv.catalogue import TASK_GOLD, TASK_NAMES
from kbenv.engine import state as S
from kbenv.engine.crossroads.tasks import score_tasks, task_gold, task_met

A_C10 = ("Edges are board rows 0 and 19 and columns 0 and 19. Road = 7 contiguous own hexes along one of the two "
         "diagonal axes (NE-SW or NW-SE). Home country: a terrain area is a maximal connected region of one "
         "terrain (G C D F T S A W M); every hex of the area is in OWN[p]; walls in the area make it fail; castle, "
         "location, nomad, palace and silo hexes are not terrain areas; an area crossing a section seam is one "
         "area. Fortress: the centre of a city hall qualifies. Place of Refuge: castle, location or nomad space.")

HOME, FORT, ROAD_T, REFUGE, ADV, COMPASS = (
    TASK_NAMES.index(n) for n in ("home_country", "fortress", "road", "place_of_refuge", "advance", "compass_points"))


def ring(r, c):
    """The 6 neighbours of an inner hex (odd-r, conftest docstring)."""
    if r % 2 == 0:
        return [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    return [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]


def make_game(kx, p0, p1=(), cells=None, expansions=(), **kw):
    """A 2-player game: every settlement hex is grass unless ``cells`` names it."""
    all_cells = {h: "G" for h in list(p0) + list(p1)}
    all_cells.update(cells or {})
    pos = kx.position(all_cells, settlements=[list(p0), list(p1)], expansions=expansions, opp_area=False, **kw)
    return kx.game(pos)


def met(g, task, p=0, st=None):
    return bool(task_met(g.state if st is None else st, p, task))


def with_own(g, p, hexes):
    """A copy of the state with extra hexes in OWN[p] (a wagon, ship or city-hall cell stands there)."""
    st = g.state.copy()
    for r, c in hexes:
        h = r * 20 + c
        st[S.own_off(p) + HEX_WORD[h]] |= HEX_BIT[h]
    return st


def test_kernels_match_the_catalogue():
    assert TASK_NAMES == ("home_country", "fortress", "road", "place_of_refuge", "advance", "compass_points")
    assert TASK_GOLD == (5, 6, 7, 8, 9, 10)


# --------------------------------------------------------------------------- C-15 home country

FOREST3 = [(5, 5), (5, 6), (5, 7)]


def test_C15_single_water_hex_area_counts(kx):
    g = make_game(kx, [(5, 5)], cells={(5, 5): "W"})
    assert met(g, HOME)
    assert task_gold(g.state, 0, HOME) == 5
    assert not met(g, HOME, p=1)  # player 1 has nothing


def test_C15_single_mountain_hex_area_counts_TG(kx):
    # A mountain hex ringed by grass: its area is itself. Only a wagon may stand there: set OWN directly.
    g = make_game(kx, [], cells={h: "G" for h in ring(5, 5)})
    assert not met(g, HOME)
    assert met(g, HOME, st=with_own(g, 0, [(5, 5)]))


def test_C15_three_hex_forest_area_all_own(kx):
    g = make_game(kx, FOREST3, cells={h: "T" for h in FOREST3}, card="T")
    assert met(g, HOME)


def test_C15_one_empty_hex_fails(kx):
    g = make_game(kx, FOREST3[:2], cells={h: "T" for h in FOREST3}, card="T")
    assert not met(g, HOME)


def test_C15_opponent_in_the_area_fails_for_both(kx):
    g = make_game(kx, FOREST3[:2], [FOREST3[2]], cells={h: "T" for h in FOREST3}, card="T")
    assert not met(g, HOME, p=0)
    assert not met(g, HOME, p=1)


def test_C15_wall_in_the_area_fails(kx):
    g = make_game(kx, FOREST3[:2], cells={h: "T" for h in FOREST3}, card="T", expansions=("nomads",),
                  walls=[FOREST3[2]])
    assert not met(g, HOME)


def test_C15_area_is_maximal(kx):
    # (6, 5) is forest next to (5, 5): the area has 4 hexes, only 3 of them own.
    cells = {h: "T" for h in FOREST3 + [(6, 5)]}
    g = make_game(kx, FOREST3, cells=cells, card="T")
    assert not met(g, HOME)
    assert met(g, HOME, st=with_own(g, 0, [(6, 5)]))


def test_C15_other_terrain_neighbours_do_not_join_the_area(kx):
    # Own grass next to own forest: two areas, each complete.
    g = make_game(kx, FOREST3 + [(5, 8)], cells={h: "T" for h in FOREST3}, card="T")
    assert met(g, HOME)


def test_C15_a_castle_is_not_terrain_and_splits_an_area(kx):
    # G (5, 4) | castle (5, 5) | G (5, 6): two one-hex grass areas; (5, 4) alone completes one.
    g = make_game(kx, [(5, 4)], cells={(5, 5): "K", (5, 6): "G"})
    assert met(g, HOME)
    # An own castle ring is no terrain area of the castle.
    g = make_game(kx, [], cells={(5, 5): "K"})
    assert not met(g, HOME, st=with_own(g, 0, [(5, 5)]))


def test_C15_area_across_a_section_seam_is_one_area(kx):
    seam = [(9, 4), (10, 4)]  # rows 9 and 10 lie in different sections
    g = make_game(kx, seam[:1], cells={h: "G" for h in seam})
    assert not met(g, HOME)
    g = make_game(kx, seam)
    assert met(g, HOME)


# --------------------------------------------------------------------------- C-16 fortress


def test_C16_centre_with_six_own_neighbours(kx):
    g = make_game(kx, [(5, 5)] + ring(5, 5))
    assert met(g, FORT)
    assert task_gold(g.state, 0, FORT) == 6


def test_C16_odd_row_centre(kx):
    g = make_game(kx, [(6, 5)] + ring(6, 5))
    assert met(g, FORT)


@pytest.mark.parametrize("missing", range(6))
def test_C16_five_of_six_fails(kx, missing):
    nbrs = ring(5, 5)
    g = make_game(kx, [(5, 5)] + nbrs[:missing] + nbrs[missing + 1:])
    assert not met(g, FORT)


def test_C16_opponent_in_the_ring_fails(kx):
    nbrs = ring(5, 5)
    g = make_game(kx, [(5, 5)] + nbrs[1:], [nbrs[0]])
    assert not met(g, FORT)


def test_C16_edge_hex_cannot_qualify(kx):
    # (0, 5) has only 4 neighbours; all own is still no fortress.
    g = make_game(kx, [(0, 5), (0, 4), (0, 6), (1, 4), (1, 5)])
    assert not met(g, FORT)


def test_C16_city_hall_rosette_counts(kx):
    # A city hall = centre + its 6 neighbours, all in OWN.
    g = make_game(kx, [], cells={h: "G" for h in [(5, 5)] + ring(5, 5)})
    assert not met(g, FORT)
    assert met(g, FORT, st=with_own(g, 0, [(5, 5)] + ring(5, 5)))


def test_C16_two_fortresses_pay_once(kx):
    g = make_game(kx, [(5, 5)] + ring(5, 5) + [(5, 12)] + ring(5, 12))
    assert task_gold(g.state, 0, FORT) == 6
    st = g.state.copy()
    st[S.NUM_TASKS] = 1
    st[S.TASKS] = FORT
    assert score_tasks(st, 0) == 6


# --------------------------------------------------------------------------- C-17 road

SE_LINE = [(2, 5), (3, 5), (4, 6), (5, 6), (6, 7), (7, 7), (8, 8)]  # NW-SE axis, each step SE
SW_LINE = [(2, 12), (3, 11), (4, 11), (5, 10), (6, 10), (7, 9), (8, 9)]  # NE-SW axis, each step SW
SE_TO_EDGE = [(13, 10), (14, 11), (15, 11), (16, 12), (17, 12), (18, 13), (19, 13)]  # ends on row 19
ZIGZAG = [(r, 5) for r in range(2, 9)]  # column 5: alternately SE and SW steps, contiguous but not straight


def test_lines_are_contiguous(kx):
    for line in (SE_LINE, SW_LINE, SE_TO_EDGE, ZIGZAG):
        for a, b in zip(line[:-1], line[1:], strict=True):
            assert b in kx.neighbours(*a), (a, b)


@pytest.mark.parametrize("line", [SE_LINE, SW_LINE, SE_TO_EDGE], ids=["nw-se", "ne-sw", "nw-se-to-edge"])
def test_C17_seven_on_a_diagonal(kx, line):
    g = make_game(kx, line)
    assert met(g, ROAD_T)
    assert task_gold(g.state, 0, ROAD_T) == 7


@pytest.mark.parametrize("line", [SE_LINE, SW_LINE], ids=["nw-se", "ne-sw"])
def test_C17_six_on_a_diagonal_fails(kx, line):
    assert not met(make_game(kx, line[:6]), ROAD_T)
    assert not met(make_game(kx, line[1:]), ROAD_T)


def test_C17_horizontal_line_fails(kx):
    g = make_game(kx, [(5, c) for c in range(3, 13)])  # 10 in one row
    assert not met(g, ROAD_T)


def test_C17_gap_fails(kx):
    # 8 hexes of a SE line with the 4th missing: runs of 3 and 4.
    line = SE_LINE + [(9, 8)]
    g = make_game(kx, line[:3] + line[4:])
    assert not met(g, ROAD_T)


def test_C17_zigzag_fails(kx):
    assert not met(make_game(kx, ZIGZAG), ROAD_T)


def test_C17_opponent_line_is_not_mine(kx):
    g = make_game(kx, SE_LINE[:3], SW_LINE)
    assert not met(g, ROAD_T, p=0)
    assert met(g, ROAD_T, p=1)


# --------------------------------------------------------------------------- C-18 place of refuge


@pytest.mark.parametrize("code,expansions", [("K", ()), ("o", ()), ("N", ("nomads",))],
                         ids=["castle", "location", "nomad-space"])
def test_C18_surrounded_special_hex(kx, code, expansions):
    g = make_game(kx, ring(5, 5), cells={(5, 5): code}, expansions=expansions)
    assert met(g, REFUGE)
    assert task_gold(g.state, 0, REFUGE) == 8
    assert not met(g, FORT)  # the centre is not own


def test_C18_nomad_space_counts_even_when_not_special_for_workers(kx):
    g = make_game(kx, ring(5, 5), cells={(5, 5): "N"}, expansions=("nomads",),
                  options={"nomad_spaces_not_special": True})
    assert met(g, REFUGE)


@pytest.mark.parametrize("missing", range(6))
def test_C18_five_of_six_fails(kx, missing):
    nbrs = ring(5, 5)
    g = make_game(kx, nbrs[:missing] + nbrs[missing + 1:], cells={(5, 5): "K"})
    assert not met(g, REFUGE)


def test_C18_opponent_in_the_ring_fails(kx):
    nbrs = ring(5, 5)
    g = make_game(kx, nbrs[1:], [nbrs[0]], cells={(5, 5): "K"})
    assert not met(g, REFUGE, p=0)
    assert not met(g, REFUGE, p=1)


@pytest.mark.parametrize("code", ["M", "W", "P", "O"], ids=["mountain", "water", "palace", "silo"])
def test_C18_other_hexes_are_no_refuge(kx, code):
    g = make_game(kx, ring(5, 5), cells={(5, 5): code})
    assert not met(g, REFUGE)


def test_C18_castle_on_the_edge_cannot_qualify(kx):
    # (0, 5) has 4 neighbours, all own.
    g = make_game(kx, [(0, 4), (0, 6), (1, 4), (1, 5)], cells={(0, 5): "K"})
    assert not met(g, REFUGE)


# --------------------------------------------------------------------------- C-19 advance


@pytest.mark.parametrize("hexes", [
    [(0, c) for c in range(3, 10)],
    [(19, c) for c in range(0, 19, 3)],  # spread out: 0, 3, ..., 18
    [(r, 0) for r in range(5, 12)],
    [(r, 19) for r in range(3, 10)],  # odd-r: column 19 is the last hex of every row
], ids=["row-0", "row-19-spread", "column-0", "column-19"])
def test_C19_seven_on_one_edge(kx, hexes):
    g = make_game(kx, hexes)
    assert met(g, ADV)
    assert task_gold(g.state, 0, ADV) == 9


def test_C19_six_fails(kx):
    assert not met(make_game(kx, [(0, c) for c in range(3, 9)]), ADV)
    assert not met(make_game(kx, [(r, 19) for r in range(3, 9)]), ADV)


def test_C19_edges_are_not_pooled(kx):
    # 6 on row 0 and 6 on column 19 (no corner): 12 edge hexes, but at most 6 on one edge.
    g = make_game(kx, [(0, c) for c in range(1, 7)] + [(r, 19) for r in range(5, 11)])
    assert not met(g, ADV)


def test_C19_corner_counts_on_two_edges(kx):
    # 6 on row 0 and 6 on column 0 besides the corner; the corner (0, 0) makes 7 on each.
    arms = [(0, c) for c in range(1, 7)] + [(r, 0) for r in range(1, 7)]
    assert not met(make_game(kx, arms), ADV)
    assert met(make_game(kx, arms + [(0, 0)]), ADV)
    # The corner alone for column 0: (0, 0) + 6 on column 0 only.
    assert met(make_game(kx, [(0, 0)] + [(r, 0) for r in range(10, 16)]), ADV)


def test_C19_inner_row_hexes_are_not_edge(kx):
    assert not met(make_game(kx, [(1, c) for c in range(3, 13)]), ADV)


# --------------------------------------------------------------------------- C-20 compass points


@pytest.mark.parametrize("hexes", [
    [(0, 0), (19, 19)],
    [(0, 19), (19, 0)],
    [(0, 5), (19, 5), (10, 0), (10, 19)],
], ids=["tl-br-corners", "tr-bl-corners", "four-sides"])
def test_C20_all_four_edges(kx, hexes):
    g = make_game(kx, hexes)
    assert met(g, COMPASS)
    assert task_gold(g.state, 0, COMPASS) == 10


@pytest.mark.parametrize("hexes", [
    [(0, 0), (19, 0)],  # rows 0 and 19, column 0; no column 19
    [(0, 5), (19, 5), (10, 0)],  # no column 19
    [(0, 5), (10, 19), (10, 0)],  # no row 19
    [(1, 1), (18, 18)],  # next to the corners, on no edge
], ids=["no-col-19-corners", "no-col-19", "no-row-19", "inner-ring"])
def test_C20_missing_an_edge_fails(kx, hexes):
    assert not met(make_game(kx, hexes), COMPASS)


# --------------------------------------------------------------------------- score_tasks


def test_score_tasks_sums_the_tasks_in_play_once_each(kx):
    # Player 0: two fortresses and 7 on row 0. Player 1: compass points.
    p0 = [(5, 5)] + ring(5, 5) + [(5, 12)] + ring(5, 12) + [(0, c) for c in range(3, 10)]
    p1 = [(0, 19), (19, 0)]
    g = make_game(kx, p0, p1)
    st = g.state.copy()
    st[S.NUM_TASKS] = 0
    assert score_tasks(st, 0) == 0
    tasks = [FORT, ADV, ROAD_T, COMPASS]
    st[S.NUM_TASKS] = len(tasks)
    for i, t in enumerate(tasks):
        st[S.TASKS + i] = t
    assert score_tasks(st, 0) == 6 + 9
    assert score_tasks(st, 1) == 10
    st[S.NUM_TASKS] = 1  # only the first task in play
    assert score_tasks(st, 0) == 6
    assert score_tasks(st, 1) == 0


def test_task_gold_zero_when_not_met(kx):
    g = make_game(kx, [(5, 5)])
    for t in range(len(TASK_NAMES)):
        expected = TASK_GOLD[t] if t == HOME else 0  # a lone grass hex is a complete one-hex area
        assert task_gold(g.state, 0, t) == expected
        assert task_gold(g.state, 1, t) == 0
