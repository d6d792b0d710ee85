"""Whole games inside one numba call: uniformly random playouts for benchmarks and search."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..board.bitset import WORDS, nth_hex, popcount
from ..board.codes import NUM_POWERS
from .actions import apply_unchecked
from .legal import END_TURN, SCRATCH_LEGAL, TILE_ACTION_BASE, end_turn_legal, legal_hexes, legal_powers
from .rng import rand_below
from .state import PHASE, PHASE_OVER


@njit(cache=True)
def random_legal_action(st, rng_state, rng_index: int) -> int:
    """A uniformly random legal action (-1 if there is none)."""
    out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    legal_hexes(st, out)
    n_hex = popcount(out)
    powers = legal_powers(st)
    n_pow = 0
    for k in range(NUM_POWERS):
        n_pow += (powers >> k) & 1
    n_end = 1 if end_turn_legal(st) else 0
    total = n_hex + n_pow + n_end
    if total == 0:
        return -1
    k = rand_below(rng_state, rng_index, total)
    if k < n_hex:
        return nth_hex(out, k)
    k -= n_hex
    if k < n_pow:
        for power in range(NUM_POWERS):
            if (powers >> power) & 1:
                if k == 0:
                    return TILE_ACTION_BASE + power
                k -= 1
    return END_TURN


@njit(cache=True)
def random_playout(st, rng_state, rng_index: int, max_decisions: int) -> int:
    """Play random legal decisions until the game ends; return the number of decisions."""
    n = 0
    while st[PHASE] != PHASE_OVER and n < max_decisions:
        a = random_legal_action(st, rng_state, rng_index)
        if a < 0:
            break
        apply_unchecked(st, a)
        n += 1
    return n


@njit(cache=True, parallel=True)
def random_playouts_batch(states, rng_state, max_decisions: int):
    """Random playouts of every game in a batch (one row each), in parallel; decisions per game."""
    counts = np.zeros(states.shape[0], dtype=np.int64)
    for i in prange(states.shape[0]):
        counts[i] = random_playout(states[i], rng_state, i, max_decisions)
    return counts
