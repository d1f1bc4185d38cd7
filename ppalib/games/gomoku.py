"""Gomoku on n x n intersections (5 <= n <= 19; the standard and the paper's board is 15x15).

Rules (seed 003, Soemers et al. 2019; Ludii's ``Gomoku.lud`` with its default "Standard" end rule):

* The board starts empty; player 0 (Black) moves first; a move puts a stone of the mover on any empty
  intersection (no opening restriction, no swap: Ludii's defaults).
* The mover wins with a line of *exactly* five of its stones in a row, column or diagonal through the stone just
  played (Ludii's ``(is Line 5 All exact:true)``, and standard Gomoku): a line of six or more (an overline) does
  not win.  Option ``overline_wins=1`` makes five *or more* win (Ludii's "Free-style" option, and OpenSpiel's
  ``gomoku``, against which the tests compare this option).
* A full board without a winning line is a draw.  ``ply_cap=N`` (0 = none): a game reaching N plies is a draw.

Moves: the intersection ``r * n + c``, listed by increasing cell.  Move codes (PPA/MAST): ``player * n^2 +
cell``.  Context codes (PPAF/MASTF): ``256 * code + pattern``, pattern = ``sum_k 4^k v_k`` over the four
orthogonal neighbours in the board graph's clockwise order (N, E, S, W), v = 0 empty, 1 the mover's stone,
2 the opponent's, 3 off the board (as Go's codes).

Engine: the board, and the list of empty cells (``_cells``) for one-draw uniform ``random_move``.  Only the lines
through the last stone can be new, so ``play`` counts the mover's stones on both sides of it along the four axes
(at most five each way, enough to tell five from more) and nothing else.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import inline_jit, noalloc_jit, nowrap
from .._rng import random_index
from ._cells import (check_flag, list_empty_cells, neighbour_pattern, orthos_table, placement_dirty, rebuild_empties, remove_empty,
                     zobrist_keys)
from ._common import before_play_remembers_nothing
from ._common import (DRAW, H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, SPEC_HEADER, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, apply_ply_cap, finish)
from .graph import square_graph

MIN_SIZE = 5
MAX_SIZE = 19
DIRECTIONS = 4
LINE = 5

# Spec tables from spec[S_TABLES]: the overline flag, then the neighbour table (cells x 4, clockwise, -1 off).
T_OVERLINE = 0
T_ORTHOS = 1


def make_spec(size: int, variant: int = 0, overline_wins: int = 0) -> np.ndarray:
    """The spec of Gomoku on ``size`` x ``size`` intersections; ``overline_wins`` (0/1): six or more also win."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size={size!r} is out of range for gomoku: allowed {MIN_SIZE}..{MAX_SIZE}")
    overline_wins = check_flag("overline_wins", overline_wins)
    n = int(size)
    cells = n * n
    orthos = orthos_table(square_graph(n, n))
    zob = zobrist_keys(12, n, 2 * cells + 1)
    spec = np.zeros(SPEC_HEADER + zob.size + 1 + orthos.size, dtype=np.int64)
    spec[S_SIZE] = n
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells
    spec[S_NUM_CODES] = 2 * cells
    spec[S_NUM_CONTEXT_CODES] = 2 * cells * 256
    spec[S_STATE_LEN] = H_BOARD + 3 * cells  # board, empty-cell list, index of each cell in that list
    spec[S_MAX_PLIES] = cells
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[2 * cells]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_OVERLINE] = overline_wins
    spec[t + T_ORTHOS:t + T_ORTHOS + orthos.size] = orthos
    return spec


@noalloc_jit
def _empties(spec):
    return H_BOARD + spec[S_CELLS]


@noalloc_jit
def _where(spec):
    return H_BOARD + 2 * spec[S_CELLS]


@njit(cache=True)
def init_state(spec):
    """The start position: empty board, player 0 (Black) to move."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute the hash and the empty-cell list from the board; side to move and result are left as they are."""
    cells = spec[S_CELLS]
    h = np.int64(0)
    for cell in range(cells):
        v = state[nowrap(H_BOARD + cell)]
        if v != 0:
            h ^= spec[nowrap(spec[S_ZOBRIST] + (v - 1) * cells + cell)]
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h
    rebuild_empties(state, H_BOARD, cells, _empties(spec), _where(spec), H_COUNT0)


@noalloc_jit
def legal_moves(spec, state, out):
    """The empty intersections in increasing order; 0 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    return list_empty_cells(state, H_BOARD, spec[S_CELLS], out)


@inline_jit
def _run(state, n, r, c, dr, dc, own):
    """The mover's stones next to (r, c) in direction (dr, dc), counted up to LINE."""
    count = 0
    r += dr
    c += dc
    while count < LINE and 0 <= r < n and 0 <= c < n and state[nowrap(H_BOARD + r * n + c)] == own:
        count += 1
        r += dr
        c += dc
    return count


@inline_jit
def _wins(spec, state, cell, own):
    """Whether the stone just put on ``cell`` makes a winning line (exactly five; five or more with the option)."""
    n = spec[S_SIZE]
    r = cell // n
    c = cell % n
    overline = spec[nowrap(spec[S_TABLES] + T_OVERLINE)] != 0
    for axis in range(4):
        dr = 0 if axis == 0 else 1
        dc = 1 if axis == 0 else (0 if axis == 1 else (1 if axis == 2 else -1))
        length = 1 + _run(state, n, r, c, dr, dc, own) + _run(state, n, r, c, -dr, -dc, own)
        if length == LINE or (overline and length > LINE):
            return True
    return False


@noalloc_jit
def play(spec, state, move):
    """Put the mover's stone on ``move``, in place (``_play``)."""
    _play(spec, state, move)


@inline_jit
def _play(spec, state, move):
    """``play``'s body, inlined into engine 2's playout loop (the contract's optional ``play_inlined``)."""
    player = state[H_TO_MOVE]
    state[nowrap(H_BOARD + move)] = player + 1
    remove_empty(state, _empties(spec), _where(spec), H_COUNT0, move)
    state[H_HASH] ^= spec[nowrap(spec[S_ZOBRIST] + player * spec[S_CELLS] + move)] ^ spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if _wins(spec, state, move, player + 1):
        finish(spec, state, player)
    elif state[H_COUNT0] == 0:
        state[H_WINNER] = DRAW
    else:
        apply_ply_cap(spec, state)


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random empty intersection (one draw from the empty-cell list), or -1 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return -1
    return state[nowrap(_empties(spec) + random_index(rng, state[H_COUNT0]))]


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code (mover and cell); with ``with_context``, times 256 plus the four neighbours' pattern."""
    return _code_of(spec, state, move, state[H_TO_MOVE], with_context)


@noalloc_jit
def _code_of(spec, state, move, player, with_context):
    """``move_code`` for ``player``."""
    code = player * spec[S_CELLS] + move
    if not with_context:
        return code
    return 256 * code + neighbour_pattern(spec, state, H_BOARD, spec[S_TABLES] + T_ORTHOS, DIRECTIONS, move,
                                          player)


# ---- the incremental legal set (``ppalib.kernels.incremental``): a slot per intersection ------------------------
@noalloc_jit
def num_slots(spec):
    """One slot per intersection."""
    return spec[S_CELLS]


@noalloc_jit
def slot_code(spec, state, slot, player, with_context):
    """The code of a stone on ``slot`` for ``player`` if it is empty, else -1."""
    if state[nowrap(H_BOARD + slot)] != 0:
        return -1
    return _code_of(spec, state, slot, player, with_context)


before_play = before_play_remembers_nothing  # a placement changes its own cell
play_inlined = _play


@inline_jit
def dirty_slots(spec, state, move, with_context, memo, out):
    """The cell played, and with ``with_context`` its empty neighbours."""
    return placement_dirty(spec, state, H_BOARD, spec[S_TABLES] + T_ORTHOS, DIRECTIONS, move, with_context, out)


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for a stone of that player on ``cell``, -1 for an empty intersection."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """-1: Gomoku moves are placements."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """The intersection the stone is put on."""
    return move


def board_graph(spec: np.ndarray):
    """The n x n intersections as a square graph (``graph.square_graph``), row 0 at the bottom."""
    n = int(spec[S_SIZE])
    return square_graph(n, n)


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """Column letter and row number from 1 (``a1`` = cell 0)."""
    n = int(spec[S_SIZE])
    return f"{chr(ord('a') + move % n)}{move // n + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """The board, row n - 1 on top: ``x`` Black (player 0), ``o`` White."""
    n = int(spec[S_SIZE])
    glyph = ".xo"
    return "\n".join("".join(glyph[state[H_BOARD + r * n + c]] for c in range(n)) for r in range(n - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board and the side to move."""
    scratch = state.copy()
    refresh(spec, scratch)
    return int(scratch[H_HASH])
