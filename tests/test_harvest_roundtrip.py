"""Issue 22: Harvest position files round-trip, as tests/test_position_roundtrip_all.py checks for the other
rulesets. At random points of random Harvest games (Harvest alone, with each Harvest rule flag, with the other
expansions one by one and all together) the full state is written with `Game.to_position()`, passed through
JSON text and read back: the same legal decisions, decider and phase, the same scores, the same state (up to
slots that hold nothing; the Harvest fields after the scratch masks included, tests/harvest_games.canonical)
and the same future. The Harvest mid-turn states (the silo phase in each of its modes, a move's settlement
chosen, silo by silo; a Cathedral's take / return open and its builds under way; number tiles held; scouts on
the board; the Bazaar's choose_power; Mayors lines; Rovers sections of this turn; the farm action used) are
each met in biased random games and round-trip.
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
from kbenv.board.bitset import WORDS
from kbenv.engine import state as S
from kbenv.position import game_from_position
from tests import roundtrip_checks
from tests.harvest_games import ALL, CARDS, HARVEST, canonical, harvest_game, pick, play_until, scouts
from tests.roundtrip_checks import reread

RULESETS = [
    {"num_players": 2, "expansions": HARVEST},
    {"num_players": 3, "expansions": HARVEST, "sections": "harvest", "cards": CARDS[0]},
    {"num_players": 4, "expansions": HARVEST, "sections": "harvest2", "cards": CARDS[1],
     "rules": ["mayors_contiguous", "silos_count_as_special"]},
    {"num_players": 2, "expansions": HARVEST, "sections": "harvest", "cards": CARDS[2], "rules": ["silo_by_silo"]},
    {"num_players": 3, "expansions": HARVEST, "sections": "harvest2", "cards": CARDS[0],
     "rules": ["palisade_moves_lone_settlement", "bazaar_repeats_used_power_only"]},
    {"num_players": 5, "expansions": HARVEST, "sections": "harvest", "cards": CARDS[1],
     "rules": ["mayors_contiguous", "silo_by_silo", "bazaar_repeats_used_power_only"]},
    {"num_players": 3, "expansions": ["nomads", "harvest"]},
    {"num_players": 3, "expansions": ["crossroads", "harvest"]},
    {"num_players": 4, "expansions": ["marshlands", "harvest"]},
    {"num_players": 2, "expansions": ["capitol", "caves", "harvest"]},
    {"num_players": 4, "expansions": ALL, "sections": "all", "cards": CARDS[0]},
    {"num_players": 3, "expansions": ALL, "sections": "all2", "cards": CARDS[2],
     "rules": ["canoe_taker_reacts", "silo_by_silo", "palisade_moves_lone_settlement"]},
    {"num_players": 5, "expansions": ALL},
]


def new_game(ruleset: dict, seed: int) -> Game:
    return harvest_game(ruleset["num_players"], seed, ruleset["expansions"], ruleset.get("sections"),
                        ruleset.get("cards"), ruleset.get("rules"))


def biased(game: Game, rng: np.random.Generator) -> int:
    """A random decision biased towards the expansion's own (pick, bias 0.5)."""
    return pick(game, rng, 0.5)


play = partial(roundtrip_checks.play, choose=biased)
assert_same_future = partial(roundtrip_checks.assert_same_future, canonical=canonical)


@settings(max_examples=26, deadline=None, derandomize=True)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32 - 1), fraction=st.floats(0, 1),
       play_seed=st.integers(0, 2**32 - 1))
def test_any_decision_of_every_harvest_ruleset_round_trips(ruleset, seed, fraction, play_seed):
    length = len(play(new_game(ruleset, seed), np.random.default_rng(play_seed), 10_000).actions)
    original = play(new_game(ruleset, seed), np.random.default_rng(play_seed), int(fraction * length))
    rebuilt = reread(original)
    np.testing.assert_array_equal(rebuilt.legal_mask(), original.legal_mask())
    assert (rebuilt.decider, rebuilt.phase) == (original.decider, original.phase)
    assert_same_future(original, rebuilt, np.random.default_rng(play_seed + 1))


@pytest.mark.parametrize("k", range(len(RULESETS)))
def test_every_harvest_ruleset_round_trips_at_seeded_points(k):
    """Each ruleset of the list for sure (the test above samples them): one seeded game, written and read back
    at a quarter, half and three quarters of its decisions and just before its end."""
    ruleset = RULESETS[k]
    length = len(play(new_game(ruleset, 100 + k), np.random.default_rng(k), 10_000).actions)
    for at in (length // 4, length // 2, 3 * length // 4, length - 1):
        original = play(new_game(ruleset, 100 + k), np.random.default_rng(k), at)
        assert len(original.actions) == at and not original.done
        assert_same_future(original, reread(original), np.random.default_rng(at))


def silo(game: Game, mode: int) -> bool:
    return game.phase == "silo" and int(game.state[S.SILO_MODE]) == mode


def in_turn(game: Game) -> bool:
    return not game.done and game.phase not in ("silo", "game_over")


MID_TURN = {
    "the silo phase, build / move / done to choose": lambda g: silo(g, 0) and g.state[S.SILO_AT] > 0,
    "the silo phase, building": lambda g: silo(g, 1),
    "the silo phase, moving with the settlement chosen": lambda g: silo(g, 2) and g.phase == "silo"
    and g.state[S.SOURCE] >= 0 and g.state[S.SILO_STEPS] > 0,
    "the silo phase, silo by silo": lambda g: g.phase == "silo" and g.state[S.RULE_FLAGS] & CAT.RULE_BIT[
        "silo_by_silo"] and g.state[S.SILO_STEPS] > 0,
    "the silo phase with silos still to come": lambda g: g.phase == "silo" and g.state[S.SILO_LEFT : S.SILO_LEFT
                                                                                      + WORDS].any(),
    "a Cathedral's take / return open": lambda g: g.phase == "choose_target" and g.state[S.POWER] == CAT.POWER_CODE[
        "cathedral"] and not g.state[S.NUMBER_TILE_MODE],
    "a Cathedral's return builds under way": lambda g: g.phase == "step" and g.state[S.NUMBER_TILE_MODE] == 1,
    "number tiles held": lambda g: in_turn(g) and g.state[S.NUMBER_TILES + g.current_player] >= 2,
    "two scouts on the board": lambda g: in_turn(g) and scouts(g) == 2,
    "the Bazaar's choose_power": lambda g: g.phase == "choose_power",
    "Mayors lines marked": lambda g: in_turn(g) and sum(g.state[S.MAYOR_LINES : S.MAYOR_LINES + 20] > 0) >= 2,
    "Rovers sections of this turn": lambda g: in_turn(g) and bin(int(g.state[S.ROVER_SECTIONS])).count("1") >= 2,
    "the farm action used this turn": lambda g: in_turn(g) and g.state[S.FARMLAND_USED + g.current_player] == 1,
}
# Where each state is looked for: (players, expansions, sections, cards, rules); the default is below.
SEARCH = {
    "the silo phase, silo by silo": (2, HARVEST, "harvest", CARDS[2], ["silo_by_silo"]),
    "the silo phase with silos still to come": (3, HARVEST, "harvest", CARDS[1], ["silo_by_silo"]),
    "Mayors lines marked": (2, HARVEST, "harvest", CARDS[0], None),
    "Rovers sections of this turn": (3, HARVEST, "harvest2", CARDS[2], None),
}


@pytest.mark.parametrize("name", list(MID_TURN))
def test_harvest_mid_turn_states_round_trip(name):
    """Each Harvest state is met in biased random games (Harvest alone, or all expansions) and round-trips."""
    wanted = MID_TURN[name]
    players, expansions, sections, cards, rules = SEARCH.get(name, (3, HARVEST, "harvest", CARDS[0], None))
    for seed in range(40):
        game = harvest_game(players + seed % 2, seed, expansions if seed % 3 else ALL,
                            sections if seed % 3 else "all", cards, rules)
        rng = np.random.default_rng(seed)
        if play_until(game, rng, wanted):
            rebuilt = reread(game)
            assert wanted(rebuilt)
            assert_same_future(game, rebuilt, rng)
            return
    pytest.fail(f"no state with {name} in 40 random games")


def test_a_canoe_reaction_inside_a_cathedrals_builds_round_trips():
    """A Cathedral build that takes a location's last tile opens a Canoe reaction (Marshlands, A-M5) while the
    number tiles are being returned: the position keeps `number_tiles_returning` beside the reaction's frames, and
    the Cathedral goes on after the reaction (rare in random games: about 1 in 80 biased 4-5 player games)."""

    def wanted(g: Game) -> bool:
        return g.phase == "reaction" and g.state[S.NUMBER_TILE_MODE] == 1

    for seed in range(60, 140):
        game = harvest_game(4 + seed % 2, seed, ALL, "all", CARDS[seed % 3])
        rng = np.random.default_rng(seed)
        if play_until(game, rng, wanted, bias=0.8):
            position = json.loads(json.dumps(game.to_position()))
            assert position["decision"]["number_tiles_returning"] is True
            assert [f["power"] for f in position["decision"]["frames"]] == ["cathedral"]
            rebuilt = game_from_position(position)
            assert wanted(rebuilt)
            assert_same_future(game, rebuilt, rng)
            return
    pytest.fail("no Canoe reaction inside a Cathedral's builds in 80 random games")
