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


def hex_id(row: int, col: int) -> int:
    """Hex id of (row, col)."""
    return row * COLS + col


def hex_rc(hex_: int) -> tuple[int, int]:
    """(row, col) of a hex id."""
    return divmod(int(hex_), COLS)


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
    """table[h, d] = hex `distance` steps from h in direction d, or -1 off the board."""
    table = np.full((NUM_HEXES, NUM_DIRECTIONS), -1, dtype=np.int64)
    for h in range(NUM_HEXES):
        for d in range(NUM_DIRECTIONS):
            r, c = hex_rc(h)
            for _ in range(distance):
                r, c = _step_rc(r, c, d)
            if 0 <= r < ROWS and 0 <= c < COLS:
                table[h, d] = hex_id(r, c)
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
    """Sector (quadrant) of each hex: 0 TL, 1 TR, 2 BL, 3 BR."""
    return np.array([(hex_rc(h)[0] // 10) * 2 + hex_rc(h)[1] // 10 for h in range(NUM_HEXES)], dtype=np.int64)


EDGE_HEXES = _build_edge_hexes()
SECTOR_OF = _build_sector_of()
ROW_OF = np.arange(NUM_HEXES, dtype=np.int64) // COLS
