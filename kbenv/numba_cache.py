"""Numba's on-disk cache for kbenv's kernels: one stamp per module, over everything its kernels can reach.

Numba checks a cached kernel only against the source of the file that defines it. A kernel that calls a
function of another module, or reads a module-level table (neighbour masks, section grids from
kbenv/data), has that code and those values compiled into it: after an edit or an update of kbenv, a
check of the defining file alone would let `hints_into` go on running an old `lookahead_values`.

kbenv therefore puts a cache locator of its own ahead of numba's for the files of the kbenv package. The
stamp it gives a kernel is a digest of the kernel's module's import closure inside kbenv (the module and
every kbenv module it imports, directly or through others, found by reading their import statements),
of the data files the board tables are read from (kbenv/data, and the folder of KBENV_SECTIONS when it
is set) and of numpy's version (numba's own is checked by numba). A cached kernel whose stamp differs is
compiled again; every other one loads. So an edit recompiles the kernels whose module can reach the
edited file and nothing else, and an update of kbenv keeps what it did not change.

The cache goes to the folder in NUMBA_CACHE_DIR when the user set one, else to `kbenv/__pycache__/numba`,
else (a read-only install) to `$XDG_CACHE_HOME/kbenv/numba` (default `~/.cache/kbenv/numba`). Kernels
outside kbenv keep numba's own locators. The folders of earlier kbenv versions (`numba-<digest>`, one
digest over all sources) are removed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOTS: list[Path] = [PACKAGE]  # the packages whose kernels the locator stamps (add_root adds more)
STAMP_VERSION = "kbenv-closure-1"  # a change of the stamp's definition starts every kernel afresh
LEGACY_PREFIX = "numba-"  # the cache folders of the one-digest scheme

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<source>[.\w]+)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)"
    r"|import[ \t]+(?P<modules>[^\n]*))",
    re.MULTILINE,
)


Roots = tuple[Path, ...]


def _roots(roots) -> Roots:
    """`roots` as a tuple of package folders (default: ROOTS, kbenv and the packages added to it)."""
    if roots is None:
        return tuple(ROOTS)
    return (Path(roots),) if isinstance(roots, (str, os.PathLike)) else tuple(Path(r) for r in roots)


def module_file(module: str, roots=None) -> Path | None:
    """The file of a module of one of the packages ('kbenv.engine.state' -> .../engine/state.py)."""
    parts = module.split(".")
    for root in _roots(roots):
        if parts[0] == root.name:
            rest = parts[1:]
        elif parts[:2] == [PACKAGE.name, root.name] and root.parent != PACKAGE:
            rest = parts[2:]  # kbenv.agents in a checkout: the folder agents/ beside kbenv/ (kbenv.bundled)
        else:
            continue
        base = root.joinpath(*rest)
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path
    return None


def module_name(path: Path, roots=None) -> str:
    """The dotted name of a file of one of the packages."""
    path = Path(path).resolve()
    root = root_of(path, roots)
    if root is None:
        raise ValueError(f"{path} is in none of the packages {', '.join(map(str, _roots(roots)))}")
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([root.name, *parts])


def _absolute(source: str, module: str, is_package: bool) -> str:
    """The absolute name of an import's source ('..board' seen from kbenv.engine.legal -> kbenv.board)."""
    dots = len(source) - len(source.lstrip("."))
    if not dots:
        return source
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (dots - 1)]
    rest = source[dots:]
    return ".".join(base + ([rest] if rest else []))


def _names(text: str) -> list[str]:
    """The imported names of `a, b as c` or `(a,\n b,  # note\n)`."""
    text = re.sub(r"#[^\n]*", "", text).strip().strip("()")
    return [part.split()[0] for part in text.replace("\n", " ").split(",") if part.strip()]


def direct_imports(path: Path, roots=None) -> frozenset[Path]:
    """The files of the packages that the module at `path` imports (anywhere in it, functions included)."""
    stat = path.stat()
    return _direct_imports(Path(path).resolve(), _roots(roots), stat.st_mtime_ns, stat.st_size)


@functools.cache
def _direct_imports(path: Path, roots: Roots, mtime_ns: int, size: int) -> frozenset[Path]:
    module = module_name(path, roots)
    is_package = path.name == "__init__.py"
    found: set[Path] = set()
    for match in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        if match["modules"] is not None:
            targets = [module_file(name, roots) for name in _names(match["modules"])]
        else:
            source = _absolute(match["source"], module, is_package)
            # `from pkg import module` names the module; `from module import name` the module itself
            targets = [module_file(f"{source}.{name}", roots) or module_file(source, roots)
                       for name in _names(match["names"])]
        found.update(t for t in targets if t is not None)
    found.discard(path)
    return frozenset(found)


def import_closure(path: Path, roots=None) -> list[Path]:
    """`path` and every file of the packages it reaches through imports, sorted."""
    roots = _roots(roots)
    path = Path(path).resolve()
    seen = {path}
    todo = [path]
    while todo:
        for target in direct_imports(todo.pop(), roots):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return sorted(seen)


def data_files(roots=None, user: str | None = None) -> list[Path]:
    """The data files that module-level tables are read from: each package's data/ folder (kbenv/data) and a
    user's KBENV_SECTIONS folder."""
    files = []
    for root in _roots(roots):
        files += sorted(p for p in (root / "data").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    if user and Path(user).expanduser().is_dir():
        files += sorted(p for p in Path(user).expanduser().glob("*.txt") if p.is_file())
    return files


@functools.cache
def _file_digest(path: Path, mtime_ns: int, size: int) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def _digest_of(path: Path) -> bytes:
    stat = path.stat()
    return _file_digest(path, stat.st_mtime_ns, stat.st_size)


def module_stamp(path: Path, roots=None, environ=None) -> str:
    """The cache stamp of the kernels defined in `path`: a digest of its import closure and the data files."""
    environ = os.environ if environ is None else environ
    return _stamp(Path(path).resolve(), _roots(roots), environ.get("KBENV_SECTIONS"))


@functools.cache
def _stamp(path: Path, roots: Roots, user: str | None) -> str:
    """module_stamp, once per process (files edited while it runs are seen by the next process)."""
    import numpy

    digest = hashlib.sha256(f"{STAMP_VERSION}\0numpy {numpy.__version__}\0".encode())
    for item in (*import_closure(path, roots), *data_files(roots, user)):
        root = next((r for r in roots if item.is_relative_to(r)), None)
        name = f"{root.name}/{item.relative_to(root).as_posix()}" if root else item.name
        digest.update(name.encode() + b"\0" + _digest_of(item))
    return digest.hexdigest()


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return os.access(folder, os.W_OK)
    except OSError:
        return False


def cache_base(environ=None) -> Path:
    """The folder of kbenv's cached kernels (see the module docstring)."""
    environ = os.environ if environ is None else environ
    if environ.get("NUMBA_CACHE_DIR"):
        return Path(environ["NUMBA_CACHE_DIR"])
    in_tree = PACKAGE / "__pycache__"
    if _writable(in_tree):
        return in_tree / "numba"
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kbenv" / "numba"


def add_root(package: str | os.PathLike) -> None:
    """Stamp the kernels of another package (a folder with __init__.py) this way too, before it is imported."""
    path = Path(package).resolve()
    if not (path / "__init__.py").is_file():
        raise ValueError(f"add_root: {path} is not a package folder (no __init__.py)")
    if path not in ROOTS:
        ROOTS.append(path)


def root_of(py_file: str | os.PathLike, roots=None) -> Path | None:
    """The package (of ROOTS by default) that holds `py_file`, if any."""
    try:
        path = Path(py_file).resolve()
    except (OSError, ValueError):
        return None
    return next((root for root in _roots(roots) if path.is_relative_to(root)), None)


def remove_legacy_folders(base: Path = PACKAGE / "__pycache__") -> None:
    """Remove the cache folders of the one-digest scheme (`numba-<digest>`)."""
    for folder in base.glob(f"{LEGACY_PREFIX}*"):
        shutil.rmtree(folder, ignore_errors=True)


def _make_locator_class():
    from numba.core.caching import _CacheLocator

    class KbenvCacheLocator(_CacheLocator):
        """Numba's cache locator for kbenv's files: stamps by import closure (see kbenv.numba_cache)."""

        def __init__(self, py_func, py_file: str):
            self._py_file = Path(py_file).resolve()
            self._lineno = py_func.__code__.co_firstlineno
            sub = self.get_suitable_cache_subpath(py_file)
            self._cache_path = str(Path(CACHE_DIR) / sub)  # the folder chosen once, when kbenv was imported

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> str:
            return module_stamp(self._py_file)

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file: str):
            if root_of(py_file) is None or not Path(py_file).is_file():
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None  # numba's own locators take over
            return self

    return KbenvCacheLocator


def install() -> type:
    """Put kbenv's locator first in numba's list (once); returns its class."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # (named _CacheImpl before numba 0.61)
    for cls in impl._locator_classes:
        if cls.__name__ == "KbenvCacheLocator":
            return cls
    cls = _make_locator_class()
    impl._locator_classes.insert(0, cls)
    if "NUMBA_CACHE_DIR" not in os.environ:
        remove_legacy_folders()
    return cls


LOCATOR = install()  # on import, before any kernel module (kbenv/__init__.py imports this early)
CACHE_DIR = str(cache_base())
