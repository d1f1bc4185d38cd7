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
        assert isinstance(cells, pd.DataFrame) and set(cells["verdict"]) <= {"reproduced", "higher", "lower",
                                                                             "undecided"}
        assert set(table["verdict"]) <= {"upheld", "contradicted", "not decided"}
        assert {"p", "p (Holm)", "verdict (Holm)", "paper p"} <= set(table.columns)


def test_no_claim_is_counted_twice_or_set_up_to_fail_at_the_papers_own_numbers():
    """The misere PPAF > MAST/MASTF claims are tested head to head (Tables 4 and 9) only, not again against UCT
    where the paper itself has 100% vs 100%; every A > B kept has A > B in the paper."""
    cells = ppaf2016.paper_cells()
    long = cells.assign(games=100.0, wins=cells["paper_win_rate"], win_rate=cells["paper_win_rate"],
                        playouts=10000)
    table = ppaf2016.claims(long)
    pairs = list(zip(table["claim"], table["game"]))
    assert len(pairs) == len(set(pairs))
    against_uct = table[~table["claim"].str.contains("Table")]
    assert not against_uct["game"].isin(["Misere Breakthrough", "Misere Knightthrough"]).any()
    assert table["claim"].str.contains("Table").sum() == 4
    paper_sides = [tuple(float(x) for x in text.split(" vs ")) for text in against_uct["paper"]]
    assert all(a > b for a, b in paper_sides)


def test_playout_engine_reaches_every_learned_agent_and_only_the_paper_preset_plays_engine_2(tmp_path):
    from ppalib.papers import future_work, playout_engines_line, ppa2015
    from ppalib.store import ResultsStore
    for paper, paper_engine in ((ppa2015, 1), (ppaf2016, 2), (future_work, 2)):
        for preset, engine in (("quick", 1), ("paper", paper_engine), ("smoke", 1)):
            experiment = paper.make_experiment(tmp_path / "plan", preset)
            learned = [a for c in experiment.conditions for a in (c.agent, c.opponent) if hasattr(a, "playout_engine")]
            assert learned and {a.playout_engine for a in learned} == {engine}, (paper.NAME, preset)
        quick = paper.make_experiment(tmp_path / "plan", "quick", playout_engine=2)
        assert all(a.playout_engine == 2 for c in quick.conditions for a in (c.agent, c.opponent)
                   if hasattr(a, "playout_engine"))
        with pytest.raises(ValueError, match="playout_engine"):
            paper.settings("quick", playout_engine=3)
    # the committed games were all played by engine 1, and the line that says so in the notebooks counts them
    frame = ResultsStore(paths.RESULTS / "ppaf2016").load()
    line = playout_engines_line(frame)
    assert line.startswith("Learned playouts: engine 1") and f"{len(frame):,} games" in line and "engine 2" not in line


def _games(condition, results):
    """Stored-game rows of ``condition``, one per entry of ``results`` (the agent's result), as the store has them."""
    import json
    from ppalib.experiments import _agent_columns
    return pd.DataFrame([{"condition_id": condition.id, "game_index": i, "game": condition.game, "size": condition.size,
                          **_agent_columns("agent", condition.agent), **_agent_columns("opponent", condition.opponent),
                          "agent_result": float(r), "game_options": json.dumps(dict(condition.game_options)),
                          "agent_params": json.dumps(condition.agent.as_dict()),
                          "opponent_params": json.dumps(condition.opponent.as_dict())}
                         for i, r in enumerate(results)])


def test_the_engine_check_plays_the_incremental_tables_cells_at_both_engines_with_the_grids_seed(tmp_path):
    s = ppaf2016.settings("quick")
    check = ppaf2016.engine_check_experiment(tmp_path / "ppaf2016", s)
    # the grid's seed: a condition id names the same games in every store
    assert check.results_dir == tmp_path / "ppaf2016_engine_check" and check.seed == s["seed"]
    assert {c.game for c in check.conditions} == {"atarigo", "domineering", "misere_domineering", "nogo"}
    engines = [c.agent.playout_engine for c in check.conditions]
    assert engines.count(1) == engines.count(2) == 16 and check.games_per_condition == 200
    grid = {c.id for c in ppaf2016.make_experiment(tmp_path / "ppaf2016", "quick").conditions}
    assert {c.id for c in check.conditions if c.agent.playout_engine == 1} <= grid  # the grid's own cells
    assert ppaf2016.engine_check_experiment(tmp_path / "x", {**s, "engine_check_games": 0}) is None
    assert ppaf2016.engine_check_experiment(tmp_path / "x", {**s, "tables": [2, 7]}) is None


def test_the_engine_check_table_says_same_different_or_undecided_from_the_games():
    from ppalib.agents import make_agent
    from ppalib.experiments import Condition

    def cell(engine, game):
        return Condition(game, 8, make_agent("mast", 1000, k=8.0, playout_engine=engine), make_agent("uct", 1000))

    def check(rates, games):
        frames = []
        for game, (one, two) in zip(("nogo", "domineering"), rates):
            frames += [_games(cell(1, game), [1] * round(one * games) + [0] * (games - round(one * games))),
                       _games(cell(2, game), [1] * round(two * games) + [0] * (games - round(two * games)))]
        return ppaf2016.engine_check_table(pd.concat(frames, ignore_index=True))
    same = check([(0.5, 0.5), (0.6, 0.61)], 2000)
    assert same["verdict"].iloc[-1].startswith("the same") and (same["verdict"].iloc[:-1] == "no difference detected").all()
    assert list(same["table"].iloc[:-1]) == [5, 10]
    different = check([(0.5, 0.7), (0.5, 0.7)], 400)
    assert different["verdict"].iloc[-1] == "different" and (different["verdict"].iloc[:-1] == "different").all()
    assert different["difference (2 - 1)"].iloc[-1] == pytest.approx(20.0)
    assert check([(0.5, 0.52), (0.5, 0.52)], 100)["verdict"].iloc[-1] == "undecided"
    from ppalib.engine_check import check_summary
    assert "Engine check" in check_summary(different)


def test_the_engine_checks_engine_1_games_are_the_grids_own_where_both_stores_hold_them():
    """A condition id names the same games in every store: the engine check's engine-1 cells are the grid's
    conditions at the grid's seed, so each game both stores hold is the same game, move for move."""
    from ppalib.store import ResultsStore
    check = ResultsStore(paths.RESULTS / "ppaf2016_engine_check").load()
    grid = ResultsStore(paths.RESULTS / "ppaf2016").load()
    both = check.merge(grid, on=["condition_id", "game_index"], suffixes=("_check", "_grid"))
    assert len(both) == 1600  # 16 cells x the grid's 100 games
    assert (both["moves_check"] == both["moves_grid"]).all() and (both["seed_check"] == both["seed_grid"]).all()


def test_each_tables_paper_best_column_names_the_setting_the_best_grid_plays():
    """Where several settings share a table's maximum (Table 8), "paper's best" must name the first of them in the
    transcribed table, the one ``selected_cells`` plays, not another."""
    from ppalib import paths
    from ppalib.store import ResultsStore
    s = ppaf2016.settings("quick")
    played = ppaf2016.selected_cells(s)
    long = ppaf2016.tables(ResultsStore(paths.RESULTS / "ppaf2016").load())
    for table in s["tables"]:
        layout = ppaf2016.table_layout(long, table)
        for r in played[played["table"] == table].itertuples():
            name = "alpha" if r.algorithm.startswith("ppa") else "k"
            assert layout.loc[r.algorithm.upper(), "paper's best"] == f"{r.paper_win_rate:.1f} ({name}={r.value:g})"
