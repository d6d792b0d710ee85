"""The search's fast determinization (kbenv.game.view.determinized_state, kernels in kbenv.engine.hidden).

The reference below is the Python determinization that self-play used until 4622086 (2026-11-29; PlayerView's
redaction, then its re-deal), written out here: the kernels must give the same state, bit for bit, with
the same draws from the caller's generator, for every seat of random positions in every ruleset, so
that self-play runs, their checkpoints and seeds play the same games as before.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbenv import Game
from kbenv.engine import state as S
from kbenv.engine.deck import deck_off, pile_size
from kbenv.engine.rng import seed_u32
from kbenv.game.view import PlayerView, determinized_state

from .game_checks import played_game

RULESETS = {
    "base": None,
    "nomads": ["nomads", "capitol", "caves"],
    "crossroads": ["crossroads"],
    "marshlands": ["marshlands"],
    "harvest": ["harvest"],
    "island": ["island"],
    "mixed": ["nomads", "crossroads", "marshlands"],
}


def reference_hidden_seats(st: np.ndarray, player: int) -> list[int]:
    """Hands `player` cannot see: every other seat's, except the card the player to move has played face up
    (a Crossroads hand of several cards stays hidden until the turn's terrain is chosen)."""
    if st[S.PHASE] == S.PHASE_OVER:
        return []
    mover = int(st[S.CURRENT])
    open_hand = mover != player and st[S.EXTRA_COUNT + mover] > 0 and not st[S.TERRAIN_FIXED]
    return [p for p in range(int(st[S.NUM_PLAYERS])) if p != player and (p != mover or open_hand)]


def reference_extra_seats(st: np.ndarray, player: int) -> list[int]:
    if st[S.PHASE] == S.PHASE_OVER:
        return []
    return [p for p in range(int(st[S.NUM_PLAYERS])) if p != player and st[S.EXTRA_COUNT + p] > 0]


def reference_determinized(game: Game, player: int, rng: np.random.Generator) -> np.ndarray:
    st = game.state.copy()
    hidden = [p for p in reference_hidden_seats(st, player) if st[S.HAND + p] != S.NO_CARD]
    extra = [S.EXTRA_CARDS + p * S.MAX_EXTRA_CARDS + k for p in reference_extra_seats(st, player)
             for k in range(int(st[S.EXTRA_COUNT + p]))]
    deck_at, size = deck_off(st), pile_size(int(st[S.EXPANSIONS]))
    deck = [int(c) for c in st[deck_at : deck_at + int(st[S.DECK_COUNT])]]
    unseen = sorted(deck + [int(st[S.HAND + p]) for p in hidden] + [int(st[slot]) for slot in extra])
    st[deck_at : deck_at + size] = 0
    st[S.RNG] = 0
    st[S.SCRATCH : S.SCRATCH_END] = 0
    unseen = [unseen[i] for i in rng.permutation(len(unseen))]
    for p in hidden:
        st[S.HAND + p] = unseen.pop()
    for slot in extra:
        st[slot] = unseen.pop()
    st[deck_at : deck_at + len(unseen)] = unseen
    st[S.RNG] = seed_u32(int(rng.integers(1, 2**32)))
    return st


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(sorted(RULESETS)), players=st.integers(2, 5), seed=st.integers(0, 10_000),
       steps=st.integers(0, 200))
def test_fast_determinization_equals_the_reference_for_every_seat(ruleset, players, seed, steps):
    if ruleset == "island" and players == 5:
        players = 4
    game = played_game(seed, steps, players, RULESETS[ruleset])
    before = game.state.copy()
    for seat in range(players):
        assert game.hidden_from(seat) == reference_hidden_seats(game.state, seat)
        assert game.hidden_extra_from(seat) == reference_extra_seats(game.state, seat)
        fast_rng, view_rng, ref_rng = (np.random.default_rng([seed, seat]) for _ in range(3))
        expected = reference_determinized(game, seat, ref_rng)
        np.testing.assert_array_equal(determinized_state(game, seat, fast_rng), expected)
        np.testing.assert_array_equal(PlayerView(game, seat).determinize(view_rng).state, expected)
        # the same draws from the caller's generator: what it gives next is the same
        assert fast_rng.integers(2**62) == view_rng.integers(2**62) == ref_rng.integers(2**62)
    np.testing.assert_array_equal(game.state, before)  # the game itself is untouched


def test_crossroads_hands_of_several_cards_are_redealt():
    """A position where another seat holds extra Crossroads cards: they are among the cards dealt anew."""
    for seed in range(200):
        game = played_game(seed, 60, 3, RULESETS["crossroads"])
        holders = [p for p in range(3) if p != game.decider and game.state[S.EXTRA_COUNT + p] > 0]
        if holders:
            break
    else:
        pytest.fail("no Crossroads position with extra cards in 200 seeds")
    seat, holder = game.decider, holders[0]
    slot = S.EXTRA_CARDS + holder * S.MAX_EXTRA_CARDS
    dealt = {int(determinized_state(game, seat, np.random.default_rng(k))[slot]) for k in range(40)}
    assert len(dealt) > 1, "an extra card hidden from the seat must be dealt from the unseen cards"


def test_the_seat_to_move_keeps_its_own_hand_and_the_public_state():
    game = played_game(3, 25, 4)
    seat = game.decider
    for k in range(10):
        world = determinized_state(game, seat, np.random.default_rng(k))
        assert world[S.HAND + seat] == game.state[S.HAND + seat]
        np.testing.assert_array_equal(world[: S.RNG], game.state[: S.RNG])  # the board and what precedes it
        np.testing.assert_array_equal(world[S.RNG + 1 : S.HAND], game.state[S.RNG + 1 : S.HAND])
        assert world[S.RNG] != 0


@pytest.mark.parametrize("bad", [4, -1, True, "0", 1.0])
def test_a_seat_that_does_not_exist_is_refused_and_nothing_changes(bad):
    game = played_game(1, 10, 4)
    before, rng = game.state.copy(), np.random.default_rng(0)
    draw_state = rng.bit_generator.state
    with pytest.raises(ValueError, match="player"):
        determinized_state(game, bad, rng)
    np.testing.assert_array_equal(game.state, before)
    assert rng.bit_generator.state == draw_state  # nothing drawn
