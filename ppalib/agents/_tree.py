"""Pieces shared by the tree-search kernels (``mcts.py``, ``rave.py``); independent of the game."""
import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit
from ppalib.games._common import DRAW


@noalloc_jit
def reward(winner, player):
    """1 for a win of ``player``, 0.5 for a draw, 0 for a loss."""
    if winner == player:
        return 1.0
    if winner == DRAW:
        return 0.5
    return 0.0


@noalloc_jit
def add_entry(table, found, node_key, node_player, node_total, node_n, node_off, node, key, player, count, offset):
    """Make entry ``node`` for hash ``key`` in the free slot ``lookup`` returned (``found = -1 - slot``): ``player``
    to move, no playouts yet, its ``count`` moves at ``offset`` in the caller's move pool."""
    table[-1 - found] = node + 1
    node_key[node] = key
    node_player[node] = player
    node_total[node] = 0.0
    node_n[node] = count
    node_off[node] = offset


@noalloc_jit
def lookup(table, node_key, h):
    """Transposition table (open addressing): node index of hash ``h``, or ``-1 - slot`` with its free slot.

    ``table`` holds node index + 1 (0 = empty), its size a power of two; ``node_key`` the nodes' hashes.
    """
    mask = table.size - 1
    i = h & mask
    while True:
        entry = table[i]
        if entry == 0:
            return -1 - i
        if node_key[entry - 1] == h:
            return entry - 1
        i = (i + 1) & mask


@njit(cache=True)
def new_table(capacity):
    """An empty transposition table for ``capacity`` nodes: (table, node_key, node_player, node_total, node_n,
    node_off), the table sized to the power of two at least twice the capacity (load factor <= 1/2)."""
    size = 1
    while size < 2 * capacity:
        size *= 2
    return (np.zeros(size, dtype=np.int64), np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.float64), np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64))
