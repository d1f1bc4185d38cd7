"""Hex on an n x n rhombus (3 <= n <= 19; the paper plays 7x7 and 11x11).

Rules (seed 003, Soemers et al. 2019, with the choices the paper leaves to Ludii):

* The board is the n x n rhombus of hexagonal cells, six neighbours each (``graph.hex_rhombus_graph``): cell
  ``r * n + c`` touches (r, c +- 1), (r +- 1, c), (r + 1, c - 1) and (r - 1, c + 1).
* Player 0 moves first and connects row 0 to row n - 1; player 1 connects column 0 to column n - 1.  A move puts a
  stone of the mover on any empty cell.  The game ends when the mover's stones join the mover's two sides; it
  cannot end otherwise (a full board always holds exactly one winning chain), so there are no draws.
* Swap rule: off by default (option ``swap=1`` turns it on).  Ludii's Hex has it *on* by default (``SwapPlayers``
  offered to the second player on move 2); we follow the standard game without it, as the seed recommends for
  MCTS-vs-MCTS comparisons, and name the divergence here and in the notebook.  With ``swap=1`` the second player's
  first move may be ``SWAP`` (move id n^2): the first stone, at (r, c), is replaced by a stone of player 1 at the
  mirrored cell (c, r), and player 0 moves next.  This is OpenSpiel's ``swap`` rule exactly (tested), and the same
  game as Ludii's "the players exchange colours" seen from fixed sides: reflecting the board in its long diagonal
  exchanges the two players' pairs of sides.
* ``ply_cap=N`` (0 = none): a game reaching N plies is a draw (the paper's cap of 100 moves).
* Ludii orients the rhombus differently (player 1 joins the NE and SW sides); the graph, not the drawing, is what
  matters to features, and both are the same rhombus.

Moves: the cell ``r * n + c``; ``SWAP = n^2``.  Legal moves are listed by increasing cell, then SWAP.
Move codes (PPA/MAST): ``player * (n^2 + 1) + move``.  Context codes (PPAF/MASTF): ``729 * code + pattern``,
pattern = ``sum_k 3^k v_k`` over the six neighbours in the board graph's clockwise order (from the first
direction clockwise from North), v = 0 empty, 1 the mover's stone, 2 the opponent's stone; a neighbour off the
board counts as a stone of the player who owns that edge (rows 0 and n - 1 belong to player 0, columns 0 and
n - 1 to player 1; at the two obtuse corners (0, n - 1) and (n - 1, 0), where one missing neighbour lies beyond
both a row edge and a column edge, the row edge counts), since in Hex the edges act exactly like stones of their owner.  SWAP's pattern is 0.

Engine: the state keeps a union-find forest over the stones plus four virtual nodes, one per side (rows 0 and
n - 1, columns 0 and n - 1); a stone is joined to its same-coloured neighbours and to the sides it touches, and
the mover has won when its two side nodes share a root (path halving; a root is always the larger index, so the
side nodes stay roots).  The state also keeps the list of empty cells (``_cells``), so ``random_move`` is one
draw: uniform over the empty cells (and SWAP when it is legal).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .._noalloc import inline_jit, noalloc_jit, nowrap
from .._rng import random_index
from ._cells import (add_empty, check_flag, list_empty_cells, orthos_table, placement_dirty, rebuild_empties, remove_empty, zobrist_keys)
from ._common import before_play_remembers_nothing
from ._common import (H_BOARD, H_COUNT0, H_HASH, H_KO, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, SPEC_HEADER, S_CELLS,
                      S_MAX_MOVES, S_MAX_PLIES, S_NUM_CODES, S_NUM_CONTEXT_CODES, S_SIDE_KEY, S_SIZE, S_STATE_LEN,
                      S_TABLES, S_VARIANT, S_ZOBRIST, apply_ply_cap, finish)
from .graph import HEX_STEPS, _clockwise_from_north, _hex_xy, hex_rhombus_graph

MIN_SIZE = 3
MAX_SIZE = 19
DIRECTIONS = 6
PATTERNS = 3 ** DIRECTIONS

# Spec tables from spec[S_TABLES]: the swap flag, then the neighbour table (cells x 6, clockwise, -1 off the
# board), then the context value of each (cell, direction) slot seen by player 0 (-1 on the board, else 1 or 2:
# the edge's owner as friend or enemy of player 0), then for each player and cell the sides the cell touches (bit
# 0: the player's first side, row 0 or column 0; bit 1: its second side, row n - 1 or column n - 1).
T_SWAP = 0
T_ORTHOS = 1


def make_spec(size: int, variant: int = 0, swap: int = 0) -> np.ndarray:
    """The spec of Hex on the ``size`` x ``size`` rhombus; ``swap`` (0/1) enables the swap rule."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size={size!r} is out of range for hex: allowed {MIN_SIZE}..{MAX_SIZE}")
    swap = check_flag("swap", swap)
    n = int(size)
    cells = n * n
    graph = hex_rhombus_graph(n)
    orthos = orthos_table(graph)
    edge = np.full(cells * DIRECTIONS, -1, dtype=np.int64)
    order = [HEX_STEPS[i] for i in _clockwise_from_north([_hex_xy(*step) for step in HEX_STEPS])]  # the slots
    for cell in range(cells):
        r, c = divmod(cell, n)
        for k, (dr, dc) in enumerate(order):
            on_board = 0 <= r + dr < n and 0 <= c + dc < n
            assert orthos[DIRECTIONS * cell + k] == ((r + dr) * n + c + dc if on_board else -1)
            if not 0 <= r + dr < n:
                edge[DIRECTIONS * cell + k] = 1  # a row edge: player 0's, a friend of player 0
            elif not 0 <= c + dc < n:
                edge[DIRECTIONS * cell + k] = 2  # a column edge: player 1's
    zob = zobrist_keys(10, n, 2 * cells + 1)
    sides = np.array([[(1 if line == 0 else 0) | (2 if line == n - 1 else 0)
                       for line in (cell // n if player == 0 else cell % n for cell in range(cells))]
                      for player in (0, 1)], dtype=np.int64).ravel()
    spec = np.zeros(SPEC_HEADER + zob.size + 1 + 2 * cells * DIRECTIONS + 2 * cells, dtype=np.int64)
    spec[S_SIZE] = n
    spec[S_VARIANT] = variant
    spec[S_CELLS] = cells
    spec[S_MAX_MOVES] = cells + 1
    spec[S_NUM_CODES] = 2 * (cells + 1)
    spec[S_NUM_CONTEXT_CODES] = 2 * (cells + 1) * PATTERNS
    # board, union-find parents (cells + 4 side nodes), empty-cell list, index of each cell in that list
    spec[S_STATE_LEN] = H_BOARD + cells + (cells + 4) + 2 * cells
    spec[S_MAX_PLIES] = cells + swap
    spec[S_ZOBRIST] = SPEC_HEADER
    spec[SPEC_HEADER:SPEC_HEADER + zob.size] = zob
    spec[S_SIDE_KEY] = zob[2 * cells]
    t = SPEC_HEADER + zob.size
    spec[S_TABLES] = t
    spec[t + T_SWAP] = swap
    spec[t + T_ORTHOS:t + T_ORTHOS + cells * DIRECTIONS] = orthos
    spec[t + T_ORTHOS + cells * DIRECTIONS:t + T_ORTHOS + 2 * cells * DIRECTIONS] = edge
    spec[t + T_ORTHOS + 2 * cells * DIRECTIONS:t + T_ORTHOS + 2 * cells * DIRECTIONS + 2 * cells] = sides
    return spec


# ---- state layout ---------------------------------------------------------------------------------------------
@noalloc_jit
def _parents(spec):
    return H_BOARD + spec[S_CELLS]


@noalloc_jit
def _empties(spec):
    return H_BOARD + 2 * spec[S_CELLS] + 4


@noalloc_jit
def _where(spec):
    return H_BOARD + 3 * spec[S_CELLS] + 4


@noalloc_jit
def _swap_available(spec, state):
    return spec[nowrap(spec[S_TABLES] + T_SWAP)] != 0 and state[H_PLY] == 1


@njit(cache=True)
def init_state(spec):
    """The start position: empty board, player 0 to move."""
    state = np.zeros(spec[S_STATE_LEN], dtype=np.int64)
    state[H_WINNER] = ONGOING
    state[H_KO] = -1
    refresh(spec, state)
    return state


# ---- union-find ------------------------------------------------------------------------------------------------
@noalloc_jit
def _find(state, parents, x):
    """Root of ``x`` with path halving."""
    while True:
        p = state[nowrap(parents + x)]
        if p == x:
            return x
        g = state[nowrap(parents + p)]
        state[nowrap(parents + x)] = g
        x = g


@noalloc_jit
def _join(state, parents, root, x):
    """Join the set of ``x`` to the set whose root is ``root``; return the root of the union (the larger one)."""
    rx = _find(state, parents, x)
    if rx < root:
        state[nowrap(parents + rx)] = root
        return root
    if rx > root:
        state[nowrap(parents + root)] = rx
    return rx


@noalloc_jit
def _link(spec, state, cell, player):
    """Join the new stone of ``player`` on ``cell`` to its same-coloured neighbours and to the sides it touches.

    A root is always the largest index of its set, so a side node (indices cells .. cells + 3, above every cell)
    stays a root until the player's two sides join: then the first side node points to the second."""
    cells = spec[S_CELLS]
    parents = _parents(spec)
    state[nowrap(parents + cell)] = cell
    root = cell
    own = player + 1
    orthos = spec[S_TABLES] + T_ORTHOS + DIRECTIONS * cell
    for k in range(DIRECTIONS):
        q = spec[nowrap(orthos + k)]
        if q >= 0 and state[nowrap(H_BOARD + q)] == own:
            root = _join(state, parents, root, q)
    sides = spec[nowrap(spec[S_TABLES] + T_ORTHOS + 2 * cells * DIRECTIONS + player * cells + cell)]
    if sides & 1:
        root = _join(state, parents, root, cells + 2 * player)
    if sides & 2:
        _join(state, parents, root, cells + 2 * player + 1)


@noalloc_jit
def _connected(spec, state, player):
    """Whether ``player``'s two sides are joined: its first side node is no longer a root (see ``_link``)."""
    side = spec[S_CELLS] + 2 * player
    return state[nowrap(_parents(spec) + side)] != side


@noalloc_jit
def refresh(spec, state):
    """Recompute the hash, the union-find forest and the empty-cell list from the board (after writing cells by
    hand); side to move and result are left as they are."""
    cells = spec[S_CELLS]
    parents = _parents(spec)
    z = spec[S_ZOBRIST]
    h = np.int64(0)
    for x in range(cells + 4):
        state[nowrap(parents + x)] = x
    for cell in range(cells):
        v = state[nowrap(H_BOARD + cell)]
        if v != 0:
            h ^= spec[nowrap(z + (v - 1) * cells + cell)]
    for cell in range(cells):
        v = state[nowrap(H_BOARD + cell)]
        if v != 0:
            _link(spec, state, cell, v - 1)
    if state[H_TO_MOVE] == 1:
        h ^= spec[S_SIDE_KEY]
    state[H_HASH] = h
    rebuild_empties(state, H_BOARD, cells, _empties(spec), _where(spec), H_COUNT0)


# ---- the contract ----------------------------------------------------------------------------------------------
@noalloc_jit
def legal_moves(spec, state, out):
    """The empty cells in increasing order, then SWAP when it is legal; 0 when the game is over."""
    if state[H_WINNER] != ONGOING:
        return 0
    cells = spec[S_CELLS]
    count = list_empty_cells(state, H_BOARD, cells, out)
    if _swap_available(spec, state):
        out[nowrap(count)] = cells
        count += 1
    return count


@noalloc_jit
def _place(spec, state, cell, player):
    state[nowrap(H_BOARD + cell)] = player + 1
    state[H_HASH] ^= spec[nowrap(spec[S_ZOBRIST] + player * spec[S_CELLS] + cell)]
    remove_empty(state, _empties(spec), _where(spec), H_COUNT0, cell)
    _link(spec, state, cell, player)


@noalloc_jit
def _swap(spec, state):
    """The swap rule: player 0's only stone, at (r, c), becomes player 1's stone at (c, r)."""
    n = spec[S_SIZE]
    cells = spec[S_CELLS]
    first = 0
    while state[nowrap(H_BOARD + first)] == 0:
        first += 1
    state[nowrap(H_BOARD + first)] = 0
    state[H_HASH] ^= spec[nowrap(spec[S_ZOBRIST] + first)]
    add_empty(state, _empties(spec), _where(spec), H_COUNT0, first)
    parents = _parents(spec)
    for x in range(cells, cells + 4):
        state[nowrap(parents + x)] = x
    _place(spec, state, (first % n) * n + first // n, 1)


@noalloc_jit
def play(spec, state, move):
    """Play the legal ``move`` (a cell, or SWAP) for the side to move, in place (``_play``)."""
    _play(spec, state, move)


@inline_jit
def _play(spec, state, move):
    """``play``'s body, inlined into engine 2's playout loop (the contract's optional ``play_inlined``)."""
    player = state[H_TO_MOVE]
    if move == spec[S_CELLS]:
        _swap(spec, state)
    else:
        _place(spec, state, move, player)
        if _connected(spec, state, player):
            finish(spec, state, player)
    state[H_HASH] ^= spec[S_SIDE_KEY]
    state[H_TO_MOVE] = 1 - player
    state[H_PLY] += 1
    apply_ply_cap(spec, state)


@noalloc_jit
def random_move(spec, state, rng, out):
    """A uniformly random legal move (one draw from the empty-cell list, SWAP included when legal), or -1."""
    if state[H_WINNER] != ONGOING:
        return -1
    count = state[H_COUNT0]
    if _swap_available(spec, state):
        i = random_index(rng, count + 1)
        return spec[S_CELLS] if i == count else state[nowrap(_empties(spec) + i)]
    return state[nowrap(_empties(spec) + random_index(rng, count))]


@noalloc_jit
def move_code(spec, state, move, with_context):
    """PPA/MAST code of ``move``; with ``with_context``, times 729 plus the six neighbours' pattern (docstring)."""
    return _code_of(spec, state, move, state[H_TO_MOVE], with_context)


@noalloc_jit
def _code_of(spec, state, move, player, with_context):
    """``move_code`` for ``player``."""
    code = player * (spec[S_CELLS] + 1) + move
    if not with_context:
        return code
    pattern0, pattern1 = _patterns(spec, state, move)
    return PATTERNS * code + (pattern0 if player == 0 else pattern1)


@inline_jit
def _patterns(spec, state, move):
    """The six neighbours' pattern of ``move`` as player 0 and as player 1 see it (0 for SWAP): each neighbour a
    base-3 digit, 0 empty, 1 the player's stone or edge, 2 the opponent's; a digit as player 1 sees it is 3 minus
    player 0's, unless empty.  Both at once, for ``slot_code_pair``; ``_code_of`` keeps one."""
    cells = spec[S_CELLS]
    pattern0 = 0
    pattern1 = 0
    if move < cells:
        orthos = spec[S_TABLES] + T_ORTHOS + DIRECTIONS * move
        edges = orthos + cells * DIRECTIONS
        mult = 1
        for k in range(DIRECTIONS):
            q = spec[nowrap(orthos + k)]
            v = spec[nowrap(edges + k)] if q < 0 else state[nowrap(H_BOARD + q)]  # an edge: 1 player 0's, 2 player 1's
            pattern0 += mult * v
            pattern1 += mult * ((3 - v) if v != 0 else 0)
            mult *= 3
    return pattern0, pattern1


# ---- the incremental legal set (``ppalib.kernels.incremental``): a slot per cell, and one for SWAP -------------
@noalloc_jit
def num_slots(spec):
    """One slot per cell, then SWAP's."""
    return spec[S_CELLS] + 1


@inline_jit
def _slot_legal(spec, state, slot):
    """``slot`` is a legal move: SWAP when available, a cell when empty."""
    if slot == spec[S_CELLS]:
        return _swap_available(spec, state)
    return state[nowrap(H_BOARD + slot)] == 0


@noalloc_jit
def slot_code(spec, state, slot, player, with_context):
    """The code of ``slot`` (a cell, or SWAP) for ``player`` if it is legal, else -1."""
    if not _slot_legal(spec, state, slot):
        return -1
    return _code_of(spec, state, slot, player, with_context)


@inline_jit
def slot_code_pair(spec, state, slot, with_context):
    """``slot_code`` for players 0 and 1 at once (the contract's optional ``slot_code_pair``): one legality test
    and one read of the neighbours (``_patterns``) for both."""
    if not _slot_legal(spec, state, slot):
        return -1, -1
    code0 = _code_of(spec, state, slot, 0, False)
    code1 = _code_of(spec, state, slot, 1, False)
    if not with_context:
        return code0, code1
    pattern0, pattern1 = _patterns(spec, state, slot)
    return PATTERNS * code0 + pattern0, PATTERNS * code1 + pattern1


before_play = before_play_remembers_nothing  # a placement changes its own cell
play_inlined = _play


@inline_jit
def dirty_slots(spec, state, move, with_context, memo, out):
    """The cell played (with ``with_context`` its empty neighbours too) and, in the first two plies, SWAP's slot
    (legal at ply 1 only); after SWAP itself, which moves the first stone, every slot."""
    cells = spec[S_CELLS]
    if move == cells:
        for slot in range(cells + 1):
            out[nowrap(slot)] = slot
        return cells + 1
    count = placement_dirty(spec, state, H_BOARD, spec[S_TABLES] + T_ORTHOS, DIRECTIONS, move, with_context, out)
    if state[H_PLY] <= 2:  # SWAP turns legal after the first move and illegal after the second, then stays so
        out[nowrap(count)] = cells
        count += 1
    return count


@noalloc_jit
def cell_owner(spec, state, cell):
    """0 or 1 for a stone of that player on ``cell``, -1 for an empty cell."""
    return state[nowrap(H_BOARD + cell)] - 1


@noalloc_jit
def move_from(spec, state, move):
    """-1: Hex moves are placements."""
    return -1


@noalloc_jit
def move_to(spec, state, move):
    """The cell of a placement; -1 for SWAP (it moves the first stone: see the module docstring)."""
    return move if move < spec[S_CELLS] else -1


def board_graph(spec: np.ndarray):
    """The n x n rhombus, six neighbours a cell (``graph.hex_rhombus_graph``)."""
    return hex_rhombus_graph(int(spec[S_SIZE]))


def move_to_str(spec: np.ndarray, state: np.ndarray, move: int) -> str:
    """``swap`` or the cell as column letter and row number from 1 (``a1`` = cell 0)."""
    n = int(spec[S_SIZE])
    if move == n * n:
        return "swap"
    return f"{chr(ord('a') + move % n)}{move // n + 1}"


def render(spec: np.ndarray, state: np.ndarray) -> str:
    """The rhombus, row n - 1 on top, each row shifted half a cell: ``x`` player 0 (joins bottom and top), ``o``
    player 1 (joins left and right)."""
    n = int(spec[S_SIZE])
    glyph = ".xo"
    return "\n".join(" " * r + " ".join(glyph[state[H_BOARD + r * n + c]] for c in range(n))
                     for r in range(n - 1, -1, -1))


def hash_from_scratch(spec: np.ndarray, state: np.ndarray) -> int:
    """The Zobrist hash recomputed from the board and the side to move."""
    scratch = state.copy()
    refresh(spec, scratch)
    return int(scratch[H_HASH])
