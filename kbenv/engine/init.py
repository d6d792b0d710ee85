"""Set-up of a new game inside numba: seeded draws, board assembly and the initial state.

`Game.new` and the batch engine both use these kernels, so the same seed gives the same game in
both.  The draws are always made in the same order (sections, turns, cards, start player, deck,
in-game generator), whether or not an option is forced, so forcing one option never changes the
others.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import HEX_BIT, HEX_WORD, NEIGHBOUR_MASK, WORDS
from ..board.codes import CASTLE, LOCATION, NUM_BUILDABLE, NUM_POWERS
from ..board.tables import NUM_RANDOM_SECTIONS, SECTION_CODES, SECTION_LOCATIONS
from .rng import next_u32, seed_u32
from .state import (
    BUILDABLE_MASK,
    CARDS,
    DECK,
    DECK_COUNT,
    DECK_SIZE,
    HAND,
    LOC_HEX,
    LOC_NEIGHBOURS,
    LOC_TILES,
    LOC_TYPE,
    LORDS_COUNT_ZERO,
    MAX_PLAYERS,
    NO_CARD,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    POWER,
    RNG,
    SETTLEMENTS_PER_PLAYER,
    SOURCE,
    SPECIAL_MASK,
    START_PLAYER,
    SUPPLY,
    TERRAIN_MASKS,
)

TILES_PER_LOCATION = 2
NUM_CARD_TYPES = 10
CARDS_PER_TERRAIN = 5
# Layout of the draws array filled by `setup_draws`.
DRAW_SECTIONS = 0  # 4 section ids
DRAW_TURNED = 4  # 4 flags
DRAW_CARDS = 8  # 3 card ids, ascending
DRAW_START = 11
DRAW_DECK = 12  # 25 cards, top first
DRAW_RNG = 37  # the in-game generator's state
NUM_DRAWS = 38


@njit(cache=True)
def _below(rng, n: int) -> int:
    rng[0] = next_u32(rng[0])
    return rng[0] % n


@njit(cache=True)
def setup_draws(seed: int, num_players: int, out) -> None:
    """Every random choice of a set-up, from the seed, into out (see the DRAW_* layout)."""
    rng = np.empty(1, dtype=np.int64)
    rng[0] = seed_u32(seed)
    pool = np.arange(NUM_RANDOM_SECTIONS)
    for k in range(4):
        j = k + _below(rng, NUM_RANDOM_SECTIONS - k)
        pool[k], pool[j] = pool[j], pool[k]
        out[DRAW_SECTIONS + k] = pool[k]
    for k in range(4):
        out[DRAW_TURNED + k] = _below(rng, 2)
    cards = np.arange(NUM_CARD_TYPES)
    for k in range(3):
        j = k + _below(rng, NUM_CARD_TYPES - k)
        cards[k], cards[j] = cards[j], cards[k]
    chosen = np.sort(cards[:3])
    for k in range(3):
        out[DRAW_CARDS + k] = chosen[k]
    out[DRAW_START] = _below(rng, num_players)
    deck = np.arange(DECK_SIZE)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = _below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for i in range(DECK_SIZE):
        out[DRAW_DECK + i] = deck[i] // CARDS_PER_TERRAIN
    out[DRAW_RNG] = seed_u32(next_u32(rng[0]) ^ 0x5BD1E995)


@njit(cache=True)
def assemble_board(section_ids, turned, codes, locations) -> None:
    """Write the 400 terrain codes and location types of four built-in sections (TL, TR, BL, BR)."""
    for q in range(4):
        top = (q // 2) * 10
        left = (q % 2) * 10
        for cell in range(100):
            h = (top + cell // 10) * 20 + left + cell % 10
            codes[h] = SECTION_CODES[section_ids[q], turned[q], cell]
            locations[h] = SECTION_LOCATIONS[section_ids[q], turned[q], cell]


@njit(cache=True)
def write_board(st, codes, locations) -> None:
    """Fill the board part of a zeroed state: codes, terrain masks, specials, location hexes."""
    n_loc = 0
    for h in range(400):
        t = codes[h]
        w = HEX_WORD[h]
        b = HEX_BIT[h]
        st[TERRAIN_MASKS + t * WORDS + w] |= b
        if t < NUM_BUILDABLE:
            st[BUILDABLE_MASK + w] |= b
        if t == CASTLE or t == LOCATION:
            st[SPECIAL_MASK + w] |= b
        if t == LOCATION:
            st[LOC_HEX + n_loc] = h
            st[LOC_TYPE + n_loc] = locations[h]
            st[LOC_TILES + n_loc] = TILES_PER_LOCATION if locations[h] < NUM_POWERS else 0
            for k in range(WORDS):
                st[LOC_NEIGHBOURS + n_loc * WORDS + k] = NEIGHBOUR_MASK[h, k]
            n_loc += 1
    st[NUM_LOCATIONS] = n_loc


@njit(cache=True)
def init_game(st, num_players: int, draws, codes, locations, lords_count_zero: bool) -> None:
    """A zeroed state becomes a game ready for its first turn (call begin_turn next).

    `draws` holds the resolved set-up (DRAW_* layout, options already forced into it); `codes` and
    `locations` the assembled board.
    """
    st[:] = 0
    write_board(st, codes, locations)
    st[NUM_PLAYERS] = num_players
    st[START_PLAYER] = draws[DRAW_START]
    st[LORDS_COUNT_ZERO] = 1 if lords_count_zero else 0
    st[RNG] = draws[DRAW_RNG]
    st[POWER] = -1
    st[SOURCE] = -1
    for k in range(3):
        st[CARDS + k] = draws[DRAW_CARDS + k]
    for p in range(MAX_PLAYERS):
        st[HAND + p] = NO_CARD
    for p in range(num_players):
        st[HAND + p] = draws[DRAW_DECK + p]
        st[SUPPLY + p] = SETTLEMENTS_PER_PLAYER
    rest = DECK_SIZE - num_players
    for k in range(rest):  # the draw pile is a stack: its top is the last element
        st[DECK + k] = draws[DRAW_DECK + DECK_SIZE - 1 - k]
    st[DECK_COUNT] = rest


@njit(cache=True)
def new_game(st, num_players: int, seed: int, forced, lords_count_zero: bool, draws, codes, locations) -> None:
    """A random or partly forced standard set-up from a seed, entirely inside numba.

    `forced` has the DRAW_* layout for its first 12 entries: -1 = draw from the seed. `draws`,
    `codes` and `locations` are work arrays (and hold the resolved set-up afterwards).
    """
    setup_draws(seed, num_players, draws)
    for k in range(DRAW_DECK):
        if forced[k] >= 0:
            draws[k] = forced[k]
    assemble_board(draws[DRAW_SECTIONS : DRAW_SECTIONS + 4], draws[DRAW_TURNED : DRAW_TURNED + 4], codes, locations)
    init_game(st, num_players, draws, codes, locations, lords_count_zero)
