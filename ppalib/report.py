"""Tables and statistics shared by the notebooks: our win rates with 95% intervals beside the papers', three-way
cell verdicts with a stated equivalence margin (``cell_verdict``), claims tested two-sided with Holm's correction
(``claim_verdict``, ``equivalence_claim_verdict``, ``holm``).

* Win rate: the agent's mean result (win 1, draw 1/2, loss 0) in percent.
* 95% interval: Wilson score interval (``statsmodels.stats.proportion.proportion_confint``), with draws
  counted as half a win.
* Verdict per cell (``paper_test``), two-sided, "consistent" when p >= 0.05, otherwise "higher" or "lower"
  (ours relative to the paper).  Which test depends on what the paper's number is:

  - a *count*: the paper's percentage is exactly k out of its stated n games for an integer k (every cell of
    seed 004's Table 1 and of seed 000's Tables 1-10: 500 games, percentages in steps of 0.2).  Both numbers
    are then binomial samples, compared by Fisher's exact test of our wins/games against the paper's k/n
    (valid at 0% and 100%, where the two-proportion z-test is undefined).
  - not a count (no integer k out of n gives the printed percentage, e.g. seed 001's 93.39% and 49.10% "of
    500 matches": 466.95 and 245.5): its sample size and origin are unknown, so it cannot be treated as a
    sample of n.  It is taken as a fixed reference proportion and our wins/games are tested against it with
    the exact one-sample binomial test (``scipy.stats.binomtest``).  That ignores the paper's own sampling
    error, so it is the stricter of the two tests; it never pretends the paper had n games.
"""
from __future__ import annotations

from dataclasses import dataclass
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
    """Games, wins and win rate (percent) with its Wilson 95% interval, per group of ``by``."""
    grouped = frame.groupby(by, sort=False, dropna=False)["agent_result"]  # NaN keys (no opponent alpha) stay
    table = pd.DataFrame({"games": grouped.size(), "wins": grouped.sum()}).reset_index()
    table["win_rate"] = 100 * table["wins"] / table["games"]
    table["ci_low"], table["ci_high"] = wilson_interval(table["wins"], table["games"])
    return table


def wilson_interval(wins, games) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson 95% interval (percent) of ``wins`` out of ``games`` (arrays or scalars; draws as half wins)."""
    low, high = proportion_confint(wins, games, alpha=ALPHA, method="wilson")
    return 100 * np.asarray(low, dtype=float), 100 * np.asarray(high, dtype=float)


def percent_is_count(percent: float, n: int) -> bool:
    """True when ``percent`` is exactly 100 k / n for an integer k: a count of k out of the paper's n games."""
    k = round(percent / 100 * n)
    return abs(100 * k / n - percent) < 1e-9


FISHER = "Fisher exact, paper as k/n"
BINOMIAL = "binomial, paper's rate as reference"


def paper_test(wins: float, games: int, paper_percent: float, paper_games: int) -> tuple[float, str, str]:
    """(p-value, verdict, test) for our ``wins`` out of ``games`` against the paper's percentage (module docstring:
    Fisher's exact test when the paper's number is a count out of ``paper_games``, else the exact one-sample
    binomial test against the paper's proportion).  Draws counted as half wins are rounded to whole wins."""
    ours, rate, games = int(round(wins)), 100 * wins / games, int(games)
    if percent_is_count(paper_percent, int(paper_games)):
        paper_wins = int(round(paper_percent / 100 * paper_games))
        table = [[ours, games - ours], [paper_wins, int(paper_games) - paper_wins]]
        p_value, test = fisher_exact(table)[1], FISHER
    else:
        p_value, test = binomtest(ours, games, paper_percent / 100).pvalue, BINOMIAL
    if p_value >= ALPHA:
        return p_value, "consistent", test
    return p_value, "higher" if rate > paper_percent else "lower", test


def _verdict(row) -> tuple[float, str]:
    if pd.isna(row.get("games")) or row["games"] == 0:
        return np.nan, "no data"
    if pd.isna(row.get("paper_win_rate")):
        return np.nan, "no paper value"
    p_value, verdict, _ = paper_test(row["wins"], row["games"], row["paper_win_rate"], row["paper_games"])
    return p_value, verdict


def compare_with_paper(ours: pd.DataFrame, paper: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Our win rates beside the paper's on ``keys``, with the per-cell p-value and verdict.

    Cells of the paper we did not run are kept (verdict "no data"), so a table always has the paper's shape;
    cells we ran off the paper's grid (e.g. the smoke preset's few playouts) are kept too ("no paper value").
    """
    merged = paper.merge(ours, on=keys, how="outer", sort=False)
    verdicts = merged.apply(_verdict, axis=1, result_type="expand")
    merged["p_value"] = verdicts[0].astype(float)
    merged["verdict"] = verdicts[1]
    merged["difference"] = merged["win_rate"] - merged["paper_win_rate"]
    return merged


def format_cell(row) -> str:
    """``ours [low, high] / paper mark``, e.g. ``63.5 [56.6, 69.9] / 60.0 ✓``."""
    if row["verdict"] == "no data":
        return f"— / {row['paper_win_rate']:.1f}"
    if row["verdict"] == "no paper value":
        return f"{row['win_rate']:.1f} [{row['ci_low']:.1f}, {row['ci_high']:.1f}] / —"
    mark = {"consistent": "✓", "higher": "▲", "lower": "▼"}[row["verdict"]]
    return f"{row['win_rate']:.1f} [{row['ci_low']:.1f}, {row['ci_high']:.1f}] / {row['paper_win_rate']:.1f} {mark}"


def to_markdown(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``frame`` (index included when it is named)."""
    frame = frame.reset_index() if any(name is not None for name in frame.index.names) else frame
    header = [str(c) if not isinstance(c, tuple) else " ".join(map(str, c)) for c in frame.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def write_table(frame: pd.DataFrame, directory: Path, stem: str) -> list[Path]:
    """Write ``frame`` as ``stem.csv`` and ``stem.md`` in ``directory``; return the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = directory / f"{stem}.csv", directory / f"{stem}.md"
    frame.to_csv(csv_path, index=any(name is not None for name in frame.index.names))
    md_path.write_text(to_markdown(frame))
    return [csv_path, md_path]


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
    return out


# ---- three-way cell verdicts, claims, multiplicity ------------------------------------------------------------
#: The equivalence margin (percentage points): a cell is *reproduced* when the 95% interval of ours minus the
#: paper's lies inside +-EQUIVALENCE_MARGIN.  Ten points: the smallest gap the quick presets' game counts can
#: hope to exclude (a 500-game paper cell alone carries about +-4.4 points), and about the spread between the
#: papers' neighbouring parameter settings, i.e. smaller than any difference the papers draw a conclusion from.
EQUIVALENCE_MARGIN = 10.0
CELL_VERDICTS = ("reproduced", "higher", "lower", "undecided")
#: The interval each kind of cell gets (``CellVerdict.interval``).
TWO_SAMPLE = "Newcombe hybrid of Clopper-Pearson intervals (paper as k/n)"
FIXED_REFERENCE = "Clopper-Pearson (paper's rate as fixed reference)"
ANYTIME = "anytime-valid (beta-binomial mixture confidence sequence)"
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
    return (f"reproduced: the 95% interval of ours minus the paper inside ±{margin:g} points; higher/lower: "
            f"it excludes 0; undecided: neither")


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
    if isinstance(games, bool) or not float(games).is_integer() or games < 1:
        raise ValueError(f"{name} games={games!r} must be a positive whole number of games")
    if not 0 <= wins <= games:
        raise ValueError(f"{name} wins={wins!r} must lie in 0..{games}")


def claim_verdict(wins_a: float, games_a: int, wins_b: float | None = None, games_b: int | None = None, *,
                  direction: str = "greater", reference: float | None = None, alpha: float = ALPHA) -> ClaimVerdict:
    """A directional claim "A ``direction`` B" tested two-sided at ``alpha``.

    Two samples (``wins_b``/``games_b``): Fisher's exact test of A's wins against B's (draws rounded to whole
    wins), the estimate A minus B with Newcombe's interval.  One sample (``reference``, a percentage, e.g. 50 for
    "A beats its opponent"): the exact binomial test against it (the central p, twice the smaller tail, which
    matches the Clopper-Pearson interval).  *upheld* when significant in the claimed ``direction`` ("greater" or
    "less"), *contradicted* when significant the other way, *not decided* otherwise.  Two-sided throughout: a
    claim is never upheld by the tail it predicts alone.
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
        k, n = int(round(wins_a)), int(games_a)
        p = min(1.0, 2 * min(binomtest(k, n, reference / 100, alternative="less").pvalue,
                             binomtest(k, n, reference / 100, alternative="greater").pvalue))
        low, high = _clopper_pearson(wins_a, games_a, alpha)
        estimate, low, high = 100 * wins_a / games_a - reference, 100 * low - reference, 100 * high - reference
        name = f"exact binomial against {reference:g}%"
    else:
        if games_b is None:
            raise ValueError("games_b is missing")
        _check_count("B", wins_b, games_b)
        ka, kb = int(round(wins_a)), int(round(wins_b))
        p = fisher_exact([[ka, int(games_a) - ka], [kb, int(games_b) - kb]])[1]
        low, high = (float(x) for x in _difference_interval(wins_a, games_a, 100 * wins_b / games_b, wins_b,
                                                             games_b, alpha, False))
        estimate = 100 * (wins_a / games_a - wins_b / games_b)
        name = "Fisher exact, two-sided"
    if p >= alpha:
        verdict = "not decided"
    else:
        verdict = "upheld" if (estimate > 0) == (direction == "greater") else "contradicted"
    return ClaimVerdict(verdict, float(p), float(estimate), float(low), float(high), name)


def equivalence_claim_verdict(wins: float, games: int, reference: float, margin: float = EQUIVALENCE_MARGIN,
                              alpha: float = ALPHA) -> ClaimVerdict:
    """A claim of a value ("about 40%"): *upheld* when the 95% Clopper-Pearson interval of ours lies inside
    ``reference`` +-``margin`` points (exact binomial TOST at alpha/2 a side: p = twice the larger one-sided p);
    otherwise *higher than the paper* / *lower than the paper* when the interval excludes ``reference`` (central
    two-sided exact binomial p); *not decided* otherwise (p: the smaller of the two).  Never "upheld unless
    significantly lower": a value far above the paper's is a finding, not a confirmation."""
    from statsmodels.stats.proportion import binom_test, binom_tost
    _check_cell_inputs(wins, games, reference, margin, alpha)
    k, n = int(round(wins)), int(games)
    low_bound, high_bound = max(0.0, (reference - margin) / 100), min(1.0, (reference + margin) / 100)
    p_tost = min(1.0, 2 * float(binom_tost(k, n, low_bound, high_bound)[0])) if 0 < low_bound or high_bound < 1 \
        else 0.0
    p_differs = min(1.0, 2 * min(binom_test(k, n, reference / 100, alternative="smaller"),
                                 binom_test(k, n, reference / 100, alternative="larger")))
    cell = cell_verdict(wins, n, reference, None, margin, alpha)
    verdict = {"reproduced": "upheld", "higher": "higher than the paper", "lower": "lower than the paper",
               "undecided": "not decided"}[cell.verdict]
    p = {"upheld": p_tost, "not decided": min(p_tost, p_differs)}.get(verdict, p_differs)
    return ClaimVerdict(verdict, float(p), cell.difference, cell.ci_low, cell.ci_high,
                        f"exact binomial equivalence to {reference:g}% ±{margin:g}")


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
