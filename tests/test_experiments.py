"""Runner: determinism across executors, resume after kill -9, bad inputs, cache hits in a fresh process."""
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ppalib.agents import make_agent
from ppalib.experiments import Condition, Experiment, LocalProcessExecutor, load_results, run

ROOT = Path(__file__).resolve().parents[1]
COMPARED = ["condition_id", "game_index", "agent_player", "winner", "agent_result", "plies"]


def _conditions():
    return (Condition("breakthrough", 5, make_agent("ppa", 60), make_agent("uct", 60)),
            Condition("nogo", 5, make_agent("ppaf", 40, alpha=0.32), make_agent("uct", 40)),
            Condition("misere_domineering", 5, make_agent("mast", 40, k=4.0), make_agent("uct", 40)))


def test_a_condition_given_fewer_games_plays_only_those(tmp_path):
    # Table 1's 10,000-playout column is played with fewer games a cell than its 1,000-playout column.
    conditions = _conditions()
    experiment = Experiment("per", conditions, 4, 3, tmp_path, games_by_condition={conditions[1].id: 2})
    assert [experiment.games_of(c) for c in conditions] == [4, 2, 4]
    assert sorted((c.id, i) for c, i in experiment.planned()) == sorted(
        [(conditions[0].id, i) for i in range(4)] + [(conditions[1].id, i) for i in range(2)]
        + [(conditions[2].id, i) for i in range(4)])
    frame = run(experiment, "serial", progress=False)
    assert frame.groupby("condition_id").size().to_dict() == {conditions[0].id: 4, conditions[1].id: 2,
                                                               conditions[2].id: 4}
    with pytest.raises(ValueError, match="names conditions not in the experiment"):
        Experiment("per", conditions, 4, 3, tmp_path, games_by_condition={"nope": 2})


def test_serial_and_parallel_runs_play_identical_games(tmp_path):
    serial = run(Experiment("det", _conditions(), 6, 3, tmp_path / "a"), "serial", progress=False)
    parallel = run(Experiment("det", _conditions(), 6, 3, tmp_path / "b"), LocalProcessExecutor(2),
                   progress=False, batch_size=1)
    assert len(serial) == 18
    assert serial[COMPARED].equals(parallel[COMPARED])
    assert sorted(serial.groupby("condition_id")["agent_player"].sum()) == [3, 3, 3]  # colours alternate


def test_a_rerun_plays_nothing_and_a_larger_run_only_the_new_games(tmp_path):
    experiment = Experiment("grow", _conditions()[:1], 4, 1, tmp_path)
    first = run(experiment, "serial", progress=False)
    stamp = {p: p.stat().st_mtime_ns for p in tmp_path.glob("part-*")}
    again = run(experiment, "serial", progress=False)
    assert {p: p.stat().st_mtime_ns for p in tmp_path.glob("part-*")} == stamp
    assert first[COMPARED].equals(again[COMPARED])
    bigger = run(Experiment("grow", _conditions()[:1], 8, 1, tmp_path), "serial", progress=False)
    assert bigger[COMPARED].iloc[:4].equals(first[COMPARED])
    assert len(bigger) == 8


@pytest.mark.slow
def test_resume_after_kill_minus_nine_loses_and_duplicates_nothing(tmp_path):
    args = [sys.executable, "-m", "ppalib", "match", "breakthrough", "--size", "6", "--agent", "ppa",
            "--playouts", "300", "--games", "40", "--seed", "9", "--quiet", "--workers", "2"]
    killed = tmp_path / "killed"
    process = subprocess.Popen(args + ["--results", str(killed)], cwd=ROOT, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list(killed.glob("part-*.parquet")):
        time.sleep(0.2)
    time.sleep(0.5)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    stored_at_kill = len(list(killed.glob("part-*.parquet")))
    assert stored_at_kill >= 1
    subprocess.run(args + ["--results", str(killed)], cwd=ROOT, check=True)
    subprocess.run(args + ["--results", str(tmp_path / "clean"), "--workers", "1"], cwd=ROOT, check=True)
    from ppalib.store import ResultsStore
    resumed, clean = ResultsStore(killed).load(), ResultsStore(tmp_path / "clean").load()
    assert len(resumed) == 40 and not resumed.duplicated(["condition_id", "game_index"]).any()
    assert resumed[COMPARED].equals(clean[COMPARED])


def test_kernel_loads_from_the_disk_cache_in_a_fresh_process():
    code = ("from ppalib.games import make_game; from ppalib.agents import make_agent, search, kernels_for;"
            "from ppalib import make_rng; g = make_game('domineering', 5);"
            "search(g, g.initial_state(), make_agent('ppa', 10), make_rng(0));"
            "s = kernels_for(g).search.run_iterations.stats;"
            "print(sum(s.cache_hits.values()), sum(s.cache_misses.values()))")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)  # fill the cache
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
    hits, misses = map(int, out.stdout.split())
    assert (hits, misses) == (1, 0)


def test_a_second_checkout_of_the_same_code_loads_the_game_functions_from_the_disk_cache(tmp_path):
    """Two copies of the package at two paths (a fresh clone beside this one) share one cache: the game functions
    compiled by the first load in the second (``_specialise.PackageRelativeCacheLocator``).  Filed by absolute
    path, as numba does by default, the second copy missed and compiled them again."""
    import shutil
    code = ("from ppalib.games import make_game, domineering; g = make_game('domineering', 5);"
            "g.legal_moves(g.initial_state()); s = domineering.init_state.stats;"
            "print(sum(s.cache_hits.values()), sum(s.cache_misses.values()))")
    env = dict(os.environ, PPALIB_CACHE_DIR=str(tmp_path / "cache"))
    counts = []
    for checkout in ("first", "second"):
        shutil.copytree(ROOT / "ppalib", tmp_path / checkout / "ppalib", ignore=shutil.ignore_patterns("__pycache__"))
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / checkout, check=True, capture_output=True,
                             text=True, env={**env, "PYTHONPATH": str(tmp_path / checkout)})
        counts.append(tuple(map(int, out.stdout.split())))
    assert counts == [(0, 1), (1, 0)]


_COMPILE_AFTER_BARRIER = """
import sys, time
from pathlib import Path
from ppalib.games import make_game
from ppalib.agents import kernels_for
game = make_game("domineering", 5)
kernel = kernels_for(game).perft
while not Path(sys.argv[1]).exists():  # both processes start compiling within a millisecond of each other
    time.sleep(0.001)
kernel.perft(game.spec, game.initial_state(), 2)
stats = kernel.perft.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def test_two_processes_on_a_cold_cache_compile_a_kernel_once_and_the_other_loads_it(tmp_path):
    """``_specialise._compile_once_across_processes``: two processes that need the same kernel at the same moment on
    an empty cache (two pytest-xdist workers, two until-decided workers) compile it once; the second waits for the
    lock, then loads it from the cache.  Without the lock both compiled it (both missed the cache)."""
    barrier = tmp_path / "go"
    env = dict(os.environ, PPALIB_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    processes = [subprocess.Popen([sys.executable, "-c", _COMPILE_AFTER_BARRIER, str(barrier)], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    time.sleep(5)  # both imported and waiting (a slow import only delays one: the assertion then still holds)
    barrier.touch()
    counts = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err[-2000:]
        counts.append(tuple(map(int, out.split())))
    assert sorted(counts) == [(0, 1), (1, 0)]


BAD_INPUTS = [
    (lambda tmp: make_agent("alphazero", 10), ValueError, "kind='alphazero' is unknown"),
    (lambda tmp: make_agent("ppa", 0), ValueError, "playouts=0 is out of range"),
    (lambda tmp: make_agent("ppa", -5), ValueError, "playouts=-5 is out of range"),
    (lambda tmp: make_agent("ppa", 10.5), TypeError, "playouts must be an integer"),
    (lambda tmp: make_agent("ppa", 10, alpha=float("nan")), ValueError, "alpha=nan is out of range"),
    (lambda tmp: make_agent("ppa", 10, alpha=-1.0), ValueError, "alpha=-1.0 is out of range"),
    (lambda tmp: make_agent("uct", 10, c=-0.1), ValueError, "c=-0.1 is out of range"),
    (lambda tmp: make_agent("uct", 10, c=float("inf")), ValueError, "c=inf is out of range"),
    (lambda tmp: make_agent("mast", 10, k=float("nan")), ValueError, "k=nan is out of range"),
    (lambda tmp: make_agent("uct", 10, alpha=0.5), ValueError, "unknown parameter(s) ['alpha'] for agent kind 'uct'"),
    (lambda tmp: make_agent("ppa", 10, temperature=1), ValueError,
     "unknown parameter(s) ['temperature'] for agent kind 'ppa'"),
    (lambda tmp: Condition("chess", 8, make_agent("uct", 1), make_agent("uct", 1)), ValueError,
     "game='chess' is unknown"),
    (lambda tmp: Condition("go", 25, make_agent("uct", 1), make_agent("uct", 1)), ValueError,
     "size=25 is out of range for go: allowed 2..19"),
    (lambda tmp: Condition("breakthrough", 3, make_agent("uct", 1), make_agent("uct", 1)), ValueError,
     "size=3 is out of range for breakthrough"),
    (lambda tmp: Experiment("x", _conditions(), 0, 1, tmp), ValueError, "games_per_condition=0 is out of range"),
    (lambda tmp: Experiment("x", (), 2, 1, tmp), ValueError, "conditions is empty"),
    (lambda tmp: Experiment("x", _conditions(), 2, -1, tmp), ValueError, "seed=-1 is out of range"),
    (lambda tmp: LocalProcessExecutor(0), ValueError, "workers=0 is out of range"),
    (lambda tmp: Experiment("x", _conditions(), 2, 1, None), TypeError,
     "results_dir must be a folder (a str or pathlib.Path), got None"),
    (lambda tmp: Experiment("x", _conditions(), 2, 1, ""), ValueError, "results_dir='' is empty"),
    (lambda tmp: Experiment("x", _conditions(), 2, 1, 5), TypeError, "results_dir must be a folder"),
    (lambda tmp: Experiment("x", "breakthrough", 2, 1, tmp), TypeError,
     "conditions must be a Condition or a list of Conditions, got 'breakthrough'"),
    (lambda tmp: Experiment("x", [_conditions()[0], "nogo"], 2, 1, tmp), TypeError,
     "conditions[1] must be a Condition"),
    (lambda tmp: Experiment("x", 3, 2, 1, tmp), TypeError, "conditions must be a Condition or a list"),
    (lambda tmp: Experiment(None, _conditions(), 2, 1, tmp), ValueError, "name=None must be a non-empty string"),
    (lambda tmp: Experiment("x", _conditions(), True, 1, tmp), TypeError, "games_per_condition must be an integer"),
    (lambda tmp: run(Experiment("x", _conditions(), 2, 1, tmp), "serial", workers=2), ValueError,
     "workers=2 is given but executor='serial' does not take it"),
    (lambda tmp: run(Experiment("x", _conditions(), 2, 1, tmp), flush_seconds=-1), ValueError,
     "flush_seconds=-1 must be a finite number >= 0"),
    (lambda tmp: run(Experiment("x", _conditions(), 2, 1, tmp), batch_size=0), ValueError,
     "batch_size=0 is out of range"),
    (lambda tmp: run("demo"), TypeError, "experiment must be an Experiment, got 'demo'"),
    (lambda tmp: Condition("blind_cashing_checks", 12, make_agent("uct", 1), make_agent("uct", 1),
                           game_options=(("turns", 13),)), ValueError, "turns=13 is out of range for 12 checks"),
    (lambda tmp: Condition("go", 5, "uct", make_agent("uct", 1)), TypeError, "agent must be an AgentConfig"),
    (lambda tmp: Condition("blind_cashing_checks", 12, make_agent("uct", 1), make_agent("uct", 1),
                           game_options="turns=5"), TypeError, "game_options must be a dict or (name, value) pairs"),
    (lambda tmp: Condition("blind_cashing_checks", 12, make_agent("uct", 1), make_agent("uct", 1), game_options=5),
     TypeError, "game_options must be a dict or (name, value) pairs, e.g. {'turns': 10}, got 5"),
    (lambda tmp: Experiment("x", [*_conditions(), _conditions()[0]], 2, 1, tmp), ValueError,
     "conditions[3] is the same condition as conditions[0] (PPA(1) vs UCT at breakthrough 5)"),
]


@pytest.mark.parametrize("make,error,message", BAD_INPUTS, ids=[b[2] for b in BAD_INPUTS])
def test_bad_input_raises_one_clear_error(tmp_path, make, error, message):
    with pytest.raises(error, match=re.escape(message)):
        make(tmp_path)


def test_unwritable_results_dir_is_refused_before_any_game(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        target = locked / "sub"
        if os.access(locked, os.W_OK):  # root ignores permissions: use a path under a regular file instead
            (tmp_path / "file").write_text("")
            target = tmp_path / "file" / "sub"
        with pytest.raises(ValueError, match="results_dir=.* is not writable"):
            run(Experiment("x", _conditions(), 2, 1, target), "serial", progress=False)
    finally:
        locked.chmod(0o700)


def test_results_of_other_experiments_in_the_same_folder_are_left_out(tmp_path):
    run(Experiment("a", _conditions()[:1], 2, 1, tmp_path), "serial", progress=False)
    other = Experiment("b", _conditions()[1:2], 2, 1, tmp_path)
    assert load_results(other).empty


def test_a_worker_with_other_code_refuses_to_play():
    from ppalib.experiments import play_batch
    with pytest.raises(RuntimeError, match="restart the workers"):
        play_batch([(_conditions()[0], 0)], 1, "x", "0.0.0+another")


def test_kernels_are_generated_from_the_sources_read_at_import(monkeypatch):
    """Editing a kernel template during a run must not change (or break) what this process compiles: the
    specialiser uses the texts read at import, so a template that exists only in that snapshot still loads."""
    from ppalib import _specialise
    path = _specialise.KERNELS_DIR / "snapshot_only.py"
    assert not path.exists()
    source = ("from numba import njit\n"
              "from ppalib.games import contract as game  # <game-import>\n"
              "@njit(cache=False)\n"
              "def cells(spec):\n"
              "    return spec[2]\n")
    monkeypatch.setitem(_specialise._SOURCE_TEXT, path, source)
    monkeypatch.setattr(_specialise, "_LOADED", {})
    package = _specialise.specialised("domineering")
    assert package.snapshot_only.game.__name__ == "ppalib.games.domineering"
    assert package.snapshot_only.cells(np.arange(5)) == 2


def test_stored_moves_replay_to_the_stored_result(tmp_path):
    import json

    from ppalib.games import make_game
    frame = run(Experiment("replay", _conditions(), 2, 4, tmp_path), "serial", progress=False)
    for row in frame.itertuples():
        game = make_game(row.game, row.size, **json.loads(row.game_options))
        state = game.initial_state()
        for move in map(int, row.moves.split()):
            state = game.play(state, move)
        assert game.winner(state) == row.winner and len(row.moves.split()) == row.plies
        assert json.loads(row.agent_params)["kind"] == row.agent


def test_a_single_condition_is_an_experiment_of_one_cell(tmp_path):
    condition = _conditions()[0]
    assert Experiment("one", condition, 2, 1, tmp_path) == Experiment("one", [condition], 2, 1, tmp_path)


def test_another_seed_on_the_same_results_dir_is_refused_saying_what_is_stored(tmp_path):
    first = run(Experiment("s", _conditions()[:1], 2, 1, tmp_path), "serial", progress=False)
    parts = sorted(tmp_path.glob("part-*"))
    other = Experiment("s", _conditions()[:1], 4, 2, tmp_path)
    with pytest.raises(ValueError) as caught:
        run(other, "serial", progress=False)
    message = str(caught.value)
    assert f"seed=2, but {tmp_path} already holds 2 games of 1 of this experiment's 1 conditions played with " \
           f"seed 1" in message
    assert "Use another results folder for seed 2, or delete (or move)" in message
    assert sorted(tmp_path.glob("part-*")) == parts  # nothing played, nothing mixed in
    with pytest.raises(ValueError, match="played with seed 1"):
        load_results(other)
    assert list(first["seed"]) == [1, 1]
    fresh = run(Experiment("s", _conditions()[:1], 2, 2, tmp_path / "seed2"), "serial", progress=False)
    assert list(fresh["seed"]) == [2, 2]


def test_another_seed_through_the_cli_exits_2_and_plays_nothing(tmp_path, capsys):
    from ppalib.__main__ import main
    argv = ["match", "domineering", "--size", "4", "--playouts", "10", "--games", "2", "--workers", "1", "--quiet",
            "--results", str(tmp_path)]
    assert main(argv + ["--seed", "1"]) == 0
    capsys.readouterr()
    assert main(argv + ["--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed=2, but" in err and "played with seed 1" in err
    from ppalib.store import ResultsStore
    assert set(ResultsStore(tmp_path).load()["seed"]) == {1}


def _failing_writes(monkeypatch, after: int):
    """Make every part write after the first ``after`` fail as on a full disk (ENOSPC), half-way through."""
    import errno
    import pyarrow.parquet as pq
    real, calls = pq.write_table, []

    def write(table, handle, **kwargs):
        calls.append(1)
        if len(calls) > after:
            handle.write(b"PAR1")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(table, handle, **kwargs)

    monkeypatch.setattr(pq, "write_table", write)


def test_a_full_disk_mid_run_keeps_the_stored_games_and_a_rerun_completes_the_rest(tmp_path, monkeypatch):
    from ppalib.store import ResultsStore, ResultsWriteError
    experiment = Experiment("full", _conditions()[:1], 6, 4, tmp_path / "full")
    _failing_writes(monkeypatch, after=2)
    with pytest.raises(ResultsWriteError, match="No space left on device") as caught:
        run(experiment, "serial", progress=False, batch_size=1, flush_seconds=0)
    assert caught.value.__context__ is None or caught.value.__suppress_context__
    monkeypatch.undo()
    assert len(ResultsStore(experiment.results_dir).load()) == 2
    assert not list(experiment.results_dir.glob(".part-*"))
    resumed = run(experiment, "serial", progress=False)
    clean = run(Experiment("full", _conditions()[:1], 6, 4, tmp_path / "clean"), "serial", progress=False)
    assert resumed[COMPARED].equals(clean[COMPARED])


def test_a_full_disk_through_the_cli_is_one_line(tmp_path, monkeypatch, capsys):
    from ppalib.__main__ import main
    _failing_writes(monkeypatch, after=0)
    argv = ["match", "domineering", "--size", "4", "--playouts", "10", "--games", "4", "--workers", "1", "--quiet",
            "--results", str(tmp_path)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"cannot write results to {tmp_path}: No space left on device" in err and "rerun the same command" in err
    monkeypatch.undo()
    assert main(argv) == 0 and "4 games" in capsys.readouterr().out


def test_a_run_waiting_for_another_runs_lock_says_so_at_once(tmp_path):
    from ppalib.store import ResultsStore
    argv = [sys.executable, "-m", "ppalib", "match", "domineering", "--size", "4", "--playouts", "10", "--games",
            "2", "--workers", "1", "--quiet", "--results", str(tmp_path)]
    with ResultsStore(tmp_path).writer_lock():
        process = subprocess.Popen(argv, cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = process.stderr.readline()  # printed as soon as it finds the lock taken, long before any timeout
        assert process.poll() is None
    out, err = process.communicate(timeout=120)
    assert f"waiting for process {os.getpid()} on" in line and str(tmp_path) in line
    assert process.returncode == 0 and "2 games" in out


def test_a_game_option_left_at_none_is_the_default_and_keeps_the_condition_id():
    agent = make_agent("uct", 5)
    plain = Condition("blind_cashing_checks", 12, agent, agent, game_options={"turns": 5})
    assert Condition("blind_cashing_checks", 12, agent, agent, game_options={"turns": 5, "komi": None}).id == plain.id
