"""Bit tricks on uint64 bitboards, shared by the games with a bitboard engine (boards of at most 64 cells)."""
import numpy as np

from .._noalloc import noalloc_jit

BITBOARD_MAX_CELLS = 64
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
ONE = np.uint64(1)
ZERO = np.uint64(0)


@noalloc_jit
def popcount(x):
    """Set bits of the uint64 ``x`` (LLVM compiles this to one popcnt instruction)."""
    x = x - ((x >> ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@noalloc_jit
def lowest_cell(x):
    """Index of the lowest set bit of the non-zero uint64 ``x``."""
    return popcount((x & (~x + ONE)) - ONE)


@noalloc_jit
def nth_cell(x, i):
    """Index of the ``i``-th lowest set bit (from 0) of ``x``, which has more than ``i`` set bits."""
    for _ in range(i):
        x &= x - ONE  # drop the lowest set bit
    return lowest_cell(x)
