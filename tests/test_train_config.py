"""Training config validation (every field typed and ranged, errors name the field) and resume-state checks."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.training.config import TrainConfig
from agents.training.training import (
    ImitationProgress,
    device_name,
    load_progress,
    pick_device,
    progress_bar,
    train,
)

from .test_training import TINY

ROOT = Path(__file__).resolve().parents[1]
FIELDS = sorted(TrainConfig.model_fields)


@pytest.mark.parametrize(
    ("change", "field"),
    [({"gamma": 7}, "gamma"), ({"gamma": "high"}, "gamma"), ({"clip_range": -1}, "clip_range"),
     ({"gae_lambda": -5}, "gae_lambda"), ({"players": 2}, "players"), ({"players": []}, "players"),
     ({"players": [2, 6]}, "players"), ({"vf_layers": 128}, "vf_layers"), ({"vf_layers": []}, "vf_layers"),
     ({"vf_layers": [16, 0]}, "vf_layers"), ({"name": 5}, "name"), ({"name": "../../x"}, "name"),
     ({"name": "a/b"}, "name"), ({"name": ".."}, "name"), ({"name": ""}, "name"), ({"name": "a\\b"}, "name"),
     ({"colour": 1}, "colour"), ({"n_envs": True}, "n_envs"), ({"n_steps": 32.0}, "n_steps"),
     ({"learning_rate": 0}, "learning_rate"), ({"learning_rate": True}, "learning_rate"),
     ({"gamma": float("nan")}, "gamma"), ({"max_minutes": float("inf")}, "max_minutes"),
     ({"ent_coef": -0.1}, "ent_coef"), ({"imitation_lr": -1}, "imitation_lr"), ({"board_planes": 1}, "board_planes"),
     ({"device": "auto "}, "device"), ({"out_dir": 3}, "out_dir"), ({"out_dir": ""}, "out_dir"),
     ({"eval_opponents": ["mcts"]}, "eval_opponents"), ({"opponents": "random"}, "opponents"),
     ({"seed": -1}, "seed"), ({"seed": 2**40}, "seed"), ({"imitation_epochs": 0}, "imitation_epochs"),
     ({"batch_size": 1}, "batch_size"), ({"batch_size": 129}, "batch_size"),
     ({"guide_coef": 0.5, "guide_coef_final": 1.0}, "guide_coef_final"),
     ({"opponents": [], "snapshot_every": 0}, "opponents")],
)
def test_each_bad_value_gives_an_error_naming_the_field(change, field):
    with pytest.raises(ValueError, match=rf"^configs/x\.yaml: (field|unknown field) '{field}'") as info:
        TrainConfig.from_dict({**TINY, **change}, source="configs/x.yaml")
    assert type(info.value) is ValueError and "\n" not in str(info.value)


def test_an_error_states_the_rule_and_the_value_and_every_bad_field_gets_a_line():
    with pytest.raises(ValueError) as info:
        TrainConfig.from_dict({**TINY, "gamma": 7, "name": "../../x", "gama": 0.5}, source="configs/x.yaml")
    lines = str(info.value).splitlines()
    assert "configs/x.yaml: field 'gamma' must be a number in (0, 1] (got 7)" in lines
    assert any(line.startswith("configs/x.yaml: field 'name' must be a folder name") for line in lines)
    assert "configs/x.yaml: unknown field 'gama' (did you mean 'gamma'?)" in lines
    assert len(lines) == 3


@pytest.mark.parametrize("name", ["ppo_quick", "strong", "strong_greedy_hints"])
def test_the_shipped_configs_load_and_round_trip(name):
    config = TrainConfig.load(ROOT / "configs" / f"{name}.yaml")
    assert config.name == name
    assert TrainConfig.from_dict(config.to_dict()) == config


def test_good_values_are_kept_with_their_types():
    config = TrainConfig.from_dict({**TINY, "gamma": 1, "name": "run-2.b_c", "opponents": [], "snapshot_every": 64})
    assert config.gamma == 1.0 and isinstance(config.gamma, float)
    assert config.players == [2, 3] and config.n_envs == 4 and config.name == "run-2.b_c"
    with pytest.raises(ValueError, match="gamma"):
        config.gamma = 7  # assignments are validated too


@pytest.mark.parametrize(
    ("text", "message"),
    [(None, "no such config file"), ("[1, 2]\n", "expected a mapping of fields, got list"),
     ("just text\n", "expected a mapping of fields, got str"), ("gamma: [\n", "not valid YAML"),
     ("gamma: 0.9\ngamma: 0.8\n", "gamma given more than once"), ("gamma: 7\n", "field 'gamma'")],
)
def test_bad_files_give_a_named_error(tmp_path, text, message):
    path = tmp_path / "x.yaml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        TrainConfig.load(path)
    assert str(info.value).startswith(str(path))


def test_yaml_exponent_numbers_are_numbers(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("learning_rate: 3e-4\nimitation_lr: 1E-3\n")
    config = TrainConfig.load(path)
    assert config.learning_rate == pytest.approx(3e-4) and config.imitation_lr == pytest.approx(1e-3)


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
field_values = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=10), json_like, max_size=6)
near_valid = st.one_of(  # values close to the valid ones, so that many configs pass and cross-field rules run
    st.integers(-2, 600), st.floats(-0.5, 1.5), st.booleans(), st.lists(st.integers(0, 6), max_size=3),
    st.sampled_from(["random", "greedy", "lookahead", "none", "cpu", "auto", "score", "run-1", "a/b", "."]),
    st.lists(st.sampled_from(["random", "greedy", "lookahead", "mcts"]), max_size=3),
)
configs = (field_values | field_values.map(lambda d: {**TINY, **d})
           | st.dictionaries(st.sampled_from(FIELDS), near_valid, max_size=3).map(lambda d: {**TINY, **d}))
LINE = re.compile(r"^config: (field '(\w+)' .+|unknown field (.+?)( \(did you mean '\w+'\?\))?)$")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs)
def test_any_mapping_gives_a_valid_config_or_a_value_error_naming_a_field(data):
    try:
        config = TrainConfig.from_dict(data)
    except ValueError as err:
        assert type(err) is ValueError
        for line in str(err).splitlines():
            match = LINE.match(line)
            assert match, line
            assert match.group(2) in FIELDS if match.group(2) else match.group(3)
        return
    assert 0 < config.gamma <= 1 and 0 < config.gae_lambda <= 1 and config.clip_range > 0
    assert math.isfinite(config.learning_rate) and config.learning_rate > 0
    assert 2 <= config.batch_size <= config.n_envs * config.n_steps
    assert config.players and all(2 <= n <= 5 for n in config.players)
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", config.name) and config.name not in (".", "..")
    assert TrainConfig.from_dict(config.to_dict()) == config


@given(st.lists(json_like) | st.text() | st.integers() | st.none())
def test_a_non_mapping_is_refused_by_name(data):
    with pytest.raises(ValueError, match=r"^config: expected a mapping of fields"):
        TrainConfig.from_dict(data)


def good_progress(tmp_path: Path) -> dict:
    checkpoint = tmp_path / "step_128.zip"
    checkpoint.write_bytes(b"")
    return {"timesteps": 128, "checkpoint": str(checkpoint), "snapshots": [], "wall_seconds": 1.5,
            "eval": [{"timesteps": 0, "opponent": "random", "win_share": 0.5, "ci95": [0.1, 0.9],
                      "mean_gold": 30.0, "rating_mu": 25.0}]}


@pytest.mark.parametrize(
    "corrupt",
    [lambda text: text[: len(text) // 2], lambda text: "\x00garbage", lambda text: "[" * 100_000,
     lambda text: json.dumps([1, 2]), lambda text: text.replace('"timesteps": 128', '"timesteps": "many"'),
     lambda text: text.replace('"win_share": 0.5', '"win_share": null'),
     lambda text: text.replace("step_128.zip", "missing.zip")],
)
def test_a_corrupt_progress_file_gives_an_error_naming_it(tmp_path, corrupt):
    path = tmp_path / "progress.json"
    text = json.dumps(good_progress(tmp_path))
    path.write_text(text)
    assert load_progress(path)["timesteps"] == 128
    path.write_text(corrupt(text))
    with pytest.raises(ValueError, match=re.escape(str(path))):
        load_progress(path)


def test_resume_from_a_corrupt_checkpoint_names_the_checkpoint(tmp_path):
    config = TrainConfig.from_dict({**TINY, "out_dir": str(tmp_path)})
    run = tmp_path / "tiny"
    run.mkdir()
    state = good_progress(run)
    Path(state["checkpoint"]).write_bytes(b"not a zip file")
    (run / "progress.json").write_text(json.dumps(state))
    with pytest.raises(ValueError, match=r"step_128\.zip: cannot load the checkpoint"):
        train(config, resume=True, progress=False, log=lambda *_: None)


def test_a_tiny_run_states_its_device_and_a_truncated_progress_file_stops_resume(tmp_path):
    small = {**TINY, "out_dir": str(tmp_path), "total_timesteps": 128, "imitation_samples": 0, "snapshot_every": 0,
             "eval_every": 0, "eval_opponents": ["random"], "checkpoint_every": 0}
    card = train(TrainConfig.from_dict(small), progress=False, log=lambda *_: None)
    run = tmp_path / "tiny"
    saved = json.loads((run / "model_card.json").read_text())
    assert card["device"] == saved["device"] == "cpu" and saved["device_requested"] == "cpu"
    assert "on cpu" in (run / "model_card.md").read_text()
    assert not list((run / "checkpoints").glob("*.zip"))  # checkpoint_every 0: only the final model
    progress = run / "progress.json"
    progress.write_text(progress.read_text()[:20])
    with pytest.raises(ValueError, match=re.escape(str(progress))):
        train(TrainConfig.from_dict({**small, "total_timesteps": 256}), resume=True, progress=False,
              log=lambda *_: None)


def test_device_names_resolve_the_cuda_index():
    assert device_name("cpu") == "cpu" and device_name(torch.device("cpu")) == "cpu"
    assert device_name(torch.device("cuda", 1)) == "cuda:1"
    if torch.cuda.is_available():
        assert device_name("cuda") == f"cuda:{torch.cuda.current_device()}"
    else:
        with pytest.raises(ValueError, match="device 'cuda'"):
            pick_device("cuda")
        assert pick_device("auto") == "cpu"


def test_progress_bars(monkeypatch):
    logs = []
    assert progress_bar(True, logs.append) and not progress_bar(False, logs.append) and not logs
    monkeypatch.setattr("agents.training.training._has_rich", lambda: False)
    assert not progress_bar(True, logs.append) and "rich" in logs[0]

    lines = []
    bar = ImitationProgress(1000, lines.append, True)
    with bar as on_line:
        on_line("  imitation: 600 samples, accuracy 0.500, value loss 0.1000")
        assert bar.bar.n == 600
        on_line("  imitation: 1200 samples, accuracy 0.700, value loss 0.0900")
        assert bar.bar.n == 1000
    assert lines == ["  imitation: 1200 samples, accuracy 0.700, value loss 0.0900"]
    with ImitationProgress(1000, lines.append, False) as on_line:
        assert on_line == lines.append
