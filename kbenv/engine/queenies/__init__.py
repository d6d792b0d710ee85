"""Queenies 1 and 2, Capitol and Caves (QC-1..2, QV-1..2).

Modules: `rules`, the capitols' gold and the cave move.

`kbenv.engine.queenies` was one module before each expansion got its package: its names still resolve here (from
`rules`), so old imports keep working.
"""


def __getattr__(name: str):
    """The old module's names (`from kbenv.engine.queenies import ...`), from `.rules`."""
    import importlib

    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module(".rules", __name__), name)
