"""Explicitly seeded random numbers for the numba kernels.

Every random choice in ppalib draws from a ``rng`` array of four ``uint64`` words holding the state of a
xoshiro256** generator (Blackman & Vigna).  The state is passed explicitly into every kernel, so a game is a
pure function of its seed: the same seed gives the same game in any process, serially or in parallel, and
independently of numba's global ``np.random`` state.
"""
from __future__ import annotations

import numpy as np

from ._noalloc import noalloc_jit, nowrap

_INV_2_53 = 1.0 / 9007199254740992.0


def make_rng(*entropy: int) -> np.ndarray:
    """Return a fresh generator state (``uint64[4]``) derived from ``entropy`` with numpy's SeedSequence."""
    words = np.random.SeedSequence([int(e) & 0xFFFFFFFFFFFFFFFF for e in entropy]).generate_state(4, dtype=np.uint64)
    if not words.any():  # xoshiro's one forbidden state
        words[0] = 1
    return words


@noalloc_jit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@noalloc_jit
def xoshiro_step(s0, s1, s2, s3):
    """One step of xoshiro256** on a state held in four local words: (output, s0, s1, s2, s3).  A kernel that draws
    in a tight loop keeps its generator in registers this way and writes it back once (``next_u64`` is this step on
    the ``rng`` array)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@noalloc_jit
def next_u64(rng):
    """Advance ``rng`` in place and return the next 64-bit output."""
    result, rng[0], rng[1], rng[2], rng[3] = xoshiro_step(rng[0], rng[1], rng[2], rng[3])
    return result


@noalloc_jit
def float_of_u64(word):
    """The uniform float in [0, 1) that ``random_float`` makes of the 64-bit output ``word`` (its top 53 bits)."""
    return np.float64(word >> np.uint64(11)) * _INV_2_53


@noalloc_jit
def random_float(rng):
    """Uniform float in [0, 1) with 53 random bits."""
    return float_of_u64(next_u64(rng))


@noalloc_jit
def index_of_u64(word, n):
    """The integer in [0, n) that ``random_index`` makes of the 64-bit output ``word``: floor(u * n) for the uniform
    float u = ``float_of_u64(word)``, computed as a * (n * 2**-53) for u's 53-bit integer a.  Both products are
    exact but the last, and scaling by a power of two commutes with rounding (no subnormals: a >= 1 or the
    product is 0), so this is the same float as (a * 2**-53) * n, bit for bit, with one multiplication fewer
    between the generator and the index: n * 2**-53 does not wait for the generator."""
    i = np.int64(np.float64(word >> np.uint64(11)) * (np.float64(n) * _INV_2_53))
    return i if i < n else n - 1


@noalloc_jit
def random_index(rng, n):
    """Uniform integer in [0, n) for 1 <= n < 2**53 (bias below 2**-40 for any board here)."""
    return index_of_u64(next_u64(rng), n)


@noalloc_jit
def weighted_index(rng, weights, n):
    """An index in [0, n) drawn with probability proportional to ``weights[:n]`` (Gibbs sampling); the total is
    summed in index order and the last index is the fallback when rounding leaves the draw past the sum."""
    z = 0.0
    for j in range(n):
        z += weights[nowrap(j)]
    return weighted_index_of_total(rng, weights, n, z)


@noalloc_jit
def weighted_index_of_total(rng, weights, n, total):
    """``weighted_index`` when the caller already summed ``weights[:n]`` in index order into ``total`` (the same
    draw, one pass fewer)."""
    r = random_float(rng) * total
    acc = 0.0
    for j in range(n):
        acc += weights[nowrap(j)]
        if r < acc:
            return j
    return n - 1
