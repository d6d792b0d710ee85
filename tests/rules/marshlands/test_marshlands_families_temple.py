"""Families (Nomads, N-15) in Marshlands turns of more or fewer than 3 mandatory builds (A-N10).

Player 0 holds a settlement ``X`` far from the row of four hexes ``ROW`` = (10, 10) .. (10, 13) and, where a test
says so, owes one settlement set aside with the Temple (``temple_reserve``). Gold earned during play is read from
the "gold" column of the scores right after the builds.

Rule text quoted (the comments below name these):

FAMILIES (EN 614-616): "2 gold, if you built all 3 settlements of the mandatory action adjacent to each other in
    straight line (horizontally or diagonally)."
TEMPLE (EN 1148): "you must build this settlement during the mandatory action on your next turn in addition to your
    other required builds."
A_N10 (spec A-N10): "2 swamp builds: no gold. Temple builds (3+k): TG says temple builds are not part of the
    mandatory action for Families. Default: the 3 regular mandatory hexes form the line and the extra temple builds
    are ignored."
A_M6 (spec A-M6): "The reserve settlements are built first from the reserve, then the rest from the supply (R)."
"""

import pytest

from tests.rules.marshlands.helpers import game_mscores, mpos, reserve, swamp_card

X = (5, 5)
ROW = [(10, 10), (10, 11), (10, 12), (10, 13)]
EXPANSIONS = ("marshlands", "nomads")
CARDS = ["families", "fishermen", "knights"]


def row_position(kx, terrain: str, hand: str, owed: int, then):
    """Player 0 (settlement X, hand ``hand``) builds its mandatory action along ROW (all of ``terrain``)."""
    cells = {X: "G", **{h: terrain for h in ROW}}
    return mpos(kx, cells, settlements=[[X], []], hands=[hand, "C"], expansions=EXPANSIONS, cards=CARDS,
                temple_reserve=[owed, 0], supply=[40 - 1 - owed, 40], then=then)


@pytest.mark.parametrize("order,gold", [
    # A_M6: the first build is the reserve's; the 3 regular builds (10, 11) (10, 12) (10, 13) lie in a row
    (ROW, 2),
    # the regular builds (10, 10) (10, 12) (10, 13) have a gap: no line of 3 (the 4 stand in a row all the same)
    ([(10, 11), (10, 10), (10, 12), (10, 13)], 0),
])
def test_A_N10_families_with_a_temple_reserve_reads_the_3_regular_builds(kx, order, gold):
    # TEMPLE "in addition to your other required builds": 4 builds; A_N10 the reserve build is ignored
    pos = row_position(kx, "G", "G", 1, None)
    g = kx.game(pos)
    assert reserve(g, 0) == 1
    for k in range(1, 4):
        assert order[k] in kx.legal(kx.with_then(pos, order[:k]))
    assert game_mscores(kx.game(kx.with_then(pos, order[:3])))[0]["gold"] == 0   # not before the 4th build
    g = kx.game(kx.with_then(pos, order))
    assert kx.settlements(g, 0) == {X, *ROW} and reserve(g, 0) == 0
    assert game_mscores(g)[0]["gold"] == gold


def test_A_N10_families_control_three_builds_in_a_row_without_a_reserve(kx):
    # FAMILIES with Marshlands in play and no reserve: the 3 builds in a row pay 2 gold
    g = kx.game(row_position(kx, "G", "G", 0, ROW[:3]))
    assert kx.settlements(g, 0) == {X, *ROW[:3]}
    assert game_mscores(g)[0]["gold"] == 2


def test_A_N10_families_never_scores_two_swamp_builds_plus_a_reserve(kx):
    # A_N10 "2 swamp builds: no gold": the swamp card's 2 builds plus 1 reserve build are 3 settlements in a row,
    # but only 2 of them are regular builds
    g = kx.game(row_position(kx, "S", swamp_card("D"), 1, ROW[:3]))
    assert kx.settlements(g, 0) == {X, *ROW[:3]} and reserve(g, 0) == 0
    assert game_mscores(g)[0]["gold"] == 0
