"""Issue 21: position files follow the ruleset. At random points of random games of every ruleset (the base
game, each expansion, Marshlands with each rule flag, all expansions together) the full state is written as a
position file, passed through JSON text and read back: the same legal decisions, the same scores, the same
state (up to slots that hold nothing, tests/test_position_roundtrip.canonical) and the same future. The
Marshlands mid-turn states (a Canoe reaction with its frames, a Temple reserve owed, a swamp card's chosen
terrain, bonus tiles fresh and used, the Scouts' removed terrain), a swamp card drawn by the Fort, pieces on
swamp and settlements on mountains (Nomads Donation, the Fountain bonus) are each met and round-trip."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kbenv import Game
from kbenv.board.codes import MOUNTAIN, SWAMP, TERRAIN_LETTERS
from kbenv.board.geometry import hex_id
from kbenv.engine import state as S
from kbenv.position import game_from_position
from tests.marsh_games import ALL, MARSH, marsh_game, play_until
from tests.roundtrip_checks import play, reread
from tests.test_position_roundtrip import assert_same_future

RULESETS = [
    {"num_players": 2}, {"num_players": 5},
    {"num_players": 3, "expansions": ["nomads"]},
    {"num_players": 4, "expansions": ["capitol"]},
    {"num_players": 2, "expansions": ["caves"]},
    {"num_players": 3, "expansions": ["crossroads"]},
    {"num_players": 2, "expansions": MARSH},
    {"num_players": 3, "expansions": MARSH, "rules": ["bonus_kept_after_tile_loss", "canoe_taker_reacts"]},
    {"num_players": 4, "expansions": MARSH, "rules": ["scouts_keep_dealt_hands", "vassals_count_outer_edge"]},
    {"num_players": 5, "expansions": MARSH, "sections": "marsh"},
    {"num_players": 3, "expansions": ["nomads", "marshlands"], "sections": None},
    {"num_players": 4, "expansions": ["crossroads", "marshlands"], "sections": None},
    {"num_players": 4, "expansions": ALL, "sections": "all"},
    {"num_players": 3, "expansions": ALL, "sections": "all2", "rules": ["canoe_taker_reacts"]},
    {"num_players": 5, "expansions": ALL},
]


def new_game(ruleset: dict, seed: int) -> Game:
    if "sections" in ruleset:
        return marsh_game(ruleset["num_players"], seed, ruleset["expansions"], ruleset["sections"],
                          rules=ruleset.get("rules"))
    return Game.new(seed=seed, **ruleset)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32 - 1), fraction=st.floats(0, 1),
       play_seed=st.integers(0, 2**32 - 1))
def test_any_decision_of_every_ruleset_round_trips(ruleset, seed, fraction, play_seed):
    length = len(play(new_game(ruleset, seed), np.random.default_rng(play_seed), 10_000).actions)
    original = play(new_game(ruleset, seed), np.random.default_rng(play_seed), int(fraction * length))
    rebuilt = reread(original)
    np.testing.assert_array_equal(rebuilt.legal_mask(), original.legal_mask())
    assert (rebuilt.decider, rebuilt.phase) == (original.decider, original.phase)
    assert_same_future(original, rebuilt, np.random.default_rng(play_seed + 1))


def on_terrain(game: Game, terrain: int, hexes) -> bool:
    view = game.state[S.terrain_off(terrain) : S.terrain_off(terrain) + S.WORDS]
    return any(int(view[hex_id(*rc) // 64]) >> (hex_id(*rc) % 64) & 1 for rc in hexes)


def pieces_on(game: Game, terrain: int) -> bool:
    cells = set(game.walls())
    for p in range(game.num_players):
        cells |= game.own_hexes(p) - game.settlements(p)
    return on_terrain(game, terrain, cells)


def settlements_on(game: Game, terrain: int) -> bool:
    return on_terrain(game, terrain, set().union(*(game.settlements(p) for p in range(game.num_players))))


MID_TURN = {
    "a Canoe reaction asked (frames)": lambda g: g.phase == "reaction",
    "a canoe build being resolved": lambda g: g.state[S.FRAME_DEPTH] > 0 and g.phase == "choose_target",
    "a Temple reserve owed this turn": lambda g: g.state[S.TEMPLE_OWED] > 0,
    "a Temple reserve set aside for next turn": lambda g: g.state[S.TEMPLE_RESERVE + g.current_player] > 0
    and g.phase == "idle",
    "a swamp card's choice of swamp mid-turn": lambda g: g.state[S.TERRAIN_FIXED]
    and g.state[S.TURN_TERRAIN] == SWAMP and g.phase in ("mandatory", "idle") and not g.done,
    "a bonus tile taken this turn": lambda g: any(g.state[S.BONUS_FRESH + p] for p in range(g.num_players)),
    "a bonus tile used this turn": lambda g: any(g.state[S.BONUS_USED + p] for p in range(g.num_players)),
    "the Scouts' removed terrain": lambda g: g.state[S.REMOVED_TERRAIN] > 0 and g.turn > 3,
    "a swamp card drawn by the Fort": lambda g: g.state[S.FORT_CARD] >= len("GCDFT"),
    "pieces (walls, warriors, wagon, city hall) on swamp": lambda g: pieces_on(g, SWAMP),
    "a settlement on a mountain": lambda g: settlements_on(g, MOUNTAIN),
}
# Where each state is looked for: (players, expansions, sections, cards).
SEARCH = {
    "the Scouts' removed terrain": (3, MARSH, "marsh", ["scouts", "fishermen", "lords"]),
    "a swamp card drawn by the Fort": (3, ["crossroads", "marshlands"], None, None),
    "pieces (walls, warriors, wagon, city hall) on swamp": (4, ALL, "all", None),
}


@pytest.mark.parametrize("name", list(MID_TURN))
def test_marshlands_mid_turn_states_round_trip(name):
    """Each Marshlands state is met in biased random games (Marshlands or all expansions) and round-trips."""
    wanted = MID_TURN[name]
    players, expansions, sections, cards = SEARCH.get(name, (3, ALL, "all2", None))
    for seed in range(60):
        game = marsh_game(players + seed % 2, seed, expansions if seed % 3 else MARSH,
                          sections if seed % 3 else "marsh", cards)
        rng = np.random.default_rng(seed)
        if play_until(game, rng, wanted):
            rebuilt = reread(game)
            assert wanted(rebuilt)
            assert_same_future(game, rebuilt, rng)
            return
    pytest.fail(f"no state with {name} in 60 random games")


def test_nomads_positions_with_settlements_on_mountains_round_trip():
    """Issue 21: "position files of Nomads games refuse settlements on mountains ... although a Donation
    tile builds there". A Nomads game with a settlement on a mountain is written and read back."""
    for seed in range(80):
        game = Game.new(3, seed=seed, expansions=["nomads"])
        if play_until(game, np.random.default_rng(seed), lambda g: settlements_on(g, MOUNTAIN), bias=0):
            rebuilt = reread(game)
            assert rebuilt.settlements(0) == game.settlements(0) and settlements_on(rebuilt, MOUNTAIN)
            assert_same_future(game, rebuilt, np.random.default_rng(seed))
            return
    pytest.fail("no Nomads settlement on a mountain in 80 random games")


def test_a_hand_written_nomads_position_holds_a_settlement_on_a_mountain():
    board = ["M" * 20] + ["G" * 20] * 19
    pos = {"board": board, "expansions": ["nomads"], "cards": ["fishermen", "knights", "lords"],
           "settlements": [[[0, 4]], [[5, 5]]], "hands": ["G", "G"]}
    g = game_from_position(pos)
    assert g.settlements(0) == {(0, 4)}
    assert TERRAIN_LETTERS[MOUNTAIN] == "M"
    with pytest.raises(ValueError, match=r"settlements\[0\]: hex \[0, 4\] is mountain"):
        game_from_position({**pos, "expansions": []})
