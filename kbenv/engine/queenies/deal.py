"""The Capitol and Caves set-up (Queenies): a capitol on a castle of each Oracle/Harbor section, a cave on a
mountain of each section (QC-1, QV-1)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import BALL2_MASK, HEX_BIT, HEX_WORD, NEIGHBOUR_MASK, WORDS, has, intersects
from ...board.codes import CASTLE, HARBOR, LOCATION, MOUNTAIN, ORACLE
from ...board.geometry import NUM_HEXES, SECTOR_OF
from ...catalogue import RULE_BIT
from ..rng import draw_below
from ..state import (
    CAPITOL_HEX,
    CAVE_NEAR,
    CAVES,
    LOC_HEX,
    LOC_TYPE,
    MAX_CAPITOLS,
    NOMAD_MASK,
    NUM_CAPITOLS,
    NUM_LOCATIONS,
    OCCUPIED,
    RULE_FLAGS,
    TERRAIN_MASKS,
)

RULE_CAVES_ARE_PLAIN_MOUNTAIN = RULE_BIT["caves_are_plain_mountain"]


@njit(cache=True)
def deal_capitols(st, rng) -> None:
    """Per section with an Oracle or a Harbor, a capitol on one of its castles."""
    candidates = np.empty(100, dtype=np.int64)
    castles = st[TERRAIN_MASKS + CASTLE * WORDS : TERRAIN_MASKS + (CASTLE + 1) * WORDS]
    for q in range(4):
        if quadrant_has_location(st, q, ORACLE, HARBOR):
            n = 0
            for h in range(NUM_HEXES):
                if SECTOR_OF[h] == q and has(castles, h):
                    candidates[n] = h
                    n += 1
            if n > 0 and st[NUM_CAPITOLS] < MAX_CAPITOLS:
                st[CAPITOL_HEX + st[NUM_CAPITOLS]] = candidates[draw_below(rng, n)]
                st[NUM_CAPITOLS] += 1


@njit(cache=True)
def deal_caves(st, rng) -> None:
    """Per section, a cave on a mountain at least 3 steps from every castle, location and nomad space."""
    special = np.zeros(WORDS, dtype=np.int64)
    for i in range(WORDS):
        special[i] = (st[TERRAIN_MASKS + CASTLE * WORDS + i] | st[TERRAIN_MASKS + LOCATION * WORDS + i]
                      | st[NOMAD_MASK + i])
    candidates = np.empty(100, dtype=np.int64)
    mountains = st[TERRAIN_MASKS + MOUNTAIN * WORDS : TERRAIN_MASKS + (MOUNTAIN + 1) * WORDS]
    for q in range(4):
        n = 0
        for h in range(NUM_HEXES):
            if SECTOR_OF[h] == q and has(mountains, h) and distance_at_least_3_from(special, h):
                candidates[n] = h
                n += 1
        if n > 0:
            place_cave(st, candidates[draw_below(rng, n)])


@njit(cache=True, inline="always")
def distance_at_least_3_from(mask, h: int) -> bool:
    """No hex of mask within two steps of h."""
    return not intersects(BALL2_MASK[h], mask)


@njit(cache=True, inline="always")
def quadrant_has_location(st, q: int, type_a: int, type_b: int) -> bool:
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i]
        if (t == type_a or t == type_b) and SECTOR_OF[st[LOC_HEX + i]] == q:
            return True
    return False


@njit(cache=True)
def place_cave(st, h: int) -> None:
    """A cave on mountain h: occupied unless caves are plain mountains (A-QV2)."""
    st[CAVES + HEX_WORD[h]] |= HEX_BIT[h]
    for i in range(WORDS):
        st[CAVE_NEAR + i] |= NEIGHBOUR_MASK[h, i]
    if not st[RULE_FLAGS] & RULE_CAVES_ARE_PLAIN_MOUNTAIN:
        st[OCCUPIED + HEX_WORD[h]] |= HEX_BIT[h]
