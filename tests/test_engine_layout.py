"""The engine's layout (issue 49): the generic rules at the top of kbenv/engine/, each expansion's kernels in a
package of its own, old module paths kept working, and no import from a generic module into an expansion package:
generic modules reach the expansions' kernels through kbenv/engine/dispatch/ only."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "kbenv" / "engine"
PACKAGES = {
    "nomads": {"rules", "hooks", "deal"},
    "crossroads": {"rules", "tasks", "zone", "deal", "observe"},
    "marshlands": {"powers", "hooks", "reactions", "swamp", "scoring", "deal", "observe"},
    "harvest": {"builds", "powers", "hooks", "scoring", "silo", "observe"},
    "island": {"rules", "deal", "observe", "scoring"},
    "queenies": {"rules", "deal"},
}
GENERIC = {"actions", "base_powers", "batch", "board_ops", "borrow", "deck", "frames", "hidden", "init", "legal",
           "observe", "observe_layout", "observe_v1", "packed", "packed_layout", "piece_table", "pieces", "powers",
           "rng", "scoring", "state", "traits", "turns"}
GENERIC_BIT_TESTS = 0  # tests of st[EXPANSIONS] & ... in the generic modules (the dispatcher's excepted)
DISPATCHER = {"board", "facts", "flow", "observe", "powers"}  # engine/dispatch/: the one way into the packages
OLD_PATHS = {
    "kbenv.engine.nomads_hooks": "kbenv.engine.nomads.hooks",
    "kbenv.engine.tasks": "kbenv.engine.crossroads.tasks",
    "kbenv.engine.marsh_hooks": "kbenv.engine.marshlands.hooks",
    "kbenv.engine.marsh_scoring": "kbenv.engine.marshlands.scoring",
    "kbenv.engine.canoe": "kbenv.engine.marshlands.reactions",
    "kbenv.engine.swamp": "kbenv.engine.marshlands.swamp",
    "kbenv.engine.harvest_hooks": "kbenv.engine.harvest.hooks",
    "kbenv.engine.harvest_powers": "kbenv.engine.harvest.powers",
    "kbenv.engine.harvest_scoring": "kbenv.engine.harvest.scoring",
    "kbenv.engine.silo": "kbenv.engine.harvest.silo",
    "kbenv.engine.island_deal": "kbenv.engine.island.deal",
    "kbenv.engine.observe_island": "kbenv.engine.island.observe",
}
# The old modules named like their packages: a name of each, now found through the package.
OLD_NAMES = {"nomads": ("village_targets", "rules"), "crossroads": ("place_city_hall", "rules"),
             "marshlands": ("fountain_targets", "powers"), "harvest": ("next_to_terrain_targets", "builds"),
             "island": ("seize_island_tile", "rules"), "queenies": ("cave_targets", "rules")}


def expansion_imports(path: Path) -> set[str]:
    """The expansion packages a generic module imports (relative imports `from .<package>...`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            top = node.module.split(".")[0]
            if top in PACKAGES:
                found.add(top)
    return found


def engine_closure(path: Path) -> set[str]:
    """The engine modules (dotted, relative to kbenv/engine) a module reaches by relative imports, transitively."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        here = todo.pop()
        for node in ast.walk(ast.parse(here.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.level and node.module):
                continue
            base = here.parent
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*node.module.split("."))
            files = [target.with_suffix(".py"), target / "__init__.py"]
            files += [target / f"{alias.name}.py" for alias in node.names]  # `from .package import module`
            for file in files:
                if ENGINE in file.parents and file.exists():
                    name = ".".join(file.relative_to(ENGINE).with_suffix("").parts)
                    if name not in seen:
                        seen.add(name)
                        todo.append(file)
    return seen


def test_the_top_of_the_engine_holds_the_generic_modules_only():
    assert {p.stem for p in ENGINE.glob("*.py")} - {"__init__"} == GENERIC
    for package, modules in PACKAGES.items():
        assert {p.stem for p in (ENGINE / package).glob("*.py")} - {"__init__"} == modules, package
    assert {p.stem for p in (ENGINE / "dispatch").glob("*.py")} - {"__init__"} == DISPATCHER
    assert {p.name for p in ENGINE.iterdir() if p.is_dir()} - {"__pycache__"} == {*PACKAGES, "dispatch"}


def test_the_dispatch_package_imports_nothing_and_its_board_events_stay_below_the_board_operations():
    # board_ops imports dispatch.board: the package and that module may not reach board_ops again (a circle)
    assert not [n for n in ast.walk(ast.parse((ENGINE / "dispatch" / "__init__.py").read_text()))
                if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert "board_ops" not in engine_closure(ENGINE / "dispatch" / "board.py")
    # dispatch.facts imports no expansion and no event: the deck and the piece lists may ask it
    assert {m for m in engine_closure(ENGINE / "dispatch" / "facts.py") if not m.startswith("dispatch")} <= {
        "state", "traits"}


def test_no_module_the_flow_events_reach_calls_them():
    # the generic modules that import dispatch.flow must lie outside its import closure, or they would import
    # in a circle
    reached = engine_closure(ENGINE / "dispatch" / "flow.py")
    callers = {p.stem for p in ENGINE.glob("*.py") if "dispatch import" in p.read_text()
               and "flow" in p.read_text().split("dispatch import", 1)[1].split("\n", 1)[0]}
    assert callers >= {"actions", "legal", "turns", "scoring", "base_powers"}
    assert not callers & reached, sorted(callers & reached)


def test_generic_modules_import_no_expansion_package():
    now = {p.stem: expansion_imports(p) for p in ENGINE.glob("*.py")}
    assert not {name: found for name, found in now.items() if found}


def test_the_power_events_stay_below_the_power_dispatcher_and_the_observation_events_below_the_observations():
    # powers, legal and actions import dispatch.powers; observe_v1 and packed import dispatch.observe: neither may
    # reach its callers again (a circle)
    assert not {"powers", "legal", "actions"} & engine_closure(ENGINE / "dispatch" / "powers.py")
    assert not {"observe_v1", "packed"} & engine_closure(ENGINE / "dispatch" / "observe.py")
    # the layouts of the observations import no writer: the packages' writers may import them
    for layout in ("observe_layout", "packed_layout"):
        assert not {"observe_v1", "packed", "dispatch.observe"} & engine_closure(ENGINE / f"{layout}.py"), layout


def test_expansion_packages_import_no_generic_flow_module():
    # the packages may use the state, the board operations and each other, never the decision flow that calls them
    # (the island's observation planes read the legal hexes and the v0 planes: that is observation, not flow)
    flow = {"actions", "turns", "batch", "powers", "scoring", "init"}
    for package in PACKAGES:
        for path in (ENGINE / package).glob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                    assert node.module.split(".")[0] not in flow, f"{package}/{path.name} imports {node.module}"


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_old_engine_module_paths_are_the_moved_modules(old):
    assert importlib.import_module(old) is importlib.import_module(OLD_PATHS[old])


@pytest.mark.parametrize("package", sorted(OLD_NAMES))
def test_old_modules_named_like_their_packages_still_give_their_names(package):
    name, module = OLD_NAMES[package]
    old = importlib.import_module(f"kbenv.engine.{package}")
    assert getattr(old, name) is getattr(importlib.import_module(f"kbenv.engine.{package}.{module}"), name)
    with pytest.raises(AttributeError):
        old.no_such_name  # noqa: B018


def test_expansion_bit_tests_outside_the_dispatcher_only_shrink():
    # scripts/count_expansion_checks.py: 101 at 3ef0c60 (before the packages); issue 49 brings it to 0
    script = ENGINE.parents[1] / "scripts" / "count_expansion_checks.py"
    out = subprocess.run([sys.executable, str(script), "--json"], capture_output=True, text=True, check=True).stdout
    counts = json.loads(out)
    assert counts["generic_total"] <= GENERIC_BIT_TESTS, counts["generic"]
    assert counts["generic_importing_packages"] == {}
