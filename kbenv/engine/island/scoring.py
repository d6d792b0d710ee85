"""The island's scoring (Queenie 2): Fishermen along its coast (A-QI2)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import NEIGHBOUR_MASK, has, intersects, to_hex_list
from ...board.codes import WATER
from ...board.geometry import NUM_CELLS
from ..board_ops import own_view, terrain_view
from .rules import touches_island_water


@njit(cache=True)
def island_fishermen(st, p: int) -> int:
    """Fishermen with the island: a settlement next to water, or on an island coast hex (A-QI2); one standing on
    water scores nothing, as without the island (EN 318)."""
    own = own_view(st, p)
    water = terrain_view(st, WATER)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    total = 0
    for k in range(n):
        h = hexes[k]
        if has(water, h):
            continue
        if intersects(NEIGHBOUR_MASK[h], water) or touches_island_water(st, h):
            total += 1
    return total
