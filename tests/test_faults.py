"""Scale-out and faults: Dask executors, a worker killed mid-run, kill -9 of reproduce, unreachable clusters."""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ppalib.agents import make_agent
from ppalib.dask_executor import DaskExecutor
from ppalib.experiments import Condition, Experiment, run
from ppalib.store import ResultsStore

ROOT = Path(__file__).resolve().parents[1]
COMPARED = ["condition_id", "game_index", "agent_player", "winner", "agent_result", "plies"]
BIN = Path(sys.executable).parent


def _conditions(playouts=60):
    return (Condition("breakthrough", 5, make_agent("ppa", playouts), make_agent("uct", playouts)),
            Condition("nogo", 5, make_agent("ppaf", playouts), make_agent("uct", playouts)))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_dask_local_cluster_plays_the_same_games_as_a_serial_run(tmp_path):
    dask = run(Experiment("d", _conditions(), 6, 5, tmp_path / "dask"), "dask", workers=2, progress=False)
    serial = run(Experiment("d", _conditions(), 6, 5, tmp_path / "serial"), "serial", progress=False)
    assert dask[COMPARED].equals(serial[COMPARED])


@pytest.mark.slow
def test_killing_a_dask_worker_mid_run_loses_and_duplicates_nothing(tmp_path):
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], start_new_session=True, stderr=subprocess.DEVNULL)
    workers = [subprocess.Popen([str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-dashboard",
                                 "--host", "127.0.0.1"], start_new_session=True, stderr=subprocess.DEVNULL, cwd=ROOT)
               for _ in range(2)]
    try:
        from distributed import Client
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        results = tmp_path / "cluster"
        killed = threading.Event()

        def kill_one_worker_once_games_arrive():
            deadline = time.time() + 120
            while time.time() < deadline and not list(results.glob("part-*.parquet")):
                time.sleep(0.1)
            os.killpg(workers[0].pid, signal.SIGKILL)
            killed.set()

        threading.Thread(target=kill_one_worker_once_games_arrive, daemon=True).start()
        experiment = Experiment("cluster", _conditions(100), 24, 8, results)
        frame = run(experiment, DaskExecutor(address), progress=False, batch_size=2, flush_seconds=0.1)
        assert killed.is_set()
        assert len(frame) == 48 and not frame.duplicated(["condition_id", "game_index"]).any()
        serial = run(Experiment("cluster", _conditions(100), 24, 8, tmp_path / "serial"), "serial", progress=False)
        assert frame[COMPARED].equals(serial[COMPARED])
    finally:
        for process in [*workers, scheduler]:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


@pytest.mark.slow
def test_fault_injection_short_version(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "fault_injection.py"), "--kills", "1",
                          "--games-per-cell", "20", "--playouts", "1500", "--max-delay", "1.5",
                          "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, (f"fault_injection.py exited {out.returncode}; its output ends:\n"
                                 f"{out.stdout[-1000:]}\nand its stderr:\n{out.stderr[-3000:]}")
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["kills"] >= 1 and summary["stored_after_each_kill"][0] < summary["planned"]
    assert summary["duplicates"] == 0 and summary["stored"] == summary["planned"] == 80


def test_unreachable_scheduler_is_one_clear_error(tmp_path):
    with pytest.raises(ValueError, match=r"scheduler_address='tcp://127.0.0.1:\d+' is unreachable"):
        run(Experiment("x", _conditions(), 2, 1, tmp_path), DaskExecutor(f"tcp://127.0.0.1:{_free_port()}",
                                                                         connect_timeout=1), progress=False)
    assert not list(tmp_path.glob("part-*"))


@pytest.mark.parametrize("kwargs,message", [
    (dict(executor="dask", scheduler_address="localhost:8786"), "must look like 'tcp://host:8786'"),
    (dict(executor="process", scheduler_address="tcp://h:1"), "use executor='dask'"),
    (dict(executor="cluster"), "executor='cluster' is unknown"),
    (dict(executor="dask", workers=0), "workers=0 is out of range"),
])
def test_bad_executor_settings_are_refused(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run(Experiment("x", _conditions(), 2, 1, tmp_path), progress=False, **kwargs)


def test_a_second_writer_waits_for_the_first(tmp_path):
    store = ResultsStore(tmp_path)
    with store.writer_lock():
        with pytest.raises(RuntimeError, match="has been writing to"):
            with ResultsStore(tmp_path).writer_lock(timeout=0.5):
                pass
