"""Checks on a finished `play_game` result shared by the agent and training tests: the record replays
through the engine to the same final gold, and the winners are players with the most gold; and hidden-card
twins of a game for the tests that no agent sees what its player cannot, and random positions to check them in."""

from __future__ import annotations

import numpy as np

from kbenv import Game
from kbenv.engine import state as S


def assert_a_finished_game(result, expansions: list[str] | None = None) -> Game:
    """The result's record replays (every decision legal) to a finished game with the result's gold."""
    game = Game.from_record(result.record)
    assert game.done
    assert list(game.expansions) == list(expansions or [])
    assert result.decisions == len(result.record["actions"]) == len(game.actions) > 0
    assert [int(x) for x in game.score_table()[:, -1]] == result.gold
    assert len(result.gold) == game.num_players == len(result.seats)
    best = max(result.gold)
    assert result.winners and all(result.gold[w] == best for w in result.winners)
    return game


class Recording:
    """Wraps an agent and keeps every (mask, action) it was asked for, to check that each action was legal."""

    def __init__(self, agent):
        self.agent = agent
        self.choices: list[tuple[np.ndarray, int]] = []

    def reset(self, seed: int | None = None) -> None:
        if hasattr(self.agent, "reset"):
            self.agent.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view) -> int:
        action = self.agent.act(observation, action_mask, view)
        self.choices.append((np.asarray(action_mask).copy(), int(action)))
        return action

    def assert_all_legal(self, at_least: int) -> None:
        assert len(self.choices) >= at_least, len(self.choices)
        for mask, action in self.choices:
            assert 0 <= action < len(mask) and mask[action], action


def swap_hidden_cards(game: Game, viewer: int) -> Game:
    """A copy that differs only in what `viewer` cannot see: the other hands and the deck order."""
    other = game.clone()
    st = other.state
    deck = st[S.DECK : S.DECK + st[S.DECK_COUNT]].copy()
    for p in game.hidden_from(viewer):
        k = int(np.flatnonzero(deck != st[S.HAND + p])[0])
        st[S.HAND + p], deck[k] = deck[k], st[S.HAND + p]
    st[S.DECK : S.DECK + len(deck)] = deck[::-1]
    assert other.state_key() != game.state_key()
    return other


def played_game(seed: int, steps: int, num_players: int = 3, expansions: list[str] | None = None) -> Game:
    """A game after `steps` uniformly random legal decisions (fewer if it ends), seeded."""
    game = Game.new(num_players, seed=seed, expansions=expansions)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    return game
