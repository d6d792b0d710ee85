"""RLlib self-play (scripts/rllib_selfplay.py, agents/rllib_models.py): masking, strict env, a tiny run."""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from agents.rllib_models import (  # noqa: E402
    SHARED_MODULE,
    KBMaskedConvModule,
    KBPettingZooEnv,
    make_raw_env,
    masked_action,
    shared_policy,
)
from kbenv import IllegalActionError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _load_script():
    """scripts/rllib_selfplay.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("rllib_selfplay", ROOT / "scripts" / "rllib_selfplay.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _module(env: KBPettingZooEnv) -> KBMaskedConvModule:
    return KBMaskedConvModule(observation_space=env.observation_spaces["player_0"],
                              action_space=env.action_spaces["player_0"],
                              model_config={"channels": 4, "conv_layers": 1, "hidden": 8})


def test_env_is_strict_and_module_masks_illegal_actions():
    """The RLlib env raises on an illegal action; the module's logits keep illegal actions at the float minimum."""
    env = KBPettingZooEnv({"num_players": 2})
    obs, _ = env.reset(seed=3)
    (agent, first), = obs.items()
    illegal = int(np.flatnonzero(first["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step({agent: illegal})
    assert shared_policy("player_1") == SHARED_MODULE

    module = _module(env)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=4)
    for _ in range(60):  # sampled (not argmax) actions through a whole stretch of play stay legal
        (agent, o), = obs.items()
        action = masked_action(module, o, greedy=False, rng=rng)
        assert o["action_mask"][action] == 1
        obs, _, term, _, _ = env.step({agent: action})
        if term.get("__all__"):
            break
    batch = {"obs": {k: torch.from_numpy(np.asarray(v)[None]) for k, v in o.items()}}
    logits = module.forward_train(batch)["action_dist_inputs"][0]
    assert bool((logits[torch.from_numpy(o["action_mask"] == 0)] < -1e30).all())
    assert module.compute_values(batch).shape == (1,)


def test_raw_env_factory_variants():
    """v0 by default, v1 (478 actions, 40 planes) with expansions."""
    assert make_raw_env({"num_players": 3}).action_space("player_0").n == 409
    v1 = make_raw_env({"num_players": 2, "expansions": ["nomads"]})
    assert v1.action_space("player_0").n == 478
    assert v1.observation_space("player_0")["observation"].shape == (50, 20, 20)


def test_tiny_selfplay_run(tmp_path: Path):
    """Two PPO iterations on a local Ray (2 CPUs): metrics, checkpoint, finished games, evaluation, throughput."""
    import ray

    script = _load_script()
    cfg = script.RLlibSelfPlayConfig.from_dict({
        "players": 2, "iterations": 2, "num_env_runners": 0, "num_envs_per_env_runner": 4,
        "train_batch_size": 512, "minibatch_size": 128, "num_epochs": 1,
        "model": {"channels": 8, "conv_layers": 1, "hidden": 32},
        "checkpoint_dir": str(tmp_path / "run"), "eval_games": 2, "baseline_steps": 1000, "seed": 1,
    })
    lines: list[str] = []
    ray.init(num_cpus=2, include_dashboard=False, address="local")
    start = time.perf_counter()
    try:
        summary = script.train(cfg, log=lines.append)
    finally:
        ray.shutdown()
    wall = time.perf_counter() - start

    out = tmp_path / "run"
    rows = list(csv.DictReader(open(out / "metrics.csv")))
    assert [int(r["iteration"]) for r in rows] == [1, 2]
    assert json.loads((out / "metrics.json").read_text())[-1]["iteration"] == 2
    # 4 games x 256 decisions each: a 2-player game is ~100 decisions, so games finished, and the strict
    # raw env (IllegalActionError on any illegal action) let every decision through.
    assert int(rows[-1]["env_steps_total"]) >= 1024
    assert int(rows[-1]["episodes_total"]) > 0
    assert float(rows[-1]["episode_len_mean"]) > 20
    assert (out / "checkpoint" / "rllib_checkpoint.json").is_file()
    assert (out / "checkpoint" / "learner_group" / "learner" / "rl_module" / SHARED_MODULE).is_dir()
    assert json.loads((out / "summary.json").read_text())["episodes"] == summary["episodes"]
    assert sum(line.startswith("[rllib] iter ") for line in lines) == 2

    ev = summary["eval_vs_random"]
    assert ev["games"] == 2 and 0 <= ev["wins"] <= 2 and ev["learner_decisions"] > 0
    rllib_rate = summary["rllib_env_steps_per_s"]
    raw_rate = summary["raw_env_random"]["env_steps_per_s"]
    assert rllib_rate > 0 and raw_rate > 0
    print(f"\nRLlib {rllib_rate:.0f} env steps/s (sampling ~{summary['rllib_sample_env_steps_per_s']:.0f}) vs "
          f"kbenv raw_env random play {raw_rate:.0f} steps/s; run {wall:.1f} s")

    module = script.load_module(out / "checkpoint")  # the checkpoint reloads outside RLlib and plays
    result = script.evaluate_vs_random(module, cfg.env_config(), games=1, seed=5)
    assert result["games"] == 1


def test_config_file_and_unknown_keys():
    """The shipped YAML loads; a misspelt key is refused by name."""
    script = _load_script()
    cfg = script.RLlibSelfPlayConfig.from_yaml(ROOT / "configs" / "rllib_selfplay.yaml")
    assert cfg.players == 2 and cfg.iterations >= 1 and cfg.checkpoint_dir
    with pytest.raises(ValueError, match="itterations"):
        script.RLlibSelfPlayConfig.from_dict({"itterations": 3})
