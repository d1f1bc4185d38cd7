"""The bit tricks of the bitboard engines against plain Python."""
import numpy as np
import pytest

from ppalib.games import _bits
from ppalib.games._bits import lowest_cell, popcount

SELECTS = [_bits.nth_cell_broadword] + ([_bits.nth_cell_pdep] if _bits.compiles_for_bmi2() else [])


def _nth_set_bit(x: int, i: int) -> int:
    return [b for b in range(64) if x >> b & 1][i]


def _words():
    rng = np.random.default_rng(25)
    words = [1, 2**63, 2**64 - 1, 0x8000000000000001, 0x0101010101010101, 0xFF00000000000000]
    for count in range(1, 65):  # every population, the bits at random places
        for _ in range(20):
            words.append(sum(1 << int(b) for b in rng.choice(64, count, replace=False)))
    return words


@pytest.mark.parametrize("select", SELECTS, ids=lambda f: f.__name__)
def test_nth_cell_is_the_ith_set_bit_for_every_rank_of_many_words(select):
    for x in _words():
        for i in range(bin(x).count("1")):
            assert select(np.uint64(x), i) == _nth_set_bit(x, i), (hex(x), i)


def test_nth_cell_is_one_of_the_checked_versions():
    assert _bits.nth_cell in SELECTS


def test_popcount_and_lowest_cell():
    rng = np.random.default_rng(7)
    for x in [1, 2**63, 2**64 - 1, *(int(v) for v in rng.integers(1, 2**63, 500, dtype=np.int64))]:
        assert popcount(np.uint64(x)) == bin(x).count("1")
        assert lowest_cell(np.uint64(x)) == _nth_set_bit(x, 0)
