"""The gymnasium ids kbenv/SelfPlay-v0 (base game) and kbenv/SelfPlay-v1 (v1 layout, any ruleset)."""

from __future__ import annotations

import importlib
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from kbenv import SetupError
from kbenv.registration import SELF_PLAY_V0, SELF_PLAY_V1, SelfPlayEnvV1, register_envs
from kbenv.wrappers import SelfPlayEnv

# gymnasium calls any -v0 id "out of date" once a -v1 of the same name exists; here v0 is the base-game layout.
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date.*:DeprecationWarning")

SHAPES = {SELF_PLAY_V0: ((28, 20, 20), 409), SELF_PLAY_V1: ((50, 20, 20), 478)}


def play_episode(env: gymnasium.Env, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    """One episode of random masked learner decisions; (final reward, learner steps). Checks masks on the way."""
    _, info = env.reset(seed=seed)
    steps, terminated, reward = 0, False, 0.0
    while not terminated:
        mask = env.get_wrapper_attr("action_masks")()
        assert mask.dtype == bool and mask.any()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated and "illegal_action" not in info
        assert env.observation_space.contains(obs)
        steps += 1
        if not terminated:
            assert reward == 0.0
    assert env.unwrapped.game.done and reward in (-1.0, 1.0)
    return reward, steps


def test_ids_are_registered_and_listed():
    assert {SELF_PLAY_V0, SELF_PLAY_V1} <= set(gymnasium.registry)
    listing = gymnasium.pprint_registry(disable_print=True)
    assert SELF_PLAY_V0 in listing and SELF_PLAY_V1 in listing


def test_registration_is_idempotent():
    spec = gymnasium.spec(SELF_PLAY_V1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gymnasium warns "Overriding environment ..." on a second register()
        register_envs()
        register_envs()
        importlib.import_module("kbenv")
    assert gymnasium.spec(SELF_PLAY_V1) == spec
    assert spec.entry_point == "kbenv.registration:make_self_play_v1"  # a string: picklable, loaded on make


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("env_id", [SELF_PLAY_V0, SELF_PLAY_V1])
def test_make_check_env_and_random_masked_episodes(env_id: str, num_players: int):
    env = gymnasium.make(env_id, num_players=num_players, opponents=["random", "greedy"])
    shape, actions = SHAPES[env_id]
    assert env.observation_space.shape == shape and env.observation_space.dtype == np.float32
    assert env.action_space == gymnasium.spaces.Discrete(actions)
    assert isinstance(env.unwrapped, SelfPlayEnvV1 if env_id == SELF_PLAY_V1 else SelfPlayEnv)
    check_env(env.unwrapped)  # render check included: the spec re-makes it with each of its render modes
    rng = np.random.default_rng(num_players)
    for seed in range(2):
        play_episode(env, seed, rng)
    env.close()


def test_v0_id_is_the_self_play_env():
    made = gymnasium.make(SELF_PLAY_V0, num_players=3, reward="rank")
    direct = SelfPlayEnv(num_players=3, reward="rank")
    assert type(made.unwrapped) is SelfPlayEnv
    np.testing.assert_array_equal(made.reset(seed=11)[0], direct.reset(seed=11)[0])


def test_v1_base_game_extends_v0():
    """Without expansions the v1 id plays the same games; its first 28 planes and 409 mask ids are v0's."""
    v0 = gymnasium.make(SELF_PLAY_V0, num_players=2)
    v1 = gymnasium.make(SELF_PLAY_V1, num_players=2)
    (obs0, info0), (obs1, info1) = v0.reset(seed=5), v1.reset(seed=5)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        np.testing.assert_array_equal(obs0, obs1[:28])
        np.testing.assert_array_equal(info0["action_mask"], info1["action_mask"][:409])
        assert not info1["action_mask"][409:].any()
        action = int(rng.choice(np.flatnonzero(info0["action_mask"])))
        obs0, r0, done, _, info0 = v0.step(action)
        obs1, r1, done1, _, info1 = v1.step(action)
        assert (r0, done) == (r1, done1)


def test_v1_with_expansions():
    env = gymnasium.make(SELF_PLAY_V1, num_players=3, opponents=["greedy"], expansions=["nomads", "crossroads"])
    check_env(env.unwrapped, skip_render_check=True)
    rng = np.random.default_rng(1)
    play_episode(env, 3, rng)
    assert {"nomads", "crossroads"} <= set(env.unwrapped.game.expansions)
    assert env.observation_space.shape == (50, 20, 20) and env.action_space.n == 478


def test_opponent_objects_and_callables_pass_through():
    calls = []

    def first_legal(observation, action_mask, view):
        calls.append(observation.shape)
        return int(np.flatnonzero(action_mask)[0])

    env = gymnasium.make(SELF_PLAY_V1, num_players=2, opponents=[first_legal], learner_seat=0)
    play_episode(env, 0, np.random.default_rng(0))
    assert calls and set(calls) == {(50, 20, 20)}


def test_bad_arguments_give_clear_errors():
    with pytest.raises(TypeError, match=r"SelfPlay-v1: unknown keyword argument\(s\) 'foo'; accepted: num_players"):
        gymnasium.make(SELF_PLAY_V1, foo=1)
    with pytest.raises(TypeError, match="use kbenv/SelfPlay-v1 for expansions"):
        gymnasium.make(SELF_PLAY_V0, expansions=["nomads"])
    with pytest.raises(SetupError, match="expansions: unknown expansion 'atlantis'"):
        gymnasium.make(SELF_PLAY_V1, expansions=["atlantis"])
    with pytest.raises(SetupError, match="num_players"):
        gymnasium.make(SELF_PLAY_V1, num_players=6)
    with pytest.raises(ValueError, match="agent spec 'grady'"):
        gymnasium.make(SELF_PLAY_V0, opponents=["grady"])


def test_maskable_ppo_reads_the_masks_through_gymnasium_wrappers():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(SELF_PLAY_V1, n_envs=2, seed=0, env_kwargs={"opponents": ["greedy"], "expansions": ["nomads"]})
    venv.reset()
    assert is_masking_supported(venv) and get_action_masks(venv).shape == (2, 478)
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(32)
    assert model.num_timesteps == 32
