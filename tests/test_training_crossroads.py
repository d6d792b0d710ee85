"""Training and agents on Crossroads (issue 14): search self-play and PPO run on the ruleset and their
networks play whole Crossroads games; networks made before Crossroads (35 v1 channels) still load and play."""

from __future__ import annotations

import json

import pytest
import torch

from agents.alphazero.network import PolicyValueNet, load_network, save_network
from agents.rulesets import ModelRulesetError, OutsideTrainingWarning
from agents.training.alphazero import Run
from agents.training.config import TrainConfig
from agents.training.training import train
from kbenv.catalogue import ACTION_SIZE_V1
from kbenv.engine.observe_v1 import NUM_CHANNELS_V1, V1_BASE_CHANNELS

from .game_checks import Recording, assert_a_finished_game
from .test_alphazero import _tiny_config
from .test_training import ROOT
from .test_training_rulesets import TINY_NOMADS

CROSSROADS = ["crossroads"]


def test_search_self_play_runs_on_crossroads_and_its_network_plays(tmp_path):
    from agents import make_agent
    from agents.evaluation.play import play_game

    Run(_tiny_config(tmp_path, iterations=2, expansions=CROSSROADS), log=lambda *_: None).run(progress=False)
    net, info = load_network(tmp_path / "tiny" / "model.pt")
    assert net.config["v1"] and net.config["input_channels"] == NUM_CHANNELS_V1 and net.action_size == ACTION_SIZE_V1
    agent = Recording(make_agent(f"az:path={tmp_path / 'tiny' / 'model.pt'},sims=2", seed=1))
    game = play_game(0, 5, ["az", "greedy"], [agent, make_agent("greedy", seed=2)], expansions=CROSSROADS)
    agent.assert_all_legal(at_least=20)
    assert all(len(mask) == ACTION_SIZE_V1 for mask, _ in agent.choices)
    assert_a_finished_game(game, CROSSROADS)


def test_a_network_made_before_crossroads_reads_the_prefix_and_plays_crossroads(tmp_path):
    """A saved v1 config without input_channels (the shipped Nomads model's) is read as 35 channels."""
    from agents import make_agent
    from agents.evaluation.play import play_game

    net = PolicyValueNet(v1=True, channels=8, blocks=1, head_channels=2, input_channels=V1_BASE_CHANNELS)
    path = tmp_path / "old.pt"
    save_network(net, path)
    saved = __import__("torch").load(path, weights_only=False)
    del saved["config"]["input_channels"]  # as saved before Crossroads
    __import__("torch").save(saved, path)
    loaded, _ = load_network(path)
    assert loaded.config["input_channels"] == V1_BASE_CHANNELS
    for name, value in net.state_dict().items():  # the weights come back as saved
        assert torch.equal(loaded.state_dict()[name], value), name
    # It records no ruleset and cannot see the Crossroads pieces: it plays them only when told to, and says so.
    with pytest.raises(ModelRulesetError, match="cannot see the crossroads pieces"):
        play_game(0, 6, ["old", "random"], [make_agent(f"aznet:path={path}", seed=1), make_agent("random", seed=2)],
                  expansions=CROSSROADS)
    agent = Recording(make_agent(f"aznet:path={path},outside_training=1", seed=1))
    with pytest.warns(OutsideTrainingWarning, match="outside its training"):
        game = play_game(0, 6, ["old", "random"], [agent, make_agent("random", seed=2)], expansions=CROSSROADS)
    agent.assert_all_legal(at_least=20)
    assert_a_finished_game(game, CROSSROADS)


def test_a_tiny_ppo_run_on_crossroads_gives_a_model_that_plays(tmp_path):
    from agents import make_agent
    from agents.evaluation.play import play_game

    config = TrainConfig.from_dict({**TINY_NOMADS, "name": "tiny_crossroads", "expansions": CROSSROADS,
                                    "out_dir": str(tmp_path)})
    train(config, progress=False, log=lambda *_: None)
    run = tmp_path / "tiny_crossroads"
    assert json.loads((run / "model_card.json").read_text())["ruleset"] == {"expansions": CROSSROADS, "rules": []}
    agent = make_agent(f"ppo:path={run / 'model.zip'}", seed=1)
    assert agent.model.observation_space.shape == (NUM_CHANNELS_V1, 20, 20)
    player = Recording(agent)
    game = play_game(0, 7, ["ppo", "greedy"], [player, make_agent("greedy", seed=2)], expansions=CROSSROADS)
    player.assert_all_legal(at_least=20)
    assert_a_finished_game(game, CROSSROADS)


def test_the_crossroads_self_play_config_loads():
    from agents.training.az_config import AlphaZeroConfig

    config = AlphaZeroConfig.load(ROOT / "configs" / "selfplay_crossroads_2p.yaml")
    assert config.expansions == CROSSROADS and config.players == [2]
