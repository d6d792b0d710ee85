"""Marshlands through every interface (issue 21): `kbenv play/position/legal/score/tournament/train`, records,
the v1 AEC env (PettingZoo's api_test; agent_selection follows a Canoe reaction's decider), the gymnasium
self-play env, the VecEnv and OpenSpiel."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from kbenv import Game, kingdom_builder_v1
from kbenv import catalogue as CAT
from kbenv.board.codes import PALACE
from kbenv.board.geometry import NUM_HEXES, STEP1
from kbenv.cli import main
from kbenv.engine import state as S
from kbenv.engine.observe_v1 import NUM_CHANNELS_V1
from kbenv.position import decision_name
from tests.property_checks import assert_cli_legal_matches_the_game, assert_self_play_env_and_vecenv

MARSH = ["marshlands"]
SHAPE = (NUM_CHANNELS_V1, 20, 20)


@lru_cache(maxsize=1)
def _reaction_line() -> tuple[int, int, tuple[int, ...]]:
    """(players, seed, decisions) of the first seeded random 2-player game with a Canoe reaction, up to it."""
    for seed in range(200):
        g = Game.new(2, seed=seed, expansions=MARSH)
        rng = np.random.default_rng(seed)
        while not g.done:
            if g.decider != g.current_player:
                return 2, seed, tuple(g.actions)
            legal = g.legal_actions()
            g.step(legal[rng.integers(len(legal))])
    raise AssertionError("no Canoe reaction in 200 random games")


def reaction_game() -> tuple[Game, tuple[int, ...]]:
    """A game standing at a Canoe reaction (the reactor is not the turn owner), and the decisions to it."""
    players, seed, line = _reaction_line()
    g = Game.new(players, seed=seed, expansions=MARSH)
    for a in line:
        g.step(a)
    return g, line


def palace_gold(g: Game) -> list[int]:
    """M-6 (EN 1083): the player(s) with the most settlements next to a palace get 5 gold, ties 5 each."""
    st = g.state
    gold = [0] * g.num_players
    own = [{r * 20 + c for r, c in g.settlements(p)} for p in range(g.num_players)]
    for h in range(NUM_HEXES):
        if (st[S.TERRAIN_MASKS + PALACE * 7 + h // 60] >> (h % 60)) & 1:
            near = [sum(int(STEP1[h, d]) in own[p] for d in range(6) if STEP1[h, d] >= 0) for p in range(len(own))]
            if max(near) > 0:
                for p, k in enumerate(near):
                    gold[p] += 5 if k == max(near) else 0
    return gold


def test_play_record_position_legal_and_score(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert main(["play", "--players", "3", "--expansions", "marshlands", "--seed", "4", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "marshlands" in out and "Traceback" not in out
    data = json.loads(record.read_text())
    assert data["setup"]["expansions"] == MARSH
    replay = Game.from_record(data)  # records replay
    assert replay.done and replay.expansions == ("marshlands",)
    assert_cli_legal_matches_the_game(record, 25, tmp_path, capsys)  # legal --json mid-game
    # score --json of the final position: a palaces column, M-6's gold
    final = tmp_path / "final.json"
    assert main(["position", str(record), "--out", str(final)]) == 0
    capsys.readouterr()
    assert main(["score", str(final), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["players"]
    assert [row["palaces"] for row in rows] == palace_gold(replay)
    assert [row["total"] for row in rows] == [row["total"] for row in replay.scores()]


def test_tournament_with_marshlands(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["tournament", "--agents", "random", "greedy", "--expansions", "marshlands", "--games", "2",
                 "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["setup"]["expansions"] == MARSH
    assert "Traceback" not in capsys.readouterr().err


def test_v1_env_passes_the_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(kingdom_builder_v1.env(num_players=3, expansions=MARSH), num_cycles=300, verbose_progress=False)


def test_v1_env_plays_a_game_and_names_marshlands_decisions():
    e = kingdom_builder_v1.raw_env(num_players=2, expansions=MARSH)
    e.reset(seed=2)
    assert e.observation_space("player_0")["observation"].shape == SHAPE
    assert e.action_space("player_0").n == CAT.ACTION_SIZE_V1
    rng = np.random.default_rng(2)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        assert term or trunc or agent == f"player_{e.game.decider}"
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.game.done and "palaces" in e.game.scores()[0]
    assert CAT.ACTION_NAMES[CAT.ACTION_ID["canoe"]] == "canoe"
    assert decision_name(CAT.ACTION_ID["done"], "reaction") == "pass"


def test_env_agent_selection_follows_the_canoe_reactor():
    g, line = reaction_game()
    e = kingdom_builder_v1.raw_env(num_players=2, expansions=MARSH)
    e.reset(seed=0)
    e.game = Game.new(2, seed=g.setup.seed, expansions=MARSH)  # the same set-up as the found game
    e.agent_selection = e.possible_agents[e.game.decider]
    for a in line:
        e.step(a)
    assert e.game.phase == "reaction"
    reactor, owner = g.decider, g.current_player
    assert e.agent_selection == f"player_{reactor}" != f"player_{owner}"
    obs, _, _, _, _ = e.last()
    names = {decision_name(int(a), "reaction") for a in np.flatnonzero(obs["action_mask"])}
    assert names == {"canoe", "pass"}
    e.step(CAT.ACTION_ID["done"])  # pass: the turn owner decides again (the only other seat of 2)
    assert e.agent_selection == f"player_{e.game.decider}"


def test_gymnasium_self_play_env_and_vecenv():
    assert_self_play_env_and_vecenv(MARSH, SHAPE, vec_steps=150)


def test_openspiel_marshlands():
    pyspiel = pytest.importorskip("pyspiel")
    from kbenv.envs.openspiel import load_game

    game = load_game(2, MARSH)
    assert game.observation_tensor_shape() == list(SHAPE) and game.num_distinct_actions() == CAT.ACTION_SIZE_V1
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # swamp cards in the information state; a re-deal for ISMCTS keeps what the player saw
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    texts = set()
    while len(texts) < 60 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            continue
        texts.add(state.information_state_string(0))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert any("S/" in text for text in texts)  # a swamp card was seen by player 0 (5 of 30 cards)
    again = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.information_state_string(0) == state.information_state_string(0)


def test_train_one_iteration_on_marshlands(tmp_path, capsys):
    import yaml

    config = dict(method="alphazero", name="marsh", games=2, simulations=2, considered=2, channels=8, blocks=1,
                  head_channels=2, iterations=1, steps_per_iteration=20, train_batches=1, batch_size=8,
                  buffer_positions=500, min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"],
                  checkpoint_every=1, device="cpu", threads=1, seed=3, out_dir=str(tmp_path), expansions=MARSH)
    path = tmp_path / "marsh.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["train", "--config", str(path), "--quiet"]) == 0
    from agents.alphazero.network import load_network

    net, info = load_network(tmp_path / "marsh" / "model.pt")
    assert net.config["input_channels"] == NUM_CHANNELS_V1 and net.action_size == CAT.ACTION_SIZE_V1
    card = json.loads((tmp_path / "marsh" / "model_card.json").read_text())
    assert card["ruleset"]["expansions"] == MARSH and card["evaluation"][0]["games"] == 2
