"""GRAVE in the one search loop (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015): the score of
a hand-computed entry, the reference entry read during the descent, and GRAVE with PPA/PPAF/MAST playouts, draw
for draw against a literal transcription (tests/reference_mcts.py, ``ReferenceGRAVE``)."""
import math

import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.agents import GRAVE_BIAS, GRAVE_REF, Searcher, make_agent
from ppalib.games import make_game
from ppalib.games._common import H_HASH
from ppalib.kernels import selection
from ppalib.kernels.tree import lookup
from reference_mcts import ReferenceGRAVE


def test_grave_score_on_a_hand_computed_entry():
    """A move with 6 wins in 10 playouts at its entry and 30 AMAF wins in 40 at the reference entry, bias 1e-5:
    beta = 40 / (40 + 10 + 1e-5 * 40 * 10) = 0.79994, value = (1 - beta) 0.6 + beta 0.75 = 0.719991."""
    beta = 40 / (40 + 10 + 1e-5 * 400)
    assert beta == pytest.approx(0.799936, abs=1e-6)
    assert selection.grave_score(6.0, 10.0, 30.0, 40.0, 1e-5) == pytest.approx((1 - beta) * 0.6 + beta * 0.75)
    assert selection.grave_score(6.0, 10.0, 30.0, 40.0, 1e-5) == pytest.approx(0.719990, abs=1e-6)
    # Not yet played at the entry: beta = 1, the AMAF mean alone; no AMAF playout at the reference: first.
    assert selection.grave_score(0.0, 0.0, 3.0, 4.0, 1e-5) == 0.75
    assert selection.grave_score(6.0, 10.0, 0.0, 0.0, 1e-5) == math.inf
    # A larger bias moves the value towards the entry's own mean (beta = 40 / (50 + 0.1 * 400) = 4/9).
    assert selection.grave_score(6.0, 10.0, 30.0, 40.0, 0.1) == pytest.approx(5 / 9 * 0.6 + 4 / 9 * 0.75)


def test_grave_selection_reads_the_amaf_row_of_the_reference_entry_at_each_moves_code():
    """Two moves (codes 3 and 1) with equal statistics at their entry; two entries' AMAF rows over 4 codes.  Row 0
    favours code 3, row 1 code 1: the choice follows the row GRAVE is given, at the moves' codes."""
    stats = np.array([5.0, 10.0, 5.0, 10.0])               # both moves: 5 wins in 10
    rows = np.zeros(2 * 2 * 4)
    rows[2 * 3:2 * 3 + 2] = [18.0, 20.0]                    # row 0, code 3: 0.9
    rows[2 * 1:2 * 1 + 2] = [4.0, 20.0]                     # row 0, code 1: 0.2
    rows[8 + 2 * 3:8 + 2 * 3 + 2] = [2.0, 20.0]             # row 1, code 3: 0.1
    rows[8 + 2 * 1:8 + 2 * 1 + 2] = [16.0, 20.0]            # row 1, code 1: 0.8
    codes = np.array([3, 1])
    assert selection.grave(stats, 0, 2, rows, 0, codes, 1e-5) == 0
    assert selection.grave(stats, 0, 2, rows, 8, codes, 1e-5) == 1
    rows[8 + 2 * 3:8 + 2 * 3 + 2] = 0.0                     # code 3 never seen at the reference: valued first
    assert selection.grave(stats, 0, 2, rows, 8, codes, 1e-5) == 0
    # Equal values: the first in list order (strict >, as the reference code).
    assert selection.grave(stats, 0, 2, np.tile([1.0, 2.0], 8), 0, codes, 1e-5) == 0


def _root(game, plies):
    state = game.initial_state()
    for _ in range(plies):  # a position a few plies in, so that it is not symmetric
        state = game.play(state, game.legal_moves(state)[1])
    return state


def _kernel_search(game, root, agent, seed):
    """The kernel's search, and its tree (kept by a Searcher with tree reuse, which changes nothing in one search)."""
    searcher = Searcher(game, agent)
    result = searcher.search(root, make_rng(seed))
    return result, searcher.tree


GRAVE_CASES = [  # (game, size, plies to the root, kind of playouts, ref)
    ("domineering", 4, 2, "uniform", 5), ("breakthrough", 5, 3, "uniform", 20), ("nogo", 5, 3, "uniform", 10),
    ("sum_cashing_checks", 6, 1, "uniform", 5), ("knightthrough", 5, 2, "uniform", 0),
    ("domineering", 4, 2, "ppa", 5), ("breakthrough", 5, 3, "ppaf", 10), ("atarigo", 5, 3, "mast", 10),
]


@pytest.mark.parametrize("game_name,size,plies,kind,ref", GRAVE_CASES)
def test_grave_matches_the_literal_algorithm_draw_for_draw(game_name, size, plies, kind, ref):
    """Moves, root visits, learned policy, and every entry's totals and AMAF row (by position) equal the literal
    transcription's after 300 iterations."""
    game = make_game(game_name, size)
    root = _root(game, plies)
    params = {"uniform": {}, "ppa": {"alpha": 0.5}, "ppaf": {"alpha": 0.5}, "mast": {"k": 3.0}}[kind]
    if kind == "uniform":
        agent = make_agent("grave", 300, ref=ref, tree_reuse=True)
    else:
        agent = make_agent(kind, 300, grave=True, grave_ref=ref, tree_reuse=True, **params)
    result, tree = _kernel_search(game, root, agent, 7)
    reference = ReferenceGRAVE(game, make_rng(7), 300, {"ppaf": "ppa"}.get(kind, kind), ref, GRAVE_BIAS,
                               alpha=params.get("alpha", 1.0), k=params.get("k", 1.0),
                               with_context=agent.with_context if kind != "uniform" else False)
    move, visits, policy = reference.search(root)
    assert result.move == move
    np.testing.assert_array_equal(result.visits, visits)
    if kind != "uniform":
        np.testing.assert_allclose(result.policy, policy, rtol=0, atol=1e-12)
    row = 2 * game.num_codes()
    assert tree.sizes[0] == len(reference.table)
    for key, entry in reference.table.items():
        node = lookup(tree.table, tree.node_key, key)
        assert node >= 0 and tree.node_total[node] == entry["total"]
        np.testing.assert_array_equal(tree.node_amaf[node * row:(node + 1) * row], entry["amaf"])


@pytest.mark.parametrize("game_name,size,plies,ref", [("domineering", 5, 2, 5), ("breakthrough", 5, 3, 20),
                                                      ("nogo", 5, 3, 10)])
def test_grave_reads_the_closest_ancestor_with_more_than_ref_playouts_not_itself_nor_the_root(game_name, size,
                                                                                              plies, ref):
    """The reference entry matters: the literal algorithm with another choice of it (always the entry itself, as
    RAVE; always the root) grows another tree than the kernel's (playouts per position), which is GRAVE's (the
    test above compares them entry by entry)."""
    game = make_game(game_name, size)
    root = _root(game, plies)
    _, tree = _kernel_search(game, root, make_agent("grave", 300, ref=ref, tree_reuse=True), 7)
    ours = {int(tree.node_key[i]): tree.node_total[i] for i in range(tree.sizes[0])}
    for rule in ("grave", "self", "root"):
        reference = ReferenceGRAVE(game, make_rng(7), 300, "uniform", ref, GRAVE_BIAS, rule=rule)
        reference.search(root)
        theirs = {key: float(entry["total"]) for key, entry in reference.table.items()}
        assert (ours == theirs) == (rule == "grave"), rule


def test_with_ref_above_every_entrys_playouts_grave_scores_every_entry_with_the_roots_amaf():
    """ref >= the budget: no entry but the root can have more than ref playouts, so the root's statistics serve
    the whole descent: the literal algorithm with the root as reference plays the same search."""
    game = make_game("breakthrough", 5)
    root = _root(game, 3)
    _, tree = _kernel_search(game, root, make_agent("grave", 300, ref=300, tree_reuse=True), 7)
    reference = ReferenceGRAVE(game, make_rng(7), 300, "uniform", 300, GRAVE_BIAS, rule="root")
    reference.search(root)
    assert {int(tree.node_key[i]): tree.node_total[i] for i in range(tree.sizes[0])} == \
        {key: float(entry["total"]) for key, entry in reference.table.items()}


def test_grave_options_are_validated_and_stay_out_of_the_ids_of_agents_without_them():
    plain = make_agent("ppaf", 1000, alpha=0.32)
    with_grave = make_agent("ppaf", 1000, alpha=0.32, grave=True)
    assert plain.as_dict() == {"kind": "ppaf", "playouts": 1000, "c": 0.4, "alpha": 0.32, "k": 1.0}
    assert with_grave.as_dict()["grave"] is True and with_grave.as_dict()["grave_ref"] == GRAVE_REF
    assert with_grave.label == "PPAF(0.32)+GRAVE" and plain.label == "PPAF(0.32)"
    assert make_agent("mast", 10, k=2.0, grave=True, grave_ref=20).label == "MAST(2)+GRAVE(ref=20, bias=1e-05)"
    with pytest.raises(ValueError, match=r"grave_ref=20 is a parameter of GRAVE.*give grave=True"):
        make_agent("ppa", 10, grave_ref=20)
    with pytest.raises(ValueError, match=r"grave_bias=-1.0 is out of range"):
        make_agent("ppa", 10, grave=True, grave_bias=-1)
    with pytest.raises(TypeError, match="grave must be True or False"):
        make_agent("ppa", 10, grave="yes")
    with pytest.raises(ValueError, match=r"ref=nan is out of range"):
        make_agent("grave", 10, ref=float("nan"))
    assert make_agent("grave", 10).as_dict() == {"kind": "grave", "playouts": 10, "ref": 50.0, "bias": 1e-5}


def test_grave_keeps_its_amaf_rows_through_tree_reuse_and_growth():
    """A tree kept between moves carries GRAVE's per-entry AMAF rows (retain_subtree copies them), and a search
    that outgrows the tree's first allocation (a thinking-time budget starts small) keeps them when it grows."""
    game = make_game("breakthrough", 5)
    searcher = Searcher(game, make_agent("grave", 3000, tree_reuse=True, seconds_per_move=30.0))
    state = game.initial_state()
    first = searcher.search(state, make_rng(3))
    assert first.iterations == 3000 and searcher.tree.node_key.size >= 3000  # grown from 1,024 entries
    tree, row = searcher.tree, 2 * game.num_codes()
    child = game.play(state, first.move)
    reply = game.legal_moves(child)[0]
    grandchild = game.play(child, reply)
    node = lookup(tree.table, tree.node_key, grandchild[H_HASH])
    assert node >= 0
    amaf = tree.node_amaf[node * row:(node + 1) * row].copy()
    assert amaf[1::2].sum() > 0
    kept = searcher.kernels.retain_subtree(game.spec, grandchild, tree)
    new = lookup(kept.table, kept.node_key, grandchild[H_HASH])
    np.testing.assert_array_equal(kept.node_amaf[new * row:(new + 1) * row], amaf)
