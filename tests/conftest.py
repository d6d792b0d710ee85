"""Shared helpers for the engine tests."""

from __future__ import annotations

import numpy as np

from kbenv import Game


def play_random(game: Game, rng: np.random.Generator, max_decisions: int = 5000) -> Game:
    """Play uniformly random legal decisions to the end of the game."""
    for _ in range(max_decisions):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    return game
