"""How many proposals a rejection-sampled Gibbs draw would need on weights learned by flat PPA / PPAF (issue 25).

A rejection draw proposes a legal move uniformly and keeps it with probability ``w / w_max``: it needs
``max(w) / mean(w)`` proposals on average over the legal moves.  Here PPA (then PPAF) learns from the start
position alone (engine 2's ``playout_then_adapt``, one Gibbs playout and Alg. 4's adapt at a time, policy from
zero), and at 100, 1,000 and the last playout the ratio is read at positions 0-58 plies into Gibbs playouts on the
learned weights.  ``scripts/rejection_acceptance.py`` does the same after real searches.

    python scripts/rejection_proposals_flat.py domineering 8 0.32 3000
"""
import sys

import numpy as np

from ppalib._rng import make_rng
from ppalib.agents import kernels_for
from ppalib.games import make_game
from ppalib.games._common import H_WINNER, ONGOING, S_MAX_PLIES
name, size, alpha, iters = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
game = make_game(name, size)
kernel = kernels_for(game).incremental
slots = kernel.num_slots(game.spec)
for with_context in (False, True):
    policy = np.zeros(game.num_codes(with_context))
    weights = np.ones(policy.size)  # exp(policy), kept by the adapt
    rng = make_rng(5)
    moves = np.empty(game.spec[S_MAX_PLIES] + 1, dtype=np.int64)
    empty = np.empty(0, dtype=np.int64)
    checkpoints = {100, 1000, iters}
    for it in range(1, iters + 1):
        kernel.playout_then_adapt(game.spec, game.initial_state(), rng, policy, weights, alpha, with_context, empty,
                                  moves)
        if it in checkpoints:
            ratios = []
            for plies in range(0, 60, 2):
                for _ in range(5):
                    state, leaves = kernel.tree_after(game.spec, game.initial_state(), rng, weights, with_context,
                                                      plies, 0, np.zeros(slots, dtype=np.int64))
                    legal = leaves[leaves > 0]
                    if state[H_WINNER] == ONGOING and legal.size:
                        ratios.append(legal.max() / legal.mean())
            ratios = np.array(ratios)
            print(f"{name}{size} ctx={with_context} iter={it}: policy range [{policy.min():.2f},{policy.max():.2f}]  "
                  f"max/mean over legal: median {np.median(ratios):.2f} mean {ratios.mean():.2f} "
                  f"p90 {np.percentile(ratios, 90):.2f} max {ratios.max():.2f}", flush=True)
