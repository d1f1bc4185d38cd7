"""A literal, slow, pure-Python transcription of seed 000's Algorithms 3-7 (and so seed 004's 1-4).

It shares nothing with the kernel but the game functions (including ``random_move``, the game's uniform draw)
and the random-number stream: recursive UCT over a
dict transposition table, and adapt functions that *replay* the sequence from the root board, as the
pseudo-code (and the PPA author's code) does.  tests/test_mcts.py checks that the kernel makes the same
decisions, visit counts and policy, draw for draw.
"""
from __future__ import annotations

import math

import numpy as np

from ppalib._rng import random_float
from ppalib.games._common import H_HASH, H_TO_MOVE, H_WINNER


def reward(winner: int, player: int) -> float:
    return 1.0 if winner == player else (0.5 if winner == 2 else 0.0)


class ReferenceMCTS:
    def __init__(self, game, rng, playouts, c, kind, alpha=1.0, k=1.0, with_context=False):
        self.game, self.rng, self.playouts, self.c = game, rng, playouts, c
        self.kind, self.alpha, self.k, self.with_context = kind, alpha, k, with_context
        self.ncodes = game.num_codes(with_context)

    def legal(self, board):
        out = np.empty(self.game.max_moves, dtype=np.int64)
        return list(out[: self.game.module.legal_moves(self.game.spec, board, out)])

    def code(self, board, move):
        return int(self.game.module.move_code(self.game.spec, board, move, self.with_context))

    def play(self, board, move):
        self.game.module.play(self.game.spec, board, move)

    # Algorithm 3
    def playout(self, board, sequence):
        while True:
            if self.kind == "uniform":  # a uniformly random legal move, as the game draws it
                move = int(self.game.module.random_move(self.game.spec, board, self.rng,
                                                        np.empty(self.game.max_moves, dtype=np.int64)))
                if move < 0:
                    return int(board[H_WINNER])
            else:
                moves = self.legal(board)
                if not moves:
                    return int(board[H_WINNER])
                weights = [math.exp(self.k * self.policy[self.code(board, m)]) for m in moves]
                z = 0.0
                for w in weights:
                    z += w
                r = float(random_float(self.rng)) * z
                move, acc = moves[-1], 0.0
                for m, w in zip(moves, weights):
                    acc += w
                    if r < acc:
                        move = m
                        break
            sequence.append(move)
            self.play(board, move)

    # Algorithm 7
    def uct(self, board, sequence):
        moves = self.legal(board)
        if not moves:
            return int(board[H_WINNER])
        key = int(board[H_HASH])
        entry = self.table.get(key)
        if entry is not None:
            best_value, best = -math.inf, None
            for i, m in enumerate(moves):
                t, w, p = entry["total"], entry["wins"][i], entry["playouts"][i]
                value = math.inf if p == 0 else w / p + self.c * math.sqrt(math.log(t) / p)
                if value > best_value:
                    best_value, best = value, i
            player = int(board[H_TO_MOVE])
            sequence.append(moves[best])
            self.play(board, moves[best])
            res = self.uct(board, sequence)
            entry["total"] += 1
            entry["playouts"][best] += 1
            entry["wins"][best] += reward(res, player)
        else:
            entry = {"total": 0, "wins": [0.0] * len(moves), "playouts": [0] * len(moves), "moves": moves}
            self.table[key] = entry
            res = self.playout(board, sequence)
            entry["total"] += 1
        return res

    # Algorithm 4
    def adapt_ppa(self, winner, board, sequence):
        polp = self.policy.copy()
        for move in sequence:
            if winner == int(board[H_TO_MOVE]):
                moves = self.legal(board)
                polp[self.code(board, move)] += self.alpha
                z = 0.0
                for m in moves:
                    z += math.exp(self.policy[self.code(board, m)])
                for m in moves:
                    polp[self.code(board, m)] -= self.alpha * math.exp(self.policy[self.code(board, m)]) / z
            self.play(board, move)
        self.policy = polp

    # Algorithm 5
    def adapt_mast(self, winner, board, sequence):
        for move in sequence:
            code = self.code(board, move)
            self.games[code] += 1
            self.wins[code] += reward(winner, int(board[H_TO_MOVE]))
            self.policy[code] = self.wins[code] / self.games[code]
            self.play(board, move)

    def descend(self, board, sequence):
        """One iteration from the root position ``board`` (a copy): the tree policy, then the playout."""
        return self.uct(board, sequence)

    # Algorithm 6
    def search(self, root):
        self.table = {}
        self.policy = np.zeros(self.ncodes)
        self.wins = np.zeros(self.ncodes)
        self.games = np.zeros(self.ncodes)
        for _ in range(self.playouts):
            sequence = []
            winner = self.descend(root.copy(), sequence)
            if self.kind == "ppa":
                self.adapt_ppa(winner, root.copy(), sequence)
            elif self.kind == "mast":
                self.adapt_mast(winner, root.copy(), sequence)
        entry = self.table[int(root[H_HASH])]
        best = int(np.argmax(entry["playouts"]))  # first of the maxima
        return entry["moves"][best], np.array(entry["playouts"], dtype=float), self.policy


class ReferenceGRAVE(ReferenceMCTS):
    """GRAVE (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015, Algorithm 1) transcribed
    literally: recursive, a dict table whose entries keep AMAF statistics per move code (the code includes the
    mover), the reference entry ``tref`` passed down the descent.  ``kind`` "uniform" is GRAVE itself; "ppa" and
    "mast" add the learned playouts and their adapt (Algorithms 3-5 above), as PPA/MAST + GRAVE.

    ``rule`` picks the reference entry: "grave" (the closest entry of the descent, itself included, with more
    than ``ref`` playouts; the root when none has), and, only so that a test can show the kernel is told apart
    from them, "self" (always the entry itself: RAVE's own statistics) and "root" (always the root).  AMAF counts
    each code once per iteration, from the entry's own move to the end of the playout, found by replaying the
    iteration's moves from the entry's position (no bookkeeping shared with the kernel's)."""

    def __init__(self, game, rng, playouts, kind, ref, bias, alpha=1.0, k=1.0, with_context=False, rule="grave"):
        super().__init__(game, rng, playouts, 0.0, kind, alpha=alpha, k=k, with_context=with_context)
        self.ref, self.bias, self.rule = ref, bias, rule
        self.amaf_codes = game.num_codes(False)

    def plain_code(self, board, move):
        return int(self.game.module.move_code(self.game.spec, board, move, False))

    def update_amaf(self, entry, board, moves, winner):
        seen = set()
        board = board.copy()
        for move in moves:
            code, player = self.plain_code(board, move), int(board[H_TO_MOVE])
            if code not in seen:
                seen.add(code)
                entry["amaf"][2 * code + 1] += 1
                entry["amaf"][2 * code] += reward(winner, player)
            self.play(board, move)

    def value(self, entry, tref, i, code):
        p, w = entry["playouts"][i], entry["wins"][i]
        pa, wa = tref["amaf"][2 * code + 1], tref["amaf"][2 * code]
        if pa == 0:
            return math.inf
        beta = pa / (pa + p + self.bias * pa * p)
        mean = w / p if p > 0 else 1.0
        amaf = wa / pa
        return (1 - beta) * mean + beta * amaf  # as the reference code, AMAF's mean first (ties are exact)

    def grave(self, board, sequence, tref):
        moves = self.legal(board)
        if not moves:
            return int(board[H_WINNER])
        start, before = len(sequence), board.copy()
        entry = self.table.get(int(board[H_HASH]))
        if entry is not None:
            if self.rule == "self" or (self.rule == "grave" and entry["total"] > self.ref):
                tref = entry
            best_value, best = -math.inf, None
            for i, m in enumerate(moves):
                value = self.value(entry, tref, i, self.plain_code(board, m))
                if value > best_value:
                    best_value, best = value, i
            player = int(board[H_TO_MOVE])
            sequence.append(moves[best])
            self.play(board, moves[best])
            res = self.grave(board, sequence, tref)
            entry["total"] += 1
            entry["playouts"][best] += 1
            entry["wins"][best] += reward(res, player)
        else:
            entry = {"total": 0, "wins": [0.0] * len(moves), "playouts": [0] * len(moves), "moves": moves,
                     "amaf": np.zeros(2 * self.amaf_codes)}
            self.table[int(board[H_HASH])] = entry
            res = self.playout(board, sequence)
            entry["total"] += 1
        self.update_amaf(entry, before, sequence[start:], res)
        return res

    def descend(self, board, sequence):
        return self.grave(board, sequence, self.table.get(int(board[H_HASH])))
