"""Learning rules applied after each iteration of the search.  Game-free: they read the sequence the iteration
recorded (players, moves, and for move-code learning the codes of every legal move of every ply); RAVE's and
GRAVE's all-moves-as-first statistics are updated here too."""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit, nowrap
from ppalib.kernels.tree import reward

LEARN_NONE = 0
LEARN_PPA = 1   # Cazenave 2015, Alg. 4 (PPAF: the same on codes with context, Cazenave 2016)
LEARN_MAST = 2  # Cazenave 2016, Alg. 5 (MASTF: codes with context)

# The playout policy learned during one search: ``policy[code]`` and the cached ``weight = exp(k policy)``; PPA's
# scratch (polp, a mark per code with the iteration that last copied it, the codes touched); MAST's wins and games
# per code; ``stamp[0]`` counts the adapts done.
Learner = namedtuple("Learner", ["policy", "weight", "new_policy", "mark", "touched", "wins", "games", "stamp"])


@njit(cache=True)
def new_learner(codes, rule):
    """A zero policy over ``codes`` move codes for the learning ``rule`` (the papers start every search at zero)."""
    ppa = codes if rule == LEARN_PPA else 0
    mast = codes if rule == LEARN_MAST else 0
    return Learner(np.zeros(codes if rule != LEARN_NONE else 0, dtype=np.float64),
                   np.ones(codes if rule != LEARN_NONE else 0, dtype=np.float64),
                   np.empty(ppa, dtype=np.float64), np.zeros(ppa, dtype=np.int64), np.empty(ppa, dtype=np.int64),
                   np.zeros(mast, dtype=np.float64), np.zeros(mast, dtype=np.float64), np.zeros(1, dtype=np.int64))


@noalloc_jit
def ppa_adapt(policy, weight, new_policy, mark, touched, stamp, alpha, k,
              seq_player, seq_chosen, seq_off, seq_codes, nseq, winner):
    """Cazenave 2015, Algorithm 4, over a recorded sequence; updates ``policy`` and ``weight = exp(k policy)``.

    For each ply s played by the winner: ``polp[chosen] += alpha`` and ``polp[code] -= alpha exp(policy[code]) / z``
    for every legal move's code, z summed over them, with ``policy`` (hence z) as before this adapt; then
    ``policy <- polp``.  ``seq_codes[seq_off[s]:seq_off[s+1]]`` are the codes of ply s's legal moves.  Only the codes
    touched in this call are copied into ``new_policy`` (the others equal policy): O(moves seen), not O(codes).
    """
    ntouched = _ppa_list_plies(policy, weight, new_policy, mark, touched, stamp, alpha, seq_player, seq_chosen,
                               seq_off, seq_codes, nseq, winner)
    _ppa_apply(policy, weight, new_policy, touched, ntouched, k)


@noalloc_jit
def _ppa_list_plies(policy, weight, new_policy, mark, touched, stamp, alpha, seq_player, seq_chosen, seq_off,
                    seq_codes, nseq, winner):
    """``ppa_adapt``'s walk of the winner's plies into ``new_policy``; returns the number of codes touched."""
    ntouched = 0
    for s in range(nseq):
        if seq_player[nowrap(s)] != winner:
            continue
        begin = seq_off[nowrap(s)]
        end = seq_off[nowrap(s + 1)]
        z = 0.0
        for j in range(begin, end):
            code = seq_codes[nowrap(j)]
            z += weight[nowrap(code)]
            if mark[nowrap(code)] != stamp:
                mark[nowrap(code)] = stamp
                new_policy[nowrap(code)] = policy[nowrap(code)]
                touched[nowrap(ntouched)] = code
                ntouched += 1
        code = seq_chosen[nowrap(s)]
        if mark[nowrap(code)] != stamp:  # only an incremental ply (its list is empty) reaches here with an unseen code
            mark[nowrap(code)] = stamp
            new_policy[nowrap(code)] = policy[nowrap(code)]
            touched[nowrap(ntouched)] = code
            ntouched += 1
        new_policy[nowrap(code)] += alpha
        for j in range(begin, end):
            code = seq_codes[nowrap(j)]
            new_policy[nowrap(code)] -= alpha * weight[nowrap(code)] / z
    return ntouched


@noalloc_jit
def _ppa_apply(policy, weight, new_policy, touched, ntouched, k):
    """``policy <- polp`` on the touched codes, and their cached weights."""
    for t in range(ntouched):
        code = touched[nowrap(t)]
        policy[nowrap(code)] = new_policy[nowrap(code)]
        weight[nowrap(code)] = math.exp(k * policy[nowrap(code)])


# exp_in_place: Cody and Waite's reduction x = k ln 2 + r (ln 2 split in a high part exact to 32 bits and the rest,
# so k * _LN2_HI is exact for |k| < 2**20), exp(r) for |r| <= ln(2) / 2 by its Taylor polynomial of degree 13 (the
# first term left out, r**14 / 14!, is below 2**-57 of the sum), and 2**k written into a float's exponent bits.
_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_EXP_LOW = -708.0  # from here to _EXP_HIGH, 2**k and the result are normal floats; outside, libm's exp
_EXP_HIGH = 709.0
_T2, _T3, _T4, _T5, _T6, _T7 = 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040
_T8, _T9, _T10, _T11, _T12, _T13 = 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, \
    1.0 / 6227020800


@noalloc_jit
def exp_in_place(values, n):
    """``values[:n] <- exp(values[:n])`` in a loop the compiler vectorises (no call, no branch a value): about 2.2 ns
    a value against libm's 4.5 in a loop of 60 on this host, the range check included.  Within one unit in the last
    place of libm's ``exp`` (tested against ``math.exp``: at most 2**-52 relative over [-708, 709], most values bit
    for bit), and the same bits on any x86 CPU with or without vector units (IEEE operations, none fused).  When a
    value lies outside [-708, 709] (or is not a number) the whole call uses libm's ``exp``.  Engine 2's adapt uses it
    for the weights ``exp(k policy)`` (issue 25: one ``exp`` per adapted code was 6-11% of a PPA iteration in short
    games)."""
    outside = False
    for i in range(n):  # without a branch, so that this loop is vectorised too (a NaN compares false)
        v = values[nowrap(i)]
        outside |= (v < _EXP_LOW) | (v > _EXP_HIGH) | (v != v)
    if outside:
        for i in range(n):
            values[nowrap(i)] = math.exp(values[nowrap(i)])
        return
    for i in range(n):
        v = values[nowrap(i)]
        k = np.floor(v * _LOG2E + 0.5)
        r = (v - k * _LN2_HI) - k * _LN2_LO
        p = _T13
        p = p * r + _T12
        p = p * r + _T11
        p = p * r + _T10
        p = p * r + _T9
        p = p * r + _T8
        p = p * r + _T7
        p = p * r + _T6
        p = p * r + _T5
        p = p * r + _T4
        p = p * r + _T3
        p = p * r + _T2
        p = p * r + 1.0
        p = p * r + 1.0
        values[nowrap(i)] = p * np.int64((np.int64(k) + 1023) << 52).view(np.float64)


@noalloc_jit
def close_interval(acc, acc_mark, acc_touched, acc_count, pref, player, code, ncodes, start, end):
    """A slot was legal for ``player`` with ``code`` from ply ``start`` to ply ``end`` (excluded): add the sum of
    ``1 / z_t`` over ``player``'s plies in between (``pref``: per-player prefix sums, a row of ``pref.size // 2``
    each) to ``acc[player * ncodes + code]``, listing the entry in ``acc_touched`` the first time."""
    row = pref.size // 2
    d = pref[nowrap(player * row + end)] - pref[nowrap(player * row + start)]
    if d != 0.0:
        j = player * ncodes + code
        if acc_mark[nowrap(j)] == 0:
            acc_mark[nowrap(j)] = 1
            acc_touched[nowrap(player * ncodes + acc_count[nowrap(player)])] = j
            acc_count[nowrap(player)] += 1
        acc[nowrap(j)] += d


@noalloc_jit
def ppa_adapt_incremental(policy, weight, new_policy, mark, touched, stamp, alpha, k, seq_player, seq_chosen,
                          seq_off, seq_codes, nseq, winner, acc, acc_mark, acc_touched, acc_count, exp_code, exp_value):
    """Algorithm 4 for a sequence whose playout plies were drawn by the incremental engine
    (``ppalib.kernels.incremental``): the plies with a move list (a ply with no legal slot, drawn from the game's
    list or, in the tree's descent, chosen from the node's) as ``ppa_adapt``; for the others
    ``polp[code] -= alpha * weight[code] * acc[winner, code]``, ``acc`` holding the sum of ``1 / z_t`` over the
    winner's plies where a move of that code was legal (the same sum as the literal walk, in another order: equal to
    rounding).  A code met only by intervals (no list, not played) gets its new policy at once rather than through
    ``new_policy`` and the touched list: its update reads only its own weight, so the value is the same bit for bit,
    with fewer passes over scattered memory (PPAF touches hundreds of codes an adapt).  Every changed code's weight
    ``exp(k policy)`` is then computed in one vectorised pass (``exp_in_place`` on ``exp_value``, the codes in
    ``exp_code``; both hold ``policy.size``): within one unit in the last place of libm's ``exp``, so the weight
    of a given policy value may differ by that much from engine 1's ``math.exp`` (its draws already differ by
    summation order).  No weight is read after the first one changes.  ``acc`` is cleared for the next playout."""
    ncodes = policy.size
    ntouched = _ppa_list_plies(policy, weight, new_policy, mark, touched, stamp, alpha, seq_player, seq_chosen,
                               seq_off, seq_codes, nseq, winner)
    changed = np.int64(0)  # not a literal 0 (``ppalib._noalloc``): one compile
    for player in range(2):
        for t in range(acc_count[nowrap(player)]):
            j = acc_touched[nowrap(player * ncodes + t)]
            if player == winner:
                code = j - player * ncodes
                step = alpha * weight[nowrap(code)] * acc[nowrap(j)]
                if mark[nowrap(code)] == stamp:  # also met in a list or played: applied with the others below
                    new_policy[nowrap(code)] -= step
                else:
                    # only here: its update reads its own weight alone (no other code's), so it is applied now,
                    # without going through new_policy (the same value: policy - step)
                    updated = policy[nowrap(code)] - step
                    policy[nowrap(code)] = updated
                    exp_code[nowrap(changed)] = code
                    exp_value[nowrap(changed)] = k * updated
                    changed += 1
            acc[nowrap(j)] = 0.0
            acc_mark[nowrap(j)] = 0
        acc_count[nowrap(player)] = 0
    for t in range(ntouched):
        code = touched[nowrap(t)]
        policy[nowrap(code)] = new_policy[nowrap(code)]
        exp_code[nowrap(changed)] = code
        exp_value[nowrap(changed)] = k * new_policy[nowrap(code)]
        changed += 1
    exp_in_place(exp_value, changed)
    for t in range(changed):
        weight[nowrap(exp_code[nowrap(t)])] = exp_value[nowrap(t)]


@noalloc_jit
def mast_adapt(policy, weight, wins, games, k, seq_player, seq_chosen, nseq, winner):
    """Cazenave 2016, Algorithm 5: each played code gets ``games += 1`` and ``wins += 1`` for its player's win (0.5 a
    draw); ``policy[code] = wins / games``.  (The algorithm ends with a stray ``policy <- polp``; MAST has no polp,
    so the updates are applied directly.)"""
    for s in range(nseq):
        code = seq_chosen[nowrap(s)]
        games[nowrap(code)] += 1.0
        wins[nowrap(code)] += reward(winner, seq_player[nowrap(s)])
        policy[nowrap(code)] = wins[nowrap(code)] / games[nowrap(code)]
        weight[nowrap(code)] = math.exp(k * policy[nowrap(code)])


@noalloc_jit
def amaf_update(pool_move, pool_amaf, off, count, player, result, seq_player, seq_move, first, nseq):
    """RAVE's all-moves-as-first statistics of one entry (Mehat & Vittaut 2013, section 2): every move its
    ``player`` made later in the iteration, from ply ``first`` on, counts once per iteration for the entry's
    same move (if it is in the entry's list) with this iteration's ``result``."""
    for j in range(first, nseq):
        if seq_player[nowrap(j)] != player:
            continue
        move = seq_move[nowrap(j)]
        seen = False
        for jj in range(first, j):
            if seq_player[nowrap(jj)] == player and seq_move[nowrap(jj)] == move:
                seen = True
                break
        if seen:
            continue
        for m in range(count):
            if pool_move[nowrap(off + m)] == move:
                pool_amaf[nowrap(2 * (off + m) + 1)] += 1.0
                pool_amaf[nowrap(2 * (off + m))] += result
                break


@noalloc_jit
def grave_amaf_update(node_amaf, row, path_node, path_ply, depth, seq_player, seq_code, nseq, winner, mark, stamp,
                      last):
    """GRAVE's AMAF statistics per move code (Cazenave 2015, IJCAI): each entry ``path_node[d]`` of the iteration's
    path counts, once per iteration, every move code played from its ply ``path_ply[d]`` on (by either player:
    codes include the mover), with the result of the code's player.  The entry's row of ``node_amaf`` starts at
    ``path_node[d] * row`` and holds (wins, playouts) side by side per code.

    The codes counted at an entry are those whose *last* occurrence is at or after its ply, so one pass from the
    end lists each code once with its last ply (``mark``: a stamp per code, ``stamp`` this iteration's; ``last``:
    scratch for the plies), and each entry walks that list until the plies fall before its own."""
    distinct = 0
    for j in range(nseq - 1, -1, -1):
        code = seq_code[nowrap(j)]
        if mark[nowrap(code)] != stamp:
            mark[nowrap(code)] = stamp
            last[nowrap(distinct)] = j
            distinct += 1
    for d in range(depth):
        base = path_node[nowrap(d)] * row
        first = path_ply[nowrap(d)]
        for t in range(distinct):
            j = last[nowrap(t)]
            if j < first:
                break
            slot = base + 2 * seq_code[nowrap(j)]
            node_amaf[nowrap(slot + 1)] += 1.0
            node_amaf[nowrap(slot)] += reward(winner, seq_player[nowrap(j)])


@noalloc_jit
def root_prefers_rave(pool_stats, pool_amaf, off, count, margin, both_sides):
    """Adaptive RAVE's rule at the root (Mehat & Vittaut 2013, section 7; applied at any entry by the per-node
    variant, their section 8's proposal): a move with both an observed mean and an
    AMAF mean r is optimistic if ``r > mean + margin``, pessimistic if ``r < mean - margin`` (``both_sides``) or
    ``r < mean`` (the margin on the optimism test only, the reading of the paper's Figure 4 caption); RAVE is used
    when the playouts of the optimistic moves outnumber those of the pessimistic ones."""
    optimistic = 0.0
    pessimistic = 0.0
    low = margin if both_sides else 0.0
    for i in range(count):
        j = 2 * (off + i)
        visits = pool_stats[nowrap(j + 1)]
        if visits > 0.0 and pool_amaf[nowrap(j + 1)] > 0.0:
            mean = pool_stats[nowrap(j)] / visits
            r = pool_amaf[nowrap(j)] / pool_amaf[nowrap(j + 1)]
            if r > mean + margin:
                optimistic += visits
            elif r < mean - low:
                pessimistic += visits
    return optimistic > pessimistic
