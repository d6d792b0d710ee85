"""One compiled specialisation of a kbenv kernel per argument type, not one per constant argument.

When a numba kernel calls another with a constant (`terrain_view(st, 9)`, `hand_targets(st, p, t, -1, out)`),
numba types that argument as a literal (`Literal[int](9)`) and compiles the callee again for it: seven copies
of `terrain_view`, two of each target finder, each with all it calls linked in and optimised anew. The
machine code is the same as the general one's once the callee is inlined (LLVM propagates the constant
there), so the copies only cost compile time: 36 of the 390 compilations of the README's loop.

`install()` (run when kbenv is imported, before any kernel module) makes calls from compiled code to
kbenv's own kernels type their arguments without literals. No kbenv kernel asks for a literal argument
(`numba.literally`); kernels outside kbenv are left as numba compiles them.
"""

from __future__ import annotations

PACKAGE_PREFIX = "kbenv."


def _is_kbenv(dispatcher) -> bool:
    return getattr(dispatcher.py_func, "__module__", "").startswith(PACKAGE_PREFIX)


def install() -> None:
    """Patch numba's dispatcher typing once (idempotent)."""
    from numba.core import types
    from numba.core.dispatcher import Dispatcher

    if getattr(Dispatcher.get_call_template, "_kbenv_unliteral", False):
        return
    original = Dispatcher.get_call_template

    def get_call_template(self, args, kws):
        if _is_kbenv(self):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return original(self, args, kws)

    get_call_template._kbenv_unliteral = True
    Dispatcher.get_call_template = get_call_template


install()
