"""Queenie 3, the Island (QI-1..QI-4): its location tile, its deal and its observation.

Modules: `rules`, its location tile and scoring readings; `deal`, the island side's set-up; `observe`, its planes of
observation v1.

`kbenv.engine.island` was one module before each expansion got its package: its names still resolve here (from
`rules`), so old imports keep working.
"""

from .. import old_module_names

__getattr__ = old_module_names(__name__, "rules")
