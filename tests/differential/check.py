"""Run a document and its cases through the C core and through the oracles; compare; reduce.

* ``runtime_case(doc, case)``: the C core through ``openbone.conformance.run_case`` (the same
  code path as ``openbone conformance run``), samples as FORMAT.md writes them;
* ``oracle_case(doc, case)``: ``oracles.full.run_case`` (pure Python, from the spec text), or
  ``oracles.sm.run_case`` for a state-machine case;
* ``compare(exp, act)``: every difference beyond the §1 tolerances, with the allowance both
  sides' 4-decimal rounding needs (FORMAT.md: the reference is rounded; here the runtime's
  numbers are rounded too, so two roundings of up to 5e-5 each);
* ``reduce(doc, case)``: a greedy reducer that drops bones, slots, skins, attachments,
  constraints, sliders, animations, timelines, keys, events, step groups and fields while the
  disagreement persists (same kind: the first differing path, with indices dropped).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import openbone
from openbone import conformance as rt_conformance

from oracles import full, sm
from oracles.common import Unsupported, wrap_other_side

COLOR = 1 / 255
ROUNDING = 1e-4  # two 4-decimal roundings (FORMAT.md)


# ---------------------------------------------------------------------------
# the two sides
# ---------------------------------------------------------------------------

def load_runtime(doc: Dict[str, Any]):
    return openbone.loads(json.dumps(doc))


def runtime_case(doc: Dict[str, Any], case: Dict[str, Any], document=None) -> Dict[str, Any]:
    document = document if document is not None else load_runtime(doc)
    return rt_conformance.run_case(document, case)


def oracle_case(doc: Dict[str, Any], case: Dict[str, Any]) -> Dict[str, Any]:
    if case.get("stateMachine") is not None:
        return sm.run_case(doc, case)  # §9: the state-machine oracle (no constraints, nothing drawn)
    return full.run_case(doc, case)


# ---------------------------------------------------------------------------
# §1 comparison
# ---------------------------------------------------------------------------

def tolerance(path: Tuple[Any, ...], item_type: Optional[str]) -> Optional[float]:
    """runtime spec §1: None means exact.  Written again here on purpose (openbone.conformance
    has its own): the differential must not inherit a too lenient table from the code it checks."""
    head = path[0]
    last = next((p for p in reversed(path) if isinstance(p, str)), None)
    if head == "bones":
        return 1e-3 if last in ("x", "y") else 1e-4 if last in ("a", "b", "c", "d") else None
    if head == "slots":
        return COLOR if last in ("color", "dark") else None
    if head == "draw":
        if last in ("color", "dark", "colors"):
            return COLOR
        if last == "vertices":
            return 1e-2 if item_type == "particles" else 1e-3
        if last == "uvs":
            return 1e-3
        return None
    if head == "events":
        return 1e-4 if last == "float" else None
    if head == "audio":
        return 1e-4 if last in ("volume", "rate", "fadeIn", "fade", "duration") else None
    if head == "bounds":
        return None if "queries" in path else 1e-3
    return None


def _fmt(path) -> str:
    s = ""
    for p in path:
        s += "[%d]" % p if isinstance(p, int) else ("." + p if s else str(p))
    return s


def _walk(e, a, path, item_type, out):
    if isinstance(e, dict) and isinstance(a, dict):
        if len(path) == 2 and path[0] == "draw":
            item_type = e.get("type")
        for k in e:
            if k not in a:
                out.append((path + (k,), e[k], "<missing>"))
            else:
                _walk(e[k], a[k], path + (k,), item_type, out)
        for k in a:
            if k not in e:
                out.append((path + (k,), "<missing>", a[k]))
        return
    if isinstance(e, list) and isinstance(a, list):
        if len(e) != len(a):
            out.append((path + ("length",), len(e), len(a)))
        for i, (x, y) in enumerate(zip(e, a)):
            _walk(x, y, path + (i,), item_type, out)
        return
    numeric = (int, float)
    if (isinstance(e, numeric) and isinstance(a, numeric) and not isinstance(e, bool) and not isinstance(a, bool)):
        tol = tolerance(path, item_type) if path else None
        if tol is None:
            if e != a:
                out.append((path, e, a))
        elif not abs(e - a) <= tol + ROUNDING + 1e-9:
            out.append((path, e, a))
        return
    if e != a or isinstance(e, bool) != isinstance(a, bool):
        out.append((path, e, a))


def compare_case(exp: Dict[str, Any], act: Dict[str, Any]) -> List[Tuple[Tuple[Any, ...], Any, Any]]:
    """Differences between one case's samples: [(path, oracle value, runtime value)]."""
    out: List[Tuple[Tuple[Any, ...], Any, Any]] = []
    es, acts = exp.get("samples") or [], act.get("samples") or []
    if len(es) != len(acts):
        out.append((("samples", "length"), len(es), len(acts)))
    for i, (s, t) in enumerate(zip(es, acts)):
        d: List[Tuple[Tuple[Any, ...], Any, Any]] = []
        _walk(s, t, (), None, d)
        out += [(("samples", i) + p, x, y) for p, x, y in d]
    return out


def signature(diffs) -> str:
    """The kind of a disagreement: the first differing path without its indices."""
    if not diffs:
        return ""
    path = diffs[0][0]
    return ".".join(p for p in path[2:] if isinstance(p, str)) or "samples"


# ---------------------------------------------------------------------------
# one document
# ---------------------------------------------------------------------------

class Outcome:
    """What running one case gave: ``status`` is ok / differ / unstable / oracle-unsupported /
    runtime-error / oracle-error / load-error."""

    def __init__(self, status: str, detail: str = "", diffs=None, signature_: str = ""):
        self.status = status
        self.detail = detail
        self.diffs = diffs or []
        self.signature = signature_

    def __repr__(self):
        return "Outcome(%s, %s)" % (self.status, self.signature or self.detail[:60])


def run_one(doc: Dict[str, Any], case: Dict[str, Any], document=None, check_stability: bool = True) -> Outcome:
    """Both sides on one case.  A disagreement at an ill-conditioned point (``unstable``) is
    reported as such, not as a finding."""
    try:
        document = document if document is not None else load_runtime(doc)
    except openbone.OpenBoneError as e:
        return Outcome("load-error", str(e))
    try:
        exp = oracle_case(doc, case)
    except Unsupported as e:
        return Outcome("oracle-unsupported", str(e))
    except Exception as e:  # an oracle bug: report it as a finding
        return Outcome("oracle-error", "%s: %s" % (type(e).__name__, e))
    try:
        act = runtime_case(doc, case, document)
    except Exception as e:
        return Outcome("runtime-error", "%s: %s" % (type(e).__name__, e))
    diffs = compare_case(exp, act)
    if diffs:
        if check_stability and unstable(doc, case, exp, act):
            return Outcome("unstable", "", diffs, signature(diffs))
        return Outcome("differ", "", diffs, signature(diffs))
    return Outcome("ok")


# fields whose value is compared exactly or is an index / count / order: never perturbed
_EXACT_FIELDS = {"order", "triangles", "hull", "maxParticles", "count", "seed", "int", "time", "duration",
                 "version", "width", "height", "fps", "offset"}


def perturb(doc: Dict[str, Any], seed: int, eps: float = 1e-9) -> Dict[str, Any]:
    """A copy of ``doc`` with every free number multiplied by (1 + eps·u), u in [-1, 1]."""
    import random
    rng = random.Random(seed)

    def walk(v, key=None):
        if isinstance(v, bool) or v is None or isinstance(v, str):
            return v
        if isinstance(v, (int, float)):
            return v if key in _EXACT_FIELDS else v * (1 + eps * rng.uniform(-1, 1))
        if isinstance(v, list):
            return [walk(x, key) for x in v]
        return {k: walk(x, k) for k, x in v.items()}
    return walk(doc)


def unstable(doc: Dict[str, Any], case: Dict[str, Any], exp: Dict[str, Any], act: Dict[str, Any],
             tries: int = 4) -> bool:
    """True at an ill-conditioned point, where an ulp of difference between two exact ports may
    land on either side of a discontinuity of the spec's formulas:

    * the oracle agrees with the runtime once wrapDeg sends angles within 1e-9 of ±180 to the
      other side of its (−180, 180] boundary (a reflected bone's skew is exactly ±180 from its
      unreflected setup, so the sign of the last ulp picks +180 or −180, times a mix);
    * or the oracle's own samples move beyond §1 under a 1e-9 relative change of the document's
      numbers (a floor at an integer, a ``> 0`` test at 0, a wrap reached by rounding, ...)."""
    try:
        with wrap_other_side():
            other = oracle_case(doc, case)
        if not compare_case(other, act):
            return True
    except Exception:
        pass
    for k in range(tries):
        try:
            other = oracle_case(perturb(doc, k), case)
        except Exception:
            return True
        if compare_case(exp, other):
            return True
    return False


def first_bad_sample(diffs) -> int:
    return min((d[0][1] for d in diffs if isinstance(d[0][1], int)), default=0)


def describe(diffs, limit=6) -> str:
    lines = []
    for path, e, a in diffs[:limit]:
        lines.append("  %s: oracle %s, runtime %s" % (_fmt(path), json.dumps(e)[:80], json.dumps(a)[:80]))
    if len(diffs) > limit:
        lines.append("  ... %d more" % (len(diffs) - limit))
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# greedy reduction
# ---------------------------------------------------------------------------

def _truncate_steps(case: Dict[str, Any], n_samples: int) -> Dict[str, Any]:
    """The case cut after its first ``n_samples`` samples."""
    c = copy.deepcopy(case)
    if c.get("setup"):
        return c
    left = n_samples
    groups = []
    for g in c.get("steps") or []:
        if left <= 0:
            break
        rep = int(g.get("repeat", 1))
        g = dict(g)
        if rep > left:
            g["repeat"] = left
            rep = left
        groups.append(g)
        left -= rep
    c["steps"] = groups
    return c


def _candidates(doc: Dict[str, Any], case: Dict[str, Any]) -> Iterator[Tuple[str, Dict[str, Any], Dict[str, Any]]]:
    """Smaller (doc, case) pairs, biggest cuts first."""
    sk = doc.get("skeleton") or {}

    def with_doc(fn):
        d = copy.deepcopy(doc)
        fn(d)
        return d

    def with_case(fn):
        c = copy.deepcopy(case)
        fn(c)
        return c

    # whole lists
    for key in ("animations", "events"):
        if doc.get(key):
            for i in range(len(doc[key])):
                yield "drop %s[%d]" % (key, i), with_doc(lambda d: d[key].pop(i)), case
    for key in ("sliders", "ik", "transform", "path", "physics"):
        for i in range(len(sk.get(key) or [])):
            yield "drop %s[%d]" % (key, i), with_doc(lambda d: d["skeleton"][key].pop(i)), case
    for key in ("audio", "atlas", "stateMachines"):
        if key in doc:
            yield "drop " + key, with_doc(lambda d: d.pop(key)), case
    # case structure
    for key in ("queue", "tracks"):
        for i in range(len(case.get(key) or [])):
            yield "drop case %s[%d]" % (key, i), doc, with_case(lambda c: c[key].pop(i))
    for gi, g in enumerate(case.get("steps") or []):
        if len(case["steps"]) > 1:
            yield "drop step group %d" % gi, doc, with_case(lambda c: c["steps"].pop(gi))
        if g.get("actions"):
            yield "drop actions of group %d" % gi, doc, with_case(lambda c: c["steps"][gi].pop("actions"))
        if int(g.get("repeat", 1)) > 1:
            yield "repeat 1 in group %d" % gi, doc, with_case(lambda c: c["steps"][gi].pop("repeat"))
    if case.get("skin") is not None:
        yield "drop case skin", doc, with_case(lambda c: c.pop("skin"))
    # timelines and keys
    for ai, an in enumerate(doc.get("animations") or []):
        for ti in range(len(an.get("timelines") or [])):
            yield "drop a%d timeline %d" % (ai, ti), with_doc(lambda d: d["animations"][ai]["timelines"].pop(ti)), case
        for key in ("events", "audio"):
            if an.get(key):
                yield "drop a%d %s" % (ai, key), with_doc(lambda d: d["animations"][ai].pop(key)), case
        for ti, tl in enumerate(an.get("timelines") or []):
            for ki in range(len(tl.get("keys") or [])):
                if len(tl["keys"]) > 1:
                    yield ("drop a%d t%d key %d" % (ai, ti, ki),
                           with_doc(lambda d: d["animations"][ai]["timelines"][ti]["keys"].pop(ki)), case)
                if "curve" in tl["keys"][ki]:
                    yield ("linear a%d t%d key %d" % (ai, ti, ki),
                           with_doc(lambda d: d["animations"][ai]["timelines"][ti]["keys"][ki].pop("curve")), case)
    # skins, slots, attachments
    skins = sk.get("skins") or []
    for si in range(1, len(skins)):
        yield "drop skin %d" % si, with_doc(lambda d: d["skeleton"]["skins"].pop(si)), case
    for si, skin in enumerate(skins):
        for f in ("bones", "constraints"):
            if skin.get(f):
                yield "drop skin %d %s" % (si, f), with_doc(lambda d: d["skeleton"]["skins"][si].pop(f)), case
        for slot_id in list((skin.get("attachments") or {}).keys()):
            for name in list(skin["attachments"][slot_id].keys()):
                yield ("drop attachment %s/%s" % (slot_id, name),
                       with_doc(lambda d: d["skeleton"]["skins"][si]["attachments"][slot_id].pop(name)), case)
    for i in range(len(sk.get("slots") or [])):
        yield "drop slot %d" % i, with_doc(lambda d: d["skeleton"]["slots"].pop(i)), case
    # bones, last first (children before parents)
    bones = sk.get("bones") or []
    for i in reversed(range(len(bones))):
        yield "drop bone %d" % i, with_doc(lambda d: d["skeleton"]["bones"].pop(i)), case
    # fields back to their defaults
    for i, b in enumerate(bones):
        for f in ("x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY", "length", "inherit"):
            if f in b:
                yield "bone %d default %s" % (i, f), with_doc(lambda d: d["skeleton"]["bones"][i].pop(f)), case
    for key in ("ik", "transform", "path", "physics", "sliders"):
        for ci, c in enumerate(sk.get(key) or []):
            for f in sorted(c):
                if f not in ("id", "name", "bones", "target", "bone", "animation"):
                    yield ("%s %d drop %s" % (key, ci, f), with_doc(lambda d: d["skeleton"][key][ci].pop(f)), case)
            for f in ("bones",):
                if isinstance(c.get(f), list) and len(c[f]) > 1:
                    for bi in range(len(c[f])):
                        yield ("%s %d drop bone %d" % (key, ci, bi),
                               with_doc(lambda d: d["skeleton"][key][ci]["bones"].pop(bi)), case)
    for si, s in enumerate(sk.get("slots") or []):
        for f in ("color", "dark", "blend"):
            if f in s:
                yield "slot %d default %s" % (si, f), with_doc(lambda d: d["skeleton"]["slots"][si].pop(f)), case


def reduce(doc: Dict[str, Any], case: Dict[str, Any], outcome: Outcome,
           budget: int = 4000, log: Optional[Callable[[str], None]] = None) -> Tuple[Dict[str, Any], Dict[str, Any], Outcome]:
    """Greedy: keep any smaller (doc, case) whose disagreement has the same signature."""
    want = (outcome.status, outcome.signature if outcome.status == "differ" else outcome.detail.split(":")[0])

    def same(o: Outcome) -> bool:
        if o.status != want[0]:
            return False
        return (o.signature if o.status == "differ" else o.detail.split(":")[0]) == want[1]

    if outcome.status == "differ":
        cut = _truncate_steps(case, first_bad_sample(outcome.diffs) + 1)
        o = run_one(doc, cut)
        if same(o):
            case, outcome = cut, o
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for what, d, c in _candidates(doc, case):
            tries += 1
            if tries >= budget:
                break
            o = run_one(d, c)
            if same(o):
                doc, case, outcome = d, c, o
                changed = True
                if log:
                    log(what)
                break
    tidy_doc, tidy_case = _tidy(doc), _tidy(case)
    o = run_one(tidy_doc, tidy_case)
    if same(o):
        doc, case, outcome = tidy_doc, tidy_case, o
    return doc, case, outcome


_OPTIONAL_LISTS = {"queue", "tracks", "actions", "events", "audio", "sliders", "ik", "transform", "path",
                   "physics", "stateMachines", "constraints", "queries"}


def _tidy(v, key=None):
    """Semantically neutral clean-ups: empty optional lists, empty per-slot attachment maps,
    ``repeat: 1`` and images nothing refers to are dropped."""
    if isinstance(v, list):
        return [_tidy(x) for x in v]
    if not isinstance(v, dict):
        return v
    out = {}
    for k, x in v.items():
        x = _tidy(x, k)
        if (k in _OPTIONAL_LISTS and x == []) or (k == "repeat" and x == 1):
            continue
        out[k] = x
    if key == "attachments":
        out = {k: x for k, x in out.items() if x != {}}
    if "images" in out and isinstance(out.get("skeleton"), dict):
        used = json.dumps([out.get("skeleton"), out.get("atlas")])
        out["images"] = [im for im in out["images"] if json.dumps(im.get("id")) in used]
    return out


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "case"
