"""Agents: one small frozen config per agent kind, and the search front that runs the one compiled loop.

=========  ============================================================  =========================================
kind       what it is                                                    parameters (besides the common ones)
=========  ============================================================  =========================================
``uct``    UCT, uniform playouts (Cazenave 2015, Alg. 7)                 ``c``
``ppa``    Gibbs playouts on exp(policy), PPA adapt (Cazenave 2015,      ``c``, ``alpha``, and the options of
           Alg. 3-4)                                                     learned playouts (below)
``ppaf``   PPA on move codes with context (Cazenave 2016, section 3)     as ``ppa``
``mast``   Gibbs playouts on exp(k * mean), MAST (Cazenave 2016, Alg. 5)  ``c``, ``k``, and the options of
                                                                         learned playouts
``mastf``  MAST on move codes with context (Cazenave 2016)               as ``mast``
``rave``   UCT + RAVE, by rate or adaptive (Mehat & Vittaut 2013)        ``c``, ``k_rave``, ``rave_rate``,
                                                                         ``adaptive``, ``margin``,
                                                                         ``margin_both_sides``,
                                                                         ``adaptive_per_node``, ``node_playouts``
``grave``  GRAVE in the tree, uniform playouts (Cazenave, IJCAI 2015)    ``ref``, ``bias``
``puct``   PUCT with priors, first playout move from the prior           ``c``, ``prior_first_playout_move``,
           (Soemers, Piette & Browne 2019, section III); priors from a   ``policy``, ``biased_playouts``
           saved feature policy (``policy``, a content hash)
``greedy`` the move of largest p(s, a) of a feature policy, no search     ``policy``
           (Soemers, Piette & Browne 2019, Fig. 6)
=========  ============================================================  =========================================

Common parameters: ``playouts`` (iterations per move), ``seconds_per_move`` (a thinking-time budget: the search
stops when the time is spent or ``playouts`` iterations are done; ``None``, the default, keeps iteration budgets,
which are deterministic), ``tree_reuse`` (keep the statistics of the position reached between the moves of a game;
off by default: the 2015 and 2016 papers empty the table every search).

Options of learned playouts (PPA, PPAF, MAST, MASTF; the future work of Cazenave 2016): ``grave`` (the tree
selects by GRAVE instead of UCB1, with ``grave_ref`` and ``grave_bias``; ``c`` is then unused, GRAVE has no
exploration term) and ``keep_policy`` (the learned playout policy is kept from one move of a game to the next
instead of starting at zero every search, as the papers do).

Defaults: ``c`` 0.4 and ``alpha`` 1.0 (Cazenave 2015); ``k`` for MAST has no default in the papers (it is swept),
we use 1.0, and ``k = 0`` (like PPA's ``alpha = 0``) is accepted on purpose: uniform Gibbs playouts, the control
point of a ``k`` sweep; RAVE: ``k_rave`` 700 (Mehat & Vittaut's choice after their Figure 2), ``rave_rate`` 1, ``adaptive``
off, ``margin`` 0 (in reward units: results are 0, 0.5, 1); PUCT: ``c`` = sqrt(2) (Soemers et al. 2019).  GRAVE:
``ref`` 50 and ``bias`` 1e-5, the values of Cazenave's reference code for GRAVE (a node's own AMAF statistics are
used once it has more than 50 playouts); per-node adaptive RAVE: ``node_playouts`` 50, the same threshold for the
same question (from how many playouts a node's own statistics are trusted).

Every new parameter appears in ``as_dict`` (hence in condition ids) only when set, so every agent of the committed
results keeps its id.
"""
from __future__ import annotations

import math
import time
import typing
from dataclasses import asdict, dataclass, field, fields
from typing import ClassVar

import numpy as np

from .._rng import make_rng
from .._specialise import specialised
from ..games import Game
from ..kernels.learning import LEARN_MAST, LEARN_NONE, LEARN_PPA, new_learner
from ..kernels.selection import SELECT_GRAVE, SELECT_PUCT, SELECT_UCB1, SELECT_UCB1_LUDII, SELECT_UCB1_RAVE
from ..kernels.settings import (PLAYOUT_ENGINE_INCREMENTAL, PLAYOUT_ENGINE_LISTS, PLAYOUT_FEATURES, PLAYOUT_GIBBS,
                               PLAYOUT_PRIOR_FIRST, PLAYOUT_UNIFORM, SearchSettings, search_settings)
from ..kernels.tree import initial_sizes, new_tree, reserve

MAX_PLAYOUTS = 10_000_000
#: GRAVE's parameters in Cazenave's reference code: the AMAF statistics of the closest node with more than 50
#: playouts, beta = pa / (pa + p + 1e-5 pa p).
GRAVE_REF = 50.0
GRAVE_BIAS = 1e-5
#: Per-node adaptive RAVE: a node decides from its own statistics once it has more than this many playouts.
NODE_PLAYOUTS = 50.0
# Iterations a time-budgeted search runs between two looks at the clock (then adapted to about 10 ms).
_FIRST_CHUNK = 16


def _check_number(name: str, value, low: float, allow_equal_low: bool, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or math.isinf(value) or value < low or (value == low and not allow_equal_low) \
            or value > high:
        bound = f">= {low}" if allow_equal_low else f"> {low}"
        if high < math.inf:
            bound += f" and <= {high}"
        raise ValueError(f"{name}={value} is out of range: allowed finite values {bound}")
    return value


def check_playouts(playouts) -> int:
    """``playouts`` (iterations a move) as an int in 1..MAX_PLAYOUTS, or an error naming it."""
    if isinstance(playouts, bool) or not isinstance(playouts, (int, np.integer)):
        raise TypeError(f"playouts must be an integer, got {playouts!r}")
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise ValueError(f"playouts={playouts} is out of range: allowed 1..{MAX_PLAYOUTS}")
    return int(playouts)


def _check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


@dataclass(frozen=True)
class AgentConfig:
    """What every agent has; subclasses add their kind's parameters.  Immutable and validated on creation;
    build one with ``make_agent``.  Equal agents compare equal and have equal ``as_dict()``."""
    playouts: int
    seconds_per_move: float | None = None
    tree_reuse: bool = False
    kind: ClassVar[str] = ""
    # Parameters every agent of the first three papers carried (and so hashed into the committed condition ids)
    # at these values even when unused; ``as_dict`` writes them so that those ids never change.
    _LEGACY_FIELDS: ClassVar[dict] = {"alpha": 1.0, "k": 1.0}

    def __post_init__(self):
        object.__setattr__(self, "playouts", check_playouts(self.playouts))
        if self.seconds_per_move is not None:
            object.__setattr__(self, "seconds_per_move",
                               _check_number("seconds_per_move", self.seconds_per_move, 0.0, False, 86_400.0))
        object.__setattr__(self, "tree_reuse", _check_bool("tree_reuse", self.tree_reuse))
        self.validate()

    def validate(self) -> None:
        """Check and normalise the kind's own parameters (subclasses)."""

    def search_settings(self) -> SearchSettings:
        raise NotImplementedError  # every registered kind defines it

    @property
    def with_context(self) -> bool:
        """Whether PPA/MAST learn on move codes with context (PPAF, MASTF)."""
        return False

    @property
    def label(self) -> str:
        return self.kind.upper()

    def as_dict(self) -> dict:
        """Every parameter, with the kind: what identifies the agent in a condition id.  New common parameters
        appear only when set, so the agents of the committed results keep their ids."""
        params = {"kind": self.kind, **self._LEGACY_FIELDS, **asdict(self)}
        if params["seconds_per_move"] is None:
            del params["seconds_per_move"]
        if not params["tree_reuse"]:
            del params["tree_reuse"]
        return params


@dataclass(frozen=True)
class UCT(AgentConfig):
    """UCT with uniform playouts, as written in Cazenave 2015, Algorithm 7 (unvisited moves first, in list order).
    ``ludii_selection``: UCB1 as Ludii's UCT baseline of Soemers et al. 2019 instead (values in [-1, 1], an
    unvisited move valued at its entry's mean, random tie-break; ``ppalib.kernels.selection.ucb1_ludii``)."""
    c: float = 0.4
    ludii_selection: bool = False
    kind: ClassVar[str] = "uct"

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "ludii_selection", _check_bool("ludii_selection", self.ludii_selection))

    def search_settings(self):
        rule = SELECT_UCB1_LUDII if self.ludii_selection else SELECT_UCB1
        return search_settings(rule, PLAYOUT_UNIFORM, LEARN_NONE, c=self.c)

    def as_dict(self):
        params = super().as_dict()
        if not params["ludii_selection"]:  # only when set: the committed UCT conditions keep their ids
            del params["ludii_selection"]
        return params

    @property
    def label(self):
        return "UCT(Ludii)" if self.ludii_selection else "UCT"


class _LearnedPlayouts:
    """The options every agent with learned playouts (PPA, PPAF, MAST, MASTF) shares: ``grave`` (GRAVE selects in
    the tree, ``grave_ref``, ``grave_bias``), ``keep_policy`` (the policy is kept between the moves of a game) and
    ``playout_engine`` (1: each ply lists its moves, as every committed game was played; 2: the incremental sum-tree
    draw of ``ppalib.kernels.incremental``, the same distribution but not the same games move for move).
    Fields are declared by each dataclass; these are the checks, settings and labels they share."""

    def _validate_options(self):
        object.__setattr__(self, "grave", _check_bool("grave", self.grave))
        object.__setattr__(self, "grave_ref", _check_number("grave_ref", self.grave_ref, 0.0, True))
        object.__setattr__(self, "grave_bias", _check_number("grave_bias", self.grave_bias, 0.0, True))
        object.__setattr__(self, "keep_policy", _check_bool("keep_policy", self.keep_policy))
        if isinstance(self.playout_engine, bool) or self.playout_engine not in (PLAYOUT_ENGINE_LISTS,
                                                                                PLAYOUT_ENGINE_INCREMENTAL):
            raise ValueError(f"playout_engine={self.playout_engine!r} must be {PLAYOUT_ENGINE_LISTS} (each ply's "
                             f"move list) or {PLAYOUT_ENGINE_INCREMENTAL} (the incremental sum-tree draw)")
        object.__setattr__(self, "playout_engine", int(self.playout_engine))
        if not self.grave:
            for name, default in (("grave_ref", GRAVE_REF), ("grave_bias", GRAVE_BIAS)):
                if getattr(self, name) != default:
                    raise ValueError(f"{name}={getattr(self, name):g} is a parameter of GRAVE, which this agent does "
                                     f"not use: give grave=True too, or leave {name} at its default {default:g}")

    def _selection(self) -> dict:
        if self.grave:
            return dict(selection=SELECT_GRAVE, grave_ref=self.grave_ref, grave_bias=self.grave_bias)
        return dict(selection=SELECT_UCB1)

    def _options_as_dict(self, params: dict) -> dict:
        """``params`` without the options left at their defaults (the committed agents' ids do not have them)."""
        if not params["grave"]:
            for name in ("grave", "grave_ref", "grave_bias"):
                del params[name]
        if not params["keep_policy"]:
            del params["keep_policy"]
        if params["playout_engine"] == PLAYOUT_ENGINE_LISTS:
            del params["playout_engine"]
        return params

    def _options_label(self, label: str) -> str:
        if self.grave:
            default = self.grave_ref == GRAVE_REF and self.grave_bias == GRAVE_BIAS
            label += "+GRAVE" if default else f"+GRAVE(ref={self.grave_ref:g}, bias={self.grave_bias:g})"
        if self.keep_policy:
            label += ", policy kept"
        if self.playout_engine != PLAYOUT_ENGINE_LISTS:
            label += f", engine {self.playout_engine}"
        return label


@dataclass(frozen=True)
class PPA(_LearnedPlayouts, AgentConfig):
    """Playout Policy Adaptation (Cazenave 2015, Alg. 3-4): Gibbs playouts on exp(policy[code]), the policy learned
    from the winner's moves after every iteration with rate ``alpha``."""
    c: float = 0.4
    alpha: float = 1.0
    grave: bool = False
    grave_ref: float = GRAVE_REF
    grave_bias: float = GRAVE_BIAS
    keep_policy: bool = False
    playout_engine: int = PLAYOUT_ENGINE_LISTS
    kind: ClassVar[str] = "ppa"
    _LEGACY_FIELDS: ClassVar[dict] = {"k": 1.0}

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "alpha", _check_number("alpha", self.alpha, 0.0, True))
        self._validate_options()

    def search_settings(self):
        return search_settings(playout=PLAYOUT_GIBBS, learning=LEARN_PPA, c=self.c, alpha=self.alpha, k=1.0,
                               with_context=self.with_context, playout_engine=self.playout_engine,
                               **self._selection())

    def as_dict(self):
        return self._options_as_dict(super().as_dict())

    @property
    def label(self):
        return self._options_label(f"{self.kind.upper()}({self.alpha:g})")


@dataclass(frozen=True)
class PPAF(PPA):
    """PPA on move codes with context (Cazenave 2016, section 3)."""
    kind: ClassVar[str] = "ppaf"

    @property
    def with_context(self):
        return True


@dataclass(frozen=True)
class MAST(_LearnedPlayouts, AgentConfig):
    """Move-Average Sampling Technique (Cazenave 2016, Alg. 5): Gibbs playouts on exp(k * mean result of the code)."""
    c: float = 0.4
    k: float = 1.0
    grave: bool = False
    grave_ref: float = GRAVE_REF
    grave_bias: float = GRAVE_BIAS
    keep_policy: bool = False
    playout_engine: int = PLAYOUT_ENGINE_LISTS
    kind: ClassVar[str] = "mast"
    _LEGACY_FIELDS: ClassVar[dict] = {"alpha": 1.0}

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "k", _check_number("k", self.k, 0.0, True))
        self._validate_options()

    def search_settings(self):
        return search_settings(playout=PLAYOUT_GIBBS, learning=LEARN_MAST, c=self.c, k=self.k,
                               with_context=self.with_context, playout_engine=self.playout_engine,
                               **self._selection())

    def as_dict(self):
        return self._options_as_dict(super().as_dict())

    @property
    def label(self):
        return self._options_label(f"{self.kind.upper()}({self.k:g})")


@dataclass(frozen=True)
class MASTF(MAST):
    """MAST on move codes with context (Cazenave 2016)."""
    kind: ClassVar[str] = "mastf"

    @property
    def with_context(self):
        return True


@dataclass(frozen=True)
class RAVE(AgentConfig):
    """UCT + RAVE (Mehat & Vittaut 2013, section 2), RAVE used for a fraction ``rave_rate`` of the selections
    (section 6), or adaptive RAVE (section 7): before each descent the root decides, from its moves' observed and
    AMAF means and the ``margin``, whether the whole descent uses RAVE.  ``margin_both_sides``: the margin widens
    both the optimism and the pessimism test (True, the default) or only the optimism test (the reading of the
    paper's Figure 4 caption, "a margin for judging RAVE too optimistic").  ``rave_rate = 0`` is the paper's
    player without RAVE (untried moves scored at the maximum, random tie-break).

    ``adaptive_per_node``: the adaptive decision is taken at every node of a descent with more than
    ``node_playouts`` playouts, from that node's own moves, instead of once at the root (the root always decides;
    a node below the threshold keeps the closest deciding ancestor's choice): the paper's section 8, "it would be
    possible to observe this correlation at every node when it stores enough playouts results"."""
    c: float = 0.4
    k_rave: float = 700.0
    rave_rate: float = 1.0
    adaptive: bool = False
    margin: float = 0.0
    margin_both_sides: bool = True
    adaptive_per_node: bool = False
    node_playouts: float = NODE_PLAYOUTS
    kind: ClassVar[str] = "rave"

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "k_rave", _check_number("k_rave", self.k_rave, 0.0, True))
        object.__setattr__(self, "rave_rate", _check_number("rave_rate", self.rave_rate, 0.0, True, 1.0))
        object.__setattr__(self, "adaptive", _check_bool("adaptive", self.adaptive))
        object.__setattr__(self, "margin", _check_number("margin", self.margin, 0.0, True))
        object.__setattr__(self, "margin_both_sides", _check_bool("margin_both_sides", self.margin_both_sides))
        object.__setattr__(self, "adaptive_per_node", _check_bool("adaptive_per_node", self.adaptive_per_node))
        object.__setattr__(self, "node_playouts", _check_number("node_playouts", self.node_playouts, 0.0, True))
        if self.adaptive_per_node and not self.adaptive:
            raise ValueError("adaptive_per_node=True needs adaptive=True (it says where adaptive RAVE decides)")
        if not self.adaptive_per_node and self.node_playouts != NODE_PLAYOUTS:
            raise ValueError(f"node_playouts={self.node_playouts:g} is used only by per-node adaptive RAVE: give "
                             f"adaptive_per_node=True too, or leave node_playouts at its default {NODE_PLAYOUTS:g}")

    def search_settings(self):
        return search_settings(SELECT_UCB1_RAVE, PLAYOUT_UNIFORM, LEARN_NONE, c=self.c, k_rave=self.k_rave,
                               rave_rate=self.rave_rate, adaptive=self.adaptive, margin=self.margin,
                               margin_both_sides=self.margin_both_sides, adaptive_per_node=self.adaptive_per_node,
                               node_playouts=self.node_playouts)

    @property
    def label(self):
        if self.adaptive:
            sides = "" if self.margin_both_sides else ", optimism only"
            where = f", per node > {self.node_playouts:g}" if self.adaptive_per_node else ""
            return f"ARAVE(k={self.k_rave:g}, margin={self.margin:g}{sides}{where})"
        return f"RAVE(k={self.k_rave:g}, rate={self.rave_rate:g})"

    def as_dict(self):
        params = super().as_dict()
        if params["margin_both_sides"]:
            del params["margin_both_sides"]
        if not params["adaptive_per_node"]:  # only when set: the committed RAVE conditions keep their ids
            del params["adaptive_per_node"], params["node_playouts"]
        return params


@dataclass(frozen=True)
class GRAVE(AgentConfig):
    """GRAVE (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015) with uniform playouts: the tree
    scores a node's moves with the AMAF statistics of the closest node of the descent, itself included, with
    more than ``ref`` playouts (the root when none has), ``(1 - beta) mean + beta amaf`` with
    ``beta = pa / (pa + p + bias pa p)`` and no exploration term (``ppalib.kernels.selection.grave_score``)."""
    ref: float = GRAVE_REF
    bias: float = GRAVE_BIAS
    kind: ClassVar[str] = "grave"
    _LEGACY_FIELDS: ClassVar[dict] = {}

    def validate(self):
        object.__setattr__(self, "ref", _check_number("ref", self.ref, 0.0, True))
        object.__setattr__(self, "bias", _check_number("bias", self.bias, 0.0, True))

    def search_settings(self):
        return search_settings(SELECT_GRAVE, PLAYOUT_UNIFORM, LEARN_NONE, c=0.0, grave_ref=self.ref,
                               grave_bias=self.bias)

    @property
    def label(self):
        if self.ref == GRAVE_REF and self.bias == GRAVE_BIAS:
            return "GRAVE"
        return f"GRAVE(ref={self.ref:g}, bias={self.bias:g})"


def _check_policy_hash(value, required: bool) -> str:
    if not isinstance(value, str) or (value and (len(value) != 16 or any(c not in "0123456789abcdef" for c in value))):
        raise ValueError(f"policy must be a policy's 16-hex-digit content hash (LinearPolicy.content_hash), "
                         f"got {value!r}")
    if required and not value:
        raise ValueError("policy is required: the content hash of a saved LinearPolicy")
    return value


@dataclass(frozen=True)
class PUCT(AgentConfig):
    """PUCT selection with priors computed once per entry and stored with it (Soemers, Piette & Browne 2019, eq. 4),
    ``c`` = the paper's C.  ``policy``: the content hash of a saved ``ppalib.features.LinearPolicy`` whose softmax
    gives the priors (``""``: uniform priors, or the per-move-code logits given to ``search``).
    ``prior_first_playout_move``: the playout's first move is drawn from the new entry's priors, the rest uniformly
    (the paper's section V-A, and that move's position gets an entry); ``biased_playouts``: every playout move is
    drawn from the policy (the paper's hand-made Yavalath player, section V-D; needs ``policy``)."""
    c: float = math.sqrt(2.0)
    prior_first_playout_move: bool = True
    policy: str = ""
    biased_playouts: bool = False
    kind: ClassVar[str] = "puct"
    _LEGACY_FIELDS: ClassVar[dict] = {}

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "prior_first_playout_move",
                           _check_bool("prior_first_playout_move", self.prior_first_playout_move))
        _check_policy_hash(self.policy, False)
        object.__setattr__(self, "biased_playouts", _check_bool("biased_playouts", self.biased_playouts))
        if self.biased_playouts and not self.policy:
            raise ValueError("biased_playouts=True needs a policy (the playouts are drawn from its features)")

    def search_settings(self):
        if self.biased_playouts:
            playout = PLAYOUT_FEATURES
        else:
            playout = PLAYOUT_PRIOR_FIRST if self.prior_first_playout_move else PLAYOUT_UNIFORM
        return search_settings(SELECT_PUCT, playout, LEARN_NONE, c=self.c)

    def as_dict(self):
        params = super().as_dict()
        for name in ("policy", "biased_playouts"):  # only when set
            if not params[name]:
                del params[name]
        return params

    @property
    def label(self):
        if not self.policy:
            return f"PUCT({self.c:.3g})"
        return f"Biased MCTS({self.policy[:6]}{', full playouts' if self.biased_playouts else ''})"


@dataclass(frozen=True)
class Greedy(AgentConfig):
    """No search: the legal move of largest apprentice probability p(s, a), i.e. largest theta . phi(s, a)
    (Soemers, Piette & Browne 2019, Fig. 6).  Ties (e.g. an empty feature set) are broken uniformly at random, with
    the game's generator.  ``playouts`` is unused (give 1)."""
    policy: str = ""
    kind: ClassVar[str] = "greedy"
    _LEGACY_FIELDS: ClassVar[dict] = {}

    def validate(self):
        _check_policy_hash(self.policy, True)

    def search_settings(self):
        return search_settings(SELECT_PUCT, PLAYOUT_UNIFORM, LEARN_NONE, c=0.0)

    @property
    def label(self):
        return f"Greedy({self.policy[:6]})"


#: The registry: agent kind -> its config class.
AGENTS: dict[str, type[AgentConfig]] = {cls.kind: cls for cls in (UCT, PPA, PPAF, MAST, MASTF, RAVE, PUCT,
                                                                   Greedy, GRAVE)}
AGENT_KINDS = tuple(AGENTS)


def parameters_of(kind: str) -> dict[str, type]:
    """The parameters of ``kind`` (besides ``playouts``) and their declared types, for the CLI and notebooks."""
    hints = typing.get_type_hints(_agent_class(kind))
    return {f.name: hints[f.name] for f in fields(_agent_class(kind)) if f.name != "playouts"}


def _agent_class(kind) -> type[AgentConfig]:
    if not isinstance(kind, str) or kind not in AGENTS:
        raise ValueError(f"agent kind={kind!r} is unknown; known kinds: {', '.join(AGENTS)}")
    return AGENTS[kind]


def make_agent(kind: str, playouts: int, **params) -> AgentConfig:
    """A validated agent of ``kind``; a parameter the kind does not have is an error naming it."""
    cls = _agent_class(kind)
    allowed = set(parameters_of(kind))
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)} for agent kind {kind!r}; "
                         f"its parameters: {sorted(allowed)}")
    return cls(playouts=playouts, **params)


def agent_from_params(params: dict) -> AgentConfig:
    """The agent a stored ``as_dict()`` describes (the inverse of ``as_dict``, legacy fields included)."""
    params = dict(params)
    kind = params.pop("kind")
    cls = _agent_class(kind)
    for name, value in cls._LEGACY_FIELDS.items():
        if params.get(name, value) != value:
            raise ValueError(f"{name}={params[name]} is not a parameter of {kind}")
        params.pop(name, None)
    playouts = params.pop("playouts")
    return make_agent(kind, playouts, **params)


# ---- search ------------------------------------------------------------------------------------------------------
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
    """
    move: int
    moves: np.ndarray
    visits: np.ndarray
    iterations: int
    seconds: float
    policy: np.ndarray = field(default_factory=lambda: np.zeros(0))
    rave_used: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))


def _module_name(game: Game) -> str:
    return game.module.__name__.rsplit(".", 1)[1]


def kernels_for(game: Game):
    """The kernel package specialised to ``game``'s module (``.search``, ``.playout``, ``.nrpa``, ``.perft``)."""
    return specialised(_module_name(game))


_NO_FEATURES = []


def _no_features():
    """The compiled form of an empty feature set (one per process): what the search gets without features."""
    if not _NO_FEATURES:
        from ..features.compile import compile_instances
        _NO_FEATURES.append(compile_instances([], 1))
    return _NO_FEATURES[0]


class Searcher:
    """Searches positions of one game for one agent; with ``tree_reuse`` it keeps its tree between the searches
    (the moves of one game: make one Searcher per player per game), with ``keep_policy`` its learned playout
    policy (PPA's weights, MAST's statistics), which otherwise starts at zero every search."""

    def __init__(self, game: Game, agent: AgentConfig):
        if not isinstance(agent, AgentConfig):
            raise TypeError(f"agent must be an agent config (see ppalib.agents.make_agent), got {agent!r}")
        self.game = game
        self.agent = agent
        self.settings = agent.search_settings()
        self.kernels = kernels_for(game).search
        self.tree = None
        self.learner = None
        self.feature_set = None
        self.features = _no_features()
        self.theta = np.zeros(0)
        if getattr(agent, "policy", ""):
            from ..features.artefact import load_policy
            policy = load_policy(agent.policy)
            if (policy.game, policy.size, policy.game_options) != (game.name, game.size, tuple(game.options)):
                raise ValueError(f"policy {agent.policy} was learned for {policy.game} at size {policy.size} "
                                 f"{dict(policy.game_options)}, not {game.name} at {game.size} {dict(game.options)}")
            self.use_policy(policy.feature_set, policy.weights)

    def use_policy(self, feature_set, theta: np.ndarray) -> None:
        """Bias the search with ``feature_set`` and weights ``theta`` (float64[features]; read at every search,
        so a caller that updates it in place, as self-play does, searches with the new weights)."""
        graph = self.game.module.board_graph(self.game.spec)
        if feature_set.graph.cells != graph.cells:
            raise ValueError(f"the feature set is on a board of {feature_set.graph.cells} cells; "
                             f"{self.game.name} has {graph.cells}")
        if not isinstance(theta, np.ndarray) or theta.dtype != np.float64 or theta.shape != (len(feature_set),):
            raise ValueError(f"theta must be float64[{len(feature_set)}], got {getattr(theta, 'shape', theta)!r}")
        self.feature_set = feature_set
        self.features = feature_set.compiled
        self.theta = theta

    def policy_logits(self, state: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """theta . phi(state, a) for the ``legal`` moves of ``state`` (the compiled matcher, as the search uses)."""
        from ..features.featureset import state_move_cells, state_owner_relative
        module, spec = self.game.module, self.game.spec
        owner_rel = state_owner_relative(module, spec, state, self.feature_set.graph)
        return self.feature_set.logits(self.theta, owner_rel, *state_move_cells(module, spec, state, legal))

    def _greedy(self, state, legal, rng) -> SearchResult:
        from .._rng import random_float
        start = time.perf_counter()
        logits = self.policy_logits(state, legal)
        best = np.flatnonzero(logits == logits.max())
        pick = best[int(random_float(rng) * best.size)] if best.size > 1 else best[0]
        probs = np.exp(logits - logits.max())
        return SearchResult(int(legal[pick]), legal, probs / probs.sum(), 0, time.perf_counter() - start,
                            values=np.full(legal.size, np.nan))

    def _new_tree(self, iterations: int):
        capacity, pool = initial_sizes(iterations, self.game.max_moves)
        return new_tree(capacity, pool, self.settings.selection == SELECT_UCB1_RAVE,
                        self.settings.selection == SELECT_PUCT,
                        self.game.num_codes() if self.settings.selection == SELECT_GRAVE else 0)

    def search(self, state: np.ndarray, rng: np.ndarray, prior_logits: np.ndarray | None = None) -> SearchResult:
        """Search ``state`` (not modified) drawing from ``rng`` (uint64[4] from ``make_rng``, advanced in place)."""
        if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (4,):
            raise ValueError("rng must be a uint64[4] state from ppalib.make_rng")
        game, agent, settings = self.game, self.agent, self.settings
        state = np.ascontiguousarray(state, dtype=np.int64)
        legal = game.legal_moves(state)
        if legal.size == 0:
            raise ValueError("search needs a position where the game is not over")
        if agent.kind == "greedy":
            return self._greedy(state, legal, rng)
        if prior_logits is None:
            prior_logits = np.zeros(0)
        elif len(prior_logits) != game.num_codes(settings.with_context):
            raise ValueError(f"prior_logits has {len(prior_logits)} values; the game has "
                             f"{game.num_codes(settings.with_context)} move codes")
        start = time.perf_counter()
        budget = agent.playouts
        if agent.tree_reuse and self.tree is not None:
            tree = self.kernels.retain_subtree(game.spec, state, self.tree)
        else:
            tree = self._new_tree(budget if agent.seconds_per_move is None else 1024)
        if getattr(agent, "keep_policy", False) and self.learner is not None:
            learner = self.learner  # the policy learned over the earlier moves of this game
        else:
            learner = new_learner(game.num_codes(settings.with_context) if settings.learning != LEARN_NONE else 0,
                                  settings.learning)
        rave_used = np.zeros(2, dtype=np.int64)
        prior_logits = np.ascontiguousarray(prior_logits, dtype=np.float64)
        # Entries an iteration can add: one, or two with Soemers et al.'s playout (its first move's position).
        per_iteration = 2 if settings.playout == PLAYOUT_PRIOR_FIRST else 1
        if agent.seconds_per_move is None:
            tree = self.kernels.run_iterations(game.spec, state, rng, reserve(tree, per_iteration * budget), learner,
                                               settings, budget, prior_logits, self.features, self.theta, rave_used)
            done = budget
        else:
            done, chunk = 0, _FIRST_CHUNK
            deadline = start + agent.seconds_per_move
            while done < budget:
                step = min(chunk, budget - done)
                chunk_start = time.perf_counter()
                tree = self.kernels.run_iterations(game.spec, state, rng, reserve(tree, per_iteration * step),
                                                   learner, settings, step, prior_logits, self.features, self.theta,
                                                   rave_used)
                done += step
                now = time.perf_counter()
                if now >= deadline:
                    break
                seconds_each = (now - chunk_start) / step
                chunk = max(1, min(int(0.01 / seconds_each) if seconds_each > 0 else 4 * chunk,
                                   int((deadline - now) / seconds_each) + 1 if seconds_each > 0 else chunk))
        visits = np.zeros(game.max_moves, dtype=np.float64)
        wins = np.zeros(game.max_moves, dtype=np.float64)
        move, count = self.kernels.root_stats(state, tree, visits, wins)
        self.tree = tree if agent.tree_reuse else None
        self.learner = learner if getattr(agent, "keep_policy", False) else None
        policy = learner.policy.copy() if settings.learning != LEARN_NONE else np.zeros(0)
        visits, wins = visits[:count].copy(), wins[:count]
        with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0: a move without playouts has no value
            values = np.where(visits > 0, wins / visits, np.nan)
        return SearchResult(int(move), legal, visits, int(done), time.perf_counter() - start, policy, rave_used,
                            values)


def search(game: Game, state: np.ndarray, agent: AgentConfig, rng: np.ndarray, *, return_details: bool = False,
           prior_logits: np.ndarray | None = None):
    """The move ``agent`` plays in ``state`` (a fresh tree: for tree reuse, keep a ``Searcher``); with
    ``return_details``, the whole ``SearchResult``.  ``rng`` is a uint64[4] state from ``make_rng``, advanced."""
    result = Searcher(game, agent).search(state, rng, prior_logits)
    return result if return_details else result.move


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


def perft_count(game: Game, depth: int, state: np.ndarray | None = None) -> int:
    """Number of positions exactly ``depth`` plies from ``state`` (default: the start position)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"depth={depth!r} must be an integer >= 0")
    root = game.initial_state() if state is None else np.ascontiguousarray(state, dtype=np.int64)
    return int(kernels_for(game).perft.perft(game.spec, root, int(depth)))


__all__ = ["AGENTS", "AGENT_KINDS", "AgentConfig", "UCT", "PPA", "PPAF", "MAST", "MASTF", "RAVE", "GRAVE", "PUCT",
           "Greedy", "GRAVE_REF", "GRAVE_BIAS", "NODE_PLAYOUTS",
           "make_agent", "agent_from_params", "parameters_of", "Searcher", "SearchResult", "search", "kernels_for",
           "nrpa_search", "perft_count", "make_rng"]
