"""What the policy head is trained towards in search self-play: `policy_weight` (the policy loss's weight; 0 = the
value head alone learns) and `policy_teacher` / `policy_teacher_weight` (the improved policy mixed with a built-in
policy's best set at the searched root)."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.training.alphazero import Run, SelfPlay, train_step
from agents.training.az_config import AlphaZeroConfig
from kbenv.engine.legal import ACTION_SIZE_V1
from kbenv.game import Game
from kbenv.policies.greedy import greedy_values
from kbenv.policies.lookahead import lookahead_values
from scripts.ship_model import policy_target_words


def _config(tmp_path: Path, **over) -> AlphaZeroConfig:
    data = dict(name="target", players=[2], games=2, simulations=4, considered=4, channels=8, blocks=1,
                head_channels=2, iterations=1, steps_per_iteration=40, train_batches=1, batch_size=8,
                buffer_positions=4000, min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"],
                checkpoint_every=1, device="cpu", threads=1, seed=5, out_dir=str(tmp_path))
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def _best(values_of, state: np.ndarray, size: int) -> np.ndarray:
    """0/1 vector of the actions of the highest value under a built-in policy's value kernel."""
    values = np.full(size, -np.inf)
    values_of(state, values)
    return (values == values.max()).astype(np.float64)


def _midgame_state(moves: int = 7) -> np.ndarray:
    """A 2-player base game after `moves` lookahead-chosen decisions (a board with settlements on it)."""
    game = Game.new(num_players=2, seed=321)
    for _ in range(moves):
        game.step(int(np.flatnonzero(_best(lookahead_values, game.state, ACTION_SIZE_V1))[0]))
    return game.state.copy()


def test_without_a_teacher_the_target_is_the_improved_policy_itself(tmp_path):
    selfplay = SelfPlay(_config(tmp_path))
    improved = np.random.default_rng(0).dirichlet(np.ones(ACTION_SIZE_V1)).astype(np.float32)
    assert selfplay.policy_target(_midgame_state(), improved) is improved


@pytest.mark.parametrize("teacher, values_of, weight", [("lookahead", lookahead_values, 0.5),
                                                        ("greedy", greedy_values, 0.25)])
def test_the_target_mixes_the_teachers_best_set_in_by_its_weight(tmp_path, teacher, values_of, weight):
    selfplay = SelfPlay(_config(tmp_path, policy_teacher=teacher, policy_teacher_weight=weight))
    state = _midgame_state()
    improved = np.zeros(ACTION_SIZE_V1, dtype=np.float32)
    values = np.full(ACTION_SIZE_V1, -np.inf)
    values_of(state, values)
    legal = np.flatnonzero(np.isfinite(values))
    improved[legal] = 1.0 / len(legal)  # uniform over the legal moves
    best = np.flatnonzero(values == values.max())
    assert 0 < len(best) < len(legal)  # the position tells the teacher's best moves from the others
    target = selfplay.policy_target(state, improved)
    assert target.dtype == np.float32
    expected = (1 - weight) * improved.astype(np.float64)
    expected[best] += weight / len(best)
    np.testing.assert_allclose(target, expected, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(target.sum(), 1.0, rtol=1e-6)
    assert set(np.flatnonzero(target)) == set(legal)  # nothing illegal gets weight


def test_with_weight_one_every_stored_target_is_the_teachers_best_set(tmp_path):
    run = Run(_config(tmp_path, policy_teacher="lookahead", policy_teacher_weight=1.0), log=lambda *_: None)
    run.run(progress=False)
    assert run.buffer.size + sum(len(p) for p in run.selfplay.pending) > 20
    rows = [(state, policy) for pending in run.selfplay.pending for state, policy, *_ in pending]
    rows += [(run.buffer.states[k], run.buffer.policies[k]) for k in range(run.buffer.size)]
    for state, policy in rows:
        best = _best(lookahead_values, state, len(policy))
        np.testing.assert_allclose(policy, best / best.sum(), rtol=1e-6)
    card = run.card()
    assert (card["policy_teacher"], card["policy_teacher_weight"], card["policy_weight"]) == ("lookahead", 1.0, 1.0)


def _filled_run(tmp_path, **over) -> Run:
    run = Run(_config(tmp_path, iterations=0, teacher="greedy", imitation_samples=1, weight_decay=0.0, **over),
              log=lambda *_: None)
    rng = np.random.default_rng(1)
    state = _midgame_state()
    for _ in range(16):
        policy = rng.dirichlet(np.ones(run.net.action_size)).astype(np.float32)
        run.buffer.add(state, policy, rng.normal(size=5).astype(np.float32), 2)
    return run


def test_policy_weight_zero_leaves_the_policy_head_alone_and_trains_the_value(tmp_path):
    run = _filled_run(tmp_path, policy_weight=0.0)
    policy_head = copy.deepcopy(run.net.policy.state_dict())
    value_head = copy.deepcopy(run.net.value.state_dict())
    p_loss, v_loss = train_step(run.net, run.optimizer, run.buffer, np.random.default_rng(2), run.config, "cpu")
    assert p_loss > 0 and v_loss > 0  # both losses are still reported
    for name, tensor in run.net.policy.state_dict().items():
        assert torch.equal(tensor, policy_head[name]), name
    assert any(not torch.equal(t, value_head[n]) for n, t in run.net.value.state_dict().items())


def test_the_default_policy_weight_trains_the_policy_head(tmp_path):
    run = _filled_run(tmp_path)
    policy_head = copy.deepcopy(run.net.policy.state_dict())
    train_step(run.net, run.optimizer, run.buffer, np.random.default_rng(2), run.config, "cpu")
    assert any(not torch.equal(t, policy_head[n]) for n, t in run.net.policy.state_dict().items())


@pytest.mark.parametrize("over", [dict(policy_teacher="lookahead"), dict(policy_teacher_weight=0.5)])
def test_a_teacher_and_its_weight_come_together(tmp_path, over):
    with pytest.raises(ValueError, match="policy_teacher_weight"):
        _config(tmp_path, **over)


@pytest.mark.parametrize("over, field", [(dict(policy_weight=-1.0), "policy_weight"),
                                         (dict(policy_teacher="mcts", policy_teacher_weight=0.5), "policy_teacher"),
                                         (dict(policy_teacher="greedy", policy_teacher_weight=1.5),
                                          "policy_teacher_weight")])
def test_bad_values_name_the_field(tmp_path, over, field):
    with pytest.raises(ValueError, match=field):
        _config(tmp_path, **over)


def test_the_model_card_says_how_the_policy_was_trained():
    assert policy_target_words({}) == ""
    assert "value head alone" in policy_target_words({"policy_weight": 0.0})
    words = policy_target_words({"policy_weight": 1.0, "policy_teacher": "lookahead", "policy_teacher_weight": 0.25})
    assert "0.75 the search's improved policy" in words and "0.25 lookahead's best set" in words
