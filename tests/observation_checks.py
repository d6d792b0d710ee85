"""Readings of observation v1 shared by the observation tests (tests/surfaces/test_observations.py and the
expansions' tests/test_*_observation.py): the feature vector, one named feature, and whether a state's packed
observation unpacks to the float planes."""

from __future__ import annotations

import numpy as np

from kbenv.board.geometry import NUM_HEXES
from kbenv.engine import observe_v1 as O
from kbenv.engine.packed import pack_into
from kbenv.observation import observation_planes_v1
from kbenv.packed import layout_of, split


def features(obs: np.ndarray) -> np.ndarray:
    """The v1 feature vector (the features channel, flattened, cut to its features)."""
    return obs[O.CH_FEATURES_V1].reshape(NUM_HEXES)[: O.NUM_FEATURES_V1]


def feature(obs: np.ndarray, name: str) -> list[float]:
    """The values of the named v1 feature (docs/api.md's table)."""
    size = dict((n, k) for n, k, _ in O.V1_FEATURES)[name]
    return [float(x) for x in features(obs)[O.F1[name] : O.F1[name] + size]]


def packed_equals_float(st: np.ndarray, player: int) -> bool:
    """The state's packed v1 observation for `player` unpacks to its float planes, byte for byte."""
    layout = layout_of(True)
    buffer = layout.empty(1)
    bits, values = split(buffer, layout)
    pack_into(st, player, bits[0], values[0], True, 0)
    return layout.unpack(buffer.view(np.uint8))[0].tobytes() == observation_planes_v1(st, player).tobytes()
