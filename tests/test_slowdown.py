"""The slowdown measure of Soemers, Piette & Browne 2019 (Fig. 5; ppalib/training/slowdown.py): its shape on tiny
thinking times.  No timing assertions: the ratios depend on the machine and its load."""
import math

import numpy as np
import pytest

from ppalib.agents import make_agent
from ppalib.features.artefact import LinearPolicy
from ppalib.features.handmade import yavalath_handmade_policy
from ppalib.games import make_game
from ppalib.training.selfplay import initial_feature_set
from ppalib.training.slowdown import biased_agent, slowdown

GAME = make_game("yavalath", 5)


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("policies")
    handmade = yavalath_handmade_policy(GAME)
    handmade.save(folder)
    fs = initial_feature_set(GAME)
    theta = np.random.default_rng(3).normal(0.0, 1.0, len(fs))
    atomic = LinearPolicy.from_set(GAME, fs, theta, "test: atomic features, random weights")
    atomic.save(folder)
    return handmade, atomic


def check(result, repeats):
    assert len(result["uct_iterations"]) == len(result["biased_iterations"]) == len(result["ratios"]) == repeats
    assert all(i > 0 for i in result["uct_iterations"] + result["biased_iterations"])
    assert math.isfinite(result["ratio"]) and result["ratio"] > 0
    assert result["ratio_min"] <= result["ratio_q25"] <= result["ratio_median"] <= result["ratio_q75"] \
        <= result["ratio_max"]
    assert result["ratio"] == pytest.approx(result["uct_iterations_mean"] / result["biased_iterations_mean"])


def test_slowdown_shape(policies):
    handmade, atomic = policies
    full = make_agent("puct", 100, policy=handmade.content_hash, biased_playouts=True, tree_reuse=True)
    r1 = slowdown(GAME, full, seconds_per_move=0.02, repeats=2)
    check(r1, 2)
    assert r1["biased_agent"]["biased_playouts"] and r1["biased_agent"]["seconds_per_move"] == 0.02
    assert r1["uct_agent"]["kind"] == "uct" and r1["uct_agent"]["c"] == pytest.approx(math.sqrt(2))
    r2 = slowdown(GAME, atomic.content_hash, seconds_per_move=0.02, repeats=2)
    check(r2, 2)
    assert r2["biased_agent"]["policy"] == atomic.content_hash and "biased_playouts" not in r2["biased_agent"]


def test_biased_agent_lifts_the_cap_and_sets_the_time(policies):
    handmade, _ = policies
    agent = biased_agent(make_agent("puct", 100, policy=handmade.content_hash), 0.5)
    assert agent.playouts > 100 and agent.seconds_per_move == 0.5
    with pytest.raises(TypeError):
        biased_agent(3, 0.5)
    with pytest.raises(ValueError):
        slowdown(GAME, handmade.content_hash, repeats=0)
