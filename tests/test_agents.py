"""Agents: legality, determinism, and that no agent uses information its player cannot see."""

from __future__ import annotations

import numpy as np
import pytest

from agents import GreedyAgent, MCTSAgent, RandomAgent, make_agent, parse_spec
from agents.evaluation.play import play_game
from kbenv import Game
from kbenv.game.view import PlayerView
from kbenv.observation import action_mask, observation_planes

from .conftest import play_random


def decide(agent, game: Game, seed: int) -> int:
    agent.reset(seed)
    p = game.current_player
    return agent.act(observation_planes(game.state, p), action_mask(game.state, p), PlayerView(game, p))


def positions(count: int):
    for k in range(count):
        game = Game.new(2 + k % 4, seed=300 + k)
        play_random(game, np.random.default_rng(k), max_decisions=15 + 11 * k)
        if not game.done:
            yield game


@pytest.mark.parametrize("spec", ["random", "greedy", "lookahead", "mcts:sims=24"])
def test_agents_choose_legal_actions_and_are_seeded(spec):
    for game in positions(6):
        a = decide(make_agent(spec), game, 5)
        b = decide(make_agent(spec), game, 5)
        assert a == b
        assert game.legal_mask()[a]


@pytest.mark.parametrize("spec", ["random", "greedy", "lookahead", "mcts:sims=24"])
def test_agents_do_not_see_hidden_information(spec):
    """Re-dealing the hands and deck this player cannot see never changes the decision."""
    for game in positions(5):
        p = game.current_player
        expected = decide(make_agent(spec), game, 11)
        for k in range(3):
            world = game.determinize(p, np.random.default_rng(k))
            assert decide(make_agent(spec), world, 11) == expected


def test_player_view_hides_other_hands():
    game = Game.new(4, seed=2)
    play_random(game, np.random.default_rng(0), max_decisions=20)
    me = (game.current_player + 1) % 4
    view = PlayerView(game, me)
    for p in range(4):
        if p in (me, game.current_player):
            assert view.hand(p) == game.hand(p)
        else:
            assert view.hand(p) is None
    assert not hasattr(view, "state")
    assert view.legal_mask().sum() == 0  # not this player's decision


def test_greedy_prefers_the_scoring_build():
    """Fishermen: the greedy mandatory build is next to water when that is the only gold on offer."""
    board = ["M" * 20 for _ in range(20)]
    rows = [list(r) for r in board]
    for c in range(2, 8):
        rows[5][c] = "G"
    rows[4][8] = "W"  # row 5 is odd: (5,7) touches (4,7) and (4,8); (5,6) only (4,6) and (4,7)
    rows[19][19] = "T"  # player 1's settlement stands on forest, far away
    board = ["".join(r) for r in rows]
    game = Game.custom(board=board, num_players=2, cards=["fishermen", "hermits", "knights"],
                       settlements=[[], [(19, 19)]], hands=["G", "G"])
    agent = GreedyAgent(seed=0)
    choice = decide(agent, game, 0)
    # Hermits +1 for any lone settlement, Knights +2 for any: only Fishermen differs -> (5,7).
    assert choice == 5 * 20 + 7


def test_mcts_options_are_checked():
    agent = MCTSAgent(sims=60, seed=0)
    assert agent.sims == 60 and agent.name.startswith("mcts")
    with pytest.raises(ValueError, match="rollout"):
        MCTSAgent(rollout="clever")


def test_spec_parsing():
    assert parse_spec("mcts:sims=400,rollout=greedy") == ("mcts", {"sims": 400, "rollout": "greedy"})
    assert parse_spec("greedy") == ("greedy", {})
    with pytest.raises(ValueError, match="unknown agent"):
        parse_spec("alphazero")
    with pytest.raises(ValueError, match="key=value"):
        parse_spec("mcts:400")
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        make_agent("ppo:path=/nonexistent/model.zip")


def test_play_game_records_replay():
    result = play_game(0, 9, ["greedy", "random", "random"], [GreedyAgent(0), RandomAgent(1), RandomAgent(2)])
    game = Game.from_record(result.record)
    assert game.done and [int(x) for x in game.score_table()[:, -1]] == result.gold
    assert sorted(result.places) == sorted([1.0, 2.0, 3.0]) or len(set(result.gold)) < 3
