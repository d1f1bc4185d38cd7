"""Where a search's time goes, per compiled function and per machine instruction: ``perf`` samples mapped onto
numba's code.

``perf`` alone names numba's code ``[JIT]`` and an address.  This script compiles every kernel afresh (a new
``PPALIB_CACHE_DIR``, so each numba library keeps its object code), asks each library where its functions were
loaded, samples one agent's searches from the start position with ``perf record -p``, and attributes every sample
to the function it fell in.  With ``--disassemble NAME`` it prints that function's instructions with their sample
counts.  A function that shows up on its own was called, not inlined: a call passes each array argument as seven
scalars, which in a small function run every ply costs more than its work (``ppalib/_noalloc.py``, ``inline_jit``).

Needs Linux ``perf`` (``kernel.perf_event_paranoid`` <= 2 for one's own process), ``nm`` and ``objdump``.

    python scripts/jit_profile.py --game go --size 8 --agent uct
    python scripts/jit_profile.py --game domineering --size 8 --agent ppa --engine 2 --disassemble gibbs_playout
    python scripts/jit_profile.py --game breakthrough --size 8 --agent puct --policy 01b579b73bc95c9f \\
        --option ply_cap=100 --folder data/results/soemers2019_budget/policies
"""
from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--agent", default="uct", choices=("uct", "ludii_uct", "ppa", "ppaf", "mast", "puct"),
                        help="ludii_uct: UCT with Ludii's selection, c = sqrt(2) (notebook 04's benchmark)")
    parser.add_argument("--engine", type=int, default=1, help="playout_engine of a learned-playout agent")
    parser.add_argument("--policy", help="content hash of the PUCT agent's policy (--agent puct)")
    parser.add_argument("--folder", action="append", default=[], help="where --policy is saved")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=integer")
    parser.add_argument("--playouts", type=int, default=3000, help="iterations of each search")
    parser.add_argument("--seconds", type=float, default=12.0,
                        help="how long to sample: seconds of searching (with --gap the run lasts longer by the "
                             "sleeps)")
    parser.add_argument("--gap", type=float, default=0.0,
                        help="seconds of sleep before each search (not sampled): on a shared host, the search's "
                             "memory leaves the caches meanwhile, as during the other engine's turn in an "
                             "interleaved pair")
    parser.add_argument("--top", type=int, default=15, help="functions listed")
    parser.add_argument("--disassemble", metavar="NAME", help="print the sampled instructions of the function "
                                                              "whose symbol contains NAME")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.playouts < 1 or args.gap < 0:
        parser.error(f"--seconds must be > 0, --playouts >= 1 and --gap >= 0, got {args.seconds}, "
                     f"{args.playouts} and {args.gap}")
    if args.agent == "puct" and not args.policy:
        parser.error("--agent puct needs --policy")
    try:
        args.options = {name: int(value) for name, value in (o.split("=", 1) for o in args.option)}
    except ValueError:
        parser.error(f"--option takes name=integer, got {args.option!r}")
    return args


def _agent(args):
    from ppalib.agents import make_agent
    if args.agent == "puct":
        from ppalib.features.artefact import load_policy
        load_policy(args.policy, args.folder or None)
        return make_agent("puct", args.playouts, policy=args.policy)
    if args.agent == "uct":
        return make_agent("uct", args.playouts)
    if args.agent == "ludii_uct":
        import math
        return make_agent("uct", args.playouts, c=math.sqrt(2.0), ludii_selection=True)
    return make_agent(args.agent, args.playouts, playout_engine=args.engine)


def _functions(outdir: Path):
    """(start, end, object file, symbol, offset in the object) of every function of every compiled library."""
    from numba.core.registry import CPUDispatcher
    libraries = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("ppalib"):
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher):
                    for result in value.overloads.values():
                        libraries[id(result.library)] = result.library
    functions = []
    for k, library in enumerate(libraries.values()):
        try:
            code = library._get_compiled_object()  # numba's object code (kept for its cache)
        except (ValueError, RuntimeError):
            continue
        path = outdir / f"library{k}.o"
        path.write_bytes(code)
        for line in subprocess.run(["nm", "-S", str(path)], capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[2] in "tT":
                try:
                    start = library.get_pointer_to_function(parts[3])
                except Exception:  # a symbol the library does not export
                    continue
                if start:
                    functions.append((start, start + int(parts[1], 16), str(path), parts[3], int(parts[0], 16)))
    return sorted(functions)


def record_searches(game, root, agent, iterations: int, seconds: float, data: Path, gap: float = 0.0) -> None:
    """``perf record`` attached to this process (samples in ``data``) while ``agent`` searches from ``root`` again
    and again for ``seconds`` of searching (seeds 100, 101...), sleeping ``gap`` seconds before each; prints the
    time an iteration.  The searches are compiled before
    (the compile would be sampled otherwise).  Also used by ``scripts/profile_by_object.py``."""
    from ppalib._rng import make_rng
    from ppalib.agents import search
    perf = subprocess.Popen(["perf", "record", "-q", "-F", "4000", "-o", str(data), "-p", str(os.getpid())])
    time.sleep(1.0)  # perf attaches
    elapsed, searches = 0.0, 0
    while elapsed < seconds:
        if gap:
            time.sleep(gap)
        start = time.perf_counter()
        search(game, root, agent, make_rng(100 + searches))
        elapsed += time.perf_counter() - start
        searches += 1
    perf.send_signal(signal.SIGINT)
    if perf.wait() not in (0, -signal.SIGINT, 130) or not data.exists():
        raise SystemExit(f"perf record failed (exit {perf.returncode}); is kernel.perf_event_paranoid <= 2?")
    print(f"{searches} searches of {iterations} iterations: {elapsed / searches / iterations * 1e6:.3f} us an "
          f"iteration (perf attached)")


def _profile(args, outdir: Path):
    from ppalib._rng import make_rng
    from ppalib.agents import search
    from ppalib.games import make_game
    game = make_game(args.game, args.size, **args.options)
    root = game.initial_state()
    agent = _agent(args)
    search(game, root, agent, make_rng(1))  # compiles
    functions = _functions(outdir)
    data = outdir / "perf.data"
    record_searches(game, root, agent, args.playouts, args.seconds, data, args.gap)
    return functions, data


def _report(args, functions, data: Path) -> None:
    result = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"perf script failed: {result.stderr.strip()}")
    out = result.stdout
    samples = [int(ip, 16) for ip in out.split()]
    starts = [f[0] for f in functions]
    per_function, per_instruction = collections.Counter(), collections.Counter()
    for ip in samples:
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip < functions[i][1]:
            _, _, path, symbol, offset = functions[i]
            per_function[symbol] += 1
            per_instruction[(path, symbol, ip - functions[i][0] + offset)] += 1
    total = max(len(samples), 1)
    print(f"{len(samples)} samples, {sum(per_function.values())} in compiled functions")
    for symbol, count in per_function.most_common(args.top):
        print(f"{100 * count / total:6.2f}%  {symbol[:150]}")
    if args.disassemble:
        for path, symbol in sorted({(p, s) for p, s, _ in per_instruction if args.disassemble in s}):
            print(f"\n{symbol}")
            listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--disassemble={symbol}", path],
                                     capture_output=True, text=True).stdout
            for line in listing.splitlines():
                match = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
                if match:
                    print(f"{per_instruction.get((path, symbol, int(match.group(1), 16)), 0):6d} {line}")


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _arguments(argv)  # errors before any compiling
    if not os.environ.get("JIT_PROFILE_CHILD"):  # a fresh cache: every library compiles here and keeps its object
        with tempfile.TemporaryDirectory(prefix="jit_profile_") as cache:
            env = dict(os.environ, PPALIB_CACHE_DIR=cache, JIT_PROFILE_CHILD=cache)
            raise SystemExit(subprocess.run([sys.executable, __file__, *argv], env=env).returncode)
    outdir = Path(os.environ["JIT_PROFILE_CHILD"])
    functions, data = _profile(args, outdir)
    _report(args, functions, data)


if __name__ == "__main__":
    main()
