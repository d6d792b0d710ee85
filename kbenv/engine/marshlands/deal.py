"""The Marshlands set-up's random part: the Scouts card's set-up (M-16, A-M10)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.codes import SWAMP_CARD_BASE
from ...catalogue import CARD_ID, RULE_BIT
from ..rng import draw_below
from ..state import (
    CARDS,
    DECK_COUNT,
    HAND,
    MARSH_DECK,
    MARSH_PILE_SIZE,
    MARSH_REMOVED,
    NO_CARD,
    NUM_PLAYERS,
    REMOVED_COUNT,
    REMOVED_TERRAIN,
    RULE_FLAGS,
)

RULE_SCOUTS_KEEP_HANDS = RULE_BIT["scouts_keep_dealt_hands"]
SCOUTS_CARD = CARD_ID["scouts"]


@njit(cache=True, inline="always")
def scouts_in_play(st) -> bool:
    for k in range(3):
        if st[CARDS + k] == SCOUTS_CARD:
            return True
    return False


@njit(cache=True, inline="always")
def scouts_setup(st, rng) -> None:
    """The Scouts set-up (M-16, A-M10): reveal the top card of the pile; its terrain (a swamp card's other
    terrain) leaves the game with its 5 cards and its swamp card; the pile is shuffled again. Default (a):
    hand cards of that terrain are removed too and replaced from the new pile; flag scouts_keep_dealt_hands
    (b) keeps the hands."""
    top = st[MARSH_DECK + st[DECK_COUNT] - 1]
    x = top - SWAMP_CARD_BASE if top >= SWAMP_CARD_BASE else top
    st[REMOVED_TERRAIN] = x + 1
    keep = np.empty(MARSH_PILE_SIZE, dtype=np.int64)
    n_keep = 0
    for k in range(st[DECK_COUNT]):
        card = st[MARSH_DECK + k]
        if card == x or card == SWAMP_CARD_BASE + x:
            st[MARSH_REMOVED + st[REMOVED_COUNT]] = card
            st[REMOVED_COUNT] += 1
        else:
            keep[n_keep] = card
            n_keep += 1
    replace = st[RULE_FLAGS] & RULE_SCOUTS_KEEP_HANDS == 0
    for p in range(st[NUM_PLAYERS]):
        card = st[HAND + p]
        if replace and (card == x or card == SWAMP_CARD_BASE + x):
            st[MARSH_REMOVED + st[REMOVED_COUNT]] = card
            st[REMOVED_COUNT] += 1
            st[HAND + p] = NO_CARD
    for i in range(n_keep - 1, 0, -1):
        j = draw_below(rng, i + 1)
        keep[i], keep[j] = keep[j], keep[i]
    for k in range(MARSH_PILE_SIZE):
        st[MARSH_DECK + k] = keep[k] if k < n_keep else 0
    st[DECK_COUNT] = n_keep
    for p in range(st[NUM_PLAYERS]):
        if st[HAND + p] == NO_CARD and st[DECK_COUNT] > 0:
            st[DECK_COUNT] -= 1
            st[HAND + p] = st[MARSH_DECK + st[DECK_COUNT]]
            st[MARSH_DECK + st[DECK_COUNT]] = 0
