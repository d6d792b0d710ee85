"""Placing, lifting and moving settlements, with location-tile seizing and losing."""

from __future__ import annotations

from numba import njit

from ..board.bitset import HEX_BIT, HEX_WORD, WORDS, add, dilate_into, has, intersects, is_empty, remove
from ..board.geometry import STEP1
from .dispatch import board as board_events
from .state import (
    ADJACENT,
    CURRENT,
    ENDING,
    EXPANSIONS,
    LOC_NEIGHBOURS,
    LOC_TILES,
    MANDATORY_DONE,
    MEEPLES,
    NUM_LOCATIONS,
    OCCUPIED,
    OUTPOST_ARMED,
    OWN,
    SCOUTS,
    SUPPLY,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
)


@njit(cache=True)
def own_view(st, p: int):
    return st[OWN + p * WORDS : OWN + (p + 1) * WORDS]


@njit(cache=True, inline="always")
def own_this_turn(st, p: int):
    """What counts as p's settlements for the rules of the turn: OWN[p] and, in p's turn, p's scouts (Harvest,
    EN 1331 "They count as settlements during the player's turn"; no card counts them: they leave at its end)."""
    own = own_view(st, p)
    if p != st[CURRENT] or is_empty(st[SCOUTS : SCOUTS + WORDS]):
        return own
    return own | st[SCOUTS : SCOUTS + WORDS]


@njit(cache=True)
def adjacent_view(st, p: int):
    return st[ADJACENT + p * WORDS : ADJACENT + (p + 1) * WORDS]


@njit(cache=True)
def settlements_word(st, p: int, i: int) -> int:
    """Word i of p's plain settlements: OWN without the pieces that only count as settlements (A-X1 a)."""
    return st[OWN + p * WORDS + i] & ~st[MEEPLES + p * WORDS + i]


@njit(cache=True, inline="always")
def location_neighbours_view(st, i: int):
    return st[LOC_NEIGHBOURS + i * WORDS : LOC_NEIGHBOURS + (i + 1) * WORDS]


@njit(cache=True)
def seize_tiles(st, p: int, h: int) -> None:
    """Take one tile from each location hex next to h that still has tiles and gave p none yet."""
    word = LOC_NEIGHBOURS + HEX_WORD[h]  # word of h in location 0's neighbour mask (no views: the hot path)
    hex_bit = HEX_BIT[h]
    for i in range(st[NUM_LOCATIONS]):
        bit = 1 << i
        if (st[TILES_HELD + p] & bit) == 0 and st[LOC_TILES + i] > 0 and st[word + i * WORDS] & hex_bit:
            st[LOC_TILES + i] -= 1
            st[TILES_HELD + p] |= bit
            st[TILES_FRESH + p] |= bit
            if st[EXPANSIONS] != 0:
                board_events.tile_seized(st, p, i)
    if st[EXPANSIONS] != 0:
        board_events.tiles_seized(st, p, h)


@njit(cache=True)
def drop_orphaned_tiles(st, p: int, h: int) -> None:
    """After a settlement left h: discard the tiles of locations next to h that p no longer touches."""
    own = own_view(st, p)
    for i in range(st[NUM_LOCATIONS]):
        bit = 1 << i
        loc_nb = location_neighbours_view(st, i)
        if (st[TILES_HELD + p] & bit) != 0 and has(loc_nb, h) and not intersects(own, loc_nb):
            st[TILES_HELD + p] &= ~bit
            st[TILES_FRESH + p] &= ~bit
            st[TILES_USED + p] &= ~bit
    if st[EXPANSIONS] != 0:
        board_events.tiles_dropped(st, p, h)


@njit(cache=True)
def build_settlement(st, p: int, h: int) -> None:
    """Build a settlement from p's supply on h, seizing tiles; trigger the game end on the last one."""
    place_from_supply(st, p, h)
    if st[EXPANSIONS] == 0:
        return  # the base game's fast path
    if board_events.settlement_built(st, p, h):
        last_from_supply(st, p)


@njit(cache=True)
def place_from_supply(st, p: int, h: int) -> None:
    """The part of every build from the supply: h joins p's own and adjacent hexes, the supply shrinks (the
    last one triggers the end), tiles and Marshlands bonus tiles are seized. build_settlement adds the
    Nomads and Harvest consequences of a build in play; the Harvest silo phase has its own
    (kbenv.engine.harvest.silo)."""
    word = HEX_WORD[h]  # offsets, not views: the hot path
    st[OCCUPIED + word] |= HEX_BIT[h]
    st[OWN + p * WORDS + word] |= HEX_BIT[h]
    adjacent_at = ADJACENT + p * WORDS
    for d in range(6):
        n = STEP1[h, d]
        if n >= 0:
            st[adjacent_at + HEX_WORD[n]] |= HEX_BIT[n]
    st[SUPPLY + p] -= 1
    if st[SUPPLY + p] == 0:
        last_from_supply(st, p)
    seize_tiles(st, p, h)
    if st[EXPANSIONS] != 0:
        board_events.supply_build(st, p)


@njit(cache=True)
def harvest_after_placing(st, p: int, h: int) -> None:
    """Harvest: one of p's pieces was built, placed or moved onto h: Mayors may mark its row, taking a
    settlement from the supply, which may empty it (H-15, A-H7; kbenv.engine.harvest.scoring). Reached
    directly, not through kbenv.engine.harvest.hooks, which imports this module."""
    if board_events.piece_placed(st, p, h):
        last_from_supply(st, p)


@njit(cache=True)
def last_from_supply(st, p: int) -> None:
    """p's supply is empty: the game ends after this round, and nothing is left to build this turn; with
    Marshlands as kbenv.engine.marshlands.powers.supply_emptied says (a reserve set aside, A-M6)."""
    if st[EXPANSIONS] != 0 and board_events.supply_emptied(st, p):
        return
    st[ENDING] = 1
    st[MANDATORY_DONE] = 1  # nothing left to build this turn


@njit(cache=True)
def move_settlement(st, p: int, src: int, dst: int) -> None:
    """Move p's settlement from src to dst, seizing tiles at dst and losing orphaned ones at src."""
    occ = st[OCCUPIED : OCCUPIED + WORDS]
    own = own_view(st, p)
    remove(occ, src)
    remove(own, src)
    add(occ, dst)
    add(own, dst)
    dilate_into(adjacent_view(st, p), own)
    if st[EXPANSIONS] != 0:
        board_events.adjacency_changed(st, p)
    seize_tiles(st, p, dst)
    drop_orphaned_tiles(st, p, src)
    if st[EXPANSIONS] != 0:
        board_events.settlement_moved(st, p, dst)
        harvest_after_placing(st, p, dst)


@njit(cache=True, inline="always")
def remove_settlement(st, p: int, h: int) -> None:
    """Take p's settlement off h back into p's supply; p loses the tiles it no longer touches (N-11/12).

    The end of the game stays triggered once it was (A-N5)."""
    take_off(st, p, h)
    st[SUPPLY + p] += 1


@njit(cache=True)
def take_off(st, p: int, h: int) -> None:
    """Take p's piece off h (a settlement, or with Crossroads any piece of OWN): p loses the tiles it no
    longer touches, and a warrior zone the hex lies in stays closed."""
    remove(st[OCCUPIED : OCCUPIED + WORDS], h)
    own = own_view(st, p)
    remove(own, h)
    dilate_into(adjacent_view(st, p), own)
    if st[EXPANSIONS] != 0:
        board_events.adjacency_changed(st, p)
    drop_orphaned_tiles(st, p, h)
    if st[EXPANSIONS] != 0:
        board_events.piece_lifted(st, p)


# ----- the building rules shared by every power: terrain, free hexes, adjacent if possible ---------
@njit(cache=True)
def terrain_view(st, code: int):
    return st[TERRAIN_MASKS + code * WORDS : TERRAIN_MASKS + (code + 1) * WORDS]


@njit(cache=True)
def restrict_adjacent_if_possible(out, adj) -> None:
    """out &= adj, unless that would leave nothing (building rule 3)."""
    if intersects(out, adj):
        for i in range(WORDS):
            out[i] &= adj[i]


@njit(cache=True)
def free_of(st, allowed, out) -> None:
    """out = allowed & unoccupied."""
    for i in range(WORDS):
        out[i] = allowed[i] & ~st[OCCUPIED + i]


@njit(cache=True)
def terrain_build_targets(st, p: int, terrain: int, out) -> None:
    """Hexes where p may build on `terrain` (mandatory action, Oracle, Farm, Oasis, Garden, Donation);
    an armed Outpost waives "adjacent if possible" for one settlement (N-10)."""
    terrain_at = TERRAIN_MASKS + terrain * WORDS  # offsets, not views: the base game's hot path
    adjacent_at = ADJACENT + p * WORDS
    touches = False
    for i in range(WORDS):
        free = st[terrain_at + i] & ~st[OCCUPIED + i]
        out[i] = free
        touches |= (free & st[adjacent_at + i]) != 0
    if touches and st[OUTPOST_ARMED] == 0:  # adjacent if possible (building rule 3)
        for i in range(WORDS):
            out[i] &= st[adjacent_at + i]
