"""The explorer (ppalib.explore): its model on every board game, stored games stepped through and their searches
replayed, the pictures' annotations, the widget driven by its handlers, and play.ipynb run headless (static) and
driven through a real kernel (widgets)."""
import json
import re
import threading
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from ppalib import paths
from ppalib.agents import make_agent
from ppalib.explore import (cell_weights, draw_search, draw_weights, explore, move_weights, new_session,
                            notebook_session, open_stored_game, prepare_static_view, session_figure,
                            stored_conditions, widgets_available)
from ppalib.explore.drawing import LEGAL_COLOUR, board_marks, cell_names
from ppalib.games import GAMES, make_game

ROOT = Path(__file__).resolve().parents[1]
PLAY = ROOT / "notebooks" / "play.ipynb"
BOARD_GAMES = [name for name in GAMES if "cashing_checks" not in name]
# Small boards keep the tests fast (fixed-board games play their own).
SMALL = {"connect_four": 5, "gomoku": 7, "othello": 6, "hex": 4}
BOARD_STORES = ("ppa2015", "ppaf2016", "soemers2019")


def small_size(name: str) -> int:
    rule = GAMES[name]
    return SMALL.get(name, max(rule.min_size, min(5, rule.max_size)))


def _gids(ax, prefix: str) -> list[str]:
    return [t.get_gid() for t in ax.texts if (t.get_gid() or "").startswith(prefix)]


# ---- the model on every board game --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", BOARD_GAMES)
def test_random_moves_entered_by_text_reach_the_positions_the_game_reaches_and_step_back(name):
    session = new_session(name, small_size(name), players=("human", "human"))
    game, rng = session.game, np.random.default_rng(7)
    state, expected = game.initial_state(), [game.initial_state()]
    for _ in range(6):
        legal = session.legal_moves()
        if legal.size == 0:
            break
        move = int(legal[rng.integers(legal.size)])
        assert session.play(session.move_text(move).upper()) == move  # texts match whatever their case
        state = game.play(state, move)
        expected.append(state)
        assert np.array_equal(session.position, state)
    for ply in range(session.plies, -1, -1):
        session.go_to(ply)
        assert np.array_equal(session.position, expected[ply])
    assert not session.back() and session.forward(2) and session.ply == min(2, session.plies)
    figure = session_figure(session)
    assert len(figure.axes) == 1 and figure.axes[0].patches  # the board is drawn (no search yet: one panel)


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_clicking_a_legal_moves_cells_plays_it_or_offers_it(name):
    session = new_session(name, small_size(name), players=("human", "human"))
    module, spec = session.game.module, session.game.spec
    rng = np.random.default_rng(3)
    for _ in range(4):
        state = session.history[session.ply]
        on_board = [int(m) for m in session.legal_moves() if module.move_to(spec, state, m) >= 0]
        if not on_board:
            break
        move = on_board[rng.integers(len(on_board))]
        source, target = int(module.move_from(spec, state, move)), int(module.move_to(spec, state, move))
        if source >= 0:
            outcome, moves = session.click(source)
            assert outcome == "selected" and move in moves
        outcome, moves = session.click(target)
        if outcome == "choose":  # e.g. Fanorona's approach and withdrawal along one step
            assert move in moves and len(moves) > 1
            session.play(move)
        else:
            assert outcome == "played"
            if moves != [move]:  # the same cells, another move: only where several share them (then 'choose')
                pytest.fail(f"clicking {move}'s cells played {moves}")
        assert session.moves[-1] == move


def test_a_game_without_a_board_is_refused_naming_it():
    with pytest.raises(ValueError, match="game='blind_cashing_checks' has no board"):
        new_session("blind_cashing_checks", 8)


def test_an_illegal_move_text_is_refused_naming_it_and_the_legal_moves():
    session = new_session("breakthrough", 5, players=("human", "human"))
    with pytest.raises(ValueError, match=r"move='a1-a2' is not legal in this position; legal moves: .*a2-a3"):
        session.play("a1-a2")  # a piece of the back row cannot move through its own pawn
    with pytest.raises(ValueError, match="move=999 is not legal"):
        session.play(999)
    assert session.plies == 0


@pytest.mark.parametrize("call,message", [
    (lambda: new_session("chess", 8), "game='chess' is unknown"),
    (lambda: new_session("go", 30), "size=30 is out of range for go"),
    (lambda: new_session("hex", 5, swap=2), "swap=2"),
    (lambda: new_session("go", 5, players=("human",)), "players must be two sides"),
    (lambda: new_session("go", 5, players=("human", "ppa:alpha=-1")), "players\\[1\\].*alpha=-1.0 is out of range"),
    (lambda: new_session("go", 5, players=("robot", "uct")), "players\\[0\\] 'robot'.*kind='robot' is unknown"),
    (lambda: new_session("go", 5, playouts=0), "playouts=0 is out of range"),
    (lambda: new_session("go", 5, seed=-1), "seed=-1 must be an integer >= 0"),
    (lambda: new_session("go", 5).go_to(3), "ply=3 is out of range"),
    (lambda: new_session("go", 5).click(25), "cell=25 is out of range"),
    (lambda: new_session("go", 5, players=("human", "uct")).agent_move(), "players\\[0\\] is human"),
    (lambda: open_stored_game("no/such/folder", "abc"), "results_dir='no/such/folder' is not a folder"),
    (lambda: open_stored_game("ppa2015", "zzzz"), "condition='zzzz' matches no condition"),
    (lambda: open_stored_game("ppa2015", "", 0), "condition must be a condition id"),
    (lambda: notebook_session(condition="abc"), "condition='abc' needs results_dir"),
    (lambda: notebook_session(game_options=[1]), "game_options must be a dict"),
    (lambda: prepare_static_view(new_session("go", 5), ply=-2), "ply=-2 must be an integer >= 0"),
])
def test_bad_parameters_are_refused_naming_them(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_a_stored_game_index_that_is_not_stored_is_refused_with_the_stored_range():
    condition = stored_conditions("ppa2015").iloc[0]
    with pytest.raises(ValueError, match=rf"game_index=100000 is not stored for condition "
                                         rf"{condition.condition_id}; stored: 0..{condition.games - 1} "):
        open_stored_game("ppa2015", condition.condition_id[:8], 100000)


def test_the_cashing_checks_store_is_refused_as_a_game_without_a_board():
    with pytest.raises(ValueError, match="has no board"):
        open_stored_game("adaptive_rave2013", stored_conditions("adaptive_rave2013").condition_id.iloc[0])


# ---- stored games ---------------------------------------------------------------------------------------------------
def _shortest_games(store: str, count: int = 3) -> pd.DataFrame:
    frame = pd.concat([pd.read_parquet(p) for p in sorted((paths.RESULTS / store).glob("*.parquet"))])
    return frame.sort_values(["plies", "condition_id", "game_index"]).drop_duplicates("game").head(count)


@pytest.mark.parametrize("store", BOARD_STORES)
def test_stepping_through_stored_games_reproduces_their_positions_and_results(store):
    for row in _shortest_games(store).itertuples():
        session = open_stored_game(store, row.condition_id, int(row.game_index))
        game = make_game(row.game, int(row.size), **json.loads(row.game_options))
        assert session.ply == 0 and session.plies == row.plies
        state = game.initial_state()
        for ply, move in enumerate(int(m) for m in row.moves.split()):
            assert np.array_equal(session.position, state) and session.winner() is None
            assert session.forward()
            state = game.play(state, move)
        assert np.array_equal(session.position, state) and session.winner() == row.winner
        assert not session.forward()
        session.go_to(0)
        assert np.array_equal(session.position, game.initial_state())


def test_a_stored_games_searches_replay_exactly_and_choose_the_stored_moves():
    row = _shortest_games("ppa2015", 1).iloc[0]
    session = open_stored_game("ppa2015", row.condition_id, int(row.game_index))
    stored = [int(m) for m in row.moves.split()]
    details = session.replay_stored_search(2)
    assert details.origin == "stored" and details.ply == 2 and details.result.move == stored[2]
    # both agents have Table 1's budget; the first iteration makes the root's entry, the others visit its moves
    assert details.result.visits.sum() == row.agent_playouts - 1
    assert session.ply == 0 and session.searches[2] is details  # the cursor stays; the search is kept for ply 2
    assert session.replay_stored_search(1).result.move == stored[1]  # earlier plies are kept, not rerun
    session.go_to(1)
    session.play([text for text, move in session.legal_texts() if move != stored[1]][0])
    with pytest.raises(ValueError, match="not the stored game's any more"):
        session.replay_stored_search(2)


# ---- searches -------------------------------------------------------------------------------------------------------
def _connect_four_win_in_one():
    """Connect Four, 5 columns: player 0 has three discs in column a and is to move; a wins at once."""
    session = new_session("connect_four", 5, players=("human", "human"))
    for text in "a b a b a b".split():
        session.play(text)
    return session


@pytest.mark.parametrize("kind", ["uct", "ppa", "ppaf", "mast", "rave"])
def test_a_search_values_each_root_move_by_its_mean_result_and_an_immediate_win_at_1(kind):
    session = _connect_four_win_in_one()
    details = session.analyse(make_agent(kind, 300))
    result = details.result
    winning = result.moves.tolist().index(session.find_move("a"))
    assert result.move == session.find_move("a") and result.values[winning] == 1.0
    visited = result.visits > 0
    assert result.values.shape == result.visits.shape and result.visits.sum() == 299  # the first made the root
    assert np.all((result.values[visited] >= 0) & (result.values[visited] <= 1))
    assert np.isnan(result.values[~visited]).all()
    table = details.table()
    assert table.loc[0, "text"] == "a" and table.loc[0, "value"] == 1.0
    assert ("weight" in table) == (kind in ("ppa", "ppaf", "mast"))


def test_agents_play_and_each_position_keeps_the_search_that_chose_its_move():
    session = new_session("go", 5, players=("ppa", "uct"), playouts=60, seed=4)
    assert session.play_agents(max_plies=3) == 3
    for ply in range(3):
        session.go_to(ply)
        details = session.current_search
        assert details.origin == "played" and details.ply == ply and details.result.move == session.moves[ply]
        assert details.agent.kind == ("ppa" if ply % 2 == 0 else "uct")
    session.go_to(1)
    session.play(session.legal_texts()[-1][0])  # a new line from ply 1: what followed is dropped
    assert session.plies == 2 and set(session.searches) == {0, 1}


def test_the_same_seed_and_moves_give_the_same_agent_moves():
    lines = []
    for _ in range(2):
        session = new_session("breakthrough", 5, players=("human", "ppa"), playouts=80, seed=11)
        session.play("b2-b3")
        session.agent_move()
        session.play(session.legal_texts()[0][0])
        session.agent_move()
        lines.append(session.moves)
    assert lines[0] == lines[1]


# ---- pictures -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["go", "hex", "yavalath", "connect_four", "breakthrough", "fanorona", "teeko",
                                  "domineering", "othello"])
def test_the_search_picture_labels_each_visited_root_move_once(name):
    session = new_session(name, small_size(name), players=("uct", "uct"), playouts=20, seed=1)
    session.play_agents(max_plies=2)
    details = session.analyse(make_agent("uct", 20))
    figure = session_figure(session)
    labels = _gids(figure.axes[0], "move:")
    visited = {f"move:{m}" for m, v in zip(details.result.moves, details.result.visits) if v >= 1}
    assert len(labels) == len(visited) and set(labels) == visited
    assert len(figure.axes) == 1  # UCT learns no playout weights: no second panel


@pytest.mark.parametrize("name", ["go", "atarigo", "nogo", "hex", "yavalath", "connect_four", "gomoku", "othello",
                                  "domineering", "teeko"])
def test_ppa_weights_are_drawn_per_cell_where_the_codes_are_cells(name):
    session = new_session(name, small_size(name), players=("ppa", "ppa"), playouts=60, seed=2)
    session.play_agents(max_plies=3)
    details = session.analyse()
    weights = cell_weights(details)
    assert weights is not None
    graph = session.game.module.board_graph(session.game.spec)
    state = details.state
    for move, weight in zip(details.result.moves, move_weights(details)):  # the map agrees with each move's code
        target = int(session.game.module.move_to(session.game.spec, state, move))
        if target >= 0:
            assert weights[target] == weight
    figure = session_figure(session)
    assert len(figure.axes) == 2 and len(_gids(figure.axes[1], "cell:")) == graph.cells


@pytest.mark.parametrize("name,agent", [("breakthrough", "ppa"), ("knightthrough", "ppa"), ("fanorona", "ppa"),
                                        ("go", "ppaf"), ("domineering", "ppaf"), ("hex", "mastf")])
def test_weights_are_drawn_per_move_code_where_codes_are_not_cells(name, agent):
    session = new_session(name, small_size(name), players=(agent, agent), playouts=60, seed=5)
    details = session.analyse()
    assert cell_weights(details) is None
    from matplotlib.figure import Figure
    ax = Figure().subplots()
    draw_weights(details, ax)
    codes = {f"code:{c}" for c in (session.game.move_code(details.state, int(m), details.with_context)
                                   for m in details.result.moves)}
    drawn = _gids(ax, "code:")
    assert len(drawn) == min(24, len(details.result.moves)) and set(drawn) <= codes


def test_teeko_shows_placements_per_cell_and_steps_per_code():
    session = new_session("teeko", 5, players=("ppa", "ppa"), playouts=40, seed=6)
    session.play_agents(max_plies=8)  # four pieces each: the moving phase starts
    assert cell_weights(session.analyse()) is None
    session.go_to(2)
    assert cell_weights(session.analyse()) is not None


def test_draw_search_lists_moves_off_the_board_under_it():
    session = new_session("hex", 4, players=("human", "uct"), playouts=50, swap=1)
    session.play("b2")
    details = session.analyse()  # player 1 may swap: a move on no cell
    from matplotlib.figure import Figure
    ax = Figure().subplots()
    draw_search(details, ax)
    swap = session.find_move("swap")
    assert f"move:{swap}" in _gids(ax, "move:")
    assert any(t.get_text().startswith("swap:") for t in ax.texts)


# ---- the widget, without a kernel -----------------------------------------------------------------------------------
def test_the_board_picture_has_one_click_target_per_cell_and_the_coordinates_on_its_edges():
    session = new_session("hex", 5, players=("human", "human"))
    svg = explore(session, warm=False).board.svg
    assert re.findall(r'id="target-(\d+)"', svg) == [str(c) for c in range(25)]
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert [t for t in texts if t in "abcde" and t] == list("abcde") and all(str(r) in texts for r in range(1, 6))
    assert "hex 5x5 ·" in session.status()  # not "hex hex, 25 cells"


def test_the_move_line_says_how_many_moves_follow_when_the_cursor_is_moved_back():
    session = new_session("hex", 5, players=("human", "human"))
    widget = explore(session, warm=False)
    assert widget._line_text() == "none yet"
    for move in ("a1", "b2", "c3"):
        session.play(move)
    session.go_to(0)
    assert widget._line_text() == "none before this ply (3 more after this ply: next ›)"
    session.go_to(2)
    assert widget._line_text().startswith("1. ") and widget._line_text().endswith("(1 more after this ply: next ›)")
    session.go_to(3)
    assert "more after" not in widget._line_text()


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_the_cell_names_on_the_board_are_the_move_texts_cells(name):
    session = new_session(name, small_size(name), players=("human", "human"))
    game, state = session.game, session.history[0]
    names = cell_names(game)
    for move in session.legal_moves():
        target = int(game.module.move_to(game.spec, state, move))
        if target >= 0:
            text = game.move_to_str(state, int(move))
            # Connect Four names a move by its column alone: the column letter on the board's edge
            assert names[target] in text if name != "connect_four" else names[target][0] == text


def test_the_widget_draws_a_click_at_once_refuses_clicks_while_the_agent_thinks_and_steps_back():
    session = new_session("hex", 3, players=("human", "ppa"), playouts=30, seed=1)
    widget = explore(session)
    widget.wait()  # the kernels' warm-up
    first_picture, first_drawn = widget.board.svg, widget.board.drawn
    thinking, release = threading.Event(), threading.Event()
    agent_move = session.agent_move

    def slow_agent_move():
        thinking.set()
        release.wait(30)
        return agent_move()
    session.agent_move = slow_agent_move
    assert widget.click_cell(4, drawn=first_drawn)
    assert thinking.wait(30) and widget.busy and widget.board.busy and widget.agent_button.disabled
    assert session.moves == [4] and widget.board.svg != first_picture  # the human's move drawn before the reply
    assert "ply 1 of 1" in widget.status.value
    assert not widget.click_cell(0) and session.moves == [4]  # refused while the agent thinks: nothing queued
    widget.back_button.click()
    assert session.ply == 1
    release.set()
    widget.wait()
    assert session.ply == 2 and session.moves[0] == 4 and not widget.busy and not widget.board.busy
    assert not widget.click_cell(0, drawn=first_drawn) and session.ply == 2  # a click on an old picture
    widget.back_button.click()
    assert session.ply == 1 and session.current_search.origin == "played"
    widget.forward_button.click()
    assert widget.click_cell(4)  # occupied: nothing happens, and the widget says why
    assert session.ply == 2 and "no legal move" in widget.message.value


def test_the_widget_moves_a_piece_in_two_clicks_and_reports_errors_without_raising():
    session = new_session("breakthrough", 5, players=("human", "human"))
    widget = explore(session)
    widget.click_cell(6)  # b2 selected: its destinations are marked
    legal = board_marks(session)["legal"]
    assert session.selected_from == 6 and 11 in legal
    assert widget.board.svg.count(f"fill: {LEGAL_COLOUR}") == len(legal)
    widget.click_cell(11)
    assert session.move_text(session.moves[0], 0) == "b2-b3"
    widget.player_texts[1].value = "robot"
    widget.players_button.click()
    assert "kind=&#x27;robot&#x27; is unknown" in widget.message.value and session.players == (None, None)
    widget.player_texts[1].value = "uct:c=0.7"
    widget.players_button.click()
    assert session.players[1].c == 0.7 and widget.message.value == ""
    widget.agent_button.click()
    widget.wait()
    assert session.ply == 2 and session.current_search is None  # the cursor moved on past the agent's search
    widget.move_choice.value = widget.move_choice.options[0][1]
    widget.play_button.click()
    widget.wait()
    assert session.ply == 4  # the human's move, and UCT's reply (agents reply by default)
    widget.auto_reply.value = False
    widget.move_choice.value = widget.move_choice.options[0][1]
    widget.play_button.click()
    widget.wait()
    assert session.ply == 5 and session.to_move == 1


def test_the_widget_shows_the_learned_weights_on_the_board_when_asked():
    session = new_session("go", 5, players=("human", "human"), analyst="ppa", playouts=60)
    widget = explore(session)
    widget.analyse_button.click()
    widget.wait()
    assert session.current_search.origin == "analysis"
    widget.view.value = "weights"
    assert widget.board.svg.count('id="cell:') == 25 and widget.board.svg.count('id="target-') == 25
    widget.restart_button.click()
    assert widget.view.value == "search"  # no search here: no weights to show


def test_the_widget_of_a_stored_game_replays_its_search():
    row = _shortest_games("ppa2015", 1).iloc[0]
    session = open_stored_game("ppa2015", row.condition_id, int(row.game_index))
    widget = explore(session)
    assert widget.stored_search_button.layout.display is None and widget.back_button.disabled
    widget.forward_button.click()
    widget.stored_search_button.click()
    widget.wait()
    assert session.current_search.origin == "stored" and session.current_search.result.move == session.moves[1]


# ---- play.ipynb -----------------------------------------------------------------------------------------------------
def test_play_notebook_has_no_outputs_one_parameters_cell_and_is_no_paper_notebook():
    from ppalib.reproduce import notebooks
    notebook = nbformat.read(PLAY, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code)
    assert sum("parameters" in cell.metadata.get("tags", []) for cell in code) == 1
    assert PLAY not in notebooks()  # reproduce runs the papers' notebooks only


def test_widgets_are_the_default_only_in_a_kernel_a_jupyter_server_started(monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    assert not widgets_available()
    monkeypatch.setenv("JPY_SESSION_NAME", "/notebooks/play.ipynb")
    assert widgets_available()


def _outputs(notebook) -> list[dict]:
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]


@pytest.mark.slow
def test_play_notebook_under_papermill_draws_static_pictures_of_a_stored_games_search(tmp_path, monkeypatch):
    import papermill
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)  # as papermill's own kernels: no Jupyter server
    row = _shortest_games("ppa2015", 1).iloc[0]
    papermill.execute_notebook(str(PLAY), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False,
                               cwd=str(PLAY.parent), parameters={"results_dir": "ppa2015",
                                                                 "condition": row.condition_id[:10],
                                                                 "game_index": int(row.game_index), "ply": 1})
    outputs = _outputs(nbformat.read(tmp_path / "out.ipynb", as_version=4))
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert not any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    table = next(o["data"]["text/plain"] for o in outputs if "visits" in o.get("data", {}).get("text/plain", ""))
    stored_move = open_stored_game("ppa2015", row.condition_id, int(row.game_index)).move_text(
        int(row.moves.split()[1]), 1)
    assert stored_move in table.splitlines()[1]  # the stored move at ply 1 tops the replayed search's table


@pytest.mark.slow
def test_play_notebook_drives_its_widget_through_a_kernel(tmp_path):
    """play.ipynb with widgets, executed in a real kernel (nbclient), then driven as a user would: the cells below
    click the board, choose a move in the list, step back and search, and print what the session holds."""
    from nbclient import NotebookClient
    notebook = nbformat.read(PLAY, as_version=4)
    parameters = {"game": "hex", "size": 3, "players": ["human", "ppa"], "playouts": 30, "interactive": True}
    after = next(i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", []))
    notebook.cells.insert(after + 1, nbformat.v4.new_code_cell(  # as papermill injects them
        "\n".join(f"{name} = {value!r}" for name, value in parameters.items())))
    notebook.cells.append(nbformat.v4.new_code_cell("""\
import json
before = explorer.board.svg
explorer.click_cell(4)                                 # the centre, as the browser sends it; PPA replies
explorer.wait()
after_click = (session.ply, list(session.moves))
explorer.move_choice.value = explorer.move_choice.options[0][1]
explorer.play_button.click()                           # a move chosen in the list; the agent replies again
explorer.wait()
explorer.back_button.click()
explorer.analyse_button.click()                        # search the position without playing
explorer.wait()
print("STATE " + json.dumps({"after_click": after_click, "ply": session.ply, "plies": session.plies,
                             "moves": session.moves, "search": session.current_search.origin,
                             "picture_changed": explorer.board.svg != before,
                             "status": explorer.status.value}))"""))
    NotebookClient(notebook, kernel_name="python3", timeout=600,
                   resources={"metadata": {"path": str(PLAY.parent)}}).execute()
    outputs = _outputs(notebook)
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    line = next(o["text"] for o in outputs if o.get("name") == "stdout" and o["text"].startswith("STATE "))
    state = json.loads(line.removeprefix("STATE "))
    assert state["after_click"][0] == 2 and state["after_click"][1][0] == 4
    assert state["plies"] == 4 and state["ply"] == 3 and state["search"] == "analysis"
    assert state["picture_changed"] and "ply 3 of 4" in state["status"]


def test_the_readme_example_of_exploring_runs():
    """The Python example of the README's section "Exploring a game", as printed."""
    import re
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Exploring a game\n", 1)[1].split("\n## ", 1)[0]
    namespace = {}
    exec(re.search(r"```python\n(.*?)```", section, re.S).group(1), namespace)
    assert namespace["session"].current_search.agent.kind == "ppa" and namespace["session"].ply == 1
    replayed = namespace["stored"].searches[5]
    assert replayed.origin == "stored" and replayed.result.move == namespace["stored"].moves[5]


def test_playout_probabilities_follow_the_kernels_gibbs_weights_exp_k_times_the_policy():
    """learning.py keeps weight = exp(k policy) (PPA: k = 1; MAST: the agent's k): the explorer's probabilities
    must be those weights normalised, so the odds of two moves are exp(k (w1 - w2))."""
    from ppalib.explore import playout_probabilities
    for kind, params, k in (("ppa", {}, 1.0), ("mast", {"k": 3.0}, 3.0)):
        session = new_session("go", 5, players=("human", "human"), analyst=make_agent(kind, 200, **params))
        details = session.analyse()
        weights, probabilities = move_weights(details), playout_probabilities(details)
        assert probabilities.sum() == pytest.approx(1.0)
        high, low = int(np.argmax(weights)), int(np.argmin(weights))
        assert weights[high] > weights[low]  # the search learned something to compare
        assert probabilities[high] / probabilities[low] == pytest.approx(np.exp(k * (weights[high] - weights[low])))
        assert list(details.table()["playout_probability"]) == pytest.approx(
            [probabilities[list(details.result.moves).index(m)] for m in details.table()["move"]])
