"""Sum trees over move slots for Gibbs draws in O(log n) (the incremental playout engine, issue 25).

A tree of ``size`` leaves (a power of two) is the slice ``tree[base:base + 2 * size]``: leaf ``slot`` at
``base + size + slot``, node ``i`` (1 the root) the sum of nodes ``2i`` and ``2i + 1``.  Every update recomputes the
nodes above the leaf from their two children rather than adding a difference, so each node is always exactly the
floating-point sum of its children's current values, the same as a fresh build: no drift accumulates however long the
playout (the totals differ from a left-to-right sum of the same weights by rounding only, relative n * 2**-53).
Game-free.
"""
from ppalib._noalloc import noalloc_jit, nowrap


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
        tree[nowrap(base + i)] = tree[nowrap(base + 2 * i)] + tree[nowrap(base + 2 * i + 1)]


@noalloc_jit
def set_leaf(tree, base, size, slot, value):
    """Leaf ``slot`` to ``value``, and the sums above it recomputed from their children.

    The child just computed is carried up in a register, so each level loads only its sibling: the loads of a walk
    do not wait on its stores (sibling addresses follow from the slot alone).  The same sums bit for bit: IEEE
    addition is commutative, so ``child + sibling`` is ``tree[2i] + tree[2i + 1]`` whichever side the child is."""
    i = size + slot
    tree[nowrap(base + i)] = value
    while i > 1:
        value = value + tree[nowrap(base + (i ^ 1))]
        i >>= 1
        tree[nowrap(base + i)] = value


@noalloc_jit
def set_leaf_pair(tree, base0, base1, size, slot, value0, value1):
    """``set_leaf`` on two trees of the same size at once (the same slot): the two walks up are independent, so
    interleaving them lets the CPU overlap their loads and adds.  Each tree ends as ``set_leaf`` leaves it."""
    i = size + slot
    tree[nowrap(base0 + i)] = value0
    tree[nowrap(base1 + i)] = value1
    while i > 1:
        value0 = value0 + tree[nowrap(base0 + (i ^ 1))]
        value1 = value1 + tree[nowrap(base1 + (i ^ 1))]
        i >>= 1
        tree[nowrap(base0 + i)] = value0
        tree[nowrap(base1 + i)] = value1


@noalloc_jit
def draw(tree, base, size, r):
    """The slot whose cumulative range (in slot order) holds ``r`` in [0, total): the Gibbs draw given ``r`` uniform
    in [0, total).  Never a zero leaf: when rounding leaves ``r`` at or past a node's left part, the walk goes right
    unless the right part is empty, and left whenever the right part is empty (the total is > 0).

    ``r`` stays >= 0 (it starts so, and loses a left part only when at least as large), so ``r < left`` already
    means ``left > 0``: the common step reads one child and tests once; the right child is read only when the walk
    would go right (the same slots as testing ``left > 0`` first)."""
    i = 1
    while i < size:
        i = 2 * i
        left = tree[nowrap(base + i)]
        if r < left:
            continue
        if left > 0.0 and tree[nowrap(base + i + 1)] <= 0.0:
            continue  # rounding put r past a left part whose right sibling is empty
        r -= left
        i += 1
    return i - size
