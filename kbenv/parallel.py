"""Threading settings for kbenv's parallel numba kernels, applied when `kbenv` is imported.

The batch kernels (`kbenv.engine.batch`, `kbenv.policies.batch`) are short parallel regions, from microseconds to a few
milliseconds each, called in a loop. Numba runs them on its OpenMP layer here (TBB is not installed,
`numba -s`; workqueue is not thread-safe), and GNU OpenMP by default lets a thread spin 300,000 times
after a region before it sleeps: about 9 ms of CPU per call on the reference machine (2-core AMD
EPYC VM, about 50 ns a spin). On an idle machine that saves a wake-up; next to other busy processes
it is ruinous: a thread spins at the barrier while its partner waits for a core that the spinner or
the other process holds, so each call costs scheduler time slices. With numba's defaults,
`python -m benchmarks.busy_speed` (2 spinning processes on 2 cores; medians of 11 runs on a machine
shared with other work) measured `VectorGames(b).step_random()` at 1,000-245,000 decisions/s at
batch 16, 16,000-920,000 at 256 and 62,000-1.3 M at 1024, where NUMBA_NUM_THREADS=1 kept 0.29-1.4 M
in the same runs. With the settings below, 5 runs gave 0.39-1.1 M at each of these batch sizes, as
much as NUMBA_NUM_THREADS=1 in the same runs (0.35-1.2 M), and idle 1.2-1.5 M, 1.6-2.5 M and
1.1-3.1 M (numba's defaults: 3.0-3.5 M at 256-1024 when the machine was really idle). So kbenv,
unless told otherwise:

- sets GOMP_SPINCOUNT=3000 (GNU OpenMP: about 150 us of spinning, long enough to catch the next call
  of a loop and short enough never to hold a core through a time slice) and KMP_BLOCKTIME=0 (LLVM and
  Intel OpenMP, which have no shorter spin than 1 ms). OMP_WAIT_POLICY=PASSIVE (no spinning) was
  measured too: as robust under load, but each region then wakes a sleeping thread (tens of
  microseconds on a VM), which cost 25-35% of the idle rate at batch 256-1024 (2.0-2.2 M against
  3.1-3.4 M decisions/s at batch 256). Spin counts of 30,000 and more brought the collapse back. These
  variables are read when the OpenMP library loads, so they go into `os.environ` before numba loads
  its threading layer; a user who set any of OMP_WAIT_POLICY, GOMP_SPINCOUNT or KMP_BLOCKTIME keeps
  exactly their own settings. They also reach torch's OpenMP threads when kbenv is imported before
  torch: on a quiet machine no measurable change to a small CNN's training step, on a loaded one a
  batch-1 forward pass took 2.4-5.6 ms instead of 18-47 ms. If torch loaded OpenMP first, the default
  spinning stays, and only the twin choice below protects kbenv.
- caps numba's thread count at the cores the process may really use: its CPU affinity (numba's own
  default) and a cgroup CPU quota (a container run with `--cpus`), by setting NUMBA_NUM_THREADS when
  it is unset and numba's threads have not started.
- compiles every batch kernel twice (`twin_kernels`): parallel, and serial (the same code without
  `parallel`; both give identical results). Batches below a kernel's `min_rows` (where the work of a
  call is under about 40 us, so a parallel region cannot pay for itself) always run serially. Larger
  ones run whichever twin has lately been faster per row (`TwinChooser`, which retries the other now
  and then for about 3% of the time): on an idle machine the parallel one, next to busy processes
  usually the serial one, since a parallel region then waits for its slowest thread's time slice.

`KBENV_THREADING=numba` turns all of this off (numba's own settings, parallel twins at every size: how
kbenv ran before), for comparison; `KBENV_THREADING=serial` runs the serial twins only (say, one
process per core). Figures: `python -m benchmarks.busy_speed`, whose table compares the default with
NUMBA_NUM_THREADS=1 and KBENV_THREADING=numba, idle and next to one busy process per core.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import os
import sys
import time
import types
import warnings

from .safe_json import short_repr

MODES = ("auto", "numba", "serial")
WAIT_VARIABLES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")
WAIT_DEFAULTS = {"GOMP_SPINCOUNT": "3000", "KMP_BLOCKTIME": "0"}


def mode(environ=None) -> str:
    """KBENV_THREADING: auto (the default), numba (numba's own settings) or serial (serial kernels only)."""
    value = (os.environ if environ is None else environ).get("KBENV_THREADING", "auto").strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"KBENV_THREADING: expected one of {', '.join(MODES)}, got {short_repr(value)}")
    return value


def cgroup_cpu_limit(root: str = "/sys/fs/cgroup") -> int | None:
    """Whole CPUs allowed by a cgroup CPU quota (v2 cpu.max or v1 cfs_quota_us), None if unlimited."""
    try:
        with open(os.path.join(root, "cpu.max")) as f:
            quota, period = f.read().split()[:2]
        if quota != "max":
            return max(1, math.ceil(int(quota) / int(period)))
        return None
    except (OSError, ValueError):
        pass
    try:
        with open(os.path.join(root, "cpu", "cpu.cfs_quota_us")) as f:
            quota = int(f.read())
        with open(os.path.join(root, "cpu", "cpu.cfs_period_us")) as f:
            period = int(f.read())
        return max(1, math.ceil(quota / period)) if quota > 0 and period > 0 else None
    except (OSError, ValueError):
        return None


def available_cpus(cgroup_root: str = "/sys/fs/cgroup") -> int:
    """The cores this process may use: its CPU affinity, capped by a cgroup CPU quota."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    limit = cgroup_cpu_limit(cgroup_root)
    return max(1, min(cpus, limit) if limit else cpus)


def numba_threads_started() -> bool:
    layer = sys.modules.get("numba.np.ufunc.parallel")
    return bool(getattr(layer, "_is_initialized", False))


def apply_env_defaults(environ=None, cpus: int | None = None) -> dict:
    """Set kbenv's threading defaults in `environ` (os.environ) where the user set nothing; return them.

    Nothing is set with KBENV_THREADING=numba. The wait policy is left alone if the user set any of
    WAIT_VARIABLES; NUMBA_NUM_THREADS is set only when it is unset, fewer cores are available than
    numba would use by default, and numba's threads have not started.
    """
    environ = os.environ if environ is None else environ
    if environ.get("KBENV_THREADING", "").strip().lower() == "numba":
        return {}
    applied = {}
    if not any(k in environ for k in WAIT_VARIABLES):
        for key, value in WAIT_DEFAULTS.items():
            environ[key] = applied[key] = value
    cpus = available_cpus() if cpus is None else cpus
    if "NUMBA_NUM_THREADS" not in environ and not numba_threads_started():
        try:
            default = len(os.sched_getaffinity(0))
        except AttributeError:
            default = os.cpu_count() or 1
        if cpus < default:
            environ["NUMBA_NUM_THREADS"] = applied["NUMBA_NUM_THREADS"] = str(cpus)
            config = sys.modules.get("numba.core.config")
            if config is not None and environ is os.environ:
                config.reload_config()  # numba already imported: let it see the new thread count
    return applied


@contextlib.contextmanager
def forced_mode(value: str):
    """Run the block as under KBENV_THREADING=value (auto, numba: parallel twins only, serial)."""
    global _MODE
    if value not in MODES:
        raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {short_repr(value)}")
    old, _MODE = _MODE, value
    try:
        yield
    finally:
        _MODE = old


def use_parallel(rows: int, min_rows: int) -> bool:
    """Whether a batch kernel over `rows` rows may run its parallel twin (the timing choice comes after)."""
    if _MODE == "auto":
        return rows >= min_rows
    return _MODE == "numba"


class TwinChooser:
    """Which twin of one kernel is faster now, from the measured seconds per row of its calls.

    Kept per power-of-two bucket of the batch size and per kind of call (`kind`: a kernel whose work per row depends
    on its mode, such as random steps with and without observations, keeps one estimate per mode; otherwise a mode
    that ran before would leave the other twin's estimate stale). The twin with the lower estimate runs, and its
    estimate follows its calls (an exponential average). The other twin is tried again, for TRY_CALLS calls in a row
    whose mean time replaces its stale estimate, once the calls since its last try have taken 1 / TRY_SHARE times
    what the try should cost: trying costs about TRY_SHARE of the kernel's time whatever the speed ratio, and a
    change of load is noticed within a few dozen calls. Single calls are noisy on a loaded machine (any of them can
    lose a time slice), hence the averages. The first call of each twin in each bucket (compiling, loading or
    specialising it) is not counted.
    """

    ALPHA = 0.1
    TRY_SHARE = 0.03
    TRY_CALLS = 3

    def __init__(self, clock=time.perf_counter):
        self.clock = clock
        # bucket -> [serial s/row, parallel s/row, seconds since the last try, twin on trial or -1,
        #            trial calls left, trial seconds, trial rows, the faster twin at the last call,
        #            whether each twin has run in this bucket]
        self.buckets: dict[tuple, list] = {}

    def call(self, kernels, args, rows: int, kind=0):
        key = (kind, rows.bit_length())
        b = self.buckets.get(key)
        if b is None:
            b = self.buckets[key] = [None, None, 0.0, -1, 0, 0.0, 0, -1, [False, False]]
        if b[3] >= 0:
            arm = b[3]
        elif b[1] is None or b[0] is None:
            arm = 1 if b[1] is None else 0
            b[3:7] = [arm, self.TRY_CALLS, 0.0, 0]
        else:
            arm = 1 if b[1] <= b[0] else 0
            if arm != b[7]:  # the other twin has just been measured: no need to try it again yet
                b[2], b[7] = 0.0, arm
            elif b[2] * self.TRY_SHARE >= self.TRY_CALLS * rows * b[1 - arm]:
                arm = 1 - arm
                b[3:7] = [arm, self.TRY_CALLS, 0.0, 0]
        t0 = self.clock()
        result = kernels[arm](*args)
        elapsed = self.clock() - t0
        if not b[8][arm]:  # its first call here: compiling, loading or specialising (new argument types)
            b[8][arm] = True
            return result
        if b[3] >= 0:
            b[4] -= 1
            b[5] += elapsed
            b[6] += rows
            if b[4] <= 0:
                b[arm], b[2], b[3] = b[5] / b[6], 0.0, -1
        else:
            b[arm] += self.ALPHA * (elapsed / rows - b[arm])
            b[2] += elapsed
        return result


def twin_kernels(min_rows, rows_arg: int = 1, kind=None):
    """Decorator: compile a prange kernel twice, parallel and serial, and dispatch per call.

    The serial twin is the same code compiled without `parallel` (prange then runs as range), under
    its own name so that numba's on-disk cache keeps both. The returned Python function runs the
    serial twin when `len(args[rows_arg])` is below `min_rows` (an int, or a function of the call's
    positional arguments), and otherwise whichever twin a `TwinChooser` finds faster at the moment, for
    calls of the same `kind` (None, or a function of the positional arguments giving a hashable mode)
    (with KBENV_THREADING=numba always the parallel one, with serial always the serial one). The
    twins give identical results; they are its attributes `.parallel` and `.serial`, the chooser is
    `.chooser`.
    """
    from numba import njit

    def wrap(fn):
        serial_fn = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + "_serial", fn.__defaults__,
                                       fn.__closure__)
        serial_fn.__qualname__ = fn.__qualname__ + "_serial"
        serial_fn.__doc__ = fn.__doc__
        parallel_kernel = njit(cache=True, parallel=True)(fn)
        serial_kernel = njit(cache=True)(serial_fn)
        kernels = (serial_kernel, parallel_kernel)
        chooser = TwinChooser()
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def dispatch(*args, **kwargs):
            if kwargs:
                args = signature.bind(*args, **kwargs).args
            rows = len(args[rows_arg])
            if _MODE != "auto":
                return (parallel_kernel if _MODE == "numba" else serial_kernel)(*args)
            if rows < (min_rows(args) if callable(min_rows) else min_rows):
                return serial_kernel(*args)
            return chooser.call(kernels, args, rows, 0 if kind is None else kind(args))

        dispatch.parallel = parallel_kernel
        dispatch.serial = serial_kernel
        dispatch.min_rows = min_rows
        dispatch.kind = kind
        dispatch.chooser = chooser
        return dispatch

    return wrap


try:
    _MODE = mode()
except ValueError as err:
    warnings.warn(f"{err}; using auto", stacklevel=2)
    _MODE = "auto"
APPLIED = apply_env_defaults()
