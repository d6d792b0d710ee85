"""The search agent over several determinizations (`az:...,dets=K`): one batch of re-dealt roots, the action
with the largest mean improved policy, and still nothing the player cannot see."""

from __future__ import annotations

import numpy as np
import pytest

from agents.alphazero.compiled_search import make_search
from agents.az import AZSearchAgent
from agents.evaluation.play import agent_inputs
from agents.registry import make_agent, parse_spec
from kbenv.game import Game
from kbenv.game.view import PlayerView

from .game_checks import swap_hidden_cards


def _game(players: int, seed: int, moves: int) -> Game:
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        game.step(int(rng.choice(game.legal_actions())))
    return game


@pytest.mark.parametrize("search", ["compiled", "python"])
def test_the_roots_are_searched_as_separate_searches_would_and_their_policies_averaged(random_model, search):
    """dets=3 searches the three roots its generator re-deals as three single searches would (one batch
    does not let the roots disturb each other) and plays the largest mean improved policy."""
    differing = 0
    for seed, moves in ((3, 10), (4, 23), (5, 31), (6, 40)):
        game = _game(2, seed, moves)
        p = game.decider
        agent = AZSearchAgent(random_model, sims=8, considered=4, search=search, seed=7, dets=3)
        results = agent.search_determinizations(PlayerView(game, p))

        rng = np.random.default_rng(7)
        view = PlayerView(game, p)
        roots = [view.determinize(rng).state for _ in range(3)]
        assert len({root.tobytes() for root in roots}) == 3  # three different deals
        single = make_search(search, agent.evaluator, num_simulations=8, max_considered=4, gumbel_scale=0.0)
        for root, result in zip(roots, results, strict=True):
            alone = single.run([root], [np.random.default_rng(0)])[0]
            assert result.visits == alone.visits
            np.testing.assert_allclose(result.policy, alone.policy, atol=1e-5)  # batch-size float noise only
        policies = np.array([result.policy for result in results])
        differing += not np.allclose(policies, policies[0], atol=1e-3)

        agent.reset(7)
        chosen = agent.act(*agent_inputs(game, p))
        assert chosen == int(np.argmax(policies.mean(axis=0)))
        assert game.legal_mask()[chosen]
    assert differing  # in some position the deals gave different policies: the mean is not one search's


@pytest.mark.parametrize("players", [2, 4])
def test_hidden_cards_never_reach_the_determinized_search(random_model, players):
    game = _game(players, 11, 14)
    p = game.decider
    twin = swap_hidden_cards(game, p)
    for search in ("compiled", "python"):
        first = AZSearchAgent(random_model, sims=8, considered=4, search=search, seed=2, dets=4)
        second = AZSearchAgent(random_model, sims=8, considered=4, search=search, seed=2, dets=4)
        assert first.act(*agent_inputs(game, p)) == second.act(*agent_inputs(twin, p))


def test_one_legal_action_is_played_without_a_search(random_model):
    game = Game.new(2, seed=6)
    while len(game.legal_actions()) != 1:
        game.step(game.legal_actions()[0])
    agent = AZSearchAgent(random_model, sims=8, search="compiled", seed=0, dets=3)
    assert agent.act(*agent_inputs(game, game.decider)) == game.legal_actions()[0]


def test_dets_in_an_agent_spec(random_model):
    assert parse_spec(f"az:path={random_model},sims=8,dets=4")[1]["dets"] == 4
    agent = make_agent(f"az:path={random_model},sims=8,search=compiled,dets=4", seed=0)
    assert agent.dets == 4 and agent.name.endswith(",dets=4")
    assert make_agent(f"az:path={random_model},sims=8", seed=0).dets == 1
    for bad in ("0", "-2", "two", "1.5"):
        with pytest.raises(ValueError, match="dets"):
            parse_spec(f"az:path={random_model},dets={bad}")
    with pytest.raises(ValueError, match="dets"):
        AZSearchAgent(random_model, sims=8, dets=0)


def test_a_shipped_model_takes_dets():
    agent = make_agent("trained:2p,sims=4,dets=2", seed=0)
    assert agent.dets == 2
    game = _game(2, 9, 12)
    assert game.legal_mask()[agent.act(*agent_inputs(game, game.decider))]
