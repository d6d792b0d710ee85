"""The soak: random games over every ruleset family, every decision checked (docs/soak.md).

Run: `python -m benchmarks.soak [--games N] [--rulesets base,all+flags] [--out FILE.json] [--max-minutes M]`.
Each ruleset plays N games (default 1,000,000): game g has seed `--seed` + g and 2 + g % 4 players. The table
(games, decisions, violations per ruleset) is printed and written to FILE.json and FILE.csv after every chunk;
run the same command again to go on where it stopped (the JSON is the progress). Each violation is written
with its ruleset, seed and player count; `--replay RULESET:SEED:PLAYERS` plays that game again, says where
it broke and writes its record (`--record FILE`) for `kbenv replay`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from kbenv.engine import state as S
from kbenv.game import Game
from kbenv.soak.families import families
from kbenv.soak.games import soak_game, soak_games
from kbenv.soak.invariants import INVARIANTS, OK
from kbenv.vector import forced_options

MAX_DECISIONS = 20_000  # far above any game (about 100-600 decisions): a game still running there is a violation
COLUMNS = ("ruleset", "expansions", "rules", "games", "decisions", "violations", "seconds")


def players_of(game: int) -> int:
    return 2 + game % 4


def forced_of(ruleset) -> np.ndarray:
    expansions, rules = ruleset.bits
    return forced_options(expansions=expansions, rules=rules)


def empty_row(name: str, ruleset) -> dict:
    return {"ruleset": name, "expansions": list(ruleset.expansions), "rules": list(ruleset.rules), "games": 0,
            "decisions": 0, "violations": 0, "seconds": 0.0, "found": []}


def load_progress(path: Path, names: list[str], rulesets: dict, seed: int) -> dict:
    """The rows so far (from the JSON of an earlier run with the same seed), one per ruleset asked for."""
    rows = {}
    if path.exists():
        old = json.loads(path.read_text())
        if old.get("seed") != seed:
            raise SystemExit(f"{path}: written with --seed {old.get('seed')}, not {seed}; choose another --out")
        rows = {row["ruleset"]: row for row in old["rows"]}
    return {name: rows.get(name) or empty_row(name, rulesets[name]) for name in names}


def save(path: Path, rows: dict, seed: int, target: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"seed": seed, "games_per_ruleset": target, "invariants": list(INVARIANTS[1:]),
            "rows": list(rows.values()),
            "total": {k: sum(r[k] for r in rows.values()) for k in ("games", "decisions", "violations")}}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)
    with path.with_suffix(".csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        for r in rows.values():
            writer.writerow([r["ruleset"], "+".join(r["expansions"]) or "-", "+".join(r["rules"]) or "-", r["games"],
                             r["decisions"], r["violations"], round(r["seconds"], 1)])


def soak_chunk(row: dict, ruleset, seed: int, count: int) -> None:
    """Soak the next `count` games of a ruleset, adding them to its row."""
    first = row["games"]
    games = np.arange(first, first + count, dtype=np.int64)
    seeds = seed + games
    players = 2 + games % 4
    codes = np.zeros(count, dtype=np.int64)
    decisions = np.zeros(count, dtype=np.int64)
    started = time.perf_counter()
    soak_games(seeds, players, forced_of(ruleset), MAX_DECISIONS, codes, decisions)
    row["seconds"] += time.perf_counter() - started
    row["games"] += count
    row["decisions"] += int(decisions.sum())
    for g in np.flatnonzero(codes != OK):
        row["violations"] += 1
        if len(row["found"]) < 100:
            row["found"].append({"seed": int(seeds[g]), "players": int(players[g]), "decision": int(decisions[g]),
                                 "invariant": INVARIANTS[int(codes[g])],
                                 "replay": f"{row['ruleset']}:{int(seeds[g])}:{int(players[g])}"})


def print_table(rows: dict) -> None:
    print(f"{'ruleset':18} {'games':>10} {'decisions':>13} {'violations':>10} {'games/s':>8}")
    for r in rows.values():
        rate = r["games"] / r["seconds"] if r["seconds"] else 0.0
        print(f"{r['ruleset']:18} {r['games']:>10,} {r['decisions']:>13,} {r['violations']:>10} {rate:>8,.0f}")


def replay(spec: str, record_path: str | None) -> int:
    """Play one soaked game again (RULESET:SEED:PLAYERS); print its result; write its record."""
    try:
        name, seed_text, players_text = spec.split(":")
        seed, players = int(seed_text), int(players_text)
        ruleset = families()[name]
    except (ValueError, KeyError):
        print(f"--replay: expected RULESET:SEED:PLAYERS with a ruleset of {', '.join(families())}, got {spec!r}",
              file=sys.stderr)
        return 2
    actions = np.zeros(MAX_DECISIONS, dtype=np.int64)
    st = np.zeros(S.STATE_SIZE, dtype=np.int64)
    code, n = soak_game(st, players, seed, forced_of(ruleset), MAX_DECISIONS, actions)
    print(f"{name}, seed {seed}, {players} players: {n} decisions, "
          + ("no violation" if code == OK else f"broke after decision {n}: {INVARIANTS[code]}"))
    if record_path:
        game = Game.new(players, seed=seed, ruleset=ruleset)
        for a in actions[:n]:
            game.step(int(a))
        Path(record_path).write_text(json.dumps(game.to_record()))
        print(f"record: {record_path} (kbenv replay {record_path})")
    return 0 if code == OK else 1


def main(argv: list[str] | None = None) -> int:
    names = list(families())
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games per ruleset (default 1,000,000)")
    parser.add_argument("--rulesets", default=",".join(names), help=f"comma-separated, of {', '.join(names)}")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0 (game g: seed + g)")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per numba call between saves")
    parser.add_argument("--out", default="benchmarks/results/soak.json", help="JSON table (and .csv beside it)")
    parser.add_argument("--max-minutes", type=float, default=None, help="stop after the chunk that passes this")
    parser.add_argument("--replay", metavar="RULESET:SEED:PLAYERS", help="play one game again")
    parser.add_argument("--record", help="with --replay: write the game's record here")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay, args.record)
    asked = [n for n in args.rulesets.split(",") if n]
    unknown = [n for n in asked if n not in names]
    if unknown or args.games < 1 or args.chunk < 1:
        print(f"--rulesets: unknown {', '.join(unknown)} (known: {', '.join(names)})" if unknown
              else "--games and --chunk: expected positive numbers", file=sys.stderr)
        return 2
    rulesets = families()
    out = Path(args.out)
    rows = load_progress(out, asked, rulesets, args.seed)
    deadline = time.monotonic() + 60 * args.max_minutes if args.max_minutes else None
    left = sum(max(0, args.games - r["games"]) for r in rows.values())
    with tqdm(total=left, unit="game", desc="soak", mininterval=30) as bar:
        for name, row in rows.items():
            while row["games"] < args.games:
                count = min(args.chunk, args.games - row["games"])
                bar.set_postfix_str(name)
                soak_chunk(row, rulesets[name], args.seed, count)
                bar.update(count)
                save(out, rows, args.seed, args.games)
                if deadline is not None and time.monotonic() > deadline:
                    print_table(rows)
                    print(f"stopped at --max-minutes; run the same command to go on ({out})")
                    return 0
    save(out, rows, args.seed, args.games)
    print_table(rows)
    total = sum(r["violations"] for r in rows.values())
    for r in rows.values():
        for v in r["found"][:3]:
            print(f"  {v['invariant']}: python -m benchmarks.soak --replay {v['replay']}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
