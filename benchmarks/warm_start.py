"""The search network's warm start by imitation (agents.training.az_warm): how fast samples come and how
strong the raw network is after N of them.

Run: `python -m benchmarks.warm_start [--config configs/quick.yaml] [--teacher lookahead] [--samples 60000]
[--eval-at 15000,30000,60000] [--eval-games 40] [--channels 16 --blocks 1 --head-channels 2] [--epochs 1]
[--temperature 0] [--threads 1] [--seed 0]`. The config gives the ruleset, players, value weight and network (the flags
override its size and warm-start fields); the network starts from the config seed's random weights and
imitates the teacher on `--samples` decisions; after the first chunk past each `--eval-at` count, the raw
network (aznet: one forward pass per decision) plays `--eval-games` games against each of the config's
evaluation opponents (seats rotated, tournament seed 900 + the count's index: not the training run's evaluation
seeds). Reports the imitation record (samples/s of the teacher's labels, training seconds, agreement
with the teacher on held-out positions) and the win shares with Wilson intervals; writes JSON (--out).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="configs/quick.yaml")
    parser.add_argument("--teacher", default="lookahead", choices=("greedy", "lookahead"))
    parser.add_argument("--samples", type=int, default=60_000)
    parser.add_argument("--eval-at", default="", help="comma-separated sample counts (default: --samples only)")
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--channels", type=int)
    parser.add_argument("--blocks", type=int)
    parser.add_argument("--head-channels", type=int)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--temperature", type=float, default=0.0, help="> 0: soft targets (imitation_temperature)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench_results/warm_start.json")
    args = parser.parse_args(argv)

    import torch

    from kbenv.agents.alphazero.network import PolicyValueNet, save_network
    from kbenv.agents.training.alphazero import evaluate
    from kbenv.agents.training.az_config import AlphaZeroConfig
    from kbenv.agents.training.az_warm import imitate_network
    from kbenv.agents.training.config import read_yaml
    from kbenv.agents.training.networks import flush_denormals

    flush_denormals()
    data = read_yaml(args.config)
    for key, value in (("channels", args.channels), ("blocks", args.blocks), ("head_channels", args.head_channels)):
        if value is not None:
            data[key] = value
    data.update(teacher=args.teacher, imitation_samples=args.samples, imitation_epochs=args.epochs,
                imitation_batch_size=args.batch_size, imitation_lr=args.lr,
                imitation_temperature=args.temperature, seed=args.seed, device="cpu",
                threads=args.threads)
    config = AlphaZeroConfig.from_dict(data, source=args.config)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(config.seed)  # the run's initial weights (agents.training.alphazero.Run)
    net = PolicyValueNet(v1=bool(config.expansions), channels=config.channels, blocks=config.blocks,
                         head_channels=config.head_channels)
    marks = sorted({int(x) for x in args.eval_at.split(",") if x.strip()} or {args.samples})
    points: list[dict] = []
    folder = Path(tempfile.mkdtemp(prefix="warm_start_"))

    def after_chunk(seen: int) -> None:
        while marks and seen >= marks[0]:
            mark = marks.pop(0)
            path = folder / "model.pt"
            save_network(net, path)
            t0 = time.perf_counter()
            rows = evaluate(path, config, folder / f"eval_{mark}", seed=900 + len(points), games=args.eval_games)
            net.train()
            for r in rows:
                point = {"requested": mark, "samples": seen, "opponent": r["opponent"], "games": r["games"],
                         "win_share": r["win_share"], "ci95": r["ci95"]}
                points.append(point)
                print(f"{seen:,} samples: aznet vs {r['opponent']} {r['win_share']:.3f} "
                      f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] ({args.eval_games} games, "
                      f"{time.perf_counter() - t0:.0f} s)", flush=True)

    record = imitate_network(net, config, "cpu", after_chunk=after_chunk)
    result = {"config": args.config, "teacher": args.teacher, "network": net.config, "epochs": args.epochs,
              "batch_size": args.batch_size, "lr": args.lr, "threads": args.threads, "seed": args.seed,
              "record": record, "evaluations": points, "machine": {"cpus": os.cpu_count(),
              "platform": platform.platform(), "load_average": os.getloadavg()}}
    print(json.dumps(record, indent=1))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
