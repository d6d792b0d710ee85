"""agents.alphazero.tree_kernels compiles kbenv's kernels into its own: kbenv's cache locator stamps them by
their import closure too (kbenv.numba_cache), so that an edit of kbenv never leaves a stale search kernel."""

from pathlib import Path

from kbenv import numba_cache

numba_cache.add_root(Path(__file__).resolve().parent)
