"""The sum trees of the incremental Gibbs engine (``ppalib.kernels.sumtree``): every inner node is exactly the
floating-point sum of its children after any sequence of updates, the paired update leaves both trees as two
single updates do, and a draw returns the slot whose cumulative range holds its argument, never an empty one."""
import numpy as np
from hypothesis import given, settings, strategies as st

from ppalib.kernels import sumtree

LEAF_VALUES = st.one_of(st.just(0.0), st.floats(1e-6, 1e6))


def _fresh(leaves, size):
    tree = np.zeros(2 * size)
    tree[size:size + len(leaves)] = leaves
    sumtree.rebuild(tree, 0, size)
    return tree


@settings(max_examples=60, deadline=None)
@given(slots=st.integers(1, 70), updates=st.lists(st.tuples(st.integers(0, 69), LEAF_VALUES, LEAF_VALUES),
                                                  min_size=1, max_size=40))
def test_paired_update_equals_two_single_updates_and_a_fresh_build(slots, updates):
    size = sumtree.leaves_for(slots)
    # two trees side by side in one array, as the engine keeps the two players' trees
    paired = np.zeros(4 * size)
    single = np.zeros(4 * size)
    leaves = np.zeros((2, size))
    for slot, value0, value1 in updates:
        slot %= slots
        sumtree.set_leaf_pair(paired, 0, 2 * size, size, slot, value0, value1)
        sumtree.set_leaf(single, 0, size, slot, value0)
        sumtree.set_leaf(single, 2 * size, size, slot, value1)
        leaves[0, slot], leaves[1, slot] = value0, value1
    assert np.array_equal(paired, single)  # bit for bit
    for player in range(2):
        tree = paired[2 * player * size:2 * (player + 1) * size]
        assert np.array_equal(tree[1:], _fresh(leaves[player], size)[1:])  # no drift from the updates' order


@settings(max_examples=60, deadline=None)
@given(leaves=st.lists(LEAF_VALUES, min_size=1, max_size=70).filter(lambda v: sum(v) > 0),
       fractions=st.lists(st.floats(0.0, 1.0, exclude_max=True), min_size=1, max_size=20))
def test_draw_returns_the_slot_whose_cumulative_range_holds_r_and_never_an_empty_slot(leaves, fractions):
    size = sumtree.leaves_for(len(leaves))
    tree = _fresh(leaves, size)
    for fraction in fractions:
        r = fraction * tree[1]
        slot = sumtree.draw(tree, 0, size, r)
        assert 0 <= slot < len(leaves)
        assert leaves[slot] > 0.0
    # away from rounding, the slot is the one whose range [cumulative before, cumulative after) holds r
    cumulative = np.cumsum(leaves)
    for slot in np.flatnonzero(np.asarray(leaves) > 1e-3 * max(leaves)):
        middle = cumulative[slot] - leaves[slot] / 2
        assert sumtree.draw(tree, 0, size, middle) == slot
