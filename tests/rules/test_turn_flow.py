"""Set-up, sequence of play, phases, END_TURN, the deck and the no-eligible-hex exception.

Rule texts (base rulebook):
"""

import pytest

SEQUENCE = ("Players take their turns in clockwise direction, beginning with the start player. "
            "... The active player plays their terrain card face up in front of themselves and "
            "subsequently builds their settlements.")
EXTRA_WHEN = "A player may perform each single extra action before or after their mandatory action."
END_OF_TURN = ("After a player has performed their mandatory action and does not want to perform "
               "any extra actions or cannot do so, they put their terrain card on the discard pile "
               "and draw a new card from the draw pile, keeping it hidden on their hand.")
SUCCESSIVE = ("The mandatory action must be performed and the 3 settlements must be built "
              "successively one after the other.")
RESHUFFLE = ("Shuffle the discard pile and use it as new draw pile once the draw pile is "
             "exhausted.")
EXCEPTION = ("If the rare case should occur that there is no eligible hex at the beginning of a "
             "player's turn or during their turn, i. e. there is no hex matching the type of their "
             "played terrain card on which they could build a settlement, the player draws a new "
             "terrain card immediately. The useless terrain card is removed from the game. If "
             "necessary, the player repeats drawing a new card until they draw a suitable card.")
SETUP = ("All 40 settlements, this is their personal supply. Additionally, each player draws one "
         "terrain card from the draw pile" + " ... 25 terrain cards: 5x Grass 5x Flower field "
         "5x Forest 5x Canyon 5x Desert")

GRASS_ROW = [(12, 12), (12, 13), (12, 14), (12, 15), (12, 16)]


def _flow_game(kb, with_farm=True, deck=("F", "T", "G")):
    """Player 0: settlement (5, 6) next to a farm location (5, 5), grass card; a row of five
    grass hexes (12, 12)-(12, 16) far from it. Player 1: canyon card, canyon hexes in row 15.
    Some flower and forest hexes so that the drawn cards are usable."""
    cells = {(5, 5): "f", (5, 6): "C"}
    cells.update({rc: "G" for rc in GRASS_ROW})
    cells.update({(15, 2): "C", (15, 4): "C", (15, 6): "C", (15, 8): "C"})
    cells.update({(17, 1): "F", (17, 3): "F", (1, 17): "T", (3, 17): "T"})
    return kb.game(cells, hands=["G", "C"], settlements=[[(5, 6)], []],
                   tiles=[[(5, 5)] if with_farm else [], []], deck=list(deck))


def test_phases_idle_mandatory_idle_end_turn(kb):
    g = _flow_game(kb)
    assert g.phase == "idle" and g.current_player == 0 and not g.done
    # SEQUENCE: the card of the player to move is played (docs/api.md: hand() shows it).
    assert g.hand(0) == "G"
    # Mandatory action not done: no END_TURN; the farm may be used before it (EXTRA_WHEN); no
    # grass touches (5, 6), so any grass hex is legal.
    assert kb.legal(g) == {kb.H(*rc) for rc in GRASS_ROW} | {kb.TILE["farm"]}
    kb.assert_illegal(g, kb.END_TURN)

    kb.build(g, (12, 12))
    # SUCCESSIVE: settlements 2 and 3 follow at once; no extra action, no END_TURN in between.
    assert g.phase == "mandatory"
    assert kb.legal(g) == {kb.H(12, 13)}
    kb.assert_illegal(g, kb.TILE["farm"])
    kb.assert_illegal(g, kb.END_TURN)

    kb.build(g, (12, 13))
    assert g.phase == "mandatory"
    assert kb.legal(g) == {kb.H(12, 14)}

    kb.build(g, (12, 14))
    # Mandatory action done; farm still unused (EXTRA_WHEN: "or after"), so the turn goes on.
    assert g.phase == "idle" and g.current_player == 0
    assert kb.legal(g) == {kb.TILE["farm"], kb.END_TURN}

    g.step(kb.END_TURN)
    # END_OF_TURN: card to the discard pile, new card from the draw pile, next player.
    assert g.current_player == 1 and g.phase == "idle"
    assert g.discard_pile() == ["G"]
    assert g.hand(0) == "F"
    assert g.deck_size() == 2
    assert g.hand(1) == "C"
    assert kb.hexes(g) == {(15, 2), (15, 4), (15, 6), (15, 8)}


def test_automatic_end_turn_when_nothing_but_end_turn_is_legal(kb):
    # END_OF_TURN + docs/api.md: "whenever the only legal decision would be END_TURN, the
    # engine ends the turn by itself".
    g = _flow_game(kb, with_farm=False)
    kb.build(g, (12, 12), (12, 13))
    assert g.current_player == 0
    kb.build(g, (12, 14))
    assert g.current_player == 1 and g.phase == "idle"
    assert g.discard_pile() == ["G"]
    assert g.hand(0) == "F"
    assert g.deck_size() == 2
    assert g.settlements(0) == {(5, 6), (12, 12), (12, 13), (12, 14)}


def test_extra_action_before_mandatory_then_rules_apply_to_mandatory(kb):
    # EXTRA_WHEN ("before"), each extra action once per turn, and the mandatory settlements
    # must then be adjacent to the farm settlement if possible (building rule 3).
    g = _flow_game(kb)
    kb.use(g, "farm", (12, 14))
    assert g.phase == "idle" and g.current_player == 0
    assert kb.legal(g) == {kb.H(12, 13), kb.H(12, 15)}
    kb.build(g, (12, 13))
    assert kb.legal(g) == {kb.H(12, 12), kb.H(12, 15)}
    kb.build(g, (12, 12), (12, 15))
    # Farm used, mandatory done: only END_TURN would be legal, so the turn ended by itself.
    assert g.current_player == 1
    assert g.supply(0) == 39 - 4


def test_three_players_clockwise(kb):
    # SEQUENCE: clockwise = seat index increasing (docs/api.md), after the last seat seat 0.
    g = kb.game(board=kb.striped_board(), num_players=3, hands=["G", "C", "D"])
    seen = [g.current_player]
    for _ in range(4):
        kb.play_turn(g)
        seen.append(g.current_player)
    assert seen == [0, 1, 2, 0, 1]


def test_clockwise_from_any_start_player(kb):
    g = kb.game(board=kb.striped_board(), num_players=4, hands=["G", "C", "D", "F"],
                start_player=2, current_player=2)
    seen = [g.current_player]
    for _ in range(4):
        kb.play_turn(g)
        seen.append(g.current_player)
    assert seen == [2, 3, 0, 1, 2]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_new_game_set_up(kb, num_players):
    # SETUP: 40 settlements each in supply, one card in each hand, 25 - n cards in the pile.
    g = kb.Game.new(num_players=num_players, seed=11)
    assert g.num_players == num_players
    assert g.phase == "idle" and not g.done
    for p in range(num_players):
        assert g.supply(p) == 40
        assert g.settlements(p) == set()
        assert g.hand(p) in set("GCDFT")
        assert kb.tiles(g, p) == []
    assert g.deck_size() == 25 - num_players
    assert g.discard_pile() == [] and g.removed_cards() == []
    # The first player can build (first settlement anywhere on the card's terrain).
    assert kb.hexes(g)


def test_default_deck_is_25_cards_minus_hands_and_cards_are_conserved(kb):
    # SETUP: 25 terrain cards, 5 of each terrain.
    g = kb.game(board=kb.striped_board(), num_players=2, hands=["G", "C"], seed=3)
    assert g.deck_size() == 23
    for _ in range(12):
        kb.play_turn(g)
        known = list(g.discard_pile()) + list(g.removed_cards()) + [g.hand(0), g.hand(1)]
        assert g.deck_size() + len(known) == 25
        for t in "GCDFT":
            assert known.count(t) <= 5


def test_discard_pile_reshuffled_when_draw_pile_empty(kb):
    # RESHUFFLE: with an empty draw pile the discarded card is the only card to draw.
    g = kb.game(board=kb.striped_board(), hands=["G", "C"], deck=[])
    kb.play_turn(g)
    assert g.current_player == 1
    assert g.hand(0) == "G"
    assert g.deck_size() == 0 and g.discard_pile() == []
    kb.play_turn(g)
    assert g.hand(1) == "C"
    assert g.deck_size() == 0 and g.discard_pile() == []


def test_discard_pile_reshuffled_after_last_card_drawn(kb):
    # RESHUFFLE: player 0 draws the last card "F"; player 1 must then draw from the shuffled
    # discards {G, C} (whether the reshuffle happens at once or at the next draw).
    g = kb.game(board=kb.striped_board(), hands=["G", "C"], deck=["F"])
    kb.play_turn(g)
    assert g.hand(0) == "F"
    kb.play_turn(g)
    assert g.hand(1) in {"G", "C"}
    assert g.deck_size() + len(g.discard_pile()) == 1


def test_unusable_card_at_turn_start_removed_and_redrawn(kb):
    # EXCEPTION: player 1 holds desert, but the only desert hex (8, 8) is occupied. At the start
    # of their turn the desert card is removed, the next card (desert again) too, then canyon.
    cells = {rc: "G" for rc in GRASS_ROW}
    cells.update({(8, 8): "D", (15, 2): "C", (15, 4): "C", (15, 6): "C"})
    g = kb.game(cells, hands=["G", "D"], settlements=[[(8, 8)], []],
                deck=["G", "D", "C", "F"])
    kb.build(g, (12, 12), (12, 13), (12, 14))
    assert g.current_player == 1 and g.phase == "idle"
    assert g.hand(0) == "G"
    assert sorted(g.removed_cards()) == ["D", "D"]
    assert g.hand(1) == "C"
    assert g.deck_size() == 1
    assert g.discard_pile() == ["G"]
    assert kb.hexes(g) == {(15, 2), (15, 4), (15, 6)}


def test_unusable_card_of_first_player_in_custom_position(kb):
    # EXCEPTION at "the beginning of a player's turn": a custom position starts at the beginning
    # of player 0's turn; the desert card has no free desert hex.
    cells = {(8, 8): "D", (3, 3): "F", (3, 5): "F", (15, 2): "G", (15, 4): "G"}
    g = kb.game(cells, hands=["D", "G"], settlements=[[], [(8, 8)]], deck=["D", "F", "C"])
    assert g.current_player == 0 and g.phase == "idle"
    assert sorted(g.removed_cards()) == ["D", "D"]
    assert g.hand(0) == "F"
    assert g.deck_size() == 1
    assert kb.hexes(g) == {(3, 3), (3, 5)}


def test_card_becomes_unusable_during_mandatory_action(kb):
    # EXCEPTION "or during their turn": only two grass hexes; after building both, the grass
    # card is useless for settlement 3, so it is removed and canyon is drawn and played.
    cells = {(12, 12): "G", (12, 13): "G", (14, 4): "C", (14, 6): "C", (3, 15): "C",
             (18, 1): "D", (18, 3): "D"}
    g = kb.game(cells, hands=["G", "D"], deck=["C", "F", "T"])
    assert kb.hexes(g) == {(12, 12), (12, 13)}
    kb.build(g, (12, 12), (12, 13))
    assert g.current_player == 0
    assert g.removed_cards() == ["G"]
    assert g.hand(0) == "C"
    assert g.phase == "mandatory"
    assert kb.legal(g) == {kb.H(14, 4), kb.H(14, 6), kb.H(3, 15)}
    kb.build(g, (14, 4))
    assert g.current_player == 1
    assert g.discard_pile() == ["C"]
    assert g.removed_cards() == ["G"]
    assert g.hand(0) == "F"
    assert g.settlements(0) == {(12, 12), (12, 13), (14, 4)}


@pytest.mark.parametrize("action_name", ["end_turn", "mountain", "oracle", "size", "minus_one"])
def test_illegal_action_raises_names_action_and_changes_nothing(kb, action_name):
    # docs/api.md: "An illegal action raises IllegalActionError (a ValueError) whose message
    # names the action ...; the game is then unchanged." END_TURN before the mandatory action
    # (END_OF_TURN), a mountain hex (building rule 2), a tile not held, out-of-range numbers.
    g = _flow_game(kb)
    action = {
        "end_turn": kb.END_TURN,
        "mountain": kb.H(0, 0),
        "oracle": kb.TILE["oracle"],
        "size": kb.ACTION_SIZE,
        "minus_one": -1,
    }[action_name]
    kb.assert_illegal(g, action)
    # The game still plays normally afterwards.
    kb.build(g, (12, 12))
    assert g.phase == "mandatory"
