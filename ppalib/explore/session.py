"""The explorer's model: a session of one board game, in pure Python (no widget, no drawing), so that tests drive it
directly and the widget stays a thin layer over it.

A ``Session`` holds the positions of one line of play (``history``, ``moves``) and a cursor (``ply``) that steps
through them; who plays each side (a human, ``None``, or an agent config); and the searches made on the way
(``searches``: the position's ply -> ``SearchDetails``: the agent's own search when it chose its move, an analysis
asked for, or a stored game's search replayed exactly).  Playing a move at a past position cuts the line there and
goes on from it, as on a board.

Stored games (``open_stored_game``) are the rows of a results store (``ppalib.store``): their ``moves`` column
gives the line, and ``replay_stored_search`` re-runs the game's own searches (same agents, same generator, as
``ppalib.experiments.play_game`` played them) to show the search behind a stored move, checking on the way that each
replayed search chooses the stored move.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents import AgentConfig, Searcher, SearchResult, agent_from_params, check_playouts
from ..cli_values import parse_agent
from ..games import Game, check_game_name, default_size, make_game
from .._rng import make_rng

HUMAN = "human"
PLAYER_NAMES = ("player 0 (black)", "player 1 (white)")
#: The agent that analyses a position whose player to move is human (a PPA search shows visits, values and the
#: learned playout weights), at the session's ``playouts``.
DEFAULT_ANALYST = "ppa"


def check_board_game(game: Game) -> None:
    """Refuse a game without a board (Cashing Checks), naming it: the explorer draws boards."""
    try:
        game.module.board_graph(game.spec)
    except ValueError:
        raise ValueError(f"game={game.name!r} has no board (its moves take checks from a row, not cells): the "
                         f"explorer shows board games only; play it with `python -m ppalib match {game.name}`") \
            from None


def parse_player(value, playouts: int, name: str) -> AgentConfig | None:
    """A side of the game: ``None`` or ``"human"`` (moves are entered), an ``AgentConfig``, a string
    ``kind[:key=value,...]`` as the CLI's ``--agent`` (with ``playouts`` iterations a move), or a stored agent's
    parameters (a dict as ``AgentConfig.as_dict``).  Errors name the parameter ``name``."""
    if value is None or (isinstance(value, str) and value.strip().lower() == HUMAN):
        return None
    if isinstance(value, AgentConfig):
        return value
    if isinstance(value, str):
        return parse_agent(value, playouts, option=name)
    if isinstance(value, dict):
        try:
            return agent_from_params(value)
        except (KeyError, ValueError, TypeError) as error:
            raise ValueError(f"{name}={value!r}: {error}") from None
    raise TypeError(f"{name} must be 'human', an agent 'kind[:key=value,...]', an AgentConfig or an agent's "
                    f"parameters (dict), got {value!r}")


@dataclass
class SearchDetails:
    """One search of a position: ``result`` (``ppalib.agents.SearchResult``: root moves, visits, values, the learned
    policy) by ``agent`` for ``player`` (the player to move in ``state``), at ply ``ply`` of the session.

    ``origin``: ``"played"`` (the agent's search that chose its move), ``"analysis"`` (asked for, no move played)
    or ``"stored"`` (a stored game's own search, replayed with its generator)."""
    game: Game = field(repr=False)
    ply: int
    state: np.ndarray
    agent: AgentConfig
    player: int
    result: SearchResult
    texts: list[str]
    origin: str

    @property
    def with_context(self) -> bool:
        """Whether the policy's codes carry context (PPAF, MASTF): one weight per (move, surroundings)."""
        return self.agent.with_context

    def table(self) -> pd.DataFrame:
        """The root moves, most visited first: move id, text, visits, visit share, value (mean result for the
        player to move) and, for a learning agent, the playout weight of the move's code here and the probability
        a playout here draws the move (``move_weights``, ``playout_probabilities``)."""
        result = self.result
        total = result.visits.sum()
        frame = pd.DataFrame({"move": result.moves, "text": self.texts, "visits": result.visits,
                              "share": result.visits / total if total > 0 else np.nan,
                              "value": result.values if result.values.size else np.nan})
        if result.policy.size:
            frame["weight"] = move_weights(self)
            frame["playout_probability"] = playout_probabilities(self)
        return frame.sort_values(["visits", "move"], ascending=[False, True], kind="stable").reset_index(drop=True)


def move_codes(details: SearchDetails) -> np.ndarray:
    """The code (``move_code``; with its context for PPAF/MASTF) of each root move in the searched position."""
    game = details.game
    return np.array([game.move_code(details.state, int(m), details.with_context) for m in details.result.moves],
                    dtype=np.int64)


def move_weights(details: SearchDetails) -> np.ndarray:
    """The learned playout weight (``SearchResult.policy[code]``) of each root move's code in the searched position:
    PPA/PPAF's learned weight, or MAST/MASTF's mean result of the code (0 for a code no playout has played yet).
    A playout in this position draws the move with probability proportional to exp(k x weight)
    (``playout_probabilities``: k is 1 for PPA, MAST's ``k``)."""
    return details.result.policy[move_codes(details)]


def policy_sharpness(agent: AgentConfig) -> float:
    """The k of a playout's Gibbs draw, exp(k x weight): MAST/MASTF's ``k``; 1 for PPA/PPAF (Cazenave 2015)."""
    return float(agent.k) if agent.kind in ("mast", "mastf") else 1.0


def playout_probabilities(details: SearchDetails) -> np.ndarray:
    """The probability that a playout in the searched position draws each root move, after the search's learning:
    exp(k x weight) normalised over the legal moves (the kernels' Gibbs draw, ``kernels.playout.gibbs_draw``)."""
    scaled = policy_sharpness(details.agent) * move_weights(details)
    probabilities = np.exp(scaled - scaled.max())
    return probabilities / probabilities.sum()


@dataclass
class StoredGame:
    """Where a session's game came from: a row of a results store."""
    results_dir: Path
    condition_id: str
    game_index: int
    seed: int
    moves: list[int]
    agent: AgentConfig
    opponent: AgentConfig
    agent_player: int
    winner: int
    code_version: str
    game_options: dict = field(default_factory=dict)


class Session:
    """One board game at a time: its line of play, a cursor, the players and the searches made (module docstring).

    ``players``: two sides (player 0 moves first), each ``None`` for a human or an ``AgentConfig``; ``seed``: the
    generator the agents' searches draw from (so a session's agent moves are reproducible from its seed and the
    moves entered); ``analyst``: the agent ``analyse`` uses when the player to move is human."""

    def __init__(self, game: Game, players=(None, None), seed: int = 0, analyst: AgentConfig | None = None,
                 stored: StoredGame | None = None):
        if not isinstance(game, Game):
            raise TypeError(f"game must be a ppalib.games.Game (see make_game), got {game!r}")
        check_board_game(game)
        if not isinstance(players, (tuple, list)) or len(players) != 2:
            raise ValueError(f"players must be two sides (player 0, player 1), got {players!r}")
        for i, side in enumerate(players):
            if side is not None and not isinstance(side, AgentConfig):
                raise TypeError(f"players[{i}] must be None (human) or an AgentConfig, got {side!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed={seed!r} must be an integer >= 0")
        self.game = game
        self.players = tuple(players)
        self.seed = int(seed)
        self.rng = make_rng(self.seed)
        self.analyst = analyst
        self.stored = stored
        self.history: list[np.ndarray] = [game.initial_state()]
        self.moves: list[int] = []
        self.ply = 0
        self.searches: dict[int, SearchDetails] = {}
        self.selected_from: int | None = None  # the cell a two-click move starts from (click)
        self._searchers: dict[int, Searcher] = {}
        self._stored_replay = None

    def set_player(self, player: int, side, playouts: int | None = None) -> None:
        """Give side ``player`` (0 or 1) to ``side``: ``"human"``/None, an agent ``"kind[:key=value,...]"`` (with
        ``playouts`` iterations a move; default: the other agent's, else 1000), or an ``AgentConfig``."""
        if player not in (0, 1) or isinstance(player, bool):
            raise ValueError(f"player={player!r} must be 0 or 1")
        if playouts is None:
            known = [p.playouts for p in self.players if p is not None]
            playouts = known[0] if known else 1000
        players = list(self.players)
        players[player] = parse_player(side, check_playouts(playouts), f"players[{player}]")
        self.players = tuple(players)
        self._searchers.pop(player, None)

    def restart(self) -> None:
        """A new game from the start position with the same players (a stored game's line is left)."""
        self.history = [self.game.initial_state()]
        self.moves = []
        self.ply = 0
        self.searches = {}
        self.selected_from = None
        self._searchers.clear()
        self.stored = None
        self._stored_replay = None

    # ---- the position ------------------------------------------------------------------------------------------
    @property
    def position(self) -> np.ndarray:
        """The position at the cursor (a copy: the session's history is not changed through it)."""
        return self.history[self.ply].copy()

    @property
    def plies(self) -> int:
        """Moves in the line (the cursor can go from 0 to this)."""
        return len(self.moves)

    @property
    def to_move(self) -> int:
        return Game.to_move(self.history[self.ply])

    def legal_moves(self) -> np.ndarray:
        return self.game.legal_moves(self.history[self.ply].copy())

    def is_over(self) -> bool:
        return self.legal_moves().size == 0

    def winner(self) -> int | None:
        """0 or 1, 2 for a draw, None while the game at the cursor goes on."""
        return self.game.winner(self.history[self.ply].copy())

    def move_text(self, move: int, ply: int | None = None) -> str:
        """``move`` as people write it, in the position at ``ply`` (default: the cursor)."""
        state = self.history[self.ply if ply is None else ply]
        return self.game.move_to_str(state, int(move))

    def legal_texts(self) -> list[tuple[str, int]]:
        """(text, move) of every legal move at the cursor, in the game's list order."""
        state = self.history[self.ply]
        return [(self.game.move_to_str(state, int(m)), int(m)) for m in self.legal_moves()]

    def player_label(self, player: int) -> str:
        side = self.players[player]
        return f"{PLAYER_NAMES[player]}, {'human' if side is None else side.label}"

    def status(self) -> str:
        """One line: the game, the ply, and who is to move or how the game ended."""
        where = f"{self.game.name} {self._board()} · ply {self.ply} of {self.plies}"
        winner = self.winner()
        if winner is None:
            return f"{where} · {self.player_label(self.to_move)} to move"
        if winner == 2:
            return f"{where} · game over: a draw"
        return f"{where} · game over: {self.player_label(winner)} wins"

    def _board(self) -> str:
        """The board in words after the game's name: ``5x5``, Hex's rhombus ``7x7``, Yavalath's ``hexagon, 61
        cells`` (``board_text`` would repeat "hex" after Hex's name)."""
        from ..games import board_text
        graph = self.game.module.board_graph(self.game.spec)
        if graph.kind == "hex":
            if hasattr(self.game.module, "CELL_NAMES"):
                return f"hexagon, {graph.cells} cells"
            return f"{self.game.size}x{self.game.size}"
        return board_text(self.game)

    # ---- moving along the line ---------------------------------------------------------------------------------
    def go_to(self, ply: int) -> None:
        """Put the cursor on position ``ply`` (0 = the start, ``plies`` = the last one)."""
        if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or not 0 <= ply <= self.plies:
            raise ValueError(f"ply={ply!r} is out of range: this line has positions 0..{self.plies}")
        self.ply = int(ply)
        self.selected_from = None

    def back(self, plies: int = 1) -> bool:
        """Step back (clamped at the start); return whether the cursor moved."""
        target = max(0, self.ply - plies)
        moved = target != self.ply
        self.go_to(target)
        return moved

    def forward(self, plies: int = 1) -> bool:
        """Step forward along the line (clamped at its end); return whether the cursor moved."""
        target = min(self.plies, self.ply + plies)
        moved = target != self.ply
        self.go_to(target)
        return moved

    # ---- moves -------------------------------------------------------------------------------------------------
    def find_move(self, move) -> int:
        """The legal move ``move`` names at the cursor: its text (``move_to_str``, case and spaces ignored) or its
        id; a ValueError naming it and the legal moves otherwise."""
        if self.is_over():
            raise ValueError(f"move={move!r} cannot be played: the game is over ({self.status()})")
        if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
            if int(move) in self.legal_moves().tolist():
                return int(move)
            texts = self.legal_texts()
        elif isinstance(move, str):
            texts = self.legal_texts()
            wanted = move.strip().lower()
            matches = [m for text, m in texts if text.lower() == wanted]
            if len(matches) == 1:
                return matches[0]
        else:
            raise TypeError(f"move must be a move's text (e.g. {self.legal_texts()[0][0]!r}) or its id, "
                            f"got {move!r}")
        raise ValueError(f"move={move!r} is not legal in this position; legal moves: "
                         f"{', '.join(text for text, _ in texts)}")

    def play(self, move) -> int:
        """Play ``move`` (text or id) at the cursor; a line that went on from here is cut.  Returns the move id."""
        move = self.find_move(move)
        self._extend(move)
        return move

    def _cut_after_cursor(self) -> None:
        """A new line from a past position: what followed it is dropped."""
        if self.ply < self.plies:
            del self.history[self.ply + 1:]
            del self.moves[self.ply:]
            self.searches = {p: s for p, s in self.searches.items() if p <= self.ply}
            self._searchers.clear()  # a tree kept for reuse belongs to the old line

    def _extend(self, move: int) -> None:
        self._cut_after_cursor()
        self.history.append(self.game.play(self.history[self.ply], move))
        self.moves.append(move)
        self.ply += 1
        self.selected_from = None

    def agent_to_move(self) -> AgentConfig | None:
        """The agent of the player to move (None: a human moves, or the game is over)."""
        return None if self.is_over() else self.players[self.to_move]

    def agent_move(self) -> SearchDetails:
        """The player to move is an agent: it searches the position and plays its move.  Returns its search."""
        if self.is_over():
            raise ValueError(f"no agent can move: the game is over ({self.status()})")
        player = self.to_move
        agent = self.players[player]
        if agent is None:
            raise ValueError(f"players[{player}] is human: enter its move (play), or analyse the position")
        self._cut_after_cursor()  # before the search: a reused tree must be this line's
        searcher = self._searchers.get(player)
        if searcher is None:  # one per player, so that an agent with tree reuse keeps its tree
            searcher = self._searchers[player] = Searcher(self.game, agent)
        details = self._details(agent, searcher.search(self.history[self.ply].copy(), self.rng), "played")
        self._extend(details.result.move)
        return details

    def play_agents(self, max_plies: int | None = None) -> int:
        """Let the agents move until a human is to move, the game ends or ``max_plies`` moves are made; return how
        many moves were made."""
        if max_plies is not None and (isinstance(max_plies, bool) or not isinstance(max_plies, (int, np.integer))
                                      or max_plies < 0):
            raise ValueError(f"max_plies={max_plies!r} must be an integer >= 0 or None")
        made = 0
        while (max_plies is None or made < max_plies) and self.agent_to_move() is not None:
            self.agent_move()
            made += 1
        return made

    def analyse(self, agent: AgentConfig | None = None) -> SearchDetails:
        """Search the position at the cursor without playing (``agent``; default the player to move's agent, else
        the stored game's agent of that player, else the session's analyst); the search is kept for this ply."""
        if self.is_over():
            raise ValueError(f"nothing to analyse: the game is over ({self.status()})")
        player = self.to_move
        if agent is None:
            agent = self.players[player] or self.analyst
        if agent is None:
            raise ValueError("no agent to analyse with: give agent, or an analyst to the session")
        if not isinstance(agent, AgentConfig):
            raise TypeError(f"agent must be an AgentConfig (see ppalib.agents.make_agent), got {agent!r}")
        result = Searcher(self.game, agent).search(self.history[self.ply].copy(), self.rng)
        return self._details(agent, result, "analysis")

    def _details(self, agent: AgentConfig, result: SearchResult, origin: str) -> SearchDetails:
        state = self.history[self.ply].copy()
        texts = [self.game.move_to_str(state, int(m)) for m in result.moves]
        details = SearchDetails(self.game, self.ply, state, agent, Game.to_move(state), result, texts, origin)
        self.searches[self.ply] = details
        return details

    @property
    def current_search(self) -> SearchDetails | None:
        """The search made at the cursor's position, if any."""
        return self.searches.get(self.ply)

    # ---- clicking cells ------------------------------------------------------------------------------------------
    def moves_at(self, cell: int) -> dict[str, list[int]]:
        """The legal moves that touch ``cell``: ``"to"`` (placements on it, or moves from the selected cell to it)
        and ``"from"`` (moves leaving it)."""
        module, spec, state = self.game.module, self.game.spec, self.history[self.ply]
        to, frm = [], []
        for m in self.legal_moves():
            source, target = int(module.move_from(spec, state, m)), int(module.move_to(spec, state, m))
            if target == cell and source == (-1 if self.selected_from is None else self.selected_from):
                to.append(int(m))
            if source == cell:
                frm.append(int(m))
        return {"to": to, "from": frm}

    def click(self, cell: int) -> tuple[str, list[int]]:
        """What a click on ``cell`` does: play the one legal move it completes (``("played", [move])``), select it
        as the start of a move (``("selected", moves from it)``), offer a choice when several moves fit
        (``("choose", moves)``: e.g. Fanorona's approach or withdrawal along one step), deselect the selected cell
        (``("deselected", [])``) or nothing (``("none", [])``: no legal move starts or ends there)."""
        cells = self.game.module.board_graph(self.game.spec).cells
        if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not 0 <= cell < cells:
            raise ValueError(f"cell={cell!r} is out of range: the board has cells 0..{cells - 1}")
        cell = int(cell)
        if cell == self.selected_from:
            self.selected_from = None
            return "deselected", []
        found = self.moves_at(cell)
        if len(found["to"]) == 1:
            self._extend(found["to"][0])
            return "played", found["to"]
        if len(found["to"]) > 1:
            return "choose", found["to"]
        if found["from"]:
            self.selected_from = cell
            return "selected", found["from"]
        self.selected_from = None
        return "none", []

    # ---- stored games ------------------------------------------------------------------------------------------
    def replay_stored_search(self, ply: int | None = None) -> SearchDetails:
        """The search a stored game made at ``ply`` (default: the cursor), re-run exactly: the game's searches from
        the start with its own agents and generator (``ppalib.experiments.game_setup``), each checked to choose
        the stored move.  Costs every search up to ``ply`` (kept, so stepping on costs only the new ones)."""
        stored = self.stored
        if stored is None:
            raise ValueError("this session is not a stored game: open one with open_stored_game")
        ply = self.ply if ply is None else ply
        if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or not 0 <= ply < len(stored.moves):
            raise ValueError(f"ply={ply!r} is out of range: the stored game has searches at plies "
                             f"0..{len(stored.moves) - 1}")
        if self.moves[:ply] != stored.moves[:ply]:
            raise ValueError(f"the line at ply {ply} is not the stored game's any more (a move was changed): "
                             f"reopen the stored game")
        if self._stored_replay is None:
            from ..experiments import Condition, game_setup
            condition = Condition(self.game.name, self.game.size, stored.agent, stored.opponent,
                                  game_options=tuple(stored.game_options.items()))
            if condition.id != stored.condition_id:
                raise ValueError(f"condition {stored.condition_id} rebuilds with id {condition.id}: its agents "
                                 f"cannot be replayed by this version of ppalib")
            game, rng, searchers = game_setup(condition, stored.game_index, stored.seed)
            self._stored_replay = {"rng": rng, "searchers": searchers, "state": game.initial_state(), "done": 0,
                                   "results": {}}
        replay = self._stored_replay
        while replay["done"] <= ply:
            done, state = replay["done"], replay["state"]
            player = Game.to_move(state)
            searcher = replay["searchers"][player]
            result = searcher.search(state, replay["rng"])
            if result.move != stored.moves[done]:
                raise RuntimeError(f"the replayed search at ply {done} chooses {self.move_text(result.move, done)}, "
                                   f"the stored game played {self.move_text(stored.moves[done], done)}: the game was "
                                   f"stored by code {stored.code_version}, whose random draws differ from this "
                                   f"version's")
            replay["results"][done] = (searcher.agent, result)
            replay["state"] = self.game.play(state, result.move)
            replay["done"] = done + 1
        agent, result = replay["results"][ply]
        cursor = self.ply
        self.ply = ply
        try:
            return self._details(agent, result, "stored")
        finally:
            self.ply = cursor


# ---- kernels ------------------------------------------------------------------------------------------------------
#: Seconds to make a game's kernels ready, shown as the explorer's estimate: compiled the first time for a game,
#: loaded from numba's disk cache afterwards (measured by scripts/explorer_timings.py on this project's shared
#: 2-core machine: figures/explorer/timings.json).
COMPILE_SECONDS = "30-120"
LOAD_SECONDS = "1-5"


def kernel_estimate(game: Game, agents) -> tuple[bool, str]:
    """Whether ``game``'s search kernels are in numba's disk cache already (``ppalib._specialise``: one package a
    game module, keyed by the sources' hash), and the seconds to expect before the first search of ``agents``."""
    from .._specialise import CACHE_DIR, package_name
    module = game.module.__name__.rsplit(".", 1)[1]
    cached = any(CACHE_DIR.glob(f"{package_name(module)}_*/search.*.nbi"))
    return cached, LOAD_SECONDS if cached else COMPILE_SECONDS


def warm_kernels(game: Game, agents) -> None:
    """Compile (or load from the disk cache) the kernels ``agents`` use on ``game``: one one-iteration search per
    agent kind from the start position, with its own generator, so a session's draws are not touched."""
    from dataclasses import replace
    done = set()
    for agent in agents:
        if agent.kind not in done:
            done.add(agent.kind)
            Searcher(game, replace(agent, playouts=1, seconds_per_move=None)).search(game.initial_state(),
                                                                                     make_rng(0))


# ---- building sessions --------------------------------------------------------------------------------------------
def new_session(game: str, size: int | None = None, players=(HUMAN, "uct"), playouts: int = 1000, seed: int = 0,
                analyst=DEFAULT_ANALYST, **options) -> Session:
    """A new game of ``game`` (a name of ``ppalib.games.GAMES``) at ``size`` (None: its default) with game
    ``options``; ``players``: two sides, each ``"human"``, an agent ``"kind[:key=value,...]"`` (as the CLI's
    ``--agent``) with ``playouts`` iterations a move, or an ``AgentConfig``; ``analyst``: the agent that analyses a
    human's positions (same forms; None: none).  Every parameter is checked, naming the bad one, before anything
    is built."""
    rule = check_game_name(game)
    game_obj = make_game(game, default_size(rule) if size is None else size, **options)
    check_board_game(game_obj)
    playouts = check_playouts(playouts)
    if not isinstance(players, (tuple, list)) or len(players) != 2:
        raise ValueError(f"players must be two sides (player 0, player 1), e.g. ['human', 'uct'], got {players!r}")
    sides = tuple(parse_player(side, playouts, f"players[{i}]") for i, side in enumerate(players))
    analyst = parse_player(analyst, playouts, "analyst")
    return Session(game_obj, sides, seed, analyst)


def stored_conditions(results_dir) -> pd.DataFrame:
    """The conditions stored in ``results_dir`` (a results store folder, e.g. ``data/results/ppa2015``), one row
    each: condition id, game, size, options, the two agents, how many games and their first and last index."""
    frame = _load_store(results_dir)
    grouped = frame.groupby("condition_id", sort=True)
    first = grouped.first()
    return pd.DataFrame({"game": first["game"], "size": first["size"], "game_options": first["game_options"],
                         "agent": first["agent_label"], "opponent": first["opponent_label"],
                         "playouts": first["agent_playouts"], "games": grouped.size(),
                         "first_index": grouped["game_index"].min(), "last_index": grouped["game_index"].max()}
                        ).reset_index()


def results_folder(results_dir) -> Path:
    """``results_dir`` as a folder: a path, or the name of a committed store under ``data/results`` (``ppa2015``,
    ``ppaf2016``, ``adaptive_rave2013``, ``soemers2019``)."""
    from .. import paths
    if not isinstance(results_dir, (str, Path)):
        raise TypeError(f"results_dir must be a folder path or a committed store's name, got {results_dir!r}")
    path = Path(results_dir)
    if path.is_dir():
        return path
    if isinstance(results_dir, str) and (paths.RESULTS / results_dir).is_dir():
        return paths.RESULTS / results_dir
    committed = sorted(p.name for p in paths.RESULTS.iterdir() if p.is_dir()) if paths.RESULTS.is_dir() else []
    raise ValueError(f"results_dir={str(results_dir)!r} is not a folder nor a committed store "
                     f"({', '.join(committed) or 'none'})")


def _load_store(results_dir) -> pd.DataFrame:
    from ..store import ResultsStore
    path = results_folder(results_dir)
    frame = ResultsStore(path).load()
    if frame.empty:
        raise ValueError(f"results_dir={str(path)!r} holds no stored game")
    return frame


def open_stored_game(results_dir, condition: str, game_index: int = 0, analyst=DEFAULT_ANALYST) -> Session:
    """Game ``game_index`` of ``condition`` (its id, or a unique prefix of it) from the results store
    ``results_dir``, as a session whose line is the stored moves (cursor at the start; both sides are the stored
    agents, so ``replay_stored_search`` can show each stored search)."""
    frame = _load_store(results_dir)
    if not isinstance(condition, str) or not condition:
        raise TypeError(f"condition must be a condition id (or a unique prefix), got {condition!r}")
    ids = sorted(frame["condition_id"].unique())
    matches = [c for c in ids if c.startswith(condition)]
    if len(matches) != 1:
        listing = ", ".join(ids[:12]) + (" ..." if len(ids) > 12 else "")
        problem = "matches no condition" if not matches else f"matches {len(matches)} conditions"
        raise ValueError(f"condition={condition!r} {problem} in {results_dir}; stored: {listing}")
    games = frame[frame["condition_id"] == matches[0]]
    if isinstance(game_index, bool) or not isinstance(game_index, (int, np.integer)):
        raise TypeError(f"game_index must be an integer, got {game_index!r}")
    row = games[games["game_index"] == game_index]
    if row.empty:
        indexes = sorted(games["game_index"].astype(int))
        raise ValueError(f"game_index={game_index} is not stored for condition {matches[0]}; stored: "
                         f"{indexes[0]}..{indexes[-1]} ({len(indexes)} games)")
    row = row.iloc[0]
    if not row["moves"]:
        raise ValueError(f"game {game_index} of condition {matches[0]} has no recorded moves (stored before "
                         f"moves were recorded)")
    from ..experiments import stored_condition
    condition = stored_condition(row)
    options = dict(condition.game_options)
    game = make_game(condition.game, condition.size, **options)
    agent, opponent = condition.agent, condition.opponent
    agent_player = int(row["agent_player"])
    players = (agent, opponent) if agent_player == 0 else (opponent, agent)
    stored = StoredGame(results_folder(results_dir), matches[0], int(game_index), int(row["seed"]),
                        [int(m) for m in row["moves"].split()], agent, opponent, agent_player, int(row["winner"]),
                        str(row["code_version"]), options)
    session = Session(game, players, seed=0, analyst=parse_player(analyst, agent.playouts, "analyst"), stored=stored)
    for ply, move in enumerate(stored.moves):
        try:
            session._extend(session.find_move(move))
        except ValueError:
            raise ValueError(f"game {game_index} of condition {matches[0]}: stored move {move} at ply {ply} is not "
                             f"legal here (stored by code {stored.code_version})") from None
    session.go_to(0)
    return session


# ---- the notebook ------------------------------------------------------------------------------------------------
def notebook_session(game: str = "breakthrough", size: int | None = 5, game_options: dict | None = None,
                     players=(HUMAN, "ppa"), playouts: int = 1000, analyst=DEFAULT_ANALYST, seed: int = 0,
                     results_dir=None, condition: str | None = None, game_index: int = 0) -> Session:
    """The session ``notebooks/play.ipynb`` asks for with its parameters: a stored game when ``results_dir`` is
    given (``condition`` None: the store's first condition), else a new game.  Every parameter is checked, naming
    the bad one, before any search."""
    if game_options is None:
        game_options = {}
    if not isinstance(game_options, dict):
        raise TypeError(f"game_options must be a dict of integer options, e.g. {{'swap': 1}}, got {game_options!r}")
    if results_dir is not None:
        if condition is None:
            condition = str(stored_conditions(results_dir)["condition_id"].iloc[0])
        return open_stored_game(results_dir, condition, game_index, analyst=analyst)
    if condition is not None:
        raise ValueError(f"condition={condition!r} needs results_dir (the store holding it)")
    return new_session(game, size, players=players, playouts=playouts, seed=seed, analyst=analyst, **game_options)


def prepare_static_view(session: Session, ply: int | None = None, replay_search: bool = True) -> SearchDetails | None:
    """Where the static pictures (papermill, no widgets) look, and the search they show.

    A new game: the agents move until a human is to move, the game ends, or ``ply`` moves are on the board
    (None: no limit).  A stored game: the cursor goes to ``ply`` (None: 0).  Then the search of that position: the
    agents' own (the move an agent played from it), else the stored game's own search re-run exactly
    (``replay_search``), else an analysis by the player to move's agent or the analyst.  Returns it (None when the
    game is over there)."""
    if ply is not None and (isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or ply < 0):
        raise ValueError(f"ply={ply!r} must be an integer >= 0 or None")
    if not isinstance(replay_search, (bool, np.bool_)):
        raise TypeError(f"replay_search must be True or False, got {replay_search!r}")
    if session.stored is None:
        session.play_agents(None if ply is None else max(0, ply - session.plies))
        if ply is not None and ply < session.plies:
            session.go_to(ply)
    else:
        session.go_to(0 if ply is None else ply)
    if session.is_over():
        return None
    if session.current_search is None:
        if session.stored is not None and replay_search and session.ply < session.plies:
            return session.replay_stored_search()
        if session.players[session.to_move] is not None or session.analyst is not None:
            return session.analyse()
    return session.current_search
