"""The Python search front: ``Searcher`` (one game, one agent, a tree and a policy kept between moves when asked)
and ``search``, which run the one compiled search loop of ``ppalib.kernels.search``."""
from __future__ import annotations

import time

import numpy as np

from .._specialise import specialised
from ..games import Game
from ..kernels.learning import LEARN_NONE, new_learner
from ..kernels.selection import SELECT_GRAVE, SELECT_PUCT, SELECT_UCB1_RAVE
from ..kernels.settings import PLAYOUT_PRIOR_FIRST
from ..kernels.tree import initial_sizes, new_tree, reserve
from .base import AgentConfig
from .result import SearchResult

# Iterations a time-budgeted search runs between two looks at the clock (then adapted to about 10 ms).
_FIRST_CHUNK = 16


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
        plies_played = np.zeros(1, dtype=np.int64)
        prior_logits = np.ascontiguousarray(prior_logits, dtype=np.float64)
        # Entries an iteration can add: one, or two with Soemers et al.'s playout (its first move's position).
        per_iteration = 2 if settings.playout == PLAYOUT_PRIOR_FIRST else 1
        if agent.seconds_per_move is None:
            tree = self.kernels.run_iterations(game.spec, state, rng, reserve(tree, per_iteration * budget), learner,
                                               settings, budget, prior_logits, self.features, self.theta, rave_used,
                                               plies_played)
            done = budget
        else:
            done, chunk = 0, _FIRST_CHUNK
            deadline = start + agent.seconds_per_move
            while done < budget:
                step = min(chunk, budget - done)
                chunk_start = time.perf_counter()
                tree = self.kernels.run_iterations(game.spec, state, rng, reserve(tree, per_iteration * step),
                                                   learner, settings, step, prior_logits, self.features, self.theta,
                                                   rave_used, plies_played)
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
                            values, int(plies_played[0]))


def search(game: Game, state: np.ndarray, agent: AgentConfig, rng: np.ndarray, *, return_details: bool = False,
           prior_logits: np.ndarray | None = None):
    """The move ``agent`` plays in ``state`` (a fresh tree: for tree reuse, keep a ``Searcher``); with
    ``return_details``, the whole ``SearchResult``.  ``rng`` is a uint64[4] state from ``make_rng``, advanced."""
    result = Searcher(game, agent).search(state, rng, prior_logits)
    return result if return_details else result.move
