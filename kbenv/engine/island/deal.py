"""The Island's set-up inside numba, for the batch engine (kbenv.vector, kbenv.engine.init.new_game).

`Game.new` deals the island in Python (kbenv.expansions.island.setup): the side named by `island_side`, else
`choose_side(seed)`, a draw of Python's `random.Random(seed * 7919 + 23).randrange(2)`; then `apply_island`
writes its hexes. This module does the same in numba so that batches of island games start (and restart) inside
the kernels: `side_of_seed` is that very draw (CPython's Mersenne Twister seeded with an integer: init_by_array
over the seed's 32-bit words, then getrandbits(2) until the value is below 2), and `deal_island` writes the
shipped side's table below. tests/test_island_vector.py compares both, seed by seed and state by state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import HEX_BIT, HEX_WORD
from ...board.codes import CASTLE, LOCATION, NUM_BUILDABLE, decode_hex_code
from ...board.geometry import ISLAND_FIRST, NUM_ISLAND_HEXES
from ...board.island_files import SUBSTITUTE_SIDES, load_side
from ..state import BUILDABLE_MASK, ISLAND_LOC_AT, ISLAND_LOC_TILES, ISLAND_LOC_TYPE, SPECIAL_MASK, TERRAIN_MASKS, WORDS
from .rules import TILES_PER_LOCATION


def _side_tables() -> tuple[np.ndarray, np.ndarray]:
    """(sides, 20) terrain codes and location types (-1 off the location) of the shipped sides, hex by hex."""
    terrain = np.zeros((len(SUBSTITUTE_SIDES), NUM_ISLAND_HEXES), dtype=np.int64)
    location = np.full((len(SUBSTITUTE_SIDES), NUM_ISLAND_HEXES), -1, dtype=np.int64)
    for s, name in enumerate(SUBSTITUTE_SIDES):
        for k, ch in enumerate("".join(load_side(name))):
            terrain[s, k], location[s, k] = decode_hex_code(ch)
    return terrain, location


SIDE_TERRAIN, SIDE_LOCATION = _side_tables()
NUM_SIDES = len(SUBSTITUTE_SIDES)
SIDE_SEED_MULTIPLIER, SIDE_SEED_OFFSET = 7919, 23  # kbenv.expansions.island.setup.choose_side
assert NUM_SIDES == 2  # side_of_seed draws randrange(2)

MT_N, MT_M = 624, 397
MASK32 = 0xFFFFFFFF


@njit(cache=True, inline="always")
def _init_by_array(mt, key, key_length: int) -> None:
    """CPython's init_by_array (Modules/_randommodule.c)."""
    mt[0] = 19650218
    for i in range(1, MT_N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK32
    i, j = 1, 0
    for _ in range(max(MT_N, key_length)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= key_length:
            j = 0
    for _ in range(MT_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000


@njit(cache=True)
def _twist(mt) -> None:
    """Generate the next MT_N words (genrand_uint32's refill)."""
    for k in range(MT_N):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % MT_N] & 0x7FFFFFFF)
        v = mt[(k + MT_M) % MT_N] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        mt[k] = v


@njit(cache=True, inline="always")
def _temper(y: int) -> int:
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@njit(cache=True)
def side_of_seed(seed: int) -> int:
    """random.Random(seed * 7919 + 23).randrange(2) for a seed in 0 .. 2**63 - 1
    (kbenv.expansions.island.setup.choose_side)."""
    lo = (seed & MASK32) * SIDE_SEED_MULTIPLIER + SIDE_SEED_OFFSET  # the product's 32-bit words, carried by hand
    hi = (seed >> 32) * SIDE_SEED_MULTIPLIER + (lo >> 32)
    key = np.array([lo & MASK32, hi & MASK32, hi >> 32], dtype=np.int64)
    length = 3
    while length > 1 and key[length - 1] == 0:
        length -= 1
    mt = np.empty(MT_N, dtype=np.int64)
    _init_by_array(mt, key, length)
    _twist(mt)
    k = 0
    while True:  # getrandbits(2) until below 2 (Random._randbelow)
        r = _temper(mt[k]) >> 30
        if r < NUM_SIDES:
            return r
        k += 1
        if k == MT_N:
            _twist(mt)
            k = 0


@njit(cache=True, inline="always")
def deal_island(st, side: int) -> None:
    """Write shipped side `side` (index in SUBSTITUTE_SIDES) into a state, as
    kbenv.expansions.island.setup.apply_island."""
    for k in range(NUM_ISLAND_HEXES):
        h = ISLAND_FIRST + k
        t = SIDE_TERRAIN[side, k]
        w, b = HEX_WORD[h], HEX_BIT[h]
        st[TERRAIN_MASKS + t * WORDS + w] |= b
        if t < NUM_BUILDABLE:
            st[BUILDABLE_MASK + w] |= b
        if t == CASTLE or t == LOCATION:
            st[SPECIAL_MASK + w] |= b
        if t == LOCATION:
            st[ISLAND_LOC_AT] = h + 1
            st[ISLAND_LOC_TYPE] = SIDE_LOCATION[side, k]
            st[ISLAND_LOC_TILES] = TILES_PER_LOCATION
