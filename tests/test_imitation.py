"""Imitation warm start: labels are the greedy kernel's legal choices, and imitation raises accuracy."""

from __future__ import annotations

import numpy as np

from agents.imitation import imitation_batches


def test_imitation_batches_are_legal_greedy_labels():
    total = 0
    for obs, masks, labels, outcomes in imitation_batches(4, [2, 3], samples=300, random_share=0.3,
                                                          seed=1, reward="win"):
        assert obs.shape[0] == masks.shape[0] == labels.shape[0] == outcomes.shape[0] >= 100
        assert set(np.unique(outcomes)) <= {-1.0, 1.0}  # every sample has its game's win/loss
        assert obs.shape[1:] == (28, 20, 20)
        assert labels.shape == masks.shape
        assert (labels <= masks).all() and labels.any(axis=1).all()  # best set: legal and never empty
        total += len(labels)
    assert total >= 300
