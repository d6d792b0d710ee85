"""Nomads rules inside numba: nomad tiles (claim, timing, the four actions), walls and the Quarry,
Caravan, Village and Garden, and the red Kingdom Builder cards scored during play.

Rule ids (N-..., A-N...) are those of the expansion spec; docs/rules-readings.md lists the readings.
"""

from __future__ import annotations

from numba import njit

from ...board.bitset import (
    BITS_PER_WORD,
    HEX_BIT,
    HEX_WORD,
    NEIGHBOUR_MASK,
    WORDS,
    add,
    clear,
    count_and,
    has,
    word_lowest_bit,
)
from ...board.geometry import STEP1
from ...catalogue import DONATION_TERRAINS, NOMAD_KINDS, POWER_TRAIT, RULE_BIT
from ...catalogue import MARSHLANDS as EXP_MARSHLANDS
from ..board_ops import adjacent_view, own_this_turn, settlements_word
from ..marshlands.swamp import PLAIN_BUILDS, mandatory_builds
from ..pieces import piece_on, pieces_into
from ..state import (
    BUILDABLE_MASK,
    EXPANSIONS,
    GOLD,
    HAND,
    MANDATORY_HEXES,
    MANDATORY_TARGET,
    NOMAD_GONE,
    NOMAD_KIND,
    NOMAD_OWNER,
    NOMAD_ROUND,
    NUM_NOMADS,
    NUM_PLAYERS,
    OCCUPIED,
    RULE_FLAGS,
    TERRAIN_MASKS,
    TURN_TERRAIN,
    WALLS,
    WALLS_LEFT,
    ZONE,
)
from .hooks import FAMILIES, RED_CARD_GOLD, card_in_play, current_round

# Nomad tile kinds (indices into catalogue.NOMAD_KINDS).
RESETTLEMENT = NOMAD_KINDS.index("resettlement")
OUTPOST = NOMAD_KINDS.index("outpost")
SWORD = NOMAD_KINDS.index("sword")
RESETTLEMENT_STEPS = POWER_TRAIT["resettlement"].steps  # 4 one-space moves (N-9)
DONATION_BUILDS = POWER_TRAIT["donation-G"].steps  # 3 builds (N-7)
assert all(POWER_TRAIT[f"donation-{t}"].steps == DONATION_BUILDS for t in DONATION_TERRAINS)
ZONE_SETTLEMENTS_ONLY = RULE_BIT["zone_blocks_settlements_only"]  # A-C1 (b): a wall may go in a warrior zone
assert DONATION_TERRAINS == "GCDFTWM"  # donation k builds on terrain code k (kbenv.board.codes)


@njit(cache=True)
def usable_nomad(st, p: int, kind: int) -> int:
    """Index of a nomad tile of `kind` that p may use now (claimed in the previous round), or -1 (N-6)."""
    r = current_round(st)
    for i in range(st[NUM_NOMADS]):
        if st[NOMAD_OWNER + i] == p and st[NOMAD_KIND + i] == kind and st[NOMAD_ROUND + i] + 1 == r:
            return i
    return -1


@njit(cache=True, inline="always")
def end_of_round(st) -> None:
    """At the end of a round, tiles claimed in the round before leave the game, used or not (N-6)."""
    r = current_round(st)
    for i in range(st[NUM_NOMADS]):
        if st[NOMAD_OWNER + i] >= 0 and st[NOMAD_ROUND + i] + 1 <= r:
            st[NOMAD_OWNER + i] = NOMAD_GONE


# ----- walls and the Quarry (N-18) -------------------------------------------------------------
@njit(cache=True)
def place_wall(st, h: int) -> None:
    st[WALLS + HEX_WORD[h]] |= HEX_BIT[h]
    st[OCCUPIED + HEX_WORD[h]] |= HEX_BIT[h]
    st[WALLS_LEFT] -= 1


@njit(cache=True, inline="always")
def quarry_targets(st, p: int, terrain: int, out) -> None:
    """Free hexes of the played card's terrain next to p's settlements (no fallback); none without walls.

    A warrior zone closes its hexes to walls too (A-C1 (a)); under the flag zone_blocks_settlements_only
    (A-C1 (b)) it blocks settlements only, and a wall may go on a zone hex that holds no piece.
    """
    clear(out)
    if st[WALLS_LEFT] <= 0 or terrain < 0:
        return
    adjacent = adjacent_view(st, p)  # hexes next to p's settlements, kept up to date by board_ops
    if st[RULE_FLAGS] & ZONE_SETTLEMENTS_ONLY:
        pieces_into(st, out)  # the hexes holding a piece (walls and occupied caves included), zones left out
        for i in range(WORDS):
            out[i] = st[TERRAIN_MASKS + terrain * WORDS + i] & ~out[i] & adjacent[i]
        return
    for i in range(WORDS):
        out[i] = st[TERRAIN_MASKS + terrain * WORDS + i] & ~st[OCCUPIED + i] & adjacent[i]


# ----- Caravan, Village, Garden (N-19..21) -------------------------------------------------------
@njit(cache=True)
def passable(st, h: int) -> bool:
    """A free buildable hex: the caravan slides over it (A-N8); anything else is an obstacle."""
    return h >= 0 and has(st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], h) and not has(
        st[OCCUPIED : OCCUPIED + WORDS], h)


@njit(cache=True, inline="always")
def caravan_targets(st, src: int, out) -> None:
    """For each direction: the last free buildable hex before the first obstacle or the board edge."""
    clear(out)
    zone = st[ZONE : ZONE + WORDS]
    for d in range(6):
        h = src
        n = STEP1[h, d]
        while passable(st, n) or (n >= 0 and slides_through_zone(st, n)):
            h = n
            n = STEP1[h, d]
        if h != src and not has(zone, h):
            add(out, h)


@njit(cache=True, inline="always")
def slides_through_zone(st, h: int) -> bool:
    """A free buildable hex of a warrior zone: the caravan slides through it but may not stop there (A-N8)."""
    return has(st[ZONE : ZONE + WORDS], h) and has(st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], h) \
        and not piece_on(st, h)


@njit(cache=True, inline="always")
def village_targets(st, p: int, out) -> None:
    """Free buildable hexes next to at least 3 of p's settlements (the turn owner's scouts among them, EN 1331)."""
    own = own_this_turn(st, p)
    for i in range(WORDS):
        out[i] = st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]
    for i in range(WORDS):
        w = out[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            if count_and(NEIGHBOUR_MASK[h], own) < 3:
                out[i] &= ~(1 << (h % BITS_PER_WORD))



# ----- Resettlement and Sword (N-9, N-11) --------------------------------------------------------
@njit(cache=True, inline="always")
def step_targets(st, src: int, out) -> None:
    """Resettlement: the free buildable neighbours of src (one space per step)."""
    clear(out)
    for d in range(6):
        n = STEP1[src, d]
        if passable(st, n):
            add(out, n)


@njit(cache=True, inline="always")
def has_step(st, src: int) -> bool:
    for d in range(6):
        if passable(st, STEP1[src, d]):
            return True
    return False


@njit(cache=True)
def next_victim(st, p: int, after: int) -> int:
    """The next player after seat `after` (in seat order from p) who has a settlement, or -1 (A-N5)."""
    n = st[NUM_PLAYERS]
    q = (after + 1) % n
    while q != p:
        for i in range(WORDS):
            if settlements_word(st, q, i) != 0:
                return q
        q = (q + 1) % n
    return -1


# ----- red Kingdom Builder cards (N-14..17) --------------------------------------------------------
@njit(cache=True, inline="always")
def families_after_mandatory(st, p: int, built: int) -> None:
    """Families: 2 gold when the 3 mandatory settlements lie next to each other in one straight line.

    With Marshlands (A-N10) the card's 3 regular builds must form the line: settlements owed on top of the
    card's count are built first (A-M6) and ignored (MANDATORY_HEXES then holds the last 3 builds), and a
    swamp card's 2 builds never score."""
    if st[EXPANSIONS] & EXP_MARSHLANDS:
        if built != st[MANDATORY_TARGET] or mandatory_builds(st[HAND + p], st[TURN_TERRAIN]) != PLAIN_BUILDS:
            return
    elif built != 3:
        return
    if not card_in_play(st, FAMILIES):
        return
    a, b, c = st[MANDATORY_HEXES], st[MANDATORY_HEXES + 1], st[MANDATORY_HEXES + 2]
    for first in (a, b, c):
        for d in range(6):
            second = STEP1[first, d]
            if second < 0:
                continue
            third = STEP1[second, d]
            if third < 0:
                continue
            if (second == a or second == b or second == c) and (third == a or third == b or third == c) \
                    and second != first and third != first and third != second:
                st[GOLD + p] += RED_CARD_GOLD
                return
