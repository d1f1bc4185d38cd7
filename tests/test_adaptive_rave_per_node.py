"""Adaptive RAVE decided per node (Mehat & Vittaut 2013, section 8's proposal) beside the paper's root-only rule
(section 7), in the one search loop."""
import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.agents import NODE_PLAYOUTS, Searcher, make_agent
from ppalib.games import make_game

GAMES = [("blind_cashing_checks", 20, {"turns": 10, "komi": 5}), ("stale_cashing_checks", 12, {"turns": 10, "komi": 5}),
         ("sum_cashing_checks", 20, {"turns": 10})]


def _positions(game, count=3):
    """The start and positions a few plies in (each ply takes the second-largest legal check)."""
    state, out = game.initial_state(), []
    for _ in range(count):
        out.append(state)
        state = game.play(state, game.legal_moves(state)[-2])
    return out


def _search(game, state, agent, seed):
    rng = make_rng(seed)
    result = Searcher(game, agent).search(state, rng)
    return result, rng


@pytest.mark.parametrize("name,size,options", GAMES, ids=[g[0] for g in GAMES])
def test_per_node_adaptive_rave_equals_root_only_when_no_node_below_the_root_has_more_than_node_playouts(
        name, size, options):
    """A search of P iterations gives no entry below the root more than P - 1 playouts: with node_playouts = P
    only the root decides, from the same statistics at the same moment as the root-only rule, so the searches
    are the same draw for draw (move, visits, and the generator's state after the search)."""
    game = make_game(name, size, **options)
    for margin in (0.0, 0.1):
        root_only = make_agent("rave", 400, adaptive=True, margin=margin)
        per_node = make_agent("rave", 400, adaptive=True, margin=margin, adaptive_per_node=True, node_playouts=400)
        for state in _positions(game):
            for seed in (1, 2):
                a, rng_a = _search(game, state, root_only, seed)
                b, rng_b = _search(game, state, per_node, seed)
                assert a.move == b.move
                np.testing.assert_array_equal(a.visits, b.visits)
                np.testing.assert_array_equal(rng_a, rng_b)


def test_per_node_adaptive_rave_decides_at_the_nodes_below_the_root_once_they_have_enough_playouts():
    """With a low threshold, entries below the root decide for themselves, and the searches differ from
    root-only ones (so the test above can fail); the decisions are counted per selection."""
    game = make_game("sum_cashing_checks", 20, turns=10)
    differ = 0
    for state in _positions(game):
        for seed in (1, 2):
            a, _ = _search(game, state, make_agent("rave", 2000, adaptive=True), seed)
            b, _ = _search(game, state, make_agent("rave", 2000, adaptive=True, adaptive_per_node=True,
                                                   node_playouts=10), seed)
            differ += not np.array_equal(a.visits, b.visits)
            assert a.rave_used[1] == 2000  # root-only: one decision a descent
            assert b.rave_used[1] > 2000   # per node: one a selection, several a descent
    assert differ >= 4


def test_per_node_parameters_are_validated_and_stay_out_of_the_committed_ids():
    root_only = make_agent("rave", 200, adaptive=True)
    assert "adaptive_per_node" not in root_only.as_dict() and "node_playouts" not in root_only.as_dict()
    per_node = make_agent("rave", 200, adaptive=True, adaptive_per_node=True)
    assert per_node.as_dict()["adaptive_per_node"] is True and per_node.node_playouts == NODE_PLAYOUTS
    assert per_node.label == "ARAVE(k=700, margin=0, per node > 50)"
    with pytest.raises(ValueError, match="adaptive_per_node=True needs adaptive=True"):
        make_agent("rave", 200, adaptive_per_node=True)
    with pytest.raises(ValueError, match="node_playouts=10 is used only by per-node adaptive RAVE"):
        make_agent("rave", 200, adaptive=True, node_playouts=10)
    with pytest.raises(ValueError, match="node_playouts=-1.0 is out of range"):
        make_agent("rave", 200, adaptive=True, adaptive_per_node=True, node_playouts=-1)
