"""The runtime's own acos (csrc/obtrig_inv.h, issue 17): acos(c) = atan2(√((1 − c)(1 + c)), c) on
obtrig.h's atan2, with √((1 − c)(1 + c)) = sin(acos c) given too.  Its documented error bound
checked against an independent reference: mpmath at 100 bits (and NumPy's long double acos where
mpmath is missing), over random arguments, both ends of [−1, 1] and the points where the factors
lose or keep exactness."""
import math

import numpy as np
import pytest

from openbone import _core

ACOS_ULP = 4.0  # obtrig_inv.h's bound, in ulp of the correctly rounded double result
SIN_ULP = 2.0

LONG = np.finfo(np.longdouble).nmant >= 63


def sample(rng, n):
    u = rng.uniform(-1, 1, n)
    near = 1 - np.logspace(-16, -1, 2000)  # close to ±1, where acos is steep
    ends = np.array([-1.0, 1.0, 0.0, -0.0, 0.5, -0.5, np.nextafter(1, 0), np.nextafter(-1, 0), 1e-300, -1e-300])
    return np.concatenate([u, near, -near, ends, np.cos(np.arange(0, 181) * np.pi / 180)])


try:
    import mpmath
except ImportError:  # pragma: no cover
    mpmath = None


@pytest.mark.skipif(mpmath is None and not LONG, reason="needs mpmath or an 80-bit long double")
def test_acos_error_bound():
    rng = np.random.default_rng(20261202)
    c = sample(rng, 1 << 14 if mpmath is not None else 1 << 18)
    a, s = _core._trig("acos", c, None, False)
    if mpmath is not None:
        mpmath.mp.prec = 100
        ra = [mpmath.acos(mpmath.mpf(float(v))) for v in c]
        rs = [mpmath.sqrt(1 - mpmath.mpf(float(v)) ** 2) for v in c]
        ea = np.array([float(abs(mpmath.mpf(float(g)) - r)) for g, r in zip(a, ra)])
        es = np.array([float(abs(mpmath.mpf(float(g)) - r)) for g, r in zip(s, rs)])
        ua = ea / np.spacing(np.abs(np.array([float(r) for r in ra])))
        sref = np.array([float(r) for r in rs])
        us = np.where(sref > 0, es / np.spacing(np.where(sref > 0, sref, 1.0)), es)
    else:
        cl = c.astype(np.longdouble)
        ra, rs = np.arccos(cl), np.sqrt(1 - cl * cl)
        ua = np.abs(a.astype(np.longdouble) - ra) / np.spacing(np.abs(ra.astype(np.float64)))
        us = np.abs(s.astype(np.longdouble) - rs) / np.spacing(np.maximum(np.abs(rs.astype(np.float64)), 5e-324))
    assert float(ua.max()) <= ACOS_ULP, (float(ua.max()), c[int(np.argmax(ua))])
    assert float(us.max()) <= SIN_ULP, (float(us.max()), c[int(np.argmax(us))])


def test_acos_ends_and_outside():
    a, s = _core._trig("acos", np.array([1.0, -1.0, 0.0, -0.0, 1.5, -1.0000000000000002, np.nan, np.inf]), None, False)
    assert a[0] == 0.0 and s[0] == 0.0  # acos(1) = +0 exactly
    assert a[1] == math.pi and s[1] == 0.0  # π rounded to double
    assert a[2] == a[3] == math.pi / 2
    assert np.isnan(a[4:]).all() and np.isnan(s[4:]).all()  # outside [−1, 1]: NaN, as acos


def test_acos_matches_libm_closely():
    """Against the platform's acos (a second, unrelated implementation): within the bound plus libm's own ulp."""
    c = np.linspace(-1, 1, 20001)
    a, _ = _core._trig("acos", c, None, False)
    ref = np.arccos(c)
    assert float(np.max(np.abs(a - ref) / np.spacing(ref + (ref == 0)))) <= ACOS_ULP + 1
