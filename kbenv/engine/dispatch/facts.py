"""What the expansions in play add that generic modules read: extra piles, pieces, hexes and kinds of decision.

Plain predicates on the state, with no kernel of an expansion behind them, so that every module may import this
one (it imports only the catalogue, the state and the traits): the deck and the piece lists too, which the board
events sit above (see kbenv.engine.dispatch).
"""

from __future__ import annotations

from numba import njit

from ...board.geometry import NUM_CELLS, NUM_HEXES
from ...catalogue import HARVEST, ISLAND, MARSHLANDS
from ..state import EXPANSIONS
from ..traits import POWER_EXPANSION_BIT


@njit(cache=True, inline="always")
def swamp_cards(st) -> bool:
    """The terrain deck holds the 5 swamp cards (30 cards, M-4) and lives in the Marshlands piles."""
    return st[EXPANSIONS] & MARSHLANDS != 0


@njit(cache=True, inline="always")
def has_scouts(st) -> bool:
    """Scouts may stand on the board (Harvest, H-9; they close their hexes for the turn, A-H4)."""
    return st[EXPANSIONS] & HARVEST != 0


@njit(cache=True, inline="always")
def has_off_board_hexes(st) -> bool:
    """Hexes from NUM_HEXES on are in play (the island's), with action ids from ISLAND_ACTION_BASE."""
    return st[EXPANSIONS] & ISLAND != 0


@njit(cache=True, inline="always")
def hexes_in_play(st) -> int:
    """How many hex ids the game's board uses: NUM_HEXES, or NUM_CELLS with off-board hexes."""
    return NUM_CELLS if st[EXPANSIONS] & ISLAND else NUM_HEXES


@njit(cache=True, inline="always")
def power_in_play(st, power: int) -> bool:
    """The expansion of this power code is in play (the `expansion` trait)."""
    return st[EXPANSIONS] & POWER_EXPANSION_BIT[power] == POWER_EXPANSION_BIT[power]


@njit(cache=True, inline="always")
def has_options(st) -> bool:
    """An expansion in play has option-1 / option-2 decisions (Harvest: the silo, the number tiles, a repeat)."""
    return st[EXPANSIONS] & HARVEST != 0


@njit(cache=True, inline="always")
def has_reactions(st) -> bool:
    """An expansion in play lets players react in another's turn (Marshlands, M-8: frames of reactions)."""
    return st[EXPANSIONS] & MARSHLANDS != 0
