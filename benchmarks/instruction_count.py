"""Instructions per decision of random base playouts, this tree against a baseline tree, counted by valgrind
(callgrind): a measure that does not depend on the load of a shared machine, where timings do.

Run: `python -m benchmarks.instruction_count --baseline /tmp/tree-of-an-earlier-commit [--players 2,4]
[--games 400] [--out FILE.json]` (make the baseline with `git worktree add /tmp/tree <commit>`; needs `valgrind`).

For each tree and player count, two processes run under callgrind: one plays `--games` uniformly random base
games from the fixed starts of seeds 0..19 in one numba call each (`random_playout`), the other plays none;
the difference of their instruction counts, divided by the decisions (equal in both trees: base games are
bit for bit the same), is the cost of a decision. Kernels are compiled for numba's generic x86-64 target
(NUMBA_CPU_NAME=generic) in a warm-up run outside valgrind, since valgrind reports another CPU and would make
numba compile again under it; PYTHONHASHSEED=0 keeps the interpreter's own work the same in both runs.
Instruction counts are not time (memory and branch costs differ), but a change in them is a real change of
work, where a timing of a few percent on a busy machine may be noise; report both (benchmarks.platform_speed).
A run takes about 5 minutes per process on the 2-core machine, 8 processes for two player counts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

PROBE = textwrap.dedent(
    """
    import sys
    import numpy as np
    from kbenv.game import Game
    try:
        from kbenv.policies.playout import random_playout
    except ImportError:  # a tree from before the policies left kbenv/engine
        from kbenv.engine.playout import random_playout
    from kbenv.engine.rng import seed_u32

    players, games = int(sys.argv[1]), int(sys.argv[2])
    starts = [Game.new(players, seed=i).state for i in range(20)]
    rng = np.array([seed_u32(1)], dtype=np.int64)
    random_playout(starts[0].copy(), rng, 0, 100000)  # compile, or load the cached kernels
    rng = np.array([seed_u32(1)], dtype=np.int64)
    decisions = 0
    for k in range(games):
        decisions += random_playout(starts[k % 20].copy(), rng, 0, 100000)
    print("decisions", decisions)
    """
)


def _env(tree: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CPU_NAME="generic", NUMBA_NUM_THREADS="1",
               PYTHONHASHSEED="0")
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def count(tree: Path, players: int, games: int) -> tuple[int, int]:
    """(instructions, decisions) of one probe process under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", sys.executable,
                              "-c", PROBE, str(players), str(games)], cwd=tree, env=_env(tree),
                             capture_output=True, text=True, check=True)
    collected = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    decisions = re.search(r"decisions (\d+)", out.stdout)
    if not collected or not decisions:
        raise RuntimeError(f"no instruction count from callgrind in {tree}:\n{out.stderr[-2000:]}")
    return int(collected.group(1)), int(decisions.group(1))


def per_decision(tree: Path, players: int, games: int) -> dict:
    """Instructions per decision of `games` random playouts in `tree` (the difference of two processes)."""
    subprocess.run([sys.executable, "-c", PROBE, str(players), "1"], cwd=tree, env=_env(tree), check=True,
                   capture_output=True)  # warm numba's cache for the generic target outside valgrind
    base, _ = count(tree, players, 0)
    full, decisions = count(tree, players, games)
    return {"instructions": full - base, "decisions": decisions, "per_decision": (full - base) / decisions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a worktree of the earlier commit")
    parser.add_argument("--players", default="4", help="player counts, comma-separated (default 4)")
    parser.add_argument("--games", type=int, default=400, help="random games per measurement")
    parser.add_argument("--out", type=Path, default=Path("bench_results/instruction_count.json"), help="JSON output")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    if not (args.baseline / "kbenv").is_dir():
        parser.error(f"--baseline: {args.baseline} holds no kbenv tree")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        ours = per_decision(HERE, players, args.games)
        theirs = per_decision(args.baseline, players, args.games)
        if ours["decisions"] != theirs["decisions"]:
            raise RuntimeError(f"{players} players: the trees played different games ({ours['decisions']} and "
                               f"{theirs['decisions']} decisions); base games must be bit for bit the same")
        ratio = ours["per_decision"] / theirs["per_decision"]
        rows.append({"players": players, "this": ours, "baseline": theirs, "instructions_ratio": ratio})
        print(f"[instructions] {players} players: this {ours['per_decision']:,.0f}, baseline "
              f"{theirs['per_decision']:,.0f} per decision, ratio {ratio:.3f} (below 1: fewer instructions)",
              file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"baseline": str(args.baseline), "games": args.games, "rows": rows}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
