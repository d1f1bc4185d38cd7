"""How tight engine 2's dirty lists are: per ply of uniform random games, the slots a game's ``dirty_slots`` lists
(and how many distinct), against the slots whose code changed for either player (every slot's two codes compared
before and after each move) and the (slot, player) code changes.  Engine 2 recomputes each distinct dirty slot's
codes (``incremental._refresh``), so a list much longer than the changes would be work to save (issue 25).  From
the repository's root, with the package importable:

    python scripts/dirty_slots_probe.py go:8 atarigo:8 nogo:8 domineering:8 hex:11 gomoku:15 yavalath:5

300 games a game from seed 5 (``np.random``, uniform over ``legal_moves``), without and with move context (PPA's
and PPAF's codes).  A script's closures: compiled each run, never cached.
"""
import sys
import numpy as np
from numba import njit
from ppalib.games import make_game
from ppalib.games._common import H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES

def kernels(module):
    init_state, legal_moves, play = module.init_state, module.legal_moves, module.play
    slot_code, dirty_slots, before_play = module.slot_code, module.dirty_slots, module.before_play
    @njit
    def count(spec, games, with_context, slots, seed):
        np.random.seed(seed)
        buffer = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
        out = np.empty(20 * slots + 64, dtype=np.int64)
        memo = np.zeros(16, dtype=np.int64)
        current = np.empty(2 * slots, dtype=np.int64)
        stamp = np.zeros(slots, dtype=np.int64)
        listed = 0; distinct = 0; changes = 0; plies = 0; changed_slots = 0; tick = 0
        for g in range(games):
            state = init_state(spec)
            for j in range(2 * slots):
                current[j] = slot_code(spec, state, j % slots, j // slots, with_context)
            while state[H_WINNER] == ONGOING:
                n = legal_moves(spec, state, buffer)
                if n == 0:
                    break
                move = buffer[np.random.randint(n)]
                before_play(spec, state, move, memo)
                play(spec, state, move)
                if state[H_WINNER] != ONGOING:
                    break
                plies += 1
                c = dirty_slots(spec, state, move, with_context, memo, out)
                listed += c
                tick += 1
                for i in range(c):
                    if stamp[out[i]] != tick:
                        stamp[out[i]] = tick
                        distinct += 1
                for s in range(slots):
                    a = slot_code(spec, state, s, 0, with_context)
                    b = slot_code(spec, state, s, 1, with_context)
                    any_ = False
                    if a != current[s]:
                        changes += 1; current[s] = a; any_ = True
                    if b != current[slots + s]:
                        changes += 1; current[slots + s] = b; any_ = True
                    if any_:
                        changed_slots += 1
        return listed / plies, distinct / plies, changes / plies, changed_slots / plies

    return count

for spec_ in sys.argv[1:] or ["go:8", "atarigo:8", "nogo:8", "domineering:8", "hex:11", "gomoku:15", "yavalath:5"]:
    name, size = spec_.split(":")
    game = make_game(name, int(size))
    module, spec = game.rule.module, game.spec
    if getattr(module, "num_slots", None) is None:
        print(spec_, "no slots"); continue
    count = kernels(module)
    slots = module.num_slots(spec)
    for ctx in (False, True):
        l, d, c, cs = count(spec, 300, ctx, slots, 5)
        print(f"{spec_:14s} context={ctx!s:5s} listed/ply {l:6.1f}  distinct dirty/ply {d:6.1f}  slots changed/ply {cs:5.2f}  (slot,player) changes/ply {c:5.2f}", flush=True)
