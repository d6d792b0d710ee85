"""Imitation warm start: labels are the greedy kernel's legal choices, and the losses behave."""

from __future__ import annotations

import numpy as np
import torch

from agents.training.imitation import imitation_batches, set_cross_entropy, soft_cross_entropy
from kbenv.policies.greedy import greedy_action
from kbenv.vector import VectorGames


def test_imitation_batches_are_legal_greedy_labels():
    total = 0
    for obs, masks, labels, outcomes, values in imitation_batches(4, [2, 3], samples=300, random_share=0.3,
                                                                  seed=1, reward="win"):
        assert obs.shape[0] == masks.shape[0] == labels.shape[0] == outcomes.shape[0] == values.shape[0] >= 100
        assert set(np.unique(outcomes)) <= {-1.0, 1.0}  # every sample has its game's win/loss
        assert obs.shape[1:] == (28, 20, 20)
        assert labels.shape == masks.shape == values.shape
        assert (labels <= masks).all() and labels.any(axis=1).all()  # best set: legal and never empty
        assert (np.isfinite(values) == masks.astype(bool)).all()  # a value for exactly the legal actions
        best_value = np.where(labels.astype(bool), values, np.inf).min(axis=1)
        assert (best_value >= np.where(masks.astype(bool), values, -np.inf).max(axis=1) - 1e-6).all()
        total += len(labels)
    assert total >= 300


def test_greedy_labels_contain_the_greedy_kernels_choice():
    games = VectorGames(1, 2)
    games.reset(9)
    for _ in range(40):
        values = games.greedy_values()[0]
        choice = greedy_action(games.states[0].copy(), np.array([12345], dtype=np.int64), 0)
        assert values[choice] == values.max()
        games.step(np.array([choice]))


def test_losses_prefer_the_greedy_choice():
    legal = torch.tensor([[True, True, True, False]])
    best = torch.tensor([[False, True, False, False]])
    values = torch.tensor([[0.0, 2.0, 1.0, -float("inf")]])
    good = torch.tensor([[0.0, 5.0, 1.0, 9.0]])  # the illegal logit must not matter
    bad = torch.tensor([[5.0, 0.0, 1.0, 0.0]])
    assert set_cross_entropy(good, legal, best)[0] < set_cross_entropy(bad, legal, best)[0]
    assert set_cross_entropy(good, legal, best)[1] == 1.0 and set_cross_entropy(bad, legal, best)[1] == 0.0
    assert soft_cross_entropy(good, legal, values, 0.5) < soft_cross_entropy(bad, legal, values, 0.5)
    assert torch.isfinite(soft_cross_entropy(good, legal, values, 0.5))
