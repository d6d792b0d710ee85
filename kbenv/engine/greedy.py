"""The greedy policy inside numba: the decision that most improves the mover's own current score.

Value of a decision = the mover's gold on the three cards in play plus castles right after it, plus
TILE_VALUE per location tile held (a small heuristic: tiles give extra builds later), plus
POWER_BONUS for activating a power (its value only shows after the target is chosen).  Ties are
broken uniformly at random with the caller's seeded generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import WORDS, nth_hex, popcount
from ..board.codes import NUM_POWERS
from .actions import apply_unchecked
from .legal import END_TURN, SCRATCH_LEGAL, TILE_ACTION_BASE, end_turn_legal, legal_hexes, legal_powers
from .rng import rand_below
from .scoring import score_card, score_castles
from .state import CARDS, CURRENT, NUM_CARDS_IN_PLAY, NUM_LOCATIONS, TILES_HELD

TILE_VALUE = 2.0
POWER_BONUS = 0.5


@njit(cache=True)
def own_gold(st, p: int) -> int:
    total = score_castles(st, p)
    for k in range(NUM_CARDS_IN_PLAY):
        total += score_card(st, p, st[CARDS + k])
    return total


@njit(cache=True)
def tiles_held(st, p: int) -> int:
    held = st[TILES_HELD + p]
    count = 0
    for i in range(st[NUM_LOCATIONS]):
        count += (held >> i) & 1
    return count


@njit(cache=True)
def decision_value(st, work, p: int, action: int) -> float:
    work[:] = st
    apply_unchecked(work, action)
    value = own_gold(work, p) + TILE_VALUE * tiles_held(work, p)
    if TILE_ACTION_BASE <= action < END_TURN:
        value += POWER_BONUS
    return value


@njit(cache=True)
def greedy_action(st, rng_state, rng_index: int) -> int:
    """The greedy decision for the player to move (-1 if there is none)."""
    p = st[CURRENT]
    work = np.empty_like(st)
    hexes = np.empty(WORDS, dtype=np.int64)
    legal_hexes(st, st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS])
    hexes[:] = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    powers = legal_powers(st)
    best = -1
    best_value = -1e18
    ties = 0
    n_hex = popcount(hexes)
    n_total = n_hex + NUM_POWERS + 1
    for k in range(n_total):
        if k < n_hex:
            action = nth_hex(hexes, k)
        elif k < n_hex + NUM_POWERS:
            power = k - n_hex
            if not (powers >> power) & 1:
                continue
            action = TILE_ACTION_BASE + power
        else:
            if not end_turn_legal(st):
                continue
            action = END_TURN
        value = decision_value(st, work, p, action)
        if value > best_value + 1e-9:
            best_value = value
            best = action
            ties = 1
        elif value > best_value - 1e-9:
            ties += 1
            if rand_below(rng_state, rng_index, ties) == 0:
                best = action
    return best


@njit(cache=True)
def greedy_values(st, values) -> None:
    """values[a] = greedy value of every legal action a, -inf for illegal ones."""
    p = st[CURRENT]
    work = np.empty_like(st)
    values[:] = -np.inf
    hexes = np.empty(WORDS, dtype=np.int64)
    legal_hexes(st, st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS])
    hexes[:] = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    powers = legal_powers(st)
    for k in range(popcount(hexes)):
        a = nth_hex(hexes, k)
        values[a] = decision_value(st, work, p, a)
    for power in range(NUM_POWERS):
        if (powers >> power) & 1:
            values[TILE_ACTION_BASE + power] = decision_value(st, work, p, TILE_ACTION_BASE + power)
    if end_turn_legal(st):
        values[END_TURN] = decision_value(st, work, p, END_TURN)
