"""The runtime's own sin/cos/atan2 (csrc/obtrig.h, issue 17): the documented error bound against an
independent reference (NumPy's long double libm, 64-bit significands: 11 bits past double; mpmath as
well when it is installed) and bit-equality of the scalar and the vector (four- and two-lane) paths."""
import numpy as np
import pytest

from openbone import _core

# the bound obtrig.h documents, in ulp of the correctly rounded double result
SIN_COS_ULP = {50.0: 1.5, 1e5: 2.5}
ATAN2_ULP = 3.0

LONG = np.finfo(np.longdouble).nmant >= 63  # x86-64: 80-bit long double


def ulps(got, ref):
    """|got − ref| in ulp of ref rounded to double (ref in long double)."""
    r64 = ref.astype(np.float64)
    return np.abs(got.astype(np.longdouble) - ref) / np.spacing(np.abs(r64)).astype(np.longdouble)


def bits(a):
    return np.ascontiguousarray(a).view(np.int64)


def sample_angles(rng, lim, n):
    x = rng.uniform(-lim, lim, n)
    k = np.arange(-40, 41)  # near multiples of π/4 (quadrant and reduction edges), exact ones too
    edges = np.concatenate([k * np.pi / 4, np.nextafter(k * np.pi / 4, np.inf), np.nextafter(k * np.pi / 4, -np.inf)])
    deg = np.arange(-720, 721, 0.5) * (np.pi / 180)  # the degree angles rigs key (× Math.PI / 180)
    return np.concatenate([x, edges[np.abs(edges) <= lim], deg[np.abs(deg) <= lim], [0.0, -0.0, 1e-300, -5e-324]])


@pytest.mark.skipif(not LONG, reason="needs an 80-bit long double reference")
@pytest.mark.parametrize("lim", sorted(SIN_COS_ULP))
def test_sin_cos_error_bound(lim):
    rng = np.random.default_rng(17)
    x = sample_angles(rng, lim, 1 << 19)
    s, c = _core._trig("sincos", x, None, True)
    xl = x.astype(np.longdouble)
    assert ulps(s, np.sin(xl)).max() <= SIN_COS_ULP[lim]
    assert ulps(c, np.cos(xl)).max() <= SIN_COS_ULP[lim]


@pytest.mark.skipif(not LONG, reason="needs an 80-bit long double reference")
@pytest.mark.parametrize("scale", [1.0, 1e-8, 1e8, 1e-300, 1e300])
def test_atan2_error_bound(scale):
    rng = np.random.default_rng(18)
    y, x = rng.normal(size=(2, 1 << 19)) * scale
    t = np.tan(np.pi / 8)  # the reduction's edge, both octant diagonals, the axes
    y = np.concatenate([y, [t * scale, -t * scale, scale, scale, -scale, 0.0, scale]])
    x = np.concatenate([x, [scale, -scale, scale, -scale, scale, scale, 0.0]])
    a = _core._trig("atan2", y, x, True)
    assert ulps(a, np.arctan2(y.astype(np.longdouble), x.astype(np.longdouble))).max() <= ATAN2_ULP


def test_against_mpmath():
    mp = pytest.importorskip("mpmath")
    mp.mp.prec = 120
    rng = np.random.default_rng(19)
    x = rng.uniform(-50, 50, 2000)
    s, c = _core._trig("sincos", x, None, True)
    y, z = rng.normal(size=(2, 2000))
    a = _core._trig("atan2", y, z, True)
    for i in range(2000):
        for got, ref in ((s[i], mp.sin(x[i])), (c[i], mp.cos(x[i])), (a[i], mp.atan2(y[i], z[i]))):
            assert abs(mp.mpf(float(got)) - ref) <= 3 * np.spacing(abs(float(ref)))


def test_special_values_follow_ieee():
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324, -5e-324, 1e308])
    y, x = (v.ravel() for v in np.meshgrid(sp, sp))
    a = _core._trig("atan2", y, x, True)
    ref = np.arctan2(y, x)
    assert np.array_equal(np.isnan(a), np.isnan(ref))
    ok = ~np.isnan(ref)
    assert np.all(np.abs(a[ok] - ref[ok]) <= 2 * np.spacing(np.abs(ref[ok])))
    assert np.array_equal(np.signbit(a[ok]), np.signbit(ref[ok]))  # ±0 and ±π by the signs
    s, c = _core._trig("sincos", np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 2e5, -1e300]), None, True)
    assert bits(s[:2]).tolist() == bits(np.array([0.0, -0.0])).tolist() and c[0] == c[1] == 1
    assert np.isnan(s[2:5]).all() and np.isnan(c[2:5]).all()
    assert s[5] == np.sin(2e5) and c[6] == np.cos(-1e300)  # past 1e5 rad: libm's value, documented


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 1001])
def test_scalar_and_vector_bits_equal(n):
    rng = np.random.default_rng(n)
    x = np.concatenate([rng.uniform(-400, 400, n), [np.inf, 3e5]])[:n] if n else np.zeros(0)
    vs, vc = _core._trig("sincos", x, None, True)
    ss, sc = _core._trig("sincos", x, None, False)
    assert bits(vs).tolist() == bits(ss).tolist() and bits(vc).tolist() == bits(sc).tolist()
    y, z = rng.normal(size=(2, n)) * 10.0 ** rng.integers(-5, 5, size=(2, n))
    va = _core._trig("atan2", y, z, True)
    sa = _core._trig("atan2", y, z, False)
    assert bits(va).tolist() == bits(sa).tolist()
    # the same values at another offset of the array (other lanes of the four- and two-lane steps)
    if n > 1:
        vs2, _ = _core._trig("sincos", x[1:], None, True)
        assert bits(vs2).tolist() == bits(vs[1:]).tolist()
        va2 = _core._trig("atan2", y[1:], z[1:], True)
        assert bits(va2).tolist() == bits(va[1:]).tolist()


def test_bad_arguments():
    with pytest.raises(_core.OpenBoneError):
        _core._trig("tan", np.zeros(2), None, True)
    with pytest.raises(_core.OpenBoneError):
        _core._trig("atan2", np.zeros(2), np.zeros(3), True)
