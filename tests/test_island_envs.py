"""The Island in the envs and in training (issue 23 part 2): the v1 PettingZoo env (api_test), the self-play env
and VecEnv, OpenSpiel (ISMCTS re-deals keep the island) and a tiny AlphaZero run.

Island games are recognised by what the rules give them (EN 1443: one location hex with 2 tiles among the island
hexes 400..419; QI-1: settlements may be built there), not by numbers copied from a run.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from kbenv import catalogue as CAT
from kbenv.board.geometry import ISLAND_FIRST
from kbenv.engine import observe_v1 as O
from kbenv.engine import state as S
from kbenv.envs import kingdom_builder_v1
from kbenv.envs.vector_env import SelfPlayVecEnv
from kbenv.envs.wrappers import SelfPlayEnvV1
from kbenv.setup import SetupError

ISLAND_ACTIONS = range(CAT.ISLAND_ACTION_BASE, CAT.ACTION_SIZE_V1)


def has_island(st: np.ndarray) -> bool:
    return st[S.ISLAND_LOC_AT] - 1 >= ISLAND_FIRST and st[S.ISLAND_LOC_TILES] <= 2


def test_pettingzoo_api_test_with_the_island():
    env = kingdom_builder_v1.env(num_players=3, expansions=["island"], island_side="island-substitute-2")
    api_test(env, num_cycles=200)


def test_pettingzoo_plays_an_island_game_to_the_end():
    env = kingdom_builder_v1.env(num_players=2, expansions=["island", "harvest"])
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    island_legal = island_taken = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert obs["observation"].shape == (50, 20, 20)
        assert obs["observation"][O.CH_FEATURES_V1].reshape(400)[O.F_ISLAND] == 1.0  # "Island in play"
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        island = [a for a in legal if a in ISLAND_ACTIONS]
        island_legal += bool(island)
        action = int(island[0] if island and rng.random() < 0.5 else rng.choice(legal))
        island_taken += action in ISLAND_ACTIONS
        env.step(action)
    assert island_legal > 0 and island_taken > 0
    assert env.unwrapped.game.done and has_island(env.unwrapped.game.state)


def test_island_side_options_are_checked():
    side2 = kingdom_builder_v1.raw_env(num_players=2, expansions=["island"], island_side="island-substitute-2")
    side2.reset(seed=1)
    assert side2.game.state[S.ISLAND_LOC_TYPE] == CAT.LOCATION_NAMES.index("tree_house")
    with pytest.raises(SetupError, match="island_side"):
        kingdom_builder_v1.raw_env(num_players=2, expansions=["nomads"], island_side="island-substitute-1")
    with pytest.raises(SetupError, match="island_side"):
        SelfPlayEnvV1(2, expansions=["island"], island_side="no-such-side")


def test_self_play_env_plays_island_games():
    env = SelfPlayEnvV1(3, expansions=["island"], island_side="island-substitute-1", learner_seat=0)
    obs, _ = env.reset(seed=5)
    assert obs.shape == (50, 20, 20) and has_island(env.game.state)
    assert env.game.state[S.ISLAND_LOC_TYPE] == CAT.LOCATION_NAMES.index("rope_bridge")
    rng = np.random.default_rng(1)
    done = False
    while not done:
        mask = env.action_masks()
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert env.game.done


def test_vec_env_packed_island_games():
    """SelfPlayVecEnv over the batch engine: packed rows unpack to the float observation of the same games."""
    env = SelfPlayVecEnv(4, [2, 3], opponents=("random", "greedy"), expansions=["island", "crossroads"],
                         packed=True, seed=2)
    obs = env.reset()
    rng = np.random.default_rng(2)
    layout = env.games.packed_layout
    finished = 0
    for _ in range(150):
        assert np.array_equal(layout.unpack(obs), env.games.observations(env.games.all_rows, env.learner,
                                                                        packed=False))
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, dones, _ = env.step(actions)
        finished += int(dones.sum())
    assert all(has_island(st) for st in env.games.states)
    assert layout.unpack(obs)[:, O.CH_ISLAND_HEXES].any()


def test_openspiel_island_games_and_ismcts_redeals():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.ismcts import ISMCTSBot
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    import kbenv.openspiel as kos

    game = kos.load_game(2, "island")
    assert game.observation_tensor_shape() == [50, 20, 20] and game.num_distinct_actions() == 478
    state = game.new_initial_state()
    for outcome in kos.seed_actions(9):
        state.apply_action(outcome)
    st = state.kbenv_game.state
    island = st[S.ISLAND_LOC_AT : S.ISLAND_LOC_TILES + 1].copy()
    assert has_island(st)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    for player in range(2):
        other = state.resample_from_infostate(player, sampler)
        ost = other.kbenv_game.state
        assert np.array_equal(ost[S.ISLAND_LOC_AT : S.ISLAND_LOC_TILES + 1], island)
        assert np.array_equal(ost[S.TERRAIN_MASKS : S.TERRAIN_MASKS + 20 * S.WORDS],
                              st[S.TERRAIN_MASKS : S.TERRAIN_MASKS + 20 * S.WORDS])
        assert other.observation_tensor(player) == state.observation_tensor(player)
    bot = ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.4, 20,
                    random_state=np.random.RandomState(0))
    bot.set_resampler(kos.seeded_resampler(0))
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_alphazero_config_takes_the_island(tmp_path, monkeypatch):
    from agents.training.az_config import AlphaZeroConfig

    config = AlphaZeroConfig.from_dict({"expansions": ["island"], "island_side": "island-substitute-2"})
    assert config.setup() == {"expansions": ["island"], "island_side": "island-substitute-2"}
    with pytest.raises(ValueError, match="island_side"):
        AlphaZeroConfig.from_dict({"expansions": ["harvest"], "island_side": "island-substitute-2"})
    with pytest.raises(ValueError, match="island_side"):
        AlphaZeroConfig.from_dict({"expansions": ["island"], "island_side": "island-substitute-3"})
    with pytest.raises(ValueError, match="island_side"):
        AlphaZeroConfig.from_dict({"expansions": [], "island_side": "island-substitute-1"})


def test_a_tiny_alphazero_run_with_the_island(tmp_path):
    """Self-play, training and evaluation on island games: the network has a logit for every island action."""
    import torch

    from agents.training.alphazero import Run
    from agents.training.az_config import AlphaZeroConfig

    config = AlphaZeroConfig.from_dict(dict(
        name="island", expansions=["island"], games=2, simulations=2, considered=2, channels=4, blocks=1,
        head_channels=1, iterations=1, steps_per_iteration=30, train_batches=1, batch_size=8, buffer_positions=500,
        min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"], checkpoint_every=1, device="cpu",
        threads=1, seed=1, out_dir=str(tmp_path)))
    trainer = Run(config, log=lambda *_: None)
    assert trainer.net.config["input_channels"] == 50 and trainer.net.action_size == 478
    card = trainer.run(progress=False)
    assert card["self_play_positions"] == 2 * 30
    assert all(has_island(g.state) for g in trainer.selfplay.games)
    obs = torch.zeros((1, 50, 20, 20))
    logits, _ = trainer.net(obs)
    assert logits.shape == (1, 478)
    assert (tmp_path / "island" / "model.pt").exists()
