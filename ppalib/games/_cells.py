"""Pieces shared by the placement games (Hex, Connect Four, Gomoku, Othello): the list of empty cells kept in the
state for constant-time uniform draws, the ply cap, Zobrist keys and the neighbour context of a move code.

The empty-cell list lives in the state as two arrays of ``cells`` slots each: ``empties[0:count]`` (in no
particular order; a removal moves the last entry into the hole) and ``where[cell]``, the index of ``cell`` in
``empties``.  ``random_move`` draws ``empties[i]`` for a uniform i, exactly uniform over the empty cells; the
legal-move lists themselves are always in increasing cell order (read off the board), so that positions reached
by different move orders list their moves alike.
"""
from __future__ import annotations

import numpy as np

from .._noalloc import noalloc_jit, nowrap

OFF = 3  # the context value of an off-board neighbour


def zobrist_keys(seed: int, size: int, count: int) -> np.ndarray:
    """``count`` Zobrist keys for the game numbered ``seed`` at ``size`` (int64, fixed across runs)."""
    return np.random.default_rng([0x5EED, size, seed]).integers(-2**63, 2**63 - 1, size=count, dtype=np.int64)


def check_flag(name: str, value) -> int:
    """A 0/1 option as an int, or a ValueError."""
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, (int, np.integer)) or value not in (0, 1):
        raise ValueError(f"{name}={value!r} must be 0 or 1")
    return int(value)


@noalloc_jit
def remove_empty(state, empties, where, count_slot, cell):
    """Take ``cell`` out of the empty-cell list (offsets ``empties`` and ``where`` in ``state``)."""
    last_index = state[nowrap(count_slot)] - 1
    i = state[nowrap(where + cell)]
    last = state[nowrap(empties + last_index)]
    state[nowrap(empties + i)] = last
    state[nowrap(where + last)] = i
    state[nowrap(count_slot)] = last_index


@noalloc_jit
def add_empty(state, empties, where, count_slot, cell):
    """Put ``cell`` back into the empty-cell list."""
    i = state[nowrap(count_slot)]
    state[nowrap(empties + i)] = cell
    state[nowrap(where + cell)] = i
    state[nowrap(count_slot)] = i + 1


@noalloc_jit
def rebuild_empties(state, board, cells, empties, where, count_slot):
    """The empty-cell list read off the board (``board`` = offset of cell 0 in ``state``), in cell order."""
    count = 0
    for cell in range(cells):
        if state[nowrap(board + cell)] == 0:
            state[nowrap(empties + count)] = cell
            state[nowrap(where + cell)] = count
            count += 1
    state[nowrap(count_slot)] = count


@noalloc_jit
def list_empty_cells(state, board, cells, out):
    """Write the empty cells into ``out`` in increasing order; return their number."""
    count = 0
    for cell in range(cells):
        out[nowrap(count)] = cell
        count += state[nowrap(board + cell)] == 0  # branch-free: keep the cell only if empty
    return count


@noalloc_jit
def neighbour_pattern(spec, state, board, orthos, directions, cell, player):
    """``sum_k 4^k v_k`` over the ``directions`` neighbours of ``cell`` in the spec table ``orthos`` (the board
    graph's clockwise order, -1 off the board): v = 0 empty, 1 the mover's, 2 the opponent's, 3 off the board."""
    pattern = 0
    mult = 1
    for k in range(directions):
        q = spec[nowrap(orthos + directions * cell + k)]
        if q < 0:
            v = OFF
        else:
            v = state[nowrap(board + q)]
            if v != 0:
                v = 1 if v == player + 1 else 2
        pattern += mult * v
        mult *= 4
    return pattern


@noalloc_jit
def placement_dirty(spec, state, board, orthos, directions, move, with_context, out):
    """``dirty_slots`` of a placement game whose slots are its cells (``ppalib.kernels.incremental``): the cell
    played, and with ``with_context`` its empty neighbours (their codes read it; the others stay illegal)."""
    out[0] = move
    count = 1
    if with_context:
        for k in range(directions):
            q = spec[nowrap(orthos + directions * move + k)]
            if q >= 0 and state[nowrap(board + q)] == 0:
                out[nowrap(count)] = q
                count += 1
    return count


def orthos_table(graph) -> np.ndarray:
    """The board graph's neighbour table flattened for a spec (cell-major, -1 off the board)."""
    return np.ascontiguousarray(graph.orthos, dtype=np.int64).ravel()
