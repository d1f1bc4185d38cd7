"""Fanorona (Madagascar) on its 5 x 9 board of points: a game of seed 003 (Soemers, Piette & Browne 2019).

Rules (standard Fanorona, "Fanoron-Tsivy"; the paper names the game only; where Ludii differs it is an option):

* The board: 5 rows of 9 points joined along rows and columns, and along the diagonals through the "strong" points
  (row + column even, the corners and the centre among them), Ludii's ``(rectangle 5 9 diagonals:Alternating)``.
* Set-up, 22 pieces each: player 0 (moves first) fills rows 1-2 and B3, D3, G3, I3; player 1 fills rows 4-5 and
  A3, C3, F3, H3; the centre E3 is empty (Ludii's layout; columns A-I, rows 1-5 from player 0's side).
* A move takes a piece along a line to the adjacent empty point.  It captures by *approach* when the next point
  beyond the destination, in the direction of the move, holds an enemy piece: that piece and the unbroken line of
  enemy pieces behind it are removed.  It captures by *withdrawal* when the point behind the piece's start, in
  the opposite direction, holds an enemy piece: that piece and the unbroken enemy line behind it are removed.
  When one step could do both, the player chooses (two different moves with the same from and to; spatial
  features, which see only from and to, alias them, as in Ludii).
* Captures are compulsory: when some capture exists, a non-capturing move ("paika") is illegal.
* Capture chain: after a capture, the same piece may go on capturing in the same turn, each capture one ply of the
  same player (``H_TO_MOVE`` does not change).  A continuation must capture, may not land on a point the piece
  has visited this turn (its start included), and may not go in the same direction as the step just made (the
  rule ``same_direction_rule``).  The player may end the chain at any time with the move ``STOP``; a chain whose
  piece has no continuation ends by itself (no forced ``STOP`` ply).
* A player whose last piece is captured loses (the capture ends the game at once, Ludii's ``(if (NoPiece Mover)
  (result Next Win))``).
* A player who has pieces but no move (every piece blocked) plays ``STOP`` as a pass, as Ludii passes
  automatically; it hardly ever happens, and descriptions of the game disagree (some call it a draw, some a loss
  for the blocked player).  Both players are never stuck at once: the board's lines are connected, so some piece
  has an empty neighbour.
* Fanorona can cycle for ever (paika moves when neither side can capture): a game reaching ``MAX_GAME_PLIES`` =
  1250 plies is a draw (Ludii's default limit is 1250 turns; we count plies, chain steps included), and the common
  ``ply_cap`` option (the paper's 100 moves) ends it earlier, also as a draw.
* Not implemented: the opening restriction of some descriptions (the first capture of the game ends the turn),
  chains that must change line at each capture, and the "vela" handicap game: none is in Ludii's file or the
  paper.  Some descriptions make continuing a chain compulsory; here, as in Ludii, it is optional.

Options:

* ``same_direction_rule`` (default 1, standard): forbid two consecutive captures of a chain in the same direction.
  **Ludii's Fanorona.lud does not enforce it** (its rules text states it): ``same_direction_rule=0`` is Ludii's.
* ``ply_cap`` (every board game; 0 = none).

Points are ``row * 9 + col``, row 0 (player 0's side) at the bottom.  Directions d, clockwise from North:
N, NE, E, SE, S, SW, W, NW (the odd ones only from strong points).  A move is ``(8 * from + d) * 3 + kind`` with
kind 0 = paika, 1 = approach, 2 = withdrawal, and ``STOP`` = 1080 ends a chain (or passes); legal moves are listed
by increasing number.  Move codes: ``player * 1081 + move`` (no context: the PPAF/MASTF code is the same).  The
board graph for spatial features is the 5 x 9 square grid with 4 orthogonal directions (``square_graph(5, 9)``),
as Ludii's features see this board; the rules' diagonals are two-step walks there.

Engine: the board plus one 45-bit bitboard per player.  For each direction d (cell offset o, masks of the points
where one / two steps stay on the lines) the pieces that can step are ``own & m1[d] & (empty >> o)``; those that
approach-capture also need ``enemy >> 2o`` (and ``m2[d]``), those that withdraw ``enemy << o`` (and the opposite
direction's mask): 16 bitboards give every capture of a position, so "is there a capture?" and a uniform random
move (the i-th set bit over the 16 sets) cost a few dozen word operations without listing.  A chain is held in
the state (the chaining piece, the last direction, the visited points as a bitboard) and its continuations are
looked up point by point.  The Zobrist hash covers the board, the side to move and the chain (keys for the
chaining piece, each visited point and the last direction).
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

ROWS = 5
COLS = 9
CELLS = ROWS * COLS
PIECES = 22
PAIKA = 0
APPROACH = 1
WITHDRAWAL = 2
STOP = CELLS * 8 * 3  # 1080
NUM_MOVES = STOP + 1
MAX_GAME_PLIES = 1250
DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # (drow, dcol), clockwise
FULL = (1 << CELLS) - 1

# Spec tables from spec[S_TABLES]: same-direction rule flag, then the neighbour table (8 per point, -1 off the
# lines).
T_SAME_DIRECTION = 0
T_NEIGHBOURS = 1
# Zobrist table: 2 per point (pieces), then chaining piece (45), visited points (45), last direction (8), side.
Z_CHAIN = 2 * CELLS
Z_VISITED = 3 * CELLS
Z_DIRECTION = 4 * CELLS
Z_SIDE = 4 * CELLS + 8
# State after the board: the two bitboards, the chaining piece (-1: no chain), the last direction, the visited set.
B_BITS = CELLS
B_CHAIN = CELLS + 2
B_DIRECTION = CELLS + 3
B_VISITED = CELLS + 4


def is_strong(cell: int) -> bool:
    """Whether diagonals pass through the point (row + column even)."""
    r, c = divmod(cell, COLS)
    return (r + c) % 2 == 0


def neighbour(cell: int, d: int) -> int:
    """The point one step from ``cell`` in direction ``d`` along a line of the board, or -1."""
    r, c = divmod(cell, COLS)
    dr, dc = DIRECTIONS[d]
    if d % 2 == 1 and not is_strong(cell):
        return -1
    if 0 <= r + dr < ROWS and 0 <= c + dc < COLS:
        return (r + dr) * COLS + c + dc
    return -1


def make_spec(size: int, variant: int, same_direction_rule: int = 1) -> np.ndarray:
    """Spec of Fanorona (``size`` = 5 rows; the board is 5 x 9)."""
    if size != ROWS:
        raise ValueError(f"size={size}: Fanorona is played on the 5 x 9 board only (size 5)")
    if isinstance(same_direction_rule, bool) or same_direction_rule not in (0, 1):
        raise ValueError(f"same_direction_rule={same_direction_rule!r} must be 1 (standard, the default) or 0 "
                         "(Ludii: consecutive captures may go the same way)")
    zob = np.random.default_rng([0x5EED, size, 7]).integers(-2**63, 2**63 - 1, size=Z_SIDE + 1, dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size + T_NEIGHBOURS + 8 * CELLS, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = CELLS
    # Two captures per piece and direction at most (or one paika), or continuations + STOP; + 1 spare slot.
    spec[S_MAX_MOVES] = PIECES * 8 * 2 + 1
    spec[S_NUM_CODES] = 2 * NUM_MOVES
    spec[S_NUM_CONTEXT_CODES] = 2 * NUM_MOVES
    spec[S_STATE_LEN] = H_BOARD + CELLS + 5
    spec[S_MAX_PLIES] = MAX_GAME_PLIES
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[Z_SIDE]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_SAME_DIRECTION] = same_direction_rule
    for d in range(8):
        for cell in range(CELLS):
            spec[t + T_NEIGHBOURS + 8 * cell + d] = neighbour(cell, d)
    return spec


@noalloc_jit
def _zkey(spec, index):
    return spec[nowrap(spec[S_ZOBRIST] + index)]


@noalloc_jit
def _neighbour(spec, cell, d):
    return spec[nowrap(spec[S_TABLES] + T_NEIGHBOURS + 8 * cell + d)]


@njit(cache=True)
def init_state(spec):
    """The start position, player 0 to move."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    state[H_BOARD + B_CHAIN] = -1
    state[H_BOARD + B_DIRECTION] = -1
    for cell in range(COLS * 2):
        state[nowrap(H_BOARD + cell)] = 1
        state[nowrap(H_BOARD + CELLS - 1 - cell)] = 2
    middle = 2 * COLS  # A3 C3 F3 H3 player 1, B3 D3 G3 I3 player 0, E3 empty
    for c in range(COLS):
        if c != 4:
            state[nowrap(H_BOARD + middle + c)] = 1 if (c % 2 == 1) == (c < 4) else 2
    refresh(spec, state)
    return state


@noalloc_jit
def refresh(spec, state):
    """Recompute bitboards, piece counts (``H_COUNT0 + player``) and hash from the board and the chain slots
    (hand-built positions; a chain is given by ``B_CHAIN``, ``B_DIRECTION`` and ``B_VISITED``)."""
    b0 = ZERO
    b1 = ZERO
    h = np.int64(0)
    for cell in range(CELLS):
        v = state[nowrap(H_BOARD + cell)]
        if v == 1:
            b0 |= ONE << np.uint64(cell)
        elif v == 2:
            b1 |= ONE << np.uint64(cell)
        if v != 0:
            h ^= _zkey(spec, 2 * cell + v - 1)
    state[H_BOARD + B_BITS] = np.int64(b0)
    state[H_BOARD + B_BITS + 1] = np.int64(b1)
    state[H_COUNT0] = popcount(b0)
    state[H_COUNT0 + 1] = popcount(b1)
    chain = state[H_BOARD + B_CHAIN]
    if chain >= 0:
        h ^= _zkey(spec, Z_CHAIN + chain) ^ _zkey(spec, Z_DIRECTION + state[H_BOARD + B_DIRECTION])
        visited = np.uint64(state[H_BOARD + B_VISITED])
        while visited:
            h ^= _zkey(spec, Z_VISITED + lowest_cell(visited))
            visited &= visited - ONE
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h


# Per direction: the cell offset, the points one step / two steps from which stay on the lines (compile-time
# constants: the board is fixed, so the shifts below are constant shifts).
_STEP = tuple(dr * COLS + dc for dr, dc in DIRECTIONS)
_M1 = tuple(np.uint64(sum(1 << cell for cell in range(CELLS) if neighbour(cell, d) >= 0)) for d in range(8))
_M2 = tuple(np.uint64(sum(1 << cell for cell in range(CELLS)
                          if neighbour(cell, d) >= 0 and neighbour(neighbour(cell, d), d) >= 0)) for d in range(8))


@noalloc_jit
def _back(bits, step):
    """Bit f of the result is bit f + step of ``bits``."""
    if step > 0:
        return bits >> np.uint64(step)
    return bits << np.uint64(-step)


@noalloc_jit
def _direction_sets(spec, own, enemy, empty, d):
    """(steppers, approach, withdrawal) bitboards of direction ``d``: the pieces of ``own`` that can step to an
    empty point, those whose step captures by approach, those whose step captures by withdrawal."""
    step = _STEP[d]
    steppers = own & _M1[d] & _back(empty, step)
    approach = steppers & _M2[d] & _back(enemy, 2 * step)
    withdrawal = steppers & _M1[(d + 4) & 7] & _back(enemy, -step)
    return steppers, approach, withdrawal


@noalloc_jit
def _sides(state, player):
    own = np.uint64(state[nowrap(H_BOARD + B_BITS + player)])
    enemy = np.uint64(state[nowrap(H_BOARD + B_BITS + 1 - player)])
    return own, enemy, ~(own | enemy) & np.uint64(FULL)


@noalloc_jit
def _chain_moves(spec, state, player, out, count):
    """Write the continuations of the chain (captures of the chaining piece, by increasing number) into
    ``out[count:]``; return the new count."""
    piece = state[H_BOARD + B_CHAIN]
    last = state[H_BOARD + B_DIRECTION] if spec[nowrap(spec[S_TABLES] + T_SAME_DIRECTION)] else -1
    visited = np.uint64(state[H_BOARD + B_VISITED])
    enemy = 2 - player
    for d in range(8):
        if d == last:
            continue
        to = _neighbour(spec, piece, d)
        if to < 0 or state[nowrap(H_BOARD + to)] != 0 or (visited >> np.uint64(to)) & ONE:
            continue
        ahead = _neighbour(spec, to, d)
        if ahead >= 0 and state[nowrap(H_BOARD + ahead)] == enemy:
            out[nowrap(count)] = (8 * piece + d) * 3 + APPROACH
            count += 1
        behind = _neighbour(spec, piece, (d + 4) & 7)
        if behind >= 0 and state[nowrap(H_BOARD + behind)] == enemy:
            out[nowrap(count)] = (8 * piece + d) * 3 + WITHDRAWAL
            count += 1
    return count


@noalloc_jit
def _has_continuation(spec, state, player):
    """Whether the chaining piece has a capture that continues the chain."""
    piece = state[H_BOARD + B_CHAIN]
    last = state[H_BOARD + B_DIRECTION] if spec[nowrap(spec[S_TABLES] + T_SAME_DIRECTION)] else -1
    visited = np.uint64(state[H_BOARD + B_VISITED])
    enemy = 2 - player
    for d in range(8):
        if d == last:
            continue
        to = _neighbour(spec, piece, d)
        if to < 0 or state[nowrap(H_BOARD + to)] != 0 or (visited >> np.uint64(to)) & ONE:
            continue
        ahead = _neighbour(spec, to, d)
        if ahead >= 0 and state[nowrap(H_BOARD + ahead)] == enemy:
            return True
        behind = _neighbour(spec, piece, (d + 4) & 7)
        if behind >= 0 and state[nowrap(H_BOARD + behind)] == enemy:
            return True
    return False


@noalloc_jit
def _all_sets(spec, own, enemy, empty):
    """``_direction_sets`` of the eight directions: three tuples (steppers, approach, withdrawal) indexed by d."""
    s0, a0, w0 = _direction_sets(spec, own, enemy, empty, 0)
    s1, a1, w1 = _direction_sets(spec, own, enemy, empty, 1)
    s2, a2, w2 = _direction_sets(spec, own, enemy, empty, 2)
    s3, a3, w3 = _direction_sets(spec, own, enemy, empty, 3)
    s4, a4, w4 = _direction_sets(spec, own, enemy, empty, 4)
    s5, a5, w5 = _direction_sets(spec, own, enemy, empty, 5)
    s6, a6, w6 = _direction_sets(spec, own, enemy, empty, 6)
    s7, a7, w7 = _direction_sets(spec, own, enemy, empty, 7)
    return (s0, s1, s2, s3, s4, s5, s6, s7), (a0, a1, a2, a3, a4, a5, a6, a7), (w0, w1, w2, w3, w4, w5, w6, w7)


@noalloc_jit
def legal_moves(spec, state, out):
    """Write the legal moves into ``out`` (increasing number) and return their number; 0 exactly when the game is
    over.  In a chain: the continuations, then ``STOP``.  Else the captures if any, else the paika moves, else
    ``STOP`` as a pass.  Listing is branch-free: for each piece that has a
    move, each direction's move is written and kept when its bit is set (``out`` has a spare slot)."""
    if state[H_WINNER] != ONGOING:
        return 0
    player = state[H_TO_MOVE]
    if state[H_BOARD + B_CHAIN] >= 0:
        count = _chain_moves(spec, state, player, out, 0)
        out[nowrap(count)] = STOP
        return count + 1
    own, enemy, empty = _sides(state, player)
    steps, approach, withdrawal = _all_sets(spec, own, enemy, empty)
    capturers = ZERO
    movers = ZERO
    for d in range(8):
        movers |= steps[d]
        capturers |= approach[d] | withdrawal[d]
    count = 0
    if capturers:
        while capturers:
            cell = lowest_cell(capturers)
            capturers &= capturers - ONE
            bit = np.uint64(cell)
            for d in range(8):
                out[nowrap(count)] = 24 * cell + 3 * d + APPROACH
                count += np.int64((approach[d] >> bit) & ONE)
                out[nowrap(count)] = 24 * cell + 3 * d + WITHDRAWAL
                count += np.int64((withdrawal[d] >> bit) & ONE)
        return count
    while movers:
        cell = lowest_cell(movers)
        movers &= movers - ONE
        bit = np.uint64(cell)
        for d in range(8):
            out[nowrap(count)] = 24 * cell + 3 * d + PAIKA
            count += np.int64((steps[d] >> bit) & ONE)
    if count == 0:  # every piece blocked: the pass
        out[0] = STOP
        count = 1
    return count


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over.  Outside a chain, without listing: the i-th set
    bit, for a uniform i, over the 16 capture bitboards (else the 8 step bitboards)."""
    if state[H_WINNER] != ONGOING:
        return -1
    player = state[H_TO_MOVE]
    if state[H_BOARD + B_CHAIN] >= 0:
        count = _chain_moves(spec, state, player, out, 0)
        out[nowrap(count)] = STOP
        return out[nowrap(random_index(rng, count + 1))]
    own, enemy, empty = _sides(state, player)
    steps, approach, withdrawal = _all_sets(spec, own, enemy, empty)
    captures = 0
    for d in range(8):
        captures += popcount(approach[d]) + popcount(withdrawal[d])
    if captures > 0:
        i = random_index(rng, captures)
        for d in range(8):
            n = popcount(approach[d])
            if i < n:
                return 24 * nth_cell(approach[d], i) + 3 * d + APPROACH
            i -= n
            n = popcount(withdrawal[d])
            if i < n:
                return 24 * nth_cell(withdrawal[d], i) + 3 * d + WITHDRAWAL
            i -= n
    total = 0
    for d in range(8):
        total += popcount(steps[d])
    if total > 0:
        i = random_index(rng, total)
        for d in range(8):
            n = popcount(steps[d])
            if i < n:
                return 24 * nth_cell(steps[d], i) + 3 * d + PAIKA
            i -= n
    return STOP  # every piece blocked: the pass


@noalloc_jit
def _remove_line(spec, state, start, d, enemy_player):
    """Remove the unbroken line of ``enemy_player``'s pieces from ``start`` on in direction ``d``; return the hash
    change and the number removed."""
    h = np.int64(0)
    removed = 0
    slot = H_BOARD + B_BITS + enemy_player
    bits = np.uint64(state[nowrap(slot)])
    cell = start
    while cell >= 0 and state[nowrap(H_BOARD + cell)] == enemy_player + 1:
        state[nowrap(H_BOARD + cell)] = 0
        bits &= ~(ONE << np.uint64(cell))
        h ^= _zkey(spec, 2 * cell + enemy_player)
        removed += 1
        cell = _neighbour(spec, cell, d)
    state[nowrap(slot)] = np.int64(bits)
    state[nowrap(H_COUNT0 + enemy_player)] -= removed
    return h


@noalloc_jit
def _end_chain(spec, state):
    """Clear the chain slots and their hash keys (no-op outside a chain)."""
    chain = state[H_BOARD + B_CHAIN]
    if chain < 0:
        return
    h = _zkey(spec, Z_CHAIN + chain) ^ _zkey(spec, Z_DIRECTION + state[H_BOARD + B_DIRECTION])
    visited = np.uint64(state[H_BOARD + B_VISITED])
    while visited:
        h ^= _zkey(spec, Z_VISITED + lowest_cell(visited))
        visited &= visited - ONE
    state[H_HASH] ^= h
    state[H_BOARD + B_CHAIN] = -1
    state[H_BOARD + B_DIRECTION] = -1
    state[H_BOARD + B_VISITED] = 0


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` for the side to move, in place (a capture that can go on keeps the turn)."""
    player = state[H_TO_MOVE]
    state[H_PLY] += 1
    if move == STOP:
        _end_chain(spec, state)
        state[H_TO_MOVE] = 1 - player
        state[H_HASH] ^= spec[S_SIDE_KEY]
    else:
        cell = move // 24
        d = (move // 3) & 7
        kind = move - 3 * (move // 3)
        to = _neighbour(spec, cell, d)
        slot = H_BOARD + B_BITS + player
        state[nowrap(H_BOARD + cell)] = 0
        state[nowrap(H_BOARD + to)] = player + 1
        state[nowrap(slot)] = np.int64((np.uint64(state[nowrap(slot)]) & ~(ONE << np.uint64(cell)))
                                       | (ONE << np.uint64(to)))
        h = _zkey(spec, 2 * cell + player) ^ _zkey(spec, 2 * to + player)
        if kind == PAIKA:
            state[H_HASH] ^= h ^ spec[S_SIDE_KEY]
            state[H_TO_MOVE] = 1 - player
        else:
            if kind == APPROACH:
                h ^= _remove_line(spec, state, _neighbour(spec, to, d), d, 1 - player)
            else:
                back = (d + 4) & 7
                h ^= _remove_line(spec, state, _neighbour(spec, cell, back), back, 1 - player)
            # The chain: the piece now on `to`, its direction, the points it has visited this turn.
            chain = state[H_BOARD + B_CHAIN]
            if chain >= 0:
                h ^= _zkey(spec, Z_CHAIN + chain) ^ _zkey(spec, Z_DIRECTION + state[H_BOARD + B_DIRECTION])
            else:
                h ^= _zkey(spec, Z_VISITED + cell)
                state[H_BOARD + B_VISITED] = np.int64(ONE << np.uint64(cell))
            h ^= _zkey(spec, Z_CHAIN + to) ^ _zkey(spec, Z_DIRECTION + d) ^ _zkey(spec, Z_VISITED + to)
            state[H_BOARD + B_VISITED] = np.int64(np.uint64(state[H_BOARD + B_VISITED]) | (ONE << np.uint64(to)))
            state[H_BOARD + B_CHAIN] = to
            state[H_BOARD + B_DIRECTION] = d
            state[H_HASH] ^= h
            if state[nowrap(H_COUNT0 + 1 - player)] == 0:
                finish(spec, state, player)
            elif not _has_continuation(spec, state, player):
                _end_chain(spec, state)
                state[H_TO_MOVE] = 1 - player
                state[H_HASH] ^= spec[S_SIDE_KEY]
    if state[H_WINNER] == ONGOING and state[H_PLY] >= spec[S_MAX_PLIES]:
        finish(spec, state, DRAW)
    apply_ply_cap(spec, state)


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move`` for the side to move (the same code with context: Fanorona defines none)."""
    return state[H_TO_MOVE] * NUM_MOVES + move


def _name(cell: int) -> str:
    return f"{chr(ord('a') + cell % COLS)}{cell // COLS + 1}"


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """``b2-c3`` (paika), ``b2-c3a`` (approach), ``b2-c3w`` (withdrawal), or ``stop`` (end of a chain, or a pass)."""
    move = int(move)
    if move == STOP:
        return "stop"
    cell, d, kind = move // 24, (move // 3) % 8, move % 3
    return f"{_name(cell)}-{_name(neighbour(cell, d))}{('', 'a', 'w')[kind]}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """Text diagram, player 0 ``x``, player 1 ``o``, row 5 on top; in a chain, a last line says which piece."""
    glyph = ".xo"
    rows = ["".join(glyph[state[H_BOARD + r * COLS + c]] for c in range(COLS)) for r in range(ROWS - 1, -1, -1)]
    chain = int(state[H_BOARD + B_CHAIN])
    if chain >= 0:
        visited = int(np.uint64(state[H_BOARD + B_VISITED]))
        direction = "N NE E SE S SW W NW".split()[int(state[H_BOARD + B_DIRECTION])]
        rows.append(f"chain: {_name(chain)}, last direction {direction}, "
                    f"visited {' '.join(_name(c) for c in range(CELLS) if visited >> c & 1)}")
    return "\n".join(rows)


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board, the side to move and the chain."""
    scratch = state.copy()
    refresh(spec, scratch)
    return int(scratch[H_HASH])


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for the player whose piece is on ``cell``, -1 when it is empty."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """The point a move leaves; -1 for ``STOP``."""
    return -1 if move == STOP else move // 24


@noalloc_jit
def move_to(spec, state, move):
    """The point a move reaches (approach and withdrawal along the same step share it); -1 for ``STOP``."""
    return -1 if move == STOP else _neighbour(spec, move // 24, (move // 3) & 7)


def board_graph(spec: np.ndarray):
    """The 5 x 9 points as Ludii's features see them: 4 orthogonal directions (``square_graph(5, 9)``), points
    ``row * 9 + col`` as in the state, row 0 (player 0's side) at the bottom."""
    from .graph import square_graph
    return square_graph(ROWS, COLS)
