"""Rollout throughput for training: the batch-engine VecEnv against SB3's SubprocVecEnv and DummyVecEnv.

Run: `python -m benchmarks.vecenv_speed [--envs 16] [--seconds 5]`. Each env steps the learner with a
random legal action (masks fetched as MaskablePPO does) while random opponents play the other seat;
steps/s counts learner steps, the quantity PPO consumes. The batch VecEnv is also measured with greedy
and with lookahead hint planes in its observations.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def measure(venv, seconds: float) -> float:
    venv.reset()
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        masks = np.stack(venv.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        venv.step(actions)
        steps += len(actions)
    return steps / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", default="bench_results/vecenv_speed.json")
    args = parser.parse_args(argv)
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from kbenv.envs.vector_env import SelfPlayVecEnv
    from kbenv.envs.wrappers import SelfPlayEnv

    results = {}
    batch = SelfPlayVecEnv(args.envs, num_players=2, opponents=["random"])
    results["SelfPlayVecEnv (batch engine)"] = measure(batch, args.seconds)
    for hints in ("greedy", "lookahead"):  # the opt-in hint planes cost time per observation
        hinted = SelfPlayVecEnv(args.envs, num_players=2, opponents=["random"], hints=hints)
        measure(hinted, 0.5)  # compile outside the timing
        results[f"SelfPlayVecEnv, {hints} hints"] = measure(hinted, args.seconds)
    dummy = DummyVecEnv([lambda: SelfPlayEnv(num_players=2) for _ in range(args.envs)])
    results["DummyVecEnv(SelfPlayEnv)"] = measure(dummy, args.seconds)
    subproc = SubprocVecEnv([lambda: SelfPlayEnv(num_players=2) for _ in range(args.envs)], start_method="fork")
    results["SubprocVecEnv(SelfPlayEnv)"] = measure(subproc, args.seconds)
    subproc.close()
    for name, value in results.items():
        print(f"{name:<34}{value:>12,.0f} learner steps/s")
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"envs": args.envs, "steps_per_s": results}, f, indent=2)
    return results


if __name__ == "__main__":
    main()
