"""Crossroads rules inside numba (rule ids C-4..C-14 and readings A-C1..A-C9 of the expansion spec).

Pieces that count as settlements (warriors, wagon, ship, the 7 cells of a city hall) live in OWN[p]
like settlements, so adjacency, tile keeping and scoring see them (C-9, X-3); MEEPLES[p] marks which
of p's hexes hold such a piece, so move powers and the Sword leave them alone (A-X1 a). They never
come from the 40-settlement supply (A-C4). A warrior closes its neighbours to building and moving
(C-12): the zone is folded into OCCUPIED, so every eligibility test of the engine sees it unchanged.

Crossroads hands: beside HAND[p] a player may hold EXTRA_CARDS. Until the turn's terrain is fixed,
the card-dependent targets are the union over the hand's cards, each with its own adjacency rule;
the first hex chosen for them fixes the terrain (A-C8, lazy choice).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import (
    BITS_PER_WORD,
    HEX_BIT,
    HEX_WORD,
    NEIGHBOUR_MASK,
    WORDS,
    add,
    clear,
    has,
    remove,
    word_lowest_bit,
)
from ...board.codes import MOUNTAIN, NUM_BUILDABLE, SWAMP
from ...board.geometry import STEP1
from ...catalogue import CROSSROADS as EXP_CROSSROADS
from ...catalogue import HARVEST as EXP_HARVEST
from ...catalogue import LOCATION_NAMES, POWER_CODE, POWER_NAMES, POWER_TRAIT, RULE_BIT
from ...catalogue import MARSHLANDS as EXP_MARSHLANDS
from ...catalogue import NOMADS as EXP_NOMADS
from ..board_ops import (
    adjacent_view,
    free_of,
    harvest_after_placing,
    move_settlement,
    restrict_adjacent_if_possible,
    seize_tiles,
    take_off,
    terrain_build_targets,
    terrain_view,
)
from ..deck import discard_card, draw_card
from ..harvest.powers import add_scout_neighbours
from ..marshlands.swamp import PLAIN_BUILDS, card_offers, card_side, is_swamp_card, mandatory_builds
from ..nomads.hooks import claim_nomads, red_cards_after_build
from ..pieces import pieces_into
from ..state import (
    ADJACENT,
    BUILDABLE_MASK,
    CAVES,
    CITY_HALL_AT,
    EXPANSIONS,
    EXTRA_CARDS,
    EXTRA_COUNT,
    FORT_CARD,
    HAND,
    LOC_TYPE,
    MANDATORY_TARGET,
    MAX_EXTRA_CARDS,
    MAX_PLAYERS,
    MEEPLES,
    NO_CARD,
    NUM_LOCATIONS,
    OCCUPIED,
    OWN,
    REMOVED_TERRAIN,
    REPEAT_CARDS,
    RULE_FLAGS,
    SHIP_AT,
    STEPS_LEFT,
    TERRAIN_FIXED,
    TERRAIN_MASKS,
    TILES_HELD,
    TURN_TERRAIN,
    WAGON_AT,
    WARRIOR_AT,
    WARRIORS_PER_PLAYER,
    ZONE,
    scratch_off,
)
from ..traits import POWER_TERRAIN
from .zone import reblock_zone

WAGON_POWER = POWER_CODE["wagon"]
LIGHTHOUSE_POWER = POWER_CODE["lighthouse"]
CROSSROADS_TYPE = LOCATION_NAMES.index("crossroads")
PIECE_STEPS = POWER_TRAIT["wagon"].steps  # a wagon or ship moves up to 3 spaces (C-13, C-14)
OPEN_HAND_EXPANSIONS = EXP_CROSSROADS | EXP_MARSHLANDS  # hands of several terrains (A-C8, A-M2)
assert POWER_TRAIT["lighthouse"].steps == PIECE_STEPS
# The state field of each vehicle power's piece (hex + 1), by power code; its ground is POWER_TERRAIN
# (the ship: water) or, without a terrain, eligible-for-building or mountain hexes (the wagon).
VEHICLE_AT = np.full(len(POWER_NAMES), -1, dtype=np.int64)
VEHICLE_AT[WAGON_POWER] = WAGON_AT
VEHICLE_AT[LIGHTHOUSE_POWER] = SHIP_AT
ZONE_SETTLEMENTS_ONLY = RULE_BIT["zone_blocks_settlements_only"]
SCRATCH_HAND = scratch_off("hand")
SCRATCH_LIFTED = scratch_off("lifted")


# ----- pieces that count as settlements -------------------------------------------------------------
@njit(cache=True)
def place_piece(st, p: int, h: int) -> None:
    """Put one of p's non-settlement pieces on h: it counts as p's settlement from now on. Placing is
    building (A-C3, A-N9): it seizes location and nomad tiles and scores the red cards."""
    put_piece(st, p, h)
    if st[EXPANSIONS] & EXP_NOMADS:
        red_cards_after_build(st, p, h)


@njit(cache=True)
def put_piece(st, p: int, h: int) -> None:
    """place_piece without the red cards: the piece stands on h, tiles seized and nomad tiles claimed."""
    w = HEX_WORD[h]
    b = HEX_BIT[h]
    st[OCCUPIED + w] |= b
    st[OWN + p * WORDS + w] |= b
    st[MEEPLES + p * WORDS + w] |= b
    for i in range(WORDS):
        st[ADJACENT + p * WORDS + i] |= NEIGHBOUR_MASK[h, i]
    seize_tiles(st, p, h)
    if st[EXPANSIONS] & EXP_NOMADS:
        claim_nomads(st, p, h)
    if st[EXPANSIONS] & EXP_HARVEST:
        harvest_after_placing(st, p, h)  # pieces count as settlements for Mayors (A-H7)


@njit(cache=True)
def lift_piece(st, p: int, h: int) -> None:
    """Take one of p's non-settlement pieces off h; p loses the tiles it no longer touches."""
    st[MEEPLES + p * WORDS + HEX_WORD[h]] &= ~HEX_BIT[h]
    take_off(st, p, h)


@njit(cache=True, inline="always")
def step_piece(st, p: int, src: int, dst: int) -> None:
    """Move a wagon or ship one space, as a settlement moves: tiles are seized and lost on the way (A-N2),
    nomad tiles claimed; moving is not building, so no red card scores (A-N9)."""
    meeples = st[MEEPLES + p * WORDS : MEEPLES + (p + 1) * WORDS]
    remove(meeples, src)
    add(meeples, dst)
    move_settlement(st, p, src, dst)


@njit(cache=True)
def update_zone(st) -> None:
    """Recompute the warrior zones after a warrior came or went, and OCCUPIED with them."""
    for i in range(WORDS):
        st[ZONE + i] = 0
    for k in range(MAX_PLAYERS * WARRIORS_PER_PLAYER):
        if st[WARRIOR_AT + k] > 0:
            h = st[WARRIOR_AT + k] - 1
            for i in range(WORDS):
                st[ZONE + i] |= NEIGHBOUR_MASK[h, i]
    pieces_into(st, st[OCCUPIED : OCCUPIED + WORDS])
    reblock_zone(st)


@njit(cache=True, inline="always")
def place_city_hall(st, p: int, centre: int) -> None:
    """The city hall covers centre and its 6 neighbours; each cell counts as a settlement (C-8, A-C7).

    The tile goes down whole, so the red cards check each of its 7 settlements once all 7 stand
    (docs/rules-readings.md, "City hall and the red cards"): Shepherds sees the other cells as occupied.
    """
    st[CITY_HALL_AT + p] = centre + 1
    put_piece(st, p, centre)
    for d in range(6):
        put_piece(st, p, STEP1[centre, d])
    if st[EXPANSIONS] & EXP_NOMADS:
        red_cards_after_build(st, p, centre)
        for d in range(6):
            red_cards_after_build(st, p, STEP1[centre, d])


@njit(cache=True)
def warrior_slot(st, p: int, h: int) -> int:
    """The slot of p's warrior on h (h = -1: a warrior in the supply), or -1."""
    for k in range(WARRIORS_PER_PLAYER):
        if st[WARRIOR_AT + p * WARRIORS_PER_PLAYER + k] == h + 1:
            return k
    return -1


# ----- where pieces may go -----------------------------------------------------------------------
@njit(cache=True, inline="always")
def closed_to_pieces(st, out) -> None:
    """Hexes a warrior, wagon, ship or city hall may not enter: OCCUPIED, or only the hexes holding a
    piece under the reading that zones block settlements only (A-C1 b)."""
    if st[RULE_FLAGS] & ZONE_SETTLEMENTS_ONLY:
        pieces_into(st, out)
    else:
        for i in range(WORDS):
            out[i] = st[OCCUPIED + i]


@njit(cache=True)
def open_hexes(st, allowed, out) -> None:
    """out = allowed hexes open to a piece (caves are never a wagon's, A-QV2)."""
    closed_to_pieces(st, out)
    for i in range(WORDS):
        out[i] = allowed[i] & ~out[i] & ~st[CAVES + i]


@njit(cache=True, inline="always")
def wagon_ground(st, out) -> None:
    """Eligible-for-building or mountain hexes (C-13)."""
    for i in range(WORDS):
        out[i] = st[BUILDABLE_MASK + i] | st[TERRAIN_MASKS + MOUNTAIN * WORDS + i]


@njit(cache=True)
def piece_at(st, p: int, power: int) -> int:
    """Hex of p's wagon (Wagon) or ship (Lighthouse), -1 in the supply."""
    return st[VEHICLE_AT[power] + p] - 1


@njit(cache=True)
def vehicle_ground(st, power: int, out) -> None:
    t = POWER_TERRAIN[power]
    if t < 0:
        wagon_ground(st, out)
    else:
        for i in range(WORDS):
            out[i] = st[TERRAIN_MASKS + t * WORDS + i]


@njit(cache=True, inline="always")
def vehicle_steps(st, power: int, src: int, out) -> None:
    """The spaces next to src that the wagon or ship may enter."""
    vehicle_ground(st, power, out)
    ground = out.copy()
    open_hexes(st, ground, out)
    for i in range(WORDS):
        out[i] &= NEIGHBOUR_MASK[src, i]


@njit(cache=True, inline="always")
def vehicle_targets(st, p: int, power: int, stepping: bool, out) -> None:
    """Wagon or Lighthouse: placement hexes (adjacent if possible) when the piece is in the supply;
    else the first step's hexes plus its own hex (= take it back); while stepping, the next steps."""
    h = piece_at(st, p, power)
    if h < 0:
        vehicle_ground(st, power, out)
        ground = out.copy()
        open_hexes(st, ground, out)
        restrict_adjacent_if_possible(out, adjacent_view(st, p))
        return
    vehicle_steps(st, power, h, out)
    if not stepping:
        add(out, h)


@njit(cache=True, inline="always")
def barracks_targets(st, p: int, out) -> None:
    """Placement hexes (eligible, adjacent if possible) while a warrior is in the supply, plus p's
    warriors on the board (= take one back) (C-10)."""
    clear(out)
    if warrior_slot(st, p, -1) >= 0:
        open_hexes(st, st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], out)
        restrict_adjacent_if_possible(out, adjacent_view(st, p))
    for k in range(WARRIORS_PER_PLAYER):
        at = st[WARRIOR_AT + p * WARRIORS_PER_PLAYER + k]
        if at > 0:
            add(out, at - 1)


@njit(cache=True, inline="always")
def city_hall_targets(st, p: int, out) -> None:
    """Centres of a city hall: all 7 cells on the board and eligible, one cell next to p's pieces (C-8,
    no fallback); once p's city hall is placed none, unless a repeat relocates it (STEPS_LEFT > 0, EN 1307)."""
    clear(out)
    if st[CITY_HALL_AT + p] != 0:
        if st[STEPS_LEFT] > 0:
            city_hall_relocation_targets(st, p, out)
        return
    free = st[SCRATCH_HAND : SCRATCH_HAND + WORDS]
    open_hexes(st, st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], free)
    hall_centres(free, adjacent_view(st, p), -1, out)


@njit(cache=True, inline="always")
def hall_centres(free, adjacent, old_centre: int, out) -> None:
    """out |= the centres h != old_centre whose 7 cells are all in free, one of them in adjacent."""
    for h in range(400):
        if h == old_centre or not has(free, h):
            continue
        ok = True
        touches = has(adjacent, h)
        for d in range(6):
            n = STEP1[h, d]
            if n < 0 or not has(free, n):
                ok = False
                break
            touches = touches or has(adjacent, n)
        if ok and touches:
            add(out, h)


@njit(cache=True)
def city_hall_relocation_targets(st, p: int, out) -> None:
    """Where a repeat may move p's city hall (EN 1305-1307): a new centre whose 7 cells are eligible and free once
    the hall is lifted (a warrior zone that reaches its old cells closes them, C-12), one cell next to p's other
    pieces or the turn's scouts, as if the hall were placed now (C-8)."""
    centre = st[CITY_HALL_AT + p] - 1
    free = st[SCRATCH_HAND : SCRATCH_HAND + WORDS]
    open_hexes(st, st[BUILDABLE_MASK : BUILDABLE_MASK + WORDS], free)
    adjacent = st[SCRATCH_LIFTED : SCRATCH_LIFTED + WORDS]
    clear(adjacent)
    for i in range(WORDS):
        w = st[OWN + p * WORDS + i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            if not is_hall_cell(centre, h):
                for j in range(WORDS):
                    adjacent[j] |= NEIGHBOUR_MASK[h, j]
    for d in range(-1, 6):
        cell = centre if d < 0 else STEP1[centre, d]
        if st[RULE_FLAGS] & ZONE_SETTLEMENTS_ONLY or not has(st[ZONE : ZONE + WORDS], cell):
            add(free, cell)
    if st[EXPANSIONS] & EXP_HARVEST:
        add_scout_neighbours(st, p, adjacent)
    hall_centres(free, adjacent, centre, out)


@njit(cache=True)
def relocate_city_hall(st, p: int, centre: int) -> None:
    """A repeat moves p's city hall to centre (EN 1307): the new cells stand first (they seize tiles), then the old
    ones not covered again are lifted (tiles they alone held are lost). Moving is not building: no red card
    scores (A-N9)."""
    old = st[CITY_HALL_AT + p] - 1
    for d in range(-1, 6):
        cell = centre if d < 0 else STEP1[centre, d]
        if not is_hall_cell(old, cell):
            put_piece(st, p, cell)
    for d in range(-1, 6):
        cell = old if d < 0 else STEP1[old, d]
        if not is_hall_cell(centre, cell):
            lift_piece(st, p, cell)
    st[CITY_HALL_AT + p] = centre + 1


@njit(cache=True, inline="always")
def is_hall_cell(centre: int, h: int) -> bool:
    """h is one of the 7 cells of a city hall on centre."""
    if h == centre:
        return True
    for d in range(6):
        if STEP1[centre, d] == h:
            return True
    return False


@njit(cache=True, inline="always")
def fort_draw(st) -> None:
    """The Fort draws its card (a chance event inside the turn, C-6)."""
    st[FORT_CARD] = draw_card(st)


@njit(cache=True)
def fort_discard(st) -> None:
    discard_card(st, st[FORT_CARD])
    st[FORT_CARD] = NO_CARD


@njit(cache=True, inline="always")
def barracks_target(st, p: int, h: int) -> None:
    """Barracks: take back p's warrior on h, or place one from the supply there (C-10)."""
    k = warrior_slot(st, p, h)
    if k >= 0:
        st[WARRIOR_AT + p * WARRIORS_PER_PLAYER + k] = 0
        lift_piece(st, p, h)
    else:
        st[WARRIOR_AT + p * WARRIORS_PER_PLAYER + warrior_slot(st, p, -1)] = h + 1
        place_piece(st, p, h)
    update_zone(st)


@njit(cache=True, inline="always")
def vehicle_target(st, p: int, power: int, h: int) -> bool:
    """Wagon or Lighthouse: place the piece, take it back, or step it to h; True if it stepped (the power
    goes on with another step)."""
    field = VEHICLE_AT[power]
    at = st[field + p] - 1
    if at < 0:
        st[field + p] = h + 1
        place_piece(st, p, h)
    elif h == at:
        st[field + p] = 0
        lift_piece(st, p, h)
    else:
        st[field + p] = h + 1
        step_piece(st, p, at, h)
        return True
    return False


# ----- Crossroads hands (C-7, A-C8) and Marshlands swamp cards (M-5, decision 8) ---------------------
@njit(cache=True)
def choosing_terrain(st, p: int) -> bool:
    """This turn's terrain is not fixed yet and p's hand offers several: several Crossroads cards, or a
    swamp card (swamp or its other terrain)."""
    if st[EXPANSIONS] & OPEN_HAND_EXPANSIONS == 0 or st[TERRAIN_FIXED] != 0:
        return False  # base games never read the TERRAIN_FIXED line (a cache miss a call in big batches)
    if st[EXPANSIONS] & EXP_CROSSROADS != 0 and st[EXTRA_COUNT + p] > 0:
        return True
    if st[EXPANSIONS] & EXP_MARSHLANDS != 0:
        for k in range(st[EXTRA_COUNT + p] + 1):
            if is_swamp_card(hand_card(st, p, k)):
                return True
    return False


@njit(cache=True)
def hand_card(st, p: int, k: int) -> int:
    """Card k of p's hand: 0 = HAND[p], 1.. = the extra cards."""
    if k == 0:
        return st[HAND + p]
    return st[EXTRA_CARDS + p * MAX_EXTRA_CARDS + k - 1]


@njit(cache=True)
def hand_options(st, p: int) -> int:
    """Number of terrain options of p's open hand (hand_option 0 .. this - 1)."""
    n = st[EXTRA_COUNT + p] + 1
    return 2 * n + 1 if st[EXPANSIONS] & EXP_MARSHLANDS else n


@njit(cache=True)
def hand_option(st, p: int, k: int) -> int:
    """The terrain of option k of p's open hand (NO_CARD: none): with Marshlands two per card (card_side),
    then the terrain the Scouts set-up removed when two cards of the hand show the same terrain (DE 1369)."""
    if st[EXPANSIONS] & EXP_MARSHLANDS:
        if k == 2 * (st[EXTRA_COUNT + p] + 1):
            return st[REMOVED_TERRAIN] - 1 if pair_card(st, p) >= 0 else NO_CARD
        return card_side(hand_card(st, p, k // 2), k % 2)
    return hand_card(st, p, k)


@njit(cache=True)
def pair_card(st, p: int) -> int:
    """With a terrain removed by the Scouts set-up: the index of the first of two hand cards of the same plain
    terrain ("zieht zweimal die gleiche Gelandeart, darf er auch die entfernte Gelandeart wahlen", DE 1369),
    else -1."""
    if st[REMOVED_TERRAIN] == 0:
        return -1
    n = st[EXTRA_COUNT + p] + 1
    for a in range(n):
        first = hand_card(st, p, a)
        if first == NO_CARD or is_swamp_card(first):
            continue
        for b in range(a + 1, n):
            if hand_card(st, p, b) == first:
                return a
    return -1


@njit(cache=True, inline="always")
def hand_build_targets(st, p: int, waive_adjacency: bool, out) -> None:
    """Union over the hand's options of terrain_build_targets (each with its own adjacency rule); with
    `waive_adjacency` (a Marshlands bonus, M-13) of their free hexes."""
    clear(out)
    one = st[SCRATCH_HAND : SCRATCH_HAND + WORDS]
    for k in range(hand_options(st, p)):
        t = hand_option(st, p, k)
        if t != NO_CARD:
            if waive_adjacency:
                free_of(st, terrain_view(st, t), one)
            else:
                terrain_build_targets(st, p, t, one)
            for i in range(WORDS):
                out[i] |= one[i]


@njit(cache=True, inline="always")
def hand_has_free_hex(st, p: int) -> bool:
    """Some option of p's hand has a free hex of its terrain."""
    for k in range(hand_options(st, p)):
        t = hand_option(st, p, k)
        if t != NO_CARD:
            view = terrain_view(st, t)
            for i in range(WORDS):
                if view[i] & ~st[OCCUPIED + i]:
                    return True
    return False


@njit(cache=True, inline="always")
def card_at(st, h: int) -> int:
    """The terrain a card may name at hex h (its terrain code: a card terrain, or swamp with Marshlands), or
    NO_CARD."""
    for t in range(NUM_BUILDABLE):
        if has(terrain_view(st, t), h):
            return t
    if st[EXPANSIONS] & EXP_MARSHLANDS and has(terrain_view(st, SWAMP), h):
        return SWAMP
    return NO_CARD


@njit(cache=True, inline="always")
def fix_terrain(st, p: int, terrain: int) -> None:
    """This turn's terrain is `terrain`: the card offering it becomes HAND[p] (a plain card before a swamp
    card); the other cards wait for the discard. A swamp card sets the mandatory action's count (M-5)."""
    st[TERRAIN_FIXED] = 1
    best = -1
    for k in range(st[EXTRA_COUNT + p] + 1):
        card = hand_card(st, p, k)
        if card == terrain:
            best = k
            break
        if best < 0 and card != NO_CARD and card_offers(card, terrain):
            best = k
    if best < 0 and st[EXPANSIONS] & EXP_MARSHLANDS:
        best = pair_card(st, p)  # the removed terrain, chosen with a pair (DE 1369)
    if best > 0:
        slot = EXTRA_CARDS + p * MAX_EXTRA_CARDS + best - 1
        card = st[slot]
        st[slot] = st[HAND + p]
        st[HAND + p] = card
    if st[EXPANSIONS] & EXP_MARSHLANDS:
        st[TURN_TERRAIN] = terrain  # what hand_terrain gives for the rest of the turn
    if is_swamp_card(st[HAND + p]):
        # on top of the count begin_turn set (3, plus a reserve owed, M-12)
        st[MANDATORY_TARGET] += mandatory_builds(st[HAND + p], terrain) - PLAIN_BUILDS


@njit(cache=True, inline="always")
def discard_extra_cards(st, p: int) -> None:
    for k in range(st[EXTRA_COUNT + p]):
        slot = EXTRA_CARDS + p * MAX_EXTRA_CARDS + k
        discard_card(st, st[slot])
        st[slot] = NO_CARD
    st[EXTRA_COUNT + p] = 0
    st[TERRAIN_FIXED] = 0


@njit(cache=True)
def crossroads_tiles(st, p: int) -> int:
    """Crossroads tiles p holds, one taken this turn included (A-C8)."""
    n = 0
    for i in range(st[NUM_LOCATIONS]):
        if (st[TILES_HELD + p] >> i) & 1 and st[LOC_TYPE + i] == CROSSROADS_TYPE:
            n += 1
    return n


@njit(cache=True, inline="always")
def draw_extra_cards(st, p: int) -> None:
    """At the end of p's turn: one more card per Crossroads tile held (C-7), and with Harvest one more per
    repeat of that extra action in this turn (REPEAT_CARDS, A-H3, A-C8; kbenv.engine.legal.repeat_card_open)."""
    cards = crossroads_tiles(st, p)
    if st[EXPANSIONS] & EXP_HARVEST:
        cards += st[REPEAT_CARDS]
        st[REPEAT_CARDS] = 0
    for _ in range(min(cards, MAX_EXTRA_CARDS)):
        card = draw_card(st)
        if card != NO_CARD:
            st[EXTRA_CARDS + p * MAX_EXTRA_CARDS + st[EXTRA_COUNT + p]] = card
            st[EXTRA_COUNT + p] += 1


@njit(cache=True)
def pieces_of(st, p: int) -> int:
    """Number of p's non-settlement pieces on the board (cells of a city hall counted one by one)."""
    n = 0
    for i in range(WORDS):
        w = st[MEEPLES + p * WORDS + i]
        while w != 0:
            w &= w - 1
            n += 1
    return n


