"""Instructions per decision of random base playouts, this tree against a baseline tree, counted by valgrind
(callgrind): a measure that does not depend on the load of a shared machine, where timings do.

Run: `python -m benchmarks.instruction_count --baseline /tmp/tree-of-an-earlier-commit [--players 2,4]
[--games 400] [--out FILE.json]` (make the baseline with `git worktree add /tmp/tree <commit>`; needs `valgrind`,
its header `valgrind/callgrind.h` and a C compiler: Debian's `valgrind` and `gcc` packages).

For each tree and player count one probe process runs under callgrind with instrumentation off
(`--instr-atstart=no`) until the playouts start: the interpreter, numba and the set-up run fast and uncounted.
Around the playouts (`--games` uniformly random base games from the fixed starts of seeds 0..19, one numba call
each, `random_playout`) the probe switches callgrind's instrumentation on and off through its client requests
(a tiny C library compiled here, loaded with ctypes), so the count is the playouts' own work. Divided by the
decisions (equal in both trees: base games are bit for bit the same), it is the cost of a decision. Kernels are
compiled for numba's generic x86-64 target (NUMBA_CPU_NAME=generic) in a warm-up run outside valgrind, since
valgrind reports another CPU and would make numba compile again under it. Instruction counts are not time
(memory and branch costs differ), but a change in them is a real change of work, where a timing of a few percent
on a busy machine may be noise; report both (benchmarks.platform_speed). A run takes about half a minute per
process once the kernels are compiled.

(The first version counted two whole processes, with and without playouts, and took the difference: the
interpreter's start-up, 20 times the playouts' work, did not cancel out between processes, and a 2-player
comparison read 1.27x where the playouts alone differ by 1%.)
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

TOGGLE_C = textwrap.dedent(
    """
    #include <valgrind/callgrind.h>
    void count_on(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
    void count_off(void) { CALLGRIND_STOP_INSTRUMENTATION; }
    """
)

PROBE = textwrap.dedent(
    """
    import ctypes
    import os
    import sys
    import numpy as np
    from kbenv.game import Game
    try:
        from kbenv.policies.playout import random_playout
    except ImportError:  # a tree from before the policies left kbenv/engine
        from kbenv.engine.playout import random_playout
    from kbenv.engine.rng import seed_u32

    players, games = int(sys.argv[1]), int(sys.argv[2])
    toggle = ctypes.CDLL(os.environ["KBENV_COUNT_TOGGLE"]) if os.environ.get("KBENV_COUNT_TOGGLE") else None
    starts = [Game.new(players, seed=i).state for i in range(20)]
    copies = [starts[k % 20].copy() for k in range(games)]
    rng = np.array([seed_u32(1)], dtype=np.int64)
    random_playout(starts[0].copy(), rng, 0, 100000)  # compile, or load the cached kernels
    rng = np.array([seed_u32(1)], dtype=np.int64)
    decisions = 0
    if toggle is not None:
        toggle.count_on()
    for k in range(games):
        decisions += random_playout(copies[k], rng, 0, 100000)
    if toggle is not None:
        toggle.count_off()
    print("decisions", decisions)
    """
)


def build_toggle(folder: Path) -> Path:
    """Compile the client-request library that switches callgrind's counting on and off."""
    source, library = folder / "toggle.c", folder / "libcounttoggle.so"
    source.write_text(TOGGLE_C)
    out = subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise RuntimeError(f"cannot compile the callgrind toggle (needs gcc and valgrind/callgrind.h):\n{out.stderr}")
    return library


def _env(tree: Path, toggle: Path | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CPU_NAME="generic", NUMBA_NUM_THREADS="1",
               PYTHONHASHSEED="0")
    env.pop("NUMBA_CACHE_DIR", None)
    if toggle is not None:
        env["KBENV_COUNT_TOGGLE"] = str(toggle)
    return env


def count(tree: Path, players: int, games: int, toggle: Path) -> tuple[int, int]:
    """(instructions, decisions) of the playouts of one probe process under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                              f"--callgrind-out-file={tmp}/cg.out", sys.executable, "-c", PROBE, str(players),
                              str(games)], cwd=tree, env=_env(tree, toggle), capture_output=True, text=True,
                             check=True)
    collected = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    decisions = re.search(r"decisions (\d+)", out.stdout)
    if not collected or not decisions:
        raise RuntimeError(f"no instruction count from callgrind in {tree}:\n{out.stderr[-2000:]}")
    return int(collected.group(1)), int(decisions.group(1))


def per_decision(tree: Path, players: int, games: int, toggle: Path) -> dict:
    """Instructions per decision of `games` random playouts in `tree`."""
    subprocess.run([sys.executable, "-c", PROBE, str(players), "1"], cwd=tree, env=_env(tree), check=True,
                   capture_output=True)  # warm numba's cache for the generic target outside valgrind
    instructions, decisions = count(tree, players, games, toggle)
    return {"instructions": instructions, "decisions": decisions, "per_decision": instructions / decisions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a worktree of the earlier commit")
    parser.add_argument("--players", default="4", help="player counts, comma-separated (default 4)")
    parser.add_argument("--games", type=int, default=400, help="random games per measurement")
    parser.add_argument("--out", type=Path, default=Path("bench_results/instruction_count.json"), help="JSON output")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("gcc") is None:
        parser.error("valgrind and gcc are needed (apt-get install valgrind gcc)")
    if not (args.baseline / "kbenv").is_dir():
        parser.error(f"--baseline: {args.baseline} holds no kbenv tree")
    rows = []
    folder = Path(tempfile.mkdtemp(prefix="kbenv-count-"))
    toggle = build_toggle(folder)
    for players in (int(p) for p in args.players.split(",")):
        ours = per_decision(HERE, players, args.games, toggle)
        theirs = per_decision(args.baseline, players, args.games, toggle)
        if ours["decisions"] != theirs["decisions"]:
            raise RuntimeError(f"{players} players: the trees played different games ({ours['decisions']} and "
                               f"{theirs['decisions']} decisions); base games must be bit for bit the same")
        ratio = ours["per_decision"] / theirs["per_decision"]
        rows.append({"players": players, "this": ours, "baseline": theirs, "instructions_ratio": ratio})
        print(f"[instructions] {players} players: this {ours['per_decision']:,.0f}, baseline "
              f"{theirs['per_decision']:,.0f} per decision, ratio {ratio:.3f} (below 1: fewer instructions)",
              file=sys.stderr, flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"baseline": str(args.baseline), "games": args.games, "method": "playouts only "
                                    "(callgrind client requests)", "rows": rows}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
