"""The position round-trip checks shared by the round trip of every ruleset (tests/surfaces/test_roundtrip.py) and
the other tests that write a game as a position (tests/test_soak.py, tests/test_marsh_powers.py): a game
written as a position and read back, random play, and the same future for the original and the rebuilt game."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np

from kbenv import Game
from kbenv.positions.files import game_from_position

Choose = Callable[[Game, np.random.Generator], int]


def uniform(game: Game, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    return int(rng.choice(game.legal_actions()))


def reread(game: Game) -> Game:
    """The game written as a position, through JSON text, and read back."""
    return game_from_position(json.loads(json.dumps(game.to_position())))


def play(game: Game, rng: np.random.Generator, decisions: int, choose: Choose = uniform) -> Game:
    """Up to `decisions` decisions chosen by `choose` (fewer when the game ends)."""
    for _ in range(decisions):
        if game.done:
            break
        game.step(choose(game, rng))
    return game


def assert_same_future(original: Game, rebuilt: Game, rng: np.random.Generator,
                       canonical: Callable[[Game], np.ndarray], choose: Choose | None = None) -> None:
    """Same state (`canonical`), scores, location hexes, decider and phase now, the same masks at every step of the
    same random future (uniform over the mask, or `choose` on the original), and the same end."""
    np.testing.assert_array_equal(canonical(rebuilt), canonical(original))
    assert rebuilt.scores() == original.scores()
    assert rebuilt.location_hexes() == original.location_hexes()
    assert (rebuilt.decider, rebuilt.phase) == (original.decider, original.phase)
    while not original.done:
        mask = original.legal_mask()
        np.testing.assert_array_equal(rebuilt.legal_mask(), mask)
        action = int(rng.choice(np.flatnonzero(mask))) if choose is None else choose(original, rng)
        original.step(action)
        rebuilt.step(action)
    assert rebuilt.done
    assert rebuilt.scores() == original.scores()
    np.testing.assert_array_equal(canonical(rebuilt), canonical(original))
