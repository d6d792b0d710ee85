"""Issue 19 item 2: `Game.to_position()` writes every field a game's future depends on. A position written
at any decision of any ruleset, passed through JSON text and read back, gives a game with the same legal
decisions, the same scores and the same future (same random actions to the end: same masks at every
step, same final scores), and the same state array up to slots that hold nothing (the cards beyond the
draw, discard and removed piles, the mandatory-build hexes beyond those built this turn)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.engine import state as S
from kbenv.engine.init import DRAW_RNG
from kbenv.setup import seed_draws
from tests import roundtrip_checks
from tests.roundtrip_checks import play, reread

RULESETS = [
    {"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
    {"num_players": 3, "lords_count_zero": True},
    {"num_players": 3, "expansions": ["nomads"]},
    {"num_players": 4, "expansions": ["nomads"], "rules": ["nomad_spaces_not_special", "nomad_tile_next_turn"]},
    {"num_players": 3, "expansions": ["crossroads"]},
    {"num_players": 2, "expansions": ["crossroads"], "rules": ["zone_blocks_settlements_only"]},
    {"num_players": 3, "expansions": ["capitol"], "rules": ["capitol_replaces_castle"]},
    {"num_players": 3, "expansions": ["caves"], "rules": ["caves_are_plain_mountain"]},
    {"num_players": 4, "expansions": ["nomads", "capitol", "caves", "crossroads"]},
    {"num_players": 3, "expansions": ["nomads", "capitol", "caves", "crossroads"],
     "rules": ["capitol_replaces_castle", "caves_are_plain_mountain", "zone_blocks_settlements_only"]},
]


def canonical(game: Game) -> np.ndarray:
    """The state without scratch space and without the slots that hold no information."""
    st = game.state[: S.SCRATCH].copy()
    piles = ((S.DECK, S.DECK_COUNT), (S.DISCARD, S.DISCARD_COUNT), (S.REMOVED, S.REMOVED_COUNT))
    size = S.DECK_SIZE
    if st[S.EXPANSIONS] & CAT.MARSHLANDS:  # a Marshlands game keeps its piles of 30 in the appended fields
        piles = ((S.MARSH_DECK, S.DECK_COUNT), (S.MARSH_DISCARD, S.DISCARD_COUNT), (S.MARSH_REMOVED, S.REMOVED_COUNT))
        size = S.MARSH_PILE_SIZE
    for off, count in piles:
        st[off + int(st[count]) : off + size] = 0  # cards already drawn or reshuffled away
    st[S.MANDATORY_HEXES + int(st[S.MANDATORY_BUILT]) : S.MANDATORY_HEXES + 3] = 0  # builds of earlier turns
    return st


assert_same_future = partial(roundtrip_checks.assert_same_future, canonical=canonical)


@settings(max_examples=26)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32 - 1), fraction=st.floats(0, 1),
       play_seed=st.integers(0, 2**32 - 1))
def test_any_decision_of_any_ruleset_round_trips(ruleset, seed, fraction, play_seed):
    length = len(play(Game.new(seed=seed, **ruleset), np.random.default_rng(play_seed), 10_000).actions)
    at = int(fraction * length)
    original = play(Game.new(seed=seed, **ruleset), np.random.default_rng(play_seed), at)
    assert len(original.actions) == at
    rebuilt = reread(original)
    np.testing.assert_array_equal(rebuilt.legal_mask(), original.legal_mask())
    assert rebuilt.decider == original.decider and rebuilt.phase == original.phase
    assert_same_future(original, rebuilt, np.random.default_rng(play_seed + 1))


MID_TURN = {
    "a power half-resolved (its source chosen)": lambda g: g.phase == "choose_target" and g.state[S.SOURCE] >= 0,
    "a multi-step power between steps": lambda g: g.phase == "step",
    "mandatory builds under way": lambda g: g.phase == "mandatory",
    "a Crossroads hand with the terrain not yet fixed": lambda g: (
        g.state[S.EXTRA_COUNT + g.current_player] > 0 and not g.state[S.TERRAIN_FIXED] and not g.done),
    "a pending Fort card": lambda g: g.fort_card() is not None,
    "a nomad tile claimed this round": lambda g: any(
        t["claimed_round"] == (g.turn - 1) // g.num_players for p in range(g.num_players) for t in g.nomad_tiles(p)),
    "a tile taken this turn": lambda g: any(g.state[S.TILES_FRESH + p] for p in range(g.num_players)),
    "a draw pile reshuffled from the discard pile": lambda g: g.discard_pile() and g.state[S.RNG] != seed_draws(
        g.setup.seed, g.num_players, int(g.state[S.EXPANSIONS]))[DRAW_RNG],
}


@pytest.mark.parametrize("name", list(MID_TURN))
def test_mid_turn_states_round_trip(name):
    """Each kind of mid-turn state named in the issue is met in random all-expansion games and round-trips."""
    wanted = MID_TURN[name]
    for seed in range(40):
        rng = np.random.default_rng(seed)
        game = Game.new(num_players=3, seed=seed, expansions=["nomads", "capitol", "caves", "crossroads"])
        while not game.done and not wanted(game):
            game.step(int(rng.choice(game.legal_actions())))
        if wanted(game):
            rebuilt = reread(game)
            assert wanted(rebuilt)
            assert_same_future(game, rebuilt, rng)
            return
    pytest.fail(f"no state with {name} in 40 random games")


def test_a_finished_game_round_trips():
    game = play(Game.new(num_players=2, seed=5, expansions=["nomads"]), np.random.default_rng(5), 10_000)
    rebuilt = reread(game)
    assert rebuilt.done and rebuilt.legal_actions() == []
    assert rebuilt.scores() == game.scores()


def test_position_keeps_discard_removed_generator_and_claimed_round():
    """The fields the old format could not say are written out."""
    for seed in range(30):
        rng = np.random.default_rng(seed)
        game = Game.new(num_players=3, seed=seed, expansions=["nomads"])
        while not game.done and not (game.discard_pile() and any(game.nomad_tiles(p) for p in range(3))):
            game.step(int(rng.choice(game.legal_actions())))
        if not game.done:
            break
    assert not game.done
    position = game.to_position()
    assert position["discard"] == game.discard_pile()
    assert position["removed"] == game.removed_cards()
    assert position["rng"] == int(game.state[S.RNG])
    assert position["turn"] == game.turn
    held = [t for p in range(3) for t in position["nomad_tiles"][p]]
    assert held and all({"kind", "claimed_round", "space"} == set(t) for t in held)
    rebuilt = reread(game)
    assert rebuilt.discard_pile() == game.discard_pile()
    assert [rebuilt.nomad_tiles(p) for p in range(3)] == [game.nomad_tiles(p) for p in range(3)]
