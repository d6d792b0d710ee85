"""The Gymnasium self-play wrapper: check_env, vector envs and a short MaskablePPO run."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium.utils.env_checker import check_env

from kbenv import IllegalActionError, SetupError
from kbenv.game.view import PlayerView
from kbenv.wrappers import SelfPlayEnv


def test_passes_gymnasium_check_env():
    check_env(SelfPlayEnv(num_players=3), skip_render_check=True)


def test_episode_reaches_a_terminal_reward_for_the_learner():
    env = SelfPlayEnv(num_players=2, learner_seat=1, reward="rank")
    obs, info = env.reset(seed=3)
    assert env.game.current_player == 1
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    terminated = False
    while not terminated:
        mask = env.action_masks()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        total += reward
        steps += 1
        if not terminated:
            assert reward == 0.0 and env.game.current_player == 1
    assert env.game.done and total in (1.0, -1.0, 0.0)
    assert steps > 20


def test_opponents_come_from_the_pool_and_see_only_their_view():
    seen = []

    def first_legal(observation, mask, view):
        assert isinstance(view, PlayerView)
        assert view.player == view.current_player
        for p in range(view.num_players):
            if p not in (view.player, view.current_player):
                assert view.hand(p) is None
        seen.append(view.player)
        return int(np.flatnonzero(mask)[0])

    env = SelfPlayEnv(num_players=3, opponents=[first_legal], learner_seat=0)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(30):
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated:
            break
    assert set(seen) == {1, 2}


def test_illegal_action_terminates_with_penalty_or_raises():
    env = SelfPlayEnv(num_players=2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    strict = SelfPlayEnv(num_players=2, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_same_seed_same_episode():
    a, b = SelfPlayEnv(num_players=4), SelfPlayEnv(num_players=4)
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    np.testing.assert_array_equal(oa, ob)
    assert a.learner == b.learner


def test_bad_options_name_the_field():
    for kwargs, field in (
        ({"num_players": 7}, "num_players"),
        ({"learner_seat": 3}, "learner_seat"),
        ({"reward": "x"}, "reward"),
        ({"opponents": [42]}, "opponents"),
    ):
        with pytest.raises(SetupError, match=field):
            SelfPlayEnv(**kwargs)


def test_runs_under_sb3_vector_envs():
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    for cls, kwargs in ((DummyVecEnv, {}), (SubprocVecEnv, {"start_method": "spawn"})):
        venv = cls([lambda: SelfPlayEnv(num_players=2) for _ in range(2)], **kwargs)
        venv.seed(0)
        obs = venv.reset()
        assert obs.shape == (2, *SelfPlayEnv().observation_space.shape)
        for _ in range(5):
            masks = np.stack(venv.env_method("action_masks"))
            actions = [int(np.flatnonzero(m)[0]) for m in masks]
            obs, rewards, dones, infos = venv.step(np.array(actions))
            assert not any(info.get("illegal_action") for info in infos)
        venv.close()


def test_short_maskable_ppo_run():
    from sb3_contrib import MaskablePPO

    env = SelfPlayEnv(num_players=2)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    initial = {k: v.detach().clone() for k, v in model.policy.named_parameters()}
    model.learn(total_timesteps=256)
    assert model.num_timesteps == 256
    assert any(not torch.equal(initial[k], v) for k, v in model.policy.named_parameters())  # the update changed it
    obs, _ = env.reset(seed=5)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[int(action)]
        obs, _, terminated, _, _ = env.step(int(action))
        if terminated:
            break
