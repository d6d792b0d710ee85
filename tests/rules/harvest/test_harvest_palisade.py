"""Harvest Palisade (H-13, A-H6).

Mountain-filled board. Player 0's area ``A1 A2 A3`` = (10, 10) (10, 11) (10, 12) (a row) and a lone settlement
``L`` = (5, 5); the palisade hex ``PH`` = (9, 10) touches A1 and A2. Free buildable hexes and the own settlements
they touch (odd-r neighbours worked out by hand, checked with a throw-away script):

* (10, 9) grass: A1 only;  (10, 13) grass: A3 only;  (11, 11) desert: A2 and A3;
* (5, 6) grass: L only;  (7, 7) grass: nothing.

Player 0's card is forest with ``MAND_T``; player 1 holds canyon with ``OPP_C``.

Rule text quoted (the comments below name these):

PALISADE (EN 1361): "Move a settlement to a suitable terrain space connected to the same settlement area."
PALISADE_DE (DE 1562): "Eine Siedlung auf ein bebaubares Geländefeld versetzen, welches angrenzend an das gleiche
    Siedlungsgebiet ist."
A_H6 (spec A-H6): "The area is the settlement's area in OWN, computed with the settlement lifted. The target must
    touch that remaining area (DE wording). A lone settlement (an area of 1): (a) has no remaining area, so Palisade
    cannot move it; (b) its area includes itself, so it may step to a free neighbour of its own hex. Default (a),
    flag. Adjacency-if-possible is moot."
"""

import pytest

from tests.rules.harvest.helpers import flag, hpos, requires_harvest, with_options

pytestmark = requires_harvest


A1, A2, A3 = (10, 10), (10, 11), (10, 12)
L = (5, 5)
PH = (9, 10)
TARGETS = {
    A3: {(10, 9), (11, 11)},              # remaining area {A1, A2}
    A1: {(11, 11), (10, 13)},             # remaining area {A2, A3}
    A2: {(10, 9), (10, 13), (11, 11)},    # remaining area {A1, A3} (split in two by the lift)
}


def palisade_position(kx, then=None, options=None):
    cells = {**kx.MAND_T, A1: "G", A2: "G", A3: "G", L: "G", (10, 9): "G", (10, 13): "G", (11, 11): "D",
             (5, 6): "G", (7, 7): "G"}
    return hpos(kx, cells, settlements=[[A1, A2, A3, L], []], card="T", locations={PH: "palisade"},
                tiles=[[PH], []], then=then, options=options)


def test_H13_sources_are_settlements_of_an_area(kx):
    # A_H6 (a): the lone L has no remaining area and no target
    pos = palisade_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"palisade"}
    out = kx.answer(kx.with_then(pos, ["palisade"]))
    assert out["phase"] == "choose_source" and out["legal"] == {A1, A2, A3}


@pytest.mark.parametrize("source", [A3, A1, A2], ids=["end-A3", "end-A1", "middle-A2"])
def test_H13_the_target_touches_the_same_area_with_the_settlement_lifted(kx, source):
    # PALISADE / PALISADE_DE "angrenzend an das gleiche Siedlungsgebiet" / A_H6: (5, 6) touches another own area
    # (L), (7, 7) no own area; a hex touching only the lifted settlement is no target
    pos = palisade_position(kx, then=["palisade", source])
    out = kx.answer(pos)
    assert out["phase"] == "choose_target" and out["legal"] == TARGETS[source]


def test_H13_moving_the_settlement(kx):
    g = kx.game(palisade_position(kx, then=["palisade", A3, (10, 9)]))
    assert kx.settlements(g, 0) == {(10, 9), A1, A2, L}
    assert g.supply(0) == 40 - 4                        # a move: the supply is unchanged
    assert kx.tiles(g, 0) == [("palisade", PH)]         # A1 and A2 still touch PH
    assert kx.legal(palisade_position(kx, then=["palisade", A3, (10, 9)])) == kx.MAND_T_HEXES


@pytest.mark.parametrize("source,target", [(A3, (10, 13)), (A3, (5, 6)), (A1, (10, 9)), (A1, (7, 7)),
                                           (A2, (9, 11)), (A3, A1)])
def test_H13_illegal_targets_are_refused(kx, source, target):
    # touching only the lifted settlement, another area, no area, a mountain, occupied
    kx.then_error(palisade_position(kx, then=["palisade", source, target]), 2)


def test_A_H6_a_lone_settlement_cannot_be_moved(kx):
    kx.then_error(palisade_position(kx, then=["palisade", L]), 1)


def test_A_H6_flag_a_lone_settlement_steps_to_a_free_neighbour(kx):
    # A_H6 (b): L's area includes itself -> the free suitable neighbour (5, 6); its other neighbours are mountains
    pos = with_options(palisade_position(kx), flag("A-H6"))
    assert kx.legal(kx.with_then(pos, ["palisade"])) == {A1, A2, A3, L}
    assert kx.legal(kx.with_then(pos, ["palisade", L])) == {(5, 6)}


def test_H13_no_area_no_palisade(kx):
    # only lone settlements: no source, the palisade has no completion
    cells = {**kx.MAND_T, (10, 10): "G", (5, 5): "G", (5, 6): "G", (10, 11): "G"}
    pos = hpos(kx, cells, settlements=[[(10, 10), (5, 5)], []], card="T", locations={PH: "palisade"},
               tiles=[[PH], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES
