"""Agents that play kbenv: every agent follows `agents.base.Agent`; build them from spec strings.

Installed as `kbenv.agents`; in a checkout `import agents` gives that same package (kbenv.bundled)."""

if __name__ != "kbenv.agents":  # the checkout's folder, imported by its own name: the one package is kbenv.agents
    from kbenv import bundled

    bundled.become(__name__)
else:
    from . import kernel_cache  # noqa: F401,I001  (first: agents' kernels are stamped by import closure)
    from .base import Agent
    from .greedy import GreedyAgent
    from .mcts import MCTSAgent
    from .random_agent import RandomAgent
    from .registry import make_agent, parse_spec

    __all__ = ["Agent", "GreedyAgent", "MCTSAgent", "RandomAgent", "make_agent", "parse_spec"]
