"""The rules platform's cost: this tree against a baseline tree (a git worktree of an earlier commit),
measured side by side in one run, plus expansion games on one core.

Run: `python -m benchmarks.platform_speed --baseline /tmp/preplatform [--rounds 3] [--out FILE.json]`
(make the baseline with `git worktree add /tmp/preplatform <commit>`). Each measurement runs in a fresh
subprocess with PYTHONPATH set to the tree, single-threaded (NUMBA_NUM_THREADS=1), after a warm-up
that compiles the kernels; the two trees alternate, `--rounds` times, and the median of each is kept. With
`--paired` the two trees run at the same time, each pinned to a core of its own (swapped every round), so that
the load of a shared machine falls on both alike; each round's ratio is then a like-for-like comparison.

Measured: (1) the single-game engine, one numba call per whole random game (`random_playout`), base
games, 2 and 4 players; (2) the batch engine, `VectorGames(1024).step_random()` without observations;
(3) for this tree only (both trees with `--compare-expansions`), the same two with Nomads + Capitol + Caves,
with Crossroads alone, with the four together, with Marshlands alone, and with every implemented expansion
together (`--cases` picks some).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

from kbenv.catalogue import EXPANSIONS

HERE = Path(__file__).resolve().parent.parent

PROBE = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    from kbenv.game import Game
    try:
        from kbenv.policies.playout import random_playout
    except ImportError:  # a tree from before the policies left kbenv/engine
        from kbenv.engine.playout import random_playout
    from kbenv.engine.rng import seed_u32
    from kbenv.vector import VectorGames

    kind, players, seconds, clock = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    extra = {"expansions": sys.argv[5].split(",")} if len(sys.argv) > 5 else {}
    now = time.process_time if clock == "cpu" else time.perf_counter

    def playouts(budget):
        starts = [Game.new(players, seed=i, **extra).state for i in range(200)]
        rng = np.array([seed_u32(1)], dtype=np.int64)
        random_playout(starts[0].copy(), rng, 0, 100000)  # compile
        decisions, t0, k = 0, now(), 0
        while now() - t0 < budget:
            decisions += random_playout(starts[k % 200].copy(), rng, 0, 100000)
            k += 1
        return decisions / (now() - t0)

    def batch(budget):
        v = VectorGames(1024, num_players=players, **extra)
        v.reset(0)
        for _ in range(20):
            v.step_random()
        steps, t0 = 0, now()
        while now() - t0 < budget:
            v.step_random()
            steps += 1
        return steps * 1024 / (now() - t0)

    fn = playouts if kind.startswith("engine") else batch
    fn(0.5)
    print(json.dumps({"decisions_per_s": fn(seconds)}))
    """
)


EXPANSION_CASES = ("nomads,capitol,caves", "crossroads", "nomads,capitol,caves,crossroads", "marshlands",
                   "nomads,capitol,caves,crossroads,marshlands", "harvest",
                   "nomads,capitol,caves,crossroads,marshlands,harvest")


def _command(tree: Path, kind: str, players: int, seconds: float, expansions: str | None, clock: str):
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    env.pop("NUMBA_CACHE_DIR", None)
    return [sys.executable, "-c", PROBE, kind, str(players), str(seconds), clock,
            *([expansions] if expansions else [])], env


def probe(tree: Path, kind: str, players: int, seconds: float, expansions: str | None = None,
          clock: str = "cpu") -> float:
    """Decisions per second of one measurement in a fresh subprocess of `tree`."""
    argv, env = _command(tree, kind, players, seconds, expansions, clock)
    out = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["decisions_per_s"]


def probe_pair(trees: tuple[Path, Path], kind: str, players: int, seconds: float, clock: str,
               cores: tuple[int, int], expansions: str | None = None) -> tuple[float, float]:
    """Decisions per second of both trees measured at the same time, each process pinned to its own core: a
    shared machine's slow and fast moments then fall on both (the cores swap from round to round)."""
    procs = []
    for tree, core in zip(trees, cores, strict=True):
        argv, env = _command(tree, kind, players, seconds, expansions, clock)
        procs.append(subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, preexec_fn=lambda core=core: os.sched_setaffinity(0, {core})))
    results = []
    for proc in procs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"probe failed:\n{err[-2000:]}")
        results.append(json.loads(out.strip().splitlines()[-1])["decisions_per_s"])
    return results[0], results[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a worktree of the earlier commit")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree (median kept)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--out", type=Path, default=Path("bench_results/platform_speed.json"), help="JSON output")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="cpu: the probe's CPU time (robust to a busy machine); wall: elapsed time")
    parser.add_argument("--base-only", action="store_true", help="only the base-game comparison")
    parser.add_argument("--paired", action="store_true",
                        help="run the two trees at the same time, one core each (swapped every round), instead of "
                             "one after the other: needs 2 free cores")
    parser.add_argument("--compare-expansions", action="store_true",
                        help="measure the expansion rulesets on the baseline tree too (it must know them)")
    parser.add_argument("--cases", default=",".join(c.replace(",", "+") for c in EXPANSION_CASES),
                        help="expansion rulesets measured for this tree, comma-separated, expansions joined by '+' "
                             "(default: all of them)")
    args = parser.parse_args(argv)
    rulesets = [c.replace("+", ",") for c in args.cases.split(",") if c]
    known = {e.name for e in EXPANSIONS if e.implemented}
    for ruleset in rulesets:
        unknown = sorted(set(ruleset.split(",")) - known)
        if unknown:
            parser.error(f"--cases: unknown expansion {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    def compare(kind: str, players: int, expansions: str | None) -> dict:
        """This tree against the baseline, `args.rounds` times, paired or alternating."""
        name = "base game" if expansions is None else expansions.replace(",", "+")
        ours, theirs = [], []
        for r in range(args.rounds):
            if args.paired:
                a, b = probe_pair((HERE, args.baseline), kind, players, args.seconds, args.clock,
                                  (0, 1) if r % 2 == 0 else (1, 0), expansions)
                ours.append(a)
                theirs.append(b)
            else:
                for tree, store in ((HERE, ours), (args.baseline, theirs)) if r % 2 == 0 else \
                        ((args.baseline, theirs), (HERE, ours)):
                    store.append(probe(tree, kind, players, args.seconds, expansions, clock=args.clock))
            print(f"[platform] {kind} {players}p {name} round {r + 1}: this {ours[-1]:,.0f}  baseline "
                  f"{theirs[-1]:,.0f}  ratio {ours[-1] / theirs[-1]:.3f}", file=sys.stderr, flush=True)
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        return {"case": f"{kind}, {name}, {players} players", "this": statistics.median(ours),
                "baseline": statistics.median(theirs), "ratio": statistics.median(ratios),
                "ratio_min": min(ratios), "ratio_max": max(ratios),
                "ratio_of_medians": statistics.median(ours) / statistics.median(theirs),
                "runs_this": ours, "runs_baseline": theirs}

    cases = [("engine", 2), ("engine", 4), ("batch", 2)]
    rows = [compare(kind, players, None) for kind, players in cases]
    for expansions in () if args.base_only else rulesets:
        for kind, players in cases:
            if args.compare_expansions:
                rows.append(compare(kind, players, expansions))
                continue
            runs = [probe(HERE, kind, players, args.seconds, expansions, args.clock) for _ in range(args.rounds)]
            name = expansions.replace(",", "+")
            print(f"[platform] {kind} {players}p {name}: {statistics.median(runs):,.0f}", file=sys.stderr, flush=True)
            rows.append({"case": f"{kind}, {name}, {players} players", "this": statistics.median(runs),
                         "runs_this": runs})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"baseline": str(args.baseline), "clock": args.clock, "rounds": args.rounds,
                                    "schedule": "paired" if args.paired else "alternating",
                                    "rows": rows}, indent=2))
    print(f"{'case':<52}{'this (dec/s)':>14}{'baseline':>14}{'ratio':>8}  {'range of rounds':>15}")
    for row in rows:
        base = f"{row['baseline']:,.0f}" if "baseline" in row else ""
        ratio = f"{row['ratio']:.3f}" if "ratio" in row else ""
        spread = f"{row['ratio_min']:.3f}-{row['ratio_max']:.3f}" if "ratio" in row else ""
        print(f"{row['case']:<52}{row['this']:>14,.0f}{base:>14}{ratio:>8}  {spread:>15}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
