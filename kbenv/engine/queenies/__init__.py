"""Queenies 1 and 2, Capitol and Caves (QC-1..2, QV-1..2).

Modules: `rules`, the capitols' gold and the cave move.

`kbenv.engine.queenies` was one module before each expansion got its package: its names still resolve here (from
`rules`), so old imports keep working.
"""

from .. import old_module_names

__getattr__ = old_module_names(__name__, "rules")
