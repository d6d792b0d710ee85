"""Policies the environment layer itself needs: the random default opponent and the policy adapter."""

from __future__ import annotations

import numpy as np

from ..safe_json import short_repr
from ..setup import SetupError


class RandomPolicy:
    """Uniformly random legal decisions, seeded (also exported as `agents.RandomAgent`)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask: np.ndarray, view=None) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("no legal action to choose from")
        return int(legal[self.rng.integers(len(legal))])


def as_policy(opponent):
    """A callable (observation, action_mask, view) -> action from an agent object or a callable."""
    if hasattr(opponent, "act"):
        return opponent.act
    if callable(opponent):
        return opponent
    raise SetupError(f"opponents: an opponent must be an agent with .act or a callable, got {short_repr(opponent)}")
