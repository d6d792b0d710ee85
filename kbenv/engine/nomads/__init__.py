"""Nomads (N-1..N-21): nomad tiles, walls, the Nomads locations and the red cards.

Modules: `rules`, the rule kernels; `hooks`, what generic code asks of Nomads (cards in play, rounds, red cards).

`kbenv.engine.nomads` was one module before each expansion got its package: its names still resolve here (from
`rules`), so old imports keep working.
"""

from .. import old_module_names

__getattr__ = old_module_names(__name__, "rules")
