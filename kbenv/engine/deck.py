"""Terrain cards: drawing, the discard pile and reshuffling it into a new draw pile.

A Marshlands game keeps its piles in the MARSH_* ranges (30 cards, M-4); every other game in DECK, DISCARD
and REMOVED (25). The counts are DECK_COUNT, DISCARD_COUNT and REMOVED_COUNT for both.
"""

from __future__ import annotations

from numba import njit

from ..board.bitset import WORDS
from ..board.codes import SWAMP_CARD_BASE
from ..catalogue import MARSHLANDS
from .dispatch import facts
from .rng import rand_below
from .state import (
    DECK,
    DECK_COUNT,
    DECK_SIZE,
    DISCARD,
    DISCARD_COUNT,
    MARSH_DECK,
    MARSH_DISCARD,
    MARSH_PILE_SIZE,
    MARSH_REMOVED,
    NO_CARD,
    OCCUPIED,
    REMOVED,
    REMOVED_COUNT,
    REMOVED_TERRAIN,
    RNG,
    TERRAIN_MASKS,
)


@njit(cache=True)
def deck_off(st) -> int:
    """Offset of the draw pile (bottom first)."""
    return MARSH_DECK if facts.swamp_cards(st) else DECK


@njit(cache=True)
def discard_off(st) -> int:
    return MARSH_DISCARD if facts.swamp_cards(st) else DISCARD


@njit(cache=True)
def removed_off(st) -> int:
    return MARSH_REMOVED if facts.swamp_cards(st) else REMOVED


def pile_size(expansions: int) -> int:
    """Room of each pile for a ruleset's expansion bits."""
    return MARSH_PILE_SIZE if expansions & MARSHLANDS else DECK_SIZE


@njit(cache=True, inline="always")
def reshuffle_discard(st) -> None:
    """Shuffle the discard pile and make it the new draw pile (Fisher-Yates on the state's RNG)."""
    deck = deck_off(st)
    discard = discard_off(st)
    n = st[DISCARD_COUNT]
    for i in range(n):
        st[deck + i] = st[discard + i]
    st[DECK_COUNT] = n
    st[DISCARD_COUNT] = 0
    for i in range(n - 1, 0, -1):
        j = rand_below(st, RNG, i + 1)
        tmp = st[deck + i]
        st[deck + i] = st[deck + j]
        st[deck + j] = tmp


@njit(cache=True)
def draw_card(st) -> int:
    """Top card of the draw pile (reshuffling the discard pile if needed); NO_CARD if none is left."""
    if st[DECK_COUNT] == 0:
        reshuffle_discard(st)
    if st[DECK_COUNT] == 0:
        return NO_CARD
    st[DECK_COUNT] -= 1
    return st[deck_off(st) + st[DECK_COUNT]]


@njit(cache=True)
def discard_card(st, card: int) -> None:
    """A played card to the discard pile; a card of the terrain the Scouts set-up removed (a hand card kept under
    the flag scouts_keep_dealt_hands) leaves the game instead (M-16: "remove all terrain cards of this type from
    the game"), so it never returns to the draw pile."""
    if card == NO_CARD:
        return
    gone = st[REMOVED_TERRAIN] - 1
    if gone >= 0 and (card == gone or card == SWAMP_CARD_BASE + gone):
        remove_card(st, card)
        return
    st[discard_off(st) + st[DISCARD_COUNT]] = card
    st[DISCARD_COUNT] += 1


@njit(cache=True, inline="always")
def remove_card(st, card: int) -> None:
    """Take a card out of the game (the no-eligible-hex exception)."""
    if card != NO_CARD:
        st[removed_off(st) + st[REMOVED_COUNT]] = card
        st[REMOVED_COUNT] += 1


@njit(cache=True, inline="always")
def card_has_free_hex(st, card: int) -> bool:
    """Some hex of the card's terrain is free (read by offsets, not views: this runs after every build)."""
    terrain_at = TERRAIN_MASKS + card * WORDS
    for i in range(WORDS):
        if st[terrain_at + i] & ~st[OCCUPIED + i]:
            return True
    return False


@njit(cache=True, inline="always")
def deck_size(st) -> int:
    """The cards of the game's terrain deck: DECK_SIZE, or MARSH_PILE_SIZE with the swamp cards (M-4)."""
    return MARSH_PILE_SIZE if facts.swamp_cards(st) else DECK_SIZE
