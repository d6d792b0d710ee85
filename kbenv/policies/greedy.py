"""The greedy policy inside numba: the decision that most improves the mover's own current score.

Value of a decision = the mover's gold on the three cards in play plus castles right after it, plus
TILE_VALUE per location tile held (a small heuristic: tiles give extra builds later), plus
POWER_BONUS for activating a power (its value only shows after the target is chosen).  Ties are
broken uniformly at random with the caller's seeded generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.actions import apply_unchecked
from ..engine.borrow import borrowed
from ..engine.crossroads.tasks import score_tasks
from ..engine.legal import ACTION_SIZE_V1, DONE, END_TURN, TILE_ACTION_BASE, legal_action_list
from ..engine.queenies.rules import score_capitols
from ..engine.rng import rand_below
from ..engine.scoring import score_card, score_castles
from ..engine.state import (
    CARDS,
    CURRENT,
    EXPANSIONS,
    GOLD,
    NUM_CAPITOLS,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_TASKS,
    TILES_HELD,
)

TILE_VALUE = 2.0
POWER_BONUS = 0.5
TIE = 1e-9


@njit(cache=True, inline="always")
def own_gold(st, p: int) -> int:
    """p's gold now: the cards in play and castles, plus capitols, gold banked during play and tasks."""
    total = score_castles(st, p)
    for k in range(NUM_CARDS_IN_PLAY):
        total += score_card(st, p, st[CARDS + k])
    if st[EXPANSIONS] != 0:
        total += st[GOLD + p] + (score_capitols(st, p) if st[NUM_CAPITOLS] > 0 else 0)
        if st[NUM_TASKS] > 0:
            total += score_tasks(st, p)
    return total


@njit(cache=True, inline="always")
def tiles_held(st, p: int) -> int:
    held = st[TILES_HELD + p]
    count = 0
    for i in range(st[NUM_LOCATIONS]):
        count += (held >> i) & 1
    return count


@njit(cache=True)
def position_value(st, p: int) -> float:
    """Player p's gold now plus TILE_VALUE per tile held."""
    return own_gold(st, p) + TILE_VALUE * tiles_held(st, p)


@njit(cache=True)
def decision_value(st, work, p: int, action: int) -> float:
    st = borrowed(st)
    work = borrowed(work)
    work[:] = st
    apply_unchecked(work, action)
    value = position_value(work, p)
    if TILE_ACTION_BASE <= action and action != END_TURN and action != DONE:
        value += POWER_BONUS
    return value


@njit(cache=True)
def pick_best(actions, values, n: int, rng_state, rng_index: int) -> int:
    """The highest-valued of the first n actions, ties uniformly at random (first one if rng_index < 0)."""
    best = -1
    best_value = -1e18
    ties = 0
    for k in range(n):
        value = values[k]
        if value > best_value + TIE:
            best_value = value
            best = actions[k]
            ties = 1
        elif value > best_value - TIE:
            ties += 1
            if rng_index >= 0 and rand_below(rng_state, rng_index, ties) == 0:
                best = actions[k]
    return best


@njit(cache=True)
def greedy_choice(st, work, actions, values, rng_state, rng_index: int) -> int:
    """The greedy decision using caller-owned buffers (-1 if there is none)."""
    p = st[CURRENT]
    n = legal_action_list(st, actions)
    for k in range(n):
        values[k] = decision_value(st, work, p, actions[k])
    return pick_best(actions, values, n, rng_state, rng_index)


@njit(cache=True)
def greedy_action(st, rng_state, rng_index: int) -> int:
    """The greedy decision for the player to move (-1 if there is none)."""
    st = borrowed(st)
    rng_state = borrowed(rng_state)
    actions = np.empty(ACTION_SIZE_V1, dtype=np.int64)
    values = np.empty(ACTION_SIZE_V1, dtype=np.float64)
    return greedy_choice(st, np.empty_like(st), actions, values, rng_state, rng_index)


@njit(cache=True)
def greedy_values(st, values) -> None:
    """values[a] = greedy value of every legal action a, -inf for illegal ones."""
    st = borrowed(st)
    values = borrowed(values)
    p = st[CURRENT]
    work = np.empty_like(st)
    actions = np.empty(ACTION_SIZE_V1, dtype=np.int64)
    values[:] = -np.inf
    for k in range(legal_action_list(st, actions)):
        if actions[k] < len(values):  # a v0-sized table has no room for v1 ids (base games have none)
            values[actions[k]] = decision_value(st, work, p, actions[k])
