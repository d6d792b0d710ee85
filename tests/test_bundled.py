"""agents/ and benchmarks/ are kbenv.agents and kbenv.benchmarks (kbenv.bundled): in a checkout their old names
are the very same module objects, one per file, whichever name is imported first; the wheel ships them inside
kbenv (pyproject.toml; tests/test_wheel.py builds and installs it)."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import agents
import agents.az
import agents.greedy
import agents.registry
import benchmarks.suite
import kbenv.agents
import kbenv.agents.greedy
import kbenv.benchmarks.suite
from kbenv import bundled, numba_cache

ROOT = Path(__file__).resolve().parents[1]

# A fresh interpreter imports `first`, then `second`, and reports each module's identity and every file loaded as
# more than one module object.
PROBE = textwrap.dedent("""
    import importlib, json, sys
    first, second = sys.argv[1], sys.argv[2]
    a = importlib.import_module(first)
    b = importlib.import_module(second)
    by_file = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path and ("agents" in path or "benchmarks" in path):
            by_file.setdefault(path, set()).add(id(module))
    print(json.dumps({"same": a is b, "name": a.__name__, "spec": a.__spec__.name,
                      "twice": sorted(p for p, ids in by_file.items() if len(ids) > 1)}))
""")


def _probe(first: str, second: str) -> dict:
    import json

    out = subprocess.run([sys.executable, "-c", PROBE, first, second], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_the_old_names_are_the_same_modules():
    assert agents is kbenv.agents and benchmarks.suite is kbenv.benchmarks.suite
    assert agents.greedy is kbenv.agents.greedy and agents.GreedyAgent is kbenv.agents.greedy.GreedyAgent
    for module in (agents, agents.registry, agents.az, benchmarks.suite):
        assert module.__name__.startswith("kbenv.") and module.__spec__.name == module.__name__
    assert agents.GreedyAgent.__module__ == "kbenv.agents.greedy"


def test_one_module_object_per_file():
    """The repository's own source files (a venv inside the checkout holds extension modules, such as torch's,
    that register several module objects for one shared library: not ours to check)."""
    ours = [ROOT / name for name in ("kbenv", "agents", "benchmarks", "scripts", "tests", "docs")]
    by_file: dict[str, set[int]] = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path and any(Path(path).resolve().is_relative_to(folder) for folder in ours):
            by_file.setdefault(str(Path(path).resolve()), set()).add(id(module))
    assert [path for path, ids in by_file.items() if len(ids) > 1] == []


def test_pickles_name_the_installed_path_and_load_by_either():
    agent = agents.make_agent("greedy", seed=3)
    data = pickle.dumps(agent)
    assert b"kbenv.agents.greedy" in data
    assert type(pickle.loads(data)) is kbenv.agents.greedy.GreedyAgent
    # a pickle written before the move names agents.greedy: in a checkout it loads as the same class
    old = pickle.dumps(agents.GreedyAgent, protocol=0).replace(b"kbenv.agents.greedy", b"agents.greedy")
    assert b"agents.greedy" in old and pickle.loads(old) is kbenv.agents.greedy.GreedyAgent


def test_either_import_order_gives_one_module(tmp_path):
    for first, second in (("agents.evaluation.play", "kbenv.agents.evaluation.play"),
                          ("kbenv.agents.evaluation.play", "agents.evaluation.play"),
                          ("benchmarks.suite", "kbenv.benchmarks.suite")):
        report = _probe(first, second)
        assert report["same"], (first, second, report)
        assert report["name"] == report["spec"] == "kbenv." + first.removeprefix("kbenv.")
        assert report["twice"] == [], (first, second, report)


def test_python_m_benchmarks_from_the_root():
    out = subprocess.run([sys.executable, "-m", "benchmarks.compile_time", "--help"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "usage:" in out.stdout


def test_another_top_level_agents_is_left_alone(tmp_path):
    """A venv with kbenv and another distribution's `agents` (the OpenAI Agents SDK's): `import agents` is that
    one, and its submodules too."""
    other = tmp_path / "site" / "agents"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("NAME = 'other'\n")
    (other / "tool.py").write_text("NAME = 'other tool'\n")
    code = ("import kbenv, kbenv.agents, agents, agents.tool\n"
            "assert agents.NAME == 'other' and agents.tool.NAME == 'other tool', agents\n"
            "assert kbenv.agents is not agents and kbenv.agents.GreedyAgent\n"
            "print('ok')\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path / 'site'}:{ROOT}"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_a_checkout_finds_the_folders_beside_kbenv():
    assert bundled.checkout_folder("agents") == ROOT / "agents"
    assert bundled.checkout_folder("benchmarks") == ROOT / "benchmarks"
    assert bundled.checkout_folder("nothing") is None
    # the numba cache's import closures read both names (kbenv.agents.x is agents/x.py here)
    search = ROOT / "agents" / "alphazero" / "search.py"
    assert numba_cache.module_file("kbenv.agents.alphazero.search") == search
    assert numba_cache.module_file("agents.alphazero.search") == search


def test_pyproject_lists_every_package():
    """pyproject.toml names the packages one by one (kbenv.agents is the folder agents/): the list is whole."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    package_dir = config["package-dir"]
    folders = {v: k for k, v in package_dir.items()}
    found = set()
    for init in ROOT.glob("*/**/__init__.py"):
        parts = init.parent.relative_to(ROOT).parts
        top = folders.get(parts[0], parts[0])
        if top.split(".")[0] == "kbenv":
            found.add(".".join([top, *parts[1:]]))
    assert sorted(config["packages"]) == sorted(found)
    assert set(package_dir) == {f"kbenv.{name}" for name in bundled.BUNDLED}
