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

Modules: ``base`` (``AgentConfig``, parameter checks), one per kind or family (``uct``, ``learned``: PPA, PPAF, MAST,
MASTF; ``rave``, ``grave``, ``puct``: PUCT and Greedy), ``registry`` (``AGENTS``, ``make_agent``,
``agent_from_params``), ``result`` (``SearchResult``), ``searcher`` (``Searcher``, ``search``, ``kernels_for``),
``nrpa`` and ``perft``.  This face only re-exports them.
"""
from __future__ import annotations

from .._rng import make_rng
from .base import MAX_PLAYOUTS, AgentConfig, _check_bool, _check_number, check_playouts
from .grave import GRAVE, GRAVE_BIAS, GRAVE_REF
from .learned import MAST, MASTF, PPA, PPAF
from .nrpa import nrpa_search
from .perft import perft_count
from .puct import PUCT, Greedy, _check_policy_hash
from .rave import NODE_PLAYOUTS, RAVE
from .registry import AGENT_KINDS, AGENTS, _agent_class, agent_from_params, make_agent, parameters_of
from .result import SearchResult
from .searcher import Searcher, _no_features, kernels_for, search
from .uct import UCT

__all__ = ["AGENTS", "AGENT_KINDS", "AgentConfig", "UCT", "PPA", "PPAF", "MAST", "MASTF", "RAVE", "GRAVE", "PUCT",
           "Greedy", "GRAVE_REF", "GRAVE_BIAS", "NODE_PLAYOUTS",
           "make_agent", "agent_from_params", "parameters_of", "Searcher", "SearchResult", "search", "kernels_for",
           "nrpa_search", "perft_count", "make_rng"]
