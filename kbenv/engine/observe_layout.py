"""Observation v1's layout: its channels and features (kbenv.engine.observe_v1 writes them), declared once.

V1_CHANNELS and V1_FEATURES name every channel and scalar feature; CH1 / F1 give their indices, and the CH_* /
F_* names below are those the writers use (the generic planes in observe_v1, each expansion's in its package's
`observe` module, kbenv.engine.dispatch.observe calling them). `layout_table` prints the tables for the docs.
This module imports no writer, so every writer may import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from .observe import NUM_CHANNELS, offsets
from .piece_table import (
    LEFT_KINDS,
    PLANE_KINDS,
)
from .state import (
    COUNTER_AT,
    LOC_HEX,
    LOC_TYPE,
    MAX_PLAYERS,
    NUM_LOCATIONS,
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
    *CAT.ISLAND_V1_FEATURES,  # the Island, appended likewise
)


CH1 = {name: NUM_CHANNELS + k for name, k in offsets(V1_CHANNELS).items()}
F1 = offsets(V1_FEATURES)
NUM_CHANNELS_V1 = NUM_CHANNELS + sum(size for _, size, _ in V1_CHANNELS)
NUM_FEATURES_V1 = sum(size for _, size, _ in V1_FEATURES)
V1_BASE_FEATURES = F1["crossroads"]  # v1 features before Crossroads (networks made before read these)
V1_CROSSROADS_FEATURES = F1[CAT.MARSH_V1_FEATURES[0][0]]  # v1 features before Marshlands
V1_MARSHLANDS_FEATURES = F1[CAT.HARVEST_V1_FEATURES[0][0]]  # v1 features before Harvest
V1_HARVEST_FEATURES = F1[CAT.ISLAND_V1_FEATURES[0][0]]  # v1 features before the Island
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
    if name in CAT.ISLAND_TYPES:
        return F1["island_power"] + CAT.ISLAND_TYPES.index(name)
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
HEX_DENOMINATOR = 2  # island_hexes: code / 2 (kbenv.engine.island.observe)
PIECE_DENOMINATOR = 6  # island_pieces: code / 6


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
def mark_location_types(st, out, channel: int, first: int, count: int) -> None:
    """The location hexes of the `count` types from code `first` on plane `channel`: type k shows (k + 1) / count."""
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - first
        if 0 <= t < count:
            h = st[LOC_HEX + i]
            out[channel, h // 20, h % 20] = (t + 1) / count
