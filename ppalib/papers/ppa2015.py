"""Cazenave, "Playout Policy Adaptation for Games", ACG 2015 (seed 004): Table 1, PPA vs UCT.

The experiment: for every game, board size and playouts-per-move of the grid, PPA(alpha) plays UCT with the
same playouts, ``games_per_cell`` games, half with each colour; UCT constant c = 0.4 for both.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     2 games at 5x5, 20 playouts, 4 games a cell: seconds, for the tests
quick     all 10 games at 5x5 and 8x8, 1,000 playouts, 200 games a cell: about an hour on 2 cores.  200 games
          give a 95% interval of about +-7 points and 80% power to tell a true 60% from 50%.
paper     exactly Table 1: 10 games x {5x5, 8x8} x {1,000, 10,000} playouts, 500 games a cell (250 a colour)
========  =====================================================================================================
"""
from __future__ import annotations

from pathlib import Path

from ..agents import make_agent
from ..experiments import Condition, Experiment
from ..games import PAPER_GAMES

NAME = "ppa2015"
PAPER_TABLE = "ppa2015_table1.csv"

PRESETS = {
    "smoke": dict(games=["breakthrough", "nogo"], sizes=[5], playouts=[20], games_per_cell=4),
    "quick": dict(games=PAPER_GAMES, sizes=[5, 8], playouts=[1000], games_per_cell=200),
    "paper": dict(games=PAPER_GAMES, sizes=[5, 8], playouts=[1000, 10000], games_per_cell=500),
}
DEFAULTS = dict(alpha=1.0, c=0.4, seed=2015)


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored)."""
    if preset not in PRESETS:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(PRESETS)}")
    result = {**DEFAULTS, **PRESETS[preset]}
    unknown = set(overrides) - set(result)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(result)}")
    result.update({k: v for k, v in overrides.items() if v is not None})
    for key in ("games", "sizes", "playouts"):
        if isinstance(result[key], (str, int)):
            result[key] = [result[key]]
        if not result[key]:
            raise ValueError(f"{key} is empty: give at least one value")
    return result


def make_experiment(results_dir, preset: str = "quick", **overrides) -> Experiment:
    """The Table 1 grid for ``preset`` (see the module docstring), stored under ``results_dir``."""
    s = settings(preset, **overrides)
    conditions = [Condition(game, size, make_agent("ppa", playouts, alpha=s["alpha"], c=s["c"]),
                            make_agent("uct", playouts, c=s["c"]))
                  for game in s["games"] for size in s["sizes"] for playouts in s["playouts"]]
    return Experiment(NAME, tuple(conditions), s["games_per_cell"], s["seed"], Path(results_dir))
