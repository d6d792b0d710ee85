"""The release installs cleanly: `python -m build` makes an sdist with the sources and a wheel whose only top-level
package is kbenv (agents/ and benchmarks/ ship as kbenv.agents and kbenv.benchmarks, with the model files, the
board data and the web app's static files). The wheel, installed into a new venv, runs from a folder outside the
repository: the README's loop, `kbenv --version`, `kbenv play --agents trained:2p greedy` and `kbenv serve`.

No network and no dependency install: the venv gets the wheel alone (`pip --python VENV install --no-deps`), and a
.pth file puts this interpreter's site-packages after its own for the third-party packages. A path line in a .pth
file adds the folder only; the .pth files in it (an editable install's finder, `__editable__.kbenv-*.pth`) do not
run, so the checkout's kbenv and its `agents` stay out of sight.

Time: building and installing take about 15 s; the installed copy runs its kernels as plain Python
(NUMBA_DISABLE_JIT=1: the kernels run the same there, tests/test_pure_python.py), so the test checks what the
package ships and where it loads from without compiling the engine again for a new folder (numba keys a cached
kernel by its file's folder: a cold compile of the env, greedy and the search took 9.5 minutes on 2 busy cores).
The venv is made anew in a temporary folder each run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.search(r'__version__ = "([^"]+)"', (ROOT / "kbenv" / "_version.py").read_text(encoding="utf-8"))[1]
COLD_TIMEOUT_S = 1800  # a command's limit; a cold numba cache on 2 busy cores takes minutes

pytestmark = pytest.mark.slow

# From outside the repository: where kbenv and its packages come from, no top-level agents/benchmarks, and the
# README's loop (kbenv/kingdom_builder-v0, 3 players, random legal actions to the end).
QUICKSTART = """
import importlib.util, json, pickle
import pettingzoo
import kbenv  # noqa: F401  (registers kbenv/kingdom_builder-v0 and -v1 with PettingZoo's registry)
import kbenv.agents, kbenv.benchmarks, kbenv.bundled
from kbenv.agents import make_agent
from kbenv.agents.az import shipped_model

found = {name: getattr(importlib.util.find_spec(name), "origin", None) for name in ("agents", "benchmarks")}
agent = make_agent("greedy", seed=1)
e = pettingzoo.make("aec", "kbenv/kingdom_builder-v0", num_players=3, reward="win")
e.reset(seed=42)
steps, returns = 0, {}
for agent_name in e.agent_iter():
    obs, reward, termination, truncation, info = e.last()
    returns[agent_name] = returns.get(agent_name, 0) + reward
    action = None if termination or truncation else e.action_space(agent_name).sample(obs["action_mask"])
    e.step(action)
    steps += 1
print(json.dumps({"kbenv": kbenv.__file__, "agents": kbenv.agents.__file__, "benchmarks": kbenv.benchmarks.__file__,
                  "checkout": str(kbenv.bundled.checkout_folder("agents")), "top_level": found,
                  "model": str(shipped_model("2p")), "pickle_class": type(pickle.loads(pickle.dumps(agent))).__module__,
                  "steps": steps, "returns": returns}))
"""


def _tree(dest: Path) -> Path:
    """A copy of the checkout's files (tracked and new, not ignored; the whole tree without caches outside git)."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode().split("\0")
        for name in filter(None, listed):
            source = ROOT / name
            if source.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
    else:
        shutil.copytree(ROOT, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
            ".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", "runs", "results", ".*_cache",
            ".hypothesis", "*.nbi", "*.nbc"))
    return dest


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """`python -m build --no-isolation` of a copy of the checkout: the sdist, and the wheel built from it."""
    pytest.importorskip("build", reason="python -m build needs the `build` package (the dev extra)")
    work = tmp_path_factory.mktemp("build")
    tree = _tree(work / "tree")
    out = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(work / "dist"), str(tree)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    wheels = list((work / "dist").glob("kbenv-*.whl"))
    sdists = list((work / "dist").glob("kbenv-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list((work / "dist").iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0], "tree": tree}


def test_wheel_ships_kbenv_alone(dist):
    names = zipfile.ZipFile(dist["wheel"]).namelist()
    assert dist["wheel"].name == f"kbenv-{VERSION}-py3-none-any.whl"
    assert {name.split("/")[0] for name in names} == {"kbenv", f"kbenv-{VERSION}.dist-info"}
    top_level = zipfile.ZipFile(dist["wheel"]).read(f"kbenv-{VERSION}.dist-info/top_level.txt").decode().split()
    assert top_level == ["kbenv"]
    tree = dist["tree"]
    expected = {f"kbenv/{p.relative_to(tree).as_posix()}" for folder in ("agents", "benchmarks")
                for p in (tree / folder).rglob("*.py")}
    expected |= {f"kbenv/agents/models/{p.name}" for p in (tree / "agents" / "models").iterdir()
                 if p.suffix in (".pt", ".json", ".md")}
    expected |= {p.relative_to(tree).as_posix() for p in (tree / "kbenv").rglob("*")
                 if p.is_file() and (p.suffix in (".py", ".txt") or "static" in p.parts)}
    assert sorted(expected - set(names)) == []
    assert "kbenv/agents/models/trained_2p.pt" in names and "kbenv/serve/static/index.html" in names
    assert not [n for n in names if "/candidates/" in n or "/results/" in n or "__pycache__" in n]


def test_sdist_has_the_sources(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    tree = dist["tree"]
    sources = {p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file()}
    assert sorted(sources - names - {".gitignore"}) == []
    for name in ("pyproject.toml", "MANIFEST.in", "kbenv/bundled.py", "agents/models/trained_2p.pt",
                 "benchmarks/suite.py", "tests/test_wheel.py", "docs/install.md", "CHANGELOG.md"):
        assert name in names


def _venv_with(wheel: Path, base: Path) -> Path:
    """A new venv at base/venv with the wheel alone, and this interpreter's site-packages for its dependencies."""
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    out = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                          "--no-index", "--disable-pip-version-check", str(wheel)], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(purelib) / "kbenv_test_dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return venv


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "NUMBA_", "KBENV_")) and k not in ("VIRTUAL_ENV", "PWD", "OLDPWD")}
    env.update(NUMBA_DISABLE_JIT="1", KBENV_COMPILE_NOTICE="off", PYTHONDONTWRITEBYTECODE="1")
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_installed_wheel_runs_outside_the_repository(dist, tmp_path, tmp_path_factory):
    for module in ("torch", "uvicorn", "starlette"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed here (the train and serve extras)")
    venv = _venv_with(dist["wheel"], tmp_path_factory.mktemp("wheel-venv"))
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert not tmp_path.resolve().is_relative_to(ROOT) and not venv.resolve().is_relative_to(ROOT)
    env = _env()

    def run(*args: str) -> subprocess.CompletedProcess:
        start = time.monotonic()
        out = subprocess.run(list(args), cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=COLD_TIMEOUT_S)
        print(f"{Path(args[0]).name} {' '.join(args[1:2]) if args[1] != '-c' else '-c ...'}: "
              f"{time.monotonic() - start:.0f} s", file=sys.stderr)
        assert out.returncode == 0, f"{args}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
        return out

    report = json.loads(run(str(venv / "bin" / "python"), "-c", QUICKSTART).stdout.splitlines()[-1])
    for key in ("kbenv", "agents", "benchmarks", "model"):
        assert Path(report[key]).resolve().is_relative_to(site.resolve()), (key, report[key])
    assert report["checkout"] == "None" and report["pickle_class"] == "kbenv.agents.greedy"
    # no top-level agents or benchmarks: none in the venv, and none at all unless the dependencies' folder has one
    deps = [Path(p) for p in {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}]
    for name, origin in report["top_level"].items():
        foreign = any((d / name).exists() or (d / f"{name}.py").exists() for d in deps)
        assert origin is None or (foreign and not Path(origin).resolve().is_relative_to(site.resolve())), origin
    assert not (site / "agents").exists() and not (site / "benchmarks").exists()
    assert report["steps"] > 50 and sorted(report["returns"]) == ["player_0", "player_1", "player_2"]

    version = run(str(venv / "bin" / "kbenv"), "--version").stdout
    assert VERSION in version

    play = run(str(venv / "bin" / "kbenv"), "play", "--agents", "trained:2p", "greedy", "--players", "2", "--seed",
               "1", "--no-colour").stdout
    assert "player_0: trained:2p" in play and "winner(s): " in play

    port = _free_port()
    start = time.monotonic()
    server = subprocess.Popen([str(venv / "bin" / "kbenv"), "serve", "--port", str(port)], cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        page = None
        while page is None and time.monotonic() - start < 300 and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    assert answer.status == 200
                    page = answer.read().decode()
            except OSError:
                time.sleep(0.5)
        assert page is not None, f"kbenv serve answered no GET / (exit {server.poll()})"
        assert "<html" in page.lower()
        print(f"kbenv serve: GET / after {time.monotonic() - start:.0f} s", file=sys.stderr)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
