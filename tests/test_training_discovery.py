"""Feature discovery of seed 003 (ppalib.training.discovery) against a fake feature protocol.

Fake instances carry a feature index and an anchor; the fake ``combine`` gives the frozenset of the two feature
indices, so the candidate keys, their constituents and their activity can be recomputed directly."""
from dataclasses import dataclass

import numpy as np
import pytest
from scipy.stats import pearsonr

from ppalib.training import discovery
from ppalib.training.buffer import Sample
from ppalib.training.discovery import STRATEGIES, correlation_scores, discover


@dataclass(frozen=True)
class Inst:
    feature: int
    anchor: int = 0


def combine(a, b):
    return frozenset((a.feature, b.feature))


def never_known(feature):
    return False


def _sample(instances, pi):
    return Sample.from_instances(instances, np.arange(len(instances)), pi, mover=0)


def _random_batch(rng, n_samples=8, n_features=6, n_anchors=3):
    batch, probs = [], []
    for _ in range(n_samples):
        moves = int(rng.integers(2, 6))
        instances = [[Inst(int(rng.integers(n_features)), int(rng.integers(n_anchors)))
                      for _ in range(int(rng.integers(0, 5)))] for _ in range(moves)]
        batch.append(_sample(instances, rng.dirichlet(np.ones(moves))))
        probs.append(rng.dirichlet(np.ones(moves)))
    return batch, probs


def _direct_scores(batch, probs):
    """Formula (7) straight from the indicator vectors, with scipy's Pearson r."""
    cases = [(insts, p[k] - s.pi[k]) for s, p in zip(batch, probs) for k, insts in enumerate(s.instances)]
    errors = np.array([e for _, e in cases])
    keys = {combine(a, b) for insts, _ in cases for i, a in enumerate(insts) for b in insts[i + 1:]}
    scores = {}
    for key in keys:
        active = np.array([any(combine(a, b) == key for i, a in enumerate(insts) for b in insts[i + 1:])
                           for insts, _ in cases], dtype=float)
        fi, fj = (min(key), max(key))
        with_i = np.array([any(x.feature == fi for x in insts) for insts, _ in cases], dtype=float)
        with_j = np.array([any(x.feature == fj for x in insts) for insts, _ in cases], dtype=float)
        if active.all() or with_i.all() or with_j.all():
            continue  # a constant indicator: skipped
        r_err = pearsonr(active, errors).statistic
        r_max = max(abs(pearsonr(active, with_i).statistic), abs(pearsonr(active, with_j).statistic))
        scores[key] = abs(r_err) * (1 - r_max)
    return scores


@pytest.mark.parametrize("seed", range(6))
def test_correlation_score_equals_direct_computation(seed):
    rng = np.random.default_rng(seed)
    batch, probs = _random_batch(rng)
    theta = rng.normal(size=6)
    table = correlation_scores(batch, probs, theta, combine)
    direct = _direct_scores(batch, probs)
    ours = {table.keys[k]: table.score[k] for k in table.ranking()}
    assert len(direct) > 3 and set(ours) == set(direct)
    for key, score in direct.items():
        assert ours[key] == pytest.approx(score, rel=1e-9, abs=1e-12)
    assert table.n == sum(s.num_moves for s in batch)
    assert table.S == pytest.approx(0.0, abs=1e-12)  # p and pi both sum to 1 in every sample
    best = max(direct.values())
    chosen = discovery.correlation_based(batch, probs, theta, None, combine, never_known)
    assert direct[chosen] == pytest.approx(best)


def test_correlation_finds_a_planted_pair_and_falls_back_on_duplicates():
    # Features 0 and 1 are together exactly where p overshoots pi; feature 2 and 3 are noise everywhere.
    rng = np.random.default_rng(5)
    batch, probs = [], []
    for _ in range(10):
        instances = [[Inst(0), Inst(1), Inst(2)], [Inst(0), Inst(3)], [Inst(1), Inst(2), Inst(3)], [Inst(2)]]
        pi = np.array([0.1, 0.3, 0.3, 0.3])
        batch.append(_sample(instances, pi))
        probs.append(np.array([0.4, 0.2, 0.2, 0.2]) + rng.normal(0, 0.01, 4) * [0, 1, -1, 0])
    theta = np.zeros(4)
    table = correlation_scores(batch, probs, theta, combine)
    assert table.keys[table.ranking()[0]] == frozenset({0, 1})
    assert discovery.correlation_based(batch, probs, theta, None, combine, never_known) == frozenset({0, 1})
    second = table.keys[table.ranking()[1]]
    known = {frozenset({0, 1})}
    assert discovery.correlation_based(batch, probs, theta, None, combine, known.__contains__) == second
    assert discovery.correlation_based(batch, probs, theta, None, combine, lambda f: True) is None


def test_correlation_skips_constant_indicators():
    # Feature 0 is active in every case: X = n, so every pair with it is skipped; pair {1, 2} is scored.
    batch = [_sample([[Inst(0), Inst(1), Inst(2)], [Inst(0), Inst(1)], [Inst(0)]], [0.2, 0.3, 0.5])] * 2
    probs = [np.array([0.5, 0.3, 0.2])] * 2
    table = correlation_scores(batch, probs, np.zeros(3), combine)
    scored = {table.keys[k] for k in table.ranking()}
    assert scored == {frozenset({1, 2})}


def test_cap_keeps_the_instances_with_the_largest_weights():
    batch = [_sample([[Inst(0), Inst(1), Inst(2)], [Inst(3)]], [0.2, 0.8])]
    probs = [np.array([0.6, 0.4])]
    theta = np.array([0.1, -5.0, 3.0, 0.0])
    full = correlation_scores(batch, probs, theta, combine)
    capped = correlation_scores(batch, probs, theta, combine, max_instances=2)
    assert set(full.keys) == {frozenset({0, 1}), frozenset({0, 2}), frozenset({1, 2})}
    assert capped.keys == [frozenset({1, 2})]


def test_all_errors_zero_gives_no_feature():
    rng = np.random.default_rng(0)
    batch, _ = _random_batch(rng)
    probs = [s.pi.copy() for s in batch]  # p == pi everywhere
    theta = np.zeros(6)
    assert correlation_scores(batch, probs, theta, combine).degenerate
    for name in ("correlation_based", "combine_random", "combine_max"):
        assert discover(name, batch, probs, theta, np.random.default_rng(1), combine, never_known) is None
    # Add Random does not look at the errors.
    assert discover("add_random", batch, probs, theta, np.random.default_rng(1), combine, never_known) is not None


def test_zero_error_sum_alone_does_not_block_discovery():
    # Errors +-0.25 sum to exactly 0.0 (Ludii would refuse); the pair still correlates with them.
    batch = [_sample([[Inst(0), Inst(1)], [Inst(2)]], [0.25, 0.75])] + [_sample([[Inst(2)], [Inst(3)]], [0.5, 0.5])]
    probs = [np.array([0.5, 0.5]), np.array([0.5, 0.5])]
    table = correlation_scores(batch, probs, np.zeros(4), combine)
    assert table.S == 0.0 and not table.degenerate
    assert discovery.correlation_based(batch, probs, np.zeros(4), None, combine, never_known) == frozenset({0, 1})


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_each_strategy_is_deterministic_given_the_seed(name):
    rng = np.random.default_rng(11)
    batch, probs = _random_batch(rng, n_samples=10)
    theta = rng.normal(size=6)
    results = [discover(name, batch, probs, theta, np.random.default_rng(seed), combine, never_known)
               for seed in range(12)]
    again = [discover(name, batch, probs, theta, np.random.default_rng(seed), combine, never_known)
             for seed in range(12)]
    assert results == again and all(r is not None for r in results)
    if name != "correlation_based":
        assert len(set(results)) > 1  # the seed matters


def test_combine_random_and_max_use_the_case_with_the_largest_error():
    # Errors: sample 0: (0.1, -0.5, 0.4), sample 1: (0.1, -0.1).  Case (0, 1) has the largest |e|; its instances
    # have features 1, 2 and 4.  Case (0, 2) comes next but has a single instance.
    batch = [_sample([[Inst(0), Inst(3)], [Inst(1), Inst(2), Inst(4)], [Inst(5)]], [0.3, 0.6, 0.1]),
             _sample([[Inst(0), Inst(5)], [Inst(3), Inst(5)]], [0.5, 0.5])]
    probs = [np.array([0.4, 0.1, 0.5]), np.array([0.6, 0.4])]
    theta = np.array([0.0, 0.1, -2.0, 9.0, 0.3, 0.0])  # feature 3 is heavy but not at that case
    pool = {frozenset({1, 2}), frozenset({1, 4}), frozenset({2, 4})}
    rand = {discovery.combine_random(batch, probs, theta, np.random.default_rng(s), combine, never_known)
            for s in range(30)}
    assert rand == pool
    mx = {discovery.combine_max(batch, probs, theta, np.random.default_rng(s), combine, never_known)
          for s in range(30)}
    assert mx == {frozenset({2, 1}), frozenset({2, 4})}  # feature 2 has the largest |theta| there
    # Duplicates are skipped: the next partner, then the next instance by |theta|, then the next case.
    known = {frozenset({1, 2}), frozenset({2, 4})}
    for s in range(10):
        assert discovery.combine_max(batch, probs, theta, np.random.default_rng(s), combine,
                                     known.__contains__) == frozenset({1, 4})
    known = pool
    for s in range(10):  # nothing new at the worst case: the next case with a pair (|e| = 0.1 ties: batch order)
        assert discovery.combine_random(batch, probs, theta, np.random.default_rng(s), combine,
                                        known.__contains__) == frozenset({0, 3})


def test_add_random_is_uniform_over_new_keys_and_skips_known_ones():
    rng = np.random.default_rng(2)
    batch, probs = _random_batch(rng, n_samples=6)
    keys = set(correlation_scores(batch, probs, np.zeros(6), combine).keys)
    known = set(list(sorted(keys, key=sorted))[:-1])  # all but one
    (left,) = keys - known
    for s in range(5):
        assert discovery.add_random(batch, probs, np.zeros(6), np.random.default_rng(s), combine,
                                    known.__contains__) == left
    assert discovery.add_random(batch, probs, np.zeros(6), np.random.default_rng(0), combine, keys.__contains__) is None
    seen = {discovery.add_random(batch, probs, np.zeros(6), np.random.default_rng(s), combine, never_known)
            for s in range(300)}
    assert seen == keys


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_same_anchor_option_restricts_pairs(name):
    # Only features 0 and 1 share an anchor; every other pair crosses anchors.
    instances = [[Inst(0, 4), Inst(1, 4), Inst(2, 5), Inst(3, 6)], [Inst(2, 1)]]
    batch = [_sample(instances, [0.2, 0.8]), _sample([[Inst(3, 0)], [Inst(4, 0)]], [0.5, 0.5])]
    probs = [np.array([0.7, 0.3]), np.array([0.4, 0.6])]
    theta = np.array([0.0, 0.0, 5.0, 0.0, 0.0])
    for s in range(8):
        rng = np.random.default_rng(s)
        assert discover(name, batch, probs, theta, rng, combine, never_known, same_anchor=True) == frozenset({0, 1})


def test_combine_gets_pairs_in_instance_order():
    # An asymmetric combine still sees each unordered pair one way: (lower feature, higher feature).
    batch = [_sample([[Inst(3), Inst(1), Inst(2)], [Inst(0)]], [0.1, 0.9])]
    probs = [np.array([0.5, 0.5])]
    table = correlation_scores(batch, probs, np.zeros(4), lambda a, b: (a.feature, b.feature))
    assert sorted(table.keys) == [(1, 2), (1, 3), (2, 3)]
    assert all(a.feature <= b.feature for a, b in table.pairs)


def test_unhashable_instances_and_bad_inputs():
    class Plain:  # __eq__ without __hash__: unhashable, so combine is not memoised
        def __init__(self, feature):
            self.feature = feature

        def __eq__(self, other):
            return self.feature == other.feature

        __hash__ = None

    batch = [_sample([[Plain(0), Plain(1)], [Plain(2)]], [0.1, 0.9])]
    probs = [np.array([0.5, 0.5])]
    assert discovery.correlation_based(batch, probs, np.zeros(3), None, combine, never_known) == frozenset({0, 1})
    with pytest.raises(ValueError):
        discover("nope", batch, probs, np.zeros(3), None, combine, never_known)
    with pytest.raises(ValueError):
        discovery.add_random(batch, [np.array([1.0])], np.zeros(3), np.random.default_rng(0), combine, never_known)
    no_instances = [Sample.from_rows([[0, 1], [2]], [0, 1], [0.1, 0.9], 0)]
    with pytest.raises(ValueError):
        discovery.add_random(no_instances, probs, np.zeros(3), np.random.default_rng(0), combine, never_known)
