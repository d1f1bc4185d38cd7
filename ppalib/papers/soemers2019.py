"""Soemers, Piette & Browne, "Biasing MCTS with Features for General Games", IEEE CEC 2019: Figures 4-8, the
Yavalath experiment with hand-made features, and the paper's claims.

The experiment's stages (``STAGES``; ``run(..., stages=...)`` or ``python -m ppalib.papers.soemers2019 --stage ...``),
each resumable (a rerun continues where an interruption left it):

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

6. **final comparison at the paper's budget** (``final``): each final Correlation-based policy (and the hand-made
   Yavalath agent) against UCT at the iterations Ludii's UCT does in ``ludii_seconds`` (5 s: the paper's thinking
   time; ``ludii_budget``, derived from ``data/paper/soemers2019_ludii_budget.csv``), at equal time (the primary
   comparison, as in the paper: UCT gets the budget B, Biased MCTS round(B / slowdown), the slowdown measured on
   the same policy in the first two moves at that budget, ``final_slowdowns.csv``; the iteration budgets are in
   the stored conditions, so the games replay) and at equal iterations (the secondary table).

Budgets: the paper gives every agent 5 s of thinking per move in Ludii.  We use iteration budgets, so games are
deterministic given the seed.  ``budget="ludii"`` gives every stage (self-play and every evaluation) the
iterations of ``ludii_budget(ludii_seconds[0])`` per variant (the paper preset); ``budget="fixed"`` gives
self-play and the per-checkpoint evaluations ``playouts`` iterations for every variant, and only the final
comparison the Ludii budgets.  Where the 5 s come from: ``ludii_budget``'s docstring and the notebook's table.

Presets (explicit parameters override them):

========  =====================================================================================================
smoke     Teeko and Hex (7x7), two strategies, 2 self-play games, 10 iterations a move, 2 evaluation
          games a checkpoint, a final comparison at 0.002 s of Ludii's thinking: seconds, for the tests
quick     the committed run (500 iterations a move for everything, 20 self-play games, checkpoints 1, 5, 10,
          20; 60 evaluation games; the greedy agent at Breakthrough and Teeko, as the paper's Fig. 6; discovery
          capped at 16 instances; equal time as UCT given 500 x the slowdown): ``data/results/soemers2019``, what
          ``reproduce`` replots and notebook 00 reads; every game it plans is stored
budget    the paper's questions at the Ludii-derived budget on 2 cores, hours over several sessions (measured costs:
          ``final_cost_estimate`` and the notebook), committed as it grows to ``data/results/soemers2019_budget``
          (``COMMITTED_FOLDERS``; the notebook's section "The paper's questions at the paper's budget":
          ``soemers2019_report.budget_run_status``).
          Correlation-based self-play to 200 games (checkpoints 1, 25, 50, 100, 200), the other strategies to
          50, at ``playouts`` = 300 a move; pruned sets 100 games (the paper's checkpoints 0, 25, 50, 75,
          100 of Fig. 7; a 15-feature game costs a fifth to a tenth of a growing-set one); 40 evaluation games a
          checkpoint at 300 (the four-strategy comparison, Fig. 7, the greedy agent in all ten games); the final
          comparison at Ludii's 5 s and 2.5 s, up to 200 games a cell
paper     the paper's protocol: every stage at Ludii's 5 s (per variant), 200 self-play games (1, 25, 50, 100,
          200), 100 pruned-set games (0, 25, 50, 75, 100), 200 evaluation games a checkpoint, no cap
========  =====================================================================================================
"""
from __future__ import annotations

import json
import math
import platform
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
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
PAPER_GREEDY_VARIANTS = ("Breakthrough", "Teeko")  # Fig. 6; the text says "close to 0%" for the others
MOVE_CAP = 100  # "Games are terminated automatically after 100 moves" (V-A): a draw
C_PUCT = math.sqrt(2.0)
C_UCB1 = math.sqrt(2.0)
PRUNED_FEATURES = 15
EQUAL_TIME = {"equal_time_grown", "equal_time_handmade"}
FINAL = {"final_equal_time", "final_equal_iterations", "final_greedy", "final_paper_slowdown"}
#: The evaluation games the runner plays as one ``Experiment`` each, by the name its stage call logs in
#: ``stage_times.csv``: the stages of each (the report sums the stored games' CPU time by the same names).
GAME_STAGES = {"evaluation": frozenset({"grown", "pruned", "greedy"}), "hand-made Yavalath": frozenset({"handmade"}),
               "evaluation at equal time": frozenset(EQUAL_TIME), "final comparison": frozenset(FINAL)}
#: Variants whose final comparison also plays the first checkpoint's policy at the Ludii budget: the paper's claim
#: for Gomoku is about the learning curve ("no apparent change in playing strength" from 1 to 200 self-play games),
#: so it needs both ends at the paper's budget; the other claims are about the final checkpoint.
EARLY_CHECKPOINT_VARIANTS = ("Gomoku",)

PAPER_SECONDS = 5.0  # "5 seconds of thinking time per move" (V-A)
LUDII_BUDGET_FILE = "soemers2019_ludii_budget.csv"
#: Game options per variant for the rule variants Ludii plays by default where we do not (the swap rule in Hex and
#: Yavalath, Ludii's 8 pieces a player in Teeko); played beside the default in the final comparison when
#: ``rule_variants`` asks for it.
RULE_VARIANTS = {"swap": {"Hex (7x7)": {"swap": 1}, "Hex (11x11)": {"swap": 1}, "Yavalath": {"swap": 1}},
                 "teeko_8_pieces": {"Teeko": {"pieces": 8}}}

PRESETS = {
    "smoke": dict(variants=["Teeko", "Hex (7x7)"], strategies=["combine_random", "correlation_based"],
                  self_play_games=2, other_strategies_games=0, checkpoints=[1, 2], pruned_games=1,
                  pruned_checkpoints=[0, 1], playouts=10, budget="fixed", games_per_cell=2, handmade_games=2,
                  max_instances=8, slowdown_seconds=0.01, slowdown_repeats=1, equal_time_games=2,
                  greedy_variants=["Teeko", "Hex (7x7)"], ludii_seconds=[0.002], final_games=2,
                  rule_variants=[]),
    "quick": dict(variants=list(VARIANTS), strategies=list(STRATEGIES), self_play_games=20,
                  other_strategies_games=0, checkpoints=[1, 5, 10, 20], pruned_games=5, pruned_checkpoints=[0, 5],
                  playouts=500, budget="fixed", games_per_cell=60, handmade_games=100, max_instances=16,
                  slowdown_seconds=0.2, slowdown_repeats=3, equal_time_games=100,
                  greedy_variants=list(PAPER_GREEDY_VARIANTS), ludii_seconds=[0], final_games=0, rule_variants=[]),
    "budget": dict(variants=list(VARIANTS), strategies=list(STRATEGIES), self_play_games=200,
                   other_strategies_games=50, checkpoints=[1, 25, 50, 100, 200], pruned_games=100,
                   pruned_checkpoints=[0, 25, 50, 75, 100], playouts=300, budget="fixed", games_per_cell=40, handmade_games=40,
                   max_instances=16, slowdown_seconds=0.2, slowdown_repeats=3, equal_time_games=0,
                   greedy_variants=list(VARIANTS), ludii_seconds=[PAPER_SECONDS, PAPER_SECONDS / 2],
                   final_games=200, rule_variants=["swap", "teeko_8_pieces"]),
    "paper": dict(variants=list(VARIANTS), strategies=list(STRATEGIES), self_play_games=200,
                  other_strategies_games=0, checkpoints=[1, 25, 50, 100, 200], pruned_games=100,
                  pruned_checkpoints=[0, 25, 50, 75, 100], playouts=10_000, budget="ludii", games_per_cell=200,
                  handmade_games=200, max_instances=0, slowdown_seconds=5.0, slowdown_repeats=5,
                  equal_time_games=0, greedy_variants=list(VARIANTS), ludii_seconds=[PAPER_SECONDS],
                  final_games=200, rule_variants=["swap", "teeko_8_pieces"]),
}
DEFAULTS = dict(seed=2019, final_cpu_seconds=None, final_grow_stages=None, final_grow_seconds=None)
#: Committed runs of presets other than the committed one (``ppalib.papers.committed_results_folder``): the
#: ``budget`` run is committed as it grows, over several sessions, to ``data/results/soemers2019_budget`` (the
#: committed ``quick`` run stays in ``data/results/soemers2019``).  A stage run for some variants or strategies
#: first (``COMMITTED_SUBSETS``) writes there too: its self-play run ids and condition ids are the full grid's.
COMMITTED_FOLDERS = {"budget": f"{NAME}_budget"}
COMMITTED_SUBSETS = ("variants", "strategies")
#: Parameters that bound one session's work and change no stored game: they never move the results folder.
RUN_ONLY = ("final_cpu_seconds", "final_grow_stages", "final_grow_seconds")
PARAMETERS = {
    "variants": Param("choice", many=True, choices=tuple(VARIANTS)),
    "strategies": Param("choice", many=True, choices=STRATEGIES),
    "self_play_games": integer(1, 100_000),
    "other_strategies_games": integer(0, 100_000),
    "checkpoints": integer(1, 100_000, many=True),
    "pruned_games": integer(0, 100_000),
    "pruned_checkpoints": integer(0, 100_000, many=True),
    "playouts": integer(1, MAX_PLAYOUTS),
    "budget": Param("choice", choices=("fixed", "ludii")),
    "games_per_cell": GAMES_PER_CELL,
    "handmade_games": integer(0, 10_000_000),
    "max_instances": integer(0, 10_000),
    "slowdown_seconds": number(0.001, 600.0),
    "slowdown_repeats": integer(1, 1000),
    "equal_time_games": integer(0, 10_000_000),
    "greedy_variants": Param("choice", many=True, choices=tuple(VARIANTS)),
    "ludii_seconds": number(0.0, 600.0, many=True),
    "final_games": integer(0, 10_000_000),
    "rule_variants": Param("choice", many=True, choices=tuple(RULE_VARIANTS)),
    "final_cpu_seconds": number(0),
    "final_grow_stages": Param("choice", many=True, choices=tuple(sorted(FINAL))),
    "final_grow_seconds": number(0.0, 600.0, many=True),
    "seed": SEED,
}


def ludii_budget(seconds: float = PAPER_SECONDS) -> pd.DataFrame:
    """Per variant, the iterations a move that stand for ``seconds`` of the paper's thinking time in Ludii.

    Derivation (the table ``data/paper/soemers2019_ludii_budget.csv``; how it was measured: ``data/paper/README.md``):
    Ludii 1.3.12's UCT, one search thread, timed on a 2-core machine like ours, ran ``ludii_iterations_5s_low`` to
    ``_high`` iterations in one 5 s move from the start position (the two garbage collectors tried: the range is
    the collector's: 1.05-1.48x at 5 s, 1.10-1.81x in the 1 s rates).  The paper's engine (Ludii of early 2019)
    and hardware are unknown, so this is an order of magnitude: we take the geometric mean of the two ends, to two
    significant figures (``iterations_5s``), and scale it linearly to ``seconds`` (``iterations``: at least 1).
    Linear because a search's iterations a second hardly change with its length once warmed up (the 1 s rates agree
    within the ranges)."""
    seconds = float(seconds)
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"seconds={seconds!r} must be a positive number of seconds")
    table = pd.read_csv(paths.PAPER_DATA / LUDII_BUDGET_FILE, keep_default_na=False)
    middle = (table["ludii_iterations_5s_low"] * table["ludii_iterations_5s_high"]) ** 0.5
    digits = 1 - middle.map(lambda x: math.floor(math.log10(x)))
    table["iterations_5s"] = [int(round(x, d)) for x, d in zip(middle, digits)]
    table["seconds"] = seconds
    table["iterations"] = (table["iterations_5s"] * seconds / PAPER_SECONDS).round().astype(int).clip(lower=1)
    return table


def budget_of(variant: str, seconds: float = PAPER_SECONDS) -> int:
    """``ludii_budget(seconds)``'s iterations for ``variant``."""
    table = ludii_budget(seconds)
    row = table[table["variant"] == variant]
    if row.empty:
        raise ValueError(f"variant={variant!r} has no Ludii timing; known: {list(table['variant'])}")
    return int(row["iterations"].iloc[0])


def settings(preset: str = "quick", **overrides) -> dict:
    """The preset's parameters with ``overrides`` applied (``None`` values are ignored), checked together."""
    result = resolve_settings(PRESETS, DEFAULTS, preset, overrides, PARAMETERS)
    for key in ("variants", "strategies", "checkpoints", "pruned_checkpoints", "greedy_variants",
                "ludii_seconds", "rule_variants"):
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
    if result["budget"] == "ludii" and not any(x > 0 for x in result["ludii_seconds"]):
        raise ValueError("budget='ludii' needs ludii_seconds > 0 (its first value budgets every stage)")
    others = result["other_strategies_games"]
    if others and others > result["self_play_games"]:
        raise ValueError(f"other_strategies_games={others} exceeds self_play_games={result['self_play_games']}")
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
    ``seed``, ``results_dir``, ``store``, ``conditions``, ``planned``).  ``read_only``: the conditions are built
    without saving the policies they derive (the hand-made Yavalath set, a policy under a rule variant), so that
    reading a committed run (``budget_run``) writes nothing into it; the hashes are the same."""
    results_dir: Path
    settings: dict
    name: str = NAME
    read_only: bool = False

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

    # -- budgets ------------------------------------------------------------------------------------------------
    def playouts_of(self, variant: str) -> int:
        """Iterations a move of self-play and of the per-checkpoint evaluations of ``variant``: ``playouts``, or
        under ``budget="ludii"`` the Ludii budget of ``ludii_seconds[0]``."""
        s = self.settings
        if s["budget"] == "ludii":
            return budget_of(variant, s["ludii_seconds"][0])
        return int(s["playouts"])

    def games_of(self, strategy: str) -> int:
        """Growing-set self-play games of ``strategy``: ``self_play_games`` for Correlation-based (the paper's
        recommendation), ``other_strategies_games`` (0: the same) for the others."""
        s = self.settings
        if strategy == "correlation_based" or not s["other_strategies_games"]:
            return int(s["self_play_games"])
        return int(s["other_strategies_games"])

    @property
    def final_seconds(self) -> list[float]:
        return [float(x) for x in self.settings["ludii_seconds"] if x > 0] if self.settings["final_games"] else []

    # -- stage 1 and 2 configs ----------------------------------------------------------------------------------
    def grown_configs(self) -> list:
        from ..training.selfplay import SelfPlayConfig
        s = self.settings
        out = []
        for v in s["variants"]:
            for strategy in s["strategies"]:
                games = self.games_of(strategy)
                out.append(SelfPlayConfig(*VARIANTS[v], strategy=strategy, games=games,
                                          playouts=self.playouts_of(v),
                                          checkpoints=tuple(c for c in s["checkpoints"] if c <= games),
                                          seed=self.seed, move_cap=MOVE_CAP, c=C_PUCT,
                                          max_instances=s["max_instances"]))
        return out

    def record_of(self, config, partial: bool = False) -> dict | None:
        """The stored record of self-play run ``config``: None until it is finished (``partial``: also a record
        written at a checkpoint of an unfinished run)."""
        path = self.selfplay_dir / f"{config.run_id}.json"
        if not path.exists():
            return None
        record = json.loads(path.read_text())
        return record if partial or record["games_done"] >= config.games else None

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
                              playouts=grown.playouts, checkpoints=tuple(s["pruned_checkpoints"]), seed=self.seed,
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
            record = self.record_of(grown, partial=True)  # checkpoints reached by an unfinished run count too
            if record is None:
                continue
            playouts = grown.playouts
            uct = uct_opponent(playouts)
            for checkpoint, policy in record["checkpoints"].items():
                labels = dict(variant=variant, strategy=grown.strategy, stage="grown", checkpoint=int(checkpoint))
                out.append((labels, Condition(grown.game, grown.size, biased_agent(playouts, policy), uct,
                                              options)))
                if variant in s["greedy_variants"]:
                    out.append(({**labels, "stage": "greedy"},
                                Condition(grown.game, grown.size, make_agent("greedy", 1, policy=policy), uct,
                                          options)))
            pruned = self.pruned_config(grown)
            pruned_record = None if pruned is None else self.record_of(pruned)
            if pruned_record is not None:
                for checkpoint, policy in pruned_record["checkpoints"].items():
                    labels = dict(variant=variant, strategy=grown.strategy, stage="pruned",
                                  checkpoint=int(checkpoint))
                    out.append((labels, Condition(grown.game, grown.size, biased_agent(playouts, policy), uct,
                                                  options)))
        if "Yavalath" in s["variants"] and s["handmade_games"]:
            policy = self.handmade_policy()
            playouts = self.playouts_of("Yavalath")
            out.append((dict(variant="Yavalath", strategy="handmade", stage="handmade", checkpoint=0),
                        Condition("yavalath", 5, biased_agent(playouts, policy.content_hash, True),
                                  uct_opponent(playouts), options)))
        out += self.equal_time_conditions()
        out += self.final_conditions()
        return out

    # -- stage 6: the final comparison at Ludii's budget --------------------------------------------------------
    def final_agents(self) -> list[tuple[dict, str, bool]]:
        """(labels, policy hash, fully biased playouts) of the agents of the final comparison: each variant's
        final Correlation-based policy (once its run is finished), for ``EARLY_CHECKPOINT_VARIANTS`` also its first
        checkpoint's policy, and the hand-made Yavalath features."""
        s = self.settings
        out = []
        for grown in self.grown_configs():
            if grown.strategy != "correlation_based":
                continue
            record = self.record_of(grown)
            if record is None:
                continue
            variant = VARIANT_OF[grown.game, grown.size]
            reached = sorted(int(k) for k in record["checkpoints"])
            picked = [reached[-1]] + ([reached[0]] if variant in EARLY_CHECKPOINT_VARIANTS and len(reached) > 1
                                      else [])
            for checkpoint in picked:
                out.append((dict(variant=variant, strategy=grown.strategy, checkpoint=checkpoint),
                            record["checkpoints"][str(checkpoint)], False))
        if "Yavalath" in s["variants"] and s["handmade_games"]:
            out.append((dict(variant="Yavalath", strategy="handmade", checkpoint=0),
                        self.handmade_policy().content_hash, True))
        return out

    def final_slowdowns(self) -> pd.DataFrame:
        """The stored slowdowns at the final budgets (``final_slowdowns.csv``; ``measure_final_slowdowns``)."""
        path = self.results_dir / "final_slowdowns.csv"
        return pd.read_csv(path) if path.exists() else pd.DataFrame(
            columns=["variant", "strategy", "policy", "ludii_seconds", "budget", "rules", "slowdown"])

    def rule_options(self, variant: str) -> list[tuple[str, tuple]]:
        """(rules label, game options) the final comparison plays ``variant`` under: the default rules, and each
        of ``rule_variants`` that applies to it (``RULE_VARIANTS``)."""
        out = [("default", ())]
        for name in self.settings["rule_variants"]:
            if variant in RULE_VARIANTS[name]:
                out.append((name, tuple(sorted(RULE_VARIANTS[name][variant].items()))))
        return out

    def policy_under_rules(self, policy_hash: str, rule_options: tuple) -> str:
        """``policy_hash`` itself under the default rules; under a rule variant (e.g. the swap), the same features
        and weights as a policy of the game with those options (saved; a new hash).  The learned policies never saw
        the variant: a move on no cell (the swap) matches no feature, so its prior logit is 0."""
        if not rule_options:
            return policy_hash
        from ..features.artefact import LinearPolicy, load_policy
        handmade = self._handmade if self.read_only else None  # not saved when reading: not in the folder
        policy = handmade if handmade is not None and handmade.content_hash == policy_hash else load_policy(
            policy_hash, [self.policies_dir])
        copy = LinearPolicy(policy.game, policy.size, policy.features, policy.theta,
                            (*policy.game_options, *rule_options),
                            f"policy {policy_hash} under the rules {dict(rule_options)}")
        if not self.read_only:
            copy.save(self.policies_dir)
        return copy.content_hash

    def final_cells(self) -> list[dict]:
        """Every cell of the final comparison the settings plan, whether or not its agent exists yet (labels:
        stage, variant, strategy, checkpoint, ludii_seconds, budget, rules), in the order ``final_conditions``
        builds them.  The agents: each variant's final Correlation-based policy, for
        ``EARLY_CHECKPOINT_VARIANTS`` also its first checkpoint's, and the hand-made Yavalath features; for each,
        thinking time in ``ludii_seconds`` and rules of ``rule_options``, the budget B of ``budget_of``:

        * ``final_equal_iterations``: Biased MCTS and UCT both at B;
        * ``final_equal_time``: Biased MCTS at round(B / s), s its slowdown at B (``final_slowdowns``), UCT at B;
        * ``final_greedy`` (the final Correlation-based policy): the greedy agent (Fig. 6: the policy's most probable
          move, no search) against UCT at B: the paper's Fig. 6 is at its 5 s, and UCT at the evaluation stage's
          smaller budget is a weaker opponent than the paper's (Ludii's Teeko, the paper's, has 8 pieces a player:
          hence every rule set);
        * ``final_paper_slowdown`` (default rules, the paper's 5 s; the agents ``paper_slowdown`` names: Yavalath's
          learned set and its hand-made features): Biased MCTS at round(B / the paper's slowdown)."""
        from .soemers2019_report import paper_slowdown
        s = self.settings
        last, first = max(s["checkpoints"]), min(s["checkpoints"])
        agents = []
        if "correlation_based" in s["strategies"]:
            for variant in s["variants"]:
                agents.append((variant, "correlation_based", last))
                if variant in EARLY_CHECKPOINT_VARIANTS and first < last:
                    agents.append((variant, "correlation_based", first))
        if "Yavalath" in s["variants"] and s["handmade_games"]:
            agents.append(("Yavalath", "handmade", 0))
        cells = []
        for variant, strategy, checkpoint in agents:
            final = strategy == "correlation_based" and checkpoint == last
            for seconds in self.final_seconds:
                labels = dict(variant=variant, strategy=strategy, checkpoint=checkpoint, ludii_seconds=seconds,
                              budget=budget_of(variant, seconds))
                for rules, _ in self.rule_options(variant):
                    stages = (["final_greedy"] if final else []) + ["final_equal_iterations", "final_equal_time"]
                    cells += [{**labels, "rules": rules, "stage": stage} for stage in stages]
                if (seconds == PAPER_SECONDS and (final or strategy == "handmade")
                        and paper_slowdown(variant, strategy) is not None):
                    cells.append({**labels, "rules": "default", "stage": "final_paper_slowdown"})
        return cells

    def final_conditions(self) -> list[tuple[dict, Condition]]:
        """(labels, condition) of every ``final_cells`` cell whose agent exists (``final_agents``: the policies of
        finished runs) and, for equal time, whose slowdown is measured; labels add ``biased_budget``, Biased
        MCTS's iterations (0: the greedy agent).  The budgets are in the agents' configs, so the stored games replay
        without the slowdown file.  A learned policy under a rule variant (the swap) is the same features and
        weights as a policy of that game (``policy_under_rules``)."""
        from .soemers2019_report import paper_slowdown
        slow = self.final_slowdowns()
        agents = {(lab["variant"], lab["strategy"], lab["checkpoint"]): (policy, full)
                  for lab, policy, full in self.final_agents()}
        options_of = {}
        out = []
        for cell in self.final_cells():
            found = agents.get((cell["variant"], cell["strategy"], cell["checkpoint"]))
            if found is None:
                continue
            base_policy, full_playouts = found
            game, size = VARIANTS[cell["variant"]]
            if (cell["variant"], cell["rules"]) not in options_of:
                options_of[cell["variant"], cell["rules"]] = dict(self.rule_options(cell["variant"]))[cell["rules"]]
            rule_options = options_of[cell["variant"], cell["rules"]]
            options = (*rule_options, ("ply_cap", MOVE_CAP))
            policy = self.policy_under_rules(base_policy, rule_options)
            budget = cell["budget"]
            uct = uct_opponent(budget)
            if cell["stage"] == "final_greedy":
                out.append(({**cell, "biased_budget": 0},
                            Condition(game, size, make_agent("greedy", 1, policy=policy), uct, options)))
                continue
            if cell["stage"] == "final_equal_iterations":
                biased_budget = budget
            elif cell["stage"] == "final_paper_slowdown":
                biased_budget = max(1, int(round(budget / paper_slowdown(cell["variant"], cell["strategy"]))))
            else:  # equal time, once the slowdown of that policy at that budget is measured
                measured = slow[(slow["policy"] == policy) & (slow["budget"] == budget)
                                & (slow["rules"] == cell["rules"])] if len(slow) else slow
                if measured.empty:
                    continue
                biased_budget = max(1, int(round(budget / float(measured["slowdown"].iloc[0]))))
            out.append(({**cell, "biased_budget": biased_budget},
                        Condition(game, size, biased_agent(biased_budget, policy, full_playouts), uct, options)))
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

    @cached_property
    def _handmade(self):
        from ..features.handmade import yavalath_handmade_policy
        from ..games import make_game
        return yavalath_handmade_policy(make_game("yavalath", 5, ply_cap=MOVE_CAP))

    def handmade_policy(self):
        policy = self._handmade
        if not self.read_only:
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
                 self.settings["equal_time_games"] if stage_filter == EQUAL_TIME else
                 self.settings["final_games"] if stage_filter == FINAL else self.games_per_condition)
        return Experiment(NAME, tuple(dict.fromkeys(c for _, c in labelled)), games, self.seed, self.results_dir)

    def games_limit(self, stage: str) -> int:
        """The most games a condition of ``stage`` gets."""
        s = self.settings
        return (s["handmade_games"] if stage == "handmade" else s["equal_time_games"] if stage in EQUAL_TIME else
                s["final_games"] if stage in FINAL else self.games_per_condition)

    def planned(self) -> list:
        planned = []
        for stages in GAME_STAGES.values():
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
                                str(experiment.policies_dir), str(experiment.selfplay_dir)):
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


STAGES = ("selfplay", "pruned", "evaluation", "handmade", "slowdowns", "equal_time", "final")


def run(experiment: FeatureBiasing, executor="process", *, workers=None, scheduler_address=None,
        progress: bool = True, stages=None) -> dict:
    """Every stage not done yet (``stages``: only these, names from ``STAGES``; each resumes from the store);
    returns ``frames(experiment)``."""
    import os
    from ..experiments import make_executor, run as run_games
    from ..features.artefact import POLICY_PATH_VARIABLE
    stages = STAGES if stages is None else tuple([stages] if isinstance(stages, str) else stages)
    unknown = [x for x in stages if x not in STAGES]
    if unknown:
        raise ValueError(f"stages={list(stages)!r}: unknown {unknown}; use names from {STAGES}")
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
    if "selfplay" in stages:
        timed("self-play, growing sets", _self_play, experiment, grown, pool, progress, "self-play (growing sets)")
    pruned = [p for p in (experiment.pruned_config(g) for g in grown) if p is not None]
    if pruned and "pruned" in stages:
        timed("self-play, pruned sets", _self_play, experiment, pruned, pool, progress, "self-play (pruned sets)")
    for name, key in (("evaluation", "evaluation"), ("hand-made Yavalath", "handmade")):
        exp = experiment.experiment(GAME_STAGES[name]) if key in stages else None
        if exp is not None:
            timed(name, run_games, exp, pool, progress=progress)
    if "slowdowns" in stages:
        timed("slowdowns", measure_slowdowns, experiment, progress)
    exp = experiment.experiment(GAME_STAGES["evaluation at equal time"]) if "equal_time" in stages else None
    if exp is not None:
        timed("evaluation at equal time", run_games, exp, pool, progress=progress)
    if "final" in stages and experiment.final_seconds:
        timed("final slowdowns", measure_final_slowdowns, experiment, progress)
        timed("final comparison", run_final, experiment, pool, progress)
    _log_stage_times(experiment, times, before)
    return frames(experiment)


#: The final comparison's games until decided (``ppalib.until_decided``): FINAL_FIRST games a cell first, then
#: batches of FINAL_BATCH for the undecided cells, up to ``final_games``.
FINAL_FIRST = 16
FINAL_BATCH = 16


def final_experiment(experiment: FeatureBiasing) -> Experiment | None:
    """The final comparison's conditions with their planned (first) game count; the ledger of
    ``ppalib.until_decided`` (``until_decided.csv``) holds the counts they were grown to."""
    conditions = tuple(dict.fromkeys(c for _, c in experiment.final_conditions()))
    if not conditions:
        return None
    return Experiment(NAME, conditions, min(FINAL_FIRST, int(experiment.settings["final_games"])), experiment.seed,
                      experiment.results_dir)


def final_undecided(cells: pd.DataFrame, references: dict | None = None) -> np.ndarray:
    """Whether each final cell (``until_decided.cell_counts`` rows) is undecided against its reference: the
    three-way verdict of ``report.cell_verdict`` with a fixed reference (Biased MCTS above UCT, below it, or level
    with it within ``report.EQUIVALENCE_MARGIN``), a grown cell by its anytime-valid interval.  The reference is
    50% (an even score against UCT) unless ``references`` (condition id -> percent) names another
    (``final_references``: a value the paper gives, judged by ``soemers2019_report.value_verdict``)."""
    from ..report import undecided
    from .soemers2019_report import value_verdict
    references = references or {}
    out = np.asarray(undecided(cells.assign(paper_percent=50.0, paper_games=np.nan)), dtype=bool)
    for i, cell in enumerate(cells.itertuples()):
        if cell.condition_id in references:
            out[i] = value_verdict(cell.wins, max(int(cell.games), 1), references[cell.condition_id],
                                   bool(cell.grown)) == "undecided"
    return out


def final_references(experiment: FeatureBiasing) -> dict:
    """Condition id -> the reference percent ``final_undecided`` decides a final cell against, for the cells whose
    reference is not 50%: where the paper gives a value (``soemers2019_report.value_reference``: the greedy
    agent's rate, the hand-made agent's 93%), that value, so that growth stops once the claim is decided."""
    from .soemers2019_report import value_reference
    out = {}
    for labels, condition in experiment.final_conditions():
        reference = value_reference(labels["stage"], labels["variant"], labels["strategy"])
        if reference is not None:
            out[condition.id] = reference
    return out


def run_final(experiment: FeatureBiasing, executor="process", progress: bool = True) -> None:
    """The final comparison, games added until each cell is decided (``final_undecided``) or has ``final_games``
    (``ppalib.until_decided.run_until_decided``: a condition's games are those of index 0..n-1 whatever the
    rounds, the ledger is written before each batch, so a rerun continues where an interruption stopped).

    ``final_cpu_seconds`` (None: no bound) bounds the CPU seconds this call's growth may spend (the added games' own
    timings; a batch that would not fit is not started), so that a session stops cleanly and the next one goes
    on; the first ``FINAL_FIRST`` games of a cell are always played (stop those with an interruption: resumable).
    It changes no condition and no game: the rounds a later call plays are those the rule would have played.
    ``final_grow_stages`` / ``final_grow_seconds`` (None: all) restrict which cells this call grows (e.g. the
    primary table at the paper's 5 s first), the same kind of bound: each cell grows by the same rule whenever its
    turn comes, so the games a cell ends with do not depend on the order."""
    from ..until_decided import StoppingRule, run_until_decided
    exp = final_experiment(experiment)
    if exp is None:
        return
    s = experiment.settings
    stages = set(s.get("final_grow_stages") or FINAL)
    seconds = {float(x) for x in (s.get("final_grow_seconds") or experiment.final_seconds)}
    grow = [c.id for labels, c in experiment.final_conditions()
            if labels["stage"] in stages and float(labels["ludii_seconds"]) in seconds]
    limit = int(experiment.settings["final_games"])
    budget = experiment.settings.get("final_cpu_seconds")
    if budget is not None:
        # the rule counts every game beyond a cell's first ones, earlier sessions' too: this call's budget on top
        budget = final_growth_seconds(experiment) + float(budget)
    rule = StoppingRule(batch=FINAL_BATCH, cap=max(limit, exp.games_per_condition), cpu_seconds=budget)
    references = final_references(experiment)
    run_until_decided(exp, list(dict.fromkeys(grow)), lambda cells: final_undecided(cells, references), rule,
                      executor, progress=progress)


def final_growth_seconds(experiment: FeatureBiasing) -> float:
    """CPU seconds (the games' own timings) the final comparison's growth has spent so far: its stored games beyond
    each cell's first ``FINAL_FIRST`` (what ``final_cpu_seconds`` bounds, per call)."""
    from ..until_decided import cell_counts, planned_games
    exp = final_experiment(experiment)
    if exp is None or not experiment.results_dir.is_dir():
        return 0.0
    stored = experiment.store.load()
    return cell_counts(stored, planned_games(exp))[1] if len(stored) else 0.0


def measure_final_slowdowns(experiment: FeatureBiasing, progress: bool = True) -> pd.DataFrame:
    """The slowdown of each final agent at each final budget and rule set (``slowdown_at_budget``: the first two
    moves, the budget, the policy of the games), stored once in ``final_slowdowns.csv``; the equal-time conditions
    are derived from it."""
    from tqdm.auto import tqdm
    from ..games import make_game
    from ..training.slowdown import slowdown_at_budget
    path = experiment.results_dir / "final_slowdowns.csv"
    done = experiment.final_slowdowns()
    have = set(zip(done["policy"], done["budget"].astype(int), done["rules"])) if len(done) else set()
    todo = []
    for labels, condition in experiment.final_conditions():
        key = (condition.agent.policy, labels["budget"], labels["rules"])
        if labels["stage"] == "final_equal_iterations" and key not in have:
            todo.append((labels, condition))
            have.add(key)
    rows = []
    for labels, condition in tqdm(todo, desc="final slowdowns", unit="policy", disable=not progress or not todo):
        game = make_game(condition.game, condition.size, **dict(condition.game_options))
        measured = slowdown_at_budget(game, condition.agent, labels["budget"],
                                      repeats=experiment.settings["slowdown_repeats"], seed=experiment.seed)
        rows.append({**{k: labels[k] for k in ("variant", "strategy", "ludii_seconds", "budget", "rules")},
                     "policy": condition.agent.policy, "uct_seconds": measured["uct_seconds_mean"],
                     "biased_seconds": measured["biased_seconds_mean"], "slowdown": measured["ratio"],
                     "slowdown_min": measured["ratio_min"], "slowdown_max": measured["ratio_max"],
                     "repeats": measured["repeats"], "machine": platform.node() or "unknown"})
        frame = pd.concat([done.dropna(axis=1, how="all"), pd.DataFrame(rows)], ignore_index=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(path, index=False)  # after every policy: an interrupted measure keeps what it has
    return experiment.final_slowdowns()


#: The searches ``measure_slowdown_parts`` times, from UCT to Biased MCTS one part at a time.
SLOWDOWN_PARTS = {"uct": "UCT (Ludii's selection)",
                  "puct_plain": "PUCT, uniform priors, uniform playouts",
                  "puct_first": "PUCT, uniform priors, first playout move from them",
                  "biased": "Biased MCTS (PUCT, the features' priors, first playout move from them)"}


def measure_slowdown_parts(experiment: FeatureBiasing, seconds: float = PAPER_SECONDS, repeats: int = 3,
                           label: str = "", progress: bool = True) -> pd.DataFrame:
    """Where Biased MCTS's slowdown comes from, per variant at the Ludii budget of ``seconds``: the CPU seconds an
    iteration (first two moves of a game, ``repeats`` interleaved rounds, ``training.slowdown.
    interleaved_cpu_seconds``) of each search of ``SLOWDOWN_PARTS``, from UCT through PUCT with uniform priors
    (the search without features), its first playout move drawn from the priors (Soemers et al.'s playout: a
    second entry a playout), to Biased MCTS with the final Correlation-based policy (the priors computed from the
    features for every legal move of each new entry).  The ratios to UCT split the slowdown into the search's own
    cost and the features'.  Appended to ``slowdown_parts.csv`` in the results folder with ``label``; a timing."""
    from tqdm.auto import tqdm
    from .. import CODE_VERSION
    from ..games import make_game
    from ..training.slowdown import interleaved_cpu_seconds, uct_agent
    rows = []
    agents_of = [(labels, policy) for labels, policy, full in experiment.final_agents()
                 if labels["strategy"] == "correlation_based" and labels["checkpoint"] == max(
                     experiment.settings["checkpoints"])]
    for labels, policy in tqdm(agents_of, desc="slowdown parts", unit="variant", disable=not progress):
        game = make_game(*VARIANTS[labels["variant"]], ply_cap=MOVE_CAP)
        budget = budget_of(labels["variant"], seconds)
        agents = {"uct": replace(uct_agent(1.0), seconds_per_move=None, playouts=budget),
                  "puct_plain": make_agent("puct", budget, c=C_PUCT, tree_reuse=True,
                                           prior_first_playout_move=False),
                  "puct_first": make_agent("puct", budget, c=C_PUCT, tree_reuse=True),
                  "biased": biased_agent(budget, policy)}
        times = interleaved_cpu_seconds(game, agents, repeats, experiment.seed)
        per = {name: float(np.median(t)) / (2 * budget) for name, t in times.items()}
        rows.append({"variant": labels["variant"], "ludii_seconds": seconds, "budget": budget, "policy": policy,
                     **{f"{name}_us": 1e6 * per[name] for name in SLOWDOWN_PARTS},
                     **{f"{name}_vs_uct": per[name] / per["uct"] for name in SLOWDOWN_PARTS if name != "uct"},
                     "repeats": repeats, "label": label or CODE_VERSION, "machine": platform.node() or "unknown"})
    frame = pd.DataFrame(rows)
    path = experiment.results_dir / "slowdown_parts.csv"
    if path.exists():
        frame = pd.concat([pd.read_csv(path), frame], ignore_index=True)
    frame.to_csv(path, index=False)
    return frame


def in_game_slowdowns(experiment: FeatureBiasing, moves: int = 2, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """The slowdown inside the final comparison's own games, as the paper measures it (V-B: "in the first two moves
    per game"): per cell, Biased MCTS's CPU seconds an iteration in its first ``moves`` moves of each game over
    UCT's in theirs (ratio of the means over the games; the store's per-move timings, ``move_seconds``, kept since
    schema version 4), beside the slowdown measured before the games that set the equal-time budgets
    (``final_slowdowns``).  Equal-iteration cells compare like with like; equal-time ones give Biased MCTS fewer
    iterations (its trees are shallower), so its seconds an iteration may differ.  Rows only for cells with timed
    games."""
    labelled = [(lab, c) for lab, c in experiment.final_conditions()
                if lab["stage"] in ("final_equal_iterations", "final_equal_time")]
    if games is None:  # ``games``: the store's games, when the caller has loaded them already
        games = experiment.store.load() if experiment.results_dir.is_dir() else pd.DataFrame()
    columns = ["stage", "variant", "strategy", "checkpoint", "ludii_seconds", "rules", "games timed",
               "Biased MCTS us an iteration", "UCT us an iteration", "slowdown in the games", "slowdown measured"]
    if not len(games):
        return pd.DataFrame(columns=columns)
    games = games[games["move_seconds"] != ""]
    slow = experiment.final_slowdowns()
    rows = []
    for labels, condition in labelled:
        mine = games[games["condition_id"] == condition.id]
        biased, uct = [], []
        for g in mine.itertuples():
            seconds = [float(x) for x in g.move_seconds.split()]
            mover = int(g.agent_player)
            biased += [t / g.agent_playouts for t in seconds[mover::2][:moves]]
            uct += [t / g.opponent_playouts for t in seconds[1 - mover::2][:moves]]
        if not biased or not uct:
            continue
        measured = slow[(slow["policy"] == condition.agent.policy) & (slow["budget"] == labels["budget"])
                        & (slow["rules"] == labels["rules"])]
        rows.append({**{k: labels[k] for k in ("stage", "variant", "strategy", "checkpoint", "ludii_seconds",
                                              "rules")},
                     "games timed": len(mine), "Biased MCTS us an iteration": 1e6 * float(np.mean(biased)),
                     "UCT us an iteration": 1e6 * float(np.mean(uct)),
                     "slowdown in the games": float(np.mean(biased) / np.mean(uct)),
                     "slowdown measured": float(measured["slowdown"].iloc[0]) if len(measured) else np.nan})
    return pd.DataFrame(rows, columns=columns)


def _stored_work(experiment: FeatureBiasing) -> tuple:
    """What the stages have stored (file names and sizes): unchanged by a run that played nothing."""
    folder = experiment.results_dir
    files = [*folder.glob("*.parquet"), *experiment.selfplay_dir.glob("*.json"), folder / "slowdowns.csv",
             folder / "final_slowdowns.csv", folder / "until_decided.csv"]
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
    for labels, condition in tqdm(todo, desc="slowdowns", unit="policy", disable=not progress or not todo):
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


GROWN_SET_EXTRA = 200  # the combined features added to the atomic set, as in Ludii's measure (data/paper/README.md)
WEIGHT_SCALE = 0.2  # the standard deviation of a grown set's random weights (about our trained sets')


def random_positions(game, count: int, seed: int = 0, max_plies: int = 60):
    """``count`` positions of random play of ``game`` (a uniform ply in 0..max_plies of a uniform game) with the
    mover's moves, in the matcher's form (owner-relative boards, from/to cells, move counts)."""
    from ..features import state_move_cells, state_owner_relative
    from ..games._common import H_TO_MOVE  # noqa: F401 (state_owner_relative reads it)
    rng = np.random.default_rng(seed)
    graph = game.module.board_graph(game.spec)
    boards, froms, tos = [], [], []
    while len(boards) < count:
        state = game.initial_state()
        stop = int(rng.integers(0, max_plies + 1))
        for _ in range(stop):
            if game.is_over(state):
                break
            legal = game.legal_moves(state)
            state = game.play(state, int(legal[rng.integers(legal.size)]))
        if game.is_over(state):
            continue
        legal = game.legal_moves(state)
        f, t = state_move_cells(game.module, game.spec, state, legal)
        boards.append(state_owner_relative(game.module, game.spec, state, graph))
        froms.append(f)
        tos.append(t)
    width = max(len(t) for t in tos)
    mf = np.full((count, width), -1, dtype=np.int64)
    mt = np.full((count, width), -1, dtype=np.int64)
    for i, (f, t) in enumerate(zip(froms, tos)):
        mf[i, :f.size], mt[i, :t.size] = f, t
    return np.array(boards, dtype=np.int8), mf, mt, np.array([t.size for t in tos], dtype=np.int64)


def grown_set_policy(variant: str, extra: int = GROWN_SET_EXTRA, seed: int = 0):
    """A policy of paper size for ``variant``, built as Ludii's slowdown measure builds one: the atomic features
    plus ``extra`` features each combined from a pair of atomic instances active together for a move in a position
    of random play (what a first round of discovery adds), weights drawn N(0, ``WEIGHT_SCALE``): the spread of our
    trained weights (the committed (quick) run's final sets: standard deviation 0.15-0.44).  The weights do not
    change the cost of computing the priors but do change the tree (peaked priors make deeper descents, and more
    entries' priors computed): N(0, 1) over 250 features made Knightthrough's slowdown 12.6x.  The atomic set is
    compiled once (adding features one by one recompiles the set each time).  Returns a ``LinearPolicy`` (not
    saved)."""
    from ..features import FeatureSet, combine_instances
    from ..features.artefact import LinearPolicy
    from ..games import make_game
    from ..training.selfplay import initial_feature_set
    game = make_game(*VARIANTS[variant], ply_cap=MOVE_CAP)
    atomic = initial_feature_set(game)
    owner, mf, mt, counts = random_positions(game, 200, seed)
    rng = np.random.default_rng(seed)
    added, seen = [], set()
    for _ in range(100 * extra):
        if len(added) >= extra:
            break
        s = int(rng.integers(owner.shape[0]))
        m = int(rng.integers(counts[s]))
        active = atomic.active_instances_compiled(owner[s], mf[s, m], mt[s, m])
        if active.size < 2:
            continue
        i, j = rng.choice(active, 2, replace=False)
        new = combine_instances(atomic.instances[i], atomic.instances[j], atomic, atomic.graph)
        if new is None or atomic.contains_equivalent(new) or new in seen:
            continue
        seen.add(new)
        added.append(new)
    feature_set = FeatureSet((*atomic.features, *added), atomic.graph)
    theta = rng.normal(scale=WEIGHT_SCALE, size=len(feature_set))
    return LinearPolicy.from_set(game, feature_set, theta,
                                 f"atomic + {len(added)} features combined from pairs of atomic instances, weights "
                                 f"N(0, {WEIGHT_SCALE:g}) (seed {seed}): the size of Ludii's slowdown measure")


def measure_grown_set_slowdowns(results_dir, variants=None, ludii_seconds: float = 0.5, repeats: int = 3,
                                extra: int = GROWN_SET_EXTRA, label: str = "", progress: bool = True) -> pd.DataFrame:
    """Biased MCTS's slowdown with sets of the paper's size (``grown_set_policy``) per variant, per CPU second as
    Ludii's figures are: ``ppalib.training.slowdown.slowdown_at_budget`` (CPU time of UCT and of Biased MCTS for
    the first two moves at the iterations of ``ludii_seconds`` of Ludii thinking, ``repeats`` interleaved pairs;
    the ratio of CPU seconds per iteration, robust to other processes on a shared machine, unlike a wall-clock
    deadline).  Appended to ``results_dir/grown_set_slowdowns.csv`` with ``label`` (e.g. the code version
    measured) so that before/after measures sit side by side; Ludii's figures are in
    ``data/paper/soemers2019_ludii_slowdowns.csv`` (``grown_set_comparison``).  A timing on this machine."""
    import os
    from tqdm.auto import tqdm
    from ..features.artefact import POLICY_PATH_VARIABLE
    from ..games import make_game
    from ..training.slowdown import slowdown_at_budget
    from .. import CODE_VERSION
    import tempfile
    results_dir = Path(results_dir)
    folder = Path(tempfile.mkdtemp(prefix="grown-set-policies-"))  # deterministic (seeded): rebuilt, not stored
    os.environ[POLICY_PATH_VARIABLE] = os.pathsep.join(
        dict.fromkeys([str(folder), *filter(None, os.environ.get(POLICY_PATH_VARIABLE, "").split(os.pathsep))]))
    rows = []
    for variant in tqdm(list(variants or VARIANTS), desc="grown-set slowdowns", disable=not progress):
        policy = grown_set_policy(variant, extra)
        policy.save(folder)
        game = make_game(*VARIANTS[variant], ply_cap=MOVE_CAP)
        iterations = budget_of(variant, ludii_seconds)
        m = slowdown_at_budget(game, policy.content_hash, iterations, repeats=repeats)
        rows.append({"variant": variant, "features": len(policy.features), "policy": policy.content_hash,
                     "iterations": iterations, "uct_cpu_seconds": m["uct_seconds_mean"],
                     "biased_cpu_seconds": m["biased_seconds_mean"], "slowdown": m["ratio"],
                     "slowdown_min": m["ratio_min"], "slowdown_max": m["ratio_max"], "repeats": repeats,
                     "label": label or CODE_VERSION, "machine": platform.node() or "unknown"})
    path = results_dir / "grown_set_slowdowns.csv"
    frame = pd.DataFrame(rows)
    if path.exists():
        frame = pd.concat([pd.read_csv(path), frame], ignore_index=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False)
    return frame


def grown_set_comparison(results_dir) -> pd.DataFrame:
    """Our slowdowns with paper-size sets (``grown_set_slowdowns.csv``, one column per measurement label) beside
    Ludii's with its older and newer matcher (``data/paper/soemers2019_ludii_slowdowns.csv``), and the absolute
    speeds behind them: Biased MCTS iterations per CPU second, ours (latest label) and Ludii's (its UCT rate in a
    1 s search, geometric mean of the collector range, over its newer-matcher slowdown, mid-range)."""
    from .soemers2019_report import _bounds_text
    ludii = pd.read_csv(paths.PAPER_DATA / "soemers2019_ludii_slowdowns.csv")
    for matcher in ("older", "newer"):  # a range, or one value where both ends agree
        ludii[f"Ludii, {matcher} matcher"] = [_bounds_text(bounds) for bounds in
                                             zip(ludii[f"{matcher}_low"], ludii[f"{matcher}_high"])]
    rates = pd.read_csv(paths.PAPER_DATA / LUDII_BUDGET_FILE, keep_default_na=False).set_index("variant")
    uct_rate = (rates["ludii_uct_rate_1s_low"] * rates["ludii_uct_rate_1s_high"]) ** 0.5
    ludii["Ludii Biased MCTS it/s (newer)"] = [round(uct_rate[v] / ((lo * hi) ** 0.5), -2) for v, lo, hi in
                                              zip(ludii.variant, ludii.newer_low, ludii.newer_high)]
    table = ludii[["variant", "Ludii, older matcher", "Ludii, newer matcher", "Ludii Biased MCTS it/s (newer)"]]
    path = Path(results_dir) / "grown_set_slowdowns.csv"
    if not path.exists():
        return table
    ours = pd.read_csv(path)
    sizes = ours.groupby("variant")["features"].max().rename("features (ours)")
    wide = ours.pivot_table(index="variant", columns="label", values="slowdown", aggfunc="median", sort=False)
    wide.columns = [f"ours ({c})" for c in wide.columns]
    latest = ours[ours["label"] == ours["label"].iloc[-1]].groupby("variant").apply(
        lambda g: round(float((g["iterations"] / g["biased_cpu_seconds"]).median()), -2), include_groups=False)
    latest = latest.rename("our Biased MCTS it/s")
    return (table.merge(sizes, on="variant", how="left").merge(wide.round(2), on="variant", how="left")
            .merge(latest, on="variant", how="left"))


def frames(experiment: FeatureBiasing) -> dict:
    """``evaluations`` (one row per evaluation condition: labels, games, wins) and ``slowdowns`` (tidy frames of
    ``soemers2019_report``), plus ``games`` (every stored evaluation game) and ``selfplay`` (one row per self-play
    game)."""
    labelled = experiment.labelled_conditions()
    stored = experiment.store.load()
    rows = []
    from ..until_decided import grown_ids, read_ledger
    final = final_experiment(experiment)
    grown = grown_ids(final) if final is not None else set()
    ledger = read_ledger(experiment.results_dir)["games"]
    for labels, condition in labelled:
        limit = experiment.games_limit(labels["stage"])
        if labels["stage"] in FINAL:
            limit = int(ledger.get(condition.id, min(FINAL_FIRST, limit)))
        mine = stored[(stored["condition_id"] == condition.id) & (stored["game_index"] < limit)]
        rows.append({**labels, "condition_id": condition.id, "games": len(mine), "grown": condition.id in grown,
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


def budget_final_policy(variant: str, strategy: str = "correlation_based", results_dir=None):
    """The final policy (a ``LinearPolicy``) of the budget run's growing-set run of (variant, strategy), read from
    its committed folder (``budget_folder``) without writing into it; None until that run is finished."""
    from ..features.artefact import load_policy
    experiment = FeatureBiasing(Path(results_dir) if results_dir is not None else budget_folder(),
                                settings(BUDGET_PRESET), read_only=True)
    content_hash = final_policy(experiment, variant, strategy) if experiment.results_dir.is_dir() else None
    return load_policy(content_hash, [experiment.policies_dir]) if content_hash else None


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


# ---- findings: the numbers the notebook's discussion quotes, from the store --------------------------------------
def _pct(wins, games) -> str:
    return f"{100 * wins / games:.1f}%" if games else "n/a"


def legal_moves_at_start(variant: str) -> int:
    """The number of legal moves in ``variant``'s start position (what a prior computation per entry scales with)."""
    from ..games import make_game
    game = make_game(*VARIANTS[variant])
    return int(game.legal_moves(game.initial_state()).size)


def slowdown_correlations(slowdowns: pd.DataFrame) -> dict:
    """Spearman correlations, over the variants' final Correlation-based sets, of the slowdown with the legal moves
    at the start and with UCT's iterations (its speed): which one the slowdown follows."""
    from scipy.stats import spearmanr
    s = slowdowns[(slowdowns["stage"] == "grown") & (slowdowns["strategy"] == "correlation_based")]
    s = s.groupby("variant")[["slowdown", "uct_iterations"]].mean()
    if len(s) < 3:
        return {}
    moves = [legal_moves_at_start(v) for v in s.index]
    return {"variants": len(s), "legal_moves": float(spearmanr(s["slowdown"], moves)[0]),
            "uct_speed": float(spearmanr(s["slowdown"], s["uct_iterations"])[0])}


def findings(experiment: FeatureBiasing, frames_: dict) -> str:
    """The discussion's numbers as Markdown bullets, computed from the stored games (nothing typed in)."""
    from . import soemers2019_report as report
    evaluations, slowdowns, selfplay = frames_["evaluations"], frames_["slowdowns"], frames_["selfplay"]
    rates = report.evaluation_rates(evaluations)
    out = []
    if len(selfplay):
        sizes = selfplay.groupby("variant")["features"].max()
        out.append(f"*Self-play stored:* {len(selfplay)} games; final feature sets of {int(sizes.min())}-"
                   f"{int(sizes.max())} features; {int(evaluations['games'].sum())} evaluation games.")
    grown = report.final_rates(rates, "grown")
    if len(grown):
        best = grown.loc[grown.groupby("variant")["win_rate"].idxmax()]
        text = ", ".join(f"{r.variant} {r.win_rate:.0f}%" for r in best.itertuples())
        checkpoint = int(grown["checkpoint"].max())
        out.append(f"*Fig. 4 at the last checkpoint ({checkpoint} games), best strategy, {experiment.playouts_of(best.variant.iloc[0])} "
                   f"iterations a move:* {text}.")
        for variant in ("Gomoku", "Yavalath"):
            cells = grown[grown["variant"] == variant]
            if len(cells):
                out.append(f"*{variant}* at the last checkpoint: {cells['win_rate'].min():.0f}-"
                           f"{cells['win_rate'].max():.0f}% over the strategies (the paper: "
                           f"{'no apparent change' if variant == 'Gomoku' else 'significantly worse than UCT'}).")
    greedy = rates[rates["stage"] == "greedy"]
    if len(greedy):
        final = report.final_rates(rates, "greedy")
        parts = []
        for variant, cells in final.groupby("variant", sort=False):
            parts.append(f"{variant} {cells['win_rate'].min():.0f}-{cells['win_rate'].max():.0f}%")
        out.append(f"*Fig. 6, the greedy agent at the last checkpoint (range over strategies):* {', '.join(parts)}. "
                   f"Over every checkpoint and strategy, Teeko's greedy agent ranges "
                   + (lambda t: f"{t['win_rate'].min():.1f}-{t['win_rate'].max():.1f}%" if len(t) else "n/a")(
                       greedy[greedy["variant"] == "Teeko"]) + ".")
    pruned = rates[rates["stage"] == "pruned"]
    if len(pruned) and len(grown):
        gaps = []
        for r in pruned.itertuples():
            g = grown[(grown["variant"] == r.variant) & (grown["strategy"] == r.strategy)]
            if len(g):
                gaps.append((abs(r.win_rate - g["win_rate"].iloc[0]), r.variant, int(r.checkpoint)))
        gaps.sort(reverse=True)
        big = [g for g in gaps if g[0] > 10]
        out.append(f"*Figs. 7-8:* the pruned sets' win rates differ from their grown set's final one by up to "
                   f"{gaps[0][0]:.1f} points ({gaps[0][1]}, pruned checkpoint {gaps[0][2]}); {len(big)} of {len(gaps)} "
                   f"pruned cells differ by more than 10 points.")
    corr = slowdown_correlations(slowdowns)
    if corr:
        out.append(f"*What the slowdown follows* ({corr['variants']} variants, Spearman): the legal moves at the "
                   f"start {corr['legal_moves']:.2f}, UCT's speed {corr['uct_speed']:.2f}: the cost of the priors "
                   f"grows with the moves an entry lists, not with how cheap the game's rules are.")
    hand = evaluations[evaluations["stage"] == "handmade"]
    if len(hand) and hand["games"].sum():
        s = slowdowns[slowdowns["stage"] == "handmade"]
        out.append(f"*Hand-made Yavalath features:* {_pct(hand['wins'].sum(), hand['games'].sum())} of "
                   f"{int(hand['games'].sum())} games at equal iterations"
                   + (f"; slowdown {float(s['slowdown'].mean()):.1f}x (the paper: 30x)" if len(s) else "") + ".")
    for stage, name in report.FINAL_STAGES.items():
        table = report.final_table(evaluations, stage)
        if table.empty:
            continue
        for (seconds, rules), cells in table.groupby(["Ludii seconds", "rules"], sort=False):
            counts = cells["verdict"].value_counts()
            named = "; ".join(f"{r.variant} {r['win %']:.1f}% of {r.games} ({r.ours})" for _, r in cells.iterrows()
                              if r.variant in ("Gomoku", "Yavalath") and r.agent != "hand-made features")
            out.append(f"*Final comparison, {name}, Ludii {seconds:g} s, {rules} rules:* "
                       + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("as the paper", "not as the paper",
                                                                          "undecided"))
                       + (f"; {named}" if named else "") + ".")
    if not out:
        return "*Nothing stored yet for this preset: run the stages first.*"
    return "\n".join(f"- {line}" for line in out)


# ---- the budget run so far: what the notebook's section on it reads ----------------------------------------------
BUDGET_PRESET = "budget"
#: The paper preset's cost is extrapolated (``paper_cost_extrapolation``) on these numbers of cores.
COST_CORES = (2, 16)


def budget_folder() -> Path:
    """The committed home of the ``budget`` run (``COMMITTED_FOLDERS``): ``data/results/soemers2019_budget``."""
    return paths.RESULTS / COMMITTED_FOLDERS[BUDGET_PRESET]


def _policy_size(policies_dir: Path, content_hash: str) -> int | None:
    """The number of features of a stored policy (read from its JSON: nothing compiled), None if absent."""
    path = Path(policies_dir) / f"{content_hash}.json"
    return len(json.loads(path.read_text())["features"]) if path.exists() else None


def budget_run(results_dir=None) -> dict:
    """Everything stored so far of the ``budget`` preset's run (default: its committed folder, ``budget_folder``),
    read without writing anything (``FeatureBiasing(read_only=True)``), as tidy frames for
    ``soemers2019_report.budget_run_status`` and ``budget_findings``:

    ``runs``: one row per self-play run the preset plans (growing sets per variant and strategy, then the pruned
    set of each): games planned and stored (a record written at each checkpoint counts, so an unfinished run shows
    its progress), checkpoints reached, mean seconds and plies a stored game (the games' own wall timings in their
    worker);
    ``sizes``: features of each growing-set policy at each checkpoint reached (its stored policy);
    ``evaluations``: ``frames``' evaluation rows (every condition known now: checkpoints reached, final cells whose
    agent exists; a final cell's games as its ledger counts them);  ``slowdowns``: ``frames``' (``slowdowns.csv``);
    ``final_plan``: every final-comparison cell the preset plans, played or not (stage, variant, strategy,
    checkpoint, Ludii seconds, rules, UCT's budget), for the three tables (equal time, equal iterations, greedy);
    ``final_slowdowns``: the slowdowns that set the equal-time budgets (``final_slowdowns.csv``);
    ``in_game_slowdowns``: the slowdown inside the final comparison's games (``in_game_slowdowns``);
    ``slowdown_parts``: ``slowdown_parts.csv`` (``measure_slowdown_parts``), empty until measured;
    ``evaluation_plan``: planned games per evaluation stage (Fig. 4, the greedy agent, Figs. 7-8, the hand-made
    agent); ``stage_times``: ``stage_times.csv``; ``games``: the stored games (condition, seconds, plies);
    ``paper_cost``: ``paper_cost_extrapolation`` of it, ``cost_method``: how; ``settings``, ``results_dir``,
    ``exists``."""
    folder = Path(results_dir) if results_dir is not None else budget_folder()
    experiment = FeatureBiasing(folder, settings(BUDGET_PRESET), read_only=True)
    s = experiment.settings
    runs, sizes = [], []
    for grown in experiment.grown_configs():
        variant = VARIANT_OF[grown.game, grown.size]
        record = experiment.record_of(grown, partial=True) if folder.is_dir() else None
        pruned = experiment.pruned_config(grown) if record is not None else None
        pruned_record = experiment.record_of(pruned, partial=True) if pruned is not None else None
        for stage, config, rec, planned, checkpoints in (
                ("growing", grown, record, grown.games, grown.checkpoints),
                ("pruned", pruned, pruned_record, s["pruned_games"], tuple(s["pruned_checkpoints"]))):
            if not planned:
                continue
            games = rec["games"] if rec is not None else []
            runs.append({"variant": variant, "strategy": grown.strategy, "stage": stage,
                         "playouts": grown.playouts, "games planned": int(planned),
                         "games stored": int(rec["games_done"]) if rec is not None else 0,
                         "checkpoints planned": len(checkpoints),
                         "checkpoints reached": len(rec["checkpoints"]) if rec is not None else 0,
                         "seconds a game": float(np.mean([g["seconds"] for g in games])) if games else np.nan,
                         "plies a game": float(np.mean([g["plies"] for g in games])) if games else np.nan,
                         "run_id": config.run_id if config is not None else ""})
        if record is not None:
            for checkpoint, policy in record["checkpoints"].items():
                sizes.append({"variant": variant, "strategy": grown.strategy, "checkpoint": int(checkpoint),
                              "features": _policy_size(experiment.policies_dir, policy)})
    stored = frames(experiment) if folder.is_dir() else {}
    evaluations = stored.get("evaluations", pd.DataFrame(
        columns=["variant", "strategy", "stage", "checkpoint", "games", "wins", "condition_id", "grown"]))
    slowdowns = stored.get("slowdowns", pd.DataFrame(
        columns=["variant", "strategy", "stage", "uct_iterations", "biased_iterations", "slowdown"]))
    final_plan = [{k: cell[k] for k in ("stage", "variant", "strategy", "checkpoint", "ludii_seconds", "rules",
                                        "budget")} for cell in experiment.final_cells()]
    configs = {(VARIANT_OF[c.game, c.size], c.strategy): c for c in experiment.grown_configs()}
    evaluation_plan = []
    for (variant, strategy), config in configs.items():
        reached = len(config.checkpoints)
        evaluation_plan.append({"stage": "grown", "variant": variant, "strategy": strategy,
                                "cells": reached, "games": reached * s["games_per_cell"]})
        if variant in s["greedy_variants"]:
            evaluation_plan.append({"stage": "greedy", "variant": variant, "strategy": strategy,
                                    "cells": reached, "games": reached * s["games_per_cell"]})
        if s["pruned_games"] or s["pruned_checkpoints"]:
            n = len(s["pruned_checkpoints"])
            evaluation_plan.append({"stage": "pruned", "variant": variant, "strategy": strategy,
                                    "cells": n, "games": n * s["games_per_cell"]})
    if "Yavalath" in s["variants"] and s["handmade_games"]:
        evaluation_plan.append({"stage": "handmade", "variant": "Yavalath", "strategy": "handmade", "cells": 1,
                                "games": s["handmade_games"]})
    times_path = folder / "stage_times.csv"
    stage_times = pd.read_csv(times_path) if times_path.exists() else pd.DataFrame(
        columns=["stage", "wall_seconds", "finished_at", "machine"])
    games = experiment.store.load() if folder.is_dir() else pd.DataFrame(
        columns=["condition_id", "seconds", "plies", "game", "size", "agent_playouts", "opponent_playouts"])
    in_game = in_game_slowdowns(experiment, games=games)
    out = {"settings": s, "results_dir": folder, "exists": folder.is_dir(), "runs": pd.DataFrame(runs),
           "sizes": pd.DataFrame(sizes, columns=["variant", "strategy", "checkpoint", "features"]).sort_values(
               ["variant", "strategy", "checkpoint"], ignore_index=True),
           "evaluations": evaluations, "slowdowns": slowdowns, "final_plan": pd.DataFrame(final_plan),
           "evaluation_plan": pd.DataFrame(evaluation_plan), "stage_times": stage_times,
           "games": games[["condition_id", "game", "size", "seconds", "plies", "agent_playouts",
                           "opponent_playouts"]], "cost_method": COST_METHOD, "game_stages": GAME_STAGES,
           "final_first": min(FINAL_FIRST, int(s["final_games"])),
           "final_slowdowns": experiment.final_slowdowns(), "in_game_slowdowns": in_game,
           "slowdown_parts": pd.read_csv(folder / "slowdown_parts.csv") if (folder / "slowdown_parts.csv").exists()
           else pd.DataFrame()}
    out["paper_cost"] = paper_cost_extrapolation(out)
    return out


#: How ``paper_cost_extrapolation`` extrapolates (shown under its table).
COST_METHOD = (
    "Extrapolated, not measured. Per variant, a search's cost an iteration is the median over stored games of their "
    "seconds over plies x the mean of the two agents' iterations a move: the budget run's final-comparison games "
    "where it has any (at the budgets the paper preset plays), else its other searching games, else the committed "
    "quick run's evaluation games (at their budget; the games behind each figure are named under the table). A "
    "self-play game at the paper preset's iterations (Ludii's 5 s for that variant) costs the budget run's mean "
    "self-play game of that variant (every strategy; the quick run's where the budget run has none yet) plus its "
    "mean plies x the extra iterations a move x that cost an iteration: the training, discovery and feature "
    "updates of a game are kept as measured, only the search grows. An evaluation game costs the plies of the games "
    "behind the cost an iteration x the budget x that cost (games at a small budget are shorter: an underestimate "
    "there); a greedy agent's game half of it (one player searches); a pruned-set game a growing-set one (an "
    "overestimate: 15 features). The final comparison (both tables, Gomoku's first checkpoint too, Yavalath's "
    "agents at the paper's slowdowns, and the greedy agent's cells at half a game) is counted at its cap (every "
    "cell to ``final_games``: an upper bound), the slowdown measures at their nominal thinking time. Timings are "
    "the games' own wall times in their worker on a shared machine. Wall time on n cores: per stage, the larger of "
    "CPU time / n and its longest indivisible job (a self-play run's games are sequential; one game), summed over "
    "the stages.")


def _quick_selfplay_seconds() -> dict:
    """Per variant: (mean seconds a growing-set self-play game, mean plies, its iterations a move, games) in the
    committed quick run, the fallback of ``paper_cost_extrapolation``."""
    out = {}
    quick = FeatureBiasing(paths.RESULTS / NAME, settings("quick"), read_only=True)
    for config in quick.grown_configs():
        record = quick.record_of(config, partial=True)
        if record is None:
            continue
        variant = VARIANT_OF[config.game, config.size]
        seconds, plies, _ = out.get(variant, ([], [], config.playouts))
        out[variant] = (seconds + [g["seconds"] for g in record["games"]],
                        plies + [g["plies"] for g in record["games"]], config.playouts)
    return {v: (float(np.mean(s)), float(np.mean(p)), n, len(s)) for v, (s, p, n) in out.items() if s}


def _cost_per_iteration(games: pd.DataFrame, final_budgets: dict) -> dict:
    """Per variant: (seconds an iteration, median plies, games, which games) from stored searching games (both agents
    search: ``agent_playouts`` > 1), preferring those at a final budget (``final_budgets``: variant -> UCT budgets)."""
    if not len(games) or "agent_playouts" not in games:
        return {}
    games = games[(games["agent_playouts"] > 1) & (games["plies"] > 0)]
    out = {}
    for (game, size), mine in games.groupby(["game", "size"]):
        variant = VARIANT_OF.get((game, int(size)))
        if variant is None:
            continue
        final = mine[mine["opponent_playouts"].isin(final_budgets.get(variant, ()))]
        mine, which = (final, "final-comparison games") if len(final) else (mine, "evaluation games")
        per = mine["seconds"] / (mine["plies"] * (mine["agent_playouts"] + mine["opponent_playouts"]) / 2)
        out[variant] = (float(per.median()), float(mine["plies"].median()), len(mine), which)
    return out


def paper_cost_extrapolation(run: dict, cores=COST_CORES) -> pd.DataFrame:
    """The ``paper`` preset's cost (CPU hours, wall hours on each of ``cores``) per stage, extrapolated from the
    per-game seconds stored by the budget run (``budget_run``) and, where it has none yet, by the committed quick
    run: ``COST_METHOD`` says how.  Rows: one per stage, then the total; ``attrs["basis"]`` names the games behind
    each variant, ``attrs["sources"]`` counts the variants by source, ``attrs["stage_seconds"]`` holds each
    stage's games, CPU seconds and longest indivisible job unrounded (``ppalib.preset_costs`` reads them)."""
    paper = settings("paper")
    runs = run["runs"]
    selfplay = {}
    if len(runs):
        grown = runs[(runs["stage"] == "growing") & (runs["games stored"] > 0)]
        for variant, rows in grown.groupby("variant"):
            weights = rows["games stored"]
            selfplay[variant] = (float((rows["seconds a game"] * weights).sum() / weights.sum()),
                                 float((rows["plies a game"] * weights).sum() / weights.sum()),
                                 int(rows["playouts"].iloc[0]), int(weights.sum()), "budget run")
    quick_selfplay = _quick_selfplay_seconds()
    finals = {v: {budget_of(v, x) for x in run["settings"]["ludii_seconds"] if x > 0} for v in VARIANTS}
    searched = _cost_per_iteration(run["games"], finals)
    quick_games = ResultsStore(paths.RESULTS / NAME).load() if (paths.RESULTS / NAME).is_dir() else pd.DataFrame()
    quick_searched = _cost_per_iteration(quick_games, {})
    per_variant, basis, sources = {}, [], {"final games": 0}
    for variant in paper["variants"]:
        budget = budget_of(variant, paper["ludii_seconds"][0])
        if variant in selfplay:
            seconds, plies, playouts, count, source = selfplay[variant]
        elif variant in quick_selfplay:
            seconds, plies, playouts, count = quick_selfplay[variant]
            source = "quick run"
        else:
            continue
        if variant in searched:
            per_iteration, eval_plies, games, which = searched[variant]
            where = f"{games} budget-run {which}"
        elif variant in quick_searched:
            per_iteration, eval_plies, games, which = quick_searched[variant]
            where = f"{games} quick-run {which}"
        else:
            continue
        sources[source] = sources.get(source, 0) + 1
        sources["final games"] += where.endswith("final-comparison games")
        per_variant[variant] = (seconds + plies * max(0, budget - playouts) * per_iteration,
                                eval_plies * budget * per_iteration)
        basis.append(f"{variant}: {count} self-play games at {playouts} ({source}), cost an iteration "
                     f"{1e6 * per_iteration:.1f} us from {where}")
    if not per_variant:
        return pd.DataFrame()
    strategies = len(paper["strategies"])
    stages = []  # (stage, games, CPU seconds, longest job seconds)
    grown = [(paper["self_play_games"] * strategies, per_variant[v][0]) for v in per_variant]
    stages.append(("self-play, growing sets", sum(g for g, _ in grown), sum(g * c for g, c in grown),
                   max(paper["self_play_games"] * c for _, c in grown)))
    pruned = [(paper["pruned_games"] * strategies, per_variant[v][0]) for v in per_variant]
    stages.append(("self-play, pruned sets", sum(g for g, _ in pruned), sum(g * c for g, c in pruned),
                   max(paper["pruned_games"] * c for _, c in pruned)))
    evaluation_games = evaluation_seconds = 0.0
    for variant, (_, game) in per_variant.items():
        cells = (len(paper["checkpoints"]) + len(paper["pruned_checkpoints"])) * strategies
        searching = cells * paper["games_per_cell"]
        greedy = (len(paper["checkpoints"]) * strategies * paper["games_per_cell"]
                  if variant in paper["greedy_variants"] else 0)
        evaluation_games += searching + greedy
        evaluation_seconds += searching * game + greedy * game / 2  # a greedy agent's game: one player searches
    if "Yavalath" in per_variant:
        evaluation_games += paper["handmade_games"]
        evaluation_seconds += paper["handmade_games"] * per_variant["Yavalath"][1]
    stages.append(("evaluation", evaluation_games, evaluation_seconds,
                   max(game for _, game in per_variant.values())))
    nominal = 2 * 2 * paper["slowdown_repeats"] * paper["slowdown_seconds"]
    experiment = FeatureBiasing(Path("/nonexistent"), paper, read_only=True)
    cells = [c for c in experiment.final_cells() if c["variant"] in per_variant]
    # one slowdown measure per learned set (grown, pruned; the hand-made one) and per final agent, budget and rules
    policies = 2 * len(per_variant) + ("Yavalath" in per_variant)
    slowdown_jobs = policies + sum(c["stage"] == "final_equal_iterations" for c in cells)
    stages.append(("slowdowns (nominal)", 0, slowdown_jobs * nominal, slowdown_jobs * nominal))
    # every planned final cell at its cap; a greedy agent's game: one of the two players searches
    final = [(paper["final_games"], per_variant[c["variant"]][1] / (2 if c["stage"] == "final_greedy" else 1))
             for c in cells]
    stages.append(("final comparison (at its cap)", sum(g for g, _ in final), sum(g * c for g, c in final),
                   max(c for _, c in final)))
    rows = []
    for stage, games, cpu, longest in stages:
        row = {"stage": stage, "games": int(games), "CPU hours": round(cpu / 3600, 1), "CPU seconds": cpu,
               "longest job seconds": longest}
        for n in cores:
            row[f"wall hours, {n} cores"] = round(max(cpu / n, longest) / 3600, 1)
        rows.append(row)
    total = {"stage": "total", "games": sum(r["games"] for r in rows),
             "CPU hours": round(sum(r["CPU hours"] for r in rows), 1)}
    for n in cores:
        total[f"wall hours, {n} cores"] = round(sum(r[f"wall hours, {n} cores"] for r in rows), 1)
    table = pd.DataFrame([*rows, total])
    # the unrounded stage costs, for ppalib.preset_costs (bench --presets), kept out of the displayed columns
    table.attrs["stage_seconds"] = table[["stage", "games", "CPU seconds", "longest job seconds"]].iloc[:-1].rename(
        columns={"CPU seconds": "cpu_seconds", "longest job seconds": "longest_seconds"})
    table = table.drop(columns=["CPU seconds", "longest job seconds"])
    table.attrs["basis"] = "; ".join(basis)
    table.attrs["variants"] = len(per_variant)
    table.attrs["sources"] = sources
    return table


# ---- command line: one stage at a time, resuming from the store ---------------------------------------------------
def results_folder(preset: str = "quick", **overrides) -> Path:
    """Where the notebook keeps the results of ``preset`` with ``overrides`` (``ppalib.papers.prepare``): the
    committed ``data/results/soemers2019`` for the committed preset (``quick``) at its own parameters, the
    committed ``data/results/soemers2019_budget`` for ``budget`` at its own parameters or a subset of its variants
    and strategies (``COMMITTED_FOLDERS``), else ``output/<preset>/results/soemers2019``, so that no run mixes into
    another preset's results."""
    from importlib import import_module
    from . import prepare
    paper = import_module(f"{__package__}.{NAME}")  # this module by its name, also when run as __main__
    return Path(prepare(paper, preset, **overrides).results_dir)


def main(argv=None) -> None:
    """``python -m ppalib.papers.soemers2019 --preset budget --stage selfplay [--stage evaluation ...] [--workers N]
    [--results DIR] [-p key=value ...]``: run the named stages (default: all) of ``preset`` (default ``quick``, the
    committed run: everything is stored, so nothing is played) into ``--results`` (default: the folder the notebook
    uses at that preset, ``results_folder``: ``data/results/soemers2019`` for ``quick``,
    ``data/results/soemers2019_budget`` for ``budget``, each at its own parameters, ``output/<preset>/results/
    soemers2019`` otherwise); each resumes from what is stored, so an interrupted command is simply run again
    (``-p final_cpu_seconds=N`` bounds a session's growth of the final comparison).
    ``--grown-set-slowdowns LABEL`` measures the paper-size slowdowns instead (``measure_grown_set_slowdowns``),
    ``--slowdown-parts LABEL`` the parts of the slowdown at the paper's budget (``measure_slowdown_parts``)."""
    import argparse
    from . import key_value
    parser = argparse.ArgumentParser(prog="python -m ppalib.papers.soemers2019", description=main.__doc__)
    parser.add_argument("--preset", default="quick", choices=list(PRESETS),
                        help="quick: the committed run (default); budget: the paper's questions at the Ludii-derived "
                             "budget on 2 cores, committed as it grows to data/results/soemers2019_budget; "
                             "smoke: seconds; paper: the paper's protocol")
    parser.add_argument("--stage", action="append", choices=STAGES, help="a stage to run (repeatable; default all)")
    parser.add_argument("--results", default=None,
                        help="results folder (default: the notebook's at this preset: data/results/soemers2019 for "
                             "quick, data/results/soemers2019_budget for budget, output/<preset>/results/soemers2019 "
                             "otherwise)")
    parser.add_argument("--executor", default="process", choices=("process", "serial", "dask"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("-p", dest="parameters", action="append", default=[], type=key_value,
                        help="a preset parameter, key=value (JSON values)")
    parser.add_argument("--grown-set-slowdowns", metavar="LABEL", default=None)
    parser.add_argument("--slowdown-parts", metavar="LABEL", default=None,
                        help="time UCT, PUCT without features and Biased MCTS at Ludii's 5 s per variant "
                             "(measure_slowdown_parts) instead of running stages")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.results is None:
        args.results = str(results_folder(args.preset, **dict(args.parameters)))
    if args.grown_set_slowdowns is not None:
        print(measure_grown_set_slowdowns(args.results, label=args.grown_set_slowdowns,
                                          progress=not args.quiet).to_string())
        return
    experiment = make_experiment(args.results, args.preset, **dict(args.parameters))
    if args.slowdown_parts is not None:
        print(measure_slowdown_parts(experiment, label=args.slowdown_parts, progress=not args.quiet).to_string())
        return
    out = run(experiment, args.executor, workers=args.workers, progress=not args.quiet, stages=args.stage)
    evaluations = out["evaluations"]
    print(f"{len(out['selfplay'])} self-play games, {int(evaluations['games'].sum()) if len(evaluations) else 0} "
          f"evaluation games stored for preset {args.preset!r} in {args.results}")


if __name__ == "__main__":
    main()


def final_cost_estimate(results_dir=None, first_games: int = FINAL_FIRST) -> pd.DataFrame:
    """What a final-comparison game costs (CPU seconds) per variant at the paper's 5 s budget, extrapolated from
    a stored probe: ``budget_probe.csv`` (``measure_final_slowdowns`` at Ludii's 5 s with the committed `quick`
    run's final policies: CPU seconds of UCT and of Biased MCTS for the first two moves at the budget) times the
    median plies of the `quick` run's evaluation games of that variant (at 500 iterations: games at the larger
    budget can be longer, later moves cheaper).  Equal time: both agents spend about UCT's time a move; equal
    iterations: the mean of the two.  Scale linearly for other thinking times.  An estimate for planning runs, not a
    result."""
    folder = Path(results_dir) if results_dir is not None else paths.RESULTS / NAME
    probe = pd.read_csv(folder / "budget_probe.csv")
    games = ResultsStore(folder).load()
    plies = {VARIANT_OF[(g, int(n))]: float(p) for (g, n), p in games.groupby(["game", "size"])["plies"].median()
             .items() if (g, int(n)) in VARIANT_OF}
    rows = []
    for r in probe.itertuples():
        moves = plies.get(r.variant, float("nan"))
        uct, biased = r.uct_seconds / 2, r.biased_seconds / 2
        rows.append({"variant": r.variant, "agent": r.strategy, "rules": r.rules, "budget (5 s)": int(r.budget),
                     "UCT CPU s a move": round(uct, 3), "Biased MCTS CPU s a move": round(biased, 3),
                     "median plies (quick run)": moves,
                     "equal time, CPU s a game": round(moves * uct, 1),
                     "equal iterations, CPU s a game": round(moves * (uct + biased) / 2, 1),
                     f"first {first_games} games of both tables, CPU s": round(first_games * moves * (1.5 * uct
                                                                                                 + biased / 2), 0)})
    return pd.DataFrame(rows)
