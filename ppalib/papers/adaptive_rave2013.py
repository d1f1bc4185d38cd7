"""Mehat & Vittaut, "Online Adjustment of Tree Search for GGP", GIGA 2013 (Mehat & Vittaut 2013): Figures 1-4.

Self-play matches (the same agent on both sides) at Blind Cashing Checks (20 checks, 10 turns, komi 5) and
Cashing Stale-dated Checks (12 checks, 10 turns, komi 5); the measure is the percentage of *optimal draws*:
matches in which every move of both players was optimal (``cashing_checks.Solver``), hence drawn.

* Figure 1: optimal draws against playouts per move, Blind.  The paper does not say whether RAVE was on
  (Ary's "usual setting"; the next section varies the RAVE constant "with the previous settings"): we draw both
  the paper's player without RAVE (the RAVE agent with ``rave_rate = 0``: untried moves scored at the maximum,
  random tie-break, section 2 with RAVE off; series ``no_rave``) and with RAVE (k = 700; series ``rave``).
  (Before, the series without RAVE was the PPA paper's UCT, unvisited moves first in list order: its games stay
  in the store under their own condition ids.)
* Figure 2: against the RAVE equivalence constant k, both games, 2,000 playouts.
* Figure 3: against the rate of child selections that use RAVE (k = 700), both games.
* Figure 4: adaptive RAVE against the margin (in reward units, results being 0, 0.5, 1: the paper's 0-100
  points divided by 100), both games, in the two readings of the margin: on both tests (series ``adaptive``:
  optimistic if r > mean + m, pessimistic if r < mean - m) and on the optimism test only (series
  ``adaptive_optimism``: pessimistic if r < mean; the caption's "margin used to consider RAVE move prediction
  to be too optimistic").  At m = 0 the two are the same rule and share the point.
* Tree reuse (not in the paper; ``figure`` 5 of the table): never, always and adaptive (m = 0) RAVE, both
  games, at the figures' playouts and twice them, with the tree emptied before every move (as in Figures 1-4)
  and kept between the moves of a match (``tree_reuse``; Ary keeps its tree between plies, which the paper
  does not mention).

Presets: ``smoke`` (2 points a figure, 100 playouts, 4 matches), ``quick`` (every point, 200 matches: minutes
on 2 cores), ``paper`` (every point, 500 matches).  Explicit parameters override them.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..agents import make_agent
from . import C, GAMES_PER_CELL, MAX_PLAYOUTS, SEED, Param, integer, number, resolve_settings
from ..experiments import Condition, Experiment, check_int

NAME = "adaptive_rave2013"
PAPER_POINTS = "adaptive_rave2013_points.csv"
GAMES = {"blind_cashing_checks": (20, 10, 5), "stale_cashing_checks": (12, 10, 5)}  # checks, turns, komi
TITLES = {"blind_cashing_checks": "Blind Cashing Checks", "stale_cashing_checks": "Cashing Stale-dated Checks"}

FULL_GRID = {
    "playouts": [100, 200, 500, 1000, 2000, 5000, 10000],
    "k_rave": [0, 10, 30, 100, 300, 700, 1000, 3000, 10000],
    "rave_rate": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "margin": [0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5],
}
PRESETS = {
    "smoke": dict(grid={"playouts": [50, 100], "k_rave": [0, 700], "rave_rate": [0.0, 1.0], "margin": [0.0, 0.1]},
                  playouts=100, matches=4),
    "quick": dict(grid=FULL_GRID, playouts=2000, matches=200),
    "paper": dict(grid=FULL_GRID, playouts=2000, matches=500),
}
SERIES_LABELS = {(1, "no_rave"): " (no RAVE)", (1, "rave"): " (RAVE)", (4, "adaptive"): " (margin both sides)",
                 (4, "adaptive_optimism"): " (margin on optimism only)"}
#: Figure 5 (tree reuse, not in the paper): series -> the RAVE agent's parameters.
REUSE_SETTINGS = {"never": dict(rave_rate=0.0), "always": dict(rave_rate=1.0), "adaptive": dict(adaptive=True)}
DEFAULTS = dict(k_rave=700.0, c=0.4, seed=2013)
#: The notebook's own parameters (None: the preset's value).
PARAMETERS = {
    "grid": Param("grid", grid=(("playouts", integer(1, MAX_PLAYOUTS, many=True)), ("k_rave", number(0, many=True)),
                                ("rave_rate", number(0, 1, many=True)), ("margin", number(0, many=True)))),
    "playouts": integer(1, MAX_PLAYOUTS),
    "matches": GAMES_PER_CELL,
    "k_rave": number(0),
    "c": C,
    "seed": SEED,
}


def settings(preset: str = "quick", **overrides) -> dict:
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    grid = result["grid"]
    if not isinstance(grid, dict) or set(grid) != set(FULL_GRID):
        raise ValueError(f"grid must map each of {sorted(FULL_GRID)} to a list of values")
    for key, values in grid.items():
        if not values:
            raise ValueError(f"grid[{key!r}] is empty: give at least one value")
    result["matches"] = check_int("matches", result["matches"], 1, 10_000_000)
    result["playouts"] = check_int("playouts", result["playouts"], 1, 10_000_000)
    return result


def points(s: dict) -> pd.DataFrame:
    """Every point of Figures 1-4 and of the tree-reuse check (figure 5; x = playouts): figure, game, series, x,
    and the agent that plays both sides."""
    rows = []
    for playouts in s["grid"]["playouts"]:
        rows.append((1, "blind_cashing_checks", "no_rave", playouts,
                     make_agent("rave", playouts, c=s["c"], k_rave=s["k_rave"], rave_rate=0.0)))
        rows.append((1, "blind_cashing_checks", "rave", playouts,
                     make_agent("rave", playouts, c=s["c"], k_rave=s["k_rave"])))
    for game in GAMES:
        for k_rave in s["grid"]["k_rave"]:
            rows.append((2, game, "k_rave", k_rave, make_agent("rave", s["playouts"], c=s["c"], k_rave=k_rave)))
        for rate in s["grid"]["rave_rate"]:
            rows.append((3, game, "rave_rate", rate,
                         make_agent("rave", s["playouts"], c=s["c"], k_rave=s["k_rave"], rave_rate=rate)))
        for series, both_sides in (("adaptive", True), ("adaptive_optimism", False)):
            for margin in s["grid"]["margin"]:
                rows.append((4, game, series, margin,
                             make_agent("rave", s["playouts"], c=s["c"], k_rave=s["k_rave"], adaptive=True,
                                        margin=margin, margin_both_sides=both_sides or margin == 0)))
        for playouts in (s["playouts"], 2 * s["playouts"]):
            for reuse in (False, True):
                for series, params in REUSE_SETTINGS.items():
                    rows.append((5, game, series + ("_reuse" if reuse else ""), playouts,
                                 make_agent("rave", playouts, c=s["c"], k_rave=s["k_rave"], tree_reuse=reuse,
                                            **params)))
    frame = pd.DataFrame(rows, columns=["figure", "game", "series", "x", "agent"])
    frame["condition"] = [_condition(g, a) for g, a in zip(frame["game"], frame["agent"])]
    frame["condition_id"] = [c.id for c in frame["condition"]]
    return frame


def _condition(game: str, agent) -> Condition:
    checks, turns, komi = GAMES[game]
    return Condition(game, checks, agent, agent, game_options=(("komi", komi), ("turns", turns)))


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    s = settings(preset, **overrides)
    conditions = list(dict.fromkeys(points(s)["condition"]))  # a point shared by two figures is played once
    return Experiment(NAME, tuple(conditions), s["matches"], s["seed"], Path(results_dir))


@lru_cache(maxsize=None)
def _solver(game: str, size: int, options: str):
    from ..games import cashing_checks, make_game
    return cashing_checks.Solver(make_game(game, size, **json.loads(options)).spec)


def label_optimal(frame: pd.DataFrame) -> pd.Series:
    """True for matches in which every move of both players was optimal (replayed through the exact solver; any
    Cashing Checks game, the sum of notebook 05 included)."""
    from ..games import make_game
    cache: dict[tuple, bool] = {}
    labels = []
    for game_name, size, options, moves in zip(frame["game"], frame["size"], frame["game_options"], frame["moves"]):
        key = (game_name, int(size), options, moves)
        if key not in cache:
            solver = _solver(game_name, int(size), options)
            game = make_game(game_name, int(size), **json.loads(options))
            state, optimal = game.initial_state(), True
            for move in map(int, moves.split()):
                if move not in solver.optimal_moves(state):
                    optimal = False
                    break
                game.module.play(game.spec, state, move)
            cache[key] = optimal
        labels.append(cache[key])
    return pd.Series(labels, index=frame.index, name="optimal_draw")


def figure_table(frame: pd.DataFrame, s: dict) -> pd.DataFrame:
    """Per point of Figures 1-4: matches, optimal draws (%), Wilson 95% interval, and the paper's value if any."""
    from statsmodels.stats.proportion import proportion_confint
    frame = frame.assign(optimal_draw=label_optimal(frame))
    per_condition = frame.groupby("condition_id")["optimal_draw"].agg(["size", "sum"])
    table = points(s).drop(columns=["condition", "agent"]).join(per_condition, on="condition_id")
    table = table.rename(columns={"size": "matches", "sum": "optimal_draws"}).dropna(subset=["matches"])
    low, high = proportion_confint(table["optimal_draws"], table["matches"], alpha=0.05, method="wilson")
    table["rate"] = 100 * table["optimal_draws"] / table["matches"]
    table["ci_low"], table["ci_high"] = 100 * np.asarray(low), 100 * np.asarray(high)
    paper = pd.read_csv(paths.PAPER_DATA / PAPER_POINTS)
    return table.merge(paper[["figure", "game", "series", "x", "paper_optimal_draws", "paper_matches"]],
                       on=["figure", "game", "series", "x"], how="left")


def headline(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's four percentages beside ours: the three-way verdict (``report.cell_verdict`` at the stated
    margin: reproduced / higher / lower / undecided) with the games that would decide it, and the p of the test
    its kind of number allows (``report.paper_test``).

    91.40% and 47.20% are counts out of the paper's 500 matches (457 and 236): the interval counts the paper's
    sampling error (Fisher's exact test for the p).  93.39% and 49.10% are not (466.95 and 245.5 of 500; perhaps
    averages over runs): their sample is unknown, so they are fixed references (exact binomial test); the
    ``test`` column says which.
    """
    from ..report import cell_verdict, paper_test
    rows = table[table["paper_optimal_draws"].notna()].copy()
    results = [paper_test(r.optimal_draws, r.matches, r.paper_optimal_draws, r.paper_matches)
               for r in rows.itertuples()]
    cells = [cell_verdict(r.optimal_draws, int(r.matches), r.paper_optimal_draws, int(r.paper_matches))
             for r in rows.itertuples()]
    rows["p_value"] = [p for p, _, _ in results]
    rows["verdict"] = [c.verdict for c in cells]
    rows["games_to_decide"] = [c.games_to_decide for c in cells]
    rows["margin"] = [c.margin for c in cells]
    rows["test"] = [t for _, _, t in results]
    rows["setting"] = [("always RAVE" if r.series == "rave_rate" and r.x == 1 else
                        "never RAVE" if r.series == "rave_rate" else f"adaptive, margin {r.x:g}")
                       for r in rows.itertuples()]
    rows["game"] = rows["game"].map(TITLES)
    rows = rows.round({"rate": 3, "ci_low": 3, "ci_high": 3})  # the p unrounded: 3 decimals made 1e-14 read "0"
    return rows[["game", "setting", "matches", "rate", "ci_low", "ci_high", "paper_optimal_draws", "p_value",
                 "verdict", "margin", "games_to_decide", "test"]]


def headline_layout(head: pd.DataFrame) -> pd.DataFrame:
    """``headline`` for a reader (the notebook and ``headline.md``): ours with its interval in one column, the
    verdict's margin in its header, every p in full (``report.to_markdown`` writes four significant digits)."""
    margin = head["margin"].dropna().iloc[0] if head["margin"].notna().any() else float("nan")
    return pd.DataFrame({
        "game": head["game"], "setting": head["setting"], "matches": head["matches"],
        "optimal draws (%) [95% interval]": [f"{r.rate:.1f} [{r.ci_low:.1f}, {r.ci_high:.1f}]"
                                             for r in head.itertuples()],
        "paper (%)": head["paper_optimal_draws"], f"verdict (±{margin:g} points)": head["verdict"],
        "games to decide": head["games_to_decide"], "p (two-sided)": head["p_value"], "test": head["test"]})


#: Mehat & Vittaut 2013, section 7 (quoted as printed).
ADAPTS_CLAIM = ("the player adapts successfully its use of RAVE to the game at hand (adaptive, margin 0, against the "
                "best fixed setting)")
ADAPTS_SENTENCE = ("When the margin is set to 0, the percentage of optimal draws is 91.40 % at Blind Cashing Checks and "
                   "47.20 % at Cashing Stale-dated Checks. This figures are to be compared with those obtained with "
                   "the best setting for a game: 93.39 % at Blind Cashing Checks when always using RAVE and 49.10 % "
                   "at Cashing Stale-dated Checks when never using RAVE: the player adapts successfully its use of "
                   "RAVE to the game at hand.")


def claims(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's claim, tested on our matches: per game, adaptive RAVE (margin 0, Figure 4) is as good as the
    game's best fixed setting (always RAVE at Blind, never at Stale-dated, Figure 3): two samples of ours,
    equivalent within ``report.EQUIVALENCE_MARGIN`` points (``report.equivalence_claim_verdict``): *upheld* when
    the 95% interval of adaptive minus fixed lies inside it, *contradicted* when it leaves that band and excludes 0
    (Fisher's exact test agreeing), *not decided* otherwise; Holm over the paper's claims (``report.with_holm``).
    The table says so in its ``test`` column: an estimate inside the margin whose interval reaches past it and
    excludes 0 is a contradiction."""
    from ..report import EQUIVALENCE_MARGIN, equivalence_claim_verdict, with_holm
    rows = []
    for game, best in (("blind_cashing_checks", 1.0), ("stale_cashing_checks", 0.0)):
        fixed = table[(table["figure"] == 3) & (table["game"] == game) & (table["series"] == "rave_rate")
                      & (table["x"] == best)]
        adaptive = table[(table["figure"] == 4) & (table["game"] == game) & (table["series"] == "adaptive")
                         & (table["x"] == 0.0)]
        if fixed.empty or adaptive.empty:
            continue
        a, f = adaptive.iloc[0], fixed.iloc[0]
        result = equivalence_claim_verdict(a.optimal_draws, int(a.matches), 0.0, reference_wins=f.optimal_draws,
                                           reference_games=int(f.matches))
        rows.append({"claim": ADAPTS_CLAIM, "game": TITLES[game],
                     "ours": f"adaptive {a.rate:.1f}% vs {'always' if best else 'never'} RAVE {f.rate:.1f}% "
                             f"({int(a.matches)} and {int(f.matches)} matches)",
                     "difference [95% interval]": f"{result.estimate:+.1f} [{result.ci_low:.1f}, {result.ci_high:.1f}]",
                     "equivalence margin (points)": EQUIVALENCE_MARGIN,
                     "test": f"{result.test} (adaptive minus fixed, Newcombe 95% interval): upheld when the "
                             f"interval lies inside ±{EQUIVALENCE_MARGIN:g} (p: TOST), contradicted when it leaves "
                             f"that band and excludes 0 (p: Fisher's exact test, < 0.05), not decided otherwise",
                     "p": result.p_value, "verdict": result.verdict})
    frame = pd.DataFrame(rows, columns=["claim", "game", "ours", "difference [95% interval]",
                                        "equivalence margin (points)", "test", "p", "verdict"])
    return with_holm(frame) if len(frame) else frame.assign(**{"p (Holm)": [], "verdict (Holm)": []})


def _cell(row) -> str:
    return f"{row.rate:.1f} [{row.ci_low:.1f}, {row.ci_high:.1f}] ({int(row.optimal_draws)}/{int(row.matches)})"


def margin_readings(table: pd.DataFrame) -> pd.DataFrame:
    """Figure 4 in both readings of the margin, per game and margin: optimal draws (%) [95% interval]
    (draws/matches) with the margin on both tests and on the optimism test only."""
    cells = table[table["figure"] == 4].assign(cell=lambda t: [_cell(r) for r in t.itertuples()])
    wide = cells.pivot_table(index=["game", "x"], columns="series", values="cell", aggfunc="first")
    wide = wide.rename(columns={"adaptive": "margin on both tests", "adaptive_optimism": "margin on optimism only"})
    wide = wide.reset_index().rename(columns={"x": "margin"})
    wide["game"] = wide["game"].map(TITLES)
    wide.columns.name = None
    return wide


#: The paper's best fixed setting and adaptive (margin 0) per game: the cells of the tree-reuse check that have
#: a paper value (section 7's four numbers, all at 2,000 playouts).
_PAPER_REUSE_CELLS = {("blind_cashing_checks", "always"): (3, "rave_rate", 1.0),
                      ("blind_cashing_checks", "adaptive"): (4, "adaptive", 0.0),
                      ("stale_cashing_checks", "never"): (3, "rave_rate", 0.0),
                      ("stale_cashing_checks", "adaptive"): (4, "adaptive", 0.0)}


def tree_reuse_table(table: pd.DataFrame) -> pd.DataFrame:
    """The tree-reuse check (figure 5 of the table): per game, setting and playouts, optimal draws (%) [95%
    interval] (draws/matches) with the tree emptied before every move and kept between moves, and beside the
    cells the paper reports (at 2,000 playouts) its value and the three-way verdict of each of ours against it
    (``report.cell_verdict``)."""
    from ..report import cell_verdict
    paper = pd.read_csv(paths.PAPER_DATA / PAPER_POINTS).set_index(["figure", "series", "x", "game"])
    cells = table[table["figure"] == 5]
    rows = []
    for (game, playouts, setting), _ in cells.assign(setting=cells["series"].str.replace("_reuse", "")).groupby(
            ["game", "x", "setting"], sort=False):
        row = {"game": TITLES[game], "setting": f"{setting} RAVE" if setting != "adaptive" else "adaptive, margin 0",
               "playouts": int(playouts)}
        key = _PAPER_REUSE_CELLS.get((game, setting))
        value = paper.loc[(*key, game)] if key else None
        row["paper (2,000 playouts)"] = f"{value['paper_optimal_draws']:.2f}" if key else "—"
        for suffix, column in (("", "tree emptied"), ("_reuse", "tree reused")):
            cell = cells[(cells["game"] == game) & (cells["x"] == playouts) & (cells["series"] == setting + suffix)]
            if cell.empty:
                row[column] = row[column + " vs paper"] = ""
                continue
            r = next(cell.itertuples())
            row[column] = _cell(r)
            row[column + " vs paper"] = (cell_verdict(r.optimal_draws, int(r.matches), value["paper_optimal_draws"],
                                                      int(value["paper_matches"])).verdict if key else "")
        rows.append(row)
    return pd.DataFrame(rows)


def plot_figures(table: pd.DataFrame, *, style: str = "whitegrid", context: str = "paper"):
    """Figures 1-4 side by side: optimal draws (%) with 95% intervals; the paper's points as diamonds.  Dashed:
    Figure 1 without RAVE, Figure 4 with the margin on the optimism test only."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from ..report import error_bar_lengths
    sns.set_theme(style=style, context=context)
    fig, axes = plt.subplots(1, 4, figsize=(15, 3.4), sharey=True)
    specs = [(1, "playouts per move", True), (2, "RAVE equivalence constant k", True),
             (3, "RAVE usage rate", False), (4, "adaptive margin", False)]
    subjects = {1: "playouts, with and without RAVE", 2: "RAVE's k", 3: "RAVE used at a rate",
                4: "adaptive RAVE's margin"}
    colours = {game: f"C{i}" for i, game in enumerate(GAMES)}
    for ax, (figure, xlabel, logx) in zip(axes, specs):
        cells = table[table["figure"] == figure]
        for (game, series), line in cells.groupby(["game", "series"], sort=False):
            line = line.sort_values("x")
            x = line["x"]  # Figure 2's symlog axis shows k = 0 at 0; Figure 1 has no zero
            label = TITLES[game] + SERIES_LABELS.get((figure, series), "")
            dashed = series in ("no_rave", "adaptive_optimism")
            ax.errorbar(x, line["rate"], yerr=error_bar_lengths(line["rate"], line["ci_low"], line["ci_high"]),
                        marker="s" if dashed else "o", linestyle="--" if dashed else "-", capsize=2,
                        color=colours[game], label=label)
            paper = line[line["paper_optimal_draws"].notna()]
            ax.scatter(paper["x"], paper["paper_optimal_draws"], marker="D", s=40, facecolors="none",
                       edgecolors=colours[game], zorder=3)
        if logx:
            ax.set_xscale("symlog" if figure == 2 else "log", **({"linthresh": 10} if figure == 2 else {}))
        ax.set_title(f"Figure {figure}: {subjects[figure]}", fontsize="medium")
        ax.set_xlabel(xlabel)
        ax.set_ylim(-2, 102)  # room for a marker at 0% or 100%
        handles, labels = ax.get_legend_handles_labels()
        if len(cells[cells["paper_optimal_draws"].notna()]):  # the diamonds named once, in grey whatever the game
            from matplotlib.lines import Line2D
            handles.append(Line2D([], [], marker="D", ls="", mfc="none", mec="0.3", label="paper"))
            labels.append("paper")
        ax.legend(handles, labels, fontsize="x-small")
    axes[0].set_ylabel("optimal draws (%)")
    fig.tight_layout()
    return fig


# ---- findings: the discussion's numbers, rendered from the store ---------------------------------------------
def first_mistake_ply(frame: pd.DataFrame) -> pd.Series:
    """Per match, the ply (1 = the first move) of the first move the exact solver does not count optimal; NaN for
    an optimal draw."""
    from ..games import make_game
    cache: dict[tuple, float] = {}
    plies = []
    for game_name, size, options, moves in zip(frame["game"], frame["size"], frame["game_options"], frame["moves"]):
        key = (game_name, int(size), options, moves)
        if key not in cache:
            solver = _solver(game_name, int(size), options)
            game = make_game(game_name, int(size), **json.loads(options))
            state, first = game.initial_state(), np.nan
            for ply, move in enumerate(map(int, moves.split()), start=1):
                if move not in solver.optimal_moves(state):
                    first = float(ply)
                    break
                game.module.play(game.spec, state, move)
            cache[key] = first
        plies.append(cache[key])
    return pd.Series(plies, index=frame.index, name="first_mistake_ply")


def _fisher(a, b) -> float:
    """Two-sided Fisher's exact test between two cells' optimal draws out of matches."""
    from scipy.stats import fisher_exact
    return float(fisher_exact([[a.optimal_draws, a.matches - a.optimal_draws],
                               [b.optimal_draws, b.matches - b.optimal_draws]]).pvalue)


def _p(p_value: float) -> str:
    return f"p < 1e-{int(-np.floor(np.log10(p_value))) - 1}" if p_value < 1e-4 else f"p = {p_value:.2g}"


def _compared(cell, other_name: str, other) -> str:
    """"significantly below/above <other> Y% (p)" or "not significantly different from <other> Y% (p)"."""
    p_value = _fisher(cell, other)
    relation = ("not significantly different from" if p_value >= 0.05 else
                "significantly below" if cell.rate < other.rate else "significantly above")
    return f"{relation} {other_name} {other.rate:.1f}% ({_p(p_value)})"


def _sweep_line(table: pd.DataFrame, figure: int, series: str, name: str) -> str:
    cells = table[(table["figure"] == figure) & (table["series"] == series)].sort_values("x")
    ends = []
    for game, per_game in cells.groupby("game", sort=False):
        low, high = per_game.iloc[0], per_game.iloc[-1]
        ends.append(f"{TITLES[game]} {low.rate:.1f}% at {name} = {low.x:,g} to {high.rate:.1f}% at {high.x:,g}")
    return f"* **Figure {figure}** ({name}): " + "; ".join(ends) + "." if ends else ""


def _adaptive_line(table: pd.DataFrame) -> list[str]:
    """Adaptive RAVE (margin 0) against never and always using RAVE (Figure 3's ends), per game, by Fisher's
    exact test: whether it lands next to the better fixed choice."""
    lines = []
    for game in GAMES:
        fixed = table[(table["figure"] == 3) & (table["game"] == game) & (table["series"] == "rave_rate")]
        adaptive = table[(table["figure"] == 4) & (table["game"] == game) & (table["series"] == "adaptive")
                         & (table["x"] == 0)]
        if adaptive.empty or not {0.0, 1.0} <= set(fixed["x"]):
            continue
        never, always = (fixed[fixed["x"] == x].iloc[0] for x in (0.0, 1.0))
        (better_name, better), (worse_name, worse) = sorted(
            [("never RAVE", never), ("always RAVE", always)], key=lambda item: -item[1].rate)
        cell = adaptive.iloc[0]
        lines.append(f"* **Adaptive RAVE (margin 0), {TITLES[game]}**: {cell.rate:.1f}%, "
                     + _compared(cell, f"the better fixed choice, {better_name},", better) + ", and "
                     + _compared(cell, f"the worse, {worse_name},", worse) + " (Fisher's exact tests).")
    return lines


def _figure1_lines(table: pd.DataFrame, stored: pd.DataFrame | None) -> list[str]:
    """Figure 1's two series, the playouts where each first exceeds half the matches, and (from the whole store)
    the PPA paper's UCT that this series used before, against the paper's player without RAVE."""
    cells = table[table["figure"] == 1].sort_values("x")
    if cells.empty:
        return []
    lines = []
    for series, name in (("no_rave", "without RAVE"), ("rave", "with RAVE (k = 700)")):
        per = cells[cells["series"] == series]
        if per.empty:
            continue
        above = per[per["rate"] > 50]
        lines.append(f"* **Figure 1, {name}**: " + ", ".join(f"{r.rate:.1f}% at {r.x:,.0f}" for r in per.itertuples())
                     + " playouts; " + (f"above half the matches from {above.iloc[0].x:,.0f} playouts on"
                                        if len(above) else "never above half the matches") + ".")
    if stored is not None and len(stored):
        uct = stored[(stored["agent"] == "uct") & (stored["game"] == "blind_cashing_checks")]
        if len(uct):
            uct = uct.assign(optimal=label_optimal(uct))
            no_rave = cells[cells["series"] == "no_rave"].set_index("x")
            parts = []
            for playouts, games in uct.groupby("agent_playouts"):
                old = pd.Series({"optimal_draws": games["optimal"].sum(), "matches": len(games),
                                 "rate": 100 * games["optimal"].mean()})
                text = f"{old.rate:.1f}% at {playouts:,}"
                if float(playouts) in no_rave.index:
                    text += f" ({_p(_fisher(old, no_rave.loc[float(playouts)]))})"
                parts.append(text)
            lines.append("* **Figure 1, the PPA paper's UCT** (unvisited moves first in list order; kept in the store "
                         "under its own condition ids; Fisher's p against the paper's player without RAVE at the same "
                         "playouts): " + ", ".join(parts) + " playouts.")
    return lines


def _figure4_lines(table: pd.DataFrame) -> list[str]:
    """Figure 4 in both readings: each reading's range over the margins, and the margin where they differ most."""
    cells = table[table["figure"] == 4]
    lines = []
    for game, per_game in cells.groupby("game", sort=False):
        both = per_game[per_game["series"] == "adaptive"].set_index("x")
        optimism = per_game[per_game["series"] == "adaptive_optimism"].set_index("x")
        if both.empty or optimism.empty:
            continue
        ranges = [f"{name} {p.rate.min():.1f}% to {p.rate.max():.1f}% (lowest at margin {p.rate.idxmin():g})"
                  for name, p in (("margin on both tests", both), ("on the optimism test only", optimism))]
        shared = sorted(set(both.index) & set(optimism.index))
        gap = max(shared, key=lambda m: abs(both.loc[m, "rate"] - optimism.loc[m, "rate"]))
        lines.append(f"* **Figure 4, {TITLES[game]}**: " + "; ".join(ranges) + f"; the readings differ most at margin "
                     f"{gap:g}: {both.loc[gap, 'rate']:.1f}% against {optimism.loc[gap, 'rate']:.1f}% "
                     f"({_p(_fisher(both.loc[gap], optimism.loc[gap]))}).")
    return lines


def _reuse_lines(table: pd.DataFrame) -> list[str]:
    """The tree-reuse check: per game and setting, the tree kept against emptied at each budget (Fisher), and the
    budgets compared with the tree emptied."""
    cells = table[table["figure"] == 5]
    lines = []
    for game, per_game in cells.groupby("game", sort=False):
        parts = []
        for setting in REUSE_SETTINGS:
            for playouts in sorted(set(per_game["x"])):
                emptied = per_game[(per_game["series"] == setting) & (per_game["x"] == playouts)]
                kept = per_game[(per_game["series"] == f"{setting}_reuse") & (per_game["x"] == playouts)]
                if len(emptied) and len(kept):
                    e, k = emptied.iloc[0], kept.iloc[0]
                    parts.append(f"{setting} RAVE at {playouts:,.0f} playouts {e.rate:.1f}% emptied, {k.rate:.1f}% "
                                 f"kept ({_p(_fisher(e, k))})")
        if parts:
            lines.append(f"* **Tree kept between moves, {TITLES[game]}**: " + "; ".join(parts) + ".")
    return lines


def _first_mistake_lines(frame: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    """Where the matches that are not optimal draws go wrong, for the tree-reuse cells the paper reports at the
    figures' playouts: how many made their first non-optimal move at ply 1 or 2 (each player's first search, where
    a kept tree holds nothing yet)."""
    cells = table[table["figure"] == 5]
    if cells.empty or frame.empty:
        return []
    playouts = cells["x"].min()
    lines = []
    for (game, setting), _ in _PAPER_REUSE_CELLS.items():
        parts = []
        for suffix, name in (("", "tree emptied"), ("_reuse", "tree kept")):
            cell = cells[(cells["game"] == game) & (cells["series"] == setting + suffix) & (cells["x"] == playouts)]
            if cell.empty:
                continue
            matches = frame[frame["condition_id"] == cell.iloc[0]["condition_id"]]
            first = first_mistake_ply(matches).dropna()
            if len(first):
                parts.append(f"{name}: {int((first <= 2).sum())} of the {len(first)} matches that are not optimal "
                             f"draws")
        if parts:
            label = "adaptive (margin 0)" if setting == "adaptive" else f"{setting} RAVE"
            lines.append(f"* **First non-optimal move at ply 1 or 2, {TITLES[game]}, {label}, {playouts:,.0f} "
                         f"playouts**: " + "; ".join(parts) + ".")
    return lines


def _paper_lines(table: pd.DataFrame) -> list[str]:
    """The paper's four percentages (``headline``: three-way verdicts at the stated margin, the two-sided p beside)
    and its claim that the player adapts (``claims``: raw and Holm p)."""
    from ..report import EQUIVALENCE_MARGIN, claims_tally, counts_text, margin_words, p_text
    lines = []
    head = headline(table) if "paper_optimal_draws" in table.columns else table.iloc[:0]
    if len(head):
        lines.append(f"* **The paper's four percentages** ({margin_words()}): {counts_text(head['verdict'])}. "
                     + "; ".join(f"{r.game}, {r.setting}: {r.rate:.1f}% against {r.paper_optimal_draws:g}%, "
                                 f"{r.verdict} (two-sided {p_text(r.p_value)})" for r in head.itertuples()) + ".")
    claim = claims(table)
    if len(claim):
        lines.append(f"* **The paper's claim**, \"{ADAPTS_CLAIM}\" ({claims_tally(claim, f'as an equivalence within ±{EQUIVALENCE_MARGIN:g} points')}): " + "; ".join(
            f"{r['game']} {r['verdict']}, {r['ours']}, difference {r['difference [95% interval]']} points "
            f"({p_text(r['p'])}, Holm {p_text(r['p (Holm)'])})"
            for _, r in claim.iterrows()) + ".")
    return lines


def findings(frame: pd.DataFrame, table: pd.DataFrame, stored: pd.DataFrame | None = None) -> str:
    """What the stored matches say, in sentences computed from them (``frame``: this grid's stored matches;
    ``table``: ``figure_table(frame, settings)``; ``stored``: the whole results folder, for the PPA paper's UCT of
    Figure 1): no number is written by hand."""
    distinct = table.drop_duplicates("condition_id")
    lines = [f"* **Matches**: {int(distinct['matches'].sum()):,} in the {len(distinct)} distinct agents of the points "
             f"above, every move labelled by the exact solver."]
    lines += [line for line in (_sweep_line(table, 2, "k_rave", "k"), _sweep_line(table, 3, "rave_rate", "RAVE rate"))
              if line]
    lines += _paper_lines(table)
    lines += _adaptive_line(table)
    lines += _figure1_lines(table, stored)
    lines += _figure4_lines(table)
    lines += _reuse_lines(table)
    lines += _first_mistake_lines(frame, table)
    return "\n".join(lines)
