"""Hint planes: a built-in policy's value of each legal decision inside the observation (opt-in)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from kbenv import Game, env, raw_env
from kbenv.engine.legal import ACTION_SIZE
from kbenv.engine.observe import CH_FEATURES, NUM_CHANNELS
from kbenv.observation import observation_planes
from kbenv.policies.greedy import greedy_values, position_value
from kbenv.policies.hints import CH_HINT_BEST, CH_HINT_VALUE, F_HINT_BEST, F_HINT_VALUE, HINT_SCALE
from kbenv.policies.lookahead import lookahead_values
from kbenv.vector import VectorGames
from kbenv.vector_env import SelfPlayVecEnv

from .conftest import play_random
from .test_lookahead import chain_position

HEX = 400


def unpack(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values, best) per action as written in the observation."""
    feats = obs[CH_FEATURES].reshape(400)
    values = np.concatenate([obs[CH_HINT_VALUE].reshape(400), feats[F_HINT_VALUE : F_HINT_VALUE + 9]])
    best = np.concatenate([obs[CH_HINT_BEST].reshape(400), feats[F_HINT_BEST : F_HINT_BEST + 9]])
    return values, best


@pytest.mark.parametrize(("hints", "kernel"), [("greedy", greedy_values), ("lookahead", lookahead_values)])
def test_hint_planes_hold_each_legal_decisions_value(hints, kernel):
    checked = 0
    for seed in range(6):
        game = play_random(Game.new(2 + seed % 4, seed=seed), np.random.default_rng(seed), max_decisions=10 + 9 * seed)
        if game.done:
            continue
        p = game.current_player
        obs = observation_planes(game.state, p, hints)
        assert obs.shape == (NUM_CHANNELS + 2, 20, 20)
        np.testing.assert_array_equal(obs[:NUM_CHANNELS], observation_planes(game.state, p))
        raw = np.empty(ACTION_SIZE)
        kernel(game.state, raw)
        legal = np.isfinite(raw)
        expected = np.clip((raw[legal] - position_value(game.state, p)) / HINT_SCALE, -1, 1)
        values, best = unpack(obs)
        np.testing.assert_allclose(values[legal], expected, atol=1e-6)
        assert (values[~legal] == 0).all() and (best[~legal] == 0).all()
        assert set(np.flatnonzero(best)) == set(np.flatnonzero(raw == raw[legal].max()))
        for other in range(game.num_players):  # nobody else gets hints
            if other != p:
                assert not unpack(observation_planes(game.state, other, hints))[1].any()
        checked += 1
    assert checked >= 4


def test_hand_built_hints_show_the_castle_route():
    """The chain position of test_lookahead: greedy hints rate (6,2) best (+1 now); lookahead hints
    rate (5,3) best (+5 after the turn) and (6,2) at +2."""
    game = chain_position()
    greedy_obs = observation_planes(game.state, 0, "greedy")
    look_obs = observation_planes(game.state, 0, "lookahead")
    assert greedy_obs[CH_HINT_BEST, 6, 2] == 1 and greedy_obs[CH_HINT_BEST, 5, 3] == 0
    assert greedy_obs[CH_HINT_VALUE, 6, 2] == pytest.approx(1 / HINT_SCALE)
    assert look_obs[CH_HINT_BEST, 5, 3] == 1 and look_obs[CH_HINT_BEST, 6, 2] == 0
    assert look_obs[CH_HINT_VALUE, 5, 3] == pytest.approx(5 / HINT_SCALE)
    assert look_obs[CH_HINT_VALUE, 6, 2] == pytest.approx(2 / HINT_SCALE)


def test_env_with_hints_passes_the_pettingzoo_api_test():
    api_test(env(num_players=3, hints="greedy"), num_cycles=300, verbose_progress=False)
    e = raw_env(num_players=2, hints="lookahead")
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)["observation"]
    assert obs.shape == (NUM_CHANNELS + 2, 20, 20)
    assert e.observation_space(e.agent_selection)["observation"].contains(obs)


def test_batch_and_vector_env_observations_with_hints_match_single_games():
    games = VectorGames(3, num_players=[2, 3, 4], hints="greedy")
    games.reset(8)
    for _ in range(25):
        obs = games.observations()
        for i in range(3):
            g = games.game(i)
            np.testing.assert_array_equal(obs[i], observation_planes(g.state, g.current_player, "greedy"))
        games.step(games.random_actions())
    venv = SelfPlayVecEnv(2, num_players=2, hints="lookahead", seed=2)
    first = venv.reset()
    assert first.shape == (2, NUM_CHANNELS + 2, 20, 20)
    assert all(venv.observation_space.contains(o) for o in first)


@pytest.mark.parametrize("factory", [lambda: raw_env(hints="best"), lambda: VectorGames(2, hints="best"),
                                     lambda: SelfPlayVecEnv(2, hints="best")])
def test_unknown_hint_kind_names_the_option(factory):
    with pytest.raises(ValueError, match="hints"):
        factory()


def test_fused_random_steps_return_hinted_observations():
    games = VectorGames(3, num_players=2, hints="greedy")
    games.reset(21)
    for _ in range(10):
        _, _, obs = games.step_random(observe=True)
        assert obs.shape == (3, NUM_CHANNELS + 2, 20, 20)
        np.testing.assert_array_equal(obs, games.observations())
