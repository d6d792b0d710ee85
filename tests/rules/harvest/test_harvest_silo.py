"""Harvest silos and the silo end phase (H-5, A-H2, A-X3).

The game is brought to its last turn with ``"ending": true``: player 0 is the start player, player 1 (canyon,
``OPP_C`` = (16, 0) (16, 1) (16, 2)) plays the last turn of the round, then the silo phase begins (HA10 of
``harvest_helpers``). Boards are mountain-filled. Neighbours (odd-r), worked out by hand and checked with a
throw-away script:

* P = (10, 11) touches (9, 10) water, (9, 11) desert, (10, 10) the silo X, (10, 12) grass, (11, 10) mountain,
  (11, 11) farmland;
* Q = (4, 4) touches (3, 3) (3, 4) (4, 3) (5, 3) (5, 4) mountains and (4, 5) grass;
* (4, 5) touches (3, 4) (3, 5) (4, 4) (4, 6) (5, 4) (5, 5); (4, 6) touches (3, 5) (3, 6) (4, 5) (4, 7) the castle K,
  (5, 5) (5, 6); (6, 6) touches nothing of player 0.

Rule text quoted (the comments below name these):

SILO (EN 1279): "Each of the 4 new game board sections contains a silo. At the end of the game, but before final
    scoring takes place, a player may either build up to three settlements or move up to three of their existing
    settlements for each silo that is adjacent to one or more of their settlements."
SILO_ORDER (EN 1281): "Players either build or move their settlements for each silo in turn order."
SILO_CONNECT (EN 1283): "The built or moved settlements must be placed connecting to any of that player's existing
    settlements. The settlements adjacent to the silo may be moved as well, even if they are no longer adjacent to a
    silo afterwards."
SILO_NOTE (EN 1285): "Note: Players are not allowed to build two settlements and move another one or vice versa."
SILO_EXAMPLE (EN 1289): "Example: Because the orange player has one settlement adjacent to the silo, he chooses to
    move 3 of his settlements to a different location. This way he ends up adjacent to another castle."
SILO_DE (DE 1440-1445): "entweder bis zu drei seiner Siedlungen bauen oder drei seiner bisherigen Siedlungen
    versetzen ... Diese müssen auf bebaubare Geländefelder an eigene, bereits vorhandene Siedlungen angrenzend
    platziert werden."
A_H2 (spec A-H2): "(a) TG: each player, in turn order from the start player, does all their silos. (b) Silo by silo,
    and for each silo the players in turn order. Default (a), flag. A silo's eligibility is evaluated when that
    player's silo turn starts (R). The mode (build or move) is chosen per silo. Builds come from the supply (none if
    the supply is empty). Each target must be eligible and touch the player's OWN (no fallback). A move's target
    must touch OWN with the moved settlement lifted. 'Up to three' (EN) vs 'drei' (DE) for moves: Default up to 3."
"""

import pytest

from tests.rules.harvest.helpers import BUILD, DONE, FARM, MOVE, SILO_PHASE, flag, game_hscores, hpos, requires_harvest

pytestmark = requires_harvest


X = (10, 10)
P = (10, 11)
Q = (4, 4)
K = (4, 7)
NEAR_P = {(9, 11), (10, 12), (11, 11)}     # desert, grass, farmland: every buildable terrain, no card needed
LAST_TURN = [(16, 0), (16, 1), (16, 2)]    # player 1's last mandatory action


def silo_position(kx, then=(), ending=True, supply=None, deck=None):
    cells = {X: "O", P: "G", Q: "G", (9, 11): "D", (10, 12): "G", (11, 11): "A", (9, 10): "W", (4, 5): "G",
             (4, 6): "G", K: "K", (6, 6): "G"}
    return hpos(kx, cells, settlements=[[P, Q], []], card="G", start_player=0, current_player=1, ending=ending,
                supply=supply, deck=deck, then=LAST_TURN + list(then))


def test_H5_the_silo_phase_comes_after_the_last_turn(kx):
    # SILO "At the end of the game, but before final scoring": after player 1's last turn player 0 (P touches X)
    # decides; the game is not over yet
    out = kx.answer(silo_position(kx))
    assert out["player"] == 0 and out["phase"] == SILO_PHASE
    assert out["legal"] == {BUILD, MOVE, DONE}
    assert not kx.game(silo_position(kx)).done


def test_H5_no_silo_phase_before_the_end(kx):
    # without "ending" the round simply goes on: player 0's next turn with its grass card; the free grass hexes are
    # (10, 12) (touches P), (4, 5) (touches Q), (4, 6) and (6, 6): adjacent if possible -> (10, 12) and (4, 5); the
    # farmland (11, 11) touches P, so the farm action is open too (EN 1269 "once per game round each player may
    # perform one farm action ... at any time before or after their mandatory action")
    out = kx.answer(silo_position(kx, ending=False))
    assert out["player"] == 0 and out["phase"] == "idle"
    assert out["legal"] == {(10, 12), (4, 5), FARM}


def test_H5_build_up_to_three_connected_to_own_settlements(kx):
    # SILO "build up to three settlements" / SILO_CONNECT / SILO_DE "bebaubare Geländefelder": every buildable
    # terrain touching own (NEAR_P around P, (4, 5) next to Q); not the water (9, 10), not (6, 6) (no fallback)
    pos = silo_position(kx, then=[BUILD])
    assert kx.legal(pos) == NEAR_P | {(4, 5)}
    # after (4, 5) the grass (4, 6) touches own; DONE may stop early
    assert kx.legal(silo_position(kx, then=[BUILD, (4, 5)])) == NEAR_P | {(4, 6), DONE}
    assert kx.legal(silo_position(kx, then=[BUILD, (4, 5), (4, 6)])) == NEAR_P | {DONE}
    # the third build closes the silo; player 1 touches no silo: the game is over
    g = kx.game(silo_position(kx, then=[BUILD, (4, 5), (4, 6), (10, 12)]))
    assert g.done and g.phase == "game_over"
    assert kx.settlements(g, 0) == {P, Q, (4, 5), (4, 6), (10, 12)}
    assert g.supply(0) == 40 - 2 - 3                    # 35: silo builds come from the supply


def test_H5_illegal_silo_builds_are_refused(kx):
    # water, a hex touching nothing own (A_H2 "no fallback"), the silo, a castle, occupied
    for target in [(9, 10), (6, 6), X, K, Q]:
        kx.then_error(silo_position(kx, then=[BUILD, target]), 3 + 1)


def test_H5_scoring_after_the_silo_phase(kx):
    # SILO "before final scoring takes place": reaching the castle K with (4, 6) in the silo phase scores its 3 gold
    g = kx.game(silo_position(kx))
    assert game_hscores(g)[0]["castles"] == 0
    g = kx.game(silo_position(kx, then=[BUILD, (4, 5), (4, 6), DONE]))
    assert g.done
    assert game_hscores(g)[0]["castles"] == 3


def test_H5_en1289_move_settlements_to_reach_a_castle(kx):
    # SILO_EXAMPLE / SILO_CONNECT "The settlements adjacent to the silo may be moved as well". Sources are own
    # settlements with a target: P (lifted: (4, 5) touches Q) and Q (lifted: NEAR_P touch P).
    assert kx.legal(silo_position(kx, then=[MOVE])) == {P, Q}
    assert kx.legal(silo_position(kx, then=[MOVE, P])) == {(4, 5)}
    assert kx.legal(silo_position(kx, then=[MOVE, Q])) == NEAR_P
    # P moves away from the silo to (4, 5). Now (4, 5) has no target (lifted, nothing free touches Q) and Q may go
    # to (4, 6) (touches (4, 5)).
    assert kx.legal(silo_position(kx, then=[MOVE, P, (4, 5)])) == {Q, DONE}
    # Q -> (4, 6): next to the castle. (4, 6) lifted may go to (4, 4) (touches (4, 5)); (4, 5) has none.
    assert kx.legal(silo_position(kx, then=[MOVE, P, (4, 5), Q, (4, 6)])) == {(4, 6), DONE}
    g = kx.game(silo_position(kx, then=[MOVE, P, (4, 5), Q, (4, 6), DONE]))
    assert g.done
    assert kx.settlements(g, 0) == {(4, 5), (4, 6)}
    assert g.supply(0) == 38                            # moves take nothing from the supply
    assert game_hscores(g)[0]["castles"] == 3


def test_H5_a_move_target_must_touch_the_remaining_settlements(kx):
    # A_H2 "A move's target must touch OWN with the moved settlement lifted": P cannot go to NEAR_P (they touch only
    # P itself), Q cannot go to (4, 5) (touches only Q)
    kx.then_error(silo_position(kx, then=[MOVE, P, (10, 12)]), 3 + 2)
    kx.then_error(silo_position(kx, then=[MOVE, Q, (4, 5)]), 3 + 2)


def test_H5_no_mixing_of_builds_and_moves(kx):
    # SILO_NOTE "not allowed to build two settlements and move another one or vice versa"
    built = [BUILD, (4, 5)]
    assert MOVE not in kx.legal(silo_position(kx, then=built))
    kx.then_error(silo_position(kx, then=built + [MOVE]), 3 + 2)
    kx.then_error(silo_position(kx, then=built + [P]), 3 + 2)      # not a source either: builds only
    moved = [MOVE, P, (4, 5)]
    assert BUILD not in kx.legal(silo_position(kx, then=moved))
    kx.then_error(silo_position(kx, then=moved + [BUILD]), 3 + 3)
    kx.then_error(silo_position(kx, then=moved + [(4, 6)]), 3 + 3)  # (4, 6) is a build, not a source


def test_A_H2_moves_are_up_to_three(kx):
    # A_H2 "Default up to 3" (EN "up to three", DE "drei"): DONE after one move; a third move closes the silo
    g = kx.game(silo_position(kx, then=[MOVE, Q, (10, 12), DONE]))
    assert g.done and kx.settlements(g, 0) == {P, (10, 12)}
    # Q -> (10, 12); then P (lifted, (9, 11) touches (10, 12)) -> (9, 11); then (9, 11) (lifted, (11, 11) touches
    # (10, 12)) -> (11, 11): the third move closes the silo and the game is over without a DONE
    then = [MOVE, Q, (10, 12)]
    assert kx.legal(silo_position(kx, then=then)) == {P, (10, 12), DONE}
    then += [P, (9, 11), (9, 11), (11, 11)]
    g = kx.game(silo_position(kx, then=then))
    assert g.done and kx.settlements(g, 0) == {(10, 12), (11, 11)}


def test_A_H2_pass_with_done(kx):
    g = kx.game(silo_position(kx, then=[DONE]))
    assert g.done and kx.settlements(g, 0) == {P, Q}


def test_A_H2_builds_need_the_supply(kx):
    # A_H2 "Builds come from the supply (none if the supply is empty)": the player who emptied the supply (the end
    # trigger) may only move
    out = kx.answer(silo_position(kx, supply=[0, 37]))
    assert out["player"] == 0 and out["legal"] == {MOVE, DONE}
    kx.then_error(silo_position(kx, supply=[0, 37], then=[BUILD]), 3)
    # with 2 left: two builds, then the silo is closed (by itself, or by a lone "done")
    pos = silo_position(kx, supply=[2, 37], then=[BUILD, (4, 5), (4, 6)])
    g = kx.game(pos)
    if not g.done:
        assert kx.legal(pos) == {DONE}
    assert g.supply(0) == 0 and kx.settlements(g, 0) == {P, Q, (4, 5), (4, 6)}


def test_H5_nobody_next_to_a_silo_means_no_silo_phase(kx):
    cells = {X: "O", (5, 5): "G"}
    pos = hpos(kx, cells, settlements=[[(5, 5)], []], card="T", start_player=0, current_player=1, ending=True,
               then=LAST_TURN)
    assert kx.game(pos).done


# --------------------------------------------------------------------------- several silos, turn order

X1 = (10, 10)
X2 = (6, 6)
OWN0 = [(10, 11), (6, 7)]    # player 0: (10, 11) touches X1, (6, 7) touches X2
OWN1 = [(10, 9), (6, 5)]     # player 1: (10, 9) touches X1, (6, 5) touches X2


def two_silo_position(kx, then=(), options=None):
    """Start player 1; player 0 (forest, MAND_T) plays the last turn of the round."""
    cells = {**kx.MAND_T, X1: "O", X2: "O", **{h: "G" for h in OWN0 + OWN1}}
    return hpos(kx, cells, settlements=[OWN0, OWN1], card="T", start_player=1, current_player=0, ending=True,
                options=options, then=kx.MAND_T_BUILDS + list(then))


def deciders(kx, options=None):
    """The silo player of each step when every silo is passed with DONE, until the game is over."""
    seq, then = [], []
    while not kx.game(two_silo_position(kx, then, options)).done:
        out = kx.answer(two_silo_position(kx, then, options))
        assert out["phase"] == SILO_PHASE and out["legal"] == {BUILD, MOVE, DONE}
        seq.append(out["player"])
        then.append(DONE)
        assert len(then) <= 4
    return seq


def test_A_H2_each_player_does_all_their_silos_in_turn_order(kx):
    # SILO_ORDER / A_H2 (a): from the start player (1): player 1's two silos, then player 0's two
    assert deciders(kx) == [1, 1, 0, 0]


def test_A_H2_flag_silo_by_silo(kx):
    # A_H2 (b): silo by silo, each silo in turn order from the start player
    assert deciders(kx, flag("A-H2")) == [1, 0, 1, 0]


def test_H5_each_adjacent_silo_gives_its_own_three(kx):
    # SILO "for each silo that is adjacent": player 1 (start player) passes both silos; player 0 builds 3 at its
    # first silo and is asked again for its second silo, where it builds 3 more. The grass chain: (5, 7) touches
    # (6, 7); (5, 8) and (4, 8) touch (5, 7); (4, 9) touches (4, 8); (3, 9) touches (4, 9); (3, 10) touches (3, 9).
    # (The silo order does not matter: the build targets do not depend on the silo.)
    cells_extra = {(5, 7): "G", (5, 8): "G", (4, 8): "G", (4, 9): "G", (3, 9): "G", (3, 10): "G"}
    base = {**kx.MAND_T, X1: "O", X2: "O", **{h: "G" for h in OWN0 + OWN1}, **cells_extra}
    pos = hpos(kx, base, settlements=[OWN0, OWN1], card="T", start_player=1, current_player=0, ending=True,
               then=kx.MAND_T_BUILDS + [DONE, DONE, BUILD, (5, 7), (5, 8), (4, 8)])
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == SILO_PHASE and out["legal"] == {BUILD, MOVE, DONE}
    g = kx.game(kx.with_then(pos, pos["then"] + [BUILD, (4, 9), (3, 9), (3, 10)]))
    assert g.done
    assert len(kx.settlements(g, 0)) == 2 + 3 + 6


def test_A_H2_eligibility_is_fixed_when_the_players_silo_turn_starts(kx):
    # A_H2 "evaluated when that player's silo turn starts (R)": at its first silo player 0 moves (10, 11) -> (5, 7)
    # [touches (6, 7)], then (6, 7) -> (5, 8) [touches (5, 7)]: no settlement of player 0 touches X1 or X2 any more,
    # yet its second silo is still offered. Build: (6, 7) is free and touches (5, 7); move: (5, 8) -> (6, 7).
    extra = {(5, 7): "G", (5, 8): "G"}
    base = {**kx.MAND_T, X1: "O", X2: "O", **{h: "G" for h in OWN0 + OWN1}, **extra}
    moves = [MOVE, (10, 11), (5, 7), (6, 7), (5, 8), DONE]
    pos = hpos(kx, base, settlements=[OWN0, OWN1], card="T", start_player=1, current_player=0, ending=True,
               then=kx.MAND_T_BUILDS + [DONE, DONE] + moves)
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == SILO_PHASE
    assert out["legal"] == {BUILD, MOVE, DONE}


@pytest.mark.parametrize("first", [BUILD, MOVE])
def test_H5_the_mode_is_chosen_per_silo(kx, first):
    # A_H2 "The mode (build or move) is chosen per silo": player 0 may move at one silo after building at the other
    extra = {(5, 7): "G", (5, 8): "G", (4, 8): "G"}
    base = {**kx.MAND_T, X1: "O", X2: "O", **{h: "G" for h in OWN0 + OWN1}, **extra}
    step = [BUILD, (5, 7), DONE] if first == BUILD else [MOVE, (10, 11), (5, 7), DONE]
    pos = hpos(kx, base, settlements=[OWN0, OWN1], card="T", start_player=1, current_player=0, ending=True,
               then=kx.MAND_T_BUILDS + [DONE, DONE] + step)
    assert kx.legal(pos) == {BUILD, MOVE, DONE}
