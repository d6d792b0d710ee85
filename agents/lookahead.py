"""Lookahead: greedy over the rest of its own turn (numba kernel, kbenv.engine.lookahead).

Each decision is valued by the agent's gold (+ 2 per tile, as for greedy) once the decision is made
and the rest of the turn is finished greedily, so a build that opens up better builds later in the
turn is preferred. Ties are broken uniformly at random by the agent's seeded generator. It simulates
nothing beyond its own turn and evaluates a determinized copy, so hidden cards play no part.
"""

from __future__ import annotations

import numpy as np

from kbenv.engine.lookahead import lookahead_action
from kbenv.engine.rng import seed_u32
from kbenv.view import PlayerView


class LookaheadAgent:
    name = "lookahead"

    def __init__(self, seed: int | None = None):
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        seed = 0 if seed is None else seed
        self.rng = np.random.default_rng(seed)
        self.tie_rng = np.array([seed_u32(seed)], dtype=np.int64)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        world = view.determinize(self.rng)
        action = int(lookahead_action(world.state, self.tie_rng, 0))
        if not action_mask[action]:  # pragma: no cover - guarded by tests of the kernel
            raise RuntimeError(f"lookahead chose illegal action {action}")
        return action
