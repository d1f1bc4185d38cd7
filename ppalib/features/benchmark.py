"""Speed of the compiled feature matcher: nanoseconds per move for ``move_logits`` on random positions.

``python -m ppalib.features.benchmark`` prints the table reported in the features work (Breakthrough-like 8x8
with its atomic set, the placement boards, and grown sets with combined features).  ``--policy HASH [HASH ...]``
times saved policies instead (``ppalib.features.artefact.load_policy``; ``--folder`` where they are saved) on the
positions of random games of their own game (``game_positions``): the feature sets a search actually uses."""
from __future__ import annotations

import time

import numpy as np

from ..games.graph import hex_hexagon_graph, hex_rhombus_graph, square_graph
from .._noalloc import noalloc_jit
from .matcher import move_logits
from .featureset import FeatureSet
from .generation import atomic_features, combine_instances


@noalloc_jit
def _repeat_logits(meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
                   rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
                   rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features,
                   simple_offsets, simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables,
                   bank_state, cache_keys, cache_vals,
                   theta, owner_rels, moves_from, moves_to, counts, repeats, out):
    """``move_logits`` on every position, ``repeats`` times (the arrays are ``FeatureSet.compiled``).  Compiled
    without numba's reference counting, as a search kernel calling the matcher should be: from a caller with it,
    each call increments and decrements the counts of its 32 arrays (measured: ~3x slower per move)."""
    total = 0.0
    for _ in range(repeats):
        for s in range(owner_rels.shape[0]):
            move_logits(meta, bucket_words, word_init, word_tests, test_cell, test_pass, word_feats, feat_index, feat_mask, word_inst,
                        rest_bucket_words, rest_word_init, rest_word_tests, rest_bit_feature, rest_test_pass, rest_foot_masks,
                        rest_foot_words, board_bits, rest_foot_offsets, rest_foot_cells, simple_features,
                        simple_offsets, simple_cells, simple_masks, simple_zero, zobrist, salt, bank_theta, bank_tables,
                        bank_state, cache_keys, cache_vals,
                        theta, owner_rels[s], moves_from[s], moves_to[s], counts[s], out)
            total += out[0]
    return total


def breakthrough_like_positions(rows: int, cols: int, count: int, seed: int = 0):
    """Random Breakthrough-like positions (each cell empty / friend / enemy, a third each) and the mover's moves:
    one step forward (to a non-friend cell straight ahead: Breakthrough needs it empty, kept simple here) or
    diagonally forward to a non-friend cell."""
    rng = np.random.default_rng(seed)
    cells = rows * cols
    owner = rng.integers(0, 3, size=(count, cells)).astype(np.int8)
    max_moves = 3 * cells
    mf = np.full((count, max_moves), -1, dtype=np.int64)
    mt = np.full((count, max_moves), -1, dtype=np.int64)
    counts = np.zeros(count, dtype=np.int64)
    for s in range(count):
        k = 0
        for f in range(cells):
            if owner[s, f] != 1:
                continue
            r, c = divmod(f, cols)
            if r + 1 >= rows:
                continue
            for dc in (-1, 0, 1):
                if 0 <= c + dc < cols:
                    t = (r + 1) * cols + c + dc
                    if owner[s, t] != 1 and (dc != 0 or owner[s, t] == 0):
                        mf[s, k], mt[s, k] = f, t
                        k += 1
        counts[s] = k
    return owner, mf, mt, counts


def placement_positions(cells: int, count: int, seed: int = 0):
    """Random positions (density ~1/2) and every empty cell as a placement move."""
    rng = np.random.default_rng(seed)
    owner = np.where(rng.random((count, cells)) < 0.5, 0, rng.integers(1, 3, size=(count, cells))).astype(np.int8)
    mf = np.full((count, cells), -1, dtype=np.int64)
    mt = np.full((count, cells), -1, dtype=np.int64)
    counts = np.zeros(count, dtype=np.int64)
    for s in range(count):
        empty = np.flatnonzero(owner[s] == 0)
        mt[s, :empty.size] = empty
        counts[s] = empty.size
    return owner, mf, mt, counts


def game_positions(game, games: int = 40, every: int = 3, max_plies: int = 200, seed: int = 1):
    """Every ``every``-th position of ``games`` uniformly random games of ``game`` (a ``ppalib.games.Game``, at most
    ``max_plies`` plies each) with its legal moves, as ``(owner_rel, moves_from, moves_to, counts)`` for
    ``ns_per_move`` (owner relative to the player to move, as the search fills it)."""
    from .featureset import state_move_cells, state_owner_relative
    rng = np.random.default_rng(seed)
    module, spec = game.module, game.spec
    graph = module.board_graph(spec)
    legal = np.empty(game.max_moves, dtype=np.int64)
    owners, froms, tos = [], [], []
    for _ in range(games):
        state = module.init_state(spec)
        for ply in range(max_plies):
            count = module.legal_moves(spec, state, legal)
            if count == 0:
                break
            if ply % every == 0:
                owners.append(state_owner_relative(module, spec, state, graph))
                moves_from, moves_to = state_move_cells(module, spec, state, legal[:count])
                froms.append(moves_from)
                tos.append(moves_to)
            module.play(spec, state, legal[rng.integers(count)])
    counts = np.array([len(t) for t in tos], dtype=np.int64)
    moves_from = np.full((len(tos), counts.max()), -1, dtype=np.int64)
    moves_to = moves_from.copy()
    for k, (f, t) in enumerate(zip(froms, tos)):
        moves_from[k, :len(f)] = f
        moves_to[k, :len(t)] = t
    return np.array(owners), moves_from, moves_to, counts


def grown(feature_set: FeatureSet, extra: int, positions, seed: int = 0) -> FeatureSet:
    """``feature_set`` plus ``extra`` features combined from pairs of instances that fire together on the given
    positions (as feature discovery would add them)."""
    rng = np.random.default_rng(seed)
    owner, mf, mt, counts = positions
    fs = feature_set
    tries = 0
    while len(fs) < len(feature_set) + extra and tries < 50 * extra:
        tries += 1
        s = int(rng.integers(owner.shape[0]))
        if counts[s] == 0:
            continue
        m = int(rng.integers(counts[s]))
        active = fs.active_instances_compiled(owner[s], mf[s, m], mt[s, m])
        if active.size < 2:
            continue
        i, j = rng.choice(active, 2, replace=False)
        new = combine_instances(fs.instances[i], fs.instances[j], fs, fs.graph)
        if not fs.contains_equivalent(new):
            fs = fs.with_feature(new)
    return fs


def ns_per_move(feature_set: FeatureSet, positions, repeats: int = 200, seed: int = 0, theta=None) -> float:
    """CPU nanoseconds a legal move of ``move_logits`` on ``positions``, each position ``repeats`` times (the
    cache of bucket sums then hits), the best of three; ``theta`` random normal unless given."""
    owner, mf, mt, counts = positions
    if theta is None:
        theta = np.random.default_rng(seed).normal(size=len(feature_set))
    out = np.empty(mt.shape[1], dtype=np.float64)
    args = (*feature_set.compiled, theta, owner, mf, mt, counts)
    _repeat_logits(*args, 1, out)  # compile / warm up
    best = float("inf")
    for _ in range(3):
        start = time.process_time()  # CPU time: the machine is shared, wall time would count others' work
        _repeat_logits(*args, repeats, out)
        best = min(best, time.process_time() - start)
    return best * 1e9 / (repeats * counts.sum())


def time_policies(hashes, folder=None, repeats: int = 20) -> None:
    """Print, per saved policy, its set's size and ``move_logits``' nanoseconds a move on its game's positions."""
    from .artefact import load_policy
    print(f"{'policy':16s} {'game':14s} {'features':>8s} {'instances':>9s} {'legal moves':>11s} {'ns/move':>8s}")
    for content_hash in hashes:
        policy = load_policy(content_hash, [folder] if folder else None)
        positions = game_positions(policy.make_game())
        ns = ns_per_move(policy.feature_set, positions, repeats, theta=policy.weights)
        print(f"{content_hash:16s} {policy.game:14s} {len(policy.features):8d} {len(policy.feature_set.instances):9d} "
              f"{positions[3].mean():11.1f} {ns:8.1f}")


def main() -> None:
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ppalib.features.benchmark", description=__doc__)
    parser.add_argument("--policy", nargs="+", metavar="HASH", help="time these saved policies instead")
    parser.add_argument("--folder", help="where the policies are saved (default: load_policy's folders)")
    args = parser.parse_args()
    if args.policy:
        time_policies(args.policy, args.folder)
        return
    rows = []
    sq8 = square_graph(8, 8)
    bt = breakthrough_like_positions(8, 8, 200)
    for label, graph, action, positions in [
        ("Breakthrough-like 8x8, moving", sq8, "from_to", bt),
        ("square 8x8, placement", sq8, "to", placement_positions(64, 200)),
        ("square 15x15, placement (Gomoku)", square_graph(15, 15), "to", placement_positions(225, 100)),
        ("hex 11x11, placement (Hex)", hex_rhombus_graph(11), "to", placement_positions(121, 100)),
        ("hexagon side 5, placement (Yavalath)", hex_hexagon_graph(5), "to", placement_positions(61, 200)),
    ]:
        fs = FeatureSet(atomic_features(graph, action), graph)
        rows.append((label, len(fs), len(fs.instances), ns_per_move(fs, positions)))
        for extra in (15, 100):
            g = grown(fs, extra, positions)
            rows.append((label + f", +{len(g) - len(fs)} combined", len(g), len(g.instances), ns_per_move(g, positions)))
    print(f"{'set':55s} {'features':>8s} {'instances':>9s} {'ns/move':>8s}")
    for label, nf, ni, ns in rows:
        print(f"{label:55s} {nf:8d} {ni:9d} {ns:8.1f}")


if __name__ == "__main__":
    main()
