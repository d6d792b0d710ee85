"""Location tile powers: where each may build or move to, and whether it can be used at all.

Every building rule is a mask operation: candidates = allowed terrain & unoccupied, then restricted to
hexes next to the player's own settlements if that leaves any ("build adjacent if possible").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import (
    BITS_PER_WORD,
    EDGE_MASK,
    WORDS,
    add,
    clear,
    dilate_into,
    has,
    is_empty,
    remove,
    word_lowest_bit,
)
from ..board.codes import BARN, DESERT, FARM, GRASS, HARBOR, OASIS, ORACLE, PADDOCK, TAVERN, TOWER, WATER
from ..board.geometry import STEP1, STEP2
from ..catalogue import BUILD_POWERS, CAVE_POWER, FIRST_NOMAD_POWER, POWER_CODE
from .board_ops import (  # noqa: F401  (re-exported: the building rules live in board_ops)
    adjacent_view,
    free_of,
    own_view,
    restrict_adjacent_if_possible,
    settlements_word,
    terrain_build_targets,
    terrain_view,
)
from .crossroads import (
    choosing_terrain,
    crossroads_has_completion,
    crossroads_targets,
    hand_build_targets,
    hand_card,
    is_crossroads_power,
)
from .nomads import (
    GARDEN_TERRAIN,
    NUM_DONATIONS,
    caravan_targets,
    has_step,
    next_victim,
    quarry_targets,
    step_targets,
    village_targets,
)
from .queenies import cave_sources, cave_targets, next_to_cave
from .state import (
    BUILDABLE_MASK,
    EXTRA_COUNT,
    HAND,
    NO_CARD,
    OCCUPIED,
    OUTPOST_ARMED,
    PHASE,
    PHASE_STEP,
    SUPPLY,
    VICTIM,
    scratch_off,
)

BUILD_POWER = np.array(BUILD_POWERS, dtype=np.bool_)  # by power code: builds from the supply
FIRST_EXPANSION_POWER = POWER_CODE["caravan"]
CARAVAN_POWER = POWER_CODE["caravan"]
QUARRY_POWER = POWER_CODE["quarry"]
VILLAGE_POWER = POWER_CODE["village"]
GARDEN_POWER = POWER_CODE["garden"]
RESETTLEMENT_POWER = POWER_CODE["resettlement"]
OUTPOST_POWER = POWER_CODE["outpost"]
SWORD_POWER = POWER_CODE["sword"]

SCRATCH_LIFTED = scratch_off("lifted")  # adjacency of a player's settlements with one lifted
SCRATCH_CARD_TARGETS = scratch_off("hand")  # one card's targets inside a union over the hand


@njit(cache=True)
def tower_targets(st, p: int, out) -> None:
    for i in range(WORDS):
        out[i] = EDGE_MASK[i] & st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]
    if st[OUTPOST_ARMED] == 0:
        restrict_adjacent_if_possible(out, adjacent_view(st, p))


@njit(cache=True)
def free_buildable(st, h: int) -> bool:
    if h < 0:
        return False
    return has(st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], h) and not has(st[OCCUPIED : OCCUPIED + WORDS], h)


@njit(cache=True)
def tavern_targets(st, p: int, out) -> None:
    """Free buildable hexes at an end of a straight line of >= 3 of p's settlements."""
    clear(out)
    own = own_view(st, p)
    for i in range(WORDS):
        w = own[i]
        while w != 0:
            s = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            for d in range(6):
                s1 = STEP1[s, d]
                if s1 < 0 or not has(own, s1):
                    continue
                s2 = STEP1[s1, d]
                if s2 < 0 or not has(own, s2):
                    continue
                s3 = STEP1[s2, d]
                if free_buildable(st, s3):
                    add(out, s3)


@njit(cache=True)
def paddock_targets(st, src: int, out) -> None:
    """Free buildable hexes exactly two steps from src in a straight line."""
    clear(out)
    for d in range(6):
        t = STEP2[src, d]
        if free_buildable(st, t):
            add(out, t)


@njit(cache=True)
def move_targets(st, p: int, src: int, terrain: int, out) -> None:
    """Barn/Harbor destinations: free hexes of `terrain`, adjacent if possible once src is lifted."""
    free_of(st, terrain_view(st, terrain), out)
    lifted = st[SCRATCH_LIFTED : SCRATCH_LIFTED + WORDS]
    own = own_view(st, p)
    remove(own, src)
    dilate_into(lifted, own)
    add(own, src)
    restrict_adjacent_if_possible(out, lifted)


@njit(cache=True)
def power_targets(st, p: int, power: int, src: int, out) -> None:
    """Hexes the power may build on (or move src to)."""
    if power >= FIRST_EXPANSION_POWER:
        expansion_targets(st, p, power, src, out)
    else:
        base_power_targets(st, p, power, src, out)


@njit(cache=True)
def base_power_targets(st, p: int, power: int, src: int, out) -> None:
    """power_targets of the eight base powers (kept apart: the base game's hot path stays small)."""
    if power == ORACLE:
        if choosing_terrain(st, p):
            hand_build_targets(st, p, out)
        else:
            terrain_build_targets(st, p, st[HAND + p], out)
    elif power == FARM:
        terrain_build_targets(st, p, GRASS, out)
    elif power == OASIS:
        terrain_build_targets(st, p, DESERT, out)
    elif power == TOWER:
        tower_targets(st, p, out)
    elif power == TAVERN:
        tavern_targets(st, p, out)
    elif power == BARN:
        if choosing_terrain(st, p):
            hand_move_targets(st, p, src, out)
        else:
            move_targets(st, p, src, st[HAND + p], out)
    elif power == HARBOR:
        move_targets(st, p, src, WATER, out)
    else:
        paddock_targets(st, src, out)


@njit(cache=True)
def has_paddock_move(st, p: int) -> bool:
    for i in range(WORDS):
        w = settlements_word(st, p, i)
        while w != 0:
            s = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            for d in range(6):
                if free_buildable(st, STEP2[s, d]):
                    return True
    return False


@njit(cache=True)
def power_has_completion(st, p: int, power: int, tmp) -> bool:
    """Whether the power can be carried out now (so activating it is legal)."""
    if power >= FIRST_EXPANSION_POWER:
        return expansion_has_completion(st, p, power, tmp)
    return base_power_has_completion(st, p, power, tmp)


@njit(cache=True)
def base_power_has_completion(st, p: int, power: int, tmp) -> bool:
    """power_has_completion of the eight base powers."""
    if BUILD_POWER[power] and st[SUPPLY + p] == 0:
        return False
    if (power == ORACLE or power == BARN) and choosing_terrain(st, p):
        return hand_power_has_completion(st, p, power, tmp)
    if (power == ORACLE or power == BARN) and st[HAND + p] == NO_CARD:
        return False
    if power == BARN or power == HARBOR:
        # Every settlement can move as soon as one free hex of the terrain exists.
        if not has_settlement(st, p):
            return False
        free_of(st, terrain_view(st, st[HAND + p] if power == BARN else WATER), tmp)
        return not is_empty(tmp)
    if power == PADDOCK:
        return has_paddock_move(st, p)
    base_power_targets(st, p, power, -1, tmp)
    return not is_empty(tmp)


@njit(cache=True)
def source_has_target(st, p: int, power: int, src: int, tmp) -> bool:
    """Whether the settlement on src can be moved by the power."""
    if power == PADDOCK:
        paddock_targets(st, src, tmp)
        return not is_empty(tmp)
    if power == CARAVAN_POWER:
        caravan_targets(st, src, tmp)
        return not is_empty(tmp)
    if power == RESETTLEMENT_POWER:
        return has_step(st, src)
    if power == CAVE_POWER:
        return next_to_cave(st, src)
    return True


# ----- expansion powers (codes of kbenv.catalogue.POWER_NAMES from 8 on) ---------------------------
@njit(cache=True)
def is_donation(power: int) -> bool:
    return FIRST_NOMAD_POWER <= power < FIRST_NOMAD_POWER + NUM_DONATIONS


@njit(cache=True)
def builds_settlement(power: int) -> bool:
    """Powers that build settlements from the supply (the ones an Outpost can serve)."""
    return BUILD_POWER[power]


@njit(cache=True)
def expansion_targets(st, p: int, power: int, src: int, out) -> None:
    if power == CARAVAN_POWER:
        caravan_targets(st, src, out)
    elif power == QUARRY_POWER:
        if choosing_terrain(st, p):
            hand_quarry_targets(st, p, out)
        else:
            quarry_targets(st, p, st[HAND + p], out)
    elif power == VILLAGE_POWER:
        village_targets(st, p, out)
    elif power == GARDEN_POWER:
        terrain_build_targets(st, p, GARDEN_TERRAIN, out)
    elif is_donation(power):
        terrain_build_targets(st, p, power - FIRST_NOMAD_POWER, out)  # donations G C D F T W M = codes 0..6
    elif power == RESETTLEMENT_POWER:
        step_targets(st, src, out)
    elif power == SWORD_POWER:
        for i in range(WORDS):
            out[i] = settlements_word(st, st[VICTIM], i)
    elif is_crossroads_power(power):
        crossroads_targets(st, p, power, st[PHASE] == PHASE_STEP, out)
    elif power == CAVE_POWER:
        cave_targets(st, src, out)
    else:
        clear(out)


@njit(cache=True)
def has_movable(st, p: int, power: int, tmp) -> bool:
    """Whether one of p's settlements can be moved by the power."""
    for i in range(WORDS):
        w = settlements_word(st, p, i)
        while w != 0:
            s = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            if source_has_target(st, p, power, s, tmp):
                return True
    return False


@njit(cache=True)
def expansion_has_completion(st, p: int, power: int, tmp) -> bool:
    if builds_settlement(power) and st[SUPPLY + p] == 0:
        return False
    if power == CARAVAN_POWER or power == RESETTLEMENT_POWER:
        return has_movable(st, p, power, tmp)
    if power == CAVE_POWER:
        cave_sources(st, p, tmp)
        return not is_empty(tmp)
    if power == SWORD_POWER:
        return next_victim(st, p, p) >= 0
    if power == OUTPOST_POWER:
        return True
    if is_crossroads_power(power):
        return crossroads_has_completion(st, p, power, tmp)
    expansion_targets(st, p, power, -1, tmp)
    return not is_empty(tmp)


# ----- a Crossroads hand whose terrain is still open: the union over its cards (A-C8) ---------------
@njit(cache=True)
def has_settlement(st, p: int) -> bool:
    for i in range(WORDS):
        if settlements_word(st, p, i) != 0:
            return True
    return False


# The unions below and crossroads.hand_build_targets repeat one loop shape on purpose: merged into one
# kernel with a power argument, the larger function slowed the base game's hot path by 7-13% (measured
# with benchmarks.platform_speed against the separate kernels), so each stays small.
@njit(cache=True)
def hand_move_targets(st, p: int, src: int, out) -> None:
    """Barn destinations over every card of the hand."""
    clear(out)
    one = st[SCRATCH_CARD_TARGETS : SCRATCH_CARD_TARGETS + WORDS]
    for k in range(st[EXTRA_COUNT + p] + 1):
        card = hand_card(st, p, k)
        if card != NO_CARD:
            move_targets(st, p, src, card, one)
            for i in range(WORDS):
                out[i] |= one[i]


@njit(cache=True)
def hand_quarry_targets(st, p: int, out) -> None:
    """Quarry walls over every card of the hand."""
    clear(out)
    one = st[SCRATCH_CARD_TARGETS : SCRATCH_CARD_TARGETS + WORDS]
    for k in range(st[EXTRA_COUNT + p] + 1):
        card = hand_card(st, p, k)
        if card != NO_CARD:
            quarry_targets(st, p, card, one)
            for i in range(WORDS):
                out[i] |= one[i]


@njit(cache=True)
def hand_power_has_completion(st, p: int, power: int, tmp) -> bool:
    """Oracle or Barn with an open hand: some card of the hand gives a target."""
    if power == ORACLE:
        if st[SUPPLY + p] == 0:
            return False
        hand_build_targets(st, p, tmp)
        return not is_empty(tmp)
    if not has_settlement(st, p):
        return False
    for k in range(st[EXTRA_COUNT + p] + 1):
        card = hand_card(st, p, k)
        if card != NO_CARD:
            free_of(st, terrain_view(st, card), tmp)
            if not is_empty(tmp):
                return True
    return False
