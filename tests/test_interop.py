"""kbenv's PettingZoo AEC envs through TorchRL's and Tianshou's PettingZoo wrappers (the `interop` extra)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torchrl")
pytest.importorskip("tianshou")

import torch  # noqa: E402
from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Collector, ReplayBuffer, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import MarlGroupMapType, check_env_specs  # noqa: E402

from kbenv import kingdom_builder_v0, kingdom_builder_v1  # noqa: E402

# TorchRL says it is tested with PettingZoo 1.24.3 whatever the version; kbenv runs on 1.24+.
pytestmark = pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested using version:UserWarning")

EXPANSIONS = ["nomads", "crossroads"]


def make_aec(num_players: int, expansions: list[str] | None = None):
    """kbenv's wrapped AEC env: kingdom_builder_v1 with a ruleset, else kingdom_builder_v0."""
    if expansions:
        return kingdom_builder_v1.env(num_players=num_players, expansions=expansions)
    return kingdom_builder_v0.env(num_players=num_players)


def check_torchrl_game(env: PettingZooWrapper, groups: dict[str, list[str]], num_players: int, actions: int) -> None:
    """A random masked rollout to the end of one game: one acting agent per step, its action legal, ±1 at the end."""
    td = env.rollout(4000, break_when_any_done=True)
    assert td["next", "done"][-1].item() and not td["next", "done"][:-1].any()
    assert env._env.unwrapped.game.done
    acting = torch.cat([td[group, "mask"] for group in groups], dim=-1)
    assert (acting.sum(-1) == 1).all()
    for group in groups:
        mask, action, legal = td[group, "mask"], td[group, "action"], td[group, "action_mask"]
        assert legal.shape[-1] == actions
        chosen = legal.gather(-1, action.unsqueeze(-1)).squeeze(-1)
        assert chosen[mask].all()
    rewards = torch.cat([td["next", group, "reward"][-1].flatten() for group in groups])
    assert rewards.shape == (num_players,) and set(rewards.tolist()) <= {-1.0, 1.0} and rewards.max() == 1.0


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_torchrl_pettingzoo_wrapper(num_players: int):
    env = PettingZooWrapper(env=make_aec(num_players), use_mask=True, seed=num_players)
    groups = env.group_map
    assert groups == {f"player_{i}": [f"player_{i}"] for i in range(num_players)}  # AEC: one group per agent
    assert env.observation_spec["player_0", "observation", "observation"].shape == (1, 28, 20, 20)
    check_env_specs(env)
    check_torchrl_game(env, groups, num_players, 409)
    env.close()


def test_torchrl_v1_expansions_one_group_with_state():
    env = PettingZooWrapper(env=make_aec(4, EXPANSIONS), use_mask=True, seed=0, return_state=True,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    assert env.group_map == {"agents": [f"player_{i}" for i in range(4)]}
    assert env.observation_spec["agents", "observation", "observation"].shape == (4, 50, 20, 20)
    check_env_specs(env)
    check_torchrl_game(env, env.group_map, 4, 478)
    assert {"nomads", "crossroads"} <= set(env._env.unwrapped.game.expansions)


def collect_tianshou(num_players: int, expansions: list[str] | None = None, num_envs: int = 1, episodes: int = 2):
    """Random masked play of a few whole games with Tianshou's Collector; (stats, buffer)."""
    env = PettingZooEnv(make_aec(num_players, expansions))
    algorithm = MultiAgentOffPolicyAlgorithm(  # Tianshou 2's MultiAgentPolicyManager of RandomPolicy
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env)
    venv = DummyVectorEnv([lambda: PettingZooEnv(make_aec(num_players, expansions)) for _ in range(num_envs)])
    venv.seed(num_players)
    # Room for every decision collected (observations are 45-64 KB each). VectorReplayBuffer, which Tianshou needs
    # for several envs, JIT-compiles its numba helpers in every new process (about 10 s on 2 cores): only once here.
    size = 600 * episodes
    buffer = VectorReplayBuffer(size, num_envs) if num_envs > 1 else ReplayBuffer(size)
    np.random.seed(num_players)  # the random policy draws from numpy's global generator
    stats = Collector(algorithm, venv, buffer).collect(n_episode=episodes, reset_before_collect=True)
    return stats, buffer


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_tianshou_collector(num_players: int):
    stats, buffer = collect_tianshou(num_players)
    assert stats.n_collected_episodes == 2
    assert stats.returns.shape == (2, num_players)  # one terminal reward per player
    assert set(np.unique(stats.returns)) <= {-1.0, 1.0} and (stats.returns.max(axis=1) == 1.0).all()
    batch, _ = buffer.sample(0)  # every stored transition
    assert len(batch) == stats.n_collected_steps == stats.lens.sum()
    assert batch.obs.mask[np.arange(len(batch)), batch.act].all()  # every decision was legal
    assert set(np.unique(batch.obs.agent_id)) == {f"player_{i}" for i in range(num_players)}
    assert batch.terminated.sum() == 2


def test_tianshou_two_envs_v1_expansions():
    stats, buffer = collect_tianshou(3, EXPANSIONS, num_envs=2)
    assert stats.n_collected_episodes == 2 and stats.returns.shape == (2, 3)
    batch, _ = buffer.sample(0)
    assert batch.obs.obs.shape[1:] == (50, 20, 20) and batch.obs.mask.shape[1:] == (478,)
    assert batch.obs.mask[np.arange(len(batch)), batch.act].all()
