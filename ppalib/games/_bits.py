"""Bit tricks on uint64 bitboards, shared by the games with a bitboard engine (boards of at most 64 cells)."""
import platform

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .._noalloc import noalloc_jit

BITBOARD_MAX_CELLS = 64
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_H80 = np.uint64(0x8080808080808080)
_BYTE = np.uint64(0xFF)
ONE = np.uint64(1)
ZERO = np.uint64(0)


def _select_in_byte_table() -> np.ndarray:
    """``table[byte | rank << 8]``: the position (0-7) of the ``rank``-th lowest set bit of ``byte``."""
    table = np.zeros(8 * 256, dtype=np.uint8)
    for byte in range(256):
        for rank, bit in enumerate(b for b in range(8) if byte >> b & 1):
            table[byte | rank << 8] = bit
    return table


_SELECT_IN_BYTE = _select_in_byte_table()


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
def nth_cell_broadword(x, i):
    """Index of the ``i``-th lowest set bit (from 0) of ``x``, which has more than ``i`` set bits.

    Broadword select (Vigna, "Broadword implementation of rank/select queries", 2008), without a loop: the bytes'
    running bit counts locate the byte holding the bit, a table the bit in that byte.  ``nth_cell`` where the CPU
    has no ``pdep``."""
    counts = x - ((x >> ONE) & _M1)
    counts = (counts & _M2) + ((counts >> np.uint64(2)) & _M2)
    counts = (counts + (counts >> np.uint64(4))) & _M4  # bits in each byte
    running = counts * _H01  # byte j: bits in bytes 0..j (at most 64: the top bit of each byte stays clear)
    # bytes whose running count is <= i, i.e. lie wholly before the i-th bit: as many as the byte's index
    below = (((np.uint64(i) * _H01) | _H80) - running) & _H80
    place = popcount(below) * 8
    before = np.int64(((running << np.uint64(8)) >> np.uint64(place)) & _BYTE)
    byte = np.int64((x >> np.uint64(place)) & _BYTE)
    return place + np.int64(_SELECT_IN_BYTE[byte | (i - before) << 8])


@intrinsic
def _pdep(typingctx, source, mask):
    """x86 BMI2 ``pdep``: the low bits of ``source`` deposited, in order, at the set bits of ``mask``."""
    signature = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):
        word = ir.IntType(64)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(word, [word, word]),
                                                  "llvm.x86.bmi.pdep.64")
        return builder.call(function, args)
    return signature, codegen


@noalloc_jit
def nth_cell_pdep(x, i):
    """``nth_cell`` in two instructions: bit ``i`` deposited on the set bits of ``x`` lands on its ``i``-th."""
    return np.int64(trailing_zeros(_pdep(ONE << np.uint64(i), x)))


def compiles_for_bmi2() -> bool:
    """Whether numba compiles for an x86-64 CPU with a fast BMI2 ``pdep``: the host's, unless ``NUMBA_CPU_NAME`` or
    ``NUMBA_CPU_FEATURES`` name another target (then only when the features given include it)."""
    from numba.core import config
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if config.CPU_FEATURES is not None:
        return "+bmi2" in str(config.CPU_FEATURES).split(",")
    if config.CPU_NAME is not None:
        return False
    import llvmlite.binding as llvm
    if llvm.get_host_cpu_name().startswith(("znver1", "znver2", "bdver")):
        return False  # AMD before Zen 3 runs pdep in microcode, hundreds of cycles: the broadword select is faster
    return "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")


#: Index of the ``i``-th lowest set bit (from 0) of ``x``, which has more than ``i`` set bits: the k-th move of a
#: bitboard, which UCT's uniform draw picks (Breakthrough family, Domineering, Othello, Teeko).  Both versions
#: return the same cell (tests/test_bits.py), so the draws are those of the earlier loop that dropped the lowest
#: bit ``i`` times.  In Breakthrough 8x8 random playouts (with the branch-free choice of the direction set in
#: ``breakthrough.random_move``) the draw cost 45 ns a ply with that loop, 23 with the broadword select, 19 with pdep.
nth_cell = nth_cell_pdep if compiles_for_bmi2() else nth_cell_broadword
