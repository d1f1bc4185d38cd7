"""``python -m ppalib site``: the static HTML site a reader opens, built from the executed notebooks, offline.

Steps (``build``):

1. The executed notebooks (``output/notebooks/``, written by ``python -m ppalib reproduce --preset quick``; with
   the committed results that only replots) are reused when each is newer than everything it is made from (the
   source notebooks, the package, the committed results and the papers' numbers); otherwise ``reproduce`` runs
   first.  ``play.ipynb`` is executed the same way with static pictures (a stored game of the PPA 2015 run,
   its search drawn on the board).
2. They are staged in ``output/site-src/`` (the source notebooks are never touched): code cells get a
   ``hide-input`` tag (shown on a click; the logic is in ``ppalib``), notebook 00 carries the table of contents,
   and two pages are written: the explorer's pictures (``figures/explorer/*.png`` and the executed play
   notebook) and how to cite and rebuild.
3. Sphinx (with myst-nb, ``nb_execution_mode = "off"``: nothing runs at build time) writes ``output/site/`` with
   ``-W --keep-going -n`` (every warning, including an unresolved internal reference, fails the build).
4. Every page of the built site is read and each relative ``href`` / ``src`` checked: the file exists and a
   ``#fragment`` names an id on that page (``check_links``).  External links are listed, not fetched (the site
   is built and read offline).

Notebook 00 is the landing page (``index.html`` sends the reader there).
"""
from __future__ import annotations

import html.parser
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import paths

SITE = paths.OUTPUT / "site"
STAGE = paths.OUTPUT / "site-src"
LANDING = "00_reproduction_report"
#: Parameters of the executed play notebook: a stored PPA 2015 game (Breakthrough 5x5, PPA against UCT at 1,000
#: playouts) at ply 12 with its own search replayed, drawn statically (a static page runs no widgets).
PLAY_PARAMETERS = {"results_dir": "ppa2015", "condition": "df23f21c7857a3c3", "ply": 12, "interactive": False}
EXPLORER_FIGURES = paths.FIGURES / "explorer"


def paper_notebooks(executed: Path = paths.EXECUTED_NOTEBOOKS) -> list[Path]:
    """The executed copies of the numbered notebooks, one per source notebook."""
    return [executed / source.name for source in sorted(paths.NOTEBOOKS.glob("[0-9]*.ipynb"))]


def _newest(folders_and_files) -> float:
    newest = 0.0
    for item in folders_and_files:
        item = Path(item)
        if item.is_file():
            newest = max(newest, item.stat().st_mtime)
        elif item.is_dir():
            # a run's lock files (.lock) and caches change without changing what a notebook shows
            newest = max([newest, *(p.stat().st_mtime for p in item.rglob("*") if p.is_file()
                                    and "__pycache__" not in p.parts and not p.name.startswith("."))])
    return newest


def inputs_mtime() -> float:
    """When the newest file the executed notebooks are made from was changed (this module builds the site from
    them, and is not one)."""
    sources = [p for p in (paths.ROOT / "ppalib").rglob("*.py") if p.resolve() != Path(__file__).resolve()]
    return _newest([paths.NOTEBOOKS, *sources, paths.RESULTS, paths.PAPER_DATA])


def stale(executed: list[Path], since: float | None = None) -> list[Path]:
    """The executed copies that are missing or older than their inputs (``inputs_mtime``)."""
    since = inputs_mtime() if since is None else since
    return [path for path in executed if not path.is_file() or path.stat().st_mtime <= since]


def execute_notebooks(rerun: bool = False, log=print) -> list[Path]:
    """The executed notebooks the site shows, made first where missing or stale (see the module docstring)."""
    executed = paper_notebooks()
    if rerun or stale(executed):
        log("[site] executing the notebooks: python -m ppalib reproduce --preset quick")
        subprocess.run([sys.executable, "-m", "ppalib", "reproduce", "--preset", "quick"], cwd=paths.ROOT,
                       check=True)
    else:
        log(f"[site] reusing the executed notebooks in {paths.shown(paths.EXECUTED_NOTEBOOKS)} (newer than their "
            f"sources and the stores)")
    play = paths.EXECUTED_NOTEBOOKS / "play.ipynb"
    if rerun or stale([play]):
        import papermill
        log("[site] executing play.ipynb with static pictures")
        papermill.execute_notebook(str(paths.NOTEBOOKS / "play.ipynb"), str(play), parameters=PLAY_PARAMETERS,
                                   cwd=str(paths.NOTEBOOKS), progress_bar=False)
    return [*executed, play]


def _hide_code(notebook: dict) -> dict:
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            tags = cell.setdefault("metadata", {}).setdefault("tags", [])
            if "hide-input" not in tags:
                tags.append("hide-input")
    return notebook


def _markdown_cell(text: str, cell_id: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": text}


def _explorer_page(play_page: str | None, explorer_figures: Path) -> str:
    lines = ["# Exploring a game: the pictures", "",
             "The explorer (`notebooks/play.ipynb`, `ppalib.explore`) is interactive in JupyterLab: play any agent, "
             "watch two play, step through a stored game and see a search's visits, values and learned weights "
             "drawn on the board.  A static page cannot run it; here are its pictures.", ""]
    if play_page:
        lines += [f"- [The play notebook, executed with static pictures]({play_page}.ipynb): a stored game of the "
                  f"PPA 2015 run (Breakthrough 5x5, PPA against UCT) at ply {PLAY_PARAMETERS['ply']}, with the "
                  f"search made there drawn on the board.",
                  ""]
    shots = sorted(explorer_figures.rglob("*.png")) if explorer_figures.is_dir() else []
    if shots:
        lines += ["## Screenshots of the explorer in JupyterLab", ""]
        for shot in shots:
            name = shot.relative_to(explorer_figures).as_posix()
            title = name.removesuffix(".png").replace("/", ": ").replace("_", " ").replace("-", " ")
            lines += [f"### {title}", "", f"![{title}](explorer/{name})", ""]
    lines += ["To use the explorer, open `notebooks/play.ipynb` in JupyterLab from the project's environment (see "
              "the README, *Exploring a game*).", ""]
    return "\n".join(lines)


def _about_page() -> str:
    citation = paths.ROOT / "CITATION.cff"
    lines = ["# About this site", "",
             "Every table and figure here was rendered by code from the stored games (`data/results/`) and the "
             "papers' numbers (`data/paper/`); the pages are the notebooks as executed by "
             "`python -m ppalib reproduce --preset quick`, built with Sphinx and myst-nb without running anything.",
             "", "Rebuild it from a clone of the repository (offline, pinned dependencies: the `site` extra of "
             "`pyproject.toml`):", "", "```bash", "bash scripts/build_site.sh", "```", "",
             "It lands in `output/site/` (open `output/site/index.html`).", ""]
    if citation.is_file():
        lines += ["## How to cite", "", "`CITATION.cff` in the repository:", "", "```yaml",
                  citation.read_text().rstrip(), "```", ""]
    return "\n".join(lines)


def stage(executed: list[Path], stage_dir: Path = STAGE, landing: str = LANDING,
          explorer_figures: Path = EXPLORER_FIGURES) -> Path:
    """Copy the executed notebooks into ``stage_dir`` with the site's pages and configuration (see the module
    docstring); return ``stage_dir``."""
    if stage_dir.exists():
        shutil.rmtree(stage_dir)
    stage_dir.mkdir(parents=True)
    pages = []
    for path in executed:
        if not path.is_file():
            raise FileNotFoundError(f"{paths.shown(path)} is missing: run python -m ppalib reproduce --preset quick")
        notebook = _hide_code(json.loads(path.read_text()))
        if path.stem != landing:
            pages.append(path.stem)
        (stage_dir / path.name).write_text(json.dumps(notebook, indent=1))
    play = "play" if "play" in pages else None
    pages = [p for p in pages if p != "play"]
    if explorer_figures.is_dir():
        shutil.copytree(explorer_figures, stage_dir / "explorer")
    (stage_dir / "explorer.md").write_text(_explorer_page(play, explorer_figures))
    (stage_dir / "about.md").write_text(_about_page())
    landing_path = stage_dir / f"{landing}.ipynb"
    notebook = json.loads(landing_path.read_text())
    toc = ["```{toctree}", ":hidden:", ":caption: Papers", "", *pages, "```", "", "```{toctree}", ":hidden:",
           ":caption: Explore", "", "explorer", *(["play"] if play else []), "about", "```"]
    notebook["cells"].append(_markdown_cell("\n".join(toc), "ppalib-site-contents"))
    landing_path.write_text(json.dumps(notebook, indent=1))
    shutil.copy(paths.ROOT / "site" / "conf.py", stage_dir / "conf.py")
    shutil.copytree(paths.ROOT / "site" / "_static", stage_dir / "_static")
    return stage_dir


def sphinx_build(stage_dir: Path = STAGE, site: Path = SITE, landing: str = LANDING) -> Path:
    """Sphinx's HTML builder on ``stage_dir`` into ``site`` (every warning an error); ``index.html`` leads to the
    landing page."""
    if site.exists():
        shutil.rmtree(site)
    doctrees = stage_dir.parent / f"{stage_dir.name}-doctrees"
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-n", "-q", "-d", str(doctrees),
               "-D", f"root_doc={landing}", str(stage_dir), str(site)]
    subprocess.run(command, check=True)
    if not (site / "index.html").exists():
        (site / "index.html").write_text(
            f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>ppalib</title>'
            f'<meta http-equiv="refresh" content="0; url={landing}.html"></head>'
            f'<body><a href="{landing}.html">ppalib: the reproduction report</a></body></html>\n')
    return site


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name"):
            if attrs.get(name):
                self.ids.add(attrs[name])
        for name in ("href", "src"):
            if attrs.get(name) and not (tag == "meta"):
                self.links.append(attrs[name])
        if tag == "meta" and attrs.get("http-equiv", "").lower() == "refresh":
            self.links.append(attrs.get("content", "").partition("url=")[2])


def check_links(site: Path = SITE) -> tuple[int, list[str], list[str]]:
    """(pages, broken, external) of the built ``site``: every relative link or source of every HTML page must
    name an existing file and, with a ``#fragment``, an id on that page; external links are collected, not
    fetched."""
    parsed: dict[Path, _Links] = {}

    def read(page: Path) -> _Links:
        if page not in parsed:
            parser = _Links()
            parser.feed(page.read_text(errors="replace"))
            parsed[page] = parser
        return parsed[page]

    # the theme's templates copied to _static are not pages (their links are Jinja expressions)
    pages = sorted(p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts)
    broken, external = [], set()
    for page in pages:
        for link in read(page).links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto") or link.startswith("//"):
                external.add(link)
                continue
            if parts.scheme in ("data", "javascript") or not link:
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            where = f"{page.relative_to(site)}: {link}"
            if not target.is_relative_to(site.resolve()) and not target.is_relative_to(site):
                broken.append(f"{where} (outside the site)")
            elif not target.exists():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in read(target).ids:
                broken.append(f"{where} (no id {parts.fragment!r} there)")
    return len(pages), broken, sorted(external)


def build(rerun: bool = False, log=print) -> Path:
    """Every step of the module docstring; returns the site folder.  Raises RuntimeError on a broken link."""
    start = time.perf_counter()
    executed = execute_notebooks(rerun, log)
    stage_dir = stage(executed)
    log(f"[site] sphinx-build {paths.shown(stage_dir)} -> {paths.shown(SITE)}")
    site = sphinx_build(stage_dir)
    pages, broken, external = check_links(site)
    if broken:
        raise RuntimeError(f"{len(broken)} broken links in {paths.shown(site)}:\n  " + "\n  ".join(broken))
    log(f"[site] {pages} pages, every internal link and anchor resolves ({len(external)} external links, not "
        f"fetched); built in {time.perf_counter() - start:.0f} s: open {paths.shown(site / 'index.html')}")
    return site


__all__ = ["build", "check_links", "stage", "sphinx_build", "execute_notebooks", "stale", "SITE"]
