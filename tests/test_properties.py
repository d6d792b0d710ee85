"""Property tests over many random games: masks, conservation, termination, replays, seeds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbenv import ACTION_SIZE, Game, IllegalActionError
from kbenv.engine import state as S

SETTLEMENTS = 40
MAX_DECISIONS = 2000  # far above any real game (about 100-300 decisions)

game_params = st.tuples(st.integers(0, 2**31 - 1), st.integers(2, 5))


def check_invariants(game: Game, tiles_left_before: dict) -> None:
    n = game.num_players
    occupied = game.occupied()
    total = 0
    for p in range(n):
        own = game.settlements(p)
        total += len(own)
        assert len(own) + game.supply(p) == SETTLEMENTS, "settlements on board + supply must stay 40"
        assert game.supply(p) >= 0, "nobody builds more settlements than they own"
    assert total == len(occupied), "no hex holds two settlements"
    for loc in game.location_hexes():
        holders = sum(any(rc == loc for _, rc in game.tiles(p)) for p in range(n))
        left = game.tiles_left(loc)
        assert left + holders <= 2, "a location hex never hands out more than its 2 tiles"
        assert left <= tiles_left_before.get(loc, left), "tiles never return to a location hex"
        tiles_left_before[loc] = left
    hands = sum(game.hand(p) is not None for p in range(n))
    cards = game.deck_size() + len(game.discard_pile()) + len(game.removed_cards()) + hands
    assert cards == 25, "the 25 terrain cards are conserved"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_keep_invariants_and_end(players, seed):
    """1,000 random games in all (250 per player count), checked after every decision."""
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed)
    tiles_left: dict = {}
    for _ in range(MAX_DECISIONS):
        if game.done:
            break
        mask = game.legal_mask()
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, "a running game always offers a decision"
        # One illegal action per step must be refused without a trace.
        illegal = np.flatnonzero(mask == 0)
        bad = int(rng.choice(illegal))
        before = game.state_key()
        try:
            game.step(bad)
            raise AssertionError(f"illegal action {bad} was accepted")
        except IllegalActionError as err:
            assert str(bad) in str(err)
        assert game.state_key() == before
        game.step(int(rng.choice(legal)))
        check_invariants(game, tiles_left)
    assert game.done, "every game ends"
    assert any(game.supply(p) == 0 for p in range(players)) or game.state[S.TURNS_WITHOUT_BUILD] > 0
    assert game.legal_mask().sum() == 0


@settings(max_examples=60, deadline=None)
@given(game_params, st.integers(0, 300))
def test_mask_equals_accepted_exhaustively(params, stop_at):
    """At a random point of a random game, every one of the 409 actions is accepted iff masked legal."""
    seed, players = params
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for _ in range(stop_at):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    mask = game.legal_mask()
    for action in range(ACTION_SIZE):
        trial = game.clone()
        try:
            trial.step(action)
            accepted = True
        except IllegalActionError:
            accepted = False
            assert trial.state_key() == game.state_key()
        assert accepted == bool(mask[action]), f"action {action}: mask {mask[action]} but accepted={accepted}"


@settings(max_examples=100, deadline=None)
@given(game_params)
def test_replay_from_record_is_identical(params):
    seed, players = params
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    replay = Game.from_record(game.to_record())
    assert replay.state_key() == game.state_key()
    assert replay.scores() == game.scores()


@settings(max_examples=50, deadline=None)
@given(game_params)
def test_same_seed_same_game(params):
    seed, players = params
    a, b = Game.new(players, seed=seed), Game.new(players, seed=seed)
    assert a.state_key() == b.state_key()
    ra, rb = np.random.default_rng(7), np.random.default_rng(7)
    while not a.done:
        a.step(int(ra.choice(a.legal_actions())))
        b.step(int(rb.choice(b.legal_actions())))
        assert a.state_key() == b.state_key()
    assert b.done


def test_different_seeds_give_different_setups():
    boards = {Game.new(3, seed=s).board for s in range(20)}
    assert len(boards) > 10
