"""How often a rejection-sampled Gibbs draw would accept, after real PPA searches (issue 25's third-engine idea).

A rejection draw picks a legal move uniformly and keeps it with probability ``w / w_max``: it accepts on average
``mean(w) / max(w)`` over the legal moves, so it beats the sum tree only when the learned weights stay flat.  This
searches the first moves of a game with PPA (``playouts`` each, policy from zero as the papers do), then walks 60
Gibbs plies on the learned weights from each searched position and prints the mean and lowest acceptance met.

    python scripts/rejection_acceptance.py hex 11 10000 ppa
"""
import argparse

import numpy as np

from ppalib import make_rng
from ppalib.agents import make_agent
from ppalib.agents.searcher import Searcher
from ppalib.games import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("game")
parser.add_argument("size", type=int)
parser.add_argument("playouts", type=int)
parser.add_argument("kind", choices=["ppa", "ppaf"])
parser.add_argument("--moves", type=int, default=6)
args = parser.parse_args()
game = make_game(args.game, args.size)
with_context = args.kind == "ppaf"
agent = make_agent(args.kind, args.playouts)
rng = make_rng(7)
state = game.initial_state()
for move_number in range(args.moves):
    if game.is_over(state):
        break
    result = Searcher(game, agent).search(state, rng)
    weight = np.exp(result.policy)
    walk = np.random.default_rng(move_number)
    position, acceptance = state.copy(), []
    for _ in range(60):
        if game.is_over(position):
            break
        legal = game.legal_moves(position)
        w = np.array([weight[game.move_code(position, int(m), with_context)] for m in legal])
        acceptance.append(w.mean() / w.max())
        position = game.play(position, int(legal[walk.choice(len(legal), p=w / w.sum())]))
    print(f"{args.game} {args.size} {args.kind} move {move_number}: policy in [{result.policy.min():.1f}, "
          f"{result.policy.max():.1f}], acceptance mean {np.mean(acceptance):.3f}, lowest {np.min(acceptance):.3f}",
          flush=True)
    state = game.play(state, result.move)
