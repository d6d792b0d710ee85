"""End of the game (base rulebook "End of the game and final scoring")."""

import numpy as np
import pytest

END = ("The game ends when one player has built the last settlement from their personal supply. "
       "However, the current game round is still completed; the player on the right of the start "
       "player is the last player to perform their turn.")
CLOCKWISE = ("Players take their turns in clockwise direction, beginning with the start player.")
# Clockwise seating: the player on the right of the start player is the one who plays just
# before them, seat (start_player - 1) mod n (docs/api.md: clockwise = seat index increasing).
MANDATORY = ("the player must build 3 settlements from their personal supply on unoccupied hexes "
             "of the same terrain type as their played card")


def _striped(kb, num_players, supply, start_player=0, current_player=0):
    return kb.game(board=kb.striped_board(), num_players=num_players,
                   hands=list("GCDF")[:num_players], supply=supply,
                   start_player=start_player, current_player=current_player, seed=5)


def assert_game_over(kb, g):
    assert g.phase == "game_over"
    assert g.done
    assert not np.asarray(g.legal_mask()).any()
    assert g.legal_actions() == []
    kb.assert_illegal(g, kb.END_TURN)
    kb.assert_illegal(g, kb.H(0, 0))


def test_round_is_completed_after_last_settlement(kb):
    # END: start player 0 builds their last settlement; players 1 and 2 still play.
    g = _striped(kb, 3, [3, 40, 40])
    kb.play_turn(g)
    assert g.supply(0) == 0
    assert g.current_player == 1 and not g.done and g.phase == "idle"
    kb.play_turn(g)
    assert g.current_player == 2 and not g.done
    kb.play_turn(g)
    assert_game_over(kb, g)
    assert [len(g.settlements(p)) for p in range(3)] == [3, 3, 3]


@pytest.mark.parametrize("runner,then_play", [
    (1, [2, 3, 0]),   # the start player runs out: the rest of the round
    (2, [3, 0]),
    (3, [0]),
    (0, []),          # seat 0 is on the right of start player 1: the game ends at once
])
def test_last_turn_is_player_right_of_start_player(kb, runner, then_play):
    # END with 4 players and start player 1: the last turn of a round is seat 0.
    supply = [40, 40, 40, 40]
    supply[runner] = 3
    g = _striped(kb, 4, supply, start_player=1, current_player=runner)
    kb.play_turn(g)
    assert g.supply(runner) == 0
    played = []
    while not g.done:
        assert g.phase == "idle"
        played.append(g.current_player)
        kb.play_turn(g)
        assert len(played) <= 4
    assert played == then_play
    assert_game_over(kb, g)
    # Nobody else took a turn: the seats that did not play after the runner built nothing.
    for p in range(4):
        expected = 3 if p == runner or p in then_play else 0
        assert len(g.settlements(p)) == expected


def test_two_players_second_player_runs_out(kb):
    # END: seat 1 is on the right of start player 0; the game ends after their turn.
    g = _striped(kb, 2, [40, 3], current_player=1)
    kb.play_turn(g)
    assert_game_over(kb, g)


def test_game_goes_on_while_supplies_last(kb):
    g = _striped(kb, 2, [10, 10])
    for _ in range(6):
        kb.play_turn(g)
        assert not g.done and g.phase == "idle"
    assert g.supply(0) == 1 and g.supply(1) == 1
    kb.play_turn(g)          # player 0: builds the last one (fewer than three)
    assert not g.done
    assert g.supply(0) == 0 and len(g.settlements(0)) == 10
    kb.play_turn(g)
    assert_game_over(kb, g)


def test_fewer_settlements_than_three_builds_what_is_left(kb):
    # MANDATORY with a supply of 2: both are built, then the turn ends (nothing else legal).
    g = _striped(kb, 2, [2, 40])
    first = sorted(kb.hexes(g))[0]
    kb.build(g, first)
    assert g.phase == "mandatory"
    assert kb.hexes(g)
    g.step(min(kb.legal(g)))
    assert g.supply(0) == 0
    assert len(g.settlements(0)) == 2
    assert g.current_player == 1 and not g.done
    kb.play_turn(g)
    assert_game_over(kb, g)


GRASS = [(12, c) for c in range(8, 18)]


@pytest.mark.parametrize("supply", [1, 2])
def test_last_settlement_built_by_extra_action(kb, supply):
    # END + "Extra action: Build one additional settlement from your personal supply": the farm
    # settlement is taken from the supply before the mandatory action; the mandatory action then
    # builds what is left (nothing, or one settlement) and the turn ends.
    cells = {(2, 2): "f", (2, 3): "C"}
    cells.update({rc: "G" for rc in GRASS})
    g = kb.game(cells, hands=["G", "G"], settlements=[[(2, 3)], []], tiles=[[(2, 2)], []],
                supply=[supply, 40])
    kb.use(g, "farm", (12, 8))
    if supply == 2:
        assert g.current_player == 0 and g.phase == "idle"
        assert kb.legal(g) == {kb.H(12, 9)}
        kb.build(g, (12, 9))
    assert g.supply(0) == 0
    assert len(g.settlements(0)) == 1 + supply
    assert g.current_player == 1 and not g.done
    kb.play_turn(g)
    assert_game_over(kb, g)


def test_moves_do_not_end_the_game_or_use_supply(kb):
    # Moving (barn) takes nothing from the supply: a supply of 3 is still 3 after the move,
    # and the mandatory action then uses it up.
    cells = {(2, 2): "b", (2, 3): "C", (8, 8): "T"}
    cells.update({rc: "G" for rc in GRASS})
    g = kb.game(cells, hands=["G", "G"], settlements=[[(2, 3), (8, 8)], []],
                tiles=[[(2, 2)], []], supply=[3, 40])
    kb.use(g, "barn", (8, 8), (12, 8))
    assert g.supply(0) == 3
    kb.build(g, (12, 9), (12, 10), (12, 11))
    assert g.supply(0) == 0
    assert g.current_player == 1
    kb.play_turn(g)
    assert_game_over(kb, g)


def test_winners_defined_at_game_over(kb):
    # "The player who has earned the most gold is the winner ... tied players share".
    g = _striped(kb, 2, [3, 3])
    kb.play_turn(g)
    kb.play_turn(g)
    assert_game_over(kb, g)
    totals = [s["total"] for s in g.scores()]
    best = max(totals)
    assert sorted(g.winners()) == [p for p in range(2) if totals[p] == best]
