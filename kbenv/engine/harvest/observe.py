"""The Harvest planes and features of observation v1 (kbenv.engine.observe_layout), and their packed bits."""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import catalogue as CAT
from ...board.bitset import BITS_PER_WORD, WORDS, popcount, word_lowest_bit
from ...board.codes import FARMLAND, SILO
from ...board.geometry import COLS, NUM_HEXES, ROWS
from ..observe import mark_hexes
from ..observe_layout import (
    CH_FARMLAND,
    CH_HARVEST_LOCATION,
    CH_MAYOR_ROWS,
    CH_SCOUTS,
    CH_SILOS,
    F_FARMLAND_USED,
    F_HARVEST,
    F_HARVEST_CARDS,
    F_MAYOR_LINES,
    F_NUMBER_TILE_RETURN,
    F_NUMBER_TILES,
    F_NUMBER_TILES_LEFT,
    F_OTHERS_HARVEST_TILES,
    F_OWN_HARVEST_READY,
    F_OWN_HARVEST_TILES,
    F_ROVER_SECTIONS,
    F_SCOUTS_LEFT,
    F_SILO_MODE,
    F_SILO_STEPS,
    F_SILOS_LEFT,
    FIRST_HARVEST_CARD,
    FIRST_HARVEST_LOCATION,
    NUM_FEATURES_V1,
    NUM_HARVEST_CARDS,
    NUM_HARVEST_LOCATIONS,
    NUM_SECTORS,
    OBSERVATION_SHAPE_V1,
    SCOUT_POOL,
    SILO_BUILDS,
    mark_location_types,
)
from ..packed_layout import (
    P_FARMLAND,
    P_HARVEST_LOCATION,
    P_MAYOR_ROWS,
    P_SCOUTS,
    P_SILOS,
    or_words,
    set_code,
)
from ..state import (
    CARDS,
    CURRENT,
    FARMLAND_USED,
    LOC_HEX,
    LOC_TYPE,
    MAYOR_LINES,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    NUMBER_TILE_MODE,
    NUMBER_TILES,
    PHASE,
    PHASE_OVER,
    PHASE_SILO,
    ROVER_SECTIONS,
    SCOUTS,
    SILO_AT,
    SILO_LEFT,
    SILO_MODE,
    SILO_STEPS,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
)


@njit(cache=True, inline="always")
def harvest_planes(st, player: int, out) -> None:
    """The Harvest planes of the v1 observation: farmland, silos, Harvest location hexes, scouts, Mayors rows."""
    mark_hexes(out, CH_FARMLAND, st[TERRAIN_MASKS + FARMLAND * WORDS : TERRAIN_MASKS + (FARMLAND + 1) * WORDS])
    silos = st[TERRAIN_MASKS + SILO * WORDS : TERRAIN_MASKS + (SILO + 1) * WORDS]
    for i in range(WORDS):
        w = silos[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            out[CH_SILOS, h // 20, h % 20] = 0.5
    if st[PHASE] == PHASE_SILO and st[SILO_AT] > 0:
        h = st[SILO_AT] - 1
        out[CH_SILOS, h // 20, h % 20] = 1.0
    mark_location_types(st, out, CH_HARVEST_LOCATION, FIRST_HARVEST_LOCATION, NUM_HARVEST_LOCATIONS)
    mark_hexes(out, CH_SCOUTS, st[SCOUTS : SCOUTS + WORDS])
    for r in range(ROWS):
        marker = st[MAYOR_LINES + r] - 1
        if marker >= 0:
            out[CH_MAYOR_ROWS, r, :] = 1.0 if marker == player else 0.5


@njit(cache=True, inline="always")
def harvest_features(st, player: int, f) -> None:
    """The Harvest features: public facts only (number tiles, Mayors rows and scouts are public, decision 8)."""
    n = st[NUM_PLAYERS]
    f[F_HARVEST] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_HARVEST_LOCATION
        if 0 <= t < NUM_HARVEST_LOCATIONS:
            if (held >> i) & 1:
                f[F_OWN_HARVEST_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_OWN_HARVEST_READY + t] += 0.5
            for q in range(n):
                if q != player and (st[TILES_HELD + q] >> i) & 1:
                    f[F_OTHERS_HARVEST_TILES + t] += 0.125
    total = 0
    for k in range(n):
        value = st[NUMBER_TILES + (player + k) % n]
        total += value
        f[F_NUMBER_TILES + k] = value / CAT.NUMBER_TILE_POOL
    f[F_NUMBER_TILES_LEFT] = max(0, CAT.NUMBER_TILE_POOL - total) / CAT.NUMBER_TILE_POOL
    f[F_NUMBER_TILE_RETURN] = float(st[NUMBER_TILE_MODE])
    running = st[PHASE] != PHASE_OVER
    if running:
        f[F_FARMLAND_USED] = float(st[FARMLAND_USED + st[CURRENT]])
        for q in range(NUM_SECTORS):
            f[F_ROVER_SECTIONS + q] = float((st[ROVER_SECTIONS] >> q) & 1)
    f[F_SCOUTS_LEFT] = max(0, SCOUT_POOL - popcount(st[SCOUTS : SCOUTS + WORDS])) / SCOUT_POOL
    for r in range(ROWS):
        marker = st[MAYOR_LINES + r] - 1
        if marker == player:
            f[F_MAYOR_LINES] += 1.0 / ROWS
        elif marker >= 0:
            f[F_MAYOR_LINES + 1] += 1.0 / ROWS
    if st[PHASE] == PHASE_SILO:
        if 0 <= st[SILO_MODE] < 3:
            f[F_SILO_MODE + st[SILO_MODE]] = 1.0
        f[F_SILO_STEPS] = st[SILO_STEPS] / SILO_BUILDS
        f[F_SILOS_LEFT] = min(1.0, popcount(st[SILO_LEFT : SILO_LEFT + WORDS]) / 4.0)
    for k in range(NUM_CARDS_IN_PLAY):
        c = st[CARDS + k] - FIRST_HARVEST_CARD
        if 0 <= c < NUM_HARVEST_CARDS:
            f[F_HARVEST_CARDS + c] = 1.0


# 50 planes of 20 x 20 float32 (80 KB); the packed form (kbenv.engine.packed) is a few KB.
assert NUM_FEATURES_V1 <= NUM_HEXES and np.prod(OBSERVATION_SHAPE_V1) * 4 <= 80_000


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
