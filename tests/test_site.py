"""The artefact a reader opens: CITATION.cff, the Binder / repo2docker files, and the static site's build on two
tiny executed notebooks (the full build executes every notebook: ``bash scripts/build_site.sh``)."""
import base64
import io
import json
import os
import tomllib
from pathlib import Path

import pytest
import yaml

from ppalib import site

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_citation_cff_is_valid_cff_1_2_0_and_names_this_version():
    import jsonschema
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0-schema.json").read_text())
    jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(citation)
    assert citation["cff-version"] == "1.2.0"
    assert citation["version"] == PROJECT["version"] and citation["license"] == PROJECT["license"]
    assert len(citation["references"]) == 4  # the four reproduced papers


def test_binder_installs_the_package_over_the_pinned_environment():
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = next(item for item in environment["dependencies"] if isinstance(item, str) and item.startswith("python="))
    assert PROJECT["requires-python"] == ">=" + python.split("=")[1]
    post_build = ROOT / "postBuild"
    assert os.access(post_build, os.X_OK)
    commands = [line for line in post_build.read_text().splitlines() if line and not line.startswith(("#", "set "))]
    assert commands == ["python -m pip install --no-deps -e ."]  # the pins come from environment.yml only
    pins = {pin.split("==")[0] for pin in PROJECT["optional-dependencies"]["site"]}
    assert {"sphinx", "myst-nb", "sphinx-book-theme"} <= pins  # the site builds from the same pins


def _png() -> str:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(figsize=(2, 1))
    axes.plot([0, 1], [0, 1])
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode()


def _executed_notebook(path: Path, title: str, outputs: list[dict], markdown: str = "") -> Path:
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3",
                                                                              "display_name": "Python 3",
                                                                              "language": "python"}},
                "cells": [{"cell_type": "markdown", "id": "title", "metadata": {},
                           "source": f"# {title}\n\n{markdown}"},
                          {"cell_type": "code", "id": "code", "metadata": {}, "execution_count": 1,
                           "source": "show()", "outputs": outputs}]}
    path.write_text(json.dumps(notebook))
    return path


@pytest.mark.slow
def test_a_tiny_site_builds_offline_with_every_link_resolved(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    executed = tmp_path / "executed"
    executed.mkdir()
    landing = _executed_notebook(executed / "00_tiny.ipynb", "Tiny report", [
        {"output_type": "display_data", "metadata": {},
         "data": {"text/markdown": "| paper | notebook |\n|---|---|\n| one | [01_tiny](01_tiny.ipynb) |",
                  "text/plain": "table"}}], markdown="See [the paper](01_tiny.ipynb).")
    paper = _executed_notebook(executed / "01_tiny.ipynb", "Tiny paper", [
        {"output_type": "stream", "name": "stdout", "text": "saved figures/01_tiny/x.png\n"},
        {"output_type": "display_data", "metadata": {}, "data": {"image/png": _png(), "text/plain": "figure"}}])
    before = {path: path.read_bytes() for path in (landing, paper)}
    shots = tmp_path / "explorer"
    shots.mkdir()
    (shots / "hex_after_a_click.png").write_bytes(base64.b64decode(_png()))

    stage_dir = site.stage([landing, paper], tmp_path / "stage", landing="00_tiny", explorer_figures=shots)
    built = site.sphinx_build(stage_dir, tmp_path / "site", landing="00_tiny")

    assert {path.read_bytes() for path in (landing, paper)} == set(before.values())  # executed copies untouched
    pages, broken, external = site.check_links(built)
    assert broken == [] and external == []
    assert pages == 7  # 00, 01, explorer, about, search, genindex and index.html (which leads to 00)
    report = (built / "00_tiny.html").read_text()
    assert 'href="01_tiny.html"' in report and "<table" in report  # the Markdown output is a table with a page link
    assert "hide-input" in (built / "01_tiny.html").read_text() and "data:image/png" not in report
    assert (built / "_images").is_dir() and any((built / "_images").iterdir())  # the figure, as a file
    explorer = (built / "explorer.html").read_text()
    assert "hex after a click" in explorer and 'src="_images/hex_after_a_click.png"' in explorer
    assert "00_tiny.html" in (built / "index.html").read_text()


def test_check_links_reports_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<html><body><h1 id="top">A</h1><a href="b.html#nowhere">b</a>'
                                     '<a href="c.html">c</a><a href="#top">up</a><img src="x.png">'
                                     '<a href="https://example.org/">out</a></body></html>')
    (tmp_path / "b.html").write_text('<html><body><p id="here">B</p><a href="a.html#top">a</a></body></html>')
    pages, broken, external = site.check_links(tmp_path)
    assert pages == 2 and external == ["https://example.org/"]
    assert broken == ["a.html: b.html#nowhere (no id 'nowhere' there)", "a.html: c.html (no such file)",
                      "a.html: x.png (no such file)"]


def test_executed_notebooks_are_stale_when_missing_or_older_than_their_inputs(tmp_path):
    fresh, old = tmp_path / "fresh.ipynb", tmp_path / "old.ipynb"
    fresh.write_text("{}")
    old.write_text("{}")
    os.utime(old, (1000.0, 1000.0))
    os.utime(fresh, (3000.0, 3000.0))
    assert site.stale([fresh, old, tmp_path / "missing.ipynb"], since=2000.0) == [old, tmp_path / "missing.ipynb"]
