"""Applying one decision to a game state."""

from __future__ import annotations

from numba import njit

from ..board.codes import NUM_POWERS
from ..board.geometry import NUM_HEXES
from .board_ops import build_settlement, move_settlement
from .legal import END_TURN, TILE_ACTION_BASE, is_legal, is_move_power, usable_tile
from .state import (
    BUILT_THIS_TURN,
    CURRENT,
    DECISIONS,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    PHASE,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_SOURCE,
    PHASE_TARGET,
    POWER,
    SOURCE,
    SUPPLY,
    TILES_USED,
)
from .turns import end_turn, ensure_usable_card, settle

MANDATORY_BUILDS = 3


@njit(cache=True)
def apply_unchecked(st, action: int) -> None:
    """Apply a decision known to be legal."""
    p = st[CURRENT]
    phase = st[PHASE]
    st[DECISIONS] += 1
    if action == END_TURN:
        end_turn(st)
    elif action >= TILE_ACTION_BASE:
        power = action - TILE_ACTION_BASE
        st[TILES_USED + p] |= 1 << usable_tile(st, p, power)
        st[POWER] = power
        st[PHASE] = PHASE_SOURCE if is_move_power(power) else PHASE_TARGET
    elif phase == PHASE_IDLE or phase == PHASE_MANDATORY:
        build_settlement(st, p, action)
        st[BUILT_THIS_TURN] = 1
        st[MANDATORY_BUILT] += 1
        if st[MANDATORY_BUILT] == MANDATORY_BUILDS or st[SUPPLY + p] == 0:
            st[MANDATORY_DONE] = 1
            st[PHASE] = PHASE_IDLE
        else:
            st[PHASE] = PHASE_MANDATORY
            ensure_usable_card(st, p)
            if st[MANDATORY_DONE] == 1:
                st[PHASE] = PHASE_IDLE
    elif phase == PHASE_SOURCE:
        st[SOURCE] = action
        st[PHASE] = PHASE_TARGET
    else:
        if is_move_power(st[POWER]):
            move_settlement(st, p, st[SOURCE], action)
        else:
            build_settlement(st, p, action)
            st[BUILT_THIS_TURN] = 1
        st[POWER] = -1
        st[SOURCE] = -1
        st[PHASE] = PHASE_IDLE
        ensure_usable_card(st, p)
    settle(st)


@njit(cache=True)
def apply_action(st, action: int) -> bool:
    """Apply a decision if it is legal; return False (state untouched) if it is not."""
    if not is_legal(st, action):
        return False
    apply_unchecked(st, action)
    return True


__all__ = ["apply_action", "apply_unchecked", "NUM_POWERS", "NUM_HEXES"]
