"""Crossroads readings settled in kbenv issue 19: Shepherds and the city hall, walls in a warrior zone.

Positions are built on mountain-filled boards (conftest) through the position contract. Player 0's card is
grass with ``MAND`` (18, 0) (18, 1) (18, 2) as its mandatory area unless a test says otherwise; player 1
holds desert with ``OPP_D`` (crossroads_helpers).

Rule text quoted (the comments below name these):

RED_CHECK (EN 604): "The active player must check whether the conditions on red cards have been met after building
    each single new settlement."
SHEPHERDS (EN 632-634): "2 gold for each of your settlements not adjacent to an empty terrain space of the same kind
    on which this settlement was just built."
CITY_HALL (EN 859-861): "You must place it adjacent to one of your settlements on 7 empty spaces eligible for
    building. The city hall tile counts as 7 settlements in all respects for Kingdom Builder cards and task cards!"
A_C1 (spec A-C1): "(a) The zone blocks every placement or move of any piece onto a zone hex: settlements, warriors,
    wagons, ships, city-hall cells, walls and scouts. ... (b) It blocks settlements only. DE says 'Siedlungen' ...
    Default (a) for settlements, meeples and city hall; walls and scouts also blocked."
ZONE_DE (DE 982): "Die Krieger verhindern den Bau und das Versetzen von eigenen und fremden Siedlungen auf die an
    ihn angrenzenden Felder."
"""

import pytest

from tests.rules.crossroads.helpers import MAND, cpos

BOTH = ("nomads", "crossroads")
RED = ["shepherds", "fishermen", "knights"]

# --------------------------------------------------------------------------- Shepherds and the city hall

Y = (10, 10)        # the city hall location tile, held by player 0
HOME = (10, 11)     # player 0's settlement (desert)
CENTRE = (10, 13)   # the rosette: centre and its 6 neighbours; (10, 12) touches HOME
ROSETTE = [(10, 13), (10, 12), (10, 14), (9, 12), (9, 13), (11, 12), (11, 13)]
OUTSIDE_FLOWER = (8, 13)   # touches the rosette cells (9, 12) and (9, 13) only


def hall_position(kx, extra=None, then=("city_hall", CENTRE)):
    cells = {(18, 0): "G", (18, 1): "G", (18, 2): "G", Y: "y", HOME: "D", **{h: "F" for h in ROSETTE}}
    cells.update(extra or {})
    return cpos(kx, cells, settlements=[[HOME], []], tiles=[[Y], []], cards=RED, expansions=BOTH,
                then=list(then) if then else None)


def test_the_rosette_fixture(kx):
    assert set(ROSETTE) == kx.neighbours(*CENTRE) | {CENTRE}
    assert kx.neighbours(*OUTSIDE_FLOWER) & set(ROSETTE) == {(9, 12), (9, 13)}
    assert kx.legal(kx.with_then(hall_position(kx, then=None), ["city_hall"])) == {CENTRE}


def test_city_hall_filling_a_flower_area_pays_shepherds_for_all_seven_cells(kx):
    # CITY_HALL: the tile goes down whole on 7 spaces and counts as 7 settlements. RED_CHECK / SHEPHERDS after
    # it stands: every cell's flower neighbours are cells of the hall, none is empty -> 7 x 2 = 14 gold.
    # (Checking each cell while the later cells were still empty paid 4.)
    g = kx.game(hall_position(kx))
    assert kx.gold(g, 0) == 14
    assert kx.game_scores(g)[0]["cards"]["shepherds"] == 0     # red cards score nothing at the end


def test_city_hall_cells_next_to_an_empty_flower_hex_pay_nothing(kx):
    # OUTSIDE_FLOWER stays empty and touches (9, 12) and (9, 13): those two cells pay 0, the other five 2 each.
    g = kx.game(hall_position(kx, {OUTSIDE_FLOWER: "F"}))
    assert kx.gold(g, 0) == 10


def test_city_hall_on_mixed_terrain_checks_each_cell_against_its_own_terrain(kx):
    # (11, 13) is canyon and (12, 13), next to it, is empty canyon: that cell pays 0. The six flower cells touch
    # no empty flower hex: 12 gold.
    g = kx.game(hall_position(kx, {(11, 13): "C", (12, 13): "C"}))
    assert kx.gold(g, 0) == 12


# --------------------------------------------------------------------------- walls in a warrior zone (A-C1)

QUARRY_HEX = (10, 10)
QUARRY_HOME = (10, 11)   # its desert neighbours (10, 12) and (11, 11) are the wall targets
WARRIOR = (10, 13)       # player 1's warrior: its zone holds (10, 12) but not (11, 11)


def quarry_position(kx, options=None, then=None):
    cells = {QUARRY_HEX: "q", QUARRY_HOME: "G", (10, 12): "D", (11, 11): "D", WARRIOR: "C"}
    return cpos(kx, cells, settlements=[[QUARRY_HOME], []], card="D", tiles=[[QUARRY_HEX], []],
                warriors=[[], [WARRIOR]], expansions=BOTH, options=options, then=then)


def test_the_quarry_fixture(kx):
    assert {(10, 12), (11, 11)} <= kx.neighbours(*QUARRY_HOME)
    assert (10, 12) in kx.neighbours(*WARRIOR) and (11, 11) not in kx.neighbours(*WARRIOR)


@pytest.mark.parametrize("options, walls", [
    (None, {(11, 11)}),                                          # (a): the zone closes (10, 12) to the wall
    ({"zone_blocks_settlements_only": True}, {(10, 12), (11, 11)}),  # (b): settlements only; a wall is none
])
def test_quarry_walls_and_the_warrior_zone(kx, options, walls):
    pos = quarry_position(kx, options)
    # ZONE_DE / both readings: the settlement may not go on the zone hex (10, 12)
    assert kx.legal(pos) == {(11, 11), "quarry"}
    assert kx.legal(kx.with_then(pos, ["quarry"])) == walls
    if (10, 12) in walls:
        g = kx.game(kx.with_then(pos, ["quarry", (10, 12)]))
        assert (10, 12) in {tuple(h) for h in g.walls()}
    else:
        kx.then_error(kx.with_then(pos, ["quarry", (10, 12)]), 1)


def test_settlements_stay_out_of_the_zone_under_both_readings(kx):
    # the mandatory action after walling (11, 11): no desert next to own is free outside the zone, so it may
    # go on any free desert ("if possible"): the opponent's area OPP_D, never the zone hex (10, 12)
    for options in (None, {"zone_blocks_settlements_only": True}):
        out, pos = kx.settled(quarry_position(kx, options, then=["quarry", (11, 11)]))
        if "done" in out["legal"]:   # (b): the second wall could still go on (10, 12); stop after one
            out, pos = kx.settled(kx.with_then(pos, ["quarry", (11, 11), "done"]))
        legal = out["legal"]
        assert (10, 12) not in legal and legal >= {(16, 0), (16, 1), (16, 2)}
        assert MAND.isdisjoint(legal)   # MAND is grass, not the desert card
