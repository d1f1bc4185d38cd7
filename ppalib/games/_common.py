"""Layout shared by every game: the state header and the spec header.

A game is a module of pure functions over two plain ``int64`` arrays:

``spec``
    Immutable description of one game at one size, built once in Python by the module's ``make_spec``.
    Slots ``S_*`` below are the same for every game; tables (Zobrist keys, neighbours) follow.
``state``
    One position.  Slots ``H_*`` below are the same for every game; the board follows at ``H_BOARD``.
    Copying a position is ``state.copy()`` (or ``dst[:] = src``): it holds everything, no pointers.

Players are 0 (moves first) and 1.  ``state[H_WINNER]`` is ``ONGOING`` (-1), 0, 1 or ``DRAW`` (2).
Moves are small non-negative integers, unique within a position; ``legal_moves`` lists them in a
deterministic order, so search statistics can be indexed by a move's position in that list.
"""
import numpy as np

from .._noalloc import noalloc_jit, nowrap
from .._rng import random_index

# ---- state header -------------------------------------------------------------------------------------
H_TO_MOVE = 0   # player to move, 0 or 1
H_PLY = 1       # plies played since the start
H_HASH = 2      # Zobrist hash of everything that defines the position (board, side to move, ko, passes)
H_WINNER = 3    # ONGOING, 0, 1 or DRAW; set by play() or by legal_moves() when the side to move is stuck
H_PASSES = 4    # consecutive passes (Go)
H_KO = 5        # point forbidden by the simple-ko rule for the side to move, or -1 (Go)
H_COUNT0 = 6    # game-specific counters (Breakthrough: pieces of player 0 / 1; Go: empty points)
H_COUNT1 = 7
H_BOARD = 8     # first cell of the board

ONGOING = -1
DRAW = 2

# ---- spec header ----------------------------------------------------------------------------------------
S_SIZE = 0             # board side length
S_VARIANT = 1          # bit set of rule variants, see VARIANT_*
S_CELLS = 2            # number of playable cells (size * size for square boards)
S_MAX_MOVES = 3        # upper bound on the number of legal moves in any position
S_NUM_CODES = 4        # number of distinct PPA/MAST move codes (both players)
S_NUM_CONTEXT_CODES = 5  # number of distinct PPAF/MASTF move codes, with the move's context (both players)
S_STATE_LEN = 6        # length of a state array
S_MAX_PLIES = 7        # upper bound on the length of a game in plies
S_ZOBRIST = 8          # offset in spec of the Zobrist table
S_TABLES = 9           # offset in spec of game-specific tables
S_SIDE_KEY = 10        # Zobrist key xor-ed in when player 1 is to move
S_PLY_CAP = 11         # a game reaching this many plies ends in a draw (0 = no cap; Soemers et al. 2019 use 100)
SPEC_HEADER = 16

VARIANT_MISERE = 1     # the result of every terminal position is inverted (winner <-> loser)


@noalloc_jit
def finish(spec, state, normal_winner):
    """Record the end of the game; ``normal_winner`` is the winner under the normal (non-misere) rules.

    Misere variants keep the terminal positions of the normal game and invert its result, which is exactly
    the papers' definition for Breakthrough, Domineering, Knightthrough and Nogo ("the first player to reach
    the opposite row / that cannot move has lost" becomes "... has won").
    """
    w = normal_winner
    if (spec[S_VARIANT] & VARIANT_MISERE) != 0 and w != DRAW:
        w = 1 - w
    state[H_WINNER] = w


@noalloc_jit
def apply_ply_cap(spec, state):
    """End the game in a draw when it has reached the ply cap ``spec[S_PLY_CAP]`` (0 = no cap) and is not over by
    its own rules: the last line of every board game's ``play`` (Soemers et al. 2019: "automatically declared a
    tie after 100 moves").  The cap counts plies (``H_PLY``), so a capture chain's steps count one each.  A result
    set by the move itself stands; a side left without any move exactly at the cap (which only ``legal_moves``
    would find) gets the draw."""
    if at_ply_cap(spec, state):
        state[H_WINNER] = DRAW


@noalloc_jit
def at_ply_cap(spec, state):
    """True when the game is still on and has reached ``spec[S_PLY_CAP]`` plies (``apply_ply_cap`` then ends it;
    Othello first looks whether the game is over by its own rules)."""
    return state[H_WINNER] == ONGOING and spec[S_PLY_CAP] > 0 and state[H_PLY] >= spec[S_PLY_CAP]


def with_ply_cap(spec, ply_cap):
    """``spec`` with the ply cap ``ply_cap`` (an int >= 0; 0 = none) in ``S_PLY_CAP``: how ``games.make_game``
    applies the common ``ply_cap`` option of every board game (module ``make_spec`` functions never see it)."""
    if isinstance(ply_cap, bool) or not isinstance(ply_cap, (int, np.integer)) or ply_cap < 0:
        raise ValueError(f"ply_cap={ply_cap!r} must be an integer >= 0 (0: no cap)")
    spec = spec.copy()
    spec[S_PLY_CAP] = int(ply_cap)  # S_MAX_PLIES stays: Go scores a game at its own length bound
    return spec


@noalloc_jit
def uniform_pick(rng, out, count):
    """A uniformly random entry of ``out[:count]``, or -1 when ``count`` is 0: the ``random_move`` of every game
    that draws from its full move list (``random_move(...) = uniform_pick(rng, out, legal_moves(...))``)."""
    if count == 0:
        return -1
    return out[nowrap(random_index(rng, count))]


@noalloc_jit
def before_play_remembers_nothing(spec, state, move, memo):
    """``before_play`` (the incremental legal set, ``games.contract``) of the games whose ``dirty_slots`` follow
    from the move and the position after it alone (Hex, Gomoku, Yavalath, Domineering): nothing to remember."""
    return
