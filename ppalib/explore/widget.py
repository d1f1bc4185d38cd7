"""The explorer's widget: the board as one clickable picture (a small anywidget showing the SVG that
``drawing.board_figure`` draws from the board graph) and ipywidgets controls beside it, a thin front over a
``Session``.

Why an anywidget with SVG: the picture is the very matplotlib drawing the static notebooks show (one drawing code,
pieces, last move, coordinates and heat maps on one board), sharp at any zoom, and its cells are clickable through
invisible polygons whose gids (``target-<cell>``) matplotlib writes as SVG ids; twenty lines of JavaScript
(``board.js``) send the clicked cell to the kernel.  ipympl would redraw a canvas through the kernel for every
mouse event and needs its own JupyterLab extension; a grid of buttons (the first version) cannot draw a hex board
or heat maps and JupyterLab placed its buttons wrongly.

Responsiveness: the game's kernels are compiled (or loaded from numba's cache) in a background thread as soon as
the explorer opens, with the status and an estimate shown; a human's move is drawn at once and the agents reply in
that thread, the board refusing clicks meanwhile (in the browser and in the kernel: no click is queued for the
next position).  Errors (a bad agent text, an illegal move) are shown in the widget, not raised.
"""
from __future__ import annotations

import html
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import anywidget
import ipywidgets as widgets
import traitlets

from .drawing import BOARD_HEIGHT, board_figure, figure_svg
from .session import Session, kernel_estimate, warm_kernels

#: Pixels per inch of the picture on screen (CSS): the board is ``BOARD_HEIGHT`` x 96 px tall.
SCREEN_DPI = 96
VIEWS = {"search": "search", "weights": "weights", "board": "board"}


class BoardView(anywidget.AnyWidget):
    """The board picture (``svg``), ``height`` px tall; ``drawn`` counts the pictures sent, ``busy`` makes the
    browser refuse clicks.  A click in the browser arrives as the message ``{"event": "click", "cell": c,
    "drawn": n}``."""
    _esm = Path(__file__).with_name("board.js")
    _css = """
    .ppalib-board { display: inline-block; line-height: 0; }
    .ppalib-board [id^="target-"] path { pointer-events: all; cursor: pointer; }
    .ppalib-board.ppalib-busy [id^="target-"] path { cursor: wait; }
    .ppalib-board.ppalib-busy svg { opacity: 0.8; }
    """
    svg = traitlets.Unicode("").tag(sync=True)
    drawn = traitlets.Int(0).tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    height = traitlets.Int(round(BOARD_HEIGHT * SCREEN_DPI)).tag(sync=True)


class Explorer(widgets.VBox):
    """The widget of one ``Session`` (``ppalib.explore.explore(session)``).  Its controls are attributes, so that
    code (and the tests) can drive it as a user would: ``click_cell(cell)`` (what a click on the board sends),
    ``move_choice.value = move`` then ``play_button.click()``, ``agent_button``, ``play_on_button``,
    ``analyse_button``, ``stored_search_button``, ``start_button``, ``back_button``, ``forward_button``,
    ``end_button``, ``restart_button``, ``player_texts`` with ``players_button``, ``view`` (the picture: the search,
    the learned weights or the board alone).  Agents think in a background thread: ``wait()`` returns when they
    are done.  ``auto_reply``: after a human's move, the agents move until a human is to move.  ``warm``: compile
    the game's kernels in the background at once."""

    def __init__(self, session: Session, *, auto_reply: bool = True, height: float = BOARD_HEIGHT,
                 warm: bool = True):
        if not isinstance(session, Session):
            raise TypeError(f"session must be a ppalib.explore.Session, got {session!r}")
        self.session = session
        self.height = height
        self.board = BoardView(height=round(height * SCREEN_DPI))
        self.board.on_msg(self._on_board_message)
        self.status = widgets.HTML()
        self.line = widgets.HTML(layout=widgets.Layout(max_width="330px"))
        self.progress = widgets.HTML()
        self.message = widgets.HTML(layout=widgets.Layout(max_width="330px"))
        self.view = widgets.ToggleButtons(options=[(label, key) for key, label in VIEWS.items()], value="search",
                                          style={"button_width": "90px"},
                                          tooltips=["the search here: each root move's visits and value",
                                                    "the playout weights the search learned (PPA, MAST...)",
                                                    "the position alone"])
        self.move_choice = widgets.Dropdown(description="move", layout=widgets.Layout(width="210px"))
        self.play_button = widgets.Button(description="Play move", tooltip="play the move chosen in the list",
                                          layout=widgets.Layout(width="100px"))
        self.agent_button = widgets.Button(description="Agent moves", tooltip="the player to move's agent moves")
        self.play_on_button = widgets.Button(description="Agents play on",
                                             tooltip="agents move until a human is to move or the game ends")
        self.analyse_button = widgets.Button(description="Search here",
                                             tooltip="search this position (the agent to move, else the analyst)"
                                                     " without playing")
        self.stored_search_button = widgets.Button(
            description="Stored search", tooltip="re-run the stored game's own searches up to here (exact; costs "
                                                 "every search before this ply once)")
        # plain text, not media glyphs: the first/last arrows (U+23EE, U+23ED) are missing from common fonts
        step = widgets.Layout(width="62px")
        self.start_button = widgets.Button(description="« first", layout=step, tooltip="the start position")
        self.back_button = widgets.Button(description="‹ back", layout=step, tooltip="one move back")
        self.forward_button = widgets.Button(description="next ›", layout=step, tooltip="one move forward")
        self.end_button = widgets.Button(description="last »", layout=step, tooltip="the last position")
        self.restart_button = widgets.Button(description="New game", layout=widgets.Layout(width="90px"))
        self.auto_reply = widgets.Checkbox(value=auto_reply, description="agents reply", indent=False,
                                           layout=widgets.Layout(width="120px"))
        self.player_texts = [widgets.Text(description=f"player {p}", layout=widgets.Layout(width="300px"))
                             for p in (0, 1)]
        self.players_button = widgets.Button(description="Set players",
                                             tooltip="'human' or an agent kind[:key=value,...], e.g. ppa:alpha=0.5")
        self._choices: list[int] | None = None  # moves offered after an ambiguous click
        self._busy = False
        self._busy_lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ppalib-explorer")
        self._tasks: list[Future] = []
        self._kernels = "ready"
        self.warm_seconds: float | None = None  # how long the kernels took to be ready (compiled or loaded)
        for button, action in ((self.start_button, lambda: session.go_to(0)),
                               (self.back_button, session.back), (self.forward_button, session.forward),
                               (self.end_button, lambda: session.go_to(session.plies)),
                               (self.restart_button, session.restart), (self.players_button, self._set_players),
                               (self.play_button, self._play_chosen)):
            button.on_click(self._handler(action))
        for button, action in ((self.agent_button, self._agent_move), (self.play_on_button, self._play_on),
                               (self.analyse_button, session.analyse),
                               (self.stored_search_button, session.replay_stored_search)):
            button.on_click(self._handler(action, background=True))
        self.view.observe(lambda _change: self.refresh(), names="value")
        self._controls = [self.view, self.move_choice, self.play_button, self.agent_button, self.play_on_button,
                          self.analyse_button, self.stored_search_button, self.start_button, self.back_button,
                          self.forward_button, self.end_button, self.restart_button, self.players_button]
        controls = widgets.VBox([
            self.view,
            widgets.HBox([self.start_button, self.back_button, self.forward_button, self.end_button]),
            widgets.HBox([self.move_choice, self.play_button]),
            widgets.HBox([self.agent_button, self.play_on_button]),
            widgets.HBox([self.analyse_button, self.stored_search_button]),
            widgets.HBox([self.restart_button, self.auto_reply]),
            *self.player_texts, self.players_button, self.line, self.progress, self.message],
            layout=widgets.Layout(min_width="330px"))
        super().__init__([self.status, widgets.HBox([self.board, controls],
                                                     layout=widgets.Layout(align_items="flex-start"))])
        for widget, name in ((self, "ppalib-explorer"), (self.status, "ppalib-status"), (self.line, "ppalib-line"),
                             (self.progress, "ppalib-progress"), (self.message, "ppalib-message")):
            widget.add_class(name)  # for a reader's CSS, and the browser test
        self._fill_player_texts()
        self.refresh()
        if warm:
            self._warm_up()

    # ---- background work -----------------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Whether an agent is thinking (or kernels compiling for it): clicks and controls are refused."""
        return self._busy

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.board.busy = busy
        if busy:
            for control in self._controls:
                control.disabled = True

    def _background(self, label: str, job, draw_first: bool = False) -> bool:
        """Run ``job`` in the worker thread (after the kernels' warm-up), the board refusing clicks meanwhile;
        ``label`` says what is done (with the seconds elapsed); ``draw_first``: redraw now, the board already
        busy (so a browser never sees the new position taking clicks before the reply).  False when busy."""
        with self._busy_lock:
            if self._busy:
                return False
            self._set_busy(True)
        if draw_first:
            self.refresh()
        started = time.perf_counter()
        done = threading.Event()

        def tick():  # the elapsed time, while numba compiles or an agent searches
            while not done.wait(1.0):
                waiting = " (after the kernels)" if self._kernels != "ready" else ""
                self.progress.value = f"<i>{html.escape(label)}{waiting}: {time.perf_counter() - started:.0f} s</i>"

        def run():
            try:
                job()
            except (ValueError, TypeError, RuntimeError) as error:
                self._error(error)
            finally:
                done.set()
                self.progress.value = ""
                self.refresh()  # the picture first, then the board takes clicks again
                with self._busy_lock:
                    self._set_busy(False)
                self._update_controls()

        self.progress.value = f"<i>{html.escape(label)}...</i>"
        threading.Thread(target=tick, daemon=True, name="ppalib-explorer-clock").start()
        self._tasks.append(self._worker.submit(run))
        return True

    def _warm_up(self) -> None:
        """Compile (or load) the kernels of the game and its agents now, in the worker thread, showing an
        estimate; the human can move meanwhile, an agent's reply waits for them."""
        agents = [a for a in (*self.session.players, self.session.analyst) if a is not None]
        if not agents:
            return
        cached, seconds = kernel_estimate(self.session.game, agents)
        what = "loading the cached kernels" if cached else "compiling the kernels (first time for this game)"
        self._kernels = f"{what} of {self.session.game.name}, about {seconds} s"
        started = time.perf_counter()

        def run():
            try:
                warm_kernels(self.session.game, agents)
                self._kernels = "ready"
                self.warm_seconds = time.perf_counter() - started
                self.progress.value = f"<i>kernels ready in {self.warm_seconds:.0f} s</i>"
            except Exception as error:  # shown, not raised: the widget must survive (the reply will say more)
                self._kernels = "ready"
                self._error(error)

        self.progress.value = f"<i>{html.escape(self._kernels)}...</i>"
        self._tasks.append(self._worker.submit(run))

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the background work (warm-up, agents' moves, searches) is done."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._tasks:
            task = self._tasks[0]
            task.result(None if deadline is None else max(0.0, deadline - time.monotonic()))
            self._tasks.remove(task)

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)
        super().close()

    # ---- actions -------------------------------------------------------------------------------------------------
    def _error(self, error: Exception) -> None:
        self.message.value = f"<span style='color:#b00'>{html.escape(str(error))}</span>"

    def _handler(self, action, background: bool = False):
        def handle(_button=None):
            if self._busy:
                self.message.value = "wait: an agent is thinking"
                return
            self.message.value = ""
            if background:
                self._background(_button.description if _button is not None else "searching", action)
                return
            try:
                action()
            except (ValueError, TypeError, RuntimeError) as error:
                self._error(error)
            if not self._busy:  # an agent replying now draws from its thread: never read a session it changes
                self.refresh()
        return handle

    def _on_board_message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "click":
            taken = False
            try:
                taken = self.click_cell(int(content["cell"]), drawn=content.get("drawn"))
            finally:
                if not taken:  # no new picture comes: the browser may take clicks again
                    self.board.send({"event": "ready"})

    def click_cell(self, cell: int, drawn: int | None = None) -> bool:
        """A click on ``cell`` of the board (what the browser sends): play, select or offer the moves it fits, draw
        the result at once and let the agents reply in the background.  Refused while an agent thinks or when the
        click was made on a picture older than the one shown (``drawn``).  Returns whether it was taken."""
        if self._busy:
            self.message.value = "wait: an agent is thinking"
            return False
        if drawn is not None and int(drawn) != self.board.drawn:
            return False  # made on a picture that is gone: never apply it to this position
        self.message.value = ""
        try:
            outcome, moves = self.session.click(cell)
        except (ValueError, TypeError) as error:
            self._error(error)
            self.refresh()
            return True
        if outcome == "played":
            self._choices = None
            self._reply()  # the human's move is drawn before any agent thinks
            return True
        if outcome == "choose":
            self._choices = moves
            self.message.value = "several moves fit: choose one in the list"
        else:
            self._choices = None
            if outcome == "none":
                self.message.value = "no legal move starts or ends on that cell" if not self.session.is_over() \
                    else "the game is over"
        self.refresh()
        return True

    def _reply(self) -> None:
        """After a human's move: draw it, and let the agents reply in the background (``auto_reply``)."""
        agent = self.session.agent_to_move()
        if self.auto_reply.value and agent is not None:
            self._background(f"{agent.label} thinking ({agent.playouts:,} playouts)", self._agents_play,
                             draw_first=True)
        else:
            self.refresh()

    def _agents_play(self) -> None:
        """The agents move until a human is to move, each move drawn as it is made."""
        while self.session.agent_to_move() is not None:
            self.session.agent_move()
            if self.session.agent_to_move() is not None:
                self.refresh()

    def _play_chosen(self) -> None:
        if self.move_choice.value is None:
            raise ValueError("no move chosen in the list")
        self.session.play(int(self.move_choice.value))
        self._choices = None
        self._reply()

    def _agent_move(self) -> None:
        self.session.agent_move()

    def _play_on(self) -> None:
        if self.session.agent_to_move() is None:
            raise ValueError("a human is to move (or the game is over): nothing for the agents to play")
        self._agents_play()

    def _set_players(self) -> None:
        for player, text in enumerate(self.player_texts):
            self.session.set_player(player, text.value)
        self._fill_player_texts()

    def _fill_player_texts(self) -> None:
        for text, side in zip(self.player_texts, self.session.players):
            text.value = "human" if side is None else _agent_text(side)

    def _line_text(self, last: int = 10) -> str:
        """The line's last ``last`` moves up to the cursor, numbered from 1, and how many follow it when the cursor
        was moved back (so that "none" at ply 0 of 4 does not read as an empty game)."""
        session = self.session
        first = max(0, session.ply - last)
        moves = [f"{k + 1}. {session.move_text(session.moves[k], k)}" for k in range(first, session.ply)]
        ahead = len(session.moves) - session.ply
        text = ("... " if first else "") + (" ".join(moves) or ("none yet" if not ahead else "none before this ply"))
        return text + (f" ({ahead} more after this ply: next ›)" if ahead else "")

    # ---- drawing -------------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the session."""
        session = self.session
        over = session.is_over()
        self.status.value = f"<b>{html.escape(session.status())}</b>"
        self.line.value = f"<small>moves: {html.escape(self._line_text())}</small>"
        texts = session.legal_texts()
        if self._choices is not None:
            texts = [(text, move) for text, move in texts if move in self._choices]
        self.move_choice.options = texts
        self.move_choice.value = texts[0][1] if texts else None
        self.stored_search_button.layout.display = None if session.stored is not None else "none"
        search = session.current_search
        learned = search is not None and search.result.policy.size > 0
        if not learned and self.view.value == "weights":
            self.view.value = "search"  # observed: redraws
            return
        svg = figure_svg(board_figure(session, self.view.value, self.height))
        with self.board.hold_sync():
            self.board.svg = svg
            self.board.drawn += 1
        if not self._busy:  # else the controls stay disabled until the agents are done
            self._update_controls()

    def _update_controls(self) -> None:
        session = self.session
        over = session.is_over()
        texts = self.move_choice.options
        self.view.disabled = False
        self.move_choice.disabled = False
        self.play_button.disabled = not texts
        self.agent_button.disabled = session.agent_to_move() is None
        self.play_on_button.disabled = session.agent_to_move() is None
        self.analyse_button.disabled = over or (session.players[session.to_move] is None and
                                                session.analyst is None)
        self.stored_search_button.disabled = session.stored is None or session.ply >= session.plies
        self.start_button.disabled = self.back_button.disabled = session.ply == 0
        self.forward_button.disabled = self.end_button.disabled = session.ply == session.plies
        self.restart_button.disabled = self.players_button.disabled = False


def _agent_text(agent) -> str:
    """An agent as the text ``set_player`` reads back: its kind and the parameters that differ from the kind's
    defaults (``playouts`` stays the session's)."""
    from ..agents import make_agent
    try:
        default = make_agent(agent.kind, agent.playouts).as_dict()
    except ValueError:  # a kind with a required parameter (greedy's policy): list them all
        default = {}
    params = {k: v for k, v in agent.as_dict().items()
              if k not in ("kind", "playouts") and default.get(k, object()) != v and k in _fields(agent)}
    return agent.kind + (":" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) if params else "")


def _fields(agent) -> set[str]:
    from dataclasses import fields
    return {f.name for f in fields(agent)}
