"""A read-only view of a game from one player's seat: what that player may see, and no more."""

from __future__ import annotations

import numpy as np

from .game import Game
from .observation import action_mask, observation_planes


class PlayerView:
    """Public information plus the player's own hand; hidden cards are never exposed.

    Search agents get full games to simulate only through `determinize`, which re-deals everything
    the player cannot see.
    """

    __slots__ = ("_game", "player")

    def __init__(self, game: Game, player: int):
        self._game = game
        self.player = player

    @property
    def num_players(self) -> int:
        return self._game.num_players

    @property
    def current_player(self) -> int:
        return self._game.current_player

    @property
    def start_player(self) -> int:
        return self._game.start_player

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def done(self) -> bool:
        return self._game.done

    @property
    def board(self) -> tuple[str, ...]:
        return self._game.board

    @property
    def cards(self) -> tuple[str, ...]:
        return self._game.cards

    @property
    def turn(self) -> int:
        return self._game.turn

    def hand(self, player: int) -> str | None:
        """A hand card if this player may see it (own hand, or the played card of the player to move)."""
        if player == self.player or player not in self._game.hidden_from(self.player):
            return self._game.hand(player)
        return None

    def settlements(self, player: int) -> set[tuple[int, int]]:
        return self._game.settlements(player)

    def supply(self, player: int) -> int:
        return self._game.supply(player)

    def tiles(self, player: int) -> list[tuple[str, tuple[int, int]]]:
        return self._game.tiles(player)

    def tiles_left(self, rc: tuple[int, int]) -> int:
        return self._game.tiles_left(rc)

    def location_hexes(self) -> list[tuple[int, int]]:
        return self._game.location_hexes()

    def deck_size(self) -> int:
        return self._game.deck_size()

    def discard_pile(self) -> list[str]:
        return self._game.discard_pile()

    def removed_cards(self) -> list[str]:
        return self._game.removed_cards()

    def scores(self) -> list[dict]:
        return self._game.scores()

    def legal_mask(self) -> np.ndarray:
        return action_mask(self._game.state, self.player)

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def observation(self, hints: str = "none") -> np.ndarray:
        return observation_planes(self._game.state, self.player, hints)

    def determinize(self, rng: np.random.Generator) -> Game:
        """A full game consistent with this player's information (hidden cards dealt anew)."""
        return self._game.determinize(self.player, rng)
