"""Hex actions: which action ids are island hexes, and the hex id of a hex action."""

from __future__ import annotations

from .. import catalogue as CAT
from ..board.geometry import ISLAND_FIRST, NUM_ISLAND_HEXES


def is_island_action(action: int) -> bool:
    """Whether an action id is an island hex's (`island r,c`, kbenv.catalogue.ISLAND_ACTIONS)."""
    return CAT.ISLAND_ACTION_BASE <= action < CAT.ISLAND_ACTION_BASE + NUM_ISLAND_HEXES


def action_hex(action: int) -> int:
    """The hex id of a hex action: the board's 0..399 as they are, `island r,c` as its island hex 400 + 4r + c."""
    return ISLAND_FIRST + action - CAT.ISLAND_ACTION_BASE if is_island_action(action) else action
