"""Marshlands rules kernels: the Fountain (M-10, M-11), the Temple and its reserve (M-12, M-13, A-M6, A-M7),
the Refuge bonus (M-15, A-M9) and the bonus tiles (M-7, A-M4). Every caller reaches them behind
`st[EXPANSIONS] & MARSHLANDS`, so games without Marshlands never run them.

The Refuge itself is the generic one-space step (kbenv.engine.nomads.rules.step_targets, rule "step"). Swamp is
suitable to be built upon in Marshlands games: kbenv.engine.init adds it to BUILDABLE_MASK.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import catalogue as CAT
from ...board.bitset import BITS_PER_WORD, NEIGHBOUR_MASK, WORDS, add, clear, has, word_lowest_bit
from ...board.codes import MOUNTAIN
from ...board.geometry import STEP1
from ..state import (
    BONUS_FRESH,
    BONUS_HELD,
    BONUS_LEFT,
    BONUS_USED,
    BUILDABLE_MASK,
    CAVES,
    COUNTER_AT,
    CURRENT,
    ENDING,
    LOC_TYPE,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    OCCUPIED,
    OWN,
    RULE_FLAGS,
    SCOUTS,
    SUPPLY,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
)
from ..traits import FIRST_BONUS_TYPE

TEMPLE_RESERVE, TEMPLE_OWED = COUNTER_AT["temple_reserve"], COUNTER_AT["temple_owed"]  # the Temple's counters
FOUNTAIN = CAT.LOCATION_NAMES.index("fountain")
TEMPLE = CAT.LOCATION_NAMES.index("temple")
NUM_BONUS_TYPES = len(CAT.BONUS_TYPES)
KEEP_BONUS = CAT.RULE_BIT["bonus_kept_after_tile_loss"]
READY_NEXT_ROUND = CAT.RULE_BIT["tiles_ready_next_round"]
RESERVE_DELAYS_END = CAT.RULE_BIT["temple_reserve_delays_end"]  # A-M6, the old reading


# ----- when a tile taken is ready (A-M5, EN 213, DE 206) ---------------------------------------------------
# A location tile is usable "from their next turn on" (EN 213): with Marshlands this matters outside its
# holder's turns too, since a reaction tile (marsh_hooks) acts in other turns. By default a tile taken (in its
# holder's turn or by a reaction in another's) stays fresh until its holder's next turn begins; under the flag
# tiles_ready_next_round (DE 206 "erst ab der naechsten Runde") until the round it was taken in has ended.
# Either way a tile taken in a round never reacts in that round.
@njit(cache=True, inline="always")
def tiles_ready_at_turn_start(st, p: int) -> None:
    """The start of p's turn: p's tiles taken before it are ready (the EN reading)."""
    if st[RULE_FLAGS] & READY_NEXT_ROUND == 0:
        st[TILES_FRESH + p] = 0


@njit(cache=True, inline="always")
def tiles_ready_at_turn_end(st, round_over: bool) -> None:
    """The end of a turn: bonus tiles taken in it are ready (EN 1097); under tiles_ready_next_round, every tile
    and bonus tile taken in the round only once the round is over."""
    if st[RULE_FLAGS] & READY_NEXT_ROUND == 0:
        for q in range(st[NUM_PLAYERS]):
            st[BONUS_FRESH + q] = 0
    elif round_over:
        for q in range(st[NUM_PLAYERS]):
            st[TILES_FRESH + q] = 0
            st[BONUS_FRESH + q] = 0


# ----- bonus tiles (M-7, A-M4) ------------------------------------------------------------------------
@njit(cache=True)
def bonus_ready(st, p: int, loc_type: int) -> bool:
    """p holds the bonus tile of loc_type since before this turn (A-M4: usable from the next turn)."""
    bit = 1 << loc_type
    return (st[BONUS_HELD + p] & ~st[BONUS_FRESH + p] & bit) != 0


@njit(cache=True, inline="always")
def tiles_of_type(st, p: int, loc_type: int) -> int:
    """How many location tiles of loc_type p holds."""
    held = st[TILES_HELD + p]
    k = 0
    for i in range(st[NUM_LOCATIONS]):
        if (held >> i) & 1 and st[LOC_TYPE + i] == loc_type:
            k += 1
    return k


@njit(cache=True)
def take_bonus_tiles(st, p: int) -> None:
    """After p took tiles: the bonus tile of each Marshlands type of which p now holds two tiles, while
    any is left on its summary card (EN 1095, A-M4)."""
    counts = 0  # 4 bits per bonus type k: p's tiles of type FIRST_BONUS_TYPE + k, one pass over the held tiles
    held = st[TILES_HELD + p]
    i = 0
    while held != 0:
        if held & 1:
            k = st[LOC_TYPE + i] - FIRST_BONUS_TYPE
            if 0 <= k < NUM_BONUS_TYPES:
                counts += 1 << (4 * k)
        held >>= 1
        i += 1
    if counts == 0:
        return
    for k in range(NUM_BONUS_TYPES):
        t = FIRST_BONUS_TYPE + k
        bit = 1 << t
        if st[BONUS_HELD + p] & bit == 0 and st[BONUS_LEFT + k] > 0 and (counts >> (4 * k)) & 15 >= 2:
            st[BONUS_LEFT + k] -= 1
            st[BONUS_HELD + p] |= bit
            st[BONUS_FRESH + p] |= bit


@njit(cache=True)
def lose_bonus_tiles(st, p: int) -> None:
    """After p lost tiles: a bonus tile whose type p no longer holds two tiles of goes out of the game
    (A-M4 b), unless the rule flag bonus_kept_after_tile_loss keeps it (A-M4 a)."""
    if st[RULE_FLAGS] & KEEP_BONUS:
        return
    for k in range(NUM_BONUS_TYPES):
        t = FIRST_BONUS_TYPE + k
        bit = 1 << t
        if st[BONUS_HELD + p] & bit and tiles_of_type(st, p, t) < 2:
            st[BONUS_HELD + p] &= ~bit
            st[BONUS_FRESH + p] &= ~bit
            st[BONUS_USED + p] &= ~bit


@njit(cache=True, inline="always")
def bonus_usable(st, p: int, loc_type: int) -> bool:
    """A bonus tile that is a decision (catalogue.BONUS_POWERS): ready and not used this turn."""
    return bonus_ready(st, p, loc_type) and (st[BONUS_USED + p] >> loc_type) & 1 == 0


# ----- Fountain (M-10, M-11, A-M8) ------------------------------------------------------------------
@njit(cache=True, inline="always")
def fountain_targets(st, p: int, out) -> None:
    """Free hexes suitable to be built upon next to exactly one of p's settlements and to none of another
    player's; with p's fountain bonus also free mountains (not caves). The turn owner's scouts count as its
    settlements (Harvest, EN 1331).

    Counted by masks (hex adjacency is symmetric): `near[0]` = next to one or more of p's pieces,
    `near[1]` = next to two or more, `near[2]` = next to another player's."""
    mountains = bonus_ready(st, p, FOUNTAIN)
    near = np.zeros((3, WORDS), dtype=np.int64)
    for q in range(st[NUM_PLAYERS]):
        for i in range(WORDS):
            w = st[OWN + q * WORDS + i]
            if q == st[CURRENT]:
                w |= st[SCOUTS + i]  # the scouts: only the turn owner's are on the board (H-9)
            while w != 0:
                h = i * BITS_PER_WORD + word_lowest_bit(w)
                w &= w - 1
                for j in range(WORDS):
                    nb = NEIGHBOUR_MASK[h, j]
                    if q == p:
                        near[1, j] |= near[0, j] & nb
                        near[0, j] |= nb
                    else:
                        near[2, j] |= nb
    for i in range(WORDS):
        ground = st[BUILDABLE_MASK + i]
        if mountains:
            ground |= st[TERRAIN_MASKS + MOUNTAIN * WORDS + i] & ~st[CAVES + i]
        out[i] = ground & ~st[OCCUPIED + i] & near[0, i] & ~near[1, i] & ~near[2, i]


# ----- Refuge bonus (M-15, A-M9) --------------------------------------------------------------------
@njit(cache=True, inline="always")
def ray_targets(st, src: int, out) -> None:
    """Along each of the 6 lines from src: the first free hex suitable to be built upon (none before the
    edge: no target in that direction)."""
    clear(out)
    for d in range(6):
        h = STEP1[src, d]
        while h >= 0:
            if has(st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], h) and not has(st[OCCUPIED : OCCUPIED + WORDS], h):
                add(out, h)
                break
            h = STEP1[h, d]


# ----- Temple (M-12, M-13, A-M6, A-M7) --------------------------------------------------------------
@njit(cache=True, inline="always")
def temple_waiver(st, p: int) -> bool:
    """The temple bonus: the first settlement of the mandatory action may ignore adjacency (M-13)."""
    return st[MANDATORY_BUILT] == 0 and bonus_ready(st, p, TEMPLE)


@njit(cache=True, inline="always")
def set_aside(st, p: int) -> None:
    """The settlement the Temple took off goes to p's reserve, not to the supply (A-M6)."""
    st[TEMPLE_RESERVE + p] += 1


@njit(cache=True, inline="always")
def owe_reserve(st, p: int) -> None:
    """At the start of p's turn: the reserve is owed in this turn's mandatory action, on top of its count."""
    st[TEMPLE_OWED] = st[TEMPLE_RESERVE + p]


@njit(cache=True, inline="always")
def reserve_to_build(st, p: int) -> None:
    """A mandatory build while the reserve is owed comes from the reserve (A-M6 R): it is moved to the
    supply just before build_settlement takes it from there."""
    if st[TEMPLE_OWED] > 0 and st[TEMPLE_RESERVE + p] > 0:
        st[TEMPLE_OWED] -= 1
        st[TEMPLE_RESERVE + p] -= 1
        st[SUPPLY + p] += 1


@njit(cache=True)
def reserve_owed(st) -> int:
    """Of the turn owner's reserve, how many settlements are still owed in this turn's mandatory action."""
    return st[TEMPLE_OWED]


@njit(cache=True, inline="always")
def supply_emptied(st, p: int) -> None:
    """p's supply is empty (board_ops.last_from_supply, Marshlands): the game ends after this round (EN 298 "built
    the last settlement from their personal supply"; with the flag temple_reserve_delays_end once the reserve set
    aside is empty too), and nothing is left to build this turn once the reserve owed is built (A-M6)."""
    if st[TEMPLE_RESERVE + p] == 0 or st[RULE_FLAGS] & RESERVE_DELAYS_END == 0:
        st[ENDING] = 1
    if st[TEMPLE_OWED] == 0:
        st[MANDATORY_DONE] = 1


@njit(cache=True, inline="always")
def return_unbuilt_reserve(st, p: int) -> None:
    """At the end of p's turn: an owed reserve that could not be built goes back to the supply (A-M6 R)."""
    k = min(st[TEMPLE_OWED], st[TEMPLE_RESERVE + p])
    st[TEMPLE_RESERVE + p] -= k
    st[SUPPLY + p] += k
    st[TEMPLE_OWED] = 0
