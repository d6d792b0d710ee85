"""Red Kingdom Builder cards (N-14..N-17, A-N9) and Workers/Merchants with nomad spaces (A-X2).

Gold earned during play is read from the "gold" column of ``game.scores()`` right after the builds;
at final scoring the red cards themselves are worth 0 (their entry in "cards" is 0).

Rule text quoted (the comments below name these):

RED_CHECK (EN 604): "The active player must check whether the conditions on red cards have been met after building
    each single new settlement. If these conditions have been fulfilled, the player immediately records the gold
    earned on the score track."
RED_FINAL (EN 606): "Ignore red Kingdom Builder cards during final scoring."
FAMILIES (EN 614-616): "Build settlements in a straight line. 2 gold, if you built all 3 settlements of the
    mandatory action adjacent to each other in straight line (horizontally or diagonally)."
FAMILIES_EXAMPLE (EN 626): "Here are 2 examples of settlements being built in a straight line during a player's
    mandatory action."
SHEPHERDS (EN 632-634): "Complete terrain areas. 2 gold for each of your settlements not adjacent to an empty
    terrain space of the same kind on which this settlement was just built."
SHEPHERDS_EXAMPLE (EN 644-648): "If the player builds her settlements in order ABC, she earns 2 gold, but... ...if
    she instead builds the settlements in order CBA, she earns no gold."
AMBASSADORS (EN 654-656): "Build settlements adjacent to other players' settlements. 1 gold for each of your
    settlements built adjacent to at least one settlement of another player."
AMBASSADORS_NOTE (EN 660): "Check whether you fulfill the condition on this card after building every single
    settlement, whether during your mandatory action or extra actions."
AMBASSADORS_EXAMPLE (EN 664-670): "1 gold 1 gold 0 gold. The orange player earns 2 gold during her turn."
A_N6_SHEPHERDS (spec A-N6): "Is a wall 'empty' for Shepherds? Default: no; a wall is not empty."
A_N9 (spec A-N9): "Default: builds and placements ... trigger red cards; moves do not."
A_X2 (spec A-X2): "Default: castle + location + nomad space + palace count [for Workers and Merchants]. Flag
    nomad_spaces_not_special: Workers/Merchants ignore nomad spaces even with Nomads."
"""

import pytest

# --------------------------------------------------------------------------- N-15 families

FAMILY_CASES = {
    # name: (the 3 grass hexes, build order, gold)
    "row-middle-first": ([(10, 10), (10, 11), (10, 12)], [(10, 11), (10, 10), (10, 12)], 2),
    "row-in-order": ([(10, 10), (10, 11), (10, 12)], [(10, 10), (10, 11), (10, 12)], 2),
    # diagonal (10, 10) NE (9, 10) NE (8, 11), built middle first
    "diagonal-ne": ([(10, 10), (9, 10), (8, 11)], [(9, 10), (8, 11), (10, 10)], 2),
    # diagonal (10, 10) NW (9, 9) NW (8, 9)
    "diagonal-nw": ([(10, 10), (9, 9), (8, 9)], [(8, 9), (9, 9), (10, 10)], 2),
    # bent: east then north-east
    "bent": ([(10, 10), (10, 11), (9, 11)], [(10, 10), (10, 11), (9, 11)], 0),
    # in a row but not adjacent (nothing adjacent is possible, so each build goes anywhere)
    "gapped": ([(10, 10), (10, 12), (10, 14)], [(10, 10), (10, 12), (10, 14)], 0),
}


@pytest.mark.parametrize("name", list(FAMILY_CASES))
def test_N15_families_straight_line_of_the_mandatory_action(kx, name):
    # FAMILIES / FAMILIES_EXAMPLE: the only grass hexes are the three given; player 0 has no settlement.
    hexes, order, expected = FAMILY_CASES[name]
    pos = kx.position({h: "G" for h in hexes}, settlements=[[], []], card="G",
                      cards=["families", "fishermen", "knights"])
    assert kx.legal(pos) == set(hexes)
    for k in range(1, 3):
        assert order[k] in kx.legal(kx.with_then(pos, order[:k]))
    g = kx.game(kx.with_then(pos, order))
    assert kx.settlements(g, 0) == set(hexes)
    row = kx.game_scores(g)[0]
    assert row["gold"] == expected
    assert row["cards"]["families"] == 0                         # RED_FINAL


def test_N15_families_counts_once_per_turn_at_the_end_of_the_mandatory_action(kx):
    # after 2 of the 3 builds nothing is paid yet
    pos = kx.position({(10, 10): "G", (10, 11): "G", (10, 12): "G"}, settlements=[[], []], card="G",
                      cards=["families", "fishermen", "knights"], then=[(10, 10), (10, 11)])
    assert kx.gold(kx.game(pos), 0) == 0


# --------------------------------------------------------------------------- N-16 shepherds

D_, A_, B_, C_ = (10, 9), (10, 10), (10, 11), (10, 12)   # a flower area D-A-B-C in a row


@pytest.mark.parametrize("order,steps,expected", [
    # ABC: A (B, D empty) 0; B (C empty) 0; C (no empty flower neighbour) 2
    ("ABC", [(A_, {D_, B_}), (B_, {D_, C_}), (C_, None)], 2),
    # CBA: C (B empty) 0; B (A empty) 0; A (D empty) 0
    ("CBA", [(C_, {B_}), (B_, {A_}), (A_, None)], 0),
])
def test_N16_shepherds_en644_build_order(kx, order, steps, expected):
    # SHEPHERDS_EXAMPLE rebuilt: the 4th flower hex D touches A only, so the last build decides.
    pos = kx.position({h: "F" for h in (D_, A_, B_, C_)}, settlements=[[], []], card="F",
                      cards=["shepherds", "fishermen", "knights"])
    assert kx.legal(pos) == {D_, A_, B_, C_}
    then = []
    for hex_, nxt in steps:
        then.append(hex_)
        if nxt is not None:
            assert kx.legal(kx.with_then(pos, then)) == nxt
    row = kx.game_scores(kx.game(kx.with_then(pos, then)))[0]
    assert row["gold"] == expected
    assert row["cards"]["shepherds"] == 0


def test_N16_shepherds_wall_is_not_empty(kx):
    # A_N6_SHEPHERDS: flower A (10, 10), B (10, 11); the flower (10, 12) holds a wall; far flower (15, 5) (15, 6).
    # Build A (B empty: 0), B (A built, (10, 12) walled: 2), then (15, 5) (no flower next to own is free ->
    # anywhere; (15, 6) empty: 0).
    cells = {(10, 10): "F", (10, 11): "F", (10, 12): "F", (15, 5): "F", (15, 6): "F"}
    pos = kx.position(cells, settlements=[[], []], card="F", walls=[(10, 12)],
                      cards=["shepherds", "fishermen", "knights"])
    assert kx.legal(kx.with_then(pos, [(10, 10), (10, 11)])) == {(15, 5), (15, 6)}
    assert kx.gold(kx.game(kx.with_then(pos, [(10, 10), (10, 11)])), 0) == 2
    assert kx.gold(kx.game(kx.with_then(pos, [(10, 10), (10, 11), (15, 5)])), 0) == 2


def test_N16_shepherds_counts_extra_action_builds(kx):
    # RED_CHECK "each single new settlement": the garden builds on the lone flower hex (5, 7) -> 2
    cells = {**kx.MAND_T, (5, 5): "g", (5, 6): "G", (5, 7): "F"}
    pos = kx.position(cells, settlements=[[(5, 6)], []], card="T", tiles=[[(5, 5)], []],
                      cards=["shepherds", "fishermen", "knights"], then=["garden", (5, 7)])
    assert kx.gold(kx.game(pos), 0) == 2


# --------------------------------------------------------------------------- N-17 ambassadors


def test_N17_ambassadors_en670_example(kx):
    # AMBASSADORS_EXAMPLE: the opponent's (9, 10) touches (10, 10) and (10, 11), not (10, 12): 1 + 1 + 0
    cells = {(10, 10): "G", (10, 11): "G", (10, 12): "G", (9, 10): "T"}
    pos = kx.position(cells, settlements=[[], [(9, 10)]], card="G", cards=["ambassadors", "fishermen", "knights"])
    assert kx.legal(pos) == {(10, 10), (10, 11), (10, 12)}
    assert kx.gold(kx.game(kx.with_then(pos, [(10, 10)])), 0) == 1       # immediately, per build
    g = kx.game(kx.with_then(pos, [(10, 10), (10, 11), (10, 12)]))
    row = kx.game_scores(g)[0]
    assert row["gold"] == 2 and row["cards"]["ambassadors"] == 0


def test_N17_ambassadors_counts_extra_action_builds(kx):
    # AMBASSADORS_NOTE: the garden build (5, 7) touches the opponent's (4, 8) -> 1
    cells = {**kx.MAND_T, (5, 5): "g", (5, 6): "G", (5, 7): "F", (4, 8): "G"}
    pos = kx.position(cells, settlements=[[(5, 6)], [(4, 8)]], card="T", tiles=[[(5, 5)], []],
                      cards=["ambassadors", "fishermen", "knights"], then=["garden"])
    assert kx.legal(pos) == {(5, 7)}
    assert kx.gold(kx.game(kx.with_then(pos, ["garden", (5, 7)])), 0) == 1


def test_N17_ambassadors_ignores_moves(kx):
    # A_N9: the Barn moves (12, 12) to the grass (5, 7) next to the opponent's (4, 8): no gold.
    # Own (5, 6) (forest) holds the barn tile of (5, 5); (5, 7) is the only grass.
    cells = {(5, 5): "b", (5, 6): "T", (12, 12): "T", (5, 7): "G", (4, 8): "G"}
    pos = kx.position(cells, settlements=[[(5, 6), (12, 12)], [(4, 8)]], card="G", tiles=[[(5, 5)], []],
                      cards=["ambassadors", "fishermen", "knights"])
    assert kx.legal(pos) == {(5, 7), "barn"}
    assert kx.legal(kx.with_then(pos, ["barn"])) == {(5, 6), (12, 12)}
    assert kx.legal(kx.with_then(pos, ["barn", (12, 12)])) == {(5, 7)}
    g = kx.game(kx.with_then(pos, ["barn", (12, 12), (5, 7)]))
    assert kx.settlements(g, 0) == {(5, 6), (5, 7)}
    assert kx.gold(g, 0) == 0


# --------------------------------------------------------------------------- N-14 final scoring


def test_N14_red_cards_score_zero_at_final_scoring(kx):
    # RED_FINAL: a position where every red condition would hold; only banked gold counts
    cells = {(10, 10): "G", (10, 11): "G", (10, 12): "G", (9, 10): "T"}
    pos = kx.position(cells, settlements=[[(10, 10), (10, 11), (10, 12)], [(9, 10)]], gold=[5, 2],
                      cards=["families", "shepherds", "ambassadors"])
    s0, s1 = kx.scores(pos)
    assert s0["cards"] == {"families": 0, "shepherds": 0, "ambassadors": 0}
    assert (s0["castles"], s0["capitols"], s0["gold"], s0["total"]) == (0, 0, 5, 5)
    assert s1["cards"] == {"families": 0, "shepherds": 0, "ambassadors": 0}
    assert (s1["gold"], s1["total"]) == (2, 2)


# --------------------------------------------------------------------------- A-X2 workers / merchants


@pytest.mark.parametrize("expansions,options,workers,merchants", [
    # default with Nomads: the nomad space counts. Workers: (10, 11) next to N, (10, 12) next to K -> 2.
    # Merchants: the area links N and K -> 2 x 4 = 8.
    (["nomads"], None, 2, 8),
    # flag: nomad spaces ignored. Workers: (10, 12) only -> 1. Merchants: K alone -> 0.
    (["nomads"], {"nomad_spaces_not_special": True}, 1, 0),
    # base game (no Nomads): nomad spaces do not count (docs/rules-readings.md)
    ([], None, 1, 0),
], ids=["nomads-default", "nomads-flag", "base"])
def test_A_X2_workers_and_merchants_with_nomad_spaces(kx, expansions, options, workers, merchants):
    cells = {(10, 10): "N", (10, 11): "G", (10, 12): "G", (10, 13): "K"}
    pos = kx.position(cells, settlements=[[(10, 11), (10, 12)], []], expansions=expansions, options=options,
                      cards=["workers", "merchants", "hermits"])
    s0, s1 = kx.scores(pos)
    assert s0["cards"] == {"workers": workers, "merchants": merchants, "hermits": 1}
    assert s0["castles"] == 3
    assert s0["total"] == workers + merchants + 1 + 3
    assert s1["total"] == 0
