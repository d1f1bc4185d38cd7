"""Soemers, Piette & Browne, "Biasing MCTS with Features for General Games", IEEE CEC 2019: Figures 4-8, the
Yavalath experiment with hand-made features, and the paper's claims.

The experiment has four stages, each resumable (a rerun continues where an interruption left it):

1. **self-play, growing sets** (Fig. 4): for every game variant and discovery strategy, expert iteration
   (``ppalib.training.selfplay``) from the atomic features, one feature added per game, policies saved at the
   checkpoints;
2. **self-play, pruned sets** (Fig. 7): from each run's final policy, the 15 features of largest |theta|, then more
   self-play games with the set frozen;
3. **evaluation**: every checkpoint policy as Biased MCTS (PUCT, C = sqrt(2), first playout move from the policy,
   trees reused, the most visited move) against UCT (C = sqrt(2), uniform playouts, trees reused), colours
   alternated, ties half a win, games ended as draws after 100 moves; the greedy agent (Fig. 6) at Breakthrough
   and Teeko; Yavalath's hand-made features with fully biased playouts (section V-D);
4. **slowdowns** (Fig. 5 and 8): iterations of UCT over those of Biased MCTS in the first two moves at a fixed
   thinking time (``ppalib.training.slowdown``); a timing, so machine-dependent, stored with the machine's name;
5. **equal time**: each final Correlation-based policy (and the hand-made Yavalath agent) against UCT given
   ``playouts`` x its measured slowdown, the paper's equal-thinking-time comparison made deterministic (the committed
   slowdowns fix the conditions).

Budgets: the paper gives every agent 5 s of thinking per move in Ludii.  We use iteration budgets (``playouts``),
the same for Biased MCTS and UCT, so games are deterministic given the seed; the cost of features is then reported
as the measured slowdown instead of being paid in iterations (``seconds_per_move`` restores the paper's time
budget, at the price of determinism).  What 5 s gave Ludii: the notebook compares.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     Teeko and Hex (7x7), two strategies, 2 self-play games, 10 iterations a move, 2 evaluation
          games a checkpoint: seconds, for the tests
quick     every variant and strategy at reduced budgets: 20 self-play games (checkpoints 1, 5, 10, 20), 5
          pruned-set games (0, 5), 500 iterations a move, 60 evaluation games a checkpoint, discovery capped at 16
          instances a state-action pair; under an hour on 2 cores (a first try at 100 iterations a move showed
          PUCT with near-uniform priors far below UCT on the large boards: too few iterations to say anything)
paper     the paper's protocol: 200 self-play games (1, 25, 50, 100, 200), 100 pruned-set games (0, 25, 50, 75,
          100), 200 evaluation games a checkpoint, no cap; 10,000 iterations a move; for a cluster (Dask)
========  =====================================================================================================
"""
from __future__ import annotations

import json
import math
import platform
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pandas as pd

from . import GAMES_PER_CELL, MAX_PLAYOUTS, SEED, Param, integer, number, resolve_settings
from ..agents import make_agent
from ..experiments import Condition, Experiment, check_int
from ..store import ResultsStore

NAME = "soemers2019"

#: The paper's ten variants (section V-A): display name -> (game, size).  Standard board sizes.
VARIANTS = {
    "Breakthrough": ("breakthrough", 8),
    "Connect Four": ("connect_four", 7),
    "Fanorona": ("fanorona", 5),
    "Gomoku": ("gomoku", 15),
    "Hex (7x7)": ("hex", 7),
    "Hex (11x11)": ("hex", 11),
    "Knightthrough": ("knightthrough", 8),
    "Othello": ("othello", 8),
    "Teeko": ("teeko", 5),
    "Yavalath": ("yavalath", 5),
}
VARIANT_OF = {game_size: variant for variant, game_size in VARIANTS.items()}  # (game, size) -> variant
STRATEGIES = ("add_random", "combine_random", "combine_max", "correlation_based")
GREEDY_VARIANTS = ("Breakthrough", "Teeko")  # Fig. 6
MOVE_CAP = 100  # "Games are terminated automatically after 100 moves" (V-A): a draw
C_PUCT = math.sqrt(2.0)
C_UCB1 = math.sqrt(2.0)
PRUNED_FEATURES = 15
EQUAL_TIME = {"equal_time_grown", "equal_time_handmade"}

PRESETS = {
    "smoke": dict(variants=["Teeko", "Hex (7x7)"], strategies=["combine_random", "correlation_based"],
                  self_play_games=2, checkpoints=[1, 2], pruned_games=1, pruned_checkpoints=[0, 1], playouts=10,
                  games_per_cell=2, handmade_games=2, max_instances=8, slowdown_seconds=0.01, slowdown_repeats=1,
                  equal_time_games=2),
    "quick": dict(variants=list(VARIANTS), strategies=list(STRATEGIES), self_play_games=20,
                  checkpoints=[1, 5, 10, 20], pruned_games=5, pruned_checkpoints=[0, 5], playouts=500,
                  games_per_cell=60, handmade_games=100, max_instances=16, slowdown_seconds=0.2, slowdown_repeats=3,
                  equal_time_games=100),
    "paper": dict(variants=list(VARIANTS), strategies=list(STRATEGIES), self_play_games=200,
                  checkpoints=[1, 25, 50, 100, 200], pruned_games=100, pruned_checkpoints=[0, 25, 50, 75, 100],
                  playouts=10_000, games_per_cell=200, handmade_games=200, max_instances=0, slowdown_seconds=5.0,
                  slowdown_repeats=5, equal_time_games=200),
}
DEFAULTS = dict(seed=2019)
PARAMETERS = {
    "variants": Param("choice", many=True, choices=tuple(VARIANTS)),
    "strategies": Param("choice", many=True, choices=STRATEGIES),
    "self_play_games": integer(1, 100_000),
    "checkpoints": integer(1, 100_000, many=True),
    "pruned_games": integer(0, 100_000),
    "pruned_checkpoints": integer(0, 100_000, many=True),
    "playouts": integer(1, MAX_PLAYOUTS),
    "games_per_cell": GAMES_PER_CELL,
    "handmade_games": integer(0, 10_000_000),
    "max_instances": integer(0, 10_000),
    "slowdown_seconds": number(0.001, 600.0),
    "slowdown_repeats": integer(1, 1000),
    "equal_time_games": integer(0, 10_000_000),
    "seed": SEED,
}


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored), checked together."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    for key in ("variants", "strategies", "checkpoints", "pruned_checkpoints"):
        if not isinstance(result[key], (list, tuple)):
            result[key] = [result[key]]
        result[key] = list(result[key])
    for key in ("variants", "strategies", "checkpoints"):
        if not result[key]:
            raise ValueError(f"{key} is empty: give at least one value")
    if max(result["checkpoints"]) > result["self_play_games"]:
        raise ValueError(f"checkpoints {result['checkpoints']} go beyond self_play_games={result['self_play_games']}")
    if result["pruned_checkpoints"] and max(result["pruned_checkpoints"]) > result["pruned_games"]:
        raise ValueError(f"pruned_checkpoints {result['pruned_checkpoints']} go beyond "
                         f"pruned_games={result['pruned_games']}")
    result["games_per_cell"] = check_int("games_per_cell", result["games_per_cell"], 1, 10_000_000)
    return result


def make_experiment(results_dir, preset: str = "quick", **overrides) -> "FeatureBiasing":
    """The four-stage experiment of ``preset`` (see the module docstring), stored under ``results_dir``."""
    return FeatureBiasing(Path(results_dir), settings(preset, **overrides))


# ---- the experiment ---------------------------------------------------------------------------------------------
def uct_opponent(playouts: int):
    """The paper's benchmark: UCT, C = sqrt(2), uniform playouts, trees reused (V-A), selecting as Ludii's UCT does
    (the paper's eq. 3 leaves unvisited moves and the value scale open: ``UCT.ludii_selection``)."""
    return make_agent("uct", playouts, c=C_UCB1, tree_reuse=True, ludii_selection=True)


def biased_agent(playouts: int, policy: str, biased_playouts: bool = False):
    """Biased MCTS as in self-play, playing the most visited move (V-A)."""
    return make_agent("puct", playouts, c=C_PUCT, tree_reuse=True, policy=policy, biased_playouts=biased_playouts)


@dataclass(frozen=True)
class FeatureBiasing:
    """The experiment: self-play configs, evaluation conditions (known once the policies exist), where it is
    stored.  Quacks like ``ppalib.experiments.Experiment`` where the notebooks' setup needs it (``name``,
    ``seed``, ``results_dir``, ``store``, ``conditions``, ``planned``)."""
    results_dir: Path
    settings: dict
    name: str = NAME

    @property
    def seed(self) -> int:
        return int(self.settings["seed"])

    @property
    def games_per_condition(self) -> int:
        return int(self.settings["games_per_cell"])

    @property
    def store(self) -> ResultsStore:
        return ResultsStore(self.results_dir)

    @property
    def selfplay_dir(self) -> Path:
        return self.results_dir / "selfplay"

    @property
    def progress_dir(self) -> Path:
        return self.results_dir / "selfplay-progress"  # ignored by git: the runs' resumable state

    @property
    def policies_dir(self) -> Path:
        """The learned policies, by content hash (``ppalib.features.artefact``)."""
        return self.results_dir / "policies"

    # -- stage 1 and 2 configs ----------------------------------------------------------------------------------
    def grown_configs(self) -> list:
        from ..training.selfplay import SelfPlayConfig
        s = self.settings
        return [SelfPlayConfig(*VARIANTS[v], strategy=strategy, games=s["self_play_games"],
                               playouts=s["playouts"], checkpoints=tuple(s["checkpoints"]), seed=self.seed,
                               move_cap=MOVE_CAP, c=C_PUCT, max_instances=s["max_instances"])
                for v in s["variants"] for strategy in s["strategies"]]

    def record_of(self, config) -> dict | None:
        path = self.selfplay_dir / f"{config.run_id}.json"
        if not path.exists():
            return None
        record = json.loads(path.read_text())
        return record if record["games_done"] >= config.games else None

    def pruned_config(self, grown) -> "object | None":
        """The frozen-set run continuing ``grown`` (None until ``grown`` is finished and pruned)."""
        from ..training.selfplay import SelfPlayConfig
        record = self.record_of(grown)
        s = self.settings
        if record is None or not s["pruned_games"] and not s["pruned_checkpoints"]:
            return None
        pruned_hash = record.get("pruned_policy")
        if pruned_hash is None:
            return None
        return SelfPlayConfig(grown.game, grown.size, strategy=grown.strategy, games=s["pruned_games"],
                              playouts=s["playouts"], checkpoints=tuple(s["pruned_checkpoints"]), seed=self.seed,
                              initial_policy=pruned_hash, grow=False, move_cap=MOVE_CAP, c=C_PUCT)

    # -- stage 3: evaluation conditions -------------------------------------------------------------------------
    def labelled_conditions(self) -> list[tuple[dict, Condition]]:
        """(labels, condition) for every evaluation whose policy exists: labels variant, strategy, stage,
        checkpoint."""
        s = self.settings
        options = (("ply_cap", MOVE_CAP),)
        out = []
        for grown in self.grown_configs():
            variant = VARIANT_OF[grown.game, grown.size]
            record = self.record_of(grown)
            if record is None:
                continue
            uct = uct_opponent(s["playouts"])
            for checkpoint, policy in record["checkpoints"].items():
                labels = dict(variant=variant, strategy=grown.strategy, stage="grown", checkpoint=int(checkpoint))
                out.append((labels, Condition(grown.game, grown.size, biased_agent(s["playouts"], policy), uct,
                                              options)))
                if variant in GREEDY_VARIANTS:
                    out.append(({**labels, "stage": "greedy"},
                                Condition(grown.game, grown.size, make_agent("greedy", 1, policy=policy), uct,
                                          options)))
            pruned = self.pruned_config(grown)
            pruned_record = None if pruned is None else self.record_of(pruned)
            if pruned_record is not None:
                for checkpoint, policy in pruned_record["checkpoints"].items():
                    labels = dict(variant=variant, strategy=grown.strategy, stage="pruned",
                                  checkpoint=int(checkpoint))
                    out.append((labels, Condition(grown.game, grown.size, biased_agent(s["playouts"], policy), uct,
                                                  options)))
        if "Yavalath" in s["variants"] and s["handmade_games"]:
            policy = self.handmade_policy()
            out.append((dict(variant="Yavalath", strategy="handmade", stage="handmade", checkpoint=0),
                        Condition("yavalath", 5, biased_agent(s["playouts"], policy.content_hash, True),
                                  uct_opponent(s["playouts"]), options)))
        out += self.equal_time_conditions()
        return out

    def equal_time_conditions(self) -> list[tuple[dict, Condition]]:
        """The paper's comparison at equal thinking time, made deterministic: each final Correlation-based policy
        (and the hand-made Yavalath agent) against UCT given ``playouts`` x the measured slowdown of that policy
        (``slowdowns.csv``), i.e. the iterations UCT would run in the time Biased MCTS spends on ``playouts``.
        Known once the slowdowns are measured (stage 4); the measured ratios, committed, fix the conditions."""
        path = self.results_dir / "slowdowns.csv"
        s = self.settings
        if not path.exists() or not s["equal_time_games"]:
            return []
        slowdowns = pd.read_csv(path)
        options = (("ply_cap", MOVE_CAP),)
        out = []
        for row in slowdowns.itertuples():
            if row.stage not in ("grown", "handmade") or row.variant not in s["variants"]:
                continue
            game, size = VARIANTS[row.variant]
            uct_playouts = max(1, int(round(s["playouts"] * float(row.slowdown))))
            agent = biased_agent(s["playouts"], row.policy, row.stage == "handmade")
            labels = dict(variant=row.variant, strategy=row.strategy, stage="equal_time_" + row.stage,
                          checkpoint=int(max(s["checkpoints"])) if row.stage == "grown" else 0)
            out.append((labels, Condition(game, size, agent, uct_opponent(uct_playouts), options)))
        return out

    def handmade_policy(self):
        from ..features.handmade import yavalath_handmade_policy
        from ..games import make_game
        policy = yavalath_handmade_policy(make_game("yavalath", 5, ply_cap=MOVE_CAP))
        policy.save(self.policies_dir)
        return policy

    @property
    def conditions(self) -> tuple:
        return tuple(c for _, c in self.labelled_conditions())

    def experiment(self, stage_filter=None) -> Experiment | None:
        """The evaluation games of the conditions known now (``stage_filter``: a set of stages), as an
        ``Experiment``; the hand-made Yavalath cell gets its own game count."""
        labelled = [(lab, c) for lab, c in self.labelled_conditions()
                    if (stage_filter is None or lab["stage"] in stage_filter)]
        if not labelled:
            return None
        games = (self.settings["handmade_games"] if stage_filter == {"handmade"} else
                 self.settings["equal_time_games"] if stage_filter == EQUAL_TIME else self.games_per_condition)
        return Experiment(NAME, tuple(c for _, c in labelled), games, self.seed, self.results_dir)

    def planned(self) -> list:
        planned = []
        for stages in ({"grown", "pruned", "greedy"}, {"handmade"}, EQUAL_TIME):
            exp = self.experiment(stages)
            if exp is not None:
                planned += exp.planned()
        return planned


# ---- running it ---------------------------------------------------------------------------------------------
def _self_play(experiment: FeatureBiasing, configs: list, executor, progress: bool, desc: str) -> None:
    from tqdm.auto import tqdm
    from ..features.artefact import load_policy
    from ..training.selfplay import prune, run_self_play_job
    todo = [c for c in configs if experiment.record_of(c) is None]
    bar = tqdm(total=len(configs), initial=len(configs) - len(todo), desc=desc, unit="run", disable=not progress)
    experiment.selfplay_dir.mkdir(parents=True, exist_ok=True)
    for records in executor.run(run_self_play_job, [[c] for c in todo], str(experiment.progress_dir),
                                str(experiment.policies_dir)):
        for record in records:
            if record["config"]["grow"]:
                final = record["checkpoints"][str(max(int(k) for k in record["checkpoints"]))]
                pruned = prune(load_policy(final, [experiment.policies_dir]), PRUNED_FEATURES)
                pruned.save(experiment.policies_dir)
                record["pruned_policy"] = pruned.content_hash
            path = experiment.selfplay_dir / f"{record['run_id']}.json"
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
            tmp.replace(path)
            bar.update(1)
    bar.close()


def run(experiment: FeatureBiasing, executor="process", *, workers=None, scheduler_address=None,
        progress: bool = True) -> dict:
    """Every stage not done yet; returns ``frames(experiment)``."""
    import os
    from ..experiments import make_executor, run as run_games
    from ..features.artefact import POLICY_PATH_VARIABLE
    # Workers (started below, they inherit the environment) load the policies by hash from this run's folder too.
    folders = [str(experiment.policies_dir), *filter(None, os.environ.get(POLICY_PATH_VARIABLE, "").split(os.pathsep))]
    os.environ[POLICY_PATH_VARIABLE] = os.pathsep.join(dict.fromkeys(folders))
    pool = make_executor(executor, workers, scheduler_address)
    import time
    times = []

    def timed(stage, fn, *args, **kwargs):
        start = time.perf_counter()
        fn(*args, **kwargs)
        times.append({"stage": stage, "wall_seconds": round(time.perf_counter() - start, 1)})

    before = _stored_work(experiment)
    grown = experiment.grown_configs()
    timed("self-play, growing sets", _self_play, experiment, grown, pool, progress, "self-play (growing sets)")
    pruned = [p for p in (experiment.pruned_config(g) for g in grown) if p is not None]
    if pruned:
        timed("self-play, pruned sets", _self_play, experiment, pruned, pool, progress, "self-play (pruned sets)")
    for name, stages in (("evaluation", {"grown", "pruned", "greedy"}), ("hand-made Yavalath", {"handmade"})):
        exp = experiment.experiment(stages)
        if exp is not None:
            timed(name, run_games, exp, pool, progress=progress)
    timed("slowdowns", measure_slowdowns, experiment, progress)
    exp = experiment.experiment(EQUAL_TIME)
    if exp is not None:
        timed("evaluation at equal time", run_games, exp, pool, progress=progress)
    _log_stage_times(experiment, times, before)
    return frames(experiment)


def _stored_work(experiment: FeatureBiasing) -> tuple:
    """What the stages have stored (file names and sizes): unchanged by a run that played nothing."""
    folder = experiment.results_dir
    files = [*folder.glob("*.parquet"), *experiment.selfplay_dir.glob("*.json"), folder / "slowdowns.csv"]
    return tuple(sorted((p.name, p.stat().st_size) for p in files if p.exists()))


def _log_stage_times(experiment: FeatureBiasing, times: list[dict], before: tuple) -> None:
    """Append this call's wall time per stage to ``stage_times.csv``, if it stored anything (``before``: what was
    stored when it started), so that replotting leaves the committed files alone."""
    from datetime import datetime, timezone
    if _stored_work(experiment) == before:
        return
    path = experiment.results_dir / "stage_times.csv"
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    frame = pd.DataFrame([{**t, "finished_at": when, "machine": platform.node() or "unknown"} for t in times])
    old = pd.read_csv(path) if path.exists() else None
    (frame if old is None else pd.concat([old, frame], ignore_index=True)).to_csv(path, index=False)


def measure_slowdowns(experiment: FeatureBiasing, progress: bool = True) -> pd.DataFrame:
    """Fig. 5 and 8's slowdowns (Correlation-based policies, final checkpoints; the hand-made Yavalath agent),
    measured once and stored in ``slowdowns.csv`` (a timing on this machine, not a deterministic result)."""
    from tqdm.auto import tqdm
    from ..games import make_game
    from ..training.slowdown import slowdown
    path = experiment.results_dir / "slowdowns.csv"
    done = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["policy"])
    s = experiment.settings
    todo = []
    for labels, condition in experiment.labelled_conditions():
        final = max(s["checkpoints"]) if labels["stage"] == "grown" else (
            max(s["pruned_checkpoints"]) if labels["stage"] == "pruned" else 0)
        wanted = labels["stage"] == "handmade" or (labels["stage"] in ("grown", "pruned")
                                                   and labels["strategy"] == "correlation_based")
        if wanted and labels["checkpoint"] == final and condition.agent.policy not in set(done["policy"]):
            todo.append((labels, condition))
    rows = []
    for labels, condition in tqdm(todo, desc="slowdowns", unit="policy", disable=not progress):
        game = make_game(condition.game, condition.size, **dict(condition.game_options))
        agent = condition.agent
        measured = slowdown(game, agent if agent.biased_playouts else agent.policy,
                            seconds_per_move=s["slowdown_seconds"], repeats=s["slowdown_repeats"], seed=experiment.seed)
        rows.append({**{k: labels[k] for k in ("variant", "strategy", "stage")}, "policy": agent.policy,
                     "uct_iterations": measured["uct_iterations_mean"],
                     "biased_iterations": measured["biased_iterations_mean"],
                     "slowdown": measured["ratio"], "seconds_per_move": s["slowdown_seconds"],
                     "repeats": s["slowdown_repeats"], "machine": platform.node() or "unknown"})
    if rows:
        done = pd.concat([done.dropna(axis=1, how="all"), pd.DataFrame(rows)], ignore_index=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        done.to_csv(path, index=False)
    return done


def frames(experiment: FeatureBiasing) -> dict:
    """``evaluations`` (one row per evaluation condition: labels, games, wins) and ``slowdowns`` (tidy frames of
    ``soemers2019_report``), plus ``games`` (every stored evaluation game) and ``selfplay`` (one row per self-play
    game)."""
    labelled = experiment.labelled_conditions()
    stored = experiment.store.load()
    rows = []
    for labels, condition in labelled:
        limit = (experiment.settings["handmade_games"] if labels["stage"] == "handmade" else
                 experiment.settings["equal_time_games"] if labels["stage"] in EQUAL_TIME else
                 experiment.games_per_condition)
        mine = stored[(stored["condition_id"] == condition.id) & (stored["game_index"] < limit)]
        rows.append({**labels, "condition_id": condition.id, "games": len(mine),
                     "wins": float(mine["agent_result"].sum()) if len(mine) else 0.0,
                     "policy": getattr(condition.agent, "policy", "")})
    evaluations = pd.DataFrame(rows)
    path = experiment.results_dir / "slowdowns.csv"
    slowdowns = pd.read_csv(path) if path.exists() else pd.DataFrame(
        columns=["variant", "strategy", "stage", "uct_iterations", "biased_iterations", "slowdown"])
    games = []
    for config in experiment.grown_configs():
        record = experiment.record_of(config)
        if record is None:
            continue
        variant = VARIANT_OF[config.game, config.size]
        for g in record["games"]:
            games.append({"variant": variant, "strategy": config.strategy, **g})
    return {"evaluations": evaluations, "slowdowns": slowdowns, "selfplay": pd.DataFrame(games)}


def equal_time_table(evaluations: pd.DataFrame, slowdowns: pd.DataFrame, experiment: FeatureBiasing):
    """Per variant: Biased MCTS's win rate at equal iterations (the final Correlation-based checkpoint; the hand-made
    Yavalath agent) beside its win rate when UCT gets ``playouts`` x the slowdown, with 95% Wilson intervals."""
    from ..report import wilson_interval
    rows = []
    final = max(experiment.settings["checkpoints"])
    for stage, strategy, checkpoint in (("grown", "correlation_based", final), ("handmade", "handmade", 0)):
        for variant in experiment.settings["variants"]:
            same = evaluations[(evaluations.variant == variant) & (evaluations.stage == stage)
                               & (evaluations.strategy == strategy) & (evaluations.checkpoint == checkpoint)]
            timed = evaluations[(evaluations.variant == variant) & (evaluations.stage == "equal_time_" + stage)
                                & (evaluations.strategy == strategy)]
            speed = slowdowns[(slowdowns.variant == variant) & (slowdowns.stage == stage)]
            if same.empty or timed.empty or speed.empty or not int(timed.games.sum()):
                continue
            cells = {}
            for name, frame in (("equal iterations", same), ("equal time", timed)):
                wins, games = float(frame.wins.sum()), int(frame.games.sum())
                low, high = wilson_interval(wins, games)
                cells[name] = f"{100 * wins / games:.1f}% [{low:.1f}, {high:.1f}] ({games} games)"
            rows.append({"variant": variant, "agent": "hand-made features" if stage == "handmade" else
                         f"Correlation-based, {final} games", "slowdown": round(float(speed.slowdown.iloc[0]), 2),
                         "UCT iterations at equal time": max(1, int(round(experiment.settings["playouts"]
                                                                          * float(speed.slowdown.iloc[0])))),
                         **cells})
    return pd.DataFrame(rows)


def final_policy(experiment: FeatureBiasing, variant: str, strategy: str = "correlation_based") -> str | None:
    """The content hash of the last checkpoint policy of the growing-set run of (variant, strategy), if run."""
    for config in experiment.grown_configs():
        if VARIANTS[variant] == (config.game, config.size) and config.strategy == strategy:
            record = experiment.record_of(config)
            if record is not None:
                return record["checkpoints"][str(max(int(k) for k in record["checkpoints"]))]
    return None


def draw_top_features(experiment: FeatureBiasing, variants=None, strategy: str = "correlation_based",
                      count: int = 2):
    """Fig. 10's style for every variant: the ``count`` learned features of largest |theta| of the final
    ``strategy`` policy, drawn on the board (from the perspective of the player to move), weights in the titles."""
    import matplotlib.pyplot as plt
    from ..features import draw_feature
    from ..features.artefact import load_policy
    variants = [v for v in (variants or experiment.settings["variants"]) if final_policy(experiment, v, strategy)]
    if not variants:
        fig, ax = plt.subplots(figsize=(4, 2))
        ax.text(0.5, 0.5, "no policy learned yet", ha="center", va="center")
        ax.axis("off")
        return fig
    fig, axes = plt.subplots(len(variants), count, figsize=(3.2 * count, 3.0 * len(variants)), squeeze=False)
    for row, variant in zip(axes, variants):
        policy = load_policy(final_policy(experiment, variant, strategy), [experiment.policies_dir])
        feature_set = policy.feature_set
        order = sorted(range(len(policy.theta)), key=lambda i: (-abs(policy.theta[i]), i))[:count]
        for ax, i in zip(row, order):
            draw_feature(feature_set[i], feature_set.graph, ax=ax, title=False)
            ax.set_title(f"{variant}: theta = {policy.theta[i]:+.2f}\n{feature_set[i].to_text()}", fontsize=6)
        for ax in row[len(order):]:
            ax.axis("off")
    fig.tight_layout()
    return fig


def budget_comparison(experiment: FeatureBiasing, slowdowns: pd.DataFrame, ludii_seconds: float = 5.0):
    """Per variant: the iterations a move our presets give, and what our UCT and Biased MCTS do in the paper's 5 s
    of thinking, from the measured iterations per second in the first two moves (``slowdowns``)."""
    rows = []
    for variant in experiment.settings["variants"]:
        mine = slowdowns[(slowdowns["variant"] == variant) & (slowdowns["stage"] == "grown")]
        if mine.empty:
            continue
        seconds = float(mine["seconds_per_move"].iloc[0])
        uct_rate = float(mine["uct_iterations"].mean()) / seconds
        biased_rate = float(mine["biased_iterations"].mean()) / seconds
        rows.append({"variant": variant, "playouts a move (this run)": experiment.settings["playouts"],
                     "UCT iterations / s": round(uct_rate), "Biased MCTS iterations / s": round(biased_rate),
                     f"UCT in {ludii_seconds:g} s": round(uct_rate * ludii_seconds),
                     f"Biased MCTS in {ludii_seconds:g} s": round(biased_rate * ludii_seconds)})
    return pd.DataFrame(rows)


__all__ = ["NAME", "VARIANTS", "STRATEGIES", "PRESETS", "PARAMETERS", "settings", "make_experiment",
           "FeatureBiasing", "run", "frames", "measure_slowdowns", "uct_opponent", "biased_agent", "final_policy",
           "draw_top_features", "budget_comparison", "equal_time_table"]
