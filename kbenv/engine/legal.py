"""What the player to move may decide now: legal hexes, powers and END_TURN."""

from __future__ import annotations

from numba import njit

from ..board.bitset import BITS_PER_WORD, WORDS, clear, copy_into, has, word_lowest_bit
from ..board.codes import BARN, HARBOR, NUM_POWERS, PADDOCK
from ..board.geometry import NUM_HEXES
from .board_ops import own_view
from .powers import power_has_completion, power_targets, source_has_target, terrain_build_targets
from .state import (
    CURRENT,
    HAND,
    LOC_TYPE,
    MANDATORY_DONE,
    NUM_LOCATIONS,
    PHASE,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_SOURCE,
    PHASE_TARGET,
    POWER,
    SOURCE,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    scratch_off,
)

TILE_ACTION_BASE = NUM_HEXES
END_TURN = NUM_HEXES + NUM_POWERS
ACTION_SIZE = END_TURN + 1

SCRATCH_LEGAL = scratch_off(0)  # legal hexes of the current decision
SCRATCH_TMP = scratch_off(1)


@njit(cache=True)
def is_move_power(power: int) -> bool:
    return power == BARN or power == HARBOR or power == PADDOCK


@njit(cache=True)
def usable_tile(st, p: int, power: int) -> int:
    """Index of a location whose tile of this power p may use now (held before this turn, unused), or -1."""
    ready = st[TILES_HELD + p] & ~st[TILES_FRESH + p] & ~st[TILES_USED + p]
    for i in range(st[NUM_LOCATIONS]):
        if (ready >> i) & 1 and st[LOC_TYPE + i] == power:
            return i
    return -1


@njit(cache=True)
def legal_powers(st) -> int:
    """Bit k set = activating power k is legal now."""
    if st[PHASE] != PHASE_IDLE:
        return 0
    p = st[CURRENT]
    tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
    bits = 0
    for power in range(NUM_POWERS):
        if usable_tile(st, p, power) >= 0 and power_has_completion(st, p, power, tmp):
            bits |= 1 << power
    return bits


@njit(cache=True)
def legal_hexes(st, out) -> None:
    """out = the hexes that are legal decisions now."""
    p = st[CURRENT]
    phase = st[PHASE]
    if (phase == PHASE_IDLE and st[MANDATORY_DONE] == 0) or phase == PHASE_MANDATORY:
        terrain_build_targets(st, p, st[HAND + p], out)
    elif phase == PHASE_TARGET:
        power_targets(st, p, st[POWER], st[SOURCE], out)
    elif phase == PHASE_SOURCE:
        copy_into(out, own_view(st, p))
        power = st[POWER]
        if power == PADDOCK:
            tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
            for h in range(NUM_HEXES):
                if has(out, h) and not source_has_target(st, p, power, h, tmp):
                    out[h // 60] &= ~(1 << (h % 60))
    else:
        clear(out)


@njit(cache=True)
def end_turn_legal(st) -> bool:
    return st[PHASE] == PHASE_IDLE and st[MANDATORY_DONE] == 1


@njit(cache=True)
def only_end_turn_legal(st) -> bool:
    """True when END_TURN is the one legal decision (the engine then takes it by itself)."""
    return end_turn_legal(st) and legal_powers(st) == 0


@njit(cache=True)
def legal_mask_into(st, mask) -> None:
    """Fill an int8 array of ACTION_SIZE with 1 for each legal action."""
    out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    legal_hexes(st, out)
    for h in range(NUM_HEXES):
        mask[h] = 1 if has(out, h) else 0
    bits = legal_powers(st)
    for k in range(NUM_POWERS):
        mask[TILE_ACTION_BASE + k] = (bits >> k) & 1
    mask[END_TURN] = 1 if end_turn_legal(st) else 0


@njit(cache=True)
def is_legal(st, action: int) -> bool:
    if action < 0 or action >= ACTION_SIZE:
        return False
    if action < NUM_HEXES:
        out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
        legal_hexes(st, out)
        return has(out, action)
    if action < END_TURN:
        return (legal_powers(st) >> (action - TILE_ACTION_BASE)) & 1 == 1
    return end_turn_legal(st)


@njit(cache=True)
def legal_action_list(st, out) -> int:
    """Write the legal actions into out (length ACTION_SIZE) in ascending order; return how many."""
    hexes = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    legal_hexes(st, hexes)
    n = 0
    for i in range(WORDS):
        w = hexes[i]
        while w != 0:
            out[n] = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            n += 1
    bits = legal_powers(st)
    for k in range(NUM_POWERS):
        if (bits >> k) & 1:
            out[n] = TILE_ACTION_BASE + k
            n += 1
    if end_turn_legal(st):
        out[n] = END_TURN
        n += 1
    return n
