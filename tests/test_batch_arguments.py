"""Batch engine arguments: every public method validates rows, players, actions and seeds before a
kernel runs; a bad argument raises an error naming it and changes nothing (issue 11, item 1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbenv import IllegalActionError
from kbenv.setup import SetupError
from kbenv.vector import BatchArgumentError, VectorGames


def fresh(n: int = 4, **kwargs) -> VectorGames:
    v = VectorGames(n, num_players=[2, 3, 4, 5][:n] if n <= 4 else 2, **kwargs)
    v.reset(0)
    return v


def snapshot(v: VectorGames) -> tuple:
    from kbenv.engine.state import SCRATCH

    return (v.states[:, :SCRATCH].copy(), v.seeds.copy(), v.episodes.copy(), v.rng_state.copy(),
            [list(a) for a in v.actions])


def assert_unchanged(v: VectorGames, before: tuple) -> None:
    after = snapshot(v)
    for x, y in zip(before, after, strict=True):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


ROW_CALLS = {
    "legal_masks": lambda v, rows: v.legal_masks(rows),
    "observations": lambda v, rows: v.observations(rows),
    "random_actions": lambda v, rows: v.random_actions(rows),
    "greedy_actions": lambda v, rows: v.greedy_actions(rows),
    "lookahead_actions": lambda v, rows: v.lookahead_actions(rows),
    "greedy_values": lambda v, rows: v.greedy_values(rows),
    "teacher_values": lambda v, rows: v.teacher_values("lookahead", rows),
    "reset_rows": lambda v, rows: v.reset_rows(rows),
    "step": lambda v, rows: v.step(np.zeros(np.size(rows), dtype=np.int64), rows),
}
BAD_ROWS = {
    "far out of range": ([10**6], "out of range"),
    "just out of range": ([4], "out of range"),
    "negative": ([-1], "out of range"),
    "repeated": ([0, 0], "once"),
    "float": ([0.5], "integers"),
    "bool mask": (np.array([True, False, True, True]), "integers"),
    "2-D": ([[0, 1]], "1-D"),
    "string": (["0"], "integers"),
    "huge": ([2**70], "integers"),
}


@pytest.mark.parametrize("call", ROW_CALLS)
@pytest.mark.parametrize("case", BAD_ROWS)
def test_bad_rows_raise_naming_rows_and_change_nothing(call, case):
    v = fresh()
    before = snapshot(v)
    rows, why = BAD_ROWS[case]
    with pytest.raises((BatchArgumentError, IllegalActionError), match=rf"rows.*{why}|{why}.*rows"):
        ROW_CALLS[call](v, rows)
    assert_unchanged(v, before)


def test_the_same_action_twice_in_one_game_is_refused():
    """`step([a, a], rows=[0, 0])` used to apply one move twice (supply 38 with one settlement)."""
    v = fresh()
    a = int(v.random_actions([0])[0])
    before = snapshot(v)
    with pytest.raises(BatchArgumentError, match="once"):
        v.step([a, a], rows=[0, 0])
    assert_unchanged(v, before)


@pytest.mark.parametrize("players, why", [([10**6] * 4, "seat 1000000"), ([0, 0, 0, 5], "seat 5"),
                                          ([-1, 0, 0, 0], "seat -1"), ([0, 1], "expected 4"),
                                          ([0.0] * 4, "integers")])
def test_bad_observation_players_are_refused(players, why):
    v = fresh()
    with pytest.raises(BatchArgumentError, match=f"players.*{why}"):
        v.observations(players=players)


@pytest.mark.parametrize("actions, why", [([0.0, 1, 2, 3], "integers"), ([1, 2], "expected 4"),
                                          ([[1, 2, 3, 4]], "1-D"), (["a"] * 4, "integers")])
def test_bad_actions_are_refused(actions, why):
    v = fresh()
    before = snapshot(v)
    with pytest.raises(IllegalActionError, match=f"actions.*{why}"):
        v.step(actions)
    assert_unchanged(v, before)


@pytest.mark.parametrize("action", [-1, 409, 10**9])
def test_out_of_range_actions_are_illegal(action):
    v = fresh()
    before = snapshot(v)
    actions = v.random_actions()
    actions[1] = action
    before = snapshot(v)
    with pytest.raises(IllegalActionError, match=f"game 1: action {action}"):
        v.step(actions)
    assert_unchanged(v, before)


def finished_batch(record: bool = True) -> VectorGames:
    v = VectorGames(3, num_players=2, auto_reset=False, record=record)
    v.reset(0)
    while not v.done().all():
        v.step_random()
    return v


def test_step_random_without_auto_reset_leaves_finished_games_alone():
    """It used to apply action -1 to finished games, report them done again and corrupt memory."""
    v = VectorGames(3, num_players=2, auto_reset=False, record=True)
    v.reset(0)
    ends = 0
    for _ in range(2000):
        actions, result, obs = v.step_random(observe=True)
        ends += int(result.done.sum())
        assert len(result.records) == int(result.done.sum())
        assert (actions[v.done() & ~result.done] == -1).all()
        assert obs.shape[0] == 3
        if v.done().all():
            break
    assert ends == 3
    before = snapshot(v)
    actions, result, _ = v.step_random()
    assert (actions == -1).all() and not result.done.any() and result.records == []
    assert_unchanged(v, before)


def test_finished_games_cannot_be_stepped_until_reset():
    v = finished_batch()
    before = snapshot(v)
    with pytest.raises(BatchArgumentError, match="game 0 has ended"):
        v.step([408], rows=[0])
    assert_unchanged(v, before)
    assert (v.random_actions() == -1).all() and (v.greedy_actions() == -1).all()
    v.reset_rows([1])
    assert not v.done()[1]
    v.step(v.random_actions([1]), rows=[1])


@pytest.mark.parametrize("seeds, why", [(-1, "seeds"), (2**63, "seeds"), (2**63 - 2, "seeds"), ([0, 1], "seeds"),
                                        (0.5, "seeds"), ("1", "seeds"), ([-1, 0, 0], "seeds")])
def test_bad_seeds_are_refused(seeds, why):
    v = VectorGames(3)
    with pytest.raises(SetupError, match=why):
        v.reset(seeds)


@pytest.mark.parametrize("kwargs, field", [({"num_games": 0}, "num_games"), ({"num_games": True}, "num_games"),
                                           ({"num_games": 2.5}, "num_games"),
                                           ({"num_games": 2, "num_players": [2, 3, 4]}, "num_players"),
                                           ({"num_games": 2, "num_players": 6}, "num_players"),
                                           ({"num_games": 2, "num_players": 2.0}, "num_players"),
                                           ({"num_games": 2, "lords_count_zero": "no"}, "lords_count_zero"),
                                           ({"num_games": 2, "auto_reset": "yes"}, "auto_reset"),
                                           ({"num_games": 2, "hints": "oracle"}, "hints"),
                                           ({"num_games": 2, "reward": "gold"}, "reward"),
                                           ({"num_games": 2, "preset": "x"}, "preset")])
def test_bad_batch_options_name_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        VectorGames(**kwargs)


@pytest.mark.parametrize("i", [-1, 3, 10**6, True, 1.0])
def test_bad_game_index_is_refused(i):
    v = fresh(3)
    for method in (v.game, v.record_of, v.setup_of, v.final_totals):
        with pytest.raises(BatchArgumentError, match="index"):
            method(i)


index_like = st.one_of(
    st.integers(-(2**66), 2**66),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=st.sampled_from(sorted(ROW_CALLS)), rows=st.one_of(st.lists(index_like, max_size=6), index_like))
def test_any_rows_argument_gives_a_result_or_a_named_error(call, rows):
    """Hypothesis: whatever `rows` is, the call works on valid indices or raises a ValueError naming an
    argument, and a failed call changes nothing; never a crash."""
    v = fresh()
    before = snapshot(v)
    try:
        ROW_CALLS[call](v, rows)
    except ValueError as err:
        assert any(name in str(err) for name in ("rows", "actions", "action", "game")), err
        assert_unchanged(v, before)


ROW_SUBSETS = st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True)  # any subset, any order
# per game: a legal action (most often), an in-range illegal one, or any integer at all
ACTION_KINDS = st.sampled_from(["legal", "legal", "legal", "legal", "legal", "illegal", "any"])


def test_any_actions_are_applied_only_when_all_are_legal():
    """Hypothesis: actions drawn from the legal masks mixed with illegal ones; when every action is legal,
    exactly the stepped games change, each as a single Game stepped with its action; otherwise an error
    names the first illegal (game, action) and nothing changes. Both branches must occur often."""
    seen = {"applied": 0, "refused": 0}

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(warmup=st.integers(0, 30), rows=ROW_SUBSETS, data=st.data())
    def check(warmup, rows, data):
        v = fresh(record=True)
        rng = np.random.default_rng(warmup)
        for _ in range(warmup):  # a few random moves so that the masks are not those of the first turn
            v.step([int(rng.choice(np.flatnonzero(m))) for m in v.legal_masks()])
        masks = v.legal_masks()
        actions = []
        for i in rows:
            kind = data.draw(ACTION_KINDS)
            if kind == "legal":
                actions.append(int(data.draw(st.sampled_from(np.flatnonzero(masks[i]).tolist()))))
            elif kind == "illegal":
                actions.append(int(data.draw(st.sampled_from(np.flatnonzero(~masks[i].astype(bool)).tolist()))))
            else:
                actions.append(data.draw(st.integers(-(2**65), 2**65)))
        legal = [0 <= a < 409 and bool(masks[i, a]) for i, a in zip(rows, actions, strict=True)]
        before = snapshot(v)
        expected = {}
        if all(legal):
            for i, a in zip(rows, actions, strict=True):
                g = v.game(i)
                g.step(a)
                expected[i] = g.state.copy()
        try:
            v.step(actions, rows=rows)
        except IllegalActionError as err:
            assert not all(legal)
            if all(-(2**63) <= a < 2**63 for a in actions):  # names the first illegal game and its action
                j = legal.index(False)
                assert f"game {rows[j]}: action {actions[j]}" in str(err), err
            else:  # not an int64 array at all: names the argument
                assert str(err).startswith("actions: "), err
            assert_unchanged(v, before)
            seen["refused"] += 1
            return
        assert all(legal)
        seen["applied"] += 1
        from kbenv.engine.state import SCRATCH

        for i in range(4):
            if i in expected:  # stepped: exactly the single-game step of its action
                np.testing.assert_array_equal(v.states[i, :SCRATCH], expected[i][:SCRATCH], err_msg=f"game {i}")
                assert not np.array_equal(v.states[i, :SCRATCH], before[0][i]), f"game {i} did not change"
                assert v.actions[i] == [*before[4][i], actions[rows.index(i)]]
            else:  # not stepped: untouched
                np.testing.assert_array_equal(v.states[i, :SCRATCH], before[0][i], err_msg=f"game {i}")
                assert v.actions[i] == before[4][i]

    check()
    assert seen["applied"] >= 20 and seen["refused"] >= 20, seen
