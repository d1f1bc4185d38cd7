"""Drop from a committed store the cells whose stored games today's code no longer plays.

    python scripts/drop_stale_cells.py ppa2015 [--skip-game atarigo ...] [--dry-run]

For every condition of ``data/results/<paper>``, the condition's cheapest stored game (least playing time) is
replayed with today's code (``ppalib.experiments.play_game``); a condition whose replay differs move for move had its
games stored by older code with other random draws, and all its games are removed (``ResultsStore.drop_conditions``).
Rerunning the paper's notebook at its committed preset (``python -m ppalib reproduce --only <notebook>``) then plays
them again, so that every committed game is what the committed code produces (``tests/test_replay.py``).
"""
from __future__ import annotations

import argparse
import json

from ppalib import paths
from ppalib.agents import agent_from_params
from ppalib.experiments import Condition, play_game
from ppalib.store import ResultsStore


def stale_conditions(paper: str, skip_games: set[str]) -> dict[str, str]:
    """condition id -> a label, for the conditions whose cheapest stored game does not replay."""
    frame = ResultsStore(paths.RESULTS / paper).load()
    frame = frame.sort_values(["condition_id", "seconds", "game_index"])
    stale = {}
    for condition_id, games in frame.groupby("condition_id", sort=True):
        record = games.iloc[0]
        if record["game"] in skip_games:
            continue
        condition = Condition(record["game"], int(record["size"]), agent_from_params(json.loads(record["agent_params"])),
                              agent_from_params(json.loads(record["opponent_params"])),
                              tuple(json.loads(record["game_options"]).items()))
        assert condition.id == condition_id, condition_id
        replay = play_game(condition, int(record["game_index"]), int(record["seed"]))
        if replay["moves"] != record["moves"]:
            stale[condition_id] = (f"{record['game']} {record['size']}: {record['agent_label']} vs "
                                   f"{record['opponent_label']}, {record['agent_playouts']} playouts, {len(games)} games")
    return stale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paper")
    parser.add_argument("--skip-game", action="append", default=[])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    stale = stale_conditions(args.paper, set(args.skip_game))
    for condition_id, label in stale.items():
        print(f"stale {condition_id}  {label}")
    if not args.dry_run:
        removed = ResultsStore(paths.RESULTS / args.paper).drop_conditions(stale)
        print(f"{args.paper}: {len(stale)} stale conditions, {removed} games removed")


if __name__ == "__main__":
    main()
