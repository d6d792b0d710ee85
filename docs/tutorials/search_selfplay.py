"""Search-based self-play (Gumbel AlphaZero) on the batch engine, then the trained network as an agent.

    python docs/tutorials/search_selfplay.py --rounds 20 --games 64

Each round plays `--games` games side by side in kbenv's batch engine, a Gumbel search with the network at
every decision, and trains the network on the positions (policy: the search's visit shares; value: the games'
outcomes). `kbenv train --config configs/quick.yaml` is the full recipe (a warm start by imitating lookahead,
30 rounds, evaluations); this script builds a smaller config of the same kind in code.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kbenv.agents.evaluation.tournament import run_tournament
from kbenv.agents.training.alphazero import Run
from kbenv.agents.training.az_config import AlphaZeroConfig


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The tutorial's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="self-play rounds (iterations)")
    parser.add_argument("--games", type=int, default=64, help="games played side by side each round")
    parser.add_argument("--steps", type=int, default=32, help="decisions per game each round")
    parser.add_argument("--sims", type=int, default=8, help="search simulations per decision")
    parser.add_argument("--eval-games", type=int, default=40, help="games of the trained agent against random")
    parser.add_argument("--out", default="runs", help="the run goes to OUT/tutorial_az")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def config(args: argparse.Namespace) -> AlphaZeroConfig:
    """The run's config: the fields of a YAML config (configs/quick.yaml), checked by the same model."""
    return AlphaZeroConfig.from_dict({
        "method": "alphazero", "name": "tutorial_az", "players": [2],
        "games": args.games, "simulations": args.sims, "considered": min(8, args.sims),
        "channels": 16, "blocks": 1, "head_channels": 2,
        "iterations": args.rounds, "steps_per_iteration": args.steps,
        "train_batches": 8, "batch_size": 64, "learning_rate": 0.002,
        "buffer_positions": 20_000, "min_buffer": 1,
        "eval_every": 0, "eval_games": 2, "eval_opponents": ["random"],  # the run's own curve: its final point
        "checkpoint_every": 0, "device": "cpu", "threads": 1, "seed": args.seed, "out_dir": args.out,
    })


def main(argv: list[str] | None = None) -> dict:
    """Train, then rate `az:path=.../model.pt` (network + search) against random; returns the summary."""
    args = parse_args(argv)
    cfg = config(args)
    card = Run(cfg, log=print).run(progress=False)
    model = Path(args.out) / cfg.name / "model.pt"
    print(f"{card['self_play_positions']} self-play positions; model: {model}")
    summary = run_tournament([f"az:path={model},sims={args.sims}", "random"], [2], games=args.eval_games,
                             seed=args.seed + 1, out_dir=str(Path(args.out) / cfg.name / "tournament"),
                             workers=1, progress=False)
    seats = summary["by_players"]["2"]["seats"]
    for agent, row in seats.items():
        print(f"{agent}: win share {row['win_share']:.3f} over {row['seats']} games")
    return summary


if __name__ == "__main__":
    main()
