"""The sum trees of the incremental Gibbs engine (``ppalib.kernels.sumtree``): every inner node is exactly the
floating-point sum of its children after any sequence of updates, the paired update leaves both trees as two
single updates do, and a draw returns the slot whose cumulative range holds its argument, never an empty one."""
import numpy as np
from hypothesis import given, settings, strategies as st

from ppalib.kernels import sumtree

LEAF_VALUES = st.one_of(st.just(0.0), st.floats(1e-6, 1e6))
LEAVES = st.lists(LEAF_VALUES, min_size=1, max_size=70).filter(lambda v: sum(v) > 0)  # a tree with a total > 0
FRACTIONS = st.lists(st.floats(0.0, 1.0, exclude_max=True), min_size=1, max_size=20)  # of the total, for draws


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
@given(leaves=LEAVES, fractions=FRACTIONS)
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


def _draw_as_first_written(tree, size, r):
    """The draw as first written (every level tests ``left > 0`` and reads both children): ``sumtree.draw`` must
    pick the same slot for every ``r``, or stored engine-2 games would no longer replay."""
    i = 1
    while i < size:
        left = tree[2 * i]
        if left > 0.0 and (r < left or tree[2 * i + 1] <= 0.0):
            i = 2 * i
        else:
            r -= left
            i = 2 * i + 1
    return i - size


@settings(max_examples=80, deadline=None)
@given(leaves=LEAVES, fractions=FRACTIONS)
def test_draw_picks_the_slot_the_first_written_draw_picks_even_at_the_boundaries(leaves, fractions):
    size = sumtree.leaves_for(len(leaves))
    tree = _fresh(leaves, size)
    # the fractions asked, and every cumulative boundary with its neighbouring floats (where rounding decides)
    boundaries = np.concatenate([[0.0], np.cumsum(leaves)[:-1]])
    candidates = [fraction * tree[1] for fraction in fractions]
    for edge in boundaries:
        candidates += [edge, np.nextafter(edge, -np.inf), np.nextafter(edge, np.inf)]
    for r in candidates:
        if 0.0 <= r < tree[1]:
            assert sumtree.draw(tree, 0, size, r) == _draw_as_first_written(tree, size, r)


def test_draw_goes_left_when_rounding_puts_r_past_a_left_part_whose_sibling_is_empty():
    # found by search: the largest float below the total, less the first pair's sum, rounds up to the third leaf,
    # so the walk reaches (third leaf, empty leaf) with r equal to the left part
    leaves = [0.33773068664635775, 1.7173441022558662, 8.834303917601986, 0.0]
    tree = _fresh(leaves, 4)
    r = np.nextafter(tree[1], 0.0)
    assert (r - (leaves[0] + leaves[1])) >= leaves[2]  # the rounding case itself
    assert sumtree.draw(tree, 0, 4, r) == 2 == _draw_as_first_written(tree, 4, r)
