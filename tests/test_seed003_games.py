"""Teeko, Yavalath and Fanorona (seed 003): hand-built positions with known answers (``data/positions.json``) and
move-by-move agreement with plain-Python transcriptions of the rules written here from the module docstrings,
independently of the engines (no bitboards, no tables: coordinates and loops)."""
import json
from pathlib import Path

import numpy as np
import pytest

from ppalib.games import make_game
from ppalib.games._common import DRAW, H_BOARD, H_PLY, H_TO_MOVE, H_WINNER, ONGOING

POSITIONS = json.loads((Path(__file__).parent / "data" / "positions.json").read_text())["positions"]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # clockwise from North


# ---- reference rules -----------------------------------------------------------------------------------------
def teeko_reference_moves(board, player, pieces):
    """Legal moves by the rules: placements while the hand is not empty, else king steps to empty cells; when the
    mover is stuck, the pass."""
    if board.count(player + 1) < pieces:
        return [cell for cell in range(25) if board[cell] == 0]
    moves = []
    for cell in range(25):
        if board[cell] == player + 1:
            r, c = divmod(cell, 5)
            for d, (dr, dc) in enumerate(KING):
                if 0 <= r + dr < 5 and 0 <= c + dc < 5 and board[(r + dr) * 5 + c + dc] == 0:
                    moves.append(25 + 8 * cell + d)
    return moves or [225]


def teeko_reference_win(board, player):
    """Four in a row (any of 4 axes) or a 2x2 square of ``player``'s pieces, by enumerating them."""
    mine = {divmod(c, 5) for c in range(25) if board[c] == player + 1}
    for r, c in mine:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all((r + i * dr, c + i * dc) in mine for i in range(4)):
                return True
        if {(r + 1, c), (r, c + 1), (r + 1, c + 1)} <= mine:
            return True
    return False


YAVALATH_CELLS = [(r, c) for r in range(-4, 5) for c in range(-4, 5) if abs(r + c) <= 4]


def yavalath_reference_result(board, cell, player):
    """After ``player`` placed on ``cell``: 'win' (a line of 4+), 'loss' (else a line of exactly 3) or None."""
    where = {p: board[i] for i, p in enumerate(YAVALATH_CELLS)}
    r, c = YAVALATH_CELLS[cell]
    lengths = []
    for dr, dc in ((0, 1), (1, 0), (1, -1)):
        n = 1
        for sign in (1, -1):
            k = 1
            while where.get((r + sign * k * dr, c + sign * k * dc)) == player + 1:
                n += 1
                k += 1
        lengths.append(n)
    if max(lengths) >= 4:
        return "win"
    return "loss" if 3 in lengths else None


class FanoronaReference:
    """Fanorona by its rules on (row, col) points: a slow, obvious transcription (see the module docstring)."""

    STOP = 1080

    def __init__(self, board, player, same_direction_rule=1, chain=None):
        self.board = {(r, c): board[r * 9 + c] for r in range(5) for c in range(9)}
        self.player = player
        self.rule = same_direction_rule
        self.chain = chain  # None or (point, last direction, visited points)
        self.winner = None

    @staticmethod
    def step(p, d):
        r, c = p
        if d % 2 == 1 and (r + c) % 2 == 1:
            return None
        q = (r + KING[d][0], c + KING[d][1])
        return q if 0 <= q[0] < 5 and 0 <= q[1] < 9 else None

    def captures_from(self, p, who):
        enemy = 2 - who
        out = []
        for d in range(8):
            q = self.step(p, d)
            if q is None or self.board[q] != 0:
                continue
            ahead = self.step(q, d)
            if ahead is not None and self.board[ahead] == enemy:
                out.append((p, d, 1))
            behind = self.step(p, (d + 4) % 8)
            if behind is not None and self.board[behind] == enemy:
                out.append((p, d, 2))
        return out

    def paika(self, who):
        return [(p, d, 0) for p, v in self.board.items() if v == who + 1 for d in range(8)
                if self.step(p, d) is not None and self.board[self.step(p, d)] == 0]

    @staticmethod
    def number(move):
        (r, c), d, kind = move
        return ((r * 9 + c) * 8 + d) * 3 + kind

    def legal(self):
        """Move numbers, sorted."""
        if self.chain is not None:
            p, last, visited = self.chain
            moves = [m for m in self.captures_from(p, self.player)
                     if self.step(p, m[1]) not in visited and not (self.rule and m[1] == last)]
            return sorted(self.number(m) for m in moves) + [self.STOP]
        moves = [m for p, v in self.board.items() if v == self.player + 1 for m in self.captures_from(p, self.player)]
        if not moves:
            moves = self.paika(self.player)
        return sorted(self.number(m) for m in moves) or [self.STOP]

    def play(self, number):
        if number == self.STOP:
            self.chain = None
            self.player = 1 - self.player
            return
        point, kind = divmod(number, 3)
        point, d = divmod(point, 8)
        p = divmod(point, 9)
        q = self.step(p, d)
        self.board[p], self.board[q] = 0, self.player + 1
        if kind == 0:
            self.player = 1 - self.player
            return
        line_start, line_dir = (self.step(q, d), d) if kind == 1 else (self.step(p, (d + 4) % 8), (d + 4) % 8)
        x = line_start
        while x is not None and self.board[x] == 2 - self.player:
            self.board[x] = 0
            x = self.step(x, line_dir)
        visited = ({p} if self.chain is None else self.chain[2]) | {q}
        self.chain = (q, d, visited)
        if not any(v == 2 - self.player for v in self.board.values()):
            self.winner = self.player
            return
        if self.legal() == [self.STOP]:  # no continuation: the turn ends by itself
            self.chain = None
            self.player = 1 - self.player

    def cells(self):
        return [self.board[divmod(i, 9)] for i in range(45)]


# ---- move-by-move agreement in random games -------------------------------------------------------------------
def _board(game, state):
    return [int(v) for v in state[H_BOARD:H_BOARD + int(game.spec[2])]]


@pytest.mark.parametrize("pieces", [4, 8, 12])
def test_teeko_agrees_with_the_reference_rules_move_by_move(pieces):
    game = make_game("teeko", 5, pieces=pieces)
    rng = np.random.default_rng(pieces)
    for _ in range(40):
        state = game.initial_state()
        while state[H_WINNER] == ONGOING:  # a win or the 1250-ply limit, set by play
            board, player = _board(game, state), game.to_move(state)
            legal = game.legal_moves(state).tolist()
            assert legal == teeko_reference_moves(board, player, pieces)
            state = game.play(state, legal[rng.integers(len(legal))])
            won = teeko_reference_win(_board(game, state), player)
            assert not teeko_reference_win(_board(game, state), 1 - player)
            if won:
                assert state[H_WINNER] == player
            else:
                assert state[H_WINNER] == (DRAW if state[H_PLY] >= 1250 else ONGOING)


@pytest.mark.parametrize("swap", [0, 1])
def test_yavalath_agrees_with_the_reference_rules_move_by_move(swap):
    game = make_game("yavalath", 5, swap=swap)
    rng = np.random.default_rng(7 + swap)
    swaps = 0
    for _ in range(200):
        state = game.initial_state()
        while not game.is_over(state):
            board, player = _board(game, state), game.to_move(state)
            empties = [c for c in range(61) if board[c] == 0]
            assert game.legal_moves(state).tolist() == empties + ([61] if swap and state[H_PLY] == 1 else [])
            move = int(rng.choice(game.legal_moves(state)))
            state = game.play(state, move)
            if move == 61:
                swaps += 1
                assert _board(game, state).count(2) == 1 and _board(game, state).count(1) == 0
                assert game.to_move(state) == 0 and game.winner(state) is None
                continue
            result = yavalath_reference_result(_board(game, state), move, player)
            expected = {"win": player, "loss": 1 - player, None: None}[result]
            if expected is None and 0 not in _board(game, state):
                expected = DRAW
            assert game.winner(state) == expected
    assert swaps > 0 if swap else swaps == 0


@pytest.mark.parametrize("rule", [1, 0])
def test_fanorona_agrees_with_the_reference_rules_move_by_move(rule):
    game = make_game("fanorona", 5, same_direction_rule=rule)
    rng = np.random.default_rng(11 + rule)
    chains = 0
    for _ in range(60):
        state = game.initial_state()
        ref = FanoronaReference(_board(game, state), 0, rule)
        while True:
            expected = ref.legal()
            legal = game.legal_moves(state).tolist()
            if ref.winner is not None:
                assert legal == [] and game.winner(state) == ref.winner
                break
            if state[H_WINNER] != ONGOING:  # the 1250-ply limit
                assert state[H_PLY] == 1250 and game.winner(state) == DRAW
                break
            assert legal == expected
            move = legal[rng.integers(len(legal))]
            before = game.to_move(state)
            state = game.play(state, move)
            ref.play(move)
            chains += game.to_move(state) == before and ref.winner is None
            assert _board(game, state) == ref.cells() and game.to_move(state) == ref.player
            assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)
    assert chains > 0


# ---- hand-built positions with known answers ------------------------------------------------------------------
def _set_up(entry):
    """The position of a ``positions.json`` entry: board rows as ``render`` draws them (top row first; spaces,
    which Yavalath's rows have, are ignored), side to move, ply."""
    game = make_game(entry["game"], 5, **entry.get("options", {}))
    rows = ["".join(row.split()) for row in entry["board"]]
    cells = "".join(reversed(rows))
    assert len(cells) == game.spec[2], entry["name"]
    state = game.initial_state()
    state[H_BOARD:H_BOARD + len(cells)] = [".xo".index(ch) for ch in cells]
    state[H_TO_MOVE] = entry["to_move"]
    state[H_PLY] = entry.get("ply", 0)
    game.refresh(state)
    assert [line for line in game.render(state).splitlines()] == [line.rstrip() for line in entry["board"]]
    return game, state


def _move(game, state, text):
    names = {game.move_to_str(state, m): int(m) for m in game.legal_moves(state)}
    assert text in names, f"{text} not legal; legal: {sorted(names)}"
    return names[text]


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_hand_built_position(entry):
    game, state = _set_up(entry)
    for step in entry["steps"]:
        if "legal" in step:
            assert sorted(game.move_to_str(state, m) for m in game.legal_moves(state)) == sorted(step["legal"])
        if "play" in step:
            state = game.play(state, _move(game, state, step["play"]))
        if "board" in step:
            assert game.render(state).splitlines()[:len(step["board"])] == [r.rstrip() for r in step["board"]]
        if "to_move" in step:
            assert game.to_move(state) == step["to_move"]
        if "winner" in step:
            assert game.winner(state) == step["winner"]
        assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)


# ---- random_move: uniform over exactly the legal moves --------------------------------------------------------
def _find(game, wanted, seed=0):
    """The first position of seeded random games for which ``wanted(state, legal)`` holds."""
    rng = np.random.default_rng(seed)
    for _ in range(500):
        state = game.initial_state()
        while not game.is_over(state):
            legal = game.legal_moves(state)
            if wanted(state, legal):
                return state
            state = game.play(state, int(legal[rng.integers(legal.size)]))
    raise AssertionError("no such position")


def _in_chain(state):
    from ppalib.games.fanorona import B_CHAIN
    return state[H_BOARD + B_CHAIN] >= 0


CASES = {
    "teeko placement": ("teeko", {}, lambda s, legal: s[H_PLY] == 5),
    "teeko steps": ("teeko", {}, lambda s, legal: s[H_PLY] >= 8 and legal.size > 12),
    "teeko 8 pieces, steps": ("teeko", {"pieces": 8}, lambda s, legal: s[H_PLY] >= 16 and legal.size > 8),
    "yavalath swap offered": ("yavalath", {"swap": 1}, lambda s, legal: s[H_PLY] == 1),
    "yavalath midgame": ("yavalath", {}, lambda s, legal: s[H_PLY] == 12),
    "fanorona captures": ("fanorona", {}, lambda s, legal: not _in_chain(s) and legal.size >= 6 and legal[0] % 3),
    "fanorona paika": ("fanorona", {}, lambda s, legal: legal.size >= 8 and legal[0] % 3 == 0),
    "fanorona chain": ("fanorona", {}, lambda s, legal: _in_chain(s) and legal.size >= 3),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_random_move_is_uniform_over_exactly_the_legal_moves(case):
    from scipy.stats import chisquare

    from ppalib._rng import make_rng
    name, options, wanted = CASES[case]
    game = make_game(name, 5, **options)
    state = _find(game, wanted)
    legal = game.legal_moves(state)
    rng, out = make_rng(13), np.empty(game.max_moves, dtype=np.int64)
    draws = [int(game.module.random_move(game.spec, state, rng, out)) for _ in range(20_000)]
    assert set(draws) <= set(legal.tolist())
    assert chisquare([draws.count(int(m)) for m in legal]).pvalue > 1e-3
