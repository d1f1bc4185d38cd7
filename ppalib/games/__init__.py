"""The games: a registry of names and a thin, validated Python front over the numba modules.

Every game module offers the functions of the game contract, ``ppalib.games.contract`` (written there once, with
their documentation), over plain int64 arrays (layout in ``_common``): ``make_spec``, ``init_state``,
``legal_moves``, ``play``, ``random_move``, ``move_code``, ``cell_owner``, ``move_from``, ``move_to``,
``board_graph``, ``move_to_str``, ``render``, ``hash_from_scratch``.  Side to move, result and hash are header
slots of the state (``H_TO_MOVE``, ``H_WINNER``, ``H_HASH``).  The kernels (``ppalib.kernels``) are written once
against the contract and specialised per game module by ``ppalib._specialise``; this room imports nothing else
of ppalib.

Options are integers given to ``make_game``; every board game takes ``ply_cap`` (0 = none): a game reaching that
many plies ends in a draw (Soemers et al. 2019 stop at 100 moves).  ``make_game`` applies it to the spec
(``_common.with_ply_cap``) and ``play`` ends the game there; the module's ``make_spec`` never sees it, so a spec
without the option is exactly what it was before the option existed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from . import breakthrough, cashing_checks, domineering, fanorona, go, teeko, yavalath
from ._common import (DRAW, H_HASH, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES, S_NUM_CODES,
                      S_NUM_CONTEXT_CODES, VARIANT_MISERE, with_ply_cap)


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


#: Bound on every game option's magnitude: far beyond any board's use (a ply cap, a komi, a number of turns), and
#: small enough that the kernels' int64 sums of option values and board counts cannot overflow.
OPTION_LIMIT = 2**31 - 1
PLY_CAP = ("ply_cap",)  # the option every board game takes (make_game applies it)

GAMES: dict[str, GameRule] = {rule.name: rule for rule in [
    # Atarigo's options (see games/go.py): suicide 1 (the default, see default_options) legal and losing, 0
    # illegal; codes 0 (default) a PPA code per colour, 1 one code per move.
    GameRule("atarigo", go, go.VARIANT_ATARI, 3, 19, "colours of the four neighbouring intersections",
             ("suicide", "codes", "ply_cap")),
    GameRule("breakthrough", breakthrough, 0, 4, 19, "capture or not", PLY_CAP),
    GameRule("misere_breakthrough", breakthrough, VARIANT_MISERE, 4, 19, "capture or not", PLY_CAP),
    GameRule("domineering", domineering, 0, 2, 19, "occupancy of the six cells along the domino", PLY_CAP),
    GameRule("misere_domineering", domineering, VARIANT_MISERE, 2, 19, "occupancy of the six cells along the domino",
             PLY_CAP),
    GameRule("go", go, 0, 2, 19, "colours of the four neighbouring intersections", PLY_CAP),
    # Knightthrough's option (see games/breakthrough.py): ggp_rules 0 (default) knights capture by jumping onto an
    # enemy piece, 1 the GGP game's rules (jumps onto empty cells only, pawn-like diagonal captures, no move: draw).
    GameRule("knightthrough", breakthrough, breakthrough.VARIANT_KNIGHT, 4, 19, "capture or not",
             ("ggp_rules", "ply_cap")),
    GameRule("misere_knightthrough", breakthrough, breakthrough.VARIANT_KNIGHT | VARIANT_MISERE, 4, 19,
             "capture or not", ("ggp_rules", "ply_cap")),
    GameRule("nogo", go, go.VARIANT_NOGO, 2, 19, "colours of the four neighbouring intersections", PLY_CAP),
    GameRule("misere_nogo", go, go.VARIANT_NOGO | VARIANT_MISERE, 2, 19,
             "colours of the four neighbouring intersections", PLY_CAP),
    # Games of Soemers et al. 2019 with fixed boards ("size" is 5 for each: Teeko 5x5, Yavalath a hexagon of
    # side 5, Fanorona 5 rows of 9 points); their options are documented in their modules.
    GameRule("teeko", teeko, 0, 5, 5, "none", ("pieces", "ply_cap")),
    GameRule("yavalath", yavalath, 0, 5, 5, "none", ("swap", "ply_cap")),
    GameRule("fanorona", fanorona, 0, 5, 5, "none", ("same_direction_rule", "ply_cap")),
    # Mehat & Vittaut 2013's synthetic games: "size" is the number of checks N; options turns (k) and komi.
    GameRule("blind_cashing_checks", cashing_checks, 0, 2, 60, "none", ("turns", "komi")),
    GameRule("stale_cashing_checks", cashing_checks, cashing_checks.VARIANT_STALE, 2, 60, "none",
             ("turns", "komi")),
    GameRule("postdated_cashing_checks", cashing_checks, cashing_checks.VARIANT_POSTDATED, 2, 60, "none",
             ("turns", "komi")),
    # Their section 8's sum: "size" is the Blind part's checks; options turns (k of each part, even), the
    # Stale-dated part's checks (default k + 2) and komi (default k).
    GameRule("sum_cashing_checks", cashing_checks, cashing_checks.VARIANT_SUM, 3, 40, "none",
             ("turns", "stale_checks", "komi")),
]}

#: The ten games of Cazenave 2015 in the paper's order.
PAPER_GAMES = ["atarigo", "breakthrough", "misere_breakthrough", "domineering", "misere_domineering", "go",
               "knightthrough", "misere_knightthrough", "nogo", "misere_nogo"]

# Placement games of Soemers et al. 2019 (Cazenave 2015 does not play them).
# Connect Four's "size" is its number of columns (rows: option, 6 by default); Othello's sizes are even.
from . import connect_four, gomoku, othello  # noqa: E402
from . import hex as hex_game  # noqa: E402

GAMES.update({rule.name: rule for rule in [
    GameRule("hex", hex_game, 0, hex_game.MIN_SIZE, hex_game.MAX_SIZE,
             "six neighbours: empty / friend / enemy, an edge counts as its owner's stone", ("swap", "ply_cap")),
    GameRule("connect_four", connect_four, 0, connect_four.MIN_SIZE, connect_four.MAX_SIZE,
             "landing cell's four neighbours: empty / friend / enemy / off-board", ("rows", "ply_cap")),
    GameRule("gomoku", gomoku, 0, gomoku.MIN_SIZE, gomoku.MAX_SIZE,
             "four neighbouring intersections: empty / friend / enemy / off-board", ("overline_wins", "ply_cap")),
    GameRule("othello", othello, 0, othello.MIN_SIZE, othello.MAX_SIZE,
             "four neighbouring cells: empty / friend / enemy / off-board", ("ply_cap",)),
]})


def _check_size(rule: GameRule, size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"size must be an integer board side, got {size!r}")
    if not rule.min_size <= size <= rule.max_size:
        raise ValueError(f"size={size} is out of range for {rule.name}: allowed {rule.min_size}..{rule.max_size}")
    return int(size)


def default_size(rule: GameRule) -> int:
    """The size a command uses when none is given: 8 (the papers' 8x8 boards, 8 checks) where the game allows it,
    else its smallest size (the fixed boards of Teeko, Yavalath and Fanorona)."""
    return 8 if rule.min_size <= 8 <= rule.max_size else rule.min_size


def size_for(rule: GameRule, size: int | None) -> int:
    """``size`` for this game: its default when None; a fixed-board game (one size only) always plays its own, so
    that one size can be asked of a list of games (``python -m ppalib bench --size 5``)."""
    if size is None:
        return default_size(rule)
    return rule.min_size if rule.min_size == rule.max_size else size


def board_text(game: "Game") -> str:
    """The board in words: ``8x8``, ``5x9`` (rows x columns), ``hex, 61 cells``, or ``size 8`` (no board)."""
    try:
        graph = game.module.board_graph(game.spec)
    except ValueError:
        return f"size {game.size}"
    if graph.kind == "square":
        return f"{int(graph.coords[:, 1].max()) + 1}x{int(graph.coords[:, 0].max()) + 1}"
    return f"{graph.kind}, {graph.cells} cells"


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

    def num_codes(self, with_context: bool = False) -> int:
        """How many PPA/MAST move codes the game has (with context: PPAF/MASTF codes)."""
        return int(self.spec[S_NUM_CONTEXT_CODES if with_context else S_NUM_CODES])

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

    def move_code(self, state: np.ndarray, move: int, with_context: bool = False) -> int:
        return int(self.module.move_code(self.spec, state, int(move), bool(with_context)))

    def move_to_str(self, state: np.ndarray, move: int) -> str:
        return self.module.move_to_str(self.spec, state, int(move))

    def render(self, state: np.ndarray) -> str:
        return self.module.render(self.spec, state)


_GAME_CACHE: dict[tuple, Game] = {}


def default_options(rule: GameRule, size: int) -> dict:
    """Options a game takes when none are given: Cashing Checks plays min(10, N - 1) turns (the paper's k = 10
    with N > k), komi by its rule; their sum the largest even number of turns per part up to that; Atarigo makes
    a suicide legal and losing (``suicide=1``: of the two readings of Cazenave 2015's rules that notebook 01 plays,
    the one nearer his Table 1; see ``games/go.py``)."""
    if rule.variant & cashing_checks.VARIANT_SUM and rule.module is cashing_checks:
        return {"turns": 2 * (min(10, size - 1) // 2)}
    if "turns" in rule.options:
        return {"turns": min(10, size - 1)}
    if rule.name == "atarigo":
        return {"suicide": 1}
    return {}


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
        low = 0 if key == "ply_cap" else -OPTION_LIMIT
        if not low <= value <= OPTION_LIMIT:
            raise ValueError(f"{key}={value} is out of range for {name}: allowed {low}..{OPTION_LIMIT}")
    options = {key: int(value) for key, value in options.items()}  # a numpy integer is the int it holds
    key = (name, size, tuple(sorted(options.items())))
    if key not in _GAME_CACHE:
        spec = rule.module.make_spec(size, rule.variant, **{k: v for k, v in options.items() if k != "ply_cap"})
        if options.get("ply_cap"):  # absent or 0: the spec stays exactly as make_spec built it
            spec = with_ply_cap(spec, options["ply_cap"])
        spec.setflags(write=False)
        _GAME_CACHE[key] = Game(name, size, rule, spec, tuple(sorted(options.items())))
    return _GAME_CACHE[key]


__all__ = ["GAMES", "PAPER_GAMES", "Game", "GameRule", "make_game", "check_game_name", "default_size", "size_for",
           "board_text", "DRAW"]

