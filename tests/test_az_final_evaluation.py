"""The search agent in a run's evaluations (final_eval_simulations, eval_considered, eval_workers) and soft
imitation targets (imitation_temperature): configs, specs, the curve's rows and the warm start's loss."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.training.alphazero import Run, search_spec, seconds_per_decision
from agents.training.az_config import AlphaZeroConfig
from agents.training.imitation import soft_cross_entropy

from .test_alphazero import _tiny_config


def _tiny(tmp_path: Path, **over) -> AlphaZeroConfig:
    """test_alphazero's tiny run, shorter, evaluated every round."""
    fields = dict(iterations=2, steps_per_iteration=30, train_batches=1, eval_every=1, checkpoint_every=0, seed=4)
    return _tiny_config(tmp_path, **{**fields, **over})


def test_the_new_fields_default_to_the_old_evaluation(tmp_path):
    c = _tiny(tmp_path)
    assert (c.final_eval_simulations, c.eval_considered, c.eval_workers, c.imitation_temperature) == (None, 16, 1, 0)


@pytest.mark.parametrize("field, value, message", [
    ("final_eval_simulations", -1, "field 'final_eval_simulations' must be null or an integer >= 0"),
    ("eval_considered", 0, "field 'eval_considered' must be a positive integer"),
    ("eval_workers", 0, "field 'eval_workers' must be a positive integer"),
    ("imitation_temperature", -0.5, "field 'imitation_temperature' must be a finite number >= 0"),
])
def test_bad_values_name_the_field(tmp_path, field, value, message):
    with pytest.raises(ValueError, match=message):
        _tiny(tmp_path, **{field: value})


def test_the_search_spec_says_only_what_differs_from_az_defaults(tmp_path):
    model = Path("m.pt")
    assert search_spec(model, _tiny(tmp_path), 8) == "az:path=m.pt,sims=8"
    assert search_spec(model, _tiny(tmp_path, eval_considered=4, search="compiled"), 64) == \
        "az:path=m.pt,sims=64,considered=4,search=compiled"


def test_seconds_per_decision_is_the_median_over_the_agents_games(tmp_path):
    path = tmp_path / "games.csv"
    rows = [("az:x", "0.5", "greedy", "0.01"), ("greedy", "0.02", "az:x", "0.25"), ("az:x", "0.75", "greedy", "0.0")]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game_id", "num_players", "seat0", "sec_per_decision0", "seat1", "sec_per_decision1"])
        for k, row in enumerate(rows):
            w.writerow([k, 2, *row])
    assert seconds_per_decision(path, "az:x") == 0.5
    assert seconds_per_decision(path, "greedy") == pytest.approx(0.01)
    assert math.isnan(seconds_per_decision(path, "lookahead"))


def test_only_the_final_evaluation_plays_the_search_agent(tmp_path):
    card = Run(_tiny(tmp_path, final_eval_simulations=3, eval_considered=2,
                    eval_workers=2), log=lambda *_: None).run(progress=False)
    rows = list(csv.DictReader((tmp_path / "tiny" / "curve.csv").open()))
    searched = [r for r in rows if r["agent"] == "az"]
    assert [r["round"] for r in rows if r["agent"] == "aznet"] == ["0", "1", "2"]
    assert [(r["round"], r["simulations"]) for r in searched] == [("2", "3")]
    assert float(searched[0]["seconds_per_decision"]) > 0
    final = {r["agent"]: r for r in card["evaluation"]}
    assert final["az"]["simulations"] == 3 and final["az"]["games"] == 2
    summary = json.loads((tmp_path / "tiny" / "eval" / "round_2" / "az_vs_random" / "summary.json").read_text())
    assert summary["config"]["agents"][0].endswith(",sims=3,considered=2")
    assert (summary["config"]["workers"], summary["config"]["backend"]) == (2, "spawn")  # fresh processes
    raw = json.loads((tmp_path / "tiny" / "eval" / "round_2" / "aznet_vs_random" / "summary.json").read_text())
    assert (raw["config"]["workers"], raw["config"]["backend"]) == (1, "process")  # the fast games stay here


def test_a_zero_final_simulation_count_keeps_the_raw_network_only(tmp_path):
    Run(_tiny(tmp_path, iterations=1, eval_simulations=2, final_eval_simulations=0), log=lambda *_: None) \
        .run(progress=False)
    rows = list(csv.DictReader((tmp_path / "tiny" / "curve.csv").open()))
    assert [(r["round"], r["agent"]) for r in rows] == [("0", "aznet"), ("0", "az"), ("1", "aznet")]


def test_soft_targets_follow_the_teachers_values():
    legal = torch.tensor([[True, True, False]])
    values = torch.tensor([[2.0, 1.0, -math.inf]])
    # the target is softmax([2, 1] / 0.5) over the legal actions: logits that equal its logs give its entropy
    target = np.exp([4.0, 2.0]) / np.exp([4.0, 2.0]).sum()
    exact = torch.tensor([[np.log(target[0]), np.log(target[1]), 5.0]], dtype=torch.float32)
    entropy = -(target * np.log(target)).sum()
    assert float(soft_cross_entropy(exact, legal, values, 0.5)) == pytest.approx(entropy, rel=1e-5)
    flat = torch.zeros((1, 3))
    assert float(soft_cross_entropy(flat, legal, values, 0.5)) == pytest.approx(math.log(2), rel=1e-5)


@pytest.mark.parametrize("same, seeds", [(False, [4, 5, 6]), (True, [4, 4, 4])])
def test_the_curve_plays_the_same_games_at_every_round_when_asked(tmp_path, same, seeds):
    card = Run(_tiny(tmp_path, eval_same_games=same), log=lambda *_: None).run(progress=False)
    played = [json.loads((tmp_path / "tiny" / "eval" / f"round_{r}" / "aznet_vs_random" / "summary.json")
                         .read_text())["config"]["seed"] for r in range(3)]
    assert played == seeds and card["eval_same_games"] is same
