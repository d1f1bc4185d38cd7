"""Compile a feature set's instances into the flat arrays of ``ppalib.features.matcher`` (layout there).

Two representations are built:

* every instance, in 64-bit words per bucket (``active_features``, ``active_instance_ids``, ``move_logit``);
* for ``move_logits``, the *simple* features apart: features that fix one end of the move only and whose every
  instance tests at most one cell besides that end (every atomic feature).  Such a feature fires at a move iff some
  instance's one test holds, so a bucket needs no per-instance bits: per cell and per content of the cell and of
  the move's own cell, one mask of the simple features it makes fire.  Up to 64 simple features (one bit each, in
  index order); their weights are summed through eight 256-entry tables of byte sums, rebuilt when the weights
  change.  The other features (``rest_*``) keep the word layout, with a cache of bucket sums.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..games.graph import OFF_BOARD
from .instances import Instance
from .matcher import BITBOARD_CELLS

SIMPLE_LIMIT = 64
CACHE_BANKS = 2
#: The cache's slots a bank when fewer than half the buckets are *whole* (``matcher``'s *Cache*; a from-to bucket
#: never is), on boards of at most ``BITBOARD_CELLS`` cells: a hit then saves only the rest words, and a miss in a cache
#: far larger than the core's L2 costs more than the hits save.  Measured with the budget run's final policies at
#: their 5 s budgets (first two moves, three interleaved rounds, CPU seconds):
#: Knightthrough (no whole bucket) 0.204 s at 2^20 slots -> 0.183 at 2^15, Breakthrough (36 of 4224 whole)
#: 0.171 -> 0.156 and 0.198 -> 0.192, Teeko (25 of 675) 1.65 -> 1.65 and 1.56 -> 1.52, Fanorona (none) 0.141 ->
#: 0.139; where every bucket is whole a million slots stay faster (Hex 7x7 2.29 -> 2.55 s, Yavalath 3.31 -> 3.70).
PARTIAL_CACHE_SIZE = 1 << 15
_HASH_SEED = 20190613  # fixed: the Zobrist keys are part of the compiled set, not of a run
_ALL_BITS = (1 << 64) - 1

_WORD_FIELDS = ["bucket_words", "word_init", "word_tests", "test_cell", "test_pass", "word_feats", "feat_index",
                "feat_mask"]
CompiledFeatures = namedtuple("CompiledFeatures", [
    "meta", *_WORD_FIELDS, "word_inst",
    "rest_bucket_words", "rest_word_init", "rest_word_tests", "rest_bit_feature", "rest_test_pass", "rest_foot_masks",
    "rest_foot_words", "board_bits", "rest_foot_offsets", "rest_foot_cells",
    "simple_features", "simple_offsets", "simple_cells", "simple_masks", "simple_zero",
    "zobrist", "salt",
    "bank_theta", "bank_tables", "bank_state", "cache_keys", "cache_vals"])
CompiledFeatures.__doc__ = ("The flat arrays of a compiled feature set, in the argument order of every function of "
                            "ppalib.features.matcher (see its docstring).")


def bucket_of(inst: Instance, cells: int) -> int:
    """to-only: the destination; from-only: cells + origin; both: 2 cells + origin * cells + destination."""
    if inst.from_cell == OFF_BOARD:
        return inst.to_cell
    if inst.to_cell == OFF_BOARD:
        return cells + inst.from_cell
    return 2 * cells + inst.from_cell * cells + inst.to_cell


def _passes(kind: int, v: int) -> bool:
    return (v == kind >> 1) != bool(kind & 1)


_REJECTED: dict[int, tuple[int, ...]] = {}


def _rejected(kind: int) -> tuple[int, ...]:
    """The cell contents (0 empty, 1 friend, 2 enemy) a test of ``kind`` rejects (``_passes`` false), memoised."""
    found = _REJECTED.get(kind)
    if found is None:
        found = _REJECTED[kind] = tuple(v for v in range(3) if not _passes(kind, v))
    return found


def _i64(values):
    return np.array(values, dtype=np.int64) if len(values) else np.zeros(0, dtype=np.int64)


def _u64(values):
    return np.array(values, dtype=np.uint64) if len(values) else np.zeros(0, dtype=np.uint64)


def _pack_words(instances, members_of: dict[int, list[int]], n_buckets: int, with_inst: bool):
    """The word layout of the instances ``members_of[bucket]`` (indices into ``instances``, in feature order)."""
    bucket_words = np.zeros(n_buckets + 1, dtype=np.int64)
    foot_offsets = np.zeros(n_buckets + 1, dtype=np.int64)
    word_init, word_tests, test_cell, test_pass = [], [0], [], []
    word_feats, feat_index, feat_mask, word_inst, foot_cells = [0], [], [], [], []

    def close_word(members):
        # The hot loop of a compile (hundreds of thousands of instances in a set of the paper's size, compiled
        # again whenever self-play adds a feature): the values each test kind rejects are looked up, not tested.
        passes: dict[int, list[int]] = {}
        feats: list[tuple[int, int]] = []
        for bit, idx in enumerate(members):
            inst = instances[idx]
            if feats and feats[-1][0] == inst.feature:
                feats[-1] = (inst.feature, feats[-1][1] | (1 << bit))
            else:
                feats.append((inst.feature, 1 << bit))
            clear = _ALL_BITS ^ (1 << bit)
            for cell, kind in inst.tests:
                masks = passes.get(cell)
                if masks is None:
                    masks = passes[cell] = [_ALL_BITS, _ALL_BITS, _ALL_BITS]
                for v in _rejected(kind):
                    masks[v] &= clear
        word_init.append((1 << len(members)) - 1)
        for cell in sorted(passes):
            test_cell.append(cell)
            test_pass.extend(passes[cell])
        word_tests.append(len(test_cell))
        for g, m in feats:
            feat_index.append(g)
            feat_mask.append(m)
        word_feats.append(len(feat_index))
        if with_inst:
            word_inst.extend(members + [-1] * (64 - len(members)))

    n_words = 0
    for b in range(n_buckets):
        bucket_words[b] = n_words
        foot_offsets[b] = len(foot_cells)
        members = members_of.get(b)
        if not members:
            continue
        foot_cells.extend(sorted({c for idx in members for c, _ in instances[idx].tests}))
        groups: list[list[int]] = []
        for idx in members:
            if groups and instances[groups[-1][0]].feature == instances[idx].feature:
                groups[-1].append(idx)
            else:
                groups.append([idx])
        word: list[int] = []
        for group in groups:
            if len(word) + len(group) > 64 and word:
                close_word(word)
                n_words += 1
                word = []
            while len(group) > 64:  # a feature with more than 64 instances here: whole words of it
                close_word(group[:64])
                n_words += 1
                group = group[64:]
            word.extend(group)
        if word:
            close_word(word)
            n_words += 1
    bucket_words[n_buckets] = n_words
    foot_offsets[n_buckets] = len(foot_cells)
    words = dict(bucket_words=bucket_words, word_init=_u64(word_init), word_tests=_i64(word_tests),
                 test_cell=_i64(test_cell), test_pass=_u64(test_pass), word_feats=_i64(word_feats),
                 feat_index=_i64(feat_index), feat_mask=_u64(feat_mask))
    return words, _i64(word_inst), foot_offsets, _i64(foot_cells), n_words


def _cell_major(words: dict, foot_offsets: np.ndarray, foot_cells: np.ndarray, n_buckets: int):
    """The rest words' tests laid out cell-major per bucket (``ppalib.features.matcher``, *Rest words*): for bucket
    b with words lo..hi and footprint cells ``foot_cells[foot_offsets[b]:foot_offsets[b + 1]]``, entry
    ``offsets[b] + (3 k + v) (hi - lo) + (w - lo)`` is the mask of word w's instances surviving when the k-th
    footprint cell holds v (every bit for a word that does not test that cell).  Returns (offsets int64[B + 1],
    the masks uint64[...])."""
    bucket_words, word_tests = words["bucket_words"], words["word_tests"]
    test_cell, test_pass = words["test_cell"], words["test_pass"]
    offsets = np.zeros(n_buckets + 1, dtype=np.int64)
    size = 0
    for b in range(n_buckets):
        offsets[b] = size
        size += 3 * int(foot_offsets[b + 1] - foot_offsets[b]) * int(bucket_words[b + 1] - bucket_words[b])
    offsets[n_buckets] = size
    masks = np.full(size, _ALL_BITS, dtype=np.uint64)
    for b in range(n_buckets):
        lo, hi = int(bucket_words[b]), int(bucket_words[b + 1])
        if hi == lo:
            continue
        k_of = {int(c): k for k, c in enumerate(foot_cells[foot_offsets[b]:foot_offsets[b + 1]])}
        for w in range(lo, hi):
            for e in range(int(word_tests[w]), int(word_tests[w + 1])):
                k = k_of[int(test_cell[e])]
                for v in range(3):
                    masks[offsets[b] + (3 * k + v) * (hi - lo) + (w - lo)] = test_pass[3 * e + v]
    return offsets, masks


def _bit_features(words: dict, n_words: int, n_features: int) -> np.ndarray:
    """Per word, the feature of each of its 64 bits (``uint16[64 n_words]``, or int32 beyond 65,535 features): a
    feature's bits in a word are consecutive and its entries in bit order, so bit i belongs to the last entry whose
    lowest bit is <= i (bits beyond the word's instances get its last entry's feature; they are never set)."""
    word_feats, feat_mask, feat_index = words["word_feats"], words["feat_mask"], words["feat_index"]
    dtype = np.uint16 if n_features <= np.iinfo(np.uint16).max else np.int32
    if n_words == 0:
        return np.zeros(0, dtype=dtype)
    word_of = np.repeat(np.arange(n_words), np.diff(word_feats))
    lowest = (feat_mask & (~feat_mask + np.uint64(1))).astype(np.float64)  # a power of two: exact as a float
    starts = np.zeros((n_words, 64), dtype=np.int64)
    starts[word_of, np.log2(lowest).astype(np.int64)] = 1
    entry = np.cumsum(starts, axis=1) - 1 + word_feats[:-1, None]  # the entry of each bit
    return feat_index[entry].astype(dtype).reshape(-1)


def _footprint_words(foot_offsets: np.ndarray, foot_cells: np.ndarray, n_buckets: int, cells: int,
                     simple_offsets: np.ndarray, simple_cells: list[int]):
    """Each bucket's cache key cells as board words (``matcher``, *Cache*): the cells its rest instances test and,
    for a *whole* bucket (one move end, whose simple features test no other cell than these and that end's cell),
    that end's cell.  Masks uint64[B N] (N = ceil(cells / 64), or 0 on boards of more than ``BITBOARD_CELLS``
    cells: no masks, the hash takes a Zobrist key per rest footprint cell, and no bucket is whole), and per bucket
    the range of words the key cells meet and whether it is whole, int64[3 B]."""
    board_words = (cells + 63) // 64 if cells <= BITBOARD_CELLS else 0
    masks = np.zeros(n_buckets * board_words, dtype=np.uint64)
    ranges = np.zeros(3 * n_buckets, dtype=np.int64)
    if board_words == 0:
        return masks, ranges
    for b in range(n_buckets):
        foot = foot_cells[foot_offsets[b]:foot_offsets[b + 1]]
        if b < 2 * cells:
            with_move_cell = np.union1d(foot, [b % cells])
            if set(simple_cells[simple_offsets[b]:simple_offsets[b + 1]]) <= set(with_move_cell.tolist()):
                foot = with_move_cell
                ranges[3 * b + 2] = 1
        if foot.size == 0:
            continue
        for c in foot:
            masks[board_words * b + c // 64] |= np.uint64(1) << np.uint64(c % 64)
        ranges[3 * b], ranges[3 * b + 1] = foot.min() // 64, foot.max() // 64 + 1
    return masks, ranges


def _key_cell(inst: Instance) -> int:
    return inst.to_cell if inst.from_cell == OFF_BOARD else inst.from_cell


def simple_feature_indices(per_feature: list[list[Instance]]) -> list[int]:
    """The features the simple path takes (see the module docstring), at most ``SIMPLE_LIMIT``, in index order."""
    out = []
    for g, group in enumerate(per_feature):
        if len(out) == SIMPLE_LIMIT:
            break
        if not group or any((i.to_cell == OFF_BOARD) == (i.from_cell == OFF_BOARD) for i in group):
            continue  # no instance, or fixes both ends of the move
        if all(sum(1 for c, _ in i.tests if c != _key_cell(i)) <= 1 for i in group):
            out.append(g)
    return out


def compile_instances(per_feature: list[list[Instance]], cells: int, cache_size: int = 0) -> CompiledFeatures:
    instances = [inst for group in per_feature for inst in group]
    n_features = len(per_feature)
    has_ft = any(i.to_cell != OFF_BOARD and i.from_cell != OFF_BOARD for i in instances)
    n_buckets = 2 * cells + (cells * cells if has_ft else 0)

    members_of: dict[int, list[int]] = {}
    for idx, inst in enumerate(instances):  # instances come grouped by feature: each bucket is in feature order
        members_of.setdefault(bucket_of(inst, cells), []).append(idx)
    words, word_inst, _, _, n_words = _pack_words(instances, members_of, n_buckets, True)

    simple = simple_feature_indices(per_feature)
    bit_of = {g: j for j, g in enumerate(simple)}
    rest_of = {b: [i for i in m if instances[i].feature not in bit_of] for b, m in members_of.items()}
    rest, _, rest_foot_offsets, rest_foot_cells, n_rest_words = _pack_words(instances, rest_of, n_buckets, False)
    rest["word_tests"], rest["test_pass"] = _cell_major(rest, rest_foot_offsets, rest_foot_cells, n_buckets)
    del rest["test_cell"]  # the tests are cell-major: the bits' feature entries take its place
    rest["bit_feature"] = _bit_features(rest, n_rest_words, n_features)
    del rest["word_feats"], rest["feat_index"], rest["feat_mask"]  # move_logits reads bit_feature instead

    # simple path: per (bucket, other cell, its content v, the key cell's content v0), the simple features firing
    simple_zero = [0] * (2 * cells * 3)
    entries: dict[int, dict[int, list[int]]] = {}
    for inst in instances:
        j = bit_of.get(inst.feature)
        if j is None:
            continue
        sb, key = bucket_of(inst, cells), _key_cell(inst)
        key_ok = [all(_passes(k, v0) for c, k in inst.tests if c == key) for v0 in range(3)]
        others = [(c, k) for c, k in inst.tests if c != key]
        if not others:
            for v0 in range(3):
                if key_ok[v0]:
                    simple_zero[3 * sb + v0] |= 1 << j
            continue
        (c, kind), = others
        masks = entries.setdefault(sb, {}).setdefault(c, [0] * 9)
        for v in range(3):
            for v0 in range(3):
                if key_ok[v0] and _passes(kind, v):
                    masks[3 * v + v0] |= 1 << j
    simple_offsets = np.zeros(2 * cells + 1, dtype=np.int64)
    simple_cells, simple_masks = [], []
    for sb in range(2 * cells):
        simple_offsets[sb] = len(simple_cells)
        for c, masks in sorted(entries.get(sb, {}).items()):
            simple_cells.append(c)
            simple_masks.extend(masks)
    simple_offsets[2 * cells] = len(simple_cells)
    rest["foot_masks"], rest["foot_words"] = _footprint_words(rest_foot_offsets, rest_foot_cells, n_buckets, cells,
                                                              simple_offsets, simple_cells)

    whole = rest["foot_words"][2::3]
    if cache_size > PARTIAL_CACHE_SIZE and cells <= BITBOARD_CELLS and 2 * int(whole.sum()) < whole.size:
        cache_size = PARTIAL_CACHE_SIZE  # few whole buckets: a cache that fits the core's caches (PARTIAL_CACHE_SIZE)
    rng = np.random.default_rng(_HASH_SEED)
    static = dict(
        meta=_i64([cells, n_features, n_buckets, n_words, len(simple), n_rest_words, cache_size, CACHE_BANKS]),
        **words, word_inst=word_inst, **{"rest_" + k: v for k, v in rest.items()},
        rest_foot_offsets=rest_foot_offsets, rest_foot_cells=rest_foot_cells,
        simple_features=_i64(simple), simple_offsets=simple_offsets, simple_cells=_i64(simple_cells),
        simple_masks=_u64(simple_masks), simple_zero=_u64(simple_zero),
        zobrist=rng.integers(0, 1 << 64, size=3 * cells, dtype=np.uint64, endpoint=False),
        salt=rng.integers(0, 1 << 64, size=n_buckets, dtype=np.uint64, endpoint=False))
    for array in static.values():
        array.setflags(write=False)
    board_words = static["rest_foot_masks"].shape[0] // n_buckets
    cache = np.zeros(CACHE_BANKS * 2 * cache_size, dtype=np.uint64)  # keys and values interleaved (matcher)
    return CompiledFeatures(
        **static, board_bits=np.zeros(2 * board_words, dtype=np.uint64), bank_theta=np.full((CACHE_BANKS, n_features), np.nan),
        bank_tables=np.zeros(CACHE_BANKS * 8 * 256, dtype=np.float64),
        bank_state=np.zeros(2 + CACHE_BANKS, dtype=np.int64),
        cache_keys=cache, cache_vals=cache.view(np.float64))
