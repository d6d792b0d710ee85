"""The invariants every reachable state keeps, as one numba kernel (`first_violation`) and their names.

Each check reads the state alone (no history but the game's starting card counts and the location tiles of
the decision before), so the soak (kbenv.soak.games) runs it after every decision of millions of games. A
check returns the number of the first invariant broken (0: none); INVARIANTS names them, in that order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import HEX_BIT, HEX_WORD, WORDS, popcount, word_popcount
from ..board.codes import CARD_LETTERS, SWAMP_CARD_BASE
from ..board.geometry import ISLAND_ROWS, NUM_CELLS, ROWS
from ..catalogue import (
    BONUS_TILES_PER_TYPE,
    COUNTERS,
    CROSSROADS,
    HARVEST,
    ISLAND,
    MARSHLANDS,
    NOMADS,
    NUMBER_TILE_POOL,
    PIECE_KIND,
    RULE_BIT,
    WALLS_IN_GAME,
)
from ..engine.deck import deck_off, discard_off, removed_off
from ..engine.island.rules import ISLAND_TILE_BIT
from ..engine.piece_table import PIECE_FIELD, SLOT_PIECES
from ..engine.scoring import SCORE_COLUMNS, score_table
from ..engine.state import (
    BONUS_FRESH,
    BONUS_HELD,
    BONUS_LEFT,
    CAVES,
    COUNTER_AT,
    CURRENT,
    DECIDER,
    DECK_COUNT,
    DECK_SIZE,
    DISCARD_COUNT,
    EXPANSIONS,
    EXTRA_CARDS,
    EXTRA_COUNT,
    FORT_CARD,
    FRAME_DEPTH,
    GOLD,
    HAND,
    ISLAND_LOC_TILES,
    ISLAND_MAYOR_LINES,
    LOC_TILES,
    MARSH_PILE_SIZE,
    MAX_EXTRA_CARDS,
    MAX_FRAMES,
    MAX_LOCATIONS,
    MAX_PLAYERS,
    MAYOR_LINES,
    MEEPLES,
    NO_CARD,
    NUM_BONUS_TYPES,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    NUMBER_TILES,
    OCCUPIED,
    OWN,
    PHASE,
    PHASE_NAMES,
    REMOVED_COUNT,
    REMOVED_TERRAIN,
    RULE_FLAGS,
    SCOUTS,
    SETTLEMENTS_PER_PLAYER,
    SPECIAL_MASK,
    SUPPLY,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    WALLS,
    WALLS_LEFT,
)

INVARIANTS = (
    "none",
    "seats: the turn owner and the decider are seats of the game, the phase is known, the frame stack fits",
    "settlements conserved: on the board + supply + kept off the board + Mayors marks = 40 per player, none negative",
    "one piece per hex: no hex holds two players' pieces, a wall, a scout or an occupied cave with another",
    "pieces close their hexes: settlements, other pieces, walls, scouts (and caves unless plain) are in OCCUPIED",
    "no piece on a castle or location hex",
    "other pieces: each warrior, wagon, ship and city hall cell stands on its owner's hexes, and nothing else does",
    "walls conserved: on the board + left = 25",
    "scouts: at most the 2 shared tiles, none outside a Harvest game",
    "location tiles: left + holders <= 2 per location, tiles never return, fresh and used tiles are held",
    "bonus tiles: left + holders <= 2 per type, fresh ones are held",
    "number tiles: none negative, at most the pool of 18 in value",
    "terrain cards conserved: deck + hands + discard + removed hold each card the game began with",
    "removed terrain: no card of the Scouts card's removed terrain in the deck or the discard pile",
    "gold: none negative",
    "totals: each player's total is the sum of the score columns",
    "decisions: a running game offers a legal decision, the chosen one is accepted, one outside the mask refused",
    "the game ends within the decision limit",
)
(
    OK,
    SEATS,
    SETTLEMENTS,
    ONE_PIECE,
    CLOSED,
    SPECIAL,
    OTHER_PIECES,
    WALL_COUNT,
    SCOUT_COUNT,
    LOCATION_TILES,
    BONUS_TILES,
    NUMBER_TILE_COUNT,
    CARDS,
    REMOVED_CARDS,
    GOLD_SIGN,
    TOTALS,
    DECISIONS,
    ENDS,
) = range(len(INVARIANTS))

NUM_CARD_IDS = 2 * len(CARD_LETTERS)  # the plain cards, then a swamp card per terrain (kbenv.board.codes)
SCOUT_TILES = PIECE_KIND["scout"].pool
# The piece kinds stored in slots (catalogue.PIECE_KINDS: warriors, wagon, ship, city hall): first slot, slots per
# player, hexes one piece covers.
SLOT_AT = np.array([PIECE_FIELD[k.name] for k in SLOT_PIECES], dtype=np.int64)
SLOT_COUNT = np.array([k.per_player for k in SLOT_PIECES], dtype=np.int64)
SLOT_CELLS = np.array([k.cells for k in SLOT_PIECES], dtype=np.int64)
assert SLOT_COUNT.min() > 0, "slot pieces belong to players"
PLAIN_CAVES = RULE_BIT["caves_are_plain_mountain"]
NUM_PHASES = len(PHASE_NAMES)
# The per-seat counters of settlements a power keeps off the board (catalogue.COUNTERS, off_board): one here.
(OFF_BOARD,) = (COUNTER_AT[c.name] for c in COUNTERS if c.off_board and c.per_player)


@njit(cache=True)
def card_counts_into(st, counts) -> None:
    """counts[c] = terrain cards of id c anywhere in the game: draw pile, hands (Crossroads' extra cards and the
    Fort's card included), discard pile and the cards out of the game."""
    counts[:] = 0
    for off, n in ((deck_off(st), st[DECK_COUNT]), (discard_off(st), st[DISCARD_COUNT]),
                   (removed_off(st), st[REMOVED_COUNT])):
        for k in range(n):
            counts[st[off + k]] += 1
    for p in range(st[NUM_PLAYERS]):
        if st[HAND + p] != NO_CARD:
            counts[st[HAND + p]] += 1
        for k in range(st[EXTRA_COUNT + p]):
            counts[st[EXTRA_CARDS + p * MAX_EXTRA_CARDS + k]] += 1
    if st[EXPANSIONS] & CROSSROADS and st[FORT_CARD] != NO_CARD:
        counts[st[FORT_CARD]] += 1


@njit(cache=True)
def piles_fit(st) -> bool:
    """Pile counts and card ids are in range (checked before card_counts_into reads them)."""
    room = MARSH_PILE_SIZE if st[EXPANSIONS] & MARSHLANDS else DECK_SIZE
    for c in (st[DECK_COUNT], st[DISCARD_COUNT], st[REMOVED_COUNT]):
        if c < 0 or c > room:
            return False
    for off, n in ((deck_off(st), st[DECK_COUNT]), (discard_off(st), st[DISCARD_COUNT]),
                   (removed_off(st), st[REMOVED_COUNT])):
        for k in range(n):
            if not 0 <= st[off + k] < NUM_CARD_IDS:
                return False
    for p in range(st[NUM_PLAYERS]):
        if st[HAND + p] != NO_CARD and not 0 <= st[HAND + p] < NUM_CARD_IDS:
            return False
        if not 0 <= st[EXTRA_COUNT + p] <= MAX_EXTRA_CARDS:
            return False
        for k in range(st[EXTRA_COUNT + p]):
            if not 0 <= st[EXTRA_CARDS + p * MAX_EXTRA_CARDS + k] < NUM_CARD_IDS:
                return False
    fort = st[FORT_CARD]
    return not (st[EXPANSIONS] & CROSSROADS and fort != NO_CARD and not 0 <= fort < NUM_CARD_IDS)


@njit(cache=True)
def mayors_marks(st, p: int) -> int:
    """Lines the Mayors marked for p (each took a settlement from p's supply, A-H7), the island's included."""
    n = 0
    for r in range(ROWS):
        if st[MAYOR_LINES + r] == p + 1:
            n += 1
    for r in range(ISLAND_ROWS):
        if st[ISLAND_MAYOR_LINES + r] == p + 1:
            n += 1
    return n


@njit(cache=True)
def slot_pieces_fit(st, p: int) -> bool:
    """p's warriors, wagon, ship and city hall stand on p's hexes (in OWN and MEEPLES; the island's hexes included),
    and MEEPLES holds nothing else (a city hall covers its centre and 6 neighbours, C-8)."""
    placed = 0
    for k in range(len(SLOT_AT)):
        for slot in range(SLOT_COUNT[k]):
            at = st[SLOT_AT[k] + p * SLOT_COUNT[k] + slot]
            if at < 0 or at > NUM_CELLS:
                return False
            if at > 0:
                word, bit = HEX_WORD[at - 1], HEX_BIT[at - 1]
                if SLOT_CELLS[k] == 1 and (st[MEEPLES + p * WORDS + word] & bit == 0
                                           or st[OWN + p * WORDS + word] & bit == 0):
                    return False
                placed += SLOT_CELLS[k]
    meeples = 0
    for i in range(WORDS):
        m = st[MEEPLES + p * WORDS + i]
        if m & ~st[OWN + p * WORDS + i]:
            return False
        meeples += word_popcount(m)
    return meeples == placed


@njit(cache=True)
def tiles_fit(st, n: int, last_tiles) -> bool:
    """Location tiles: each location hands out at most its 2 (left + holders), the tiles left never grow (against
    last_tiles, the counts of the decision before, updated here), and fresh or used tiles are held."""
    for i in range(st[NUM_LOCATIONS]):
        holders = 0
        for p in range(n):
            holders += (st[TILES_HELD + p] >> i) & 1
        left = st[LOC_TILES + i]
        if left < 0 or left + holders > 2 or left > last_tiles[i]:
            return False
        last_tiles[i] = left
    if st[EXPANSIONS] & ISLAND:
        holders = 0
        for p in range(n):
            holders += (st[TILES_HELD + p] >> ISLAND_TILE_BIT) & 1
        left = st[ISLAND_LOC_TILES]
        if left < 0 or left + holders > 2 or left > last_tiles[MAX_LOCATIONS]:
            return False
        last_tiles[MAX_LOCATIONS] = left
    for p in range(n):
        held = st[TILES_HELD + p]
        if st[TILES_FRESH + p] & ~held or st[TILES_USED + p] & ~held:
            return False
    return True


@njit(cache=True)
def bonus_tiles_fit(st, n: int) -> bool:
    for t in range(NUM_BONUS_TYPES):
        holders = 0
        for p in range(n):
            holders += (st[BONUS_HELD + p] >> t) & 1
        if st[BONUS_LEFT + t] < 0 or st[BONUS_LEFT + t] + holders > BONUS_TILES_PER_TYPE:
            return False
    for p in range(n):
        if st[BONUS_FRESH + p] & ~st[BONUS_HELD + p]:
            return False
    return True


@njit(cache=True)
def removed_terrain_kept_out(st) -> bool:
    """No card of the removed terrain (or its swamp card) is in the draw or the discard pile (M-16: those cards
    leave the game; a kept hand card of it leaves when it is played, flag scouts_keep_dealt_hands)."""
    if st[REMOVED_TERRAIN] <= 0:
        return True
    x = st[REMOVED_TERRAIN] - 1
    for off, count in ((deck_off(st), st[DECK_COUNT]), (discard_off(st), st[DISCARD_COUNT])):
        for k in range(count):
            if st[off + k] == x or st[off + k] == SWAMP_CARD_BASE + x:
                return False
    return True


@njit(cache=True)
def first_violation(st, start_cards, last_tiles, counts) -> int:
    """The first invariant (INVARIANTS) the state breaks, 0 if none. start_cards: card_counts_into of the game's
    first state; last_tiles: the location tiles left one decision before (MAX_LOCATIONS + 1 entries, updated);
    counts: work space of NUM_CARD_IDS entries."""
    n = st[NUM_PLAYERS]
    if n < 2 or n > MAX_PLAYERS or not 0 <= st[CURRENT] < n or not 0 <= st[DECIDER] < n:
        return SEATS
    if not 0 <= st[PHASE] < NUM_PHASES or not 0 <= st[FRAME_DEPTH] <= MAX_FRAMES:
        return SEATS
    marsh = st[EXPANSIONS] & MARSHLANDS != 0
    for p in range(n):
        board = 0
        for i in range(WORDS):
            board += word_popcount(st[OWN + p * WORDS + i] & ~st[MEEPLES + p * WORDS + i])
        kept = st[OFF_BOARD + p] if marsh else 0
        if st[SUPPLY + p] < 0 or kept < 0:
            return SETTLEMENTS
        if board + st[SUPPLY + p] + kept + mayors_marks(st, p) != SETTLEMENTS_PER_PLAYER:
            return SETTLEMENTS
    plain_caves = st[RULE_FLAGS] & PLAIN_CAVES != 0
    for i in range(WORDS):
        seen = st[WALLS + i]
        if seen & st[SCOUTS + i]:
            return ONE_PIECE
        seen |= st[SCOUTS + i]
        if not plain_caves:
            if seen & st[CAVES + i]:
                return ONE_PIECE
            seen |= st[CAVES + i]
        for p in range(n):
            own = st[OWN + p * WORDS + i]
            if seen & own:
                return ONE_PIECE
            seen |= own
        if seen & ~st[OCCUPIED + i]:
            return CLOSED
        pieces = seen & ~st[CAVES + i]
        if pieces & st[SPECIAL_MASK + i]:
            return SPECIAL
    for p in range(n):
        if st[EXPANSIONS] & CROSSROADS:
            if not slot_pieces_fit(st, p):
                return OTHER_PIECES
        elif popcount(st[MEEPLES + p * WORDS : MEEPLES + (p + 1) * WORDS]) != 0:
            return OTHER_PIECES
    if st[EXPANSIONS] & NOMADS:
        if st[WALLS_LEFT] < 0 or popcount(st[WALLS : WALLS + WORDS]) + st[WALLS_LEFT] != WALLS_IN_GAME:
            return WALL_COUNT
    scouts = popcount(st[SCOUTS : SCOUTS + WORDS])
    if scouts > SCOUT_TILES or (scouts > 0 and st[EXPANSIONS] & HARVEST == 0):
        return SCOUT_COUNT
    if not tiles_fit(st, n, last_tiles):
        return LOCATION_TILES
    if marsh and not bonus_tiles_fit(st, n):
        return BONUS_TILES
    if st[EXPANSIONS] & HARVEST:
        total = 0
        for p in range(n):
            if st[NUMBER_TILES + p] < 0:
                return NUMBER_TILE_COUNT
            total += st[NUMBER_TILES + p]
        if total > NUMBER_TILE_POOL:
            return NUMBER_TILE_COUNT
    if not piles_fit(st):
        return CARDS
    card_counts_into(st, counts)
    for c in range(NUM_CARD_IDS):
        if counts[c] != start_cards[c]:
            return CARDS
    if marsh and not removed_terrain_kept_out(st):
        return REMOVED_CARDS
    for p in range(n):
        if st[GOLD + p] < 0:
            return GOLD_SIGN
    return OK


@njit(cache=True)
def totals_violation(st) -> int:
    """TOTALS if a player's total (the score table's last column) is not the sum of the other columns, else 0."""
    table = np.zeros((MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
    score_table(st, table)
    for p in range(st[NUM_PLAYERS]):
        if table[p, : SCORE_COLUMNS - 1].sum() != table[p, SCORE_COLUMNS - 1]:
            return TOTALS
    return OK
