"""Paper 3 (Mehat & Vittaut 2013): which agent plays each point of Figures 1-4 and of the tree-reuse check, and
the tables the notebook draws from them."""
import pandas as pd
import pytest

from ppalib import paths
from ppalib.agents import RAVE
from ppalib.experiments import load_results
from ppalib.papers import adaptive_rave2013 as paper


@pytest.fixture(scope="module")
def quick_points():
    return paper.points(paper.settings("quick"))


def test_figure_1_without_rave_is_the_papers_player_with_rave_off(quick_points):
    """Not the PPA paper's UCT (unvisited moves first, in list order): the RAVE agent with rate 0 (untried moves
    scored at the maximum, random tie-break), at every playout count; the other series uses RAVE (k = 700)."""
    fig1 = quick_points[quick_points["figure"] == 1]
    assert set(fig1["series"]) == {"no_rave", "rave"}
    for row in fig1.itertuples():
        assert isinstance(row.agent, RAVE) and row.agent.kind == "rave" and row.agent.k_rave == 700
        assert row.agent.rave_rate == (0.0 if row.series == "no_rave" else 1.0)
        assert row.agent.playouts == row.x and not row.agent.adaptive and not row.agent.tree_reuse
    # at the figures' 2,000 playouts the point without RAVE is Figure 3's never-RAVE point, played once
    no_rave = fig1[(fig1["series"] == "no_rave") & (fig1["x"] == 2000)]["condition_id"].item()
    never = quick_points[(quick_points["figure"] == 3) & (quick_points["game"] == "blind_cashing_checks")
                         & (quick_points["x"] == 0.0)]["condition_id"].item()
    assert no_rave == never


def test_figure_4_has_both_readings_of_the_margin_sharing_the_point_at_zero(quick_points):
    fig4 = quick_points[quick_points["figure"] == 4]
    for game in paper.GAMES:
        both = fig4[(fig4["game"] == game) & (fig4["series"] == "adaptive")].set_index("x")
        optimism = fig4[(fig4["game"] == game) & (fig4["series"] == "adaptive_optimism")].set_index("x")
        assert list(both.index) == list(optimism.index) == paper.FULL_GRID["margin"]
        assert all(a.adaptive and a.margin_both_sides for a in both["agent"])
        assert both.loc[0.0, "condition_id"] == optimism.loc[0.0, "condition_id"]  # the same rule at m = 0
        for margin in paper.FULL_GRID["margin"][1:]:
            agent = optimism.loc[margin, "agent"]
            assert agent.adaptive and agent.margin == margin and not agent.margin_both_sides
            assert optimism.loc[margin, "condition_id"] != both.loc[margin, "condition_id"]


def test_tree_reuse_check_plays_the_headline_settings_with_the_tree_emptied_and_kept(quick_points):
    fig5 = quick_points[quick_points["figure"] == 5]
    assert len(fig5) == 2 * 2 * 2 * 3  # games x playouts (2,000, 4,000) x tree emptied/kept x never/always/adaptive
    assert set(fig5["x"]) == {2000, 4000}
    for row in fig5.itertuples():
        assert row.agent.tree_reuse == row.series.endswith("_reuse") and row.agent.playouts == row.x
    # the tree-emptied cells at 2,000 playouts are Figure 3's and Figure 4's points (no game played twice)
    emptied = fig5[(fig5["x"] == 2000) & ~fig5["series"].str.endswith("_reuse")]
    assert set(emptied["condition_id"]) <= set(quick_points[quick_points["figure"].isin([3, 4])]["condition_id"])


def test_every_point_of_the_committed_preset_is_stored_and_the_tables_read_it():
    """The committed quick run holds 200 matches for every point, so the notebook plays nothing."""
    s = paper.settings("quick")
    experiment = paper.make_experiment(paths.ROOT / "data" / "results" / paper.NAME, "quick")
    frame = load_results(experiment)
    counts = frame.groupby("condition_id").size()
    assert len(counts) == len(experiment.conditions) and (counts == s["matches"]).all()
    table = paper.figure_table(frame, s)
    readings = paper.margin_readings(table)
    assert len(readings) == 2 * len(paper.FULL_GRID["margin"])
    zero = readings[readings["margin"] == 0]
    assert (zero["margin on both tests"] == zero["margin on optimism only"]).all()
    reuse = paper.tree_reuse_table(table)
    assert len(reuse) == 12 and (reuse["tree reused"] != "").all()
    blind_4000 = reuse[(reuse["game"] == "Blind Cashing Checks") & (reuse["playouts"] == 4000)
                       & (reuse["paper (2,000 playouts)"] != "—")]
    assert set(blind_4000["tree emptied vs paper"]) == {"reproduced"}  # inside the margin of both paper values
    pd.testing.assert_series_equal(table[table["figure"] == 1]["matches"].reset_index(drop=True),
                                   pd.Series([s["matches"]] * 14, name="matches"), check_dtype=False)


def test_first_mistake_ply_replays_each_match_through_the_exact_solver():
    """Blind Cashing Checks (20 checks, 10 turns): taking the largest check left is always optimal, so the line
    19, 18, ... has no mistake; taking 18 before 19 at the first ply is one, at ply 1."""
    import json
    import numpy as np
    common = {"game": "blind_cashing_checks", "size": 20, "game_options": json.dumps({"komi": 5, "turns": 10})}
    frame = pd.DataFrame([{**common, "moves": " ".join(str(m) for m in range(19, 9, -1))},
                          {**common, "moves": " ".join(str(m) for m in [18, 19, 17, 16, 15, 14, 13, 12, 11, 10])},
                          {**common, "moves": " ".join(str(m) for m in [19, 18, 16, 17, 15, 14, 13, 12, 11, 10])}])
    plies = paper.first_mistake_ply(frame)
    assert np.isnan(plies[0]) and plies[1] == 1 and plies[2] == 3
    assert list(paper.label_optimal(frame)) == [True, False, False]


def _cell(figure, game, series, x, draws, matches=200):
    return {"figure": figure, "game": game, "series": series, "x": x, "condition_id": f"{figure}-{game}-{series}-{x}",
            "matches": matches, "optimal_draws": draws, "rate": 100 * draws / matches}


def test_findings_say_whether_adaptive_rave_is_level_with_the_better_fixed_choice_by_fishers_test():
    """Stale-dated as committed: adaptive 175/200 against never RAVE 188/200 (Fisher p = 0.037) is "significantly
    below", not "next to", the better fixed choice; Blind's 160 against 159 is "not significantly different"."""
    rows = [_cell(3, "stale_cashing_checks", "rave_rate", 0.0, 188), _cell(3, "stale_cashing_checks", "rave_rate", 1.0, 114),
            _cell(4, "stale_cashing_checks", "adaptive", 0.0, 175),
            _cell(3, "blind_cashing_checks", "rave_rate", 0.0, 56), _cell(3, "blind_cashing_checks", "rave_rate", 1.0, 159),
            _cell(4, "blind_cashing_checks", "adaptive", 0.0, 160)]
    text = paper.findings(pd.DataFrame(columns=["condition_id"]), pd.DataFrame(rows))
    assert ("**Adaptive RAVE (margin 0), Cashing Stale-dated Checks**: 87.5%, significantly below the better fixed "
            "choice, never RAVE, 94.0% (p = 0.037), and significantly above the worse, always RAVE, 57.0%") in text
    assert ("**Adaptive RAVE (margin 0), Blind Cashing Checks**: 80.0%, not significantly different from the better "
            "fixed choice, always RAVE, 79.5% (p = 1)") in text
