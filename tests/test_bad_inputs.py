"""Bad notebook parameters and reproduce arguments: one clear message naming the parameter, before any game."""
import re
from pathlib import Path

import pytest

from ppalib.__main__ import main
from ppalib.papers import ppa2015


@pytest.mark.parametrize("overrides,error,message", [
    (dict(games=[]), ValueError, "games is empty"),
    (dict(sizes=[]), ValueError, "sizes is empty"),
    (dict(playouts=[]), ValueError, "playouts is empty"),
    (dict(games=["chess"]), ValueError, "game='chess' is unknown"),
    (dict(games=["breakthrough"], sizes=[3]), ValueError, "size=3 is out of range for breakthrough"),
    (dict(sizes=["8"]), TypeError, "sizes must be an integer"),
    (dict(playouts=[-10]), ValueError, "playouts=-10 is out of range"),
    (dict(games_per_cell="ten"), TypeError, "games_per_cell must be an integer"),
    (dict(playouts=[20, 40], games_per_cell=[4, 2, 2]), ValueError, "must be one number, or one per entry"),
    (dict(alpha=float("nan")), ValueError, "alpha=nan is out of range"),
    (dict(c=-1), ValueError, "c=-1 is out of range"),
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


def test_wrong_type_through_the_cli_is_refused_before_any_notebook_runs(tmp_path, capsys):
    argv = ["reproduce", "--preset", "smoke", "--output", str(tmp_path / "out"), "-p", f"results_dir={tmp_path / 'r'}",
            "-p", f"figures_dir={tmp_path / 'f'}", "-p", "games_per_cell=ten"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "games_per_cell must be an integer" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists() and not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


@pytest.mark.parametrize("overrides,message", [
    (dict(tables=[]), "tables is empty"),
    (dict(tables=[11]), r"tables=11 is out of range \(in tables=\[11\]\): allowed an integer in 1..10"),
    (dict(tables=["2"]), r"tables must be an integer in 1..10, or a non-empty list of them, got '2'"),
    (dict(grid="some"), "grid='some' is unknown"),
    (dict(size=3), "size=3 is out of range"),
    (dict(playouts=0), "playouts=0 is out of range"),
])
def test_bad_ppaf2016_parameter_is_named(tmp_path, overrides, message):
    from ppalib.papers import ppaf2016
    with pytest.raises((ValueError, TypeError), match=message):
        ppaf2016.make_experiment(tmp_path, "smoke", **overrides)


@pytest.mark.parametrize("overrides,message", [
    (dict(grid={"playouts": [100]}), "grid must map each of"),
    (dict(grid={"playouts": [], "k_rave": [1], "rave_rate": [1.0], "margin": [0.0]}), "grid\\['playouts'\\] is empty"),
    (dict(matches=0), "matches=0 is out of range"),
    (dict(grid={"playouts": [100], "k_rave": [1], "rave_rate": [1.5], "margin": [0.0]}),
     r"grid\['rave_rate'\]=1.5 is out of range"),
])
def test_bad_adaptive_rave_parameter_is_named(tmp_path, overrides, message):
    from ppalib.papers import adaptive_rave2013
    with pytest.raises(ValueError, match=message):
        adaptive_rave2013.make_experiment(tmp_path, "smoke", **overrides)


REPRODUCE_BAD_PARAMETERS = [
    (["-p", "badparam=1"], "'badparam' is not a parameter of any selected notebook; known parameters: preset, "),
    (["-p", "games_per_cel=2"], "(did you mean 'games_per_cell'?)"),
    (["--only", "03_adaptive_rave_2013", "-p", "games_per_cell=2"],
     "'games_per_cell' is not a parameter of notebook 03_adaptive_rave_2013"),
    (["-p", "playouts=1e3"], "playouts must be an integer in 1..10000000, or a non-empty list of them, got 1000.0 "
                             "(float); write 1000"),
    (["-p", 'playouts="1000"'], "write the number without quotes"),
    (["-p", 'dpi="high"'], "dpi must be an integer in 10..2400, got 'high' (str)"),
    (["-p", "dpi=0"], "dpi=0 is out of range"),
    (["-p", "dpi=72.5"], "dpi must be an integer"),
    (["-p", "style=fancy"], "style='fancy' is unknown: use one of 'darkgrid', 'whitegrid'"),
    (["-p", "executor=cluster"], "executor='cluster' is unknown"),
    (["-p", "executor=null"], "executor must be one of 'process', 'serial', 'dask', got None"),
    (["-p", "workers=0"], "workers=0 is out of range"),
    (["-p", "workers=2.5"], "workers must be an integer"),
    (["-p", "executor=serial", "-p", "workers=2"], "workers=2 is given but executor='serial'"),
    (["-p", "scheduler_address=tcp://h:1"], "scheduler_address is given but executor='process'"),
    (["-p", "executor=dask", "-p", "scheduler_address=localhost:8786"], "must look like 'tcp://host:8786'"),
    (["-p", "results_dir="], "results_dir='' is empty"),
    (["-p", "figures_dir=5"], "figures_dir must be a non-empty string, got 5 (int)"),
    (["-p", "seed=-1"], "seed=-1 is out of range"),
    (["-p", "seed=true"], "seed must be an integer in 0..9223372036854775807, got True (bool)"),
    (["-p", "seed=1", "-p", "seed=2"], "-p seed is given twice (1 and 2)"),
    (["-p", "c=Infinity"], "c=inf is out of range"),
    (["-p", "c=-0.5"], "c=-0.5 is out of range"),
    (["--only", "01_ppa_2015", "-p", "alpha=NaN"], "alpha=nan is out of range"),
    (["--only", "01_ppa_2015", "-p", "alpha=high"], "alpha must be a number >= 0, got 'high'"),
    (["-p", "games=[go]"], "(a list must be JSON with quoted names"),
    (["-p", 'games=["go", 5]'], "games must be a game name, or a non-empty list of them, got 5 (int)"),
    (["-p", "games=chess"], "game='chess' is unknown"),
    (["-p", "sizes=[]"], "sizes is empty"),
    (["-p", "sizes=25"], "sizes=25 is out of range"),
    (["--only", "01_ppa_2015", "-p", "sizes=3", "-p", 'games="go"'], None),  # go is fine at 3x3: no error
    (["--only", "01_ppa_2015", "-p", "sizes=3", "-p", 'games="breakthrough"'],
     "size=3 is out of range for breakthrough"),
    (["-p", "games_per_cell=10000001"], "games_per_cell=10000001 is out of range"),
    (["--only", "02_ppaf_2016", "-p", "tables=0"], "tables=0 is out of range"),
    (["--only", "02_ppaf_2016", "-p", "grid=some"], "grid='some' is unknown"),
    (["--only", "02_ppaf_2016", "-p", "grid=Best"], "(did you mean 'best'?)"),
    (["--only", "02_ppaf_2016", "-p", "size=3"], "size=3 is out of range"),
    (["--only", "03_adaptive_rave_2013", "-p", 'grid={"playouts": [10]}'], "grid must map each of"),
    (["--only", "03_adaptive_rave_2013", "-p",
      'grid={"playouts": [100], "k_rave": [0], "rave_rate": [2], "margin": [0]}'],
     "grid['rave_rate']=2 is out of range"),
    (["--only", "03_adaptive_rave_2013", "-p", "matches=0"], "matches=0 is out of range"),
    (["--only", "02_ppaf_2016", "-p", "tables=[2, 2]"], "tables=[2, 2] lists 2 twice"),
    (["--only", "03_adaptive_rave_2013", "-p",
      'grid={"playouts": [10, 10], "k_rave": [0], "rave_rate": [1], "margin": [0]}'],
     "grid['playouts']=[10, 10] lists 10 twice"),
    (["--only", "03_adaptive_rave_2013", "-p", "k_rave=-1"], "k_rave=-1 is out of range"),
    (["-p", "=5"], "must be key=value"),
    (["--preset", "Quick"], "preset='Quick' is unknown"),
]


@pytest.mark.parametrize("args,message", REPRODUCE_BAD_PARAMETERS,
                         ids=[" ".join(a) for a, _ in REPRODUCE_BAD_PARAMETERS])
def test_reproduce_refuses_a_bad_parameter_before_any_notebook_runs(args, message, tmp_path, capsys, monkeypatch):
    started = []
    monkeypatch.setattr("papermill.execute_notebook", lambda *a, **k: started.append(a))
    argv = ["reproduce", *([] if "--preset" in args else ["--preset", "smoke"]), "--output", str(tmp_path / "out"),
            *args]
    if not any(a.startswith(("results_dir", "figures_dir")) for a in args):
        argv += ["-p", f"results_dir={tmp_path / 'r'}", "-p", f"figures_dir={tmp_path / 'f'}"]
    code = main(argv)
    err = capsys.readouterr().err
    if message is None:
        assert code == 0 and len(started) == 1, err
        return
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not started and not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


def test_a_parameter_only_some_notebooks_have_goes_to_those_only(tmp_path, capsys, monkeypatch):
    calls = {}
    monkeypatch.setattr("papermill.execute_notebook",
                        lambda source, target, parameters, **k: calls.setdefault(Path(source).stem, parameters))
    assert main(["reproduce", "--preset", "smoke", "--output", str(tmp_path), "-p", "games_per_cell=2",
                 "-p", f"results_dir={tmp_path / 'r'}"]) == 0
    assert calls["01_ppa_2015"]["games_per_cell"] == 2 and calls["02_ppaf_2016"]["games_per_cell"] == 2
    assert "games_per_cell" not in calls["03_adaptive_rave_2013"]
    assert "03_adaptive_rave_2013 has no parameter games_per_cell: not passed to it" in capsys.readouterr().out


@pytest.mark.parametrize("values,error,message", [
    (dict(dpi="high"), TypeError, "dpi must be an integer"),
    (dict(style="fancy"), ValueError, "style='fancy' is unknown"),
    (dict(results_dir=""), ValueError, "results_dir='' is empty"),
    (dict(results_dir=5), TypeError, "results_dir must be a non-empty string"),
    (dict(workers=-1), ValueError, "workers=-1 is out of range"),
    (dict(temperature=1), ValueError, "'temperature' is not a parameter of notebook 01_ppa_2015"),
    (dict(playouts=1e3), TypeError, "write 1000"),
    (dict(playouts=[100, 2.5]), TypeError, "got 2.5 (float) (in playouts=[100, 2.5])"),
    (dict(games=("go", "chess")), ValueError, "game='chess' is unknown"),
    (dict(games=["go", "go"]), ValueError, "games=['go', 'go'] lists 'go' twice"),
    (dict(sizes=[5, 5]), ValueError, "sizes=[5, 5] lists 5 twice"),
])
def test_notebook_parameters_are_checked_in_the_api_too(tmp_path, values, error, message):
    from ppalib.papers import prepare
    with pytest.raises(error, match=re.escape(message)):
        prepare(ppa2015, "smoke", **values)


def test_a_folder_that_cannot_be_created_is_refused_before_any_notebook_runs(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert main(["reproduce", "--preset", "smoke", "--output", str(tmp_path / "out"),
                 "-p", f"figures_dir={tmp_path / 'file' / 'f'}"]) == 2
    assert f"figures_dir='{tmp_path / 'file' / 'f'}' cannot be created: {tmp_path / 'file'} is not a folder" in \
        capsys.readouterr().err


def test_another_seed_at_the_committed_preset_goes_to_its_own_folder():
    from ppalib import paths
    from ppalib.papers import prepare
    setup = prepare(ppa2015, "quick", seed=7)
    assert setup.results_dir == paths.OUTPUT / "quick" / "results" / "ppa2015-seed7"
    assert setup.figures_dir == paths.OUTPUT / "quick" / "figures" / "01_ppa_2015"


def test_only_the_committed_configuration_writes_the_committed_folders():
    from ppalib import paths
    from ppalib.papers import prepare
    committed = prepare(ppa2015, "quick")
    assert (committed.results_dir, committed.figures_dir) == (paths.RESULTS / "ppa2015", paths.FIGURES / "01_ppa_2015")
    smoke = prepare(ppa2015, "smoke")
    assert (smoke.results_dir, smoke.figures_dir) == (paths.OUTPUT / "smoke" / "results" / "ppa2015",
                                                      paths.OUTPUT / "smoke" / "figures" / "01_ppa_2015")
    restyled = prepare(ppa2015, "quick", style="ticks")
    assert restyled.results_dir == paths.RESULTS / "ppa2015" and restyled.figures_dir.is_relative_to(paths.OUTPUT)
    subset = prepare(ppa2015, "quick", games="go")  # every game stored in the committed results: read there
    assert subset.results_dir == paths.RESULTS / "ppa2015" and subset.reads_committed
    assert subset.figures_dir == paths.OUTPUT / "quick" / "figures" / "01_ppa_2015"
    more = prepare(ppa2015, "quick", games="go", games_per_cell=501)
    assert more.results_dir == paths.OUTPUT / "quick" / "results" / "ppa2015"


# ---- games, conditions, features, learned policies, bench and self-play (issue 26) -------------------------------
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

from ppalib.paths import ROOT  # noqa: E402

BEYOND_64_BITS = str(2**64)


def _cli(*args):
    """``python -m ppalib ARGS`` in a fresh process: (exit status, stderr)."""
    done = subprocess.run([sys.executable, "-m", "ppalib", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stderr


CLI_BAD_INPUTS = [
    (["perft", "breakthrough", "--size", "5", "-o", f"ply_cap={BEYOND_64_BITS}"],
     f"ply_cap={BEYOND_64_BITS} is out of range for breakthrough: allowed 0..2147483647"),
    (["perft", "breakthrough", "--size", "5", "-o", "ply_cap=-1"], "ply_cap=-1 is out of range for breakthrough"),
    (["perft", "blind_cashing_checks", "--size", "12", "-o", f"komi={BEYOND_64_BITS}"],
     f"komi={BEYOND_64_BITS} is out of range for blind_cashing_checks"),
    (["match", "blind_cashing_checks", "--size", "12", "--games", "1", "--game-option", f"komi=-{BEYOND_64_BITS}"],
     f"komi=-{BEYOND_64_BITS} is out of range for blind_cashing_checks"),
    (["match", "go", "--size", "5", "--games", "1", "--game-option", f"ply_cap={BEYOND_64_BITS}"],
     f"ply_cap={BEYOND_64_BITS} is out of range for go"),
    (["bench", "--games", "teeko:6"], "'teeko:6': size=6 is out of range for teeko: allowed 5 (its only board)"),
    (["bench", "--games", "hex:5", "fanorona:9"], "'fanorona:9': size=9 is out of range for fanorona"),
]


@pytest.mark.parametrize("args,message", CLI_BAD_INPUTS, ids=[" ".join(a)[:60] for a, _ in CLI_BAD_INPUTS])
def test_the_cli_refuses_a_bad_game_input_with_one_line_naming_it(args, message, tmp_path):
    if args[0] == "match":
        args = [*args, "--results", str(tmp_path / "r")]
    code, err = _cli(*args)
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert "Traceback" not in err and not (tmp_path / "r").exists()


def test_bench_still_plays_a_fixed_board_at_its_own_size_when_only_size_is_given():
    from ppalib.bench import bench_targets
    assert bench_targets(["teeko", "hex"], 7) == [("teeko", 5), ("hex", 7)]
    assert bench_targets(["teeko:5"], None) == [("teeko", 5)]


@pytest.mark.parametrize("game,size,options,message", [
    ("breakthrough", 5, dict(ply_cap=2**64), "ply_cap=18446744073709551616 is out of range for breakthrough"),
    ("breakthrough", 5, dict(ply_cap=2**63), "ply_cap=9223372036854775808 is out of range"),
    ("hex", 5, dict(ply_cap=np.int64(-3)), "ply_cap=-3 is out of range for hex: allowed 0.."),
    ("blind_cashing_checks", 12, dict(komi=2**64), "komi=18446744073709551616 is out of range"),
    ("blind_cashing_checks", 12, dict(komi=-2**63 - 1), "komi=-9223372036854775809 is out of range"),
])
def test_make_game_refuses_an_option_beyond_its_range(game, size, options, message):
    from ppalib.games import make_game
    with pytest.raises(ValueError, match=re.escape(message)):
        make_game(game, size, **options)


def test_a_numpy_integer_size_or_option_is_the_int_it_holds():
    """Accepted, and the condition is the one plain ints give (same id, plain ints stored)."""
    from ppalib.agents import make_agent
    from ppalib.experiments import Condition
    from ppalib.games import make_game
    uct = make_agent("uct", 10)
    plain = Condition("go", 5, uct, uct, game_options={"ply_cap": 50})
    numpy = Condition("go", np.int64(5), uct, uct, game_options={"ply_cap": np.int32(50)})
    assert numpy.id == plain.id and numpy == plain
    assert type(numpy.size) is int and all(type(v) is int for _, v in numpy.game_options)
    assert make_game("go", np.int16(5), ply_cap=np.uint8(50)).options == (("ply_cap", 50),)
    assert type(make_game("go", np.int16(5), ply_cap=np.uint8(50)).options[0][1]) is int


def test_a_float_size_is_still_refused_naming_it():
    from ppalib.agents import make_agent
    from ppalib.experiments import Condition
    uct = make_agent("uct", 10)
    with pytest.raises(TypeError, match="size must be an integer board side, got 5.0"):
        Condition("go", 5.0, uct, uct)
    with pytest.raises(TypeError, match="ply_cap must be an integer, got np.float64"):
        Condition("go", 5, uct, uct, game_options={"ply_cap": np.float64(50)})


FEATURE_TEXT_BAD = [
    ("rel:to=<{}>:pat=<els=[f{0}, zz]>", "cannot read the feature element 'zz'"),
    ("rel:to=<{}>:pat=<els=[f{0}, q{1}]>", "cannot read the feature element 'q{1}'"),
    ("rel:to=<{}>:pat=<els=[f{0} junk]>", "cannot read the feature element 'f{0} junk'"),
    ("rel:to=<{}>:pat=<els=[f{0},, e{1}]>", "an empty element"),
    ("rel:to=<{}>:to=<{0}>:pat=<els=[f{0}]>", "the to= walk is given twice"),
    ("rel:from=<{}>:to=<{}>:from=<{0}>:pat=<els=[f{0}]>", "the from= walk is given twice"),
    ("rel:to=<{}>:pat=<els=[f{1/0}]>", "turn '1/0' divides by zero"),
    ("rel:to=<{1/0}>:pat=<els=[f{0}]>", "to= of 'rel:to=<{1/0}>"),
    ("rel:to=<{}>:pat=<els=[f{1/2/3}]>", "turn '1/2/3' is not a fraction"),
    ("rel:to=<{}>:pat=<els=[f{None}]>", "turn 'None' is not a number"),
    ("rel:to=<{}>:pat=<els=[f{0,}]>", "turn '' is not a number"),
    (None, "a feature is text such as"),
]


@pytest.mark.parametrize("text,message", FEATURE_TEXT_BAD, ids=[str(t) for t, _ in FEATURE_TEXT_BAD])
def test_a_bad_feature_text_is_refused_with_a_value_error_naming_it(text, message):
    from ppalib.features.feature import Feature
    with pytest.raises(ValueError, match=re.escape(message)):
        Feature.from_text(text)


@pytest.mark.parametrize("value,message", [
    ("1/0", "turn '1/0' divides by zero"), ("1/2/3", "turn '1/2/3' is not a fraction"),
    ("x", "turn 'x' is not a number"), (float("nan"), "turn nan is not a finite number"),
])
def test_a_bad_turn_is_refused_with_a_value_error(value, message):
    from ppalib.features.walks import Walk, as_turn
    with pytest.raises(ValueError, match=re.escape(message)):
        as_turn(value)
    with pytest.raises(ValueError, match=re.escape(message)):
        Walk([0, value])
    with pytest.raises(ValueError):
        Walk.parse(None)
    with pytest.raises(ValueError):
        Walk(None)


def test_feature_set_from_text_names_the_bad_line():
    from ppalib.features.featureset import FeatureSet
    from ppalib.games.graph import square_graph
    text = "rel:to=<{}>:pat=<els=[f{0}]>\n\nrel:to=<{}>:pat=<els=[e{0}, zz]>\n"
    with pytest.raises(ValueError, match=re.escape("line 3 ('rel:to=<{}>:pat=<els=[e{0}, zz]>'): cannot read")):
        FeatureSet.from_text(text, square_graph(5, 5))
    with pytest.raises(ValueError, match="reads text"):
        FeatureSet.from_text(None, square_graph(5, 5))
    assert len(FeatureSet.from_text(text.replace(", zz", ""), square_graph(5, 5))) == 2  # the same, mended


def _saved_policy(folder):
    from ppalib.features.artefact import LinearPolicy
    policy = LinearPolicy("teeko", 5, ("rel:to=<{}>:pat=<els=[f{0}]>", "rel:to=<{}>:pat=<els=[e{0}]>"), (0.5, -0.25))
    return policy.save(folder)


def _damaged(path, damage):
    if damage == "truncated":
        path.write_text(path.read_text()[:40])
        return
    data = json.loads(path.read_text())
    if damage == "no theta":
        del data["theta"]
    elif damage == "malformed feature":
        data["features"][1] = "rel:to=<{}>:pat=<els=[e{1/0}]>"
    elif damage == "nan weight":
        data["theta"][0] = "nan"
    elif damage == "text weight":
        data["theta"][1] = "heavy"
    elif damage == "features not a list":
        data["features"] = "rel:to=<{}>:pat=<els=[f{0}]>"
    elif damage == "unknown game":
        data["game"] = "chess"
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("damage,message", [
    ("truncated", "is not valid JSON (truncated or damaged?)"),
    ("no theta", "has no theta (damaged?)"),
    ("malformed feature", "features[1]: walk '{1/0}': turn '1/0' divides by zero"),
    ("nan weight", "theta[0]=nan is not finite"),
    ("text weight", "theta[1]='heavy' is not a number"),
    ("features not a list", "features must be a JSON list"),
    ("unknown game", "game='chess' is unknown"),
])
def test_a_damaged_policy_file_is_refused_naming_the_file_and_its_hash(tmp_path, damage, message):
    from ppalib.features import artefact
    path = _saved_policy(tmp_path)
    artefact._LOADED.clear()
    _damaged(path, damage)
    with pytest.raises(ValueError) as raised:
        artefact.load_policy(path.stem, [tmp_path])
    text = str(raised.value)
    assert f"policy file {path} (policy {path.stem})" in text and message in text, text
    assert raised.value.__cause__ is None and not isinstance(raised.value, KeyError)


def test_an_intact_policy_file_loads_back_equal(tmp_path):
    from ppalib.features import artefact
    path = _saved_policy(tmp_path)
    artefact._LOADED.clear()
    loaded = artefact.load_policy(path.stem, [tmp_path])
    assert loaded.content_hash == path.stem and loaded.theta == (0.5, -0.25)


@pytest.mark.parametrize("field,value,message", [
    ("step_size", float("nan"), "step_size=nan must be a finite number > 0"),
    ("step_size", 0.0, "step_size=0.0 must be a finite number > 0"),
    ("step_size", float("inf"), "step_size=inf must be a finite number > 0"),
    ("l2", -1e-6, "l2=-1e-06 must be a finite number >= 0"),
    ("l2", float("nan"), "l2=nan must be a finite number >= 0"),
    ("c", -1.0, "c=-1.0 must be a finite number >= 0"),
    ("seconds_per_move", 0, "seconds_per_move=0 must be None or a finite number > 0"),
    ("seed", -1, "seed=-1 must be an integer >= 0"),
])
def test_self_play_refuses_a_bad_learning_parameter_in_its_configuration(field, value, message):
    """Refused when the configuration is made, so before a run (which needs one) plays any game."""
    from ppalib.training.selfplay import SelfPlayConfig
    with pytest.raises(ValueError, match=re.escape(message)):
        SelfPlayConfig(game="teeko", size=5, strategy="correlation_based", games=3, playouts=8, **{field: value})


def test_self_play_takes_numpy_numbers_as_the_plain_ones():
    from ppalib.training.selfplay import SelfPlayConfig
    plain = SelfPlayConfig(game="teeko", size=5, strategy="correlation_based", games=3, playouts=8, step_size=0.1)
    numpy = SelfPlayConfig(game="teeko", size=np.int64(5), strategy="correlation_based", games=np.int64(3),
                           playouts=np.int32(8), step_size=np.float64(0.1))
    assert numpy.run_id == plain.run_id


def test_match_refuses_a_damaged_policy_file_before_the_results_folder(tmp_path):
    path = _saved_policy(tmp_path / "policies")
    _damaged(path, "no theta")
    done = subprocess.run([sys.executable, "-m", "ppalib", "match", "teeko", "--size", "5", "--agent",
                           f"puct:policy={path.stem}", "--playouts", "4", "--games", "1", "--results",
                           str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PPALIB_POLICY_PATH": str(tmp_path / "policies")})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"policy file {path} (policy {path.stem}) has no theta" in done.stderr
    assert not (tmp_path / "r").exists()
