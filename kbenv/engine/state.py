"""Array layout of one game's state: a flat int64 vector with named offsets.

One game is one vector of STATE_SIZE int64; a batch of N games is an (N, STATE_SIZE) array, and
every kernel takes one row.  Cloning a game is copying its vector.  Hex sets are 7-word bitmasks
(see kbenv.board.bitset) stored inside the vector; `mask(st, OFF)` style slicing gives a view.

The board (terrain codes and masks, location hexes) lives in the vector too, so a batch may mix
boards.
"""

from __future__ import annotations

from ..board.bitset import WORDS
from ..board.codes import NUM_TERRAIN_CODES
from ..board.geometry import ROWS
from ..catalogue import COUNTERS, PIECE_KIND, SLOT_PIECES

MAX_PLAYERS = 5
MAX_LOCATIONS = 8
DECK_SIZE = 25
SETTLEMENTS_PER_PLAYER = PIECE_KIND["settlement"].per_player  # OWN, SUPPLY
NUM_CARDS_IN_PLAY = 3
NO_CARD = -1

# Phases.
PHASE_IDLE = 0
PHASE_MANDATORY = 1
PHASE_SOURCE = 2
PHASE_TARGET = 3
PHASE_OVER = 4
PHASE_STEP = 5  # the next step of a multi-step power (DONE ends it where stopping is allowed)
PHASE_REACTION = 6  # Marshlands: a reaction in another player's turn (its power or DONE = "pass")
PHASE_SILO = 7  # Harvest: the silo end phase after the last turn (H-5, A-H2; kbenv.engine.harvest.silo)
PHASE_CHOOSE_POWER = 8  # Harvest: the power a repeat runs once more is named (A-H3)
PHASE_NAMES = ("idle", "mandatory", "choose_source", "choose_target", "game_over", "step", "reaction", "silo",
               "choose_power")

_offset = 0


def _field(size: int = 1) -> int:
    global _offset
    start = _offset
    _offset += size
    return start


def _slot_fields(expansion: str) -> dict[str, int]:
    """A field for each piece kind of an expansion stored in slots (catalogue.PIECE_KINDS, in table order):
    one int64 per piece, per player (or of the shared pool); hex + 1, 0 = in the supply."""
    return {k.name: _field(MAX_PLAYERS * k.per_player or k.pool) for k in SLOT_PIECES if k.expansion == expansion}


# Scalars.
NUM_PLAYERS = _field()
START_PLAYER = _field()
CURRENT = _field()
PHASE = _field()
MANDATORY_BUILT = _field()  # settlements built so far in this turn's mandatory action
MANDATORY_DONE = _field()
POWER = _field()  # power being resolved, -1 if none
SOURCE = _field()  # hex of the settlement being moved, -1 if none
ENDING = _field()  # 1 once a player has built their last settlement
RNG = _field()  # xorshift32 state for in-game shuffles
LORDS_COUNT_ZERO = _field()
TURN = _field()  # turns begun since the start (first turn = 1)
DECISIONS = _field()  # decisions applied
TURNS_WITHOUT_BUILD = _field()  # safeguard against games that cannot progress
BUILT_THIS_TURN = _field()
NUM_LOCATIONS = _field()
CARDS = _field(NUM_CARDS_IN_PLAY)

# Per player.
HAND = _field(MAX_PLAYERS)
SUPPLY = _field(MAX_PLAYERS)
TILES_HELD = _field(MAX_PLAYERS)  # bit i = holds the tile of location i
TILES_FRESH = _field(MAX_PLAYERS)  # bit i = taken this turn (usable from the next turn)
TILES_USED = _field(MAX_PLAYERS)  # bit i = used this turn

# Terrain cards: draw pile as a stack (top = last), discard pile, cards out of the game.
DECK = _field(DECK_SIZE)
DECK_COUNT = _field()
DISCARD = _field(DECK_SIZE)
DISCARD_COUNT = _field()
REMOVED = _field(DECK_SIZE)
REMOVED_COUNT = _field()

# Locations.
LOC_HEX = _field(MAX_LOCATIONS)
LOC_TYPE = _field(MAX_LOCATIONS)
LOC_TILES = _field(MAX_LOCATIONS)
LOC_NEIGHBOURS = _field(MAX_LOCATIONS * WORDS)

# Board.
TERRAIN_MASKS = _field(NUM_TERRAIN_CODES * WORDS)
SPECIAL_MASK = _field(WORDS)  # castle and location hexes
BUILDABLE_MASK = _field(WORDS)  # grass, canyon, desert, flower field, forest

# Settlements.
OCCUPIED = _field(WORDS)  # closed to building and moving onto: every piece, walls, caves, warrior zones
OWN = _field(MAX_PLAYERS * WORDS)
ADJACENT = _field(MAX_PLAYERS * WORDS)  # hexes next to each player's settlements

# ----- the rules platform (expansions); all zero in base games --------------------------------------
MAX_NOMADS = 12  # nomad tile slots: the spaces of a board (at most 6) and tiles held in a position
MAX_CAPITOLS = 2
NOMAD_ON_SPACE = -1  # NOMAD_OWNER: the tile still lies on its space (NOMAD_KIND -1: the space is empty)
NOMAD_GONE = -2
DECIDER = _field()  # the player who takes the next decision (the turn owner in every implemented rule)
EXPANSIONS = _field()  # bits of kbenv.catalogue.EXPANSIONS
RULE_FLAGS = _field()  # bits of kbenv.catalogue.RULE_FLAGS
GOLD = _field(MAX_PLAYERS)  # gold banked during play (Treasure, red cards)
STEPS_LEFT = _field()  # steps a multi-step power may still take
STEPS_TAKEN = _field()
VICTIM = _field()  # Sword: the player whose settlement is chosen next
OUTPOST_ARMED = _field()
CAVE_USED = _field()
MANDATORY_HEXES = _field(3)  # the hexes of this turn's mandatory builds (Families)
MANDATORY_TARGET = _field()  # settlements the mandatory action builds this turn (3; rules may change it)
# An interrupt stack (for decisions taken inside another player's decision: Marshlands' reactions):
# push_frame saves the decision context, pop_frame restores it (kbenv.engine.frames).
MAX_FRAMES = 4
FRAME_FIELDS = 8  # phase, power, source, steps left, steps taken, decider, victim, mandatory built
FRAME_DEPTH = _field()
FRAMES = _field(MAX_FRAMES * FRAME_FIELDS)
WALLS_LEFT = _field()
NUM_NOMADS = _field()
NOMAD_HEX = _field(MAX_NOMADS)
NOMAD_KIND = _field(MAX_NOMADS)  # index into catalogue.NOMAD_KINDS, -1 = empty space
NOMAD_OWNER = _field(MAX_NOMADS)  # NOMAD_ON_SPACE, a seat, or NOMAD_GONE
NOMAD_ROUND = _field(MAX_NOMADS)  # the round in which the tile was claimed
NUM_CAPITOLS = _field()
CAPITOL_HEX = _field(MAX_CAPITOLS)
WALLS = _field(WORDS)
CAVES = _field(WORDS)
CAVE_NEAR = _field(WORDS)  # hexes next to a cave (caves never move: kept with them)
NOMAD_MASK = _field(WORDS)  # nomad spaces

# Crossroads (all zero in games without it). Hex fields hold hex + 1, so 0 means "in the supply".
MAX_EXTRA_CARDS = 3  # extra terrain cards a player may hold (one per Crossroads tile held)
WARRIORS_PER_PLAYER = PIECE_KIND["warrior"].per_player
MAX_TASKS = 4
MEEPLES = _field(MAX_PLAYERS * WORDS)  # own pieces that are not settlements: warriors, wagon, ship, city hall
ZONE = _field(WORDS)  # hexes next to a warrior: closed to building and moving (C-12); part of OCCUPIED
# The slot fields of the Crossroads piece kinds (catalogue.PIECE_KINDS; kbenv.engine.piece_table reads them by
# kind): WARRIOR_AT (2 per player), WAGON_AT, SHIP_AT, CITY_HALL_AT (its centre; once placed, never moves).
PIECE_AT = _slot_fields("crossroads")
WARRIOR_AT, WAGON_AT, SHIP_AT, CITY_HALL_AT = (PIECE_AT[k] for k in ("warrior", "wagon", "ship", "city_hall"))
# Stored records and whole-state digests fix the layout: the piece rows must not move it.
assert (WARRIOR_AT, WAGON_AT, SHIP_AT, CITY_HALL_AT) == (564, 574, 579, 584), "the piece fields moved"
EXTRA_CARDS = _field(MAX_PLAYERS * MAX_EXTRA_CARDS)  # the Crossroads cards beside HAND[p]
EXTRA_COUNT = _field(MAX_PLAYERS)
TERRAIN_FIXED = _field()  # 1 once this turn's terrain is chosen from a hand of several cards (A-C8)
FORT_CARD = _field()  # the card drawn by the Fort, NO_CARD when none is pending
NUM_TASKS = _field()
TASKS = _field(MAX_TASKS)  # indices into catalogue.TASK_NAMES

# Fields from here on were appended after records with whole-state digests were stored: they are zero in
# games of the earlier rulesets, whose digests cover st[:APPENDED_FIELDS] (tests/test_input_validation.py).
APPENDED_FIELDS = _offset
# Marshlands (all zero in games without it), appended after every earlier field (decision 8).
MARSH_PILE_SIZE = 30  # catalogue.MARSHLANDS_DECK_SIZE: 25 plain cards and the 5 swamp cards (M-4)
TURN_TERRAIN = _field()  # the terrain a swamp card's first build chose this turn (with TERRAIN_FIXED = 1)
REMOVED_TERRAIN = _field()  # terrain code + 1 of the terrain the Scouts set-up removed (M-16), 0 = none
MARSH_DECK = _field(MARSH_PILE_SIZE)  # the piles of a Marshlands game (DECK, DISCARD, REMOVED hold 25)
MARSH_DISCARD = _field(MARSH_PILE_SIZE)
MARSH_REMOVED = _field(MARSH_PILE_SIZE)
# Marshlands powers. Bonus tiles are bits of location type codes (M-7, A-M4).
NUM_BONUS_TYPES = 4  # one per Marshlands location type (kbenv.catalogue.BONUS_TYPES)
# The counters a power keeps (catalogue.COUNTERS, in table order): one per seat, or one of the turn owner.
COUNTER_AT = {c.name: _field(MAX_PLAYERS if c.per_player else 1) for c in COUNTERS}
globals().update({name.upper(): at for name, at in COUNTER_AT.items()})  # each also as S.<NAME> (older callers)
BONUS_HELD = _field(MAX_PLAYERS)  # bit t = holds the bonus tile of location type t
BONUS_FRESH = _field(MAX_PLAYERS)  # of them, taken this turn (usable from the next turn)
BONUS_USED = _field(MAX_PLAYERS)  # of them, used this turn (the bonus tiles that are decisions)
BONUS_LEFT = _field(NUM_BONUS_TYPES)  # bonus tiles left on the summary cards, per type (2 at the start)
# REACT_QUEUE[d]: bit s = seat s is still to be asked in the reaction frame pushed at depth d (Marshlands).
REACT_QUEUE = _field(MAX_FRAMES)

# Scratch masks: work space of the kernels, one declared slot each. Not part of the game: views clear
# it, and comparisons and records ignore it.
SCRATCH_SLOTS = (
    "legal",  # legal hexes of the current decision (kbenv.engine.legal)
    "tmp",  # a temporary mask of legal/actions
    "lifted",  # a player's adjacency with one settlement lifted (kbenv.engine.powers)
    "hand",  # one card's targets inside a union over an open Crossroads hand; a city hall's free cells
)
SCRATCH_MASKS = len(SCRATCH_SLOTS)
SCRATCH = _field(SCRATCH_MASKS * WORDS)
SCRATCH_END = _offset

# Harvest (all zero in games without it), after the scratch masks so that st[:SCRATCH], which the stored
# whole-state digests of the earlier rulesets cover, keeps its layout (tests/test_marsh_digests.py).
FARMLAND_USED = _field(MAX_PLAYERS)  # 1 = the farm action was taken in this turn (H-4, A-H1; decision 8)
# Harvest cards (H-15 Mayors, H-19 Rovers; kbenv.engine.harvest.scoring), one block.
MAYOR_LINES = _field(ROWS)  # row r: seat + 1 of the player who marked it (H-15, A-H7), 0 = unmarked
ROVER_SECTIONS = _field()  # bit q: the turn owner built a new settlement in section q in this turn (H-19, A-H8)
# Harvest, the silo end phase (H-5, A-H2; kbenv.engine.harvest.silo): all zero outside PHASE_SILO. The silo player is
# DECIDER, a move's chosen settlement is SOURCE.
SILO_SEAT = _field()  # k: the silo player is seat (START_PLAYER + k) % NUM_PLAYERS (-1 before a silo's first)
SILO_AT = _field()  # hex + 1 of the silo being done, 0 = none
SILO_MODE = _field()  # 0 = build, move or done to choose; 1 = building; 2 = moving
SILO_STEPS = _field()  # builds or moves taken at this silo (3 close it)
SILO_LEFT = _field(WORDS)  # silos still to come: the silo player's (A-H2 a), or every silo not begun (b)
# Harvest powers (kbenv.engine.harvest.powers), one block.
NUMBER_TILES = _field(MAX_PLAYERS)  # value of the number tiles each player holds (H-10, A-H5 a; key number_tiles)
NUMBER_TILE_MODE = _field()  # 1 = the number tiles' "return" was chosen: its builds are being made
SCOUTS = _field(WORDS)  # the turn owner's scout tiles on the board (H-9, A-H4; key scouts); part of OCCUPIED
# Terrain cards the turn owner draws at the end of this turn on top of the Crossroads tiles' (C-7): one per
# repeat of the Crossroads tile's extra action (A-H3, A-C8; key repeat_cards). Zero outside a Harvest turn.
REPEAT_CARDS = _field()

# Island (issue 23; all zero in games without it), one block after every earlier field. The island's hexes are the
# ids 400..419 of the same masks (kbenv.board.geometry): its terrain sits in TERRAIN_MASKS, BUILDABLE_MASK and
# SPECIAL_MASK like the board's. Its one location hex is no slot of LOC_HEX (those 8 stay the board's): its tile is
# bit ISLAND_TILE_BIT (= MAX_LOCATIONS) of TILES_HELD / TILES_FRESH / TILES_USED (kbenv.engine.island.rules).
ISLAND_LOC_AT = _field()  # hex + 1 of the island's location hex, 0 = none
ISLAND_LOC_TYPE = _field()  # its location type (catalogue.LOCATION_TYPES: rope_bridge or tree_house)
ISLAND_LOC_TILES = _field()  # tiles left on it (2 at the start, EN 1443)
ISLAND_MAYOR_LINES = _field(5)  # Harvest Mayors: island line r marked by seat + 1, 0 = unmarked (A-QI4, IA14)

STATE_SIZE = _offset
assert set(PIECE_AT) == {k.name for k in SLOT_PIECES}, "every piece kind stored in slots has its field"


def terrain_off(code: int) -> int:
    """Offset of the mask of one terrain code."""
    return TERRAIN_MASKS + code * WORDS


def own_off(player: int) -> int:
    return OWN + player * WORDS


def adjacent_off(player: int) -> int:
    return ADJACENT + player * WORDS


def meeples_off(player: int) -> int:
    return MEEPLES + player * WORDS


def scratch_off(slot: str) -> int:
    """Offset of a declared scratch slot (SCRATCH_SLOTS)."""
    return SCRATCH + SCRATCH_SLOTS.index(slot) * WORDS
