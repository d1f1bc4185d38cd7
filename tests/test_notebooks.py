"""Notebooks: headless reproduction at the smoke preset, cached replots, failures that name the cell, clean sources."""
import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from ppalib import paths
from ppalib.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
EXPECTED_OUTPUTS = {  # what each notebook writes to figures_dir at the smoke preset
    "00_reproduction_report": {"papers.md", "papers.csv", "cells.md", "cells.csv", "claims.md", "claims.csv",
                               "ours_vs_paper.png", "ours_vs_paper.svg"},
    "01_ppa_2015": {"table1.md", "table1.csv", "table1_dots.png", "table1_dots.svg", "scaling_by_size.png"},
    "02_ppaf_2016": {"table2.md", "table10.md", "claims.md", "claims.csv", "sweeps.png", "sweeps.svg", "findings.md"},
    "03_adaptive_rave_2013": {"headline.md", "headline.csv", "figures_1_4.png", "figures_1_4.svg", "findings.md",
                              "figures_1_4.csv"},
    "04_feature_biasing_2019": {"fig4_learning_curves.png", "fig5_win_vs_slowdown.png", "fig6_greedy.png",
                                "fig7_pruned_learning_curves.png", "fig8_pruned_win_vs_slowdown.png",
                                "fig10_top_features.png", "claims.md", "claims.csv", "evaluations.csv",
                                "slowdowns.csv", "yavalath_handmade.md", "budgets.md", "budget_run_progress.md",
                                "budget_run_final_equal_time.md", "budget_run_paper_cost.md"},
    "05_future_work": {"grave_vs_ppaf.md", "kept_policy_vs_ppaf.md", "optimal_draws.md", "node_vs_root.md",
                       "matches_long.csv", "optimal_draws_long.csv", "findings.md", "future_work.png",
                       "future_work.svg"},
}


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_source_notebook_has_no_outputs_and_a_parameters_cell(path):
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code)
    assert sum("parameters" in cell.metadata.get("tags", []) for cell in code) == 1
    assert "PLACEHOLDER" not in json.dumps(notebook)


@pytest.mark.parametrize("path", sorted(paths.NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_source_notebook_is_stored_as_jupyter_writes_it(path):
    """Byte for byte what JupyterLab's save writes (nbformat's canonical form and a final newline): a file in
    another key order would change at every save even with the outputs stripped (test_notebook_hygiene)."""
    text = path.read_text()
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n"


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_every_notebook_parameter_is_declared_with_the_notebooks_default(path):
    """The parameters cell and the declarations the validator uses (``ppalib.papers``) list the same names with
    the same defaults, so nothing a notebook takes escapes validation."""
    from ppalib.papers import COMMITTED_PRESET, declared_parameters, paper_module
    cell = next(c for c in nbformat.read(path, as_version=4).cells if "parameters" in c.metadata.get("tags", []))
    assigned = {node.targets[0].id: ast.literal_eval(node.value) for node in ast.parse(cell.source).body}
    declared = declared_parameters(paper_module(path.stem))
    assert set(assigned) == {"preset", *declared}
    assert assigned["preset"] == COMMITTED_PRESET
    assert {name: assigned[name] for name in declared} == {name: p.default for name, p in declared.items()}


def _fresh_clone(target: Path) -> Path:
    """``git clone`` of this repository, with the working tree's uncommitted changes (tracked and new files)
    committed on top, so that the clone holds exactly the code under test."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout")
    subprocess.run(["git", "clone", "-q", str(ROOT), str(target)], check=True)
    listed = subprocess.run(["git", "ls-files", "-z", "-m", "-o", "-d", "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, listed):
        source, copy = ROOT / name, target / name
        if source.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
        else:
            copy.unlink(missing_ok=True)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@invalid", "-C", str(target)]
    subprocess.run(git + ["add", "-A"], check=True)
    if subprocess.run(git + ["diff", "--cached", "--quiet"]).returncode:
        subprocess.run(git + ["commit", "-q", "-m", "working tree under test"], check=True)
    return target


def _reproduce_in(clone: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(clone)}
    return subprocess.run([sys.executable, "-m", "ppalib", "reproduce", *args], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    """``reproduce --preset smoke`` in a fresh clone, as a newcomer's first command."""
    clone = _fresh_clone(tmp_path_factory.mktemp("clone") / "ppalib")
    out = _reproduce_in(clone, "--preset", "smoke")
    assert out.returncode == 0, out.stderr[-3000:]
    return clone


def test_reproduce_smoke_in_a_fresh_clone_leaves_every_committed_file_alone(smoke_run):
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=smoke_run, check=True,
                            capture_output=True, text=True).stdout
    assert status == ""
    assert not list((smoke_run / "data" / "results").glob("*/.part-*"))


def test_reproduce_smoke_writes_executed_copies_figures_and_tables(smoke_run):
    output = smoke_run / "output"
    for source in SOURCES:
        executed = nbformat.read(output / "notebooks" / source.name, as_version=4)
        assert any(cell.get("outputs") for cell in executed.cells if cell.cell_type == "code")
        names = {p.name for p in (output / "smoke" / "figures" / source.stem).iterdir()}
        assert EXPECTED_OUTPUTS[source.stem] <= names, source.stem
    for paper in ("ppa2015", "ppaf2016", "adaptive_rave2013", "soemers2019", "future_work"):
        assert list((output / "smoke" / "results" / paper).glob("part-*.parquet")), paper


def test_changing_only_a_plotting_parameter_plays_no_game(smoke_run):
    """Two notebooks, not six (each costs a kernel start): 01, whose run is the shared ``experiments.run``, and 04,
    whose staged pipeline (self-play, training, evaluation) caches each stage itself."""
    results = smoke_run / "output" / "smoke" / "results"
    before = sorted(p.relative_to(results) for p in results.glob("*/part-*.parquet"))
    out = _reproduce_in(smoke_run, "--preset", "smoke", "--only", "01_ppa_2015", "--only", "04_feature_biasing_2019",
                        "-p", "dpi=72", "-p", "style=ticks")
    assert out.returncode == 0, out.stderr[-3000:]
    assert sorted(p.relative_to(results) for p in results.glob("*/part-*.parquet")) == before


def test_a_bad_parameter_given_to_a_notebook_directly_fails_in_its_first_code_cell(tmp_path):
    """papermill without ``reproduce``: the notebook's own first cell refuses the value, before any game."""
    import papermill
    from papermill.exceptions import PapermillExecutionError
    source = ROOT / "notebooks" / "01_ppa_2015.ipynb"
    with pytest.raises(PapermillExecutionError) as caught:
        papermill.execute_notebook(str(source), str(tmp_path / "out.ipynb"), kernel_name="python3",
                                   progress_bar=False, cwd=str(ROOT / "notebooks"),
                                   parameters={"preset": "smoke", "dpi": "high", "results_dir": str(tmp_path / "r"),
                                               "figures_dir": str(tmp_path / "f")})
    notebook = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    executed = [c for c in notebook.cells if c.cell_type == "code" and c.execution_count is not None]
    assert [set(c.metadata.get("tags", [])) & {"parameters", "injected-parameters"} for c in executed] == \
        [{"parameters"}, {"injected-parameters"}, set()]  # it stopped in the first cell after the parameters
    assert "notebook_setup(" in executed[-1].source and "notebook_setup(" in caught.value.source
    assert caught.value.ename == "TypeError" and "dpi must be an integer in 10..2400, got 'high'" in caught.value.evalue
    assert not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


def test_a_failing_notebook_exits_nonzero_naming_notebook_and_cell(tmp_path, capsys):
    """A failure only the run can find (a Dask scheduler that does not answer) stops the command naming both."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = ["reproduce", "--preset", "smoke", "--only", "01_ppa_2015", "--output", str(tmp_path),
            "-p", f"results_dir={tmp_path / 'r'}", "-p", f"figures_dir={tmp_path / 'f'}", "-p", "executor=dask",
            "-p", f"scheduler_address=tcp://127.0.0.1:{port}"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "01_ppa_2015.ipynb failed in cell" in err and "is unreachable" in err


@pytest.mark.parametrize("argv,message", [
    (["reproduce", "--preset", "huge"], "preset='huge' is unknown"),
    (["reproduce", "--only", "99_nothing"], "names no notebook"),
    (["reproduce", "-p", "novalue"], "must be key=value"),
])
def test_bad_reproduce_arguments_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
