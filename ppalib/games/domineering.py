"""Domineering and Misere Domineering on an n x n board (2 <= n <= 19).

Rules (seeds 004 and 000, with the choices the papers leave open):

* The board starts empty.  Player 0 places vertical dominoes (cells (r, c) and (r + 1, c)); player 1 places
  horizontal dominoes (cells (r, c) and (r, c + 1)).  Player 0 (vertical) moves first: the papers do not say;
  "Vertical first" is the convention of most Domineering programs and of Gardner's original description.
* The first player that cannot play has lost (misere: has won).

Moves are the anchor cell ``r * n + c`` (top cell of a vertical domino, left cell of a horizontal one), listed
by increasing cell.  Move codes: ``player * n^2 + cell``.  Feature codes (seed 000: "take into account the cells
next to the domino played, they can be either empty or occupied"): ``64 * code + b``, where the six bits of b
say whether each of the six cells along the domino's sides is occupied; a cell off the board counts as
occupied (the opponent can never use it either, which is what the feature is for).  For a vertical domino at
(r, c) the six cells are (r-1, c), (r+2, c), (r, c-1), (r, c+1), (r+1, c-1), (r+1, c+1); a horizontal one is the
transpose.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit

from ._common import (H_BOARD, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS, S_MAX_MOVES,
                      S_MAX_PLIES, S_NUM_CODES, S_NUM_FEATURE_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN, S_VARIANT,
                      S_ZOBRIST, SPEC_HEADER, finish, uniform_pick)

MIN_SIZE = 2
MAX_SIZE = 19


def make_spec(size: int, variant: int) -> np.ndarray:
    """Build the immutable spec of the game at ``size`` x ``size``; ``variant`` combines VARIANT_* bits."""
    cells = size * size
    zob = np.random.default_rng([0x5EED, size, 2]).integers(-2**63, 2**63 - 1, size=cells + 1, dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells
    spec[S_NUM_CODES] = 2 * cells
    spec[S_NUM_FEATURE_CODES] = 2 * cells * 64
    spec[S_STATE_LEN] = H_BOARD + cells
    spec[S_MAX_PLIES] = cells // 2 + 1
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:] = zob
    spec[S_SIDE_KEY] = zob[cells]
    return spec


@njit(cache=True)
def init_state(spec):
    """Return the start position (empty board, player 0 to move)."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    return state


@noalloc_jit
def _second_cell(spec, player, cell):
    """The other cell covered by a domino of ``player`` anchored at ``cell``, or -1 if it leaves the board."""
    n = spec[S_SIZE]
    if player == 0:
        return cell + n if cell // n + 1 < n else -1
    return cell + 1 if cell % n + 1 < n else -1


@noalloc_jit
def legal_moves(spec, state, out):
    """Write the legal moves into ``out`` and return their number; 0 exactly when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    player = state[H_TO_MOVE]
    n = spec[S_SIZE]
    step = n if player == 0 else 1  # offset of the domino's second cell
    rows = n - 1 if player == 0 else n
    cols = n if player == 0 else n - 1
    count = 0
    for r in range(rows):
        for c in range(cols):
            cell = r * n + c
            if state[H_BOARD + cell] == 0 and state[H_BOARD + cell + step] == 0:
                out[count] = cell
                count += 1
    if count == 0:
        finish(spec, state, 1 - player)
    return count


@noalloc_jit
def play(spec, state, move):
    """Place the domino ``move`` for the side to move, in place."""
    player = state[H_TO_MOVE]
    other = _second_cell(spec, player, move)
    state[H_BOARD + move] = 1
    state[H_BOARD + other] = 1
    z = spec[S_ZOBRIST]
    state[H_HASH] ^= spec[z + move] ^ spec[z + other] ^ spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1


@noalloc_jit
def _occupied(spec, state, r, c):
    n = spec[S_SIZE]
    if r < 0 or r >= n or c < 0 or c >= n:
        return 1
    return 1 if state[H_BOARD + r * n + c] != 0 else 0


@noalloc_jit
def move_code(spec, state, move, features):
    """PPA/MAST code of ``move`` for the side to move; with ``features``, the PPAF/MASTF code."""
    player = state[H_TO_MOVE]
    code = player * spec[S_CELLS] + move
    if not features:
        return code
    n = spec[S_SIZE]
    r = move // n
    c = move % n
    if player == 0:  # vertical: cells above, below, and left/right of both halves
        bits = (_occupied(spec, state, r - 1, c) | _occupied(spec, state, r + 2, c) << 1
                | _occupied(spec, state, r, c - 1) << 2 | _occupied(spec, state, r, c + 1) << 3
                | _occupied(spec, state, r + 1, c - 1) << 4 | _occupied(spec, state, r + 1, c + 1) << 5)
    else:  # horizontal: the transpose
        bits = (_occupied(spec, state, r, c - 1) | _occupied(spec, state, r, c + 2) << 1
                | _occupied(spec, state, r - 1, c) << 2 | _occupied(spec, state, r + 1, c) << 3
                | _occupied(spec, state, r - 1, c + 1) << 4 | _occupied(spec, state, r + 1, c + 1) << 5)
    return 64 * code + bits


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over (``state[H_WINNER]`` then holds the result)."""
    return uniform_pick(rng, out, legal_moves(spec, state, out))


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    n = int(spec[S_SIZE])
    kind = "v" if state[H_TO_MOVE] == 0 else "h"
    return f"{kind}{chr(ord('a') + move % n)}{move // n + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    n = int(spec[S_SIZE])
    return "\n".join("".join("#" if state[H_BOARD + r * n + c] else "." for c in range(n))
                     for r in range(n - 1, -1, -1))


def board_coordinates(spec: np.ndarray) -> np.ndarray:
    n = int(spec[S_SIZE])
    return np.array([(c // n, c % n) for c in range(n * n)], dtype=np.int64)


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board (the conformance test checks play()'s incremental one)."""
    h = 0
    for cell in range(int(spec[S_CELLS])):
        if state[H_BOARD + cell]:
            h ^= int(spec[spec[S_ZOBRIST] + cell])
    if state[H_TO_MOVE] == 1:
        h ^= int(spec[S_SIDE_KEY])
    return int(np.uint64(h & 0xFFFFFFFFFFFFFFFF).astype(np.int64))
