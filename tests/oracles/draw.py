"""Independent pure-Python draw list (§8.1-§8.7, §8.9, §8.10) for the conformance oracle.

Written from the specification text (runtime spec §8, file format "Images and the
texture atlas", CLARIFICATIONS, FORMAT.md), never from csrc/.  It works on the
posed ``tests/oracles/base.py`` Instance (bone worlds, slots, skins) and the document
dict.  Scope: regions incl. packed, rotated, trimmed and polygon regions; unweighted
and weighted meshes with deform offsets (``inst.deforms``, linked meshes); clipping
masks; shapes; sequences driven by a keyed frame (``inst.sequence_frames``), an
input default, the animation time (``inst.animation_time``) or the clock; text
templates; bounding boxes and their queries.  Particles raise ``Unsupported``.

Borrowed, independently verified helpers: ``openbone.earcut`` (checked against
mapbox earcut's own fixtures in tests/test_earcut.py) for shape / clipping indices
and ``openbone._core.format_template`` (tests/test_jsnum.py) for §8.9 templates.

    python tests/oracles draw conformance/cases/bounds.json   # writes expected/bounds.json
"""

from __future__ import annotations

import math
import sys
from typing import Any, Dict, List, Optional

from . import base, common
from .common import (DEG, Unsupported, apply, atlas_uv, f32, hex_or, num_out,  # noqa: F401
                     point_in_polygon, skin_attachment)
from .common import num as _n

_hex = hex_or


# ---------------------------------------------------------------------------
# §8.1 attachment lookup
# ---------------------------------------------------------------------------

def get_attachment(inst, slot, name):
    """skin.attachments[slotId][name] ?? skins[0].attachments[slotId][name] ?? null."""
    return skin_attachment(inst.skins, inst.skin, slot.id, name)


# ---------------------------------------------------------------------------
# §8.7 atlas
# ---------------------------------------------------------------------------

class Atlas:
    def __init__(self, doc):
        self.images = {}
        for im in doc.get("images") or []:
            self.images.setdefault(im.get("id"), im)
        at = doc.get("atlas") or {}
        self.pages = {}
        for p in at.get("pages") or []:
            self.pages.setdefault(p.get("id"), p)
        self.regions = {}
        for r in at.get("regions") or []:
            if r.get("page") in self.pages and r.get("image") in self.images:
                self.regions.setdefault(r["image"], r)  # first region of an image wins
        w = at.get("white")
        self.white = w if isinstance(w, dict) and w.get("page") in self.pages else None

    def texture(self, image_id):
        """§8.4 atlas page if packed, else the image, None if missing."""
        if image_id not in self.images:
            return None
        r = self.regions.get(image_id)
        return r["page"] if r else image_id

    def geom(self, r):
        w, h = _n(r.get("width"), 0), _n(r.get("height"), 0)
        ow, oh = _n(r.get("originalWidth"), w), _n(r.get("originalHeight"), h)
        return (_n(r.get("x"), 0), _n(r.get("y"), 0), w, h, _n(r.get("offsetX"), 0), _n(r.get("offsetY"), 0),
                ow, oh, bool(r.get("rotated")))

    def map_uv(self, r, u, v):
        """§8.7 atlasUvMap."""
        return atlas_uv(r, self.pages[r["page"]], u, v)

    def trimmed(self, r):
        x, y, w, h, ox, oy, ow, oh, rot = self.geom(r)
        return ox != 0 or oy != 0 or w != ow or h != oh

    def trim_box(self, r):
        x, y, w, h, ox, oy, ow, oh, rot = self.geom(r)
        return [ox / ow, oy / oh, (ox + w) / ow, (oy + h) / oh]


# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------

def quad(att, m, text=False):
    """§8.2 TL TR BR BL world corners (doubles)."""
    hw = _n(att.get("width"), 0) / 2 * (1 if text else _n(att.get("scaleX"), 1))
    hh = _n(att.get("height"), 0) / 2 * (1 if text else _n(att.get("scaleY"), 1))
    pts = [(-hw, hh), (hw, hh), (hw, -hh), (-hw, -hh)]
    rot = _n(att.get("rotation"), 0) * DEG
    cs, sn = math.cos(rot), math.sin(rot)
    ax, ay = _n(att.get("x"), 0), _n(att.get("y"), 0)
    out = []
    for x, y in pts:
        if not text:
            kx, ky = math.tan(_n(att.get("skewX"), 0) * DEG), math.tan(_n(att.get("skewY"), 0) * DEG)
            x, y = x + kx * y, y + ky * x
        lx, ly = cs * x - sn * y + ax, sn * x + cs * y + ay
        out.append(apply(m, lx, ly))
    return out


def quad_points(q, uvs):
    """TL + U·u + V·v, U = TR − TL, V = BL − TL."""
    (x0, y0), (x1, y1), _, (x3, y3) = q
    return [(x0 + (x1 - x0) * u + (x3 - x0) * v, y0 + (y1 - y0) * u + (y3 - y0) * v) for u, v in uvs]


def corners(b):
    u0, v0, u1, v1 = b
    return [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]


def shape_outline(att):
    """§8.5 in slot-bone space."""
    hw, hh = _n(att.get("width"), 0) / 2, _n(att.get("height"), 0) / 2
    kind = att.get("shape", "rect")
    pts = []
    if kind == "rect":
        r = min(_n(att.get("radius"), 0), hw, hh)
        if r <= 0:
            pts = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        else:
            seg = max(2, round(32 / 4))
            for cx, cy, start in ((hw - r, -hh + r, -90), (hw - r, hh - r, 0), (-hw + r, hh - r, 90),
                                  (-hw + r, -hh + r, 180)):
                for i in range(seg + 1):
                    t = (start + 90 * i / seg) * DEG
                    pts.append((cx + math.cos(t) * r, cy + math.sin(t) * r))
    elif kind == "ellipse":
        pts = [(math.cos(2 * math.pi * i / 32) * hw, math.sin(2 * math.pi * i / 32) * hh) for i in range(32)]
    else:
        p = att.get("points") or []
        pts = [(p[2 * i], p[2 * i + 1]) for i in range(len(p) // 2)]
    rot = _n(att.get("rotation"), 0) * DEG
    cs, sn = math.cos(rot), math.sin(rot)
    ax, ay = _n(att.get("x"), 0), _n(att.get("y"), 0)
    return [(cs * x - sn * y + ax, sn * x + cs * y + ay) for x, y in pts]


def earcut(points):
    import openbone
    if len(points) < 3:
        return []
    flat = [c for p in points for c in p]
    return [int(i) for i in openbone.earcut(flat)]


def deform_offsets(inst, slot, att, name):
    """§8.3 the slot's deform offsets for this attachment (None: none set).  A mesh with
    ``linked.deform`` reads slot.deform[linked.mesh] if present, else slot.deform[own name];
    the offsets live in ``inst.deforms[(slot id, attachment name)]`` (set by timelines)."""
    deforms = getattr(inst, "deforms", None) or {}
    linked = att.get("linked")
    if att.get("type") == "mesh" and isinstance(linked, dict) and linked.get("deform"):
        off = deforms.get((slot.id, linked.get("mesh")))
        if off is not None:
            return off
    return deforms.get((slot.id, name))


def polygon_world(inst, slot, att, name=None):
    """§8.3 world vertices (doubles) of mesh / path / boundingBox, deform offsets added (missing
    values at the end count as 0; weighted: the same offset on every influence)."""
    m = slot.bone.world
    off = deform_offsets(inst, slot, att, slot.attachment if name is None else name)

    def d(i):
        return off[i] if off is not None and i < len(off) else 0.0
    weights = att.get("weights")
    if isinstance(weights, list) and weights:
        out = []
        for v, infs in enumerate(weights):
            x = y = 0.0
            for inf in infs:
                b = inst._bone_by_id.get(inf.get("bone"))
                bm = b.world if b is not None else m
                wx, wy = apply(bm, _n(inf.get("x"), 0) + d(2 * v), _n(inf.get("y"), 0) + d(2 * v + 1))
                w = _n(inf.get("weight"), 0)
                x += w * wx
                y += w * wy
            out.append((x, y))
        return out
    v = att.get("vertices") or []
    return [apply(m, v[2 * i] + d(2 * i), v[2 * i + 1] + d(2 * i + 1)) for i in range(len(v) // 2)]


# ---------------------------------------------------------------------------
# §8.6 sequences, §8.9 text
# ---------------------------------------------------------------------------

def _inputs(doc):
    for sm in doc.get("stateMachines") or []:
        for inp in sm.get("inputs") or []:
            yield inp


def sequence_counter(inst, att, slot=None, name=None):
    """§8.6 counter: keyed frame k ⇒ floor(k + 1e-6) + offset | input set ⇒ floor(v + 1e-6) +
    offset | floor((animationTime ?? clock)·fps + 1e-6) + offset.  Keyed frames live in
    ``inst.sequence_frames[(slot id, attachment name)]``, the time in ``inst.animation_time``."""
    offset = _n(att.get("offset"), 0)
    frames = getattr(inst, "sequence_frames", None) or {}
    if slot is not None and (slot.id, name) in frames:
        return math.floor(math.floor(frames[(slot.id, name)] + 1e-6) + offset)
    ref = att.get("input")
    if ref is not None:
        for inp in _inputs(inst.doc):
            if inp.get("id") == ref:
                d = inp.get("default")
                if isinstance(d, (int, float)):
                    return math.floor(math.floor(float(d) + 1e-6) + offset)
                break
    t = getattr(inst, "animation_time", None)
    if t is None:
        t = inst.clock
    return math.floor(math.floor(t * _n(att.get("fps"), 0) + 1e-6) + offset)


def sequence_index(mode, f, n):
    """§8.6, JS % = math.fmod."""
    if n <= 0:
        return None
    if mode == "once":
        return 0 if f < 0 else (None if f >= n else int(f))
    if mode == "holdLast":
        return int(min(max(f, 0), n - 1))
    if mode == "pingPong":
        if n == 1:
            return 0
        P = 2 * n - 2
        k = math.fmod(math.fmod(f, P) + P, P)
        return int(k if k < n else P - k)
    return int(math.fmod(math.fmod(f, n) + n, n))


def text_lookup(doc):
    values = {}
    for inp in _inputs(doc):
        name = inp.get("name")
        if inp.get("type") == "trigger" or name in values or "default" not in inp:
            continue
        values[name] = inp["default"]
    return values


# ---------------------------------------------------------------------------
# §8.4 the draw list
# ---------------------------------------------------------------------------

def _tint(a, b):
    return [x * y for x, y in zip(a, b)]


def _item(slot, name, kind, color, texture, verts, uvs, indices, text=None, blend=None):
    return {"slot": slot.name, "attachment": name, "type": kind,
            "blend": blend or slot.data.get("blend") or "normal", "texture": texture,
            "vertices": [f32(c) for p in verts for c in p], "uvs": [f32(c) for p in uvs for c in p],
            "indices": list(indices), "color": list(color),
            "dark": None if slot.dark is None else list(slot.dark), "colors": None, "clip": None, "text": text}


def draw_list(inst, overrides=None) -> List[Dict[str, Any]]:
    """The §8.4 draw list of the oracle instance's current pose (unrounded).  Particles
    items come from ``inst.particle_item(slot)`` when the instance has one (oracles.full)."""
    doc = inst.doc
    atlas = Atlas(doc)
    overrides = overrides or {}
    items: List[Dict[str, Any]] = []
    mask = None  # (slot, end id, att)
    mask_ids: Dict[int, int] = {}
    mask_serial = 0
    for slot in inst.draw_order:
        att = get_attachment(inst, slot, slot.attachment) if slot.bone.active else None
        first = len(items)
        m = slot.bone.world
        kind = (att or {}).get("type", "region") if att is not None else None
        sc = slot.color
        ac = _hex((att or {}).get("color"))
        name = slot.attachment
        if kind == "clipping":
            v = att.get("vertices") or []
            n = len(att["weights"]) if att.get("weights") else len(v) // 2
            if mask is None and n >= 3:
                mask_serial += 1
                mask = (slot, att.get("end"), mask_serial)
        elif kind == "region":
            color = _tint(sc, ac)
            if color[3] > 0:
                img = att.get("image")
                q = quad(att, m)
                r = atlas.regions.get(img)
                poly = (r or {}).get("polygon") or []
                if r and len(poly) >= 6:
                    x, y, w, h, ox, oy, ow, oh, rot = atlas.geom(r)
                    pts = [(f32(poly[2 * i] / ow), f32(poly[2 * i + 1] / oh)) for i in range(len(poly) // 2)]
                    verts = quad_points(q, pts)
                    uvs = [atlas.map_uv(r, u, v) for u, v in pts]
                    idx = [k for i in range(len(pts) - 2) for k in (0, i + 1, i + 2)]
                elif r and atlas.trimmed(r):
                    c = corners(atlas.trim_box(r))
                    verts = quad_points(q, c)
                    uvs = [atlas.map_uv(r, u, v) for u, v in c]
                    idx = [0, 1, 2, 0, 2, 3]
                else:
                    verts = q
                    c = corners([0, 0, 1, 1])
                    uvs = [atlas.map_uv(r, u, v) for u, v in c] if r else c
                    idx = [0, 1, 2, 0, 2, 3]
                items.append(_item(slot, name, "region", color, atlas.texture(img), verts, uvs, idx))
        elif kind == "mesh":
            color = _tint(sc, ac)
            if color[3] > 0:
                img = att.get("image")
                verts = polygon_world(inst, slot, att, name)
                fu = att.get("uvs") or []
                uvs = [(fu[2 * i] if 2 * i < len(fu) else 0, fu[2 * i + 1] if 2 * i + 1 < len(fu) else 0)
                       for i in range(len(verts))]
                r = atlas.regions.get(img)
                if r:
                    uvs = [atlas.map_uv(r, u, v) for u, v in uvs]
                items.append(_item(slot, name, "mesh", color, atlas.texture(img), verts, uvs,
                                   [int(i) for i in att.get("triangles") or []]))
        elif kind == "sequence":
            frames = att.get("frames") or []
            k = sequence_index(att.get("mode", "loop"), sequence_counter(inst, att, slot, name), len(frames))
            fr = frames[k] if k is not None else None
            color = _tint(sc, ac)
            if fr is not None and fr.get("image") in atlas.images and color[3] > 0:
                im = atlas.images[fr["image"]]
                iw, ih = _n(im.get("width"), 0), _n(im.get("height"), 0)
                rect, trim = fr.get("rect"), fr.get("trim")
                rw = _n(rect.get("width"), 0) if rect else iw
                rh = _n(rect.get("height"), 0) if rect else ih
                if rect:
                    rx, ry = _n(rect.get("x"), 0), _n(rect.get("y"), 0)
                    uv = [rx / iw, ry / ih, (rx + rw) / iw, (ry + rh) / ih]
                else:
                    uv = [0.0, 0.0, 1.0, 1.0]
                if trim:
                    tx, ty = _n(trim.get("x"), 0), _n(trim.get("y"), 0)
                    sw, sh = _n(trim.get("sourceWidth"), 0), _n(trim.get("sourceHeight"), 0)
                    qf = [tx / sw, ty / sh, (tx + rw) / sw, (ty + rh) / sh]
                else:
                    qf = [0.0, 0.0, 1.0, 1.0]
                r = atlas.regions.get(fr["image"])
                ok = True
                if r and atlas.trimmed(r):
                    t = atlas.trim_box(r)
                    iu = [max(uv[0], t[0]), max(uv[1], t[1]), min(uv[2], t[2]), min(uv[3], t[3])]
                    if iu[2] <= iu[0] or iu[3] <= iu[1]:
                        ok = False
                    else:
                        lerp = lambda a, b, s: a + (b - a) * s  # noqa: E731
                        qf = [lerp(qf[0], qf[2], (iu[0] - uv[0]) / (uv[2] - uv[0])),
                              lerp(qf[1], qf[3], (iu[1] - uv[1]) / (uv[3] - uv[1])),
                              lerp(qf[0], qf[2], (iu[2] - uv[0]) / (uv[2] - uv[0])),
                              lerp(qf[1], qf[3], (iu[3] - uv[1]) / (uv[3] - uv[1]))]
                        uv = iu
                if ok:
                    q = quad(att, m)
                    verts = quad_points(q, corners(qf)) if qf != [0, 0, 1, 1] else q
                    uvs = corners(uv)
                    if r:
                        uvs = [atlas.map_uv(r, u, v) for u, v in uvs]
                    items.append(_item(slot, name, "sequence", color, atlas.texture(fr["image"]), verts, uvs,
                                       [0, 1, 2, 0, 2, 3]))
        elif kind == "text":
            if sc[3] > 0:
                import openbone._core as core
                tpl = overrides.get(slot.name, att.get("text", ""))
                text = core.format_template(tpl, text_lookup(doc))
                items.append(_item(slot, name, "text", sc, None, quad(att, m, text=True),
                                   corners([0, 0, 1, 1]), [0, 1, 2, 0, 2, 3], text=text))
        elif kind == "shape":
            fill = _hex(att.get("fill"), (0, 0, 0, 0)) if isinstance(att.get("fill"), str) else [0, 0, 0, 0]
            color = _tint(sc, fill)
            stroke = _hex(att.get("stroke"), (0, 0, 0, 0)) if isinstance(att.get("stroke"), str) else None
            visible = stroke is not None and _n(att.get("strokeWidth"), 0) > 0 and stroke[3] * sc[3] > 0
            if color[3] > 0 or visible:
                local = shape_outline(att)
                verts = [apply(m, x, y) for x, y in local]
                if atlas.white:
                    w = atlas.white
                    p = atlas.pages[w["page"]]
                    cu = (_n(w.get("x"), 0) + _n(w.get("width"), 0) / 2) / _n(p.get("width"), 0)
                    cv = (_n(w.get("y"), 0) + _n(w.get("height"), 0) / 2) / _n(p.get("height"), 0)
                    tex = w["page"]
                else:
                    cu = cv = 0.0
                    tex = None
                items.append(_item(slot, name, "shape", color, tex, verts, [(cu, cv)] * len(verts),
                                   earcut(local)))
        elif kind == "particles":
            if not hasattr(inst, "particle_item"):
                raise Unsupported("particles")
            it = inst.particle_item(slot)
            if it is not None:
                items.append(it)
        # after the slot's items (§8.4)
        if mask is not None and mask[0] is not slot and len(items) > first:
            serial = mask[2]
            if serial not in mask_ids:
                mask_ids[serial] = len(mask_ids)
            for it in items[first:]:
                it["clip"] = mask_ids[serial]
        if mask is not None and slot.id == mask[1]:
            mask = None
    return items


def rounded(items):
    out = []
    for it in items:
        o = dict(it)
        for k in ("vertices", "uvs", "color", "dark", "colors"):
            if o[k] is not None:
                o[k] = [num_out(v) for v in o[k]]
        out.append(o)
    return out


# ---------------------------------------------------------------------------
# §8.10 bounds
# ---------------------------------------------------------------------------

def segments_intersect(x1, y1, x2, y2, x3, y3, x4, y4):
    d = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
    if d == 0:
        return False
    ua = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / d
    ub = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / d
    return 0 <= ua <= 1 and 0 <= ub <= 1


def bounds(inst, queries=()):
    boxes = []
    for slot in inst.draw_order:
        if not slot.bone.active:
            continue
        att = get_attachment(inst, slot, slot.attachment)
        if att is None or att.get("type") != "boundingBox":
            continue
        v = [(f32(x), f32(y)) for x, y in polygon_world(inst, slot, att, slot.attachment)]
        if len(v) < 3:
            continue
        xs, ys = [p[0] for p in v], [p[1] for p in v]
        boxes.append({"slot": slot.name, "attachment": slot.attachment, "v": v,
                      "minX": min(xs), "minY": min(ys), "maxX": max(xs), "maxY": max(ys)})
    if boxes:
        agg = [min(b["minX"] for b in boxes), min(b["minY"] for b in boxes),
               max(b["maxX"] for b in boxes), max(b["maxY"] for b in boxes)]
    else:
        agg = [0.0, 0.0, 0.0, 0.0]

    def contains(b, x, y):
        return b["minX"] <= x <= b["maxX"] and b["minY"] <= y <= b["maxY"] and point_in_polygon(b["v"], x, y)

    def touches(b, x1, y1, x2, y2):
        if max(x1, x2) < b["minX"] or min(x1, x2) > b["maxX"] or max(y1, y2) < b["minY"] or min(y1, y2) > b["maxY"]:
            return False
        v = b["v"]
        for i in range(len(v)):
            j = i - 1 if i > 0 else len(v) - 1
            if segments_intersect(x1, y1, x2, y2, v[j][0], v[j][1], v[i][0], v[i][1]):
                return True
        return point_in_polygon(v, x1, y1)

    answers = []
    for q in queries:
        (k, a), = q.items()
        if k == "aabbContainsPoint":
            r = bool(boxes) and agg[0] <= a[0] <= agg[2] and agg[1] <= a[1] <= agg[3]
        elif k == "aabbIntersects":
            r = bool(boxes) and a[0] <= agg[2] and a[2] >= agg[0] and a[1] <= agg[3] and a[3] >= agg[1]
        elif k in ("containsPoint", "containsPointAll"):
            hits = [b["slot"] for b in boxes if contains(b, *a)]
            r = hits if k.endswith("All") else (hits[0] if hits else None)
        elif k in ("intersectsSegment", "intersectsSegmentAll"):
            hits = [b["slot"] for b in boxes if touches(b, *a)]
            r = hits if k.endswith("All") else (hits[0] if hits else None)
        else:
            raise Unsupported("query %r" % k)
        answers.append(r)
    return {"boxes": [{"slot": b["slot"], "attachment": b["attachment"],
                       "vertices": [num_out(c) for p in b["v"] for c in p],
                       "minX": num_out(b["minX"]), "minY": num_out(b["minY"]),
                       "maxX": num_out(b["maxX"]), "maxY": num_out(b["maxY"])} for b in boxes],
            "minX": num_out(agg[0]), "minY": num_out(agg[1]), "maxX": num_out(agg[2]), "maxY": num_out(agg[3]),
            "queries": answers}


# ---------------------------------------------------------------------------
# case files with bounds / setText (the base oracle refuses those)
# ---------------------------------------------------------------------------

def sample(inst, step, time, case, overrides):
    s = inst.sample(step, time)
    s["draw"] = rounded(draw_list(inst, overrides))
    if case.get("bounds"):
        s["bounds"] = bounds(inst, case.get("queries") or [])
    return s


def run_case(doc, case):
    for k in ("tracks", "queue", "stateMachine"):
        if case.get(k):
            raise Unsupported(k)
    inst = base.Instance(doc)
    overrides: Dict[str, Optional[str]] = {}

    def action(k, a):
        if k == "setSkin":
            inst.set_skin(a)
        elif k == "setText":
            slot = next((s for s in inst.slots if s.name == a[0]), None) or \
                next((s for s in inst.slots if s.id == a[0]), None)
            if slot is not None:
                if a[1] is None:
                    overrides.pop(slot.name, None)
                else:
                    overrides[slot.name] = a[1]
        else:
            raise Unsupported("action %r" % k)
    return base.drive(inst, case, sample=lambda step, time: sample(inst, step, time, case, overrides),
                      action=action)


def run_case_file(path):
    return common.run_case_file(path, run_case)


def dumps(samples) -> str:
    return base.dumps_samples(samples)


def main(argv=None):
    from .common import expected_main
    return expected_main(argv, lambda p: dumps(run_case_file(p)), (), __doc__)


if __name__ == "__main__":
    sys.exit(main())
