"""The explorer: an interactive board for every game with a board (issue 16, part one).

Play against any agent or watch two agents play, step through a stored game, and see the search behind a move: the
root's visits and values drawn on the board and, for PPA/PPAF (and MAST/MASTF), the learned playout weights per
cell or per move code.  Three parts, each usable alone:

* ``session``: the model, pure Python (``Session``, ``new_session``, ``open_stored_game``, ``stored_conditions``);
* ``drawing``: matplotlib pictures of a session or a search (``board_figure``, ``session_figure``,
  ``draw_search``, ``draw_weights``...): the widget's board (as SVG) and the static pictures where widgets are not
  available (papermill);
* ``widget``: the board as one clickable SVG picture (a small anywidget) and ipywidgets controls (``Explorer``,
  ``explore``), for JupyterLab (``notebooks/play.ipynb``).

This room is a front end, beside the CLI: it uses games, agents, the store and experiments (to replay a stored
game's searches), and nothing below imports it.
"""
from .drawing import (board_figure, cell_names, cell_weights, draw_board, draw_cell_weights, draw_code_weights,
                      draw_search, draw_weights, figure_png, figure_svg, session_figure)
from .session import (HUMAN, SearchDetails, Session, StoredGame, move_codes, move_weights, new_session,
                      notebook_session, open_stored_game, parse_player, playout_probabilities, policy_sharpness,
                      prepare_static_view, results_folder, stored_conditions)


def widgets_available() -> bool:
    """Whether to show widgets by default: ipywidgets is installed and this kernel was started by a Jupyter server
    (JupyterLab, Jupyter Notebook: they set ``JPY_SESSION_NAME``), which draws them.  Papermill and nbclient start
    kernels without it, so they get the static pictures; pass ``interactive=True`` to force widgets elsewhere
    (e.g. VS Code)."""
    import importlib.util
    import os
    return importlib.util.find_spec("ipywidgets") is not None and bool(os.environ.get("JPY_SESSION_NAME"))


def explore(session: Session, **options):
    """The widget of ``session`` (``ppalib.explore.widget.Explorer``): display it as a notebook cell's value."""
    from .widget import Explorer
    return Explorer(session, **options)


__all__ = ["HUMAN", "SearchDetails", "Session", "StoredGame", "board_figure", "cell_names", "cell_weights", "draw_board", "draw_cell_weights",
           "draw_code_weights", "draw_search", "draw_weights", "explore", "figure_png", "figure_svg", "move_codes", "move_weights",
           "new_session", "notebook_session", "open_stored_game", "parse_player", "playout_probabilities",
           "policy_sharpness", "prepare_static_view", "results_folder", "session_figure", "stored_conditions",
           "widgets_available"]
