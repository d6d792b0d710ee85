"""A read-only view of a game from one player's seat: what that player may see, and no more.

The view holds its own redacted copy of the game, made when the view is created: the hands hidden
from the player and the draw pile are taken out (only the multiset of unseen cards is kept, sorted,
so its order says nothing), the in-game generator is cleared, and the set-up loses its seed and any
hand-built hands or deck. The decisions taken so far are not kept. Nothing reachable from a view,
public or private, tells the hidden cards: two games that differ only in hidden cards give views
that are equal in every respect (tests/test_hidden_information.py checks this).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..engine import state as S
from ..engine.hidden import MAX_HIDDEN_SLOTS, MAX_UNSEEN, deal, redact
from ..engine.rng import seed_u32
from ..expansions.harvest.view import HarvestFacts, harvest_facts
from ..expansions.island.view import IslandFacts, island_facts
from ..expansions.registry import sides_of
from ..layout import Layout, layout_for
from ..observation import action_mask, observation_planes, observation_planes_v1
from ..safe_json import short_repr
from . import Game


def public_setup(setup):
    """The set-up without what fixes the hidden cards (seed, hand-built hands and deck)."""
    return replace(setup, seed=0, hands=None, deck=None)


def check_seat(game: Game, player) -> None:
    """Refuse anything but a seat of the game (an int, not a bool), naming the argument."""
    if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)) \
            or not 0 <= player < game.num_players:
        raise ValueError(f"player: expected a seat 0..{game.num_players - 1}, got {short_repr(player)}")


def redacted(game: Game, player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`player`'s copy of the game state with what they cannot see taken out (kbenv.engine.hidden.redact):
    (state, the slots emptied: hidden hands then hidden extra Crossroads cards, the unseen cards sorted)."""
    st = game.state.copy()
    slots = np.empty(MAX_HIDDEN_SLOTS, dtype=np.int64)
    unseen = np.empty(MAX_UNSEEN, dtype=np.int64)
    n_slots, n_cards = redact(st, player, slots, unseen)
    return st, slots[:n_slots], unseen[:n_cards]


def deal_unseen(st: np.ndarray, slots: np.ndarray, unseen: np.ndarray, rng: np.random.Generator) -> None:
    """Deal the unseen cards at random into a redacted state (the emptied slots, then the draw pile) and give
    it a new in-game generator: two draws from `rng` (a permutation, then a seed)."""
    order = rng.permutation(len(unseen))
    deal(st, slots, len(slots), unseen, len(unseen), order, seed_u32(int(rng.integers(1, 2**32))))


def determinized_state(game: Game, player: int, rng: np.random.Generator) -> np.ndarray:
    """The state of `PlayerView(game, player).determinize(rng)`, bit for bit and with the same draws from `rng`,
    without building the view and its game (for a search's roots)."""
    check_seat(game, player)
    st, slots, unseen = redacted(game, player)
    deal_unseen(st, slots, unseen, rng)
    return st


class PlayerView:
    """Public information plus the player's own hand; hidden cards are never exposed.

    Search agents get full games to simulate only through `determinize`, which deals the unseen
    cards anew.
    """

    __slots__ = ("_public", "_unseen", "_slots", "_hidden", "player")

    def __init__(self, game: Game, player: int):
        check_seat(game, player)
        self.player = int(player)
        st, slots, unseen = redacted(game, self.player)
        self._slots, self._unseen = tuple(int(x) for x in slots), tuple(int(c) for c in unseen)  # immutable
        self._hidden = frozenset(int(slot) - S.HAND for slot in self._slots if S.HAND <= slot < S.HAND + S.MAX_PLAYERS)
        self._public = Game(public_setup(game.setup), st)
        self._public._replayable = False

    @property
    def num_players(self) -> int:
        return self._public.num_players

    @property
    def current_player(self) -> int:
        return self._public.current_player

    @property
    def start_player(self) -> int:
        return self._public.start_player

    @property
    def phase(self) -> str:
        return self._public.phase

    @property
    def done(self) -> bool:
        return self._public.done

    @property
    def board(self) -> tuple[str, ...]:
        return self._public.board

    @property
    def cards(self) -> tuple[str, ...]:
        return self._public.cards

    @property
    def turn(self) -> int:
        return self._public.turn

    def hand(self, player: int) -> str | None:
        """A hand card if this player may see it (own hand, or the played card of the player to move)."""
        return self._public.hand(player)

    def hand_cards(self, player: int) -> list[str]:
        """The cards of a hand this player may see (hidden ones left out; `hand_size` counts them all)."""
        return self._public.hand_cards(player)

    def hand_size(self, player: int) -> int:
        """Cards in a player's hand, seen or not (public)."""
        st = self._public.state
        return int(player in self._hidden or st[S.HAND + player] != S.NO_CARD) + int(st[S.EXTRA_COUNT + player])

    def settlements(self, player: int) -> set[tuple[int, int]]:
        return self._public.settlements(player)

    def own_hexes(self, player: int) -> set[tuple[int, int]]:
        return self._public.own_hexes(player)

    def pieces(self, player: int) -> dict:
        """The player's pieces stored in slots (Game.pieces, one key per kind of catalogue.PIECE_KINDS): public."""
        return self._public.pieces(player)

    def piece_cells(self) -> dict[tuple[int, int], tuple[int, str]]:
        """Every slot-stored piece on the board with its owner and kind (Game.piece_cells): public."""
        return self._public.piece_cells()

    def harvest(self) -> HarvestFacts | None:
        """The public Harvest facts (scouts, Mayors rows, number tiles, Rovers sections, the silo phase; None
        without Harvest): kbenv.expansions.harvest.view."""
        return harvest_facts(self._public.state)

    def island(self) -> IslandFacts | None:
        """The public Island facts (side, rows, location hex with its tiles left, island lines marked for Mayors;
        None without the island): kbenv.expansions.island.view."""
        return island_facts(self._public)

    def facts(self) -> dict:
        """The public facts of each expansion in play that declares some (its side's `public_facts`: Harvest,
        the Island), by expansion name in catalogue order."""
        return {side.name: side.public_facts(self._public) for side in sides_of(self._public.expansions)
                if side.public_facts is not None}

    def warrior_zone(self) -> set[tuple[int, int]]:
        return self._public.warrior_zone()

    def tasks(self) -> tuple[str, ...]:
        return self._public.tasks()

    def fort_card(self) -> str | None:
        return self._public.fort_card()

    def supply(self, player: int) -> int:
        return self._public.supply(player)

    def tiles(self, player: int) -> list[tuple[str, tuple[int, int]]]:
        return self._public.tiles(player)

    def tiles_left(self, rc: tuple[int, int]) -> int:
        return self._public.tiles_left(rc)

    def location_hexes(self) -> list[tuple[int, int]]:
        return self._public.location_hexes()

    def walls(self) -> set[tuple[int, int]]:
        return self._public.walls()

    def caves(self) -> set[tuple[int, int]]:
        return self._public.caves()

    def capitols(self) -> set[tuple[int, int]]:
        return self._public.capitols()

    def nomad_spaces(self) -> dict:
        return self._public.nomad_spaces()

    def nomad_tiles(self, player: int) -> list[dict]:
        """Nomad tiles lie face up in front of their holder: public."""
        return self._public.nomad_tiles(player)

    def gold(self, player: int) -> int:
        return self._public.gold(player)

    def deck_size(self) -> int:
        return self._public.deck_size()

    def unseen_cards(self) -> list[str]:
        """The cards this player cannot see (draw pile and hidden hands) in card order (G C D F T): no deal order."""
        return [Game.card_letter(c) for c in self._unseen]

    def discard_pile(self) -> list[str]:
        return self._public.discard_pile()

    def removed_cards(self) -> list[str]:
        return self._public.removed_cards()

    def scores(self) -> list[dict]:
        return self._public.scores()

    @property
    def expansions(self) -> tuple[str, ...]:
        return self._public.expansions

    @property
    def action_size(self) -> int:
        return self._public.action_size

    def legal_mask(self) -> np.ndarray:
        return action_mask(self._public.state, self.player, self._public.action_size)

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def public_game(self) -> Game:
        """A copy of the public game (hidden hands and deck removed), e.g. for rendering."""
        return self._public.clone()

    def observation(self, hints: str = "none") -> np.ndarray:
        """The v0 observation (base game layout), optionally with hint planes."""
        return observation_planes(self._public.state, self.player, hints)

    def observation_v1(self) -> np.ndarray:
        """The kingdom_builder_v1 observation (every ruleset)."""
        return observation_planes_v1(self._public.state, self.player)

    def planes(self, layout: Layout | None = None) -> np.ndarray:
        """The observation in `layout` (kbenv.layout; default: the layout of the game's ruleset)."""
        layout = layout_for(self._public) if layout is None else layout
        return layout.planes(self._public.state, self.player)

    def determinize(self, rng: np.random.Generator) -> Game:
        """A full game consistent with this player's information: the unseen cards dealt at random.

        The game carries no seed, no history and no record: nothing in it comes from the hidden cards.
        """
        g = self._public.clone()
        deal_unseen(g.state, np.array(self._slots, dtype=np.int64), np.array(self._unseen, dtype=np.int64), rng)
        return g
