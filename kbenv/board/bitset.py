"""Hex sets as bitmasks, and the numba helpers that work on them.

A hex set is 7 int64 words of 60 bits each (420 bits: the 400 board hexes and the island's 20, ids 400..419;
kbenv.board.geometry). Per-hex tables have NUM_CELLS = 420 rows; arrays indexed by hex id are NUM_CELLS long.
We use signed words with the top
bits unused, rather than full uint64 words, because numba silently turns mixed signed/unsigned
arithmetic into floats, and because plain-Python runs (NUMBA_DISABLE_JIT=1) then never overflow:
every kernel gives the same result compiled or interpreted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .geometry import EDGE_HEXES, ISLAND_FIRST, ISLAND_ROWS, NUM_CELLS, ROW_OF, ROWS, SECTOR_OF, STEP1

WORDS = 7
BITS_PER_WORD = 60


def _build_bit_tables() -> tuple[np.ndarray, np.ndarray]:
    word = np.arange(NUM_CELLS, dtype=np.int64) // BITS_PER_WORD
    bit = np.array([1 << (h % BITS_PER_WORD) for h in range(NUM_CELLS)], dtype=np.int64)
    return word, bit


HEX_WORD, HEX_BIT = _build_bit_tables()
M1 = 0x5555555555555555  # SWAR constants (all below 2**63, so plain positive int64)
M2 = 0x3333333333333333
M4 = 0x0F0F0F0F0F0F0F0F


def mask_of(hexes) -> np.ndarray:
    """A fresh bitmask holding the given hex ids."""
    m = np.zeros(WORDS, dtype=np.int64)
    for h in hexes:
        m[HEX_WORD[h]] |= HEX_BIT[h]
    return m


def hexes_of(mask: np.ndarray) -> list[int]:
    """The hex ids in a bitmask, ascending."""
    return [int(h) for h in np.flatnonzero(np.asarray(mask)[HEX_WORD] & HEX_BIT)]


def _build_neighbour_masks() -> np.ndarray:
    """Row h: the neighbours of hex h (board hexes 0..399, then the island's 400..419, which neighbour only island
    hexes: A-QI2)."""
    return np.stack([mask_of([n for n in STEP1[h] if n >= 0]) for h in range(NUM_CELLS)])


def _build_region_masks(region_of: np.ndarray, count: int) -> np.ndarray:
    return np.stack([mask_of(np.nonzero(region_of == k)[0]) for k in range(count)])


NEIGHBOUR_MASK = _build_neighbour_masks()  # (420, 7): board and island rows
EDGE_MASK = mask_of(EDGE_HEXES)  # board hexes only (A-QI3)
SECTOR_MASK = _build_region_masks(SECTOR_OF, 4)  # (4, 7): board sectors only (the island is none, A-QI4)
ROW_MASK = _build_region_masks(ROW_OF, 20)  # (20, 7): board rows only
ISLAND_ROW_MASK = np.stack([mask_of(np.nonzero(ROW_OF == ROWS + r)[0]) for r in range(ISLAND_ROWS)])  # (5, 7)
ISLAND_MASK = mask_of(range(ISLAND_FIRST, NUM_CELLS))  # every island hex
# IA6 / A-QI2: an island hex with fewer than 6 island neighbours touches the water around the island (the coast)
COAST_MASK = mask_of([h for h in range(ISLAND_FIRST, NUM_CELLS) if (STEP1[h] < 0).any()])


def _build_ball2_masks() -> np.ndarray:
    """Every hex within two steps of each hex (the hex itself included)."""
    balls = []
    for h in range(NUM_CELLS):
        near = {h} | {n for n in STEP1[h] if n >= 0}
        near |= {m for n in list(near) for m in STEP1[n] if m >= 0}
        balls.append(mask_of(sorted(near)))
    return np.stack(balls)


BALL2_MASK = _build_ball2_masks()  # (420, 7): the Capitol's reach


@njit(cache=True)
def word_popcount(w: int) -> int:
    """Number of set bits in one 60-bit word (SWAR: shifts and adds only, no overflow, no tables)."""
    w = w - ((w >> 1) & M1)
    w = (w & M2) + ((w >> 2) & M2)
    w = (w + (w >> 4)) & M4
    w = w + (w >> 8)
    w = w + (w >> 16)
    w = w + (w >> 32)
    return w & 0x7F


@njit(cache=True)
def word_lowest_bit(w: int) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return word_popcount((w & -w) - 1)


@njit(cache=True)
def popcount(m) -> int:
    """Number of hexes in a mask."""
    total = 0
    for i in range(WORDS):
        if m[i] != 0:
            total += word_popcount(m[i])
    return total


@njit(cache=True)
def is_empty(m) -> bool:
    for i in range(WORDS):
        if m[i] != 0:
            return False
    return True


@njit(cache=True)
def has(m, h: int) -> bool:
    return (m[HEX_WORD[h]] & HEX_BIT[h]) != 0


@njit(cache=True)
def add(m, h: int) -> None:
    m[HEX_WORD[h]] |= HEX_BIT[h]


@njit(cache=True)
def remove(m, h: int) -> None:
    m[HEX_WORD[h]] &= ~HEX_BIT[h]


@njit(cache=True)
def clear(m) -> None:
    for i in range(WORDS):
        m[i] = 0


@njit(cache=True)
def copy_into(dst, src) -> None:
    for i in range(WORDS):
        dst[i] = src[i]


@njit(cache=True)
def intersects(a, b) -> bool:
    for i in range(WORDS):
        if (a[i] & b[i]) != 0:
            return True
    return False


@njit(cache=True)
def count_and(a, b) -> int:
    """Number of hexes in a & b."""
    total = 0
    for i in range(WORDS):
        w = a[i] & b[i]
        if w != 0:
            total += word_popcount(w)
    return total


@njit(cache=True)
def nth_hex(m, k: int) -> int:
    """The k-th (0-based, ascending) hex of a mask; -1 if there are not that many."""
    for i in range(WORDS):
        w = m[i]
        if w == 0:
            continue
        c = word_popcount(w)
        if k >= c:
            k -= c
            continue
        while k > 0:
            w &= w - 1
            k -= 1
        return i * BITS_PER_WORD + word_lowest_bit(w)
    return -1



@njit(cache=True)
def to_hex_list(m, out) -> int:
    """Write the hexes of a mask into out (ascending); return how many."""
    n = 0
    for i in range(WORDS):
        w = m[i]
        while w != 0:
            out[n] = i * BITS_PER_WORD + word_lowest_bit(w)
            n += 1
            w &= w - 1
    return n


@njit(cache=True)
def label_areas(mask, label) -> int:
    """Label the areas (connected groups) of a hex mask: label[h] = area index (0, 1, ...) for hexes of mask, -1
    elsewhere. Areas are numbered in the order of their lowest hex. Returns the number of areas."""
    label[:] = -1
    stack = np.empty(NUM_CELLS, dtype=np.int64)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(mask, hexes)
    count = 0
    for k in range(n):
        if label[hexes[k]] >= 0:
            continue
        label[hexes[k]] = count
        stack[0] = hexes[k]
        top = 1
        while top > 0:
            top -= 1
            h = stack[top]
            for d in range(6):
                nb = STEP1[h, d]
                if nb >= 0 and label[nb] < 0 and has(mask, nb):
                    label[nb] = count
                    stack[top] = nb
                    top += 1
        count += 1
    return count


@njit(cache=True)
def dilate_into(dst, src) -> None:
    """dst = every hex adjacent to a hex of src (src itself not included unless adjacent)."""
    clear(dst)
    for i in range(WORDS):
        w = src[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            for j in range(WORDS):
                dst[j] |= NEIGHBOUR_MASK[h, j]
