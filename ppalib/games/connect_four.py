"""Connect Four: ``rows`` x ``size`` (columns, 4 <= size <= 9; rows 6 by default, option ``rows``); the standard
game is size 7.

Rules (seed 003, Soemers et al. 2019; the standard game):

* The board is ``rows`` x ``size`` cells, cell ``r * size + c``, row 0 at the bottom.  Player 0 moves first.
* A move is a column that is not full; the mover's disc lands on the lowest empty cell of that column.
* Four (or more) of the mover's discs in a row, column or diagonal win.  A full board without four in a row is a
  draw.  ``ply_cap=N`` (0 = none): a game reaching N plies is a draw.
* Ludii's default Connect Four is its "1D" board: seven stacks of height 6 (the same game, but spatial
  features then see seven sites, two directions and the top disc of each stack).  Ours is the 2-D board, where a
  move's ``to`` is the landing cell (the seed's recommendation), so features see the real neighbourhood.  The
  rules do not differ, so no option is needed; the board-graph difference is named in the notebook.
* The board size: ``size`` counts columns, because "7" is how the standard board is named by its moves; the
  number of rows is the option ``rows`` (default 6), with ``(rows + 1) * size <= 64`` (the bitboard below).

Moves are the column c (0 .. size - 1), listed from left to right.  ``move_to`` is the landing cell.  Move codes
(PPA/MAST): ``player * cells + landing cell``.  Context codes (PPAF/MASTF): ``256 * code + pattern``, pattern =
``sum_k 4^k v_k`` over the landing cell's four neighbours in the board graph's clockwise order (N, E, S, W), v = 0
empty, 1 the mover's disc, 2 the opponent's, 3 off the board (as Go's codes).

Engine (Tromp's layout): one uint64 bitboard per player in which column c occupies bits c * (rows + 1) ..
c * (rows + 1) + rows - 1, plus a zero guard bit on top of each column, and the height of each column.  The mover
has won when ``m & (m >> 2s) != 0`` with ``m = b & (b >> s)`` for one of the shifts s = 1 (vertical), rows + 1
(horizontal), rows and rows + 2 (the diagonals): the guard bits stop every line at the board's edge.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit, nowrap
from .._rng import index_of_u64, xoshiro_step
from ._bits import ONE, ZERO, nth_cell, popcount
from ._cells import (neighbour_pattern, orthos_table, zobrist_keys)
from ._common import (DRAW, H_BOARD, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, SPEC_HEADER, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_PLY_CAP, S_TABLES, S_VARIANT, S_ZOBRIST, apply_ply_cap, finish, uniform_pick)
from .graph import square_graph

MIN_SIZE = 4
MAX_SIZE = 9
DEFAULT_ROWS = 6
SIZE_NOTE = " columns (6 rows by default)"  # for ``python -m ppalib games``
DIRECTIONS = 4

# Spec tables from spec[S_TABLES]: rows, then the neighbour table (cells x 4, clockwise from North, -1 off).
T_ROWS = 0
T_ORTHOS = 1


def make_spec(size: int, variant: int = 0, rows: int = DEFAULT_ROWS) -> np.ndarray:
    """The spec of Connect Four with ``size`` columns and ``rows`` rows."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size={size!r} is out of range for connect_four: allowed {MIN_SIZE}..{MAX_SIZE} columns")
    cols = int(size)
    if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or not 1 <= rows or (rows + 1) * cols > 64:
        raise ValueError(f"rows={rows!r} is out of range for {cols} columns: allowed 1..{64 // cols - 1}")
    rows = int(rows)
    cells = rows * cols
    orthos = orthos_table(square_graph(rows, cols))
    zob = zobrist_keys(11, cols * 100 + rows, 2 * cells + 1)
    spec = np.zeros(SPEC_HEADER + zob.size + 1 + orthos.size, dtype=np.int64)
    spec[S_SIZE] = cols
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cols
    spec[S_NUM_CODES] = 2 * cells
    spec[S_NUM_CONTEXT_CODES] = 2 * cells * 256
    spec[S_STATE_LEN] = H_BOARD + cells + cols + 2  # board, column heights, the two bitboards
    spec[S_MAX_PLIES] = cells
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[2 * cells]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_ROWS] = rows
    spec[t + T_ORTHOS:t + T_ORTHOS + orthos.size] = orthos
    return spec


@noalloc_jit
def _rows(spec):
    return spec[nowrap(spec[S_TABLES] + T_ROWS)]


@noalloc_jit
def _heights(spec):
    return H_BOARD + spec[S_CELLS]


@noalloc_jit
def _bitboard(spec, player):
    return H_BOARD + spec[S_CELLS] + spec[S_SIZE] + player


@njit(cache=True)
def init_state(spec):
    """The start position: empty board, player 0 to move."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute heights, bitboards and hash from the board (after writing cells by hand: discs must rest on
    discs); side to move and result are left as they are."""
    cols = spec[S_SIZE]
    rows = _rows(spec)
    cells = spec[S_CELLS]
    h = np.int64(0)
    state[nowrap(_bitboard(spec, 0))] = 0
    state[nowrap(_bitboard(spec, 1))] = 0
    for c in range(cols):
        height = 0
        for r in range(rows):
            v = state[nowrap(H_BOARD + r * cols + c)]
            if v != 0:
                height = r + 1
                h ^= spec[nowrap(spec[S_ZOBRIST] + (v - 1) * cells + r * cols + c)]
                slot = _bitboard(spec, v - 1)
                state[nowrap(slot)] = np.int64(np.uint64(state[nowrap(slot)]) | (ONE << np.uint64(c * (rows + 1) + r)))
        state[nowrap(_heights(spec) + c)] = height
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h


@noalloc_jit
def legal_moves(spec, state, out):
    """The columns that are not full, left to right; 0 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    rows = _rows(spec)
    heights = _heights(spec)
    count = 0
    for c in range(spec[S_SIZE]):
        out[nowrap(count)] = c
        count += state[nowrap(heights + c)] < rows
    return count


@noalloc_jit
def _four(bits, rows):
    """Whether the bitboard ``bits`` holds four in a line (Tromp's shifts)."""
    for s in (1, rows + 1, rows, rows + 2):
        step = np.uint64(s)
        m = bits & (bits >> step)
        if m & (m >> (step + step)) != ZERO:
            return True
    return False


@noalloc_jit
def play(spec, state, move):
    """Drop the mover's disc into column ``move``, in place."""
    cols = spec[S_SIZE]
    rows = _rows(spec)
    player = state[H_TO_MOVE]
    r = state[nowrap(_heights(spec) + move)]
    cell = r * cols + move
    state[nowrap(_heights(spec) + move)] = r + 1
    state[nowrap(H_BOARD + cell)] = player + 1
    slot = _bitboard(spec, player)
    bits = np.uint64(state[nowrap(slot)]) | (ONE << np.uint64(move * (rows + 1) + r))
    state[nowrap(slot)] = np.int64(bits)
    state[H_HASH] ^= spec[nowrap(spec[S_ZOBRIST] + player * spec[S_CELLS] + cell)] ^ spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if _four(bits, rows):
        finish(spec, state, player)
    elif state[H_PLY] == spec[S_CELLS]:
        state[H_WINNER] = DRAW
    else:
        apply_ply_cap(spec, state)


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random column that is not full, or -1 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return -1
    return uniform_pick(rng, out, legal_moves(spec, state, out))  # -1 if none (play ends a full board first)


@noalloc_jit
def play_random_playout(spec, state, rng, out):
    """The game contract's optional whole uniform playout: ``random_move`` and ``play`` until the game ends, the same
    columns drawn, the same result and ``rng`` left as those calls leave it; returns the plies played.

    It runs in registers on the two bitboards (Tromp's layout, above) and the generator's four words, written back
    once at the end with the side to move and the ply count; the board array, the heights and the hash are left
    as they were (a playout's position is thrown away: its result is all that is read).  The k-th column that is
    not full, the draw of ``random_move``, is the k-th set bit of the columns' top cells left empty; the disc lands
    on the column's lowest empty bit, its filled cells plus the column's bottom bit.  Like ``play``'s full-board
    draw, it takes ``state[H_PLY]`` to count the discs on the board (``refresh`` does not set it: a hand-built
    position must)."""
    if state[H_WINNER] != ONGOING:
        return 0
    cols = spec[S_SIZE]
    rows = _rows(spec)
    cells = spec[S_CELLS]
    cap = spec[S_PLY_CAP]
    tops = ZERO  # the top cell of every column
    for c in range(cols):
        tops |= ONE << np.uint64(c * (rows + 1) + rows - 1)
    below_top = np.uint64(rows - 1)
    player = state[H_TO_MOVE]
    ply = state[H_PLY]
    own = np.uint64(state[nowrap(_bitboard(spec, player))])
    enemy = np.uint64(state[nowrap(_bitboard(spec, 1 - player))])
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    plies = 0
    winner = ONGOING
    while True:
        filled = own | enemy
        open_tops = tops & ~filled
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        top = ONE << np.uint64(nth_cell(open_tops, index_of_u64(word, popcount(open_tops))))
        bottom = top >> below_top
        own |= (filled & ((top << ONE) - bottom)) + bottom  # the column's lowest empty cell
        ply += 1
        plies += 1
        if _four(own, rows):
            winner = player
        elif ply == cells:
            winner = DRAW
        elif cap > 0 and ply >= cap:
            winner = DRAW
        player = 1 - player
        own, enemy = enemy, own
        if winner != ONGOING:
            break
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    state[nowrap(_bitboard(spec, player))] = np.int64(own)
    state[nowrap(_bitboard(spec, 1 - player))] = np.int64(enemy)
    state[H_TO_MOVE] = player
    state[H_PLY] = ply
    finish(spec, state, winner)  # (a draw stays one)
    return plies


@noalloc_jit
def move_to(spec, state, move):
    """The landing cell of the disc dropped into column ``move``."""
    return state[nowrap(_heights(spec) + move)] * spec[S_SIZE] + move


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code (mover and landing cell); with ``with_context``, times 256 plus the neighbours' pattern."""
    player = state[H_TO_MOVE]
    cell = move_to(spec, state, move)
    code = player * spec[S_CELLS] + cell
    if not with_context:
        return code
    return 256 * code + neighbour_pattern(spec, state, H_BOARD, spec[S_TABLES] + T_ORTHOS, DIRECTIONS, cell,
                                          player)


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for a disc of that player on ``cell``, -1 for an empty cell."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """-1: Connect Four moves are placements."""
    return -1


def board_graph(spec: np.ndarray):
    """The rows x columns square board (``graph.square_graph``), row 0 at the bottom."""
    return square_graph(int(_rows(spec)), int(spec[S_SIZE]))


def board_label(spec: np.ndarray) -> str:
    """``rows x columns`` (e.g. ``6x7``), for the command line."""
    return f"{int(_rows(spec))}x{int(spec[S_SIZE])}"


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """The column as a letter (``a`` = column 0)."""
    return chr(ord('a') + int(move))


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """The board, row 0 at the bottom: ``x`` player 0, ``o`` player 1."""
    cols = int(spec[S_SIZE])
    glyph = ".xo"
    return "\n".join("".join(glyph[state[H_BOARD + r * cols + c]] for c in range(cols))
                     for r in range(int(_rows(spec)) - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board and the side to move."""
    scratch = state.copy()
    refresh(spec, scratch)
    return int(scratch[H_HASH])
