"""§4.3 curves: openbone.eval_curve against values worked out from the formula.

bx(s) = 3(1−s)²s·x1 + 3(1−s)s²·x2 + s³, by likewise; bisection, 24 iterations, first
probe s = t, |e| < 1e-6 stops, no clamp.  "stepped" returns 0 below t = 1 and 1 from 1.
"""
import math

import numpy as np
import pytest

import openbone


def bx(s, x1, x2):
    return 3 * (1 - s) ** 2 * s * x1 + 3 * (1 - s) * s ** 2 * x2 + s ** 3


def test_linear_is_identity():
    ts = np.array([-0.5, 0, 0.25, 0.5, 1, 1.5])
    assert np.array_equal(openbone.eval_curve("linear", ts), ts)
    assert openbone.eval_curve("linear", 0.3) == 0.3


def test_stepped_is_zero_until_one():
    ts = np.array([-1, 0, 0.5, 0.999999, 1, 2])
    assert openbone.eval_curve("stepped", ts).tolist() == [0, 0, 0, 0, 1, 1]
    assert openbone.eval_curve("stepped", 1) == 1.0


def test_linear_bezier_first_probe_is_exact():
    # handles on the diagonal at 1/3 and 2/3: bx(s) = s exactly, so the first probe
    # s = t has e = 0 and by(t) = t (no bisection step at all)
    c = [1 / 3, 1 / 3, 2 / 3, 2 / 3]
    for t in (0.1, 0.3, 0.77):
        assert openbone.eval_curve(c, t) == pytest.approx(t, abs=1e-15)


def test_symmetric_ease_midpoint():
    # [0.42, 0, 0.58, 1] at t = 0.5: bx(0.5) = 3·.25·.5·.42 + 3·.5·.25·.58 + .125
    # = .1575 + .2175 + .125 = 0.5 ⇒ e = 0, by(0.5) = 3·.125·0 + 3·.125·1 + .125 = 0.5
    assert openbone.eval_curve([0.42, 0, 0.58, 1], 0.5) == pytest.approx(0.5, abs=1e-15)


def test_endpoints():
    for c in ([0.25, 0.1, 0.25, 1], [0.9, -0.5, 0.1, 1.5]):
        assert openbone.eval_curve(c, 0.0) == 0.0  # s = 0: e = 0
        assert openbone.eval_curve(c, 1.0) == 1.0  # s = 1: bx = 1, e = 0


def bisect(x1, y1, x2, y2, t):
    """The §4.3 loop, written out again for the test."""
    lo, hi, s = 0.0, 1.0, t
    for _ in range(24):
        e = bx(s, x1, x2) - t
        if abs(e) < 1e-6:
            break
        if e > 0:
            hi = s
        else:
            lo = s
        s = (lo + hi) / 2
    return 3 * (1 - s) ** 2 * s * y1 + 3 * (1 - s) * s ** 2 * y2 + s ** 3


@pytest.mark.parametrize("curve", [[0.25, 0.1, 0.25, 1], [0.1, 0.8, 0.9, 0.2], [0.5, 0, 0.5, 1],
                                   [0.68, -0.55, 0.27, 1.55]])
def test_bisection_matches_the_formula(curve):
    ts = np.linspace(0, 1, 101)
    got = openbone.eval_curve(curve, ts)
    want = np.array([bisect(*curve, t) for t in ts])
    assert np.allclose(got, want, atol=1e-12, rtol=0)


def test_bezier_mid_span_by_hand():
    # ease [0.25, 0.1, 0.25, 1] at t = 0.5: solving bx(s) = 0.5 gives s ≈ 0.7428 … by(s) ≈ 0.8024
    # (the root of 3(1−s)²s·.25 + 3(1−s)s²·.25 + s³ = .5 is s = 0.742804…, within 1e-6 in x)
    s = 0.5
    lo, hi = 0.0, 1.0
    for _ in range(200):  # exact root by plain bisection (reference only)
        if bx(s, 0.25, 0.25) > 0.5:
            hi = s
        else:
            lo = s
        s = (lo + hi) / 2
    y = 3 * (1 - s) ** 2 * s * 0.1 + 3 * (1 - s) * s ** 2 * 1 + s ** 3
    assert openbone.eval_curve([0.25, 0.1, 0.25, 1], 0.5) == pytest.approx(y, abs=1e-5)
    assert y == pytest.approx(0.8024, abs=1e-4)


def test_no_clamp_overshoot():
    # y handles outside 0..1: the value overshoots (no clamp)
    v = openbone.eval_curve([0.5, 2.0, 0.5, 2.0], 0.5)  # bx(.5) = .5 ⇒ by(.5) = 3·.125·2·2 + .125 = 1.625
    assert v == pytest.approx(1.625, abs=1e-12)
    assert openbone.eval_curve([0.5, -1.0, 0.5, -1.0], 0.5) == pytest.approx(-0.625, abs=1e-12)


def test_vectorised_shapes_and_types():
    ts = np.linspace(0, 1, 12).reshape(3, 4)
    out = openbone.eval_curve([0.25, 0.1, 0.25, 1], ts)
    assert out.shape == (3, 4) and out.dtype == np.float64
    flat = openbone.eval_curve([0.25, 0.1, 0.25, 1], ts.ravel())
    assert np.array_equal(out.ravel(), flat)
    assert isinstance(openbone.eval_curve("linear", 0.5), float)
    assert openbone.eval_curve("linear", [0.1, 0.2]).tolist() == [0.1, 0.2]
    assert openbone.eval_curve((0.42, 0, 0.58, 1), np.float32(0.5)) == pytest.approx(0.5)
    assert openbone.eval_curve("linear", np.array([], dtype=np.float64)).shape == (0,)
    # non-contiguous input
    assert np.array_equal(openbone.eval_curve("linear", ts[:, 1]), ts[:, 1])


@pytest.mark.parametrize("bad", ["smooth", [0.1, 0.2, 0.3], [0.1, "x", 0.2, 0.3], None])
def test_bad_curves_raise(bad):
    with pytest.raises((openbone.OpenBoneError, TypeError)):
        openbone.eval_curve(bad, 0.5)


def test_bezier_precision_is_24_iterations_not_newton():
    # after at most 24 halvings |s − s*| < 2^-24; the x error is then below ~1e-6·slope:
    # the result differs from the exact curve by less than 1e-5 but need not be exact
    c = [0.1, 0.8, 0.9, 0.2]
    t = 0.37
    v = openbone.eval_curve(c, t)
    assert v == pytest.approx(bisect(*c, t), abs=1e-14)
    assert not math.isnan(v)
