"""The agent protocol shared by random, scripted, search and learned agents."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from kbenv.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    """Chooses one decision from what its player may see.

    `observation` is the (C, 20, 20) planes of kbenv's observation, `action_mask` the int8 legal
    mask, `view` a read-only `PlayerView` of the public game (with `determinize` for search).
    """

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...
