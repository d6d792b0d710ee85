"""Rollouts for search agents: play a game to its end inside numba with random or greedy players."""

from __future__ import annotations

from numba import njit

from ..engine.actions import apply_unchecked
from ..engine.borrow import borrowed
from ..engine.rng import rand_below
from ..engine.state import PHASE, PHASE_OVER
from .greedy import greedy_action
from .playout import random_legal_action

ROLLOUT_RANDOM = 0
ROLLOUT_GREEDY = 1
ROLLOUT_MIXED = 2  # greedy with probability 1/2 per decision


@njit(cache=True)
def rollout(st, policy: int, rng_state, max_decisions: int) -> int:
    """Play to the end (or max_decisions); return the decisions made."""
    st = borrowed(st)
    rng_state = borrowed(rng_state)
    n = 0
    while st[PHASE] != PHASE_OVER and n < max_decisions:
        if policy == ROLLOUT_GREEDY or (policy == ROLLOUT_MIXED and rand_below(rng_state, 0, 2) == 0):
            a = greedy_action(st, rng_state, 0)
        else:
            a = random_legal_action(st, rng_state, 0)
        if a < 0:
            break
        apply_unchecked(st, a)
        n += 1
    return n
