"""The Island with Harvest and Crossroads (A-QI2 Water mill, A-QI3 edges, A-QI4 lines and sections, A-H8 Rovers).

The Harvest tests also need Harvest (``requires_harvest`` of harvest_helpers: skipped until Harvest is implemented or
``KBENV_RUN_HARVEST_TESTS=1``); Harvest card amounts are harvest_helpers' ``CARD_GOLD`` (unverified, decision 6). The
islands are the 5 x 4 test islands of island_helpers (IA3). Sections are the four 10x10 quadrants of the board.

Rule text quoted (the comments below name these):

A_QI2 (spec A-QI2): "The coast spaces are adjacent to water spaces. The surrounding water is NOT made of spaces, so
    no tokens can go there (TG; i.e. coast hexes count as next to water for Fishermen and Water mill). Default as
    TG, flag."
A_QI3 (spec A-QI3): "TG: 'Tower CANNOT build on the Island'. Default: island hexes are not board-edge hexes (Tower,
    Advance, Compass points, Travellers)."
A_QI4 (spec A-QI4): "Island rows are separate lines for Discoverers, Knights, Rangers and Mayors. It is not a sector
    (Lords, Farmers, Homesteaders, Rovers, Vassals)."
A_H8 (spec A-H8): "The island is not a section (TG: 'Rovers do not score for building on the Island')."
QI_2_OTHERS (EN 1447): "All other kingdom builder cards score normally."
WATER_MILL (EN 1317): "Build one settlement upon a suitable terrain space next to a water space. It must be built
    connecting to an existing settlement of that player, if possible."
MAYORS (EN 1375-1377): "If a player builds a settlement or moves one of their settlements in such a way that at
    least four of their settlements are arranged in a horizontal line, they mark this by placing a settlement from
    their supply next to that line outside of the game board. ... At the end of the game, each marked line is worth
    4 gold for that player."
ROVERS_EXAMPLE (EN 1399): "Example: The orange player has build settlements on two different game board sections,
    therefore getting 2 gold this turn."
ADVANCE (EN 960-962): "9 gold, if at least 7 of your own settlements are built at one of the 4 game board edges.
    Each corner space is part of two edges."
COMPASS_POINTS (EN 968-970): "10 gold, if at least 1 of your own settlements is built at each of the 4 game board
    edges. Each corner space is part of two edges!"
"""

from tests.rules.harvest.helpers import CARD_GOLD, MAYOR_GOLD, requires_harvest
from tests.rules.island.helpers import (
    CHOOSE_TARGET,
    I,
    answer,
    coast,
    flag,
    game,
    inb,
    ipos,
    legal,
    own,
    requires_island,
    scores,
    state,
    with_options,
    with_then,
)

pytestmark = requires_island


HARVEST = ("island", "harvest")


def harvest_card_gold(kx, card, settlements, **kwargs):
    """``card``'s gold per player on a grass board; island settlement hexes are grass."""
    isl = {(h[1], h[2]): "G" for p in settlements for h in p if len(h) == 3}
    board = {h: "G" for p in settlements for h in p if len(h) == 2}
    pos = ipos(kx, board, fill="G", settlements=[list(p) for p in settlements], island=isl,
               cards=[card, "hermits", "fishermen"], hands=["G"] * len(settlements), opp_area=False,
               expansions=HARVEST, **kwargs)
    return [row["cards"][card] for row in scores(pos)]


# --------------------------------------------------------------------------- A-QI4 lines: Rangers, Mayors

@requires_harvest
def test_A_QI4_rangers_island_rows_are_separate_lines(kx):
    # Rangers (spec H-17, U): CARD_GOLD per line with exactly one own settlement. Player 0: board row 0 (0, 0) and
    # island row 0 I(0,1): two lines of one each -> 2 (one line of 2, so 0, if they were the same line). Player 1:
    # island row 3 holds I(3,0) I(3,2) -> no; board row 3 holds (3, 3) alone -> 1
    p0 = [(0, 0), I(0, 1)]
    p1 = [I(3, 0), I(3, 2), (3, 3)]
    g = CARD_GOLD["rangers"]
    assert harvest_card_gold(kx, "rangers", [p0, p1]) == [2 * g, 1 * g]


@requires_harvest
def test_A_QI4_mayors_an_island_row_is_marked_on_its_own(kx):
    # MAYORS: player 0 has 3 settlements in board row 1 and 3 in island row 1 (grass); the forest card; island forest
    # I(1,3) I(0,3) I(2,3) all touch I(1,2) (inb(1, 2)) -> the mandatory start hexes. Building I(1,3) puts 4 in
    # island row 1 -> "island,1" is marked (IA14), board row 1 (still 3) is not; the later builds in island rows 0
    # and 2 mark nothing. Supply 40 - 6 - 3 - 1 (the marker) = 30
    assert {I(1, 3), I(0, 3), I(2, 3)} <= inb(1, 2)
    board = [(1, 5), (1, 7), (1, 9)]
    isl = [I(1, 0), I(1, 1), I(1, 2)]
    island = {(1, 0): "G", (1, 1): "G", (1, 2): "G", (1, 3): "T", (0, 3): "T", (2, 3): "T"}
    pos = ipos(kx, {h: "G" for h in board}, settlements=[board + isl, []], card="T", island=island,
               cards=["mayors", "fishermen", "knights"], expansions=HARVEST)
    assert legal(pos) == {I(1, 3), I(0, 3), I(2, 3)}
    g = game(with_then(pos, [I(1, 3)]))
    assert state(g)["mayor_lines"] == {"island,1": 0}
    g = game(with_then(pos, [I(1, 3), I(0, 3), I(2, 3)]))
    assert state(g)["mayor_lines"] == {"island,1": 0}
    assert g.supply(0) == 40 - 6 - 3 - 1


@requires_harvest
def test_A_QI4_mayors_a_marked_island_row_scores_4(kx):
    # position key mayor_lines {"island,2": 0, "5": 1} -> player 0 one mark (4), player 1 one mark (4)
    pos = ipos(kx, {(5, 5): "G"}, fill="G", settlements=[[I(2, 0)], [(5, 5)]], island={(2, 0): "G"},
               cards=["mayors", "fishermen", "knights"], hands=["G", "G"], opp_area=False, expansions=HARVEST,
               mayor_lines={("island", 2): 0, 5: 1})
    assert [row["cards"]["mayors"] for row in scores(pos)] == [MAYOR_GOLD, MAYOR_GOLD]


# --------------------------------------------------------------------------- A-QI4 / A-H8: not a section

@requires_harvest
def test_A_QI4_homesteaders_the_island_is_no_section(kx):
    # Homesteaders (spec H-16, U): settlements in the own best section. Player 0: top-left 2, island 3 -> 2 (3 if the
    # island were a section)
    p0 = [(1, 1), (1, 3), I(0, 0), I(0, 1), I(0, 2)]
    assert harvest_card_gold(kx, "homesteaders", [p0, []]) == [2 * CARD_GOLD["homesteaders"], 0]


@requires_harvest
def test_A_H8_rovers_island_builds_are_in_no_section(kx):
    # ROVERS_EXAMPLE counts sections built in during the turn. The desert card, no desert next to (5, 5): the first
    # build (12, 12) (bottom-right); the second has no adjacent desert -> I(0,0) on the island; the third touches it:
    # I(0,1). Sections: bottom-right only -> 1 gold at the end of the turn (2 if the island were a section)
    island = {(0, 0): "D", (0, 1): "D"}
    pos = ipos(kx, {(5, 5): "G", (12, 12): "D"}, settlements=[[(5, 5)], []], card="D", island=island,
               cards=["rovers", "fishermen", "knights"], expansions=HARVEST, then=[(12, 12), I(0, 0), I(0, 1)])
    assert answer(pos)["player"] == 1          # the turn is over
    g = game(pos)
    assert own(g, 0) == {(5, 5), (12, 12), I(0, 0), I(0, 1)}
    assert g.gold(0) == 1


# --------------------------------------------------------------------------- A-QI3 edges

@requires_harvest
def test_A_QI3_travellers_the_island_rim_is_no_board_edge(kx):
    # Travellers (spec H-14, U): own settlements on the board edge. (0, 5) top edge -> 1; (10, 10) inner; the island's
    # rim hexes I(0,0) I(4,3) I(2,3) are no board edge -> 1
    p0 = [I(0, 0), I(4, 3), I(2, 3), (10, 10), (0, 5)]
    assert harvest_card_gold(kx, "travellers", [p0, []]) == [1 * CARD_GOLD["travellers"], 0]


def test_A_QI3_advance_and_compass_points_ignore_the_island(kx):
    # ADVANCE: player 0 has 6 on the top edge (0, 1) .. (0, 11) + I(0,0) on the island's top row -> 6 < 7 -> 0.
    # COMPASS_POINTS: player 0 touches top, left (5, 0), bottom (19, 5), but the right edge only on the island's
    # right rim I(2,3) -> 0. Player 1: corners (0, 0) (top + left) and (19, 19) (bottom + right) -> 10; advance 0
    top = [(0, 1), (0, 3), (0, 5), (0, 7), (0, 9), (0, 11)]
    p0 = [*top, (5, 0), (19, 5), I(0, 0), I(2, 3)]
    p1 = [(0, 0), (19, 19)]
    isl = {(0, 0): "G", (2, 3): "G"}
    board = {h: "G" for h in p0 + p1 if len(h) == 2}
    pos = ipos(kx, board, fill="G", settlements=[p0, p1], island=isl, hands=["G", "G"], opp_area=False,
               expansions=("crossroads", "island"), extra={"tasks": ["advance", "compass_points"]})
    rows = scores(pos)
    assert rows[0]["tasks"] == {"advance": 0, "compass_points": 0}
    assert rows[1]["tasks"] == {"advance": 0, "compass_points": 10}


# --------------------------------------------------------------------------- A-QI2 Water mill

def water_mill_position(kx):
    # own (5, 5) next to the Water mill hex (5, 6); no water on the mountain board; island grass I(0,1) (coast, row 0)
    # and I(2,2) (inner: 6 island neighbours)
    island = {(0, 1): "G", (2, 2): "G"}
    return ipos(kx, {(5, 5): "G", (5, 6): "L"}, settlements=[[(5, 5)], []], card="G", island=island,
                tiles=[[(5, 6)], []], expansions=HARVEST, extra={"locations": {"5,6": "water_mill"}})


@requires_harvest
def test_A_QI2_water_mill_builds_on_the_coast(kx):
    # WATER_MILL + A_QI2: the only suitable hex next to water is the coast hex I(0,1); it does not touch own
    # settlements, nothing does -> I(0,1). The grass card's mandatory start: no grass touches (5, 5) -> both island
    # grass hexes (QI-1)
    assert coast(0, 1) and not coast(2, 2)
    pos = water_mill_position(kx)
    assert legal(pos) == {I(0, 1), I(2, 2), "water_mill"}
    out = answer(with_then(pos, ["water_mill"]))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == {I(0, 1)}


@requires_harvest
def test_A_QI2_flag_water_mill_without_coast_water(kx):
    # with coast hexes not next to water there is no target: the power is not offered
    pos = with_options(water_mill_position(kx), flag("A-QI2"))
    assert legal(pos) == {I(0, 1), I(2, 2)}
