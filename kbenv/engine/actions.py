"""Applying one decision to a game state."""

from __future__ import annotations

from numba import njit

from ..board.bitset import WORDS, is_empty
from ..board.codes import BARN, NUM_POWERS, ORACLE
from ..board.geometry import NUM_HEXES
from ..catalogue import CROSSROADS as EXP_CROSSROADS
from ..catalogue import NOMADS as EXP_NOMADS
from .board_ops import build_settlement, move_settlement, remove_settlement
from .crossroads import (
    FORT_POWER,
    PIECE_STEPS,
    card_at,
    choosing_terrain,
    crossroads_target,
    fix_terrain,
    fort_discard,
    fort_draw,
    is_piece_power,
)
from .legal import (
    ACTION_POWER,
    CAVE_POWER,
    DONE,
    END_TURN,
    FIRST_NOMAD_POWER,
    SCRATCH_TMP,
    TILE_ACTION_BASE,
    is_legal,
    is_move_power,
    usable_tile,
)
from .nomads import DONATION_BUILDS, RESETTLEMENT_STEPS, families_after_mandatory, next_victim, place_wall, usable_nomad
from .powers import (
    CARAVAN_POWER,
    FIRST_EXPANSION_POWER,
    OUTPOST_POWER,
    QUARRY_POWER,
    RESETTLEMENT_POWER,
    SWORD_POWER,
    has_movable,
    power_targets,
)
from .state import (
    BUILT_THIS_TURN,
    CAVE_USED,
    DECIDER,
    DECISIONS,
    EXPANSIONS,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    MANDATORY_HEXES,
    MANDATORY_TARGET,
    NOMAD_GONE,
    NOMAD_OWNER,
    OUTPOST_ARMED,
    PHASE,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_SOURCE,
    PHASE_STEP,
    PHASE_TARGET,
    POWER,
    SOURCE,
    STEPS_LEFT,
    STEPS_TAKEN,
    SUPPLY,
    TILES_USED,
    VICTIM,
)
from .turns import end_turn, ensure_usable_card, settle

MANDATORY_BUILDS = 3  # the base rule; a turn's count is st[MANDATORY_TARGET]


@njit(cache=True)
def apply_unchecked(st, action: int) -> None:
    """Apply a decision known to be legal."""
    p = st[DECIDER]
    phase = st[PHASE]
    st[DECISIONS] += 1
    if action == END_TURN:
        end_turn(st)
    elif action == DONE:
        finish_power(st, p)
    elif action >= TILE_ACTION_BASE:
        activate(st, p, ACTION_POWER[action - NUM_HEXES])
    else:
        if st[EXPANSIONS] & EXP_CROSSROADS and choosing_terrain(st, p):
            fix_terrain_by_hex(st, p, phase, action)
        apply_hex(st, p, phase, action)
    settle(st)


@njit(cache=True)
def fix_terrain_by_hex(st, p: int, phase: int, h: int) -> None:
    """A Crossroads hand: the first hex chosen for the card's terrain fixes this turn's terrain (A-C8)."""
    power = st[POWER]
    if phase == PHASE_IDLE or phase == PHASE_MANDATORY or (
            phase == PHASE_TARGET and (power == ORACLE or power == BARN or power == QUARRY_POWER)):
        fix_terrain(st, p, card_at(st, h))


@njit(cache=True)
def apply_hex(st, p: int, phase: int, action: int) -> None:
    """A hex chosen: a mandatory build, a source to move, or a power's target."""
    if phase == PHASE_IDLE or phase == PHASE_MANDATORY:
        build_settlement(st, p, action)
        st[BUILT_THIS_TURN] = 1
        if st[EXPANSIONS] & EXP_NOMADS:
            mandatory_build_rules(st, p, action)
        st[MANDATORY_BUILT] += 1
        if st[MANDATORY_BUILT] >= st[MANDATORY_TARGET] or st[SUPPLY + p] == 0:
            st[MANDATORY_DONE] = 1
            st[PHASE] = PHASE_IDLE
            if st[EXPANSIONS] & EXP_NOMADS:
                families_after_mandatory(st, p, st[MANDATORY_BUILT])
        else:
            st[PHASE] = PHASE_MANDATORY
            ensure_usable_card(st, p)
            if st[MANDATORY_DONE] == 1:
                st[PHASE] = PHASE_IDLE
    elif phase == PHASE_SOURCE:
        st[SOURCE] = action
        st[PHASE] = PHASE_TARGET
    elif st[POWER] >= FIRST_EXPANSION_POWER:
        expansion_target(st, p, action)
    else:
        if is_move_power(st[POWER]):
            move_settlement(st, p, st[SOURCE], action)
        else:
            build_settlement(st, p, action)
            st[BUILT_THIS_TURN] = 1
        finish_power(st, p)


@njit(cache=True)
def finish_power(st, p: int) -> None:
    """The power is carried out: back to the idle phase (the no-eligible-hex check runs again)."""
    st[POWER] = -1
    st[SOURCE] = -1
    st[STEPS_LEFT] = 0
    st[STEPS_TAKEN] = 0
    st[PHASE] = PHASE_IDLE
    ensure_usable_card(st, p)


@njit(cache=True)
def activate(st, p: int, power: int) -> None:
    """Activate a location tile, a nomad tile or the cave move."""
    if power < FIRST_NOMAD_POWER:
        st[TILES_USED + p] |= 1 << usable_tile(st, p, power)
        st[POWER] = power
        st[PHASE] = PHASE_SOURCE if is_move_power(power) else PHASE_TARGET
        if power == FORT_POWER:
            fort_draw(st)
            if not has_target_now(st, p):  # no free hex of the drawn terrain: no build (C-6)
                fort_discard(st)
                finish_power(st, p)
        return
    if power == CAVE_POWER:
        st[CAVE_USED] = 1
        st[POWER] = power
        st[PHASE] = PHASE_SOURCE
        return
    kind = power - FIRST_NOMAD_POWER
    st[NOMAD_OWNER + usable_nomad(st, p, kind)] = NOMAD_GONE  # each nomad tile is used once (N-6)
    if power == OUTPOST_POWER:
        st[OUTPOST_ARMED] = 1  # the phase goes on: the next settlement built ignores adjacency
        return
    st[POWER] = power
    if power == RESETTLEMENT_POWER:
        st[STEPS_LEFT] = RESETTLEMENT_STEPS
        st[STEPS_TAKEN] = 0
        st[PHASE] = PHASE_SOURCE
    elif power == SWORD_POWER:
        st[VICTIM] = next_victim(st, p, p)
        st[PHASE] = PHASE_TARGET
    else:  # a donation: three builds on its terrain
        st[STEPS_LEFT] = DONATION_BUILDS
        st[STEPS_TAKEN] = 0
        st[PHASE] = PHASE_STEP


@njit(cache=True)
def has_target_now(st, p: int) -> bool:
    tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
    power_targets(st, p, st[POWER], st[SOURCE], tmp)
    return not is_empty(tmp)


@njit(cache=True)
def expansion_target(st, p: int, h: int) -> None:
    """A hex chosen for an expansion power (target or step)."""
    power = st[POWER]
    if power == CARAVAN_POWER or power == CAVE_POWER:
        move_settlement(st, p, st[SOURCE], h)
        finish_power(st, p)
    elif power == RESETTLEMENT_POWER:
        move_settlement(st, p, st[SOURCE], h)
        st[STEPS_LEFT] -= 1
        st[STEPS_TAKEN] += 1
        st[SOURCE] = -1
        tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
        if st[STEPS_LEFT] > 0 and has_movable(st, p, power, tmp):
            st[PHASE] = PHASE_SOURCE
        else:
            finish_power(st, p)
    elif power == SWORD_POWER:
        victim = st[VICTIM]
        remove_settlement(st, victim, h)
        st[VICTIM] = next_victim(st, p, victim)
        if st[VICTIM] < 0:
            finish_power(st, p)
    elif is_piece_power(power):
        if crossroads_target(st, p, power, h, st[PHASE] == PHASE_STEP):
            st[STEPS_LEFT] = (PIECE_STEPS if st[PHASE] == PHASE_TARGET else st[STEPS_LEFT]) - 1
            st[STEPS_TAKEN] += 1
            st[PHASE] = PHASE_STEP
            if st[STEPS_LEFT] > 0 and has_target_now(st, p):
                return
        finish_power(st, p)
    elif power == QUARRY_POWER:
        place_wall(st, h)
        if st[PHASE] == PHASE_TARGET and has_target_now(st, p):
            st[PHASE] = PHASE_STEP  # an optional second wall
        else:
            finish_power(st, p)
    else:  # Village, Garden, a donation, Forester's lodge, Monastery, Fort: build a settlement
        build_settlement(st, p, h)
        st[BUILT_THIS_TURN] = 1
        if power == FORT_POWER:
            fort_discard(st)
        st[STEPS_LEFT] -= 1
        if st[PHASE] == PHASE_STEP and st[STEPS_LEFT] > 0 and st[SUPPLY + p] > 0 and has_target_now(st, p):
            return
        finish_power(st, p)


@njit(cache=True)
def mandatory_build_rules(st, p: int, h: int) -> None:
    """Remember the mandatory hexes (Families)."""
    if st[MANDATORY_BUILT] < 3:
        st[MANDATORY_HEXES + st[MANDATORY_BUILT]] = h


@njit(cache=True)
def apply_action(st, action: int) -> bool:
    """Apply a decision if it is legal; return False (state untouched) if it is not."""
    if not is_legal(st, action):
        return False
    apply_unchecked(st, action)
    return True


__all__ = ["apply_action", "apply_unchecked", "NUM_POWERS", "NUM_HEXES"]
