"""The reproduction report (notebook 00): every reproduced cell of every paper beside the paper's value, per paper
and per budget how many cells are reproduced / differ / undecided, and each paper's claims with raw and
Holm-corrected p, gathered from the stored results by each paper's own tables.

It plays no game (``PLAYS_GAMES = False``): it reads the results the other notebooks store, through their paper
modules (``ppa2015.table1``, ``ppaf2016.tables`` and ``claims``, ``adaptive_rave2013.figure_table`` and
``headline``, ``soemers2019.frames`` with ``soemers2019_report.claims_table``), so its verdicts are exactly theirs.

What it reads (parameter ``read``):

* ``"committed"``: each paper's committed results (``data/results/<paper>``), the games of its committed grid
  (preset ``quick``): what the committed notebooks and figures show.
* ``"preset"``: each paper's results at the report's own preset, where that paper's notebook writes them
  (``output/<preset>/results/<paper>``), the games of that preset's grid; a paper with nothing stored there yet
  is read from its committed results instead, and the report says so per paper.  At ``quick`` both are the same.

Presets: ``quick`` (the committed report) reads the committed results; ``smoke`` and ``paper`` read their own
preset's results where present.  ``reproduce`` runs this notebook first (00 sorts first), so in a fresh clone
``smoke`` finds no smoke results yet and reads the committed ones (marked so); a paper with no results at all is
shown as "not run yet".

A cell here is one number the paper publishes that we measured: PPA 2015's Table 1 (win rate vs UCT), PPAF 2016's
Tables 1-10, adaptive RAVE 2013's four headline percentages (optimal draws).  Its verdict is the paper module's
three-way verdict (``report.cell_verdict``): *reproduced* when the 95% interval of ours minus the paper lies inside
``report.EQUIVALENCE_MARGIN`` points, *higher* / *lower* when it excludes 0, *undecided* otherwise; the p of
``report.paper_test`` stays beside it.  Counts are given per paper and per budget (our playouts, and the games a
cell), never pooled across them: a 16-game cell and a 500-game cell do not decide alike.  ``paper_budget`` says
whether we played the paper's playouts and board: a cell at another budget (PPAF 2016's 1,000 playouts, the
paper's 10,000) is compared all the same, but a difference there is expected.  Soemers 2019 publishes curves,
not a table: it is judged by its claims only.

Claims: each paper's claims as its module tests them, with the raw p and the Holm-corrected p over the claims its
notebook corrects together (``HOLM_FAMILY``: all of the paper's, or each budget's or run's), and the verdict after
the correction.  Cells are not corrected for
multiplicity: each is one test at 5%, so among n cells that truly agree, up to about 5% may still be called
"higher" or "lower"; the report says so beside the counts.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..report import ALPHA, CELL_VERDICTS, EQUIVALENCE_MARGIN, error_bar_lengths, holm_verdicts, paper_test_name
from . import COMMITTED_PRESET, Param, resolve_settings

NAME = "summary"
PLAYS_GAMES = False
#: Paper module -> (notebook stem, short title).
PAPERS = {
    "ppa2015": ("01_ppa_2015", "PPA (Cazenave 2015), Table 1"),
    "ppaf2016": ("02_ppaf_2016", "PPAF (Cazenave 2016), Tables 1-10"),
    "adaptive_rave2013": ("03_adaptive_rave_2013", "Adaptive RAVE (Mehat & Vittaut 2013), headline"),
    "soemers2019": ("04_feature_biasing_2019", "Feature biasing (Soemers et al. 2019), claims"),
}
READS = ("committed", "preset")
PRESETS = {
    "smoke": dict(papers=list(PAPERS), read="preset"),
    "quick": dict(papers=list(PAPERS), read="committed"),
    "paper": dict(papers=list(PAPERS), read="preset"),
}
DEFAULTS: dict = {}
#: The notebook's own parameters (None: the preset's value).
PARAMETERS = {
    "papers": Param("choice", many=True, choices=tuple(PAPERS)),
    "read": Param("choice", choices=READS),
}
VERDICTS = CELL_VERDICTS  # reproduced, higher, lower, undecided
NOT_RUN = "not run yet"
CELL_COLUMNS = ["paper", "budget", "cell", "measure", "games", "ours", "ci_low", "ci_high", "paper_value",
                "paper_games", "difference", "verdict", "games_to_decide", "p_value", "test", "ours_playouts",
                "paper_playouts", "paper_budget"]
CLAIM_COLUMNS = ["paper", "budget", "claim", "sentence", "ours", "p_value", "p_holm", "verdict", "verdict_holm",
                 "outcome", "paper_budget"]
#: The claims a paper's notebook corrects together (Holm), where not all of the paper's, as a function of the
#: claims table giving each claim's family: notebook 02 corrects each budget's table of claims on its own, notebook
#: 04 its own run's table and the budget run's apart; the report does the same and shows the notebooks' corrected p.
HOLM_FAMILY = {"ppaf2016": lambda claims: claims["budget"],
               "soemers2019": lambda claims: claims["budget"].str.endswith("(budget run)")}
#: A claim's outcome after Holm's correction (Soemers 2019's module still says "not upheld" for a failed claim).
OUTCOMES = ("upheld", "contradicted", "higher than the paper", "lower than the paper", "not decided", "not upheld",
            "untested")


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored)."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    papers = result["papers"] if isinstance(result["papers"], (list, tuple)) else [result["papers"]]
    result["papers"] = [p for p in PAPERS if p in papers]  # the notebooks' order
    return result


@dataclass(frozen=True)
class Source:
    """Where the report reads one paper's games: the folder, and the preset whose grid selects them."""
    paper: str
    results_dir: Path
    preset: str
    committed: bool  # the committed results (``data/results/<paper>``)

    @property
    def exists(self) -> bool:
        return any(Path(self.results_dir).glob("part-*.parquet"))

    def describe(self) -> str:
        """What is read, with the folder relative to the project (no machine path in a report)."""
        where = "committed results" if self.committed else f"{self.preset} results"
        folder = Path(self.results_dir)
        try:
            folder = folder.absolute().relative_to(paths.ROOT)
        except ValueError:
            folder = Path(folder.name)
        return f"{self.paper}: {where} {folder.as_posix()}" + ("" if self.exists else f" ({NOT_RUN})")


def sources(preset: str = "quick", **overrides) -> tuple[Source, ...]:
    """The folder read for each paper of the settings (module docstring): the preset's own results when asked
    for and present, else the committed ones.  Reads nothing yet."""
    s = settings(preset, **overrides)
    found = []
    for paper in s["papers"]:
        own = Source(paper, paths.OUTPUT / preset / "results" / paper, preset, False)
        use_own = s["read"] == "preset" and preset != COMMITTED_PRESET and own.exists
        found.append(own if use_own else Source(paper, paths.RESULTS / paper, COMMITTED_PRESET, True))
    return tuple(found)


def _module(paper: str):
    return importlib.import_module(f"{__package__}.{paper}")


def _tests_of(ran: pd.DataFrame) -> list:
    """The test ``compare_with_paper`` gave each cell's p (``report.paper_test``: anytime-valid for a cell grown
    until decided); None where the paper has no value (filled later)."""
    from ..report import is_grown
    return [paper_test_name(r.paper_win_rate, r.paper_games, is_grown(r)) if pd.notna(r.paper_win_rate) else None
            for r in ran.itertuples()]


# ---- cells and claims per paper --------------------------------------------------------------------------------
def _ppa2015(source: Source, data) -> tuple[pd.DataFrame, pd.DataFrame]:
    module = _module("ppa2015")
    long = module.table1(data)
    ran = long[long["games"].notna()]
    cells = pd.DataFrame({
        "cell": [f"{module.TITLES.get(r.game, r.game)} {r.size}x{r.size}, {r.playouts:,} playouts: PPA vs UCT"
                 for r in ran.itertuples()],
        "measure": "win rate (%)", "games": ran["games"], "ours": ran["win_rate"], "ci_low": ran["ci_low"],
        "ci_high": ran["ci_high"], "paper_value": ran["paper_win_rate"], "paper_games": ran["paper_games"],
        "verdict": ran["verdict"], "games_to_decide": ran["games_to_decide"], "p_value": ran["p_value"],
        "test": _tests_of(ran),
        "ours_playouts": ran["playouts"], "paper_playouts": ran["playouts"].where(ran["paper_win_rate"].notna())})
    table = module.claims(long)
    claims = pd.DataFrame({"claim": [f"{c} ({cell})" for c, cell in zip(table["claim"], table["cell"])],
                           "sentence": table["claim"],
                           "ours": [f"{o:.1f}% {i} of {g} games (paper {p:g}%)" for o, i, g, p in
                                    zip(table["ours"], table["ours 95% interval"], table["games"], table["paper"])],
                           "p_value": table["p"], "verdict": table["verdict"],
                           "budget": [cell.split(", ")[-1] for cell in table["cell"]], "paper_budget": True})
    return cells, claims


def _ppaf2016(source: Source, data) -> tuple[pd.DataFrame, pd.DataFrame]:
    module = _module("ppaf2016")
    long = module.tables(data)
    ran = long[long["games"].notna()]
    opponent = ["UCT" if r.opponent == "uct" else f"PPAF({r.opponent_alpha:g})" for r in ran.itertuples()]
    cells = pd.DataFrame({
        "cell": [f"Table {r.table:g} {module.TITLES.get(r.game, r.game)} {r.size:g}x{r.size:g}: "
                 f"{r.algorithm.upper()}({module.parameter_label(r.algorithm, r.value)}) vs {o}"
                 for r, o in zip(ran.itertuples(), opponent)],
        "measure": "win rate (%)", "games": ran["games"], "ours": ran["win_rate"], "ci_low": ran["ci_low"],
        "ci_high": ran["ci_high"], "paper_value": ran["paper_win_rate"], "paper_games": ran["paper_games"],
        "verdict": ran["verdict"], "games_to_decide": ran["games_to_decide"], "p_value": ran["p_value"],
        "test": _tests_of(ran),
        "ours_playouts": ran["playouts"], "paper_playouts": np.where(ran["paper_win_rate"].notna(), 10000, np.nan),
        "size": ran["size"]})
    cells["paper_budget"] = (cells["ours_playouts"] == 10000) & (cells.pop("size") == 8)
    budgets = []
    for playouts in sorted(ran["playouts"].unique()):  # the claims tested at each budget played
        at = ran[ran["playouts"] == playouts]
        table = module.claims(long, playouts=playouts)
        if not len(table):
            continue
        budgets.append(pd.DataFrame({
            "claim": [f"{r.claim} at {r.game}" for r in table.itertuples()], "sentence": table["sentence"],
            "ours": [f"A: {a}; B: {b}".replace("A: ; ", "") for a, b in zip(table["A vs UCT"], table["B vs UCT"])],
            "p_value": table["p"], "verdict": table["verdict"], "budget": f"{int(playouts):,} playouts",
            "paper_budget": bool(playouts == 10000 and (at["size"] == 8).all())}))
    claims = pd.concat(budgets, ignore_index=True) if budgets else pd.DataFrame(columns=CLAIM_COLUMNS)
    return cells, claims


def _adaptive_rave2013(source: Source, data) -> tuple[pd.DataFrame, pd.DataFrame]:
    module = _module("adaptive_rave2013")
    s = module.settings(source.preset)
    table = module.figure_table(data, s)
    head = module.headline(table)
    extra = table.loc[head.index]
    paper_playouts = 2000  # section 7's four numbers: Figures 3 and 4, 2,000 playouts
    cells = pd.DataFrame({
        "cell": [f"{g}: {setting} (Figure {f:g}), self-play" for g, setting, f in
                 zip(head["game"], head["setting"], extra["figure"])],
        "measure": "optimal draws (%)", "games": head["matches"], "ours": head["rate"], "ci_low": head["ci_low"],
        "ci_high": head["ci_high"], "paper_value": head["paper_optimal_draws"], "paper_games": extra["paper_matches"],
        "verdict": head["verdict"], "games_to_decide": head["games_to_decide"], "p_value": head["p_value"],
        "test": head["test"], "ours_playouts": s["playouts"], "paper_playouts": paper_playouts})
    table = module.claims(table)
    claims = pd.DataFrame({"claim": [f"adapts its use of RAVE at {g}" for g in table["game"]],
                           "sentence": module.ADAPTS_SENTENCE,
                           "ours": [f"{o}; difference {d}" for o, d in zip(table["ours"],
                                                                            table["difference [95% interval]"])],
                           "p_value": table["p"], "verdict": table["verdict"],
                           "budget": f"{s['playouts']:,} playouts", "paper_budget": s["playouts"] == paper_playouts})
    return cells, claims


def _soemers2019(source: Source, data) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The claims on the notebook's own run (at ``source``'s preset), then those on the committed budget run
    (``soemers2019.budget_run``: the claims about the final checkpoint at the paper's 5 s, the others at its
    evaluation budget), each with the budget it was tested at."""
    report = _module("soemers2019_report")
    paper = _module("soemers2019")
    evaluations, slowdowns = (data["evaluations"], data["slowdowns"]) if data is not None else (None, None)
    table = report.claims_table(evaluations, slowdowns)
    s = paper.settings(source.preset)
    at_paper_budget = s == paper.settings("paper")
    own = f"{s['playouts']:,} iterations" if s["budget"] == "fixed" else "the paper's 5 s"
    claims = pd.DataFrame({
        "claim": table["claim"], "sentence": table["paper"] if "paper" in table.columns else "",
        "ours": table["ours"], "p_value": table["p_value"], "verdict": table["verdict"],
        "budget": f"{own} ({source.preset} run)", "paper_budget": at_paper_budget})
    run = paper.budget_run()
    if run["exists"]:
        budget = report.budget_claims(run)
        at_budget = budget["claim_id"].isin(report.AT_PAPER_BUDGET)
        seconds = report.claims_seconds(run)
        claims = pd.concat([claims, pd.DataFrame({
            "claim": budget["claim"], "sentence": budget["paper"], "ours": budget["ours"],
            "p_value": budget["p_value"], "verdict": budget["verdict"],
            "budget": np.where(at_budget, f"Ludii {seconds:g} s, equal time (budget run)",
                               f"{int(run['settings']['playouts']):,} iterations (budget run)"),
            "paper_budget": at_budget.to_numpy()})], ignore_index=True)
    return pd.DataFrame(columns=CELL_COLUMNS), claims


_GATHER = {"ppa2015": _ppa2015, "ppaf2016": _ppaf2016, "adaptive_rave2013": _adaptive_rave2013,
           "soemers2019": _soemers2019}


def read(source: Source):
    """The stored games of ``source`` (``soemers2019``: its frames), or None when nothing is stored there."""
    if not source.exists:
        return None
    module = _module(source.paper)
    experiment = module.make_experiment(source.results_dir, source.preset)
    if source.paper == "soemers2019":
        return module.frames(experiment)
    from ..experiments import load_results
    from ..until_decided import mark_grown, with_ledger
    experiment = with_ledger(experiment)  # cells grown by games until decided, with all their games
    frame = mark_grown(load_results(experiment), experiment)
    return frame if len(frame) else None


@dataclass(frozen=True)
class Gathered:
    """Every cell (``cells``, columns ``CELL_COLUMNS``), every claim (``claims``, ``CLAIM_COLUMNS``), and per
    paper what was read (``read``: paper -> the source's description, or "not run yet")."""
    cells: pd.DataFrame
    claims: pd.DataFrame
    sources: tuple[Source, ...]
    read: dict


def gather(sources_: tuple[Source, ...] | list[Source]) -> Gathered:
    """Read each source and gather its cells and claims through the paper module's own tables.

    A paper with nothing stored contributes no cell; its claims (Soemers 2019) are listed as untested."""
    all_cells, all_claims, read_from = [], [], {}
    for source in sources_:
        data = read(source)
        read_from[source.paper] = source.describe()
        if data is None and source.paper != "soemers2019":
            continue
        cells, claims = _GATHER[source.paper](source, data)
        claims = _with_holm(claims.reindex(columns=[c for c in CLAIM_COLUMNS if c != "paper"]),
                            HOLM_FAMILY.get(source.paper))
        if source.paper == "soemers2019" and data is None:
            claims["outcome"] = "untested"
        for frame in (cells, claims):
            frame["paper"] = source.paper
        all_cells.append(cells)
        all_claims.append(claims)
    cells = pd.concat([c.reindex(columns=CELL_COLUMNS) for c in all_cells if len(c)] or
                      [pd.DataFrame(columns=CELL_COLUMNS)], ignore_index=True)
    cells["difference"] = cells["ours"] - cells["paper_value"]
    cells["test"] = [t if isinstance(t, str) else paper_test_name(v, n) if pd.notna(v) else ""
                     for t, v, n in zip(cells["test"], cells["paper_value"], cells["paper_games"])]
    cells["paper_budget"] = [bool(b) if isinstance(b, (bool, np.bool_)) else bool(o == p)
                             for b, o, p in zip(cells["paper_budget"], cells["ours_playouts"], cells["paper_playouts"])]
    cells["games"] = cells["games"].astype(int)
    cells["budget"] = [budget_label(o, p) for o, p in zip(cells["ours_playouts"], cells["paper_playouts"])]
    claims = pd.concat([c.reindex(columns=CLAIM_COLUMNS) for c in all_claims if len(c)] or
                       [pd.DataFrame(columns=CLAIM_COLUMNS)], ignore_index=True)
    return Gathered(cells, claims, tuple(sources_), read_from)


def _outcome(verdict) -> str:
    verdict = str(verdict)
    if verdict.startswith("untested"):
        return "untested"
    return verdict if verdict in OUTCOMES else "not upheld"


def _with_holm(claims: pd.DataFrame, family=None) -> pd.DataFrame:
    """One paper's claims with Holm's correction (``p_holm``, ``verdict_holm``) and the outcome after it: over all
    of them, or over each group of claims with equal ``family(claims)`` (``HOLM_FAMILY``); untested claims (no p)
    stay out of the family."""
    claims = claims.copy()
    claims["p_holm"] = np.nan
    claims["verdict_holm"] = ""
    groups = claims.groupby(family(claims), sort=False).groups.values() if family else [claims.index]
    for rows in groups:
        part = claims.loc[rows]
        p = pd.to_numeric(part["p_value"], errors="coerce").to_numpy(dtype=float)
        adjusted, verdicts = holm_verdicts(part["verdict"].tolist(), p, ALPHA)
        # a verdict another module words differently ("not upheld") is not a claim verdict: it stands as it is
        claims.loc[rows, "p_holm"] = adjusted
        claims.loc[rows, "verdict_holm"] = [v if isinstance(v, str) else "" for v in verdicts]
    claims["outcome"] = [_outcome(v) for v in claims["verdict_holm"]]
    return claims


def budget_label(ours_playouts, paper_playouts) -> str:
    """``1,000 playouts (paper: 10,000)``, or ``10,000 playouts`` at the paper's budget."""
    if pd.isna(ours_playouts):
        return ""
    same = pd.isna(paper_playouts) or ours_playouts == paper_playouts
    return f"{ours_playouts:,.0f} playouts" + ("" if same else f" (paper: {paper_playouts:,.0f})")


# ---- tables ------------------------------------------------------------------------------------------------------
def notebook_link(paper: str, relative_to: Path | None = None) -> str:
    """A relative Markdown link to the paper's notebook, from ``relative_to`` (default: the notebooks folder)."""
    stem = PAPERS[paper][0]
    target = f"{stem}.ipynb" if relative_to is None else \
        os.path.relpath(paths.NOTEBOOKS / f"{stem}.ipynb", Path(relative_to).absolute())
    return f"[{stem}]({Path(target).as_posix()})"


def _games_range(games: pd.Series) -> str:
    low, high = int(games.min()), int(games.max())
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def paper_summary(gathered: Gathered, relative_to: Path | None = None) -> pd.DataFrame:
    """One row per paper and budget: what was read, the cells with a paper value, the games a cell (a range when
    they differ) and in all, how many cells are reproduced / higher / lower / undecided at the stated margin, and
    (on the paper's first row) its claims by outcome after Holm's correction; ``notebook`` links to the paper's
    notebook, where each difference is discussed.  No share is pooled across budgets or game counts."""
    rows = []
    for source in gathered.sources:
        paper = source.paper
        cells = gathered.cells[(gathered.cells["paper"] == paper) & gathered.cells["verdict"].isin(VERDICTS)]
        claims = gathered.claims[gathered.claims["paper"] == paper]
        read_text = (("committed results" if source.committed else f"{source.preset} results") if source.exists
                     else NOT_RUN)
        common = {"paper": PAPERS[paper][1], "notebook": notebook_link(paper, relative_to), "read": read_text,
                  "margin (points)": EQUIVALENCE_MARGIN}
        claim_counts = {"claims": len(claims), **{f"claims {o}": int((claims["outcome"] == o).sum())
                                                  for o in OUTCOMES}}
        budgets = list(dict.fromkeys(cells["budget"])) or [""]
        for i, budget in enumerate(budgets):
            mine = cells[cells["budget"] == budget]
            row = {**common, "budget": budget, "cells": len(mine),
                   "games a cell": _games_range(mine["games"]) if len(mine) else "",
                   "games": int(mine["games"].sum()),
                   **{v: int((mine["verdict"] == v).sum()) for v in VERDICTS},
                   **(claim_counts if i == 0 else {k: "" for k in claim_counts})}  # counted once per paper
            rows.append(row)
    return pd.DataFrame(rows)


def cells_table(gathered: Gathered) -> pd.DataFrame:
    """Every cell, for reading: paper, budget, cell, ours [95% interval], games, the paper's value, the three-way
    verdict, the games that would decide it, the paper test's p and which test."""
    c = gathered.cells
    return pd.DataFrame({
        "notebook": c["paper"].map(lambda p: PAPERS[p][0]), "budget": c["budget"], "cell": c["cell"],
        "measure": c["measure"],
        "ours [95% interval]": [f"{o:.1f} [{lo:.1f}, {hi:.1f}]" for o, lo, hi in zip(c["ours"], c["ci_low"],
                                                                                     c["ci_high"])],
        "games": c["games"],
        "paper": c["paper_value"].map(lambda v: "—" if pd.isna(v) else f"{v:g}"),
        f"verdict (±{EQUIVALENCE_MARGIN:g} points)": c["verdict"],
        "games to decide": [("—" if v == "undecided" else "") if pd.isna(n) else f"{int(n):,}"
                            for n, v in zip(c["games_to_decide"], c["verdict"])],
        "p": c["p_value"], "test": c["test"].fillna(""),
    })


def claims_table(gathered: Gathered) -> pd.DataFrame:
    """Every claim tested: paper, budget, claim, ours, raw p, Holm-corrected p (``HOLM_FAMILY``), the
    verdict before and after the correction, and the outcome."""
    c = gathered.claims
    return pd.DataFrame({"notebook": c["paper"].map(lambda p: PAPERS[p][0]), "budget": c["budget"],
                         "claim": c["claim"], "ours": c["ours"],
                         "p": pd.to_numeric(c["p_value"], errors="coerce"),
                         "p (Holm)": pd.to_numeric(c["p_holm"], errors="coerce"), "verdict": c["verdict"],
                         "verdict (Holm)": c["verdict_holm"], "outcome": c["outcome"],
                         "at the paper's budget": c["paper_budget"]})


#: The notebooks whose undecided cells games until decided grows (``python -m ppalib until-decided``).
GROWN = {"ppa2015": "Table 1", "ppaf2016": "the claims' cells at 10,000 playouts",
         "future_work": "the 10,000-playout cells against PPAF (reference 50%)"}


def until_decided_table() -> pd.DataFrame:
    """Per notebook that games until decided grows, from its committed results: the cells it may grow, and before
    growth (planned games, fixed-sample verdicts) and now (grown cells by their anytime-valid interval) how many are
    reproduced / higher / lower / undecided, with the games behind them."""
    from . import decision_table, prepare
    rows = []
    for name, cells in GROWN.items():
        paper = _module(name)
        if not any((paths.RESULTS / name).glob("part-*.parquet")):
            continue
        setup = prepare(paper, COMMITTED_PRESET)
        for when, table in (("before", decision_table(paper, setup, planned_only=True)),
                            ("now", decision_table(paper, setup))):
            rows.append({"notebook": f"{NOTEBOOK_OF.get(name, name)}", "cells": cells, "when": when,
                         "cell count": len(table), "games": int(table["games"].sum()),
                         "grown": int(table["grown"].sum()),
                         **{v: int((table["verdict"] == v).sum()) for v in VERDICTS}})
    return pd.DataFrame(rows)


NOTEBOOK_OF = {"ppa2015": "01_ppa_2015", "ppaf2016": "02_ppaf_2016", "future_work": "05_future_work"}


# ---- figure ------------------------------------------------------------------------------------------------------
VERDICT_COLOURS = {"reproduced": "#029e73", "higher": "#0173b2", "lower": "#d55e00", "undecided": "#949494"}


def plot_cells(gathered: Gathered, *, style: str = "whitegrid", context: str = "paper"):
    """Ours against the paper's value, every cell with a paper value, one panel per paper: our value with its 95%
    interval, coloured by verdict, hollow where we played another budget than the paper; the diagonal is
    agreement."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from matplotlib.lines import Line2D
    sns.set_theme(style=style, context=context)
    cells = gathered.cells[gathered.cells["verdict"].isin(VERDICTS)]
    papers = [s.paper for s in gathered.sources if (cells["paper"] == s.paper).any()]
    fig, axes = plt.subplots(1, max(1, len(papers)), figsize=(4.2 * max(1, len(papers)), 4.4), squeeze=False)
    for ax, paper in zip(axes[0], papers):
        mine = cells[cells["paper"] == paper]
        ax.plot([0, 100], [0, 100], color="0.6", lw=0.8, zorder=0)
        for verdict, colour in VERDICT_COLOURS.items():
            for same, group in mine[mine["verdict"] == verdict].groupby("paper_budget"):
                ax.errorbar(group["paper_value"], group["ours"],
                            yerr=error_bar_lengths(group["ours"], group["ci_low"], group["ci_high"]),
                            fmt="o", ms=4.5, capsize=1.5, lw=0.8, color=colour,
                            mfc=colour if same else "white", mec=colour)
        tally = ", ".join(f"{int((mine['verdict'] == v).sum())} {v}" for v in VERDICTS)
        ax.set_title(f"{PAPERS[paper][1]}\n{tally}", fontsize="small")
        ax.set_xlim(-2, 102)
        ax.set_ylim(-2, 102)
        ax.set_aspect("equal")
        ax.set_xlabel(f"paper's {mine['measure'].iloc[0]}")
        ax.set_ylabel(f"our {mine['measure'].iloc[0]} (95% interval)")
    if not papers:
        axes[0][0].text(0.5, 0.5, "no cell with a paper value was read", ha="center", va="center",
                        transform=axes[0][0].transAxes)
        axes[0][0].set_axis_off()
    handles = [Line2D([], [], marker="o", ls="", color=c, label=v) for v, c in VERDICT_COLOURS.items()]
    handles += [Line2D([], [], marker="o", ls="", color="0.3", mfc="white", label="another budget than the paper's"),
                Line2D([], [], color="0.6", lw=0.8, label="ours = paper")]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize="small", bbox_to_anchor=(0.5, -0.05))
    fig.tight_layout()
    return fig


# ---- closing note ------------------------------------------------------------------------------------------------
def closing_note(gathered: Gathered) -> str:
    """Markdown from the gathered numbers: the margin and what the counts mean, then per paper and per budget the
    cells reproduced / higher / lower / undecided with their games, the cells that differ, the claims after Holm's
    correction, and the link to the discussion.  No share is pooled across papers, budgets or game counts."""
    summary = paper_summary(gathered)
    paragraphs = [f"Verdicts at an equivalence margin of ±{EQUIVALENCE_MARGIN:g} points: a cell is *reproduced* when "
                  f"the 95% interval of ours minus the paper lies inside it, *higher* or *lower* when the interval "
                  f"excludes 0, *undecided* otherwise (more games would tell). Each cell is one test at 5%, not "
                  f"corrected for multiplicity: among cells that truly agree, about 1 in 20 may still be called "
                  f"higher or lower. Claims are corrected by Holm's method over the claims each paper's notebook "
                  f"corrects together (raw and corrected p in the claims table); a claim counts as upheld or "
                  f"contradicted only after the correction."]
    for source in gathered.sources:
        rows = summary[summary["notebook"] == notebook_link(source.paper)]
        first = rows.iloc[0]
        head = f"**{first['paper']}** ({first['notebook']}; {first['read']})"
        if first["read"] == NOT_RUN:
            text = f"{head}: no results stored yet."
        elif rows["cells"].sum():
            parts = []
            for _, row in rows[rows["cells"] > 0].iterrows():
                counts = ", ".join(f"{row[v]} {v}" for v in VERDICTS)
                parts.append(f"at {row['budget']}, {row['cells']} cells of {row['games a cell']} games a cell "
                             f"({row['games']:,} games): {counts}")
            text = f"{head}: " + "; ".join(parts) + "."
            cells = gathered.cells[(gathered.cells["paper"] == source.paper)
                                   & gathered.cells["verdict"].isin(("higher", "lower"))]
            for budget, at in cells.groupby("budget", sort=False):  # a cell's title does not name its budget
                text += f" Differ at {budget}: " + "; ".join(f"{r.cell} (ours {r.ours:.1f}, paper {r.paper_value:g})"
                                                             for r in at.itertuples()) + "."
            if source.paper == "ppaf2016":
                text += (" Each algorithm is played at the paper's best setting of its sweep, where the paper's value "
                         "is the maximum of several noisy cells (a winner's curse): expect ours somewhat lower there "
                         "even where the algorithms are the same.")
        else:
            text = (f"{head}: no cell with a paper value (this paper publishes curves, not a table)."
                    if source.paper == "soemers2019" else f"{head}: no cell of the paper's grid in what was read.")
        if first["claims"]:
            counts = ", ".join(f"{first[f'claims {o}']} {o}" for o in OUTCOMES if first[f"claims {o}"])
            family = (f"over the claims its notebook corrects together, {first['claims']} in all"
                      if source.paper in HOLM_FAMILY else f"over its {first['claims']}")
            text += f" Claims after Holm's correction {family}: {counts}."
        paragraphs.append(text + f" Why: see {first['notebook']}.")
    return "\n\n".join(paragraphs)
