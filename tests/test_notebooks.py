"""Notebooks: headless reproduction at the smoke preset, cached replots, failures that name the cell, clean sources."""
import json
from pathlib import Path

import nbformat
import pytest

from ppalib.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
EXPECTED_OUTPUTS = {  # what each notebook writes to figures_dir at the smoke preset
    "01_ppa_2015": {"table1.md", "table1.csv", "table1_dots.png", "table1_dots.svg", "scaling_by_size.png"},
    "02_ppaf_2016": {"table2.md", "table10.md", "claims.md", "claims.csv", "sweeps.png", "sweeps.svg"},
    "03_adaptive_rave_2013": {"headline.md", "headline.csv", "figures_1_4.png", "figures_1_4.svg",
                              "figures_1_4.csv"},
}


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_source_notebook_has_no_outputs_and_a_parameters_cell(path):
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code)
    assert sum("parameters" in cell.metadata.get("tags", []) for cell in code) == 1
    assert "PLACEHOLDER" not in json.dumps(notebook)


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("smoke")
    argv = ["reproduce", "--preset", "smoke", "--output", str(out / "executed"),
            "-p", f"results_dir={out / 'results'}", "-p", f"figures_dir={out / 'figures'}"]
    assert main(argv) == 0
    return out, argv


def test_reproduce_smoke_writes_executed_copies_figures_and_tables(smoke_run):
    out, _ = smoke_run
    for source in SOURCES:
        executed = nbformat.read(out / "executed" / source.name, as_version=4)
        assert any(cell.get("outputs") for cell in executed.cells if cell.cell_type == "code")
    names = {p.name for p in (out / "figures").iterdir()}
    for source in SOURCES:
        assert EXPECTED_OUTPUTS[source.stem] <= names, source.stem
    assert list((out / "results").glob("part-*.parquet"))


def test_changing_only_a_plotting_parameter_plays_no_game(smoke_run):
    out, argv = smoke_run
    before = sorted(p.name for p in (out / "results").glob("part-*.parquet"))
    assert main(argv + ["-p", "dpi=72", "-p", "style=ticks"]) == 0
    assert sorted(p.name for p in (out / "results").glob("part-*.parquet")) == before


def test_a_failing_notebook_exits_nonzero_naming_notebook_and_cell(tmp_path, capsys):
    argv = ["reproduce", "--preset", "smoke", "--only", "01_ppa_2015", "--output", str(tmp_path),
            "-p", f"results_dir={tmp_path / 'r'}", "-p", f"figures_dir={tmp_path / 'f'}", "-p", 'games=["chess"]']
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "01_ppa_2015.ipynb failed in cell" in err and "game='chess' is unknown" in err


@pytest.mark.parametrize("argv,message", [
    (["reproduce", "--preset", "huge"], "preset='huge' is unknown"),
    (["reproduce", "--only", "99_nothing"], "names no notebook"),
    (["reproduce", "-p", "novalue"], "must be key=value"),
])
def test_bad_reproduce_arguments_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
