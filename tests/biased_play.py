"""Random play biased towards an expansion's decisions, shared by the expansions' game helpers
(tests/marsh_games.py, tests/harvest_games.py, tests/island_games.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np

from kbenv import Game


def biased_pick(game: Game, rng: np.random.Generator, bias: float, preferred: Collection[int]) -> int:
    """A random legal action; with probability `bias` one of the `preferred` actions when one is legal."""
    legal = game.legal_actions()
    wanted = [a for a in legal if a in preferred]
    if wanted and rng.random() < bias:
        return int(rng.choice(wanted))
    return int(rng.choice(legal))


def biased_play_until(game: Game, rng: np.random.Generator, wanted: Callable[[Game], bool],
                      preferred: Collection[int], bias: float, limit: int) -> bool:
    """Play biased random decisions until `wanted(game)` or the end; whether `wanted` holds."""
    for _ in range(limit):
        if wanted(game):
            return True
        if game.done:
            return False
        game.step(biased_pick(game, rng, bias, preferred))
    return wanted(game)
