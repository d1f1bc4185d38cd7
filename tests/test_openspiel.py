"""Independent checks against OpenSpiel (test-only dependency), minding where its rules differ.

* Breakthrough: OpenSpiel's player 0 (black) starts at the top and moves down, and its 5x5 board has one row
  a side; ours has two rows a side on every board.  We compare 6x6 and 8x8 (two rows a side in both) with the
  board flipped: our cell (row r, col c) is OpenSpiel's square (file c, rank n - r).
* Go: OpenSpiel always allows a pass and lets a player fill its own eye; our move list forbids own-eye fills
  and allows a pass only when nothing else is legal.  We compare, at every ply of random games, our legal
  set with OpenSpiel's minus pass and minus own-eye points (computed here by an independent predicate), and
  the whole board after every move (captures, ko).
"""
import numpy as np
import pytest

from ppalib.agents import perft_count
from ppalib.games import make_game

pyspiel = pytest.importorskip("pyspiel")


def _bt_square(n, cell):
    return f"{chr(ord('a') + cell % n)}{n - cell // n}"


def _bt_move_string(game, state, move):
    n = game.size
    cell = move >> 2
    to = game.module._destination(game.spec, int(state[0]), move)
    return _bt_square(n, cell) + _bt_square(n, to)


def _os_perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(_os_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("size,depth", [(6, 3), (8, 3)])
def test_breakthrough_perft_equals_openspiel(size, depth):
    os_game = pyspiel.load_game("breakthrough", {"rows": size, "columns": size})
    ours = make_game("breakthrough", size)
    assert [perft_count(ours, d) for d in range(depth + 1)] == \
        [_os_perft(os_game.new_initial_state(), d) for d in range(depth + 1)]


@pytest.mark.parametrize("size", [6, 8])
def test_breakthrough_random_games_agree_with_openspiel_move_by_move(size):
    os_game = pyspiel.load_game("breakthrough", {"rows": size, "columns": size})
    game = make_game("breakthrough", size)
    rng = np.random.default_rng(size)
    for _ in range(30):
        state, os_state = game.initial_state(), os_game.new_initial_state()
        while True:
            legal = game.legal_moves(state)
            ours = {_bt_move_string(game, state, m): m for m in legal}
            theirs = {os_state.action_to_string(a).replace("*", ""): a
                      for a in ([] if os_state.is_terminal() else os_state.legal_actions())}
            assert set(ours) == set(theirs)
            if not legal.size:
                break
            key = sorted(ours)[rng.integers(len(ours))]
            state = game.play(state, ours[key])
            os_state.apply_action(theirs[key])
        assert os_state.is_terminal()
        assert os_state.returns()[game.winner(state)] == 1.0


def _os_board(os_state, n):
    t = np.array(os_state.observation_tensor(0)).reshape(-1, n * n)
    return t[0].astype(int) + 2 * t[1].astype(int)  # 1 black, 2 white, 0 empty (OpenSpiel planes)


def _own_eye(board, n, cell, color):
    """Independent eye predicate on a flat board: orthogonal neighbours own (or edge); diagonals at most one
    enemy stone, none if the point is on the edge."""
    r, c = divmod(cell, n)
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] != color:
            return False
    enemy, edge = 0, False
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        rr, cc = r + dr, c + dc
        if not (0 <= rr < n and 0 <= cc < n):
            edge = True
        elif board[rr * n + cc] == 3 - color:
            enemy += 1
    return enemy == 0 if edge else enemy < 2


@pytest.mark.parametrize("size", [5, 7])
def test_go_random_games_agree_with_openspiel_move_by_move(size):
    os_game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5, "max_game_length": 1000})
    game = make_game("go", size)
    from ppalib.games.go import _point
    rng = np.random.default_rng(size)
    compared = 0
    for _ in range(20):
        state, os_state = game.initial_state(), os_game.new_initial_state()
        while not os_state.is_terminal():
            legal = game.legal_moves(state)
            if legal.size == 0:
                break
            color = game.to_move(state) + 1
            board = _os_board(os_state, size)
            ours_board = np.array([state[8 + _point(game.spec, c)] for c in range(size * size)])
            np.testing.assert_array_equal(ours_board, board)
            theirs = {a for a in os_state.legal_actions() if a != size * size and not _own_eye(board, size, a, color)}
            ours = set(legal.tolist()) - {size * size}
            assert ours == theirs
            compared += 1
            move = int(legal[rng.integers(legal.size)])
            state = game.play(state, move)
            os_state.apply_action(move)
    assert compared > 500
