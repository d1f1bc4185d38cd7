"""Hex, Connect Four, Gomoku and Othello: perft regression, hand-built positions for each rule, both engines of
Othello, the ply cap, uniform random moves, board graphs, and every agent kind on each game.
(The conformance checks of tests/test_games.py run on these games too; OpenSpiel: test_openspiel_new_games.py.)"""
import json
from pathlib import Path

import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.agents import perft_count
from ppalib.games import make_game
from ppalib.games._common import DRAW, H_BOARD, H_PLY, H_TO_MOVE, H_WINNER, ONGOING, S_PLY_CAP, S_TABLES

NEW_GAMES = ["hex", "connect_four", "gomoku", "othello"]
PAPER_SIZES = {"hex": 11, "connect_four": 7, "gomoku": 15, "othello": 8}
PERFT = json.loads((Path(__file__).parent / "data" / "perft_new_games_a.json").read_text())["counts"]


def _game_of_key(key):
    name, size, *options = key.split("/")
    return make_game(name, int(size), **{k: int(v) for k, v in (o.split("=") for o in options)})


@pytest.mark.parametrize("key", sorted(PERFT))
def test_perft_regression(key):
    counts = PERFT[key]
    assert [perft_count(_game_of_key(key), d) for d in range(len(counts))] == counts


def test_perft_matches_the_published_sequences():
    """Connect Four 6x7 (OEIS A212693) and Othello 8x8 (the published perft table)."""
    assert PERFT["connect_four/7"] == [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572]
    assert PERFT["othello/8"] == [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


def _play(game, moves, state=None):
    state = game.initial_state() if state is None else state
    for move in moves:
        assert game.winner(state) is None, game.render(state)
        state = game.play(state, move)
    return state


# ---- Hex ------------------------------------------------------------------------------------------------------
def _hex_interleave(mine, theirs):
    """Moves alternating ``mine`` (the first player's) and ``theirs``."""
    out = []
    for i, cell in enumerate(mine):
        out.append(cell)
        if i < len(theirs):
            out.append(theirs[i])
    return out


def test_hex_player_0_wins_by_joining_rows_0_and_6_on_7x7():
    game = make_game("hex", 7)
    chain = [r * 7 + 3 for r in range(7)]                  # column d, rows 1..7
    elsewhere = [r * 7 + 0 for r in range(6)]              # player 1 in column a, never a full row
    state = _play(game, _hex_interleave(chain[:-1], elsewhere))
    assert game.winner(state) is None
    state = game.play(state, chain[-1])
    assert game.winner(state) == 0 and game.legal_moves(state).size == 0


def test_hex_player_1_wins_by_joining_columns_0_and_6_along_a_zigzag():
    """Cells (r, c) and (r + 1, c - 1) touch in Hex: a chain stepping up-left every column wins for player 1."""
    game = make_game("hex", 7)
    chain = [(6 - c // 2) * 7 + c if c % 2 == 0 else (6 - c // 2 - 1) * 7 + c for c in range(7)]
    # (6,0) (5,1) (5,2) (4,3) (4,4) (3,5) (3,6): each step is (r-1, c+1) or (r, c+1), both neighbours
    first = [0 * 7 + c for c in range(7)]                  # player 0 on row 0 only: never joins row 6
    state = _play(game, _hex_interleave(first, chain[:-1]))
    assert game.winner(state) is None
    state = game.play(state, chain[-1])
    assert game.winner(state) == 1


def test_hex_cells_touching_only_at_a_corner_do_not_connect():
    """(r, c) and (r + 1, c + 1) are not neighbours on the rhombus: the main diagonal is no chain."""
    game = make_game("hex", 5)
    diagonal = [i * 5 + i for i in range(5)]
    state = _play(game, _hex_interleave(diagonal, [4, 9, 14, 19]))
    assert game.winner(state) is None


def test_hex_swap_mirrors_the_first_stone_and_is_offered_once():
    game = make_game("hex", 7, swap=1)
    swap = 49
    assert swap not in game.legal_moves(game.initial_state())
    state = game.play(game.initial_state(), 1 * 7 + 4)      # player 0 on (1, 4)
    assert game.legal_moves(state)[-1] == swap
    state = game.play(state, swap)
    assert state[H_TO_MOVE] == 0 and state[H_PLY] == 2
    assert game.module.cell_owner(game.spec, state, 4 * 7 + 1) == 1    # now player 1's stone on (4, 1)
    assert game.module.cell_owner(game.spec, state, 1 * 7 + 4) == -1
    assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)
    assert swap not in game.legal_moves(state) and game.legal_moves(state).size == 48
    assert game.module.move_to(game.spec, state, swap) == -1 and game.move_to_str(state, swap) == "swap"
    plain = make_game("hex", 7)
    assert swap not in plain.legal_moves(plain.play(plain.initial_state(), 11))


def test_hex_swap_of_a_diagonal_stone_recolours_it_in_place():
    game = make_game("hex", 5, swap=1)
    state = game.play(game.play(game.initial_state(), 12), 25)   # (2, 2), then swap
    assert game.module.cell_owner(game.spec, state, 12) == 1 and game.legal_moves(state).size == 24


def test_hex_context_code_reads_the_six_neighbours_and_edges_as_their_owners_stones():
    """Recomputed from the board graph: digit k (base 3) of the pattern is neighbour k in clockwise order; an
    off-board neighbour is a friend if its row is off the board and the mover is player 0, or its column is off
    the board (and the row is not) and the mover is player 1, else an enemy."""
    game = make_game("hex", 5)
    graph = game.module.board_graph(game.spec)
    steps = [next(graph.coords[graph.orthos[c, k]] - graph.coords[c] for c in range(25) if graph.orthos[c, k] >= 0)
             for k in range(6)]
    state = _random_game(game, 8)[0][7]
    for player in (0, 1):
        state = state.copy()
        state[H_TO_MOVE] = player
        for cell in game.legal_moves(state):
            pattern = game.move_code(state, cell, with_context=True) - 729 * game.move_code(state, cell)
            for k in range(6):
                q = graph.orthos[cell, k]
                if q >= 0:
                    owner = game.module.cell_owner(game.spec, state, q)
                    expected = 0 if owner < 0 else (1 if owner == player else 2)
                else:
                    x, y = graph.coords[cell] + steps[k]
                    r = round(y / (np.sqrt(3) / 2))
                    edge_owner = 0 if not 0 <= r < 5 else 1
                    expected = 1 if edge_owner == player else 2
                assert (pattern // 3 ** k) % 3 == expected


# ---- Connect Four -------------------------------------------------------------------------------------------------
def test_connect_four_a_full_board_without_four_in_a_row_is_a_draw():
    """Row r, column c holds x when (c // 2 + r) is even: at most two alike along any line; filled row by row."""
    game = make_game("connect_four", 7)
    moves = []
    for r in range(6):
        xs = [c for c in range(7) if (c // 2 + r) % 2 == 0]
        os_ = [c for c in range(7) if (c // 2 + r) % 2 == 1]
        first, second = (xs, os_) if len(moves) % 2 == 0 else (os_, xs)
        moves += [col for pair in zip(first, second) for col in pair] + first[len(second):]
    state = _play(game, moves[:-1])
    assert game.winner(state) is None and game.legal_moves(state).tolist() == [moves[-1]]
    state = game.play(state, moves[-1])
    assert game.winner(state) == DRAW and state[H_PLY] == 42


@pytest.mark.parametrize("moves,winner", [
    ([0, 1, 0, 1, 0, 1, 0], 0),                          # vertical
    ([0, 0, 1, 1, 2, 2, 3], 0),                          # horizontal
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0),              # diagonal /
    ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], 0),              # diagonal \
    ([6, 0, 6, 1, 5, 2, 4, 3], 1),                       # player 1, horizontal
])
def test_connect_four_lines(moves, winner):
    game = make_game("connect_four", 7)
    state = _play(game, moves[:-1])
    assert game.winner(state) is None
    assert game.winner(game.play(state, moves[-1])) == winner


def test_connect_four_full_columns_and_landing_cells():
    game = make_game("connect_four", 7)
    state = _play(game, [3] * 6)
    assert 3 not in game.legal_moves(state).tolist() and game.legal_moves(state).size == 6
    assert game.module.move_to(game.spec, state, 2) == 2
    state = game.play(state, 2)
    assert game.module.move_to(game.spec, state, 2) == 7 + 2
    assert game.module.move_from(game.spec, state, 2) == -1
    assert game.module.cell_owner(game.spec, state, 5 * 7 + 3) == 1 and game.module.cell_owner(game.spec, state, 2) == 0


# ---- Gomoku ---------------------------------------------------------------------------------------------------------
def _gomoku(game, black, white=None):
    """Black plays ``black`` in order while White answers far away (row 14, columns spread out); Black to move."""
    white = white or [14 * 15 + c for c in (0, 2, 4, 6, 8, 10, 12, 14)]
    return _play(game, _hex_interleave(black, white))


def test_gomoku_exactly_five_wins_and_an_overline_does_not():
    row = [7 * 15 + c for c in (2, 3, 5, 6, 7)]            # c3 d3 . f3 g3 h3, then e3 makes six
    for overline_wins, expected in ((0, None), (1, 0)):
        game = make_game("gomoku", 15, overline_wins=overline_wins)
        state = game.play(_gomoku(game, row), 7 * 15 + 4)
        assert game.winner(state) == expected
    game = make_game("gomoku", 15)
    state = _gomoku(game, [7 * 15 + c for c in (2, 3, 4, 5)])
    assert game.winner(game.play(state, 7 * 15 + 6)) == 0   # exactly five


@pytest.mark.parametrize("step", [1, 15, 16, 14])          # row, column, both diagonals
def test_gomoku_five_in_every_direction(step):
    game = make_game("gomoku", 15)
    start = 5 * 15 + 5
    state = _gomoku(game, [start + i * step for i in range(4)])
    assert game.winner(game.play(state, start + 4 * step)) == 0


def test_gomoku_a_five_wins_even_when_another_line_of_the_same_stone_is_an_overline():
    game = make_game("gomoku", 15)
    horizontal = [7 * 15 + c for c in (1, 2, 3, 5, 6)]     # the stone on (7, 4) makes six horizontally
    vertical = [r * 15 + 4 for r in (3, 4, 5, 6)]          # and exactly five vertically
    state = _gomoku(game, horizontal + vertical, [13 * 15 + c for c in range(0, 15, 2)] + [11 * 15 + 0])
    assert game.winner(state) is None
    assert game.winner(game.play(state, 7 * 15 + 4)) == 0


# ---- Othello --------------------------------------------------------------------------------------------------------
def _othello_position(cells, to_move, n=8):
    """A position from ``{cell: 1 black | 2 white}`` (cells in our numbering) with ``to_move`` to play."""
    game = make_game("othello", n)
    state = game.initial_state()
    state[H_BOARD:H_BOARD + n * n] = 0
    for cell, v in cells.items():
        state[H_BOARD + cell] = v
    state[H_TO_MOVE] = to_move
    return game, game.refresh(state)


def test_othello_start_and_first_moves_in_standard_coordinates():
    game = make_game("othello", 8)
    state = game.initial_state()
    assert [game.move_to_str(state, m) for m in game.legal_moves(state)] == ["e6", "f5", "c4", "d3"]
    assert game.render(state).splitlines()[3:5] == ["...ox...", "...xo..."]


def test_othello_pass_is_the_only_move_when_only_the_opponent_can_move_then_the_game_ends():
    a1, b1, c1 = 56, 57, 58   # the top-left corner and its right neighbours (rank 1 is our row 7)
    game, state = _othello_position({a1: 1, b1: 2}, to_move=1)
    assert game.legal_moves(state).tolist() == [64]           # White cannot bracket the corner: pass
    state = game.play(state, 64)
    assert state[H_TO_MOVE] == 0 and game.legal_moves(state).tolist() == [c1]
    assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)
    state = game.play(state, c1)                              # flips b1: White has no disc left
    assert game.module.cell_owner(game.spec, state, b1) == 0
    assert game.legal_moves(state).size == 0 and game.winner(state) == 0


def test_othello_neither_player_can_move_equal_discs_is_a_draw():
    game, state = _othello_position({56: 1, 7: 2}, to_move=0)
    assert game.legal_moves(state).size == 0 and game.winner(state) == DRAW


def test_othello_a_full_board_ends_the_game_on_the_last_move():
    game = make_game("othello", 4)
    state = game.initial_state()
    rng = np.random.default_rng(3)
    while game.winner(state) is None:
        legal = game.legal_moves(state)
        state = game.play(state, int(legal[rng.integers(legal.size)]))
    full = (state[H_BOARD:H_BOARD + 16] != 0).all()
    counts = [(state[H_BOARD:H_BOARD + 16] == v).sum() for v in (1, 2)]
    assert game.winner(state) == (DRAW if counts[0] == counts[1] else int(counts[1] > counts[0]))
    assert full or game.legal_moves(state).size == 0


@pytest.mark.parametrize("size", [4, 6, 8])
def test_othello_bitboard_and_cell_by_cell_engines_agree(size):
    """At <= 64 cells Othello runs on bitboards; the cell-by-cell engine (used above 64 cells) must list the same
    moves and flip the same discs along random games, and the bitboards must equal the board."""
    game = make_game("othello", size)
    scan_spec = game.spec.copy()
    scan_spec[scan_spec[S_TABLES]] = 0    # T_BITBOARD = 0: the cell-by-cell engine
    module, cells = game.module, size * size
    out = np.empty(cells, dtype=np.int64)
    rng = np.random.default_rng(size)
    for _ in range(20):
        state = game.initial_state()
        scan = state.copy()
        while True:
            for player in (0, 1):
                bits = int(np.uint64(state[H_BOARD + cells + player].astype(np.uint64)))
                assert bits == sum(1 << c for c in range(cells) if state[H_BOARD + c] == player + 1)
            legal = game.legal_moves(state)
            assert legal.tolist() == out[:module.legal_moves(scan_spec, scan, out)].tolist()
            if legal.size == 0:
                assert scan[H_WINNER] == state[H_WINNER] != ONGOING
                break
            move = int(legal[rng.integers(legal.size)])
            module.play(game.spec, state, move)
            module.play(scan_spec, scan, move)
            assert (scan[:H_BOARD + cells] == state[:H_BOARD + cells]).all()


# ---- every game ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,size", [("gomoku", 7), ("connect_four", 7), ("othello", 8)])
def test_context_code_reads_the_board_graphs_neighbours_as_empty_own_enemy_or_off(name, size):
    """Recomputed from the board graph: digit k (base 4) of the pattern is the cell's neighbour k in the graph's
    order: 0 empty, 1 the mover's stone, 2 the opponent's, 3 off the board (the cell: where the stone lands)."""
    game = make_game(name, size)
    module = game.module
    graph = module.board_graph(game.spec)
    checked = 0
    for seed in range(3):
        for state in _random_game(game, seed)[0][:-1]:
            player = int(state[H_TO_MOVE])
            for move in game.legal_moves(state):
                cell = module.move_to(game.spec, state, move)
                if cell < 0 or cell >= graph.orthos.shape[0]:
                    continue  # a pass
                pattern = game.move_code(state, move, with_context=True) - 256 * game.move_code(state, move)
                for k in range(module.DIRECTIONS):
                    q = graph.orthos[cell, k]
                    owner = module.cell_owner(game.spec, state, q) if q >= 0 else None
                    expected = 3 if q < 0 else 0 if owner < 0 else 1 if owner == player else 2
                    assert (pattern // 4 ** k) % 4 == expected, (name, cell, k)
                checked += 1
    assert checked > 100


def _random_game(game, seed):
    """The states and the moves of a uniformly random game."""
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    states, moves = [state], []
    while game.winner(state) is None:
        legal = game.legal_moves(state)
        moves.append(int(legal[rng.integers(legal.size)]))
        state = game.play(state, moves[-1])
        states.append(state)
    return states, moves


@pytest.mark.parametrize("name", NEW_GAMES)
def test_the_ply_cap_ends_the_game_in_a_draw(name):
    game = make_game(name, 8 if name != "gomoku" else 9, ply_cap=10)
    uncapped = make_game(name, game.size)
    assert game.spec[S_PLY_CAP] == 10
    capped_draws = 0
    for seed in range(10):
        states, moves = _random_game(game, seed)
        assert states[-1][H_PLY] <= 10
        rules = uncapped.winner(_play(uncapped, moves))  # the same moves without the cap
        if rules is None:  # not over by the rules: the cap made it a draw
            assert states[-1][H_PLY] == 10 and game.winner(states[-1]) == DRAW
            capped_draws += 1
        else:
            assert game.winner(states[-1]) == rules
    assert capped_draws > 5


@pytest.mark.parametrize("name,size", [("hex", 5), ("connect_four", 5), ("gomoku", 6), ("othello", 4)])
def test_a_ply_cap_on_the_last_ply_keeps_the_real_result(name, size):
    """Capping a finished game at its own length changes nothing (the game was over by the rules)."""
    game = make_game(name, size)
    for seed in range(10):
        states, moves = _random_game(game, seed)
        capped = make_game(name, size, ply_cap=len(moves))
        assert capped.winner(_play(capped, moves)) == game.winner(states[-1])


@pytest.mark.parametrize("name", NEW_GAMES)
def test_random_playouts_end_and_both_colours_win_sometimes(name):
    from ppalib.agents import kernels_for
    game = make_game(name, PAPER_SIZES[name])
    kernel = kernels_for(game).playout
    rng = make_rng(5)
    results = [int(kernel.random_playout(game.spec, game.initial_state(), rng)[0]) for _ in range(300)]
    assert results.count(0) > 30 and results.count(1) > 30, results


@pytest.mark.parametrize("name,size,options,plies", [("hex", 7, {}, 9), ("hex", 5, {"swap": 1}, 1),
                                                     ("connect_four", 7, {}, 5), ("gomoku", 9, {}, 7),
                                                     ("othello", 8, {}, 9)])
def test_random_move_is_uniform_over_exactly_the_legal_moves(name, size, options, plies):
    from scipy.stats import chisquare
    game = make_game(name, size, **options)
    state = _random_game(game, 1)[0][plies]
    legal = game.legal_moves(state)
    assert legal.size > 5
    rng, out = make_rng(11), np.empty(game.max_moves, dtype=np.int64)
    draws = [int(game.module.random_move(game.spec, state, rng, out)) for _ in range(20_000)]
    assert set(draws) <= set(legal.tolist())
    assert chisquare([draws.count(int(m)) for m in legal]).pvalue > 1e-3


@pytest.mark.parametrize("name", NEW_GAMES)
def test_board_graph_cells_owners_and_move_cells(name):
    game = make_game(name, PAPER_SIZES[name] if name != "gomoku" else 9)
    graph = game.module.board_graph(game.spec)
    module, spec = game.module, game.spec
    assert graph.cells == spec[2] and graph.directions == (6 if name == "hex" else 4)
    cols = game.size
    for cell in range(graph.cells):   # cell r * cols + c is drawn in row r (y up) and column c
        r, c = divmod(cell, cols)
        y = graph.coords[cell, 1] / (np.sqrt(3) / 2 if name == "hex" else 1)
        assert round(y) == r and round(graph.coords[cell, 0] - (0.5 * r if name == "hex" else 0)) == c
    for state in _random_game(game, 2)[0][::5]:
        board = state[H_BOARD:H_BOARD + graph.cells]
        assert [module.cell_owner(spec, state, c) for c in range(graph.cells)] == (board - 1).tolist()
        for move in game.legal_moves(state):
            assert module.move_from(spec, state, move) == -1
            to = module.move_to(spec, state, move)
            if to >= 0:
                assert board[to] == 0 and (name == "connect_four" or to == move)
            child = game.play(state, move)
            if to >= 0:
                assert module.cell_owner(spec, child, to) == state[H_TO_MOVE]


@pytest.mark.parametrize("name,size", [("hex", 7), ("connect_four", 7), ("gomoku", 9), ("othello", 8)])
def test_every_agent_kind_plays_each_new_game(name, size, tmp_path, monkeypatch):
    import numpy as np
    from ppalib.agents import AGENT_KINDS, make_agent, search
    from ppalib.features.artefact import LinearPolicy
    from ppalib.training.selfplay import initial_feature_set
    game = make_game(name, size)
    state = _random_game(game, 4)[0][6]
    legal = set(game.legal_moves(state).tolist())
    feature_set = initial_feature_set(game)  # a feature policy for the kinds that take one (random weights)
    policy = LinearPolicy.from_set(game, feature_set, np.random.default_rng(0).normal(size=len(feature_set)))
    policy.save(tmp_path)
    monkeypatch.setenv("PPALIB_POLICY_PATH", str(tmp_path))
    for kind in AGENT_KINDS:
        if kind != "greedy":  # greedy has no default: it needs a policy
            assert int(search(game, state, make_agent(kind, 200), make_rng(1))) in legal
        if kind in ("puct", "greedy"):
            agent = make_agent(kind, 200, policy=policy.content_hash)
            assert int(search(game, state, agent, make_rng(1))) in legal


def test_a_short_match_of_uct_against_uct(tmp_path):
    from ppalib.agents import make_agent
    from ppalib.experiments import Condition, Experiment, run
    conditions = [Condition(name, size, make_agent("uct", 30), make_agent("uct", 30))
                  for name, size in (("hex", 5), ("connect_four", 5), ("gomoku", 7), ("othello", 6))]
    frame = run(Experiment("new-games", conditions, 2, 7, str(tmp_path)), "serial", progress=False)
    assert len(frame) == 8 and frame["agent_result"].between(0, 1).all()
