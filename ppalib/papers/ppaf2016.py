"""Cazenave, "Playout Policy Adaptation with Move Features", TCS 2016 (seed 000): Tables 1-10.

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


def paper_cells() -> pd.DataFrame:
    """The 346 transcribed cells (``data/paper/ppaf2016_tables.csv``)."""
    cells = pd.read_csv(paths.PAPER_DATA / PAPER_TABLE)
    cells["opponent_alpha"] = cells["opponent_alpha"].fillna(TABLE9_OPPONENT_ALPHA).where(
        cells["opponent"] == "ppaf")
    return cells


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored)."""
    if preset not in PRESETS:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(PRESETS)}")
    result = {**DEFAULTS, **PRESETS[preset]}
    unknown = set(overrides) - set(result)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(result)}")
    result.update({k: v for k, v in overrides.items() if v is not None})
    tables = [result["tables"]] if isinstance(result["tables"], int) else list(result["tables"])
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
