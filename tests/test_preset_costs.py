"""``bench --presets``: the prediction of a preset's cost from stored per-game timings, on tiny synthetic stores
(no game is played, no search is timed: the budget ratio is given)."""
import dataclasses
import json
import math
import tempfile
from pathlib import Path

import pandas as pd
import pytest

from ppalib.agents import make_agent
from ppalib.experiments import Condition, _agent_columns
from ppalib.papers import ppa2015
from ppalib.preset_costs import (Cell, clipped_costs, condition_cost, load_timings, predict_grid, preset_table,
                                 render, wall_seconds)
from ppalib.store import ResultsStore


def _records(condition, seconds):
    """Stored games of ``condition``, one per entry of ``seconds`` (their times)."""
    return [{"experiment": "t", "condition_id": condition.id, "game_index": i, "game": condition.game,
             "size": condition.size, **_agent_columns("agent", condition.agent),
             **_agent_columns("opponent", condition.opponent), "agent_player": i % 2, "winner": 0,
             "agent_result": 1.0, "plies": 10, "seed": 0, "seconds": float(s), "code_version": "t",
             "finished_at": "2026-01-01T00:00:00+00:00",
             "game_options": json.dumps(dict(condition.game_options), sort_keys=True),
             "agent_params": json.dumps(condition.agent.as_dict(), sort_keys=True),
             "opponent_params": json.dumps(condition.opponent.as_dict(), sort_keys=True), "moves": "",
             "iterations": "", "move_seconds": ""} for i, s in enumerate(seconds)]


def _no_scale(*args):
    raise AssertionError("no budget ratio should be needed here")


def _smoke_conditions():
    with tempfile.TemporaryDirectory() as folder:
        return ppa2015.make_experiment(Path(folder) / "plan", "smoke").conditions


def test_a_compile_outlier_counts_at_the_median_and_a_long_short_game_does_not():
    assert clipped_costs([1.0, 1.0, 1.0, 1.0, 30.0]) == (1.0, 1.0)
    mean, longest = clipped_costs([0.01, 0.01, 0.01, 0.5])  # 50x the median but under a second: a real game
    assert longest == 0.5 and mean == pytest.approx(0.1325)


def test_a_fully_stored_preset_costs_its_games_times_their_mean_times(tmp_path):
    conditions = _smoke_conditions()
    store = ResultsStore(tmp_path / "ppa2015")
    expected = 0.0
    for i, condition in enumerate(conditions):
        seconds = [0.1 * (i + 1), 0.3 * (i + 1)]  # two stored games; the smoke preset plans 4
        store.append(_records(condition, seconds))
        expected += 4 * 0.2 * (i + 1)
    cells = predict_grid("01_ppa_2015", "smoke", load_timings(tmp_path), _no_scale)
    assert {c.source for c in cells} == {"stored"}
    assert sum(c.games for c in cells) == 4 * len(conditions)
    assert sum(c.seconds for c in cells) == pytest.approx(expected)
    table = preset_table(cells)
    assert table["cpu_hours"].iloc[0] == pytest.approx(expected / 3600)
    longest = 0.3 * len(conditions)
    assert table["wall_hours_2_cores"].iloc[0] == pytest.approx(max(expected / 2, longest) / 3600)
    assert table["stored_share"].iloc[0] == 1.0
    assert table["cpu_hours_left"].iloc[0] == pytest.approx(expected / 2 / 3600)  # 2 of 4 games stored a cell
    assert "01_ppa_2015" in render(table, markdown=True).splitlines()[2]


class _EngineRatio:
    """A scaler whose engine ratio is given (no search is timed) and records what it was asked."""

    def __init__(self, ratio):
        self.ratio, self.asked = ratio, []

    def __call__(self, *args):
        raise AssertionError("no budget ratio should be needed here")

    def engine_ratio(self, condition):
        self.asked.append(condition.id)
        return self.ratio


def test_an_engine_2_cell_costs_its_stored_engine_1_counterpart_times_the_engine_ratio(tmp_path):
    lists = Condition("nogo", 5, make_agent("ppaf", 20, alpha=0.5), make_agent("ppaf", 20, alpha=1.28))
    incremental = Condition("nogo", 5, make_agent("ppaf", 20, alpha=0.5, playout_engine=2),
                            make_agent("ppaf", 20, alpha=1.28, playout_engine=2))
    assert incremental.id != lists.id  # the engine is part of the condition
    ResultsStore(tmp_path / "x").append(_records(lists, [2.0, 4.0]))
    scaler = _EngineRatio(0.5)
    per_game, longest, source, basis = condition_cost(incremental, load_timings(tmp_path), scaler)
    assert (per_game, longest, source) == (1.5, 2.0, "engine") and "engine 2 / engine 1" in basis
    assert scaler.asked == [incremental.id]
    # an engine-1 condition never asks for the ratio
    assert condition_cost(lists, load_timings(tmp_path), scaler)[2] == "stored" and len(scaler.asked) == 1
    plan = ppa2015.make_experiment(tmp_path / "plan", "smoke", playout_engine=2)
    assert all(c.agent.playout_engine == 2 for c in plan.conditions)


def test_a_cell_without_games_costs_its_siblings_at_the_same_budget_or_a_scaled_one(tmp_path):
    planned = Condition("nogo", 5, make_agent("ppa", 20, alpha=0.5), make_agent("uct", 20))
    sibling = dataclasses.replace(planned, agent=make_agent("ppa", 20, alpha=2.0))  # other alpha, same budget
    other_budget = Condition("nogo", 5, make_agent("ppa", 40, alpha=0.5), make_agent("uct", 40))
    other_kind = Condition("nogo", 5, make_agent("mast", 20), make_agent("uct", 20))  # not the same shape
    store = ResultsStore(tmp_path / "x")
    store.append(_records(sibling, [2.0, 4.0]) + _records(other_budget, [10.0, 10.0])
                 + _records(other_kind, [100.0]))
    timings = load_timings(tmp_path)
    per_game, longest, source, _ = condition_cost(planned, timings, _no_scale)
    assert (per_game, longest, source) == (3.0, 4.0, "sibling")

    asked = []

    def scale(condition, agent_playouts, opponent_playouts):
        asked.append((condition.id, agent_playouts, opponent_playouts))
        return 0.25
    at_40 = Condition("nogo", 5, make_agent("ppa", 40, alpha=2.0), make_agent("uct", 40))
    timings = load_timings(tmp_path)
    timings = timings[timings["condition_id"] != other_budget.id]  # only the 20-playout cells remain
    per_game, longest, source, basis = condition_cost(at_40, timings, scale)
    assert source == "scaled" and per_game == pytest.approx(3.0 * 0.25) and longest == pytest.approx(4.0 * 0.25)
    assert asked == [(sibling.id, 40, 40)]  # the stored condition's agents, timed at the planned budgets
    with pytest.raises(ValueError, match="no stored games of the shape"):
        condition_cost(Condition("nogo", 5, make_agent("rave", 20), make_agent("uct", 20)), timings, scale)


def test_wall_time_is_per_stage_the_larger_of_the_shared_work_and_its_longest_job():
    cells = [Cell("n", "p", "self-play", "a", 10, 36.0, 360.0, "stored", ""),
             Cell("n", "p", "self-play", "b", 10, 3.6, 36.0, "stored", ""),
             Cell("n", "p", "evaluation", "c", 100, 7.2, 10.0, "scaled", "")]
    # self-play: 396 s of work, but run "a" is one sequential job of 360 s; evaluation: 720 s over the cores
    assert wall_seconds(cells, 2) == pytest.approx(360.0 + 360.0)
    assert wall_seconds(cells, 16) == pytest.approx(360.0 + 45.0)
    table = preset_table(cells)
    assert table["stored_share"].iloc[0] == pytest.approx(396.0 / 1116.0)
    assert math.isclose(table["cpu_hours"].iloc[0], 1116.0 / 3600)


def test_notebook_04_plans_greedy_evaluations_for_exactly_its_presets_greedy_variants():
    """From the committed quick run (regression: the preset's ``greedy_variants`` list, once read from a renamed
    module constant, raised AttributeError for the whole notebook)."""
    from ppalib import paths
    from ppalib.papers import soemers2019
    from ppalib.preset_costs import predict_feature_biasing
    root = Path(paths.RESULTS)
    cells = predict_feature_biasing("quick", root / "soemers2019", load_timings(root), lambda *args: 1.0)
    greedy = {cell.label.split(", ")[0] for cell in cells if cell.label.endswith(", greedy")}
    assert greedy == set(soemers2019.settings("quick")["greedy_variants"])
    assert any(cell.label.endswith(", grown") for cell in cells)


def test_notebook_04s_paper_preset_is_the_budget_runs_extrapolation_stage_by_stage(tmp_path):
    """bench --presets and notebook 04 show one estimate of the paper preset: its cells are the stages of
    soemers2019.paper_cost_extrapolation, with their CPU time and longest job."""
    from ppalib.papers import soemers2019
    from ppalib.preset_costs import FEATURE_NOTEBOOK, predict_feature_biasing_paper, wall_seconds
    run = soemers2019.budget_run()
    table = run["paper_cost"]
    cells = predict_feature_biasing_paper(run)
    assert [c.stage for c in cells] == list(table["stage"][:-1])
    assert all(c.notebook == FEATURE_NOTEBOOK and c.preset == "paper" and c.source == "extrapolated" for c in cells)
    cpu_hours = sum(c.seconds for c in cells) / 3600
    assert cpu_hours == pytest.approx(table.loc[table["stage"] == "total", "CPU hours"].iloc[0], abs=0.1 * len(cells))
    assert wall_seconds(cells, 16) / 3600 == pytest.approx(
        table.loc[table["stage"] == "total", "wall hours, 16 cores"].iloc[0], abs=0.1 * len(cells))
    with pytest.raises(ValueError, match="extrapolate"):
        predict_feature_biasing_paper(soemers2019.budget_run(tmp_path / "absent") | {"paper_cost": pd.DataFrame()})


def test_a_preset_with_an_engine_check_plans_its_games_as_a_stage_of_their_own(tmp_path):
    from ppalib.papers import ppaf2016
    s = ppaf2016.settings("smoke")
    grid = ppaf2016.make_experiment(tmp_path / "plan", "smoke")
    check = ppaf2016.engine_check_experiment(tmp_path / "plan", s)
    store = ResultsStore(tmp_path / "x")
    for condition in dict.fromkeys(grid.conditions + check.conditions):
        store.append(_records(condition, [1.0]))
    cells = predict_grid("02_ppaf_2016", "smoke", load_timings(tmp_path), _no_scale)
    stages = {stage: sum(c.games for c in cells if c.stage == stage) for stage in ("games", "engine check")}
    assert stages == {"games": len(grid.conditions) * s["games_per_cell"],
                      "engine check": len(check.conditions) * s["engine_check_games"]}
    assert not [c for c in predict_grid("02_ppaf_2016", "smoke", load_timings(tmp_path), _no_scale)
                if c.stage == "engine check" and c.source != "stored"]
