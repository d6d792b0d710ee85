"""Write the stored records that tests/test_input_validation.py replays: tests/data/replay_records.json.

Run once (`python scripts/make_replay_records.py`, refuses to overwrite without --force); the test then
checks that each record still replays to the stored final state digest and scores, and its hypothesis
suite corrupts the fields of the first (partial) record.

Stored, each with its record, the sha256 of `Game.state_key()` after the replay, `done` and the scores:
- base_2p_seed3_partial: 10 random decisions of a 2-player base game (the hypothesis tests' record);
- base_4p_seed11: a whole 4-player base game of random decisions;
- all_expansions_3p_seed5: a whole 3-player game with Nomads, Capitol, Caves and Crossroads.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from kbenv import Game

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "replay_records.json"
GAMES = {  # name: (players, seed, expansions, decisions; None = to the end)
    "base_2p_seed3_partial": (2, 3, None, 10),
    "base_4p_seed11": (4, 11, None, None),
    "all_expansions_3p_seed5": (3, 5, ["nomads", "capitol", "caves", "crossroads"], None),
}


def state_digest(game: Game) -> str:
    """sha256 of the game's state without scratch space."""
    return hashlib.sha256(game.state_key()).hexdigest()


def played(players: int, seed: int, expansions: list[str] | None, decisions: int | None) -> Game:
    """A game of uniformly random legal decisions (numpy generator seeded 0)."""
    game = Game.new(players, seed=seed, expansions=expansions)
    rng = np.random.default_rng(0)
    while not game.done and (decisions is None or len(game.actions) < decisions):
        game.step(int(rng.choice(game.legal_actions())))
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")
    args = parser.parse_args(argv)
    if OUT.exists() and not args.force:
        print(f"{OUT} exists: pass --force to overwrite", file=sys.stderr)
        return 1
    entries = {}
    for name, spec in GAMES.items():
        game = played(*spec)
        entries[name] = {"record": game.to_record(), "state_sha256": state_digest(game), "done": game.done,
                         "scores": game.scores()}
    OUT.write_text(json.dumps({"format": "kbenv-replay-records", "version": 1, "games": entries}) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
