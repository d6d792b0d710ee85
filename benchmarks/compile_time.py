"""What a cold start costs: numba's compile time for the things a user runs first, from an empty cache.

Run: `python -m benchmarks.compile_time [--baseline DIR [--paired]] [--cases readme,base,...] [--out FILE.json]`
(make the baseline with `git worktree add /tmp/kb-3ef0c60 3ef0c60`). Each case runs in a fresh subprocess
with PYTHONPATH set to the tree, NUMBA_CACHE_DIR pointing at a new empty folder and one numba thread; it
records numba's compile events (`numba:compile`, the compiles that the cache could not serve) and reports:

- `compile_cpu_s`: the CPU seconds spent inside the outermost compiles (what an empty cache costs);
- `wall_s`: the wall seconds of the whole case, import included; `compiles`: how many compilations ran;
- `top`: the largest compiles, each with its inclusive seconds (everything it reached) and its own seconds;
  `outermost`: the compiles started from Python (of 1 s or more), in order, with their CPU seconds.

Cases: `readme` (the PettingZoo loop of docs/getting-started.md: 3 players, random legal actions), `base`
(`Game.new(2)` and one random game), one case per expansion (`Game.new(2, expansions=[name])`), `all` (every expansion),
`tournament` (greedy against lookahead, one game), `trained` (the shipped `trained:2p` against random, one
game). `--paired` runs each case in both trees at the same time, one core each; `--readme-table` prints the
Markdown table of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
EXPANSION_NAMES = ("nomads", "capitol", "caves", "crossroads", "marshlands", "harvest", "island")
CASES = ("readme", "base", *EXPANSION_NAMES, "all", "tournament", "trained")

PROBE = textwrap.dedent(
    """
    import json, sys, time
    wall0 = time.perf_counter()
    from numba.core import event

    class Recorder(event.Listener):
        def __init__(self):
            self.depth, self.stack, self.records, self.outer_cpu, self.count = 0, [], [], 0.0, 0
            self.outermost = []

        def on_start(self, ev):
            self.stack.append([time.process_time(), 0.0])
            self.count += 1

        def on_end(self, ev):
            start, children = self.stack.pop()
            spent = time.process_time() - start
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            if self.stack:
                self.stack[-1][1] += spent
            else:
                self.outer_cpu += spent
                self.outermost.append((name, round(spent, 2)))
            self.records.append((name, spent, spent - children))

    recorder = Recorder()
    event.register("numba:compile", recorder)

    import numpy as np
    case = sys.argv[1]

    def random_game(**setup):
        from kbenv.game import Game
        game = Game.new(2, seed=1, **setup)
        rng = np.random.default_rng(1)
        while not game.done:
            game.step(int(rng.choice(game.legal_actions())))

    if case == "readme":
        from kbenv import env
        e = env(num_players=3, reward="win")
        e.reset(seed=42)
        for agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
            e.step(action)
    elif case == "base":
        random_game()
    elif case == "all":
        from kbenv.catalogue import EXPANSIONS
        random_game(expansions=[x.name for x in EXPANSIONS])
    elif case == "tournament":
        from agents.evaluation.play import play_game
        from agents.registry import make_agent
        play_game(0, 1, ["greedy", "lookahead"], [make_agent("greedy", 1), make_agent("lookahead", 2)])
    elif case == "trained":
        from agents.evaluation.play import play_game
        from agents.registry import make_agent
        play_game(0, 1, ["trained:2p", "random"], [make_agent("trained:2p", 1), make_agent("random", 2)])
    else:
        random_game(expansions=[case])

    totals = {}
    for name, inclusive, own in recorder.records:
        t = totals.setdefault(name, [0.0, 0.0, 0])
        t[0] += inclusive
        t[1] += own
        t[2] += 1
    top = sorted(totals.items(), key=lambda kv: -kv[1][0])[:15]
    by_own = sorted(totals.items(), key=lambda kv: -kv[1][1])[:15]
    print(json.dumps({
        "compile_cpu_s": round(recorder.outer_cpu, 2),
        "wall_s": round(time.perf_counter() - wall0, 2),
        "compiles": recorder.count,
        "functions": len(totals),
        "top": [{"name": n, "inclusive_s": round(v[0], 2), "own_s": round(v[1], 2), "times": v[2]}
                for n, v in top],
        "outermost": [o for o in recorder.outermost if o[1] >= 1.0],
        "top_own": [{"name": n, "own_s": round(v[1], 2), "times": v[2]} for n, v in by_own],
    }))
    """
)


def start_case(tree: Path, case: str, cache: str, core: int | None = None) -> subprocess.Popen:
    """One case in a fresh subprocess of `tree` (pinned to `core` if given), from the empty folder `cache`."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1",
               KBENV_COMPILE_NOTICE="off")
    env.pop("NUMBA_DISABLE_JIT", None)
    pin = None if core is None else (lambda: os.sched_setaffinity(0, {core}))
    return subprocess.Popen([sys.executable, "-c", PROBE, case], cwd=tree, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=pin)


def finish_case(proc: subprocess.Popen, tree: Path, case: str) -> dict:
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"case {case} in {tree} failed:\n{err[-3000:]}")
    return json.loads(out.strip().splitlines()[-1])


def run_case(tree: Path, case: str) -> dict:
    """One case in a fresh subprocess of `tree`, from an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="kb-compile-") as cache:
        return finish_case(start_case(tree, case, cache), tree, case)


def run_pair(trees: dict[str, Path], case: str) -> dict[str, dict]:
    """The case in each tree at the same time, one core each (a shared machine's load falls on both alike)."""
    with tempfile.TemporaryDirectory(prefix="kb-compile-") as root:
        procs = {}
        for core, (name, tree) in enumerate(trees.items()):
            cache = Path(root) / name
            cache.mkdir()
            procs[name] = start_case(tree, case, str(cache), core % (os.cpu_count() or 1))
        return {name: finish_case(proc, trees[name], case) for name, proc in procs.items()}


def readme_table(results: dict) -> str:
    """The Markdown table of compile CPU seconds (and compilations) per case, beside the baseline's if measured."""
    trees = list(results)
    paired = len(trees) > 1
    head = "| case | compile CPU s (compilations) |" + (" baseline | baseline / this |" if paired else "")
    lines = [head, "|---|---|" + ("---|---|" if paired else "")]
    for case, r in results[trees[0]].items():
        row = f"| {case} | {r['compile_cpu_s']:.0f} ({r['compiles']}) |"
        b = results[trees[1]].get(case) if paired else None
        if paired:
            row += " - | - |" if b is None else \
                f" {b['compile_cpu_s']:.0f} ({b['compiles']}) | {b['compile_cpu_s'] / r['compile_cpu_s']:.2f} |"
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a tree to measure beside this one (a git worktree)")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--paired", action="store_true",
                        help="run each case in both trees at the same time, one core each (needs 2 free cores)")
    parser.add_argument("--readme-table", action="store_true", help="print the Markdown table of docs/benchmarks.md")
    args = parser.parse_args(argv)
    cases = [c for c in args.cases.split(",") if c]
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        parser.error(f"--cases: unknown {', '.join(unknown)}; expected some of {', '.join(CASES)}")
    trees = {"this": HERE}
    if args.baseline:
        if not (args.baseline / "kbenv").is_dir():
            parser.error(f"--baseline: {args.baseline} holds no kbenv/ folder")
        trees["baseline"] = args.baseline.resolve()
    results: dict[str, dict] = {name: {} for name in trees}
    from tqdm import tqdm

    with tqdm(total=len(cases) * len(trees), desc="compile_time", unit="case") as bar:
        for case in cases:
            if args.paired and len(trees) > 1:
                bar.set_postfix_str(f"both: {case}")
                for name, result in run_pair(trees, case).items():
                    results[name][case] = result
                bar.update(len(trees))
            else:
                for name, tree in trees.items():
                    bar.set_postfix_str(f"{name}: {case}")
                    results[name][case] = run_case(tree, case)
                    bar.update()
            if args.out:
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(results, indent=1) + "\n")
    for name in trees:
        for case, r in results[name].items():
            print(f"{name:8s} {case:12s} compile {r['compile_cpu_s']:7.1f} s CPU, wall {r['wall_s']:7.1f} s, "
                  f"{r['compiles']} compiles of {r['functions']} functions")
    if args.readme_table:
        print(readme_table(results))


if __name__ == "__main__":
    main()
