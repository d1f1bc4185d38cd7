"""Conformance: every registered game passes the same checks through the same interface (pgx style)."""
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ppalib.agents import perft_count
from ppalib.games import GAMES, make_game
from ppalib.games._common import H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_MAX_PLIES

PERFT = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())["counts"]
SIZES = [5, 8]
_make_game = make_game


def make_game(name, size, **options):  # noqa: F811  (the tests below ask for sizes some games do not have)
    """The game at the allowed size nearest ``size``: within the rule's range, and even for Othello."""
    rule = GAMES[name]
    size = min(max(size, rule.min_size), rule.max_size)
    return _make_game(name, size + (size % 2 if name == "othello" else 0), **options)


def _random_game(game, picks):
    """Play the game choosing legal move ``picks[i] % n`` at ply i (then move 0); yield every state."""
    state = game.initial_state()
    ply = 0
    while True:
        yield state
        legal = game.legal_moves(state)
        if legal.size == 0:
            return
        pick = picks[ply] if ply < len(picks) else 0
        state = game.play(state, int(legal[pick % legal.size]))
        ply += 1


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("size", SIZES)
def test_random_games_end_and_keep_every_invariant(name, size):
    game = make_game(name, size)
    rng = np.random.default_rng(size)
    for _ in range(20):
        picks = rng.integers(0, 1 << 30, size=4 * size * size + 20).tolist()
        states = list(_random_game(game, picks))
        final = states[-1]
        assert len(states) - 1 <= game.spec[S_MAX_PLIES]
        assert final[H_WINNER] in (0, 1, 2)
        for before, after in zip(states, states[1:]):
            assert after[H_PLY] == before[H_PLY] + 1
            assert after[H_TO_MOVE] == 1 - before[H_TO_MOVE]
        for state in states:
            assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_legal_move_can_be_played_and_codes_are_in_range(name):
    game = make_game(name, 5)
    for state in _random_game(game, list(range(7, 400, 13))):
        legal = game.legal_moves(state)
        assert np.array_equal(legal, game.legal_moves(state)), "legal move order must be deterministic"
        assert len(set(legal.tolist())) == legal.size <= game.max_moves
        codes = [game.move_code(state, m) for m in legal]
        context_codes = [game.move_code(state, m, with_context=True) for m in legal]
        assert all(0 <= c < game.num_codes() for c in codes)
        assert all(0 <= c < game.num_codes(True) for c in context_codes)
        assert len(set(codes)) == len(codes) and len(set(context_codes)) == len(context_codes)
        for move in legal:
            child = game.play(state, int(move))
            assert child[H_PLY] == state[H_PLY] + 1
        if legal.size:
            with pytest.raises(ValueError, match="not legal"):
                game.play(state, 10_000)


@pytest.mark.parametrize("normal,misere", [("breakthrough", "misere_breakthrough"),
                                           ("knightthrough", "misere_knightthrough"),
                                           ("domineering", "misere_domineering"), ("nogo", "misere_nogo")])
def test_misere_has_the_same_positions_and_the_inverted_result(normal, misere):
    for seed in range(10):
        picks = np.random.default_rng(seed).integers(0, 1 << 30, size=200).tolist()
        a = list(_random_game(make_game(normal, 6), picks))
        b = list(_random_game(make_game(misere, 6), picks))
        assert len(a) == len(b)
        assert a[-1][H_WINNER] == 1 - b[-1][H_WINNER]


@pytest.mark.parametrize("key", sorted(PERFT))
def test_perft_regression(key):
    name, size = key.split("/")
    game = make_game(name, int(size))
    counts = PERFT[key]
    assert [perft_count(game, d) for d in range(len(counts))] == counts


def test_breakthrough_perft_matches_the_published_sequence():
    """Breakthrough 8x8 perft as published in the literature (and by OpenSpiel): 22, 484, 11132, 256036."""
    assert PERFT["breakthrough/8"][:5] == [1, 22, 484, 11132, 256036]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(list(GAMES)), size=st.integers(4, 9),
       picks=st.lists(st.integers(0, 10_000), max_size=120))
def test_property_any_move_sequence_keeps_hash_and_result_consistent(name, size, picks):
    game = make_game(name, size)
    for state in _random_game(game, picks):
        assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)
        assert state[H_WINNER] == ONGOING or game.legal_moves(state).size == 0


def test_transpositions_share_a_hash_and_side_to_move_matters():
    game = make_game("domineering", 5)
    s = game.initial_state()
    a = game.play(game.play(game.play(s, 0), 2), 10)   # v@0, h@2, v@10
    b = game.play(game.play(game.play(s, 10), 2), 0)   # v@10, h@2, v@0
    assert game.hash(a) == game.hash(b)
    assert game.hash(game.play(s, 0)) != game.hash(game.play(s, 1))


def test_go_captures_ko_eyes_and_scoring():
    game = make_game("go", 5)
    s = game.initial_state()
    # Black a2, White a1?  Build a capture: W at a1 (cell 0), B at b1 (1) and a2 (5).
    s = game.play(s, 1)    # B b1
    s = game.play(s, 0)    # W a1
    s = game.play(s, 5)    # B a2 captures a1
    assert game.render(s).splitlines()[-1].startswith(".x")
    assert 0 not in set(game.legal_moves(s).tolist())  # a1 is now suicide for White
    # Black never fills its own eye at a1 (neighbours b1, a2 black, diagonal b2 empty).
    s2 = game.play(s, 24)  # W e5
    assert 0 not in set(game.legal_moves(s2).tolist())


def test_atarigo_first_capture_wins_and_nogo_forbids_it():
    for name, expect_over in (("atarigo", True), ("nogo", False)):
        game = make_game(name, 5)
        s = game.initial_state()
        s = game.play(s, 1)    # B b1
        s = game.play(s, 0)    # W a1 (in atari)
        legal = set(game.legal_moves(s).tolist())
        if expect_over:
            s = game.play(s, 5)  # B a2 captures
            assert game.winner(s) == 0
        else:
            assert 5 not in legal  # capturing is illegal in Nogo


@pytest.mark.parametrize("name,size", [("go", 6), ("nogo", 6), ("atarigo", 6), ("breakthrough", 6),
                                       ("breakthrough", 9), ("knightthrough", 6), ("domineering", 6)])
def test_random_move_is_uniform_over_exactly_the_legal_moves(name, size):
    """Chi-square goodness of fit of 30,000 draws against the uniform law on legal_moves, mid-game
    (Breakthrough 9x9 exercises the cell-by-cell engine, 6x6 the bitboard one)."""
    from scipy.stats import chisquare

    from ppalib._rng import make_rng
    game = make_game(name, size)
    state = list(_random_game(game, list(range(3, 60, 7))))[8]  # the position after 8 plies
    legal = game.legal_moves(state)
    assert legal.size > 5
    rng, out = make_rng(11), np.empty(game.max_moves, dtype=np.int64)
    draws = [int(game.module.random_move(game.spec, state, rng, out)) for _ in range(30_000)]
    assert set(draws) <= set(legal.tolist())
    counts = [draws.count(int(m)) for m in legal]
    assert chisquare(counts).pvalue > 1e-3


def test_random_move_reports_the_end_of_the_game():
    game = make_game("nogo", 5)
    state = list(_random_game(game, [0] * 100))[-1]
    from ppalib._rng import make_rng
    assert game.module.random_move(game.spec, state, make_rng(0), np.empty(game.max_moves, dtype=np.int64)) == -1


@pytest.mark.parametrize("name", ["breakthrough", "misere_breakthrough", "knightthrough"])
@pytest.mark.parametrize("size", [4, 5, 8])
def test_breakthrough_bitboards_match_the_board_and_the_cell_by_cell_engine(name, size):
    """At <= 64 cells the Breakthrough family generates moves from bitboards: after every move of random games
    the bitboards equal the board, and the move list equals the cell-by-cell engine's (used above 64 cells)."""
    from ppalib.games._common import H_BOARD
    game = make_game(name, size)
    module, cells = game.module, size * size
    rng = np.random.default_rng(size)
    out = np.empty(game.max_moves, dtype=np.int64)
    for _ in range(20):
        for state in _random_game(game, rng.integers(0, 1000, size=200).tolist()):
            board = state[H_BOARD:H_BOARD + cells]
            for player in (0, 1):
                bits = int(np.uint64(state[H_BOARD + cells + player].astype(np.uint64)))
                assert bits == sum(1 << c for c in range(cells) if board[c] == player + 1)
            if game.is_over(state):
                break
            scanned = out[:module._legal_moves_scan(game.spec, state.copy(), out)].tolist()
            assert game.legal_moves(state).tolist() == scanned


@pytest.mark.parametrize("name", ["domineering", "misere_domineering"])
@pytest.mark.parametrize("size", [2, 5, 8])
def test_domineering_bitboard_matches_the_board_and_the_rules(name, size):
    """At <= 64 cells Domineering lists moves from an occupied bitboard: after every move of random games the
    bitboard equals the board, and the list equals the anchors whose two cells are empty, read off the board."""
    from ppalib.games._common import H_BOARD
    game = make_game(name, size)
    cells = size * size
    rng = np.random.default_rng(size)
    for _ in range(20):
        for state in _random_game(game, rng.integers(0, 1000, size=100).tolist()):
            board = state[H_BOARD:H_BOARD + cells]
            bits = int(np.uint64(state[H_BOARD + cells].astype(np.uint64)))
            assert bits == sum(1 << c for c in range(cells) if board[c])
            if game.is_over(state):
                break
            vertical = game.to_move(state) == 0
            expected = [c for c in range(cells)
                        if (c // size < size - 1 if vertical else c % size < size - 1)
                        and not board[c] and not board[c + (size if vertical else 1)]]
            assert game.legal_moves(state).tolist() == expected
