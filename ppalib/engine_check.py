"""Do the two playout engines give the same results?  Engine 1 lists each playout ply's legal moves and draws from
the list (Cazenave's algorithms as written, every committed game); engine 2 keeps the legal moves' weights in sum
trees updated move by move (``ppalib.kernels.incremental``).  They draw from the same law and adapt alike to
rounding (``tests/test_incremental_playouts.py``), but not the same games, so a notebook whose paper preset plays
engine 2 checks it on games: the same cells at both engines, compared here.

A cell is a condition at engine 1 (``experiments.at_engine_one``) and its engine-2 counterpart; each side counts
its games of index below the smaller side's count, so both have as many and pooling weighs the cells alike.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from .experiments import at_engine_one, stored_condition
from .games import GAMES

#: Points: the pooled win rates of the two engines are "the same" when the 95% interval of their difference lies
#: inside +-MARGIN.
MARGIN = 5.0
#: The agent kinds whose playouts are learned, which the engine applies to.
LEARNED_KINDS = ("ppa", "ppaf", "mast", "mastf")
POOLED = "all cells pooled"
COLUMNS = ["engine 1 games", "engine 1 win %", "engine 1 95% interval", "engine 2 games", "engine 2 win %",
           "engine 2 95% interval", "difference (2 - 1)", "difference 95% interval", "p (Fisher)", "p (Holm)",
           "verdict"]


def engines_differ(game: str) -> bool:
    """Whether the two engines play different games at ``game``: its module keeps an incremental legal set (the
    contract's ``num_slots``...); elsewhere engine 2 plays as engine 1, move for move."""
    return getattr(GAMES[game].module, "num_slots", None) is not None


def folder(results_dir) -> Path:
    """Where the engine check of the grid stored in ``results_dir`` is stored: a sibling folder, its own store
    (replayed by the tests as every committed store is)."""
    results_dir = Path(results_dir)
    return results_dir.parent / f"{results_dir.name}_engine_check"


def engine_of(params: str) -> int | None:
    """The playout engine of a stored agent (its ``agent_params``/``opponent_params`` JSON); None when its playouts
    are not learned."""
    agent = json.loads(params)
    return int(agent.get("playout_engine", 1)) if agent.get("kind") in LEARNED_KINDS else None


def check_table(games: pd.DataFrame, labels: Callable[[object], dict], pooled_column: str = "game") -> pd.DataFrame:
    """A row per cell that has games at both engines: ``labels(condition at engine 1)`` (the columns that name the
    cell; the pooled row says ``POOLED`` in ``pooled_column``), then each engine's games, win rate and Wilson 95% interval, the difference (engine 2 minus engine 1,
    points) with its 95% interval (Newcombe's hybrid score), Fisher's exact two-sided p and Holm's correction over
    the cells; a cell is "different" when its corrected p is below 5%.  A last row pools every cell's games, judged
    against ``MARGIN``: "the same" when the interval lies inside +-MARGIN, "different" when it excludes 0,
    "undecided" otherwise.  ``games``: stored games (both engines' may come from different stores)."""
    from scipy.stats import fisher_exact
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.proportion import confint_proportions_2indep
    from .report import wilson_interval
    cells = {}  # engine-1 condition id -> {engine: games}
    conditions = {}
    for condition_id, of in games.groupby("condition_id", sort=False):
        first = of.iloc[0]
        engines = {engine_of(first["agent_params"]), engine_of(first["opponent_params"])} - {None}
        if not engines:
            continue
        one = at_engine_one(stored_condition(first))
        conditions[one.id] = one
        cells.setdefault(one.id, {})[max(engines)] = of
    rows = []
    for key, sides in cells.items():
        if set(sides) != {1, 2}:
            continue
        n = min(len(sides[1]), len(sides[2]))
        counts = {e: sides[e][sides[e]["game_index"] < n] for e in (1, 2)}
        rows.append({**labels(conditions[key]), "w1": float(counts[1]["agent_result"].sum()), "n1": len(counts[1]),
                     "w2": float(counts[2]["agent_result"].sum()), "n2": len(counts[2])})
    if not rows:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.DataFrame(rows)
    label_columns = [c for c in out.columns if c not in ("w1", "n1", "w2", "n2")]
    out = out.sort_values(label_columns, ignore_index=True)
    pooled = {c: (POOLED if c == pooled_column else None) for c in label_columns}
    out = pd.concat([out, pd.DataFrame([{**pooled, **out[["w1", "n1", "w2", "n2"]].sum().to_dict()}])],
                    ignore_index=True)
    result = []
    for r in out.itertuples(index=False):
        low1, high1 = wilson_interval(r.w1, r.n1)
        low2, high2 = wilson_interval(r.w2, r.n2)
        wins1, wins2 = round(r.w1), round(r.w2)  # a draw counts half: Fisher's test on whole wins
        low, high = confint_proportions_2indep(wins2, int(r.n2), wins1, int(r.n1), method="newcomb", compare="diff")
        result.append({"engine 1 games": int(r.n1), "engine 1 win %": 100 * r.w1 / r.n1,
                       "engine 1 95% interval": f"[{float(low1):.1f}, {float(high1):.1f}]",
                       "engine 2 games": int(r.n2), "engine 2 win %": 100 * r.w2 / r.n2,
                       "engine 2 95% interval": f"[{float(low2):.1f}, {float(high2):.1f}]",
                       "difference (2 - 1)": 100 * (r.w2 / r.n2 - r.w1 / r.n1), "low": 100 * low, "high": 100 * high,
                       "p (Fisher)": fisher_exact([[wins2, int(r.n2) - wins2], [wins1, int(r.n1) - wins1]])[1]})
    table = pd.concat([out[label_columns], pd.DataFrame(result)], axis=1)
    for column in label_columns:  # the pooled row names no cell: blank text labels (numbers stay missing)
        named = table[column].dropna()
        if len(named) and all(isinstance(v, str) for v in named):
            table[column] = table[column].where(table[column].notna(), "")
    is_cell = np.arange(len(table)) < len(table) - 1
    table["p (Holm)"] = np.nan
    table.loc[is_cell, "p (Holm)"] = multipletests(table.loc[is_cell, "p (Fisher)"], method="holm")[1]
    table["verdict"] = [
        ("different" if p_holm < 0.05 else "no difference detected") if cell else
        (f"the same (within ±{MARGIN:g})" if -MARGIN < low and high < MARGIN else
         "different" if low > 0 or high < 0 else "undecided")
        for cell, p_holm, low, high in zip(is_cell, table["p (Holm)"], table["low"], table["high"])]
    table["difference 95% interval"] = [f"[{low:+.1f}, {high:+.1f}]" for low, high in zip(table["low"], table["high"])]
    return table[label_columns + COLUMNS]


def check_summary(table: pd.DataFrame) -> str:
    """The engine check in a sentence (Markdown), from ``check_table``: the pooled row's rates, difference,
    interval and verdict, and how many cells differ after Holm's correction."""
    if not len(table):
        return "*No engine-check games stored.*"
    pooled, cells = table.iloc[-1], table.iloc[:-1]
    differ = int((cells["verdict"] == "different").sum())
    return (f"**Engine check**: pooled over {len(cells)} cells ({int(pooled['engine 2 games']):,} games at engine 2, "
            f"{int(pooled['engine 1 games']):,} at engine 1), engine 2's agents scored {pooled['engine 2 win %']:.1f}% "
            f"and engine 1's {pooled['engine 1 win %']:.1f}%: a difference of {pooled['difference (2 - 1)']:+.1f} "
            f"points, 95% interval {pooled['difference 95% interval']}, **{pooled['verdict']}**; {differ} of "
            f"{len(cells)} cells differ at 5% after Holm's correction.")


__all__ = ["MARGIN", "LEARNED_KINDS", "engines_differ", "folder", "engine_of", "check_table", "check_summary"]
