"""Compare network and imitation settings on the warm start alone (no PPO).

Each variant is a training config plus overrides. For each one: build the model, imitate the config's
teacher on `--samples` decisions, then measure the accuracy on a held-out set of teacher-labelled
decisions (argmax inside the teacher's best set) and the win share of the imitation policy against
`--opponent` (a tournament with seats rotated; `--field` seats it alone against n-1 opponents).
Results go to OUT/sweep.csv and OUT/sweep.json.

    python scripts/imitation_sweep.py --config configs/quick.yaml --samples 60000 \\
        --variant old board_planes=false context=false --variant new --workers 2
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the checkout's agents/ (kbenv.bundled), when run as `python scripts/...`
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402


def parse_variant(words: list[str]) -> tuple[str, dict]:
    """["name", "key=value", ...] -> (name, overrides); values are read as YAML scalars."""
    name, overrides = words[0], {}
    for word in words[1:]:
        if "=" not in word:
            raise SystemExit(f"--variant {name}: expected key=value, got {word!r}")
        key, value = word.split("=", 1)
        overrides[key] = yaml.safe_load(value)
    return name, overrides


def held_out_accuracy(model, players: list[int], samples: int, seed: int, teacher: str = "greedy",
                      hints: str = "none") -> float:
    """Share of held-out decisions where the policy's argmax lies in the teacher's best set."""
    import torch

    from agents.training.imitation import action_logits, imitation_batches, set_cross_entropy

    hits, total = 0.0, 0
    with torch.no_grad():
        for obs, masks, labels, *_ in imitation_batches(64, players, samples, 0.2, seed,
                                                                teacher=teacher, hints=hints):
            for start in range(0, len(obs), 512):
                sl = slice(start, start + 512)
                device = model.policy.device
                logits = action_logits(model.policy, torch.as_tensor(obs[sl], device=device))
                _, hit = set_cross_entropy(logits, torch.as_tensor(masks[sl], device=device, dtype=torch.bool),
                                           torch.as_tensor(labels[sl], device=device, dtype=torch.bool))
                hits += float(hit) * len(obs[sl])
                total += len(obs[sl])
    return hits / total


def run_variant(name: str, overrides: dict, args: argparse.Namespace, threads: int) -> dict:
    import torch

    from agents.evaluation.tournament import run_tournament
    from agents.training.config import TrainConfig
    from agents.training.imitation import imitate
    from agents.training.training import make_env, make_model, pick_device

    torch.set_num_threads(threads)
    base = TrainConfig.load(args.config).to_dict()
    config = TrainConfig.from_dict({**base, **overrides, "name": name}, source=f"variant {name}")
    out = Path(args.out) / name
    out.mkdir(parents=True, exist_ok=True)
    device = pick_device(config.device)
    model = make_model(config, make_env(config, config.seed), out, device)
    t0 = time.perf_counter()
    stats = imitate(model, args.samples, config.players, epochs=config.imitation_epochs, lr=config.imitation_lr,
                    seed=config.seed, reward=config.reward, temperature=config.imitation_temperature,
                    teacher=config.teacher, hints=config.hints,
                    log=lambda line: print(f"{name}: {line.strip()}", flush=True))
    seconds = time.perf_counter() - t0
    path = str(out / "model.zip")
    model.save(path)
    accuracy = held_out_accuracy(model, config.players, args.held_out, seed=10_000 + config.seed,
                                 teacher=config.teacher, hints=config.hints)
    folder = out / f"vs_{args.opponent}"
    shutil.rmtree(folder, ignore_errors=True)  # a fresh tournament for the newly trained model
    summary = run_tournament([f"ppo:path={path}", args.opponent], [args.players], games=args.games, seed=17,
                             out_dir=str(folder), progress=False, field=args.field)
    seat = summary["by_players"][str(args.players)]["seats"][f"ppo:path={path}"]
    parameters = sum(p.numel() for p in model.policy.parameters())
    row = {"variant": name, "overrides": json.dumps(overrides), "parameters": parameters,
           "train_accuracy": round(stats["accuracy"], 4), "held_out_accuracy": round(accuracy, 4),
           "opponent": args.opponent, "players": args.players,
           "win_share": round(seat["win_share"], 4), "ci95": [round(x, 3) for x in seat["win_share_ci95"]],
           "imitation_seconds": round(seconds, 1), "device": device}
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="configs/quick.yaml")
    parser.add_argument("--variant", nargs="+", action="append", required=True, metavar="NAME [KEY=VALUE ...]")
    parser.add_argument("--samples", type=int, default=30_000, help="imitation decisions per variant")
    parser.add_argument("--held-out", type=int, default=5_000, help="held-out decisions for the accuracy")
    parser.add_argument("--games", type=int, default=100, help="evaluation games per variant")
    parser.add_argument("--opponent", default="random", help="evaluation opponent (an agent spec)")
    parser.add_argument("--players", type=int, default=2, help="players per evaluation game")
    parser.add_argument("--field", action="store_true", help="one imitation policy against n-1 opponents")
    parser.add_argument("--workers", type=int, default=1, help="variants trained at the same time")
    parser.add_argument("--out", default="results/imitation_sweep")
    args = parser.parse_args()
    variants = [parse_variant(v) for v in args.variant]
    os.makedirs(args.out, exist_ok=True)
    threads = max(1, (os.cpu_count() or 1) // args.workers)
    if args.workers == 1:
        rows = [run_variant(name, overrides, args, threads) for name, overrides in variants]
    else:
        with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(run_variant, name, overrides, args, threads) for name, overrides in variants]
            rows = [f.result() for f in futures]
    with open(Path(args.out) / "sweep.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (Path(args.out) / "sweep.json").write_text(json.dumps(rows, indent=2))
    best = max(rows, key=lambda r: (r["win_share"], r["held_out_accuracy"]))
    print(f"best: {best['variant']} (win share {best['win_share']} vs {args.opponent}, "
          f"accuracy {best['held_out_accuracy']})")
    print(f"wrote {args.out}/sweep.csv and sweep.json")


if __name__ == "__main__":
    main()
