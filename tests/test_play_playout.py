"""The optional ``play_playout`` and ``play_random_playout`` of the game contract: a lighter move for uniform
playouts, and a whole uniform playout (held in registers, or with the move code inlined into one loop), whose
playouts draw exactly the moves and reach exactly the results of ``play`` (the same games, so committed results
replay), and the only places the kernels use them."""
import inspect

import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.games import GAMES, contract, make_game
from ppalib.games._common import H_BOARD, H_PLY, H_TO_MOVE, H_WINNER, S_CELLS
from ppalib.kernels import playout as playout_template

#: Every game module with the hook, at the sizes and options that take each of its code paths (bitboards at <= 64
#: cells, the scan engine beyond; misere results; knight moves; the GGP reading of Knightthrough; a ply cap).
CASES = [("breakthrough", 8, {}), ("breakthrough", 5, {}), ("breakthrough", 9, {}), ("misere_breakthrough", 8, {}),
         ("knightthrough", 8, {}), ("knightthrough", 8, {"ggp_rules": 1}), ("knightthrough", 9, {"ggp_rules": 1}),
         ("misere_knightthrough", 6, {}), ("breakthrough", 8, {"ply_cap": 30})]
#: Every game module with ``play_random_playout``: the cases above, and Connect Four on its standard board, its
#: smallest and largest boards (draws by a full board) and with a ply cap.
#: The Go family's (``random_move`` and ``play`` inlined in a loop): each variant, Atarigo's two suicide rules, a
#: small board (passes and ends by two passes) and a ply cap.
WHOLE_CASES = CASES + [("connect_four", 7, {}), ("connect_four", 4, {"rows": 4}), ("connect_four", 9, {"rows": 6}),
                       ("connect_four", 7, {"ply_cap": 20}),
                       ("go", 8, {}), ("go", 4, {}), ("go", 6, {"ply_cap": 50}), ("atarigo", 8, {}),
                       ("atarigo", 6, {"suicide": 0}), ("nogo", 7, {}), ("misere_nogo", 5, {})]


def _compared(game):
    """The state's slots a whole playout must leave as the move-by-move one does: side, ply and result, and the
    bitboards (Breakthrough family, Connect Four: after the column heights); in the Go family, whose whole playout
    plays with ``play`` itself, every slot."""
    cells = game.spec[S_CELLS]
    header = [H_WINNER, H_TO_MOVE, H_PLY]
    if game.module.__name__.endswith(".go"):  # the same play, inlined: every slot of the state
        return list(range(len(game.initial_state())))
    if game.module.__name__.endswith("breakthrough"):
        return header + ([H_BOARD + cells, H_BOARD + cells + 1] if cells <= 64 else [])
    return header + [H_BOARD + cells + game.size, H_BOARD + cells + game.size + 1]


def _playout(game, play, seed):
    """One uniform random playout from the start with ``play`` for its moves: (moves, winner)."""
    rng = make_rng(seed)
    state = game.initial_state()
    out = np.empty(game.max_moves, dtype=np.int64)
    moves = []
    move = game.module.random_move(game.spec, state, rng, out)
    while move >= 0:
        moves.append(int(move))
        play(game.spec, state, move)
        move = game.module.random_move(game.spec, state, rng, out)
    return moves, int(state[H_WINNER])


@pytest.mark.parametrize("name,size,options", CASES, ids=[f"{n}-{s}-{o}" for n, s, o in CASES])
def test_a_playout_with_play_playout_draws_the_moves_and_reaches_the_result_of_play(name, size, options):
    game = make_game(name, size, **options)
    results = set()
    for seed in range(60):
        full = _playout(game, game.module.play, seed)
        light = _playout(game, game.module.play_playout, seed)
        assert light == full, f"seed {seed}: the playouts differ"
        results.add(full[1])
    assert len(results) >= 2  # both sides win some playouts (and draws at the cap)


@pytest.mark.parametrize("name,size,options", WHOLE_CASES, ids=[f"{n}-{s}-{o}" for n, s, o in WHOLE_CASES])
def test_play_random_playout_ends_as_the_move_by_move_playout_with_the_generator_in_the_same_state(name, size, options):
    """The whole playout (registers) against ``random_move`` and ``play_playout`` (else ``play``) one at a time, from
    the start and from positions part-way through a game (both sides to move): the same plies, winner, side to move,
    ply count, bitboards (where the engine has them) and generator state."""
    game = make_game(name, size, **options)
    out = np.empty(game.max_moves, dtype=np.int64)
    plies_seen, results = set(), set()
    for seed in range(80):
        start = game.initial_state()
        lead = make_rng(1000 + seed)
        for _ in range(seed % 7):  # a few moves in: either side to move, pieces gone
            move = game.module.random_move(game.spec, start, lead, out)
            if move < 0:
                break
            game.module.play(game.spec, start, move)
        by_move = _assert_same_playout(game, start, seed)
        plies_seen.add(int(by_move[H_PLY] - start[H_PLY]))
        results.add(int(by_move[H_WINNER]))
    assert len(plies_seen) >= 5  # playouts of many lengths, not one repeated
    assert len(results) >= 2


def _assert_same_playout(game, start, seed):
    """Play a uniform playout from ``start`` both ways (move by move; whole) with generators seeded alike, assert
    the same plies, generator state and compared slots, and return the move-by-move end position."""
    out = np.empty(game.max_moves, dtype=np.int64)
    play = getattr(game.module, "play_playout", game.module.play)
    by_move, whole = start.copy(), start.copy()
    rng_by_move, rng_whole = make_rng(seed), make_rng(seed)
    plies = 0
    move = game.module.random_move(game.spec, by_move, rng_by_move, out)
    while move >= 0:
        play(game.spec, by_move, move)
        plies += 1
        move = game.module.random_move(game.spec, by_move, rng_by_move, out)
    assert game.module.play_random_playout(game.spec, whole, rng_whole, out) == plies, f"seed {seed}"
    assert (rng_whole == rng_by_move).all(), f"seed {seed}: the generators differ"
    for slot in _compared(game):
        assert whole[slot] == by_move[slot], f"seed {seed}: slot {slot}"
    return by_move


def _breakthrough_position(game, rows, to_move, ply=0):
    """A hand-built Breakthrough-family position: ``rows`` from row 0 up, '0' / '1' a piece of that player."""
    state = game.initial_state()
    state[H_BOARD:H_BOARD + game.size * game.size] = 0
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char in "01":
                state[H_BOARD + r * game.size + c] = int(char) + 1
    state[H_TO_MOVE] = to_move
    state[H_PLY] = ply
    return game.refresh(state)


@pytest.mark.parametrize("name", ["breakthrough", "misere_breakthrough", "knightthrough"])
def test_a_whole_playout_from_a_side_without_a_move_ends_as_the_move_by_move_one(name):
    """The side to move has no piece: it loses at once (misere: wins), no draw made, in both playouts."""
    game = make_game(name, 5)
    start = _breakthrough_position(game, [".....", ".....", "..1..", ".....", "....."], to_move=0)
    end = _assert_same_playout(game, start, 0)
    assert end[H_WINNER] == (0 if name.startswith("misere") else 1) and end[H_PLY] == 0


def test_a_far_row_move_on_the_capping_ply_wins_in_both_playouts():
    """Player 0's one pawn stands on the row before the far row and the next ply is the cap: the move wins (the
    result of the move stands), it is not a draw at the cap."""
    game = make_game("breakthrough", 5, ply_cap=21)
    start = _breakthrough_position(game, [".....", "1....", ".....", "..0..", "....."], to_move=0, ply=20)
    for seed in range(10):
        assert _assert_same_playout(game, start, seed)[H_WINNER] == 0


@pytest.mark.parametrize("name", ["breakthrough", "connect_four"])
def test_a_whole_playout_from_an_ended_position_plays_nothing(name):
    game = make_game(name, 7 if name == "connect_four" else 5)
    start = game.initial_state()
    start[H_WINNER] = 1
    end = _assert_same_playout(game, start, 3)
    assert end[H_WINNER] == 1 and end[H_PLY] == 0


def test_a_connect_four_that_fills_the_board_is_a_win_in_both_playouts():
    """The last disc of a 4x4 board makes four: a win, not the full board's draw.  The position before it is found
    by replaying seeded move-by-move playouts until one ends so."""
    game = make_game("connect_four", 4, rows=4)
    out = np.empty(game.max_moves, dtype=np.int64)
    for seed in range(5000):
        state, rng, moves = game.initial_state(), make_rng(seed), []
        move = game.module.random_move(game.spec, state, rng, out)
        while move >= 0:
            moves.append(move)
            game.module.play(game.spec, state, move)
            move = game.module.random_move(game.spec, state, rng, out)
        if len(moves) == 16 and state[H_WINNER] != 2:
            break
    else:
        pytest.fail("no seeded 4x4 playout ends with a four on the last cell")
    start = game.initial_state()
    for move in moves[:-1]:
        game.module.play(game.spec, start, move)
    end = _assert_same_playout(game, start, 0)
    assert end[H_WINNER] == state[H_WINNER] and end[H_PLY] == 16


def test_play_playout_keeps_the_contracts_parameters_where_a_game_defines_it():
    modules = {GAMES[n].module for n in GAMES}
    for hook, cases in (("play_playout", CASES), ("play_random_playout", WHOLE_CASES)):
        having = {m.__name__ for m in modules if hasattr(m, hook)}
        assert having == {GAMES[name].module.__name__ for name, _, _ in cases}  # the games the cases cover
        for module in modules:
            if hasattr(module, hook):
                ours = list(inspect.signature(getattr(module, hook).py_func).parameters)
                assert ours == list(inspect.signature(getattr(contract, hook)).parameters)


def test_tree_moves_and_learned_playouts_keep_play():
    """``play_playout`` and ``play_random_playout`` may leave a stale hash and board: only uniform playouts use them,
    never a tree descent (hashed positions) nor a Gibbs playout (move codes read the board)."""
    from ppalib.kernels import incremental, playout, search
    source = inspect.getsource(search.run_iterations.py_func)
    assert "play_playout(" not in source and source.count("play_random_playout(") == 1
    assert "game.play(spec, state, move)" in source
    for function in (playout.uniform, playout.uniform_coded, playout._move_by_move):
        assert "play_playout(" in inspect.getsource(function.py_func)
    for function in (playout.uniform, playout.random_playout):
        assert "play_random_playout(" in inspect.getsource(function.py_func)
    assert "play_playout" not in inspect.getsource(incremental)


def test_the_move_by_move_playout_is_the_template_default():
    """A game without ``play_random_playout`` gets the template's move-by-move loop."""
    assert playout_template.play_random_playout is playout_template._move_by_move
