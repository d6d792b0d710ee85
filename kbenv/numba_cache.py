"""Numba's on-disk cache, in a folder named after a digest of the engine's sources.

Numba checks a cached kernel only against the timestamp of the file that defines it. A kernel that
calls a function of another module, or reads a module-level table (neighbour masks, section grids
from kbenv/data), keeps its old machine code when only that other file changes: after an edit or an
update of kbenv, `hints_into` could go on running an old `lookahead_values`, a silently wrong result.
kbenv therefore points numba's cache at `kbenv/__pycache__/numba-<digest>`, where the digest covers
every file whose code or data can end up inside a compiled kernel; a change to any of them starts a
fresh cache (the rules in engine/, the built-in policies in policies/, the board tables, the
catalogue's ids). Folders of other digests older than a day are removed. A user's own NUMBA_CACHE_DIR is
left alone (the folder chosen here is also put into NUMBA_CACHE_DIR, so that worker processes and
numba's own re-reading of the environment agree). Where the package folder cannot be written (a
read-only install), the cache goes to `$XDG_CACHE_HOME/kbenv` (default `~/.cache/kbenv`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SOURCES = ("engine/*.py", "policies/*.py", "board/*.py", "data/sections/*.txt", "catalogue.py", "rewards.py",
           "parallel.py", "numba_cache.py")
PREFIX = "numba-"
STALE_SECONDS = 24 * 3600


def source_digest(package: Path = PACKAGE) -> str:
    """A digest of every file that can end up inside a compiled kernel (code or data)."""
    digest = hashlib.sha256()
    for pattern in SOURCES:
        for path in sorted(package.glob(pattern)):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _writable_base(environ) -> Path:
    base = PACKAGE / "__pycache__"
    try:
        base.mkdir(exist_ok=True)
        if os.access(base, os.W_OK):
            return base
    except OSError:
        pass
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kbenv"


def prune(base: Path, keep: Path, stale_seconds: float = STALE_SECONDS) -> None:
    """Remove cache folders of other digests that nothing has touched for `stale_seconds`."""
    now = time.time()
    for folder in base.glob(f"{PREFIX}*"):
        try:
            if folder != keep and now - folder.stat().st_mtime > stale_seconds:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def configure(environ=None) -> str | None:
    """Point numba's cache at the folder of the current sources; returns it (None: the user's own)."""
    environ = os.environ if environ is None else environ
    if environ.get("NUMBA_CACHE_DIR"):
        return None
    import numba

    base = _writable_base(environ)
    target = base / f"{PREFIX}{source_digest()}"
    try:
        target.mkdir(parents=True, exist_ok=True)
        os.utime(target)
    except OSError:
        return None  # numba falls back to its own locations
    prune(base, target)
    environ["NUMBA_CACHE_DIR"] = str(target)  # numba re-reads its settings from the environment at times
    numba.config.CACHE_DIR = str(target)
    return str(target)


CACHE_DIR = configure()  # on import, before any kernel module (kbenv/__init__.py imports this early)
