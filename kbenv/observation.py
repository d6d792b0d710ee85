"""Observations for agents: the planes of kbenv.engine.observe (plus optional hints) and the action mask."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .board.geometry import NUM_HEXES
from .engine.legal import ACTION_SIZE, legal_mask_into
from .engine.observe import CH_FEATURES, NUM_CHANNELS, NUM_FEATURES, observe_into
from .engine.observe_v1 import OBSERVATION_SHAPE_V1, observe_v1_into
from .engine.state import DECIDER, PHASE, PHASE_OVER
from .policies.hints import (
    CH_HINT_VALUE,
    F_HINT_BEST,
    F_HINT_VALUE,
    HINT_CHANNELS,
    HINT_KINDS,
    hints_into,
)
from .safe_json import short_repr

OBSERVATION_SHAPE = (NUM_CHANNELS, 20, 20)


def hint_code(hints: str) -> int:
    """The kernel code of a hint kind; ValueError naming the option for anything else."""
    if hints not in HINT_KINDS:
        raise ValueError(f"hints: expected one of {', '.join(HINT_KINDS)}, got {short_repr(hints)}")
    return HINT_KINDS.index(hints)


def observation_shape(hints: str = "none") -> tuple[int, int, int]:
    """(C, 20, 20): the standard planes, plus two hint planes unless hints is 'none'."""
    return (NUM_CHANNELS + (HINT_CHANNELS if hint_code(hints) else 0), 20, 20)


def observation_space(hints: str = "none") -> spaces.Box:
    """The Box of observations: [0, 1] everywhere except the signed hint values in [-1, 1]."""
    shape = observation_shape(hints)
    low = np.zeros(shape, dtype=np.float32)
    if hint_code(hints):
        low[CH_HINT_VALUE] = -1.0
        features = low[CH_FEATURES].reshape(NUM_HEXES)
        features[F_HINT_VALUE:F_HINT_BEST] = -1.0
    return spaces.Box(low, np.ones(shape, dtype=np.float32), dtype=np.float32)


def observation_planes(state: np.ndarray, player: int, hints: str = "none") -> np.ndarray:
    """A fresh (C, 20, 20) float32 array: the game from `player`'s point of view."""
    code = hint_code(hints)
    out = np.empty(observation_shape(hints), dtype=np.float32)
    observe_into(state, player, out)
    if code:  # a Python-level branch: without hints the hint kernels are never compiled
        hints_into(state, player, out, code)
    return out


def action_mask(state: np.ndarray, player: int, size: int = ACTION_SIZE) -> np.ndarray:
    """The legal actions of `player` (all zero unless it is that player's decision); `size` is 409 for the
    v0 layout or ACTION_SIZE_V1."""
    mask = np.zeros(size, dtype=np.int8)
    if state[PHASE] != PHASE_OVER and state[DECIDER] == player:
        legal_mask_into(state, mask)
    return mask


def observation_planes_v1(state: np.ndarray, player: int) -> np.ndarray:
    """A fresh v1 observation (kbenv.engine.observe_v1) of `player`."""
    out = np.empty(OBSERVATION_SHAPE_V1, dtype=np.float32)
    observe_v1_into(state, player, out)
    return out


def observation_space_v1(channels: int | None = None) -> spaces.Box:
    """The Box of v1 observations: every value in [0, 1]. `channels`: a prefix of the layout (networks made
    before Crossroads read the first 35 channels, which mean the same as they did)."""
    shape = OBSERVATION_SHAPE_V1 if channels is None else (int(channels), *OBSERVATION_SHAPE_V1[1:])
    return spaces.Box(0.0, 1.0, shape, dtype=np.float32)


def features(observation: np.ndarray) -> np.ndarray:
    """The scalar features packed into the features plane: (..., NUM_FEATURES)."""
    plane = observation[..., CH_FEATURES, :, :]
    return plane.reshape(*plane.shape[:-2], NUM_HEXES)[..., :NUM_FEATURES]
