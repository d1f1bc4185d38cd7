"""What a Gibbs draw's bookkeeping costs a playout ply: engine 2's sum tree against flat leaves with a vectorised
normaliser and a scan by blocks of 8 (the "engine 3" issue 25's notes considered), and the same sum tree walked
without a branch on the direction, all net of the random numbers.

Each ply changes ``updates`` random leaves of ``n`` (a slot's weight changing, as a placement and its neighbours'
codes do), then draws one slot for ``r`` uniform in [0, total).  ``rng only`` draws the same random numbers and
does nothing else, so each structure's own cost is its time less that one.  Medians of ``--rounds`` runs of
``--plies`` plies, one process.  Before timing, the branch-free walk is checked to pick the slot ``sumtree.draw``
picks on random trees (zeros among the leaves) at every cumulative boundary and its neighbouring floats.  The
weights are lognormal and never learned, so the draw's walk turns at random: in a search, PPA's learned weights make
many draws' turns predictable and the branching walk cheaper than here (the branch-free one, twice as fast here, was
6% slower in PPA's Yavalath searches: ``data/bench/gibbs_structure_probe_*.txt``).  From the repository's root, with
the package importable (``pip install -e .``, as ``scripts/test.sh`` sets up, or ``PYTHONPATH=.``):

    python scripts/gibbs_structure_probe.py
"""
import argparse

import numpy as np
from numba import njit

from ppalib._rng import make_rng, random_float, random_index
from ppalib.bench import median_time
from ppalib.kernels import sumtree


@njit
def _rng_only(base_leaves, plies, updates, rng):
    check = 0.0
    for _ in range(plies):
        for _ in range(updates):
            check += base_leaves[random_index(rng, base_leaves.size)] * random_float(rng)
        check += random_float(rng)
    return check


@njit
def _tree_of(leaves):
    """A sum tree over ``leaves`` in ``sumtree``'s layout (at base 0), and its number of leaf places."""
    size = sumtree.leaves_for(leaves.size)
    tree = np.zeros(2 * size)
    tree[size:size + leaves.size] = leaves
    sumtree.rebuild(tree, 0, size)
    return tree, size


@njit
def _sum_tree(base_leaves, plies, updates, rng, branch_free):
    """Engine 2's sum tree, drawn by ``sumtree.draw`` or, with ``branch_free``, by ``_branch_free_draw``."""
    n = base_leaves.size
    tree, size = _tree_of(base_leaves)
    check = 0.0
    for _ in range(plies):
        for _ in range(updates):
            slot = random_index(rng, n)
            sumtree.set_leaf(tree, 0, size, slot, base_leaves[slot] * random_float(rng))
        r = random_float(rng) * tree[1]
        check += _branch_free_draw(tree, size, r) if branch_free else sumtree.draw(tree, 0, size, r)
    return check


@njit
def _branch_free_draw(tree, size, r):
    """``sumtree.draw`` with the direction selected, not branched on: right exactly when ``r >= left`` and
    ``right > 0`` (the walk enters only nodes whose sum is > 0, so a zero ``left`` means a positive ``right``)."""
    i = 1
    while i < size:
        i = 2 * i
        left = tree[i]
        right = tree[i + 1]
        right_way = (r >= left) & (right > 0.0)
        r = r - left if right_way else r
        i += np.int64(right_way)
    return i - size


def _check_branch_free_draw(trees=3000):
    """The branch-free walk picks ``sumtree.draw``'s slot at every cumulative boundary, on random trees."""
    generator = np.random.default_rng(5)
    for _ in range(trees):
        n = int(generator.integers(1, 130))
        leaves = np.where(generator.random(n) < 0.4, 0.0, np.exp(3 * generator.normal(size=n)))
        if leaves.sum() == 0.0:
            continue
        tree, size = _tree_of(leaves)
        bounds = np.concatenate([[0.0], np.cumsum(leaves)])
        candidates = list(generator.random(20) * tree[1]) + [np.nextafter(tree[1], 0.0)]
        for bound in bounds[:-1]:
            candidates += [bound, np.nextafter(bound, -1.0), np.nextafter(bound, np.inf)]
        for r in candidates:
            if 0.0 <= r < tree[1]:
                assert _branch_free_draw(tree, size, r) == sumtree.draw(tree, 0, size, r), (n, r)


@njit(fastmath={"reassoc", "nsz", "arcp", "contract"})
def _total(leaves):
    """Reassociated, so that LLVM sums four lanes at a time."""
    total = 0.0
    for i in range(leaves.size):
        total += leaves[i]
    return total


@njit
def _flat_draw(leaves, r):
    """Skip whole blocks of 8 by their sums, then scan the block; never an empty leaf (where rounding leaves ``r``
    at or past the total, the last positive leaf)."""
    n = leaves.size
    i = 0
    while i + 8 <= n:
        block = 0.0
        for j in range(i, i + 8):
            block += leaves[j]
        if r < block:
            break
        r -= block
        i += 8
    for j in range(i, n):
        if leaves[j] > 0.0 and r < leaves[j]:
            return j
        r -= leaves[j]
    for j in range(n - 1, -1, -1):
        if leaves[j] > 0.0:
            return j
    return -1


@njit
def _flat(base_leaves, plies, updates, rng):
    n = base_leaves.size
    leaves = base_leaves.copy()
    check = 0.0
    for _ in range(plies):
        for _ in range(updates):
            slot = random_index(rng, n)
            leaves[slot] = base_leaves[slot] * random_float(rng)
        check += _flat_draw(leaves, random_float(rng) * _total(leaves))
    return check


def _ns_per_ply(kernel, n, updates, plies, rounds, *options):
    base_leaves = np.exp(np.random.default_rng(1).normal(size=n))
    return 1e9 * median_time(lambda: kernel(base_leaves, plies, updates, make_rng(1), *options), rounds) / plies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    _check_branch_free_draw()
    print("branch-free walk: the same slot as sumtree.draw at every cumulative boundary of 3,000 random trees")
    # (slots, leaves changed a ply): Yavalath PPA, Domineering 8x8 PPA, Hex 11x11 PPA and PPAF, Go 9x9,
    # Gomoku 15x15 PPA and PPAF
    for n, updates in [(62, 1), (64, 7), (122, 1), (122, 13), (81, 5), (225, 1), (225, 9)]:
        rng_only = _ns_per_ply(_rng_only, n, updates, args.plies, args.rounds)
        tree = _ns_per_ply(_sum_tree, n, updates, args.plies, args.rounds, False) - rng_only
        free = _ns_per_ply(_sum_tree, n, updates, args.plies, args.rounds, True) - rng_only
        flat = _ns_per_ply(_flat, n, updates, args.plies, args.rounds) - rng_only
        print(f"slots {n:3d}, {updates:2d} leaves a ply: rng only {rng_only:5.1f} ns; net of it, sum tree "
              f"{tree:5.1f} ns, branch-free walk {free:5.1f}, flat {flat:5.1f} (flat / tree {flat / tree:.2f})")


if __name__ == "__main__":
    main()
