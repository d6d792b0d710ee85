"""Crossroads (C-1..C-20): the pieces that count as settlements, open hands and task cards.

Modules: `rules`, the pieces, the hands and their locations; `tasks`, the task cards' end-of-game gold.

`kbenv.engine.crossroads` was one module before each expansion got its package: its names still resolve here (from
`rules`), so old imports keep working.
"""


def __getattr__(name: str):
    """The old module's names (`from kbenv.engine.crossroads import ...`), from `.rules`."""
    import importlib

    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module(".rules", __name__), name)
