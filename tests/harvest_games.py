"""Random Harvest games for the Harvest property suite and position round trips (tests/test_harvest_properties.py,
tests/test_harvest_roundtrip.py): set-ups that deal the substitute Harvest sections (two location types each,
so the four of them hold all eight), a random policy biased towards the Harvest decisions, a tally of the
Harvest decisions that occur, the pieces-and-tiles conservation check, and the state comparison of a
position round trip (the Harvest fields sit after the scratch masks, so they are compared too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.bitset import WORDS, hexes_of
from kbenv.board.geometry import NUM_HEXES, hex_rc
from kbenv.engine import state as S
from tests.biased_play import biased_pick, biased_play_until

HARVEST = ["harvest"]
# All expansions built so far, with Harvest (the brief's nomads, crossroads, marshlands, harvest, and the
# Queenies Capitol and Caves).
ALL = ["nomads", "capitol", "caves", "crossroads", "marshlands", "harvest"]
HARVEST_TYPES = CAT.HARVEST_TYPES  # bazaar, water_mill, mountain_station, scout_cabin, cathedral, ...
H1, H2, H3, H4 = ((f"harvest-substitute-{k}", flip) for k, flip in ((1, False), (2, True), (3, False), (4, True)))
SECTIONS = {
    "harvest": [H1, H2, H3, H4],  # all eight Harvest location types
    "harvest2": [H3, H1, H4, H2],
    # Two Harvest sections with a Marshlands and a Nomads / Crossroads section, so that the Harvest rules meet the
    # others (canoe reactions, bonus tiles, nomad tiles, warriors and walls); "all2" holds the other four types.
    "all": [H1, ("marsh-substitute-1", False), H3, ("quarry", True)],
    "all2": [("marsh-substitute-3", True), H2, ("barracks", False), H4],
}
CARDS = (["mayors", "rovers", "fishermen"], ["mayors", "chainers", "knights"], ["rovers", "travellers", "lords"],
         None)
RULE_FLAGS = [None, ["mayors_contiguous"], ["silos_count_as_special"], ["silo_by_silo"],
              ["palisade_moves_lone_settlement"], ["bazaar_repeats_used_power_only"]]
OPTION_1, OPTION_2, DONE = CAT.ACTION_ID["option-1"], CAT.ACTION_ID["option-2"], CAT.DONE
FARMLAND = CAT.ACTION_ID["farmland"]
POWER_ACTIONS = {CAT.ACTION_ID[name]: name for name in HARVEST_TYPES}
PREFERRED = {*POWER_ACTIONS, FARMLAND, OPTION_1, OPTION_2, CAT.ACTION_ID["canoe"], CAT.ACTION_ID["fort"],
             CAT.ACTION_ID["quarry"]}


def pick(game: Game, rng: np.random.Generator, bias: float) -> int:
    """A random legal action; with probability `bias` a Harvest power, the farm action or a take/return,
    build/move choice when one is legal."""
    return biased_pick(game, rng, bias, PREFERRED)


def harvest_game(players: int, seed: int, expansions=HARVEST, sections: str | None = "harvest", cards=None,
                 rules=None) -> Game:
    return Game.new(players, seed=seed, expansions=expansions, rules=rules, cards=cards,
                    sections=SECTIONS[sections] if sections else None)


def play_until(game: Game, rng: np.random.Generator, wanted: Callable[[Game], bool], bias: float = 0.6,
               limit: int = 5000) -> bool:
    """Play biased random decisions until `wanted(game)` or the end; whether `wanted` holds."""
    return biased_play_until(game, rng, wanted, PREFERRED, bias, limit)


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


class Tally:
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


def check_conservation(game: Game, history: dict) -> None:
    """Pieces and tiles are conserved (checked after every decision): settlements on the board + supply +
    Temple reserve + Mayors marks = 40 per player (A-H7: a mark takes a settlement from the supply; silo builds
    come from the supply); at most the 2 shared scouts (EN 1245), closed hexes of no player's, on the board only
    in their owner's turn; number tiles held never exceed the pool of 18 in value (8x1 + 2x5, A-H5, H-2);
    Mayors marks are permanent; location and bonus tiles never come back; the terrain cards are conserved."""
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
    for loc in game.location_hexes():
        holders = sum(any(rc == loc for _, rc in game.tiles(p)) for p in range(n))
        left = game.tiles_left(loc)
        assert left + holders <= 2, "a location hex hands out at most its 2 tiles"
        assert left <= history.get(loc, left), "tiles never return to a location hex"
        history[loc] = left
    for t in range(S.NUM_BONUS_TYPES):
        left = int(st[S.BONUS_LEFT + t])
        held = sum(int(st[S.BONUS_HELD + p]) >> t & 1 for p in range(n))
        assert 0 <= left and left + held <= CAT.BONUS_TILES_PER_TYPE, "2 bonus tiles per type (M-7)"
    hands = sum(len(game.hand_cards(p)) for p in range(n)) + (game.fort_card() is not None)
    cards = game.deck_size() + len(game.discard_pile()) + len(game.removed_cards()) + hands
    assert cards == (30 if "marshlands" in game.expansions else 25), "the terrain cards are conserved"


def canonical(game: Game | np.ndarray) -> np.ndarray:
    """The state (of a Game, or a state row) without scratch space and without the slots that hold no information
    (as tests/test_position_roundtrip.canonical), the Harvest fields after the scratch masks included."""
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
