"""Skeleton JSON 4.2 (Spine / Rigby2D) import (issue 9).

``import_skeleton_json(path_or_dict, curves="spine")`` reads a skeleton JSON file
(format 4.2 as ``rigby2d-runtime-spec.txt`` describes it; 4.3 files are read too)
and builds the equivalent OpenBone document dict (``openbone-file-format.txt`` +
``CLARIFICATIONS.md``), then loads it with :func:`openbone.loads`.

What changes on the way (everything else maps one to one):

* Ids are the Spine names (bones, slots, skins, constraints, events, animations).
* Spine keys are relative to the setup pose; OpenBone keys are absolute.  A bone
  rotate/translate/shear key becomes ``setup + key``, a scale key ``setup * key``.
* Spine stores key times, values, curve samples and vertices as float32: every such
  number is rounded to float32 here (``numpy.float32``).
* Curves: Spine writes absolute handles ``[cx1, cy1, cx2, cy2]`` per value; OpenBone a
  normalised ``[x1, y1, x2, y2]`` per key and timeline.  Multi-value Spine timelines
  (translate, scale, shear, rgba...) become one OpenBone timeline per value, each
  with its own curve, so nothing is lost.  The document gets ``"curveMode"``:
  ``"spine"`` (the Spine runtime's 10-segment sampling, the default) or
  ``"exact"`` (solve x(t), then y).
* The document gets ``"poseModel": "spine"`` (unless ``pose_model="openbone"``):
  the runtime then poses it as spine-core 4.2 does (update order, inherit, IK,
  transform, path and physics constraints; csrc/curve_spine.h and the "Spine pose
  model" section of ``conformance/NOTES.md``), and the import writes what that
  needs: physics constraints with Spine's own fields (``shearX``, ``limit``, the
  ``*Global`` flags, Spine's damping/mass/wind/gravity), physics timelines as they
  are (``reset`` keys as a ``reset`` timeline, a constraint name ``""`` as the id
  ``""``), transform ``mixY`` / ``mixScaleY``, path ``lengths``, and weighted
  deform keys per influence (the ``influenceOffsets`` extension: Spine's numbers).
* Weighted meshes: Spine's flat ``vertices`` become per-vertex influence lists.
  With ``pose_model="openbone"`` (a plain OpenBone document) weighted deform keys
  get one offset per vertex (added to every influence, §8.3): the one that gives
  the same vertex as Spine at the key (``d = M⁻¹ Σ wᵢ Lᵢ dᵢ`` with ``M = Σ wᵢ Lᵢ``,
  ``Lᵢ`` the linear part of influence bone i in the animation's pose at the key's
  time); between keys it is approximate when a vertex's influences rotate
  relative to each other (see ``conformance/NOTES.md``).
* Linked meshes get their parent's geometry and ``linked: {mesh, deform}``.
* ``pose_model="openbone"``: physics constraints are mapped onto OpenBone §7.4
  (see ``_physics``); dropped with a warning: physics ``reset`` keys, ``shearX`` /
  ``limit``, transform ``mixY`` ≠ ``mixX`` and ``mixScaleY`` ≠ ``mixScaleX`` (the X
  value is used).
* Dropped (no OpenBone equivalent, listed in ``result warnings``): event ``audio``
  paths and ``balance``.  Colour spans whose channels have different curves become
  linear keys at the channels' sample points.
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

__all__ = ["import_skeleton_json", "skeleton_json_to_dict", "is_skeleton_json"]

_F32 = np.float32

# spine-core 4.2 PhysicsConstraintData fields and SkeletonJson defaults (poseModel "spine")
_SPINE_PHYSICS_FIELDS = [("x", 0), ("y", 0), ("rotate", 0), ("scaleX", 0), ("shearX", 0), ("limit", 5000),
                         ("fps", 60), ("inertia", 1), ("strength", 100), ("damping", 1), ("mass", 1), ("wind", 0),
                         ("gravity", 0), ("mix", 1), ("inertiaGlobal", False), ("strengthGlobal", False),
                         ("dampingGlobal", False), ("massGlobal", False), ("windGlobal", False),
                         ("gravityGlobal", False), ("mixGlobal", False)]


def _f(x: Any) -> float:
    """float32 rounding (Spine stores keys, curves and vertices as float32)."""
    return float(_F32(x))


def _fl(xs) -> List[float]:
    return [float(v) for v in np.asarray(xs, dtype=np.float64).astype(np.float32)]


def is_skeleton_json(d: Any) -> bool:
    """True when a parsed JSON value looks like a skeleton JSON file (top-level
    ``skeleton`` and ``bones``)."""
    return isinstance(d, dict) and "skeleton" in d and "bones" in d and isinstance(d.get("bones"), list)


# ---- colours ----------------------------------------------------------------

def _hex(s: Optional[str], default: str = "FFFFFFFF") -> str:
    s = (s or default).lstrip("#")
    return "#" + s.upper()


def _rgba(s: Optional[str], default: str = "FFFFFFFF") -> List[float]:
    s = (s or default).lstrip("#")
    vals = [int(s[i:i + 2], 16) / 255 for i in range(0, min(len(s), 8), 2)]
    while len(vals) < 4:
        vals.append(1.0)
    return vals


def _hex_of(c: List[float]) -> str:
    return "#" + "".join("%02X" % max(0, min(255, int(round(v * 255)))) for v in c)


# ---- curves -----------------------------------------------------------------

def _norm_curve(curve: Any, value: int, t1: float, t2: float, v1: float, v2: float):
    """The Spine curve of one value for the span (t1, v1) → (t2, v2), in OpenBone
    form: None (linear), "stepped" or normalised [x1, y1, x2, y2]."""
    if curve is None:
        return None
    if curve == "stepped":
        return "stepped"
    if not isinstance(curve, list):
        return None
    i = value * 4
    if len(curve) < i + 4:
        return None
    cx1, cy1, cx2, cy2 = curve[i:i + 4]
    dt = t2 - t1
    x1 = (cx1 - t1) / dt if dt != 0 else 0.0
    x2 = (cx2 - t1) / dt if dt != 0 else 1.0
    dv = v2 - v1
    if dv != 0:
        y1 = (cy1 - v1) / dv
        y2 = (cy2 - v1) / dv
    else:  # the value does not change: the curve does not matter (rigby2d)
        y1, y2 = x1, x2
    return [x1, y1, x2, y2]


def _spans_leaving(curve: Any, nvalues: int, t1: float, t2: float) -> int:
    """How many of a key's bezier handles have a time outside [t1, t2]."""
    if not isinstance(curve, list):
        return 0
    n = 0
    for v in range(nvalues):
        i = v * 4
        if len(curve) >= i + 4 and not (t1 <= curve[i] <= t2 and t1 <= curve[i + 2] <= t2):
            n += 1
    return n


def spine_curve_samples(c: List[float], time1: float = 0.0, value1: float = 0.0, time2: float = 1.0,
                        value2: float = 1.0) -> List[Tuple[float, float]]:
    """The 9 interior points spine-core's ``CurveTimeline.setBezier`` samples a
    bezier into (10 segments from (time1, value1) to (time2, value2)); ``c`` =
    [cx1, cy1, cx2, cy2] in the same units (defaults: a normalised curve)."""
    cx1, cy1, cx2, cy2 = c
    tmpx, tmpy = (time1 - cx1 * 2 + cx2) * 0.03, (value1 - cy1 * 2 + cy2) * 0.03
    dddx, dddy = ((cx1 - cx2) * 3 - time1 + time2) * 0.006, ((cy1 - cy2) * 3 - value1 + value2) * 0.006
    ddx, ddy = tmpx * 2 + dddx, tmpy * 2 + dddy
    dx, dy = (cx1 - time1) * 0.3 + tmpx + dddx * 0.16666667, (cy1 - value1) * 0.3 + tmpy + dddy * 0.16666667
    x, y = time1 + dx, value1 + dy
    out = []
    for _ in range(9):
        out.append((x, y))
        dx += ddx
        dy += ddy
        ddx += dddx
        ddy += dddy
        x += dx
        y += dy
    return out


def spine_curve(c: List[float], t: float) -> float:
    """spine-core ``getBezierValue`` on the samples of a normalised curve."""
    px = py = 0.0
    for i, (x, y) in enumerate(spine_curve_samples(c)):
        if (x > t) if i == 0 else (x >= t):
            return py + (t - px) / (x - px) * (y - py) if x != px else y
        px, py = x, y
    return py + (t - px) / (1 - px) * (1 - py) if px != 1 else 1.0


def exact_curve(c: List[float], t: float) -> float:
    """rigby2d "solve x(t), then y" (as csrc/curve_spine.c ob_curve_exact): x handles
    clamped to [0, 1], x(s) = t by bisection, y(s)."""
    x1, x2 = min(1.0, max(0.0, c[0])), min(1.0, max(0.0, c[2]))
    if t <= 0 or t >= 1:
        return t
    lo, hi = 0.0, 1.0
    for _ in range(64):
        s = (lo + hi) / 2
        if 3 * (1 - s) ** 2 * s * x1 + 3 * (1 - s) * s * s * x2 + s ** 3 < t:
            lo = s
        else:
            hi = s
    s = (lo + hi) / 2
    return 3 * (1 - s) ** 2 * s * c[1] + 3 * (1 - s) * s * s * c[3] + s ** 3


def _bake_curves(doc: Dict[str, Any]) -> None:
    """curves="linear": every bezier span of a number or offsets timeline becomes
    10 linear spans through Spine's samples (any OpenBone runtime then poses it
    as Spine does, without "curveMode").  Colour keys keep their curve."""
    for anim in doc["animations"]:
        for tl in anim["timelines"]:
            ks = tl["keys"]
            if tl["target"] == "slot" and tl["property"] in ("color", "dark"):
                continue
            out = []
            for i, k in enumerate(ks):
                c = k.get("curve")
                out.append(k)
                if not isinstance(c, list) or i + 1 >= len(ks):
                    continue
                k2 = ks[i + 1]
                t1, t2 = k["time"], k2["time"]
                del k["curve"]
                last = 0.0
                for x, y in spine_curve_samples(c):
                    if not (last < x < 1):
                        continue
                    last = x
                    if isinstance(k["value"], list):
                        a, b = k["value"], k2["value"]
                        n = max(len(a), len(b))
                        a = a + [0.0] * (n - len(a))
                        b = b + [0.0] * (n - len(b))
                        v = [p + (q - p) * y for p, q in zip(a, b)]
                    else:
                        v = k["value"] + (k2["value"] - k["value"]) * y
                    out.append({"time": t1 + (t2 - t1) * x, "value": v})
            tl["keys"] = out


class _Importer:
    def __init__(self, src: Dict[str, Any], name: str, curves: str, images_dir: str, pose_model: str = "spine"):
        if curves not in ("spine", "exact", "linear"):
            raise ValueError('curves must be "spine", "exact" or "linear"')
        if pose_model not in ("spine", "openbone"):
            raise ValueError('pose_model must be "spine" or "openbone"')
        self.pose_model = pose_model
        self.s = src
        self.name = name
        self.curves = curves
        self.images_dir = images_dir
        self.warnings: List[str] = []
        self.handles_outside = 0
        self.flat_bulges = 0
        self.weighted_keys: List[tuple] = []  # (animation, weights, per-influence offsets, OpenBone key)
        head = src.get("skeleton") or {}
        self.version = str(head.get("spine", "4.2"))
        self.v43 = self.version.startswith("4.3") or "constraints" in src
        self.bones: List[Dict[str, Any]] = src.get("bones", [])
        self.bone_by_name = {b["name"]: b for b in self.bones}
        self.slots: List[Dict[str, Any]] = src.get("slots", [])
        self.slot_index = {s["name"]: i for i, s in enumerate(self.slots)}
        self.images: Dict[str, Dict[str, Any]] = {}
        self.setup_world: Optional[np.ndarray] = None  # (n, 6) FK setup pose, filled by pass 1
        self._constraint_lists()

    def warn(self, msg: str) -> None:
        if msg not in self.warnings:
            self.warnings.append(msg)

    # ---- constraints lists (4.2: ik/transform/path/physics; 4.3: constraints) ----

    def _constraint_lists(self) -> None:
        s = self.s
        if "constraints" in s and isinstance(s["constraints"], list):
            self.ik, self.tr, self.pa, self.ph = [], [], [], []
            for i, c in enumerate(s["constraints"]):
                kind = c.get("type")
                c = dict(c)
                c.setdefault("order", i)  # 4.3: already in application order
                {"ik": self.ik, "transform": self.tr, "path": self.pa, "physics": self.ph}.get(
                    kind, []).append(c)
                if kind not in ("ik", "transform", "path", "physics"):
                    self.warn(f"constraint {c.get('name')!r}: type {kind!r} has no OpenBone equivalent; dropped")
        else:
            self.ik = list(s.get("ik", []))
            self.tr = list(s.get("transform", []))
            self.pa = list(s.get("path", []))
            self.ph = list(s.get("physics", []))
        # constraint ids: the Spine name, made unique across kinds
        self.cid: Dict[Tuple[str, str], str] = {}
        used = set()
        for kind, lst in (("ik", self.ik), ("transform", self.tr), ("path", self.pa), ("physics", self.ph)):
            for c in lst:
                cid = c["name"]
                if cid in used:
                    cid = f"{kind}:{c['name']}"
                used.add(cid)
                self.cid[(kind, c["name"])] = cid

    # ---- skeleton -----------------------------------------------------------

    def bone(self, b: Dict[str, Any]) -> Dict[str, Any]:
        inherit = b.get("inherit", b.get("transform", "normal"))  # 3.8: "transform"
        if inherit not in ("normal", "onlyTranslation", "noRotationOrReflection", "noScale",
                           "noScaleOrReflection"):
            self.warn(f"bone {b['name']!r}: unknown inherit {inherit!r}, normal used")
            inherit = "normal"
        out = {"id": b["name"], "name": b["name"]}
        if b.get("parent") is not None:
            out["parent"] = b["parent"]
        out.update({
            "length": b.get("length", 0), "x": b.get("x", 0), "y": b.get("y", 0),
            "rotation": b.get("rotation", 0), "scaleX": b.get("scaleX", 1), "scaleY": b.get("scaleY", 1),
            "shearX": b.get("shearX", 0), "shearY": b.get("shearY", 0), "inherit": inherit,
        })
        if b.get("skin"):
            listed = any(b["name"] in (sk.get("bones") or []) for sk in self.s.get("skins", []))
            if not listed:
                self.warn(f"bone {b['name']!r} is skin-only but no skin lists it: always active in OpenBone")
        return out

    def slot(self, s: Dict[str, Any]) -> Dict[str, Any]:
        out = {"id": s["name"], "name": s["name"], "bone": s["bone"], "color": _hex(s.get("color"))}
        if s.get("dark") is not None:
            out["dark"] = _hex(s["dark"], "000000")[:7]
        out["attachment"] = s.get("attachment")
        out["blend"] = s.get("blend", "normal")
        return out

    # ---- attachments --------------------------------------------------------

    def image(self, path: str, w: float, h: float) -> str:
        im = self.images.get(path)
        if im is None:
            im = {"id": path, "name": path, "src": self.images_dir + path + ".png", "width": w or 0,
                  "height": h or 0}
            self.images[path] = im
        elif not im["width"] and w:
            im["width"], im["height"] = w, h
        return path

    def weighted(self, verts: List[float], nverts: int):
        """Spine's flat weighted list → per-vertex influence lists (float32)."""
        weights = []
        i = 0
        for _ in range(nverts):
            n = int(verts[i])
            i += 1
            infl = []
            for _ in range(n):
                bi = int(verts[i])
                infl.append({"bone": self.bones[bi]["name"] if 0 <= bi < len(self.bones) else None,
                             "x": _f(verts[i + 1]), "y": _f(verts[i + 2]), "weight": _f(verts[i + 3])})
                i += 4
            weights.append(infl)
        return weights

    def vertices(self, a: Dict[str, Any], nverts: int, slot_bone: str) -> Dict[str, Any]:
        """vertices (+ weights) of a vertex attachment; nverts = vertex count."""
        verts = a.get("vertices", [])
        if len(verts) == nverts * 2:
            return {"vertices": _fl(verts)}
        weights = self.weighted(verts, nverts)
        return {"vertices": self.weighted_setup_local(weights, slot_bone), "weights": weights}

    def weighted_setup_local(self, weights, slot_bone: str) -> List[float]:
        """Setup-pose positions of weighted vertices in the slot bone's space
        (OpenBone keeps ``vertices`` for editors; the runtime uses ``weights``)."""
        W = self.setup_world
        if W is None:
            return [0.0] * (2 * len(weights))
        bi = {b["name"]: i for i, b in enumerate(self.bones)}
        sb = W[bi.get(slot_bone, 0)]
        det = sb[0] * sb[3] - sb[1] * sb[2]
        if det == 0:
            det = 1e-9
        out = []
        for infl in weights:
            wx = wy = 0.0
            for w in infl:
                m = W[bi[w["bone"]]] if w["bone"] in bi else sb
                wx += (m[0] * w["x"] + m[1] * w["y"] + m[4]) * w["weight"]
                wy += (m[2] * w["x"] + m[3] * w["y"] + m[5]) * w["weight"]
            dx, dy = wx - sb[4], wy - sb[5]
            out += [_f((sb[3] * dx - sb[1] * dy) / det), _f((-sb[2] * dx + sb[0] * dy) / det)]
        return out

    def attachment(self, skin: str, slot: str, key: str, a: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        t = a.get("type", "region")
        name = a.get("name", key)
        path = a.get("path", name)
        slot_bone = self.slots[self.slot_index[slot]]["bone"] if slot in self.slot_index else None
        color = _hex(a.get("color"))
        if t == "region":
            seq = a.get("sequence")
            out = {"type": "region", "x": a.get("x", 0), "y": a.get("y", 0), "rotation": a.get("rotation", 0),
                   "scaleX": a.get("scaleX", 1), "scaleY": a.get("scaleY", 1),
                   "width": a.get("width", 32), "height": a.get("height", 32), "color": color}
            if seq:
                return self.sequence(out, path, seq)
            out["image"] = self.image(path, a.get("width", 32), a.get("height", 32))
            return out
        if t == "mesh":
            uvs = a.get("uvs", [])
            n = len(uvs) // 2
            out = {"type": "mesh", "image": self.image(path, a.get("width", 0), a.get("height", 0)),
                   "uvs": _fl(uvs), "triangles": list(a.get("triangles", [])), "color": color}
            out.update(self.vertices(a, n, slot_bone))
            out["hull"] = a.get("hull", n)
            if a.get("sequence"):
                self.warn(f"mesh {skin}/{slot}/{key}: a sequence on a mesh has no OpenBone equivalent; "
                          "its first frame is shown")
            return out
        if t == "linkedmesh":
            out = {"type": "mesh", "image": self.image(path, a.get("width", 0), a.get("height", 0)),
                   "color": color, "_linked": {"skin": a.get("skin"), "parent": a.get("parent", a.get("source")),
                                               "deform": a.get("deform", a.get("timelines", True)),
                                               "from_skin": skin, "slot": slot}}
            return out
        if t == "boundingbox":
            out = {"type": "boundingBox", "color": color}
            out.update(self.vertices(a, a.get("vertexCount", 0), slot_bone))
            return out
        if t == "clipping":
            out = {"type": "clipping", "color": color, "end": a.get("end")}
            out.update(self.vertices(a, a.get("vertexCount", 0), slot_bone))
            return out
        if t == "path":
            out = {"type": "path", "closed": a.get("closed", False),
                   "constantSpeed": a.get("constantSpeed", True), "color": color}
            out.update(self.vertices(a, a.get("vertexCount", 0), slot_bone))
            if self.pose_model == "spine" and a.get("lengths"):
                out["lengths"] = _fl(a["lengths"])  # spine-core's curve lengths (constantSpeed false)
            return out
        if t == "point":
            return {"type": "point", "x": a.get("x", 0), "y": a.get("y", 0), "rotation": a.get("rotation", 0),
                    "color": color}
        self.warn(f"attachment {skin}/{slot}/{key}: unknown type {t!r}; dropped")
        return None

    def sequence(self, region: Dict[str, Any], path: str, seq: Dict[str, Any]) -> Dict[str, Any]:
        """A region with a Spine sequence → an OpenBone sequence attachment showing
        frame ``setupIndex`` (fps 0, offset = setupIndex); sequence keys drive it."""
        count, start, digits = seq.get("count", 0), seq.get("start", 1), seq.get("digits", 0)
        setup = seq.get("setup", seq.get("setupIndex", 0))  # Spine's JSON names it "setup"
        frames = []
        for i in range(count):
            p = path + str(start + i).zfill(digits)
            frames.append({"image": self.image(p, region["width"], region["height"])})
        out = dict(region)
        out.update({"type": "sequence", "frames": frames, "fps": 0, "mode": "loop",
                    "offset": setup})
        return out

    def skins(self) -> List[Dict[str, Any]]:
        src = list(self.s.get("skins", []))
        if isinstance(self.s.get("skins"), dict):  # 3.7 and older: {name: {slot: {...}}}
            src = [{"name": k, "attachments": v} for k, v in self.s["skins"].items()]
        src.sort(key=lambda k: 0 if k.get("name") == "default" else 1)  # the default skin comes first
        if not src or src[0].get("name") != "default":
            src.insert(0, {"name": "default", "attachments": {}})
        self.skin_src = src
        out = []
        geometry: Dict[Tuple[str, str, str], Dict[str, Any]] = {}
        for sk in src:
            atts: Dict[str, Dict[str, Any]] = {}
            for slot, entries in (sk.get("attachments") or {}).items():
                if slot not in self.slot_index:
                    self.warn(f"skin {sk['name']!r}: no slot {slot!r}; its attachments are dropped")
                    continue
                for key, a in entries.items():
                    att = self.attachment(sk["name"], slot, key, a)
                    if att is None:
                        continue
                    atts.setdefault(slot, {})[key] = att
                    geometry[(sk["name"], slot, key)] = att
            o = {"id": sk["name"], "name": sk["name"], "attachments": atts}
            if sk is not src[0]:
                if sk.get("bones"):
                    o["bones"] = list(sk["bones"])
                cons = []
                for kind, lkey in (("ik", "ik"), ("transform", "transform"), ("path", "path"), ("physics", "physics")):
                    for n in sk.get(lkey) or []:
                        cons.append(self.cid.get((kind, n), n))
                for n in sk.get("constraints") or []:  # 4.3
                    cons.append(next((v for (k, nn), v in self.cid.items() if nn == n), n))
                if cons:
                    o["constraints"] = cons
            elif sk.get("bones") or sk.get("ik") or sk.get("transform") or sk.get("path") or sk.get("physics"):
                self.warn("the default skin lists bones or constraints: ignored (always active)")
            out.append(o)
        # linked meshes: copy the parent's geometry (parent in skin `skin`, else the default skin)
        for o in out:
            for slot, entries in o["attachments"].items():
                for key, att in entries.items():
                    ln = att.pop("_linked", None)
                    if ln is None:
                        continue
                    par = None
                    for skn in ([ln["skin"]] if ln["skin"] else []) + ["default", ln["from_skin"]]:
                        par = geometry.get((skn, slot, ln["parent"]))
                        if par is not None and "_linked" not in par:
                            break
                        par = None
                    if par is None:
                        self.warn(f"linked mesh {o['name']}/{slot}/{key}: no parent mesh {ln['parent']!r}; dropped")
                        continue
                    for f in ("uvs", "triangles", "vertices", "weights", "hull"):
                        if f in par:
                            att[f] = par[f]
                    att["linked"] = {"mesh": ln["parent"], "deform": bool(ln["deform"])}
        # drop linked meshes that could not be resolved
        for o in out:
            for slot in list(o["attachments"]):
                o["attachments"][slot] = {k: a for k, a in o["attachments"][slot].items()
                                          if a.get("type") != "mesh" or "uvs" in a}
        # clipping end: a slot id (= name) or null
        for o in out:
            for entries in o["attachments"].values():
                for att in entries.values():
                    if att.get("type") == "clipping" and att.get("end") not in self.slot_index:
                        att["end"] = None
        self.skin_out = out
        return out

    # ---- constraints --------------------------------------------------------

    def constraints(self) -> Dict[str, List[Dict[str, Any]]]:
        ik = []
        for c in self.ik:
            o = {"id": self.cid[("ik", c["name"])], "name": c["name"], "bones": list(c.get("bones", [])),
                 "target": c.get("target"), "mix": c.get("mix", 1), "bendPositive": c.get("bendPositive", True),
                 "softness": c.get("softness", 0), "stretch": c.get("stretch", False),
                 "compress": c.get("compress", False), "uniform": c.get("uniform", False)}
            o["order"] = c.get("order", 0)  # Spine leaves order 0 out
            ik.append(o)
        tr = []
        for c in self.tr:
            mix_x = c.get("mixX", 1)
            mix_sx = c.get("mixScaleX", 1)
            if self.pose_model == "spine":
                pass  # mixY / mixScaleY are written (below)
            elif c.get("mixY", mix_x) != mix_x:
                self.warn(f"transform {c['name']!r}: mixY {c.get('mixY')} != mixX {mix_x}; OpenBone has one "
                          "mixTranslate (mixX used)")
            if self.pose_model != "spine" and c.get("mixScaleY", mix_sx) != mix_sx:
                self.warn(f"transform {c['name']!r}: mixScaleY != mixScaleX; OpenBone has one mixScale (X used)")
            o = {"id": self.cid[("transform", c["name"])], "name": c["name"], "bones": list(c.get("bones", [])),
                 "target": c.get("target"), "mixRotate": c.get("mixRotate", 1), "mixTranslate": mix_x,
                 "mixScale": mix_sx, "mixShear": c.get("mixShearY", 1),
                 "offsetRotation": c.get("rotation", 0), "offsetX": c.get("x", 0), "offsetY": c.get("y", 0),
                 "offsetScaleX": c.get("scaleX", 0), "offsetScaleY": c.get("scaleY", 0),
                 "offsetShear": c.get("shearY", 0), "local": c.get("local", False),
                 "relative": c.get("relative", False)}
            if self.pose_model == "spine":  # spine-core's separate Y mixes (the Spine pose model reads them)
                o["mixY"] = c.get("mixY", mix_x)
                o["mixScaleY"] = c.get("mixScaleY", mix_sx)
            o["order"] = c.get("order", 0)  # Spine leaves order 0 out
            tr.append(o)
        pa = []
        for c in self.pa:
            mix_x = c.get("mixX", 1)
            o = {"id": self.cid[("path", c["name"])], "name": c["name"], "bones": list(c.get("bones", [])),
                 "target": c.get("target"), "positionMode": c.get("positionMode", "percent"),
                 "spacingMode": c.get("spacingMode", "length"), "rotateMode": c.get("rotateMode", "tangent"),
                 "offsetRotation": c.get("rotation", 0), "position": c.get("position", 0),
                 "spacing": c.get("spacing", 0), "mixRotate": c.get("mixRotate", 1), "mixX": mix_x,
                 "mixY": c.get("mixY", mix_x)}
            o["order"] = c.get("order", 0)  # Spine leaves order 0 out
            pa.append(o)
        ph = [self._physics(c) for c in self.ph]
        return {"ik": ik, "transform": tr, "path": pa, "physics": ph}

    def _physics(self, c: Dict[str, Any]) -> Dict[str, Any]:
        """Spine physics → OpenBone §7.4, closest parameters:

        * strength, mass: the same spring (OpenBone k = strength/mass, Spine
          acceleration = -offset·strength/mass);
        * damping: Spine multiplies the velocity by damping^(60·h) per step,
          OpenBone by exp(-damping·h) ⇒ OpenBone damping = -60·ln(Spine damping);
        * wind, gravity: Spine accelerates by wind/mass (× referenceScale), OpenBone
          by wind (× referenceScale/100) ⇒ × 100 / mass (the setup mass);
        * inertia, mix, fps, x, y, rotate, scaleX: as they are; shearX and limit have
          no OpenBone equivalent (dropped).
        Spine keeps one particle per channel (offsets), OpenBone two spring
        particles (origin, tip): rigs with physics match qualitatively only.
        """
        if self.pose_model == "spine":
            # the Spine pose model runs spine-core 4.2's physics on Spine's own fields
            o = {"id": self.cid[("physics", c["name"])], "name": c["name"], "bone": c.get("bone")}
            for f, dflt in _SPINE_PHYSICS_FIELDS:
                o[f] = c.get(f, dflt)
            o["order"] = c.get("order", 0)  # Spine leaves order 0 out
            return o
        mass = c.get("mass", 1) or 1
        if c.get("shearX"):
            self.warn(f"physics {c['name']!r}: shearX has no OpenBone equivalent; dropped")
        o = {"id": self.cid[("physics", c["name"])], "name": c["name"], "bone": c.get("bone"),
             "x": c.get("x", 0), "y": c.get("y", 0), "rotate": c.get("rotate", 0), "scaleX": c.get("scaleX", 0),
             "inertia": c.get("inertia", 1), "strength": c.get("strength", 100),
             "damping": self._damping(c.get("damping", 1)), "mass": mass,
             "gravity": c.get("gravity", 0) * 100 / mass, "wind": c.get("wind", 0) * 100 / mass,
             "mix": c.get("mix", 1), "fps": c.get("fps", 60)}
        o["order"] = c.get("order", 0)  # Spine leaves order 0 out
        return o

    @staticmethod
    def _damping(d: float) -> float:
        return -60 * math.log(d) if d > 0 else 1e3

    # ---- events -------------------------------------------------------------

    def events(self) -> List[Dict[str, Any]]:
        out = []
        for name, e in (self.s.get("events") or {}).items():
            o = {"id": name, "name": name, "int": e.get("int", 0), "float": e.get("float", 0),
                 "string": e.get("string", "")}
            if e.get("audio"):
                self.warn(f"event {name!r}: audio path {e['audio']!r} has no OpenBone sound; dropped")
            out.append(o)
        self.event_names = set(self.s.get("events") or {})
        return out

    # ---- animations -----------------------------------------------------------

    def keys(self, src: List[Dict[str, Any]], fields: List[Tuple[str, float]], conv) -> List[List[Dict[str, Any]]]:
        """Per value of a Spine timeline: OpenBone keys (absolute, float32).

        fields: (field name, default) per value; conv(value index, float32 key value)
        → the absolute OpenBone value."""
        out: List[List[Dict[str, Any]]] = [[] for _ in fields]
        for ki, k in enumerate(src):
            t1 = k.get("time", 0)
            nxt = src[ki + 1] if ki + 1 < len(src) else None
            curve = k.get("curve")
            if nxt is not None and isinstance(curve, list):
                self.handles_outside += _spans_leaving(curve, len(fields), t1, nxt.get("time", 0))
            for vi, (fname, dflt) in enumerate(fields):
                v1 = k.get(fname, dflt)
                key = {"time": _f(t1), "value": conv(vi, _f(v1))}
                out[vi].append(key)
                if nxt is None:
                    continue
                t2, v2 = nxt.get("time", 0), nxt.get(fname, dflt)
                if isinstance(curve, list) and len(curve) >= 4 * vi + 4 and _f(v1) == _f(v2):
                    cx1, cy1, cx2, cy2 = curve[4 * vi:4 * vi + 4]
                    if cy1 != v1 or cy2 != v1:
                        # A flat span whose handles leave its value: Spine's curve moves the value
                        # (its samples are absolute), a normalised curve cannot say so.
                        self.flat_bulges += 1
                        out[vi] += self.split_flat_span(key, (t1, v1, cx1, cy1, cx2, cy2, t2, v2),
                                                        lambda v, vi=vi: conv(vi, v))
                        continue
                c = _norm_curve(curve, vi, t1, t2, _f(v1), _f(v2))
                if c is not None:
                    key["curve"] = c
        return out

    def split_flat_span(self, key: Dict[str, Any], span, conv) -> List[Dict[str, Any]]:
        """Keys inserted inside a bezier span whose two keys hold the same value but
        whose handles do not (the value bulges).  spine/linear: Spine's 9 samples as
        linear keys (exactly what spine-core evaluates); exact: the bezier split at
        s = 1/2 (de Casteljau), each half normalised on its own."""
        t1, v1, cx1, cy1, cx2, cy2, t2, v2 = span
        if self.curves != "exact":
            pts = spine_curve_samples([cx1, cy1, cx2, cy2], t1, v1, t2, v2)
            out, last = [], t1
            for x, y in pts:
                if last < x < t2:
                    out.append({"time": _f(x), "value": conv(_f(y))})
                    last = x
            return out
        # de Casteljau at 1/2
        ax, ay = (t1 + cx1) / 2, (v1 + cy1) / 2
        bx, by = (cx1 + cx2) / 2, (cy1 + cy2) / 2
        cx, cy = (cx2 + t2) / 2, (cy2 + v2) / 2
        dx, dy = (ax + bx) / 2, (ay + by) / 2
        ex, ey = (bx + cx) / 2, (by + cy) / 2
        mx, my = (dx + ex) / 2, (dy + ey) / 2
        if my == v1:  # symmetric about the value: fall back to linear samples
            saved, self.curves = self.curves, "spine"
            try:
                return self.split_flat_span(key, span, conv)
            finally:
                self.curves = saved
        key["curve"] = _norm_curve([ax, ay, dx, dy], 0, t1, mx, v1, my)
        mid = {"time": _f(mx), "value": conv(my), "curve": _norm_curve([ex, ey, cx, cy], 0, mx, t2, my, v2)}
        return [mid]

    def anim_bones(self, bones: Dict[str, Any], tls: List[Dict[str, Any]]) -> None:
        for bname, timelines in bones.items():
            b = self.bone_by_name.get(bname)
            if b is None:
                self.warn(f"animation timeline for missing bone {bname!r}; dropped")
                continue
            setup = {"rotation": b.get("rotation", 0), "x": b.get("x", 0), "y": b.get("y", 0),
                     "scaleX": b.get("scaleX", 1), "scaleY": b.get("scaleY", 1), "shearX": b.get("shearX", 0),
                     "shearY": b.get("shearY", 0)}
            for tname, keys in timelines.items():
                if not keys:
                    continue
                spec = {
                    "rotate": (["rotation"], [("value", 0)], "add"),
                    "translate": (["x", "y"], [("x", 0), ("y", 0)], "add"),
                    "translatex": (["x"], [("value", 0)], "add"),
                    "translatey": (["y"], [("value", 0)], "add"),
                    "scale": (["scaleX", "scaleY"], [("x", 1), ("y", 1)], "mul"),
                    "scalex": (["scaleX"], [("value", 1)], "mul"),
                    "scaley": (["scaleY"], [("value", 1)], "mul"),
                    "shear": (["shearX", "shearY"], [("x", 0), ("y", 0)], "add"),
                    "shearx": (["shearX"], [("value", 0)], "add"),
                    "sheary": (["shearY"], [("value", 0)], "add"),
                }.get(tname)
                if tname == "inherit":
                    tls.append({"target": "bone", "id": bname, "property": "inherit",
                                "keys": [{"time": _f(k.get("time", 0)), "value": k.get("inherit", "normal"),
                                          "curve": "stepped"} for k in keys]})
                    continue
                if spec is None:
                    self.warn(f"bone timeline {tname!r} unknown; dropped")
                    continue
                props, fields, op = spec
                conv = (lambda vi, v, props=props: setup[props[vi]] + v) if op == "add" else \
                    (lambda vi, v, props=props: setup[props[vi]] * v)
                for prop, ks in zip(props, self.keys(keys, fields, conv)):
                    tls.append({"target": "bone", "id": bname, "property": prop, "keys": ks})

    def _color_keys(self, keys, color_of, channels: List[int], ch0: int, dark: bool = False) -> List[Dict[str, Any]]:
        """OpenBone colour keys for one Spine colour timeline.  color_of(key) → RGBA;
        ``channels`` are the keyed channels, whose curves start at value index ch0 of
        the Spine curve array.  OpenBone has one curve per key: when the keyed
        channels' normalised curves differ, the span is expanded into linear keys at
        the union of every channel's sample points (Spine's 9 samples per channel:
        exact for spine-core's piecewise-linear curves, up to the hex rounding of the
        inner keys, 0.5/255; exact mode: the exact curves at s-uniform tenths)."""
        fmt = (lambda c: _hex_of(c)[:7]) if dark else _hex_of
        out = []
        for ki, k in enumerate(keys):
            c1 = color_of(k)
            t1 = k.get("time", 0)
            key = {"time": _f(t1), "value": fmt(c1)}
            out.append(key)
            nxt = keys[ki + 1] if ki + 1 < len(keys) else None
            curve = k.get("curve")
            if nxt is None or curve is None:
                continue
            if curve == "stepped":
                key["curve"] = "stepped"
                continue
            if not isinstance(curve, list):
                continue
            c2 = color_of(nxt)
            t2 = nxt.get("time", 0)
            self.handles_outside += _spans_leaving(curve[4 * ch0:4 * (ch0 + len(channels))], len(channels), t1, t2)
            ncs = {}
            for j, ch in enumerate(channels):
                if c1[ch] != c2[ch]:
                    ncs[ch] = _norm_curve(curve, ch0 + j, t1, t2, c1[ch], c2[ch])
            used = [c for c in ncs.values() if c is not None]
            if not used:
                continue
            if all(max(abs(x - y) for x, y in zip(c, used[0])) <= 1e-9 for c in used):
                key["curve"] = used[0]
                continue
            ev = exact_curve if self.curves == "exact" else spine_curve
            xs = set()
            for c in used:
                if self.curves == "exact":
                    xs |= {i / 10 for i in range(1, 10)}
                else:
                    xs |= {x for x, _ in spine_curve_samples(c) if 0 < x < 1}
            for x in sorted(xs):
                v = [c1[ch] + (c2[ch] - c1[ch]) * (ev(ncs[ch], x) if ncs.get(ch) else x) for ch in range(4)]
                out.append({"time": _f(t1 + (t2 - t1) * x), "value": fmt(v)})
        return out

    def anim_slots(self, slots: Dict[str, Any], tls: List[Dict[str, Any]]) -> None:
        for sname, timelines in slots.items():
            if sname not in self.slot_index:
                self.warn(f"animation timeline for missing slot {sname!r}; dropped")
                continue
            sdata = self.slots[self.slot_index[sname]]
            setup = _rgba(sdata.get("color"))
            for tname, keys in timelines.items():
                if not keys:
                    continue
                if tname == "attachment":
                    tls.append({"target": "slot", "id": sname, "property": "attachment",
                                "keys": [{"time": _f(k.get("time", 0)), "value": k.get("name"), "curve": "stepped"}
                                         for k in keys]})
                    continue
                if tname in ("rgba", "rgb", "alpha"):
                    def light(k, tname=tname):
                        if tname == "alpha":
                            return setup[:3] + [_f(k.get("value", 1))]
                        c = _rgba(k.get("color"))
                        return c if tname == "rgba" else c[:3] + [setup[3]]
                    if tname != "rgba":
                        self.warn(f"slot {tname} timeline → colour timeline: the other channels hold the setup "
                                  "colour")
                    chans = {"rgba": [0, 1, 2, 3], "rgb": [0, 1, 2], "alpha": [3]}[tname]
                    tls.append({"target": "slot", "id": sname, "property": "color",
                                "keys": self._color_keys(keys, light, chans, 0)})
                    continue
                if tname in ("rgba2", "rgb2"):
                    nl = 4 if tname == "rgba2" else 3

                    def light2(k, nl=nl):
                        c = _rgba(k.get("light"))
                        return c if nl == 4 else c[:3] + [setup[3]]

                    def dark2(k):
                        return _rgba(k.get("dark"), "000000")[:3] + [1.0]

                    tls.append({"target": "slot", "id": sname, "property": "color",
                                "keys": self._color_keys(keys, light2, list(range(nl)), 0)})
                    tls.append({"target": "slot", "id": sname, "property": "dark",
                                "keys": self._color_keys(keys, dark2, [0, 1, 2], nl, dark=True)})
                    continue
                self.warn(f"slot timeline {tname!r} unknown; dropped")

    def anim_attachments(self, atts: Dict[str, Any], tls: List[Dict[str, Any]], anim: str) -> None:
        seen = {}
        for skin, slots in atts.items():
            for sname, names in slots.items():
                if sname not in self.slot_index:
                    continue
                for aname, timelines in names.items():
                    att = self.find_attachment(skin, sname, aname)
                    for tname, keys in timelines.items():
                        if not keys:
                            continue
                        if tname == "deform":
                            if att is None:
                                self.warn(f"deform keys for missing attachment {skin}/{sname}/{aname}; dropped")
                                continue
                            if (sname, aname) in seen and seen[(sname, aname)] != skin:
                                self.warn(f"animation {anim!r}: deform keys for {sname}/{aname} in several skins; "
                                          "OpenBone keys deform by (slot, attachment name): the last one wins")
                            seen[(sname, aname)] = skin
                            tls.append(self.deform(sname, aname, att, keys))
                        elif tname == "sequence":
                            tls.append(self.sequence_keys(sname, aname, keys))
                        else:
                            self.warn(f"attachment timeline {tname!r} unknown; dropped")

    def find_attachment(self, skin: str, slot: str, name: str) -> Optional[Dict[str, Any]]:
        for o in self.skin_out:
            if o["name"] == skin:
                return o["attachments"].get(slot, {}).get(name)
        return None

    def sequence_keys(self, sname: str, aname: str, keys) -> Dict[str, Any]:
        ks = []
        for ki, k in enumerate(keys):
            t = _f(k.get("time", 0))
            mode = k.get("mode", "hold")
            idx = k.get("index", 0)
            if mode == "hold" or ki + 1 >= len(keys):
                ks.append({"time": t, "value": idx, "curve": "stepped"})
            else:
                delay = k.get("delay", 0) or 1e9
                t2 = _f(keys[ki + 1].get("time", 0))
                ks.append({"time": t, "value": idx})
                ks.append({"time": t2 - 1e-6 if t2 > t else t, "value": idx + (t2 - t) / delay, "curve": "stepped"})
        self.warn("sequence timelines are approximated (frame ramps, loop mode)")
        return {"target": "sequence", "id": sname, "attachment": aname, "property": "frame", "keys": ks}

    def deform(self, sname: str, aname: str, att: Dict[str, Any], keys) -> Dict[str, Any]:
        weighted = "weights" in att
        base = att.get("vertices", [])
        if weighted:
            infl = [len(w) for w in att["weights"]]
            n = 2 * sum(infl)
        else:
            n = len(base)
        ks = []
        for ki, k in enumerate(keys):
            full = np.zeros(n, dtype=np.float32)
            vs = k.get("vertices")
            if vs:
                off = k.get("offset", 0)
                full[off:off + len(vs)] = np.asarray(vs, dtype=np.float64).astype(np.float32)[:max(0, n - off)]
            if weighted and self.pose_model == "spine":
                offs = [float(x) for x in full]  # the influenceOffsets extension: Spine's own numbers
            elif weighted:
                offs = self.weighted_deform(att["weights"], full)
                self.weighted_keys.append((self.current_anim, att["weights"], full))
            else:
                b = np.asarray(base, dtype=np.float32)
                # Spine keeps setup + offset as float32: store exactly that difference
                offs = [float(x) for x in ((b + full).astype(np.float64) - b.astype(np.float64))] if vs else [0.0] * n
            key = {"time": _f(k.get("time", 0)), "value": offs}
            if weighted and self.pose_model != "spine":
                self.weighted_keys[-1] += (key,)
            nxt = keys[ki + 1] if ki + 1 < len(keys) else None
            if nxt is not None:
                c = k.get("curve")
                if isinstance(c, list):
                    self.handles_outside += _spans_leaving(c, 1, k.get("time", 0), nxt.get("time", 0))
                cv = _norm_curve(c, 0, k.get("time", 0), nxt.get("time", 0), 0, 1)
                if cv is not None:
                    key["curve"] = cv
            ks.append(key)
        prop = "influenceOffsets" if weighted and self.pose_model == "spine" else "offsets"
        return {"target": "deform", "id": sname, "attachment": aname, "property": prop, "keys": ks}

    def weighted_deform(self, weights, full: np.ndarray, world: Optional[np.ndarray] = None) -> List[float]:
        """Per-influence offsets → one offset per vertex: the offset that gives
        Spine's vertex in the given pose (default: the setup pose),
        d = M⁻¹ Σ wᵢ Lᵢ dᵢ with M = Σ wᵢ Lᵢ."""
        W = self.setup_world if world is None else world
        bi = {b["name"]: i for i, b in enumerate(self.bones)}
        out = []
        j = 0
        for infl in weights:
            M = np.zeros((2, 2))
            r = np.zeros(2)
            avg = np.zeros(2)
            for w in infl:
                d = np.array([full[j], full[j + 1]], dtype=np.float64)
                j += 2
                if W is not None and w["bone"] in bi:
                    m = W[bi[w["bone"]]]
                    L = np.array([[m[0], m[1]], [m[2], m[3]]])
                else:
                    L = np.eye(2)
                M += w["weight"] * L
                r += w["weight"] * (L @ d)
                avg += w["weight"] * d
            det = M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
            d = np.linalg.solve(M, r) if abs(det) > 1e-9 else avg
            out += [float(d[0]), float(d[1])]
        return out

    def anim_constraints(self, a: Dict[str, Any], tls: List[Dict[str, Any]]) -> None:
        ident = lambda vi, v: v  # noqa: E731  constraint keys are absolute in Spine
        for name, keys in (a.get("ik") or {}).items():
            cid = self.cid.get(("ik", name))
            if cid is None or not keys:
                continue
            mix, soft = self.keys(keys, [("mix", 1), ("softness", 0)], ident)
            tls.append({"target": "ik", "id": cid, "property": "mix", "keys": mix})
            tls.append({"target": "ik", "id": cid, "property": "softness", "keys": soft})
            for prop, field, dflt in (("bend", "bendPositive", True), ("stretch", "stretch", False),
                                      ("compress", "compress", False)):
                vals = [k.get(field, dflt) for k in keys]
                setup = next(c for c in self.ik if c["name"] == name).get(field, dflt)
                if all(v == setup for v in vals):
                    continue
                tls.append({"target": "ik", "id": cid, "property": prop,
                            "keys": [{"time": _f(k.get("time", 0)),
                                      "value": (1 if v else -1) if prop == "bend" else (1 if v else 0),
                                      "curve": "stepped"} for k, v in zip(keys, vals)]})
        for name, keys in (a.get("transform") or {}).items():
            cid = self.cid.get(("transform", name))
            if cid is None or not keys:
                continue
            kk = [dict(k) for k in keys]
            for k in kk:
                k.setdefault("mixY", k.get("mixX", 1))
                k.setdefault("mixScaleY", k.get("mixScaleX", 1))
                if self.pose_model != "spine" and (k["mixY"] != k.get("mixX", 1) or
                                                   k["mixScaleY"] != k.get("mixScaleX", 1)):
                    self.warn(f"transform keys {name!r}: mixY/mixScaleY differ from the X values (X used)")
            vals = self.keys(kk, [("mixRotate", 1), ("mixX", 1), ("mixY", 1), ("mixScaleX", 1), ("mixScaleY", 1),
                                  ("mixShearY", 1)], ident)
            props = [("mixRotate", vals[0]), ("mixTranslate", vals[1]), ("mixScale", vals[3]), ("mixShear", vals[5])]
            if self.pose_model == "spine":
                props += [("mixY", vals[2]), ("mixScaleY", vals[4])]
            for prop, ks in props:
                tls.append({"target": "transform", "id": cid, "property": prop, "keys": ks})
        for name, timelines in (a.get("path") or {}).items():
            cid = self.cid.get(("path", name))
            if cid is None:
                continue
            for tname, keys in timelines.items():
                if not keys:
                    continue
                if tname in ("position", "spacing"):
                    (ks,) = self.keys(keys, [("value", 0)], ident)
                    tls.append({"target": "path", "id": cid, "property": tname, "keys": ks})
                elif tname == "mix":
                    kk = [dict(k) for k in keys]
                    for k in kk:
                        k.setdefault("mixY", k.get("mixX", 1))
                    r, x, y = self.keys(kk, [("mixRotate", 1), ("mixX", 1), ("mixY", 1)], ident)
                    tls += [{"target": "path", "id": cid, "property": "mixRotate", "keys": r},
                            {"target": "path", "id": cid, "property": "mixX", "keys": x},
                            {"target": "path", "id": cid, "property": "mixY", "keys": y}]
        for name, timelines in (a.get("physics") or {}).items():
            if self.pose_model == "spine":
                self.anim_physics_spine(name, timelines, tls)
                continue
            targets = [c for c in self.ph if c["name"] == name] if name else list(self.ph)
            for tname, keys in timelines.items():
                if not keys:
                    continue
                if tname == "reset":
                    self.warn("physics reset keys have no OpenBone equivalent; dropped")
                    continue
                if tname not in ("inertia", "strength", "damping", "mass", "wind", "gravity", "mix"):
                    self.warn(f"physics timeline {tname!r} unknown; dropped")
                    continue
                for c in targets:
                    mass = c.get("mass", 1) or 1
                    conv = {
                        "damping": lambda vi, v: self._damping(v),
                        "wind": lambda vi, v, m=mass: v * 100 / m,
                        "gravity": lambda vi, v, m=mass: v * 100 / m,
                    }.get(tname, ident)
                    dflt = {"inertia": 1, "strength": 100, "damping": 1, "mass": 1, "mix": 1}.get(tname, 0)
                    (ks,) = self.keys(keys, [("value", dflt)], conv)
                    tls.append({"target": "physics", "id": self.cid[("physics", c["name"])], "property": tname,
                                "keys": ks})

    def anim_physics_spine(self, name: str, timelines: Dict[str, Any], tls: List[Dict[str, Any]]) -> None:
        """Physics keys under the Spine pose model: Spine's values as they are
        (absolute), ``reset`` keys as a ``reset`` timeline (times only), and a
        constraint name ``""`` kept as the id ``""`` (the runtime applies it to the
        constraints whose *Global flag is set; a reset: to all)."""
        if name:
            cid = self.cid.get(("physics", name))
            if cid is None:
                self.warn(f"physics timelines for missing constraint {name!r}; dropped")
                return
        else:
            cid = ""
        for tname, keys in timelines.items():
            if not keys:
                continue
            if tname == "reset":
                tls.append({"target": "physics", "id": cid, "property": "reset",
                            "keys": [{"time": _f(k.get("time", 0))} for k in keys]})
                continue
            if tname not in ("inertia", "strength", "damping", "mass", "wind", "gravity", "mix"):
                self.warn(f"physics timeline {tname!r} unknown; dropped")
                continue
            dflt = {"inertia": 1, "strength": 100, "damping": 1, "mass": 1, "mix": 1}.get(tname, 0)
            (ks,) = self.keys(keys, [("value", dflt)], lambda vi, v: v)
            tls.append({"target": "physics", "id": cid, "property": tname, "keys": ks})

    def draw_order(self, keys) -> Dict[str, Any]:
        n = len(self.slots)
        ks = []
        for k in keys:
            offsets = k.get("offsets")
            if not offsets:
                order = list(range(n))
            else:
                order = [-1] * n
                unchanged = []
                orig = 0
                for om in offsets:
                    si = self.slot_index.get(om.get("slot"))
                    if si is None:
                        continue
                    while orig != si:
                        unchanged.append(orig)
                        orig += 1
                    if 0 <= orig + om.get("offset", 0) < n:
                        order[orig + om.get("offset", 0)] = orig
                    orig += 1
                while orig < n:
                    unchanged.append(orig)
                    orig += 1
                for i in range(n - 1, -1, -1):
                    if order[i] == -1:
                        order[i] = unchanged.pop()
            ks.append({"time": _f(k.get("time", 0)), "value": [self.slots[i]["name"] for i in order],
                       "curve": "stepped"})
        return {"target": "drawOrder", "id": "skeleton", "property": "order", "keys": ks}

    def animations(self) -> List[Dict[str, Any]]:
        out = []
        for name, a in (self.s.get("animations") or {}).items():
            self.current_anim = name
            tls: List[Dict[str, Any]] = []
            self.anim_slots(a.get("slots") or {}, tls)
            self.anim_bones(a.get("bones") or {}, tls)
            self.anim_constraints(a, tls)
            self.anim_attachments(a.get("attachments") or a.get("deform") or {}, tls, name)
            do = a.get("drawOrder", a.get("draworder"))
            if do:
                tls.append(self.draw_order(do))
            evs = []
            for k in a.get("events") or []:
                if k.get("name") not in self.event_names:
                    self.warn(f"event key for unknown event {k.get('name')!r}; dropped")
                    continue
                e = {"time": _f(k.get("time", 0)), "event": k["name"]}
                for f in ("int", "float", "string"):
                    if f in k:
                        e[f] = k[f]
                evs.append(e)
            # Spine's duration: the last key time of every timeline (float32)
            dur = 0.0
            for tl in tls:
                if tl["keys"]:
                    dur = max(dur, tl["keys"][-1]["time"])
            for e in evs:
                dur = max(dur, e["time"])
            for tl in a.get("physics", {}).values() if isinstance(a.get("physics"), dict) else []:
                for keys in tl.values():
                    if keys:
                        dur = max(dur, _f(keys[-1].get("time", 0)))
            out.append({"id": name, "name": name, "duration": dur, "timelines": tls, "events": evs})
        return out

    def hold_setup_before_first_key(self, doc: Dict[str, Any]) -> None:
        """Spine applies the setup value before a timeline's first key (track 0,
        MixBlend.first); OpenBone holds the first key's value (§5).  A timeline
        whose first key is later than 0 gets a stepped setup key at time 0."""
        sk = doc["skeleton"]
        bones = {b["id"]: b for b in sk["bones"]}
        slots = {s["id"]: s for s in sk["slots"]}
        cons = {}
        for kind in ("ik", "transform", "path", "physics"):
            for c in sk[kind]:
                cons[(kind, c["id"])] = c
        setup_order = [s["id"] for s in sk["slots"]]
        for anim in doc["animations"]:
            for tl in anim["timelines"]:
                ks = tl["keys"]
                if not ks or ks[0]["time"] <= 0:
                    continue
                t, p, i = tl["target"], tl["property"], tl["id"]
                if t == "physics" and (p == "reset" or i == ""):
                    continue  # no value / no one setup value (spine-core applies nothing before the first key)
                if t == "bone":
                    v = bones[i][p]
                elif t == "slot":
                    s = slots[i]
                    v = s["attachment"] if p == "attachment" else s["color"] if p == "color" else \
                        s.get("dark", "#000000")
                elif t == "deform":
                    v = [0.0] * len(ks[0]["value"])
                elif t == "drawOrder":
                    v = setup_order
                elif t == "ik":
                    c = cons[("ik", i)]
                    v = {"mix": c["mix"], "softness": c["softness"], "bend": 1 if c["bendPositive"] else -1,
                         "stretch": 1 if c["stretch"] else 0, "compress": 1 if c["compress"] else 0}[p]
                elif t in ("transform", "path", "physics"):
                    v = cons[(t, i)][p]
                else:
                    continue
                ks.insert(0, {"time": 0.0, "value": v, "curve": "stepped"})

    # ---- document -------------------------------------------------------------

    def build(self) -> Dict[str, Any]:
        head = self.s.get("skeleton") or {}
        bones = [self.bone(b) for b in self.bones]
        slots = [self.slot(s) for s in self.slots]
        skins = self.skins()
        cons = self.constraints()
        events = self.events()
        anims = self.animations()
        w, h = head.get("width", 0) or 0, head.get("height", 0) or 0
        doc = {
            "format": "openbone", "version": 1, "name": self.name,
            "width": w, "height": h, "originX": -(head.get("x", 0) or 0), "originY": (head.get("y", 0) or 0) + h,
            "fps": head.get("fps", 30) or 30,
            "images": list(self.images.values()),
            "skeleton": {"bones": bones, "slots": slots, "skins": skins, **cons,
                         "referenceScale": head.get("referenceScale", 100)},
            "events": events,
            "animations": anims,
        }
        if self.curves == "linear":
            _bake_curves(doc)
        else:
            doc["curveMode"] = self.curves
        if self.pose_model == "spine":
            doc["poseModel"] = "spine"
        self.hold_setup_before_first_key(doc)
        if self.handles_outside:
            self.warn(f"{self.handles_outside} bezier spans have time handles outside their span "
                      "(see conformance/NOTES.md: spine mode samples them as Spine does, exact mode clamps)")
        return doc


def _setup_world(doc: Dict[str, Any]) -> Optional[np.ndarray]:
    """The FK setup pose (no constraints, no attachments) through the runtime."""
    from ..document import loads
    from ..instance import Instance
    d = {"format": "openbone", "version": 1, "name": "setup", "width": 0, "height": 0, "fps": 30,
         "skeleton": {"bones": doc["skeleton"]["bones"], "slots": [],
                      "skins": [{"id": "default", "name": "default", "attachments": {}}]}}
    inst = Instance(loads(json.dumps(d)))
    return np.array(inst.world, dtype=np.float64)


def _weighted_deform_at_keys(imp: "_Importer", doc: Dict[str, Any]) -> None:
    """Weighted deform keys, refined: each key's per-vertex offsets are solved with
    the influence bones' world matrices of the animation's own pose at the key's
    time (constraints included), so the vertex is Spine's exactly at every key and
    only approximately between keys (when the influences rotate relative to each
    other during the span)."""
    from ..document import loads
    from ..instance import Instance
    inst = Instance(loads(json.dumps(doc)))
    for anim, weights, full, key in imp.weighted_keys:
        inst.set_to_setup_pose()
        inst.apply_animation(anim, key["time"])
        inst.update_world_transform()
        key["value"] = imp.weighted_deform(weights, full, np.array(inst.world, dtype=np.float64))


def skeleton_json_to_dict(src: Union[str, os.PathLike, Dict[str, Any], bytes], curves: str = "spine",
                          name: Optional[str] = None, warnings: Optional[List[str]] = None,
                          pose_model: str = "spine", atlas: Any = None, relative_to: Optional[str] = None,
                          _meta: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The OpenBone document dict for a Spine skeleton: a path or bytes (skeleton JSON
    or a ``.skel`` binary export, told apart by content) or the parsed JSON dict.
    ``warnings`` (a list) receives what could not be mapped exactly.  ``atlas``: the
    texture atlas (a path or :class:`openbone.spine.atlas.Atlas`; default: the one beside
    the skeleton file, by Spine's naming; ``False``: none), mapped onto the OpenBone atlas
    section (``source.attach_atlas``).  Malformed input raises OpenBoneError naming the
    place in the Spine file (``read.py``)."""
    from .read import check_finite
    from .source import attach_atlas, read_source
    images_dir = "images/"
    early: List[str] = []
    data, path, kind = read_source(src, early)
    if name is None and path is not None:
        name = os.path.splitext(os.path.basename(path))[0]
    head = data.get("skeleton") or {}
    if head.get("images"):
        images_dir = head["images"].lstrip("./") if head["images"].startswith("./") else head["images"]
        if images_dir and not images_dir.endswith("/"):
            images_dir += "/"
    imp = _Importer(data, name or "skeleton", curves, images_dir, pose_model)
    if str(head.get("spine", "4.2")).startswith("3."):
        imp.warn(f"skeleton JSON {head.get('spine')}: read as 4.2 (3.x curve and timeline layouts differ)")
    # pass 1: bones only, for the setup pose (weighted vertices, weighted deform)
    imp.setup_world = _setup_world({"skeleton": {"bones": [imp.bone(b) for b in imp.bones]}})
    imp.warnings.clear()
    with np.errstate(all="ignore"):  # extreme input overflows: check_finite says where, once
        doc = imp.build()
        check_finite(doc)
        if imp.weighted_keys:
            _weighted_deform_at_keys(imp, doc)
            check_finite(doc)
    imp.warnings[:0] = early
    used = attach_atlas(doc, atlas, path, imp.warnings, relative_to)
    if _meta is not None:
        _meta.update(path=path, kind=kind, atlas=used)
    if warnings is not None:
        warnings.extend(imp.warnings)
    return doc


def import_skeleton_json(src: Union[str, os.PathLike, Dict[str, Any]], curves: str = "spine",
                         name: Optional[str] = None, pose_model: str = "spine", atlas: Any = None):
    """Import a skeleton JSON 4.2 file (a path or the parsed dict) as an
    :class:`openbone.Document`.  ``curves="spine"`` (default) samples beziers as
    the Spine runtime does (10 segments per span); ``"exact"`` solves them.
    ``pose_model="spine"`` (default) writes ``"poseModel": "spine"``: the
    runtime poses it as spine-core 4.2 (constraints, inherit modes, physics,
    per-influence deform, looping time); ``"openbone"`` writes a plain OpenBone
    document posed by the OpenBone rules.  ``atlas``: see
    :func:`openbone.import_skeleton` (which also reads ``.skel``)."""
    from .source import import_skeleton
    return import_skeleton(src, atlas=atlas, curves=curves, name=name, pose_model=pose_model)
