"""Hex geometry of the assembled 20x20 board: ids, neighbours, lines, regions.

Hexes are pointy-top in horizontal rows; odd rows sit half a hex to the right ("odd-r").
Hex id = row * 20 + col.  Every table here is built once at import by a named builder.

Directions (index d)::

       3 NW   2 NE
    1 W    *    0 E
       5 SW   4 SE
"""

from __future__ import annotations

import numpy as np

ROWS = 20
COLS = 20
NUM_HEXES = ROWS * COLS
NUM_DIRECTIONS = 6
# The Island (issue 23; docs/design-notes.md "Island geometry"): a separate 5-line x 4-column odd-r grid whose hexes
# are the spare ids 400..419 of the same 420-bit masks (island (r, c) -> 400 + 4 r + c). Its hexes neighbour only
# island hexes. Inside kbenv (Setup, tables) island hex (r, c) is written as the extended (ROWS + r, c): hex_id and
# hex_rc map both ways; position files write ["island", r, c] (kbenv.island_positions).
ISLAND_ROWS = 5
ISLAND_COLS = 4
ISLAND_FIRST = NUM_HEXES
NUM_ISLAND_HEXES = ISLAND_ROWS * ISLAND_COLS
NUM_CELLS = NUM_HEXES + NUM_ISLAND_HEXES  # every hex id a mask may hold (board and island)


def hex_id(row: int, col: int) -> int:
    """Hex id of (row, col); rows ROWS.. are the island's lines (ISLAND_FIRST + ISLAND_COLS * line + col)."""
    if row >= ROWS:
        return ISLAND_FIRST + (row - ROWS) * ISLAND_COLS + col
    return row * COLS + col


def hex_rc(hex_: int) -> tuple[int, int]:
    """(row, col) of a hex id; an island hex gives (ROWS + its line, col)."""
    if hex_ >= ISLAND_FIRST:
        r, c = divmod(int(hex_) - ISLAND_FIRST, ISLAND_COLS)
        return ROWS + r, c
    return divmod(int(hex_), COLS)


def is_island_hex(hex_: int) -> bool:
    """True for the island's hex ids 400..419."""
    return hex_ >= ISLAND_FIRST


def _step_rc(row: int, col: int, d: int) -> tuple[int, int]:
    """Coordinates one step from (row, col) in direction d (may be off the board)."""
    odd = row % 2
    if d == 0:
        return row, col + 1
    if d == 1:
        return row, col - 1
    if d == 2:
        return row - 1, col + odd
    if d == 3:
        return row - 1, col - 1 + odd
    if d == 4:
        return row + 1, col + odd
    return row + 1, col - 1 + odd


def _build_line_table(distance: int) -> np.ndarray:
    """table[h, d] = hex `distance` steps from h in direction d, or -1 off the board. Island rows (ids 400..419)
    step inside the island grid only (its own row numbers, row 0 even: the same odd-r rule)."""
    table = np.full((NUM_CELLS, NUM_DIRECTIONS), -1, dtype=np.int64)
    for h in range(NUM_CELLS):
        island = h >= ISLAND_FIRST
        rows, cols = (ISLAND_ROWS, ISLAND_COLS) if island else (ROWS, COLS)
        for d in range(NUM_DIRECTIONS):
            r, c = hex_rc(h)
            r -= ROWS if island else 0
            for _ in range(distance):
                r, c = _step_rc(r, c, d)
            if 0 <= r < rows and 0 <= c < cols:
                table[h, d] = hex_id(r + (ROWS if island else 0), c)
    return table


STEP1 = _build_line_table(1)
STEP2 = _build_line_table(2)


def neighbours(hex_: int) -> list[int]:
    """The on-board neighbours of a hex."""
    return [int(n) for n in STEP1[hex_] if n >= 0]


def _build_edge_hexes() -> np.ndarray:
    """Hexes in row 0, row 19, column 0 or column 19."""
    return np.array(
        [h for h in range(NUM_HEXES) if hex_rc(h)[0] in (0, ROWS - 1) or hex_rc(h)[1] in (0, COLS - 1)],
        dtype=np.int64,
    )


def _build_sector_of() -> np.ndarray:
    """Sector (quadrant) of each hex: 0 TL, 1 TR, 2 BL, 3 BR; island hexes ISLAND_SECTOR (no sector, A-QI4)."""
    board = [(hex_rc(h)[0] // 10) * 2 + hex_rc(h)[1] // 10 for h in range(NUM_HEXES)]
    return np.array(board + [ISLAND_SECTOR] * NUM_ISLAND_HEXES, dtype=np.int64)


ISLAND_SECTOR = 4  # no board sector: SECTOR_MASK has rows 0..3 only
EDGE_HEXES = _build_edge_hexes()  # board hexes only: the island's rim is no board edge (A-QI3)
SECTOR_OF = _build_sector_of()
ROW_OF = np.array([hex_rc(h)[0] for h in range(NUM_CELLS)], dtype=np.int64)  # island lines are rows 20..24
