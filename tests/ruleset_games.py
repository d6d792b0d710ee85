"""Games of any ruleset for the surface suites (tests/surfaces/) and the other tests that play random games: the
list of rulesets the suites run over (RULESETS: the base game, each expansion alone, mixes, all seven), set-ups
that deal the substitute expansion sections, random play biased towards a ruleset's own decisions (`pick`: the
Island's hexes and powers where the Island is in play, else the Harvest powers, else the Marshlands powers), the
pieces-and-tiles conservation check of any ruleset, the state comparison of a position round trip, and the
tallies of the Marshlands, Harvest and Island decisions that the property suite reads.

One module for what tests/harvest_games.py, tests/marsh_games.py, tests/island_games.py and tests/biased_play.py
held (issue 49: tests by surface).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.bitset import WORDS, hexes_of
from kbenv.board.codes import CASTLE, LOCATION, MOUNTAIN, SWAMP, TERRAIN_LETTERS, WATER, decode_hex_code
from kbenv.board.geometry import ISLAND_COLS, ISLAND_ROWS, NUM_HEXES, ROWS, hex_rc
from kbenv.engine import state as S

# ----- expansions, sections, cards and rule flags -------------------------------------------------------------
BASE: list[str] = []
MARSH = ["marshlands"]
HARVEST = ["harvest"]
ISLAND = ["island"]
QUEENIES = ["nomads", "capitol", "caves"]
ALL5 = ["nomads", "capitol", "caves", "crossroads", "marshlands"]  # every expansion before Harvest
ALL6 = [*ALL5, "harvest"]  # every expansion before the Island
ALL7 = [*ALL6, "island"]  # all seven
# The Island with each expansion whose rules meet it.
ISLAND_WITH = {"nomads": ["nomads", "island"], "crossroads": ["crossroads", "island"],
               "marshlands": ["marshlands", "island"], "harvest": ["harvest", "island"]}

HARVEST_TYPES = CAT.HARVEST_TYPES  # bazaar, water_mill, mountain_station, scout_cabin, cathedral, ...
H1, H2, H3, H4 = ((f"harvest-substitute-{k}", flip) for k, flip in ((1, False), (2, True), (3, False), (4, True)))
M1, M2, M3, M4 = ((f"marsh-substitute-{k}", flip) for k, flip in ((1, False), (2, True), (3, False), (4, True)))
SECTIONS = {
    # Four substitute Marshlands sections (canoe, fountain, temple / refuge ...); two with sections of other
    # expansions, so that every Marshlands location type meets the other rules.
    "marsh": [M1, M2, M3, M4],
    "marsh-all": [M1, ("quarry", True), M3, ("lighthouse", False)],
    "marsh-all2": [M2, ("barracks", False), ("marsh-substitute-4", False), ("caravan", True)],
    # All eight Harvest location types (two a section); two Harvest sections with a Marshlands and a Nomads /
    # Crossroads section, so that the Harvest rules meet the others (canoe reactions, bonus tiles, nomad tiles,
    # warriors and walls); "harvest-all2" holds the other four types.
    "harvest": [H1, H2, H3, H4],
    "harvest2": [H3, H1, H4, H2],
    "harvest-all": [H1, M1, H3, ("quarry", True)],
    "harvest-all2": [("marsh-substitute-3", True), H2, ("barracks", False), H4],
}
SIX = ("geologists", "messengers", "noblewomen", "vassals", "captains", "scouts")  # the Marshlands cards
HARVEST_CARDS = (["mayors", "rovers", "fishermen"], ["mayors", "chainers", "knights"],
                 ["rovers", "travellers", "lords"], None)
# Cards whose scoring the island changes (QI-2): Discoverers and Knights read its lines, Fishermen its coast (A-QI2),
# Lords and Farmers ignore it, Hermits / Citizens / Miners / Workers see its areas, mountains and location hex; Mayors
# (Harvest) marks its lines (A-QI4).
ISLAND_CARDS = (["discoverers", "knights", "fishermen"], ["lords", "farmers", "knights"],
                ["hermits", "citizens", "miners"], ["workers", "farmers", "fishermen"], None)
ISLAND_HARVEST_CARDS = (["mayors", "discoverers", "knights"], ["rovers", "mayors", "fishermen"], None)
MARSH_FLAGS = (None, ["bonus_kept_after_tile_loss"], ["canoe_taker_reacts"], ["scouts_keep_dealt_hands"],
               ["vassals_count_outer_edge"])
HARVEST_FLAGS = (None, ["mayors_contiguous"], ["silos_count_as_special"], ["silo_by_silo"],
                 ["palisade_moves_lone_settlement"], ["bazaar_repeats_used_power_only"])
ISLAND_FLAGS = (None, ["no_island_knights"], ["island_coast_not_water"],
                ["no_island_knights", "island_coast_not_water"])
SIDES = ("island-substitute-1", "island-substitute-2", None)  # None: the seeded choice (A-QI5)


# ----- the rulesets the surface suites run over ----------------------------------------------------------------
@dataclass(frozen=True)
class Ruleset:
    """A ruleset and the variations its random games draw from: sections (SECTIONS names, None: a random board),
    scoring cards (None: dealt), rule flags and island sides; `examples`: random games per property test."""

    id: str
    expansions: tuple[str, ...] = ()
    sections: tuple = (None,)
    cards: tuple = (None,)
    rules: tuple = (None,)
    sides: tuple = (None,)
    examples: int = 4

    @property
    def focus(self) -> str:
        """Whose decisions the biased random play prefers and the property suite counts (focus_of)."""
        return focus_of(self.expansions)

    def game(self, players: int, seed: int, sections: int = 0, cards: int = 0, rules: int = 0,
             side: int = 0) -> Game:
        """A set-up of the ruleset: the variations' options by index (modulo their number)."""
        return new_game(self.expansions, players, seed, self.sections[sections % len(self.sections)],
                        self.cards[cards % len(self.cards)], self.rules[rules % len(self.rules)],
                        self.sides[side % len(self.sides)])


MARSH_SIX = tuple([six, "fishermen", "lords"] for six in SIX) + (None,)  # one of the six Marshlands cards dealt
RULESETS = [
    Ruleset("base"),
    Ruleset("nomads+capitol+caves", tuple(QUEENIES)),
    Ruleset("crossroads", ("crossroads",)),
    Ruleset("marshlands", tuple(MARSH), ("marsh", None), MARSH_SIX, MARSH_FLAGS, examples=12),
    Ruleset("all5", tuple(ALL5), ("marsh-all", "marsh-all2", None), MARSH_SIX, MARSH_FLAGS, examples=12),
    Ruleset("harvest", tuple(HARVEST), ("harvest", "harvest2", None), HARVEST_CARDS, HARVEST_FLAGS, examples=12),
    Ruleset("all6", tuple(ALL6), ("harvest-all", "harvest-all2", None), HARVEST_CARDS, HARVEST_FLAGS, examples=12),
    Ruleset("island", tuple(ISLAND), cards=ISLAND_CARDS, rules=ISLAND_FLAGS, sides=SIDES, examples=6),
    *(Ruleset(f"island+{name}", tuple(expansions), cards=ISLAND_HARVEST_CARDS if name == "harvest" else ISLAND_CARDS,
              rules=ISLAND_FLAGS, sides=SIDES, examples=6) for name, expansions in ISLAND_WITH.items()),
    Ruleset("all7", tuple(ALL7), cards=ISLAND_HARVEST_CARDS, rules=ISLAND_FLAGS, sides=SIDES, examples=6),
]
BY_ID = {r.id: r for r in RULESETS}


def ids(rulesets) -> list[str]:
    return [r.id for r in rulesets]


def new_game(expansions, players: int, seed: int, sections: str | None = None, cards=None, rules=None,
             side: str | None = None, **options) -> Game:
    """Game.new with the named section set (SECTIONS) and the island side (only where the Island is in play);
    `options`: Game.new's others (lords_count_zero)."""
    if side is not None:
        options["island_side"] = side
    return Game.new(players, seed=seed, expansions=list(expansions), rules=rules, cards=cards,
                    sections=SECTIONS[sections] if sections else None, **options)


# ----- biased random play -----------------------------------------------------------------------------------
OPTION_1, OPTION_2, DONE = CAT.ACTION_ID["option-1"], CAT.ACTION_ID["option-2"], CAT.DONE
FARMLAND = CAT.ACTION_ID["farmland"]
POWER_ACTIONS = {CAT.ACTION_ID[name]: name for name in HARVEST_TYPES}
CANOE, PASS = CAT.ACTION_ID["canoe"], CAT.DONE
NAMED = {CAT.ACTION_ID[name]: name for name in ("fountain", "temple", "refuge", "canoe_bonus", "refuge_bonus")}
ISLAND_HEX_ACTIONS = range(CAT.ISLAND_ACTION_BASE, CAT.ISLAND_ACTION_BASE + 20)
ROPE_BRIDGE, TREE_HOUSE = CAT.ACTION_ID["rope_bridge"], CAT.ACTION_ID["tree_house"]
PREFERRED = {
    "base": frozenset(),
    "marshlands": frozenset(CAT.ACTION_ID[name] for name in ("canoe", "fountain", "temple", "refuge", "canoe_bonus",
                                                             "refuge_bonus", "fort", "city_hall", "barracks",
                                                             "quarry")),
    "harvest": frozenset({*POWER_ACTIONS, FARMLAND, OPTION_1, OPTION_2, CAT.ACTION_ID["canoe"],
                          CAT.ACTION_ID["fort"], CAT.ACTION_ID["quarry"]}),
    "island": frozenset({*ISLAND_HEX_ACTIONS, ROPE_BRIDGE, TREE_HOUSE}),
}


def focus_of(expansions) -> str:
    """The expansion whose decisions a ruleset's random play prefers: the Island, else Harvest, else Marshlands."""
    for name in ("island", "harvest", "marshlands"):
        if name in expansions:
            return name
    return "base"


def biased_pick(game: Game, rng: np.random.Generator, bias: float, preferred: Collection[int]) -> int:
    """A random legal action; with probability `bias` one of the `preferred` actions when one is legal."""
    legal = game.legal_actions()
    wanted = [a for a in legal if a in preferred]
    if wanted and rng.random() < bias:
        return int(rng.choice(wanted))
    return int(rng.choice(legal))


def pick(game: Game, rng: np.random.Generator, bias: float) -> int:
    """A random legal action; with probability `bias` one of the ruleset's own (PREFERRED[focus_of]) when one is
    legal: an island hex or power, a Harvest power, the farm action or a take/return, build/move choice, a
    Marshlands power."""
    return biased_pick(game, rng, bias, PREFERRED[focus_of(game.expansions)])


def play_until(game: Game, rng: np.random.Generator, wanted: Callable[[Game], bool], bias: float = 0.6,
               limit: int = 5000) -> bool:
    """Play biased random decisions (`pick`) until `wanted(game)` or the end; whether `wanted` holds."""
    for _ in range(limit):
        if wanted(game):
            return True
        if game.done:
            return False
        game.step(pick(game, rng, bias))
    return wanted(game)


def played_record(seed: int, decisions: int = 10_000, players: int = 2, expansions=()) -> dict:
    """The record of a seeded game after up to `decisions` uniformly random decisions (to its end by default)."""
    game = Game.new(players, seed=seed, expansions=list(expansions))
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    return game.to_record()


# ----- state readings -----------------------------------------------------------------------------------------
def popcount(words) -> int:
    return sum(bin(int(w) & (2**64 - 1)).count("1") for w in words)


def marks(game: Game, p: int) -> int:
    """Rows marked for p by the Mayors (H-15), the island's lines included (A-QI4; all zero without the island)."""
    st = game.state
    lines = (*st[S.MAYOR_LINES : S.MAYOR_LINES + 20], *st[S.ISLAND_MAYOR_LINES : S.ISLAND_MAYOR_LINES + 5])
    return sum(int(v) == p + 1 for v in lines)


def scouts(game: Game) -> int:
    return popcount(game.state[S.SCOUTS : S.SCOUTS + WORDS])


def gold(game: Game) -> list[int]:
    return [int(game.state[S.GOLD + p]) for p in range(game.num_players)]


def island_hexes(game: Game, p: int) -> set[tuple[int, int]]:
    """p's settlements on the island (extended (ROWS + r, c) hexes)."""
    return {rc for rc in game.settlements(p) if rc[0] >= ROWS}


def island_marks(game: Game) -> list[int]:
    return [int(v) for v in game.state[S.ISLAND_MAYOR_LINES : S.ISLAND_MAYOR_LINES + ISLAND_ROWS]]



# ----- tallies of each expansion's decisions ----------------------------------------------------------------
class BaseTally:
    """Plays the decisions of games whose ruleset has no tally of its own."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def step(self, game: Game, action: int) -> None:
        game.step(action)

    def finish(self, game: Game) -> None:
        pass


class MarshTally:
    """Counts the Marshlands decisions of the games it watches (`before` and `after` each step)."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()
        self._turn_swamp: dict = {}

    def step(self, game: Game, action: int) -> None:
        """Record one decision: call instead of game.step(action)."""
        st = game.state
        p = game.current_player
        phase = game.phase
        reserve = int(st[S.TEMPLE_RESERVE + p])
        bonus = sum(bin(int(st[S.BONUS_HELD + q])).count("1") for q in range(game.num_players))
        if phase == "reaction":
            self.seen["canoe reaction asked"] += 1
            self.seen["canoe reaction taken" if action == CANOE else "pass" if action == PASS else "?"] += 1
        if action in NAMED:
            self.seen[NAMED[action]] += 1
        game.step(action)
        st = game.state
        if phase == "mandatory" or phase == "idle":
            fixed_swamp = st[S.TERRAIN_FIXED] and int(st[S.TURN_TERRAIN]) == SWAMP and not game.done
            if fixed_swamp and int(st[S.MANDATORY_BUILT]) == 2 and int(st[S.MANDATORY_TARGET]) == 2:
                self.seen["swamp 2-build"] += 1
        if int(st[S.TEMPLE_RESERVE + p]) < reserve and action < NUM_HEXES:
            self.seen["temple reserve built"] += 1
        if sum(bin(int(st[S.BONUS_HELD + q])).count("1") for q in range(game.num_players)) > bonus:
            self.seen["bonus tile taken"] += 1

    def finish(self, game: Game) -> None:
        """Record the end of a game: palaces and the six cards that scored, the Scouts set-up."""
        rows = game.scores()
        if any(row["palaces"] for row in rows):
            self.seen["palace scored"] += 1
        for card in SIX:
            if card in game.cards and any(row["cards"].get(card, 0) for row in rows):
                self.seen[f"{card} scored"] += 1
        if int(game.state[S.REMOVED_TERRAIN]):
            self.seen["scouts set-up"] += 1


class HarvestTally:
    """Counts the Harvest decisions of the games it watches."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def step(self, game: Game, action: int) -> None:
        """Record one decision: call instead of game.step(action)."""
        st = game.state
        phase, p = game.phase, game.current_player
        before_marks = sum(marks(game, q) for q in range(game.num_players))
        before_scouts, before_tiles = scouts(game), int(st[S.NUMBER_TILES : S.NUMBER_TILES + 5].sum())
        rovers, before_gold = int(st[S.ROVER_SECTIONS]), gold(game)
        if phase == "silo":
            self.seen["silo " + ("build" if action == OPTION_1 else "move" if action == OPTION_2
                                 else "done" if action == DONE else "hex")] += 1
        elif phase == "choose_power":
            self.seen["bazaar choose_power"] += 1
            self.seen[f"bazaar repeats {CAT.ACTION_NAMES[action]}"] += 1
        elif action == OPTION_1:
            self.seen["cathedral take"] += 1
        elif action == OPTION_2:
            self.seen["cathedral return"] += 1
        elif action in POWER_ACTIONS:
            self.seen[POWER_ACTIONS[action]] += 1
        elif action == FARMLAND:
            self.seen["farmland"] += 1
        if int(st[S.NUMBER_TILE_MODE]) and action < NUM_HEXES:
            self.seen["cathedral return build"] += 1
        game.step(action)
        st = game.state
        if sum(marks(game, q) for q in range(game.num_players)) > before_marks:
            self.seen["mayors mark"] += 1
        if scouts(game) > before_scouts:
            self.seen["scout placed"] += 1
        if int(st[S.NUMBER_TILES : S.NUMBER_TILES + 5].sum()) > before_tiles:
            self.seen["number tile taken"] += 1
        if rovers and not int(st[S.ROVER_SECTIONS]) and gold(game)[p] >= before_gold[p] + bin(rovers).count("1"):
            self.seen["rovers gold"] += 1

    def finish(self, game: Game) -> None:
        if any(row["cards"].get("mayors", 0) for row in game.scores()):
            self.seen["mayors scored"] += 1


class IslandTally:
    """Counts what happens on the island in the games it watches."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def step(self, game: Game, action: int) -> None:
        """Record one decision: call instead of game.step(action)."""
        n = game.num_players
        before = [(island_hexes(game, p), len(game.settlements(p))) for p in range(n)]
        tiles, marks = int(game.state[S.ISLAND_LOC_TILES]), sum(v > 0 for v in island_marks(game))
        if action in ISLAND_HEX_ACTIONS:
            self.seen["island hex action"] += 1
        elif action in (ROPE_BRIDGE, TREE_HOUSE):
            self.seen[CAT.ACTION_NAMES[action]] += 1
        game.step(action)
        for p in range(n):
            (was, total), now = before[p], island_hexes(game, p)
            grown = len(game.settlements(p)) - total
            if grown > 0 and len(now) > len(was):
                self.seen["island build"] += 1
            elif grown == 0 and len(now) > len(was):
                self.seen["move onto the island"] += 1
            elif grown == 0 and len(now) < len(was):
                self.seen["move off the island"] += 1
            elif grown == 0 and now != was:
                self.seen["move within the island"] += 1
            elif grown < 0 and len(now) < len(was):
                self.seen["island settlement removed"] += 1
        if int(game.state[S.ISLAND_LOC_TILES]) < tiles:
            self.seen["island tile taken"] += 1
        if sum(v > 0 for v in island_marks(game)) > marks:
            self.seen["mayors island mark"] += 1
        self.check_scores(game)

    def finish(self, game: Game) -> None:
        """At the end of a game: the scores as at every decision."""
        self.check_scores(game)

    def check_scores(self, game: Game) -> None:
        """Every base card's gold that the island changes, worked out from the settlements and the terrain (the
        Island alone, or with Nomads for Discoverers and Knights, whose walls are no settlements; scores are kept up
        to date during play): Discoverers and Knights read the island's lines (QI-2, A-QI1), Farmers ignore the
        island (QI-2), Fishermen count its coast as next to water (A-QI2) and Miners / Workers its mountains and
        location hex; Hermits and Citizens see island areas apart from the board's (A-QI2)."""
        if set(game.expansions) - {"island", "nomads"}:
            return
        alone = set(game.expansions) == {"island"}
        flags = int(game.state[S.RULE_FLAGS])
        knights_off = bool(flags & CAT.RULE_BIT["no_island_knights"])
        coast_water = not flags & CAT.RULE_BIT["island_coast_not_water"]
        rows = list(game.board) + list(game.setup.island[1])
        for p, row in enumerate(game.scores()):
            own = game.settlements(p)
            cards = row["cards"]
            board_rows = Counter(r for r, _ in own if r < ROWS)
            island_rows = Counter(r for r, _ in own if r >= ROWS)
            if "discoverers" in cards:
                # "1 gold for each horizontal line with at least one settlement"; "up to 5 gold for the island's lines"
                assert cards["discoverers"] == len(board_rows) + len(island_rows), (p, own)
                if island_rows:
                    self.seen["discoverers island lines"] += 1
            if "knights" in cards:
                # "2 gold per settlement on the line with the most"; "you can choose a line on the island" (EN reading)
                best_board = max(board_rows.values(), default=0)
                best_island = 0 if knights_off else max(island_rows.values(), default=0)
                assert cards["knights"] == 2 * max(best_board, best_island), (p, own, knights_off)
                if best_island > best_board:
                    self.seen["knights island line"] += 1
                if knights_off and max(island_rows.values(), default=0) > best_board:
                    self.seen["knights island line ignored"] += 1
            if not alone:
                continue
            on_island = any(r >= ROWS for r, _ in own)
            if "farmers" in cards:
                # "3 gold for each settlement in the sector with the fewest"; the island is no sector (QI-2)
                sectors = Counter((r // 10) * 2 + c // 10 for r, c in own if r < ROWS)
                assert cards["farmers"] == 3 * min(sectors[k] for k in range(4)), (p, own)
                if on_island:
                    self.seen["farmers ignore the island"] += 1

            def next_to(rc, codes, coast=False):
                near = neighbours(rc)
                return (coast and rc[0] >= ROWS and len(near) < 6) or any(terrain(rows, h) in codes for h in near)

            for card, codes, coast in (("fishermen", (WATER,), coast_water), ("miners", (MOUNTAIN,), False),
                                       ("workers", (CASTLE, LOCATION), False)):
                if card in cards:
                    # "1 gold for each settlement next to water / a mountain / a castle or location"; a settlement on
                    # water scores no Fishermen gold (EN 318), one on a mountain no Miners gold (docs/rules-readings.md)
                    counted = [h for h in own if next_to(h, codes, coast) and terrain(rows, h) not in codes]
                    assert cards[card] == len(counted), (p, card, own)
                    if any(r >= ROWS for r, _ in counted):
                        self.seen[f"{card} on the island"] += 1
            if "hermits" in cards or "citizens" in cards:
                areas = settlement_areas(own)
                # Hermits: "1 gold for each separate settlement area"; Citizens: "1 gold per 2 settlements in the
                # largest area" (island areas never join board areas, A-QI2)
                if "hermits" in cards:
                    assert cards["hermits"] == len(areas), (p, own)
                if "citizens" in cards:
                    assert cards["citizens"] == max(map(len, areas), default=0) // 2, (p, own)
                if on_island:
                    self.seen["areas on the island"] += 1


TALLIES = {"base": BaseTally, "marshlands": MarshTally, "harvest": HarvestTally, "island": IslandTally}


def terrain(rows: list[str], rc: tuple[int, int]) -> int:
    """The terrain code of a hex of the extended grid (board rows, then the island's)."""
    return decode_hex_code(rows[rc[0]][rc[1]])[0]


def neighbours(rc: tuple[int, int]) -> set[tuple[int, int]]:
    """Odd-r neighbours on the board, or inside the island for an island hex (A-QI2)."""
    if rc[0] >= ROWS:
        return island_neighbours(rc)
    r, c = rc
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return {(a, b) for a, b in cand if 0 <= a < ROWS and 0 <= b < 20}


def settlement_areas(own: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """The connected groups of `own` (flood fill over neighbours)."""
    left, areas = set(own), []
    while left:
        todo, area = [left.pop()], set()
        while todo:
            h = todo.pop()
            area.add(h)
            for n in neighbours(h) & left:
                left.discard(n)
                todo.append(n)
        areas.append(area)
    return areas


# ----- conservation and the round-trip comparison ------------------------------------------------------------
def check_location_tiles(game: Game, history: dict) -> None:
    """A location hex hands out at most its 2 tiles, and tiles never return to it (`history` remembers)."""
    for loc in game.location_hexes():
        holders = sum(any(rc == loc for _, rc in game.tiles(p)) for p in range(game.num_players))
        left = game.tiles_left(loc)
        assert left + holders <= 2, "a location hex hands out at most its 2 tiles"
        assert left <= history.get(loc, left), "tiles never return to a location hex"
        history[loc] = left


def check_base_invariants(game: Game, history: dict) -> None:
    """The base game's conservation, cheap enough for a thousand games: settlements on the board + supply = 40 per
    player, no hex holds two settlements, the location tiles (check_location_tiles), the 25 terrain cards."""
    n = game.num_players
    total = 0
    for p in range(n):
        own = game.settlements(p)
        total += len(own)
        assert len(own) + game.supply(p) == S.SETTLEMENTS_PER_PLAYER, "settlements on board + supply must stay 40"
        assert game.supply(p) >= 0, "nobody builds more settlements than they own"
    assert total == len(game.occupied()), "no hex holds two settlements"
    check_location_tiles(game, history)
    hands = sum(game.hand(p) is not None for p in range(n))
    cards = game.deck_size() + len(game.discard_pile()) + len(game.removed_cards()) + hands
    assert cards == 25, "the 25 terrain cards are conserved"


def check_conservation(game: Game, history: dict) -> None:
    """Pieces and tiles are conserved (checked after every decision): settlements on the board + supply +
    Temple reserve + Mayors marks = 40 per player (A-H7: a mark takes a settlement from the supply; silo builds
    come from the supply); at most the 2 shared scouts (EN 1245), closed hexes of no player's, on the board only
    in their owner's turn; number tiles held never exceed the pool of 18 in value (8x1 + 2x5, A-H5, H-2);
    Mayors marks are permanent; location and bonus tiles never come back, a bonus tile taken this turn is held;
    the terrain cards are conserved (25, or 30 with Marshlands: M-4; the Scouts set-up's cards are in the removed
    pile). With the Island: its location hex hands out at most its 2 tiles (EN 1443), each holder has a piece next
    to it (X-6) and no piece stands on it, island Mayors marks are permanent. Every ruleset: the fields of an
    expansion not in play stay zero, so the checks hold there too."""
    st, n = game.state, game.num_players
    for p in range(n):
        reserve = int(st[S.TEMPLE_RESERVE + p])
        assert reserve >= 0 and game.supply(p) >= 0
        assert len(game.settlements(p)) + game.supply(p) + reserve + marks(game, p) == S.SETTLEMENTS_PER_PLAYER, \
            f"player {p}: board + supply + temple reserve + mayors marks != 40"
        assert 0 <= int(st[S.NUMBER_TILES + p]), f"player {p}: negative number tiles"
    assert int(st[S.NUMBER_TILES : S.NUMBER_TILES + n].sum()) <= CAT.NUMBER_TILE_POOL, "number tiles: pool of 18"
    assert int(st[S.NUMBER_TILE_MODE]) in (0, 1)
    if st[S.NUMBER_TILE_MODE]:  # the Cathedral's builds, or a Canoe reaction to one of them (its frame saved)
        cathedral = int(st[S.POWER]) == CAT.POWER_CODE["cathedral"] and game.phase in ("choose_target", "step")
        assert cathedral or st[S.FRAME_DEPTH] > 0, "number tiles are returned only within the Cathedral"
    scout_hexes = {hex_rc(h) for h in hexes_of(st[S.SCOUTS : S.SCOUTS + WORDS])}
    assert len(scout_hexes) <= 2, "2 scout tiles (EN 1245)"
    owned = [game.own_hexes(p) for p in range(n)]
    assert not scout_hexes & set().union(*owned), "a scout is nobody's settlement"
    assert scout_hexes <= game.closed(), "a scout closes its hex"
    turn = (game.turn, game.current_player)
    if history.get("turn") != turn:  # a new turn: the last one's scouts, farm action and Rovers sections are gone
        if "turn" in history and not game.done and game.phase != "silo":
            assert not scout_hexes, "scouts leave the board at the end of the turn (EN 1331)"
            assert not int(st[S.ROVER_SECTIONS])
        history["turn"] = turn
    for q in range(n):
        if q != game.current_player:
            assert not st[S.FARMLAND_USED + q], "only the turn owner may have taken the farm action"
    for r in range(20):
        mark = int(st[S.MAYOR_LINES + r])
        assert mark == history.get(("mayor", r), mark) or history.get(("mayor", r), 0) == 0, "marks are permanent"
        history[("mayor", r)] = mark
    assert sum(map(len, owned)) == len(set().union(*owned)) and set().union(*owned) <= game.occupied(), \
        "no hex holds two players' pieces"
    check_location_tiles(game, history)
    for t in range(S.NUM_BONUS_TYPES):
        left = int(st[S.BONUS_LEFT + t])
        held = sum(int(st[S.BONUS_HELD + p]) >> t & 1 for p in range(n))
        assert 0 <= left and left + held <= CAT.BONUS_TILES_PER_TYPE, "2 bonus tiles per type (M-7)"
        assert left <= history.get(("bonus", t), left), "bonus tiles never return to the summary card"
        history[("bonus", t)] = left
    for p in range(n):
        assert int(st[S.BONUS_FRESH + p]) & ~int(st[S.BONUS_HELD + p]) == 0, "fresh = held"
    hands = sum(len(game.hand_cards(p)) for p in range(n)) + (game.fort_card() is not None)
    cards = game.deck_size() + len(game.discard_pile()) + len(game.removed_cards()) + hands
    assert cards == (30 if "marshlands" in game.expansions else 25), "the terrain cards are conserved"
    st = game.state
    assert 0 <= int(st[S.ISLAND_LOC_TILES]) <= 2
    holders = [p for p in range(game.num_players) if int(st[S.TILES_HELD + p]) >> S.MAX_LOCATIONS & 1]
    assert int(st[S.ISLAND_LOC_TILES]) + len(holders) <= 2, "the island's location hands out its 2 tiles at most"
    if st[S.ISLAND_LOC_AT] > 0:
        loc = hex_rc(int(st[S.ISLAND_LOC_AT]) - 1)
        assert not any(loc in game.own_hexes(p) for p in range(game.num_players)), "no piece on the location hex"
        for p in holders:
            assert game.own_hexes(p) & island_neighbours(loc), f"player {p} holds the island tile, nothing next to it"
    for r, mark in enumerate(island_marks(game)):
        assert history.get(("island mayor", r), 0) in (0, mark), "island Mayors marks are permanent"
        history[("island mayor", r)] = mark


def island_neighbours(rc: tuple[int, int]) -> set[tuple[int, int]]:
    """Odd-r neighbours of an extended island hex inside the island (A-QI2: island hexes neighbour only island
    hexes; the island's own line numbers, line 0 even)."""
    r, c = rc[0] - ROWS, rc[1]
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return {(ROWS + a, b) for a, b in cand if 0 <= a < ISLAND_ROWS and 0 <= b < ISLAND_COLS}


# Targets of the decisions whose rule is "a free hex of terrain X, next to own settlements if possible" (base rule 3,
# EN 276-284; QI-1: the island's hexes of X are options when no adjacent one is free), checked in Island-alone games.
BUILD_TERRAIN = {"oracle": None, "farm": "G", "oasis": "D", "barn": None, "harbor": "W", "rope_bridge": "C",
                 "tree_house": "T", "tower": "GCDFT"}  # None: the played terrain card (EN 288)
MOVES = {"barn", "harbor", "rope_bridge", "tree_house"}


def hex_action(rc: tuple[int, int]) -> int:
    """The action id of a hex: r * 20 + c on the board, ISLAND_ACTION_BASE + 4 r + c on the island."""
    r, c = rc
    return r * 20 + c if r < ROWS else CAT.ISLAND_ACTION_BASE + ISLAND_COLS * (r - ROWS) + c


def expected_targets(game: Game, terrains: str, lifted=None, edge: bool = False) -> set[int]:
    """Free hexes of `terrains` (board and island; on the board's edge only for the Tower, A-QI3), those next to the
    player's settlements (without a settlement being moved) if any, as action ids."""
    rows = list(game.board) + list(game.setup.island[1])
    codes = {TERRAIN_LETTERS.index(t) for t in terrains}
    taken = game.occupied()
    free = {(r, c) for r, row in enumerate(rows) for c in range(len(row))
            if (r, c) not in taken and terrain(rows, (r, c)) in codes}
    if edge:
        free = {(r, c) for r, c in free if r < ROWS and (r in (0, ROWS - 1) or c in (0, 19))}
    own = game.settlements(game.current_player) - {lifted}
    near = {h for h in free if neighbours(h) & own}
    return {hex_action(h) for h in (near or free)}


def check_targets(game: Game) -> None:
    """The mandatory action's hexes and the targets of Oracle, Farm, Oasis, Tower, Barn, Harbor, Rope bridge and
    Tree house equal expected_targets (an Island-alone game)."""
    mask = game.legal_mask()
    offered = {a for a in np.flatnonzero(mask).tolist() if a < 400 or a in ISLAND_HEX_ACTIONS}
    card = game.hand(game.current_player)
    if game.phase in ("idle", "mandatory"):
        wanted = expected_targets(game, card)
        assert offered == wanted or (game.phase == "idle" and not offered), (game.phase, offered ^ wanted)
    elif game.phase == "choose_target":
        power = CAT.POWER_NAMES[int(game.state[S.POWER])]
        if power in BUILD_TERRAIN:
            lifted = hex_rc(int(game.state[S.SOURCE])) if power in MOVES else None
            wanted = expected_targets(game, BUILD_TERRAIN[power] or card, lifted, edge=power == "tower")
            assert offered == wanted, (power, offered ^ wanted)


def canonical(game: Game | np.ndarray) -> np.ndarray:
    """The state (of a Game, or a state row) without scratch space and without the slots that hold no information,
    the fields after the scratch masks (Harvest, the Island) included."""
    st = (game.state if isinstance(game, Game) else game).copy()
    piles = ((S.DECK, S.DECK_COUNT), (S.DISCARD, S.DISCARD_COUNT), (S.REMOVED, S.REMOVED_COUNT))
    size = S.DECK_SIZE
    if st[S.EXPANSIONS] & CAT.MARSHLANDS:  # a Marshlands game keeps its piles of 30 in the appended fields
        piles = ((S.MARSH_DECK, S.DECK_COUNT), (S.MARSH_DISCARD, S.DISCARD_COUNT), (S.MARSH_REMOVED, S.REMOVED_COUNT))
        size = S.MARSH_PILE_SIZE
    for off, count in piles:
        st[off + int(st[count]) : off + size] = 0  # cards already drawn or reshuffled away
    st[S.MANDATORY_HEXES + int(st[S.MANDATORY_BUILT]) : S.MANDATORY_HEXES + 3] = 0  # builds of earlier turns
    return np.concatenate([st[: S.SCRATCH], st[S.SCRATCH_END :]])


# ----- seeded games standing at a particular decision ------------------------------------------------------------
@lru_cache(maxsize=1)
def silo_line() -> tuple[int, tuple[int, ...]]:
    """(seed, decisions) of the first seeded random 2-player Harvest game whose silo end phase (H-5) passes from one
    silo player to the other, up to its first silo decision."""
    for seed in range(60):
        g = Game.new(2, seed=seed, expansions=HARVEST)
        rng = np.random.default_rng(seed)
        start, deciders = None, set()
        while not g.done:
            if g.phase == "silo":
                start = len(g.actions) if start is None else start
                deciders.add(g.decider)
            legal = g.legal_actions()
            g.step(legal[rng.integers(len(legal))])
        if len(deciders) == 2:
            return seed, tuple(g.actions[:start])
    raise AssertionError("no silo phase of both players in 60 random games")


@lru_cache(maxsize=1)
def reaction_line() -> tuple[int, tuple[int, ...]]:
    """(seed, decisions) of the first seeded random 2-player Marshlands game with a Canoe reaction, up to it."""
    for seed in range(200):
        g = Game.new(2, seed=seed, expansions=MARSH)
        rng = np.random.default_rng(seed)
        while not g.done:
            if g.decider != g.current_player:
                return seed, tuple(g.actions)
            legal = g.legal_actions()
            g.step(legal[rng.integers(len(legal))])
    raise AssertionError("no Canoe reaction in 200 random games")


def reaction_game() -> tuple[Game, tuple[int, ...]]:
    """A 2-player Marshlands game standing at a Canoe reaction (the reactor is not the turn owner), and the
    decisions to it."""
    seed, line = reaction_line()
    g = Game.new(2, seed=seed, expansions=MARSH)
    for a in line:
        g.step(a)
    return g, line
