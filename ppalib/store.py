"""The results store: one row per game, parquet part files in one directory, never a game lost or doubled.

Layout: ``<dir>/part-*.parquet``.  Each part is written to a temporary name, flushed to disk and renamed
(``os.replace`` is atomic), so a reader sees a part whole or not at all; a kill -9 can leave only a ``*.tmp``,
which is ignored and removed by the next writer.  Each part carries in its parquet metadata the schema version
and a SHA-256 of its rows; a part whose metadata or checksum does not match (truncated, from another program or
schema, edited by hand) is reported by path, never read.  Rows are never pickled.

Compaction merges the parts into one: the merged part lists in its metadata the parts it supersedes, so a crash
between writing it and deleting them leaves a readable store (superseded parts are skipped), then deletes them.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import io
import json
import os
import socket
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

SCHEMA_VERSION = "ppalib.game-record/4"
SCHEMA_VERSION_3 = "ppalib.game-record/3"
SCHEMA_VERSION_2 = "ppalib.game-record/2"
SCHEMA_VERSION_1 = "ppalib.game-record/1"
KEY = ["condition_id", "game_index"]

#: Version 1 (ppalib 0.1.0 before the RAVE agent): every column below but the last four.
SCHEMA_1 = pa.schema([
    ("experiment", pa.string()),
    ("condition_id", pa.string()),
    ("game_index", pa.int64()),
    ("game", pa.string()),
    ("size", pa.int64()),
    ("agent", pa.string()),
    ("agent_label", pa.string()),
    ("agent_playouts", pa.int64()),
    ("agent_c", pa.float64()),
    ("agent_alpha", pa.float64()),
    ("agent_k", pa.float64()),
    ("opponent", pa.string()),
    ("opponent_label", pa.string()),
    ("opponent_playouts", pa.int64()),
    ("opponent_c", pa.float64()),
    ("opponent_alpha", pa.float64()),
    ("opponent_k", pa.float64()),
    ("agent_player", pa.int64()),      # 0: the agent moved first; 1: second
    ("winner", pa.int64()),            # player 0 or 1, 2 for a draw
    ("agent_result", pa.float64()),    # 1 win, 0.5 draw, 0 loss, for the agent
    ("plies", pa.int64()),
    ("seed", pa.int64()),              # the experiment seed; the game's generator is (seed, condition, index)
    ("seconds", pa.float64()),
    ("code_version", pa.string()),
    ("finished_at", pa.string()),      # UTC, ISO 8601
])

#: Version 2 (ppalib 0.1.0 with RAVE): options, full agent parameters and the moves.
SCHEMA_2 = pa.schema(list(SCHEMA_1) + [
    pa.field("game_options", pa.string()),     # JSON object, e.g. {"komi": 5, "turns": 10}; {} for none
    pa.field("agent_params", pa.string()),     # JSON object: every parameter of the agent (AgentConfig.as_dict)
    pa.field("opponent_params", pa.string()),
    pa.field("moves", pa.string()),            # the moves played, space-separated; "" in version 1 files
])

#: Version 3 adds the iterations each move's search ran, recorded when a thinking-time budget decided it (else "":
#: the iterations were the agent's budget).
SCHEMA_3 = pa.schema(list(SCHEMA_2) + [
    pa.field("iterations", pa.string()),       # per move, space-separated, with a time budget; "" otherwise
])

#: Column name -> arrow type; the order is the table's column order.  Version 4 adds the CPU seconds of each move's
#: search (the mover's process time: a timing, like ``seconds``, never part of what a game is), so that a slowdown
#: can be read inside the games themselves (Soemers et al. 2019: the iterations of the first two moves of each game).
SCHEMA = pa.schema(list(SCHEMA_3) + [
    pa.field("move_seconds", pa.string()),     # per move, space-separated, 4 significant digits; "" before version 4
])


def _upgrade_from_1(table: pa.Table) -> pa.Table:
    """Version 1 rows in the current layout: no options, parameters rebuilt from their columns, no moves (then as
    version 2 rows)."""
    frame = table.replace_schema_metadata(None).to_pandas()
    for role in ("agent", "opponent"):
        frame[f"{role}_params"] = [
            json.dumps({"kind": kind, "playouts": int(playouts), "c": c, "alpha": alpha, "k": k}, sort_keys=True)
            for kind, playouts, c, alpha, k in zip(frame[role], frame[f"{role}_playouts"], frame[f"{role}_c"],
                                                   frame[f"{role}_alpha"], frame[f"{role}_k"])]
    frame["game_options"] = "{}"
    frame["moves"] = ""
    return _upgrade_from_2(pa.Table.from_pandas(frame[SCHEMA_2.names], schema=SCHEMA_2, preserve_index=False))


def _upgrade_from_2(table: pa.Table) -> pa.Table:
    """Version 2 rows in the version 4 layout: every search ran its agent's iteration budget."""
    frame = table.replace_schema_metadata(None).to_pandas()
    frame["iterations"] = ""
    return _upgrade_from_3(pa.Table.from_pandas(frame[SCHEMA_3.names], schema=SCHEMA_3, preserve_index=False))


def _upgrade_from_3(table: pa.Table) -> pa.Table:
    """Version 3 rows in the version 4 layout: no per-move timings were kept."""
    frame = table.replace_schema_metadata(None).to_pandas()
    frame["move_seconds"] = ""
    return pa.Table.from_pandas(frame[SCHEMA.names], schema=SCHEMA, preserve_index=False)


class ResultsError(RuntimeError):
    """A results file that cannot be trusted; the message names the file and what to do."""


class ResultsWriteError(RuntimeError):
    """A part file could not be written (a full disk, a quota, a folder made read-only meanwhile).  Nothing
    stored before is affected; the message names the folder and says that rerunning completes the rest."""


def _write_error(directory: Path, error: OSError) -> ResultsWriteError:
    reason = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        reason += " (the disk or quota is full)"
    return ResultsWriteError(f"cannot write results to {directory}: {reason}. The games stored before are safe; "
                             f"free some space and rerun the same command to play the rest.")


def _checksum(table: pa.Table) -> str:
    """SHA-256 of the rows in a canonical text form (independent of parquet encoding and chunking)."""
    frame = table.replace_schema_metadata(None).to_pandas()
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, float_format="%.17g")
    return hashlib.sha256(buffer.getvalue().encode()).hexdigest()


def check_writable(directory, name: str = "results_dir") -> Path:
    """Create ``directory`` if needed and prove it writable, or raise ValueError naming it (as ``name``)."""
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, suffix=".tmp"):
            pass
    except OSError as error:
        raise ValueError(f"{name}={str(path)!r} is not writable: {error.strerror or error}") from None
    return path


def _lock_holder(handle) -> str:
    """Who holds the lock, as its holder wrote it into the lock file (empty if not written yet)."""
    try:
        handle.seek(0)
        info = json.loads(handle.read() or "{}")
    except (OSError, ValueError):
        return "another process"
    if not info:
        return "another process"
    return (f"process {info.get('pid')} on {info.get('host')}, started {info.get('started')}: "
            f"{info.get('command')}")


class ResultsStore:
    """The per-game records of one experiment, in ``directory``."""

    def __init__(self, directory):
        self.directory = Path(directory)

    @contextlib.contextmanager
    def writer_lock(self, timeout: float = 120.0):
        """Hold the store's exclusive writer lock (``.lock``, an ``flock`` the OS releases when its holder dies).

        A run that was killed may leave a child (a notebook kernel, a worker) alive for a moment; waiting for
        the lock guarantees that a restarted run never plans games such an orphan is still writing.  The holder
        writes its pid, host, start time and command into the lock file, and a waiting run says at once (on
        stderr) whom it waits for.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        handle = open(self.directory / ".lock", "a+")  # never truncate: the holder's note is in it
        deadline = time.monotonic() + timeout
        try:
            waiting = False
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    holder = _lock_holder(handle)
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{holder} has been writing to {self.directory} for over "
                                           f"{timeout:.0f} s; wait for it to finish or stop it (the lock is "
                                           f"released by itself when that process ends)") from None
                    if not waiting:
                        waiting = True
                        print(f"[ppalib] waiting for {holder}, which is writing to {self.directory}; this run "
                              f"goes on as soon as it ends (giving up after {timeout:.0f} s). Do not delete "
                              f"{self.directory / '.lock'}: the system releases it when its holder exits.",
                              file=sys.stderr, flush=True)
                    time.sleep(0.2)
            with contextlib.suppress(OSError):
                handle.seek(0)
                handle.truncate()
                handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                         "started": datetime.now().isoformat(timespec="seconds"),
                                         "command": " ".join(sys.argv)[:300]}))
                handle.flush()
            yield
        finally:
            handle.close()  # releases the lock

    def part_files(self) -> list[Path]:
        if not self.directory.exists():
            return []
        return sorted(self.directory.glob("part-*.parquet"))

    def _read_part(self, path: Path) -> tuple[pa.Table, list[str]]:
        advice = (f"Move {path} out of {self.directory} (or delete it); the games it held will be played again "
                  f"on the next run.")
        try:
            table = pq.read_table(path)
        except Exception as error:  # noqa: BLE001 - pyarrow raises several types for damaged files
            raise ResultsError(f"{path}: not a readable parquet file ({error}). {advice}") from None
        meta = table.schema.metadata or {}
        version = meta.get(b"ppalib_schema", b"").decode()
        expected = {SCHEMA_VERSION: SCHEMA, SCHEMA_VERSION_3: SCHEMA_3, SCHEMA_VERSION_2: SCHEMA_2,
                    SCHEMA_VERSION_1: SCHEMA_1}.get(version)
        if expected is None:
            raise ResultsError(f"{path}: schema {version or 'missing'!r}, expected {SCHEMA_VERSION!r} "
                               f"(a foreign file, or one from another ppalib version). {advice}")
        if table.schema.remove_metadata() != expected:
            raise ResultsError(f"{path}: columns differ from the {version} schema. {advice}")
        if meta.get(b"ppalib_sha256", b"").decode() != _checksum(table):
            raise ResultsError(f"{path}: checksum mismatch, the file was truncated or edited. {advice}")
        supersedes = json.loads(meta.get(b"ppalib_supersedes", b"[]").decode())
        if version == SCHEMA_VERSION_1:
            table = _upgrade_from_1(table)
        elif version == SCHEMA_VERSION_2:
            table = _upgrade_from_2(table)
        elif version == SCHEMA_VERSION_3:
            table = _upgrade_from_3(table)
        return table, supersedes

    def load(self) -> pd.DataFrame:
        """All stored games, validated; raises ResultsError on any untrustworthy file or duplicated game."""
        parts = {path.name: self._read_part(path) for path in self.part_files()}
        superseded = {name for _, names in parts.values() for name in names}
        live = [(name, table) for name, (table, _) in parts.items() if name not in superseded]
        if not live:
            return SCHEMA.empty_table().to_pandas()
        frame = pa.concat_tables([t.replace_schema_metadata(None) for _, t in live]).to_pandas()
        duplicated = frame.duplicated(KEY, keep=False)
        if duplicated.any():
            names = [name for name, table in live for _ in range(table.num_rows)]
            first = frame.loc[duplicated, KEY].iloc[0]
            condition, index = str(first["condition_id"]), int(first["game_index"])
            holders = sorted({names[i] for i in frame.index[(frame["condition_id"] == condition)
                                                              & (frame["game_index"] == index)]})
            count = int(frame.loc[duplicated].drop_duplicates(KEY).shape[0])
            raise ResultsError(f"game {index} of condition {condition} is stored twice, in "
                               f"{' and '.join(holders)} (folder {self.directory})"
                               f"{f'; {count} games in all are stored more than once' if count > 1 else ''}. "
                               f"The store was modified outside ppalib (a part file copied in?): move the part "
                               f"file that should not be there out of the folder.")
        return frame.sort_values(KEY, kind="stable").reset_index(drop=True)

    def stored_keys(self) -> set[tuple[str, int]]:
        frame = self.load()
        return set(zip(frame["condition_id"], frame["game_index"].astype(int)))

    def _write(self, frame: pd.DataFrame, supersedes: list[str] | None = None) -> Path:
        table = pa.Table.from_pandas(frame[SCHEMA.names], schema=SCHEMA, preserve_index=False)
        meta = {b"ppalib_schema": SCHEMA_VERSION.encode(), b"ppalib_sha256": _checksum(table).encode()}
        if supersedes:
            meta[b"ppalib_supersedes"] = json.dumps(supersedes).encode()
        table = table.replace_schema_metadata(meta)
        name = f"part-{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.parquet"
        tmp = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".part-", suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pq.write_table(table, handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)  # mkstemp makes 0600; results are data to share
            os.replace(tmp, self.directory / name)
        except BaseException as error:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            if isinstance(error, OSError):  # a full disk, say: one clear error, nothing half-written kept
                raise _write_error(self.directory, error) from None
            raise
        return self.directory / name

    def append(self, records: list[dict]) -> Path | None:
        """Write ``records`` (dicts with the SCHEMA columns) as one new part; atomic."""
        if not records:
            return None
        for stale in self.directory.glob(".part-*.tmp"):
            if time.time() - stale.stat().st_mtime > 60:  # a writer killed mid-write; never a live one
                stale.unlink(missing_ok=True)
        return self._write(pd.DataFrame.from_records(records, columns=SCHEMA.names))

    def drop_conditions(self, condition_ids) -> int:
        """Remove every game of ``condition_ids`` (one new part superseding all others, crash-safe like
        ``compact``) and return how many were removed.  For cells whose stored games the current code no longer
        reproduces (``tests/test_replay.py``): drop them, then rerun the experiment, which plays them again."""
        ids = set(condition_ids)
        with self.writer_lock():
            parts = self.part_files()
            frame = self.load()
            keep = ~frame["condition_id"].isin(ids)
            removed = int((~keep).sum())
            if removed:
                self._write(frame[keep], supersedes=[p.name for p in parts])
                for path in parts:
                    path.unlink(missing_ok=True)
        return removed

    def compact(self) -> None:
        """Merge all parts into one (crash-safe, see the module docstring)."""
        parts = self.part_files()
        if len(parts) <= 1:
            return
        frame = self.load()
        live = [p.name for p in parts]
        self._write(frame, supersedes=live)
        for path in parts:
            path.unlink(missing_ok=True)
