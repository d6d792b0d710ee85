"""Random Island games for the Island property suite and position round trips (tests/test_island_properties.py,
tests/test_island_roundtrip.py): set-ups with either shipped island side (or the seeded choice), a random policy
biased towards the island (its hex actions 458..477, the Rope bridge and the Tree house), a tally of what happened
on the island, and the conservation check (tests/harvest_games.check_conservation, whose Mayors marks count the
island's lines too, plus the island's own invariants).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.codes import CASTLE, LOCATION, MOUNTAIN, TERRAIN_LETTERS, WATER, decode_hex_code
from kbenv.board.geometry import ISLAND_COLS, ISLAND_ROWS, ROWS, hex_rc
from kbenv.engine import state as S
from tests.biased_play import biased_pick, biased_play_until
from tests.harvest_games import check_conservation as check_harvest_conservation

ISLAND = ["island"]
# The Island with each expansion whose rules meet it, and all seven together.
WITH = {"nomads": ["nomads", "island"], "crossroads": ["crossroads", "island"],
        "marshlands": ["marshlands", "island"], "harvest": ["harvest", "island"]}
ALL = ["nomads", "capitol", "caves", "crossroads", "marshlands", "harvest", "island"]
SIDES = ("island-substitute-1", "island-substitute-2", None)  # None: the seeded choice (A-QI5)
# Cards whose scoring the island changes (QI-2): Discoverers and Knights read its lines, Fishermen its coast (A-QI2),
# Lords and Farmers ignore it, Hermits / Citizens / Miners / Workers see its areas, mountains and location hex; Mayors
# (Harvest) marks its lines (A-QI4).
CARDS = (["discoverers", "knights", "fishermen"], ["lords", "farmers", "knights"], ["hermits", "citizens", "miners"],
         ["workers", "farmers", "fishermen"], None)
HARVEST_CARDS = (["mayors", "discoverers", "knights"], ["rovers", "mayors", "fishermen"], None)
RULE_FLAGS = [None, ["no_island_knights"], ["island_coast_not_water"], ["no_island_knights", "island_coast_not_water"]]
ISLAND_HEX_ACTIONS = range(CAT.ISLAND_ACTION_BASE, CAT.ISLAND_ACTION_BASE + 20)
ROPE_BRIDGE, TREE_HOUSE = CAT.ACTION_ID["rope_bridge"], CAT.ACTION_ID["tree_house"]
PREFERRED = {*ISLAND_HEX_ACTIONS, ROPE_BRIDGE, TREE_HOUSE}


def island_game(players: int, seed: int, expansions=ISLAND, side: str | None = None, cards=None,
                rules=None) -> Game:
    """A random set-up with the island (`side` None: the seeded choice)."""
    return Game.new(players, seed=seed, expansions=list(expansions), cards=cards, rules=rules, island_side=side)


def pick(game: Game, rng: np.random.Generator, bias: float) -> int:
    """A random legal action; with probability `bias` an island hex or an island power when one is legal."""
    return biased_pick(game, rng, bias, PREFERRED)


def play_until(game: Game, rng: np.random.Generator, wanted: Callable[[Game], bool], bias: float = 0.6,
               limit: int = 5000) -> bool:
    """Play biased random decisions until `wanted(game)` or the end; whether `wanted` holds."""
    return biased_play_until(game, rng, wanted, PREFERRED, bias, limit)


def island_hexes(game: Game, p: int) -> set[tuple[int, int]]:
    """p's settlements on the island (extended (ROWS + r, c) hexes)."""
    return {rc for rc in game.settlements(p) if rc[0] >= ROWS}


def island_marks(game: Game) -> list[int]:
    return [int(v) for v in game.state[S.ISLAND_MAYOR_LINES : S.ISLAND_MAYOR_LINES + ISLAND_ROWS]]


class Tally:
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


def check_conservation(game: Game, history: dict) -> None:
    """tests/harvest_games.check_conservation (board + island settlements + supply + reserves + Mayors marks = 40
    per player, tiles, scouts, cards), and the island's own: its location hex hands out at most its 2 tiles (EN
    1443), each holder has a piece next to it (X-6) and no piece stands on it, island Mayors marks are
    permanent."""
    check_harvest_conservation(game, history)
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
