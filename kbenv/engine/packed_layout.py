"""The packed observations' layout: the bit planes and floats of each channel (kbenv.engine.packed writes them).

PACKED_V0 and PACKED_V1 hold one (bit planes, denominator, float32 values) row per channel of the float
observation; P0 / P1 and the P_* names are the first bit plane of each channel, and `set_code` / `or_words`
write them. The hint layout (PACKED_HINTS) is in kbenv.engine.packed, beside the hint kernels it reads. This
module imports no writer, so every writer (the generic ones in packed, each expansion's in its package's
`observe` module) may import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import BITS_PER_WORD, WORDS
from .observe import NUM_CHANNELS, NUM_FEATURES
from .observe_layout import (
    CH_FARMLAND,
    CH_HARVEST_LOCATION,
    CH_ISLAND_HEXES,
    CH_MAYOR_ROWS,
    CH_SCOUTS,
    CH_SILOS,
    HEX_DENOMINATOR,
    NUM_CHANNELS_V1,
    NUM_FEATURES_V1,
    PIECE_DENOMINATOR,
)

PLANE_BYTES = WORDS * 8
BIT = (1, 1.0, 0)  # a 0/1 plane: one bit plane


def floats(count: int) -> tuple[int, float, int]:
    """A channel stored as `count` float32 values (the rest of its plane is zero)."""
    return (0, 1.0, count)


# One row per channel of the float observation: (bit planes, denominator, float32 values).
PACKED_V0 = (
    *[BIT] * 18,  # terrain 0-8, locations 9-17
    (2, 2.0, 0),  # 18 tiles left / 2
    *[BIT] * 8,  # 19-26 own, opponents, legal, source, edge
    floats(NUM_FEATURES),  # 27 features
)
PACKED_V1 = (
    *PACKED_V0,
    BIT, BIT, BIT, BIT,  # 28-31 walls, capitols, caves, nomad tiles
    (4, 11.0, 0),  # 32 nomad kind: (kind + 1) / 11
    (3, 4.0, 0),  # 33 Nomads locations: (type + 1) / 4
    floats(NUM_FEATURES_V1),  # 34 v1 features
    (2, 3.0, 0), (2, 3.0, 0),  # 35-36 pieces: warrior 3/3, wagon 2/3, ship 1/3
    (2, 2.0, 0),  # 37 city halls: own 2/2, others 1/2
    BIT,  # 38 warrior zone
    (4, 8.0, 0),  # 39 Crossroads locations: (type + 1) / 8
    BIT, BIT,  # 40-41 swamp, palaces (Marshlands)
    (3, 4.0, 0),  # 42 Marshlands locations: (type + 1) / 4
    BIT,  # 43 farmland (Harvest)
    (2, 2.0, 0),  # 44 silos 1/2, the silo being done 2/2
    (4, 8.0, 0),  # 45 Harvest locations: (type + 1) / 8
    BIT,  # 46 scouts
    (2, 2.0, 0),  # 47 Mayors rows: own 2/2, another player's 1/2
    (2, float(HEX_DENOMINATOR), 0),  # 48 island_hexes: a table of halves (kbenv.engine.island.observe)
    (3, float(PIECE_DENOMINATOR), 0),  # 49 island_pieces: a table of sixths
)
assert len(PACKED_V0) == NUM_CHANNELS and len(PACKED_V1) == NUM_CHANNELS_V1


def plane_offsets(layout) -> list[int]:
    """The first bit plane of each channel (bit channels only are meaningful)."""
    out, p = [], 0
    for bits, _, _ in layout:
        out.append(p)
        p += bits
    return out


def num_planes(layout) -> int:
    return sum(bits for bits, _, _ in layout)


def num_floats(layout) -> int:
    return sum(count for _, _, count in layout)


def row_words(layout) -> int:
    """int64 words of one packed observation: the bit planes, then the floats (padded to a whole word)."""
    return num_planes(layout) * WORDS + (num_floats(layout) + 1) // 2


P0 = plane_offsets(PACKED_V0)
P1 = plane_offsets(PACKED_V1)
P_TILES, P_OWN, P_LEGAL, P_SOURCE, P_EDGE = P0[18], P0[19], P0[24], P0[25], P0[26]
P_LOCATION, P_LOCATION_OTHER = P0[9], P0[17]
P_WALLS, P_CAPITOLS, P_CAVES, P_NOMAD_TILE = P1[28], P1[29], P1[30], P1[31]
P_NOMAD_KIND, P_NOMAD_LOCATION = P1[32], P1[33]
P_OWN_PIECES, P_OTHER_PIECES, P_CITY_HALLS, P_ZONE, P_CROSSROADS_LOCATION = P1[35], P1[36], P1[37], P1[38], P1[39]
P_SWAMP, P_PALACE, P_MARSH_LOCATION = P1[40], P1[41], P1[42]
P_FARMLAND, P_SILOS, P_HARVEST_LOCATION, P_SCOUTS, P_MAYOR_ROWS = (
    P1[CH_FARMLAND], P1[CH_SILOS], P1[CH_HARVEST_LOCATION], P1[CH_SCOUTS], P1[CH_MAYOR_ROWS])
assert (CH_FARMLAND, CH_MAYOR_ROWS) == (43, 47)
P_ISLAND_HEXES, P_ISLAND_PIECES = P1[CH_ISLAND_HEXES], P1[CH_ISLAND_HEXES + 1]


@njit(cache=True)
def set_code(bits, plane: int, width: int, h: int, code: int) -> None:
    """Store `code` at hex h over the `width` bit planes from `plane` (overwriting what was there); bits is
    a packed row (plane p is words p * WORDS ..)."""
    w = plane * WORDS + h // BITS_PER_WORD
    b = np.int64(1) << (h % BITS_PER_WORD)
    for k in range(width):
        if (code >> k) & 1:
            bits[w + k * WORDS] |= b
        else:
            bits[w + k * WORDS] &= ~b


@njit(cache=True)
def or_words(bits, plane: int, st, at: int) -> None:
    """Plane `plane` of a packed row |= the hex set at st[at : at + WORDS]."""
    for i in range(WORDS):
        bits[plane * WORDS + i] |= st[at + i]
