"""Conformance: every registered game passes the same checks through the same interface (pgx style)."""
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ppalib.agents import perft_count
from ppalib.games import GAMES, contract, make_game
from ppalib.games._common import DRAW, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_CELLS, S_MAX_PLIES, S_PLY_CAP

PERFT_DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
PERFT = PERFT_DATA["counts"]
SIZES = [5, 8]
_make_game = make_game


def make_game(name, size, **options):  # noqa: F811  (the tests below ask for sizes some games do not have)
    """The game at the allowed size nearest ``size``: within the rule's range, and even for Othello."""
    rule = GAMES[name]
    size = min(max(size, rule.min_size), rule.max_size)
    return _make_game(name, size + (size % 2 if name == "othello" else 0), **options)


# Games where a player may move several times in a row (a capture chain): every other game alternates.
MOVES_AGAIN = {"fanorona"}


def _sizes(rule, wanted=SIZES):
    """The sizes of ``wanted`` the game allows, or its smallest size (fixed-board games)."""
    return [s for s in wanted if rule.min_size <= s <= rule.max_size] or [rule.min_size]


def _has_board(rule):
    try:
        rule.module.board_graph(make_game(rule.name, _sizes(rule)[0]).spec)
    except ValueError:
        return False
    return True


BOARD_GAMES = [name for name, rule in GAMES.items() if _has_board(rule)]


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


@pytest.mark.parametrize("name,size", [(name, size) for name, rule in GAMES.items() for size in _sizes(rule)])
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
            assert after[H_TO_MOVE] in (0, 1)
            if name not in MOVES_AGAIN:
                assert after[H_TO_MOVE] == 1 - before[H_TO_MOVE]
        for state in states:
            assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_legal_move_can_be_played_and_codes_are_in_range(name):
    game = make_game(name, _sizes(GAMES[name], [5])[0])
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


def _perft_game(key):
    """The game of a perft key ``game/size`` or ``game/size/option=value[,option=value]``."""
    name, size, *rest = key.split("/")
    options = dict((k, int(v)) for k, v in (item.split("=") for item in rest[0].split(","))) if rest else {}
    return make_game(name, int(size), **options)


@pytest.mark.parametrize("key", sorted(PERFT))
def test_perft_regression(key):
    game = _perft_game(key)
    counts = PERFT[key]
    assert [perft_count(game, d) for d in range(len(counts))] == counts


@pytest.mark.parametrize("key", sorted(PERFT_DATA["from_moves"]))
def test_perft_regression_from_a_position(key):
    """Perft from a position after a given move sequence (``move_to_str`` text), where perft from the start cannot
    reach: Teeko's movement phase, Yavalath's lines of three and four, Fanorona's middle game."""
    game = _perft_game(key)
    entry = PERFT_DATA["from_moves"][key]
    state = game.initial_state()
    for text in entry["moves"]:
        state = game.play(state, {game.move_to_str(state, m): int(m) for m in game.legal_moves(state)}[text])
    assert [perft_count(game, d, state) for d in range(len(entry["counts"]))] == entry["counts"]


def test_breakthrough_perft_matches_the_published_sequence():
    """Breakthrough 8x8 perft as published in the literature (and by OpenSpiel): 22, 484, 11132, 256036."""
    assert PERFT["breakthrough/8"][:5] == [1, 22, 484, 11132, 256036]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(list(GAMES)), size=st.integers(4, 9),
       picks=st.lists(st.integers(0, 10_000), max_size=120))
def test_property_any_move_sequence_keeps_hash_and_result_consistent(name, size, picks):
    rule = GAMES[name]
    game = make_game(name, min(max(size, rule.min_size), rule.max_size))
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


@pytest.mark.parametrize("size", [2, 5, 8, 9, 19])
def test_go_area_score_counts_stones_and_empty_points_next_to_one_colour_at_every_position(size):
    """``area_score`` (branch-free since 2026-11-29) against a plain count on the board: stones, plus empty
    points whose on-board neighbours are all of one colour, at every ply of seeded random games to their end."""
    from ppalib.games.go import H_BOARD, _point, area_score
    game = make_game("go", size)
    rng = np.random.default_rng(size)
    positions = 0
    for _ in range(3):
        for state in _random_game(game, rng.integers(0, 1000, size=4 * size * size + 10).tolist()):
            cells = [state[H_BOARD + _point(game.spec, cell)] for cell in range(size * size)]
            board = np.array(cells).reshape(size, size)
            expected = [int((board == 1).sum()), int((board == 2).sum())]
            for r, c in zip(*np.nonzero(board == 0)):
                near = {board[r + dr, c + dc] for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
                        if 0 <= r + dr < size and 0 <= c + dc < size}
                if near in ({1}, {2}):
                    expected[near.pop() - 1] += 1
            assert list(area_score(game.spec, state)) == expected
            positions += 1
    assert positions > 3 * size * size // 2


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


# ---- the contract and spatial-feature functions, the ply cap, results under random play ------------------------
@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_module_defines_the_contract_with_its_parameters(name):
    """Each function of ``games/contract.py``, with the same parameter names (``make_spec``: size, variant, then
    the game's own options)."""
    import inspect
    module = GAMES[name].module
    for function in contract.FUNCTIONS:
        assert hasattr(module, function), f"{module.__name__} lacks {function}"
        ours = getattr(module, function)
        ours = getattr(ours, "py_func", ours)
        theirs = getattr(contract, function)
        names = list(inspect.signature(ours).parameters)
        expected = [p for p in inspect.signature(theirs).parameters if p != "options"]
        assert names[:len(expected)] == expected, f"{module.__name__}.{function}{tuple(names)}"
        if function != "make_spec":
            assert len(names) == len(expected), f"{module.__name__}.{function}{tuple(names)}"


def _render_counts(game, state):
    """Glyph counts of the board lines of ``render`` (lines of board glyphs only; a chain's note line is skipped)."""
    lines = [line for line in game.render(state).splitlines() if line and set(line) <= set(" .xo#")]
    text = "".join(lines)
    return {glyph: text.count(glyph) for glyph in ".xo#"}


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_cell_owner_move_cells_and_board_graph_agree_with_the_board(name):
    """cell_owner is -1/0/1 and agrees with ``render``; move_from/move_to are cells or -1, a moved piece is the
    mover's; the board graph has one row per cell and a symmetric neighbour relation (b is a's neighbour in
    direction k exactly when a is b's in direction k + d/2)."""
    rule = GAMES[name]
    game = make_game(name, _sizes(rule, [5])[0])
    module, spec = game.module, game.spec
    graph = module.board_graph(spec)
    cells, dirs = graph.cells, graph.directions
    assert cells == spec[S_CELLS] and graph.coords.shape == (cells, 2) and dirs in (4, 6)
    orthos = graph.orthos
    assert ((orthos >= -1) & (orthos < cells)).all()
    for a in range(cells):
        for k in range(dirs):
            b = orthos[a, k]
            if b >= 0:
                assert orthos[b, (k + dirs // 2) % dirs] == a
    rng = np.random.default_rng(3)
    for _ in range(5):
        for state in _random_game(game, rng.integers(0, 1 << 30, size=400).tolist()):
            owners = [int(module.cell_owner(spec, state, c)) for c in range(cells)]
            assert set(owners) <= {-1, 0, 1}
            counts = _render_counts(game, state)
            assert counts["."] == owners.count(-1)
            if counts["#"]:
                assert counts["#"] == cells - owners.count(-1)
            else:
                assert (counts["x"], counts["o"]) == (owners.count(0), owners.count(1))
            mover = game.to_move(state)
            for move in game.legal_moves(state):
                source = int(module.move_from(spec, state, move))
                target = int(module.move_to(spec, state, move))
                assert -1 <= source < cells and -1 <= target < cells
                if source >= 0:
                    assert owners[source] == mover and target >= 0 and target != source


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_the_ply_cap_ends_the_game_in_a_draw_at_exactly_the_cap(name):
    """With ``ply_cap=N`` a game is the uncapped game move for move; a move that reaches ply N without ending the
    game by the rules ends it in a draw (``play`` decides: a side left without moves at ply N, which only
    ``legal_moves`` finds, is a draw then).  Without the option the spec has no cap."""
    rule = GAMES[name]
    size = _sizes(rule, [5])[0]
    assert "ply_cap" in rule.options
    free = make_game(name, size)
    module = free.module
    assert free.spec[S_PLY_CAP] == 0
    rng = np.random.default_rng(1)
    capped_seen = 0
    for cap in (1, 2, 7, 12, 30):
        game = make_game(name, size, ply_cap=cap)
        assert game.spec[S_PLY_CAP] == cap
        for _ in range(6):
            state, capped = free.initial_state(), game.initial_state()
            while True:
                legal = game.legal_moves(capped)
                assert np.array_equal(legal, free.legal_moves(state))
                if legal.size == 0:
                    assert game.winner(capped) == free.winner(state)
                    break
                move = int(legal[rng.integers(legal.size)])
                module.play(free.spec, state, move)
                module.play(game.spec, capped, move)
                assert np.array_equal(np.delete(capped, H_WINNER), np.delete(state, H_WINNER))
                if state[H_WINNER] != ONGOING:  # over by the rules with this move: the same result
                    assert capped[H_WINNER] == state[H_WINNER]
                elif state[H_PLY] == cap:
                    assert capped[H_WINNER] == DRAW
                    capped_seen += 1
                    break
                else:
                    assert capped[H_WINNER] == ONGOING
            assert capped[H_PLY] <= cap
    assert capped_seen > 0
    with pytest.raises(ValueError, match="ply_cap"):
        make_game(name, size, ply_cap=-1)


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_both_colours_win_sometimes_under_random_play(name):
    from ppalib._rng import make_rng
    from ppalib.agents import kernels_for
    game = make_game(name, _sizes(GAMES[name], [5])[0])
    kernel = kernels_for(game).playout
    rng, root = make_rng(5), game.initial_state()
    winners = [int(kernel.random_playout(game.spec, root, rng)[0]) for _ in range(300)]
    assert winners.count(0) > 0 and winners.count(1) > 0
