"""The search's sigma(q) with a floor on the candidates' value range (`min_spread`, config `min_q_spread`):
worked out by hand, the same in the Python and the compiled search, and 0 keeps the paper's min-max."""

from __future__ import annotations

import numpy as np
import pytest

from agents.alphazero.compiled_search import CompiledGumbelSearch, make_search
from agents.alphazero.network import observations
from agents.alphazero.search import GumbelSearch
from agents.training.az_config import AlphaZeroConfig
from kbenv.catalogue import ACTION_SIZE_V0
from tests.test_compiled_search import ProjectionNet, assert_same, both, positions


class _Node:
    def __init__(self, visits):
        self.visits = np.asarray(visits)


def test_sigma_by_hand():
    q = np.array([0.0, 0.01, 0.02])  # values 0.3 and 0.6 gold apart (margins / 30)
    node = _Node([10, 4, 2])  # most visits 10: the scale is (50 + 10) x 0.1 = 6 logits
    minmax = GumbelSearch(None, 3).sigma(node, q)
    np.testing.assert_allclose(minmax, [0.0, 3.0, 6.0])  # the paper's: any spread becomes the full 6 logits
    floored = GumbelSearch(None, 3, min_spread=0.1).sigma(node, q)
    np.testing.assert_allclose(floored, [0.0, 0.6, 1.2])  # divided by 0.1 (3 gold), not by 0.02
    wide = np.array([0.0, 0.2, 0.4])  # a spread above the floor is min-max rescaled as before
    np.testing.assert_allclose(GumbelSearch(None, 3, min_spread=0.1).sigma(node, wide), [0.0, 3.0, 6.0])
    np.testing.assert_allclose(GumbelSearch(None, 3, min_spread=0.1).sigma(node, np.zeros(3)), np.zeros(3))


@pytest.mark.parametrize("players, spread", [(2, 0.05), (4, 0.2)])
def test_the_compiled_search_floors_the_spread_as_python_does(players, spread):
    roots = positions(players)
    channels = observations(roots[:1], False).shape[1]
    net = ProjectionNet(channels, ACTION_SIZE_V0)
    a, b, _ = both(roots, net, ACTION_SIZE_V0, False, num_simulations=16, max_considered=8, min_spread=spread)
    assert_same(a, b)
    plain, _, _ = both(roots, net, ACTION_SIZE_V0, False, num_simulations=16, max_considered=8)
    # the floor changes the policy targets (the projection net's values differ by less than it at some roots)
    assert any(not np.allclose(x.policy, y.policy) for x, y in zip(a, plain, strict=True))


def test_a_floor_of_zero_is_the_min_max_search():
    roots = positions(2, seeds=(4,))
    channels = observations(roots[:1], False).shape[1]
    net = ProjectionNet(channels, ACTION_SIZE_V0)
    a, b, _ = both(roots, net, ACTION_SIZE_V0, False, num_simulations=16, max_considered=8, min_spread=0.0)
    c, d, _ = both(roots, net, ACTION_SIZE_V0, False, num_simulations=16, max_considered=8)
    assert_same(a, c)
    assert_same(b, d)


@pytest.mark.parametrize("value", [-0.1, float("nan"), float("inf"), "0.1", True])
def test_a_bad_floor_names_it(value):
    with pytest.raises(ValueError, match="min_spread"):
        CompiledGumbelSearch(lambda obs: None, ACTION_SIZE_V0, min_spread=value)
    with pytest.raises(ValueError, match="min_spread"):
        GumbelSearch(None, ACTION_SIZE_V0, min_spread=value)


def test_make_search_passes_the_floor_on():
    class Evaluator:
        action_size, v1, device = ACTION_SIZE_V0, False, "cpu"
        net = type("Net", (), {"config": {"input_channels": 28}})()

        def infer(self, obs):
            raise AssertionError("not searched here")

    for kind in ("python", "compiled"):
        assert make_search(kind, Evaluator(), min_spread=0.25).min_spread == 0.25


@pytest.mark.parametrize("value", [-1, "x"])
def test_the_config_field_is_checked(value):
    assert AlphaZeroConfig.from_dict({}).min_q_spread == 0.0
    with pytest.raises(ValueError, match="field 'min_q_spread'"):
        AlphaZeroConfig.from_dict({"min_q_spread": value})
