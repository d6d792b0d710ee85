"""The Island (issue 23; spec 1.Q3): its location tile and its scoring readings, reached from generic engine code
only behind `st[EXPANSIONS] & ISLAND` (base games never run any of it).

Geometry (docs/design-notes.md "Island geometry"): the island's 20 hexes are the ids 400..419 of the same hex masks,
and NEIGHBOUR_MASK / STEP1 give them island neighbours only (A-QI2). So QI-1 needs no kernel: a build or move that
may go to "any free hex of the terrain" sees the island's hexes of that terrain in the same terrain mask, and once
a settlement stands there adjacency works as anywhere. Tower and the edge cards read EDGE_MASK (board hexes only,
A-QI3); Lords, Farmers and the other sector rules read SECTOR_MASK (board sectors only, A-QI4).

The island's one location hex is kept in the Island block of kbenv.engine.state, not in the 8 LOC_* slots of the
board: its tile is bit ISLAND_TILE_BIT of TILES_HELD / TILES_FRESH / TILES_USED. Its neighbours are fixed
(NEIGHBOUR_MASK of the hex).
"""

from __future__ import annotations

from numba import njit

from ... import catalogue as CAT
from ...board.bitset import COAST_MASK, ISLAND_ROW_MASK, NEIGHBOUR_MASK, WORDS, count_and, has, intersects
from ...board.geometry import ISLAND_COLS, ISLAND_ROWS, NUM_HEXES, ROWS
from ..state import (
    EXPANSIONS,
    ISLAND_LOC_AT,
    ISLAND_LOC_TILES,
    ISLAND_LOC_TYPE,
    ISLAND_MAYOR_LINES,
    MAX_LOCATIONS,
    OWN,
    RULE_FLAGS,
    SUPPLY,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
)

EXP_ISLAND = CAT.ISLAND
ISLAND_TILE_BIT = MAX_LOCATIONS  # bit of the island location's tile in TILES_HELD / TILES_FRESH / TILES_USED
ISLAND_TILE = 1 << ISLAND_TILE_BIT
BOARD_TILES = ISLAND_TILE - 1  # the bits of the board's location slots
NO_ISLAND_KNIGHTS = CAT.RULE_BIT["no_island_knights"]
COAST_NOT_WATER = CAT.RULE_BIT["island_coast_not_water"]
TILES_PER_LOCATION = 2  # EN 1443: "Put 2 corresponding location tiles on the location hex"


@njit(cache=True)
def island_location(st) -> int:
    """Hex id of the island's location hex, -1 when there is none."""
    return st[ISLAND_LOC_AT] - 1


# ----- the location tile (X-6 as for every location: taken at once, usable next turn, lost when left) ----------
@njit(cache=True, inline="always")
def seize_island_tile(st, p: int, h: int) -> None:
    """p built or moved onto h: take a tile of the island's location when h touches it and p has none yet."""
    loc = st[ISLAND_LOC_AT] - 1
    if loc >= 0 and st[ISLAND_LOC_TILES] > 0 and (st[TILES_HELD + p] & ISLAND_TILE) == 0 \
            and has(NEIGHBOUR_MASK[loc], h):
        st[ISLAND_LOC_TILES] -= 1
        st[TILES_HELD + p] |= ISLAND_TILE
        st[TILES_FRESH + p] |= ISLAND_TILE


@njit(cache=True, inline="always")
def drop_island_tile(st, p: int, h: int) -> None:
    """A settlement of p left h: p loses the island tile when no own settlement touches its location any more."""
    loc = st[ISLAND_LOC_AT] - 1
    if loc < 0 or (st[TILES_HELD + p] & ISLAND_TILE) == 0 or not has(NEIGHBOUR_MASK[loc], h):
        return
    if not intersects(st[OWN + p * WORDS : OWN + (p + 1) * WORDS], NEIGHBOUR_MASK[loc]):
        st[TILES_HELD + p] &= ~ISLAND_TILE
        st[TILES_FRESH + p] &= ~ISLAND_TILE
        st[TILES_USED + p] &= ~ISLAND_TILE


@njit(cache=True, inline="always")
def island_tile_types(st, tiles: int) -> int:
    """Bit t set = the island tile is among `tiles` and its location type is t."""
    if tiles & ISLAND_TILE and st[ISLAND_LOC_AT] > 0:
        return 1 << st[ISLAND_LOC_TYPE]
    return 0


@njit(cache=True, inline="always")
def usable_island_tile(st, ready: int, power: int) -> int:
    """ISLAND_TILE_BIT when the island tile is among `ready` and is of `power`'s type, else -1."""
    if ready & ISLAND_TILE and st[ISLAND_LOC_AT] > 0 and st[ISLAND_LOC_TYPE] == power:
        return ISLAND_TILE_BIT
    return -1


# ----- scoring (QI-2, A-QI1, A-QI2, A-QI4) ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def island_lines(st, p: int) -> int:
    """Discoverers: the island lines holding a settlement of p (at most 5 more gold, QI-2)."""
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    total = 0
    for r in range(ISLAND_ROWS):
        if intersects(own, ISLAND_ROW_MASK[r]):
            total += 1
    return total


@njit(cache=True, inline="always")
def island_best_line(st, p: int) -> int:
    """Knights: p's most settlements in one island line (0 with no_island_knights, A-QI1)."""
    if st[RULE_FLAGS] & NO_ISLAND_KNIGHTS:
        return 0
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    best = 0
    for r in range(ISLAND_ROWS):
        best = max(best, count_and(own, ISLAND_ROW_MASK[r]))
    return best


@njit(cache=True, inline="always")
def touches_island_water(st, h: int) -> bool:
    """A-QI2 (TG default): an island coast hex is next to the water around the island, unless
    island_coast_not_water."""
    return (st[RULE_FLAGS] & COAST_NOT_WATER) == 0 and has(COAST_MASK, h)


@njit(cache=True, inline="always")
def coast_water_into(st, out) -> None:
    """out |= the island's coast hexes when they count as next to water (A-QI2): a power's rule "next to water"
    then takes them as targets (its neighbour rule reads the water's neighbours)."""
    if (st[RULE_FLAGS] & COAST_NOT_WATER) == 0:
        for i in range(WORDS):
            out[i] |= COAST_MASK[i]


# ----- Harvest Mayors on the island (A-QI4, IA14) --------------------------------------------------------------
@njit(cache=True, inline="always")
def mark_island_row(st, p: int, h: int, line: int, contiguous: bool) -> bool:
    """Mayors: p's piece came onto island hex h; mark its island line when p holds `line` settlements in it
    (all 4 hexes of a line are next to each other, so A-H7 b reads the same). Returns True when the mark emptied
    p's supply."""
    r = (h - NUM_HEXES) // ISLAND_COLS
    if st[ISLAND_MAYOR_LINES + r] != 0 or st[SUPPLY + p] <= 0:
        return False
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    if count_and(own, ISLAND_ROW_MASK[r]) < line:
        return False
    st[ISLAND_MAYOR_LINES + r] = p + 1
    st[SUPPLY + p] -= 1
    return st[SUPPLY + p] == 0


@njit(cache=True)
def island_in_game(st) -> bool:
    return (st[EXPANSIONS] & EXP_ISLAND) != 0


__all__ = ["EXP_ISLAND", "ISLAND_TILE", "ISLAND_TILE_BIT", "ROWS"]
