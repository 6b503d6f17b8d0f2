"""Reading Spine input safely: strict JSON, and a checking pass over the Spine data.

Everything the importer reads from a skeleton (JSON text, a parsed dict, or the dict
``skel.py`` builds from a ``.skel``) is checked here first, so the importer can assume
well-formed data; malformed input raises :class:`openbone.OpenBoneError` naming the
place in the Spine file::

    animations.run.bones.root.rotate[0].time: expected a number, got "zero"

Policy (conformance/NOTES.md, "Spine import"):

* wrong types, missing names (bones, slots, constraints, skins, events keys), a slot
  without a bone, malformed weighted vertex lists, triangle or weight bone indices out
  of range, curves too short or not numbers, draw-order offsets that do not describe an
  order, non-finite numbers (``NaN`` / ``Infinity`` literals, 1e999) and nesting deeper
  than Python's parser allows are errors;
* references to things that do not exist (a timeline for an unknown bone, slot or
  constraint, an unknown event key, a draw-order slot that does not exist) are warnings
  and the part is dropped, as before (the importer and the lenient OpenBone loader);
* counts are bounded by the data that holds them, and a few counts that are not
  (a sequence's ``count`` / ``digits``, the values an import would write) have limits.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Dict, Iterable, List, Optional

import numpy as np

from .._core import OpenBoneError

__all__ = ["SpineError", "loads_json", "check_skeleton", "place"]

SpineError = OpenBoneError

MAX_SEQUENCE_COUNT = 10000
MAX_SEQUENCE_DIGITS = 16
MAX_OUTPUT_VALUES = 50_000_000  # numbers an import may write (deform keys × values, draw orders × slots)
INT32 = 2 ** 31

_IDENT = re.compile(r"[^.\[\]\"\s]+")


def place(path: str, key: Any) -> str:
    """``path`` + ``.key`` (a name) or ``[key]`` (an index); odd names are quoted."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    k = str(key)
    part = k if _IDENT.fullmatch(k) else json.dumps(k, ensure_ascii=False)
    if not path:
        return part if _IDENT.fullmatch(k) else f"[{part}]"
    return f"{path}.{part}" if _IDENT.fullmatch(k) else f"{path}[{part}]"


class _NonFinite:
    """A number literal JSON cannot hold as a finite double (NaN, Infinity, 1e999, or an
    integer too long to read); the checker reports it where it is used."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _parse_float(s: str):
    f = float(s)
    return f if math.isfinite(f) else _NonFinite(s)


def _parse_int(s: str):
    if len(s.lstrip("-")) > 300:  # beyond any double (and Python's int-string limit)
        return _NonFinite(s if len(s) < 40 else s[:20] + "...")
    return int(s)


def loads_json(data: bytes, what: str = "skeleton JSON") -> Any:
    """Strict JSON: UTF-8 (a BOM is allowed), no NaN/Infinity, numbers a double can
    hold.  Errors name the line and column."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise SpineError(f"{what}: not UTF-8 text (line {line}, byte {e.start})") from None
    try:
        return json.loads(text, parse_float=_parse_float, parse_int=_parse_int, parse_constant=_NonFinite)
    except json.JSONDecodeError as e:
        raise SpineError(f"{what}: not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise SpineError(f"{what}: arrays or objects nested too deeply to read") from None


def _show(v: Any) -> str:
    if isinstance(v, _NonFinite):
        return v.text
    if isinstance(v, str):
        s = json.dumps(v if len(v) <= 40 else v[:40] + "...", ensure_ascii=False)
        return s
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, (list, tuple)):
        return "an array"
    if isinstance(v, (int, float, np.integer, np.floating)):
        if isinstance(v, (float, np.floating)) and v == math.floor(v) and abs(v) < 1e16:
            return str(int(v))
        return repr(v) if not isinstance(v, float) else json.dumps(v)
    return type(v).__name__


F32_MAX = float(np.finfo(np.float32).max)


def _is_num(v: Any) -> bool:
    return (isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
            and math.isfinite(v) and abs(v) <= F32_MAX)


def _not_num(v: Any) -> str:
    """Why ``v`` is not a number Spine can hold."""
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)) \
            and math.isfinite(v):
        return f"{_show(v)} is beyond float32 range (Spine stores numbers as float32)"
    return f"expected a number, got {_show(v)}"


_HEX = re.compile(r"#?[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?")
_INHERIT = ("normal", "onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection")
_BLEND = ("normal", "additive", "multiply", "screen")
_ATT_TYPES = ("region", "mesh", "linkedmesh", "boundingbox", "clipping", "path", "point")
_SEQ_MODES = ("hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse")
# Spine timeline name → number of values its curve covers
_BONE_TL = {"rotate": 1, "translate": 2, "translatex": 1, "translatey": 1, "scale": 2, "scalex": 1,
            "scaley": 1, "shear": 2, "shearx": 1, "sheary": 1}
_SLOT_TL = {"rgba": 4, "rgb": 3, "alpha": 1, "rgba2": 7, "rgb2": 6}
_PHYS_TL = ("inertia", "strength", "damping", "mass", "wind", "gravity", "mix")


class _Checker:
    def __init__(self, warnings: List[str]):
        self.warnings = warnings
        self.output_values = 0

    # ---- primitives -------------------------------------------------------------

    def fail(self, path: str, msg: str):
        raise SpineError(f"{path}: {msg}" if path else msg)

    def warn(self, msg: str) -> None:
        if msg not in self.warnings:
            self.warnings.append(msg)

    def obj(self, v: Any, path: str) -> Dict[str, Any]:
        if not isinstance(v, dict):
            self.fail(path, f"expected an object, got {_show(v)}")
        return v

    def arr(self, v: Any, path: str) -> List[Any]:
        if not isinstance(v, (list, tuple)):
            self.fail(path, f"expected an array, got {_show(v)}")
        return v  # type: ignore[return-value]

    def opt_obj(self, d: Dict[str, Any], key: str, path: str) -> Dict[str, Any]:
        v = d.get(key)
        return {} if v is None else self.obj(v, place(path, key))

    def opt_arr(self, d: Dict[str, Any], key: str, path: str) -> List[Any]:
        v = d.get(key)
        return [] if v is None else self.arr(v, place(path, key))

    def num(self, d: Dict[str, Any], key: str, path: str) -> None:
        if key in d and not _is_num(d[key]):
            self.fail(place(path, key), _not_num(d[key]))

    def nums(self, d: Dict[str, Any], keys: Iterable[str], path: str) -> None:
        for k in keys:
            if k in d and not _is_num(d[k]):
                self.fail(place(path, k), _not_num(d[k]))

    def number_list(self, v: Any, path: str) -> List[Any]:
        a = self.arr(v, path)
        for i, x in enumerate(a):
            if not _is_num(x):
                self.fail(place(path, i), _not_num(x))
        return a

    def integer(self, d: Dict[str, Any], key: str, path: str, lo: int = -INT32, hi: int = INT32 - 1) -> None:
        if key in d:
            self.int_value(d[key], place(path, key), lo, hi)

    def int_value(self, v: Any, path: str, lo: int = -INT32, hi: int = INT32 - 1, whole_float: bool = False) -> int:
        """An integer (a JSON integer; ``whole_float``: also a number with no fraction,
        as in the weighted vertex lists, where Spine writes counts among floats)."""
        if isinstance(v, (bool, np.bool_)) or not (
                isinstance(v, (int, np.integer)) or
                (whole_float and _is_num(v) and float(v) == math.floor(float(v)))):
            self.fail(path, f"expected an integer, got {_show(v)}")
        if not lo <= v <= hi:
            self.fail(path, f"{_show(v)} is out of range ({lo} to {hi})")
        return int(v)

    def boolean(self, d: Dict[str, Any], keys: Iterable[str], path: str) -> None:
        for k in keys:
            if k in d and not isinstance(d[k], bool):
                self.fail(place(path, k), f"expected true or false, got {_show(d[k])}")

    def string(self, d: Dict[str, Any], key: str, path: str, required: bool = False, null: bool = False) -> None:
        """``d[key]`` is a string (``null``: or null, when not ``required``)."""
        if key not in d:
            if required:
                self.fail(path, f"missing \"{key}\" (required)")
            return
        v = d[key]
        if v is None and null and not required:
            return
        if not isinstance(v, str):
            self.fail(place(path, key), f"expected a string, got {_show(v)}")
        if "\0" in v:
            self.fail(place(path, key), "a NUL character in a string")

    def name(self, d: Dict[str, Any], path: str, key: str = "name") -> str:
        self.string(d, key, path, required=True)
        if d[key] == "" and key == "name":
            self.fail(place(path, key), "an empty name")
        return d[key]

    def strings(self, d: Dict[str, Any], key: str, path: str) -> List[str]:
        a = self.opt_arr(d, key, path)
        for i, v in enumerate(a):
            if not isinstance(v, str):
                self.fail(place(place(path, key), i), f"expected a name, got {_show(v)}")
        return a

    def color(self, d: Dict[str, Any], key: str, path: str, six: bool = False) -> None:
        if key not in d or d[key] is None:
            return
        v = d[key]
        if not isinstance(v, str) or not _HEX.fullmatch(v):
            self.fail(place(path, key), f"expected a hex colour (RRGGBB{'' if six else 'AA'}), got {_show(v)}")

    def enum(self, d: Dict[str, Any], key: str, path: str, values) -> None:
        if key not in d or d[key] is None:
            return
        v = d[key]
        if not isinstance(v, str):
            self.fail(place(path, key), f"expected one of {', '.join(values)}, got {_show(v)}")
        if v not in values and v[:1].lower() + v[1:] not in values:
            self.fail(place(path, key), f"expected one of {', '.join(values)}, got {_show(v)}")

    def unique(self, names: List[str], paths: List[str], what: str) -> None:
        seen: Dict[str, str] = {}
        for n, p in zip(names, paths):
            if n in seen:
                self.fail(p, f"duplicate {what} name {_show(n)} (also at {seen[n]})")
            seen[n] = p

    def budget(self, n: int, path: str) -> None:
        self.output_values += n
        if self.output_values > MAX_OUTPUT_VALUES:
            self.fail(path, f"the import would write more than {MAX_OUTPUT_VALUES} numbers "
                            "(deform keys × vertices, draw-order keys × slots)")

    # ---- the skeleton -----------------------------------------------------------

    def check(self, data: Any) -> None:
        root = self.obj(data, "")
        if "skeleton" in root:
            head = root["skeleton"]
            if head is not None:
                head = self.obj(head, "skeleton")
                self.nums(head, ("x", "y", "width", "height", "fps", "referenceScale"), "skeleton")
                for k in ("hash", "spine", "images", "audio"):
                    self.string(head, k, "skeleton", null=True)
        bones = self.arr(root.get("bones"), "bones")
        self.bones: Dict[str, int] = {}
        for i, b in enumerate(bones):
            p = place("bones", i)
            b = self.obj(b, p)
            self.name(b, p)
            self.string(b, "parent", p, null=True)
            self.nums(b, ("length", "x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY"), p)
            self.enum(b, "inherit", p, _INHERIT)
            self.enum(b, "transform", p, _INHERIT)
            self.boolean(b, ("skin",), p)
            self.color(b, "color", p)
        self.unique([b["name"] for b in bones], [place(place("bones", i), "name") for i in range(len(bones))], "bone")
        self.bones = {b["name"]: i for i, b in enumerate(bones)}
        self.nbones = len(bones)

        slots = self.opt_arr(root, "slots", "")
        for i, s in enumerate(slots):
            p = place("slots", i)
            s = self.obj(s, p)
            self.name(s, p)
            if "bone" not in s:
                self.fail(p, f"slot {_show(s['name'])} has no \"bone\" (required)")
            self.string(s, "bone", p, required=True)
            self.color(s, "color", p)
            self.color(s, "dark", p, six=True)
            self.string(s, "attachment", p, null=True)
            self.enum(s, "blend", p, _BLEND)
            self.boolean(s, ("visible",), p)
        self.unique([s["name"] for s in slots], [place(place("slots", i), "name") for i in range(len(slots))], "slot")
        self.slots = {s["name"]: i for i, s in enumerate(slots)}

        self.cons: Dict[str, set] = {"ik": set(), "transform": set(), "path": set(), "physics": set()}
        if isinstance(root.get("constraints"), list):  # 4.3
            for i, c in enumerate(root["constraints"]):
                p = place("constraints", i)
                c = self.obj(c, p)
                self.string(c, "type", p)
                kind = c.get("type")
                self.constraint(kind, c, p)
        else:
            for kind in ("ik", "transform", "path", "physics"):
                lst = self.opt_arr(root, kind, "")
                for i, c in enumerate(lst):
                    self.constraint(kind, self.obj(c, place(kind, i)), place(kind, i))
                names = [c["name"] for c in lst]
                self.unique(names, [place(place(kind, i), "name") for i in range(len(lst))], f"{kind} constraint")

        self.skins(root)
        events = root.get("events")
        if events is not None:
            events = self.obj(events, "events")
            for n, e in events.items():
                p = place("events", n)
                e = self.obj(e, p)
                self.integer(e, "int", p)
                self.nums(e, ("float", "volume", "balance"), p)
                self.string(e, "string", p, null=True)
                self.string(e, "audio", p, null=True)
        self.events = set(events or ())
        anims = root.get("animations")
        self.clean = root
        if anims is not None:
            anims = self.obj(anims, "animations")
            self.clean = dict(root)
            self.clean["animations"] = {n: self.animation(self.obj(a, place("animations", n)), place("animations", n))
                                        for n, a in anims.items()}

    def constraint(self, kind: Any, c: Dict[str, Any], p: str) -> None:
        self.name(c, p)
        self.integer(c, "order", p, 0)
        self.boolean(c, ("skin",), p)
        if kind in ("ik", "transform", "path"):
            self.strings(c, "bones", p)
            self.string(c, "target", p, null=True)
        if kind == "ik":
            self.nums(c, ("mix", "softness"), p)
            self.boolean(c, ("bendPositive", "compress", "stretch", "uniform"), p)
        elif kind == "transform":
            self.nums(c, ("rotation", "x", "y", "scaleX", "scaleY", "shearY", "mixRotate", "mixX", "mixY",
                          "mixScaleX", "mixScaleY", "mixShearY"), p)
            self.boolean(c, ("local", "relative"), p)
        elif kind == "path":
            self.enum(c, "positionMode", p, ("fixed", "percent"))
            self.enum(c, "spacingMode", p, ("length", "fixed", "percent", "proportional"))
            self.enum(c, "rotateMode", p, ("tangent", "chain", "chainScale"))
            self.nums(c, ("rotation", "position", "spacing", "mixRotate", "mixX", "mixY"), p)
        elif kind == "physics":
            self.string(c, "bone", p, null=True)
            self.nums(c, ("x", "y", "rotate", "scaleX", "shearX", "limit", "inertia", "strength", "damping",
                          "mass", "wind", "gravity", "mix"), p)
            if "fps" in c:
                self.num(c, "fps", p)
                if not c["fps"] > 0:
                    self.fail(place(p, "fps"), f"expected a positive number, got {_show(c['fps'])}")
            if "mass" in c and c["mass"] == 0:
                self.fail(place(p, "mass"), "a mass of 0 (Spine divides by it)")
            self.boolean(c, ("inertiaGlobal", "strengthGlobal", "dampingGlobal", "massGlobal", "windGlobal",
                             "gravityGlobal", "mixGlobal"), p)
        if kind in self.cons:
            self.cons[kind].add(c["name"])

    # ---- skins and attachments ----------------------------------------------------

    def skins(self, root: Dict[str, Any]) -> None:
        skins = root.get("skins")
        self.skin_atts: Dict[str, Dict[str, Dict[str, Any]]] = {}
        if skins is None:
            return
        if isinstance(skins, dict):  # 3.7 and older: {name: {slot: {...}}}
            items = [(place("skins", n), n, {"attachments": v}) for n, v in skins.items()]
        else:
            skins = self.arr(skins, "skins")
            items = []
            for i, sk in enumerate(skins):
                p = place("skins", i)
                sk = self.obj(sk, p)
                items.append((p, self.name(sk, p), sk))
            self.unique([n for _, n, _ in items], [place(p, "name") for p, _, _ in items], "skin")
        self.deform_len: Dict[tuple, Optional[int]] = {}
        linked = []
        for p, sname, sk in items:
            for k in ("bones", "ik", "transform", "path", "physics", "constraints"):
                self.strings(sk, k, p)
            pa = place(p, "attachments")
            atts = self.opt_obj(sk, "attachments", p)
            for slot, entries in atts.items():
                ps = place(pa, slot)
                entries = self.obj(entries, ps)
                for key, a in entries.items():
                    pk = place(ps, key)
                    a = self.obj(a, pk)
                    n = self.attachment(a, pk)
                    self.deform_len[(sname, slot, key)] = n
                    if a.get("type") == "linkedmesh":
                        linked.append((sname, slot, key, a))
            self.skin_atts[sname] = atts
        for sname, slot, key, a in linked:  # a linked mesh deforms like its parent
            for skn in ([a.get("skin")] if a.get("skin") else []) + ["default", sname]:
                n = self.deform_len.get((skn, slot, a.get("parent")))
                if n is not None:
                    self.deform_len[(sname, slot, key)] = n
                    break

    def attachment(self, a: Dict[str, Any], p: str) -> Optional[int]:
        """Checks an attachment; returns the length of its deform keys (None: no vertices)."""
        self.enum(a, "type", p, _ATT_TYPES)
        t = a.get("type") or "region"
        t = t[:1].lower() + t[1:]
        for k in ("name", "path"):
            self.string(a, k, p, null=True)
        self.color(a, "color", p)
        self.nums(a, ("x", "y", "rotation", "scaleX", "scaleY", "width", "height"), p)
        if "sequence" in a and a["sequence"] is not None:
            ps = place(p, "sequence")
            seq = self.obj(a["sequence"], ps)
            self.integer(seq, "count", ps, 0, MAX_SEQUENCE_COUNT)
            self.integer(seq, "start", ps, 0)
            self.integer(seq, "digits", ps, 0, MAX_SEQUENCE_DIGITS)
            self.integer(seq, "setup", ps, 0)
            self.integer(seq, "setupIndex", ps, 0)
        if t == "mesh":
            uvs = self.number_list(a.get("uvs", []), place(p, "uvs"))
            if len(uvs) % 2:
                self.fail(place(p, "uvs"), f"an odd number of values ({len(uvs)})")
            n = len(uvs) // 2
            tris = self.arr(a.get("triangles", []), place(p, "triangles"))
            if tris and not n:
                self.fail(place(p, "triangles"), "triangles but no vertices (uvs is empty)")
            for i, v in enumerate(tris):
                self.int_value(v, place(place(p, "triangles"), i), 0, max(0, n - 1))
            if len(tris) % 3:
                self.fail(place(p, "triangles"), f"{len(tris)} indices is not a whole number of triangles")
            self.integer(a, "hull", p, 0, n)
            self.opt_arr(a, "edges", p)
            return self.vertices(a, n, p)
        if t == "linkedmesh":
            if "parent" not in a:
                self.fail(p, "a linked mesh without \"parent\"")
            self.string(a, "parent", p, required=True)
            self.string(a, "skin", p, null=True)
            self.boolean(a, ("timelines", "deform"), p)
            return None
        if t in ("boundingbox", "clipping", "path"):
            vc = a.get("vertexCount", 0)
            n = self.int_value(vc, place(p, "vertexCount"), 0)
            if t == "clipping":
                self.string(a, "end", p, null=True)
            if t == "path":
                self.boolean(a, ("closed", "constantSpeed"), p)
                self.number_list(a.get("lengths", []), place(p, "lengths"))
            return self.vertices(a, n, p)
        return None

    def vertices(self, a: Dict[str, Any], n: int, p: str) -> int:
        """Unweighted (2n numbers) or weighted (per vertex: count, then count × bone, x, y,
        weight) vertices; returns the deform length (2n, or 2 × the influences)."""
        pv = place(p, "vertices")
        v = self.number_list(a.get("vertices", []), pv)
        if len(v) == 2 * n:
            return 2 * n
        i = 0
        influences = 0
        for vi in range(n):
            if i >= len(v):
                self.fail(pv, f"weighted vertices end after {vi} of {n} vertices ({len(v)} values)")
            count = self.int_value(v[i], place(pv, i), 0, whole_float=True)
            if 4 * count > len(v) - i - 1:
                self.fail(place(pv, i), f"vertex {vi} has {_show(v[i])} influences (4 values each) but only "
                                        f"{len(v) - i - 1} values follow")
            i += 1
            for _ in range(count):
                self.int_value(v[i], place(pv, i), 0, max(0, self.nbones - 1), whole_float=True)
                i += 4
            influences += count
        if i != len(v):
            self.fail(pv, f"{len(v)} values: neither {2 * n} unweighted values nor {n} weighted vertices "
                          f"(those end at {i})")
        return 2 * influences

    # ---- animations -------------------------------------------------------------

    def keys(self, v: Any, p: str, nvalues: int, fields=(), ints=(), bools=(), strings=(), colors=()) -> List[Any]:
        ks = self.arr(v, p)
        for i, k in enumerate(ks):
            pk = place(p, i)
            k = self.obj(k, pk)
            self.num(k, "time", pk)
            self.nums(k, fields, pk)
            for f in ints:
                self.integer(k, f, pk)
            self.boolean(k, bools, pk)
            for f in strings:
                self.string(k, f, pk, null=True)
            for f in colors:
                self.color(k, f, pk, six=(f == "dark"))
            c = k.get("curve")
            if c is not None and c != "stepped":
                pc = place(pk, "curve")
                if not isinstance(c, (list, tuple)):
                    self.fail(pc, f"expected \"stepped\" or an array of numbers, got {_show(c)}")
                self.number_list(c, pc)
                if nvalues and len(c) < 4 * nvalues:
                    self.fail(pc, f"{len(c)} numbers; a bezier of {nvalues} value"
                                  f"{'s' if nvalues > 1 else ''} needs {4 * nvalues}")
        return ks

    def animation(self, a: Dict[str, Any], p: str) -> Dict[str, Any]:
        """Checks an animation; returns it without the timelines and keys whose target does
        not exist (each dropped part is a warning)."""
        a = dict(a)

        def keep(section: str, names) -> None:
            if isinstance(a.get(section), dict):
                a[section] = {k: v for k, v in a[section].items() if k in names or (section == "physics" and k == "")}
        for sname, tls in self.opt_obj(a, "slots", p).items():
            ps = place(place(p, "slots"), sname)
            tls = self.obj(tls, ps)
            if sname not in self.slots:
                self.warn(f"{ps}: no slot {_show(sname)}; its timelines are dropped")
            for tname, keys in tls.items():
                pt = place(ps, tname)
                if tname == "attachment":
                    self.keys(keys, pt, 0, strings=("name",))
                elif tname in _SLOT_TL:
                    self.keys(keys, pt, _SLOT_TL[tname], fields=("value",), colors=("color", "light", "dark"))
                elif keys is not None:
                    self.arr(keys, pt)
        for bname, tls in self.opt_obj(a, "bones", p).items():
            pb = place(place(p, "bones"), bname)
            tls = self.obj(tls, pb)
            if bname not in self.bones:
                self.warn(f"{pb}: no bone {_show(bname)}; its timelines are dropped")
            for tname, keys in tls.items():
                pt = place(pb, tname)
                if tname == "inherit":
                    for i, k in enumerate(self.keys(keys, pt, 0)):
                        self.enum(k, "inherit", place(pt, i), _INHERIT)
                else:
                    self.keys(keys, pt, _BONE_TL.get(tname, 0), fields=("value", "x", "y"))
        for kind, fields, bools, nv in (
                ("ik", ("mix", "softness"), ("bendPositive", "compress", "stretch"), 2),
                ("transform", ("mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"), (), 6)):
            for cname, keys in self.opt_obj(a, kind, p).items():
                pc = place(place(p, kind), cname)
                if cname not in self.cons[kind]:
                    self.warn(f"{pc}: no {kind} constraint {_show(cname)}; its keys are dropped")
                self.keys(keys, pc, nv, fields=fields, bools=bools)
        for cname, tls in self.opt_obj(a, "path", p).items():
            pc = place(place(p, "path"), cname)
            tls = self.obj(tls, pc)
            if cname not in self.cons["path"]:
                self.warn(f"{pc}: no path constraint {_show(cname)}; its keys are dropped")
            for tname, keys in tls.items():
                nv = 3 if tname == "mix" else 1
                self.keys(keys, place(pc, tname), nv, fields=("value", "mixRotate", "mixX", "mixY"))
        for cname, tls in self.opt_obj(a, "physics", p).items():
            pc = place(place(p, "physics"), cname)
            tls = self.obj(tls, pc)
            if cname and cname not in self.cons["physics"]:
                self.warn(f"{pc}: no physics constraint {_show(cname)}; its keys are dropped")
            for tname, keys in tls.items():
                self.keys(keys, place(pc, tname), 0 if tname == "reset" else 1, fields=("value",))
        key = "attachments" if "attachments" in a else "deform"
        for skin, slots in self.opt_obj(a, key, p).items():
            pk = place(place(p, key), skin)
            for sname, names in self.obj(slots, pk).items():
                ps = place(pk, sname)
                for aname, tls in self.obj(names, ps).items():
                    pa = place(ps, aname)
                    for tname, keys in self.obj(tls, pa).items():
                        pt = place(pa, tname)
                        if tname == "deform":
                            ks = self.keys(keys, pt, 1)
                            n = self.deform_len.get((skin, sname, aname)) if hasattr(self, "deform_len") else None
                            for i, k in enumerate(ks):
                                self.integer(k, "offset", place(pt, i), 0)
                                if "vertices" in k and k["vertices"] is not None:
                                    self.number_list(k["vertices"], place(place(pt, i), "vertices"))
                            self.budget(len(ks) * (n or 0), pt)
                        elif tname == "sequence":
                            for i, k in enumerate(self.keys(keys, pt, 0, fields=("delay",), ints=("index",))):
                                self.enum(k, "mode", place(pt, i), _SEQ_MODES)
                        elif keys is not None:
                            self.arr(keys, pt)
        dkey = "drawOrder" if "drawOrder" in a else "draworder"
        if a.get(dkey) is not None:
            a[dkey] = self.draw_order(self.keys(a[dkey], place(p, dkey), 0), place(p, dkey))
        if a.get("events") is not None:
            pe = place(p, "events")
            evs = []
            for i, k in enumerate(self.keys(a["events"], pe, 0, fields=("float", "volume", "balance"),
                                            ints=("int",), strings=("string",))):
                pk = place(pe, i)
                self.name(k, pk)
                if k["name"] not in self.events:
                    self.warn(f"{pk}: no event {_show(k['name'])}; the key is dropped")
                else:
                    evs.append(k)
            a["events"] = evs
        keep("slots", self.slots)
        keep("bones", self.bones)
        for kind in ("ik", "transform", "path", "physics"):
            keep(kind, self.cons[kind])
        return a

    def draw_order(self, keys: List[Dict[str, Any]], p: str) -> List[Dict[str, Any]]:
        """Offsets must describe an order (spine-core's algorithm): slots in increasing
        order, each moved within the slots, no two to the same place.  Returns the keys
        without offsets for slots that do not exist."""
        n = len(self.slots)
        self.budget(len(keys) * n, p)
        out = []
        for i, k in enumerate(keys):
            pk = place(p, i)
            offs = k.get("offsets")
            out.append(k)
            if offs is None:
                continue
            offs = self.arr(offs, place(pk, "offsets"))
            kept = []
            out[-1] = dict(k, offsets=kept)
            last = -1
            taken = set()
            for j, o in enumerate(offs):
                po = place(place(pk, "offsets"), j)
                o = self.obj(o, po)
                self.name(o, po, "slot")
                off = self.int_value(o.get("offset", 0), place(po, "offset"))
                si = self.slots.get(o["slot"])
                if si is None:
                    self.warn(f"{po}: no slot {_show(o['slot'])}; the offset is dropped")
                    continue
                if si <= last:
                    self.fail(po, f"slot {_show(o['slot'])} is listed after a slot that comes later in the "
                                  "draw order (offsets must follow the slots' order)")
                last = si
                if not 0 <= si + off < n:
                    self.fail(place(po, "offset"), f"{off} moves slot {_show(o['slot'])} (index {si}) outside "
                                                   f"the {n} slots")
                if si + off in taken:
                    self.fail(place(po, "offset"), f"two slots moved to draw-order index {si + off}")
                taken.add(si + off)
                kept.append(o)
        return out


def check_skeleton(data: Any, warnings: Optional[List[str]] = None) -> Any:
    """Check parsed Spine skeleton data (the JSON dict, or what ``skel.py`` reads);
    raises :class:`openbone.OpenBoneError` naming the place of the first problem and
    appends warnings (dangling references) to ``warnings``.  Returns the data with the
    animation parts whose target does not exist left out (a shallow copy where it
    differs; the input is not modified)."""
    c = _Checker(warnings if warnings is not None else [])
    c.check(data)
    return c.clean


def check_finite(doc: Any) -> None:
    """The imported document must hold finite numbers only: extreme (but float32) input
    values can still multiply past double range (a chain of scales of 1e38).  Raises
    OpenBoneError naming the first non-finite number's place in the OpenBone document."""
    try:
        json.dumps(doc, allow_nan=False)
        return
    except ValueError:
        pass
    stack: List[tuple] = [("", doc)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            raise SpineError(f"importing gives a non-finite number at {path or 'the top'} of the OpenBone "
                             "document: the skeleton's values are too extreme to pose")
        if isinstance(v, dict):
            stack.extend((place(path, k), x) for k, x in reversed(list(v.items())))
        elif isinstance(v, (list, tuple)):
            stack.extend((place(path, i), x) for i, x in reversed(list(enumerate(v))))
    raise SpineError("importing gives a document that is not JSON")
