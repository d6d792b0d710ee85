"""The Island in observation v1 (issue 23): two appended channels and the island features.

The island is a separate 5 x 4 board (hex ids 400..419, kbenv.board.geometry), so it has no place on the
20 x 20 board planes. Its two channels are tables instead: row k is island hex k (line k // 4, hex k % 4 of
the island, id 400 + k) and each column one fact about that hex, declared below in ISLAND_HEX_COLUMNS and
ISLAND_PIECE_COLUMNS (20 columns at most; unused ones stay 0). Rows 20 .. are never used: 20 rows for 20 hexes.

Every value is a small integer code over a denominator (island_hexes: halves, island_pieces: sixths), computed
once by `island_codes`: the float planes write code / denominator, the packed form (kbenv.engine.packed) stores
the codes in bit planes, so both agree bit for bit. Nothing hidden from the observer is read.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import catalogue as CAT
from ...board.bitset import COAST_MASK, NEIGHBOUR_MASK, WORDS, has
from ...board.codes import LOCATION, NUM_TERRAIN_CODES
from ...board.geometry import COLS, ISLAND_COLS, ISLAND_FIRST, ISLAND_ROWS, NUM_ISLAND_HEXES
from ..legal import legal_hexes
from ..observe import TERRAIN_CHANNEL, V0_CHANNELS
from ..observe_layout import HEX_DENOMINATOR, PIECE_DENOMINATOR  # noqa: F401  (island_hexes: halves, island_pieces: sixths)
from ..packed_layout import P_ISLAND_HEXES, P_ISLAND_PIECES, set_code
from ..piece_table import CELL_PIECE_AT, PLANE_PIECE_AT, PLANE_PIECE_CODE, PLANE_PIECE_SLOTS
from ..state import (
    DECIDER,
    ISLAND_LOC_AT,
    ISLAND_LOC_TILES,
    ISLAND_LOC_TYPE,
    ISLAND_MAYOR_LINES,
    NUM_PLAYERS,
    OWN,
    PHASE,
    PHASE_OVER,
    PHASE_TARGET,
    RULE_FLAGS,
    SCOUTS,
    SOURCE,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    WALLS,
    ZONE,
)
from .rules import ISLAND_TILE

ISLAND_TYPES = CAT.ISLAND_TYPES  # rope_bridge, tree_house
FIRST_ISLAND_LOCATION = CAT.LOCATION_NAMES.index(ISLAND_TYPES[0])
NUM_ISLAND_TYPES = len(ISLAND_TYPES)
assert CAT.LOCATION_NAMES[FIRST_ISLAND_LOCATION : FIRST_ISLAND_LOCATION + NUM_ISLAND_TYPES] == ISLAND_TYPES
NO_ISLAND_KNIGHTS = CAT.RULE_BIT["no_island_knights"]
COAST_NOT_WATER = CAT.RULE_BIT["island_coast_not_water"]

_TERRAIN_NAMES = ("grass", "canyon", "desert", "flower_field", "forest", "water", "mountain", "castle", "other_blocked")
assert sum(size for name, size, _ in V0_CHANNELS[:5]) == 9 and max(TERRAIN_CHANNEL) == 8  # v0's channels 0..8
# (name, meaning) of each column of the island_hexes channel; values are halves (0, 1/2, 1).
ISLAND_HEX_COLUMNS = (
    *((name, f"terrain, as v0 channel {k}") for k, name in enumerate(_TERRAIN_NAMES)),
    *((f"location:{name}", f"the island's location hex, of type {name}") for name in ISLAND_TYPES),
    ("tiles_left", "tiles left on the location hex / 2"),
    ("own", "own settlement"),
    *((f"opponent:{k}", f"settlement of the player {k} seat{'s' if k > 1 else ''} after self") for k in range(1, 5)),
    ("legal", "a legal hex of the current decision (only when the observer is to move)"),
    ("source", "the settlement being moved (choose_target of a move power)"),
    ("coast_water", "a coast hex that counts as next to water (A-QI2; 0 with island_coast_not_water)"),
)
# (name, meaning) of each column of the island_pieces channel; values are sixths (0, 1/3, 1/2, 2/3, 1).
ISLAND_PIECE_COLUMNS = (
    ("wall", "stone wall (Nomads)"),
    ("own_pieces", "own warrior 1, wagon 2/3, ship 1/3 (Crossroads; as the own_pieces plane)"),
    ("other_pieces", "the other players' warriors 1, wagons 2/3, ships 1/3"),
    ("city_halls", "city-hall cells: own 1, the other players' 1/2"),
    ("warrior_zone", "next to a warrior (closed to building and moving)"),
    ("scouts", "the turn owner's scouts (Harvest)"),
    ("mayor_line", "the hex's island line is marked for Mayors: own 1, another player's 1/2 (A-QI4)"),
)
assert len(ISLAND_HEX_COLUMNS) <= 20 and len(ISLAND_PIECE_COLUMNS) <= 20 and NUM_ISLAND_HEXES == 20
COLUMN = {name: k for k, (name, _) in enumerate(ISLAND_HEX_COLUMNS)}
PIECE_COLUMN = {name: k for k, (name, _) in enumerate(ISLAND_PIECE_COLUMNS)}
C_LOCATION, C_TILES, C_OWN, C_OPPONENTS = COLUMN[f"location:{ISLAND_TYPES[0]}"], COLUMN["tiles_left"], \
    COLUMN["own"], COLUMN["opponent:1"]
C_LEGAL, C_SOURCE, C_COAST = COLUMN["legal"], COLUMN["source"], COLUMN["coast_water"]
P_WALL, P_OWN, P_OTHER, P_CITY = (PIECE_COLUMN[k] for k in ("wall", "own_pieces", "other_pieces", "city_halls"))
P_ZONE, P_SCOUTS, P_MAYOR = PIECE_COLUMN["warrior_zone"], PIECE_COLUMN["scouts"], PIECE_COLUMN["mayor_line"]

ISLAND_V1_FEATURES = CAT.ISLAND_V1_FEATURES  # appended to the v1 features after Harvest's (kbenv.engine.observe_layout)


@njit(cache=True)
def island_codes(st, player: int, codes) -> None:
    """codes (2, 20, 20) int64 := the codes of `player`'s island_hexes (0) and island_pieces (1) channels."""
    codes[:] = 0
    n = st[NUM_PLAYERS]
    loc = st[ISLAND_LOC_AT] - 1
    for k in range(NUM_ISLAND_HEXES):
        h = ISLAND_FIRST + k
        for code in range(NUM_TERRAIN_CODES):
            if code != LOCATION and has(st[TERRAIN_MASKS + code * WORDS : TERRAIN_MASKS + (code + 1) * WORDS], h):
                codes[0, k, TERRAIN_CHANNEL[code]] = 2
        if has(COAST_MASK, h) and (st[RULE_FLAGS] & COAST_NOT_WATER) == 0:
            codes[0, k, C_COAST] = 2
        for j in range(n):
            q = (player + j) % n
            if has(st[OWN + q * WORDS : OWN + (q + 1) * WORDS], h):
                codes[0, k, C_OWN if j == 0 else C_OPPONENTS + j - 1] = 2
        if has(st[WALLS : WALLS + WORDS], h):
            codes[1, k, P_WALL] = 6
        if has(st[ZONE : ZONE + WORDS], h):
            codes[1, k, P_ZONE] = 6
        if has(st[SCOUTS : SCOUTS + WORDS], h):
            codes[1, k, P_SCOUTS] = 6
        marker = st[ISLAND_MAYOR_LINES + k // ISLAND_COLS] - 1
        if marker >= 0:
            codes[1, k, P_MAYOR] = 6 if marker == player else 3
    if loc >= 0:
        k = loc - ISLAND_FIRST
        t = st[ISLAND_LOC_TYPE] - FIRST_ISLAND_LOCATION
        if 0 <= t < NUM_ISLAND_TYPES:
            codes[0, k, C_LOCATION + t] = 2
        codes[0, k, C_TILES] = st[ISLAND_LOC_TILES]
    if st[PHASE] != PHASE_OVER and st[DECIDER] == player:
        legal = np.zeros(WORDS, dtype=np.int64)
        legal_hexes(st, legal)
        for k in range(NUM_ISLAND_HEXES):
            if has(legal, ISLAND_FIRST + k):
                codes[0, k, C_LEGAL] = 2
    if st[PHASE] == PHASE_TARGET and st[SOURCE] >= ISLAND_FIRST:
        codes[0, st[SOURCE] - ISLAND_FIRST, C_SOURCE] = 2
    for q in range(n):  # in the order of observe_v1.crossroads_planes: a later piece on the same hex wins
        column = P_OWN if q == player else P_OTHER
        for j in range(PLANE_PIECE_AT.shape[0]):
            first = PLANE_PIECE_AT[j] + q * PLANE_PIECE_SLOTS[j]
            for s in range(PLANE_PIECE_SLOTS[j]):
                at = st[first + s] - 1
                if at >= ISLAND_FIRST:
                    codes[1, at - ISLAND_FIRST, column] = 2 * PLANE_PIECE_CODE[j]
        centre = st[CELL_PIECE_AT + q] - 1
        if centre >= ISLAND_FIRST:  # a city hall on the island covers island hexes only (they neighbour no others)
            for k in range(NUM_ISLAND_HEXES):
                h = ISLAND_FIRST + k
                if h == centre or has(NEIGHBOUR_MASK[centre], h):
                    codes[1, k, P_CITY] = 6 if q == player else 3


@njit(cache=True, inline="always")
def island_planes(st, player: int, out, channel: int) -> None:
    """out[channel], out[channel + 1] := the island_hexes and island_pieces channels of `player`."""
    codes = np.empty((2, 20, 20), dtype=np.int64)
    island_codes(st, player, codes)
    for r in range(NUM_ISLAND_HEXES):
        for c in range(20):
            if codes[0, r, c]:
                out[channel, r, c] = codes[0, r, c] / HEX_DENOMINATOR
            if codes[1, r, c]:
                out[channel + 1, r, c] = codes[1, r, c] / PIECE_DENOMINATOR


@njit(cache=True, inline="always")
def island_features(st, player: int, f, first: int) -> None:
    """The island features (ISLAND_V1_FEATURES, from index `first` of f)."""
    n = st[NUM_PLAYERS]
    f[first] = 1.0  # the island_power one-hot after it is written with every power's slot (observe_v1.POWER_SLOT)
    t = st[ISLAND_LOC_TYPE] - FIRST_ISLAND_LOCATION
    at = first + 1 + NUM_ISLAND_TYPES
    if st[ISLAND_LOC_AT] > 0 and 0 <= t < NUM_ISLAND_TYPES:
        held = st[TILES_HELD + player] & ISLAND_TILE
        if held:
            f[at + t] = 1.0
            if (st[TILES_FRESH + player] | st[TILES_USED + player]) & ISLAND_TILE == 0:
                f[at + NUM_ISLAND_TYPES + t] = 1.0
        others = 0
        for q in range(n):
            if q != player and st[TILES_HELD + q] & ISLAND_TILE:
                others += 1
        f[at + 2 * NUM_ISLAND_TYPES] = others / 2.0
        f[at + 2 * NUM_ISLAND_TYPES + 1] = st[ISLAND_LOC_TILES] / 2.0
    at += 2 * NUM_ISLAND_TYPES + 2
    for r in range(ISLAND_ROWS):
        marker = st[ISLAND_MAYOR_LINES + r] - 1
        if marker == player:
            f[at] += 1.0 / ISLAND_ROWS
        elif marker >= 0:
            f[at + 1] += 1.0 / ISLAND_ROWS
    if st[RULE_FLAGS] & NO_ISLAND_KNIGHTS:
        f[at + 2] = 1.0
    if st[RULE_FLAGS] & COAST_NOT_WATER:
        f[at + 3] = 1.0



def island_columns_table() -> str:
    """The columns of the two island channels as a Markdown table (for docs/api.md)."""
    lines = ["| column | `island_hexes` (halves) | `island_pieces` (sixths) |", "|---|---|---|"]
    for k in range(max(len(ISLAND_HEX_COLUMNS), len(ISLAND_PIECE_COLUMNS))):
        hexes = f"`{ISLAND_HEX_COLUMNS[k][0]}`: {ISLAND_HEX_COLUMNS[k][1]}" if k < len(ISLAND_HEX_COLUMNS) else "-"
        pieces = f"`{ISLAND_PIECE_COLUMNS[k][0]}`: {ISLAND_PIECE_COLUMNS[k][1]}" if k < len(ISLAND_PIECE_COLUMNS) \
            else "-"
        lines.append(f"| {k} | {hexes} | {pieces} |")
    return "\n".join(lines)


@njit(cache=True, inline="always")
def pack_island(st, player: int, bits) -> None:
    """The island's two table channels (observe_island.island_codes), cell (r, c) at bit r * 20 + c."""
    codes = np.empty((2, 20, 20), dtype=np.int64)
    island_codes(st, player, codes)
    for r in range(20):
        for c in range(COLS):
            if codes[0, r, c]:
                set_code(bits, P_ISLAND_HEXES, 2, r * COLS + c, codes[0, r, c])
            if codes[1, r, c]:
                set_code(bits, P_ISLAND_PIECES, 3, r * COLS + c, codes[1, r, c])
