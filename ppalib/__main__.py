"""Command line: ``python -m ppalib {perft,match,reproduce,bench,site,games}``.  Bad input exits with status 2 and
one message."""
from __future__ import annotations

import argparse
import sys
import time

from . import CODE_VERSION


def _perft(args) -> None:
    from .agents import perft_count
    from .cli_values import parse_game_options
    from .games import board_text, check_game_name, default_size, make_game
    size = default_size(check_game_name(args.game)) if args.size is None else args.size
    game = make_game(args.game, size, **parse_game_options(args.game_option))
    label = " ".join([board_text(game), *(f"{k}={v}" for k, v in game.options)])
    for depth in range(args.depth + 1) if args.all else [args.depth]:
        start = time.perf_counter()
        count = perft_count(game, depth)
        print(f"{args.game} {label} depth {depth}: {count}"
              + (f"  ({time.perf_counter() - start:.2f} s)" if args.timing else ""))


def _match(args) -> None:
    from .cli_values import parse_agent, parse_game_options
    from .experiments import Condition, Experiment, LocalProcessExecutor, check_folder, check_int, run
    if args.workers is not None:
        check_int("--workers", args.workers, 1, 4096)
    check_int("--playouts", args.playouts, 1)
    opponent_playouts = args.playouts if args.opponent_playouts is None else args.opponent_playouts
    if args.opponent_playouts is not None and args.opponent_playouts < 1:
        raise ValueError(f"--opponent-playouts={args.opponent_playouts} is out of range: allowed >= 1 "
                         f"(leave it out to use --playouts)")
    results = check_folder("--results", args.results)
    condition = Condition(args.game, args.size, parse_agent(args.agent, args.playouts, "--agent"),
                          parse_agent(args.opponent, opponent_playouts, "--opponent"),
                          game_options=tuple(parse_game_options(args.game_option).items()))
    for config in (condition.agent, condition.opponent):
        if getattr(config, "policy", ""):  # a damaged or missing policy file: refused before the results folder
            from .features.artefact import load_policy
            load_policy(config.policy)
    experiment = Experiment(args.name, (condition,), args.games, args.seed, results)
    executor = "serial" if args.workers == 1 else LocalProcessExecutor(args.workers)
    frame = run(experiment, executor, progress=not args.quiet)
    score = frame["agent_result"].mean()
    playouts = (f"{args.playouts} playouts" if opponent_playouts == args.playouts
                else f"{args.playouts} vs {opponent_playouts} playouts")
    print(f"{condition.agent.label} vs {condition.opponent.label} at {args.game} {args.size}x{args.size}, "
          f"{playouts}: {len(frame)} games, agent score {100 * score:.1f}%")


def _reproduce(args) -> None:
    from .papers import key_value
    from .reproduce import reproduce
    parameters: dict[str, object] = {}
    for text in args.parameter:
        key, value = key_value(text)
        if key in parameters:
            raise ValueError(f"-p {key} is given twice ({parameters[key]!r} and {value!r})")
        parameters[key] = value
    if args.output is not None:
        from .experiments import check_folder
        check_folder("--output", args.output)
    reproduce(preset=args.preset, only=args.only, parameters=parameters, output_dir=args.output)


def _bench(args) -> None:
    if args.presets:
        from .preset_costs import NOTEBOOK_ORDER, run_presets
        run_presets(args.notebooks or NOTEBOOK_ORDER, as_json=args.json, markdown=args.markdown, detail=args.detail)
        return
    from .bench import bench_targets, run_bench
    from .games import GAMES, make_game
    names = args.games or list(GAMES)
    for name, size in bench_targets(names, args.size):
        make_game(name, size)  # validate before measuring anything
    if args.playouts < 1 or args.repeats < 1:
        raise ValueError(f"playouts={args.playouts} and repeats={args.repeats} must both be >= 1")
    run_bench(names, args.size, args.playouts, args.repeats, not args.no_openspiel, args.compile, args.json,
              profile=args.profile, engines=args.engines, markdown=args.markdown, primed=not args.no_prime)


def _site(args) -> None:
    from .site import build
    build(rerun=args.rerun)


def _games(args) -> None:
    from .games import GAMES, board_text, default_size, make_game
    for rule in GAMES.values():
        size = default_size(rule)
        sizes = f"size {rule.min_size}" if rule.min_size == rule.max_size else f"sizes {rule.min_size}..{rule.max_size}"
        sizes += getattr(rule.module, "SIZE_NOTE", "")  # e.g. Connect Four: columns; Othello: even
        board = board_text(make_game(rule.name, size))
        board = "no board" if board.startswith("size") else f"{board} at size {size}"
        print(f"{rule.name:24s} {sizes:14s} ({board})  options: {', '.join(rule.options) or 'none'}")


def _until_decided(args) -> None:
    import time

    import pandas as pd

    from . import papers
    from .until_decided import StoppingRule, check_stop_after
    rule = StoppingRule(args.batch, args.cap, args.cpu_seconds)  # checks each, naming it
    if args.max_hours_to_decide is not None:
        papers.check_max_hours_to_decide(args.max_hours_to_decide)  # before any work, naming it
    stop_after = check_stop_after(args.stop_after)
    deadline = None if stop_after is None else time.monotonic() + stop_after  # one deadline for every paper named
    for name in args.papers:
        paper = papers.paper_module(next(stem for stem, module in papers.NOTEBOOKS.items() if module == name))
        setup = papers.prepare(paper, args.preset, executor=args.executor, workers=args.workers)
        before = papers.decision_table(paper, setup)
        print(f"{name}: {len(before)} cells to decide; before: {before['verdict'].value_counts().to_dict()}")
        if args.dry_run:
            print(f"  growth so far: {before.attrs['growth_seconds']:,.0f} CPU seconds (what --cpu-seconds "
                  f"counts as spent)")
            wanted = before.loc[before["verdict"] == "undecided", "games_to_decide_anytime"]
            print(f"  undecided: {len(wanted)}; games that would decide them at their observed rates under the "
                  f"anytime-valid interval: {wanted.dropna().astype(int).tolist()} "
                  f"({int(wanted.isna().sum())} not decidable below a million)")
            if args.max_hours_to_decide is not None:
                odds = papers.decision_odds(before, rule)
                chosen = papers.cheapest_to_decide(before, args.max_hours_to_decide, odds)
                rows = before.merge(odds, on="condition_id").set_index("condition_id").loc[chosen]
                print(f"  {len(chosen)} would be grown (at most {args.max_hours_to_decide:g} CPU-hours a decision "
                      f"each, simulated from each cell's posterior with batch {rule.batch} and cap {rule.cap}; "
                      f"{float(rows['expected_hours'].sum()):.2f} CPU-hours expected in all):")
                for cid, row in rows.iterrows():
                    at_rate = row["games_to_decide_anytime"]
                    print(f"    {cid}: {int(row['games'])} games ({'no count' if at_rate is pd.NA else int(at_rate)} "
                          f"would decide it at its observed rate), decided by the cap in "
                          f"{row['chance_decided']:.0%} of simulated growths, {row['expected_games_added']:.0f} "
                          f"games added expected, {row['seconds_per_game']:.2f} s a game, "
                          f"{row['hours_per_decision']:.2f} CPU-hours a decision")
            continue
        papers.run_until_decided(paper, setup, args.executor, workers=args.workers, rule=rule,
                                 progress=not args.quiet, max_hours_to_decide=args.max_hours_to_decide,
                                 deadline=deadline)
        after = papers.decision_table(paper, setup)
        print(f"{name}: after: {after['verdict'].value_counts().to_dict()}; games {int(before['games'].sum())} -> "
              f"{int(after['games'].sum())}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ppalib", description=f"ppalib {CODE_VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="count positions exactly DEPTH plies from the start")
    p.add_argument("game")
    p.add_argument("--size", type=int, default=None,
                   help="default: 8, or the game's only size (python -m ppalib games)")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--all", action="store_true", help="print every depth from 0 to DEPTH")
    p.add_argument("--timing", action="store_true")
    p.add_argument("-o", "--game-option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. -o swap=1 (hex), -o overline_wins=1 (gomoku), -o ply_cap=100, "
                        "-o turns=10 (Cashing Checks); repeatable")
    p.set_defaults(func=_perft)

    m = sub.add_parser("match", help="play AGENT against OPPONENT and store every game")
    m.add_argument("game")
    m.add_argument("--size", type=int, default=8)
    m.add_argument("--agent", default="ppa",
                   help="kind[:key=value,...], e.g. ppa:alpha=0.32 or rave:adaptive=true,margin=0.1 (every field of "
                        "the kind's configuration; booleans: true/false/1/0/yes/no)")
    m.add_argument("--opponent", default="uct", help="as --agent")
    m.add_argument("--playouts", type=int, default=1000)
    m.add_argument("--opponent-playouts", type=int, default=None, help="default: --playouts")
    m.add_argument("--game-option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. --game-option turns=10 --game-option komi=5 for Cashing Checks")
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--name", default="match")
    m.add_argument("--results", default="output/match", help="results folder (default: output/match)")
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
                   help="default: 8, or the paper's size (Hex 11, Connect Four 7 columns, Gomoku 15); games with "
                        "one board (Teeko, Yavalath, Fanorona) play theirs")
    b.add_argument("--playouts", type=int, default=10000, help="iterations of each measured search")
    b.add_argument("--repeats", type=int, default=5, help="measurements per figure (the median is reported)")
    b.add_argument("--json", action="store_true", help="one JSON object per line")
    b.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel even when installed")
    b.add_argument("--compile", action="store_true", help="also time cold compilation and warm first moves")
    b.add_argument("--profile", action="store_true",
                   help="also split the cost of a playout move into draw, list, Gibbs draw and play (ns)")
    b.add_argument("--presets", action="store_true",
                   help="instead: predict each notebook's quick and paper preset CPU-hours from the stored games' "
                        "timings (short measured searches where a budget has none); see ppalib/preset_costs.py")
    b.add_argument("--notebooks", nargs="+", default=None, metavar="NOTEBOOK",
                   help="with --presets: only these notebooks (e.g. 01_ppa_2015)")
    b.add_argument("--markdown", action="store_true",
                   help="with --presets: the table in markdown (the README's); with --engines: also the tables of "
                        "PPA's and PPAF's cost against UCT per game and engine, and per ply played")
    b.add_argument("--detail", action="store_true", help="with --presets: every cell, its cost and its source")
    b.add_argument("--engines", action="store_true",
                   help="also PPA and PPAF with each playout_engine (1: lists, 2: incremental), interleaved with UCT")
    b.add_argument("--no-prime", action="store_true",
                   help="with --engines: time each search without first running a one-iteration search of the same "
                        "agent (the rounds before 2026-11-29; see scripts/cold_start.py)")
    b.set_defaults(func=_bench)

    w = sub.add_parser("site", help="build the static HTML site from the executed notebooks into output/site/ "
                                    "(needs the [site] extra)")
    w.add_argument("--rerun", action="store_true",
                   help="execute the notebooks again even when the executed copies are newer than their inputs")
    w.set_defaults(func=_site)

    u = sub.add_parser("until-decided", help="add games to the undecided cells of the papers' committed results "
                                             "(games until decided, anytime-valid verdicts)")
    u.add_argument("papers", nargs="+", choices=["ppa2015", "ppaf2016", "future_work"],
                   help="ppa2015: Table 1; ppaf2016: the claims' cells at 10,000 playouts; future_work: the "
                        "10,000-playout cells")
    u.add_argument("--preset", default="quick", help="whose results (default quick: the committed ones)")
    u.add_argument("--batch", type=int, default=16, help="games added to an undecided cell per round (default 16)")
    u.add_argument("--cap", type=int, default=160, help="most games a cell gets (default 160)")
    u.add_argument("--cpu-seconds", type=float, default=None,
                   help="CPU budget of the added games, per paper, by their own timings, counting every game a growth "
                        "has stored beyond the planned ones in any of the paper's cells (earlier runs' too, so a "
                        "resumed run keeps its budget; default: none)")
    u.add_argument("--executor", default="process", choices=["process", "serial", "dask"])
    u.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    u.add_argument("--max-hours-to-decide", type=float, default=None, metavar="HOURS",
                   help="grow only the undecided cells whose growth, simulated from each cell's posterior with "
                        "this batch and cap, costs at most HOURS CPU-hours a decision (expected hours over the chance "
                        "of deciding by the cap; chosen once, before the first game; default: every undecided cell)")
    u.add_argument("--stop-after", type=float, default=None, metavar="SECONDS",
                   help="wall seconds from the start after which no new round of games starts, for every paper "
                        "named (a round started is played whole, so the stores can be committed when the command "
                        "returns; default: none)")
    u.add_argument("--dry-run", action="store_true", help="print the cells' verdicts and what would decide them")
    u.add_argument("--quiet", action="store_true")
    u.set_defaults(func=_until_decided)

    g = sub.add_parser("games", help="list the games, their board sizes and options")
    g.set_defaults(func=_games)

    args = parser.parse_args(argv)
    try:
        args.func(args)
    except (ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (RuntimeError, OSError) as error:  # a notebook failed (the message names it and the cell), a full disk
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: finished games are stored; rerun the same command to complete the rest",
              file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
