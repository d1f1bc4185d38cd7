"""``nowrap`` indices are never negative: every agent kind plays whole games with numba's bounds checking on.

``ppalib._noalloc.nowrap`` casts an index to unsigned so that numba skips its negative-index wrap; a negative
index would then read out of bounds instead of wrapping.  Compiled with ``NUMBA_BOUNDSCHECK=1`` in a fresh process
(its own cache directory, so no unchecked code is loaded), such an index becomes a huge unsigned one and raises
``IndexError``.  The first test shows the check is on and catches exactly that; the second plays whole games at
Go 5x5 (``games/go.py``, and every search kernel) with every agent kind and both playout engines, at Fanorona 5x5
(the game with the most ``nowrap`` indices) with UCT, PPA engines 1 and 2 and PPAF engine 2, which call every game
function the kernels use, and at Domineering 5x5 with PPA engine 2 alone (its masked playout, the one kernel only
Domineering runs).  A game's kernels serve every agent configuration (compiled once: after UCT's first search at
Go 5x5 the other nine compiled nothing, 2026-12-07); the subsets keep the bounds-checked play short.  The same
script over every game module using ``nowrap`` (Go, Atarigo, Nogo, Hex, Yavalath, Gomoku, Fanorona, Domineering)
passed when it was introduced (session log in ``data/bench/nowrap_2026-11-28_ab.txt``).

The Go process also replays a crash the bounds checks found: Go 4x4 is full of capture cycles, so positions repeat,
and one repeated at Go's ply cap is over although an entry with its hash exists.  A descent that trusted the entry
walked past the end of its path arrays (heap corruption in a Table 1 run).  UCT only: the descent is the one search
loop's, shared by every agent.  It runs in the same process as Go's whole games so that the bounds-checked kernels
are compiled once (as a test of its own it compiled them again: 100 s of the suite's time).
"""
import os
import subprocess
import sys

import pytest

PLAY_WHOLE_GAMES = """
from ppalib.games import make_game
from ppalib.agents import search, make_agent
from ppalib._rng import make_rng
EVERY_AGENT = [("uct", {}), ("ppa", {"playout_engine": 1}), ("ppa", {"playout_engine": 2}),
               ("ppaf", {"playout_engine": 2}), ("mast", {"playout_engine": 2}), ("mastf", {}),
               ("rave", {"adaptive": True}), ("grave", {}), ("puct", {}),
               ("ppa", {"playout_engine": 2, "grave": True, "tree_reuse": True})]
AGENTS = [EVERY_AGENT[index] for index in AGENT_INDICES]
for name, size in GAMES:
    game = make_game(name, size)
    for kind, params in AGENTS:
        state, rng = game.initial_state(), make_rng(1)
        while not game.is_over(state):
            state = game.play(state, search(game, state, make_agent(kind, 150, **params), rng))
print("whole games done")
"""

PLY_CAP_REPEATS = """
game = make_game("go", 4)
for seed in range(3):
    state, rng = game.initial_state(), make_rng(seed)
    while not game.is_over(state):
        state = game.play(state, search(game, state, make_agent("uct", 2000), rng))
print("ply cap done")
"""

NEGATIVE_INDEX = """
import numpy as np
from numba import njit
from ppalib._noalloc import nowrap

@njit(_nrt=False)  # noalloc_jit without the on-disk cache, which needs a source file
def read(values, index):
    return values[nowrap(index)]

values = np.arange(4)
assert read(values, 3) == 3
try:
    read(values, -1)
except IndexError:
    print("caught")
"""


def _run_checked(script, cache):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", PPALIB_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="session")
def checked_cache(tmp_path_factory):
    """One cache of bounds-checked kernels for the games below, never the suite's, shared by pytest-xdist's workers
    (the parent of a worker's temporary folder is the run's): the game-free kernels compile once for all three, by
    whichever process needs them first (``_specialise._compile_once_across_processes``)."""
    run = tmp_path_factory.getbasetemp()
    cache = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "boundschecked_cache"
    cache.mkdir(exist_ok=True)
    return cache


def test_bounds_checking_catches_a_negative_index_passed_through_nowrap(tmp_path):
    result = _run_checked(NEGATIVE_INDEX, tmp_path)
    assert result.returncode == 0 and "caught" in result.stdout, result.stderr[-2000:]


# Go's process also plays the ply-cap repeats (module docstring); each part prints its line when it ends.  The agents
# are indices into EVERY_AGENT: at Fanorona UCT, PPA engines 1 and 2 and PPAF engine 2; at Domineering PPA engine 2,
# which plays there its masked playout (``incremental.masked_playout``).
@pytest.mark.parametrize("game, agent_indices, then", [("go", list(range(10)), PLY_CAP_REPEATS),
                                                      ("fanorona", [0, 1, 2, 3], ""), ("domineering", [2], "")])
def test_agents_play_whole_games_with_bounds_checking_on(checked_cache, game, agent_indices, then):
    result = _run_checked(f"GAMES = [({game!r}, 5)]\nAGENT_INDICES = {agent_indices}\n" + PLAY_WHOLE_GAMES + then,
                          checked_cache)
    assert result.returncode == 0 and "whole games done" in result.stdout, result.stderr[-2000:]
    assert not then or "ply cap done" in result.stdout, result.stderr[-2000:]
