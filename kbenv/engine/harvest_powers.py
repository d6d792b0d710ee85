"""Harvest powers with rules of their own (issue 22, engineer POWERS part): the Palisade (H-13, A-H6).

Generic engine code reaches these kernels only through kbenv.engine.harvest_hooks.
"""

from __future__ import annotations

from numba import njit

from ..board.bitset import WORDS, add, clear, dilate_into, is_empty, remove
from ..board.geometry import STEP1
from ..catalogue import RULE_BIT
from .base_powers import SCRATCH_LIFTED, free_buildable
from .board_ops import own_view
from .state import BUILDABLE_MASK, OCCUPIED, RULE_FLAGS

LONE_SETTLEMENT_MOVES = RULE_BIT["palisade_moves_lone_settlement"]  # A-H6 (b)


# ----- Palisade (H-13, A-H6) ---------------------------------------------------------------------------------
@njit(cache=True)
def palisade_targets(st, p: int, src: int, out) -> None:
    """Where the settlement on src may go (EN 1361, DE 1562 "angrenzend an das gleiche Siedlungsgebiet"): a free
    suitable hex next to the rest of src's settlement area (its area in OWN[p], src lifted). A lone settlement
    has no rest (A-H6 a); with the flag palisade_moves_lone_settlement it may step to a free neighbour (A-H6 b)."""
    area = st[SCRATCH_LIFTED : SCRATCH_LIFTED + WORDS]
    own = own_view(st, p)
    clear(area)
    add(area, src)
    grown = True
    while grown:  # the area of src: grow through own hexes until nothing is added
        dilate_into(out, area)
        grown = False
        for i in range(WORDS):
            w = area[i] | (out[i] & own[i])
            if w != area[i]:
                area[i] = w
                grown = True
    remove(area, src)
    if is_empty(area):
        clear(out)
        if st[RULE_FLAGS] & LONE_SETTLEMENT_MOVES:
            for d in range(6):
                if free_buildable(st, STEP1[src, d]):
                    add(out, STEP1[src, d])
        return
    dilate_into(out, area)
    for i in range(WORDS):
        out[i] &= st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]
