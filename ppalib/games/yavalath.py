"""Yavalath (Cameron Browne, 2007) on the hexagonal board of side 5 (61 cells): a game of seed 003.

Rules (the standard game; the paper names it only; Ludii's divergence is an option):

* Player 0 moves first; the players alternately place a piece of their colour on an empty cell.
* A player who makes a line of four or more of their pieces in a row (along one of the three axes of the hex
  grid, through the piece just placed) wins; otherwise, a player who makes a line of exactly three loses.  Four
  wins even if the same move also makes a three (Ludii tests ``(is Line 4)`` before ``(is Line 3)``).
* A full board without a result is a draw.
* Swap (pie rule), off by default: with ``swap=1`` the second player may, as their first move, take over the first
  piece instead of placing one (``SWAP`` = 61).  Ludii swaps the players' identities (``SwapPlayers``); here the
  piece changes colour and player 0 moves next, the same position from each side's point of view since the rules
  are the same for both colours (a game record keeps its players' colours).  **Ludii's Yavalath.lud has the swap
  on** (``(meta (swap))``); standard descriptions offer it as an option; we leave it off by default, which is
  simpler to justify for MCTS against MCTS (the feature-biasing brief, section 3).
* The common ``ply_cap`` option ends a game reaching that many plies in a draw (a game lasts at most 62 plies, so
  the paper's 100-move cap never applies).

Cells are numbered row by row from the bottom (``graph.hex_hexagon_positions(5)``: axial (r, c), |r|, |c|,
|r + c| <= 4); the board graph is ``graph.hex_hexagon_graph(5)`` (6 directions).  Moves: the cell (0-60), and
``SWAP`` = 61, listed by increasing number.  Move codes: ``player * 62 + move`` (no context: the PPAF/MASTF code
is the same).  Cell names: row letter a (bottom) .. i (top) and the cell's number in its row from the left.

Engine: the board, the list of empty cells (so a uniform random move is one draw) and each empty cell's place in
it.  A placement tests only the three lines through the new piece, walking a neighbour table (cell, direction)
-> cell or -1 at most three steps each way.  The Zobrist hash covers the board and the side to move (whether the
swap is still possible follows from the board: exactly at ply 1).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import inline_jit, noalloc_jit, nowrap
from .._rng import random_index
from ._common import before_play_remembers_nothing
from ._common import (DRAW, H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, SPEC_HEADER, apply_ply_cap, finish)
from .graph import HEX_STEPS, hex_hexagon_positions

SIDE = 5
CELLS = 3 * SIDE * (SIDE - 1) + 1  # 61
SWAP = CELLS
NUM_MOVES = CELLS + 1
# The three axes of the hex grid as direction pairs in HEX_STEPS order: (0, 1) / (0, -1), (1, 0) / (-1, 0),
# (1, -1) / (-1, 1): directions d and d + 3.
T_SWAP = 0
T_NEIGHBOURS = 1
# State after the board: the empty cells (a list, its length in H_COUNT0), then each empty cell's index in it.
B_EMPTY = CELLS
B_WHERE = 2 * CELLS


def make_spec(size: int, variant: int, swap: int = 0) -> np.ndarray:
    """Spec of Yavalath (``size`` = side = 5); ``swap`` = 1 allows the pie rule."""
    if size != SIDE:
        raise ValueError(f"size={size}: Yavalath is played on the hexagon of side 5 only")
    if swap not in (0, 1) or isinstance(swap, bool):
        raise ValueError(f"swap={swap!r} must be 0 (no swap, the default) or 1 (the pie rule, as in Ludii)")
    positions = hex_hexagon_positions(SIDE)
    index = {p: i for i, p in enumerate(positions)}
    zob = np.random.default_rng([0x5EED, size, 6]).integers(-2**63, 2**63 - 1, size=2 * CELLS + 1, dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size + T_NEIGHBOURS + 6 * CELLS, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = CELLS
    spec[S_MAX_MOVES] = NUM_MOVES
    spec[S_NUM_CODES] = 2 * NUM_MOVES
    spec[S_NUM_CONTEXT_CODES] = 2 * NUM_MOVES
    spec[S_STATE_LEN] = H_BOARD + 3 * CELLS
    spec[S_MAX_PLIES] = CELLS + swap
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[2 * CELLS]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_SWAP] = swap
    for cell, (r, c) in enumerate(positions):
        for d, (dr, dc) in enumerate(HEX_STEPS):
            spec[t + T_NEIGHBOURS + 6 * cell + d] = index.get((r + dr, c + dc), -1)
    return spec


@noalloc_jit
def _zkey(spec, cell, player):
    return spec[nowrap(spec[S_ZOBRIST] + 2 * cell + player)]


@njit(cache=True)
def init_state(spec):
    """The empty board, player 0 to move."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute the empty-cell list and the hash from the board (hand-built positions)."""
    h = np.int64(0)
    count = 0
    for cell in range(CELLS):
        v = state[nowrap(H_BOARD + cell)]
        if v == 0:
            state[nowrap(H_BOARD + B_EMPTY + count)] = cell
            state[nowrap(H_BOARD + B_WHERE + cell)] = count
            count += 1
        else:
            h ^= _zkey(spec, cell, v - 1)
    state[H_COUNT0] = count
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h


@noalloc_jit
def _swap_allowed(spec, state):
    return state[H_PLY] == 1 and spec[nowrap(spec[S_TABLES] + T_SWAP)] != 0


@noalloc_jit
def legal_moves(spec, state, out):
    """The empty cells by increasing number, then ``SWAP`` where allowed; 0 exactly when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    count = 0
    for cell in range(CELLS):
        if state[nowrap(H_BOARD + cell)] == 0:
            out[nowrap(count)] = cell
            count += 1
    if _swap_allowed(spec, state):
        out[nowrap(count)] = SWAP
        count += 1
    return count


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move (one draw over the empty-cell list and the swap), or -1 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return -1
    empties = state[H_COUNT0]
    n = empties + (1 if _swap_allowed(spec, state) else 0)
    i = random_index(rng, n)
    return state[nowrap(H_BOARD + B_EMPTY + i)] if i < empties else SWAP


@noalloc_jit
def _run(spec, state, cell, d, v):
    """How many cells of value ``v`` follow ``cell`` in direction ``d`` (at most 3 are counted)."""
    nb = spec[S_TABLES] + T_NEIGHBOURS
    count = 0
    cur = spec[nowrap(nb + 6 * cell + d)]
    while count < 3 and cur >= 0 and state[nowrap(H_BOARD + cur)] == v:
        count += 1
        cur = spec[nowrap(nb + 6 * cur + d)]
    return count


@noalloc_jit
def longest_lines(spec, state, cell):
    """(longest, three): the longest line (capped at 4) of the owner of ``cell`` through it on the three axes, and
    whether one axis holds exactly three."""
    v = state[nowrap(H_BOARD + cell)]
    longest = 0
    three = False
    for d in range(3):
        length = 1 + _run(spec, state, cell, d, v) + _run(spec, state, cell, d + 3, v)
        if length > longest:
            longest = length
        if length == 3:
            three = True
    return min(longest, 4), three


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` for the side to move, in place."""
    player = state[H_TO_MOVE]
    state[H_HASH] ^= spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if move == SWAP:  # the only piece on the board changes colour
        for cell in range(CELLS):
            if state[nowrap(H_BOARD + cell)] != 0:
                state[nowrap(H_BOARD + cell)] = 2
                state[H_HASH] ^= _zkey(spec, cell, 0) ^ _zkey(spec, cell, 1)
        apply_ply_cap(spec, state)
        return
    state[nowrap(H_BOARD + move)] = player + 1
    state[H_HASH] ^= _zkey(spec, move, player)
    last = state[H_COUNT0] - 1  # remove move from the empty list: the last entry takes its place
    i = state[nowrap(H_BOARD + B_WHERE + move)]
    moved = state[nowrap(H_BOARD + B_EMPTY + last)]
    state[nowrap(H_BOARD + B_EMPTY + i)] = moved
    state[nowrap(H_BOARD + B_WHERE + moved)] = i
    state[H_COUNT0] = last
    longest, three = longest_lines(spec, state, move)
    if longest >= 4:
        finish(spec, state, player)
    elif three:
        finish(spec, state, 1 - player)
    elif last == 0:
        finish(spec, state, DRAW)
    apply_ply_cap(spec, state)


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move`` for the side to move (the same code with context: Yavalath defines none)."""
    return state[H_TO_MOVE] * NUM_MOVES + move


# ---- the incremental legal set (``ppalib.kernels.incremental``): a slot per cell, and one for SWAP -------------
@noalloc_jit
def num_slots(spec):
    """One slot per cell, then SWAP's."""
    return NUM_MOVES


@noalloc_jit
def slot_code(spec, state, slot, player, with_context):
    """The code of ``slot`` (a cell, or SWAP) for ``player`` if it is legal, else -1."""
    if slot == SWAP:
        if not _swap_allowed(spec, state):
            return -1
    elif state[nowrap(H_BOARD + slot)] != 0:
        return -1
    return player * NUM_MOVES + slot


before_play = before_play_remembers_nothing  # a move changes its own cell (SWAP only colours, which no code reads)


@inline_jit
def dirty_slots(spec, state, move, with_context, memo, out):
    """The cell played and, in the first two plies, SWAP's slot (legal at ply 1 only, then never again)."""
    if move == SWAP:
        out[0] = SWAP
        return 1
    out[0] = move
    if state[H_PLY] <= 2:
        out[1] = SWAP
        return 2
    return 1


def _row_names() -> list[str]:
    positions = hex_hexagon_positions(SIDE)
    names, seen = [], {}
    for r, _ in positions:
        seen[r] = seen.get(r, 0) + 1
        names.append(f"{chr(ord('a') + r + SIDE - 1)}{seen[r]}")
    return names


CELL_NAMES = _row_names()


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """The cell's name (``e5`` is the centre) or ``swap``."""
    return "swap" if int(move) == SWAP else CELL_NAMES[int(move)]


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """Text diagram of the hexagon, player 0 ``x``, player 1 ``o``, top row first, rows shifted as drawn."""
    positions = hex_hexagon_positions(SIDE)
    rows: dict[int, list[int]] = {}
    for cell, (r, _) in enumerate(positions):
        rows.setdefault(r, []).append(cell)
    glyph = ".xo"
    return "\n".join(" " * abs(r) + " ".join(glyph[state[H_BOARD + cell]] for cell in rows[r])
                     for r in sorted(rows, reverse=True))


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
    """-1: pieces are placed, never moved."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """The cell a placement fills; -1 for the swap (as in Ludii, where a swap matches no spatial feature)."""
    return -1 if move == SWAP else move


def board_graph(spec: np.ndarray):
    """The hexagon of side 5, cells numbered as the state (row by row from the bottom), 6 directions."""
    from .graph import hex_hexagon_graph
    return hex_hexagon_graph(SIDE)
