"""The results store: atomic parts, integrity checks, compaction."""
import json

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ppalib.store import SCHEMA, ResultsError, ResultsStore, ResultsWriteError


def _record(index, condition="c0"):
    row = {name: None for name in SCHEMA.names}
    row.update(experiment="e", condition_id=condition, game_index=index, game="go", size=5, agent="ppa",
               agent_label="PPA(1)", agent_playouts=10, agent_c=0.4, agent_alpha=1.0, agent_k=1.0,
               opponent="uct", opponent_label="UCT", opponent_playouts=10, opponent_c=0.4, opponent_alpha=1.0,
               opponent_k=1.0, agent_player=index % 2, winner=0, agent_result=1.0 - index % 2, plies=30,
               seed=1, seconds=0.1, code_version="x", finished_at="2026-01-01T00:00:00+00:00",
               game_options="{}", agent_params="{}", opponent_params="{}", moves="1 2 3", iterations="",
               move_seconds="0.01 0.02 0.01")
    return row


def test_append_load_and_compact_keep_every_game_once(tmp_path):
    store = ResultsStore(tmp_path)
    store.append([_record(0), _record(1)])
    store.append([_record(2)])
    assert len(store.part_files()) == 2
    assert store.stored_keys() == {("c0", 0), ("c0", 1), ("c0", 2)}
    store.compact()
    assert len(store.part_files()) == 1
    assert len(store.load()) == 3


def test_dropping_conditions_removes_exactly_their_games(tmp_path):
    store = ResultsStore(tmp_path)
    store.append([_record(0, "stale"), _record(1, "stale"), _record(0, "kept")])
    store.append([_record(1, "kept")])
    assert store.drop_conditions(["stale", "absent"]) == 2
    assert store.stored_keys() == {("kept", 0), ("kept", 1)} and len(store.part_files()) == 1
    assert store.drop_conditions(["stale"]) == 0 and len(store.part_files()) == 1


def test_a_crash_during_compaction_leaves_a_readable_store(tmp_path):
    store = ResultsStore(tmp_path)
    store.append([_record(0)])
    store.append([_record(1)])
    parts = [p.name for p in store.part_files()]
    store._write(store.load(), supersedes=parts)  # compaction killed before deleting the old parts
    assert len(store.part_files()) == 3
    assert sorted(store.load()["game_index"]) == [0, 1]


def test_truncated_file_is_reported_with_its_path(tmp_path):
    store = ResultsStore(tmp_path)
    path = store.append([_record(0)])
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ResultsError, match=path.name):
        store.load()


def test_foreign_parquet_file_is_reported(tmp_path):
    pq.write_table(pa.table({"a": [1, 2]}), tmp_path / "part-foreign.parquet")
    with pytest.raises(ResultsError, match="schema"):
        ResultsStore(tmp_path).load()


def test_tampered_rows_fail_the_checksum(tmp_path):
    store = ResultsStore(tmp_path)
    path = store.append([_record(0)])
    table = pq.read_table(path)
    meta = table.schema.metadata
    frame = table.to_pandas()
    frame.loc[0, "winner"] = 1
    pq.write_table(pa.Table.from_pandas(frame, schema=SCHEMA, preserve_index=False).replace_schema_metadata(meta),
                   path)
    with pytest.raises(ResultsError, match="checksum"):
        store.load()


def test_a_game_stored_twice_is_reported_naming_both_part_files_and_plain_values(tmp_path):
    store = ResultsStore(tmp_path)
    first = store.append([_record(0), _record(1)])
    second = store.append([_record(1)])
    with pytest.raises(ResultsError, match="stored twice") as caught:
        store.load()
    message = str(caught.value)
    assert f"game 1 of condition c0 is stored twice, in {first.name} and {second.name}" in message
    assert str(tmp_path) in message and "np." not in message and "int64" not in message


def test_a_full_disk_is_one_clear_error_and_leaves_nothing_half_written(tmp_path, monkeypatch):
    import errno
    store = ResultsStore(tmp_path)
    store.append([_record(0)])

    def full(table, handle, **kwargs):
        handle.write(b"PAR1 partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq, "write_table", full)
    with pytest.raises(ResultsWriteError) as caught:
        store.append([_record(1)])
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert str(caught.value).startswith(f"cannot write results to {tmp_path}: No space left on device")
    assert "rerun the same command" in str(caught.value)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".lock") == \
        sorted(p.name for p in tmp_path.glob("part-*.parquet"))  # no temporary file left
    assert list(store.load()["game_index"]) == [0]


def test_a_waiting_writer_says_at_once_whom_it_waits_for(tmp_path, capsys):
    import os
    with ResultsStore(tmp_path).writer_lock():
        with pytest.raises(RuntimeError, match=f"process {os.getpid()} on .* has been writing to"):
            with ResultsStore(tmp_path).writer_lock(timeout=0.5):
                pass
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"waiting for process {os.getpid()} on" in err
    assert "Do not delete" in err and str(tmp_path) in err


def test_leftover_temporary_files_are_ignored(tmp_path):
    store = ResultsStore(tmp_path)
    store.append([_record(0)])
    (tmp_path / ".part-123.tmp").write_bytes(b"half a file")
    assert len(store.load()) == 1


def test_files_are_parquet_not_pickle(tmp_path):
    path = ResultsStore(tmp_path).append([_record(0)])
    assert path.read_bytes()[:4] == b"PAR1"
    assert isinstance(pq.read_table(path).to_pandas(), pd.DataFrame)


def _old_part(folder, schema, version):
    """A part file written in an older ``schema`` (its ``version`` label), holding ``_record(0)``'s columns of it."""
    from ppalib.store import _checksum
    record = {k: v for k, v in _record(0).items() if k in schema.names}
    table = pa.Table.from_pandas(pd.DataFrame([record])[schema.names], schema=schema, preserve_index=False)
    table = table.replace_schema_metadata({b"ppalib_schema": version.encode(),
                                           b"ppalib_sha256": _checksum(table).encode()})
    pq.write_table(table, folder / "part-old.parquet")


def test_version_1_files_are_read_and_upgraded(tmp_path):
    """Files written before the schema gained options, parameters and moves stay readable."""
    from ppalib.store import SCHEMA_1, SCHEMA_VERSION_1
    _old_part(tmp_path, SCHEMA_1, SCHEMA_VERSION_1)
    frame = ResultsStore(tmp_path).load()
    assert frame.loc[0, "moves"] == "" and frame.loc[0, "game_options"] == "{}"
    assert json.loads(frame.loc[0, "agent_params"]) == {"kind": "ppa", "playouts": 10, "c": 0.4, "alpha": 1.0,
                                                        "k": 1.0}


def test_version_3_files_are_read_and_upgraded(tmp_path):
    """Files written before the per-move timings (the committed results up to 2026-11-27) read with none."""
    from ppalib.store import SCHEMA_3, SCHEMA_VERSION_3
    _old_part(tmp_path, SCHEMA_3, SCHEMA_VERSION_3)
    ResultsStore(tmp_path).append([_record(1)])  # a version 4 part beside it
    frame = ResultsStore(tmp_path).load()
    assert list(frame["move_seconds"]) == ["", "0.01 0.02 0.01"] and frame.loc[0, "moves"] == "1 2 3"


def test_version_2_files_are_read_and_upgraded(tmp_path):
    """The committed results are version 2 files (no per-move iterations): read as iteration budgets."""
    from ppalib.store import SCHEMA_2, SCHEMA_VERSION_2
    _old_part(tmp_path, SCHEMA_2, SCHEMA_VERSION_2)
    frame = ResultsStore(tmp_path).load()
    assert frame.loc[0, "iterations"] == "" and frame.loc[0, "moves"] == "1 2 3"
