"""The Capitol and Caves mini-expansions inside numba (rules QC-1..2 and QV-1..2 of the expansion spec).

Capitol: 1 gold per own settlement within two hexes of each capitol at the end (a settlement near both
capitols counts twice, A-QC2). Caves: once per turn, outside the mandatory action, a settlement next to
any cave may move to any free buildable hex next to any cave (A-QV3).
"""

from __future__ import annotations

from numba import njit

from ...board.bitset import BALL2_MASK, WORDS, count_and, has, remove
from ..board_ops import own_view, settlements_word
from ..state import BUILDABLE_MASK, CAPITOL_HEX, CAVE_NEAR, NUM_CAPITOLS, OCCUPIED

CAPITOL_GOLD = 1


@njit(cache=True)
def score_capitols(st, p: int) -> int:
    own = own_view(st, p)
    total = 0
    for k in range(st[NUM_CAPITOLS]):
        total += CAPITOL_GOLD * count_and(BALL2_MASK[st[CAPITOL_HEX + k]], own)
    return total


@njit(cache=True, inline="always")
def next_to_cave(st, h: int) -> bool:
    return has(st[CAVE_NEAR : CAVE_NEAR + WORDS], h)


@njit(cache=True, inline="always")
def cave_targets(st, src: int, out) -> None:
    """Free buildable hexes next to any cave, other than the settlement's own hex."""
    for i in range(WORDS):
        out[i] = st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i] & st[CAVE_NEAR + i]
    if src >= 0:
        remove(out, src)


@njit(cache=True)
def cave_sources(st, p: int, out) -> None:
    """p's settlements next to a cave (each has a target as soon as one free hex next to a cave exists)."""
    has_target = False
    for i in range(WORDS):
        if st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i] & st[CAVE_NEAR + i]:
            has_target = True
    for i in range(WORDS):
        out[i] = settlements_word(st, p, i) & st[CAVE_NEAR + i] if has_target else 0
