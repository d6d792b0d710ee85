"""Harvest build powers: Water mill, Mountain station, Watchtower, University (H-7, H-8, H-11, H-12, X-4, X-5).

Each power builds one settlement on a suitable terrain hex (G C D F T and farmland A, X-4) next to something
(water, mountain, another player's settlement, a special hex), adjacent to own settlements if possible (X-5). The
shared layout: the "thing" sits on (10, 10), whose neighbours are (9, 9) desert, (10, 11) grass, (11, 10) farmland
and mountains / water; the own settlement ``S`` = (10, 12) touches (10, 11) only of those three ((10, 12) touches
(9, 11) (9, 12) (10, 11) (10, 13) (11, 11) (11, 12)); ``S_FAR`` = (3, 3) touches none of them. The power's location
hex is (9, 12) next to ``S`` or (3, 4) next to ``S_FAR``. (10, 13) grass touches ``S`` but not (10, 10).
Player 0's card is forest with ``MAND_T`` (18, 0) (18, 1) (18, 2); player 1 holds canyon with ``OPP_C``.

Rule text quoted (the comments below name these):

APPLY (EN 1293): "Extra actions for the new locations - Apply the building rules of the basic game"
WATER_MILL (EN 1317): "Build one settlement upon a suitable terrain space next to a water space. It must be built
    connecting to an existing settlement of that player, if possible."
MOUNTAIN_STATION (EN 1323): "Build one settlement upon a suitable terrain space next to a mountain space. It must be
    built connecting to an existing settlement of that player, if possible."
WATCHTOWER (EN 1349): "Build one settlement upon a suitable terrain space next to another player's settlement. It
    must be built connecting to your own existing settlements, if possible."
UNIVERSITY (EN 1355): "Build one settlement upon a suitable terrain space next to a location (including castles,
    nomads spaces, palaces and silos). It must be built connecting to an existing settlement of that player, if
    possible."
FARMLAND_SUITABLE (EN 1231): "a new terrain type found on all 4 game board sections that is suitable for being built
    upon: Farmland"
X_5 (spec X-5): "Candidates = (eligible hexes of the required kind); if any candidate touches OWN[p] ..., only those
    touching ones are legal."
"""

import pytest

from tests.rules.harvest.helpers import FARM, hpos, requires_harvest

pytestmark = requires_harvest


THING = (10, 10)
S = (10, 12)
S_FAR = (3, 3)
AROUND = {(9, 9): "D", (10, 11): "G", (11, 10): "A"}
ALL_AROUND = set(AROUND)


def near_position(kx, power, thing, fill, far=False, then=None):
    """``thing`` = {(10, 10): letter} or player 1's settlement (None); ``far``: the own settlement is S_FAR."""
    own = S_FAR if far else S
    loc = (3, 4) if far else (9, 12)
    cells = {**kx.MAND_T, **AROUND, own: "G", (10, 13): "G"}
    opponent = []
    if thing is None:
        cells[THING] = "G"
        opponent = [THING]
    else:
        cells[THING] = thing
    return hpos(kx, cells, fill=fill, settlements=[[own], opponent], card="T", locations={loc: power},
                tiles=[[loc], []], then=then)


POWERS = [
    pytest.param("water_mill", "W", "M", id="H7-water-mill"),           # water on a mountain-filled board
    pytest.param("mountain_station", "M", "W", id="H8-mountain-station"),  # a mountain on a water-filled board
    pytest.param("watchtower", None, "M", id="H11-watchtower"),         # player 1's settlement on (10, 10)
]


@pytest.mark.parametrize("power,thing,fill", POWERS)
def test_H7_H8_H11_adjacent_if_possible(kx, power, thing, fill):
    # WATER_MILL / MOUNTAIN_STATION / WATCHTOWER: of ALL_AROUND only (10, 11) touches S -> the only target; (10, 13)
    # touches S but is next to nothing of the kind
    pos = near_position(kx, power, thing, fill)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {power}
    out = kx.answer(kx.with_then(pos, [power]))
    assert out["player"] == 0 and out["phase"] == "choose_target"
    assert out["legal"] == {(10, 11)}
    g = kx.game(kx.with_then(pos, [power, (10, 11)]))
    assert kx.settlements(g, 0) == {S, (10, 11)}
    assert g.supply(0) == 40 - 1 - 1
    # once per turn with one tile; the new settlement on (10, 11) touches the farmland (11, 10), so the farm action
    # is now open ("building a settlement on an adjacent farmland space ... at any time before or after their
    # mandatory action", EN 1269; corrected in 9e85db0: the first version of this test left it out)
    assert kx.legal(kx.with_then(pos, [power, (10, 11)])) == kx.MAND_T_HEXES | {FARM}


@pytest.mark.parametrize("power,thing,fill", POWERS)
def test_H7_H8_H11_anywhere_next_to_it_when_not_adjacent(kx, power, thing, fill):
    # "if possible": nothing next to the kind touches S_FAR -> every suitable hex next to it, farmland included
    # (FARMLAND_SUITABLE, X-4); the water / mountain / castle hexes are not suitable
    pos = near_position(kx, power, thing, fill, far=True)
    assert kx.legal(kx.with_then(pos, [power])) == ALL_AROUND


@pytest.mark.parametrize("power,thing,fill", POWERS)
def test_H7_H8_H11_illegal_targets_are_refused(kx, power, thing, fill):
    # not adjacent although adjacent is possible: (9, 9), (11, 10); next to own but not to the kind: (10, 13);
    # the thing itself; a mandatory hex far away
    for target in [(9, 9), (11, 10), (10, 13), THING, (18, 0)]:
        kx.then_error(near_position(kx, power, thing, fill, then=[power, target]), 1)


def test_H11_own_settlements_do_not_count_as_another_players(kx):
    # WATCHTOWER "another player's settlement": with no opponent on the board, hexes next to own settlements are no
    # targets and the watchtower has no completion
    cells = {**kx.MAND_T, **AROUND, S: "G", (10, 13): "G"}
    pos = hpos(kx, cells, settlements=[[S], []], card="T", locations={(9, 12): "watchtower"}, tiles=[[(9, 12)], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES


# --------------------------------------------------------------------------- H-12 university

UH = (15, 15)
U_OWN = (15, 16)          # touches UH; its other neighbours are mountains
SPECIALS = {(4, 4): "K", (8, 8): "O"}
NEXT_TO_SPECIAL = {(4, 5): "G", (4, 3): "A", (8, 9): "G", (12, 13): "G"}  # (12, 13) touches the farm hex (12, 12)
PLAIN = {(7, 2): "G"}     # next to nothing special


def university_position(kx, extra_cells=None, extra_own=(), expansions=("harvest",), then=None):
    cells = {**kx.MAND_T, **SPECIALS, **NEXT_TO_SPECIAL, **PLAIN, U_OWN: "G", **(extra_cells or {})}
    own = [U_OWN, *extra_own]
    for h in extra_own:
        cells.setdefault(h, "G")
    return hpos(kx, cells, settlements=[own, []], card="T", locations={UH: "university", (12, 12): "farm"},
                tiles=[[UH], []], expansions=expansions, then=then)


def test_H12_next_to_a_castle_silo_or_location(kx):
    # UNIVERSITY "(including castles, ... and silos)": nothing next to a special touches U_OWN -> all four; the
    # plain grass (7, 2) is next to nothing special
    pos = university_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"university"}
    assert kx.legal(kx.with_then(pos, ["university"])) == set(NEXT_TO_SPECIAL)


def test_H12_nomad_spaces_count(kx):
    # UNIVERSITY "nomads spaces": with Nomads, (2, 13) next to the nomad space (2, 12)
    pos = university_position(kx, {(2, 12): "N", (2, 13): "G"}, expansions=("harvest", "nomads"))
    assert kx.legal(kx.with_then(pos, ["university"])) == set(NEXT_TO_SPECIAL) | {(2, 13)}


def test_H12_palaces_count(kx):
    # UNIVERSITY "palaces": with Marshlands, (6, 15) next to the palace (6, 14)
    pos = university_position(kx, {(6, 14): "P", (6, 15): "G"}, expansions=("harvest", "marshlands"))
    assert kx.legal(kx.with_then(pos, ["university"])) == set(NEXT_TO_SPECIAL) | {(6, 15)}


def test_H12_adjacent_if_possible(kx):
    # an own settlement on (8, 10) touches (8, 9) (next to the silo): the only target
    pos = university_position(kx, extra_own=[(8, 10)])
    assert kx.legal(kx.with_then(pos, ["university"])) == {(8, 9)}
    for target in [(4, 5), (4, 3), (12, 13), (7, 2)]:
        kx.then_error(university_position(kx, extra_own=[(8, 10)], then=["university", target]), 1)


def test_H12_a_university_build_next_to_a_location_takes_its_tile(kx):
    # APPLY "Apply the building rules of the basic game": (12, 13) touches the farm hex (12, 12): a farm tile
    g = kx.game(university_position(kx, then=["university", (12, 13)]))
    assert ("farm", (12, 12)) in kx.tiles(g, 0)
    assert g.tiles_left((12, 12)) == 1
