"""Self-play throughput of one process against N Ray actors (agents.training.actors), side by side in one run.

Run: `python -m benchmarks.actors_speed [--config configs/quick.yaml] [--actors 1,2] [--steps 8] [--rounds 3]
[--threads 0] [--inference local|server] [--device cpu|cuda|auto]`. Every setting plays the config's self-play (its
games, players, ruleset, search, simulations) with the same network (the config's size, seeded random weights) for
`steps` decisions per game per round, after a warm-up round (numba and Ray start-up), the settings taking turns
round by round (the machine may be shared: its load then falls on all of them alike); each setting's best round and
the mean of its rounds are reported as positions/s and network evaluations/s, and the ratio of each actor count to
the single process. An actor round is what a run's round costs outside training: the weights sent to every actor,
the actors' self-play, and their positions added to the learner's buffer. The single process uses `--threads` torch
threads (0: torch's default, as a run with `threads: 0`); every actor uses one. `--device` is the learner's device:
the single process's network (packed rows when it is not the CPU) and, with `--inference server`, the inference
server's; actors with `local` inference always evaluate on their CPU. Local Ray with the machine's CPUs and GPUs
(or `--address`). Writes JSON (--out).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path


def _rates(positions: int, evaluations: int, seconds: float) -> dict:
    return {"seconds": seconds, "positions": positions, "evaluations": evaluations,
            "positions_per_s": positions / seconds, "evaluations_per_s": evaluations / seconds}


class SingleProcess:
    """This process's self-play (agents.training.alphazero.SelfPlay), as a run with `actors: 0` plays it."""

    def __init__(self, config, net, threads: int, device: str = "cpu"):
        import copy

        from kbenv.agents.alphazero.compiled_search import make_search
        from kbenv.agents.alphazero.network import NetworkEvaluator
        from kbenv.agents.training.alphazero import ReplayBuffer, SelfPlay

        self.threads = threads
        self.evaluator = NetworkEvaluator(copy.deepcopy(net).to(device).eval(), device)
        self.search = make_search(config.search, self.evaluator, num_simulations=config.simulations,
                                  max_considered=config.considered)
        self.selfplay = SelfPlay(config)
        self.buffer = ReplayBuffer(config.buffer_positions, net.action_size)

    def round(self, steps: int) -> dict:
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(self.threads)
        try:
            positions, evaluations = self.selfplay.positions, self.evaluator.positions
            t0 = time.perf_counter()
            for _ in range(steps):
                self.selfplay.step(self.search, self.buffer)
            return _rates(self.selfplay.positions - positions, self.evaluator.positions - evaluations,
                          time.perf_counter() - t0)
        finally:
            torch.set_num_threads(threads)

    def close(self) -> None:
        pass


class Actors:
    """`config.actors` Ray actors; a round is a run's round outside training (ActorPool.play: the weights
    sent, the actors' self-play, their positions added to the learner's buffer)."""

    def __init__(self, config, net, device: str = "cpu"):
        from kbenv.agents.training.actors import ActorPool
        from kbenv.agents.training.alphazero import ReplayBuffer

        self.net = net
        self.pool = ActorPool(config)
        self.buffer = ReplayBuffer(config.buffer_positions, net.action_size)
        self.pool.start(net, device, log=lambda *_: None)

    def round(self, steps: int) -> dict:
        positions = self.pool.positions
        t0 = time.perf_counter()
        done = self.pool.play(self.net, self.buffer, steps)
        return _rates(self.pool.positions - positions, done["evaluations"], time.perf_counter() - t0)

    def close(self) -> None:
        self.pool.stop()


def _summary(rounds: list[dict]) -> dict:
    best = max(rounds, key=lambda r: r["positions_per_s"])
    positions = sum(r["positions"] for r in rounds)
    evaluations = sum(r["evaluations"] for r in rounds)
    seconds = sum(r["seconds"] for r in rounds)
    return {"best": best, "mean": _rates(positions, evaluations, seconds), "rounds": rounds}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/quick.yaml", help="a search self-play config (method alphazero)")
    parser.add_argument("--actors", default="", help="comma-separated actor counts (default: 1 and the CPU count - 1 "
                        "and the CPU count, distinct)")
    parser.add_argument("--steps", type=int, default=8, help="decisions per game in a timed round")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds of each setting")
    parser.add_argument("--games", type=int, default=0,
                        help="games side by side, all actors together (0: the config's)")
    parser.add_argument("--threads", type=int, default=0,
                        help="torch threads of the single process (0: torch's default)")
    parser.add_argument("--inference", choices=("local", "server"), default="local",
                        help="the actors' network: in each actor, or one inference server (meant for a GPU)")
    parser.add_argument("--device", default="cpu",
                        help="the learner's device (cpu, cuda, auto: cuda when there is one): the single process's "
                        "network and the inference server's")
    parser.add_argument("--address", default=None, help="Ray address (default: a new local instance)")
    parser.add_argument("--out", default="bench_results/actors_speed.json")
    args = parser.parse_args(argv)
    import ray
    import torch

    from kbenv.agents.alphazero.network import PolicyValueNet
    from kbenv.agents.training.az_config import AlphaZeroConfig
    from kbenv.agents.training.networks import flush_denormals

    flush_denormals()
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    if device.startswith("cuda") and not torch.cuda.is_available():
        parser.error(f"--device {args.device}: torch sees no CUDA device")
    gpus = torch.cuda.device_count() if device.startswith("cuda") else 0
    cpus = os.cpu_count() or 1
    counts = sorted({int(x) for x in args.actors.split(",") if x}) or sorted({1, max(1, cpus - 1), cpus})
    base = AlphaZeroConfig.load(args.config).to_dict()
    if args.games:
        base["games"] = args.games
    base.update(actors=0, ray_address=None, inference="local", device="cpu")
    config = AlphaZeroConfig.from_dict(base, source=args.config)
    torch.manual_seed(config.seed)
    net = PolicyValueNet(v1=bool(config.expansions), channels=config.channels, blocks=config.blocks,
                         head_channels=config.head_channels).eval()
    if args.address:
        ray.init(address=args.address)
    else:  # every setting's actors exist side by side (idle but for their turn): count them all as CPUs
        ray.init(address="local", num_cpus=max(cpus, sum(counts)), num_gpus=gpus, include_dashboard=False)
    settings: dict[str, object] = {}
    try:
        settings["single process"] = SingleProcess(config, net, args.threads or torch.get_num_threads(), device)
        for n in counts:
            settings[f"{n} actors"] = Actors(AlphaZeroConfig.from_dict({**base, "actors": n,
                                                                        "inference": args.inference}), net, device)
        for setting in settings.values():
            setting.round(1)  # warm-up: numba kernels compiled or loaded, actors started
        rounds: dict[str, list[dict]] = {name: [] for name in settings}
        for _ in range(args.rounds):  # settings take turns, so that the shared machine's load hits them alike
            for name, setting in settings.items():
                rounds[name].append(setting.round(args.steps))
    finally:
        for setting in settings.values():
            setting.close()
        ray.shutdown()
    results = {name: {"actors": 0 if name == "single process" else int(name.split()[0]),
                      "torch_threads": settings[name].threads if name == "single process" else 1,
                      **_summary(rounds[name])} for name in settings}
    single = results["single process"]["best"]["positions_per_s"]
    for name, r in results.items():
        r["ratio_to_single"] = r["best"]["positions_per_s"] / single
        print(f"{name:<16} {r['best']['positions_per_s']:>8,.0f} positions/s {r['best']['evaluations_per_s']:>9,.0f} "
              f"evaluations/s (best round; mean {r['mean']['positions_per_s']:,.0f} positions/s)  "
              f"{r['ratio_to_single']:.2f}x the single process")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    result = {"config": args.config, "games": config.games, "simulations": config.simulations,
              "considered": config.considered, "search": config.search, "network": net.config, "steps": args.steps,
              "rounds": args.rounds, "inference": args.inference, "device": device,
              "gpu": torch.cuda.get_device_name(0) if gpus else None, "cpus": cpus, "machine": platform.processor()
              or platform.machine(), "load_average_after": load, "results": results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
