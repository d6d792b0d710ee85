"""Engine throughput: random full-game playouts, next to PettingZoo connect_four_v3 random play.

Run: `python -m benchmarks.engine_speed [--games N] [--players P] [--out FILE.json]`.
Single core (numba threads pinned to 1).  Prints a table and writes JSON with ratios measured in
the same run, since absolute figures on shared machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from kbenv.engine.rng import seed_u32  # noqa: E402
from kbenv.game import Game  # noqa: E402
from kbenv.policies.playout import random_playout  # noqa: E402


def all_powers_board() -> list[str]:
    """The first-game board with its 8 location hexes relabelled so that all 8 powers are in play."""
    board = [list(row) for row in Game.new(2, seed=0, preset="first-game").board]
    letters = iter("ofawtbhp")
    for r in range(20):
        for c in range(20):
            if board[r][c].islower():
                board[r][c] = next(letters)
    return ["".join(row) for row in board]


def engine_playouts(num_games: int, num_players: int, seed: int = 0, board: list[str] | None = None) -> dict:
    """Decisions/s and games/s of random playouts in one numba call per game (set-up excluded)."""
    if board is None:
        starts = [Game.new(num_players, seed=seed + i).state for i in range(num_games)]
    else:
        starts = [
            Game.custom(board=board, num_players=num_players, seed=seed + i, start_player=0).state
            for i in range(num_games)
        ]
    rng = np.array([seed_u32(seed + 1)], dtype=np.int64)
    random_playout(starts[0].copy(), rng, 0, 10_000)  # compile / load from cache
    states = [s.copy() for s in starts]
    t0 = time.perf_counter()
    decisions = 0
    for st in states:
        decisions += random_playout(st, rng, 0, 100_000)
    elapsed = time.perf_counter() - t0
    return {
        "games": num_games,
        "players": num_players,
        "decisions": decisions,
        "seconds": elapsed,
        "decisions_per_s": decisions / elapsed,
        "games_per_s": num_games / elapsed,
        "decisions_per_game": decisions / num_games,
    }


def connect_four_random(num_games: int, seed: int = 0) -> dict:
    """Random masked play through PettingZoo connect_four_v3 raw_env, measured like the engine."""
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.raw_env()
    rng = np.random.default_rng(seed)
    decisions = 0
    t0 = time.perf_counter()
    for g in range(num_games):
        env.reset(seed=seed + g)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
            decisions += 1
    elapsed = time.perf_counter() - t0
    return {"games": num_games, "decisions": decisions, "seconds": elapsed,
            "decisions_per_s": decisions / elapsed, "games_per_s": num_games / elapsed}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--c4-games", type=int, default=300)
    parser.add_argument("--out", default="bench_results/engine_speed.json")
    args = parser.parse_args(argv)
    results = {"machine": {"cpu": platform.processor() or platform.machine(), "python": platform.python_version()}}
    for players in (2, 4):
        results[f"engine_{players}p"] = engine_playouts(args.games, players)
    results["engine_2p_all_8_powers"] = engine_playouts(args.games, 2, board=all_powers_board())
    results["connect_four_v3_raw_env"] = connect_four_random(args.c4_games)
    c4 = results["connect_four_v3_raw_env"]["decisions_per_s"]
    print(f"{'run':<26}{'decisions/s':>14}{'games/s':>12}{'x connect4':>12}")
    for key in ("engine_2p", "engine_4p", "engine_2p_all_8_powers", "connect_four_v3_raw_env"):
        r = results[key]
        print(f"{key:<26}{r['decisions_per_s']:>14,.0f}{r['games_per_s']:>12,.0f}{r['decisions_per_s'] / c4:>12.1f}")
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {args.out}")
    return results


if __name__ == "__main__":
    main()
