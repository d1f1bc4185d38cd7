"""Experience for expert iteration (seed 003, sections III-D, IV-B and V-A): samples and a FIFO buffer.

One :class:`Sample` is stored per move of self-play (paper, IV-B: "exactly one new sample of experience ... for
every game state encountered").  The buffer holds the newest ``capacity`` samples (200 in the paper); the oldest
drops out.  Batches are drawn with an explicit ``numpy.random.Generator`` seeded at construction:

* ``replace=False`` (the paper, IV-B: "sampled without replacement"): ``min(batch_size, len(buffer))`` distinct
  samples in random order.  **When the buffer holds fewer samples than the batch, the batch is all of them**
  (in random order); the paper does not say what happens then.
* ``replace=True`` (Ludii's ``sampleExperienceBatchUniformly``): ``batch_size`` uniform draws, repeats allowed.
* An empty buffer gives an empty batch; the caller skips the SGD step then (Ludii skips it too).

When the paper adds a sample (at once, per move) and when Ludii does (at the end of the game, shuffled, one buffer
per player) is the self-play driver's choice: :meth:`ExperienceBuffer.add` and :meth:`ExperienceBuffer.extend`
serve both.

A sample's feature matrix is fixed when it is made.  Features are only appended, so its indices stay valid after
the feature set grows, but a new feature is then missing from old samples; the driver can recompute them with
:meth:`ExperienceBuffer.transform` (``n_features`` records the feature-set size a sample was built with; ``state``
keeps whatever the driver needs to do so).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .policy import check_csr, csr

__all__ = ["Sample", "ExperienceBuffer"]

#: Tolerance on sum(pi) == 1.
PI_TOLERANCE = 1e-9


@dataclass(frozen=True, eq=False)
class Sample:
    """One tuple of experience <s, A(s), pi(s)> (paper IV-B) and what feature discovery needs.

    ``indptr``/``indices``: the active features of each legal move (CSR, see :mod:`.policy`);
    ``moves``: the legal moves (int64[A], in the order of the rows);
    ``pi``: the expert's target distribution over them (float64[A], >= 0, sums to 1);
    ``mover``: the player to move;
    ``instances``: opaque to the buffer; for discovery, a sequence with one entry per legal move, each a sequence of
    the feature instances active for that move (each exposing ``.feature``, the index of its feature);
    ``state``: opaque (e.g. the game state, to recompute features later);
    ``n_features``: the size of the feature set the rows were computed with (``None``: not recorded).
    """

    indptr: np.ndarray
    indices: np.ndarray
    moves: np.ndarray
    pi: np.ndarray
    mover: int
    instances: Any = None
    state: Any = None
    n_features: int | None = None

    def __post_init__(self):
        indptr = np.array(self.indptr, dtype=np.int64)
        indices = np.array(self.indices, dtype=np.int64)
        check_csr(indptr, indices)
        n = indptr.size - 1
        moves = np.array(self.moves, dtype=np.int64)
        pi = np.array(self.pi, dtype=np.float64)
        if moves.shape != (n,) or pi.shape != (n,):
            raise ValueError(f"moves {moves.shape} and pi {pi.shape} must both have one entry per row ({n})")
        if not np.all(np.isfinite(pi)) or pi.min() < 0 or abs(pi.sum() - 1.0) > PI_TOLERANCE:
            raise ValueError("pi must be a probability distribution (finite, >= 0, summing to 1)")
        if self.instances is not None and len(self.instances) != n:
            raise ValueError(f"instances has {len(self.instances)} entries, expected one per legal move ({n})")
        if self.n_features is not None and indices.size and indices.max() >= self.n_features:
            raise ValueError("a feature index is >= n_features")
        for name, arr in (("indptr", indptr), ("indices", indices), ("moves", moves), ("pi", pi)):
            arr.flags.writeable = False
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "mover", int(self.mover))

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int]], moves, pi, mover: int, **kw) -> "Sample":
        """A sample from one iterable of active feature indices per legal move."""
        indptr, indices = csr(rows)
        return cls(indptr, indices, moves, pi, mover, **kw)

    @classmethod
    def from_instances(cls, instances: Sequence[Sequence[Any]], moves, pi, mover: int, **kw) -> "Sample":
        """A sample whose rows are the features of the active instances (``inst.feature``), which it also keeps."""
        rows = [[inst.feature for inst in move_instances] for move_instances in instances]
        return cls.from_rows(rows, moves, pi, mover, instances=instances, **kw)

    @property
    def num_moves(self) -> int:
        return self.indptr.size - 1


class ExperienceBuffer:
    """FIFO experience buffer of at most ``capacity`` samples (paper: 200) with seeded batch sampling.

    ``seed``: anything ``numpy.random.default_rng`` accepts (an int, a sequence of ints such as
    ``(experiment_seed, player)``, a ``SeedSequence``); the same seed and the same calls give the same batches.
    """

    def __init__(self, capacity: int = 200, seed=0):
        if capacity < 1:
            raise ValueError("capacity must be >= 1")
        self.capacity = int(capacity)
        self.rng = np.random.default_rng(seed)
        self._samples: deque = deque(maxlen=self.capacity)

    def __len__(self) -> int:
        return len(self._samples)

    def __iter__(self) -> Iterator[Sample]:
        """The samples, oldest first."""
        return iter(self._samples)

    def __getitem__(self, i: int) -> Sample:
        """The ``i``-th oldest sample."""
        return self._samples[i]

    def add(self, sample: Sample) -> None:
        """Append a sample; the oldest one drops out when the buffer is full."""
        self._samples.append(sample)

    def extend(self, samples: Iterable[Sample]) -> None:
        """Append samples in order (e.g. a finished game's samples, for Ludii's add-at-game-end)."""
        for s in samples:
            self.add(s)

    def clear(self) -> None:
        self._samples.clear()

    def transform(self, fn: Callable[[Sample], Sample]) -> None:
        """Replace every sample by ``fn(sample)``, keeping the order (e.g. recompute features after growth)."""
        new = [fn(s) for s in self._samples]
        self._samples.clear()
        self._samples.extend(new)

    def sample(self, batch_size: int, replace: bool = False) -> list[Sample]:
        """A batch drawn with :attr:`rng` (see the module docstring for the small-buffer and empty cases)."""
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        items = list(self._samples)
        n = len(items)
        if n == 0:
            return []
        if replace:
            idx = self.rng.integers(0, n, size=batch_size)
        else:
            idx = self.rng.choice(n, size=min(batch_size, n), replace=False)
        return [items[int(i)] for i in idx]
