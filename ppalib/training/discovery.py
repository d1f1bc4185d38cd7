"""Growing the feature set during self-play (seed 003, sections IV-B and V-A): four discovery strategies.

Each strategy looks at a batch of experience (30 samples in the paper) and proposes one new feature, made by
combining two feature instances that are active together for some state-action pair, or returns ``None``.

Protocol (what the strategies need from the features package)
-------------------------------------------------------------
* ``sample.instances[k]``: the feature instances active for legal move ``k`` of ``sample`` (any objects with
  ``.feature``, the int index of their feature in the current feature set; ``.anchor`` is read only with
  ``same_anchor=True``; ``.reflection``, ``.rotation`` and ``.anchor`` are read, when present, by the default
  :func:`instance_order`);
* ``combine(a, b) -> Hashable | None``: the new feature made from instances ``a`` and ``b`` (``None``: they cannot
  be combined).  It must return a canonical value: two pairs giving the same feature must give equal, equally
  hashed values, because the candidate is keyed by it.  We always call it with ``order(a) <= order(b)``, so one
  unordered pair gives one key even for an asymmetric ``combine``;
* ``is_known(feature) -> bool``: the feature is already in the set (up to the set's equivalences).

With ``ppalib.features`` the adapter is one line::

    combine, is_known = (lambda a, b: combine_instances(a, b, fs.features, fs.graph)), fs.contains_equivalent

Calls to ``combine`` and ``is_known`` are memoised within one strategy call (when the instances are hashable), but
the correlation-based and Add Random strategies still combine every co-active pair of the batch once.

Cases and errors
----------------
A *case* is one (sample, legal move) pair of the batch, in batch order then move order; n is their number.  Its
error is e = p(s, a) - pi(s, a), with ``probs[i]`` = p(s_i, .) from the current theta (``policy.probabilities``).

Correlation-based (paper, IV-B and formula (7); counts as in Ludii's 2020 expander, brief 1.10)
-------------------------------------------------------------------------------------------------
For each case, every pair of its active instances (i < j in list order) gives a candidate key
k = combine(a, b); a key is counted at most once per case (different pairs giving the same feature are one
candidate).  Over the batch:

    C_f(k) = #cases where k is active            C_e(k) = sum of e over those cases
    X(f)   = #cases where feature f is active (at least one active instance of f, once per case)
    J(k,f) = #cases where k and feature f are both active
    S = sum e,  SS = sum e^2   (over all n cases)

The constituents of k are the features (f_i, f_j) of the first pair that produced it.  With Pearson's r over the
n cases (indicator vectors against e, and against each other):

    r_err(k) = (n C_e - C_f S) / ( sqrt(C_f (n - C_f)) sqrt(n SS - S^2) )
    r_i(k)   = (n J(k,f_i) - C_f X(f_i)) / ( sqrt(C_f (n - C_f)) sqrt(X(f_i) (n - X(f_i))) ),  r_j likewise
    (7)  score(k) = |r_err(k)| * (1 - max(|r_i(k)|, |r_j(k)|))

Since a combined feature is active only where both constituents are, J = C_f and r_i = C_f (n - X) / (...), Ludii's
form; we keep J so that the score stays an exact Pearson correlation even if two different constituent pairs give
the same feature.  Skipped keys: C_f = n, X(f_i) = n or X(f_j) = n (a constant indicator: r undefined), a NaN
score.  The key with the largest score is returned (ties: the first key met); if ``is_known`` says it exists, the
next best, and so on.  ``None`` when no key is left, or when all errors are zero (SS = 0; then r_err is undefined).

Deliberate deviation: Ludii also refuses to add a feature when S == 0.  But sum_a p(s, a) = sum_a pi(s, a) = 1 for
every sample, so S = 0 in exact arithmetic for every batch; the test only fires when rounding happens to give
exactly 0.0 (e.g. errors of +-0.25), which says nothing about the batch, so we test SS (and n SS - S^2 > 0) only.

``max_instances`` (default ``None``: no cap, as in the paper, which has none) keeps, per case, only the instances
whose features have the largest |theta| (a stable sort: ties keep list order), as Ludii does with 75 (2020) or 60
(2023) to bound the quadratic number of pairs.  X counts the kept instances only (as Ludii's self-pairs do).

The three simpler strategies (paper, V-A; where it is silent: the brief's recommendation, 1.11)
------------------------------------------------------------------------------------------------
* Add Random: "randomly selects pairs of simultaneously activated feature instances to combine": uniform over
  the distinct candidate keys of the whole batch (pairs giving the same feature are one candidate, as above).
* Combine Random: at the case with the largest |e| (ties: the first in batch order), a uniformly random pair of
  the instances active there.
* Combine Max: at that case, the instance whose feature has the largest |theta| (ties: uniformly at random) and a
  uniformly random other instance active there.
Fallbacks (the paper is silent): a pair giving ``None`` or a known feature is replaced by the next draw from the
same random order (Add Random: the next key; Combine Random: the next pair; Combine Max: the next partner, then
the next instance by |theta|); when a case has no new feature, the case with the next largest |e|.  Only cases
with |e| > 0 count for Combine Random and Combine Max, so they return ``None`` when all errors are zero.

``same_anchor`` (default ``False``, the paper) restricts every strategy to pairs whose instances share their
anchor, as the legacy Ludii ``createExpandedFeatureSet`` (the remnant of Combine Random/Max) does.

Every strategy is deterministic given the state of ``rng`` (a ``numpy.random.Generator``; the correlation-based
one does not draw from it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

import numpy as np

__all__ = [
    "instance_order",
    "CorrelationTable",
    "correlation_scores",
    "correlation_based",
    "add_random",
    "combine_random",
    "combine_max",
    "STRATEGIES",
    "discover",
]

Combine = Callable[[Any, Any], "Hashable | None"]
IsKnown = Callable[[Hashable], bool]


def instance_order(inst) -> tuple:
    """The order in which a pair is handed to ``combine``: feature index, then reflection descending, rotation
    ascending, anchor ascending (Ludii's order; missing attributes count as 0)."""
    return (inst.feature, -getattr(inst, "reflection", 0), getattr(inst, "rotation", 0), getattr(inst, "anchor", 0))


class _Combiner:
    """``combine`` on the ordered pair, memoised when the instances are hashable."""

    def __init__(self, combine: Combine, order: Callable[[Any], Any]):
        self.combine = combine
        self.order = order
        self.memo: dict = {}

    def pair(self, a, b) -> tuple:
        return (b, a) if self.order(b) < self.order(a) else (a, b)

    def __call__(self, a, b):
        a, b = self.pair(a, b)
        try:
            return self.memo[(a, b)]
        except KeyError:
            key = self.memo[(a, b)] = self.combine(a, b)
            return key
        except TypeError:  # unhashable instances
            return self.combine(a, b)


class _Known:
    """``is_known`` memoised by key."""

    def __init__(self, is_known: IsKnown):
        self.is_known = is_known
        self.memo: dict = {}

    def __call__(self, key) -> bool:
        if key not in self.memo:
            self.memo[key] = bool(self.is_known(key))
        return self.memo[key]


def _cases(batch: Sequence, probs: Sequence) -> tuple[list, np.ndarray]:
    """(instances per case, errors e = p - pi per case), cases in batch order then move order."""
    if len(batch) != len(probs):
        raise ValueError(f"{len(batch)} samples but {len(probs)} probability vectors")
    instances, errors = [], []
    for s, p in zip(batch, probs):
        p = np.asarray(p, dtype=np.float64)
        pi = np.asarray(s.pi, dtype=np.float64)
        if p.shape != pi.shape:
            raise ValueError(f"p has shape {p.shape} but pi {pi.shape}")
        if s.instances is None or len(s.instances) != pi.size:
            raise ValueError("every sample needs its active instances, one sequence per legal move")
        instances.extend(list(m) for m in s.instances)
        errors.append(p - pi)
    return instances, (np.concatenate(errors) if errors else np.zeros(0))


def _pairs(insts: Sequence, same_anchor: bool) -> list[tuple[int, int]]:
    m = len(insts)
    return [(i, j) for i in range(m) for j in range(i + 1, m) if not same_anchor or insts[i].anchor == insts[j].anchor]


def _by_error(errors: np.ndarray) -> np.ndarray:
    """Cases with |e| > 0, largest |e| first (ties: batch order)."""
    order = np.argsort(-np.abs(errors), kind="stable")
    return order[np.abs(errors[order]) > 0]


@dataclass(frozen=True, eq=False)
class CorrelationTable:
    """Every candidate of the correlation-based strategy with its counts and score (arrays indexed by key)."""

    n: int  # number of cases
    S: float  # sum of errors
    SS: float  # sum of squared errors
    keys: list  # candidate features, in the order first met
    pairs: list  # for each key, the first (ordered) instance pair that gave it
    constituents: np.ndarray  # int64[K, 2]: the features of that pair
    count: np.ndarray  # C_f, float64[K]
    error_sum: np.ndarray  # C_e
    constituent_count: np.ndarray  # X, float64[K, 2]
    joint_count: np.ndarray  # J, float64[K, 2]
    r_err: np.ndarray
    r_constituent: np.ndarray  # float64[K, 2]: r_i, r_j
    score: np.ndarray  # formula (7); NaN for skipped keys
    degenerate: bool  # all errors zero: no correlation with the errors exists

    def ranking(self) -> np.ndarray:
        """Indices of the scored keys, best first (ties: the key met first)."""
        ok = np.flatnonzero(~np.isnan(self.score))
        return ok[np.argsort(-self.score[ok], kind="stable")]


def correlation_scores(batch: Sequence, probs: Sequence, theta: np.ndarray, combine: Combine, *,
                       max_instances: int | None = None, same_anchor: bool = False,
                       order: Callable[[Any], Any] = instance_order) -> CorrelationTable:
    """The table behind :func:`correlation_based` (formula (7), see the module docstring)."""
    theta = np.asarray(theta, dtype=np.float64)
    combiner = _Combiner(combine, order)
    instances, errors = _cases(batch, probs)
    n = errors.size
    S, SS = float(errors.sum()), float(np.dot(errors, errors))

    index: dict = {}
    keys, pairs, constituents, cases_of = [], [], [], []
    count, error_sum = [], []
    feature_count: dict[int, int] = {}
    case_features: list[set] = []
    for c, insts in enumerate(instances):
        if max_instances is not None and len(insts) > max_instances:
            keep = sorted(range(len(insts)), key=lambda k: -abs(theta[insts[k].feature]))[:max_instances]
            insts = [insts[k] for k in keep]
        feats = {inst.feature for inst in insts}
        case_features.append(feats)
        for f in feats:
            feature_count[f] = feature_count.get(f, 0) + 1
        seen = set()
        e = float(errors[c])
        for i, j in _pairs(insts, same_anchor):
            key = combiner(insts[i], insts[j])
            if key is None or key in seen:
                continue
            seen.add(key)
            k = index.get(key)
            if k is None:
                k = index[key] = len(keys)
                a, b = combiner.pair(insts[i], insts[j])
                keys.append(key)
                pairs.append((a, b))
                constituents.append((a.feature, b.feature))
                cases_of.append([])
                count.append(0)
                error_sum.append(0.0)
            count[k] += 1
            error_sum[k] += e
            cases_of[k].append(c)

    K = len(keys)
    constituents = np.array(constituents, dtype=np.int64).reshape(K, 2)
    count = np.array(count, dtype=np.float64)
    error_sum = np.array(error_sum, dtype=np.float64)
    x = np.array([[feature_count[f] for f in fs] for fs in constituents], dtype=np.float64).reshape(K, 2)
    joint = np.array([[sum(f in case_features[c] for c in cs) for f in fs]
                      for fs, cs in zip(constituents, cases_of)], dtype=np.float64).reshape(K, 2)

    var_e = n * SS - S * S
    degenerate = SS == 0.0 or not var_e > 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        sd_pair = np.sqrt(count * (n - count))
        r_err = (n * error_sum - count * S) / (sd_pair * np.sqrt(var_e if var_e > 0 else np.nan))
        r_con = (n * joint - count[:, None] * x) / (sd_pair[:, None] * np.sqrt(x * (n - x)))
        score = np.abs(r_err) * (1.0 - np.abs(r_con).max(axis=1, initial=0.0))
    skip = (count >= n) | (x >= n).any(axis=1) | ~np.isfinite(score)
    if degenerate:
        skip[:] = True
    score = np.where(skip, np.nan, score)
    return CorrelationTable(n, S, SS, keys, pairs, constituents, count, error_sum, x, joint, r_err, r_con, score,
                            degenerate)


def correlation_based(batch: Sequence, probs: Sequence, theta: np.ndarray, rng: np.random.Generator,
                      combine: Combine, is_known: IsKnown, *, max_instances: int | None = None,
                      same_anchor: bool = False, order: Callable[[Any], Any] = instance_order):
    """Correlation-based discovery (formula (7)): the best-scoring new feature, or ``None``; ``rng`` is unused."""
    table = correlation_scores(batch, probs, theta, combine, max_instances=max_instances, same_anchor=same_anchor,
                               order=order)
    known = _Known(is_known)
    for k in table.ranking():
        if not known(table.keys[k]):
            return table.keys[k]
    return None


def add_random(batch: Sequence, probs: Sequence, theta: np.ndarray, rng: np.random.Generator,
               combine: Combine, is_known: IsKnown, *, same_anchor: bool = False,
               order: Callable[[Any], Any] = instance_order):
    """Add Random: a uniformly random new feature among the combinations of co-active instance pairs."""
    combiner, known = _Combiner(combine, order), _Known(is_known)
    instances, _ = _cases(batch, probs)
    keys: dict = {}
    for insts in instances:
        for i, j in _pairs(insts, same_anchor):
            key = combiner(insts[i], insts[j])
            if key is not None:
                keys.setdefault(key, None)
    keys = list(keys)
    for k in rng.permutation(len(keys)):
        if not known(keys[k]):
            return keys[k]
    return None


def combine_random(batch: Sequence, probs: Sequence, theta: np.ndarray, rng: np.random.Generator,
                   combine: Combine, is_known: IsKnown, *, same_anchor: bool = False,
                   order: Callable[[Any], Any] = instance_order):
    """Combine Random: a random pair of the instances active at the case with the largest |p - pi|."""
    combiner, known = _Combiner(combine, order), _Known(is_known)
    instances, errors = _cases(batch, probs)
    for c in _by_error(errors):
        insts = instances[c]
        pairs = _pairs(insts, same_anchor)
        for t in rng.permutation(len(pairs)):
            i, j = pairs[t]
            key = combiner(insts[i], insts[j])
            if key is not None and not known(key):
                return key
    return None


def combine_max(batch: Sequence, probs: Sequence, theta: np.ndarray, rng: np.random.Generator,
                combine: Combine, is_known: IsKnown, *, same_anchor: bool = False,
                order: Callable[[Any], Any] = instance_order):
    """Combine Max: at the case with the largest |p - pi|, the instance with the largest |theta| and a random other."""
    theta = np.asarray(theta, dtype=np.float64)
    combiner, known = _Combiner(combine, order), _Known(is_known)
    instances, errors = _cases(batch, probs)
    for c in _by_error(errors):
        insts = instances[c]
        m = len(insts)
        if m < 2:
            continue
        w = np.abs(theta[[inst.feature for inst in insts]])
        perm = rng.permutation(m)
        for i in perm[np.argsort(-w[perm], kind="stable")]:
            partners = [j for j in range(m) if j != i and (not same_anchor or insts[j].anchor == insts[i].anchor)]
            for t in rng.permutation(len(partners)):
                key = combiner(insts[i], insts[partners[t]])
                if key is not None and not known(key):
                    return key
    return None


#: The paper's four strategies (section V-A) by name.
STRATEGIES: dict[str, Callable] = {
    "add_random": add_random,
    "combine_random": combine_random,
    "combine_max": combine_max,
    "correlation_based": correlation_based,
}


def discover(strategy: str, batch: Sequence, probs: Sequence, theta: np.ndarray, rng: np.random.Generator,
             combine: Combine, is_known: IsKnown, **options):
    """Run the named strategy (a key of :data:`STRATEGIES`) and return its new feature or ``None``."""
    try:
        fn = STRATEGIES[strategy]
    except KeyError:
        raise ValueError(f"unknown discovery strategy {strategy!r}; choose from {sorted(STRATEGIES)}") from None
    return fn(batch, probs, theta, rng, combine, is_known, **options)
