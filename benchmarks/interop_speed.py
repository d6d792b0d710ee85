"""Throughput of kbenv through other libraries: gymnasium.make ids, TorchRL and Tianshou wrappers, raw_env.

Run: `python -m benchmarks.interop_speed [--players 2] [--seconds 5] [--out FILE.json]` (needs the `interop`
extra for TorchRL and Tianshou). Every run is random masked play, one process, measured in one run, so the
ratios to `kingdom_builder_v0.raw_env` hold on the machine that ran them. A decision is one step of one
player; every layer builds the observation of each decision, as an agent loop does:

- raw_env / env(): the AEC loop of benchmarks.suite.aec_random (`env.last()` then a random legal step).
- gymnasium.make("kbenv/SelfPlay-v1"): learner steps with the mask from `info`; random opponents play the
  other seats inside `step`, so decisions = learner steps + opponent decisions (both are reported).
- TorchRL: `PettingZooWrapper(env=kingdom_builder_v0.env(...), use_mask=True).rollout(...)`, random actions
  from the masked action spec, one rollout step per decision.
- Tianshou: `Collector` over `DummyVectorEnv([PettingZooEnv(kingdom_builder_v0.env(...))])` with random
  masked policies (`MARLRandomDiscreteMaskedOffPolicyAlgorithm`), one collected step per decision.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import warnings
from collections.abc import Callable

import numpy as np

from .suite import aec_random, timed


def gymnasium_self_play(env_id: str, players: int, seconds: float) -> dict:
    """Learner steps/s and decisions/s (learner + random opponents) of a gymnasium.make id."""
    import gymnasium

    import kbenv  # noqa: F401  (registers the ids)
    from kbenv.policies import RandomPolicy

    class CountingRandom(RandomPolicy):
        decisions = 0

        def act(self, observation, action_mask, view=None) -> int:
            CountingRandom.decisions += 1
            return super().act(observation, action_mask, view)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # gymnasium: "-v0 is out of date" next to -v1
        env = gymnasium.make(env_id, num_players=players, opponents=[CountingRandom(seed=0)])
    rng = np.random.default_rng(0)
    episodes = [0]
    learner_steps = [0]

    def run() -> int:
        _, info = env.reset(seed=episodes[0])
        episodes[0] += 1
        start = CountingRandom.decisions
        steps, done = 0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        learner_steps[0] += steps
        return steps + CountingRandom.decisions - start

    run()  # warm-up outside the count
    learner_steps[0] = 0
    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed, "learner_steps_per_s": learner_steps[0] / elapsed}


def torchrl_rollout(players: int, seconds: float, chunk: int = 500) -> dict:
    """Decisions/s of TorchRL's PettingZooWrapper rollouts (auto-reset inside, `chunk` steps per call)."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    from kbenv import kingdom_builder_v0

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "PettingZoo in TorchRL is tested using version 1.24.3"
        env = PettingZooWrapper(env=kingdom_builder_v0.env(num_players=players), use_mask=True, seed=0)

    def run() -> int:
        return int(env.rollout(chunk, break_when_any_done=False).batch_size[0])

    decisions, elapsed = timed(run, seconds)
    env.close()
    return {"decisions_per_s": decisions / elapsed}


def tianshou_collector(players: int, seconds: float, chunk: int = 500) -> dict:
    """Decisions/s of Tianshou's Collector with random masked policies over one PettingZooEnv."""
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.data import Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    from kbenv import kingdom_builder_v0

    def make() -> PettingZooEnv:
        return PettingZooEnv(kingdom_builder_v0.env(num_players=players))

    env = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env)
    venv = DummyVectorEnv([make])
    venv.seed(0)
    np.random.seed(0)
    collector = Collector(algorithm, venv, ReplayBuffer(2 * chunk))
    collector.reset()

    def run() -> int:
        return int(collector.collect(n_step=chunk).n_collected_steps)

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", default="bench_results/interop_speed.json")
    args = parser.parse_args(argv)
    from kbenv import kingdom_builder_v0, kingdom_builder_v1

    n, seconds = args.players, args.seconds
    runs: dict[str, Callable[[], dict]] = {
        "kingdom_builder_v0.raw_env": lambda: aec_random(lambda: kingdom_builder_v0.raw_env(num_players=n), seconds),
        "kingdom_builder_v0.env()": lambda: aec_random(lambda: kingdom_builder_v0.env(num_players=n), seconds),
        "kingdom_builder_v1.raw_env": lambda: aec_random(lambda: kingdom_builder_v1.raw_env(num_players=n), seconds),
        'gymnasium.make("kbenv/SelfPlay-v1")': lambda: gymnasium_self_play("kbenv/SelfPlay-v1", n, seconds),
        'gymnasium.make("kbenv/SelfPlay-v0")': lambda: gymnasium_self_play("kbenv/SelfPlay-v0", n, seconds),
        "TorchRL PettingZooWrapper rollout": lambda: torchrl_rollout(n, seconds),
        "Tianshou Collector (1 env)": lambda: tianshou_collector(n, seconds),
    }
    results: dict[str, dict] = {}
    for name, measure in runs.items():
        try:
            results[name] = measure()
        except ImportError as err:  # the interop extra is not installed
            print(f"{name}: skipped ({err})")
    base = results["kingdom_builder_v0.raw_env"]["decisions_per_s"]
    print(f"{n} players, {seconds:g} s per run, {platform.processor() or platform.machine()}")
    print(f"{'run':<38}{'decisions/s':>13}{'x raw_env':>11}{'learner steps/s':>17}")
    for name, row in results.items():
        row["ratio_to_raw_env"] = row["decisions_per_s"] / base
        learner = f"{row['learner_steps_per_s']:>17,.0f}" if "learner_steps_per_s" in row else ""
        print(f"{name:<38}{row['decisions_per_s']:>13,.0f}{row['ratio_to_raw_env']:>11.3f}{learner}")
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"players": n, "seconds": seconds, "results": results}, f, indent=2)
    print(f"wrote {args.out}")
    return results


if __name__ == "__main__":
    main()
