"""The spatial-feature matcher, compiled and game-free: which features fire for a move, and the move's logit.

A ``ppalib.features.FeatureSet`` compiles its instances into the flat arrays below (``FeatureSet.compiled``, a
namedtuple in this order: pass ``*feature_set.compiled`` first to every function here; built by
``ppalib.features.compile``).  Instances are put in *buckets* by the move cells they need: bucket ``t`` holds the
instances that fix only the destination ``t``, bucket ``cells + f`` those that fix only the origin ``f``, and bucket
``2 * cells + f * cells + t`` (present when ``meta[2] > 2 * cells``) those that fix both.  A move ``(f, t)`` looks
at no more than these three buckets.

*Words.*  Inside a bucket, instances are bits of 64-bit words (a feature's instances never straddle two words unless
it has more than 64 in one bucket, and then they fill consecutive words).  Each word lists the cells its instances
test, and for each such cell three masks: the instances that survive when the cell holds 0 (empty), 1 (friend) or
2 (enemy).  Matching a word is ``alive = init; alive &= pass[cell, owner_rel[cell]]`` for each listed cell, and a
feature fires if ``alive`` meets its mask: each cell is read once per word, not once per instance test.

*Simple features* (``move_logits`` only).  A feature fixing one end of the move whose every instance tests at most
one cell besides that end (every atomic feature) fires iff one of those tests holds: per bucket, per such cell, a
mask of the simple features that fire for each (content of the cell, content of the move's own cell).  A bucket's
simple features are the OR of a few masks, and their weights are summed with eight lookups in 256-entry tables of
byte sums (``bank_tables``).  Up to 64 simple features; the others (``rest_*`` words) are matched as above.

*Rest words* (``move_logits`` only).  Nearly every word of a bucket of combined features keeps some instance
alive (99% at Hex 7x7 and Knightthrough with 200 combined features), so leaving a dead word early saves nothing;
the rest words' tests are stored cell-major instead: per bucket, per footprint cell and content, one mask for each
of the bucket's words (every bit for a word that does not test the cell), and four words are matched at once, each
footprint cell read once for them.  The sums are the same additions in the same order as the word-major layout's.

*Cache* (``move_logits`` only; Ludii's ``ActiveFeaturesCache`` idea, brief section 1.5).  A bucket's ``rest`` sum
depends only on the cells its instances test (its footprint), so it is stored under a 64-bit hash of the bucket and
its footprint's contents; a recurring footprint then costs its hash.  The hash: on boards of at most
``BITBOARD_CELLS`` cells, the position's friend and enemy cells are made board words once per call, and a bucket
hashes the one to four of them its footprint meets, each masked by the footprint (two multiply-xorshift rounds a
word: about 6 ns at Hex 7x7 where a Zobrist key per footprint cell, 14 of them, cost 29); on larger boards, XOR of a
Zobrist key per footprint cell.  With board words, a bucket whose simple features test no cell outside its rest
footprint and move cell (every bucket at Hex, Yavalath, Gomoku, Connect Four and Othello; a few at Breakthrough and
Teeko, whose from-to buckets never are; none at Knightthrough and Fanorona) is *whole*: the cache holds its whole
sum ``simple + rest`` (the same addition, done once), keyed by the footprint and the move cell, so a hit skips the
simple features too (Hex 7x7, one position repeated: 57 -> 17 ns a move).  Direct-mapped (a new entry replaces the
old one in its slot); a million slots a bank by default, at most 2^15 on boards of at most ``BITBOARD_CELLS`` cells
when fewer than half the buckets are whole (``compile.PARTIAL_CACHE_SIZE``).  A bucket whose words times footprint
cells are fewer than ``CACHE_MIN_TESTS`` is matched without the cache (measured against the rule before, three words
or more: Biased MCTS's time an iteration 5-9% less at Breakthrough and Knightthrough, 0-3% more at Teeko, the same
at Fanorona; 40 lost the gain).

*Banks.*  The byte tables and the cache depend on the weights: there are two banks (the two players' weights in a
search), each with a copy of the weights it was made with.  A call whose ``theta`` equals neither copy takes over
the older bank and rebuilds its tables; its cache is not emptied (with a cache of a million slots that cost a
memset of 8 MB at every weight change, i.e. every move of self-play) but given a new random 64-bit *epoch key*,
XORed into every key it stores and looks up, so sums made with other weights are never used.  Cache keys are full
64-bit hashes: a wrong hit needs two footprints (or epochs) looked up to collide in 64 bits.

Arrays (``W`` words, ``E`` cell entries, ``G`` feature entries, ``B`` buckets, ``S`` cache slots a bank):

``meta``               int64[8]: cells, features, B, W, simple features, rest words, S, banks
``bucket_words``       int64[B + 1]: the words of bucket b are ``bucket_words[b]:bucket_words[b + 1]``
``word_init``          uint64[W]: the bits of the word that hold an instance
``word_tests``         int64[W + 1]: the cell entries of word w
``test_cell``          int64[E]: the cell an entry reads
``test_pass``          uint64[3 E]: ``test_pass[3 e + v]``: the instances that survive when that cell holds v
``word_feats``         int64[W + 1]: the feature entries of word w
``feat_index``         int64[G]: the feature of an entry (entries of one bucket in feature order)
``feat_mask``          uint64[G]: its instances' bits in the word
``word_inst``          int64[64 W]: the instance (index in ``FeatureSet.instances``) of every bit, -1 for none
``rest_*``             the first five of these arrays for the instances of the features that are not simple, with
                       the tests cell-major (*Rest words* below): ``rest_word_tests`` int64[B + 1] holds each
                       bucket's offset into ``rest_test_pass``, and in place of ``test_cell``:
``rest_bit_feature``   uint16[64 W'] (int32 beyond 65,535 features): the feature of every bit of rest word w (a
                       feature's bits in a word are consecutive, the features in order)
``rest_foot_masks``    uint64[B N]: bucket b's cache key cells as N board words (cell c is bit c % 64 of word c // 64),
                       at ``N b + j``; N = ceil(cells / 64) for boards of at most ``BITBOARD_CELLS`` cells, else 0.
                       The key cells: the rest footprint, and for a whole bucket (*Cache*) also its move cell
``rest_foot_words``    int64[3 B]: the first and one past the last board word the key cells meet, and 1 if the
                       bucket is whole
``board_bits``         uint64[2 N] (writable scratch): the position's friend and enemy cells as board words
                       (``[2 j]``, ``[2 j + 1]``), written by each ``move_logits`` call
``rest_foot_offsets``  int64[B + 1], ``rest_foot_cells`` int64[...]: the distinct cells a bucket's rest instances test
``simple_features``    int64[<= 64]: the feature of each simple bit
``simple_offsets``     int64[2 cells + 1], ``simple_cells`` int64[...]: a (to or from) bucket's simple cells
``simple_masks``       uint64[9 per simple cell]: ``[9 e + 3 v + v0]``: simple features firing when the cell holds v
                       and the move's own cell holds v0
``simple_zero``        uint64[3 per bucket]: ``[3 b + v0]``: simple features firing on the move's own cell alone
``zobrist``            uint64[3 cells]: a random key for every (cell, owner_rel value); ``salt`` uint64[B]: per bucket
``bank_theta``         float64[banks, features] (writable): each bank's weights (NaN: none yet)
``bank_tables``        float64[banks * 8 * 256] (writable): each bank's byte sums of simple features' weights
``bank_state``         int64[2 + banks] (writable): the bank to take over next, how many times a bank was taken
                       over, and each bank's epoch key (the bits of a uint64)
``cache_keys``         uint64[banks * 2 S] (writable; S a power of two or 0 = no cache): slot s of bank k holds its
                       hash at ``2 (k S + s)`` (0 = empty) and its rest sum next to it, in the same cache line
``cache_vals``         float64[banks * 2 S]: the same memory as ``cache_keys`` seen as floats (the sums at
                       ``2 (k S + s) + 1``): a lookup costs one memory access where two arrays cost two

``owner_rel[cell]`` must be 0 (empty), 1 (a piece of the player to move) or 2 (the opponent's), any integer dtype
(``ppalib.features.owner_relative`` builds it).  Moves are ``(from, to)`` cells, -1 for none (a placement has
from = -1; a pass is (-1, -1) and matches nothing).  Nothing here allocates (``noalloc_jit``); ``move_logits``
writes to the bank arrays, so one compiled set must not be used by two threads at once.
"""
import numpy as np

from .._noalloc import inline_jit, noalloc_jit, nowrap
from ..games._bits import ONE, ZERO, lowest_cell

# Helpers (``@inline_jit``) are inlined into their callers at numba-IR level: a compiled call passes each array as
# seven scalars, and with 10-30 arrays that costs more than the work (measured: 127 -> 46 ns a move on the hexagon's
# atomic set).

__all__ = ["active_features", "active_feature_rows", "active_instance_ids", "move_logits", "move_logit", "clear_cache", "TO_REUSE_WINDOW",
           "CACHE_MIN_TESTS", "BITBOARD_CELLS"]

TO_REUSE_WINDOW = 8
CACHE_MIN_TESTS = 24  # a bucket is cached when its words x footprint cells reach this (hashing costs less)
BITBOARD_CELLS = 256  # boards up to this many cells hash footprints from board words (module docstring, *Cache*)


@inline_jit
def _bucket_logit(b, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask,
                  theta, owner_rel):
    total = 0.0
    last = -1
    for w in range(bucket_words[nowrap(b)], bucket_words[nowrap(b + 1)]):
        alive = word_init[nowrap(w)]
        for e in range(word_tests[nowrap(w)], word_tests[nowrap(w + 1)]):
            alive &= test_pass[nowrap(3 * e + owner_rel[nowrap(test_cell[nowrap(e)])])]
            if alive == 0:
                break
        if alive == 0:
            continue
        for e in range(word_feats[nowrap(w)], word_feats[nowrap(w + 1)]):
            if (alive & feat_mask[nowrap(e)]) != 0:
                g = feat_index[nowrap(e)]
                if g != last:  # a feature split over consecutive words counts once
                    total += theta[nowrap(g)]
                    last = g
    return total


@inline_jit
def _rest_word_sum(alive, w, rest_bit_feature, theta, total, last):
    """Add the weights of the features with a bit in ``alive`` (rest word ``w``), each once, in feature order: the
    set bits are visited from the lowest (a feature's bits are consecutive, so a feature's second bit repeats
    ``last``), one step per instance that fires instead of one per feature of the word; the same additions in the
    same order as testing every entry's mask in turn.  Each step clears its bit alone (``alive & (alive - 1)``) and
    reads its feature from ``rest_bit_feature``: clearing the feature's mask, read from memory, would put loads on
    the loop's chain of dependences (measured: Knightthrough 205 -> 169 ns a move)."""
    while alive != 0:
        g = np.int64(rest_bit_feature[nowrap(64 * w + lowest_cell(alive))])
        if g != last:  # a feature's next bit, or a feature split over consecutive words: counted once
            total += theta[nowrap(g)]
            last = g
        alive &= alive - ONE
    return total, last


@inline_jit
def _words_sum(a0, a1, a2, a3, w, rest_bit_feature, theta, total, last):
    """``_rest_word_sum`` of four consecutive rest words from ``w`` (alive masks a0..a3; 0 adds nothing).

    A loop with one inlined ``_rest_word_sum``, not four calls: numba inlines at IR level, so every call site is
    typed and lowered again, and this function is itself inlined at twelve places in ``move_logits``.  The loop
    made ``move_logits``' cold compile 23-25 s against 28-33 and matched as fast or faster (saved policies of notebook
    04: medians 0.93-0.96 of before; data/bench/matcher_compile_2026-12-07_ab.txt)."""
    for k in range(4):
        alive = a0 if k == 0 else (a1 if k == 1 else (a2 if k == 2 else a3))
        total, last = _rest_word_sum(alive, w + k, rest_bit_feature, theta, total, last)
    return total, last


@inline_jit
def _rest_bucket_logit(b, rest_bucket_words, rest_word_init, rest_pass_offsets, rest_pass, rest_bit_feature,
                       rest_foot_offsets, rest_foot_cells, theta, owner_rel):
    """The rest words' sum of bucket b, as ``_bucket_logit`` computes it (the same additions in the same order)
    from the cell-major layout: each footprint cell is read once for four words at a time, and once for the last
    one to three."""
    lo = rest_bucket_words[nowrap(b)]
    count = rest_bucket_words[nowrap(b + 1)] - lo
    base = rest_pass_offsets[nowrap(b)]
    f0 = rest_foot_offsets[nowrap(b)]
    cells_in = rest_foot_offsets[nowrap(b + 1)] - f0
    total = 0.0
    last = -1
    w = 0
    while w + 4 <= count:
        a0 = rest_word_init[nowrap(lo + w)]
        a1 = rest_word_init[nowrap(lo + w + 1)]
        a2 = rest_word_init[nowrap(lo + w + 2)]
        a3 = rest_word_init[nowrap(lo + w + 3)]
        for k in range(cells_in):
            p = base + (3 * k + owner_rel[nowrap(rest_foot_cells[nowrap(f0 + k)])]) * count + w
            a0 &= rest_pass[nowrap(p)]
            a1 &= rest_pass[nowrap(p + 1)]
            a2 &= rest_pass[nowrap(p + 2)]
            a3 &= rest_pass[nowrap(p + 3)]
        total, last = _words_sum(a0, a1, a2, a3, lo + w, rest_bit_feature, theta, total, last)
        w += 4
    left = count - w  # the last one to three words, also in one pass over the footprint
    if left == 0:
        return total
    a0 = rest_word_init[nowrap(lo + w)]
    a1 = rest_word_init[nowrap(lo + w + 1)] if left > 1 else ZERO
    a2 = rest_word_init[nowrap(lo + w + 2)] if left > 2 else ZERO
    for k in range(cells_in):
        p = base + (3 * k + owner_rel[nowrap(rest_foot_cells[nowrap(f0 + k)])]) * count + w
        a0 &= rest_pass[nowrap(p)]
        if left > 1:  # the same branch for every cell of the bucket: predicted
            a1 &= rest_pass[nowrap(p + 1)]
            if left > 2:
                a2 &= rest_pass[nowrap(p + 2)]
    total, last = _words_sum(a0, a1, a2, ZERO, lo + w, rest_bit_feature, theta, total, last)
    return total


@inline_jit
def _bucket_features(b, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask,
                     owner_rel, out, count):
    last = -1
    for w in range(bucket_words[nowrap(b)], bucket_words[nowrap(b + 1)]):
        alive = word_init[nowrap(w)]
        for e in range(word_tests[nowrap(w)], word_tests[nowrap(w + 1)]):
            alive &= test_pass[nowrap(3 * e + owner_rel[nowrap(test_cell[nowrap(e)])])]
            if alive == 0:
                break
        if alive == 0:
            continue
        for e in range(word_feats[nowrap(w)], word_feats[nowrap(w + 1)]):
            if (alive & feat_mask[nowrap(e)]) != 0:
                g = feat_index[nowrap(e)]
                if g != last:
                    out[nowrap(count)] = g
                    count += 1
                    last = g
    return count


@inline_jit
def _buckets(meta, from_cell, to_cell):
    """The (up to three) buckets of a move, -1 for none."""
    cells = meta[0]
    b_to = to_cell if to_cell >= 0 else -1
    b_from = cells + from_cell if from_cell >= 0 else -1
    b_ft = -1
    if from_cell >= 0 and to_cell >= 0 and meta[2] > 2 * cells:
        b_ft = 2 * cells + from_cell * cells + to_cell
    return b_to, b_from, b_ft


@noalloc_jit
def active_features(
        meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features, simple_offsets,
        simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables, bank_state, cache_keys,
        cache_vals,
        owner_rel, from_cell, to_cell, out_flags):
    """Write the indices of the features active for the move (from_cell, to_cell) into ``out_flags[:count]``
    (each once; room for ``meta[1]`` needed) and return count."""
    count = 0
    b_to, b_from, b_ft = _buckets(meta, from_cell, to_cell)
    if b_to >= 0:
        count = _bucket_features(b_to, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                                 feat_index, feat_mask, owner_rel, out_flags, count)
    if b_from >= 0:
        count = _bucket_features(b_from, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                                 feat_index, feat_mask, owner_rel, out_flags, count)
    if b_ft >= 0:
        count = _bucket_features(b_ft, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                                 feat_index, feat_mask, owner_rel, out_flags, count)
    return count


@noalloc_jit
def move_logit(
        meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features, simple_offsets,
        simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables, bank_state, cache_keys,
        cache_vals,
        theta, owner_rel, from_cell, to_cell):
    """theta . phi(state, move) for one move (each active feature counted once; no cache)."""
    b_to, b_from, b_ft = _buckets(meta, from_cell, to_cell)
    total = 0.0
    if b_to >= 0:
        total += _bucket_logit(b_to, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                               feat_index, feat_mask, theta, owner_rel)
    if b_from >= 0:
        total += _bucket_logit(b_from, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                               feat_index, feat_mask, theta, owner_rel)
    if b_ft >= 0:
        total += _bucket_logit(b_ft, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                               feat_index, feat_mask, theta, owner_rel)
    return total


@inline_jit
def _mix64(z):
    """splitmix64's finaliser: a bijection of the 64-bit words, each output bit depending on every input bit."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inline_jit
def _board_words(cells, owner_rel, board_bits):
    """``board_bits[2 j]`` / ``[2 j + 1]``: the friend / enemy cells among cells 64 j .. 64 j + 63."""
    for j in range(board_bits.shape[0] // 2):
        friend = ZERO
        enemy = ZERO
        for c in range(64 * j, min(64 * j + 64, cells)):
            v = owner_rel[nowrap(c)]
            friend |= np.uint64(v == 1) << np.uint64(c - 64 * j)
            enemy |= np.uint64(v == 2) << np.uint64(c - 64 * j)
        board_bits[nowrap(2 * j)] = friend
        board_bits[nowrap(2 * j + 1)] = enemy


@inline_jit
def _epoch_key(count):
    """A bank's epoch key: splitmix64 of the takeover count (as int64 bits; distinct counts, distinct keys)."""
    z = np.uint64(count) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64(z ^ (z >> np.uint64(31)))


@noalloc_jit
def _theta_bank(theta, simple_features, bank_theta, bank_tables, bank_state, cache_keys):
    """The bank made with ``theta``; if none, the older bank takes ``theta``: tables rebuilt, cache emptied."""
    banks = bank_theta.shape[0]
    features = bank_theta.shape[1]
    for k in range(banks):
        same = True
        for i in range(features):
            if bank_theta[k, i] != theta[nowrap(i)]:
                same = False
                break
        if same:
            return k
    k = bank_state[0]
    bank_state[0] = (k + 1) % banks
    bank_state[1] += 1
    bank_state[nowrap(2 + k)] = _epoch_key(bank_state[1])
    for i in range(features):
        bank_theta[k, i] = theta[nowrap(i)]
    n_simple = simple_features.shape[0]
    base = k * 2048
    for byte in range(8):
        row = base + 256 * byte
        bank_tables[nowrap(row)] = 0.0
        for x in range(1, 256):
            low = 0
            while ((x >> low) & 1) == 0:
                low += 1
            j = 8 * byte + low
            bit_weight = theta[nowrap(simple_features[nowrap(j)])] if j < n_simple else 0.0
            bank_tables[nowrap(row + x)] = bank_tables[nowrap(row + (x & (x - 1)))] + bit_weight
    return k


@inline_jit
def _simple_sum(sb, key_cell, simple_offsets, simple_cells, simple_masks, simple_zero, bank_tables, table_base,
                owner_rel):
    v0 = owner_rel[nowrap(key_cell)]
    bits = simple_zero[nowrap(3 * sb + v0)]
    for e in range(simple_offsets[nowrap(sb)], simple_offsets[nowrap(sb + 1)]):
        bits |= simple_masks[nowrap(9 * e + 3 * owner_rel[nowrap(simple_cells[nowrap(e)])] + v0)]
    total = 0.0
    byte = 0
    mask = np.uint64(255)
    while bits != 0:
        total += bank_tables[nowrap(table_base + 256 * byte + np.int64(bits & mask))]
        bits >>= np.uint64(8)
        byte += 1
    return total


@inline_jit
def _bucket_value(b, cells, rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass,
                  rest_foot_masks, rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells,
                  simple_offsets, simple_cells, simple_masks, simple_zero, zobrist, salt, bank_tables, table_base,
                  cache_keys, cache_vals, cache_base, cache_mask, epoch, theta, owner_rel):
    """The bucket's sum ``simple + rest``: its simple features by the tables, the rest by matching words; from the
    cache when the bucket is large enough.  The cache holds the whole sum (no simple sum on a hit) when the bucket
    is *whole* (board words, and its simple features test no cell outside its rest footprint and move cell: a key
    of more cells would recur less), else the rest sum."""
    words = rest_bucket_words[nowrap(b + 1)] - rest_bucket_words[nowrap(b)]
    cached = words > 0 and cache_base >= 0 and \
        words * (rest_foot_offsets[nowrap(b + 1)] - rest_foot_offsets[nowrap(b)]) >= CACHE_MIN_TESTS
    board_words = rest_foot_masks.shape[0] // salt.shape[0]
    slot = np.int64(0)
    h = ZERO
    hit = False
    whole = rest_foot_words[nowrap(3 * b + 2)] != 0
    if cached and board_words > 0:
        h = salt[nowrap(b)] ^ epoch
        for j in range(rest_foot_words[nowrap(3 * b)], rest_foot_words[nowrap(3 * b + 1)]):
            mask = rest_foot_masks[nowrap(board_words * b + j)]
            h = _mix64(h ^ (board_bits[nowrap(2 * j)] & mask))
            h = _mix64(h ^ (board_bits[nowrap(2 * j + 1)] & mask))
        h |= ONE
        slot = cache_base + 2 * np.int64(h & cache_mask)  # key and value side by side
        hit = cache_keys[nowrap(slot)] == h
        if hit and whole:
            return cache_vals[nowrap(slot + 1)]
    total = 0.0
    if b < 2 * cells:
        total = _simple_sum(b, b if b < cells else b - cells, simple_offsets, simple_cells, simple_masks,
                            simple_zero, bank_tables, table_base, owner_rel)
    if words == 0:
        return total
    if not cached:
        return total + _rest_bucket_logit(b, rest_bucket_words, rest_word_init, rest_word_tests, rest_test_pass,
                                          rest_bit_feature, rest_foot_offsets, rest_foot_cells, theta, owner_rel)
    if board_words == 0:  # a larger board: the rest footprint's Zobrist key
        h = salt[nowrap(b)] ^ epoch
        for k in range(rest_foot_offsets[nowrap(b)], rest_foot_offsets[nowrap(b + 1)]):
            c = rest_foot_cells[nowrap(k)]
            h ^= zobrist[nowrap(3 * c + owner_rel[nowrap(c)])]
        h |= ONE
        slot = cache_base + 2 * np.int64(h & cache_mask)
        hit = cache_keys[nowrap(slot)] == h
    if hit:  # the cached rest sum (a hit on a whole bucket returned above)
        return total + cache_vals[nowrap(slot + 1)]
    # A miss: one call site for the cached cases (the rest sum is inlined; a call site per case, three in all, took
    # most of the matcher's compile time), the whole sum stored for a whole bucket, else the rest sum.
    rest = _rest_bucket_logit(b, rest_bucket_words, rest_word_init, rest_word_tests, rest_test_pass,
                              rest_bit_feature, rest_foot_offsets, rest_foot_cells, theta, owner_rel)
    value = total + rest if board_words > 0 and whole else rest
    cache_keys[nowrap(slot)] = h
    cache_vals[nowrap(slot + 1)] = value
    return total + rest


@noalloc_jit
def move_logits(
        meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features, simple_offsets,
        simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables, bank_state, cache_keys,
        cache_vals,
        theta, owner_rel, moves_from, moves_to, n, out_logits):
    """``out_logits[i] = theta . phi(state, move i)`` for the n moves ``(moves_from[i], moves_to[i])``.

    Buckets are shared between moves: a move with the origin of the move before it reuses that bucket's sum, and a
    move with the destination of one of the ``TO_REUSE_WINDOW`` moves before it reuses that one (legal-move lists
    list a piece's moves together, and neighbouring pieces' moves share destinations); the destination sums are
    kept in ``out_logits`` during a first pass.  Simple features, cache and banks: module docstring."""
    cells = meta[0]
    has_ft = meta[2] > 2 * cells
    bank = _theta_bank(theta, simple_features, bank_theta, bank_tables, bank_state, cache_keys)
    table_base = bank * 2048
    cache_base = -1
    cache_mask = np.uint64(0)
    epoch = np.uint64(bank_state[nowrap(2 + bank)])
    if cache_keys.shape[0] > 0:
        size = cache_keys.shape[0] // bank_theta.shape[0]
        cache_base = bank * size
        cache_mask = np.uint64(size // 2 - 1)
        if board_bits.shape[0] > 0:
            _board_words(cells, owner_rel, board_bits)
    for i in range(n):  # pass 1: destination buckets
        t = moves_to[nowrap(i)]
        value = 0.0
        if t >= 0:
            found = False
            j = i - 1
            while j >= 0 and j >= i - TO_REUSE_WINDOW:
                if moves_to[nowrap(j)] == t:
                    value = out_logits[nowrap(j)]
                    found = True
                    break
                j -= 1
            if not found:
                value = _bucket_value(t, cells, rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature,
                                      rest_test_pass, rest_foot_masks, rest_foot_words, board_bits,
                                      rest_foot_offsets, rest_foot_cells, simple_offsets, simple_cells, simple_masks,
                                      simple_zero, zobrist, salt, bank_tables, table_base, cache_keys, cache_vals,
                                      cache_base, cache_mask, epoch, theta, owner_rel)
        out_logits[nowrap(i)] = value
    prev_from = -1
    from_sum = 0.0
    for i in range(n):  # pass 2: origin and origin-destination buckets
        f = moves_from[nowrap(i)]
        if f < 0:
            continue
        if f != prev_from:
            from_sum = _bucket_value(cells + f, cells, rest_bucket_words, rest_word_init, rest_word_tests,
                                     rest_bit_feature, rest_test_pass, rest_foot_masks, rest_foot_words,
                                     board_bits, rest_foot_offsets, rest_foot_cells, simple_offsets,
                                     simple_cells, simple_masks, simple_zero, zobrist, salt, bank_tables,
                                     table_base, cache_keys, cache_vals, cache_base, cache_mask, epoch, theta,
                                     owner_rel)
            prev_from = f
        total = from_sum
        t = moves_to[nowrap(i)]
        if has_ft and t >= 0:
            total += _bucket_value(2 * cells + f * cells + t, cells, rest_bucket_words, rest_word_init,
                                   rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
                                   rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells,
                                   simple_offsets, simple_cells, simple_masks, simple_zero, zobrist, salt,
                                   bank_tables, table_base, cache_keys, cache_vals, cache_base, cache_mask, epoch, theta,
                                   owner_rel)
        out_logits[nowrap(i)] += total


@noalloc_jit
def clear_cache(
        meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features, simple_offsets,
        simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables, bank_state, cache_keys,
        cache_vals):
    """Forget both banks (tables and cache are rebuilt on the next call; never needed for correctness)."""
    for s in range(cache_keys.shape[0]):
        cache_keys[nowrap(s)] = 0
    for k in range(bank_theta.shape[0]):
        for i in range(bank_theta.shape[1]):
            bank_theta[k, i] = np.nan


@noalloc_jit
def active_instance_ids(
        meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features, simple_offsets,
        simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables, bank_state, cache_keys,
        cache_vals,
        owner_rel, from_cell, to_cell, out):
    """Write the indices (in ``FeatureSet.instances``) of every instance that fires for the move into
    ``out[:count]`` and return count (feature discovery pairs these; several per feature are possible)."""
    count = 0
    b_to, b_from, b_ft = _buckets(meta, from_cell, to_cell)
    one = np.uint64(1)
    for k in range(3):
        b = b_to if k == 0 else (b_from if k == 1 else b_ft)
        if b < 0:
            continue
        for w in range(bucket_words[nowrap(b)], bucket_words[nowrap(b + 1)]):
            alive = word_init[nowrap(w)]
            for e in range(word_tests[nowrap(w)], word_tests[nowrap(w + 1)]):
                alive &= test_pass[nowrap(3 * e + owner_rel[nowrap(test_cell[nowrap(e)])])]
            if alive == 0:
                continue
            for bit in range(64):
                if ((alive >> np.uint64(bit)) & one) != 0:
                    out[nowrap(count)] = word_inst[nowrap(64 * w + bit)]
                    count += 1
    return count


@inline_jit
def _sort_range(values, lo, hi):
    """Insertion sort of ``values[lo:hi]`` (rows are short)."""
    for i in range(lo + 1, hi):
        v = values[nowrap(i)]
        j = i - 1
        while j >= lo and values[nowrap(j)] > v:
            values[nowrap(j + 1)] = values[nowrap(j)]
            j -= 1
        values[nowrap(j + 1)] = v


@noalloc_jit
def active_feature_rows(
        meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features, simple_offsets,
        simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables, bank_state, cache_keys,
        cache_vals,
        owner_rel, moves_from, moves_to, n, indptr, indices):
    """phi(state, move) of ``n`` moves as CSR rows (``ppalib.training.policy``): row i, the sorted indices of the
    features active for move i, is ``indices[indptr[i]:indptr[i + 1]]``.  ``indptr`` needs n + 1 entries; returns
    the number of indices written, or -1 if ``indices`` is too short (the caller retries with more room)."""
    cells = meta[0]
    has_ft = meta[2] > 2 * cells
    count = 0
    indptr[0] = 0
    room = indices.shape[0]
    for i in range(n):
        f = moves_from[nowrap(i)]
        t = moves_to[nowrap(i)]
        start = count
        for k in range(3):
            b = -1
            if k == 0 and t >= 0:
                b = t
            elif k == 1 and f >= 0:
                b = cells + f
            elif k == 2 and f >= 0 and t >= 0 and has_ft:
                b = 2 * cells + f * cells + t
            if b < 0:
                continue
            if count + meta[1] > room:
                return -1
            count = _bucket_features(b, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                                     feat_index, feat_mask, owner_rel, indices, count)
        _sort_range(indices, start, count)
        indptr[nowrap(i + 1)] = count
    return count
