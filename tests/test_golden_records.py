"""Golden records of the base game, written by scripts/make_golden_records.py at commit 7e29b07 (before
the hardening and the expansion platform): every later version must replay them bit for bit.

Checked: records replay to the stored final scores; legal actions and every seat's observation digest
at sampled decisions; the greedy agent, re-run with the stored seeds, makes the same decisions; the
batch engine's fused random steps give the same games; the AEC env gives the same observations.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from kbenv import Game, raw_env
from kbenv.game.view import PlayerView
from kbenv.observation import action_mask, observation_planes
from kbenv.vector import VectorGames

GOLDEN = Path(__file__).parent / "data" / "golden_base.json.gz"


@lru_cache(maxsize=1)
def golden() -> dict:
    with gzip.open(GOLDEN, "rt") as f:
        return json.load(f)


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:20]


def check_sample(game: Game, sample: dict) -> None:
    assert game.legal_actions() == sample["legal"], sample["decision"]
    seen = [digest(observation_planes(game.state, p)) for p in range(game.num_players)]
    assert seen == sample["observations"], sample["decision"]
    assert digest(observation_planes(game.state, game.current_player, "greedy")) == sample["hinted"]


def test_the_golden_file_covers_what_it_promises():
    data = golden()
    assert data["format"] == "kbenv-golden" and data["version"] == 1
    games = data["games"]
    assert len(games) >= 200
    kinds = {(g["record"]["setup"]["num_players"], g["policy"]) for g in games}
    assert kinds == {(n, p) for n in (2, 3, 4, 5) for p in ("random", "greedy")}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_golden_records_replay_bit_for_bit(players):
    for entry in golden()["games"]:
        record = entry["record"]
        if record["setup"]["num_players"] != players:
            continue
        samples = {s["decision"]: s for s in entry["samples"]}
        game = Game.new(players, seed=record["setup"]["seed"])
        for a in record["actions"]:
            if len(game.actions) in samples:
                check_sample(game, samples[len(game.actions)])
            game.step(a)
        assert game.done
        assert game.scores() == entry["scores"]
        assert Game.from_record(record).state_key() == game.state_key()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_agents_make_the_golden_decisions(players):
    for entry in golden()["games"]:
        record = entry["record"]
        if entry["policy"] != "greedy" or record["setup"]["num_players"] != players:
            continue
        game = Game.new(players, seed=record["setup"]["seed"])
        agents = [make_agent("greedy", seed=s) for s in entry["agent_seeds"]]
        for expected in record["actions"]:
            p = game.current_player
            chosen = agents[p].act(observation_planes(game.state, p), action_mask(game.state, p), PlayerView(game, p))
            assert chosen == expected, (record["setup"]["seed"], len(game.actions))
            game.step(chosen)


def test_batch_engine_gives_the_golden_games():
    part = golden()["batch"]
    v = VectorGames(part["num_games"], num_players=part["num_players"], record=True)
    v.reset(part["base_seed"])
    records = []
    for _ in range(part["steps"]):
        _, result, _ = v.step_random()
        records += result.records
    assert json.loads(json.dumps(records[: len(part["records"])])) == part["records"]  # tuples as JSON lists


def test_aec_env_gives_the_golden_observations():
    for part in golden()["env"]:
        e = raw_env(num_players=part["num_players"])
        e.reset(seed=part["seed"])
        actions = iter(part["actions"])
        digests = []
        for _agent in e.agent_iter():
            obs, _, _, _, _ = e.last()
            digests.append(digest(obs["observation"]))
            e.step(next(actions))
        assert digests == part["observations"]
