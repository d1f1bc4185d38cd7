"""``noalloc_jit``: the numba decorator of every compiled function that allocates nothing.

Numba's runtime (NRT) reference-counts arrays: a function that passes its array arguments on to another
compiled function increments and decrements their counts with atomic instructions on every call, unless
its own pruning pass removes the pair, which it often cannot.  In the game functions called once per
playout move those atomics were about half of the time (measured with ``perf`` on Breakthrough 8x8: 78 ns per
random playout move with NRT, 43 ns without).  A function that allocates no array needs no NRT, so it is
compiled with ``_nrt=False`` (a documented-by-source numba flag): arrays are then passed as plain pointers.
Such a function cannot create arrays (numba reports it at compile time); functions that do keep ``njit``.

``nowrap(i)``: an array index without numba's negative-index wrap.  Numba reads ``a[i]`` with a signed ``i`` as
``a[i + len(a)]`` when ``i < 0`` (Python's rule), a sign test and a conditional add on every access that LLVM
can rarely remove; an unsigned index skips them.  In the game and search kernels, where every index is
non-negative by construction, that wrap was about a fifth of the time (UCT at Go 8x8 12.9 -> 10.2 us an
iteration, PPA engine 2 at Go 24.7 -> 20.7; the same searches bit for bit,
``data/bench/nowrap_2026-11-28_ab.txt``).  A negative index passed through ``nowrap`` reads out of bounds instead
of wrapping, so it is used only where the index cannot be negative; the tests run every agent with numba's bounds
checking on (``tests/test_nowrap.py``), which reports such an index as an ``IndexError``.  Not in typed-dict
lookups (their keys keep their type), nor on tuples (numba indexes a tuple by a switch: there is no wrap to skip).

Counters passed to compiled functions start as ``np.int64(0)``, not ``0``.  Numba types a function's calls while
it is still inferring its variables: a counter such as ``nseq = 0``, widened to ``int64`` only by the loop that
increments it, is first seen as ``Literal[int](0)``, and the function it is passed to is compiled for that type too
and then again for ``int64``.  The playouts (``gibbs_playout``, ``uniform``, ``uniform_coded``), ``start`` and
``exp_in_place`` were each compiled twice for every game; with ``np.int64(0)`` a game's kernels compiled from an
empty cache in 108-119 s instead of 139-150 at Go 5x5 (two runs each, the other core busy).  ``bench --compile``
lists the ppalib functions compiled more than once (``recompiled``), and its test keeps the kernels out of it.
"""
import numpy as np
from numba import njit


def noalloc_jit(function):
    """``njit(cache=True)`` without the reference-counting runtime, for functions that allocate nothing."""
    return njit(cache=True, _nrt=False)(function)


def inline_jit(function):
    """``noalloc_jit`` inlined into its callers at numba-IR level (``inline="always"``): a compiled call passes each
    array argument as seven scalars, which in a small function called every playout move costs more than its work,
    and LLVM declines to inline numba's separately compiled functions."""
    return njit(cache=True, _nrt=False, inline="always")(function)


# ``nowrap(index)``: ``index`` (>= 0) as an unsigned integer, so that indexing with it skips numba's negative-index
# wrap (module docstring).  Numba compiles the call as a plain integer cast; an inlined function doing the same made
# the cold compile of the ten 8x8 games' kernels 147.7 s against 126.7 s (`bench --compile`, one run each).
nowrap = np.uint64
