"""The game contract: the functions every game module defines, written once, with their signatures.

A game (or family of variants) is one module of pure functions over two plain ``int64`` arrays, ``spec`` (the
immutable description of the game at one size, built by ``make_spec``) and ``state`` (one position; header slots
``H_*`` and spec slots ``S_*`` in ``_common``).  Every module in ``ppalib/games`` that is registered in
``ppalib.games.GAMES`` defines each function below with the same parameters; ``tests/test_games.py`` checks it.

The kernels in ``ppalib/kernels`` are written against this module::

    from ppalib.games import contract as game  # <game-import>

so an editor's go-to-definition lands here, on the documentation.  They are never compiled against it:
``ppalib._specialise`` writes one copy of the kernel package per game module with that line naming the game, so
numba inlines the game's functions and its on-disk cache hits in every process.  Calling a function of this
module directly raises ``ContractError``.

Players are 0 (moves first) and 1.  A game ends with ``state[H_WINNER]`` set to 0, 1 or ``DRAW``.  The same player
may move several times in a row (a capture chain): code must read ``state[H_TO_MOVE]``, never assume alternation.
"""
from __future__ import annotations


class ContractError(RuntimeError):
    """A contract function was called unspecialised (see the module docstring)."""


def _unspecialised(name: str):
    raise ContractError(f"ppalib.games.contract.{name} is the contract, not a game: kernels are specialised to a game "
                        "module by ppalib._specialise")


# ---- compiled (numba) functions --------------------------------------------------------------------------------
def init_state(spec):
    """A new ``state`` array holding the start position."""
    _unspecialised("init_state")


def legal_moves(spec, state, out) -> int:
    """Write the legal moves of ``state`` into ``out[:n]`` in a deterministic order and return n.

    n = 0 exactly when the game is over; a position whose mover is stuck may be finished here (the result is then
    written into ``state[H_WINNER]``).  ``out`` has room for ``spec[S_MAX_MOVES]`` moves."""
    _unspecialised("legal_moves")


def play(spec, state, move) -> None:
    """Play the legal ``move`` in place: board, ``H_TO_MOVE``, ``H_PLY`` (+1), the incremental ``H_HASH`` and, when
    the move ends the game (including the ply cap ``S_PLY_CAP``, a draw), ``H_WINNER``."""
    _unspecialised("play")


def random_move(spec, state, rng, out) -> int:
    """A legal move drawn uniformly at random with the generator ``rng`` (uint64[4]), or -1 when the game is over.

    Must give each legal move probability 1/n (a game may draw without listing); ``out`` is scratch space."""
    _unspecialised("random_move")


def move_code(spec, state, move, with_context) -> int:
    """The code PPA and MAST learn a weight for (Cazenave 2015; 2016): in ``[0, spec[S_NUM_CODES])``, distinct for
    the legal moves of a position.  With ``with_context``, the code also holds the move's surroundings (PPAF and
    MASTF, Cazenave 2016 section 3), in ``[0, spec[S_NUM_CONTEXT_CODES])``."""
    _unspecialised("move_code")


def cell_owner(spec, state, cell) -> int:
    """The player (0 or 1) whose piece is on ``cell``, or -1 when the cell is empty (spatial features' friend /
    enemy / empty; Soemers et al. 2019)."""
    _unspecialised("cell_owner")


def move_from(spec, state, move) -> int:
    """The cell ``move`` takes a piece from, or -1 for a placement or a pass."""
    _unspecialised("move_from")


def move_to(spec, state, move) -> int:
    """The cell ``move`` puts a piece on (a domino's anchor), or -1 for a pass."""
    _unspecialised("move_to")


# ---- optional compiled functions: the incremental legal set (``ppalib.kernels.incremental``) ----------------------
# A game that defines all four lets ``playout_engine`` 2 keep each player's legal moves in a sum tree, refreshed
# only where a move changed something; without them engine 2 lists the moves each ply, as engine 1.
def num_slots(spec) -> int:
    """The number of move slots: moves ``0 .. num_slots - 1`` are tracked one slot each (a move that is legal only
    when no other is, such as Go's pass, is no slot: the engine then reads ``legal_moves``)."""
    _unspecialised("num_slots")


def slot_code(spec, state, slot, player, with_context) -> int:
    """``move_code`` of the move ``slot`` for ``player`` if ``legal_moves`` would list it were ``player`` to move,
    else -1.  Where the answer depends on the side to move (Go's ko point), it must be right for the side to move and
    the move's ``dirty_slots`` must name the slot whenever that dependence changes."""
    _unspecialised("slot_code")


def before_play(spec, state, move, memo) -> None:
    """Write into ``memo`` (int64[16]) what ``dirty_slots`` needs from the position before ``move``."""
    _unspecialised("before_play")


def dirty_slots(spec, state, move, with_context, memo, out) -> int:
    """After ``play(move)``: write into ``out`` every slot whose ``slot_code`` may have changed for either player
    (repeats allowed, at most ``20 * num_slots + 64``) and return their number."""
    _unspecialised("dirty_slots")


INCREMENTAL = ("num_slots", "slot_code", "before_play", "dirty_slots")


def slot_code_pair(spec, state, slot, with_context):
    """Optional: ``(slot_code(..., 0, ...), slot_code(..., 1, ...))`` at once, for a game whose two answers share
    their work (Go: the same neighbours and strings decide both).  The engine refreshes a slot for both players
    with it; a game without it is asked ``slot_code`` twice."""
    _unspecialised("slot_code_pair")


def moves_without_slots(spec, state, out) -> int:
    """Optional beside the four above: ``legal_moves`` in a position where no slot is legal for the side to move
    (the same moves, return value and effect on ``state``: e.g. ending the game), without testing every slot again.
    The engine calls it only when every slot of the mover is illegal; a game without it is asked ``legal_moves``."""
    _unspecialised("moves_without_slots")


def play_inlined(spec, state, move) -> None:
    """Optional beside the four above: ``play`` itself (the same effect on ``state``) as an ``inline_jit`` function,
    which engine 2's playout loop and descent inline: as a call, ``play`` is passed ``spec`` and ``state`` as seven
    scalars apiece at every ply.  A game without it is played with ``play``."""
    _unspecialised("play_inlined")


def slot_mask_ok(spec, with_context) -> bool:
    """Optional, with ``slot_mask`` and ``slot_mask_after``: whether they answer for ``spec`` and codes
    with(out) context.  They may only where there are at most 64 slots, and a slot legal for a player at some ply
    was legal for them with the same code at every earlier ply since any position a search starts from, so that it
    never becomes legal again once it stops being legal (placement games: Domineering's anchors without context;
    Yavalath's cells without the swap would qualify, but its refresh is one slot a ply and the masks gained
    nothing there)."""
    _unspecialised("slot_mask_ok")


def slot_mask(spec, state, player) -> int:
    """Optional, with ``slot_mask_ok``: the slots ``slot_code`` finds legal for ``player`` as a ``uint64`` bitmask
    (bit ``slot``).  PPA without context then plays engine 2's playouts from these masks
    (``incremental.masked_playout``: a leaf set to 0 where a slot was lost, no slot's code recomputed); the same
    games bit for bit."""
    _unspecialised("slot_mask")


def slot_mask_after(spec, state, move, player, before) -> int:
    """Optional, with ``slot_mask``: ``slot_mask(spec, state, player)`` after ``move`` was played, given the mask
    ``before`` it (a game that can say which slots a move took, e.g. the cell it filled, need not look at the rest)."""
    _unspecialised("slot_mask_after")


# ---- optional compiled function: a move inside a uniform playout (``ppalib.kernels.playout``) ----------------------
def play_playout(spec, state, move) -> None:
    """``play`` for a move of a uniform random playout, keeping only what ``random_move`` and the result read: the
    winner and every later ``random_move`` must be exactly those ``play`` gives, so the playout draws the same moves;
    what else the position derives (its hash, a board array beside bitboards, piece counts) may go stale, since a
    playout's position is thrown away at its end.  A game without it plays its playouts with ``play``."""
    _unspecialised("play_playout")


# ---- optional compiled function: a whole uniform playout (``ppalib.kernels.playout``) ------------------------------
def play_random_playout(spec, state, rng, out) -> int:
    """Play a uniform random playout from ``state`` to the end of the game, in place, and return its plies: exactly
    the moves ``random_move`` draws, played as ``play_playout`` (or ``play``) plays them, with ``rng`` advanced as
    those calls advance it, and the result, side to move and ply count they reach.  What the result does not depend
    on (the hash, a board array beside bitboards, counts, heights) may be left stale: a playout's position is thrown
    away at its end.  ``out`` is scratch of length ``S_MAX_MOVES``.  A game defines it where holding the position in
    registers for a whole playout pays (the Breakthrough family, Connect Four), or where inlining its move code into
    one loop saves the calls (the Go family); a game without it plays its playouts move by move."""
    _unspecialised("play_random_playout")


# ---- Python functions ------------------------------------------------------------------------------------------
def make_spec(size, variant, **options):
    """The immutable spec (int64 array) of the game at ``size`` with the variant bits and the game's options.

    The ``ply_cap`` option every board game takes is not passed here: ``games.make_game`` writes it into the spec
    (``_common.with_ply_cap``), so a spec made without it is byte for byte what it was before the option existed."""
    _unspecialised("make_spec")


def board_graph(spec):
    """The board as a ``ppalib.games.graph.BoardGraph`` (cells, drawing coordinates, clockwise neighbours)."""
    _unspecialised("board_graph")


def move_to_str(spec, state, move) -> str:
    """The move as people write it (e.g. ``a2-b3``)."""
    _unspecialised("move_to_str")


def render(spec, state) -> str:
    """The position as text, first player's side at the bottom."""
    _unspecialised("render")


def hash_from_scratch(spec, state) -> int:
    """The Zobrist hash recomputed from the position (tests compare it with play's incremental hash)."""
    _unspecialised("hash_from_scratch")


COMPILED = ("init_state", "legal_moves", "play", "random_move", "move_code", "cell_owner", "move_from", "move_to")
PYTHON = ("make_spec", "board_graph", "move_to_str", "render", "hash_from_scratch")
FUNCTIONS = COMPILED + PYTHON
