"""The general decision machine: decider apart from the turn owner, a variable mandatory count, multi-step
powers with DONE, and the interrupt stack (expansion spec F1, F4)."""

from __future__ import annotations

import numpy as np

from kbenv import Game, hex_action
from kbenv.engine import state as S
from kbenv.engine.frames import SAVED, pop_frame, push_frame
from kbenv.observation import action_mask
from kbenv.vector import VectorGames


def grass_game(**kwargs) -> Game:
    board = ["G" * 20] + ["M" * 20] * 19
    return Game.custom(board=board, num_players=2, cards=["fishermen", "knights", "merchants"],
                       settlements=[[], []], hands=["G", "G"], deck=["G"] * 3, **kwargs)


def test_mandatory_target_of_2_and_4():
    for target in (2, 4):
        g = grass_game()
        g.state[S.MANDATORY_TARGET] = target
        for k in range(target):
            assert g.phase in ("idle", "mandatory") and g.current_player == 0
            assert 408 not in g.legal_actions()  # END_TURN only once the mandatory action is done
            g.step(hex_action(0, k))
        assert len(g.settlements(0)) == target
        assert g.current_player == 1  # done after exactly `target` builds: the turn ended by itself


def test_the_decider_picks_the_mask_not_the_turn_owner():
    g = grass_game()
    assert g.decider == g.current_player == 0
    g.state[S.DECIDER] = 1  # a forced state: player 1 decides inside player 0's turn
    assert action_mask(g.state, 1).any() and not action_mask(g.state, 0).any()
    v = VectorGames(2)
    v.reset(0)
    v.states[0, S.DECIDER] = 1 - v.states[0, S.CURRENT]
    assert v.current_players()[0] == v.states[0, S.DECIDER]


def test_interrupt_frames_round_trip():
    g = grass_game()
    st = g.state
    before = [int(st[f]) for f in SAVED]
    assert push_frame(st)
    for f, value in zip(SAVED, (5, 21, 33, 2, 1, 1, 1, 2), strict=True):  # an interrupting decision
        st[f] = value
    assert push_frame(st)
    nested = [int(st[f]) for f in SAVED]
    for f in SAVED:
        st[f] = 0
    assert pop_frame(st) and [int(st[f]) for f in SAVED] == nested
    assert pop_frame(st) and [int(st[f]) for f in SAVED] == before
    assert not pop_frame(st) and st[S.FRAME_DEPTH] == 0


def test_the_stack_refuses_more_than_its_frames():
    st = grass_game().state
    pushed = sum(push_frame(st) for _ in range(S.MAX_FRAMES + 3))
    assert pushed == S.MAX_FRAMES and st[S.FRAME_DEPTH] == S.MAX_FRAMES
    assert sum(pop_frame(st) for _ in range(S.MAX_FRAMES + 3)) == S.MAX_FRAMES


def test_base_games_never_use_the_expansion_fields():
    g = Game.new(3, seed=4)
    rng = np.random.default_rng(0)
    while not g.done:
        g.step(int(rng.choice(g.legal_actions())))
        assert g.decider == g.current_player or g.done
        assert g.state[S.EXPANSIONS] == 0 and g.state[S.FRAME_DEPTH] == 0 and g.state[S.STEPS_LEFT] == 0
