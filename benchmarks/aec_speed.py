"""AEC environment throughput: random masked play through env() and raw_env, next to connect four.

Run: `python -m benchmarks.aec_speed [--seconds S] [--out FILE.json]`.  Every step builds the full
observation (`env.last()`), exactly as an agent loop does.  Ratios are measured in one run.
"""

from __future__ import annotations

import argparse
import json
import os

from .suite import aec_random


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--out", default="bench_results/aec_speed.json")
    args = parser.parse_args(argv)
    from pettingzoo.classic import connect_four_v3

    from kbenv import env, raw_env

    warm = raw_env(num_players=args.players)
    warm.reset(seed=0)
    warm.observe(warm.agent_selection)
    runs = {
        "kbenv env()": lambda: env(num_players=args.players),
        "kbenv raw_env": lambda: raw_env(num_players=args.players),
        "connect_four_v3 env()": connect_four_v3.env,
        "connect_four_v3 raw_env": connect_four_v3.raw_env,
    }
    results = {name: {"steps_per_s": aec_random(make, args.seconds)["decisions_per_s"]} for name, make in runs.items()}
    results["ratio_env"] = results["kbenv env()"]["steps_per_s"] / results["connect_four_v3 env()"]["steps_per_s"]
    results["ratio_raw_env"] = (
        results["kbenv raw_env"]["steps_per_s"] / results["connect_four_v3 raw_env"]["steps_per_s"]
    )
    print(f"{'run':<26}{'steps/s':>12}")
    for name in runs:
        print(f"{name:<26}{results[name]['steps_per_s']:>12,.0f}")
    print(f"env() ratio {results['ratio_env']:.2f}x, raw_env ratio {results['ratio_raw_env']:.2f}x")
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {args.out}")
    return results


if __name__ == "__main__":
    main()
