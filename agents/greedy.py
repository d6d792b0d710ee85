"""Greedy: the decision that most improves its own current score (numba kernel, kbenv.policies.greedy).

Value of a decision = own gold on the three cards in play and castles right after it, + 2 per location
tile held, + 0.5 for activating a power; ties broken uniformly at random by the agent's seeded
generator. It evaluates a determinized copy of the game (hidden cards re-dealt), so it never uses
what its player cannot see; its choice does not depend on hidden cards anyway.
"""

from __future__ import annotations

import numpy as np

from kbenv.engine.rng import seed_u32
from kbenv.game.view import PlayerView
from kbenv.policies.greedy import greedy_action


class KernelAgent:
    """An agent whose decision is a numba policy kernel(state, rng_state, rng_index) on a determinized copy."""

    name = "kernel"
    kernel = None  # staticmethod(numba kernel) in subclasses

    def __init__(self, seed: int | None = None):
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        seed = 0 if seed is None else seed
        self.rng = np.random.default_rng(seed)
        self.tie_rng = np.array([seed_u32(seed)], dtype=np.int64)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        world = view.determinize(self.rng)
        action = int(self.kernel(world.state, self.tie_rng, 0))
        if not action_mask[action]:  # pragma: no cover - guarded by tests of the kernel
            raise RuntimeError(f"{self.name} chose illegal action {action}")
        return action


class GreedyAgent(KernelAgent):
    name = "greedy"
    kernel = staticmethod(greedy_action)
