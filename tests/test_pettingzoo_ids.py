"""PettingZoo registry ids: `pettingzoo.make("aec" | "parallel", "kbenv/kingdom_builder-v1")` after `import kbenv`
(kbenv.envs.pettingzoo_ids), checked with PettingZoo's own test utilities; the old module paths still work."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import kbenv
from kbenv.envs import kingdom_builder_v0, kingdom_builder_v1
from kbenv.envs.pettingzoo_ids import KINGDOM_BUILDER_V0, KINGDOM_BUILDER_V1, register_envs

ROOT = Path(__file__).resolve().parents[1]
IDS = {KINGDOM_BUILDER_V0: kingdom_builder_v0, KINGDOM_BUILDER_V1: kingdom_builder_v1}


def play(env, seed: int) -> list:
    """Every (agent, observation, reward) of one game of random masked actions (actions drawn from `seed`)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        out.append((agent, obs["observation"].sum(), reward))
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def test_ids_are_registered_and_listed(capsys):
    assert {KINGDOM_BUILDER_V0, KINGDOM_BUILDER_V1} <= set(pettingzoo.aec_registry)
    assert {KINGDOM_BUILDER_V0, KINGDOM_BUILDER_V1} <= set(pettingzoo.parallel_registry)
    pettingzoo.pprint_registry()
    assert KINGDOM_BUILDER_V1 in capsys.readouterr().out


def test_registration_is_idempotent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pettingzoo warns "Overriding environment ..." on a second register
        register_envs()
        register_envs()
    assert pettingzoo.spec("aec", KINGDOM_BUILDER_V1).entry_point == "kbenv.envs.kingdom_builder_v1:env"


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_make_is_the_module_env(env_id):
    module = IDS[env_id]
    made = pettingzoo.make("aec", env_id, num_players=3)
    assert type(made.unwrapped) is module.raw_env and made.metadata["name"] == module.ENV_NAME
    assert play(made, 4) == play(module.env(num_players=3), 4)  # the old module path plays the same game
    for spelling in (env_id.replace("-v", "_v"), env_id.rsplit("-", 1)[0] if env_id == KINGDOM_BUILDER_V1 else None):
        if spelling:
            assert type(pettingzoo.make("aec", spelling).unwrapped) is module.raw_env


def test_old_module_paths_still_work():
    assert type(kbenv.kingdom_builder_v1.env().unwrapped) is kingdom_builder_v1.raw_env
    assert type(kbenv.env().unwrapped) is kingdom_builder_v0.raw_env
    import kbenv.kingdom_builder_v1 as old  # the alias of kbenv.envs.kingdom_builder_v1

    assert old is kingdom_builder_v1


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_pettingzoo_api_test_through_the_registry(env_id):
    api_test(pettingzoo.make("aec", env_id, num_players=2), num_cycles=300)
    api_test(pettingzoo.make("aec", env_id, num_players=4), num_cycles=300)


def test_pettingzoo_seed_test_through_the_registry():
    seed_test(lambda: pettingzoo.make("aec", KINGDOM_BUILDER_V1, num_players=3, expansions=["nomads"]),
              num_cycles=200)


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_parallel_api_through_the_registry(env_id):
    env = pettingzoo.make("parallel", env_id, num_players=3)
    assert isinstance(env, pettingzoo.ParallelEnv)
    parallel_api_test(env, num_cycles=2000)
    parallel_seed_test(lambda: pettingzoo.make("parallel", env_id, num_players=2))


def test_parallel_plays_the_agent_to_move():
    env = pettingzoo.make("parallel", KINGDOM_BUILDER_V1, num_players=2)
    obs, infos = env.reset(seed=0)
    mover = env.aec_env.agent_selection
    assert obs[mover]["action_mask"].any()
    assert not any(obs[a]["action_mask"].any() for a in env.agents if a != mover)
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if a == mover else 0 for a in env.agents}
    obs, rewards, terminations, truncations, infos = env.step(actions)
    assert all(info["active_agent"] == env.aec_env.agent_selection for info in infos.values())


def test_without_import_kbenv_the_pettingzoo_registry_has_no_kbenv_ids():
    """PettingZoo 1.27 reads no package entry points: `import kbenv` fills its registry (the docs say so)."""
    code = ("import pettingzoo\n"
            "try:\n    pettingzoo.make('aec', 'kbenv/kingdom_builder-v1')\n"
            "except pettingzoo.env_registry.exceptions.PettingZooRegistryError as err:\n    print('missing', err)\n"
            "import kbenv\nprint(type(pettingzoo.make('aec', 'kbenv/kingdom_builder-v1').unwrapped).__name__)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("missing") and out.stdout.strip().endswith("raw_env")
