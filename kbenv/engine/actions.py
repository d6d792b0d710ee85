"""Applying one decision to a game state."""

from __future__ import annotations

from numba import njit

from ..board.bitset import WORDS, is_empty
from ..board.codes import NUM_POWERS
from ..board.geometry import NUM_HEXES
from ..catalogue import ISLAND_ACTION_BASE
from .board_ops import build_settlement, move_settlement, remove_settlement, take_off
from .borrow import borrowed
from .dispatch import facts, flow
from .dispatch.powers import (
    RULE_FARMLAND,
    after_decision,
    apply_phase_decision,
    apply_reaction,
    barracks_target,
    begin_relocation,
    choose_option,
    fort_discard,
    fort_draw,
    next_victim,
    place_city_hall,
    place_wall,
    places_own_piece,
    reacting,
    relocate_city_hall,
    reserve_owed,
    take_farm_action,
    tiles_on_board,
    took_source_off,
    usable_nomad,
    vehicle_target,
)
from .legal import (
    ACTION_POWER,
    DONE,
    END_TURN,
    FIRST_NOMAD_POWER,
    OPTION_1,
    SCRATCH_TMP,
    is_legal,
    usable_tile,
)
from .powers import has_movable, power_targets
from .state import (
    BONUS_USED,
    BUILT_THIS_TURN,
    CAVE_USED,
    CITY_HALL_AT,
    CURRENT,
    DECIDER,
    DECISIONS,
    EXPANSIONS,
    FRAME_DEPTH,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    MANDATORY_TARGET,
    NOMAD_GONE,
    NOMAD_OWNER,
    OUTPOST_ARMED,
    PHASE,
    PHASE_CHOOSE_POWER,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_SILO,
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
from .traits import (
    BONUS_TYPE,
    BUILD_POWER,
    POWER_ACTIVATION_RULE,
    POWER_COUNTS_FROM_START,
    POWER_OPENS_IN_STEP,
    POWER_RULE,
    POWER_SOURCE,
    POWER_STEPS,
    POWER_TARGET,
    POWER_TERRAIN,
    POWER_TIMING,
    RULE_BARRACKS,
    RULE_CITY_HALL,
    RULE_SWORD,
    TARGET_ARM,
    TARGET_BUILD,
    TARGET_MOVE,
    TARGET_PIECE,
    TARGET_REMOVE,
    TARGET_WALLS,
    TERRAIN_DRAWN,
    TIMING_BONUS_TILE,
    TIMING_ONCE_A_TURN,
    TIMING_TILE,
)
from .turns import end_turn, ensure_usable_card, settle

MANDATORY_BUILDS = 3  # the base rule; a turn's count is st[MANDATORY_TARGET]


@njit(cache=True)
def apply_unchecked(st, action: int) -> None:
    """Apply a decision known to be legal."""
    st = borrowed(st)
    if st[EXPANSIONS] == 0:
        apply_decision(st, action)  # the base game's fast path
    elif st[PHASE] == PHASE_SILO:  # (Harvest games only)
        apply_phase_decision(st, hex_of(action))  # Harvest's silo end phase (no reactions: the game is over)
    elif facts.has_reactions(st):
        apply_marshlands(st, action)
    else:
        apply_decision(st, action)
    settle(st)


@njit(cache=True)
def hex_of(action: int) -> int:
    """The hex id of an island hex's action (kbenv.engine.island.rules), any other action unchanged: for the
    phases whose decisions are hexes, DONE and options only (a reaction, the silo phase)."""
    return action - ISLAND_ACTION_BASE + NUM_HEXES if action >= ISLAND_ACTION_BASE else action


@njit(cache=True, inline="always")
def apply_marshlands(st, action: int) -> None:
    """A decision of a Marshlands game: a reaction's own, or any other; a last tile taken opens a frame of
    reactions (kbenv.engine.marshlands.hooks)."""
    before = tiles_on_board(st)
    taker = st[DECIDER]
    if reacting(st):
        st[DECISIONS] += 1
        apply_reaction(st, hex_of(action), DONE)
    else:
        apply_decision(st, action)
    after_decision(st, before, taker)
    if st[FRAME_DEPTH] == 0 and build_left_without_supply(st):
        finish_power(st, st[CURRENT])  # a reaction spent the turn owner's last settlement (EN 1107)
        if reserve_owed(st) == 0:
            st[MANDATORY_DONE] = 1  # and nothing is left for the mandatory action either


@njit(cache=True, inline="always")
def build_left_without_supply(st) -> bool:
    """The turn owner's power is waiting for a build (its next or optional step) while the owner's supply is
    empty: a Marshlands reaction of the owner (a rule flag lets the taker react) built the last settlement
    between two builds."""
    power = st[POWER]
    return (power >= 0 and BUILD_POWER[power] and (st[PHASE] == PHASE_STEP or st[PHASE] == PHASE_TARGET)
            and st[SUPPLY + st[CURRENT]] == 0)


@njit(cache=True)
def apply_decision(st, action: int) -> None:
    """Apply a decision of the turn owner's flow (no forced END_TURN taken yet)."""
    p = st[DECIDER]
    phase = st[PHASE]
    st[DECISIONS] += 1
    if action < NUM_HEXES or action >= ISLAND_ACTION_BASE:  # a hex (the most frequent decision first) or an island hex
        h = hex_of(action)
        if st[EXPANSIONS] != 0:
            flow.hex_chosen(st, p, phase, h)  # an open hand's first hex fixes the turn's terrain (A-C8)
        apply_hex(st, p, phase, h)
    elif action == END_TURN:
        end_turn(st)
    elif action == DONE:
        finish_power(st, p)
    elif action == OPTION_1 or action == OPTION_1 + 1:
        if choose_option(st, p, action - OPTION_1):  # a Harvest choice (number tiles: take / return)
            finish_power(st, p)
    else:
        activate(st, p, ACTION_POWER[action - NUM_HEXES])


@njit(cache=True, inline="always")
def apply_hex(st, p: int, phase: int, action: int) -> None:
    """A hex chosen: a mandatory build, a source to move, or a power's target."""
    if phase == PHASE_IDLE or phase == PHASE_MANDATORY:
        if st[EXPANSIONS] != 0:
            flow.mandatory_build_begins(st, p)  # (a reserve owed is built first, A-M6)
        build_settlement(st, p, action)
        st[BUILT_THIS_TURN] = 1
        if st[EXPANSIONS] != 0:
            flow.mandatory_build_done(st, p, action)
        st[MANDATORY_BUILT] += 1
        if st[MANDATORY_BUILT] >= st[MANDATORY_TARGET] or (st[SUPPLY + p] == 0 and reserve_owed(st) == 0):
            st[MANDATORY_DONE] = 1
            st[PHASE] = PHASE_IDLE
            if st[EXPANSIONS] != 0:
                flow.mandatory_action_done(st, p)
        else:
            st[PHASE] = PHASE_MANDATORY
            ensure_usable_card(st, p)
            if st[MANDATORY_DONE] == 1:
                st[PHASE] = PHASE_IDLE
    elif phase == PHASE_SOURCE:
        if POWER_TARGET[st[POWER]] == TARGET_REMOVE:  # a removal with a source takes that settlement off
            power_target(st, p, st[POWER], action)
            return
        st[SOURCE] = action
        st[PHASE] = PHASE_TARGET
    else:
        power_target(st, p, st[POWER], action)


@njit(cache=True)
def finish_power(st, p: int) -> None:
    """The power is carried out: back to the idle phase (the no-eligible-hex check runs again)."""
    st[POWER] = -1
    st[SOURCE] = -1
    st[STEPS_LEFT] = 0
    st[STEPS_TAKEN] = 0
    st[PHASE] = PHASE_IDLE
    if st[EXPANSIONS] != 0:
        flow.power_finished(st)
    ensure_usable_card(st, p)


# ----- activation: the timing trait says what is spent, the traits say the first phase ---------------------
@njit(cache=True)
def activate(st, p: int, power: int) -> None:
    """Activate a location tile, a nomad tile or the cave move."""
    timing = POWER_TIMING[power]
    repeating = st[PHASE] == PHASE_CHOOSE_POWER  # (Harvest games only)
    if repeating:
        pass  # named by a repeat (Harvest, A-H3): it runs once more without using its own tile
    elif timing == TIMING_TILE:
        st[TILES_USED + p] |= 1 << usable_tile(st, p, power)
    elif timing == TIMING_ONCE_A_TURN:  # the cave move, or the Harvest farm action (A-H1)
        if POWER_RULE[power] == RULE_FARMLAND:
            take_farm_action(st, p)
        else:
            st[CAVE_USED] = 1
    elif timing == TIMING_BONUS_TILE:
        st[BONUS_USED + p] |= 1 << BONUS_TYPE[power]
    else:
        st[NOMAD_OWNER + usable_nomad(st, p, power - FIRST_NOMAD_POWER)] = NOMAD_GONE  # used once (N-6)
    if POWER_TARGET[power] == TARGET_ARM:
        st[OUTPOST_ARMED] = 1  # the phase goes on: the next settlement built ignores adjacency (N-10)
        return
    if st[EXPANSIONS] != 0 and flow.enters_choice(st, p, power):
        return  # a repeat (Harvest, A-H3): the power to run once more is chosen next
    st[POWER] = power
    if POWER_COUNTS_FROM_START[power]:
        st[STEPS_LEFT] = POWER_STEPS[power]
        st[STEPS_TAKEN] = 0
    if POWER_SOURCE[power]:
        st[PHASE] = PHASE_SOURCE
    elif POWER_OPENS_IN_STEP[power]:
        st[PHASE] = PHASE_STEP
    else:
        st[PHASE] = PHASE_TARGET
    if repeating and places_own_piece(power):
        begin_relocation(st, p, power)  # the repeat relocates the scouts or the city hall (EN 1305-1307)
    if POWER_ACTIVATION_RULE[power]:
        special_activation(st, p, power)


@njit(cache=True, inline="always")
def special_activation(st, p: int, power: int) -> None:
    """What a power does as it is activated, beyond its phase: the Sword picks its first victim (A-N5); a
    power that builds on a drawn card draws it, and ends at once if it has no free hex (Fort, C-6)."""
    if POWER_RULE[power] == RULE_SWORD:
        st[VICTIM] = next_victim(st, p, p)
    elif POWER_TERRAIN[power] == TERRAIN_DRAWN:
        fort_draw(st)
        if not has_target_now(st, p):
            fort_discard(st)
            finish_power(st, p)


@njit(cache=True)
def has_target_now(st, p: int) -> bool:
    tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
    power_targets(st, p, st[POWER], st[SOURCE], tmp)
    return not is_empty(tmp)


# ----- a chosen hex: what it does comes from the `target` trait --------------------------------------------
@njit(cache=True)
def power_target(st, p: int, power: int, h: int) -> None:
    """A hex chosen for the power being resolved (its target or next step)."""
    target = POWER_TARGET[power]
    if target == TARGET_BUILD:
        build_target(st, p, power, h)
    elif target == TARGET_MOVE:
        move_target(st, p, power, h)
    else:
        special_target(st, p, power, target, h)


@njit(cache=True, inline="always")
def build_target(st, p: int, power: int, h: int) -> None:
    """Build a settlement on h; a power of several steps goes on while it has steps, supply and a target."""
    build_settlement(st, p, h)
    st[BUILT_THIS_TURN] = 1
    if st[EXPANSIONS] != 0:
        flow.power_build_done(st, p, h)
    if POWER_TERRAIN[power] == TERRAIN_DRAWN:
        fort_discard(st)
    st[STEPS_LEFT] -= 1
    if st[EXPANSIONS] != 0 and flow.build_goes_on(st, p, power) and st[SUPPLY + p] > 0 and has_target_now(st, p):
        st[PHASE] = PHASE_STEP  # the next build for a number tile (DONE may stop it, A-H5)
        st[STEPS_LEFT] = 0  # its builds are counted by NUMBER_TILES, not in steps (a position's steps_left: 0..4)
        return
    if st[PHASE] == PHASE_STEP and st[STEPS_LEFT] > 0 and st[SUPPLY + p] > 0 and has_target_now(st, p):
        return
    finish_power(st, p)


@njit(cache=True, inline="always")
def move_target(st, p: int, power: int, h: int) -> None:
    """Move the source settlement to h; a power of several steps (Resettlement) chooses its next source."""
    move_settlement(st, p, st[SOURCE], h)
    if POWER_STEPS[power] > 1:
        st[STEPS_LEFT] -= 1
        st[STEPS_TAKEN] += 1
        st[SOURCE] = -1
        tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
        if st[STEPS_LEFT] > 0 and has_movable(st, p, power, tmp):
            st[PHASE] = PHASE_SOURCE
            return
    finish_power(st, p)


@njit(cache=True, inline="always")
def special_target(st, p: int, power: int, target: int, h: int) -> None:
    """Walls, pieces and removals: the registration spot of their rules' effects."""
    if target == TARGET_WALLS:
        place_wall(st, h)
        if st[PHASE] == PHASE_TARGET and POWER_STEPS[power] > 1 and has_target_now(st, p):
            st[PHASE] = PHASE_STEP  # an optional second wall (Quarry)
            return
    elif target == TARGET_PIECE:
        rule = POWER_RULE[power]
        if rule == RULE_CITY_HALL and st[CITY_HALL_AT + p] != 0:
            relocate_city_hall(st, p, h)  # a repeat moves it (EN 1305-1307)
        elif rule == RULE_CITY_HALL:
            place_city_hall(st, p, h)
        elif rule == RULE_BARRACKS:
            barracks_target(st, p, h)
        elif st[EXPANSIONS] != 0 and flow.piece_placed_by_power(st, p, power, h):
            if st[PHASE] == PHASE_TARGET and POWER_STEPS[power] > 1 and has_target_now(st, p):
                st[PHASE] = PHASE_STEP  # a second scout, or DONE (A-H4)
                return
        elif vehicle_target(st, p, power, h):  # the piece stepped: up to `steps` spaces, DONE after the first
            st[STEPS_LEFT] = (POWER_STEPS[power] if st[PHASE] == PHASE_TARGET else st[STEPS_LEFT]) - 1
            st[STEPS_TAKEN] += 1
            st[PHASE] = PHASE_STEP
            if st[STEPS_LEFT] > 0 and has_target_now(st, p):
                return
    elif target == TARGET_REMOVE and POWER_SOURCE[power]:  # the chosen own settlement goes off (Marshlands)
        take_off(st, p, h)  # tiles it orphans are lost (A-M6)
        took_source_off(st, p)
    elif target == TARGET_REMOVE:
        victim = st[VICTIM]
        remove_settlement(st, victim, h)
        st[VICTIM] = next_victim(st, p, victim)
        if st[VICTIM] >= 0:
            return
    finish_power(st, p)


@njit(cache=True)
def apply_action(st, action: int) -> bool:
    """Apply a decision if it is legal; return False (state untouched) if it is not."""
    st = borrowed(st)
    if not is_legal(st, action):
        return False
    apply_unchecked(st, action)
    return True


__all__ = ["apply_action", "apply_unchecked", "NUM_POWERS", "NUM_HEXES"]
