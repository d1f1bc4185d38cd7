"""Notebook 04's budget and final comparison (ppalib.papers.soemers2019): the Ludii-derived budget, the presets'
self-play configs and conditions (the committed run's ids kept under quick), the equal-time budgets read from a stored
slowdown, partial self-play records, and Biased MCTS under the swap rule."""
import json
import math

import pandas as pd
import pytest

from ppalib import paths
from ppalib.papers import soemers2019 as s


def test_the_budget_is_the_geometric_mean_of_ludiis_range_to_two_significant_figures():
    table = s.ludii_budget().set_index("variant")
    assert list(table.index) == list(s.VARIANTS)
    for variant, row in table.iterrows():
        middle = math.sqrt(row.ludii_iterations_5s_low * row.ludii_iterations_5s_high)
        assert row.ludii_iterations_5s_low <= row.iterations_5s <= row.ludii_iterations_5s_high, variant
        assert abs(row.iterations_5s - middle) <= 0.05 * middle, variant
        assert len(str(row.iterations_5s).rstrip("0")) <= 2, variant      # two significant figures
    assert table.loc["Hex (11x11)", "iterations"] == 35_000
    half = s.ludii_budget(2.5).set_index("variant")
    assert (half["iterations"] == (table["iterations"] / 2).round().astype(int)).all()
    assert s.budget_of("Othello", 5.0) == table.loc["Othello", "iterations"]
    with pytest.raises(ValueError, match="seconds"):
        s.ludii_budget(0)
    with pytest.raises(ValueError, match="variant"):
        s.budget_of("Chess")


def test_the_paper_preset_budgets_every_stage_from_ludii_and_budget_only_the_final_comparison():
    paper = s.make_experiment("/nonexistent", "paper")
    assert {c.game: c.playouts for c in paper.grown_configs()}["gomoku"] == s.budget_of("Gomoku")
    budget = s.make_experiment("/nonexistent", "budget")
    configs = budget.grown_configs()
    assert {c.playouts for c in configs} == {budget.settings["playouts"]}
    games = {c.strategy: (c.games, c.checkpoints) for c in configs if c.game == "teeko"}
    assert games["correlation_based"] == (200, (1, 25, 50, 100, 200))
    assert games["combine_max"] == (50, (1, 25, 50))
    assert budget.final_seconds == [5.0, 2.5]
    with pytest.raises(ValueError, match="other_strategies_games"):
        s.settings("budget", other_strategies_games=300)
    with pytest.raises(ValueError, match="ludii_seconds"):
        s.settings("quick", budget="ludii")


def test_the_quick_preset_holds_every_committed_condition():
    """The committed run is the committed preset's (``ppalib.papers.COMMITTED_PRESET``, 'quick'): every stored
    condition id is one it plans, so reproduce at quick replots without playing."""
    from ppalib.papers import COMMITTED_PRESET
    assert COMMITTED_PRESET == "quick"
    folder = paths.RESULTS / s.NAME
    if not folder.is_dir():
        pytest.skip("no committed soemers2019 results")
    experiment = s.make_experiment(folder, "quick")
    planned = {c.id for _, c in experiment.labelled_conditions()}
    stored = set(pd.concat([pd.read_parquet(p, columns=["condition_id"]) for p in folder.glob("*.parquet")])
                 ["condition_id"])
    assert stored <= planned


def test_every_game_the_quick_preset_plans_is_committed_so_reproduce_plays_none():
    """``reproduce --preset quick`` must only replot: every planned evaluation game (condition, index, seed) is in
    the committed store and every self-play run has its finished record."""
    folder = paths.RESULTS / s.NAME
    if not folder.is_dir():
        pytest.skip("no committed soemers2019 results")
    experiment = s.make_experiment(folder, "quick")
    frame = experiment.store.load()
    stored = set(zip(frame["condition_id"], frame["game_index"].astype(int), frame["seed"].astype(int)))
    missing = [(c.id, i) for c, i in experiment.planned() if (c.id, i, experiment.seed) not in stored]
    assert not missing, f"{len(missing)} planned games not stored, e.g. {missing[:3]}"
    grown = experiment.grown_configs()
    runs = grown + [p for p in map(experiment.pruned_config, grown) if p is not None]
    assert len(runs) == 2 * len(grown)                 # every grown run finished and pruned
    unfinished = [c.run_id for c in runs if experiment.record_of(c) is None]
    assert not unfinished


def test_the_budget_run_goes_to_its_own_committed_folder_never_into_quicks():
    budget = paths.RESULTS / f"{s.NAME}_budget"
    assert s.results_folder("quick") == paths.RESULTS / s.NAME
    assert s.results_folder("budget") == budget
    # a stage run for some strategies or variants first (as the integrator runs it) shares the folder
    assert s.results_folder("budget", strategies=["correlation_based"]) == budget
    assert s.results_folder("budget", variants=["Teeko", "Othello"]) == budget
    # a session's CPU budget moves no folder, at either committed preset
    assert s.results_folder("budget", final_cpu_seconds=3600) == budget
    assert s.results_folder("quick", final_cpu_seconds=3600) == paths.RESULTS / s.NAME
    # any other parameter does
    assert s.results_folder("budget", playouts=400) == paths.OUTPUT / "budget" / "results" / s.NAME
    assert s.results_folder("budget", final_games=100) == paths.OUTPUT / "budget" / "results" / s.NAME
    assert s.results_folder("quick", playouts=400) == paths.OUTPUT / "quick" / "results" / s.NAME
    assert s.results_folder("paper") == paths.OUTPUT / "paper" / "results" / s.NAME


def test_the_budget_preset_writes_no_committed_figures():
    from ppalib.papers import prepare
    setup = prepare(s, "budget")
    assert setup.committed_results and not setup.committed_figures
    assert setup.figures_dir == paths.OUTPUT / "budget" / "figures" / "04_feature_biasing_2019"


def test_equal_time_gives_biased_mcts_the_budget_over_its_stored_slowdown(tmp_path):
    experiment = _finished_experiment(tmp_path, ludii_seconds=[5.0, 2.5])
    policy = experiment.final_agents()[0][1]
    stages = [lab["stage"] for lab, _ in experiment.final_conditions()]
    # no slowdown stored yet: no equal-time cell; the greedy agent plays UCT at each budget
    assert stages == ["final_greedy", "final_equal_iterations"] * 2
    greedy = [c for lab, c in experiment.final_conditions() if lab["stage"] == "final_greedy"]
    assert [c.opponent.playouts for c in greedy] == [s.budget_of("Teeko", 5.0), s.budget_of("Teeko", 2.5)]
    assert all(c.agent.kind == "greedy" and c.agent.policy == policy for c in greedy)
    budget = s.budget_of("Teeko", 5.0)
    pd.DataFrame([dict(variant="Teeko", strategy="correlation_based", policy=policy, ludii_seconds=5.0,
                       budget=budget, rules="default", slowdown=3.0)]).to_csv(
        experiment.results_dir / "final_slowdowns.csv", index=False)
    timed = [(lab, c) for lab, c in experiment.final_conditions() if lab["stage"] == "final_equal_time"]
    assert len(timed) == 1
    labels, condition = timed[0]
    assert condition.opponent.playouts == budget and condition.agent.playouts == round(budget / 3.0)
    assert labels["biased_budget"] == condition.agent.playouts


def test_a_self_play_run_writes_its_record_at_each_checkpoint_before_the_end(tmp_path):
    from ppalib.training.selfplay import SelfPlayConfig, SelfPlayRun
    config = SelfPlayConfig("teeko", 5, strategy="correlation_based", games=2, playouts=8, checkpoints=(1, 2),
                            move_cap=20, max_instances=4)
    seen = []

    def stop_after_first(done):
        seen.append(json.loads((tmp_path / "records" / f"{config.run_id}.json").read_text()))
        raise KeyboardInterrupt

    run = SelfPlayRun(config, tmp_path / "progress", tmp_path / "policies", tmp_path / "records")
    with pytest.raises(KeyboardInterrupt):
        run.run(on_game=stop_after_first)
    assert seen[0]["games_done"] == 1 and list(seen[0]["checkpoints"]) == ["1"]
    experiment = s.make_experiment(tmp_path, "smoke")
    assert experiment.record_of(config) is None  # unfinished: not a finished run


def test_biased_mcts_plays_under_the_swap_rule_with_a_policy_learned_without_it(tmp_path, monkeypatch):
    from ppalib.agents import Searcher
    from ppalib.features.artefact import POLICY_PATH_VARIABLE
    from ppalib.features.handmade import yavalath_handmade_policy
    from ppalib.games import make_game
    from ppalib._rng import make_rng
    experiment = s.make_experiment(tmp_path, "smoke")
    monkeypatch.setenv(POLICY_PATH_VARIABLE, str(experiment.policies_dir))
    base = yavalath_handmade_policy(make_game("yavalath", 5, ply_cap=s.MOVE_CAP))
    base.save(experiment.policies_dir)
    swapped = experiment.policy_under_rules(base.content_hash, (("swap", 1),))
    assert swapped != base.content_hash
    assert experiment.policy_under_rules(base.content_hash, ()) == base.content_hash
    game = make_game("yavalath", 5, swap=1, ply_cap=s.MOVE_CAP)
    state = game.play(game.initial_state(), 30)
    result = Searcher(game, s.biased_agent(200, swapped)).search(state, make_rng(1))
    assert 61 in result.moves.tolist()                 # the swap is a root move, with a prior (logit 0)
    with pytest.raises(ValueError, match="learned for yavalath"):
        Searcher(game, s.biased_agent(10, base.content_hash))


def test_findings_quote_the_stored_numbers():
    """The discussion's numbers come from the store: the greedy Teeko range and the largest pruned gap, recomputed
    here from the evaluation frame, appear in the findings text."""
    folder = paths.RESULTS / s.NAME
    if not folder.is_dir():
        pytest.skip("no committed soemers2019 results")
    from ppalib.papers import soemers2019_report as report
    experiment = s.make_experiment(folder, "quick")
    frames = s.frames(experiment)
    text = s.findings(experiment, frames)
    rates = report.evaluation_rates(frames["evaluations"])
    teeko = rates[(rates["stage"] == "greedy") & (rates["variant"] == "Teeko")]
    assert f"{teeko['win_rate'].min():.1f}-{teeko['win_rate'].max():.1f}%" in text
    grown = report.final_rates(rates, "grown").set_index(["variant", "strategy"])["win_rate"]
    pruned = rates[rates["stage"] == "pruned"]
    gap = max(abs(r.win_rate - grown[(r.variant, r.strategy)]) for r in pruned.itertuples())
    assert f"by up to {gap:.1f} points" in text


def _finished_experiment(tmp_path, variant="Teeko", **overrides):
    """A smoke experiment whose ``variant`` Correlation-based run is 'finished' with a zero-weight atomic policy (no
    game played), so that its final-comparison cells exist (at a Ludii thinking time of 0.002 s unless
    ``overrides`` say otherwise)."""
    settings = dict(variants=[variant], strategies=["correlation_based"], handmade_games=0, ludii_seconds=[0.002])
    experiment = s.make_experiment(tmp_path, "smoke", **{**settings, **overrides})
    config = next(c for c in experiment.grown_configs())
    experiment.selfplay_dir.mkdir(parents=True)
    from ppalib.features.artefact import LinearPolicy
    from ppalib.training.selfplay import initial_feature_set
    game = config.make_game()
    policy = LinearPolicy.from_set(game, initial_feature_set(game), [0.0] * len(initial_feature_set(game)))
    policy.save(experiment.policies_dir)
    (experiment.selfplay_dir / f"{config.run_id}.json").write_text(json.dumps(
        {"games_done": config.games, "checkpoints": {str(config.games): policy.content_hash}}))
    return experiment


def test_final_cpu_seconds_bounds_this_calls_growth_on_top_of_what_earlier_sessions_spent(tmp_path, monkeypatch):
    import ppalib.until_decided as until_decided
    rules = []
    monkeypatch.setattr(until_decided, "run_until_decided", lambda exp, cells, undecided, rule, *a, **k:
                        rules.append(rule))
    s.run_final(_finished_experiment(tmp_path / "a"), "serial", progress=False)
    s.run_final(_finished_experiment(tmp_path / "b", final_cpu_seconds=60), "serial", progress=False)
    assert rules[0].cpu_seconds is None                       # no bound unless asked
    assert rules[1].cpu_seconds == 60.0                       # nothing grown yet: the session's 60 s
    monkeypatch.setattr(s, "final_growth_seconds", lambda experiment: 25.0)
    s.run_final(_finished_experiment(tmp_path / "c", final_cpu_seconds=60), "serial", progress=False)
    assert rules[2].cpu_seconds == 85.0                       # 25 s spent by earlier sessions, 60 s more now
    with pytest.raises(ValueError, match="final_cpu_seconds"):
        s.settings("budget", final_cpu_seconds=-1)


def test_yavalath_also_plays_at_the_papers_slowdowns_at_the_papers_budget(tmp_path):
    experiment = _finished_experiment(tmp_path, "Yavalath", handmade_games=2, ludii_seconds=[5.0, 2.5])
    cells = [(lab, c) for lab, c in experiment.final_conditions() if lab["stage"] == "final_paper_slowdown"]
    budget = s.budget_of("Yavalath", 5.0)
    got = {lab["strategy"]: (c.agent.playouts, c.opponent.playouts, c.agent.biased_playouts) for lab, c in cells}
    assert got == {"correlation_based": (round(budget / 8), budget, False),          # V-B: 8x
                   "handmade": (round(budget / 30), budget, True)}                   # V-D: 30x
    assert {lab["ludii_seconds"] for lab, _ in cells} == {5.0}                      # the paper's budget only
    from ppalib.papers.soemers2019_report import paper_slowdown
    assert paper_slowdown("Gomoku", "correlation_based") is None


def test_the_slowdown_inside_the_final_games_reads_each_games_first_two_moves(tmp_path):
    experiment = _finished_experiment(tmp_path, final_games=2)
    s.measure_final_slowdowns(experiment, progress=False)
    s.run_final(experiment, "serial", progress=False)
    table = s.in_game_slowdowns(experiment)
    assert set(table["stage"]) == {"final_equal_iterations", "final_equal_time"}   # not the greedy cells
    assert (table["games timed"] == 2).all() and (table["slowdown in the games"] > 0).all()
    games = experiment.store.load()
    row = table[table["stage"] == "final_equal_iterations"].iloc[0]
    cell = games[games["condition_id"] == next(c.id for lab, c in experiment.final_conditions()
                                               if lab["stage"] == "final_equal_iterations")]
    biased, uct = [], []
    for g in cell.itertuples():   # Biased MCTS moves at the agent's plies, UCT at the others
        t = [float(x) for x in g.move_seconds.split()]
        biased += [x / g.agent_playouts for x in t[g.agent_player::2][:2]]
        uct += [x / g.opponent_playouts for x in t[1 - g.agent_player::2][:2]]
    assert row["slowdown in the games"] == pytest.approx(sum(biased) / sum(uct))
    assert row["slowdown measured"] == pytest.approx(float(experiment.final_slowdowns()["slowdown"].iloc[0]))


def test_the_slowdown_parts_time_each_search_from_uct_to_biased_mcts(tmp_path):
    experiment = _finished_experiment(tmp_path)
    table = s.measure_slowdown_parts(experiment, seconds=0.002, repeats=1, label="t", progress=False)
    row = table.iloc[0]
    assert (row["variant"], row["budget"], row["label"]) == ("Teeko", s.budget_of("Teeko", 0.002), "t")
    for name in s.SLOWDOWN_PARTS:
        assert row[f"{name}_us"] > 0
    assert row["biased_vs_uct"] == pytest.approx(row["biased_us"] / row["uct_us"])
    again = s.measure_slowdown_parts(experiment, seconds=0.002, repeats=1, label="u", progress=False)
    assert list(again["label"]) == ["t", "u"]                             # appended: measures sit side by side
    from ppalib.papers import soemers2019_report as report
    table = report.slowdown_parts_table({"slowdown_parts": again}).iloc[0]
    assert table["measured"] == "u"                                        # the latest measure of a variant
    assert table["the search's factor"] * table["the features' factor"] == pytest.approx(table["slowdown"], rel=0.02)
    assert table["Ludii, newer matcher"] == "0.8-1.8"                      # Ludii's row for Teeko
    assert table["against Ludii's"] == ("below its range" if table["slowdown"] < 0.8 else "within its range"
                                        if table["slowdown"] <= 1.8 else "above its range")
    assert table["measured before"] == f"{again['biased_vs_uct'].iloc[0]:.2f} (t)"  # the measure it replaced
    assert [report._bounds_text(b) for b in [(1.1, 1.1), (2.8, 4.3), None]] == ["1.1", "2.8-4.3", "—"]


def test_final_grow_stages_and_seconds_choose_the_cells_a_call_grows(tmp_path, monkeypatch):
    import ppalib.until_decided as until_decided
    grown = []
    monkeypatch.setattr(until_decided, "run_until_decided", lambda exp, cells, *a, **k: grown.append(cells))
    full = _finished_experiment(tmp_path / "a")
    s.run_final(full, "serial", progress=False)
    s.run_final(_finished_experiment(tmp_path / "b", final_grow_stages=["final_greedy"]), "serial",
                progress=False)
    s.run_final(_finished_experiment(tmp_path / "c", final_grow_seconds=[1.0]), "serial", progress=False)
    by_stage = {lab["stage"]: c.id for lab, c in full.final_conditions()}
    assert set(grown[0]) == set(by_stage.values())                      # default: every final cell
    assert grown[1] == [by_stage["final_greedy"]]
    assert grown[2] == []                                               # no cell at 1 s
    plain = _finished_experiment(tmp_path / "d")
    chosen = _finished_experiment(tmp_path / "e", final_grow_stages=["final_greedy"], final_grow_seconds=[0.002])
    assert [c.id for _, c in plain.labelled_conditions()] == [c.id for _, c in chosen.labelled_conditions()]
    assert s.results_folder("budget", final_grow_stages=["final_equal_time"]) == s.budget_folder()
    with pytest.raises(ValueError, match="final_grow_stages"):
        s.settings("budget", final_grow_stages=["final_equal_times"])


def test_a_close_to_zero_greedy_cell_keeps_growing_until_its_interval_leaves_the_margin():
    cells = pd.DataFrame({"condition_id": ["g", "g2", "g3", "e"], "wins": [1.0, 0.0, 30.0, 8.0],
                          "games": [11, 100, 100, 16], "grown": [False, True, False, False]})
    undecided = s.final_undecided(cells, {"g": 0.0, "g2": 0.0, "g3": 0.0})
    # one win in 11: [0.2, 41.3], undecided; none in 100 (anytime-valid): below 10 points, decided; 30 in 100: above
    # it, decided; 8 in 16 against an even score: undecided
    assert undecided.tolist() == [True, False, False, True]


def test_final_cpu_seconds_changes_no_condition_id(tmp_path):
    plain = _finished_experiment(tmp_path / "a")
    bounded = _finished_experiment(tmp_path / "b", final_cpu_seconds=60)
    assert [c.id for _, c in plain.labelled_conditions()] == [c.id for _, c in bounded.labelled_conditions()]
    assert [c.id for _, c in plain.final_conditions()]
    assert s.final_growth_seconds(plain) == 0.0               # nothing stored: nothing spent


# ---- the budget run so far (the notebook's section, read from a partial store) ----------------------------------
def _partial_budget_store(folder, games_done=30):
    """A budget-preset store holding only an unfinished Teeko Correlation-based self-play record (checkpoints 1 and
    25 reached, zero-weight atomic policies) and a stage-times log: what a first session commits."""
    experiment = s.make_experiment(folder, "budget")
    config = next(c for c in experiment.grown_configs() if c.game == "teeko" and c.strategy == "correlation_based")
    from ppalib.features.artefact import LinearPolicy
    from ppalib.training.selfplay import initial_feature_set
    game = config.make_game()
    atomic = initial_feature_set(game)
    policy = LinearPolicy.from_set(game, atomic, [0.0] * len(atomic))
    policy.save(experiment.policies_dir)
    experiment.selfplay_dir.mkdir(parents=True)
    games = [{"game": i + 1, "features": len(atomic), "plies": 20, "seconds": 2.0, "winner": 0}
             for i in range(games_done)]
    (experiment.selfplay_dir / f"{config.run_id}.json").write_text(json.dumps(
        {"games_done": games_done, "checkpoints": {"1": policy.content_hash, "25": policy.content_hash},
         "config": {}, "games": games, "run_id": config.run_id}))
    pd.DataFrame([{"stage": "self-play, growing sets", "wall_seconds": 7200.0, "finished_at": "x", "machine": "m"}]
                 ).to_csv(folder / "stage_times.csv", index=False)
    return len(atomic)


def test_the_budget_run_status_of_an_absent_store_plans_everything_and_plays_nothing(tmp_path):
    from ppalib.papers import soemers2019_report as report
    run = s.budget_run(tmp_path / "absent")
    status = report.budget_run_status(run)
    assert not (tmp_path / "absent").exists()                           # reading creates nothing
    assert (status["progress"]["games stored"] == 0).all()
    assert status["progress"]["games planned"].sum() > 0
    # 5 s and 2.5 s: 16 searching cells (ten variants, the swap and 8-piece variants, the hand-made agent) plus
    # Gomoku's first checkpoint, and ten greedy cells
    # and, at 5 s only, Yavalath's learned and hand-made agents at the paper's slowdowns (8x, 30x)
    # (the greedy agent under every rule set too: 14 cells a thinking time)
    for stage, cells in (("final_equal_time", 34), ("final_equal_iterations", 34), ("final_greedy", 28),
                         ("final_paper_slowdown", 2)):
        table = status[stage]
        assert len(table) == cells and set(table["verdict"]) == {report.NOT_PLAYED}
    assert set(report.FINAL_STAGES) == set(s.FINAL)
    paper = status["final_paper_slowdown"].set_index("agent")
    assert paper.loc["Correlation-based, 200 games", "UCT iterations"] == s.budget_of("Yavalath", 5.0)
    assert "Nothing of the budget run is stored yet" in report.budget_findings(run)


def test_the_budget_run_status_reads_a_partial_store_without_writing_into_it(tmp_path):
    from ppalib.papers import soemers2019_report as report
    size = _partial_budget_store(tmp_path, games_done=30)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    run = s.budget_run(tmp_path)
    status = report.budget_run_status(run)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before   # no policy saved by reading
    row = status["progress"].set_index(["stage", "part"]).loc[("self-play, growing sets", "Correlation-based")]
    assert (row["games stored"], row["games planned"], row["done"], row["started"]) == (30, 2000, 0, 1)
    sizes = status["feature_sizes"].set_index("variant")
    assert sizes.loc["Teeko", "after 25 games"] == size and pd.isna(sizes.loc["Teeko", "after 50 games"])
    assert status["selfplay"].set_index("variant").loc["Teeko", "growing, Correlation-based"] == "30 / 200"
    assert status["stage_times"].set_index("stage").loc["total", "wall hours"] == 2.0
    text = report.budget_findings(run)
    assert f"Teeko {size} after 25 games" in text and "30 of 2,000 games" in text
    assert "not played yet" in text


def test_the_budget_final_tables_judge_stored_cells_and_mark_the_others_not_played(tmp_path):
    from ppalib.papers import soemers2019_report as report
    run = s.budget_run(tmp_path / "absent")
    budget = s.budget_of("Gomoku", 5.0)
    rows = [dict(variant="Gomoku", strategy="correlation_based", stage=stage, checkpoint=200, games=100, wins=95.0,
                 condition_id=f"g{stage}", ludii_seconds=5.0, budget=budget, biased_budget=budget // 4,
                 rules="default", grown=False) for stage in ("final_equal_time", "final_equal_iterations")]
    run["evaluations"] = pd.DataFrame(rows)
    for stage in ("final_equal_time", "final_equal_iterations"):
        table = report.budget_final_table(run, stage)
        gomoku = table[(table["variant"] == "Gomoku") & (table["Ludii seconds"] == 5.0)
                       & (table["agent"] == "Correlation-based, 200 games")].iloc[0]
        assert (gomoku["games"], gomoku["ours"], gomoku["paper"]) == (100, "higher", "level")
        assert gomoku["verdict"] == "not as the paper"
        from statsmodels.stats.proportion import proportion_confint
        low, high = proportion_confint(95, 100, method="beta")            # Clopper-Pearson, as the verdict's
        assert gomoku["95% interval"] == f"[{100 * low:.1f}, {100 * high:.1f}]"
        assert (table["verdict"] == report.NOT_PLAYED).sum() == len(table) - 1
    timed = report.budget_final_table(run, "final_equal_time")
    played = timed["games"] > 0
    assert timed.loc[played, "variant"].tolist() == ["Gomoku"]
    assert timed.loc[played, "Biased MCTS iterations"].iloc[0] == budget // 4
    assert timed["Biased MCTS iterations"].isna().sum() == len(timed) - 1  # no slowdown measured: not set yet


def test_the_paper_cost_grows_only_the_search_of_the_stored_games_to_ludiis_iterations(tmp_path):
    """Self-play at the paper's budget B: the stored game's seconds plus its plies x (B - 300) x the cost an
    iteration measured on final-comparison games; an evaluation game: their plies x B x that cost."""
    run = s.budget_run(tmp_path / "absent")
    runs = run["runs"].copy()
    grown = runs["stage"] == "growing"
    runs.loc[grown, ["games stored", "seconds a game", "plies a game"]] = [10, 3.0, 20.0]
    run["runs"] = runs
    per_iteration, plies = 1e-5, 30
    run["games"] = pd.DataFrame([{"condition_id": v, "game": g, "size": n, "plies": plies,
                                  "agent_playouts": s.budget_of(v), "opponent_playouts": s.budget_of(v),
                                  "seconds": plies * s.budget_of(v) * per_iteration}
                                 for v, (g, n) in s.VARIANTS.items()])
    cost = s.paper_cost_extrapolation(run)
    table = cost.set_index("stage")
    paper = s.settings("paper")
    selfplay = {v: 3.0 + 20 * (s.budget_of(v) - 300) * per_iteration for v in s.VARIANTS}
    evaluation = {v: plies * s.budget_of(v) * per_iteration for v in s.VARIANTS}
    assert table.loc["self-play, growing sets", "CPU hours"] == round(800 * sum(selfplay.values()) / 3600, 1)
    longest_run = 200 * max(selfplay.values()) / 3600
    assert table.loc["self-play, growing sets", "wall hours, 16 cores"] == round(
        max(800 * sum(selfplay.values()) / 3600 / 16, longest_run), 1)
    searching = (5 + 5) * 4 * paper["games_per_cell"]        # checkpoints and pruned checkpoints, four strategies
    greedy = 5 * 4 * paper["games_per_cell"]
    expected = sum(searching * e + greedy * e / 2 for e in evaluation.values()) + 200 * evaluation["Yavalath"]
    assert table.loc["evaluation", "CPU hours"] == round(expected / 3600, 1)
    assert cost.attrs["sources"] == {"final games": 10, "budget run": 10}
    # 16 agent and rule cells (10 default, 3 swap, 8-piece Teeko, the hand-made agent twice) and Gomoku's first
    # checkpoint, two tables, one 5 s; 14 greedy cells (every rule set) at half a game each
    # and Yavalath's two agents at the paper's slowdowns
    assert table.loc["final comparison (at its cap)", "games"] == (2 * 17 + 14 + 2) * paper["final_games"]
    rule_sets = (evaluation["Hex (7x7)"] + evaluation["Yavalath"] + evaluation["Hex (11x11)"] + evaluation["Teeko"])
    final = (2 * (sum(evaluation.values()) + rule_sets + 2 * evaluation["Yavalath"] + evaluation["Gomoku"])
             + (sum(evaluation.values()) + rule_sets) / 2 + 2 * evaluation["Yavalath"]) * paper["final_games"]
    assert table.loc["final comparison (at its cap)", "CPU hours"] == round(final / 3600, 1)


def test_claims_change_sets_the_watched_claims_first_and_never_calls_an_untested_claim_changed():
    from ppalib.papers import soemers2019_report as report

    def claims(verdicts):
        return pd.DataFrame([{"claim_id": c, "variant": v, "claim": f"{c} {v}", "ours": "x", "verdict": verdict}
                             for (c, v), verdict in verdicts.items()])
    before = claims({("significant_gain", "Othello"): "upheld", ("no_change", "Gomoku"): "not upheld",
                     ("significantly_worse", "Yavalath"): "not upheld",
                     ("greedy_competitive", "Breakthrough"): "higher than the paper"})
    after = claims({("significant_gain", "Othello"): "upheld", ("no_change", "Gomoku"): "upheld",
                    ("significantly_worse", "Yavalath"): "not upheld",
                    ("greedy_competitive", "Breakthrough"): report.NO_DATA})
    table = report.claims_change(before, after)
    assert [tuple(r) for r in table[["claim_id", "variant"]].to_numpy()[:3]] == list(report.WATCHED_CLAIMS)
    changed = table.set_index("variant")["changed"]
    assert changed.to_dict() == {"Gomoku": "yes", "Yavalath": "no", "Breakthrough": "not comparable yet",
                                 "Othello": "no"}
    # a claim with two rows for one variant (a win rate, then a slowdown) pairs them in order, not four ways
    twice = pd.DataFrame([{"claim_id": "pruned_yavalath_improved", "variant": "Yavalath", "claim": f"q{i}",
                           "ours": "x", "verdict": v} for i, v in enumerate(["upheld", "not upheld"])])
    again = report.claims_change(twice, twice.assign(verdict=["upheld", "upheld"]))
    assert list(again["changed"]) == ["no", "yes"] and list(again["claim"]) == ["q0", "q1"]


def test_the_notebook_setup_survives_a_ledger_of_grown_final_cells(tmp_path):
    """The final comparison's ledger (until_decided.csv) is read by ``frames``; ``prepare`` must not hand the staged
    experiment to ``until_decided.with_ledger`` (made for a plain Experiment), which failed once a cell grew beyond
    the count it mistook for the cell's (``FeatureBiasing.games_of`` counts self-play games)."""
    from ppalib.papers import prepare
    experiment = s.make_experiment(tmp_path, "budget")
    condition = experiment.conditions[0]
    (tmp_path / "until_decided.csv").write_text(f"condition_id,planned,games\n{condition.id},16,64\n")
    setup = prepare(s, "budget", results_dir=str(tmp_path))
    assert isinstance(setup.experiment, s.FeatureBiasing) and setup.results_dir == tmp_path


def _final_rows(cells):
    """Stored final-comparison cells (stage, variant, seconds, rules, games, wins) as ``budget_run`` evaluations."""
    return pd.DataFrame([dict(variant=v, strategy="correlation_based", stage=stage, checkpoint=200, games=g,
                              wins=float(w), condition_id=f"{stage}{v}{sec}{rules}", ludii_seconds=sec,
                              budget=s.budget_of(v, sec), biased_budget=s.budget_of(v, sec) // 2, rules=rules,
                              grown=False, policy="p")
                         for stage, v, sec, rules, g, w in cells])


def test_the_budget_sensitivity_says_whether_a_verdict_survives_half_the_budget(tmp_path):
    from ppalib.papers import soemers2019_report as report
    run = s.budget_run(tmp_path / "absent")
    run["evaluations"] = _final_rows([
        ("final_equal_time", "Breakthrough", 5.0, "default", 100, 90), ("final_equal_time", "Breakthrough", 2.5,
                                                                        "default", 100, 88),
        ("final_equal_time", "Othello", 5.0, "default", 100, 90), ("final_equal_time", "Othello", 2.5, "default",
                                                                   100, 20),
        ("final_equal_time", "Teeko", 5.0, "default", 100, 90)])
    table = report.budget_sensitivity(run)
    mine = table[(table["table"] == "equal time") & (table["rules"] == "default")].set_index("variant")
    assert mine.loc["Breakthrough", "same verdict"] == "yes"           # higher at both, as the paper
    assert mine.loc["Othello", "same verdict"] == "no"                 # higher at 5 s, lower at 2.5 s
    assert mine.loc["Teeko", "same verdict"] == "not decided"          # nothing at 2.5 s yet
    assert mine.loc["Othello", "Ludii 5 s"].startswith("90.0% of 100 games: higher")
    assert list(table.columns[-3:]) == ["Ludii 5 s", "Ludii 2.5 s", "same verdict"]


def test_the_budget_discrepancies_render_the_stored_cells_and_name_the_missing_ones(tmp_path):
    from ppalib.papers import soemers2019_report as report
    run = s.budget_run(tmp_path / "absent")
    assert report.budget_discrepancies(run).count(report.NOT_PLAYED) >= 4     # nothing stored: every cell named
    run["evaluations"] = _final_rows([("final_equal_time", "Yavalath", 5.0, "default", 32, 30),
                                      ("final_paper_slowdown", "Yavalath", 5.0, "default", 16, 4),
                                      ("final_greedy", "Knightthrough", 5.0, "default", 16, 14)])
    text = report.budget_discrepancies(run)
    assert "at equal time at Ludii 5 s 93.8% [79.2, 99.2] of 32 games (higher)" in text
    assert "over the paper's 8x slowdown 25.0%" in text and "Knightthrough 87.5%" in text


def test_the_budget_runs_final_policy_is_read_once_its_run_is_finished(tmp_path):
    assert s.budget_final_policy("Teeko", results_dir=tmp_path / "absent") is None
    _partial_budget_store(tmp_path, games_done=30)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert s.budget_final_policy("Teeko", results_dir=tmp_path) is None         # 30 of 200 games: not finished
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    committed = s.budget_final_policy("Yavalath")                               # the committed run's, finished
    assert committed is not None and (committed.game, committed.size) == ("yavalath", 5)


def test_the_paper_size_set_comparison_puts_ludii_ranges_beside_our_measures(tmp_path):
    """Ludii's ranges as text (one value where both ends agree), our measures one column per label."""
    table = s.grown_set_comparison(tmp_path)  # no measure of ours yet: Ludii's columns alone
    ranges = dict(zip(table["variant"], table["Ludii, newer matcher"]))
    assert ranges["Connect Four"] == "1.1" and ranges["Gomoku"] == "2.8-4.3"
    pd.DataFrame({"variant": ["Gomoku", "Gomoku"], "features": [221, 221], "slowdown": [2.5, 2.1],
                  "iterations": [30000, 30000], "biased_cpu_seconds": [2.0, 1.5], "label": ["a", "b"]}).to_csv(
        tmp_path / "grown_set_slowdowns.csv", index=False)
    row = s.grown_set_comparison(tmp_path).set_index("variant").loc["Gomoku"]
    assert (row["ours (a)"], row["ours (b)"], row["features (ours)"]) == (2.5, 2.1, 221)
    assert row["our Biased MCTS it/s"] == 20000.0  # the latest label's iterations per CPU second
