"""The one MCTS loop (a template: specialised per game module by ``ppalib._specialise``).

Every agent is this loop with three parts chosen by its ``SearchSettings``:

=========================  ===================  ======================  ==============
agent                      selection            playout                 learning
=========================  ===================  ======================  ==============
UCT (Cazenave 2015)        UCB1                 uniform                 none
PPA, PPAF                  UCB1                 Gibbs on code weights   PPA
MAST, MASTF                UCB1                 Gibbs on code weights   MAST
RAVE, adaptive RAVE        UCB1 + RAVE          uniform                 (AMAF back-up)
GRAVE (Cazenave 2015b)     GRAVE                uniform                 (AMAF back-up)
PPA, PPAF, MAST + GRAVE    GRAVE                Gibbs on code weights   PPA / MAST
PUCT (Soemers et al.)      PUCT, stored priors  first move from prior   none
=========================  ===================  ======================  ==============

Adaptive RAVE decides whether a descent uses RAVE at the root, once per iteration (Mehat & Vittaut 2013, section
7), or, per node (``adaptive_per_node``; their section 8's proposal), at every entry with more than
``node_playouts`` playouts from its own statistics, the entries below inheriting the closest such ancestor's
decision (the root always decides).  GRAVE (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015;
"2015b" above) scores an entry's moves with the AMAF statistics of the closest entry on the descent, itself
included, with more than ``grave_ref`` playouts (the root when none has), kept per move code for every entry.

One iteration (Cazenave 2015, Alg. 7; Mehat & Vittaut 2013, section 2):

1. **descend** from the root while the position has a tree entry, choosing moves by the selection rule;
2. **expand**: at the first position without an entry, make one (its legal moves with zero statistics and, for
   PUCT, their priors, computed once: here when the playout draws its first move from them, else at the
   entry's first descent).  The position a PUCT playout's first move reaches gets an entry too (Soemers et al.
   2019, V-A), whose moves are listed at its first descent (``node_off`` -1 until then);
3. **playout** from there to the end of the game with the playout policy;
4. **back up and learn**: every entry on the path counts the playout (its total, and the taken move's wins and
   playouts for the entry's player to move; for RAVE also the AMAF statistics), then the learning rule adapts the
   playout policy on the iteration's sequence.

The tree (``ppalib.kernels.tree.Tree``) and the learned policy (``ppalib.kernels.learning.Learner``) are arguments,
so a search can run in several calls (a thinking-time budget) and a tree can be kept between moves (tree reuse,
``retain_subtree``).
"""
import math

import numpy as np
from numba import njit

from ppalib._noalloc import noalloc_jit, nowrap
from ppalib._rng import random_float, weighted_index, weighted_index_of_total
from ppalib.features.matcher import move_logits
from ppalib.games._common import H_HASH, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES
from ppalib.kernels import selection
from ppalib.kernels import incremental
from ppalib.kernels.incremental import HAS_SLOT_MASK
from ppalib.kernels import sumtree
from ppalib.kernels.learning import LEARN_MAST, LEARN_NONE, LEARN_PPA, amaf_update, grave_amaf_update, mast_adapt, \
    ppa_adapt, ppa_adapt_incremental, root_prefers_rave
from ppalib.kernels.playout import gibbs_draw, play_random_playout, uniform, uniform_coded
from ppalib.kernels.settings import PLAYOUT_ENGINE_INCREMENTAL, PLAYOUT_FEATURES, PLAYOUT_GIBBS, PLAYOUT_PRIOR_FIRST
from ppalib.kernels.tree import ENTRIES, POOL, Tree, add_entry, amaf_codes, grown_copy, lookup, most_visited, \
    new_tree, reward
from ppalib.games import contract as game  # <game-import>


@noalloc_jit
def feature_logits(spec, state, moves, n, features, theta, owner_rel, moves_from, moves_to, out):
    """``out[i] = theta . phi(state, moves[i])`` for the ``n`` legal moves (Soemers et al. 2019, eq. 1), by the
    compiled matcher: ``features`` is a ``CompiledFeatures`` of ``ppalib.features``, ``theta`` its weights.
    ``owner_rel`` (int8[cells]), ``moves_from`` and ``moves_to`` are scratch (``owner_rel`` is filled here from
    the game's ``cell_owner``, relative to the player to move: features say friend / enemy)."""
    cells = features[0][0]
    mover = state[H_TO_MOVE]
    for cell in range(cells):
        owner = game.cell_owner(spec, state, cell)
        owner_rel[nowrap(cell)] = 0 if owner < 0 else (1 if owner == mover else 2)
    for i in range(n):
        moves_from[nowrap(i)] = game.move_from(spec, state, moves[nowrap(i)])
        moves_to[nowrap(i)] = game.move_to(spec, state, moves[nowrap(i)])
    # numba cannot star-unpack a named tuple into a call: its 32 arrays are passed one by one
    move_logits(features[0], features[1], features[2], features[3], features[4], features[5], features[6],
                features[7], features[8], features[9], features[10], features[11], features[12], features[13],
                features[14], features[15], features[16], features[17], features[18], features[19], features[20],
                features[21], features[22], features[23], features[24], features[25], features[26], features[27],
                features[28], features[29], features[30], features[31], theta, owner_rel, moves_from, moves_to, n,
                out)


@noalloc_jit
def softmax_in_place(values, n):
    """``values[:n]`` replaced by their softmax (the largest subtracted first)."""
    top = -np.inf
    for i in range(n):
        top = max(top, values[nowrap(i)])
    z = 0.0
    for i in range(n):
        values[nowrap(i)] = math.exp(values[nowrap(i)] - top)
        z += values[nowrap(i)]
    for i in range(n):
        values[nowrap(i)] /= z


@noalloc_jit
def entry_priors(spec, state, moves, n, with_context, prior_logits, features, theta, owner_rel, moves_from,
                 moves_to, scratch, out, base):
    """PUCT's priors of the ``n`` legal ``moves``, written to ``out[base:base + n]``: the apprentice's softmax
    p(s, a) of Soemers et al. 2019 (eq. 2) when ``theta`` is not empty (``feature_logits``); else the softmax of
    ``prior_logits[code(move)]``; uniform when both are empty."""
    if theta.size > 0:
        feature_logits(spec, state, moves, n, features, theta, owner_rel, moves_from, moves_to, scratch)
    elif prior_logits.size > 0:
        for i in range(n):
            scratch[nowrap(i)] = prior_logits[nowrap(game.move_code(spec, state, moves[nowrap(i)], with_context))]
    else:
        for i in range(n):
            out[nowrap(base + i)] = 1.0 / n
        return
    softmax_in_place(scratch, n)
    for i in range(n):
        out[nowrap(base + i)] = scratch[nowrap(i)]


@njit(cache=True)
def run_iterations(spec, root, rng, tree, learner, settings, iterations, prior_logits, features, theta,
                   rave_used, plies_played):
    """Run ``iterations`` iterations from ``root`` on ``tree`` and ``learner``; return the tree (a new one if it grew).

    spec, root: the game's spec and the position (int64 arrays; ``root`` is not modified).
    rng: uint64[4] generator state, advanced in place.  settings: ``SearchSettings``.
    prior_logits: float64 per move code for PUCT's priors (empty: uniform).
    features, theta: a ``ppalib.features.CompiledFeatures`` and its weights (float64[features]); when ``theta`` is not
    empty PUCT's priors are the features' softmax policy, and ``PLAYOUT_FEATURES`` draws every playout move from it.
    rave_used: int64[2], incremented: RAVE-using descents (adaptive at the root) or selections (fixed rate,
    adaptive per node), and all of them.
    plies_played: int64[1], incremented by each iteration's plies from the root to where it ended (the tree's descent
    and the playout: ``H_PLY`` there minus the root's), which is what a playout move's cost is judged by.
    The tree must have room for ``2 * iterations`` more entries (``ppalib.kernels.tree.reserve``); its move pool
    grows here when full.
    """
    max_moves = spec[S_MAX_MOVES]
    max_seq = spec[S_MAX_PLIES] + 1
    learn = settings.learning != LEARN_NONE
    amaf = settings.selection == selection.SELECT_UCB1_RAVE
    puct = settings.selection == selection.SELECT_PUCT
    grave = settings.selection == selection.SELECT_GRAVE
    record = learn or amaf or grave
    root_decides = settings.adaptive and not settings.adaptive_per_node
    seq_len = max_seq if record else 1
    seq_player = np.empty(seq_len, dtype=np.int64)
    seq_move = np.empty(seq_len, dtype=np.int64)
    seq_chosen = np.empty(seq_len if learn else 1, dtype=np.int64)
    seq_off = np.zeros(seq_len + 1, dtype=np.int64)
    seq_codes = np.empty(seq_len * max_moves if learn else 1, dtype=np.int64)
    # GRAVE: each ply's move code (context-free: the move and its player), a row of AMAF statistics per entry
    row = 2 * amaf_codes(tree)
    seq_code = np.empty(seq_len if grave else 1, dtype=np.int64)
    move_codes = np.empty(max_moves if grave else 1, dtype=np.int64)
    code_mark = np.zeros(spec[S_NUM_CODES] if grave else 1, dtype=np.int64)
    code_last = np.empty(seq_len if grave else 1, dtype=np.int64)
    ref_node = 0
    # MAST means lie in [0, 1], so exp(k * mean) overflows a double for k > 709 (Cazenave 2016 sweeps k up to
    # 4096): there the weights are computed per ply, shifted by the largest (the same distribution).
    shifted = settings.learning == LEARN_MAST and settings.k > 700.0
    scratch = np.empty(max_moves, dtype=np.float64)
    # The incremental Gibbs engine (``playout_engine`` 2, the ``incremental`` module) where the game keeps
    # slots; MAST with shifted weights stays on the lists (its weights are not fixed per code).
    slots = incremental.num_slots(spec)
    engine2 = (settings.playout == PLAYOUT_GIBBS and settings.playout_engine == PLAYOUT_ENGINE_INCREMENTAL
               and slots > 0 and not shifted)
    inc_slots = slots if engine2 else 1
    inc_size = sumtree.leaves_for(inc_slots)
    inc_trees = np.zeros(4 * inc_size if engine2 else 1, dtype=np.float64)
    inc_code = np.empty(2 * inc_slots if engine2 else 1, dtype=np.int64)
    inc_open = np.empty(2 * inc_slots if engine2 else 1, dtype=np.int64)
    inc_dirty = np.empty(incremental.dirty_capacity(inc_slots) if engine2 else 1, dtype=np.int64)
    inc_seen = np.zeros(inc_slots + 1, dtype=np.int64)
    inc_memo = np.zeros(16, dtype=np.int64)
    inc_learn = engine2 and settings.learning == LEARN_PPA
    ncodes = learner.policy.size
    inc_pref = np.zeros(2 * (max_seq + 1) if engine2 else 2, dtype=np.float64)
    inc_acc = np.zeros(2 * ncodes if inc_learn else 1, dtype=np.float64)
    inc_acc_mark = np.zeros(2 * ncodes if inc_learn else 1, dtype=np.uint8)
    inc_acc_touched = np.empty(2 * ncodes if inc_learn else 1, dtype=np.int64)
    inc_acc_count = np.zeros(2, dtype=np.int64)
    inc_exp_code = np.empty(ncodes if inc_learn else 1, dtype=np.int64)
    inc_exp_value = np.empty(ncodes if inc_learn else 1, dtype=np.float64)
    inc_log = np.zeros(incremental.log_size(inc_slots, max_seq) if inc_learn else 2, dtype=np.int64)
    # PPA where the game's slots only ever stop being legal, each with one code: playouts by ``masked_playout`` (the
    # same games bit for bit), the trees kept from the game's legal masks alone.
    inc_masked = HAS_SLOT_MASK and inc_learn and incremental.masked_ok(spec, inc_slots, settings.with_context)
    inc_masks = np.zeros(2 * (max_seq + 1) if inc_masked else 2, dtype=np.uint64)
    masked_first = -1
    owner_rel = np.zeros(max(features[0][0], 1), dtype=np.int8)
    moves_from = np.empty(max_moves, dtype=np.int64)
    moves_to = np.empty(max_moves, dtype=np.int64)
    state = root.copy()
    moves = np.empty(max_moves, dtype=np.int64)
    path_node = np.empty(max_seq + 2, dtype=np.int64)
    path_move = np.empty(max_seq + 2, dtype=np.int64)
    path_ply = np.empty(max_seq + 2, dtype=np.int64)
    # The tree's arrays as locals: the loop never reads them through the tuple (which would cost reference counts).
    table = tree.table
    node_key = tree.node_key
    node_player = tree.node_player
    node_total = tree.node_total
    node_n = tree.node_n
    node_off = tree.node_off
    pool_move = tree.pool_move
    pool_stats = tree.pool_stats
    pool_amaf = tree.pool_amaf
    pool_prior = tree.pool_prior
    node_amaf = tree.node_amaf
    entries = tree.sizes[ENTRIES]
    pool_used = tree.sizes[POOL]
    # The learned policy's arrays as locals too.
    policy = learner.policy
    weight = learner.weight
    new_policy = learner.new_policy
    mark = learner.mark
    touched = learner.touched
    mast_wins = learner.wins
    mast_games = learner.games
    stamp = learner.stamp
    root_node = lookup(table, node_key, root[H_HASH])
    # The root's slot codes, computed once: every iteration restarts the sum trees from them (``restart``).
    inc_root_code = np.empty(2 * inc_slots if inc_learn else 1, dtype=np.int64)
    if inc_learn:
        incremental.start(spec, state, settings.with_context, weight, inc_slots, inc_size, inc_trees, inc_code,
                          inc_open, inc_pref, np.int64(0))
        inc_root_code[:] = inc_code

    plies = -iterations * root[H_PLY]  # each iteration's plies: H_PLY where it ends minus the root's
    for iteration in range(iterations):
        state[:] = root
        depth = 0
        nseq = np.int64(0)  # not a literal 0 (``ppalib._noalloc``): one compile
        masked_first = -1
        if inc_learn:  # PPA's sum trees from the root: the descent's plies are counted by intervals too
            incremental.restart(inc_root_code, weight, inc_slots, inc_size, inc_trees, inc_code, inc_open, inc_pref)
        descent_rave = False
        if root_decides:
            if root_node >= 0:
                descent_rave = root_prefers_rave(pool_stats, pool_amaf, node_off[nowrap(root_node)],
                                                 node_n[nowrap(root_node)], settings.margin, settings.margin_both_sides)
            rave_used[1] += 1
            if descent_rave:
                rave_used[0] += 1
        in_playout = False  # Soemers et al.'s playout: its first move was drawn from the prior
        while True:
            # A position ended by its last move (e.g. at Go's ply cap) can share its hash with an entry made
            # earlier: test the end first.  Entries are made only at positions with legal moves.
            if state[H_WINNER] != ONGOING:
                break
            found = lookup(table, node_key, state[H_HASH])
            if found >= 0 and in_playout:  # the prior's move reached a position already in the tree
                nseq = uniform(spec, state, rng, moves, record, seq_player, seq_move, nseq)
                break
            listing = found >= 0 and node_off[nowrap(found)] < 0  # an entry whose moves are not listed yet (below)
            if found >= 0 and not listing:
                # Descend.
                node = found
                off = node_off[nowrap(node)]
                count = node_n[nowrap(node)]
                if settings.selection == selection.SELECT_UCB1:
                    best = selection.ucb1(pool_stats, off, count, node_total[nowrap(node)], settings.c, scratch)
                elif settings.selection == selection.SELECT_UCB1_LUDII:
                    best = selection.ucb1_ludii(pool_stats, off, count, settings.c, rng, scratch)
                elif amaf:
                    if root_decides:
                        use_rave = descent_rave
                    elif settings.adaptive:
                        # Per node: an entry with enough playouts decides from its own moves (the root always
                        # does, as root-only adaptive RAVE); the others keep the closest such ancestor's decision.
                        if depth == 0 or node_total[nowrap(node)] > settings.node_playouts:
                            descent_rave = root_prefers_rave(pool_stats, pool_amaf, off, count, settings.margin,
                                                             settings.margin_both_sides)
                        use_rave = descent_rave
                        rave_used[1] += 1
                        if use_rave:
                            rave_used[0] += 1
                    else:
                        use_rave = random_float(rng) < settings.rave_rate
                        rave_used[1] += 1
                        if use_rave:
                            rave_used[0] += 1
                    best = selection.ucb1_rave(pool_stats, pool_amaf, off, count, node_total[nowrap(node)], settings.c,
                                               settings.k_rave, use_rave, rng, scratch)
                elif grave:
                    if depth == 0 or node_total[nowrap(node)] > settings.grave_ref:
                        ref_node = node
                    for j in range(count):
                        move_codes[nowrap(j)] = game.move_code(spec, state, pool_move[nowrap(off + j)], False)
                    best = selection.grave(pool_stats, off, count, node_amaf, ref_node * row, move_codes,
                                           settings.grave_bias)
                else:
                    if pool_prior[nowrap(off)] < 0.0:  # priors not computed yet (see the expansion)
                        for j in range(count):
                            moves[nowrap(j)] = pool_move[nowrap(off + j)]
                        entry_priors(spec, state, moves, count, settings.with_context, prior_logits, features, theta,
                                     owner_rel, moves_from, moves_to, scratch, pool_prior, off)
                    best = selection.puct(pool_stats, pool_prior, off, count, settings.c, rng, scratch)
                move = pool_move[nowrap(off + best)]
                if record:
                    seq_player[nowrap(nseq)] = state[H_TO_MOVE]
                    seq_move[nowrap(nseq)] = move
                    if grave:
                        seq_code[nowrap(nseq)] = move_codes[nowrap(best)]
                    if learn:
                        # Alg. 4 needs every legal move's code at a PPA ply: with the incremental engine the sum
                        # trees, kept from the root (``incremental.tree_ply``), count the ply by intervals instead
                        # of listing the node's moves; MAST's update reads only the chosen code.
                        base = seq_off[nowrap(nseq)]
                        code = -1
                        if inc_learn:
                            code = incremental.tree_ply(inc_slots, inc_size, inc_trees, inc_code, inc_pref,
                                                        state[H_TO_MOVE], move, nseq)
                        elif settings.learning == LEARN_MAST:
                            code = game.move_code(spec, state, move, settings.with_context)
                        if code >= 0:
                            seq_chosen[nowrap(nseq)] = code
                            seq_off[nowrap(nseq + 1)] = base
                        else:
                            for j in range(count):
                                seq_codes[nowrap(base + j)] = game.move_code(spec, state, pool_move[nowrap(off + j)],
                                                                     settings.with_context)
                            seq_chosen[nowrap(nseq)] = seq_codes[nowrap(base + best)]
                            seq_off[nowrap(nseq + 1)] = base + count
                    nseq += 1
                path_node[nowrap(depth)] = node
                path_move[nowrap(depth)] = best
                path_ply[nowrap(depth)] = nseq - 1
                depth += 1
                if inc_learn:
                    incremental.descend(spec, state, move, settings.with_context, weight, True, inc_slots, inc_size,
                                        inc_trees, inc_code, inc_open, inc_dirty, inc_seen, inc_memo, inc_log, nseq)
                else:
                    game.play(spec, state, move)
                continue
            if in_playout:
                # Soemers et al.'s playout made its first move: the position reached gets an entry, whose moves are
                # listed at its first descent (``listing``), not now: few of these entries are ever descended
                # through, and listing and storing every one's moves cost about a third of an iteration of PUCT at
                # Yavalath and Gomoku (a tree twice as large in memory).  The search is the same: a move list is a
                # function of the position, and listing draws nothing.
                node = entries
                table[nowrap(-1 - found)] = node + 1
                node_key[nowrap(node)] = state[H_HASH]
                node_player[nowrap(node)] = state[H_TO_MOVE]
                node_total[nowrap(node)] = 0.0
                node_n[nowrap(node)] = 0
                node_off[nowrap(node)] = -1
                entries += 1
                for i in range(node * row, (node + 1) * row):
                    node_amaf[nowrap(i)] = 0.0
                path_node[nowrap(depth)] = node
                path_move[nowrap(depth)] = -1
                path_ply[nowrap(depth)] = nseq
                depth += 1
                nseq = uniform(spec, state, rng, moves, record, seq_player, seq_move, nseq)
                break
            # Expand: a new entry (or list the moves of one made by Soemers et al.'s playout), then a playout.
            n = game.legal_moves(spec, state, moves)
            if n == 0:
                break
            if pool_used + n > pool_move.size:
                size = max(2 * pool_move.size, pool_used + n)
                pool_move = grown_copy(pool_move, size, pool_used)
                pool_stats = grown_copy(pool_stats, 2 * size, 2 * pool_used)
                if amaf:
                    pool_amaf = grown_copy(pool_amaf, 2 * size, 2 * pool_used)
                if puct:
                    pool_prior = grown_copy(pool_prior, size, pool_used)
            if listing:
                node = found
            else:
                node = entries
                table[nowrap(-1 - found)] = node + 1
                node_key[nowrap(node)] = state[H_HASH]
                node_player[nowrap(node)] = state[H_TO_MOVE]
                node_total[nowrap(node)] = 0.0
                entries += 1
                for i in range(node * row, (node + 1) * row):
                    node_amaf[nowrap(i)] = 0.0
            node_n[nowrap(node)] = n
            node_off[nowrap(node)] = pool_used
            for i in range(n):
                pool_move[nowrap(pool_used + i)] = moves[nowrap(i)]
                pool_stats[nowrap(2 * (pool_used + i))] = 0.0
                pool_stats[nowrap(2 * (pool_used + i) + 1)] = 0.0
            if amaf:
                for i in range(2 * pool_used, 2 * (pool_used + n)):
                    pool_amaf[nowrap(i)] = 0.0
            if puct:
                if settings.playout == PLAYOUT_PRIOR_FIRST or listing:  # drawn from / selected with now
                    entry_priors(spec, state, moves, n, settings.with_context, prior_logits, features, theta,
                                 owner_rel, moves_from, moves_to, scratch, pool_prior, pool_used)
                else:
                    # Computed at the entry's first descent instead (the same values: a function of the position),
                    # since a playout that does not draw from them leaves many entries never descended through.
                    pool_prior[nowrap(pool_used)] = -1.0
            pool_used += n
            if listing:
                continue  # the next pass descends through it
            if depth == 0:
                root_node = node
            path_node[nowrap(depth)] = node
            path_move[nowrap(depth)] = -1
            path_ply[nowrap(depth)] = nseq
            depth += 1
            # Playout.
            if engine2:
                if not inc_learn:  # MAST's trees start at the playout
                    incremental.start(spec, state, settings.with_context, weight, inc_slots, inc_size, inc_trees,
                                      inc_code, inc_open, inc_pref, nseq)
                if HAS_SLOT_MASK and inc_masked:  # the constant first: games without masks never compile it
                    masked_first = nseq
                    nseq = incremental.masked_playout(spec, state, rng, settings.with_context, weight, grave, slots,
                                                      inc_size, inc_trees, inc_code, inc_masks, inc_memo, moves,
                                                      scratch, inc_pref, seq_player, seq_move, seq_chosen, seq_off,
                                                      seq_codes, seq_code, nseq, max_seq)
                else:
                    nseq = incremental.gibbs_playout(spec, state, rng, settings.with_context, weight, inc_learn,
                                                     grave, slots, inc_size, inc_trees, inc_code, inc_open, inc_dirty,
                                                     inc_seen, inc_memo, moves, scratch, inc_pref, inc_log,
                                                     seq_player, seq_move, seq_chosen, seq_off, seq_codes, seq_code,
                                                     nseq, max_seq)
            elif settings.playout == PLAYOUT_GIBBS:
                # Gibbs sampling on the learned weights (Cazenave 2015, Alg. 3), written out here: as a call it cost
                # 7-8% of PPA's time at Breakthrough and Go.  MAST with k > 700 (exp(k mean) overflows; Cazenave
                # 2016 sweeps k up to 4096): weights exp(k (policy - max over the legal moves)), the same law.
                while n > 0:
                    base = seq_off[nowrap(nseq)]
                    if shifted:
                        top = -np.inf
                        for j in range(n):
                            code = game.move_code(spec, state, moves[nowrap(j)], settings.with_context)
                            seq_codes[nowrap(base + j)] = code
                            top = max(top, policy[nowrap(code)])
                        z = 0.0
                        for j in range(n):
                            code = seq_codes[nowrap(base + j)]
                            scratch[nowrap(j)] = math.exp(settings.k * (policy[nowrap(code)] - top))
                            z += scratch[nowrap(j)]
                        choice = weighted_index_of_total(rng, scratch, n, z)
                    else:
                        choice = gibbs_draw(spec, state, moves, n, settings.with_context, weight, seq_codes, base,
                                            scratch, rng)
                    seq_player[nowrap(nseq)] = state[H_TO_MOVE]
                    seq_move[nowrap(nseq)] = moves[nowrap(choice)]
                    seq_chosen[nowrap(nseq)] = seq_codes[nowrap(base + choice)]
                    seq_off[nowrap(nseq + 1)] = base + n
                    if grave:
                        seq_code[nowrap(nseq)] = game.move_code(spec, state, moves[nowrap(choice)], False)
                    nseq += 1
                    game.play(spec, state, moves[nowrap(choice)])
                    n = game.legal_moves(spec, state, moves)
            elif settings.playout == PLAYOUT_PRIOR_FIRST:
                # Soemers et al. 2019, V-A: "The first move of every play-out is sampled from the apprentice
                # distribution p, and the corresponding node is added to the search tree": the move becomes the
                # new entry's taken move, and the position it reaches gets an entry too (the next pass of the loop).
                off = node_off[nowrap(node)]
                first = weighted_index(rng, pool_prior[off:off + n], n)
                path_move[nowrap(depth - 1)] = first
                if record:
                    seq_player[nowrap(nseq)] = state[H_TO_MOVE]
                    seq_move[nowrap(nseq)] = moves[nowrap(first)]
                    nseq += 1
                game.play(spec, state, moves[nowrap(first)])
                in_playout = True
                continue
            elif settings.playout == PLAYOUT_FEATURES:
                # Every playout move drawn from the apprentice's softmax (Soemers et al. 2019, V-D: Yavalath's
                # hand-made features "throughout complete play-outs").
                while n > 0:
                    feature_logits(spec, state, moves, n, features, theta, owner_rel, moves_from, moves_to, scratch)
                    softmax_in_place(scratch, n)
                    choice = weighted_index(rng, scratch, n)
                    if record:
                        seq_player[nowrap(nseq)] = state[H_TO_MOVE]
                        seq_move[nowrap(nseq)] = moves[nowrap(choice)]
                        nseq += 1
                    game.play(spec, state, moves[nowrap(choice)])
                    n = game.legal_moves(spec, state, moves)
            elif grave:
                nseq = uniform_coded(spec, state, rng, moves, seq_player, seq_move, seq_code, nseq)
            elif record:
                nseq = uniform(spec, state, rng, moves, record, seq_player, seq_move, nseq)
            else:
                play_random_playout(spec, state, rng, moves)
            break

        # Back up (and RAVE's AMAF statistics), then learn.
        plies += state[H_PLY]
        winner = state[H_WINNER]
        for d in range(depth):
            node = path_node[nowrap(d)]
            node_total[nowrap(node)] += 1.0
            i = path_move[nowrap(d)]
            if i >= 0:
                slot = 2 * (node_off[nowrap(node)] + i)
                pool_stats[nowrap(slot + 1)] += 1.0
                pool_stats[nowrap(slot)] += reward(winner, node_player[nowrap(node)])
            if amaf:
                amaf_update(pool_move, pool_amaf, node_off[nowrap(node)], node_n[nowrap(node)],
                            node_player[nowrap(node)], reward(winner, node_player[nowrap(node)]), seq_player, seq_move,
                            path_ply[nowrap(d)], nseq)
        if grave:
            grave_amaf_update(node_amaf, row, path_node, path_ply, depth, seq_player, seq_code, nseq, winner,
                              code_mark, iteration + 1, code_last)
        if settings.learning == LEARN_PPA:
            stamp[0] += 1
            if inc_learn:
                if HAS_SLOT_MASK and masked_first >= 0:
                    incremental.close_masked(state, inc_slots, inc_code, inc_open, inc_pref, inc_masks, masked_first,
                                            nseq, inc_acc, inc_acc_mark, inc_acc_touched, inc_acc_count, ncodes)
                incremental.close_all(state, inc_slots, inc_code, inc_open, inc_pref, inc_log, inc_acc, inc_acc_mark,
                                      inc_acc_touched, inc_acc_count, ncodes, nseq)
                ppa_adapt_incremental(policy, weight, new_policy, mark, touched, stamp[0], settings.alpha, settings.k,
                                      seq_player, seq_chosen, seq_off, seq_codes, nseq, winner, inc_acc, inc_acc_mark,
                                      inc_acc_touched, inc_acc_count, inc_exp_code, inc_exp_value)
            else:
                ppa_adapt(policy, weight, new_policy, mark, touched, stamp[0], settings.alpha, settings.k,
                          seq_player, seq_chosen, seq_off, seq_codes, nseq, winner)
        elif settings.learning == LEARN_MAST:
            mast_adapt(policy, weight, mast_wins, mast_games, settings.k, seq_player, seq_chosen, nseq, winner)
    sizes = tree.sizes
    sizes[ENTRIES] = entries
    sizes[POOL] = pool_used
    plies_played[0] += plies
    return Tree(table, node_key, node_player, node_total, node_n, node_off, pool_move, pool_stats, pool_amaf,
                pool_prior, sizes, node_amaf)


@njit(cache=True)
def root_stats(root, tree, visits_out, wins_out):
    """Write the playouts and the wins (for the root's player to move: 1 a win, 0.5 a draw) of the root's moves, in
    list order, into ``visits_out`` and ``wins_out``, so that wins / visits is a move's mean result; return the most
    visited move (the first on ties) and the number of root moves, or (-1, 0) if the root has no entry or an entry
    whose moves were never listed (a PUCT playout's, kept by tree reuse, before any iteration).  Reads the tree only
    (no random draw)."""
    node = lookup(tree.table, tree.node_key, root[H_HASH])
    if node < 0 or tree.node_off[nowrap(node)] < 0:
        return -1, 0
    off = tree.node_off[nowrap(node)]
    count = tree.node_n[nowrap(node)]
    for i in range(count):
        wins_out[nowrap(i)] = tree.pool_stats[nowrap(2 * (off + i))]
        visits_out[nowrap(i)] = tree.pool_stats[nowrap(2 * (off + i) + 1)]
    return tree.pool_move[nowrap(off + most_visited(tree, node))], count


@njit(cache=True)
def retain_subtree(spec, root, tree):
    """Tree reuse: a new tree holding the entry of ``root`` and every entry reachable from it through moves already
    played in a search, with their statistics unchanged (the root's entry becomes entry 0).  What the searches of
    earlier moves learned about the position reached is kept; the rest of the table is dropped, so over a long
    game the tree holds at most the kept subtree plus what one search adds."""
    old_root = lookup(tree.table, tree.node_key, root[H_HASH])
    used = tree.sizes[ENTRIES]
    kept = new_tree(max(tree.node_key.size, 1), max(tree.pool_move.size, 1), tree.pool_amaf.size > 0,
                    tree.pool_prior.size > 0, amaf_codes(tree))
    if old_root < 0:
        return kept
    copied = np.full(used, -1, dtype=np.int64)
    # One row more than the entries: a child is written to row ``tail`` before we know whether it is new.
    queue = np.empty((used + 1, root.size), dtype=np.int64)
    queue[0, :] = root
    copied[nowrap(old_root)] = _copy_entry(tree, old_root, kept)
    head = 0
    tail = 1
    while head < tail:
        old = lookup(tree.table, tree.node_key, queue[head, H_HASH])
        off = tree.node_off[nowrap(old)]
        for i in range(tree.node_n[nowrap(old)]):
            if tree.pool_stats[nowrap(2 * (off + i) + 1)] == 0.0:
                continue
            queue[tail, :] = queue[nowrap(head)]
            game.play(spec, queue[nowrap(tail)], tree.pool_move[nowrap(off + i)])
            if queue[tail, H_WINNER] != ONGOING:
                continue
            child = lookup(tree.table, tree.node_key, queue[tail, H_HASH])
            if child >= 0 and copied[nowrap(child)] < 0:
                copied[nowrap(child)] = _copy_entry(tree, child, kept)
                tail += 1
        head += 1
    return kept


@njit(cache=True)
def _copy_entry(tree, node, kept):
    """Copy entry ``node`` of ``tree`` (moves, statistics, priors) into ``kept``, which has room; return its index."""
    off = tree.node_off[nowrap(node)]
    n = tree.node_n[nowrap(node)]
    key = tree.node_key[nowrap(node)]
    new = add_entry(kept, lookup(kept.table, kept.node_key, key), key, tree.node_player[nowrap(node)],
                    tree.pool_move[off:off + n], n)
    new_off = kept.node_off[nowrap(new)]
    kept.node_total[nowrap(new)] = tree.node_total[nowrap(node)]
    if off < 0:  # its moves not listed yet (``run_iterations``): still to be listed
        kept.node_off[nowrap(new)] = -1
    kept.pool_stats[2 * new_off:2 * (new_off + n)] = tree.pool_stats[2 * off:2 * (off + n)]
    if tree.pool_amaf.size > 0:
        kept.pool_amaf[2 * new_off:2 * (new_off + n)] = tree.pool_amaf[2 * off:2 * (off + n)]
    if tree.pool_prior.size > 0:
        kept.pool_prior[new_off:new_off + n] = tree.pool_prior[off:off + n]
    row = 2 * amaf_codes(tree)
    kept.node_amaf[new * row:(new + 1) * row] = tree.node_amaf[node * row:(node + 1) * row]
    return new
