"""The games: a registry of names and a thin, validated Python front over the numba modules.

Every game module (``breakthrough``, ``domineering``, ``go``) offers the same functions over plain int64
arrays (see ``_common`` for the layout):

========================================  ==============================================================
``make_spec(size, variant) -> spec``      immutable description of the game at one size (Python)
``init_state(spec) -> state``             start position
``legal_moves(spec, state, out) -> n``    legal moves into ``out[:n]``, deterministic order; 0 iff over
``play(spec, state, move)``               play a legal move in place (hash, side to move, result)
``random_move(spec, state, rng, out)``    a uniformly random legal move, -1 iff over (uniform playouts)
``move_code(spec, state, move, feat)``    PPA/MAST move code (PPAF/MASTF code when ``feat``)
``move_to_str / render``                  text for people (Python)
``board_coordinates(spec)``               (row, col) per cell: the board graph for spatial features
========================================  ==============================================================

Side to move, result and hash are header slots of the state (``H_TO_MOVE``, ``H_WINNER``, ``H_HASH``).
Agents are written once against this interface and specialised per module by ``ppalib._jit``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from . import breakthrough, cashing_checks, domineering, go
from ._common import (DRAW, H_HASH, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES, S_NUM_CODES,
                      S_NUM_FEATURE_CODES, VARIANT_MISERE)


@dataclass(frozen=True)
class GameRule:
    """A registered game: which module implements it, with which variant bits, on which board sizes, and
    which extra options its ``make_spec`` takes (e.g. Cashing Checks' number of turns and komi)."""
    name: str
    module: ModuleType
    variant: int
    min_size: int
    max_size: int
    feature_description: str
    options: tuple[str, ...] = ()


GAMES: dict[str, GameRule] = {rule.name: rule for rule in [
    # Options (see games/go.py): suicide 0 (default) illegal, 1 legal and losing; codes 0 (default) a PPA code
    # per colour, 1 one code per move.
    GameRule("atarigo", go, go.VARIANT_ATARI, 3, 19, "colours of the four neighbouring intersections",
             ("suicide", "codes")),
    GameRule("breakthrough", breakthrough, 0, 4, 19, "capture or not"),
    GameRule("misere_breakthrough", breakthrough, VARIANT_MISERE, 4, 19, "capture or not"),
    GameRule("domineering", domineering, 0, 2, 19, "occupancy of the six cells along the domino"),
    GameRule("misere_domineering", domineering, VARIANT_MISERE, 2, 19, "occupancy of the six cells along the domino"),
    GameRule("go", go, 0, 2, 19, "colours of the four neighbouring intersections"),
    GameRule("knightthrough", breakthrough, breakthrough.VARIANT_KNIGHT, 4, 19, "capture or not"),
    GameRule("misere_knightthrough", breakthrough, breakthrough.VARIANT_KNIGHT | VARIANT_MISERE, 4, 19,
             "capture or not"),
    GameRule("nogo", go, go.VARIANT_NOGO, 2, 19, "colours of the four neighbouring intersections"),
    GameRule("misere_nogo", go, go.VARIANT_NOGO | VARIANT_MISERE, 2, 19,
             "colours of the four neighbouring intersections"),
    # Seed 001's synthetic games: "size" is the number of checks N; options turns (k) and komi.
    GameRule("blind_cashing_checks", cashing_checks, 0, 2, 60, "none", ("turns", "komi")),
    GameRule("stale_cashing_checks", cashing_checks, cashing_checks.VARIANT_STALE, 2, 60, "none",
             ("turns", "komi")),
    GameRule("postdated_cashing_checks", cashing_checks, cashing_checks.VARIANT_POSTDATED, 2, 60, "none",
             ("turns", "komi")),
]}

#: The ten games of seed 004 in the paper's order.
PAPER_GAMES = [name for name in GAMES if "cashing" not in name]


def _check_size(rule: GameRule, size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"size must be an integer board side, got {size!r}")
    if not rule.min_size <= size <= rule.max_size:
        raise ValueError(f"size={size} is out of range for {rule.name}: allowed {rule.min_size}..{rule.max_size}")
    return int(size)


def check_game_name(name) -> GameRule:
    """Return the rule registered as ``name`` or raise a ValueError listing the known games."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"game={name!r} is unknown; known games: {', '.join(GAMES)}")
    return GAMES[name]


@dataclass(frozen=True)
class Game:
    """One game at one board size (and options).  ``spec`` is immutable; states are plain int64 arrays."""
    name: str
    size: int
    rule: GameRule = field(repr=False, compare=False)
    spec: np.ndarray = field(repr=False, compare=False)
    options: tuple = ()

    @property
    def module(self) -> ModuleType:
        return self.rule.module

    @property
    def max_moves(self) -> int:
        return int(self.spec[S_MAX_MOVES])

    def num_codes(self, features: bool = False) -> int:
        return int(self.spec[S_NUM_FEATURE_CODES if features else S_NUM_CODES])

    def initial_state(self) -> np.ndarray:
        return self.module.init_state(self.spec)

    def legal_moves(self, state: np.ndarray) -> np.ndarray:
        """Legal moves of ``state`` (empty when the game is over; the call may record the result in state)."""
        out = np.empty(self.max_moves, dtype=np.int64)
        return out[: self.module.legal_moves(self.spec, state, out)].copy()

    def play(self, state: np.ndarray, move: int) -> np.ndarray:
        """Return the position after ``move``; raises ValueError if ``move`` is not legal."""
        legal = self.legal_moves(state)
        if int(move) not in set(legal.tolist()):
            raise ValueError(f"move={move} is not legal here; legal moves: {legal.tolist()}")
        child = state.copy()
        self.module.play(self.spec, child, int(move))
        return child

    def is_over(self, state: np.ndarray) -> bool:
        return len(self.legal_moves(state)) == 0

    def winner(self, state: np.ndarray) -> int | None:
        """0 or 1 for the winning player, 2 for a draw, None while the game goes on."""
        self.legal_moves(state)
        w = int(state[H_WINNER])
        return None if w == ONGOING else w

    @staticmethod
    def to_move(state: np.ndarray) -> int:
        return int(state[H_TO_MOVE])

    @staticmethod
    def hash(state: np.ndarray) -> int:
        return int(state[H_HASH])

    @staticmethod
    def ply(state: np.ndarray) -> int:
        return int(state[H_PLY])

    def refresh(self, state: np.ndarray) -> np.ndarray:
        """Recompute, in place, what ``state`` derives from its board after cells were written by hand (tests,
        diagrams): the hash, and the game's own derived data (``module.refresh`` where the game has one)."""
        if hasattr(self.module, "refresh"):
            self.module.refresh(self.spec, state)
        else:
            state[H_HASH] = self.module.hash_from_scratch(self.spec, state)
        return state

    def move_code(self, state: np.ndarray, move: int, features: bool = False) -> int:
        return int(self.module.move_code(self.spec, state, int(move), bool(features)))

    def move_to_str(self, state: np.ndarray, move: int) -> str:
        return self.module.move_to_str(self.spec, state, int(move))

    def render(self, state: np.ndarray) -> str:
        return self.module.render(self.spec, state)


_GAME_CACHE: dict[tuple, Game] = {}


def default_options(rule: GameRule, size: int) -> dict:
    """Options a game takes when none are given: Cashing Checks plays min(10, N - 1) turns (the paper's k = 10
    with N > k), komi by its rule."""
    return {"turns": min(10, size - 1)} if "turns" in rule.options else {}


def make_game(name: str, size: int, **options) -> Game:
    """The game ``name`` at ``size`` (board side, or number of checks); raises ValueError naming a bad
    ``game``, ``size`` or option."""
    rule = check_game_name(name)
    size = _check_size(rule, size)
    unknown = set(options) - set(rule.options)
    if unknown:
        raise ValueError(f"{name} has no option(s) {sorted(unknown)}; its options: {list(rule.options) or 'none'}")
    options = {**default_options(rule, size), **{k: v for k, v in options.items() if v is not None}}
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{key} must be an integer, got {value!r}")
    key = (name, size, tuple(sorted(options.items())))
    if key not in _GAME_CACHE:
        spec = rule.module.make_spec(size, rule.variant, **options)
        spec.setflags(write=False)
        _GAME_CACHE[key] = Game(name, size, rule, spec, tuple(sorted(options.items())))
    return _GAME_CACHE[key]


__all__ = ["GAMES", "PAPER_GAMES", "Game", "GameRule", "make_game", "check_game_name", "DRAW"]


def perft_count(game: Game, depth: int, state: np.ndarray | None = None) -> int:
    """Number of positions exactly ``depth`` plies from ``state`` (default: the start position)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"depth={depth!r} must be an integer >= 0")
    from .._jit import kernel
    root = game.initial_state() if state is None else np.ascontiguousarray(state, dtype=np.int64)
    module = kernel("games.perft", game.module.__name__.rsplit(".", 1)[1])
    return int(module.perft(game.spec, root, int(depth)))
