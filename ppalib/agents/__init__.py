"""Agents: validated configurations and the search call, generic over games.

=========  =================================================  ===================================
kind       playouts                                            parameters
=========  =================================================  ===================================
``uct``    uniform random (seed 000 Algorithm 7)               ``c``
``ppa``    Gibbs on exp(policy), PPA adapt (Algorithm 4)       ``c``, ``alpha``
``ppaf``   as ppa, with feature move codes (seed 000 sec. 3)   ``c``, ``alpha``
``mast``   Gibbs on exp(k * mean), MAST adapt (Algorithm 5)    ``c``, ``k``
``mastf``  as mast, with feature move codes                    ``c``, ``k``
``rave``   uniform; UCT + RAVE, by rate or adaptive (seed 001)  ``c``, ``k_rave``, ``rave_rate``,
                                                               ``adaptive``, ``margin``
=========  =================================================  ===================================

The first five share the kernel in ``mcts.py``, RAVE has ``rave.py``.  ``c`` defaults to 0.4 and ``alpha`` to
1.0 (seed 004); ``k`` for MAST has no default in the papers (it is swept), we use 1.0.  RAVE: ``k_rave`` 700
(seed 001's choice after Figure 2), ``rave_rate`` 1 (RAVE at every choice), ``adaptive`` off, ``margin`` 0
(in reward units: results are 0, 0.5, 1).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .._jit import kernel
from ..games import Game
from ..games._common import S_NUM_CODES

AGENT_KINDS = ("uct", "ppa", "ppaf", "mast", "mastf", "rave")
_PLAYOUT_KIND = {"uct": 0, "ppa": 1, "ppaf": 1, "mast": 2, "mastf": 2, "rave": 0}
_USES = {"uct": (), "ppa": ("alpha",), "ppaf": ("alpha",), "mast": ("k",), "mastf": ("k",),
         "rave": ("k_rave", "rave_rate", "adaptive", "margin")}
_RAVE_DEFAULTS = {"k_rave": 700.0, "rave_rate": 1.0, "adaptive": False, "margin": 0.0}
MAX_PLAYOUTS = 10_000_000


def _check_number(name: str, value, low: float, allow_equal_low: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or math.isinf(value) or value < low or (value == low and not allow_equal_low):
        bound = f">= {low}" if allow_equal_low else f"> {low}"
        raise ValueError(f"{name}={value} is out of range: allowed finite values {bound}")
    return value


@dataclass(frozen=True)
class AgentConfig:
    """One agent: its kind and parameters.  Immutable; use ``make_agent`` to build a validated one.

    playouts: iterations per move searched (>= 1).  c: UCT exploration constant (>= 0).
    alpha: PPA/PPAF learning rate (>= 0).  k: MAST/MASTF Gibbs factor (>= 0).
    Parameters the kind does not use are stored at their defaults, so equal agents compare equal.
    """
    kind: str
    playouts: int
    c: float = 0.4
    alpha: float = 1.0
    k: float = 1.0
    k_rave: float = 700.0
    rave_rate: float = 1.0
    adaptive: bool = False
    margin: float = 0.0

    def __post_init__(self):
        if self.kind not in AGENT_KINDS:
            raise ValueError(f"agent kind={self.kind!r} is unknown; known kinds: {', '.join(AGENT_KINDS)}")
        if isinstance(self.playouts, bool) or not isinstance(self.playouts, (int, np.integer)):
            raise TypeError(f"playouts must be an integer, got {self.playouts!r}")
        if not 1 <= self.playouts <= MAX_PLAYOUTS:
            raise ValueError(f"playouts={self.playouts} is out of range: allowed 1..{MAX_PLAYOUTS}")
        object.__setattr__(self, "playouts", int(self.playouts))
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "alpha", _check_number("alpha", self.alpha, 0.0, True))
        object.__setattr__(self, "k", _check_number("k", self.k, 0.0, True))
        if "alpha" not in _USES[self.kind] and self.alpha != 1.0:
            raise ValueError(f"alpha={self.alpha} is not a parameter of {self.kind} (only of ppa, ppaf)")
        if "k" not in _USES[self.kind] and self.k != 1.0:
            raise ValueError(f"k={self.k} is not a parameter of {self.kind} (only of mast, mastf; PPA uses k = 1)")
        object.__setattr__(self, "k_rave", _check_number("k_rave", self.k_rave, 0.0, True))
        object.__setattr__(self, "margin", _check_number("margin", self.margin, 0.0, True))
        rate = _check_number("rave_rate", self.rave_rate, 0.0, True)
        if rate > 1.0:
            raise ValueError(f"rave_rate={rate} is out of range: allowed 0..1")
        object.__setattr__(self, "rave_rate", rate)
        if not isinstance(self.adaptive, (bool, np.bool_)):
            raise TypeError(f"adaptive must be True or False, got {self.adaptive!r}")
        object.__setattr__(self, "adaptive", bool(self.adaptive))
        if self.kind != "rave":
            for name, default in _RAVE_DEFAULTS.items():
                if getattr(self, name) != default:
                    raise ValueError(f"{name}={getattr(self, name)} is not a parameter of {self.kind} (only of rave)")

    @property
    def features(self) -> bool:
        return self.kind.endswith("f")

    @property
    def label(self) -> str:
        """Short name as in the papers' tables, e.g. ``PPAF(0.32)``, ``MAST(8)``, ``UCT``."""
        if self.kind in ("ppa", "ppaf"):
            return f"{self.kind.upper()}({self.alpha:g})"
        if self.kind in ("mast", "mastf"):
            return f"{self.kind.upper()}({self.k:g})"
        if self.kind == "rave":
            if self.adaptive:
                return f"ARAVE(k={self.k_rave:g}, margin={self.margin:g})"
            return f"RAVE(k={self.k_rave:g}, rate={self.rave_rate:g})"
        return "UCT"

    def as_dict(self) -> dict:
        """All parameters; RAVE's only for RAVE agents, so other agents keep the identifiers they always had."""
        params = asdict(self)
        if self.kind != "rave":
            for name in _RAVE_DEFAULTS:
                del params[name]
        return params


def make_agent(kind: str, playouts: int, **params) -> AgentConfig:
    """Validated agent; unknown parameter names are an error naming them."""
    allowed = {"c", "alpha", "k", *_RAVE_DEFAULTS}
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"unknown agent parameter(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    return AgentConfig(kind=kind, playouts=playouts, **params)


def _module_name(game: Game) -> str:
    return game.module.__name__.rsplit(".", 1)[1]


def mcts_kernel(game: Game):
    """The compiled MCTS kernel module specialised to ``game``'s module."""
    return kernel("agents.mcts", _module_name(game))


def search(game: Game, state: np.ndarray, agent: AgentConfig, rng: np.ndarray, *,
           return_details: bool = False):
    """The move ``agent`` plays in ``state``; with ``return_details``, also the legal moves, their root playouts
    and the final policy (RAVE: the counts of RAVE-using choices and of all choices).

    ``rng`` is a uint64[4] generator state (``ppalib._rng.make_rng``) advanced in place.
    """
    if rng.dtype != np.uint64 or rng.shape != (4,):
        raise ValueError("rng must be a uint64[4] state from ppalib._rng.make_rng")
    legal = game.legal_moves(state)
    if legal.size == 0:
        raise ValueError("search needs a position where the game is not over")
    visits = np.zeros(game.max_moves, dtype=np.float64)
    if agent.kind == "rave":
        used = np.zeros(2, dtype=np.int64)
        move = kernel("agents.rave", _module_name(game)).search(
            game.spec, state, rng, agent.playouts, agent.c, agent.k_rave, agent.rave_rate, agent.adaptive,
            agent.margin, visits, used)
        if return_details:
            return int(move), legal, visits[: legal.size].copy(), used
        return int(move)
    module = mcts_kernel(game)
    policy = np.zeros(game.num_codes(agent.features) if return_details else 0, dtype=np.float64)
    move = module.search(game.spec, state, rng, agent.playouts, agent.c, _PLAYOUT_KIND[agent.kind],
                         agent.alpha, agent.k, agent.features, visits, policy)
    if return_details:
        return int(move), legal, visits[: legal.size].copy(), policy
    return int(move)


def nrpa_search(spec: np.ndarray, module_name: str, level: int, iterations: int = 100, alpha: float = 1.0,
                rng: np.ndarray | None = None, root: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """NRPA (seed 000, Algorithms 1-2) on the single-player problem ``ppalib.games.<module_name>``.

    Returns (best score, best move sequence).  ``level`` >= 1; ``iterations`` per level (Rosin: 100).
    """
    from .._rng import make_rng
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
        raise ValueError(f"level={level!r} is out of range: allowed 1..6")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations={iterations!r} is out of range: allowed >= 1")
    alpha = _check_number("alpha", alpha, 0.0, True)
    module = kernel("agents.nrpa", module_name)
    rng = make_rng(0) if rng is None else rng
    game_module = module.game
    root = game_module.init_state(spec) if root is None else root

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


__all__ = ["AGENT_KINDS", "AgentConfig", "make_agent", "search", "mcts_kernel", "nrpa_search"]
