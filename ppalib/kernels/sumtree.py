"""Sum trees over move slots for Gibbs draws in O(log n) (the incremental playout engine, issue 25).

A tree of ``size`` leaves (a power of two) is the slice ``tree[base:base + 2 * size]``: leaf ``slot`` at
``base + size + slot``, node ``i`` (1 the root) the sum of nodes ``2i`` and ``2i + 1``.  Every update recomputes the
nodes above the leaf from their two children rather than adding a difference, so each node is always exactly the
floating-point sum of its children's current values, the same as a fresh build: no drift accumulates however long the
playout (the totals differ from a left-to-right sum of the same weights by rounding only, relative n * 2**-53).
Game-free.
"""
import numpy as np

from ppalib._noalloc import inline_jit, noalloc_jit, nowrap


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


@inline_jit
def _goes_right(r, left, right):
    """The walk's turn at a node whose children hold ``left`` and ``right``: right exactly when ``r >= left`` and
    the right part is not empty (or the left one is), a bool computed without a branch."""
    return (r >= left) & ((left <= 0.0) | (right > 0.0))


@inline_jit
def _two_levels_below(tree, base, i):
    """Node ``i``'s two children and four grandchildren: (left, right) then the left child's two and the right's."""
    c = base + 2 * i
    g = base + 4 * i
    return (tree[nowrap(c)], tree[nowrap(c + 1)], tree[nowrap(g)], tree[nowrap(g + 1)], tree[nowrap(g + 2)],
            tree[nowrap(g + 3)])


@noalloc_jit
def draw(tree, base, size, r):
    """The slot whose cumulative range (in slot order) holds ``r`` in [0, total): the Gibbs draw given ``r`` uniform
    in [0, total).  Never a zero leaf: when rounding leaves ``r`` at or past a node's left part, the walk goes right
    unless the right part is empty, and left whenever the right part is empty (the total is > 0).

    At each node the walk goes right exactly when ``r >= left`` and (``left <= 0`` or ``right > 0``), taking
    ``left`` off ``r`` (``_goes_right``).  It takes three levels a step, without branches: the node's 2 children, 4
    grandchildren and 8 great-grandchildren are loaded at once; the second turn is computed for both first turns
    and the third for all four paths (each from ``r`` less that path's left parts, subtracted in the walk's order),
    then the first turn picks a second and the two pick a third; the index follows from the three turns.  A depth
    that is not a multiple of three ends with a step of two levels or one.  The loads of a step do not wait on its
    decisions, and no turn is predicted: in a search the learned weights leave many turns to chance, and a
    mispredicted turn cost more than the step.  Each turn reads the same ``r`` and the same two sums as a walk of
    one level at a time, so the slot is the same bit for bit (tests/test_sumtree.py); three levels a step against
    two: Hex 11x11's walk of 7 levels takes 3 dependent steps instead of 4, an 8x8 board's 2 instead of 3."""
    i = 1
    span = size
    while span >= 8:
        left, right, a, b, c2, d = _two_levels_below(tree, base, i)
        e = base + 8 * i
        e0 = tree[nowrap(e)]
        e1 = tree[nowrap(e + 1)]
        e2 = tree[nowrap(e + 2)]
        e3 = tree[nowrap(e + 3)]
        e4 = tree[nowrap(e + 4)]
        e5 = tree[nowrap(e + 5)]
        e6 = tree[nowrap(e + 6)]
        e7 = tree[nowrap(e + 7)]
        first = _goes_right(r, left, right)
        past = r - left
        to_b = _goes_right(r, a, b)  # the second turn if the first goes left
        to_d = _goes_right(past, c2, d)  # if it goes right
        r_b = r - a  # r on each of the four paths after two turns: left-left is r, right-left is past
        r_d = past - c2
        to_e1 = _goes_right(r, e0, e1)  # the third turn on each path
        to_e3 = _goes_right(r_b, e2, e3)
        to_e5 = _goes_right(past, e4, e5)
        to_e7 = _goes_right(r_d, e6, e7)
        if first:
            second = to_d
            third = to_e7 if to_d else to_e5
            r = (r_d - e6 if to_e7 else r_d) if to_d else (past - e4 if to_e5 else past)
        else:
            second = to_b
            third = to_e3 if to_b else to_e1
            r = (r_b - e2 if to_e3 else r_b) if to_b else (r - e0 if to_e1 else r)
        i = 8 * i + 4 * np.int64(first) + 2 * np.int64(second) + np.int64(third)
        span >>= 3
    if span == 4:
        left, right, a, b, c2, d = _two_levels_below(tree, base, i)
        first = _goes_right(r, left, right)
        to_b = _goes_right(r, a, b)
        to_d = _goes_right(r - left, c2, d)
        second = to_d if first else to_b
        i = 4 * i + 2 * np.int64(first) + np.int64(second)
    elif span == 2:
        left = tree[nowrap(base + 2 * i)]
        right = tree[nowrap(base + 2 * i + 1)]
        i = 2 * i + np.int64(_goes_right(r, left, right))
    return i - size


# ``draw``, ``set_leaf`` and ``set_leaf_pair`` inlined into the masked playout's loop (``incremental.masked_playout``):
# there the zeroing walks as calls cost 3.5% more (median of six interleaved pairs, Domineering 8x8 PPA).
draw_inlined = inline_jit(draw.py_func)
set_leaf_inlined = inline_jit(set_leaf.py_func)
set_leaf_pair_inlined = inline_jit(set_leaf_pair.py_func)
