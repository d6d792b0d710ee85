"""Models and rulesets (issue 19, item 9): every model card states the rulesets its model was trained
for; a trained agent asked to play another ruleset refuses with ModelRulesetError (naming the model, its
rulesets and the game's), unless its spec says outside_training=1, which plays and says so; a base (v0)
network cannot play expansions even then; tournaments fail before any game."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import torch

from agents import make_agent
from agents.alphazero.network import PolicyValueNet, save_network
from agents.az import MODELS, shipped_models
from agents.evaluation.play import agent_inputs, play_game
from agents.evaluation.tournament import run_tournament
from agents.rulesets import ModelRulesetError, OutsideTrainingWarning, Ruleset
from kbenv.cli import main
from kbenv.game import Game

NOMADS_CAPITOL_CAVES = ["nomads", "capitol", "caves"]
# What the shipped models were trained on (docs/training.md): the base game, Nomads + Capitol + Caves, Crossroads.
TRAINED_ON = {"2p": {"expansions": [], "rules": []}, "4p": {"expansions": [], "rules": []},
              "2p-selfplay": {"expansions": [], "rules": []}, "4p-selfplay": {"expansions": [], "rules": []},
              "2p-lookahead-430k": {"expansions": [], "rules": []},
              "2p-lookahead-860k": {"expansions": [], "rules": []},
              "nomads-2p": {"expansions": NOMADS_CAPITOL_CAVES, "rules": []},
              "nomads-2p-selfplay": {"expansions": NOMADS_CAPITOL_CAVES, "rules": []},
              "crossroads-2p": {"expansions": ["crossroads"], "rules": []}}


@pytest.mark.parametrize("name", sorted(shipped_models()))
def test_every_shipped_card_states_its_rulesets(name):
    model_file = shipped_models()[name]
    stem = model_file.removesuffix(".pt")
    card = json.loads((MODELS / f"{stem}.json").read_text())
    assert card["rulesets"] == [TRAINED_ON[name]]
    # the cards written before the field existed say where it was inferred from; scripts/ship_model.py's since
    assert card["rulesets_source"].startswith("recorded" if card.get("play") else "inferred")
    saved = torch.load(MODELS / model_file, weights_only=False)["card"]["ruleset"]
    assert Ruleset.from_dict(saved) == Ruleset.from_dict(TRAINED_ON[name])  # the card agrees with the file
    text = (MODELS / f"{stem}.md").read_text()
    expected = "+".join(TRAINED_ON[name]["expansions"]) or "base game"
    assert f"- trained for (rulesets): {expected} ({card['rulesets_source'][:8]}" in text


@pytest.mark.parametrize("model,blind", [("nomads-2p-selfplay", True), ("nomads-2p", False)])
def test_the_nomads_models_refuse_crossroads_naming_both_rulesets(model, blind):
    """Both refuse; the self-play network was made before the Crossroads planes joined observation v1, the
    imitation network's has all of v1's, so only the first is said to be blind to the Crossroads pieces."""
    agent = make_agent(f"trained:{model},sims=2", seed=0)
    with pytest.raises(ModelRulesetError) as err:
        play_game(0, 1, ["nomads", "random"], [agent, make_agent("random", seed=1)], expansions=["crossroads"])
    message = str(err.value)
    assert message.startswith(f"trained:{model},sims=2 was trained for nomads+capitol+caves; this game is crossroads")
    assert ("cannot see the crossroads pieces" in message) == blind and "outside_training=1" in message


def test_the_nomads_model_refuses_other_rulesets_at_its_first_decision():
    agent = make_agent("trained:nomads-2p,sims=2", seed=0)
    for ruleset in ({}, {"expansions": ["nomads"]}):  # the base game; Nomads without Capitol and Caves
        game = Game.new(2, seed=2, **ruleset)
        with pytest.raises(ModelRulesetError, match="was trained for nomads\\+capitol\\+caves"):
            agent.act(*agent_inputs(game, game.decider))
    game = Game.new(2, seed=2, expansions=["caves", "nomads", "capitol"])  # the same ruleset, in any order
    assert game.legal_mask()[agent.act(*agent_inputs(game, game.decider))]


def test_outside_training_plays_and_says_so():
    agent = make_agent("trained:nomads-2p-selfplay,sims=2,outside_training=1", seed=0)
    game = Game.new(2, seed=3, expansions=["crossroads"])
    with pytest.warns(OutsideTrainingWarning, match="cannot see the crossroads pieces.*outside its training"):
        action = agent.act(*agent_inputs(game, game.decider))
    assert game.legal_mask()[action]


def test_a_base_network_refuses_expansions_even_with_the_option():
    for spec in ("trained:2p,sims=2", "trained:2p,sims=2,outside_training=1"):
        agent = make_agent(spec, seed=0)
        game = Game.new(2, seed=1, expansions=["nomads"])
        with pytest.raises(ModelRulesetError, match="was trained for base game; this game is nomads.*not even with"):
            agent.act(*agent_inputs(game, game.decider))


def test_a_base_network_needs_the_option_for_another_rule_reading():
    game = Game.new(2, seed=1, lords_count_zero=True)
    with pytest.raises(ModelRulesetError, match="this game is base game with rules lords_count_zero"):
        make_agent("trained:2p,sims=2", seed=0).act(*agent_inputs(game, game.decider))
    with pytest.warns(OutsideTrainingWarning):
        make_agent("trained:2p,sims=2,outside_training=1", seed=0).act(*agent_inputs(game, game.decider))


def test_its_own_ruleset_is_played_without_a_word():
    game = Game.new(2, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        action = make_agent("trained:2p,sims=2", seed=0).act(*agent_inputs(game, game.decider))
    assert game.legal_mask()[action]


def test_old_files_without_a_ruleset_are_read_from_their_network(tmp_path):
    torch.manual_seed(0)
    v0, v1 = tmp_path / "v0.pt", tmp_path / "v1.pt"
    save_network(PolicyValueNet(channels=8, blocks=1, head_channels=2), v0)
    save_network(PolicyValueNet(v1=True, channels=8, blocks=1, head_channels=2), v1)
    old = make_agent(f"aznet:path={v0}", seed=0)
    assert old.trained_for.rulesets == (Ruleset(),) and old.trained_for.source.startswith("inferred")
    unknown = make_agent(f"aznet:path={v1}", seed=0)
    assert unknown.trained_for.rulesets == () and unknown.trained_for.source.startswith("unknown")
    game = Game.new(2, seed=1, expansions=["nomads"])
    with pytest.raises(ModelRulesetError, match="was trained for an unknown ruleset; this game is nomads"):
        unknown.act(*agent_inputs(game, game.decider))


def test_a_tournament_fails_before_any_game(tmp_path):
    out = tmp_path / "t"
    with pytest.raises(ModelRulesetError, match="trained:nomads-2p was trained for nomads\\+capitol\\+caves; "
                                                "this game is crossroads"):
        run_tournament(["trained:nomads-2p", "random"], [2], games=2, out_dir=str(out),
                       setup={"expansions": ["crossroads"]}, progress=False)
    assert not out.exists()  # not a single game, not even the folder


def test_kbenv_names_the_error_and_plays_no_game(tmp_path, capsys):
    out = tmp_path / "t"
    code = main(["tournament", "--agents", "trained:nomads-2p", "random", "--expansions", "crossroads",
                 "--games", "2", "--out", str(out), "--quiet"])
    assert code == 2 and not out.exists()
    assert capsys.readouterr().err.startswith(
        "kbenv tournament: error: ModelRulesetError: trained:nomads-2p was trained for nomads+capitol+caves; "
        "this game is crossroads")
    assert main(["play", "--players", "2", "--agents", "trained:2p", "--expansions", "nomads"]) == 2
    assert "error: ModelRulesetError: trained:2p was trained for base game" in capsys.readouterr().err


def test_a_tournament_outside_training_says_so(tmp_path, capsys):
    spec = "trained:nomads-2p,sims=1,outside_training=1"
    with pytest.warns(OutsideTrainingWarning):
        summary = run_tournament([spec, "random"], [2], games=2, out_dir=str(tmp_path / "t"),
                                 setup={"expansions": ["crossroads"]}, progress=False)
    note = summary["config"]["outside_training"][spec]
    assert "this game is crossroads" in note and "outside its training" in note
    stored = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert stored["config"]["outside_training"] == {spec: note}
    assert np.isclose(sum(s["win_share"] for s in summary["by_players"]["2"]["seats"].values()), 1.0)


SEVEN = ["nomads", "capitol", "caves", "crossroads", "marshlands", "harvest", "island"]


def test_a_network_trained_on_drawn_rulesets_plays_every_subset_of_them(tmp_path):
    # a run with ruleset_rotation's `random` entry drew each chunk's ruleset among the subsets of its expansions:
    # every subset with the default readings is within its training, another reading or expansion is not
    torch.manual_seed(0)
    path = tmp_path / "rotated.pt"
    card = {"ruleset": {"expansions": SEVEN[:4], "rules": []}, "ruleset_rotation": ["base", "all", "random"]}
    save_network(PolicyValueNet(v1=True, channels=8, blocks=1, head_channels=2), path, {"card": card})
    agent = make_agent(f"aznet:path={path}", seed=0)
    trained = agent.trained_for
    assert trained.subsets_of == Ruleset(SEVEN[:4])
    assert "any subset of nomads+capitol+caves+crossroads" in trained.text()
    for expansions in ([], ["crossroads"], ["capitol", "nomads"], SEVEN[:4]):
        assert trained.covers(Ruleset(expansions)), expansions
        game = Game.new(2, seed=3, expansions=expansions or None)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no OutsideTrainingWarning: the game is within its training
            action = agent.act(*agent_inputs(game, game.decider))
        assert game.legal_mask()[action]
    assert not trained.covers(Ruleset(["island"]))
    assert not trained.covers(Ruleset([], ["lords_count_zero"]))
    with pytest.raises(ModelRulesetError, match="any subset of nomads.capitol.caves.crossroads .the default readings.; "
                                                "this game is island"):
        agent.act(*agent_inputs(Game.new(2, seed=3, expansions=["island"]), 0))
    assert trained.card_fields()["rulesets_any_subset_of"] == {"expansions": SEVEN[:4], "rules": []}


def test_a_fixed_rotation_is_not_read_as_any_subset(tmp_path):
    path = tmp_path / "fixed.pt"
    card = {"ruleset": {"expansions": ["crossroads"], "rules": []}, "ruleset_rotation": ["base", "all"]}
    save_network(PolicyValueNet(v1=True, channels=8, blocks=1, head_channels=2), path, {"card": card})
    trained = make_agent(f"aznet:path={path}", seed=0).trained_for
    assert trained.subsets_of is None and trained.rulesets == (Ruleset(), Ruleset(["crossroads"]))
