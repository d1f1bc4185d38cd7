"""Replay, with today's code, every stored game in which a side plays ``playout_engine`` 2 (the engine checks of
notebooks 02 and 05), and report any whose moves or winner differ.  ``tests/test_replay.py`` replays each
condition's cheapest games only; a change to engine 2 that keeps its distribution but may move a draw (another
summation order, another rounding of a weight) is checked on every game here before it is committed.

    python scripts/replay_engine2_games.py                 # both engine-check stores, every engine-2 game
    python scripts/replay_engine2_games.py --per-condition 20 --workers 2
    python scripts/replay_engine2_games.py --games domineering misere_domineering --kinds ppa
"""
import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

import pandas as pd

from ppalib import paths
from ppalib.experiments import play_game, stored_condition

STORES = ("ppaf2016_engine_check", "future_work_engine_check")


def _engine_2(params: str, kinds=None) -> bool:
    params = json.loads(params)
    return params.get("playout_engine", 1) == 2 and (kinds is None or params["kind"] in kinds)


def _replay(record):
    condition = stored_condition(record)
    if condition.id != record["condition_id"]:
        return record["condition_id"], record["game_index"], "condition id differs"
    replay = play_game(condition, int(record["game_index"]), int(record["seed"]))
    same = replay["moves"] == record["moves"] and replay["winner"] == record["winner"]
    return record["condition_id"], record["game_index"], None if same else "moves or winner differ"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-condition", type=int, default=None, help="the first N games of each condition")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games", nargs="+", help="only these games (default: all)")
    parser.add_argument("--kinds", nargs="+", help="only games whose engine-2 side is of these kinds (default: all)")
    args = parser.parse_args(argv)
    frames = []
    for store in STORES:
        for part in sorted((paths.RESULTS / store).glob("*.parquet")):
            frames.append(pd.read_parquet(part).assign(store=store))
    frame = pd.concat(frames, ignore_index=True)
    def engine_2(params):
        return _engine_2(params, args.kinds)

    frame = frame[frame["agent_params"].map(engine_2) | frame["opponent_params"].map(engine_2)]
    if args.games:
        frame = frame[frame["game"].isin(args.games)]
    frame = frame.sort_values(["condition_id", "game_index"])
    if args.per_condition:
        frame = frame.groupby("condition_id", sort=False).head(args.per_condition)
    records = frame.drop(columns=["store"]).to_dict("records")
    print(f"{len(records)} engine-2 games of {frame['condition_id'].nunique()} conditions "
          f"({frame['seconds'].sum():.0f} stored CPU seconds)", flush=True)
    start, differ, done = time.time(), [], 0
    with ProcessPoolExecutor(args.workers) as pool:
        for condition_id, index, problem in pool.map(_replay, records, chunksize=8):
            done += 1
            if problem:
                differ.append((condition_id, index, problem))
                print(f"DIFFERS: condition {condition_id[:16]} game {index}: {problem}", flush=True)
            if done % 500 == 0:
                print(f"{done} replayed, {len(differ)} differ, {time.time() - start:.0f} s", flush=True)
    print(f"{done} replayed, {len(differ)} differ, {time.time() - start:.0f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
