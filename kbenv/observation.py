"""Observations for agents: the planes of kbenv.engine.observe plus the action mask."""

from __future__ import annotations

import numpy as np

from .engine.legal import ACTION_SIZE, legal_mask_into
from .engine.observe import CH_FEATURES, NUM_CHANNELS, NUM_FEATURES, observe_into
from .engine.state import CURRENT, PHASE, PHASE_OVER

OBSERVATION_SHAPE = (NUM_CHANNELS, 20, 20)


def observation_planes(state: np.ndarray, player: int) -> np.ndarray:
    """A fresh (C, 20, 20) float32 array: the game from `player`'s point of view."""
    out = np.empty(OBSERVATION_SHAPE, dtype=np.float32)
    observe_into(state, player, out)
    return out


def action_mask(state: np.ndarray, player: int) -> np.ndarray:
    """The legal actions of `player` (all zero unless it is that player's decision)."""
    mask = np.zeros(ACTION_SIZE, dtype=np.int8)
    if state[PHASE] != PHASE_OVER and state[CURRENT] == player:
        legal_mask_into(state, mask)
    return mask


def features(observation: np.ndarray) -> np.ndarray:
    """The scalar features packed into the features plane: (..., NUM_FEATURES)."""
    plane = observation[..., CH_FEATURES, :, :]
    return plane.reshape(*plane.shape[:-2], 400)[..., :NUM_FEATURES]
