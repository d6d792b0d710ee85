"""Issue 23 part 2: Island position files round-trip, as tests/test_harvest_roundtrip.py checks for Harvest. At
random points of random Island games (the Island alone on either shipped side and on a side loaded from a file,
with each island rule flag, with the other expansions one by one and all seven together) the full state is written
with `Game.to_position()`, passed through JSON text and read back: the same legal decisions, decider and phase, the
same scores, the same state (up to slots that hold nothing; the Island block after the scratch masks included,
tests/harvest_games.canonical) and the same future. The island's mid-turn states (a Rope bridge / Tree house move
with its settlement chosen or not yet, the island tile fresh or used this turn, a mandatory action half built on the
island, with Harvest Mayors marks on island lines and the Rovers record of a turn with an island build, a Canoe
reaction with Marshlands) are each met in biased random games and round-trip.
"""

from __future__ import annotations

import json
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.geometry import NUM_HEXES, ROWS
from kbenv.engine import state as S
from kbenv.engine.island.rules import ISLAND_TILE
from tests import roundtrip_checks
from tests.harvest_games import canonical
from tests.island_games import (
    ALL,
    CARDS,
    HARVEST_CARDS,
    ISLAND,
    SIDES,
    island_game,
    island_marks,
    pick,
    play_until,
)
from tests.roundtrip_checks import reread

# A real side loaded from a file (kbenv.board.island_files format), named after the file: a layout of our own.
SIDE_FILE = """# island: a side of our own for the round trip
# location: 2,2 tree_house
GCFT
DTCG
FCLW
TGDC
MFTG
"""


@pytest.fixture(scope="module")
def side_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("island") / "own-side.txt"
    path.write_text(SIDE_FILE)
    return str(path)


RULESETS = [
    {"num_players": 2, "expansions": ISLAND, "side": SIDES[0]},
    {"num_players": 3, "expansions": ISLAND, "side": SIDES[1], "cards": CARDS[0]},
    {"num_players": 4, "expansions": ISLAND, "side": "file", "cards": CARDS[1]},
    {"num_players": 5, "expansions": ISLAND, "cards": CARDS[0], "rules": ["no_island_knights"]},
    {"num_players": 3, "expansions": ISLAND, "side": SIDES[1], "cards": CARDS[0], "rules": ["island_coast_not_water"]},
    {"num_players": 2, "expansions": ISLAND, "side": "file", "rules": ["no_island_knights", "island_coast_not_water"]},
    {"num_players": 3, "expansions": ["nomads", "island"]},
    {"num_players": 4, "expansions": ["crossroads", "island"], "side": SIDES[0]},
    {"num_players": 3, "expansions": ["marshlands", "island"], "side": SIDES[1]},
    {"num_players": 2, "expansions": ["capitol", "caves", "island"]},
    {"num_players": 4, "expansions": ["harvest", "island"], "cards": HARVEST_CARDS[0]},
    {"num_players": 3, "expansions": ["harvest", "island"], "cards": HARVEST_CARDS[1]},
    {"num_players": 3, "expansions": ALL, "side": "file", "cards": HARVEST_CARDS[0]},
    {"num_players": 5, "expansions": ALL, "rules": ["island_coast_not_water"]},
]


def new_game(ruleset: dict, seed: int, side_file: str) -> Game:
    side = ruleset.get("side")
    return island_game(ruleset["num_players"], seed, ruleset["expansions"], side_file if side == "file" else side,
                       ruleset.get("cards"), ruleset.get("rules"))


def biased(game: Game, rng: np.random.Generator) -> int:
    """A random decision biased towards the expansion's own (pick, bias 0.5)."""
    return pick(game, rng, 0.5)


play = partial(roundtrip_checks.play, choose=biased)
assert_same_future = partial(roundtrip_checks.assert_same_future, canonical=canonical, choose=biased)


def test_the_position_names_the_side_and_writes_island_hexes(side_file):
    """IA2, IA5, IA10: the position's "island" holds the side's name (a loaded file: its stem), its 5 lines with `L`
    and the location's type; island settlements are written ["island", r, c]; reading it back keeps all of it."""
    game = island_game(2, 5, ISLAND, side_file)
    rng = np.random.default_rng(5)
    assert play_until(game, rng, lambda g: any(r >= ROWS for p in range(2) for r, _ in g.settlements(p)), bias=0.9)
    position = json.loads(json.dumps(game.to_position()))
    assert position["island"] == {"board": ["GCFT", "DTCG", "FCLW", "TGDC", "MFTG"], "side": "own-side",
                                  "locations": {"2,2": "tree_house"}}
    on_island = [h for own in position["settlements"] for h in own if h[0] == "island"]
    assert on_island and all(len(h) == 3 and 0 <= h[1] < 5 and 0 <= h[2] < 4 for h in on_island)
    assert json.loads(json.dumps(reread(game).to_position())) == position


@settings(max_examples=20, deadline=None, derandomize=True)
@given(k=st.integers(0, len(RULESETS) - 1), seed=st.integers(0, 2**32 - 1), fraction=st.floats(0, 1),
       play_seed=st.integers(0, 2**32 - 1))
def test_any_decision_of_every_island_ruleset_round_trips(side_file, k, seed, fraction, play_seed):
    ruleset = RULESETS[k]
    length = len(play(new_game(ruleset, seed, side_file), np.random.default_rng(play_seed), 10_000).actions)
    original = play(new_game(ruleset, seed, side_file), np.random.default_rng(play_seed), int(fraction * length))
    rebuilt = reread(original)
    np.testing.assert_array_equal(rebuilt.legal_mask(), original.legal_mask())
    assert (rebuilt.decider, rebuilt.phase) == (original.decider, original.phase)
    assert_same_future(original, rebuilt, np.random.default_rng(play_seed + 1))


@pytest.mark.parametrize("k", range(len(RULESETS)))
def test_every_island_ruleset_round_trips_at_seeded_points(side_file, k):
    """Each ruleset of the list for sure (the test above samples them): one seeded game, written and read back
    at a quarter, half and three quarters of its decisions and just before its end."""
    ruleset = RULESETS[k]
    length = len(play(new_game(ruleset, 100 + k, side_file), np.random.default_rng(k), 10_000).actions)
    for at in (length // 4, length // 2, 3 * length // 4, length - 1):
        original = play(new_game(ruleset, 100 + k, side_file), np.random.default_rng(k), at)
        assert len(original.actions) == at and not original.done
        assert_same_future(original, reread(original), np.random.default_rng(at))


def island_power(g: Game) -> bool:
    return int(g.state[S.POWER]) in (CAT.POWER_CODE["rope_bridge"], CAT.POWER_CODE["tree_house"])


def on_island(g: Game) -> int:
    return sum(r >= ROWS for p in range(g.num_players) for r, _ in g.settlements(p))


def half_built_on_island(g: Game) -> bool:
    """The mandatory action goes on after a build on the island."""
    return g.phase == "mandatory" and bool(g.actions) and g.actions[-1] >= CAT.ISLAND_ACTION_BASE


def in_turn(g: Game) -> bool:
    return not g.done and g.phase not in ("silo", "game_over")


MID_TURN = {
    "a Rope bridge / Tree house source to choose": lambda g: g.phase == "choose_source" and island_power(g),
    "a Rope bridge / Tree house move with its settlement chosen": lambda g: g.phase == "choose_target"
    and island_power(g) and g.state[S.SOURCE] >= 0,
    "a Rope bridge / Tree house move from the island": lambda g: g.phase == "choose_target" and island_power(g)
    and g.state[S.SOURCE] >= NUM_HEXES,
    "the island tile taken this turn": lambda g: in_turn(g)
    and int(g.state[S.TILES_FRESH + g.current_player]) & ISLAND_TILE,
    "the island tile used this turn": lambda g: in_turn(g)
    and int(g.state[S.TILES_USED + g.current_player]) & ISLAND_TILE,
    "a mandatory action half built on the island": lambda g: half_built_on_island(g),
    "both island tiles held": lambda g: in_turn(g) and int(g.state[S.ISLAND_LOC_TILES]) == 0 and on_island(g) >= 3,
    "Mayors marks on island lines": lambda g: in_turn(g) and sum(v > 0 for v in island_marks(g)) >= 1,
    "a Canoe reaction": lambda g: g.phase == "reaction" and on_island(g) >= 2,
    "Rovers in play, a mandatory action half built on the island": lambda g: "rovers" in g.cards
    and half_built_on_island(g),
}
FROM_HISTORY = {name for name in MID_TURN if "half built" in name}  # read from the game's decisions
# Where each state is looked for: (players, expansions, cards); the default is the Island alone with CARDS[0].
SEARCH = {
    "Mayors marks on island lines": (2, ["harvest", "island"], ["mayors", "knights", "lords"]),
    "a Canoe reaction": (4, ["marshlands", "island"], None),
    "Rovers in play, a mandatory action half built on the island": (2, ["harvest", "island"],
                                                                    ["rovers", "knights", "lords"]),
}


@pytest.mark.parametrize("name", list(MID_TURN))
def test_island_mid_turn_states_round_trip(name):
    """Each island state is met in biased random games (the Island alone or as SEARCH says; every third game with
    all seven expansions) and round-trips."""
    wanted = MID_TURN[name]
    players, expansions, cards = SEARCH.get(name, (3, ISLAND, CARDS[0]))
    for seed in range(40):
        all_seven = seed % 3 == 0
        game = island_game(players + seed % 2, seed, ALL if all_seven else expansions, SIDES[seed % 3],
                           HARVEST_CARDS[0] if all_seven else cards)
        rng = np.random.default_rng(seed)
        if play_until(game, rng, wanted, bias=0.8):
            rebuilt = reread(game)
            assert wanted(rebuilt) or name in FROM_HISTORY  # a game read back has no history of decisions
            assert_same_future(game, rebuilt, rng)
            return
    pytest.fail(f"no state with {name} in 40 random games")
