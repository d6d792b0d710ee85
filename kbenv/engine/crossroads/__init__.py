"""Crossroads (C-1..C-20): the pieces that count as settlements, open hands and task cards.

Modules: `rules`, the pieces, the hands and their locations; `tasks`, the task cards' end-of-game gold.

`kbenv.engine.crossroads` was one module before each expansion got its package: its names still resolve here (from
`rules`), so old imports keep working.
"""

from .. import old_module_names

__getattr__ = old_module_names(__name__, "rules")
