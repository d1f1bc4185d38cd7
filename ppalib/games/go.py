"""Go, Atarigo, Nogo and Misere Nogo on an n x n board (Go, Nogo: 2 <= n <= 19; Atarigo: 3 <= n <= 19).

All four share one Go engine: a padded board, strings kept as circular stone lists with pseudo-liberties
(count, sum and sum of squares of the liberty points, so "exactly one liberty" is ``count * sumsq == sum^2``),
incremental Zobrist hashing.  Player 0 is Black and moves first.

Go (Cazenave 2015: "chinese rules ... number of her stones on the board plus the number of her eyes", komi 7.5):

* A move is legal on an empty point unless it is suicide (no liberty, no capture) or retakes a simple ko (a
  single stone capturing a single stone that could immediately recapture).  There is no superko.
* The legal-move list never contains a move that fills the mover's own eye (an empty point whose four
  neighbours are the mover's stones or the edge, with at most one enemy stone on its diagonals, none on the
  edge).  This is the usual playout rule; the same list serves the tree (as in the PPA author's code, where
  tree and playouts share one move generator), so a program here never fills its own eyes.
* Pass is legal only when no other move is: then it is the only move.  Two consecutive passes end the game.
* Score (area): stones on the board plus empty points whose on-board neighbours are all of one colour
  ("eyes"); White adds the komi (7.5 by default, no draws).  A game that reaches ``4 n^2 + 10`` plies (only
  possible through long capture cycles) is scored as it stands.

Atarigo: Go moves (no pass, no eye rule); the first player to capture wins.  Options (game options of
``atarigo``):

* ``suicide`` (default 1): a suicide is legal and loses at once (the opponent counts as capturing the mover's
  string, as in some Atarigo programs).  Every empty point is then legal; a move that captures is never a
  suicide (capture comes first).  Cazenave 2015 says only "the rule are the same as Go except that the first
  player to capture a string has won"; we take this reading as the default because, of the two readings, it is the
  one nearer his Table 1 (PPA against UCT), though it does not reproduce his Atarigo cells.  Notebook 01 plays every
  Atarigo cell of Table 1 under both readings (``ppa2015.ATARIGO_RULES``) and renders the comparison from the
  stored games; Go's own rule is ``suicide=0`` (a suicide is illegal; a player with no legal move loses, which on
  boards >= 3x3 essentially never happens).  The default is applied by
  ``games.default_options``, so conditions without options keep their ids; the games stored before it were
  rerun.
* ``codes=1``: PPA/MAST move codes without the colour (``code = move``; the feature pattern is kept), so both
  players' playouts share one weight per intersection.

Nogo: a move is illegal if it captures or is suicide.  The first player that cannot move has lost (Misere
Nogo: has won).  No passes.

Moves are ``cell = row * n + col`` and ``PASS = n^2``.  Move codes: ``player * (n^2 + 1) + move`` (Atarigo with
``codes=1``: ``move``).  Feature codes (Cazenave 2016, Atarigo and Nogo: "the colors of the four intersections next
to the move"): ``256 * code + pattern``, pattern = sum over the four neighbours (west, east, south, north) of
``4^i * v``, with v = 0 empty, 1 mover's stone, 2 opponent's stone, 3 off the board.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import inline_jit, noalloc_jit, nowrap
from .._rng import random_index
from ._bits import ONE, ZERO
from ._common import (H_BOARD, H_COUNT0, H_HASH, H_KO, H_PASSES, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, SPEC_HEADER, finish)

VARIANT_ATARI = 2
VARIANT_NOGO = 4
VARIANT_ATARI_SUICIDE = 8  # Atarigo option suicide=1: a suicide is legal and loses (see the module docstring)
VARIANT_SHARED_CODES = 16  # Atarigo option codes=1: a move has one PPA/MAST code for both colours
MIN_SIZE = 2
MAX_SIZE = 19
DEFAULT_KOMI = 7.5

EMPTY = 0
BORDER = 3
T_CELL_POINT = 3  # spec tables from spec[S_TABLES]: width, points, 2 * komi, then cell -> point, point -> cell


def make_spec(size: int, variant: int, komi: float = DEFAULT_KOMI, suicide: int = 0, codes: int = 0) -> np.ndarray:
    """Build the immutable spec of the game at ``size`` x ``size``; ``variant`` combines VARIANT_* bits.

    Atarigo options: ``suicide`` 0, a suicide is illegal, 1, a suicide is legal and loses (``make_game``'s
    default for atarigo);
    ``codes`` 0, PPA/MAST move codes per colour (the default), 1, one code per move for both colours.
    """
    for name, value, meaning in (("suicide", suicide, "0 (illegal) or 1 (legal, and the mover loses)"),
                                 ("codes", codes, "0 (one code per colour) or 1 (shared by both colours)")):
        if value not in (0, 1):
            raise ValueError(f"{name}={value!r} must be {meaning}")
        if value and not variant & VARIANT_ATARI:
            raise ValueError(f"the {name} option exists only for Atarigo")
    variant |= (VARIANT_ATARI_SUICIDE if suicide else 0) | (VARIANT_SHARED_CODES if codes else 0)
    width = size + 2
    points = width * width
    cells = size * size
    zob = np.random.default_rng([0x5EED, size, 3]).integers(-2**63, 2**63 - 1, size=3 * points + 2, dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size + T_CELL_POINT + cells + points, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells + 1
    spec[S_NUM_CODES] = 2 * (cells + 1)
    spec[S_NUM_CONTEXT_CODES] = 2 * (cells + 1) * 256
    spec[S_STATE_LEN] = H_BOARD + 9 * points
    spec[S_MAX_PLIES] = cells + 1 if variant & (VARIANT_ATARI | VARIANT_NOGO) else 4 * cells + 10
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[3 * points + 1]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t] = width
    spec[t + 1] = points
    spec[t + 2] = int(round(2 * komi))
    spec[t + T_CELL_POINT + cells:t + T_CELL_POINT + cells + points] = -1
    for cell in range(cells):  # tables instead of divisions in the hot loops
        point = (cell // size + 1) * width + cell % size + 1
        spec[t + T_CELL_POINT + cell] = point
        spec[t + T_CELL_POINT + cells + point] = cell
    return spec


@noalloc_jit
def _width(spec):
    return spec[nowrap(spec[S_TABLES])]


@noalloc_jit
def _points(spec):
    return spec[nowrap(spec[S_TABLES] + 1)]


@noalloc_jit
def _point(spec, cell):
    return spec[nowrap(spec[S_TABLES] + T_CELL_POINT + cell)]


@noalloc_jit
def _cell(spec, point):
    return spec[nowrap(spec[S_TABLES] + T_CELL_POINT + spec[S_CELLS] + point)]


@njit(cache=True)
def init_state(spec):
    """Return the empty board, Black (player 0) to move."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    w = _width(spec)
    for p in range(_points(spec)):
        r = p // w
        c = p % w
        if r == 0 or c == 0 or r == w - 1 or c == w - 1:
            state[nowrap(H_BOARD + p)] = BORDER
    points = _points(spec)
    for cell in range(spec[S_CELLS]):
        _add_empty(state, points, _point(spec, cell))
    return state


# String bookkeeping.  Arrays live in the state after the board, each `points` long, indexed by point:
# head (string representative), next (circular stone list), and at the head: pseudo-liberty count, sum,
# sum of squares, and stone count.  Then the empty points: a list (array 8, its length in H_COUNT0, in no
# particular order) and each empty point's position in it (array 7), so random_move can draw empty points.
@noalloc_jit
def _add_empty(state, points, p):
    count = state[H_COUNT0]
    state[nowrap(H_BOARD + 8 * points + count)] = p
    state[nowrap(H_BOARD + 7 * points + p)] = count
    state[H_COUNT0] = count + 1


@noalloc_jit
def _remove_empty(state, points, p):
    count = state[H_COUNT0] - 1
    i = state[nowrap(H_BOARD + 7 * points + p)]
    last = state[nowrap(H_BOARD + 8 * points + count)]
    state[nowrap(H_BOARD + 8 * points + i)] = last
    state[nowrap(H_BOARD + 7 * points + last)] = i
    state[H_COUNT0] = count



@noalloc_jit
def _add_lib(state, points, h, p):
    state[nowrap(H_BOARD + 3 * points + h)] += 1
    state[nowrap(H_BOARD + 4 * points + h)] += p
    state[nowrap(H_BOARD + 5 * points + h)] += p * p


@noalloc_jit
def _remove_lib(state, points, h, p):
    state[nowrap(H_BOARD + 3 * points + h)] -= 1
    state[nowrap(H_BOARD + 4 * points + h)] -= p
    state[nowrap(H_BOARD + 5 * points + h)] -= p * p


@noalloc_jit
def _head(state, points, p):
    return state[nowrap(H_BOARD + points + p)]


@noalloc_jit
def _libs(state, points, h):
    return state[nowrap(H_BOARD + 3 * points + h)]


@noalloc_jit
def _in_atari(state, points, h):
    """True when the string headed by ``h`` has exactly one (distinct) liberty."""
    libs = state[nowrap(H_BOARD + 3 * points + h)]
    s = state[nowrap(H_BOARD + 4 * points + h)]
    return libs > 0 and libs * state[nowrap(H_BOARD + 5 * points + h)] == s * s


@noalloc_jit
def _merge(state, points, a, b):
    """Merge the strings headed by ``a`` and ``b``; return the surviving head."""
    if state[nowrap(H_BOARD + 6 * points + a)] < state[nowrap(H_BOARD + 6 * points + b)]:
        a, b = b, a
    s = b
    while True:
        state[nowrap(H_BOARD + points + s)] = a
        s = state[nowrap(H_BOARD + 2 * points + s)]
        if s == b:
            break
    na = state[nowrap(H_BOARD + 2 * points + a)]
    state[nowrap(H_BOARD + 2 * points + a)] = state[nowrap(H_BOARD + 2 * points + b)]
    state[nowrap(H_BOARD + 2 * points + b)] = na
    for k in range(3, 7):
        state[nowrap(H_BOARD + k * points + a)] += state[nowrap(H_BOARD + k * points + b)]
    return a


@noalloc_jit
def _remove_string(spec, state, points, h):
    """Take the string headed by ``h`` off the board, giving its points back as liberties to its neighbours."""
    w = _width(spec)
    z = spec[S_ZOBRIST]
    color = state[nowrap(H_BOARD + h)]
    s = h
    while True:
        state[nowrap(H_BOARD + s)] = EMPTY
        _add_empty(state, points, s)
        state[H_HASH] ^= spec[nowrap(z + 2 * s + color - 1)]
        s = state[nowrap(H_BOARD + 2 * points + s)]
        if s == h:
            break
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            v = state[nowrap(H_BOARD + q)]
            if v == 1 or v == 2:
                _add_lib(state, points, _head(state, points, q), s)
        s = state[nowrap(H_BOARD + 2 * points + s)]
        if s == h:
            break


@inline_jit
def _place(spec, state, p, color):
    """Put a stone of ``color`` (1 or 2) on point ``p``; return (stones captured, a captured point or -1)."""
    points = _points(spec)
    w = _width(spec)
    state[nowrap(H_BOARD + p)] = color
    _remove_empty(state, points, p)
    state[nowrap(H_BOARD + points + p)] = p
    state[nowrap(H_BOARD + 2 * points + p)] = p
    for k in range(3, 6):
        state[nowrap(H_BOARD + k * points + p)] = 0
    state[nowrap(H_BOARD + 6 * points + p)] = 1
    state[H_HASH] ^= spec[nowrap(spec[S_ZOBRIST] + 2 * p + color - 1)]
    for q in (p - 1, p + 1, p - w, p + w):
        v = state[nowrap(H_BOARD + q)]
        if v == EMPTY:
            _add_lib(state, points, p, q)
        elif v != BORDER:
            _remove_lib(state, points, _head(state, points, q), p)
    for q in (p - 1, p + 1, p - w, p + w):
        if state[nowrap(H_BOARD + q)] == color:
            hq = _head(state, points, q)
            hp = _head(state, points, p)
            if hq != hp:
                _merge(state, points, hp, hq)
    captured = 0
    last = -1
    opp = 3 - color
    for q in (p - 1, p + 1, p - w, p + w):
        if state[nowrap(H_BOARD + q)] == opp:
            hq = _head(state, points, q)
            if _libs(state, points, hq) == 0:
                captured += state[nowrap(H_BOARD + 6 * points + hq)]
                last = q
                _remove_string(spec, state, points, hq)
    return captured, last


@noalloc_jit
def legal_moves(spec, state, out):
    """Write the legal moves into ``out`` and return their number; 0 exactly when the game is over.

    Moves are listed by increasing cell (rows and columns, no division per point), with ``_is_listed``'s tests.
    """
    if state[H_WINNER] != ONGOING:
        return 0
    n = spec[S_SIZE]
    w = n + 2
    player = state[H_TO_MOVE]
    color = player + 1
    variant = spec[S_VARIANT]
    nogo = (variant & VARIANT_NOGO) != 0
    plain_go = (variant & (VARIANT_ATARI | VARIANT_NOGO)) == 0
    free = (variant & VARIANT_ATARI_SUICIDE) != 0  # every empty point is legal
    ko = state[H_KO]
    points = _points(spec)
    opp = 3 - color
    count = 0
    cell = 0
    for r in range(n):
        p = (r + 1) * w + 1
        for c in range(n):
            if state[nowrap(H_BOARD + p)] == EMPTY and p != ko:
                if (state[nowrap(H_BOARD + p - 1)] == EMPTY or state[nowrap(H_BOARD + p + 1)] == EMPTY
                        or state[nowrap(H_BOARD + p - w)] == EMPTY or state[nowrap(H_BOARD + p + w)] == EMPTY):
                    if not (nogo and _captures_next_to(state, points, p, opp, w)):
                        out[nowrap(count)] = cell
                        count += 1
                elif free or _is_listed(spec, state, p, color, nogo, plain_go):
                    out[nowrap(count)] = cell
                    count += 1
            p += 1
            cell += 1
    if count == 0:
        if plain_go:
            out[0] = n * n  # pass, the only move
            return 1
        finish(spec, state, 1 - player)
    return count


@inline_jit
def _captures_next_to(state, points, p, opp, w):
    """A stone on ``p``, which has an empty neighbour, would capture: an adjacent ``opp`` string is in atari
    (its one liberty is then p)."""
    for q in (p - 1, p + 1, p - w, p + w):
        if state[nowrap(H_BOARD + q)] == opp and _in_atari(state, points, _head(state, points, q)):
            return True
    return False


@inline_jit
def _is_listed(spec, state, p, color, nogo, plain_go):
    """The empty point ``p``, not the ko point, is in the legal-move list: legal and, in Go, not an own eye.  The
    callers know that ``p`` is empty and not the ko (``legal_moves`` and ``slot_code`` test both first,
    ``_random_move`` draws from its empty list and tests the ko alone), so it is not read again here.

    A point with an empty neighbour breathes and is no eye, so it is legal without looking at strings, except
    in Nogo, where it must not capture: only the enemy strings next to it are tested.  A surrounded point is an
    own eye (tested first: late in a game most such points are), or legal when an own neighbour string keeps
    a liberty or an enemy one loses its last (Nogo: the first and not the second).  An own eye: the four
    neighbours own stones or edge, and at most one enemy stone on the diagonals (none at the edge).  One pass
    without calls (``legal_moves`` inlines the first case).
    """
    w = _width(spec)
    points = _points(spec)
    opp = 3 - color
    west = state[nowrap(H_BOARD + p - 1)]
    east = state[nowrap(H_BOARD + p + 1)]
    south = state[nowrap(H_BOARD + p - w)]
    north = state[nowrap(H_BOARD + p + w)]
    # The tests below combine their comparisons without branching (EMPTY is 0, a stone or the border is not):
    # whether a neighbour is empty is a coin toss to the CPU, and one mispredicted branch per comparison cost more
    # than the comparisons.  Same answers as the chained ``or``/``and`` they replace.
    if west * east * south * north == EMPTY:
        return not (nogo and _captures_next_to(state, points, p, opp, w))
    # no neighbour is empty: own stone or border on all four sides = no enemy stone next to p
    if plain_go and ((west != opp) & (east != opp) & (south != opp) & (north != opp)):
        if _diagonals_make_eye(state, p, w, opp):
            return False  # an own eye
    breathes = False
    captures = False
    for q in (p - 1, p + 1, p - w, p + w):
        v = state[nowrap(H_BOARD + q)]
        if v == color:
            if not _in_atari(state, points, _head(state, points, q)):
                breathes = True
        elif v == opp:
            if _in_atari(state, points, _head(state, points, q)):
                captures = True
    if nogo:
        return breathes and not captures
    return breathes or captures


@inline_jit
def _diagonals_make_eye(state, p, w, opp):
    """The eye rule's diagonals, for a point whose four neighbours are the player's or the edge: an own eye when
    at most one diagonal holds an ``opp`` stone, none at the edge."""
    sw = state[nowrap(H_BOARD + p - w - 1)]
    se = state[nowrap(H_BOARD + p - w + 1)]
    nw = state[nowrap(H_BOARD + p + w - 1)]
    ne = state[nowrap(H_BOARD + p + w + 1)]
    enemy = np.int64(sw == opp) + np.int64(se == opp) + np.int64(nw == opp) + np.int64(ne == opp)
    edge = (sw == BORDER) | (se == BORDER) | (nw == BORDER) | (ne == BORDER)
    return enemy < 2 - np.int64(edge)


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move (``_random_move``)."""
    return _random_move(spec, state, rng, out)


@inline_jit
def _random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over (``state[H_WINNER]`` then holds the result).

    Rejection sampling: a uniformly random *empty* point is accepted if it is a legal move; after 8 misses (or
    at once when at most 8 points are empty) the legal empty points are listed and one drawn; when there is
    none, Go passes and Atarigo/Nogo end as ``legal_moves`` would end them.  Every try accepts each legal move with the same probability
    and the fallback is uniform too, so the move is exactly uniform over ``legal_moves``.  Uniform playouts
    need nothing more, and usually one try suffices instead of a scan of the whole board.
    """
    if state[H_WINNER] != ONGOING:
        return -1
    color = state[H_TO_MOVE] + 1
    plain_go = (spec[S_VARIANT] & (VARIANT_ATARI | VARIANT_NOGO)) == 0
    nogo = (spec[S_VARIANT] & VARIANT_NOGO) != 0
    empties = state[H_COUNT0]
    ko = state[H_KO]
    list_start = H_BOARD + 8 * _points(spec)
    if (spec[S_VARIANT] & VARIANT_ATARI_SUICIDE) != 0 and empties > 0:  # every empty point is legal
        return _cell(spec, state[nowrap(list_start + random_index(rng, empties))])
    tried = ZERO  # bit i: the i-th empty point was tried and is not listed (kept for the first 64 of the list)
    for _ in range(8 if empties > 8 else 0):  # few empty points: list them at once
        i = random_index(rng, empties)
        p = state[nowrap(list_start + i)]  # empty: only the ko point is tested
        if p != ko and _is_listed(spec, state, p, color, nogo, plain_go):
            return _cell(spec, p)
        if i < 64:
            tried |= ONE << np.uint64(i)
    count = 0  # fallback: every legal empty point, in the list's order, then one drawn uniformly
    for i in range(empties):
        if i < 64 and (tried >> np.uint64(i)) & ONE:
            continue  # tried above: not listed (the test is a function of the position), not tested again
        p = state[nowrap(list_start + i)]
        if p != ko and _is_listed(spec, state, p, color, nogo, plain_go):
            out[nowrap(count)] = _cell(spec, p)
            count += 1
    if count > 0:
        return out[nowrap(random_index(rng, count))]
    # No legal point (the list holds every empty point): pass in Go, else the side to move has lost; exactly
    # what legal_moves would say.
    if plain_go:
        return spec[S_SIZE] * spec[S_SIZE]
    finish(spec, state, 1 - state[H_TO_MOVE])
    return -1


SEEN_BITS = 0x0214  # nibble v of a point's value v: EMPTY 4, Black 1, White 2, BORDER 0


@inline_jit
def _seen_bit(v):
    """What ``area_score`` notes of a neighbour of value ``v`` (0 empty, 1 Black, 2 White, 3 border): 4, 1, 2 or 0,
    read from the nibble table ``SEEN_BITS`` without a branch."""
    return (SEEN_BITS >> (4 * v)) & 7


@noalloc_jit
def area_score(spec, state):
    """(Black, White) area scores: stones plus one-colour-surrounded empty points, komi not included.

    Without branches (each point's colour is a coin toss to the CPU at a playout's end): each neighbour's value
    becomes a bit of ``seen`` (``_seen_bit``); an empty point is Black's when its four neighbours saw Black alone.
    """
    n = spec[S_SIZE]
    w = n + 2
    black = 0
    white = 0
    for r in range(n):
        p = (r + 1) * w + 1
        for _ in range(n):
            v = state[nowrap(H_BOARD + p)]
            seen = (_seen_bit(state[nowrap(H_BOARD + p - 1)]) | _seen_bit(state[nowrap(H_BOARD + p + 1)])
                    | _seen_bit(state[nowrap(H_BOARD + p - w)]) | _seen_bit(state[nowrap(H_BOARD + p + w)]))
            empty = np.int64(v == EMPTY)
            black += np.int64(v == 1) | (empty & np.int64(seen == 1))
            white += np.int64(v == 2) | (empty & np.int64(seen == 2))
            p += 1
    return black, white


@noalloc_jit
def _finish_by_score(spec, state):
    black, white = area_score(spec, state)
    komi2 = spec[nowrap(spec[S_TABLES] + 2)]
    finish(spec, state, 0 if 2 * black > 2 * white + komi2 else 1)


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` (a cell or PASS = n^2) for the side to move, in place (``_play``)."""
    _play(spec, state, move)


@noalloc_jit
def play_random_playout(spec, state, rng, out):
    """The game contract's whole uniform playout: ``random_move`` and ``play`` until the game ends, with both
    inlined (``_random_move``, ``_play``): as calls, each passed ``spec`` and ``state`` as seven scalars apiece at
    every ply (perf on UCT at Go 8x8).  The same moves, result and generator state as move by move."""
    plies = 0
    move = _random_move(spec, state, rng, out)
    while move >= 0:
        _play(spec, state, move)
        plies += 1
        move = _random_move(spec, state, rng, out)
    return plies


@inline_jit
def _play(spec, state, move):
    """``play``'s body, inlined where a loop plays many moves (``play_random_playout``)."""
    n = spec[S_SIZE]
    player = state[H_TO_MOVE]
    z = spec[S_ZOBRIST]
    points = _points(spec)
    ko_keys = z + 2 * points
    pass_key = z + 3 * points
    if state[H_KO] >= 0:
        state[H_HASH] ^= spec[nowrap(ko_keys + state[H_KO])]
        state[H_KO] = -1
    if move == n * n:
        state[H_PASSES] += 1
        if state[H_PASSES] == 1:
            state[H_HASH] ^= spec[nowrap(pass_key)]
    else:
        if state[H_PASSES] == 1:
            state[H_HASH] ^= spec[nowrap(pass_key)]
        state[H_PASSES] = 0
        p = _point(spec, move)
        captured, last = _place(spec, state, p, player + 1)
        if captured > 0 and (spec[S_VARIANT] & VARIANT_ATARI) != 0:
            finish(spec, state, player)
        elif (spec[S_VARIANT] & VARIANT_ATARI_SUICIDE) != 0 and _libs(state, points, _head(state, points, p)) == 0:
            finish(spec, state, 1 - player)  # a suicide: the mover's own string is taken, the opponent wins
        elif captured == 1:
            h = _head(state, points, p)
            if state[nowrap(H_BOARD + 6 * points + h)] == 1 and _in_atari(state, points, h):
                state[H_KO] = last
                state[H_HASH] ^= spec[nowrap(ko_keys + last)]
    state[H_TO_MOVE] = 1 - player
    state[H_HASH] ^= spec[S_SIDE_KEY]
    state[H_PLY] += 1
    if state[H_WINNER] == ONGOING and (spec[S_VARIANT] & (VARIANT_ATARI | VARIANT_NOGO)) == 0:
        if state[H_PASSES] >= 2 or state[H_PLY] >= spec[S_MAX_PLIES]:
            _finish_by_score(spec, state)
    apply_ply_cap(spec, state)


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move`` for the side to move; with ``with_context``, the PPAF/MASTF code."""
    return _code_of(spec, state, move, state[H_TO_MOVE], with_context)


@inline_jit
def _code_of(spec, state, move, player, with_context):
    """``move_code`` of ``move`` for ``player`` (whoever is to move)."""
    n = spec[S_SIZE]
    code = move if spec[S_VARIANT] & VARIANT_SHARED_CODES else player * (n * n + 1) + move
    if not with_context:
        return code
    pattern = 0
    if move < n * n:
        p = _point(spec, move)
        w = _width(spec)
        mult = 1
        for q in (p - 1, p + 1, p - w, p + w):
            v = state[nowrap(H_BOARD + q)]
            if v == 1 or v == 2:
                v = 1 if v == player + 1 else 2
            pattern += mult * v
            mult *= 4
    return 256 * code + pattern


# ---- the incremental legal set (``ppalib.kernels.incremental``, ``playout_engine`` 2) ---------------------------
# A slot per cell (the pass is no slot: it is legal only when no cell is, and the engine then reads legal_moves).
# A point's place in the list depends on its own emptiness and the ko point, its four neighbours' and four
# diagonals' contents (the eye rule), and whether the strings next to it are in atari.  A move changes those only:
# at the move's point and the points it captured (and their eight neighbours), next to the strings whose atari
# status changed (the one liberty of the mover's string or of an enemy string next to the move when in atari now;
# the one liberty a mover's string next to the captured stones had when in atari before), and at the old and the new
# ko point.
@noalloc_jit
def num_slots(spec):
    """One slot per cell."""
    return spec[S_CELLS]


@inline_jit
def slot_code(spec, state, slot, player, with_context):
    """The code of the move on cell ``slot`` for ``player`` if ``legal_moves`` would list it were ``player`` to move
    (the ko point is excluded for both players: it changes every ply, and the engine refreshes it), else -1."""
    p = _point(spec, slot)
    if state[nowrap(H_BOARD + p)] != EMPTY or p == state[H_KO]:
        return -1
    variant = spec[S_VARIANT]
    if (variant & VARIANT_ATARI_SUICIDE) == 0:
        nogo = (variant & VARIANT_NOGO) != 0
        plain_go = (variant & (VARIANT_ATARI | VARIANT_NOGO)) == 0
        if not _is_listed(spec, state, p, player + 1, nogo, plain_go):
            return -1
    return _code_of(spec, state, slot, player, with_context)


@inline_jit
def slot_code_pair(spec, state, slot, with_context):
    """``slot_code`` for players 0 and 1 at once (the contract's optional ``slot_code_pair``): ``_is_listed``'s
    tests for the two colours read the same neighbours and the same strings' atari status, so they are read once.
    The same answers as two ``slot_code`` calls."""
    p = _point(spec, slot)
    if state[nowrap(H_BOARD + p)] != EMPTY or p == state[H_KO]:
        return -1, -1
    variant = spec[S_VARIANT]
    listed1 = True
    listed2 = True
    if (variant & VARIANT_ATARI_SUICIDE) == 0:
        nogo = (variant & VARIANT_NOGO) != 0
        plain_go = (variant & (VARIANT_ATARI | VARIANT_NOGO)) == 0
        w = _width(spec)
        points = _points(spec)
        west = state[nowrap(H_BOARD + p - 1)]
        east = state[nowrap(H_BOARD + p + 1)]
        south = state[nowrap(H_BOARD + p - w)]
        north = state[nowrap(H_BOARD + p + w)]
        breathing = west * east * south * north == EMPTY  # an empty neighbour (see ``_is_listed``)
        if not breathing or nogo:
            # per colour: a neighbour string of it not in atari (free), one in atari (atari)
            free1 = False
            free2 = False
            atari1 = False
            atari2 = False
            for q in (p - 1, p + 1, p - w, p + w):
                v = state[nowrap(H_BOARD + q)]
                if v == 1 or v == 2:
                    in_atari = _in_atari(state, points, _head(state, points, q))
                    if v == 1:
                        free1 |= not in_atari
                        atari1 |= in_atari
                    else:
                        free2 |= not in_atari
                        atari2 |= in_atari
            if breathing:  # Nogo: listed unless it captures
                listed1 = not atari2
                listed2 = not atari1
            elif nogo:
                listed1 = free1 and not atari2
                listed2 = free2 and not atari1
            else:
                listed1 = free1 or atari2
                listed2 = free2 or atari1
                no_white = (west != 2) & (east != 2) & (south != 2) & (north != 2)
                no_black = (west != 1) & (east != 1) & (south != 1) & (north != 1)
                if plain_go and (no_white or no_black):
                    # every neighbour one colour's or the edge: maybe that colour's eye
                    colour = 1 if no_white else 2
                    if _diagonals_make_eye(state, p, w, 3 - colour):  # an own eye of ``colour``
                        if colour == 1:
                            listed1 = False
                        else:
                            listed2 = False
    code0 = _code_of(spec, state, slot, 0, with_context) if listed1 else -1
    code1 = _code_of(spec, state, slot, 1, with_context) if listed2 else -1
    return code0, code1


play_inlined = _play  # the contract's optional ``play_inlined``: engine 2's loop inlines the move


@noalloc_jit
def moves_without_slots(spec, state, out):
    """``legal_moves`` where no cell is listed for the side to move (the engine's sum trees know it): the pass in
    Go, else none, and the game ends as ``legal_moves`` ends it (Nogo: the side without a move loses)."""
    if state[H_WINNER] != ONGOING:
        return 0
    if (spec[S_VARIANT] & (VARIANT_ATARI | VARIANT_NOGO)) == 0:
        out[0] = spec[S_SIZE] * spec[S_SIZE]  # pass, the only move
        return 1
    finish(spec, state, 1 - state[H_TO_MOVE])
    return 0


@noalloc_jit
def before_play(spec, state, move, memo):
    """What ``dirty_slots`` needs from before ``move``: the number of empty points and the ko point."""
    memo[0] = state[H_COUNT0]
    memo[1] = state[H_KO]


@inline_jit
def _around(spec, state, p, every, out, count):
    """Append ``p``'s cell and the empty ones of its four neighbours (with ``every``, else only the surrounded
    ones), and in Go (the eye rule reads them) its surrounded diagonal neighbours."""
    w = _width(spec)
    out[nowrap(count)] = _cell(spec, p)
    count += 1
    for q in (p - 1, p + 1, p - w, p + w):
        if state[nowrap(H_BOARD + q)] == EMPTY and (every or _surrounded(state, q, w)):
            out[nowrap(count)] = _cell(spec, q)
            count += 1
    if (spec[S_VARIANT] & (VARIANT_ATARI | VARIANT_NOGO)) == 0:
        for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
            if state[nowrap(H_BOARD + q)] == EMPTY and _surrounded(state, q, w):
                out[nowrap(count)] = _cell(spec, q)
                count += 1
    return count


@inline_jit
def _surrounded(state, q, w):
    """No empty point next to ``q``.  In Go and Atarigo a point with one is listed for both players whatever the
    strings around it (it breathes, and is no eye), and in Nogo unless a string next to it is in atari, so only a
    surrounded point's status can change without a change next to it or to such a string."""
    return (state[nowrap(H_BOARD + q - 1)] != EMPTY and state[nowrap(H_BOARD + q + 1)] != EMPTY
            and state[nowrap(H_BOARD + q - w)] != EMPTY and state[nowrap(H_BOARD + q + w)] != EMPTY)


@inline_jit
def _liberty_before_captures(spec, state, points, h, first, empties):
    """The one liberty the mover's string headed by ``h`` (not the string of the move) had before the move, if it
    was in atari then, else -1.  The move changed that string only by the points it captured (the empty-point
    list from ``first`` to ``empties``), each adjacency of which ``_remove_string`` added to its pseudo-liberty
    count, sum and sum of squares: taking those off gives the sums from before the move."""
    w = _width(spec)
    libs = state[nowrap(H_BOARD + 3 * points + h)]
    total = state[nowrap(H_BOARD + 4 * points + h)]
    squares = state[nowrap(H_BOARD + 5 * points + h)]
    color = state[nowrap(H_BOARD + h)]
    list_start = H_BOARD + 8 * points
    for i in range(first, empties):
        c = state[nowrap(list_start + i)]
        for q in (c - 1, c + 1, c - w, c + w):
            if state[nowrap(H_BOARD + q)] == color and _head(state, points, q) == h:
                libs -= 1
                total -= c
                squares -= c * c
    if libs > 0 and libs * squares == total * total:
        return total // libs
    return -1


@inline_jit
def _first_time(memo, h):
    """``h`` was not met yet in this ply (heads kept in ``memo[4:15]``, their number in ``memo[15]``): remember
    it and return 1; 0 when it was; -1 when the memo is full (the caller then names every cell)."""
    met = memo[15]
    for i in range(met):
        if memo[nowrap(4 + i)] == h:
            return 0
    if met == 11:
        return -1
    memo[nowrap(4 + met)] = h
    memo[15] = met + 1
    return 1


@inline_jit
def _atari_liberty(spec, state, points, q, out, count):
    """Append the one liberty of the string on ``q`` if it is in atari (its pseudo-liberties' sum over their
    count); return the new count."""
    h = _head(state, points, q)
    if _in_atari(state, points, h):
        liberty = state[nowrap(H_BOARD + 4 * points + h)] // state[nowrap(H_BOARD + 3 * points + h)]
        out[nowrap(count)] = _cell(spec, liberty)
        count += 1
    return count


@inline_jit
def dirty_slots(spec, state, move, with_context, memo, out):
    """After ``play(move)``: write into ``out`` the cells whose ``slot_code`` may have changed (with repeats, fewer
    than 13 per cell of the board: each captured point's neighbourhood once, a liberty per string) and return their
    number.  The neighbours of a changed point are all listed with ``with_context`` (their codes read it), else
    only the surrounded ones.  In Go and Atarigo a point with an empty neighbour is listed for both players; in Nogo
    it is listed unless it captures, that is unless a string next to it is in atari, and a string that the move
    put in atari has its one liberty listed below (a string in atari before the move and next to it was captured,
    which Nogo forbids, or joined the move's string)."""
    every = with_context
    points = _points(spec)
    w = _width(spec)
    count = 0
    if memo[1] >= 0:
        out[nowrap(count)] = _cell(spec, memo[1])
        count += 1
    if state[H_KO] >= 0:
        out[nowrap(count)] = _cell(spec, state[H_KO])
        count += 1
    if move == spec[S_SIZE] * spec[S_SIZE]:  # a pass changes only the ko point
        return count
    if not with_context and (spec[S_VARIANT] & VARIANT_ATARI_SUICIDE) != 0:
        # Atarigo with legal suicides: every empty point is listed whatever surrounds it, so a move changes only its
        # own point's slot (a capture ends the game, so no point is given back and no ko arises)
        out[nowrap(count)] = move
        return count + 1
    memo[15] = 0
    p = _point(spec, move)
    count = _around(spec, state, p, every, out, count)
    color = state[nowrap(H_BOARD + p)]
    # The mover's string and the enemy strings next to the move: a string in atari now has one liberty, whose
    # status may have changed (it is the sum of the pseudo-liberties over their count); the other points next to
    # them keep theirs.  (A string that joined the mover's and was in atari had the move's point as its only
    # liberty; one that was not keeps its liberties' status unless the joined string is in atari now; an enemy
    # string that was in atari was captured.)
    # Written out point by point: numba runs a loop over a tuple through a jump table.
    count = _atari_liberty(spec, state, points, p, out, count)
    enemy = 3 - color
    if state[nowrap(H_BOARD + p - 1)] == enemy:
        count = _atari_liberty(spec, state, points, p - 1, out, count)
    if state[nowrap(H_BOARD + p + 1)] == enemy:
        count = _atari_liberty(spec, state, points, p + 1, out, count)
    if state[nowrap(H_BOARD + p - w)] == enemy:
        count = _atari_liberty(spec, state, points, p - w, out, count)
    if state[nowrap(H_BOARD + p + w)] == enemy:
        count = _atari_liberty(spec, state, points, p + w, out, count)
    # Captured stones: the last entries of the empty-point list (``_place`` removes the move's point first, then
    # ``_remove_string`` appends every captured point).  The mover's strings next to them gained those points as
    # liberties; of their other liberties, only the one of a string that was in atari before the move changes
    # status (it had one liberty and now has more).  The string of the move is no such string: a string that
    # joined it and was in atari had the move's point as its only liberty, and if it is in atari now its one
    # liberty was listed above.
    empties = state[H_COUNT0]
    captured = empties - (memo[0] - 1)
    list_start = H_BOARD + 8 * points
    own = _head(state, points, p)
    for i in range(empties - captured, empties):
        if count < 0:
            break
        c = state[nowrap(list_start + i)]
        count = _around(spec, state, c, every, out, count)
        for q in (c - 1, c + 1, c - w, c + w):
            if count >= 0 and state[nowrap(H_BOARD + q)] == color:
                h = _head(state, points, q)
                if h == own:
                    continue
                first = _first_time(memo, h)
                if first < 0:
                    count = -1
                elif first > 0:
                    liberty = _liberty_before_captures(spec, state, points, h, empties - captured, empties)
                    if liberty >= 0:
                        out[nowrap(count)] = _cell(spec, liberty)
                        count += 1
    if count < 0:  # too many strings to track: every cell
        for cell in range(spec[S_CELLS]):
            out[nowrap(cell)] = cell
        return spec[S_CELLS]
    return count


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    n = int(spec[S_SIZE])
    if move == n * n:
        return "pass"
    return f"{chr(ord('a') + move % n)}{move // n + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """Text diagram, Black ``x``, White ``o``, row n on top."""
    n = int(spec[S_SIZE])
    glyph = ".xo#"
    return "\n".join("".join(glyph[state[H_BOARD + _point(spec, r * n + c)]] for c in range(n))
                     for r in range(n - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from board, ko point, pass count and side to move."""
    n = int(spec[S_SIZE])
    z = int(spec[S_ZOBRIST])
    points = int(_points(spec))
    h = 0
    for cell in range(n * n):
        p = int(_point(spec, cell))
        v = int(state[H_BOARD + p])
        if v in (1, 2):
            h ^= int(spec[z + 2 * p + v - 1])
    if state[H_KO] >= 0:
        h ^= int(spec[z + 2 * points + int(state[H_KO])])
    if state[H_PASSES] >= 1:  # the key stands for "the previous move was a pass"
        h ^= int(spec[z + 3 * points])
    if state[H_TO_MOVE] == 1:
        h ^= int(spec[S_SIDE_KEY])
    return int(np.uint64(h & 0xFFFFFFFFFFFFFFFF).astype(np.int64))


# ---- board graph, owners and move cells (spatial features, Soemers et al. 2019) ----------------------------------
from ._common import apply_ply_cap  # noqa: E402  (here, not at the top: play() resolves it when compiled)


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 (Black) or 1 (White) for the stone on ``cell``, -1 when the point is empty."""
    return state[nowrap(H_BOARD + _point(spec, cell))] - 1


@noalloc_jit
def move_from(spec, state, move):
    """-1: stones are placed, never moved."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """The point ``move`` plays on, or -1 for the pass."""
    return move if move < spec[S_SIZE] * spec[S_SIZE] else -1


def board_graph(spec: np.ndarray):
    """The n x n board, cells ``row * n + col`` as in moves (the state pads the board), row 0 at the bottom."""
    from .graph import square_graph
    n = int(spec[S_SIZE])
    return square_graph(n, n)
