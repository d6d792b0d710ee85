"""The batch engine: equivalence with the single-game engine, auto-reset, masks, observations."""

from __future__ import annotations

import numpy as np
import pytest

from kbenv import Game, IllegalActionError, raw_env
from kbenv.engine import state as S
from kbenv.setup import SetupError
from kbenv.vector import VectorGames


def test_batch_games_equal_single_games_on_many_seeds():
    players = [2, 3, 4, 5] * 6
    v = VectorGames(len(players), num_players=players, record=True, auto_reset=True)
    v.reset(1000)
    records = []
    for _ in range(1500):
        records += v.step(v.random_actions()).records
    assert len(records) >= 24
    for record in records:
        seed, n = record["setup"]["seed"], record["setup"]["num_players"]
        single = Game.new(n, seed=seed)
        for a in record["actions"]:
            single.step(a)
        assert single.done
        replay = Game.from_record(record)
        assert replay.state_key() == single.state_key()
    for i in range(len(players)):  # games still running match too
        single = Game.new(int(v.num_players[i]), seed=int(v.seeds[i]))
        for a in v.actions[i]:
            single.step(a)
        assert single.state_key() == v.game(i).state_key()


def test_auto_reset_starts_the_slot_next_seed():
    v = VectorGames(3, num_players=2, auto_reset=True)
    v.reset([5, 6, 7])
    finished = np.zeros(3, dtype=bool)
    for _ in range(2000):
        result = v.step(v.random_actions())
        for i in np.flatnonzero(result.done):
            finished[i] = True
            assert v.seeds[i] == [5, 6, 7][i] + 3 * v.episodes[i]
            assert v.game(i).state_key() == Game.new(2, seed=int(v.seeds[i])).state_key()
            assert result.totals[i, :2].max() > 0
            assert sorted(result.rewards[i, :2]) in ([-1.0, 1.0], [1.0, 1.0])
        if finished.all():
            break
    assert finished.all()


def test_without_auto_reset_finished_games_stay_over():
    v = VectorGames(2, num_players=2, auto_reset=False)
    v.reset(0)
    while not v.done().all():
        rows = np.flatnonzero(~v.done())
        v.step(v.random_actions(rows), rows)
    assert v.legal_masks().sum() == 0


def test_masks_and_observations_match_the_single_game_and_aec_env():
    v = VectorGames(6, num_players=[2, 3, 4, 5, 3, 4])
    v.reset(40)
    env = raw_env(num_players=2)
    for _ in range(40):
        masks = v.legal_masks()
        obs = v.observations()
        for i in range(6):
            game = v.game(i)
            np.testing.assert_array_equal(masks[i], game.legal_mask())
            env.game = game
            env.num_players = game.num_players
            env.agent_name_mapping = {f"player_{p}": p for p in range(game.num_players)}
            expected = env.observe(f"player_{game.current_player}")
            np.testing.assert_array_equal(obs[i], expected["observation"])
        v.step(v.random_actions())


def test_illegal_action_raises_and_changes_no_game():
    v = VectorGames(4, num_players=2)
    v.reset(3)
    before = v.states.copy()
    actions = v.random_actions()
    bad = int(np.flatnonzero(v.legal_masks()[2] == 0)[0])
    actions[2] = bad
    with pytest.raises(IllegalActionError, match=rf"game 2: action {bad}"):
        v.step(actions)
    np.testing.assert_array_equal(v.states[:, :100], before[:, :100])
    assert all(Game.new(2, seed=3 + i).state_key() == v.game(i).state_key() for i in range(4))


def test_forced_options_match_game_new():
    v = VectorGames(3, num_players=3, preset="first-game")
    v.reset(11)
    for i in range(3):
        assert v.game(i).state_key() == Game.new(3, seed=11 + i, preset="first-game").state_key()
    cards = ["lords", "citizens", "farmers"]
    w = VectorGames(2, num_players=4, sections=[("barn", True), ("tower", False), ("harbor", True), ("oracle", False)],
                    cards=cards)
    w.reset(2)
    for i in range(2):
        g = Game.new(4, seed=2 + i, sections=[("barn", True), ("tower", False), ("harbor", True), ("oracle", False)],
                     cards=cards)
        assert w.game(i).state_key() == g.state_key()


def test_greedy_actions_are_legal_and_seeded():
    a, b = VectorGames(4, num_players=3), VectorGames(4, num_players=3)
    a.reset(8)
    b.reset(8)
    for _ in range(60):
        masks = a.legal_masks()
        ga, gb = a.greedy_actions(), b.greedy_actions()
        np.testing.assert_array_equal(ga, gb)
        assert all(masks[i, ga[i]] for i in range(4))
        a.step(ga)
        b.step(gb)


def test_greedy_beats_random_in_a_small_match():
    """A sanity check of the greedy kernel (the strength figures are measured by tournaments)."""
    v = VectorGames(16, num_players=2, auto_reset=False)
    v.reset(500)
    greedy_seat = np.arange(16) % 2
    while not v.done().all():
        rows = np.flatnonzero(~v.done())
        movers = v.current_players()[rows]
        use_greedy = movers == greedy_seat[rows]
        actions = np.where(use_greedy, v.greedy_actions(rows), v.random_actions(rows))
        v.step(actions, rows)
    wins = sum(v.game(i).winners() == [int(greedy_seat[i])] for i in range(16))
    assert wins >= 12


def test_vector_env_runs_maskable_ppo():
    from sb3_contrib import MaskablePPO

    from kbenv.vector_env import SelfPlayVecEnv

    env = SelfPlayVecEnv(4, num_players=2, opponents=["random", "greedy"], seed=1)
    obs = env.reset()
    assert obs.shape == (4, 28, 20, 20)
    masks = env.action_masks()
    assert masks.shape == (4, 409) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(total_timesteps=256)
    episodes = 0
    for _ in range(400):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()])
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            episodes += 1
            assert rewards[i] in (-1.0, 1.0)
            assert infos[i]["terminal_observation"].shape == (28, 20, 20)
    assert episodes > 0


def test_fused_random_step_matches_separate_calls_and_records():
    a = VectorGames(6, num_players=[2, 3, 4, 5, 2, 3], record=True)
    b = VectorGames(6, num_players=[2, 3, 4, 5, 2, 3], record=True)
    a.reset(70)
    b.reset(70)
    records_a, records_b = [], []
    for _ in range(700):
        actions, result, obs = a.step_random(observe=True)
        expected_obs_rows = a.observations()
        np.testing.assert_array_equal(obs, expected_obs_rows)
        records_a += result.records
        chosen = b.random_actions()
        np.testing.assert_array_equal(chosen, actions)
        records_b += b._apply(chosen, b.all_rows).records
    np.testing.assert_array_equal(a.states[:, : S.SCRATCH], b.states[:, : S.SCRATCH])
    assert records_a == records_b and len(records_a) > 0
    for record in records_a:
        assert Game.from_record(record).done


def test_greedy_best_masks_contain_the_greedy_choice():
    v = VectorGames(6, num_players=[2, 3, 4, 5, 2, 3])
    v.reset(90)
    for _ in range(40):
        best = v.greedy_best_masks()
        masks = v.legal_masks()
        chosen = v.greedy_actions()
        assert (best <= masks).all()
        assert all(best[i, chosen[i]] for i in range(6))
        v.step(chosen)


def test_a_base_game_in_the_v1_layout_keeps_the_v0_decisions():
    from kbenv.layout import V0, V1

    v1 = VectorGames(3, 2, layout="v1", auto_reset=False)
    v0 = VectorGames(3, 2, auto_reset=False)
    v1.reset(40)
    v0.reset(40)
    assert v1.observation_shape == (V1.num_channels, 20, 20) and v1.action_size == V1.action_size
    masks = v1.legal_masks(v1.all_rows)
    np.testing.assert_array_equal(masks[:, : V0.action_size], v0.legal_masks(v0.all_rows))
    assert not masks[:, V0.action_size :].any()
    assert v1.observations(v1.all_rows).shape == (3, V1.num_channels, 20, 20)


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"layout": "v2"}, "layout: expected one of v0, v1"),
    ({"layout": "v0", "expansions": ["nomads"]}, "layout: v0 cannot show the expansions of nomads"),
])
def test_a_bad_layout_is_refused_by_name(kwargs, named):
    with pytest.raises(SetupError, match=named):
        VectorGames(2, 2, **kwargs)
