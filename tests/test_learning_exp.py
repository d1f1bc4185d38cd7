"""``learning.exp_in_place``, the vectorised ``exp`` of engine 2's adapt, against libm's ``exp`` (``math.exp``, which
engine 1 calls; numpy's ``exp`` has vector versions of its own that may differ from libm's by one unit)."""
import math

import numpy as np

from ppalib.kernels.learning import exp_in_place

ULP = 2.0 ** -52  # one unit in the last place of a number in [1, 2), relative


def _libm_one(value):
    try:
        return math.exp(value)
    except OverflowError:  # Python raises where libm returns inf
        return math.inf


def _libm(values):
    with np.errstate(over="ignore"):  # numpy flags the inf returned for an overflow
        return np.frompyfunc(_libm_one, 1, 1)(np.asarray(values, dtype=np.float64)).astype(np.float64)


def _ours(values):
    out = np.array(values, dtype=np.float64)
    exp_in_place(out, out.size)
    return out


def test_exp_in_place_is_within_one_unit_in_the_last_place_of_libm_over_the_normal_range():
    rng = np.random.default_rng(0)
    # the adapt's range (policies of a few tens) densely, the whole range where exp stays normal, and the points
    # where the reduction's k changes (odd multiples of ln(2) / 2) with their neighbouring floats
    turns = (np.arange(-1021, 1023) + 0.5) * math.log(2.0)
    turns = turns[(turns >= -708.0) & (turns <= 709.0)]
    values = np.concatenate([rng.normal(0.0, 5.0, 200_000), rng.uniform(-708.0, 709.0, 200_000), turns,
                             np.nextafter(turns, np.inf), np.nextafter(turns, -np.inf), [0.0, -0.0, -708.0, 709.0]])
    ours, libm = _ours(values), _libm(values)
    assert np.all(np.abs(ours - libm) <= ULP * libm)
    assert np.mean(ours == libm) > 0.8  # most values bit for bit


def test_exp_in_place_is_libms_exp_when_a_value_lies_outside_the_normal_range():
    values = np.array([1.0, -750.0, 710.0, -708.5, 2.5, math.inf, -math.inf])
    np.testing.assert_array_equal(_ours(values), _libm(values))
    assert np.isnan(_ours([math.nan, 1.0])[0])


def test_exp_in_place_leaves_values_past_n_untouched():
    values = np.array([1.0, 2.0, 3.0])
    exp_in_place(values, 2)
    assert values[2] == 3.0
    assert abs(values[0] - math.exp(1.0)) <= ULP * math.exp(1.0)
