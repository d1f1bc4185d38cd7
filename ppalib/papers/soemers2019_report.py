"""Soemers, Piette & Browne, "Biasing MCTS with Features for General Games" (CEC 2019): the reading side.

Figures 4-8 and the table of the paper's claims, drawn from two tidy frames the experiment runner
(``ppalib.papers.soemers2019``) produces:

``evaluations``, one row per evaluation condition:
    ``variant`` (the paper's names, ``VARIANTS``), ``strategy`` (``STRATEGIES`` or "handmade"), ``stage``
    ("grown": Fig. 4, checkpoints after 1 ... 200 self-play games; "pruned": Fig. 7, 0 ... 100 additional games
    with the 15 largest-|theta| features; "greedy": Fig. 6, the greedy agent; "handmade": Yavalath's hand-made
    features, checkpoint 0), ``checkpoint`` (self-play games), ``games``, ``wins`` (ties counted as half),
    ``condition_id``.  Several rows with the same (variant, stage, strategy, checkpoint), e.g. one per seat,
    are summed.
``slowdowns``:
    ``variant``, ``stage`` ("grown", "pruned" or "handmade"), ``strategy``, ``uct_iterations``,
    ``biased_iterations`` (mean iterations in the first two moves with a fixed thinking time), ``slowdown``
    (uct / biased).  Several rows per (variant, stage, strategy) are averaged.

Checkpoints are taken from the data (reduced presets use e.g. 1, 5, 10 instead of the paper's 1 ... 200): "the
final checkpoint" is the largest one we ran, and the claims table says which one it was.  Intervals are Wilson
95% intervals (``report.wilson_interval``); tests round half wins (ties) to whole wins, as ``report.paper_test``.
Missing variants or stages never raise: a figure panel says "not run", a claim row says "untested: no data".
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .. import paths
from ..report import (ALPHA, BINOMIAL, EQUIVALENCE_MARGIN, claim_verdict, equivalence_claim_verdict, error_bar_lengths,
                       interval_at, wilson_interval)

CLAIMS_FILE = "soemers2019_claims.csv"
VARIANTS = ["Breakthrough", "Connect Four", "Fanorona", "Gomoku", "Hex (7x7)", "Hex (11x11)", "Knightthrough",
            "Othello", "Teeko", "Yavalath"]
STRATEGIES = ["add_random", "combine_random", "combine_max", "correlation_based"]
ADJUST_TEXT_STEPS = 500  # adjustText's steps placing Fig. 5's and 8's names (it stops earlier once none overlap)
STRATEGY_NAMES = {"add_random": "Add Random", "combine_random": "Combine Random", "combine_max": "Combine Max",
                  "correlation_based": "Correlation-based", "handmade": "Hand-made"}
#: One colour per strategy in every figure (seaborn's colour-blind palette; hand-made features in black).
STRATEGY_COLOURS = {"add_random": "#0173b2", "combine_random": "#de8f05", "combine_max": "#029e73",
                    "correlation_based": "#d55e00", "handmade": "#000000"}
STAGES = ("grown", "pruned", "greedy", "handmade")
EVALUATION_COLUMNS = ["variant", "strategy", "stage", "checkpoint", "games", "wins", "condition_id"]
SLOWDOWN_COLUMNS = ["variant", "stage", "strategy", "uct_iterations", "biased_iterations", "slowdown"]
X_LABELS = {"grown": "self-play games", "pruned": "games after pruning",
            "greedy": "self-play games", "handmade": "self-play games"}
#: A slowdown is a ratio of mean iteration counts without a sampling error; it is "upheld" within this factor
#: of the paper's number (iteration counts depend on the implementation: LUDII's Java against our numba code).
SLOWDOWN_TOLERANCE = 2.0

UPHELD, NOT_UPHELD, NO_DATA = "upheld", "not upheld", "untested: no data"
NOT_DECIDED = "not decided"


# ---- inputs --------------------------------------------------------------------------------------------------
def _checked(frame: pd.DataFrame | None, columns: list[str], name: str) -> pd.DataFrame:
    if frame is None:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks the columns {missing}; expected {columns}")
    return frame


def evaluation_rates(evaluations: pd.DataFrame | None) -> pd.DataFrame:
    """Games, wins, win rate (%) and its Wilson 95% interval per (variant, stage, strategy, checkpoint)."""
    frame = _checked(evaluations, EVALUATION_COLUMNS, "evaluations")
    keys = ["variant", "stage", "strategy", "checkpoint"]
    table = (frame.groupby(keys, sort=False)[["games", "wins"]].sum().reset_index() if len(frame)
             else pd.DataFrame({c: pd.Series(dtype=object) for c in keys + ["games", "wins"]}))
    table = table[table["games"] > 0].reset_index(drop=True)
    table["games"] = table["games"].astype(float)
    table["wins"] = table["wins"].astype(float)
    table["win_rate"] = 100 * table["wins"] / table["games"]
    if len(table):
        table["ci_low"], table["ci_high"] = wilson_interval(table["wins"], table["games"])
    else:
        table["ci_low"], table["ci_high"] = pd.Series(dtype=float), pd.Series(dtype=float)
    return table


def final_rates(rates: pd.DataFrame, stage: str) -> pd.DataFrame:
    """Per (variant, strategy) of ``stage``: the row of its largest checkpoint."""
    cells = rates[rates["stage"] == stage]
    if cells.empty:
        return cells
    return cells.loc[cells.groupby(["variant", "strategy"], sort=False)["checkpoint"].idxmax()].reset_index(drop=True)


def mean_slowdowns(slowdowns: pd.DataFrame | None) -> pd.DataFrame:
    """Mean slowdown (and iteration counts) per (variant, stage, strategy)."""
    frame = _checked(slowdowns, SLOWDOWN_COLUMNS, "slowdowns")
    if frame.empty:
        return frame[SLOWDOWN_COLUMNS]
    return frame.groupby(["variant", "stage", "strategy"], sort=False)[
        ["uct_iterations", "biased_iterations", "slowdown"]].mean().reset_index()


def paper_claims() -> pd.DataFrame:
    """The paper's numbers and words (``data/paper/soemers2019_claims.csv``)."""
    return pd.read_csv(paths.PAPER_DATA / CLAIMS_FILE, keep_default_na=False,
                       converters={"paper_value": lambda v: float(v) if v != "" else np.nan})


def _variants(present) -> list[str]:
    """The paper's ten variants in its order, then any others the data holds."""
    return VARIANTS + sorted(set(present) - set(VARIANTS))


def _strategies(present) -> list[str]:
    return [s for s in STRATEGIES + ["handmade"] if s in set(present)] + sorted(
        set(present) - set(STRATEGIES) - {"handmade"})


def _name(strategy: str) -> str:
    return STRATEGY_NAMES.get(strategy, strategy)


def _colour(strategy: str, i: int = 0) -> str:
    return STRATEGY_COLOURS.get(strategy, f"C{5 + i}")


# ---- figures -------------------------------------------------------------------------------------------------
def _not_run(ax, text: str = "not run") -> None:
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", color="0.45", style="italic")
    ax.set_ylim(0, 100)
    ax.set_xticks([])


def _curves(ax, cells: pd.DataFrame) -> None:
    """One line per strategy with its shaded 95% band, and the 50% line."""
    from matplotlib.ticker import MaxNLocator
    for i, strategy in enumerate(_strategies(cells["strategy"])):
        line = cells[cells["strategy"] == strategy].sort_values("checkpoint")
        colour = _colour(strategy, i)
        ax.plot(line["checkpoint"], line["win_rate"], marker="o", ms=3, lw=1.4, color=colour, label=_name(strategy))
        ax.fill_between(line["checkpoint"], line["ci_low"], line["ci_high"], color=colour, alpha=0.18, lw=0)
    ax.axhline(50, color="0.35", ls="--", lw=0.8, zorder=0)
    ax.set_ylim(0, 100)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))


def _panels(rates: pd.DataFrame, stage: str, variants: list[str], axes, fig) -> None:
    cells = rates[rates["stage"] == stage]
    handles = {}
    for ax, variant in zip(axes, variants):
        ax.set_title(variant, fontsize="medium")
        mine = cells[cells["variant"] == variant]
        if mine.empty:
            _not_run(ax)
            continue
        _curves(ax, mine)
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    for ax in axes[len(variants):]:
        ax.set_visible(False)
    order = [_name(s) for s in STRATEGIES + ["handmade"]]
    labels = sorted(handles, key=lambda label: order.index(label) if label in order else len(order))
    if labels:
        fig.legend([handles[label] for label in labels], labels, loc="lower center", ncol=len(labels),
                   frameon=False, bbox_to_anchor=(0.5, 0.0))


def _label_axes(axes_grid: np.ndarray, stage: str) -> None:
    """y labels on the first column; the x label under the lowest visible axis of each column (a label under the
    whole figure sat just above the legend and read as its title)."""
    label = X_LABELS.get(stage, "self-play games")
    for column in np.asarray(axes_grid).T:
        visible = [ax for ax in column if ax.get_visible()]
        if visible:
            visible[-1].set_xlabel(label)
    for ax in axes_grid[:, 0]:
        ax.set_ylabel("win % vs UCT")


def run_title(figure: str, run: str, settings: dict, stage: str = "grown") -> str:
    """A figure's title naming its run and budget (``settings``: the run's preset settings), e.g. "Fig. 4, preset
    quick: 500 iterations a move, checkpoints up to 20 self-play games (the paper's: 200)"."""
    checkpoints = settings["pruned_checkpoints"] if stage == "pruned" else settings["checkpoints"]
    if not checkpoints:
        reach = "no checkpoint"
    elif stage == "pruned":
        reach = f"up to {max(checkpoints)} more self-play games after pruning (the paper's: 100)"
    else:
        reach = f"checkpoints up to {max(checkpoints)} self-play games (the paper's: 200)"
    return f"{figure}, {run}: {settings['playouts']:,} iterations a move, {reach}"


def learning_curves(evaluations: pd.DataFrame | None, stage: str = "grown", ax_grid=None, title: str | None = None):
    """Fig. 4 (``stage="grown"``) or Fig. 7 (``stage="pruned"``): a panel per variant (2 x 5), win % of Biased MCTS
    against UCT over self-play games, a line per strategy with its shaded 95% Wilson band, the 50% line dashed.

    ``ax_grid``: axes to draw into (any shape with at least one axis per variant); by default a new figure.
    Variants without data for ``stage`` get a panel saying "not run".  ``title``: the figure's title (a new
    figure only), e.g. which run and budget it shows, so that two runs' figures are never confused.  Returns the
    figure.
    """
    import matplotlib.pyplot as plt
    rates = evaluation_rates(evaluations)
    variants = _variants(rates.loc[rates["stage"] == stage, "variant"])
    if ax_grid is None:
        rows = math.ceil(len(variants) / 5)
        fig, grid = plt.subplots(rows, 5, figsize=(14, 2.9 * rows + 0.6), sharey=True, squeeze=False)
        created = True
    else:
        grid = np.asarray(ax_grid, dtype=object)
        grid = grid.reshape(1, -1) if grid.ndim < 2 else grid
        if grid.size < len(variants):
            raise ValueError(f"ax_grid has {grid.size} axes for {len(variants)} variants")
        fig, created = grid.flat[0].figure, False
    _panels(rates, stage, variants, list(grid.flat), fig)
    _label_axes(grid, stage)
    if created:
        if title:
            fig.suptitle(title, fontsize="medium")
        fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def greedy_curves(evaluations: pd.DataFrame | None, variants=("Breakthrough", "Teeko"), title: str | None = None):
    """Fig. 6: the greedy linear agent (no search) against UCT over self-play games, a panel per variant
    (Breakthrough and Teeko, as the paper; ``variants=None``: those two and any other with greedy data), a line
    per strategy with its 95% band.  A variant without greedy data says "not run".  ``title``: the figure's."""
    import matplotlib.pyplot as plt
    rates = evaluation_rates(evaluations)
    if variants is None:
        present = set(rates.loc[rates["stage"] == "greedy", "variant"])
        variants = ["Breakthrough", "Teeko"] + [v for v in _variants(present) if v in present
                                                and v not in ("Breakthrough", "Teeko")]
    variants = list(variants)
    columns = min(len(variants), 5)  # more than five panels wrap, as Fig. 4's grid does
    rows = -(-len(variants) // columns)
    fig, grid = plt.subplots(rows, columns, figsize=(3.6 * columns + 0.4, 3.0 * rows + 0.4), sharey=True,
                             squeeze=False)
    _panels(rates, "greedy", variants, list(grid.flat), fig)
    _label_axes(grid, "greedy")
    if title:
        fig.suptitle(title, fontsize="medium")
    fig.tight_layout(rect=(0, 0.1 / rows, 1, 1))
    return fig


def _errors(points: pd.DataFrame) -> list:
    """Error bar lengths below and above each point (``report.error_bar_lengths``)."""
    return error_bar_lengths(points["win_rate"], points["ci_low"], points["ci_high"])


def win_vs_slowdown(evaluations: pd.DataFrame | None, slowdowns: pd.DataFrame | None, stage: str = "grown",
                    strategy: str = "correlation_based", include_handmade: bool = True, title: str | None = None):
    """Fig. 5 (``stage="grown"``) or Fig. 8 (``stage="pruned"``): per variant, the win % at the final checkpoint
    (95% Wilson error bar) against the slowdown (UCT iterations / Biased MCTS iterations, log axis) of
    ``strategy``'s feature set, each point labelled by its variant.  With ``include_handmade`` Yavalath's
    hand-made features (stage "handmade") are added as a black star when both their numbers exist.  Variants
    missing either number are listed under the axes as "not run".  ``title``: the axes' title (default: the
    figure's number, strategy and stage)."""
    import matplotlib.pyplot as plt
    finals = final_rates(evaluation_rates(evaluations), stage)
    finals = finals[finals["strategy"] == strategy]
    slow = mean_slowdowns(slowdowns)
    slow_stage = slow[(slow["stage"] == stage) & (slow["strategy"] == strategy)]
    points = finals.merge(slow_stage[["variant", "slowdown"]], on="variant", how="inner")
    points = points[points["slowdown"] > 0]
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    colour = _colour(strategy)
    if len(points):
        ax.errorbar(points["slowdown"], points["win_rate"],
                    yerr=_errors(points),
                    fmt="o", color=colour, capsize=3, label=f"{_name(strategy)} ({stage} set)")
    labels = [ax.text(row.slowdown, row.win_rate, row.variant, fontsize="x-small") for row in points.itertuples()]
    xs, ys = list(points["slowdown"]), list(points["win_rate"])
    if include_handmade:
        hand = final_rates(evaluation_rates(evaluations), "handmade").merge(
            slow.loc[slow["stage"] == "handmade", ["variant", "slowdown"]], on="variant")
        hand = hand[hand["slowdown"] > 0]
        if len(hand):
            ax.errorbar(hand["slowdown"], hand["win_rate"],
                        yerr=_errors(hand), fmt="*",
                        ms=10, color=STRATEGY_COLOURS["handmade"], capsize=3, label="hand-made features")
            labels += [ax.text(row.slowdown, row.win_rate, f"{row.variant} (hand-made)", fontsize="x-small")
                       for row in hand.itertuples()]
            xs += list(hand["slowdown"])
            ys += list(hand["win_rate"])
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    ax.set_xscale("log")
    low, high = min([0.8] + [0.8 * x for x in xs]), max([2.0] + [1.3 * x for x in xs])
    ax.set_xlim(low, high)
    ax.xaxis.set_major_locator(FixedLocator([2.0 ** k for k in range(-3, 12) if low <= 2.0 ** k <= high]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}x"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_ylim(0, 105)  # room above 100% for a point's label
    ax.set_yticks(range(0, 101, 20))
    ax.axhline(50, color="0.35", ls="--", lw=0.8, zorder=0)
    ax.axvline(1, color="0.7", ls=":", lw=0.8, zorder=0)
    ax.set_xlabel("slowdown: UCT iterations / Biased MCTS iterations (log scale)")
    ax.set_ylabel("win % vs UCT at the final checkpoint")
    figure = {"grown": "Fig. 5", "pruned": "Fig. 8"}.get(stage, stage)
    ax.set_title(title or f"{figure}: {_name(strategy)} feature set ({stage})", fontsize="medium")
    missing = [v for v in _variants(set(finals["variant"]) | set(slow_stage["variant"]))
               if v not in set(points["variant"])]
    if points.empty:
        _not_run(ax)
    if missing:
        ax.text(0.0, -0.2, "not run: " + ", ".join(missing), transform=ax.transAxes, fontsize="x-small",
                color="0.45", va="top", wrap=True)
    if len(xs):
        ax.legend(fontsize="small", loc="best")
    fig.tight_layout()
    if labels:  # last, on the final axes: the names pushed apart (adjustText), a line to each point
        from adjustText import adjust_text
        # a fixed number of steps: adjustText's default stops after 1 s of wall time, so the labels' places (and
        # the figure's bytes) depended on the machine's load
        adjust_text(labels, x=xs, y=ys, ax=ax, iter_lim=ADJUST_TEXT_STEPS,
                    arrowprops=dict(arrowstyle="-", color="0.55", lw=0.5))
    return fig


# ---- claims --------------------------------------------------------------------------------------------------
def _binom_p(wins: float, games: float, p0: float) -> float:
    from scipy.stats import binomtest
    return float(binomtest(int(round(wins)), int(games), p0).pvalue)


def _fisher_p(a, b) -> float:
    """Two-sided Fisher exact test of two rows' wins/games (a two-proportion test valid at 0% and 100%)."""
    from scipy.stats import fisher_exact
    wa, wb = int(round(a.wins)), int(round(b.wins))
    return float(fisher_exact([[wa, int(a.games) - wa], [wb, int(b.games) - wb]])[1])


def _holm(p_values: list[float]) -> list[float]:
    if not p_values:
        return []
    from statsmodels.stats.multitest import multipletests
    return list(multipletests(p_values, alpha=ALPHA, method="holm")[1])


def _cell(row, interval=None, anytime: bool = False) -> str:
    """``Combine Max 75.0% [68.6, 80.5], 150/200 games at checkpoint 200 (self-play games)``: the row's own
    interval, or ``interval`` (low, high), marked ``anytime`` when it is the anytime-valid one of a grown cell.  The
    checkpoint says how much self-play *our* policy had (the claims' own words give the paper's), so that a claim
    read "after 200 self-play games" is never taken for a test after 200; for a pruned set it counts the games
    after pruning."""
    low, high = interval if interval is not None else (row.ci_low, row.ci_high)
    played = "more self-play games after pruning" if getattr(row, "stage", "") == "pruned" else "self-play games"
    return (f"{_name(row.strategy)} {row.win_rate:.1f}% [{low:.1f}, {high:.1f}]{' anytime' if anytime else ''}, "
            f"{row.wins:g}/{row.games:g} games at checkpoint {row.checkpoint:g} ({played})")


def _result(ours: str = "—", test: str = "", p_value: float = np.nan, verdict: str = NO_DATA) -> dict:
    return {"ours": ours, "test": test, "p_value": p_value, "verdict": verdict}


def _design(paper: pd.DataFrame) -> dict:
    rows = paper[paper["claim_id"] == "design"]
    values = {q: list(g["paper_value"]) for q, g in rows.groupby("quantity", sort=False)}
    return {"evaluation_games": int(values["evaluation_games"][0]), "grown_final": int(max(values["grown_checkpoint"])),
            "grown_first": int(min(values["grown_checkpoint"])), "pruned_final": int(max(values["pruned_checkpoint"])),
            "pruned_features": int(values["pruned_features"][0]), "level": values["confidence_level"][0],
            "slowdown_moves": int(values["slowdown_moves"][0]), "handmade": int(values["handmade_features"][0]),
            "win_weight": values["handmade_win_weight"][0], "loss_weight": values["handmade_loss_weight"][0]}


def _claim_text(row, d: dict) -> str:
    g, n = d["grown_final"], d["evaluation_games"]
    texts = {
        "significant_gain": f"{row.variant}: Biased MCTS significantly above 50% vs UCT after {g} self-play games "
                            f"(the paper's setting: best strategy, {n} evaluation games a point)",
        "smaller_gain": (f"{row.variant}: Biased MCTS ahead of UCT after {g} self-play games (by a smaller margin)"
                         if row.variant != "all" else
                         "Connect Four, Hex (7x7), Knightthrough: the gain is often significant"),
        "no_change": f"{row.variant}: no change in win % vs UCT from {d['grown_first']} to {g} self-play games",
        "significantly_worse": f"{row.variant}: Biased MCTS significantly below 50% vs UCT after {g} self-play games",
        "correlation_never_worse": f"Correlation-based never significantly worse than another strategy after {g} "
                                   f"self-play games, in any game",
        "correlation_better_somewhere": f"Correlation-based significantly better than another strategy after {g} "
                                        f"self-play games in some game",
        "greedy_competitive": f"{row.variant}: the greedy agent (no search) reaches {row.paper_value:g}% vs UCT "
                              f"after {g} self-play games",
        "slowdown_worst": (f"Slowdown (Correlation-based set, first {d['slowdown_moves']} moves) is the worst in "
                           f"{row.variant}" if row.quantity == "slowdown_rank" else
                           f"{row.variant}: slowdown {row.paper_value:g}x (Correlation-based set, first "
                           f"{d['slowdown_moves']} moves)"),
        "pruned_gain": f"{row.variant}, pruned set ({d['pruned_features']} features, {d['pruned_final']} more "
                       f"self-play games): significantly above 50% vs UCT",
        "pruned_yavalath_improved": (f"{row.variant}: the pruned set ({d['pruned_features']} features) wins more "
                                     f"than the grown set" if row.quantity == "win_rate" else
                                     f"{row.variant}: the pruned set ({d['pruned_features']} features) slows MCTS "
                                     f"down less than the grown set"),
        "pruned_yavalath_still_worse": f"{row.variant}, pruned set ({d['pruned_features']} features): still "
                                       f"significantly below 50% vs UCT",
        "handmade_win_rate": f"{row.variant}, {d['handmade']} hand-made features (weights {d['win_weight']:+g}, "
                             f"{d['loss_weight']:+g}): {row.paper_value:g}% vs UCT",
        "handmade_slowdown": f"{row.variant}, {d['handmade']} hand-made features: slowdown {row.paper_value:g}x",
    }
    return texts[row.claim_id]


class _Claims:
    """The statistics behind each claim; one method per claim id (see ``claims_table``)."""

    def __init__(self, evaluations, slowdowns, claims: pd.DataFrame):
        self.claims_frame = claims
        self.rates = evaluation_rates(evaluations)
        # cells grown by games until decided (a ``grown`` column, as the budget run's final cells carry)
        grown = evaluations[evaluations["grown"].astype(bool)] if evaluations is not None and len(evaluations) \
            and "grown" in evaluations else None
        self.grown = set() if grown is None else set(
            zip(grown["variant"], grown["stage"], grown["strategy"], grown["checkpoint"]))
        self.finals = {stage: final_rates(self.rates, stage) for stage in STAGES}
        self.slow = mean_slowdowns(slowdowns)
        self._pairs = None

    def _final(self, stage, variant, strategy=None):
        cells = self.finals[stage]
        cells = cells[cells["variant"] == variant]
        return cells if strategy is None else cells[cells["strategy"] == strategy]

    def _slowdown(self, stage, variant, strategy):
        s = self.slow
        s = s[(s["stage"] == stage) & (s["variant"] == variant) & (s["strategy"] == strategy)]
        return None if s.empty else float(s["slowdown"].iloc[0])

    def _best_vs_half(self, stage, variant):
        """The best strategy's final cell, its two-sided binomial p vs 50% and that p times the strategies."""
        cells = self._final(stage, variant)
        if cells.empty:
            return None
        best = cells.loc[cells["win_rate"].idxmax()]
        p = _binom_p(best.wins, best.games, 0.5)
        return best, p, min(1.0, p * len(cells)), len(cells)

    def _is_grown(self, cell) -> bool:
        return (cell.variant, cell.stage, cell.strategy, cell.checkpoint) in self.grown

    def _p_vs_half(self, cell) -> float:
        """A cell's two-sided p against 50%: the exact binomial test, or for a cell grown until decided (a game
        count the data chose, where a fixed-sample test is not valid) the anytime-valid p."""
        from ..report import anytime_p_value
        if self._is_grown(cell):
            return anytime_p_value(cell.wins, int(cell.games), 0.5)
        return _binom_p(cell.wins, cell.games, 0.5)

    def _gain(self, stage, variant):
        found = self._best_vs_half(stage, variant)
        if found is None:
            return _result()
        best, p, adjusted, k = found
        if self._is_grown(best):  # grown until decided: its anytime-valid interval (Bonferroni over strategies)
            low, high = self._interval(best, ALPHA / k)
            return _result(f"best: {_cell(best)}", f"the best of {k} strategies' anytime-valid "
                           f"{100 * (1 - ALPHA / k):g}% interval (grown until decided) against 50%: "
                           f"[{low:.1f}, {high:.1f}]", np.nan,
                           UPHELD if low > 50 else NOT_UPHELD if high < 50 else NOT_DECIDED)
        # a gain: upheld when the best strategy is significantly above an even score, not upheld when even the best
        # is significantly below it, not decided otherwise
        significant = adjusted < ALPHA
        verdict = (UPHELD if significant and best.win_rate > 50 else NOT_UPHELD if significant else NOT_DECIDED)
        return _result(f"best: {_cell(best)}", f"two-sided exact binomial test vs 50% of the best of {k} strategies, "
                       f"p={p:.3g}; Bonferroni x{k}: p={adjusted:.3g}", adjusted, verdict)

    def _smaller_grown(self, best, k, pooled):
        """``smaller_gain`` for a variant when a cell involved was grown until decided: intervals instead of
        fixed-sample tests.  The variant's best cell at alpha / 2 (anytime-valid if grown; Bonferroni over the k
        strategies) against the significant-gain variants' pooled rate, bounded by their cells' intervals at
        alpha / (2 n) each (a union bound), weighted by games: smaller when the variant's upper bound is below the
        pool's lower one, larger when above its upper one; above an even score by its own interval."""
        low, high = self._interval(best, ALPHA / (2 * k))
        bounds = [self._interval(c, ALPHA / (2 * len(pooled))) for c in pooled]
        games = sum(c.games for c in pooled)
        pool_low = sum(c.games * b[0] for c, b in zip(pooled, bounds)) / games
        pool_high = sum(c.games * b[1] for c, b in zip(pooled, bounds)) / games
        verdict = (NOT_UPHELD if high < 50 or low > pool_high else
                   UPHELD if high < pool_low and low > 50 else NOT_DECIDED)
        wins = sum(c.wins for c in pooled)
        # shown as the tables show the cell: with the interval its verdict reads, anytime-valid where grown
        shown = _cell(best, self._interval(best, ALPHA), self._is_grown(best))
        return _result(f"best: {shown}; the significant-gain variants' best, pooled: "
                       f"{100 * wins / games:.1f}% of {games:g} games",
                       f"'smaller' on cells grown until decided: the best strategy's interval [{low:.1f}, {high:.1f}] "
                       f"(anytime-valid where grown) against the pooled significant-gain rate's bounds "
                       f"[{pool_low:.1f}, {pool_high:.1f}] (each cell's interval, a union bound): upheld when below "
                       f"it and above 50%, not upheld when above it or below 50%", np.nan, verdict)

    def significant_gain(self, row):
        return self._gain("grown", row.variant)

    def smaller_gain(self, row):
        if row.variant != "all":
            found = self._best_vs_half("grown", row.variant)
            if found is None:
                return _result()
            best, p, adjusted, k = found
            big = [v for v in self.claims_frame.loc[self.claims_frame["claim_id"] == "significant_gain", "variant"]
                   if not self._final("grown", v).empty]
            if not big:
                return _result(f"best: {_cell(best)}", verdict="untested: no significant-gain variant run")
            pooled = [self._best_vs_half("grown", v)[0] for v in big]
            if any(self._is_grown(c) for c in (best, *pooled)):
                return self._smaller_grown(best, k, pooled)
            wins, games = sum(c.wins for c in pooled), sum(c.games for c in pooled)
            test = claim_verdict(best.wins, int(best.games), wins, int(games), direction="less")
            verdict = {"upheld": UPHELD, "contradicted": NOT_UPHELD}.get(test.verdict, NOT_DECIDED)
            # the claim is a gain, only smaller: not upheld when ours is significantly below an even score, and
            # not decided while ours is at or below it (a smaller rate alone is not a smaller gain)
            if best.win_rate < 50 and p < ALPHA:
                verdict = NOT_UPHELD
            elif verdict == UPHELD and best.win_rate <= 50:
                verdict = NOT_DECIDED
            return _result(f"best: {_cell(best)}; the significant-gain variants' best, pooled: "
                           f"{100 * wins / games:.1f}% of {games:g} games",
                           f"'smaller': the best strategy's final rate against the pooled best final rates of the "
                           f"{len(big)} significant-gain variants run, {test.test}, difference {test.estimate:+.1f} "
                           f"[{test.ci_low:.1f}, {test.ci_high:.1f}] points, p={test.p_value:.3g} (contradicted "
                           f"when significantly larger); above 50%: binomial p={p:.3g}, Bonferroni x{k}: "
                           f"p={adjusted:.3g}", test.p_value, verdict)
        group = self.claims_frame[(self.claims_frame["claim_id"] == "smaller_gain")
                                  & (self.claims_frame["variant"] != "all")]["variant"]
        tested = [(v, self._gain("grown", v)) for v in group if not self._final("grown", v).empty]
        if not tested:
            return _result()
        significant = [v for v, r in tested if r["verdict"] == UPHELD]
        against = [v for v, r in tested if r["verdict"] == NOT_UPHELD]  # best significantly below 50%
        need = math.ceil(len(tested) / 2)
        verdict = (UPHELD if len(significant) >= need else NOT_UPHELD if len(tested) - len(against) < need else
                   NOT_DECIDED)
        return _result(f"{len(significant)} of {len(tested)} significant"
                       + (f" ({', '.join(significant)})" if significant else ""),
                       f"'often': at least {need} of the {len(tested)} variants run have their best strategy "
                       f"significantly above 50% (two-sided binomial, Bonferroni over strategies; a cell grown "
                       f"until decided by its anytime-valid interval); not upheld when too many are significantly "
                       f"below it for {need} to be above, not decided otherwise", np.nan, verdict)

    def no_change(self, row):
        cells = self.rates[(self.rates["stage"] == "grown") & (self.rates["variant"] == row.variant)]
        if cells.empty:
            return _result()
        pairs = []
        for strategy, line in cells.groupby("strategy", sort=False):
            line = line.sort_values("checkpoint")
            if len(line) >= 2:
                pairs.append((line.iloc[0], line.iloc[-1]))
        if not pairs:
            return _result("one checkpoint only", verdict="untested: one checkpoint only")
        if any(self._is_grown(c) for pair in pairs for c in pair):
            return self._no_change_grown(pairs)
        # "No apparent change" is an equivalence: each strategy's final rate minus its first within
        # +-EQUIVALENCE_MARGIN (report.equivalence_claim_verdict, two samples); a Fisher test that finds a change
        # (Holm over the strategies) contradicts it; anything else is not decided (never "upheld" for want of games)
        tests = [equivalence_claim_verdict(last.wins, int(last.games), float("nan"), reference_wins=first.wins,
                                           reference_games=int(first.games)) for first, last in pairs]
        adjusted = _holm([_fisher_p(first, last) for first, last in pairs])
        changed = [j for j, p in enumerate(adjusted) if p < ALPHA]
        level = [j for j, t in enumerate(tests) if t.verdict == "upheld"]
        if changed:  # the strategy whose change is clearest
            verdict, i = NOT_UPHELD, int(np.argmin(adjusted))
            p_value = adjusted[i]
        else:  # the strategy furthest from being shown level (all level: the weakest equivalence)
            verdict = UPHELD if len(level) == len(pairs) else NOT_DECIDED
            i = int(np.argmax([t.p_value for t in tests]))
            p_value = tests[i].p_value
        first, last = pairs[i]
        return _result(f"{len(changed)} of {len(pairs)} strategies changed, {len(level)} level within "
                       f"{EQUIVALENCE_MARGIN:g} points; {_name(first.strategy)} {first.win_rate:.1f}% -> "
                       f"{last.win_rate:.1f}% (checkpoints {first.checkpoint:g} -> {last.checkpoint:g}, "
                       f"{first.games:g} and {last.games:g} games; difference {tests[i].estimate:+.1f} "
                       f"[{tests[i].ci_low:.1f}, {tests[i].ci_high:.1f}])",
                       f"per strategy, first vs final checkpoint: {tests[i].test} (upheld when every strategy is "
                       f"level) and two-sided Fisher exact test, Holm over {len(pairs)} strategies (not upheld when "
                       f"one changed); p={p_value:.3g}", p_value, verdict)

    def _interval(self, cell, alpha):
        """A cell's ``1 - alpha`` interval (percent): anytime-valid when it was grown until decided, else
        Clopper-Pearson."""
        grown = self._is_grown(cell)
        low, high = interval_at(cell.wins if grown else int(round(cell.wins)), int(cell.games), alpha, grown)
        return 100 * float(low), 100 * float(high)

    def _no_change_grown(self, pairs):
        """``no_change`` when a cell was grown until decided (against an even score): a fixed-sample two-sample test
        is not valid under that stopping, so each cell's interval at alpha / 2 (anytime-valid for a grown cell) gives
        the difference's bounds, [low_final - high_first, high_final - low_first], a conservative 1 - alpha
        interval: level within the margin, changed when it excludes 0, not decided otherwise; every strategy must
        be level (intersection-union, one comparison each)."""
        bounds = []
        for first, last in pairs:
            f_low, f_high = self._interval(first, ALPHA / 2)
            l_low, l_high = self._interval(last, ALPHA / 2)
            bounds.append((l_low - f_high, l_high - f_low))
        changed = [j for j, (low, high) in enumerate(bounds) if low > 0 or high < 0]
        level = [j for j, (low, high) in enumerate(bounds) if -EQUIVALENCE_MARGIN <= low and high <= EQUIVALENCE_MARGIN]
        verdict = NOT_UPHELD if changed else UPHELD if len(level) == len(pairs) else NOT_DECIDED
        i = changed[0] if changed else max(range(len(pairs)), key=lambda j: bounds[j][1] - bounds[j][0])
        first, last = pairs[i]
        return _result(f"{len(changed)} of {len(pairs)} strategies changed, {len(level)} level within "
                       f"{EQUIVALENCE_MARGIN:g} points; {_name(first.strategy)} {first.win_rate:.1f}% -> "
                       f"{last.win_rate:.1f}% (checkpoints {first.checkpoint:g} -> {last.checkpoint:g}, "
                       f"{first.games:g} and {last.games:g} games; difference {last.win_rate - first.win_rate:+.1f} "
                       f"[{bounds[i][0]:.1f}, {bounds[i][1]:.1f}])",
                       "per strategy, first vs final checkpoint: the difference of the two cells' 97.5% intervals "
                       "(anytime-valid for a cell grown until decided: a fixed-sample test is not valid under that "
                       "stopping), a conservative 95% interval: upheld when every strategy is level within the "
                       "margin, not upheld when one excludes 0", np.nan, verdict)

    def _all_below_half(self, stage, variant, strategy=None):
        cells = self._final(stage, variant, strategy)
        if cells.empty:
            return _result()
        ps = [self._p_vs_half(r) for r in cells.itertuples()]
        best = cells.loc[cells["win_rate"].idxmax()]
        up = all(r.win_rate < 50 for r in cells.itertuples()) and max(ps) < ALPHA
        # against the claim: a strategy significantly above an even score (one test a strategy, Bonferroni)
        above = [p for r, p in zip(cells.itertuples(), ps) if r.win_rate > 50 and p * len(ps) < ALPHA]
        which = "every one of" if len(cells) > 1 else "the"
        return _result(f"best: {_cell(best)}", f"two-sided exact binomial test vs 50% (anytime-valid p for a cell "
                       f"grown until decided) for {which} {len(cells)} "
                       f"strateg{'ies' if len(cells) > 1 else 'y'} (all must be significant: no correction; not "
                       f"upheld when one is significantly above 50%, Bonferroni over them), largest p={max(ps):.3g}",
                       max(ps), UPHELD if up else NOT_UPHELD if above else NOT_DECIDED)

    def significantly_worse(self, row):
        return self._all_below_half("grown", row.variant)

    def _pairwise(self):
        """Correlation-based against each other strategy, every variant, each pair at the last checkpoint both have
        (equal self-play games: a run that trained one strategy longer must not compare its 200th policy with
        another's 50th): rows of (variant, correlation cell, other cell, p), with Holm-adjusted p over all
        comparisons."""
        if self._pairs is None:
            grown, pairs = self.rates[self.rates["stage"] == "grown"], []
            for variant in _variants(grown["variant"]):
                cells = grown[grown["variant"] == variant]
                corr_all = cells[cells["strategy"] == "correlation_based"]
                if corr_all.empty:
                    continue
                for strategy in [x for x in dict.fromkeys(cells["strategy"]) if x != "correlation_based"]:
                    other_all = cells[cells["strategy"] == strategy]
                    shared = sorted(set(corr_all["checkpoint"]) & set(other_all["checkpoint"]))
                    if not shared:
                        continue
                    corr = corr_all[corr_all["checkpoint"] == shared[-1]].iloc[0]
                    other = next(other_all[other_all["checkpoint"] == shared[-1]].itertuples())
                    pairs.append((variant, corr, other, _fisher_p(corr, other)))
            adjusted = _holm([p for *_, p in pairs])
            self._pairs = [(*pair, a) for pair, a in zip(pairs, adjusted)]
        return self._pairs

    def _pair_text(self, pair):
        variant, corr, other, p, adjusted = pair
        return (f"{variant}, checkpoint {int(corr.checkpoint)}: {corr.win_rate:.1f}% vs {_name(other.strategy)} "
                f"{other.win_rate:.1f}% ({corr.games:g} and {other.games:g} games; p={p:.3g}, Holm p={adjusted:.3g})")

    def _pair_test(self, pairs):
        return (f"two-sided Fisher exact test (two proportions), Correlation-based vs each other strategy at the "
                f"last checkpoint both have (self-play games: "
                f"{', '.join(str(c) for c in sorted({int(p[1].checkpoint) for p in pairs}))}); Holm correction over "
                f"all {len(pairs)} comparisons in {len({p[0] for p in pairs})} games")

    def correlation_never_worse(self, row):
        pairs = self._pairwise()
        if not pairs:
            return _result()
        worse = [p for p in pairs if p[1].win_rate < p[2].win_rate and p[4] < ALPHA]
        deficit = min(pairs, key=lambda p: p[1].win_rate - p[2].win_rate)
        # the p shown is the one the verdict rests on: the most significant deficit when there is one
        shown = min(worse, key=lambda p: p[4]) if worse else deficit
        ours = (f"significantly worse in {len(worse)} of {len(pairs)} comparisons; "
                + (f"most significant {self._pair_text(shown)}; " if worse else "")
                + "largest deficit " + self._pair_text(deficit))
        return _result(ours, self._pair_test(pairs), shown[4], NOT_UPHELD if worse else UPHELD)

    def correlation_better_somewhere(self, row):
        pairs = self._pairwise()
        if not pairs:
            return _result()
        better = [p for p in pairs if p[1].win_rate > p[2].win_rate and p[4] < ALPHA]
        lead = max(pairs, key=lambda p: p[1].win_rate - p[2].win_rate)
        # the p shown is the one the verdict rests on: the most significant lead when there is one
        shown = min(better, key=lambda p: p[4]) if better else lead
        ours = (f"significantly better in {len(better)} of {len(pairs)} comparisons; "
                + (f"most significant {self._pair_text(shown)}; " if better else "")
                + "largest lead " + self._pair_text(lead))
        # not upheld only when it is significantly behind in every comparison; no lead found decides nothing
        behind_everywhere = all(p[1].win_rate < p[2].win_rate and p[4] < ALPHA for p in pairs)
        return _result(ours, self._pair_test(pairs), shown[4],
                       UPHELD if better else NOT_UPHELD if behind_everywhere else NOT_DECIDED)

    def _reference(self, cell, percent, kind):
        """A cell against the paper's percentage as a fixed reference (the games behind it are not stated): an
        equivalence claim (``report.equivalence_claim_verdict``, margin ``report.EQUIVALENCE_MARGIN``): upheld
        when ours lies within the margin of the paper's value; "higher/lower than the paper" when it differs;
        "not decided" otherwise.  Never "upheld unless lower"."""
        test = equivalence_claim_verdict(cell.wins, int(cell.games), percent)
        verdict = UPHELD if test.verdict == "upheld" else test.verdict
        return _result(f"{kind}{_cell(cell)}", f"{test.test}: difference {test.estimate:+.1f} "
                       f"[{test.ci_low:.1f}, {test.ci_high:.1f}] points, p={test.p_value:.3g}", test.p_value, verdict)

    def greedy_competitive(self, row):
        cells = self._final("greedy", row.variant)
        if cells.empty:
            return _result()
        return self._reference(cells.loc[cells["win_rate"].idxmax()], row.paper_value, "best: ")

    def handmade_win_rate(self, row):
        cells = self._final("handmade", row.variant)
        if cells.empty:
            return _result()
        return self._reference(cells.iloc[0], row.paper_value, "")

    def _tolerance(self, value, paper):
        if value is None:
            return _result()
        up = 1 / SLOWDOWN_TOLERANCE <= value / paper <= SLOWDOWN_TOLERANCE
        return _result(f"{value:.2f}x", f"within a factor of {SLOWDOWN_TOLERANCE:g} of the paper's {paper:g}x "
                       f"(a tolerance: a ratio of mean iteration counts has no sampling error here, and depends on "
                       f"the implementation); ratio {value / paper:.2f}", np.nan, UPHELD if up else NOT_UPHELD)

    def slowdown_worst(self, row):
        if row.quantity == "slowdown":
            return self._tolerance(self._slowdown("grown", row.variant, "correlation_based"), row.paper_value)
        s = self.slow[(self.slow["stage"] == "grown") & (self.slow["strategy"] == "correlation_based")]
        if row.variant not in set(s["variant"]):
            return _result()
        if len(s) < 2:
            return _result(f"{row.variant} only", verdict="untested: one variant only")
        s = s.sort_values("slowdown", ascending=False)
        rank = list(s["variant"]).index(row.variant) + 1
        top = ", ".join(f"{r.variant} {r.slowdown:.2f}x" for r in s.head(3).itertuples())
        return _result(f"{row.variant} ranks {rank} of {len(s)} (largest: {top})",
                       "ranking of mean slowdowns (Correlation-based, grown set)", np.nan,
                       UPHELD if rank == 1 else NOT_UPHELD)

    def pruned_gain(self, row):
        cell = self._final("pruned", row.variant, "correlation_based")
        if cell.empty:
            return _result()
        cell = cell.iloc[0]
        p = self._p_vs_half(cell)
        return _result(_cell(cell), f"two-sided exact binomial test vs 50% (anytime-valid p if grown until "
                       f"decided; Correlation-based, as Fig. 8), "
                       f"p={p:.3g}", p, NOT_DECIDED if p >= ALPHA else UPHELD if cell.win_rate > 50 else NOT_UPHELD)

    def pruned_yavalath_improved(self, row):
        if row.quantity == "slowdown":
            grown = self._slowdown("grown", row.variant, "correlation_based")
            pruned = self._slowdown("pruned", row.variant, "correlation_based")
            if grown is None or pruned is None:
                return _result()
            return _result(f"pruned {pruned:.2f}x vs grown {grown:.2f}x", "pruned slowdown below the grown set's "
                           "(Correlation-based; no sampling error available)", np.nan,
                           UPHELD if pruned < grown else NOT_UPHELD)
        grown = self._final("grown", row.variant, "correlation_based")
        pruned = self._final("pruned", row.variant, "correlation_based")
        if grown.empty or pruned.empty:
            return _result()
        grown, pruned = grown.iloc[0], pruned.iloc[0]
        p = _fisher_p(pruned, grown)
        verdict = NOT_DECIDED if p >= ALPHA else UPHELD if pruned.win_rate > grown.win_rate else NOT_UPHELD
        return _result(f"pruned: {_cell(pruned)}; grown: {_cell(grown)}", f"two-sided Fisher exact test (two "
                       f"proportions), pruned vs grown final checkpoint (Correlation-based), p={p:.3g}", p, verdict)

    def pruned_yavalath_still_worse(self, row):
        return self._all_below_half("pruned", row.variant, "correlation_based")

    def handmade_slowdown(self, row):
        s = self.slow[(self.slow["stage"] == "handmade") & (self.slow["variant"] == row.variant)]
        return self._tolerance(None if s.empty else float(s["slowdown"].mean()), row.paper_value)


def claims_table(evaluations: pd.DataFrame | None, slowdowns: pd.DataFrame | None) -> pd.DataFrame:
    """The paper's claims (``data/paper/soemers2019_claims.csv``, Sections V-B to V-D), each tested on our data.

    One row per claim row of the CSV (the ``design`` rows only phrase the claims), columns ``claim_id``,
    ``variant``, ``claim``, ``paper`` (the paper's words, with its number where it gives one, and where),
    ``ours`` (value with its 95% interval and the games behind it), ``test`` (named, with its p-value),
    ``p_value`` and ``verdict`` ("upheld", "not upheld", "not decided", or "untested: ..." when we have no data
    for it).  Every test is two-sided at alpha = 0.05; "the final checkpoint" is the largest one we ran.  A claim
    tested on win rates is "not upheld" only when the games find significantly against it, and "not decided" when
    they find neither way (a verdict must be able to come out both ways); the slowdown claims, which have no
    sampling error, are upheld or not.

    Operational tests for the qualitative claims:

    * significant_gain (Fig. 4): the best strategy's final win rate is above 50% and its exact binomial test
      against 50% is significant after a Bonferroni correction for picking the best of the k strategies (p x k);
      not upheld when even the best is significantly below 50%.
    * smaller_gain (Fig. 4): per variant, "smaller" tested: the best strategy's final win rate against the pooled
      best final rates of the significant-gain variants (Fisher's exact test, two-sided): upheld when
      significantly smaller while above an even score, not upheld when significantly larger or significantly below
      50% (a loss is no gain), "not decided" otherwise (on cells grown until decided, by intervals:
      ``_smaller_grown``); the group row ("all")
      is upheld when at least half of the variants run are significant by the significant_gain test, not upheld
      when so many are significantly below 50% that half cannot be.
    * no_change (Gomoku): an equivalence, per strategy the final checkpoint's win rate minus the first's: upheld
      when every strategy's difference lies within +-``report.EQUIVALENCE_MARGIN`` (two-sample equivalence,
      ``report.equivalence_claim_verdict``: each at alpha, an intersection-union test), not upheld when Fisher's
      exact test finds a change in one (Holm over the strategies), not decided otherwise.  Needs two checkpoints.
      Where a cell was grown until decided (``evaluations`` with a ``grown`` column, as the budget run's final
      cells), the fixed-sample tests are not valid: the difference's bounds come from each cell's 97.5% interval
      (anytime-valid for a grown cell), a conservative 95% interval (``_no_change_grown``).
    * significantly_worse (Yavalath): every strategy's final win rate is significantly below 50% (intersection-
      union: each test at alpha, no correction needed); not upheld when one is significantly above 50% (Bonferroni
      over the strategies).
    * correlation_never_worse / correlation_better_somewhere: Fisher's exact test of Correlation-based against
      each other strategy at the last checkpoint both have (equal self-play games, so a strategy trained longer
      in a run is not compared at a later policy than the other's), in every game, Holm-adjusted over all those
      comparisons
      (multiple comparisons: 3 per game, up to 30); "never worse" is upheld when no adjusted test finds it
      significantly behind, "better somewhere" when one finds it significantly ahead (not upheld only when every
      one finds it significantly behind).
    * greedy_competitive (40%) and handmade_win_rate (93%): the paper's rate is a fixed reference (the games
      behind it are not stated): an equivalence claim (``report.equivalence_claim_verdict``, +-10 points):
      upheld when ours (the best strategy's, for the greedy agent) lies within the margin, "higher/lower than
      the paper" when it differs, "not decided" otherwise.
    * slowdown_worst: Yavalath's mean slowdown (Correlation-based, grown set) ranks first among the variants run;
      slowdown numbers (8x, 30x) are upheld within a factor ``SLOWDOWN_TOLERANCE`` (no sampling error exists for
      them, and they depend on how fast the game's own code is).
    * pruned_gain, pruned_yavalath_* (Fig. 8, which like Fig. 5 shows the Correlation-based set): the pruned
      set's final win rate against 50% (binomial), against the grown set's final (Fisher), each not upheld when
      significant the other way, and its slowdown against the grown set's.
    """
    paper = paper_claims()
    design = _design(paper)
    claims = paper[paper["claim_id"] != "design"].reset_index(drop=True)
    tester = _Claims(evaluations, slowdowns, claims)
    rows = []
    for row in claims.itertuples():
        result = getattr(tester, row.claim_id)(row)
        rows.append({"claim_id": row.claim_id, "variant": row.variant, "claim": _claim_text(row, design),
                     "paper": f"\"{row.paper_words}\" ({row.source})", **result})
    return pd.DataFrame(rows, columns=["claim_id", "variant", "claim", "paper", "ours", "test", "p_value", "verdict"])


# ---- the final comparison at the paper's budget ------------------------------------------------------------------
FINAL_STAGES = {"final_equal_time": "equal time", "final_equal_iterations": "equal iterations",
                "final_greedy": "greedy agent", "final_paper_slowdown": "equal time at the paper's slowdown"}
#: What Fig. 4 says of each variant after 200 self-play games, as the direction of Biased MCTS against UCT (the
#: Correlation-based set): above 50% ("significant" or "smaller" gain), about 50% (Gomoku: "no apparent change",
#: read as level with UCT), below 50% (Yavalath).
PAPER_DIRECTION = {"Breakthrough": "higher", "Fanorona": "higher", "Hex (11x11)": "higher", "Othello": "higher",
                   "Teeko": "higher", "Connect Four": "higher", "Hex (7x7)": "higher", "Knightthrough": "higher",
                   "Gomoku": "level", "Yavalath": "lower"}
#: The greedy agent's rate against UCT as the paper gives it (V-B, Fig. 6): "a win percentage of 40%" in Breakthrough
#: and Teeko, "close to 0%" in the others (0 here: ``value_verdict`` reads it as the region below the margin).  The
#: reference of the final comparison's greedy cells (``final_greedy``).
GREEDY_PAPER_PERCENT = {"Breakthrough": 40.0, "Teeko": 40.0}


def greedy_reference(variant: str) -> float:
    """The paper's greedy win percentage for ``variant`` (``GREEDY_PAPER_PERCENT``; 0 for "close to 0%")."""
    return GREEDY_PAPER_PERCENT.get(variant, 0.0)


def value_reference(stage: str, variant: str, strategy: str) -> float | None:
    """The paper's value a final-comparison cell is read against, where the paper gives a value rather than a
    direction: the greedy agent's rate (``greedy_reference``) and the hand-made Yavalath agent's 93% (the claims
    file's ``handmade_win_rate``); None for the other cells (read against an even score)."""
    if stage == "final_greedy":
        return greedy_reference(variant)
    if strategy == "handmade":
        paper = paper_claims()
        return float(paper.loc[paper["claim_id"] == "handmade_win_rate", "paper_value"].iloc[0])
    return None


def three_way(wins: float, games: float, grown: bool = False) -> str:
    """A cell against 50% (``report.cell_verdict`` with 50% as a fixed reference, margin
    ``report.EQUIVALENCE_MARGIN``; a cell grown by games until decided by its anytime-valid interval): "higher" /
    "lower" than UCT, "level" (inside 50 +- the margin) or "undecided"."""
    from ..report import cell_verdict
    if not games:
        return "undecided"
    verdict = cell_verdict(wins, int(games), 50.0, None, anytime=bool(grown)).verdict
    return "level" if verdict == "reproduced" else verdict


def final_interval(wins: float, games: float, grown: bool = False, reference: float = 50.0) -> tuple[float, float]:
    """The 95% interval (percent) behind ``three_way``'s outcome: Clopper-Pearson, or for a cell grown by games until
    decided the anytime-valid confidence sequence (``report.cell_verdict`` against ``reference`` as a fixed
    reference: the interval of ours, whatever the reference)."""
    from ..report import cell_verdict
    verdict = cell_verdict(wins, int(games), reference, None, anytime=bool(grown))
    return reference + verdict.ci_low, reference + verdict.ci_high


def _games_text(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def final_agent_name(strategy: str, checkpoint: int, stage: str) -> str:
    """The agent column of a final-comparison row: the hand-made features, the greedy agent, or the strategy and
    the self-play games its policy had."""
    if strategy == "handmade":
        return "hand-made features"
    name = f"{_name(strategy)}, {_games_text(int(checkpoint))}"
    return f"greedy agent ({name})" if stage == "final_greedy" else name


def paper_slowdown(variant: str, strategy: str) -> float | None:
    """The slowdown the paper reports for an agent of the final comparison, if it gives one: Yavalath's learned set
    (8x, V-B) and its hand-made features (30x, V-D), from ``data/paper/soemers2019_claims.csv``.  The final
    comparison also plays those agents at the paper's budget with UCT's iterations over that slowdown (stage
    ``final_paper_slowdown``): whether a verdict that differs from the paper's follows from our smaller slowdown."""
    claims = paper_claims()
    claim = "handmade_slowdown" if strategy == "handmade" else "slowdown_worst"
    rows = claims[(claims["claim_id"] == claim) & (claims["variant"] == variant) & (claims["quantity"] == "slowdown")]
    return float(rows["paper_value"].iloc[0]) if len(rows) else None


def value_verdict(wins: float, games: int, reference: float, grown: bool = False) -> str:
    """A cell against a value the paper gives (``value_reference``): ``report.cell_verdict``'s three-way verdict
    ("reproduced" within ``report.EQUIVALENCE_MARGIN`` of it, "higher" / "lower" when the interval excludes it,
    "undecided"; anytime-valid for a grown cell), except for "close to 0%" (reference 0), which is not a point: as
    the paper ("reproduced") when the interval lies below the margin, "higher" when it lies above it, undecided
    otherwise (one win does not make a rate "higher than close to 0%")."""
    from ..report import cell_verdict
    verdict = cell_verdict(wins, int(games), reference, None, anytime=bool(grown))
    if reference != 0:
        return verdict.verdict
    low, high = verdict.ci_low, verdict.ci_high  # the interval of ours (the reference is 0)
    return ("reproduced" if high <= EQUIVALENCE_MARGIN else "higher" if low > EQUIVALENCE_MARGIN else
            "undecided")


def paper_value_text(stage: str, variant: str, strategy: str) -> str:
    """The paper column of a final-comparison row: the paper's value (``value_reference``: the greedy agent's 40% or
    "close to 0%", the hand-made agent's 93%) or its direction against UCT (``PAPER_DIRECTION``)."""
    reference = value_reference(stage, variant, strategy)
    if reference is None:
        return PAPER_DIRECTION[variant]
    return f"{reference:g}%" if reference or stage != "final_greedy" else "close to 0%"


FINAL_COLUMNS = ["variant", "agent", "rules", "Ludii seconds", "UCT iterations", "Biased MCTS iterations", "games",
                 "win %", "95% interval", "ours", "paper", "verdict"]


def _final_row(r) -> dict:
    """One final-comparison cell (an ``evaluations`` row with games) as a row of ``final_table``.  A cell whose
    paper gives a value (``value_reference``: the greedy agent, the hand-made agent) is read against that value, as
    the paper when within ``report.EQUIVALENCE_MARGIN`` of it; the others against an even score (``three_way``)
    beside the paper's direction."""
    grown = bool(getattr(r, "grown", False))
    reference = value_reference(r.stage, r.variant, r.strategy)
    if reference is not None:
        low, high = final_interval(r.wins, r.games, grown, reference)
        outcome = value_verdict(r.wins, int(r.games), reference, grown)
        ours = f"within {EQUIVALENCE_MARGIN:g} points of it" if outcome == "reproduced" else outcome
        paper = paper_value_text(r.stage, r.variant, r.strategy)
        verdict = ("undecided" if outcome == "undecided" else "as the paper" if outcome == "reproduced" else
                   "not as the paper")
    else:
        low, high = final_interval(r.wins, r.games, grown)
        ours = three_way(r.wins, r.games, grown)
        paper = PAPER_DIRECTION[r.variant]
        verdict = "undecided" if ours == "undecided" else "as the paper" if ours == paper else "not as the paper"
    return {"variant": r.variant, "agent": final_agent_name(r.strategy, r.checkpoint, r.stage), "rules": r.rules,
            "Ludii seconds": r.ludii_seconds, "UCT iterations": int(r.budget),
            "Biased MCTS iterations": int(r.biased_budget), "games": int(r.games),
            "win %": round(100 * r.wins / r.games, 1),
            "95% interval": f"[{low:.1f}, {high:.1f}]" + (" anytime" if grown else ""),
            "ours": ours, "paper": paper, "verdict": verdict}


def _sorted_final(table: pd.DataFrame) -> pd.DataFrame:
    """A final-comparison table in the notebook's order, with the key of its ``ours`` and ``verdict`` columns."""
    from ..report import with_key
    order = {v: i for i, v in enumerate(VARIANTS)}
    table = table.sort_values(["Ludii seconds", "variant", "agent", "rules"], ascending=[False, True, True, True],
                              key=lambda s: s.map(order) if s.name == "variant" else s).reset_index(drop=True)
    return with_key(table, FINAL_KEY)


#: The key under a final-comparison table's Markdown file (``report.with_key``).
FINAL_KEY = ("`ours` reads our win % against the `paper` column: where the paper gives a direction against UCT "
             "(higher, level, lower), against an even score: level when the 95% interval lies within "
             f"±{EQUIVALENCE_MARGIN:g} points of 50%, else higher / lower when it excludes 50%, else undecided; where it gives a value (the greedy agent's 40%, the hand-made agent's 93%), \"within "
             f"{EQUIVALENCE_MARGIN:g} points of it\" when the interval of ours minus it lies inside "
             f"±{EQUIVALENCE_MARGIN:g}, higher / lower when it excludes it; \"close to 0%\" is read as the region "
             f"below {EQUIVALENCE_MARGIN:g}%: within it when the interval lies below, higher when above. `verdict`: as "
             "the paper when `ours` says what the paper says, not as the paper when it says otherwise, undecided "
             "when ours is. \"anytime\": the interval of a cell grown until decided.")


def final_table(evaluations: pd.DataFrame | None, stage: str = "final_equal_time") -> pd.DataFrame:
    """The final comparison at the Ludii budget (``stage``: "final_equal_time", the primary, or
    "final_equal_iterations"): per variant, agent, thinking time and rules, the iterations each agent got, the
    win rate with the 95% interval its outcome rests on (``final_interval``: Clopper-Pearson; "anytime" marks the
    anytime-valid interval of a cell grown by games until decided), the outcome against 50% (``three_way``), the
    paper's direction (``PAPER_DIRECTION``; the hand-made agent: its 93%, "higher") and whether ours agrees ("as
    the paper", "not as the paper" once decided, else "undecided")."""
    if evaluations is None or "ludii_seconds" not in evaluations or stage not in set(evaluations["stage"]):
        return pd.DataFrame(columns=FINAL_COLUMNS)
    cells = evaluations[(evaluations["stage"] == stage) & (evaluations["games"] > 0)]
    return _sorted_final(pd.DataFrame([_final_row(r) for r in cells.itertuples()], columns=FINAL_COLUMNS))


def final_summary(evaluations: pd.DataFrame | None) -> pd.DataFrame:
    """Counts of verdicts per comparison (equal time / equal iterations), thinking time and rules."""
    frames = []
    for stage, name in FINAL_STAGES.items():
        t = final_table(evaluations, stage)
        if len(t):
            frames.append(t.assign(comparison=name))
    if not frames:
        return pd.DataFrame(columns=["comparison", "Ludii seconds", "rules", "as the paper", "not as the paper",
                                     "undecided"])
    t = pd.concat(frames)
    counts = t.groupby(["comparison", "Ludii seconds", "rules", "verdict"]).size().unstack(fill_value=0)
    for c in ("as the paper", "not as the paper", "undecided"):
        if c not in counts:
            counts[c] = 0
    counts = counts[["as the paper", "not as the paper", "undecided"]].reset_index()
    counts.columns.name = None  # the unstacked level's name ("verdict") would title the index column
    return counts


# ---- Figures 9 and 10: Yavalath's features -------------------------------------------------------------------
#: The two learned Yavalath features the paper describes (Fig. 10), written as features: the move blocks the
#: opponent's four (the hand-made win pattern X X _ X with enemy pieces), and the win pattern with "a seemingly
#: unnecessary requirement for an adjacent opposing piece" (which neighbour the figure shows is not said in the
#: text: the first one off the line, turn 1/6, is our choice).
PAPER_FIG10 = {"blocks the opponent's win": "rel:to=<{}>:pat=<els=[e{0}, e{1/2}, e{0,0}]>",
               "win with an adjacent enemy piece": "rel:to=<{}>:pat=<els=[f{0}, f{1/2}, f{0,0}, e{1/6}]>"}


def _yavalath_graph():
    from ..games import make_game
    game = make_game("yavalath", 5)
    return game.module.board_graph(game.spec)


def draw_handmade_features():
    """Fig. 9: the three hand-made Yavalath features (``ppalib.features.handmade``) with their weights."""
    import matplotlib.pyplot as plt
    from ..features import draw_feature
    from ..features.drawing import SYMBOL_KEY, feature_radius
    from ..features.feature import Feature
    from ..features.handmade import YAVALATH_FEATURES, YAVALATH_WEIGHTS
    graph = _yavalath_graph()
    names = ("win: X X _ X", "loss: X X _", "loss: X _ X")
    features = [Feature.from_text(text) for text in YAVALATH_FEATURES]
    radius = max(feature_radius(f, graph) for f in features)  # one scale for the three panels
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.4))
    for ax, feature, weight, name in zip(axes, features, YAVALATH_WEIGHTS, names):
        draw_feature(feature, graph, ax=ax, title=False, radius=radius)
        ax.set_title(f"{name}, weight {weight:+g}\n{feature.to_text()}", fontsize=7)
    fig.text(0.5, 0.01, SYMBOL_KEY, ha="center", va="bottom", fontsize=7)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def fig10_rows(policy) -> pd.DataFrame:
    """Where the paper's two described features (``PAPER_FIG10``) stand in a learned Yavalath ``policy`` (a
    ``LinearPolicy``): the rank by |theta| of an equivalent feature and its weight (NaN when the set has none),
    and the hand-made three likewise."""
    from ..features.feature import Feature
    from ..features.handmade import YAVALATH_FEATURES
    fs = policy.feature_set
    theta = np.asarray(policy.theta)
    order = sorted(range(theta.size), key=lambda i: (-abs(theta[i]), i))
    rank = {i: k + 1 for k, i in enumerate(order)}
    rows = []
    named = [*PAPER_FIG10.items(), *zip(("hand-made win X X _ X", "hand-made loss X X _", "hand-made loss X _ X"),
                                        YAVALATH_FEATURES)]
    for name, text in named:
        # Learned placement features carry "-{}" (the move's cell is empty), redundant for a placement: either
        # spelling counts.
        spellings = [Feature.from_text(text), Feature.from_text(text.replace("els=[", "els=[-{}, "))]
        match = next((fs.index(f) for f in spellings if fs.contains_equivalent(f)), None)
        rows.append({"feature": name, "text": Feature.from_text(text).to_text(), "in the learned set": match is not None,
                     "rank by |theta|": np.nan if match is None else rank[match],
                     "theta": np.nan if match is None else round(float(theta[match]), 3),
                     "features in the set": len(fs)})
    return pd.DataFrame(rows)


def draw_fig10(policy, count: int = 4):
    """Fig. 10 beside the paper: top row, the paper's two described features (``PAPER_FIG10``); bottom row, the
    ``count`` features of largest |theta| of a learned Yavalath ``policy``, weights and ranks in the titles."""
    import matplotlib.pyplot as plt
    from ..features import draw_feature
    from ..features.drawing import SYMBOL_KEY, feature_radius
    from ..features.feature import Feature
    graph = _yavalath_graph()
    fig, axes = plt.subplots(2, count, figsize=(2.8 * count, 6.3), squeeze=False)
    fig.text(0.5, 0.01, SYMBOL_KEY, ha="center", va="bottom", fontsize=7)
    learned = []
    if policy is not None:
        fs, theta = policy.feature_set, np.asarray(policy.theta)
        learned = sorted(range(theta.size), key=lambda i: (-abs(theta[i]), i))[:count]
    shown = [Feature.from_text(text) for text in PAPER_FIG10.values()] + [fs[i] for i in learned]
    radius = max(feature_radius(f, graph) for f in shown)  # every panel at one scale
    for ax, (name, text) in zip(axes[0], PAPER_FIG10.items()):
        draw_feature(Feature.from_text(text), graph, ax=ax, title=False, radius=radius)
        ax.set_title(f"paper, Fig. 10: {name}", fontsize=7)
    for ax in axes[0][len(PAPER_FIG10):]:
        ax.axis("off")
    if policy is None:
        for ax in axes[1]:
            ax.axis("off")
        axes[1][0].text(0.5, 0.5, "no learned Yavalath policy yet", ha="center", va="center")
        return fig
    for k, (ax, i) in enumerate(zip(axes[1], learned)):
        draw_feature(fs[i], graph, ax=ax, title=False, radius=radius)
        ax.set_title(f"learned #{k + 1}: theta = {theta[i]:+.2f}\n{fs[i].to_text()}", fontsize=6)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


# ---- the budget run so far (``soemers2019.budget_run``) ------------------------------------------------------
NOT_PLAYED = "not played yet"
EVALUATION_STAGE_NAMES = {"grown": "evaluation, growing sets (Fig. 4)", "greedy": "evaluation, greedy agent (Fig. 6)",
                          "pruned": "evaluation, pruned sets (Figs. 7-8)", "handmade": "evaluation, hand-made Yavalath"}


def _runs_progress(runs: pd.DataFrame) -> list[dict]:
    rows = []
    if runs.empty:
        return rows
    for (stage, strategy), group in runs.groupby(["stage", "strategy"], sort=False):
        finished = int((group["games stored"] >= group["games planned"]).sum())
        rows.append({"stage": f"self-play, {stage} sets", "part": _name(strategy), "runs or cells": len(group),
                     "done": finished, "started": int((group["games stored"] > 0).sum()),
                     "games planned": int(group["games planned"].sum()),
                     "games stored": int(group["games stored"].sum())})
    return rows


def budget_final_table(run: dict, stage: str = "final_equal_time") -> pd.DataFrame:
    """``final_table`` over every final cell the budget preset plans (``run["final_plan"]``): a cell with stored games
    as there, one without "not played yet" (its Biased MCTS iterations empty until the slowdown that sets them, for
    equal time, is measured)."""
    plan = run["final_plan"]
    evaluations = run["evaluations"]
    if plan.empty:
        return pd.DataFrame(columns=FINAL_COLUMNS)
    plan = plan[plan["stage"] == stage]
    has_final = len(evaluations) and "ludii_seconds" in evaluations
    rows = []
    for cell in plan.itertuples():
        mine = evaluations[(evaluations["stage"] == stage) & (evaluations["variant"] == cell.variant)
                           & (evaluations["strategy"] == cell.strategy) & (evaluations["rules"] == cell.rules)
                           & (evaluations["checkpoint"] == cell.checkpoint)
                           & (evaluations["ludii_seconds"] == cell.ludii_seconds)] if has_final else pd.DataFrame()
        played = mine[mine["games"] > 0] if len(mine) else mine
        if len(played):
            rows.append(_final_row(next(played.itertuples())))
            continue
        biased = (int(mine["biased_budget"].iloc[0]) if len(mine) else
                  int(cell.budget) if stage == "final_equal_iterations" else 0 if stage == "final_greedy" else pd.NA)
        paper = paper_value_text(stage, cell.variant, cell.strategy)
        rows.append({"variant": cell.variant, "agent": final_agent_name(cell.strategy, cell.checkpoint, stage),
                     "rules": cell.rules, "Ludii seconds": cell.ludii_seconds,
                     "UCT iterations": int(cell.budget), "Biased MCTS iterations": biased, "games": 0,
                     "win %": np.nan, "95% interval": "", "ours": NOT_PLAYED, "paper": paper, "verdict": NOT_PLAYED})
    table = _sorted_final(pd.DataFrame(rows, columns=FINAL_COLUMNS))
    table["Biased MCTS iterations"] = table["Biased MCTS iterations"].astype("Int64")
    return table


def budget_run_status(run: dict) -> dict[str, pd.DataFrame]:
    """The tables of the notebook's section on the budget run (``soemers2019.budget_run``), each empty-safe:

    ``progress``: planned against stored, per stage: self-play runs and games per strategy (growing and pruned
    sets), evaluation cells and games per stage, and the final comparison's cells per table and thinking time (its
    first games a cell, then up to ``final_games`` until decided);  ``done``: runs finished, evaluation cells with
    all their games, final cells decided;
    ``selfplay``: games stored / planned per run (variant x stage and strategy);
    ``feature_sizes``: features of each growing-set policy at each checkpoint reached;
    one per ``FINAL_STAGES`` (``final_equal_time``, the primary, ``final_equal_iterations``, ``final_greedy``,
    ``final_paper_slowdown``): ``budget_final_table``;
    ``claims``: ``budget_claims``: the paper's claims on the budget run, those about the final checkpoint against
    UCT at the paper's 5 s (its final comparison), those comparing strategies or about pruned sets on its
    evaluation games;
    ``stage_times``: the wall time each stage logged (``stage_times.csv``), calls and hours, beside the CPU hours
    of the stage's stored games (``_stored_cpu_seconds``: complete, where a call cut by an interruption logs no
    wall time);
    ``paper_cost``: the paper preset's cost extrapolated from the stored games (``soemers2019.COST_METHOD``)."""
    s = run["settings"]
    runs, evaluations, plan = run["runs"], run["evaluations"], run["evaluation_plan"]
    rows = _runs_progress(runs)
    for stage, name in EVALUATION_STAGE_NAMES.items():
        planned = plan[plan["stage"] == stage] if len(plan) else plan
        if planned is None or not len(planned):
            continue
        mine = evaluations[evaluations["stage"] == stage] if len(evaluations) else evaluations
        rows.append({"stage": name, "part": "every strategy" if stage != "handmade" else "hand-made features",
                     "runs or cells": int(planned["cells"].sum()),
                     "done": int((mine["games"] >= (s["handmade_games"] if stage == "handmade" else
                                                                  s["games_per_cell"])).sum()) if len(mine) else 0,
                     "started": int((mine["games"] > 0).sum()) if len(mine) else 0,
                     "games planned": int(planned["games"].sum()),
                     "games stored": int(mine["games"].sum()) if len(mine) else 0})
    final_plan = run["final_plan"]
    first = int(run.get("final_first", 0))
    for (stage, seconds), cells in (final_plan.groupby(["stage", "ludii_seconds"], sort=False) if len(final_plan)
                                    else []):
        table = budget_final_table(run, stage)
        table = table[table["Ludii seconds"] == seconds]
        rows.append({"stage": f"final comparison, {FINAL_STAGES[stage]}", "part": f"Ludii {seconds:g} s",
                     "runs or cells": len(cells), "done": int((table["verdict"] != NOT_PLAYED).sum()
                                                                            - (table["verdict"] == "undecided").sum()),
                     "started": int((table["games"] > 0).sum()), "games planned": len(cells) * first,
                     "games stored": int(table["games"].sum()),
                     "games at most": len(cells) * int(s["final_games"])})
    progress = pd.DataFrame(rows, columns=["stage", "part", "runs or cells", "done", "started",
                                           "games planned", "games stored", "games at most"])
    progress["games at most"] = progress["games at most"].fillna(progress["games planned"]).astype(int)
    selfplay = pd.DataFrame()
    if len(runs):
        cells = runs.assign(games=runs["games stored"].astype(str) + " / " + runs["games planned"].astype(str),
                            column=runs["stage"] + ", " + runs["strategy"].map(_name))
        selfplay = cells.pivot_table(index="variant", columns="column", values="games", aggfunc="first", sort=False)
        selfplay = selfplay.reindex([v for v in VARIANTS if v in selfplay.index])
        selfplay.columns.name = None
        selfplay = selfplay.reset_index()
    sizes = run["sizes"]
    feature_sizes = (sizes.pivot_table(index=["variant", "strategy"], columns="checkpoint", values="features",
                                       aggfunc="first").reindex(columns=list(s["checkpoints"])).astype("Int64")
                     if len(sizes) else pd.DataFrame())  # a column per planned checkpoint, empty until reached
    if len(feature_sizes):
        feature_sizes.columns = [f"after {c} games" for c in feature_sizes.columns]
        feature_sizes = feature_sizes.reset_index()
        feature_sizes["strategy"] = feature_sizes["strategy"].map(_name)
    times = run["stage_times"]
    stage_times = pd.DataFrame(columns=["stage", "calls", "wall seconds", "wall hours", "CPU hours of the games"])
    if len(times):
        grouped = times.groupby("stage", sort=False)["wall_seconds"].agg(["size", "sum"]).reset_index()
        cpu = _stored_cpu_seconds(run)
        stage_times = pd.DataFrame({"stage": grouped["stage"], "calls": grouped["size"],
                                    "wall seconds": grouped["sum"].round(1),
                                    "wall hours": (grouped["sum"] / 3600).round(2),
                                    "CPU hours of the games": [round(cpu[st] / 3600, 2) if st in cpu else np.nan
                                                               for st in grouped["stage"]]})
        stage_times.loc[len(stage_times)] = ["total", int(grouped["size"].sum()), round(grouped["sum"].sum(), 1),
                                             round(grouped["sum"].sum() / 3600, 2), round(sum(cpu.values()) / 3600, 2)]
    return {"progress": progress, "selfplay": selfplay, "feature_sizes": feature_sizes,
            "claims": with_holm_over_tested(budget_claims(run)),
            **{stage: budget_final_table(run, stage) for stage in FINAL_STAGES},
            "stage_times": stage_times, "paper_cost": run.get("paper_cost", pd.DataFrame())}


def _stored_cpu_seconds(run: dict) -> dict:
    """CPU seconds of the budget run's stored games per logged stage name (each game's own timing, in the
    store whatever call played it): self-play from each run's games and mean seconds a game, the evaluation and
    final-comparison games from the store's per-game records, grouped as the runner plays them
    (``run["game_stages"]``, ``soemers2019.GAME_STAGES``)."""
    out = {}
    runs = run["runs"]
    if len(runs):
        for stage, name in (("growing", "self-play, growing sets"), ("pruned", "self-play, pruned sets")):
            mine = runs[runs["stage"] == stage]
            out[name] = float((mine["games stored"] * mine["seconds a game"].fillna(0.0)).sum())
    games, evaluations = run["games"], run["evaluations"]
    if len(games) and len(evaluations):
        stages = games.merge(evaluations[["condition_id", "stage"]].drop_duplicates("condition_id"), on="condition_id")
        by_stage = stages.groupby("stage")["seconds"].sum()
        for name, kinds in run["game_stages"].items():
            out[name] = float(by_stage.reindex(sorted(kinds)).fillna(0.0).sum())
    return out


def budget_findings(run: dict, claims_before: pd.DataFrame | None = None, before_name: str = "quick run") -> str:
    """The numbers the section on the budget run quotes, as Markdown bullets computed from its store (nothing typed
    in); says so when nothing is stored yet.  ``claims_before``: the claims table of the notebook's own run
    (``before_name``), whose verdicts for ``WATCHED_CLAIMS`` are set beside the budget run's."""
    from .. import paths
    folder = paths.shown(run["results_dir"])
    if not run["exists"]:
        return f"- *Nothing of the budget run is stored yet* (`{folder}`): every table below says what is planned."
    status = budget_run_status(run)
    progress = status["progress"]
    out = []
    selfplay = progress[progress["stage"].str.startswith("self-play")]
    if len(selfplay):
        parts = "; ".join(f"{r.stage}, {r.part}: {r['games stored']:,} of {r['games planned']:,} games, "
                          f"{r['done']} of {r['runs or cells']} runs finished"
                          for _, r in selfplay.iterrows() if r["games stored"] or r.part == _name("correlation_based"))
        idle = selfplay.groupby("stage", sort=False)["games stored"].apply(lambda g: int((g == 0).sum()))
        parts += "".join(f"; {stage}: {n} strategies not started" for stage, n in idle.items() if n)
        out.append(f"*Self-play stored* (`{folder}`): {parts}.")
    sizes = run["sizes"]
    if len(sizes):
        last = sizes.dropna().sort_values("checkpoint").groupby(["variant", "strategy"], sort=False).last()
        last = last.reset_index()
        cb = last[last["strategy"] == "correlation_based"]
        if len(cb):
            text = ", ".join(f"{r.variant} {int(r.features)} after {int(r.checkpoint)} games"
                             for r in cb.set_index("variant").reindex(
                                 [v for v in VARIANTS if v in set(cb["variant"])]).reset_index().itertuples())
            out.append(f"*Correlation-based feature sets at their last stored checkpoint:* {text} (the paper: "
                       f"\"hundreds\" after 200 games).")
    evaluation = progress[progress["stage"].str.startswith("evaluation")]
    if len(evaluation):
        out.append(f"*Evaluation games at {int(run['settings']['playouts'])} iterations:* "
                   f"{int(evaluation['games stored'].sum()):,} of {int(evaluation['games planned'].sum()):,} stored.")
    for stage, name in FINAL_STAGES.items():
        table = status[stage]
        for seconds, cells in table.groupby("Ludii seconds", sort=False) if len(table) else []:
            played = cells[cells["verdict"] != NOT_PLAYED]
            if played.empty:
                out.append(f"*Final comparison, {name}, Ludii {seconds:g} s:* {NOT_PLAYED} ({len(cells)} cells "
                           f"planned).")
                continue
            counts = played["verdict"].value_counts()
            named = "; ".join(f"{r.variant} ({r.agent}, {r.rules}) {r['win %']:.1f}% of {r.games} ({r.ours})"
                              for _, r in played.iterrows()
                              if r.variant in ("Gomoku", "Yavalath") and r.agent != "hand-made features")
            out.append(f"*Final comparison, {name}, Ludii {seconds:g} s:* {len(played)} of {len(cells)} cells "
                       f"played, {int(played['games'].sum()):,} games; "
                       + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("as the paper", "not as the paper",
                                                                      "undecided"))
                       + (f"; {named}" if named else "") + ".")
    claims = status["claims"]
    tested = claims[claims["verdict"] != NO_DATA]
    if len(tested):
        from ..report import claims_tally
        out.append(f"*The paper's claims on the budget run's games* ({len(tested)} of {len(claims)} testable so far): "
                   + claims_tally(tested, "as the claims table says") + ".")
    else:
        out.append("*The paper's claims on the budget run's games:* none testable yet (no evaluation game stored).")
    if claims_before is not None:
        change = claims_change(claims_before, claims, before_name, "budget run")
        watched = change[[(r.claim_id, r.variant) in WATCHED_CLAIMS for r in change.itertuples()]]
        if len(watched):
            out.append("*Claims the budget run revisits:* " + "; ".join(
                f"{r.variant} ({r.claim_id}): {r[f'verdict, {before_name}']} in the {before_name}, "
                f"{r['verdict, budget run']} in the budget run" for _, r in watched.iterrows()) + ".")
    times = status["stage_times"]
    if len(times):
        total = times[times["stage"] == "total"].iloc[0]
        calls = int(total["calls"])
        out.append(f"*Stage times logged so far:* {total['wall hours']:.2f} wall hours over {calls} stage "
                   f"call{'s' if calls != 1 else ''} (`stage_times.csv`; a call cut by an interruption logs "
                   f"none); the stored games' own CPU time: {total['CPU hours of the games']:.2f} hours.")
    cost = status["paper_cost"]
    if len(cost):
        total = cost[cost["stage"] == "total"].iloc[0]
        walls = ", ".join(f"{total[c]:,.0f} on {c.split(', ')[1]}" for c in cost.columns if c.startswith("wall"))
        sources = cost.attrs.get("sources", {})
        out.append(f"*The paper preset's cost, extrapolated* (method and per-variant basis under the table): "
                   f"{total['CPU hours']:,.0f} CPU hours, wall hours {walls}; self-play costs of "
                   f"{sources.get('budget run', 0)} variants from the budget run's own games"
                   + (f", {sources['quick run']} from the committed quick run's (theirs are not in the budget "
                      f"store)" if sources.get("quick run", 0) else "") + "; "
                   f"the search's cost an iteration from {sources.get('final games', 0)} variants' stored "
                   f"final-comparison games, the others' from evaluation games.")
    return "\n".join(f"- {line}" for line in out)


def with_holm_over_tested(claims: pd.DataFrame) -> pd.DataFrame:
    """A claims table (``claims_table``, ``budget_claims``) with Holm's correction over its tested claims
    (``report.with_holm``: ``p (Holm)`` and ``verdict (Holm)``); an untested claim (no p) keeps its verdict and
    counts in no family.  "upheld" becomes "not decided" when its corrected p is not below 5%; "not upheld" (a
    significant result against the claim) stays as it is, as notebook 00 keeps it."""
    from ..report import with_holm
    return with_holm(claims, p_column="p_value")


def budget_cost_note(run: dict) -> str:
    """Markdown under the paper preset's cost table: how it is extrapolated and the stored games behind each
    variant's per-game cost."""
    cost = run.get("paper_cost", pd.DataFrame())
    if not len(cost):
        return "*No stored self-play game to extrapolate the paper preset's cost from.*"
    return f"*How:* {run['cost_method']}\n\n*The games behind each variant's cost:* {cost.attrs.get('basis', '')}."


#: The claims whose verdicts at the quick run's budget the budget run is meant to revisit (issue 24).
WATCHED_CLAIMS = (("no_change", "Gomoku"), ("significantly_worse", "Yavalath"), ("greedy_competitive", "Breakthrough"))


def claims_change(before: pd.DataFrame, after: pd.DataFrame, before_name: str = "quick run",
                  after_name: str = "budget run") -> pd.DataFrame:
    """Two ``claims_table`` results side by side, by (claim, variant): ours and the verdict in each, and whether the
    verdict changed (a claim untested in either says so, never "changed").  The rows of ``WATCHED_CLAIMS`` (Gomoku,
    Yavalath, the greedy Breakthrough agent) first."""
    # a claim may have several rows for one variant (a win rate and a slowdown): they pair up in order
    keys = ["claim_id", "variant", "_row"]
    before = before.assign(_row=before.groupby(["claim_id", "variant"]).cumcount())
    after = after.assign(_row=after.groupby(["claim_id", "variant"]).cumcount())
    left = before[keys + ["claim", "ours", "verdict"]].rename(columns={"ours": f"ours, {before_name}",
                                                                      "verdict": f"verdict, {before_name}"})
    right = after[keys + ["ours", "verdict"]].rename(columns={"ours": f"ours, {after_name}",
                                                             "verdict": f"verdict, {after_name}"})
    table = left.merge(right, on=keys, how="outer").drop(columns="_row")
    a, b = table[f"verdict, {before_name}"], table[f"verdict, {after_name}"]
    untested = a.isna() | b.isna() | (a == NO_DATA) | (b == NO_DATA)
    table["changed"] = np.where(untested, "not comparable yet", np.where(a == b, "no", "yes"))
    watched = {k: i for i, k in enumerate(WATCHED_CLAIMS)}
    order = [watched.get((r.claim_id, r.variant), len(watched)) for r in table.itertuples()]
    return table.assign(_order=order).sort_values("_order", kind="stable").drop(columns="_order").reset_index(
        drop=True)


# ---- the paper's claims on the budget run ------------------------------------------------------------------------
def claims_seconds(run: dict) -> float:
    """The thinking time the budget run's claims are read at: the paper's 5 s if its preset plans it, else the
    largest it plans."""
    planned = sorted({float(x) for x in run["settings"]["ludii_seconds"] if x > 0})
    return 5.0 if 5.0 in planned else (planned[-1] if planned else float("nan"))


#: The claims the budget run tests on its final comparison, at the paper's budget (Ludii's 5 s, equal time, default
#: rules: the final Correlation-based policy, Gomoku's first-checkpoint one, the greedy agent, the hand-made agent;
#: slowdowns measured at that budget).  The others (strategies compared, pruned sets) rest on its evaluation games at
#: the preset's smaller iteration budget: only Correlation-based is played at the paper's budget.
AT_PAPER_BUDGET = ("significant_gain", "smaller_gain", "no_change", "significantly_worse", "greedy_competitive",
                   "slowdown_worst", "handmade_win_rate", "handmade_slowdown")
#: Single-cell claims read from the final table's interval (anytime-valid for a grown cell): the direction the
#: claim asserts against an even score, or the paper's value for a claimed value.
_DIRECTION_CLAIMS = {"significant_gain": "higher", "significantly_worse": "lower"}
_VALUE_CLAIMS = {"greedy_competitive": "final_greedy", "handmade_win_rate": "final_equal_time"}


def paper_budget_frames(run: dict, seconds: float | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The budget run's final comparison at ``seconds`` of Ludii thinking (default: the paper's 5 s if planned, else
    the largest), equal time and default rules, as the ``evaluations`` and ``slowdowns`` frames ``claims_table``
    reads: the Correlation-based cells as stage "grown" at their checkpoint, the greedy cells as "greedy", the
    hand-made agent as "handmade"; the slowdowns those cells' equal-time budgets were set by (``final_slowdowns``,
    the final policies only)."""
    evaluations, slow = run["evaluations"], run.get("final_slowdowns", pd.DataFrame())
    empty = (pd.DataFrame(columns=EVALUATION_COLUMNS + ["grown"]), pd.DataFrame(columns=SLOWDOWN_COLUMNS))
    if not len(evaluations) or "ludii_seconds" not in evaluations:
        return empty
    seconds = claims_seconds(run) if seconds is None else seconds
    cells = evaluations[(evaluations["ludii_seconds"] == seconds) & (evaluations["rules"] == "default")
                        & evaluations["stage"].isin(["final_equal_time", "final_greedy"])]
    if cells.empty:
        return empty
    stage = np.where(cells["stage"] == "final_greedy", "greedy",
                     np.where(cells["strategy"] == "handmade", "handmade", "grown"))
    frame = cells.assign(stage=stage)[EVALUATION_COLUMNS + ["grown"]].reset_index(drop=True)
    last = max(run["settings"]["checkpoints"])
    final_policies = set(evaluations.loc[(evaluations["stage"] == "final_equal_iterations")
                                         & (evaluations["ludii_seconds"] == seconds)
                                         & (evaluations["rules"] == "default")
                                         & ((evaluations["checkpoint"] == last)
                                            | (evaluations["strategy"] == "handmade")), "policy"])
    slowdowns = pd.DataFrame(columns=SLOWDOWN_COLUMNS)
    if len(slow):
        mine = slow[(slow["ludii_seconds"] == seconds) & (slow["rules"] == "default")
                    & slow["policy"].isin(final_policies)]
        slowdowns = pd.DataFrame({"variant": mine["variant"],
                                  "stage": np.where(mine["strategy"] == "handmade", "handmade", "grown"),
                                  "strategy": mine["strategy"], "uct_iterations": mine["budget"].astype(float),
                                  "biased_iterations": mine["budget"] / mine["slowdown"], "slowdown": mine["slowdown"]})
    return frame, slowdowns.reset_index(drop=True)


def _cell_claim(row, cells: pd.DataFrame) -> dict | None:
    """A single-cell claim (``_DIRECTION_CLAIMS``, ``_VALUE_CLAIMS``) on the final comparison's cell: the verdict of
    its interval (``report.cell_verdict``, anytime-valid for a cell grown until decided), so that a cell grown by
    the stopping rule is never judged by a fixed-sample test.  A direction claim is upheld when the interval
    excludes an even score on the claimed side, not upheld when it excludes it on the other, else not decided; a
    value claim is an equivalence (upheld within the margin, higher / lower than the paper when the interval
    excludes the paper's value)."""
    from ..report import cell_verdict
    stage = {"greedy_competitive": "greedy", "handmade_win_rate": "handmade"}.get(row.claim_id, "grown")
    mine = cells[(cells["stage"] == stage) & (cells["variant"] == row.variant)]
    if stage == "grown":
        mine = mine[mine["checkpoint"] == mine["checkpoint"].max()] if len(mine) else mine
    mine = mine[mine["games"] > 0] if len(mine) else mine
    if mine.empty:
        return None
    cell = mine.iloc[0]
    grown, games, wins = bool(cell["grown"]), int(cell["games"]), float(cell["wins"])
    claimed = row.claim_id in _VALUE_CLAIMS
    reference = float(row.paper_value) if claimed else 50.0
    v = cell_verdict(wins, games, reference, None, anytime=grown)
    low, high = reference + v.ci_low, reference + v.ci_high
    kind = "anytime-valid (grown until decided)" if grown else "Clopper-Pearson"
    ours = f"{100 * wins / games:.1f}% [{low:.1f}, {high:.1f}], {wins:g}/{games} games"
    if claimed:
        verdict = {"reproduced": UPHELD, "higher": "higher than the paper", "lower": "lower than the paper",
                   "undecided": NOT_DECIDED}[v.verdict]
        test = (f"equivalence to the paper's {reference:g}% within +-{EQUIVALENCE_MARGIN:g} points, by the {kind} "
                f"95% interval")
    else:
        side = _DIRECTION_CLAIMS[row.claim_id]
        if low > 50:
            found = "higher"
        elif high < 50:
            found = "lower"
        else:
            found = None
        verdict = NOT_DECIDED if found is None else UPHELD if found == side else NOT_UPHELD
        test = (f"the {kind} 95% interval against an even score (upheld when it excludes 50% "
                f"{'above' if side == 'higher' else 'below'})")
    return _result(ours, test, np.nan, verdict)


def _budget_claim_source(claim_id: str, seconds: float) -> str:
    """What a claim of ``AT_PAPER_BUDGET`` is tested on, as the ``games`` column says it."""
    where = f"final comparison, Ludii {seconds:g} s"
    if claim_id == "greedy_competitive":
        return f"{where}: the greedy agent (final Correlation-based policy) against UCT"
    if claim_id == "handmade_win_rate":
        return f"{where}, equal time: the hand-made agent"
    if claim_id in ("slowdown_worst", "handmade_slowdown"):
        return f"slowdowns at Ludii {seconds:g} s (first two moves; the final policies)"
    if claim_id == "no_change":
        return f"{where}, equal time: Correlation-based after the first and the last checkpoint"
    return f"{where}, equal time: Correlation-based after the last checkpoint"


def budget_claims(run: dict) -> pd.DataFrame:
    """The paper's claims on the budget run (``soemers2019.budget_run``), each at the budget it can be tested at:
    the claims of ``AT_PAPER_BUDGET`` on the final comparison at the paper's 5 s (``paper_budget_frames``; the
    single-cell claims by their cell's interval, ``_cell_claim``; "smaller", Gomoku's first-vs-final equivalence
    and the slowdowns as ``claims_table`` tests them), the others on the evaluation games at the preset's iteration
    budget.  ``claims_table``'s columns plus ``games``: what the claim was tested on."""
    at_budget, slowdowns = paper_budget_frames(run)
    evaluations = run["evaluations"]
    smaller = evaluations[~evaluations["stage"].isin(list(FINAL_STAGES))] if len(evaluations) else evaluations
    table_budget = claims_table(at_budget, slowdowns)  # with ``grown``: cells grown until decided
    table_small = claims_table(smaller[EVALUATION_COLUMNS] if len(smaller) else None, run.get("slowdowns"))
    seconds = claims_seconds(run)
    rows = []
    for (_, a), (_, b) in zip(table_budget.iterrows(), table_small.iterrows()):
        if a["claim_id"] in AT_PAPER_BUDGET:
            row = a.to_dict()
            if a["claim_id"] in _DIRECTION_CLAIMS or a["claim_id"] in _VALUE_CLAIMS:
                paper = paper_claims()
                source = paper[(paper["claim_id"] == a["claim_id"]) & (paper["variant"] == a["variant"])].iloc[0]
                found = _cell_claim(source, at_budget)
                row.update(found if found is not None else _result())
            row["games"] = _budget_claim_source(a["claim_id"], seconds)
        else:
            row = b.to_dict()
            row["games"] = f"evaluation games at {int(run['settings']['playouts'])} iterations"
        rows.append(row)
    return pd.DataFrame(rows, columns=[*table_budget.columns, "games"])


def budget_slowdown_table(run: dict) -> pd.DataFrame:
    """The slowdowns of the final comparison's agents at each budget: measured before the games (first two moves,
    interleaved repeats: what set the equal-time budgets), inside the games themselves (``in_game_slowdowns``:
    equal-iteration cells, where both agents run the same iterations) and the paper's where it gives one."""
    slow, in_game = run.get("final_slowdowns", pd.DataFrame()), run.get("in_game_slowdowns", pd.DataFrame())
    columns = ["variant", "agent", "Ludii seconds", "rules", "UCT iterations", "slowdown measured [min, max]",
               "slowdown in the games", "games timed", "the paper's"]
    if not len(slow):
        return pd.DataFrame(columns=columns)
    timed = (in_game[in_game["stage"] == "final_equal_iterations"] if len(in_game) else in_game)
    rows = []
    for r in slow.itertuples():
        mine = timed[(timed["variant"] == r.variant) & (timed["strategy"] == r.strategy)
                     & (timed["ludii_seconds"] == r.ludii_seconds) & (timed["rules"] == r.rules)] if len(timed) \
            else timed
        checkpoints = sorted(run["evaluations"].loc[run["evaluations"]["policy"] == r.policy, "checkpoint"].unique()) \
            if len(run["evaluations"]) and "policy" in run["evaluations"] else []
        checkpoint = int(checkpoints[0]) if checkpoints else max(run["settings"]["checkpoints"])
        if len(mine) and "checkpoint" in mine:
            mine = mine[mine["checkpoint"] == checkpoint]
        paper = paper_slowdown(r.variant, r.strategy) if r.strategy == "handmade" or checkpoint == max(
            run["settings"]["checkpoints"]) else None
        rows.append({"variant": r.variant, "agent": final_agent_name(r.strategy, checkpoint, "final_equal_time"),
                     "Ludii seconds": r.ludii_seconds, "rules": r.rules, "UCT iterations": int(r.budget),
                     "slowdown measured [min, max]": f"{r.slowdown:.2f} [{r.slowdown_min:.2f}, {r.slowdown_max:.2f}]",
                     "slowdown in the games": round(float(mine["slowdown in the games"].iloc[0]), 2) if len(mine)
                     else np.nan, "games timed": int(mine["games timed"].iloc[0]) if len(mine) else 0,
                     "the paper's": f"{paper:g}x" if paper else "—"})
    return _sorted_final(pd.DataFrame(rows, columns=columns).assign(_rules=lambda f: f["rules"])).drop(
        columns="_rules")


def _cell_text(table: pd.DataFrame, **match) -> str:
    """``win % [interval] of n games (ours)`` of the one row of a final table matching ``match``, or "not played
    yet"."""
    rows = table
    for key, value in match.items():
        rows = rows[rows[key] == value]
    rows = rows[rows["games"] > 0] if len(rows) else rows
    if rows.empty:
        return NOT_PLAYED
    r = rows.iloc[0]
    return f"{r['win %']:.1f}% {r['95% interval']} of {_games_text(int(r['games']))} ({r['ours']})"


def budget_discrepancies(run: dict) -> str:
    """Markdown bullets on where the budget run departs from the paper and what its stored games say about why
    (rules, slowdown, budget), every number read from the store; "not played yet" for a cell without games."""
    status = {stage: budget_final_table(run, stage) for stage in FINAL_STAGES}
    seconds = claims_seconds(run)
    last, first = max(run["settings"]["checkpoints"]), min(run["settings"]["checkpoints"])
    learned, early = (f"Correlation-based, {_games_text(n)}" for n in (last, first))

    def timed(variant, agent, rules="default"):
        return _cell_text(status["final_equal_time"], variant=variant, agent=agent, rules=rules,
                          **{"Ludii seconds": seconds})

    def at_paper_slowdown(agent):
        return _cell_text(status["final_paper_slowdown"], variant="Yavalath", agent=agent)

    greedy = "; ".join(f"{v} {_cell_text(status['final_greedy'], variant=v, **{'Ludii seconds': seconds})}"
                       for v in VARIANTS)
    out = [f"*Yavalath, the learned set* (the paper: significantly below an even score, with an 8x slowdown): at "
           f"equal time at Ludii {seconds:g} s {timed('Yavalath', learned)}; under the swap rule "
           f"{timed('Yavalath', learned, 'swap')}; with Biased MCTS given UCT's budget over the paper's 8x slowdown "
           f"{at_paper_slowdown(learned)}.",
           f"*Yavalath, the hand-made features* (the paper: 93% despite a 30x slowdown): at equal time "
           f"{timed('Yavalath', 'hand-made features')}; at the paper's 30x slowdown "
           f"{at_paper_slowdown('hand-made features')}.",
           f"*Gomoku* (the paper: no apparent change from {first} to {last} self-play games): at equal time, after "
           f"{_games_text(first)} {timed('Gomoku', early)}, after {_games_text(last)} {timed('Gomoku', learned)}.",
           f"*The greedy agent against UCT at the paper's budget* (the paper: 40% in Breakthrough and Teeko, close to "
           f"0% elsewhere): {greedy}."]
    return "\n".join(f"- {line}" for line in out)


def budget_sensitivity(run: dict) -> pd.DataFrame:
    """Whether a final-comparison verdict depends on the budget: per table (equal time, equal iterations, the greedy
    agent) and cell (variant, agent, rules), the outcome and verdict at each planned thinking time side by side (the
    paper's 5 s and its half), and whether they agree ("yes" / "no" once both are decided, else "not decided")."""
    frames = []
    for stage in ("final_equal_time", "final_equal_iterations", "final_greedy"):
        table = budget_final_table(run, stage)
        if len(table):
            frames.append(table.assign(table=FINAL_STAGES[stage]))
    columns = ["table", "variant", "agent", "rules"]
    if not frames:
        return pd.DataFrame(columns=[*columns, "same verdict"])
    long = pd.concat(frames, ignore_index=True)
    long["cell"] = [f"{w:.1f}% of {_games_text(int(g))}: {o}" if g else o
                    for w, g, o in zip(long["win %"], long["games"], long["ours"])]
    wide = long.pivot_table(index=columns, columns="Ludii seconds", values=["cell", "verdict"], aggfunc="first",
                            sort=False)
    seconds = sorted(long["Ludii seconds"].unique(), reverse=True)
    out = pd.DataFrame(index=wide.index)
    for sec in seconds:
        out[f"Ludii {sec:g} s"] = wide[("cell", sec)]
    verdicts = wide["verdict"][seconds]
    decided = verdicts.isin(["as the paper", "not as the paper"]).all(axis=1)
    same = verdicts.nunique(axis=1) == 1
    out["same verdict"] = np.where(~decided, "not decided", np.where(same, "yes", "no"))
    return out.reset_index()


def _bounds_text(bounds) -> str:
    """A measured range as text: ``2.8-4.3``, one value when both ends agree (``1.1``), a dash for none."""
    if bounds is None:
        return "—"
    low, high = bounds
    return f"{low:g}" if low == high else f"{low:g}-{high:g}"


def slowdown_parts_table(run: dict) -> pd.DataFrame:
    """Where the slowdown comes from (``soemers2019.measure_slowdown_parts``, its latest measurement per variant):
    CPU microseconds an iteration of UCT, of PUCT without features (uniform priors; its first playout move drawn
    from them, as Soemers et al.'s playout, which adds a second entry an iteration) and of Biased MCTS; the
    slowdown split into the search's factor (PUCT without features over UCT) and the features' (Biased MCTS over
    that PUCT), whose product it is; beside Ludii's newer matcher's whole slowdown with sets of the paper's size
    (``data/paper/soemers2019_ludii_slowdowns.csv``), where ours lies against that range, and the variant's
    measurement before the latest (its slowdown and the label's first field, up to a comma or '|': the code's
    commit), so a speed change shows in the table."""
    from .. import paths
    parts = run.get("slowdown_parts", pd.DataFrame())
    columns = ["variant", "Ludii seconds", "UCT us an iteration", "PUCT, no features, uniform playouts",
               "PUCT, no features, first playout move from the priors", "Biased MCTS", "the search's factor",
               "the features' factor", "slowdown", "Ludii, newer matcher", "against Ludii's", "measured",
               "measured before"]
    if not len(parts):
        return pd.DataFrame(columns=columns)
    latest = parts.groupby("variant", sort=False).tail(1)
    before = {}
    for variant, rows_of in parts.groupby("variant", sort=False):
        if len(rows_of) > 1:
            earlier = rows_of.iloc[-2]
            before[variant] = f"{earlier.biased_vs_uct:.2f} ({re.split(r'[|,]', str(earlier.label))[0].strip()})"
    ludii = pd.read_csv(paths.PAPER_DATA / "soemers2019_ludii_slowdowns.csv")
    ludii_bounds = {r.variant: (r.newer_low, r.newer_high) for r in ludii.itertuples()}

    def against(variant, slowdown):
        """Issue 24's target, at or below Ludii's newer matcher: where ours lies against its measured range."""
        if variant not in ludii_bounds:
            return "—"
        low, high = ludii_bounds[variant]
        return "below its range" if slowdown < low else ("within its range" if slowdown <= high else
                                                         "above its range")
    rows = [{"variant": r.variant, "Ludii seconds": r.ludii_seconds, "UCT us an iteration": round(r.uct_us, 2),
             "PUCT, no features, uniform playouts": round(r.puct_plain_us, 2),
             "PUCT, no features, first playout move from the priors": round(r.puct_first_us, 2),
             "Biased MCTS": round(r.biased_us, 2), "the search's factor": round(r.puct_first_vs_uct, 2),
             "the features' factor": round(r.biased_us / r.puct_first_us, 2), "slowdown": round(r.biased_vs_uct, 2),
             "Ludii, newer matcher": _bounds_text(ludii_bounds.get(r.variant)),
             "against Ludii's": against(r.variant, round(r.biased_vs_uct, 2)), "measured": r.label,
             "measured before": before.get(r.variant, "—")}
            for r in latest.itertuples()]
    order = {v: i for i, v in enumerate(VARIANTS)}
    return pd.DataFrame(rows, columns=columns).sort_values("variant", key=lambda s: s.map(order)).reset_index(
        drop=True)
