"""Committed results keep their condition ids: every condition stored under data/results is rebuilt from its
stored parameters and must hash to the stored id (pinned before the search was reshaped into ppalib.kernels)."""
import json

import pandas as pd
import pytest

from ppalib import paths
from ppalib.agents import agent_from_params
from ppalib.experiments import Condition

#: Every committed store with games.  A store of a run committed as it grows (notebook 04's budget run,
#: data/results/soemers2019_budget) may hold only self-play records and policies at first: no games, no ids.
STORES = sorted(p for p in (paths.ROOT / "data" / "results").iterdir() if p.is_dir() and any(p.glob("*.parquet")))
# A few ids written out, so that a change of the id function itself (not only of the configs) fails too.
PINNED = {
    "09921cfe0d94fd70": ("knightthrough", 5, {"alpha": 1.0, "c": 0.4, "k": 1.0, "kind": "ppa", "playouts": 1000},
                         {"alpha": 1.0, "c": 0.4, "k": 1.0, "kind": "uct", "playouts": 1000}, {}),
    "0102da7277459128": ("atarigo", 8, {"alpha": 1.0, "c": 0.4, "k": 16.0, "kind": "mast", "playouts": 1000},
                         {"alpha": 1.0, "c": 0.4, "k": 1.0, "kind": "uct", "playouts": 1000}, {}),
    "024a6b67a0bace22": ("blind_cashing_checks", 20,
                         {"adaptive": False, "alpha": 1.0, "c": 0.4, "k": 1.0, "k_rave": 700.0, "kind": "rave",
                          "margin": 0.0, "playouts": 200, "rave_rate": 1.0},
                         {"adaptive": False, "alpha": 1.0, "c": 0.4, "k": 1.0, "k_rave": 700.0, "kind": "rave",
                          "margin": 0.0, "playouts": 200, "rave_rate": 1.0}, {"komi": 5, "turns": 10}),
}


def _condition(game, size, agent, opponent, options):
    return Condition(game, int(size), agent_from_params(agent), agent_from_params(opponent), tuple(options.items()))


@pytest.mark.parametrize("condition_id", sorted(PINNED))
def test_pinned_condition_ids(condition_id):
    assert _condition(*PINNED[condition_id]).id == condition_id


@pytest.mark.parametrize("store", STORES, ids=[p.name for p in STORES])
def test_every_committed_condition_rebuilds_to_its_stored_id(store):
    columns = ["condition_id", "game", "size", "game_options", "agent_params", "opponent_params"]
    frame = pd.concat([pd.read_parquet(p, columns=columns) for p in store.glob("*.parquet")])
    stored = frame.drop_duplicates("condition_id")
    assert len(stored) > 0
    for row in stored.itertuples():
        condition = _condition(row.game, row.size, json.loads(row.agent_params), json.loads(row.opponent_params),
                               json.loads(row.game_options))
        assert condition.id == row.condition_id, row
        assert json.loads(row.agent_params) == condition.agent.as_dict()
