"""Packed observations: the planes of kbenv.engine.observe / observe_v1 as bit planes, written by numba.

A packed observation is one row of int64 words (a uint8 view for users, kbenv.packed):

- bit planes first: each plane is one engine hex set, WORDS (7) int64 words of 60 bits (hex h is bit
  h % 60 of word h // 60; kbenv.board.bitset), 56 bytes a plane. A plane of 0/1 values is one bit
  plane; a plane with a few values (tiles left, nomad kinds, Crossroads pieces ...) is stored as a small
  integer code over 2-4 bit planes (lowest bit first), the value being code / denominator;
- then the float planes as float32: the scalar features (and with hints the hint-value plane), exactly
  the numbers the float observation holds.

The layout is declared once, in kbenv.engine.packed_layout (PACKED_V0, PACKED_V1; PACKED_HINTS below: one (bits,
denominator, floats) row per float channel), and kbenv.packed unpacks it (numpy) as agents.training.packed does
(torch): the result equals the float observation bit for bit (tests/test_packed_observations.py). Building a packed
observation copies the engine's own hex sets instead of writing 16,000-64,000 floats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import BITS_PER_WORD, EDGE_MASK, WORDS  # noqa: F401  (BITS_PER_WORD re-exported)
from ..board.codes import LOCATION, NUM_POWERS, NUM_TERRAIN_CODES
from ..board.geometry import NUM_HEXES
from ..policies.hints import F_HINT_BEST, F_HINT_VALUE, HINTED_NUM_FEATURES, hint_table
from .borrow import borrowed
from .dispatch.observe import expansion_bits
from .init import TILES_PER_LOCATION
from .legal import ACTION_SIZE, SCRATCH_LEGAL, legal_hexes
from .observe import NUM_CHANNELS, NUM_FEATURES, TERRAIN_CHANNEL, features_into
from .observe_v1 import (
    FIRST_NOMAD_LOCATION,
    features_v1_into,
)
from .packed_layout import (  # noqa: F401  (re-exported: the layout's names stay importable from here)
    BIT,
    P0,
    P1,
    P_CAPITOLS,
    P_CAVES,
    P_CITY_HALLS,
    P_CROSSROADS_LOCATION,
    P_EDGE,
    P_FARMLAND,
    P_HARVEST_LOCATION,
    P_ISLAND_HEXES,
    P_ISLAND_PIECES,
    P_LEGAL,
    P_LOCATION,
    P_LOCATION_OTHER,
    P_MARSH_LOCATION,
    P_MAYOR_ROWS,
    P_NOMAD_KIND,
    P_NOMAD_LOCATION,
    P_NOMAD_TILE,
    P_OTHER_PIECES,
    P_OWN,
    P_OWN_PIECES,
    P_PALACE,
    P_SCOUTS,
    P_SILOS,
    P_SOURCE,
    P_SWAMP,
    P_TILES,
    P_WALLS,
    P_ZONE,
    PACKED_V0,
    PACKED_V1,
    PLANE_BYTES,
    floats,
    num_floats,
    num_planes,
    or_words,
    plane_offsets,
    row_words,
    set_code,
)
from .state import (
    CAPITOL_HEX,
    CAVES,
    DECIDER,
    EXPANSIONS,
    LOC_HEX,
    LOC_TILES,
    LOC_TYPE,
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
    PHASE_TARGET,
    SOURCE,
    TERRAIN_MASKS,
    WALLS,
)

PACKED_HINTS = (*PACKED_V0[:-1], floats(HINTED_NUM_FEATURES), floats(NUM_HEXES), BIT)  # hint value, hint best
assert len(PACKED_HINTS) == NUM_CHANNELS + 2
assert TILES_PER_LOCATION < 4  # tiles left fit the 2 bit planes of channel 18
PH = plane_offsets(PACKED_HINTS)
P_HINT_BEST = PH[NUM_CHANNELS + 1]
F_HINT_VALUES = HINTED_NUM_FEATURES  # the hint-value plane's floats follow the features
TERRAIN_PLANE = np.array([P0[c] for c in TERRAIN_CHANNEL], dtype=np.int64)


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
    st = borrowed(st)
    bits = borrowed(bits)
    values = borrowed(values)
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
    st = borrowed(st)
    bits = borrowed(bits)
    values = borrowed(values)
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
    if st[EXPANSIONS] != 0:
        expansion_bits(st, player, bits)  # kbenv.engine.dispatch.observe


@njit(cache=True)
def pack_into(st, player: int, bits, values, v1: bool, hint_kind: int) -> None:
    """The packed observation of the layout in use: v1, v0 with hints (hint_kind > 0), or v0."""
    st = borrowed(st)
    bits = borrowed(bits)
    values = borrowed(values)
    if v1:
        pack_v1_into(st, player, bits, values)
    elif hint_kind:
        pack_hints_into(st, player, bits, values, hint_kind)
    else:
        pack_v0_into(st, player, bits, values)
