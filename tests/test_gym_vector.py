"""The batch engine as a Gymnasium VectorEnv: `gymnasium.make_vec("kbenv/SelfPlay-v1", vectorization_mode=
"vector_entry_point")` (kbenv.envs.gym_vector, docs/vector-env.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics, TransformObservation

from kbenv import IllegalActionError, SetupError
from kbenv.envs.gym_vector import SelfPlayVectorEnv
from kbenv.envs.registration import SELF_PLAY_V0, SELF_PLAY_V1

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date.*:DeprecationWarning")


def make(num_envs: int = 3, **kwargs) -> VectorEnv:
    return gymnasium.make_vec(SELF_PLAY_V1, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)


def masked_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A random legal action per game (0 where the mask is all zero: a NEXT_STEP game over, action ignored)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64)


def run(env: VectorEnv, seed, steps: int, action_seed: int = 0) -> list:
    """(obs, rewards, terminated, infos) of `steps` random masked steps after reset(seed=seed)."""
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, info)]
    for _ in range(steps):
        obs, rewards, terminated, truncated, info = env.step(masked_actions(rng, info["action_mask"]))
        assert not truncated.any()
        out.append((obs, rewards, terminated, info))
    return out


@pytest.mark.parametrize(("env_id", "shape", "actions"), [(SELF_PLAY_V1, (50, 20, 20), 478),
                                                          (SELF_PLAY_V0, (28, 20, 20), 409)])
def test_make_vec_gives_the_batch_engine_with_the_single_envs_spaces(env_id, shape, actions):
    env = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(env, VectorEnv) and isinstance(env.unwrapped, SelfPlayVectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    single = gymnasium.make(env_id)
    assert env.single_observation_space == single.observation_space
    assert env.single_observation_space.shape == shape
    assert env.single_action_space == single.action_space == gymnasium.spaces.Discrete(actions)
    assert env.observation_space == batch_space(env.single_observation_space, 4)
    assert env.action_space == batch_space(env.single_action_space, 4)
    assert env.num_envs == 4 and env.spec.id == env_id
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (4, actions) and info["action_mask"].dtype == np.int8
    assert info["_action_mask"].all() and info["action_mask"].any(axis=1).all()
    np.testing.assert_array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
    obs, rewards, terminated, truncated, info = env.step(masked_actions(np.random.default_rng(0),
                                                                        info["action_mask"]))
    assert env.observation_space.contains(obs)
    assert rewards.shape == terminated.shape == truncated.shape == (4,)
    env.close()


def test_make_vec_defaults_to_the_vector_entry_point():
    assert isinstance(gymnasium.make_vec(SELF_PLAY_V1, num_envs=2).unwrapped, SelfPlayVectorEnv)


def test_seeds_int_and_list_and_determinism():
    a = run(make(), 7, 150)
    b = run(make(), [7, 8, 9], 150)
    for x, y in zip(a, b, strict=True):
        assert data_equivalence(x, y)
    c = run(make(), 8, 150)
    assert not data_equivalence(a[0][0], c[0][0])


def test_a_sub_env_plays_by_its_own_seed_wherever_it_sits():
    """Game seed 5 at slot 0 and at slot 2 (same N) plays the same first episode under the same actions."""
    left, right = make(), make()
    obs_l, info_l = left.reset(seed=[5, 6, 7])
    obs_r, info_r = right.reset(seed=[9, 8, 5])
    np.testing.assert_array_equal(obs_l[0], obs_r[2])
    rng = np.random.default_rng(3)
    for _ in range(300):
        np.testing.assert_array_equal(info_l["action_mask"][0], info_r["action_mask"][2])
        a = masked_actions(rng, info_l["action_mask"])
        b = masked_actions(rng, info_r["action_mask"])
        b[2] = a[0]
        obs_l, rew_l, term_l, _, info_l = left.step(a)
        obs_r, rew_r, term_r, _, info_r = right.step(b)
        np.testing.assert_array_equal(obs_l[0], obs_r[2])
        assert rew_l[0] == rew_r[2] and term_l[0] == term_r[2]
        if term_l[0]:
            assert info_l["gold"][0] == info_r["gold"][2] and info_l["episode_seed"][0] == 5
            return
    pytest.fail("no episode ended in 300 steps")


def test_next_step_autoreset():
    env = make(2)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=11)
    for _ in range(400):
        obs, rewards, terminated, _, info = env.step(masked_actions(rng, info["action_mask"]))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert rewards[i] in (-1.0, 1.0) and info["_gold"][i] and info["episode_seed"][i] == 11 + i
    assert not info["action_mask"][i].any()  # the final observation: the game is over
    assert env.observation_space.contains(obs)
    obs, rewards, terminated, _, info = env.step(masked_actions(rng, info["action_mask"]))
    assert rewards[i] == 0.0 and not terminated[i] and info["action_mask"][i].any()  # the next episode's start
    assert env.unwrapped.games.seeds[i] == 11 + i + 2  # seed + N


def test_same_step_autoreset():
    env = make(2, autoreset_mode=AutoresetMode.SAME_STEP)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=11)
    for _ in range(400):
        obs, rewards, terminated, _, info = env.step(masked_actions(rng, info["action_mask"]))
        assert info["action_mask"].any(axis=1).all()  # always a decision to take
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert info["_final_obs"][i] and info["_final_info"][i]
    assert env.single_observation_space.contains(info["final_obs"][i])
    assert info["final_info"]["episode_seed"][i] == 11 + i and not info["final_info"]["action_mask"][i].any()
    assert env.unwrapped.games.seeds[i] == 11 + i + 2


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_gymnasium_vector_wrappers(mode):
    env = RecordEpisodeStatistics(make(2, autoreset_mode=mode))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    episodes = 0
    for _ in range(300):
        _, _, _, _, info = env.step(masked_actions(rng, info["action_mask"]))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert set(info["episode"]["r"][info["_episode"]]) <= {-1.0, 1.0}
    assert episodes >= 1
    listed = DictInfoToList(make(2, autoreset_mode=mode))
    _, infos = listed.reset(seed=0)
    assert len(infos) == 2 and infos[0]["action_mask"].shape == (478,)


def test_observation_wrappers_take_next_step():
    env = TransformObservation(make(2), lambda obs: obs[:, :28], None)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 28, 20, 20)


def test_bad_arguments_name_themselves():
    env = make(2)
    with pytest.raises(SetupError, match="step: call reset"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(SetupError, match="seed: expected an integer or 2 seeds"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(SetupError, match="seed: "):
        env.reset(seed=-1)
    with pytest.raises(SetupError, match="seed: "):
        env.reset(seed="x")
    with pytest.raises(SetupError, match="options: "):
        env.reset(seed=0, options={"reset_mask": np.ones(2, dtype=bool)})
    obs, info = env.reset(seed=0)
    illegal = np.array([int(np.flatnonzero(info["action_mask"][0] == 0)[0]), 0])
    state = env.unwrapped.games.states.copy()
    with pytest.raises(IllegalActionError, match="game 0"):
        env.step(illegal)
    np.testing.assert_array_equal(env.unwrapped.games.states, state)  # nothing changed
    with pytest.raises(IllegalActionError, match="actions: "):
        env.step([1.5, 2.0])
    with pytest.raises(SetupError, match="autoreset_mode: "):
        make(2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(SetupError, match="opponents: "):
        make(2, opponents=["mcts:sims=5"])
    with pytest.raises(SetupError, match="num_envs: "):
        SelfPlayVectorEnv(0)
    with pytest.raises(TypeError, match="layout"):
        make(2, layout="v0")
    with pytest.raises(SetupError, match="layout: v0 cannot"):
        gymnasium.make_vec(SELF_PLAY_V0, num_envs=2, vectorization_mode="vector_entry_point", expansions=["nomads"])


def test_expansions_and_opponents():
    env = make(2, num_players=3, expansions=["nomads", "capitol"], opponents=["greedy", "lookahead"],
               learner_seat=1, reward="rank")
    obs, info = env.reset(seed=3)
    assert (info["learner_seat"] == 1).all()
    assert env.unwrapped.games.ruleset.expansions
    run(env, 3, 20)


def test_the_module_form_of_the_id_needs_no_import_of_kbenv():
    """gymnasium's "module:id" imports kbenv itself (the registry reads no entry points)."""
    code = ("import gymnasium; e = gymnasium.make_vec('kbenv:kbenv/SelfPlay-v1', num_envs=2, "
            "vectorization_mode='vector_entry_point'); print(type(e).__name__, e.reset(seed=0)[0].shape)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "SelfPlayVectorEnv (2, 50, 20, 20)" in out.stdout


def test_observation_wrappers_refuse_same_step_as_the_doc_says():
    with pytest.raises(AssertionError):
        TransformObservation(make(2, autoreset_mode="SameStep"), lambda obs: obs, None)


def test_sync_mode_still_vectorizes_the_single_env():
    env = gymnasium.make_vec(SELF_PLAY_V1, num_envs=2, vectorization_mode="sync")
    assert isinstance(env, gymnasium.vector.SyncVectorEnv)
    assert env.single_observation_space == make(2).single_observation_space


def test_the_doc_page_example_runs():
    text = (ROOT / "docs" / "vector-env.md").read_text(encoding="utf-8")
    source = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(source, "docs/vector-env.md", "exec"), {"__name__": "__doc_example__"})
