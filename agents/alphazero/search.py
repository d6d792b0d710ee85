"""Gumbel AlphaZero search (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022)
over the numba engine, batched across games.

One call searches the root of every game in a batch. All roots follow the same simulation schedule
(sequential halving over the top-m actions sampled by Gumbel-top-k), so each simulation step yields one
leaf per game and the network evaluates all the leaves in one forward pass.

- Root: the m actions with the largest `gumbel + logit` are considered; sequential halving spends the
  simulations on them and keeps the better half by `gumbel + logit + sigma(q)` after each round. The
  action chosen is the survivor with the largest score.
- Inside the tree: the deterministic selection of the paper, argmax of `pi'(a) - N(a) / (1 + sum N)`,
  where pi' = softmax(logits + sigma(completed q)).
- Values are vectors over seats (each node's q is read for the seat that decides there), so the same
  search serves 2-5 players. A seat's value is its gold margin over the best other player (/30). The
  rules engine scores every node as if the game ended there (`score_values`: the game's own scoring,
  as a score board shows it) and the network predicts the gain still to come, so a node's value is
  score now + predicted gain, and a finished game's value is its final score. This is MuZero's split
  of value into rewards along the path and a learned value, with the rewards taken from the rules
  instead of a learned model; the network reads the standard observation only.
- The policy target is pi' at the root: the improved policy, defined for every legal action.

The search sees only the states it is given: callers pass a determinized root (other hands and the
deck order re-dealt from what the deciding player knows), so hidden cards never reach it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kbenv.engine import state as S
from kbenv.engine.actions import apply_unchecked
from kbenv.engine.scoring import SCORE_COLUMNS, score_table

# evaluate(states) -> (legal masks (B, A) bool, logits (B, A) float, future gain per seat (B, num_players))
Evaluator = Callable[[list[np.ndarray]], tuple[np.ndarray, np.ndarray, np.ndarray]]
MARGIN_SCALE = 30.0


def margins(totals: np.ndarray) -> np.ndarray:
    """Per seat: (its gold - the best other player's gold) / 30."""
    totals = np.asarray(totals, dtype=np.float64)
    out = np.empty(len(totals))
    for p in range(len(totals)):
        out[p] = (totals[p] - max(totals[q] for q in range(len(totals)) if q != p)) / MARGIN_SCALE
    return out


def score_values(st: np.ndarray) -> np.ndarray:
    """`margins` of the score the game would have if it ended now (its final score once it is over)."""
    table = np.zeros((S.MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
    score_table(st, table)
    return margins(table[: int(st[S.NUM_PLAYERS]), -1])


def seat_values(relative: np.ndarray, states: list[np.ndarray]) -> list[np.ndarray]:
    """Observer-relative value vectors -> absolute seats (seat q's value at index q)."""
    out = []
    for rel, st in zip(relative, states, strict=True):
        n = int(st[S.NUM_PLAYERS])
        observer = int(st[S.DECIDER])
        out.append(np.array([rel[(q - observer) % n] for q in range(n)], dtype=np.float64))
    return out


def relative_values(values: np.ndarray, observer: int) -> np.ndarray:
    """Seat values -> observer-relative (index 0 = the observer), padded with zeros to MAX_PLAYERS
    (the inverse of `seat_values`: the network's value targets)."""
    n = len(values)
    out = np.zeros(S.MAX_PLAYERS, dtype=np.float32)
    for k in range(n):
        out[k] = values[(observer + k) % n]
    return out


def considered_visits(max_considered: int, num_simulations: int) -> tuple[int, ...]:
    """For each simulation, the visit count a root action must have to be chosen (sequential halving)."""
    if max_considered <= 1:
        return tuple(range(num_simulations))
    log2max = int(math.ceil(math.log2(max_considered)))
    sequence: list[int] = []
    visits = [0] * max_considered
    considered = max_considered
    while len(sequence) < num_simulations:
        extra = max(1, int(num_simulations / (log2max * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:num_simulations])


class Node:
    """A position in the tree: its state, the decider, the legal actions with their logits and the
    network's value; per child the visit count and summed value vector."""

    __slots__ = ("state", "player", "terminal", "score", "actions", "logits", "value", "children", "visits",
                 "value_sum")

    def __init__(self, state: np.ndarray):
        self.state = state
        self.player = int(state[S.DECIDER])
        self.terminal = bool(state[S.PHASE] == S.PHASE_OVER)
        self.score = score_values(state)  # the margins if the game ended here
        self.actions: np.ndarray | None = None  # None until evaluated
        self.logits: np.ndarray | None = None
        self.value: np.ndarray | None = None
        self.children: list[Node | None] = []
        self.visits: np.ndarray | None = None
        self.value_sum: np.ndarray | None = None

    @property
    def expanded(self) -> bool:
        return self.value is not None

    def expand(self, mask: np.ndarray, logits: np.ndarray, gain: np.ndarray) -> None:
        """Legal actions and their logits; value = score now + the network's predicted gain."""
        self.actions = np.flatnonzero(mask)
        self.logits = logits[self.actions].astype(np.float64)
        self.value = self.score + np.asarray(gain, dtype=np.float64)
        self.children = [None] * len(self.actions)
        self.visits = np.zeros(len(self.actions), dtype=np.int64)
        self.value_sum = np.zeros((len(self.actions), len(self.value)))

    def child(self, k: int) -> Node:
        node = self.children[k]
        if node is None:
            st = self.state.copy()
            apply_unchecked(st, int(self.actions[k]))
            node = self.children[k] = Node(st)
            if node.terminal:
                node.value = node.score
        return node

    def completed_q(self) -> np.ndarray:
        """q of each action for the decider; unvisited actions get the mixed value (paper, eq. 33)."""
        own = self.value[self.player]
        total = self.visits.sum()
        if total == 0:
            return np.full(len(self.actions), own)
        visited = self.visits > 0
        q = np.zeros(len(self.actions))
        q[visited] = self.value_sum[visited, self.player] / self.visits[visited]
        prior = np.maximum(softmax(self.logits), np.finfo(np.float64).tiny)  # as mctx: no prior is exactly 0
        mixed = (own + total * (prior[visited] * q[visited]).sum() / prior[visited].sum()) / (1 + total)
        q[~visited] = mixed
        return q


def check_min_spread(value) -> float:
    """`min_spread` as a float; ValueError naming it unless it is a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or value < 0:
        raise ValueError(f"min_spread: expected a finite number >= 0, got {value!r}")
    return float(value)


def softmax(x: np.ndarray) -> np.ndarray:
    z = np.exp(x - x.max())
    return z / z.sum()


@dataclass
class SearchResult:
    action: int
    policy: np.ndarray  # improved policy over the whole action space (zeros off the legal actions)
    value: np.ndarray  # the root's searched value per seat
    visits: dict[int, int]  # visits of each root action (for tests and analysis)
    legal: int  # number of legal actions at the root (1: nothing was searched)


class GumbelSearch:
    """Batched Gumbel MCTS. `evaluate` maps a list of states to (masks, logits, seat values)."""

    def __init__(self, evaluate: Evaluator, action_size: int, num_simulations: int = 16, max_considered: int = 16,
                 c_visit: float = 50.0, c_scale: float = 0.1, gumbel_scale: float = 1.0, min_spread: float = 0.0):
        if num_simulations < 1:
            raise ValueError(f"sims: expected at least 1, got {num_simulations}")
        if max_considered < 1:
            raise ValueError(f"considered: expected at least 1, got {max_considered}")
        self.evaluate = evaluate
        self.action_size = action_size
        self.num_simulations = num_simulations
        self.stop: threading.Event | None = None  # set: run() ends at its next simulation (agents.base)
        self.max_considered = max_considered
        self.c_visit = c_visit
        self.c_scale = c_scale
        self.min_spread = check_min_spread(min_spread)
        self.gumbel_scale = gumbel_scale

    def sigma(self, node: Node, q: np.ndarray) -> np.ndarray:
        """The monotone transform of q: min-max rescaled, times (c_visit + max visits) * c_scale. With
        `min_spread` > 0 the range divided by is at least that (in value units, margins / 30): candidates whose
        values differ by less are not stretched apart to the full scale (0: the paper's, and mctx's, min-max)."""
        lo, hi = q.min(), q.max()
        span = max(hi - lo, self.min_spread)
        scaled = (q - lo) / span if span > 0 else np.zeros_like(q)
        return (self.c_visit + node.visits.max()) * self.c_scale * scaled

    def boosted_logits(self, node: Node) -> np.ndarray:
        """logits + sigma(completed q): the improved policy's logits (and, plus Gumbel noise, the root's scores)."""
        return node.logits + self.sigma(node, node.completed_q())

    def improved_policy(self, node: Node) -> np.ndarray:
        return softmax(self.boosted_logits(node))

    def _select_inner(self, node: Node) -> int:
        pi = self.improved_policy(node)
        return int(np.argmax(pi - node.visits / (1 + node.visits.sum())))

    def run(self, roots: list[np.ndarray], rngs: list[np.random.Generator]) -> list[SearchResult]:
        """Search each root state (not modified) and return its chosen action and policy target."""
        nodes = [Node(st.copy()) for st in roots]
        masks, logits, values = self.evaluate([n.state for n in nodes])
        for node, mask, lg, v in zip(nodes, masks, logits, values, strict=True):
            node.expand(mask, lg, v)
        gumbels = [self.gumbel_scale * rng.gumbel(size=len(n.actions)) for n, rng in zip(nodes, rngs, strict=True)]
        schedules = [considered_visits(min(self.max_considered, len(n.actions)), self.num_simulations)
                     for n in nodes]
        searching = [k for k, n in enumerate(nodes) if len(n.actions) > 1]
        for sim in range(self.num_simulations):
            if self.stop is not None and self.stop.is_set():  # the caller stopped waiting (kbenv serve)
                break
            pending: list[tuple[list[tuple[Node, int]], Node]] = []  # (path of (node, action), leaf) per game
            for k in searching:
                root = nodes[k]
                path = [(root, self._select_root(root, gumbels[k], schedules[k][sim]))]
                leaf = root.child(path[0][1])
                while leaf.expanded and not leaf.terminal:
                    a = self._select_inner(leaf)
                    path.append((leaf, a))
                    leaf = leaf.child(a)
                pending.append((path, leaf))
            fresh = [leaf for _, leaf in pending if not leaf.expanded]  # one leaf per game: no duplicates
            if fresh:
                masks, logits, values = self.evaluate([leaf.state for leaf in fresh])
                for leaf, mask, lg, v in zip(fresh, masks, logits, values, strict=True):
                    leaf.expand(mask, lg, v)
            for path, leaf in pending:
                for node, a in path:
                    node.visits[a] += 1
                    node.value_sum[a] += leaf.value
        return [self._result(node, g) for node, g in zip(nodes, gumbels, strict=True)]

    def _select_root(self, root: Node, gumbel: np.ndarray, considered: int) -> int:
        score = np.where(root.visits == considered, gumbel + self.boosted_logits(root), -np.inf)
        return int(np.argmax(score))

    def _result(self, root: Node, gumbel: np.ndarray) -> SearchResult:
        policy = np.zeros(self.action_size, dtype=np.float32)
        if len(root.actions) == 1:
            policy[root.actions[0]] = 1.0
            return SearchResult(int(root.actions[0]), policy, root.value, {}, 1)
        boosted = self.boosted_logits(root)
        policy[root.actions] = softmax(boosted)
        score = np.where(root.visits == root.visits.max(), gumbel + boosted, -np.inf)
        best = int(np.argmax(score))
        total = root.visits.sum()
        value = (root.value + root.value_sum.sum(axis=0)) / (1 + total)
        visits = {int(a): int(n) for a, n in zip(root.actions, root.visits, strict=True) if n}
        return SearchResult(int(root.actions[best]), policy, value, visits, len(root.actions))
