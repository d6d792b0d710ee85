"""The Marshlands planes and features of observation v1 (kbenv.engine.observe_layout), and their packed bits."""

from __future__ import annotations

from numba import njit

from ...board.bitset import WORDS
from ...board.codes import PALACE, SWAMP, SWAMP_CARD_BASE
from ..deck import discard_off
from ..observe import mark_hexes
from ..observe_layout import (
    CH_MARSH_LOCATION,
    CH_PALACE,
    CH_SWAMP,
    COUNTER_FEATURE,
    COUNTER_FIELD,
    COUNTER_PER_SEAT,
    F_BONUS_LEFT,
    F_DISCARD_SWAMP,
    F_MANDATORY_COUNT,
    F_MARSH_CARDS,
    F_MARSHLANDS,
    F_MOVER_SWAMP_CARD,
    F_OTHERS_BONUS,
    F_OTHERS_MARSH_TILES,
    F_OWN_BONUS,
    F_OWN_BONUS_READY,
    F_OWN_MARSH_READY,
    F_OWN_MARSH_TILES,
    F_OWN_SWAMP_CARD,
    F_OWN_TURN,
    F_REMOVED_TERRAIN,
    F_TURN_TERRAIN,
    FIRST_MARSH_CARD,
    FIRST_MARSH_LOCATION,
    NUM_MARSH_LOCATIONS,
    NUM_TERRAIN_CARDS,
    mark_location_types,
)
from ..packed_layout import (
    P_MARSH_LOCATION,
    P_PALACE,
    P_SWAMP,
    or_words,
    set_code,
)
from ..state import (
    BONUS_FRESH,
    BONUS_HELD,
    BONUS_LEFT,
    BONUS_USED,
    CARDS,
    CURRENT,
    DISCARD_COUNT,
    EXTRA_COUNT,
    HAND,
    LOC_HEX,
    LOC_TYPE,
    MANDATORY_BUILT,
    MANDATORY_TARGET,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    PHASE,
    PHASE_OVER,
    REMOVED_TERRAIN,
    TERRAIN_FIXED,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    TURN_TERRAIN,
)


@njit(cache=True, inline="always")
def marsh_planes(st, out) -> None:
    """The Marshlands planes of the v1 observation: swamp, palaces, Marshlands location hexes."""
    mark_hexes(out, CH_SWAMP, st[TERRAIN_MASKS + SWAMP * WORDS : TERRAIN_MASKS + (SWAMP + 1) * WORDS])
    mark_hexes(out, CH_PALACE, st[TERRAIN_MASKS + PALACE * WORDS : TERRAIN_MASKS + (PALACE + 1) * WORDS])
    mark_location_types(st, out, CH_MARSH_LOCATION, FIRST_MARSH_LOCATION, NUM_MARSH_LOCATIONS)


@njit(cache=True, inline="always")
def marsh_features(st, player: int, f) -> None:
    """The Marshlands features. Public facts, the observer's own hand and the turn owner's played card only:
    other players' hands and the draw pile are never read."""
    n = st[NUM_PLAYERS]
    mover = st[CURRENT]
    f[F_MARSHLANDS] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_MARSH_LOCATION
        if 0 <= t < NUM_MARSH_LOCATIONS:
            if (held >> i) & 1:
                f[F_OWN_MARSH_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_OWN_MARSH_READY + t] += 0.5
            for q in range(n):
                if q != player and (st[TILES_HELD + q] >> i) & 1:
                    f[F_OTHERS_MARSH_TILES + t] += 0.125
    for t in range(NUM_MARSH_LOCATIONS):
        bit = 1 << (FIRST_MARSH_LOCATION + t)
        for q in range(n):
            if st[BONUS_HELD + q] & bit:
                if q == player:
                    f[F_OWN_BONUS + t] = 1.0
                    if (st[BONUS_FRESH + q] | st[BONUS_USED + q]) & bit == 0:
                        f[F_OWN_BONUS_READY + t] = 1.0
                else:
                    f[F_OTHERS_BONUS + t] += 0.5
        f[F_BONUS_LEFT + t] = st[BONUS_LEFT + t] / 2.0
    for c in range(len(COUNTER_FIELD)):  # per seat relative to self; the turn owner's while the game runs
        if COUNTER_PER_SEAT[c]:
            for k in range(n):
                f[COUNTER_FEATURE[c] + k] = min(1.0, st[COUNTER_FIELD[c] + (player + k) % n] / 4.0)
        elif st[PHASE] != PHASE_OVER:
            f[COUNTER_FEATURE[c]] = min(1.0, st[COUNTER_FIELD[c]] / 4.0)
    if st[HAND + player] >= SWAMP_CARD_BASE:
        f[F_OWN_SWAMP_CARD] = 1.0
    if st[PHASE] != PHASE_OVER and st[HAND + mover] >= SWAMP_CARD_BASE and (
            mover == player or st[EXTRA_COUNT + mover] == 0 or st[TERRAIN_FIXED] == 1):  # as v0's mover_card
        f[F_MOVER_SWAMP_CARD] = 1.0
    if st[PHASE] != PHASE_OVER:
        f[F_MANDATORY_COUNT] = min(1.0, st[MANDATORY_TARGET] / 8.0)
        f[F_MANDATORY_COUNT + 1] = min(1.0, st[MANDATORY_BUILT] / 8.0)
    discard = discard_off(st)
    for k in range(st[DISCARD_COUNT]):
        if st[discard + k] >= SWAMP_CARD_BASE:
            f[F_DISCARD_SWAMP + st[discard + k] - SWAMP_CARD_BASE] = 1.0
    if st[PHASE] != PHASE_OVER and st[TERRAIN_FIXED] == 1:
        t = st[TURN_TERRAIN]
        if 0 <= t < NUM_TERRAIN_CARDS:
            f[F_TURN_TERRAIN + t] = 1.0
        elif t == SWAMP:
            f[F_TURN_TERRAIN + NUM_TERRAIN_CARDS] = 1.0
    if 1 <= st[REMOVED_TERRAIN] <= NUM_TERRAIN_CARDS:
        f[F_REMOVED_TERRAIN + st[REMOVED_TERRAIN] - 1] = 1.0
    for k in range(NUM_CARDS_IN_PLAY):
        c = st[CARDS + k] - FIRST_MARSH_CARD
        if 0 <= c < 6:
            f[F_MARSH_CARDS + c] = 1.0
    if st[PHASE] != PHASE_OVER and mover == player:
        f[F_OWN_TURN] = 1.0


@njit(cache=True, inline="always")
def pack_marsh(st, bits) -> None:
    """The Marshlands bit planes (marsh_planes): swamp, palaces, Marshlands location hexes."""
    or_words(bits, P_SWAMP, st, TERRAIN_MASKS + SWAMP * WORDS)
    or_words(bits, P_PALACE, st, TERRAIN_MASKS + PALACE * WORDS)
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_MARSH_LOCATION
        if 0 <= t < NUM_MARSH_LOCATIONS:
            set_code(bits, P_MARSH_LOCATION, 3, st[LOC_HEX + i], t + 1)
