"""The compiled feature matcher (ppalib/features/matcher.py) against the plain-Python reference matcher
(``FeatureSet.active``, which tries every instance): random feature sets on random positions of square and hex
boards, and random positions of every game that has a board graph."""
import zlib
from fractions import Fraction as F

import numpy as np
import pytest

from ppalib.features import (Element, Feature, FeatureSet, InconsistentFeature, Instance, Walk, atomic_features,
                             combine_instances, state_owner_relative)
from ppalib.features.compile import compile_instances
from ppalib.games import GAMES, make_game
from ppalib.games.graph import hex_hexagon_graph, hex_rhombus_graph, square_graph
from ppalib.features.matcher import active_features, move_logit, move_logits

GRAPHS = {
    "square8x8": square_graph(8, 8), "square5x9": square_graph(5, 9), "square6x7": square_graph(6, 7),
    "square15x15": square_graph(15, 15), "hex7x7": hex_rhombus_graph(7), "hex11x11": hex_rhombus_graph(11),
    "hexagon5": hex_hexagon_graph(5),
}
KINDS = ("empty", "friend", "enemy", "off")


def random_walk(rng, n, max_len=3):
    return Walk(F(int(rng.integers(n)), n) for _ in range(int(rng.integers(max_len + 1))))


def random_features(rng, graph, count):
    """Hand-made random features: 1-4 elements on random walks, every action kind."""
    n = graph.directions
    out = []
    while len(out) < count:
        action = rng.choice(["to", "from", "from_to"])
        to_walk = random_walk(rng, n, 2) if action != "from" else None
        from_walk = random_walk(rng, n, 2) if action != "to" else None
        elements = [Element(KINDS[int(rng.integers(4))], bool(rng.integers(2)), random_walk(rng, n))
                    for _ in range(int(rng.integers(1, 5)))]
        try:
            f = Feature(tuple(elements), to_walk, from_walk, bool(rng.integers(4)))
        except InconsistentFeature:
            continue
        if f not in out:
            out.append(f)
    return out


def random_position(rng, cells, density=0.6):
    occupied = rng.random(cells) < density
    return np.where(occupied, rng.integers(1, 3, cells), 0).astype(np.int8)


def random_moves(rng, cells, count):
    """Moves with repeated destinations and origins (the compiled matcher reuses buckets), placements (-1 origin)
    and a pass."""
    to = rng.integers(cells, size=count)
    to[1::3] = to[0::3][: len(to[1::3])]  # repeats within the reuse window
    frm = rng.integers(-1, cells, size=count)
    frm[2::4] = -1
    to[-1] = frm[-1] = -1
    return frm.astype(np.int64), to.astype(np.int64)


def grow(fs, rng, positions, extra):
    """Add ``extra`` features combined from co-active instances (what feature discovery does)."""
    target = len(fs) + extra
    for _ in range(60 * extra):
        if len(fs) >= target:
            break
        owner, frm, to = positions[int(rng.integers(len(positions)))]
        k = int(rng.integers(len(to)))
        active = fs.active_instances_compiled(owner, frm[k], to[k])
        if active.size < 2:
            continue
        i, j = rng.choice(active, 2, replace=False)
        new = combine_instances(fs.instances[i], fs.instances[j], fs, fs.graph)
        if not fs.contains_equivalent(new):
            fs = fs.with_feature(new)
    return fs


def check_equal(fs, owner, moves_from, moves_to, theta):
    phi = np.array([fs.active(owner, f, t) for f, t in zip(moves_from, moves_to)])
    for k, (f, t) in enumerate(zip(moves_from, moves_to)):
        assert np.array_equal(fs.active_compiled(owner, f, t), phi[k]), (f, t)
        assert fs.active_instances(owner, f, t) == list(fs.active_instances_compiled(owner, f, t))
        assert move_logit(*fs.compiled, theta, owner, int(f), int(t)) == pytest.approx(theta @ phi[k])
    assert np.allclose(fs.logits(theta, owner, moves_from, moves_to), phi.astype(float) @ theta)
    return phi


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GRAPHS))
def test_compiled_matcher_equals_python_matcher_on_random_positions(name):
    graph = GRAPHS[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    features = atomic_features(graph, "from_to")
    features += [f for f in random_features(rng, graph, 25) if f not in features]
    fs = FeatureSet(features, graph)
    positions = [(random_position(rng, graph.cells), *random_moves(rng, graph.cells, 12)) for _ in range(4)]
    fs = grow(fs, rng, positions, 20)
    assert len(fs) > len(features)
    theta = rng.normal(size=len(fs))
    fired = 0
    for owner, frm, to in positions:
        fired += check_equal(fs, owner, frm, to, theta).sum()
    assert fired > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["square8x8", "hexagon5"])
def test_placement_sets_on_random_positions(name):
    graph = GRAPHS[name]
    rng = np.random.default_rng(3)
    fs = FeatureSet(atomic_features(graph, "to"), graph)
    positions = []
    for _ in range(6):
        owner = random_position(rng, graph.cells, 0.5)
        empty = np.flatnonzero(owner == 0)
        positions.append((owner, np.full(empty.size, -1, dtype=np.int64), empty.astype(np.int64)))
    fs = grow(fs, rng, positions, 30)
    theta = rng.normal(size=len(fs))
    for owner, frm, to in positions:
        phi = check_equal(fs, owner, frm, to, theta)
        assert phi[:, 0].all()  # the move feature "to an empty cell" fires for every placement


def test_a_feature_with_more_than_64_instances_in_one_bucket():
    """Instances of one feature fill whole words when a bucket holds more than 64 of them (not seen with real
    walks, which give at most 12 a bucket: the packing must still count the feature once)."""
    rng = np.random.default_rng(5)
    cells = 30
    per_feature = []
    for feature, count in [(0, 70), (1, 3), (2, 130), (3, 1)]:
        per_feature.append([])
        for k in range(count):
            tests = tuple(sorted({(int(c), int(rng.integers(6))) for c in rng.choice(cells, 2, replace=False)}))
            per_feature[-1].append(Instance(feature, k, F(0), 1, 7, -1, tests))
    instances = [i for group in per_feature for i in group]
    compiled = compile_instances(per_feature, cells)
    out = np.empty(4, dtype=np.int64)
    theta = np.array([1.0, 10.0, 100.0, 1000.0])
    logits = np.empty(1)
    for _ in range(200):
        owner = rng.integers(0, 3, cells).astype(np.int8)
        expected = sorted({i.feature for i in instances if i.matches(owner, -1, 7)})
        count = active_features(*compiled, owner, -1, 7, out)
        assert sorted(out[:count]) == expected
        assert move_logit(*compiled, theta, owner, -1, 7) == pytest.approx(theta[expected].sum())
        move_logits(*compiled, theta, owner, np.array([-1]), np.array([7]), 1, logits)  # the rest words' path
        assert logits[0] == pytest.approx(theta[expected].sum())


# ---- every game with a board graph --------------------------------------------------------------------------
FEATURE_FUNCTIONS = ("board_graph", "cell_owner", "move_from", "move_to")


def _game_size(rule):
    return min(max(8, rule.min_size), rule.max_size)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_compiled_matcher_equals_python_matcher_on_random_states_of_every_game(name):
    rule = GAMES[name]
    missing = [f for f in FEATURE_FUNCTIONS if not hasattr(rule.module, f)]
    if missing:
        pytest.skip(f"{rule.module.__name__} has no {', '.join(missing)} yet (the game contract's feature functions "
                    "are being added to every game)")
    game = make_game(name, _game_size(rule))
    try:
        graph = rule.module.board_graph(game.spec)
    except ValueError as error:
        pytest.skip(f"{name} has no board: {error}")
    rng = np.random.default_rng(11)
    samples = []
    for _ in range(4):  # states of random games
        state = game.initial_state()
        for ply in range(int(rng.integers(0, 60))):
            legal = game.legal_moves(state)
            if legal.size == 0:
                break
            state = game.play(state, int(legal[rng.integers(legal.size)]))
        legal = game.legal_moves(state)
        if legal.size == 0:
            continue
        owner = state_owner_relative(rule.module, game.spec, state, graph)
        frm = np.array([rule.module.move_from(game.spec, state, int(m)) for m in legal], dtype=np.int64)
        to = np.array([rule.module.move_to(game.spec, state, int(m)) for m in legal], dtype=np.int64)
        assert ((to >= -1) & (to < graph.cells)).all() and ((frm >= -1) & (frm < graph.cells)).all()
        samples.append((owner, frm, to))
    assert samples
    action = "from_to" if any((frm >= 0).any() for _, frm, _ in samples) else "to"
    fs = grow(FeatureSet(atomic_features(graph, action), graph), rng, samples, 15)
    theta = rng.normal(size=len(fs))
    for owner, frm, to in samples:
        check_equal(fs, owner, frm[:40], to[:40], theta)


@pytest.mark.slow
def test_the_cache_of_bucket_sums_never_serves_stale_weights():
    """move_logits caches bucket sums by footprint hash, in two banks keyed by the weights: repeated positions hit
    the cache, weights changed in place (as SGD does), two alternating weight vectors (two players) and a third
    one all give the exact sums."""
    graph = GRAPHS["hexagon5"]
    rng = np.random.default_rng(9)
    fs = FeatureSet(atomic_features(graph, "to"), graph, cache_size=1 << 10)
    positions = []
    for _ in range(5):
        owner = random_position(rng, graph.cells, 0.3)
        empty = np.flatnonzero(owner == 0)
        positions.append((owner, np.full(empty.size, -1, dtype=np.int64), empty.astype(np.int64)))
    fs = grow(fs, rng, positions, 60)  # enough combined features for buckets of CACHE_MIN_TESTS tests and more
    phis = [np.array([fs.active(o, f, t) for f, t in zip(frm, to)], dtype=float) for o, frm, to in positions]
    theta_a, theta_b, theta_c = (rng.normal(size=len(fs)) for _ in range(3))
    for theta in [theta_a, theta_a, theta_b, theta_a, theta_b, theta_c, theta_a]:
        for (owner, frm, to), phi in zip(positions * 2, phis * 2):
            assert np.allclose(fs.logits(theta, owner, frm, to), phi @ theta)
    assert (fs.compiled.cache_keys != 0).any() and fs.compiled.meta[4] >= 21  # the atomic features are simple
    theta_a[3] += 1.0  # in place
    for (owner, frm, to), phi in zip(positions, phis):
        assert np.allclose(fs.logits(theta_a, owner, frm, to), phi @ theta_a)
    fs.clear_cache()
    assert not fs.compiled.cache_keys.any()
    off = FeatureSet(fs.features, graph, cache_size=0)
    for (owner, frm, to), phi in zip(positions, phis):
        assert np.allclose(off.logits(theta_b, owner, frm, to), phi @ theta_b)


def _word_major_rest_sum(words, b, theta, owner):
    """A bucket's rest sum as the word-major matcher added it (words in order, each fired feature once)."""
    total, last = 0.0, -1
    for w in range(words["bucket_words"][b], words["bucket_words"][b + 1]):
        alive = int(words["word_init"][w])
        for e in range(words["word_tests"][w], words["word_tests"][w + 1]):
            alive &= int(words["test_pass"][3 * e + owner[words["test_cell"][e]]])
        for e in range(words["word_feats"][w], words["word_feats"][w + 1]):
            if alive & int(words["feat_mask"][e]) and words["feat_index"][e] != last:
                total += theta[words["feat_index"][e]]
                last = words["feat_index"][e]
    return total


@pytest.mark.slow
@pytest.mark.parametrize("action", ["to", "from_to"])
def test_cell_major_rest_words_give_bitwise_the_word_major_sums(action):
    """move_logits matches the rest (combined) features cell-major, four words at a time; its logits must be bit
    for bit those of the word-major order of additions it replaced (so searches draw the same moves), with the
    cache on (first and repeated calls) and off."""
    from ppalib.features.compile import _pack_words, bucket_of
    graph = GRAPHS["hexagon5"]
    rng = np.random.default_rng(24)
    positions = []
    for _ in range(12):
        owner = random_position(rng, graph.cells, 0.4)
        frm, to = random_moves(rng, graph.cells, 30)
        positions.append((owner, frm, to))
    fs = grow(FeatureSet(atomic_features(graph, action), graph, cache_size=1 << 12), rng, positions, 60)
    c = fs.compiled
    cells, n_buckets = int(c.meta[0]), int(c.meta[2])
    assert np.diff(c.rest_bucket_words).max() >= 4  # the four-word blocks are exercised, and each tail after them
    assert {1, 2, 3} <= set((np.diff(c.rest_bucket_words) % 4).tolist())
    with_rest = [b for b in range(2 * cells) if c.rest_bucket_words[b + 1] > c.rest_bucket_words[b]]
    wholes = sum(int(c.rest_foot_words[3 * b + 2]) for b in with_rest)  # cached whole, or cached rest sum
    assert 0 < wholes and (action == "to" or wholes < len(with_rest))
    simple = set(int(g) for g in c.simple_features)
    rest_of = {}
    for idx, inst in enumerate(fs.instances):
        if inst.feature not in simple:
            rest_of.setdefault(bucket_of(inst, cells), []).append(idx)
    words = _pack_words(fs.instances, rest_of, n_buckets, False)[0]
    off = FeatureSet(fs.features, graph, cache_size=0)
    theta = rng.normal(size=len(fs))
    for owner, frm, to in positions:
        got = [fs.logits(theta, owner, frm, to), fs.logits(theta, owner, frm, to), off.logits(theta, owner, frm, to)]
        bank = next(k for k in range(c.bank_theta.shape[0]) if np.array_equal(c.bank_theta[k], theta))
        o = owner.astype(np.int64)

        def value(b):
            total = 0.0
            if b < 2 * cells:
                key = b if b < cells else b - cells
                v0 = o[key]
                bits = int(c.simple_zero[3 * b + v0])
                for e in range(c.simple_offsets[b], c.simple_offsets[b + 1]):
                    bits |= int(c.simple_masks[9 * e + 3 * o[c.simple_cells[e]] + v0])
                byte = 0
                while bits:
                    total += c.bank_tables[bank * 2048 + 256 * byte + (bits & 255)]
                    bits >>= 8
                    byte += 1
            if c.rest_bucket_words[b + 1] > c.rest_bucket_words[b]:
                total += _word_major_rest_sum(words, b, theta, o)
            return total

        expected = np.zeros(len(to))
        for i, (f, t) in enumerate(zip(frm, to)):
            expected[i] = value(t) if t >= 0 else 0.0
            if f >= 0:
                total = value(cells + f)
                if n_buckets > 2 * cells and t >= 0:
                    total += value(2 * cells + f * cells + t)
                expected[i] += total
        for logits in got:
            assert np.array_equal(logits.view(np.uint64), expected.view(np.uint64))


@pytest.mark.parametrize("graph_name", ["square15x15", "square17x17"])
def test_the_cache_hash_of_board_words_and_of_zobrist_keys_serves_exact_sums(graph_name):
    """The cache key of a bucket hashes its footprint's contents from board words (boards of at most
    BITBOARD_CELLS cells; Gomoku's 225 cells span four words, so footprints straddle words), with the move's cell
    for a whole bucket (its simple features' cells within its footprint: the cache holds the whole bucket sum), or
    from a Zobrist key per rest footprint cell (larger boards, rest sums cached).  Either way the cached logits must be
    bit for bit those of the cache turned off, on positions whose footprints differ by single cells, and repeating
    the positions must add no cache entry."""
    from ppalib.features.matcher import BITBOARD_CELLS
    graph = square_graph(15, 15) if graph_name == "square15x15" else square_graph(17, 17)
    rng = np.random.default_rng(7)
    positions = []
    owner = random_position(rng, graph.cells, 0.5)
    for _ in range(40):  # a walk of positions, each one cell away from the one before (as in a search tree)
        owner = owner.copy()
        owner[int(rng.integers(graph.cells))] = int(rng.integers(3))
        frm, to = random_moves(rng, graph.cells, 40)
        positions.append((owner, frm, to))
    fs = grow(FeatureSet(atomic_features(graph, "to"), graph, cache_size=1 << 14), rng, positions, 40)
    c = fs.compiled
    n_buckets = int(c.meta[2])
    words = c.rest_foot_masks.shape[0] // n_buckets
    assert words == ((graph.cells + 63) // 64 if graph.cells <= BITBOARD_CELLS else 0)
    assert c.board_bits.shape[0] == 2 * words
    if words:
        straddles = wholes = 0
        for b in range(n_buckets):  # the masks are exactly the footprints, the word ranges exactly those they meet
            foot = c.rest_foot_cells[c.rest_foot_offsets[b]:c.rest_foot_offsets[b + 1]]
            whole = False
            if b < 2 * graph.cells:  # a bucket of one move end is whole if its simple cells are in its footprint
                with_cell = np.union1d(foot, [b % graph.cells])
                whole = set(c.simple_cells[c.simple_offsets[b]:c.simple_offsets[b + 1]].tolist()) <= set(with_cell.tolist())
                foot = with_cell if whole else foot
            assert c.rest_foot_words[3 * b + 2] == whole
            wholes += whole
            bits = {64 * j + k for j in range(words) for k in range(64)
                    if (int(c.rest_foot_masks[words * b + j]) >> k) & 1}
            assert bits == set(int(x) for x in foot)
            if foot.size:
                assert (c.rest_foot_words[3 * b], c.rest_foot_words[3 * b + 1]) == (foot.min() // 64, foot.max() // 64 + 1)
                straddles += foot.max() // 64 > foot.min() // 64
        assert straddles > 0 and 0 < wholes
    assert np.diff(c.rest_bucket_words).max() >= 3  # some buckets are large enough to be cached
    off = FeatureSet(fs.features, graph, cache_size=0)
    theta = rng.normal(size=len(fs))
    for owner, frm, to in positions:
        expected = off.logits(theta, owner, frm, to)
        assert np.array_equal(fs.logits(theta, owner, frm, to).view(np.uint64), expected.view(np.uint64))
    assert (c.cache_keys[0::2] != 0).sum() > 0
    keys = c.cache_keys.copy()
    for owner, frm, to in positions:
        expected = off.logits(theta, owner, frm, to)
        assert np.array_equal(fs.logits(theta, owner, frm, to).view(np.uint64), expected.view(np.uint64))
    assert np.array_equal(c.cache_keys, keys)  # every cached bucket was found again


def test_benchmark_game_positions_are_the_games_own_positions_and_moves():
    """``features.benchmark.game_positions`` (what ``--policy`` times): every position's owners relative to the
    mover and its legal moves' cells, as the search hands them to the matcher."""
    from ppalib.features.benchmark import game_positions
    game = make_game("breakthrough", 6)
    owner, moves_from, moves_to, counts = game_positions(game, games=3, every=2, max_plies=30)
    assert owner.shape == (len(counts), 36) and set(np.unique(owner)) <= {0, 1, 2}
    assert (owner[0] == 1).sum() == 12 and (owner[0] == 2).sum() == 12     # the start position, mover's view
    for k, n in enumerate(counts):
        assert n > 0 and (moves_from[k, :n] >= 0).all() and (moves_to[k, :n] >= 0).all()
        assert (moves_from[k, n:] == -1).all() and (moves_to[k, n:] == -1).all()
        assert (owner[k, moves_from[k, :n]] == 1).all()                    # every move starts on a mover's piece


@pytest.mark.parametrize("policy, whole, slots", [("b890da66b97add53", False, 1 << 15),  # Knightthrough: none whole
                                                  ("bf1f931df45de693", True, 1 << 20)])  # Hex 7x7: every one
def test_cache_has_fewer_slots_when_most_buckets_are_not_whole(policy, whole, slots):
    """compile.PARTIAL_CACHE_SIZE: a budget-run final policy whose buckets are mostly not whole gets 2^15 slots a
    bank, one whose buckets are all whole keeps the default million."""
    from ppalib.features.artefact import load_policy
    from ppalib.features.compile import PARTIAL_CACHE_SIZE
    from ppalib.paths import RESULTS
    feature_set = load_policy(policy, [RESULTS / "soemers2019_budget" / "policies"]).feature_set
    compiled = feature_set.compiled
    flags = compiled.rest_foot_words[2::3]
    assert (2 * int(flags.sum()) >= flags.size) == whole
    assert feature_set.cache_size == 1 << 20
    assert compiled.meta[6] == slots and compiled.cache_keys.size == 2 * 2 * slots
    assert PARTIAL_CACHE_SIZE == 1 << 15
