"""Games until decided: add games, in batches, to the cells of an experiment that are not decided yet, until each
is decided or reaches a per-cell cap (or a CPU budget runs out).

A cell keeps its games: growing it raises its game count (``Experiment.games_by_condition``), so ``run`` plays the
missing game indices with the seeds it always gives them (``make_rng(seed, condition id, game index)``); no
condition id changes.  The grown counts are written to a ledger in the results folder (``until_decided.csv``:
condition id, games) *before* the games are played, so an interrupted growth resumes where it stopped (the next
``run`` plays the ledger's missing games) and every later reader (``with_ledger``) sees the grown cells with all
their games.  A cell in the ledger was grown by the rule: ``ppalib.report.cell_verdict(..., anytime=True)`` judges
it by an anytime-valid confidence sequence, which stays valid however the stopping was chosen.  The first look,
at the planned count, uses the fixed-sample interval (a cell decided there is never grown), so the whole procedure's
error rate is bounded by alpha at that look plus alpha for the sequence (2 alpha), not alpha; the simulation tests
(tests/test_until_decided.py) measure it at or below 5% for the schedules used.

The schedule (``next_counts``) and the loop (``grow``) are shared by the real runner (``run_until_decided``: games
played by ``experiments.run`` on any executor) and the simulation tests (outcomes drawn by a seeded Bernoulli), so
the error rates the tests measure are those of this schedule.

What counts as decided is the caller's (a paper module's ``undecided`` function, built on ``ppalib.report``): this
module sits in the experiments room, below the report.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import pandas as pd

from .experiments import Experiment, check_int, load_results, run

LEDGER = "until_decided.csv"


@dataclass(frozen=True)
class StoppingRule:
    """``batch`` games added to each undecided cell per round, up to ``cap`` games a cell; ``cpu_seconds``: the
    most CPU time (the added games' own timings) a growth may spend in all, None for no budget."""
    batch: int = 16
    cap: int = 500
    cpu_seconds: float | None = None

    def __post_init__(self):
        object.__setattr__(self, "batch", check_int("batch", self.batch, 1, 10_000_000))
        object.__setattr__(self, "cap", check_int("cap", self.cap, 1, 10_000_000))
        if self.cpu_seconds is not None:
            if isinstance(self.cpu_seconds, bool) or not isinstance(self.cpu_seconds, (int, float)) \
                    or not 0 <= self.cpu_seconds < math.inf:
                raise ValueError(f"cpu_seconds={self.cpu_seconds!r} must be a finite number >= 0, or None")


def next_counts(cells: pd.DataFrame, undecided, rule: StoppingRule) -> pd.Series:
    """The next game count of each cell to grow: ``games + batch`` (at most ``cap``) for the undecided cells below
    the cap, fewest games first (the cheapest to decide); indexed by ``condition_id``."""
    open_cells = cells[pd.Series(undecided, index=cells.index).astype(bool) & (cells["games"] < rule.cap)]
    open_cells = open_cells.sort_values(["games", "condition_id"], kind="stable")
    return pd.Series((open_cells["games"] + rule.batch).clip(upper=rule.cap).astype(int).to_numpy(),
                     index=open_cells["condition_id"].to_numpy(), name="games")


def within_budget(targets: pd.Series, cells: pd.DataFrame, spent: float, rule: StoppingRule) -> pd.Series:
    """``targets`` trimmed to the CPU budget: cells in order while the estimated cost (games added times the cell's
    seconds a game, ``cell_counts``: its recent games') fits what is left."""
    if rule.cpu_seconds is None:
        return targets
    left = rule.cpu_seconds - spent
    per_game = cells.set_index("condition_id")["seconds_per_game"]
    keep, cost = [], 0.0
    for cid, target in targets.items():
        added = (target - cells.loc[cells["condition_id"] == cid, "games"].iloc[0]) * per_game.get(cid, 0.0)
        if cost + added > left:
            break
        keep.append(cid)
        cost += added
    return targets.loc[keep]


def check_stop_after(stop_after) -> float | None:
    """``stop_after`` (wall seconds, or None) if it is a finite number >= 0; else a ValueError naming it."""
    if stop_after is None:
        return None
    if isinstance(stop_after, bool) or not isinstance(stop_after, (int, float)) or not 0 <= stop_after < math.inf:
        raise ValueError(f"stop_after={stop_after!r} must be a finite number of wall seconds >= 0, or None")
    return float(stop_after)


def grow(state: Callable[[], tuple[pd.DataFrame, float]], undecided: Callable[[pd.DataFrame], object],
         play: Callable[[pd.Series], None], rule: StoppingRule, progress=None, deadline: float | None = None,
         clock: Callable[[], float] = time.monotonic) -> int:
    """The loop: look at the cells (``state()``: a frame with ``condition_id``, ``wins``, ``games``, ``grown``,
    ``seconds_per_game``, and the CPU seconds spent so far), find the undecided ones (``undecided(cells)``: a
    boolean per row), raise their counts by one batch (``next_counts``, trimmed to the budget) and ``play`` the
    new counts; until no cell is left to grow, or ``clock()`` has reached ``deadline`` before a round (a round
    started is played whole, so a session's growth ends with every ledger cell holding all its games).  Returns
    the rounds played."""
    rounds = 0
    while True:
        if deadline is not None and clock() >= deadline:
            return rounds
        cells, spent = state()
        targets = within_budget(next_counts(cells, undecided(cells), rule), cells, spent, rule)
        if targets.empty:
            return rounds
        play(targets)
        rounds += 1
        if progress is not None:
            progress(rounds, targets)


# ---- the ledger and the real runner --------------------------------------------------------------------------
def read_ledger(results_dir) -> pd.DataFrame:
    """The grown cells stored in ``results_dir``: per condition id (the index), its ``planned`` games and the
    ``games`` the rule grew it to; empty when none."""
    path = Path(results_dir) / LEDGER
    if not path.is_file():
        return pd.DataFrame({"planned": pd.Series(dtype=int), "games": pd.Series(dtype=int)},
                            index=pd.Index([], name="condition_id", dtype=str))
    table = pd.read_csv(path, dtype={"condition_id": str, "planned": int, "games": int})
    return table.set_index("condition_id")[["planned", "games"]]


def _write_ledger(results_dir, counts: pd.Series, planned: dict[str, int]) -> None:
    path = Path(results_dir) / LEDGER
    ledger = read_ledger(results_dir)
    new = pd.DataFrame({"planned": [int(ledger["planned"].get(cid, planned[cid])) for cid in counts.index],
                        "games": counts.astype(int).to_numpy()}, index=pd.Index(counts.index, name="condition_id"))
    merged = pd.concat([ledger[~ledger.index.isin(new.index)], new]).sort_index()
    temporary = path.with_suffix(".csv.tmp")
    merged.reset_index().to_csv(temporary, index=False)
    temporary.replace(path)  # atomic: a reader sees the old ledger or the new one


def with_ledger(experiment: Experiment) -> Experiment:
    """``experiment`` with its grown cells at their ledger counts (a count below the planned one is ignored)."""
    ledger = read_ledger(experiment.results_dir)["games"]
    if ledger.empty:
        return experiment
    counts = {c.id: experiment.games_of(c) for c in experiment.conditions}
    grown = {cid: int(n) for cid, n in ledger.items() if cid in counts and n > counts[cid]}
    if not grown:
        return experiment
    return replace(experiment, games_by_condition={**counts, **grown})


def planned_games(experiment: Experiment) -> dict[str, int]:
    """Each cell's planned games: the ledger's record for a grown cell, else the experiment's count."""
    ledger = read_ledger(experiment.results_dir)["planned"]
    return {c.id: int(ledger.get(c.id, experiment.games_of(c))) for c in experiment.conditions}


def grown_ids(experiment: Experiment) -> set[str]:
    """The experiment's cells that the rule has grown beyond their planned games (judged by the anytime-valid
    interval)."""
    ledger = read_ledger(experiment.results_dir)
    return {c.id for c in experiment.conditions
            if c.id in ledger.index and ledger.loc[c.id, "games"] > ledger.loc[c.id, "planned"]}


def mark_grown(frame: pd.DataFrame, experiment: Experiment) -> pd.DataFrame:
    """``frame`` (stored games) with a boolean column ``until_decided``: the game's cell was grown by the rule
    (``report.win_rates`` carries it to the tables, where such a cell is judged by its anytime-valid interval)."""
    return frame.assign(until_decided=frame["condition_id"].isin(grown_ids(experiment)))


#: A cell's cost per game for the budget and for ``hours_to_decide``: the mean seconds of its most recent games (by
#: ``finished_at``), which the code and host that will play its next games timed; a cell's first games were often
#: played by older, slower code (2-4x the time of this session's, measured 2026-11-29).
RECENT_GAMES = 32


def cell_counts(frame: pd.DataFrame, planned: dict[str, int]) -> tuple[pd.DataFrame, float]:
    """Per condition of ``planned`` (id -> planned games): wins (draws half), games, seconds a game (the mean of its
    ``RECENT_GAMES`` most recent), whether grown; and the CPU seconds of the games beyond the planned ones (what
    growth has spent)."""
    frame = frame[frame["condition_id"].isin(planned)]
    grouped = frame.groupby("condition_id")
    order = [column for column in ("finished_at", "game_index") if column in frame.columns]
    recent = frame.sort_values(order, kind="stable").groupby("condition_id").tail(RECENT_GAMES)
    cells = pd.DataFrame({"wins": grouped["agent_result"].sum(), "games": grouped.size(),
                          "seconds_per_game": recent.groupby("condition_id")["seconds"].mean()}).reindex(list(planned))
    cells = cells.fillna({"wins": 0.0, "games": 0, "seconds_per_game": 0.0}).rename_axis("condition_id").reset_index()
    cells["games"] = cells["games"].astype(int)
    cells["grown"] = cells["games"] > cells["condition_id"].map(planned)
    extra = frame["game_index"] >= frame["condition_id"].map(planned)
    return cells, float(frame.loc[extra, "seconds"].sum())


def run_until_decided(experiment: Experiment, cells_of: list[str], undecided: Callable[[pd.DataFrame], object],
                      rule: StoppingRule, executor="process", *, workers: int | None = None,
                      scheduler_address: str | None = None, progress: bool = True,
                      budget_cells: list[str] | None = None, deadline: float | None = None) -> pd.DataFrame:
    """Grow the undecided cells among ``cells_of`` (condition ids of ``experiment``) until each is decided or at
    the cap, or the CPU budget is spent; returns every stored game of the experiment with the grown counts.

    ``undecided(cells)``: a boolean per row of ``cell_counts``'s frame (the caller's verdict; a grown cell must be
    judged by its anytime-valid interval).  Resumable: the ledger is written before each batch is played.
    ``budget_cells``: the cells whose games beyond the planned ones count against the CPU budget (default
    ``cells_of``; a caller growing a subset of its cells passes them all, so that the budget means the same).
    ``deadline``: a ``time.monotonic()`` value after which no new round starts (``grow``).
    """
    if not isinstance(rule, StoppingRule):
        raise TypeError(f"rule must be a StoppingRule, got {rule!r}")
    known = {c.id for c in experiment.conditions}
    unknown = sorted(set(cells_of) - known)
    if unknown:
        raise ValueError(f"cells_of names conditions not in the experiment: {unknown[:3]}")
    counted = set(cells_of) | set(budget_cells or ())
    unknown = sorted(counted - known)
    if unknown:
        raise ValueError(f"budget_cells names conditions not in the experiment: {unknown[:3]}")
    planned = {cid: n for cid, n in planned_games(experiment).items() if cid in counted}
    grown_only = set(cells_of)

    def current() -> Experiment:
        return with_ledger(experiment)

    # first the planned games (and a batch an interruption left unplayed)
    run(current(), executor, workers=workers, scheduler_address=scheduler_address, progress=progress)

    def state():
        cells, spent = cell_counts(load_results(current()), planned)
        return cells[cells["condition_id"].isin(grown_only)].reset_index(drop=True), spent

    def play(targets: pd.Series) -> None:
        _write_ledger(experiment.results_dir, targets, planned)
        run(current(), executor, workers=workers, scheduler_address=scheduler_address, progress=progress)

    def report(rounds, targets):
        if progress:
            print(f"until decided: round {rounds}: {len(targets)} cells to "
                  f"{int(targets.min())}-{int(targets.max())} games")

    grow(state, undecided, play, rule, report, deadline=deadline)
    return load_results(current())
