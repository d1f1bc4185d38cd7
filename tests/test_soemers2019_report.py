"""Notebook 04's reading side (ppalib.papers.soemers2019_report) on synthetic frames: the figures build for full
and partial data, the claims table's verdicts flip with the data, and the transcribed claims file is all used."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from ppalib import paths  # noqa: E402
from ppalib.papers import soemers2019_report as r  # noqa: E402

GROWN, PRUNED = [1, 5, 10], [0, 5]


def _row(variant, strategy, stage, checkpoint, wins, games=200):
    return dict(variant=variant, strategy=strategy, stage=stage, checkpoint=checkpoint, games=games,
                wins=float(wins), condition_id=f"{variant}/{strategy}/{stage}/{checkpoint}")


def evaluations(final_wins=None, default=110, variants=r.VARIANTS, stages=("grown", "pruned", "greedy", "handmade")):
    """Every condition at ``default`` wins of 200, except ``final_wins[(variant, stage, strategy)]`` at the final
    checkpoint (strategy None: every strategy)."""
    final_wins = final_wins or {}
    rows = []
    for variant in variants:
        for strategy in r.STRATEGIES:
            for stage, checkpoints in (("grown", GROWN), ("pruned", PRUNED), ("greedy", GROWN)):
                if stage not in stages or (stage == "greedy" and variant not in ("Breakthrough", "Teeko")):
                    continue
                for c in checkpoints:
                    wins = default
                    if c == checkpoints[-1]:
                        wins = final_wins.get((variant, stage, strategy),
                                              final_wins.get((variant, stage, None), default))
                    rows.append(_row(variant, strategy, stage, c, wins))
    if "handmade" in stages and "Yavalath" in variants:
        rows.append(_row("Yavalath", "handmade", "handmade", 0, final_wins.get(("Yavalath", "handmade", None), 186)))
    return pd.DataFrame(rows)


def slowdowns(values=None, variants=r.VARIANTS):
    values = values or {}
    rows = []
    for i, variant in enumerate(variants):
        for stage in ("grown", "pruned"):
            for strategy in r.STRATEGIES:
                s = values.get((variant, stage), 1.5 + i * 0.5 if stage == "grown" else 1.2)
                rows.append(dict(variant=variant, stage=stage, strategy=strategy, uct_iterations=1000.0,
                                 biased_iterations=1000.0 / s, slowdown=s))
    if "Yavalath" in variants:
        s = values.get(("Yavalath", "handmade"), 30.0)
        rows.append(dict(variant="Yavalath", stage="handmade", strategy="handmade", uct_iterations=1000.0,
                         biased_iterations=1000.0 / s, slowdown=s))
    return pd.DataFrame(rows)


def verdict(table, claim_id, variant=None, quantity_index=0):
    rows = table[(table["claim_id"] == claim_id) & ((table["variant"] == variant) if variant else True)]
    return rows["verdict"].iloc[quantity_index]


# ---- the transcribed claims -----------------------------------------------------------------------------------
def test_the_claims_file_loads_and_every_claim_it_lists_is_tested():
    paper = r.paper_claims()
    assert list(paper.columns) == ["claim_id", "variant", "quantity", "paper_value", "paper_words", "source"]
    assert {"design", "significant_gain", "handmade_win_rate"} <= set(paper["claim_id"])
    table = r.claims_table(evaluations(), slowdowns())
    assert set(table["claim_id"]) == set(paper["claim_id"]) - {"design"}
    assert len(table) == (paper["claim_id"] != "design").sum()
    # the design rows phrase the claims: the paper's 200 games, 15 features, hand-made weights
    assert table["claim"].str.contains("after 200 self-play games").any()
    assert table["claim"].str.contains("15 features").any()
    assert table["claim"].str.contains(r"\+3000, -1000").any()
    numbers = paper.set_index(["claim_id", "quantity", "variant"])["paper_value"]
    assert numbers[("handmade_win_rate", "win_rate", "Yavalath")] == 93
    assert numbers[("handmade_slowdown", "slowdown", "Yavalath")] == 30
    assert numbers[("slowdown_worst", "slowdown", "Yavalath")] == 8
    assert numbers[("greedy_competitive", "best_win_rate", "Teeko")] == 40
    assert sorted(paper.loc[paper["quantity"] == "grown_checkpoint", "paper_value"]) == [1, 25, 50, 100, 200]
    assert (paths.PAPER_DATA / "README.md").read_text().count(r.CLAIMS_FILE) >= 1


def test_no_data_leaves_every_claim_untested():
    table = r.claims_table(None, None)
    assert set(table.columns) >= {"claim", "paper", "ours", "test", "verdict"}
    assert (table["verdict"] == r.NO_DATA).all()
    empty = r.claims_table(evaluations().iloc[:0], slowdowns().iloc[:0])
    assert (empty["verdict"] == r.NO_DATA).all()


def test_missing_columns_are_named():
    with pytest.raises(ValueError, match="wins"):
        r.claims_table(evaluations().drop(columns="wins"), slowdowns())


# ---- verdicts flip with the data ------------------------------------------------------------------------------
def test_significant_gain_needs_the_best_strategy_significantly_above_half():
    gain = r.claims_table(evaluations({("Breakthrough", "grown", "combine_max"): 150}, default=100), slowdowns())
    row = gain[(gain["claim_id"] == "significant_gain") & (gain["variant"] == "Breakthrough")].iloc[0]
    assert row["verdict"] == r.UPHELD
    assert "Combine Max 75.0%" in row["ours"] and "150/200 games at checkpoint 10" in row["ours"]
    assert "binomial" in row["test"] and "Bonferroni x4" in row["test"] and "p=" in row["test"]
    flat = r.claims_table(evaluations(default=100), slowdowns())
    assert verdict(flat, "significant_gain", "Breakthrough") == r.NOT_DECIDED  # 50%: no gain shown, none refuted
    below = r.claims_table(evaluations(default=60), slowdowns())               # 30%, even the best strategy
    assert verdict(below, "significant_gain", "Breakthrough") == r.NOT_UPHELD
    # a variant not run is untested, the others still tested
    partial = r.claims_table(evaluations({("Othello", "grown", None): 150}, default=100,
                                         variants=["Othello", "Yavalath"]), slowdowns())
    assert verdict(partial, "significant_gain", "Breakthrough") == r.NO_DATA
    assert verdict(partial, "significant_gain", "Othello") == r.UPHELD


def test_smaller_gain_is_tested_against_the_significant_gain_variants_and_can_fail():
    # significant-gain variants at 180 of 200 (90%); Knightthrough's best at 104 of 200: significantly smaller
    big = {(v, "grown", None): 180 for v in ("Breakthrough", "Fanorona", "Hex (11x11)", "Othello", "Teeko")}
    data = evaluations({**big, ("Connect Four", "grown", None): 150, ("Hex (7x7)", "grown", None): 150,
                        ("Knightthrough", "grown", None): 104}, default=100)
    table = r.claims_table(data, slowdowns())
    assert verdict(table, "smaller_gain", "Knightthrough") == r.UPHELD      # 52% against 90%
    assert verdict(table, "smaller_gain", "all") == r.UPHELD                # 2 of 3 significant above 50%
    # a gain as large as the significant-gain variants' is no smaller gain
    level = r.claims_table(evaluations({**big, ("Knightthrough", "grown", None): 180}, default=100), slowdowns())
    assert verdict(level, "smaller_gain", "Knightthrough") == r.NOT_DECIDED
    larger = r.claims_table(evaluations({**big, ("Knightthrough", "grown", None): 200}, default=100), slowdowns())
    assert verdict(larger, "smaller_gain", "Knightthrough") == r.NOT_UPHELD  # 100% against 90%
    data = evaluations({("Connect Four", "grown", None): 150}, default=100)
    table = r.claims_table(data, slowdowns())
    assert verdict(table, "smaller_gain", "all") == r.NOT_DECIDED            # 1 of 3, the others level
    data = evaluations({("Connect Four", "grown", None): 150, ("Hex (7x7)", "grown", None): 40,
                        ("Knightthrough", "grown", None): 40}, default=100)
    table = r.claims_table(data, slowdowns())
    assert verdict(table, "smaller_gain", "all") == r.NOT_UPHELD             # 2 of 3 significantly below 50%


def test_gomoku_no_change_and_yavalath_worse():
    table = r.claims_table(evaluations({("Yavalath", "grown", None): 60}, default=100), slowdowns())
    # "no change" is an equivalence: equal rates over 200 games each cannot show a difference within 10 points
    # (Newcombe's interval is +-10.1), so it is not decided; over 1,000 games each it is upheld
    assert verdict(table, "no_change", "Gomoku") == r.NOT_DECIDED
    assert verdict(table, "significantly_worse", "Yavalath") == r.UPHELD
    big = evaluations(default=100).assign(games=1000, wins=lambda f: f["wins"] * 5)
    assert verdict(r.claims_table(big, slowdowns()), "no_change", "Gomoku") == r.UPHELD
    # cells grown until decided: a fixed-sample test says 50% -> 75% of 60 games changed; the anytime-valid
    # intervals (conservative) cannot tell at that size, and do at 600 games a cell
    moved = evaluations({("Gomoku", "grown", None): 150}, default=100, variants=["Gomoku"], stages=("grown",))
    moved = moved.assign(games=60.0, wins=lambda f: f["wins"] * 0.3)
    assert verdict(r.claims_table(moved, slowdowns(variants=["Gomoku"])), "no_change", "Gomoku") == r.NOT_UPHELD
    assert verdict(r.claims_table(moved.assign(grown=True), slowdowns(variants=["Gomoku"])), "no_change",
                   "Gomoku") == r.NOT_DECIDED
    many = moved.assign(grown=True, games=600, wins=lambda f: f["wins"] * 10)
    assert verdict(r.claims_table(many, slowdowns(variants=["Gomoku"])), "no_change", "Gomoku") == r.NOT_UPHELD
    table = r.claims_table(evaluations({("Gomoku", "grown", "add_random"): 160,
                                        ("Yavalath", "grown", None): 60, ("Yavalath", "grown", "combine_max"): 95},
                                       default=100), slowdowns())
    assert verdict(table, "no_change", "Gomoku") == r.NOT_UPHELD
    assert verdict(table, "significantly_worse", "Yavalath") == r.NOT_DECIDED  # one strategy near 50%
    above = r.claims_table(evaluations({("Yavalath", "grown", None): 60, ("Yavalath", "grown", "combine_max"): 150},
                                       default=100), slowdowns())
    assert verdict(above, "significantly_worse", "Yavalath") == r.NOT_UPHELD  # one significantly above 50%
    one = evaluations(default=100)
    one = one[(one["stage"] != "grown") | (one["checkpoint"] == GROWN[-1])]
    assert r.claims_table(one, slowdowns())["verdict"][lambda v: v.str.startswith("untested: one")].size >= 1


def test_correlation_based_never_worse_and_better_somewhere():
    fair = r.claims_table(evaluations(default=100), slowdowns())
    assert verdict(fair, "correlation_never_worse") == r.UPHELD
    assert verdict(fair, "correlation_better_somewhere") == r.NOT_DECIDED  # no lead found: nothing decided
    behind = {(v, "grown", "correlation_based"): 40 for v in r.VARIANTS}      # 20% against 55% everywhere
    assert verdict(r.claims_table(evaluations(behind), slowdowns()), "correlation_better_somewhere") == r.NOT_UPHELD
    assert "Holm" in fair.loc[fair["claim_id"] == "correlation_never_worse", "test"].iloc[0]
    assert "30 comparisons" in fair.loc[fair["claim_id"] == "correlation_never_worse", "test"].iloc[0]
    behind = r.claims_table(evaluations({("Othello", "grown", "correlation_based"): 50}, default=100), slowdowns())
    assert verdict(behind, "correlation_never_worse") == r.NOT_UPHELD
    ahead = r.claims_table(evaluations({("Othello", "grown", "correlation_based"): 160}, default=100), slowdowns())
    assert verdict(ahead, "correlation_never_worse") == r.UPHELD
    assert verdict(ahead, "correlation_better_somewhere") == r.UPHELD
    # a difference that one test would call significant but Holm over 30 comparisons does not
    edge = r.claims_table(evaluations({("Othello", "grown", "correlation_based"): 78}, default=100), slowdowns())
    assert verdict(edge, "correlation_never_worse") == r.UPHELD
    # a run that trained Correlation-based longer (its last checkpoint alone, far ahead) compares the strategies at
    # the last checkpoint they share, where it is level: no lead from self-play games the others never had
    longer = evaluations({("Othello", "grown", "correlation_based"): 100}, default=100)
    last = longer[(longer["stage"] == "grown") & (longer["strategy"] == "correlation_based")]["checkpoint"].max()
    extra = longer[(longer["stage"] == "grown") & (longer["strategy"] == "correlation_based")
                   & (longer["checkpoint"] == last)].assign(checkpoint=last * 4, wins=190)
    table = r.claims_table(pd.concat([longer, extra], ignore_index=True), slowdowns())
    assert verdict(table, "correlation_better_somewhere") == r.NOT_DECIDED
    assert f"checkpoint {last}:" in table.loc[table["claim_id"] == "correlation_better_somewhere", "ours"].iloc[0]


def test_reference_rates_greedy_and_handmade_are_equivalence_claims():
    table = r.claims_table(evaluations({("Teeko", "greedy", "add_random"): 80, ("Yavalath", "handmade", None): 186},
                                       default=20), slowdowns())
    assert verdict(table, "greedy_competitive", "Teeko") == r.UPHELD         # 40% of 200: within +-10 of 40%
    assert verdict(table, "greedy_competitive", "Breakthrough") == "lower than the paper"  # 10%
    assert verdict(table, "handmade_win_rate", "Yavalath") == r.UPHELD       # 93% of 200
    low = r.claims_table(evaluations({("Yavalath", "handmade", None): 150}), slowdowns())
    assert verdict(low, "handmade_win_rate", "Yavalath") == "lower than the paper"     # 75% vs 93%
    # far above the paper's 40% is a finding, never "upheld unless lower"
    high = r.claims_table(evaluations({("Breakthrough", "greedy", "add_random"): 188}, default=20), slowdowns())
    assert verdict(high, "greedy_competitive", "Breakthrough") == "higher than the paper"
    few = r.claims_table(evaluations(default=8, stages=("greedy",)).assign(games=20.0), slowdowns())
    assert verdict(few, "greedy_competitive", "Teeko") == r.NOT_DECIDED      # 40% of 20: interval too wide


def test_final_comparison_verdicts_follow_the_paper_direction():
    rows = [dict(variant=v, strategy="correlation_based", stage=stage, checkpoint=200, games=g, wins=w,
                 condition_id=f"{v}{stage}", ludii_seconds=5.0, budget=1000, biased_budget=400, rules="default",
                 grown=False)
            for stage in ("final_equal_time", "final_equal_iterations")
            for v, g, w in (("Breakthrough", 100, 90), ("Gomoku", 200, 100), ("Yavalath", 100, 90),
                            ("Teeko", 16, 9))]
    table = r.final_table(pd.DataFrame(rows)).set_index("variant")
    assert table.loc["Breakthrough", "verdict"] == "as the paper"          # higher, as the paper
    assert table.loc["Gomoku", "ours"] == "level" and table.loc["Gomoku", "verdict"] == "as the paper"
    assert table.loc["Yavalath", "verdict"] == "not as the paper"          # the paper: lower
    assert table.loc["Teeko", "verdict"] == "undecided"
    summary = r.final_summary(pd.DataFrame(rows))
    assert set(summary["comparison"]) == {"equal time", "equal iterations"}
    assert (summary[["as the paper", "not as the paper", "undecided"]].sum(axis=1) == 4).all()


def test_final_greedy_and_handmade_cells_are_read_against_the_papers_values():
    rows = [dict(variant=v, strategy=strategy, stage=stage, checkpoint=c, games=g, wins=w,
                 condition_id=f"{v}{stage}{strategy}", ludii_seconds=5.0, budget=1000, biased_budget=0,
                 rules="default", grown=False)
            for v, strategy, stage, c, g, w in (
                ("Breakthrough", "correlation_based", "final_greedy", 200, 200, 80),   # 40%: the paper's
                ("Othello", "correlation_based", "final_greedy", 200, 200, 2),         # 1%: "close to 0%"
                ("Teeko", "correlation_based", "final_greedy", 200, 200, 180),         # 90% against 40%
                ("Gomoku", "correlation_based", "final_greedy", 200, 100, 30),         # 30% against 0%
                ("Yavalath", "handmade", "final_equal_time", 0, 200, 186),             # 93%: the paper's
                ("Connect Four", "correlation_based", "final_greedy", 200, 3, 0),      # too few games
                ("Hex (7x7)", "correlation_based", "final_greedy", 200, 11, 1))]       # one win: not yet "higher"
    greedy = r.final_table(pd.DataFrame(rows), "final_greedy").set_index("variant")
    assert greedy.loc["Breakthrough", "verdict"] == "as the paper" and greedy.loc["Breakthrough", "paper"] == "40%"
    assert greedy.loc["Othello", "verdict"] == "as the paper" and greedy.loc["Othello", "paper"] == "close to 0%"
    assert greedy.loc["Teeko", "ours"] == "higher" and greedy.loc["Teeko", "verdict"] == "not as the paper"
    assert greedy.loc["Gomoku", "verdict"] == "not as the paper"
    assert greedy.loc["Connect Four", "verdict"] == "undecided"
    assert greedy.loc["Hex (7x7)", "ours"] == "undecided"   # [0.2, 41.3]: neither below nor above 10 points
    assert greedy.loc["Breakthrough", "agent"].startswith("greedy agent")
    handmade = r.final_table(pd.DataFrame(rows), "final_equal_time").set_index("variant")
    assert handmade.loc["Yavalath", "paper"] == "93%" and handmade.loc["Yavalath", "verdict"] == "as the paper"
    assert set(r.final_summary(pd.DataFrame(rows))["comparison"]) == {"equal time", "greedy agent"}


def test_slowdowns_rank_and_tolerance():
    table = r.claims_table(evaluations(), slowdowns({("Yavalath", "grown"): 8.0}))
    rows = table[table["claim_id"] == "slowdown_worst"]
    assert list(rows["verdict"]) == [r.UPHELD, r.UPHELD]
    table = r.claims_table(evaluations(), slowdowns({("Yavalath", "grown"): 2.0, ("Yavalath", "handmade"): 100.0}))
    rows = table[table["claim_id"] == "slowdown_worst"]
    assert list(rows["verdict"]) == [r.NOT_UPHELD, r.NOT_UPHELD]              # rank 9 of 10; 4x off
    assert verdict(table, "handmade_slowdown", "Yavalath") == r.NOT_UPHELD
    assert verdict(table, "pruned_yavalath_improved", "Yavalath", 1) == r.UPHELD  # 1.2x < 2.0x


def test_pruned_claims():
    table = r.claims_table(evaluations({("Knightthrough", "pruned", None): 140, ("Yavalath", "pruned", None): 80,
                                        ("Yavalath", "grown", None): 40}), slowdowns())
    assert verdict(table, "pruned_gain", "Knightthrough") == r.UPHELD
    assert verdict(table, "pruned_yavalath_improved", "Yavalath", 0) == r.UPHELD
    assert verdict(table, "pruned_yavalath_still_worse", "Yavalath") == r.UPHELD
    table = r.claims_table(evaluations(default=100), slowdowns())  # everything level: nothing decided
    assert verdict(table, "pruned_gain", "Knightthrough") == r.NOT_DECIDED
    assert verdict(table, "pruned_yavalath_improved", "Yavalath", 0) == r.NOT_DECIDED
    assert verdict(table, "pruned_yavalath_still_worse", "Yavalath") == r.NOT_DECIDED
    table = r.claims_table(evaluations({("Knightthrough", "pruned", None): 40, ("Yavalath", "pruned", None): 150,
                                        ("Yavalath", "grown", None): 40}), slowdowns())  # each significantly against
    assert verdict(table, "pruned_gain", "Knightthrough") == r.NOT_UPHELD
    assert verdict(table, "pruned_yavalath_still_worse", "Yavalath") == r.NOT_UPHELD
    table = r.claims_table(evaluations({("Yavalath", "pruned", None): 40, ("Yavalath", "grown", None): 80}),
                           slowdowns())
    assert verdict(table, "pruned_yavalath_improved", "Yavalath", 0) == r.NOT_UPHELD  # pruned significantly worse


def test_rates_sum_rows_of_one_condition_and_use_the_wilson_interval():
    data = pd.concat([evaluations(variants=["Teeko"], stages=("grown",))] * 2)
    rates = r.evaluation_rates(data)
    assert (rates["games"] == 400).all()
    low, high = r.wilson_interval(220.0, 400.0)
    assert rates["ci_low"].iloc[0] == pytest.approx(float(low))
    assert rates["ci_high"].iloc[0] == pytest.approx(float(high))


# ---- figures --------------------------------------------------------------------------------------------------
def _texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


@pytest.mark.parametrize("stage", ["grown", "pruned"])
def test_learning_curves_full_and_partial(stage):
    fig = r.learning_curves(evaluations(), stage=stage)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 10 and "not run" not in _texts(fig)
    assert [ax.get_title() for ax in visible] == r.VARIANTS
    assert len(visible[0].lines) == 4 + 1                                   # strategies and the 50% line
    plt.close(fig)
    fig = r.learning_curves(evaluations(variants=["Teeko", "Othello"]), stage=stage)
    assert _texts(fig).count("not run") == 8
    plt.close(fig)
    fig = r.learning_curves(None, stage=stage)
    assert _texts(fig).count("not run") == 10
    plt.close(fig)


def test_learning_curves_draw_into_given_axes():
    fig, axes = plt.subplots(2, 5)
    assert r.learning_curves(evaluations(), ax_grid=axes) is fig
    with pytest.raises(ValueError, match="axes"):
        r.learning_curves(evaluations(), ax_grid=axes[0])
    plt.close("all")


@pytest.mark.parametrize("stage", ["grown", "pruned"])
def test_win_vs_slowdown_full_partial_and_empty(stage):
    fig = r.win_vs_slowdown(evaluations(), slowdowns(), stage=stage)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    labels = _texts(fig)
    assert set(r.VARIANTS) <= set(labels) and "Yavalath (hand-made)" in labels
    plt.close(fig)
    fig = r.win_vs_slowdown(evaluations(variants=["Teeko"]), slowdowns(variants=["Teeko", "Gomoku"]), stage=stage)
    missing = [t for t in _texts(fig) if t.startswith("not run: ")]
    assert len(missing) == 1 and "Gomoku" in missing[0] and "Teeko" not in missing[0]
    plt.close(fig)
    fig = r.win_vs_slowdown(None, None, stage=stage)
    assert "not run" in _texts(fig)
    plt.close(fig)


def test_greedy_curves_full_and_partial():
    fig = r.greedy_curves(evaluations())
    assert [ax.get_title() for ax in fig.axes] == ["Breakthrough", "Teeko"]
    assert "not run" not in _texts(fig)
    plt.close(fig)
    fig = r.greedy_curves(evaluations(stages=("grown",)))
    assert _texts(fig).count("not run") == 2
    plt.close(fig)


def test_strategy_colours_are_the_same_in_every_figure():
    fig = r.learning_curves(evaluations())
    colours = {line.get_label(): matplotlib.colors.to_hex(line.get_color()) for line in fig.axes[0].lines}
    assert colours["Correlation-based"] == r.STRATEGY_COLOURS["correlation_based"]
    plt.close(fig)
    fig = r.greedy_curves(evaluations())
    colours = {line.get_label(): matplotlib.colors.to_hex(line.get_color()) for line in fig.axes[0].lines}
    assert colours["Add Random"] == r.STRATEGY_COLOURS["add_random"]
    plt.close(fig)


def test_gains_on_cells_grown_until_decided_are_judged_by_their_anytime_intervals():
    """A fixed-sample binomial test is not valid on a cell grown by the stopping rule: 66 of 100 is significant
    for it (p 0.0018, x4 strategies) but not for the anytime-valid interval, which needs more games."""
    base = evaluations(default=50, variants=["Breakthrough", "Connect Four"], stages=("grown",)).assign(games=100.0)
    best = (base["variant"] == "Breakthrough") & (base["strategy"] == "correlation_based") & (base["checkpoint"] == 10)
    fixed = base.assign(wins=np.where(best, 66.0, base["wins"]))
    assert verdict(r.claims_table(fixed, slowdowns()), "significant_gain", "Breakthrough") == r.UPHELD
    assert verdict(r.claims_table(fixed.assign(grown=best), slowdowns()), "significant_gain",
                   "Breakthrough") == r.NOT_DECIDED
    many = fixed.assign(grown=best, games=np.where(best, 1000.0, 100.0), wins=np.where(best, 660.0, fixed["wins"]))
    assert verdict(r.claims_table(many, slowdowns()), "significant_gain", "Breakthrough") == r.UPHELD
    # "smaller" against the significant-gain variants' pool, by intervals when a cell was grown
    smaller = many.assign(wins=np.where((many["variant"] == "Connect Four") & (many["checkpoint"] == 10), 52.0,
                                        many["wins"]), grown=True)
    row = r.claims_table(smaller, slowdowns())
    row = row[(row["claim_id"] == "smaller_gain") & (row["variant"] == "Connect Four")].iloc[0]
    assert "grown until decided" in row["test"] and row["verdict"] == r.NOT_DECIDED   # 52% of 100: not above 50


def test_win_vs_slowdown_places_its_names_in_a_fixed_number_of_steps(monkeypatch):
    """adjustText's default stops after 1 s of wall time, so the names' places, and the committed figure's bytes,
    depended on the machine's load; the figure asks for a step count and no time limit."""
    import adjustText
    calls = []
    real = adjustText.adjust_text
    monkeypatch.setattr(adjustText, "adjust_text", lambda *a, **k: (calls.append(k), real(*a, **k))[1])
    plt.close(r.win_vs_slowdown(evaluations(), slowdowns(), stage="grown"))
    assert calls and calls[0]["iter_lim"] == r.ADJUST_TEXT_STEPS and calls[0].get("time_lim") is None
