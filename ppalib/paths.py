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
