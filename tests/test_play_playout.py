"""The optional ``play_playout`` of the game contract: a lighter move for uniform playouts whose playouts draw
exactly the moves and reach exactly the results of ``play`` (the same games, so committed results replay), and
the only place the kernels use it."""
import inspect

import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.games import GAMES, contract, make_game
from ppalib.games._common import H_WINNER

#: Every game module with the hook, at the sizes and options that take each of its code paths (bitboards at <= 64
#: cells, the scan engine beyond; misere results; knight moves; the GGP reading of Knightthrough; a ply cap).
CASES = [("breakthrough", 8, {}), ("breakthrough", 5, {}), ("breakthrough", 9, {}), ("misere_breakthrough", 8, {}),
         ("knightthrough", 8, {}), ("knightthrough", 8, {"ggp_rules": 1}), ("knightthrough", 9, {"ggp_rules": 1}),
         ("misere_knightthrough", 6, {}), ("breakthrough", 8, {"ply_cap": 30})]


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


def test_play_playout_keeps_the_contracts_parameters_where_a_game_defines_it():
    modules = {GAMES[n].module for n in GAMES}
    having = {m.__name__ for m in modules if hasattr(m, "play_playout")}
    assert having == {"ppalib.games.breakthrough"}            # the games CASES covers
    for module in modules:
        if hasattr(module, "play_playout"):
            ours = list(inspect.signature(module.play_playout.py_func).parameters)
            assert ours == list(inspect.signature(contract.play_playout).parameters)


def test_tree_moves_and_learned_playouts_keep_play():
    """``play_playout`` may leave a stale hash and board: only uniform playouts use it, never a tree descent (hashed
    positions) nor a Gibbs playout (move codes read the board)."""
    from ppalib.kernels import incremental, playout, search
    source = inspect.getsource(search.run_iterations.py_func)
    assert source.count("play_playout(") == 1 and "game.play(spec, state, move)" in source
    for function in (playout.uniform, playout.uniform_coded, playout.random_playout):
        assert "play_playout(" in inspect.getsource(function.py_func)
    assert "play_playout" not in inspect.getsource(incremental)
