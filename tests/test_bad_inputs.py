"""Bad notebook parameters and reproduce arguments: one clear message naming the parameter, before any game."""
import pytest

from ppalib.__main__ import main
from ppalib.papers import ppa2015


@pytest.mark.parametrize("overrides,error,message", [
    (dict(games=[]), ValueError, "games is empty"),
    (dict(sizes=[]), ValueError, "sizes is empty"),
    (dict(playouts=[]), ValueError, "playouts is empty"),
    (dict(games=["chess"]), ValueError, "game='chess' is unknown"),
    (dict(games=["breakthrough"], sizes=[3]), ValueError, "size=3 is out of range for breakthrough"),
    (dict(sizes=["8"]), TypeError, "size must be an integer"),
    (dict(playouts=[-10]), ValueError, "playouts=-10 is out of range"),
    (dict(games_per_cell="ten"), TypeError, "games_per_cell must be an integer"),
    (dict(alpha=float("nan")), ValueError, "alpha=nan is out of range"),
    (dict(c=-1), ValueError, "c=-1.0 is out of range"),
    (dict(seed=1.5), TypeError, "seed must be an integer"),
    (dict(temperature=2), ValueError, "unknown parameter"),
])
def test_bad_notebook_parameter_is_named(tmp_path, overrides, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        ppa2015.make_experiment(tmp_path, "smoke", **overrides)
    assert not any(tmp_path.iterdir())


def test_unknown_preset_in_the_api():
    with pytest.raises(ValueError, match="preset='fast' is unknown"):
        ppa2015.settings("fast")


def test_contradictory_presets_are_refused(capsys):
    assert main(["reproduce", "--preset", "smoke", "-p", "preset=paper"]) == 2
    assert "give the preset with --preset" in capsys.readouterr().err


def test_read_only_output_folder_is_refused(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert main(["reproduce", "--preset", "smoke", "--output", str(tmp_path / "file" / "out")]) == 2
    assert "--output" in capsys.readouterr().err


def test_wrong_type_through_the_cli_fails_in_the_notebook_naming_cell_and_parameter(tmp_path, capsys):
    argv = ["reproduce", "--preset", "smoke", "--output", str(tmp_path), "-p", f"results_dir={tmp_path / 'r'}",
            "-p", f"figures_dir={tmp_path / 'f'}", "-p", "games_per_cell=ten"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "failed in cell" in err and "games_per_cell must be an integer" in err


@pytest.mark.parametrize("overrides,message", [
    (dict(tables=[]), "tables is empty"),
    (dict(tables=[11]), r"tables=\[11\] is out of range: allowed 1..10"),
    (dict(tables=["2"]), r"tables=\['2'\] is out of range"),
    (dict(grid="some"), "grid='some' is unknown"),
    (dict(size=3), "size=3 is out of range"),
    (dict(playouts=0), "playouts=0 is out of range"),
])
def test_bad_ppaf2016_parameter_is_named(tmp_path, overrides, message):
    from ppalib.papers import ppaf2016
    with pytest.raises(ValueError, match=message):
        ppaf2016.make_experiment(tmp_path, "smoke", **overrides)


@pytest.mark.parametrize("overrides,message", [
    (dict(grid={"playouts": [100]}), "grid must map each of"),
    (dict(grid={"playouts": [], "k_rave": [1], "rave_rate": [1.0], "margin": [0.0]}), "grid\\['playouts'\\] is empty"),
    (dict(matches=0), "matches=0 is out of range"),
    (dict(grid={"playouts": [100], "k_rave": [1], "rave_rate": [1.5], "margin": [0.0]}), "rave_rate=1.5 is out of range"),
])
def test_bad_adaptive_rave_parameter_is_named(tmp_path, overrides, message):
    from ppalib.papers import adaptive_rave2013
    with pytest.raises(ValueError, match=message):
        adaptive_rave2013.make_experiment(tmp_path, "smoke", **overrides)
