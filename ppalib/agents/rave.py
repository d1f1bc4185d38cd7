"""UCT with RAVE, RAVE used for a fraction of the child selections, and adaptive RAVE (seed 001, sections 2, 6, 7).

A template specialised per game module like ``mcts.py`` (see ``ppalib._jit``); call it through
``ppalib.agents.search`` with an agent of kind ``rave``.

Tree and statistics (section 2): a transposition table keyed by the position hash; each entry holds, per legal
move (indexed by its position in the legal-move list), the mean result of the playouts that started with the
move (the edge), and the RAVE table: the mean result of all playouts through the entry in which the move was
played later on.  Rewards are the match result for the entry's player to move: 1 win, 0.5 draw, 0 loss
(the paper's 100 / 50 / 0).

Move score in the descent:

* never started a playout: the default mean, the maximum result 1 ("unexplored moves are preferred over
  sub-optimal explored moves");
* started some: the UCT score ``u = mean + c * sqrt(log(t) / s)``, t the entry's total playouts, s the move's;
* when RAVE is in use and the move was played later in some playouts: ``(1 - a) * u + a * r``, r the RAVE mean,
  ``a = sqrt(k_rave / (3 t + k_rave))`` (u is the default mean for a never-started move).

Readings where the extracted text is ambiguous: (1) t in a's formula is the entry's total playouts, the t of
the UCT formula just above it in the paper (the Gelly-Silver schedule uses the node's visit count too); the
extraction's "sqrt(k/3t + k)" is read as sqrt(k / (3t + k)).  (2) "played later on" counts the moves made after
the entry by the entry's player to move, from the entry's own move on (the usual RAVE convention: a move's
value is for the player who makes it); each move counts once per playout.  The maximum score is chosen with
uniformly random tie-breaking.  The move played is the one with the most playouts at the root (first on ties).

RAVE usage (section 6): with ``adaptive`` off, each child selection uses RAVE with probability ``rave_rate``.
Adaptive RAVE (section 7): before each descent, at the root, every move with both an observed mean and a RAVE
mean is optimistic if ``r > mean + margin`` and pessimistic if ``r < mean - margin``; RAVE is used for every
choice of that descent when the playouts of the optimistic moves outnumber those of the pessimistic ones.
"""
import math

import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit
from ppalib._rng import random_float
from ppalib.agents._tree import add_entry, lookup, new_table, reward
from ppalib.games._common import H_HASH, H_TO_MOVE, H_WINNER, S_MAX_MOVES, S_MAX_PLIES
from ppalib.games import breakthrough as game  # <game-import>


@noalloc_jit
def move_score(mean_wins, visits, rave_wins, rave_visits, total, c, k_rave, use_rave):
    """The score of one move (see the module docstring); all counts for the entry's player to move."""
    if visits == 0.0:
        u = 1.0
    else:
        u = mean_wins / visits + c * math.sqrt(math.log(total) / visits)
    if use_rave and rave_visits > 0.0:
        a = math.sqrt(k_rave / (3.0 * total + k_rave))
        return (1.0 - a) * u + a * (rave_wins / rave_visits)
    return u


@noalloc_jit
def root_prefers_rave(wins, visits, rave_wins, rave_visits, margin):
    """Section 7's rule at the root: playouts of optimistic moves outnumber those of pessimistic ones."""
    optimistic = 0.0
    pessimistic = 0.0
    for i in range(wins.size):
        if visits[i] > 0.0 and rave_visits[i] > 0.0:
            mean = wins[i] / visits[i]
            r = rave_wins[i] / rave_visits[i]
            if r > mean + margin:
                optimistic += visits[i]
            elif r < mean - margin:
                pessimistic += visits[i]
    return optimistic > pessimistic


@njit(cache=True)
def search(spec, root, rng, playouts, c, k_rave, rave_rate, adaptive, margin, root_visits, rave_used):
    """One search from ``root``; returns the move.  ``root_visits`` receives the root moves' playouts;
    ``rave_used[0]`` the number of descents (adaptive) or selections (fixed rate) that used RAVE, and
    ``rave_used[1]`` the total of descents / selections."""
    max_moves = spec[S_MAX_MOVES]
    max_seq = spec[S_MAX_PLIES] + 1
    capacity = playouts + 1
    table, node_key, node_player, node_total, node_n, node_off = new_table(capacity)
    pool_size = capacity * max_moves
    pool_move = np.empty(pool_size, dtype=np.int64)
    pool_wins = np.zeros(pool_size, dtype=np.float64)
    pool_visits = np.zeros(pool_size, dtype=np.float64)
    pool_rave_wins = np.zeros(pool_size, dtype=np.float64)
    pool_rave_visits = np.zeros(pool_size, dtype=np.float64)
    nodes = 0
    pool_used = 0
    state = root.copy()
    moves = np.empty(max_moves, dtype=np.int64)
    path_node = np.empty(max_seq + 1, dtype=np.int64)
    path_move = np.empty(max_seq + 1, dtype=np.int64)
    path_ply = np.empty(max_seq + 1, dtype=np.int64)
    seq_player = np.empty(max_seq + 1, dtype=np.int64)
    seq_move = np.empty(max_seq + 1, dtype=np.int64)
    rave_used[0] = 0
    rave_used[1] = 0

    for iteration in range(playouts):
        state[:] = root
        depth = 0
        nseq = 0
        descent_rave = False
        if adaptive and nodes > 0:
            off = node_off[0]
            count = node_n[0]
            descent_rave = root_prefers_rave(pool_wins[off:off + count], pool_visits[off:off + count],
                                             pool_rave_wins[off:off + count], pool_rave_visits[off:off + count],
                                             margin)
        if adaptive:
            rave_used[1] += 1
            if descent_rave:
                rave_used[0] += 1
        while True:
            n = game.legal_moves(spec, state, moves)
            if n == 0:
                break
            found = lookup(table, node_key, state[H_HASH])
            if found < 0:
                node = nodes
                nodes += 1
                add_entry(table, found, node_key, node_player, node_total, node_n, node_off, node, state[H_HASH],
                          state[H_TO_MOVE], n, pool_used)
                for i in range(n):
                    pool_move[pool_used + i] = moves[i]
                pool_used += n
                path_node[depth] = node
                path_move[depth] = -1
                path_ply[depth] = nseq
                depth += 1
                move = game.random_move(spec, state, rng, moves)
                while move >= 0:
                    seq_player[nseq] = state[H_TO_MOVE]
                    seq_move[nseq] = move
                    nseq += 1
                    game.play(spec, state, move)
                    move = game.random_move(spec, state, rng, moves)
                break
            node = found
            off = node_off[node]
            count = node_n[node]
            total = node_total[node]
            if adaptive:
                use_rave = descent_rave
            else:
                use_rave = random_float(rng) < rave_rate
                rave_used[1] += 1
                if use_rave:
                    rave_used[0] += 1
            best = 0
            best_score = -np.inf
            ties = 0
            for i in range(count):
                score = move_score(pool_wins[off + i], pool_visits[off + i], pool_rave_wins[off + i],
                                   pool_rave_visits[off + i], total, c, k_rave, use_rave)
                if score > best_score:
                    best_score = score
                    best = i
                    ties = 1
                elif score == best_score:
                    ties += 1
                    if random_float(rng) * ties < 1.0:  # reservoir: uniform among the maxima
                        best = i
            path_node[depth] = node
            path_move[depth] = best
            path_ply[depth] = nseq
            depth += 1
            seq_player[nseq] = state[H_TO_MOVE]
            seq_move[nseq] = pool_move[off + best]
            nseq += 1
            game.play(spec, state, pool_move[off + best])
        winner = state[H_WINNER]
        for d in range(depth):
            node = path_node[d]
            off = node_off[node]
            count = node_n[node]
            player = node_player[node]
            result = reward(winner, player)
            node_total[node] += 1.0
            i = path_move[d]
            if i >= 0:
                pool_visits[off + i] += 1.0
                pool_wins[off + i] += result
            # RAVE: every later move of this entry's player, once per playout, if legal at the entry.
            for j in range(path_ply[d], nseq):
                if seq_player[j] != player:
                    continue
                move = seq_move[j]
                seen = False
                for jj in range(path_ply[d], j):
                    if seq_player[jj] == player and seq_move[jj] == move:
                        seen = True
                        break
                if seen:
                    continue
                for m in range(count):
                    if pool_move[off + m] == move:
                        pool_rave_visits[off + m] += 1.0
                        pool_rave_wins[off + m] += result
                        break

    off = node_off[0]
    best = 0
    for i in range(node_n[0]):
        root_visits[i] = pool_visits[off + i]
        if pool_visits[off + i] > pool_visits[off + best]:
            best = i
    return pool_move[off + best]
