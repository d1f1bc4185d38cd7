"""Command line: ``python -m ppalib {perft,match,games}``.  Bad input exits with status 2 and one message."""
from __future__ import annotations

import argparse
import sys
import time

from . import CODE_VERSION


def _perft(args) -> None:
    from .games import make_game, perft_count
    options = dict(_option(text) for text in args.option)
    game = make_game(args.game, args.size, **options)
    label = f"{args.size}x{args.size}"
    if hasattr(game.module, "board_label"):  # boards that are not size x size (Connect Four: rows x columns)
        label = game.module.board_label(game.spec)
    label += "".join(f" {key}={value}" for key, value in sorted(options.items()))
    for depth in range(args.depth + 1) if args.all else [args.depth]:
        start = time.perf_counter()
        count = perft_count(game, depth)
        print(f"{args.game} {label} depth {depth}: {count}"
              + (f"  ({time.perf_counter() - start:.2f} s)" if args.timing else ""))


def _option(text: str) -> tuple[str, int]:
    """A game option ``key=value`` with an integer value (e.g. ``swap=1``, ``ply_cap=100``)."""
    key, sep, value = text.partition("=")
    try:
        if not sep:
            raise ValueError
        return key, int(value)
    except ValueError:
        raise ValueError(f"game option {text!r} must be key=integer") from None


def _games(args) -> None:
    from .games import GAMES
    for rule in GAMES.values():
        options = f"  options: {', '.join(rule.options)}" if rule.options else ""
        note = getattr(rule.module, "SIZE_NOTE", "")
        print(f"{rule.name:22s} sizes {rule.min_size}..{rule.max_size}{note}{options}")


def _agent(text: str, playouts: int):
    """Parse ``kind`` or ``kind:key=value,key=value`` (e.g. ``ppa:alpha=0.32``)."""
    from .agents import make_agent
    kind, _, rest = text.partition(":")
    params = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"agent parameter {item!r} must be key=value")
        try:
            params[key] = float(value)
        except ValueError:
            raise ValueError(f"agent parameter {key}={value!r} is not a number") from None
    return make_agent(kind, playouts, **params)


def _match(args) -> None:
    from .experiments import Condition, Experiment, run
    condition = Condition(args.game, args.size, _agent(args.agent, args.playouts),
                          _agent(args.opponent, args.opponent_playouts or args.playouts))
    experiment = Experiment(args.name, (condition,), args.games, args.seed, args.results)
    executor = "serial" if args.workers == 1 else None
    if args.workers and args.workers > 1:
        from .experiments import LocalProcessExecutor
        executor = LocalProcessExecutor(args.workers)
    frame = run(experiment, executor, progress=not args.quiet)
    score = frame["agent_result"].mean()
    print(f"{condition.agent.label} vs {condition.opponent.label} at {args.game} {args.size}x{args.size}, "
          f"{args.playouts} playouts: {len(frame)} games, agent score {100 * score:.1f}%")


def _parameter(text: str) -> tuple[str, object]:
    """``key=value`` with value parsed as JSON when it is JSON (numbers, lists, null), else a string."""
    import json
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise ValueError(f"-p {text!r} must be key=value with a parameter name as key")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _reproduce(args) -> None:
    from .reproduce import reproduce
    reproduce(preset=args.preset, only=args.only, parameters=dict(_parameter(p) for p in args.parameter),
              output_dir=args.output)


def _bench(args) -> None:
    from .bench import bench_targets, run_bench
    from .games import GAMES, make_game
    names = args.games or list(GAMES)
    for name, size in bench_targets(names, args.size):
        make_game(name, size)  # validate before measuring anything
    if args.playouts < 1 or args.repeats < 1:
        raise ValueError(f"playouts={args.playouts} and repeats={args.repeats} must both be >= 1")
    run_bench(names, args.size, args.playouts, args.repeats, not args.no_openspiel, args.compile, args.json,
              profile=args.profile)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ppalib", description=f"ppalib {CODE_VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="count positions exactly DEPTH plies from the start")
    p.add_argument("game")
    p.add_argument("--size", type=int, default=8)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--all", action="store_true", help="print every depth from 0 to DEPTH")
    p.add_argument("--timing", action="store_true")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. -o swap=1 (hex), -o overline_wins=1 (gomoku), -o ply_cap=100")
    p.set_defaults(func=_perft)

    m = sub.add_parser("match", help="play AGENT against OPPONENT and store every game")
    m.add_argument("game")
    m.add_argument("--size", type=int, default=8)
    m.add_argument("--agent", default="ppa", help="kind[:key=value,...], e.g. ppa:alpha=0.32")
    m.add_argument("--opponent", default="uct")
    m.add_argument("--playouts", type=int, default=1000)
    m.add_argument("--opponent-playouts", type=int, default=None)
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--name", default="match")
    m.add_argument("--results", default="data/results/match")
    m.add_argument("--workers", type=int, default=None, help="local processes (default: all cores; 1: serial)")
    m.add_argument("--quiet", action="store_true")
    m.set_defaults(func=_match)

    r = sub.add_parser("reproduce", help="run every notebook headlessly with papermill")
    r.add_argument("--preset", default="quick", help="smoke, quick (default) or paper")
    r.add_argument("--only", action="append", default=None, metavar="NAME",
                   help="run only this notebook (name with or without .ipynb); repeatable")
    r.add_argument("-p", "--parameter", action="append", default=[], metavar="KEY=VALUE",
                   help="override a notebook parameter (JSON values: -p games='[\"go\"]' -p games_per_cell=50)")
    r.add_argument("--output", default=None, help="folder for the executed notebooks (default output/notebooks)")
    r.set_defaults(func=_reproduce)

    b = sub.add_parser("bench", help="measure playouts/s, iterations/s, compile time; compare with OpenSpiel")
    b.add_argument("--games", nargs="+", default=None,
                   help="default: every game; NAME:SIZE measures one game at its own size (e.g. hex:7)")
    b.add_argument("--size", type=int, default=None,
                   help="default: 8, or the paper's size (Hex 11, Connect Four 7 columns, Gomoku 15)")
    b.add_argument("--playouts", type=int, default=10000, help="iterations of each measured search")
    b.add_argument("--repeats", type=int, default=5, help="measurements per figure (the median is reported)")
    b.add_argument("--json", action="store_true", help="one JSON object per line")
    b.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel even when installed")
    b.add_argument("--compile", action="store_true", help="also time cold compilation and warm first moves")
    b.add_argument("--profile", action="store_true",
                   help="also split the cost of a playout move into draw, list, Gibbs draw and play (ns)")
    b.set_defaults(func=_bench)

    g = sub.add_parser("games", help="list the games, their board sizes and options")
    g.set_defaults(func=_games)

    args = parser.parse_args(argv)
    try:
        args.func(args)
    except (ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RuntimeError as error:  # a notebook failed: the message names it and the cell
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: finished games are stored; rerun the same command to complete the rest",
              file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
