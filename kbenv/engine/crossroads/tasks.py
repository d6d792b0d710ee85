"""Crossroads task cards inside numba: end-of-game gold for the six tasks (rules C-15..C-20, A-C10).

Each player who meets a task in play earns its gold once, however often the requirement is met (EN 926).
"Own" is the player's OWN mask: settlements plus warriors, wagon, ship and city-hall cells, which all
count as settlements.

- C-15 home_country (5): a terrain area (maximal connected region of one terrain code among grass,
  canyon, desert, flower field, forest, water, mountain, swamp, farmland) whose every hex is own. Castle,
  location, nomad space, palace and silo hexes are not terrain. A wall or an opponent on the area fails.
- C-16 fortress (6): an own hex whose 6 neighbours are all own (an edge hex has fewer neighbours).
- C-17 road (7): 7 own hexes in a contiguous line along a diagonal axis (NE-SW or NW-SE); the
  horizontal axis (E-W, the rows) does not count.
- C-18 place_of_refuge (8): a castle, location or nomad-space hex whose 6 neighbours are all own
  (palace and silo hexes excluded; a castle under a capitol included).
- C-19 advance (9): at least 7 own hexes on one board edge (row 0, row 19, column 0, column 19).
- C-20 compass_points (10): at least one own hex on each of the 4 edges (a corner is on two edges).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import NEIGHBOUR_MASK, WORDS, count_and, has, mask_of, to_hex_list
from ...board.codes import (
    CANYON,
    CASTLE,
    DESERT,
    FARMLAND,
    FLOWER,
    FOREST,
    GRASS,
    LOCATION,
    MOUNTAIN,
    NOMAD,
    SWAMP,
    WATER,
)
from ...board.geometry import COLS, NUM_CELLS, ROWS, STEP1, hex_id
from ...catalogue import TASK_GOLD as _TASK_GOLD
from ...catalogue import TASK_NAMES
from ..board_ops import own_view
from ..state import NOMAD_MASK, NUM_TASKS, TASKS, TERRAIN_MASKS

HOME_COUNTRY, FORTRESS, ROAD, PLACE_OF_REFUGE, ADVANCE, COMPASS_POINTS = (
    TASK_NAMES.index(n) for n in ("home_country", "fortress", "road", "place_of_refuge", "advance", "compass_points"))
TASK_GOLD = np.array(_TASK_GOLD, dtype=np.int64)

# Terrain codes that form terrain areas (C-15, A-C10): the other codes are castles, locations, nomad
# spaces, palaces and silos.
AREA_TERRAINS = np.array([GRASS, CANYON, DESERT, FLOWER, FOREST, WATER, MOUNTAIN, SWAMP, FARMLAND], dtype=np.int64)

# Road (C-17): runs are walked in direction SE (4), starting where NW (3) is not own, and in direction
# SW (5), starting where NE (2) is not own (kbenv.board.geometry numbers the directions). E/W (0/1) is
# the horizontal axis of the rows and never counts.
ROAD_DIRECTIONS = np.array([4, 5], dtype=np.int64)
ROAD_BACK = np.array([3, 2], dtype=np.int64)
ROAD_LENGTH = 7
ADVANCE_COUNT = 7


def _build_edge_sides() -> np.ndarray:
    """(4, WORDS): the hexes of row 0, row 19, column 0 and column 19 (a corner is in two of them)."""
    return np.stack([
        mask_of([hex_id(0, c) for c in range(COLS)]),
        mask_of([hex_id(ROWS - 1, c) for c in range(COLS)]),
        mask_of([hex_id(r, 0) for r in range(ROWS)]),
        mask_of([hex_id(r, COLS - 1) for r in range(ROWS)]),
    ])


EDGE_SIDE = _build_edge_sides()


@njit(cache=True, inline="always")
def home_country_met(st, p: int) -> bool:
    """C-15: some terrain area lies wholly in p's OWN mask."""
    own = own_view(st, p)
    seen = np.zeros(NUM_CELLS, dtype=np.bool_)
    stack = np.empty(NUM_CELLS, dtype=np.int64)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    for t in range(len(AREA_TERRAINS)):
        off = TERRAIN_MASKS + AREA_TERRAINS[t] * WORDS
        terrain = st[off : off + WORDS]
        for k in range(n):
            start = hexes[k]
            if seen[start] or not has(terrain, start):
                continue
            # Flood the whole area of this terrain from an own hex; it qualifies if no hex of it is not own.
            complete = True
            seen[start] = True
            stack[0] = start
            top = 1
            while top > 0:
                top -= 1
                h = stack[top]
                if not has(own, h):
                    complete = False
                for d in range(6):
                    nb = STEP1[h, d]
                    if nb >= 0 and not seen[nb] and has(terrain, nb):
                        seen[nb] = True
                        stack[top] = nb
                        top += 1
            if complete:
                return True
    return False


@njit(cache=True)
def _some_hex_surrounded(centres, own) -> bool:
    """Whether some hex of the mask `centres` has all 6 neighbours in `own` (an edge hex never has)."""
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(centres, hexes)
    for k in range(n):
        if count_and(NEIGHBOUR_MASK[hexes[k]], own) == 6:
            return True
    return False


@njit(cache=True, inline="always")
def fortress_met(st, p: int) -> bool:
    """C-16: an own hex with 6 own neighbours."""
    own = own_view(st, p)
    return _some_hex_surrounded(own, own)


@njit(cache=True, inline="always")
def road_met(st, p: int) -> bool:
    """C-17: 7 own hexes in a contiguous line along one of the two diagonal axes."""
    own = own_view(st, p)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    for a in range(len(ROAD_DIRECTIONS)):
        d = ROAD_DIRECTIONS[a]
        back = ROAD_BACK[a]
        for k in range(n):
            h = hexes[k]
            prev = STEP1[h, back]
            if prev >= 0 and has(own, prev):
                continue  # not the start of a run
            length = 0
            while h >= 0 and has(own, h):
                length += 1
                h = STEP1[h, d]
            if length >= ROAD_LENGTH:
                return True
    return False


@njit(cache=True, inline="always")
def place_of_refuge_met(st, p: int) -> bool:
    """C-18: a castle, location or nomad-space hex with 6 own neighbours."""
    own = own_view(st, p)
    sites = np.empty(WORDS, dtype=np.int64)
    for i in range(WORDS):
        sites[i] = (st[TERRAIN_MASKS + CASTLE * WORDS + i] | st[TERRAIN_MASKS + LOCATION * WORDS + i]
                    | st[TERRAIN_MASKS + NOMAD * WORDS + i] | st[NOMAD_MASK + i])
    return _some_hex_surrounded(sites, own)


@njit(cache=True, inline="always")
def advance_met(st, p: int) -> bool:
    """C-19: at least 7 own hexes on one of the 4 board edges."""
    own = own_view(st, p)
    for side in range(4):
        if count_and(EDGE_SIDE[side], own) >= ADVANCE_COUNT:
            return True
    return False


@njit(cache=True, inline="always")
def compass_points_met(st, p: int) -> bool:
    """C-20: at least one own hex on each of the 4 board edges."""
    own = own_view(st, p)
    for side in range(4):
        if count_and(EDGE_SIDE[side], own) == 0:
            return False
    return True


@njit(cache=True)
def task_met(st, p: int, task: int) -> bool:
    """Whether player p meets task `task` (an index into catalogue.TASK_NAMES)."""
    if task == HOME_COUNTRY:
        return home_country_met(st, p)
    if task == FORTRESS:
        return fortress_met(st, p)
    if task == ROAD:
        return road_met(st, p)
    if task == PLACE_OF_REFUGE:
        return place_of_refuge_met(st, p)
    if task == ADVANCE:
        return advance_met(st, p)
    if task == COMPASS_POINTS:
        return compass_points_met(st, p)
    return False


@njit(cache=True)
def task_gold(st, p: int, task: int) -> int:
    """The task's gold if p meets it, else 0 (paid once however often it is met)."""
    return TASK_GOLD[task] if task_met(st, p, task) else 0


@njit(cache=True)
def score_tasks(st, p: int) -> int:
    """Gold of player p from the task cards in play (st[TASKS + k] for k < st[NUM_TASKS])."""
    total = 0
    for k in range(st[NUM_TASKS]):
        total += task_gold(st, p, st[TASKS + k])
    return total


__all__ = ["task_met", "task_gold", "score_tasks", "EDGE_SIDE", "TASK_GOLD"]
