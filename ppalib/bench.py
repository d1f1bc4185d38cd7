"""``python -m ppalib bench``: how fast the engine is, and how it compares with OpenSpiel's C++ MCTS.

Measured per game at one board size (games with a single board, such as Teeko, Yavalath and Fanorona, at theirs),
single process, from the start position:

* ``random_playouts_per_s``: uniform random playouts to the end of the game.
* ``uct_iterations_per_s``, ``ppa_iterations_per_s``: one search of ``playouts`` iterations (descent, one new
  entry, one playout, and for PPA the adapt step), iterations divided by wall time.
* ``openspiel_iterations_per_s`` (when OpenSpiel is installed and has the game): ``pyspiel.MCTSBot`` with a
  ``RandomRolloutEvaluator`` (one rollout), same c and simulations, and ``ratio_uct_vs_openspiel``: the median
  over ``repeats`` interleaved pairs (one UCT search, one OpenSpiel search) of the pair's time ratio, so that
  the load of a shared machine, which drifts, does not fall on one engine only; and
  ``ratio_uct_vs_openspiel_primed``: the same, each timed search right after an untimed one-iteration search of
  its own engine (for OpenSpiel a two-simulation MCTSBot: with one, its step samples from the prior and
  selects nothing).  On this shared host a call after a pause pays a cost that grows with the pause, on some
  hours and not others (a one-iteration UCT search at Breakthrough 8x8: 0.11-0.13 ms back to back, 8.9-11.5 ms
  after OpenSpiel's 0.5 s turn, 14-28 ms after a 1 s wait, two runs; ``scripts/cold_start.py``); in plain pairs
  only the faster engine pays it, since only its pause is long.  A primer takes off the part a search pays
  once, not all of it (a long search also finds more of its memory cold).
* With ``--engines``, PPA's and PPAF's ``cost_vs_uct`` with each playout engine (``measure_engines``; rounds primed
  as above since 2026-11-29, ``--no-prime`` for the rounds before), and the plies
  an iteration plays under each agent with engine 2's ``cost_per_ply_vs_uct``: a learned policy makes playouts longer
  or shorter (three times as long at Fanorona, half as long at Gomoku), which a per-iteration ratio mixes with the
  engine's speed; ``--markdown`` prints both as tables (``engines_table``, ``engines_ply_table``).
* ``compile_cold_s`` / ``first_move_warm_s``: a fresh interpreter importing ppalib and playing one move of each
  agent kind, with an empty numba cache / with the cache filled (only with ``--compile``); the cold row lists the
  ppalib functions compiled for more than one signature (``recompiled``).
* With ``--profile``, the cost of one playout move split into its parts, in ns: recorded random playouts from
  the start are replayed, alone (``ns_play``) and with one more part done before each move (``kernels/playout.py``,
  ``replay_with``): ``ns_uniform_draw`` (``random_move``, UCT's draw), ``ns_list_moves`` (the full legal-move
  list), ``ns_gibbs_draw`` (list, codes, weights and a weighted draw: PPA's step), plus
  ``plies_per_random_playout``; ``gibbs_vs_uniform_step`` = (gibbs + play) / (uniform + play) is what a Gibbs
  playout move costs against a uniform one, before PPA's adapt and any change in playout length.

Every figure is the median of ``repeats`` measurements after one warm-up.  The rules differ where the games
differ: OpenSpiel's Go allows a pass at every move and filling one's own eyes, and plays random rollouts to its
maximum game length, which makes its playouts longer than ours; its Breakthrough at 8x8 has our rules exactly.
"""
from __future__ import annotations

import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from ._rng import make_rng
from .agents import kernels_for, make_agent, search
from .games import board_text, check_game_name, make_game, size_for

OPENSPIEL_NAMES = {"breakthrough": ("breakthrough", lambda n: {"rows": n, "columns": n}),
                   "go": ("go", lambda n: {"board_size": n, "komi": 7.5}),
                   # parameters None: OpenSpiel has no such size (its Othello is 8x8 only)
                   "hex": ("hex", lambda n: {"board_size": n}),
                   "connect_four": ("connect_four", lambda n: {"columns": n, "rows": 6}),
                   "othello": ("othello", lambda n: {} if n == 8 else None)}

#: The size each game is measured at when none is given: the paper's (Soemers et al. 2019: Hex 11x11, Connect Four 6x7,
#: Gomoku 15x15), else 8x8.  ``--games hex:7`` measures one game at another size.
BENCH_SIZES = {"hex": 11, "connect_four": 7, "gomoku": 15}


def bench_targets(names: list[str], size: int | None) -> list[tuple[str, int]]:
    """(game, size) for each entry ``name`` or ``name:size``; ``size`` (if given) overrides the default size."""
    targets = []
    for entry in names:
        name, sep, own = entry.partition(":")
        if sep and not own.isdigit():
            raise ValueError(f"{entry!r} must be a game name or name:size")
        rule = check_game_name(name)
        if sep and rule.min_size == rule.max_size and int(own) != rule.min_size:
            # --size may name a size that fixed-board games ignore; a size given to the game itself is a mistake
            raise ValueError(f"{entry!r}: size={int(own)} is out of range for {name}: allowed {rule.min_size} "
                             f"(its only board)")
        wanted = int(own) if sep else size if size is not None else BENCH_SIZES.get(name, None)
        targets.append((name, size_for(rule, wanted)))
    return targets


def median_time(fn, repeats: int) -> float:
    """Median seconds of ``repeats`` calls of ``fn``, after one call to warm up (compilation, caches)."""
    fn()  # warm-up (compilation, caches)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def measure_profile(name: str, size: int, repeats: int, playouts: int = 300) -> list[dict]:
    """Per playout move, the cost of each part (ns), in the positions of ``playouts`` random playouts."""
    import numpy as np
    game = make_game(name, size)
    kernel = kernels_for(game).playout
    rng = make_rng(2)
    root = game.initial_state()
    played, lengths = kernel.sample_playouts(game.spec, root, rng, playouts)
    weight = np.ones(game.num_codes(), dtype=np.float64)
    plies = int(lengths.sum())
    seconds = {part: median_time(lambda: kernel.replay_with(game.spec, root, played, lengths, part, rng, weight),
                                  repeats) / plies * 1e9
               for part in (kernel.PROFILE_PLAY_ONLY, kernel.PROFILE_UNIFORM_DRAW, kernel.PROFILE_LIST_MOVES,
                            kernel.PROFILE_GIBBS_DRAW)}
    play = seconds[kernel.PROFILE_PLAY_ONLY]
    cost = {"plies_per_random_playout": plies / playouts, "ns_play": play,
            "ns_uniform_draw": seconds[kernel.PROFILE_UNIFORM_DRAW] - play,
            "ns_list_moves": seconds[kernel.PROFILE_LIST_MOVES] - play,
            "ns_gibbs_draw": seconds[kernel.PROFILE_GIBBS_DRAW] - play}
    cost["gibbs_vs_uniform_step"] = seconds[kernel.PROFILE_GIBBS_DRAW] / seconds[kernel.PROFILE_UNIFORM_DRAW]
    return [{"game": name, "size": size, "agent": "profile", "metric": metric, "value": round(value, 3)}
            for metric, value in cost.items()]


def openspiel_turn(name: str, size: int, simulations: int):
    """One turn of OpenSpiel's ``MCTSBot`` from ``name``'s start position at ``size`` as the benchmark plays it (a
    ``RandomRolloutEvaluator`` of one rollout, c = 0.4, seeds 42), as a function of no argument, after one warm-up
    turn; None without OpenSpiel or when it lacks the game at that size."""
    if name not in OPENSPIEL_NAMES:
        return None
    try:
        import pyspiel
    except ImportError:
        return None
    os_name, params = OPENSPIEL_NAMES[name]
    if params(size) is None:
        return None
    os_game = pyspiel.load_game(os_name, params(size))
    bot = pyspiel.MCTSBot(os_game, pyspiel.RandomRolloutEvaluator(1, 42), 0.4, simulations, 4000, False, 42, False)
    state = os_game.new_initial_state()
    bot.step(state)  # warm-up
    return lambda: bot.step(state)


def measure_game(name: str, size: int, playouts: int, repeats: int, openspiel: bool = True) -> list[dict]:
    game = make_game(name, size)
    root = game.initial_state()
    kernel = kernels_for(game).playout
    rows = []

    def row(agent, metric, value):
        rows.append({"game": name, "size": size, "agent": agent, "metric": metric, "value": round(value, 3)})

    count = max(10, playouts // 10)
    rng = make_rng(1)
    seconds = median_time(lambda: kernel.random_playouts(game.spec, root, rng, count), repeats)
    row("random", "random_playouts_per_s", count / seconds)
    for kind in ("uct", "ppa"):
        agent = make_agent(kind, playouts)
        seconds = median_time(lambda: search(game, root, agent, rng), repeats)
        row(kind, f"{kind}_iterations_per_s", playouts / seconds)
    uct = next(r["value"] for r in rows if r["metric"] == "uct_iterations_per_s")
    ppa = next(r["value"] for r in rows if r["metric"] == "ppa_iterations_per_s")
    row("ppa", "ppa_cost_vs_uct", uct / ppa)
    turn = openspiel_turn(name, size, playouts) if openspiel else None
    if turn is not None:
        uct_agent = make_agent("uct", playouts)
        # Primers: on this shared host the first call after a pause may pay a fixed cost that grows with the pause
        # (scripts/cold_start.py), and plain pairs charge it to the faster engine only, whose pause is the other's
        # long turn.  OpenSpiel's has two simulations: with one, MCTSBot's step samples from the prior instead of
        # selecting a child.
        primer_agent = make_agent("uct", 1)
        primer_turn = openspiel_turn(name, size, 2)

        def pairs(primed: bool) -> tuple[list[float], list[float]]:
            """``repeats`` interleaved pairs, so a slow phase of a shared machine hits both engines alike: the
            seconds of our searches and of OpenSpiel's, each after an untimed primer of its engine if ``primed``."""
            ours, theirs = [], []
            for _ in range(repeats):
                if primed:
                    search(game, root, primer_agent, rng)
                start = time.perf_counter()
                search(game, root, uct_agent, rng)
                ours.append(time.perf_counter() - start)
                if primed:
                    primer_turn()
                start = time.perf_counter()
                turn()
                theirs.append(time.perf_counter() - start)
            return ours, theirs

        ours, theirs = pairs(primed=False)
        row("openspiel", "openspiel_iterations_per_s", playouts / statistics.median(theirs))
        row("uct", "ratio_uct_vs_openspiel", statistics.median(t / o for o, t in zip(ours, theirs)))
        ours, theirs = pairs(primed=True)
        row("uct", "ratio_uct_vs_openspiel_primed", statistics.median(t / o for o, t in zip(ours, theirs)))
    return rows


ENGINE_AGENTS = (("ppa", 1), ("ppa", 2), ("ppaf", 1), ("ppaf", 2))


def interleaved_searches(game, root, agents, repeats: int, rng,
                         primed: bool = True) -> tuple[list[list[float]], list[list[int]]]:
    """Each of ``agents`` searches ``root`` once to warm up, then ``repeats`` times, one search of each in turn, so
    that the drifting load of a shared machine falls on all alike: per agent, the seconds and the plies
    (``SearchResult.plies``) of each timed search.  The searches, primers included, draw from ``rng`` in that
    order.  With ``primed``, each timed search comes right after an untimed one-iteration search of the same agent:
    on this shared host a call after a pause may pay a fixed cost growing with the pause (``scripts/cold_start.py``),
    which would fall on each agent according to the others' search times, not its own."""
    for agent in agents:
        search(game, root, agent, rng)
    primers = [dataclasses.replace(agent, playouts=1) for agent in agents]
    seconds = [[] for _ in agents]
    plies = [[] for _ in agents]
    for _ in range(repeats):
        for i, agent in enumerate(agents):
            if primed:
                search(game, root, primers[i], rng)
            start = time.perf_counter()
            result = search(game, root, agent, rng, return_details=True)
            seconds[i].append(time.perf_counter() - start)
            plies[i].append(result.plies)
    return seconds, plies


def measure_engines(name: str, size: int, playouts: int, repeats: int, primed: bool = True) -> list[dict]:
    """PPA's and PPAF's cost against UCT's with each ``playout_engine`` (1: every ply lists its moves; 2: the
    incremental sum-tree draw, ``ppalib.kernels.incremental``): each repeat searches the start position once with
    UCT and once with each of the four agents, in turn, so that the drifting load of a shared machine falls on all
    alike; ``cost_vs_uct`` is the median over repeats of the agent's time over UCT's in the same repeat, per
    iteration.  A learned policy changes how long a playout's game lasts (in misere games it gets longer), so each
    search's plies (``SearchResult.plies``: descent and playout, every iteration) are kept too:
    ``plies_per_iteration`` (UCT's and each agent's, over all repeats) and ``cost_per_ply_vs_uct``, the median of the
    same ratios per ply played.  After one warm-up search of each; with ``primed`` (the default since 2026-11-29,
    ``interleaved_searches``), each timed search right after a one-iteration search of its own agent."""
    game = make_game(name, size)
    uct = make_agent("uct", playouts)
    agents = [make_agent(kind, playouts, playout_engine=engine) for kind, engine in ENGINE_AGENTS]
    seconds, searched = interleaved_searches(game, game.initial_state(), [uct, *agents], repeats, make_rng(1),
                                             primed)
    uct_times, uct_plies = seconds[0], searched[0]
    times, plies = seconds[1:], searched[1:]
    rows = [{"game": name, "size": size, "agent": "uct", "metric": "uct_iterations_per_s",
             "value": round(playouts / statistics.median(uct_times), 3)},
            {"game": name, "size": size, "agent": "uct", "metric": "plies_per_iteration",
             "value": round(sum(uct_plies) / (playouts * repeats), 3)}]
    for (kind, engine), measured, played in zip(ENGINE_AGENTS, times, plies):
        agent = f"{kind}_engine{engine}"
        rows.append({"game": name, "size": size, "agent": agent, "metric": "cost_vs_uct",
                     "value": round(statistics.median(t / u for t, u in zip(measured, uct_times)), 3)})
        rows.append({"game": name, "size": size, "agent": agent, "metric": "plies_per_iteration",
                     "value": round(sum(played) / (playouts * repeats), 3)})
        rows.append({"game": name, "size": size, "agent": agent, "metric": "cost_per_ply_vs_uct",
                     "value": round(statistics.median((t / p) / (u / q) for t, p, u, q
                                                      in zip(measured, played, uct_times, uct_plies)), 3)})
    return rows


#: The issue's target (issue 25): PPA's and PPAF's iterations at most this many times UCT's time.
ENGINE_TARGET = 2.0


def _engine_rows(rows: list[dict]) -> dict:
    """``measure_engines`` rows by (game, size), then by (agent, metric)."""
    games = {}
    for r in rows:
        if r["metric"] in ("cost_vs_uct", "plies_per_iteration", "cost_per_ply_vs_uct", "uct_iterations_per_s"):
            games.setdefault((r["game"], r["size"]), {})[r["agent"], r["metric"]] = r["value"]
    return games


def engines_table(rows: list[dict]) -> str:
    """The ``measure_engines`` rows as a markdown table, one line per game: UCT's iterations/s and each agent's
    ``cost_vs_uct``, then whether engine 2 meets ``ENGINE_TARGET`` for PPA and PPAF."""
    agents = [f"{kind}_engine{engine}" for kind, engine in ENGINE_AGENTS]
    lines = ["| game | board | UCT iterations/s | " + " | ".join(f"{kind.upper()} engine {engine}"
                                                                 for kind, engine in ENGINE_AGENTS)
             + f" | engine 2 within {ENGINE_TARGET:g}x (PPA, PPAF) |",
             "|---|---|---:|" + "---:|" * len(agents) + "---|"]
    for (name, size), values in _engine_rows(rows).items():
        if not all((a, "cost_vs_uct") in values for a in agents):
            continue  # measured without --engines
        cost = {a: values[a, "cost_vs_uct"] for a in agents}
        within = ", ".join("yes" if cost[f"{kind}_engine2"] <= ENGINE_TARGET else "no" for kind in ("ppa", "ppaf"))
        lines.append(f"| {name} | {board_text(make_game(name, size))} | "
                     f"{values.get(('uct', 'uct_iterations_per_s'), float('nan')):,.0f} | "
                     + " | ".join(f"{cost[a]:.2f}" for a in agents) + f" | {within} |")
    return "\n".join(lines)


def engines_ply_table(rows: list[dict]) -> str:
    """Engine 2 per playout move, one line per game: the plies an iteration plays (descent and playout) under UCT,
    PPA and PPAF, and PPA's and PPAF's ``cost_per_ply_vs_uct``: where a learned policy makes the playouts' games
    longer or shorter, this separates the engine's cost from the policy's."""
    lines = ["| game | board | plies an iteration: UCT | PPA | PPAF | cost per ply vs UCT: PPA engine 2 "
             "| PPAF engine 2 |",
             "|---|---|---:|---:|---:|---:|---:|"]
    needed = [("uct", "plies_per_iteration")] + [(f"{kind}_engine2", metric) for kind in ("ppa", "ppaf")
                                                 for metric in ("plies_per_iteration", "cost_per_ply_vs_uct")]
    for (name, size), values in _engine_rows(rows).items():
        if not all(key in values for key in needed):
            continue  # measured without --engines
        lines.append(f"| {name} | {board_text(make_game(name, size))} | {values['uct', 'plies_per_iteration']:.1f} | "
                     f"{values['ppa_engine2', 'plies_per_iteration']:.1f} | "
                     f"{values['ppaf_engine2', 'plies_per_iteration']:.1f} | "
                     f"{values['ppa_engine2', 'cost_per_ply_vs_uct']:.2f} | "
                     f"{values['ppaf_engine2', 'cost_per_ply_vs_uct']:.2f} |")
    return "\n".join(lines)


_FIRST_MOVES = """
import json
import time
from collections import Counter
from numba.core import event
start = time.perf_counter()
compiles = Counter()  # ppalib functions by module and name: how many signatures this process compiled


class _Count(event.Listener):
    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        if function.__module__.startswith("ppalib"):
            compiles[function.__module__ + "." + function.__qualname__] += 1

    def on_end(self, ev):
        pass


event.register("numba:compile", _Count())
from ppalib.games import make_game
from ppalib.agents import make_agent, search
from ppalib._rng import make_rng
for name, size in {games!r}:
    game = make_game(name, size)
    for kind in ("uct", "ppa", "ppaf", "mast", "mastf", "rave", "puct"):
        search(game, game.initial_state(), make_agent(kind, 10), make_rng(0))
elapsed = time.perf_counter() - start
print(json.dumps(sorted(name for name, count in compiles.items() if count > 1)))
print(elapsed)
"""


def measure_compile(targets: list[tuple[str, int]]) -> list[dict]:
    """Cold (empty cache) and warm start-to-first-moves time in fresh interpreters, for (game, size) targets.  The
    cold row also lists (``recompiled``) the ppalib functions compiled for more than one signature, e.g. once for a
    literal argument and once for its type (``ppalib._noalloc``: each costs a second compile)."""
    code = _FIRST_MOVES.format(games=targets)
    names = [name for name, _ in targets]
    size = targets[0][1] if len({s for _, s in targets}) == 1 else None
    rows = []
    with tempfile.TemporaryDirectory() as empty_cache:
        env = {**os.environ, "PPALIB_CACHE_DIR": empty_cache}
        for metric in ("compile_cold_s", "first_move_warm_s"):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            recompiled, seconds = out.stdout.strip().splitlines()[-2:]
            row = {"game": "+".join(names), "size": size, "agent": "all", "metric": metric,
                   "value": round(float(seconds), 3)}
            if metric == "compile_cold_s":
                row["recompiled"] = json.loads(recompiled)
            rows.append(row)
    return rows


def run_bench(names: list[str], size: int | None, playouts: int, repeats: int, openspiel: bool,
              compile_times: bool, as_json: bool, stream=None, profile: bool = False,
              engines: bool = False, markdown: bool = False, primed: bool = True) -> list[dict]:
    """Measure each game of ``names`` (``name`` or ``name:size``) at ``size``, or at its ``BENCH_SIZES`` size
    (fixed-board games at their own); with ``engines`` and ``markdown``, ``engines_table`` and ``engines_ply_table``
    after the rows; ``primed``: ``measure_engines``'s."""
    stream = sys.stdout if stream is None else stream  # looked up per call: sys.stdout may have been replaced
    rows = []
    for name, game_size in bench_targets(names, size):
        board = board_text(make_game(name, game_size))
        measured = measure_game(name, game_size, playouts, repeats, openspiel)
        if profile:
            measured += measure_profile(name, game_size, repeats)
        if engines:
            measured += measure_engines(name, game_size, playouts, repeats, primed)
        for row in measured:
            rows.append(row)
            if as_json:
                print(json.dumps(row), file=stream, flush=True)
            else:
                print(f"{row['game']:22s} {board:14s} {row['metric']:28s} {row['value']:>12,.2f}",
                      file=stream, flush=True)
    if compile_times:
        for row in measure_compile(bench_targets(names, size)):
            rows.append(row)
            text = f"{row['game']:22s} {row['metric']:28s} {row['value']:>10.2f} s"
            if "recompiled" in row:
                text += f"  (compiled more than once: {', '.join(row['recompiled']) or 'none'})"
            print(json.dumps(row) if as_json else text, file=stream, flush=True)
    if engines and markdown:
        print(engines_table(rows), file=stream, flush=True)
        print(file=stream)
        print(engines_ply_table(rows), file=stream, flush=True)
    return rows
