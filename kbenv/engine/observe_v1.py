"""Observation v1 (kingdom_builder_v1): the v0 planes plus the expansion planes and features.

Channels 0..27 are exactly the v0 observation (kbenv.engine.observe; in expansion games the v0
features for phase, power and cards cover the base values only). Channels 28.. and the v1 features
are declared once below, in V1_CHANNELS and V1_FEATURES; the env docstring and docs/api.md print
these tables (`layout_table`). As in v0, nothing hidden from the observer is read.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from ..board.bitset import BITS_PER_WORD, WORDS, popcount, word_lowest_bit
from ..board.codes import FARMLAND, PALACE, SILO, SWAMP, SWAMP_CARD_BASE
from ..board.geometry import NUM_HEXES, ROWS, STEP1
from .deck import discard_off
from .island.observe import ISLAND_TYPES, ISLAND_V1_FEATURES, island_features, island_planes
from .marshlands.swamp import card_side
from .nomads.hooks import current_round
from .observe import NUM_CHANNELS, mark_hexes, observe_into, offsets
from .piece_table import (
    CELL_PIECE_AT,
    LEFT_KINDS,
    LEFT_PIECE_AT,
    LEFT_PIECE_SLOTS,
    PLANE_KINDS,
    PLANE_PIECE_AT,
    PLANE_PIECE_CODE,
    PLANE_PIECE_SLOTS,
)
from .state import (
    BONUS_FRESH,
    BONUS_HELD,
    BONUS_LEFT,
    BONUS_USED,
    CAPITOL_HEX,
    CARDS,
    CAVE_USED,
    CAVES,
    COUNTER_AT,
    CURRENT,
    DISCARD_COUNT,
    EXPANSIONS,
    EXTRA_CARDS,
    EXTRA_COUNT,
    FARMLAND_USED,
    FORT_CARD,
    GOLD,
    HAND,
    LOC_HEX,
    LOC_TYPE,
    MANDATORY_BUILT,
    MANDATORY_TARGET,
    MAX_EXTRA_CARDS,
    MAX_PLAYERS,
    MAYOR_LINES,
    NOMAD_HEX,
    NOMAD_KIND,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NOMAD_ROUND,
    NUM_CAPITOLS,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_NOMADS,
    NUM_PLAYERS,
    NUM_TASKS,
    NUMBER_TILE_MODE,
    NUMBER_TILES,
    OUTPOST_ARMED,
    PHASE,
    PHASE_OVER,
    PHASE_SILO,
    POWER,
    REMOVED_TERRAIN,
    ROVER_SECTIONS,
    SCOUTS,
    SILO_AT,
    SILO_LEFT,
    SILO_MODE,
    SILO_STEPS,
    STEPS_LEFT,
    STEPS_TAKEN,
    TASKS,
    TERRAIN_FIXED,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    TURN_TERRAIN,
    VICTIM,
    WALLS,
    WALLS_LEFT,
    ZONE,
)

# The "power" feature keeps the power numbering observation v1 was made with (locations 0..11, the usable
# nomad tiles, the cave move); Crossroads powers have a feature of their own.
V1_POWER_NAMES = (*CAT.LOCATION_NAMES[:12], *CAT.NOMAD_USABLE_KINDS, "cave")


def _piece_values(own: bool) -> str:
    """The kinds of the own_pieces / other_pieces planes and their values (catalogue.PIECE_KINDS)."""
    return ", ".join(f"{k.plural if k.per_player > 1 or not own else k.label} "
                     f"{'1' if k.plane_code == 3 else f'{k.plane_code}/3'}" for k in PLANE_KINDS)


def _by_type(names: tuple[str, ...]) -> str:
    """The values of a location-type plane: "caravan 0.25, quarry 0.5, ..." (type k of n: (k + 1) / n)."""
    return ", ".join(f"{name} {(k + 1) / len(names):g}" for k, name in enumerate(names))


def _pieces_left() -> str:
    """The meaning of the own_pieces_left feature, one entry per kind of LEFT_KINDS in table order."""
    several = ", ".join(f"{k.plural} in the supply / {k.per_player}" for k in LEFT_KINDS if k.per_player > 1)
    single = ", ".join(k.label for k in LEFT_KINDS if k.per_player == 1)
    return f"own {several}, {single} in the supply"


MARSH_POWER_NAMES = CAT.MARSH_POWER_NAMES  # the "marsh_power" slots
HARVEST_POWER_NAMES = CAT.HARVEST_POWER_NAMES  # the "harvest_power" slots
SCOUT = next(k for k in CAT.PIECE_KINDS if k.turn_owner)  # the shared scouts (Harvest), drawn in a plane of their own


# (name, size, meaning): declared once; offsets follow in order.
V1_CHANNELS = (
    ("walls", 1, "stone walls (Nomads)"),
    ("capitols", 1, "capitol hexes"),
    ("caves", 1, "cave hexes"),
    ("nomad_tile", 1, "nomad spaces with a tile lying on them"),
    ("nomad_kind", 1, "the kind of that tile: (index in catalogue.NOMAD_KINDS + 1) / 11"),
    ("nomad_location", 1, "Nomads location hexes by type: caravan 0.25, quarry 0.5, village 0.75, garden 1"),
    ("features_v1", 1, "the v1 scalar features below, packed row-major"),
    # Crossroads, appended so that channels 0..34 keep their meaning (networks trained before read a prefix).
    ("own_pieces", 1, f"own {_piece_values(True)} (Crossroads)"),
    ("other_pieces", 1, f"the other players' {_piece_values(False)}"),
    ("city_halls", 1, "city-hall cells: own 1, the other players' 0.5"),
    ("warrior_zone", 1, "hexes next to a warrior (closed to building and moving)"),
    ("crossroads_location", 1, "Crossroads location hexes by type: (index among the 8 types + 1) / 8"),
    # Marshlands, appended so that channels 0..39 keep their meaning (the v0 planes show swamp and palace
    # hexes as other_blocked and the Marshlands locations as location_other).
    ("swamp", 1, "swamp hexes (Marshlands)"),
    ("palace", 1, "palace hexes (Marshlands)"),
    ("marsh_location", 1, f"Marshlands location hexes by type: {_by_type(CAT.BONUS_TYPES)}"),
    # Harvest, appended so that channels 0..42 keep their meaning (the v0 planes show
    # farmland and silos as other_blocked and the Harvest locations as location_other).
    ("farmland", 1, "farmland hexes (Harvest)"),
    ("silos", 1, "silo hexes 0.5; in the silo phase the silo being done 1"),
    ("harvest_location", 1, "Harvest location hexes by type: (index among the 8 types of "
                            "catalogue.HARVEST_TYPES + 1) / 8"),
    (SCOUT.plane, 1, f"the turn owner's {SCOUT.plural} (shared {SCOUT.plural}, catalogue.PIECE_KINDS)"),
    ("mayor_rows", 1, "rows marked for Mayors, every hex of the row: own 1, another player's 0.5"),
    # The Island, appended so that channels 0..47 keep their meaning: tables, not maps (kbenv.engine.island.observe)
    ("island_hexes", 1, "Island: row k is island hex k (line k // 4, hex k % 4); its columns: terrain as v0 channels "
                        "0..8, location type, tiles left, own, opponents, legal, source, coast (halves)"),
    ("island_pieces", 1, "Island: row k is island hex k; its columns: wall, own and other pieces, city halls, "
                         "warrior zone, scouts, Mayors line (sixths)"),
)
V1_BASE_CHANNELS = 35  # channels of observation v1 before Crossroads (a prefix of the current layout)
V1_CROSSROADS_CHANNELS = 40  # channels of observation v1 before Marshlands (also a prefix)
V1_MARSHLANDS_CHANNELS = 43  # channels of observation v1 before Harvest (also a prefix)
V1_HARVEST_CHANNELS = 48  # channels of observation v1 before the Island (also a prefix)
V1_FEATURES = (
    ("phase", 6, "one-hot: idle, mandatory, choose_source, choose_target, game_over, step"),
    ("power", len(V1_POWER_NAMES), "one-hot power being resolved (V1_POWER_NAMES: to garden, nomad tiles, cave)"),
    ("own_nomad_usable", len(CAT.NOMAD_USABLE_KINDS), "own nomad tiles usable now, per kind"),
    ("own_nomad_waiting", len(CAT.NOMAD_USABLE_KINDS), "own nomad tiles claimed this round, per kind"),
    ("others_nomad_tiles", 1, "nomad tiles held by the other players / 6"),
    ("gold", 5, "gold banked during play / 50, self then the next seats"),
    ("walls_left", 1, "walls left / 25"),
    ("outpost_armed", 1, "an Outpost waives adjacency for the next settlement"),
    ("cave_used", 1, "the cave move was used this turn"),
    ("steps_left", 1, "steps left of a multi-step power / 4"),
    ("steps_taken", 1, "steps taken / 4"),
    ("own_nomad_location_tiles", 4, "own tiles of caravan, quarry, village, garden / 2"),
    ("own_nomad_location_ready", 4, "of them usable now / 2"),
    ("red_cards", 3, "families, shepherds, ambassadors in play"),
    ("expansions", 3, "nomads, capitol, caves in play"),
    ("victim", 5, "Sword: the seat whose settlement is chosen next (relative to self)"),
    ("crossroads", 1, "Crossroads in play"),
    ("crossroads_power", 7, "one-hot Crossroads power being resolved: foresters_lodge .. lighthouse"),
    ("own_extra_cards", 5, "own extra hand cards (Crossroads) per terrain G C D F T / 3"),
    ("extra_cards", 5, "extra hand cards held, per seat relative to self / 3 (their terrains are hidden)"),
    ("terrain_fixed", 1, "this turn's terrain is chosen from the hand"),
    ("fort_card", 5, "one-hot terrain of the card the Fort drew (a swamp card: its other terrain)"),
    ("own_pieces_left", len(LEFT_KINDS), _pieces_left()),
    ("tasks", 6, "task cards in play (catalogue.TASK_NAMES)"),
    ("own_crossroads_tiles", 8, "own tiles of the 8 Crossroads location types / 2"),
    ("own_crossroads_ready", 8, "of them usable now / 2"),
    *CAT.MARSH_V1_FEATURES,  # Marshlands, appended (earlier rulesets leave these 0: unchanged observations)
    *CAT.HARVEST_V1_FEATURES,  # Harvest, appended likewise
    *ISLAND_V1_FEATURES,  # the Island, appended likewise
)


CH1 = {name: NUM_CHANNELS + k for name, k in offsets(V1_CHANNELS).items()}
F1 = offsets(V1_FEATURES)
NUM_CHANNELS_V1 = NUM_CHANNELS + sum(size for _, size, _ in V1_CHANNELS)
NUM_FEATURES_V1 = sum(size for _, size, _ in V1_FEATURES)
V1_BASE_FEATURES = F1["crossroads"]  # v1 features before Crossroads (networks made before read these)
V1_CROSSROADS_FEATURES = F1[CAT.MARSH_V1_FEATURES[0][0]]  # v1 features before Marshlands
V1_MARSHLANDS_FEATURES = F1[CAT.HARVEST_V1_FEATURES[0][0]]  # v1 features before Harvest
V1_HARVEST_FEATURES = F1[ISLAND_V1_FEATURES[0][0]]  # v1 features before the Island
# The v1 prefixes networks were made with: channels read -> scalar features of the v1 features plane.
V1_PREFIX_FEATURES = {V1_BASE_CHANNELS: V1_BASE_FEATURES, V1_CROSSROADS_CHANNELS: V1_CROSSROADS_FEATURES,
                      V1_MARSHLANDS_CHANNELS: V1_MARSHLANDS_FEATURES, V1_HARVEST_CHANNELS: V1_HARVEST_FEATURES,
                      NUM_CHANNELS_V1: NUM_FEATURES_V1}
OBSERVATION_SHAPE_V1 = (NUM_CHANNELS_V1, 20, 20)
CH_WALLS, CH_CAPITOLS, CH_CAVES = CH1["walls"], CH1["capitols"], CH1["caves"]
CH_NOMAD_TILE, CH_NOMAD_KIND, CH_FEATURES_V1 = CH1["nomad_tile"], CH1["nomad_kind"], CH1["features_v1"]
CH_NOMAD_LOCATION = CH1["nomad_location"]
F_PHASE1, F_POWER1 = F1["phase"], F1["power"]
F_USABLE, F_WAITING, F_OTHERS = F1["own_nomad_usable"], F1["own_nomad_waiting"], F1["others_nomad_tiles"]
F_GOLD, F_WALLS_LEFT, F_OUTPOST, F_CAVE_USED = F1["gold"], F1["walls_left"], F1["outpost_armed"], F1["cave_used"]
F_STEPS_LEFT, F_STEPS_TAKEN = F1["steps_left"], F1["steps_taken"]
F_NLOC_TILES, F_NLOC_READY = F1["own_nomad_location_tiles"], F1["own_nomad_location_ready"]
F_RED, F_EXPANSIONS, F_VICTIM = F1["red_cards"], F1["expansions"], F1["victim"]
FIRST_NOMAD_LOCATION = CAT.BASE_POWERS
FIRST_CROSSROADS_LOCATION = CAT.LOCATION_NAMES.index("foresters_lodge")
NUM_CROSSROADS_LOCATIONS = 8
CH_OWN_PIECES, CH_OTHER_PIECES, CH_CITY_HALLS = CH1["own_pieces"], CH1["other_pieces"], CH1["city_halls"]
CH_ZONE, CH_CROSSROADS_LOCATION = CH1["warrior_zone"], CH1["crossroads_location"]
F_CROSSROADS = F1["crossroads"]
F_EXTRA_CARDS = F1["extra_cards"]
F_FORT_CARD = F1["fort_card"]
F_OWN_CROSSROADS_READY = F1["own_crossroads_ready"]
F_OWN_CROSSROADS_TILES = F1["own_crossroads_tiles"]
F_OWN_EXTRA_CARDS = F1["own_extra_cards"]
F_OWN_PIECES_LEFT = F1["own_pieces_left"]
F_TASKS = F1["tasks"]
F_TERRAIN_FIXED = F1["terrain_fixed"]
FIRST_MARSH_LOCATION = CAT.LOCATION_NAMES.index(CAT.BONUS_TYPES[0])
NUM_MARSH_LOCATIONS = len(CAT.BONUS_TYPES)
assert CAT.LOCATION_NAMES[FIRST_MARSH_LOCATION : FIRST_MARSH_LOCATION + NUM_MARSH_LOCATIONS] == CAT.BONUS_TYPES


def _power_slot(code: int, name: str) -> int:
    """The feature slot of one power code (every code has one)."""
    if name in V1_POWER_NAMES:
        return F1["power"] + V1_POWER_NAMES.index(name)
    if name in CAT.REACTION_POWERS:  # its feature: [asked, being resolved]
        return F1[name] + 1
    if name in MARSH_POWER_NAMES:
        return F1["marsh_power"] + MARSH_POWER_NAMES.index(name)
    if name in HARVEST_POWER_NAMES:
        return F1["harvest_power"] + HARVEST_POWER_NAMES.index(name)
    if name in ISLAND_TYPES:
        return F1["island_power"] + ISLAND_TYPES.index(name)
    if CAT.POWER_EXPANSION[code] == "crossroads":
        return F1["crossroads_power"] + CAT.LOCATION_NAMES.index(name) - FIRST_CROSSROADS_LOCATION
    return -1


# The feature slot of each power code (-1: none; every power has one, tests/test_marsh_observation.py).
POWER_SLOT = np.array([_power_slot(code, name) for code, name in enumerate(CAT.POWER_NAMES)], dtype=np.int64)
F_REACTION = F1[CAT.REACTION_POWERS[0]]  # a reaction is asked
CH_SWAMP, CH_PALACE, CH_MARSH_LOCATION = CH1["swamp"], CH1["palace"], CH1["marsh_location"]
F_MARSHLANDS, F_OWN_MARSH_TILES, F_OWN_MARSH_READY = F1["marshlands"], F1["own_marsh_tiles"], F1["own_marsh_ready"]
F_OTHERS_MARSH_TILES, F_OWN_BONUS, F_OWN_BONUS_READY = (
    F1["others_marsh_tiles"], F1["own_bonus_tiles"], F1["own_bonus_ready"])
F_OTHERS_BONUS, F_BONUS_LEFT = F1["others_bonus_tiles"], F1["bonus_left"]
F_OWN_SWAMP_CARD, F_MOVER_SWAMP_CARD = F1["own_swamp_card"], F1["mover_swamp_card"]
# The counters of catalogue.COUNTERS: state field, feature slot, one per seat (else the turn owner's).
COUNTER_FIELD = np.array([COUNTER_AT[c.name] for c in CAT.COUNTERS], dtype=np.int64)
COUNTER_FEATURE = np.array([F1[c.name] for c in CAT.COUNTERS], dtype=np.int64)
COUNTER_PER_SEAT = np.array([c.per_player for c in CAT.COUNTERS], dtype=np.bool_)
assert all(dict((n, k) for n, k, _ in V1_FEATURES)[c.name] == (MAX_PLAYERS if c.per_player else 1)
           for c in CAT.COUNTERS)
F_TURN_TERRAIN, F_REMOVED_TERRAIN, F_MARSH_CARDS = F1["turn_terrain"], F1["removed_terrain"], F1["marsh_cards"]
F_OWN_TURN, F_DISCARD_SWAMP, F_MANDATORY_COUNT = F1["own_turn"], F1["discard_swamp_cards"], F1["mandatory_count"]
FIRST_MARSH_CARD = CAT.CARD_NAMES.index("geologists")  # the six Marshlands cards are consecutive
assert CAT.CARD_NAMES[FIRST_MARSH_CARD : FIRST_MARSH_CARD + 6] == (
    "geologists", "messengers", "noblewomen", "vassals", "captains", "scouts")
NUM_TERRAIN_CARDS = len(CAT.TERRAIN_CARDS)  # G C D F T; turn_terrain's last slot is swamp
NUM_PHASES_V1 = 6  # the phases with a slot in "phase"; the reaction phase has a feature of its own
assert F1["power"] + len(V1_POWER_NAMES) == F1["own_nomad_usable"]
FIRST_RED_CARD = CAT.CARD_NAMES.index(CAT.RED_CARDS[0])  # the red cards are consecutive (the Marshlands cards follow)
assert CAT.CARD_NAMES[FIRST_RED_CARD : FIRST_RED_CARD + len(CAT.RED_CARDS)] == CAT.RED_CARDS
NUM_USABLE = len(CAT.NOMAD_USABLE_KINDS)
SWORD_POWER = CAT.POWER_CODE["sword"]
# Harvest: its planes and features
CH_FARMLAND, CH_SILOS, CH_HARVEST_LOCATION = CH1["farmland"], CH1["silos"], CH1["harvest_location"]
CH_SCOUTS, CH_MAYOR_ROWS = CH1[SCOUT.plane], CH1["mayor_rows"]
FIRST_HARVEST_LOCATION = CAT.LOCATION_NAMES.index(CAT.HARVEST_TYPES[0])
NUM_HARVEST_LOCATIONS = len(CAT.HARVEST_TYPES)
assert CAT.LOCATION_NAMES[FIRST_HARVEST_LOCATION : FIRST_HARVEST_LOCATION + NUM_HARVEST_LOCATIONS] == CAT.HARVEST_TYPES
FIRST_HARVEST_CARD = CAT.CARD_NAMES.index(CAT.HARVEST_CARDS[0])
NUM_HARVEST_CARDS = len(CAT.HARVEST_CARDS)
assert CAT.CARD_NAMES[FIRST_HARVEST_CARD : FIRST_HARVEST_CARD + NUM_HARVEST_CARDS] == CAT.HARVEST_CARDS
F_HARVEST, F_HARVEST_PHASE = F1["harvest"], F1["harvest_phase"]
F_OWN_HARVEST_TILES, F_OWN_HARVEST_READY = F1["own_harvest_tiles"], F1["own_harvest_ready"]
F_OTHERS_HARVEST_TILES, F_NUMBER_TILES = F1["others_harvest_tiles"], F1["number_tiles"]
F_NUMBER_TILES_LEFT, F_NUMBER_TILE_RETURN = F1["number_tiles_left"], F1["number_tile_return"]
F_FARMLAND_USED, F_ROVER_SECTIONS, F_SCOUTS_LEFT = F1["farmland_used"], F1["rover_sections"], F1["scouts_left"]
F_MAYOR_LINES, F_SILO_MODE, F_SILO_STEPS = F1["mayor_lines"], F1["silo_mode"], F1["silo_steps"]
F_SILOS_LEFT, F_HARVEST_CARDS = F1["silos_left"], F1["harvest_cards"]
SCOUT_POOL = SCOUT.pool
SILO_BUILDS = 3  # builds or moves at one silo (H-5, A-H2)
NUM_SECTORS = 4  # the board quarters of geometry.SECTOR_OF (ROVER_SECTIONS' bits)
# The Island: two table channels (kbenv.engine.island.observe) and its features
CH_ISLAND_HEXES, CH_ISLAND_PIECES, F_ISLAND = CH1["island_hexes"], CH1["island_pieces"], F1["island"]
assert CH_ISLAND_PIECES == CH_ISLAND_HEXES + 1


def layout_table() -> str:
    """The v1 channels and features as a Markdown table (for the docs)."""
    lines = ["| v1 channel | meaning |", "|---|---|"]
    lines += [f"| {CH1[name]} `{name}` | {meaning} |" for name, _, meaning in V1_CHANNELS]
    lines += ["", "| v1 feature | size | meaning |", "|---|---|---|"]
    lines += [f"| {F1[name]} `{name}` | {size} | {meaning} |" for name, size, meaning in V1_FEATURES]
    return "\n".join(lines)


@njit(cache=True)
def set_f1(out, k: int, value: float) -> None:
    out[CH_FEATURES_V1, k // 20, k % 20] = value


@njit(cache=True)
def observe_v1_into(st, player: int, out) -> None:
    """Write the v1 observation of `player` into out (NUM_CHANNELS_V1, 20, 20) float32."""
    observe_into(st, player, out[:NUM_CHANNELS])
    out[NUM_CHANNELS:] = 0.0
    mark_hexes(out, CH_WALLS, st[WALLS : WALLS + WORDS])
    mark_hexes(out, CH_CAVES, st[CAVES : CAVES + WORDS])
    for k in range(st[NUM_CAPITOLS]):
        h = st[CAPITOL_HEX + k]
        out[CH_CAPITOLS, h // 20, h % 20] = 1.0
    for i in range(st[NUM_NOMADS]):
        kind = st[NOMAD_KIND + i]
        h = st[NOMAD_HEX + i]
        if st[NOMAD_OWNER + i] == NOMAD_ON_SPACE and kind >= 0 and h >= 0:
            out[CH_NOMAD_TILE, h // 20, h % 20] = 1.0
            out[CH_NOMAD_KIND, h // 20, h % 20] = (kind + 1) / 11.0
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_NOMAD_LOCATION
        if 0 <= t < 4:  # the Nomads locations
            h = st[LOC_HEX + i]
            out[CH_NOMAD_LOCATION, h // 20, h % 20] = (t + 1) / 4.0
    if st[EXPANSIONS] & CAT.CROSSROADS:
        crossroads_planes(st, player, out)
    if st[EXPANSIONS] & CAT.MARSHLANDS:
        marsh_planes(st, out)
    if st[EXPANSIONS] & CAT.HARVEST:
        harvest_planes(st, player, out)
    if st[EXPANSIONS] & CAT.ISLAND:
        island_planes(st, player, out, CH_ISLAND_HEXES)
    f = np.zeros(NUM_FEATURES_V1, dtype=np.float32)
    features_v1_into(st, player, f)
    for k in range(NUM_FEATURES_V1):
        out[CH_FEATURES_V1, k // 20, k % 20] = f[k]


@njit(cache=True)
def features_v1_into(st, player: int, f) -> None:
    """Write the v1 scalar features of `player` (F1 indices) into f, a float32 vector of NUM_FEATURES_V1 or
    more zeros (the features_v1 plane, and the float part of kbenv.engine.packed)."""
    n = st[NUM_PLAYERS]
    r = current_round(st)
    others = 0
    for i in range(st[NUM_NOMADS]):
        owner = st[NOMAD_OWNER + i]
        kind = st[NOMAD_KIND + i]
        h = st[NOMAD_HEX + i]
        if owner == NOMAD_ON_SPACE and kind >= 0 and h >= 0:
            continue
        if owner == player and kind < NUM_USABLE:
            slot = F_USABLE if st[NOMAD_ROUND + i] + 1 == r else F_WAITING
            f[slot + kind] += 1.0
        elif owner >= 0 and owner != player:
            others += 1
    f[F_OTHERS] = others / 6.0
    if st[PHASE] < NUM_PHASES_V1:
        f[F_PHASE1 + st[PHASE]] = 1.0
    elif st[PHASE] >= PHASE_SILO:  # Harvest's phases (silo, choose_power)
        f[F_HARVEST_PHASE + st[PHASE] - PHASE_SILO] = 1.0
    else:
        f[F_REACTION] = 1.0
    if st[POWER] >= 0 and POWER_SLOT[st[POWER]] >= 0:
        f[POWER_SLOT[st[POWER]]] = 1.0
    for k in range(n):
        f[F_GOLD + k] = min(1.0, st[GOLD + (player + k) % n] / 50.0)
    f[F_WALLS_LEFT] = st[WALLS_LEFT] / CAT.WALLS_IN_GAME
    f[F_OUTPOST] = float(st[OUTPOST_ARMED])
    f[F_CAVE_USED] = float(st[CAVE_USED])
    f[F_STEPS_LEFT] = st[STEPS_LEFT] / 4.0
    f[F_STEPS_TAKEN] = st[STEPS_TAKEN] / 4.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_NOMAD_LOCATION
        if 0 <= t < 4:  # the Nomads locations
            if (held >> i) & 1:
                f[F_NLOC_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_NLOC_READY + t] += 0.5
    for k in range(NUM_CARDS_IN_PLAY):
        if FIRST_RED_CARD <= st[CARDS + k] < FIRST_RED_CARD + len(CAT.RED_CARDS):
            f[F_RED + st[CARDS + k] - FIRST_RED_CARD] = 1.0
    for b in range(3):
        if (st[EXPANSIONS] >> b) & 1:
            f[F_EXPANSIONS + b] = 1.0
    if st[PHASE] == 3 and st[VICTIM] >= 0 and st[POWER] == SWORD_POWER:
        f[F_VICTIM + (st[VICTIM] - player + n) % n] = 1.0
    if st[EXPANSIONS] & CAT.CROSSROADS:
        crossroads_features(st, player, f)
    if st[EXPANSIONS] & CAT.MARSHLANDS:
        marsh_features(st, player, f)
    if st[EXPANSIONS] & CAT.HARVEST:
        harvest_features(st, player, f)
    if st[EXPANSIONS] & CAT.ISLAND:
        island_features(st, player, f, F_ISLAND)


@njit(cache=True, inline="always")
def crossroads_planes(st, player: int, out) -> None:
    """The Crossroads planes of the v1 observation."""
    n = st[NUM_PLAYERS]
    mark_hexes(out, CH_ZONE, st[ZONE : ZONE + WORDS])
    for q in range(n):
        plane = CH_OWN_PIECES if q == player else CH_OTHER_PIECES
        for j in range(PLANE_PIECE_AT.shape[0]):  # the piece table's kinds of plane "pieces"
            first = PLANE_PIECE_AT[j] + q * PLANE_PIECE_SLOTS[j]
            for k in range(PLANE_PIECE_SLOTS[j]):
                at = st[first + k]
                if 0 < at <= NUM_HEXES:  # on a board hex (an island one: observe_island)
                    out[plane, (at - 1) // 20, (at - 1) % 20] = PLANE_PIECE_CODE[j] / 3.0
        centre = st[CELL_PIECE_AT + q] - 1
        if 0 <= centre < NUM_HEXES:
            value = 1.0 if q == player else 0.5
            out[CH_CITY_HALLS, centre // 20, centre % 20] = value
            for d in range(6):
                h = STEP1[centre, d]
                out[CH_CITY_HALLS, h // 20, h % 20] = value
    mark_location_types(st, out, CH_CROSSROADS_LOCATION, FIRST_CROSSROADS_LOCATION, NUM_CROSSROADS_LOCATIONS)


@njit(cache=True, inline="always")
def crossroads_features(st, player: int, f) -> None:
    """The Crossroads features (nothing hidden from the player: others' extra cards are counted, not named)."""
    n = st[NUM_PLAYERS]
    f[F_CROSSROADS] = 1.0
    for q in range(n):
        extra = st[EXTRA_COUNT + q]
        f[F_EXTRA_CARDS + (q - player + n) % n] = extra / 3.0
        if q == player:
            for k in range(extra):
                card = st[EXTRA_CARDS + q * MAX_EXTRA_CARDS + k]
                if card >= 0:
                    f[F_OWN_EXTRA_CARDS + card] += 1.0 / 3.0
    f[F_TERRAIN_FIXED] = float(st[TERRAIN_FIXED])
    if st[FORT_CARD] >= 0:  # a swamp card (Marshlands) marks its other terrain: the field has the 5 terrains
        f[F_FORT_CARD + card_side(st[FORT_CARD], 0)] = 1.0
    for j in range(LEFT_PIECE_AT.shape[0]):  # the piece table's Crossroads kinds: the share in the supply
        first = LEFT_PIECE_AT[j] + player * LEFT_PIECE_SLOTS[j]
        left = 0
        for k in range(LEFT_PIECE_SLOTS[j]):
            if st[first + k] == 0:
                left += 1
        f[F_OWN_PIECES_LEFT + j] = left / LEFT_PIECE_SLOTS[j]
    for k in range(st[NUM_TASKS]):
        f[F_TASKS + st[TASKS + k]] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_CROSSROADS_LOCATION
        if 0 <= t < NUM_CROSSROADS_LOCATIONS:
            if (held >> i) & 1:
                f[F_OWN_CROSSROADS_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_OWN_CROSSROADS_READY + t] += 0.5


@njit(cache=True)
def mark_location_types(st, out, channel: int, first: int, count: int) -> None:
    """The location hexes of the `count` types from code `first` on plane `channel`: type k shows (k + 1) / count."""
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - first
        if 0 <= t < count:
            h = st[LOC_HEX + i]
            out[channel, h // 20, h % 20] = (t + 1) / count


@njit(cache=True, inline="always")
def marsh_planes(st, out) -> None:
    """The Marshlands planes of the v1 observation: swamp, palaces, Marshlands location hexes."""
    mark_hexes(out, CH_SWAMP, st[TERRAIN_MASKS + SWAMP * WORDS : TERRAIN_MASKS + (SWAMP + 1) * WORDS])
    mark_hexes(out, CH_PALACE, st[TERRAIN_MASKS + PALACE * WORDS : TERRAIN_MASKS + (PALACE + 1) * WORDS])
    mark_location_types(st, out, CH_MARSH_LOCATION, FIRST_MARSH_LOCATION, NUM_MARSH_LOCATIONS)


@njit(cache=True, inline="always")
def marsh_features(st, player: int, f) -> None:
    """The Marshlands features. Public facts, the observer's own hand and the turn owner's played card only:
    other players' hands and the draw pile are never read."""
    n = st[NUM_PLAYERS]
    mover = st[CURRENT]
    f[F_MARSHLANDS] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_MARSH_LOCATION
        if 0 <= t < NUM_MARSH_LOCATIONS:
            if (held >> i) & 1:
                f[F_OWN_MARSH_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_OWN_MARSH_READY + t] += 0.5
            for q in range(n):
                if q != player and (st[TILES_HELD + q] >> i) & 1:
                    f[F_OTHERS_MARSH_TILES + t] += 0.125
    for t in range(NUM_MARSH_LOCATIONS):
        bit = 1 << (FIRST_MARSH_LOCATION + t)
        for q in range(n):
            if st[BONUS_HELD + q] & bit:
                if q == player:
                    f[F_OWN_BONUS + t] = 1.0
                    if (st[BONUS_FRESH + q] | st[BONUS_USED + q]) & bit == 0:
                        f[F_OWN_BONUS_READY + t] = 1.0
                else:
                    f[F_OTHERS_BONUS + t] += 0.5
        f[F_BONUS_LEFT + t] = st[BONUS_LEFT + t] / 2.0
    for c in range(len(COUNTER_FIELD)):  # per seat relative to self; the turn owner's while the game runs
        if COUNTER_PER_SEAT[c]:
            for k in range(n):
                f[COUNTER_FEATURE[c] + k] = min(1.0, st[COUNTER_FIELD[c] + (player + k) % n] / 4.0)
        elif st[PHASE] != PHASE_OVER:
            f[COUNTER_FEATURE[c]] = min(1.0, st[COUNTER_FIELD[c]] / 4.0)
    if st[HAND + player] >= SWAMP_CARD_BASE:
        f[F_OWN_SWAMP_CARD] = 1.0
    if st[PHASE] != PHASE_OVER and st[HAND + mover] >= SWAMP_CARD_BASE and (
            mover == player or st[EXTRA_COUNT + mover] == 0 or st[TERRAIN_FIXED] == 1):  # as v0's mover_card
        f[F_MOVER_SWAMP_CARD] = 1.0
    if st[PHASE] != PHASE_OVER:
        f[F_MANDATORY_COUNT] = min(1.0, st[MANDATORY_TARGET] / 8.0)
        f[F_MANDATORY_COUNT + 1] = min(1.0, st[MANDATORY_BUILT] / 8.0)
    discard = discard_off(st)
    for k in range(st[DISCARD_COUNT]):
        if st[discard + k] >= SWAMP_CARD_BASE:
            f[F_DISCARD_SWAMP + st[discard + k] - SWAMP_CARD_BASE] = 1.0
    if st[PHASE] != PHASE_OVER and st[TERRAIN_FIXED] == 1:
        t = st[TURN_TERRAIN]
        if 0 <= t < NUM_TERRAIN_CARDS:
            f[F_TURN_TERRAIN + t] = 1.0
        elif t == SWAMP:
            f[F_TURN_TERRAIN + NUM_TERRAIN_CARDS] = 1.0
    if 1 <= st[REMOVED_TERRAIN] <= NUM_TERRAIN_CARDS:
        f[F_REMOVED_TERRAIN + st[REMOVED_TERRAIN] - 1] = 1.0
    for k in range(NUM_CARDS_IN_PLAY):
        c = st[CARDS + k] - FIRST_MARSH_CARD
        if 0 <= c < 6:
            f[F_MARSH_CARDS + c] = 1.0
    if st[PHASE] != PHASE_OVER and mover == player:
        f[F_OWN_TURN] = 1.0


@njit(cache=True, inline="always")
def harvest_planes(st, player: int, out) -> None:
    """The Harvest planes of the v1 observation: farmland, silos, Harvest location hexes, scouts, Mayors rows."""
    mark_hexes(out, CH_FARMLAND, st[TERRAIN_MASKS + FARMLAND * WORDS : TERRAIN_MASKS + (FARMLAND + 1) * WORDS])
    silos = st[TERRAIN_MASKS + SILO * WORDS : TERRAIN_MASKS + (SILO + 1) * WORDS]
    for i in range(WORDS):
        w = silos[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            out[CH_SILOS, h // 20, h % 20] = 0.5
    if st[PHASE] == PHASE_SILO and st[SILO_AT] > 0:
        h = st[SILO_AT] - 1
        out[CH_SILOS, h // 20, h % 20] = 1.0
    mark_location_types(st, out, CH_HARVEST_LOCATION, FIRST_HARVEST_LOCATION, NUM_HARVEST_LOCATIONS)
    mark_hexes(out, CH_SCOUTS, st[SCOUTS : SCOUTS + WORDS])
    for r in range(ROWS):
        marker = st[MAYOR_LINES + r] - 1
        if marker >= 0:
            out[CH_MAYOR_ROWS, r, :] = 1.0 if marker == player else 0.5


@njit(cache=True, inline="always")
def harvest_features(st, player: int, f) -> None:
    """The Harvest features: public facts only (number tiles, Mayors rows and scouts are public, decision 8)."""
    n = st[NUM_PLAYERS]
    f[F_HARVEST] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_HARVEST_LOCATION
        if 0 <= t < NUM_HARVEST_LOCATIONS:
            if (held >> i) & 1:
                f[F_OWN_HARVEST_TILES + t] += 0.5
            if (ready >> i) & 1:
                f[F_OWN_HARVEST_READY + t] += 0.5
            for q in range(n):
                if q != player and (st[TILES_HELD + q] >> i) & 1:
                    f[F_OTHERS_HARVEST_TILES + t] += 0.125
    total = 0
    for k in range(n):
        value = st[NUMBER_TILES + (player + k) % n]
        total += value
        f[F_NUMBER_TILES + k] = value / CAT.NUMBER_TILE_POOL
    f[F_NUMBER_TILES_LEFT] = max(0, CAT.NUMBER_TILE_POOL - total) / CAT.NUMBER_TILE_POOL
    f[F_NUMBER_TILE_RETURN] = float(st[NUMBER_TILE_MODE])
    running = st[PHASE] != PHASE_OVER
    if running:
        f[F_FARMLAND_USED] = float(st[FARMLAND_USED + st[CURRENT]])
        for q in range(NUM_SECTORS):
            f[F_ROVER_SECTIONS + q] = float((st[ROVER_SECTIONS] >> q) & 1)
    f[F_SCOUTS_LEFT] = max(0, SCOUT_POOL - popcount(st[SCOUTS : SCOUTS + WORDS])) / SCOUT_POOL
    for r in range(ROWS):
        marker = st[MAYOR_LINES + r] - 1
        if marker == player:
            f[F_MAYOR_LINES] += 1.0 / ROWS
        elif marker >= 0:
            f[F_MAYOR_LINES + 1] += 1.0 / ROWS
    if st[PHASE] == PHASE_SILO:
        if 0 <= st[SILO_MODE] < 3:
            f[F_SILO_MODE + st[SILO_MODE]] = 1.0
        f[F_SILO_STEPS] = st[SILO_STEPS] / SILO_BUILDS
        f[F_SILOS_LEFT] = min(1.0, popcount(st[SILO_LEFT : SILO_LEFT + WORDS]) / 4.0)
    for k in range(NUM_CARDS_IN_PLAY):
        c = st[CARDS + k] - FIRST_HARVEST_CARD
        if 0 <= c < NUM_HARVEST_CARDS:
            f[F_HARVEST_CARDS + c] = 1.0


# 50 planes of 20 x 20 float32 (80 KB); the packed form (kbenv.engine.packed) is a few KB.
assert NUM_FEATURES_V1 <= NUM_HEXES and np.prod(OBSERVATION_SHAPE_V1) * 4 <= 80_000
