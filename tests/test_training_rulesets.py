"""Training on a ruleset (issue 12): config fields, network shapes from the spaces, imitation, a tiny Nomads run
whose model plays whole Nomads games (and base games) through the tournament code."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.training.config import TrainConfig
from agents.training.imitation import imitation_batches
from agents.training.networks import BOARD_PLANES, SCALAR_PLANES, KingdomBuilderExtractor
from agents.training.training import evaluate, make_env, make_model, train
from kbenv.catalogue import ACTION_SIZE_V0, ACTION_SIZE_V1
from kbenv.engine.observe_v1 import NUM_CHANNELS_V1
from kbenv.observation import OBSERVATION_SHAPE, observation_space_v1

from .game_checks import Recording, assert_a_finished_game
from .test_training import ROOT

NOMADS = ["nomads", "capitol", "caves"]
TINY_NOMADS = {
    "name": "tiny_nomads", "players": [2], "expansions": NOMADS, "total_timesteps": 128, "n_envs": 4, "n_steps": 32,
    "batch_size": 64, "n_epochs": 1, "channels": 8, "blocks": 1, "head_channels": 2, "vf_layers": [16],
    "opponents": ["random", "greedy"], "checkpoint_every": 0, "eval_every": 0, "eval_games": 2,
    "eval_opponents": ["greedy"], "device": "cpu", "imitation_samples": 200, "guide_coef": 1.0,
}


# ----- configuration ------------------------------------------------------------------------------------
def test_ruleset_fields_default_to_the_base_game():
    config = TrainConfig.from_dict({})
    assert config.expansions == [] and config.rules == [] and config.ruleset() == {}
    both = TrainConfig.from_dict({"expansions": ["nomads", "capitol"], "rules": ["capitol_replaces_castle"]})
    assert both.ruleset() == {"expansions": ["nomads", "capitol"], "rules": ["capitol_replaces_castle"]}
    assert TrainConfig.from_dict({"rules": ["lords_count_zero"]}).ruleset() == {"rules": ["lords_count_zero"]}


def test_quick_nomads_config_loads():
    config = TrainConfig.load(ROOT / "configs" / "quick_nomads.yaml")
    assert config.name == "quick_nomads" and config.expansions == NOMADS
    assert config.hints == "none" and config.teacher == "greedy" and config.imitation_samples > 0


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [({"expansions": ["atlantis"]}, "expansions", "nomads, capitol, caves"),
     ({"expansions": "nomads"}, "expansions", "a list"),
     ({"expansions": ["nomads", "nomads"]}, "expansions", "distinct"),
     ({"rules": ["no_such_flag"]}, "rules", "lords_count_zero"),
     ({"rules": ["lords_count_zero", "lords_count_zero"]}, "rules", "distinct"),
     ({"rules": ["capitol_replaces_castle"]}, "rules", "needs the 'capitol' expansion"),
     ({"expansions": ["nomads"], "rules": ["caves_are_plain_mountain"]}, "rules", "needs the 'caves' expansion"),
     ({"expansions": ["nomads"], "hints": "greedy"}, "hints", "base game only"),
     ({"rules": ["lords_count_zero"], "hints": "lookahead"}, "hints", "base game only")],
)
def test_bad_ruleset_fields_are_named(change, field, words):
    with pytest.raises(ValueError, match=f"field '{field}'") as err:
        TrainConfig.from_dict({**TINY_NOMADS, "expansions": [], **change})
    assert words in str(err.value)


# ----- network shapes follow the spaces -------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", [{}, {"expansions": NOMADS}, {"rules": ["lords_count_zero"]}])
def test_network_input_and_action_head_follow_the_env_spaces(tmp_path, ruleset):
    config = TrainConfig.from_dict({**TINY_NOMADS, "expansions": [], **ruleset})
    env = make_env(config, 0)
    model = make_model(config, env, tmp_path, "cpu")
    channels, actions = env.observation_space.shape[0], env.action_space.n
    v1 = bool(ruleset.get("expansions"))  # base rule flags (lords_count_zero) keep the v0 layout
    assert (channels, actions) == ((NUM_CHANNELS_V1, ACTION_SIZE_V1) if v1 else (28, ACTION_SIZE_V0))
    extractor = model.policy.features_extractor
    features = 2 if v1 else 1  # v1 has a second packed features plane
    assert extractor.stem[0].in_channels == channels - features + SCALAR_PLANES + BOARD_PLANES
    assert model.policy.action_net.other.out_features == actions - 400
    kwargs = model.policy_kwargs["features_extractor_kwargs"]
    assert (kwargs["expansions"], kwargs["rules"]) == (config.expansions, config.rules)
    obs = torch.as_tensor(env.reset())
    logits = model.policy.action_net(model.policy.mlp_extractor.forward_actor(model.policy.extract_features(obs)))
    assert logits.shape == (4, actions)


def test_extractor_refuses_a_ruleset_or_hints_on_the_wrong_observation_space():
    v0 = spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32)
    with pytest.raises(ValueError, match="expansions"):
        KingdomBuilderExtractor(v0, expansions=["nomads"])
    with pytest.raises(ValueError, match="hints"):
        KingdomBuilderExtractor(observation_space_v1(), hints="greedy")


# ----- imitation and evaluation in the ruleset ------------------------------------------------------------
def test_imitation_batches_play_the_ruleset():
    total = 0
    for obs, masks, labels, _outcomes, values in imitation_batches(2, [2, 3], samples=150, random_share=0.3, seed=1,
                                                                  expansions=NOMADS):
        assert obs.shape[1:] == (NUM_CHANNELS_V1, 20, 20) and masks.shape[1] == ACTION_SIZE_V1
        assert (labels <= masks).all() and labels.any(axis=1).all()
        assert (np.isfinite(values) == masks.astype(bool)).all()
        total += len(obs)
    assert total >= 150


def test_evaluation_passes_the_ruleset_only_when_there_is_one(tmp_path, monkeypatch):
    import agents.evaluation.tournament

    calls = []

    def fake_tournament(agents, players, **kwargs):
        calls.append(kwargs["setup"])
        seat = {"win_share": 0.5, "win_share_ci95": [0.0, 1.0], "mean_gold": 1.0}
        return {"by_players": {"2": {"seats": {agents[0]: seat}, "ratings": {agents[0]: {"mu": 25.0}}}}}

    monkeypatch.setattr(agents.evaluation.tournament, "run_tournament", fake_tournament)
    for change in ({"expansions": []}, {"expansions": ["caves"]}, {"expansions": [], "rules": ["lords_count_zero"]}):
        evaluate("model.zip", TrainConfig.from_dict({**TINY_NOMADS, **change}), tmp_path, seed=0)
    assert calls == [None, {"expansions": ["caves"]}, {"rules": ["lords_count_zero"]}]


# ----- a tiny Nomads run, then its model plays --------------------------------------------------------------
def test_a_tiny_nomads_run_gives_a_model_that_plays_nomads_games(tmp_path):
    from agents import make_agent
    from agents.evaluation.play import play_game
    from agents.evaluation.tournament import run_tournament
    from kbenv import Game
    from kbenv.game.view import PlayerView

    config = TrainConfig.from_dict({**TINY_NOMADS, "out_dir": str(tmp_path)})
    card = train(config, progress=False, log=lambda *_: None)
    run = tmp_path / "tiny_nomads"
    saved = json.loads((run / "model_card.json").read_text())
    assert saved["ruleset"] == {"expansions": NOMADS, "rules": []} and saved["timesteps"] == 128
    assert "nomads, capitol, caves" in (run / "model_card.md").read_text()
    assert 200 <= card["imitation"]["samples"] < 2000  # a few hundred decisions, not 64 whole games
    [result] = card["evaluation"]
    assert result["opponent"] == "greedy" and 0.0 <= result["win_share"] <= 1.0
    identity = json.loads((run / "eval" / "step_128" / "vs_greedy" / "tournament.json").read_text())
    assert identity["setup"] == {"expansions": NOMADS}  # the evaluation games were Nomads games

    agent = make_agent(f"ppo:path={run / 'model.zip'}", seed=1)
    assert agent.ruleset == {"expansions": NOMADS, "rules": []}
    assert agent.model.observation_space.shape == (NUM_CHANNELS_V1, 20, 20) and agent.action_size == ACTION_SIZE_V1

    # A whole Nomads game against greedy (every decision checked by the engine).
    player = Recording(agent)
    game = play_game(0, 7, ["ppo", "greedy"], [player, make_agent("greedy", seed=2)], expansions=NOMADS)
    player.assert_all_legal(at_least=20)
    assert_a_finished_game(game, NOMADS)

    # The same through a tournament, seats rotated.
    summary = run_tournament([agent.name, "greedy"], [2], games=2, seed=3, out_dir=str(tmp_path / "t"),
                             setup={"expansions": NOMADS}, progress=False)
    assert summary["games"] == 2 and summary["by_players"]["2"]["seats"][agent.name]["seats"] == 2

    # Given v0 planes and the 409-action prefix mask, the agent builds its inputs from the view instead.
    nomads = Game.new(2, seed=4, expansions=NOMADS)
    view = PlayerView(nomads, nomads.decider)
    action = agent.act(view.observation(), view.legal_mask()[:ACTION_SIZE_V0], view)
    assert view.legal_mask()[action]
    # A v1 network can play base games too (v0 ids are the prefix of v1), but only when told to: the base
    # game is not the ruleset it was trained for (agents.rulesets).
    with pytest.raises(ValueError, match="trained for nomads\\+capitol\\+caves; this game is base game"):
        play_game(1, 8, ["ppo", "greedy"], [agent, make_agent("greedy", seed=3)])
    outside = make_agent(f"ppo:path={run / 'model.zip'},outside_training=1", seed=1)
    with pytest.warns(UserWarning, match="outside its training"):
        base = play_game(1, 8, ["ppo", "greedy"], [outside, make_agent("greedy", seed=3)])
    assert_a_finished_game(base)

    # Resuming this run with another ruleset (same observation shapes) is refused, naming the field.
    other = TrainConfig.from_dict({**TINY_NOMADS, "out_dir": str(tmp_path), "expansions": ["nomads"],
                                   "total_timesteps": 256})
    with pytest.raises(ValueError, match="field 'expansions'"):
        train(other, resume=True, progress=False, log=lambda *_: None)


def test_a_base_game_network_refuses_an_expansion_game(tmp_path):
    from agents.ppo import PPOAgent
    from kbenv import Game
    from kbenv.game.view import PlayerView

    config = TrainConfig.from_dict({**TINY_NOMADS, "expansions": []})
    make_model(config, make_env(config, 0), tmp_path, "cpu").save(tmp_path / "base.zip")
    agent = PPOAgent(str(tmp_path / "base.zip"))
    assert agent.ruleset == {"expansions": [], "rules": []} and agent.action_size == ACTION_SIZE_V0
    game = Game.new(2, seed=1, expansions=NOMADS)
    view = PlayerView(game, game.decider)
    with pytest.raises(ValueError, match="trained on the base game"):
        agent.act(view.observation_v1(), view.legal_mask(), view)


def test_an_expansion_under_construction_is_refused_naming_the_field(an_expansion_under_construction):
    with pytest.raises(ValueError, match="field 'expansions'") as err:
        TrainConfig.from_dict({**TINY_NOMADS, "expansions": [an_expansion_under_construction]})
    assert "not implemented yet" in str(err.value) and "nomads, capitol, caves" in str(err.value)
