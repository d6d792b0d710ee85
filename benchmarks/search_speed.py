"""Self-play throughput of the Python Gumbel search against the compiled one, side by side in one run.

Run: `python -m benchmarks.search_speed [--config configs/quick.yaml] [--steps 8] [--rounds 3] [--threads 1]
[--network zero] [--cache 16384]`. Both
searches drive the same self-play (agents.training.alphazero.SelfPlay: the config's games, players,
ruleset, simulations and considered actions) with the same network (the config's size, seeded random
weights) for `steps` decisions per game, alternating kinds for `rounds` rounds after a warm-up step
(numba compilation); each kind's best round is reported. Besides positions/s and network evaluations/s
it reports the seconds spent in the network's forward passes, so the search's own cost (the rest)
shows apart from the network's; `--network zero` replaces the forward pass by constant outputs (zero
logits and values, the same for both kinds), which measures the searches alone, as if the network ran
elsewhere at no cost. It also checks that both kinds played the same games (the compiled
search gives the Python search's actions and policy targets). Two more kinds run beside them: the compiled
search on packed observations, and the compiled search with the evaluator's cache of `--cache` rows (empty at
the start of each timed round, as in a run's round; its games are compared with the others' apart, since a
cached row's outputs may differ from a fresh batch's in float rounding). The Python kind is the reference as the
issue found it: it also determinizes the roots as self-play did then (kbenv.game.view.PlayerView, the same states and
draws as today's kernels in kbenv.engine.hidden), and so does a "compiled-view" kind, whose ratio to the compiled
kind is what the kernels' determinization gains. Writes JSON (--out) and prints ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np


class TimedEvaluator:
    """A NetworkEvaluator whose forward passes are timed (zero: constant outputs instead of the network)."""

    def __init__(self, evaluator, zero: bool = False):
        self.inner = evaluator
        self.zero = zero
        self.seconds = 0.0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def infer(self, obs):
        t0 = time.perf_counter()
        if self.zero:
            self.inner.positions += len(obs)
            out = (np.zeros((len(obs), self.inner.action_size), dtype=np.float32),
                   np.zeros((len(obs), 5), dtype=np.float32))
        else:
            out = self.inner.infer(obs)
        self.seconds += time.perf_counter() - t0
        return out

    def __call__(self, states):
        from kbenv.agents.alphazero.network import legal_masks, observations
        from kbenv.agents.alphazero.search import seat_values

        logits, values = self.infer(observations(states, self.inner.v1, self.inner.net.config["input_channels"]))
        return legal_masks(states, self.inner.action_size), logits, seat_values(values, states)


def view_determinization(game, seat: int, rng) -> np.ndarray:
    """Self-play's determinization of a root until 4622086 (2026-11-29): through the seat's PlayerView."""
    from kbenv.game.view import PlayerView

    return PlayerView(game, seat).determinize(rng).state


def measure(kind: str, config, net, steps: int, selfplay=None, zero: bool = False,
            cache: int = 0) -> tuple[dict, object]:
    """`steps` self-play decisions per game with one search kind; returns (rates, the SelfPlay)."""
    import torch

    from kbenv.agents.alphazero.compiled_search import make_search
    from kbenv.agents.alphazero.network import NetworkEvaluator
    from kbenv.agents.training.alphazero import ReplayBuffer, SelfPlay

    evaluator = TimedEvaluator(NetworkEvaluator(net, threads=torch.get_num_threads(),  # held (numba)
                                                cache=cache if kind == "compiled-cached" else 0), zero)
    search = make_search(kind.split("-")[0], evaluator, num_simulations=config.simulations,
                         max_considered=config.considered, packed=kind == "compiled-packed")
    if selfplay is None:
        selfplay = SelfPlay(config)
        if kind in ("python", "compiled-view"):  # self-play's determinization before the kernels
            selfplay.determinize = view_determinization
    buffer = ReplayBuffer(config.games * (steps + 1) * 4, net.action_size)
    positions, evals, hits = selfplay.positions, evaluator.positions, evaluator.cache_hits
    t0 = time.perf_counter()
    for _ in range(steps):
        selfplay.step(search, buffer)
    seconds = time.perf_counter() - t0
    positions = selfplay.positions - positions
    evals = evaluator.positions - evals
    return {"seconds": seconds, "positions": positions, "evaluations": evals,
            "positions_per_s": positions / seconds, "evaluations_per_s": evals / seconds,
            "cached_evaluations": evaluator.cache_hits - hits, "network_seconds": evaluator.seconds,
            "search_seconds": seconds - evaluator.seconds}, selfplay


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/quick.yaml", help="a search self-play config (method alphazero)")
    parser.add_argument("--steps", type=int, default=8, help="decisions per game in a timed round")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds of each kind, alternating")
    parser.add_argument("--games", type=int, default=0, help="games side by side (0: the config's)")
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    parser.add_argument("--network", choices=("real", "zero"), default="real",
                        help="zero: constant outputs instead of the forward pass (the searches alone)")
    parser.add_argument("--cache", type=int, default=16384,
                        help="rows in the evaluator's cache for the compiled-cached kind (0: no such kind)")
    parser.add_argument("--out", default="bench_results/search_speed.json")
    args = parser.parse_args(argv)
    import torch

    from kbenv.agents.alphazero.network import PolicyValueNet
    from kbenv.agents.training.az_config import AlphaZeroConfig
    from kbenv.agents.training.networks import flush_denormals

    flush_denormals()
    if args.threads:
        torch.set_num_threads(args.threads)
    zero = args.network == "zero"
    config = AlphaZeroConfig.load(args.config)
    if args.games:
        config = AlphaZeroConfig.from_dict({**config.to_dict(), "games": args.games}, source=args.config)
    torch.manual_seed(config.seed)
    net = PolicyValueNet(v1=bool(config.expansions), channels=config.channels, blocks=config.blocks,
                         head_channels=config.head_channels).eval()
    kinds = ("python", "compiled", "compiled-packed")  # packed: the network gets packed rows (kbenv.packed)
    kinds += ("compiled-view",)  # the compiled search with the view's determinization (the kernels' gain)
    if args.cache and not zero:
        kinds += ("compiled-cached",)  # the evaluator's cache (agents.alphazero.network.NetworkEvaluator)
    played = {kind: measure(kind, config, net, 1, zero=zero, cache=args.cache)[1]  # warm-up: compiles the kernels
              for kind in kinds}
    def same_games() -> bool:
        others = ("compiled", "compiled-packed", "compiled-view")
        return all(np.array_equal(game.state, played[kind].games[i].state)
                   for i, game in enumerate(played["python"].games) for kind in others)

    same = same_games()
    rounds: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for _ in range(args.rounds):
        for kind in kinds:
            rates, played[kind] = measure(kind, config, net, args.steps, played[kind], zero, args.cache)
            rounds[kind].append(rates)
    same = same and same_games()
    same_cached = "compiled-cached" in played and all(
        np.array_equal(a.state, b.state) for a, b in zip(played["compiled"].games, played["compiled-cached"].games,
                                                         strict=True))
    best = {kind: max(rounds[kind], key=lambda r: r["positions_per_s"]) for kind in kinds}
    ratio = best["compiled"]["positions_per_s"] / best["python"]["positions_per_s"]
    search_ratio = (best["python"]["search_seconds"] / best["python"]["positions"]) / \
        (best["compiled"]["search_seconds"] / best["compiled"]["positions"])
    for kind in kinds:
        r = best[kind]
        print(f"{kind:<16} {r['positions_per_s']:>9,.0f} positions/s {r['evaluations_per_s']:>9,.0f} evaluations/s  "
              f"network {r['network_seconds']:.2f} s + search {r['search_seconds']:.2f} s for {r['positions']:,} "
              f"positions")
    packed_ratio = best["compiled-packed"]["positions_per_s"] / best["python"]["positions_per_s"]
    print(f"compiled / python: {ratio:.2f}x positions/s; {search_ratio:.2f}x outside the network; "
          f"compiled-packed / python: {packed_ratio:.2f}x; same games: {same}")
    view_ratio = best["compiled"]["positions_per_s"] / best["compiled-view"]["positions_per_s"]
    print(f"compiled / compiled-view: {view_ratio:.2f}x positions/s (determinization in kernels against the view's)")
    cached_ratio = None
    if "compiled-cached" in best:
        r = best["compiled-cached"]
        cached_ratio = r["positions_per_s"] / best["compiled"]["positions_per_s"]
        print(f"compiled-cached / compiled: {cached_ratio:.2f}x positions/s, "
              f"{r['cached_evaluations'] / max(r['evaluations'], 1):.1%} of the evaluations from the cache; "
              f"same games as compiled: {same_cached}")
    result = {"config": args.config, "network_outputs": args.network, "games": config.games,
              "simulations": config.simulations,
              "considered": config.considered, "network": net.config, "steps": args.steps,
              "torch_threads": torch.get_num_threads(), "cpus": os.cpu_count(), "best": best, "rounds": rounds,
              "ratio_positions_per_s": ratio,
              "ratio_packed_positions_per_s": packed_ratio,
              "ratio_kernel_determinization": view_ratio, "ratio_outside_network": search_ratio, "same_games": same,
              "cache": args.cache, "ratio_cached_positions_per_s": cached_ratio, "same_games_cached": same_cached}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
