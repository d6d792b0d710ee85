"""The numba cache folder follows the engine's sources, so an edited engine never runs stale kernels."""

from __future__ import annotations

import os
import time

from kbenv import numba_cache


def make_package(root):
    (root / "engine").mkdir(parents=True)
    (root / "board").mkdir()
    (root / "data" / "sections").mkdir(parents=True)
    (root / "engine" / "a.py").write_text("x = 1\n")
    (root / "engine" / "b.py").write_text("y = 2\n")
    (root / "data" / "sections" / "s.txt").write_text("G" * 10 + "\n")
    (root / "cli.py").write_text("z = 3\n")
    return root


def test_digest_changes_with_any_kernel_source_or_data(tmp_path):
    pkg = make_package(tmp_path / "pkg")
    first = numba_cache.source_digest(pkg)
    assert numba_cache.source_digest(pkg) == first
    (pkg / "cli.py").write_text("z = 4\n")  # not kernel code: same cache
    assert numba_cache.source_digest(pkg) == first
    (pkg / "engine" / "b.py").write_text("y = 3\n")  # a module other kernels call: a new cache
    second = numba_cache.source_digest(pkg)
    assert second != first
    (pkg / "data" / "sections" / "s.txt").write_text("C" * 10 + "\n")  # data frozen into kernels
    assert numba_cache.source_digest(pkg) not in (first, second)


def test_a_users_own_cache_folder_is_kept():
    environ = {"NUMBA_CACHE_DIR": "/somewhere/else"}
    assert numba_cache.configure(environ) is None
    assert environ == {"NUMBA_CACHE_DIR": "/somewhere/else"}


def test_kbenv_kernels_cache_in_the_digest_folder():
    import numba

    from kbenv.engine.rng import seed_u32

    folder = f"{numba_cache.PREFIX}{numba_cache.source_digest()}"
    assert folder in numba.config.CACHE_DIR
    assert folder in os.environ["NUMBA_CACHE_DIR"]
    seed_u32(5)
    assert folder in seed_u32._cache._cache_path


def test_prune_removes_only_stale_folders_of_other_digests(tmp_path):
    keep = tmp_path / "numba-keep"
    fresh = tmp_path / "numba-fresh"
    stale = tmp_path / "numba-stale"
    other = tmp_path / "unrelated"
    for folder in (keep, fresh, stale, other):
        folder.mkdir()
    old = time.time() - 3 * 24 * 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    os.utime(keep, (old, old))
    numba_cache.prune(tmp_path, keep)
    assert keep.exists() and fresh.exists() and other.exists()
    assert not stale.exists()
