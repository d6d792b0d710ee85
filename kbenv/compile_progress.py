"""A word on screen while numba compiles kbenv's kernels (the first run on a machine, or after an update).

kbenv's kernels compile on first use and load from numba's cache afterwards (kbenv.numba_cache). A
compile that has lasted `KBENV_COMPILE_NOTICE` seconds (default 2; `off` for never) opens a progress bar on
stderr (tqdm) that names the kernel being compiled, how long it is expected to take on a 2-core machine,
and how many functions are done; it closes when that compile ends. A run whose kernels all load from the
cache shows nothing. `kbenv warmup` compiles everything ahead, with one bar of its own.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from numba.core import event as numba_event

from .safe_json import short_repr

ENV_VAR = "KBENV_COMPILE_NOTICE"
DEFAULT_DELAY_S = 2.0
# CPU seconds of the compiles that the README loop and a greedy-lookahead game start from Python, from an
# empty cache (`python -m benchmarks.compile_time`, its `outermost` lists; the 2-core CI-class machine).
EXPECTED_S = {
    "settle": 40.0,
    "apply_action": 38.0,
    "greedy_action": 65.0,
    "lookahead_action": 15.0,
    "score_table": 12.0,
    "observe_into": 8.0,
    "legal_mask_into": 8.0,
    "begin_turn": 3.0,
    "setup_draws": 3.0,
    "init_roots": 120.0,  # agents.alphazero.tree_kernels: the compiled search of the network agents
    "select_leaves": 35.0,
}


def notice_delay(environ=None) -> float | None:
    """Seconds before the bar opens (None: never), from KBENV_COMPILE_NOTICE; ValueError naming it if bad."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "").strip().lower()
    if not value:
        return DEFAULT_DELAY_S
    if value in ("off", "never", "none"):
        return None
    try:
        delay = float(value)
    except ValueError:
        raise ValueError(f"{ENV_VAR}: expected seconds or 'off', got {short_repr(value)}") from None
    if delay < 0:
        raise ValueError(f"{ENV_VAR}: expected seconds >= 0 or 'off', got {short_repr(value)}")
    return delay


def _short_name(dispatcher) -> str:
    func = dispatcher.py_func
    return f"{func.__module__.removeprefix('kbenv.')}.{func.__qualname__}"


def _is_ours(dispatcher) -> bool:
    """A kernel of kbenv (or of a package added to kbenv.numba_cache.ROOTS), not a user's own numba code."""
    from .numba_cache import ROOTS

    return dispatcher.py_func.__module__.split(".")[0] in {root.name for root in ROOTS}


class CompileWatcher(numba_event.Listener):
    """A numba:compile listener that counts compiles and, past a delay, shows them (see the module docstring)."""

    def __init__(self, delay: float | None, stream=None):
        self.delay = delay
        self.stream = stream if stream is not None else sys.stderr
        self.stack: list[str] = []
        self.compiled = 0  # compilations that ran in this process (none when everything loaded)
        self.on_change = None  # a callback(name) for kbenv warmup's own bar
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._done = threading.Event()

    def on_start(self, event) -> None:
        name = _short_name(event.data["dispatcher"])
        with self._lock:
            self.stack.append(name)
            self.compiled += 1
            outermost = len(self.stack) == 1
        ours = _is_ours(event.data["dispatcher"])
        if self.on_change is not None and ours:
            self.on_change(name)
        if outermost and self.delay is not None and ours:
            self._done = threading.Event()
            self._thread = threading.Thread(target=self._show, args=(name, self._done), daemon=True)
            self._thread.start()

    def on_end(self, event) -> None:
        with self._lock:
            if self.stack:
                self.stack.pop()
            outermost_done = not self.stack
        if outermost_done and self._thread is not None:
            self._done.set()
            self._thread.join()
            self._thread = None

    def _show(self, name: str, done: threading.Event) -> None:
        if done.wait(self.delay):
            return
        from tqdm import tqdm

        from .numba_cache import CACHE_DIR

        kernel = name.rsplit(".", 1)[-1]
        expected = EXPECTED_S.get(kernel)
        start = time.perf_counter() - self.delay
        first = self.compiled
        about = f", about {expected:.0f} s on 2 cores" if expected else ""
        print(f"kbenv: compiling numba kernels for {name}{about}; once: later runs load them from {CACHE_DIR}",
              file=self.stream, flush=True)
        bar = tqdm(total=None if expected is None else int(expected), unit="s", file=self.stream, leave=False,
                   dynamic_ncols=True, desc="compiling",
                   bar_format="{desc} {elapsed}{postfix}" if expected is None else None)
        try:
            while not done.wait(0.5):
                with self._lock:
                    current = next((n for n in reversed(self.stack) if not n.startswith("numba.")), name)
                    count = self.compiled - first
                elapsed = time.perf_counter() - start
                bar.n = int(min(elapsed, expected) if expected else elapsed)
                bar.set_postfix_str(f"{count} functions, now {current}", refresh=False)
                bar.refresh()
        finally:
            bar.close()
            print(f"kbenv: compiled {self.compiled - first + 1} functions in {time.perf_counter() - start:.0f} s",
                  file=self.stream, flush=True)


WATCHER: CompileWatcher | None = None


def install(environ=None) -> CompileWatcher:
    """Register the process's watcher with numba (once) and return it."""
    global WATCHER
    if WATCHER is None:
        WATCHER = CompileWatcher(notice_delay(environ))
        numba_event.register("numba:compile", WATCHER)
    return WATCHER


install()  # on import of kbenv (kbenv/__init__.py), before any kernel can compile
