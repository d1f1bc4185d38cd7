"""Cazenave, "Playout Policy Adaptation with Move Features", TCS 2016 (Cazenave 2016): Tables 1-10.

Each cell of the paper: an algorithm (MAST, MASTF with parameter k; PPA, PPAF with parameter alpha) plays an
opponent (UCT, or PPAF in Tables 4 and 9) at 8x8 with the same playouts per move, 500 games, half per colour.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     Tables 2 and 10 (Breakthrough, Nogo), each algorithm at its best setting, 5x5, 20 playouts, 2 games
quick     every table, each algorithm at the setting the paper found best in that table (36 cells), 8x8,
          1,000 playouts (the paper: 10,000), 100 games a cell: about an hour on 2 cores.  Enough to test the
          paper's qualitative claims between algorithms; cell values are expected to differ from the paper's,
          which were measured with ten times the playouts.
paper     all 346 cells exactly: 8x8, 10,000 playouts, 500 games a cell (a cluster)
========  =====================================================================================================

Table 9's opponent is "PPAF" with no alpha in the paper; we use PPAF(1.28), the opponent of Table 4
(see ``data/paper/README.md``).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from ..agents import make_agent
from . import C, GAMES_PER_CELL, MAX_PLAYOUTS, SEED, Param, integer, resolve_settings
from ..experiments import Condition, Experiment, check_int

NAME = "ppaf2016"
PAPER_TABLE = "ppaf2016_tables.csv"
TABLE9_OPPONENT_ALPHA = 1.28
ALL_TABLES = list(range(1, 11))

PRESETS = {
    "smoke": dict(tables=[2, 10], grid="best", size=5, playouts=20, games_per_cell=2),
    "quick": dict(tables=ALL_TABLES, grid="best", size=8, playouts=1000, games_per_cell=100),
    "paper": dict(tables=ALL_TABLES, grid="all", size=8, playouts=10000, games_per_cell=500),
}
DEFAULTS = dict(c=0.4, seed=2016)
GRIDS = ("best", "all")
#: The notebook's own parameters (None: the preset's value).
PARAMETERS = {
    "tables": integer(1, 10, many=True),
    "grid": Param("choice", choices=GRIDS),
    "size": integer(4, 19),
    "playouts": integer(1, MAX_PLAYOUTS),
    "games_per_cell": GAMES_PER_CELL,
    "c": C,
    "seed": SEED,
}


def paper_cells() -> pd.DataFrame:
    """The 346 transcribed cells (``data/paper/ppaf2016_tables.csv``)."""
    cells = pd.read_csv(paths.PAPER_DATA / PAPER_TABLE)
    cells["opponent_alpha"] = cells["opponent_alpha"].fillna(TABLE9_OPPONENT_ALPHA).where(
        cells["opponent"] == "ppaf")
    return cells


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored)."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    tables = list(result["tables"]) if isinstance(result["tables"], (list, tuple)) else [result["tables"]]
    if not tables:
        raise ValueError("tables is empty: give at least one of 1..10")
    bad = [t for t in tables if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 10]
    if bad:
        raise ValueError(f"tables={bad} is out of range: allowed 1..10")
    result["tables"] = tables
    if result["grid"] not in GRIDS:
        raise ValueError(f"grid={result['grid']!r} is unknown: use 'best' (each algorithm's best setting per "
                         f"table) or 'all' (every cell of the paper)")
    result["games_per_cell"] = check_int("games_per_cell", result["games_per_cell"], 1, 10_000_000)
    result["playouts"] = check_int("playouts", result["playouts"], 1, 10_000_000)
    result["size"] = check_int("size", result["size"], 4, 19)
    return result


def selected_cells(s: dict) -> pd.DataFrame:
    """The paper's cells the settings ask for: every cell, or per (table, algorithm) the best one."""
    cells = paper_cells()
    cells = cells[cells["table"].isin(s["tables"])]
    if s["grid"] == "best":
        best = cells.groupby(["table", "algorithm"], sort=False)["paper_win_rate"].idxmax()
        cells = cells.loc[best.values]
    return cells.reset_index(drop=True)


def _agent(kind: str, value: float, playouts: int, c: float):
    return make_agent(kind, playouts, c=c, **({"alpha": value} if kind.startswith("ppa") else {"k": value}))


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    """The grid of Tables 1-10 for ``preset`` (see the module docstring), stored under ``results_dir``."""
    s = settings(preset, **overrides)
    conditions = []
    for cell in selected_cells(s).itertuples():
        opponent = (make_agent("uct", s["playouts"], c=s["c"]) if cell.opponent == "uct"
                    else _agent("ppaf", cell.opponent_alpha, s["playouts"], s["c"]))
        condition = Condition(cell.game, s["size"], _agent(cell.algorithm, cell.value, s["playouts"], s["c"]),
                              opponent)
        if condition not in conditions:
            conditions.append(condition)
    return Experiment(NAME, tuple(conditions), s["games_per_cell"], s["seed"], Path(results_dir))


# ---- tables, claims and figures ------------------------------------------------------------------------------
TITLES = {"atarigo": "Atarigo", "breakthrough": "Breakthrough", "misere_breakthrough": "Misere Breakthrough",
          "domineering": "Domineering", "misere_domineering": "Misere Domineering", "knightthrough": "Knightthrough",
          "misere_knightthrough": "Misere Knightthrough", "nogo": "Nogo"}
ALGORITHMS = ["mast", "mastf", "ppa", "ppaf"]
KEYS = ["game", "algorithm", "value", "opponent", "opponent_alpha"]


def tables(frame: pd.DataFrame) -> pd.DataFrame:
    """Long table: every paper cell with ours beside it (ours matched on game, algorithm, parameter, opponent).

    ``same_playouts`` says whether we played the paper's 10,000 playouts; where not (the quick preset), the
    verdict compares different budgets and a difference is expected.
    """
    from ..report import compare_with_paper, win_rates
    ours = frame.assign(algorithm=frame["agent"],
                        value=frame["agent_alpha"].where(frame["agent"].str.startswith("ppa"), frame["agent_k"]),
                        opponent_alpha=frame["opponent_alpha"].where(frame["opponent"] == "ppaf"),
                        playouts=frame["agent_playouts"])
    rates = win_rates(ours, KEYS + ["playouts", "size"])
    paper = paper_cells().drop(columns=["playouts", "size"])
    long = compare_with_paper(rates, paper, KEYS)
    long["same_playouts"] = long["playouts"] == 10000
    return long


def table_layout(long: pd.DataFrame, table: int) -> pd.DataFrame:
    """One of the paper's tables: a row per algorithm, a column per parameter value (ours / paper, verdict)."""
    from ..report import format_cell
    cells = long[long["table"] == table]
    if cells.empty:
        return pd.DataFrame()
    cells = cells.assign(cell=cells.apply(format_cell, axis=1) + cells["same_playouts"].map({True: "", False: " †"}),
                         parameter_label=cells.apply(lambda r: f"{'alpha' if r.algorithm.startswith('ppa') else 'k'}"
                                                             f"={r.value:g}", axis=1))
    layout = cells.set_index("algorithm")
    rows, columns = [], []
    for algorithm in [a for a in ALGORITHMS if a in layout.index]:
        row = {"Algorithm": algorithm.upper()}
        ran = cells[(cells["algorithm"] == algorithm) & cells["games"].notna()].sort_values("value")
        for r in ran.itertuples():
            row[r.parameter_label] = r.cell
            if r.parameter_label not in columns:
                columns.append(r.parameter_label)
        best = cells[cells["algorithm"] == algorithm].sort_values("paper_win_rate", ascending=False).iloc[0]
        row["paper's best"] = f"{best.paper_win_rate:.1f} ({best.parameter_label})"
        rows.append(row)
    return pd.DataFrame(rows).set_index("Algorithm").reindex(columns=columns + ["paper's best"]).fillna("")


CLAIMS = [
    ("PPAF > PPA", "ppaf", "ppa", ["breakthrough", "knightthrough", "nogo", "domineering", "misere_domineering"]),
    ("PPAF > MAST", "ppaf", "mast", ["breakthrough", "misere_breakthrough", "knightthrough", "misere_knightthrough",
                                     "nogo", "domineering"]),
    ("PPAF > MASTF", "ppaf", "mastf", ["breakthrough", "misere_breakthrough", "knightthrough",
                                       "misere_knightthrough", "nogo", "domineering"]),
]


def _label(row) -> str:
    name = row.algorithm.upper()
    return f"{name}({row.value:g}) {row.win_rate:.1f}%"


def claims(long: pd.DataFrame) -> pd.DataFrame:
    """The paper's qualitative claims, each tested on our data.

    "A > B" at a game compares A's and B's best cells against UCT (best by our win rate among the cells we
    ran) with one-sided Fisher tests: "holds" when A is significantly ahead (p < 0.05), "contradicted" when B
    is, "not significant" otherwise.  Tables 4 and 9 ("PPAF is much better than MAST and MASTF"): the win rate of
    MAST's and MASTF's best cell against PPAF, one-sided binomial tests against 50%.
    """
    from scipy.stats import binomtest, fisher_exact
    ran = long[long["games"].notna()]
    rows = []
    for claim, a, b, games in CLAIMS:
        for game in games:
            vs_uct = ran[(ran["game"] == game) & (ran["opponent"] == "uct")]
            best = {alg: vs_uct[vs_uct["algorithm"] == alg].sort_values("win_rate").tail(1) for alg in (a, b)}
            if any(v.empty for v in best.values()):
                continue
            ra, rb = best[a].iloc[0], best[b].iloc[0]
            table = [[ra.wins, ra.games - ra.wins], [rb.wins, rb.games - rb.wins]]
            ahead = fisher_exact(table, alternative="greater")[1]
            behind = fisher_exact(table, alternative="less")[1]
            verdict = "holds" if ahead < 0.05 else ("contradicted" if behind < 0.05 else "not significant")
            rows.append({"claim": claim, "game": TITLES[game], "A vs UCT": _label(ra), "B vs UCT": _label(rb),
                         "p (A > B)": round(ahead, 4), "verdict": verdict})
    for table in (4, 9):
        for alg in ("mast", "mastf"):
            cell = ran[(ran["table"] == table) & (ran["algorithm"] == alg)].sort_values("win_rate").tail(1)
            if cell.empty:
                continue
            r = cell.iloc[0]
            wins, games = int(round(r.wins)), int(r.games)
            below = binomtest(wins, games, 0.5, alternative="less").pvalue
            above = binomtest(wins, games, 0.5, alternative="greater").pvalue
            verdict = "holds" if below < 0.05 else ("contradicted" if above < 0.05 else "not significant")
            rows.append({"claim": f"PPAF > {alg.upper()} (Table {table})", "game": TITLES[r.game],
                         "A vs UCT": "", "B vs UCT": f"{_label(r)} vs PPAF(1.28)", "p (A > B)": round(below, 4),
                         "verdict": verdict})
    return pd.DataFrame(rows)


def verdict_counts(long: pd.DataFrame) -> pd.DataFrame:
    """Per table: cells run, and how many are consistent / higher / lower than the paper."""
    ran = long[long["games"].notna()]
    counts = ran.groupby("table")["verdict"].value_counts().unstack(fill_value=0)
    counts.insert(0, "cells run", ran.groupby("table").size())
    return counts


def plot_sweeps(long: pd.DataFrame, *, style: str = "whitegrid", context: str = "paper"):
    """Win rate against alpha (PPA, PPAF) and k (MAST, MASTF) on log axes, a row per table: the paper's sweep as
    lines, ours as points with 95% intervals."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    sns.set_theme(style=style, context=context)
    present = sorted(set(long.loc[long["games"].notna(), "table"]))
    fig, axes = plt.subplots(len(present), 2, figsize=(8, 2.3 * len(present)), squeeze=False, sharey=True)
    for row, table in zip(axes, present):
        cells = long[long["table"] == table]
        for ax, pair in zip(row, (("mast", "mastf"), ("ppa", "ppaf"))):
            if not cells["algorithm"].isin(pair).any():
                ax.set_visible(False)  # Tables 4 and 9 have no PPA rows
                continue
            for i, algorithm in enumerate(pair):
                sweep = cells[cells["algorithm"] == algorithm].sort_values("value")
                color = f"C{i + (0 if pair[0] == 'mast' else 2)}"
                ax.plot(sweep["value"], sweep["paper_win_rate"], ls="--", marker="D", mfc="none", color=color,
                        lw=1, label=f"{algorithm.upper()} paper")
                mine = sweep[sweep["games"].notna()]
                if len(mine):
                    ax.errorbar(mine["value"], mine["win_rate"], yerr=[mine["win_rate"] - mine["ci_low"],
                                mine["ci_high"] - mine["win_rate"]], fmt="o", color=color, capsize=2,
                                label=f"{algorithm.upper()} ours")
            ax.set_xscale("log", base=2)
            ax.axhline(50, color="0.6", lw=0.8, zorder=0)
            ax.set_ylim(-2, 102)
            opponent = "PPAF(1.28)" if table in (4, 9) else "UCT"
            ax.set_title(f"Table {table}: {TITLES[cells['game'].iloc[0]]} vs {opponent}", fontsize="small")
            ax.set_xlabel("k" if pair[0] == "mast" else "alpha")
            ax.legend(fontsize="x-small", ncol=2)
        row[0].set_ylabel("win rate (%)")
    fig.tight_layout()
    return fig
