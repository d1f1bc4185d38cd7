"""RAVE (seed 001): the score formula, the adaptive switch, and the paper's effect in small matches."""
import math

import numpy as np
import pytest
from scipy.stats import fisher_exact

from ppalib._rng import make_rng
from ppalib.agents import make_agent, search
from ppalib.games import cashing_checks as cc
from ppalib.games import make_game

from ppalib.kernels.learning import root_prefers_rave
from ppalib.kernels.selection import rave_score


def test_score_of_a_never_tried_move_is_the_maximum_result_blended_with_rave():
    assert rave_score(0.0, 0.0, 0.0, 0.0, 10.0, 0.4, 700.0, True) == 1.0
    a = math.sqrt(700 / (3 * 10 + 700))
    assert rave_score(0.0, 0.0, 3.0, 4.0, 10.0, 0.4, 700.0, True) == pytest.approx((1 - a) * 1.0 + a * 0.75)


def test_score_of_a_tried_move_blends_uct_and_rave_with_a_from_the_entry_total():
    """A hand-made entry: t = 40 playouts; the move: 6 wins in 10, RAVE 15 wins in 20; c = 0.4, k = 700."""
    u = 0.6 + 0.4 * math.sqrt(math.log(40) / 10)
    a = math.sqrt(700 / (3 * 40 + 700))
    assert rave_score(6.0, 10.0, 15.0, 20.0, 40.0, 0.4, 700.0, True) == pytest.approx((1 - a) * u + a * 0.75)
    assert rave_score(6.0, 10.0, 15.0, 20.0, 40.0, 0.4, 700.0, False) == pytest.approx(u)
    assert rave_score(6.0, 10.0, 15.0, 20.0, 40.0, 0.4, 0.0, True) == pytest.approx(u)  # k = 0: pure UCT


def _root(wins, visits, rave_wins, rave_visits):
    """The pool layout of one entry: (wins, playouts) and (AMAF wins, AMAF playouts) side by side per move."""
    return np.column_stack([wins, visits]).ravel(), np.column_stack([rave_wins, rave_visits]).ravel()


def test_adaptive_switch_compares_playouts_of_optimistic_and_pessimistic_root_moves():
    wins = np.array([5.0, 2.0, 9.0])
    visits = np.array([10.0, 10.0, 10.0])        # means 0.5, 0.2, 0.9
    rave_wins = np.array([8.0, 1.0, 5.0])
    rave_visits = np.array([10.0, 10.0, 10.0])   # RAVE 0.8 (optimistic), 0.1, 0.5 (both pessimistic)
    assert not root_prefers_rave(*_root(wins, visits, rave_wins, rave_visits), 0, 3, 0.0, True)  # 10 vs 20
    visits[0] = 30.0
    wins[0] = 15.0
    assert root_prefers_rave(*_root(wins, visits, rave_wins, rave_visits), 0, 3, 0.0, True)      # 30 vs 20
    # With a margin of 0.35 only move 2 (0.5 vs 0.9) is outside it: pessimistic wins.
    assert not root_prefers_rave(*_root(wins, visits, rave_wins, rave_visits), 0, 3, 0.35, True)
    # The margin on the optimism test only: moves 1 (0.1 < 0.2) and 2 are pessimistic, move 0 (0.8 > 0.5 + 0.25)
    # optimistic: 30 vs 20 playouts.
    assert root_prefers_rave(*_root(wins, visits, rave_wins, rave_visits), 0, 3, 0.25, False)
    assert not root_prefers_rave(*_root(wins, visits, rave_wins, rave_visits), 0, 3, 0.35, False)


def _optimal_matches(name, checks, agent, matches, seed):
    game = make_game(name, checks, turns=10, komi=5)
    solver = cc.Solver(game.spec)
    optimal = 0
    for m in range(matches):
        rng, state, ok = make_rng(seed, m), game.initial_state(), True
        while game.legal_moves(state).size:
            move = search(game, state, agent, rng)
            ok = ok and move in solver.optimal_moves(state)
            game.module.play(game.spec, state, move)
        optimal += ok
    return optimal


@pytest.mark.slow
def test_rave_helps_at_blind_and_hurts_at_stale_dated_and_adaptive_follows():
    n = 40
    results = {}
    for name, checks in (("blind_cashing_checks", 20), ("stale_cashing_checks", 12)):
        for label, agent in (("never", make_agent("uct", 2000)), ("always", make_agent("rave", 2000)),
                             ("adaptive", make_agent("rave", 2000, adaptive=True))):
            results[name, label] = _optimal_matches(name, checks, agent, n, 3)
    better = lambda a, b: fisher_exact([[a, n - a], [b, n - b]], alternative="greater")[1] < 0.01
    assert better(results["blind_cashing_checks", "always"], results["blind_cashing_checks", "never"]), results
    assert better(results["stale_cashing_checks", "never"], results["stale_cashing_checks", "always"]), results
    assert better(results["blind_cashing_checks", "adaptive"], results["blind_cashing_checks", "never"]), results
    assert better(results["stale_cashing_checks", "adaptive"], results["stale_cashing_checks", "always"]), results


def test_rave_usage_rate_is_respected():
    game = make_game("blind_cashing_checks", 20, turns=10, komi=5)
    for rate in (0.0, 0.3, 1.0):
        used = search(game, game.initial_state(), make_agent("rave", 2000, rave_rate=rate), make_rng(1),
                      return_details=True).rave_used
        assert used[0] / used[1] == pytest.approx(rate, abs=0.05)


@pytest.mark.parametrize("params,message", [
    (dict(rave_rate=1.5), "rave_rate=1.5 is out of range"),
    (dict(k_rave=-1), "k_rave=-1.0 is out of range"),
    (dict(margin=float("nan")), "margin=nan is out of range"),
    (dict(adaptive="yes"), "adaptive must be True or False"),
])
def test_bad_rave_parameters(params, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make_agent("rave", 100, **params)


def test_rave_parameters_belong_to_rave_only():
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['k_rave'\] for agent kind 'uct'"):
        make_agent("uct", 100, k_rave=100)
