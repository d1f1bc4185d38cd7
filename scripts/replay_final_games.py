"""Replay, with today's code, the cheapest stored final-comparison game (a feature policy's Biased MCTS against UCT
at 2,000 iterations a move or more) of each game named, from notebook 04's budget run.  tests/test_replay.py
replays the budget store one condition per shape, leaving out games of more than 3 s; this covers every game's
final comparison after a change to the matcher or the search.

    python scripts/replay_final_games.py hex:7 hex:11 gomoku yavalath connect_four breakthrough knightthrough \
        teeko fanorona othello
"""
import sys, json, time
import pandas as pd
from ppalib import paths
from ppalib.experiments import play_game, stored_condition
parts = sorted((paths.RESULTS / "soemers2019_budget").glob("*.parquet"))
frame = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
frame = frame[frame["agent_params"].str.contains('"policy"') & (frame["opponent"] == "uct")]
for game in sys.argv[1:]:
    sub = frame[(frame["game"] == game.split(':')[0]) & (frame["agent_playouts"] >= 2000)]
    if ':' in game:
        sub = sub[sub["size"] == int(game.split(':')[1])]
    if sub.empty:
        print(game, "no games"); continue
    rec = sub.sort_values("seconds").iloc[0].to_dict()
    cond = stored_condition(rec)
    assert cond.id == rec["condition_id"]
    t = time.time()
    replay = play_game(cond, int(rec["game_index"]), int(rec["seed"]))
    same = replay["moves"] == rec["moves"] and replay["winner"] == rec["winner"]
    plies = len(rec["moves"].split()) if isinstance(rec["moves"], str) else len(rec["moves"])
    print(f"{game} condition {rec['condition_id'][:8]} game {rec['game_index']} "
          f"agent_playouts {rec['agent_playouts']} opponent_playouts {json.loads(rec['opponent_params'])['playouts']} "
          f"plies {plies} stored {rec['seconds']:.1f} s replayed {time.time() - t:.1f} s same: {same}", flush=True)
