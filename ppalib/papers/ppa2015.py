"""Cazenave, "Playout Policy Adaptation for Games", ACG 2015 (Cazenave 2015): Table 1, PPA vs UCT.

The experiment: for every game, board size and playouts-per-move of the grid, PPA(alpha) plays UCT with the
same playouts, ``games_per_cell`` games, half with each colour; UCT constant c = 0.4 for both.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     2 games at 5x5, 20 playouts, 4 games a cell: seconds, for the tests
quick     the whole of Table 1: the 1,000-playout column at the paper's 500 games a cell (10 games x 5x5 and 8x8,
          10,000 games, about half an hour on 2 cores; a 95% interval of about +-4.4 points) and the 10,000-playout
          column at 100 games a cell (2,000 games, about 70 minutes on 2 cores; about +-10 points); the
          Knightthrough cells are played under both readings of the rules (below): 2,400 games more, 1,680 CPU s;
          so are the Atarigo cells (Go's rule beside the default, below): 1,200 games more
paper     exactly Table 1: 10 games x {5x5, 8x8} x {1,000, 10,000} playouts, 500 games a cell (250 a colour)
========  =====================================================================================================

Knightthrough's rules (``knightthrough_rules``): the paper says only that "the pawns are replaced by knights that
can only go forward".  ``"landing"`` (the default) captures by jumping onto an enemy piece (as in chess and in
Ludii's Knightthrough, the game of Soemers et al. 2019); ``"ggp"`` plays the General Game Playing game of that
name (jumps onto empty cells only, captures one cell diagonally forward, a side without a move draws; game option
``ggp_rules=1``, see ``games/breakthrough.py``).  The grid plays its Knightthrough cells under both readings, with
the same playouts and games a cell: Table 1 shows the chosen one, ``knightthrough_rules_table`` both beside the
paper.

Atarigo's rules (``ATARIGO_RULES``): the paper says only that they "are the same as Go except that the first player
to capture a string has won".  ``"suicide_loses"`` (the game's default, ``suicide=1``, see ``games/go.py``) makes a
suicide legal and losing; ``"suicide_illegal"`` (``suicide=0``) is Go's rule.  The grid plays its Atarigo cells
under both: Table 1 shows the default, ``atarigo_rules_table`` both beside the paper.  (These cells replace runs
outside the notebook that the discussion used to quote.)

The playout engine (``playout_engine``, 1 in every preset; ``ppalib.agents.learned``): engine 1 lists each playout
ply's legal moves with their codes and weights and draws from the list, as Cazenave's Alg. 3 is written, and played
every committed game; engine 2 keeps each player's legal moves' weights in sum trees updated move by move
(``ppalib.kernels.incremental``): the same draw law and adapt to rounding, not the same games, so it is part of the
condition (", engine 2" in its labels, other cell ids).  The paper preset keeps engine 1 because its first games
are the quick preset's committed ones: measured (``python -m ppalib bench --presets``, 2026-11-28), finishing it
from them costs 14.9 CPU-hours at engine 1, all of it at engine 2 18.5 (21.5 at engine 1 in all).  Both agents'
searches at 10,000 playouts take, at engine 2 over engine 1: Atarigo, Nogo and Misere Nogo 8x8 0.63-0.75, Go and
the Domineerings 8x8 0.89-0.91, 5x5 0.92-1.01 (Domineering 1.32, Go 1.23: the sum trees' setup weighs more on
small boards), the Breakthrough family 0.98-1.01 (no incremental set: engine 2 plays as engine 1).
"""
from __future__ import annotations

from pathlib import Path

from ..agents import make_agent
from . import (C, GAMES_PER_BUDGET, MAX_PLAYOUTS, PLAYOUT_ENGINE, SEED, UNTIL_DECIDED, Param,
               check_games_per_budget, games_per_playouts, integer, number, resolve_settings)
from ..experiments import Condition, Experiment
from ..games import PAPER_GAMES

NAME = "ppa2015"
PAPER_TABLE = "ppa2015_table1.csv"

PRESETS = {
    "smoke": dict(games=["knightthrough", "nogo"], sizes=[5], playouts=[20], games_per_cell=4),
    "quick": dict(games=PAPER_GAMES, sizes=[5, 8], playouts=[1000, 10000], games_per_cell=[500, 100]),
    "paper": dict(games=PAPER_GAMES, sizes=[5, 8], playouts=[1000, 10000], games_per_cell=500),
}
#: Games until decided (``papers.UNTIL_DECIDED``): off unless asked; then 100 games a batch up to 1,500 a cell.
DEFAULTS = dict(alpha=1.0, c=0.4, seed=2015, playout_engine=1, knightthrough_rules="landing", until_decided="off",
                decide_batch=100, decide_cap=1500, decide_cpu_seconds=None)
KNIGHT_GAMES = ("knightthrough", "misere_knightthrough")
#: Knightthrough's two readings (module docstring) -> the game option that plays it.
KNIGHTTHROUGH_RULES = {"landing": {}, "ggp": {"ggp_rules": 1}}
#: Atarigo's two readings (``games/go.py``) -> the game option that plays it: a suicide legal and losing (the
#: default, Table 1's cells), or illegal as in Go.  The grid plays every Atarigo cell under both.
ATARIGO_RULES = {"suicide_loses": {}, "suicide_illegal": {"suicide": 0}}
#: The notebook's own parameters (None: the preset's value); board sizes are checked per game afterwards.
PARAMETERS = {
    "games": Param("game", many=True),
    "sizes": integer(2, 19, many=True),
    "playouts": integer(1, MAX_PLAYOUTS, many=True),
    "games_per_cell": GAMES_PER_BUDGET,
    "alpha": number(0),
    "c": C,
    "seed": SEED,
    "playout_engine": PLAYOUT_ENGINE,
    "knightthrough_rules": Param("choice", choices=tuple(KNIGHTTHROUGH_RULES)),
    **UNTIL_DECIDED,
}


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored)."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    for key in ("games", "sizes", "playouts"):
        if not isinstance(result[key], (list, tuple)):
            result[key] = [result[key]]
        result[key] = list(result[key])
        if not result[key]:
            raise ValueError(f"{key} is empty: give at least one value")
    result["games_per_cell"] = check_games_per_budget(result["games_per_cell"], result["playouts"])
    return result


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    """The Table 1 grid for ``preset`` (see the module docstring), stored under ``results_dir``; its Knightthrough
    cells (Knightthrough, Misere Knightthrough) and its Atarigo cells are played under both readings of the
    rules."""
    s = settings(preset, **overrides)
    other = next(rules for rules in KNIGHTTHROUGH_RULES if rules != s["knightthrough_rules"])
    cells = [(game, KNIGHTTHROUGH_RULES[s["knightthrough_rules"]] if game in KNIGHT_GAMES else {})
             for game in s["games"]]
    cells += [(game, KNIGHTTHROUGH_RULES[other]) for game in s["games"] if game in KNIGHT_GAMES]
    cells += [("atarigo", ATARIGO_RULES["suicide_illegal"])] if "atarigo" in s["games"] else []
    conditions = [Condition(game, size,
                            make_agent("ppa", playouts, alpha=s["alpha"], c=s["c"], playout_engine=s["playout_engine"]),
                            make_agent("uct", playouts, c=s["c"]), game_options=options)
                  for game, options in cells for size in s["sizes"] for playouts in s["playouts"]]
    per_playouts = games_per_playouts(s)
    return Experiment(NAME, tuple(conditions), max(per_playouts.values()), s["seed"], Path(results_dir),
                      games_by_condition={c.id: per_playouts[c.agent.playouts] for c in conditions})


def reading_of(game: str, options: dict) -> str:
    """The reading of the rules a game with ``options`` is played under: Knightthrough's ("landing" or "ggp"),
    Atarigo's ("suicide_loses" or "suicide_illegal"); other games: ""."""
    if game in KNIGHT_GAMES:
        return "ggp" if options.get("ggp_rules", 0) else "landing"
    if game == "atarigo":
        return "suicide_illegal" if options.get("suicide", 1) == 0 else "suicide_loses"
    return ""


def rules_of(frame) -> "pd.Series":
    """Per stored game, the reading of the rules it was played under (``reading_of``)."""
    import json

    import pandas as pd
    options = frame["game_options"].map(lambda text: json.loads(text) if isinstance(text, str) and text else {})
    return pd.Series([reading_of(game, o) for game, o in zip(frame["game"], options)], index=frame.index,
                     dtype=frame["game"].dtype)  # the game column's string dtype, also when empty


def decision_cells(experiment: Experiment, s: dict) -> "pd.DataFrame":
    """The cells games until decided grows: Table 1's (the Knightthrough cells under the chosen reading, the Atarigo
    cells under the default one, as ``table1_long``), each with the paper's value (``paper_percent``) and games
    (``paper_games``)."""
    import pandas as pd
    from ..report import load_paper_table
    paper = load_paper_table(PAPER_TABLE).set_index(KEYS)
    rows = []
    for c in experiment.conditions:
        reading = reading_of(c.game, dict(c.game_options))
        key = (c.game, c.size, c.agent.playouts)
        if reading not in ("", s["knightthrough_rules"], "suicide_loses") or key not in paper.index:
            continue
        rows.append((c.id, float(paper.loc[key, "paper_win_rate"]), float(paper.loc[key, "paper_games"])))
    return pd.DataFrame(rows, columns=["condition_id", "paper_percent", "paper_games"])


def knightthrough_rules_of(frame) -> "pd.Series":
    """Per stored game, the reading of Knightthrough's rules it was played under ("landing" or "ggp"; other games:
    "")."""
    return rules_of(frame).where(frame["game"].isin(KNIGHT_GAMES), "")


# ---- tables and figures -------------------------------------------------------------------------------------
TITLES = {"atarigo": "Atarigo", "breakthrough": "Breakthrough", "misere_breakthrough": "Misere Breakthrough",
          "domineering": "Domineering", "misere_domineering": "Misere Domineering", "go": "Go",
          "knightthrough": "Knightthrough", "misere_knightthrough": "Misere Knightthrough", "nogo": "Nogo",
          "misere_nogo": "Misere Nogo"}
KEYS = ["game", "size", "playouts"]


def table1(frame, knightthrough_rules: str = DEFAULTS["knightthrough_rules"]):
    """Long table: one row per cell of the paper's Table 1 with ours, our 95% interval, the paper, verdict; the
    Knightthrough cells under ``knightthrough_rules`` only, the Atarigo cells under the default reading (a suicide
    legal and losing) only."""
    from ..report import compare_with_paper, load_paper_table, win_rates
    if knightthrough_rules not in KNIGHTTHROUGH_RULES:
        raise ValueError(f"knightthrough_rules={knightthrough_rules!r} is unknown: use one of {list(KNIGHTTHROUGH_RULES)}")
    frame = frame[rules_of(frame).isin(["", knightthrough_rules, "suicide_loses"])]
    frame = frame.assign(playouts=frame["agent_playouts"])
    return compare_with_paper(win_rates(frame, KEYS), load_paper_table(PAPER_TABLE), KEYS)


def table1_layout(long):
    """The paper's layout: a row per game and board size, a column per playouts value."""
    from ..report import format_cell
    cells = long.assign(cell=long.apply(format_cell, axis=1),
                        Game=long["game"].map(TITLES), Size=long["size"].map(lambda s: f"{s}x{s}"),
                        Playouts=long["playouts"].map(lambda p: f"{p:,}"))
    order = {g: i for i, g in enumerate(TITLES)}
    cells = cells.sort_values(["game", "size"], key=lambda s: s.map(order) if s.name == "game" else s)
    layout = cells.pivot_table(index=["Game", "Size"], columns="Playouts", values="cell", aggfunc="first",
                               sort=False)
    layout.columns.name = None
    ordered = [f"{p:,}" for p in sorted(set(long["playouts"]))]
    from ..report import EQUIVALENCE_MARGIN, margin_header, with_key
    margin = long["margin"].dropna().iloc[0] if "margin" in long and long["margin"].notna().any() else EQUIVALENCE_MARGIN
    # the margin in the header: "=" means inside it
    return with_key(layout[ordered].fillna("").rename(columns=lambda p: f"{p} playouts (= within ±{margin:g} points)"),
                    margin_header(margin))


def rules_table(frame, games=KNIGHT_GAMES, readings=KNIGHTTHROUGH_RULES):
    """The cells of ``games`` in ``frame`` (stored games) under each of the ``readings`` of their rules: per game,
    board size, playouts and reading, our win rate with its interval and draws beside the paper's value and the
    verdict; ``p_between`` is Fisher's exact test between the two readings (wins rounded: a draw, possible only
    under Knightthrough's GGP rules, counts half), or where a reading's cell was grown by games until decided the
    p of ``report.interval_difference`` (anytime-valid for the grown cell: a fixed-sample test is not valid there)."""
    from ..report import compare_with_paper, is_grown, load_paper_table, two_sample_p, win_rates
    games_ = frame[frame["game"].isin(games)]
    keys = ["game", "size", "playouts"]
    games_ = games_.assign(playouts=games_["agent_playouts"], rules=rules_of(games_), draws=games_["winner"] == 2)
    draws = games_.groupby(keys + ["rules"])["draws"].sum().reset_index()
    ours = win_rates(games_, keys + ["rules"]).merge(draws, on=keys + ["rules"])
    paper = load_paper_table(PAPER_TABLE)
    table = compare_with_paper(ours, paper[paper["game"].isin(games)], keys)
    table = table[table["rules"].notna()].copy()
    p_between = {}
    for key, cell in table.groupby(keys):
        if set(cell["rules"]) == set(readings):
            a, b = (cell[cell["rules"] == r].iloc[0] for r in readings)
            p_between[key] = two_sample_p(a.wins, a.games, is_grown(a), b.wins, b.games, is_grown(b))
    table["p_between"] = [p_between.get(tuple(row), float("nan")) for row in table[keys].itertuples(index=False)]
    order = {g: i for i, g in enumerate(games)}
    table = table.sort_values(keys + ["rules"], key=lambda s: s.map(order) if s.name == "game" else s)
    columns = keys + ["rules", "games", "draws", "win_rate", "ci_low", "ci_high", "paper_win_rate", "p_value",
                      "verdict", "diff_low", "diff_high", "games_to_decide", "margin", "p_between"]
    return table[columns].reset_index(drop=True)


def knightthrough_rules_table(frame):
    """``rules_table`` of the Knightthrough cells (Knightthrough, Misere Knightthrough): "landing" and "ggp"."""
    return rules_table(frame, KNIGHT_GAMES, KNIGHTTHROUGH_RULES)


def atarigo_rules_table(frame):
    """``rules_table`` of the Atarigo cells: a suicide legal and losing ("suicide_loses", Table 1's reading) and
    illegal as in Go ("suicide_illegal")."""
    return rules_table(frame, ("atarigo",), ATARIGO_RULES)


def rules_layout(table, readings=KNIGHTTHROUGH_RULES):
    """A ``rules_table`` in the paper's layout: a row per game, size and playouts, a column per reading (``ours
    [interval] / paper mark (games)``, the margin of the three-way verdict in its header), and the p-value between
    the readings."""
    from ..report import EQUIVALENCE_MARGIN, format_cell, margin_header, with_key
    cells = table.assign(cell=table.apply(format_cell, axis=1), Game=table["game"].map(TITLES),
                         Size=table["size"].map(lambda s: f"{s}x{s}"), Playouts=table["playouts"].map(lambda p: f"{p:,}"))
    layout = cells.pivot_table(index=["Game", "Size", "Playouts"], columns="rules", values="cell", aggfunc="first",
                               sort=False)
    layout.columns.name = None
    layout = layout[[rules for rules in readings if rules in layout.columns]]
    first, second = readings
    between = cells.groupby(["Game", "Size", "Playouts"], sort=False)["p_between"].first()
    layout[f"p ({first} vs {second})"] = between.map(lambda p: "" if p != p else f"{p:.2g}")
    margin = table["margin"].dropna().iloc[0] if "margin" in table and table["margin"].notna().any() else EQUIVALENCE_MARGIN
    return with_key(layout.rename(columns={r: f"{r} (= within ±{margin:g} points)" for r in readings}),
                    margin_header(margin) + " The p: between the two readings' win rates (Fisher's exact test, or "
                    "anytime-valid where a reading's cell was grown until decided).")


def knightthrough_rules_layout(table):
    """``knightthrough_rules_table`` in the paper's layout (``rules_layout``)."""
    return rules_layout(table, KNIGHTTHROUGH_RULES)


def atarigo_rules_layout(table):
    """``atarigo_rules_table`` in the paper's layout (``rules_layout``)."""
    return rules_layout(table, ATARIGO_RULES)


def verdict_counts(long):
    """How many cells we ran, and how many are reproduced / higher / lower / undecided (``report.cell_verdict``
    at the stated margin), with the games behind them."""
    from ..report import verdict_tally
    ran = long[long["verdict"] != "no data"]
    return {"cells": len(ran), **verdict_tally(ran["verdict"]),
            "no paper value": int((ran["verdict"] == "no paper value").sum()),
            "games": int(ran["games"].sum()) if len(ran) else 0}


def verdict_counts_text(long) -> str:
    """The verdict counts in words, per budget (never pooled: the budgets' cells have different games and
    questions), e.g. "At 1,000 playouts, 18 of 20 cells run reproduced, ... (10,000 games)."."""
    parts = []
    for playouts in sorted(set(long.loc[long["verdict"] != "no data", "playouts"])):
        c = verdict_counts(long[long["playouts"] == playouts])
        parts.append(f"**At {int(playouts):,} playouts, {c['reproduced']} of {c['cells']} cells run reproduced, "
                     f"{c['higher']} higher, {c['lower']} lower, {c['undecided']} undecided** ({c['games']:,} games"
                     + (f"; {c['no paper value']} off the paper's grid" if c["no paper value"] else "") + ").")
    return " ".join(parts) or "No cell run."


#: Cazenave 2015's claims about Table 1, quoted (abstract and conclusion), with the cells each one is about.
WORSE_SENTENCE = "PPA has worse results than UCT in three games: Go, Knightthrough 5×5 and Nogo 8 × 8."
BETTER_SENTENCE = "it is better than UCT for 33 out of the 40 experiments we performed"
WORSE_CELLS = {("go", 5), ("go", 8), ("knightthrough", 5), ("nogo", 8)}


def claims(long) -> "pd.DataFrame":
    """The paper's claims about Table 1, one test per experiment (cell) each sentence is about, on our cells:
    PPA's win rate against UCT tested two-sided against 50% (``report.claim_verdict``, exact binomial; a cell grown
    by games until decided by its anytime-valid p, since a fixed-sample test is not valid on it):

    * "worse than UCT in three games": the cells of Go, Knightthrough 5x5 and Nogo 8x8 where the paper's own value
      is below 50% (7 cells: Nogo 8x8 at 1,000 playouts is above 50% in the paper, so the sentence cannot mean it);
    * "better than UCT for 33 out of the 40": the cells where the paper's value is above 50% (31 in its table, not
      33).  Domineering 8x8 at 1,000 playouts (48.4%) and Domineering 5x5 at 10,000 (50.0%) are in neither: not
      among the "three games" and not above 50, so no claim about them can succeed at the paper's own numbers.

    *upheld* when ours is significantly on the claimed side, *contradicted* when significantly on the other,
    *not decided* otherwise; ``p (Holm)`` and ``verdict (Holm)``: Holm over all of the paper's claims."""
    import pandas as pd
    from ..report import claim_verdict, is_grown, with_holm
    ran = long[long["games"].notna() & long["paper_win_rate"].notna()]
    rows = []
    for r in ran.itertuples():
        worse = (r.game, r.size) in WORSE_CELLS and r.paper_win_rate < 50
        if not worse and not r.paper_win_rate > 50:
            continue
        result = claim_verdict(r.wins, int(r.games), reference=50.0, direction="less" if worse else "greater",
                               anytime_a=is_grown(r))
        rows.append({"claim": WORSE_SENTENCE if worse else BETTER_SENTENCE,
                     "cell": f"{TITLES[r.game]} {r.size}x{r.size}, {r.playouts:,} playouts",
                     "paper": r.paper_win_rate, "ours": round(r.win_rate, 1),
                     "ours 95% interval": f"[{r.ci_low:.1f}, {r.ci_high:.1f}]", "games": int(r.games),
                     "p": result.p_value, "verdict": result.verdict})
    frame = pd.DataFrame(rows, columns=["claim", "cell", "paper", "ours", "ours 95% interval", "games", "p",
                                        "verdict"])
    return with_holm(frame)


def plot_table1(long, *, style: str = "whitegrid", context: str = "paper"):
    """Dot plot per board size and playouts: our win rate with its 95% interval, the paper's value, 50% line."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from ..report import error_bar_lengths
    ran = long[long["games"].notna()]
    panels = sorted({(p, s) for p, s in zip(ran["playouts"], ran["size"])})
    sns.set_theme(style=style, context=context)
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels), 3.8), sharey=True, squeeze=False)
    games = [g for g in TITLES if g in set(ran["game"])]
    y = {g: i for i, g in enumerate(games)}
    for ax, (playouts, size) in zip(axes[0], panels):
        cell = ran[(ran["playouts"] == playouts) & (ran["size"] == size)]
        ys = cell["game"].map(y)
        ax.axvline(50, color="0.6", lw=0.8, zorder=0)
        ax.errorbar(cell["win_rate"], ys, xerr=error_bar_lengths(cell["win_rate"], cell["ci_low"], cell["ci_high"]),
                    fmt="o", color="C0", ms=5, capsize=2, label="ours (95% CI)")
        ax.scatter(cell["paper_win_rate"], ys, marker="D", facecolors="none", edgecolors="C3", s=30, zorder=3,
                   label="paper")
        ax.set_title(f"{size}x{size}, {playouts:,} playouts")
        ax.set_xlim(-2, 102)  # room for a marker at 0% or 100%
        ax.set_xlabel("PPA win rate vs UCT (%)")
    axes[0][0].set_yticks(range(len(games)), [TITLES[g] for g in games])
    axes[0][0].invert_yaxis()
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize="small", bbox_to_anchor=(0.5, -0.06))
    fig.tight_layout()
    return fig


def plot_scaling(long, *, style: str = "whitegrid", context: str = "paper"):
    """Win rate against board size, one panel per game, a line per playouts value; ours solid, paper dashed."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from ..report import error_bar_lengths
    sns.set_theme(style=style, context=context)
    ran = long[long["games"].notna()]
    games = [g for g in TITLES if g in set(ran["game"])]
    columns = min(5, len(games))
    rows = -(-len(games) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(2.6 * columns, 2.4 * rows), sharex=True, sharey=True,
                             squeeze=False)
    for ax, game in zip(axes.flat, games):
        for i, (playouts, cell) in enumerate(long[long["game"] == game].groupby("playouts")):
            cell = cell.sort_values("size")
            color = f"C{i}"
            ax.plot(cell["size"], cell["paper_win_rate"], ls="--", marker="D", mfc="none", color=color, lw=1)
            mine = cell[cell["games"].notna()]
            if len(mine):
                ax.errorbar(mine["size"], mine["win_rate"],
                            yerr=error_bar_lengths(mine["win_rate"], mine["ci_low"], mine["ci_high"]), marker="o",
                            color=color, capsize=2, lw=1.5,
                            label=f"{playouts:,} playouts")
        ax.axhline(50, color="0.6", lw=0.8, zorder=0)
        ax.set_title(TITLES[game], fontsize="medium")
        ax.set_ylim(-2, 102)  # room for a marker at 0% or 100%
        ax.set_xticks(sorted(set(long["size"])))
    for ax in axes.flat[len(games):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("PPA win rate (%)")
    for ax in axes[-1]:
        ax.set_xlabel("board size")
    from matplotlib.lines import Line2D
    playouts_values = sorted(set(long["playouts"]))
    handles = [Line2D([], [], color=f"C{i}", lw=2) for i in range(len(playouts_values))]
    labels = [f"{p:,} playouts" for p in playouts_values]
    handles += [Line2D([], [], ls="--", marker="D", mfc="none", color="0.3"), Line2D([], [], marker="o", color="0.3")]
    labels += ["paper", "ours (95% CI)"]
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize="small", bbox_to_anchor=(0.5, -0.04))
    fig.tight_layout()
    return fig


# ---- findings: the discussion's numbers, rendered from the store ---------------------------------------------
def _p(p_value: float) -> str:
    from ..report import p_text
    return p_text(p_value)


def _name(r) -> str:
    return f"{TITLES[r.game]} {r.size}x{r.size}"


def _budget_lines(long) -> list[str]:
    """Per playouts budget: the three-way verdicts of Table 1's cells (``report.cell_verdict`` at the stated
    margin), the cells that differ (higher/lower) with the interval of the difference, the two-sided p and whether
    Holm's correction over the budget's cells keeps it, the games that would decide the undecided cells, and where
    PPA is clearly below or above UCT (its whole interval on one side of an even score)."""
    from ..report import counts_text, holm, margin_words
    lines = []
    ran = long[long["games"].notna()]
    for playouts, cells in ran.groupby("playouts"):
        games = sorted(set(cells["games"].astype(int)))
        on_grid = cells[cells["paper_win_rate"].notna()]
        adjusted = dict(zip(on_grid.index, holm(on_grid["p_value"])))
        margin = on_grid["margin"].iloc[0] if len(on_grid) else None
        text = (f"* **Table 1 at {int(playouts):,} playouts** ({' or '.join(map(str, games))} games a cell; "
                f"{margin_words(margin)}): {len(cells)} cells, {counts_text(cells['verdict'])}.")
        differ = on_grid[on_grid["verdict"].isin(["higher", "lower"])]
        if len(differ):
            text += " Differing: " + "; ".join(
                f"{_name(r)} {r.verdict}, {r.win_rate:.1f}% against {r.paper_win_rate:.1f}% (difference "
                f"[{r.diff_low:+.1f}, {r.diff_high:+.1f}] points; two-sided {_p(r.p_value)}, Holm over the "
                f"{len(on_grid)} cells: {'significant' if adjusted[r.Index] < 0.05 else 'not significant'})"
                for r in differ.itertuples()) + "."
        undecided = on_grid[on_grid["verdict"] == "undecided"]
        if len(undecided):
            known = undecided["games_to_decide"].dropna().astype(int)
            text += (f" The {len(undecided)} undecided cells would be decided at our rates by "
                     + (f"{known.min():,} to {known.max():,} games a cell" if len(known) else "no game count")
                     + (f" ({len(undecided) - len(known)} by none up to a million)" if len(known) < len(undecided)
                        else "") + ".")
        below = cells[cells["ci_high"] < 50]
        above = cells[cells["ci_low"] > 50]
        for group, words in ((below, "PPA below UCT (the whole interval under an even score)"),
                             (above, "PPA above UCT (the whole interval over an even score)")):
            if len(group):
                text += f" {words}: " + ", ".join(
                    f"{_name(r)} {r.win_rate:.1f}%" + (f" (paper {r.paper_win_rate:.1f}%)"
                                                         if r.paper_win_rate == r.paper_win_rate else "")
                    for r in group.itertuples()) + "."
        lines.append(text)
    return lines


def _claims_lines(long) -> list[str]:
    """Cazenave 2015's claims about Table 1 (``claims``), per sentence: the verdicts on the raw two-sided p and
    after Holm's correction over all of them, and the cells whose verdict is not *upheld*."""
    from ..report import claims_tally, p_text
    table = claims(long)
    if table.empty:
        return []
    lines = [f"* **The paper's claims** ({claims_tally(table)})."]
    for sentence, rows in table.groupby("claim", sort=False):
        others = rows[rows["verdict"] != "upheld"]
        text = (f"  * \"{sentence}\": {len(rows)} cells; raw: {_counts(rows['verdict'])}; after Holm: "
                f"{_counts(rows['verdict (Holm)'])}")
        if len(others):
            text += "; not upheld: " + "; ".join(
                f"{r['cell']} {r['ours']:.1f}% (paper {r['paper']:.1f}%, {r['verdict']}, {p_text(r['p'])}, Holm "
                f"{p_text(r['p (Holm)'])})" for _, r in others.iterrows())
        lines.append(text + ".")
    return lines


def _counts(verdicts) -> str:
    from ..report import CLAIM_VERDICTS, counts_text
    return counts_text(verdicts, CLAIM_VERDICTS)


def _rules_lines(table, title: str, readings: dict, labels: dict) -> list[str]:
    """A game's two readings of the rules beside the paper: the three-way verdicts per reading (at the stated
    margin), the cells where the two readings differ (``p_between``), and each cell's pair of values."""
    from ..report import counts_text
    if table.empty:
        return []
    on_grid = table[table["paper_win_rate"].notna()]
    agree = "; ".join(f"{labels[r]}: {counts_text(on_grid.loc[on_grid.rules == r, 'verdict'])} of "
                      f"{(on_grid.rules == r).sum()} cells" for r in readings if (on_grid.rules == r).any())
    first, second = readings
    pairs, nearer = [], {first: 0, second: 0}
    for (game, size, playouts), cell in table.groupby(["game", "size", "playouts"], sort=False):
        by_rule = cell.set_index("rules")
        if not {first, second} <= set(by_rule.index):
            continue
        a, b = by_rule.loc[first], by_rule.loc[second]
        known = a.paper_win_rate == a.paper_win_rate
        gaps = {first: abs(a.win_rate - a.paper_win_rate), second: abs(b.win_rate - b.paper_win_rate)}
        if known and gaps[first] != gaps[second]:
            nearer[min(gaps, key=gaps.get)] += 1
        paper = f"paper {a.paper_win_rate:.1f}%" if known else "no paper value"
        pairs.append(f"{TITLES[game]} {size}x{size} at {playouts:,}: {a.win_rate:.1f}% against {b.win_rate:.1f}% "
                     f"({paper}; {_p(a.p_between)} between the readings)")
    text = f"* **{title}, {labels[first]} against {labels[second]}**: " + (f"{agree}. " if agree else "")
    compared = sum(1 for _, cell in on_grid.groupby(["game", "size", "playouts"]) if cell["rules"].nunique() == 2)
    if compared:
        text += (f"Nearer the paper's value: {labels[first]} in {nearer[first]} of the {compared} cells on its grid, "
                 f"{labels[second]} in {nearer[second]}. ")
    if pairs:
        text += "Per cell: " + "; ".join(pairs) + "."
    if "ggp" in readings and (table["rules"] == "ggp").any():
        ggp = table[table["rules"] == "ggp"]
        text += f" Draws under the GGP rules: {int(ggp['draws'].sum())} of {int(ggp['games'].sum()):,} games."
    return [text]


def _plies_line(frame, game: str, size: int) -> str:
    """Mean plies a game of one game and board size, per playouts budget and reading of the rules."""
    cells = frame[(frame["game"] == game) & (frame["size"] == size)]
    if cells.empty:
        return ""
    cells = cells.assign(rules=rules_of(cells))
    means = cells.groupby(["rules", "agent_playouts"])["plies"].mean()
    return (f"* **Game length, {TITLES[game]} {size}x{size}** (mean plies a game): "
            + ", ".join(f"{rules} {p:,} playouts {m:.1f}" for (rules, p), m in means.items()) + ".")


def findings(frame, knightthrough_rules: str = DEFAULTS["knightthrough_rules"]) -> str:
    """What the stored games say, in sentences computed from them (``frame``: the stored games of the grid): no
    number is written by hand."""
    from . import code_versions_line
    if frame.empty:
        return "No stored game in this run."
    long = table1(frame, knightthrough_rules)
    lines = [code_versions_line(frame)] + _budget_lines(long) + _claims_lines(long)
    lines += _rules_lines(atarigo_rules_table(frame), "Atarigo", ATARIGO_RULES,
                         {"suicide_loses": "a suicide legal and losing", "suicide_illegal": "Go's rule (illegal)"})
    lines += _rules_lines(knightthrough_rules_table(frame), "Knightthrough", KNIGHTTHROUGH_RULES,
                         {"landing": "capture by landing", "ggp": "the GGP rules"})
    line = _plies_line(frame, "knightthrough", 5)
    return "\n".join(lines + ([line] if line else []))
