"""The one result shape of a search, whatever the agent kind."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class SearchResult:
    """One search, the same shape for every kind.

    move: the move to play (the most visited root move, the first in list order on ties).
    moves, visits: the root's legal moves in list order and their playouts (float64).
    iterations: iterations run in this search (with a time budget: how many the time allowed).
    seconds: wall-clock time of the search.
    policy: the playout policy learned in this search, one value per move code (PPA, MAST), else empty.
    rave_used: [RAVE-using descents or selections, all of them] (RAVE: descents when adaptive at the root,
    selections at a fixed rate or adaptive per node), else zeros.
    values: each root move's mean result for the player to move (wins / playouts; a win 1, a draw 0.5, a loss 0),
        NaN for a move without playouts; all NaN for the greedy agent, which does not search.
    plies: the plies all iterations played from the searched position to where each ended (the tree's descent and
        the playout); ``plies / iterations`` is the mean length of an iteration's game, by which a playout move's
        cost is judged (``python -m ppalib bench --engines``); 0 for the greedy agent.
    """
    move: int
    moves: np.ndarray
    visits: np.ndarray
    iterations: int
    seconds: float
    policy: np.ndarray = field(default_factory=lambda: np.zeros(0))
    rave_used: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))
    plies: int = 0
