"""The .obonb binary documents (file format § Binary documents, runtime §2).

Hand-built buffers go through openbone.loads / openbone.dumps.  Expected values
come from an independent reference decoder written here in Python, with the
§2 float32 rule Number(f32.toPrecision(7)) computed exactly by decimal
arithmetic (exact ties round up, as JavaScript's toPrecision does).
"""
import glob
import json
import math
import os
import random
import struct
from decimal import ROUND_HALF_UP, Decimal

import pytest

import openbone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------------------
# Building buffers by hand

def varint(n):
    """Unsigned LEB128."""
    out = bytearray()
    while True:
        c = n & 0x7F
        n >>= 7
        out.append(c | (0x80 if n else 0))
        if not n:
            return bytes(out)


def table(strings):
    out = varint(len(strings))
    for s in strings:
        b = s.encode("utf-8") if isinstance(s, str) else s
        out += varint(len(b)) + b
    return out


def obnb(strings, value):
    return b"OBNB\x01" + table(strings) + value


def f32(x):
    return b"\x05" + struct.pack("<f", x)


def f64(x):
    return b"\x06" + struct.pack("<d", x)


# The document envelope {"format":"openbone","version":1,"x":<value>}: the
# string table starts with these four, so extra strings start at index 4.
ENVELOPE = ["format", "openbone", "version", "x"]


def doc_with(value, extra=()):
    body = (b"\x09" + varint(3)
            + varint(0) + b"\x07" + varint(1)      # "format": "openbone"
            + varint(2) + b"\x03" + varint(1)      # "version": 1
            + varint(3) + value)                    # "x": value
    return obnb(ENVELOPE + list(extra), body)


def jload(text):
    """json.loads with JS numbers: integers beyond 2^53 are doubles (JS
    writes the double 3.472618e+20 as 347261800000000000000)."""
    def num(t):
        n = int(t)
        return n if abs(n) <= 2 ** 53 else float(n)
    return json.loads(text, parse_int=num)


def dump_json(doc, **kw):
    return openbone.dumps(doc, binary=False, **kw)


def decode_x(buf):
    """loads(buf), then the "x" member of its JSON text (and the text)."""
    text = dump_json(openbone.loads(buf))
    return jload(text)["x"], text


# ---------------------------------------------------------------------------
# Reference: §2 float32 rounding and a Python decoder

def js_f32_round7(x):
    """Number(Math.fround(x).toPrecision(7)) with JS's round-half-up."""
    if math.isnan(x) or math.isinf(x):
        return None
    if x == 0:
        return 0.0
    d = Decimal(x)  # exact
    q = d.quantize(Decimal(1).scaleb(d.adjusted() - 6), rounding=ROUND_HALF_UP)
    return float(str(q))


def ref_decode(buf):
    """An independent decoder for checking what the encoder writes."""
    assert buf[:5] == b"OBNB\x01"
    pos = 5

    def vint():
        nonlocal pos
        v = shift = 0
        while True:
            b = buf[pos]
            pos += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    strings = []
    for _ in range(vint()):
        n = vint()
        strings.append(buf[pos:pos + n].decode("utf-8", "replace"))
        pos += n
    tags = []

    def value():
        nonlocal pos
        tag = buf[pos]
        pos += 1
        tags.append(tag)
        if tag <= 2:
            return [None, False, True][tag]
        if tag == 3:
            return float(vint())        # a JS Number
        if tag == 4:
            return -float(vint()) - 1.0
        if tag == 5:
            (x,) = struct.unpack_from("<f", buf, pos)
            pos += 4
            return js_f32_round7(x)
        if tag == 6:
            (x,) = struct.unpack_from("<d", buf, pos)
            pos += 8
            return None if math.isnan(x) or math.isinf(x) else x
        if tag == 7:
            return strings[vint()]
        if tag == 8:
            return [value() for _ in range(vint())]
        if tag == 9:
            obj = {}
            for _ in range(vint()):
                k = strings[vint()]
                obj[k] = value()
            return obj
        if tag == 10:
            import base64
            mime = strings[vint()]
            n = vint()
            data = buf[pos:pos + n]
            pos += n
            return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode())
        raise AssertionError("unknown tag %d" % tag)

    v = value()
    assert pos == len(buf), "trailing data"
    return v, strings, tags


# ---------------------------------------------------------------------------
# Decoding

def test_minimal_document():
    buf = (b"OBNB"              # magic
           b"\x01"              # version 1
           b"\x03"              # 3 strings
           b"\x06format"        # 0
           b"\x08openbone"      # 1
           b"\x07version"       # 2
           b"\x09\x02"          # object, 2 pairs
           b"\x00\x07\x01"      #   "format": string 1
           b"\x02\x03\x01")     #   "version": uint 1
    doc = openbone.loads(buf)
    out = jload(dump_json(doc))
    assert out["format"] == "openbone" and out["version"] == 1
    # the same bytes through dumps(binary=True) come back unchanged in meaning
    again = jload(dump_json(openbone.loads(openbone.dumps(doc, binary=True))))
    assert again == out


def test_every_tag():
    value = (b"\x08" + varint(12)
             + b"\x00"                               # null
             + b"\x01"                               # false
             + b"\x02"                               # true
             + b"\x03" + varint(300)                 # 300
             + b"\x04" + varint(0)                   # -1
             + b"\x04" + varint(299)                 # -300
             + f32(0.1)                              # 0.1
             + f64(0.30000000000000004)              # as is
             + b"\x07" + varint(4)                   # "hello"
             + b"\x08" + varint(2) + b"\x03\x07" + b"\x00"     # [7, null]
             + b"\x09" + varint(1) + varint(4) + b"\x02"       # {"hello": true}
             + b"\x0a" + varint(5) + varint(3) + b"\x89PN")    # data URL
    x, text = decode_x(doc_with(value, ["hello", "image/png"]))
    assert x == [None, False, True, 300, -1, -300, 0.1, 0.30000000000000004,
                 "hello", [7, None], {"hello": True}, "data:image/png;base64,iVBO"]
    assert '"x":[null,false,true,300,-1,-300,0.1,0.30000000000000004,' in text


def test_data_url_padding():
    value = (b"\x08\x03"
             + b"\x0a" + varint(4) + varint(0)
             + b"\x0a" + varint(4) + varint(1) + b"\xff"
             + b"\x0a" + varint(4) + varint(2) + b"\xff\xee")
    x, _ = decode_x(doc_with(value, ["audio/wav"]))
    assert x == ["data:audio/wav;base64,", "data:audio/wav;base64,/w==",
                 "data:audio/wav;base64,/+4="]


def test_float32_exact_values():
    # 0.1f is 0.100000001490116...; 7 digits give exactly the double 0.1
    x, text = decode_x(doc_with(f32(0.1)))
    assert x == 0.1 and '"x":0.1' in text
    x, text = decode_x(doc_with(f32(1 / 3)))
    assert x == 0.3333333 and '"x":0.3333333' in text
    # 2^-11 = 0.00048828125 exactly: the 8th digit is a 5 followed by zeros;
    # JS rounds the tie up (0.0004882813), printf would give ...812
    x, text = decode_x(doc_with(f32(2 ** -11)))
    assert x == 0.0004882813 and '"x":0.0004882813' in text
    # an integer tie: 12345665 → 1.234567e+7 (half-even would give 1.234566e+7)
    x, text = decode_x(doc_with(f32(12345665.0)))
    assert x == 12345670 and '"x":12345670' in text
    # NaN and Infinity cannot be JSON: null, as JSON.stringify writes them
    x, _ = decode_x(doc_with(b"\x08\x03" + f32(float("nan")) + f32(float("-inf")) + f64(float("inf"))))
    assert x == [None, None, None]


def float32_tie_ranges():
    """Every float32 tie for toPrecision(7), found exhaustively: a float32 is
    k·2^-e (k odd, k < 2^24), whose exact decimal expansion has the
    significant digits of k·5^e.  It is a tie when those are exactly 8 digits
    ending in 5: k·5^e in [10^7, 10^8) and ending in 5 (any odd k for e >= 1;
    k ≡ 5 mod 10 for e = 0).  5^12 > 10^8, so e <= 11; even k or larger
    exponents only add trailing zeros or digits.  Yields (e, range of k)."""
    for e in range(0, 12):
        p = 5 ** e
        lo = -(-10 ** 7 // p)
        hi = min((10 ** 8 - 1) // p, 2 ** 24 - 1)
        if lo > hi:
            continue
        if e == 0:
            first = lo + (5 - lo) % 10
            yield e, range(first, hi + 1, 10)
        else:
            yield e, range(lo | 1, hi + 1, 2)


def test_float32_ties_round_up():
    rng = random.Random(7)
    sample = [2 ** -11, 12345665.0, 1234566.5]
    total = 0
    for e, ks in float32_tie_ranges():
        total += len(ks)
        picks = [ks[0], ks[-1]] + [ks[rng.randrange(len(ks))] for _ in range(25)]
        for k in picks:
            x = k / 2 ** e
            assert struct.unpack("<f", struct.pack("<f", x))[0] == x  # a float32
            digits = str(k * 5 ** e)
            assert len(digits) == 8 and digits[-1] == "5"              # a tie at 7
            sample.append(x)
    assert total > 1000000
    value = b"\x08" + varint(len(sample)) + b"".join(f32(t) for t in sample)
    x, _ = decode_x(doc_with(value))
    want = [js_f32_round7(t) for t in sample]
    assert x == want
    assert want[:3] == [0.0004882813, 12345670, 1234567]
    # half-up (JS) and half-even (printf) differ on these ties
    even = [float(str(Decimal(t).quantize(Decimal(1).scaleb(Decimal(t).adjusted() - 6))))
            for t in sample]
    assert sum(a != b for a, b in zip(want, even)) > len(sample) // 4


def test_float32_random_bit_patterns():
    rng = random.Random(1)
    vals = []
    while len(vals) < 2000:
        (f,) = struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))
        if math.isfinite(f):
            vals.append(f)
    vals += [1.401298464324817e-45, 3.4028234663852886e+38, -0.0, 1e-40, 16777217.0]
    value = b"\x08" + varint(len(vals)) + b"".join(f32(v) for v in vals)
    x, _ = decode_x(doc_with(value))
    assert x == [js_f32_round7(struct.unpack("<f", struct.pack("<f", v))[0]) for v in vals]


def test_big_integers():
    value = (b"\x08\x03" + b"\x03" + varint(2 ** 53) + b"\x03" + varint(2 ** 64 - 1)
             + b"\x04" + varint(2 ** 53 - 1))
    x, text = decode_x(doc_with(value))
    assert x == [2 ** 53, float(2 ** 64 - 1), -(2 ** 53)]
    assert "[9007199254740992,18446744073709552000,-9007199254740992]" in text


def test_duplicate_key_keeps_first_position_last_value():
    # {"a": 1, "b": 2, "a": 3}: JS keeps "a" first with the value 3
    value = (b"\x09\x03" + varint(4) + b"\x03\x01" + varint(5) + b"\x03\x02"
             + varint(4) + b"\x03\x03")
    x, text = decode_x(doc_with(value, ["a", "b"]))
    assert x == {"a": 3, "b": 2}
    assert '"x":{"a":3,"b":2}' in text


def test_invalid_utf8_becomes_replacement_character():
    raw = b"a\xc3b\xe2\x82c\xf0\x9f\xff"
    x, _ = decode_x(doc_with(b"\x07" + varint(4), [raw]))
    assert x == raw.decode("utf-8", "replace") == "a\ufffdb\ufffdc\ufffd\ufffd"


def test_json_number_and_string_formatting():
    value = (b"\x08\x07" + f64(1e21) + f64(1e-7) + f64(123e-20) + f64(-0.0)
             + f64(1e16) + f64(0.000001) + b"\x07" + varint(4))
    x, text = decode_x(doc_with(value, ['q"\\\n\t\x01\x1f\x7f\u2028é']))
    assert ('"x":[1e+21,1e-7,1.23e-18,0,10000000000000000,0.000001,'
            '"q\\"\\\\\\n\\t\\u0001\\u001f\x7f\u2028é"]') in text
    pretty = dump_json(openbone.loads(doc_with(b"\x08\x02\x08\x00\x09\x00")), indent=2)
    assert '"x": [\n    [],\n    {}\n  ]' in pretty
    assert pretty.startswith('{\n  "format": "openbone",\n  "version": 1,')


# ---------------------------------------------------------------------------
# Malformed input: OpenBoneError naming the offset

def raises_at(buf, offset, words=""):
    with pytest.raises(openbone.OpenBoneError) as info:
        openbone.loads(buf)
    msg = str(info.value)
    assert "offset %d" % offset in msg, msg
    assert words in msg, msg
    return msg


def test_bad_magic_is_not_binary():
    # not "OBNB": read as JSON text, which this is not
    with pytest.raises(openbone.OpenBoneError):
        openbone.loads(b"OBNX\x01\x00\x00")


def test_wrong_version():
    raises_at(b"OBNB\x02\x00\x00", 4, "unsupported version 2 (expected 1)")
    raises_at(b"OBNB", 4, "version")


def test_truncated_varint():
    raises_at(b"OBNB\x01\x00\x03\x80\x80", 7, "varint runs past the end of the data")
    raises_at(b"OBNB\x01", 5, "varint runs past the end of the data")
    raises_at(b"OBNB\x01\x00\x03" + b"\xff" * 9 + b"\x02", 7, "overflows 64 bits")


def test_string_index_out_of_range():
    raises_at(obnb(["a", "b"], b"\x07" + varint(42)), 11, "string index 42 out of range (table has 2 strings)")
    # a key index: inside the envelope (x = {<bad key>: null})
    buf = doc_with(b"\x09\x01" + varint(9) + b"\x00")
    raises_at(buf, len(buf) - 2, "index 9 out of range (table has 4 strings)")
    raises_at(obnb([], b"\x0a\x00\x00"), 7, "mime string index 0 out of range")


def test_huge_counts_fail_fast():
    raises_at(obnb([], b"\x08" + varint(2 ** 60)), 7, "array length")
    raises_at(obnb([], b"\x09" + varint(2 ** 40) + b"\x00\x00"), 7, "object count")
    raises_at(b"OBNB\x01" + varint(2 ** 50) + b"\x00", 5, "string count")
    raises_at(b"OBNB\x01\x01" + varint(2 ** 62) + b"abc", 6, "length")
    raises_at(obnb(["x"], b"\x0a\x00" + varint(2 ** 40) + b"ab"), 10, "data length")


def test_depth_bomb():
    raises_at(b"OBNB\x01\x00" + b"\x08\x01" * 100000 + b"\x00", 6 + 2 * 1000, "nesting deeper")
    inner = doc_with(b"\x08\x01" * 5000 + b"\x00")
    # x is at depth 1, so the 1000th nested array below it is too deep
    raises_at(inner, len(doc_with(b"")) + 2 * 999, "nesting deeper")


def test_trailing_bytes():
    buf = doc_with(b"\x00") + b"\x00\x00"
    raises_at(buf, len(buf) - 2, "trailing data")


def test_truncated_float():
    raises_at(obnb([], b"\x05\x00\x00\x00"), 7, "float32")
    raises_at(obnb([], b"\x06\x00\x00\x00\x00\x00\x00\x00"), 7, "float64")
    buf = doc_with(b"\x05\x00\x00")
    raises_at(buf, len(buf) - 2, "float32")


def test_unknown_tag_and_missing_value():
    raises_at(obnb([], b"\x0b"), 6, "unknown tag 11")
    raises_at(obnb([], b""), 6, "expected a value")


# ---------------------------------------------------------------------------
# Encoding

def test_encoder_output_is_readable_by_reference_decoder():
    src = {
        "format": "openbone", "version": 1,
        "x": [0, 127, 128, -1, -300, 2 ** 53 - 1, 0.1, 0.3333333, 1.5, 1e20,
              0.30000000000000004, 1e300, 2 ** 53, "s", "é日本", None, True, False, [], {},
              "data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,iVBORw0KGgp=",
              {"b": "x", "a": ["b", "y"]}],
    }
    doc = openbone.loads(json.dumps(src))
    b = openbone.dumps(doc, binary=True)
    assert isinstance(b, bytes) and b[:5] == b"OBNB\x01"
    value, strings, tags = ref_decode(b)
    assert value == jload(dump_json(doc))
    # every distinct string once, in order of first appearance (key first)
    assert len(strings) == len(set(strings))
    assert strings[:4] == ["format", "openbone", "version", "x"]
    assert strings.index("image/png") < strings.index("b") < strings.index("a") < strings.index("y")
    # the canonical data URL became raw bytes (tag 10), the other one a string
    assert 10 in tags
    assert "data:image/png;base64,iVBORw0KGgp=" in strings
    assert b"\x89PNG\r\n\x1a\n" in b
    # integers as varints, float32 when 7 digits give the value back
    assert tags.count(5) >= 4 and tags.count(6) >= 3


def test_negative_zero():
    # binary float64 -0 is a value JSON text cannot show: written "0" as
    # JSON.stringify does (the C tests check that encode/decode keep the sign)
    x, text = decode_x(doc_with(f64(-0.0)))
    assert '"x":0' in text and x == 0


def fixture_files():
    pats = [os.path.join(ROOT, "conformance", "fixtures", "**", "*.obone"),
            os.path.join(ROOT, "examples", "**", "*.obone")]
    return sorted({f for p in pats for f in glob.glob(p, recursive=True)})


@pytest.mark.parametrize("path", fixture_files() or [None],
                         ids=lambda p: os.path.relpath(p, ROOT) if p else "none")
def test_round_trip_documents(path):
    if path is None:
        pytest.skip("no .obone documents yet")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = openbone.loads(text)
    want = dump_json(doc)
    b = openbone.dumps(doc, binary=True)
    assert isinstance(b, bytes) and b[:5] == b"OBNB\x01"
    back = openbone.loads(b)
    assert dump_json(back) == want
    assert dump_json(back, indent=2) == dump_json(doc, indent=2)
    assert jload(dump_json(doc, indent=2)) == jload(want)
    # an independent decoder reads the same value
    assert ref_decode(b)[0] == jload(want)
    # encoding is deterministic
    assert openbone.dumps(back, binary=True) == b
