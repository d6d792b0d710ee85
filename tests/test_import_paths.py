"""The public import paths survive the move of the environment adapters into kbenv/envs/ (kbenv issue 21).

The adapters (AEC envs v0 and v1, gymnasium wrappers and ids, the VecEnv, OpenSpiel) live in `kbenv.envs`;
every path users and stored files name keeps working and gives the same objects, not copies.
"""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OLD_TO_NEW = {
    "kbenv.kingdom_builder_v0": "kbenv.envs.kingdom_builder_v0",
    "kbenv.kingdom_builder_v1": "kbenv.envs.kingdom_builder_v1",
    "kbenv.wrappers": "kbenv.envs.wrappers",
    "kbenv.vector_env": "kbenv.envs.vector_env",
    "kbenv.registration": "kbenv.envs.registration",
}


def test_the_top_level_names_are_the_envs():
    from kbenv import env, kingdom_builder_v0, kingdom_builder_v1, raw_env
    from kbenv.envs import kingdom_builder_v0 as v0
    from kbenv.envs import kingdom_builder_v1 as v1

    assert kingdom_builder_v0 is v0 and kingdom_builder_v1 is v1
    assert env is v0.env and raw_env is v0.raw_env
    e = kingdom_builder_v1.raw_env(num_players=3)
    e.reset(seed=0)
    assert e.agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("old", sorted(OLD_TO_NEW))
def test_an_old_path_is_the_same_module(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(OLD_TO_NEW[old])
    assert module.__name__ == OLD_TO_NEW[old] and module.__spec__.name == OLD_TO_NEW[old]


def test_from_old_paths_import_names():
    from kbenv.envs.vector_env import SelfPlayVecEnv as new_vec
    from kbenv.envs.wrappers import SelfPlayEnvV1 as new_v1
    from kbenv.vector_env import SelfPlayVecEnv
    from kbenv.wrappers import SelfPlayEnvV1

    assert SelfPlayVecEnv is new_vec and SelfPlayEnvV1 is new_v1


def test_openspiel_imports_by_its_old_path_in_a_fresh_interpreter():
    pytest.importorskip("pyspiel")
    code = ("import kbenv.openspiel, kbenv.envs.openspiel, pyspiel\n"
            "assert kbenv.openspiel is kbenv.envs.openspiel\n"
            "from kbenv.openspiel import GAME_NAME, GameSpec, Ruleset\n"
            "print(pyspiel.load_game(GAME_NAME).num_players(), Ruleset.__module__, GameSpec.__module__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2", "kbenv.ruleset", "kbenv.envs.openspiel"]  # the one Ruleset (issue 21)


def test_a_pickle_naming_the_old_module_loads():
    from kbenv.envs.wrappers import SelfPlayEnv

    old_reference = b"ckbenv.wrappers\nSelfPlayEnv\n."  # protocol 0: a global by module path and name
    assert pickle.loads(old_reference) is SelfPlayEnv


def test_gymnasium_ids_and_entry_points_resolve():
    import gymnasium

    import kbenv  # noqa: F401  (registers the ids)
    from kbenv.envs.registration import SELF_PLAY_V0, SELF_PLAY_V1

    for env_id in (SELF_PLAY_V0, SELF_PLAY_V1):
        entry = gymnasium.registry[env_id].entry_point
        module, name = entry.split(":")
        assert callable(getattr(importlib.import_module(module), name))
    env = gymnasium.make(SELF_PLAY_V1, num_players=2, expansions=["caves"])
    observation, info = env.reset(seed=1)
    assert observation.shape == (50, 20, 20) and info["action_mask"].shape == (478,)


def test_the_console_script_entry_point_resolves():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    for target in scripts.values():
        module, name = target.split(":")
        assert callable(getattr(importlib.import_module(module), name))


def test_unknown_names_under_kbenv_still_fail():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("kbenv.no_such_module")


# ----- the top of kbenv/ in folders: setup, positions, present and each expansion's Python side ---------------------
TOP_MOVES = {
    "kbenv.setup_expansions": "kbenv.setup.pieces", "kbenv.setup_marshlands": "kbenv.expansions.marshlands.setup",
    "kbenv.setup_harvest": "kbenv.expansions.harvest.setup",
    "kbenv.setup_harvest_cards": "kbenv.expansions.harvest.cards",
    "kbenv.setup_harvest_powers": "kbenv.expansions.harvest.powers",
    "kbenv.harvest_view": "kbenv.expansions.harvest.view", "kbenv.setup_island": "kbenv.expansions.island.setup",
    "kbenv.island_view": "kbenv.expansions.island.view", "kbenv.position": "kbenv.positions.files",
    "kbenv.position_state": "kbenv.setup.resume", "kbenv.words": "kbenv.present.words",
    "kbenv.explain": "kbenv.game.explain", "kbenv.view": "kbenv.game.view",
    "kbenv.colours": "kbenv.board.colours", "kbenv.render_text": "kbenv.present.text",
    "kbenv.render_image": "kbenv.present.image",
}


@pytest.mark.parametrize("old", sorted(TOP_MOVES))
def test_a_moved_top_module_keeps_its_old_path(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(TOP_MOVES[old]) and module.__name__ == TOP_MOVES[old]
    assert not (ROOT / (old.replace(".", "/") + ".py")).exists()  # an alias, no file


def test_old_top_paths_work_as_attributes_and_from_imports_in_a_fresh_interpreter():
    code = ("import kbenv\n"
            "from kbenv.view import PlayerView\n"
            "from kbenv.render_text import board_text\n"
            "from kbenv.setup import Setup, make_setup\n"
            "import kbenv.game.view, kbenv.present.text\n"
            "assert PlayerView is kbenv.game.view.PlayerView and board_text is kbenv.present.text.board_text\n"
            "assert kbenv.position is kbenv.positions.files and kbenv.words is kbenv.present.words\n"
            "assert Setup is kbenv.setup.options.Setup and make_setup is kbenv.setup.options.make_setup\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
