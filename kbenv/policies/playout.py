"""Whole games inside one numba call: uniformly random playouts for benchmarks and search."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..board.bitset import WORDS, nth_hex, popcount
from ..board.geometry import NUM_HEXES
from ..catalogue import ISLAND_ACTION_BASE
from ..engine.actions import apply_unchecked
from ..engine.borrow import borrowed
from ..engine.legal import (
    DONE,
    END_TURN,
    OPTION_1,
    POWER_ACTION,
    SCRATCH_LEGAL,
    done_legal,
    end_turn_legal,
    legal_hexes,
    legal_powers,
    option_bits,
)
from ..engine.rng import rand_below
from ..engine.state import EXPANSIONS, PHASE, PHASE_OVER
from ..parallel import twin_kernels


@njit(cache=True)
def random_legal_action(st, rng_state, rng_index: int) -> int:
    """A uniformly random legal action (-1 if there is none)."""
    st = borrowed(st)
    rng_state = borrowed(rng_state)
    out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    legal_hexes(st, out)
    n_hex = popcount(out)
    powers = legal_powers(st)
    n_pow = 0
    rest = powers
    while rest != 0:  # count the set bits
        rest &= rest - 1
        n_pow += 1
    n_end = 1 if end_turn_legal(st) else 0
    n_done = 0
    options = 0  # option-1 / option-2 (Harvest: silo build / move, number tiles take / return)
    if st[EXPANSIONS] != 0:
        n_done = 1 if done_legal(st) else 0
        options = option_bits(st)
    n_opt = (options & 1) + (options >> 1 & 1)
    total = n_hex + n_pow + n_end + n_opt + n_done
    if total == 0:
        return -1
    k = rand_below(rng_state, rng_index, total)
    if k < n_hex:
        h = nth_hex(out, k)
        return h if h < NUM_HEXES else ISLAND_ACTION_BASE + h - NUM_HEXES  # an island hex has an action of its own
    k -= n_hex
    if k < n_pow:
        power = 0
        while True:
            if (powers >> power) & 1:
                if k == 0:
                    return POWER_ACTION[power]
                k -= 1
            power += 1
    k -= n_pow
    if k < n_end:
        return END_TURN
    k -= n_end
    if k < n_opt:  # without options the choices keep their places (random streams of earlier rulesets unchanged)
        return OPTION_1 if k == 0 and options & 1 else OPTION_1 + 1
    return DONE


@njit(cache=True)
def random_playout(st, rng_state, rng_index: int, max_decisions: int) -> int:
    """Play random legal decisions until the game ends; return the number of decisions."""
    st = borrowed(st)
    rng_state = borrowed(rng_state)
    n = 0
    while st[PHASE] != PHASE_OVER and n < max_decisions:
        a = random_legal_action(st, rng_state, rng_index)
        if a < 0:
            break
        apply_unchecked(st, a)
        n += 1
    return n


@twin_kernels(min_rows=2, rows_arg=0)
def random_playouts_batch(states, rng_state, max_decisions: int):
    """Random playouts of every game in a batch (one row each), in parallel; decisions per game.

    A whole game is about 100 microseconds, so two rows already pay for a parallel region.
    """
    counts = np.zeros(states.shape[0], dtype=np.int64)
    for i in prange(states.shape[0]):
        counts[i] = random_playout(states[i], rng_state, i, max_decisions)
    return counts
