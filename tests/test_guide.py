"""Greedy guidance during PPO, the time limit, and the network's board planes."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.training.config import TrainConfig
from agents.training.guide import GuidedMaskablePPO, TeacherLabels
from agents.training.networks import BOARD_PLANES, KingdomBuilderExtractor, make_board_planes
from agents.training.training import train
from kbenv.board.geometry import neighbours
from kbenv.observation import OBSERVATION_SHAPE
from kbenv.vector_env import SelfPlayVecEnv

from .test_training import TINY


def test_expert_masks_are_legal_and_name_greedys_choice():
    env = SelfPlayVecEnv(6, num_players=[2, 3], opponents=["random"], seed=4)
    env.reset()
    for _ in range(30):
        legal = env.action_masks()
        best = env.expert_masks()
        assert best.any(axis=1).all()
        assert not (best & ~legal).any()
        env.step(np.array([np.flatnonzero(row)[0] for row in best]))


def test_guide_labels_line_up_with_the_rollout_buffer():
    """Every recorded greedy label must be a subset of the legal mask stored for the same buffer entry."""
    env = SelfPlayVecEnv(3, num_players=2, opponents=["random"], seed=2)
    model = GuidedMaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu",
                              policy_kwargs={"net_arch": [16]})
    seen = {}

    class Check(TeacherLabels):
        def _on_rollout_end(self) -> None:
            buffer = self.model.rollout_buffer
            labels = self.labels(buffer.buffer_size)
            legal = buffer.action_masks.astype(bool)
            seen["subset"] = not (labels & ~legal).any()
            seen["nonempty"] = labels.any(axis=2).all()
            seen["shape"] = labels.shape

    model.guide = Check(env)
    model.guide_coef = 1.0
    model.learn(32, callback=model.guide)
    assert seen == {"subset": True, "nonempty": True, "shape": (16, 3, env.action_space.n)}


def test_guide_pulls_the_policy_towards_greedy():
    env = SelfPlayVecEnv(4, num_players=2, opponents=["random"], seed=5)
    model = GuidedMaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                              learning_rate=1e-3, policy_kwargs={"net_arch": [32]})
    model.guide = TeacherLabels(env)
    model.guide_coef = model.guide_coef_final = 5.0
    model.learn(64 * 6, callback=model.guide)
    values = model.logger.name_to_value
    assert values["guide/coef"] == 5.0 and 0.0 <= values["guide/teacher_agreement"] <= 1.0


def test_guide_coefficient_decays_linearly():
    model = GuidedMaskablePPO.__new__(GuidedMaskablePPO)
    model.guide_coef, model.guide_coef_final, model.guide_total_steps = 1.0, 0.0, 100
    for steps, expected in [(0, 1.0), (50, 0.5), (100, 0.0), (400, 0.0)]:
        model.num_timesteps = steps
        assert model.current_guide_coef() == pytest.approx(expected)


def test_guided_training_and_the_time_limit(tmp_path):
    config = TrainConfig.from_dict({**TINY, "out_dir": str(tmp_path), "guide_coef": 1.0, "total_timesteps": 10_000,
                                    "max_minutes": 1e-6, "eval_every": 0, "imitation_samples": 0})
    card = train(config, progress=False, log=lambda *_: None)
    assert card["stopped_early"] and 0 < card["timesteps"] < 10_000
    saved = json.loads((tmp_path / "tiny" / "model_card.json").read_text())
    assert saved["timesteps"] == card["timesteps"]


@pytest.mark.parametrize(
    ("change", "field"),
    [({"guide_coef": -1}, "guide_coef"), ({"max_minutes": "x"}, "max_minutes"), ({"context": "yes"}, "context")],
)
def test_bad_guide_fields_are_named(change, field):
    with pytest.raises(ValueError, match=field):
        TrainConfig.from_dict({**TINY, **change})


def test_board_planes_mark_parity_sectors_and_position():
    planes = make_board_planes()
    assert planes.shape == (BOARD_PLANES, 20, 20)
    assert planes[0, 1, 5] == 1 and planes[0, 2, 5] == 0  # odd rows
    assert planes[1:5].sum(0).eq(1).all()  # exactly one sector each
    assert planes[1, 9, 9] == 1 and planes[2, 0, 10] == 1 and planes[3, 10, 0] == 1 and planes[4, 19, 19] == 1
    # The parity plane is what tells a 3x3 convolution which diagonal cells are hex neighbours.
    even, odd = set(neighbours(2 * 20 + 5)), set(neighbours(3 * 20 + 5))
    assert (1 * 20 + 6 in even) != (2 * 20 + 6 in odd)


@pytest.mark.parametrize("flags", [(True, True), (False, False), (True, False)])
def test_extractor_shapes_with_and_without_board_context(flags):
    space = spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32)
    net = KingdomBuilderExtractor(space, channels=8, blocks=2, head_channels=2, board_planes=flags[0],
                                  context=flags[1])
    out = net(torch.rand(3, *OBSERVATION_SHAPE))
    assert out.shape == (3, net.features_dim)


def test_imitation_sweep_script_writes_its_table(tmp_path):
    import csv
    import subprocess
    import sys

    import yaml

    from .test_training import ROOT

    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump({**TINY, "players": [2]}))
    out = subprocess.run(
        [sys.executable, "scripts/imitation_sweep.py", "--config", str(config), "--samples", "100", "--held-out", "100",
         "--games", "2", "--out", str(tmp_path / "sweep"), "--variant", "plain", "board_planes=false", "context=false",
         "--variant", "planes"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(open(tmp_path / "sweep" / "sweep.csv")))
    assert [r["variant"] for r in rows] == ["plain", "planes"]
    assert all(0.0 <= float(r["held_out_accuracy"]) <= 1.0 for r in rows)
    assert int(rows[0]["parameters"]) < int(rows[1]["parameters"])
