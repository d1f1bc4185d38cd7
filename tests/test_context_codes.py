"""PPAF/MASTF move codes with context (Cazenave 2016, section 3) on hand-made positions."""
from ppalib.games import make_game
from ppalib.games._common import H_BOARD, H_TO_MOVE


def _set(game, state, cells):
    for cell, value in cells.items():
        state[H_BOARD + cell] = value
    return game.refresh(state)


def test_breakthrough_context_code_is_the_capture_bit():
    game = make_game("breakthrough", 5)
    s = game.initial_state()
    s = _set(game, s, {2 * 5 + 1: 2})  # an o pawn at b3, diagonally in front of the x pawns at a2 and c2
    captures = {game.move_to_str(s, m): game.move_code(s, m, True) for m in game.legal_moves(s)}
    for name, code in captures.items():
        plain = game.move_code(s, game.legal_moves(s)[list(captures).index(name)])
        assert code == 2 * plain + (1 if "x" in name else 0)
    assert {"a2xb3", "c2xb3"} <= set(captures)


def test_knightthrough_context_code_is_the_capture_bit():
    game = make_game("knightthrough", 6)
    s = _set(game, game.initial_state(), {2 * 6 + 2: 2})  # an o knight on c3, reachable from a2, b1, d1, e2
    moves = game.legal_moves(s)
    bits = {game.move_to_str(s, m): game.move_code(s, m, True) % 2 for m in moves}
    assert bits["a2xc3"] == bits["b1xc3"] == bits["d1xc3"] == bits["e2xc3"] == 1
    assert sum(bits.values()) == 4


def test_domineering_context_code_marks_the_six_side_cells_with_the_edge_as_occupied():
    game = make_game("domineering", 4)
    s = game.initial_state()
    # Vertical domino at b1-b2 (anchor cell 1): side cells b0 (off: 1), b3 (empty: 0), a1, c1, a2, c2.
    s = _set(game, s, {0: 1, 6: 1})  # a1 and c2 occupied
    code = game.move_code(s, 1, True)
    assert code // 64 == game.move_code(s, 1)
    bits = code % 64
    # bit 0: below (off board) = 1; bit 1: above b3 = 0; bit 2: a1 = 1; bit 3: c1 = 0; bit 4: a2 = 0; bit 5: c2 = 1
    assert bits == 0b100101
    # Horizontal (player 1) domino at c4-d4 (anchor 14): left b4 empty, right off board, below c3/d3, above off.
    s[H_TO_MOVE] = 1
    bits = game.move_code(s, 14, True) % 64
    assert bits == (0 | 1 << 1 | 0 << 2 | 1 << 3 | 0 << 4 | 1 << 5)


def test_go_family_context_code_is_the_four_neighbour_pattern_relative_to_the_mover():
    for name in ("atarigo", "nogo"):
        game = make_game(name, 5)
        s = game.initial_state()
        s = game.play(s, 6)   # B b2
        s = game.play(s, 8)   # W d2
        s = game.play(s, 12)  # B c3
        s = game.play(s, 0)   # W a1
        # Black to move at c2 (cell 7): west b2 own (1), east d2 enemy (2), south c1 empty (0), north c3 own (1).
        assert game.move_code(s, 7, True) % 256 == 1 + 4 * 2 + 16 * 0 + 64 * 1
        # Corner a5 (cell 20): west off (3), east b5 empty, south a4 empty, north off (3).
        assert game.move_code(s, 20, True) % 256 == 3 + 64 * 3
        s = game.play(s, 7)
        # White to move at c1 (cell 2): west b1 empty, east d1 empty, south off (3), north c2 enemy (2).
        assert game.move_code(s, 2, True) % 256 == 16 * 3 + 64 * 2
        assert game.move_code(s, 2, True) // 256 == game.move_code(s, 2)


def test_domineering_bitboard_context_bits_equal_the_cell_by_cell_reads_in_random_games():
    """The bitboard engine's context bits (``_context_bits_bitboard``, boards of at most 64 cells) against the
    cell-by-cell reads (``_context_bits_cells``, which larger boards use): every free anchor of both players in
    every position of 40 random games a size, 2x2 to 8x8 (the edges, the corners and the 8x8 board's top bits)."""
    import numpy as np
    from ppalib.games import domineering
    checked = 0
    for size in range(2, 9):
        game = make_game("domineering", size)
        spec = game.spec
        rng = np.random.default_rng(size)
        for _ in range(40):
            state = game.initial_state()
            while True:
                for player in (0, 1):
                    for anchor in range(size * size):
                        if domineering.slot_code(spec, state, anchor, player, False) < 0:
                            continue
                        assert (domineering._context_bits_bitboard(spec, state, anchor, player)
                                == domineering._context_bits_cells(spec, state, anchor, player)), (size, anchor)
                        checked += 1
                moves = game.legal_moves(state)
                if len(moves) == 0:
                    break
                state = game.play(state, moves[int(rng.integers(len(moves)))])
    assert checked > 20_000
