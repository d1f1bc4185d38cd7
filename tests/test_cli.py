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


@pytest.mark.parametrize("argv,message", [
    (["match", "go", "--workers", "0"], "--workers=0 is out of range: allowed 1..4096"),
    (["match", "go", "--workers", "-1"], "--workers=-1 is out of range"),
    (["match", "go", "--opponent-playouts", "0"], "--opponent-playouts=0 is out of range"),
    (["match", "go", "--opponent-playouts", "-3"], "--opponent-playouts=-3 is out of range"),
    (["match", "go", "--results", ""], "--results='' is empty"),
    (["match", "go", "--results", "  "], "--results='  ' is empty"),
    (["reproduce", "--output", ""], "--output='' is empty"),
])
def test_silent_defaults_are_refused(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a refused --results '' must not have written into the current directory
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("argv,message", [
    (["match", "go", "--agent", "rave:adaptive=maybe"], "adaptive='maybe' is not a boolean"),
    (["match", "go", "--agent", "ppa:alpha=1,alpha=2"], "alpha is given twice"),
    (["match", "go", "--agent", "ppa:playouts=5"], "playouts cannot be given as key=value"),
    (["match", "go", "--agent", "ppa:temperature=1"], "unknown parameter 'temperature' of ppa"),
    (["match", "go", "--agent", "ppa:alpha"], "'alpha' must be key=value"),
    (["match", "go", "--agent", "ppa:alpha="], "alpha='' is not a number"),
    (["match", "go", "--agent", "ppa:alpha=-1"], "alpha=-1.0 is out of range"),
    (["match", "go", "--agent", "mast:k=inf"], "k=inf is out of range"),
    (["match", "go", "--agent", "rave:rave_rate=2"], "rave_rate=2.0 is out of range"),
    (["match", "go", "--agent", "PPA"], "kind='PPA' is unknown"),
    (["match", "go", "--agent", ""], "kind='' is unknown"),
    (["match", "go", "--opponent", "uct:alpha=0.5"], "--opponent 'uct:alpha=0.5': unknown parameter 'alpha' of uct"),
    (["match", "go", "--agent", "ppa:k=2"], "unknown parameter 'k' of ppa"),
    (["match", "go", "--name", ""], "name='' must be a non-empty string"),
    (["match", "go", "--name", "a/b"], "name='a/b' must be a non-empty string without '/'"),
    (["match", "go", "--seed", "-1"], "seed=-1 is out of range"),
    (["match", "go", "--games", "-5"], "games_per_condition=-5 is out of range"),
    (["match", "go", "--size", "1"], "size=1 is out of range for go"),
    (["match", "chess"], "game='chess' is unknown"),
    (["match", "go", "--game-option", "turns=5"], "go has no option(s) ['turns']"),
    (["match", "blind_cashing_checks", "--size", "6", "--game-option", "turns=7"],
     "turns=7 is out of range for 6 checks: allowed 1..6"),
    (["match", "blind_cashing_checks", "--size", "6", "--game-option", "turns=x"], "turns='x' is not an integer"),
    (["match", "blind_cashing_checks", "--size", "6", "--game-option", "turns=2.5"], "turns='2.5' is not an integer"),
    (["match", "blind_cashing_checks", "--size", "6", "--game-option", "turns=2", "--game-option", "turns=3"],
     "--game-option turns is given twice"),
    (["perft", "blind_cashing_checks", "--size", "6", "--game-option", "komi"], "'komi' must be key=value"),
    (["perft", "go", "--game-option", "komi=5"], "go has no option(s) ['komi']; its options: ['ply_cap']"),
    (["perft", "blind_cashing_checks", "--size", "61"], "size=61 is out of range for blind_cashing_checks"),
    (["match", "go", "--playouts", "10000001"], "playouts=10000001 is out of range: allowed 1..10000000"),
    (["match", "go", "--agent", "ppa:alpha=1e400"], "alpha=inf is out of range"),
    (["match", "go", "--agent", "ppa:alpha=0x10"], "alpha='0x10' is not a number"),
    (["match", "go", "--agent", "rave:adaptive=true,margin=-1"], "margin=-1.0 is out of range"),
    (["match", "go", "--agent", "rave:k_rave=1.5e3,rave_rate=-0.1"], "rave_rate=-0.1 is out of range"),
    (["bench", "--games", "chess"], "game='chess' is unknown"),
    (["bench", "--size", "3", "--games", "breakthrough"], "size=3 is out of range for breakthrough"),
])
def test_bad_agent_and_match_values_exit_2_with_one_message(argv, message, capsys, tmp_path):
    assert main(argv + (["--results", str(tmp_path / "r")] if argv[0] == "match" else [])) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("text,adaptive", [("1", True), ("true", True), ("True", True), ("YES", True),
                                           ("yes", True), ("0", False), ("false", False), ("No", False)])
def test_boolean_agent_fields_take_the_spellings_people_type(text, adaptive):
    from ppalib.cli_values import parse_agent
    assert parse_agent(f"rave:adaptive={text}", 10).adaptive is adaptive


def test_every_field_of_every_agent_kind_is_reachable_from_the_command_line():
    """Each field's default written as text parses back to it, by the field's declared type (no list of names)."""
    import dataclasses
    from ppalib.agents import AGENT_KINDS, make_agent
    from ppalib.cli_values import SET_ELSEWHERE, parse_agent
    required = {"greedy": {"policy": "0123456789abcdef"}}  # a kind with no default for a parameter
    for kind in AGENT_KINDS:
        default = make_agent(kind, 10, **required.get(kind, {}))
        for field in dataclasses.fields(default):
            if field.name in SET_ELSEWHERE:
                continue
            value = getattr(default, field.name)
            given = {**required.get(kind, {}), field.name: value}
            text = ",".join(f"{name}={v}" for name, v in given.items())
            assert parse_agent(f"{kind}:{text}", 10) == default, (kind, field.name)


def test_adaptive_rave_is_played_from_the_command_line(tmp_path, capsys):
    results = tmp_path / "r"
    assert main(["match", "blind_cashing_checks", "--size", "8", "--game-option", "turns=6",
                 "--agent", "rave:adaptive=yes,margin=0.1", "--opponent", "rave:adaptive=0", "--playouts", "30",
                 "--games", "2", "--workers", "1", "--quiet", "--results", str(results)]) == 0
    assert "ARAVE(k=700, margin=0.1) vs RAVE(k=700, rate=1)" in capsys.readouterr().out
    from ppalib.store import ResultsStore
    frame = ResultsStore(results).load()
    assert [json.loads(p)["adaptive"] for p in frame["agent_params"]] == [True, True]
    assert [json.loads(p)["adaptive"] for p in frame["opponent_params"]] == [False, False]
    assert set(frame["game_options"]) == {'{"turns": 6}'}


def test_opponent_playouts_are_used_when_given(tmp_path, capsys):
    assert main(["match", "domineering", "--size", "4", "--playouts", "20", "--opponent-playouts", "5",
                 "--games", "2", "--workers", "1", "--quiet", "--results", str(tmp_path)]) == 0
    assert "20 vs 5 playouts" in capsys.readouterr().out
    from ppalib.store import ResultsStore
    frame = ResultsStore(tmp_path).load()
    assert set(frame["agent_playouts"]) == {20} and set(frame["opponent_playouts"]) == {5}


def test_borderline_values_mast_k_0_and_cashing_checks_with_n_equal_to_k_are_accepted(tmp_path, capsys):
    """Decided: accepted (README, "Using it"): MAST(0) plays uniform Gibbs playouts like PPA(0); turns = N takes
    every check."""
    assert main(["match", "blind_cashing_checks", "--size", "6", "--game-option", "turns=6", "--agent", "mast:k=0",
                 "--playouts", "20", "--games", "2", "--workers", "1", "--quiet", "--results", str(tmp_path)]) == 0
    assert "MAST(0) vs UCT" in capsys.readouterr().out
    from ppalib.store import ResultsStore
    assert set(ResultsStore(tmp_path).load()["plies"]) == {6}  # every check taken
    assert main(["perft", "blind_cashing_checks", "--size", "6", "--game-option", "turns=6", "--depth", "6"]) == 0
    assert capsys.readouterr().out.strip().endswith("depth 6: 720")  # 6! orders of taking the 6 checks
