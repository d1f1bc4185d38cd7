"""``python -m ppalib bench --presets``: what each notebook's presets cost, predicted from measured per-game costs.

How a preset's cost is predicted (``METHOD``, printed under the table; ``--detail`` lists every cell and its source):

* The games a preset plans are those of its experiment (``paper.make_experiment(..., preset).planned()``),
  counted per condition, and those of its engine check where it has one (``paper.engine_check_experiment``:
  notebooks 02 and 05, a stage of its own).
* **stored**: a condition with stored games (in any store under ``data/results``: a condition id names the same
  games whichever notebook plays them) costs the mean ``seconds`` of its stored games, the wall time of each game
  in its worker as the code version that played it measured it.  A game over ``CLIP_FACTOR`` times its
  condition's median and over ``CLIP_SECONDS`` counts at the median: the first game a worker plays loads or
  compiles the kernels, a cost of the run (seconds), not of every game.
* **sibling**: a condition without stored games costs the mean per-game cost of the stored conditions of the same
  shape (game, size, options, both agents' kinds and switches: every parameter that is not a number) at the same
  budgets, i.e. the same cell with other values of alpha, k or c.
* **scaled**: else the stored conditions of that shape at the nearest other budgets, times a ratio measured now
  (once per shape and budgets): the time of the stored condition's agents' searches of the game's start position
  at the planned budgets over that at their own (median of ``SCALE_REPEATS`` after a warm-up).  This takes the cost of a move to grow like the first move's;
  the game length at the new budget is assumed unchanged.
* **engine**: a condition whose learned-playout agents play ``playout_engine`` 2 (``ppalib.kernels.incremental``),
  of which no game is stored, costs its counterpart at engine 1 (the engine of every stored game; costed as above)
  times a ratio measured now: both agents' searches of the start position at engine 2 over the same at engine 1,
  once per shape and budgets.
* Notebook 04 (Soemers et al. 2019) trains before it evaluates, and its evaluation conditions exist only once its
  policies are learned.  Its ``paper`` preset (every stage at Ludii's per-variant budgets, the final comparison
  included) is **extrapolated** from the budget run's stored games at those budgets, a cell per stage
  (``soemers2019.paper_cost_extrapolation``, the estimate the notebook shows).  Its ``quick`` preset is
  predicted per (variant, strategy, stage) from the committed quick run: self-play
  games from their own timings (``selfplay/*.json``), evaluation games from the store, scaled to the preset's
  budget by UCT's search ratio (as above), with the preset's numbers of runs, games and checkpoints.  A self-play
  game's cost is taken as in the quick run, although with more games the feature sets grow larger (an
  underestimate).  The slowdown measurement costs its nominal thinking time.
* **Left**: the CPU-hours of the games a preset plans that no store holds yet (a condition's stored games count up
  to its planned number; notebook 04's quick preset is the committed run).
* Wall hours on n cores: per stage, max(CPU time / n, the stage's longest indivisible job: one game, or one
  self-play run whose games are sequential), summed over the stages, which run one after the other.

The stored timings were taken on a shared machine: read the table as the cost on that machine, to within its load.
"""
from __future__ import annotations

import collections
import dataclasses
import json
import math
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

#: A game over this many times its condition's median and over CLIP_SECONDS counts at the median.
CLIP_FACTOR = 10.0
CLIP_SECONDS = 1.0
SCALE_REPEATS = 3
PRESETS = ("quick", "paper")
SOURCES = ("stored", "sibling", "scaled", "engine", "nominal", "extrapolated")
METHOD = __doc__[__doc__.index("* The games"):__doc__.index("The stored timings")].strip()


@dataclass(frozen=True)
class Cell:
    """One group of planned games and its predicted cost."""
    notebook: str
    preset: str
    stage: str
    label: str
    games: int
    seconds_per_game: float
    longest_job: float  # seconds of the longest indivisible job of the cell (a game, a self-play run)
    source: str  # one of SOURCES
    basis: str  # what the cost rests on, in words
    stored_games: int = 0  # of ``games``, those already stored (a rerun of the preset plays the others)

    @property
    def seconds(self) -> float:
        return self.games * self.seconds_per_game

    @property
    def seconds_left(self) -> float:
        """CPU seconds of the games not stored yet."""
        return (self.games - self.stored_games) * self.seconds_per_game


def clipped_costs(seconds) -> tuple[float, float]:
    """(mean, max) of a condition's game times, a game over CLIP_FACTOR x the median and over CLIP_SECONDS counted
    at the median."""
    values = np.asarray(seconds, dtype=np.float64)
    median = float(np.median(values))
    clipped = np.where((values > CLIP_FACTOR * median) & (values > CLIP_SECONDS), median, values)
    return float(clipped.mean()), float(clipped.max())


def _jsonable(params: dict) -> dict:
    return json.loads(json.dumps(params, sort_keys=True))


def shape_of(game: str, size: int, options: dict, agent: dict, opponent: dict) -> tuple:
    """What two conditions must share to be siblings: game, size, options, and each agent's parameters that are
    not numbers (kind, switches, policy), budgets left out."""
    def switches(params):
        return tuple(sorted((k, v) for k, v in _jsonable(params).items()
                            if k != "playouts" and (isinstance(v, bool) or not isinstance(v, (int, float)))))
    return game, int(size), json.dumps(_jsonable(options), sort_keys=True), switches(agent), switches(opponent)


def load_timings(results_root) -> pd.DataFrame:
    """One row per stored condition (every store under ``results_root``): games, per-game cost, longest game,
    shape and budgets."""
    from .store import ResultsStore
    frames = [ResultsStore(folder).load() for folder in sorted(Path(results_root).iterdir())
              if folder.is_dir() and any(folder.glob("part-*.parquet"))]
    columns = ["condition_id", "games", "seconds_per_game", "longest", "shape", "agent_playouts",
               "opponent_playouts", "agent_params", "opponent_params", "game", "size", "game_options"]
    if not frames:
        return pd.DataFrame(columns=columns)
    games = pd.concat(frames, ignore_index=True).drop_duplicates(["condition_id", "game_index"])
    rows = []
    for condition_id, group in games.groupby("condition_id", sort=True):
        first = group.iloc[0]
        agent, opponent = json.loads(first["agent_params"]), json.loads(first["opponent_params"])
        mean, longest = clipped_costs(group["seconds"])
        rows.append((condition_id, len(group), mean, longest,
                     shape_of(first["game"], first["size"], json.loads(first["game_options"]), agent, opponent),
                     agent["playouts"], opponent["playouts"], first["agent_params"], first["opponent_params"],
                     first["game"], int(first["size"]), first["game_options"]))
    return pd.DataFrame(rows, columns=columns).set_index("condition_id", drop=False)


# ---- measured budget ratios --------------------------------------------------------------------------------------
def _search_seconds(game, agent, repeats: int) -> float:
    from ._rng import make_rng
    from .agents import search
    root = game.initial_state()
    rng = make_rng(0)
    search(game, root, agent, rng)  # warm-up: compilation, caches
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        search(game, root, agent, rng)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


class BudgetScaler:
    """The measured ratio of a condition's cost at other budgets to its cost at its own: the time of both agents'
    searches of the start position at the other budgets over that at their own (median of ``repeats`` each),
    remembered per agents and budgets."""

    def __init__(self, repeats: int = SCALE_REPEATS):
        self.repeats = repeats
        self._seconds: dict = {}
        self._engine: dict = {}

    def _seconds_of(self, game, agent) -> float:
        key = (game.name, game.size, tuple(game.options), json.dumps(agent.as_dict(), sort_keys=True))
        if key not in self._seconds:
            self._seconds[key] = _search_seconds(game, agent, self.repeats)
        return self._seconds[key]

    def __call__(self, condition, agent_playouts: int, opponent_playouts: int) -> float:
        from .games import make_game
        game = make_game(condition.game, condition.size, **dict(condition.game_options))
        own = self._seconds_of(game, condition.agent) + self._seconds_of(game, condition.opponent)
        other = (self._seconds_of(game, dataclasses.replace(condition.agent, playouts=agent_playouts))
                 + self._seconds_of(game, dataclasses.replace(condition.opponent, playouts=opponent_playouts)))
        return other / own

    def engine_ratio(self, condition) -> float:
        """Both agents' searches of the start position as ``condition`` plays them over the same with every
        learned-playout agent at ``playout_engine`` 1 (``at_engine_one``): measured once per shape and budgets
        (``shape_of``), on the first condition of that shape asked for (its alpha or k)."""
        from .experiments import at_engine_one
        from .games import make_game
        key = (_condition_shape(condition), condition.agent.playouts, condition.opponent.playouts)
        if key not in self._engine:
            game = make_game(condition.game, condition.size, **dict(condition.game_options))
            lists = at_engine_one(condition)
            self._engine[key] = ((self._seconds_of(game, condition.agent) + self._seconds_of(game, condition.opponent))
                                 / (self._seconds_of(game, lists.agent) + self._seconds_of(game, lists.opponent)))
        return self._engine[key]


# ---- notebooks that play a grid of conditions --------------------------------------------------------------------
def _condition_shape(condition) -> tuple:
    return shape_of(condition.game, condition.size, dict(condition.game_options), condition.agent.as_dict(),
                    condition.opponent.as_dict())


def condition_cost(condition, timings: pd.DataFrame, scale: Callable) -> tuple[float, float, str, str]:
    """(seconds a game, longest game, source, basis) of ``condition`` from the stored ``timings``; ``scale(stored
    condition, agent playouts, opponent playouts)``: the measured cost ratio of a stored condition at other budgets
    (``BudgetScaler``)."""
    from .experiments import at_engine_one, stored_condition
    if condition.id in timings.index:
        row = timings.loc[condition.id]
        return row["seconds_per_game"], row["longest"], "stored", f"{row['games']} stored games"
    lists = at_engine_one(condition)
    if lists != condition:
        # playout engine 2, of which nothing is stored: its engine-1 counterpart's cost times the measured ratio
        per_game, longest, _, basis = condition_cost(lists, timings, scale)
        ratio = float(scale.engine_ratio(condition))
        return (per_game * ratio, longest * ratio, "engine",
                f"{basis}, at playout engine 1 x {ratio:.2f} (measured search ratio, engine 2 / engine 1)")
    shape = _condition_shape(condition)  # once, not once per stored condition
    same_shape = timings[timings["shape"].map(lambda s: s == shape)]
    budgets = (condition.agent.playouts, condition.opponent.playouts)
    same_budget = same_shape[(same_shape["agent_playouts"] == budgets[0])
                             & (same_shape["opponent_playouts"] == budgets[1])]
    if len(same_budget):
        return (float(same_budget["seconds_per_game"].mean()), float(same_budget["longest"].max()), "sibling",
                f"mean of {len(same_budget)} stored conditions of the same shape and budgets")
    if not len(same_shape):
        raise ValueError(f"no stored games of the shape of {condition.agent.label} vs {condition.opponent.label} "
                         f"at {condition.game} {condition.size}: nothing to predict its cost from")
    distance = (np.log(same_shape["agent_playouts"] / budgets[0]).abs()
                + np.log(same_shape["opponent_playouts"] / budgets[1]).abs())
    nearest = same_shape[distance == distance.min()]
    old = (int(nearest["agent_playouts"].iloc[0]), int(nearest["opponent_playouts"].iloc[0]))
    # one measurement per stored shape and budgets (not per planned cell): the first such stored condition's agents
    ratio = float(scale(stored_condition(nearest.iloc[0]), *budgets))
    return (float(nearest["seconds_per_game"].mean()) * ratio, float(nearest["longest"].max()) * ratio, "scaled",
            f"{len(nearest)} stored conditions of the same shape at {old[0]}/{old[1]} playouts x {ratio:.2f} "
            f"(measured search ratio)")


def predict_grid(notebook: str, preset: str, timings: pd.DataFrame, scale: Callable) -> list[Cell]:
    """The cells of a notebook whose experiment is a grid of conditions (01, 02, 03, 05)."""
    from .papers import paper_module
    paper = paper_module(notebook)
    with tempfile.TemporaryDirectory() as folder:  # nothing is written there: the plan only
        experiment = paper.make_experiment(Path(folder) / "plan", preset)
        # a paper whose preset also checks its playout engines (notebooks 02, 05) plays that check after the grid
        check = (paper.engine_check_experiment(Path(folder) / "plan", paper.settings(preset))
                 if hasattr(paper, "engine_check_experiment") else None)
    cells = []
    for stage, planned in (("games", experiment), ("engine check", check)):
        if planned is None:
            continue
        counts = collections.Counter(condition.id for condition, _ in planned.planned())
        for condition in planned.conditions:
            per_game, longest, source, basis = condition_cost(condition, timings, scale)
            label = f"{condition.agent.label} vs {condition.opponent.label} at {condition.game} {condition.size}"
            stored = int(timings.loc[condition.id, "games"]) if condition.id in timings.index else 0
            cells.append(Cell(notebook, preset, stage, label, counts[condition.id], per_game, longest, source,
                              basis, min(stored, counts[condition.id])))
    return cells


# ---- notebook 04: training, then evaluation -----------------------------------------------------------------------
def _selfplay_costs(folder: Path) -> dict:
    """(game, size, strategy, grow) -> (playouts, per-game seconds, games) of the stored self-play runs."""
    found = collections.defaultdict(list)
    playouts = {}
    for path in sorted((folder / "selfplay").glob("*.json")):
        record = json.loads(path.read_text())
        config = record["config"]
        key = (config["game"], int(config["size"]), config["strategy"], bool(config["grow"]))
        found[key] += [game["seconds"] for game in record["games"]]
        playouts[key] = int(config["playouts"])
    return {key: (playouts[key], *clipped_costs(seconds), len(seconds)) for key, seconds in found.items()}


def predict_feature_biasing_paper(budget_run: dict | None = None) -> list[Cell]:
    """Notebook 04's ``paper`` preset, a cell per stage, as ``soemers2019.paper_cost_extrapolation`` extrapolates it
    from the budget run's stored games (its per-game costs at the Ludii budgets the paper preset plays; the committed
    quick run's where the budget run has none yet): the one estimate notebook 04 shows and this table uses."""
    from .papers import soemers2019 as paper
    run = paper.budget_run() if budget_run is None else budget_run
    table = run["paper_cost"]
    if not len(table):
        raise ValueError("no stored self-play game to extrapolate notebook 04's paper preset from")
    cells = []
    for row in table.attrs["stage_seconds"].itertuples():
        games = max(int(row.games), 1)  # the slowdown measures: one job, no game
        cells.append(Cell(FEATURE_NOTEBOOK, "paper", row.stage, row.stage, games, row.cpu_seconds / games,
                          row.longest_seconds, "extrapolated",
                          f"soemers2019.paper_cost_extrapolation: {run['cost_method']}"))
    return cells


def predict_feature_biasing(preset: str, committed: Path, timings: pd.DataFrame,
                            uct_scale: Callable) -> list[Cell]:
    """Notebook 04's cells (module docstring): per (variant, strategy, stage), from the committed quick run.
    ``uct_scale(game, size, old_playouts, new_playouts)``: the measured ratio of UCT's searches."""
    from .papers import soemers2019 as paper
    notebook = "04_feature_biasing_2019"
    s = paper.settings(preset)
    stored = paper.FeatureBiasing(committed, paper.settings("quick"))
    selfplay = _selfplay_costs(committed)
    cells = []

    def add(stage, label, games, per_game, longest, playouts_from, game, size, basis, job_games=1):
        ratio = 1.0 if playouts_from == s["playouts"] else float(uct_scale(game, size, playouts_from,
                                                                        s["playouts"]))
        source = "stored" if ratio == 1.0 else "scaled"
        if ratio != 1.0:
            basis += f" x {ratio:.2f} (UCT's measured search ratio, {playouts_from} -> {s['playouts']} playouts)"
        # the quick preset is the committed run: every one of its games is stored
        cells.append(Cell(notebook, preset, stage, label, games, per_game * ratio,
                          (per_game * job_games if job_games > 1 else longest) * ratio, source, basis,
                          games if preset == "quick" else 0))

    for variant in s["variants"]:
        game, size = paper.VARIANTS[variant]
        for strategy in s["strategies"]:
            for stage, grow, runs_games in (("self-play, growing sets", True, s["self_play_games"]),
                                            ("self-play, pruned sets", False, s["pruned_games"])):
                if not runs_games:
                    continue
                key = (game, size, strategy, grow)
                if key not in selfplay:
                    raise ValueError(f"no stored self-play games of {variant} with {strategy} (grow={grow})")
                playouts, per_game, _, count = selfplay[key]
                add(stage, f"{variant}, {strategy}", runs_games, per_game, 0.0, playouts, game, size,
                    f"{count} stored self-play games", job_games=runs_games)
    labelled = stored.labelled_conditions()
    evaluation = collections.defaultdict(list)  # (variant, strategy, stage) -> stored condition ids
    for labels, condition in labelled:
        evaluation[labels["variant"], labels["strategy"], labels["stage"]].append(condition.id)
    quick = paper.settings("quick")

    def add_evaluation(stage_name, variant, strategy, stage, cells_planned, games_per_cell, fallback=None):
        """``fallback``: (stage, factor) whose stored games, times factor, stand in when ``stage`` has none."""
        ids = [i for i in evaluation.get((variant, strategy, stage), []) if i in timings.index]
        factor, note = 1.0, ""
        if not ids and fallback is not None:
            ids = [i for i in evaluation.get((variant, strategy, fallback[0]), []) if i in timings.index]
            factor, note = fallback[1], f" ({fallback[0]} games x {fallback[1]:g}: none of {stage} stored)"
        if not cells_planned or not games_per_cell:
            return
        if not ids:
            raise ValueError(f"no stored evaluation games of {variant}, {strategy}, {stage}")
        rows = timings.loc[ids]
        game, size = paper.VARIANTS[variant]
        add(stage_name, f"{variant}, {strategy}, {stage}", cells_planned * games_per_cell,
            factor * float(rows["seconds_per_game"].mean()), factor * float(rows["longest"].max()), quick["playouts"],
            game, size, f"{int(rows['games'].sum())} stored games of {len(ids)} conditions{note}")

    for variant in s["variants"]:
        for strategy in s["strategies"]:
            add_evaluation("evaluation", variant, strategy, "grown", len(s["checkpoints"]), s["games_per_cell"])
            if variant in s["greedy_variants"]:
                # the quick run played the greedy agent at Breakthrough and Teeko only; elsewhere a greedy game is
                # costed as half a grown-set evaluation game (one of the two players searches)
                add_evaluation("evaluation", variant, strategy, "greedy", len(s["checkpoints"]), s["games_per_cell"],
                               fallback=("grown", 0.5))
            if s["pruned_games"] or s["pruned_checkpoints"]:
                add_evaluation("evaluation", variant, strategy, "pruned", len(s["pruned_checkpoints"]),
                               s["games_per_cell"])
        if "correlation_based" in s["strategies"]:
            add_evaluation("evaluation at equal time", variant, "correlation_based", "equal_time_grown", 1,
                           s["equal_time_games"])
    if "Yavalath" in s["variants"]:
        add_evaluation("evaluation", "Yavalath", "handmade", "handmade", 1, s["handmade_games"])
        add_evaluation("evaluation at equal time", "Yavalath", "handmade", "equal_time_handmade", 1,
                       s["equal_time_games"])
    # The slowdowns: per measured policy, UCT and the biased agent think two moves each, repeats times.
    policies = (len(s["variants"]) * (1 + bool(s["pruned_games"])) if "correlation_based" in s["strategies"] else 0)
    policies += "Yavalath" in s["variants"] and bool(s["handmade_games"])
    seconds = 2 * 2 * s["slowdown_repeats"] * s["slowdown_seconds"]
    if policies:
        # one process measures them one after the other: the stage is one job
        cells.append(Cell(notebook, preset, "slowdowns", "slowdown measurements", policies, seconds,
                          policies * seconds, "nominal",
                          f"{policies} policies x 2 agents x 2 moves x {s['slowdown_repeats']} repeats x "
                          f"{s['slowdown_seconds']:g} s", policies if preset == "quick" else 0))
    return cells


def uct_search_scale(scaler: BudgetScaler) -> Callable:
    """UCT's search ratio between two budgets at a game (notebook 04's scale), through ``scaler``'s cache."""
    from .experiments import Condition
    from .papers import soemers2019 as paper

    def scale(game, size, old, new):
        uct = paper.uct_opponent(old)
        return scaler(Condition(game, size, uct, uct, (("ply_cap", paper.MOVE_CAP),)), new, new)
    return scale


# ---- the table ---------------------------------------------------------------------------------------------------
GRID_NOTEBOOKS = ("01_ppa_2015", "02_ppaf_2016", "03_adaptive_rave_2013", "05_future_work")
FEATURE_NOTEBOOK = "04_feature_biasing_2019"
NOTEBOOK_ORDER = ("01_ppa_2015", "02_ppaf_2016", "03_adaptive_rave_2013", FEATURE_NOTEBOOK, "05_future_work")


def predict(notebooks=NOTEBOOK_ORDER, presets=PRESETS, results_root=None, scaler: BudgetScaler | None = None,
            progress: bool = False) -> list[Cell]:
    """Every cell of each notebook and preset (``results_root``: default ``data/results``)."""
    from . import paths
    unknown = [n for n in notebooks if n not in NOTEBOOK_ORDER]
    if unknown:
        raise ValueError(f"notebook {unknown[0]!r} plays no games or is unknown; known: {', '.join(NOTEBOOK_ORDER)}")
    root = Path(paths.RESULTS if results_root is None else results_root)
    timings = load_timings(root)
    scaler = BudgetScaler() if scaler is None else scaler
    cells = []
    from tqdm.auto import tqdm
    for notebook in tqdm(list(notebooks), desc="presets", unit="notebook", disable=not progress):
        for preset in presets:
            if notebook == FEATURE_NOTEBOOK and preset == "paper":
                cells += predict_feature_biasing_paper()
            elif notebook == FEATURE_NOTEBOOK:
                cells += predict_feature_biasing(preset, root / "soemers2019", timings, uct_search_scale(scaler))
            else:
                cells += predict_grid(notebook, preset, timings, scaler)
    return cells


def wall_seconds(cells: list[Cell], cores: int) -> float:
    """Per stage max(CPU seconds / cores, longest job), summed over the stages."""
    total = 0.0
    for stage in dict.fromkeys(c.stage for c in cells):
        of_stage = [c for c in cells if c.stage == stage]
        total += max(sum(c.seconds for c in of_stage) / cores, max(c.longest_job for c in of_stage))
    return total


def preset_table(cells: list[Cell], cores=(2, 16)) -> pd.DataFrame:
    """One row per (notebook, preset): games, CPU-hours on one core (all of them, and those of the games not stored
    yet), wall hours on each of ``cores``, and the share of the CPU time resting on each condition's own stored
    games."""
    rows = []
    for (notebook, preset), group in pd.Series(cells).groupby(
            [[c.notebook for c in cells], [c.preset for c in cells]], sort=False):
        group = list(group)
        cpu = sum(c.seconds for c in group)
        row = {"notebook": notebook, "preset": preset, "games": sum(c.games for c in group if c.stage != "slowdowns"),
               "cpu_hours": cpu / 3600, "cpu_hours_left": sum(c.seconds_left for c in group) / 3600}
        for n in cores:
            row[f"wall_hours_{n}_cores"] = wall_seconds(group, n) / 3600
        row["stored_share"] = sum(c.seconds for c in group if c.source == "stored") / cpu if cpu else 1.0
        rows.append(row)
    return pd.DataFrame(rows)


def detail_table(cells: list[Cell]) -> pd.DataFrame:
    """One row per cell: its fields and its CPU-hours."""
    return pd.DataFrame([{**dataclasses.asdict(c), "cpu_hours": c.seconds / 3600} for c in cells])


def render(table: pd.DataFrame, markdown: bool = False) -> str:
    """The table as text (or a markdown table, as kept in the README)."""
    shown = table.assign(stored_share=[f"{100 * x:.0f}%" for x in table["stored_share"]])
    for column in [c for c in shown.columns if "hours" in c]:
        shown[column] = [f"{x:,.2f}" if x < 10 else f"{x:,.0f}" for x in shown[column]]
    shown["games"] = [f"{x:,}" for x in shown["games"]]
    shown.columns = ["notebook", "preset", "games", "CPU-hours (1 core)", "CPU-hours left (games not stored)"] + [
        f"wall hours ({c.split('_')[2]} cores)" for c in shown.columns if c.startswith("wall_")] + [
        "from the cells' own stored games"]
    if markdown:
        head = "| " + " | ".join(shown.columns) + " |"
        rule = "|" + "|".join("---" if i < 2 else "---:" for i in range(len(shown.columns))) + "|"
        body = ["| " + " | ".join(str(v) for v in row) + " |" for row in shown.itertuples(index=False)]
        return "\n".join([head, rule, *body])
    return shown.to_string(index=False)


def run_presets(notebooks=NOTEBOOK_ORDER, as_json: bool = False, markdown: bool = False, detail: bool = False,
                stream=None, progress: bool = True) -> pd.DataFrame:
    """``bench --presets``: predict, print the table (and the method; with ``detail``, every cell)."""
    import sys
    stream = sys.stdout if stream is None else stream
    cells = predict(notebooks, progress=progress)
    table = preset_table(cells)
    if as_json:
        for row in table.to_dict("records"):
            print(json.dumps(row), file=stream)
        return table
    print(render(table, markdown), file=stream)
    if detail:
        with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_colwidth", 120):
            print(detail_table(cells).drop(columns=["longest_job"]).to_string(index=False), file=stream)
    print("\nMethod:\n" + METHOD.replace("``", "").replace("**", ""), file=stream)
    sources = collections.Counter(c.source for c in cells)
    print("Cells by source: " + ", ".join(f"{k} {sources[k]}" for k in SOURCES if sources[k]), file=stream)
    return table


__all__ = ["Cell", "BudgetScaler", "load_timings", "clipped_costs", "shape_of", "condition_cost", "predict_grid",
           "predict_feature_biasing", "predict", "preset_table", "wall_seconds", "render", "run_presets", "METHOD"]
