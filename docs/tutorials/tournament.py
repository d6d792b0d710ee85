"""A tournament of built-in agents: seats rotated, openskill ratings, win shares and the ratings plot.

    python docs/tutorials/tournament.py --agents random greedy lookahead --players 2 3 --games 60

`kbenv tournament --agents random greedy lookahead --players 2,3 --games 60 --out results/tutorial` does the
same from the command line. The folder receives games.csv, records.jsonl, summary.json, ratings.csv and
ratings.png; run it again and it resumes (each game exactly once).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kbenv.agents.evaluation.tournament import run_tournament


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The tutorial's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", nargs="+", default=["random", "greedy", "lookahead"], help="agent specs")
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3], help="player counts")
    parser.add_argument("--games", type=int, default=60, help="games per player count")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="results/tutorial", help="output folder")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """Run (or resume) the tournament; print each agent's rating and win share; return the summary."""
    args = parse_args(argv)
    summary = run_tournament(args.agents, args.players, games=args.games, seed=args.seed, out_dir=args.out,
                             workers=args.workers, progress=False)
    for players, block in summary["by_players"].items():
        print(f"{players} players, {block['games']} games")
        for agent, rating in block["ratings"].items():
            seats = block["seats"][agent]
            print(f"  {agent:<12} mu {rating['mu']:5.1f}  win share {seats['win_share']:.3f} "
                  f"(fair {seats['fair_share']:.2f})  mean gold {seats['mean_gold']:.1f}")
    print(f"ratings plot: {Path(args.out) / 'ratings.png'}")
    return summary


if __name__ == "__main__":
    main()
