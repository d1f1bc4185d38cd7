"""The MCTS kernel (UCT, PPA, PPAF, MAST, MASTF) against the papers' pseudo-code and basic strength checks."""
import math

import numpy as np
import pytest
from scipy.stats import binomtest

from ppalib._rng import make_rng
from ppalib.agents import make_agent, search
from ppalib.kernels import learning
from ppalib.experiments import Condition, Experiment, run
from ppalib.games import make_game
from reference_mcts import ReferenceMCTS

REFERENCE_CASES = [
    ("domineering", 4, "uct"), ("domineering", 4, "ppa"), ("domineering", 4, "ppaf"),
    ("breakthrough", 5, "ppa"), ("breakthrough", 5, "ppaf"), ("breakthrough", 5, "mast"),
    ("misere_knightthrough", 5, "mastf"), ("go", 5, "ppa"), ("nogo", 5, "ppaf"), ("atarigo", 5, "mast"),
    ("go", 5, "uct"), ("nogo", 6, "uct"), ("atarigo", 5, "uct"),
]


@pytest.mark.parametrize("game_name,size,kind", REFERENCE_CASES)
def test_kernel_matches_literal_pseudocode_draw_for_draw(game_name, size, kind):
    game = make_game(game_name, size)
    root = game.initial_state()
    for _ in range(3):  # a position a few plies in, so that it is not symmetric
        root = game.play(root, game.legal_moves(root)[1])
    params = {"alpha": 0.5} if kind.startswith("ppa") else ({"k": 3.0} if kind.startswith("mast") else {})
    agent = make_agent(kind, 300, **params)
    result = search(game, root, agent, make_rng(7), return_details=True)
    move, visits, policy = result.move, result.visits, result.policy
    ref_kind = {"uct": "uniform", "ppa": "ppa", "ppaf": "ppa", "mast": "mast", "mastf": "mast"}[kind]
    reference = ReferenceMCTS(game, make_rng(7), 300, 0.4, ref_kind, alpha=params.get("alpha", 1.0),
                              k=params.get("k", 1.0), with_context=agent.with_context)
    ref_move, ref_visits, ref_policy = reference.search(root)
    assert move == ref_move
    np.testing.assert_array_equal(visits, ref_visits)
    if kind == "uct":
        assert policy.size == 0 and not ref_policy.any()
    else:
        np.testing.assert_allclose(policy, ref_policy, rtol=0, atol=1e-12)
    assert visits.sum() == 299  # the first playout creates the root entry and visits no root move


def test_ppa_adapt_on_a_hand_computed_position():
    """Domineering 3x3, Vertical to move: legal anchors 0,1,2,3,4,5 (codes = cells for player 0).

    One ply by the winner (player 0) playing cell 4 from a zero policy with alpha = 1:
    every legal code loses 1/6, the chosen code gains 1, so policy[4] = 5/6 and the other five -1/6.
    A second ply by player 1 (the loser) changes nothing.  Then with that policy, a second adapt of the same
    ply: z = exp(5/6) + 5 exp(-1/6); policy[4] += 1 - exp(5/6)/z; others -= exp(-1/6)/z.
    """
    ncodes = 18
    policy = np.zeros(ncodes)
    weight = np.ones(ncodes)
    new_policy = np.empty(ncodes)
    mark = np.zeros(ncodes, dtype=np.int64)
    touched = np.empty(ncodes, dtype=np.int64)
    seq_player = np.array([0, 1])
    seq_chosen = np.array([4, 9 + 0])
    seq_off = np.array([0, 6, 12])
    seq_codes = np.array([0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14])
    learning.ppa_adapt(policy, weight, new_policy, mark, touched, 1, 1.0, 1.0,
                     seq_player, seq_chosen, seq_off, seq_codes, 2, 0)
    expected = np.zeros(ncodes)
    expected[:6] = -1 / 6
    expected[4] = 5 / 6
    np.testing.assert_allclose(policy, expected, atol=1e-15)
    np.testing.assert_allclose(weight, np.exp(expected), atol=1e-15)
    learning.ppa_adapt(policy, weight, new_policy, mark, touched, 2, 1.0, 1.0,
                     seq_player, seq_chosen, seq_off, seq_codes, 2, 0)
    z = math.exp(5 / 6) + 5 * math.exp(-1 / 6)
    second = expected.copy()
    second[:6] -= np.exp(expected[:6]) / z
    second[4] += 1.0
    np.testing.assert_allclose(policy, second, atol=1e-14)


def test_mast_weights_on_a_tiny_sequence():
    """MAST keeps wins/games per code; the winner's codes move towards 1, the loser's towards 0."""
    policy, weight = np.zeros(18), np.ones(18)
    wins, games = np.zeros(18), np.zeros(18)
    seq_player = np.array([0, 1, 0])
    seq_chosen = np.array([4, 10, 4])
    learning.mast_adapt(policy, weight, wins, games, 2.0, seq_player, seq_chosen, 3, 0)
    learning.mast_adapt(policy, weight, wins, games, 2.0, seq_player[:2], seq_chosen[:2], 2, 1)
    assert games[4] == 3 and wins[4] == 2 and policy[4] == pytest.approx(2 / 3)
    assert games[10] == 2 and wins[10] == 1 and policy[10] == pytest.approx(0.5)
    assert weight[4] == pytest.approx(math.exp(2.0 * 2 / 3))


def _position(game, rows):
    """A Breakthrough-family state from a diagram (top row first; x = player 0, o = player 1)."""
    from ppalib.games._common import H_BOARD
    state = game.initial_state()
    n = game.size
    state[H_BOARD:H_BOARD + n * n] = 0
    for i, line in enumerate(rows):
        for col, ch in enumerate(line):
            state[H_BOARD + (n - 1 - i) * n + col] = ".xo".index(ch)
    return game.refresh(state)


def test_uct_takes_an_immediate_win():
    game = make_game("breakthrough", 5)
    state = _position(game, ["ooo..", "...x.", ".....", "o....", "xx..."])
    # 1,000 playouts, not fewer: the capture b1xa2 wins ~95% of its random playouts, so at a few hundred
    # playouts it can win every one of them, tie the winning moves in visits and come first in list order.
    move = search(game, state, make_agent("uct", 1000), make_rng(1))
    assert game.winner(game.play(state, move)) == 0, game.move_to_str(state, move)


def _side_to_move_wins(game, state, memo):
    """Exact solver (negamax with a transposition memo) for small Breakthrough endgames."""
    from ppalib.games._common import H_HASH
    key = int(state[H_HASH])
    if key not in memo:
        player = game.to_move(state)
        memo[key] = any(_move_wins(game, state, m, memo) for m in game.legal_moves(state)) \
            if game.winner(state) is None else game.winner(state) == player
    return memo[key]


def _move_wins(game, state, move, memo):
    child = game.play(state, move)
    if game.winner(child) is not None:
        return game.winner(child) == game.to_move(state)
    return not _side_to_move_wins(game, child, memo)


def test_uct_finds_the_only_winning_move():
    """x to move with 8 legal moves, none winning at once; the exact solver proves c3-d4 is the only move that
    wins against every defence (so the test can fail), and UCT must find it."""
    game = make_game("breakthrough", 5)
    state = _position(game, ["o..o.", ".....", "oox..", ".x..x", "...x."])
    memo = {}
    winning = [m for m in game.legal_moves(state) if _move_wins(game, state, m, memo)]
    assert len(game.legal_moves(state)) == 8
    assert [game.move_to_str(state, m) for m in winning] == ["c3-d4"]
    move = search(game, state, make_agent("uct", 3000), make_rng(3))
    assert move == winning[0], game.move_to_str(state, move)


@pytest.mark.slow
def test_uct_with_ten_times_the_playouts_wins_decisively(tmp_path):
    condition = Condition("breakthrough", 6, make_agent("uct", 1000), make_agent("uct", 100))
    frame = run(Experiment("strength", (condition,), 40, 11, tmp_path), "process", progress=False)
    wins = int(frame["agent_result"].sum())
    assert binomtest(wins, len(frame), 0.5, alternative="greater").pvalue < 1e-4, wins


def test_same_seed_same_search_different_seed_may_differ():
    game = make_game("go", 5)
    agent = make_agent("ppa", 500)
    a = search(game, game.initial_state(), agent, make_rng(5), return_details=True)
    b = search(game, game.initial_state(), agent, make_rng(5), return_details=True)
    assert a.move == b.move and np.array_equal(a.visits, b.visits) and np.array_equal(a.policy, b.policy)


@pytest.mark.parametrize("k", [710.0, 4096.0])
def test_mast_with_a_huge_k_samples_without_overflow(k):
    """exp(k * mean) overflows for k > 709 (the paper uses k up to 4096); the kernel samples the same
    distribution as exp(k * (mean - max)), so the search runs and its statistics stay finite."""
    game = make_game("misere_knightthrough", 6)
    result = search(game, game.initial_state(), make_agent("mast", 400, k=k), make_rng(2), return_details=True)
    assert result.move in set(result.moves.tolist())
    assert np.isfinite(result.policy).all() and result.visits.sum() == 399
