"""Cashing Checks (Berlekamp et al.): Blind, Stale-dated and Post-dated variants (Mehat & Vittaut 2013, sections 4.1-4.4).

N checks worth 1..N lie on the table (``size`` = N).  The players alternately take one check each ply; after
``turns`` plies (the paper's k: "ten steps" of the whole match, five checks each) the match ends.  Each player's
checks are summed, the second player adds the ``komi``, and the larger sum wins; equal sums draw (goal 50).
Player 0 (GDL ``left``) moves first.  Moves are the check index ``value - 1``, listed by increasing value.

* Blind Cashing Checks: a check is worth its value whenever it is taken (the annex's GDL: N = 20, k = 10,
  komi 5).  "Blind" describes the players (they cannot read the amounts), not the rules.
* Cashing Stale-dated Checks: the check of rank i (the i-th largest, value N - i + 1) is worth its value if
  taken at turn i or before, 0 after ("the check with the biggest value amounts to zero after the first move,
  the second one after the second turn and so on"); the paper: N = 12, k = 10, komi 5.
* Cashing Post-dated Checks: a check worth N - k + i is worth nothing before turn i, its value from turn i on;
  checks worth N - k or less are always valid.  The paper does not play this game and gives no komi: "the
  optimal strategy for both players is then to take the checks in the reverse order, starting with the one that
  has the least amount", and "a reverse komi compensates the advantage of the second player".  That line (at
  turn i, the check N - k + i, which has just become valid) gives the second player k/2 more when k is even, so
  the default komi is -(k // 2).  The exact solver (``Solver``; k = 2..12, N = k..2k + 2) shows the claim holds
  only with enough checks and an even k: for even k, that line is optimal and komi -k/2 makes the game a draw
  when N >= 2k - 2 (e.g. N = 20, k = 10); with N <= 2k - 3 (k >= 4) the first player wins with komi -k/2
  (taking a big post-dated check early, worth 0, to deny it can pay: N = 12, k = 10 may open with 12); with an
  odd k the line is optimal but the first player has the extra turn and wins.

Turns are counted from 1 (the first move is turn 1).  The Zobrist hash covers the taken checks and both sums
(in the stale- and post-dated games the same checks can be worth different sums); the ply and the side to move
follow from the number of taken checks.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit
from ._common import (DRAW, H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, SPEC_HEADER, uniform_pick)

VARIANT_STALE = 2
VARIANT_POSTDATED = 4
MIN_SIZE = 2
MAX_SIZE = 60


def make_spec(size: int, variant: int, turns: int = 10, komi: int | None = None) -> np.ndarray:
    """Spec for ``size`` checks worth 1..size, ``turns`` plies in all, ``komi`` for the second player
    (default k/2 = 5 for Blind and Stale-dated, -k/2 for Post-dated)."""
    if not 1 <= turns <= size:
        raise ValueError(f"turns={turns} is out of range for {size} checks: allowed 1..{size}")
    if komi is None:
        komi = -(turns // 2) if variant & VARIANT_POSTDATED else turns // 2
    max_sum = size * (size + 1) // 2
    zob = np.random.default_rng([0x5EED, size, 4]).integers(-2**63, 2**63 - 1, size=size + 2 * (max_sum + 1) + 1,
                                                            dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size + 4, dtype=np.int64)
    spec[S_SIZE] = size
    spec[S_VARIANT] = variant
    spec[S_CELLS] = size
    spec[S_MAX_MOVES] = size
    spec[S_NUM_CODES] = 2 * size
    spec[S_NUM_CONTEXT_CODES] = 2 * size
    spec[S_STATE_LEN] = H_BOARD + size
    spec[S_MAX_PLIES] = turns
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[-1]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t] = turns
    spec[t + 1] = komi
    spec[t + 2] = max_sum
    return spec


@noalloc_jit
def _turns(spec):
    return spec[spec[S_TABLES]]


@noalloc_jit
def _sum_key(spec, player, total):
    return spec[spec[S_ZOBRIST] + spec[S_SIZE] + player * (spec[spec[S_TABLES] + 2] + 1) + total]


@njit(cache=True)
def init_state(spec):
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    state[H_HASH] = _sum_key(spec, 0, 0) ^ _sum_key(spec, 1, 0)
    return state


@noalloc_jit
def check_worth(spec, value, turn):
    """What a check of ``value`` is worth when taken at ``turn`` (1-based) under the variant's rules."""
    n = spec[S_SIZE]
    variant = spec[S_VARIANT]
    if variant & VARIANT_STALE:
        rank = n - value + 1
        return value if turn <= rank else 0
    if variant & VARIANT_POSTDATED:
        valid_from = value - (n - _turns(spec))
        return value if turn >= valid_from else 0
    return value


@noalloc_jit
def legal_moves(spec, state, out):
    if state[H_WINNER] != ONGOING:
        return 0
    count = 0
    for check in range(spec[S_SIZE]):
        if state[H_BOARD + check] == 0:
            out[count] = check
            count += 1
    return count


@noalloc_jit
def play(spec, state, move):
    player = state[H_TO_MOVE]
    turn = state[H_PLY] + 1
    state[H_BOARD + move] = 1 + player
    old = state[H_COUNT0 + player]
    new = old + check_worth(spec, move + 1, turn)
    state[H_COUNT0 + player] = new
    state[H_HASH] ^= (spec[spec[S_ZOBRIST] + move] ^ _sum_key(spec, player, old) ^ _sum_key(spec, player, new)
                      ^ spec[S_SIDE_KEY])
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] = turn
    if turn >= _turns(spec):
        left = state[H_COUNT0]
        right = state[H_COUNT0 + 1] + spec[spec[S_TABLES] + 1]
        state[H_WINNER] = 0 if left > right else (1 if right > left else DRAW)


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over (``state[H_WINNER]`` then holds the result)."""
    return uniform_pick(rng, out, legal_moves(spec, state, out))


@noalloc_jit
def move_code(spec, state, move, with_context):
    return state[H_TO_MOVE] * spec[S_SIZE] + move


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    return f"take {move + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    n = int(spec[S_SIZE])
    left = [v + 1 for v in range(n) if state[H_BOARD + v] == 1]
    right = [v + 1 for v in range(n) if state[H_BOARD + v] == 2]
    return (f"turn {int(state[H_PLY])}/{int(_turns(spec))}: left {left} = {int(state[H_COUNT0])}, "
            f"right {right} = {int(state[H_COUNT0 + 1])} + komi {int(spec[spec[S_TABLES] + 1])}")


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    h = 0
    for check in range(int(spec[S_SIZE])):
        if state[H_BOARD + check]:
            h ^= int(spec[spec[S_ZOBRIST] + check])
    h ^= int(_sum_key(spec, 0, state[H_COUNT0])) ^ int(_sum_key(spec, 1, state[H_COUNT0 + 1]))
    if state[H_TO_MOVE] == 1:
        h ^= int(spec[S_SIDE_KEY])
    return int(np.uint64(h & 0xFFFFFFFFFFFFFFFF).astype(np.int64))


# ---- exact solver ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _solve(spec, mask, ply, diff, memo):
    """Win/draw/loss (+1/0/-1) for the player to move, by memoised minimax.

    The future of a position depends only on the checks taken (``mask``; the ply is its size) and on
    ``diff`` = left's sum - right's sum, so the pair (mask, diff) is the memo key.  (Not one int64: a mask of
    up to 60 checks and a diff of up to +-1830 need 72 bits; packing them as ``mask << 16 | diff`` lost the
    checks from 49 on, and positions that differ only there shared values.)  Checks are tried from the largest
    and the search stops at the first win (no value exceeds a win), so every stored value is exact.
    """
    turns = _turns(spec)
    if ply == turns:
        final = diff - spec[spec[S_TABLES] + 1]
        value = 1 if final > 0 else (-1 if final < 0 else 0)
        return value if ply % 2 == 0 else -value
    key = (mask, diff)
    if key in memo:
        return memo[key]
    best = -2
    sign = 1 if ply % 2 == 0 else -1
    for check in range(spec[S_SIZE] - 1, -1, -1):
        if mask & (np.int64(1) << check):
            continue
        worth = check_worth(spec, check + 1, ply + 1)
        value = -_solve(spec, mask | (np.int64(1) << check), ply + 1, diff + sign * worth, memo)
        if value > best:
            best = value
            if best == 1:
                break
    memo[key] = best
    return best


class Solver:
    """Exact game values and optimal moves of one Cashing Checks spec (N <= 60, memo kept between calls).

    ``value(state)``: +1, 0 or -1 for the player to move (win, draw, loss with best play by both).
    ``optimal_moves(state)``: the moves that keep that value, by increasing check.
    """

    def __init__(self, spec: np.ndarray):
        from numba import types
        from numba.typed import Dict
        self.spec = spec
        self.memo = Dict.empty(key_type=types.UniTuple(types.int64, 2), value_type=types.int64)

    def _key(self, state):
        n = int(self.spec[S_SIZE])
        mask = sum(1 << c for c in range(n) if state[H_BOARD + c])
        return mask, int(state[H_PLY]), int(state[H_COUNT0] - state[H_COUNT0 + 1])

    def value(self, state: np.ndarray) -> int:
        mask, ply, diff = self._key(state)
        return int(_solve(self.spec, mask, ply, diff, self.memo))

    def optimal_moves(self, state: np.ndarray) -> list[int]:
        mask, ply, diff = self._key(state)
        if ply >= _turns(self.spec):
            return []
        best = self.value(state)
        sign = 1 if ply % 2 == 0 else -1
        moves = []
        for check in range(int(self.spec[S_SIZE])):
            if not mask & (1 << check):
                worth = int(check_worth(self.spec, check + 1, ply + 1))
                if -_solve(self.spec, mask | (1 << check), ply + 1, diff + sign * worth, self.memo) == best:
                    moves.append(check)
        return moves


# ---- no board: what the spatial-feature functions say (the contract's functions, defined for every game) -----------
@noalloc_jit
def cell_owner(spec, state, cell):
    """-1: the checks are not a board; no spatial feature sees an owned cell."""
    return -1


@noalloc_jit
def move_from(spec, state, move):
    """-1: taking a check is no move on a board."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """-1: taking a check is no move on a board."""
    return -1


def board_graph(spec: np.ndarray):
    """Cashing Checks has no board, so no board graph: raises ValueError (spatial features need a board)."""
    raise ValueError("Cashing Checks has no board: spatial features (board_graph) apply to board games only")
