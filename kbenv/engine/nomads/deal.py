"""The Nomads set-up's random part: the nomad tiles dealt onto the nomad spaces (N-2)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...catalogue import NOMAD_KINDS, NOMAD_TILE_COUNTS
from ..rng import draw_below
from ..state import NOMAD_KIND, NUM_NOMADS

NOMAD_TILE_MULTISET = np.array([NOMAD_TILE_COUNTS[k] for k in NOMAD_KINDS], dtype=np.int64)
NUM_NOMAD_TILES = int(NOMAD_TILE_MULTISET.sum())


@njit(cache=True)
def deal_nomad_tiles(st, rng) -> None:
    """The 15 nomad tiles shuffled; the nomad spaces in play take the first ones."""
    tiles = np.empty(NUM_NOMAD_TILES, dtype=np.int64)
    k = 0
    for kind in range(len(NOMAD_TILE_MULTISET)):
        for _ in range(NOMAD_TILE_MULTISET[kind]):
            tiles[k] = kind
            k += 1
    for i in range(NUM_NOMAD_TILES - 1, 0, -1):
        j = draw_below(rng, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    for i in range(st[NUM_NOMADS]):
        st[NOMAD_KIND + i] = tiles[i]
