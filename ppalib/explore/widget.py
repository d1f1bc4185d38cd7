"""The explorer's widget (ipywidgets): a thin front over a ``Session`` and its pictures.

Every control calls one method of the session and redraws: the board as a grid of buttons (click a cell to place
a piece, or click a piece then its destination), a list of the legal moves (pass, swap, stop, and the choice
between moves sharing a from and a to), the agent's move, agents playing on, a search of the position (the
player to move's agent, or the analyst), a stored game's own search, the sides, and stepping through the line.
The picture is ``drawing.session_figure`` as PNG.  Errors (a bad agent text, an illegal move) are shown in the
widget, not raised, so a session survives them.
"""
from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from .drawing import figure_png, session_figure
from .session import Session

GLYPHS = {"disc": ("●", "○"), "fill": ("■", "□")}
LEGAL_COLOUR = "#cfe8cf"
SELECTED_COLOUR = "#f3c641"
CELL_PIXELS = 30


class Explorer(widgets.VBox):
    """The widget of one ``Session`` (``ppalib.explore.explore(session)``).  Its controls are attributes, so that
    code (and the tests) can drive it as a user would: ``cell_buttons[cell].click()``, ``move_choice.value = move``
    then ``play_button.click()``, ``agent_button``, ``play_on_button``, ``analyse_button``, ``stored_search_button``,
    ``start_button``, ``back_button``, ``forward_button``, ``end_button``, ``restart_button``, ``player_texts``
    with ``players_button``.  ``auto_reply``: after a human's move, the agents move until a human is to move."""

    def __init__(self, session: Session, *, auto_reply: bool = True, width: float = 9.0, dpi: int = 80):
        if not isinstance(session, Session):
            raise TypeError(f"session must be a ppalib.explore.Session, got {session!r}")
        self.session = session
        self.width, self.dpi = width, dpi
        self.picture = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.status = widgets.HTML()
        self.message = widgets.HTML()
        self.move_choice = widgets.Dropdown(description="move", layout=widgets.Layout(width="220px"))
        self.play_button = widgets.Button(description="Play move", tooltip="play the move chosen in the list")
        self.agent_button = widgets.Button(description="Agent moves", tooltip="the player to move's agent moves")
        self.play_on_button = widgets.Button(description="Agents play on",
                                             tooltip="agents move until a human is to move or the game ends")
        self.analyse_button = widgets.Button(description="Search here",
                                             tooltip="search this position (the agent to move, else the analyst)"
                                                     " without playing")
        self.stored_search_button = widgets.Button(
            description="Stored search", tooltip="re-run the stored game's own searches up to here (exact; costs "
                                                 "every search before this ply once)")
        self.start_button = widgets.Button(description="⏮", layout=widgets.Layout(width="40px"), tooltip="start")
        self.back_button = widgets.Button(description="◀", layout=widgets.Layout(width="40px"), tooltip="back")
        self.forward_button = widgets.Button(description="▶", layout=widgets.Layout(width="40px"),
                                             tooltip="forward")
        self.end_button = widgets.Button(description="⏭", layout=widgets.Layout(width="40px"), tooltip="end")
        self.restart_button = widgets.Button(description="New game")
        self.auto_reply = widgets.Checkbox(value=auto_reply, description="agents reply", indent=False,
                                           layout=widgets.Layout(width="120px"))
        self.player_texts = [widgets.Text(description=f"player {p}", layout=widgets.Layout(width="260px"))
                             for p in (0, 1)]
        self.players_button = widgets.Button(description="Set players",
                                             tooltip="'human' or an agent kind[:key=value,...], e.g. ppa:alpha=0.5")
        self._choices: list[int] | None = None  # moves offered after an ambiguous click
        self.cell_buttons = self._board_buttons()
        for button, action in ((self.play_button, self._play_chosen), (self.agent_button, self._agent_move),
                               (self.play_on_button, self._play_on), (self.analyse_button, self._analyse),
                               (self.stored_search_button, self._stored_search),
                               (self.start_button, lambda: session.go_to(0)),
                               (self.back_button, session.back), (self.forward_button, session.forward),
                               (self.end_button, lambda: session.go_to(session.plies)),
                               (self.restart_button, session.restart), (self.players_button, self._set_players)):
            button.on_click(self._handler(action))
        for cell, button in self.cell_buttons.items():
            button.on_click(self._handler(lambda cell=cell: self._click(cell)))
        grid = widgets.GridBox(list(self.cell_buttons.values()), layout=widgets.Layout(
            grid_template_columns=f"repeat({self._grid_columns}, {CELL_PIXELS // 2}px)", grid_gap="1px"))
        controls = widgets.VBox([
            widgets.HBox([self.start_button, self.back_button, self.forward_button, self.end_button,
                          self.restart_button]),
            widgets.HBox([self.move_choice, self.play_button]),
            widgets.HBox([self.agent_button, self.play_on_button, self.auto_reply]),
            widgets.HBox([self.analyse_button, self.stored_search_button]),
            *self.player_texts, self.players_button, self.message])
        super().__init__([self.status, widgets.HBox([grid, controls]), self.picture])
        self._fill_player_texts()
        self.refresh()

    # ---- layout ------------------------------------------------------------------------------------------------
    def _board_buttons(self) -> dict[int, widgets.Button]:
        """One button per cell, placed as the board is drawn: grid columns are half cells, so that the rows of a
        hex board shift by half a cell (square boards use every other column)."""
        game = self.session.game
        coords = game.module.board_graph(game.spec).coords
        columns = np.rint(2 * (coords[:, 0] - coords[:, 0].min())).astype(int) + 1
        heights = sorted({round(float(y), 6) for y in coords[:, 1]}, reverse=True)
        row_of = {y: i + 1 for i, y in enumerate(heights)}
        self._grid_columns = int(columns.max()) + 1
        buttons = {}
        for cell, (column, y) in enumerate(zip(columns, coords[:, 1])):
            buttons[cell] = widgets.Button(description="", layout=widgets.Layout(
                width=f"{CELL_PIXELS}px", height=f"{CELL_PIXELS}px", padding="0px",
                grid_row=str(row_of[round(float(y), 6)]), grid_column=f"{column} / span 2"))
        return buttons

    def _fill_player_texts(self) -> None:
        for text, side in zip(self.player_texts, self.session.players):
            text.value = "human" if side is None else _agent_text(side)

    # ---- actions -------------------------------------------------------------------------------------------------
    def _handler(self, action):
        def handle(_button=None):
            self.message.value = ""
            try:
                action()
            except (ValueError, TypeError, RuntimeError) as error:
                self.message.value = f"<span style='color:#b00'>{html.escape(str(error))}</span>"
            self.refresh()
        return handle

    def _after_human_move(self) -> None:
        self._choices = None
        if self.auto_reply.value:
            self.session.play_agents()

    def _click(self, cell: int) -> None:
        outcome, moves = self.session.click(cell)
        if outcome == "played":
            self._after_human_move()
        elif outcome == "choose":
            self._choices = moves
            self.message.value = "several moves fit: choose one in the list"
        else:
            self._choices = None
            if outcome == "none":
                self.message.value = "no legal move starts or ends on that cell" if not self.session.is_over() \
                    else "the game is over"

    def _play_chosen(self) -> None:
        if self.move_choice.value is None:
            raise ValueError("no move chosen in the list")
        self.session.play(int(self.move_choice.value))
        self._after_human_move()

    def _agent_move(self) -> None:
        self.session.agent_move()

    def _play_on(self) -> None:
        if self.session.agent_to_move() is None:
            raise ValueError("a human is to move (or the game is over): nothing for the agents to play")
        self.session.play_agents()

    def _analyse(self) -> None:
        self.session.analyse()

    def _stored_search(self) -> None:
        self.session.replay_stored_search()

    def _set_players(self) -> None:
        for player, text in enumerate(self.player_texts):
            self.session.set_player(player, text.value)
        self._fill_player_texts()

    # ---- drawing -------------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the session."""
        session = self.session
        over = session.is_over()
        self.status.value = f"<b>{html.escape(session.status())}</b>"
        texts = session.legal_texts()
        if self._choices is not None:
            texts = [(text, move) for text, move in texts if move in self._choices]
        self.move_choice.options = texts
        self.move_choice.value = texts[0][1] if texts else None
        self.play_button.disabled = not texts
        self.agent_button.disabled = session.agent_to_move() is None
        self.play_on_button.disabled = session.agent_to_move() is None
        self.analyse_button.disabled = over or (session.players[session.to_move] is None and
                                                session.analyst is None)
        self.stored_search_button.layout.display = None if session.stored is not None else "none"
        self.stored_search_button.disabled = session.stored is None or session.ply >= session.plies
        self.start_button.disabled = self.back_button.disabled = session.ply == 0
        self.forward_button.disabled = self.end_button.disabled = session.ply == session.plies
        self._refresh_cells()
        figure = session_figure(session, width=self.width)
        self.picture.value = figure_png(figure, dpi=self.dpi)

    def _refresh_cells(self) -> None:
        session = self.session
        game, state = session.game, session.history[session.ply]
        module = game.module
        glyphs = GLYPHS["fill" if module.__name__.endswith(".domineering") else "disc"]
        targets: dict[int, list[str]] = {}
        for text, move in session.legal_texts():
            source, target = int(module.move_from(game.spec, state, move)), int(module.move_to(game.spec, state, move))
            if target >= 0 and source == (-1 if session.selected_from is None else session.selected_from):
                targets.setdefault(target, []).append(text)
        last_target = -1
        if session.ply > 0:
            last_target = int(module.move_to(game.spec, session.history[session.ply - 1],
                                             session.moves[session.ply - 1]))
        for cell, button in self.cell_buttons.items():
            owner = int(module.cell_owner(game.spec, state, cell))
            button.description = glyphs[owner] if owner >= 0 else ""
            button.tooltip = ", ".join(targets.get(cell, []))
            if cell == session.selected_from:
                button.style.button_color = SELECTED_COLOUR
            elif cell in targets:
                button.style.button_color = LEGAL_COLOUR
            else:
                button.style.button_color = None
            button.style.font_weight = "bold" if cell == last_target else "normal"


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
