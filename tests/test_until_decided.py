"""Games until decided (ppalib.until_decided): the schedule's error rates, simulated with the real loop and
batches, and the real runner on a smoke grid (same seeds per game index, resumable, condition ids unchanged)."""
import time

import numpy as np
import pandas as pd
import pytest

from ppalib import paths
from ppalib.__main__ import main
from ppalib.agents import make_agent
from ppalib.experiments import Condition, Experiment, load_results, run
from ppalib.papers import (cheapest_to_decide, decision_odds, decision_table, future_work, growth_seconds, ppaf2016,
                           prepare)
from ppalib.papers import run_until_decided as grow_paper
from ppalib.report import cell_verdict, cell_verdicts, undecided
from ppalib.until_decided import (LEDGER, RECENT_GAMES, StoppingRule, cell_counts, grow, grown_ids, next_counts,
                                  read_ledger, run_until_decided, with_ledger)

SIMULATED_CELLS = 2000
PAPER_GAMES = 500
#: (initial games, rule): the papers' game counts, batches and caps of the order the notebooks use
SCHEDULES = {16: StoppingRule(batch=16, cap=160), 100: StoppingRule(batch=50, cap=400),
             500: StoppingRule(batch=100, cap=1000)}


def _papers_rates() -> np.ndarray:
    values = pd.concat([pd.read_csv(paths.PAPER_DATA / name)["paper_win_rate"]
                        for name in ("ppa2015_table1.csv", "ppaf2016_tables.csv")]).to_numpy() / 100
    return np.resize(values, SIMULATED_CELLS)


def simulate_until_decided(seed, initial, rule, paper_rates, our_rates, paper_counted=True):
    """The verdicts after growing every undecided cell with ``grow`` (the runner's loop and ``next_counts``),
    games drawn by a seeded Bernoulli at ``our_rates`` instead of played."""
    rng = np.random.default_rng(seed)
    ids = np.array([f"{i:04d}" for i in range(SIMULATED_CELLS)])
    if paper_counted:
        paper_percent = 100 * rng.binomial(PAPER_GAMES, paper_rates) / PAPER_GAMES
        paper_games = np.full(SIMULATED_CELLS, float(PAPER_GAMES))
    else:
        paper_percent, paper_games = 100 * paper_rates, np.full(SIMULATED_CELLS, np.nan)
    cells = pd.DataFrame({"condition_id": ids, "wins": rng.binomial(initial, our_rates).astype(float),
                          "games": initial, "paper_percent": paper_percent, "paper_games": paper_games,
                          "grown": False, "seconds_per_game": 1.0})
    rate_of = dict(zip(ids, our_rates))

    def play(targets):
        rows = cells["condition_id"].isin(targets.index)
        added = targets[cells.loc[rows, "condition_id"]].to_numpy() - cells.loc[rows, "games"].to_numpy()
        cells.loc[rows, "wins"] += rng.binomial(added, [rate_of[c] for c in cells.loc[rows, "condition_id"]])
        cells.loc[rows, "games"] += added
        cells.loc[rows, "grown"] = True

    rounds = grow(lambda: (cells, 0.0), undecided, play, rule)
    verdicts = cell_verdicts(cells["wins"], cells["games"], cells["paper_percent"], cells["paper_games"],
                             anytime=cells["grown"].to_numpy())
    return verdicts, cells, rounds


def _shifted(rates, points=15):
    return np.where(rates + points / 100 <= 1, rates + points / 100, rates - points / 100)


@pytest.mark.parametrize("initial", sorted(SCHEDULES))
def test_until_decided_calls_equal_rates_different_in_at_most_5_percent_of_2000_cells(initial):
    rates = _papers_rates()
    verdicts, cells, rounds = simulate_until_decided([31, initial], initial, SCHEDULES[initial], rates, rates)
    assert rounds > 0 and cells["grown"].any()            # the rule did grow cells
    assert np.isin(verdicts, ("higher", "lower")).mean() <= 0.05


@pytest.mark.parametrize("initial", sorted(SCHEDULES))
def test_until_decided_calls_cells_15_points_off_reproduced_in_at_most_5_percent_of_2000_cells(initial):
    rates = _papers_rates()
    verdicts, cells, _ = simulate_until_decided([32, initial], initial, SCHEDULES[initial], rates, _shifted(rates))
    assert (verdicts == "reproduced").mean() <= 0.05


def test_until_decided_decides_more_cells_than_the_fixed_count():
    rates = _papers_rates()
    verdicts, cells, _ = simulate_until_decided(33, 16, SCHEDULES[16], rates, _shifted(rates))
    fixed = cell_verdicts(np.random.default_rng(33).binomial(16, _shifted(rates)), 16,
                          100 * rates, PAPER_GAMES)  # the same kind of cells at 16 games, not grown
    assert (verdicts != "undecided").mean() > (fixed != "undecided").mean() + 0.2


def test_peeking_with_the_fixed_interval_would_fail_the_check():
    """The check above can fail: judging grown cells by the fixed-sample interval at every look (no anytime
    correction) calls equal rates different more often than 5% (at 16 games a look, up to 1,000 games)."""
    rates = np.full(SIMULATED_CELLS, 0.5)
    rng = np.random.default_rng(34)
    wins, games = rng.binomial(16, rates).astype(float), np.full(SIMULATED_CELLS, 16)
    ever = np.zeros(SIMULATED_CELLS, bool)
    while games[0] < 1000:
        verdicts = cell_verdicts(wins, games, 50.0, None, margin=1e-9)  # a margin-free peek at the fixed interval
        ever |= np.isin(verdicts, ("higher", "lower"))
        wins += rng.binomial(16, rates)
        games += 16
    assert ever.mean() > 0.05


def test_next_counts_adds_a_batch_to_undecided_cells_below_the_cap_fewest_games_first():
    cells = pd.DataFrame({"condition_id": ["a", "b", "c", "d"], "games": [40, 16, 150, 160]})
    targets = next_counts(cells, [True, True, True, True], StoppingRule(batch=16, cap=160))
    assert targets.to_dict() == {"b": 32, "a": 56, "c": 160}
    assert list(targets.index) == ["b", "a", "c"]
    assert next_counts(cells, [False] * 4, StoppingRule()).empty


@pytest.mark.parametrize("bad", [dict(batch=0), dict(cap=0), dict(cpu_seconds=-1.0), dict(batch=1.5)])
def test_stopping_rule_names_the_bad_parameter(bad):
    with pytest.raises((ValueError, TypeError), match=next(iter(bad))):
        StoppingRule(**bad)


# ---- the real runner on a smoke grid (a few seconds of games) --------------------------------------------------

COMPARED = ["condition_id", "game_index", "agent_player", "winner", "agent_result", "moves", "seed"]


def _smoke_conditions():
    return (Condition("nogo", 5, make_agent("uct", 10), make_agent("uct", 10)),
            Condition("breakthrough", 5, make_agent("uct", 10), make_agent("uct", 10)))


def _against_50_percent(cells):
    """Undecided against a fixed 50%: a real rule of the same shape as the papers' (report.undecided)."""
    return undecided(cells.assign(paper_percent=50.0, paper_games=np.nan))


def test_the_runner_grows_undecided_cells_with_the_games_a_plain_run_would_play(tmp_path):
    conditions = _smoke_conditions()
    experiment = Experiment("grow", conditions, 4, 5, tmp_path / "grown")
    ids_before = [c.id for c in conditions]
    rule = StoppingRule(batch=4, cap=12)
    frame = run_until_decided(experiment, [conditions[0].id], _against_50_percent, rule, "serial", progress=False)
    assert [c.id for c in conditions] == ids_before                       # no condition id changes
    ledger = read_ledger(experiment.results_dir)
    assert list(ledger.index) == [conditions[0].id]                       # only the cell asked for
    assert ledger.loc[conditions[0].id, "planned"] == 4 and ledger.loc[conditions[0].id, "games"] == 12
    assert grown_ids(experiment) == {conditions[0].id}
    counts = frame.groupby("condition_id").size().to_dict()
    assert counts == {conditions[0].id: 12, conditions[1].id: 4}
    # the grown cell's games are those a plain run of 12 games plays: same seeds per game index
    plain = run(Experiment("grow", conditions[:1], 12, 5, tmp_path / "plain"), "serial", progress=False)
    grown = frame[frame["condition_id"] == conditions[0].id].sort_values("game_index").reset_index(drop=True)
    assert grown[COMPARED].equals(plain.sort_values("game_index").reset_index(drop=True)[COMPARED])
    # a reader of the results folder sees all of them
    assert len(load_results(with_ledger(experiment))) == 16


def test_an_interrupted_growth_resumes_from_its_ledger(tmp_path):
    conditions = _smoke_conditions()[:1]
    experiment = Experiment("resume", conditions, 4, 6, tmp_path)
    run(experiment, "serial", progress=False)
    # a growth that wrote its ledger (8 games) and was killed before playing the batch
    (tmp_path / LEDGER).write_text(f"condition_id,planned,games\n{conditions[0].id},4,8\n")
    assert len(load_results(experiment)) == 4
    frame = run_until_decided(experiment, [conditions[0].id], lambda cells: np.zeros(len(cells), bool),
                              StoppingRule(batch=4, cap=8), "serial", progress=False)
    assert sorted(frame["game_index"]) == list(range(8))                 # the missing batch, nothing more


def test_a_cells_cost_a_game_is_that_of_its_most_recent_games_and_growth_counts_every_extra_game():
    """``cell_counts``: the seconds a game of a cell are the mean of its ``RECENT_GAMES`` latest (by
    ``finished_at``, whatever the rows' order), what the code and host that play its next games measured; what
    growth has spent is every game's own seconds beyond the planned count."""
    old, new = 40, RECENT_GAMES + 8
    frame = pd.DataFrame({
        "condition_id": "a", "game_index": np.arange(old + new), "agent_result": 1.0,
        "seconds": np.r_[np.full(old, 10.0), np.full(new, 1.0)],
        "finished_at": [f"2026-11-{20 if i < old else 29}T00:00:{i % 60:02d}" for i in range(old + new)]})
    cells, spent = cell_counts(frame.sample(frac=1.0, random_state=3), {"a": 50})
    assert cells.loc[0, "games"] == old + new and cells.loc[0, "seconds_per_game"] == 1.0
    assert spent == pytest.approx(new - (50 - old))                     # games 50.. all took 1 s
    few = frame.iloc[old - 4:old + 2]                                   # fewer games than RECENT_GAMES: all
    assert cell_counts(few, {"a": 100})[0].loc[0, "seconds_per_game"] == pytest.approx((4 * 10 + 2) / 6)


def test_no_round_starts_after_the_deadline_and_a_started_round_is_played_whole():
    """``grow``'s deadline: checked before each round only, so the rounds stop at the first look past it and every
    round begun is played (its ledger cells then hold all their games)."""
    cells = pd.DataFrame({"condition_id": ["a", "b"], "wins": [5.0, 6.0], "games": [10, 10], "grown": False,
                          "seconds_per_game": 1.0})
    played, now = [], [0.0]

    def play(targets):
        played.append(dict(targets))
        cells.loc[cells["condition_id"].isin(targets.index), "games"] += 4
        now[0] += 10.0                                                    # a round takes 10 s

    always = lambda frame: np.ones(len(frame), bool)  # noqa: E731
    rounds = grow(lambda: (cells.copy(), 0.0), always, play, StoppingRule(batch=4, cap=100), deadline=25.0,
                  clock=lambda: now[0])
    assert rounds == 3 and len(played) == 3                               # rounds begun at 0, 10 and 20 s
    assert list(cells["games"]) == [22, 22]
    assert grow(lambda: (cells.copy(), 0.0), always, play, StoppingRule(batch=4, cap=100), deadline=25.0,
                clock=lambda: now[0]) == 0                                # past it: no round


def test_the_cli_refuses_a_bad_stop_after_before_any_work(capsys):
    before = {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()}
    for bad in ("-1", "inf", "nan"):
        assert main(["until-decided", "ppaf2016", "--stop-after", bad]) == 2
        assert "stop_after" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()} == before


def test_a_deadline_already_passed_plays_the_planned_games_and_grows_nothing(tmp_path):
    conditions = _smoke_conditions()[:1]
    experiment = Experiment("deadline", conditions, 4, 7, tmp_path)
    frame = run_until_decided(experiment, [conditions[0].id], lambda cells: np.ones(len(cells), bool),
                              StoppingRule(batch=4, cap=400), "serial", progress=False, deadline=time.monotonic())
    assert len(frame) == 4 and read_ledger(tmp_path).empty


def test_the_cpu_budget_stops_the_growth(tmp_path):
    conditions = _smoke_conditions()[:1]
    experiment = Experiment("budget", conditions, 4, 7, tmp_path)
    frame = run_until_decided(experiment, [conditions[0].id], lambda cells: np.ones(len(cells), bool),
                              StoppingRule(batch=4, cap=400, cpu_seconds=0.0), "serial", progress=False)
    assert len(frame) == 4 and read_ledger(tmp_path).empty


def test_growing_a_subset_counts_the_other_cells_growth_against_the_budget(tmp_path):
    """The budget means the same whichever cells are grown: cell 1's growth (40 games beyond its 4 planned) counts
    when only cell 0 is asked to grow, with ``budget_cells`` naming both (as ``--max-hours-to-decide`` does);
    without it, the same budget sees cell 0's own growth only, and cell 0 grows."""
    conditions = _smoke_conditions()
    experiment = Experiment("subset", conditions, 4, 8, tmp_path)
    always = lambda cells: np.ones(len(cells), bool)  # noqa: E731
    run_until_decided(experiment, [conditions[1].id], always, StoppingRule(batch=40, cap=44), "serial",
                      progress=False)
    frame = load_results(with_ledger(experiment))
    spent = frame.query("game_index >= 4")["seconds"].sum()
    per_game = frame[frame["condition_id"] == conditions[0].id]["seconds"].mean()
    assert spent > 4 * per_game                                       # room for one batch of cell 0 alone
    rule = StoppingRule(batch=4, cap=8, cpu_seconds=spent * 0.99)
    frame = run_until_decided(experiment, [conditions[0].id], always, rule, "serial", progress=False,
                              budget_cells=[c.id for c in conditions])
    assert frame.groupby("condition_id").size().to_dict() == {conditions[0].id: 4, conditions[1].id: 44}
    frame = run_until_decided(experiment, [conditions[0].id], always, rule, "serial", progress=False)
    assert frame.groupby("condition_id").size().to_dict() == {conditions[0].id: 8, conditions[1].id: 44}


#: Stores of runs committed as they grow (store -> why): the ledger is written before a batch is played, so a commit
#: between two sessions may hold a cell's grown count with only part of its last batch stored.
IN_PROGRESS = {"soemers2019_budget": "notebook 04's budget run (issue 24), committed across sessions"}


@pytest.mark.parametrize("store", sorted(p for p in paths.RESULTS.iterdir() if (p / LEDGER).is_file()) or [None])
def test_every_committed_ledger_names_stored_cells_with_all_their_games(store):
    """A committed growth is complete: each ledger row is a stored condition with games 0..games-1, more than
    planned (vacuous until the integrator commits a growth).  A run in progress (``IN_PROGRESS``): each ledger row
    is a stored condition with its planned games 0..planned-1 and no game at or beyond its ledger count."""
    if store is None:
        pytest.skip("no committed ledger yet")
    ledger = read_ledger(store)
    frame = pd.concat([pd.read_parquet(p, columns=["condition_id", "game_index"]) for p in store.glob("*.parquet")])
    for cid, row in ledger.iterrows():
        indices = set(frame.loc[frame["condition_id"] == cid, "game_index"])
        assert row["games"] > row["planned"], cid
        if store.name in IN_PROGRESS:
            assert set(range(row["planned"])) <= indices and max(indices) < row["games"], cid
        else:
            assert set(range(row["games"])) <= indices, cid


def test_the_cli_dry_run_counts_the_committed_cells_and_plays_nothing(capsys):
    before = {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()}
    assert main(["until-decided", "ppaf2016", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "ppaf2016: 28 cells to decide" in out and "anytime-valid" in out
    # the growth already spent, as the budget counts it: the games past each decision cell's planned count
    setup = prepare(ppaf2016, "quick")
    games = load_results(setup.experiment)
    ledger = read_ledger(setup.experiment.results_dir)
    cells = set(ppaf2016.decision_cells(setup.experiment, setup.settings)["condition_id"]) & set(ledger.index)
    games = games[games["condition_id"].isin(cells)]
    beyond = games["game_index"] >= games["condition_id"].map(ledger["planned"])
    spent = float(games.loc[beyond, "seconds"].sum())
    assert spent > 0 and growth_seconds(ppaf2016, setup) == pytest.approx(spent)
    assert f"growth so far: {spent:,.0f} CPU seconds" in out
    assert {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()} == before
    assert main(["until-decided", "ppaf2016", "--cap", "0", "--dry-run"]) == 2
    assert "cap=0" in capsys.readouterr().err


def test_the_cli_grows_only_cells_cheap_enough_to_decide_and_names_a_bad_limit_before_any_work(capsys):
    before = {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()}
    assert main(["until-decided", "ppaf2016", "--max-hours-to-decide", "1e9", "--dry-run"]) == 0
    out = capsys.readouterr().out
    undecided_count = int(out.split("undecided: ")[1].split(";")[0])
    chosen = [line for line in out.splitlines() if line.startswith("    ") and "CPU-hours" in line]
    assert f"{len(chosen)} would be grown" in out and 0 < len(chosen) <= undecided_count
    table = decision_table(ppaf2016, prepare(ppaf2016, "quick"))
    odds = decision_odds(table, StoppingRule(16, 160))                # the command's default batch and cap
    assert [line.split(":")[0].strip() for line in chosen] == cheapest_to_decide(table, 1e9, odds)
    hours = [float(line.split(", ")[-1].split()[0]) for line in chosen]
    assert hours == sorted(hours)                                   # cheapest first
    assert {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()} == before
    for bad in ("0", "-1", "inf", "nan"):
        assert main(["until-decided", "ppaf2016", "--max-hours-to-decide", bad]) == 2
        assert "max_hours_to_decide" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in (paths.RESULTS / "ppaf2016").iterdir()} == before


def test_cheapest_to_decide_picks_undecided_cells_within_the_hours_cheapest_first():
    table = pd.DataFrame({"condition_id": ["a", "b", "c", "d", "e"],
                          "verdict": ["undecided", "undecided", "reproduced", "undecided", "undecided"],
                          "hours_to_decide": pd.array([0.5, 0.1, None, None, 2.0], dtype="Float64")})
    assert cheapest_to_decide(table, 1.0) == ["b", "a"]
    assert cheapest_to_decide(table, 0.1) == ["b"]
    assert cheapest_to_decide(table, 5) == ["b", "a", "e"]           # "d": no count below a million decides it
    for bad in (0, -1.0, float("inf"), float("nan"), True, "1"):
        with pytest.raises(ValueError, match="max_hours_to_decide"):
            cheapest_to_decide(table, bad)


def test_decision_odds_simulate_the_growth_from_each_cells_posterior():
    """A cell far from every verdict's edge is decided by the cap in nearly every simulated growth, one on the edge
    (its rate 10 points from a counted paper value: reproduced and not reproduced equally likely) far less often
    and at more games; a cell at its cap cannot grow; the draws are seeded per cell (the same odds whatever the
    table's order)."""
    table = pd.DataFrame({"condition_id": ["far", "edge", "full", "done"], "wins": [30.0, 30.0, 50.0, 50.0],
                          "games": [100, 100, 2000, 100], "paper_percent": [31.0, 40.0, 50.0, 50.0],
                          "paper_games": [np.nan, 500.0, np.nan, np.nan], "seconds_per_game": 1.0,
                          "verdict": ["undecided", "undecided", "undecided", "reproduced"]})
    rule = StoppingRule(batch=50, cap=2000)
    odds = decision_odds(table, rule).set_index("condition_id")
    assert list(odds.index) == ["far", "edge", "full"]                 # undecided cells only
    assert odds.loc["far", "chance_decided"] > 0.95 > 0.8 > odds.loc["edge", "chance_decided"]
    assert odds.loc["edge", "expected_games_added"] > odds.loc["far", "expected_games_added"] > 0
    assert odds.loc["full", "chance_decided"] == 0 and odds.loc["full", "expected_games_added"] == 0
    assert odds.loc["full", "hours_per_decision"] == np.inf
    far = odds.loc["far"]
    assert far["expected_hours"] == pytest.approx(far["expected_games_added"] / 3600)
    assert far["hours_per_decision"] == pytest.approx(far["expected_hours"] / far["chance_decided"])
    again = decision_odds(table.iloc[::-1], rule).set_index("condition_id").loc[odds.index]
    pd.testing.assert_frame_equal(again, odds)
    assert cheapest_to_decide(table.assign(hours_to_decide=np.nan), 1e9, odds.reset_index()) == ["far", "edge"]


def test_a_notebooks_stopping_rule_grows_its_decision_cells_and_its_tables_judge_them_anytime(tmp_path):
    """Notebook 05 at smoke with until_decided="anytime": its decision cells (the board-game cells at its largest
    budget, against 50%) grow by the notebook's batch to its cap, the other cells keep their planned games, and
    the table judges a grown cell by the anytime-valid interval."""
    setup = prepare(future_work, "smoke", results_dir=tmp_path / "r", figures_dir=tmp_path / "f", executor="serial",
                    until_decided="anytime", decide_batch=2, decide_cap=4, rave_games=["blind_cashing_checks"],
                    node_playouts=[10.0])
    assert setup.settings["decide_cap"] == 4 and not setup.committed_results
    run(setup.experiment, "serial", progress=False)
    frame = grow_paper(future_work, setup, "serial", progress=False)
    decision = set(future_work.decision_cells(setup.experiment, setup.settings)["condition_id"])
    counts = frame.groupby("condition_id").size()
    grown = set(frame.loc[frame["until_decided"], "condition_id"])
    assert grown and grown <= decision
    assert (counts[sorted(grown)] == 4).all()                       # 2 planned, one batch of 2: the cap
    assert (counts[[c for c in counts.index if c not in decision]] == 2).all()
    matches = future_work.matches_table(frame, setup.settings).set_index("condition_id")
    cid = sorted(grown)[0]
    row = matches.loc[cid]
    expected = cell_verdict(row["score"], int(row["games"]), 50.0, None, anytime=True)
    assert row["games_to_decide"] == expected.games_to_decide
    with pytest.raises(ValueError, match="decide_cap"):
        prepare(future_work, "smoke", results_dir=tmp_path / "r", decide_cap=0)
