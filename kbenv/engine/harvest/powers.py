"""Harvest powers with rules or state of their own (issue 22): the Palisade (H-13, A-H6),
the Cathedral's number tiles (H-10, H-2, A-H5) and the Scout cabin's scouts (H-9, A-H4).

Scouts are a board mask of their own (SCOUTS, the turn owner's), never part of OWN[p]: they close their hexes
(OCCUPIED) and add their neighbours to the turn owner's ADJACENT for the turn, so every rule that builds next to
own settlements (the mandatory action, "adjacent if possible", the farm action, the second scout) connects to
them, while every card and rule that reads OWN[p] leaves them out (EN 1333).

Generic engine code reaches these kernels only through kbenv.engine.harvest.hooks, except `seized_tile`, which
kbenv.engine.board_ops calls as a tile is seized (this module imports neither board_ops nor harvest_hooks, so
board_ops may import it, as it does kbenv.engine.marshlands.powers).
"""

from __future__ import annotations

from numba import njit

from ... import catalogue as CAT
from ...board.bitset import (
    BITS_PER_WORD,
    NEIGHBOUR_MASK,
    WORDS,
    add,
    clear,
    dilate_into,
    has,
    is_empty,
    popcount,
    remove,
    word_lowest_bit,
)
from ...board.codes import MOUNTAIN, WATER
from ...board.geometry import STEP1
from ..state import (
    ADJACENT,
    BUILDABLE_MASK,
    CURRENT,
    LOC_TYPE,
    NUM_PLAYERS,
    NUMBER_TILE_MODE,
    NUMBER_TILES,
    OCCUPIED,
    OWN,
    POWER,
    RULE_FLAGS,
    SCOUTS,
    STEPS_LEFT,
    TERRAIN_MASKS,
    scratch_off,
)
from ..traits import POWER_RULE, RULE_CODE

LONE_SETTLEMENT_MOVES = CAT.RULE_BIT["palisade_moves_lone_settlement"]  # A-H6 (b)
SCRATCH_AREA = scratch_off("lifted")  # the settlement area being measured
NUMBER_TILE_POOL = CAT.NUMBER_TILE_POOL  # 8 ones + 2 fives (DE 1407): 18 in value
CATHEDRAL_TYPE = CAT.LOCATION_NAMES.index("cathedral")
SCOUT_TILES = 2  # EN 1245: 2 scout tiles, shared
RULE_SCOUT = RULE_CODE["scout"]


# ----- Palisade (H-13, A-H6) ---------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _free_suitable(st, h: int) -> bool:
    buildable = st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS]
    return h >= 0 and has(buildable, h) and not has(st[OCCUPIED : OCCUPIED + WORDS], h)


@njit(cache=True, inline="always")
def palisade_targets(st, p: int, src: int, out) -> None:
    """Where the settlement on src may go (EN 1361, DE 1562 "angrenzend an das gleiche Siedlungsgebiet"): a free
    suitable hex next to the rest of src's settlement area (its area in OWN[p] and, in p's turn, p's scouts (EN 1331),
    src lifted). A lone settlement
    has no rest (A-H6 a); with the flag palisade_moves_lone_settlement it may step to a free neighbour (A-H6 b)."""
    area = st[SCRATCH_AREA : SCRATCH_AREA + WORDS]
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    clear(area)
    add(area, src)
    grown = True
    while grown:  # the area of src: grow through own hexes until nothing is added
        dilate_into(out, area)
        grown = False
        for i in range(WORDS):
            mine = own[i]
            if p == st[CURRENT]:
                mine |= st[SCOUTS + i]  # the turn owner's scouts count as its settlements (EN 1331)
            w = area[i] | (out[i] & mine)
            if w != area[i]:
                area[i] = w
                grown = True
    remove(area, src)
    if is_empty(area):
        clear(out)
        if st[RULE_FLAGS] & LONE_SETTLEMENT_MOVES:
            for d in range(6):
                if _free_suitable(st, STEP1[src, d]):
                    add(out, STEP1[src, d])
        return
    dilate_into(out, area)
    for i in range(WORDS):
        out[i] &= st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]


# ----- Cathedral: number tiles (H-10, H-2, A-H5) -------------------------------------------------------------
@njit(cache=True)
def number_tile_left(st) -> bool:
    """A tile of value 1 is left beside the board: the values held sum to less than the pool (5 ones may be
    exchanged for a five when the ones run out, A-H5 R)."""
    held = 0
    for q in range(st[NUM_PLAYERS]):
        held += st[NUMBER_TILES + q]
    return held < NUMBER_TILE_POOL


@njit(cache=True)
def take_number_tile(st, p: int) -> None:
    """p takes a number tile of value 1, if one is left (A-H5: "take one more tile" = a value-1 tile)."""
    if number_tile_left(st):
        st[NUMBER_TILES + p] += 1


@njit(cache=True, inline="always")
def seized_tile(st, p: int, i: int) -> None:
    """p seized the tile of location i: a cathedral tile brings a number tile of value 1 at once (EN 1343,
    DE 1600, A-H5)."""
    if st[LOC_TYPE + i] == CATHEDRAL_TYPE:
        take_number_tile(st, p)


@njit(cache=True, inline="always")
def returning(st) -> bool:
    """The Cathedral's "return" was chosen: its builds are being made (else its take/return choice is open)."""
    return st[NUMBER_TILE_MODE] == 1


@njit(cache=True, inline="always")
def choose_number_tiles(st, p: int, k: int) -> bool:
    """The Cathedral's choice: k = 0 "take" (one more tile; the power is carried out: True), k = 1 "return"
    (its builds follow, one value each: False)."""
    if k == 0:
        take_number_tile(st, p)
        return True
    st[NUMBER_TILE_MODE] = 1
    return False


@njit(cache=True, inline="always")
def returned_one(st, p: int) -> bool:
    """A Cathedral build spent one value; whether value is left to build with (DONE keeps the rest, A-H5 R)."""
    st[NUMBER_TILES + p] -= 1
    return st[NUMBER_TILES + p] > 0


# ----- Scout cabin: scouts (H-9, A-H4) -----------------------------------------------------------------------
@njit(cache=True, inline="always")
def scout_targets(st, p: int, out) -> None:
    """Where p may place a scout (EN 1329, A-H4): a free hex of suitable terrain, water or mountain (not a cave,
    not a warrior zone: OCCUPIED) next to p's own settlements or scouts; none once both scout tiles are out, or,
    when a repeat relocates the scouts (A-H3), once those lifted are placed again."""
    if popcount(st[SCOUTS : SCOUTS + WORDS]) >= scouts_allowed(st):
        clear(out)
        return
    water = TERRAIN_MASKS + WATER * WORDS
    mountain = TERRAIN_MASKS + MOUNTAIN * WORDS
    for i in range(WORDS):
        ground = st[BUILDABLE_MASK + i] | st[water + i] | st[mountain + i]
        out[i] = ground & st[ADJACENT + p * WORDS + i] & ~st[OCCUPIED + i]


@njit(cache=True, inline="always")
def scouts_allowed(st) -> int:
    """How many scouts may stand: both tiles, or while a repeat relocates the scouts (the Scout cabin running with
    STEPS_LEFT > 0, kbenv.engine.harvest.hooks.begin_relocation) as many as were lifted: a repeat gives no new
    scout tiles (EN 1305)."""
    power = st[POWER]
    if power >= 0 and st[STEPS_LEFT] > 0 and POWER_RULE[power] == RULE_SCOUT:
        return st[STEPS_LEFT]
    return SCOUT_TILES


@njit(cache=True, inline="always")
def place_scout(st, p: int, h: int) -> None:
    """A scout on h: it closes the hex and counts for p's adjacency this turn; it seizes no tile (EN 1331)."""
    add(st[SCOUTS : SCOUTS + WORDS], h)
    add(st[OCCUPIED : OCCUPIED + WORDS], h)
    for i in range(WORDS):
        st[ADJACENT + p * WORDS + i] |= NEIGHBOUR_MASK[h, i]


@njit(cache=True)
def scout_adjacency(st, p: int) -> None:
    """p's adjacency was rebuilt from OWN[p]: the turn owner's scouts count again (board_ops calls this)."""
    add_scout_neighbours(st, p, st[ADJACENT + p * WORDS : ADJACENT + (p + 1) * WORDS])


@njit(cache=True)
def add_scout_neighbours(st, p: int, mask) -> None:
    """mask |= the hexes next to p's scouts (none unless p owns the turn)."""
    if p != st[CURRENT]:
        return
    for i in range(WORDS):
        w = st[SCOUTS + i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            for j in range(WORDS):
                mask[j] |= NEIGHBOUR_MASK[h, j]


@njit(cache=True, inline="always")
def with_scouts(st, p: int, own, out):
    """out = own | p's scouts when p owns the turn and has any (the Tavern's lines, A-H4 TG); else own itself."""
    if p != st[CURRENT] or is_empty(st[SCOUTS : SCOUTS + WORDS]):
        return own
    for i in range(WORDS):
        out[i] = own[i] | st[SCOUTS + i]
    return out


@njit(cache=True, inline="always")
def remove_scouts(st, p: int) -> None:
    """The end of p's turn: the scouts leave the board (EN 1331); p's adjacency is its settlements' again."""
    if is_empty(st[SCOUTS : SCOUTS + WORDS]):
        return
    for i in range(WORDS):
        st[OCCUPIED + i] &= ~st[SCOUTS + i]
        st[SCOUTS + i] = 0
    dilate_into(st[ADJACENT + p * WORDS : ADJACENT + (p + 1) * WORDS], st[OWN + p * WORDS : OWN + (p + 1) * WORDS])
