"""Perft: the number of positions exactly ``depth`` plies from a position (terminal positions before that
depth are not counted), the standard move-generator regression count.  A template specialised per game
module by ``ppalib._specialise`` (see there); call it through ``ppalib.agents.perft_count`` or
``python -m ppalib perft``.
"""
import numpy as np
from numba import njit

from ppalib.games._common import S_MAX_MOVES
from ppalib.games import contract as game  # <game-import>


@njit(cache=True)
def perft(spec, root, depth):
    """Leaf count of the game tree of ``root`` cut at ``depth`` plies (iterative depth-first walk)."""
    if depth == 0:
        return 1
    states = np.empty((depth + 1, root.size), dtype=np.int64)
    moves = np.empty((depth, spec[S_MAX_MOVES]), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    states[0, :] = root
    nmoves[0] = game.legal_moves(spec, states[0], moves[0])
    total = 0
    d = 0
    while d >= 0:
        if d == depth - 1:
            total += nmoves[d]
            d -= 1
            continue
        if index[d] >= nmoves[d]:
            d -= 1
            continue
        states[d + 1, :] = states[d]
        game.play(spec, states[d + 1], moves[d, index[d]])
        index[d] += 1
        d += 1
        nmoves[d] = game.legal_moves(spec, states[d], moves[d])
        index[d] = 0
    return total
