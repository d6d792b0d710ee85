"""The Gumbel search compiled: numba kernels over flat tree arrays for the whole batch of games.

`CompiledGumbelSearch` is agents.alphazero.search.GumbelSearch (same paper, same semantics: root
Gumbel-top-k with sequential halving, the deterministic interior selection, completed Q, vector values
over seats, pi' at the root as the policy target) with the tree held in preallocated arrays of shape
(games, simulations + 1, ...) and selection, expansion (the engine creating each leaf's state) and
backup in the kernels of agents.alphazero.tree_kernels. Python only loops over the simulations and
makes one network call per simulation on the observations the kernels wrote into one buffer.

It takes `infer(obs) -> (logits (B, A), observer-relative values (B, 5))` instead of the Python
search's state-based evaluator (agents.alphazero.network.NetworkEvaluator offers both), draws the
Gumbel noise from the same generators in the same order, and returns the same `SearchResult`s:
tests/test_compiled_search.py checks that both searches give the same visits, actions and targets.
With `packed=True` the observations are packed rows (kbenv.packed: (B, nbytes) uint8, 2-3.6 KB a
position instead of 45-64 KB of float planes), which the search network unpacks on its device.
`make_search("compiled" | "python", evaluator, ...)` builds either (the compiled one packed when the
network is on a GPU; the `search` field of a self-play config, the `search` parameter of the `az` agent).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from kbenv.engine import state as S
from kbenv.layout import layout_by_flag
from kbenv.packed import PackedLayout, layout_of, split

from . import tree_kernels as K
from .search import GumbelSearch, SearchResult, check_min_spread, considered_visits

# infer(observations (B, C, 20, 20) float32, or packed (B, nbytes) uint8)
#   -> (logits (B, A), predicted gain per seat relative to the observer (B, 5))
Infer = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
SEARCH_KINDS = ("python", "compiled")


@lru_cache(maxsize=256)
def _schedule(considered: int, simulations: int) -> np.ndarray:
    return np.array(considered_visits(considered, simulations), dtype=np.int64)


class _Tree:
    """The preallocated arrays of `games` trees of `nodes` nodes over `width` actions."""

    def __init__(self, games: int, nodes: int, width: int, obs_shape: tuple[int, ...], layout: PackedLayout | None):
        p = S.MAX_PLAYERS
        self.games = games
        self.states = np.zeros((games, nodes, S.STATE_SIZE), dtype=np.int64)
        self.n_nodes = np.zeros(games, dtype=np.int64)
        self.n_actions = np.zeros((games, nodes), dtype=np.int64)
        self.actions = np.zeros((games, nodes, width), dtype=np.int64)
        self.logits = np.zeros((games, nodes, width), dtype=np.float64)
        self.child = np.full((games, nodes, width), -1, dtype=np.int64)
        self.visits = np.zeros((games, nodes), dtype=np.int64)
        self.value_sum = np.zeros((games, nodes, p), dtype=np.float64)
        self.value = np.zeros((games, nodes, p), dtype=np.float64)
        self.score = np.zeros((games, nodes, p), dtype=np.float64)
        self.expanded = np.zeros((games, nodes), dtype=np.bool_)
        self.terminal = np.zeros((games, nodes), dtype=np.bool_)
        self.path = np.zeros((games, nodes), dtype=np.int64)
        self.path_len = np.zeros(games, dtype=np.int64)
        self.rows = np.zeros(games, dtype=np.int64)
        self.gumbel = np.zeros((games, width), dtype=np.float64)
        # one observation row per game (roots, then leaves): float planes, or packed rows (then obs is empty)
        self.obs = np.zeros((0 if layout else games, *obs_shape), dtype=np.float32)
        self.packed = layout.empty(games if layout else 0) if layout else np.zeros((0, 1), dtype=np.int64)
        self.bits, self.values = split(self.packed, layout) if layout else (self.packed, np.zeros((0, 1), np.float32))
        self.masks = np.zeros((games, width), dtype=np.int8)
        self.policy = np.zeros((games, width), dtype=np.float32)
        self.chosen = np.zeros(games, dtype=np.int64)
        self.root_value = np.zeros((games, p), dtype=np.float64)
        self.root_visits = np.zeros((games, width), dtype=np.int64)


class CompiledGumbelSearch:
    """Batched Gumbel MCTS in numba kernels; `infer` maps observations to (logits, relative values)."""

    def __init__(self, infer: Infer, action_size: int, num_simulations: int = 16, max_considered: int = 16,
                 c_visit: float = 50.0, c_scale: float = 0.1, gumbel_scale: float = 1.0, v1: bool = False,
                 channels: int | None = None, packed: bool = False, min_spread: float = 0.0):
        if num_simulations < 1:
            raise ValueError(f"sims: expected at least 1, got {num_simulations}")
        if max_considered < 1:
            raise ValueError(f"considered: expected at least 1, got {max_considered}")
        self.infer = infer
        self.action_size = action_size
        self.num_simulations = num_simulations
        self.stop: threading.Event | None = None  # set: run() ends at its next simulation (agents.base)
        self.max_considered = max_considered
        self.c_visit = float(c_visit)
        self.c_scale = float(c_scale)
        self.min_spread = check_min_spread(min_spread)
        self.gumbel_scale = gumbel_scale
        self.v1 = bool(v1)
        shape = layout_by_flag(self.v1).observation_shape  # kbenv.layout
        self.channels = shape[0] if channels is None else int(channels)
        self.obs_shape = shape
        self.packed = bool(packed)
        self.layout = layout_of(self.v1) if self.packed else None
        self.tree: _Tree | None = None

    def _tree(self, games: int) -> _Tree:
        if self.tree is None or self.tree.games < games:
            self.tree = _Tree(games, self.num_simulations + 1, self.action_size, self.obs_shape, self.layout)
        return self.tree

    def _network(self, t: _Tree, n: int) -> tuple[np.ndarray, np.ndarray]:
        if self.packed:
            obs = t.packed[:n].view(np.uint8)
        else:
            obs = t.obs[:n] if self.channels == self.obs_shape[0] else t.obs[:n, : self.channels]
        logits, values = self.infer(obs)
        return np.ascontiguousarray(logits), np.ascontiguousarray(values)

    def run(self, roots: Sequence[np.ndarray], rngs: Sequence[np.random.Generator]) -> list[SearchResult]:
        """Search each root state (not modified) and return its chosen action and policy target."""
        games = len(roots)
        if len(rngs) != games:
            raise ValueError(f"rngs: expected one generator per root ({games}), got {len(rngs)}")
        t = self._tree(games)
        K.init_roots(np.ascontiguousarray(np.stack(roots), dtype=np.int64), t.states, t.n_nodes, t.expanded,
                     t.terminal, t.visits, t.value_sum, t.score, t.obs, t.bits, t.values, t.masks, self.v1, self.packed)
        logits, values = self._network(t, games)
        t.rows[:games] = np.arange(games)
        K.expand(games, t.rows, True, t.masks, logits, values, t.states, t.path, t.path_len, t.n_actions, t.actions,
                 t.logits, t.child, t.value, t.score, t.expanded)
        legal = t.n_actions[:games, 0].copy()
        if not legal.all():
            raise ValueError(f"roots: root {int(np.argmin(legal))} has no legal action (its game is over)")
        searching = np.zeros(len(t.n_nodes), dtype=np.bool_)
        schedule = np.zeros((len(t.n_nodes), self.num_simulations), dtype=np.int64)
        for g, rng in enumerate(rngs):
            n = int(legal[g])
            t.gumbel[g, :n] = self.gumbel_scale * rng.gumbel(size=n)
            searching[g] = n > 1
            schedule[g] = _schedule(min(self.max_considered, n), self.num_simulations)
        for sim in range(self.num_simulations):
            if self.stop is not None and self.stop.is_set():  # the caller stopped waiting (kbenv serve)
                break
            fresh = K.select_leaves(sim, searching, schedule, t.gumbel, t.states, t.n_nodes, t.n_actions, t.actions,
                                    t.logits, t.child, t.visits, t.value_sum, t.value, t.score, t.expanded,
                                    t.terminal, t.path, t.path_len, t.rows, t.obs, t.bits, t.values, t.masks,
                                    self.v1, self.packed, self.c_visit, self.c_scale, self.min_spread)
            if fresh:
                logits, values = self._network(t, fresh)
            K.expand_and_backup(fresh, t.rows, t.masks, logits, values, searching, t.states, t.path, t.path_len,
                                t.n_actions, t.actions, t.logits, t.child, t.visits, t.value_sum, t.value, t.score,
                                t.expanded)
        K.root_results(games, t.gumbel, t.states, t.n_actions, t.actions, t.logits, t.child, t.visits, t.value_sum,
                       t.value, self.c_visit, self.c_scale, self.min_spread, t.policy, t.chosen, t.root_value,
                       t.root_visits)
        out = []
        for g in range(games):
            n = int(legal[g])
            players = int(t.states[g, 0, S.NUM_PLAYERS])
            visits = {int(a): int(v) for a, v in zip(t.actions[g, 0, :n], t.root_visits[g, :n], strict=True) if v} \
                if n > 1 else {}
            out.append(SearchResult(int(t.chosen[g]), t.policy[g, : self.action_size].copy(),
                                    t.root_value[g, :players].copy(), visits, n))
        return out


def make_search(kind: str, evaluator, num_simulations: int = 16, max_considered: int = 16,
                gumbel_scale: float = 1.0, packed: bool | None = None, min_spread: float = 0.0):
    """The `python` (agents.alphazero.search) or `compiled` search over a NetworkEvaluator's network;
    ValueError naming `search` for any other kind. `packed` (compiled only; default: when the network is
    not on the CPU) hands the network packed rows: less memory moved to a GPU, but on the CPU torch's
    unpacking cost more than the float planes save (benchmarks/search_speed.py, docs/training.md)."""
    if kind == "python":
        return GumbelSearch(evaluator, evaluator.action_size, num_simulations=num_simulations,
                            max_considered=max_considered, gumbel_scale=gumbel_scale, min_spread=min_spread)
    if kind == "compiled":
        return CompiledGumbelSearch(evaluator.infer, evaluator.action_size, num_simulations=num_simulations,
                                    max_considered=max_considered, gumbel_scale=gumbel_scale, v1=evaluator.v1,
                                    channels=evaluator.net.config["input_channels"],
                                    packed=str(evaluator.device) != "cpu" if packed is None else bool(packed),
                                    min_spread=min_spread)
    raise ValueError(f"search: expected one of {', '.join(SEARCH_KINDS)}, got {kind!r}")
