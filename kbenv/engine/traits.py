"""The power traits of kbenv.catalogue.POWER_TRAITS as numba arrays, indexed by power code.

The dispatcher (kbenv.engine.powers for targets and completion, kbenv.engine.actions for activation and
chosen hexes, kbenv.engine.legal for timing and DONE) reads these arrays instead of naming powers; only
the rule codes (RULE_*) that are not generic name a kernel of their own.
"""

from __future__ import annotations

import numpy as np

from .. import catalogue as CAT
from ..board.codes import NUM_POWERS

TARGET_BUILD, TARGET_MOVE, TARGET_WALLS, TARGET_PIECE, TARGET_REMOVE, TARGET_ARM, TARGET_PASSIVE = (
    CAT.POWER_TARGETS.index(name) for name in ("build", "move", "walls", "piece", "remove", "arm", "passive"))
TIMING_TILE, TIMING_NOMAD_TILE, TIMING_ONCE_A_TURN, TIMING_BONUS_TILE, TIMING_PASSIVE, TIMING_REACTION = (
    CAT.POWER_TIMINGS.index(name) for name in ("tile", "nomad tile", "once a turn", "bonus tile", "passive",
                                               "reaction"))
RULE_CODE = {name: k for k, name in enumerate(CAT.POWER_RULES)}  # a kernel module may look its own rule up
RULE_TERRAIN, RULE_MOVE_TO_TERRAIN = RULE_CODE["terrain"], RULE_CODE["move to terrain"]
RULE_TOWER, RULE_TAVERN, RULE_PADDOCK = RULE_CODE["tower"], RULE_CODE["tavern"], RULE_CODE["paddock"]
RULE_CARAVAN, RULE_QUARRY, RULE_VILLAGE = RULE_CODE["caravan"], RULE_CODE["quarry"], RULE_CODE["village"]
RULE_STEP, RULE_SWORD, RULE_ARM = RULE_CODE["step"], RULE_CODE["sword"], RULE_CODE["arm"]
RULE_PASSIVE = RULE_CODE["passive"]
RULE_CITY_HALL, RULE_BARRACKS = RULE_CODE["city hall"], RULE_CODE["barracks"]
RULE_VEHICLE, RULE_CAVE = RULE_CODE["vehicle"], RULE_CODE["cave"]
assert (RULE_TERRAIN, RULE_MOVE_TO_TERRAIN) == (0, 1), "the generic rules come first"
# A rule code above LAST_GENERIC_RULE names a kernel of its own.
LAST_GENERIC_RULE = RULE_MOVE_TO_TERRAIN

# POWER_TERRAIN: a terrain code, or one of these.
TERRAIN_NONE = -1
TERRAIN_CARD = -2  # the turn's terrain card
TERRAIN_DRAWN = -3  # the card the power draws (Fort)
TERRAIN_BUILDABLE = -4  # any free buildable hex, as the rule kernel says


def _terrain(name: str | None) -> int:
    special = {None: TERRAIN_NONE, CAT.CARD_TERRAIN: TERRAIN_CARD, CAT.DRAWN_TERRAIN: TERRAIN_DRAWN,
               CAT.BUILDABLE_TERRAIN: TERRAIN_BUILDABLE}
    return special[name] if name in special else CAT.TERRAIN_CODE[name]


_ROWS = CAT.POWER_TRAITS
POWER_TARGET = np.array([CAT.POWER_TARGETS.index(t.target) for t in _ROWS], dtype=np.int64)
POWER_RULE = np.array([CAT.POWER_RULES.index(t.rule) for t in _ROWS], dtype=np.int64)
POWER_TERRAIN = np.array([_terrain(t.terrain) for t in _ROWS], dtype=np.int64)
POWER_TIMING = np.array([CAT.POWER_TIMINGS.index(t.timing) for t in _ROWS], dtype=np.int64)
POWER_SOURCE = np.array([t.source for t in _ROWS], dtype=np.bool_)  # choose a settlement first
POWER_STEPS = np.array([t.steps for t in _ROWS], dtype=np.int64)
POWER_STOP_EARLY = np.array([t.stop_early for t in _ROWS], dtype=np.bool_)  # DONE after the first hex
POWER_FIXES_TERRAIN = np.array([t.fixes_terrain for t in _ROWS], dtype=np.bool_)
BUILD_POWER = np.array(CAT.BUILD_POWERS, dtype=np.bool_)  # builds from the supply
# Derived: a power whose hexes are all alike steps from its activation on (PHASE_STEP, Donation), and
# counts STEPS_LEFT from there (Donation, Resettlement); a power whose first hex differs from its later
# steps (Quarry's optional second wall, a wagon's placement or first space) counts from its first step.
POWER_OPENS_IN_STEP = np.array([t.steps > 1 and not t.source and not t.stop_early for t in _ROWS], dtype=np.bool_)
POWER_COUNTS_FROM_START = np.array([t.steps > 1 and (t.source or not t.stop_early) for t in _ROWS], dtype=np.bool_)
# The expansion bit a power needs (0: the base game).
POWER_EXPANSION_BIT = np.array([CAT.EXPANSION_BIT[e] if e else 0 for e in CAT.POWER_EXPANSION], dtype=np.int64)
# The location type whose bonus tile a power code is (-1: none; M-9, M-15).
BONUS_TYPE = np.array([CAT.LOCATION_NAMES.index(name[: -len("_bonus")]) if name in CAT.BONUS_POWERS else -1
                       for name in CAT.POWER_NAMES], dtype=np.int64)
FIRST_BONUS_TYPE = CAT.LOCATION_NAMES.index(CAT.BONUS_TYPES[0])  # BONUS_LEFT is indexed from this type
assert CAT.LOCATION_NAMES[FIRST_BONUS_TYPE:][:4] == CAT.BONUS_TYPES
# Every plain settlement may be chosen as the source once one target exists (Barn, Harbor): no
# per-settlement check.
POWER_ANY_SOURCE = np.array([t.rule == "move to terrain" for t in _ROWS], dtype=np.bool_)

# Powers that do something as they are activated, beyond entering their phase (actions.special_activation):
# the Sword picks its first victim, a power on a drawn card draws it.
POWER_ACTIVATION_RULE = np.array([t.rule == "sword" or t.terrain == CAT.DRAWN_TERRAIN for t in _ROWS],
                                 dtype=np.bool_)
assert int((POWER_TARGET == TARGET_ARM).sum()) == 1
ARM_POWER = int(np.flatnonzero(POWER_TARGET == TARGET_ARM)[0])  # the Outpost: armed also while building (N-10)
# The base game's powers are tile powers with generic or base rules: legal.legal_powers keeps them on a
# loop of their own (the base hot path).
assert all(POWER_TIMING[:NUM_POWERS] == TIMING_TILE) and all(POWER_EXPANSION_BIT[:NUM_POWERS] == 0)
# ... and their rules are these (powers.base_has_completion reads the rule code among them only).
BASE_RULES = (RULE_TERRAIN, RULE_MOVE_TO_TERRAIN, RULE_TOWER, RULE_TAVERN, RULE_PADDOCK)
assert set(POWER_RULE[:NUM_POWERS].tolist()) == set(BASE_RULES)
