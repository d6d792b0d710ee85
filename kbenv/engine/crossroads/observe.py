"""The Crossroads planes and features of observation v1 (kbenv.engine.observe_layout), and their packed bits."""

from __future__ import annotations

from numba import njit

from ...board.bitset import WORDS
from ...board.geometry import NUM_HEXES, STEP1
from ..marshlands.swamp import card_side
from ..observe import mark_hexes
from ..observe_layout import (
    CH_CITY_HALLS,
    CH_CROSSROADS_LOCATION,
    CH_OTHER_PIECES,
    CH_OWN_PIECES,
    CH_ZONE,
    F_CROSSROADS,
    F_EXTRA_CARDS,
    F_FORT_CARD,
    F_OWN_CROSSROADS_READY,
    F_OWN_CROSSROADS_TILES,
    F_OWN_EXTRA_CARDS,
    F_OWN_PIECES_LEFT,
    F_TASKS,
    F_TERRAIN_FIXED,
    FIRST_CROSSROADS_LOCATION,
    NUM_CROSSROADS_LOCATIONS,
    mark_location_types,
)
from ..packed_layout import (
    P_CITY_HALLS,
    P_CROSSROADS_LOCATION,
    P_OTHER_PIECES,
    P_OWN_PIECES,
    P_ZONE,
    or_words,
    set_code,
)
from ..piece_table import (
    CELL_PIECE_AT,
    LEFT_PIECE_AT,
    LEFT_PIECE_SLOTS,
    PLANE_PIECE_AT,
    PLANE_PIECE_CODE,
    PLANE_PIECE_SLOTS,
)
from ..state import (
    EXTRA_CARDS,
    EXTRA_COUNT,
    FORT_CARD,
    LOC_HEX,
    LOC_TYPE,
    MAX_EXTRA_CARDS,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    NUM_TASKS,
    TASKS,
    TERRAIN_FIXED,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    ZONE,
)


@njit(cache=True, inline="always")
def crossroads_planes(st, player: int, out) -> None:
    """The Crossroads planes of the v1 observation."""
    n = st[NUM_PLAYERS]
    mark_hexes(out, CH_ZONE, st[ZONE : ZONE + WORDS])
    for q in range(n):
        plane = CH_OWN_PIECES if q == player else CH_OTHER_PIECES
        for j in range(PLANE_PIECE_AT.shape[0]):  # the piece table's kinds of plane "pieces"
            first = PLANE_PIECE_AT[j] + q * PLANE_PIECE_SLOTS[j]
            for k in range(PLANE_PIECE_SLOTS[j]):
                at = st[first + k]
                if 0 < at <= NUM_HEXES:  # on a board hex (an island one: observe_island)
                    out[plane, (at - 1) // 20, (at - 1) % 20] = PLANE_PIECE_CODE[j] / 3.0
        centre = st[CELL_PIECE_AT + q] - 1
        if 0 <= centre < NUM_HEXES:
            value = 1.0 if q == player else 0.5
            out[CH_CITY_HALLS, centre // 20, centre % 20] = value
            for d in range(6):
                h = STEP1[centre, d]
                out[CH_CITY_HALLS, h // 20, h % 20] = value
    mark_location_types(st, out, CH_CROSSROADS_LOCATION, FIRST_CROSSROADS_LOCATION, NUM_CROSSROADS_LOCATIONS)


@njit(cache=True, inline="always")
def crossroads_features(st, player: int, f) -> None:
    """The Crossroads features (nothing hidden from the player: others' extra cards are counted, not named)."""
    n = st[NUM_PLAYERS]
    f[F_CROSSROADS] = 1.0
    for q in range(n):
        extra = st[EXTRA_COUNT + q]
        f[F_EXTRA_CARDS + (q - player + n) % n] = extra / 3.0
        if q == player:
            for k in range(extra):
                card = st[EXTRA_CARDS + q * MAX_EXTRA_CARDS + k]
                if card >= 0:
                    f[F_OWN_EXTRA_CARDS + card] += 1.0 / 3.0
    f[F_TERRAIN_FIXED] = float(st[TERRAIN_FIXED])
    if st[FORT_CARD] >= 0:  # a swamp card (Marshlands) marks its other terrain: the field has the 5 terrains
        f[F_FORT_CARD + card_side(st[FORT_CARD], 0)] = 1.0
    for j in range(LEFT_PIECE_AT.shape[0]):  # the piece table's Crossroads kinds: the share in the supply
        first = LEFT_PIECE_AT[j] + player * LEFT_PIECE_SLOTS[j]
        left = 0
        for k in range(LEFT_PIECE_SLOTS[j]):
            if st[first + k] == 0:
                left += 1
        f[F_OWN_PIECES_LEFT + j] = left / LEFT_PIECE_SLOTS[j]
    for k in range(st[NUM_TASKS]):
        f[F_TASKS + st[TASKS + k]] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_CROSSROADS_LOCATION
        if 0 <= t < NUM_CROSSROADS_LOCATIONS:
            if (held >> i) & 1:
                f[F_OWN_CROSSROADS_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_OWN_CROSSROADS_READY + t] += 0.5


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
