"""Building rules 1-3 and the mandatory action (base rulebook, "Mandatory action" and
"Building rules - These rules apply to each single settlement (of three) built as mandatory
action and as extra action").

Boards are all mountain (``M``, never buildable) except the hexes placed by each test, so the
legal sets below are worked out by hand. Neighbours in odd-r: for even r, (r, c+-1),
(r-1, c-1), (r-1, c), (r+1, c-1), (r+1, c); for odd r, (r, c+-1), (r-1, c), (r-1, c+1),
(r+1, c), (r+1, c+1).
"""

import pytest

# Rule texts quoted by the tests.
MANDATORY = ("the player must build 3 settlements from their personal supply on unoccupied hexes "
             "of the same terrain type as their played card, strictly obeying the building rules")
RULE_1 = "Exactly one settlement may be built on any one eligible terrain space."
RULE_2 = ("Settlements may be built only on hexes of these terrain types: Grass, canyon, desert, "
          "flower field, and forest.")
RULE_3 = ("Always, a player must build each new settlement adjacent to at least one of their own "
          "existing settlements, if possible. If this is not possible, the player must (if "
          "mandatory action) ... choose a new unoccupied hex ... a) If this is the player's "
          "mandatory action ... they must choose a hex of the same terrain type as their played "
          "terrain card.")
SUCCESSIVE = ("The mandatory action must be performed and the 3 settlements must be built "
              "successively one after the other.")


def test_first_settlement_anywhere_on_card_terrain(kb):
    # MANDATORY + RULE_3: with no own settlement nothing can be adjacent, so every unoccupied
    # grass hex is legal; RULE_1: the grass hex holding player 1's settlement is not; RULE_2:
    # other terrains, water, castle and location hexes are not.
    cells = {
        (2, 3): "G", (10, 10): "G", (19, 0): "G", (17, 15): "G",
        (5, 5): "C", (6, 6): "D", (7, 7): "F", (8, 8): "T",
        (9, 9): "W", (11, 2): "K", (13, 13): "o",
    }
    g = kb.game(cells, hands=["G", "G"], settlements=[[], [(17, 15)]])
    assert g.phase == "idle"
    assert g.current_player == 0
    expected = {(2, 3), (10, 10), (19, 0)}
    # Nothing else is legal: no tile held, mandatory action not done (no END_TURN).
    assert kb.legal(g) == {kb.H(r, c) for r, c in expected}


@pytest.mark.parametrize("card", list("GCDFT"))
def test_first_settlement_only_on_played_terrain(kb, card):
    # MANDATORY: "on unoccupied hexes of the same terrain type as their played card".
    # Two hexes of each of the 5 terrains: terrain i at (2, 2+3i) and (15, 3+3i).
    cells = {}
    for i, t in enumerate("GCDFT"):
        cells[(2, 2 + 3 * i)] = t
        cells[(15, 3 + 3 * i)] = t
    g = kb.game(cells, hands=[card, card])
    i = "GCDFT".index(card)
    assert kb.hexes(g) == {(2, 2 + 3 * i), (15, 3 + 3 * i)}


@pytest.mark.parametrize("card,expected", [
    ("G", (11, 10)), ("C", (10, 9)), ("D", (10, 11)), ("F", (9, 9)), ("T", (9, 10)),
])
def test_must_build_adjacent_on_card_terrain(kb, card, expected):
    # RULE_3: an own settlement at (10, 10); each of its six neighbours has a different
    # terrain, so exactly one neighbour matches the card and must be chosen, although far hexes
    # of every terrain are free too. The water neighbour (11, 9) is never legal (RULE_2).
    cells = {
        (10, 10): "G",
        (10, 9): "C", (10, 11): "D", (9, 9): "F", (9, 10): "T", (11, 9): "W", (11, 10): "G",
        (3, 3): "G", (3, 5): "C", (3, 7): "D", (3, 9): "F", (3, 11): "T",
    }
    g = kb.game(cells, hands=[card, card], settlements=[[(10, 10)], []])
    assert kb.hexes(g) == {expected}


def test_not_adjacent_possible_then_any_hex_of_card_terrain(kb):
    # RULE_3: no neighbour of the own settlement (10, 10) is grass, so any unoccupied grass hex
    # may be chosen (RULE_1: (15, 5) is occupied by player 1; (10, 10) by player 0 itself).
    cells = {
        (10, 10): "G",
        (10, 9): "W", (10, 11): "K", (9, 9): "M", (9, 10): "C", (11, 9): "D", (11, 10): "M",
        (2, 2): "G", (4, 15): "G", (18, 18): "G", (10, 12): "G", (15, 5): "G",
    }
    g = kb.game(cells, hands=["G", "G"], settlements=[[(10, 10)], [(15, 5)]])
    assert kb.hexes(g) == {(2, 2), (4, 15), (18, 18), (10, 12)}


def test_adjacency_counts_only_own_settlements(kb):
    # RULE_3 speaks of "their own existing settlements": (10, 12) touches only player 1's
    # settlement (10, 11), so the only legal hex is (11, 10), the free grass hex next to
    # player 0's (10, 10). RULE_1: (10, 11) is occupied.
    cells = {(10, 10): "G", (10, 11): "G", (11, 10): "G", (10, 12): "G", (3, 3): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[(10, 10)], [(10, 11)]])
    assert kb.hexes(g) == {(11, 10)}


def test_all_neighbours_occupied_by_opponent_then_anywhere(kb):
    # RULE_1 + RULE_3: all six grass neighbours of (10, 10) hold player 1's settlements, so no
    # adjacent build is possible and any unoccupied grass hex is legal.
    ring = [(10, 9), (10, 11), (9, 9), (9, 10), (11, 9), (11, 10)]
    cells = {rc: "G" for rc in ring + [(10, 10), (3, 3), (16, 16)]}
    g = kb.game(cells, hands=["G", "G"], settlements=[[(10, 10)], ring])
    assert kb.hexes(g) == {(3, 3), (16, 16)}


def _cluster_game(kb):
    # Own settlement (10, 10) on forest with only mountain around it. Grass: the adjacent pair
    # (4, 4)-(4, 5) and the isolated hexes (15, 15) and (16, 3). Player 1 plays canyon next.
    cells = {
        (10, 10): "T",
        (4, 4): "G", (4, 5): "G", (15, 15): "G", (16, 3): "G",
        (18, 10): "C", (18, 12): "C", (18, 14): "C", (18, 16): "C",
    }
    return kb.game(cells, hands=["G", "C"], settlements=[[(10, 10)], []],
                   deck=["G", "C", "D", "F", "T"])


def test_successive_builds_each_follow_rule_3_anew(kb):
    # SUCCESSIVE + RULE_3 ("These rules apply to each single settlement (of three)"):
    # build 1 cannot be adjacent, so any grass; build 2 must then touch build 1 if possible;
    # build 3 can touch nothing and may again go anywhere.
    g = _cluster_game(kb)
    assert kb.hexes(g) == {(4, 4), (4, 5), (15, 15), (16, 3)}
    assert g.supply(0) == 39

    kb.build(g, (4, 4))
    assert g.phase == "mandatory"
    assert kb.legal(g) == {kb.H(4, 5)}
    assert g.supply(0) == 38

    kb.build(g, (4, 5))
    assert g.phase == "mandatory"
    assert kb.legal(g) == {kb.H(15, 15), kb.H(16, 3)}

    kb.build(g, (15, 15))
    assert g.settlements(0) == {(10, 10), (4, 4), (4, 5), (15, 15)}
    assert g.supply(0) == 36
    # Exactly three settlements: the mandatory action is over and (no tiles) the turn ended.
    assert g.current_player == 1


def test_isolated_first_build_leaves_second_build_free(kb):
    # RULE_3 for build 2 after an isolated build 1: nothing adjacent is possible, any grass.
    g = _cluster_game(kb)
    kb.build(g, (15, 15))
    assert kb.hexes(g) == {(4, 4), (4, 5), (16, 3)}


def test_chain_each_new_settlement_counts_as_existing(kb):
    # RULE_3: settlements built earlier in the same mandatory action are "existing" ones.
    cells = {
        (10, 10): "T",
        (10, 11): "G", (10, 12): "G", (10, 13): "G", (2, 2): "G", (17, 17): "G",
    }
    g = kb.game(cells, hands=["G", "G"], settlements=[[(10, 10)], []])
    assert kb.hexes(g) == {(10, 11)}
    kb.build(g, (10, 11))
    assert kb.hexes(g) == {(10, 12)}
    kb.build(g, (10, 12))
    assert kb.hexes(g) == {(10, 13)}
    kb.build(g, (10, 13))
    assert {(10, 11), (10, 12), (10, 13)} <= g.settlements(0)


def test_adjacent_to_any_of_several_own_settlements(kb):
    # RULE_3: "adjacent to at least one of their own existing settlements" - neighbours of
    # either own settlement qualify; the far grass hex does not.
    cells = {
        (4, 4): "T", (14, 14): "T",
        (4, 5): "G", (13, 14): "G", (15, 14): "G", (9, 9): "G",
    }
    g = kb.game(cells, hands=["G", "G"], settlements=[[(4, 4), (14, 14)], []])
    assert kb.hexes(g) == {(4, 5), (13, 14), (15, 14)}


@pytest.mark.parametrize("target,why", [
    ((2, 2), "far grass while an adjacent grass hex is free (RULE_3)"),
    ((10, 11), "hex occupied by another player (RULE_1)"),
    ((10, 10), "hex occupied by the player's own settlement (RULE_1)"),
    ((10, 9), "adjacent water hex (RULE_2)"),
    ((9, 9), "adjacent canyon hex, card is grass (MANDATORY)"),
    ((9, 10), "adjacent castle hex (RULE_2)"),
    ((0, 0), "mountain (RULE_2)"),
])
def test_illegal_build_raises_and_changes_nothing(kb, target, why):
    cells = {
        (10, 10): "G", (10, 11): "G", (11, 10): "G", (10, 9): "W", (9, 9): "C", (9, 10): "K",
        (2, 2): "G",
    }
    g = kb.game(cells, hands=["G", "G"], settlements=[[(10, 10)], [(10, 11)]])
    assert kb.hexes(g) == {(11, 10)}
    kb.assert_illegal(g, kb.H(*target))


def test_illegal_build_in_mandatory_phase_changes_nothing(kb):
    # SUCCESSIVE + RULE_3 in the middle of the mandatory action.
    g = _cluster_game(kb)
    kb.build(g, (4, 4))
    for target in [(15, 15), (16, 3), (4, 4), (10, 10)]:
        kb.assert_illegal(g, kb.H(*target))
    assert g.phase == "mandatory"
    kb.build(g, (4, 5))
    assert g.settlements(0) == {(10, 10), (4, 4), (4, 5)}


def test_default_supply_is_40_minus_settlements_on_board(kb):
    # Set-up: "All 40 settlements, this is their personal supply." (docs/api.md: default
    # supply = 40 - settlements on board).
    cells = {(4, 4): "G", (4, 6): "G", (9, 9): "G", (12, 12): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[(4, 4), (4, 6)], [(9, 9)]])
    assert g.supply(0) == 38
    assert g.supply(1) == 39
