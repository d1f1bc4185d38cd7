"""Source notebooks stay clean through JupyterLab: the pre-save hook of ``jupyter_server_config.py``
(``ppalib.notebook_hygiene``) strips what a run adds, and a real server's open / run / save round trip leaves the
tracked files as they are."""
import copy
import json
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from jupyter_helpers import jupyter_lab
from ppalib.notebook_hygiene import clean_notebook, is_source_notebook

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_readme_starts_jupyterlab_with_the_config_whose_hook_cleans_source_notebooks():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"^\.venv/bin/jupyter lab --config=jupyter_server_config\.py notebooks/play\.ipynb$", readme,
                     flags=re.M)
    config = (ROOT / "jupyter_server_config.py").read_text()
    assert 'c.ContentsManager.pre_save_hook = "ppalib.notebook_hygiene.clean_for_saving"' in config


def test_only_notebooks_directly_in_a_notebooks_folder_are_sources(tmp_path):
    assert is_source_notebook(str(ROOT / "notebooks" / "play.ipynb"))
    assert not is_source_notebook(str(ROOT / "output" / "play.ipynb"))
    assert not is_source_notebook(str(ROOT / "notebooks" / "sub" / "play.ipynb"))
    assert not is_source_notebook(str(ROOT / "notebooks" / "notes.txt"))


def test_cleaning_drops_outputs_counts_run_metadata_and_restores_the_notebook_metadata():
    source = json.loads((ROOT / "notebooks" / "play.ipynb").read_text())
    run = copy.deepcopy(source)
    run["metadata"]["language_info"]["version"] = "0.0.0"
    run["metadata"]["widgets"] = {"state": {}}
    code = next(cell for cell in run["cells"] if cell["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "hello\n"}]
    code["execution_count"] = 3
    code["metadata"]["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
    code["metadata"]["scrolled"] = True
    assert clean_notebook(run, source["metadata"]) == source


@pytest.mark.slow
def test_opening_running_and_saving_notebooks_in_jupyterlab_leaves_the_tracked_files_unchanged(tmp_path):
    """JupyterLab from the README's command, driven through its REST API and a kernel's websocket as the browser
    drives it: open play.ipynb (run whole: a session and its widget), the report (00) and 04 (their first two
    code cells: parameters and set-up), then save each with its outputs and the kernel's metadata; the files on
    disk, and git, see no change."""
    before = {path: path.read_bytes() for path in NOTEBOOKS}
    status_before = _git_status()
    with jupyter_lab(ROOT, tmp_path) as server:
        for name, cells in (("play.ipynb", None), ("00_reproduction_report.ipynb", 2),
                            ("04_feature_biasing_2019.ipynb", 2)):
            path = f"notebooks/{name}"
            content = server.get_notebook(path)["content"]
            server.run_notebook(path, content, cells)
            ran = [cell for cell in content["cells"] if cell["cell_type"] == "code" and cell["execution_count"]]
            assert ran and any(cell["outputs"] for cell in ran), name  # the save has outputs to strip
            assert not [o for c in ran for o in c["outputs"] if o["output_type"] == "error"], name
            server.save_notebook(path, content)
            saved = nbformat.reads(json.dumps(server.get_notebook(path)["content"]), as_version=4)
            assert all(not c.outputs for c in saved.cells if c.cell_type == "code"), name
    after = {path: path.read_bytes() for path in NOTEBOOKS}
    assert [p.name for p in NOTEBOOKS if before[p] != after[p]] == []
    assert _git_status() == status_before  # clean in a clean checkout; nothing new in a working one


def _git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", "notebooks", "figures",
                           "data"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
