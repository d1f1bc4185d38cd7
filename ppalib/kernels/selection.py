"""Selection rules: which move of a tree entry the descent follows.  Game-free; each returns an index into the
entry's move list, reading the tree's pool (``pool_stats`` holds wins, playouts side by side per move); GRAVE also
reads the AMAF statistics per move code of an entry (``Tree.node_amaf``)."""
import math

import numpy as np
from numba import njit

from ppalib._noalloc import inline_jit, noalloc_jit, nowrap
from ppalib._rng import random_float

SELECT_UCB1 = 0       # Cazenave 2015, Alg. 7: unvisited moves first, in list order; then max UCB1, first on ties
SELECT_UCB1_RAVE = 1  # Mehat & Vittaut 2013, section 2: untried = 1, UCB1 blended with RAVE, random tie-break
SELECT_PUCT = 2       # Silver et al. 2017 as used by Soemers et al. 2019 (eq. 4), with priors stored per move
SELECT_UCB1_LUDII = 3  # UCB1 as Ludii's UCT baseline of Soemers et al. 2019: values in [-1, 1], an unvisited move
                       # valued at its entry's mean, random tie-break
SELECT_GRAVE = 4      # Cazenave 2015 (IJCAI): the AMAF statistics of the closest ancestor with more than ref playouts


# Selection rules that value every move of an entry do it in a loop of its own, into ``values`` (float64[>= count],
# scratch), which LLVM vectorises (the divisions and square roots of four moves an instruction); the argmax is a
# scalar loop after it.  They are compiled with numpy's error model: numba's default (Python's) tests every divisor
# for zero to raise ZeroDivisionError, and that branch stops the vectorisation (a zero divisor here either cannot
# occur or its quotient is discarded by a select).  Without NRT, as ``noalloc_jit``.  The values are the same
# expressions evaluated in the same order, so the choices are the same bit for bit (tests/test_selection.py).
_vector_jit = njit(cache=True, _nrt=False, error_model="numpy")


@inline_jit
def _argmax_random_ties(values, count, rng):
    """The index of the largest of ``values[:count]``, uniformly at random among the maxima (a reservoir draw per
    tie, in list order)."""
    best = 0
    best_score = -np.inf
    ties = 0
    for i in range(count):
        score = values[nowrap(i)]
        if score > best_score:
            best_score = score
            best = i
            ties = 1
        elif score == best_score:
            ties += 1
            if random_float(rng) * ties < 1.0:
                best = i
    return best


@_vector_jit
def ucb1(pool_stats, off, count, total, c, values):
    """UCT's choice as in Cazenave 2015, Algorithm 7: the first never-played move in list order if any (its value
    is infinite), else the move maximising ``w/p + c sqrt(log(t)/p)`` (strict ``>``: the first on ties).

    ``values``: scratch for the vectorised values (above)."""
    for i in range(count):
        if pool_stats[nowrap(2 * (off + i) + 1)] == 0.0:
            return i
    log_total = math.log(total)
    for i in range(count):
        visits = pool_stats[nowrap(2 * (off + i) + 1)]
        values[nowrap(i)] = pool_stats[nowrap(2 * (off + i))] / visits + c * math.sqrt(log_total / visits)
    best = 0
    best_value = -np.inf
    for i in range(count):
        if values[nowrap(i)] > best_value:
            best_value = values[nowrap(i)]
            best = i
    return best


@_vector_jit
def ucb1_ludii(pool_stats, off, count, c, rng, values):
    """UCB1 as the UCT baseline of Soemers et al. 2019 plays in Ludii (LudiiAI 2020, UCB1 with QInit.PARENT; the
    paper's eq. 3 does not say how unvisited moves are valued): ``Q + c sqrt(ln N / n)`` with Q = 2 w/n - 1 in
    [-1, 1] and N the entry's playouts through its moves; a never-played move takes the entry's mean Q and the
    exploration term ``c sqrt(ln N)`` (as if played once), or is valued first (Ludii's 10000) while no move of the
    entry has been played; uniformly at random among the maxima.  Unlike Cazenave 2015's ``ucb1`` it does not try
    every move once before using the statistics.  ``values``: scratch for the vectorised values (above)."""
    wins = 0.0
    visits = 0.0
    for i in range(count):
        wins += pool_stats[nowrap(2 * (off + i))]
        visits += pool_stats[nowrap(2 * (off + i) + 1)]
    parent_q = 2.0 * wins / visits - 1.0 if visits > 0.0 else 10000.0
    log_n = math.log(max(visits, 1.0))
    unvisited = parent_q + c * math.sqrt(log_n)
    for i in range(count):
        n = pool_stats[nowrap(2 * (off + i) + 1)]
        score = 2.0 * pool_stats[nowrap(2 * (off + i))] / n - 1.0 + c * math.sqrt(log_n / n)
        values[nowrap(i)] = score if n > 0.0 else unvisited
    return _argmax_random_ties(values, count, rng)


@inline_jit
def rave_score(mean_wins, visits, rave_wins, rave_visits, total, c, k_rave, use_rave):
    """One move's score in Mehat & Vittaut 2013, section 2: a never-started move gets the maximum result 1, a started
    one ``u = mean + c sqrt(log(t)/s)``; with RAVE in use and AMAF playouts, ``(1 - a) u + a r`` with r the AMAF
    mean and ``a = sqrt(k_rave / (3 t + k_rave))`` (t: the entry's total playouts; the extraction's
    "sqrt(k/3t + k)" read as sqrt(k / (3t + k)), the Gelly-Silver schedule)."""
    if visits == 0.0:
        u = 1.0
    else:
        u = mean_wins / visits + c * math.sqrt(math.log(total) / visits)
    if use_rave and rave_visits > 0.0:
        a = math.sqrt(k_rave / (3.0 * total + k_rave))
        return (1.0 - a) * u + a * (rave_wins / rave_visits)
    return u


@_vector_jit
def ucb1_rave(pool_stats, pool_amaf, off, count, total, c, k_rave, use_rave, rng, values):
    """The move of maximum ``rave_score``, uniformly at random among the maxima (a reservoir draw per tie).
    ``values``: scratch for the values (above)."""
    for i in range(count):
        j = 2 * (off + i)
        values[nowrap(i)] = rave_score(pool_stats[nowrap(j)], pool_stats[nowrap(j + 1)], pool_amaf[nowrap(j)],
                                       pool_amaf[nowrap(j + 1)], total, c, k_rave, use_rave)
    return _argmax_random_ties(values, count, rng)


@_vector_jit
def puct(pool_stats, pool_prior, off, count, c, rng, values):
    """PUCT (Soemers et al. 2019, eq. 4): ``Q + C p sqrt(sum_b N_b) / (1 + N)``, uniformly at random among the maxima.

    Q is the mean result mapped to [-1, 1] (2 w/N - 1), the reward scale of Ludii, where the paper's C = sqrt(2)
    was tuned.  Where the paper is silent we follow Ludii's public code (AG0Selection, 2020): a never-visited move
    takes the entry's mean Q (QInit.PARENT; 0, a draw, before any visit), and while no move has been visited the
    exploration term uses sqrt(1), so the first visit goes to the largest prior.  ``values``: scratch for the
    vectorised values (above)."""
    wins = 0.0
    visits = 0.0
    for i in range(count):
        wins += pool_stats[nowrap(2 * (off + i))]
        visits += pool_stats[nowrap(2 * (off + i) + 1)]
    parent_q = 2.0 * wins / visits - 1.0 if visits > 0.0 else 0.0
    explore = c * math.sqrt(max(visits, 1.0))
    for i in range(count):
        n = pool_stats[nowrap(2 * (off + i) + 1)]
        mean = 2.0 * pool_stats[nowrap(2 * (off + i))] / n - 1.0
        q = mean if n > 0.0 else parent_q
        values[nowrap(i)] = q + explore * pool_prior[nowrap(off + i)] / (1.0 + n)
    return _argmax_random_ties(values, count, rng)


@noalloc_jit
def grave_score(wins, visits, amaf_wins, amaf_visits, bias):
    """One move's value in GRAVE (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015):
    ``(1 - beta) mean + beta amaf`` with ``beta = pa / (pa + p + bias pa p)``, p the move's playouts at the entry,
    pa its AMAF playouts at the reference entry.  No exploration term (c = 0, as in the paper and in its
    reference code).  A move not yet played at the entry has beta = 1: its AMAF mean alone; a move with no AMAF
    playout at the reference entry is valued first (infinite; the reference code's 1e6)."""
    if amaf_visits == 0.0:
        return np.inf
    beta = amaf_visits / (amaf_visits + visits + bias * amaf_visits * visits)
    mean = wins / visits if visits > 0.0 else 1.0
    return (1.0 - beta) * mean + beta * (amaf_wins / amaf_visits)


@noalloc_jit
def grave(pool_stats, off, count, node_amaf, ref_base, codes, bias):
    """GRAVE's choice at an entry: the move of maximum ``grave_score`` (strict ``>``: the first on ties, as the
    reference code), its AMAF statistics read at the reference entry's row of ``node_amaf`` (which starts at
    ``ref_base``; (wins, playouts) side by side per move code), at the move's code ``codes[i]``."""
    best = 0
    best_value = -np.inf
    for i in range(count):
        j = 2 * (off + i)
        a = ref_base + 2 * codes[nowrap(i)]
        value = grave_score(pool_stats[nowrap(j)], pool_stats[nowrap(j + 1)], node_amaf[nowrap(a)],
                            node_amaf[nowrap(a + 1)], bias)
        if value > best_value:
            best_value = value
            best = i
    return best
