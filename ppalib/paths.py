"""Every path the notebooks and the CLI use, in one place.

The project root is the folder holding ``notebooks/`` next to the installed package (an editable install from
a clone), else the current directory.
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE_PARENT = Path(__file__).resolve().parent.parent


def project_root() -> Path:
    return _PACKAGE_PARENT if (_PACKAGE_PARENT / "notebooks").is_dir() else Path.cwd()


ROOT = project_root()
NOTEBOOKS = ROOT / "notebooks"
PAPER_DATA = ROOT / "data" / "paper"
RESULTS = ROOT / "data" / "results"
FIGURES = ROOT / "figures"
OUTPUT = ROOT / "output"  # ignored by git: runs other than the committed one, executed notebooks
EXECUTED_NOTEBOOKS = OUTPUT / "notebooks"


def shown(path) -> str:
    """``path`` as a reader should see it: relative to the project root when inside it (``figures/01_ppa_2015/
    x.png``), so that executed notebooks and the site built from them show no machine's folders."""
    path = Path(path)
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def without_root(text: str) -> str:
    """``text`` with every absolute path inside the project root written relative to it (see ``shown``)."""
    return text.replace(f"{ROOT}/", "")

