"""Domineering and Misere Domineering on an n x n board (2 <= n <= 19).

Rules (seeds 004 and 000, with the choices the papers leave open):

* The board starts empty.  Player 0 places vertical dominoes (cells (r, c) and (r + 1, c)); player 1 places
  horizontal dominoes (cells (r, c) and (r, c + 1)).  Player 0 (vertical) moves first: the papers do not say;
  "Vertical first" is the convention of most Domineering programs and of Gardner's original description.
* The first player that cannot play has lost (misere: has won).

Moves are the anchor cell ``r * n + c`` (a vertical domino's cell in row r, its other cell in row r + 1; a
horizontal one's left cell), listed by increasing cell.  A board cell holds 0 when empty, else 1 + the player whose
domino covers it (the rules only ask whether a cell is occupied; the owner is for spatial features).
Move codes: ``player * n^2 + cell``.  Feature codes (Cazenave 2016: "take into account the cells
next to the domino played, they can be either empty or occupied"): ``64 * code + b``, where the six bits of b
say whether each of the six cells along the domino's sides is occupied; a cell off the board counts as
occupied (the opponent can never use it either, which is what the feature is for).  For a vertical domino at
(r, c) the six cells are (r-1, c), (r+2, c), (r, c-1), (r, c+1), (r+1, c-1), (r+1, c+1); a horizontal one is the
transpose.

Engine: on boards of at most 64 cells (the papers' 5x5 and 8x8) the state also holds the occupied cells as one
64-bit bitboard; the free anchors of a player are ``~occupied & ~(occupied >> step) & mask`` (step n for vertical,
1 for horizontal dominoes; the mask keeps anchors whose second cell is on the board), listed by increasing cell,
and ``random_move`` picks the i-th set bit for a uniform i: the same move ``uniform_pick`` takes from the list.
There the feature codes' six bits are read off shifted bitboards too (``_context_bits_bitboard``), and the
incremental engine's ``slot_code_pair`` tests legality on the free anchors: the same codes as the cell-by-cell reads
(``_context_bits_cells``, tested against each other), without a division or a bounds test per cell.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import inline_jit, noalloc_jit
from .._rng import random_index
from ._bits import BITBOARD_MAX_CELLS, ONE, lowest_cell, nth_cell, popcount
from ._common import before_play_remembers_nothing
from ._common import (H_BOARD, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS, S_MAX_MOVES,
                      S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN, S_TABLES,
                      S_VARIANT, S_ZOBRIST, SPEC_HEADER, apply_ply_cap, finish, uniform_pick)

MIN_SIZE = 2
MAX_SIZE = 19


def make_spec(size: int, variant: int) -> np.ndarray:
    """Build the immutable spec of the game at ``size`` x ``size``; ``variant`` combines VARIANT_* bits."""
    cells = size * size
    zob = np.random.default_rng([0x5EED, size, 2]).integers(-2**63, 2**63 - 1, size=cells + 1, dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size + 3, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells
    spec[S_NUM_CODES] = 2 * cells
    spec[S_NUM_CONTEXT_CODES] = 2 * cells * 64
    bitboard = cells <= BITBOARD_MAX_CELLS
    spec[S_STATE_LEN] = H_BOARD + cells + (1 if bitboard else 0)  # the board, then the occupied bitboard
    spec[S_MAX_PLIES] = cells // 2 + 1
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[cells]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t  # bitboard flag, then the anchor masks of player 0 (vertical) and 1 (horizontal)
    spec[t] = 1 if bitboard else 0
    if bitboard:
        vertical = sum(1 << cell for cell in range(cells) if cell // size < size - 1)
        horizontal = sum(1 << cell for cell in range(cells) if cell % size < size - 1)
        spec[t + 1] = np.uint64(vertical).astype(np.int64)
        spec[t + 2] = np.uint64(horizontal).astype(np.int64)
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
def refresh(spec, state):
    """Recompute the hash and the occupied bitboard from the board after writing cells by hand (tests)."""
    cells = spec[S_CELLS]
    h = np.int64(0)
    occupied = np.uint64(0)
    for cell in range(cells):
        if state[H_BOARD + cell] != 0:
            h ^= spec[spec[S_ZOBRIST] + cell]
            occupied |= ONE << np.uint64(cell)
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h
    if spec[spec[S_TABLES]]:
        state[H_BOARD + cells] = np.int64(occupied)


@inline_jit
def _free_anchors(spec, state, player):
    """Bitboard of the anchors where ``player`` can place a domino (bitboard engine)."""
    return _free_of(spec, np.uint64(state[H_BOARD + spec[S_CELLS]]), player)


@inline_jit
def _free_of(spec, occupied, player):
    """``_free_anchors`` with the occupied cells ``occupied`` (a bitboard)."""
    step = np.uint64(spec[S_SIZE] if player == 0 else 1)
    return ~occupied & ~(occupied >> step) & np.uint64(spec[spec[S_TABLES] + 1 + player])


@noalloc_jit
def legal_moves(spec, state, out):
    """Write the legal moves into ``out`` and return their number; 0 exactly when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    player = state[H_TO_MOVE]
    if spec[spec[S_TABLES]]:
        free = _free_anchors(spec, state, player)
        count = 0
        while free:
            out[count] = lowest_cell(free)
            count += 1
            free &= free - ONE
        if count == 0:
            finish(spec, state, 1 - player)
        return count
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
    """Place the domino ``move`` for the side to move, in place (``_play``)."""
    _play(spec, state, move)


@inline_jit
def _play(spec, state, move):
    """``play``'s body, inlined into engine 2's playout loop (the contract's optional ``play_inlined``)."""
    player = state[H_TO_MOVE]
    other = _second_cell(spec, player, move)
    state[H_BOARD + move] = player + 1  # the owner, for cell_owner; every rule only asks "occupied?"
    state[H_BOARD + other] = player + 1
    if spec[spec[S_TABLES]]:
        slot = H_BOARD + spec[S_CELLS]
        state[slot] = np.int64(np.uint64(state[slot]) | (ONE << np.uint64(move)) | (ONE << np.uint64(other)))
    z = spec[S_ZOBRIST]
    state[H_HASH] ^= spec[z + move] ^ spec[z + other] ^ spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    apply_ply_cap(spec, state)


@noalloc_jit
def _occupied(spec, state, r, c):
    n = spec[S_SIZE]
    if r < 0 or r >= n or c < 0 or c >= n:
        return 1
    return 1 if state[H_BOARD + r * n + c] != 0 else 0


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move`` for the side to move; with ``with_context``, the PPAF/MASTF code."""
    return _code_of(spec, state, move, state[H_TO_MOVE], with_context)


@inline_jit
def _sides(spec, occupied, player):
    """Six bitboards, one per context bit of ``_code_of``: bit ``anchor`` of the k-th says whether the k-th side cell
    of ``player``'s domino at ``anchor`` is occupied or off the board (the occupied cells ``occupied`` shifted onto
    the anchor, or'ed with the anchors where that cell is off the board, from the spec's anchor masks).  Read at a
    free anchor only (elsewhere the bits mean nothing)."""
    t = spec[S_TABLES]
    n = np.uint64(spec[S_SIZE])
    below_last = np.uint64(spec[t + 1])  # anchors with a row above them (r < n - 1)
    left_of_last = np.uint64(spec[t + 2])  # anchors with a column to their right (c < n - 1)
    first_col = ~(left_of_last << ONE)  # c == 0 (and the bits past the board, never read)
    first_row = (ONE << n) - ONE  # r == 0
    if player == 0:  # (r - 1, c), (r + 2, c), (r, c - 1), (r, c + 1), (r + 1, c - 1), (r + 1, c + 1)
        return ((occupied << n) | first_row,
                (occupied >> (n + n)) | ~(below_last >> n),
                (occupied << ONE) | first_col,
                (occupied >> ONE) | ~left_of_last,
                (occupied >> (n - ONE)) | first_col,
                (occupied >> (n + ONE)) | ~left_of_last)
    # the transpose: (r, c - 1), (r, c + 2), (r - 1, c), (r + 1, c), (r - 1, c + 1), (r + 1, c + 1)
    return ((occupied << ONE) | first_col,
            (occupied >> np.uint64(2)) | ~(left_of_last & (left_of_last >> ONE)),
            (occupied << n) | first_row,
            (occupied >> n) | ~below_last,
            (occupied << (n - ONE)) | first_row,
            (occupied >> (n + ONE)) | ~below_last)


@inline_jit
def _context_bits_bitboard(spec, state, move, player):
    """The six context bits of ``_code_of`` on the bitboard engine, without a division or a board read: bit k is
    bit ``move`` of the k-th of ``_sides``.  The same bits as ``_context_bits_cells``."""
    sides = _sides(spec, np.uint64(state[H_BOARD + spec[S_CELLS]]), player)
    shift = np.uint64(move)
    bits = np.int64(0)
    for k in range(6):
        bits |= np.int64((sides[k] >> shift) & ONE) << k
    return bits


@noalloc_jit
def _context_bits_cells(spec, state, move, player):
    """The six context bits of ``_code_of`` read cell by cell (any board size; ``_context_bits_bitboard`` gives the
    same bits on boards of at most 64 cells, tested against this)."""
    n = spec[S_SIZE]
    r = move // n
    c = move % n
    if player == 0:  # vertical: cells above, below, and left/right of both halves
        return (_occupied(spec, state, r - 1, c) | _occupied(spec, state, r + 2, c) << 1
                | _occupied(spec, state, r, c - 1) << 2 | _occupied(spec, state, r, c + 1) << 3
                | _occupied(spec, state, r + 1, c - 1) << 4 | _occupied(spec, state, r + 1, c + 1) << 5)
    # horizontal: the transpose
    return (_occupied(spec, state, r, c - 1) | _occupied(spec, state, r, c + 2) << 1
            | _occupied(spec, state, r - 1, c) << 2 | _occupied(spec, state, r + 1, c) << 3
            | _occupied(spec, state, r - 1, c + 1) << 4 | _occupied(spec, state, r + 1, c + 1) << 5)


@noalloc_jit
def _code_of(spec, state, move, player, with_context):
    """``move_code`` for ``player``."""
    code = player * spec[S_CELLS] + move
    if not with_context:
        return code
    if spec[spec[S_TABLES]]:
        return 64 * code + _context_bits_bitboard(spec, state, move, player)
    return 64 * code + _context_bits_cells(spec, state, move, player)


# ---- the incremental legal set (``ppalib.kernels.incremental``): a slot per anchor cell -------------------------
@noalloc_jit
def num_slots(spec):
    """One slot per anchor cell (vertical for player 0, horizontal for player 1)."""
    return spec[S_CELLS]


@noalloc_jit
def slot_code(spec, state, slot, player, with_context):
    """The code of ``player``'s domino anchored at ``slot`` if both its cells are free, else -1."""
    other = _second_cell(spec, player, slot)
    if other < 0 or state[H_BOARD + slot] != 0 or state[H_BOARD + other] != 0:
        return -1
    return _code_of(spec, state, slot, player, with_context)


@inline_jit
def slot_code_pair(spec, state, slot, with_context):
    """``slot_code`` for players 0 and 1 at once (the contract's optional ``slot_code_pair``).  On the bitboard
    engine, legality is a bit of each player's free anchors (``_free_anchors``) and the context bits come from
    bitboards too (``_context_bits_bitboard``): the engine-2 playout refreshes several slots a ply, and
    ``slot_code``'s rows and columns (integer divisions by the board's size) and bounded reads cost more than the
    rest of a refresh."""
    if not spec[spec[S_TABLES]]:
        return slot_code(spec, state, slot, 0, with_context), slot_code(spec, state, slot, 1, with_context)
    shift = np.uint64(slot)
    code0 = -1
    code1 = -1
    if (_free_anchors(spec, state, 0) >> shift) & ONE:
        code0 = slot
        if with_context:
            code0 = 64 * code0 + _context_bits_bitboard(spec, state, slot, 0)
    if (_free_anchors(spec, state, 1) >> shift) & ONE:
        code1 = spec[S_CELLS] + slot
        if with_context:
            code1 = 64 * code1 + _context_bits_bitboard(spec, state, slot, 1)
    return code0, code1


before_play = before_play_remembers_nothing  # the domino's two cells follow from the move and the mover
play_inlined = _play


@noalloc_jit
def slot_mask_ok(spec, with_context):
    """``slot_mask`` answers on the bitboard engine (at most 64 cells), for codes without context.  A free anchor
    stays free until a domino covers one of its cells and is never free again, and its PPA code is its anchor's:
    what the masked playout asks (contract, ``slot_mask_ok``).  With context its code changes with its
    neighbourhood."""
    return spec[spec[S_TABLES]] != 0 and not with_context


@inline_jit
def slot_mask(spec, state, player):
    """The anchors where ``player`` can place a domino, as a bitmask over the slots (``_free_anchors``)."""
    return _free_anchors(spec, state, player)


@inline_jit
def slot_mask_after(spec, state, move, player, before):
    """``slot_mask`` after ``move`` (a domino takes anchors around both its cells: read from the bitboard)."""
    return _free_anchors(spec, state, player)


# The anchors whose code reads a cell, as (row, column) offsets from the cell: a vertical domino anchored at (r, c)
# covers (r, c) and (r + 1, c) and its context reads (r - 1, c), (r + 2, c), (r, c -+ 1) and (r + 1, c -+ 1), so
# the vertical anchors reading a cell are the cell less each of those eight offsets; a horizontal one's are the
# transpose.  The union of both players' (ten offsets) is what a covered cell makes dirty with move context.
_CONTEXT_READERS_DR = (0, -1, 1, -2, 0, 0, -1, -1, 0, 1)
_CONTEXT_READERS_DC = (0, 0, 0, 0, 1, -1, 1, -1, -2, -1)


@inline_jit
def _changed_anchors(spec, state, move, player, with_context, out):
    """``dirty_slots`` on the bitboard engine: exactly the anchors whose code changed for a player, in increasing
    order.  The occupied cells before the move are those after it less the domino's two; an anchor's code changed
    when it stopped being free, or (with context) when it is still free and one of its ``_sides`` bits changed."""
    after = np.uint64(state[H_BOARD + spec[S_CELLS]])
    second = move + (spec[S_SIZE] if player == 0 else 1)
    before = after & ~((ONE << np.uint64(move)) | (ONE << np.uint64(second)))
    changed = np.uint64(0)
    for p in range(2):
        free_after = _free_of(spec, after, p)
        changed |= _free_of(spec, before, p) & ~free_after
        if with_context:
            sides_before = _sides(spec, before, p)
            sides_after = _sides(spec, after, p)
            moved = np.uint64(0)
            for k in range(6):
                moved |= sides_before[k] ^ sides_after[k]
            changed |= free_after & moved
    count = 0
    while changed:
        out[count] = lowest_cell(changed)
        count += 1
        changed &= changed - ONE
    return count


@noalloc_jit
def dirty_slots(spec, state, move, with_context, memo, out):
    """The anchors of the dominoes that covered a cell of the one played: its two cells and the free cells above
    (vertical) and to the left (horizontal) of them; with ``with_context`` every free anchor whose domino or
    context reads either cell (``_CONTEXT_READERS_*``: ten per cell, where a 4 x 4 block was fifteen).  On the
    bitboard engine only the anchors whose code changed (``_changed_anchors``)."""
    n = spec[S_SIZE]
    player = 1 - state[H_TO_MOVE]  # the mover of ``move``
    if spec[spec[S_TABLES]]:
        return _changed_anchors(spec, state, move, player, with_context, out)
    count = 0
    row = move // n  # the move's row and column; its second cell's follow (one division, not one a cell)
    col = move - row * n
    for half in range(2):
        cell = move + half * (n if player == 0 else 1)  # the move is legal: its second cell is on the board
        out[count] = cell
        count += 1
        r = row + half if player == 0 else row
        c = col + half if player == 1 else col
        if not with_context:  # the free cell above (a vertical anchor) and to the left (a horizontal one)
            if r > 0 and state[H_BOARD + cell - n] == 0:
                out[count] = cell - n
                count += 1
            if c > 0 and state[H_BOARD + cell - 1] == 0:
                out[count] = cell - 1
                count += 1
            continue
        for k in range(1, 10):
            rr = r + _CONTEXT_READERS_DR[k]
            cc = c + _CONTEXT_READERS_DC[k]
            if 0 <= rr < n and 0 <= cc < n and state[H_BOARD + rr * n + cc] == 0:
                out[count] = rr * n + cc
                count += 1
    return count


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over (``state[H_WINNER]`` then holds the result).

    The bitboard engine takes the i-th free anchor for a uniform i, the very move ``uniform_pick`` would take from
    the list (same draws, without listing)."""
    if state[H_WINNER] != ONGOING or not spec[spec[S_TABLES]]:
        return uniform_pick(rng, out, legal_moves(spec, state, out))
    free = _free_anchors(spec, state, state[H_TO_MOVE])
    count = popcount(free)
    if count == 0:
        finish(spec, state, 1 - state[H_TO_MOVE])
        return -1
    return nth_cell(free, random_index(rng, count))


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    n = int(spec[S_SIZE])
    kind = "v" if state[H_TO_MOVE] == 0 else "h"
    return f"{kind}{chr(ord('a') + move % n)}{move // n + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    n = int(spec[S_SIZE])
    return "\n".join("".join("#" if state[H_BOARD + r * n + c] else "." for c in range(n))
                     for r in range(n - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board (the conformance test checks play()'s incremental one)."""
    scratch = state.copy()
    refresh(spec, scratch)  # recomputes the hash from the board alone
    return int(scratch[H_HASH])


# ---- board graph, owners and move cells (spatial features, Soemers et al. 2019) ----------------------------------
@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for the player whose domino covers ``cell`` (0 vertical, 1 horizontal), -1 when it is empty."""
    return state[H_BOARD + cell] - 1


@noalloc_jit
def move_from(spec, state, move):
    """-1: a domino is placed, not moved."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """The domino's anchor cell (a vertical domino's cell of the lower row number, a horizontal one's left cell)."""
    return move


def board_graph(spec: np.ndarray):
    """The n x n board, cells ``row * n + col`` as in the state, row 0 at the bottom."""
    from .graph import square_graph
    n = int(spec[S_SIZE])
    return square_graph(n, n)
