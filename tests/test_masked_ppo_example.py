"""scripts/masked_ppo.py, the CleanRL-style masked PPO example on the Gymnasium VectorEnv, runs at a tiny scale."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "masked_ppo.py"


def load():
    spec = importlib.util.spec_from_file_location("masked_ppo", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tiny_run_trains_and_reports(tmp_path):
    out = tmp_path / "ppo.json"
    summary = load().main(["--total-timesteps", "256", "--num-envs", "4", "--num-steps", "32",
                           "--num-minibatches", "2", "--update-epochs", "1", "--threads", "1", "--json", str(out)])
    assert summary["steps"] == 256 and summary["steps_per_s"] > 0
    assert json.loads(out.read_text())["steps"] == 256


def test_bad_arguments_are_argparse_errors():
    with pytest.raises(SystemExit):
        load().parse_args(["--num-envs", "0"])
    with pytest.raises(SystemExit):
        load().parse_args(["--num-envs", "3", "--num-steps", "3", "--num-minibatches", "2"])
