"""Othello (Reversi with the standard start) on an n x n board, n even, 4 <= n <= 16 (the standard game is 8x8).

Rules (seed 003, Soemers et al. 2019; the standard game, as OpenSpiel's ``othello``, against which it is tested):

* Start: four discs in the centre, Black (player 0) on the centre cells of rows n/2 - 1 and n/2 that lie on the
  "d5 / e4" diagonal, White on the other two, as on the standard board (``render`` shows it with rank 1 on top).
  Black moves first.
* A move puts a disc of the mover on an empty cell such that, in at least one of the eight directions, a
  contiguous line of opponent discs runs from the new disc to a disc of the mover; every such line is flipped to
  the mover's colour.
* A player with no such move passes; the pass is an explicit move (``PASS = n^2``), the only legal move then, and
  it is listed only when the opponent can move (as OpenSpiel's pass action).  When neither player can move (full
  board included) the game ends: more discs wins, equal counts draw.  ``ply_cap=N`` (0 = none): a game reaching N
  plies (passes count) without having ended is a draw.
* Discs belong to a player (owner-coloured), so ``cell_owner`` and spatial features see friend and enemy.  Ludii's
  ``Reversi.lud`` models discs as neutral pieces with a colour state, so that its features see only empty /
  occupied; we do not reproduce that (the seed's recommendation), and say so in the notebook.  Ludii also places
  the start discs mirrored (equivalent by symmetry).

Cells ``r * n + c`` with row 0 at the bottom; ``move_to_str`` writes standard Othello coordinates (column letter,
rank from the top: cell ``(n - 1) * n + 3`` is ``d1``), so Black's first moves are d3, c4, f5, e6.  Moves are
listed by increasing cell.  Move codes (PPA/MAST): ``player * (n^2 + 1) + move``.  Context codes (PPAF/MASTF):
``256 * code + pattern``, pattern = ``sum_k 4^k v_k`` over the four orthogonal neighbours in the board graph's
clockwise order (N, E, S, W), v = 0 empty, 1 the mover's disc, 2 the opponent's, 3 off the board (as Go's
codes); PASS's pattern is 0.

Engine: on boards of at most 64 cells (4x4, 6x6, 8x8) one uint64 bitboard per player.  The legal moves are, for
each of the eight directions d with cell offset s_d and the mask of cells whose d-neighbour is on the board,
``shift(x) & empty`` after ``x = shift(own) & opp`` grown n - 3 times by ``x |= shift(x) & opp``; the flips of a
move are the opponent lines walked from the new disc that end on an own disc.  At 8x8 the same code is written
with constant shifts (``_moves8``, ``_flips8``).  ``random_move`` takes the i-th set bit of the move bitboard for
a uniform i.  Larger boards use the same rules cell by cell (``_scan`` functions);
tests check that both engines agree on the bitboard sizes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit, nowrap
from .._rng import random_index
from ._bits import BITBOARD_MAX_CELLS, ONE, ZERO, lowest_cell, nth_cell, popcount
from ._cells import (neighbour_pattern, orthos_table, zobrist_keys)
from ._common import (DRAW, H_BOARD, H_COUNT0, H_COUNT1, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, SPEC_HEADER,
                      S_CELLS, S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE,
                      S_STATE_LEN, S_TABLES, S_VARIANT, S_ZOBRIST, at_ply_cap)
from .graph import square_graph

MIN_SIZE = 4
MAX_SIZE = 16
SIZE_NOTE = " (even)"  # for ``python -m ppalib games``
DIRECTIONS = 4
COMPASS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # (drow, dcol), N first, clockwise

# Spec tables from spec[S_TABLES]: bitboard flag, board mask, 8 x (drow, dcol), 8 x (cell offset, source mask),
# then the neighbour table (cells x 4, clockwise from North, -1 off the board).
T_BITBOARD = 0
T_MASK = 1
T_COMPASS = 2
T_SHIFTS = T_COMPASS + 16
T_ORTHOS = T_SHIFTS + 16


def make_spec(size: int, variant: int = 0) -> np.ndarray:
    """The spec of Othello on the ``size`` x ``size`` board (size even)."""
    if (isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not MIN_SIZE <= size <= MAX_SIZE
            or size % 2):
        raise ValueError(f"size={size!r} is out of range for othello: allowed even sizes {MIN_SIZE}..{MAX_SIZE}")
    n = int(size)
    cells = n * n
    bitboard = cells <= BITBOARD_MAX_CELLS
    orthos = orthos_table(square_graph(n, n))
    zob = zobrist_keys(13, n, 2 * cells + 1)
    spec = np.zeros(SPEC_HEADER + zob.size + T_ORTHOS + orthos.size, dtype=np.int64)
    spec[S_SIZE] = n
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells
    spec[S_NUM_CODES] = 2 * (cells + 1)
    spec[S_NUM_CONTEXT_CODES] = 2 * (cells + 1) * 256
    spec[S_STATE_LEN] = H_BOARD + cells + 2  # board, then the two bitboards (used at <= 64 cells)
    # At most cells - 4 placements; a pass is always followed by a placement, so passes <= placements + 1.
    spec[S_MAX_PLIES] = 2 * (cells - 4) + 1
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[2 * cells]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_BITBOARD] = 1 if bitboard else 0
    if bitboard:
        spec[t + T_MASK] = np.uint64((1 << cells) - 1).astype(np.int64)
    for d, (dr, dc) in enumerate(COMPASS):
        spec[t + T_COMPASS + 2 * d] = dr
        spec[t + T_COMPASS + 2 * d + 1] = dc
        source = sum(1 << cell for cell in range(cells)
                     if 0 <= cell // n + dr < n and 0 <= cell % n + dc < n) if bitboard else 0
        spec[t + T_SHIFTS + 2 * d] = dr * n + dc
        spec[t + T_SHIFTS + 2 * d + 1] = np.uint64(source).astype(np.int64)
    spec[t + T_ORTHOS:t + T_ORTHOS + orthos.size] = orthos
    return spec


@noalloc_jit
def _bitboard_engine(spec):
    return spec[nowrap(spec[S_TABLES] + T_BITBOARD)] != 0


@njit(cache=True)
def init_state(spec):
    """The standard start, Black (player 0) to move."""
    n = spec[S_SIZE]
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    low = n // 2 - 1
    state[nowrap(H_BOARD + low * n + low)] = 1
    state[nowrap(H_BOARD + (low + 1) * n + low + 1)] = 1
    state[nowrap(H_BOARD + low * n + low + 1)] = 2
    state[nowrap(H_BOARD + (low + 1) * n + low)] = 2
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute disc counts, bitboards and hash from the board; side to move and result are left as they are."""
    cells = spec[S_CELLS]
    h = np.int64(0)
    b0 = ZERO
    b1 = ZERO
    state[H_COUNT0] = 0
    state[H_COUNT1] = 0
    for cell in range(cells):
        v = state[nowrap(H_BOARD + cell)]
        if v != 0:
            h ^= spec[nowrap(spec[S_ZOBRIST] + (v - 1) * cells + cell)]
            state[nowrap(H_COUNT0 + v - 1)] += 1
            if cells <= 64:
                if v == 1:
                    b0 |= ONE << np.uint64(cell)
                else:
                    b1 |= ONE << np.uint64(cell)
    state[nowrap(H_BOARD + cells)] = np.int64(b0)
    state[nowrap(H_BOARD + cells + 1)] = np.int64(b1)
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h


# ---- bitboard engine (<= 64 cells) -------------------------------------------------------------------------------
@noalloc_jit
def _step(spec, bits, d):
    """``bits`` moved one cell in direction d (bits whose neighbour is off the board drop out)."""
    t = spec[S_TABLES] + T_SHIFTS + 2 * d
    s = spec[nowrap(t)]
    x = bits & np.uint64(spec[nowrap(t + 1)])
    if s > 0:
        return x << np.uint64(s)
    return x >> np.uint64(-s)


@noalloc_jit
def _moves_bits(spec, own, opp):
    """Bitboard of the cells where the owner of ``own`` can play."""
    if spec[S_SIZE] == 8:
        return _moves8(own, opp)
    grow = spec[S_SIZE] - 3
    empty = ~(own | opp) & np.uint64(spec[nowrap(spec[S_TABLES] + T_MASK)])
    moves = ZERO
    for d in range(8):
        x = _step(spec, own, d) & opp
        for _ in range(grow):
            x |= _step(spec, x, d) & opp
        moves |= _step(spec, x, d) & empty
    return moves


@noalloc_jit
def _flips_bits(spec, own, opp, bit):
    """Bitboard of the discs a disc of the owner of ``own`` put on ``bit`` flips."""
    if spec[S_SIZE] == 8:
        return _flips8(own, opp, bit)
    flips = ZERO
    for d in range(8):
        x = ZERO
        y = _step(spec, bit, d)
        while y & opp:
            x |= y
            y = _step(spec, y, d)
        if y & own:
            flips |= x
    return flips


# 8x8 with constant shifts (the same rules; LLVM folds the constants): bit r * 8 + c, so +-1 moves along a row
# (masked against wrapping into the next row), +-8 along a column, +-7 and +-9 along the diagonals.
_NOT_COL0 = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_COL7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@noalloc_jit
def _up(x, s, keep):
    """``x`` moved s bits up (to larger cells), keeping the cells of ``keep`` (wrap-around guard)."""
    return (x << np.uint64(s)) & keep


@noalloc_jit
def _down(x, s, keep):
    return (x >> np.uint64(s)) & keep


@noalloc_jit
def _line_up(own, opp, empty, s, keep):
    """Empty cells that close, going up by s, a line of ``opp`` discs started by an ``own`` disc."""
    o = opp & keep
    x = _up(own, s, o)
    x |= _up(x, s, o)
    x |= _up(x, s, o)
    x |= _up(x, s, o)
    x |= _up(x, s, o)
    x |= _up(x, s, o)
    return _up(x, s, empty & keep)


@noalloc_jit
def _line_down(own, opp, empty, s, keep):
    o = opp & keep
    x = _down(own, s, o)
    x |= _down(x, s, o)
    x |= _down(x, s, o)
    x |= _down(x, s, o)
    x |= _down(x, s, o)
    x |= _down(x, s, o)
    return _down(x, s, empty & keep)


@noalloc_jit
def _moves8(own, opp):
    empty = ~(own | opp)
    return (_line_up(own, opp, empty, 1, _NOT_COL0) | _line_down(own, opp, empty, 1, _NOT_COL7)
            | _line_up(own, opp, empty, 8, _ALL) | _line_down(own, opp, empty, 8, _ALL)
            | _line_up(own, opp, empty, 9, _NOT_COL0) | _line_down(own, opp, empty, 9, _NOT_COL7)
            | _line_up(own, opp, empty, 7, _NOT_COL7) | _line_down(own, opp, empty, 7, _NOT_COL0))


@noalloc_jit
def _ray_up(own, opp, bit, s, keep):
    """The ``opp`` discs flipped going up by s from ``bit``: the run of them that an ``own`` disc closes."""
    x = ZERO
    y = _up(bit, s, keep)
    while y & opp:
        x |= y
        y = _up(y, s, keep)
    return x if y & own else ZERO


@noalloc_jit
def _ray_down(own, opp, bit, s, keep):
    x = ZERO
    y = _down(bit, s, keep)
    while y & opp:
        x |= y
        y = _down(y, s, keep)
    return x if y & own else ZERO


@noalloc_jit
def _flips8(own, opp, bit):
    return (_ray_up(own, opp, bit, 1, _NOT_COL0) | _ray_down(own, opp, bit, 1, _NOT_COL7)
            | _ray_up(own, opp, bit, 8, _ALL) | _ray_down(own, opp, bit, 8, _ALL)
            | _ray_up(own, opp, bit, 9, _NOT_COL0) | _ray_down(own, opp, bit, 9, _NOT_COL7)
            | _ray_up(own, opp, bit, 7, _NOT_COL7) | _ray_down(own, opp, bit, 7, _NOT_COL0))


@noalloc_jit
def _own_opp(spec, state, player):
    cells = spec[S_CELLS]
    return np.uint64(state[nowrap(H_BOARD + cells + player)]), np.uint64(state[nowrap(H_BOARD + cells + 1 - player)])


# ---- cell-by-cell engine (any size) ------------------------------------------------------------------------------
@noalloc_jit
def _brackets(spec, state, cell, d, own):
    """How many opponent discs a disc of ``own`` (1 or 2) on ``cell`` brackets in direction d (0 if none)."""
    n = spec[S_SIZE]
    t = spec[S_TABLES] + T_COMPASS + 2 * d
    dr = spec[nowrap(t)]
    dc = spec[nowrap(t + 1)]
    r = cell // n + dr
    c = cell % n + dc
    count = 0
    while 0 <= r < n and 0 <= c < n:
        v = state[nowrap(H_BOARD + r * n + c)]
        if v == own:
            return count
        if v == 0:
            return 0
        count += 1
        r += dr
        c += dc
    return 0


@noalloc_jit
def _legal_at(spec, state, cell, own):
    """Whether a disc of ``own`` (1 or 2) may go on the empty ``cell`` (cell by cell)."""
    for d in range(8):
        if _brackets(spec, state, cell, d, own) > 0:
            return True
    return False


@noalloc_jit
def _legal_scan(spec, state, player, out):
    """The legal placements of ``player`` by increasing cell (cell by cell)."""
    count = 0
    for cell in range(spec[S_CELLS]):
        if state[nowrap(H_BOARD + cell)] == 0 and _legal_at(spec, state, cell, player + 1):
            out[nowrap(count)] = cell
            count += 1
    return count


@noalloc_jit
def _any_move_scan(spec, state, player):
    """Whether ``player`` has a legal placement (cell by cell)."""
    for cell in range(spec[S_CELLS]):
        if state[nowrap(H_BOARD + cell)] == 0 and _legal_at(spec, state, cell, player + 1):
            return True
    return False


# ---- the contract ------------------------------------------------------------------------------------------------
@noalloc_jit
def _finish_by_count(state):
    a = state[H_COUNT0]
    b = state[H_COUNT1]
    state[H_WINNER] = 0 if a > b else (1 if b > a else DRAW)


@noalloc_jit
def _can_move(spec, state, player):
    if _bitboard_engine(spec):
        own, opp = _own_opp(spec, state, player)
        return _moves_bits(spec, own, opp) != ZERO
    return _any_move_scan(spec, state, player)


@noalloc_jit
def legal_moves(spec, state, out):
    """The placements by increasing cell; [PASS] when only the opponent can move; 0 (game finished by disc
    count) when neither can."""
    if state[H_WINNER] != ONGOING:
        return 0
    player = state[H_TO_MOVE]
    if _bitboard_engine(spec):
        own, opp = _own_opp(spec, state, player)
        moves = _moves_bits(spec, own, opp)
        count = 0
        while moves != ZERO:
            out[nowrap(count)] = lowest_cell(moves)
            count += 1
            moves &= moves - ONE
        if count > 0:
            return count
        if _moves_bits(spec, opp, own) != ZERO:
            out[0] = spec[S_CELLS]
            return 1
    else:
        count = _legal_scan(spec, state, player, out)
        if count > 0:
            return count
        if _any_move_scan(spec, state, 1 - player):
            out[0] = spec[S_CELLS]
            return 1
    _finish_by_count(state)
    return 0


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move (the i-th set bit of the move bitboard), PASS, or -1 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return -1
    if not _bitboard_engine(spec):
        count = legal_moves(spec, state, out)
        return -1 if count == 0 else out[nowrap(random_index(rng, count))]
    own, opp = _own_opp(spec, state, state[H_TO_MOVE])
    moves = _moves_bits(spec, own, opp)
    if moves != ZERO:
        return nth_cell(moves, random_index(rng, popcount(moves)))
    if _moves_bits(spec, opp, own) != ZERO:
        return spec[S_CELLS]
    _finish_by_count(state)
    return -1


@noalloc_jit
def _flip(spec, state, cell, player):
    """Turn the disc on ``cell`` to ``player`` (board and hash)."""
    cells = spec[S_CELLS]
    z = spec[S_ZOBRIST]
    state[nowrap(H_BOARD + cell)] = player + 1
    state[H_HASH] ^= spec[nowrap(z + cell)] ^ spec[nowrap(z + cells + cell)]


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` (a placement or PASS) for the side to move, in place."""
    cells = spec[S_CELLS]
    player = state[H_TO_MOVE]
    if move != cells:
        own = player + 1
        state[nowrap(H_BOARD + move)] = own
        state[H_HASH] ^= spec[nowrap(spec[S_ZOBRIST] + player * cells + move)]
        flipped = 0
        if _bitboard_engine(spec):
            mine, theirs = _own_opp(spec, state, player)
            bit = ONE << np.uint64(move)
            flips = _flips_bits(spec, mine, theirs, bit)
            state[nowrap(H_BOARD + cells + player)] = np.int64(mine | bit | flips)
            state[nowrap(H_BOARD + cells + 1 - player)] = np.int64(theirs & ~flips)
            while flips != ZERO:
                _flip(spec, state, lowest_cell(flips), player)
                flipped += 1
                flips &= flips - ONE
        else:
            n = spec[S_SIZE]
            for d in range(8):
                k = _brackets(spec, state, move, d, own)
                if k > 0:
                    compass = spec[S_TABLES] + T_COMPASS + 2 * d
                    step = spec[nowrap(compass)] * n + spec[nowrap(compass + 1)]
                    for i in range(1, k + 1):
                        _flip(spec, state, move + i * step, player)
                    flipped += k
        state[nowrap(H_COUNT0 + player)] += 1 + flipped
        state[nowrap(H_COUNT0 + 1 - player)] -= flipped
    state[H_HASH] ^= spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if state[H_COUNT0] + state[H_COUNT1] == cells:
        _finish_by_count(state)
    elif at_ply_cap(spec, state):  # a draw, unless the game has just ended anyway (neither player can move)
        if _can_move(spec, state, 0) or _can_move(spec, state, 1):
            state[H_WINNER] = DRAW
        else:
            _finish_by_count(state)


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code (mover and move); with ``with_context``, times 256 plus the four neighbours' pattern."""
    cells = spec[S_CELLS]
    player = state[H_TO_MOVE]
    code = player * (cells + 1) + move
    if not with_context:
        return code
    pattern = 0
    if move < cells:
        pattern = neighbour_pattern(spec, state, H_BOARD, spec[S_TABLES] + T_ORTHOS, DIRECTIONS, move, player)
    return 256 * code + pattern


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 (Black) or 1 (White) for the disc on ``cell``, -1 for an empty cell."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """-1: Othello moves are placements (or the pass)."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """The cell the disc is put on; -1 for PASS."""
    return move if move < spec[S_CELLS] else -1


def board_graph(spec: np.ndarray):
    """The n x n square board (``graph.square_graph``), row 0 at the bottom."""
    n = int(spec[S_SIZE])
    return square_graph(n, n)


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """``pass``, or the cell in Othello coordinates: column letter, rank counted from the top row (rank 1)."""
    n = int(spec[S_SIZE])
    if move == n * n:
        return "pass"
    return f"{chr(ord('a') + move % n)}{n - move // n}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """The board with rank 1 (row n - 1) on top: ``x`` Black (player 0), ``o`` White."""
    n = int(spec[S_SIZE])
    glyph = ".xo"
    return "\n".join("".join(glyph[state[H_BOARD + r * n + c]] for c in range(n)) for r in range(n - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board and the side to move."""
    scratch = state.copy()
    refresh(spec, scratch)
    return int(scratch[H_HASH])
