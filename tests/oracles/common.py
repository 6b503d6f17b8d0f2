"""Helpers every oracle shares, written once from the specification text.

Nothing here comes from csrc/: JavaScript number semantics (§1, §12, FORMAT.md rounding),
§4.4 wrapDeg, §4 matrix helpers, §4.3 curves, §5 key location and sampling, §5.1
animationDuration / localTime, §8.1 attachment lookup, §8.7 atlasUvMap, the even-odd
point-in-polygon test, and the write / ``--check`` loop of the expected-file generators.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import struct
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

DEG = math.pi / 180.0
RAD = 180.0 / math.pi
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)  # a, b, c, d, x, y
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Unsupported(Exception):
    """The case or document uses something an oracle does not implement."""


# ---------------------------------------------------------------------------
# JavaScript numbers (spec §1, §12, FORMAT.md)
# ---------------------------------------------------------------------------

def js_round(x: float) -> float:
    """ECMAScript Math.round: the closest integer, ties towards +infinity.

    Implemented without ``floor(x + 0.5)`` (that addition itself rounds, e.g. for
    0.49999999999999994); ``x - floor(x)`` is exact for every finite double.
    """
    if not math.isfinite(x):
        return x
    f = math.floor(x)
    r = float(f + 1) if (x - f) >= 0.5 else float(f)
    if r == 0.0 and (x < 0 or math.copysign(1.0, x) < 0):
        return -0.0  # JS keeps the sign of zero; round4 turns it into 0
    return r


def round4(n: float) -> float:
    """``Math.round(n * 1e4) / 1e4`` with -0 -> 0 (FORMAT.md sample numbers)."""
    r = js_round(n * 1e4) / 1e4
    if r == 0.0:
        return 0.0
    return r


def num_out(v: float):
    """A rounded number as it would appear in JSON written by JS (1 not 1.0)."""
    r = round4(v)
    if math.isfinite(r) and r == int(r) and abs(r) < 2 ** 53:
        return int(r)
    return r


def f32(x: float) -> float:
    """Math.fround: the nearest float32 (ties to even), ±Infinity past the range."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def num(v, default=0.0) -> float:
    """A document number, or ``default`` for anything else (booleans included)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return default
    return float(v)


def js_or(v, alt):
    """JavaScript ``v || alt`` for numbers (0, NaN and None are falsy)."""
    if v is None or v == 0 or (isinstance(v, float) and math.isnan(v)):
        return alt
    return v


def clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def lerp(a, b, t):
    return a + (b - a) * t


def _js_parse_int_hex(s: str) -> float:
    """parseInt(s, 16) for the short substrings parseHex produces."""
    s = s.lstrip(" \t\n\r\v\f")
    sign = 1
    if s[:1] in "+-" and s:
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    digits = ""
    for ch in s:
        if ch in "0123456789abcdefABCDEF":
            digits += ch
        else:
            break
    if not digits:
        return float("nan")
    return float(sign * int(digits, 16))


def parse_hex(s: str) -> List[float]:
    """§4.5 parseHex: RGBA doubles in 0..1 (not clamped, not premultiplied)."""
    h = s.replace("#", "", 1)
    if len(h) in (3, 4):
        h = "".join(ch * 2 for ch in h)
    out = []
    for i in range(4):
        out.append(_js_parse_int_hex(h[2 * i: 2 * i + 2]) / 255.0)
    if len(h) < 8:
        out[3] = 1.0
    return out


def hex_or(v, default=(1.0, 1.0, 1.0, 1.0)) -> List[float]:
    """parseHex of a colour string, ``default`` when the field is absent or not a string."""
    return parse_hex(v) if isinstance(v, str) else list(default)


# ---------------------------------------------------------------------------
# §4 maths
# ---------------------------------------------------------------------------

_WRAP_OTHER_SIDE = [False]


def wrap_deg(d: float) -> float:
    """§4.4 wrapDeg: JS % (fmod), then into (-180, 180].  Inside ``wrap_other_side()`` a result
    within 1e-9 of ±180 is sent to the other side of that boundary (for the differential test:
    which side an exact ±180 lands on is decided by the last ulp)."""
    d = math.fmod(d, 360.0)
    if d > 180:
        d -= 360
    elif d <= -180:
        d += 360
    if _WRAP_OTHER_SIDE[0] and abs(abs(d) - 180) < 1e-9:
        return d - 360 if d > 0 else d + 360
    return d


@contextlib.contextmanager
def wrap_other_side():
    """Evaluate with wrapDeg's ±180 boundary cases sent to the other side (see wrap_deg)."""
    _WRAP_OTHER_SIDE[0] = True
    try:
        yield
    finally:
        _WRAP_OTHER_SIDE[0] = False


def multiply(p, l):
    """P·L for 2x3 affine matrices (a, b, c, d, x, y), column vectors."""
    pa, pb, pc, pd, px, py = p
    la, lb, lc, ld, lx, ly = l
    return (pa * la + pb * lc, pa * lb + pb * ld,
            pc * la + pd * lc, pc * lb + pd * ld,
            pa * lx + pb * ly + px, pc * lx + pd * ly + py)


def invert(m):
    """§4 invert, det 0 replaced by 1e-9."""
    a, b, c, d, x, y = m
    det = a * d - b * c
    if det == 0:
        det = 1e-9
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(ia * x + ib * y), -(ic * x + id_ * y))


def apply(m, x, y):
    """The point (x, y) through the affine matrix m."""
    return (m[0] * x + m[1] * y + m[4], m[2] * x + m[3] * y + m[5])


def point_in_polygon(v: Sequence[Sequence[float]], x: float, y: float) -> bool:
    """Even-odd test of (x, y) against the polygon of (x, y) pairs ``v``."""
    inside = False
    n = len(v)
    j = n - 1
    for i in range(n):
        xi, yi = v[i]
        xj, yj = v[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def pairs(flat: Sequence[float]) -> List[tuple]:
    """[x0, y0, x1, y1, ...] as [(x0, y0), (x1, y1), ...]."""
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(len(flat) // 2)]


# ---------------------------------------------------------------------------
# §4.3 curves, §5 sampling
# ---------------------------------------------------------------------------

def bezier(x1, y1, x2, y2, t):
    """§4.3: bisection only, 24 iterations, first probe s = t, no clamp."""
    def bx(s):
        return 3 * (1 - s) ** 2 * s * x1 + 3 * (1 - s) * s ** 2 * x2 + s ** 3

    def by(s):
        return 3 * (1 - s) ** 2 * s * y1 + 3 * (1 - s) * s ** 2 * y2 + s ** 3
    lo, hi, s = 0.0, 1.0, t
    for _ in range(24):
        e = bx(s) - t
        if abs(e) < 1e-6:
            break
        if e > 0:
            hi = s
        else:
            lo = s
        s = (lo + hi) / 2
    return by(s)


def eval_curve(curve, t):
    if curve is None or curve == "linear":
        return t
    if curve == "stepped":
        return 1.0 if t >= 1 else 0.0
    return bezier(*curve, t)


def locate(keys, time):
    """§5 locate: (a, b, t); b None ⇒ a's value as is."""
    if time <= keys[0]["time"]:
        return keys[0], None, 0.0
    if time >= keys[-1]["time"]:
        return keys[-1], None, 0.0
    i = 0
    for j, k in enumerate(keys):  # the last key with key.time <= time (keys sorted)
        if k["time"] <= time:
            i = j
    a, b = keys[i], keys[i + 1]
    if a.get("curve") == "stepped":
        return a, None, 0.0
    f = (time - a["time"]) / js_or(b["time"] - a["time"], 1)
    return a, b, eval_curve(a.get("curve"), f)


def sample_number(keys, time):
    a, b, t = locate(keys, time)
    if b is None:
        return float(a["value"])
    return lerp(float(a["value"]), float(b["value"]), t)


def sample_step(keys, time):
    """§5 sampleStep: the left key's value, whatever its curve."""
    if time <= keys[0]["time"]:
        return keys[0].get("value")
    if time >= keys[-1]["time"]:
        return keys[-1].get("value")
    i = 0
    for j, k in enumerate(keys):
        if k["time"] <= time:
            i = j
    return keys[i].get("value")


def sample_color(keys, time):
    a, b, t = locate(keys, time)
    ca = parse_hex(a["value"])
    if b is None:
        return ca
    cb = parse_hex(b["value"])
    return [lerp(ca[i], cb[i], t) for i in range(4)]


def sample_array(keys, time):
    a, b, t = locate(keys, time)
    va = list(a["value"])
    if b is None:
        return [float(x) for x in va]
    vb = list(b["value"])
    n = max(len(va), len(vb))
    return [lerp(va[i] if i < len(va) else 0.0, vb[i] if i < len(vb) else 0.0, t) for i in range(n)]


def animation_duration(anim) -> float:
    """§5.1 animationDuration: explicit if > 0, else the largest key / event / audio time."""
    d = num(anim.get("duration"))
    if d > 0:
        return d
    m = 0.0
    for tl in anim.get("timelines") or []:
        for k in tl.get("keys") or []:
            m = max(m, num(k.get("time")))
    for k in (anim.get("events") or []) + (anim.get("audio") or []):
        m = max(m, num(k.get("time")))
    return m


def local_time(anim, total, loop):
    """§5.1 localTime."""
    d = animation_duration(anim)
    if d <= 0:
        return 0.0
    if loop:
        return math.fmod(math.fmod(total, d) + d, d)
    return min(max(total, 0.0), d)


def find_animation(doc, ref):
    """The public API's lookup: by name, then id (CLARIFICATIONS)."""
    anims = doc.get("animations") or []
    found = next((a for a in anims if a.get("name") == ref), None)
    if found is None:
        found = next((a for a in anims if a.get("id") == ref), None)
    if found is None:
        raise Unsupported("no animation %r" % (ref,))
    return found


# ---------------------------------------------------------------------------
# §8.1 attachments, §8.7 atlas
# ---------------------------------------------------------------------------

def skin_attachment(skins: List[Dict[str, Any]], skin: Optional[Dict[str, Any]], slot_id, name):
    """§8.1 getAttachment: skin.attachments[slotId][name] ?? skins[0].attachments[slotId][name] ?? null."""
    if name is None:
        return None
    for s in ([skin] if skin is not None else []) + skins[:1]:
        att = ((s.get("attachments") or {}).get(slot_id) or {}).get(name)
        if att is not None:
            return att
    return None


def atlas_uv(region: Dict[str, Any], page: Dict[str, Any], u: float, v: float):
    """§8.7 atlasUvMap of one image uv, straight from the formulas."""
    x, y = num(region.get("x")), num(region.get("y"))
    w, h = num(region.get("width")), num(region.get("height"))
    ox, oy = num(region.get("offsetX")), num(region.get("offsetY"))
    ow, oh = num(region.get("originalWidth"), w), num(region.get("originalHeight"), h)
    pw, ph = num(page.get("width")), num(page.get("height"))
    turn = region.get("rotation", 90 if region.get("rotated") else 0)  # extension: NOTES, Spine import
    if turn == 180:
        return (x + w + ox) / pw - u * ow / pw, (y + h + oy) / ph - v * oh / ph
    if turn == 270:
        return (x - oy) / pw + v * oh / pw, (y + w + ox) / ph - u * ow / ph
    if turn != 90:
        return (x - ox) / pw + u * ow / pw, (y - oy) / ph + v * oh / ph
    return (x + h + oy) / pw - v * oh / pw, (y - ox) / ph + u * ow / ph


# ---------------------------------------------------------------------------
# §2 documents, FORMAT.md case files, expected-file generators
# ---------------------------------------------------------------------------

def load_document(src) -> Dict[str, Any]:
    """Parse (str / bytes / dict) and apply the §2 checks the oracles need."""
    if isinstance(src, dict):
        doc = copy.deepcopy(src)
    else:
        if isinstance(src, (bytes, bytearray)):
            src = src.decode("utf-8")
        doc = json.loads(src)
    if not isinstance(doc, dict) or doc.get("format") != "openbone":
        raise ValueError("not an openbone document")
    version = doc.get("version")
    if isinstance(version, (int, float)) and version > 1:
        raise ValueError("unsupported version %r" % (version,))
    return doc


def load_path(path: str) -> Dict[str, Any]:
    if path.endswith(".obonb"):
        raise Unsupported("binary documents are not implemented by the oracles")
    with open(path, "rb") as f:
        return load_document(f.read())


def run_case_file(path: str, run_case: Callable[[Dict[str, Any], Dict[str, Any]], Dict[str, Any]]) -> Dict[str, Any]:
    """Samples for every case of a case file (FORMAT.md sample-file shape), ``document``
    resolved relative to the case file."""
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    doc = load_path(os.path.join(os.path.dirname(os.path.abspath(path)), cases["document"]))
    return {"document": cases["document"], "cases": [run_case(doc, c) for c in cases.get("cases") or []]}


def dumps_indented(samples) -> str:
    return json.dumps(samples, indent=1) + "\n"


def expected_path(case_path: str) -> str:
    """conformance/cases/X.json -> conformance/expected/X.json."""
    conf = os.path.dirname(os.path.dirname(os.path.abspath(case_path)))
    return os.path.join(conf, "expected", os.path.basename(case_path))


def write_expected(case_paths: Iterable[str], render: Callable[[str], str], check: bool) -> int:
    """Write (or with ``check`` compare) each case file's expected text; 1 if any differs."""
    status = 0
    for path in case_paths:
        out = expected_path(path)
        text = render(path)
        old = open(out, encoding="utf-8").read() if os.path.exists(out) else None
        if check:
            if old != text:
                print("differs: %s" % out)
                status = 1
        elif old != text:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote %s" % out)
    return status


def expected_main(argv, render: Callable[[str], str], default_cases: Sequence[str] = (), doc: str = "") -> int:
    """``[cases...] [--check]``: the command line every generator shares."""
    import argparse
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", default=list(default_cases))
    ap.add_argument("--check", action="store_true", help="exit 1 if an expected file would change")
    args = ap.parse_args(argv)
    if not args.cases:
        ap.error("name at least one case file")
    return write_expected(args.cases, render, args.check)
