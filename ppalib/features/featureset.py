"""A feature set on one board graph: its instances, a plain-Python reference matcher, and the flat arrays the
compiled matcher (``ppalib.features.matcher``) reads."""
from __future__ import annotations

from functools import cached_property

import numpy as np

from ..games.graph import BoardGraph
from .compile import CompiledFeatures, compile_instances
from .feature import Feature
from .instances import Instance, instantiate



class DuplicateFeature(ValueError):
    """The feature (or one equal to it under rotation / reflection) is already in the set."""


def owner_relative(graph_cells, owners, mover: int) -> np.ndarray:
    """int8[cells] with 0 for an empty cell, 1 for the mover's piece and 2 for the opponent's, from ``owners``
    (per cell: -1 empty, else the owning player 0 / 1, as ``cell_owner`` gives them).  ``graph_cells``: the number
    of cells or the ``BoardGraph``."""
    cells = graph_cells.cells if isinstance(graph_cells, BoardGraph) else int(graph_cells)
    owners = np.asarray(owners)[:cells]
    if owners.shape[0] != cells:
        raise ValueError(f"owners has {owners.shape[0]} entries for {cells} cells")
    rel = np.where(owners < 0, 0, np.where(owners == mover, 1, 2)).astype(np.int8)
    return rel


def state_owner_relative(module, spec, state, graph: BoardGraph) -> np.ndarray:
    """``owner_relative`` of a game position, read with the game module's ``cell_owner`` (for the player to move,
    ``state[H_TO_MOVE]``).  Python-speed: for tests and analysis, not for the search."""
    from ..games._common import H_TO_MOVE
    owners = np.array([module.cell_owner(spec, state, c) for c in range(graph.cells)], dtype=np.int64)
    return owner_relative(graph.cells, owners, int(state[H_TO_MOVE]))


def state_move_cells(module, spec, state, moves) -> tuple[np.ndarray, np.ndarray]:
    """(from cells, to cells) of ``moves`` in a game position, as the matcher takes them (int64 arrays; -1 for no
    cell), read with the game module's ``move_from`` / ``move_to``.  Python-speed, like ``state_owner_relative``."""
    moves_from = np.array([module.move_from(spec, state, m) for m in moves], dtype=np.int64)
    moves_to = np.array([module.move_to(spec, state, m) for m in moves], dtype=np.int64)
    return moves_from, moves_to


class FeatureSet:
    """Features (a tuple, the index of a feature is its weight's index) instantiated on ``graph``.

    ``mover`` is needed only if some feature has a ``player`` element (its instances then serve that player
    only).  ``cache_size``: slots a bank of the compiled matcher's cache of bucket sums (a power of two; 0 turns
    the cache off; see ``ppalib.features.matcher``).  A million by default: a search revisits a bucket's
    footprint often, and at the paper's set sizes a larger cache kept speeding Biased MCTS up (Hex 7x7, 221
    features: 4.5x UCT's CPU time at 2^15 slots, 3.2x at 2^20); 16 MB a bank, touched as it fills.  On boards of at
    most 256 cells a set whose buckets are mostly not *whole* (``matcher``; from-to buckets never are) gets at most
    ``compile.PARTIAL_CACHE_SIZE`` (2^15) slots, faster there.
    Adding a feature (``with_feature``) returns a new set that reuses the instances already built."""

    def __init__(self, features, graph: BoardGraph, mover: int | None = None, cache_size: int = 1 << 20,
                 _instances=None):
        features = tuple(features)
        for f in features:
            if not isinstance(f, Feature):
                raise TypeError(f"a FeatureSet holds Feature objects, got {f!r}")
        if len(set(features)) != len(features):
            seen = set()
            dup = next(f for f in features if f in seen or seen.add(f))
            raise DuplicateFeature(f"feature {dup} is given twice")
        if mover not in (None, 0, 1):
            raise ValueError(f"mover must be None, 0 or 1, got {mover!r}")
        if cache_size < 0 or (cache_size & (cache_size - 1)) != 0:
            raise ValueError(f"cache_size must be 0 or a power of two, got {cache_size!r}")
        self.cache_size = int(cache_size)
        self.features = features
        self.graph = graph
        self.mover = mover
        self._index = {f: i for i, f in enumerate(features)}
        if _instances is None:
            _instances = [instantiate(f, i, graph, mover) for i, f in enumerate(features)]
        self._per_feature = _instances

    # ---- the set ---------------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.features)

    def __iter__(self):
        return iter(self.features)

    def __getitem__(self, i) -> Feature:
        return self.features[i]

    def __repr__(self) -> str:
        return f"FeatureSet({len(self.features)} features, {len(self.instances)} instances, {self.graph.cells} cells)"

    def contains_equivalent(self, feature: Feature) -> bool:
        """True if the set holds ``feature`` or a rotation / reflection of it (features are canonical)."""
        return feature in self._index

    def index(self, feature: Feature) -> int:
        return self._index[feature]

    def with_feature(self, feature: Feature) -> "FeatureSet":
        """A new set with ``feature`` appended (index ``len(self)``; its weight starts wherever the caller puts
        it, Ludii uses 0).  Raises ``DuplicateFeature`` if the set already holds it or an equivalent."""
        if self.contains_equivalent(feature):
            raise DuplicateFeature(f"{feature} is already feature {self._index[feature]} of the set")
        new = instantiate(feature, len(self.features), self.graph, self.mover)
        return FeatureSet(self.features + (feature,), self.graph, self.mover, self.cache_size,
                          self._per_feature + [new])

    def subset(self, indices) -> "FeatureSet":
        """The features ``indices`` (in that order, renumbered 0..k-1): pruning keeps the largest |weights|."""
        indices = [int(i) for i in indices]
        instances = [[_renumber(inst, k) for inst in self._per_feature[i]] for k, i in enumerate(indices)]
        return FeatureSet([self.features[i] for i in indices], self.graph, self.mover, self.cache_size, instances)

    def to_text(self) -> str:
        """One feature a line, in index order (``from_text`` reads it back)."""
        return "".join(f.to_text() + "\n" for f in self.features)

    @classmethod
    def from_text(cls, text: str, graph: BoardGraph, mover: int | None = None) -> "FeatureSet":
        """One feature a line (blank lines skipped); an unreadable line is refused naming its number and text."""
        if not isinstance(text, str):
            raise ValueError(f"FeatureSet.from_text reads text (one feature a line), got {text!r}")
        features = []
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    features.append(Feature.from_text(line))
                except ValueError as error:
                    raise type(error)(f"line {number} ({line.strip()!r}): {error}") from None
        return cls(features, graph, mover)

    @cached_property
    def instances(self) -> list[Instance]:
        """Every instance, grouped by feature in index order."""
        return [inst for group in self._per_feature for inst in group]

    def instances_of(self, feature_index: int) -> list[Instance]:
        return self._per_feature[feature_index]

    # ---- reference matcher (plain Python) ------------------------------------------------------------------
    def active(self, owner_rel, from_cell: int, to_cell: int) -> np.ndarray:
        """bool[features]: phi(state, move) by trying every instance (the reference the compiled matcher is tested
        against; slow)."""
        out = np.zeros(len(self.features), dtype=bool)
        for inst in self.instances:
            if not out[inst.feature] and inst.matches(owner_rel, int(from_cell), int(to_cell)):
                out[inst.feature] = True
        return out

    def active_instances(self, owner_rel, from_cell: int, to_cell: int) -> list[int]:
        """Indices (in ``instances``) of every instance that fires for the move (reference, slow)."""
        return [i for i, inst in enumerate(self.instances) if inst.matches(owner_rel, int(from_cell), int(to_cell))]

    # ---- compiled matcher ------------------------------------------------------------------------------------
    @cached_property
    def compiled(self) -> CompiledFeatures:
        return compile_instances(self._per_feature, self.graph.cells, self.cache_size)

    def clear_cache(self) -> None:
        """Forget the compiled matcher's banks (never needed for correctness: new weights take over a bank)."""
        if "compiled" in self.__dict__:
            from .matcher import clear_cache
            clear_cache(*self.compiled)

    def logits(self, theta, owner_rel, moves_from, moves_to) -> np.ndarray:
        """float64[n]: theta . phi(state, move) for each move, by the compiled matcher."""
        from .matcher import move_logits
        theta = np.ascontiguousarray(theta, dtype=np.float64)
        if theta.shape != (len(self.features),):
            raise ValueError(f"theta has shape {theta.shape}, expected ({len(self.features)},)")
        moves_from = np.ascontiguousarray(moves_from, dtype=np.int64)
        moves_to = np.ascontiguousarray(moves_to, dtype=np.int64)
        owner_rel = np.ascontiguousarray(owner_rel, dtype=np.int8)
        out = np.empty(moves_to.shape[0], dtype=np.float64)
        move_logits(*self.compiled, theta, owner_rel, moves_from, moves_to, moves_to.shape[0], out)
        return out

    def active_compiled(self, owner_rel, from_cell: int, to_cell: int) -> np.ndarray:
        """bool[features]: phi(state, move) by the compiled matcher."""
        from .matcher import active_features
        buf = np.empty(max(1, len(self.features)), dtype=np.int64)
        count = active_features(*self.compiled, np.ascontiguousarray(owner_rel, dtype=np.int8), int(from_cell),
                                int(to_cell), buf)
        out = np.zeros(len(self.features), dtype=bool)
        out[buf[:count]] = True
        return out

    def active_instances_compiled(self, owner_rel, from_cell: int, to_cell: int) -> np.ndarray:
        """int64 indices (in ``instances``, ascending) of every instance that fires, by the compiled matcher."""
        from .matcher import active_instance_ids
        buf = np.empty(max(1, len(self.instances)), dtype=np.int64)
        count = active_instance_ids(*self.compiled, np.ascontiguousarray(owner_rel, dtype=np.int8), int(from_cell),
                                    int(to_cell), buf)
        return np.sort(buf[:count])


def _renumber(inst: Instance, feature: int) -> Instance:
    return Instance(feature, inst.anchor, inst.rotation, inst.reflection, inst.to_cell, inst.from_cell, inst.tests)
