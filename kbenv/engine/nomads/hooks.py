"""Nomads rules that run inside every build and move (kept apart from kbenv.engine.nomads.rules so that
board_ops can call them without an import cycle): claiming nomad tiles, Ambassadors and Shepherds."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import NEIGHBOUR_MASK, WORDS, has, intersects
from ...board.codes import TERRAIN_LETTERS
from ...board.geometry import STEP1
from ...catalogue import CARD_NAMES, DONATION_TERRAINS, NOMAD_KINDS
from ..pieces import piece_on
from ..state import (
    CARDS,
    GOLD,
    MANDATORY_BUILT,
    MANDATORY_HEXES,
    NOMAD_GONE,
    NOMAD_HEX,
    NOMAD_KIND,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NOMAD_ROUND,
    NUM_CARDS_IN_PLAY,
    NUM_NOMADS,
    NUM_PLAYERS,
    OCCUPIED,
    OWN,
    TERRAIN_MASKS,
    TURN,
)

TREASURE = NOMAD_KINDS.index("treasure")
TREASURE_GOLD = 3
FAMILIES = CARD_NAMES.index("families")
SHEPHERDS = CARD_NAMES.index("shepherds")
AMBASSADORS = CARD_NAMES.index("ambassadors")
# The terrains a settlement may stand on: the card terrains, and water and mountain (Donation tiles).
SETTLEMENT_TERRAINS = np.array([TERRAIN_LETTERS.index(t) for t in DONATION_TERRAINS], dtype=np.int64)
RED_CARD_GOLD = 2  # Families and Shepherds; Ambassadors pays 1


@njit(cache=True)
def current_round(st) -> int:
    """Rounds run from the start player; TURN counts turns begun (the first is 1)."""
    return (st[TURN] - 1) // st[NUM_PLAYERS]


@njit(cache=True)
def claim_nomads(st, p: int, h: int) -> None:
    """After building or moving onto h: take the tiles lying on nomad spaces next to h (N-5, N-13)."""
    for i in range(st[NUM_NOMADS]):
        if st[NOMAD_OWNER + i] == NOMAD_ON_SPACE and st[NOMAD_KIND + i] >= 0 and has(NEIGHBOUR_MASK[h],
                                                                                   st[NOMAD_HEX + i]):
            if st[NOMAD_KIND + i] == TREASURE:
                st[GOLD + p] += TREASURE_GOLD
                st[NOMAD_OWNER + i] = NOMAD_GONE
            else:
                st[NOMAD_OWNER + i] = p
                st[NOMAD_ROUND + i] = current_round(st)


@njit(cache=True)
def card_in_play(st, card: int) -> bool:
    for k in range(NUM_CARDS_IN_PLAY):
        if st[CARDS + k] == card:
            return True
    return False


@njit(cache=True, inline="always")
def terrain_code_at(st, h: int) -> int:
    for t in SETTLEMENT_TERRAINS:
        if has(st[TERRAIN_MASKS + t * WORDS : TERRAIN_MASKS + (t + 1) * WORDS], h):
            return t
    return -1


@njit(cache=True)
def red_cards_after_build(st, p: int, h: int) -> None:
    """Ambassadors and Shepherds, checked after every single settlement built (not moved)."""
    if card_in_play(st, AMBASSADORS):
        for q in range(st[NUM_PLAYERS]):
            if q != p and intersects(NEIGHBOUR_MASK[h], st[OWN + q * WORDS : OWN + (q + 1) * WORDS]):
                st[GOLD + p] += 1
                break
    if card_in_play(st, SHEPHERDS):
        t = terrain_code_at(st, h)
        if t >= 0:
            empty_same = False
            for d in range(6):
                n = STEP1[h, d]
                if n >= 0 and has(st[TERRAIN_MASKS + t * WORDS : TERRAIN_MASKS + (t + 1) * WORDS], n) and not (
                        has(st[OCCUPIED : OCCUPIED + WORDS], n) and piece_on(st, n)):  # a zone hex is empty
                    empty_same = True
            if not empty_same:
                st[GOLD + p] += RED_CARD_GOLD


@njit(cache=True, inline="always")
def remember_mandatory_hex(st, h: int) -> None:
    """Remember the mandatory hexes (Families): the first 3, then, in a Marshlands turn of more than 3 builds,
    the last 3, as the settlements owed on top are built first (A-M6) and Families ignores them (A-N10)."""
    k = st[MANDATORY_BUILT]
    if k < 3:
        st[MANDATORY_HEXES + k] = h
    else:
        st[MANDATORY_HEXES] = st[MANDATORY_HEXES + 1]
        st[MANDATORY_HEXES + 1] = st[MANDATORY_HEXES + 2]
        st[MANDATORY_HEXES + 2] = h
