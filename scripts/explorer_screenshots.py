"""Screenshots of the explorer in a real browser, for the static site and the README: Hex, Go, Breakthrough and
Fanorona after a click (the agent's reply, then one step back to its search or its learned weights), written to
figures/explorer/ (or the folder given).  Needs the browser of scripts/install_browser.sh.

    .venv/bin/python scripts/explorer_screenshots.py [folder]

JupyterLab runs on 127.0.0.1 from a temporary folder holding copies of notebooks/play.ipynb with each game's
parameters (as papermill injects them); the helpers are the browser test's (tests/jupyter_helpers.py).
"""
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from PIL import Image  # noqa: E402  (matplotlib's dependency)

from jupyter_helpers import LabPage, headless_chromium, jupyter_lab, missing_browser, notebook_with_parameters  # noqa

# game parameters, the cells clicked (a piece, then its destination), then what to show: "back" steps to the
# position the agent searched (its visits drawn), "weights" shows what PPA learned there
SHOTS = {
    "hex": (dict(game="hex", size=7, players=["human", "ppa"], playouts=1000, seed=1), [24], ["back", "weights"]),
    "go": (dict(game="go", size=9, players=["human", "ppa"], playouts=1000, seed=1), [40], ["back"]),
    # c2-c3, the reply, then b2 selected: its destinations dotted
    "breakthrough": (dict(game="breakthrough", size=6, players=["human", "ppa"], playouts=1000, seed=1),
                     [8, 14, 7], []),
    # d2-e3 (an approach capture), the reply; then the start position searched by the analyst (PPA): every
    # opening move's arrow, approach and withdrawal along one step labelled apart
    "fanorona": (dict(game="fanorona", size=None, players=["human", "ppa"], playouts=1000, seed=1), [12, 22],
                 ["first", "search"]),
}
BUTTONS = {"back": "‹ back", "weights": "weights", "first": "« first", "search": "Search here"}


def main(folder: Path) -> None:
    why = missing_browser()
    if why:
        sys.exit(why)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, (parameters, _, _) in SHOTS.items():
            notebook_with_parameters(ROOT / "notebooks" / "play.ipynb", tmp / "lab" / "notebooks" / f"{name}.ipynb",
                                     **parameters)
        with jupyter_lab(tmp / "lab", tmp, "--LabApp.expose_app_in_browser=True") as server, \
                headless_chromium(tmp / "profile", 1366, 900) as driver:
            page = LabPage(driver, server)
            for name, (_, clicks, steps) in SHOTS.items():
                page.open_and_run(f"notebooks/{name}.ipynb")
                page.wait_idle()
                for cell in clicks:
                    page.click_cell(cell)
                    board = page.wait_idle()  # the board refuses clicks while the agent replies
                for step in steps:
                    before = board["drawn"]
                    page.button(BUTTONS[step]).click()
                    page.wait(lambda d: page.board_state()["drawn"] > before, 30, f"{name}: {step}")
                    board = page.wait_idle()
                time.sleep(0.5)  # the last picture painted
                shot = page.screenshot_explorer(folder / f"{name}.png")
                # 256 colours: a quarter of the bytes, no visible loss on flat board colours
                Image.open(shot).convert("RGB").quantize(256).save(shot, optimize=True)
                print(name, board["status"], "|", board["line"], "->", shot)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "figures" / "explorer")
