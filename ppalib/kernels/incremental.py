"""The incremental Gibbs playout (``playout_engine`` 2; a template: specialised per game module by
``ppalib._specialise``).

Cazenave 2015's Alg. 3 draws each playout move with probability ``weight[code] / z`` over the legal moves; written
literally (engine 1, ``search.run_iterations``) every ply lists the moves, their codes and weights, and Alg. 4's
adapt walks those lists again.  Here the weights do not change during a playout (the adapt comes after it), so
each player's legal moves keep their weights in a sum tree over move *slots* (``ppalib.kernels.sumtree``): the
leaf of a slot is ``weight[code]`` of the move's code for that player, 0 when the move is not legal for them.
After a move only the slots the game names (``dirty_slots``: a placement's neighbourhood, the liberties of the Go
strings whose liberty count changed...) are recomputed, and a draw walks the mover's tree in O(log n).

The adapt step (Alg. 4) subtracts ``alpha * weight[code] / z_t`` for every legal move's code at every ply t of the
winner.  Per code that is ``alpha * weight[code]`` times the sum of ``1 / z_t`` over the winner's plies where a move
of that code was legal: a slot stays legal with one code over an *interval* of plies, so with per-player prefix
sums of ``1 / z_t`` (``pref``) each interval adds ``pref[end] - pref[start]`` to its code's total when it closes
(``ppalib.kernels.learning.close_interval``), and the adapt costs O(slots + plies) instead of O(sum of list
lengths).  Only the winner's totals are applied (``learning.ppa_adapt_incremental``), and the winner is known at
the end: so a playout only logs each closed interval (``log_interval``: its code and its two plies, per player),
and ``close_all`` adds the winner's log to the totals in the order it was written, the same sums in the same order
as adding each when it closed, without the loser's half of the work.
A PPA search fills the trees at the root (``start`` once, then ``restart`` every iteration from the root's saved
codes) and keeps them through its tree's descent (``descend``), so the descent's plies are counted the same way
(``tree_ply``) instead of listing every node's moves' codes.

A game opts in by defining four compiled functions (documented in ``ppalib.games.contract``): ``num_slots``,
``slot_code``, ``before_play`` and ``dirty_slots``.  Without them ``num_slots`` is 0 here and engine 2 plays as
engine 1.  A game may also define ``slot_code_pair`` (both players' codes of a slot at once, where they share
their work), ``moves_without_slots``, ``play_inlined`` (``play``, inlined into the playout loop) and the legal-slot
masks of the masked playout (``slot_mask_ok``, ``slot_mask``, ``slot_mask_after``: ``masked_playout``, where a slot
only ever stops being legal).  A ply whose mover has no slot legal (Go's pass, a player stuck) is drawn from the
game's own list (``legal_moves``), as engine 1 does, and counted by the adapt through that list.
"""
import numpy as np
from numba import njit

from ppalib._noalloc import inline_jit, noalloc_jit, nowrap
from ppalib._rng import random_float
from ppalib.games._bits import lowest_cell
from ppalib.games._common import H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES, S_MAX_PLIES
from ppalib.kernels import sumtree
from ppalib.kernels.learning import close_interval, ppa_adapt_incremental
from ppalib.kernels.playout import gibbs_draw
from ppalib.games import contract as game  # <game-import>

if getattr(game, "num_slots", None) is not None and game.__name__ != "ppalib.games.contract":
    num_slots = game.num_slots
    slot_code = game.slot_code
    before_play = game.before_play
    dirty_slots = game.dirty_slots
else:  # the game keeps no incremental legal set: engine 2 lists the moves each ply, as engine 1
    @noalloc_jit
    def num_slots(spec):
        return 0

    @noalloc_jit
    def slot_code(spec, state, slot, player, with_context):
        return -1

    @noalloc_jit
    def before_play(spec, state, move, memo):
        return

    @noalloc_jit
    def dirty_slots(spec, state, move, with_context, memo, out):
        return 0

if getattr(game, "slot_code_pair", None) is not None and game.__name__ != "ppalib.games.contract":
    slot_code_pair = game.slot_code_pair
else:  # both players' codes asked one at a time
    @inline_jit
    def slot_code_pair(spec, state, slot, with_context):
        return slot_code(spec, state, slot, 0, with_context), slot_code(spec, state, slot, 1, with_context)

if getattr(game, "play_inlined", None) is not None and game.__name__ != "ppalib.games.contract":
    play_inlined = game.play_inlined  # ``play``, inlined into the playout loop
else:
    play_inlined = game.play

# A compile-time constant of each game's specialised module: a kernel that tests it where it would call
# ``masked_playout`` or ``close_masked`` has those branches pruned, so games without masks never compile them.
HAS_SLOT_MASK = getattr(game, "slot_mask", None) is not None and game.__name__ != "ppalib.games.contract"
if HAS_SLOT_MASK:
    slot_mask = game.slot_mask  # the legal slots as a 64-bit mask (the masked playout, ``masked_playout``)
    slot_mask_after = game.slot_mask_after
    slot_mask_ok = game.slot_mask_ok
else:
    @inline_jit
    def slot_mask(spec, state, player):
        return np.uint64(0)

    @inline_jit
    def slot_mask_after(spec, state, move, player, before):
        return np.uint64(0)

    @noalloc_jit
    def slot_mask_ok(spec, with_context):
        return False

if getattr(game, "moves_without_slots", None) is not None and game.__name__ != "ppalib.games.contract":
    moves_without_slots = game.moves_without_slots
else:
    moves_without_slots = game.legal_moves


@noalloc_jit
def dirty_capacity(slots):
    """Room for one ply's dirty slots (a game lists each at most about 20 times per move; Go's bound)."""
    return 20 * slots + 64


@noalloc_jit
def log_size(slots, max_seq):
    """Length of the interval log (``log_interval``): per player a count and two entries an interval; a slot's code
    changes at most once a ply for each player (each dirty slot is refreshed once), over at most ``max_seq`` plies."""
    return 2 * (1 + 2 * slots * max_seq)


@inline_jit
def log_interval(log, player, code, start, end):
    """Log that a slot was legal for ``player`` with ``code`` from ply ``start`` to ``end`` (excluded); ``log``
    holds, per player, its count then (code, start << 32 | end) pairs (``log_size``)."""
    base = player * (log.size // 2)
    count = log[nowrap(base)]
    log[nowrap(base + 1 + 2 * count)] = code
    log[nowrap(base + 2 + 2 * count)] = (start << 32) | end
    log[nowrap(base)] = count + 1


@inline_jit
def _refresh(spec, state, slot, slots, size, with_context, weight, trees, cur_code, open_ply, nseq, learn_ppa, log):
    """Recompute ``slot`` for both players; a changed code closes (logs) the slot's interval and opens a new one.
    When both players' leaves change (a placement fills a cell for both) the two trees are updated in one walk."""
    changed = 0
    value0 = 0.0
    value1 = 0.0
    code0, code1 = slot_code_pair(spec, state, slot, with_context)
    for player in range(2):
        code = code0 if player == 0 else code1
        j = player * slots + slot
        old = cur_code[nowrap(j)]
        if code != old:
            if learn_ppa and old >= 0:
                log_interval(log, player, old, open_ply[nowrap(j)], nseq)
            cur_code[nowrap(j)] = code
            open_ply[nowrap(j)] = nseq
            value = weight[nowrap(code)] if code >= 0 else 0.0
            if player == 0:
                value0 = value
            else:
                value1 = value
            changed |= 1 << player
    if changed == 3:
        sumtree.set_leaf_pair(trees, 0, 2 * size, size, slot, value0, value1)
    elif changed == 1:
        sumtree.set_leaf(trees, 0, size, slot, value0)
    elif changed == 2:
        sumtree.set_leaf(trees, 2 * size, size, slot, value1)


@inline_jit
def _fill(weight, slots, size, trees, cur_code, open_ply, pref, nseq):
    """Both players' sum trees from the codes in ``cur_code`` (leaf ``weight[code]``, 0 where -1, and past
    ``slots``), every slot's interval opened at ply ``nseq`` and both prefix sums started there."""
    row = pref.size // 2
    for player in range(2):
        base = 2 * player * size
        for slot in range(slots):
            j = player * slots + slot
            code = cur_code[nowrap(j)]
            open_ply[nowrap(j)] = nseq
            trees[nowrap(base + size + slot)] = weight[nowrap(code)] if code >= 0 else 0.0
        for slot in range(slots, size):
            trees[nowrap(base + size + slot)] = 0.0
        sumtree.rebuild(trees, base, size)
        pref[nowrap(player * row + nseq)] = 0.0


@noalloc_jit
def start(spec, state, with_context, weight, slots, size, trees, cur_code, open_ply, pref, nseq):
    """Fill both players' sum trees from ``state`` (every slot's code computed), open every slot's interval at ply
    ``nseq`` and start both prefix sums there.  A PPA search does this at the root (then ``restart``s from it), so
    that the tree's plies are counted by intervals too (``tree_ply``, ``descend``); MAST at the playout's first
    position."""
    for player in range(2):
        for slot in range(slots):
            cur_code[nowrap(player * slots + slot)] = slot_code(spec, state, slot, player, with_context)
    _fill(weight, slots, size, trees, cur_code, open_ply, pref, nseq)


@noalloc_jit
def restart(root_code, weight, slots, size, trees, cur_code, open_ply, pref):
    """``start`` at ply 0 of the same root again, from its codes saved by the first ``start`` (``root_code``, a
    copy of ``cur_code`` then): a search restarts from its root every iteration, where the codes never change and
    only the weights do, so no ``slot_code`` is recomputed.  The trees end exactly as ``start`` leaves them."""
    for j in range(2 * slots):
        cur_code[nowrap(j)] = root_code[nowrap(j)]
    _fill(weight, slots, size, trees, cur_code, open_ply, pref, 0)


def _advance(spec, state, move, with_context, weight, learn_ppa, slots, size, trees, cur_code, open_ply, dirty, seen,
            memo, log, nseq):
    """Play ``move`` (ply ``nseq - 1``, already recorded) and, unless the game ended, refresh the slots it made
    dirty (``dirty_slots``), each once, their changed codes' intervals closed (logged) and reopened at ply
    ``nseq``."""
    before_play(spec, state, move, memo)
    play_inlined(spec, state, move)
    if state[H_WINNER] != ONGOING:
        return
    count = dirty_slots(spec, state, move, with_context, memo, dirty)
    seen[slots] += 1  # this ply's stamp: each dirty slot is refreshed once
    for i in range(count):
        slot = dirty[i]
        if seen[slot] == seen[slots]:
            continue
        seen[slot] = seen[slots]
        _refresh(spec, state, slot, slots, size, with_context, weight, trees, cur_code, open_ply, nseq,
                 learn_ppa, log)


# Inlined in the playout's loop; a call from the search's descent (inlined there, the Go family's refresh made the
# whole search loop slower: measured +12% an iteration of PPA at Nogo 8x8).
advance = inline_jit(_advance)
descend = noalloc_jit(_advance)


@inline_jit
def tree_ply(slots, size, trees, cur_code, pref, mover, move, nseq):
    """Ply ``nseq`` of the search tree's descent, whose ``move`` the selection chose: add ``1 / z`` of the mover's
    sum tree to their prefix sum and return the move's code, so that Alg. 4 counts the ply by intervals as a
    playout ply.  Return -1 when the ply must be recorded with its list instead (no slot legal for the mover, as
    at Go's pass): then neither prefix sum grows, and the adapt walks that list."""
    row = pref.size // 2
    pref[nowrap((1 - mover) * row + nseq + 1)] = pref[nowrap((1 - mover) * row + nseq)]
    z = trees[nowrap(2 * mover * size + 1)]
    code = cur_code[nowrap(mover * slots + move)] if 0 <= move < slots else -1
    if z > 0.0 and code >= 0:
        pref[nowrap(mover * row + nseq + 1)] = pref[nowrap(mover * row + nseq)] + 1.0 / z
        return code
    pref[nowrap(mover * row + nseq + 1)] = pref[nowrap(mover * row + nseq)]
    return -1


@inline_jit
def _none_legal(cur_code, player, slots):
    """No slot is legal for ``player`` (their codes are all -1)."""
    for j in range(player * slots, (player + 1) * slots):
        if cur_code[nowrap(j)] >= 0:
            return False
    return True


@inline_jit
def _list_ply(spec, state, rng, with_context, weight, none_legal, moves, scratch, pref, seq_off, seq_codes, mover,
              nseq):
    """A playout ply drawn from the game's list, as engine 1 draws it: when no slot is legal for the mover
    (``none_legal``: the game's ``moves_without_slots``, a pass or the end) or every legal slot's weight underflowed
    to 0 (the whole list).  Records the ply's codes in ``seq_codes`` (``seq_off``) and leaves the mover's prefix sum
    as it was (the adapt counts the ply through its list).  Returns (move, code), or (-1, -1) when there is none."""
    begin = seq_off[nowrap(nseq)]
    if none_legal:
        n = moves_without_slots(spec, state, moves)
    else:
        n = game.legal_moves(spec, state, moves)
    if n == 0:
        return -1, -1
    choice = gibbs_draw(spec, state, moves, n, with_context, weight, seq_codes, begin, scratch, rng)
    seq_off[nowrap(nseq + 1)] = begin + n
    row = pref.size // 2
    pref[nowrap(mover * row + nseq + 1)] = pref[nowrap(mover * row + nseq)]
    return moves[nowrap(choice)], seq_codes[nowrap(begin + choice)]


@inline_jit
def _record_ply(spec, state, grave, pref, seq_player, seq_move, seq_chosen, seq_code, mover, move, code, nseq):
    """Record playout ply ``nseq`` (its mover, move and code; GRAVE's code without context) and carry the other
    player's prefix sum over it."""
    row = pref.size // 2
    pref[nowrap((1 - mover) * row + nseq + 1)] = pref[nowrap((1 - mover) * row + nseq)]
    seq_player[nowrap(nseq)] = mover
    seq_move[nowrap(nseq)] = move
    seq_chosen[nowrap(nseq)] = code
    if grave:
        seq_code[nowrap(nseq)] = game.move_code(spec, state, move, False)


@noalloc_jit
def gibbs_playout(spec, state, rng, with_context, weight, learn_ppa, grave, slots, size, trees, cur_code, open_ply,
                  dirty, seen, memo, moves, scratch, pref, log, seq_player, seq_move, seq_chosen, seq_off, seq_codes,
                  seq_code, nseq, stop):
    """Play Gibbs moves from ``state`` (ongoing, with legal moves; its sum trees filled by ``start`` and kept by
    ``advance`` since) to the end (or until ``nseq`` reaches ``stop``: tests), recording each ply as engine 1 does
    (``seq_player``, ``seq_move``, ``seq_chosen``; ``seq_code`` for GRAVE); return the new ``nseq``.

    A ply drawn from the tree gets an empty list in ``seq_off`` and adds ``1 / z`` to its mover's prefix sum
    (``pref``, a row of ``pref.size // 2`` per player); a ply drawn from the game's list records its codes as
    engine 1.  With ``learn_ppa``, each closed interval is logged (``log_interval``); the caller adds the winner's
    log and closes the open intervals (``close_all``).  ``slots`` > 0 and ``size = sumtree.leaves_for(slots)``;
    ``seen`` (int64[slots + 1], zeros at first) stamps the slots refreshed in a ply, its last entry counting the
    plies."""
    row = pref.size // 2
    while state[H_WINNER] == ONGOING and nseq < stop:
        mover = state[H_TO_MOVE]
        z = trees[nowrap(2 * mover * size + 1)]
        begin = seq_off[nowrap(nseq)]
        if z > 0.0:
            slot = sumtree.draw(trees, 2 * mover * size, size, random_float(rng) * z)
            move = slot
            code = cur_code[nowrap(mover * slots + slot)]
            seq_off[nowrap(nseq + 1)] = begin
            pref[nowrap(mover * row + nseq + 1)] = pref[nowrap(mover * row + nseq)] + 1.0 / z
        else:  # no slot legal for the mover: the game's own list (a pass, or the end of the game)
            move, code = _list_ply(spec, state, rng, with_context, weight, _none_legal(cur_code, mover, slots), moves,
                                   scratch, pref, seq_off, seq_codes, mover, nseq)
            if move < 0:
                break
        _record_ply(spec, state, grave, pref, seq_player, seq_move, seq_chosen, seq_code, mover, move, code, nseq)
        nseq += 1
        advance(spec, state, move, with_context, weight, learn_ppa, slots, size, trees, cur_code, open_ply, dirty,
                seen, memo, log, nseq)
    return nseq


# ---- the masked playout: PPA on a game whose slots only ever stop being legal, each with one code ------------------
@noalloc_jit
def masked_ok(spec, slots, with_context):
    """Whether a PPA search may play its playouts with ``masked_playout``: the game answers ``slot_mask`` for this
    ``spec`` and codes with(out) context (at most 64 slots, each legal slot keeping its code until it stops being
    legal, never legal again: not Domineering's codes with context, which change with the neighbourhood)."""
    return slots <= 64 and slot_mask_ok(spec, with_context)


@inline_jit
def _record_masks(spec, state, masks, nseq):
    """Both players' legal slots at ply ``nseq`` (``masks[2 nseq + player]``, ``slot_mask``)."""
    masks[nowrap(2 * nseq)] = slot_mask(spec, state, 0)
    masks[nowrap(2 * nseq + 1)] = slot_mask(spec, state, 1)


@inline_jit
def _record_masks_after(spec, state, move, masks, nseq):
    """``_record_masks`` after ``move`` (ply ``nseq - 1``), from the masks before it (``slot_mask_after``)."""
    masks[nowrap(2 * nseq)] = slot_mask_after(spec, state, move, 0, masks[nowrap(2 * nseq - 2)])
    masks[nowrap(2 * nseq + 1)] = slot_mask_after(spec, state, move, 1, masks[nowrap(2 * nseq - 1)])


@noalloc_jit
def masked_playout(spec, state, rng, with_context, weight, grave, slots, size, trees, cur_code, masks, memo, moves,
                   scratch, pref, seq_player, seq_move, seq_chosen, seq_off, seq_codes, seq_code, nseq, stop):
    """``gibbs_playout`` of a PPA search where ``masked_ok``: the same plies, draws and records bit for bit, with no
    slot's code recomputed.  In such a game a slot legal at some ply was legal with the same code at every ply since
    the playout began, so a ply changes the trees only where a slot stops being legal: the bits the game's mask lost
    (``slot_mask_after``), whose leaves are set to 0 (both trees' in one walk where both players lost the slot),
    where ``advance`` asks the game which slots may have changed (``dirty_slots``), recomputes their codes
    (``slot_code_pair``) and logs their intervals.  The legal masks of every ply are kept in ``masks`` instead, and
    ``close_masked`` reads from them where each slot stopped being legal."""
    row = pref.size // 2
    _record_masks(spec, state, masks, nseq)
    while state[H_WINNER] == ONGOING and nseq < stop:
        mover = state[H_TO_MOVE]
        mask = masks[nowrap(2 * nseq + mover)]
        begin = seq_off[nowrap(nseq)]
        z = trees[nowrap(2 * mover * size + 1)]
        if z > 0.0:
            slot = sumtree.draw_inlined(trees, 2 * mover * size, size, random_float(rng) * z)
            move = slot
            code = cur_code[nowrap(mover * slots + slot)]
            seq_off[nowrap(nseq + 1)] = begin
            pref[nowrap(mover * row + nseq + 1)] = pref[nowrap(mover * row + nseq)] + 1.0 / z
        else:  # as ``gibbs_playout``: no slot legal (a pass, the end) or every legal weight underflowed to 0
            move, code = _list_ply(spec, state, rng, with_context, weight, not mask, moves, scratch, pref, seq_off,
                                   seq_codes, mover, nseq)
            if move < 0:
                break
        _record_ply(spec, state, grave, pref, seq_player, seq_move, seq_chosen, seq_code, mover, move, code, nseq)
        nseq += 1
        before_play(spec, state, move, memo)
        play_inlined(spec, state, move)
        if state[H_WINNER] == ONGOING:
            _record_masks_after(spec, state, move, masks, nseq)
            gone0 = masks[nowrap(2 * nseq - 2)] & ~masks[nowrap(2 * nseq)]
            gone1 = masks[nowrap(2 * nseq - 1)] & ~masks[nowrap(2 * nseq + 1)]
            both = gone0 & gone1
            gone0 &= ~both
            gone1 &= ~both
            while both:
                sumtree.set_leaf_pair_inlined(trees, 0, 2 * size, size, lowest_cell(both), 0.0, 0.0)
                both &= both - np.uint64(1)
            while gone0:
                sumtree.set_leaf_inlined(trees, 0, size, lowest_cell(gone0), 0.0)
                gone0 &= gone0 - np.uint64(1)
            while gone1:
                sumtree.set_leaf_inlined(trees, 2 * size, size, lowest_cell(gone1), 0.0)
                gone1 &= gone1 - np.uint64(1)
    return nseq


@noalloc_jit
def close_masked(state, slots, cur_code, open_ply, pref, masks, first, nseq, acc, acc_mark, acc_touched, acc_count,
                ncodes):
    """Before ``close_all`` after a ``masked_playout`` from ply ``first``: close the winner's slots (both players' in
    an unfinished sequence) that stopped being legal during the playout, at the first ply whose mask lacks them (the
    ply at which ``advance`` would have closed them), and mark them not legal (-1) so that ``close_all`` closes only
    the rest.  A code has one interval in such a game, so the adapt's sums are those of the logged intervals, the
    same bit for bit whatever the order they are added in."""
    ended = state[H_WINNER] != ONGOING
    last = nseq - 1 if ended else nseq  # the end's mask is not recorded: what it ends stays open, as in ``advance``
    for player in range(2):
        if ended and state[H_WINNER] != player:
            continue
        before = masks[nowrap(2 * first + player)]
        for t in range(first + 1, last + 1):
            now = masks[nowrap(2 * t + player)]
            gone = before & ~now
            while gone:
                slot = lowest_cell(gone)
                j = player * slots + slot
                close_interval(acc, acc_mark, acc_touched, acc_count, pref, player, cur_code[nowrap(j)], ncodes,
                               open_ply[nowrap(j)], t)
                cur_code[nowrap(j)] = -1
                gone &= gone - np.uint64(1)
            before = now


@noalloc_jit
def close_all(state, slots, cur_code, open_ply, pref, log, acc, acc_mark, acc_touched, acc_count, ncodes, nseq):
    """For the adapt, add the winner's logged intervals to its totals (``acc``, ``learning.close_interval``), in the
    order they closed, then close its open ones at the end of the sequence (ply ``nseq``); empty the log.  Only the
    winner's: the player ``ppa_adapt_incremental`` reads (an unfinished sequence, which tests stop early, does
    both)."""
    half = log.size // 2
    for player in range(2):
        base = player * half
        count = log[nowrap(base)]
        log[nowrap(base)] = 0
        if state[H_WINNER] != ONGOING and state[H_WINNER] != player:
            continue
        for k in range(count):
            span = log[nowrap(base + 2 + 2 * k)]
            close_interval(acc, acc_mark, acc_touched, acc_count, pref, player, log[nowrap(base + 1 + 2 * k)], ncodes,
                           span >> 32, span & 0xFFFFFFFF)
        for slot in range(slots):
            j = player * slots + slot
            if cur_code[nowrap(j)] >= 0:
                close_interval(acc, acc_mark, acc_touched, acc_count, pref, player, cur_code[nowrap(j)], ncodes,
                               open_ply[nowrap(j)], nseq)


# ---- test kernels: one playout and its adapt, the tree after some plies --------------------------------------
@njit(cache=True)
def _buffers(spec, ncodes):
    slots = num_slots(spec)
    size = sumtree.leaves_for(slots)
    max_seq = spec[S_MAX_PLIES] + 1
    return (slots, size, np.zeros(4 * size), np.empty(2 * slots, dtype=np.int64), np.empty(2 * slots, dtype=np.int64),
            np.empty(dirty_capacity(slots), dtype=np.int64), np.zeros(slots + 1, dtype=np.int64),
            np.zeros(16, dtype=np.int64),
            np.empty(spec[S_MAX_MOVES], dtype=np.int64), np.empty(spec[S_MAX_MOVES]), np.zeros(2 * (max_seq + 1)),
            np.zeros(2 * ncodes), np.zeros(2 * ncodes, dtype=np.uint8), np.empty(2 * ncodes, dtype=np.int64),
            np.zeros(2, dtype=np.int64), np.empty(max_seq, dtype=np.int64), np.empty(max_seq, dtype=np.int64),
            np.empty(max_seq, dtype=np.int64), np.zeros(max_seq + 1, dtype=np.int64),
            np.empty(max_seq * spec[S_MAX_MOVES], dtype=np.int64), np.zeros(log_size(slots, max_seq), dtype=np.int64))


@njit(cache=True)
def playout_then_adapt(spec, root, rng, policy, weight, alpha, with_context, prefix, seq_move_out, masked=False):
    """For tests: from ``root`` (ongoing), the moves ``prefix`` played as a PPA search plays its tree's descent
    (``tree_ply``, ``advance``; a ply without a legal slot recorded with its list), then one engine-2 Gibbs
    playout on the weights ``weight`` (``exp(policy)``), then the adapt (``learning.ppa_adapt_incremental``, k = 1)
    into ``policy`` and ``weight``; every move (the prefix's too) goes to ``seq_move_out``.  With ``masked`` (where
    ``masked_ok``), the playout is ``masked_playout``'s, as a PPA search plays it.  Returns (plies, winner)."""
    ncodes = policy.size
    (slots, size, trees, cur_code, open_ply, dirty, seen, memo, moves, scratch, pref, acc, acc_mark, acc_touched,
     acc_count, seq_player, seq_move, seq_chosen, seq_off, seq_codes, log) = _buffers(spec, ncodes)
    state = root.copy()
    start(spec, state, with_context, weight, slots, size, trees, cur_code, open_ply, pref, np.int64(0))
    nseq = np.int64(0)
    for move in prefix:
        mover = state[H_TO_MOVE]
        begin = seq_off[nowrap(nseq)]
        seq_player[nowrap(nseq)] = mover
        seq_move[nowrap(nseq)] = move
        code = tree_ply(slots, size, trees, cur_code, pref, mover, move, nseq)
        if code >= 0:
            seq_off[nowrap(nseq + 1)] = begin
        else:
            n = game.legal_moves(spec, state, moves)
            for j in range(n):
                seq_codes[nowrap(begin + j)] = game.move_code(spec, state, moves[nowrap(j)], with_context)
            code = game.move_code(spec, state, move, with_context)
            seq_off[nowrap(nseq + 1)] = begin + n
        seq_chosen[nowrap(nseq)] = code
        nseq += 1
        advance(spec, state, move, with_context, weight, True, slots, size, trees, cur_code, open_ply, dirty, seen,
                memo, log, nseq)
    first = nseq
    masked = masked and masked_ok(spec, slots, with_context) and state[H_WINNER] == ONGOING
    masks = np.zeros(2 * (seq_player.size + 1), dtype=np.uint64)
    if HAS_SLOT_MASK and masked:
        nseq = masked_playout(spec, state, rng, with_context, weight, False, slots, size, trees, cur_code, masks,
                              memo, moves, scratch, pref, seq_player, seq_move, seq_chosen, seq_off, seq_codes,
                              seq_move, nseq, seq_player.size)
        close_masked(state, slots, cur_code, open_ply, pref, masks, first, nseq, acc, acc_mark, acc_touched, acc_count,
                    ncodes)
    else:
        nseq = gibbs_playout(spec, state, rng, with_context, weight, True, False, slots, size, trees, cur_code,
                             open_ply, dirty, seen, memo, moves, scratch, pref, log, seq_player, seq_move, seq_chosen,
                             seq_off, seq_codes, seq_move, nseq, seq_player.size)
    close_all(state, slots, cur_code, open_ply, pref, log, acc, acc_mark, acc_touched, acc_count, ncodes, nseq)
    for i in range(nseq):
        seq_move_out[nowrap(i)] = seq_move[nowrap(i)]
    ppa_adapt_incremental(policy, weight, np.empty(ncodes), np.zeros(ncodes, dtype=np.int64),
                          np.empty(ncodes, dtype=np.int64), 1, alpha, 1.0, seq_player, seq_chosen, seq_off,
                          seq_codes, nseq, state[H_WINNER], acc, acc_mark, acc_touched, acc_count,
                          np.empty(ncodes, dtype=np.int64), np.empty(ncodes))
    return nseq, state[H_WINNER]


@njit(cache=True)
def tree_after(spec, root, rng, weight, with_context, plies, draws, counts):
    """For tests: ``plies`` engine-2 Gibbs moves from ``root`` on ``weight``, the sum trees kept up to date move by
    move; then ``draws`` draws from the mover's tree counted per slot into ``counts``.  Returns the position
    reached and the mover's leaves (``weight[code]`` of each slot, 0 where not legal)."""
    (slots, size, trees, cur_code, open_ply, dirty, seen, memo, moves, scratch, pref, acc, acc_mark, acc_touched,
     acc_count, seq_player, seq_move, seq_chosen, seq_off, seq_codes, log) = _buffers(spec, 1)
    state = root.copy()
    start(spec, state, with_context, weight, slots, size, trees, cur_code, open_ply, pref, np.int64(0))
    gibbs_playout(spec, state, rng, with_context, weight, False, False, slots, size, trees, cur_code, open_ply,
                  dirty, seen, memo, moves, scratch, pref, log, seq_player, seq_move, seq_chosen, seq_off, seq_codes,
                  seq_move, np.int64(0), plies)
    base = 2 * state[H_TO_MOVE] * size
    total = trees[nowrap(base + 1)]
    if state[H_WINNER] == ONGOING and total > 0.0:
        for _ in range(draws):
            counts[nowrap(sumtree.draw(trees, base, size, random_float(rng) * total))] += 1
    return state, trees[base + size:base + size + slots].copy()
