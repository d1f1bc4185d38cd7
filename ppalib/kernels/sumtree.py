"""Sum trees over move slots for Gibbs draws in O(log n) (the incremental playout engine, issue 25).

A tree of ``size`` leaves (a power of two) is the slice ``tree[base:base + 2 * size]``: leaf ``slot`` at
``base + size + slot``, node ``i`` (1 the root) the sum of nodes ``2i`` and ``2i + 1``.  Every update recomputes the
nodes above the leaf from their two children rather than adding a difference, so each node is always exactly the
floating-point sum of its children's current values, the same as a fresh build: no drift accumulates however long the
playout (the totals differ from a left-to-right sum of the same weights by rounding only, relative n * 2**-53).
Game-free.
"""
from ppalib._noalloc import noalloc_jit


@noalloc_jit
def leaves_for(slots):
    """The smallest power of two >= ``slots`` (at least 1)."""
    size = 1
    while size < slots:
        size *= 2
    return size


@noalloc_jit
def rebuild(tree, base, size):
    """Every inner node from the leaves (after writing all of them)."""
    for i in range(size - 1, 0, -1):
        tree[base + i] = tree[base + 2 * i] + tree[base + 2 * i + 1]


@noalloc_jit
def set_leaf(tree, base, size, slot, value):
    """Leaf ``slot`` to ``value``, and the sums above it recomputed from their children."""
    i = size + slot
    tree[base + i] = value
    i >>= 1
    while i >= 1:
        tree[base + i] = tree[base + 2 * i] + tree[base + 2 * i + 1]
        i >>= 1


@noalloc_jit
def set_leaf_pair(tree, base0, base1, size, slot, value0, value1):
    """``set_leaf`` on two trees of the same size at once (the same slot): the two walks up are independent, so
    interleaving them lets the CPU overlap their dependent loads.  Each tree ends as ``set_leaf`` leaves it."""
    i = size + slot
    tree[base0 + i] = value0
    tree[base1 + i] = value1
    i >>= 1
    while i >= 1:
        tree[base0 + i] = tree[base0 + 2 * i] + tree[base0 + 2 * i + 1]
        tree[base1 + i] = tree[base1 + 2 * i] + tree[base1 + 2 * i + 1]
        i >>= 1


@noalloc_jit
def draw(tree, base, size, r):
    """The slot whose cumulative range (in slot order) holds ``r`` in [0, total): the Gibbs draw given ``r`` uniform
    in [0, total).  Never a zero leaf: when rounding leaves ``r`` at or past a node's left part, the walk goes right
    unless the right part is empty, and left whenever the right part is empty (the total is > 0)."""
    i = 1
    while i < size:
        left = tree[base + 2 * i]
        if left > 0.0 and (r < left or tree[base + 2 * i + 1] <= 0.0):
            i = 2 * i
        else:
            r -= left
            i = 2 * i + 1
    return i - size
