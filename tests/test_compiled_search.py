"""The compiled Gumbel search (agents.alphazero.compiled_search) against the Python one
(agents.alphazero.search): the same network outputs and the same Gumbel noise give the same visit counts,
chosen actions, policy targets and root values, on 2- and 4-player base games and on an expansion
ruleset, at the start of turns, mid-turn and next to the end of the game (terminal leaves)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from agents.alphazero.compiled_search import CompiledGumbelSearch, make_search
from agents.alphazero.network import legal_masks, observations
from agents.alphazero.search import GumbelSearch, seat_values
from agents.alphazero.tree_kernels import psum
from kbenv import Game
from kbenv.catalogue import ACTION_SIZE_V0, ACTION_SIZE_V1
from kbenv.engine import state as S

NOMADS = ["nomads", "capitol", "caves"]


class ProjectionNet:
    """A deterministic stand-in for the network: logits and values are fixed functions of the observation
    (random projections, seeded), so every state gets its own, reproducible outputs."""

    def __init__(self, channels: int, action_size: int, seed: int = 0, logit_scale: float = 2.0):
        rng = np.random.default_rng(seed)
        self.u = rng.normal(size=(channels * 400, 6)) / 20.0
        self.v = rng.normal(size=(6, action_size)) * logit_scale
        self.w = rng.normal(size=(6, S.MAX_PLAYERS))
        self.calls = 0

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += len(obs)
        h = np.tanh(np.asarray(obs, dtype=np.float64).reshape(len(obs), -1) @ self.u)
        return (h @ self.v).astype(np.float32), (0.3 * np.tanh(h @ self.w)).astype(np.float32)


class StateEvaluator:
    """The Python search's evaluate() around an observation-based `infer` (as NetworkEvaluator.__call__)."""

    def __init__(self, infer, action_size: int, v1: bool):
        self.infer, self.action_size, self.v1 = infer, action_size, v1

    def __call__(self, states):
        logits, values = self.infer(observations(states, self.v1))
        return legal_masks(states, self.action_size), logits, seat_values(values, states)


def positions(players: int, expansions=None, seeds=(1, 2, 3)) -> list[np.ndarray]:
    """Per seed: the first decision, one a few turns in, one mid-turn and the last three of a random game."""
    out = []
    for seed in seeds:
        game = Game.new(players, seed=seed, expansions=expansions)
        rng = np.random.default_rng(seed)
        states = []
        while not game.done:
            states.append(game.state.copy())
            game.step(int(rng.choice(game.legal_actions())))
        picks = [0, 7 * players, len(states) // 2 + 1, len(states) - 3, len(states) - 2, len(states) - 1]
        out.extend(states[k] for k in picks)
    return out


def both(roots, infer, action_size, v1, seed=0, **kw):
    python = GumbelSearch(StateEvaluator(infer, action_size, v1), action_size, **kw)
    compiled = CompiledGumbelSearch(infer, action_size, v1=v1, **kw)
    rngs_p = [np.random.default_rng([seed, k]) for k in range(len(roots))]
    rngs_c = [np.random.default_rng([seed, k]) for k in range(len(roots))]
    a = python.run([r.copy() for r in roots], rngs_p)
    b = compiled.run([r.copy() for r in roots], rngs_c)
    for rp, rc in zip(rngs_p, rngs_c, strict=True):  # the same Gumbel draws were taken
        assert rp.bit_generator.state == rc.bit_generator.state
    return a, b, compiled


def assert_same(a, b) -> None:
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        assert x.legal == y.legal, k
        assert x.visits == y.visits, k
        assert x.action == y.action, k
        np.testing.assert_allclose(y.policy, x.policy, rtol=0, atol=1e-12, err_msg=str(k))
        np.testing.assert_allclose(y.value, x.value, rtol=0, atol=1e-12, err_msg=str(k))
        assert y.policy.dtype == np.float32 and y.policy.shape == x.policy.shape


@pytest.mark.parametrize("players, expansions, sims, considered, gumbel", [
    (2, None, 16, 8, 1.0),
    (2, None, 32, 16, 0.0),
    (4, None, 12, 4, 1.0),
    (2, NOMADS, 16, 8, 1.0),
])
def test_the_same_search_as_python(players, expansions, sims, considered, gumbel):
    roots = positions(players, expansions)
    v1 = expansions is not None
    size = ACTION_SIZE_V1 if v1 else ACTION_SIZE_V0
    channels = observations(roots[:1], v1).shape[1]
    a, b, compiled = both(roots, ProjectionNet(channels, size), size, v1, num_simulations=sims,
                          max_considered=considered, gumbel_scale=gumbel)
    assert_same(a, b)
    searched = [r for r in a if r.legal > 1]
    assert len(searched) >= len(roots) // 2  # most roots are real decisions
    assert all(sum(r.visits.values()) == sims for r in searched)
    assert compiled.tree.terminal[: len(roots)].any()  # some simulations reached the end of a game


def test_a_tiny_real_network_gives_the_same_search():
    torch = pytest.importorskip("torch")
    from agents.alphazero.network import NetworkEvaluator, PolicyValueNet

    torch.manual_seed(3)
    net = PolicyValueNet(channels=4, blocks=1, head_channels=1)
    evaluator = NetworkEvaluator(net)
    roots = positions(2, seeds=(5, 6))
    results = []
    for kind in ("python", "compiled"):
        search = make_search(kind, evaluator, num_simulations=16, max_considered=8)
        results.append(search.run(roots, [np.random.default_rng(k) for k in range(len(roots))]))
    assert_same(*results)


def test_play_time_search_without_noise_follows_a_strong_prior():
    # no Gumbel noise, equal values everywhere: the logit of 8 on one hex decides both the visits and the move
    game = Game.new(2, seed=7)
    hexes = [a for a in game.legal_actions() if a < 400]
    favourite = hexes[3]

    def infer(obs):
        logits = np.zeros((len(obs), ACTION_SIZE_V0), dtype=np.float32)
        logits[:, favourite] = 8.0
        return logits, np.zeros((len(obs), S.MAX_PLAYERS), dtype=np.float32)

    search = CompiledGumbelSearch(infer, ACTION_SIZE_V0, num_simulations=16, max_considered=8, gumbel_scale=0.0)
    result = search.run([game.state], [np.random.default_rng(0)])[0]
    assert result.action == favourite
    assert result.visits[favourite] == max(result.visits.values())
    assert result.policy[favourite] == result.policy.max()
    assert result.policy.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(result.policy)) <= set(hexes)
    assert sum(result.visits.values()) == 16


def test_forced_decisions_are_not_searched_and_roots_are_left_alone():
    game = Game.new(2, seed=4)
    while len(game.legal_actions()) != 1:
        game.step(game.legal_actions()[0])
    root = game.state.copy()
    net = ProjectionNet(observations([root], False).shape[1], ACTION_SIZE_V0)
    search = CompiledGumbelSearch(net, ACTION_SIZE_V0, num_simulations=8)
    result = search.run([root], [np.random.default_rng(0)])[0]
    assert result.legal == 1 and result.visits == {}
    assert result.action == game.legal_actions()[0] and result.policy[result.action] == 1.0
    assert net.calls == 1  # the root only
    assert np.array_equal(root, game.state)


def test_a_batch_of_mixed_sizes_reuses_its_arrays():
    roots = positions(2, seeds=(8,))
    net = ProjectionNet(observations(roots[:1], False).shape[1], ACTION_SIZE_V0)
    search = CompiledGumbelSearch(net, ACTION_SIZE_V0, num_simulations=8, max_considered=4)
    big = search.run(roots, [np.random.default_rng(k) for k in range(len(roots))])
    tree = search.tree
    small = search.run(roots[:2], [np.random.default_rng(k) for k in range(2)])
    assert search.tree is tree
    assert_same(big[:2], small)


def test_bad_arguments_name_the_field():
    with pytest.raises(ValueError, match="sims"):
        CompiledGumbelSearch(lambda obs: None, ACTION_SIZE_V0, num_simulations=0)
    with pytest.raises(ValueError, match="considered"):
        CompiledGumbelSearch(lambda obs: None, ACTION_SIZE_V0, max_considered=0)
    with pytest.raises(ValueError, match="search: expected one of python, compiled, got 'fast'"):
        make_search("fast", None)
    search = CompiledGumbelSearch(lambda obs: None, ACTION_SIZE_V0)
    with pytest.raises(ValueError, match="rngs"):
        search.run([Game.new(2, seed=1).state], [])
    game = Game.new(2, seed=1)
    rng = np.random.default_rng(0)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    net = ProjectionNet(observations([game.state], False).shape[1], ACTION_SIZE_V0)
    search = CompiledGumbelSearch(net, ACTION_SIZE_V0, num_simulations=4)
    with pytest.raises(ValueError, match="roots: root 1 has no legal action"):
        search.run([Game.new(2, seed=1).state, game.state], [np.random.default_rng(0)] * 2)


def test_pairwise_sum_is_numpys():
    rng = np.random.default_rng(0)
    for n in (1, 5, 8, 9, 17, 128, 129, 256, 257, 300, 458, 1000, 2048):
        x = rng.normal(size=n) * 1e3
        assert psum(x, 0, n) == x.sum()


SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    from test_compiled_search import ProjectionNet, positions
    from agents.alphazero.compiled_search import CompiledGumbelSearch
    from agents.alphazero.network import observations
    from kbenv.catalogue import ACTION_SIZE_V0
    roots = positions(2, seeds=(2,))[2:5]
    net = ProjectionNet(observations(roots[:1], False).shape[1], ACTION_SIZE_V0)
    search = CompiledGumbelSearch(net, ACTION_SIZE_V0, num_simulations=6, max_considered=4)
    out = search.run(roots, [np.random.default_rng(k) for k in range(len(roots))])
    print(json.dumps([[r.action, sorted(r.visits.items()), r.policy.tolist(), r.value.tolist()] for r in out]))
    """
)


def test_kernels_run_without_jit():
    def run(jit: bool):
        env = dict(os.environ)
        if not jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        done = subprocess.run([sys.executable, "-c", SCRIPT, os.path.dirname(__file__)], env=env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])

    interpreted = run(jit=False)
    assert interpreted == run(jit=True)
    assert any(visits for _, visits, _, _ in interpreted)


def _tiny_config(tmp_path, **over):
    from agents.training.az_config import AlphaZeroConfig

    data = dict(name="tiny", games=3, players=[2, 4], simulations=4, considered=4, channels=4, blocks=1,
                head_channels=1, iterations=1, steps_per_iteration=6, train_batches=1, batch_size=8,
                buffer_positions=500, min_buffer=1, eval_every=0, eval_opponents=[], checkpoint_every=0,
                device="cpu", threads=1, seed=5, out_dir=str(tmp_path))
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def test_self_play_plays_the_same_games_with_either_search(tmp_path):
    torch = pytest.importorskip("torch")
    from agents.alphazero.network import NetworkEvaluator, PolicyValueNet
    from agents.training.alphazero import ReplayBuffer, SelfPlay

    config = _tiny_config(tmp_path)
    torch.manual_seed(0)
    evaluator = NetworkEvaluator(PolicyValueNet(channels=4, blocks=1, head_channels=1))
    played = {}
    for kind in ("python", "compiled"):
        selfplay = SelfPlay(config)
        search = make_search(kind, evaluator, num_simulations=config.simulations, max_considered=config.considered)
        for _ in range(10):
            selfplay.step(search, ReplayBuffer(10, evaluator.action_size))
        played[kind] = selfplay
    python, compiled = played["python"], played["compiled"]
    assert [g.actions for g in python.games] == [g.actions for g in compiled.games]
    assert all(len(g.actions) >= 10 for g in compiled.games)
    for a, b in zip(python.pending, compiled.pending, strict=True):
        assert len(a) == len(b)
        for (_, pa, _, _, va), (_, pb, _, _, vb) in zip(a, b, strict=True):  # policy targets, searched values
            np.testing.assert_allclose(pb, pa, rtol=0, atol=1e-7)
            np.testing.assert_allclose(vb, va, rtol=0, atol=1e-6)


def test_a_config_chooses_the_search(tmp_path):
    from agents.training.alphazero import Run
    from agents.training.az_config import AlphaZeroConfig

    assert _tiny_config(tmp_path).search == "python"  # the default until the compiled search is adopted
    with pytest.raises(ValueError, match="search"):
        _tiny_config(tmp_path, search="fast")
    card = Run(_tiny_config(tmp_path, search="compiled", players=[2]), log=lambda *_: None).run(progress=False)
    assert card["self_play_positions"] == 3 * 6
    assert AlphaZeroConfig.load("configs/quick.yaml").search == "compiled"  # the configs use it


def test_the_az_agent_takes_a_search_parameter():
    from agents.registry import make_agent, parse_spec

    with pytest.raises(ValueError, match="search must be python or compiled, got 'fast'"):
        parse_spec("trained:2p,search=fast")
    python = make_agent("trained:2p,sims=8", seed=1)
    compiled = make_agent("trained:2p,sims=8,search=compiled", seed=1)
    assert type(compiled.search).__name__ == "CompiledGumbelSearch"
    from kbenv.game.view import PlayerView

    game = Game.new(2, seed=9)
    for _ in range(6):
        view = PlayerView(game, game.decider)
        a = python.act(None, None, view)
        assert compiled.act(None, None, view) == a
        game.step(a)
