"""Self-play training end to end: config, checkpoint, resume, evaluation, model card, play."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from agents import make_agent
from agents.training.config import TrainConfig
from agents.training.training import train

from .game_checks import Recording, assert_a_finished_game

ROOT = Path(__file__).resolve().parents[1]
TINY = {
    "name": "tiny", "players": [2, 3], "total_timesteps": 256, "n_envs": 4, "n_steps": 32, "batch_size": 64,
    "n_epochs": 1, "channels": 8, "blocks": 1, "head_channels": 2, "vf_layers": [16],
    "opponents": ["random", "greedy"], "snapshot_every": 128, "checkpoint_every": 128, "eval_every": 256,
    "eval_games": 2, "device": "cpu", "imitation_samples": 200,
}


@pytest.mark.parametrize("name", ["ppo_quick", "strong", "strong_greedy_hints"])
def test_shipped_configs_load(name):
    config = TrainConfig.load(ROOT / "configs" / f"{name}.yaml")
    assert config.name == name and config.total_timesteps > 0


@pytest.mark.parametrize(
    ("change", "field"),
    [({"players": [6]}, "players"), ({"n_envs": 0}, "n_envs"), ({"reward": "gold"}, "reward"),
     ({"opponents": ["mcts"]}, "opponents"), ({"device": "tpu"}, "device"), ({"colour": 1}, "colour")],
)
def test_bad_config_names_the_field(change, field):
    with pytest.raises(ValueError, match=field):
        TrainConfig.from_dict({**TINY, **change})


def test_training_run_checkpoints_resumes_evaluates_and_writes_a_card(tmp_path):
    config = TrainConfig.from_dict({**TINY, "out_dir": str(tmp_path)})
    card = train(config, progress=False, log=lambda *_: None)
    run = tmp_path / "tiny"
    assert (run / "model.zip").exists() and (run / "checkpoints" / "step_128.zip").exists()
    assert list((run / "snapshots").glob("*.zip"))
    assert {r["opponent"] for r in card["evaluation"]} == {"random", "greedy"}
    assert (run / "eval.png").exists() and (run / "eval.csv").exists()
    saved = json.loads((run / "model_card.json").read_text())
    assert saved["timesteps"] == 256 and "win share" in (run / "model_card.md").read_text()
    assert saved["imitation"]["samples"] >= 200 and 0.0 <= saved["imitation"]["accuracy"] <= 1.0
    assert {r["timesteps"] for r in saved["evaluation_history"]} == {0, 256}
    progress = json.loads((run / "progress.json").read_text())
    assert progress["timesteps"] == 256

    longer = TrainConfig.from_dict({**TINY, "out_dir": str(tmp_path), "total_timesteps": 512})
    logs = []
    card2 = train(longer, resume=True, progress=False, log=logs.append)
    assert any("resuming" in line and "256" in line for line in logs)
    assert card2["timesteps"] == 512
    assert json.loads((run / "progress.json").read_text())["timesteps"] == 512
    assert {r["timesteps"] for r in card2["evaluation_history"]} >= {256, 512}
    # the model was trained on: the step-128 checkpoint and the final model differ
    first = dict(make_agent(f"ppo:path={run / 'checkpoints' / 'step_128.zip'}", seed=0).model.policy.named_parameters())
    last = dict(make_agent(f"ppo:path={run / 'model.zip'}", seed=0).model.policy.named_parameters())
    assert first.keys() == last.keys()
    assert any(not torch.equal(first[k], last[k]) for k in first)

    # A loaded checkpoint plays legal moves through `kbenv play` (every move is checked by the engine).
    out = subprocess.run(
        [sys.executable, "-m", "kbenv.cli", "play", "--players", "2", "--seed", "3", "--no-colour",
         "--agents", f"ppo:path={run / 'model.zip'}", "greedy"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert "winner(s)" in out.stdout


def test_training_with_hints_and_the_lookahead_teacher_gives_an_agent_that_reads_hints(tmp_path):
    from agents.evaluation.play import play_game

    config = TrainConfig.from_dict({**TINY, "out_dir": str(tmp_path), "hints": "greedy", "teacher": "lookahead",
                                    "guide_coef": 1.0, "snapshot_every": 0, "eval_every": 0,
                                    "total_timesteps": 128})
    card = train(config, progress=False, log=lambda *_: None)
    assert card["timesteps"] == 128 and card["imitation"]["samples"] >= 200
    agent = make_agent(f"ppo:path={tmp_path / 'tiny' / 'model.zip'}", seed=1)
    assert agent.hints == "greedy"
    assert agent.model.observation_space.shape[0] == 30
    player = Recording(agent)
    result = play_game(0, 5, ["ppo", "lookahead"], [player, make_agent("lookahead", seed=2)])
    player.assert_all_legal(at_least=20)
    assert_a_finished_game(result)


@pytest.mark.parametrize(("change", "field"), [({"hints": "all"}, "hints"), ({"teacher": "mcts"}, "teacher")])
def test_bad_hint_and_teacher_fields_are_named(change, field):
    with pytest.raises(ValueError, match=field):
        TrainConfig.from_dict({**TINY, **change})
