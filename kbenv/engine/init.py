"""Set-up of a new game inside numba: seeded draws, board assembly and the initial state.

`Game.new` and the batch engine both use these kernels, so the same seed gives the same game in
both.  The draws are always made in the same order (sections, turns, cards, start player, deck,
in-game generator), whether or not an option is forced, so forcing one option never changes the
others.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import HEX_BIT, HEX_WORD, NEIGHBOUR_MASK, WORDS, has
from ..board.codes import (
    CASTLE,
    FARMLAND,
    LOCATION,
    NOMAD,
    NUM_BUILDABLE,
    NUM_POWERS,
    PALACE,
    SILO,
    SWAMP,
    SWAMP_CARD_BASE,
)
from ..board.geometry import NUM_HEXES
from ..board.tables import (
    NUM_CROSSROADS_SECTIONS,
    NUM_HARVEST_SECTIONS,
    NUM_MARSH_SECTIONS,
    NUM_NOMAD_SECTIONS,
    NUM_RANDOM_SECTIONS,
    SECTION_CODES,
    SECTION_LOCATIONS,
)
from ..catalogue import (
    BONUS_TILES_PER_TYPE,
    CARD_ID,
    EXPANSION_BIT,
    LOCATION_TYPES,
    NOMAD_KINDS,
    NOMAD_LOCATIONS,
    NOMAD_TILE_COUNTS,
    RED_CARDS,
    RULE_BIT,
    TASK_NAMES,
    WALLS_IN_GAME,
)
from ..catalogue import (
    CROSSROADS as EXP_CROSSROADS,
)
from ..catalogue import HARVEST as EXP_HARVEST
from ..catalogue import MARSHLANDS as EXP_MARSHLANDS
from ..catalogue import (
    NOMADS as EXP_NOMADS,
)
from .dispatch import flow
from .rng import next_u32, seed_u32
from .state import (
    BONUS_LEFT,
    BUILDABLE_MASK,
    CARDS,
    CURRENT,
    DECIDER,
    DECK,
    DECK_COUNT,
    DECK_SIZE,
    EXPANSIONS,
    EXTRA_CARDS,
    FORT_CARD,
    HAND,
    LOC_HEX,
    LOC_NEIGHBOURS,
    LOC_TILES,
    LOC_TYPE,
    LORDS_COUNT_ZERO,
    MARSH_DECK,
    MARSH_PILE_SIZE,
    MAX_EXTRA_CARDS,
    MAX_NOMADS,
    MAX_PLAYERS,
    NO_CARD,
    NOMAD_HEX,
    NOMAD_KIND,
    NOMAD_MASK,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NUM_BONUS_TYPES,
    NUM_LOCATIONS,
    NUM_NOMADS,
    NUM_PLAYERS,
    POWER,
    RNG,
    RULE_FLAGS,
    SETTLEMENTS_PER_PLAYER,
    SOURCE,
    SPECIAL_MASK,
    START_PLAYER,
    SUPPLY,
    TERRAIN_MASKS,
    WALLS_LEFT,
)

TILES_PER_LOCATION = 2
NUM_TASK_CARDS = len(TASK_NAMES)
# The expansion bit of each location type (0 for the base game's): its tiles exist when that is enabled.
LOCATION_EXPANSION = np.array(
    [0 if loc.expansion is None else EXPANSION_BIT[loc.expansion] for loc in LOCATION_TYPES], dtype=np.int64)
NUM_NOMAD_LOCATIONS = len(NOMAD_LOCATIONS)
NUM_RED_CARDS = len(RED_CARDS)
NOMAD_TILE_MULTISET = np.array([NOMAD_TILE_COUNTS[k] for k in NOMAD_KINDS], dtype=np.int64)
NUM_NOMAD_TILES = int(NOMAD_TILE_MULTISET.sum())
RULE_LORDS_COUNT_ZERO = RULE_BIT["lords_count_zero"]
RULE_SCOUTS_KEEP_HANDS = RULE_BIT["scouts_keep_dealt_hands"]
SCOUTS_CARD = CARD_ID["scouts"]
FIRST_MARSH_CARD = CARD_ID["geologists"]
NUM_MARSH_CARDS = 6
FIRST_HARVEST_CARD = CARD_ID["mayors"]  # the six Harvest cards follow the Marshlands ones (H-3)
NUM_HARVEST_CARDS = 6
FIRST_HARVEST_SECTION = NUM_RANDOM_SECTIONS + NUM_NOMAD_SECTIONS + NUM_CROSSROADS_SECTIONS + NUM_MARSH_SECTIONS
RULE_NOMAD_SPACES_NOT_SPECIAL = RULE_BIT["nomad_spaces_not_special"]
RULE_CAVES_ARE_PLAIN_MOUNTAIN = RULE_BIT["caves_are_plain_mountain"]
RULE_SILOS_COUNT_AS_SPECIAL = RULE_BIT["silos_count_as_special"]
# Entries of the `forced` array after the DRAW_* options: the ruleset of the batch.
FORCED_EXPANSIONS = 12
FORCED_RULES = 13
FORCED_ISLAND_SIDE = 14  # the Island's shipped side (index in island_files.SUBSTITUTE_SIDES), -1 = from the seed
FORCED_SIZE = 15
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
def setup_draws(seed: int, num_players: int, out, expansions: int = 0) -> None:
    """Every random choice of a set-up, from the seed, into out (see the DRAW_* layout).

    With Nomads the sections come from the 12-section pool and the cards from 13; the order of the
    draws is the same, so base games (expansions 0) are exactly as they always were.
    """
    rng = np.empty(1, dtype=np.int64)
    rng[0] = seed_u32(seed)
    # The pool: the base sections, then those of each enabled expansion, in table order.
    pool = np.arange(NUM_RANDOM_SECTIONS + NUM_NOMAD_SECTIONS + NUM_CROSSROADS_SECTIONS + NUM_MARSH_SECTIONS
                     + NUM_HARVEST_SECTIONS)
    num_sections = NUM_RANDOM_SECTIONS
    if expansions & EXP_NOMADS:
        num_sections += NUM_NOMAD_SECTIONS
    if expansions & EXP_CROSSROADS:
        for k in range(NUM_CROSSROADS_SECTIONS):
            pool[num_sections + k] = NUM_RANDOM_SECTIONS + NUM_NOMAD_SECTIONS + k
        num_sections += NUM_CROSSROADS_SECTIONS
    if expansions & EXP_MARSHLANDS:
        for k in range(NUM_MARSH_SECTIONS):
            pool[num_sections + k] = NUM_RANDOM_SECTIONS + NUM_NOMAD_SECTIONS + NUM_CROSSROADS_SECTIONS + k
        num_sections += NUM_MARSH_SECTIONS
    if expansions & EXP_HARVEST:
        for k in range(NUM_HARVEST_SECTIONS):
            pool[num_sections + k] = FIRST_HARVEST_SECTION + k
        num_sections += NUM_HARVEST_SECTIONS
    num_cards = NUM_CARD_TYPES + (NUM_RED_CARDS if expansions & EXP_NOMADS else 0)
    cards = np.arange(NUM_CARD_TYPES + NUM_RED_CARDS + NUM_MARSH_CARDS + NUM_HARVEST_CARDS)  # the pool (M-3, H-3)
    if expansions & EXP_MARSHLANDS:
        for k in range(NUM_MARSH_CARDS):
            cards[num_cards + k] = FIRST_MARSH_CARD + k
        num_cards += NUM_MARSH_CARDS
    if expansions & EXP_HARVEST:
        for k in range(NUM_HARVEST_CARDS):
            cards[num_cards + k] = FIRST_HARVEST_CARD + k
        num_cards += NUM_HARVEST_CARDS
    for k in range(4):
        j = k + _below(rng, num_sections - k)
        pool[k], pool[j] = pool[j], pool[k]
        out[DRAW_SECTIONS + k] = pool[k]
    for k in range(4):
        out[DRAW_TURNED + k] = _below(rng, 2)
    for k in range(3):
        j = k + _below(rng, num_cards - k)
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


@njit(cache=True, inline="always")
def assemble_board(section_ids, turned, codes, locations) -> None:
    """Write the 400 terrain codes and location types of four built-in sections (TL, TR, BL, BR)."""
    for q in range(4):
        top = (q // 2) * 10
        left = (q % 2) * 10
        for cell in range(100):
            h = (top + cell // 10) * 20 + left + cell % 10
            codes[h] = SECTION_CODES[section_ids[q], turned[q], cell]
            locations[h] = SECTION_LOCATIONS[section_ids[q], turned[q], cell]


@njit(cache=True, inline="always")
def write_board(st, codes, locations) -> None:
    """Fill the board part of a zeroed state: codes, terrain masks, specials, location hexes."""
    n_loc = 0
    for h in range(NUM_HEXES):
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
def init_game(st, num_players: int, draws, codes, locations) -> None:
    """A zeroed state becomes a game ready for its first turn (call begin_turn next).

    `draws` holds the resolved set-up (DRAW_* layout, options already forced into it); `codes` and
    `locations` the assembled board. The ruleset (rule flags included) comes next, from init_ruleset.
    """
    st[:] = 0
    write_board(st, codes, locations)
    st[NUM_PLAYERS] = num_players
    st[START_PLAYER] = draws[DRAW_START]
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
def new_game(st, num_players: int, seed: int, forced, draws, codes, locations) -> None:
    """A random or partly forced standard set-up from a seed, entirely inside numba.

    `forced` has the DRAW_* layout for its first 12 entries: -1 = draw from the seed; entries
    FORCED_EXPANSIONS and FORCED_RULES (when present) hold the ruleset, FORCED_ISLAND_SIDE the island side.
    `draws`, `codes` and `locations` are work arrays (and hold the resolved set-up afterwards).
    """
    expansions = forced[FORCED_EXPANSIONS] if len(forced) > FORCED_RULES else 0
    rules = forced[FORCED_RULES] if len(forced) > FORCED_RULES else 0
    setup_draws(seed, num_players, draws, expansions)
    for k in range(DRAW_DECK):
        if forced[k] >= 0:
            draws[k] = forced[k]
    assemble_board(draws[DRAW_SECTIONS : DRAW_SECTIONS + 4], draws[DRAW_TURNED : DRAW_TURNED + 4], codes, locations)
    init_game(st, num_players, draws, codes, locations)
    if expansions or rules:
        init_ruleset(st, expansions, rules)
        deal_expansions(st, seed)
    if expansions:  # the island after the rest, as kbenv.setup.build_state (kbenv.engine.dispatch.flow)
        flow.island_dealt(st, forced[FORCED_ISLAND_SIDE] if len(forced) > FORCED_ISLAND_SIDE else -1, seed)


# ----- expansions ---------------------------------------------------------------------------------
@njit(cache=True)
def init_ruleset(st, expansions: int, rules: int) -> None:
    """Rules of the enabled expansions that depend only on the board (call after init_game)."""
    st[EXPANSIONS] = expansions
    st[RULE_FLAGS] = rules
    st[DECIDER] = st[CURRENT]
    for i in range(WORDS):
        st[NOMAD_MASK + i] = st[TERRAIN_MASKS + NOMAD * WORDS + i]
    for i in range(st[NUM_LOCATIONS]):
        if expansions & LOCATION_EXPANSION[st[LOC_TYPE + i]]:
            st[LOC_TILES + i] = TILES_PER_LOCATION
    if expansions & EXP_MARSHLANDS:
        for i in range(WORDS):  # swamp is suitable to be built upon (M-5)
            st[BUILDABLE_MASK + i] |= st[TERRAIN_MASKS + SWAMP * WORDS + i]
        for k in range(NUM_BONUS_TYPES):
            st[BONUS_LEFT + k] = BONUS_TILES_PER_TYPE  # on the bonus action summary cards (EN 1059)
    if expansions & EXP_HARVEST:
        for i in range(WORDS):  # farmland is suitable to be built upon (EN 1231, X-4)
            st[BUILDABLE_MASK + i] |= st[TERRAIN_MASKS + FARMLAND * WORDS + i]
        if rules & RULE_SILOS_COUNT_AS_SPECIAL:  # silos are special hexes for Workers and Merchants (A-X2)
            for i in range(WORDS):
                st[SPECIAL_MASK + i] |= st[TERRAIN_MASKS + SILO * WORDS + i]
    if expansions & EXP_CROSSROADS:
        st[FORT_CARD] = NO_CARD
        for k in range(MAX_PLAYERS * MAX_EXTRA_CARDS):
            st[EXTRA_CARDS + k] = NO_CARD
    if expansions & EXP_NOMADS:
        if not rules & RULE_NOMAD_SPACES_NOT_SPECIAL:
            for i in range(WORDS):
                st[SPECIAL_MASK + i] |= st[NOMAD_MASK + i]
        st[WALLS_LEFT] = WALLS_IN_GAME
        n = 0
        for h in range(NUM_HEXES):
            if has(st[NOMAD_MASK : NOMAD_MASK + WORDS], h) and n < MAX_NOMADS:
                st[NOMAD_HEX + n] = h
                st[NOMAD_KIND + n] = -1
                st[NOMAD_OWNER + n] = NOMAD_ON_SPACE
                n += 1
        st[NUM_NOMADS] = n
    if rules & RULE_LORDS_COUNT_ZERO:
        st[LORDS_COUNT_ZERO] = 1
    if expansions & EXP_MARSHLANDS:
        for i in range(WORDS):  # palaces count as special hexes for Workers and Merchants (M-6, EN 1085)
            st[SPECIAL_MASK + i] |= st[TERRAIN_MASKS + PALACE * WORDS + i]
        deal_marsh_deck(st)


@njit(cache=True, inline="always")
def deal_marsh_deck(st) -> None:
    """The 30-card terrain deck of Marshlands (M-4: 25 plain cards and the 5 swamp cards), shuffled by a
    generator of its own seeded from the in-game one, dealt into the hands and MARSH_DECK (top = last).
    The base draws stay untouched, so the other rulesets keep their games."""
    rng = np.empty(1, dtype=np.int64)
    rng[0] = seed_u32(st[RNG] ^ 0x3C6EF372)
    deck = np.empty(MARSH_PILE_SIZE, dtype=np.int64)
    for i in range(DECK_SIZE):
        deck[i] = i // CARDS_PER_TERRAIN
    for k in range(MARSH_PILE_SIZE - DECK_SIZE):
        deck[DECK_SIZE + k] = SWAMP_CARD_BASE + k
    for i in range(MARSH_PILE_SIZE - 1, 0, -1):
        j = _below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    n = st[NUM_PLAYERS]
    for p in range(n):
        st[HAND + p] = deck[p]
    for k in range(DECK_SIZE):
        st[DECK + k] = 0
    rest = MARSH_PILE_SIZE - n
    for k in range(rest):
        st[MARSH_DECK + k] = deck[MARSH_PILE_SIZE - 1 - k]
    st[DECK_COUNT] = rest


@njit(cache=True)
def deal_expansions(st, seed: int) -> None:
    """The random parts of an expansion set-up, from their own generator (base draws untouched): nomad tiles on
    the nomad spaces, a capitol on a castle of each Oracle/Harbor section, caves, tasks, the Scouts set-up
    (kbenv.engine.dispatch.flow.expansions_dealt)."""
    rng = np.empty(1, dtype=np.int64)
    rng[0] = seed_u32(seed ^ 0x2545F491)
    flow.expansions_dealt(st, rng)
