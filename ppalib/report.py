"""Tables and statistics shared by the notebooks: our win rates with 95% intervals beside the papers', three-way
cell verdicts with a stated equivalence margin (``cell_verdict``), claims tested two-sided with Holm's correction
(``claim_verdict``, ``equivalence_claim_verdict``, ``holm``).

* Win rate: the agent's mean result (win 1, draw 1/2, loss 0) in percent.
* 95% interval: Wilson score interval (``statsmodels.stats.proportion.proportion_confint``), with draws
  counted as half a win.
* Verdict per cell in the tables: three-way (``cell_verdict``, below: reproduced / higher / lower / undecided at
  the stated ``EQUIVALENCE_MARGIN``).  ``paper_test`` (kept for its p-value, shown beside it) is the two-sided
  test, "not significant" when p >= 0.05, otherwise "higher" or "lower" (ours relative to the paper); not rejecting is
  no evidence of agreement, which is why the tables use the three-way verdict.  Which test depends on what the
  paper's number is:

  - a *count*: the paper's percentage is exactly k out of its stated n games for an integer k (every cell of
    seed 004's Table 1 and of seed 000's Tables 1-10: 500 games, percentages in steps of 0.2).  Both numbers
    are then binomial samples, compared by Fisher's exact test of our wins/games against the paper's k/n
    (valid at 0% and 100%, where the two-proportion z-test is undefined).
  - not a count (no integer k out of n gives the printed percentage, e.g. seed 001's 93.39% and 49.10% "of
    500 matches": 466.95 and 245.5): its sample size and origin are unknown, so it cannot be treated as a
    sample of n.  It is taken as a fixed reference proportion and our wins/games are tested against it with
    the exact one-sample binomial test (``scipy.stats.binomtest``).  That ignores the paper's own sampling
    error, so it is the stricter of the two tests; it never pretends the paper had n games.
* A cell grown by games until decided (``ppalib.until_decided``: games added while its verdict was undecided) has a
  game count the data chose, for which no fixed-sample test is valid: its verdict uses the anytime-valid interval
  (``anytime_interval``), its p against the paper ``anytime_p_value`` (a fixed reference) or ``interval_difference_p``
  (a count), and a claim resting on it the same (``claim_verdict``'s ``anytime_a`` / ``anytime_b``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import binomtest, fisher_exact
from statsmodels.stats.proportion import proportion_confint

from . import paths

ALPHA = 0.05


def load_paper_table(filename: str) -> pd.DataFrame:
    """A transcribed table from ``data/paper/``."""
    return pd.read_csv(paths.PAPER_DATA / filename)


def win_rates(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Games, wins and win rate (percent) with its 95% interval, per group of ``by`` (and, when ``frame`` has it,
    ``until_decided``: whether the group's cell was grown by games until decided).  The interval is Wilson's, or
    for a grown cell its anytime-valid one (``rate_intervals``), the interval its verdict rests on."""
    grouped = frame.groupby(by, sort=False, dropna=False)["agent_result"]  # NaN keys (no opponent alpha) stay
    table = pd.DataFrame({"games": grouped.size(), "wins": grouped.sum()})
    if "until_decided" in frame.columns:
        table["until_decided"] = frame.groupby(by, sort=False, dropna=False)["until_decided"].any()
    table = table.reset_index()
    table["win_rate"] = 100 * table["wins"] / table["games"]
    grown = table["until_decided"].to_numpy(dtype=bool) if "until_decided" in table else None
    table["ci_low"], table["ci_high"] = rate_intervals(table["wins"], table["games"], grown)
    return table


def rate_intervals(wins, games, grown=None) -> tuple[np.ndarray, np.ndarray]:
    """95% intervals (percent) of win rates: Wilson's (``wilson_interval``), except where ``grown`` (a boolean per
    rate: a cell grown by games until decided, whose game count the data chose) the anytime-valid one
    (``anytime_interval``), so that a grown cell is drawn with the interval its verdict uses."""
    low, high = wilson_interval(wins, games)
    if grown is None or not np.any(grown):
        return low, high
    grown = np.asarray(grown, dtype=bool)
    wins_, games_ = np.asarray(wins, dtype=float)[grown], np.asarray(games, dtype=float)[grown]
    any_low, any_high = anytime_interval(wins_, games_, ALPHA)
    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
    low[grown], high[grown] = 100 * np.asarray(any_low), 100 * np.asarray(any_high)
    return low, high


def wilson_interval(wins, games) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson 95% interval (percent) of ``wins`` out of ``games`` (arrays or scalars; draws as half wins)."""
    low, high = proportion_confint(wins, games, alpha=ALPHA, method="wilson")
    # at 0 or all wins Wilson's bound is exactly the rate; statsmodels' arithmetic can leave it 1e-16 inside
    low = np.where(np.asarray(wins) <= 0, 0.0, low)
    high = np.where(np.asarray(wins) >= np.asarray(games), 1.0, high)
    return 100 * np.asarray(low, dtype=float), 100 * np.asarray(high, dtype=float)


def percent_is_count(percent: float, n: int) -> bool:
    """True when ``percent`` is exactly 100 k / n for an integer k: a count of k out of the paper's n games."""
    k = round(percent / 100 * n)
    return abs(100 * k / n - percent) < 1e-9


FISHER = "Fisher exact, paper as k/n"
BINOMIAL = "binomial, paper's rate as reference"


def paper_test(wins: float, games: int, paper_percent: float, paper_games: int,
               anytime: bool = False) -> tuple[float, str, str]:
    """(p-value, verdict, test) for our ``wins`` out of ``games`` against the paper's percentage (module docstring:
    Fisher's exact test when the paper's number is a count out of ``paper_games``, else the exact one-sample
    binomial test against the paper's proportion; for a grown cell, ``anytime`` below).  Draws counted as half
    wins are rounded to whole wins.

    ``anytime`` (a cell grown by games until decided, whose game count the data chose): a fixed-sample test is not
    valid under that stopping, so the p is ``anytime_p_value`` against a fixed reference, and against a counted
    paper ``interval_difference_p`` (ours anytime-valid, the paper's Clopper-Pearson): the same intervals as the
    cell's verdict (``cell_verdict(..., anytime=True)``).  Which test: ``paper_test_name``."""
    rate = 100 * wins / games
    test = paper_test_name(paper_percent, paper_games, anytime)
    if test in (FISHER, ANYTIME_DIFFERENCE):
        paper_n = int(paper_games)
        p_value = two_sample_p(wins, games, anytime, round(paper_percent / 100 * paper_n), paper_n, False)
    elif test == ANYTIME_P:
        p_value = anytime_p_value(wins, games, paper_percent / 100)
    else:
        p_value = binomtest(int(round(wins)), int(games), paper_percent / 100).pvalue
    if p_value >= ALPHA:
        return p_value, "not significant", test
    return p_value, "higher" if rate > paper_percent else "lower", test


def two_sample_p(wins_a, games_a, grown_a, wins_b, games_b, grown_b) -> float:
    """The two-sided p of rate A against rate B: Fisher's exact test (wins rounded: a draw counts half), or where
    either sample is a cell grown until decided (a game count the data chose, where a fixed-sample test is not
    valid) ``interval_difference_p``."""
    if grown_a or grown_b:
        return interval_difference_p(wins_a, int(games_a), grown_a, wins_b, int(games_b), grown_b)
    ka, kb = int(round(wins_a)), int(round(wins_b))
    return float(fisher_exact([[ka, int(games_a) - ka], [kb, int(games_b) - kb]])[1])


def _verdict(row) -> tuple[float, str]:
    if pd.isna(row.get("games")) or row["games"] == 0:
        return np.nan, "no data"
    if pd.isna(row.get("paper_win_rate")):
        return np.nan, "no paper value"
    p_value, verdict, _ = paper_test(row["wins"], row["games"], row["paper_win_rate"], row["paper_games"],
                                     anytime=_is_grown(row.get("until_decided", False)))
    return p_value, verdict


def _is_grown(flag) -> bool:
    """An ``until_decided`` value of a merged table: True (Python's or numpy's), False, or NaN for a paper cell we
    did not run."""
    return bool(flag) if not pd.isna(flag) else False


def is_grown(row, column: str = "until_decided") -> bool:
    """Whether a table's row (a Series or an ``itertuples`` row) is a cell grown by games until decided (its
    ``column``; False where the table has no such column or the value is missing)."""
    flag = row.get(column, False) if hasattr(row, "get") else getattr(row, column, False)
    return _is_grown(flag)


def paper_test_name(paper_percent: float, paper_games, anytime: bool = False) -> str:
    """The name of the test ``paper_test`` applies to a cell against the paper's number."""
    counted = paper_games is not None and paper_games == paper_games and percent_is_count(paper_percent,
                                                                                          int(paper_games))
    if anytime:
        return ANYTIME_DIFFERENCE if counted else ANYTIME_P
    return FISHER if counted else BINOMIAL


def _three_way_row(row, margin, alpha):
    if pd.isna(row.get("games")) or row["games"] == 0:
        return "no data", np.nan, np.nan, pd.NA
    if pd.isna(row.get("paper_win_rate")):
        return "no paper value", np.nan, np.nan, pd.NA
    paper_games = row.get("paper_games")
    cell = cell_verdict(row["wins"], int(row["games"]), row["paper_win_rate"],
                        None if paper_games is None or pd.isna(paper_games) else int(paper_games), margin, alpha,
                        anytime=_is_grown(row.get("until_decided", False)))
    return cell.verdict, cell.ci_low, cell.ci_high, (pd.NA if cell.games_to_decide is None else cell.games_to_decide)


def compare_with_paper(ours: pd.DataFrame, paper: pd.DataFrame, keys: list[str],
                       margin: float = None, alpha: float = ALPHA) -> pd.DataFrame:
    """Our win rates beside the paper's on ``keys``, with the per-cell three-way verdict (``cell_verdict``:
    reproduced / higher / lower / undecided at the equivalence ``margin``, default ``EQUIVALENCE_MARGIN``), the
    95% interval of ours minus the paper (``diff_low``, ``diff_high``), the ``games_to_decide`` and the two-sided
    p of ``paper_test`` (``p_value``).  A cell grown by games until decided (``until_decided`` True in ``ours``)
    is judged by its anytime-valid interval.

    Cells of the paper we did not run are kept (verdict "no data"), so a table always has the paper's shape;
    cells we ran off the paper's grid (e.g. the smoke preset's few playouts) are kept too ("no paper value").
    """
    margin = EQUIVALENCE_MARGIN if margin is None else margin
    merged = paper.merge(ours, on=keys, how="outer", sort=False)
    tests = merged.apply(_verdict, axis=1, result_type="expand")
    merged["p_value"] = tests[0].astype(float) if len(merged) else pd.Series(dtype=float)
    rows = [_three_way_row(row, margin, alpha) for _, row in merged.iterrows()]
    merged["verdict"] = [r[0] for r in rows]
    merged["diff_low"] = [r[1] for r in rows]
    merged["diff_high"] = [r[2] for r in rows]
    merged["games_to_decide"] = pd.array([r[3] for r in rows], dtype="Int64")
    merged["margin"] = margin
    merged["difference"] = merged["win_rate"] - merged["paper_win_rate"]
    return merged


def format_cell(row) -> str:
    """``ours [low, high] / paper mark (n games, to decide)``, e.g. ``63.5 [56.6, 69.9] / 60.0 = (500)``: ``=``
    reproduced, ``▲``/``▼`` higher/lower, ``?`` undecided with the games that would decide it (``→ N``)."""
    if row["verdict"] == "no data":
        return f"— / {row['paper_win_rate']:.1f}"
    games = int(row["games"])
    if row["verdict"] == "no paper value":
        return f"{row['win_rate']:.1f} [{row['ci_low']:.1f}, {row['ci_high']:.1f}] / — ({games})"
    mark = CELL_MARKS.get(row["verdict"], row["verdict"])
    to_decide = row.get("games_to_decide")
    extra = ""
    if row["verdict"] == "undecided":
        extra = " → ∞" if to_decide is None or pd.isna(to_decide) else f" → {int(to_decide)}"
    return (f"{row['win_rate']:.1f} [{row['ci_low']:.1f}, {row['ci_high']:.1f}] / {row['paper_win_rate']:.1f} {mark} "
            f"({games}{extra})")


def verdict_tally(verdicts) -> dict:
    """Counts of the three-way verdicts (every one of ``CELL_VERDICTS``, zeros included)."""
    verdicts = pd.Series(list(verdicts), dtype=object)
    return {v: int((verdicts == v).sum()) for v in CELL_VERDICTS}


def counts_text(verdicts, order=None) -> str:
    """"3 reproduced, 1 lower, ...": how many of each verdict, in ``order`` (default ``CELL_VERDICTS``, then
    ``CLAIM_VERDICTS``), verdicts outside it (e.g. "no paper value") after; verdicts no cell has are left out."""
    counts = pd.Series(list(verdicts), dtype=object).value_counts()
    order = list(order or CELL_VERDICTS + CLAIM_VERDICTS)
    ranked = [v for v in order if v in counts.index] + [v for v in counts.index if v not in order]
    return ", ".join(f"{int(counts[v])} {v}" for v in ranked) or "none"


def margin_words(margin: float = None) -> str:
    """The rule behind *reproduced*, for a sentence that counts verdicts."""
    margin = EQUIVALENCE_MARGIN if margin is None else margin
    return f"reproduced: the 95% interval of ours minus the paper inside ±{margin:g} points"


def p_text(p_value: float) -> str:
    """"p = 0.012", or "p < 1e-5" for the smallest (the power of ten just above); "p = 0" for an exact 0 (an
    equivalence margin covering every rate, or an underflow)."""
    import math
    if p_value == 0:
        return "p = 0"
    return f"p < 1e-{int(-math.floor(math.log10(p_value))) - 1}" if p_value < 1e-4 else f"p = {p_value:.2g}"


def claims_tally(claims: pd.DataFrame, tested: str = "two-sided") -> str:
    """A claims table (``with_holm``) in words: how they were ``tested``, their verdicts on the raw p, then after
    Holm's correction over the table's tested claims (those with a p; any others are counted apart, untested)."""
    family = claims[claims["p (Holm)"].notna()]
    untested = len(claims) - len(family)
    return (f"{len(family)} claims tested {tested}: {counts_text(family['verdict'], CLAIM_VERDICTS)}; after Holm's "
            f"correction over the {len(family)}: {counts_text(family['verdict (Holm)'], CLAIM_VERDICTS)}"
            + (f"; {untested} untested (no game stored)" if untested else ""))


def to_markdown(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``frame`` (index included when it is named).  A ``|`` inside a value
    is escaped and a line break becomes a space, so that every row keeps the header's columns (a label such as
    ``commit | policies | 5 s`` is one cell).  For a reader, not for reuse (the CSV beside it keeps every digit):
    a missing value is an empty cell (not ``nan`` or ``<NA>``), a whole float is written as an integer, any other
    float with four significant digits (``63.53``, ``0.01429``, ``1.583e-14``), or to the unit from 1,000 on."""
    frame = frame.reset_index() if any(name is not None for name in frame.index.names) else frame

    def cell(value) -> str:
        if value is None or value is pd.NA or value is pd.NaT:
            return ""
        if isinstance(value, (float, np.floating)):
            if value != value:
                return ""
            value = (int(value) if float(value).is_integer() and abs(value) < 1e15 else
                     f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}")
        return str(value).replace("|", "\\|").replace("\n", " ")

    header = [cell(c) if not isinstance(c, tuple) else cell(" ".join(map(str, c))) for c in frame.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines) + "\n"


class SavedFiles(list):
    """The paths a save wrote (a list of ``Path``); shown relative to the project root, so that a notebook cell
    ending in a save prints ``saved figures/01_ppa_2015/x.png, ...svg`` rather than a machine's folders."""

    def __repr__(self) -> str:
        return "saved " + ", ".join(paths.shown(path) for path in self)

    _repr_pretty_ = lambda self, printer, cycle: printer.text(repr(self))  # noqa: E731 - IPython's display


def error_bar_lengths(rate, low, high) -> list:
    """Matplotlib's error bar lengths (below, above) of each ``rate`` with its interval [``low``, ``high``], clipped
    at 0: at a rate of 0% or 100% the Wilson bound equals the rate only up to rounding, and matplotlib refuses a
    negative length (-1e-14).  Any array-likes of one length; missing values stay missing."""
    rate = np.asarray(rate, dtype=float)
    return [np.clip(rate - np.asarray(low, dtype=float), 0, None),
            np.clip(np.asarray(high, dtype=float) - rate, 0, None)]


def with_key(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """``frame`` carrying ``key``, the sentence that explains its marks (▲ ▼ = ? †), for ``write_table`` to print
    under the Markdown table: a layout read on its own, outside the notebook that explains it, keeps its legend."""
    frame.attrs["key"] = key
    return frame


def write_table(frame: pd.DataFrame, directory: Path, stem: str) -> list[Path]:
    """Write ``frame`` as ``stem.csv`` and ``stem.md`` in ``directory``; return the paths.  The Markdown file ends
    with the frame's key (``with_key``) when it has one."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = directory / f"{stem}.csv", directory / f"{stem}.md"
    frame.to_csv(csv_path, index=any(name is not None for name in frame.index.names))
    key = frame.attrs.get("key")
    md_path.write_text(to_markdown(frame) + (f"\n{key}\n" if key else ""))
    return SavedFiles([csv_path, md_path])


def save_figure(figure, directory: Path, stem: str, dpi: int = 150) -> list[Path]:
    """Save ``figure`` as PNG and SVG (fonts as text) in ``directory``; return the paths."""
    import matplotlib
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ppalib"}):
        for ext in ("png", "svg"):
            path = directory / f"{stem}.{ext}"
            figure.savefig(path, dpi=dpi, bbox_inches="tight", metadata={"Date": None} if ext == "svg" else None)
            out.append(path)
    return SavedFiles(out)


# ---- three-way cell verdicts, claims, multiplicity ------------------------------------------------------------
#: The equivalence margin (percentage points): a cell is *reproduced* when the 95% interval of ours minus the
#: paper's lies inside +-EQUIVALENCE_MARGIN.  Ten points is a choice, not derived from the papers: about the
#: half-width of a 100-game interval, so that the quick presets' 100- and 500-game cells can be decided either
#: way (a 500-game paper cell alone carries about +-4.4 points).  The papers draw conclusions from smaller gaps
#: (PPAF over PPA at Domineering: 80.4 vs 74.2), so "reproduced" at this margin can hide a difference the paper
#: would call an improvement; the claims are tested separately, for that reason.
EQUIVALENCE_MARGIN = 10.0
CELL_VERDICTS = ("reproduced", "higher", "lower", "undecided")
#: The interval each kind of cell gets (``CellVerdict.interval``).
TWO_SAMPLE = "Newcombe hybrid of Clopper-Pearson intervals (paper as k/n)"
FIXED_REFERENCE = "Clopper-Pearson (paper's rate as fixed reference)"
ANYTIME = "anytime-valid (beta-binomial mixture confidence sequence)"
ANYTIME_P = "anytime-valid p (mixture martingale), paper's rate as reference"
ANYTIME_DIFFERENCE = (f"difference of {100 * (1 - ALPHA / 2):g}% intervals, ours anytime-valid, paper's "
                      f"Clopper-Pearson")
#: The largest game count ``games_to_decide`` looks at; beyond it a cell counts as not decidable.
MAX_GAMES_TO_DECIDE = 1_000_000


@dataclass(frozen=True)
class CellVerdict:
    """One cell, ours against the paper: ``verdict`` (one of ``CELL_VERDICTS``), ``difference`` (ours minus the
    paper, points), its 95% interval ``ci_low``..``ci_high`` (points), ``games`` (ours), ``games_to_decide``
    (ours needed to decide at the observed rate; None: not decidable, see ``cell_verdict``), the ``margin``,
    and which ``interval`` was used."""
    verdict: str
    difference: float
    ci_low: float
    ci_high: float
    games: int
    games_to_decide: int | None
    margin: float
    interval: str

    @property
    def decided(self) -> bool:
        return self.verdict != "undecided"


def _check_cell_inputs(wins, games, paper_percent, margin, alpha):
    if isinstance(games, bool) or not float(games).is_integer() or games < 1:
        raise ValueError(f"games={games!r} must be a positive whole number of games")
    if not 0 <= wins <= games:
        raise ValueError(f"wins={wins!r} must lie in 0..games={games}")
    if not 0 <= paper_percent <= 100:
        raise ValueError(f"paper_percent={paper_percent!r} must be a percentage in 0..100")
    if not 0 < margin < 100:
        raise ValueError(f"margin={margin!r} must be in (0, 100) percentage points")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha!r} must be in (0, 1)")


def _clopper_pearson(wins, games, alpha):
    """Exact (Clopper-Pearson) interval as proportions; fractional wins (draws as halves) are allowed."""
    low, high = proportion_confint(wins, games, alpha=alpha, method="beta")
    low = np.where(np.asarray(wins) <= 0, 0.0, low)  # statsmodels gives nan at the bounds for some inputs
    high = np.where(np.asarray(wins) >= np.asarray(games), 1.0, high)
    return np.asarray(low, dtype=float), np.asarray(high, dtype=float)


def _log_mixture_ratio(p, wins, games):
    """log of the beta(1, 1)-binomial mixture likelihood over the likelihood at ``p`` (Robbins 1970)."""
    from scipy.special import betaln, xlogy
    return betaln(1 + wins, 1 + games - wins) - (xlogy(wins, p) + xlogy(games - wins, 1 - p))


def anytime_interval(wins, games, alpha: float = ALPHA):
    """The anytime-valid ``1 - alpha`` confidence sequence for a win rate, at ``games`` games (proportions;
    scalars or arrays).

    The set of rates ``p`` at which the uniform-prior mixture martingale of the games so far stays below
    ``1/alpha`` (Robbins 1970; Howard et al. 2021, "Time-uniform, nonparametric, nonasymptotic confidence
    sequences", Ann. Statist.).  By Ville's inequality it covers the true rate at every game count at once, so
    it stays valid however the number of games was chosen, e.g. by adding games until a cell is decided.  A
    draw scored 1/2 keeps it valid (the likelihood ratio is convex in the result, so a result in [0, 1] is no
    worse than a win or loss of the same mean).  Chosen over a group-sequential design because batches may be
    added at any time and on any executor, with no look schedule or maximum fixed in advance, and over the
    ``confseq`` package because this closed form needs only scipy; the price is width (at 500 games about 1.8
    times the fixed-sample interval).
    """
    wins, games = (np.array(x) for x in np.broadcast_arrays(np.asarray(wins, dtype=float),
                                                             np.asarray(games, dtype=float)))
    rate = wins / games
    threshold = np.log(1 / alpha)

    def excluded(p):
        return _log_mixture_ratio(p, wins, games) >= threshold

    # bisection on each side of the observed rate (the mixture ratio is unimodal in p with its minimum there)
    low_out, low_in = np.zeros_like(rate), rate.copy()       # low_out excluded (or 0), low_in inside
    high_in, high_out = rate.copy(), np.ones_like(rate)
    low_open, high_open = ~excluded(np.full_like(rate, 1e-15)), ~excluded(np.full_like(rate, 1 - 1e-15))
    for _ in range(50):
        middle = (low_out + low_in) / 2
        out = excluded(middle)
        low_out, low_in = np.where(out, middle, low_out), np.where(out, low_in, middle)
        middle = (high_in + high_out) / 2
        out = excluded(middle)
        high_out, high_in = np.where(out, middle, high_out), np.where(out, high_in, middle)
    low = np.where(low_open | (rate <= 0), 0.0, low_out)
    high = np.where(high_open | (rate >= 1), 1.0, high_out)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def anytime_p_value(wins: float, games: int, reference: float) -> float:
    """The anytime-valid two-sided p of a win rate against ``reference`` (a proportion): 1 over the mixture
    martingale of ``anytime_interval`` at ``reference`` (at most 1).  By Ville's inequality it is at most alpha
    with probability at most alpha under the reference, however the game count was chosen; it is at most alpha
    exactly when ``anytime_interval(wins, games, alpha)`` excludes ``reference``.  Draws scored 1/2 allowed."""
    _check_count("", wins, games)
    if not 0 <= reference <= 1:
        raise ValueError(f"reference={reference!r} must be a proportion in 0..1")
    with np.errstate(divide="ignore", over="ignore"):
        log_ratio = float(_log_mixture_ratio(float(reference), float(wins), float(games)))
    return float(min(1.0, np.exp(-log_ratio)))


def interval_at(wins, games, alpha, anytime) -> tuple[float, float]:
    """A win rate's ``1 - alpha`` interval (proportions): anytime-valid (``anytime``: a cell grown until decided)
    or Clopper-Pearson."""
    if anytime:
        return anytime_interval(wins, games, alpha)
    low, high = _clopper_pearson(wins, games, alpha)
    return float(low), float(high)


def interval_difference(wins_a, games_a, anytime_a, wins_b, games_b, anytime_b, alpha: float = ALPHA):
    """(low, high) in points of rate A minus rate B from each rate's ``1 - alpha / 2`` interval (anytime-valid for a
    cell grown until decided, else Clopper-Pearson): [low_a - high_b, high_a - low_b], a conservative
    ``1 - alpha`` interval (both hold together with probability >= 1 - alpha), valid under the growth's stopping,
    for which a fixed-sample two-sample test is not."""
    low_a, high_a = interval_at(wins_a, games_a, alpha / 2, anytime_a)
    low_b, high_b = interval_at(wins_b, games_b, alpha / 2, anytime_b)
    return 100 * (low_a - high_b), 100 * (high_a - low_b)


def interval_difference_p(wins_a, games_a, anytime_a, wins_b, games_b, anytime_b) -> float:
    """The two-sided p of ``interval_difference``: the smallest alpha at which its interval excludes 0 (found by
    bisection on log alpha, the upper end returned, so at most a relative 1e-6 above it: conservative; the
    intervals shrink as alpha grows, so the alphas that exclude 0 form an interval up to 1); 1 when even alpha = 1
    does not exclude it, and 1e-12 when alpha = 1e-12 already does."""
    def excludes(alpha):
        low, high = interval_difference(wins_a, games_a, anytime_a, wins_b, games_b, anytime_b, alpha)
        return low > 0 or high < 0
    if not excludes(1.0):
        return 1.0
    if excludes(1e-12):
        return 1e-12
    low, high = np.log(1e-12), 0.0  # excludes at exp(high), not at exp(low)
    while high - low > 1e-6:
        middle = (low + high) / 2
        low, high = (low, middle) if excludes(np.exp(middle)) else (middle, high)
    return float(np.exp(high))


def _difference_interval(wins, games, paper_percent, paper_wins, paper_games, alpha, anytime):
    """(low, high) of ours minus the paper in points (arrays); ``paper_wins``/``paper_games`` NaN where the
    paper's rate is a fixed reference."""
    wins, games, paper_percent, paper_wins, paper_games = (np.array(x) for x in np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (wins, games, paper_percent, paper_wins, paper_games))))
    rate = wins / games
    counted = ~np.isnan(paper_games)
    paper_games_safe = np.where(counted, paper_games, 1.0)
    paper_wins_safe = np.where(counted, paper_wins, 0.0)
    paper_rate = np.where(counted, paper_wins_safe / paper_games_safe, paper_percent / 100)
    if anytime:
        # a fixed reference: ours at alpha.  A counted paper: ours as a confidence sequence at alpha/2 and the
        # paper's fixed sample by Clopper-Pearson at alpha/2; the difference's interval is the difference of the
        # two (Bonferroni: both hold together with probability >= 1 - alpha).
        l1, u1 = anytime_interval(wins, games, np.where(counted, alpha / 2, alpha) if counted.any() else alpha)
        l2, u2 = _clopper_pearson(paper_wins_safe, paper_games_safe, alpha / 2)
        low = np.where(counted, l1 - u2, l1 - paper_rate)
        high = np.where(counted, u1 - l2, u1 - paper_rate)
        return 100 * low, 100 * high
    # counted: Newcombe (1998) method 10 with exact Clopper-Pearson components instead of Wilson's (Wilson's
    # reach 5.1-7% false "differs" at some rates; these stay below 5% at the game counts here, see
    # tests/test_report.py); a fixed reference: our Clopper-Pearson interval minus it.
    l1, u1 = _clopper_pearson(wins, games, alpha)
    l2, u2 = _clopper_pearson(paper_wins_safe, paper_games_safe, alpha)
    d = rate - paper_rate
    low = np.where(counted, d - np.sqrt((rate - l1) ** 2 + (u2 - paper_rate) ** 2), l1 - paper_rate)
    high = np.where(counted, d + np.sqrt((u1 - rate) ** 2 + (paper_rate - l2) ** 2), u1 - paper_rate)
    return 100 * low, 100 * high


def _three_way(low, high, margin):
    """Verdict strings (array) from the interval's bounds (points)."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    return np.select([(-margin < low) & (high < margin), low > 0, high < 0],
                     ["reproduced", "higher", "lower"], "undecided").astype(object)


def _paper_counts(paper_percent, paper_games):
    """(paper wins, paper games) as arrays, NaN where the paper's number is no count out of its games (or no
    game count is known): a fixed reference."""
    percent = np.asarray(paper_percent, dtype=float)
    n = np.asarray(np.nan if paper_games is None else paper_games, dtype=float)
    percent, n = (np.array(x) for x in np.broadcast_arrays(percent, n))
    valid = ~np.isnan(n) & (np.nan_to_num(n) >= 1)
    safe_n = np.where(valid, n, 1.0)
    k = np.round(percent / 100 * safe_n)
    counted = valid & (np.abs(100 * k / safe_n - percent) < 1e-9)
    return np.where(counted, k, np.nan), np.where(counted, n, np.nan)


def _games_to_decide(rate, paper_percent, paper_wins, paper_games, margin, alpha, anytime, games_now):
    """The fewest games at which a cell with our observed ``rate`` would be decided (None: not below
    ``MAX_GAMES_TO_DECIDE``).  Found by doubling then bisection; the verdict is monotone in n at a fixed rate
    up to the discreteness of the exact intervals, so this is the game count to plan for, not a guarantee."""
    def decided(n):
        low, high = _difference_interval(rate * n, n, paper_percent, paper_wins, paper_games, alpha, anytime)
        return _three_way(low, high, margin)[()] != "undecided"
    n = max(1, games_now)
    if decided(n):
        return games_now
    while not decided(n):
        n *= 2
        if n > MAX_GAMES_TO_DECIDE:
            return None
    low, high = n // 2, n  # decided(high), not decided(low)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if decided(middle) else (middle, high)
    return high


def cell_verdict(wins: float, games: int, paper_percent: float, paper_games: int | None = None,
                 margin: float = EQUIVALENCE_MARGIN, alpha: float = ALPHA, anytime: bool = False) -> CellVerdict:
    """Three-way verdict of our ``wins`` out of ``games`` (draws as half wins) against the paper's percentage.

    * *reproduced*: the 95% interval of ours minus the paper lies inside +-``margin`` points (an equivalence
      test: the interval version of TOST at alpha/2 a side);
    * *higher* / *lower*: otherwise, when the interval excludes 0 (a two-sided test at ``alpha``);
    * *undecided*: neither; more games would tell.

    A cell whose difference is both significant and inside the margin is *reproduced*: the difference is real
    but smaller than the margin, which is what reproduced means here.  The interval counts the paper's own
    sampling error when its number is a count out of ``paper_games`` (``percent_is_count``): Newcombe's hybrid
    interval for a difference of proportions built on exact Clopper-Pearson intervals.  Otherwise (no game
    count, or a percentage no count gives) the paper's rate is a fixed reference and the interval is ours
    (Clopper-Pearson) minus it.  With ``anytime=True`` (a cell grown by ``games until decided``) our part is the
    anytime-valid confidence sequence (``anytime_interval``), so the verdict stays valid under that stopping.

    At 0% and 100% (ours or the paper's) nothing special is needed: every interval used is exact and defined
    there (0 wins gives a lower bound of 0, all wins an upper bound of 1), so a 0% cell against a 0% paper is
    *reproduced* once the games make the upper bound fall below the margin, and *undecided* before.

    ``games_to_decide``: the fewest games (ours) at which a cell with our observed rate would be decided,
    ``games`` when it already is, None when no count up to ``MAX_GAMES_TO_DECIDE`` does (the paper's own error
    alone wider than the margin while our rate equals the paper's).
    """
    _check_cell_inputs(wins, games, paper_percent, margin, alpha)
    games = int(games)
    if paper_games is not None and not (isinstance(paper_games, float) and np.isnan(paper_games)):
        if isinstance(paper_games, bool) or not float(paper_games).is_integer() or paper_games < 1:
            raise ValueError(f"paper_games={paper_games!r} must be a positive whole number of games or None")
    paper_wins, paper_n = (float(x) for x in _paper_counts(paper_percent, paper_games))
    low, high = (float(x) for x in _difference_interval(wins, games, paper_percent, paper_wins, paper_n, alpha,
                                                         anytime))
    verdict = _three_way(low, high, margin)[()]
    to_decide = _games_to_decide(wins / games, paper_percent, paper_wins, paper_n, margin, alpha, anytime, games)
    interval = ANYTIME if anytime else (FIXED_REFERENCE if np.isnan(paper_n) else TWO_SAMPLE)
    return CellVerdict(verdict, 100 * wins / games - paper_percent, low, high, games, to_decide, float(margin),
                       interval)


def cell_verdicts(wins, games, paper_percent, paper_games=None, margin: float = EQUIVALENCE_MARGIN,
                  alpha: float = ALPHA, anytime=False) -> np.ndarray:
    """``cell_verdict``'s verdicts for arrays of cells (``wins``, ``games``, ``paper_percent``, ``paper_games``
    and ``anytime`` broadcast together; ``paper_games`` None or NaN: a fixed reference), without
    ``games_to_decide``: for tables and for the simulation tests' thousands of cells."""
    wins, games = np.asarray(wins, dtype=float), np.asarray(games, dtype=float)
    if np.any(games < 1) or np.any((wins < 0) | (wins > games)):
        raise ValueError("wins must lie in 0..games and games must be positive")
    if not 0 < margin < 100:
        raise ValueError(f"margin={margin!r} must be in (0, 100) percentage points")
    paper_wins, paper_n = _paper_counts(paper_percent, paper_games)
    fixed = _three_way(*_difference_interval(wins, games, paper_percent, paper_wins, paper_n, alpha, False), margin)
    anytime = np.asarray(anytime, dtype=bool)
    if not anytime.any():
        return fixed
    grown = _three_way(*_difference_interval(wins, games, paper_percent, paper_wins, paper_n, alpha, True), margin)
    return np.where(anytime, grown, fixed)


def undecided(cells: pd.DataFrame, margin: float = EQUIVALENCE_MARGIN, alpha: float = ALPHA) -> np.ndarray:
    """Whether each cell (a row with ``wins``, ``games``, ``paper_percent``, ``paper_games`` (NaN: a fixed
    reference) and ``grown``) is undecided; a grown cell by its anytime-valid interval: the decision rule of
    ``ppalib.until_decided``."""
    return cell_verdicts(cells["wins"], cells["games"].clip(lower=1), cells["paper_percent"], cells["paper_games"],
                         margin, alpha, anytime=cells["grown"].to_numpy(dtype=bool)) == "undecided"


def margin_header(margin: float = EQUIVALENCE_MARGIN) -> str:
    """The sentence every table of three-way verdicts carries in its header."""
    return (f"Cells: ours [95% interval] / paper, then the verdict and our games: **=** reproduced (the 95% "
            f"interval of ours minus the paper inside ±{margin:g} points, even where it also excludes 0: a real "
            f"difference smaller than the margin), **▲/▼** higher/lower (otherwise, when it excludes 0), **?** "
            f"undecided (neither; → the games that would decide it at our observed rate, ∞ when no number up to a "
            f"million would).")


CELL_MARKS = {"reproduced": "=", "higher": "▲", "lower": "▼", "undecided": "?"}


# ---- claims ---------------------------------------------------------------------------------------------------
CLAIM_VERDICTS = ("upheld", "contradicted", "higher than the paper", "lower than the paper", "not decided")


@dataclass(frozen=True)
class ClaimVerdict:
    """A claim tested on our games: ``verdict`` (one of ``CLAIM_VERDICTS``), the two-sided ``p_value`` of the
    test that reached it (the nearer one when not decided), the ``estimate`` it rests on (points: A minus B, or
    ours minus the reference), its 95% interval, and the ``test``."""
    verdict: str
    p_value: float
    estimate: float
    ci_low: float
    ci_high: float
    test: str


def _check_count(name, wins, games):
    name = f"{name} " if name else ""
    if isinstance(games, bool) or not float(games).is_integer() or games < 1:
        raise ValueError(f"{name}games={games!r} must be a positive whole number of games")
    if not 0 <= wins <= games:
        raise ValueError(f"{name}wins={wins!r} must lie in 0..{games}")


def claim_verdict(wins_a: float, games_a: int, wins_b: float | None = None, games_b: int | None = None, *,
                  direction: str = "greater", reference: float | None = None, alpha: float = ALPHA,
                  anytime_a: bool = False, anytime_b: bool = False) -> ClaimVerdict:
    """A directional claim "A ``direction`` B" tested two-sided at ``alpha``.

    Two samples (``wins_b``/``games_b``): Fisher's exact test of A's wins against B's (draws rounded to whole
    wins), the estimate A minus B with Newcombe's interval.  One sample (``reference``, a percentage, e.g. 50 for
    "A beats its opponent"): the exact binomial test against it (the central p, twice the smaller tail, which
    matches the Clopper-Pearson interval).  *upheld* when significant in the claimed ``direction`` ("greater" or
    "less"), *contradicted* when significant the other way, *not decided* otherwise.  Two-sided throughout: a
    claim is never upheld by the tail it predicts alone.

    ``anytime_a`` / ``anytime_b``: that sample is a cell grown by games until decided, whose game count the data
    chose, so no fixed-sample test is valid on it: one sample, ``anytime_p_value`` with the anytime-valid interval;
    two samples, ``interval_difference`` and its p (each side's interval at alpha / 2, anytime-valid where grown).
    """
    if direction not in ("greater", "less"):
        raise ValueError(f"direction={direction!r} must be 'greater' or 'less'")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha!r} must be in (0, 1)")
    _check_count("A", wins_a, games_a)
    if (wins_b is None) == (reference is None):
        raise ValueError("give either B's wins_b and games_b, or a reference percentage, not both")
    if reference is not None:
        if not 0 <= reference <= 100:
            raise ValueError(f"reference={reference!r} must be a percentage in 0..100")
        if anytime_a:
            p = anytime_p_value(wins_a, games_a, reference / 100)
            low, high = anytime_interval(wins_a, games_a, alpha)
            name = f"anytime-valid against {reference:g}% (a cell grown until decided)"
        else:
            k, n = int(round(wins_a)), int(games_a)
            p = min(1.0, 2 * min(binomtest(k, n, reference / 100, alternative="less").pvalue,
                                 binomtest(k, n, reference / 100, alternative="greater").pvalue))
            low, high = _clopper_pearson(wins_a, games_a, alpha)
            name = f"exact binomial against {reference:g}%"
        estimate, low, high = 100 * wins_a / games_a - reference, 100 * low - reference, 100 * high - reference
    else:
        if games_b is None:
            raise ValueError("games_b is missing")
        _check_count("B", wins_b, games_b)
        p = two_sample_p(wins_a, games_a, anytime_a, wins_b, games_b, anytime_b)
        if anytime_a or anytime_b:
            low, high = interval_difference(wins_a, games_a, anytime_a, wins_b, games_b, anytime_b, alpha)
            name = f"difference of {100 * (1 - alpha / 2):g}% intervals, anytime-valid for a cell grown until decided"
        else:
            low, high = (float(x) for x in _difference_interval(wins_a, games_a, 100 * wins_b / games_b, wins_b,
                                                                 games_b, alpha, False))
            name = "Fisher exact, two-sided"
        estimate = 100 * (wins_a / games_a - wins_b / games_b)
    if p >= alpha:
        verdict = "not decided"
    else:
        verdict = "upheld" if (estimate > 0) == (direction == "greater") else "contradicted"
    return ClaimVerdict(verdict, float(p), float(estimate), float(low), float(high), name)


def equivalence_claim_verdict(wins: float, games: int, reference: float, margin: float = EQUIVALENCE_MARGIN,
                              alpha: float = ALPHA, reference_wins: float | None = None,
                              reference_games: int | None = None) -> ClaimVerdict:
    """A claim of a value ("about 40%"): *upheld* when the 95% Clopper-Pearson interval of ours lies inside
    ``reference`` +-``margin`` points (exact binomial TOST at alpha/2 a side: p = twice the larger one-sided p);
    otherwise *higher than the paper* / *lower than the paper* when the interval excludes ``reference`` (central
    two-sided exact binomial p); *not decided* otherwise (p: the smaller of the two).  Never "upheld unless
    significantly lower": a value far above the paper's is a finding, not a confirmation.

    Two samples (``reference_wins`` of ``reference_games``, e.g. "adaptive RAVE is as good as the best fixed
    setting"): the reference is then that sample's rate with its own error; the interval is ``cell_verdict``'s
    Newcombe interval and the p-values those of statsmodels' ``tost_proportions_2indep`` (doubled, to match the
    95% interval) and Fisher's exact test."""
    from statsmodels.stats.proportion import binom_test
    if reference_games is not None:
        return _two_sample_equivalence(wins, games, reference_wins, reference_games, margin, alpha)
    _check_cell_inputs(wins, games, reference, margin, alpha)
    k, n = int(round(wins)), int(games)
    low_bound, high_bound = max(0.0, (reference - margin) / 100), min(1.0, (reference + margin) / 100)
    # each side's one-sided exact test; a side at the edge of [0, 1] (93 +- 10 reaches past 100%) is no hypothesis
    # at all (no rate lies beyond it) and rejects outright, where binom_tost's test of "rate >= 1" never can
    p_low = float(binom_test(k, n, low_bound, alternative="larger")) if low_bound > 0 else 0.0
    p_high = float(binom_test(k, n, high_bound, alternative="smaller")) if high_bound < 1 else 0.0
    p_tost = min(1.0, 2 * max(p_low, p_high))
    p_differs = min(1.0, 2 * min(binom_test(k, n, reference / 100, alternative="smaller"),
                                 binom_test(k, n, reference / 100, alternative="larger")))
    cell = cell_verdict(wins, n, reference, None, margin, alpha)
    verdict = {"reproduced": "upheld", "higher": "higher than the paper", "lower": "lower than the paper",
               "undecided": "not decided"}[cell.verdict]
    p = {"upheld": p_tost, "not decided": min(p_tost, p_differs)}.get(verdict, p_differs)
    return ClaimVerdict(verdict, float(p), cell.difference, cell.ci_low, cell.ci_high,
                        f"exact binomial equivalence to {reference:g}% ±{margin:g}")


def _two_sample_equivalence(wins, games, reference_wins, reference_games, margin, alpha) -> ClaimVerdict:
    from scipy.stats import fisher_exact
    from statsmodels.stats.proportion import tost_proportions_2indep
    _check_count("A", wins, games)
    _check_count("reference", reference_wins, reference_games)
    reference = 100 * reference_wins / reference_games
    cell = cell_verdict(wins, int(games), reference, int(reference_games), margin, alpha)
    if not percent_is_count(reference, int(reference_games)):  # fractional wins: the reference kept as a count
        low, high = (float(x) for x in _difference_interval(wins, games, reference, reference_wins,
                                                             reference_games, alpha, False))
        cell = replace(cell, verdict=_three_way(low, high, margin)[()], ci_low=low, ci_high=high)
    with np.errstate(divide="ignore", invalid="ignore"):  # statsmodels' odds ratio at a rate of 0 or 1 (unused)
        p_tost = min(1.0, 2 * float(tost_proportions_2indep(wins, games, reference_wins, reference_games,
                                                             -margin / 100, margin / 100, compare="diff").pvalue))
    ka, kb = int(round(wins)), int(round(reference_wins))
    p_differs = float(fisher_exact([[ka, int(games) - ka], [kb, int(reference_games) - kb]])[1])
    # two samples of ours: a difference contradicts the claimed equivalence, when Fisher's test (the p shown) finds
    # it too: Newcombe's interval can exclude 0 at a Fisher p just above alpha (8/16 vs 2/16: p = 0.054), and a
    # verdict must agree with the p printed beside it
    verdict = {"reproduced": "upheld", "higher": "contradicted", "lower": "contradicted",
               "undecided": "not decided"}[cell.verdict]
    if verdict == "contradicted" and p_differs >= alpha:
        verdict = "not decided"
    p = {"upheld": p_tost, "not decided": min(p_tost, p_differs)}.get(verdict, p_differs)
    return ClaimVerdict(verdict, float(p), cell.difference, cell.ci_low, cell.ci_high,
                        f"equivalence of two samples within ±{margin:g} points")


def with_holm(claims: pd.DataFrame, p_column: str = "p", verdict_column: str = "verdict",
              alpha: float = ALPHA) -> pd.DataFrame:
    """``claims`` with ``p (Holm)`` (Holm-adjusted over every row: one family) and ``verdict (Holm)`` (the verdict
    where the adjusted p is below ``alpha``, else "not decided") beside the raw ones."""
    adjusted, verdicts = holm_verdicts(claims[verdict_column].tolist(), claims[p_column].to_numpy(dtype=float),
                                       alpha)
    out = claims.copy()
    position = out.columns.get_loc(p_column) + 1
    out.insert(position, "p (Holm)", adjusted)
    out["verdict (Holm)"] = verdicts
    return out


def holm(pvalues) -> np.ndarray:
    """Holm-adjusted p-values (``statsmodels.stats.multitest.multipletests``), in the given order; NaNs (claims
    not tested) stay NaN and do not count in the family."""
    from statsmodels.stats.multitest import multipletests
    pvalues = np.asarray(pvalues, dtype=float)
    adjusted = np.full_like(pvalues, np.nan)
    tested = ~np.isnan(pvalues)
    if tested.any():
        adjusted[tested] = multipletests(pvalues[tested], method="holm")[1]
    return adjusted


def holm_verdicts(verdicts, pvalues, alpha: float = ALPHA) -> tuple[np.ndarray, list[str]]:
    """(Holm-adjusted p, verdicts after Holm): a verdict stands when its adjusted p is below ``alpha``, else it
    becomes "not decided"."""
    adjusted = holm(pvalues)
    return adjusted, [v if (not np.isnan(p) and p < alpha) else ("not decided" if v in CLAIM_VERDICTS else v)
                      for v, p in zip(verdicts, adjusted)]
