"""Numeric tables of the built-in sections, for set-up inside numba kernels."""

from __future__ import annotations

import numpy as np

from .codes import decode_hex_code
from .sections import (
    BASE_SECTIONS,
    CROSSROADS_SECTIONS,
    HARVEST_SUBSTITUTES,
    MARSHLANDS_SUBSTITUTES,
    NOMAD_SECTIONS,
    load_section,
    turn_section,
)

# index = section id; each expansion's sections are appended, so earlier ids never change
TABLE_SECTIONS = BASE_SECTIONS + NOMAD_SECTIONS + CROSSROADS_SECTIONS + MARSHLANDS_SUBSTITUTES + HARVEST_SUBSTITUTES
NUM_RANDOM_SECTIONS = len(BASE_SECTIONS)  # random base set-ups draw from the base sections
NUM_NOMAD_SECTIONS = len(NOMAD_SECTIONS)  # with Nomads the pool is the first 12 table sections
NUM_CROSSROADS_SECTIONS = len(CROSSROADS_SECTIONS)  # with Crossroads the pool adds these 4
NUM_MARSH_SECTIONS = len(MARSHLANDS_SUBSTITUTES)  # with Marshlands the pool adds the 4 substitutes (M-1)
NUM_HARVEST_SECTIONS = len(HARVEST_SUBSTITUTES)  # with Harvest the pool adds its 4 substitutes (H-1)


def board_arrays(board) -> tuple[np.ndarray, np.ndarray]:
    """(terrain code ids, location types or -1) of a sequence of code strings, flattened."""
    pairs = [decode_hex_code(ch) for row in board for ch in row]
    return np.array([t for t, _ in pairs], dtype=np.int64), np.array([loc for _, loc in pairs], dtype=np.int64)


def _build_section_tables() -> tuple[np.ndarray, np.ndarray]:
    """codes[id, turned, cell] and location types[id, turned, cell] of every built-in section."""
    codes = np.zeros((len(TABLE_SECTIONS), 2, 100), dtype=np.int64)
    locs = np.zeros((len(TABLE_SECTIONS), 2, 100), dtype=np.int64)
    for i, name in enumerate(TABLE_SECTIONS):
        rows = load_section(name)
        for turned, grid in enumerate((rows, turn_section(rows))):
            codes[i, turned], locs[i, turned] = board_arrays(grid)
    return codes, locs


SECTION_CODES, SECTION_LOCATIONS = _build_section_tables()
