"""The findings that notebooks 01 and 02 render from their stores (issue 23, item 5): the discussion's numbers
come from these functions, never from the markdown."""
import json

import pandas as pd
import pytest

from ppalib import paths
from ppalib.papers import ppa2015, ppaf2016
from ppalib.store import ResultsStore


def test_the_table1_grid_plays_each_atarigo_cell_under_both_readings_with_their_own_ids():
    experiment = ppa2015.make_experiment("unused", "quick")
    atarigo = [c for c in experiment.conditions if c.game == "atarigo"]
    default = {(c.size, c.agent.playouts): c for c in atarigo if not c.game_options}
    go_rule = {(c.size, c.agent.playouts): c for c in atarigo if c.game_options == (("suicide", 0),)}
    assert len(default) == len(go_rule) == 4 and default.keys() == go_rule.keys()
    assert not {c.id for c in default.values()} & {c.id for c in go_rule.values()}
    stored = set(ResultsStore(paths.RESULTS / "ppa2015").load()["condition_id"])
    assert {c.id for c in default.values()} <= stored  # Table 1's Atarigo cells keep their committed ids
    smoke = ppa2015.make_experiment("unused", "smoke")
    assert not [c for c in smoke.conditions if c.game == "atarigo"]  # the smoke grid has no Atarigo


def _atarigo(suicide, results, size=5, playouts=1000):
    options = {} if suicide is None else {"suicide": suicide}
    return [{"game": "atarigo", "size": size, "agent_playouts": playouts, "winner": 0 if r else 1, "agent_result": r,
             "game_options": json.dumps(options), "plies": 10, "seconds": 0.5, "condition_id": f"a{suicide}",
             "code_version": "0.1.0+abcdef0123456789"} for r in results]


def test_table1_shows_atarigo_under_the_default_reading_and_the_findings_put_both_beside_the_paper():
    """Paper: Atarigo 5x5 at 1,000 playouts 81.2%.  Default reading 32 of 40 (80%), Go's rule 20 of 40 (50%)."""
    frame = pd.DataFrame(_atarigo(None, [1.0] * 32 + [0.0] * 8) + _atarigo(0, [1.0] * 20 + [0.0] * 20))
    long = ppa2015.table1(frame)
    cell = long[(long.game == "atarigo") & (long["size"] == 5) & (long.playouts == 1000)].iloc[0]
    assert (cell.games, cell.win_rate) == (40, 80.0)
    table = ppa2015.atarigo_rules_table(frame)
    assert dict(zip(table.rules, table.win_rate)) == {"suicide_loses": 80.0, "suicide_illegal": 50.0}
    text = ppa2015.findings(frame)
    assert ("Nearer the paper's value: a suicide legal and losing in 1 of the 1 cells on its grid, Go's rule (illegal) "
            "in 0. "
            "Per cell: Atarigo 5x5 at 1,000: 80.0% against 50.0% (paper 81.2%;") in text
    assert "`abcdef01` 80 games in 2 cells (40 CPU s)" in text


def test_the_ppaf2016_findings_give_the_stored_cpu_seconds_of_each_code_version():
    """The committed rerun of 20 cells by b29da6a9: its games' own timings, not a hand-typed figure."""
    frame = ResultsStore(paths.RESULTS / "ppaf2016").load()
    rerun = frame[frame["code_version"].str.contains("b29da6a9")]
    text = ppaf2016.findings(frame, ppaf2016.tables(frame), ppaf2016.settings("quick"))
    assert f"`b29da6a9` {len(rerun):,} games in {rerun.condition_id.nunique()} cells " \
           f"({rerun.seconds.sum():,.0f} CPU s)" in text
    assert "**Claims at 10,000 playouts**" in text and "**MAST and MASTF against PPAF(1.28)**" in text


def test_the_head_to_head_pool_says_when_one_cell_holds_most_of_a_budgets_games():
    """Two cells at each budget; at 10,000 playouts one holds 90 of 100 games: the pool is that cell's, and the
    line says so; at 1,000 (50 and 50) it does not."""
    rows = []
    for playouts, games in ((1000, (50, 50)), (10000, (90, 10))):
        for table, algorithm, n in zip((4, 9), ("mast", "mastf"), games):
            rows.append({"table": table, "algorithm": algorithm, "value": 128.0, "opponent": "ppaf",
                         "playouts": playouts, "games": n, "wins": n / 2, "win_rate": 50.0, "paper_win_rate": 30.0})
    line = ppaf2016._head_to_head_line(pd.DataFrame(rows), [1000, 10000])
    assert "at 10,000 playouts 90 of the 100 games are Table 4 MAST(128)'s" in line
    assert "at 1,000 playouts" not in line.split("(Fisher")[1].split(")")[0]
    assert "Table 9 MASTF(128) 50.0% of 10 games" in line


def test_table1_verdict_counts_are_given_per_budget_never_pooled():
    """Atarigo 5x5: 32 of 40 at 1,000 playouts (paper 81.2%), 40 of 40 at 10,000 (paper 90.6%): one sentence a
    budget, each with its own cells and games."""
    frame = pd.DataFrame(_atarigo(None, [1.0] * 32 + [0.0] * 8)
                         + [dict(row, condition_id="b") for row in _atarigo(None, [1.0] * 40, playouts=10000)])
    text = ppa2015.verdict_counts_text(ppa2015.table1(frame))
    first, second = text.split("**At 10,000 playouts")
    assert first.startswith("**At 1,000 playouts, ") and "of 1 cells run" in first and "(40 games)" in first
    assert "of 1 cells run" in second and "(40 games)" in second
