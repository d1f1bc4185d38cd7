"""Knightthrough's ``ggp_rules`` option (games/breakthrough.py): the GGP game's reading of the rules (jumps onto empty
cells only, captures one cell diagonally forward, a side without a move draws), checked against a plain-Python
reading of that rules text written here, on random games, on hand-built positions, and through the same
invariants the conformance tests ask of every game.  The default (``ggp_rules=0``) is pinned by the perft
regression in test_games.py and by tests/test_replay.py.

Cells are ``row * n + col``; player 0 (``x``) starts on rows 0-1 and moves up, player 1 (``o``) down.
"""
import numpy as np
import pytest
from scipy.stats import chisquare

from ppalib._rng import make_rng
from ppalib.games import make_game
from ppalib.games._common import DRAW, H_BOARD, H_TO_MOVE, H_WINNER, ONGOING, S_MAX_PLIES

JUMPS = [(1, -2), (1, 2), (2, -1), (2, 1)]
CAPTURES = [(1, -1), (1, 1)]


def reference_moves(board, n, player):
    """The GGP rules text, square by square: (from, to) pairs of ``player`` (0 or 1) on ``board`` (0 empty, 1/2)."""
    forward = 1 if player == 0 else -1
    own, enemy = player + 1, 2 - player
    moves = set()
    for cell in range(n * n):
        if board[cell] != own:
            continue
        r, c = divmod(cell, n)
        for (dr, dc), wanted in [(j, 0) for j in JUMPS] + [(k, enemy) for k in CAPTURES]:
            rr, cc = r + forward * dr, c + dc
            if 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] == wanted:
                moves.add((cell, rr * n + cc))
    return moves


def reference_result(board, n, player_to_move, last_mover, last_to, misere):
    """ONGOING, the winner, or DRAW: a knight on the far row wins (misere: loses); no move: a draw."""
    if last_to is not None and (last_to >= n * n - n if last_mover == 0 else last_to < n):
        return 1 - last_mover if misere else last_mover
    if not reference_moves(board, n, player_to_move):
        return DRAW
    return ONGOING


def _pairs(game, state):
    module, spec = game.module, game.spec
    return {(int(module.move_from(spec, state, m)), int(module.move_to(spec, state, m)))
            for m in game.legal_moves(state)}


@pytest.mark.parametrize("name", ["knightthrough", "misere_knightthrough"])
@pytest.mark.parametrize("size", [4, 5, 8, 9])
def test_random_games_follow_the_rules_text_move_for_move(name, size):
    """Legal moves (as from/to cells) and every result agree with the reference, on the bitboard engine (<= 64
    cells) and the cell-by-cell one (9x9); the hash stays what the board gives and games end within the bound."""
    game = make_game(name, size, ggp_rules=1)
    rng = np.random.default_rng(size)
    results = set()
    for _ in range(40):
        state = game.initial_state()
        last = (None, None)
        plies = 0
        while True:
            board = state[H_BOARD:H_BOARD + size * size].tolist()
            player = game.to_move(state)
            expected = reference_result(board, size, player, *last, misere=name.startswith("misere"))
            legal = game.legal_moves(state)
            assert (game.winner(state) if legal.size == 0 else ONGOING) == expected
            if expected != ONGOING:
                results.add(expected)
                break
            assert _pairs(game, state) == reference_moves(board, size, player)
            assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)
            move = int(legal[rng.integers(legal.size)])
            last = (player, int(game.module.move_to(game.spec, state, move)))
            state = game.play(state, move)
            plies += 1
            assert plies <= game.spec[S_MAX_PLIES]
    assert len(results) >= 2  # random games reach more than one kind of end


@pytest.mark.parametrize("size", [5, 8])
def test_bitboard_and_cell_by_cell_engines_list_the_same_moves(size):
    game = make_game("knightthrough", size, ggp_rules=1)
    out = np.empty(game.max_moves, dtype=np.int64)
    rng = np.random.default_rng(7)
    for _ in range(20):
        state = game.initial_state()
        while (legal := game.legal_moves(state)).size:
            scanned = out[:game.module._legal_moves_scan(game.spec, state.copy(), out)].tolist()
            assert legal.tolist() == scanned
            state = game.play(state, int(legal[rng.integers(legal.size)]))


def _position(rows, player=0, ggp_rules=1, name="knightthrough"):
    """A game at the board drawn by ``rows`` (top row first, ``x`` player 0, ``o`` player 1, ``.`` empty)."""
    n = len(rows)
    game = make_game(name, n, ggp_rules=ggp_rules)
    state = game.initial_state()
    for r, line in enumerate(reversed(rows)):
        for c, ch in enumerate(line):
            state[H_BOARD + r * n + c] = ".xo".index(ch)
    state[H_TO_MOVE] = player
    return game, game.refresh(state)


def test_a_knight_cannot_jump_onto_an_enemy_and_captures_diagonally():
    """x on b1 (1): its jumps land on a3 (10), c3 (12), d2 (8); o holds a3 and c2 (7).  Under the GGP rules the
    jump onto a3 is illegal and the step onto c2 captures; under the default the jump captures and the step is
    not a knight move."""
    rows = ["o....", ".....", "o....", "..o..", ".x..."]
    game, state = _position(rows)
    assert _pairs(game, state) == {(1, 12), (1, 8), (1, 7)}
    after = game.play(state, next(m for m in game.legal_moves(state) if game.module.move_to(game.spec, state, m) == 7))
    assert after[H_BOARD + 7] == 1 and after[H_BOARD + 1] == 0 and int(after[7]) == 2  # one o left (H_COUNT1)
    default, state0 = _position(rows, ggp_rules=0)
    assert _pairs(default, state0) == {(1, 10), (1, 12), (1, 8)}


def test_a_side_without_a_move_draws_under_the_ggp_rules_and_loses_by_default():
    """x on a1 is blocked (its jumps b3 and c2 are occupied by o, nothing diagonal to capture): GGP draw."""
    rows = ["....o", ".....", ".o...", "..o..", "x...."]
    for name in ("knightthrough", "misere_knightthrough"):
        game, state = _position(rows, name=name)
        assert game.legal_moves(state).size == 0 and game.winner(state) == DRAW
    game, state = _position(rows, ggp_rules=0)  # by default both jumps capture
    assert game.legal_moves(state).size == 2
    game, state = _position(["....o", ".....", ".....", ".....", "....."], ggp_rules=0)  # x has no piece
    assert game.legal_moves(state).size == 0 and game.winner(state) == 1
    game, state = _position(["....o", ".....", ".....", ".....", "....."])
    assert game.legal_moves(state).size == 0 and game.winner(state) == DRAW


def test_codes_are_distinct_in_range_and_the_capture_bit_marks_the_diagonal_steps():
    game = make_game("knightthrough", 5, ggp_rules=1)
    rng = np.random.default_rng(1)
    captures = 0
    for _ in range(30):
        state = game.initial_state()
        while (legal := game.legal_moves(state)).size:
            codes = [game.move_code(state, m) for m in legal]
            context = [game.move_code(state, m, with_context=True) for m in legal]
            assert len(set(codes)) == len(codes) and all(0 <= c < game.num_codes() for c in codes)
            assert len(set(context)) == len(context) and all(0 <= c < game.num_codes(True) for c in context)
            for move, code in zip(legal, context):
                target = int(game.module.move_to(game.spec, state, move))
                assert code % 2 == (state[H_BOARD + target] != 0) == (int(move) % 8 >= 4)
                captures += code % 2
            state = game.play(state, int(legal[rng.integers(legal.size)]))
    assert captures > 0


@pytest.mark.parametrize("size", [6, 9])
def test_random_move_is_uniform_over_exactly_the_legal_moves(size):
    """Chi-square test of 30,000 draws mid-game (6x6: bitboard draw over six sets; 9x9: cell by cell)."""
    game = make_game("knightthrough", size, ggp_rules=1)
    state = game.initial_state()
    rng = np.random.default_rng(5)
    for _ in range(8):
        legal = game.legal_moves(state)
        state = game.play(state, int(legal[rng.integers(legal.size)]))
    legal = game.legal_moves(state)
    assert legal.size > 5
    draw_rng, out = make_rng(11), np.empty(game.max_moves, dtype=np.int64)
    draws = [int(game.module.random_move(game.spec, state, draw_rng, out)) for _ in range(30_000)]
    assert set(draws) <= set(legal.tolist())
    assert chisquare([draws.count(int(m)) for m in legal]).pvalue > 1e-3


def test_the_option_is_validated_and_only_for_the_knight_games():
    with pytest.raises(ValueError, match="ggp_rules=2"):
        make_game("knightthrough", 5, ggp_rules=2)
    with pytest.raises(ValueError, match="no option"):
        make_game("breakthrough", 5, ggp_rules=1)
    assert make_game("knightthrough", 5).options == ()
    assert make_game("knightthrough", 5, ggp_rules=0).spec.tobytes() == make_game("knightthrough", 5).spec.tobytes()


# ---- notebook 01: Table 1's Knightthrough cells under both readings --------------------------------------------
def test_the_table1_grid_plays_each_knightthrough_cell_under_both_readings_and_keeps_the_committed_ids():
    from ppalib import paths
    from ppalib.papers import ppa2015
    from ppalib.store import ResultsStore
    experiment = ppa2015.make_experiment("unused", "quick")
    knight = [c for c in experiment.conditions if c.game in ppa2015.KNIGHT_GAMES]
    landing = {(c.game, c.size, c.agent.playouts): c for c in knight if not c.game_options}
    ggp = {(c.game, c.size, c.agent.playouts): c for c in knight if c.game_options == (("ggp_rules", 1),)}
    assert len(landing) == len(ggp) == 8 and landing.keys() == ggp.keys()
    for key, cell in landing.items():
        assert experiment.games_by_condition[cell.id] == experiment.games_by_condition[ggp[key].id]
    stored = set(ResultsStore(paths.RESULTS / "ppa2015").load()["condition_id"])
    assert {c.id for c in landing.values()} <= stored  # the default reading's cells are the committed ones
    chosen = ppa2015.make_experiment("unused", "quick", knightthrough_rules="ggp")
    assert {c.id for c in chosen.conditions} == {c.id for c in experiment.conditions}
    with pytest.raises(ValueError, match="knightthrough_rules='chess'"):
        ppa2015.make_experiment("unused", "quick", knightthrough_rules="chess")


def _games(game, rules, results):
    import json
    return [{"game": game, "size": 5, "agent_playouts": 1000, "winner": 2 if r == 0.5 else (0 if r else 1),
             "agent_result": r, "game_options": json.dumps({"ggp_rules": 1} if rules == "ggp" else {})}
            for r in results]


def test_the_rules_table_counts_each_reading_apart_and_table1_shows_the_chosen_one():
    import pandas as pd
    from scipy.stats import fisher_exact

    from ppalib.papers import ppa2015
    frame = pd.DataFrame(_games("knightthrough", "landing", [1] * 10 + [0] * 30)
                         + _games("knightthrough", "ggp", [1] * 24 + [0.5] * 2 + [0] * 14)
                         + _games("breakthrough", "", [1] * 5 + [0] * 5))
    table = ppa2015.knightthrough_rules_table(frame)
    landing, ggp = (table[table.rules == r].iloc[0] for r in ("landing", "ggp"))
    assert (landing.games, landing.win_rate, landing.draws) == (40, 25.0, 0)
    assert (ggp.games, ggp.win_rate, ggp.draws) == (40, 62.5, 2)
    assert ggp.paper_win_rate == 42.4 and landing.p_between == pytest.approx(fisher_exact([[10, 30], [25, 15]]).pvalue)
    long = ppa2015.table1(frame)
    cell = long[(long.game == "knightthrough") & (long["size"] == 5) & (long.playouts == 1000)].iloc[0]
    assert (cell.games, cell.win_rate) == (40, 25.0)
    assert ppa2015.table1(frame, "ggp").query("game == 'knightthrough' and playouts == 1000").win_rate.max() == 62.5
    layout = ppa2015.knightthrough_rules_layout(table)
    assert list(layout.columns) == ["landing (= within ±10 points)", "ggp (= within ±10 points)",
                                    "p (landing vs ggp)"]


def _reference_perft(board, n, player, depth, last_to=None):
    """Positions exactly ``depth`` plies on (a knight on the far row ends the game), by the reference rules."""
    if depth == 0:
        return 1
    if last_to is not None and (last_to >= n * n - n if player == 1 else last_to < n):
        return 0
    total = 0
    for source, target in reference_moves(board, n, player):
        child = list(board)
        child[target], child[source] = child[source], 0
        total += _reference_perft(child, n, 1 - player, depth - 1, target)
    return total


@pytest.mark.parametrize("size,depth", [(5, 4), (8, 3)])
def test_the_stored_perft_counts_are_the_reference_rules_counts(size, depth):
    """tests/data/perft.json's ggp_rules=1 counts (test_games.py replays them on the engine) equal the reference's."""
    import json
    from pathlib import Path
    stored = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())["counts"]
    start = [1 if r < 2 else 2 if r >= size - 2 else 0 for r in range(size) for _ in range(size)]
    assert [_reference_perft(start, size, 0, d) for d in range(depth + 1)] == \
        stored[f"knightthrough/{size}/ggp_rules=1"][:depth + 1]
