"""JS number semantics and §8.9 text templates (runtime spec §12, §8.9, §2).

Every expected string is worked out by hand from the ECMAScript rules
(Number::toString, Number.prototype.toFixed / toPrecision) and the §8.9 text;
the comments give the reasoning for the non-obvious ones.  The randomized
cross-checks at the end use independent oracles only: Python's repr(float)
(shortest round-trip digits, like JS; only the layout differs) and
decimal.Decimal(v), the exact value of the double, rounded ROUND_HALF_UP.
"""
import collections.abc
import math
import random
import struct
from decimal import ROUND_HALF_UP, Decimal, localcontext

import pytest

import openbone
from openbone import _core

js_to_string = _core.js_to_string
js_to_fixed = _core.js_to_fixed
js_to_precision = _core.js_to_precision
format_number = openbone.format_number
format_template = openbone.format_template
OpenBoneError = openbone.OpenBoneError


def f32(x):
    """Math.fround(x): the nearest float32, widened back to a double."""
    return struct.unpack("f", struct.pack("f", x))[0]


def test_exposed_in_core():
    for name in ("format_number", "format_template"):
        assert getattr(openbone, name) is getattr(_core, name)
    for name in ("js_to_string", "js_to_fixed", "js_to_precision"):
        assert callable(getattr(_core, name))
    assert issubclass(OpenBoneError, ValueError)


# --- String(v): shortest round-trip digits, ECMAScript layout ---------------

@pytest.mark.parametrize("v, want", [
    (0.1, "0.1"),
    (0.1 + 0.2, "0.30000000000000004"),  # the double is 0.3000000000000000444...
    (100.0, "100"),
    (100, "100"),                         # a Python int is a number too
    (-1.5, "-1.5"),
    (0.0, "0"),
    (-0.0, "0"),                          # Number::toString(-0) is "0"
    (math.nan, "NaN"),
    (math.inf, "Infinity"),
    (-math.inf, "-Infinity"),
    # n (the decimal point position) = 22 > 21: exponent form
    (1e21, "1e+21"),
    (1e20, "100000000000000000000"),      # n = 21: still k <= n <= 21
    (123456789012345678901.0, "123456789012345680000"),  # 17 digits + zeros
    # n = -6: not in -6 < n <= 0, so exponent form
    (1e-7, "1e-7"),
    (123e-9, "1.23e-7"),
    (0.000001, "0.000001"),               # n = -5: "0." + 5 zeros + "1"
    (1.5e300, "1.5e+300"),
    (5e-324, "5e-324"),                   # least subnormal: "5" already parses back
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (123e-20, "1.23e-18"),
    (1e23, "1e+23"),                      # the double is 9.999999999999999161e22
    # 2**172 = 5.986310706507378352...e51: the closest 16 digits (...378) parse
    # to the double below, as the gap below a power of two is half the gap
    # above; the round-trip 16-digit neighbour ...379 is the answer
    (2.0 ** 172, "5.986310706507379e+51"),
])
def test_to_string(v, want):
    assert js_to_string(v) == want


# --- toFixed: exact decimal value, ties to the larger n ---------------------

@pytest.mark.parametrize("v, d, want", [
    (2.5, 0, "3"),        # exact tie, n = 3 is the larger (printf gives "2")
    (0.5, 0, "1"),        # exact tie
    (1.5, 0, "2"),
    (-2.5, 0, "-3"),      # x < 0: "-" then 2.5 -> 3
    (9.5, 0, "10"),       # carry into a new digit
    # 1.005 is 1.00499999999999989341858963598497211933135986328125: below
    # the tie, so n = 100
    (1.005, 2, "1.00"),
    (1.125, 2, "1.13"),   # 1.125 = 9/8 exactly: a tie, up (printf: 1.12)
    # 0.15 is 0.1499999999999999944488848768742172978818416595458984375
    (0.15, 1, "0.1"),
    # 99.995 is 99.9950000000000045474735088646411895751953125: above the tie
    (99.995, 2, "100.00"),
    (-0.0, 2, "0.00"),    # "If x < 0" is false for -0: no sign
    (-0.0001, 2, "-0.00"),  # x < 0 is true: the sign stays although n = 0
    (0.0, 0, "0"),
    (1e21, 2, "1e+21"),   # x >= 10^21: ToString(x)
    (-1e21, 2, "-1e+21"),
    (1e20, 2, "100000000000000000000.00"),
    (0.1, 20, "0.10000000000000000555"),  # 0.1000000000000000055511151231...
    (0.000001, 7, "0.0000010"),           # k <= f: zero-padded to f + 1 digits
    (math.nan, 2, "NaN"),
    (math.inf, 2, "Infinity"),
    (123.456, 100, "123." + "45600000000000306954461848363280296325683593750"
     + "0" * 53),         # 123.4560000000000030695446184836328029632568359375
])
def test_to_fixed(v, d, want):
    assert js_to_fixed(v, d) == want


# --- toPrecision: p significant digits, ties up -----------------------------

@pytest.mark.parametrize("v, p, want", [
    (123456, 2, "1.2e+5"),         # e = 5 >= p: exponent form
    (0.000001234, 2, "0.0000012"),  # e = -6: not < -6, so decimal
    (0.0000001234, 2, "1.2e-7"),   # e = -7 < -6
    (1.25, 2, "1.3"),              # 1.25 is exact: a tie, up
    (1.35, 2, "1.4"),              # 1.350000000000000088817841970012523...
    (1.45, 2, "1.4"),              # 1.4499999999999999555910790149937...
    (99.99, 3, "100"),             # rounding carries: e = 2 = p - 1
    (99.99, 2, "1.0e+2"),          # carry: e = 2 >= p
    (0.0, 3, "0.00"),
    (-0.0, 1, "0"),
    (-1.5, 1, "-2"),               # |x| = 1.5 is a tie: up
    (123, 5, "123.00"),
    (1e21, 3, "1.00e+21"),
    (5e-324, 3, "4.94e-324"),      # 4.9406564584124654e-324
    (math.nan, 3, "NaN"),
    (-math.inf, 3, "-Infinity"),
])
def test_to_precision(v, p, want):
    assert js_to_precision(v, p) == want


def test_float32_round7():
    # §2: Number(f32.toPrecision(7)); Math.fround(0.1) = 0.100000001490116119384765625
    x = f32(0.1)
    assert x != 0.1
    assert js_to_precision(x, 7) == "0.1000000"
    assert float(js_to_precision(x, 7)) == 0.1
    # Math.fround(1/3) = 0.3333333432674407958984375 -> "0.3333333"
    assert js_to_precision(f32(1 / 3), 7) == "0.3333333"
    # 16777217 is not a float32: 16777216 -> "1.677722e+7" (6th digit 1 then 6 > 5)
    assert js_to_precision(f32(16777217), 7) == "1.677722e+7"
    assert float(js_to_precision(f32(16777217), 7)) == 16777220.0
    # Math.fround(2.5e-7) = 2.49999999e-7..: 7 digits "2.500000e-7" (e = -7)
    assert js_to_precision(f32(2.5e-7), 7) == "2.500000e-7"


# --- §8.9 formatNumber ------------------------------------------------------

@pytest.mark.parametrize("v, pattern, want", [
    # int "#,##0" (one 0, grouped), frac "0#": minFrac 1, maxFrac 2;
    # 123456.789.toFixed(2) = "123456.79" (123456.788999999995...: 3rd digit 8)
    (123456.789, "#,##0.0#", "123,456.79"),
    (123456.7, "#,##0.0#", "123,456.7"),   # "123456.70": one trailing 0 stripped
    (123456.0, "#,##0.0#", "123,456.0"),   # strip at most maxFrac - minFrac = 1
    (1234567, "#,##0", "1,234,567"),
    (1.5, "0.00x", "1.50x"),               # suffix "x"
    # no 0 in int: integer part "0" with a fraction left is dropped
    (0.5, "#.##", ".5"),
    (0.0, "#.##", "0"),                    # "0.00" -> "0." -> "0": no fraction, kept
    (0.004, "#.##", "0"),
    (1.25, "#.##", "1.25"),
    (5, "000", "005"),                     # padded to three 0s
    (5, "0,000", "0,005"),                 # pad, then group
    (2.5, "0", "3"),                       # toFixed(0) ties up
    (1.005, "0.00", "1.00"),               # 1.00499999999999989...
    (1.0, "0.0##", "1.0"),
    (1.23456, "0.0##", "1.235"),           # 1.2345600000000001017...
    # sign: "-" only if negative and a digit is non-zero, else "+" if plus
    (-5, "+0", "-5"),
    (5, "+0", "+5"),
    (0.0, "+0", "+0"),
    (-0.0, "+0", "+0"),                    # -0 < 0 is false: not negative
    (-0.001, "+0.00", "0.00"),             # negative, all zero: no sign at all
    (-0.001, "0.00", "0.00"),
    (-1234.5, "+#,##0.00", "-1,234.50"),
    (1234.5, "+#,##0.00", "+1,234.50"),
    (-3, "n=+0", "n=-3"),                  # prefix "n=" (lazy, stops before +0)
    # % multiplies by 100 first
    (0.256, "0%", "26%"),                  # 0.256 * 100 = 25.6 -> "26"
    (0.5, "0.0%", "50.0%"),
    (0.125, "0.#%", "12.5%"),
    (-0.25, "+0%", "-25%"),
    (0.1, "0% done", "10% done"),          # 0.1 * 100 = 10.000000000000002
    (12.5, "$#,##0.00 USD", "$12.50 USD"),
    # non-finite: prefix + String(v) + pct + suffix (no sign handling)
    (math.nan, "x0.0%y", "xNaN%y"),
    (math.inf, "+0", "Infinity"),
    (-math.inf, "a0b", "a-Infinityb"),
    # no match (no #, 0 or , anywhere): plain(v) + pattern, plain(v) read as
    # String(Number(v.toFixed(6)))
    (3, "abc", "3abc"),
    (0.1 + 0.2, "", "0.3"),                # Number("0.300000") = 0.3
    (1 / 3, "?", "0.333333?"),
    (1.5, "x+y", "1.5x+y"),
    # regex corner cases
    (7, "0.", "7."),                       # "." without a digit: suffix "."
    (7, "a,b", "a7b"),                     # int group "," alone: no 0, grouped
    (1234, ",", "1,234"),
    (1.5, "0.0.0", "1.5.0"),               # the second ".0" is the suffix
    (2, "0 \u20ac", "2 \u20ac"),           # UTF-8 suffix
    (2, "\n0", "\n2"),                     # dot-all: any prefix character
])
def test_format_number(v, pattern, want):
    assert format_number(v, pattern) == want


def test_format_number_long_patterns():
    # padding and separators grow with the pattern: no fixed-size limit
    assert format_number(1, "0" * 1000) == "0" * 999 + "1"
    out = format_number(1, "," + "0" * 999)
    assert out.replace(",", "") == "0" * 998 + "1"
    assert out.count(",") == 332  # 999 digits: (999 - 1) // 3
    assert format_number(1, "x" * 5000 + "0") == "x" * 5000 + "1"


# --- §8.9 formatTemplate ----------------------------------------------------

VALUES = {
    "multiplier": 1.5,
    "score": 1234567.891,
    "third": 1 / 3,
    "neg": -2.5,
    "on": True,
    "off": False,
    "who": "w\u00f6rld",
    "n": 7,
    "big": 1e21,
}


@pytest.mark.parametrize("text, want", [
    ("plain text", "plain text"),
    ("x{multiplier:0.00x}", "x1.50x"),
    ("{multiplier}", "1.5"),
    ("{third}", "0.333333"),              # String(Number((1/3).toFixed(6)))
    ("{score}", "1234567.891"),           # toFixed(6) "1234567.891000" -> 1234567.891
    ("{score:#,##0.0}", "1,234,567.9"),
    ("{neg:+0.0}", "-2.5"),
    ("{n:+0}", "+7"),
    ("{big}", "1e+21"),                   # toFixed gives "1e+21": Number -> 1e21
    ("{multiplier:0%}", "150%"),
    ("{{multiplier}}", "{multiplier}"),   # {{ and }} are matched first
    ("{{{multiplier}}}", "{1.5}"),
    ("a}}b{{c", "a}b{c"),
    ("a}b{", "a}b{"),                     # lone braces stay
    ("{nope}", "{nope}"),                 # unknown: left as written
    ("{nope:0.00}", "{nope:0.00}"),
    ("{ multiplier }", "1.5"),            # trim(name)
    ("{\t\u00a0multiplier\u3000\n}", "1.5"),  # JS trim(): NBSP, U+3000, LF
    ("{ no pe }", "{ no pe }"),
    ("{on} {off}", "true false"),
    ("{on:0.00}", "true"),                # patterns only format numbers
    ("hi {who}!", "hi w\u00f6rld!"),
    ("{multiplier:}", "1.5"),             # empty pattern: no match, plain(v)
    ("{}", "{}"),                         # a name needs a character
    ("{:0}", "{:0}"),
    ("{a{multiplier}", "{a1.5"),          # first { matches nothing: move on one
    ("{multiplier:0{0}", "{multiplier:0{0}"),
    ("{multiplier", "{multiplier"),
    ("{multiplier:a:b}", "1.5a:b"),       # the pattern may hold ':'
    ("\u00e9{n}\u00e9", "\u00e97\u00e9"),
])
def test_format_template(text, want):
    assert format_template(text, VALUES) == want


def test_format_template_mappings():
    class Lookup(collections.abc.Mapping):  # a missing key (KeyError) is unknown
        def __init__(self):
            self.asked = []

        def __getitem__(self, key):
            self.asked.append(key)
            if key == "x":
                return 2
            raise KeyError(key)

        def __iter__(self):
            return iter(["x"])

        def __len__(self):
            return 1

    m = Lookup()
    assert format_template("{ x :00} {y}", m) == "02 {y}"
    assert m.asked == ["x", "y"]
    long = "v" * 5000
    assert format_template("{" + long + "}", {long: "ok"}) == "ok"
    assert format_template("[{s}]" * 300, {"s": "x" * 100}) == ("[" + "x" * 100 + "]") * 300


@pytest.mark.parametrize("call", [
    lambda: js_to_fixed(1.0, 101),
    lambda: js_to_fixed(1.0, -1),
    lambda: js_to_fixed(1.0, 2.0),
    lambda: js_to_fixed("1", 2),
    lambda: js_to_precision(1.0, 0),
    lambda: js_to_precision(1.0, 101),
    lambda: js_to_string(True),
    lambda: js_to_string(None),
    lambda: js_to_string(10 ** 400),
    lambda: format_number(1.0, 5),
    lambda: format_number("1", "0"),
    lambda: format_number(1.0, "0\0"),
    lambda: format_template(5, {}),
    lambda: format_template("{a}", [1]),
    lambda: format_template("{a}", {"a": None}),
    lambda: format_template("{a}", {"a": [1]}),
])
def test_errors(call):
    with pytest.raises(OpenBoneError):
        call()


# --- randomized cross-checks against independent oracles ---------------------

def js_layout_from_repr(v):
    """Number::toString from repr's shortest digits and the spec's layout."""
    if v != v:
        return "NaN"
    if v == 0:
        return "0"
    if v < 0:
        return "-" + js_layout_from_repr(-v)
    if math.isinf(v):
        return "Infinity"
    digits, exp = Decimal(repr(v)).as_tuple()[1:]
    s = "".join(map(str, digits)).rstrip("0")
    k = len(s)
    n = exp + len(digits)
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + s
    e = n - 1
    return s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def oracle_fixed(v, d):
    if not math.isfinite(v) or abs(v) >= 1e21:
        return js_layout_from_repr(v)
    with localcontext() as ctx:
        ctx.prec = 2000
        q = abs(Decimal(v)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP)
    return ("-" if v < 0 else "") + format(q, "f")


def oracle_precision(v, p):
    if not math.isfinite(v):
        return js_layout_from_repr(v)
    x = Decimal(abs(v))  # exact (abs() of a Decimal would round to 28 digits)
    if x == 0:
        m, e = "0" * p, 0
    else:
        e = x.adjusted()
        with localcontext() as ctx:
            ctx.prec = 2000  # every step exact: scaleb rounds to the context too
            m = str(int(x.scaleb(p - 1 - e).quantize(Decimal(1), rounding=ROUND_HALF_UP)))
        if len(m) > p:
            m, e = m[:p], e + 1
    sign = "-" if v < 0 else ""
    if e < -6 or e >= p:
        return sign + m[0] + ("." + m[1:] if p > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    if e == p - 1:
        return sign + m
    if e >= 0:
        return sign + m[:e + 1] + "." + m[e + 1:]
    return sign + "0." + "0" * -(e + 1) + m


def random_doubles(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.random()
        if kind < 0.4:
            v = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        elif kind < 0.6:
            v = rng.uniform(-1e6, 1e6)
        elif kind < 0.8:
            v = round(rng.uniform(-1000, 1000), rng.randint(0, 6))  # near-ties
        elif kind < 0.9:
            v = rng.randint(-10 ** 6, 10 ** 6) / 2 ** rng.randint(0, 12)  # exact ties
        else:
            v = f32(rng.uniform(-100, 100))
        if math.isfinite(v):
            out.append(v)
    return out


EDGE = ([2.0 ** k for k in range(-1074, 1024, 3)] + [float("1e%d" % k) for k in range(-323, 309, 5)]
        + [5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740993.0])


def test_random_to_string_matches_repr():
    for v in random_doubles(4000, 20240601) + EDGE:
        assert js_to_string(v) == js_layout_from_repr(v), repr(v)


def test_random_to_fixed_matches_decimal():
    rng = random.Random(7)
    for v in random_doubles(3000, 99):
        for d in (0, 1, 2, 6, rng.randint(0, 100)):
            assert js_to_fixed(v, d) == oracle_fixed(v, d), (repr(v), d)


def test_random_to_precision_matches_decimal():
    rng = random.Random(11)
    for v in random_doubles(3000, 1234) + EDGE:
        for p in (1, 2, 7, 17, rng.randint(1, 100)):
            assert js_to_precision(v, p) == oracle_precision(v, p), (repr(v), p)
