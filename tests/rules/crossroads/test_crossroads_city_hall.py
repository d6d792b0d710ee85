"""Crossroads: City hall (C-8, A-C7, A-C3, A-C1).

A city hall covers a centre hex and its 6 neighbours (A-C7); a position gives it by its centre in
``city_halls`` and the decision that places it is the centre hex. Positions are built on mountain-filled
boards (conftest). Player 0's card is grass and ``MAND`` = (18, 0) (18, 1) (18, 2) is its mandatory area;
player 1 holds desert with ``OPP_D`` = (16, 0) (16, 1) (16, 2). Player 0 holds the city hall tile of
``Y`` = (10, 10) through ``HOME`` = (10, 11).

Rosettes used: ``R1`` centre (10, 13): cells (9, 12) (9, 13) (10, 12) (10, 13) (10, 14) (11, 12) (11, 13); its
cell (10, 12) touches HOME. ``R2`` centre (12, 10): cells (11, 9) (11, 10) (12, 9) (12, 10) (12, 11) (13, 9)
(13, 10); its cell (11, 10) touches HOME. ``FAR`` centre (5, 5): all 7 cells buildable, touching nothing own.

Rule text quoted (the comments below name these):

CITY_HALL (EN 859): "During your turn, you may place your city hall tile on the game board; once placed, this tile
    remains in place for the rest of the game. You must place it adjacent to one of your settlements on 7 empty
    spaces eligible for building."
CITY_HALL_COUNTS (EN 861): "The city hall tile counts as 7 settlements in all respects for Kingdom Builder cards and
    task cards! You may build additional settlements adjacent to your city hall tile just as you would build
    adjacent to other settlements of yours."
ONCE (DE 929, spec C-8): "darf einmalig (once per game)"
A_C7 (spec A-C7): "Shape: centre plus its 6 neighbours. Placement: all 7 cells eligible (empty, buildable, not in a
    zone) and on the board. 'adjacent to one of your settlements': at least one cell touches OWN[p]. There is no 'if
    possible' fallback. Seizes tiles per A-C3. Never moved, once per game. The action id = the centre hex."
A_C1 (spec A-C1): "(a) The zone blocks every placement or move of any piece onto a zone hex: settlements, warriors,
    wagons, ships, city-hall cells ... (b) It blocks settlements only."
"""

import pytest

from tests.rules.crossroads.helpers import MAND, MAND_G, cpos, cscores, piece

Y = (10, 10)
HOME = (10, 11)
R1 = (10, 13)
R1_CELLS = {(10, 13): "C", (10, 12): "F", (10, 14): "T", (9, 12): "C", (9, 13): "F", (11, 12): "T", (11, 13): "D"}
R2 = (12, 10)
R2_CELLS = {(12, 10): "D", (11, 9): "C", (11, 10): "F", (12, 9): "T", (12, 11): "C", (13, 9): "F", (13, 10): "T"}
FAR = (5, 5)
FAR_CELLS = {h: "T" for h in [(5, 5), (4, 5), (4, 6), (5, 4), (5, 6), (6, 5), (6, 6)]}
ORACLE = (8, 13)    # touches the R1 cells (9, 12) and (9, 13)


def city_hall_of(g, p):
    return piece(g, p, "city_hall")


def ch_position(kx, extra=None, settlements=None, oracle=True, r2=False, city_halls=None, warriors=None, then=None,
                options=None):
    cells = {**MAND_G, Y: "y", HOME: "D", **R1_CELLS, **FAR_CELLS}
    if oracle:
        cells[ORACLE] = "o"
    if r2:
        cells.update(R2_CELLS)
    cells.update(extra or {})
    return cpos(kx, cells, settlements=settlements or [[HOME], []], tiles=[[Y], []], city_halls=city_halls,
                warriors=warriors, then=then, options=options)


# --------------------------------------------------------------------------- C-8 placement


def test_C8_place_the_city_hall_on_seven_eligible_hexes_touching_own(kx):
    pos = ch_position(kx)
    assert kx.legal(pos) == MAND | {"city_hall"}
    out = kx.answer(kx.with_then(pos, ["city_hall"]))
    # R1 only: FAR touches nothing own (no "if possible" fallback); no other centre has 7 free buildable hexes
    assert out["phase"] == "choose_target" and out["legal"] == {R1}
    placed = kx.with_then(pos, ["city_hall", R1])
    assert kx.legal(placed) == MAND                   # the oracle tile just taken is usable from the next turn
    g = kx.game(placed)
    assert city_hall_of(g, 0) == R1
    assert kx.settlements(g, 0) == {HOME}               # plain settlements
    assert g.supply(0) == 39                         # A-C4: the tile is not taken from the 40 settlements
    # A_C7 / A-C3: the cells (9, 12) (9, 13) touch the oracle (8, 13): its tile is taken
    assert kx.tiles(g, 0) == [("city_hall", Y), ("oracle", ORACLE)]
    assert g.tiles_left(ORACLE) == 1


@pytest.mark.parametrize("centre", [FAR, (10, 12), (10, 14), (9, 12)], ids=["far", "covers-own", "covers-mountain",
                                                                           "covers-location"])
def test_C8_illegal_centres_are_refused(kx, centre):
    kx.then_error(ch_position(kx, then=["city_hall", centre]), 1)


SPOILERS = {
    "water": ({(11, 13): "W"}, {}),
    "mountain": ({(11, 13): "M"}, {}),
    "castle": ({(11, 13): "K"}, {}),
    "location": ({(11, 13): "t"}, {}),
    "opponent-settlement": ({}, {"opp": [(11, 13)]}),
    # player 1's warrior on (12, 14) closes (11, 13) (A_C1 (a))
    "warrior-zone": ({(12, 14): "C"}, {"warriors": [[], [(12, 14)]]}),
}


@pytest.mark.parametrize("kind", list(SPOILERS))
def test_C8_all_seven_cells_must_be_eligible_and_there_is_no_fallback(kx, kind):
    # one R1 cell, (11, 13), is not eligible: the city hall is not offered at all, although FAR is free
    cells, extra = SPOILERS[kind]
    pos = ch_position(kx, cells, settlements=[[HOME], extra.get("opp", [])], warriors=extra.get("warriors"))
    assert kx.legal(pos) == MAND
    kx.then_error(kx.with_then(pos, ["city_hall"]), 0)


def test_C8_A_C1_reading_b_city_hall_cells_may_lie_in_a_zone(kx):
    # zone_blocks_settlements_only: the zone of (12, 14) no longer closes (11, 13) to the city hall
    pos = ch_position(kx, {(12, 14): "C"}, warriors=[[], [(12, 14)]], options={"zone_blocks_settlements_only": True})
    assert kx.legal(pos) == MAND | {"city_hall"}
    assert kx.legal(kx.with_then(pos, ["city_hall"])) == {R1}


def test_C8_cells_must_lie_on_the_board(kx):
    # own (1, 3) next to the city hall hex (2, 3); buildable (0, 4) (0, 5) (0, 6) (1, 4) (1, 5): the centre (0, 5)
    # has only 4 neighbours on the board
    cells = {**MAND_G, (2, 3): "y", (1, 3): "D", (0, 4): "F", (0, 5): "F", (0, 6): "F", (1, 4): "F", (1, 5): "F"}
    pos = cpos(kx, cells, settlements=[[(1, 3)], []], tiles=[[(2, 3)], []])
    assert kx.legal(pos) == MAND


def test_C8_two_options_and_once_per_game(kx):
    pos = ch_position(kx, oracle=False, r2=True)
    assert kx.legal(kx.with_then(pos, ["city_hall"])) == {R1, R2}
    # ONCE: a player whose city hall is on the board never places another (R2 is still free and touches HOME)
    placed = ch_position(kx, oracle=False, r2=True, city_halls=[R1, None])
    assert kx.legal(placed) == MAND
    assert city_hall_of(kx.game(placed), 0) == R1


def test_C8_building_next_to_the_city_hall_counts_as_adjacent(kx):
    # CITY_HALL_COUNTS: player 0 has only its city hall R1; the grass (10, 15) touches its cell (10, 14)
    cells = {**MAND_G, **R1_CELLS, (10, 15): "G"}
    pos = cpos(kx, cells, settlements=[[], []], city_halls=[R1, None])
    assert kx.legal(pos) == {(10, 15)}
    assert kx.legal(cpos(kx, cells, settlements=[[], []])) == MAND | {(10, 15)}


# --------------------------------------------------------------------------- C-8 scoring: 7 settlements

CH = (9, 9)   # cells (9, 9) (9, 8) (8, 9) in the top-left sector, (8, 10) (9, 10) top-right, (10, 9) bottom-left,
              # (10, 10) bottom-right; rows 8: 2 cells, 9: 3 cells, 10: 2 cells
CH_CELLS = {h: "G" for h in [(9, 9), (9, 8), (8, 9), (8, 10), (9, 10), (10, 9), (10, 10)]}


def test_C8_city_hall_counts_as_seven_for_citizens_knights_farmers(kx):
    # + own (9, 11) next to the cell (9, 10): one area of 8, row 9 holds 4, sectors 3 / 3 / 1 / 1
    pos = cpos(kx, {**CH_CELLS, (9, 11): "G"}, opp=False, settlements=[[(9, 11)], []], city_halls=[CH, None],
               cards=["citizens", "knights", "farmers"])
    s0, s1 = cscores(pos)
    assert s0["cards"] == {"citizens": 4, "knights": 8, "farmers": 3}
    assert s1["cards"] == {"citizens": 0, "knights": 0, "farmers": 0}


def test_C8_city_hall_counts_as_seven_for_lords_hermits_discoverers(kx):
    # player 1: (2, 2) (2, 4) top left, (2, 12) (2, 14) top right, four separate areas on row 2.
    # Lords: TL 3 v 2 -> 12 / 6; TR 2 v 2 -> 12 / 12; BL 1 v 0 and BR 1 v 0 -> 12 for player 0 only.
    own1 = [(2, 2), (2, 4), (2, 12), (2, 14)]
    pos = cpos(kx, {**CH_CELLS, **{h: "G" for h in own1}}, opp=False, settlements=[[], own1], city_halls=[CH, None],
               cards=["lords", "hermits", "discoverers"])
    s0, s1 = cscores(pos)
    assert s0["cards"] == {"lords": 48, "hermits": 1, "discoverers": 3}
    assert s1["cards"] == {"lords": 18, "hermits": 4, "discoverers": 1}


def test_C8_city_hall_cells_score_one_by_one_for_fishermen(kx):
    # on a water board the 6 outer cells touch water, the centre does not
    pos = cpos(kx, CH_CELLS, fill="W", opp=False, settlements=[[], []], city_halls=[CH, None],
               cards=["fishermen", "miners", "hermits"])
    s0, _ = cscores(pos)
    assert s0["cards"] == {"fishermen": 6, "miners": 0, "hermits": 1}
