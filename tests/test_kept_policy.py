"""PPA/PPAF/MAST with the learned playout policy kept between the moves of a game (``keep_policy``): it differs
from the papers' reset only in the policy a search starts from."""
import math

import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.agents import Searcher, make_agent
from ppalib.games import make_game
from ppalib.kernels.learning import LEARN_MAST, LEARN_PPA, new_learner
from ppalib.kernels.tree import initial_sizes, new_tree, reserve


def _two_moves(kind, params, keep):
    """Two searches of one Searcher: the start position, then after the first search's move and a reply."""
    game = make_game("breakthrough", 5)
    searcher = Searcher(game, make_agent(kind, 500, keep_policy=keep, **params))
    state = game.initial_state()
    rng = make_rng(5)
    first = searcher.search(state, rng)
    child = game.play(state, first.move)
    later = game.play(child, game.legal_moves(child)[0])
    second = searcher.search(later, rng)
    return game, later, first, second, rng


def _search_from(game, state, agent, learned, rng, rule):
    """The kernel's search of ``state`` with a fresh learner set to the ``learned`` one's policy (and MAST's
    statistics) instead of zero."""
    settings = agent.search_settings()
    learner = new_learner(game.num_codes(settings.with_context), rule)
    learner.policy[:] = learned.policy
    learner.weight[:] = np.exp(settings.k * learned.policy)
    if rule == LEARN_MAST:
        learner.wins[:], learner.games[:] = learned.wins, learned.games
    capacity, pool = initial_sizes(agent.playouts, game.max_moves)
    tree = reserve(new_tree(capacity, pool, False, False, 0), agent.playouts)
    kernels = Searcher(game, agent).kernels
    from ppalib.agents import _no_features
    kernels.run_iterations(game.spec, state, rng, tree, learner, settings, agent.playouts, np.zeros(0),
                           _no_features(), np.zeros(0), np.zeros(2, dtype=np.int64),
                           np.zeros(1, dtype=np.int64))
    return learner, tree


@pytest.mark.parametrize("kind,params", [("ppa", {"alpha": 0.5}), ("ppaf", {"alpha": 0.32}), ("mast", {"k": 4.0})])
def test_the_first_search_of_a_game_is_the_same_kept_or_reset(kind, params):
    _, _, kept, _, _ = _two_moves(kind, params, True)
    _, _, reset, _, _ = _two_moves(kind, params, False)
    assert kept.move == reset.move
    np.testing.assert_array_equal(kept.visits, reset.visits)
    np.testing.assert_array_equal(kept.policy, reset.policy)


@pytest.mark.parametrize("kind,params,rule", [("ppa", {"alpha": 0.5}, LEARN_PPA), ("ppaf", {"alpha": 0.32}, LEARN_PPA),
                                              ("mast", {"k": 4.0}, LEARN_MAST)])
def test_a_kept_policy_search_is_the_reset_search_started_from_the_policy_learned_before(kind, params, rule):
    """The second move's search with the policy kept equals the kernel's search started from the first search's
    final policy (and MAST's statistics), on an empty tree, with the same generator; it differs from the reset
    search of the same position (which starts from zero)."""
    game, later, first, second, rng_after = _two_moves(kind, params, True)
    _, _, _, reset, _ = _two_moves(kind, params, False)
    agent = make_agent(kind, 500, **params)
    searcher = Searcher(game, make_agent(kind, 500, keep_policy=True, **params))
    rng = make_rng(5)
    searcher.search(game.initial_state(), rng)  # the first move, as in _two_moves: the same generator state
    learner, tree = _search_from(game, later, agent, searcher.learner, rng, rule)
    replayed = np.zeros(game.max_moves)
    move, count = searcher.kernels.root_stats(later, tree, replayed, np.zeros(game.max_moves))
    assert move == second.move
    np.testing.assert_array_equal(replayed[:count], second.visits)
    np.testing.assert_allclose(learner.policy, second.policy, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rng, rng_after)
    assert second.visits.sum() == 499  # the tree is still emptied before every move
    assert not np.array_equal(second.visits, reset.visits) or not np.allclose(second.policy, reset.policy)
    assert np.abs(first.policy).sum() > 0  # there was something to keep


@pytest.mark.parametrize("kind,params", [("ppa", {"alpha": 0.0}), ("mast", {"k": 0.0})])
def test_with_nothing_learned_a_kept_policy_plays_the_reset_games(kind, params):
    """alpha = 0 (PPA) or k = 0 (MAST): the playout weights stay 1 whatever is learned, so keeping the policy
    changes nothing: whole games are the same move for move."""
    kept = make_agent(kind, 200, keep_policy=True, **params)
    reset = make_agent(kind, 200, **params)
    opponent = make_agent("uct", 200)
    game = make_game("breakthrough", 5)
    for seed in range(2):
        moves = {}
        for agent in (kept, reset):
            searchers = [Searcher(game, agent), Searcher(game, opponent)]
            rng, state, played = make_rng(seed), game.initial_state(), []
            while game.legal_moves(state).size:
                move = searchers[len(played) % 2].search(state, rng).move
                state = game.play(state, move)
                played.append(move)
            moves[agent.keep_policy] = played
        assert moves[True] == moves[False] and len(moves[True]) > 4


def test_keep_policy_is_validated_labelled_and_kept_out_of_the_ids_of_agents_without_it():
    kept = make_agent("ppaf", 1000, alpha=0.32, keep_policy=True)
    assert kept.label == "PPAF(0.32), policy kept" and kept.as_dict()["keep_policy"] is True
    assert "keep_policy" not in make_agent("ppaf", 1000, alpha=0.32).as_dict()
    with pytest.raises(TypeError, match="keep_policy must be True or False"):
        make_agent("mast", 10, keep_policy=1)
    assert math.isclose(make_agent("mastf", 10, k=2, keep_policy=True, grave=True).k, 2.0)
