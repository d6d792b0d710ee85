"""Throughput with the CPU shared: idle against one busy process per available core, in one run.

Run: `python -m benchmarks.busy_speed [--seconds 1] [--repeats 3] [--batch-sizes 16,256,1024]
[--busy N] [--only default,numba_num_threads_1] [--config NAME:VAR=VALUE] [--out bench_results/busy_speed.json]`.

Each measurement runs in a fresh child process (so that environment settings such as
NUMBA_NUM_THREADS take effect), first on an idle machine, then while N processes spin
(`while True: pass`, N = the cores this process may use), started here and killed at the end.
Configurations, each measured idle and busy:

- `default`: kbenv's own settings (kbenv.parallel);
- `numba_num_threads_1`: NUMBA_NUM_THREADS=1, one thread, for comparison;
- `numba_defaults`: KBENV_THREADING=numba, numba's own settings and the parallel kernels at every batch
  size, which is how kbenv ran before kbenv.parallel;
- any given with `--config NAME:VAR=VALUE,...` (say `--config spin1k:GOMP_SPINCOUNT=1000`).

Measured: the batch engine's fused random step (`VectorGames(b).step_random()`, decisions/s), the
single-game playout kernel (one serial numba call per game) and whole batched playouts
(`random_playouts_batch`, batch 256). The table gives the median over the repeats with its range,
and busy / idle. A process with T threads next to N spinning processes on C cores gets at most
C * T / (T + N) cores, so with T = N = C its fair busy / idle ratio is 0.5 (0.67 for one thread
against the one-thread idle figure); the `fair` column gives that share. Other processes on a shared
machine move every figure: compare within one run, and look at the ranges.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager

CONFIGS = {
    "default": {},
    "numba_num_threads_1": {"NUMBA_NUM_THREADS": "1"},
    "numba_defaults": {"KBENV_THREADING": "numba"},
}
PLAYOUT_BATCH = 256


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@contextmanager
def busy_processes(n: int):
    """n processes that spin on one core each, for the duration of the block."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        time.sleep(0.2)  # let them start
        yield procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


# ----- what one child process measures --------------------------------------------------------
def warm_twins(players: int = 2) -> None:
    """Compile or load both twins of the measured kernels, so that no timed call does."""
    try:
        from kbenv.parallel import forced_mode
    except ImportError:  # a kbenv without twins
        return
    from .suite import batch_engine, batch_playouts

    for mode in ("serial", "numba"):
        with forced_mode(mode):
            batch_engine(4, players, 0.0, with_observations=False)
            batch_playouts(2, players, 0.0)


def measure(seconds: float, batch_sizes, players: int = 2) -> dict:
    """Decisions/s of the batch engine's random step, the single-game playout kernel and batched playouts."""
    import numba

    from .suite import batch_engine, batch_playouts, single_engine

    warm_twins(players)
    result = {"step_random": {}}
    for b in batch_sizes:
        result["step_random"][str(b)] = batch_engine(b, players, seconds, with_observations=False)["decisions_per_s"]
    result["playout"] = single_engine(players, seconds)["decisions_per_s"]
    result["playouts_batch"] = batch_playouts(PLAYOUT_BATCH, players, seconds)["decisions_per_s"]
    try:
        result["threading_layer"] = numba.threading_layer()
    except ValueError:  # no parallel kernel ran (KBENV_THREADING=serial)
        result["threading_layer"] = "unused"
    result["numba_threads"] = numba.get_num_threads()
    result["env"] = {k: os.environ[k] for k in ("NUMBA_NUM_THREADS", "NUMBA_THREADING_LAYER", "OMP_WAIT_POLICY",
                                                "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "KBENV_THREADING")
                     if k in os.environ}
    return result


def run_child(env_extra: dict, seconds: float, batch_sizes) -> dict:
    applied = getattr(sys.modules.get("kbenv.parallel"), "APPLIED", {})  # kbenv's defaults, if imported here
    env = {k: v for k, v in os.environ.items() if k not in applied}
    env.update(env_extra)
    cmd = [sys.executable, "-m", "benchmarks.busy_speed", "--child", "--seconds", str(seconds),
           "--batch-sizes", ",".join(str(b) for b in batch_sizes)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"busy_speed: a measuring process failed ({env_extra}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# ----- the whole run ------------------------------------------------------------------------
def metrics(batch_sizes) -> list[tuple[str, callable]]:
    rows = [(f"step_random b{b}", lambda r, b=b: r["step_random"][str(b)]) for b in batch_sizes]
    rows.append(("playout (1 game)", lambda r: r["playout"]))
    rows.append((f"playouts_batch b{PLAYOUT_BATCH}", lambda r: r["playouts_batch"]))
    return rows


def summarize(runs: list[dict], batch_sizes) -> dict:
    out = {}
    for name, get in metrics(batch_sizes):
        values = [get(r) for r in runs]
        out[name] = {"median": statistics.median(values), "min": min(values), "max": max(values),
                     "values": values}
    return out


def fair_share(threads: int, busy: int, cpus: int) -> float:
    """busy / idle throughput a process with `threads` threads should keep next to `busy` spinners."""
    idle_cores = min(threads, cpus)
    return min(threads, cpus * threads / (threads + busy)) / idle_cores


def run(seconds: float = 1.0, repeats: int = 3, batch_sizes=(16, 256, 1024), busy: int | None = None,
        configs: dict | None = None, progress=print) -> dict:
    configs = dict(CONFIGS if configs is None else configs)
    cpus = available_cpus()
    busy = cpus if busy is None else busy
    raw = {name: {"idle": [], "busy": []} for name in configs}
    for r in range(repeats):
        for name, env in configs.items():
            progress(f"repeat {r + 1}/{repeats}: {name}, idle")
            raw[name]["idle"].append(run_child(env, seconds, batch_sizes))
        with busy_processes(busy):
            for name, env in configs.items():
                progress(f"repeat {r + 1}/{repeats}: {name}, {busy} busy processes")
                raw[name]["busy"].append(run_child(env, seconds, batch_sizes))
    results = {
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "available_cpus": cpus, "python": platform.python_version(),
                    "loadavg_at_end": os.getloadavg()},
        "busy_processes": busy,
        "seconds_per_run": seconds,
        "repeats": repeats,
        "configs": {},
    }
    for name, env in configs.items():
        idle, loaded = summarize(raw[name]["idle"], batch_sizes), summarize(raw[name]["busy"], batch_sizes)
        threads = raw[name]["idle"][0]["numba_threads"]
        results["configs"][name] = {
            "env": env,
            "threading_layer": raw[name]["idle"][0]["threading_layer"],
            "numba_threads": threads,
            "fair_busy_over_idle": {k: fair_share(1 if k.startswith("playout (") else threads, busy, cpus)
                                    for k in idle},
            "idle": idle,
            "busy": loaded,
            "busy_over_idle": {k: loaded[k]["median"] / idle[k]["median"] for k in idle},
        }
    return results


def table(results: dict) -> str:
    lines = [f"{results['busy_processes']} busy processes, {results['machine']['available_cpus']} available cpus, "
             f"{results['repeats']} repeats of {results['seconds_per_run']} s; decisions/s, median [min-max]"]
    header = f"{'config':<30}{'run':<22}{'idle':>30}{'busy':>30}{'busy/idle':>11}{'fair':>6}"
    lines += [header, "-" * len(header)]

    def cell(s: dict) -> str:
        return f"{s['median']:>12,.0f} [{s['min']:,.0f}-{s['max']:,.0f}]"

    for name, c in results["configs"].items():
        label = f"{name} ({c['threading_layer']}, {c['numba_threads']}t)"
        for k in c["idle"]:
            lines.append(f"{label:<30.30}{k:<22}{cell(c['idle'][k]):>30}{cell(c['busy'][k]):>30}"
                         f"{c['busy_over_idle'][k]:>11.3f}{c['fair_busy_over_idle'][k]:>6.2f}")
            label = ""
    return "\n".join(lines)


# ----- the short in-process version inside `kbenv bench` --------------------------------------
def in_process(seconds: float, players: int = 2, batch_size: int = 1024, busy: int | None = None) -> dict:
    """Batch-engine step and single-game playouts idle and next to one spinning process per core."""
    from .suite import batch_engine, single_engine

    busy = available_cpus() if busy is None else busy
    out = {"busy_processes": busy, "batch_size": batch_size}
    for load in ("idle", "busy"):
        if load == "busy":
            with busy_processes(busy):
                batch = batch_engine(batch_size, players, seconds, with_observations=False)
                single = single_engine(players, seconds)
        else:
            batch = batch_engine(batch_size, players, seconds, with_observations=False)
            single = single_engine(players, seconds)
        out[load] = {"step_random": batch["decisions_per_s"], "playout": single["decisions_per_s"]}
    out["busy_over_idle"] = {k: out["busy"][k] / out["idle"][k] for k in out["idle"]}
    import numba

    cpus = available_cpus()
    out["fair_busy_over_idle"] = {"step_random": fair_share(numba.get_num_threads(), busy, cpus),
                                  "playout": fair_share(1, busy, cpus)}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--batch-sizes", default="16,256,1024")
    p.add_argument("--busy", type=int, default=None, help="busy processes (default: one per available cpu)")
    p.add_argument("--only", default=None, help="comma-separated configurations to run (default: all)")
    p.add_argument("--config", action="append", default=[], metavar="NAME:VAR=VALUE[,VAR=VALUE]",
                   help="one more configuration: environment variables of its child processes")
    p.add_argument("--out", default="bench_results/busy_speed.json")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    sizes = tuple(int(b) for b in args.batch_sizes.split(","))
    if args.child:
        print(json.dumps(measure(args.seconds, sizes)))
        return 0
    configs = dict(CONFIGS)
    for spec in args.config:
        name, _, assignments = spec.partition(":")
        configs[name] = dict(a.split("=", 1) for a in assignments.split(",") if a)
    if args.only:
        configs = {name: configs[name] for name in args.only.split(",")}
    results = run(args.seconds, args.repeats, sizes, args.busy, configs,
                  progress=lambda m: print(f"[busy_speed] {m}", file=sys.stderr, flush=True))
    print(table(results))
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
