"""The rules of Kingdom Builder as numba kernels over one game's flat int64 state vector."""


def old_module_names(package: str, module: str):
    """The `__getattr__` of an expansion package named like the module it was before it became a package: the
    old module's names (`from kbenv.engine.crossroads import place_city_hall`) come from `package.module`."""
    import importlib

    def names(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return names
