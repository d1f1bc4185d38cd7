"""Cazenave, "Playout Policy Adaptation with Move Features", TCS 2016 (Cazenave 2016): Tables 1-10.

Each cell of the paper: an algorithm (MAST, MASTF with parameter k; PPA, PPAF with parameter alpha) plays an
opponent (UCT, or PPAF in Tables 4 and 9) at 8x8 with the same playouts per move, 500 games, half per colour.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     Tables 2 and 10 (Breakthrough, Nogo), each algorithm at its best setting, 5x5, 20 playouts, 2 games
quick     every table, each algorithm at the setting the paper found best in that table (36 cells), 8x8,
          1,000 playouts (the paper: 10,000), 100 games a cell: about an hour on 2 cores; and the engine check
          (below: 32 cells, 6,400 games, 1,317 CPU s).  Enough to test the
          paper's qualitative claims between algorithms; cell values are expected to differ from the paper's,
          which were measured with ten times the playouts.
paper     all 346 cells exactly: 8x8, 10,000 playouts, 500 games a cell (a cluster), playout engine 2 (below)
========  =====================================================================================================

The playout engine (``playout_engine``; ``ppalib.agents.learned``): every committed game, the quick preset's,
was played with engine 1, which lists each playout ply's legal moves with their codes and weights and draws from
the list, as Cazenave's algorithms are written.  Engine 2 keeps each player's legal moves' weights in sum trees
updated move by move (``ppalib.kernels.incremental``): the same draw law and the same adapt to rounding
(``tests/test_incremental_playouts.py``), not the same games move for move, so it is part of the condition (its
cells are labelled ", engine 2" and have other ids).  The paper preset plays engine 2: measured
(``python -m ppalib bench --presets``, ``preset_costs``), its 346 cells cost 416 CPU-hours at engine 2 against 460
at engine 1, of which the committed games would save 3; engine 2 is faster at Atarigo and Nogo (a search 0.5-0.7
times engine 1's at 10,000 playouts), the same in the Breakthrough family (no incremental set: engine 2 plays as
engine 1) and 0.9-1.15 at Domineering.  Whether the two engines give the same results is measured, not assumed: the
quick preset's *engine check* (``engine_check_experiment``, ``engine_check_games`` = 200 a cell and engine) plays its
cells of Tables 1, 5, 6 and 10 (Atarigo, Domineering, Misere Domineering, Nogo: the games where the engines' games
differ) at both engines, and ``engine_check_table`` compares them cell by cell and pooled against
``ppalib.engine_check.MARGIN``.

The quick preset also plays, at the paper's 10,000 playouts (``claims_playouts``), the cells the paper's claims
rest on (``claim_cells``: each algorithm's best cell against UCT in the games of ``CLAIMS``, and MAST's and MASTF's
best cells against PPAF(1.28) of Tables 4 and 9), ``claims_games_per_cell`` = 16 games a cell: about an hour on 2
cores, enough to see a large difference between two algorithms (a 95% interval is about +-24 points), not a small
one.  ``claims(long, playouts=...)`` tests the claims at either budget.

Table 9's opponent is "PPAF" with no alpha in the paper; we use PPAF(1.28), the opponent of Table 4
(see ``data/paper/README.md``).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from ..agents import make_agent
from . import (C, GAMES_PER_CELL, MAX_GAMES, MAX_PLAYOUTS, PLAYOUT_ENGINE, SEED, UNTIL_DECIDED, Param,
               code_versions_line, integer, resolve_settings)
from ..experiments import Condition, Experiment, check_int

NAME = "ppaf2016"
PAPER_TABLE = "ppaf2016_tables.csv"
TABLE9_OPPONENT_ALPHA = 1.28
ALL_TABLES = list(range(1, 11))

PRESETS = {
    "smoke": dict(tables=[2, 10], grid="best", size=5, playouts=20, games_per_cell=2, engine_check_games=2),
    "quick": dict(tables=ALL_TABLES, grid="best", size=8, playouts=1000, games_per_cell=100,
                  claims_playouts=10000, claims_games_per_cell=16, engine_check_games=200),
    "paper": dict(tables=ALL_TABLES, grid="all", size=8, playouts=10000, games_per_cell=500, playout_engine=2,
                  engine_check_games=0),
}
#: Games until decided (``papers.UNTIL_DECIDED``), for the claims' cells at ``claims_playouts``: off unless asked;
#: then 16 games a batch up to 160 a cell.
DEFAULTS = dict(c=0.4, seed=2016, playout_engine=1, claims_playouts=None, claims_games_per_cell=16,
                until_decided="off", decide_batch=16, decide_cap=160, decide_cpu_seconds=None)
GRIDS = ("best", "all")
#: The notebook's own parameters (None: the preset's value).
PARAMETERS = {
    "tables": integer(1, 10, many=True),
    "grid": Param("choice", choices=GRIDS),
    "size": integer(4, 19),
    "playouts": integer(1, MAX_PLAYOUTS),
    "games_per_cell": GAMES_PER_CELL,
    "claims_playouts": integer(1, MAX_PLAYOUTS),  # None: no second budget
    "claims_games_per_cell": GAMES_PER_CELL,
    "c": C,
    "seed": SEED,
    "playout_engine": PLAYOUT_ENGINE,
    "engine_check_games": integer(0, MAX_GAMES),  # 0: no engine check
    **UNTIL_DECIDED,
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
    if result["claims_playouts"] is not None:
        result["claims_playouts"] = check_int("claims_playouts", result["claims_playouts"], 1, 10_000_000)
    result["claims_games_per_cell"] = check_int("claims_games_per_cell", result["claims_games_per_cell"], 1,
                                                10_000_000)
    return result


def best_cells(cells: pd.DataFrame) -> pd.DataFrame:
    """Per (table, algorithm) of the paper's ``cells``, its best cell: the first of the maxima of the paper's value
    in the transcribed table's order (ties, as Table 8's, go to the first)."""
    return cells.loc[cells.groupby(["table", "algorithm"], sort=False)["paper_win_rate"].idxmax().values]


def parameter_label(algorithm: str, value: float) -> str:
    """``alpha=0.32`` (PPA, PPAF) or ``k=4`` (MAST, MASTF)."""
    return f"{'alpha' if algorithm.startswith('ppa') else 'k'}={value:g}"


def claim_cells(s: dict) -> pd.DataFrame:
    """The paper's cells its claims rest on, among the tables of settings ``s``: per game of ``CLAIMS``, the best
    cell (by the paper's value) against UCT of each algorithm a claim there compares, and MAST's and MASTF's best
    cells against PPAF(1.28) (Tables 4 and 9)."""
    cells = paper_cells()
    cells = cells[cells["table"].isin(s["tables"])]
    best = best_cells(cells)
    wanted = {(game, algorithm) for _, a, b, games in CLAIMS for game in games for algorithm in (a, b)}
    compared = pd.Series([(g, a) in wanted for g, a in zip(best["game"], best["algorithm"])], index=best.index)
    against_uct = best[(best["opponent"] == "uct") & compared]
    against_ppaf = best[best["table"].isin([4, 9]) & best["algorithm"].isin(["mast", "mastf"])]
    return pd.concat([against_uct, against_ppaf]).reset_index(drop=True)


def selected_cells(s: dict) -> pd.DataFrame:
    """The paper's cells the settings ask for: every cell, or per (table, algorithm) the best one."""
    cells = paper_cells()
    cells = cells[cells["table"].isin(s["tables"])]
    if s["grid"] == "best":
        cells = best_cells(cells)
    return cells.reset_index(drop=True)


def _agent(kind: str, value: float, playouts: int, s: dict):
    """The learned-playout agent ``kind`` with its parameter ``value`` (PPA/PPAF alpha, MAST/MASTF k), and the
    settings' ``c`` and ``playout_engine``."""
    return make_agent(kind, playouts, c=s["c"], playout_engine=s["playout_engine"],
                      **({"alpha": value} if kind.startswith("ppa") else {"k": value}))


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    """The grid of Tables 1-10 for ``preset`` (see the module docstring), stored under ``results_dir``."""
    s = settings(preset, **overrides)
    conditions, games = [], {}

    def add(cells, playouts, count):
        for cell in cells.itertuples():
            opponent = (make_agent("uct", playouts, c=s["c"]) if cell.opponent == "uct"
                        else _agent("ppaf", cell.opponent_alpha, playouts, s))
            condition = Condition(cell.game, s["size"], _agent(cell.algorithm, cell.value, playouts, s),
                                  opponent)
            if condition not in conditions:
                conditions.append(condition)
                games[condition.id] = count

    add(selected_cells(s), s["playouts"], s["games_per_cell"])
    if s["claims_playouts"] is not None:
        add(claim_cells(s), s["claims_playouts"], s["claims_games_per_cell"])
    return Experiment(NAME, tuple(conditions), s["games_per_cell"], s["seed"], Path(results_dir),
                      games_by_condition={k: v for k, v in games.items() if v != s["games_per_cell"]} or None)


def decision_cells(experiment: Experiment, s: dict) -> pd.DataFrame:
    """The cells games until decided grows: the claims' cells at ``claims_playouts`` (the paper's budget), each
    with the paper's value (``paper_percent``) and games (``paper_games``); none without a claims budget."""
    columns = ["condition_id", "paper_percent", "paper_games"]
    if s["claims_playouts"] is None:
        return pd.DataFrame(columns=columns)
    rows = []
    for cell in claim_cells(s).itertuples():
        opponent = (make_agent("uct", s["claims_playouts"], c=s["c"]) if cell.opponent == "uct"
                    else _agent("ppaf", cell.opponent_alpha, s["claims_playouts"], s))
        condition = Condition(cell.game, s["size"], _agent(cell.algorithm, cell.value, s["claims_playouts"], s),
                              opponent)
        rows.append((condition.id, float(cell.paper_win_rate), float(cell.paper_games)))
    ids = {c.id for c in experiment.conditions}
    return pd.DataFrame(rows, columns=columns).drop_duplicates("condition_id").query("condition_id in @ids")


# ---- the engine check: the same cells at both playout engines ------------------------------------------------
def engine_check_experiment(results_dir, s: dict) -> Experiment | None:
    """The engine check of the settings ``s`` (``settings``): the grid's cells at ``playouts`` of the games where the
    engines' games differ (``engine_check.engines_differ``: Tables 1, 5, 6 and 10, Atarigo, Domineering, Misere
    Domineering, Nogo), each played with every learned-playout agent at engine 1 and at engine 2,
    ``engine_check_games`` games a cell and engine, stored in ``engine_check.folder(results_dir)``; None when
    ``engine_check_games`` is 0 or no such game is asked for.  Its experiment seed is the grid's, so that a condition id names the same games in
    every store: its engine-1 cells are the grid's own conditions, their first ``games_per_cell`` games the grid's
    (replayed here, the same moves), the rest as the grid would grow them; the engine-2 cells are new."""
    from ..engine_check import engines_differ, folder
    conditions = []
    for engine in (1, 2) if s["engine_check_games"] else ():
        at = {**s, "playout_engine": engine}
        for cell in selected_cells(at).itertuples():
            if not engines_differ(cell.game):
                continue
            opponent = (make_agent("uct", s["playouts"], c=s["c"]) if cell.opponent == "uct"
                        else _agent("ppaf", cell.opponent_alpha, s["playouts"], at))
            condition = Condition(cell.game, s["size"], _agent(cell.algorithm, cell.value, s["playouts"], at),
                                  opponent)
            if condition not in conditions:
                conditions.append(condition)
    if not conditions:
        return None
    return Experiment(f"{NAME}_engine_check", tuple(conditions), s["engine_check_games"], s["seed"],
                      folder(results_dir))


def engine_check_table(games: pd.DataFrame) -> pd.DataFrame:
    """The engine check's games (``engine_check_experiment``) compared cell by cell and pooled
    (``ppalib.engine_check.check_table``), each cell named by its table, game, algorithm, parameter, opponent and
    playouts."""
    from ..engine_check import check_table
    paper = paper_cells()

    def labels(condition):
        value = condition.agent.alpha if condition.agent.kind.startswith("ppa") else condition.agent.k
        table = paper[(paper["game"] == condition.game) & (paper["algorithm"] == condition.agent.kind)
                      & (paper["value"] == value) & (paper["opponent"] == condition.opponent.kind)]["table"]
        return {"table": int(table.iloc[0]) if len(table) else None, "game": condition.game,
                "algorithm": condition.agent.kind, "value": value, "opponent": condition.opponent.kind,
                "playouts": condition.agent.playouts}
    table = check_table(games, labels)
    for column in ("table", "playouts"):
        if column in table:
            table[column] = table[column].astype("Int64")  # the pooled row has none
    return table


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


def table_layout(long: pd.DataFrame, table: int, playouts: int | None = None) -> pd.DataFrame:
    """One of the paper's tables: a row per algorithm, a column per parameter value (ours / paper, verdict); with
    ``playouts``, only our cells played at that budget (the paper's cells we did not run at it stay empty)."""
    from ..report import format_cell
    cells = long[(long["table"] == table) & ((long["playouts"] == playouts) | long["games"].isna()
                                             if playouts is not None else True)]
    if cells.empty:
        return pd.DataFrame()
    cells = cells.assign(cell=cells.apply(format_cell, axis=1) + cells["same_playouts"].map({True: "", False: " †"}),
                         parameter_label=[parameter_label(a, v) for a, v in zip(cells["algorithm"], cells["value"])])
    layout = cells.set_index("algorithm")
    paper = paper_cells()
    best = best_cells(paper[paper["table"] == table]).set_index("algorithm")  # the cells the "best" grid plays
    rows, columns = [], []
    for algorithm in [a for a in ALGORITHMS if a in layout.index]:
        row = {"Algorithm": algorithm.upper()}
        ran = cells[(cells["algorithm"] == algorithm) & cells["games"].notna()].sort_values("value")
        for r in ran.itertuples():
            row[r.parameter_label] = r.cell
            if r.parameter_label not in columns:
                columns.append(r.parameter_label)
        row["paper's best"] = (f"{best.at[algorithm, 'paper_win_rate']:.1f} "
                               f"({parameter_label(algorithm, best.at[algorithm, 'value'])})")
        rows.append(row)
    from ..report import EQUIVALENCE_MARGIN, margin_header, with_key
    frame = pd.DataFrame(rows).set_index("Algorithm").reindex(columns=columns + ["paper's best"]).fillna("")
    frame.index.name = f"Algorithm (= within ±{EQUIVALENCE_MARGIN:g} points)"  # the margin in the header
    return with_key(frame, margin_header() + " †: played with other playouts than the paper's 10,000. The last "
                    "column: the paper's best cell of each algorithm in this table.")


def cells_at(long: pd.DataFrame, playouts: int) -> pd.DataFrame:
    """Our cells played at ``playouts``, one row each: table, game, algorithm, opponent, games, our win rate with
    its 95% interval, the paper's value (at its 10,000 playouts), the three-way verdict and the games that would
    decide it at our observed rate."""
    ran = long[(long["playouts"] == playouts) & long["games"].notna()]
    return pd.DataFrame({
        "table": ran["table"].astype(int), "game": ran["game"].map(TITLES),
        "algorithm": [f"{a.upper()}({v:g})" for a, v in zip(ran["algorithm"], ran["value"])],
        "opponent": ["UCT" if o == "uct" else f"PPAF({a:g})" for o, a in zip(ran["opponent"], ran["opponent_alpha"])],
        "games": ran["games"].astype(int), "ours": ran["win_rate"].round(1),
        "95% interval": [f"[{a:.1f}, {b:.1f}]" for a, b in zip(ran["ci_low"], ran["ci_high"])],
        "paper": ran["paper_win_rate"], "verdict": ran["verdict"],
        "games to decide": ran["games_to_decide"]}).sort_values(["table", "algorithm"])


CLAIMS = [
    ("PPAF > PPA", "ppaf", "ppa", ["breakthrough", "knightthrough", "nogo", "domineering", "misere_domineering"]),
    ("PPAF > MAST", "ppaf", "mast", ["breakthrough", "misere_breakthrough", "knightthrough", "misere_knightthrough",
                                     "nogo", "domineering"]),
    ("PPAF > MASTF", "ppaf", "mastf", ["breakthrough", "misere_breakthrough", "knightthrough",
                                       "misere_knightthrough", "nogo", "domineering"]),
]


def _label(row) -> str:
    """``PPAF(0.32) 68.0% [58.0, 76.9] of 100``: the cell's agent, win rate, its 95% interval (the anytime-valid
    one for a cell grown until decided) and games.  The interval carries no ``%``: the findings read the rates as
    the numbers followed by one."""
    name = row.algorithm.upper()
    low, high = row.get("ci_low", float("nan")), row.get("ci_high", float("nan"))
    interval = f" [{low:.1f}, {high:.1f}]" if low == low and high == high else ""  # a frame without intervals
    return f"{name}({row.value:g}) {row.win_rate:.1f}%{interval} of {int(row.games):,}"


#: The paper's sentences, quoted (section 4), by claim.
SENTENCES = {
    "PPAF > PPA": "In BREAKTHROUGH, KNIGHTTHROUGH, NOGO, DOMINEERING, and MISERE DOMINEERING, PPAF is an improvement "
                  "over PPA.",
    "PPAF > MAST": "In BREAKTHROUGH, MISERE BREAKTHROUGH, KNIGHTTHROUGH, MISERE KNIGHTTHROUGH, NOGO, and DOMINEERING, "
                   "PPAF is an improvement over MAST and MASTF.",
    4: "PPAF is much better than MAST and MASTF.",
    9: "PPAF is much better than MAST and MASTF at MISERE KNIGHTTHROUGH.",
}
SENTENCES["PPAF > MASTF"] = SENTENCES["PPAF > MAST"]
#: The games whose "PPAF > MAST/MASTF" claim Tables 4 and 9 test head to head (PPAF against MAST and MASTF): the
#: claim is tested there once, not again through the tables against UCT, where the paper itself has 100% vs 100%.
HEAD_TO_HEAD = {"misere_breakthrough": 4, "misere_knightthrough": 9}


def _paper_best(game: str, algorithm: str) -> float:
    cells = paper_cells()
    return float(cells[(cells["game"] == game) & (cells["algorithm"] == algorithm)
                       & (cells["opponent"] == "uct")]["paper_win_rate"].max())


def claims(long: pd.DataFrame, playouts: int | None = None) -> pd.DataFrame:
    """The paper's qualitative claims, each tested once on our data (with ``playouts``: on our cells at that
    budget only; without, on every cell we ran, which must then share one budget), two-sided.

    "A > B" at a game compares A's and B's best cells against UCT (best by our win rate among the cells we ran)
    by Fisher's exact test, two-sided (``report.claim_verdict``): *upheld* when A is significantly ahead,
    *contradicted* when B is, *not decided* otherwise.  Tables 4 and 9 ("PPAF is much better than MAST and MASTF"):
    the win rate of MAST's and MASTF's best cell against PPAF, two-sided exact binomial test against 50%.  A cell
    grown by games until decided (its game count chosen by the data) takes the anytime-valid tests instead
    (``claim_verdict``'s ``anytime_a`` / ``anytime_b``).

    Left out, so that no claim is counted twice and none is set up to fail: "PPAF > MAST/MASTF" at Misere
    Breakthrough and Misere Knightthrough against UCT (the paper has 100% vs 100% there, so the comparison cannot
    succeed; Tables 4 and 9 test those claims head to head), and any "A > B" whose paper values are not A > B.
    ``paper p``: the same two-sided test on the paper's own best cells (500 games each).  ``p (Holm)`` /
    ``verdict (Holm)``: Holm over the rows of this table (one budget); the reproduction report corrects over all
    of the paper's claims.
    """
    from scipy.stats import fisher_exact
    from ..report import claim_verdict, is_grown, with_holm
    ran = long[long["games"].notna()]
    if playouts is not None:
        ran = ran[ran["playouts"] == playouts]
    elif ran["playouts"].nunique() > 1:
        raise ValueError(f"the cells were played at several budgets ({sorted(ran['playouts'].unique())}): "
                         f"give playouts= to test the claims at one of them")
    rows = []
    for claim, a, b, games in CLAIMS:
        for game in games:
            if b in ("mast", "mastf") and game in HEAD_TO_HEAD:
                continue
            paper_a, paper_b = _paper_best(game, a), _paper_best(game, b)
            if not paper_a > paper_b:
                continue
            vs_uct = ran[(ran["game"] == game) & (ran["opponent"] == "uct")]
            best = {alg: vs_uct[vs_uct["algorithm"] == alg].sort_values("win_rate").tail(1) for alg in (a, b)}
            if any(v.empty for v in best.values()):
                continue
            ra, rb = best[a].iloc[0], best[b].iloc[0]
            result = claim_verdict(ra.wins, int(ra.games), rb.wins, int(rb.games), direction="greater",
                                   anytime_a=is_grown(ra), anytime_b=is_grown(rb))
            k_a, k_b = round(paper_a * 5), round(paper_b * 5)
            paper_p = fisher_exact([[k_a, 500 - k_a], [k_b, 500 - k_b]])[1]
            rows.append({"claim": claim, "sentence": SENTENCES[claim], "game": TITLES[game],
                         "A vs UCT": _label(ra), "B vs UCT": _label(rb),
                         "paper": f"{paper_a:.1f} vs {paper_b:.1f}", "paper p": paper_p,
                         "p": result.p_value, "verdict": result.verdict})
    for table in (4, 9):
        for alg in ("mast", "mastf"):
            cell = ran[(ran["table"] == table) & (ran["algorithm"] == alg)].sort_values("win_rate").tail(1)
            if cell.empty:
                continue
            r = cell.iloc[0]
            result = claim_verdict(r.wins, int(r.games), reference=50.0, direction="less", anytime_a=is_grown(r))
            paper_best = float(long.loc[(long["table"] == table) & (long["algorithm"] == alg),
                                        "paper_win_rate"].max())
            k = round(paper_best * 5)
            from scipy.stats import binomtest
            paper_p = binomtest(k, 500, 0.5).pvalue
            rows.append({"claim": f"PPAF > {alg.upper()} (Table {table})", "sentence": SENTENCES[table],
                         "game": TITLES[r.game], "A vs UCT": "", "B vs UCT": f"{_label(r)} vs PPAF(1.28)",
                         "paper": f"{alg.upper()} {paper_best:.1f} vs PPAF", "paper p": paper_p,
                         "p": result.p_value, "verdict": result.verdict})
    frame = pd.DataFrame(rows, columns=["claim", "sentence", "game", "A vs UCT", "B vs UCT", "paper", "paper p", "p",
                                        "verdict"])
    return with_holm(frame)


def verdict_counts(long: pd.DataFrame) -> pd.DataFrame:
    """Per table: cells run, games, and how many are reproduced / higher / lower / undecided
    (``report.cell_verdict`` at the stated margin)."""
    from ..report import CELL_VERDICTS
    ran = long[long["games"].notna()]
    counts = ran.groupby("table")["verdict"].value_counts().unstack(fill_value=0)
    counts = counts.reindex(columns=[v for v in CELL_VERDICTS], fill_value=0)
    counts.insert(0, "games", ran.groupby("table")["games"].sum().astype(int))
    counts.insert(0, "cells run", ran.groupby("table").size())
    return counts


def plot_sweeps(long: pd.DataFrame, *, style: str = "whitegrid", context: str = "paper"):
    """Win rate against alpha (PPA, PPAF) and k (MAST, MASTF) on log axes, a row per table: the paper's sweep (at
    its 10,000 playouts) as dashed lines with hollow diamonds, ours as points with 95% intervals, a marker per budget
    (filled circles at the paper's 10,000 playouts, hollow squares at any other), so that a cell played at fewer
    playouts is never read as the paper's setting.  One legend for the figure, above the panels, keeps the curves
    clear."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from matplotlib.lines import Line2D

    from ..report import error_bar_lengths
    sns.set_theme(style=style, context=context)
    ran = long[long["games"].notna()]
    present = sorted(set(ran["table"]))
    budgets = sorted(set(ran["playouts"].astype(int)), reverse=True)
    marker = {b: ("o" if b == 10000 else "s") for b in budgets}
    offset = {b: (0.0 if b == 10000 else 0.12) for b in budgets}  # octaves: the budgets' points side by side
    colors = {"mast": "C0", "mastf": "C1", "ppa": "C2", "ppaf": "C3"}
    fig, axes = plt.subplots(len(present), 2, figsize=(8, 2.3 * len(present) + 0.6), squeeze=False, sharey=True)
    for row, table in zip(axes, present):
        cells = long[long["table"] == table]
        for ax, pair in zip(row, (("mast", "mastf"), ("ppa", "ppaf"))):
            if not cells["algorithm"].isin(pair).any():
                ax.set_visible(False)  # Tables 4 and 9 have no PPA rows
                continue
            for algorithm in pair:
                rows = cells[cells["algorithm"] == algorithm]
                sweep = rows.drop_duplicates("value").sort_values("value")
                ax.plot(sweep["value"], sweep["paper_win_rate"], ls="--", marker="D", mfc="none", ms=4,
                        color=colors[algorithm], lw=1)
                for budget in budgets:
                    mine = rows[rows["games"].notna() & (rows["playouts"] == budget)]
                    if len(mine):
                        ax.errorbar(mine["value"] * 2 ** offset[budget], mine["win_rate"],
                                    yerr=error_bar_lengths(mine["win_rate"], mine["ci_low"], mine["ci_high"]),
                                    fmt=marker[budget], color=colors[algorithm], capsize=2, ms=5,
                                    mfc=colors[algorithm] if budget == 10000 else "white", clip_on=False)
            ax.set_xscale("log", base=2)
            ax.axhline(50, color="0.6", lw=0.8, zorder=0)
            ax.set_ylim(0, 100)
            opponent = "PPAF(1.28)" if table in (4, 9) else "UCT"
            ax.set_title(f"Table {table}: {TITLES[cells['game'].iloc[0]]} vs {opponent}", fontsize="small")
            ax.set_xlabel("k" if pair[0] == "mast" else "alpha")
        row[0].set_ylabel("win rate (%)")
    handles = [Line2D([], [], color=colors[a], lw=2, label=a.upper()) for a in colors]
    handles.append(Line2D([], [], color="0.3", ls="--", marker="D", mfc="none", ms=4, lw=1,
                          label="paper (10,000 playouts)"))
    handles += [Line2D([], [], color="0.3", ls="none", marker=marker[b], ms=5,
                       mfc="0.3" if b == 10000 else "white", label=f"ours, {b:,} playouts (95% interval)")
                for b in budgets]
    fig.legend(handles=handles, loc="upper center", ncol=4, fontsize="x-small", frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / (2.3 * len(present) + 0.6)))
    return fig


# ---- findings: the discussion's numbers, rendered from the store ---------------------------------------------
def _cells_line(long: pd.DataFrame, playouts: int) -> str:
    """Our cells at ``playouts`` against the paper's (10,000-playout) values: three-way verdict counts at the stated
    margin, overall and reproduced per game."""
    from ..report import counts_text, margin_words
    ran = long[(long["playouts"] == playouts) & long["games"].notna()]
    if ran.empty:
        return ""
    games = sorted(set(ran["games"].astype(int)))
    per_game = ran.groupby("game", sort=False)["verdict"].agg(lambda v: f"{(v == 'reproduced').sum()} of {len(v)}")
    return (f"* **Cells at {int(playouts):,} playouts** ({' or '.join(map(str, games))} games a cell, against the "
            f"paper's values at its 10,000; {margin_words()}): {len(ran)} cells, {counts_text(ran['verdict'])}; "
            f"reproduced per game: " + ", ".join(f"{TITLES[g]} {n}" for g, n in per_game.items()) + ".")


def _claims_lines(long: pd.DataFrame, playouts: int) -> list[str]:
    """The claims at ``playouts``: verdict counts on the raw two-sided p and after Holm's correction over the
    budget's claims, every claim decided on its raw p with both sides, raw and Holm p, and the undecided claims
    whose direction runs against the paper."""
    from ..report import claims_tally, p_text
    table = claims(long, playouts=playouts)
    if table.empty:
        return []
    lines = [f"* **Claims at {int(playouts):,} playouts** ({claims_tally(table)})."]

    def side(r):
        return f"{r['A vs UCT']} vs {r['B vs UCT']}" if r["A vs UCT"] else r["B vs UCT"]

    def against_paper(r):
        """B ahead of A (against UCT), or B above 50% against PPAF (Tables 4 and 9)."""
        import re
        rates = [float(x) for x in re.findall(r"([\d.]+)%", side(r))]
        return rates[0] < rates[1] if r["A vs UCT"] else rates[0] > 50

    for verdict in [v for v in table["verdict"].unique() if v != "not decided"]:
        rows = table[table["verdict"] == verdict]
        lines.append(f"  * *{verdict}* on its raw p: " + "; ".join(
            f"{r['claim']} at {r['game']} ({side(r)}; {p_text(r['p'])}, Holm {p_text(r['p (Holm)'])}: "
            f"{r['verdict (Holm)']})" for _, r in rows.iterrows()) + ".")
    against = table[(table["verdict"] == "not decided") & table.apply(against_paper, axis=1)]
    if len(against):
        lines.append("  * *not decided, the direction against the paper*: " + "; ".join(
            f"{r['claim']} at {r['game']} ({side(r)})" for _, r in against.iterrows()) + ".")
    return lines


def _head_to_head_line(long: pd.DataFrame, budgets: list[int]) -> str:
    """MAST's and MASTF's cells against PPAF(1.28) (Tables 4 and 9) at two budgets: their wins pooled per budget,
    Fisher's exact test between the budgets, and each cell.  Cells grown by games until decided are pooled too,
    with a caveat in the line: a pool of cells each stopped by its own data has no single anytime-valid sequence,
    so the fixed-sample p is then only indicative."""
    from scipy.stats import fisher_exact
    from ..report import is_grown
    if len(budgets) != 2:
        return ""
    cells = long[(long["opponent"] == "ppaf") & long["games"].notna() & long["playouts"].isin(budgets)]
    if set(cells["playouts"]) != set(budgets):
        return ""
    pooled = {b: (cells.loc[cells["playouts"] == b, "wins"].sum(), cells.loc[cells["playouts"] == b, "games"].sum())
              for b in budgets}
    (w1, n1), (w2, n2) = (pooled[b] for b in budgets)
    p_value = fisher_exact([[round(w1), n1 - round(w1)], [round(w2), n2 - round(w2)]]).pvalue

    def label(r):
        return f"Table {int(r.table)} {r.algorithm.upper()}({r.value:g})"

    per_cell = "; ".join(f"{label(r)} {r.win_rate:.1f}% of {int(r.games):,} games (paper {r.paper_win_rate:.1f}%)"
                         for r in cells[cells["playouts"] == budgets[1]].itertuples())
    grown = sum(is_grown(r) for _, r in cells.iterrows())
    caveat = (f"; {grown} of the {len(cells)} cells were grown by games until decided, so this fixed-sample p is "
              f"indicative only: it is not valid under that stopping" if grown else "")
    for b in budgets:  # a pool whose games are mostly one cell's speaks for that cell, not for the algorithms
        at = cells[cells["playouts"] == b]
        top = at.loc[at["games"].idxmax()]
        if 2 * top["games"] > at["games"].sum():
            caveat += (f"; at {b:,} playouts {int(top['games']):,} of the {int(at['games'].sum()):,} games are "
                       f"{label(top)}'s, so the pool there is mostly that one cell")
    return (f"* **MAST and MASTF against PPAF(1.28)** (Tables 4 and 9): {round(w1):,} wins of {int(n1):,} games at "
            f"{budgets[0]:,} playouts, {round(w2):,} of {int(n2):,} at {budgets[1]:,} (Fisher's exact test between "
            f"the budgets p = {p_value:.2g}{caveat}); at {budgets[1]:,}: {per_cell}.")


def _atarigo_budget_line() -> str:
    """Cazenave 2015's Table 1 at Atarigo 8x8, PPA against UCT at 1,000 and 10,000 playouts: how much the budget
    alone moves the game where the quick preset's cells are furthest below the paper."""
    from ..report import load_paper_table
    table = load_paper_table("ppa2015_table1.csv").query("game == 'atarigo' and size == 8").sort_values("playouts")
    return ("* **The budget at Atarigo in the earlier paper** (Cazenave 2015, Table 1, PPA against UCT, 8x8): "
            + ", ".join(f"{r.paper_win_rate:.1f}% at {int(r.playouts):,} playouts" for r in table.itertuples()) + ".")


def findings(frame: pd.DataFrame, long: pd.DataFrame, s: dict) -> str:
    """What the stored games say, in sentences computed from them (``frame``: the stored games; ``long``:
    ``tables(frame)``; ``s``: the settings): no number is written by hand."""
    budgets = [b for b in (s["playouts"], s.get("claims_playouts")) if b]
    lines = [code_versions_line(frame)] if len(frame) else []
    for playouts in budgets:
        lines += [line for line in [_cells_line(long, playouts)] if line]
        lines += _claims_lines(long, playouts)
    line = _head_to_head_line(long, budgets)
    lines += [line] if line else []
    if "atarigo" in set(long.loc[long["games"].notna(), "game"]):
        lines.append(_atarigo_budget_line())
    return "\n".join(lines)
