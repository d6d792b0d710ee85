"""numba's cache for kbenv: a stale kernel never runs, an edit recompiles only the kernels that reach it, and a
kernel that loads from the cache compiles nothing and shows no progress bar (kbenv.numba_cache,
kbenv.compile_progress, kbenv.kernel_signatures).

The end-to-end tests build a small package of kernels in a temporary folder, let kbenv's locator stamp it
(`numba_cache.add_root`) and run each step in a fresh process, as a user's next run would be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kbenv import numba_cache

REPO = Path(__file__).resolve().parent.parent

RUNNER = textwrap.dedent(
    """
    import json, sys
    import kbenv
    from kbenv import compile_progress, numba_cache
    numba_cache.add_root(sys.argv[1])
    sys.path.insert(0, str(__import__("pathlib").Path(sys.argv[1]).parent))
    names = []

    class Names(compile_progress.numba_event.Listener):
        def on_start(self, event):
            func = event.data["dispatcher"].py_func
            if func.__module__.startswith("kbpkg."):
                names.append(func.__qualname__)

        def on_end(self, event):
            pass

    compile_progress.numba_event.register("numba:compile", Names())
    from kbpkg import a, d
    print(json.dumps({"total": int(a.total()), "other": int(d.other()), "compiled": sorted(set(names))}))
    """
)


def write_package(root: Path, value: int = 1, table: tuple = (10, 20)) -> Path:
    """kbpkg: a.total() calls b.value() and reads tables.TABLE; d.other() reaches neither."""
    pkg = root / "kbpkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "b.py").write_text(f"from numba import njit\n\n\n@njit(cache=True)\ndef value():\n    return {value}\n")
    (pkg / "tables.py").write_text(f"import numpy as np\n\nTABLE = np.array({list(table)}, dtype=np.int64)\n")
    (pkg / "a.py").write_text(textwrap.dedent(
        """
        from numba import njit

        from .b import value
        from .tables import TABLE


        @njit(cache=True)
        def total():
            return value() + TABLE[1]
        """))
    (pkg / "d.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef other():\n    return 7\n")
    return pkg


def run_package(pkg: Path, cache: Path, **env) -> tuple[dict, str]:
    environ = dict(os.environ, NUMBA_CACHE_DIR=str(cache), KBENV_COMPILE_NOTICE="0", **env)
    environ.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", RUNNER, str(pkg)], cwd=REPO, env=environ, capture_output=True,
                          text=True, check=True, timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def bump_mtime(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles without the JIT")
def test_an_edited_callee_or_table_reaches_the_cached_caller_and_nothing_else_recompiles(tmp_path):
    pkg = write_package(tmp_path / "src")
    cache = tmp_path / "cache"
    first, err = run_package(pkg, cache)
    assert first["total"] == 21 and first["other"] == 7
    assert first["compiled"] == ["other", "total", "value"]
    assert "kbenv: compiling" in err  # KBENV_COMPILE_NOTICE=0: the notice comes with the first compile

    again, err = run_package(pkg, cache)
    assert again == {"total": 21, "other": 7, "compiled": []}  # all loaded
    assert "kbenv: compiling" not in err  # nothing compiled: no word on screen

    write_package(tmp_path / "src", value=2)  # the callee's source
    bump_mtime(pkg / "b.py")
    edited, _ = run_package(pkg, cache)
    assert edited["total"] == 22  # numba alone would have kept the old value() inside total()
    assert edited["compiled"] == ["total", "value"]  # d.other() cannot reach b.py: loaded

    write_package(tmp_path / "src", value=2, table=(10, 30))  # a table frozen into the caller
    bump_mtime(pkg / "tables.py")
    edited, _ = run_package(pkg, cache)
    assert edited["total"] == 32
    assert edited["compiled"] == ["total"]


def make_modules(root: Path) -> Path:
    pkg = root / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a  # the package imports everything\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\nfrom . import c as see\n")
    (pkg / "sub" / "b.py").write_text("from ..c import X\n\n\ndef f():\n    from pkg.e import Y  # inside a function\n")
    (pkg / "c.py").write_text("import numpy as np\n\nX = 1\n")
    (pkg / "d.py").write_text("from .sub.b import (\n    f,  # a comment, c\n)\n")
    (pkg / "e.py").write_text("Y = 2\n")
    (pkg / "lone.py").write_text("import os\n")
    return pkg


def names(paths, pkg: Path) -> list[str]:
    return sorted(p.relative_to(pkg).as_posix() for p in paths)


def test_the_import_closure_follows_every_import_form_but_not_the_package_init(tmp_path):
    pkg = make_modules(tmp_path)
    assert names(numba_cache.import_closure(pkg / "a.py", pkg), pkg) == ["a.py", "c.py", "e.py", "sub/b.py"]
    assert names(numba_cache.import_closure(pkg / "d.py", pkg), pkg) == ["c.py", "d.py", "e.py", "sub/b.py"]
    assert names(numba_cache.import_closure(pkg / "lone.py", pkg), pkg) == ["lone.py"]


def test_a_stamp_changes_with_its_closure_and_the_data_only(tmp_path):
    pkg = make_modules(tmp_path)
    (pkg / "data").mkdir()
    (pkg / "data" / "grid.txt").write_text("GG\n")

    def stamps():
        numba_cache._stamp.cache_clear()
        return {name: numba_cache.module_stamp(pkg / name, pkg, {}) for name in ("a.py", "d.py", "lone.py")}

    first = stamps()
    assert stamps() == first
    (pkg / "e.py").write_text("Y = 3\n")
    second = stamps()
    assert second["a.py"] != first["a.py"] and second["d.py"] != first["d.py"]  # both reach e.py
    assert second["lone.py"] == first["lone.py"]
    (pkg / "data" / "grid.txt").write_text("CC\n")  # data: every stamp
    third = stamps()
    assert all(third[k] != second[k] for k in third)
    user = tmp_path / "sections"
    user.mkdir()
    (user / "canoe.txt").write_text("WW\n")
    numba_cache._stamp.cache_clear()
    assert numba_cache.module_stamp(pkg / "lone.py", pkg, {"KBENV_SECTIONS": str(user)}) != third["lone.py"]


def test_kbenv_kernels_use_the_closure_locator():
    from kbenv.engine.rng import seed_u32

    seed_u32(5)
    locator = seed_u32._cache._impl.locator
    assert type(locator).__name__ == "KbenvCacheLocator"
    assert locator.get_source_stamp() == numba_cache.module_stamp(Path(seed_u32.py_func.__code__.co_filename))
    assert str(numba_cache.cache_base()) in seed_u32._cache._cache_path


def test_the_agents_kernels_are_stamped_by_their_closure_through_kbenv():
    from agents.alphazero import tree_kernels

    path = Path(tree_kernels.__file__).resolve()
    closure = numba_cache.import_closure(path)
    assert numba_cache.PACKAGE / "engine" / "actions.py" in closure  # the search applies kbenv's rules
    kernel = next(v for v in vars(tree_kernels).values() if hasattr(v, "_cache") and hasattr(v, "py_func"))
    assert type(kernel._cache._impl.locator).__name__ == "KbenvCacheLocator"


def test_a_users_cache_folder_is_used_and_a_bad_root_is_refused(tmp_path):
    assert numba_cache.cache_base({"NUMBA_CACHE_DIR": str(tmp_path)}) == tmp_path
    with pytest.raises(ValueError, match="not a package folder"):
        numba_cache.add_root(tmp_path)


def test_the_old_one_digest_folders_are_removed(tmp_path):
    (tmp_path / "numba-0123456789abcdef").mkdir()
    (tmp_path / "numba").mkdir()
    (tmp_path / "other").mkdir()
    numba_cache.remove_legacy_folders(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numba", "other"]


def test_constant_arguments_do_not_make_new_specialisations():
    from numba import njit

    from kbenv.board.bitset import has

    @njit
    def probe(words):
        return has(words, 3) + has(words, 5)

    import numpy as np

    probe(np.zeros(7, dtype=np.int64))
    assert has.signatures and not any("Literal" in str(sig) for sig in has.signatures)


def test_the_notice_delay_is_read_and_checked():
    from kbenv.compile_progress import DEFAULT_DELAY_S, notice_delay

    assert notice_delay({}) == DEFAULT_DELAY_S
    assert notice_delay({"KBENV_COMPILE_NOTICE": "off"}) is None
    assert notice_delay({"KBENV_COMPILE_NOTICE": "0.5"}) == 0.5
    with pytest.raises(ValueError, match="KBENV_COMPILE_NOTICE"):
        notice_delay({"KBENV_COMPILE_NOTICE": "soon"})
