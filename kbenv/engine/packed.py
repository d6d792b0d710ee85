"""Packed observations: the planes of kbenv.engine.observe / observe_v1 as bit planes, written by numba.

A packed observation is one row of int64 words (a uint8 view for users, kbenv.packed):

- bit planes first: each plane is one engine hex set, WORDS (7) int64 words of 60 bits (hex h is bit
  h % 60 of word h // 60; kbenv.board.bitset), 56 bytes a plane. A plane of 0/1 values is one bit
  plane; a plane with a few values (tiles left, nomad kinds, Crossroads pieces ...) is stored as a small
  integer code over 2-4 bit planes (lowest bit first), the value being code / denominator;
- then the float planes as float32: the scalar features (and with hints the hint-value plane), exactly
  the numbers the float observation holds.

The layout is declared once below (PACKED_V0, PACKED_HINTS, PACKED_V1: one (bits, denominator, floats)
row per float channel), and kbenv.packed unpacks it (numpy) as agents.training.packed does (torch): the
result equals the float observation bit for bit (tests/test_packed_observations.py). Building a packed
observation copies the engine's own hex sets instead of writing 16,000-64,000 floats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from ..board.bitset import BITS_PER_WORD, EDGE_MASK, WORDS
from ..board.codes import FARMLAND, LOCATION, NUM_POWERS, NUM_TERRAIN_CODES, PALACE, SILO, SWAMP
from ..board.geometry import COLS, NUM_HEXES, ROWS, STEP1
from ..policies.hints import F_HINT_BEST, F_HINT_VALUE, HINTED_NUM_FEATURES, hint_table
from .init import TILES_PER_LOCATION
from .island.observe import HEX_DENOMINATOR, PIECE_DENOMINATOR, island_codes
from .legal import ACTION_SIZE, SCRATCH_LEGAL, legal_hexes
from .observe import NUM_CHANNELS, NUM_FEATURES, TERRAIN_CHANNEL, features_into
from .observe_v1 import (
    CH_FARMLAND,
    CH_HARVEST_LOCATION,
    CH_ISLAND_HEXES,
    CH_MAYOR_ROWS,
    CH_SCOUTS,
    CH_SILOS,
    FIRST_CROSSROADS_LOCATION,
    FIRST_HARVEST_LOCATION,
    FIRST_MARSH_LOCATION,
    FIRST_NOMAD_LOCATION,
    NUM_CHANNELS_V1,
    NUM_CROSSROADS_LOCATIONS,
    NUM_FEATURES_V1,
    NUM_HARVEST_LOCATIONS,
    NUM_MARSH_LOCATIONS,
    features_v1_into,
)
from .piece_table import CELL_PIECE_AT, PLANE_PIECE_AT, PLANE_PIECE_CODE, PLANE_PIECE_SLOTS
from .state import (
    CAPITOL_HEX,
    CAVES,
    DECIDER,
    EXPANSIONS,
    LOC_HEX,
    LOC_TILES,
    LOC_TYPE,
    MAYOR_LINES,
    NOMAD_HEX,
    NOMAD_KIND,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NUM_CAPITOLS,
    NUM_LOCATIONS,
    NUM_NOMADS,
    NUM_PLAYERS,
    OWN,
    PHASE,
    PHASE_OVER,
    PHASE_SILO,
    PHASE_TARGET,
    SCOUTS,
    SILO_AT,
    SOURCE,
    TERRAIN_MASKS,
    WALLS,
    ZONE,
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
PACKED_HINTS = (*PACKED_V0[:-1], floats(HINTED_NUM_FEATURES), floats(NUM_HEXES), BIT)  # hint value, hint best
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
assert len(PACKED_V0) == NUM_CHANNELS and len(PACKED_V1) == NUM_CHANNELS_V1 and len(PACKED_HINTS) == NUM_CHANNELS + 2


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
PH = plane_offsets(PACKED_HINTS)
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
P_HINT_BEST = PH[NUM_CHANNELS + 1]
F_HINT_VALUES = HINTED_NUM_FEATURES  # the hint-value plane's floats follow the features
assert TILES_PER_LOCATION < 4  # tiles left fit the 2 bit planes of channel 18
TERRAIN_PLANE = np.array([P0[c] for c in TERRAIN_CHANNEL], dtype=np.int64)


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


@njit(cache=True, inline="always")
def pack_planes_v0(st, player: int, bits) -> None:
    """The v0 bit planes (PACKED_V0) of `player`'s observation, into a zeroed packed row."""
    n = st[NUM_PLAYERS]
    to_move = st[PHASE] != PHASE_OVER and st[DECIDER] == player  # as observe_into
    for code in range(NUM_TERRAIN_CODES):
        if code != LOCATION:
            or_words(bits, TERRAIN_PLANE[code], st, TERRAIN_MASKS + code * WORDS)
    for i in range(WORDS):
        bits[P_EDGE * WORDS + i] = EDGE_MASK[i]
    if to_move:
        legal_hexes(st, st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS])
        or_words(bits, P_LEGAL, st, SCRATCH_LEGAL)
    for k in range(n):
        or_words(bits, P_OWN + k, st, OWN + ((player + k) % n) * WORDS)
    for i in range(st[NUM_LOCATIONS]):
        h = st[LOC_HEX + i]
        t = st[LOC_TYPE + i]
        set_code(bits, P_LOCATION + t if t < NUM_POWERS else P_LOCATION_OTHER, 1, h, 1)
        set_code(bits, P_TILES, 2, h, st[LOC_TILES + i])
    if st[PHASE] == PHASE_TARGET and st[SOURCE] >= 0:
        set_code(bits, P_SOURCE, 1, st[SOURCE], 1)


@njit(cache=True)
def pack_v0_into(st, player: int, bits, values) -> None:
    """The packed v0 observation of `player`: bits is the packed row (int64 words, all overwritten), values
    the float32 view of its words after the bit planes."""
    bits[:] = 0
    pack_planes_v0(st, player, bits)
    features_into(st, player, values)


@njit(cache=True, inline="always")
def pack_hints_into(st, player: int, bits, values, kind: int) -> None:
    """The packed v0 observation with the hint planes of `kind` (PACKED_HINTS)."""
    pack_v0_into(st, player, bits, values)
    gain = np.empty(ACTION_SIZE, dtype=np.float64)
    best = np.empty(ACTION_SIZE, dtype=np.float64)
    if not hint_table(st, player, kind, gain, best):
        return
    for a in range(ACTION_SIZE):
        if np.isnan(gain[a]):
            continue
        if a < NUM_HEXES:
            values[F_HINT_VALUES + a] = gain[a]
            set_code(bits, P_HINT_BEST, 1, a, int(best[a]))
        else:
            values[F_HINT_VALUE + a - NUM_HEXES] = gain[a]
            values[F_HINT_BEST + a - NUM_HEXES] = best[a]


@njit(cache=True, inline="always")
def pack_v1_into(st, player: int, bits, values) -> None:
    """The packed v1 observation of `player` (PACKED_V1): a packed row and the float32 view of its tail."""
    pack_v0_into(st, player, bits, values)
    features_v1_into(st, player, values[NUM_FEATURES:])
    or_words(bits, P_WALLS, st, WALLS)
    or_words(bits, P_CAVES, st, CAVES)
    for k in range(st[NUM_CAPITOLS]):
        set_code(bits, P_CAPITOLS, 1, st[CAPITOL_HEX + k], 1)
    for i in range(st[NUM_NOMADS]):
        kind = st[NOMAD_KIND + i]
        h = st[NOMAD_HEX + i]
        if st[NOMAD_OWNER + i] == NOMAD_ON_SPACE and kind >= 0 and h >= 0:
            set_code(bits, P_NOMAD_TILE, 1, h, 1)
            set_code(bits, P_NOMAD_KIND, 4, h, kind + 1)
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_NOMAD_LOCATION
        if 0 <= t < 4:
            set_code(bits, P_NOMAD_LOCATION, 3, st[LOC_HEX + i], t + 1)
    if st[EXPANSIONS] & CAT.CROSSROADS:
        pack_crossroads(st, player, bits)
    if st[EXPANSIONS] & CAT.MARSHLANDS:
        or_words(bits, P_SWAMP, st, TERRAIN_MASKS + SWAMP * WORDS)
        or_words(bits, P_PALACE, st, TERRAIN_MASKS + PALACE * WORDS)
        for i in range(st[NUM_LOCATIONS]):
            t = st[LOC_TYPE + i] - FIRST_MARSH_LOCATION
            if 0 <= t < NUM_MARSH_LOCATIONS:
                set_code(bits, P_MARSH_LOCATION, 3, st[LOC_HEX + i], t + 1)
    if st[EXPANSIONS] & CAT.HARVEST:
        pack_harvest(st, player, bits)
    if st[EXPANSIONS] & CAT.ISLAND:
        pack_island(st, player, bits)


@njit(cache=True, inline="always")
def pack_island(st, player: int, bits) -> None:
    """The island's two table channels (observe_island.island_codes), cell (r, c) at bit r * 20 + c."""
    codes = np.empty((2, 20, 20), dtype=np.int64)
    island_codes(st, player, codes)
    for r in range(20):
        for c in range(COLS):
            if codes[0, r, c]:
                set_code(bits, P_ISLAND_HEXES, 2, r * COLS + c, codes[0, r, c])
            if codes[1, r, c]:
                set_code(bits, P_ISLAND_PIECES, 3, r * COLS + c, codes[1, r, c])


@njit(cache=True, inline="always")
def pack_harvest(st, player: int, bits) -> None:
    """The Harvest bit planes (observe_v1.harvest_planes)."""
    or_words(bits, P_FARMLAND, st, TERRAIN_MASKS + FARMLAND * WORDS)
    or_words(bits, P_SILOS, st, TERRAIN_MASKS + SILO * WORDS)  # code 1 (its low bit plane)
    if st[PHASE] == PHASE_SILO and st[SILO_AT] > 0:
        set_code(bits, P_SILOS, 2, st[SILO_AT] - 1, 2)
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_HARVEST_LOCATION
        if 0 <= t < NUM_HARVEST_LOCATIONS:
            set_code(bits, P_HARVEST_LOCATION, 4, st[LOC_HEX + i], t + 1)
    or_words(bits, P_SCOUTS, st, SCOUTS)
    for r in range(ROWS):
        marker = st[MAYOR_LINES + r] - 1
        if marker >= 0:
            for c in range(COLS):
                set_code(bits, P_MAYOR_ROWS, 2, r * COLS + c, 2 if marker == player else 1)


@njit(cache=True, inline="always")
def pack_crossroads(st, player: int, bits) -> None:
    """The Crossroads bit planes (the order of writes is observe_v1.crossroads_planes', so that a later piece
    on the same hex wins as it does there)."""
    n = st[NUM_PLAYERS]
    or_words(bits, P_ZONE, st, ZONE)
    for q in range(n):
        plane = P_OWN_PIECES if q == player else P_OTHER_PIECES
        for j in range(PLANE_PIECE_AT.shape[0]):  # the piece table's "pieces" kinds, codes in thirds
            first = PLANE_PIECE_AT[j] + q * PLANE_PIECE_SLOTS[j]
            for k in range(PLANE_PIECE_SLOTS[j]):
                at = st[first + k]
                if at > 0:
                    set_code(bits, plane, 2, at - 1, PLANE_PIECE_CODE[j])
        centre = st[CELL_PIECE_AT + q] - 1
        if 0 <= centre < NUM_HEXES:  # a board hex, as the float plane (one on the island: observe_island)
            code = 2 if q == player else 1
            set_code(bits, P_CITY_HALLS, 2, centre, code)
            for d in range(6):
                h = STEP1[centre, d]
                # (off the board, -1: the float planes' negative index lands on hex 399; never in a legal game)
                set_code(bits, P_CITY_HALLS, 2, h + NUM_HEXES if h < 0 else h, code)
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_CROSSROADS_LOCATION
        if 0 <= t < NUM_CROSSROADS_LOCATIONS:
            set_code(bits, P_CROSSROADS_LOCATION, 4, st[LOC_HEX + i], t + 1)


@njit(cache=True)
def pack_into(st, player: int, bits, values, v1: bool, hint_kind: int) -> None:
    """The packed observation of the layout in use: v1, v0 with hints (hint_kind > 0), or v0."""
    if v1:
        pack_v1_into(st, player, bits, values)
    elif hint_kind:
        pack_hints_into(st, player, bits, values, hint_kind)
    else:
        pack_v0_into(st, player, bits, values)
