"""The compiled search on packed observations: the same search as on float planes, and the network only
ever sees packed rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from agents.alphazero.compiled_search import CompiledGumbelSearch, make_search
from kbenv.catalogue import ACTION_SIZE_V0, ACTION_SIZE_V1
from kbenv.packed import PackedLayout
from tests.test_compiled_search import NOMADS, ProjectionNet, assert_same, positions

ALL = [*NOMADS, "crossroads"]


class PackedProjection:
    """The float stand-in network behind an unpacking step (as the torch network does it); records what it got."""

    def __init__(self, net: ProjectionNet, layout: PackedLayout):
        self.net, self.layout, self.seen = net, layout, set()

    def __call__(self, obs: np.ndarray):
        self.seen.add((obs.dtype.name, obs.shape[1:]))
        return self.net(self.layout.unpack(obs))


@pytest.mark.parametrize("players, expansions", [(2, None), (4, None), (2, NOMADS), (3, ALL)],
                         ids=["2p", "4p", "nomads", "all"])
def test_packed_and_float_compiled_searches_agree(players, expansions):
    roots = positions(players, expansions)
    v1 = expansions is not None
    size = ACTION_SIZE_V1 if v1 else ACTION_SIZE_V0
    layout = PackedLayout("v1" if v1 else "v0")
    net = ProjectionNet(layout.channels, size)
    packed_net = PackedProjection(net, layout)
    results = []
    for infer, packed in ((net, False), (packed_net, True)):
        search = CompiledGumbelSearch(infer, size, num_simulations=16, max_considered=8, v1=v1, packed=packed)
        results.append(search.run([r.copy() for r in roots], [np.random.default_rng(k) for k in range(len(roots))]))
    assert_same(*results)
    assert packed_net.seen == {("uint8", (layout.nbytes,))}
    assert search.tree.obs.size == 0  # no float planes were allocated


@pytest.mark.parametrize("input_channels", [None, 35], ids=["v1", "v1-35-channels"])
def test_a_tiny_v1_network_searches_the_same_packed(input_channels):
    torch = pytest.importorskip("torch")
    from agents.alphazero.network import NetworkEvaluator, PolicyValueNet

    torch.manual_seed(4)
    net = PolicyValueNet(v1=True, channels=4, blocks=1, head_channels=1, input_channels=input_channels)
    evaluator = NetworkEvaluator(net)
    roots = positions(2, NOMADS, seeds=(5,))
    results = []
    for kind in ("python", "compiled"):
        search = make_search(kind, evaluator, num_simulations=8, max_considered=4, packed=True)
        results.append(search.run(roots, [np.random.default_rng(k) for k in range(len(roots))]))
    assert search.packed
    assert not make_search("compiled", evaluator).packed  # on the CPU, float planes by default
    assert_same(*results)


SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    from agents.alphazero.compiled_search import CompiledGumbelSearch
    from kbenv.catalogue import ACTION_SIZE_V0
    from kbenv.packed import PackedLayout
    from tests.test_compiled_search import ProjectionNet, positions
    from tests.test_compiled_search_packed import PackedProjection
    roots = positions(2, seeds=(4,))[:3]
    infer = PackedProjection(ProjectionNet(28, ACTION_SIZE_V0), PackedLayout("v0"))
    search = CompiledGumbelSearch(infer, ACTION_SIZE_V0, num_simulations=4, max_considered=4, packed=True)
    out = search.run(roots, [np.random.default_rng(k) for k in range(len(roots))])
    print(json.dumps([[r.action, sorted(r.visits.items()), r.policy.tolist()] for r in out]))
    """
)


def test_packed_search_kernels_run_without_jit():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runs = []
    for jit in (False, True):
        env = dict(os.environ)
        if not jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        done = subprocess.run([sys.executable, "-c", SCRIPT, root], env=env, capture_output=True, text=True,
                              check=True)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1] and len(runs[0]) == 3
