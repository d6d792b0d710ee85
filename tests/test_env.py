"""The PettingZoo AEC environment: API conformance, masks, hidden information, rewards, rendering."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from kbenv import Game, IllegalActionError, env, raw_env
from kbenv.board.codes import card_index as kbenv_card_index
from kbenv.engine.observe import (
    CH_LEGAL,
    CH_OPPONENTS,
    CH_OWN,
    F_CARDS,
    F_MOVER_CARD,
    F_OWN_CARD,
    F_SUPPLY,
    F_TO_MOVE,
    NUM_CHANNELS,
)
from kbenv.observation import features
from kbenv.rewards import terminal_rewards

PLAYERS = [2, 3, 4, 5]


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_api(players):
    api_test(env(num_players=players), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_seed(players):
    seed_test(lambda: env(num_players=players), num_cycles=300)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_render(players):
    render_test(lambda render_mode=None: env(num_players=players, render_mode=render_mode))


def test_spaces_are_the_same_objects_every_call():
    e = raw_env(num_players=3)
    for agent in e.possible_agents:
        assert e.observation_space(agent) is e.observation_space(agent)
        assert e.action_space(agent) is e.action_space(agent)
        assert e.action_space(agent).n == 409
        assert e.observation_space(agent)["observation"].shape == (NUM_CHANNELS, 20, 20)


def random_walk(e, rng, steps):
    for _ in range(steps):
        if all(e.terminations.values()):
            break
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_observation_and_mask_agree_with_the_engine():
    e = raw_env(num_players=4)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(150):
        game = e.game
        mover = game.current_player
        assert e.agent_selection == f"player_{mover}"
        for p, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert e.observation_space(agent).contains(obs)
            if p == mover:
                np.testing.assert_array_equal(obs["action_mask"], game.legal_mask())
                legal_hexes = {divmod(a, 20) for a in np.flatnonzero(game.legal_mask()[:400])}
                assert {tuple(rc) for rc in np.argwhere(obs["observation"][CH_LEGAL])} == legal_hexes
                assert features(obs["observation"])[F_TO_MOVE] == 1.0
            else:
                assert obs["action_mask"].sum() == 0
                assert obs["observation"][CH_LEGAL].sum() == 0
            own = {tuple(rc) for rc in np.argwhere(obs["observation"][CH_OWN])}
            assert own == game.settlements(p)
            for k in range(1, 4):
                other = {tuple(rc) for rc in np.argwhere(obs["observation"][CH_OPPONENTS + k - 1])}
                assert other == game.settlements((p + k) % 4)
            f = features(obs["observation"])
            own_card = "GCDFT".index(game.hand(p))
            np.testing.assert_array_equal(f[F_OWN_CARD : F_OWN_CARD + 5], np.eye(5)[own_card])
            mover_card = "GCDFT".index(game.hand(mover))
            np.testing.assert_array_equal(f[F_MOVER_CARD : F_MOVER_CARD + 5], np.eye(5)[mover_card])
            for k in range(4):
                assert f[F_SUPPLY + k] == pytest.approx(game.supply((p + k) % 4) / 40)
            in_play = {kbenv_card_index(c) for c in game.cards}
            assert {int(i) for i in np.flatnonzero(f[F_CARDS : F_CARDS + 10])} == in_play
        random_walk(e, rng, 1)


def test_agent_keeps_the_selection_for_its_whole_turn():
    e = raw_env(num_players=3)
    e.reset(seed=2)
    rng = np.random.default_rng(3)
    turns = []
    previous_turn = e.game.turn
    for _ in range(200):
        if all(e.terminations.values()):
            break
        if e.game.turn == previous_turn and turns:
            assert turns[-1] == e.agent_selection
        turns.append(e.agent_selection)
        previous_turn = e.game.turn
        random_walk(e, rng, 1)
    assert len(set(turns)) == 3


@pytest.mark.parametrize("seed", range(6))
def test_no_hidden_information_leaks_into_observations(seed):
    """Re-dealing what an agent cannot see does not change its observation."""
    e = raw_env(num_players=4)
    e.reset(seed=seed)
    random_walk(e, np.random.default_rng(seed), 40 + 13 * seed)
    game = e.game
    changed_hidden = False
    for p, agent in enumerate(e.possible_agents):
        base = e.observe(agent)
        for k in range(5):
            world = game.determinize(p, np.random.default_rng(100 + k))
            e.game = world
            other = e.observe(agent)
            e.game = game
            np.testing.assert_array_equal(base["observation"], other["observation"])
            np.testing.assert_array_equal(base["action_mask"], other["action_mask"])
            changed_hidden |= any(world.hand(q) != game.hand(q) for q in range(4)) or (
                world.deck_cards() != game.deck_cards()
            )
    assert changed_hidden, "the re-deal must really change hidden cards for the test to mean anything"


def test_state_shows_everything():
    e = raw_env(num_players=3)
    e.reset(seed=1)
    s = e.state()
    assert s.shape == e.state_space.shape
    hands = s[NUM_CHANNELS : NUM_CHANNELS + 25]
    for k in range(3):
        seat = (e.game.current_player + k) % 3
        assert hands[5 * k + "GCDFT".index(e.game.hand(seat))].min() == 1.0
    assert s[NUM_CHANNELS + 25 :, 0, 0].sum() == pytest.approx(e.game.deck_size() * 0.2)


def test_raw_env_illegal_action_raises_and_changes_nothing():
    e = raw_env(num_players=2)
    e.reset(seed=0)
    before = e.game.state_key()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=str(illegal)):
        e.step(illegal)
    assert e.game.state_key() == before


def test_wrapped_env_illegal_action_ends_the_game_with_a_penalty():
    e = env(num_players=3)
    e.reset(seed=0)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


@pytest.mark.parametrize(
    ("totals", "scheme", "expected"),
    [
        ([40, 30], "win", [1, -1]),
        ([40, 40, 10], "win", [1, 1, -1]),
        ([10, 10, 10, 10], "win", [1, 1, 1, 1]),
        ([50, 40, 30], "rank", [1, 0, -1]),
        ([50, 50, 30], "rank", [0.5, 0.5, -1]),  # places 1 and 0 shared: (1 + 0) / 2
        ([20, 60, 40, 60, 10], "rank", [-0.5, 0.75, 0, 0.75, -1]),
        ([50, 30], "score", [0.2, -0.2]),
        ([60, 30, 30], "score", [0.3, -0.15, -0.15]),
    ],
)
def test_reward_schemes(totals, scheme, expected):
    np.testing.assert_allclose(terminal_rewards(totals, scheme), expected)


@pytest.mark.parametrize("scheme", ["win", "rank", "score"])
def test_rewards_at_the_end_of_a_game(scheme):
    e = raw_env(num_players=3, reward=scheme)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    while not all(e.terminations.values()):
        for agent in e.possible_agents:
            if agent != e.agent_selection:
                assert e.rewards[agent] == 0
        random_walk(e, rng, 1)
    totals = e.game.score_table()[:, -1]
    expected = terminal_rewards(totals, scheme)
    for p, agent in enumerate(e.possible_agents):
        assert e.rewards[agent] == pytest.approx(expected[p])
        assert e.infos[agent]["gold"] == totals[p]


def test_end_reward_on_a_hand_built_final_position():
    """Player 0 builds its last settlement next to a castle; the game ends after player 1's turn."""
    board = ["M" * 20 for _ in range(20)]
    rows = [list(r) for r in board]
    for c in range(0, 6):
        rows[0][c] = "G"
        rows[19][c] = "C"
    rows[1][3] = "K"
    board = ["".join(r) for r in rows]
    game = Game.custom(
        board=board, num_players=2, cards=["fishermen", "knights", "merchants"],
        settlements=[[(0, 0), (0, 1)], [(19, 0)]], supply=[1, 30], hands=["G", "C"], deck=["C", "G", "G"],
    )
    e = raw_env(num_players=2)
    e.reset(seed=0)
    e.game = game
    e.agent_selection = "player_0"
    e.step(60 * 0 + 2)  # hex (0, 2): player 0's last settlement
    assert not any(e.terminations.values())
    assert e.agent_selection == "player_1"
    for a in (19 * 20 + 1, 19 * 20 + 2, 19 * 20 + 3):
        e.step(a)
    assert all(e.terminations.values())
    # Player 0: knights 2 x 3 = 6, no castle ((0,2)'s neighbours in row 1 are (1,1), (1,2)).
    # Player 1: knights 2 x 4 = 8.  Player 1 wins.
    assert [s["total"] for s in e.game.scores()] == [6, 8]
    assert e.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_rgb_array_is_a_picture_of_the_board():
    e = raw_env(num_players=4, render_mode="rgb_array")
    e.reset(seed=3)
    random_walk(e, np.random.default_rng(0), 60)
    image = e.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 400 and image.shape[1] > 800
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20


def test_bad_arguments_name_the_field():
    from kbenv import SetupError

    for kwargs, field in (
        ({"num_players": 1}, "num_players"),
        ({"reward": "gold"}, "reward"),
        ({"render_mode": "svg"}, "render_mode"),
        ({"cards": ["fishermen"]}, "cards"),
    ):
        with pytest.raises(SetupError, match=field):
            raw_env(**kwargs)


@pytest.mark.parametrize("scheme", ["win", "rank", "score"])
def test_numba_rewards_equal_python_rewards(scheme):
    from kbenv.rewards import REWARD_SCHEMES, terminal_rewards_into

    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(2, 6))
        totals = rng.integers(0, 6, size=5) * 10
        out = np.zeros(5)
        terminal_rewards_into(totals, n, REWARD_SCHEMES.index(scheme), out)
        np.testing.assert_allclose(out[:n], terminal_rewards(totals[:n], scheme))
