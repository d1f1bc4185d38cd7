"""The selection rules that value every move of an entry (``ppalib.kernels.selection``: UCT's ``ucb1``, Cazenave
2015, Alg. 7; Ludii's UCB1 and PUCT, Soemers et al. 2019; UCB1 blended with RAVE, Mehat & Vittaut 2013) against
the same rules written as one plain Python loop each.  The compiled rules compute the values in a vectorised loop
of their own and take the argmax after it; the choice must be the same on every entry (ties, unplayed moves,
entries read at an offset in a larger pool), and for the rules that break ties at random, the generator must end in
the same state (the same draws)."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from ppalib import make_rng
from ppalib._rng import random_float
from ppalib.kernels import selection


def _literal_ucb1(stats, off, count, total, c):
    best, best_value = 0, -math.inf
    for i in range(count):
        wins, visits = stats[2 * (off + i)], stats[2 * (off + i) + 1]
        if visits == 0.0:
            return i
        value = wins / visits + c * math.sqrt(math.log(total) / visits)
        if value > best_value:
            best, best_value = i, value
    return best


# (wins, playouts) per move: small integers, so that equal values (ties) are common; a few unplayed moves.
MOVE = st.integers(0, 6).flatmap(lambda p: st.tuples(st.integers(0, p), st.just(p)))


def _pool(pairs, before, filler):
    """A flat pool of (wins, visits) pairs, as the search keeps ``pool_stats`` and ``pool_amaf``: ``before`` copies
    of ``filler`` (another node's moves), then ``pairs``: the rules read it at offset ``before``."""
    return np.array([float(x) for _ in range(before) for x in filler] + [float(x) for pair in pairs for x in pair])


@settings(max_examples=300, deadline=None)
@given(moves=st.lists(MOVE, min_size=1, max_size=70), before=st.integers(0, 5), c=st.sampled_from([0.0, 0.4, 1.0]))
def test_ucb1_chooses_as_the_literal_rule_with_ties_and_unplayed_moves(moves, before, c):
    stats = _pool(moves, before, (7, 9))
    total = max(1.0, float(sum(p for _, p in moves)))
    values = np.full(len(moves) + 3, np.nan)
    assert selection.ucb1(stats, before, len(moves), total, c, values) == _literal_ucb1(stats, before, len(moves),
                                                                                         total, c)


def test_ucb1_takes_the_first_of_equal_values_and_the_first_unplayed_move():
    stats = np.array([1.0, 2.0, 2.0, 4.0, 0.0, 1.0])  # values 0.5 + e, 0.5 + e / sqrt(2), 0 + e
    assert selection.ucb1(stats, 0, 3, 7.0, 0.0, np.empty(3)) == 0  # c = 0: 0.5, 0.5, 0: the first of the two
    assert selection.ucb1(stats, 0, 3, 7.0, 1.0, np.empty(3)) == 0
    unplayed = np.array([1.0, 2.0, 0.0, 0.0, 5.0, 5.0, 0.0, 0.0])
    assert selection.ucb1(unplayed, 0, 4, 7.0, 1.0, np.empty(4)) == 1


def _literal_random_ties(scores, rng):
    best, best_score, ties = 0, -math.inf, 0
    for i, score in enumerate(scores):
        if score > best_score:
            best, best_score, ties = i, score, 1
        elif score == best_score:
            ties += 1
            if random_float(rng) * ties < 1.0:
                best = i
    return best


def _literal_ucb1_ludii(stats, off, count, c, rng):
    pairs = [(stats[2 * (off + i)], stats[2 * (off + i) + 1]) for i in range(count)]
    wins, visits = sum(w for w, _ in pairs), sum(n for _, n in pairs)
    parent_q = 2.0 * wins / visits - 1.0 if visits > 0.0 else 10000.0
    log_n = math.log(max(visits, 1.0))
    return _literal_random_ties([2.0 * w / n - 1.0 + c * math.sqrt(log_n / n) if n > 0.0
                                 else parent_q + c * math.sqrt(log_n) for w, n in pairs], rng)


def _literal_puct(stats, prior, off, count, c, rng):
    pairs = [(stats[2 * (off + i)], stats[2 * (off + i) + 1]) for i in range(count)]
    wins, visits = sum(w for w, _ in pairs), sum(n for _, n in pairs)
    parent_q = 2.0 * wins / visits - 1.0 if visits > 0.0 else 0.0
    explore = c * math.sqrt(max(visits, 1.0))
    return _literal_random_ties([(2.0 * w / n - 1.0 if n > 0.0 else parent_q) + explore * prior[off + i] / (1.0 + n)
                                 for i, (w, n) in enumerate(pairs)], rng)


@settings(max_examples=300, deadline=None)
@given(moves=st.lists(MOVE, min_size=1, max_size=70), before=st.integers(0, 5), c=st.sampled_from([0.0, 1.4]),
       priors=st.sampled_from(["equal", "varied"]), seed=st.integers(0, 2 ** 32))
def test_ludii_ucb1_and_puct_choose_and_draw_as_the_literal_rules(moves, before, c, priors, seed):
    stats = _pool(moves, before, (7, 9))
    count = len(moves)
    prior = np.full(before + count, 1.0 / count) if priors == "equal" else np.linspace(0.1, 0.9, before + count)
    for rule, literal in ((lambda rng: selection.ucb1_ludii(stats, before, count, c, rng, np.empty(count)),
                           lambda rng: _literal_ucb1_ludii(stats, before, count, c, rng)),
                          (lambda rng: selection.puct(stats, prior, before, count, c, rng, np.empty(count)),
                           lambda rng: _literal_puct(stats, prior, before, count, c, rng))):
        compiled_rng, literal_rng = make_rng(seed), make_rng(seed)
        assert rule(compiled_rng) == literal(literal_rng)
        assert np.array_equal(compiled_rng, literal_rng)


def _literal_ucb1_rave(stats, amaf, off, count, total, c, k_rave, use_rave, rng):
    scores = []
    for i in range(count):
        wins, visits = stats[2 * (off + i)], stats[2 * (off + i) + 1]
        rave_wins, rave_visits = amaf[2 * (off + i)], amaf[2 * (off + i) + 1]
        u = 1.0 if visits == 0.0 else wins / visits + c * math.sqrt(math.log(total) / visits)
        if use_rave and rave_visits > 0.0:
            a = math.sqrt(k_rave / (3.0 * total + k_rave))
            u = (1.0 - a) * u + a * (rave_wins / rave_visits)
        scores.append(u)
    return _literal_random_ties(scores, rng)


@settings(max_examples=300, deadline=None)
@given(moves=st.lists(st.tuples(MOVE, MOVE), min_size=1, max_size=70), before=st.integers(0, 5),
       use_rave=st.booleans(), seed=st.integers(0, 2 ** 32))
def test_ucb1_rave_chooses_and_draws_as_the_literal_rule(moves, before, use_rave, seed):
    stats = _pool([m for m, _ in moves], before, (7, 9))
    amaf = _pool([r for _, r in moves], before, (1, 2))
    total = max(1.0, float(sum(p for (_, p), _ in moves)))
    compiled_rng, literal_rng = make_rng(seed), make_rng(seed)
    assert (selection.ucb1_rave(stats, amaf, before, len(moves), total, 0.4, 700.0, use_rave, compiled_rng,
                                np.empty(len(moves)))
            == _literal_ucb1_rave(stats, amaf, before, len(moves), total, 0.4, 700.0, use_rave, literal_rng))
    assert np.array_equal(compiled_rng, literal_rng)
