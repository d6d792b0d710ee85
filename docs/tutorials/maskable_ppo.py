"""Train sb3-contrib's MaskablePPO on kbenv's Gymnasium self-play env, then rate it in a tournament.

    python docs/tutorials/maskable_ppo.py --timesteps 20000 --games 40

The learner plays one seat of a 2-player base game; the other seat is a built-in agent (`--opponent`).
The saved model is a kbenv agent (`ppo:path=...`), so `kbenv tournament` and `kbenv play` take it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import gymnasium
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

import kbenv  # noqa: F401  (registers kbenv/SelfPlay-v0 and -v1)
from kbenv.agents.evaluation.tournament import run_tournament


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The tutorial's options (the defaults are a run of a few minutes on 2 cores)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=20_000, help="PPO steps of the learner")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped side by side")
    parser.add_argument("--n-steps", type=int, default=256, help="rollout length per environment")
    parser.add_argument("--opponent", default="greedy", help="agent spec of the other seat")
    parser.add_argument("--games", type=int, default=40, help="tournament games against the opponent")
    parser.add_argument("--out", default="runs/tutorial_ppo", help="output folder")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """Train, save `model.zip`, play the tournament; returns the tournament's summary."""
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    envs = make_vec_env("kbenv/SelfPlay-v0", n_envs=args.envs, seed=args.seed,
                        env_kwargs={"num_players": 2, "opponents": [args.opponent]})
    model = MaskablePPO("MlpPolicy", envs, n_steps=args.n_steps, batch_size=64, seed=args.seed, verbose=0)
    model.learn(args.timesteps)
    model.save(out / "model.zip")

    # The saved network as an agent: 2-player games against the opponent, seats rotated.
    summary = run_tournament([f"ppo:path={out / 'model.zip'}", args.opponent], [2], games=args.games,
                             seed=args.seed, out_dir=str(out / "tournament"), workers=1, progress=False)
    for agent, seats in summary["by_players"]["2"]["seats"].items():
        low, high = seats["win_share_ci95"]
        print(f"{agent}: win share {seats['win_share']:.3f} [{low:.3f}, {high:.3f}] over {seats['seats']} games")
    return summary


if __name__ == "__main__":
    gymnasium.logger.min_level = 40  # quiet
    main()
