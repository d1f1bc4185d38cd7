"""Command line: ``python -m ppalib {perft,match,games}``.  Bad input exits with status 2 and one message."""
from __future__ import annotations

import argparse
import sys
import time

from . import CODE_VERSION


def _options(items: list[str]) -> dict:
    """``-o key=value`` game options (integers)."""
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise ValueError(f"-o {item!r} must be key=value with an option name as key")
        try:
            options[key] = int(value)
        except ValueError:
            raise ValueError(f"game option {key}={value!r} is not an integer") from None
    return options


def _perft(args) -> None:
    from .games import board_text, check_game_name, default_size, make_game, perft_count
    size = default_size(check_game_name(args.game)) if args.size is None else args.size
    game = make_game(args.game, size, **_options(args.option))
    label = " ".join([board_text(game), *(f"{k}={v}" for k, v in game.options)])
    for depth in range(args.depth + 1) if args.all else [args.depth]:
        start = time.perf_counter()
        count = perft_count(game, depth)
        print(f"{args.game} {label} depth {depth}: {count}"
              + (f"  ({time.perf_counter() - start:.2f} s)" if args.timing else ""))


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
    from .bench import run_bench
    from .games import GAMES, check_game_name, make_game, size_for
    names = args.games or list(GAMES)
    for name in names:
        make_game(name, size_for(check_game_name(name), args.size))  # validate before measuring anything
    if args.playouts < 1 or args.repeats < 1:
        raise ValueError(f"playouts={args.playouts} and repeats={args.repeats} must both be >= 1")
    run_bench(names, args.size, args.playouts, args.repeats, not args.no_openspiel, args.compile, args.json,
              profile=args.profile)


def _games(args) -> None:
    from .games import GAMES, board_text, default_size, make_game
    for rule in GAMES.values():
        size = default_size(rule)
        sizes = f"size {rule.min_size}" if rule.min_size == rule.max_size else f"sizes {rule.min_size}..{rule.max_size}"
        board = board_text(make_game(rule.name, size))
        board = "no board" if board.startswith("size") else f"{board} at size {size}"
        print(f"{rule.name:24s} {sizes:12s} ({board})  options: {', '.join(rule.options) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ppalib", description=f"ppalib {CODE_VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="count positions exactly DEPTH plies from the start")
    p.add_argument("game")
    p.add_argument("--size", type=int, default=None,
                   help="default: 8, or the game's only size (python -m ppalib games)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. -o ply_cap=100 -o same_direction_rule=0 (python -m ppalib games)")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--all", action="store_true", help="print every depth from 0 to DEPTH")
    p.add_argument("--timing", action="store_true")
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
    b.add_argument("--games", nargs="+", default=None, help="default: every game")
    b.add_argument("--size", type=int, default=None,
                   help="board size (default 8); games with one board size (Teeko, Yavalath, Fanorona) play theirs")
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
