"""A view of an array that numba does not reference-count, for the state inside one kernel call.

numba counts references to every array it passes or slices with atomic increments and decrements of the
array's memory record; in the engine, whose kernels pass the state `st` and its slices to one another on
every decision, those atomic operations took most of a decision's time (about two thirds of an all-seven
game's, by a profile of NRT_incref's callers). A view whose memory record is null is counted by a test
and a jump instead. `borrowed(st)` at the top of a kernel called from Python gives every kernel below it
such a view; it is safe where the array outlives the call (an argument passed in from Python, which holds
it) and the kernel never returns the view or stores it anywhere that outlives the call. Not in the batch kernels' own
bodies: a borrowed array handed to a `prange` loop gave wrong results in the parallel twin (tests/test_vector.py),
so they pass their rows as they are and the per-row kernels borrow. Under NUMBA_DISABLE_JIT it is the identity.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic

if config.DISABLE_JIT:

    def borrowed(array):
        """The array itself (numba's reference counting does not exist without the JIT)."""
        return array

else:

    @intrinsic
    def borrowed(typingctx, array):
        """The same array (data, shape, strides) with a null memory record: numba counts no references to it."""
        if not isinstance(array, types.Array):
            return None

        def codegen(context, builder, signature, args):
            source = context.make_array(array)(context, builder, args[0])
            view = context.make_array(array)(context, builder)
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            view.parent = cgutils.get_null_value(view.parent.type)
            view.nitems = source.nitems
            view.itemsize = source.itemsize
            view.data = source.data
            view.shape = source.shape
            view.strides = source.strides
            return view._getvalue()

        return array(array), codegen
