"""The command line."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ppalib.__main__ import main
from ppalib.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
PERFT = {key: counts for path in sorted((ROOT / "tests" / "data").glob("perft*.json"))
         for key, counts in json.loads(path.read_text())["counts"].items()}


@pytest.mark.parametrize("name", list(GAMES))
def test_perft_command_prints_the_regression_count_for_every_game(name, capsys):
    size = 5 if f"{name}/5" in PERFT else 6  # Othello's sides are even
    assert main(["perft", name, "--size", str(size), "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"depth 3: {PERFT[f'{name}/{size}'][3]}")


@pytest.mark.parametrize("argv,message", [
    (["perft", "chess"], "game='chess' is unknown"),
    (["perft", "go", "--size", "40"], "size=40 is out of range"),
    (["perft", "go", "--depth", "-1"], "depth=-1"),
    (["match", "go", "--playouts", "0"], "playouts=0 is out of range"),
    (["match", "go", "--games", "0"], "games_per_condition=0 is out of range"),
    (["match", "go", "--agent", "ppa:alpha=x"], "alpha='x' is not a number"),
    (["match", "go", "--agent", "ppa:alpha=nan"], "alpha=nan is out of range"),
])
def test_bad_cli_input_exits_2_with_one_message(argv, message, capsys, tmp_path):
    assert main(argv + (["--results", str(tmp_path)] if argv[0] == "match" else [])) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_python_dash_m_ppalib_runs(tmp_path):
    out = subprocess.run([sys.executable, "-m", "ppalib", "match", "domineering", "--size", "4", "--playouts",
                          "20", "--games", "4", "--workers", "1", "--quiet", "--results", str(tmp_path)],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    assert "4 games" in out
