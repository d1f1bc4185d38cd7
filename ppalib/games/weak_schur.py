"""The weak Schur problem, a single-player benchmark for nested Monte Carlo search and NRPA.

Place the integers 1, 2, 3, ... in turn into one of ``parts`` parts so that no part contains x, y and x + y
with x < y ("weakly sum-free").  The score is the number of integers placed when no part can take the next
one.  The best scores are known for small ``parts``: WS(2) = 8, WS(3) = 23, WS(4) = 66, and WS(5) >= 196
(Eliahou, Fonlupt, Fromentin, Marion-Poty, Robilliard, Teytaud, "Investigating Monte-Carlo methods on the weak
Schur problem", EvoCOP 2013, where nested Monte Carlo search is applied to it).

Same function set as the board games, single-player: ``make_spec(parts, variant)``, ``init_state``,
``legal_moves`` (the parts that can take the next integer, by increasing part; 0 when the game is over),
``play``, ``move_code`` (``integer * parts + part``, a code per (integer, part), as NRPA codes moves) and
``score``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit, nowrap
from ._common import (H_BOARD, H_PLY, H_WINNER, ONGOING, S_CELLS, S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES,
                      S_NUM_CONTEXT_CODES, S_SIZE, S_STATE_LEN, SPEC_HEADER)

MIN_PARTS = 1
MAX_PARTS = 6
MAX_INTEGER = 600  # above WS(6) >= 581


def make_spec(parts: int, variant: int = 0) -> np.ndarray:
    spec = np.zeros(SPEC_HEADER, dtype=np.int64)
    spec[S_SIZE] = parts
    spec[S_CELLS] = MAX_INTEGER
    spec[S_MAX_MOVES] = parts
    spec[S_NUM_CODES] = (MAX_INTEGER + 1) * parts
    spec[S_NUM_CONTEXT_CODES] = spec[S_NUM_CODES]
    spec[S_STATE_LEN] = H_BOARD + MAX_INTEGER + 1  # state[H_BOARD + i]: part of integer i (1-based), or -1
    spec[S_MAX_PLIES] = MAX_INTEGER
    return spec


@njit(cache=True)
def init_state(spec):
    state = np.full(spec[S_STATE_LEN], -1, dtype=np.int64)
    state[:H_BOARD] = 0
    state[H_WINNER] = ONGOING
    return state


@noalloc_jit
def _fits(state, integer, part):
    """Whether ``integer`` can join ``part``: no x < y in the part with x + y == integer."""
    for x in range(1, (integer + 1) // 2):
        if state[nowrap(H_BOARD + x)] == part and state[nowrap(H_BOARD + integer - x)] == part:
            return False
    return True


@noalloc_jit
def legal_moves(spec, state, out):
    if state[H_WINNER] != ONGOING:
        return 0
    integer = state[H_PLY] + 1
    count = 0
    if integer <= MAX_INTEGER:
        for part in range(spec[S_SIZE]):
            if _fits(state, integer, part):
                out[nowrap(count)] = part
                count += 1
    if count == 0:
        state[H_WINNER] = 0  # over; the single player "wins" with the score reached
    return count


@noalloc_jit
def play(spec, state, move):
    integer = state[H_PLY] + 1
    state[nowrap(H_BOARD + integer)] = move
    state[H_PLY] = integer


@noalloc_jit
def move_code(spec, state, move, with_context):
    return (state[H_PLY] + 1) * spec[S_SIZE] + move


@noalloc_jit
def score(spec, state):
    return state[H_PLY]


def is_weakly_sum_free(parts_of: list[int], parts: int) -> bool:
    """Independent check of a placement ``parts_of[i - 1]`` = part of integer i (plain Python)."""
    for part in range(parts):
        members = {i + 1 for i, p in enumerate(parts_of) if p == part}
        if any(x < y and x + y in members for x in members for y in members):
            return False
    return True


# ---- no board: what the spatial-feature functions say (the contract's functions, defined for every game) ----------
@noalloc_jit
def cell_owner(spec, state, cell):
    """-1: the parts are not a board; no spatial feature sees an owned cell."""
    return -1


@noalloc_jit
def move_from(spec, state, move):
    """-1: placing an integer in a part is no move on a board."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """-1: placing an integer in a part is no move on a board."""
    return -1


def board_graph(spec: np.ndarray):
    """The weak Schur problem has no board, so no board graph: raises ValueError."""
    raise ValueError("the weak Schur problem has no board: spatial features (board_graph) apply to board games only")
