"""Hidden cards as kernels: which hands a seat cannot see, redacting them, and dealing them anew.

The Python objects (kbenv.game.Game.hidden_from, kbenv.game.view.PlayerView) and the search's roots
(kbenv.game.view.determinized_state) use these kernels, so there is one rule for what a seat may see:
- a hand is hidden from every other seat, except the hand of the player to move, whose card is
  played face up, unless that player holds extra Crossroads cards and has not chosen the turn's
  terrain yet (A-C8);
- extra Crossroads cards are hidden from every other seat (their number is public);
- the draw pile is hidden from everyone (a Marshlands game's pile is the MARSH_DECK range).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .deck import deck_off, deck_size
from .state import (
    CURRENT,
    DECK_COUNT,
    EXTRA_CARDS,
    EXTRA_COUNT,
    HAND,
    MARSH_PILE_SIZE,
    MAX_EXTRA_CARDS,
    MAX_PLAYERS,
    NO_CARD,
    NUM_PLAYERS,
    PHASE,
    PHASE_OVER,
    RNG,
    SCRATCH,
    SCRATCH_END,
    TERRAIN_FIXED,
)

# Room for the slots that a redaction empties (every hand and every extra card) and for the unseen cards.
MAX_HIDDEN_SLOTS = MAX_PLAYERS * (1 + MAX_EXTRA_CARDS)
MAX_UNSEEN = MARSH_PILE_SIZE + MAX_HIDDEN_SLOTS


@njit(cache=True)
def hidden_seats_into(st, player: int, out) -> int:
    """Seats whose hand card `player` cannot see, in seat order, into `out`; returns how many."""
    if st[PHASE] == PHASE_OVER:
        return 0
    mover = st[CURRENT]
    open_hand = mover != player and st[EXTRA_COUNT + mover] > 0 and st[TERRAIN_FIXED] == 0
    n = 0
    for p in range(st[NUM_PLAYERS]):
        if p != player and (p != mover or open_hand):
            out[n] = p
            n += 1
    return n


@njit(cache=True)
def hidden_extra_seats_into(st, player: int, out) -> int:
    """Seats whose extra Crossroads cards `player` cannot see (every other seat holding some); returns how many."""
    if st[PHASE] == PHASE_OVER:
        return 0
    n = 0
    for p in range(st[NUM_PLAYERS]):
        if p != player and st[EXTRA_COUNT + p] > 0:
            out[n] = p
            n += 1
    return n


@njit(cache=True)
def redact(st, player: int, slots, unseen) -> tuple[int, int]:
    """Take out of `st` (in place) what `player` cannot see: hidden hands and extra cards become NO_CARD, the
    draw pile, the generator and the scratch space zero. `slots` receives the emptied slots (hands of the hidden
    seats in seat order, then their extra cards), `unseen` the unseen cards sorted; returns (slots, cards)."""
    seats = np.empty(MAX_PLAYERS, dtype=np.int64)
    n_slots = 0
    for i in range(hidden_seats_into(st, player, seats)):
        if st[HAND + seats[i]] != NO_CARD:
            slots[n_slots] = HAND + seats[i]
            n_slots += 1
    for i in range(hidden_extra_seats_into(st, player, seats)):
        for k in range(st[EXTRA_COUNT + seats[i]]):
            slots[n_slots] = EXTRA_CARDS + seats[i] * MAX_EXTRA_CARDS + k
            n_slots += 1
    deck = deck_off(st)
    n_cards = 0
    for i in range(st[DECK_COUNT]):
        unseen[n_cards] = st[deck + i]
        n_cards += 1
    for i in range(n_slots):
        unseen[n_cards] = st[slots[i]]
        n_cards += 1
        st[slots[i]] = NO_CARD
    unseen[:n_cards].sort()
    size = deck_size(st)
    for i in range(size):
        st[deck + i] = 0
    st[RNG] = 0
    for i in range(SCRATCH, SCRATCH_END):
        st[i] = 0
    return n_slots, n_cards


@njit(cache=True)
def deal(st, slots, n_slots: int, unseen, n_cards: int, order, rng_state: int) -> None:
    """Deal `unseen[order]` into a redacted state: the last card to the first emptied slot, and so on, what is
    left to the draw pile (bottom first); the state's generator becomes `rng_state` (non-zero)."""
    top = n_cards
    for i in range(n_slots):
        top -= 1
        st[slots[i]] = unseen[order[top]]
    deck = deck_off(st)
    for i in range(top):
        st[deck + i] = unseen[order[i]]
    st[RNG] = rng_state
