"""The papers' future work, measured (issue 16, "Beyond the papers", part two): notebook 05.

Three continuations the papers propose, each played against the agent it would replace:

1. **GRAVE in the tree** (Cazenave 2016's conclusion: "combining PPA with GRAVE could yield substantial benefits in
   some games"; GRAVE: Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015).  PPA+GRAVE and
   PPAF+GRAVE (``grave=True``: the tree selects by GRAVE, the playouts and their learning are PPA's or PPAF's)
   against PPAF, on the eight games of Cazenave 2016's Tables 1-10 at 8x8.
2. **The policy kept between moves** (Cazenave 2015 and 2016: PPA "starts from scratch for every position").
   PPAF with ``keep_policy=True`` against PPAF, same games.
3. **Adaptive RAVE per node** (Mehat & Vittaut 2013, section 8: the root-only rule "would not work in another
   synthetic game built by summing the two games used ... It would be possible to observe this correlation at every
   node when it stores enough playouts results").  Self-play matches scored by the paper's measure, optimal draws,
   at Blind Cashing Checks, Cashing Stale-dated Checks and their sum (``sum_cashing_checks``: the two games in
   alternating rounds), never / always / root-only adaptive / per-node adaptive RAVE (margin 0, thresholds
   ``node_playouts``); and per-node (threshold 50) against root-only head to head.

Choices (the notebook's discussion states them too):

* Each learned-playout agent at the setting Cazenave 2016 found best against UCT in that game (its Tables 1-10;
  ties: the first in the table's order, as notebook 02's "best" grid): PPA+GRAVE at PPA's best alpha, PPAF, PPAF+GRAVE
  and the kept-policy PPAF at PPAF's.  The opponent is that PPAF, so each comparison changes one part of it (PPAF+GRAVE:
  the tree; kept policy: the policy's lifetime) or two (PPA+GRAVE: the tree and the codes).
* GRAVE as in Cazenave 2015 (IJCAI) and his reference code: ref 50, bias 1e-5, no exploration term; AMAF per move code,
  counted from each node's own move on.
* Adaptive RAVE: k = 700 and margin 0 (the paper's headline setting, where both readings of the margin agree);
  per node: a node decides from its own moves once it has more than ``node_playouts`` playouts, the others keep
  the closest deciding ancestor's decision (the root always decides).
* Playouts: Blind and Stale-dated at the paper's 2,000; the sum at ``sum_playouts`` (10,000 in quick and paper):
  at 2,000 every setting had at most 2 optimal draws in a 10-match probe (the sum is twice as long, 20 plies), a
  floor at which no comparison is possible, and at 10,000 they ranged from 4 to 11 of 16 (never RAVE to per node);
  the paper chose its 2,000 by the same criterion ("over 50% in order to leave some space for improvements").
* Verdicts.  Against PPAF and head to head: the win rate (draws half) against an even match, three ways
  (``report.cell_verdict`` at ``report.EQUIVALENCE_MARGIN``): "better" / "worse" when its 95% interval excludes
  50%, "within the margin" when it lies inside 50 +- the margin, "undecided" otherwise.  Beside it, the two-sided
  sign test on the decisive games (exact binomial, draws left out), whose p the findings correct with Holm's
  method; with many draws the two can disagree (a sign test p below 0.05 beside an undecided verdict), and the
  tables' headers name which is which.  Optimal draws: Fisher's exact test of each setting against root-only adaptive RAVE, two-sided:
  "more" / "fewer" / "not significant".  Each cell is one test at 5%; with 24 board-game cells about one "significant"
  verdict is expected by chance alone.  A cell grown by games until decided (its game count chosen by the data)
  takes anytime-valid tests instead, since a fixed-sample test is not valid under that stopping: its sign test's p
  is ``report.anytime_p_value`` and its budget comparison ``report.interval_difference_p``.
* Game length.  The tables against PPAF give the mean plies a game; the findings give, per series and budget,
  Spearman's rank correlation of the win rate with it across the games, with an exact permutation p (n! orderings,
  n <= 8): a description of eight games that differ in more than their length, not a cause.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     Breakthrough and Nogo 5x5, 20 playouts; the three Cashing Checks games at 100 playouts; 2 games (or
          matches) a cell: seconds, for the tests
quick     the eight games at 8x8, 1,000 playouts at 100 games a cell (24 cells; a 95% interval of about +-10
          points) and 10,000 playouts at 20 games a cell (24 cells; about +-20 points: only large effects show),
          and the Cashing Checks part in full (2,000 playouts, the sum at 10,000; 21 cells, 100 matches a cell).
          ``games_per_cell`` takes one number, or one per entry of ``playouts``; the Cashing Checks cells get the
          largest.  The 10,000-playout column took 3,094 s of wall time on 2 cores shared with other work (480
          games, 6,105 s of the games' own timings: 2.9 s a game at Domineering to 31 s at Misere Breakthrough).
          The 1,000-playout and Cashing Checks grid was estimated at about 35 minutes on this 2-core machine: 4
          games a cell of it (180 games) took 79 s of wall time on 2 worker processes (153 s of CPU: 127 s the
          board games, 0.35 s a game at Domineering to 3.2 s at Misere Breakthrough and Nogo; 26 s Cashing Checks,
          0.8 s a sum match), and 25 times that is 33 minutes; the machine is shared and its speed drifts by up to
          2x.  Measured: 2,105 s of wall time (the cores partly shared with another run), 4,140 s of CPU (the
          games' own timings).
paper     1,000 and 10,000 playouts, 500 games a cell (Cazenave 2016's count; Mehat & Vittaut's matches too),
          playout engine 2 (below): about 41 CPU hours (``python -m ppalib bench --presets``), for a cluster
          (``executor="dask"``)
========  =====================================================================================================

The playout engine (``playout_engine``; ``ppalib.agents.learned``) of the PPA and PPAF agents: every committed game,
the quick preset's, was played with engine 1, which lists each playout ply's legal moves and draws from the list;
engine 2 keeps each player's legal moves' weights in sum trees updated move by move (``ppalib.kernels.incremental``):
the same draw law and adapt to rounding, not the same games, so it is part of the condition (", engine 2" in its
labels, other cell ids).  The paper preset plays engine 2 because it costs less even counting the committed games
it cannot reuse: 41.1 CPU-hours left at engine 2 against 44.1 at engine 1 (47.1 in all; ``bench --presets``,
2026-11-28); engine 2 is faster at Atarigo and Nogo, the same in the Breakthrough family, about even at
Domineering.  The Cashing Checks cells have no learned playouts and keep their games.  Whether the engines give
the same results with these agents (GRAVE's AMAF statistics, a kept policy, PPAF on both sides) is measured: the
quick preset's engine check (``engine_check_experiment``, ``engine_check_games`` = 100) replays its parts 1 and 2
cells of Atarigo, Domineering, Misere Domineering and Nogo at 1,000 playouts at engine 2, and
``engine_check_table`` compares them with the grid's engine-1 games (``ppalib.engine_check``).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..agents import NODE_PLAYOUTS, make_agent
from ..experiments import Condition, Experiment, check_int
from . import (C, GAMES_PER_BUDGET, MAX_GAMES, MAX_PLAYOUTS, PLAYOUT_ENGINE, SEED, UNTIL_DECIDED, Param,
               check_games_per_budget, games_per_playouts, integer, number, resolve_settings)

NAME = "future_work"
#: The eight games of Cazenave 2016's Tables 1-10, in the tables' order.
GAMES = ["atarigo", "breakthrough", "misere_breakthrough", "domineering", "misere_domineering", "knightthrough",
         "misere_knightthrough", "nogo"]
#: The adaptive RAVE games: size and options (Mehat & Vittaut 2013's two, and their sum).
RAVE_GAMES = {"blind_cashing_checks": (20, (("komi", 5), ("turns", 10))),
              "stale_cashing_checks": (12, (("komi", 5), ("turns", 10))),
              "sum_cashing_checks": (20, (("komi", 10), ("stale_checks", 12), ("turns", 10)))}
TITLES = {"atarigo": "Atarigo", "breakthrough": "Breakthrough", "misere_breakthrough": "Misere Breakthrough",
          "domineering": "Domineering", "misere_domineering": "Misere Domineering", "knightthrough": "Knightthrough",
          "misere_knightthrough": "Misere Knightthrough", "nogo": "Nogo",
          "blind_cashing_checks": "Blind", "stale_cashing_checks": "Stale-dated",
          "sum_cashing_checks": "Blind + Stale-dated"}
#: The Cashing Checks games' full names (Mehat & Vittaut 2013; notebook 03's), for the figure's legend: the tables
#: keep ``TITLES``' short ones as column headers.
CASHING_NAMES = {"blind_cashing_checks": "Blind Cashing Checks", "stale_cashing_checks": "Cashing Stale-dated Checks",
                 "sum_cashing_checks": "their sum"}
#: Series of the parts against PPAF: label, and the part of the notebook they belong to.
VS_PPAF = {"ppa_grave": ("PPA+GRAVE", "grave"), "ppaf_grave": ("PPAF+GRAVE", "grave"),
           "ppaf_kept": ("PPAF, policy kept", "kept_policy")}
#: Self-play settings of the adaptive RAVE part (per node: one series per threshold).
RAVE_SETTINGS = {"never": dict(rave_rate=0.0), "always": dict(rave_rate=1.0), "root": dict(adaptive=True)}

PRESETS = {
    "smoke": dict(games=["breakthrough", "nogo"], size=5, playouts=[20], games_per_cell=2, rave_games=list(RAVE_GAMES),
                  rave_playouts=100, sum_playouts=100, node_playouts=[10.0, 50.0], engine_check_games=2),
    "quick": dict(games=GAMES, size=8, playouts=[1000, 10000], games_per_cell=[100, 20], rave_games=list(RAVE_GAMES),
                  rave_playouts=2000, sum_playouts=10000, node_playouts=[10.0, 50.0, 200.0], engine_check_games=100),
    "paper": dict(games=GAMES, size=8, playouts=[1000, 10000], games_per_cell=500, rave_games=list(RAVE_GAMES),
                  rave_playouts=2000, sum_playouts=10000, node_playouts=[10.0, 50.0, 200.0], playout_engine=2,
                  engine_check_games=0),
}
#: Games until decided (``papers.UNTIL_DECIDED``), for the board-game cells at the largest budget against PPAF:
#: off unless asked; then 16 games a batch up to 160 a cell.
DEFAULTS = dict(c=0.4, k_rave=700.0, seed=16, playout_engine=1, until_decided="off", decide_batch=16,
                decide_cap=160, decide_cpu_seconds=None)
#: The notebook's own parameters (None: the preset's value).
PARAMETERS = {
    "games": Param("choice", many=True, choices=tuple(GAMES)),
    "size": integer(4, 19),
    "playouts": integer(1, MAX_PLAYOUTS, many=True),
    "games_per_cell": GAMES_PER_BUDGET,
    "rave_games": Param("choice", many=True, choices=tuple(RAVE_GAMES)),
    "rave_playouts": integer(1, MAX_PLAYOUTS),
    "sum_playouts": integer(1, MAX_PLAYOUTS),
    "node_playouts": number(0, many=True),
    "c": C,
    "k_rave": number(0),
    "seed": SEED,
    "playout_engine": PLAYOUT_ENGINE,
    "engine_check_games": integer(0, MAX_GAMES),  # 0: no engine check
    **UNTIL_DECIDED,
}


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored), lists normalised."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    for key in ("games", "playouts", "rave_games", "node_playouts"):
        values = result[key] if isinstance(result[key], (list, tuple)) else [result[key]]
        if not values:
            raise ValueError(f"{key} is empty: give at least one value")
        result[key] = list(values)
    result["games"] = [g for g in GAMES if g in result["games"]]  # the tables' order
    result["rave_games"] = [g for g in RAVE_GAMES if g in result["rave_games"]]
    result["node_playouts"] = sorted(float(x) for x in result["node_playouts"])
    result["games_per_cell"] = check_games_per_budget(result["games_per_cell"], result["playouts"])
    result["size"] = check_int("size", result["size"], 4, 19)
    return result


def best_settings() -> pd.DataFrame:
    """Per game, the alpha of PPA and of PPAF that Cazenave 2016 found best against UCT (its Tables 1-10), with the
    paper's win rate there: the first of the maxima in the table's order."""
    from .ppaf2016 import paper_cells
    cells = paper_cells()
    cells = cells[(cells["opponent"] == "uct") & cells["algorithm"].isin(["ppa", "ppaf"])]
    best = cells.loc[cells.groupby(["game", "algorithm"], sort=False)["paper_win_rate"].idxmax()]
    return best[["table", "game", "algorithm", "value", "paper_win_rate"]].reset_index(drop=True)


def _rave_playouts(game: str, s: dict) -> int:
    return s["sum_playouts"] if game == "sum_cashing_checks" else s["rave_playouts"]


def cells(s: dict) -> pd.DataFrame:
    """Every cell of the grid: part, game, series, x (playouts, or the per-node threshold), the agent and its
    opponent (the same agent for a self-play cell), the condition and its id."""
    alphas = {(r.game, r.algorithm): r.value for r in best_settings().itertuples()}
    rows = []
    for playouts in s["playouts"]:
        for game in s["games"]:
            learned = dict(c=s["c"], playout_engine=s["playout_engine"])
            ppaf = make_agent("ppaf", playouts, **learned, alpha=alphas[game, "ppaf"])
            agents = {"ppa_grave": make_agent("ppa", playouts, **learned, alpha=alphas[game, "ppa"], grave=True),
                      "ppaf_grave": make_agent("ppaf", playouts, **learned, alpha=alphas[game, "ppaf"], grave=True),
                      "ppaf_kept": make_agent("ppaf", playouts, **learned, alpha=alphas[game, "ppaf"],
                                              keep_policy=True)}
            for series, agent in agents.items():
                rows.append((VS_PPAF[series][1], game, s["size"], (), series, playouts, agent, ppaf))
    for game in s["rave_games"]:
        size, options = RAVE_GAMES[game]
        playouts = _rave_playouts(game, s)
        common = dict(c=s["c"], k_rave=s["k_rave"])
        for series, params in RAVE_SETTINGS.items():
            agent = make_agent("rave", playouts, **common, **params)
            rows.append(("adaptive_rave", game, size, options, series, np.nan, agent, agent))
        for threshold in s["node_playouts"]:
            agent = make_agent("rave", playouts, **common, adaptive=True, adaptive_per_node=True,
                               node_playouts=threshold)
            rows.append(("adaptive_rave", game, size, options, "node", threshold, agent, agent))
        node = make_agent("rave", playouts, **common, adaptive=True, adaptive_per_node=True)
        root = make_agent("rave", playouts, **common, adaptive=True)
        rows.append(("node_vs_root", game, size, options, "node_vs_root", NODE_PLAYOUTS, node, root))
    frame = pd.DataFrame(rows, columns=["part", "game", "size", "options", "series", "x", "agent", "opponent"])
    frame["condition"] = [Condition(g, size, a, o, game_options=opts) for g, size, opts, a, o in
                          zip(frame["game"], frame["size"], frame["options"], frame["agent"], frame["opponent"])]
    frame["condition_id"] = [c.id for c in frame["condition"]]
    return frame


def engine_check_experiment(results_dir, s: dict) -> Experiment | None:
    """The engine check of the settings ``s``: the grid's parts 1 and 2 cells (PPA+GRAVE, PPAF+GRAVE, the kept
    policy, each against PPAF) at the smallest ``playouts`` of the games where the engines' games differ
    (``engine_check.engines_differ``: Atarigo, Domineering, Misere Domineering, Nogo), with every learned-playout
    agent at the *other* engine than the grid's, ``engine_check_games`` games a cell, at the grid's seed (a condition
    id names the same games in every store), stored in ``engine_check.folder(results_dir)``; None when
    ``engine_check_games`` is 0 or no such game is asked for.  Compared with the grid's own games of the same cells
    (``engine_check_table``): GRAVE's AMAF statistics and a policy kept between moves are parts of these agents that
    notebook 02's check does not play."""
    from ..engine_check import engines_differ, folder
    games = [g for g in s["games"] if engines_differ(g)]
    if not s["engine_check_games"] or not games:
        return None
    other = {**s, "games": games, "playouts": [min(s["playouts"])], "rave_games": [],
             "playout_engine": 3 - s["playout_engine"]}
    grid = cells(other)
    conditions = list(dict.fromkeys(grid.loc[grid["part"].isin(["grave", "kept_policy"]), "condition"]))
    return Experiment(f"{NAME}_engine_check", tuple(conditions), s["engine_check_games"], s["seed"],
                      folder(results_dir))


def engine_check_table(games: pd.DataFrame) -> pd.DataFrame:
    """The engine check compared cell by cell and pooled (``ppalib.engine_check.check_table``) over ``games``: the
    grid's and the check's stored games together; each cell named by its series, game and playouts."""
    from ..engine_check import check_table
    names = {"ppa_grave": "PPA+GRAVE", "ppaf_grave": "PPAF+GRAVE", "ppaf_kept": "PPAF, policy kept"}

    def labels(condition):
        agent = condition.agent
        series = ("ppa_grave" if agent.kind == "ppa" else "ppaf_grave" if agent.grave else
                  "ppaf_kept" if agent.keep_policy else agent.kind)
        return {"game": condition.game, "series": names.get(series, series), "playouts": agent.playouts}
    table = check_table(games[games["agent"].isin(["ppa", "ppaf"])], labels)
    if "playouts" in table:
        table["playouts"] = table["playouts"].astype("Int64")  # the pooled row has none
    return table


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    """The grid of ``preset`` (module docstring), stored under ``results_dir``: each board-game cell gets the
    ``games_per_cell`` of its playouts budget; the Cashing Checks cells the largest ``games_per_cell``."""
    s = settings(preset, **overrides)
    grid = cells(s)
    games = games_per_playouts(s)
    most = max(games.values())
    by_condition = {c.id: games[c.agent.playouts] for c, part in zip(grid["condition"], grid["part"])
                    if part in ("grave", "kept_policy") and games[c.agent.playouts] != most}
    conditions = list(dict.fromkeys(grid["condition"]))
    return Experiment(NAME, tuple(conditions), most, s["seed"], Path(results_dir),
                      games_by_condition=by_condition or None)


def decision_cells(experiment: Experiment, s: dict) -> pd.DataFrame:
    """The cells games until decided grows: the board-game cells against PPAF at the largest playouts budget
    (10,000 in quick), each against the fixed reference 50% (no difference from PPAF; ``paper_games`` NaN)."""
    grid = cells(s)
    top = max(s["playouts"])
    chosen = grid[grid["part"].isin(["grave", "kept_policy"]) & (grid["x"] == top)]
    ids = {c.id for c in experiment.conditions}
    chosen = chosen[chosen["condition_id"].isin(ids)]
    return pd.DataFrame({"condition_id": chosen["condition_id"].to_numpy(), "paper_percent": 50.0,
                         "paper_games": np.nan}).drop_duplicates("condition_id")


# ---- tables, findings and figures --------------------------------------------------------------------------------
BETTER, WORSE, NOT_SIGNIFICANT = "better", "worse", "not significant"
#: Three-way verdicts of a head-to-head cell against 50% (``report.cell_verdict``, the paper-free reference):
#: within the equivalence margin of an even match, or undecided.
SAME, UNDECIDED = "within the margin", "undecided"
MORE, FEWER = "more", "fewer"
MARKS = {BETTER: "▲", WORSE: "▼", NOT_SIGNIFICANT: "", MORE: "▲", FEWER: "▼", SAME: "=", UNDECIDED: "?"}
_THREE_WAY = {"higher": BETTER, "lower": WORSE, "reproduced": SAME, "undecided": UNDECIDED}
#: The key under a head-to-head table's Markdown file (``report.with_key``).
_VS_EVEN_KEY = ("Cells: win rate (%, draws half) [95% interval: Wilson, or anytime-valid for a cell grown until "
                "decided], then the three-way verdict against an even match: ▲/▼ better/worse when the interval "
                "excludes 50%, = within ±{margin:g} points of 50% when it lies inside them, ? undecided otherwise; "
                "in brackets our games (→ the games that would decide an undecided cell at our observed rate, ∞ "
                "when none would).")


def _grid(frame: pd.DataFrame, s: dict) -> pd.DataFrame:
    """The grid's cells joined with their stored games: games, wins, draws, losses (agent's results 1, 0.5, 0),
    score, and the mean plies a game (NaN for records without plies)."""
    grid = cells(s).drop(columns=["condition", "options"])
    frame = frame if "plies" in frame.columns else frame.assign(plies=np.nan)
    played = frame.groupby("condition_id").agg(
        games=("agent_result", "size"), wins=("agent_result", lambda r: float((r == 1.0).sum())),
        draws=("agent_result", lambda r: float((r == 0.5).sum())),
        losses=("agent_result", lambda r: float((r == 0.0).sum())), score=("agent_result", "sum"),
        plies=("plies", "mean"))
    return grid.join(played, on="condition_id").dropna(subset=["games"])


def sign_test(wins: float, losses: float, anytime: bool = False) -> tuple[float, str]:
    """Two-sided exact binomial test of the decisive games (draws left out) against 1/2: (p, verdict).
    ``anytime`` (a cell grown by games until decided, whose game count the data chose): the anytime-valid p
    (``report.anytime_p_value``) of the decisive games instead, since a fixed-sample test is not valid there."""
    from scipy.stats import binomtest
    from ..report import anytime_p_value
    decisive = int(wins + losses)
    if decisive == 0:
        return 1.0, NOT_SIGNIFICANT
    p_value = anytime_p_value(wins, decisive, 0.5) if anytime else binomtest(int(wins), decisive, 0.5).pvalue
    if p_value >= 0.05:
        return p_value, NOT_SIGNIFICANT
    return p_value, BETTER if wins > losses else WORSE


def _with_rates(table: pd.DataFrame, successes: str, grown=None) -> pd.DataFrame:
    """``table`` with the rate of ``successes`` and its 95% interval: Wilson's, or where ``grown`` (a boolean per
    row: grown until decided) the anytime-valid one its verdict uses (``report.rate_intervals``)."""
    from ..report import rate_intervals
    table = table.copy()
    table["rate"] = 100 * table[successes] / table["games"]
    table["ci_low"], table["ci_high"] = rate_intervals(table[successes], table["games"], grown)
    return table


def matches_table(frame: pd.DataFrame, s: dict) -> pd.DataFrame:
    """Every head-to-head cell (learned playouts against PPAF, per-node against root-only adaptive RAVE): games,
    wins, draws, losses, mean plies a game, the win rate (draws half) with its Wilson 95% interval (for a cell grown
    until decided the anytime-valid one its verdict uses), the sign test's
    p, and the three-way verdict against an even match (``report.cell_verdict`` against 50% as a fixed reference,
    at ``report.EQUIVALENCE_MARGIN``): *better* / *worse* when the 95% interval excludes 50%, *within the margin*
    when it lies inside 50 +- the margin, *undecided* otherwise; with the games that would decide it.  A cell
    grown by games until decided (``until_decided`` in ``frame``) is judged by its anytime-valid interval."""
    from ..report import cell_verdict
    grid = _grid(frame, s)
    grown = set(frame.loc[frame["until_decided"], "condition_id"]) if "until_decided" in frame.columns else set()
    cells_ = grid[grid["part"].isin(["grave", "kept_policy", "node_vs_root"])]
    table = _with_rates(cells_, "score", cells_["condition_id"].isin(grown).to_numpy())
    table["grown"] = table["condition_id"].isin(grown)
    tests = [sign_test(w, l, g) for w, l, g in zip(table["wins"], table["losses"], table["grown"])]
    table["p_value"] = [p for p, _ in tests]
    verdicts = [cell_verdict(score, int(games), 50.0, None, anytime=cid in grown)
                for score, games, cid in zip(table["score"], table["games"], table["condition_id"])]
    table["verdict"] = [_THREE_WAY[v.verdict] for v in verdicts]
    table["games_to_decide"] = [v.games_to_decide for v in verdicts]
    table["agent_label"] = [a.label for a in table["agent"]]
    table["opponent_label"] = [o.label for o in table["opponent"]]
    table["title"] = table["game"].map(TITLES)
    return table.drop(columns=["agent", "opponent"]).reset_index(drop=True)


def _cell(row) -> str:
    """``rate [low, high] mark (games)``, an undecided cell's games followed by those that would decide it
    (``→ N``, ``→ ∞`` when none would): each cell its own count, since games until decided grows cells apart."""
    mark = MARKS[row.verdict]
    to_decide = getattr(row, "games_to_decide", None)
    extra = ""
    if row.verdict == UNDECIDED:
        extra = f" → {int(to_decide)}" if to_decide is not None and to_decide == to_decide else " → ∞"
    return (f"{row.rate:.1f} [{row.ci_low:.1f}, {row.ci_high:.1f}]" + (f" {mark}" if mark else "")
            + f" ({int(row.games)}{extra})")


def vs_ppaf_layout(table: pd.DataFrame, part: str) -> pd.DataFrame:
    """One table of the notebook: a row per game, a column per series and playouts; each cell our win rate
    against PPAF [95% interval] and its three-way verdict against an even match (``matches_table``): ▲/▼ better /
    worse, = within the margin, ? undecided, then its games (→ the games that would decide an undecided one at our
    rate: ``_cell``); then the mean plies a game over the row's games (every series and budget of the table)."""
    cells_ = table[table["part"] == part]
    if cells_.empty:
        return pd.DataFrame()
    rows = []
    for game, per_game in cells_.groupby("game", sort=False):
        first = per_game.iloc[0]
        row = {"game": TITLES[game], "opponent": first.opponent_label}
        for r in per_game.itertuples():
            row[f"{VS_PPAF[r.series][0]}, {int(r.x):,} playouts"] = _cell(r)
        row["plies a game"] = round(float((per_game["plies"] * per_game["games"]).sum() / per_game["games"].sum()), 1)
        rows.append(row)
    from ..report import EQUIVALENCE_MARGIN, with_key
    frame = pd.DataFrame(rows).set_index("game")
    frame.index.name = f"game (= within ±{EQUIVALENCE_MARGIN:g} points of 50%)"  # the margin in the header
    return with_key(frame, _VS_EVEN_KEY.format(margin=EQUIVALENCE_MARGIN))


def optimal_draws_table(frame: pd.DataFrame, s: dict) -> pd.DataFrame:
    """The self-play cells of the adaptive RAVE part: matches, optimal draws (every move of both players optimal,
    by the exact solver), their rate with its Wilson 95% interval, and Fisher's exact test against root-only
    adaptive RAVE in the same game (two-sided; "more" / "fewer" / "not significant")."""
    from scipy.stats import fisher_exact

    from .adaptive_rave2013 import label_optimal
    selfplay = frame[frame["condition_id"].isin(set(cells(s).query("part == 'adaptive_rave'")["condition_id"]))]
    labelled = selfplay.assign(optimal=label_optimal(selfplay)) if len(selfplay) else selfplay.assign(optimal=[])
    counts = labelled.groupby("condition_id")["optimal"].sum()
    grid = _grid(frame, s)
    table = grid[grid["part"] == "adaptive_rave"].copy()
    table["optimal_draws"] = table["condition_id"].map(counts).astype(float)
    table = _with_rates(table, "optimal_draws")
    p_values, verdicts = [], []
    for r in table.itertuples():
        root = table[(table["game"] == r.game) & (table["series"] == "root")]
        if r.series == "root" or root.empty:
            p_values.append(np.nan)
            verdicts.append("")
            continue
        b = root.iloc[0]
        p_value = fisher_exact([[r.optimal_draws, r.games - r.optimal_draws],
                                [b.optimal_draws, b.games - b.optimal_draws]])[1]
        p_values.append(p_value)
        verdicts.append(NOT_SIGNIFICANT if p_value >= 0.05 else (MORE if r.rate > b.rate else FEWER))
    table["p_vs_root"] = p_values
    table["vs_root"] = verdicts
    table["setting"] = [_setting(r.series, r.x) for r in table.itertuples()]
    table["playouts"] = [a.playouts for a in table["agent"]]
    table["title"] = table["game"].map(TITLES)
    return table.drop(columns=["agent", "opponent", "wins", "draws", "losses", "score", "plies"]).reset_index(drop=True)


def _setting(series: str, x: float) -> str:
    return {"never": "never RAVE", "always": "always RAVE", "root": "adaptive at the root"}.get(
        series, f"adaptive per node (> {x:g} playouts)")


def optimal_draws_layout(table: pd.DataFrame) -> pd.DataFrame:
    """A row per setting, a column per game: optimal draws (%) [95% interval], ▲/▼ when significantly more/fewer
    than root-only adaptive RAVE (Fisher, p < 0.05)."""
    if table.empty:
        return pd.DataFrame()
    table = table.assign(cell=[f"{r.rate:.1f} [{r.ci_low:.1f}, {r.ci_high:.1f}]"
                               + (f" {MARKS[r.vs_root]}" if r.vs_root and MARKS[r.vs_root] else "")
                               for r in table.itertuples()])
    order = list(dict.fromkeys(table["setting"]))
    wide = table.pivot_table(index="setting", columns="title", values="cell", aggfunc="first")
    wide = wide.reindex(index=order, columns=[TITLES[g] for g in RAVE_GAMES if TITLES[g] in wide.columns])
    wide.columns.name = None
    playouts = table.groupby("title")["playouts"].first()
    wide.loc["playouts a move"] = [f"{int(playouts[c]):,}" for c in wide.columns]
    wide.loc["matches a cell"] = [str(int(table[table["title"] == c]["games"].min())) for c in wide.columns]
    from ..report import with_key
    return with_key(wide, "Cells: optimal draws in self-play (%) [Wilson 95% interval]; ▲/▼: significantly more/fewer "
                    "than adaptive RAVE at the root in the same game (Fisher's exact test, p < 0.05).")


def head_to_head_layout(table: pd.DataFrame) -> pd.DataFrame:
    """Per-node (threshold 50) against root-only adaptive RAVE, a row per game: win rate (draws half) [95%
    interval], wins / draws / losses, the sign test's p and the verdict.  The two answer different questions, and
    the headers say which: the verdict is the win rate's (draws half) against an even match (``matches_table``),
    the p is the sign test's on the decisive matches alone, so with most matches drawn a p below 0.05 can sit
    beside an undecided verdict (a few more losses than wins, and an interval of the win rate that still holds
    50%)."""
    from ..report import EQUIVALENCE_MARGIN, with_key
    cells_ = table[table["part"] == "node_vs_root"]
    frame = pd.DataFrame({"game": cells_["title"], "win rate": [_cell(r) for r in cells_.itertuples()],
                          "wins / draws / losses": [f"{int(r.wins)} / {int(r.draws)} / {int(r.losses)}"
                                                    for r in cells_.itertuples()],
                          "p (sign test, decisive matches)": cells_["p_value"],
                          "verdict (win rate, draws half, vs 50%)": cells_["verdict"]}).set_index("game")
    return with_key(frame, _VS_EVEN_KEY.format(margin=EQUIVALENCE_MARGIN))


def _joined(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rank_correlation(x, y) -> tuple[float, float]:
    """Spearman's rho of ``x`` and ``y`` (average ranks for ties) and its exact two-sided permutation p-value: the
    share of the n! orderings of ``x`` whose rho is at least as far from 0 (n <= 8 here: the eight games).  NaN
    when either is constant."""
    import itertools

    from scipy.stats import rankdata
    if len(x) > 9:
        raise ValueError(f"{len(x)} values: the exact permutation test enumerates n! orderings (n <= 9)")
    rx, ry = rankdata(x), rankdata(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    norm = np.sqrt((rx ** 2).sum() * (ry ** 2).sum())
    if norm == 0:
        return np.nan, np.nan
    rho = float(rx @ ry / norm)
    permuted = rx[np.array(list(itertools.permutations(range(len(rx)))))] @ ry / norm
    return rho, float(np.mean(np.abs(permuted) >= abs(rho) - 1e-12))


#: How a head-to-head cell's three-way verdict against an even match reads (``matches_table``).
_EVEN_MATCH_WORDS = ("better/worse: the 95% interval of the score excludes 50%; within the margin: it lies inside "
                     "50 ± {margin:g} points")


def _vs_ppaf_sentence(label: str, playouts: float, cells_: pd.DataFrame) -> str:
    """One series against PPAF at one budget: the significant cells by direction (each with its win rate), the
    count of the others, the mean win rate, and (4 games or more) the rank correlation of the win rate with the
    games' length."""
    from ..report import EQUIVALENCE_MARGIN
    named = {v: [f"{r.title} {r.rate:.1f}%" for r in cells_.itertuples() if r.verdict == v] for v in (BETTER, WORSE)}
    clauses = [f"{word} in {len(named[v])} ({', '.join(named[v])})" for v, word in ((BETTER, "better"),
                                                                                   (WORSE, "worse")) if named[v]]
    same = int((cells_["verdict"] == SAME).sum())
    unresolved = len(cells_) - same - sum(len(v) for v in named.values())
    rest = [f"within the margin of an even match in {same}" if same else "",
            f"undecided in {unresolved}" if unresolved else ""]
    rest = "; ".join(r for r in rest if r)
    if not clauses:
        verdicts = f"none significantly better or worse of the {len(cells_)}" + (f" ({rest})" if rest else "")
    else:
        verdicts = "significantly " + ", ".join(clauses) + (f"; {rest}" if rest else "")
    low, high = int(cells_["games"].min()), int(cells_["games"].max())
    plays = f"{low}" if low == high else f"{low} to {high}"
    text = (f"* **{label}** (against PPAF, {int(playouts):,} playouts; {len(cells_)} board games, {plays} games a "
            f"cell; {_EVEN_MATCH_WORDS.format(margin=EQUIVALENCE_MARGIN)}): {verdicts}; mean win rate "
            f"{cells_['rate'].mean():.1f}%.")
    known = cells_.dropna(subset=["plies"])
    if len(known) >= 4:
        rho, p_value = rank_correlation(known["rate"], known["plies"])
        text += (f" Across the {len(known)} games, its win rate against the game's length (mean plies a game): "
                 f"Spearman rho = {rho:.2f} (exact permutation p = {p_value:.2g}).")
    return text


def _per_node_sentence(nodes: pd.DataFrame) -> str:
    """Per-node settings against root-only: the thresholds grouped by Fisher verdict, none left as "none"."""
    groups = [(MORE, "significantly more optimal draws"), (FEWER, "significantly fewer optimal draws"),
              (NOT_SIGNIFICANT, "no significant difference")]
    clauses = []
    for verdict, words in groups:
        names = [f"> {x:g}" for x, v in zip(nodes["x"], nodes["vs_root"]) if v == verdict]
        if names:
            clauses.append(f"{words} at {'threshold' if len(names) == 1 else 'thresholds'} {_joined(names)}")
    return "Per node against root-only (Fisher's exact test): " + "; ".join(clauses) + "."


def _multiplicity_sentence(matches: pd.DataFrame) -> list[str]:
    """Per budget, the board-game cells against PPAF: how many are significant at 5%, how many remain after
    Holm's correction over that budget's cells, and which do not."""
    from ..report import holm
    lines = []
    board = matches[matches["part"].isin(["grave", "kept_policy"])]
    for playouts, cells_ in board.groupby("x"):
        significant = cells_[cells_["verdict"].isin([BETTER, WORSE])]
        adjusted = pd.Series(holm(cells_["p_value"]), index=cells_.index)
        lost = significant[adjusted[significant.index] >= 0.05]
        text = (f"* **How much is chance, {int(playouts):,} playouts**: {len(significant)} of the {len(cells_)} "
                f"board-game cells differ from PPAF at 5% (better or worse; about {0.05 * len(cells_):.1f} expected "
                f"by chance alone if no agent differed); with Holm's correction of their sign tests' p (anytime-valid "
                f"for a cell grown until decided) over these "
                f"{len(cells_)} cells {len(significant) - len(lost)} remain")
        if len(lost):
            text += " (not: " + ", ".join(f"{VS_PPAF[r.series][0]} at {r.title}, {r.rate:.1f}%, p = {r.p_value:.2g}"
                                        for r in lost.itertuples()) + ")"
        lines.append(text + ".")
    return lines


def _between_budgets(matches: pd.DataFrame) -> list[str]:
    """Per series, the games whose win rate against PPAF differs between the two budgets (Fisher's exact test of
    the two cells' scores, draws half, rounded; p < 0.05; where a cell was grown by games until decided, the p of
    ``report.interval_difference``, anytime-valid for it), and how many do not."""
    from ..report import is_grown, two_sample_p
    lines = []
    board = matches[matches["part"].isin(["grave", "kept_policy"])]
    budgets = sorted(set(board["x"]))
    if len(budgets) != 2:
        return lines
    low, high = budgets
    for series, (label, _) in VS_PPAF.items():
        cells_ = board[board["series"] == series]
        changed, unchanged = [], 0
        for game, pair in cells_.groupby("game", sort=False):
            if set(pair["x"]) != {low, high}:
                continue
            a, b = (pair[pair["x"] == x].iloc[0] for x in (low, high))
            p_value = two_sample_p(a.score, a.games, is_grown(a, "grown"), b.score, b.games, is_grown(b, "grown"))
            if p_value < 0.05:
                changed.append(f"{a.title} {a.rate:.1f}% -> {b.rate:.1f}% (p = {p_value:.2g})")
            else:
                unchanged += 1
        if changed or unchanged:
            lines.append(f"* **{label}, {int(low):,} against {int(high):,} playouts** (Fisher's exact test between "
                         f"the budgets; where a cell was grown until decided, the difference of the two cells' 97.5% "
                         f"intervals, anytime-valid for it): "
                         + (f"changed at {_joined(changed)}" if changed else "no game changed")
                         + (f"; {unchanged} games without a significant change" if unchanged and changed else "")
                         + ".")
    return lines


def _shared_alpha_sentence(games: list[str]) -> str:
    """Where PPA+GRAVE and PPAF+GRAVE differ in their codes only (PPA's and PPAF's best alpha equal) and where in
    their alpha too: which of their differences the cells can attribute to the codes."""
    best = best_settings().pivot(index="game", columns="algorithm", values="value")
    best = best.loc[[g for g in games if g in best.index]]
    same = [TITLES[g] for g in best.index if best.loc[g, "ppa"] == best.loc[g, "ppaf"]]
    other = [TITLES[g] for g in best.index if best.loc[g, "ppa"] != best.loc[g, "ppaf"]]
    text = "* **PPA+GRAVE against PPAF+GRAVE**: they differ in the move codes only where PPA's and PPAF's best alpha "
    text += f"are equal ({_joined(same)})" if same else "are equal (in none of these games)"
    return text + (f"; at {_joined(other)} they differ in alpha too, so a gap between them there is not the codes' "
                   "alone." if other else ".")


def _fixed_choice_sentence(never, always) -> str:
    """Never against always RAVE: the better fixed choice is named only when Fisher's test decides it."""
    from scipy.stats import fisher_exact
    p_value = fisher_exact([[never.optimal_draws, never.games - never.optimal_draws],
                            [always.optimal_draws, always.games - always.optimal_draws]])[1]
    if p_value >= 0.05:
        return f" Neither fixed choice is significantly better (Fisher p = {p_value:.2g} between never and always RAVE)."
    better = "never RAVE" if never.rate > always.rate else "always RAVE"
    return f" The better fixed choice is {better} (Fisher p = {p_value:.2g} between the two)."


def _per_node_summary(draws: pd.DataFrame) -> list[str]:
    """Per game, per-node against root-only adaptive RAVE: in how many cells per node is above / below, and how
    many of the cells' Fisher tests remain significant after Holm's correction over every per-node cell."""
    from ..report import holm
    nodes = draws[draws["series"] == "node"].dropna(subset=["p_vs_root"])
    if nodes.empty:
        return []
    adjusted = pd.Series(holm(nodes["p_vs_root"]), index=nodes.index)
    lines = []
    for game, cells_ in nodes.groupby("game", sort=False):
        root = draws[(draws["game"] == game) & (draws["series"] == "root")].iloc[0]
        below = int((cells_["rate"] < root["rate"]).sum())
        above = int((cells_["rate"] > root["rate"]).sum())
        raw = int((cells_["p_vs_root"] < 0.05).sum())
        kept = int((adjusted[cells_.index] < 0.05).sum())
        n = len(cells_)
        directions = [f"{word} root-only at {'all ' + str(n) if k == n else f'{k} of its {n}'} thresholds"
                      for k, word in ((below, "below"), (above, "above")) if k]
        tests = (f"{raw} significant at 5%, {kept} of them after Holm's correction over all {len(nodes)} per-node "
                 f"cells (the thresholds of a game share one root-only baseline)" if raw else
                 "no cell significant at 5%")
        lines.append(f"* **Per node against root-only, {TITLES[game]}**: per node "
                     f"{' and '.join(directions) or 'level with root-only at every threshold'}; {tests}.")
    return lines


def findings(matches: pd.DataFrame, draws: pd.DataFrame) -> str:
    """What the stored games say, in sentences computed from the tables (no number is written by hand)."""
    from ..report import EQUIVALENCE_MARGIN
    lines = []
    for series, (label, part) in VS_PPAF.items():
        for playouts, cells_ in matches[matches["series"] == series].groupby("x"):
            lines.append(_vs_ppaf_sentence(label, playouts, cells_))
    lines += _multiplicity_sentence(matches)
    lines += _between_budgets(matches)
    grave_games = list(dict.fromkeys(matches.loc[matches["part"] == "grave", "game"]))
    if grave_games:
        lines.append(_shared_alpha_sentence(grave_games))
    for game, cells_ in draws.groupby("game", sort=False):
        cells_ = cells_.set_index("setting")
        text = f"* **{TITLES[game]}** ({int(cells_['playouts'].iloc[0]):,} playouts): optimal draws "
        text += ", ".join(f"{name} {r.rate:.1f}%" for name, r in cells_.iterrows()) + "."
        if {"never RAVE", "always RAVE"} <= set(cells_.index):
            text += _fixed_choice_sentence(cells_.loc["never RAVE"], cells_.loc["always RAVE"])
        nodes = cells_[cells_["series"] == "node"]
        if "adaptive at the root" in cells_.index and len(nodes):
            text += " " + _per_node_sentence(nodes)
        lines.append(text)
    lines += _per_node_summary(draws)
    for r in matches[matches["part"] == "node_vs_root"].itertuples():
        lines.append(f"* **Head to head, {r.title}**: per node {r.rate:.1f}% [{r.ci_low:.1f}, {r.ci_high:.1f}] "
                     f"against root-only ({int(r.wins)} wins, {int(r.draws)} draws, {int(r.losses)} losses): "
                     f"{r.verdict} ({_EVEN_MATCH_WORDS.format(margin=EQUIVALENCE_MARGIN)}); sign test of the "
                     f"{int(r.wins + r.losses)} decisive games p = {r.p_value:.3g}.")
    return "\n".join(lines)


def _error_bars(cells_: pd.DataFrame) -> list:
    """Error bar lengths of the cells' rates (``report.error_bar_lengths``)."""
    from ..report import error_bar_lengths
    return error_bar_lengths(cells_["rate"], cells_["ci_low"], cells_["ci_high"])


def plot(matches: pd.DataFrame, draws: pd.DataFrame, *, style: str = "whitegrid", context: str = "paper"):
    """Left: win rate against PPAF (95% intervals) per game, a marker per variant and budget.  Right: optimal
    draws (95% intervals) per adaptive RAVE setting, a colour per Cashing Checks game."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    sns.set_theme(style=style, context=context)
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.6), gridspec_kw={"width_ratios": [1.2, 1]})
    vs = matches[matches["part"].isin(["grave", "kept_policy"])]
    games = list(dict.fromkeys(vs["title"]))
    variants = list(dict.fromkeys(zip(vs["series"], vs["x"])))
    height = 0.8 / max(len(variants), 1)
    for i, (series, playouts) in enumerate(variants):
        cells_ = vs[(vs["series"] == series) & (vs["x"] == playouts)].set_index("title").reindex(games)
        y = np.arange(len(games)) - 0.4 + height * (i + 0.5)
        left.errorbar(cells_["rate"], y, xerr=_error_bars(cells_),
                      fmt="os^"[i % 3] if len(variants) <= 3 else "o", color=f"C{i}", capsize=2, linestyle="none",
                      label=f"{VS_PPAF[series][0]}, {int(playouts):,} playouts")
    left.axvline(50, color="0.5", lw=0.8)
    left.set_yticks(range(len(games)), games)
    left.invert_yaxis()
    left.set_xlim(-2, 102)
    left.set_xlabel("win rate against PPAF (%)")
    left.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
    left.set_title("1-2: GRAVE in the tree, the policy kept between moves (against PPAF)", fontsize="small")
    settings_ = list(dict.fromkeys(draws["setting"]))
    for i, (game, cells_) in enumerate(draws.groupby("game", sort=False)):
        cells_ = cells_.set_index("setting").reindex(settings_)
        x = np.arange(len(settings_)) + (i - 1) * 0.2
        # colours and markers of their own: the left panel's colours name agents, not games
        right.errorbar(x, cells_["rate"], yerr=_error_bars(cells_), fmt="DPX"[i % 3], capsize=2,
                       color=("C6", "C8", "C9")[i % 3], label=f"{CASHING_NAMES.get(game, TITLES[game])} "
                       f"({int(cells_['playouts'].dropna().iloc[0]):,} playouts)")
    right.set_xticks(range(len(settings_)), [t.replace("adaptive ", "").replace(" (", "\n(") for t in settings_],
                     fontsize="x-small")
    right.set_ylim(-2, 102)
    right.set_xlabel("RAVE setting")
    right.set_ylabel("optimal draws in self-play (%)")
    right.set_title("3: adaptive RAVE at the root or per node", fontsize="small")
    right.legend(fontsize="x-small")
    fig.tight_layout()
    return fig
