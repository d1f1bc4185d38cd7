"""Breakthrough, Misere Breakthrough, Knightthrough and Misere Knightthrough on an n x n board (4 <= n <= 19).

Rules (seeds 004 and 000, with the choices the papers leave open):

* Set-up: each side starts with two full rows of pieces on its own edge (the papers: "two rows of pawns on
  each side"), on every board size, so 5x5 has 10 pieces a side and one empty row between them, and 4x4 starts
  full (only diagonal captures are then possible).  OpenSpiel's 5x5 default uses one row a side; ours does not.
* Player 0 owns rows 0-1 and moves towards row n-1; player 1 owns rows n-2..n-1 and moves towards row 0.
  Player 0 moves first.
* Breakthrough pawns move one cell straight forward onto an empty cell, or one cell diagonally forward onto
  an empty cell or an opponent piece (capture).
* Knightthrough knights make one of the four forward knight jumps (1 forward and 2 sideways, or 2 forward and
  1 sideways) onto an empty cell or an opponent piece (capture).
* A side that moves a piece onto the far row wins (misere: loses).
* A side to move with no legal move (all its pieces captured or blocked) loses (misere: wins).  The papers
  are silent on this; losing is the usual Breakthrough convention (capturing every enemy piece wins), and the
  misere variants invert every terminal result, see ``_common.finish``.

Knightthrough option ``ggp_rules`` (default 0, the rule above, which is also Ludii's Knightthrough, the game of
Soemers et al. 2019).  Cazenave 2015 says only "similar to Breakthrough except that the pawns are replaced by
knights that can only go forward", and his players are GGP programs.  The GGP game "knightthrough" (its rules
text: "knights move like knights in chess, but only forward and only onto empty squares; knights capture like
pawns in chess (diagonally forward); ... draw if moving player does not have a legal move") reads it otherwise;
``ggp_rules=1`` plays that reading: the four forward jumps go onto empty cells only, a knight captures one cell
diagonally forward (an enemy piece only), and a side with no legal move draws (misere too).  Notebook 01 plays
Table 1's Knightthrough cells under both readings and says which the evidence favours.

Moves are ``from_cell * 4 + direction`` (``ggp_rules=1``: ``from_cell * 8 + direction``) with
``cell = row * n + col``.  Directions are, for the moving side's forward sense f (+1 or -1): pawns 0 = (f, -1),
1 = (f, 0), 2 = (f, +1); knights 0 = (f, -2), 1 = (f, +2), 2 = (2f, -1), 3 = (2f, +1), and under ``ggp_rules=1``
also the captures 4 = (f, -1), 5 = (f, +1).  Legal moves are listed by increasing move number.

Move codes (PPA/MAST): ``player * 4 n^2 + move`` (``ggp_rules=1``: ``player * 8 n^2 + move``), i.e. from-square
and direction with an offset for the second player, as in the PPA author's code.  Feature codes (PPAF/MASTF,
Cazenave 2016 section 3: "distinguish between capture moves and moves that do not capture"):
``2 * code + capture``.

Engine: on boards of at most 64 cells (the papers' 5x5 and 8x8) the state also holds one 64-bit bitboard per
player (bit ``cell``), and move generation works on whole boards at once: for each direction d, the pieces
that can move in d are ``back(forward(own & mask_d) & ~own)`` (pawns going straight also ``& ~enemy``), where
forward/back are shifts by the direction's cell offset and ``mask_d`` the cells whose d-target is on the board.
``legal_moves`` walks the union of those sets by increasing cell, which is increasing move number, and
``random_move`` draws a uniform index over the set sizes and selects that bit, without listing the moves.
Larger boards use the same rules cell by cell (``_legal_moves_scan``); tests check that both agree.  Under
``ggp_rules=1`` two more sets, the captures: ``own & back(enemy)`` per capture direction, and the jumps' target
must be empty (``& ~back(own | enemy)``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit, nowrap
from .._rng import index_of_u64, random_index, xoshiro_step
from ._bits import BITBOARD_MAX_CELLS, ONE, ZERO, lowest_cell, nth_cell, popcount
from ._common import (DRAW, H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING,
                      S_CELLS, S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE,
                      S_PLY_CAP, S_STATE_LEN, S_TABLES, S_VARIANT, S_ZOBRIST, SPEC_HEADER, apply_ply_cap, finish,
                      uniform_pick)

VARIANT_KNIGHT = 2
VARIANT_GGP = 4  # Knightthrough option ggp_rules=1 (see the module docstring)
MIN_SIZE = 4
MAX_SIZE = 19

EMPTY = 0  # board cells hold 0 (empty), 1 (player 0) or 2 (player 1)

# Spec table layout, from spec[S_TABLES]: MAX_DIRECTIONS directions x (drow, dcol) for player 0; then per player
# and direction (cell offset, source mask); then the bitboard flag and the move shift (a move is
# from_cell << shift | direction: 2, or 3 under ggp_rules=1).
MAX_DIRECTIONS = 8
T_STEPS = 2 * MAX_DIRECTIONS
T_BITBOARD = T_STEPS + 4 * MAX_DIRECTIONS
T_SHIFT = T_BITBOARD + 1


def make_spec(size: int, variant: int, ggp_rules: int = 0) -> np.ndarray:
    """Build the immutable spec of the game at ``size`` x ``size``; ``variant`` combines VARIANT_* bits.

    Knightthrough option ``ggp_rules``: 0 (default) a knight jumps onto an empty cell or captures by jumping onto
    an enemy piece, a side without a move loses; 1 the GGP game's rules (jumps onto empty cells only, captures
    one cell diagonally forward, a side without a move draws), see the module docstring.
    """
    if ggp_rules not in (0, 1):
        raise ValueError(f"ggp_rules={ggp_rules!r} must be 0 (knights capture by jumping onto an enemy piece) or 1 "
                         f"(the GGP game's rules: jumps onto empty cells only, diagonal pawn captures)")
    if ggp_rules and not variant & VARIANT_KNIGHT:
        raise ValueError("ggp_rules is an option of Knightthrough and Misere Knightthrough only")
    variant |= VARIANT_GGP if ggp_rules else 0
    cells = size * size
    zob = np.random.default_rng([0x5EED, size, 1]).integers(-2**63, 2**63 - 1, size=3 * cells + 1, dtype=np.int64)
    # Direction table: (drow, dcol) per direction for player 0 (player 1 negates drow).
    if variant & VARIANT_GGP:
        dirs = [(1, -2), (1, 2), (2, -1), (2, 1), (1, -1), (1, 1)]
    elif variant & VARIANT_KNIGHT:
        dirs = [(1, -2), (1, 2), (2, -1), (2, 1)]
    else:
        dirs = [(1, -1), (1, 0), (1, 1)]
    ndirs = len(dirs)
    shift = 3 if variant & VARIANT_GGP else 2  # a move is from_cell << shift | direction
    slots = 1 << shift  # direction slots per from-cell in a move number
    spec = np.zeros(SPEC_HEADER + zob.size + T_SHIFT + 1, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells * ndirs     # safe bound: every cell a piece with every direction
    spec[S_NUM_CODES] = 2 * cells * slots
    spec[S_NUM_CONTEXT_CODES] = 2 * 2 * cells * slots
    bitboard = cells <= BITBOARD_MAX_CELLS
    spec[S_STATE_LEN] = H_BOARD + cells + (2 if bitboard else 0)  # the board, then the two bitboards
    # Every move advances a piece, so a piece makes at most n-1 moves (knights: fewer); 4 n pieces in all.
    spec[S_MAX_PLIES] = 4 * size * (size - 1) + 1
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[3 * cells]
    spec[S_TABLES] = SPEC_HEADER + zob.size
    t = spec[S_TABLES]
    for d, (dr, dc) in enumerate(dirs):
        spec[t + 2 * d] = dr
        spec[t + 2 * d + 1] = dc
    for player in (0, 1):
        forward = 1 if player == 0 else -1
        for d, (dr, dc) in enumerate(dirs):
            mask = 0
            for cell in range(cells):
                r, c = divmod(cell, size)
                if 0 <= r + forward * dr < size and 0 <= c + dc < size:
                    mask |= 1 << cell
            slot = t + T_STEPS + 2 * (MAX_DIRECTIONS * player + d)
            spec[slot] = forward * dr * size + dc
            spec[slot + 1] = np.uint64(mask).astype(np.int64) if bitboard else 0
    spec[t + T_BITBOARD] = 1 if bitboard else 0
    spec[t + T_SHIFT] = shift
    return spec


@noalloc_jit
def _zkey(spec, cell, piece):
    return spec[nowrap(spec[S_ZOBRIST] + 3 * cell + piece)]


@noalloc_jit
def _destination(spec, player, move):
    """The cell the legal ``move`` of ``player`` lands on: its from-cell plus its direction's cell offset."""
    t = spec[S_TABLES]
    shift = spec[nowrap(t + T_SHIFT)]
    return (move >> shift) + spec[nowrap(t + T_STEPS + 2 * (MAX_DIRECTIONS * player + (move & ((1 << shift) - 1))))]


@njit(cache=True)
def init_state(spec):
    """Return the start position."""
    n = spec[S_SIZE]
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    for cell in range(n * n):
        r = cell // n
        if r < 2:
            state[nowrap(H_BOARD + cell)] = 1
        elif r >= n - 2:
            state[nowrap(H_BOARD + cell)] = 2
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute what the state derives from its board (piece counts, bitboards, hash), after writing cells
    by hand (tests, diagrams).  Player to move and result are left as they are."""
    n = spec[S_SIZE]
    cells = n * n
    bitboard = spec[nowrap(spec[S_TABLES] + T_BITBOARD)] != 0
    if bitboard:
        state[nowrap(H_BOARD + cells)] = 0
        state[nowrap(H_BOARD + cells + 1)] = 0
    state[H_COUNT0] = 0
    state[H_COUNT0 + 1] = 0
    h = np.int64(0)
    for cell in range(cells):
        piece = state[nowrap(H_BOARD + cell)]
        if piece != EMPTY:
            state[nowrap(H_COUNT0 + piece - 1)] += 1
            h ^= _zkey(spec, cell, piece)
            if bitboard:
                slot = H_BOARD + cells + piece - 1
                state[nowrap(slot)] = np.int64(np.uint64(state[nowrap(slot)]) | (ONE << np.uint64(cell)))
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h


@noalloc_jit
def _movers(spec, state, player):
    """Bitboards (one per direction 0-3) of ``player``'s pieces that can move in that direction (bitboard engine).

    A piece on bit s moves by ``step`` onto bit s + step, so it can move when bit s of ``blocked >> step`` is
    clear; the direction's source mask keeps only pieces whose target is on the board.
    """
    cells = spec[S_CELLS]
    slot = spec[S_TABLES] + T_STEPS + 2 * MAX_DIRECTIONS * player
    return _direction_sets(np.uint64(state[nowrap(H_BOARD + cells + player)]),
                           np.uint64(state[nowrap(H_BOARD + cells + 1 - player)]),
                           (spec[S_VARIANT] & VARIANT_KNIGHT) != 0,
                           spec[nowrap(slot)], np.uint64(spec[nowrap(slot + 1)]),
                           spec[nowrap(slot + 2)], np.uint64(spec[nowrap(slot + 3)]),
                           spec[nowrap(slot + 4)], np.uint64(spec[nowrap(slot + 5)]),
                           spec[nowrap(slot + 6)], np.uint64(spec[nowrap(slot + 7)]))


@noalloc_jit
def _direction_sets(own, enemy, knight, step0, mask0, step1, mask1, step2, mask2, step3, mask3):
    """``_movers`` from the two bitboards and the mover's four (step, source mask) pairs, held in locals: pawns move
    straight ahead (direction 1) onto empty cells only and diagonally onto any cell but their own; knights jump in
    four directions onto any cell but their own (direction 3 is empty for pawns)."""
    m0 = own & mask0 & ~_shift(own, step0)
    m1 = own & mask1 & ~_shift(own if knight else own | enemy, step1)  # pawns: no capture
    m2 = own & mask2 & ~_shift(own, step2)
    m3 = own & mask3 & ~_shift(own, step3) if knight else ZERO
    return m0, m1, m2, m3


@noalloc_jit
def _kth_move(m0, m1, m2, m3, end0, end1, end2, i):
    """Move ``i`` of the four direction sets in set order (direction 0's bits, then 1's, 2's, 3's; ``end*`` the
    running counts): (its from-cell, its direction, and four masks, all ones for its set and zero for the others).

    The set holding move i and i's rank in it are chosen by masks rather than branches: which set it is, is a coin
    toss the CPU cannot predict (with branches, a third of the draw's time went to mispredictions)."""
    past0 = i >= end0
    past1 = i >= end1
    past2 = i >= end2
    in0 = ZERO - np.uint64(not past0)
    in1 = ZERO - np.uint64(past0 and not past1)
    in2 = ZERO - np.uint64(past1 and not past2)
    in3 = ZERO - np.uint64(past2)
    chosen = (m0 & in0) | (m1 & in1) | (m2 & in2) | (m3 & in3)
    before = (end0 & np.int64(in1)) | (end1 & np.int64(in2)) | (end2 & np.int64(in3))
    direction = np.int64(past0) + np.int64(past1) + np.int64(past2)
    return nth_cell(chosen, i - before), direction, in0, in1, in2, in3


@noalloc_jit
def _movers_ggp(spec, state, player):
    """``_movers`` under ``ggp_rules=1``: the four jumps (onto empty cells) and the two diagonal captures.

    A twin of ``_movers`` (and ``_legal_moves_bitboard_ggp``, ``_random_move_ggp`` of theirs) on purpose: one
    six-set version for both rules measured 4% slower on the default rules (random playouts, UCT and PPA at
    Breakthrough and Knightthrough 8x8, 6 interleaved rounds, medians 0.93-0.99), the playouts' hot loop.
    """
    cells = spec[S_CELLS]
    own = np.uint64(state[nowrap(H_BOARD + cells + player)])
    enemy = np.uint64(state[nowrap(H_BOARD + cells + 1 - player)])
    both = own | enemy
    slot = spec[S_TABLES] + T_STEPS + 2 * MAX_DIRECTIONS * player
    m0 = own & np.uint64(spec[nowrap(slot + 1)]) & ~_shift(both, spec[nowrap(slot)])
    m1 = own & np.uint64(spec[nowrap(slot + 3)]) & ~_shift(both, spec[nowrap(slot + 2)])
    m2 = own & np.uint64(spec[nowrap(slot + 5)]) & ~_shift(both, spec[nowrap(slot + 4)])
    m3 = own & np.uint64(spec[nowrap(slot + 7)]) & ~_shift(both, spec[nowrap(slot + 6)])
    m4 = own & np.uint64(spec[nowrap(slot + 9)]) & _shift(enemy, spec[nowrap(slot + 8)])
    m5 = own & np.uint64(spec[nowrap(slot + 11)]) & _shift(enemy, spec[nowrap(slot + 10)])
    return m0, m1, m2, m3, m4, m5


@noalloc_jit
def _no_move(spec, state, player):
    """End the game of ``player``, who has no legal move: a loss (``ggp_rules=1``: a draw)."""
    finish(spec, state, DRAW if spec[S_VARIANT] & VARIANT_GGP else 1 - player)


@noalloc_jit
def _shift(bits, step):
    """``bits`` moved back by ``step`` cells: bit s of the result is bit s + step of ``bits``."""
    if step > 0:
        return bits >> np.uint64(step)
    return bits << np.uint64(-step)


@noalloc_jit
def legal_moves(spec, state, out):
    """Write the legal moves into ``out`` (length >= spec[S_MAX_MOVES]) and return their number.

    Returns 0 exactly when the game is over; then ``state[H_WINNER]`` holds the result.
    """
    if state[H_WINNER] != ONGOING:
        return 0
    if spec[nowrap(spec[S_TABLES] + T_BITBOARD)]:
        if spec[S_VARIANT] & VARIANT_GGP:
            return _legal_moves_bitboard_ggp(spec, state, out)
        return _legal_moves_bitboard(spec, state, out)
    return _legal_moves_scan(spec, state, out)


@noalloc_jit
def _legal_moves_bitboard(spec, state, out):
    player = state[H_TO_MOVE]
    m0, m1, m2, m3 = _movers(spec, state, player)
    rest = m0 | m1 | m2 | m3
    count = 0
    while rest != ZERO:
        cell = lowest_cell(rest)
        bit = np.uint64(cell)
        move = 4 * cell
        # Branch-free: write each direction's move, keep it only if that direction's bit is set (out has room:
        # at most 4 moves per piece and 4 n pieces, far below spec[S_MAX_MOVES]).
        out[nowrap(count)] = move
        count += np.int64((m0 >> bit) & ONE)
        out[nowrap(count)] = move + 1
        count += np.int64((m1 >> bit) & ONE)
        out[nowrap(count)] = move + 2
        count += np.int64((m2 >> bit) & ONE)
        out[nowrap(count)] = move + 3
        count += np.int64((m3 >> bit) & ONE)
        rest &= rest - ONE
    if count == 0:
        finish(spec, state, 1 - player)
    return count


@noalloc_jit
def _legal_moves_bitboard_ggp(spec, state, out):
    player = state[H_TO_MOVE]
    m0, m1, m2, m3, m4, m5 = _movers_ggp(spec, state, player)
    rest = m0 | m1 | m2 | m3 | m4 | m5
    count = 0
    while rest != ZERO:
        cell = lowest_cell(rest)
        bit = np.uint64(cell)
        move = 8 * cell
        out[nowrap(count)] = move
        count += np.int64((m0 >> bit) & ONE)
        out[nowrap(count)] = move + 1
        count += np.int64((m1 >> bit) & ONE)
        out[nowrap(count)] = move + 2
        count += np.int64((m2 >> bit) & ONE)
        out[nowrap(count)] = move + 3
        count += np.int64((m3 >> bit) & ONE)
        out[nowrap(count)] = move + 4
        count += np.int64((m4 >> bit) & ONE)
        out[nowrap(count)] = move + 5
        count += np.int64((m5 >> bit) & ONE)
        rest &= rest - ONE
    if count == 0:
        _no_move(spec, state, player)
    return count


@noalloc_jit
def _legal_moves_scan(spec, state, out):
    """``legal_moves`` cell by cell, for boards too large for one bitboard."""
    n = spec[S_SIZE]
    player = state[H_TO_MOVE]
    own = player + 1
    knight = (spec[S_VARIANT] & VARIANT_KNIGHT) != 0
    ggp = (spec[S_VARIANT] & VARIANT_GGP) != 0
    ndirs = 6 if ggp else 4 if knight else 3
    t = spec[S_TABLES]
    shift = spec[nowrap(t + T_SHIFT)]
    forward = 1 if player == 0 else -1
    count = 0
    for r in range(n):  # rows and columns, not divisions: this loop is the playouts' hot spot
        for c in range(n):
            cell = r * n + c
            if state[nowrap(H_BOARD + cell)] != own:
                continue
            for d in range(ndirs):
                rr = r + forward * spec[nowrap(t + 2 * d)]
                cc = c + spec[nowrap(t + 2 * d + 1)]
                if rr < 0 or rr >= n or cc < 0 or cc >= n:
                    continue
                occupant = state[nowrap(H_BOARD + rr * n + cc)]
                if occupant == own:
                    continue
                if not knight and d == 1 and occupant != EMPTY:
                    continue  # pawns never capture straight ahead
                if ggp and (occupant == EMPTY) != (d < 4):
                    continue  # ggp_rules: jumps onto empty cells only, the diagonal steps only capture
                out[nowrap(count)] = (cell << shift) + d
                count += 1
    if count == 0:
        _no_move(spec, state, player)
    return count


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` for the side to move, in place."""
    n = spec[S_SIZE]
    cells = spec[S_CELLS]
    t = spec[S_TABLES]
    player = state[H_TO_MOVE]
    own = player + 1
    cell = move >> spec[nowrap(t + T_SHIFT)]
    to = _destination(spec, player, move)
    occupant = state[nowrap(H_BOARD + to)]
    h = state[H_HASH] ^ _zkey(spec, cell, own) ^ _zkey(spec, to, own)
    if occupant != EMPTY:
        h ^= _zkey(spec, to, occupant)
        state[nowrap(H_COUNT0 + 1 - player)] -= 1
    state[nowrap(H_BOARD + cell)] = EMPTY
    state[nowrap(H_BOARD + to)] = own
    if spec[nowrap(t + T_BITBOARD)]:
        to_bit = ONE << np.uint64(to)
        mine = H_BOARD + cells + player
        state[nowrap(mine)] = np.int64((np.uint64(state[nowrap(mine)]) & ~(ONE << np.uint64(cell))) | to_bit)
        if occupant != EMPTY:
            theirs = H_BOARD + cells + 1 - player
            state[nowrap(theirs)] = np.int64(np.uint64(state[nowrap(theirs)]) & ~to_bit)
    state[H_HASH] = h ^ spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if (to >= cells - n) if player == 0 else (to < n):  # the far row
        finish(spec, state, player)
    apply_ply_cap(spec, state)


@noalloc_jit
def play_playout(spec, state, move):
    """``play`` inside a uniform random playout (the game contract's optional ``play_playout``): with the bitboard
    engine, only the two bitboards, the side to move, the ply count and the result, which is all ``random_move``
    and the playout's end read (the board array, piece counts and hash go stale; about a quarter of a random
    Breakthrough playout's time, measured); the scan engine (> 64 cells) plays ``play``."""
    t = spec[S_TABLES]
    if not spec[nowrap(t + T_BITBOARD)]:
        play(spec, state, move)
        return
    n = spec[S_SIZE]
    cells = spec[S_CELLS]
    player = state[H_TO_MOVE]
    cell = move >> spec[nowrap(t + T_SHIFT)]
    to = _destination(spec, player, move)
    to_bit = ONE << np.uint64(to)
    mine = H_BOARD + cells + player
    theirs = H_BOARD + cells + 1 - player
    state[nowrap(mine)] = np.int64((np.uint64(state[nowrap(mine)]) & ~(ONE << np.uint64(cell))) | to_bit)
    state[nowrap(theirs)] = np.int64(np.uint64(state[nowrap(theirs)]) & ~to_bit)  # a capture, if the enemy stood there
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    if (to >= cells - n) if player == 0 else (to < n):  # the far row
        finish(spec, state, player)
    apply_ply_cap(spec, state)


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move`` for the side to move; with ``with_context``, the PPAF/MASTF code (capture bit)."""
    player = state[H_TO_MOVE]
    code = player * spec[S_NUM_CODES] // 2 + move
    if not with_context:
        return code
    to = _destination(spec, player, move)
    capture = 1 if state[nowrap(H_BOARD + to)] != EMPTY else 0
    return 2 * code + capture


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over (``state[H_WINNER]`` then holds the result).

    Bitboard engine: a uniform index over the moves of the four direction sets (each set bit one move) picks a
    set and a bit in it, without listing the moves.  Otherwise a uniform entry of the full list.
    """
    if state[H_WINNER] != ONGOING:
        return -1
    if not spec[nowrap(spec[S_TABLES] + T_BITBOARD)]:
        return uniform_pick(rng, out, _legal_moves_scan(spec, state, out))
    player = state[H_TO_MOVE]
    if spec[S_VARIANT] & VARIANT_GGP:
        return _random_move_ggp(spec, state, rng, player)
    m0, m1, m2, m3 = _movers(spec, state, player)
    end0 = popcount(m0)  # the moves in set order: direction 0's bits, then 1's, 2's, 3's
    end1 = end0 + popcount(m1)
    end2 = end1 + popcount(m2)
    total = end2 + popcount(m3)
    if total == 0:
        finish(spec, state, 1 - player)
        return -1
    cell, direction = _kth_move(m0, m1, m2, m3, end0, end1, end2, random_index(rng, total))[:2]
    return 4 * cell + direction


@noalloc_jit
def play_random_playout(spec, state, rng, out):
    """The game contract's optional whole uniform playout: ``random_move`` and ``play_playout`` until the game ends,
    the same moves drawn, the same result and ``rng`` left as those calls leave it; returns the plies played.

    With the bitboard engine (default rules) the playout runs in registers: the two bitboards, the side to move,
    the ply count, the generator's four words and both sides' (step, mask) pairs are locals, written back once at
    the end.  Move by move through ``state`` and ``rng``, each ply's loads waited on the previous ply's stores: 8x8
    random playouts/s went 506k-510k -> 933k-941k (Knightthrough 897k-926k -> 1.62M; ``python -m ppalib bench``,
    three interleaved rounds, ``data/bench/uct_register_playout_2026-11-27_ab.txt``)."""
    t = spec[S_TABLES]
    if state[H_WINNER] != ONGOING or not spec[nowrap(t + T_BITBOARD)] or spec[S_VARIANT] & VARIANT_GGP:
        plies = 0
        move = random_move(spec, state, rng, out)
        while move >= 0:
            play_playout(spec, state, move)
            plies += 1
            move = random_move(spec, state, rng, out)
        return plies
    n = spec[S_SIZE]
    cells = spec[S_CELLS]
    knight = (spec[S_VARIANT] & VARIANT_KNIGHT) != 0
    cap = spec[S_PLY_CAP]
    player = state[H_TO_MOVE]
    ply = state[H_PLY]
    own = np.uint64(state[nowrap(H_BOARD + cells + player)])
    enemy = np.uint64(state[nowrap(H_BOARD + cells + 1 - player)])
    # The mover's (step, mask) pairs and the other side's, swapped after each ply.
    a = t + T_STEPS + 2 * MAX_DIRECTIONS * player
    b = t + T_STEPS + 2 * MAX_DIRECTIONS * (1 - player)
    step0, step1, step2, step3 = spec[nowrap(a)], spec[nowrap(a + 2)], spec[nowrap(a + 4)], spec[nowrap(a + 6)]
    mask0, mask1, mask2, mask3 = (np.uint64(spec[nowrap(a + 1)]), np.uint64(spec[nowrap(a + 3)]),
                                  np.uint64(spec[nowrap(a + 5)]), np.uint64(spec[nowrap(a + 7)]))
    next0, next1, next2, next3 = spec[nowrap(b)], spec[nowrap(b + 2)], spec[nowrap(b + 4)], spec[nowrap(b + 6)]
    next_mask0, next_mask1, next_mask2, next_mask3 = (np.uint64(spec[nowrap(b + 1)]), np.uint64(spec[nowrap(b + 3)]),
                                                      np.uint64(spec[nowrap(b + 5)]), np.uint64(spec[nowrap(b + 7)]))
    # The far row: cells >= cells - n for player 0, cells < n for player 1 (as a range [low, high)).
    low, high = (cells - n, cells) if player == 0 else (0, n)
    next_low, next_high = (0, n) if player == 0 else (cells - n, cells)
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    plies = 0
    winner = ONGOING
    while True:
        m0, m1, m2, m3 = _direction_sets(own, enemy, knight, step0, mask0, step1, mask1, step2, mask2, step3, mask3)
        end0 = popcount(m0)
        end1 = end0 + popcount(m1)
        end2 = end1 + popcount(m2)
        total = end2 + popcount(m3)
        if total == 0:
            winner = 1 - player  # stuck: a loss
            break
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        cell, _, in0, in1, in2, in3 = _kth_move(m0, m1, m2, m3, end0, end1, end2, index_of_u64(word, total))
        to = cell + ((step0 & np.int64(in0)) | (step1 & np.int64(in1)) | (step2 & np.int64(in2))
                     | (step3 & np.int64(in3)))
        to_bit = ONE << np.uint64(to)
        own = (own & ~(ONE << np.uint64(cell))) | to_bit
        enemy &= ~to_bit  # a capture, if the enemy stood there
        ply += 1
        plies += 1
        if low <= to < high:
            winner = player  # the far row
        player = 1 - player
        own, enemy = enemy, own
        if winner != ONGOING:
            break
        if cap > 0 and ply >= cap:
            winner = DRAW
            break
        step0, step1, step2, step3, next0, next1, next2, next3 = next0, next1, next2, next3, step0, step1, step2, step3
        mask0, mask1, mask2, mask3, next_mask0, next_mask1, next_mask2, next_mask3 = (
            next_mask0, next_mask1, next_mask2, next_mask3, mask0, mask1, mask2, mask3)
        low, high, next_low, next_high = next_low, next_high, low, high
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    state[nowrap(H_BOARD + cells + player)] = np.int64(own)
    state[nowrap(H_BOARD + cells + 1 - player)] = np.int64(enemy)
    state[H_TO_MOVE] = player
    state[H_PLY] = ply
    finish(spec, state, winner)  # the misere variants invert it (a draw stays one)
    return plies


@noalloc_jit
def _random_move_ggp(spec, state, rng, player):
    """``random_move``'s bitboard draw under ``ggp_rules=1``: a uniform index over the six direction sets."""
    m0, m1, m2, m3, m4, m5 = _movers_ggp(spec, state, player)
    c0 = popcount(m0)
    c1 = popcount(m1)
    c2 = popcount(m2)
    c3 = popcount(m3)
    c4 = popcount(m4)
    total = c0 + c1 + c2 + c3 + c4 + popcount(m5)
    if total == 0:
        _no_move(spec, state, player)
        return -1
    i = random_index(rng, total)
    if i < c0:
        d, chosen = 0, m0
    elif i < c0 + c1:
        d, chosen, i = 1, m1, i - c0
    elif i < c0 + c1 + c2:
        d, chosen, i = 2, m2, i - c0 - c1
    elif i < c0 + c1 + c2 + c3:
        d, chosen, i = 3, m3, i - c0 - c1 - c2
    elif i < c0 + c1 + c2 + c3 + c4:
        d, chosen, i = 4, m4, i - c0 - c1 - c2 - c3
    else:
        d, chosen, i = 5, m5, i - c0 - c1 - c2 - c3 - c4
    return 8 * nth_cell(chosen, i) + d


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """Human-readable move, e.g. ``b2-c3`` or ``b2xc3`` (files a.., ranks 1.. from player 0's side)."""
    n = int(spec[S_SIZE])
    player = int(state[H_TO_MOVE])
    cell = move >> int(spec[spec[S_TABLES] + T_SHIFT])
    to = int(_destination(spec, player, move))
    sep = "x" if state[H_BOARD + to] != EMPTY else "-"
    name = lambda c: f"{chr(ord('a') + c % n)}{c // n + 1}"
    return f"{name(cell)}{sep}{name(to)}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """Text diagram, player 0's pieces as ``x``, player 1's as ``o``, row n-1 on top."""
    n = int(spec[S_SIZE])
    glyph = ".xo"
    rows = ["".join(glyph[state[H_BOARD + r * n + c]] for c in range(n)) for r in range(n - 1, -1, -1)]
    return "\n".join(rows)


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board (the conformance test checks play()'s incremental one)."""
    scratch = state.copy()
    refresh(spec, scratch)  # recomputes the hash from the board alone
    return int(scratch[H_HASH])


# ---- board graph, owners and move cells (spatial features, Soemers et al. 2019) ----------------------------------
@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for the player whose piece is on ``cell``, -1 when it is empty."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """The cell the piece of ``move`` leaves."""
    return move >> spec[nowrap(spec[S_TABLES] + T_SHIFT)]


@noalloc_jit
def move_to(spec, state, move):
    """The cell ``move`` of the side to move lands on."""
    return _destination(spec, state[H_TO_MOVE], move)


def board_graph(spec: np.ndarray):
    """The n x n board, cells ``row * n + col`` as in the state, row 0 (player 0's home row) at the bottom."""
    from .graph import square_graph
    n = int(spec[S_SIZE])
    return square_graph(n, n)
