"""The agent protocol shared by random, scripted, search and learned agents."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from kbenv.game.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    """Chooses one decision from what its player may see.

    `observation` is the (C, 20, 20) planes of kbenv's observation, `action_mask` the int8 legal
    mask, `view` a read-only `PlayerView` of the public game (with `determinize` for search).

    A searching agent may also have `stop` (a `threading.Event`, None by default): once it is set, the search
    under way ends at its next simulation and `act` returns at once (`kbenv serve` sets it when it stops
    waiting for the decision, so an abandoned search does not keep its thread).
    """

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...
