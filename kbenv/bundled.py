"""The packages kbenv ships inside itself: `kbenv.agents` (agents/) and `kbenv.benchmarks` (benchmarks/).

The repository keeps them as folders beside kbenv/ (`import agents`, `python -m benchmarks.engine_speed` from the
checkout's root, as always); the wheel installs them inside kbenv (pyproject.toml's `package-dir`), so an
installed kbenv claims no top-level name but `kbenv`. Their one module name is the installed one,
`kbenv.agents.registry`, in a checkout too, so a class is the same object and pickles by the same path in both:

- in a checkout (agents/ beside kbenv/, no kbenv/agents/), `kbenv.agents` is loaded from ../agents by the
  finder here; in an installed kbenv the folder is kbenv/agents and the finder stays out of the way;
- the checkout's names `agents` and `agents.x` are the very module objects of `kbenv.agents` and
  `kbenv.agents.x` (not copies: `agents.registry is kbenv.agents.registry`): agents/__init__.py, run under the
  name `agents` (the checkout's folder found on sys.path), puts kbenv.agents in its place (`become`), and the
  finder then answers `agents.x` with the module of `kbenv.agents.x`. It answers only while `agents` is
  kbenv.agents, so another distribution's top-level `agents` (the OpenAI Agents SDK's) is left alone.

So a file is one module, whichever of its names is imported first. Importing this module (`import kbenv`
does, before any of its rooms) installs the finder.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
BUNDLED = ("agents", "benchmarks")  # shipped as kbenv.agents, kbenv.benchmarks


def checkout_folder(name: str) -> Path | None:
    """The checkout's folder of `kbenv.<name>` (../<name> beside kbenv/), or None in an installed kbenv (the
    folder is kbenv/<name>, found as any subpackage) or where there is none."""
    if (PACKAGE / name / "__init__.py").is_file():
        return None
    folder = PACKAGE.parent / name
    return folder if (folder / "__init__.py").is_file() else None


def become(name: str) -> ModuleType:
    """Called by agents/__init__.py and benchmarks/__init__.py when imported by the checkout's name: put
    `kbenv.<name>` in sys.modules under `name` too (the import then gives that module) and return it."""
    module = importlib.import_module(f"kbenv.{name}")
    sys.modules[name] = module
    return module


class AliasLoader(importlib.abc.Loader):
    """Loads a module under a second name as the module of its real name (the same object, not a copy); gives
    its code to runpy (`python -m benchmarks.engine_speed`). Also serves kbenv/envs/old_paths.py."""

    def __init__(self, target: str, target_spec: importlib.machinery.ModuleSpec | None = None):
        self.target = target
        self.target_spec = target_spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.target_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.target_spec  # the import system set the alias's spec: the module keeps its own

    def _spec(self) -> importlib.machinery.ModuleSpec:
        if self.target_spec is None:
            self.target_spec = importlib.util.find_spec(self.target)
        return self.target_spec

    def get_code(self, fullname: str):
        return self._spec().loader.get_code(self.target)

    def is_package(self, fullname: str) -> bool:
        return self._spec().submodule_search_locations is not None


class _BundledFinder(importlib.abc.MetaPathFinder):
    """Finds `kbenv.agents` / `kbenv.benchmarks` in a checkout, and `agents.x` / `benchmarks.x` while `agents` /
    `benchmarks` is the kbenv package (nothing else)."""

    def find_spec(self, fullname: str, path=None, target=None) -> importlib.machinery.ModuleSpec | None:
        top, _, rest = fullname.partition(".")
        if top == PACKAGE.name and rest in BUNDLED:
            folder = checkout_folder(rest)
            if folder is None:
                return None
            return importlib.util.spec_from_file_location(fullname, folder / "__init__.py",
                                                          submodule_search_locations=[str(folder)])
        if top not in BUNDLED or not rest:
            return None
        package = sys.modules.get(top)
        if package is None or package is not sys.modules.get(f"{PACKAGE.name}.{top}"):
            return None
        name = f"{PACKAGE.name}.{fullname}"
        target_spec = sys.modules[name].__spec__ if name in sys.modules else importlib.util.find_spec(name)
        if target_spec is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, AliasLoader(name, target_spec), origin=target_spec.origin,
                                              is_package=target_spec.submodule_search_locations is not None)
        spec.has_location = target_spec.has_location
        if spec.submodule_search_locations is not None:
            spec.submodule_search_locations = list(target_spec.submodule_search_locations)
        return spec


def install() -> None:
    """Put the finder first on `sys.meta_path` once (idempotent)."""
    if not any(isinstance(finder, _BundledFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _BundledFinder())


install()  # on import: kbenv/__init__.py imports this module before any of its rooms
