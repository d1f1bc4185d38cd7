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
