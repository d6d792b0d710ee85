"""Observation v1 (kingdom_builder_v1): the v0 planes plus the expansion planes and features.

Channels 0..27 are exactly the v0 observation (kbenv.engine.observe; in expansion games the v0
features for phase, power and cards cover the base values only). Channels 28.. and the v1 features
are declared once, in kbenv.engine.observe_layout (V1_CHANNELS and V1_FEATURES; every name of it is found
here too); the env docstring and docs/api.md print these tables (`layout_table`). This module writes the
generic planes and features; each expansion's are written by its package (kbenv.engine.dispatch.observe). As
in v0, nothing hidden from the observer is read.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from ..board.bitset import WORDS
from .borrow import borrowed
from .dispatch.observe import current_round, expansion_features, expansion_planes
from .observe import NUM_CHANNELS, mark_hexes, observe_into
from .observe_layout import (  # noqa: F401  (re-exported: the layout's names stay importable from here)
    CH1,
    CH_CAPITOLS,
    CH_CAVES,
    CH_CITY_HALLS,
    CH_CROSSROADS_LOCATION,
    CH_FARMLAND,
    CH_FEATURES_V1,
    CH_HARVEST_LOCATION,
    CH_ISLAND_HEXES,
    CH_ISLAND_PIECES,
    CH_MARSH_LOCATION,
    CH_MAYOR_ROWS,
    CH_NOMAD_KIND,
    CH_NOMAD_LOCATION,
    CH_NOMAD_TILE,
    CH_OTHER_PIECES,
    CH_OWN_PIECES,
    CH_PALACE,
    CH_SCOUTS,
    CH_SILOS,
    CH_SWAMP,
    CH_WALLS,
    CH_ZONE,
    COUNTER_FEATURE,
    COUNTER_FIELD,
    COUNTER_PER_SEAT,
    F1,
    F_BONUS_LEFT,
    F_CAVE_USED,
    F_CROSSROADS,
    F_DISCARD_SWAMP,
    F_EXPANSIONS,
    F_EXTRA_CARDS,
    F_FARMLAND_USED,
    F_FORT_CARD,
    F_GOLD,
    F_HARVEST,
    F_HARVEST_CARDS,
    F_HARVEST_PHASE,
    F_ISLAND,
    F_MANDATORY_COUNT,
    F_MARSH_CARDS,
    F_MARSHLANDS,
    F_MAYOR_LINES,
    F_MOVER_SWAMP_CARD,
    F_NLOC_READY,
    F_NLOC_TILES,
    F_NUMBER_TILE_RETURN,
    F_NUMBER_TILES,
    F_NUMBER_TILES_LEFT,
    F_OTHERS,
    F_OTHERS_BONUS,
    F_OTHERS_HARVEST_TILES,
    F_OTHERS_MARSH_TILES,
    F_OUTPOST,
    F_OWN_BONUS,
    F_OWN_BONUS_READY,
    F_OWN_CROSSROADS_READY,
    F_OWN_CROSSROADS_TILES,
    F_OWN_EXTRA_CARDS,
    F_OWN_HARVEST_READY,
    F_OWN_HARVEST_TILES,
    F_OWN_MARSH_READY,
    F_OWN_MARSH_TILES,
    F_OWN_PIECES_LEFT,
    F_OWN_SWAMP_CARD,
    F_OWN_TURN,
    F_PHASE1,
    F_POWER1,
    F_REACTION,
    F_RED,
    F_REMOVED_TERRAIN,
    F_ROVER_SECTIONS,
    F_SCOUTS_LEFT,
    F_SILO_MODE,
    F_SILO_STEPS,
    F_SILOS_LEFT,
    F_STEPS_LEFT,
    F_STEPS_TAKEN,
    F_TASKS,
    F_TERRAIN_FIXED,
    F_TURN_TERRAIN,
    F_USABLE,
    F_VICTIM,
    F_WAITING,
    F_WALLS_LEFT,
    FIRST_CROSSROADS_LOCATION,
    FIRST_HARVEST_CARD,
    FIRST_HARVEST_LOCATION,
    FIRST_MARSH_CARD,
    FIRST_MARSH_LOCATION,
    FIRST_NOMAD_LOCATION,
    FIRST_RED_CARD,
    HARVEST_POWER_NAMES,
    HEX_DENOMINATOR,
    MARSH_POWER_NAMES,
    NUM_CHANNELS_V1,
    NUM_CROSSROADS_LOCATIONS,
    NUM_FEATURES_V1,
    NUM_HARVEST_CARDS,
    NUM_HARVEST_LOCATIONS,
    NUM_MARSH_LOCATIONS,
    NUM_PHASES_V1,
    NUM_SECTORS,
    NUM_TERRAIN_CARDS,
    NUM_USABLE,
    OBSERVATION_SHAPE_V1,
    PIECE_DENOMINATOR,
    POWER_SLOT,
    SCOUT,
    SCOUT_POOL,
    SILO_BUILDS,
    SWORD_POWER,
    V1_BASE_CHANNELS,
    V1_BASE_FEATURES,
    V1_CHANNELS,
    V1_CROSSROADS_CHANNELS,
    V1_CROSSROADS_FEATURES,
    V1_FEATURES,
    V1_HARVEST_CHANNELS,
    V1_HARVEST_FEATURES,
    V1_MARSHLANDS_CHANNELS,
    V1_MARSHLANDS_FEATURES,
    V1_POWER_NAMES,
    V1_PREFIX_FEATURES,
    layout_table,
    mark_location_types,
    set_f1,
)
from .state import (
    CAPITOL_HEX,
    CARDS,
    CAVE_USED,
    CAVES,
    EXPANSIONS,
    GOLD,
    LOC_HEX,
    LOC_TYPE,
    NOMAD_HEX,
    NOMAD_KIND,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NOMAD_ROUND,
    NUM_CAPITOLS,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_NOMADS,
    NUM_PLAYERS,
    OUTPOST_ARMED,
    PHASE,
    PHASE_SILO,
    POWER,
    STEPS_LEFT,
    STEPS_TAKEN,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    VICTIM,
    WALLS,
    WALLS_LEFT,
)


@njit(cache=True)
def observe_v1_into(st, player: int, out) -> None:
    """Write the v1 observation of `player` into out (NUM_CHANNELS_V1, 20, 20) float32."""
    st = borrowed(st)
    out = borrowed(out)
    observe_into(st, player, out[:NUM_CHANNELS])
    out[NUM_CHANNELS:] = 0.0
    mark_hexes(out, CH_WALLS, st[WALLS : WALLS + WORDS])
    mark_hexes(out, CH_CAVES, st[CAVES : CAVES + WORDS])
    for k in range(st[NUM_CAPITOLS]):
        h = st[CAPITOL_HEX + k]
        out[CH_CAPITOLS, h // 20, h % 20] = 1.0
    for i in range(st[NUM_NOMADS]):
        kind = st[NOMAD_KIND + i]
        h = st[NOMAD_HEX + i]
        if st[NOMAD_OWNER + i] == NOMAD_ON_SPACE and kind >= 0 and h >= 0:
            out[CH_NOMAD_TILE, h // 20, h % 20] = 1.0
            out[CH_NOMAD_KIND, h // 20, h % 20] = (kind + 1) / 11.0
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_NOMAD_LOCATION
        if 0 <= t < 4:  # the Nomads locations
            h = st[LOC_HEX + i]
            out[CH_NOMAD_LOCATION, h // 20, h % 20] = (t + 1) / 4.0
    if st[EXPANSIONS] != 0:
        expansion_planes(st, player, out)  # kbenv.engine.dispatch.observe
    f = np.zeros(NUM_FEATURES_V1, dtype=np.float32)
    features_v1_into(st, player, f)
    for k in range(NUM_FEATURES_V1):
        out[CH_FEATURES_V1, k // 20, k % 20] = f[k]


@njit(cache=True)
def features_v1_into(st, player: int, f) -> None:
    """Write the v1 scalar features of `player` (F1 indices) into f, a float32 vector of NUM_FEATURES_V1 or
    more zeros (the features_v1 plane, and the float part of kbenv.engine.packed)."""
    st = borrowed(st)
    f = borrowed(f)
    n = st[NUM_PLAYERS]
    r = current_round(st)
    others = 0
    for i in range(st[NUM_NOMADS]):
        owner = st[NOMAD_OWNER + i]
        kind = st[NOMAD_KIND + i]
        h = st[NOMAD_HEX + i]
        if owner == NOMAD_ON_SPACE and kind >= 0 and h >= 0:
            continue
        if owner == player and kind < NUM_USABLE:
            slot = F_USABLE if st[NOMAD_ROUND + i] + 1 == r else F_WAITING
            f[slot + kind] += 1.0
        elif owner >= 0 and owner != player:
            others += 1
    f[F_OTHERS] = others / 6.0
    if st[PHASE] < NUM_PHASES_V1:
        f[F_PHASE1 + st[PHASE]] = 1.0
    elif st[PHASE] >= PHASE_SILO:  # Harvest's phases (silo, choose_power)
        f[F_HARVEST_PHASE + st[PHASE] - PHASE_SILO] = 1.0
    else:
        f[F_REACTION] = 1.0
    if st[POWER] >= 0 and POWER_SLOT[st[POWER]] >= 0:
        f[POWER_SLOT[st[POWER]]] = 1.0
    for k in range(n):
        f[F_GOLD + k] = min(1.0, st[GOLD + (player + k) % n] / 50.0)
    f[F_WALLS_LEFT] = st[WALLS_LEFT] / CAT.WALLS_IN_GAME
    f[F_OUTPOST] = float(st[OUTPOST_ARMED])
    f[F_CAVE_USED] = float(st[CAVE_USED])
    f[F_STEPS_LEFT] = st[STEPS_LEFT] / 4.0
    f[F_STEPS_TAKEN] = st[STEPS_TAKEN] / 4.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_NOMAD_LOCATION
        if 0 <= t < 4:  # the Nomads locations
            if (held >> i) & 1:
                f[F_NLOC_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_NLOC_READY + t] += 0.5
    for k in range(NUM_CARDS_IN_PLAY):
        if FIRST_RED_CARD <= st[CARDS + k] < FIRST_RED_CARD + len(CAT.RED_CARDS):
            f[F_RED + st[CARDS + k] - FIRST_RED_CARD] = 1.0
    for b in range(3):
        if (st[EXPANSIONS] >> b) & 1:
            f[F_EXPANSIONS + b] = 1.0
    if st[PHASE] == 3 and st[VICTIM] >= 0 and st[POWER] == SWORD_POWER:
        f[F_VICTIM + (st[VICTIM] - player + n) % n] = 1.0
    if st[EXPANSIONS] != 0:
        expansion_features(st, player, f)  # kbenv.engine.dispatch.observe
