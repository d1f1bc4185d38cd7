"""Playout policies (a template: specialised per game module by ``ppalib._specialise``).

* uniform: every legal move with probability 1/n, drawn by the game's ``random_move`` (which may draw without
  listing the moves, e.g. Go by rejection);
* Gibbs on move-code weights (Cazenave 2015, Alg. 3): probability ``weight[code] / z`` with the learned
  ``weight = exp(k policy[code])`` (PPA: k = 1; MAST: k swept); ``gibbs_draw`` is its step (the loop around it is
  written out in ``search.run_iterations``, where a call per playout measurably cost);
* first move from the prior (Soemers et al. 2019, section III-B): the first move drawn from the entry's stored
  priors, the rest uniform.
``uniform`` returns the new length of the recorded sequence (``nseq``) where the search records the iteration's
moves.
"""

import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit, nowrap
from ppalib._rng import weighted_index_of_total
from ppalib.games._common import H_TO_MOVE, H_WINNER, S_MAX_MOVES, S_MAX_PLIES
from ppalib.games import contract as game  # <game-import>

if getattr(game, "play_playout", None) is not None and game.__name__ != "ppalib.games.contract":
    play_playout = game.play_playout  # the game's lighter move for uniform playouts (the same moves drawn)
else:
    play_playout = game.play


@noalloc_jit
def _move_by_move(spec, state, rng, moves):
    """A uniform random playout to the end, one ``random_move`` and ``play_playout`` at a time; returns its plies."""
    plies = 0
    move = game.random_move(spec, state, rng, moves)
    while move >= 0:
        play_playout(spec, state, move)
        plies += 1
        move = game.random_move(spec, state, rng, moves)
    return plies


if getattr(game, "play_random_playout", None) is not None and game.__name__ != "ppalib.games.contract":
    play_random_playout = game.play_random_playout  # the game's whole playout (the same moves and result)
else:
    play_random_playout = _move_by_move

@noalloc_jit
def gibbs_draw(spec, state, moves, n, with_context, weight, codes, base, gibbs, rng):
    """Algorithm 3's move choice with the cached weights: writes the code of each of the ``n`` legal ``moves`` into
    ``codes[base:base + n]`` and returns the index of a move drawn with probability ``weight[code] / z`` (z summed
    in list order; ``gibbs`` is scratch of length >= n)."""
    z = 0.0
    for j in range(n):
        code = game.move_code(spec, state, moves[nowrap(j)], with_context)
        codes[nowrap(base + j)] = code
        gibbs[nowrap(j)] = weight[nowrap(code)]
        z += gibbs[nowrap(j)]
    return weighted_index_of_total(rng, gibbs, n, z)


@noalloc_jit
def uniform(spec, state, rng, moves, record, seq_player, seq_move, nseq):
    """Play uniformly random moves to the end; with ``record``, append each (player, move) to the sequence."""
    if not record:
        play_random_playout(spec, state, rng, moves)
        return nseq
    move = game.random_move(spec, state, rng, moves)
    while move >= 0:
        seq_player[nowrap(nseq)] = state[H_TO_MOVE]
        seq_move[nowrap(nseq)] = move
        nseq += 1
        play_playout(spec, state, move)
        move = game.random_move(spec, state, rng, moves)
    return nseq


@noalloc_jit
def uniform_coded(spec, state, rng, moves, seq_player, seq_move, seq_code, nseq):
    """``uniform`` (the same draws) that also records each move's context-free code, for GRAVE's AMAF statistics."""
    move = game.random_move(spec, state, rng, moves)
    while move >= 0:
        seq_player[nowrap(nseq)] = state[H_TO_MOVE]
        seq_move[nowrap(nseq)] = move
        seq_code[nowrap(nseq)] = game.move_code(spec, state, move, False)
        nseq += 1
        play_playout(spec, state, move)
        move = game.random_move(spec, state, rng, moves)
    return nseq


@njit(cache=True)
def random_playout(spec, root, rng):
    """One uniform random playout from ``root``; returns (winner, plies).  For benchmarks and tests."""
    state = root.copy()
    moves = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    plies = play_random_playout(spec, state, rng, moves)
    return state[H_WINNER], plies


@njit(cache=True)
def random_playouts(spec, root, rng, count):
    """``count`` uniform random playouts from ``root``; returns the total plies (benchmarks)."""
    total = 0
    for _ in range(count):
        total += random_playout(spec, root, rng)[1]
    return total


@njit(cache=True)
def sample_playouts(spec, root, rng, playouts):
    """The moves of ``playouts`` uniform random playouts from ``root``, end to end, and each playout's length:
    the workload of the per-move cost profile (``python -m ppalib bench --profile``)."""
    moves = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    played = np.empty(playouts * (spec[S_MAX_PLIES] + 1), dtype=np.int64)
    lengths = np.zeros(playouts, dtype=np.int64)
    count = 0
    for p in range(playouts):
        state = root.copy()
        move = game.random_move(spec, state, rng, moves)
        while move >= 0:
            played[nowrap(count)] = move
            count += 1
            lengths[nowrap(p)] += 1
            game.play(spec, state, move)
            move = game.random_move(spec, state, rng, moves)
    return played[:count].copy(), lengths


PROFILE_PLAY_ONLY = 0
PROFILE_UNIFORM_DRAW = 1
PROFILE_LIST_MOVES = 2
PROFILE_GIBBS_DRAW = 3


@njit(cache=True)
def replay_with(spec, root, played, lengths, part, rng, weight):
    """Replay recorded playouts from ``root``; before each move, also do ``part`` in that position: nothing, a
    uniform draw (UCT's step), the full move list, or list + codes + weights + a weighted draw (PPA's step).
    Timing each against PROFILE_PLAY_ONLY gives what the part costs where it runs, in the same positions."""
    moves = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    codes = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    scratch = np.empty(spec[S_MAX_MOVES], dtype=np.float64)
    state = root.copy()
    total = 0
    i = 0
    for p in range(lengths.size):
        state[:] = root
        for _ in range(lengths[nowrap(p)]):
            if part == PROFILE_UNIFORM_DRAW:
                total += game.random_move(spec, state, rng, moves)
            elif part == PROFILE_LIST_MOVES:
                total += game.legal_moves(spec, state, moves)
            elif part == PROFILE_GIBBS_DRAW:
                n = game.legal_moves(spec, state, moves)
                total += gibbs_draw(spec, state, moves, n, False, weight, codes, 0, scratch, rng)
            game.play(spec, state, played[nowrap(i)])
            i += 1
    return total
