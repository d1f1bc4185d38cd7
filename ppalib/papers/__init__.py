"""One module per reproduced paper: its presets, its experiment grid, and its tables and figures.

Every notebook parameter is declared here (the ones all notebooks share, ``COMMON``) or in its paper module
(``PARAMETERS``), with its type and range; one validator checks them all, before anything runs:
``python -m ppalib reproduce`` calls it before papermill starts (so an unknown or mistyped ``-p`` is refused
with a message naming it), and each notebook's first code cell calls it through ``notebook_setup``.

Where a notebook writes: only the committed configuration (preset ``quick`` with every experiment parameter at
its value) reads and writes the committed results ``data/results/<paper>`` (a paper may commit another preset's
run in a folder of its own: ``committed_results_folder``), and only it with the default style
and resolution writes the committed ``figures/<notebook>``; anything else goes to ``output/<preset>/results/<paper>``
(``<paper>-seed<N>`` for a seed other than the preset's: a results folder keeps one seed per condition) and
``output/<preset>/figures/<notebook>`` (ignored by git), unless ``results_dir`` / ``figures_dir`` are given.
Trying a preset never touches the committed results or figures.

A notebook that plays no game (the reproduction report, ``summary``: ``PLAYS_GAMES = False``) declares only the
common parameters of drawing (``REPORT_COMMON``); its ``sources`` hook says which results it reads (never writes),
and only its committed configuration writes the committed ``figures/<notebook>``.
"""
from __future__ import annotations

import difflib
import importlib
import math
import numbers
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

#: Notebook (file stem) -> paper module in this package.
NOTEBOOKS = {"00_reproduction_report": "summary", "01_ppa_2015": "ppa2015", "02_ppaf_2016": "ppaf2016",
             "03_adaptive_rave_2013": "adaptive_rave2013", "04_feature_biasing_2019": "soemers2019",
             "05_future_work": "future_work"}
#: The preset whose results and figures are committed.
COMMITTED_PRESET = "quick"
MAX_GAMES = 10_000_000
MAX_PLAYOUTS = 10_000_000
MAX_SEED = 2**63 - 1
STYLES = ("darkgrid", "whitegrid", "dark", "white", "ticks")  # seaborn's


# ---- parameter declarations ----------------------------------------------------------------------------------
def _type_name(value) -> str:
    return type(value).__name__


@dataclass(frozen=True)
class Param:
    """What one notebook parameter accepts.

    kind: "int", "number" (int or float), "choice", "text", "folder", "game" (a game name) or "grid" (a dict
    of lists, keys ``grid_keys``).  ``low``/``high`` bound numbers (``high`` None: no bound); ``many``: a list
    of such values is accepted too (one value stands for a one-element list; no value twice unless not
    ``distinct``); ``default``: the notebook's
    default (None for "the preset's value"); ``optional``: None is accepted.
    """
    kind: str
    low: float | None = None
    high: float | None = None
    many: bool = False
    choices: tuple = ()
    default: object = None
    optional: bool = True
    grid: tuple = ()  # for kind "grid": (key, Param) pairs
    distinct: bool = True  # a ``many`` list may not repeat a value (False: one value per entry of another list)

    def describe(self) -> str:
        if self.kind == "int":
            what = f"an integer {self._range()}"
        elif self.kind == "number":
            what = f"a number {self._range()}"
        elif self.kind == "choice":
            what = "one of " + ", ".join(map(repr, self.choices))
        elif self.kind == "game":
            what = "a game name"
        elif self.kind == "grid":
            what = "a dict mapping " + ", ".join(repr(k) for k, _ in self.grid) + " to lists"
        else:
            what = "a non-empty string"
        if self.many:
            what = f"{what}, or a non-empty list of them"
        return what

    def _range(self) -> str:
        def show(x):
            return f"{x:g}" if isinstance(x, float) else str(x)
        if self.high is None:
            return f">= {show(self.low)}" if self.low is not None else ""
        return f"in {show(self.low)}..{show(self.high)}"

    def check(self, name: str, value):
        """The value, validated (a single value of a ``many`` parameter stays single); raises TypeError or
        ValueError naming ``name``."""
        if value is None:
            if self.optional:
                return None
            raise TypeError(f"{name} must be {self.describe()}, got None")
        if self.many and isinstance(value, (list, tuple)):
            if not value:
                raise ValueError(f"{name} is empty: give at least one value ({self.describe()})")
            checked = [self._one(name, item, f" (in {name}={list(value)!r})") for item in value]
            repeated = next((v for i, v in enumerate(checked) if v in checked[:i]), None)
            if repeated is not None and self.distinct:
                raise ValueError(f"{name}={list(value)!r} lists {repeated!r} twice: give each value once")
            return checked
        return self._one(name, value, "")

    def _one(self, name: str, value, where: str):
        got = f"got {value!r} ({_type_name(value)}){where}"
        if self.kind in ("int", "number"):
            integral = isinstance(value, numbers.Integral) and not isinstance(value, bool)
            if self.kind == "int" and not integral:
                hint = ""
                if isinstance(value, float) and value.is_integer():
                    hint = f"; write {int(value)}"
                elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
                    hint = "; write the number without quotes"
                raise TypeError(f"{name} must be {self.describe()}, {got}{hint}")
            if not integral and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
                raise TypeError(f"{name} must be {self.describe()}, {got}")
            number = int(value) if integral else float(value)
            if (isinstance(number, float) and not math.isfinite(number)) or \
                    (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                raise ValueError(f"{name}={number!r} is out of range{where}: allowed {self.describe()}")
            return number
        if self.kind == "choice":
            if isinstance(value, bool) or value not in self.choices:
                close = difflib.get_close_matches(str(value), [str(c) for c in self.choices], 1)
                raise ValueError(f"{name}={value!r} is unknown{where}: use {self.describe()}"
                                 + (f" (did you mean {close[0]!r}?)" if close else ""))
            return value
        if self.kind == "game":
            from ..games import GAMES, check_game_name
            if not isinstance(value, str):
                raise TypeError(f"{name} must be {self.describe()}, {got}")
            if value not in GAMES:
                hint = ""
                if value.lstrip().startswith("["):
                    hint = " (a list must be JSON with quoted names, e.g. -p games='[\"go\", \"nogo\"]')"
                try:
                    check_game_name(value)
                except ValueError as error:
                    raise ValueError(f"{name}: {error}{where}{hint}") from None
            return value
        if self.kind == "grid":
            keys = [k for k, _ in self.grid]
            if not isinstance(value, dict) or set(value) != set(keys):
                raise ValueError(f"{name} must map each of {sorted(keys)} to a list of values, got {value!r}")
            checked = {key: param.check(f"{name}[{key!r}]", value[key]) for key, param in self.grid}
            return {key: v if isinstance(v, list) else [v] for key, v in checked.items()}
        # text, folder
        if isinstance(value, Path) and self.kind == "folder":
            value = str(value)
        if not isinstance(value, str):
            raise TypeError(f"{name} must be {self.describe()}, {got}")
        if not value.strip():
            raise ValueError(f"{name}={value!r} is empty: give a value, or None for the default")
        return value


def integer(low, high=None, many=False) -> Param:
    return Param("int", low, high, many=many)


def number(low, high=None, many=False) -> Param:
    return Param("number", low, high, many=many)


#: Parameters every notebook has (besides ``preset``): how to run, where to write, how to draw.
COMMON = {
    "executor": Param("choice", choices=("process", "serial", "dask"), default="process", optional=False),
    "workers": integer(1, 4096),
    "scheduler_address": Param("text"),
    "results_dir": Param("folder"),
    "figures_dir": Param("folder"),
    "style": Param("choice", choices=STYLES, default="whitegrid", optional=False),
    "dpi": Param("int", 10, 2400, default=150, optional=False),
}
#: The common parameters of a notebook that plays no game (the reproduction report): where and how it draws.
REPORT_COMMON = {name: COMMON[name] for name in ("figures_dir", "style", "dpi")}
#: Shared by the papers' own declarations.
SEED = integer(0, MAX_SEED)
GAMES_PER_CELL = integer(1, MAX_GAMES)
#: Games a cell given per playouts budget: one number, or one per entry of the notebook's ``playouts``.
GAMES_PER_BUDGET = Param("int", 1, MAX_GAMES, many=True, distinct=False)
C = number(0)
#: The learned-playout agents' ``playout_engine`` (PPA, PPAF, MAST, MASTF; ``ppalib.agents.learned``): 1, each ply
#: lists its legal moves and draws from the list (every committed game); 2, the incremental sum-tree draw
#: (``ppalib.kernels.incremental``): the same distribution, not the same games move for move, so it is part of the
#: condition (its id differs) and a preset that plays it plays no committed game.
PLAYOUT_ENGINE = integer(1, 2)


#: Games until decided (``ppalib.until_decided``): the parameters of the notebooks that grow their undecided cells.
#: ``until_decided``: "off" (play the planned games only) or "anytime" (then add ``decide_batch`` games to each
#: undecided cell per round, up to ``decide_cap`` games a cell and ``decide_cpu_seconds`` of CPU in all; a grown
#: cell is judged by its anytime-valid interval).  They change no condition id and no planned game, so a notebook
#: run with them still reads and writes its committed results.
UNTIL_DECIDED = {
    "until_decided": Param("choice", choices=("off", "anytime")),
    "decide_batch": integer(1, MAX_GAMES),
    "decide_cap": integer(1, MAX_GAMES),
    "decide_cpu_seconds": number(0),
}


def check_games_per_budget(games, playouts: list) -> int | list[int]:
    """``games_per_cell`` of a notebook whose ``playouts`` is a list: one number (every budget), or a list with one
    number per entry of ``playouts``.  ValueError naming the parameter when the lengths differ."""
    from ..experiments import check_int
    if isinstance(games, (list, tuple)):
        if len(games) != len(playouts):
            raise ValueError(f"games_per_cell={list(games)!r} must be one number, or one per entry of "
                             f"playouts={list(playouts)!r}")
        return [check_int("games_per_cell", g, 1, MAX_GAMES) for g in games]
    return check_int("games_per_cell", games, 1, MAX_GAMES)


def games_per_playouts(s: dict) -> dict[int, int]:
    """Games a cell for each playouts budget of settings ``s`` (``games_per_cell`` checked by
    :func:`check_games_per_budget`)."""
    games = s["games_per_cell"]
    return dict(zip(s["playouts"], games if isinstance(games, list) else [games] * len(s["playouts"])))


def code_versions_line(frame) -> str:
    """A findings line (Markdown): which code played the stored games of ``frame``, per code version its games,
    cells (condition ids) and CPU seconds (the games' own timings)."""
    per = frame.groupby("code_version").agg(games=("condition_id", "size"), cells=("condition_id", "nunique"),
                                            seconds=("seconds", "sum"))
    return "* **Which code played them**: " + "; ".join(
        f"`{version.split('+')[-1][:8]}` {int(r.games):,} games in {int(r.cells)} cell{'s' if r.cells != 1 else ''} "
        f"({r.seconds:,.0f} CPU s)"
        for version, r in per.iterrows()) + "."


def playout_engines_line(frame) -> str:
    """Which playout engine played the stored games of ``frame`` that have a learned-playout agent (PPA, PPAF, MAST,
    MASTF; ``PLAYOUT_ENGINE``): per engine its games and cells (condition ids); "" when none has one."""
    from ..engine_check import engine_of
    rows = {}  # engine -> [games, cells]
    for _, games in frame.groupby("condition_id", sort=False):  # a condition's agents are those of its first game
        first = games.iloc[0]
        engines = {engine_of(first["agent_params"]), engine_of(first["opponent_params"])} - {None}
        if engines:
            row = rows.setdefault(max(engines), [0, 0])
            row[0] += len(games)
            row[1] += 1
    if not rows:
        return ""
    names = {1: "engine 1 (each ply's move list)", 2: "engine 2 (sum trees kept move by move)"}
    return "Learned playouts: " + "; ".join(f"{names.get(e, f'engine {e}')} {rows[e][0]:,} games in "
                                             f"{rows[e][1]} cells" for e in sorted(rows)) + "."


def key_value(text: str) -> tuple[str, object]:
    """A command line's ``-p key=value``: the value parsed as JSON when it is JSON (numbers, lists, null), else a
    string.  Here, below the front ends, so that a paper module's own command line (soemers2019) parses as
    ``python -m ppalib reproduce`` does."""
    import json
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise ValueError(f"-p {text!r} must be key=value with a parameter name as key")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def resolve_settings(presets: dict, defaults: dict, preset: str, overrides: dict,
                     parameters: dict | None = None) -> dict:
    """The ``preset``'s parameters over ``defaults``, with ``overrides`` applied (``None`` values ignored).

    Raises ValueError naming an unknown preset or an unknown parameter; with the paper's declared
    ``parameters``, every override is checked by its declaration first (TypeError/ValueError naming it).
    """
    if not isinstance(preset, str) or preset not in presets:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(presets)}")
    result = {**defaults, **presets[preset]}
    unknown = set(overrides) - set(result)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(result)}")
    if parameters is not None:
        overrides = {name: parameters[name].check(name, value) if name in parameters else value
                     for name, value in overrides.items()}
    result.update({k: v for k, v in overrides.items() if v is not None})
    return result


# ---- notebooks ----------------------------------------------------------------------------------------------
def paper_module(notebook: str) -> ModuleType:
    """The paper module behind a notebook (file stem, e.g. ``01_ppa_2015``)."""
    if notebook not in NOTEBOOKS:
        raise ValueError(f"notebook {notebook!r} has no paper module; known: {', '.join(NOTEBOOKS)}")
    return importlib.import_module(f"{__name__}.{NOTEBOOKS[notebook]}")


def notebook_of(paper: ModuleType) -> str:
    return next(stem for stem, name in NOTEBOOKS.items() if paper.__name__.endswith(f".{name}"))


def plays_games(paper: ModuleType) -> bool:
    """False for a notebook that only reads other notebooks' results (the reproduction report)."""
    return getattr(paper, "PLAYS_GAMES", True)


def declared_parameters(paper: ModuleType) -> dict[str, Param]:
    """Every parameter of the paper's notebook but ``preset``: its own, then the common ones (for a notebook
    that plays no game, only those of drawing)."""
    return {**paper.PARAMETERS, **(COMMON if plays_games(paper) else REPORT_COMMON)}


def unknown_parameter_message(name: str, known: list[str], where: str) -> str:
    close = difflib.get_close_matches(name, known, 1)
    return (f"{name!r} is not a parameter of {where}" + (f" (did you mean {close[0]!r}?)" if close else "")
            + f"; known parameters: preset, {', '.join(known)}")


@dataclass(frozen=True)
class NotebookSetup:
    """What a notebook's first cell resolves: validated settings, the experiment, and where it writes."""
    settings: dict
    experiment: object  # for a notebook that plays no game: the sources it reads (``summary.Source``)
    results_dir: Path | None  # None for a notebook that plays no game
    figures_dir: Path
    committed_results: bool
    committed_figures: bool
    reads_committed: bool = False  # a grid all stored in the committed results, read there (nothing to play)

    def describe(self) -> str:
        """Where the notebook reads and writes, folders shown relative to the project root."""
        from .. import paths
        return paths.without_root(self._describe())

    def _describe(self) -> str:
        if self.results_dir is None:
            note = "" if self.committed_figures else (" (not the committed configuration: the committed figures are "
                                                      "left alone)")
            return ("reads " + "; ".join(source.describe() for source in self.experiment)
                    + f"; figures and tables in {self.figures_dir}{note}")
        note = ""
        if self.reads_committed:
            note = (" (every game of this grid is in the committed results and is read there; the committed "
                    "figures are left alone)")
        elif not self.committed_figures:
            note = (" (not the committed configuration: the committed results and figures are left alone)"
                    if not self.committed_results else
                    " (committed results; figures of another preset, style or resolution: the committed figures "
                    "are left alone)")
        return f"results in {self.results_dir}; figures and tables in {self.figures_dir}{note}"


def prepare(paper: ModuleType, preset: str = COMMITTED_PRESET, **values) -> NotebookSetup:
    """Validate a notebook's parameters (``values``: any of them; the others take their defaults), build its
    experiment and resolve where it writes; check that the results folder holds no games of another seed.

    Writes nothing.  Raises ValueError/TypeError naming the first bad parameter.
    """
    from .. import paths
    from ..experiments import check_stored_seed

    declared = declared_parameters(paper)
    unknown = [name for name in values if name not in declared]
    if unknown:
        raise ValueError(unknown_parameter_message(unknown[0], list(declared), f"notebook {notebook_of(paper)}"))
    if not isinstance(preset, str) or preset not in paper.PRESETS:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(paper.PRESETS)}")
    full = {name: param.default for name, param in declared.items()}
    full.update(values)
    if not plays_games(paper):
        return _prepare_report(paper, preset, full)
    checked = {name: COMMON[name].check(name, full[name]) for name in COMMON}
    if checked["scheduler_address"] is not None:
        from ..dask_executor import _check_address
        _check_address(checked["scheduler_address"])
        if checked["executor"] != "dask":
            raise ValueError(f"scheduler_address is given but executor={checked['executor']!r}: use "
                             f"executor='dask'")
    if checked["workers"] is not None and checked["executor"] == "serial":
        raise ValueError(f"workers={checked['workers']} is given but executor='serial' plays in this process: "
                         f"use executor='process' or 'dask', or leave workers None")
    overrides = {name: full[name] for name in paper.PARAMETERS}
    settings = paper.settings(preset, **overrides)
    committed_folder = committed_results_folder(paper, preset, settings)
    committed_results = committed_folder is not None
    committed_figures = (preset == COMMITTED_PRESET and committed_results
                         and all(checked[n] == COMMON[n].default for n in ("style", "dpi")))
    notebook = notebook_of(paper)
    # Another seed than the preset's gets its own folder: a folder keeps one seed per condition.
    own_seed = settings["seed"] != paper.settings(preset)["seed"]
    stem = f"{paper.NAME}-seed{settings['seed']}" if own_seed else paper.NAME
    results_dir = Path(checked["results_dir"]) if checked["results_dir"] else (
        paths.RESULTS / committed_folder if committed_results else paths.OUTPUT / preset / "results" / stem)
    figures_dir = Path(checked["figures_dir"]) if checked["figures_dir"] else (
        paths.FIGURES / notebook if committed_figures else paths.OUTPUT / preset / "figures" / notebook)
    for name, folder in (("results_dir", results_dir), ("figures_dir", figures_dir)):
        _check_creatable(name, folder)
    experiment = paper.make_experiment(results_dir, preset, **overrides)
    reads_committed = False
    if preset == COMMITTED_PRESET and not committed_results and not checked["results_dir"]:
        # A grid whose every game is already in the committed results (a subset of the quick grid, say) reads
        # them there instead of replaying them: nothing is written to that folder when nothing is to be played.
        in_committed = paper.make_experiment(paths.RESULTS / paper.NAME, preset, **overrides)
        if _all_stored(in_committed):
            experiment, results_dir, reads_committed = in_committed, in_committed.results_dir, True
    check_stored_seed(experiment)
    from ..experiments import Experiment
    from ..until_decided import with_ledger
    if isinstance(experiment, Experiment):
        # cells grown by games until decided keep all their games (a staged experiment such as notebook 04's reads
        # its ledger itself: ``soemers2019.frames``)
        experiment = with_ledger(experiment)
    return NotebookSetup(settings, experiment, results_dir, figures_dir,
                         committed_results and not checked["results_dir"],
                         committed_figures and not checked["figures_dir"], reads_committed)


def committed_results_folder(paper: ModuleType, preset: str, settings: dict) -> str | None:
    """The folder under ``data/results`` that holds the committed results of ``preset`` at ``settings``, or None.

    The committed preset (``COMMITTED_PRESET``) at its own parameters: ``data/results/<paper>``.  A paper may commit
    the run of another preset too (``COMMITTED_FOLDERS``, preset -> folder name: notebook 04's ``budget`` run,
    committed as it grows over several sessions): that preset at its own parameters, or with only the lists
    ``COMMITTED_SUBSETS`` narrowed to a subset of the preset's (a stage run for some strategies or variants
    first: a condition id or self-play run id names one cell whatever the grid), reads and writes that folder.
    Parameters that change no stored game (``UNTIL_DECIDED``; a paper's ``RUN_ONLY`` such as a session's CPU
    budget) are left out of the comparison."""
    ignored = set(UNTIL_DECIDED) | set(getattr(paper, "RUN_ONLY", ()))

    def kept(s):
        return {name: value for name, value in s.items() if name not in ignored}
    own = paper.settings(preset)
    if preset == COMMITTED_PRESET:
        return paper.NAME if kept(settings) == kept(own) else None
    folder = getattr(paper, "COMMITTED_FOLDERS", {}).get(preset)
    if folder is None:
        return None
    narrowed = set(getattr(paper, "COMMITTED_SUBSETS", ()))
    same = {k: v for k, v in kept(settings).items() if k not in narrowed} == \
        {k: v for k, v in kept(own).items() if k not in narrowed}
    subsets = all(set(settings[k]) <= set(own[k]) for k in narrowed)
    return folder if same and subsets else None


def stopping_rule(settings: dict):
    """The ``until_decided.StoppingRule`` of a notebook's settings, None when ``until_decided`` is "off"."""
    from ..until_decided import StoppingRule
    if settings.get("until_decided", "off") == "off":
        return None
    return StoppingRule(settings["decide_batch"], settings["decide_cap"], settings["decide_cpu_seconds"])


def run_until_decided(paper: ModuleType, setup: NotebookSetup, executor="process", *, workers=None,
                      scheduler_address=None, progress: bool = True, rule=None, max_hours_to_decide=None,
                      deadline=None):
    """Grow the paper's undecided cells (its ``decision_cells``: the cells compared with a paper value or
    reference) by games until decided, with the notebook's stopping rule (or ``rule``); returns every stored
    game of the experiment with the grown counts, marked ``until_decided`` where the cell was grown (so the
    tables judge it by its anytime-valid interval).  Only loads when the rule is "off".

    ``max_hours_to_decide``: grow only the cells that ``cheapest_to_decide`` picks from ``decision_table`` and
    their ``decision_odds`` under ``rule`` before the first game (a session's CPU spent where it decides most
    cells); a cell's verdict stays valid whichever cells are grown, since each grown cell is judged by its own
    anytime-valid interval.  ``deadline``: a
    ``time.monotonic()`` value after which no new round of games starts (``until_decided.grow``)."""
    import numpy as np
    from ..experiments import load_results
    from ..report import undecided
    from ..until_decided import mark_grown, run_until_decided as grow_cells, with_ledger
    rule = rule if rule is not None else stopping_rule(setup.settings)
    experiment = with_ledger(setup.experiment)
    if rule is None:
        return mark_grown(load_results(experiment), experiment)
    references = paper.decision_cells(setup.experiment, setup.settings).set_index("condition_id")
    cells_of = list(references.index)
    if max_hours_to_decide is not None:
        table = decision_table(paper, setup)
        chosen = set(cheapest_to_decide(table, max_hours_to_decide, decision_odds(table, rule)))
        cells_of = [cid for cid in cells_of if cid in chosen]

    def is_undecided(cells):
        joined = cells.join(references, on="condition_id")
        return np.asarray(undecided(joined), dtype=bool)

    grow_cells(setup.experiment, cells_of, is_undecided, rule, executor, workers=workers,
               budget_cells=list(references.index), deadline=deadline,
               scheduler_address=scheduler_address, progress=progress)
    experiment = with_ledger(setup.experiment)
    return mark_grown(load_results(experiment), experiment)


def _decision_games(paper: ModuleType, setup: NotebookSetup):
    """The paper's decision cells (``decision_cells``, with the ledger's grown counts), their planned games (id ->
    count) and every stored game of the experiment."""
    from ..experiments import load_results
    from ..until_decided import planned_games, with_ledger
    experiment = with_ledger(setup.experiment)
    references = paper.decision_cells(experiment, setup.settings)
    wanted = set(references["condition_id"])
    planned = {cid: n for cid, n in planned_games(experiment).items() if cid in wanted}
    return references, planned, load_results(experiment)


def decision_table(paper: ModuleType, setup: NotebookSetup, planned_only: bool = False):
    """The paper's decision cells (``decision_cells``) as stored now: wins, games, whether grown, the paper's value,
    the three-way verdict (``report.cell_verdict``; a grown cell by its anytime-valid interval), the games that
    would decide it at the observed rate, and for an undecided cell the games the rule would need
    (``games_to_decide_anytime``) and the CPU-hours they would take at the cell's seconds a game (the mean of its
    most recent games, ``until_decided.cell_counts``) (``hours_to_decide``).  ``planned_only``: as before games
    until decided (each cell's planned games only, fixed-sample verdicts).  ``attrs["growth_seconds"]``: what
    ``growth_seconds`` returns, from all the stored games whatever ``planned_only``."""
    import pandas as pd
    from ..report import cell_verdict
    from ..until_decided import cell_counts
    references, planned, frame = _decision_games(paper, setup)
    cells, spent = cell_counts(frame, planned)
    if planned_only:
        frame = frame[frame["game_index"] < frame["condition_id"].map(planned).fillna(0)]
        cells, _ = cell_counts(frame, planned)
    cells = cells.merge(references, on="condition_id")
    verdicts = [cell_verdict(r.wins, r.games, r.paper_percent, None if r.paper_games != r.paper_games else
                             int(r.paper_games), anytime=bool(r.grown)) if r.games else None
                for r in cells.itertuples()]
    cells["verdict"] = [v.verdict if v else "no data" for v in verdicts]
    cells["games_to_decide"] = pd.array([v.games_to_decide if v else None for v in verdicts], dtype="Int64")
    # what the rule would need: a grown cell is judged by the wider anytime-valid interval
    cells["games_to_decide_anytime"] = pd.array(
        [cell_verdict(r.wins, r.games, r.paper_percent, None if r.paper_games != r.paper_games else
                      int(r.paper_games), anytime=True).games_to_decide if v and v.verdict == "undecided" else None
         for r, v in zip(cells.itertuples(), verdicts)], dtype="Int64")
    cells["hours_to_decide"] = ((cells["games_to_decide_anytime"].astype("Float64") - cells["games"])
                                * cells["seconds_per_game"] / 3600)
    cells.attrs["growth_seconds"] = spent
    return cells


def growth_seconds(paper: ModuleType, setup: NotebookSetup) -> float:
    """The CPU seconds (the games' own timings) of every game the paper's decision cells hold beyond their planned
    ones: what a growth's ``--cpu-seconds`` budget counts as already spent."""
    from ..until_decided import cell_counts
    _, planned, frame = _decision_games(paper, setup)
    return cell_counts(frame, planned)[1]


def check_max_hours_to_decide(max_hours) -> float:
    """``max_hours`` if it is a finite number of CPU-hours > 0; else a ValueError naming ``max_hours_to_decide``."""
    import math
    if isinstance(max_hours, bool) or not isinstance(max_hours, (int, float)) or not 0 < max_hours < math.inf:
        raise ValueError(f"max_hours_to_decide={max_hours!r} must be a finite number of CPU-hours > 0")
    return float(max_hours)


#: Simulated growths per cell in ``decision_odds``: the chance's standard error is at most 2.5 points.
DECISION_SIMULATIONS = 400


def decision_odds(table, rule, simulations: int = DECISION_SIMULATIONS, seed: int = 0):
    """For each undecided cell of ``decision_table``: its chance of being decided before ``rule``'s cap, and the
    games and CPU-hours its growth would add, simulated.

    ``hours_to_decide`` prices a cell at its observed rate, as if that rate were its true one; a cell whose rate
    sits near a verdict's edge then looks cheap and may never decide (Table 1's cell 44f459bf, 2026-12-06: 1,759
    games predicted at 200, still undecided at its cap of 1,800).  Here the true rate is drawn ``simulations``
    times from the cell's posterior (Jeffreys' beta, draws as half wins), and each draw plays the growth of
    ``until_decided``: ``rule.batch`` games a round up to ``rule.cap``, judged after each round by the anytime-valid
    verdict (``report.cell_verdicts``, ``anytime=True``) against the paper's value as stored (a counted paper value
    keeps its count).  Games are simulated as wins and losses.  Returns, per undecided cell: ``chance_decided`` (the
    share of simulated growths decided by the cap), ``expected_games_added``, ``expected_hours`` (those games at
    the cell's seconds a game) and ``hours_per_decision`` (expected hours over the chance; infinite when no
    simulated growth decides).  Deterministic: each cell's draws are seeded by ``seed`` and its condition id."""
    import zlib

    import numpy as np
    import pandas as pd
    from ..report import cell_verdicts
    rows = []
    for cell in table[table["verdict"] == "undecided"].itertuples():
        rng = np.random.default_rng([seed, zlib.crc32(str(cell.condition_id).encode())])
        games = int(cell.games)
        rate = rng.beta(cell.wins + 0.5, games - cell.wins + 0.5, simulations)
        wins = np.full(simulations, float(cell.wins))
        added = np.zeros(simulations)
        open_ = np.ones(simulations, dtype=bool)
        n = games
        while n < rule.cap and open_.any():
            step = min(rule.batch, rule.cap - n)
            growing = np.flatnonzero(open_)
            wins[growing] += rng.binomial(step, rate[growing])
            added[growing] += step
            n += step
            verdicts = cell_verdicts(wins[growing], n, cell.paper_percent, cell.paper_games, anytime=True)
            open_[growing[verdicts != "undecided"]] = False
        chance = float((~open_).mean())  # a cell already at its cap grows no round: every growth stays open
        hours = float(added.mean()) * float(cell.seconds_per_game) / 3600
        rows.append((cell.condition_id, chance, float(added.mean()), hours,
                     hours / chance if chance > 0 else float("inf")))
    return pd.DataFrame(rows, columns=["condition_id", "chance_decided", "expected_games_added", "expected_hours",
                                       "hours_per_decision"])


def cheapest_to_decide(table, max_hours: float, odds=None) -> list[str]:
    """The condition ids of ``decision_table``'s undecided cells whose ``hours_to_decide`` is at most
    ``max_hours`` (a positive number of CPU-hours), cheapest first; a cell no count below a million would decide
    is never picked.  With ``odds`` (``decision_odds``), by its ``hours_per_decision`` instead: the expected
    CPU-hours of a cell's growth over its chance of being decided by the cap."""
    check_max_hours_to_decide(max_hours)
    if odds is not None:
        undecided_ids = set(table.loc[table["verdict"] == "undecided", "condition_id"])
        picked = odds[odds["condition_id"].isin(undecided_ids) & (odds["hours_per_decision"] <= max_hours)]
        return picked.sort_values(["hours_per_decision", "condition_id"], kind="stable")["condition_id"].tolist()
    hours = table["hours_to_decide"]
    picked = table[(table["verdict"] == "undecided") & hours.notna()]
    picked = picked[picked["hours_to_decide"].astype(float) <= max_hours]
    return picked.sort_values(["hours_to_decide", "condition_id"], kind="stable")["condition_id"].tolist()


def _prepare_report(paper: ModuleType, preset: str, full: dict) -> NotebookSetup:
    """``prepare`` for a notebook that plays no game: its sources, and where it draws (the committed figures only at
    the committed configuration with the default style and resolution)."""
    from .. import paths
    checked = {name: param.check(name, full[name]) for name, param in REPORT_COMMON.items()}
    overrides = {name: full[name] for name in paper.PARAMETERS}
    settings = paper.settings(preset, **overrides)
    committed = (preset == COMMITTED_PRESET and settings == paper.settings(COMMITTED_PRESET)
                 and all(checked[n] == COMMON[n].default for n in ("style", "dpi")))
    notebook = notebook_of(paper)
    figures_dir = Path(checked["figures_dir"]) if checked["figures_dir"] else (
        paths.FIGURES / notebook if committed else paths.OUTPUT / preset / "figures" / notebook)
    _check_creatable("figures_dir", figures_dir)
    sources = paper.sources(preset, **overrides)
    return NotebookSetup(settings, sources, None, figures_dir, False, committed and not checked["figures_dir"])


def _check_creatable(name: str, folder: Path) -> None:
    """Refuse a folder that cannot be created or written (checked without creating anything)."""
    existing = Path(folder).absolute()
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{name}={str(folder)!r} cannot be created: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{name}={str(folder)!r} is not writable: no write permission on {existing}")


def _all_stored(experiment) -> bool:
    """Whether every planned game of ``experiment`` is stored, with its seed, in its results folder."""
    if not experiment.results_dir.is_dir():
        return False
    frame = experiment.store.load()
    stored = set(zip(frame["condition_id"], frame["game_index"].astype(int), frame["seed"].astype(int)))
    return all((c.id, i, experiment.seed) in stored for c, i in experiment.planned())


def notebook_setup(paper: ModuleType, namespace: dict) -> NotebookSetup:
    """The first code cell of a notebook: ``prepare`` with every declared parameter read from ``namespace``
    (the notebook's globals after its parameters cell), then check that both output folders are writable.
    Tables show their text in full (pandas' ``display.max_colwidth``): a claim, its test and its games cut at 50
    characters cannot be read."""
    import pandas as pd
    from ..store import check_writable
    missing = [name for name in ["preset", *declared_parameters(paper)] if name not in namespace]
    if missing:
        raise RuntimeError(f"the notebook's parameters cell lacks {missing}: it must set every declared parameter")
    setup = prepare(paper, namespace["preset"], **{name: namespace[name] for name in declared_parameters(paper)})
    if setup.results_dir is not None:
        check_writable(setup.results_dir, "results_dir")
    check_writable(setup.figures_dir, "figures_dir")
    pd.set_option("display.max_colwidth", None)
    return setup
