"""The Crossroads set-up's random part: one task card per Crossroads section in play (C-2)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.geometry import SECTOR_OF
from ...catalogue import LOCATION_TYPES, TASK_NAMES
from ..rng import draw_below
from ..state import LOC_HEX, LOC_TYPE, NUM_LOCATIONS, NUM_TASKS, TASKS

NUM_TASK_CARDS = len(TASK_NAMES)
CROSSROADS_LOCATION = np.array([loc.expansion == "crossroads" for loc in LOCATION_TYPES], dtype=np.bool_)


@njit(cache=True, inline="always")
def deal_tasks(st, rng) -> None:
    """One task card per Crossroads section in play, drawn at random (C-2)."""
    sections = 0
    for q in range(4):
        for i in range(st[NUM_LOCATIONS]):
            if SECTOR_OF[st[LOC_HEX + i]] == q and CROSSROADS_LOCATION[st[LOC_TYPE + i]]:
                sections += 1
                break
    tasks = np.arange(NUM_TASK_CARDS)
    for k in range(sections):
        j = k + draw_below(rng, NUM_TASK_CARDS - k)
        tasks[k], tasks[j] = tasks[j], tasks[k]
    chosen = np.sort(tasks[:sections])
    for k in range(sections):
        st[TASKS + k] = chosen[k]
    st[NUM_TASKS] = sections
