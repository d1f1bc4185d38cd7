"""Expert iteration by self-play (Soemers, Piette & Browne 2019, sections III and V-A): the driver.

One run (``SelfPlayConfig``) learns one policy for one game with one discovery strategy:

* the expert is MCTS with PUCT (C = sqrt(2)) whose priors are the apprentice p(s, a) = softmax(theta . phi(s, a)),
  the first playout move drawn from p (its position added to the tree), later playout moves uniform, trees reused
  between moves (``ppalib.agents.PUCT`` with ``tree_reuse``); both players are such agents and share theta;
* at every move the search's root visit counts give the target pi = N(s, a) / sum N, the move played is drawn
  from pi, and the sample <s, A(s), pi(s)> enters the experience buffer (capacity 200, oldest out) at once;
* after every move, one SGD step (eq. 6) on a batch of 20 drawn without replacement (step 0.05, L2 1e-6);
* after every game, one discovery strategy proposes one new feature from a batch of 30 (weight 0); the features of
  the samples in the buffer are then recomputed with the grown set (``Choices``);
* games end after ``move_cap`` = 100 moves (plies) as a draw;
* at the checkpoints (games played, e.g. 1, 25, 50, 100, 200), the policy is saved as a ``LinearPolicy`` under its
  content hash: evaluation agents load it by hash.

The pruned-set stage (paper, V-C) is a run with ``initial_policy`` (the 15 features of largest |theta| and their
weights, ``prune``) and ``grow=False``; checkpoint 0 is then the initial policy itself.

Choices where the paper is silent (documented here and in notebook 04)
-----------------------------------------------------------------------
* Budget: ``playouts`` iterations per move (deterministic) instead of 5 s of thinking; ``seconds_per_move`` gives a
  time budget instead (then results depend on the machine).
* Features of old samples after growth: recomputed with the grown set (a sample keeps its position); the paper's
  p(s, a) in eq. (5) uses the current features.  Ludii stores feature vectors with a sample and recomputes them
  lazily; same result.
* Initial set: the atomic features (``ppalib.features.atomic_features``, walks of at most two steps) of the game's
  move kind (``to`` for placement games, ``from_to`` for games that move pieces), all weights 0.
* One theta for both players (the paper has one; Ludii keeps one per player).
* A move where the search visited no root move (impossible with >= 1 iteration) would have no pi: refused.
* ``max_instances`` (0: none, the paper): discovery keeps, per state-action pair of its batch, only the
  ``max_instances`` active instances of the features of largest |theta| (a stable sort: ties keep instance order),
  for every strategy.  Ludii caps the correlation-based expander so (75 in 2020, 60 in 2023); the quick preset
  uses a small cap because every co-active pair is combined in Python (about 30 s a game at Breakthrough
  without a cap).
* Interruption: the run's whole state (feature set, theta, buffer, every generator) is saved after every game
  (``progress`` folder); a restarted run continues from the last finished game and gives the same policies as an
  uninterrupted one.
"""
from __future__ import annotations

import hashlib
import json
import math
import pickle
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .._rng import make_rng
from ..agents import Searcher, make_agent
from ..features import FeatureSet, atomic_features, combine_instances, state_move_cells, state_owner_relative
from ..features.artefact import LinearPolicy, load_policy
from ..features.matcher import active_feature_rows
from ..games import make_game
from ..games._common import H_TO_MOVE, H_WINNER
from .buffer import ExperienceBuffer, Sample
from .discovery import STRATEGIES, discover
from .policy import grow, probabilities, sgd_step

#: Discovery strategies by the paper's names (V-A).
STRATEGY_TITLES = {"add_random": "Add Random", "combine_random": "Combine Random", "combine_max": "Combine Max",
                   "correlation_based": "Correlation-based"}
MOVE_KIND = {"breakthrough": "from_to", "knightthrough": "from_to", "fanorona": "from_to", "teeko": "from_to",
             "hex": "to", "connect_four": "to", "gomoku": "to", "othello": "to", "yavalath": "to",
             "domineering": "to", "go": "to", "atarigo": "to", "nogo": "to"}


def move_kind(game_name: str) -> str:
    """``"to"`` (the game places pieces) or ``"from_to"`` (it moves them): which atomic features a game gets."""
    base = game_name.removeprefix("misere_")
    if base not in MOVE_KIND:
        raise ValueError(f"{game_name} has no spatial features (no board with pieces); games with them: "
                         f"{sorted(MOVE_KIND)}")
    return MOVE_KIND[base]


def initial_feature_set(game) -> FeatureSet:
    """The atomic features of ``game`` (a ``Game``) on its board graph."""
    graph = game.module.board_graph(game.spec)
    return FeatureSet(atomic_features(graph, action=move_kind(game.name)), graph)


@dataclass(frozen=True)
class SelfPlayConfig:
    """One expert-iteration run; every field is part of its id (``run_id``)."""
    game: str
    size: int
    strategy: str
    games: int
    playouts: int
    checkpoints: tuple = ()
    seed: int = 2019
    initial_policy: str = ""
    grow: bool = True
    game_options: tuple = ()
    seconds_per_move: float | None = None
    c: float = math.sqrt(2.0)
    buffer_capacity: int = 200
    batch_size: int = 20
    discovery_batch_size: int = 30
    step_size: float = 0.05
    l2: float = 1e-6
    move_cap: int = 100
    max_instances: int = 0

    def __post_init__(self):
        object.__setattr__(self, "checkpoints", tuple(sorted({int(c) for c in self.checkpoints})))
        object.__setattr__(self, "game_options", tuple(sorted(dict(self.game_options).items())))
        if self.grow and self.strategy not in STRATEGIES:
            raise ValueError(f"strategy={self.strategy!r} is unknown; choose from {sorted(STRATEGIES)}")
        if not self.grow and self.strategy not in STRATEGIES and self.strategy != "none":
            raise ValueError(f"strategy={self.strategy!r}: a frozen-set run takes a strategy name or 'none'")
        for name, low in (("games", 0), ("playouts", 1), ("buffer_capacity", 1), ("batch_size", 1),
                          ("discovery_batch_size", 1), ("move_cap", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise ValueError(f"{name}={value!r} must be an integer >= {low}")
            object.__setattr__(self, name, int(value))  # a numpy integer is the int it holds (run_id is JSON)
        for name, low, inclusive in (("step_size", 0.0, False), ("l2", 0.0, True), ("c", 0.0, True)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(value) or value < low or (value == low and not inclusive):
                raise ValueError(f"{name}={value!r} must be a finite number {'>=' if inclusive else '>'} {low:g}")
            if isinstance(value, np.generic):  # Python's own number keeps the JSON (run_id) a plain value gives
                object.__setattr__(self, name, value.item())
        if self.seconds_per_move is not None and (
                isinstance(self.seconds_per_move, bool) or not isinstance(self.seconds_per_move, (int, float))
                or not math.isfinite(self.seconds_per_move) or self.seconds_per_move <= 0):
            raise ValueError(f"seconds_per_move={self.seconds_per_move!r} must be None or a finite number > 0")
        for name in ("seed", "max_instances"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{name}={value!r} must be an integer >= 0")
            object.__setattr__(self, name, int(value))
        if any(c < 0 or c > self.games for c in self.checkpoints):
            raise ValueError(f"checkpoints {self.checkpoints} must lie in 0..games={self.games}")
        move_kind(self.game)
        game = self.make_game()  # validates game, size and options
        object.__setattr__(self, "size", game.size)
        object.__setattr__(self, "game_options", tuple((k, v if v is None else int(v)) for k, v in self.game_options))

    def make_game(self):
        return make_game(self.game, self.size, **dict(self.game_options), ply_cap=self.move_cap)

    def as_dict(self) -> dict:
        d = asdict(self)
        d["checkpoints"] = list(self.checkpoints)
        d["game_options"] = dict(self.game_options)
        return d

    @property
    def run_id(self) -> str:
        return hashlib.sha256(json.dumps(self.as_dict(), sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class _RunState:
    """Everything a run needs to continue after an interruption (pickled after every game)."""
    features: list[str]
    theta: np.ndarray
    buffer: ExperienceBuffer
    np_rng: np.random.Generator
    search_rng: np.ndarray
    games_done: int = 0
    checkpoints: dict = field(default_factory=dict)
    game_log: list = field(default_factory=list)


def _rows(feature_set: FeatureSet, module, spec, state, legal) -> tuple[np.ndarray, np.ndarray]:
    """phi(state, a) of the legal moves as CSR rows, by the compiled matcher."""
    owner_rel = state_owner_relative(module, spec, state, feature_set.graph)
    n = legal.size
    moves_from, moves_to = state_move_cells(module, spec, state, legal)
    indptr = np.zeros(n + 1, dtype=np.int64)
    room = max(64, 8 * n)
    while True:
        indices = np.empty(room, dtype=np.int64)
        count = active_feature_rows(*feature_set.compiled, owner_rel, moves_from, moves_to, n, indptr, indices)
        if count >= 0:
            return indptr, indices[:count].copy()
        room *= 4


def _instances(feature_set: FeatureSet, refs, module, spec, state, legal, cap: int = 0,
               weight: np.ndarray | None = None) -> list[list]:
    """The feature instances active for each legal move (what discovery pairs), as ``InstanceRef``s; with ``cap``,
    only the ``cap`` of largest ``weight[feature]`` per move (a stable sort: ties keep instance order)."""
    owner_rel = state_owner_relative(module, spec, state, feature_set.graph)
    out = []
    for f, t in zip(*state_move_cells(module, spec, state, legal)):
        insts = [refs[i] for i in feature_set.active_instances_compiled(owner_rel, f, t)]
        if cap and len(insts) > cap:
            insts = sorted(insts, key=lambda r: -weight[r.feature])[:cap]
        out.append(insts)
    return out


_TURN_CODES = 24  # turns as multiples of 1/24 (every board here has 4, 6 or 8 directions)


def _turn_code(turn) -> int:
    return int(round(float(turn) * _TURN_CODES)) % _TURN_CODES


class InstanceRef:
    """An instance of a feature set as discovery sees it: hashed and compared by its index (cheap), with the
    attributes discovery reads (``feature``, ``anchor``, ``rotation`` as a float for ordering, ``reflection``)."""
    __slots__ = ("index", "feature", "anchor", "rotation", "reflection", "turn")

    def __init__(self, index: int, instance):
        self.index = index
        self.feature = instance.feature
        self.anchor = instance.anchor
        self.rotation = float(instance.rotation)
        self.reflection = instance.reflection
        self.turn = _turn_code(instance.rotation)

    def __hash__(self):
        return self.index

    def __eq__(self, other):
        return isinstance(other, InstanceRef) and other.index == self.index


class InstanceCombiner:
    """``combine_instances`` of a feature set for discovery: returns an int naming the combined feature (``feature``
    maps it back), memoised on exactly what ``combine_instances`` reads: the two features, both reflections, B's
    rotation relative to A's, and the walk from A's anchor to B's seen from A (first turn and heading on arrival
    relative to A's rotation).  Pairs placed alike anywhere on the board, in any orientation, share one
    computation; the int keys make discovery's counting cheap."""

    def __init__(self, feature_set: FeatureSet):
        self.feature_set = feature_set
        self.instances = feature_set.instances
        self.refs = [InstanceRef(i, inst) for i, inst in enumerate(self.instances)]
        self._shape_of: dict = {}
        self._results: dict = {}
        self._ids: dict = {}
        self.features: list = []

    def _shape(self, a: int, b: int):
        key = (a, b)
        if key not in self._shape_of:
            from ..features.walks import heading_on_arrival, shortest_path
            graph = self.feature_set.graph
            path = shortest_path(graph, a, b)
            if path is None:
                self._shape_of[key] = None
            else:
                cells, walk = path
                heading = _turn_code(heading_on_arrival(graph, cells) / graph.directions)
                self._shape_of[key] = (_turn_code(walk[0]), tuple(_turn_code(t) for t in walk[1:]), heading)
        return self._shape_of[key]

    def __call__(self, a: InstanceRef, b: InstanceRef):
        if a.anchor == b.anchor:
            relative = ()
        else:
            shape = self._shape(a.anchor, b.anchor)
            if shape is None:
                relative = None
            else:
                t = a.turn * a.reflection
                relative = ((shape[0] - t) % _TURN_CODES, shape[1], (shape[2] - t) % _TURN_CODES)
        rotate_b = (b.reflection * b.turn - a.reflection * a.turn) % _TURN_CODES
        key = (a.feature, b.feature, a.reflection, b.reflection, rotate_b, relative)
        try:
            return self._results[key]
        except KeyError:
            pass
        try:
            feature = combine_instances(self.instances[a.index], self.instances[b.index],
                                        self.feature_set.features, self.feature_set.graph)
        except ValueError:  # inconsistent elements (e.g. one cell required both empty and friend)
            feature = None
        if feature is None:
            result = None
        else:
            result = self._ids.get(feature)
            if result is None:
                result = self._ids[feature] = len(self.features)
                self.features.append(feature)
        self._results[key] = result
        return result

    def is_known(self, key: int) -> bool:
        return self.feature_set.contains_equivalent(self.features[key])


def _sample(feature_set, game, state, legal, pi) -> Sample:
    indptr, indices = _rows(feature_set, game.module, game.spec, state, legal)
    return Sample(indptr, indices, legal, pi, int(state[H_TO_MOVE]), state=state.copy(),
                  n_features=len(feature_set))


class SelfPlayRun:
    """A run of ``config``; ``run()`` plays the games not yet played and returns its record (a dict).

    ``progress_folder``: where the state is saved after every game; ``policies_folder``: where the checkpoint
    policies are saved."""

    def __init__(self, config: SelfPlayConfig, progress_folder: Path, policies_folder: Path,
                 records_folder: Path | None = None):
        self.config = config
        # Where the run's record is written at each checkpoint (``<run_id>.json``, ``games_done`` < ``games`` until
        # it ends): the checkpoints reached so far can be evaluated and committed while the run goes on.
        self.records_folder = None if records_folder is None else Path(records_folder)
        self.game = config.make_game()
        self.progress_path = Path(progress_folder) / f"{config.run_id}.pkl"
        self.policies_folder = Path(policies_folder)
        self.agent = make_agent("puct", config.playouts, c=config.c, tree_reuse=True,
                                seconds_per_move=config.seconds_per_move)

    # -- state ---------------------------------------------------------------------------------------------------
    def _initial_state(self) -> _RunState:
        cfg = self.config
        if cfg.initial_policy:
            policy = load_policy(cfg.initial_policy)
            if (policy.game, policy.size) != (cfg.game, cfg.size):
                raise ValueError(f"initial_policy {cfg.initial_policy} is for {policy.game} {policy.size}")
            features, theta = list(policy.features), policy.weights
        else:
            feature_set = initial_feature_set(self.game)
            features, theta = [f.to_text() for f in feature_set.features], np.zeros(len(feature_set))
        seed = (cfg.seed, int(cfg.run_id, 16))
        return _RunState(features, theta, ExperienceBuffer(cfg.buffer_capacity, seed=(*seed, 1)),
                         np.random.default_rng((*seed, 2)), make_rng(cfg.seed, int(cfg.run_id, 16)))

    def _load(self) -> _RunState:
        if self.progress_path.exists():
            with open(self.progress_path, "rb") as fh:
                return pickle.load(fh)
        return self._initial_state()

    def _save(self, run_state: _RunState) -> None:
        self.progress_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.progress_path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            pickle.dump(run_state, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(self.progress_path)

    def _feature_set(self, features) -> FeatureSet:
        graph = self.game.module.board_graph(self.game.spec)
        return FeatureSet.from_text("\n".join(features), graph)

    def _checkpoint(self, run_state: _RunState, feature_set: FeatureSet, games: int) -> None:
        cfg = self.config
        note = (f"self-play run {cfg.run_id}: {STRATEGY_TITLES.get(cfg.strategy, cfg.strategy)}, "
                f"{'grown' if cfg.grow else 'frozen set'}, after {games} games")
        policy = LinearPolicy.from_set(self.game, feature_set, run_state.theta, note)
        policy.save(self.policies_folder)
        run_state.checkpoints[games] = policy.content_hash

    # -- the run ------------------------------------------------------------------------------------------------
    def run(self, on_game=None) -> dict:
        cfg = self.config
        rs = self._load()
        feature_set = self._feature_set(rs.features)
        if 0 in cfg.checkpoints and 0 not in rs.checkpoints:
            self._checkpoint(rs, feature_set, 0)
        while rs.games_done < cfg.games:
            start = time.perf_counter()
            plies, winner = self._play_one(rs, feature_set)
            added = ""
            if cfg.grow:
                new = self._discover(rs, feature_set)
                if new is not None:
                    feature_set = feature_set.with_feature(new)
                    rs.features.append(new.to_text())
                    rs.theta = grow(rs.theta)
                    rs.buffer.transform(lambda s: _sample(feature_set, self.game, s.state, s.moves, s.pi))
                    added = new.to_text()
            rs.games_done += 1
            rs.game_log.append({"game": rs.games_done, "plies": plies, "winner": winner,
                                "features": len(feature_set), "added": added,
                                "seconds": round(time.perf_counter() - start, 3)})
            if rs.games_done in cfg.checkpoints:
                self._checkpoint(rs, feature_set, rs.games_done)
            self._save(rs)
            if rs.games_done in cfg.checkpoints and rs.games_done < cfg.games:
                self.write_record(rs)
            if on_game is not None:
                on_game(rs.games_done)
        return self.record(rs)

    def _play_one(self, rs: _RunState, feature_set: FeatureSet) -> tuple[int, int]:
        cfg, game = self.config, self.game
        searchers = [Searcher(game, self.agent), Searcher(game, self.agent)]
        for s in searchers:
            s.use_policy(feature_set, rs.theta)
        state = game.initial_state()
        plies = 0
        while not game.is_over(state):
            result = searchers[int(state[H_TO_MOVE])].search(state, rs.search_rng)
            total = result.visits.sum()
            if total <= 0:
                raise RuntimeError("the search visited no root move")
            pi = result.visits / total
            choice = int(rs.np_rng.choice(pi.size, p=pi))
            rs.buffer.add(_sample(feature_set, game, state, result.moves, pi))
            batch = rs.buffer.sample(cfg.batch_size)
            if batch:
                rs.theta[:] = sgd_step(rs.theta, batch, cfg.step_size, cfg.l2)  # in place: the searchers read it
            game.module.play(game.spec, state, int(result.moves[choice]))
            plies += 1
        return plies, int(state[H_WINNER])

    def _discover(self, rs: _RunState, feature_set: FeatureSet):
        batch = rs.buffer.sample(self.config.discovery_batch_size)
        if not batch:
            return None
        module, spec = self.game.module, self.game.spec
        combine = InstanceCombiner(feature_set)
        # Ludii's cap on the instances of a state-action pair (0: none), applied before any strategy pairs them.
        cap, weight = self.config.max_instances, np.abs(rs.theta)
        batch = [Sample(s.indptr, s.indices, s.moves, s.pi, s.mover, state=s.state, n_features=s.n_features,
                        instances=_instances(feature_set, combine.refs, module, spec, s.state, s.moves, cap, weight))
                 for s in batch]
        probs = [probabilities(rs.theta, s) for s in batch]
        key = discover(self.config.strategy, batch, probs, rs.theta, rs.np_rng, combine, combine.is_known)
        return None if key is None else combine.features[key]

    def write_record(self, rs: _RunState) -> None:
        """The record so far, to ``records_folder`` (if given), atomically."""
        if self.records_folder is None:
            return
        self.records_folder.mkdir(parents=True, exist_ok=True)
        path = self.records_folder / f"{self.config.run_id}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.record(rs), indent=1, sort_keys=True) + "\n")
        tmp.replace(path)

    def record(self, rs: _RunState | None = None) -> dict:
        rs = self._load() if rs is None else rs
        return {"run_id": self.config.run_id, "config": self.config.as_dict(), "games_done": rs.games_done,
                "checkpoints": {str(k): v for k, v in sorted(rs.checkpoints.items())}, "games": rs.game_log,
                "final_features": len(rs.features)}


def prune(policy: LinearPolicy, keep: int = 15) -> LinearPolicy:
    """The ``keep`` features of largest |theta| with their weights (paper, V-C), in their original order; ties
    keep the earlier feature."""
    theta = policy.weights
    order = sorted(range(theta.size), key=lambda i: (-abs(theta[i]), i))[:keep]
    kept = sorted(order)
    return LinearPolicy(policy.game, policy.size, tuple(policy.features[i] for i in kept),
                        tuple(theta[i] for i in kept), policy.game_options,
                        f"the {keep} features of largest |theta| of policy {policy.content_hash}")


def run_self_play_job(configs: list[SelfPlayConfig], progress_folder: str, policies_folder: str,
                      records_folder: str | None = None) -> list[dict]:
    """Executor job: run each config (resuming) and return their records (partial records written to
    ``records_folder`` at each checkpoint before the last)."""
    return [SelfPlayRun(c, Path(progress_folder), Path(policies_folder), records_folder).run() for c in configs]


__all__ = ["SelfPlayConfig", "SelfPlayRun", "STRATEGY_TITLES", "move_kind", "initial_feature_set", "prune",
           "run_self_play_job"]
