"""How long the explorer makes a player wait, measured (issue 26) and stored in figures/explorer/timings.json:

* ``open_s``: a fresh Python process importing ppalib.explore, making a session and drawing the widget;
* ``kernels_ready_s``: the background warm-up (numba compiling the game's kernels, or loading them from the cache);
* ``first_reply_s``: from the human's first click, made as soon as the board shows, to the agent's reply drawn
  (it waits for the warm-up, then searches ``playouts``);
* ``agent_move_1000_s``: one PPA search of 1,000 playouts on the start position, kernels ready (median of 5);

each with a cold numba cache (an empty ``PPALIB_CACHE_DIR``: what a new user's first game costs) and a warm one
(this machine's cache).  The browser's share (JupyterLab's start to an interactive board) is measured by
tests/test_explore_browser.py (output/browser/timings.json).

    .venv/bin/python scripts/explorer_timings.py [hex:7 breakthrough:6 ...]
"""
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "figures" / "explorer" / "timings.json"

PROBE = r"""
import json, statistics, sys, time
started = time.perf_counter()
from ppalib.explore import explore, new_session
from ppalib.agents import make_agent
game, size, cell = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
session = new_session(game, size, players=("human", "ppa"), playouts=1000, seed=0)
widget = explore(session)
opened = time.perf_counter()
widget.click_cell(cell)
widget.wait()
replied = time.perf_counter()
assert session.ply == 2, session.status()
searches = []
for _ in range(5):
    session.restart()
    began = time.perf_counter()
    session.analyse(make_agent("ppa", 1000))
    searches.append(time.perf_counter() - began)
print("RESULT " + json.dumps({"open_s": round(opened - started, 2), "kernels_ready_s": round(widget.warm_seconds, 2),
                              "first_reply_s": round(replied - opened, 2),
                              "agent_move_1000_s": round(statistics.median(searches), 3)}))
"""

def probe(game: str, size: int, cache: str | None) -> dict:
    """One fresh process of the probe above on ``game`` (a placement game: the first click is the board's centre),
    with the numba cache in ``cache`` (None: this machine's)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if cache is not None:
        env["PPALIB_CACHE_DIR"] = cache
    cell = (size // 2) * size + size // 2
    out = subprocess.run([sys.executable, "-c", PROBE, game, str(size), str(cell)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])


def main(games: list[str]) -> None:
    results = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores (shared)",
               "playouts": 1000, "games": {}}
    for text in games:
        game, size = text.split(":")
        with tempfile.TemporaryDirectory() as cold:
            results["games"][text] = {"cold": probe(game, int(size), cold), "warm": probe(game, int(size), None)}
        print(text, json.dumps(results["games"][text]))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print("written", OUT.relative_to(ROOT))


if __name__ == "__main__":
    main(sys.argv[1:] or ["hex:7", "go:9"])
