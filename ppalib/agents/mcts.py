"""The MCTS kernel shared by UCT, PPA, PPAF, MAST and MASTF (seed 000, Algorithms 3-7; seed 004, Algorithms 1-4).

This file is a *template*: it is written against the module alias ``game`` and ``ppalib._jit.kernel`` makes one
copy per game module with the ``# <game-import>`` line swapped (see ``_jit`` for why).  Call it through
``ppalib.agents.search``, which validates the inputs.

One search = ``playouts`` iterations of Algorithm 7 (UCT) followed by the adapt step of Algorithm 6:

* Transposition table keyed by the 64-bit Zobrist hash of the position (open addressing).  A node's
  statistics are indexed by the move's position in the deterministic legal-move list of its position.
* Descent: at a position with a table entry, the move maximising ``w/p + c * sqrt(log(t)/p)`` is played, where
  t is the entry's total playouts and w, p the move's wins and playouts; unvisited moves come first, in list
  order (``p = 0`` makes the value infinite; ties keep the first move, as the strict ``>`` of Algorithm 7).
  At a position with no entry, one entry is created and a playout runs from there ("one new entry per
  descent").  Every entry on the path then counts the playout: ``t += 1`` and, for the move taken,
  ``p += 1``, ``w += 1`` if the player to move there won (0.5 for a draw).
* Playouts (Algorithm 3): uniform for UCT, drawn by the game's ``random_move`` (exactly uniform over the legal
  moves; Go samples by rejection instead of listing them); Gibbs sampling with probability proportional to
  ``exp(k * policy[code(move)])`` for PPA/PPAF (k = 1) and MAST/MASTF.
* Adapt, after each iteration, over the whole sequence from the root (tree moves and playout moves, as the
  PPA author's code replays them): the legal moves and codes of every ply are recorded as they are generated,
  which gives exactly the lists a replay would regenerate.
  - PPA (Algorithm 4): for each ply where the playout's winner moved, ``polp[code(move)] += alpha`` and
    ``polp[code(m)] -= alpha * exp(policy[code(m)]) / z`` for every legal m, with ``z = sum exp(policy[code(m)])``;
    ``policy`` (and so z) is the policy as it was before this iteration's adapt; ``policy <- polp`` at the end.
  - MAST (Algorithm 5): for each ply, the code of the move played gets ``games += 1`` and ``wins += 1`` if its
    player won (0.5 for a draw); ``policy[code] = wins / games``.  (Algorithm 5 ends with a stray
    ``policy <- polp``; MAST has no polp, so its updates are applied directly.)
* The policy starts at zero for every search (every move searched), and the table is emptied.
* The move with the most playouts at the root is returned (ties: first in list order).

Exponentials are cached in ``weight = exp(k * policy)`` and recomputed only for the codes an adapt changed.
MAST with k > 700 (where exp(k * mean) overflows) uses exp(k * (mean - max over the legal moves)) per ply: the
same probabilities.
"""
import math

import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit
from ppalib._rng import weighted_index_of_total
from ppalib.agents._tree import add_entry, lookup, new_table, reward
from ppalib.games._common import (H_HASH, H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES,
                                  S_NUM_CONTEXT_CODES)
from ppalib.games import breakthrough as game  # <game-import>

PLAYOUT_UNIFORM = 0
PLAYOUT_PPA = 1
PLAYOUT_MAST = 2


@noalloc_jit
def ppa_adapt(policy, weight, new_policy, mark, touched, stamp, alpha, k,
              seq_player, seq_chosen, seq_off, seq_codes, nseq, winner):
    """Algorithm 4 over a recorded sequence; updates ``policy`` and ``weight = exp(k policy)`` in place.

    ``seq_codes[seq_off[s]:seq_off[s+1]]`` are the codes of the legal moves at ply s, ``seq_chosen[s]`` the code
    played and ``seq_player[s]`` the player who played it.  ``new_policy`` is polp; only the codes touched in
    this call are copied into it (the others equal policy), which is what makes the step O(moves seen).
    """
    ntouched = 0
    for s in range(nseq):
        if seq_player[s] != winner:
            continue
        begin = seq_off[s]
        end = seq_off[s + 1]
        z = 0.0
        for j in range(begin, end):
            code = seq_codes[j]
            z += weight[code]
            if mark[code] != stamp:
                mark[code] = stamp
                new_policy[code] = policy[code]
                touched[ntouched] = code
                ntouched += 1
        new_policy[seq_chosen[s]] += alpha
        for j in range(begin, end):
            code = seq_codes[j]
            new_policy[code] -= alpha * weight[code] / z
    for t in range(ntouched):
        code = touched[t]
        policy[code] = new_policy[code]
        weight[code] = math.exp(k * policy[code])


@noalloc_jit
def gibbs_draw(spec, state, moves, n, features, weight, codes, base, gibbs, rng):
    """Algorithm 3's move choice with the cached weights: writes the code of each of the ``n`` legal ``moves`` into
    ``codes[base:base + n]`` and returns the index of a move drawn with probability ``weight[code] / z`` (z summed
    in list order; ``gibbs`` is scratch of length >= n)."""
    z = 0.0
    for j in range(n):
        code = game.move_code(spec, state, moves[j], features)
        codes[base + j] = code
        gibbs[j] = weight[code]
        z += gibbs[j]
    return weighted_index_of_total(rng, gibbs, n, z)


@noalloc_jit
def mast_adapt(policy, weight, wins, games, k, seq_player, seq_chosen, nseq, winner):
    """Algorithm 5 over a recorded sequence; updates ``policy`` (mean result per code) and ``weight``."""
    for s in range(nseq):
        code = seq_chosen[s]
        games[code] += 1.0
        wins[code] += reward(winner, seq_player[s])
        policy[code] = wins[code] / games[code]
        weight[code] = math.exp(k * policy[code])


@njit(cache=True)
def search(spec, root, rng, playouts, c, playout_kind, alpha, k, features, root_visits, policy_out):
    """Run one search from ``root`` and return the move to play.

    spec, root: the game's spec and the position (int64 arrays; ``root`` is not modified).
    rng: uint64[4] generator state, advanced in place.
    playouts: iterations (>= 1).  c: UCT constant.  playout_kind: PLAYOUT_UNIFORM / _PPA / _MAST.
    alpha: PPA learning rate.  k: Gibbs temperature factor (1 for PPA).  features: use feature move codes.
    root_visits: float64 array (length >= max moves) receiving the playouts of each root move, in list order.
    policy_out: float64 array receiving the final policy (length num codes), or of length 0 to skip.
    """
    max_moves = spec[S_MAX_MOVES]
    ncodes = spec[S_NUM_CONTEXT_CODES] if features else spec[S_NUM_CODES]
    max_seq = spec[S_MAX_PLIES] + 1
    capacity = playouts + 1
    table, node_key, node_player, node_total, node_n, node_off = new_table(capacity)
    # Room for every entry's moves at once (untouched pages of a large np.empty cost nothing), capped at 2^22
    # moves (32 MiB an array); beyond that the pool doubles when full.
    pool_size = min(capacity * max_moves, max(capacity * 16 + max_moves, 1 << 22))
    pool_move = np.empty(pool_size, dtype=np.int64)
    pool_stats = np.empty(2 * pool_size, dtype=np.float64)  # wins, playouts of each move, side by side
    nodes = 0
    pool_used = 0

    learn = playout_kind != PLAYOUT_UNIFORM
    policy = np.zeros(ncodes, dtype=np.float64)
    weight = np.ones(ncodes, dtype=np.float64)
    new_policy = np.empty(ncodes if playout_kind == PLAYOUT_PPA else 0, dtype=np.float64)
    mark = np.zeros(ncodes if playout_kind == PLAYOUT_PPA else 0, dtype=np.int64)
    touched = np.empty(ncodes if playout_kind == PLAYOUT_PPA else 0, dtype=np.int64)
    mast_wins = np.zeros(ncodes if playout_kind == PLAYOUT_MAST else 0, dtype=np.float64)
    mast_games = np.zeros(ncodes if playout_kind == PLAYOUT_MAST else 0, dtype=np.float64)
    seq_len = max_seq if learn else 1
    seq_player = np.empty(seq_len, dtype=np.int64)
    seq_chosen = np.empty(seq_len, dtype=np.int64)
    seq_off = np.zeros(seq_len + 1, dtype=np.int64)
    seq_codes = np.empty(seq_len * max_moves if learn else 1, dtype=np.int64)

    # MAST means lie in [0, 1], so exp(k * mean) overflows a double for k > 709 (the paper sweeps k up to
    # 4096): there the weights are computed per ply as exp(k * (mean - max mean of the legal moves)), the same
    # distribution.  Below, the cached exp(k * policy) is used as written in Algorithm 3.
    shifted = playout_kind == PLAYOUT_MAST and k > 700.0
    gibbs = np.empty(max_moves, dtype=np.float64)
    state = root.copy()
    moves = np.empty(max_moves, dtype=np.int64)
    path_node = np.empty(max_seq + 1, dtype=np.int64)
    path_move = np.empty(max_seq + 1, dtype=np.int64)

    for iteration in range(playouts):
        state[:] = root
        depth = 0
        nseq = 0
        winner = -1
        while True:
            # Entries are made only at positions with legal moves and their move lists are in the pool, so the
            # list is generated only where no entry exists.  A position ended by its last move (play() set the
            # winner, e.g. at Go's ply cap) can share its hash with an entry made earlier, hence this test first.
            if state[H_WINNER] != ONGOING:
                winner = state[H_WINNER]
                break
            found = lookup(table, node_key, state[H_HASH])
            if found < 0:
                n = game.legal_moves(spec, state, moves)
                if n == 0:
                    winner = state[H_WINNER]
                    break
                # New entry, then a playout from here (Algorithm 7, else branch).
                node = nodes
                nodes += 1
                if pool_used + n > pool_size:
                    pool_size = max(2 * pool_size, pool_used + n)
                    grown_move = np.empty(pool_size, dtype=np.int64)
                    grown_stats = np.empty(2 * pool_size, dtype=np.float64)
                    grown_move[:pool_used] = pool_move[:pool_used]
                    grown_stats[:2 * pool_used] = pool_stats[:2 * pool_used]
                    pool_move = grown_move
                    pool_stats = grown_stats
                add_entry(table, found, node_key, node_player, node_total, node_n, node_off, node, state[H_HASH],
                          state[H_TO_MOVE], n, pool_used)
                for i in range(n):
                    pool_move[pool_used + i] = moves[i]
                    pool_stats[2 * (pool_used + i)] = 0.0
                    pool_stats[2 * (pool_used + i) + 1] = 0.0
                pool_used += n
                path_node[depth] = node
                path_move[depth] = -1
                depth += 1
                # Playout (Algorithm 3).  Uniform playouts draw through the game's random_move, which is
                # uniform over the legal moves without necessarily listing them.
                if not learn:
                    move = game.random_move(spec, state, rng, moves)
                    while move >= 0:
                        game.play(spec, state, move)
                        move = game.random_move(spec, state, rng, moves)
                    n = 0
                while n > 0:  # Gibbs playout (PPA, MAST): the full list is needed for z
                    base = seq_off[nseq]
                    if shifted:  # exp(k * (mean - max)): the same distribution, without overflow
                        top = -np.inf
                        for j in range(n):
                            code = game.move_code(spec, state, moves[j], features)
                            seq_codes[base + j] = code
                            top = max(top, policy[code])
                        z = 0.0  # summed in list order, as in gibbs_draw
                        for j in range(n):
                            gibbs[j] = math.exp(k * (policy[seq_codes[base + j]] - top))
                            z += gibbs[j]
                        choice = weighted_index_of_total(rng, gibbs, n, z)
                    else:
                        choice = gibbs_draw(spec, state, moves, n, features, weight, seq_codes, base, gibbs, rng)
                    seq_player[nseq] = state[H_TO_MOVE]
                    seq_chosen[nseq] = seq_codes[base + choice]
                    seq_off[nseq + 1] = base + n
                    nseq += 1
                    game.play(spec, state, moves[choice])
                    n = game.legal_moves(spec, state, moves)
                winner = state[H_WINNER]
                break
            # Existing entry: UCT selection.
            node = found
            off = node_off[node]
            count = node_n[node]
            log_total = math.log(node_total[node])
            best = 0
            best_value = -np.inf
            for i in range(count):
                visits = pool_stats[2 * (off + i) + 1]
                if visits == 0.0:
                    best = i
                    break
                value = pool_stats[2 * (off + i)] / visits + c * math.sqrt(log_total / visits)
                if value > best_value:
                    best_value = value
                    best = i
            if learn:
                base = seq_off[nseq]
                for j in range(count):
                    seq_codes[base + j] = game.move_code(spec, state, pool_move[off + j], features)
                seq_player[nseq] = state[H_TO_MOVE]
                seq_chosen[nseq] = seq_codes[base + best]
                seq_off[nseq + 1] = base + count
                nseq += 1
            path_node[depth] = node
            path_move[depth] = best
            depth += 1
            game.play(spec, state, pool_move[off + best])

        for d in range(depth):
            node = path_node[d]
            node_total[node] += 1.0
            i = path_move[d]
            if i >= 0:
                pool_stats[2 * (node_off[node] + i) + 1] += 1.0
                pool_stats[2 * (node_off[node] + i)] += reward(winner, node_player[node])
        if playout_kind == PLAYOUT_PPA:
            ppa_adapt(policy, weight, new_policy, mark, touched, iteration + 1, alpha, k,
                      seq_player, seq_chosen, seq_off, seq_codes, nseq, winner)
        elif playout_kind == PLAYOUT_MAST:
            mast_adapt(policy, weight, mast_wins, mast_games, k, seq_player, seq_chosen, nseq, winner)

    # The root is node 0: the first iteration created it.
    off = node_off[0]
    best = 0
    for i in range(node_n[0]):
        root_visits[i] = pool_stats[2 * (off + i) + 1]
        if pool_stats[2 * (off + i) + 1] > pool_stats[2 * (off + best) + 1]:
            best = i
    if policy_out.size > 0:
        policy_out[:] = policy
    return pool_move[off + best]


@njit(cache=True)
def random_playout(spec, root, rng):
    """One uniform random playout from ``root``; returns (winner, plies).  For benchmarks and tests."""
    state = root.copy()
    moves = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
    plies = 0
    move = game.random_move(spec, state, rng, moves)
    while move >= 0:
        game.play(spec, state, move)
        plies += 1
        move = game.random_move(spec, state, rng, moves)
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
            played[count] = move
            count += 1
            lengths[p] += 1
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
    gibbs = np.empty(spec[S_MAX_MOVES], dtype=np.float64)
    state = root.copy()
    total = 0
    i = 0
    for p in range(lengths.size):
        state[:] = root
        for _ in range(lengths[p]):
            if part == PROFILE_UNIFORM_DRAW:
                total += game.random_move(spec, state, rng, moves)
            elif part == PROFILE_LIST_MOVES:
                total += game.legal_moves(spec, state, moves)
            elif part == PROFILE_GIBBS_DRAW:
                n = game.legal_moves(spec, state, moves)
                total += gibbs_draw(spec, state, moves, n, False, weight, codes, 0, gibbs, rng)
            game.play(spec, state, played[i])
            i += 1
    return total
