"""The tutorials of the documentation site (docs/tutorials/*.py) run at a tiny scale, so the code their pages show
works against this kbenv. The RLlib tutorial shows scripts/rllib_selfplay.py, run by tests/test_rllib.py; the
one-file masked PPO it shows, scripts/masked_ppo.py, is run by tests/test_masked_ppo_example.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

TUTORIALS = Path(__file__).resolve().parents[1] / "docs" / "tutorials"


def load(name: str):
    """docs/tutorials/NAME.py as a module."""
    spec = importlib.util.spec_from_file_location(f"tutorial_{name}", TUTORIALS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_tutorial_script_has_a_page_and_a_test():
    pages = "".join(p.read_text() for p in TUTORIALS.glob("*.md"))
    tests = Path(__file__).read_text()
    for script in TUTORIALS.glob("*.py"):
        assert f"{{literalinclude}} {script.name}" in pages, script.name
        assert f'load("{script.stem}")' in tests, script.name


def test_tournament(tmp_path):
    out = tmp_path / "t"
    summary = load("tournament").main(["--agents", "random", "greedy", "--players", "2", "--games", "2",
                                       "--out", str(out)])
    assert summary["games"] == 2
    assert (out / "ratings.png").is_file() and (out / "ratings.csv").is_file()


@pytest.mark.filterwarnings("ignore:.*kbenv/SelfPlay-v0 is out of date:DeprecationWarning")
def test_maskable_ppo(tmp_path):
    pytest.importorskip("sb3_contrib")
    summary = load("maskable_ppo").main(["--timesteps", "64", "--envs", "1", "--n-steps", "64", "--games", "2",
                                         "--out", str(tmp_path / "ppo")])
    assert (tmp_path / "ppo" / "model.zip").is_file()
    assert summary["games"] == 2


def test_search_selfplay(tmp_path):
    pytest.importorskip("torch")
    summary = load("search_selfplay").main(["--rounds", "1", "--games", "2", "--steps", "8", "--sims", "2",
                                            "--eval-games", "2", "--out", str(tmp_path)])
    assert (tmp_path / "tutorial_az" / "model.pt").is_file()
    assert summary["games"] == 2


def test_torchrl(tmp_path):
    pytest.importorskip("torchrl")
    result = load("torchrl_rollout").main(["--players", "2", "--steps", "20"])
    assert result["steps"] == 20 and result["groups"] == ["player_0", "player_1"]


def test_tianshou():
    pytest.importorskip("tianshou")
    result = load("tianshou_collect").main(["--episodes", "1", "--envs", "1"])
    assert result["episodes"] >= 1 and len(result["returns"][0]) == 2


def test_openspiel_ismcts():
    pytest.importorskip("pyspiel")
    result = load("openspiel_ismcts").main(["--games", "1", "--sims", "2", "--rollout-length", "2"])
    assert result["wins"] + result["losses"] + result["ties"] == 1
