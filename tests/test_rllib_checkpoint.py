"""scripts/rllib_selfplay.py --evaluate reads the ruleset and network stored in the checkpoint; --expansions and
--rules exist; every option has a help text (kbenv issue 19). No Ray instance is started: the checkpoint is a
module saved by hand, laid out as the script's own checkpoints are."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

from agents.rllib_models import SHARED_MODULE, KBMaskedConvModule, KBPettingZooEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODEL = {"channels": 4, "conv_layers": 1, "hidden": 8}


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("rllib_selfplay_ckpt", ROOT / "scripts" / "rllib_selfplay.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _checkpoint(script, folder: Path, expansions: list[str], with_info: bool = True) -> Path:
    """A checkpoint folder of a network trained on `expansions` (v1: 40 planes, 478 actions)."""
    cfg = script.RLlibSelfPlayConfig.from_dict({"expansions": expansions, "model": MODEL, "players": 2})
    env = KBPettingZooEnv(cfg.env_config())
    module = KBMaskedConvModule(observation_space=env.observation_spaces["player_0"],
                                action_space=env.action_spaces["player_0"], model_config=MODEL)
    module.save_to_path(str(folder / "learner_group" / "learner" / "rl_module" / SHARED_MODULE))
    if with_info:
        script.write_run_info(folder, cfg)
    return folder


def test_every_option_has_help(script):
    actions = [a for a in script.build_parser()._actions if not isinstance(a, argparse._HelpAction)]
    assert {"--expansions", "--rules"} <= {s for a in actions for s in a.option_strings}
    assert [a.option_strings for a in actions if not a.help] == []


def test_evaluate_plays_the_checkpoints_ruleset_without_its_config(script, tmp_path, capsys):
    ckpt = _checkpoint(script, tmp_path / "checkpoint", ["nomads", "caves"])
    stored = json.loads((ckpt / script.RUN_FILE).read_text())
    assert stored["expansions"] == ["nomads", "caves"] and stored["model"] == MODEL
    # the default config is the base game (28 planes): the checkpoint's ruleset wins
    assert script.main(["--evaluate", str(ckpt), "--eval-games", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 1 and result["learner_decisions"] > 0
    assert result["expansions"] == ["nomads", "caves"]
    # --expansions may repeat the checkpoint's ruleset in any order
    assert script.main(["--evaluate", str(ckpt), "--eval-games", "1", "--expansions", "caves,nomads"]) == 0


def test_evaluate_refuses_another_ruleset_by_name(script, tmp_path, capsys):
    ckpt = _checkpoint(script, tmp_path / "checkpoint", ["nomads"])
    assert script.main(["--evaluate", str(ckpt), "--expansions", "caves"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rllib_selfplay.py: error: --expansions: the checkpoint was trained with expansions nomads")


def test_an_old_checkpoint_without_its_ruleset_gets_a_clear_error(script, tmp_path, capsys):
    ckpt = _checkpoint(script, tmp_path / "checkpoint", ["nomads"], with_info=False)
    assert script.main(["--evaluate", str(ckpt)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no kbenv_run.json" in err and "Traceback" not in err


def test_the_config_checks_the_ruleset(script):
    with pytest.raises(ValueError, match="capitol_replaces_castle"):
        script.RLlibSelfPlayConfig.from_dict({"rules": ["capitol_replaces_castle"]})  # needs the capitol expansion
    with pytest.raises(ValueError, match="expansions"):
        script.RLlibSelfPlayConfig.from_dict({"expansions": ["atlantis"]})
    cfg = script.RLlibSelfPlayConfig.from_dict({"expansions": ["capitol"], "rules": ["capitol_replaces_castle"]})
    assert cfg.env_config()["rules"] == ["capitol_replaces_castle"]
