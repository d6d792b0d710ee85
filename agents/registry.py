"""Agents by spec string: `random`, `greedy`, `lookahead`, `mcts:sims=400,rollout=random`, `ppo:path=X.zip`."""

from __future__ import annotations

from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent

KINDS = ("random", "greedy", "lookahead", "mcts", "ppo")


def parse_spec(spec: str) -> tuple[str, dict]:
    """('mcts', {'sims': 400}) from 'mcts:sims=400'; ValueError naming the part at fault."""
    kind, _, rest = spec.partition(":")
    if kind not in KINDS:
        raise ValueError(f"agent spec {spec!r}: unknown agent {kind!r}; expected one of {', '.join(KINDS)}")
    params: dict = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"agent spec {spec!r}: expected key=value, got {item!r}")
        params[key] = int(value) if value.lstrip("-").isdigit() else (float(value) if _is_float(value) else value)
    return kind, params


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def make_agent(spec: str, seed: int | None = None):
    """A fresh agent from its spec string, seeded."""
    kind, params = parse_spec(spec)
    try:
        if kind == "random":
            agent = RandomAgent(seed=seed, **params)
        elif kind == "greedy":
            agent = GreedyAgent(seed=seed, **params)
        elif kind == "lookahead":
            agent = LookaheadAgent(seed=seed, **params)
        elif kind == "mcts":
            agent = MCTSAgent(seed=seed, **params)
        else:
            from .ppo import PPOAgent

            agent = PPOAgent(seed=seed, **params)
    except TypeError as err:
        raise ValueError(f"agent spec {spec!r}: {err}") from None
    agent.spec = spec
    return agent
