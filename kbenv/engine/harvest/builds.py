"""Harvest rule kernels (issue 22): the farm action (H-4, A-H1) and the four powers that build one settlement
"next to" something (H-7 Water mill, H-8 Mountain station, H-11 Watchtower, H-12 University).

Each builds on a free suitable hex (BUILDABLE_MASK: in Harvest games farmland too, X-4). The "next to" powers
keep "adjacent to own if possible" (X-5; an armed Outpost waives it, N-10); the farm action has no fallback: its
hex must touch its player's own settlements. Generic engine code reaches these kernels only through
kbenv.engine.harvest.hooks.
"""

from __future__ import annotations

from numba import njit

from ...board.bitset import BITS_PER_WORD, NEIGHBOUR_MASK, WORDS, clear, word_lowest_bit
from ...board.codes import CASTLE, FARMLAND, LOCATION, NOMAD, PALACE, SILO, WATER
from ..board_ops import adjacent_view, own_view, restrict_adjacent_if_possible, terrain_view
from ..island.rules import EXP_ISLAND, coast_water_into
from ..state import BUILDABLE_MASK, EXPANSIONS, NUM_PLAYERS, OCCUPIED, OUTPOST_ARMED


@njit(cache=True)
def _add_neighbours(out, mask) -> None:
    """out |= every hex next to a hex of mask."""
    for i in range(WORDS):
        w = mask[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            for j in range(WORDS):
                out[j] |= NEIGHBOUR_MASK[h, j]


@njit(cache=True)
def _free_suitable_adjacent_if_possible(st, p: int, out) -> None:
    """out (hexes next to the thing) &= free suitable hexes; then next to p's own if possible."""
    for i in range(WORDS):
        out[i] &= st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]
    if st[OUTPOST_ARMED] == 0:
        restrict_adjacent_if_possible(out, adjacent_view(st, p))


@njit(cache=True, inline="always")
def next_to_terrain_targets(st, p: int, terrain: int, out) -> None:
    """Water mill (terrain water, EN 1317), Mountain station (mountain, EN 1323)."""
    clear(out)
    _add_neighbours(out, terrain_view(st, terrain))
    if terrain == WATER and st[EXPANSIONS] & EXP_ISLAND:
        coast_water_into(st, out)  # the island's coast hexes touch the water around it (A-QI2)
    _free_suitable_adjacent_if_possible(st, p, out)


@njit(cache=True, inline="always")
def next_to_other_player_targets(st, p: int, out) -> None:
    """Watchtower (EN 1349): next to another player's settlement (their pieces that count as settlements too)."""
    clear(out)
    for q in range(st[NUM_PLAYERS]):
        if q != p:
            _add_neighbours(out, own_view(st, q))
    _free_suitable_adjacent_if_possible(st, p, out)


@njit(cache=True, inline="always")
def next_to_special_targets(st, p: int, out) -> None:
    """University (EN 1355): next to a location "including castles, nomads spaces, palaces and silos"."""
    clear(out)
    for code in (CASTLE, LOCATION, NOMAD, PALACE, SILO):
        _add_neighbours(out, terrain_view(st, code))
    _free_suitable_adjacent_if_possible(st, p, out)


@njit(cache=True, inline="always")
def farmland_targets(st, p: int, out) -> None:
    """The farm action (EN 1269, A-H1): a free farmland hex next to p's own settlements, no fallback."""
    farmland = terrain_view(st, FARMLAND)
    adjacent = adjacent_view(st, p)
    for i in range(WORDS):
        out[i] = farmland[i] & adjacent[i] & ~st[OCCUPIED + i]
