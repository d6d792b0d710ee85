"""Monte Carlo tree search over the numba engine with determinization (information-set style).

Each simulation deals a world consistent with what the agent's player knows (`view.determinize`:
other hands and the deck order re-dealt), walks the shared tree by UCB1 while the tree knows the
positions, adds one node, plays the rest of the game with the rollout policy inside numba, and backs
up the result from every seat's point of view (each node keeps the value for the player who chose
it). Legal actions can differ between worlds; selection only considers children legal in the
current world. The value of a finished game for a seat is +1 win / -1 loss plus 0.01 x gold margin
over the best other player (so that wins by more are preferred and ties are broken).
"""

from __future__ import annotations

import math
import threading

import numpy as np

from kbenv.engine.rng import seed_u32
from kbenv.game.view import PlayerView
from kbenv.policies.search import ROLLOUT_GREEDY, ROLLOUT_MIXED, ROLLOUT_RANDOM, rollout

ROLLOUTS = {"random": ROLLOUT_RANDOM, "greedy": ROLLOUT_GREEDY, "mixed": ROLLOUT_MIXED}
MARGIN_WEIGHT = 0.01


class Node:
    __slots__ = ("children", "visits", "value")

    def __init__(self):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of results for the player who chose the move into this node


def outcome(totals: np.ndarray) -> np.ndarray:
    """Per-seat value of a finished game: +-1 for win/loss plus a small gold-margin term."""
    n = len(totals)
    values = np.empty(n)
    for p in range(n):
        best_other = max(totals[q] for q in range(n) if q != p)
        won = totals[p] >= totals.max()
        values[p] = (1.0 if won else -1.0) + MARGIN_WEIGHT * (totals[p] - best_other)
    return values


class MCTSAgent:
    name = "mcts"

    def __init__(self, sims: int = 200, rollout: str = "random", c: float = 1.0, seed: int | None = None,
                 max_rollout: int = 5000):
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if sims < 1:
            raise ValueError(f"sims: expected at least 1, got {sims}")
        self.sims = int(sims)
        self.rollout_policy = ROLLOUTS[rollout]
        self.c = float(c)
        self.max_rollout = max_rollout
        self.name = f"mcts:sims={sims},rollout={rollout}"
        self.stop: threading.Event | None = None  # set: the search ends at its next simulation (agents.base)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        seed = 0 if seed is None else seed
        self.rng = np.random.default_rng(seed)
        self.rollout_rng = np.array([seed_u32(seed + 1)], dtype=np.int64)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        root = Node()
        for _ in range(self.sims):
            if self.stop is not None and self.stop.is_set():  # the caller stopped waiting (kbenv serve)
                break
            self._simulate(root, view.determinize(self.rng))
        if not root.children:
            return int(legal[0])
        best = max((a for a in root.children), key=lambda a: (root.children[a].visits, root.children[a].value))
        return int(best)

    def _simulate(self, root: Node, world) -> None:
        path: list[tuple[Node, int]] = []  # (node entered, seat that chose the move into it)
        node = root
        while not world.done:
            mover = world.current_player
            legal = world.legal_actions()
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[int(self.rng.integers(len(untried)))]
                child = node.children[action] = Node()
                world.step(action)
                path.append((child, mover))
                break
            log_n = math.log(max(1, node.visits))
            best_score, action = -math.inf, legal[0]
            for a in legal:
                ch = node.children[a]
                score = ch.value / ch.visits + self.c * math.sqrt(log_n / ch.visits)
                if score > best_score:
                    best_score, action = score, a
            node = node.children[action]
            world.step(action)
            path.append((node, mover))
        if not world.done:
            rollout(world.state, self.rollout_policy, self.rollout_rng, self.max_rollout)
        values = outcome(world.score_table()[:, -1])
        root.visits += 1
        for child, seat in path:
            child.visits += 1
            child.value += values[seat]
