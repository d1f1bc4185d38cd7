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
    assert verdict == ("consistent" if p >= 0.05 else "lower")


def test_a_rate_that_is_no_count_is_a_fixed_reference_for_a_one_sample_binomial_test():
    # 93.39% is no count out of 500: the old code rounded it to 467 of 500 and ran Fisher's test as if the
    # paper had played 500 matches.
    p, verdict, test = paper_test(179, 200, 93.39, 500)
    assert test == BINOMIAL
    assert p == pytest.approx(binomtest(179, 200, 0.9339).pvalue)
    assert p != pytest.approx(fisher_exact([[179, 21], [467, 33]])[1])
    # the paper's value inside our interval is consistent, far outside is not, with the direction
    assert paper_test(187, 200, 93.39, 500)[1] == "consistent"
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
    assert head["p_value"].iloc[0] == pytest.approx(binomtest(159, 200, 0.9339).pvalue, abs=1e-3)
    assert head["verdict"].tolist() == ["lower", "higher", "lower", "higher"]


def test_compare_with_paper_keeps_its_columns_and_fishers_verdicts_for_counts():
    ours = pd.DataFrame({"game": ["a", "b"], "games": [500, 500], "wins": [278.0, 400.0]})
    ours["win_rate"] = 100 * ours["wins"] / ours["games"]
    paper = pd.DataFrame({"game": ["a", "b"], "paper_win_rate": [81.2, 80.6], "paper_games": [500, 500]})
    merged = compare_with_paper(ours, paper, ["game"])
    assert "test" not in merged.columns
    expected = [fisher_exact([[278, 222], [406, 94]])[1], fisher_exact([[400, 100], [403, 97]])[1]]
    assert merged["p_value"].tolist() == pytest.approx(expected)
    assert merged["verdict"].tolist() == ["lower", "consistent"]


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
