"""Cazenave, "Playout Policy Adaptation for Games", ACG 2015 (Cazenave 2015): Table 1, PPA vs UCT.

The experiment: for every game, board size and playouts-per-move of the grid, PPA(alpha) plays UCT with the
same playouts, ``games_per_cell`` games, half with each colour; UCT constant c = 0.4 for both.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     2 games at 5x5, 20 playouts, 4 games a cell: seconds, for the tests
quick     the whole of Table 1: the 1,000-playout column at the paper's 500 games a cell (10 games x 5x5 and 8x8,
          10,000 games, about half an hour on 2 cores; a 95% interval of about +-4.4 points) and the 10,000-playout
          column at 100 games a cell (2,000 games, about 70 minutes on 2 cores; about +-10 points); the
          Knightthrough cells are played under both readings of the rules (below): 2,400 games more, 1,680 CPU s
paper     exactly Table 1: 10 games x {5x5, 8x8} x {1,000, 10,000} playouts, 500 games a cell (250 a colour)
========  =====================================================================================================

Knightthrough's rules (``knightthrough_rules``): the paper says only that "the pawns are replaced by knights that
can only go forward".  ``"landing"`` (the default) captures by jumping onto an enemy piece (as in chess and in
Ludii's Knightthrough, the game of Soemers et al. 2019); ``"ggp"`` plays the General Game Playing game of that
name (jumps onto empty cells only, captures one cell diagonally forward, a side without a move draws; game option
``ggp_rules=1``, see ``games/breakthrough.py``).  The grid plays its Knightthrough cells under both readings, with
the same playouts and games a cell: Table 1 shows the chosen one, ``knightthrough_rules_table`` both beside the
paper.
"""
from __future__ import annotations

from pathlib import Path

from ..agents import make_agent
from . import (C, GAMES_PER_BUDGET, MAX_PLAYOUTS, SEED, UNTIL_DECIDED, Param, check_games_per_budget,
               games_per_playouts, integer, number, resolve_settings)
from ..experiments import Condition, Experiment
from ..games import PAPER_GAMES

NAME = "ppa2015"
PAPER_TABLE = "ppa2015_table1.csv"

PRESETS = {
    "smoke": dict(games=["knightthrough", "nogo"], sizes=[5], playouts=[20], games_per_cell=4),
    "quick": dict(games=PAPER_GAMES, sizes=[5, 8], playouts=[1000, 10000], games_per_cell=[500, 100]),
    "paper": dict(games=PAPER_GAMES, sizes=[5, 8], playouts=[1000, 10000], games_per_cell=500),
}
#: Games until decided (``papers.UNTIL_DECIDED``): off unless asked; then 100 games a batch up to 1,500 a cell.
DEFAULTS = dict(alpha=1.0, c=0.4, seed=2015, knightthrough_rules="landing", until_decided="off", decide_batch=100,
                decide_cap=1500, decide_cpu_seconds=None)
KNIGHT_GAMES = ("knightthrough", "misere_knightthrough")
#: Knightthrough's two readings (module docstring) -> the game option that plays it.
KNIGHTTHROUGH_RULES = {"landing": {}, "ggp": {"ggp_rules": 1}}
#: The notebook's own parameters (None: the preset's value); board sizes are checked per game afterwards.
PARAMETERS = {
    "games": Param("game", many=True),
    "sizes": integer(2, 19, many=True),
    "playouts": integer(1, MAX_PLAYOUTS, many=True),
    "games_per_cell": GAMES_PER_BUDGET,
    "alpha": number(0),
    "c": C,
    "seed": SEED,
    "knightthrough_rules": Param("choice", choices=tuple(KNIGHTTHROUGH_RULES)),
    **UNTIL_DECIDED,
}


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored)."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    for key in ("games", "sizes", "playouts"):
        if not isinstance(result[key], (list, tuple)):
            result[key] = [result[key]]
        result[key] = list(result[key])
        if not result[key]:
            raise ValueError(f"{key} is empty: give at least one value")
    result["games_per_cell"] = check_games_per_budget(result["games_per_cell"], result["playouts"])
    return result


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    """The Table 1 grid for ``preset`` (see the module docstring), stored under ``results_dir``; its Knightthrough
    cells (Knightthrough, Misere Knightthrough) are played under both readings of the rules."""
    s = settings(preset, **overrides)
    other = next(rules for rules in KNIGHTTHROUGH_RULES if rules != s["knightthrough_rules"])
    cells = [(game, s["knightthrough_rules"]) for game in s["games"]]
    cells += [(game, other) for game in s["games"] if game in KNIGHT_GAMES]
    conditions = [Condition(game, size, make_agent("ppa", playouts, alpha=s["alpha"], c=s["c"]),
                            make_agent("uct", playouts, c=s["c"]),
                            game_options=KNIGHTTHROUGH_RULES[rules] if game in KNIGHT_GAMES else {})
                  for game, rules in cells for size in s["sizes"] for playouts in s["playouts"]]
    per_playouts = games_per_playouts(s)
    return Experiment(NAME, tuple(conditions), max(per_playouts.values()), s["seed"], Path(results_dir),
                      games_by_condition={c.id: per_playouts[c.agent.playouts] for c in conditions})


def decision_cells(experiment: Experiment, s: dict) -> "pd.DataFrame":
    """The cells games until decided grows: Table 1's (the Knightthrough cells under the chosen reading), each with
    the paper's value (``paper_percent``) and games (``paper_games``)."""
    import pandas as pd
    from ..report import load_paper_table
    paper = load_paper_table(PAPER_TABLE).set_index(KEYS)
    rows = []
    for c in experiment.conditions:
        reading = "ggp" if dict(c.game_options).get("ggp_rules") else "landing"
        key = (c.game, c.size, c.agent.playouts)
        if (c.game in KNIGHT_GAMES and reading != s["knightthrough_rules"]) or key not in paper.index:
            continue
        rows.append((c.id, float(paper.loc[key, "paper_win_rate"]), float(paper.loc[key, "paper_games"])))
    return pd.DataFrame(rows, columns=["condition_id", "paper_percent", "paper_games"])


def knightthrough_rules_of(frame) -> "pd.Series":
    """Per stored game, the reading of Knightthrough's rules it was played under ("landing" or "ggp"; other games:
    "")."""
    import json
    options = frame["game_options"].map(lambda text: json.loads(text) if isinstance(text, str) and text else {})
    ggp = options.map(lambda o: bool(o.get("ggp_rules", 0)))
    return ggp.map({True: "ggp", False: "landing"}).where(frame["game"].isin(KNIGHT_GAMES), "")


# ---- tables and figures -------------------------------------------------------------------------------------
TITLES = {"atarigo": "Atarigo", "breakthrough": "Breakthrough", "misere_breakthrough": "Misere Breakthrough",
          "domineering": "Domineering", "misere_domineering": "Misere Domineering", "go": "Go",
          "knightthrough": "Knightthrough", "misere_knightthrough": "Misere Knightthrough", "nogo": "Nogo",
          "misere_nogo": "Misere Nogo"}
KEYS = ["game", "size", "playouts"]


def table1(frame, knightthrough_rules: str = DEFAULTS["knightthrough_rules"]):
    """Long table: one row per cell of the paper's Table 1 with ours, our 95% interval, the paper, verdict; the
    Knightthrough cells under ``knightthrough_rules`` only."""
    from ..report import compare_with_paper, load_paper_table, win_rates
    if knightthrough_rules not in KNIGHTTHROUGH_RULES:
        raise ValueError(f"knightthrough_rules={knightthrough_rules!r} is unknown: use one of {list(KNIGHTTHROUGH_RULES)}")
    frame = frame[knightthrough_rules_of(frame).isin(["", knightthrough_rules])]
    frame = frame.assign(playouts=frame["agent_playouts"])
    return compare_with_paper(win_rates(frame, KEYS), load_paper_table(PAPER_TABLE), KEYS)


def table1_layout(long):
    """The paper's layout: a row per game and board size, a column per playouts value."""
    from ..report import format_cell
    cells = long.assign(cell=long.apply(format_cell, axis=1),
                        Game=long["game"].map(TITLES), Size=long["size"].map(lambda s: f"{s}x{s}"),
                        Playouts=long["playouts"].map(lambda p: f"{p:,}"))
    order = {g: i for i, g in enumerate(TITLES)}
    cells = cells.sort_values(["game", "size"], key=lambda s: s.map(order) if s.name == "game" else s)
    layout = cells.pivot_table(index=["Game", "Size"], columns="Playouts", values="cell", aggfunc="first",
                               sort=False)
    layout.columns.name = None
    ordered = [f"{p:,}" for p in sorted(set(long["playouts"]))]
    return layout[ordered].fillna("")


def knightthrough_rules_table(frame):
    """The Knightthrough cells of ``frame`` (stored games) under each reading of the rules: per game, board size,
    playouts and reading, our win rate with its interval and draws beside the paper's value and the verdict;
    ``p_between`` is Fisher's exact test between the two readings (wins rounded: a draw, possible only under the
    GGP rules, counts half)."""
    from scipy.stats import fisher_exact
    from ..report import compare_with_paper, load_paper_table, win_rates
    games = frame[frame["game"].isin(KNIGHT_GAMES)]
    keys = ["game", "size", "playouts"]
    games = games.assign(playouts=games["agent_playouts"], rules=knightthrough_rules_of(games),
                         draws=games["winner"] == 2)
    draws = games.groupby(keys + ["rules"])["draws"].sum().reset_index()
    ours = win_rates(games, keys + ["rules"]).merge(draws, on=keys + ["rules"])
    paper = load_paper_table(PAPER_TABLE)
    table = compare_with_paper(ours, paper[paper["game"].isin(KNIGHT_GAMES)], keys)
    table = table[table["rules"].notna()].copy()
    p_between = {}
    for key, cell in table.groupby(keys):
        if set(cell["rules"]) == set(KNIGHTTHROUGH_RULES):
            a, b = (cell[cell["rules"] == r].iloc[0] for r in KNIGHTTHROUGH_RULES)
            counts = [[round(a.wins), a.games - round(a.wins)], [round(b.wins), b.games - round(b.wins)]]
            p_between[key] = fisher_exact(counts).pvalue
    table["p_between"] = [p_between.get(tuple(row), float("nan")) for row in table[keys].itertuples(index=False)]
    order = {g: i for i, g in enumerate(KNIGHT_GAMES)}
    table = table.sort_values(keys + ["rules"], key=lambda s: s.map(order) if s.name == "game" else s)
    columns = keys + ["rules", "games", "draws", "win_rate", "ci_low", "ci_high", "paper_win_rate", "p_value",
                      "verdict", "p_between"]
    return table[columns].reset_index(drop=True)


def knightthrough_rules_layout(table):
    """``knightthrough_rules_table`` in the paper's layout: a row per game, size and playouts, a column per
    reading (``ours [interval] / paper mark``), and the p-value between the readings."""
    from ..report import format_cell
    cells = table.assign(cell=table.apply(format_cell, axis=1), Game=table["game"].map(TITLES),
                         Size=table["size"].map(lambda s: f"{s}x{s}"), Playouts=table["playouts"].map(lambda p: f"{p:,}"))
    layout = cells.pivot_table(index=["Game", "Size", "Playouts"], columns="rules", values="cell", aggfunc="first",
                               sort=False)
    layout.columns.name = None
    layout = layout[[rules for rules in KNIGHTTHROUGH_RULES if rules in layout.columns]]
    between = cells.groupby(["Game", "Size", "Playouts"], sort=False)["p_between"].first()
    layout["p (landing vs ggp)"] = between.map(lambda p: "" if p != p else f"{p:.2g}")
    return layout


def verdict_counts(long):
    """How many cells we ran, and how many are consistent with / above / below the paper."""
    ran = long[long["verdict"] != "no data"]
    return {"cells": len(ran), **{v: int((ran["verdict"] == v).sum())
                                  for v in ("consistent", "higher", "lower", "no paper value")}}


def plot_table1(long, *, style: str = "whitegrid", context: str = "paper"):
    """Dot plot per board size and playouts: our win rate with its 95% interval, the paper's value, 50% line."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    ran = long[long["games"].notna()]
    panels = sorted({(p, s) for p, s in zip(ran["playouts"], ran["size"])})
    sns.set_theme(style=style, context=context)
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels), 3.8), sharey=True, squeeze=False)
    games = [g for g in TITLES if g in set(ran["game"])]
    y = {g: i for i, g in enumerate(games)}
    for ax, (playouts, size) in zip(axes[0], panels):
        cell = ran[(ran["playouts"] == playouts) & (ran["size"] == size)]
        ys = cell["game"].map(y)
        ax.axvline(50, color="0.6", lw=0.8, zorder=0)
        ax.errorbar(cell["win_rate"], ys, xerr=[cell["win_rate"] - cell["ci_low"], cell["ci_high"] - cell["win_rate"]],
                    fmt="o", color="C0", ms=5, capsize=2, label="ours (95% CI)")
        ax.scatter(cell["paper_win_rate"], ys, marker="D", facecolors="none", edgecolors="C3", s=30, zorder=3,
                   label="paper")
        ax.set_title(f"{size}x{size}, {playouts:,} playouts")
        ax.set_xlim(0, 100)
        ax.set_xlabel("PPA win rate vs UCT (%)")
    axes[0][0].set_yticks(range(len(games)), [TITLES[g] for g in games])
    axes[0][0].invert_yaxis()
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize="small", bbox_to_anchor=(0.5, -0.06))
    fig.tight_layout()
    return fig


def plot_scaling(long, *, style: str = "whitegrid", context: str = "paper"):
    """Win rate against board size, one panel per game, a line per playouts value; ours solid, paper dashed."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    sns.set_theme(style=style, context=context)
    ran = long[long["games"].notna()]
    games = [g for g in TITLES if g in set(ran["game"])]
    columns = min(5, len(games))
    rows = -(-len(games) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(2.6 * columns, 2.4 * rows), sharex=True, sharey=True,
                             squeeze=False)
    for ax, game in zip(axes.flat, games):
        for i, (playouts, cell) in enumerate(long[long["game"] == game].groupby("playouts")):
            cell = cell.sort_values("size")
            color = f"C{i}"
            ax.plot(cell["size"], cell["paper_win_rate"], ls="--", marker="D", mfc="none", color=color, lw=1)
            mine = cell[cell["games"].notna()]
            if len(mine):
                ax.errorbar(mine["size"], mine["win_rate"], yerr=[mine["win_rate"] - mine["ci_low"],
                            mine["ci_high"] - mine["win_rate"]], marker="o", color=color, capsize=2, lw=1.5,
                            label=f"{playouts:,} playouts")
        ax.axhline(50, color="0.6", lw=0.8, zorder=0)
        ax.set_title(TITLES[game], fontsize="medium")
        ax.set_ylim(0, 100)
        ax.set_xticks(sorted(set(long["size"])))
    for ax in axes.flat[len(games):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("PPA win rate (%)")
    for ax in axes[-1]:
        ax.set_xlabel("board size")
    from matplotlib.lines import Line2D
    playouts_values = sorted(set(long["playouts"]))
    handles = [Line2D([], [], color=f"C{i}", lw=2) for i in range(len(playouts_values))]
    labels = [f"{p:,} playouts" for p in playouts_values]
    handles += [Line2D([], [], ls="--", marker="D", mfc="none", color="0.3"), Line2D([], [], marker="o", color="0.3")]
    labels += ["paper", "ours (95% CI)"]
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize="small", bbox_to_anchor=(0.5, -0.04))
    fig.tight_layout()
    return fig
