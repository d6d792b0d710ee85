"""Random whole games in one process for a profiler to sample: `random_playout` over 20 starts of one ruleset,
for a number of seconds, then the decisions per second.

Run: `python -m benchmarks.playout_loop --expansions nomads,crossroads --players 2 --seconds 60 &`, then
`perf record -e cpu-clock -F 1000 -p <pid> -- sleep 6` and `perf report --stdio --sort sym`; numba's compiled
code shows as bare addresses, `gdb -p <pid> -batch -ex "info symbol <address>"` names runtime functions
(docs/experiments/2026-12-04-reference-counting.md).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expansions", default="", help="comma-separated expansions (default: the base game)")
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 5 (default 2)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30)")
    args = parser.parse_args(argv)

    from kbenv.engine.rng import seed_u32
    from kbenv.game import Game
    from kbenv.policies.playout import random_playout

    expansions = [e for e in args.expansions.split(",") if e]
    starts = [Game.new(args.players, seed=i, expansions=expansions).state for i in range(20)]
    rng = np.array([seed_u32(1)], dtype=np.int64)
    random_playout(starts[0].copy(), rng, 0, 100000)  # compile, or load the cached kernels
    print(f"pid {os.getpid()}: playing", flush=True)
    start, decisions, games = time.perf_counter(), 0, 0
    while time.perf_counter() - start < args.seconds:
        decisions += random_playout(starts[games % len(starts)].copy(), rng, 0, 100000)
        games += 1
    elapsed = time.perf_counter() - start
    print(f"{decisions} decisions, {games} games, {decisions / elapsed / 1e6:.3f} M decisions/s (wall)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
