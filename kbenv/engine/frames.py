"""The interrupt stack: a decision taken inside another one (an off-turn reaction) saves the context of
the interrupted decision and restores it when done. Marshlands' reactions interrupt (kbenv.engine.marshlands.hooks);
the stack is part of the decision machine so that reactions need no new state layout."""

from __future__ import annotations

from numba import njit

from .state import (
    DECIDER,
    FRAME_DEPTH,
    FRAME_FIELDS,
    FRAMES,
    MANDATORY_BUILT,
    MAX_FRAMES,
    PHASE,
    POWER,
    SOURCE,
    STEPS_LEFT,
    STEPS_TAKEN,
    VICTIM,
)

SAVED = (PHASE, POWER, SOURCE, STEPS_LEFT, STEPS_TAKEN, DECIDER, VICTIM, MANDATORY_BUILT)
assert len(SAVED) == FRAME_FIELDS


@njit(cache=True)
def push_frame(st) -> bool:
    """Save the current decision context; False (nothing saved) when the stack is full."""
    depth = st[FRAME_DEPTH]
    if depth >= MAX_FRAMES:
        return False
    base = FRAMES + depth * FRAME_FIELDS
    for k in range(FRAME_FIELDS):
        st[base + k] = st[SAVED[k]]
    st[FRAME_DEPTH] = depth + 1
    return True


@njit(cache=True)
def pop_frame(st) -> bool:
    """Restore the last saved decision context; False when the stack is empty."""
    depth = st[FRAME_DEPTH]
    if depth == 0:
        return False
    depth -= 1
    base = FRAMES + depth * FRAME_FIELDS
    for k in range(FRAME_FIELDS):
        st[SAVED[k]] = st[base + k]
        st[base + k] = 0
    st[FRAME_DEPTH] = depth
    return True
