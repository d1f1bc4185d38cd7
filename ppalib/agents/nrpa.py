"""NRPA on the single-player problems (Rosin 2011; Cazenave 2016)."""
from __future__ import annotations

import numpy as np

from .._rng import make_rng
from .._specialise import specialised
from .base import _check_number


def nrpa_search(spec: np.ndarray, module_name: str, level: int, iterations: int = 100, alpha: float = 1.0,
                rng: np.ndarray | None = None, root: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """NRPA (Rosin 2011; Cazenave 2016, Algorithms 1-2) on the single-player problem ``ppalib.games.<module_name>``.

    Returns (best score, best move sequence).  ``level`` >= 1; ``iterations`` per level (Rosin: 100).
    """
    from ..games._common import S_NUM_CODES
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
        raise ValueError(f"level={level!r} is out of range: allowed 1..6")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations={iterations!r} is out of range: allowed >= 1")
    alpha = _check_number("alpha", alpha, 0.0, True)
    module = specialised(module_name).nrpa
    rng = make_rng(0) if rng is None else rng
    root = module.game.init_state(spec) if root is None else root

    def nested(level, policy):
        if level == 1:
            score, sequence, _ = module.level_one(spec, root, policy, iterations, alpha, rng)
            return score, sequence
        policy = policy.copy()
        best_score, best = -np.inf, np.empty(0, dtype=np.int64)
        for _ in range(iterations):
            score, sequence = nested(level - 1, policy)
            if score >= best_score:
                best_score, best = score, sequence
            policy = module.adapt(spec, root, policy, best, len(best), alpha)
        return best_score, best

    return nested(level, np.zeros(int(spec[S_NUM_CODES]), dtype=np.float64))
