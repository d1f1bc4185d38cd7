"""Where a cold compile's time goes: every ppalib function numba compiles for one game's first search, from an empty
cache, with its own (exclusive) and inclusive seconds, and the functions compiled for more than one signature.

A function compiled twice usually received a literal argument at one call, or a counter numba first typed as a
literal (``ppalib/_noalloc.py``): the second compile is wasted time for every game.  Times are wall seconds of this
process, so run it on an idle core; ``bench --compile`` gives the total for several games.

    python scripts/compile_profile.py go 5
    python scripts/compile_profile.py fanorona 5 --top 40
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("size", type=int)
    parser.add_argument("--agent", default="uct", help="agent kind of the search (one kernel serves every kind)")
    parser.add_argument("--top", type=int, default=25, help="functions listed by exclusive time")
    args = parser.parse_args()
    os.environ["PPALIB_CACHE_DIR"] = tempfile.mkdtemp(prefix="ppalib-compile-profile-")  # before ppalib's import

    from numba.core import event
    inclusive, exclusive, signatures = defaultdict(float), defaultdict(float), defaultdict(list)
    open_compiles = []

    class Timer(event.Listener):
        def on_start(self, ev):
            function = ev.data["dispatcher"].py_func
            key = f"{function.__module__}.{function.__qualname__}"
            signatures[key].append(ev.data.get("args"))
            open_compiles.append((key, time.perf_counter()))

        def on_end(self, ev):
            key, started = open_compiles.pop()
            seconds = time.perf_counter() - started
            inclusive[key] += seconds
            exclusive[key] += seconds
            if open_compiles:  # a callee's compile is inside its caller's
                exclusive[open_compiles[-1][0]] -= seconds

    event.register("numba:compile", Timer())
    from ppalib._rng import make_rng
    from ppalib.agents import make_agent, search
    from ppalib.games import make_game
    game = make_game(args.game, args.size)
    started = time.perf_counter()
    search(game, game.initial_state(), make_agent(args.agent, 10), make_rng(0))
    print(f"{args.game} {args.size}: {time.perf_counter() - started:.1f} s, {len(signatures)} functions, "
          f"{sum(map(len, signatures.values()))} compiles")
    print(f"{'own s':>7} {'with callees':>12} {'compiles':>8}  function")
    for key in sorted(exclusive, key=exclusive.get, reverse=True)[:args.top]:
        print(f"{exclusive[key]:7.2f} {inclusive[key]:12.2f} {len(signatures[key]):8d}  {key}")
    print("\nppalib functions compiled for more than one signature (the arguments that differ):")
    for key, sigs in signatures.items():
        if len(sigs) > 1 and key.startswith("ppalib"):
            differing = [f"arg {i}: {' | '.join(map(str, column))}" for i, column in enumerate(zip(*sigs))
                         if len(set(map(str, column))) > 1]
            print(f"  {key} ({len(sigs)}, {inclusive[key]:.2f} s): {'; '.join(differing)}")


if __name__ == "__main__":
    main()
