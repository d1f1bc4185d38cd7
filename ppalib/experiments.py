"""Experiments: a grid of conditions, games seeded per (experiment seed, condition, game index), a runner that
plays only what is not stored yet, on a pluggable executor, writing games as they arrive.

Determinism: a game's generator is ``make_rng(seed, condition hash, game index)`` and both agents draw from it
in turn, so a game is the same whichever process, executor or order plays it, and a resumed run replays
exactly the games an interrupted one lost.  Colours alternate: the agent moves first in even-numbered games,
so a match of 2N games has N with each colour (Cazenave 2015: "250 playing first and 250 playing second").
"""
from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol

import numpy as np
import pandas as pd

from . import CODE_VERSION
from ._rng import make_rng
from .agents import AgentConfig, Searcher, agent_from_params
from .games import make_game
from .games._common import H_TO_MOVE, H_WINNER
from ._processes import spawning_without_main
from .store import ResultsStore, ResultsWriteError, check_writable


@dataclass(frozen=True)
class Condition:
    """One cell of an experiment: ``agent`` against ``opponent`` at ``game`` on a ``size`` board."""
    game: str
    size: int
    agent: AgentConfig
    opponent: AgentConfig
    game_options: tuple = ()  # e.g. (("komi", 5), ("turns", 10)) for Cashing Checks

    def __post_init__(self):
        options = self.game_options
        try:
            options = dict(options)
        except (TypeError, ValueError):
            raise TypeError(f"game_options must be a dict or (name, value) pairs, e.g. {{'turns': 10}}, "
                            f"got {options!r}") from None
        if not all(isinstance(name, str) for name in options):
            raise TypeError(f"game_options names must be strings, got {sorted(map(repr, options))}")
        # None means "the game's default", as in make_game: left out, so the condition id does not depend on it
        options = {k: v for k, v in options.items() if v is not None}
        game = make_game(self.game, self.size, **options)  # validates game, size and options
        # a numpy integer is taken as the int it holds (the id is JSON of plain ints, the same as for Python ints)
        object.__setattr__(self, "size", game.size)
        object.__setattr__(self, "game_options", tuple(sorted((k, int(v)) for k, v in options.items())))
        for role in ("agent", "opponent"):
            if not isinstance(getattr(self, role), AgentConfig):
                raise TypeError(f"{role} must be an AgentConfig (see ppalib.agents.make_agent)")

    @property
    def id(self) -> str:
        """Stable 16-hex-digit identifier of the condition's parameters (not of the experiment)."""
        fields = {"game": self.game, "size": self.size, "agent": self.agent.as_dict(),
                  "opponent": self.opponent.as_dict()}
        if self.game_options:  # only then, so that conditions without options keep their ids
            fields["game_options"] = dict(self.game_options)
        text = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_int(name: str, value, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name}={value} is out of range: allowed {low}..{high if high is not None else 'inf'}")
    return int(value)


def check_folder(name: str, value) -> Path:
    """A folder given as a non-empty str or path (an empty one would silently mean the current directory)."""
    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a folder (a str or pathlib.Path), got {value!r}")
    if not str(value).strip():
        raise ValueError(f"{name}={str(value)!r} is empty: give a folder, e.g. 'output/demo' "
                         f"(an empty path would mean the current directory)")
    return Path(value)


@dataclass(frozen=True)
class Experiment:
    """A named grid of conditions, ``games_per_condition`` games each, stored under ``results_dir``;
    ``games_by_condition`` (optional: condition id -> games) gives some conditions another number of games, e.g.
    a costlier column of a table played with fewer games a cell."""
    name: str
    conditions: tuple[Condition, ...]
    games_per_condition: int
    seed: int
    results_dir: Path
    games_by_condition: dict | None = field(default=None, hash=False)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name or "/" in self.name:
            raise ValueError(f"name={self.name!r} must be a non-empty string without '/'")
        conditions = self.conditions
        if isinstance(conditions, Condition):  # one condition given as itself: the experiment of that one cell
            conditions = (conditions,)
        if isinstance(conditions, (str, bytes, dict)) or not hasattr(conditions, "__iter__"):
            raise TypeError(f"conditions must be a Condition or a list of Conditions, got {conditions!r}")
        conditions = tuple(conditions)
        if not conditions:
            raise ValueError("conditions is empty: an experiment needs at least one condition")
        for i, condition in enumerate(conditions):
            if not isinstance(condition, Condition):
                raise TypeError(f"conditions[{i}] must be a Condition (ppalib.experiments.Condition), "
                                f"got {condition!r}")
        first_of: dict[str, int] = {}
        for i, condition in enumerate(conditions):
            j = first_of.setdefault(condition.id, i)
            if j != i:
                raise ValueError(f"conditions[{i}] is the same condition as conditions[{j}] ({condition.agent.label} "
                                 f"vs {condition.opponent.label} at {condition.game} {condition.size}): give each "
                                 f"condition once")
        object.__setattr__(self, "conditions", conditions)
        object.__setattr__(self, "games_per_condition",
                           check_int("games_per_condition", self.games_per_condition, 1, 10_000_000))
        object.__setattr__(self, "seed", check_int("seed", self.seed, 0, 2**63 - 1))
        object.__setattr__(self, "results_dir", check_folder("results_dir", self.results_dir))
        if self.games_by_condition is not None:
            if not isinstance(self.games_by_condition, dict):
                raise TypeError(f"games_by_condition must be a dict (condition id -> games), "
                                f"got {self.games_by_condition!r}")
            unknown = set(self.games_by_condition) - set(first_of)
            if unknown:
                raise ValueError(f"games_by_condition names conditions not in the experiment: {sorted(unknown)}")
            object.__setattr__(self, "games_by_condition", {
                key: check_int(f"games_by_condition[{key!r}]", value, 1, 10_000_000)
                for key, value in self.games_by_condition.items()})

    @property
    def store(self) -> ResultsStore:
        return ResultsStore(self.results_dir)

    def games_of(self, condition: Condition) -> int:
        """The games ``condition`` gets: its ``games_by_condition`` entry, else ``games_per_condition``."""
        return (self.games_by_condition or {}).get(condition.id, self.games_per_condition)

    def planned(self) -> list[tuple[Condition, int]]:
        """Every (condition, game index), index-major: an interrupted run leaves every cell equally filled."""
        most = max(self.games_of(c) for c in self.conditions)
        return [(c, i) for i in range(most) for c in self.conditions if i < self.games_of(c)]


def check_stored_seed(experiment: Experiment, frame: pd.DataFrame | None = None) -> None:
    """Refuse a results folder that holds games of the experiment's conditions played with another seed.

    Games are stored by (condition, game index): without this check a rerun with another seed would silently
    read the old seed's games back.  ``frame``: the store's games, if already loaded.
    """
    if frame is None:
        if not experiment.results_dir.is_dir():
            return
        frame = experiment.store.load()
    ids = {c.id for c in experiment.conditions}
    mine = frame[frame["condition_id"].isin(ids)]
    other = mine[mine["seed"] != experiment.seed]
    if other.empty:
        return
    seeds = ", ".join(str(int(s)) for s in sorted(set(other["seed"])))
    cells = other["condition_id"].nunique()
    raise ValueError(
        f"seed={experiment.seed}, but {experiment.results_dir} already holds {len(other)} games of "
        f"{cells} of this experiment's {len(ids)} conditions played with seed {seeds}. A results folder keeps one "
        f"seed per condition (games are stored by condition and game index), so they would be mixed or read back "
        f"as seed {experiment.seed}'s. Use another results folder for seed {experiment.seed}, or delete (or move) "
        f"{experiment.results_dir} to replay it with seed {experiment.seed}.")


def game_setup(condition: Condition, game_index: int, seed: int):
    """What game ``game_index`` of ``condition`` is played with: (the game, its generator, one ``Searcher`` per
    player keyed by player).  ``play_game`` plays it; the explorer (``ppalib.explore``) replays a stored game's
    searches with exactly these."""
    game = make_game(condition.game, condition.size, **dict(condition.game_options))
    rng = make_rng(seed, int(condition.id, 16), game_index)
    agent_player = game_index % 2
    # One searcher per player: with tree reuse each keeps its own tree over the game.
    searchers = {agent_player: Searcher(game, condition.agent), 1 - agent_player: Searcher(game, condition.opponent)}
    return game, rng, searchers


def play_game(condition: Condition, game_index: int, seed: int, experiment: str = "") -> dict:
    """Play game ``game_index`` of ``condition``; return its record (the store's columns)."""
    start = time.perf_counter()
    game, rng, searchers = game_setup(condition, game_index, seed)
    agent_player = game_index % 2
    state = game.initial_state()
    module = game.module
    moves = np.empty(game.max_moves, dtype=np.int64)
    played, iterations, move_seconds = [], [], []
    while module.legal_moves(game.spec, state, moves) > 0:
        clock = time.process_time()
        result = searchers[int(state[H_TO_MOVE])].search(state, rng)
        move_seconds.append(time.process_time() - clock)
        module.play(game.spec, state, result.move)
        played.append(result.move)
        iterations.append(result.iterations)
    timed = condition.agent.seconds_per_move is not None or condition.opponent.seconds_per_move is not None
    plies = len(played)
    winner = int(state[H_WINNER])
    result = 1.0 if winner == agent_player else (0.5 if winner == 2 else 0.0)
    a, o = condition.agent, condition.opponent
    return {
        "experiment": experiment, "condition_id": condition.id, "game_index": game_index,
        "game": condition.game, "size": condition.size,
        **_agent_columns("agent", a), **_agent_columns("opponent", o),
        "agent_player": agent_player, "winner": winner, "agent_result": result, "plies": plies,
        "seed": seed, "seconds": time.perf_counter() - start, "code_version": CODE_VERSION,
        "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "game_options": json.dumps(dict(condition.game_options), sort_keys=True),
        "agent_params": json.dumps(a.as_dict(), sort_keys=True),
        "opponent_params": json.dumps(o.as_dict(), sort_keys=True),
        "moves": " ".join(map(str, played)),
        "iterations": " ".join(map(str, iterations)) if timed else "",
        "move_seconds": " ".join(f"{x:.4g}" for x in move_seconds),
    }


def stored_condition(record) -> Condition:
    """The condition a stored game (a record of ``play_game``: a dict or a row of the store) was played under,
    rebuilt from its ``game``, ``size``, ``game_options``, ``agent_params`` and ``opponent_params``.  Its id is the
    record's ``condition_id`` when this version of ppalib builds the agents as the version that stored it."""
    return Condition(record["game"], int(record["size"]), agent_from_params(json.loads(record["agent_params"])),
                     agent_from_params(json.loads(record["opponent_params"])),
                     game_options=tuple(json.loads(record["game_options"]).items()))


def at_engine_one(condition: Condition) -> Condition:
    """``condition`` with each learned-playout agent (PPA, PPAF, MAST, MASTF) at ``playout_engine`` 1, the engine of
    every committed game: the counterpart an engine-2 condition is costed and checked against."""
    def one(agent):
        return replace(agent, playout_engine=1) if getattr(agent, "playout_engine", 1) != 1 else agent
    return replace(condition, agent=one(condition.agent), opponent=one(condition.opponent))


def _agent_columns(role: str, agent: AgentConfig) -> dict:
    """The store's per-agent columns; a parameter the kind does not have is NaN."""
    params = agent.as_dict()
    return {role: agent.kind, f"{role}_label": agent.label, f"{role}_playouts": agent.playouts,
            **{f"{role}_{name}": float(params.get(name, math.nan)) for name in ("c", "alpha", "k")}}


def play_batch(batch: list[tuple[Condition, int]], seed: int, experiment: str,
               code_version: str = CODE_VERSION) -> list[dict]:
    """Play a batch of games in this process (the unit of work sent to an executor).

    ``code_version`` is the runner's: a worker whose ppalib differs (its sources were edited, or another
    version is installed on a cluster machine) refuses, so one run never mixes code versions.
    """
    if code_version != CODE_VERSION:
        raise RuntimeError(f"this worker runs ppalib {CODE_VERSION} but the run was started with {code_version}; "
                           f"restart the workers (and the run) on one version")
    return [play_game(condition, index, seed, experiment) for condition, index in batch]


def warm_up(conditions: Iterable[Condition]) -> None:
    """Compile (or load from the disk cache) every kernel the conditions use, once, in this process: one
    one-iteration search per (game module, agent kind) of the grid, so workers forked or spawned later load
    machine code instead of compiling it."""
    done = set()
    for condition in conditions:
        game = make_game(condition.game, condition.size, **dict(condition.game_options))
        for agent in (condition.agent, condition.opponent):
            key = (game.module.__name__, agent.kind)
            if key not in done:
                done.add(key)
                Searcher(game, replace(agent, playouts=1, seconds_per_move=None)).search(game.initial_state(),
                                                                                         make_rng(0))


class Executor(Protocol):
    """Runs batches and yields each batch's records as soon as it completes (in any order)."""
    def run(self, fn: Callable[..., list[dict]], batches: list, *args) -> Iterator[list[dict]]: ...


class SerialExecutor:
    """Plays every batch in this process, in order (debugging, tests, tiny runs)."""
    workers = 1

    def run(self, fn, batches, *args):
        for batch in batches:
            yield fn(batch, *args)


def _exit_with_parent(parent_pid: int) -> None:
    """Pool-worker initializer: exit as soon as the parent process is gone (killed with -9, say), instead of
    lingering as an orphan."""
    import threading

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="ppalib-exit-with-parent").start()


def _refuse_inside_a_starting_worker() -> None:
    """Fail at once (instead of waiting for the store lock) when ``run`` is called by a process that is starting
    as a child of another one and re-running its main script (a script without a main guard, started by code
    other than ours)."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise RuntimeError("run() was called while this process was starting as a child process and re-running "
                           "the parent's script; put the script's code under `if __name__ == \"__main__\":`")


class LocalProcessExecutor:
    """A pool of ``workers`` local processes (default: every core).  Processes are spawned, not forked, so it
    is safe inside Jupyter; they load the kernels from numba's disk cache, which ``run`` warms first."""

    def __init__(self, workers: int | None = None):
        self.workers = check_int("workers", workers, 1, 4096) if workers is not None else (os.cpu_count() or 1)

    def run(self, fn, batches, *args):
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=_exit_with_parent,
                                   initargs=(os.getpid(),))
        pending = set()
        try:
            queue = iter(batches)
            for batch in queue:  # keep at most 2 batches per worker in flight, so an interrupt loses little
                with spawning_without_main():  # processes start inside submit
                    pending.add(pool.submit(fn, batch, *args))
                if len(pending) >= 2 * self.workers:
                    break
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                    nxt = next(queue, None)
                    if nxt is not None:
                        with spawning_without_main():
                            pending.add(pool.submit(fn, nxt, *args))
        finally:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)


def make_executor(executor="process", workers: int | None = None, scheduler_address: str | None = None) -> Executor:
    """``"process"`` (default; ``workers`` local processes, default all cores), ``"serial"``, ``"dask"`` (a
    LocalCluster of ``workers``, or the cluster at ``scheduler_address``), or an object with a ``run`` method."""
    if scheduler_address is not None and executor != "dask":
        raise ValueError(f"scheduler_address is given but executor={executor!r}: use executor='dask'")
    if workers is not None and (executor == "serial" or hasattr(executor, "run")):
        raise ValueError(f"workers={workers!r} is given but executor={executor!r} does not take it: use "
                         f"executor='process' or 'dask'")
    if executor is None or executor == "process":
        return LocalProcessExecutor(workers)
    if executor == "serial":
        return SerialExecutor()
    if executor == "dask":
        from .dask_executor import DaskExecutor
        return DaskExecutor(scheduler_address, workers)
    if hasattr(executor, "run"):
        return executor
    raise ValueError(f"executor={executor!r} is unknown: use 'process', 'serial', 'dask' or an Executor object")


def _batches(todo: list[tuple[Condition, int]], workers: int, batch_size: int | None) -> list:
    if batch_size is None:
        batch_size = max(1, min(8, math.ceil(len(todo) / (4 * workers))))
    return [todo[i:i + batch_size] for i in range(0, len(todo), batch_size)]


def run(experiment: Experiment, executor="process", *, workers: int | None = None,
        scheduler_address: str | None = None, progress: bool = True, batch_size: int | None = None,
        flush_seconds: float = 2.0) -> pd.DataFrame:
    """Play the experiment's games that are not stored yet and return all its stored games.

    Records are appended to the store at most ``flush_seconds`` after they arrive, so an interruption (Ctrl-C,
    kill -9, a lost machine) loses at most the games in flight; rerunning completes the rest.
    """
    if not isinstance(experiment, Experiment):
        raise TypeError(f"experiment must be an Experiment, got {experiment!r}")
    _refuse_inside_a_starting_worker()
    check_writable(experiment.results_dir)
    executor = make_executor(executor, workers, scheduler_address)
    if batch_size is not None:
        batch_size = check_int("batch_size", batch_size, 1)
    if isinstance(flush_seconds, bool) or not isinstance(flush_seconds, (int, float)) \
            or not 0 <= flush_seconds < math.inf:
        raise ValueError(f"flush_seconds={flush_seconds!r} must be a finite number >= 0")
    store = experiment.store
    with store.writer_lock():
        frame = store.load()
        check_stored_seed(experiment, frame)
        stored = set(zip(frame["condition_id"], frame["game_index"].astype(int)))
        todo = [(c, i) for c, i in experiment.planned() if (c.id, i) not in stored]
        if todo:
            _play(experiment, store, todo, executor, progress, batch_size, flush_seconds)
            store.compact()
    return load_results(experiment)


def _play(experiment, store, todo, executor, progress, batch_size, flush_seconds) -> None:
    warm_up([c for c, _ in todo])
    from tqdm.auto import tqdm
    planned = len(experiment.planned())
    bar = tqdm(total=planned, initial=planned - len(todo), desc=experiment.name, unit="game", disable=not progress)
    buffer: list[dict] = []
    last_flush = time.monotonic()
    try:
        for records in executor.run(play_batch, _batches(todo, getattr(executor, "workers", 1), batch_size),
                                    experiment.seed, experiment.name, CODE_VERSION):
            buffer.extend(records)
            bar.update(len(records))
            if time.monotonic() - last_flush >= flush_seconds:
                pending, buffer = buffer, []
                store.append(pending)
                last_flush = time.monotonic()
    except BaseException as error:
        bar.close()
        if isinstance(error, ResultsWriteError):
            raise  # the disk is full: one error (a second write would fail the same way)
        try:
            store.append(buffer)  # keep every finished game, also on Ctrl-C or a failing worker
        except ResultsWriteError as write_error:
            raise write_error from None
        raise
    bar.close()
    store.append(buffer)


def load_results(experiment: Experiment) -> pd.DataFrame:
    """The stored games of ``experiment``'s conditions (other games in the same directory are left out).

    Raises ValueError if the folder holds games of these conditions played with another seed."""
    frame = experiment.store.load()
    check_stored_seed(experiment, frame)
    games = {c.id: experiment.games_of(c) for c in experiment.conditions}
    wanted = frame["condition_id"].map(games)
    frame = frame[wanted.notna() & (frame["game_index"] < wanted.fillna(0))]
    return frame.reset_index(drop=True)
