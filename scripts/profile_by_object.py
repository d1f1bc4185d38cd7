"""Where a search's time goes by shared object (numba's compiled code, libm's ``exp`` and ``log``, Python...):
``perf record`` attached to repeated searches from a game's start position, then ``perf report --sort dso``.
``scripts/jit_profile.py`` splits the compiled part by function; this shows what lies outside it.

    python scripts/profile_by_object.py yavalath 5 ppa --engine 2 --seconds 8

Needs Linux ``perf`` (``kernel.perf_event_paranoid`` <= 2 for one's own process).
"""
import argparse
import subprocess
import tempfile
from pathlib import Path

from jit_profile import record_searches  # this script's folder is on the path when it runs
from ppalib._rng import make_rng
from ppalib.agents import make_agent, search
from ppalib.games import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("game")
parser.add_argument("size", type=int)
parser.add_argument("kind", help="agent kind: uct, ppa, ppaf, mast...")
parser.add_argument("--engine", type=int, default=1, help="playout_engine of a learned-playout agent")
parser.add_argument("--iterations", type=int, default=3000, help="iterations of each search")
parser.add_argument("--seconds", type=float, default=8.0, help="how long to sample")
parser.add_argument("--top", type=int, default=6, help="shared objects listed")
args = parser.parse_args()

game = make_game(args.game, args.size)
agent = make_agent(args.kind, args.iterations, **({} if args.kind == "uct" else {"playout_engine": args.engine}))
root = game.initial_state()
search(game, root, agent, make_rng(1))  # compile, or load from the cache
with tempfile.TemporaryDirectory() as folder:
    data = Path(folder) / "perf.data"
    record_searches(game, root, agent, args.iterations, args.seconds, data)
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "dso"],
                            capture_output=True, text=True).stdout
lines = [line for line in report.splitlines() if line.strip() and not line.startswith("#")]
print("\n".join(lines[:args.top]))
