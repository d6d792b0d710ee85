"""The network evaluator's cache (agents.alphazero.network.NetworkEvaluator(cache=N)): a row met again is answered
with the network's outputs for it without a forward pass; the search agents use it and play the same moves; a
self-play run with `evaluation_cache` clears it every round, so that it resumes bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.alphazero.network import NetworkEvaluator, PolicyValueNet, load_network
from agents.az import AZSearchAgent
from agents.evaluation.play import play_game
from agents.registry import make_agent
from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig

from .test_alphazero import _tiny_config


class CountingNet(torch.nn.Module):
    """A search network that counts the rows passed through it."""

    def __init__(self, net: PolicyValueNet):
        super().__init__()
        self.inner = net
        self.config, self.action_size = net.config, net.action_size
        self.rows = 0

    def forward(self, obs):
        self.rows += len(obs)
        return self.inner(obs)


@pytest.fixture
def net(random_model) -> CountingNet:
    return CountingNet(load_network(random_model)[0]).eval()


def observations(net, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((count, net.config["input_channels"], 20, 20)) > 0.7).astype(np.float32)


def test_rows_met_again_skip_the_network_and_get_its_outputs(net):
    plain = NetworkEvaluator(net)
    cached = NetworkEvaluator(net, cache=100)
    first, second = observations(net, 6, 1), observations(net, 4, 2)
    calls = [first, np.concatenate([second[:2], first[[4, 1]], second[2:]]), first[[0, 0, 3]]]
    net.rows = 0
    for obs in calls:
        logits, values = cached.infer(obs)
        want = plain.infer(obs)
        np.testing.assert_allclose(logits, want[0], atol=1e-4)
        np.testing.assert_allclose(values, want[1], atol=1e-4)
        assert logits.shape == (len(obs), net.action_size) and values.shape == (len(obs), 5)
    asked = sum(len(obs) for obs in calls)
    assert cached.positions == asked and cached.cache_hits == 2 + 3  # the second call's 2 old rows, the third's 3
    assert net.rows == asked + (asked - cached.cache_hits)  # the plain evaluator's rows, then the cache's misses
    net.rows = 0
    cached.infer(first)  # all six cached
    assert net.rows == 0 and cached.cache_hits == 11


def test_a_row_twice_in_one_call_goes_through_the_network_once(net):
    cached = NetworkEvaluator(net, cache=10)
    obs = observations(net, 3, 5)
    net.rows = 0
    logits, _ = cached.infer(obs[[0, 1, 0, 2, 1]])
    assert net.rows == 3 and cached.cache_hits == 2
    assert np.array_equal(logits[0], logits[2]) and np.array_equal(logits[1], logits[4])


def test_the_cache_keeps_the_most_recent_rows_and_can_be_cleared(net):
    cached = NetworkEvaluator(net, cache=4)
    obs = observations(net, 6, 7)
    cached.infer(obs[:4])
    cached.infer(obs[[0]])  # row 0 used again: the least recently used is now row 1
    cached.infer(obs[[4]])  # in: row 4, out: row 1
    net.rows = 0
    cached.infer(obs[[0, 2, 3, 4]])
    assert net.rows == 0
    cached.infer(obs[[1]])
    assert net.rows == 1 and len(cached._cache) == 4
    cached.clear_cache()
    net.rows = 0
    cached.infer(obs[[0]])
    assert net.rows == 1


def test_an_empty_call_gives_empty_outputs(net):
    logits, values = NetworkEvaluator(net, cache=10).infer(observations(net, 0, 1))
    assert logits.shape == (0, net.action_size) and values.shape == (0, 5)


def test_a_negative_cache_is_refused(net):
    with pytest.raises(ValueError, match="cache: expected a number of rows >= 0, got -1"):
        NetworkEvaluator(net, cache=-1)


@pytest.mark.parametrize("search", ["compiled", "python"])
def test_the_search_agent_plays_the_same_moves_with_its_cache(random_model, search):
    moves = {}
    for cache in (0, 4096):
        agent = AZSearchAgent(random_model, sims=8, considered=4, seed=3, search=search, cache=cache)
        result = play_game(11, 2, ["az", "greedy"], [agent, make_agent("greedy", seed=1)])
        moves[cache] = result.record["actions"]
        if cache:
            assert agent.evaluator.cache_hits > 0.1 * agent.evaluator.positions  # transpositions and repeats
    assert moves[0] == moves[4096]


def test_a_run_with_the_cache_resumes_bit_for_bit(tmp_path):
    over = dict(evaluation_cache=5000)
    straight = Run(_tiny_config(tmp_path / "a", **over), log=lambda *_: None)
    card = straight.run(progress=False)
    assert card["evaluation_cache"] == 5000 and 0 < card["cached_evaluations"] < straight.evaluations
    Run(_tiny_config(tmp_path / "b", iterations=2, **over), log=lambda *_: None).run(progress=False)
    resumed = Run(_tiny_config(tmp_path / "b", **over), resume=True, log=lambda *_: None)
    resumed.run(progress=False)
    for (name, x), y in zip(straight.net.state_dict().items(), resumed.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    assert [g.actions for g in straight.selfplay.games] == [g.actions for g in resumed.selfplay.games]
    np.testing.assert_array_equal(straight.buffer.states, resumed.buffer.states)
    assert resumed.cached_evaluations == straight.cached_evaluations


def test_the_config_field_names_itself():
    with pytest.raises(ValueError, match="field 'evaluation_cache'"):
        AlphaZeroConfig.from_dict({"method": "alphazero", "evaluation_cache": -1})
    assert AlphaZeroConfig().evaluation_cache == 0  # off unless a config asks: old runs stay as they were
