"""The optional ``play_playout`` and ``play_random_playout`` of the game contract: a lighter move for uniform
playouts, and a whole uniform playout held in registers, whose playouts draw exactly the moves and reach exactly the
results of ``play`` (the same games, so committed results replay), and the only places the kernels use them."""
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
WHOLE_CASES = CASES + [("connect_four", 7, {}), ("connect_four", 4, {"rows": 4}), ("connect_four", 9, {"rows": 6}),
                       ("connect_four", 7, {"ply_cap": 20})]


def _compared(game):
    """The state's slots a whole playout must leave as the move-by-move one does: side, ply and result, and the
    bitboards (Breakthrough family, Connect Four: after the column heights)."""
    cells = game.spec[S_CELLS]
    header = [H_WINNER, H_TO_MOVE, H_PLY]
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
    compared = _compared(game)
    play = getattr(game.module, "play_playout", game.module.play)
    plies_seen, results = set(), set()
    for seed in range(80):
        start = game.initial_state()
        lead = make_rng(1000 + seed)
        for _ in range(seed % 7):  # a few moves in: either side to move, pieces gone
            move = game.module.random_move(game.spec, start, lead, out)
            if move < 0:
                break
            game.module.play(game.spec, start, move)
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
        for slot in compared:
            assert whole[slot] == by_move[slot], f"seed {seed}: slot {slot}"
        plies_seen.add(plies)
        results.add(int(by_move[H_WINNER]))
    assert len(plies_seen) >= 5  # playouts of many lengths, not one repeated
    assert len(results) >= 2


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
