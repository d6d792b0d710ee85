"""The base game's special target rules: Tower, Tavern, Paddock, and the terrain move of Barn and Harbor.

The Oracle, Farm and Oasis build on a terrain and need no kernel of their own (the generic "terrain" rule
of kbenv.engine.powers); these are registered there by their rule codes (kbenv.engine.traits).
"""

from __future__ import annotations

from numba import njit

from ..board.bitset import BITS_PER_WORD, EDGE_MASK, WORDS, add, clear, dilate_into, has, remove, word_lowest_bit
from ..board.geometry import STEP1, STEP2
from .board_ops import adjacent_view, free_of, own_view, restrict_adjacent_if_possible, terrain_view
from .dispatch import flow
from .state import BUILDABLE_MASK, EXPANSIONS, OCCUPIED, OUTPOST_ARMED, scratch_off

SCRATCH_LIFTED = scratch_off("lifted")  # adjacency of a player's settlements with one lifted


@njit(cache=True)
def tower_targets(st, p: int, out) -> None:
    """Free buildable hexes at the edge of the board, adjacent if possible."""
    for i in range(WORDS):
        out[i] = EDGE_MASK[i] & st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]
    if st[OUTPOST_ARMED] == 0:
        restrict_adjacent_if_possible(out, adjacent_view(st, p))


@njit(cache=True)
def free_buildable(st, h: int) -> bool:
    if h < 0:
        return False
    return has(st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], h) and not has(st[OCCUPIED : OCCUPIED + WORDS], h)


@njit(cache=True)
def tavern_targets(st, p: int, out) -> None:
    """Free buildable hexes at an end of a straight line of >= 3 of p's settlements."""
    clear(out)
    own = own_view(st, p)
    if st[EXPANSIONS] != 0:  # (the turn owner's scouts count for the lines, A-H4)
        own = flow.own_for_lines(st, p, own, st[SCRATCH_LIFTED : SCRATCH_LIFTED + WORDS])
    for i in range(WORDS):
        w = own[i]
        while w != 0:
            s = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            for d in range(6):
                s1 = STEP1[s, d]
                if s1 < 0 or not has(own, s1):
                    continue
                s2 = STEP1[s1, d]
                if s2 < 0 or not has(own, s2):
                    continue
                s3 = STEP1[s2, d]
                if free_buildable(st, s3):
                    add(out, s3)


@njit(cache=True, inline="always")
def paddock_targets(st, src: int, out) -> None:
    """Free buildable hexes exactly two steps from src in a straight line."""
    clear(out)
    for d in range(6):
        t = STEP2[src, d]
        if free_buildable(st, t):
            add(out, t)


@njit(cache=True, inline="always")
def paddock_has_target(st, src: int) -> bool:
    for d in range(6):
        if free_buildable(st, STEP2[src, d]):
            return True
    return False


@njit(cache=True, inline="always")
def move_targets(st, p: int, src: int, terrain: int, out) -> None:
    """Barn/Harbor destinations: free hexes of `terrain`, adjacent if possible once src is lifted."""
    free_of(st, terrain_view(st, terrain), out)
    lifted = st[SCRATCH_LIFTED : SCRATCH_LIFTED + WORDS]
    own = own_view(st, p)
    remove(own, src)
    dilate_into(lifted, own)
    add(own, src)
    if st[EXPANSIONS] != 0:
        flow.add_adjacency_of_pieces(st, p, lifted)  # (the turn owner's scouts count for adjacency, H-9)
    restrict_adjacent_if_possible(out, lifted)
