"""Hex, Connect Four, Gomoku and Othello against OpenSpiel 2.0.2 (test-only dependency): perft, and the legal-move
sets move by move along random games, minding where the conventions differ.

* Hex: the same cells (OpenSpiel's action r * n + c is our cell; its player 0, ``x``, joins rows 0 and n - 1 as
  ours, with the same six neighbours) and the same swap action (n^2, the first stone mirrored and recoloured).
* Connect Four: the action is the column, as ours.
* Gomoku: OpenSpiel's line of five *or more* wins, so it is compared with our ``overline_wins=1``; the exact-five
  default is tested by hand in ``test_games_hex_c4_gomoku_othello.py``.
* Othello: OpenSpiel numbers rows from the top (its action i * 8 + c is our cell (7 - i) * 8 + c) and has an
  explicit pass action 64, listed exactly when ours lists PASS (= 64).
"""
import numpy as np
import pytest

from ppalib.agents import perft_count
from ppalib.games import make_game

pyspiel = pytest.importorskip("pyspiel")


def _os_perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return len(state.legal_actions())
    return sum(_os_perft(state.child(a), depth - 1) for a in state.legal_actions())


def _othello_action(n, move):
    """Our Othello move as OpenSpiel's action (rows counted from the top; the pass is n^2 in both)."""
    return move if move == n * n else (n - 1 - move // n) * n + move % n


CASES = {  # name: (our size, our options, OpenSpiel name, OpenSpiel parameters, move -> action)
    "hex3_swap": (3, {"swap": 1}, "hex", {"board_size": 3, "swap": True}, None),
    "hex5": (5, {}, "hex", {"board_size": 5}, None),
    "hex7_swap": (7, {"swap": 1}, "hex", {"board_size": 7, "swap": True}, None),
    "hex11": (11, {}, "hex", {"board_size": 11}, None),
    "connect_four": (7, {}, "connect_four", {}, None),
    "connect_four_5x4": (5, {"rows": 4}, "connect_four", {"rows": 4, "columns": 5}, None),
    "gomoku15": (15, {"overline_wins": 1}, "gomoku", {"size": 15}, None),
    "gomoku7": (7, {"overline_wins": 1}, "gomoku", {"size": 7}, None),
    "othello": (8, {}, "othello", {}, lambda move: _othello_action(8, move)),
}


def _pair(case):
    size, options, os_name, params, to_action = CASES[case]
    name = {"hex": "hex"}.get(os_name, os_name)
    return make_game(name, size, **options), pyspiel.load_game(os_name, params), to_action or (lambda m: m)


@pytest.mark.parametrize("case,depth", [
    ("hex3_swap", 9),          # the whole game tree of 3x3 Hex with the swap rule, wins included
    ("hex5", 4), ("hex7_swap", 3),
    ("connect_four", 8),       # wins from ply 7 on
    ("connect_four_5x4", 8),
    ("gomoku7", 3),
    ("othello", 8),
])
def test_perft_equals_openspiel(case, depth):
    game, os_game, _ = _pair(case)
    assert [perft_count(game, d) for d in range(depth + 1)] == \
        [_os_perft(os_game.new_initial_state(), d) for d in range(depth + 1)]


def _othello_board(os_state, n):
    """OpenSpiel's Othello board as our cells: 1 Black (x), 2 White (o), 0 empty."""
    rows = [line.split()[1:1 + n] for line in str(os_state).splitlines()[2:2 + n]]
    glyph = {"-": 0, "x": 1, "o": 2}
    return np.array([glyph[rows[n - 1 - cell // n][cell % n]] for cell in range(n * n)])


@pytest.mark.parametrize("case,games", [("hex3_swap", 30), ("hex7_swap", 30), ("hex11", 30), ("connect_four", 30),
                                        ("connect_four_5x4", 30), ("gomoku7", 30), ("gomoku15", 30),
                                        ("othello", 30)])
def test_random_games_agree_with_openspiel_move_by_move(case, games):
    """At every ply of ``games`` random games: the same legal set, and the same result at the end (Othello: also
    the same board after every move).  With Hex's swap rule every other game takes the swap."""
    game, os_game, to_action = _pair(case)
    rng = np.random.default_rng(len(case) * 1000 + games)
    plies = 0
    for index in range(games):
        state, os_state = game.initial_state(), os_game.new_initial_state()
        while True:
            legal = game.legal_moves(state)
            ours = {to_action(int(m)): int(m) for m in legal}
            theirs = set() if os_state.is_terminal() else set(os_state.legal_actions())
            assert set(ours) == theirs, game.render(state)
            if case == "othello":
                assert (_othello_board(os_state, 8) == state[8:8 + 64]).all()
            if not legal.size:
                break
            action = sorted(ours)[rng.integers(len(ours))]
            if case.endswith("swap") and index % 2 == 0 and game.spec[2] in ours:
                action = int(game.spec[2])  # SWAP = n^2 in both
            state = game.play(state, ours[action])
            os_state.apply_action(action)
            plies += 1
        assert os_state.is_terminal()
        returns = os_state.returns()
        winner = game.winner(state)
        assert (returns[0] == returns[1] == 0) if winner == 2 else returns[winner] == 1.0
    assert plies >= 5 * games
