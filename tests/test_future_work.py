"""Notebook 05 (the papers' future work): its grid, its statistics on hand-made games, and its smoke preset end to
end."""
import json
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from ppalib.agents import NODE_PLAYOUTS
from ppalib.papers import future_work as fw
from ppalib.papers import prepare

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def quick_cells():
    return fw.cells(fw.settings("quick"))


def test_each_agent_plays_at_cazenave_2016s_best_alpha_against_uct_first_on_ties():
    best = fw.best_settings().set_index(["game", "algorithm"])["value"]
    assert len(best) == 16
    # Tables 2, 7, 8 and 10 (Breakthrough, Knightthrough, Misere Knightthrough, Nogo): PPAF's best cells; Misere
    # Knightthrough's PPAF reaches 100% at several alphas, the first in the table's order is 0.32.
    assert best["breakthrough", "ppaf"] == 0.32 and best["knightthrough", "ppaf"] == 0.64
    assert best["misere_knightthrough", "ppaf"] == 0.32 and best["nogo", "ppaf"] == 0.16
    assert best["nogo", "ppa"] == 0.02 and best["domineering", "ppa"] == 0.04


def test_each_comparison_against_ppaf_changes_only_what_it_tests(quick_cells):
    best = fw.best_settings().set_index(["game", "algorithm"])["value"]
    vs = quick_cells[quick_cells["part"].isin(["grave", "kept_policy"])]
    assert len(vs) == 8 * 3 * 2 and set(vs["game"]) == set(fw.GAMES) and set(vs["x"]) == {1000, 10000}
    for row in vs.itertuples():
        opponent = row.opponent
        assert opponent.kind == "ppaf" and opponent.alpha == best[row.game, "ppaf"] and opponent.playouts == row.x
        assert not opponent.grave and not opponent.keep_policy and row.size == 8
        changed = {k: v for k, v in row.agent.as_dict().items() if opponent.as_dict().get(k) != v}
        if row.series == "ppaf_grave":
            assert changed == {"grave": True, "grave_ref": 50.0, "grave_bias": 1e-5}
        elif row.series == "ppaf_kept":
            assert changed == {"keep_policy": True}
        else:  # PPA+GRAVE: the codes without context, PPA's own alpha, and GRAVE
            assert row.agent.kind == "ppa" and row.agent.alpha == best[row.game, "ppa"] and row.agent.grave
    assert fw.cells(fw.settings("paper"))["x"].dropna().pipe(set) >= {1000, 10000}


def test_quick_plays_100_games_a_cell_at_1000_playouts_20_at_10000_and_100_cashing_checks_matches(tmp_path):
    experiment = fw.make_experiment(tmp_path, "quick")
    grid = fw.cells(fw.settings("quick")).drop_duplicates("condition_id")
    games = {cid: experiment.games_of(c) for cid, c in zip(grid["condition_id"], grid["condition"])}
    expected = [20 if x == 10000 else 100 for x in grid["x"].where(grid["part"].isin(["grave", "kept_policy"]))]
    assert list(games.values()) == expected and expected.count(20) == 24
    with pytest.raises(ValueError, match="must be one number, or one per entry of playouts"):
        fw.settings("quick", games_per_cell=[100, 20, 5])


def test_adaptive_rave_part_plays_self_play_settings_and_per_node_against_root_only(quick_cells):
    rave = quick_cells[quick_cells["part"] == "adaptive_rave"]
    for game, (size, options) in fw.RAVE_GAMES.items():
        cells = rave[rave["game"] == game]
        assert list(cells["series"]) == ["never", "always", "root", "node", "node", "node"]
        assert [a is o or a == o for a, o in zip(cells["agent"], cells["opponent"])] == [True] * 6  # self-play
        playouts = 10000 if game == "sum_cashing_checks" else 2000
        assert {a.playouts for a in cells["agent"]} == {playouts} and set(cells["size"]) == {size}
        nodes = cells[cells["series"] == "node"]
        assert [a.node_playouts for a in nodes["agent"]] == [10.0, 50.0, 200.0]
        assert all(a.adaptive_per_node and a.margin == 0 and a.k_rave == 700 for a in nodes["agent"])
        root = cells[cells["series"] == "root"]["agent"].item()
        assert root.adaptive and not root.adaptive_per_node
        match = quick_cells[(quick_cells["part"] == "node_vs_root") & (quick_cells["game"] == game)].iloc[0]
        assert match.agent.node_playouts == NODE_PLAYOUTS and match.opponent == root
    assert quick_cells["condition_id"].is_unique


def test_bad_parameters_are_refused_naming_them():
    with pytest.raises(ValueError, match="games='chess' is unknown"):
        fw.settings("quick", games="chess")
    with pytest.raises(ValueError, match="rave_games=.*is unknown"):
        fw.settings("quick", rave_games=["go"])
    with pytest.raises(ValueError, match=r"node_playouts=-1 is out of range"):
        fw.settings("quick", node_playouts=[-1])
    with pytest.raises(ValueError, match="'matches' is not a parameter of notebook 05_future_work"):
        prepare(fw, "smoke", matches=3)
    assert fw.settings("quick", games="nogo")["games"] == ["nogo"]


def _games(condition_id, results):
    return [{"condition_id": condition_id, "agent_result": r} for r in results]


def test_matches_table_on_hand_made_games_counts_draws_as_half_and_tests_decisive_games():
    """Three cells of the quick grid with hand-made results: 70 wins in 100 (sign test p = 7.9e-5: better), 40 wins
    and 60 losses (p = 0.057: not significant), and 10 wins, 85 draws, 5 losses (win rate 52.5%; 10 vs 5 decisive:
    p = 0.30)."""
    s = fw.settings("quick")
    grid = fw.cells(s)
    a, b = grid[grid["part"] == "grave"]["condition_id"].iloc[:2]
    c = grid[grid["part"] == "node_vs_root"]["condition_id"].iloc[0]
    frame = pd.DataFrame(_games(a, [1.0] * 70 + [0.0] * 30) + _games(b, [1.0] * 40 + [0.0] * 60)
                         + _games(c, [1.0] * 10 + [0.5] * 85 + [0.0] * 5))
    table = fw.matches_table(frame, s).set_index("condition_id")
    assert table.loc[a, "verdict"] == fw.BETTER and table.loc[a, "p_value"] == pytest.approx(7.85e-5, rel=0.01)
    assert table.loc[b, "verdict"] == fw.UNDECIDED and table.loc[b, "p_value"] == pytest.approx(0.0569, rel=0.01)
    assert table.loc[b, "games_to_decide"] > 100 and table.loc[c, "verdict"] == fw.UNDECIDED
    assert table.loc[c, "rate"] == 52.5 and table.loc[c, "draws"] == 85
    assert table.loc[c, "p_value"] == pytest.approx(0.3018, rel=0.01)
    assert 60.0 < table.loc[a, "ci_low"] < 70.0 < table.loc[a, "ci_high"] < 80.0
    assert fw.sign_test(0, 12) == (pytest.approx(2 * 0.5 ** 12), fw.WORSE)
    layout = fw.vs_ppaf_layout(table.reset_index(), "grave")
    games = int(table.loc[a, "games"])
    assert list(layout.index) == ["Atarigo"] and layout.iloc[0, 1].endswith(f"▲ ({games})")
    assert "games a cell" not in layout.columns  # each cell carries its own count: grown cells differ


def test_optimal_draws_table_labels_matches_with_the_solver_and_tests_against_root_only():
    """Blind Cashing Checks: 10 matches along the optimal line (every check the largest left) for the root-only
    cell, 10 with a mistake for the never-RAVE cell: 100% against 0%, Fisher p = 1.1e-5, "fewer"."""
    s = fw.settings("quick", rave_games=["blind_cashing_checks"])
    grid = fw.cells(s)
    cell = {r.series: r.condition_id for r in grid[grid["part"] == "adaptive_rave"].itertuples() if r.series != "node"}
    optimal = " ".join(str(m) for m in range(19, 9, -1))
    mistake = " ".join(str(m) for m in [18, 19, 17, 16, 15, 14, 13, 12, 11, 10])
    common = {"game": "blind_cashing_checks", "size": 20, "game_options": json.dumps({"komi": 5, "turns": 10})}
    frame = pd.DataFrame([{**common, "condition_id": cell["root"], "moves": optimal, "agent_result": 0.5}] * 10
                         + [{**common, "condition_id": cell["never"], "moves": mistake, "agent_result": 0.5}] * 10)
    table = fw.optimal_draws_table(frame, s).set_index("series")
    assert table.loc["root", "optimal_draws"] == 10 and table.loc["never", "optimal_draws"] == 0
    assert table.loc["never", "vs_root"] == fw.FEWER and table.loc["never", "p_vs_root"] == pytest.approx(1.08e-5,
                                                                                                       rel=0.01)
    layout = fw.optimal_draws_layout(table.reset_index())
    assert layout.loc["never RAVE", "Blind"].endswith("▼") and layout.loc["matches a cell", "Blind"] == "10"
    assert "optimal draws never RAVE 0.0%" in fw.findings(fw.matches_table(frame, s), table.reset_index())


def test_matches_table_keeps_the_mean_plies_a_game_and_the_layout_shows_them():
    s = fw.settings("quick")
    grid = fw.cells(s)
    a = grid[(grid["part"] == "kept_policy") & (grid["game"] == "atarigo")]["condition_id"].iloc[0]
    frame = pd.DataFrame([{"condition_id": a, "agent_result": r, "plies": n} for r, n in [(1.0, 10), (0.0, 13)]])
    table = fw.matches_table(frame, s)
    assert table.loc[0, "plies"] == 11.5
    assert fw.vs_ppaf_layout(table, "kept_policy").loc["Atarigo", "plies a game"] == 11.5


def test_rank_correlation_is_spearmans_rho_with_an_exact_permutation_p():
    # Four values in the same order: rho 1, and 2 of the 4! = 24 orderings (this one and its reverse) as extreme.
    assert fw.rank_correlation([1, 2, 3, 4], [10, 20, 30, 40]) == (pytest.approx(1.0), pytest.approx(2 / 24))
    rho, p_value = fw.rank_correlation([3, 1, 2, 5, 4], [30, 10, 20, 50, 40])
    assert rho == pytest.approx(1.0) and p_value == pytest.approx(2 / 120)
    assert all(np.isnan(fw.rank_correlation([1, 1, 1], [1, 2, 3])))


def _vs_ppaf_rows(verdicts, rates):
    return [{"part": "kept_policy", "series": "ppaf_kept", "x": 1000.0, "game": f"game{i}", "title": f"Game {i}",
             "rate": rate,
             "verdict": verdict, "games": 100, "plies": 10.0 * (i + 1), "score": rate,
             "p_value": 0.01 if verdict in (fw.BETTER, fw.WORSE) else 0.5}
            for i, (verdict, rate) in enumerate(zip(verdicts, rates))]


def _draws_rows(game, rates, verdicts):
    settings_ = [("never", np.nan, "never RAVE"), ("always", np.nan, "always RAVE"),
                 ("root", np.nan, "adaptive at the root"), ("node", 10.0, "adaptive per node (> 10 playouts)"),
                 ("node", 50.0, "adaptive per node (> 50 playouts)"),
                 ("node", 200.0, "adaptive per node (> 200 playouts)")]
    return [{"game": game, "series": series, "x": x, "setting": setting, "rate": rate, "optimal_draws": rate,
             "games": 100, "playouts": 2000, "vs_root": verdict,
             "p_vs_root": np.nan if series == "root" else 0.01 if verdict in (fw.MORE, fw.FEWER) else 0.5}
            for (series, x, setting), rate, verdict in zip(settings_, rates, verdicts)]


def test_findings_read_naturally_when_a_verdict_has_no_cell():
    """No "none" and no "in 0": a verdict without cells is left out, and thresholds are grouped by verdict."""
    ns = fw.NOT_SIGNIFICANT
    matches = pd.DataFrame(_vs_ppaf_rows([fw.BETTER, fw.BETTER, fw.BETTER, fw.WORSE], [70, 80, 90, 30]))
    draws = pd.DataFrame(_draws_rows("blind_cashing_checks", [30, 80, 80, 60, 75, 90],
                                     [fw.FEWER, ns, "", fw.FEWER, ns, fw.MORE])
                         + _draws_rows("sum_cashing_checks", [30, 30, 30, 35, 35, 35], [ns, ns, "", ns, ns, ns]))
    text = fw.findings(matches, draws)
    assert "none" not in text and " in 0" not in text and "threshold(s)" not in text
    assert ("significantly better in 3 (Game 0 70.0%, Game 1 80.0%, Game 2 90.0%), worse in 1 (Game 3 30.0%); "
            "mean win rate 67.5%.") in text
    assert "Spearman rho = -0.20 (exact permutation p = 0.92)" in text  # 22 of the 24 orderings
    assert ("Per node against root-only (Fisher's exact test): significantly more optimal draws at threshold > 200; "
            "significantly fewer optimal draws at threshold > 10; no significant difference at threshold > 50.") in text
    assert "The better fixed choice is always RAVE (Fisher p = " in text
    assert ("Neither fixed choice is significantly better (Fisher p = 1 between never and always RAVE). Per node "
            "against root-only (Fisher's exact test): no significant difference at thresholds > 10, > 50 and > 200.") in text
    matches = pd.DataFrame(_vs_ppaf_rows([fw.UNDECIDED, fw.SAME], [50, 55]))
    assert ("within the margin: it lies inside 50 ± 10 points): none significantly better or worse of the 2 (within "
            "the margin of an even match in 1; undecided in 1); mean win rate 52.5%.") in fw.findings(matches,
                                                                                              draws.iloc[:0])


_NO_MATCHES = pd.DataFrame(columns=["part", "series", "x", "game", "title", "rate", "verdict", "games", "plies", "score",
                                    "p_value"])
_NO_DRAWS = pd.DataFrame(columns=["game", "series", "x", "setting", "rate", "optimal_draws", "games", "playouts",
                                  "vs_root", "p_vs_root"])


def test_findings_name_a_better_fixed_choice_only_when_fishers_test_decides_it():
    """29 against 34 optimal draws of 100 (the committed sum game's never and always RAVE: Fisher p = 0.54) names
    no better choice; 30 against 80 does."""
    ns = fw.NOT_SIGNIFICANT
    undecided = pd.DataFrame(_draws_rows("sum_cashing_checks", [29, 34, 31, 45, 38, 40], [ns, ns, "", ns, ns, ns]))
    text = fw.findings(_NO_MATCHES, undecided)
    assert "better fixed choice" not in text
    assert "Neither fixed choice is significantly better (Fisher p = 0.54 between never and always RAVE)." in text
    decided = pd.DataFrame(_draws_rows("sum_cashing_checks", [30, 80, 31, 45, 38, 40], [ns, ns, "", ns, ns, ns]))
    assert "The better fixed choice is always RAVE (Fisher p = " in fw.findings(_NO_MATCHES,
                                                                                decided)


def test_findings_count_per_node_cells_in_each_direction_and_after_holms_correction():
    """Three per-node cells below root-only, two at p = 0.01: with Holm over the six per-node cells of two games
    (0.01 x 6 = 0.06) none remains significant."""
    ns, fewer = fw.NOT_SIGNIFICANT, fw.FEWER
    draws = pd.DataFrame(_draws_rows("blind_cashing_checks", [30, 80, 80, 60, 75, 70], [ns, ns, "", fewer, ns, fewer])
                         + _draws_rows("stale_cashing_checks", [90, 60, 80, 85, 90, 70], [ns, ns, "", ns, ns, ns]))
    text = fw.findings(_NO_MATCHES, draws)
    assert ("**Per node against root-only, Blind**: per node below root-only at all 3 thresholds; 2 significant at "
            "5%, 0 of them after Holm's correction over all 6 per-node cells") in text
    assert ("**Per node against root-only, Stale-dated**: per node below root-only at 1 of its 3 thresholds and "
            "above root-only at 2 of its 3 thresholds; no cell significant at 5%.") in text


def test_findings_say_which_board_game_verdicts_survive_holms_correction_and_which_cells_change_with_the_budget():
    rows = _vs_ppaf_rows([fw.BETTER] * 3 + [fw.UNDECIDED], [90, 80, 70, 50])
    for row, p_value in zip(rows, [1e-6, 1e-5, 0.03, 0.5]):
        row["p_value"] = p_value
    text = fw.findings(pd.DataFrame(rows), _NO_DRAWS)
    assert ("3 of the 4 board-game cells differ from PPAF at 5% (better or worse; about 0.2 expected by chance alone "
            "if no agent differed); with Holm's correction of their sign tests' p (anytime-valid for a cell grown "
            "until decided) over these 4 cells 2 remain (not: PPAF, policy kept at Game 2, 70.0%, p = 0.03).") in text
    high = [{**row, "x": 10000.0, "games": 20, "rate": r, "score": r / 5} for row, r in zip(rows, [90, 20, 70, 50])]
    text = fw.findings(pd.DataFrame(rows + high), _NO_DRAWS)
    assert "**PPAF, policy kept, 1,000 against 10,000 playouts** (Fisher's exact test between the budgets; where " \
           "a cell was grown until decided, the difference of the two cells' 97.5% intervals, anytime-valid for " \
           "it): changed at Game 1 80.0% -> 20.0% (p = " in text
    assert "; 3 games without a significant change." in text


def test_a_grown_cell_is_compared_across_budgets_by_its_anytime_interval_not_fishers_test():
    """Game 0: 90 of 100 at 1,000 playouts against 14 of 20 at 10,000 (70%): Fisher's exact test finds the change
    (p = 0.03); when the 10,000-playout cell was grown until decided, its anytime-valid interval does not."""
    from scipy.stats import fisher_exact
    from ppalib.report import interval_difference_p
    rows = _vs_ppaf_rows([fw.BETTER], [90])
    high = [{**rows[0], "x": 10000.0, "games": 20, "rate": 70.0, "score": 14.0}]
    assert fisher_exact([[90, 10], [14, 6]]).pvalue < 0.05
    text = fw.findings(pd.DataFrame(rows + high), _NO_DRAWS)
    assert "changed at Game 0 90.0% -> 70.0%" in text
    grown = [{**high[0], "grown": True}]
    text = fw.findings(pd.DataFrame([{**rows[0], "grown": False}] + grown), _NO_DRAWS)
    assert "changed at" not in text and interval_difference_p(90.0, 100, False, 14.0, 20, True) >= 0.05


def test_the_figure_draws_cells_at_0_and_100_percent():
    """A 20-of-20 cell has a Wilson upper bound equal to its rate up to rounding (a -1e-14 error bar, which
    matplotlib refuses): the committed quick run has such cells at 10,000 playouts."""
    import matplotlib
    matplotlib.use("Agg")
    from ppalib.report import wilson_interval
    rows = []
    for wins, series in ((20, "ppaf_grave"), (0, "ppa_grave"), (11, "ppaf_kept")):
        low, high = (float(v[0]) for v in wilson_interval(np.array([wins]), np.array([20])))
        rows.append({"part": fw.VS_PPAF[series][1], "series": series, "x": 10000.0, "title": "Nogo",
                     "rate": 100 * wins / 20, "ci_low": low, "ci_high": high})
    draws = pd.DataFrame(_draws_rows("blind_cashing_checks", [0, 100, 80, 60, 75, 90], [""] * 6))
    draws["ci_low"], draws["ci_high"] = wilson_interval(draws["rate"], draws["games"])
    figure = fw.plot(pd.DataFrame(rows), draws)
    assert len(figure.axes) == 2


def test_the_smoke_preset_of_notebook_05_runs_end_to_end(tmp_path):
    """papermill at the smoke preset into a temporary folder: every cell runs, every table and the figure are
    written, the findings name each game of the grid."""
    import papermill
    source = ROOT / "notebooks" / "05_future_work.ipynb"
    papermill.execute_notebook(str(source), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False,
                               cwd=str(ROOT / "notebooks"),
                               parameters={"preset": "smoke", "results_dir": str(tmp_path / "r"),
                                           "figures_dir": str(tmp_path / "f"), "executor": "serial"})
    executed = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    assert all(cell.execution_count for cell in executed.cells if cell.cell_type == "code")
    written = {p.name for p in (tmp_path / "f").iterdir()}
    assert {"grave_vs_ppaf.md", "kept_policy_vs_ppaf.md", "optimal_draws.md", "node_vs_root.md", "findings.md",
            "future_work.png", "future_work.svg"} <= written
    findings = (tmp_path / "f" / "findings.md").read_text()
    for name in ("PPA+GRAVE", "PPAF+GRAVE", "PPAF, policy kept", "Blind", "Stale-dated", "Blind + Stale-dated"):
        assert f"**{name}" in findings or f"Head to head, {name}" in findings, name
    stored = pd.concat(pd.read_parquet(p) for p in (tmp_path / "r").glob("part-*.parquet"))
    assert len(stored) == 2 * len(fw.cells(fw.settings("smoke"))) and np.isin(stored["agent_result"], [0, 0.5, 1]).all()


def test_the_engine_check_plays_parts_1_and_2_of_the_four_games_at_the_other_engine_at_the_smallest_budget(tmp_path):
    s = fw.settings("quick")
    check = fw.engine_check_experiment(tmp_path / "future_work", s)
    assert check.results_dir == tmp_path / "future_work_engine_check" and check.seed == s["seed"]
    assert {c.game for c in check.conditions} == {"atarigo", "domineering", "misere_domineering", "nogo"}
    assert len(check.conditions) == 12
    assert {c.agent.playouts for c in check.conditions} == {1000} and check.games_per_condition == 100
    assert all(c.agent.playout_engine == 2 and c.opponent.playout_engine == 2 for c in check.conditions)
    grid = fw.make_experiment(tmp_path / "future_work", "quick")
    from ppalib.experiments import at_engine_one
    assert {at_engine_one(c).id for c in check.conditions} <= {c.id for c in grid.conditions}
    assert fw.engine_check_experiment(tmp_path, {**s, "engine_check_games": 0}) is None
    assert fw.engine_check_experiment(tmp_path, {**s, "games": ["breakthrough"]}) is None
    # the paper preset plays engine 2 already: no check
    assert fw.engine_check_experiment(tmp_path, fw.settings("paper")) is None
