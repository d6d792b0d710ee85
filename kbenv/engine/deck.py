"""Terrain cards: drawing, the discard pile and reshuffling it into a new draw pile."""

from __future__ import annotations

from numba import njit

from .rng import rand_below
from .state import DECK, DECK_COUNT, DISCARD, DISCARD_COUNT, NO_CARD, REMOVED, REMOVED_COUNT, RNG


@njit(cache=True)
def reshuffle_discard(st) -> None:
    """Shuffle the discard pile and make it the new draw pile (Fisher-Yates on the state's RNG)."""
    n = st[DISCARD_COUNT]
    for i in range(n):
        st[DECK + i] = st[DISCARD + i]
    st[DECK_COUNT] = n
    st[DISCARD_COUNT] = 0
    for i in range(n - 1, 0, -1):
        j = rand_below(st, RNG, i + 1)
        tmp = st[DECK + i]
        st[DECK + i] = st[DECK + j]
        st[DECK + j] = tmp


@njit(cache=True)
def draw_card(st) -> int:
    """Top card of the draw pile (reshuffling the discard pile if needed); NO_CARD if none is left."""
    if st[DECK_COUNT] == 0:
        reshuffle_discard(st)
    if st[DECK_COUNT] == 0:
        return NO_CARD
    st[DECK_COUNT] -= 1
    return st[DECK + st[DECK_COUNT]]


@njit(cache=True)
def discard_card(st, card: int) -> None:
    if card != NO_CARD:
        st[DISCARD + st[DISCARD_COUNT]] = card
        st[DISCARD_COUNT] += 1


@njit(cache=True)
def remove_card(st, card: int) -> None:
    """Take a card out of the game (the no-eligible-hex exception)."""
    if card != NO_CARD:
        st[REMOVED + st[REMOVED_COUNT]] = card
        st[REMOVED_COUNT] += 1
