"""UCT's uniform playouts draw the same moves as the code that played the committed games.

The draws of ``random_move`` were made faster without changing one of them (issue 25, item 4: Breakthrough's
direction set chosen without branches and its k-th move found by one ``pdep`` or a broadword select instead of a
loop; Go's legality tests without branches and without testing again the points its rejection tries found illegal).
Every digest below was recorded by code 041b727 (before those changes): 500 seeded random playouts from the start
position, every move and every length.  Checked with 3,000 playouts a case (3.3 million moves) at the change; a
digest that moves means stored games no longer replay (tests/test_replay.py would say which).
"""
import hashlib

import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib._specialise import specialised
from ppalib.games import make_game

RECORDED = [  # game, size, options, plies of the 500 playouts, digest of their moves and lengths (code 041b727)
    ("breakthrough", 5, {}, 7919, "fb6041aceba407bd"),
    ("breakthrough", 8, {}, 31852, "64cf749da1920024"),
    ("misere_breakthrough", 8, {}, 31852, "64cf749da1920024"),
    ("knightthrough", 8, {}, 17156, "13df34690cfac07f"),
    ("knightthrough", 8, {"ggp_rules": 1}, 19203, "c32042c34bfc6308"),
    ("misere_knightthrough", 6, {}, 7008, "90cc90fe1fe9f441"),
    ("domineering", 8, {}, 13902, "79d310dd4f6168e2"),
    ("othello", 8, {}, 30218, "d92de6aceaece695"),
    ("teeko", 5, {}, 188023, "f59d15766c5fce56"),
    ("go", 5, {}, 21148, "f23fe557ec22d4e8"),
    ("go", 8, {}, 45413, "97fd005ed8fd03de"),
    ("go", 9, {}, 55585, "f7ad7907917d0961"),
    ("atarigo", 8, {}, 18585, "17080d324ee86fea"),
    ("nogo", 8, {}, 29181, "a09bcaf01fc1fc48"),
    ("misere_nogo", 7, {}, 22235, "f1edc40b39becaa8"),
]


@pytest.mark.parametrize("name,size,options,plies,digest", RECORDED,
                         ids=[f"{n}-{s}{'-' + str(o) if o else ''}" for n, s, o, _, _ in RECORDED])
def test_uniform_playouts_draw_the_moves_recorded_before_the_speed_ups(name, size, options, plies, digest):
    game = make_game(name, size, **options)
    kernel = specialised(game.module.__name__.rsplit(".", 1)[1]).playout
    played, lengths = kernel.sample_playouts(game.spec, game.initial_state(), make_rng(25, size), 500)
    assert int(lengths.sum()) == plies
    bytes_ = played.astype("<i8").tobytes() + lengths.astype("<i8").tobytes()
    assert hashlib.sha256(bytes_).hexdigest()[:16] == digest


def test_index_of_u64_is_the_float_product_it_replaced_for_every_word_and_bound():
    """``index_of_u64`` multiplies by n * 2**-53 instead of multiplying the uniform float by n (one product fewer
    on the way from the generator to the index): the same integer for edge words and two million random ones,
    for every n a board here draws from."""
    from numba import njit

    from ppalib._rng import float_of_u64, index_of_u64

    @njit
    def both(words, n):
        mismatches = 0
        for word in words:
            literal = np.int64(float_of_u64(word) * n)
            literal = literal if literal < n else n - 1
            mismatches += index_of_u64(word, n) != literal
        return mismatches

    generator = np.random.default_rng(53)
    words = generator.integers(0, 2**64 - 1, size=2_000_000, dtype=np.uint64, endpoint=True)
    edges = np.array([0, 1, 2047, 2048, 2**63, 2**64 - 2048, 2**64 - 1], dtype=np.uint64)
    words = np.concatenate([edges, words])
    for n in [*range(1, 400), 1024, 4096, 2**20 + 1, 2**40 + 3]:
        assert both(words, np.int64(n)) == 0, n
