"""Tournaments: seat-rotated games between agents, in parallel, with ratings, files and plots.

Schedule: for each player count n, the tables are the sets of n distinct agents (or, with fewer
agents than seats, every balanced multiset of them). Each deal (a set-up seed, so the same board,
cards and terrain deck) is played once per cyclic rotation of the table, so every agent sits in
every seat equally often on the same deals. Results stream to `games.csv` and `records.jsonl` as
games finish, so an interrupted run resumes from its output folder.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import lru_cache

from .play import play_game
from .ratings import head_to_head, rate, seat_stats
from .registry import make_agent, parse_spec

GAMES_CSV = "games.csv"
RECORDS = "records.jsonl"
SUMMARY = "summary.json"


@dataclass(frozen=True)
class GameTask:
    game_id: int
    num_players: int
    seed: int
    seats: tuple[str, ...]


def tables_for(agents: list[str], n: int, field: bool = False) -> list[tuple[str, ...]]:
    """The agent line-ups for n seats (before seat rotation).

    With `field`, the first agent sits alone against the others, which fill the other n - 1 seats in
    turn (one ppo against three greedy players, say).
    """
    if field:
        if len(agents) < 2:
            raise ValueError("field: needs a first agent and at least one other to fill the seats")
        others = agents[1:]
        return [(agents[0], *(others[i % len(others)] for i in range(n - 1)))]
    if len(agents) >= n:
        return list(itertools.combinations(agents, n))
    k = len(agents)
    base, extra = divmod(n, k)
    tables = []
    for lucky in itertools.combinations(agents, extra):
        table = []
        for a in agents:
            table += [a] * (base + (1 if a in lucky else 0))
        tables.append(tuple(table))
    return tables


def schedule(agents: list[str], player_counts: list[int], games: int, seed: int,
             field: bool = False) -> list[GameTask]:
    """At least `games` games per player count, whole rotation blocks, deterministic given the seed."""
    tasks: list[GameTask] = []
    game_id = 0
    for n in player_counts:
        tables = tables_for(agents, n, field)
        per_deal = len(tables) * n
        deals = max(1, -(-games // per_deal))
        for deal in range(deals):
            deal_seed = seed * 1_000_003 + n * 10_007 + deal
            for table in tables:
                for shift in range(n):
                    seats = table[shift:] + table[:shift]
                    tasks.append(GameTask(game_id, n, deal_seed, seats))
                    game_id += 1
    return tasks


@lru_cache(maxsize=32)
def _cached_agent(spec: str):
    return make_agent(spec)


def run_task(task: GameTask, setup: dict) -> dict:
    """Play one scheduled game (in a worker): fresh agents seeded from the game, PPO models cached."""
    agents = []
    for i, spec in enumerate(task.seats):
        kind, _ = parse_spec(spec)
        agent = _cached_agent(spec) if kind == "ppo" else make_agent(spec, seed=task.seed * 31 + i)
        agents.append(agent)
    result = play_game(task.game_id, task.seed, list(task.seats), agents, **setup)
    return asdict(result)


def _result_row(r: dict) -> dict:
    row = {"game_id": r["game_id"], "num_players": r["num_players"], "seed": r["seed"], "decisions": r["decisions"],
           "winners": " ".join(str(w) for w in r["winners"])}
    for i in range(5):
        row[f"seat{i}"] = r["seats"][i] if i < r["num_players"] else ""
        row[f"gold{i}"] = r["gold"][i] if i < r["num_players"] else ""
        row[f"place{i}"] = r["places"][i] if i < r["num_players"] else ""
        row[f"sec_per_decision{i}"] = round(r["seconds_per_decision"][i], 6) if i < r["num_players"] else ""
    return row


def _row_result(row: dict) -> dict:
    n = int(row["num_players"])
    return {
        "game_id": int(row["game_id"]), "num_players": n, "seed": int(row["seed"]),
        "seats": [row[f"seat{i}"] for i in range(n)], "gold": [int(row[f"gold{i}"]) for i in range(n)],
        "places": [float(row[f"place{i}"]) for i in range(n)],
        "winners": [int(w) for w in row["winners"].split()], "decisions": int(row["decisions"]),
        "seconds_per_decision": [float(row[f"sec_per_decision{i}"]) for i in range(n)],
    }


CSV_FIELDS = list(_result_row({"game_id": 0, "num_players": 0, "seed": 0, "decisions": 0, "winners": [],
                               "seats": [], "gold": [], "places": [], "seconds_per_decision": []}))


def load_results(out_dir: str) -> list[dict]:
    path = os.path.join(out_dir, GAMES_CSV)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [_row_result(row) for row in csv.DictReader(f)]


def _execute(tasks: list[GameTask], setup: dict, workers: int, backend: str) -> Iterable[dict]:
    if backend == "ray":
        import ray

        if not ray.is_initialized():
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        remote = ray.remote(run_task)
        pending = [remote.remote(t, setup) for t in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    elif workers <= 1:
        for t in tasks:
            yield run_task(t, setup)
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_task, t, setup) for t in tasks]
            for fut in as_completed(futures):
                yield fut.result()


def run_tournament(
    agents: list[str],
    player_counts: list[int],
    games: int,
    seed: int = 0,
    out_dir: str = "results",
    workers: int = 1,
    backend: str = "process",
    setup: dict | None = None,
    progress: bool = True,
    on_result: Callable[[dict], None] | None = None,
    field: bool = False,
) -> dict:
    """Run (or resume) a tournament and write its files; returns the summary.

    `field=True` seats the first agent alone against the others (see `tables_for`).
    """
    for spec in agents:
        parse_spec(spec)
    if len(set(agents)) != len(agents):
        raise ValueError("agents: each agent spec may appear once")
    if backend not in ("process", "ray"):
        raise ValueError(f"backend: expected 'process' or 'ray', got {backend!r}")
    setup = setup or {}
    os.makedirs(out_dir, exist_ok=True)
    tasks = schedule(agents, player_counts, games, seed, field)
    done_ids = {r["game_id"] for r in load_results(out_dir)}
    todo = [t for t in tasks if t.game_id not in done_ids]
    csv_path = os.path.join(out_dir, GAMES_CSV)
    new_file = not os.path.exists(csv_path)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc="tournament", unit="game")
    with open(csv_path, "a", newline="") as fcsv, open(os.path.join(out_dir, RECORDS), "a") as frec:
        writer = csv.DictWriter(fcsv, fieldnames=CSV_FIELDS)
        if new_file:
            writer.writeheader()
        for result in _execute(todo, setup, workers, backend):
            writer.writerow(_result_row(result))
            frec.write(json.dumps({"game_id": result["game_id"], "record": result["record"]}) + "\n")
            fcsv.flush()
            frec.flush()
            if bar:
                bar.update(1)
            if on_result:
                on_result(result)
    if bar:
        bar.close()
    scheduled = {t.game_id for t in tasks}
    results = [r for r in load_results(out_dir) if r["game_id"] in scheduled]
    summary = summarize(results, agents, player_counts)
    summary["config"] = {"agents": agents, "players": player_counts, "games": games, "seed": seed,
                         "workers": workers, "backend": backend, "setup": setup, "field": field}
    with open(os.path.join(out_dir, SUMMARY), "w") as f:
        json.dump(summary, f, indent=2)
    write_tables(summary, out_dir)
    plot_summary(summary, out_dir)
    return summary


def summarize(results: list[dict], agents: list[str], player_counts: list[int]) -> dict:
    summary = {"games": len(results), "overall": {"ratings": rate(results, agents)}, "by_players": {}}
    for n in player_counts:
        games_n = [r for r in results if r["num_players"] == n]
        summary["by_players"][str(n)] = {
            "games": len(games_n),
            "ratings": rate(games_n, agents),
            "seats": seat_stats(games_n, agents),
            "head_to_head": head_to_head(games_n, agents),
        }
    return summary


def write_tables(summary: dict, out_dir: str) -> None:
    with open(os.path.join(out_dir, "ratings.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["players", "agent", "mu", "sigma", "ordinal", "seats", "win_share", "ci95_low", "ci95_high",
                    "fair_share", "mean_gold"])
        for n, block in summary["by_players"].items():
            for agent, r in block["ratings"].items():
                s = block["seats"].get(agent, {})
                ci = s.get("win_share_ci95", ["", ""])
                w.writerow([n, agent, round(r["mu"], 3), round(r["sigma"], 3), round(r["ordinal"], 3),
                            s.get("seats", 0), s.get("win_share", ""), ci[0], ci[1], s.get("fair_share", ""),
                            s.get("mean_gold", "")])


def table_text(summary: dict) -> str:
    lines = []
    for n, block in summary["by_players"].items():
        lines.append(f"{n} players, {block['games']} games")
        lines.append(f"  {'agent':<34}{'rating':>9}{'+-':>7}{'win share':>11}{'95% CI':>16}{'fair':>7}{'gold':>7}")
        order = sorted(block["ratings"], key=lambda a: -block["ratings"][a]["ordinal"])
        for a in order:
            r, s = block["ratings"][a], block["seats"].get(a, {})
            if not s.get("seats"):
                continue
            ci = s["win_share_ci95"]
            lines.append(f"  {a:<34}{r['mu']:>9.2f}{2 * r['sigma']:>7.2f}{s['win_share']:>11.3f}"
                         f"{f'[{ci[0]:.3f}, {ci[1]:.3f}]':>16}{s['fair_share']:>7.3f}{s['mean_gold']:>7.1f}")
    return "\n".join(lines)


def plot_summary(summary: dict, out_dir: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = summary["by_players"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / max(1, len(blocks))
    agents = list(summary["overall"]["ratings"])
    for k, (n, block) in enumerate(blocks.items()):
        xs = [i + k * width for i in range(len(agents))]
        mus = [block["ratings"][a]["mu"] for a in agents]
        errs = [2 * block["ratings"][a]["sigma"] for a in agents]
        axes[0].bar(xs, mus, width, yerr=errs, capsize=3, label=f"{n} players")
        stats = [block["seats"].get(a, {}) for a in agents]
        shares = [s.get("win_share", 0.0) for s in stats]
        cis = [s.get("win_share_ci95", [v, v]) for s, v in zip(stats, shares, strict=True)]
        lows = [v - ci[0] for v, ci in zip(shares, cis, strict=True)]
        highs = [ci[1] - v for v, ci in zip(shares, cis, strict=True)]
        axes[1].bar(xs, shares, width, yerr=[lows, highs], capsize=3, label=f"{n} players")
        axes[1].axhline(1 / int(n), linestyle="--", color=f"C{k}", linewidth=1)
    titles = ("openskill rating (mu, bars = 2 sigma)", "win share (95% CI; dashed = fair)")
    for ax, title in zip(axes, titles, strict=True):
        ax.set_xticks([i + width * (len(blocks) - 1) / 2 for i in range(len(agents))])
        ax.set_xticklabels(agents, rotation=15, fontsize=8)
        ax.set_title(title)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "ratings.png"), dpi=110)
    plt.close(fig)


def task_seats(tasks: list[GameTask]) -> dict[tuple[str, int], int]:
    """How often each agent sits in each seat (for checks of the rotation)."""
    counts: dict[tuple[str, int], int] = {}
    for t in tasks:
        for seat, spec in enumerate(t.seats):
            counts[spec, seat] = counts.get((spec, seat), 0) + 1
    return counts
