"""The warrior zones' upkeep (C-12): the hexes next to a warrior stay closed when a piece leaves one of them."""

from __future__ import annotations

from numba import njit

from ...board.bitset import WORDS
from ..state import OCCUPIED, ZONE


@njit(cache=True)
def reblock_zone(st) -> None:
    """The warrior zones stay closed after a piece leaves one of their hexes (C-12)."""
    for i in range(WORDS):
        st[OCCUPIED + i] |= st[ZONE + i]
