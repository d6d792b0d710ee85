"""Marshlands swamp cards (M-4, M-5, A-M2, A-M3; the lazy choice of decision 8).

A swamp card "S/X" (id SWAMP_CARD_BASE + X) offers two options, like an open Crossroads hand of two cards:
2 settlements on swamp or 3 on X, each with its own "adjacent if possible". The first hex built for the
turn's terrain (by the mandatory action, the Oracle, the Barn or the Quarry) names the option: TERRAIN_FIXED
becomes 1, TURN_TERRAIN holds the terrain and MANDATORY_TARGET the number of builds (2 or 3). A card whose
options both lack a free hex is replaced (A-M2); a board without swamp offers only X (A-M3).
"""

from __future__ import annotations

from numba import njit

from ...board.codes import SWAMP, SWAMP_CARD_BASE
from ...catalogue import MARSHLANDS
from ..state import EXPANSIONS, HAND, NO_CARD, TERRAIN_FIXED, TURN_TERRAIN

SWAMP_BUILDS = 2  # M-5 (EN 1071): the mandatory action on swamp
PLAIN_BUILDS = 3


@njit(cache=True)
def is_swamp_card(card: int) -> bool:
    return card >= SWAMP_CARD_BASE


@njit(cache=True)
def card_side(card: int, side: int) -> int:
    """The terrain of one option of a card: a plain card has side 0 only (side 1: NO_CARD); a swamp card
    has its other terrain (side 0) and swamp (side 1)."""
    if card == NO_CARD:
        return NO_CARD
    if card >= SWAMP_CARD_BASE:
        return card - SWAMP_CARD_BASE if side == 0 else SWAMP
    return card if side == 0 else NO_CARD


@njit(cache=True)
def hand_terrain(st, p: int) -> int:
    """The terrain of p's card this turn: the card itself, or in a Marshlands game the terrain the turn's
    first build chose from an open hand (a swamp card's option, or the removed terrain with a pair, DE 1369);
    NO_CARD while a swamp card's choice is open or p holds no card."""
    card = st[HAND + p]
    if st[EXPANSIONS] & MARSHLANDS and st[TERRAIN_FIXED] == 1 and card >= 0:  # base games: one hot line
        return st[TURN_TERRAIN]
    if card >= SWAMP_CARD_BASE:
        return NO_CARD
    return card


@njit(cache=True, inline="always")
def card_offers(card: int, terrain: int) -> bool:
    """Whether the card may build on terrain."""
    return card_side(card, 0) == terrain or card_side(card, 1) == terrain


@njit(cache=True)
def mandatory_builds(card: int, terrain: int) -> int:
    """Settlements of the mandatory action when the card builds on terrain: 2 on swamp with a swamp card."""
    return SWAMP_BUILDS if card >= SWAMP_CARD_BASE and terrain == SWAMP else PLAIN_BUILDS
