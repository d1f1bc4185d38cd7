"""The apprentice of seed 003 (Soemers, Piette & Browne 2019, section III): a linear softmax policy over features.

Feature matrix of one state
---------------------------
phi(s, a) is a binary vector (paper, III-B: a feature active through several instances still counts 1).  For the
legal moves a_0 .. a_{A-1} of a state we keep only the active indices, row by row, in CSR form:

* ``indptr``: int64[A + 1], ``indptr[0] == 0``, non-decreasing, ``indptr[A] == len(indices)``;
* ``indices``: int64, row ``k`` is ``indices[indptr[k]:indptr[k + 1]]``: the features active for move ``a_k``,
  sorted and without repeats (so that the row is a set; :func:`csr` builds it from any rows).

Every function here takes any object with those two attributes (``Sample`` of :mod:`.buffer`, or
:class:`Rows` for a state that is only being searched), and, for the loss, a ``pi`` attribute: the target
distribution over the same moves (float64[A], the expert's visit counts over their total).

Formulas (the paper's, written out as implemented)
--------------------------------------------------
(1)-(2)  f(s, a) = theta . phi(s, a);  p(s, a_i) = exp f(s, a_i) / sum_k exp f(s, a_k) over the legal moves,
         computed with the maximum logit subtracted first (and log p as f - max - log sum exp(f - max)).
(5)      L(s) = -pi(s) . log p(s) + (lambda / 2) ||theta||^2.
         For a batch B we minimise the mean of (5) over B: mean_B[-pi . log p] + (lambda / 2) ||theta||^2 (the
         L2 term is the same for every sample, so the mean keeps it once).
         Its gradient: mean_B[ sum_a (p(s, a) - pi(s, a)) phi(s, a) ] + lambda theta.
(6)      theta <- theta - alpha sum_a (p(s, a) - pi(s, a)) phi(s, a) - alpha lambda theta,
         with the sum averaged over the batch (section V-A: "Gradients are computed and averaged across a batch
         of size 20"); i.e. one plain gradient step of size alpha on the batch loss above.  Defaults: alpha =
         0.05, lambda = 1e-6 (section V-A).

Where Ludii's public code differs (not used here; see the seed 003 brief, section 2.1)
--------------------------------------------------------------------------------------
* the optimiser defaults to RMSProp; plain SGD with 0.05 is an option there;
* the 2020 ExpertIteration has no L2 term; later versions apply *decoupled* weight decay after the step,
  theta <- theta - lambda theta (not multiplied by the step size), instead of the gradient of (5);
* one weight vector (and one feature set) per player; the paper has one.
* batches are drawn with replacement and one batch size (30) serves both SGD and discovery.

New features start with weight 0 (:func:`grow`), as in Ludii.  The greedy agent of the paper's Fig. 6 plays
:func:`greedy`, the argmax of p.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

__all__ = [
    "Rows",
    "csr",
    "logits",
    "probabilities",
    "log_probabilities",
    "loss",
    "gradient",
    "sgd_step",
    "grow",
    "greedy",
]


def csr(rows: Iterable[Iterable[int]]) -> tuple[np.ndarray, np.ndarray]:
    """``(indptr, indices)`` of the active-feature rows (one iterable of feature indices per legal move).

    Each row is made a sorted set: a feature active through several instances is one 1 in phi."""
    rows = [np.unique(np.asarray(list(r), dtype=np.int64)) for r in rows]
    if not rows:
        raise ValueError("a state needs at least one legal move")
    if any(r.size and r[0] < 0 for r in rows):
        raise ValueError("feature indices must be >= 0")
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([r.size for r in rows], out=indptr[1:])
    indices = np.concatenate(rows) if indptr[-1] else np.zeros(0, dtype=np.int64)
    return indptr, indices


def check_csr(indptr: np.ndarray, indices: np.ndarray) -> None:
    """Raise ``ValueError`` unless ``(indptr, indices)`` is a valid feature matrix (see the module docstring)."""
    if indptr.ndim != 1 or indices.ndim != 1 or indptr.size < 2:
        raise ValueError("indptr must be 1-d with at least 2 entries (one legal move), indices 1-d")
    if indptr[0] != 0 or indptr[-1] != indices.size or np.any(np.diff(indptr) < 0):
        raise ValueError("indptr must start at 0, not decrease, and end at len(indices)")
    if indices.size and indices.min() < 0:
        raise ValueError("feature indices must be >= 0")
    # Strictly increasing inside every row (rows are sets).
    step = np.diff(indices)
    row_start = np.zeros(indices.size, dtype=bool)
    row_start[indptr[:-1][indptr[:-1] < indices.size]] = True
    if np.any((step <= 0) & ~row_start[1:]):
        raise ValueError("each row of indices must be sorted and without repeats")


@dataclass(frozen=True, eq=False)
class Rows:
    """The feature matrix of one state without a target (e.g. to compute priors in the search)."""

    indptr: np.ndarray
    indices: np.ndarray

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int]]) -> "Rows":
        return cls(*csr(rows))

    def __post_init__(self):
        indptr = np.array(self.indptr, dtype=np.int64)
        indices = np.array(self.indices, dtype=np.int64)
        check_csr(indptr, indices)
        indptr.flags.writeable = False
        indices.flags.writeable = False
        object.__setattr__(self, "indptr", indptr)
        object.__setattr__(self, "indices", indices)

    @property
    def num_moves(self) -> int:
        return self.indptr.size - 1


def _row_ids(indptr: np.ndarray) -> np.ndarray:
    """The row (move) of every stored entry."""
    return np.repeat(np.arange(indptr.size - 1), np.diff(indptr))


def logits(theta: np.ndarray, sample) -> np.ndarray:
    """f(s, a) = theta . phi(s, a) for every legal move (float64[A]), equation (1)."""
    theta = np.asarray(theta, dtype=np.float64)
    if sample.indices.size and sample.indices.max() >= theta.size:
        raise ValueError(f"feature index {sample.indices.max()} outside theta (length {theta.size})")
    moves = sample.indptr.size - 1
    return np.bincount(_row_ids(sample.indptr), weights=theta[sample.indices], minlength=moves)


def log_probabilities(theta: np.ndarray, sample) -> np.ndarray:
    """log p(s, .) (float64[A]), stable for any logits: f - max f - log sum exp(f - max f)."""
    f = logits(theta, sample)
    f = f - f.max()
    return f - np.log(np.exp(f).sum())


def probabilities(theta: np.ndarray, sample) -> np.ndarray:
    """p(s, .) = softmax over the legal moves, equation (2) (float64[A], sums to 1)."""
    f = logits(theta, sample)
    z = np.exp(f - f.max())
    return z / z.sum()


def greedy(theta: np.ndarray, sample) -> int:
    """Index (into the legal moves) of the move maximising p; the first one on ties."""
    return int(np.argmax(logits(theta, sample)))


def _batch(batch) -> Sequence:
    batch = list(batch)
    if not batch:
        raise ValueError("empty batch")
    return batch


def _pi(sample) -> np.ndarray:
    pi = np.asarray(sample.pi, dtype=np.float64)
    if pi.shape != (sample.indptr.size - 1,):
        raise ValueError(f"pi has shape {pi.shape}, expected ({sample.indptr.size - 1},)")
    return pi


def loss(theta: np.ndarray, batch, l2: float = 1e-6) -> float:
    """Mean over the batch of equation (5): -pi . log p + (l2 / 2) ||theta||^2.

    Terms with pi(s, a) = 0 contribute 0 (also when p(s, a) underflows)."""
    theta = np.asarray(theta, dtype=np.float64)
    batch = _batch(batch)
    total = 0.0
    for s in batch:
        pi = _pi(s)
        logp = log_probabilities(theta, s)
        total -= float(np.dot(pi[pi > 0], logp[pi > 0]))
    return total / len(batch) + 0.5 * l2 * float(np.dot(theta, theta))


def gradient(theta: np.ndarray, batch, l2: float = 1e-6) -> np.ndarray:
    """Gradient of :func:`loss` in theta: mean_B[sum_a (p - pi)(s, a) phi(s, a)] + l2 theta (float64[F])."""
    theta = np.asarray(theta, dtype=np.float64)
    batch = _batch(batch)
    g = np.zeros(theta.size)
    for s in batch:
        err = probabilities(theta, s) - _pi(s)
        g += np.bincount(s.indices, weights=err[_row_ids(s.indptr)], minlength=theta.size)
    return g / len(batch) + l2 * theta


def sgd_step(theta: np.ndarray, batch, step: float = 0.05, l2: float = 1e-6) -> np.ndarray:
    """Equation (6) on a batch: a new theta = theta - step * gradient(theta, batch, l2) (theta is not changed)."""
    theta = np.asarray(theta, dtype=np.float64)
    return theta - step * gradient(theta, batch, l2)


def grow(theta: np.ndarray, n_new: int = 1) -> np.ndarray:
    """theta with ``n_new`` features appended, each with weight 0 (a new array)."""
    if n_new < 0:
        raise ValueError("n_new must be >= 0")
    return np.concatenate([np.asarray(theta, dtype=np.float64), np.zeros(n_new)])
