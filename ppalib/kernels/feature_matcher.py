"""The spatial-feature matcher, compiled and game-free: which features fire for a move, and the move's logit.

A ``ppalib.features.FeatureSet`` compiles its instances into the flat arrays below (``FeatureSet.compiled``, a
namedtuple in this order: pass ``*feature_set.compiled`` first to every function here).  Instances are put in
*buckets* by the move cells they need: bucket ``t`` holds the instances that fix only the destination ``t``,
bucket ``cells + f`` those that fix only the origin ``f``, and bucket ``2 * cells + f * cells + t`` (present when
``meta[2] > 2 * cells``) those that fix both.  A move ``(f, t)`` looks at no more than these three buckets.

Inside a bucket, instances are bits of 64-bit *words* (a feature's instances never straddle two words unless it has
more than 64 in one bucket, and then they fill consecutive words).  Each word lists the cells its instances test,
and for each such cell three masks: the instances that survive when the cell holds 0 (empty), 1 (friend) or
2 (enemy).  Matching a word is ``alive = init; alive &= pass[cell, owner_rel[cell]]`` for each listed cell, and a
feature fires if ``alive`` meets its mask.  Each cell is read once per word instead of once per instance test.

Arrays (``W`` words, ``E`` cell entries, ``G`` feature entries):

``meta``            int64[4]: cells, number of features, number of buckets, W
``bucket_words``    int64[buckets + 1]: the words of bucket b are ``bucket_words[b]:bucket_words[b + 1]``
``word_init``       uint64[W]: the bits of the word that hold an instance
``word_tests``      int64[W + 1]: the cell entries of word w
``test_cell``       int64[E]: the cell an entry reads
``test_pass``       uint64[3 E]: ``test_pass[3 e + v]``: the instances that survive when that cell holds v
``word_feats``      int64[W + 1]: the feature entries of word w
``feat_index``      int64[G]: the feature of an entry (entries of one bucket in feature order)
``feat_mask``       uint64[G]: its instances' bits in the word
``word_inst``       int64[64 W]: the instance (index in ``FeatureSet.instances``) of every bit, -1 for none

``owner_rel[cell]`` must be 0 (empty), 1 (a piece of the player to move) or 2 (the opponent's), any integer dtype
(``ppalib.features.owner_relative`` builds it).  Moves are ``(from, to)`` cells, -1 for none (a placement has
from = -1; a pass is (-1, -1) and matches nothing).  Nothing here allocates (``noalloc_jit``).
"""
import numpy as np

from .._noalloc import noalloc_jit

__all__ = ["active_features", "active_instance_ids", "move_logits", "move_logit"]


@noalloc_jit
def _bucket_logit(b, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask,
                  theta, owner_rel):
    total = 0.0
    last = -1
    for w in range(bucket_words[b], bucket_words[b + 1]):
        alive = word_init[w]
        for e in range(word_tests[w], word_tests[w + 1]):
            alive &= test_pass[3 * e + owner_rel[test_cell[e]]]
        if alive == 0:
            continue
        for e in range(word_feats[w], word_feats[w + 1]):
            if (alive & feat_mask[e]) != 0:
                g = feat_index[e]
                if g != last:  # a feature split over consecutive words counts once
                    total += theta[g]
                    last = g
    return total


@noalloc_jit
def _bucket_features(b, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask,
                     owner_rel, out, count):
    last = -1
    for w in range(bucket_words[b], bucket_words[b + 1]):
        alive = word_init[w]
        for e in range(word_tests[w], word_tests[w + 1]):
            alive &= test_pass[3 * e + owner_rel[test_cell[e]]]
        if alive == 0:
            continue
        for e in range(word_feats[w], word_feats[w + 1]):
            if (alive & feat_mask[e]) != 0:
                g = feat_index[e]
                if g != last:
                    out[count] = g
                    count += 1
                    last = g
    return count


@noalloc_jit
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
def active_features(meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index,
                    feat_mask, word_inst, owner_rel, from_cell, to_cell, out_flags):
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
def move_logit(meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask,
               word_inst, theta, owner_rel, from_cell, to_cell):
    """theta . phi(state, move) for one move (each active feature counted once)."""
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


@noalloc_jit
def move_logits(meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask,
                word_inst, theta, owner_rel, moves_from, moves_to, n, out_logits):
    """``out_logits[i] = theta . phi(state, move i)`` for the n moves ``(moves_from[i], moves_to[i])``.

    A move sharing its destination (origin) with the move before it reuses that bucket's sum: legal-move lists
    that group the moves of one piece (or onto one cell) evaluate each bucket once."""
    cells = meta[0]
    has_ft = meta[2] > 2 * cells
    prev_to = -1
    prev_from = -1
    to_sum = 0.0
    from_sum = 0.0
    for i in range(n):
        f = moves_from[i]
        t = moves_to[i]
        total = 0.0
        if t >= 0:
            if t != prev_to:
                to_sum = _bucket_logit(t, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats,
                                       feat_index, feat_mask, theta, owner_rel)
                prev_to = t
            total += to_sum
        if f >= 0:
            if f != prev_from:
                from_sum = _bucket_logit(cells + f, bucket_words, word_init, word_tests, test_cell, test_pass,
                                         word_feats, feat_index, feat_mask, theta, owner_rel)
                prev_from = f
            total += from_sum
            if has_ft and t >= 0:
                total += _bucket_logit(2 * cells + f * cells + t, bucket_words, word_init, word_tests, test_cell,
                                       test_pass, word_feats, feat_index, feat_mask, theta, owner_rel)
        out_logits[i] = total


@noalloc_jit
def active_instance_ids(meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index,
                        feat_mask, word_inst, owner_rel, from_cell, to_cell, out):
    """Write the indices (in ``FeatureSet.instances``) of every instance that fires for the move into
    ``out[:count]`` and return count (feature discovery pairs these; several per feature are possible)."""
    count = 0
    b_to, b_from, b_ft = _buckets(meta, from_cell, to_cell)
    for k in range(3):
        b = b_to if k == 0 else (b_from if k == 1 else b_ft)
        if b < 0:
            continue
        for w in range(bucket_words[b], bucket_words[b + 1]):
            alive = word_init[w]
            for e in range(word_tests[w], word_tests[w + 1]):
                alive &= test_pass[3 * e + owner_rel[test_cell[e]]]
            if alive == 0:
                continue
            one = np.uint64(1)
            for bit in range(64):
                if ((alive >> np.uint64(bit)) & one) != 0:
                    out[count] = word_inst[64 * w + bit]
                    count += 1
    return count
