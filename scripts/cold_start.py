"""What a search costs right after a pause: the fixed cost this shared host charges, on some hours, a call that has
not run for a while.

For each pause (a busy wait in Python, which touches little memory, or one OpenSpiel MCTSBot turn), the script
times one UCT search of ``--playouts`` iterations and one of a single iteration, each right after its own pause,
and the same searches run back to back (no pause).  The medians of ``--repeats`` go to a markdown table.  A
single-iteration search is almost only the Python front and the calls into compiled code: what it costs after a
pause, less what it costs back to back, is the part of the pause's price a search pays once whatever its size (a
long search pays more: more of its memory is cold too).
A second table times compiled code without the search, back to back and after a 1 s sleep: a random walk over
8 MB and a loop that touches no memory, to tell whether the price is in memory or in the processor.

Why it matters: ``bench``'s interleaved pairs against OpenSpiel put OpenSpiel's 0.5 s turn before each of our
searches and our 17 ms search before each of OpenSpiel's, so only our searches pay the price
(``ratio_uct_vs_openspiel_primed`` is the pairs with each search right after a one-iteration one of its engine,
which takes off the part paid once).

    python scripts/cold_start.py --game breakthrough --size 8
"""
from __future__ import annotations

import argparse
import statistics
import time


def _arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="breakthrough")
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--playouts", type=int, default=10000, help="iterations of the large search")
    parser.add_argument("--repeats", type=int, default=7, help="searches a cell (the median is kept)")
    parser.add_argument("--pauses", type=float, nargs="+", default=[0.01, 0.05, 0.2, 0.5, 1.0],
                        help="busy waits, in seconds")
    parser.add_argument("--no-openspiel", action="store_true", help="leave out the pause of an OpenSpiel turn")
    args = parser.parse_args(argv)
    if args.playouts < 2 or args.repeats < 1 or any(p <= 0 for p in args.pauses):
        parser.error(f"--playouts must be >= 2 (the large search; the small one has 1), --repeats >= 1 and every "
                     f"--pauses > 0, got {args.playouts}, {args.repeats} and {args.pauses}")
    return args


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def memory_probe(repeats: int) -> list[tuple[str, float, float]]:
    """Whether the price is in memory: (label, ms back to back, ms after a 1 s sleep) for a compiled random walk
    over an 8 MB array and a compiled loop that touches no memory, medians of ``repeats``."""
    import numpy as np
    from numba import njit

    @njit(cache=False)
    def walk(values, steps):
        i, total = 0, 0
        for _ in range(steps):
            i = (i * 1103515245 + 12345 + values[i]) & (values.size - 1)
            total += values[i]
        return total

    @njit(cache=False)
    def compute(steps):
        x = 1.0
        for _ in range(steps):
            x = x * 1.0000001 + 1e-9
        return x

    values = np.ones(1 << 20, dtype=np.int64)  # 8 MB
    walk(values, 10), compute(10)  # compiles
    rows = []
    for label, run in (("random walk over 8 MB (300,000 reads)", lambda: walk(values, 300000)),
                       ("loop touching no memory (5,000,000 steps)", lambda: compute(5000000))):
        times = {0.0: [], 1.0: []}
        for _ in range(repeats):
            for sleep in times:
                run()  # the run before: back to back for the first, then the sleep
                time.sleep(sleep)
                start = time.perf_counter()
                run()
                times[sleep].append((time.perf_counter() - start) * 1e3)
        rows.append((label, statistics.median(times[0.0]), statistics.median(times[1.0])))
    return rows


def main(argv=None) -> None:
    args = _arguments(argv)
    from ppalib._rng import make_rng
    from ppalib.agents import make_agent, search
    from ppalib.bench import openspiel_turn
    from ppalib.games import make_game
    game = make_game(args.game, args.size)
    root, rng = game.initial_state(), make_rng(1)
    agents = {"1": make_agent("uct", 1), str(args.playouts): make_agent("uct", args.playouts)}
    for agent in agents.values():
        search(game, root, agent, rng)  # compiles

    def timed_ms(agent, pause) -> float:
        samples = []
        for _ in range(args.repeats):
            pause()
            start = time.perf_counter()
            search(game, root, agent, rng)
            samples.append((time.perf_counter() - start) * 1e3)
        return statistics.median(samples)

    pauses = [("none (back to back)", lambda: None)]
    pauses += [(f"busy wait {p:g} s", lambda p=p: _busy(p)) for p in args.pauses]
    turn = None if args.no_openspiel else openspiel_turn(args.game, args.size, args.playouts)
    if turn is not None:
        pauses.append((f"one OpenSpiel MCTSBot turn ({args.playouts} simulations)", turn))
    print(f"{args.game} {args.size}x{args.size}, UCT from the start, median of {args.repeats} searches a cell "
          f"(ms), each right after its pause\n")
    print(f"| pause | 1 iteration | {args.playouts} iterations |\n|---|---|---|")
    for label, pause in pauses:
        cells = " | ".join(f"{timed_ms(agent, pause):.2f}" for agent in agents.values())
        print(f"| {label} | {cells} |", flush=True)
    print(f"\nThe same price without the search (median of {args.repeats}, ms):\n\n"
          f"| compiled code | back to back | after a 1 s sleep |\n|---|---|---|")
    for label, back_to_back, after_sleep in memory_probe(args.repeats):
        print(f"| {label} | {back_to_back:.2f} | {after_sleep:.2f} |", flush=True)


if __name__ == "__main__":
    main()
