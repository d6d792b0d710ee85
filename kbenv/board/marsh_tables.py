"""Board tables for the Marshlands end scoring (kbenv.engine.marshlands.scoring).

- `HEX_DISTANCE[a, b]`: steps between two hexes of the 20x20 board, or between two hexes of the island (Messengers,
  M-20), from cube coordinates of the odd-r grid (an island hex is the extended (20 + r, c), whose parity is its
  island line's); NUM_CELLS x NUM_CELLS int8 (172 KB), built once at import. A board hex and an island hex are never
  in one area, so their entry is never read.
- `SEAM_MASK`: the hexes next to an inner seam between two sections, i.e. board rows 9-10 and columns 9-10
  (Vassals, M-22, reading A-M11 a).
- `SEAM_OUTER_MASK`: SEAM_MASK and the outer edge of the board (Vassals, flag `vassals_count_outer_edge`,
  reading A-M11 b).
- `label_areas`: the areas (connected groups) of a hex mask; with the mountain mask of a board it gives the
  mountain areas of Geologists (M-19: "A mountain is a series of adjacent mountain hexes and may consist of
  only a single hex"). Boards differ, so it runs per board (at set-up once the scoring is wired).
"""

from __future__ import annotations

import numpy as np

from .bitset import WORDS, label_areas, mask_of  # label_areas: re-exported
from .geometry import COLS, EDGE_HEXES, NUM_CELLS, NUM_HEXES, SECTOR_OF, STEP1, hex_rc


def cube(hex_: int) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z) of a hex: odd rows sit half a hex to the right (odd-r)."""
    r, c = hex_rc(hex_)
    x = c - (r - (r & 1)) // 2
    z = r
    return x, -x - z, z


def _build_distance_table() -> np.ndarray:
    """table[a, b] = hex distance between a and b (the number of steps of a shortest path)."""
    xyz = np.array([cube(h) for h in range(NUM_CELLS)], dtype=np.int64)
    diff = np.abs(xyz[:, None, :] - xyz[None, :, :])
    return diff.max(axis=2).astype(np.int8)


def _build_seam_mask() -> np.ndarray:
    """Hexes with a neighbour in another section (quadrant)."""
    hexes = [h for h in range(NUM_HEXES) if any(n >= 0 and SECTOR_OF[n] != SECTOR_OF[h] for n in STEP1[h])]
    return mask_of(hexes)


HEX_DISTANCE = _build_distance_table()
SEAM_MASK = _build_seam_mask()
SEAM_OUTER_MASK = SEAM_MASK | mask_of(list(EDGE_HEXES))  # A-M11 (b): the outer edge counts too
assert int(HEX_DISTANCE.max()) < 128 and COLS == 20


def area_labels(mask: np.ndarray) -> tuple[np.ndarray, int]:
    """(label per hex, number of areas) of a hex mask (see label_areas)."""
    if mask.shape != (WORDS,):
        raise ValueError(f"mask: expected {WORDS} words, got shape {mask.shape}")
    label = np.empty(NUM_CELLS, dtype=np.int64)  # island hexes too (a mask may hold them)
    return label, int(label_areas(mask, label))
