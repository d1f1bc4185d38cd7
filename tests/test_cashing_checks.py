"""Cashing Checks (seed 001): the three variants' rules and the exact solver against the paper's analysis."""
import itertools

import numpy as np
import pytest

from ppalib.games import cashing_checks as cc
from ppalib.games._common import H_WINNER


def _play(spec, values):
    state = cc.init_state(spec)
    for value in values:
        cc.play(spec, state, value - 1)
    return state


def _brute_force_value(spec, state):
    """Plain minimax without memo or cut-offs (small instances only), for the player to move."""
    out = np.empty(int(spec[2]), dtype=np.int64)
    n = cc.legal_moves(spec, state, out)
    if n == 0:
        w = int(state[H_WINNER])
        mover = int(state[0])
        return 0 if w == 2 else (1 if w == mover else -1)
    best = -2
    for move in out[:n].copy():
        child = state.copy()
        cc.play(spec, child, int(move))
        best = max(best, -_brute_force_value(spec, child))
    return best


def test_blind_rules_sum_the_values_and_give_the_komi_to_the_second_player():
    spec = cc.make_spec(20, 0)  # the annex: 20 checks, 10 steps, komi 5
    state = _play(spec, [20, 19, 18, 17, 16, 15, 14, 13, 12, 11])
    assert (state[6], state[7]) == (80, 75) and state[H_WINNER] == 2  # 80 = 75 + 5: a draw


def test_stale_dated_checks_are_worthless_after_their_turn():
    spec = cc.make_spec(12, cc.VARIANT_STALE)
    assert cc.check_worth(spec, 12, 1) == 12 and cc.check_worth(spec, 12, 2) == 0   # rank 1: turn 1 only
    assert cc.check_worth(spec, 11, 2) == 11 and cc.check_worth(spec, 11, 3) == 0
    assert cc.check_worth(spec, 3, 10) == 3                                        # rank 10: up to turn 10


def test_post_dated_checks_are_worthless_before_their_turn():
    spec = cc.make_spec(20, cc.VARIANT_POSTDATED)   # N - k + i = 10 + i is valid from turn i
    assert cc.check_worth(spec, 11, 1) == 11 and cc.check_worth(spec, 12, 1) == 0
    assert cc.check_worth(spec, 20, 9) == 0 and cc.check_worth(spec, 20, 10) == 20
    assert cc.check_worth(spec, 10, 1) == 10                                       # undated: always valid


@pytest.mark.parametrize("variant", [0, cc.VARIANT_STALE, cc.VARIANT_POSTDATED])
@pytest.mark.parametrize("n,turns,komi", [(4, 2, 1), (5, 3, 2), (6, 4, 2), (7, 4, 0), (6, 5, -1)])
def test_solver_equals_brute_force_minimax_everywhere_on_small_games(variant, n, turns, komi):
    spec = cc.make_spec(n, variant, turns=turns, komi=komi)
    solver = cc.Solver(spec)
    for length in range(turns):
        for sequence in itertools.permutations(range(1, n + 1), length):
            state = _play(spec, sequence)
            assert solver.value(state) == _brute_force_value(spec, state)


def test_hand_checked_four_checks_two_turns():
    """N=4, k=2, komi 1: left takes 4, right 3: 4 = 3 + 1, a draw; left taking 3 lets right take 4 and win."""
    spec = cc.make_spec(4, 0, turns=2, komi=1)
    solver = cc.Solver(spec)
    start = cc.init_state(spec)
    assert solver.value(start) == 0 and solver.optimal_moves(start) == [3]
    after_three = _play(spec, [3])
    assert solver.value(after_three) == 1 and solver.optimal_moves(after_three) == [3]


def test_paper_setting_blind_is_a_draw_and_greedy_is_the_only_optimal_line():
    """Seed 001 section 4.1: optimal play takes the largest remaining check; with komi k/2 the match is a draw
    and the first player scores the odd ranks 20 + 18 + ... while the second scores 19 + 17 + ..."""
    spec = cc.make_spec(20, 0)
    solver = cc.Solver(spec)
    state = cc.init_state(spec)
    assert solver.value(state) == 0
    for value in range(20, 10, -1):
        assert solver.optimal_moves(state) == [value - 1]
        cc.play(spec, state, value - 1)
    assert state[H_WINNER] == 2


def test_paper_setting_stale_dated_taking_the_next_check_is_also_optimal():
    """Seed 001 section 4.3: "a winning move ... is either to take the valid check with the largest amount or
    to take the check with the next amount" (with N > k)."""
    spec = cc.make_spec(12, cc.VARIANT_STALE)
    solver = cc.Solver(spec)
    state = cc.init_state(spec)
    assert solver.value(state) == 0
    assert {10, 11} <= set(solver.optimal_moves(state))  # checks 12 and 11


def test_paper_setting_post_dated_is_a_draw_with_the_reverse_komi():
    spec = cc.make_spec(20, cc.VARIANT_POSTDATED)
    assert cc.Solver(spec).value(cc.init_state(spec)) == 0


def test_bad_turns_are_refused():
    with pytest.raises(ValueError, match="turns=25 is out of range for 20 checks"):
        cc.make_spec(20, 0, turns=25)


def test_the_generic_agents_play_cashing_checks_and_every_move_can_be_labelled():
    from ppalib.agents import make_agent
    from ppalib.experiments import Condition, play_game
    from ppalib.games import make_game
    for kind in ("uct", "ppa", "mast"):
        condition = Condition("stale_cashing_checks", 12, make_agent(kind, 200), make_agent("uct", 200),
                              game_options=(("turns", 10), ("komi", 5)))
        record = play_game(condition, 0, 1)
        assert record["plies"] == 10 and record["winner"] in (0, 1, 2)
    game = make_game("blind_cashing_checks", 20, turns=10, komi=5)
    solver = cc.Solver(game.spec)
    state = game.initial_state()
    assert solver.optimal_moves(state) == [19]


def _independent_value(spec, taken, ply, diff, turns, komi, n):
    """Minimax by plain recursion over the untaken checks (no memo, no cut-off), for the player to move: the
    slower computation the solver is checked against on large N."""
    if ply == turns:
        final = diff - komi
        value = (final > 0) - (final < 0)
        return value if ply % 2 == 0 else -value
    sign = 1 if ply % 2 == 0 else -1
    return max(-_independent_value(spec, taken | {c}, ply + 1, diff + sign * int(cc.check_worth(spec, c + 1, ply + 1)),
                                   turns, komi, n)
               for c in range(n) if c not in taken)


@pytest.mark.parametrize("variant", [0, cc.VARIANT_STALE, cc.VARIANT_POSTDATED])
@pytest.mark.parametrize("n", [48, 49, 52, 60])
def test_solver_is_exact_with_the_largest_checks_taken_on_48_to_60_checks(variant, n):
    """The memo key once packed the taken checks as ``mask << 16`` into an int64: from 49 checks on, the checks
    worth 49 and more fell off, so positions differing only in them shared one value (wrong at N = 52).  Every
    position after two plies among the five largest checks, with komis around the critical sums, must match
    the independent minimax, in one solver whose memo sees them all."""
    turns = 3
    for komi in (n - 1, n, n + 1, n + 2):
        spec = cc.make_spec(n, variant, turns=turns, komi=komi)
        solver = cc.Solver(spec)
        top = range(n - 5, n)
        for first, second in itertools.permutations(top, 2):
            state = _play(spec, [first + 1, second + 1])
            diff = int(state[6] - state[7])
            assert solver.value(state) == _independent_value(spec, {first, second}, 2, diff, turns, komi, n), \
                (komi, first + 1, second + 1)


def test_solver_memo_key_keeps_every_check():
    """The two positions the old key confused, at N = 52, 3 turns, komi 52: left took 52 and right 51, or left
    51 and right 50 (same sum difference; the old key kept neither check).  Left then takes the largest check
    left: 50 (51 - 52 < 0, a loss) or 52 (53 - 52 > 0, a win)."""
    spec = cc.make_spec(52, 0, turns=3, komi=52)
    for order in ([(52, 51), (51, 50)], [(51, 50), (52, 51)]):
        solver = cc.Solver(spec)
        values = {pair: solver.value(_play(spec, pair)) for pair in order}
        assert values == {(52, 51): -1, (51, 50): 1}


def _post_dated_line(n, turns):
    """The paper's "reverse order" line: at turn i the check worth N - k + i (the one that has just become valid)."""
    return [n - turns + i for i in range(1, turns + 1)]


@pytest.mark.parametrize("turns", [3, 4, 5, 6, 8])
def test_post_dated_reverse_order_and_komi_claim_holds_only_for_even_k_and_n_at_least_2k_minus_2(turns):
    """The module docstring's corrected claim, by the exact solver, with the default komi -(k // 2)."""
    for n in range(turns, 2 * turns + 2):
        spec = cc.make_spec(n, cc.VARIANT_POSTDATED, turns=turns)
        assert spec[spec[9] + 1] == -(turns // 2)
        solver = cc.Solver(spec)
        state = cc.init_state(spec)
        line_optimal = True
        for value in _post_dated_line(n, turns):
            line_optimal &= (value - 1) in solver.optimal_moves(state)
            cc.play(spec, state, value - 1)
        start = solver.value(cc.init_state(spec))
        if turns % 2 == 0 and n >= 2 * turns - 2:
            assert start == 0 and line_optimal, n            # the paper's claim: a draw along the line
            assert state[H_WINNER] == 2
        elif turns % 2 == 0:
            assert start == 1 and not line_optimal, n        # too few checks: the first player wins
        else:
            assert start == 1 and line_optimal, n            # odd k: the first player's extra turn wins


def test_post_dated_with_few_checks_opens_by_denying_a_post_dated_check():
    spec = cc.make_spec(12, cc.VARIANT_POSTDATED, turns=10)
    solver = cc.Solver(spec)
    start = cc.init_state(spec)
    assert solver.value(start) == 1 and 11 in solver.optimal_moves(start)   # take check 12, worth 0 at turn 1
    assert cc.check_worth(spec, 12, 1) == 0


# ---- the sum of a Blind and a Stale-dated game (Mehat & Vittaut 2013, section 8) ---------------------------------
def _sum_spec(blind=20, turns=10, stale=None, komi=None):
    return cc.make_spec(blind, cc.VARIANT_SUM, turns=turns, komi=komi, stale_checks=stale)


def _legal(spec, state):
    out = np.empty(int(spec[3]), dtype=np.int64)
    return out[:cc.legal_moves(spec, state, out)].tolist()


def test_sum_game_plays_its_parts_in_alternating_rounds_and_only_the_part_in_play_is_legal():
    """20 Blind checks (moves 0..19) and 12 Stale-dated ones (moves 20..31), 10 turns a part: plies 1-2 take Blind
    checks, 3-4 Stale-dated ones, 5-6 Blind, ...; 20 plies in all."""
    spec = _sum_spec()
    assert spec[7] == 20 and spec[spec[9] + 1] == 10   # 2k plies, komi k (each part's k/2)
    state = cc.init_state(spec)
    parts = []
    for ply in range(20):
        legal = _legal(spec, state)
        parts.append("B" if max(legal) < 20 else "S")
        assert set(legal) == ({m for m in range(20) if not state[8 + m]} if parts[-1] == "B"
                              else {m for m in range(20, 32) if not state[8 + m]})
        assert cc.sum_part(ply) == (parts[-1] == "S")
        cc.play(spec, state, legal[-1])
    assert "".join(parts) == "BBSS" * 5 and state[H_WINNER] != -1 and _legal(spec, state) == []


def test_sum_game_counts_each_part_as_its_own_game_and_adds_the_totals():
    """Blind checks are worth their value at any time; a Stale-dated check of rank i is worth its value up to the
    Stale-dated part's own turn i (not the match's ply): the 12 (rank 1) at the part's first turn (ply 3), the
    11 (rank 2) no more at the part's third turn (ply 7)."""
    spec = _sum_spec()
    assert cc.sum_part_turn(2) == 1 and cc.sum_part_turn(3) == 2 and cc.sum_part_turn(6) == 3
    assert cc.move_worth(spec, 19, 0) == 20 and cc.move_worth(spec, 0, 19) == 1       # Blind 20 and 1
    assert cc.move_worth(spec, 31, 2) == 12 and cc.move_worth(spec, 31, 3) == 0       # Stale-dated 12
    assert cc.move_worth(spec, 30, 3) == 11 and cc.move_worth(spec, 30, 6) == 0       # Stale-dated 11
    state = cc.init_state(spec)
    for move in (19, 18, 31, 21):       # left Blind 20, right Blind 19, left Stale 12, right Stale 2
        cc.play(spec, state, move)
    assert (state[6], state[7]) == (32, 21)
    for move in (17, 16, 30, 29):       # ply 7-8: the Stale-dated part's turns 3-4: 11 and 10 are stale
        cc.play(spec, state, move)
    assert (state[6], state[7]) == (32 + 18, 21 + 17)


def test_the_paper_sized_sum_is_a_draw_along_both_parts_optimal_lines():
    """Blind 20 checks and Stale-dated 12, 10 turns each, komi 10: the sum of two drawn games is a draw, and taking
    the largest valid check of the part in play (each part's optimal line) is optimal at every ply."""
    spec = _sum_spec()
    solver = cc.Solver(spec)
    state = cc.init_state(spec)
    assert solver.value(state) == 0
    while _legal(spec, state):
        best = max(_legal(spec, state), key=lambda m: (cc.move_worth(spec, m, int(state[1])), m))
        assert best in solver.optimal_moves(state)
        cc.play(spec, state, best)
    assert state[H_WINNER] == 2 and state[6] == state[7] + 10


@pytest.mark.parametrize("blind,stale,turns,komi", [(4, 4, 2, 2), (5, 4, 2, 1), (5, 5, 4, 4), (6, 4, 4, 3),
                                                    (4, 6, 4, 5)])
def test_sum_solver_equals_brute_force_minimax_everywhere_on_small_sums(blind, stale, turns, komi):
    """The solver's decomposition (the parts' minimax leads added, their sign against the komi) against plain
    minimax of the whole sum, at every position reachable in the first plies (and optimal moves by definition)."""
    spec = _sum_spec(blind, turns, stale, komi)
    solver = cc.Solver(spec)

    def positions(state, depth):
        yield state
        if depth:
            for move in _legal(spec, state):
                child = state.copy()
                cc.play(spec, child, move)
                yield from positions(child, depth - 1)

    for state in positions(cc.init_state(spec), 3):
        value = _brute_force_value(spec, state)
        assert solver.value(state) == value
        optimal = []
        for move in _legal(spec, state):
            child = state.copy()
            cc.play(spec, child, move)
            if -_brute_force_value(spec, child) == value:
                optimal.append(move)
        assert solver.optimal_moves(state) == optimal


def test_sum_game_options_are_checked():
    with pytest.raises(ValueError, match="turns=5 is out of range for the sum game: an even number"):
        _sum_spec(turns=5)
    with pytest.raises(ValueError, match="stale_checks=8 is out of range: allowed 10..60"):
        _sum_spec(stale=8)
    with pytest.raises(ValueError, match="make 61: allowed at most 60"):
        _sum_spec(blind=40, stale=21)
    with pytest.raises(ValueError, match="stale_checks is an option of the sum game"):
        cc.make_spec(12, cc.VARIANT_STALE, stale_checks=12)
    from ppalib.games import make_game
    game = make_game("sum_cashing_checks", 9)   # default turns: the largest even number up to min(10, N - 1)
    assert dict(game.options) == {"turns": 8} and game.max_moves == 10 and game.spec[7] == 16
