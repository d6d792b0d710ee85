"""Built-in policies: what plays the game, apart from the rules (kbenv.engine) and the learned agents.

- `builtin`: the random policy the environments use by default, and the adapter for opponents.
- `greedy`, `lookahead`: numba policies that value every legal decision (also teachers and hints).
- `hints`: hint planes, a built-in policy's values written into an observation.
- `playout`, `search`: random playouts and rollouts for benchmarks and search agents.
- `batch`: the policies over a batch of games (the batch engine's in-batch opponents and teachers).

`BUILTIN_POLICIES` is the one list of their names; agent specs, in-batch opponents, imitation teachers
and hint kinds are subsets of it.
"""

from .builtin import RandomPolicy, as_policy

BUILTIN_POLICIES = ("random", "greedy", "lookahead")  # in-batch opponents and baselines
TEACHERS = ("greedy", "lookahead")  # policies whose action values label imitation and guidance
HINT_KINDS = ("none", *TEACHERS)

__all__ = ["BUILTIN_POLICIES", "HINT_KINDS", "TEACHERS", "RandomPolicy", "as_policy"]
