"""Self-play value targets that bootstrap from the search (`value_search_weight`): the mix of the game's
outcome and the root's searched value, each as the gain still to come, worked out by hand and checked
end to end against runs that differ only in the weight."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.training.alphazero import Run, value_target
from agents.training.az_config import AlphaZeroConfig


def test_the_target_mixes_outcome_and_searched_value_as_gains():
    final = np.array([0.5, -0.5])  # margins at the end of the game
    score = np.array([0.1, -0.1])  # the margins the position would score now
    searched = np.array([0.3, -0.3])  # the root's searched value (score now + predicted gain)
    np.testing.assert_allclose(value_target(final, score, searched, 0.0), [0.4, -0.4])  # the outcome's gain
    np.testing.assert_allclose(value_target(final, score, searched, 1.0), [0.2, -0.2])  # the search's gain
    np.testing.assert_allclose(value_target(final, score, searched, 0.5), [0.3, -0.3])
    np.testing.assert_allclose(value_target(final, score, searched, 0.25), [0.35, -0.35])
    # a position saved without its searched value (an older checkpoint's pending positions): the outcome
    np.testing.assert_allclose(value_target(final, score, None, 0.5), [0.4, -0.4])


def test_weight_zero_is_exactly_the_outcome():
    final, score = np.array([0.7, -0.7]), np.array([0.2, -0.2])
    assert np.array_equal(value_target(final, score, np.array([9.0, -9.0]), 0.0), final - score)


def _config(tmp_path: Path, weight: float) -> AlphaZeroConfig:
    return AlphaZeroConfig.from_dict(dict(
        name=f"w{weight}", games=2, simulations=4, considered=4, channels=8, blocks=1, head_channels=2,
        iterations=1, steps_per_iteration=200, train_batches=1, batch_size=8, buffer_positions=1000, min_buffer=1,
        eval_every=0, eval_games=2, eval_opponents=["random"], device="cpu", threads=1, seed=5,
        value_search_weight=weight, out_dir=str(tmp_path)))


def _targets(tmp_path: Path, weight: float):
    run = Run(_config(tmp_path, weight), log=lambda *_: None)
    evaluator, search = run._searcher()
    run._play_round(evaluator, search)  # 200 decisions in each of 2 games: both end (no training yet)
    n = run.buffer.size
    return run.buffer.states[:n].copy(), run.buffer.policies[:n].copy(), run.buffer.values[:n].copy()


def test_self_play_targets_follow_the_weight(tmp_path):
    # the same seed and untrained network: the same games and policies; only the value targets differ
    states0, policies0, outcome = _targets(tmp_path, 0.0)
    states1, policies1, searched = _targets(tmp_path, 1.0)
    states_half, policies_half, half = _targets(tmp_path, 0.5)
    assert len(outcome) > 100
    np.testing.assert_array_equal(states0, states1)
    np.testing.assert_array_equal(states0, states_half)
    np.testing.assert_array_equal(policies0, policies1)
    np.testing.assert_array_equal(policies0, policies_half)
    assert not np.allclose(outcome, searched)  # an untrained network's values are not the games' outcomes
    np.testing.assert_allclose(half, 0.5 * (outcome + searched), atol=1e-6)
    # 2-player games: the outcome's gains are opposite margins (an untrained network's predictions need not be);
    # every target is observer-relative over the 2 seats of the game, zeros after them
    np.testing.assert_allclose(outcome[:, 0], -outcome[:, 1], atol=1e-6)
    for values in (outcome, searched, half):
        assert not values[:, 2:].any()


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_a_weight_outside_zero_to_one_names_the_field(weight):
    with pytest.raises(ValueError, match="field 'value_search_weight' must be a number from 0 to 1"):
        AlphaZeroConfig.from_dict({"value_search_weight": weight})
