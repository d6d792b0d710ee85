"""The content catalogue: every expansion, rule flag, location power, nomad tile, scoring card, piece kind
and decision of the engine, declared once as data. The numba tables and the layouts (action ids, rule
bits, the pieces' state fields) are derived from these rows; no code depends on the order of ids beyond what
is stated here.

Action layout v1. The ids of `kingdom_builder_v0` are a prefix of v1: hexes 0..399, the eight base
powers 400..407 and END_TURN 408 mean the same in both, and every decision an expansion adds comes
after 408. So base games never see an id above 408, v0 records are v1 records, and a network trained on
v0 keeps its meaning for the first 409 logits. (The expansion spec's Appendix B moves END_TURN to the
end; a prefix layout needs no index map and keeps v0 checkpoints usable, so kbenv keeps END_TURN at 408.)
The v1 tail reserves ids for every expansion's decisions, implemented or not, so that the layout stays
fixed as expansions arrive; an id whose rules are not implemented is never legal.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .board.geometry import NUM_HEXES
from .safe_json import short_repr


# ----- terrains, terrain cards, location types, scoring cards, nomad tiles ---------------------------
# The row index is the code the engine stores (terrain code, location type, card id); every name and
# letter table in kbenv.board.codes is derived from these rows. What the kernels assume of the order is
# checked below, next to the rows: the terrain cards are the first terrain codes (a card is stored as
# its terrain code) and the base location types come first (their action ids are 400 + type).
@dataclass(frozen=True)
class Terrain:
    """A terrain code. `buildable`: settlements may be built on it with a matching terrain card in
    every implemented ruleset; `cards`: copies in the terrain-card deck (0: no card of its own);
    `buildable_with`: the expansion whose cards make it buildable (swamp: Marshlands' swamp cards, X-4);
    `special`: a special hex (no terrain to build on; castle, nomad space, palace, silo, location)."""

    name: str
    letter: str  # the board character ("" for location hexes: the location type's letter is used)
    expansion: str | None
    buildable: bool
    cards: int
    buildable_with: str | None = None
    special: bool = False


TERRAINS = (
    Terrain("grass", "G", None, True, 5),
    Terrain("canyon", "C", None, True, 5),
    Terrain("desert", "D", None, True, 5),
    Terrain("flower field", "F", None, True, 5),
    Terrain("forest", "T", None, True, 5),
    Terrain("water", "W", None, False, 0),
    Terrain("mountain", "M", None, False, 0),
    Terrain("castle", "K", None, False, 0, special=True),
    Terrain("nomad space", "N", "nomads", False, 0, special=True),
    # Swamp and farmland become buildable with their expansions: swamp in Marshlands games (the five swamp
    # cards of SWAMP_CARDS, M-5, X-4), farmland in Harvest games (EN 1231, X-4; no terrain card shows it: it is
    # reached by the farm action and the powers that build on any suitable hex, H-4). `buildable` stays False:
    # the base game builds on neither.
    Terrain("swamp", "S", "marshlands", False, 0, buildable_with="marshlands"),
    Terrain("farmland", "A", "harvest", False, 0, buildable_with="harvest"),
    Terrain("palace", "P", "marshlands", False, 0, special=True),  # M-6: majority of adjacent settlements, 5 gold
    Terrain("silo", "O", "harvest", False, 0, special=True),
    Terrain("location", "", None, False, 0, special=True),
)
TERRAIN_CODE = {t.name: k for k, t in enumerate(TERRAINS)}
# Terrain-card kinds: the terrains that have cards, by letter (G C D F T); card id = terrain code.
TERRAIN_CARDS = tuple(t for t in TERRAINS if t.cards)
assert all(TERRAINS[k] is card for k, card in enumerate(TERRAIN_CARDS)), "card ids must equal terrain codes"
assert all(t.buildable for t in TERRAIN_CARDS) and sum(t.buildable for t in TERRAINS) == len(TERRAIN_CARDS)


@dataclass(frozen=True)
class SwampCard:
    """A Marshlands terrain card showing swamp and `other` (a card terrain's letter): the mandatory action
    builds 2 settlements on swamp or 3 on `other` (M-5, EN 1071); `copies` in the deck."""

    other: str
    expansion: str = "marshlands"
    copies: int = 1

    @property
    def name(self) -> str:
        """The card as position files write it (decision 8): "S/G" .. "S/T"."""
        return f"S/{self.other}"


# EN 1039-1051: swamp/grass, swamp/canyon, swamp/desert, swamp/flower field, swamp/forest. Their card ids
# follow the five plain ones (5..9, board.codes.SWAMP_CARD_BASE + the other terrain); kbenv.engine.marshlands.swamp.
SWAMP_CARDS = tuple(SwampCard(t.letter) for t in TERRAIN_CARDS)
SWAMP_CARD_NAMES = tuple(card.name for card in SWAMP_CARDS)
MARSHLANDS_DECK_SIZE = sum(t.cards for t in TERRAINS) + sum(card.copies for card in SWAMP_CARDS)  # 30 (M-4)


@dataclass(frozen=True)
class LocationType:
    """A location type and its power. `power`: "build" (a settlement from the supply), "move" (one of
    the player's settlements), "remove" (Temple: one of the player's settlements leaves the board),
    "walls" (Quarry: walls, no settlement), "piece" (places, moves or removes a piece that is not a
    settlement: warrior, wagon, ship, city hall) or "passive" (Crossroads: no decision of its own)."""

    name: str
    letter: str
    expansion: str | None
    power: str
    text: str  # the power in one line, restated from the rulebooks (kbenv.present.words.LOCATION_TEXT)
    tiles: int = 2  # tiles per location hex
    bonus_text: str = ""  # Marshlands: its bonus tile in one line (kbenv.present.words.BONUS_TILE_TEXT)


LOCATION_TYPES = (
    LocationType("oracle", "o", None, "build",
                 "build one settlement on the terrain of your card, next to your own if possible"),
    LocationType("farm", "f", None, "build",
                 "build one settlement on grass, next to your own if possible"),
    LocationType("oasis", "a", None, "build",
                 "build one settlement on desert, next to your own if possible"),
    LocationType("tower", "w", None, "build",
                 "build one settlement at the edge of the board, next to your own if possible"),
    LocationType("tavern", "t", None, "build",
                 "build one settlement at an end of a line of at least 3 of your settlements"),
    LocationType("barn", "b", None, "move",
                 "move one of your settlements to the terrain of your card, next to your own if possible"),
    LocationType("harbor", "h", None, "move",
                 "move one of your settlements to water, next to your own if possible"),
    LocationType("paddock", "p", None, "move",
                 "move one of your settlements 2 hexes in a straight line (jumping allowed)"),
    LocationType("caravan", "c", "nomads", "move",
                 "move one of your settlements in a straight line until something blocks it"),
    LocationType("quarry", "q", "nomads", "walls",
                 "place 1 or 2 stone walls on the terrain of your card, next to your settlements"),
    LocationType("village", "v", "nomads", "build",
                 "build one settlement on a hex next to at least 3 of your settlements"),
    LocationType("garden", "g", "nomads", "build",
                 "build one settlement on a flower field, next to your own if possible"),
    LocationType("foresters_lodge", "e", "crossroads", "build",
                 "build one settlement on forest, next to your own if possible"),
    LocationType("monastery", "m", "crossroads", "build",
                 "build one settlement on canyon, next to your own if possible"),
    LocationType("fort", "r", "crossroads", "build",
                 "draw a terrain card and build one settlement on its terrain, next to your own if possible"),
    LocationType("city_hall", "y", "crossroads", "piece",
                 "once a game, place your city hall on 7 empty buildable hexes next to your settlements"),
    LocationType("barracks", "k", "crossroads", "piece",
                 "place one of your warriors (its neighbours are closed to building) or take one back"),
    LocationType("wagon", "n", "crossroads", "piece",
                 "place your wagon, move it up to 3 hexes, or take it back"),
    LocationType("lighthouse", "i", "crossroads", "piece",
                 "place your ship on water, move it up to 3 water hexes, or take it back"),
    LocationType("crossroads", "x", "crossroads", "passive",
                 "draw one extra terrain card at the end of each of your turns (no decision of its own)"),
    # Marshlands (EN 990-996; names of decision 8). With the expansion off, their location hexes hold no
    # tiles. Canoe builds outside its owner's turn (M-8), Temple
    # removes a settlement (M-12), Refuge moves one (M-14), Fountain builds (M-10).
    LocationType("canoe", "u", "marshlands", "build",
                 "when another player takes the last tile of a location, build on swamp or water "
                 "(adjacent if possible), or pass",
                 bonus_text="build one settlement on swamp or water, adjacent if possible, in your own turn"),
    LocationType("fountain", "z", "marshlands", "build",
                 "build one settlement next to exactly one of your own and none of another player's",
                 bonus_text="your fountain builds may also go on mountains"),
    LocationType("temple", "l", "marshlands", "remove",
                 "take one of your settlements off the board; build it in your next mandatory action",
                 bonus_text="the first settlement of your mandatory action need not be next to your own"),
    LocationType("refuge", "j", "marshlands", "move",
                 "move one of your settlements to a neighbouring hex (it need not touch your others)",
                 bonus_text="move one of your settlements along a straight line to the first free buildable hex"),
    # Harvest (EN 1295-1361; names of decision 8). Letters: a-z are taken, so these are lower-case letters outside
    # ASCII; section files and position files write Harvest location hexes as `L` with their type (decision 8).
    # Every power is implemented (H-6..H-13; kbenv.engine.harvest.builds, harvest_powers, harvest_hooks). The Bazaar
    # repeats the Crossroads tile's passive extra action too (EN 840 "Extra action: Draw one additional terrain
    # card", EN 1297 "any other one of their extra actions"; A-H3, A-C8: one more card at the end of the turn).
    LocationType("bazaar", "d", "harvest", "power",
                 "use one other location power you hold once more this turn (not the farm action, not nomad tiles, "
                 "not the City hall or Scout cabin; the Crossroads tile: one more card at the end of the turn)"),
    LocationType("water_mill", "s", "harvest", "build",
                 "build one settlement next to water, next to your own if possible"),
    LocationType("mountain_station", "\u00f0", "harvest", "build",
                 "build one settlement next to a mountain, next to your own if possible"),
    LocationType("scout_cabin", "\u00e7", "harvest", "piece",
                 "place 1 or 2 scouts next to your settlements; they count as yours for this turn's building"),
    LocationType("cathedral", "\u00e6", "harvest", "build",
                 "take a number tile, or return tiles of value k to build k settlements on your card's terrain"),
    LocationType("watchtower", "\u00f8", "harvest", "build",
                 "build one settlement next to another player's settlement, next to your own if possible"),
    LocationType("university", "\u00fe", "harvest", "build",
                 "build one settlement next to a castle, location, nomad space, palace or silo, next to your own "
                 "if possible"),
    LocationType("palisade", "\u00df", "harvest", "move",
                 "move one of your settlements to a hex next to the rest of its settlement area"),
    # The Island (EN 1452-1462; names of decision 8): one location hex on each side of the island board, with its
    # 2 tiles (EN 1443). Position and section files write them as `L` with their type.
    LocationType("rope_bridge", "\u00f1", "island", "move",
                 "move one of your settlements to canyon, next to your own if possible"),
    LocationType("tree_house", "\u00fd", "island", "move",
                 "move one of your settlements to forest, next to your own if possible"),
)
LOCATION_NAMES = tuple(loc.name for loc in LOCATION_TYPES)
BASE_POWERS = sum(loc.expansion is None for loc in LOCATION_TYPES)
LOCATION_LETTERS_TO_NAMES = {loc.letter: loc.name for loc in LOCATION_TYPES}
assert all(loc.expansion is None for loc in LOCATION_TYPES[:BASE_POWERS]), "base location types come first"


@dataclass(frozen=True)
class ScoringCard:
    """A Kingdom Builder card. `scored`: "end" (at the end of the game) or "play" (gold during play);
    `gold`: the amount per counted item where it is configuration (A-M11: CARD_GOLD), else None;
    `provenance`: "rulebook" (the card text is in the rulebooks we have) or "unverified: <source>"."""

    name: str
    expansion: str | None
    scored: str
    gold: int | None = None
    provenance: str = "rulebook"


SCORING_CARDS = (
    *(ScoringCard(name, None, "end") for name in (
        "fishermen", "miners", "workers", "merchants", "discoverers",
        "hermits", "citizens", "knights", "lords", "farmers")),
    ScoringCard("families", "nomads", "play"),
    ScoringCard("shepherds", "nomads", "play"),
    ScoringCard("ambassadors", "nomads", "play"),
    # Marshlands (EN 1022-1033). The printed card texts are images missing from both rulebook files; the
    # rule and amount of each come from secondary sources (spec M-19..M-24, kb-data cards.md section 4).
    *(ScoringCard(name, "marshlands", "end", gold, f"unverified: {source}") for name, gold, source in (
        ("geologists", 2, "torgoton/kbc: 2 per mountain area linked to another by own settlements (M-19, A-M11)"),
        ("messengers", 2, "torgoton/kbc, kb_prompt: 2 per hex of the shortest path between the two farthest "
                          "connected settlements, both ends included (M-20, EN 1189)"),
        ("noblewomen", 5, "torgoton/kbc: every special hex scored like a palace, 5 each (M-21, EN 1193-1197)"),
        ("vassals", 1, "torgoton/kbc: 1 per settlement on the inner section seams (M-22, A-M11 a)"),
        ("captains", 1, "torgoton/kbc, kb_prompt: 1 per settlement next to 3 or more own settlements (M-23)"),
        ("scouts", 1, "torgoton/kbc, kb_prompt: 1 per settlement next to the removed terrain (M-24, M-16)"),
    )),
    # Harvest (EN 1367-1399). Only the Mayors' and the Rovers' rules are in the rulebook text (EN 1375-1399); the
    # other four cards are images missing from both files: rule and amount from secondary sources (spec H-14,
    # H-16..H-18, A-H9, decision 6). The names are those of pmw57 and TG (the EN text gives none).
    ScoringCard("mayors", "harvest", "end", 4),  # EN 1377: "each marked line is worth 4 gold"
    ScoringCard("rangers", "harvest", "end", 2,
                "unverified: torgoton/kbc, kb_prompt: 2 per horizontal line with exactly one own settlement (H-17)"),
    ScoringCard("chainers", "harvest", "end", 1,
                "unverified: torgoton/kbc, kb_prompt, ludorium: 1 per own settlement next to exactly 2 own "
                "settlements (H-18)"),
    ScoringCard("travellers", "harvest", "end", 1,
                "unverified: torgoton/kbc, kb_prompt: 1 per own settlement on the edge of the board, a corner once "
                "(H-14, EN 1371)"),
    ScoringCard("homesteaders", "harvest", "end", 1,
                "unverified: torgoton/kbc, kb_prompt, ludorium: 1 per own settlement in the section where the "
                "player has the most (H-16)"),
    ScoringCard("rovers", "harvest", "play"),  # EN 1395-1399: gold during play, 1 per section built in this turn
)
# Card ids are row indices (never reorder). CARD_NAMES holds the cards the engine deals and reads: those of the
# base game and of implemented expansions or expansions under construction, a prefix of the rows (the Harvest
# cards, ids 19..24, are dealt only in Harvest games).
CARD_ID = {card.name: k for k, card in enumerate(SCORING_CARDS)}
CARD_GOLD = {card.name: card.gold for card in SCORING_CARDS if card.gold is not None}  # A-M11: configuration
UNVERIFIED_CARDS = tuple(card.name for card in SCORING_CARDS if card.provenance.startswith("unverified"))
PALACE_GOLD = 5  # M-6 (EN 1083): the majority next to a palace; ties 5 each


@dataclass(frozen=True)
class TaskCard:
    """A Crossroads task card: `gold` paid at the end to each player who meets it, at most once (C-15..20)."""

    name: str
    gold: int
    rule: str


TASK_CARDS = (
    TaskCard("home_country", 5, "a terrain area completely populated by own settlements (C-15)"),
    TaskCard("fortress", 6, "an own settlement surrounded by 6 own settlements (C-16)"),
    TaskCard("road", 7, "7 own settlements in a continuous diagonal line (C-17)"),
    TaskCard("place_of_refuge", 8, "a castle, location or nomad space surrounded by 6 own settlements (C-18)"),
    TaskCard("advance", 9, "7 own settlements on one board edge (C-19)"),
    TaskCard("compass_points", 10, "an own settlement on each of the 4 board edges (C-20)"),
)
TASK_NAMES = tuple(t.name for t in TASK_CARDS)
TASK_GOLD = tuple(t.gold for t in TASK_CARDS)


@dataclass(frozen=True)
class NomadTile:
    """A Nomads tile kind. `builds`: its power builds settlements from the supply; `usable`: it is kept
    as a power (treasure is cashed in when claimed)."""

    kind: str
    count: int
    builds: bool = False
    usable: bool = True


DONATION_TERRAINS = "GCDFTWM"  # Donation tiles: the five card terrains, water and mountain (EN 504)
NOMAD_TILES = (
    *(NomadTile(f"donation-{t}", 1, builds=True) for t in DONATION_TERRAINS),
    NomadTile("resettlement", 2),
    NomadTile("outpost", 2),
    NomadTile("sword", 2),
    NomadTile("treasure", 2, usable=False),
)  # 15 tiles, in deal order


@dataclass(frozen=True)
class Expansion:
    """An expansion. `implemented`: every rule of it is built; `under_construction`: part of it is built and a
    ruleset accepts it only while the environment variable EXPERIMENTAL_ENV names it (kbenv.ruleset)."""

    name: str
    bit: int
    description: str
    implemented: bool
    under_construction: bool = False


EXPANSIONS = (
    Expansion("nomads", 0, "Nomads: 4 sections, quarry/caravan/village/garden, nomad tiles, walls, red cards", True),
    Expansion("capitol", 1, "Queenie 1 Capitol: capitols on castles of the Oracle and Harbor sections", True),
    Expansion("caves", 2, "Queenie 2 Caves: one cave per quadrant, a once-per-turn move between caves", True),
    Expansion("crossroads", 3, "Crossroads: 4 sections (3 partly checked), 8 locations, warriors, wagons, ships, "
              "city halls, task cards, two-card hands", True),
    Expansion("marshlands", 4, "Marshlands: 4 substitute sections, swamp cards, palaces, the six cards (amounts "
              "unverified), Canoe, Fountain, Temple, Refuge and their bonus tiles", True),
    Expansion("harvest", 5, "Harvest: 4 substitute sections, farmland and the farm action, silos and the silo end "
              "phase, the six cards (four amounts unverified), Bazaar, Water mill, Mountain station, Scout cabin, "
              "Cathedral (number tiles), Watchtower, University and Palisade", True),
    Expansion("island", 6, "Queenie 3 Island: a 5-line board beside the board (2 substitute sides), reached where a "
              "settlement may go anywhere; rope bridge and tree house", True),
)
# An expansion under construction is refused unless this environment variable names it (comma-separated names):
# KBENV_EXPERIMENTAL=name (none is under construction now: Harvest and the Island went through it). Read at each
# check (not at import), so a test process may set it.
EXPERIMENTAL_ENV = "KBENV_EXPERIMENTAL"


def experimental_expansions() -> frozenset[str]:
    """The expansions under construction that EXPERIMENTAL_ENV opts into now."""
    names = {name.strip() for name in os.environ.get(EXPERIMENTAL_ENV, "").replace("+", ",").split(",")}
    return frozenset(e.name for e in EXPANSIONS if e.under_construction and e.name in names)


def expansion_refusal(name: str) -> str | None:
    """Why the known expansion `name` may not be played now (None: it may): not implemented, or under
    construction without the opt-in of EXPERIMENTAL_ENV. The message names the variable."""
    row = next(e for e in EXPANSIONS if e.name == name)
    if row.implemented or name in experimental_expansions():
        return None
    if row.under_construction:
        return (f"{short_repr(name)} is not implemented yet (under construction: set the environment variable "
                f"{EXPERIMENTAL_ENV}={name} to try the parts built so far)")
    return f"{short_repr(name)} is not implemented yet"


def playable_expansions() -> tuple[str, ...]:
    """The expansions a ruleset may name now, in catalogue order: the implemented ones and those under
    construction that EXPERIMENTAL_ENV opts into (read at each call, so a test process may set it)."""
    opted = experimental_expansions()
    return tuple(e.name for e in EXPANSIONS if e.implemented or e.name in opted)


EXPANSION_BIT = {e.name: 1 << e.bit for e in EXPANSIONS}
NOMADS, CAPITOL, CAVES = EXPANSION_BIT["nomads"], EXPANSION_BIT["capitol"], EXPANSION_BIT["caves"]
CROSSROADS = EXPANSION_BIT["crossroads"]
MARSHLANDS = EXPANSION_BIT["marshlands"]
HARVEST = EXPANSION_BIT["harvest"]
ISLAND = EXPANSION_BIT["island"]
_IMPLEMENTED = {None} | {e.name for e in EXPANSIONS if e.implemented or e.under_construction}
CARD_NAMES = tuple(card.name for card in SCORING_CARDS if card.expansion in _IMPLEMENTED)
assert CARD_NAMES == tuple(card.name for card in SCORING_CARDS[: len(CARD_NAMES)]), "card ids are row indices"
BASE_CARD_NAMES = tuple(card.name for card in SCORING_CARDS if card.expansion is None)
RED_CARDS = tuple(card.name for card in SCORING_CARDS if card.expansion == "nomads")
assert CARD_NAMES[: len(BASE_CARD_NAMES)] == BASE_CARD_NAMES, "base cards come first"


# ----- pieces ---------------------------------------------------------------------------------------
# Every kind of piece that stands on the board is a row here; the state layout (kbenv.engine.state), the
# position keys, the renderers, the v1 observation planes and Game.pieces / PlayerView.pieces derive from
# the rows (kbenv.engine.piece_table resolves them against the state). docs/design-notes.md, "A piece".
PIECE_STORAGES = ("mask", "slots")  # a bitmask of hexes; or one int64 per piece: hex + 1, 0 = in the supply
PIECE_GROUNDS = ("buildable", "buildable or mountain", "water")  # where a position file may put one
PIECE_PLANES = ("settlements", "walls", "pieces", "city_halls", "scouts")  # the observation planes drawing a kind


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece.

    `per_player`: pieces each player has (0: a shared `pool` of that many); `storage`: "mask" (a hex set,
    `field` per player or shared) or "slots" (`field` holds hex + 1 per piece, 0 = in the supply); `supply`:
    the state field counting those in the supply (slots count themselves: None); `key`: the position-file key;
    `owned`: it belongs to a player and counts as one of their settlements for adjacency, tiles and scoring
    (it is in OWN[p]; every owned kind but the settlement is also in MEEPLES[p], C-9); `cells`: hexes one piece
    covers (a city hall: its centre and the 6 neighbours, C-8); `moves`: it moves on the board after it is
    placed; `taken_back`: it may return to the supply; `ground`: where a position file may put it
    (PIECE_GROUNDS, None: the rules of the power that builds it); `power`: the power code that places it;
    `mark`: its text-board glyph after the owner's digit (a settlement shows the digit alone; a wall its
    mark alone), `cell_mark`: the glyph of the other cells; `colour`: "seat" (the owner's colour) or "stone";
    `plane`: the v1 observation plane it is drawn in (PIECE_PLANES; "pieces": own_pieces for the observer's,
    other_pieces for the other players'), `plane_code`: its value there in thirds (3 = 1.0); `turn_owner`: a
    shared mask of the turn owner's pieces (drawn in the turn owner's colour; `supply` None: pool - on the board).
    """

    name: str
    expansion: str | None
    per_player: int
    pool: int
    storage: str
    field: str
    supply: str | None
    key: str
    owned: bool
    moves: bool
    taken_back: bool
    power: str | None
    mark: str
    colour: str
    plane: str
    plane_code: int = 0
    cells: int = 1
    ground: str | None = None
    cell_mark: str = ""
    turn_owner: bool = False

    @property
    def plural(self) -> str:
        """The kind's name for several pieces ("warriors"; words as the text and the docs write them)."""
        return self.key.replace("_", " ")

    @property
    def label(self) -> str:
        """The kind's name as text ("city hall")."""
        return self.name.replace("_", " ")


PIECE_KINDS = (
    PieceKind("settlement", None, 40, 0, "mask", "OWN", "SUPPLY", "settlements", owned=True, moves=True,
              taken_back=True, power=None, mark="", colour="seat", plane="settlements"),  # EN: 40 each
    PieceKind("wall", "nomads", 0, 25, "mask", "WALLS", "WALLS_LEFT", "walls", owned=False, moves=False,
              taken_back=False, power="quarry", mark="#", colour="stone", plane="walls",
              ground="buildable"),  # N-19: 25 stone walls
    # Crossroads (C-8..C-14): pieces that count as settlements, kept in OWN and MEEPLES with their hexes in slots.
    PieceKind("warrior", "crossroads", 2, 0, "slots", "WARRIOR_AT", None, "warriors", owned=True, moves=False,
              taken_back=True, power="barracks", mark="^", colour="seat", plane="pieces", plane_code=3,
              ground="buildable"),
    PieceKind("wagon", "crossroads", 1, 0, "slots", "WAGON_AT", None, "wagons", owned=True, moves=True,
              taken_back=True, power="wagon", mark="=", colour="seat", plane="pieces", plane_code=2,
              ground="buildable or mountain"),
    PieceKind("ship", "crossroads", 1, 0, "slots", "SHIP_AT", None, "ships", owned=True, moves=True,
              taken_back=True, power="lighthouse", mark=")", colour="seat", plane="pieces", plane_code=1,
              ground="water"),
    PieceKind("city_hall", "crossroads", 1, 0, "slots", "CITY_HALL_AT", None, "city_halls", owned=True,
              moves=False, taken_back=False, power="city_hall", mark="&", colour="seat", plane="city_halls",
              cells=7, ground="buildable", cell_mark=":"),
    # Harvest (H-9, A-H4): 2 scout tiles shared by all, on the board only in the turn of the player who placed
    # them (state.SCOUTS, a shared mask of the turn owner's scouts, not in OWN); scouts left = pool - on the board.
    PieceKind("scout", "harvest", 0, 2, "mask", "SCOUTS", None, "scouts", owned=False, moves=False,
              taken_back=True, power="scout_cabin", mark="%", colour="seat", plane="scouts", turn_owner=True),
)
PIECE_KIND = {kind.name: kind for kind in PIECE_KINDS}
SLOT_PIECES = tuple(kind for kind in PIECE_KINDS if kind.storage == "slots")
for _k in PIECE_KINDS:
    assert _k.storage in PIECE_STORAGES and _k.plane in PIECE_PLANES and _k.ground in (None, *PIECE_GROUNDS), _k
    assert _k.expansion is None or _k.expansion in {e.name for e in EXPANSIONS}, _k
    assert (_k.per_player > 0) != (_k.pool > 0), f"{_k.name}: per player or a shared pool"
    # slots count their supply themselves; a shared mask without a supply field counts pool - on the board
    assert _k.storage == "mask" or _k.supply is None, f"{_k.name}: slots count their supply themselves"
    assert _k.supply is not None or _k.storage == "slots" or _k.pool > 0, f"{_k.name}: a mask kind needs a supply"
    # a seat-coloured piece belongs to a player (owned), or is a shared mask of the turn owner's (the scouts)
    assert _k.colour in ("seat", "stone") and (_k.colour == "seat") == (_k.owned or _k.turn_owner), _k
    assert not _k.turn_owner or (_k.storage == "mask" and _k.pool > 0 and not _k.owned), _k
    assert (_k.plane == "pieces") == (_k.plane_code > 0) and 0 <= _k.plane_code <= 3, _k
    assert (_k.cells > 1) == bool(_k.cell_mark), _k
    assert _k.storage == "mask" or _k.expansion is not None, f"{_k.name}: slots are an expansion's (appended fields)"
assert PIECE_KINDS[0].name == "settlement", "the settlement row comes first (OWN, SUPPLY)"
assert len({k.mark for k in PIECE_KINDS if k.mark}) == sum(1 for k in PIECE_KINDS if k.mark), "marks are distinct"
WALLS_IN_GAME = PIECE_KIND["wall"].pool


@dataclass(frozen=True)
class Counter:
    """A count a power keeps in the state: the state field (kbenv.engine.state.COUNTER_AT), its position key
    and its v1 observation feature share the name (decision 8). `per_player`: one per seat (a position file
    writes a list at the top level; the feature shows each seat relative to the observer), else one of the
    turn owner (a key of the decision in progress; the feature shows it while the game runs). `high`: the
    largest value; the feature shows value / 4, at most 1. `off_board`: it counts the player's own
    settlements kept off the board, so board + supply + count is at most the player's settlements."""

    name: str
    expansion: str
    power: str
    per_player: bool
    high: int
    off_board: bool = False


# The Temple's reserve (M-12, A-M6): settlements set aside per seat, and of the turn owner's reserve the part
# still owed in this turn's mandatory action.
COUNTERS = (
    Counter("temple_reserve", "marshlands", "temple", True, PIECE_KIND["settlement"].per_player, off_board=True),
    Counter("temple_owed", "marshlands", "temple", False, PIECE_KIND["settlement"].per_player),
)
# The per-seat counters: top-level keys of a position file and fields of kbenv.setup.Setup (`Setup.counters`).
PLAYER_COUNTERS = tuple(c for c in COUNTERS if c.per_player)
PLAYER_COUNTER_NAMES = tuple(c.name for c in PLAYER_COUNTERS)


@dataclass(frozen=True)
class Section:
    """A board section: its expansion (None = base game) and where its grid was checked (kb-data).
    `stands_for`: a substitute's printed section (named after its location type), which a user's section
    file of that name replaces (kbenv.board.user_sections)."""

    name: str
    expansion: str | None
    provenance: str
    stands_for: str | None = None


_CHECKED = "kb-data: BGA array and BGA artwork agree"
SECTIONS = (
    Section("tavern", None, f"{_CHECKED}; 5 of 6 sources (one has canyon at (3,8),(3,9))"),
    Section("paddock", None, f"{_CHECKED}; all sources agree"),
    Section("oasis", None, f"{_CHECKED}; all sources agree"),
    Section("farm", None, f"{_CHECKED}; 4 of 5 sources"),
    Section("tower", None, f"{_CHECKED}; all sources agree"),
    Section("harbor", None, f"{_CHECKED}; all sources agree"),
    Section("oracle", None, f"{_CHECKED}; 5 of 6 sources"),
    Section("barn", None, f"{_CHECKED}; 3 of 4 sources (one has forest at (6,4))"),
    Section("caravan", "nomads", "kb-data: BGA artwork and torgoton (flower at (3,8),(3,9), against the BGA array)"),
    Section("quarry", "nomads", f"{_CHECKED}; torgoton agrees"),
    Section("garden", "nomads", f"{_CHECKED}; torgoton agrees"),
    Section("village", "nomads", f"{_CHECKED}; torgoton agrees"),
    # The Crossroads grids come from one source (torgoton/kbc, a commit marked as AI co-authored; spec
    # decision 4, A-C11). The first-edition Big Box rulebook pictures the four sections (kbenv issue 19):
    # in the shipped orientation the picture agrees with every hex of Barracks once (1,5) and (1,6) are
    # forest (corrected), and with every hex it shows of the other three, about half of each.
    Section("barracks", "crossroads", "kb-data (torgoton/kbc) and the first-edition Big Box rulebook picture agree "
            "on all 100 hexes and the orientation, after (1,5),(1,6) were corrected from grass to forest"),
    *(Section(name, "crossroads", "UNVERIFIED: kb-data from a single source (torgoton/kbc); the first-edition Big "
              "Box rulebook picture shows about half of the section and agrees there, in this orientation")
      for name in ("city_hall", "lighthouse", "monastery")),
    # Marshlands (decision 5): no layout of the four printed sections is reachable, so kbenv ships generated
    # substitutes, one per printed section (each with the two location hexes of that section's type, a palace
    # and swamp). A section file of the printed section's name in $KBENV_SECTIONS replaces its substitute.
    *(Section(f"marsh-substitute-{k + 1}", "marshlands",
              "SUBSTITUTE: generated by scripts/make_substitute_sections.py; no printed layout is reachable "
              f"(stands in for the {kind.capitalize()} section)", stands_for=kind)
      for k, kind in enumerate(("canoe", "fountain", "temple", "refuge"))),
    # Harvest (decision 5, issue 22): generated substitutes too, each with farmland, a silo, a castle and one
    # location hex of each of two Harvest types (EN 1231). Real Harvest section files cannot replace them yet.
    *(Section(f"harvest-substitute-{k + 1}", "harvest",
              "SUBSTITUTE: generated by scripts/make_substitute_sections.py; no printed layout is reachable "
              f"(locations {pair})") for k, pair in enumerate(("bazaar, water_mill", "mountain_station, scout_cabin",
                                                             "cathedral, watchtower", "university, palisade"))),
)
# Former section names, still read wherever a section is named (records and position files written before the
# City Hall section was spelt as its location type, city_hall).
SECTION_ALIASES = {"cityhall": "city_hall"}


def section_name(name):
    """The section's current name: a former name (SECTION_ALIASES) becomes today's; anything else as given."""
    return SECTION_ALIASES.get(name, name) if isinstance(name, str) else name


def sections_of(expansion: str | None) -> tuple[str, ...]:
    """The names of the sections an expansion brings (None: the base game's), in table order."""
    return tuple(sec.name for sec in SECTIONS if sec.expansion == expansion)


@dataclass(frozen=True)
class RuleFlag:
    """A reading the rulebook leaves open: the flag switches on the alternative to the default."""

    name: str
    bit: int
    expansion: str | None  # the expansion the flag belongs to (None: base game)
    alternative: str


RULE_FLAGS = (
    RuleFlag("lords_count_zero", 0, None, "Lords ranks players with no settlement in a sector too (BGA reading)"),
    RuleFlag("capitol_replaces_castle", 1, "capitol", "the castle under a capitol no longer scores 3 gold (A-QC1 b)"),
    RuleFlag("caves_are_plain_mountain", 2, "caves", "a cave hex is a plain mountain, not occupied (A-QV2 b)"),
    RuleFlag("nomad_spaces_not_special", 3, "nomads", "Workers and Merchants ignore nomad spaces (A-X2)"),
    # A-N1 (b): a nomad tile is usable in its holder's next turn rather than in the next round. The two
    # readings differ only for tiles claimed outside the holder's turn (Marshlands' canoe), so with the
    # expansions implemented so far the flag changes nothing; it is accepted so that rulesets stay stable.
    RuleFlag("nomad_tile_next_turn", 4, "nomads", "a nomad tile is usable in its holder's next turn (A-N1 b)"),
    RuleFlag("zone_blocks_settlements_only", 5, "crossroads",
             "a warrior zone blocks settlements only; warriors, wagons, ships, city halls and walls may enter "
             "it (A-C1 b)"),
    RuleFlag("vassals_count_outer_edge", 6, "marshlands",
             "Vassals count every section-border hex, the outer edge of the board included (A-M11 b)"),
    RuleFlag("scouts_keep_dealt_hands", 7, "marshlands",
             "the Scouts set-up keeps the hands dealt before the reveal (A-M10 b)"),
    RuleFlag("bonus_kept_after_tile_loss", 8, "marshlands",
             "a bonus tile stays with its holder after one of the two location tiles of its type is lost (A-M4 a)"),
    RuleFlag("canoe_taker_reacts", 9, "marshlands",
             "the player who took the last location tile may react with a canoe too (A-M5 b, DE 1181)"),
    # Harvest cards.
    RuleFlag("mayors_contiguous", 10, "harvest",
             "Mayors mark a row only for 4 own settlements next to each other in it (A-H7 b)"),
    RuleFlag("silos_count_as_special", 11, "harvest",
             "silos count as special hexes for Workers, Merchants and Noblewomen (A-X2)"),
    # Harvest, the silo end phase
    RuleFlag("silo_by_silo", 12, "harvest",
             "the silo phase goes silo by silo, each silo's players in turn order (A-H2 b)"),
    # Harvest powers
    RuleFlag("palisade_moves_lone_settlement", 13, "harvest",
             "the Palisade may move a lone settlement to a free neighbour of its own hex (A-H6 b)"),
    RuleFlag("bazaar_repeats_used_power_only", 14, "harvest",
             "the Bazaar repeats only a location power already used in this turn (A-H3 b)"),
    # The Island (A-QI1, A-QI2)
    RuleFlag("no_island_knights", 15, "island",
             "Knights ignore the island's lines (A-QI1, the DE reading: 'wird auch nicht bei ... dem RITTER "
             "beruecksichtigt')"),
    RuleFlag("island_coast_not_water", 16, "island",
             "the island's coast hexes are not next to water for Fishermen and the Water mill (A-QI2)"),
    # Marshlands: when a location tile is ready (A-M5, EN 213 "from their next turn on", the default)
    RuleFlag("tiles_ready_next_round", 17, "marshlands",
             "a location tile is usable from the next round on, for canoe reactions too (A-M5 DE, DE 206 "
             "'erst ab der naechsten Runde')"),
    # Harvest: the Bazaar and the pieces of the Scout cabin and the City hall (A-H3, EN 1305-1307)
    RuleFlag("bazaar_keeps_pieces_in_place", 18, "harvest",
             "the Bazaar cannot repeat the Scout cabin or the City hall: their pieces are not relocated (the old "
             "reading of A-H3, from EN 1331 'cannot be relocated' and EN 859 'remains in place')"),
    # Marshlands: the game end with a Temple reserve set aside (A-M6; EN 298 "built the last settlement from their
    # personal supply", the default)
    RuleFlag("temple_reserve_delays_end", 19, "marshlands",
             "the game end waits until the Temple reserve set aside is built too (A-M6, a secondary source)"),
    # Nomads with Marshlands: red cards and a Canoe reaction (EN 604 "The active player must check", the default)
    RuleFlag("red_cards_score_reactions", 20, "marshlands",
             "Ambassadors and Shepherds also pay a Canoe reactor for its build in another player's turn (the old "
             "reading of A-N9)"),
)
RULE_BIT = {f.name: 1 << f.bit for f in RULE_FLAGS}
RESERVE_DELAYS_END = RULE_BIT["temple_reserve_delays_end"]  # set-up reads it without naming the power (A-M6)

NOMAD_LOCATIONS = tuple(loc.name for loc in LOCATION_TYPES if loc.expansion == "nomads")
MOVE_LOCATIONS = tuple(loc.name for loc in LOCATION_TYPES if loc.power == "move")
NOMAD_KINDS = tuple(tile.kind for tile in NOMAD_TILES)
NOMAD_TILE_COUNTS = {tile.kind: tile.count for tile in NOMAD_TILES}
NOMAD_USABLE_KINDS = tuple(tile.kind for tile in NOMAD_TILES if tile.usable)
assert NOMAD_KINDS[: len(NOMAD_USABLE_KINDS)] == NOMAD_USABLE_KINDS, "usable tile kinds come first"
NOMAD_CARDS = sum(card.expansion in (None, "nomads") for card in SCORING_CARDS)  # 13 cards with Nomads
TERRAIN_CHOICES = ("G", "C", "D", "F", "T", "S", "W")

# ----- action layout v1 --------------------------------------------------------------------------
END_TURN = NUM_HEXES + BASE_POWERS  # 408, as in v0
ACTION_SIZE_V0 = END_TURN + 1
V1_TAIL = (
    *NOMAD_LOCATIONS,
    "foresters_lodge", "monastery", "fort", "city_hall", "barracks", "wagon", "lighthouse",
    "canoe", "fountain", "temple", "refuge",
    "bazaar", "water_mill", "mountain_station", "scout_cabin", "cathedral", "watchtower", "university",
    "palisade", "rope_bridge", "tree_house", "canoe_bonus", "refuge_bonus",
    *NOMAD_USABLE_KINDS,
    "farmland", "cave",
    *(f"terrain-{t}" for t in TERRAIN_CHOICES),
    "option-1", "option-2", "done",
)
# The Island's 20 hexes (5 lines of 4, hex ids 400..419: kbenv.board.geometry) have action ids of their own after
# the rest of layout v1 (hex actions 0..399 are the board's; v0 never has the island).
ISLAND_ROWS, ISLAND_COLS = 5, 4
ISLAND_ACTIONS = tuple(f"island {r},{c}" for r in range(ISLAND_ROWS) for c in range(ISLAND_COLS))
ACTION_NAMES = (
    *(f"hex {h // 20},{h % 20}" for h in range(NUM_HEXES)),
    *LOCATION_NAMES[:BASE_POWERS],
    "end_turn",
    *V1_TAIL,
    *ISLAND_ACTIONS,
)
ACTION_SIZE_V1 = len(ACTION_NAMES)
ACTION_ID = {name: k for k, name in enumerate(ACTION_NAMES) if k >= NUM_HEXES}
ACTION_ID["farm action"] = ACTION_ID["farmland"]  # the Harvest farm action's former name (decision 8: farmland)
LOCATION_ACTION = {name: ACTION_ID.get(name, -1) for name in LOCATION_NAMES}  # location type -> action (-1: passive)
NOMAD_ACTION_BASE = ACTION_ID[NOMAD_USABLE_KINDS[0]]
CAVE_ACTION = ACTION_ID["cave"]
DONE = ACTION_ID["done"]
ISLAND_ACTION_BASE = ACTION_ID[ISLAND_ACTIONS[0]]  # action of island hex 400 + k: ISLAND_ACTION_BASE + k


def location_action(location_type: int) -> int:
    """The action id that activates a location type's power."""
    return LOCATION_ACTION[LOCATION_NAMES[location_type]]


def parse_expansions(names) -> int:
    """The expansion bits of a list of names; ValueError naming an unknown or unimplemented one."""
    if names is None:
        return 0
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise ValueError(f"expansions: expected a list of names, got {short_repr(names)}")
    bits = 0
    known = {e.name: e for e in EXPANSIONS}
    for name in names:
        if not isinstance(name, str) or name not in known:
            raise ValueError(f"expansions: unknown expansion {short_repr(name)}; known: "
                             f"{', '.join(e.name for e in EXPANSIONS if e.implemented)}")
        why = expansion_refusal(name)
        if why:
            raise ValueError(f"expansions: {why}")
        bits |= EXPANSION_BIT[name]
    return bits


def expansion_names(bits: int) -> tuple[str, ...]:
    return tuple(e.name for e in EXPANSIONS if bits & (1 << e.bit))


def parse_rules(flags, expansions: int) -> int:
    """The rule bits of a {flag: bool} mapping (or a list of flag names that are on)."""
    if flags is None:
        return 0
    if not isinstance(flags, (dict, list, tuple)):
        raise ValueError(f"rules: expected {{flag: true/false}} or a list of flag names, got {short_repr(flags)}")
    items = flags.items() if isinstance(flags, dict) else ((name, True) for name in flags)
    known = {f.name: f for f in RULE_FLAGS}
    bits = 0
    for name, value in items:
        if not isinstance(name, str) or name not in known:
            raise ValueError(f"rules: unknown rule flag {short_repr(name)}; known: {', '.join(known)}")
        if not isinstance(value, bool):
            raise ValueError(f"rules.{name}: expected true or false, got {short_repr(value)}")
        flag = known[name]
        if value and flag.expansion is not None and not expansions & EXPANSION_BIT[flag.expansion]:
            raise ValueError(f"rules.{name}: needs the {short_repr(flag.expansion)} expansion")
        if value:
            bits |= RULE_BIT[name]
    return bits


def rule_names(bits: int) -> tuple[str, ...]:
    return tuple(f.name for f in RULE_FLAGS if bits & (1 << f.bit))


# ----- power codes (the POWER field of the state) ----------------------------------------------------
# 0..33: location types (base 0..7, Nomads 8..11, Crossroads 12..19, Marshlands 20..23, Harvest 24..31, Island
# 32..33); then
# the usable nomad tiles, the cave move, the Marshlands bonus tiles that are decisions (M-9, M-15; the Fountain
# and Temple bonuses are passive modifiers of their powers, M-11, M-13, and have no code) and the farm action.
BONUS_POWERS = ("canoe_bonus", "refuge_bonus")
BONUS_TILES_PER_TYPE = 2  # EN 1004-1012: 8 bonus action tiles, 2 of each Marshlands location type
BONUS_TYPES = tuple(loc.name for loc in LOCATION_TYPES if loc.expansion == "marshlands")  # types with bonus tiles
# Observations name the power by a slot of its own (kbenv.engine.observe_v1), not by this code.
# The Harvest farm action (H-4, A-H1) is a power of its own, once a turn, with the last code.
FARM_ACTION = "farmland"
POWER_NAMES = (*LOCATION_NAMES, *NOMAD_USABLE_KINDS, "cave", *BONUS_POWERS, FARM_ACTION)
NUM_POWER_CODES = len(POWER_NAMES)
POWER_CODE = {name: k for k, name in enumerate(POWER_NAMES)}
FIRST_NOMAD_POWER = len(LOCATION_NAMES)


# ----- power traits: what each power code does, as columns the engine's dispatcher reads --------------
# The engine derives numba arrays from these rows (kbenv.engine.traits) and one dispatcher
# (kbenv.engine.powers, kbenv.engine.actions) reads them; a power whose `rule` is "terrain" (build on a
# terrain) or "move to terrain" (Barn, Harbor) needs no kernel of its own. docs/design-notes.md, "How to
# add a power", walks through a new row.
POWER_TARGETS = ("build", "move", "walls", "piece", "remove", "arm", "passive", "power")
POWER_TIMINGS = ("tile", "nomad tile", "once a turn", "bonus tile", "passive", "reaction")
# The target rules: "terrain" and "move to terrain" are generic (the `terrain` column says where); every
# other rule names a kernel of its own, registered in kbenv.engine.powers.special_targets.
POWER_RULES = (
    "terrain", "move to terrain", "tower", "tavern", "paddock", "caravan", "quarry", "village", "step",
    "sword", "city hall", "barracks", "vehicle", "cave", "arm", "fountain", "temple", "ray", "passive", "canoe",
    "next to terrain", "next to another player", "next to a special hex", "farmland",
    # Harvest powers (issue 22), appended
    "palisade", "cathedral", "scout", "bazaar",
)
# The `terrain` column: a terrain name (TERRAINS), or one of these.
CARD_TERRAIN = "card"  # the turn's terrain card (an open Crossroads hand: the union over its cards, A-C8)
DRAWN_TERRAIN = "drawn card"  # a card drawn when the power is activated (Fort, C-6)
BUILDABLE_TERRAIN = "buildable"  # any free hex suitable for building (the rule kernel says which)
NUMBER_TILE_POOL = 8 * 1 + 2 * 5  # Harvest number tiles (DE 1407 "2x 5er: 8x 1er"), held by value (A-H5 a)


@dataclass(frozen=True)
class PowerTraits:
    """One power code's traits.

    `target`: what a chosen hex does (POWER_TARGETS): build a settlement from the supply, move one of the
    player's plain settlements, place a wall, place/move/remove a non-settlement piece, remove another
    player's settlement, arm a modifier (Outpost), or nothing (passive). `terrain`: where (a terrain name,
    CARD_TERRAIN, DRAWN_TERRAIN, BUILDABLE_TERRAIN, or None). `rule`: the target rule (POWER_RULES).
    `source`: a settlement is chosen first (move powers). `steps`: hexes the power may take (Donation 3
    builds, Quarry 2 walls, wagon/ship 3 spaces, Resettlement 4 steps; the Sword takes one settlement of
    each other player, chosen by its rule). `stop_early`: DONE may end it after its first hex.
    `fixes_terrain`: with an open Crossroads hand, its first hex fixes the turn's terrain (A-C8).
    `supply`: it builds from the supply (an empty supply disables it; an Outpost serves it).
    `timing`: when it may be used (POWER_TIMINGS): a location tile held before this turn, a nomad tile
    claimed in the previous round (N-6), once a turn (the cave move), never (passive), only as a reaction in
    another player's turn (the Canoe, M-8).
    """

    name: str
    target: str
    terrain: str | None
    rule: str
    timing: str
    source: bool = False
    steps: int = 1
    stop_early: bool = False
    fixes_terrain: bool = False
    supply: bool = False


def _build(name: str, terrain: str, rule: str = "terrain", timing: str = "tile", **kw) -> PowerTraits:
    return PowerTraits(name, "build", terrain, rule, timing, supply=True, **kw)


def _move(name: str, terrain: str, rule: str, timing: str = "tile", **kw) -> PowerTraits:
    return PowerTraits(name, "move", terrain, rule, timing, source=True, **kw)


_ANY = BUILDABLE_TERRAIN
POWER_TRAITS = (
    # base game (EN rules; kbenv/board/codes order)
    _build("oracle", CARD_TERRAIN, fixes_terrain=True),
    _build("farm", "grass"),
    _build("oasis", "desert"),
    _build("tower", _ANY, "tower"),  # at the edge of the board
    _build("tavern", _ANY, "tavern"),  # at an end of a line of 3 own settlements
    _move("barn", CARD_TERRAIN, "move to terrain", fixes_terrain=True),
    _move("harbor", "water", "move to terrain"),
    _move("paddock", _ANY, "paddock"),  # 2 spaces in a straight line
    # Nomads (N-18..21)
    _move("caravan", _ANY, "caravan"),
    PowerTraits("quarry", "walls", CARD_TERRAIN, "quarry", "tile", steps=2, stop_early=True, fixes_terrain=True),
    _build("village", _ANY, "village"),  # next to 3 own settlements
    _build("garden", "flower field"),
    # Crossroads (C-4..C-14)
    _build("foresters_lodge", "forest"),
    _build("monastery", "canyon"),
    _build("fort", DRAWN_TERRAIN),
    PowerTraits("city_hall", "piece", _ANY, "city hall", "tile"),
    PowerTraits("barracks", "piece", _ANY, "barracks", "tile"),
    PowerTraits("wagon", "piece", None, "vehicle", "tile", steps=3, stop_early=True),  # buildable or mountain (C-13)
    PowerTraits("lighthouse", "piece", "water", "vehicle", "tile", steps=3, stop_early=True),
    PowerTraits("crossroads", "passive", None, "passive", "passive"),  # one more card a turn (C-7)
    # Marshlands (M-8..M-15): the Refuge is the one-space step of the Resettlement on a location tile (EN 1167:
    # "an adjacent unoccupied hex ... does not have to be adjacent to one of your previously built settlements").
    # The Canoe builds on swamp or water as a reaction in other players' turns (M-8, kbenv.engine.marshlands.reactions),
    # never as an extra action of its holder's turn. The Fountain builds next to exactly one own settlement and no
    # opponent's (M-10; with the fountain bonus also on free mountains, M-11); the Temple takes one own plain
    # settlement off into the reserve, chosen as its source (M-12; the reserve is owed in the next turn's mandatory
    # action, kbenv.engine.marshlands.powers).
    PowerTraits("canoe", "build", None, "canoe", "reaction", supply=True),
    _build("fountain", _ANY, "fountain"),
    PowerTraits("temple", "remove", None, "temple", "tile", source=True),
    _move("refuge", _ANY, "step"),
    # Harvest (H-6..H-13). Water mill, Mountain station, Watchtower and University build one settlement on a free
    # suitable hex (farmland included, X-4) next to water / a mountain (the `terrain` column names the neighbour's
    # terrain for the rule "next to terrain") / another player's settlement / a special hex, next to their
    # holder's own if possible (kbenv.engine.harvest.builds).
    # Bazaar (H-6, A-H3): target "power": it names another held, usable (not fresh) location power, which runs
    # once more without using its tile (phase choose_power; kbenv.engine.legal.repeat_choices), or, with a
    # Crossroads tile held, option-1 "crossroads": one more card at the end of the turn (A-C8; REPEAT_CARDS).
    PowerTraits("bazaar", "power", None, "bazaar", "tile"),
    _build("water_mill", "water", "next to terrain"),
    _build("mountain_station", "mountain", "next to terrain"),
    # Scout cabin (H-9, A-H4): 1 or 2 scouts (2 shared scout tiles) on free suitable terrain, water or mountain
    # next to own; they count for the turn owner's adjacency, seize no tile, leave at the end of the turn
    # (kbenv.engine.harvest.powers; DONE after the first).
    PowerTraits("scout_cabin", "piece", _ANY, "scout", "tile", steps=2, stop_early=True),
    # Cathedral (H-10, A-H5): "take" a number tile (value 1) or "return" value k to build k settlements on the
    # turn's terrain, adjacent if possible, DONE after the first keeping the rest (kbenv.engine.harvest.powers;
    # `steps` is the pool's value, the most it can build).
    PowerTraits("cathedral", "build", CARD_TERRAIN, "cathedral", "tile", steps=NUMBER_TILE_POOL, stop_early=True,
                fixes_terrain=True, supply=True),
    _build("watchtower", _ANY, "next to another player"),
    _build("university", _ANY, "next to a special hex"),
    # Palisade (H-13, A-H6): move one own settlement next to the rest of its settlement area, the settlement
    # lifted (kbenv.engine.harvest.powers; a lone settlement moves only with palisade_moves_lone_settlement).
    _move("palisade", _ANY, "palisade"),
    # The Island (QI-3, QI-4): move one own settlement to canyon / forest, adjacent if possible (as Harbor's rule);
    # island hexes of that terrain are targets when no adjacent one exists (QI-1: the same masks hold them).
    _move("rope_bridge", "canyon", "move to terrain"),
    _move("tree_house", "forest", "move to terrain"),
    # nomad tiles (N-7..12): three builds on the donation's terrain, four one-space moves, the Outpost's
    # waiver of adjacency for one settlement, the Sword
    *(_build(f"donation-{t}", TERRAINS[[x.letter for x in TERRAINS].index(t)].name, timing="nomad tile", steps=3)
      for t in DONATION_TERRAINS),
    _move("resettlement", _ANY, "step", "nomad tile", steps=4, stop_early=True),
    PowerTraits("outpost", "arm", None, "arm", "nomad tile"),
    PowerTraits("sword", "remove", None, "sword", "nomad tile"),
    # Caves (QV-1..2)
    _move("cave", _ANY, "cave", "once a turn"),
    # Marshlands bonus tiles (M-9, M-15), usable from the turn after they are taken (A-M4), once a turn. The
    # Refuge bonus moves a settlement along one of the 6 lines to the first free suitable hex (A-M9). The Canoe
    # bonus builds where a canoe reaction builds, in its holder's own turn (EN 1123: swamp or water, adjacent
    # if possible; each terrain's part on its own, as EN 1111 reads for the Canoe).
    PowerTraits("canoe_bonus", "build", None, "canoe", "bonus tile", supply=True),
    _move("refuge_bonus", _ANY, "ray", "bonus tile"),
    # Harvest: the farm action (H-4, A-H1), once a turn before or after the mandatory action: a settlement on a
    # free farmland hex next to its player's own (no fallback).
    _build(FARM_ACTION, "farmland", "farmland", "once a turn"),
)
POWER_TRAIT = {t.name: t for t in POWER_TRAITS}
assert tuple(t.name for t in POWER_TRAITS) == POWER_NAMES, "one traits row per power code, in code order"
for _t in POWER_TRAITS:
    assert _t.target in POWER_TARGETS and _t.rule in POWER_RULES and _t.timing in POWER_TIMINGS, _t
    assert _t.terrain in (None, CARD_TERRAIN, DRAWN_TERRAIN, BUILDABLE_TERRAIN) or _t.terrain in TERRAIN_CODE, _t
    assert _t.source == (_t.target == "move") or _t.rule == "temple", \
        f"{_t.name}: move powers, and only they (and the Temple's removal), choose a source first"
    assert _t.rule not in ("terrain", "move to terrain") or _t.terrain not in (None, BUILDABLE_TERRAIN), _t
    assert _t.steps >= 1 and (_t.stop_early <= (_t.steps > 1)), _t
# Each piece kind is placed by a power whose target is that kind of piece (walls: the Quarry).
assert all(k.power is None or POWER_TRAIT[k.power].target in ("piece", "walls") for k in PIECE_KINDS)
# The location rows and the traits agree on each location type's power kind.
assert all(POWER_TRAIT[loc.name].target == loc.power for loc in LOCATION_TYPES)
assert all(POWER_TRAIT[k].timing == "nomad tile" for k in NOMAD_USABLE_KINDS)
# The expansion a power code needs (None: the base game); the Crossroads tile is passive.
POWER_EXPANSION = (*(loc.expansion for loc in LOCATION_TYPES), *("nomads" for _ in NOMAD_USABLE_KINDS), "caves",
                   *("marshlands" for _ in BONUS_POWERS), "harvest")
# Powers that build settlements from the supply (an Outpost serves them; an empty supply disables them).
BUILD_POWERS = tuple(t.supply for t in POWER_TRAITS)
assert BUILD_POWERS == tuple(
    [loc.power == "build" for loc in LOCATION_TYPES] + [tile.builds for tile in NOMAD_TILES if tile.usable] + [False]
    + [POWER_TRAIT[name].supply for name in BONUS_POWERS] + [True])
assert len(BUILD_POWERS) == NUM_POWER_CODES
CAVE_POWER = POWER_CODE["cave"]
FARM_POWER = POWER_CODE[FARM_ACTION]
# The power used as a reaction in other players' turns (Marshlands, M-8): one, asked in PHASE_REACTION.
REACTION_POWERS = tuple(t.name for t in POWER_TRAITS if t.timing == "reaction")
assert len(REACTION_POWERS) == 1
REACTION_POWER = POWER_CODE[REACTION_POWERS[0]]
POWER_ACTIONS = tuple(ACTION_ID.get(name, -1) for name in POWER_NAMES)  # action id per power code (-1: passive)
assert all(a >= 0 or LOCATION_TYPES[k].power == "passive" for k, a in enumerate(POWER_ACTIONS[: len(LOCATION_TYPES)]))
assert all(a >= 0 for a in POWER_ACTIONS[len(LOCATION_TYPES):])

# The "marsh_power" slots of observation v1: the Marshlands powers used as decisions of their holder's turn
# (tiles, then bonus tiles; a reaction has the feature named after its power).
MARSH_POWER_NAMES = tuple(t.name for t, exp in zip(POWER_TRAITS, POWER_EXPANSION, strict=True)
                          if exp == "marshlands" and t.timing in ("tile", "bonus tile"))
# The Marshlands features of observation v1 (name, size, meaning), appended to kbenv.engine.observe_v1's
# V1_FEATURES in this order; names and order are fixed (stored digests), the meanings are printed in docs/api.md.
MARSH_V1_FEATURES = (
    (REACTION_POWERS[0], 2, "a Canoe reaction is asked (phase reaction); a canoe build is being resolved "
                            "(Marshlands)"),
    ("marshlands", 1, "Marshlands in play"),
    ("own_marsh_tiles", 4, f"own tiles of {', '.join(BONUS_TYPES)} / 2"),
    ("own_marsh_ready", 4, "of them usable now / 2"),
    ("others_marsh_tiles", 4, "tiles of those types held by the other players / 8"),
    ("own_bonus_tiles", 4, f"own bonus tiles held, per type ({', '.join(BONUS_TYPES)})"),
    ("own_bonus_ready", 4, "of them usable now (not taken this turn, not used this turn)"),
    ("others_bonus_tiles", 4, "bonus tiles held by the other players, per type / 2"),
    ("bonus_left", 4, "bonus tiles left on the summary cards, per type / 2"),
    ("temple_reserve", 5, "Temple reserve per seat relative to self / 4 (at most 1)"),
    ("temple_owed", 1, "of the turn owner's reserve, still owed in this turn's mandatory action / 4 (at most 1)"),
    ("own_swamp_card", 1, "own hand is a swamp card (own_card shows its other terrain)"),
    ("mover_swamp_card", 1, "the turn owner's card, where mover_card shows it, is a swamp card"),
    ("discard_swamp_cards", 5, "swamp cards S/G .. S/T in the discard pile (the discard feature counts G C D F T)"),
    ("mandatory_count", 2, "settlements this turn's mandatory action builds (2 on swamp, 3, a Temple reserve "
                           "owed on top) / 8, and of them built / 8"),
    ("turn_terrain", 6, "one-hot terrain this turn's first build chose (G C D F T, S = swamp) once it is fixed"),
    ("removed_terrain", 5, "one-hot terrain the Scouts set-up removed (G C D F T)"),
    ("marsh_cards", 6, "geologists, messengers, noblewomen, vassals, captains, scouts in play"),
    ("marsh_power", 5, f"one-hot power being resolved: {', '.join(MARSH_POWER_NAMES)}"),
    ("own_turn", 1, "the observer owns the turn (during a Canoe reaction the reactor is to move, not the owner)"),
)

# Harvest (issue 22) in observation v1: the "harvest_power" slots are its 9 power codes (the
# 8 location powers, then the farm action); the features below are appended to V1_FEATURES after the Marshlands
# ones, in this order (earlier rulesets leave them 0). Names follow decision 8's position keys where one exists.
HARVEST_POWER_NAMES = tuple(name for name, exp in zip(POWER_NAMES, POWER_EXPANSION, strict=True) if exp == "harvest")
HARVEST_TYPES = tuple(loc.name for loc in LOCATION_TYPES if loc.expansion == "harvest")
HARVEST_CARDS = tuple(card.name for card in SCORING_CARDS if card.expansion == "harvest")
HARVEST_V1_FEATURES = (
    ("harvest", 1, "Harvest in play"),
    ("harvest_phase", 2, "one-hot phase silo, choose_power (phases 7, 8; the phase feature covers 0..5)"),
    ("harvest_power", len(HARVEST_POWER_NAMES), f"one-hot power being resolved: {', '.join(HARVEST_POWER_NAMES)} "
                                                "(choose_power: the power naming another one)"),
    ("own_harvest_tiles", len(HARVEST_TYPES), f"own tiles of {', '.join(HARVEST_TYPES)} / 2"),
    ("own_harvest_ready", len(HARVEST_TYPES), "of them usable now / 2"),
    ("others_harvest_tiles", len(HARVEST_TYPES), "tiles of those types held by the other players / 8"),
    ("number_tiles", 5, f"value of the number tiles held, per seat relative to self / {NUMBER_TILE_POOL} (public)"),
    ("number_tiles_left", 1, f"value left in the pool beside the board / {NUMBER_TILE_POOL}"),
    ("number_tile_return", 1, "the number tiles' return was chosen: its builds are being made"),
    ("farmland_used", 1, "the turn owner took the farm action this turn"),
    ("rover_sections", 4, "board quarters (geometry.SECTOR_OF) the turn owner built a new settlement in this turn"),
    ("scouts_left", 1, "scout tiles beside the board / 2 (the others are the turn owner's, on the board)"),
    ("mayor_lines", 2, "rows marked for Mayors / 20: own, the other players'"),
    ("silo_mode", 3, "silo phase: one-hot build, move or done to choose; building; moving"),
    ("silo_steps", 1, "builds or moves taken at this silo / 3"),
    ("silos_left", 1, "silos still to come in the silo phase / 4 (at most 1)"),
    ("harvest_cards", len(HARVEST_CARDS), f"{', '.join(HARVEST_CARDS)} in play"),
)

ISLAND_TYPES = tuple(loc.name for loc in LOCATION_TYPES if loc.expansion == "island")  # rope_bridge, tree_house
# The island's v1 features (name, size, meaning), appended to observation v1's features after Harvest's.
ISLAND_V1_FEATURES = (
    ("island", 1, "Island in play"),
    ("island_power", len(ISLAND_TYPES), f"one-hot power being resolved: {', '.join(ISLAND_TYPES)}"),
    ("own_island_tiles", len(ISLAND_TYPES), f"own tile of the island's location, per type ({', '.join(ISLAND_TYPES)})"),
    ("own_island_ready", len(ISLAND_TYPES), "of it usable now"),
    ("others_island_tiles", 1, "tiles of the island's location held by the other players / 2"),
    ("island_tiles_left", 1, "tiles left on the island's location hex / 2"),
    ("island_mayor_lines", 2, "island lines marked for Mayors / 5: own, the other players' (A-QI4)"),
    ("island_rules", 2, "rule flags no_island_knights, island_coast_not_water"),
)


def power_trait_table() -> str:
    """The power traits as a markdown table (printed in docs/api.md and tested against it)."""
    lines = ["| code | power | target | terrain | rule | source | steps | stop early | fixes terrain | supply "
             "| timing |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for k, t in enumerate(POWER_TRAITS):
        yes = {True: "yes", False: "-"}
        lines.append(f"| {k} | {t.name} | {t.target} | {t.terrain or '-'} | {t.rule} | {yes[t.source]} | {t.steps} | "
                     f"{yes[t.stop_early]} | {yes[t.fixes_terrain]} | {yes[t.supply]} | {t.timing} |")
    return "\n".join(lines)


def content_table() -> str:
    """The terrain and location rows as markdown tables (printed in docs/api.md and tested against it)."""
    lines = ["| code | letter | terrain | expansion | buildable | cards | special |", "|---|---|---|---|---|---|---|"]
    for k, t in enumerate(TERRAINS):
        buildable = "yes" if t.buildable else f"with {t.buildable_with}" if t.buildable_with else "no"
        lines.append(f"| {k} | {t.letter or '-'} | {t.name} | {t.expansion or 'base'} | {buildable} | {t.cards} | "
                     f"{'yes' if t.special else 'no'} |")
    lines += ["", "| type | letter | location | expansion | power | action |", "|---|---|---|---|---|---|"]
    for k, loc in enumerate(LOCATION_TYPES):
        lines.append(f"| {k} | {loc.letter} | {loc.name} | {loc.expansion or 'base'} | {loc.power} | "
                     f"{LOCATION_ACTION[loc.name]} |")
    lines += ["", "| card | expansion | scored | gold | provenance |", "|---|---|---|---|---|"]
    for card in SCORING_CARDS:
        lines.append(f"| {card.name} | {card.expansion or 'base'} | {card.scored} | "
                     f"{'-' if card.gold is None else card.gold} | {card.provenance} |")
    lines += ["", "Swamp cards (Marshlands, M-5): " + ", ".join(SWAMP_CARD_NAMES)
              + f", one each; with them the deck has {MARSHLANDS_DECK_SIZE} cards. Palace: {PALACE_GOLD} gold to the "
              "majority next to it, 5 to each of tied players (M-6)."]
    return "\n".join(lines)
