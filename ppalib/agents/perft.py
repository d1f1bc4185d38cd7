"""Perft: the positions a given number of plies away, counted by the game's compiled kernels."""
from __future__ import annotations

import numpy as np

from ..games import Game
from .searcher import kernels_for


def perft_count(game: Game, depth: int, state: np.ndarray | None = None) -> int:
    """Number of positions exactly ``depth`` plies from ``state`` (default: the start position)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"depth={depth!r} must be an integer >= 0")
    root = game.initial_state() if state is None else np.ascontiguousarray(state, dtype=np.int64)
    return int(kernels_for(game).perft.perft(game.spec, root, int(depth)))
