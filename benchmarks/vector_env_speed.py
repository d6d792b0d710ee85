"""Learner steps/s of the Gymnasium VectorEnv (`gymnasium.make_vec("kbenv/SelfPlay-v1", ...)`) beside the SB3
`SelfPlayVecEnv` on the same batch engine, and of the masked PPO example (scripts/masked_ppo.py) on it.

Run: `python -m benchmarks.vector_env_speed [--envs 16] [--seconds 5] [--ppo-steps 4096]`. Every env plays
2-player base games in the v1 layout (478 actions, (50, 20, 20) planes) with random opponents; the learner takes a
uniformly random legal action, drawn for all games in one numpy call from the masks (SelfPlayVecEnv:
`action_masks()`; the VectorEnv: `infos["action_mask"]`), so the numbers compare the envs, not the sampler. The
PPO figure is end to end (rollouts, GAE and updates on the CPU with torch). Results go to
benchmarks/results/vector_env_speed.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def progress(message: str) -> None:
    print(f"[vector_env_speed] {message}", file=sys.stderr, flush=True)


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row (0 for a row without one: a NEXT_STEP game over)."""
    return np.argmax(np.where(masks.astype(bool), rng.random(masks.shape), -1.0), axis=1)


def measure_sb3(num_envs: int, seconds: float) -> float:
    from kbenv.envs.vector_env import SelfPlayVecEnv

    venv = SelfPlayVecEnv(num_envs, num_players=2, opponents=["random"], layout="v1")
    rng = np.random.default_rng(0)
    venv.reset()
    for _ in range(20):  # warm-up: load the kernels
        venv.step(random_legal(rng, venv.action_masks()))
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        venv.step(random_legal(rng, venv.action_masks()))
        steps += num_envs
    return steps / (time.perf_counter() - t0)


def measure_gymnasium(num_envs: int, seconds: float, mode: str) -> float:
    import gymnasium

    import kbenv  # noqa: F401  (registers the ids)

    env = gymnasium.make_vec("kbenv/SelfPlay-v1", num_envs=num_envs, vectorization_mode="vector_entry_point",
                             autoreset_mode=mode, opponents=["random"])
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(20):
        _, _, _, _, info = env.step(random_legal(rng, info["action_mask"]))
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, _, _, _, info = env.step(random_legal(rng, info["action_mask"]))
        steps += num_envs
    return steps / (time.perf_counter() - t0)


def measure_ppo(num_envs: int, total_steps: int) -> dict:
    """The example's own summary (steps/s end to end) for `total_steps` learner steps."""
    spec = importlib.util.spec_from_file_location("masked_ppo", ROOT / "scripts" / "masked_ppo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main(["--num-envs", str(num_envs), "--num-steps", "64", "--total-timesteps", str(total_steps),
                        "--num-minibatches", "4", "--update-epochs", "4"])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per env")
    parser.add_argument("--ppo-steps", type=int, default=4096, help="learner steps of the PPO run (0: skip it)")
    parser.add_argument("--out", default="benchmarks/results/vector_env_speed.json")
    args = parser.parse_args(argv)
    if args.envs < 1 or args.seconds <= 0 or args.ppo_steps < 0:
        parser.error("--envs and --seconds: expected positive values; --ppo-steps: >= 0")
    results: dict[str, float] = {}
    progress(f"SelfPlayVecEnv (SB3 VecEnv), {args.envs} envs, {args.seconds:g} s")
    results["SelfPlayVecEnv (SB3 VecEnv), random learner"] = measure_sb3(args.envs, args.seconds)
    for mode in ("NextStep", "SameStep"):
        progress(f"SelfPlayVectorEnv (Gymnasium VectorEnv, {mode}), {args.envs} envs, {args.seconds:g} s")
        results[f"SelfPlayVectorEnv (Gymnasium, {mode}), random learner"] = measure_gymnasium(
            args.envs, args.seconds, mode)
    ppo = None
    if args.ppo_steps:
        progress(f"masked PPO example, {args.ppo_steps} learner steps")
        ppo = measure_ppo(args.envs, args.ppo_steps)
        results["masked PPO example (scripts/masked_ppo.py), end to end"] = ppo["steps_per_s"]
    for name, value in results.items():
        print(f"{name:<62}{value:>12,.0f} learner steps/s")
    out = {"envs": args.envs, "seconds": args.seconds, "players": 2, "layout": "v1", "opponents": ["random"],
           "steps_per_s": results, "ppo": ppo, "cpus": os.cpu_count(), "machine": platform.machine(),
           "python": platform.python_version()}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=2)
    progress(f"wrote {args.out}")
    return out


if __name__ == "__main__":
    main()
