"""The one search loop's new parts: PUCT with stored priors, tree reuse, the thinking-time budget, and the
per-game specialisation of the kernel package."""
import math

import numpy as np
import pytest

import ppalib.games
from ppalib import _specialise, make_rng
from ppalib.agents import Searcher, kernels_for, make_agent, search
from ppalib.experiments import Condition, play_game
from ppalib.games import make_game
from ppalib.games._common import H_BOARD, H_HASH, S_MAX_PLIES
from ppalib.kernels import selection
from ppalib.kernels.tree import lookup


def test_puct_selection_on_a_hand_computed_entry():
    """Three moves: (wins, playouts) (3, 4), (1, 2), (0, 0); priors 0.6, 0.3, 0.1; C = 1.5.  Q = 2 w/N - 1:
    0.5, 0; the unvisited move takes the entry's Q = 2 * 4/6 - 1 = 1/3.  Sum N = 6, so the exploration factor is
    1.5 sqrt(6) = 3.674: scores 0.5 + 3.674 * 0.6/5 = 0.941, 0 + 3.674 * 0.3/3 = 0.367, 1/3 + 3.674 * 0.1 = 0.701."""
    stats = np.array([3.0, 4.0, 1.0, 2.0, 0.0, 0.0])
    assert selection.puct(stats, np.array([0.6, 0.3, 0.1]), 0, 3, 1.5, make_rng(0), np.empty(3)) == 0
    # A larger prior on the unvisited move: 1/3 + 3.674 * 0.3 = 1.436 beats 0.5 + 3.674 * 0.4/5 = 0.794.
    assert selection.puct(stats, np.array([0.4, 0.3, 0.3]), 0, 3, 1.5, make_rng(0), np.empty(3)) == 2
    # The same entry at an offset in a larger pool reads only its own moves.
    pool = np.concatenate([np.array([50.0, 50.0]), stats])
    assert selection.puct(pool, np.array([0.0, 0.6, 0.3, 0.1]), 1, 3, 1.5, make_rng(0), np.empty(3)) == 0


def test_puct_with_no_visit_yet_follows_the_largest_prior():
    assert selection.puct(np.zeros(6), np.array([0.2, 0.7, 0.1]), 0, 3, math.sqrt(2), make_rng(0), np.empty(3)) == 1


def _position(game, rows):
    """A Breakthrough state from a diagram (top row first; x = player 0, o = player 1)."""
    state = game.initial_state()
    n = game.size
    state[H_BOARD:H_BOARD + n * n] = 0
    for i, line in enumerate(rows):
        for col, ch in enumerate(line):
            state[H_BOARD + (n - 1 - i) * n + col] = ".xo".index(ch)
    return game.refresh(state)


def _budget_to_find(game, state, agent_kind, winning, prior_logits=None):
    """The smallest budget (doubling from 25) at which the agent plays ``winning`` for each of 4 seeds."""
    budget = 25
    while budget <= 6400:
        agent = make_agent(agent_kind, budget)
        if all(search(game, state, agent, make_rng(seed), prior_logits=prior_logits) == winning
               for seed in range(4)):
            return budget
        budget *= 2
    return math.inf


def test_puct_with_a_strong_prior_on_the_only_winning_move_finds_it_in_fewer_iterations_than_uct():
    """Breakthrough 5x5, x to move: c3-d4 is the only move that wins against every defence (proved by the exact
    solver in test_mcts.test_uct_finds_the_only_winning_move)."""
    game = make_game("breakthrough", 5)
    state = _position(game, ["o..o.", ".....", "oox..", ".x..x", "...x."])
    winning = next(m for m in game.legal_moves(state) if game.move_to_str(state, m) == "c3-d4")
    logits = np.zeros(game.num_codes())
    logits[game.move_code(state, winning)] = 4.0
    puct = _budget_to_find(game, state, "puct", winning, logits)
    uct = _budget_to_find(game, state, "uct", winning)
    assert puct < uct, (puct, uct)


def test_tree_reuse_keeps_the_statistics_of_the_position_reached():
    game = make_game("breakthrough", 5)
    agent = make_agent("uct", 2000, tree_reuse=True)
    searcher = Searcher(game, agent)
    state = game.initial_state()
    first = searcher.search(state, make_rng(1))
    child = game.play(state, first.move)
    reply = game.legal_moves(child)[0]
    grandchild = game.play(child, reply)
    kernels = kernels_for(game).search
    before, wins = np.zeros(game.max_moves), np.zeros(game.max_moves)
    _, count_before = kernels.root_stats(grandchild, searcher.tree, before, wins)
    assert count_before > 0 and before.sum() > 0  # the first search had expanded that position
    kept = kernels.retain_subtree(game.spec, grandchild, searcher.tree)
    after = np.zeros(game.max_moves)
    _, count_after = kernels.root_stats(grandchild, kept, after, wins)
    assert count_after == count_before
    np.testing.assert_array_equal(after[:count_after], before[:count_before])
    assert kept.sizes[0] < searcher.tree.sizes[0]  # the rest of the table was dropped
    second = searcher.search(grandchild, make_rng(2))
    assert second.visits.sum() == before.sum() + 2000  # kept playouts + this search's (the root has an entry)


def test_puct_lists_the_moves_of_a_playouts_first_entry_at_its_first_descent():
    # Soemers et al. 2019's playout adds the position its first move reaches; the kernel lists that entry's moves
    # only when a descent first passes through it (node_off -1 until then).  Such an entry kept by tree reuse as the
    # next root must then be listed and searched like any other.
    game = make_game("breakthrough", 5)
    searcher = Searcher(game, make_agent("puct", 400, tree_reuse=True))
    state = game.initial_state()
    searcher.search(state, make_rng(4))
    tree = searcher.tree
    used = tree.sizes[0]
    unlisted = tree.node_off[:used] < 0
    assert 0 < unlisted.sum() < used
    assert (tree.node_n[:used][unlisted] == 0).all() and (tree.node_total[:used][unlisted] >= 1).all()
    reached = None
    for first in game.legal_moves(state):
        child = game.play(state, first)
        for second in game.legal_moves(child):
            grandchild = game.play(child, second)
            found = lookup(tree.table, tree.node_key, grandchild[H_HASH])
            if found >= 0 and tree.node_off[found] < 0:
                reached = grandchild
                break
        if reached is not None:
            break
    assert reached is not None
    result = searcher.search(reached, make_rng(5))  # the kept tree's root is the unlisted entry
    assert len(result.moves) == len(game.legal_moves(reached)) and result.visits.sum() == 400


def test_retaining_a_tree_whose_every_entry_is_reachable_stays_in_bounds():
    # Found by a Teeko evaluation (heap corruption): retain_subtree wrote a candidate child one row past its queue
    # when every entry of the tree was reachable from the root.  The Python version of the kernel checks bounds.
    game = make_game("teeko", 5)
    searcher = Searcher(game, make_agent("uct", 50, tree_reuse=True))
    state = game.initial_state()
    searcher.search(state, make_rng(3))
    kernels = kernels_for(game).search
    kept = kernels.retain_subtree.py_func(game.spec, state, searcher.tree)
    assert kept.sizes[0] == searcher.tree.sizes[0]  # searched from this root: every entry is kept


def test_without_tree_reuse_every_search_starts_empty():
    game = make_game("breakthrough", 5)
    searcher = Searcher(game, make_agent("uct", 500))
    state = game.initial_state()
    first = searcher.search(state, make_rng(1))
    assert searcher.tree is None and first.visits.sum() == 499


def test_games_with_tree_reuse_are_deterministic_given_the_seed():
    condition = Condition("breakthrough", 5, make_agent("ppa", 300, tree_reuse=True),
                          make_agent("uct", 300, tree_reuse=True))
    a, b = play_game(condition, 3, 7), play_game(condition, 3, 7)
    assert a["moves"] == b["moves"]
    plain = Condition("breakthrough", 5, make_agent("ppa", 300), make_agent("uct", 300))
    assert plain.id != condition.id


def test_thinking_time_budget_records_the_iterations_done():
    game = make_game("go", 5)
    Searcher(game, make_agent("uct", 1)).search(game.initial_state(), make_rng(0))  # compile outside the budget
    result = Searcher(game, make_agent("uct", 10_000_000, seconds_per_move=0.2)).search(game.initial_state(),
                                                                                       make_rng(0))
    # It stops soon after the budget, even on a busy machine.
    assert result.iterations > 100 and 0.2 <= result.seconds < 3.0
    assert result.visits.sum() == result.iterations - 1
    capped = Searcher(game, make_agent("uct", 300, seconds_per_move=10.0)).search(game.initial_state(), make_rng(0))
    assert capped.iterations == 300 and capped.seconds < 5.0


def test_a_game_with_a_thinking_time_budget_records_the_iterations_of_every_move():
    condition = Condition("domineering", 4, make_agent("uct", 100_000, seconds_per_move=0.02),
                          make_agent("uct", 50))
    record = play_game(condition, 0, 1)
    iterations = list(map(int, record["iterations"].split()))
    assert len(iterations) == record["plies"]
    assert iterations[1::2] == [50] * len(iterations[1::2])  # the opponent's fixed budget
    assert all(0 < i <= 100_000 for i in iterations[0::2])  # late positions may reach the cap in time
    plain = play_game(Condition("domineering", 4, make_agent("uct", 50), make_agent("uct", 50)), 0, 1)
    assert plain["iterations"] == ""
    # every game keeps each move's search time (CPU seconds), with or without a time budget
    for played in (record, plain):
        seconds = list(map(float, played["move_seconds"].split()))
        assert len(seconds) == played["plies"] and all(s >= 0 for s in seconds)


def test_every_agent_kind_returns_the_same_result_shape():
    game = make_game("domineering", 4)
    for kind in ("uct", "ppa", "ppaf", "mast", "mastf", "rave", "puct"):
        result = search(game, game.initial_state(), make_agent(kind, 50), make_rng(0), return_details=True)
        assert result.move in set(result.moves.tolist())
        assert result.visits.shape == result.moves.shape and result.iterations == 50
        assert result.rave_used.shape == (2,)
        # every iteration plays at least one ply from a position with legal moves, at most the game's longest
        assert 50 <= result.plies <= 50 * game.spec[S_MAX_PLIES], kind


@pytest.mark.parametrize("name,size", [("go", 5), ("breakthrough", 5), ("domineering", 5), ("fanorona", 5)])
def test_search_counts_the_plies_of_its_iterations(name, size):
    """A one-iteration UCT search expands the root and plays one uniform playout, drawing nothing else: its plies are
    that playout's, replayed from a copy of the generator."""
    game = make_game(name, size)
    root = game.initial_state()
    for seed in range(5):
        rng = make_rng(seed)
        replay = rng.copy()
        result = search(game, root, make_agent("uct", 1), rng, return_details=True)
        _, plies = kernels_for(game).playout.random_playout(game.spec, root, replay)
        assert result.plies == plies > 0
        assert np.array_equal(rng, replay)  # nothing else drew


@pytest.mark.parametrize("module", ["breakthrough", "go", "domineering"])
def test_specialised_templates_bind_their_own_game_only(module):
    package = _specialise.specialised(module)
    game_module = getattr(ppalib.games, module)
    for name in _specialise.templates():
        template = getattr(package, name)
        assert template.game is game_module, name
    # The search calls the playout of its own package, not another game's or the contract's.
    assert package.search.uniform.py_func.__module__ == package.playout.__name__
    assert package.search.gibbs_draw.py_func.__module__ == package.playout.__name__


def test_a_specialised_source_that_could_bind_another_game_is_refused():
    names = _specialise.templates()
    good = _specialise.specialise_source(
        "from ppalib.kernels.playout import uniform\nfrom ppalib.games import contract as game  # <game-import>\n",
        "go", names)
    _specialise.check_specialised(good, "go", names)
    with pytest.raises(RuntimeError, match="unspecialised template 'playout'"):
        _specialise.check_specialised(
            "from ppalib.kernels.playout import uniform\nfrom ppalib.games import go as game  # <game-import>\n",
            "go", names)
    with pytest.raises(RuntimeError, match="imports the game"):
        _specialise.check_specialised("from ppalib.games import breakthrough as game  # <game-import>\n", "go",
                                      names)


def test_calling_the_contract_unspecialised_says_so():
    from ppalib.games import contract
    with pytest.raises(contract.ContractError, match="specialised"):
        contract.legal_moves(None, None, None)


def test_ludii_ucb1_values_unvisited_moves_at_the_entry_mean_and_breaks_ties_at_random():
    from ppalib.kernels.selection import ucb1_ludii
    # three moves: 3/4 wins (Q = 0.5), 1/4 (Q = -0.5), unvisited (Q = parent mean 4/8 -> 0, explore sqrt(ln 8))
    stats = np.array([3.0, 4.0, 1.0, 4.0, 0.0, 0.0])
    c = 2 ** 0.5
    scores = [0.5 + c * np.sqrt(np.log(8) / 4), -0.5 + c * np.sqrt(np.log(8) / 4), 0.0 + c * np.sqrt(np.log(8))]
    assert ucb1_ludii(stats, 0, 3, c, make_rng(0), np.empty(3)) == int(np.argmax(scores))
    # no move played yet: every move first (Ludii's 10000), chosen uniformly at random
    picks = {ucb1_ludii(np.zeros(6), 0, 3, c, make_rng(seed), np.empty(3)) for seed in range(30)}
    assert picks == {0, 1, 2}


def test_ludii_uct_finds_a_win_and_keeps_the_committed_uct_ids():
    game = make_game("breakthrough", 5)
    state = _position(game, ["o..o.", ".....", "oox..", ".x..x", "...x."])
    winning = next(m for m in game.legal_moves(state) if game.move_to_str(state, m) == "c3-d4")
    agent = make_agent("uct", 3000, c=2 ** 0.5, ludii_selection=True)
    assert Searcher(game, agent).search(state, make_rng(1)).move == winning
    assert "ludii_selection" not in make_agent("uct", 10).as_dict()
    assert agent.as_dict()["ludii_selection"] is True
