"""Nested Rollout Policy Adaptation (Rosin 2011; Cazenave 2016, Algorithms 1 and 2) for single-player problems.

A template specialised per problem module (see ``ppalib._specialise``); call it through
``ppalib.agents.nrpa_search``.  Level 0 is a playout choosing moves with probability proportional to
``exp(policy[code(move)])``; level l runs ``iterations`` searches of level l - 1, keeps the best sequence
(ties go to the newer sequence: ``result >= bestScore``), and after each one adapts the policy towards it with
Algorithm 1: ``polp[code(move)] += alpha`` and ``polp[code(m)] -= alpha * exp(policy[code(m)]) / z`` for every
legal m, replaying the sequence from the root, with z and exp computed from the policy before this adapt.

Each recursive call works on a copy of its caller's policy, as in Rosin's NRPA (the paper's pseudo-code passes
``policy`` without saying; the original passes it by value, so a level's own policy only changes by its adapt).
Levels 0 and 1 run in numba; the higher levels in Python (few calls, each a whole level-1 search).
"""
import math

import numpy as np
from numba import njit

from ppalib._noalloc import nowrap
from ppalib._rng import weighted_index
from ppalib.games._common import S_MAX_MOVES, S_MAX_PLIES
from ppalib.games import contract as game  # <game-import>


@njit(cache=True)
def playout(spec, root, policy, rng, sequence):
    """Level 0: one Gibbs playout from ``root``; the moves go into ``sequence``; returns (score, length)."""
    state = root.copy()
    moves = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    weights = np.empty(spec[S_MAX_MOVES], dtype=np.float64)
    length = 0
    n = game.legal_moves(spec, state, moves)
    while n > 0:
        for j in range(n):
            weights[nowrap(j)] = math.exp(policy[nowrap(game.move_code(spec, state, moves[nowrap(j)], False))])
        choice = weighted_index(rng, weights, n)
        sequence[nowrap(length)] = moves[nowrap(choice)]
        length += 1
        game.play(spec, state, moves[nowrap(choice)])
        n = game.legal_moves(spec, state, moves)
    return game.score(spec, state), length


@njit(cache=True)
def adapt(spec, root, policy, sequence, length, alpha):
    """Algorithm 1: return the adapted copy of ``policy`` for the best ``sequence[:length]``."""
    polp = policy.copy()
    state = root.copy()
    moves = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    for i in range(length):
        n = game.legal_moves(spec, state, moves)
        polp[nowrap(game.move_code(spec, state, sequence[nowrap(i)], False))] += alpha
        z = 0.0
        for j in range(n):
            z += math.exp(policy[nowrap(game.move_code(spec, state, moves[nowrap(j)], False))])
        for j in range(n):
            code = game.move_code(spec, state, moves[nowrap(j)], False)
            polp[nowrap(code)] -= alpha * math.exp(policy[nowrap(code)]) / z
        game.play(spec, state, sequence[nowrap(i)])
    return polp


@njit(cache=True)
def level_one(spec, root, policy, iterations, alpha, rng):
    """Level 1 on a copy of ``policy``: returns (best score, best sequence, its length)."""
    policy = policy.copy()
    best_score = -np.inf
    best = np.empty(spec[S_MAX_PLIES] + 1, dtype=np.int64)
    best_length = 0
    sequence = np.empty(spec[S_MAX_PLIES] + 1, dtype=np.int64)
    for _ in range(iterations):
        result, length = playout(spec, root, policy, rng, sequence)
        if result >= best_score:
            best_score = result
            best[:length] = sequence[:length]
            best_length = length
        policy = adapt(spec, root, policy, best, best_length, alpha)
    return best_score, best[:best_length].copy(), best_length
