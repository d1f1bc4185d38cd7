"""Verdicts against the papers: each kind of paper number gets a test that fits it (ppalib.report.paper_test)."""
import pandas as pd
import pytest
from scipy.stats import binomtest, fisher_exact

from ppalib import paths
from ppalib.papers import adaptive_rave2013
from ppalib.report import BINOMIAL, FISHER, compare_with_paper, paper_test, percent_is_count


def test_counts_out_of_the_stated_games_are_told_from_other_percentages():
    assert percent_is_count(81.2, 500) and percent_is_count(91.40, 500) and percent_is_count(47.20, 500)
    assert percent_is_count(100.0, 500) and percent_is_count(0.0, 500)
    assert not percent_is_count(93.39, 500)   # 466.95 matches
    assert not percent_is_count(49.10, 500)   # 245.5 matches


@pytest.mark.parametrize("filename,column,games", [("ppa2015_table1.csv", "paper_win_rate", "paper_games"),
                                                   ("ppaf2016_tables.csv", "paper_win_rate", "paper_games")])
def test_every_cell_of_the_ppa_papers_is_a_count_so_their_verdicts_keep_fishers_test(filename, column, games):
    table = pd.read_csv(paths.PAPER_DATA / filename)
    assert all(percent_is_count(p, n) for p, n in zip(table[column], table[games]))


def test_a_count_is_compared_by_fisher_as_two_samples():
    p, verdict, test = paper_test(150, 200, 81.2, 500)   # 406 of 500
    assert test == FISHER
    assert p == pytest.approx(fisher_exact([[150, 50], [406, 94]])[1])
    assert verdict == ("not significant" if p >= 0.05 else "lower")


def test_a_rate_that_is_no_count_is_a_fixed_reference_for_a_one_sample_binomial_test():
    # 93.39% is no count out of 500: the old code rounded it to 467 of 500 and ran Fisher's test as if the
    # paper had played 500 matches.
    p, verdict, test = paper_test(179, 200, 93.39, 500)
    assert test == BINOMIAL
    assert p == pytest.approx(binomtest(179, 200, 0.9339).pvalue)
    assert p != pytest.approx(fisher_exact([[179, 21], [467, 33]])[1])
    # the paper's value inside our interval is consistent, far outside is not, with the direction
    assert paper_test(187, 200, 93.39, 500)[1] == "not significant"
    assert paper_test(159, 200, 93.39, 500)[1] == "lower"
    assert paper_test(188, 200, 49.10, 500)[1] == "higher"


def test_the_binomial_test_is_stricter_than_pretending_the_paper_had_500_matches():
    """Near the edge the two tests disagree: the fake two-sample test calls a cell consistent that is not."""
    ours, games, paper = 176, 200, 93.39          # 88.0%
    fake = fisher_exact([[ours, games - ours], [467, 33]])[1]
    honest = paper_test(ours, games, paper, 500)[0]
    assert honest < fake


def test_adaptive_rave_headline_says_which_test_each_paper_number_gets():
    table = pd.DataFrame({
        "figure": [3, 3, 4, 4], "game": ["blind_cashing_checks", "stale_cashing_checks"] * 2,
        "series": ["rave_rate", "rave_rate", "adaptive", "adaptive"], "x": [1.0, 0.0, 0.0, 0.0],
        "matches": [200] * 4, "optimal_draws": [159, 188, 160, 175],
        "paper_optimal_draws": [93.39, 49.10, 91.40, 47.20], "paper_matches": [500] * 4})
    table["rate"] = 100 * table["optimal_draws"] / table["matches"]
    table["ci_low"], table["ci_high"] = table["rate"] - 5, table["rate"] + 5
    head = adaptive_rave2013.headline(table)
    assert head["test"].tolist() == [BINOMIAL, BINOMIAL, FISHER, FISHER]
    assert head["p_value"].iloc[0] == pytest.approx(binomtest(159, 200, 0.9339).pvalue, rel=1e-12)
    assert (head["p_value"] > 0).all()  # unrounded: a p of 1e-14 is not shown as 0
    assert head["verdict"].tolist() == ["lower", "higher", "lower", "higher"]


def test_compare_with_paper_keeps_its_columns_and_fishers_verdicts_for_counts():
    ours = pd.DataFrame({"game": ["a", "b"], "games": [500, 500], "wins": [278.0, 400.0]})
    ours["win_rate"] = 100 * ours["wins"] / ours["games"]
    paper = pd.DataFrame({"game": ["a", "b"], "paper_win_rate": [81.2, 80.6], "paper_games": [500, 500]})
    merged = compare_with_paper(ours, paper, ["game"])
    assert "test" not in merged.columns
    expected = [fisher_exact([[278, 222], [406, 94]])[1], fisher_exact([[400, 100], [403, 97]])[1]]
    assert merged["p_value"].tolist() == pytest.approx(expected)
    assert merged["verdict"].tolist() == ["lower", "reproduced"]   # three-way at the stated margin
    assert {"diff_low", "diff_high", "games_to_decide", "margin"} <= set(merged.columns)


def test_saved_files_and_notebook_setups_show_paths_relative_to_the_project_root(tmp_path):
    """Executed notebooks (and the site built from them) show no machine's folders."""
    import matplotlib.pyplot as plt
    from ppalib import paths
    from ppalib.papers import ppa2015, prepare
    from ppalib.report import SavedFiles, save_figure
    inside = SavedFiles([paths.FIGURES / "01_ppa_2015" / "x.png", paths.FIGURES / "01_ppa_2015" / "x.svg"])
    assert repr(inside) == "saved figures/01_ppa_2015/x.png, figures/01_ppa_2015/x.svg"
    figure = plt.figure()
    saved = save_figure(figure, tmp_path, "outside")
    plt.close(figure)
    assert saved == [tmp_path / "outside.png", tmp_path / "outside.svg"] and str(tmp_path) in repr(saved)
    described = prepare(ppa2015, "quick").describe()
    assert str(paths.ROOT) not in described and "results in data/results/ppa2015" in described


# ---- three-way verdicts and claims (ppalib.report.cell_verdict, claim_verdict, equivalence_claim_verdict) -------
import numpy as np

from ppalib.report import (ANYTIME, EQUIVALENCE_MARGIN, FIXED_REFERENCE, TWO_SAMPLE, anytime_interval,
                           cell_verdict, claim_verdict, equivalence_claim_verdict, holm, holm_verdicts)


def test_cell_verdict_is_reproduced_higher_lower_or_undecided_by_its_interval_and_the_margin():
    assert EQUIVALENCE_MARGIN == 10.0
    assert cell_verdict(250, 500, 50.0, 500).verdict == "reproduced"     # 250/500 vs 250/500: +-6.3 points
    assert cell_verdict(8, 16, 50.0, 500).verdict == "undecided"         # +-26 points
    assert cell_verdict(400, 500, 50.0, 500).verdict == "higher"
    assert cell_verdict(100, 500, 50.0, 500).verdict == "lower"
    # significant but inside the margin: reproduced (the gap is smaller than what the margin calls a difference)
    small = cell_verdict(2750, 5000, 50.0, 5000)
    assert small.ci_low > 0 and small.verdict == "reproduced"
    # a narrower margin turns the same cell undecided
    assert cell_verdict(250, 500, 50.0, 500, margin=5.0).verdict == "undecided"


def test_cell_verdict_counts_the_papers_error_only_when_its_number_is_a_count():
    assert cell_verdict(250, 500, 50.0, 500).interval == TWO_SAMPLE
    assert cell_verdict(250, 500, 93.39, 500).interval == FIXED_REFERENCE   # 466.95 of 500 is no count
    assert cell_verdict(250, 500, 50.0, None).interval == FIXED_REFERENCE
    wide = cell_verdict(250, 500, 50.0, 500)
    narrow = cell_verdict(250, 500, 50.0, None)
    assert wide.ci_high - wide.ci_low > narrow.ci_high - narrow.ci_low


def test_cell_verdict_at_zero_and_hundred_percent_uses_exact_bounds():
    zero = cell_verdict(0, 16, 0.0, 500)
    assert zero.verdict == "undecided" and zero.difference == 0 and zero.games_to_decide > 16
    assert cell_verdict(0, 200, 0.0, 500).verdict == "reproduced"
    full = cell_verdict(16, 16, 100.0, None)
    assert full.ci_high == 0.0 and full.verdict == "undecided"
    assert cell_verdict(0, 16, 100.0, 500).verdict == "lower"


def test_games_to_decide_is_the_fewest_games_that_decide_at_the_observed_rate():
    cell = cell_verdict(8, 16, 50.0, 500)
    n = cell.games_to_decide
    assert cell_verdict(n / 2, n, 50.0, 500).verdict == "reproduced"
    assert cell_verdict((n - 2) / 2, n - 2, 50.0, 500).verdict == "undecided"
    assert cell_verdict(400, 500, 50.0, 500).games_to_decide == 500           # decided already
    # the paper's own 16 games are wider than the margin: our games alone cannot decide an equal rate
    assert cell_verdict(8, 16, 50.0, 16).games_to_decide is None


def test_the_anytime_interval_is_wider_than_the_fixed_one_and_covers_the_rate():
    low, high = anytime_interval(250, 500)
    assert low < 0.45 and high > 0.55
    assert cell_verdict(250, 500, 50.0, 500, anytime=True).interval == ANYTIME
    assert cell_verdict(250, 500, 50.0, 500, anytime=True).verdict == "undecided"
    assert anytime_interval(0, 30)[0] == 0.0 and anytime_interval(30, 30)[1] == 1.0


@pytest.mark.parametrize("bad", [dict(games=0), dict(wins=17), dict(paper_percent=101.0), dict(margin=0.0),
                                 dict(alpha=1.0), dict(paper_games=0)])
def test_cell_verdict_names_the_bad_parameter(bad):
    args = dict(wins=8, games=16, paper_percent=50.0, paper_games=500) | bad
    with pytest.raises(ValueError, match=next(iter(bad))):
        cell_verdict(**args)


def test_claims_are_two_sided_so_the_other_tail_contradicts():
    assert claim_verdict(60, 100, 40, 100).verdict == "upheld"
    assert claim_verdict(40, 100, 60, 100).verdict == "contradicted"
    assert claim_verdict(52, 100, 48, 100).verdict == "not decided"
    assert claim_verdict(30, 100, reference=50, direction="less").verdict == "upheld"
    p_two = claim_verdict(60, 100, 40, 100).p_value
    assert p_two == pytest.approx(fisher_exact([[60, 40], [40, 60]])[1])
    # one-sided p would be about half: a claim is not upheld by its own tail alone
    assert p_two > fisher_exact([[60, 40], [40, 60]], alternative="greater")[1]


def test_a_value_claim_far_above_the_paper_is_a_finding_not_upheld():
    assert equivalence_claim_verdict(94, 100, 40.0).verdict == "higher than the paper"
    assert equivalence_claim_verdict(200, 500, 40.0).verdict == "upheld"
    assert equivalence_claim_verdict(5, 10, 40.0).verdict == "not decided"
    assert equivalence_claim_verdict(100, 500, 40.0).verdict == "lower than the paper"


def test_holm_adjusts_and_demotes_verdicts_whose_adjusted_p_is_not_below_alpha():
    adjusted = holm([0.01, 0.04, np.nan, 0.03])
    assert np.isnan(adjusted[2])
    assert adjusted[[0, 1, 3]].tolist() == pytest.approx([0.03, 0.06, 0.06])
    _, verdicts = holm_verdicts(["upheld", "contradicted", "not decided"], [0.01, 0.04, 0.5])
    assert verdicts == ["upheld", "not decided", "not decided"]


# ---- simulation: the verdicts' error rates (seeded, 2,000 cells per setting) ---------------------------------
from scipy.stats import binom

from ppalib.report import cell_verdicts

SIMULATED_CELLS = 2000
PAPER_GAMES = 500


def _papers_rates() -> np.ndarray:
    """The true rates of the simulated cells: the PPA 2015 and PPAF 2016 papers' own cell values, in turn."""
    values = pd.concat([pd.read_csv(paths.PAPER_DATA / name)["paper_win_rate"]
                        for name in ("ppa2015_table1.csv", "ppaf2016_tables.csv")]).to_numpy() / 100
    return np.resize(values, SIMULATED_CELLS)


def _shifted(rates, points=15):
    """True rates ``points`` away from ``rates``, inside [0, 1] (down where up would leave it)."""
    return np.where(rates + points / 100 <= 1, rates + points / 100, rates - points / 100)


def simulated_cells(rng, games, paper_rates, our_rates, paper_counted=True):
    """(our wins, paper percent, paper games) for the cells: the paper's 500 games drawn at ``paper_rates``
    when counted, else its rate as a fixed reference."""
    ours = rng.binomial(games, our_rates).astype(float)
    if paper_counted:
        return ours, 100 * rng.binomial(PAPER_GAMES, paper_rates) / PAPER_GAMES, PAPER_GAMES
    return ours, 100 * paper_rates, None


COUNTED = pytest.mark.parametrize("counted", [True, False], ids=["paper as k of 500", "paper as fixed reference"])
GAME_COUNTS = pytest.mark.parametrize("games", [16, 100, 500])


@COUNTED
@GAME_COUNTS
def test_equal_true_rates_are_called_different_in_at_most_5_percent_of_2000_cells(games, counted):
    rng = np.random.default_rng([2026, games, counted])
    rates = _papers_rates()
    wins, paper, paper_games = simulated_cells(rng, games, rates, rates, counted)
    differs = np.isin(cell_verdicts(wins, games, paper, paper_games), ("higher", "lower")).mean()
    assert differs <= 0.05


@COUNTED
@GAME_COUNTS
def test_true_rates_15_points_off_are_called_reproduced_in_at_most_5_percent_of_2000_cells(games, counted):
    rng = np.random.default_rng([2027, games, counted])
    rates = _papers_rates()
    wins, paper, paper_games = simulated_cells(rng, games, rates, _shifted(rates), counted)
    reproduced = (cell_verdicts(wins, games, paper, paper_games) == "reproduced").mean()
    assert reproduced <= 0.05


@pytest.mark.parametrize("games", [16, 100, 500])
def test_the_exact_false_differs_rate_is_below_5_percent_even_at_the_worst_rate(games):
    """Not simulated: the probability summed over every outcome of ours and the paper's 500 games, at rates
    from 0.02 to 0.98 (the worst is near 0.5, about 4.6% at 500 against 500 games)."""
    ours, paper = np.arange(games + 1), np.arange(PAPER_GAMES + 1)
    mine, theirs = np.meshgrid(ours, paper, indexing="ij")
    verdicts = cell_verdicts(mine.ravel(), games, 100 * theirs.ravel() / PAPER_GAMES, PAPER_GAMES)
    differs = np.isin(verdicts, ("higher", "lower")).reshape(mine.shape)
    fixed = {}
    for rate in np.linspace(0.02, 0.98, 25):
        weight = binom.pmf(ours, games, rate)[:, None] * binom.pmf(paper, PAPER_GAMES, rate)[None, :]
        assert (weight * differs).sum() <= 0.05, rate
        fixed[rate] = (binom.pmf(ours, games, rate)
                       * np.isin(cell_verdicts(ours, games, 100 * rate, None), ("higher", "lower"))).sum()
    assert max(fixed.values()) <= 0.05


def test_the_simulation_catches_a_one_sided_10_percent_rule_and_a_too_wide_margin():
    """The two checks above can fail: the retired rule (two one-sided 5% tests, no margin: "differs" when a 90%
    interval excludes the paper) calls equal rates different in about 10% of cells, and a 20-point margin calls
    cells 15 points off reproduced."""
    rng = np.random.default_rng(7)
    rates = _papers_rates()
    wins, paper, paper_games = simulated_cells(rng, 500, rates, rates)
    retired = cell_verdicts(wins, 500, paper, paper_games, margin=1e-9, alpha=0.10)
    assert np.isin(retired, ("higher", "lower")).mean() > 0.05
    wins, paper, paper_games = simulated_cells(rng, 500, rates, _shifted(rates))
    assert (cell_verdicts(wins, 500, paper, paper_games, margin=20.0) == "reproduced").mean() > 0.05


def test_p_text_writes_small_p_as_the_power_of_ten_above_and_an_exact_zero_as_zero():
    from ppalib.report import p_text
    assert p_text(0.012) == "p = 0.012"
    assert p_text(3e-6) == "p < 1e-5"
    assert p_text(5e-5) == "p < 1e-4"
    assert p_text(0.0) == "p = 0"


def test_two_sample_equivalence_is_contradicted_only_where_fisher_rejects():
    # Newcombe's interval of 8/16 vs 2/16 excludes 0, but Fisher's p is 0.054: the verdict follows the p shown
    from ppalib.report import equivalence_claim_verdict
    verdict = equivalence_claim_verdict(8, 16, None, reference_wins=2, reference_games=16)
    assert verdict.ci_low > 0 and verdict.p_value > 0.05
    assert verdict.verdict == "not decided"
    # a clear difference is still a contradiction
    assert equivalence_claim_verdict(15, 16, None, reference_wins=2, reference_games=16).verdict == "contradicted"


def test_markdown_tables_keep_their_columns_when_a_value_holds_a_pipe_or_a_line_break():
    """figures/*.md are read as GitHub tables: a label such as notebook 04's ``measured`` column
    (``commit | policies | 5 s | ...``) must stay one cell, escaped, not spill into new columns."""
    import re

    from ppalib.report import to_markdown
    frame = pd.DataFrame({"variant": ["Hex", "Gomoku"], "measured": ["6d28993 | final policies | 5 s", "a\nb"],
                          "slowdown": [2.16, 2.06]})
    lines = to_markdown(frame).splitlines()
    unescaped = [len(re.findall(r"(?<!\\)\|", line)) for line in lines]
    assert unescaped == [4] * len(lines)
    assert "6d28993 \\| final policies \\| 5 s" in lines[2] and "a b" in lines[3]


def test_markdown_tables_show_floats_rounded_and_missing_values_as_empty_cells():
    """The .md beside each CSV is for reading: no ``nan``/``<NA>``, no 16-digit p-values, whole floats as integers."""
    from ppalib.report import to_markdown
    frame = pd.DataFrame({"p": [1.58312398400643e-14, 0.01429092375788531, np.nan],
                          "rate": [63.5319, 100.0, 50.25], "seconds": [26133.4, 1393.0, 0.5],
                          "games": pd.array([16, pd.NA, 3], dtype="Int64")})
    rows = [line.split(" | ") for line in to_markdown(frame).splitlines()[2:]]
    assert rows[0] == ["| 1.583e-14", "63.53", "26133", "16 |"]
    assert rows[1] == ["| 0.01429", "100", "1393", " |"]
    assert rows[2] == ["| ", "50.25", "0.5", "3 |"]


# ---- tests on cells grown until decided: anytime-valid p-values ------------------------------------------------
from ppalib.report import (ANYTIME_DIFFERENCE, ANYTIME_P, anytime_p_value, interval_difference,  # noqa: E402
                           interval_difference_p)


@pytest.mark.parametrize("wins,games,reference", [(30, 32, 0.5), (16, 32, 0.5), (94, 180, 0.562), (2532, 4216, 0.622),
                                                  (0, 40, 0.1), (40, 40, 0.9), (10.5, 21, 0.3)])
def test_the_anytime_p_is_below_alpha_exactly_where_the_anytime_interval_excludes_the_reference(wins, games,
                                                                                                   reference):
    p = anytime_p_value(wins, games, reference)
    for alpha in (0.01, 0.05, 0.2):
        low, high = anytime_interval(wins, games, alpha)
        assert (p <= alpha) == (not low <= reference <= high), (alpha, p, low, high)


def test_interval_difference_p_is_the_alpha_at_which_the_difference_interval_first_excludes_zero():
    for a, na, ga, b, nb, gb in [(30, 40, True, 10, 40, False), (60, 100, True, 45, 100, True),
                                 (20, 32, False, 18, 32, True), (50, 100, True, 50, 100, False)]:
        p = interval_difference_p(a, na, ga, b, nb, gb)
        assert 0 < p <= 1
        if p < 1:
            low, high = interval_difference(a, na, ga, b, nb, gb, p * 1.001)
            assert low > 0 or high < 0
            low, high = interval_difference(a, na, ga, b, nb, gb, p * 0.999)
            assert low <= 0 <= high


def test_a_grown_cells_paper_test_agrees_with_its_anytime_verdict_and_names_its_test():
    for wins, games, paper, paper_games in [(2532, 4216, 62.2, 500), (94, 180, 56.2, 500), (60, 64, 50.0, None),
                                            (864, 1720, 50.0, 500)]:
        p, verdict, test = paper_test(wins, games, paper, paper_games, anytime=True)
        cell = cell_verdict(wins, games, paper, paper_games, anytime=True)
        assert test == (ANYTIME_DIFFERENCE if paper_games else ANYTIME_P)
        differs = cell.ci_low > 0 or cell.ci_high < 0
        assert (verdict != "not significant") == differs == (p < 0.05), (wins, games, p, cell)


def test_claims_on_grown_cells_take_the_anytime_tests_and_stay_two_sided():
    from ppalib.report import claim_verdict
    one = claim_verdict(40, 64, reference=50.0, anytime_a=True)
    assert "anytime-valid" in one.test and one.p_value == anytime_p_value(40, 64, 0.5)
    fixed = claim_verdict(40, 64, reference=50.0)
    assert fixed.p_value < one.p_value                                # the price of a data-chosen game count
    assert claim_verdict(10, 64, reference=50.0, anytime_a=True).verdict == "contradicted"
    two = claim_verdict(50, 64, 20, 64, anytime_a=True)
    assert two.verdict == "upheld" and "anytime-valid" in two.test
    assert claim_verdict(20, 64, 50, 64, anytime_b=True).verdict == "contradicted"
    assert claim_verdict(33, 64, 31, 64, anytime_a=True, anytime_b=True).verdict == "not decided"


def _peeking_rejections(p_of, cells=400, batch=16, cap=320, seed=3):
    """Share of cells at a true 50% that some look (every ``batch`` games up to ``cap``) calls significant at 5%."""
    rng = np.random.default_rng(seed)
    rejected = 0
    for _ in range(cells):
        results = rng.random(cap) < 0.5
        rejected += any(p_of(int(results[:n].sum()), n) < 0.05 for n in range(batch, cap + 1, batch))
    return rejected / cells


def test_peeking_inflates_the_fixed_sample_test_but_not_the_anytime_p():
    """Why a grown cell takes the anytime p: adding games until significant, the fixed-sample binomial test rejects
    a true 50% far more than 5% of the time; the anytime-valid p stays under 5% (Ville's inequality)."""
    fixed = _peeking_rejections(lambda k, n: binomtest(k, n, 0.5).pvalue)
    anytime = _peeking_rejections(lambda k, n: anytime_p_value(k, n, 0.5))
    assert fixed > 0.10
    assert anytime <= 0.05


def test_a_grown_cell_is_drawn_with_the_anytime_interval_its_verdict_uses():
    from ppalib.report import rate_intervals, wilson_interval, win_rates
    frame = pd.DataFrame({"cell": ["a"] * 40 + ["b"] * 40, "agent_result": [1.0] * 30 + [0.0] * 10 + [1.0] * 30
                          + [0.0] * 10, "until_decided": [False] * 40 + [True] * 40})
    table = win_rates(frame, ["cell"]).set_index("cell")
    wilson = wilson_interval(30.0, 40)
    anytime = [100 * x for x in anytime_interval(30.0, 40)]
    assert np.allclose(table.loc["a", ["ci_low", "ci_high"]].to_numpy(float), wilson)
    assert np.allclose(table.loc["b", ["ci_low", "ci_high"]].to_numpy(float), anytime)
    assert anytime[0] < wilson[0] and anytime[1] > wilson[1]          # wider: the price of a data-chosen count
    low, high = rate_intervals([30.0], [40])
    assert np.allclose([low[0], high[0]], wilson)



def test_error_bar_lengths_are_never_negative_and_keep_missing_values():
    """At 0% and 100% a Wilson bound equals the rate only up to rounding (here 1e-14 past it), which matplotlib
    refuses as an error bar length; every figure's bars come through ``error_bar_lengths``."""
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pytest
    from ppalib.report import error_bar_lengths
    rate = np.array([0.0, 100.0, 43.75, np.nan])
    low = np.array([1e-14, 80.6, 23.1, np.nan])
    high = np.array([19.4, 100.0 - 1e-14, 66.8, np.nan])
    below, above = error_bar_lengths(rate, low, high)
    assert below[:3].tolist() == [0.0, pytest.approx(19.4), pytest.approx(20.65)]
    assert above[:3].tolist() == [pytest.approx(19.4), 0.0, pytest.approx(23.05)]
    assert np.isnan(below[3]) and np.isnan(above[3])
    fig, ax = plt.subplots()
    with pytest.raises(ValueError):  # what the helper is for: matplotlib refuses the raw differences
        ax.errorbar(np.arange(4), rate, yerr=[rate - low, high - rate])
    ax.errorbar(np.arange(4), rate, yerr=[below, above])
    plt.close(fig)


def test_a_layout_with_a_key_writes_it_under_its_markdown_table_and_not_into_its_csv(tmp_path):
    """A table read on its own (figures/*.md) keeps the legend of its marks; the CSV stays data only."""
    import pandas as pd
    from ppalib.report import margin_header, with_key, write_table
    layout = with_key(pd.DataFrame({"cell": ["63.5 [56.6, 69.9] / 60.0 = (500)"]}), margin_header())
    csv_path, md_path = write_table(layout, tmp_path, "t")
    text = md_path.read_text()
    assert text.startswith("| cell |") and text.rstrip().endswith(margin_header().rstrip())
    assert "▲/▼" in text.splitlines()[-1]
    assert pd.read_csv(csv_path).shape == (1, 1)
    plain, = [p for p in write_table(pd.DataFrame({"cell": [1]}), tmp_path, "u") if p.suffix == ".md"]
    assert plain.read_text() == "| cell |\n|---|\n| 1 |\n"



def test_every_committed_markdown_table_with_marks_explains_them():
    """A table in figures/ read on its own (GitHub shows the .md) whose cells carry verdict marks (▲ ▼ †, or
    ``] ?``/``] =`` after an interval) ends with the sentence explaining them (``report.with_key``)."""
    import re
    from ppalib import paths
    marked = re.compile(r"▲|▼|†|\] (?:/ [\d.]+ )?[?=] ")
    tables = sorted(paths.FIGURES.rglob("*.md"))
    assert tables
    for path in tables:
        lines = path.read_text().splitlines()
        rows = [line for line in lines if line.startswith("|")]
        if not any(marked.search(row) for row in rows):
            continue
        after = [line for line in lines[len(rows):] if line.strip()]
        assert after and "▲" in after[-1], f"{path.relative_to(paths.ROOT)} has marks but no key under it"


def test_an_equivalence_band_reaching_past_100_percent_tests_only_its_lower_side():
    """100 wins of 100 against "about 93%" at +-10: the band's top (103%) is no hypothesis, so the TOST p is the
    lower side's alone (twice it), small, and agrees with the verdict; before, the upper side's test of "rate >= 1"
    gave p = 1 beside "upheld"."""
    import pytest
    from scipy.stats import binomtest
    from ppalib.report import equivalence_claim_verdict
    claim = equivalence_claim_verdict(100, 100, 93.0, margin=10)
    assert claim.verdict == "upheld"
    assert claim.p_value == pytest.approx(2 * binomtest(100, 100, 0.83, alternative="greater").pvalue)
    assert claim.p_value < 0.05
    inside = equivalence_claim_verdict(55, 100, 50.0, margin=10)  # both sides tested: twice the larger one-sided p
    expected = 2 * max(binomtest(55, 100, 0.40, alternative="greater").pvalue,
                       binomtest(55, 100, 0.60, alternative="less").pvalue)
    assert inside.p_value == pytest.approx(min(1.0, expected))
