"""The throughput suite behind `kbenv bench`: every engine layer and the anchors, in one process.

Runs, side by side: the single-game engine (one numba call per whole random game), the batch engine
at batch sizes 1..4096 with observations off, on (float planes) and packed (kbenv.packed), whole
batched random playouts in one parallel numba call, the AEC env (`raw_env`, observation built every
step), and the anchors PettingZoo `connect_four_v3` and `chess_v6` (random masked play through
`raw_env`) and pgx `connect_four` on the CPU when pgx is installed (`pip install -e ".[bench]"`), and
the batch engine (batch 1024) and the single-game engine again next to one spinning process per
available core (benchmarks/busy_speed.py, where the full comparison lives). Writes JSON and a PNG
plot and prints a table of decisions/s with ratios to the anchors.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable

import numpy as np

from kbenv.engine.batch import new_games
from kbenv.engine.rng import seed_u32
from kbenv.game import Game
from kbenv.policies.playout import random_playout, random_playouts_batch
from kbenv.vector import VectorGames

BATCH_SIZES = (1, 4, 16, 64, 256, 1024, 4096)


def timed(run: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Call run() (which returns decisions made) until `seconds` have passed; (decisions, elapsed)."""
    run()  # warm-up: compile or load kernels, fill caches
    decisions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        decisions += run()
    return decisions, time.perf_counter() - t0


def single_engine(players: int, seconds: float) -> dict:
    starts = [Game.new(players, seed=s).state for s in range(64)]
    rng = np.array([seed_u32(1)], dtype=np.int64)
    counter = [0]

    def run() -> int:
        st = starts[counter[0] % len(starts)].copy()
        counter[0] += 1
        return random_playout(st, rng, 0, 100_000)

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed, "games_per_s": counter[0] / elapsed}


def batch_engine(batch_size: int, players: int, seconds: float, with_observations: bool,
                 packed: bool = False) -> dict:
    v = VectorGames(batch_size, num_players=players, auto_reset=True, packed=packed)
    v.reset(0)

    def run() -> int:
        for _ in range(8):
            v.step_random(observe=with_observations)
        return 8 * batch_size

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed}


def batch_playouts(batch_size: int, players: int, seconds: float) -> dict:
    states = np.zeros((batch_size, Game.new(2).state.size), dtype=np.int64)
    rows = np.arange(batch_size, dtype=np.int64)
    num_players = np.full(batch_size, players, dtype=np.int64)
    forced = np.full(12, -1, dtype=np.int64)
    rng = np.array([seed_u32(i + 1) for i in range(batch_size)], dtype=np.int64)
    games = [0]

    def run() -> int:
        seeds = rows + games[0]
        new_games(states, rows, num_players, seeds, forced)
        games[0] += batch_size
        return int(random_playouts_batch(states, rng, 100_000).sum())

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games[0] / elapsed}


def aec_random(make_env: Callable, seconds: float) -> dict:
    env = make_env()
    rng = np.random.default_rng(0)
    games = [0]

    def run() -> int:
        env.reset(seed=games[0])
        games[0] += 1
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed}


def pgx_connect_four(batch_size: int, seconds: float) -> dict | None:
    """pgx connect_four, random legal play, jit-compiled step on the CPU (None if pgx is missing)."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))

    @jax.jit
    def act(key, state):
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=-1)

    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch_size))

    def run() -> int:
        nonlocal state, key
        for _ in range(16):
            key, k1 = jax.random.split(key)
            state = step(state, act(k1, state))
        state.terminated.block_until_ready()
        return 16 * batch_size

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed, "batch_size": batch_size}


def run_suite(seconds: float = 2.0, players: int = 2, out_dir: str = "bench_results",
              batch_sizes=BATCH_SIZES, progress: Callable[[str], None] = print) -> dict:
    try:
        from pettingzoo.classic import chess_v6, connect_four_v3
    except ImportError as exc:  # chess_v6 needs python-chess: the bench extra
        raise ImportError(f"the PettingZoo anchors need the bench extra: pip install -e '.[bench]' "
                          f"(or make bench) ({exc})") from None

    from kbenv import raw_env

    results: dict = {
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "python": platform.python_version()},
        "players": players,
        "seconds_per_run": seconds,
    }
    progress("single-game engine")
    results["single_engine"] = single_engine(players, seconds)
    results["batch_obs_off"] = {}
    results["batch_obs_on"] = {}
    results["batch_obs_packed"] = {}
    results["batch_playouts"] = {}
    for b in batch_sizes:
        progress(f"batch engine, batch {b}")
        results["batch_obs_off"][b] = batch_engine(b, players, seconds, with_observations=False)
        results["batch_obs_on"][b] = batch_engine(b, players, seconds, with_observations=True)
        results["batch_obs_packed"][b] = batch_engine(b, players, seconds, with_observations=True, packed=True)
        results["batch_playouts"][b] = batch_playouts(b, players, seconds)
    progress("AEC env and anchors")
    results["aec_raw_env"] = aec_random(lambda: raw_env(num_players=players), seconds)
    results["connect_four_v3_raw_env"] = aec_random(connect_four_v3.raw_env, seconds)
    results["chess_v6_raw_env"] = aec_random(chess_v6.raw_env, seconds)
    results["pgx_connect_four_1024"] = pgx_connect_four(1024, seconds)
    from .busy_speed import in_process

    progress("batch and single-game engine next to busy processes")
    results["under_load"] = in_process(seconds, players)
    write_outputs(results, out_dir)
    return results


def best(runs: dict) -> tuple[int, float]:
    size = max(runs, key=lambda b: runs[b]["decisions_per_s"])
    return size, runs[size]["decisions_per_s"]


def table(results: dict) -> str:
    c4 = results["connect_four_v3_raw_env"]["decisions_per_s"]
    chess = results["chess_v6_raw_env"]["decisions_per_s"]
    pgx = results["pgx_connect_four_1024"]
    rows = [("single-game engine (whole random games)", results["single_engine"]["decisions_per_s"])]
    for key, label in (("batch_obs_off", "batch engine, observations off"),
                       ("batch_obs_on", "batch engine, observations on"),
                       ("batch_obs_packed", "batch engine, packed observations"),
                       ("batch_playouts", "batched playouts in one numba call")):
        size, value = best(results[key])
        rows.append((f"{label} (best: batch {size})", value))
    b1024 = results["batch_obs_off"].get(1024)
    if b1024:
        rows.append(("batch engine, observations off, batch 1024", b1024["decisions_per_s"]))
        for key, label in (("batch_obs_on", "on"), ("batch_obs_packed", "packed")):
            if results.get(key, {}).get(1024):
                rows.append((f"batch engine, observations {label}, batch 1024", results[key][1024]["decisions_per_s"]))
    rows.append(("kbenv raw_env (AEC, observation every step)", results["aec_raw_env"]["decisions_per_s"]))
    rows.append(("PettingZoo connect_four_v3 raw_env", c4))
    rows.append(("PettingZoo chess_v6 raw_env", chess))
    if pgx:
        rows.append(("pgx connect_four, batch 1024, CPU", pgx["decisions_per_s"]))
    load = results.get("under_load")
    if load:
        n = load["busy_processes"]
        rows.append((f"batch engine, batch {load['batch_size']}, {n} busy processes", load["busy"]["step_random"]))
        rows.append((f"single-game engine, {n} busy processes", load["busy"]["playout"]))
    header = f"{'run':<56}{'decisions/s':>14}{'x c4':>9}{'x chess':>10}" + (f"{'x pgx':>8}" if pgx else "")
    lines = [header, "-" * len(header)]
    for label, value in rows:
        line = f"{label:<56}{value:>14,.0f}{value / c4:>9.1f}{value / chess:>10.1f}"
        if pgx:
            line += f"{value / pgx['decisions_per_s']:>8.2f}"
        lines.append(line)
    if b1024 and results.get("batch_obs_packed", {}).get(1024):
        on = results["batch_obs_on"][1024]["decisions_per_s"] / b1024["decisions_per_s"]
        packed = results["batch_obs_packed"][1024]["decisions_per_s"] / b1024["decisions_per_s"]
        lines.append(f"batch 1024, over observations off: float observations {on:.2f}x, packed {packed:.2f}x")
    if load:
        ratio = load["busy_over_idle"]
        fair = load["fair_busy_over_idle"]
        lines.append(f"next to {load['busy_processes']} busy processes, busy / idle decisions/s: batch engine "
                     f"{ratio['step_random']:.2f} (CPU share {fair['step_random']:.2f}), single-game engine "
                     f"{ratio['playout']:.2f} (CPU share {fair['playout']:.2f})")
    return "\n".join(lines)


def write_outputs(results: dict, out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump(results, f, indent=2, default=str)
    plot(results, os.path.join(out_dir, "bench.png"))


def plot(results: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for key, label in (("batch_obs_off", "batch engine, obs off"), ("batch_obs_on", "batch engine, obs on"),
                       ("batch_obs_packed", "batch engine, obs packed"), ("batch_playouts", "playouts in one call")):
        sizes = sorted(int(b) for b in results[key])
        ax.plot(sizes, [results[key][b]["decisions_per_s"] for b in sizes], marker="o", label=label)
    anchors = [("single_engine", "single-game engine", "k"), ("aec_raw_env", "kbenv raw_env", "tab:purple"),
               ("connect_four_v3_raw_env", "connect_four_v3 raw_env", "tab:red"),
               ("chess_v6_raw_env", "chess_v6 raw_env", "tab:brown"),
               ("pgx_connect_four_1024", "pgx connect_four (batch 1024)", "tab:gray")]
    for key, label, colour in anchors:
        if results.get(key):
            ax.axhline(results[key]["decisions_per_s"], linestyle="--", color=colour, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (games)")
    ax.set_ylabel("decisions per second")
    ax.set_title(f"kbenv throughput, {results['players']} players, {results['machine']['cores']} cores")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
