"""The search tree: a transposition table of entries, each holding the statistics of its position's moves.

An *entry* is a position (keyed by its 64-bit Zobrist hash) with the player to move, its total playouts and its
legal moves, in the game's deterministic list order, at ``node_off[entry]`` in the move pool.  Per move the pool
holds the move, its (wins, playouts) side by side in ``pool_stats`` (one cache line for the selection loop), and,
when the search needs them, the AMAF (RAVE) wins and playouts in ``pool_amaf`` and the prior in ``pool_prior``.
GRAVE's AMAF statistics are per entry and per move code instead (a reference entry lends them to moves it may not
have): ``node_amaf`` holds one row of (wins, playouts) side by side for every code, ``2 * codes`` values an entry.
Rewards are for the entry's player to move: 1 win, 0.5 draw, 0 loss.  An entry made by a PUCT playout's first move
has no moves listed until the search first descends through it: ``node_off`` -1 and ``node_n`` 0 meanwhile.

The table is open addressing over a power-of-two array holding entry index + 1 (0 = free), at load <= 1/2.
``sizes`` holds the entries used and the pool slots used.  Arrays grow by doubling when full (``grow``), so a
``Tree`` may be kept between searches (tree reuse): ``ppalib.kernels.search.retain_subtree`` then keeps only the
entries reachable from the new root, which bounds the memory over a long game by what the searches of one move
can add to the subtree kept.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit, nowrap
from ppalib.games._common import DRAW

Tree = namedtuple("Tree", ["table", "node_key", "node_player", "node_total", "node_n", "node_off",
                           "pool_move", "pool_stats", "pool_amaf", "pool_prior", "sizes", "node_amaf"])
ENTRIES = 0  # sizes[ENTRIES]: entries in use
POOL = 1     # sizes[POOL]: pool slots in use


@noalloc_jit
def reward(winner, player):
    """1 for a win of ``player``, 0.5 for a draw, 0 for a loss."""
    if winner == player:
        return 1.0
    if winner == DRAW:
        return 0.5
    return 0.0


@noalloc_jit
def lookup(table, node_key, h):
    """The entry of hash ``h``, or ``-1 - slot`` with the free slot where it would go."""
    mask = table.size - 1
    i = h & mask
    while True:
        entry = table[nowrap(i)]
        if entry == 0:
            return -1 - i
        if node_key[nowrap(entry - 1)] == h:
            return entry - 1
        i = (i + 1) & mask


@njit(cache=True)
def new_tree(capacity, pool_size, amaf, prior, amaf_codes):
    """An empty tree with room for ``capacity`` entries and ``pool_size`` moves; ``amaf`` / ``prior``: whether the
    pool keeps RAVE statistics / priors (else those arrays are empty); ``amaf_codes``: the move codes of GRAVE's
    per-entry AMAF rows (0: none)."""
    size = 1
    while size < 2 * capacity:
        size *= 2
    return Tree(np.zeros(size, dtype=np.int64), np.empty(capacity, dtype=np.int64),
                np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.float64),
                np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64),
                np.empty(pool_size, dtype=np.int64), np.empty(2 * pool_size, dtype=np.float64),
                np.empty(2 * pool_size if amaf else 0, dtype=np.float64),
                np.empty(pool_size if prior else 0, dtype=np.float64), np.zeros(2, dtype=np.int64),
                np.empty(capacity * 2 * amaf_codes, dtype=np.float64))


@noalloc_jit
def amaf_codes(tree):
    """The move codes of GRAVE's per-entry AMAF rows (0 when the tree keeps none)."""
    return tree.node_amaf.size // (2 * tree.node_key.size)


@njit(cache=True)
def grown_copy(array, size, used):
    """A new array of ``size`` holding ``array[:used]`` (the rest uninitialised)."""
    grown = np.empty(size, dtype=array.dtype)
    grown[:used] = array[:used]
    return grown


@njit(cache=True)
def reserve(tree, entries):
    """``tree`` with room for ``entries`` more entries (and, while the pool is small, their moves): what
    ``run_iterations`` needs before it runs (at most two entries an iteration)."""
    return grow(tree, tree.sizes[ENTRIES] + entries, tree.sizes[POOL])


@njit(cache=True)
def grow(tree, entries_needed, pool_needed):
    """``tree`` with room for ``entries_needed`` entries and ``pool_needed`` moves (doubling; the table rebuilt)."""
    capacity = tree.node_key.size
    pool_size = tree.pool_move.size
    if entries_needed <= capacity and pool_needed <= pool_size:
        return tree
    while capacity < entries_needed:
        capacity *= 2
    while pool_size < pool_needed:
        pool_size *= 2
    grown = new_tree(capacity, pool_size, tree.pool_amaf.size > 0, tree.pool_prior.size > 0, amaf_codes(tree))
    used = tree.sizes[ENTRIES]
    pool_used = tree.sizes[POOL]
    grown.node_key[:used] = tree.node_key[:used]
    grown.node_player[:used] = tree.node_player[:used]
    grown.node_total[:used] = tree.node_total[:used]
    grown.node_n[:used] = tree.node_n[:used]
    grown.node_off[:used] = tree.node_off[:used]
    grown.pool_move[:pool_used] = tree.pool_move[:pool_used]
    grown.pool_stats[:2 * pool_used] = tree.pool_stats[:2 * pool_used]
    if tree.pool_amaf.size > 0:
        grown.pool_amaf[:2 * pool_used] = tree.pool_amaf[:2 * pool_used]
    if tree.pool_prior.size > 0:
        grown.pool_prior[:pool_used] = tree.pool_prior[:pool_used]
    row = 2 * amaf_codes(tree)
    grown.node_amaf[:used * row] = tree.node_amaf[:used * row]
    for node in range(used):
        slot = lookup(grown.table, grown.node_key, grown.node_key[nowrap(node)])
        grown.table[nowrap(-1 - slot)] = node + 1
    grown.sizes[ENTRIES] = used
    grown.sizes[POOL] = pool_used
    return grown


@noalloc_jit
def add_entry(tree, found, key, player, moves, n):
    """Make a new entry for hash ``key`` in the free slot ``lookup`` returned (``found = -1 - slot``): ``player`` to
    move, no playouts yet, the ``n`` moves of ``moves`` with zero statistics.  The caller made room (``grow``).
    Returns the entry."""
    node = tree.sizes[ENTRIES]
    offset = tree.sizes[POOL]
    tree.table[nowrap(-1 - found)] = node + 1
    tree.node_key[nowrap(node)] = key
    tree.node_player[nowrap(node)] = player
    tree.node_total[nowrap(node)] = 0.0
    tree.node_n[nowrap(node)] = n
    tree.node_off[nowrap(node)] = offset
    for i in range(n):
        tree.pool_move[nowrap(offset + i)] = moves[nowrap(i)]
        tree.pool_stats[nowrap(2 * (offset + i))] = 0.0
        tree.pool_stats[nowrap(2 * (offset + i) + 1)] = 0.0
    if tree.pool_amaf.size > 0:
        for i in range(n):
            tree.pool_amaf[nowrap(2 * (offset + i))] = 0.0
            tree.pool_amaf[nowrap(2 * (offset + i) + 1)] = 0.0
    row = 2 * amaf_codes(tree)
    for i in range(node * row, (node + 1) * row):
        tree.node_amaf[nowrap(i)] = 0.0
    tree.sizes[ENTRIES] = node + 1
    tree.sizes[POOL] = offset + n
    return node


@noalloc_jit
def most_visited(tree, node):
    """Index (in the entry's move list) of the move with the most playouts; the first one on ties."""
    off = tree.node_off[nowrap(node)]
    best = 0
    for i in range(tree.node_n[nowrap(node)]):
        if tree.pool_stats[nowrap(2 * (off + i) + 1)] > tree.pool_stats[nowrap(2 * (off + best) + 1)]:
            best = i
    return best


def initial_sizes(playouts: int, max_moves: int) -> tuple[int, int]:
    """Entries and pool slots to allocate for a search of ``playouts`` iterations: one entry per iteration (+1),
    and room for every entry's moves at once, capped at 2^22 moves (32 MiB an array) beyond which the pool
    doubles when full (untouched pages of a large ``np.empty`` cost nothing)."""
    capacity = playouts + 1
    return capacity, min(capacity * max_moves, max(capacity * 16 + max_moves, 1 << 22))


