"""Write the golden records of the base game: tests/data/golden_base.json.gz.

Run once, before any refactor of the engine; tests/test_golden_records.py then replays them after
every change: `python scripts/make_golden_records.py` (refuses to overwrite without --force).

What is stored (record version 1):
- 200 games, 2 to 5 players, half random and half greedy play (25 of each per player count). Each
  has its record (set-up and decisions), final scores, and at every 10th decision the legal actions and a
  digest of every seat's observation (with greedy hint planes for the player to move). Greedy games also
  store the agents' seeds, so the policy itself is checked: re-running it gives the same decisions.
- The batch engine: fused random steps of 8 games until 8 games have ended, with their records.
- The AEC env: the decisions of 4 seeded games and a digest of every observation.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the checkout's agents/ (kbenv.bundled), when run as `python scripts/...`
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents import make_agent  # noqa: E402
from kbenv import Game, raw_env  # noqa: E402
from kbenv.game.view import PlayerView  # noqa: E402
from kbenv.observation import action_mask, observation_planes  # noqa: E402
from kbenv.vector import VectorGames  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden_base.json.gz"
SAMPLE_EVERY = 10
GAMES_PER_KIND = 25


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:20]


def sample(game: Game) -> dict:
    """The legal actions and every seat's observation digest (the mover's with greedy hints too)."""
    mover = game.current_player
    return {
        "decision": len(game.actions),
        "legal": game.legal_actions(),
        "observations": [digest(observation_planes(game.state, p)) for p in range(game.num_players)],
        "hinted": digest(observation_planes(game.state, mover, "greedy")),
    }


def play(num_players: int, seed: int, policy: str) -> dict:
    game = Game.new(num_players, seed=seed)
    agents = [make_agent(policy, seed=seed * 10 + p) for p in range(num_players)]
    samples = []
    while not game.done:
        if len(game.actions) % SAMPLE_EVERY == 0:
            samples.append(sample(game))
        p = game.current_player
        game.step(agents[p].act(observation_planes(game.state, p), action_mask(game.state, p), PlayerView(game, p)))
    return {"policy": policy, "agent_seeds": [seed * 10 + p for p in range(num_players)],
            "record": game.to_record(), "scores": game.scores(), "samples": samples}


def batch_section() -> dict:
    v = VectorGames(8, num_players=[2, 3, 4, 5] * 2, record=True)
    v.reset(500)
    records, steps = [], 0
    while len(records) < 8:
        _, result, _ = v.step_random()
        records += result.records
        steps += 1
    return {"num_games": 8, "num_players": [2, 3, 4, 5] * 2, "base_seed": 500, "steps": steps,
            "records": records[:8]}


def env_section() -> list[dict]:
    out = []
    for k, n in enumerate((2, 3, 4, 5)):
        e = raw_env(num_players=n)
        e.reset(seed=900 + k)
        rng = np.random.default_rng(k)
        actions, digests = [], []
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            digests.append(digest(obs["observation"]))
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(action)
            e.step(action)
        out.append({"num_players": n, "seed": 900 + k, "actions": actions, "observations": digests})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="overwrite an existing golden file")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the golden file")
    args = parser.parse_args(argv)
    if args.out.exists() and not args.force:
        print(f"{args.out} exists: golden records are written once (--force to overwrite)", file=sys.stderr)
        return 2
    games = []
    for n in (2, 3, 4, 5):
        for policy in ("random", "greedy"):
            for k in range(GAMES_PER_KIND):
                games.append(play(n, seed=1000 * n + k + (500 if policy == "greedy" else 0), policy=policy))
        print(f"{n} players: {len(games)} games", file=sys.stderr)
    golden = {"format": "kbenv-golden", "version": 1, "sample_every": SAMPLE_EVERY, "games": games,
              "batch": batch_section(), "env": env_section()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt") as f:
        json.dump(golden, f, separators=(",", ":"))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
