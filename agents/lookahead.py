"""Lookahead: greedy over the rest of its own turn (numba kernel, kbenv.policies.lookahead).

Each decision is valued by the agent's gold (+ 2 per tile, as for greedy) once the decision is made
and the rest of the turn is finished greedily, so a build that opens up better builds later in the
turn is preferred. Ties are broken uniformly at random by the agent's seeded generator. It simulates
nothing beyond its own turn and evaluates a determinized copy, so hidden cards play no part.
"""

from __future__ import annotations

from kbenv.policies.lookahead import lookahead_action

from .greedy import KernelAgent


class LookaheadAgent(KernelAgent):
    name = "lookahead"
    kernel = staticmethod(lookahead_action)
