#!/usr/bin/env python
"""Kill ``python -m ppalib reproduce`` with SIGKILL at random moments, restart it each time, and check that the
final results store equals an uninterrupted run with the same seed: every planned game stored once, identical.

    python scripts/fault_injection.py --kills 10 --games-per-cell 40 --workdir /tmp/faults

Only the reproduce process itself is killed (``kill -9 PID``), as a user or an out-of-memory killer would; its
notebook kernel and worker processes are orphaned and die on their own.  The store's writer lock makes a
restarted run wait for such orphans, so they can never write a game the restarted run also plays.
Prints a JSON summary and exits non-zero when the stores differ.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPARED = ["condition_id", "game_index", "agent_player", "winner", "agent_result", "plies"]


def command(workdir: Path, results: Path, games_per_cell: int, playouts: int) -> list[str]:
    return [sys.executable, "-m", "ppalib", "reproduce", "--preset", "smoke", "--only", "01_ppa_2015",
            "--output", str(workdir / "executed"), "-p", f"results_dir={results}",
            "-p", f"figures_dir={workdir / 'figures'}", "-p", f"games_per_cell={games_per_cell}",
            "-p", f"playouts=[{playouts}]", "-p", 'sizes=[5, 6]', "-p", 'games=["breakthrough", "nogo"]']


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--games-per-cell", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--min-delay", type=float, default=0.0,
                        help="seconds after a run first stores games before it is killed")
    parser.add_argument("--max-delay", type=float, default=6.0)
    parser.add_argument("--seed", type=int, default=0, help="seeds the kill times")
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from ppalib.store import ResultsStore

    rng = random.Random(args.seed)
    killed_dir, reference_dir = args.workdir / "killed", args.workdir / "reference"
    kills, stored_after_kill = 0, []
    for _ in range(args.kills):
        process = subprocess.Popen(command(args.workdir, killed_dir, args.games_per_cell, args.playouts), cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Kill during play: once this run has stored something new, after a further random delay.
        before = len(list(killed_dir.glob("part-*.parquet")))
        deadline = time.time() + 300
        while process.poll() is None and time.time() < deadline and \
                len(list(killed_dir.glob("part-*.parquet"))) <= before:
            time.sleep(0.1)
        time.sleep(rng.uniform(args.min_delay, args.max_delay))
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            kills += 1
        process.wait()
        stored_after_kill.append(len(ResultsStore(killed_dir).load()) if killed_dir.exists() else 0)
    subprocess.run(command(args.workdir, killed_dir, args.games_per_cell, args.playouts), cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(command(args.workdir, reference_dir, args.games_per_cell, args.playouts), cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    killed, reference = ResultsStore(killed_dir).load(), ResultsStore(reference_dir).load()
    summary = {
        "kills": kills, "stored_after_each_kill": stored_after_kill, "planned": len(reference),
        "stored": len(killed), "duplicates": int(killed.duplicated(["condition_id", "game_index"]).sum()),
        "identical_to_uninterrupted_run": bool(killed[COMPARED].equals(reference[COMPARED])),
    }
    print(json.dumps(summary))
    ok = summary["identical_to_uninterrupted_run"] and summary["duplicates"] == 0 and kills > 0 \
        and summary["stored"] == summary["planned"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
