"""Microseconds per iteration of one agent's search from a game's start position, and digests of what it found.

Alternate two checkouts to A/B a kernel change (run from outside both; the numba cache keys each by content):

    PYTHONPATH=/path/to/before python scripts/search_time.py hex 11 ppa 2 2000 5
    PYTHONPATH=/path/to/after  python scripts/search_time.py hex 11 ppa 2 2000 5

Arguments: game, size, agent kind (or ``ludii_uct``, notebook 04's UCT), playout_engine (ignored for uct, rave,
grave and puct), iterations, searches (seeds 0..n-1; the median is printed); ``--policy HASH --folder DIR`` for
PUCT with a saved policy, ``--option name=value`` for game options.  ``digest`` hashes every search's root visits
and learned policy (bit for bit), ``visits`` the visits alone: an exact change keeps both, a change of summation
order only the second; ``plies/iter`` is the mean number of plies (descent and playout) an iteration.
"""
import argparse
import hashlib
import math
import time

import numpy as np

from ppalib import make_rng
from ppalib.agents import make_agent
from ppalib.agents.searcher import Searcher
from ppalib.games import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("game")
parser.add_argument("size", type=int)
parser.add_argument("kind")
parser.add_argument("engine", type=int)
parser.add_argument("iterations", type=int)
parser.add_argument("searches", type=int)
parser.add_argument("--policy", help="content hash of a PUCT agent's saved policy (kind puct)")
parser.add_argument("--folder", action="append", default=[], help="where --policy is saved")
parser.add_argument("--option", action="append", default=[], help="a game option, name=integer")
args = parser.parse_args()
game = make_game(args.game, args.size, **{name: int(value) for name, value in (o.split("=", 1) for o in args.option)})
if args.kind == "puct":
    from ppalib.features.artefact import load_policy
    if args.policy:
        load_policy(args.policy, args.folder or None)
    agent = make_agent("puct", args.iterations, policy=args.policy or "")
elif args.kind == "ludii_uct":  # notebook 04's UCT baseline: Ludii's UCB1, c = sqrt(2)
    agent = make_agent("uct", args.iterations, c=math.sqrt(2.0), ludii_selection=True)
else:
    agent = make_agent(args.kind, args.iterations, **({} if args.kind in ("uct", "rave", "grave")
                                                       else {"playout_engine": args.engine}))
Searcher(game, agent).search(game.initial_state(), make_rng(0))  # compile, or load from the cache
times, digest, visits_digest, plies = [], hashlib.sha256(), hashlib.sha256(), 0
for seed in range(args.searches):
    start = time.perf_counter()
    result = Searcher(game, agent).search(game.initial_state(), make_rng(seed))
    times.append((time.perf_counter() - start) / args.iterations * 1e6)
    plies += result.plies
    visits = np.asarray(result.visits).tobytes()
    visits_digest.update(visits)
    digest.update(visits)
    digest.update(result.policy.tobytes())
print(f"{args.game} {args.kind} e{args.engine} {np.median(times):.3f} us/iter digest {digest.hexdigest()[:12]} "
      f"visits {visits_digest.hexdigest()[:12]} plies/iter {plies / (args.searches * args.iterations):.2f}")
