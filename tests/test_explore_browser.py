"""The explorer in a real browser: JupyterLab started on 127.0.0.1 (the README's server config), headless Chromium
driven by selenium opens play.ipynb (copies with small parameters), runs it, clicks a Hex cell and a Breakthrough
piece and its destination as a user does, and checks the board and the agent's reply, and that JupyterLab's save
leaves the notebook file as it was (the server config's hook).  Screenshots of a failure
are kept under output/browser/ (git-ignored).  Skips, saying so in one line, where no browser is installed
(``bash scripts/install_browser.sh`` installs Debian's chromium and chromium-driver)."""
import json
import re
import time
from pathlib import Path

import pytest

from jupyter_helpers import LabPage, headless_chromium, jupyter_lab, missing_browser, notebook_with_parameters

ROOT = Path(__file__).resolve().parents[1]
PLAY = ROOT / "notebooks" / "play.ipynb"
OUTPUT = ROOT / "output" / "browser"
# A small agent budget keeps the test short; the kernels are the ones the rest of the suite compiles.
GAMES = {"hex": dict(game="hex", size=5, players=["human", "ppa"], playouts=200, seed=3),
         "breakthrough": dict(game="breakthrough", size=5, players=["human", "ppa"], playouts=200, seed=3)}

pytestmark = [pytest.mark.slow, pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser()))]


def _moves(line: str) -> list[str]:
    return re.findall(r"\d+\. (\S+)", line)


def test_jupyterlab_in_a_browser_plays_a_hex_click_and_a_breakthrough_two_click_move_and_the_agent_replies(
        tmp_path):
    root = tmp_path / "lab"
    for name, parameters in GAMES.items():
        notebook_with_parameters(PLAY, root / "notebooks" / f"play_{name}.ipynb", **parameters)
    hex_notebook = root / "notebooks" / "play_hex.ipynb"
    hex_source = hex_notebook.read_bytes()
    timings = {}
    started = time.monotonic()
    with jupyter_lab(root, tmp_path, "--LabApp.expose_app_in_browser=True") as server, \
            headless_chromium(tmp_path / "chromium-profile") as driver:
        page = LabPage(driver, server)
        step = "hex"
        try:
            timings["lab_start_s"] = round(server.start_seconds, 1)
            timings["hex_open_to_board_s"] = round(page.open_and_run("notebooks/play_hex.ipynb"), 1)
            timings["lab_start_to_interactive_board_s"] = round(time.monotonic() - started, 1)
            board = page.wait_idle()
            assert "hex 5x5 · ply 0 of 0" in board["status"] and board["pieces"] == []
            clicked = time.monotonic()
            board = page.click_cell(12)  # c3, the centre
            # the first redraw has the human's stone (the agent may have replied already: 200 playouts are quick;
            # that the reply comes after the move is drawn is checked in test_explore, with a held agent)
            assert "piece-12-0" in board["pieces"] and re.search(r"ply (1 of 1|2 of 2)", board["status"])
            page.wait(lambda d: "ply 2 of 2" in page.board_state()["status"], 120, "no reply from the agent")
            board = page.wait_idle()
            timings["hex_click_to_reply_s"] = round(time.monotonic() - clicked, 1)
            moves = _moves(board["line"])
            assert moves[0] == "c3" and len(moves) == 2 and moves[1] != "c3"
            assert sorted(board["pieces"]) == sorted(["piece-12-0", f"piece-{_hex_cell(moves[1], 5)}-1"])
            assert "human to move" in board["status"] and board["message"] == ""
            page.screenshot_explorer(OUTPUT / "hex.png")
            # JupyterLab's own save, through the README's server config: the notebook file stays as it was
            saved_at = hex_notebook.stat().st_mtime_ns
            page.script("return window.jupyterapp.commands.execute('docmanager:save');")
            page.wait(lambda d: hex_notebook.stat().st_mtime_ns != saved_at, 30, "JupyterLab did not save")
            assert hex_notebook.read_bytes() == hex_source, "JupyterLab's save changed the source notebook"

            step = "breakthrough"
            timings["breakthrough_open_to_board_s"] = round(page.open_and_run("notebooks/play_breakthrough.ipynb"), 1)
            board = page.wait_idle()
            assert "breakthrough 5x5 · ply 0 of 0" in board["status"] and len(board["pieces"]) == 20
            board = page.click_cell(6)  # b2: selected, its destinations marked
            assert board["legal"] == 3 and "ply 0 of 0" in board["status"]
            clicked = time.monotonic()
            board = page.click_cell(11)  # b3
            assert "piece-11-0" in board["pieces"] and "piece-6-0" not in board["pieces"]
            page.wait(lambda d: "ply 2 of 2" in page.board_state()["status"], 120, "no reply from the agent")
            board = page.wait_idle()
            timings["breakthrough_click_to_reply_s"] = round(time.monotonic() - clicked, 1)
            moves = _moves(board["line"])
            assert moves[0] == "b2-b3" and len(moves) == 2 and re.fullmatch(r"[a-e][45]-[a-e][34]", moves[1])
            assert len(board["pieces"]) == 20 and "human to move" in board["status"]
            page.screenshot_explorer(OUTPUT / "breakthrough.png")
        except Exception:
            OUTPUT.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(OUTPUT / f"failure-{step}.png"))
            (OUTPUT / f"failure-{step}.log").write_text(server.log.read_text()[-20000:])
            raise
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / "timings.json").write_text(json.dumps(timings, indent=1))
    print("TIMINGS", json.dumps(timings))


def _hex_cell(name: str, n: int) -> int:
    return (int(name[1:]) - 1) * n + ord(name[0]) - ord("a")
