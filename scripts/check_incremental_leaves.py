"""A wider run of the test ``test_sum_tree_leaves_equal_the_listed_moves_weights_after_incremental_plies``
(``tests/test_incremental_playouts.py``), for a change to a game's ``dirty_slots``: after 1 to 3 x cells engine-2
Gibbs plies, sixteen runs per ply count, the mover's sum-tree leaves must equal ``weight[code]`` of exactly the
moves ``legal_moves`` lists, bit for bit, on boards and games the test leaves out (Nogo 5/7/9, Misere Nogo 7, Go
6/9/13, Atarigo 7 by default), with and without move context.  Prints the number of positions checked; an
assertion fails on the first difference.

    python scripts/check_incremental_leaves.py [game:size ...]
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ppalib._rng import make_rng  # noqa: E402
from ppalib.agents import kernels_for  # noqa: E402
from ppalib.games import make_game  # noqa: E402
from ppalib.games._common import H_WINNER, ONGOING  # noqa: E402
from test_incremental_playouts import _listed_leaves  # noqa: E402

DEFAULT_CASES = ["nogo:5", "nogo:7", "nogo:9", "misere_nogo:7", "go:6", "go:9", "go:13", "atarigo:7"]


def check(name: str, size: int) -> int:
    """Positions checked on one game and board, PPA and PPAF codes."""
    game = make_game(name, size)
    kernel = kernels_for(game).incremental
    slots = kernel.num_slots(game.spec)
    checked = 0
    for with_context in (False, True):
        weight = np.exp(np.random.default_rng(2).normal(0.0, 1.0, game.num_codes(with_context)))
        rng = make_rng(5, size)
        for plies in range(1, 3 * slots):
            for _ in range(16):
                counts = np.zeros(slots, dtype=np.int64)
                state, leaves = kernel.tree_after(game.spec, game.initial_state(), rng, weight, with_context, plies,
                                                  0, counts)
                if state[H_WINNER] != ONGOING:
                    continue
                np.testing.assert_array_equal(leaves, _listed_leaves(game, state, weight, with_context, slots),
                                              err_msg=f"{name} {size}x{size}, {plies} plies, context {with_context}")
                checked += 1
    return checked


if __name__ == "__main__":
    total = 0
    for case in sys.argv[1:] or DEFAULT_CASES:
        name, size = case.split(":")
        checked = check(name, int(size))
        print(f"{case}: {checked} positions agree")
        total += checked
    print(f"checked {total}")
