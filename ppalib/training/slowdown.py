"""The slowdown of feature-biased MCTS, as Soemers, Piette & Browne 2019 define it (section V-B, Fig. 5 and 8).

The paper: "The slowdown per game is computed as I_uct / I_biased, where I_uct and I_biased denote the average
number of complete MCTS iterations performed by UCT and Biased MCTS, respectively, in the first two moves per game.
We only take into account the first two moves per game, because later moves can have wildly varying iteration
counts depending on the game state."  Both agents think for a fixed time per move (5 s in the paper).

How it is measured here (``slowdown``):

* one *run* of an agent = a fresh ``Searcher`` (trees reused, as the paper's agents do) searches the start
  position for ``seconds_per_move``, plays the move it chose, and searches the position reached (the second move
  of a game, searched by the same agent: its own choice of first move, no opponent needed); the run's count is the
  iterations of those two searches averaged (iterations per move);
* UCT and the biased agent alternate run by run, the first of each pair alternating too (UCT first, then biased
  first, ...), so that slow drifts of the machine (other processes, thermal state) hit both alike; each pair
  gives a ratio I_uct / I_biased;
* a warm-up search of each agent runs first (numba compiles, the feature matcher's first call), untimed;
* results: the mean iterations per move of each agent over the runs, the ratio of those means (the paper's
  definition), and the median and spread (min, quartiles, max) of the pairs' ratios.

Timing depends on the machine and its load: the numbers are for reading, never for tests to assert on.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._rng import make_rng
from ..agents import MAX_PLAYOUTS, AgentConfig, Searcher, make_agent


def biased_agent(policy_hash_or_agent, seconds_per_move: float) -> AgentConfig:
    """The biased agent a ``slowdown`` measures: a policy's content hash gives the paper's Biased MCTS (PUCT,
    C = sqrt(2), priors from the policy, the first playout move drawn from them, trees reused); an agent config is
    taken as it is.  Either way the thinking time is ``seconds_per_move`` and the iteration cap is lifted."""
    if isinstance(policy_hash_or_agent, str):
        agent = make_agent("puct", MAX_PLAYOUTS, policy=policy_hash_or_agent, tree_reuse=True)
    elif isinstance(policy_hash_or_agent, AgentConfig):
        agent = policy_hash_or_agent
    else:
        raise TypeError(f"expected a policy's content hash or an agent config, got {policy_hash_or_agent!r}")
    return dataclasses.replace(agent, playouts=MAX_PLAYOUTS, seconds_per_move=seconds_per_move)


def uct_agent(seconds_per_move: float) -> AgentConfig:
    """The paper's UCT: C = sqrt(2), uniform playouts, trees reused, selecting as Ludii's UCT (the benchmark of
    notebook 04), ``seconds_per_move`` a move."""
    return make_agent("uct", MAX_PLAYOUTS, c=math.sqrt(2.0), tree_reuse=True, seconds_per_move=seconds_per_move,
                      ludii_selection=True)


def first_two_moves(game, agent: AgentConfig, rng: np.ndarray) -> tuple[int, int]:
    """Iterations of ``agent``'s searches of the start position and of the position after the move it chose."""
    searcher = Searcher(game, agent)
    state = game.initial_state()
    first = searcher.search(state, rng)
    state = game.play(state, first.move)
    if game.is_over(state):
        raise ValueError(f"{game.name}: the game ended at its first move; no second move to search")
    second = searcher.search(state, rng)
    return first.iterations, second.iterations


def slowdown(game, policy_hash_or_agent, seconds_per_move: float = 0.2, repeats: int = 5, seed: int = 0) -> dict:
    """I_uct / I_biased (the paper's slowdown) on ``game`` (a ``ppalib.games.Game``): ``repeats`` interleaved pairs
    of runs of UCT and the biased agent (``biased_agent``), ``seconds_per_move`` each move; see the module
    docstring.  Returns a dict: the agents (``as_dict``), per-run iterations per move of each agent (lists), their
    means, ``ratio`` (mean UCT / mean biased), and the pairs' ratios with their median, quartiles, min and max."""
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats={repeats!r} must be an integer >= 1")
    biased = biased_agent(policy_hash_or_agent, seconds_per_move)
    uct = uct_agent(seconds_per_move)
    rng = make_rng(seed)
    for agent in (uct, biased):  # warm-up: compile, first calls; untimed
        first_two_moves(game, dataclasses.replace(agent, seconds_per_move=None, playouts=8), rng)
    per_move = {"uct": [], "biased": []}
    for r in range(repeats):
        order = (("uct", uct), ("biased", biased)) if r % 2 == 0 else (("biased", biased), ("uct", uct))
        for name, agent in order:
            per_move[name].append(sum(first_two_moves(game, agent, rng)) / 2.0)
    i_uct, i_biased = np.array(per_move["uct"]), np.array(per_move["biased"])
    ratios = i_uct / i_biased
    q25, median, q75 = np.quantile(ratios, [0.25, 0.5, 0.75])
    return {
        "game": game.name, "size": game.size, "game_options": dict(game.options),
        "seconds_per_move": float(seconds_per_move), "repeats": repeats, "seed": seed,
        "uct_agent": uct.as_dict(), "biased_agent": biased.as_dict(),
        "uct_iterations": i_uct.tolist(), "biased_iterations": i_biased.tolist(),
        "uct_iterations_mean": float(i_uct.mean()), "biased_iterations_mean": float(i_biased.mean()),
        "ratio": float(i_uct.mean() / i_biased.mean()),
        "ratios": ratios.tolist(), "ratio_median": float(median), "ratio_q25": float(q25),
        "ratio_q75": float(q75), "ratio_min": float(ratios.min()), "ratio_max": float(ratios.max()),
    }


def interleaved_cpu_seconds(game, agents: dict, repeats: int = 3, seed: int = 0) -> dict:
    """CPU seconds (this process) each of ``agents`` (name -> config) takes to search the first two moves of a game
    (``first_two_moves``), ``repeats`` rounds, the agents' order rotated each round (two agents: alternated), so
    that slow drifts of a shared machine hit them alike; a warm-up search of each first (compiles), untimed.
    Returns name -> list of seconds, one per round."""
    import time
    rng = make_rng(seed)
    for agent in agents.values():  # warm-up: compile, first calls; untimed
        first_two_moves(game, dataclasses.replace(agent, playouts=8), rng)
    names = list(agents)
    seconds = {name: [] for name in names}
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            start = time.process_time()
            first_two_moves(game, agents[name], rng)
            seconds[name].append(time.process_time() - start)
    return seconds


def slowdown_at_budget(game, policy_hash_or_agent, iterations: int, repeats: int = 3, seed: int = 0) -> dict:
    """The slowdown at a given iteration budget, for the equal-time comparison (notebook 04's final stage): UCT and
    the biased agent each search the first two moves of a game with ``iterations`` iterations a move (trees
    reused), timed (CPU time of this process), ``repeats`` interleaved pairs as in ``slowdown``; the slowdown is
    the biased agent's seconds per iteration over UCT's (the ratio of the mean times; for equal iterations, the
    paper's I_uct / I_biased at equal time).  The same positions, the same policy, the budget the games are played
    at: an equal-time budget derived from it is for the same search.  Returns a dict like ``slowdown``'s."""
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats={repeats!r} must be an integer >= 1")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations={iterations!r} must be an integer >= 1")
    biased = dataclasses.replace(biased_agent(policy_hash_or_agent, 1.0), seconds_per_move=None,
                                 playouts=int(iterations))
    uct = dataclasses.replace(uct_agent(1.0), seconds_per_move=None, playouts=int(iterations))
    seconds = interleaved_cpu_seconds(game, {"uct": uct, "biased": biased}, repeats, seed)
    t_uct, t_biased = np.array(seconds["uct"]), np.array(seconds["biased"])
    ratios = t_biased / np.maximum(t_uct, 1e-9)
    return {
        "game": game.name, "size": game.size, "game_options": dict(game.options), "iterations": int(iterations),
        "repeats": repeats, "seed": seed, "uct_agent": uct.as_dict(), "biased_agent": biased.as_dict(),
        "uct_seconds": t_uct.tolist(), "biased_seconds": t_biased.tolist(),
        "uct_seconds_mean": float(t_uct.mean()), "biased_seconds_mean": float(t_biased.mean()),
        "ratio": float(t_biased.mean() / max(t_uct.mean(), 1e-9)), "ratios": ratios.tolist(),
        "ratio_median": float(np.median(ratios)), "ratio_min": float(ratios.min()),
        "ratio_max": float(ratios.max()),
    }


__all__ = ["slowdown", "slowdown_at_budget", "interleaved_cpu_seconds", "biased_agent", "uct_agent", "first_two_moves"]
