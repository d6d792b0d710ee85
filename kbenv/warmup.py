"""`kbenv warmup`: compile kbenv's kernels ahead, so that the first game, test or training run only loads them.

Each target plays a little through one public path of kbenv (the kernels it needs compile, or load from the
cache when they are there already): `env` the PettingZoo loop of docs/getting-started.md, `games` a random game of
the base game and of every expansion, `v1` the v1 observation, `policies` the built-in greedy and lookahead policies
and their hint planes, `vector` the batch engine (its parallel and serial kernels) with observations and
teachers, `search` the compiled tree search of the network agents (needs torch). A progress bar shows the
target and the function compiling; the summary says how many compilations ran (0 when all was cached).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np


def _random_game(num_players: int = 2, **setup) -> None:
    from .game import Game

    game = Game.new(num_players, seed=1, **setup)
    rng = np.random.default_rng(1)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    game.score_table()


def warm_env() -> None:
    """The loop of docs/getting-started.md: kingdom_builder_v0, 3 players, random legal actions, to the end."""
    from . import env

    e = env(num_players=3, reward="win")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)


def warm_games() -> None:
    """A random game of the base game, of each expansion alone and of all of them together."""
    from .catalogue import EXPANSIONS

    names = [x.name for x in EXPANSIONS if x.implemented]
    _random_game()
    for name in names:
        _random_game(expansions=[name])
    _random_game(expansions=names)


def warm_v1() -> None:
    """kingdom_builder_v1 (observation v1) with every expansion."""
    from .catalogue import EXPANSIONS
    from .envs import kingdom_builder_v1

    e = kingdom_builder_v1.env(num_players=2, expansions=[x.name for x in EXPANSIONS if x.implemented])
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)


def warm_policies() -> None:
    """The built-in policies (greedy, lookahead) choosing, and their hint planes."""
    from .engine.rng import seed_u32
    from .game import Game
    from .observation import observation_planes
    from .policies.greedy import greedy_action
    from .policies.lookahead import lookahead_action

    game = Game.new(2, seed=5)
    rng = np.random.default_rng(5)
    tie_rng = np.array([seed_u32(5)], dtype=np.int64)
    while not game.done:
        p = game.decider
        observation_planes(game.state, p, "greedy")
        observation_planes(game.state, p, "lookahead")
        world = game.determinize(p, rng)  # what the agents do: choose in a world dealt from the player's view
        choose = greedy_action if rng.random() < 0.5 else lookahead_action
        game.step(int(choose(world.state, tie_rng, 0)))


def warm_vector() -> None:
    """The batch engine: random steps, observations (float and packed, with hints) and the teachers."""
    from .vector import VectorGames

    for batch in (2, 64):  # small batches run the serial kernels, larger ones may run the parallel ones
        games = VectorGames(batch, num_players=2)
        games.reset(0)
        for _ in range(30):
            games.step_random()
        games.observations()
        games.observations(packed=True)
        games.greedy_actions()
        games.lookahead_actions()


def warm_search() -> None:
    """The compiled tree search of the network agents (agents.alphazero), one short search."""
    from agents.evaluation.play import agent_inputs
    from agents.registry import make_agent

    from .game import Game

    agent = make_agent("trained:2p", seed=0)
    game = Game.new(2, seed=7)
    for _ in range(3):
        game.step(int(agent.act(*agent_inputs(game, game.decider))))


TARGETS: dict[str, Callable[[], None]] = {
    "env": warm_env,
    "games": warm_games,
    "v1": warm_v1,
    "policies": warm_policies,
    "vector": warm_vector,
    "search": warm_search,
}
DEFAULT_TARGETS = ("env", "games", "v1", "policies", "vector")


def check_targets(names) -> list[str]:
    """The targets by name; ValueError naming an unknown one."""
    names = list(names)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        raise ValueError(f"warmup targets: unknown {', '.join(unknown)}; expected some of {', '.join(TARGETS)}")
    return names


FIRST = ("env",)  # the engine's core, which every other target loads: compiled before the others start
SECONDS = {"env": 110, "games": 10, "v1": 30, "policies": 50, "vector": 60, "search": 60}  # cold, 2-core VM


def groups_of(names: list[str], workers: int) -> list[list[str]]:
    """`names` split into at most `workers` groups of about equal expected time (largest first)."""
    groups: list[list[str]] = [[] for _ in range(max(1, min(workers, len(names))))]
    load = [0.0] * len(groups)
    for name in sorted(names, key=lambda n: -SECONDS.get(n, 30)):
        i = load.index(min(load))
        groups[i].append(name)
        load[i] += SECONDS.get(name, 30)
    return [g for g in groups if g]


def _run_groups(groups: list[list[str]], report: dict, bar) -> None:
    """Each group in a `kbenv warmup` subprocess at the same time; their reports merged into `report`."""
    import json
    import subprocess

    procs = [(group, subprocess.Popen([sys.executable, "-m", "kbenv.cli", "warmup", "--targets", ",".join(group),
                                       "--json", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True)) for group in groups]
    if bar is not None:
        bar.set_postfix_str(" | ".join(",".join(g) for g in groups) + " (in parallel)")
    for group, proc in procs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"kbenv warmup --targets {','.join(group)} failed:\n{err[-3000:]}")
        part = json.loads(out)
        report["targets"].update(part["targets"])
        report["compiled"] += part["compiled"]
        if bar is not None:
            bar.update(len(group))


def warmup(targets=DEFAULT_TARGETS, progress: bool = True, stream=None, workers: int = 1) -> dict:
    """Run the targets; returns {"compiled": compilations that ran, "seconds": wall time, "targets": {...}}.

    With `workers` > 1 the engine's core (FIRST) compiles here first, then the other targets in that many
    processes at once (numba's compiler is single-threaded; the cache is shared and written atomically)."""
    from . import compile_progress
    from .numba_cache import CACHE_DIR

    names = check_targets(targets)
    here = names if workers <= 1 else [n for n in names if n in FIRST] or names[:1]
    later = [] if workers <= 1 else [n for n in names if n not in here]
    stream = stream if stream is not None else sys.stderr
    watcher = compile_progress.install()
    saved_delay = watcher.delay
    watcher.delay = None  # this bar instead of the per-compile one
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(names), desc="kbenv warmup", unit="target", file=stream, dynamic_ncols=True)
        watcher.on_change = lambda name: bar.set_postfix_str(f"{current}: compiling {name}")
    report: dict = {"cache": CACHE_DIR, "targets": {}, "compiled": 0}
    start = time.perf_counter()
    first = watcher.compiled
    try:
        for current in here:
            t0, c0 = time.perf_counter(), watcher.compiled
            if bar is not None:
                bar.set_postfix_str(current)
            TARGETS[current]()
            report["targets"][current] = {"seconds": round(time.perf_counter() - t0, 2),
                                          "compiled": watcher.compiled - c0}
            if bar is not None:
                bar.update()
        report["compiled"] = watcher.compiled - first
        if later:
            _run_groups(groups_of(later, workers), report, bar)
    finally:
        watcher.on_change = None
        watcher.delay = saved_delay
        if bar is not None:
            bar.close()
    report["seconds"] = round(time.perf_counter() - start, 2)
    return report
