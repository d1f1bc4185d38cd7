"""Tables and statistics shared by the notebooks: our win rates with 95% intervals beside the papers'.

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


class SavedFiles(list):
    """The paths a save wrote (a list of ``Path``); shown relative to the project root, so that a notebook cell
    ending in a save prints ``saved figures/01_ppa_2015/x.png, ...svg`` rather than a machine's folders."""

    def __repr__(self) -> str:
        return "saved " + ", ".join(paths.shown(path) for path in self)

    _repr_pretty_ = lambda self, printer, cycle: printer.text(repr(self))  # noqa: E731 - IPython's display


def write_table(frame: pd.DataFrame, directory: Path, stem: str) -> list[Path]:
    """Write ``frame`` as ``stem.csv`` and ``stem.md`` in ``directory``; return the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = directory / f"{stem}.csv", directory / f"{stem}.md"
    frame.to_csv(csv_path, index=any(name is not None for name in frame.index.names))
    md_path.write_text(to_markdown(frame))
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
