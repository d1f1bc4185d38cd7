"""Cashing Checks (Berlekamp et al.): Blind, Stale-dated and Post-dated variants (Mehat & Vittaut 2013, sections
4.1-4.4), and the sum of a Blind and a Stale-dated game (their section 8).

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

* The sum of Blind and Stale-dated Cashing Checks (``VARIANT_SUM``): Mehat & Vittaut 2013, section 8, "another
  synthetic game built by summing the two games used, for example alternating a move in Blind Cashing Checks and
  a move in Cashing Stale-dated Checks", the game where root-only adaptive RAVE should fail.  Our rule: the two
  games are played in alternating *rounds* of one move each, both players in turn and the first player first:
  plies 1-2 in the Blind part, 3-4 in the Stale-dated part, 5-6 Blind, and so on, each part for ``turns`` plies
  (the paper's k, even), so the match has 2k plies.  Each part is exactly its own game (the first player moves
  first in it, its checks' dates count its own turns: the Stale-dated check of rank i is worth its value if taken
  at the part's turn i or before); a player's total is the sum of both parts' checks, the second player adds the
  komi (default k: each part's k/2).  Why rounds and not plies: alternating the part at every ply would give one
  player only Blind checks and the other only Stale-dated ones, two unrelated games rather than a sum; with
  rounds each node of the tree belongs to one part, so a RAVE decision per node can fit it while one decision at
  the root cannot fit both.  ``size`` is the Blind part's number of checks N, option ``stale_checks`` the
  Stale-dated part's (default k + 2, the paper's 12 for k = 10).  Moves 0..N-1 take the Blind checks worth
  1..N, moves N.. the Stale-dated checks worth 1, 2, ...; only the checks of the part in play are legal.  The
  exact solver uses that a sum of independent games played in a fixed order has, for the difference of totals,
  the sum of the parts' minimax values, and that the win/draw/loss value is the sign of that minimax difference
  minus the komi (tested against plain minimax on small sums).

Turns are counted from 1 (the first move is turn 1).  The Zobrist hash covers the taken checks and both sums
(in the stale- and post-dated games the same checks can be worth different sums); the ply and the side to move
follow from the number of taken checks.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import noalloc_jit, nowrap
from ._common import (DRAW, H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, SPEC_HEADER, uniform_pick)

VARIANT_STALE = 2
VARIANT_POSTDATED = 4
VARIANT_SUM = 8  # a Blind part and a Stale-dated part in alternating rounds
MIN_SIZE = 2
MAX_SIZE = 60


def make_spec(size: int, variant: int, turns: int = 10, komi: int | None = None,
              stale_checks: int | None = None) -> np.ndarray:
    """Spec for ``size`` checks worth 1..size, ``turns`` plies in all, ``komi`` for the second player
    (default k/2 = 5 for Blind and Stale-dated, -k/2 for Post-dated).  The sum game (``VARIANT_SUM``): ``size``
    Blind checks and ``stale_checks`` Stale-dated ones, ``turns`` plies in each part (module docstring)."""
    if variant & VARIANT_SUM:
        return _make_sum_spec(size, turns, komi, stale_checks)
    if stale_checks is not None:
        raise ValueError("stale_checks is an option of the sum game (sum_cashing_checks) only")
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


def _make_sum_spec(blind: int, turns: int, komi: int | None, stale: int | None) -> np.ndarray:
    if turns < 2 or turns % 2:
        raise ValueError(f"turns={turns} is out of range for the sum game: an even number >= 2 (the parts "
                         f"alternate in rounds of one move each, so each part has an even number of plies)")
    stale = turns + 2 if stale is None else stale
    if not turns <= blind:
        raise ValueError(f"turns={turns} is out of range for {blind} Blind checks: allowed 2..{blind}")
    if isinstance(stale, bool) or not isinstance(stale, (int, np.integer)) or not turns <= stale <= MAX_SIZE:
        raise ValueError(f"stale_checks={stale!r} is out of range: allowed {turns}..{MAX_SIZE} (at least the "
                         f"part's {turns} turns)")
    total = blind + int(stale)
    if total > MAX_SIZE:
        raise ValueError(f"{blind} Blind and {stale} Stale-dated checks make {total}: allowed at most {MAX_SIZE}")
    komi = turns if komi is None else komi  # k/2 for each part, as in the paper's games
    max_sum = blind * (blind + 1) // 2 + stale * (stale + 1) // 2
    zob = np.random.default_rng([0x5EED, total, VARIANT_SUM]).integers(-2**63, 2**63 - 1,
                                                                       size=total + 2 * (max_sum + 1) + 1,
                                                                       dtype=np.int64)
    spec = np.zeros(SPEC_HEADER + zob.size + 4, dtype=np.int64)
    spec[S_SIZE] = total
    spec[S_VARIANT] = VARIANT_SUM
    spec[S_CELLS] = total
    spec[S_MAX_MOVES] = max(blind, stale)
    spec[S_NUM_CODES] = 2 * total
    spec[S_NUM_CONTEXT_CODES] = 2 * total
    spec[S_STATE_LEN] = H_BOARD + total
    spec[S_MAX_PLIES] = 2 * turns
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[-1]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t] = 2 * turns  # plies of the match
    spec[t + 1] = komi
    spec[t + 2] = max_sum
    spec[t + 3] = blind
    return spec


@noalloc_jit
def _turns(spec):
    """Plies of the match (the sum game: of both parts)."""
    return spec[nowrap(spec[S_TABLES])]


@noalloc_jit
def _blind_checks(spec):
    """The sum game: the number of checks of its Blind part (moves below it take Blind checks)."""
    return spec[nowrap(spec[S_TABLES] + 3)]


@noalloc_jit
def sum_part(ply):
    """The sum game: the part in play at 0-based ``ply`` (0 Blind, 1 Stale-dated), in rounds of two plies."""
    return (ply // 2) % 2


@noalloc_jit
def sum_part_turn(ply):
    """The sum game: the turn (1-based) of the part in play at 0-based ``ply``, counted in that part only."""
    return (ply // 4) * 2 + ply % 2 + 1


@noalloc_jit
def _sum_key(spec, player, total):
    return spec[nowrap(spec[S_ZOBRIST] + spec[S_SIZE] + player * (spec[nowrap(spec[S_TABLES] + 2)] + 1) + total)]


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
def move_worth(spec, move, ply):
    """What taking check ``move`` at 0-based ``ply`` is worth: ``check_worth`` of its value at turn ply + 1, or in
    the sum game that of its part (a Blind check its value; a Stale-dated check of rank i its value up to the
    part's turn i)."""
    if spec[S_VARIANT] & VARIANT_SUM:
        blind = _blind_checks(spec)
        if move < blind:
            return move + 1
        value = move - blind + 1
        rank = spec[S_SIZE] - blind - value + 1
        return value if sum_part_turn(ply) <= rank else 0
    return check_worth(spec, move + 1, ply + 1)


@noalloc_jit
def legal_moves(spec, state, out):
    if state[H_WINNER] != ONGOING:
        return 0
    low = 0
    high = spec[S_SIZE]
    if spec[S_VARIANT] & VARIANT_SUM:  # only the checks of the part in play
        if sum_part(state[H_PLY]) == 0:
            high = _blind_checks(spec)
        else:
            low = _blind_checks(spec)
    count = 0
    for check in range(low, high):
        if state[nowrap(H_BOARD + check)] == 0:
            out[nowrap(count)] = check
            count += 1
    return count


@noalloc_jit
def play(spec, state, move):
    player = state[H_TO_MOVE]
    turn = state[H_PLY] + 1
    state[nowrap(H_BOARD + move)] = 1 + player
    old = state[nowrap(H_COUNT0 + player)]
    new = old + move_worth(spec, move, turn - 1)
    state[nowrap(H_COUNT0 + player)] = new
    state[H_HASH] ^= (spec[nowrap(spec[S_ZOBRIST] + move)] ^ _sum_key(spec, player, old) ^ _sum_key(spec, player, new)
                      ^ spec[S_SIDE_KEY])
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] = turn
    if turn >= _turns(spec):
        left = state[H_COUNT0]
        right = state[H_COUNT0 + 1] + spec[nowrap(spec[S_TABLES] + 1)]
        state[H_WINNER] = 0 if left > right else (1 if right > left else DRAW)


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move, or -1 when the game is over (``state[H_WINNER]`` then holds the result)."""
    return uniform_pick(rng, out, legal_moves(spec, state, out))


@noalloc_jit
def move_code(spec, state, move, with_context):
    return state[H_TO_MOVE] * spec[S_SIZE] + move


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    if spec[S_VARIANT] & VARIANT_SUM:
        blind = int(_blind_checks(spec))
        return f"take Blind {move + 1}" if move < blind else f"take Stale-dated {move - blind + 1}"
    return f"take {move + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    n = int(spec[S_SIZE])
    if spec[S_VARIANT] & VARIANT_SUM:
        blind = int(_blind_checks(spec))
        parts = []
        for player, name in ((1, "left"), (2, "right")):
            taken = [move_to_str(spec, state, m).removeprefix("take ") for m in range(n)
                     if state[H_BOARD + m] == player]
            parts.append(f"{name} {taken} = {int(state[H_COUNT0 + player - 1])}")
        part = "Blind" if sum_part(int(state[H_PLY])) == 0 else "Stale-dated"
        part = "over" if state[H_PLY] >= _turns(spec) else f"{part} part to play"
        return (f"ply {int(state[H_PLY])}/{int(_turns(spec))} ({part}; {blind} Blind checks): "
                f"{parts[0]}, {parts[1]} + komi {int(spec[spec[S_TABLES] + 1])}")
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
        final = diff - spec[nowrap(spec[S_TABLES] + 1)]
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


@njit(cache=True)
def _score_lead(spec, mask, ply, memo):
    """The first player's lead (its sum minus the second's) over the rest of a one-part game (Blind, Stale-dated or
    Post-dated, no komi) when both players play for the sums: the maximum over the first player's moves and the
    minimum over the second's, from the checks taken (``mask``, ``ply`` of them: the ply follows from the mask, so
    the mask alone keys the memo)."""
    if ply == _turns(spec):
        return 0
    if mask in memo:
        return memo[mask]
    first = ply % 2 == 0
    best = -(1 << 40) if first else 1 << 40
    for check in range(spec[S_SIZE]):
        bit = np.int64(1) << check
        if mask & bit:
            continue
        worth = check_worth(spec, check + 1, ply + 1)
        lead = (worth if first else -worth) + _score_lead(spec, mask | bit, ply + 1, memo)
        best = max(best, lead) if first else min(best, lead)
    memo[mask] = best
    return best


class Solver:
    """Exact game values and optimal moves of one Cashing Checks spec (N <= 60, memo kept between calls).

    ``value(state)``: +1, 0 or -1 for the player to move (win, draw, loss with best play by both).
    ``optimal_moves(state)``: the moves that keep that value, by increasing check.

    The sum game is solved through its parts (module docstring): the minimax difference of totals is the sum of
    the parts' minimax leads (``_score_lead``: a sum of independent games whose order of play is fixed), and a
    player can force a win exactly when that minimax difference beats the komi, a draw when it equals it.
    """

    def __init__(self, spec: np.ndarray):
        from numba import types
        from numba.typed import Dict
        self.spec = spec
        self.is_sum = bool(spec[S_VARIANT] & VARIANT_SUM)
        if self.is_sum:
            turns = int(_turns(spec)) // 2
            self.blind = int(_blind_checks(spec))
            self.parts = (make_spec(self.blind, 0, turns=turns, komi=0),
                          make_spec(int(spec[S_SIZE]) - self.blind, VARIANT_STALE, turns=turns, komi=0))
            self.leads = tuple(Dict.empty(key_type=types.int64, value_type=types.int64) for _ in self.parts)
        else:
            self.memo = Dict.empty(key_type=types.UniTuple(types.int64, 2), value_type=types.int64)

    def _key(self, state):
        n = int(self.spec[S_SIZE])
        mask = sum(1 << c for c in range(n) if state[H_BOARD + c])
        return mask, int(state[H_PLY]), int(state[H_COUNT0] - state[H_COUNT0 + 1])

    def _sum_value(self, state) -> int:
        """The sum game: +1, 0 or -1 for the first player."""
        taken = [c for c in range(int(self.spec[S_SIZE])) if state[H_BOARD + c]]
        masks = (sum(1 << c for c in taken if c < self.blind), sum(1 << (c - self.blind) for c in taken
                                                                   if c >= self.blind))
        lead = int(state[H_COUNT0] - state[H_COUNT0 + 1]) - int(self.spec[self.spec[S_TABLES] + 1])
        for part, memo, mask in zip(self.parts, self.leads, masks):
            lead += int(_score_lead(part, mask, bin(mask).count("1"), memo))
        return (lead > 0) - (lead < 0)

    def value(self, state: np.ndarray) -> int:
        if self.is_sum:
            first = self._sum_value(state)
            return first if state[H_PLY] % 2 == 0 else -first
        mask, ply, diff = self._key(state)
        return int(_solve(self.spec, mask, ply, diff, self.memo))

    def optimal_moves(self, state: np.ndarray) -> list[int]:
        if self.is_sum:
            out = np.empty(int(self.spec[S_MAX_MOVES]), dtype=np.int64)
            n = legal_moves(self.spec, state, out)
            best = self._sum_value(state)
            moves = []
            for move in out[:n]:
                child = state.copy()
                play(self.spec, child, int(move))
                if self._sum_value(child) == best:
                    moves.append(int(move))
            return moves
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
