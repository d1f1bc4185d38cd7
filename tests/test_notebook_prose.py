"""The reproduction notebooks' markdown holds no hand-typed result: every number a reader sees about our games is
rendered by code from the stores (issue 23, item 5).

A markdown cell of notebooks 01-05 (not ``play.ipynb``, which reproduces nothing; not 00, which is all rendered
tables) may state *settings*: playouts, games or matches a cell, board sizes, parameters (alpha, k, c, margin),
section, table and algorithm numbers, years, the confidence and significance levels (95% intervals, tests at 5%,
the threshold p < 0.05).  It may not state a *result*, ours or the paper's (the paper's values are in
``data/paper`` and are rendered beside ours).  What counts as a result, with the pattern that finds it:

* a percentage: a number followed by ``%`` (``78.0%``, ``97-100%``), except 95% before "interval", "confidence"
  or "CI" (or after "Wilson") and 5% as a level ("at 5%", "the 5% level", "5% tests");
* a p-value: ``p`` then ``=``, ``<``, ``>``, ``<=``, ``>=`` and a number (``p = 0.037``, ``p < 1e-4``), except the
  significance threshold itself (``p < 0.05``, ``p >= 0.05``);
* a rank correlation: ``rho =`` and a number;
* a game count: a number before "games", "matches", "wins", "losses" or "draws" (``2,400 games``, ``5 wins``),
  except a design ("500 games a cell", "200 matches a point", "games or matches per cell", "with each colour");
* a win count: ``N of M`` (``16 of 16``, ``15 of the 20 cells``) or ``N/M`` without spaces (``192/200``);
* a CPU or wall time: a number before "s", "seconds", "minutes", "hours" (optionally "CPU ...", e.g. ``3,800 CPU
  seconds``, ``84 minutes``);
* a measured game length: a decimal number before "plies" (``9.4 plies``; a rule such as "20 plies" is a setting).

Inline code spans are left out (they name code and options, e.g. ``suicide=1``).  Each notebook's test lists every
hit with its cell, so a failure says what to move into code.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ["01_ppa_2015", "02_ppaf_2016", "03_adaptive_rave_2013", "04_feature_biasing_2019", "05_future_work"]
#: Notebooks whose prose is known to hold hand-typed results (strict xfail: a clean one fails as XPASS). None now.
PENDING: dict[str, str] = {}

NUMBER = r"\d[\d,]*(?:\.\d+)?"
RESULT_PATTERNS = {
    "percentage": re.compile(
        rf"(?<![\w.]){NUMBER}\s*%(?!\s*(?:Wilson\s+)?(?:confidence|interval|CI)\b)"),
    "p-value": re.compile(r"\bp\s*(?:=|<=|>=|<|>|≤|≥)\s*\d[\d.]*(?:e-?\d+)?"),
    "rank correlation": re.compile(r"\brho\s*=\s*-?\d"),
    "game count": re.compile(
        rf"(?<![\w.]){NUMBER}\s+(?:more\s+)?(?:games|matches|wins|losses|draws)\b"
        r"(?!(?:\s+or\s+(?:games|matches))?\s+(?:a|per|each|with\s+each)\s+(?:cell|point|colou?r)\b)"),
    "win count": re.compile(rf"(?<![\w.]){NUMBER}\s+(?:out\s+)?of\s+(?:the\s+|its\s+|their\s+)?{NUMBER}\b"
                            r"|(?<![\w./])\d+/\d+(?![\w/])"),
    "time": re.compile(rf"(?<![\w.]){NUMBER}\s*(?:CPU[ -])?(?:s|sec|seconds|minutes|min|hours|h)\b"),
    "game length": re.compile(r"(?<![\w.])\d+\.\d+\s+plies\b"),
}
#: Settings the patterns above would otherwise catch: the project's confidence and significance levels.
ALLOWED = [
    re.compile(r"Wilson\s+95\s*%"),
    re.compile(r"\b95\s*%\s+(?:Wilson\s+)?(?:confidence|interval|CI)"),
    re.compile(r"\b(?:at|the)\s+5\s*%"),
    re.compile(r"\b5\s*%\s+(?:level|tests?|threshold)\b"),
    re.compile(r"\bp\s*(?:<|>=|≥)\s*0\.05\b"),
    # a thinking-time setting: "5 s a move", "5 s of thinking per move", "the paper's 5 s"
    re.compile(r"\b\d+(?:\.\d+)?\s*s\s+(?:of\s+thinking\s+)?(?:a|per)\s+move\b"),
    re.compile(r"\bpaper's\s+\d+(?:\.\d+)?\s*s\b"),
]
CODE_SPAN = re.compile(r"``.*?``|`[^`\n]*`")


def hand_typed_results(text: str) -> list[tuple[str, str]]:
    """(kind, the matched text) for every hand-typed result in a markdown text, by the module's rules."""
    text = CODE_SPAN.sub(" ", text)
    allowed = [m.span() for pattern in ALLOWED for m in pattern.finditer(text)]
    hits = []
    for kind, pattern in RESULT_PATTERNS.items():
        for match in pattern.finditer(text):
            if any(start <= match.start() < end for start, end in allowed):
                continue
            hits.append((kind, match.group(0)))
    return hits


def notebook_hits(stem: str) -> list[tuple[int, str, str]]:
    """(cell index, kind, matched text) for every hit in the notebook's markdown cells."""
    notebook = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    return [(index, kind, found) for index, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"
            for kind, found in hand_typed_results(cell.source)]


@pytest.mark.parametrize("text,kinds", [
    ("PPA wins 78.0% [68.9, 85.0] against the paper's 90.6%", ["percentage", "percentage"]),
    ("Misere games stay at 97-100%", ["percentage"]),
    ("lower (p = 0.0009), and p < 1e-4 at 5x5", ["p-value", "p-value"]),
    ("rho = -0.38", ["rank correlation"]),
    ("the rerun took 3,800 CPU seconds and 84 minutes; 2.8 CPU hours", ["time", "time", "time"]),
    ("2,400 games more; 5 wins, 77 draws", ["game count", "game count", "game count"]),
    ("16 of 16 against 76.8", ["win count"]),
    ("15 of the 20 cells, 192/200", ["win count", "win count"]),
    ("our games are short (9.4 plies on average)", ["game length"]),
])
def test_each_kind_of_hand_typed_result_is_found(text, kinds):
    assert sorted(kind for kind, _ in hand_typed_results(text)) == sorted(kinds)


@pytest.mark.parametrize("text", [
    "10,000 playouts, 500 games a cell (250 with each colour); UCT constant 0.4, alpha = 1",
    "its Wilson 95% interval; a 95% confidence interval; one-sided tests at 5%; the 5% level",
    "consistent when p >= 0.05; significant when p < 0.05",
    "Tables 1-10 of Cazenave 2016, section 7, Algorithms 3-7, 8x8, k = 700",
    "200 matches a point; 100 games or matches a cell; the sum game is 20 plies long",
    "the option ``suicide=1`` and `ggp_rules=1`",
    "both agents get 5 s a move in Ludii, the iterations that stand for the paper's 5 s",
])
def test_settings_are_not_results(text):
    assert hand_typed_results(text) == []


@pytest.mark.parametrize("stem", [pytest.param(s, marks=pytest.mark.xfail(reason=PENDING[s], strict=True))
                                  if s in PENDING else s for s in NOTEBOOKS])
def test_reproduction_notebook_markdown_holds_no_hand_typed_result(stem):
    hits = notebook_hits(stem)
    assert not hits, f"{stem}: {len(hits)} hand-typed results in markdown cells (move them into code):\n" + "\n".join(
        f"  cell {index}: {kind}: {found!r}" for index, kind, found in hits)
