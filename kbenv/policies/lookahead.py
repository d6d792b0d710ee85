"""The lookahead policy inside numba: greedy over the rest of the mover's own turn.

Value of a decision = the mover's position value (gold + TILE_VALUE per tile, as for greedy) after
making it and then finishing the turn greedily: greedy's first best decision each time (no random
ties, so values are reproducible) until greedy would end the turn or the turn passes. One decision
is thereby judged by the builds it enables later in the same turn, which greedy cannot see.

No hidden card is read: nothing beyond the mover's own turn is simulated, and the simulation also
stops as soon as a card is drawn or taken out of the game within the turn (the no-eligible-hex
exception replaces the mover's card from the hidden draw pile; the card drawn must not steer the
rest of the simulated turn). Whether that happens depends only on the board and the mover's own
card, so two states that differ only in hidden cards get the same values.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.actions import apply_unchecked
from ..engine.borrow import borrowed
from ..engine.legal import ACTION_SIZE_V1, END_TURN, legal_action_list
from ..engine.state import CURRENT, DECK_COUNT, PHASE, PHASE_OVER, REMOVED_COUNT
from .greedy import greedy_choice, pick_best, position_value

MAX_TURN_DECISIONS = 64  # a safety bound; a turn has far fewer decisions


@njit(cache=True, inline="always")
def turn_value(st, p: int, action: int, work, scratch, actions, values, no_rng) -> float:
    """p's position value after `action` and a greedy finish of p's turn (work, scratch: state buffers;
    no_rng: a generator that first-best ties never draw from)."""
    st = borrowed(st)
    work = borrowed(work)
    scratch = borrowed(scratch)
    actions = borrowed(actions)
    values = borrowed(values)
    work[:] = st
    apply_unchecked(work, action)
    steps = 0
    while (work[PHASE] != PHASE_OVER and work[CURRENT] == p and steps < MAX_TURN_DECISIONS
           and work[DECK_COUNT] == st[DECK_COUNT] and work[REMOVED_COUNT] == st[REMOVED_COUNT]):
        follow = greedy_choice(work, scratch, actions, values, no_rng, -1)
        if follow < 0 or follow == END_TURN:
            break
        apply_unchecked(work, follow)
        steps += 1
    return position_value(work, p)


@njit(cache=True)
def lookahead_table(st, actions, values) -> int:
    """Fill actions[:n] with the legal actions and values[:n] with their lookahead values; return n."""
    st = borrowed(st)
    actions = borrowed(actions)
    values = borrowed(values)
    p = st[CURRENT]
    work = np.empty_like(st)
    scratch = np.empty_like(st)
    inner_actions = np.empty(ACTION_SIZE_V1, dtype=np.int64)
    inner_values = np.empty(ACTION_SIZE_V1, dtype=np.float64)
    no_rng = np.zeros(1, dtype=np.int64)
    n = legal_action_list(st, actions)
    for k in range(n):
        values[k] = turn_value(st, p, actions[k], work, scratch, inner_actions, inner_values, no_rng)
    return n


@njit(cache=True, inline="always")
def lookahead_action(st, rng_state, rng_index: int) -> int:
    """The lookahead decision for the player to move, ties at random (-1 if there is none)."""
    st = borrowed(st)
    rng_state = borrowed(rng_state)
    actions = np.empty(ACTION_SIZE_V1, dtype=np.int64)
    values = np.empty(ACTION_SIZE_V1, dtype=np.float64)
    n = lookahead_table(st, actions, values)
    return pick_best(actions, values, n, rng_state, rng_index)


@njit(cache=True)
def lookahead_values(st, out) -> None:
    """out[a] = lookahead value of every legal action a, -inf for illegal ones."""
    st = borrowed(st)
    out = borrowed(out)
    actions = np.empty(ACTION_SIZE_V1, dtype=np.int64)
    values = np.empty(ACTION_SIZE_V1, dtype=np.float64)
    out[:] = -np.inf
    for k in range(lookahead_table(st, actions, values)):
        if actions[k] < len(out):
            out[actions[k]] = values[k]
