"""Notebook 02's grid: the cells its claims rest on, played at a second budget (the paper's 10,000 playouts)."""
import pandas as pd
import pytest

from ppalib import paths
from ppalib.experiments import run
from ppalib.papers import ppaf2016


def test_the_claims_cells_are_each_compared_algorithms_best_cell_and_the_head_to_heads():
    cells = ppaf2016.claim_cells(ppaf2016.settings("quick"))
    against_uct = cells[cells["opponent"] == "uct"]
    wanted = {(game, alg) for _, a, b, games in ppaf2016.CLAIMS for game in games for alg in (a, b)}
    assert set(zip(against_uct["game"], against_uct["algorithm"])) == wanted
    best = ppaf2016.selected_cells(ppaf2016.settings("quick"))  # the paper's best cell of each table and algorithm
    key = ["table", "algorithm", "value", "opponent"]
    assert set(map(tuple, cells[key].values)) <= set(map(tuple, best[key].values))
    head_to_head = cells[cells["opponent"] == "ppaf"]
    assert sorted(zip(head_to_head["table"], head_to_head["algorithm"])) == [(4, "mast"), (4, "mastf"),
                                                                             (9, "mast"), (9, "mastf")]


def test_the_quick_grid_adds_the_claims_cells_at_10000_playouts_with_their_own_game_count(tmp_path):
    experiment = ppaf2016.make_experiment(tmp_path, "quick")
    main = [c for c in experiment.conditions if c.agent.playouts == 1000]
    extra = [c for c in experiment.conditions if c.agent.playouts == 10000]
    assert len(main) == 36 and len(extra) == 28 and len(experiment.conditions) == 64
    assert {experiment.games_of(c) for c in extra} == {16}
    assert {experiment.games_of(c) for c in main} == {100}
    committed = set(pd.concat([pd.read_parquet(p, columns=["condition_id"]) for p in
                               (paths.RESULTS / "ppaf2016").glob("*.parquet")])["condition_id"])
    assert {c.id for c in main} <= committed  # the tables' cells keep the committed run's ids


def test_claims_are_tested_at_one_budget_at_a_time(tmp_path):
    experiment = ppaf2016.make_experiment(tmp_path, "smoke", claims_playouts=30, claims_games_per_cell=2)
    frame = run(experiment, "serial", progress=False)
    long = ppaf2016.tables(frame)
    with pytest.raises(ValueError, match="several budgets"):
        ppaf2016.claims(long)
    for budget in (20, 30):
        table = ppaf2016.claims(long, playouts=budget)
        assert len(table) == 6  # three claims at Breakthrough and at Nogo
        cells = ppaf2016.cells_at(long, budget)
        assert len(cells) == 8 if budget == 30 else len(cells) >= 8
        assert isinstance(cells, pd.DataFrame) and set(cells["verdict"]) <= {"consistent", "higher", "lower"}
