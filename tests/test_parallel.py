"""The serial and parallel twins of the batch kernels agree, and kbenv's threading settings respect the user's.

Speed is measured by benchmarks/busy_speed.py, never asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from kbenv import parallel
from kbenv.engine import batch
from kbenv.engine.legal import ACTION_SIZE
from kbenv.engine.rng import seed_u32
from kbenv.engine.state import CURRENT
from kbenv.observation import observation_shape
from kbenv.packed import split
from kbenv.policies import batch as policy_batch
from kbenv.policies.playout import random_playouts_batch
from kbenv.vector import VectorGames

KERNELS = ("new_games", "legal_masks", "check_legal", "apply_actions", "observations", "random_actions",
           "greedy_actions", "random_steps", "greedy_value_table", "lookahead_actions", "lookahead_value_table")


def mid_game_batch(n: int = 24, steps: int = 30) -> VectorGames:
    games = VectorGames(n, num_players=[2, 3, 4, 5] * (n // 4))
    games.reset(seeds=5)
    for _ in range(steps):
        games.step_random()
    return games


def kernel_args(name: str, g: VectorGames, idx: np.ndarray, hint_kind: int = 0, observe: bool = True) -> tuple:
    """Fresh arguments (copies of the batch's arrays) for one call of a batch kernel over rows idx."""
    n = len(idx)
    states, rng = g.states.copy(), g.rng_state.copy()
    if name == "new_games":
        return (states, idx, g.num_players.copy(), g.seeds.copy() + 1000, g.forced)
    if name == "legal_masks":
        return (states, idx, np.zeros((n, ACTION_SIZE), np.int8))
    if name == "check_legal":
        return (states, idx, np.arange(n, dtype=np.int64) * 37 % ACTION_SIZE, np.zeros(n, np.bool_))
    if name == "apply_actions":
        actions = np.empty(n, np.int64)
        policy_batch.random_actions.serial(g.states.copy(), idx, g.rng_state.copy(), actions)
        return (states, idx, actions, np.zeros(n, np.bool_), np.zeros((n, 5), np.int64))
    if name == "observations":
        players = g.states[idx, CURRENT].copy()  # the players to move, so that hint planes are written
        return (states, idx, players, np.zeros((n, *observation_shape(("none", "greedy", "lookahead")[hint_kind])),
                                                np.float32), hint_kind)
    if name in ("random_actions", "greedy_actions", "lookahead_actions"):
        return (states, idx, rng, np.zeros(n, np.int64))
    if name in ("greedy_value_table", "lookahead_value_table"):
        return (states, idx, np.zeros((n, ACTION_SIZE)))
    if name == "random_steps":
        obs = np.zeros((n, *observation_shape("none")), np.float32) if observe else g._no_obs.copy()
        bits, values = split(np.zeros_like(g.packed_layout.empty(1)), g.packed_layout)  # unused by float planes
        return (states, idx, rng, g.num_players.copy(), g.seeds.copy(), len(g.states), g.forced, True, 0,
                np.zeros(n, np.int64), np.zeros(n, np.bool_), np.zeros((n, 5), np.int64), np.zeros((n, 5)),
                observe, obs, False, bits, values, False)
    raise KeyError(name)


def assert_same(a: tuple, b: tuple) -> None:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", KERNELS)
def test_twins_give_identical_results(name):
    """Every array a kernel writes (states, actions, masks, values, rng streams) is the same from both twins."""
    g = mid_game_batch()
    kernel = getattr(batch, name, None) or getattr(policy_batch, name)
    for idx in (g.all_rows, np.array([3, 17, 0, 9, 22], dtype=np.int64)):
        variants = [{}]
        if name == "observations":
            variants = [{"hint_kind": 0}, {"hint_kind": 1}, {"hint_kind": 2}]
        if name == "random_steps":
            variants = [{"observe": True}, {"observe": False}]
        for kw in variants:
            serial_args, parallel_args = kernel_args(name, g, idx, **kw), kernel_args(name, g, idx, **kw)
            kernel.serial(*serial_args)
            kernel.parallel(*parallel_args)
            assert_same(serial_args, parallel_args)


def test_random_steps_until_games_end_both_twins():
    """Many fused steps, through game ends and automatic restarts, stay identical."""
    g = mid_game_batch(steps=0)
    a, b = kernel_args("random_steps", g, g.all_rows), kernel_args("random_steps", g, g.all_rows)
    ended = 0
    for _ in range(150):
        policy_batch.random_steps.serial(*a)
        policy_batch.random_steps.parallel(*b)
        assert_same(a, b)
        ended += int(a[11].sum())
    assert ended > 0


def test_playout_twins_agree():
    g = mid_game_batch(n=12, steps=5)
    rng = np.array([seed_u32(i + 1) for i in range(12)], dtype=np.int64)
    s1, r1, s2, r2 = g.states.copy(), rng.copy(), g.states.copy(), rng.copy()
    c1 = random_playouts_batch.serial(s1, r1, 100_000)
    c2 = random_playouts_batch.parallel(s2, r2, 100_000)
    np.testing.assert_array_equal(c1, c2)
    np.testing.assert_array_equal(s1, s2)
    np.testing.assert_array_equal(r1, r2)
    assert c1.min() > 20


def play_script(num_games: int) -> dict:
    """A little of everything through VectorGames; everything it produced."""
    g = VectorGames(num_games, num_players=[2, 3, 4, 5] * (num_games // 4), record=True)
    g.reset(seeds=11)
    out = {"actions": [], "obs": [], "values": [], "masks": [], "records": []}
    for t in range(150):
        actions, result, obs = g.step_random(observe=t % 25 == 0)
        out["actions"].append(actions)
        out["records"] += result.records
        if obs is not None:
            out["obs"].append(obs)
        if t in (5, 60, 120):
            out["masks"].append(g.legal_masks())
            out["values"].append(g.teacher_values("greedy"))
            out["values"].append(g.teacher_values("lookahead", rows=np.arange(min(4, num_games))))
            result = g.step(g.greedy_actions())
            out["records"] += result.records
            result = g.step(g.lookahead_actions())
            out["records"] += result.records
            out["actions"].append(g.random_actions())
    out["states"] = g.states.copy()
    return out


@pytest.mark.parametrize("num_games", [8, 160])
def test_dispatch_paths_agree(num_games):
    """The same games through VectorGames with only serial kernels, only parallel ones, and the choice."""
    with parallel.forced_mode("serial"):
        serial = play_script(num_games)
    with parallel.forced_mode("numba"):
        par = play_script(num_games)
    with parallel.forced_mode("auto"):
        auto = play_script(num_games)
    for key in serial:
        for run in (par, auto):
            if key == "records":
                assert json.dumps(serial[key], sort_keys=True, default=str) == json.dumps(run[key], sort_keys=True,
                                                                                          default=str)
            else:
                for x, y in zip(serial[key], run[key], strict=True):
                    np.testing.assert_array_equal(x, y)
    assert len(serial["records"]) > 0


def test_dispatch_picks_by_batch_size(monkeypatch):
    calls = []
    monkeypatch.setattr(parallel, "_MODE", "auto")
    for n in (1, 127, 128, 1000):
        calls.append(parallel.use_parallel(n, 128))
    assert calls == [False, False, True, True]
    monkeypatch.setattr(parallel, "_MODE", "serial")
    assert not parallel.use_parallel(10**6, 1)
    monkeypatch.setattr(parallel, "_MODE", "numba")
    assert parallel.use_parallel(1, 128)
    min_rows = policy_batch.random_steps.min_rows
    def args(observe: bool, packed: bool = False) -> tuple:
        return (None,) * 13 + (observe, None, packed)

    assert min_rows(args(True)) < min_rows(args(True, packed=True)) < min_rows(args(False))


# ----- settings ---------------------------------------------------------------------------------
def test_env_defaults_on_a_clean_environment():
    env = {}
    applied = parallel.apply_env_defaults(env, cpus=len(os.sched_getaffinity(0)))
    assert env == {"GOMP_SPINCOUNT": "3000", "KMP_BLOCKTIME": "0"} == applied


@pytest.mark.parametrize("user", [{"OMP_WAIT_POLICY": "ACTIVE"}, {"GOMP_SPINCOUNT": "300000"},
                                  {"KMP_BLOCKTIME": "200"}])
def test_env_defaults_leave_a_users_wait_policy_alone(user):
    env = dict(user)
    assert parallel.apply_env_defaults(env, cpus=len(os.sched_getaffinity(0))) == {}
    assert env == user


def test_env_defaults_numba_mode_sets_nothing():
    env = {"KBENV_THREADING": "numba"}
    assert parallel.apply_env_defaults(env, cpus=1) == {}
    assert env == {"KBENV_THREADING": "numba"}


def test_thread_cap_from_available_cpus_respects_numba_num_threads(monkeypatch):
    monkeypatch.setattr(parallel, "numba_threads_started", lambda: False)
    env = {}
    parallel.apply_env_defaults(env, cpus=1)
    expected = "1" if len(os.sched_getaffinity(0)) > 1 else None
    assert env.get("NUMBA_NUM_THREADS") == expected
    env = {"NUMBA_NUM_THREADS": "7"}
    parallel.apply_env_defaults(env, cpus=1)
    assert env["NUMBA_NUM_THREADS"] == "7"
    monkeypatch.setattr(parallel, "numba_threads_started", lambda: True)  # too late to change the pool
    env = {}
    parallel.apply_env_defaults(env, cpus=1)
    assert "NUMBA_NUM_THREADS" not in env


def test_cgroup_cpu_limit(tmp_path):
    assert parallel.cgroup_cpu_limit(str(tmp_path)) is None
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert parallel.cgroup_cpu_limit(str(tmp_path)) is None
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert parallel.cgroup_cpu_limit(str(tmp_path)) == 2
    v1 = tmp_path / "v1"
    (v1 / "cpu").mkdir(parents=True)
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    (v1 / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert parallel.cgroup_cpu_limit(str(v1)) is None
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("100000\n")
    assert parallel.cgroup_cpu_limit(str(v1)) == 1
    assert parallel.available_cpus(str(v1)) == 1


def test_mode_parsing():
    with pytest.raises(ValueError, match="mode"):
        with parallel.forced_mode("threads"):
            pass
    assert parallel.mode({}) == "auto"
    assert parallel.mode({"KBENV_THREADING": " Serial "}) == "serial"
    with pytest.raises(ValueError, match="KBENV_THREADING"):
        parallel.mode({"KBENV_THREADING": "fast"})


IMPORT_PROBE = ("import os, json, kbenv, numba; from kbenv.vector import VectorGames; "
                "g = VectorGames(300); g.reset(0); g.step_random(); "
                "print(json.dumps([os.environ.get(k) for k in ('OMP_WAIT_POLICY', 'KMP_BLOCKTIME', 'GOMP_SPINCOUNT')]"
                " + [numba.threading_layer()]))")


def probe(**env_vars) -> list:
    env = {k: v for k, v in os.environ.items()
           if k not in parallel.WAIT_VARIABLES + ("KBENV_THREADING", "NUMBA_DISABLE_JIT")}
    env.update(env_vars)
    out = subprocess.run([sys.executable, "-c", IMPORT_PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_sets_short_spinning_unless_told_otherwise():
    assert probe()[:3] == [None, "0", "3000"]
    assert probe(GOMP_SPINCOUNT="1000")[:3] == [None, None, "1000"]
    assert probe(OMP_WAIT_POLICY="active")[:3] == ["active", None, None]
    assert probe(KBENV_THREADING="numba")[:3] == [None, None, None]


def test_twins_run_as_plain_python():
    """With NUMBA_DISABLE_JIT=1 the twins are plain Python functions and still agree."""
    code = ("import numpy as np; from kbenv.policies import batch as policy_batch; "
            "from kbenv.vector import VectorGames; "
            "g = VectorGames(4, num_players=3); g.reset(0); g.step_random(); g.step(g.greedy_actions()); "
            "a = np.empty(4, np.int64); b = np.empty(4, np.int64); "
            "policy_batch.random_actions.serial(g.states, g.all_rows, g.rng_state.copy(), a); "
            "policy_batch.random_actions.parallel(g.states, g.all_rows, g.rng_state.copy(), b); "
            "print(type(policy_batch.random_actions.parallel).__name__, bool((a == b).all()))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "function True"


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def fake_twins(clock: FakeClock, cost: dict, calls: list):
    """Two 'kernels' that only advance the fake clock by cost[name] seconds per row."""
    def make(name):
        def kernel(rows):
            calls.append(name)
            clock.now += cost[name] * len(rows)
        return kernel
    return make("serial"), make("parallel")


def test_chooser_follows_the_faster_twin_and_keeps_retrying_the_other():
    clock, calls = FakeClock(), []
    cost = {"serial": 1.0, "parallel": 0.5}
    chooser = parallel.TwinChooser(clock)
    kernels = fake_twins(clock, cost, calls)
    rows = [0] * 256
    for _ in range(1000):
        chooser.call(kernels, (rows,), len(rows))
    late = calls[100:]
    assert late.count("parallel") > 0.9 * len(late)
    serial_time = late.count("serial") * cost["serial"]
    assert 0 < serial_time < 2 * parallel.TwinChooser.TRY_SHARE * len(late) * cost["parallel"]
    # the machine gets busy: parallel calls now cost four times as much; the chooser moves to serial
    cost["parallel"] = 2.0
    calls.clear()
    for _ in range(1000):
        chooser.call(kernels, (rows,), len(rows))
    assert calls[:10].count("serial") >= 5  # within a few calls
    assert calls[100:].count("serial") > 0.9 * len(calls[100:])
    assert "parallel" in calls[100:]  # still retried now and then
    # and back when the load goes away
    cost["parallel"] = 0.5
    calls.clear()
    for _ in range(1000):
        chooser.call(kernels, (rows,), len(rows))
    assert calls[200:].count("parallel") > 0.9 * len(calls[200:])


def test_chooser_skips_the_first_call_of_each_twin():
    """A twin's first call compiles or loads it: its time must not count against it."""
    clock, calls = FakeClock(), []
    cost = {"serial": 1000.0, "parallel": 1000.0}
    chooser = parallel.TwinChooser(clock)
    kernels = fake_twins(clock, cost, calls)
    chooser.call(kernels, ([0] * 64,), 64)
    cost.update(serial=1.0, parallel=0.5)
    for _ in range(parallel.TwinChooser.TRY_CALLS):
        chooser.call(kernels, ([0] * 64,), 64)
    assert calls == ["parallel"] * (1 + parallel.TwinChooser.TRY_CALLS)
    assert chooser.buckets[(0, 7)][:2] == [None, 0.5]
    # a call of another kind (or batch size) may run other argument types: numba specialises the twin again, and
    # that first call in its bucket does not count either
    cost.update(parallel=1000.0)
    chooser.call(kernels, ([0] * 64,), 64, "packed")
    cost.update(parallel=0.5)
    for _ in range(parallel.TwinChooser.TRY_CALLS):
        chooser.call(kernels, ([0] * 64,), 64, "packed")
    assert chooser.buckets[("packed", 7)][:2] == [None, 0.5]


def test_chooser_keeps_one_estimate_per_kind_of_call():
    """A kernel whose cost per row depends on its mode (random steps with and without observations): each
    mode runs its own faster twin, also when the modes come in long runs one after the other."""
    clock, calls = FakeClock(), []
    cost = {("serial", "plain"): 1.0, ("parallel", "plain"): 0.5,
            ("serial", "observed"): 3.0, ("parallel", "observed"): 6.0}

    def make(name):
        def kernel(rows, mode):
            calls.append((name, mode))
            clock.now += cost[(name, mode)] * len(rows)
        return kernel

    chooser = parallel.TwinChooser(clock)
    kernels = make("serial"), make("parallel")
    rows = [0] * 256
    for mode in ("plain", "observed", "plain", "observed"):
        calls.clear()
        for _ in range(300):
            chooser.call(kernels, (rows, mode), len(rows), mode)
        faster = min(("serial", "parallel"), key=lambda name: cost[(name, mode)])
        assert [name for name, _ in calls[20:]].count(faster) > 0.9 * len(calls[20:]), mode
    assert set(chooser.buckets) == {("plain", 9), ("observed", 9)}


def test_dispatcher_takes_keywords_and_keeps_the_signature():
    import inspect

    g = mid_game_batch(n=8, steps=3)
    a, b = np.empty(8, np.int64), np.empty(8, np.int64)
    policy_batch.random_actions(g.states, g.all_rows, g.rng_state.copy(), a)
    policy_batch.random_actions(g.states, idx=g.all_rows, rng_state=g.rng_state.copy(), out=b)
    np.testing.assert_array_equal(a, b)
    assert list(inspect.signature(policy_batch.random_steps).parameters)[:2] == ["states", "idx"]
