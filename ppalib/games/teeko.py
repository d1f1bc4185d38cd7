"""Teeko (John Scarne, 1937) on its 5x5 board: a game of seed 003 (Soemers, Piette & Browne 2019).

Rules (standard Teeko; the paper names the game only, so its rules are the standard ones; Ludii's divergence is an
option):

* Player 0 (Black) moves first.  Each player has ``pieces`` pieces in hand (standard Teeko: 4).
* Placement phase: the players alternately place one piece from their hand on any empty cell, until both hands
  are empty (ply 2 * pieces).
* Movement phase: the player to move moves one of their pieces to an adjacent empty cell, in any of the 8
  directions (a king's step; Ludii's ``StepToEmpty`` with its default Adjacent directions).
* A player wins by having four of their pieces in a straight line (row, column or diagonal, adjacent cells) or on
  the four cells of a 2x2 square, in either phase; only the mover's pieces change, so only the mover can win.
* A player with no legal move passes (the pass is then the only move; Ludii passes automatically).  With 4 pieces
  a side this cannot happen (a non-winning set of 4 pieces has at least 6 neighbouring cells, and the opponent has
  4 pieces), with more it can (``pieces=8``).  Both players are never stuck at once: the board is connected, so some piece has an empty
  neighbour.
* The movement phase can go on for ever: a game reaching ``MAX_GAME_PLIES`` = 1250 plies is a draw (Ludii ends
  every game at its default limit of 1250 turns; we count plies), and the common ``ply_cap`` option (the paper's
  100 moves) ends it earlier, also as a draw.

Options (``make_game("teeko", 5, pieces=8)``):

* ``pieces`` (default 4, standard Teeko; 4..12).  **Ludii's Teeko.lud gives each player 8** (``(hand Each
  size:8)``, ``count:8``); the 2019 file is not public, so the paper's count is unknown: ``pieces=8`` is Ludii's.
* ``ply_cap`` (every board game; 0 = none).

Cells are ``row * 5 + col``, row 0 (Black's side in diagrams) at the bottom.  Moves: a placement is its cell
(0-24); a step is ``25 + 8 * from + d`` with directions d clockwise from North: N, NE, E, SE, S, SW, W, NW; the
pass is ``PASS`` = 225.  Legal moves are listed by increasing number.  Move codes (PPA/MAST):
``player * 226 + move``; no context is defined for this game, so the PPAF/MASTF code is the same code.

Engine: each player's pieces are a 25-bit bitboard next to the board.  After a move the mover's bitboard is tested
for a win on the whole board at once (``has_win``: for each of the four line directions, ``b & b >> o & b >> 2o &
b >> 3o`` on the cells where such a line can start, and the same with offsets 1, 5, 6 for 2x2 squares).  For each
direction d (cell offset o, mask m_d of the cells whose d-neighbour is on the board; module constants) the pieces
that can step are ``own & m_d & (empty >> o)``; a random move (placement or step) is the i-th set bit, for a
uniform i, of the empty cells or of the eight direction sets, without listing the moves.  The Zobrist hash covers
the board and the side to move (pieces in hand follow from the board).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit, nowrap
from .._rng import random_index
from ._bits import ONE, ZERO, lowest_cell, nth_cell, popcount
from ._common import (DRAW, H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, SPEC_HEADER, apply_ply_cap, finish)

SIZE = 5
CELLS = 25
STEP_BASE = 25                 # first step move
PASS = STEP_BASE + 8 * CELLS   # 225
NUM_MOVES = PASS + 1
MAX_GAME_PLIES = 1250
DEFAULT_PIECES = 4
MIN_PIECES = 4
MAX_PIECES = 12
DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # (drow, dcol), clockwise
FULL = (1 << CELLS) - 1

# Spec tables from spec[S_TABLES]: pieces, then the neighbour table (8 per cell).
T_PIECES = 0
T_NEIGHBOURS = 1
# State after the board: the two players' bitboards.
B_BITS = CELLS


def win_patterns() -> list[int]:
    """Bit masks of the 28 lines of four and the 16 2x2 squares of the 5x5 board (for tests and diagrams; ``has_win``
    tests them all at once)."""
    masks = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= a < SIZE and 0 <= b < SIZE for a, b in cells):
                    masks.append(sum(1 << (a * SIZE + b) for a, b in cells))
            if r < SIZE - 1 and c < SIZE - 1:
                masks.append(sum(1 << ((r + a) * SIZE + c + b) for a in (0, 1) for b in (0, 1)))
    return masks


def make_spec(size: int, variant: int, pieces: int = DEFAULT_PIECES) -> np.ndarray:
    """Spec of Teeko (``size`` must be 5) with ``pieces`` pieces a player."""
    if size != SIZE:
        raise ValueError(f"size={size}: Teeko is played on the 5x5 board only")
    if isinstance(pieces, bool) or not isinstance(pieces, (int, np.integer)) or not MIN_PIECES <= pieces <= MAX_PIECES:
        raise ValueError(f"pieces={pieces!r} is out of range for Teeko: allowed {MIN_PIECES}..{MAX_PIECES}")
    zob = np.random.default_rng([0x5EED, size, 5]).integers(-2**63, 2**63 - 1, size=2 * CELLS + 1, dtype=np.int64)
    tables = T_NEIGHBOURS + 8 * CELLS
    spec = np.zeros(SPEC_HEADER + zob.size + tables, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = CELLS
    spec[S_MAX_MOVES] = max(CELLS, 8 * pieces) + 1  # + 1: a spare slot for the branch-free listing
    spec[S_NUM_CODES] = 2 * NUM_MOVES
    spec[S_NUM_CONTEXT_CODES] = 2 * NUM_MOVES
    spec[S_STATE_LEN] = H_BOARD + CELLS + 2
    spec[S_MAX_PLIES] = MAX_GAME_PLIES
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[2 * CELLS]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_PIECES] = pieces
    for cell in range(CELLS):
        r, c = divmod(cell, SIZE)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            inside = 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
            spec[t + T_NEIGHBOURS + 8 * cell + d] = (r + dr) * SIZE + c + dc if inside else -1
    return spec


@noalloc_jit
def _zkey(spec, cell, player):
    return spec[nowrap(spec[S_ZOBRIST] + 2 * cell + player)]


@noalloc_jit
def _neighbour(spec, cell, d):
    return spec[nowrap(spec[S_TABLES] + T_NEIGHBOURS + 8 * cell + d)]


@noalloc_jit
def _bits(state, player):
    return np.uint64(state[nowrap(H_BOARD + B_BITS + player)])


@njit(cache=True)
def init_state(spec):
    """The empty board, Black (player 0) to move, both hands full."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute bitboards, pieces in hand (``H_COUNT0 + player``) and hash from the board (hand-built positions)."""
    pieces = spec[nowrap(spec[S_TABLES] + T_PIECES)]
    b0 = np.uint64(0)
    b1 = np.uint64(0)
    h = np.int64(0)
    for cell in range(CELLS):
        v = state[nowrap(H_BOARD + cell)]
        if v == 1:
            b0 |= ONE << np.uint64(cell)
        elif v == 2:
            b1 |= ONE << np.uint64(cell)
        if v != 0:
            h ^= _zkey(spec, cell, v - 1)
    state[H_BOARD + B_BITS] = np.int64(b0)
    state[H_BOARD + B_BITS + 1] = np.int64(b1)
    state[H_COUNT0] = pieces - popcount(b0)
    state[H_COUNT0 + 1] = pieces - popcount(b1)
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h


@noalloc_jit
def _back(bits, step):
    """Bit f of the result is bit f + step of ``bits``."""
    if step > 0:
        return bits >> np.uint64(step)
    return bits << np.uint64(-step)


# Per direction: the cell offset and the cells whose neighbour in that direction is on the board (compile-time
# constants: the board is fixed, so the shifts below are constant shifts).
_STEP = tuple(dr * SIZE + dc for dr, dc in DIRECTIONS)
_MASK = tuple(np.uint64(sum(1 << cell for cell in range(CELLS)
                            if 0 <= cell // SIZE + dr < SIZE and 0 <= cell % SIZE + dc < SIZE))
              for dr, dc in DIRECTIONS)


@noalloc_jit
def _steppers(spec, own, empty, d):
    """Bitboard of the pieces of ``own`` that can step in direction ``d`` (their neighbour there is on the board
    and in ``empty``)."""
    return own & _MASK[d] & _back(empty, _STEP[d])


@noalloc_jit
def _step_sets(spec, state, player):
    """The eight direction sets of ``_steppers`` for ``player``, as a tuple indexed by direction."""
    own = _bits(state, player)
    empty = ~(own | _bits(state, 1 - player))
    return (_steppers(spec, own, empty, 0), _steppers(spec, own, empty, 1), _steppers(spec, own, empty, 2),
            _steppers(spec, own, empty, 3), _steppers(spec, own, empty, 4), _steppers(spec, own, empty, 5),
            _steppers(spec, own, empty, 6), _steppers(spec, own, empty, 7))


@noalloc_jit
def _steps(spec, state, player, out):
    """Write ``player``'s steps into ``out`` (increasing move number) and return their number.  Branch-free: each
    direction's move is written and kept when its bit is set (``out`` has one spare slot)."""
    sets = _step_sets(spec, state, player)
    movers = ZERO
    for d in range(8):
        movers |= sets[d]
    count = 0
    while movers:
        cell = lowest_cell(movers)
        movers &= movers - ONE
        bit = np.uint64(cell)
        for d in range(8):
            out[nowrap(count)] = STEP_BASE + 8 * cell + d
            count += np.int64((sets[d] >> bit) & ONE)
    return count


@noalloc_jit
def legal_moves(spec, state, out):
    """Write the legal moves into ``out`` and return their number; 0 exactly when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    player = state[H_TO_MOVE]
    if state[nowrap(H_COUNT0 + player)] > 0:  # placement: every empty cell
        free = ~(_bits(state, 0) | _bits(state, 1)) & np.uint64(FULL)
        count = 0
        while free:
            out[nowrap(count)] = lowest_cell(free)
            count += 1
            free &= free - ONE
        return count
    count = _steps(spec, state, player, out)
    if count == 0:  # stuck: the pass
        out[0] = PASS
        count = 1
    return count


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move (placement: the i-th empty cell for a uniform i), or -1 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return -1
    player = state[H_TO_MOVE]
    if state[nowrap(H_COUNT0 + player)] > 0:
        free = ~(_bits(state, 0) | _bits(state, 1)) & np.uint64(FULL)
        return nth_cell(free, random_index(rng, popcount(free)))
    sets = _step_sets(spec, state, player)
    total = 0
    for d in range(8):
        total += popcount(sets[d])
    if total == 0:
        return PASS
    i = random_index(rng, total)
    for d in range(8):
        n = popcount(sets[d])
        if i < n:
            return STEP_BASE + 8 * nth_cell(sets[d], i) + d
        i -= n
    return -1


def _start_mask(rows: range, cols: range) -> np.uint64:
    return np.uint64(sum(1 << (r * SIZE + c) for r in rows for c in cols))


# Cells where a line of four (east, north, north-east, north-west) or a 2x2 square (its south-west cell) can start.
_EAST = _start_mask(range(5), range(2))
_NORTH = _start_mask(range(2), range(5))
_NORTH_EAST = _start_mask(range(2), range(2))
_NORTH_WEST = _start_mask(range(2), range(3, 5))
_SQUARE = _start_mask(range(4), range(4))
_U1, _U2, _U3, _U4, _U5, _U6, _U8, _U10, _U12, _U15, _U18 = (np.uint64(k)
                                                              for k in (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18))


@noalloc_jit
def has_win(own):
    """Whether the bitboard ``own`` holds a line of four or a 2x2 square (whole board, branch-free shifts)."""
    east = own & (own >> _U1) & (own >> _U2) & (own >> _U3) & _EAST
    north = own & (own >> _U5) & (own >> _U10) & (own >> _U15) & _NORTH
    north_east = own & (own >> _U6) & (own >> _U12) & (own >> _U18) & _NORTH_EAST
    north_west = own & (own >> _U4) & (own >> _U8) & (own >> _U12) & _NORTH_WEST
    square = own & (own >> _U1) & (own >> _U5) & (own >> _U6) & _SQUARE
    return (east | north | north_east | north_west | square) != ZERO


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` for the side to move, in place."""
    player = state[H_TO_MOVE]
    slot = H_BOARD + B_BITS + player
    h = state[H_HASH] ^ spec[S_SIDE_KEY]
    to = -1
    if move < STEP_BASE:
        to = move
        state[nowrap(H_COUNT0 + player)] -= 1
    elif move < PASS:
        cell = (move - STEP_BASE) >> 3
        to = _neighbour(spec, cell, (move - STEP_BASE) & 7)
        state[nowrap(H_BOARD + cell)] = 0
        state[nowrap(slot)] = np.int64(np.uint64(state[nowrap(slot)]) & ~(ONE << np.uint64(cell)))
        h ^= _zkey(spec, cell, player)
    if to >= 0:
        state[nowrap(H_BOARD + to)] = player + 1
        state[nowrap(slot)] = np.int64(np.uint64(state[nowrap(slot)]) | (ONE << np.uint64(to)))
        h ^= _zkey(spec, to, player)
    state[H_HASH] = h
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if to >= 0 and has_win(np.uint64(state[nowrap(slot)])):
        finish(spec, state, player)
    elif state[H_PLY] >= spec[S_MAX_PLIES]:
        finish(spec, state, DRAW)
    apply_ply_cap(spec, state)


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move`` for the side to move (the same code with context: Teeko defines none)."""
    return state[H_TO_MOVE] * NUM_MOVES + move


def _name(cell: int) -> str:
    return f"{chr(ord('a') + cell % SIZE)}{cell // SIZE + 1}"


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """``c3`` (placement), ``c3-d4`` (step) or ``pass``."""
    move = int(move)
    if move < STEP_BASE:
        return _name(move)
    if move == PASS:
        return "pass"
    cell = (move - STEP_BASE) >> 3
    return f"{_name(cell)}-{_name(int(_neighbour(spec, cell, (move - STEP_BASE) & 7)))}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """Text diagram, Black (player 0) ``x``, White ``o``, row 5 on top."""
    glyph = ".xo"
    return "\n".join("".join(glyph[state[H_BOARD + r * SIZE + c]] for c in range(SIZE))
                     for r in range(SIZE - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board and the side to move."""
    scratch = state.copy()
    refresh(spec, scratch)
    return int(scratch[H_HASH])


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for the player whose piece is on ``cell``, -1 when it is empty."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """The cell a step leaves; -1 for a placement or the pass."""
    if move < STEP_BASE or move == PASS:
        return -1
    return (move - STEP_BASE) >> 3


@noalloc_jit
def move_to(spec, state, move):
    """The cell a placement or a step fills; -1 for the pass."""
    if move < STEP_BASE:
        return move
    if move == PASS:
        return -1
    return _neighbour(spec, (move - STEP_BASE) >> 3, (move - STEP_BASE) & 7)


def board_graph(spec: np.ndarray):
    """The 5x5 board, cells ``row * 5 + col`` as in the state, row 0 at the bottom (4 orthogonal directions, as
    Ludii's features see it; the rules' diagonal steps are two-step walks for features)."""
    from .graph import square_graph
    return square_graph(SIZE, SIZE)
