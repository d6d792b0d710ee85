"""What stands on a hex, as opposed to what is closed to building.

OCCUPIED is the mask of hexes closed to building and moving onto: every piece, walls, occupied caves,
Harvest's scouts (H-9, A-H4) and, with Crossroads, the warrior zones (C-12). Rules that ask whether a hex
is *empty* (Shepherds, the zone's own upkeep, `Game.occupied`) ask these kernels instead.
"""

from __future__ import annotations

from numba import njit

from ..board.bitset import HEX_BIT, HEX_WORD, WORDS
from ..catalogue import RULE_BIT
from .dispatch import facts
from .state import CAVES, NUM_PLAYERS, OWN, RULE_FLAGS, SCOUTS, WALLS

RULE_CAVES_ARE_PLAIN_MOUNTAIN = RULE_BIT["caves_are_plain_mountain"]


@njit(cache=True)
def pieces_into(st, out) -> None:
    """out = the hexes holding a piece: any player's settlements and other pieces, walls, occupied caves, and
    in Harvest games the scouts on the board (they close their hexes for the turn, A-H4), so that rebuilding
    OCCUPIED after a warrior came or went (kbenv.engine.crossroads.rules.update_zone) keeps them."""
    caves = st[RULE_FLAGS] & RULE_CAVES_ARE_PLAIN_MOUNTAIN == 0
    scouts = facts.has_scouts(st)
    for i in range(WORDS):
        w = st[WALLS + i]
        if caves:
            w |= st[CAVES + i]
        if scouts:
            w |= st[SCOUTS + i]
        for q in range(st[NUM_PLAYERS]):
            w |= st[OWN + q * WORDS + i]
        out[i] = w


@njit(cache=True)
def piece_on(st, h: int) -> bool:
    """Whether a piece stands on h (a warrior zone alone does not count)."""
    w = HEX_WORD[h]
    b = HEX_BIT[h]
    if st[WALLS + w] & b:
        return True
    if st[CAVES + w] & b and st[RULE_FLAGS] & RULE_CAVES_ARE_PLAIN_MOUNTAIN == 0:
        return True
    for q in range(st[NUM_PLAYERS]):
        if st[OWN + q * WORDS + w] & b:
            return True
    return False
