"""A seeded generator of valid random OpenBone documents and FORMAT.md case files.

``generate(seed)`` returns ``(document, cases)``: plain dicts, the same for the same seed on
every machine (``random.Random(seed)`` only; no set or dict iteration order is relied on).
Documents cover random bone trees with every inherit mode, shear and negative scale, slots
with colours / dark / blend, skins with skin bones and skin constraints, regions (skew,
packed / rotated / trimmed / polygon atlas regions), weighted and unweighted meshes, linked
meshes, bounding boxes, clipping masks, paths, points, shapes, sequences, text; IK /
transform / path / physics constraints with custom orders and reference scales; sliders
(bone- and input-driven, additive, looping); animations with every timeline target and curve
kind (linear, stepped, beziers whose handles overshoot), events and audio keys.  Cases: the
setup pose per skin, and animation cases with tracks, queues, setAnimation / addAnimation /
setSkin / setEmitter / emitParticles actions, bounds queries and irregular steps.  About one
seed in seven gives a state-machine document instead (``machine_document``: inputs, layers,
transitions, listeners, bindings; cases with setInput / fire / pointer actions) for the §9
oracle, which poses bones only (no constraints, nothing drawn there).

``size`` (default: drawn per seed) scales the number of bones, slots and timelines.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List, Optional, Tuple

INHERIT = ["normal", "onlyTranslation", "noRotation", "noScale", "noRotationOrReflection", "noScaleOrReflection"]
KEY_INHERIT = ["normal", "onlyTranslation", "noRotation", "noScale"] * 2 + ["noRotationOrReflection", "noScaleOrReflection"]
BONE_PROPS = ["rotation", "x", "y", "scaleX", "scaleY", "shearX", "shearY"]
BLENDS = ["normal", "additive", "multiply", "screen"]
STEP_DTS = [1 / 60, 1 / 60, 1 / 30, 0.0137, 0.1, 0.25, 0.0, 0.5, 1 / 24, 1.5]


def _r(rng, lo, hi, nd=3):
    """A uniform number rounded to ``nd`` decimals (short, readable documents)."""
    return round(rng.uniform(lo, hi), nd)


def _maybe(rng, p, value, default=None):
    return value if rng.random() < p else default


def _hex(rng, alpha=True) -> str:
    n = 4 if alpha and rng.random() < 0.6 else 3
    parts = [rng.randrange(256) for _ in range(n)]
    if n == 4 and rng.random() < 0.5:
        parts[3] = rng.choice([0, 255, 128, rng.randrange(256)])
    return "#" + "".join("%02x" % p for p in parts)


def _scale(rng):
    """Bone scales: mostly 1, else away from 0 (degenerate matrices are their own topic)."""
    c = rng.random()
    if c < 0.45:
        return 1
    if c < 0.6:
        return -1
    s = _r(rng, 0.25, 2.0)
    return -s if rng.random() < 0.3 else s


class Generator:
    def __init__(self, seed: int, size: Optional[int] = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.size = size if size is not None else self.rng.choice([1, 2, 2, 3, 3, 4, 5, 6])

    # ------------------------------------------------------------------ bones
    def bones(self) -> List[Dict[str, Any]]:
        rng = self.rng
        n = rng.randint(1, 2 + 2 * self.size)
        out = []
        for i in range(n):
            b: Dict[str, Any] = {"id": "b%d" % i, "name": "b%d" % i if rng.random() < 0.8 else "bone %d" % i}
            if i > 0 and rng.random() < 0.9:
                b["parent"] = "b%d" % rng.randrange(i)
            elif rng.random() < 0.05:  # §2: a parent not created yet (or missing) ⇒ a root
                b["parent"] = rng.choice(["b%d" % (i + 1), "no_such_bone"])
            if rng.random() < 0.8:
                b["x"] = _r(rng, -60, 60)
            if rng.random() < 0.8:
                b["y"] = _r(rng, -60, 60)
            if rng.random() < 0.8:
                b["rotation"] = _r(rng, -200, 200)
            if rng.random() < 0.5:
                b["scaleX"] = _scale(rng)
            if rng.random() < 0.5:
                b["scaleY"] = _scale(rng)
            if rng.random() < 0.3:
                b["shearX"] = _r(rng, -40, 40)
            if rng.random() < 0.3:
                b["shearY"] = _r(rng, -40, 40)
            if rng.random() < 0.7:
                b["length"] = rng.choice([0, _r(rng, 5, 80)])
            if rng.random() < 0.5:
                b["inherit"] = rng.choice(INHERIT)
            out.append(b)
        return out

    # ---------------------------------------------------------- images, atlas
    def images(self) -> Tuple[List[Dict[str, Any]], Optional[Dict[str, Any]]]:
        rng = self.rng
        imgs = []
        for i in range(rng.randint(1, 4)):
            imgs.append({"id": "img%d" % i, "name": "image%d" % i, "src": "",
                         "width": rng.choice([16, 32, 40, 64, 100]), "height": rng.choice([16, 30, 32, 64, 80])})
        if rng.random() < 0.5:
            return imgs, None
        pages = [{"id": "page0", "name": "p0", "src": "p0.png", "width": 256, "height": 256}]
        if rng.random() < 0.3:
            pages.append({"id": "page1", "name": "p1", "src": "p1.png", "width": 128, "height": 512})
        regions = []
        for im in imgs:
            if rng.random() < 0.25:
                continue  # loose image
            w, h = im["width"], im["height"]
            r = {"image": im["id"], "page": rng.choice(pages)["id"], "x": rng.randrange(0, 100),
                 "y": rng.randrange(0, 100), "width": w, "height": h, "originalWidth": w, "originalHeight": h}
            if rng.random() < 0.3:  # trimmed
                ox, oy = rng.randrange(0, w // 3 + 1), rng.randrange(0, h // 3 + 1)
                r.update(offsetX=ox, offsetY=oy, width=w - ox - rng.randrange(0, w // 4 + 1),
                         height=h - oy - rng.randrange(0, h // 4 + 1))
            if rng.random() < 0.3:
                r["rotated"] = True
            if rng.random() < 0.2:  # a convex polygon in original-image pixels
                k = rng.randint(3, 7)
                r["polygon"] = [round(v, 2) for j in range(k) for v in
                                (w / 2 + w / 2 * math.cos(2 * math.pi * j / k), h / 2 + h / 2 * math.sin(2 * math.pi * j / k))]
            regions.append(r)
        atlas = {"pages": pages, "regions": regions}
        if rng.random() < 0.5:
            atlas["white"] = {"page": "page0", "x": 250, "y": 250, "width": 4, "height": 4}
        if rng.random() < 0.3:
            atlas["premultipliedAlpha"] = True
        return imgs, atlas

    # ------------------------------------------------------------ attachments
    def polygon(self, n, radius=40):
        """n points of a star-shaped (simple) polygon around the origin, counter-clockwise."""
        rng = self.rng
        pts = []
        for j in range(n):
            a = 2 * math.pi * (j + rng.uniform(-0.3, 0.3)) / n
            r = rng.uniform(0.4, 1.0) * radius
            pts += [round(math.cos(a) * r + self.ox, 2), round(math.sin(a) * r + self.oy, 2)]
        return pts

    def weights(self, verts, bone_ids):
        rng = self.rng
        out = []
        for v in range(len(verts) // 2):
            k = rng.randint(1, 3)
            ws = [rng.uniform(0.1, 1) for _ in range(k)]
            t = sum(ws)
            infl = []
            for w in ws:
                bone = rng.choice(bone_ids) if rng.random() < 0.95 else "missing_bone"
                infl.append({"bone": bone, "x": round(verts[2 * v] + rng.uniform(-8, 8), 2),
                             "y": round(verts[2 * v + 1] + rng.uniform(-8, 8), 2), "weight": round(w / t, 4)})
            out.append(infl)
        return out

    def attachment(self, kind, bone_ids, image_ids, slot_ids, mesh_names) -> Dict[str, Any]:
        rng = self.rng
        self.ox, self.oy = _r(rng, -20, 20), _r(rng, -20, 20)
        a: Dict[str, Any] = {"type": kind}
        if kind in ("region", "sequence"):
            a.update(x=self.ox, y=self.oy, rotation=_r(rng, -180, 180), width=rng.choice([10, 32, 40, 64]),
                     height=rng.choice([12, 30, 32, 50]))
            if rng.random() < 0.5:
                a["scaleX"] = _scale(rng)
            if rng.random() < 0.5:
                a["scaleY"] = _scale(rng)
            if rng.random() < 0.3:
                a["skewX"] = _r(rng, -30, 30)
            if rng.random() < 0.3:
                a["skewY"] = _r(rng, -30, 30)
            if rng.random() < 0.5:
                a["color"] = _hex(rng)
            if kind == "region":
                a["image"] = rng.choice(image_ids + (["missing_image"] if rng.random() < 0.1 else []))
            else:
                frames = []
                for _ in range(rng.randint(1, 5)):
                    fr: Dict[str, Any] = {"image": rng.choice(image_ids)}
                    if rng.random() < 0.3:
                        fr["rect"] = {"x": rng.randrange(0, 8), "y": rng.randrange(0, 8), "width": 8, "height": 8}
                        if rng.random() < 0.5:
                            fr["trim"] = {"x": rng.randrange(0, 4), "y": rng.randrange(0, 4),
                                          "sourceWidth": 12, "sourceHeight": 12}
                    frames.append(fr)
                a.update(frames=frames, fps=rng.choice([0, 5, 10, 12, 24, 30]),
                         mode=rng.choice(["loop", "once", "pingPong", "holdLast"]), offset=rng.randint(-3, 3))
                if rng.random() < 0.15:
                    a["input"] = rng.choice(["in0", "in1", "no_such_input"])  # §8.6 a number input's default
        elif kind == "mesh":
            n = rng.randint(3, 8)
            verts = self.polygon(n)
            a.update(image=rng.choice(image_ids),
                     uvs=[round(rng.uniform(0, 1), 3) for _ in range(2 * n - (2 if rng.random() < 0.05 else 0))],
                     triangles=[i for t in range(1, n - 1) for i in (0, t, t + 1)], vertices=verts, hull=n)
            if rng.random() < 0.5:
                a["weights"] = self.weights(verts, bone_ids)
            if rng.random() < 0.5:
                a["color"] = _hex(rng)
        elif kind == "boundingBox":
            verts = self.polygon(rng.randint(3, 6))
            a["vertices"] = verts
            if rng.random() < 0.4:
                a["weights"] = self.weights(verts, bone_ids)
        elif kind == "clipping":
            a["vertices"] = self.polygon(rng.choice([2, 3, 4, 5, 6]))
            a["end"] = rng.choice(slot_ids + [None, None])
        elif kind == "path":
            knots = rng.randint(1, 4)
            a["vertices"] = [_r(rng, -100, 100, 2) for _ in range(6 * knots)]
            a["closed"] = rng.random() < 0.4
            if rng.random() < 0.3:
                a["constantSpeed"] = False
            if rng.random() < 0.3:
                a["weights"] = self.weights(a["vertices"], bone_ids)
        elif kind == "point":
            a.update(x=self.ox, y=self.oy, rotation=_r(rng, -180, 180))
        elif kind == "shape":
            shape = rng.choice(["rect", "ellipse", "polygon"])
            a.update(shape=shape, x=self.ox, y=self.oy, rotation=_r(rng, -180, 180), width=rng.choice([10, 30, 44]),
                     height=rng.choice([8, 24, 40]))
            if shape == "rect" and rng.random() < 0.6:
                a["radius"] = rng.choice([0, 3, 6, 30])
            if shape == "polygon":
                self.ox = self.oy = 0.0
                a["points"] = self.polygon(rng.randint(3, 7), 20)
            if rng.random() < 0.8:
                a["fill"] = _hex(rng)
            if rng.random() < 0.5:
                a["stroke"] = _hex(rng)
                a["strokeWidth"] = rng.choice([0, 1, 2.5])
        elif kind == "particles":
            a.update(x=self.ox, y=self.oy)
            opt = {"emitting": lambda: rng.random() < 0.8, "rate": lambda: rng.choice([0, 10, 40, 90]),
                   "bursts": lambda: [{"time": _r(rng, 0, 1), "count": rng.randint(1, 6)} for _ in range(rng.randint(1, 2))],
                   "maxParticles": lambda: rng.choice([5, 12, 30]), "duration": lambda: rng.choice([0.5, 1, 2]),
                   "loop": lambda: rng.random() < 0.7, "prewarm": lambda: rng.random() < 0.3,
                   "shape": lambda: rng.choice(["point", "circle", "box", "cone"]), "rotation": lambda: _r(rng, -180, 180),
                   "angle": lambda: _r(rng, 0, 120), "radius": lambda: _r(rng, 0, 20), "width": lambda: _r(rng, 0, 30),
                   "height": lambda: _r(rng, 0, 30), "space": lambda: rng.choice(["world", "local"]),
                   "lifetime": lambda: sorted([_r(rng, 0.1, 1.5), _r(rng, 0.1, 1.5)]),
                   "speed": lambda: sorted([_r(rng, 0, 150), _r(rng, 0, 150)]), "gravity": lambda: _r(rng, -100, 200),
                   "drag": lambda: _r(rng, 0, 3), "startSize": lambda: [_r(rng, 1, 20), _r(rng, 1, 20)],
                   "endSize": lambda: [_r(rng, 0, 10), _r(rng, 0, 10)], "startRotation": lambda: [0, _r(rng, 0, 90)],
                   "endRotation": lambda: [_r(rng, -90, 0), 0], "angularVelocity": lambda: [_r(rng, -90, 90)] * 2,
                   "colors": lambda: [{"t": _r(rng, 0, 1), "color": _hex(rng)} for _ in range(rng.randint(1, 3))],
                   "blend": lambda: rng.choice(BLENDS), "look": lambda: rng.choice(["circle", "square", "spark", "image"]),
                   "stretch": lambda: _r(rng, 0, 0.2), "seed": lambda: rng.randint(0, 10 ** 6),
                   "image": lambda: rng.choice(image_ids)}
            for k in sorted(opt):
                if rng.random() < 0.4:
                    a[k] = opt[k]()
            a.setdefault("maxParticles", rng.choice([5, 12, 30]))
        elif kind == "text":
            a.update(text=rng.choice(["hello", "a {{b}} c", "", "score", "{level}", "{level:0.0#}x", "{missing}",
                                      "{count:#,##0}"]), x=self.ox, y=self.oy,
                     rotation=_r(rng, -90, 90), width=rng.choice([40, 80]), height=rng.choice([12, 20]),
                     size=12, color=_hex(rng))
        return a

    # ------------------------------------------------------------ skeleton
    def skeleton(self) -> Dict[str, Any]:
        rng = self.rng
        bones = self.bones()
        bone_ids = [b["id"] for b in bones]
        self.bone_ids = bone_ids
        images, atlas = self.images()
        self.images_, self.atlas = images, atlas
        image_ids = [im["id"] for im in images]
        nslots = rng.randint(0, 1 + 2 * self.size)
        slots = []
        for i in range(nslots):
            s: Dict[str, Any] = {"id": "s%d" % i, "name": "s%d" % i if rng.random() < 0.85 else "slot %d" % i,
                                 "bone": rng.choice(bone_ids)}
            if rng.random() < 0.5:
                s["color"] = _hex(rng)
            if rng.random() < 0.2:
                s["dark"] = _hex(rng, alpha=False)
            if rng.random() < 0.3:
                s["blend"] = rng.choice(BLENDS)
            slots.append(s)
        slot_ids = [s["id"] for s in slots]
        kinds = ["region"] * 4 + ["mesh"] * 3 + ["boundingBox", "boundingBox", "clipping", "clipping", "path", "path",
                                                   "point", "shape", "shape", "sequence", "sequence", "text", "particles"]
        default: Dict[str, Dict[str, Any]] = {}
        self.slot_atts: Dict[str, Dict[str, Dict[str, Any]]] = {}
        for s in slots:
            atts = {}
            meshes = []
            for j in range(rng.randint(0, 3)):
                kind = rng.choice(kinds)
                name = "%s%d" % (kind[:4], j)
                att = self.attachment(kind, bone_ids, image_ids, slot_ids, meshes)
                if kind == "mesh" and meshes and rng.random() < 0.4:  # a linked mesh: geometry copied (§2)
                    src = rng.choice(meshes)
                    att = dict(atts[src])
                    att["linked"] = {"mesh": src, "deform": rng.random() < 0.6}
                    att["color"] = _hex(rng)
                if kind == "mesh":
                    meshes.append(name)
                atts[name] = att
            if atts:
                default[s["id"]] = atts
                if rng.random() < 0.85:
                    s["attachment"] = rng.choice(sorted(atts) + ([None] if rng.random() < 0.2 else []))
            self.slot_atts[s["id"]] = dict(atts)
        sk: Dict[str, Any] = {"bones": bones, "slots": slots}
        skins = [{"id": "skin_default", "name": "default", "attachments": default}]
        for k in range(rng.choice([0, 0, 1, 2])):
            sa: Dict[str, Dict[str, Any]] = {}
            for s in slots:
                if rng.random() < 0.4:
                    names = sorted(self.slot_atts[s["id"]]) or ["extra"]
                    name = rng.choice(names + ["extra"])
                    kind = rng.choice(["region", "mesh", "shape", "boundingBox", "path"])
                    att = self.attachment(kind, bone_ids, image_ids, slot_ids, [])
                    sa.setdefault(s["id"], {})[name] = att
                    self.slot_atts[s["id"]].setdefault(name, att)
            skin: Dict[str, Any] = {"id": "skin%d" % (k + 1), "name": "skin %d" % (k + 1), "attachments": sa}
            if rng.random() < 0.5 and len(bone_ids) > 1:
                skin["bones"] = rng.sample(bone_ids[1:], rng.randint(1, min(3, len(bone_ids) - 1)))
            skins.append(skin)
        sk["skins"] = skins
        self.constraints(sk, bones, slots)
        for skin in skins[1:]:
            cons = [c["id"] for kind in ("ik", "transform", "path", "physics") for c in sk.get(kind) or []]
            if cons and rng.random() < 0.5:
                skin["constraints"] = rng.sample(cons, rng.randint(1, min(2, len(cons))))
        if rng.random() < 0.3:
            sk["referenceScale"] = rng.choice([50, 150, 100, 25])
        return sk

    def constraints(self, sk, bones, slots) -> None:
        rng = self.rng
        ids = [b["id"] for b in bones]
        if len(ids) < 2:
            return
        parent = {b["id"]: b.get("parent") for b in bones}
        n_cons = rng.randint(0, self.size + 2)
        for ci in range(n_cons):
            kind = rng.choice(["ik", "ik", "transform", "transform", "path", "physics", "physics"])
            cid = "c%d" % ci
            if kind == "ik":
                pairs = [b for b in ids if parent.get(b) is not None]
                if pairs and rng.random() < 0.6:
                    ch = rng.choice(pairs)
                    chain = [parent[ch], ch]
                else:
                    chain = [rng.choice(ids)]
                others = [x for x in ids if x not in chain]
                if not others:
                    continue
                c = {"id": cid, "name": "ik %d" % ci, "bones": chain, "target": rng.choice(others),
                     "mix": rng.choice([1, 1, _r(rng, 0, 1), _r(rng, -0.3, 1.3)]),
                     "bendPositive": rng.random() < 0.5}
                if rng.random() < 0.4:
                    c["softness"] = rng.choice([0, _r(rng, 0, 40)])
                for f in ("stretch", "compress", "uniform"):
                    if rng.random() < 0.3:
                        c[f] = True
                sk.setdefault("ik", []).append(c)
            elif kind == "transform":
                bl = rng.sample(ids, rng.randint(1, min(3, len(ids))))
                c = {"id": cid, "name": "tc %d" % ci, "bones": bl, "target": rng.choice(ids)}
                for f in ("mixRotate", "mixTranslate", "mixScale", "mixShear"):
                    if rng.random() < 0.75:
                        c[f] = rng.choice([1, 0, _r(rng, 0, 1), _r(rng, -0.5, 1.5)])
                for f, lo, hi in (("offsetRotation", -45, 45), ("offsetX", -20, 20), ("offsetY", -20, 20),
                                  ("offsetScaleX", -0.5, 0.5), ("offsetScaleY", -0.5, 0.5), ("offsetShear", -20, 20)):
                    if rng.random() < 0.35:
                        c[f] = _r(rng, lo, hi)
                if rng.random() < 0.5:
                    c["local"] = True
                if rng.random() < 0.5:
                    c["relative"] = True
                sk.setdefault("transform", []).append(c)
            elif kind == "path":
                targets = [s["id"] for s in slots
                           if any(a.get("type") == "path" for a in self.slot_atts.get(s["id"], {}).values())]
                if not targets:
                    s = {"id": "s%d" % len(slots), "name": "s%d" % len(slots), "bone": rng.choice(ids),
                         "attachment": "path"}
                    att = self.attachment("path", ids, ["img0"], [], [])
                    slots.append(s)
                    self.slot_atts[s["id"]] = {"path": att}
                    sk["skins"][0]["attachments"][s["id"]] = {"path": att}
                    targets = [s["id"]]
                c = {"id": cid, "name": "pc %d" % ci, "bones": rng.sample(ids, rng.randint(1, min(3, len(ids)))),
                     "target": rng.choice(targets),
                     "positionMode": rng.choice(["fixed", "percent"]),
                     "spacingMode": rng.choice(["length", "fixed", "percent", "proportional"]),
                     "rotateMode": rng.choice(["tangent", "chain", "chainScale"]),
                     "position": rng.choice([_r(rng, -0.5, 1.5), _r(rng, -50, 300)]),
                     "spacing": rng.choice([_r(rng, -0.1, 0.4), _r(rng, -5, 30), 0])}
                for f in ("mixRotate", "mixX", "mixY"):
                    c[f] = rng.choice([1, 1, _r(rng, 0, 1), _r(rng, -0.3, 1.2)])
                if rng.random() < 0.3:
                    c["offsetRotation"] = _r(rng, -30, 30)
                sk.setdefault("path", []).append(c)
            else:
                c = {"id": cid, "name": "ph %d" % ci, "bone": rng.choice(ids),
                     "x": rng.choice([0, 1, _r(rng, 0, 1)]), "y": rng.choice([0, 1, _r(rng, 0, 1)]),
                     "rotate": rng.choice([0, 1, _r(rng, 0, 1)]), "scaleX": rng.choice([0, _r(rng, 0, 1)]),
                     "inertia": rng.choice([0.5, _r(rng, -0.2, 1.2)]), "strength": rng.choice([100, _r(rng, 0, 300)]),
                     "damping": rng.choice([1, _r(rng, 0, 5)]), "mass": rng.choice([1, _r(rng, 0.2, 3)]),
                     "gravity": rng.choice([0, _r(rng, -100, 200)]), "wind": rng.choice([0, _r(rng, -50, 50)]),
                     "mix": rng.choice([1, _r(rng, -0.2, 1.2)])}
                if rng.random() < 0.4:
                    c["fps"] = rng.choice([60, 30, 24, 0, 120])
                sk.setdefault("physics", []).append(c)
        cons = [c for k in ("ik", "transform", "path", "physics") for c in sk.get(k) or []]
        for c in cons:  # §7: missing bones are left out, a missing target skips the constraint
            if rng.random() < 0.04:
                if "bones" in c:
                    c["bones"] = c["bones"] + ["no_such_bone"]
                else:
                    c["bone"] = "no_such_bone"
            elif rng.random() < 0.03 and "target" in c:
                c["target"] = "no_such_target"
        if cons and rng.random() < 0.4:
            for c in cons:
                if rng.random() < 0.6:
                    c["order"] = rng.randint(-2, 6)

    # ------------------------------------------------------------ animations
    def curve(self):
        rng = self.rng
        c = rng.random()
        if c < 0.35:
            return None
        if c < 0.45:
            return "linear"
        if c < 0.6:
            return "stepped"
        if rng.random() < 0.5:  # overshooting handles
            return [_r(rng, 0, 1), _r(rng, -1.5, 2.5), _r(rng, 0, 1), _r(rng, -1.5, 2.5)]
        return [_r(rng, 0, 1), _r(rng, 0, 1), _r(rng, 0, 1), _r(rng, 0, 1)]

    def keys(self, duration, value):
        rng = self.rng
        n = rng.choice([1, 2, 2, 3, 3, 4])
        lo, hi = (-0.2, duration + 0.3) if rng.random() < 0.1 else (0, duration)  # keys outside [0, d] too
        times = sorted(round(rng.uniform(lo, hi), 3) for _ in range(n))
        if n > 1 and rng.random() < 0.3:
            times[0] = 0.0
        if n > 2 and rng.random() < 0.1:
            times[1] = times[0]  # equal times: (b.time − a.time) ‖ 1
        out = []
        for t in times:
            k: Dict[str, Any] = {"time": t, "value": value()}
            cv = self.curve()
            if cv is not None:
                k["curve"] = cv
            out.append(k)
        return out

    def timeline(self, sk, duration) -> Optional[Dict[str, Any]]:
        rng = self.rng
        slots = sk["slots"]
        kinds = ["bone"] * 6 + ["slot"] * 2 + ["constraint"] * 3 + ["deform", "sequence", "drawOrder", "particles"]
        kind = rng.choice(kinds)
        if kind == "bone":
            involved = sorted({x for k in ("ik", "transform", "path") for c in sk.get(k) or []
                               for x in c.get("bones", []) + [c.get("target")] if x in self.bone_ids}
                              | {c.get("bone") for c in sk.get("physics") or [] if c.get("bone") in self.bone_ids})
            b = rng.choice(involved) if involved and rng.random() < 0.5 else rng.choice(self.bone_ids)
            prop = rng.choice(BONE_PROPS + ["inherit"] + BONE_PROPS[:3])
            if prop == "inherit":
                return {"target": "bone", "id": b, "property": "inherit",
                        "keys": self.keys(duration, lambda: rng.choice(KEY_INHERIT))}
            lo, hi = {"rotation": (-360, 360), "x": (-60, 60), "y": (-60, 60), "scaleX": (-2, 2), "scaleY": (-2, 2),
                      "shearX": (-45, 45), "shearY": (-45, 45)}[prop]
            return {"target": "bone", "id": b, "property": prop, "keys": self.keys(duration, lambda: _r(rng, lo, hi))}
        if kind == "slot" and slots:
            s = rng.choice(slots)
            prop = rng.choice(["color", "color", "dark", "attachment"])
            if prop == "attachment":
                names = sorted(self.slot_atts.get(s["id"], {})) + [None, "no_such_attachment"]
                return {"target": "slot", "id": s["id"], "property": "attachment",
                        "keys": self.keys(duration, lambda: rng.choice(names))}
            return {"target": "slot", "id": s["id"], "property": prop, "keys": self.keys(duration, lambda: _hex(rng))}
        if kind == "constraint":
            cands = [(k, c) for k in ("ik", "transform", "path", "physics") for c in sk.get(k) or []]
            if not cands:
                return None
            k, c = rng.choice(cands)
            if k == "ik":
                prop = rng.choice(["mix", "softness", "bend", "stretch", "compress"])
                if prop == "bend":
                    val = lambda: rng.choice([1, -1])  # noqa: E731
                elif prop in ("stretch", "compress"):
                    val = lambda: rng.choice([0, 1, True, False])  # noqa: E731
                elif prop == "mix":
                    val = lambda: _r(rng, -0.3, 1.3)  # noqa: E731
                else:
                    val = lambda: _r(rng, 0, 40)  # noqa: E731
            elif k == "transform":
                prop = rng.choice(["mix", "mixRotate", "mixTranslate", "mixScale", "mixShear"])
                val = lambda: _r(rng, -0.5, 1.5)  # noqa: E731
            elif k == "path":
                prop = rng.choice(["position", "spacing", "mixRotate", "mixX", "mixY"])
                val = lambda: _r(rng, -0.5, 1.5) if prop != "position" or rng.random() < 0.5 else _r(rng, -20, 200)  # noqa: E731
            else:
                prop = rng.choice(["mix", "inertia", "strength", "damping", "mass", "gravity", "wind"])
                rngs = {"mix": (-0.2, 1.2), "inertia": (-0.2, 1.2), "strength": (0, 300), "damping": (0, 5),
                        "mass": (0.2, 3), "gravity": (-100, 200), "wind": (-50, 50)}[prop]
                val = lambda: _r(rng, *rngs)  # noqa: E731
            return {"target": k, "id": c["id"], "property": prop, "keys": self.keys(duration, val)}
        if kind == "deform" and slots:
            cands = [(s["id"], n, a) for s in slots for n, a in sorted(self.slot_atts.get(s["id"], {}).items())
                     if a.get("type") in ("mesh", "path", "boundingBox")]
            if not cands:
                return None
            sid, name, a = rng.choice(cands)
            nv = len(a["weights"]) * 2 if a.get("weights") else len(a.get("vertices") or [])
            length = rng.choice([nv, nv, max(0, nv - 2), nv + 2])
            return {"target": "deform", "id": sid, "attachment": name, "property": "offsets",
                    "keys": self.keys(duration, lambda: [_r(rng, -15, 15, 2) for _ in range(length)])}
        if kind == "sequence" and slots:
            cands = [(s["id"], n) for s in slots for n, a in sorted(self.slot_atts.get(s["id"], {}).items())
                     if a.get("type") == "sequence"]
            if not cands:
                return None
            sid, name = rng.choice(cands)
            return {"target": "sequence", "id": sid, "attachment": name, "property": "frame",
                    "keys": self.keys(duration, lambda: rng.choice([rng.randint(-3, 8), _r(rng, -2, 9)]))}
        if kind == "drawOrder" and len(slots) > 1:
            ids = [s["id"] for s in slots]

            def order():
                sub = rng.sample(ids, rng.randint(0, len(ids)))
                if rng.random() < 0.1:
                    sub.append("no_such_slot")
                return sub
            return {"target": "drawOrder", "id": "skeleton", "property": "order", "keys": self.keys(duration, order)}
        if kind == "particles" and slots:
            s = rng.choice(slots)
            if rng.random() < 0.5:
                return {"target": "particles", "id": s["id"], "property": "emitting",
                        "keys": self.keys(duration, lambda: rng.random() < 0.5)}
            return {"target": "particles", "id": s["id"], "property": "rate",
                    "keys": self.keys(duration, lambda: _r(rng, 0, 50))}
        return None

    def animations(self, doc) -> None:
        rng = self.rng
        sk = doc["skeleton"]
        events = []
        for i in range(rng.choice([0, 0, 1, 2])):
            e = {"id": "e%d" % i, "name": "event%d" % i, "int": rng.randint(-5, 5), "float": _r(rng, -2, 2),
                 "string": rng.choice(["", "hit", "step"])}
            events.append(e)
        if events:
            doc["events"] = events
        sounds = []
        if rng.random() < 0.2:
            doc["audio"] = {"assets": [{"id": "as0", "name": "blip", "src": "blip.wav", "duration": rng.choice([0, 0.4, 2])}],
                            "buses": [{"id": "bus_sfx", "name": "sfx", "volume": 1, "muted": False}],
                            "sounds": [{"id": "snd0", "name": "blip", "asset": "as0", "bus": "bus_sfx",
                                        "volume": _r(rng, 0.2, 1), "rate": rng.choice([1, 1.5]),
                                        "loop": rng.random() < 0.3, "fadeIn": 0, "fadeOut": rng.choice([0, 0.1])}]}
            sounds = ["snd0"]
            if events and rng.random() < 0.5:
                events[0]["audio"] = "snd0"
        anims = []
        for i in range(rng.randint(1, 3)):
            dur = rng.choice([1, 0.5, 2, 0.75, 0])
            span = dur or rng.choice([0.5, 1.0])
            tls = []
            for _ in range(rng.randint(0, 2 + 3 * self.size)):
                tl = self.timeline(sk, span)
                if tl is not None:
                    if rng.random() < 0.03 and tl["target"] != "drawOrder":
                        tl["id"] = "no_such_target"  # §5: a timeline whose target is missing is skipped
                    tls.append(tl)
            a: Dict[str, Any] = {"id": "a%d" % i, "name": "anim%d" % i, "duration": dur, "timelines": tls}
            if events and rng.random() < 0.6:
                a["events"] = sorted(({"time": round(rng.uniform(0, span), 3), "event": rng.choice(events)["id"]}
                                      for _ in range(rng.randint(1, 3))), key=lambda k: k["time"])
                for k in a["events"]:
                    if rng.random() < 0.3:
                        k["float"] = _r(rng, -1, 1)
                    if rng.random() < 0.2:
                        k["int"] = rng.randint(-9, 9)
                    if rng.random() < 0.2:
                        k["string"] = rng.choice(["", "x", "key string"])
            if sounds and rng.random() < 0.6:
                a["audio"] = [{"time": round(rng.uniform(0, span), 3), "sound": rng.choice(["snd0", "blip", "as0"])}]
                for f, v in (("volume", _r(rng, 0, 1)), ("rate", rng.choice([0.5, 2])), ("loop", rng.random() < 0.5)):
                    if rng.random() < 0.3:
                        a["audio"][0][f] = v
            anims.append(a)
        doc["animations"] = anims
        # §7.5 sliders
        if rng.random() < 0.3:
            sliders = []
            for i in range(rng.randint(1, 2)):
                s: Dict[str, Any] = {"id": "sl%d" % i, "name": "slider%d" % i, "animation": rng.choice(anims)["id"],
                                     "from": rng.choice([0, -30, 10]), "to": rng.choice([90, 1, 0, 40]),
                                     "mix": rng.choice([1, 1, _r(rng, 0, 1), 0, -0.5])}
                if rng.random() < 0.75:
                    s["bone"] = rng.choice(self.bone_ids)
                    if rng.random() < 0.6:
                        s["property"] = rng.choice(BONE_PROPS)
                else:
                    s["input"] = rng.choice(["in0", "in1"])
                if rng.random() < 0.4:
                    s["timeFrom"] = _r(rng, 0, 0.5)
                if rng.random() < 0.4:
                    s["timeTo"] = rng.choice([0, _r(rng, 0.2, 1.5)])
                for f in ("loop", "additive"):
                    if rng.random() < 0.35:
                        s[f] = True
                sliders.append(s)
            sk["sliders"] = sliders

    # ------------------------------------------------------------ documents
    def document(self) -> Dict[str, Any]:
        rng = self.rng
        sk = self.skeleton()
        doc: Dict[str, Any] = {"format": "openbone", "version": 1, "name": "gen%d" % self.seed, "width": 400,
                               "height": 400, "fps": 30, "images": self.images_, "skeleton": sk}
        if self.atlas is not None:
            doc["atlas"] = self.atlas
        if rng.random() < 0.4:  # inputs that sliders, sequences and text templates read (no layers: never run)
            doc["stateMachines"] = [{"id": "m0", "name": "machine", "layers": [], "inputs": [
                {"id": "in0", "name": "level", "type": "number", "default": _r(rng, -20, 60)},
                {"id": "in1", "name": "count", "type": rng.choice(["number", "bool", "string"]),
                 "default": rng.choice([3, 12345.5, True, "7", "x"])}]}]
        self.animations(doc)
        return doc

    # ------------------------------------------------------------ cases
    def steps(self, doc, skins, max_steps):
        rng = self.rng
        anims = doc["animations"]
        groups = []
        total = 0
        while total < max_steps:
            g: Dict[str, Any] = {"dt": rng.choice(STEP_DTS)}
            rep = rng.randint(1, min(8, max_steps - total))
            if rep > 1:
                g["repeat"] = rep
            total += rep
            acts = []
            if groups and rng.random() < 0.35:
                c = rng.random()
                if c < 0.4 and anims:
                    a = {"animation": rng.choice(anims)["name"], "loop": rng.random() < 0.5}
                    if rng.random() < 0.3:
                        a["track"] = 1
                    if rng.random() < 0.7:
                        a["mix"] = rng.choice([0, 0.1, 0.2, 0.5])
                    acts.append({"setAnimation": a})
                elif c < 0.75 and anims:
                    a = {"animation": rng.choice(anims)["name"], "loop": rng.random() < 0.5,
                         "delay": rng.choice([0, 0, 0.2, 0.6]), "mix": rng.choice([0, 0.2, 0.3])}
                    acts.append({"addAnimation": a})
                elif c < 0.85 or not self.particle_slots(doc):
                    acts.append({"setSkin": rng.choice(skins)})
                elif rng.random() < 0.5:
                    acts.append({"setEmitter": [rng.choice(self.particle_slots(doc)), rng.random() < 0.5]})
                else:
                    acts.append({"emitParticles": [rng.choice(self.particle_slots(doc)), rng.randint(1, 8)]})
            if acts:
                g["actions"] = acts
            groups.append(g)
        return groups

    def particle_slots(self, doc):
        return [s["name"] for s in doc["skeleton"]["slots"]
                if any(a.get("type") == "particles" for a in self.slot_atts.get(s["id"], {}).values())]

    def queries(self):
        rng = self.rng
        out = []
        for _ in range(rng.randint(0, 4)):
            k = rng.choice(["aabbContainsPoint", "aabbIntersects", "containsPoint", "containsPointAll",
                            "intersectsSegment", "intersectsSegmentAll"])
            n = 2 if k in ("aabbContainsPoint", "containsPoint", "containsPointAll") else 4
            out.append({k: [_r(rng, -100, 100, 1) for _ in range(n)]})
        return out

    def cases(self, doc) -> Dict[str, Any]:
        rng = self.rng
        skins = [None] + [s["name"] if rng.random() < 0.5 else s["id"] for s in doc["skeleton"]["skins"][1:]]
        skins_all = skins + ["default"]
        cases = []
        for s in skins:
            c: Dict[str, Any] = {"name": "setup/%s" % s, "setup": True}
            if s is not None:
                c["skin"] = s
            cases.append(c)
        anims = doc["animations"]
        for i in range(rng.randint(1, 3)):
            c = {"name": "play%d" % i}
            sk = rng.choice(skins_all)
            if sk is not None:
                c["skin"] = sk
            if anims and rng.random() < 0.9:
                c["tracks"] = [{"track": 0, "animation": rng.choice(anims)["name"], "loop": rng.random() < 0.6}]
                if rng.random() < 0.2:
                    c["tracks"].append({"track": 1, "animation": rng.choice(anims)["name"], "loop": True})
            if anims and rng.random() < 0.3:
                c["queue"] = [{"track": 0, "animation": rng.choice(anims)["name"], "loop": rng.random() < 0.5,
                               "delay": rng.choice([0, 0.3]), "mix": rng.choice([0, 0.2, 0.4])}]
            c["steps"] = self.steps(doc, skins_all, rng.randint(3, 24))
            if rng.random() < 0.3:
                c["bounds"] = True
                q = self.queries()
                if q:
                    c["queries"] = q
            cases.append(c)
        return {"document": "doc.obone", "cases": cases}

    # ------------------------------------------------------------ state machines (§9)
    def machine_document(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """A rig driven by a state machine: inputs of every type, layers of animation / blend1d /
        exit states with onComplete, sounds and inputs on enter, transitions with conditions,
        exit times and cross-fades, listeners on bounding boxes (pointer events), bindings on
        bones and slots.  No constraints and nothing drawn (the §9 oracle poses bones only)."""
        rng = self.rng
        bones = self.bones()
        self.bone_ids = [b["id"] for b in bones]
        slots, atts = [], {}
        self.slot_atts = {}
        for i in range(rng.randint(0, 3)):
            s = {"id": "s%d" % i, "name": "s%d" % i, "bone": rng.choice(self.bone_ids)}
            if rng.random() < 0.5:
                s["color"] = _hex(rng)
            a = {}
            for j in range(rng.randint(0, 2)):
                self.ox = self.oy = 0.0
                a["box%d" % j] = {"type": "boundingBox", "vertices": self.polygon(rng.randint(3, 6), 60)}
            if a:
                atts[s["id"]] = a
                if rng.random() < 0.8:
                    s["attachment"] = rng.choice(sorted(a))
            self.slot_atts[s["id"]] = dict(a)
            slots.append(s)
        sk = {"bones": bones, "slots": slots, "skins": [{"id": "skin_default", "name": "default", "attachments": atts}]}
        doc: Dict[str, Any] = {"format": "openbone", "version": 1, "name": "sm%d" % self.seed, "width": 400,
                               "height": 400, "fps": 30, "skeleton": sk}
        self.animations(doc)
        sk.pop("sliders", None)
        doc.pop("stateMachines", None)
        for an in doc["animations"]:  # nothing drawn, nothing constrained: keep bone / slot / drawOrder keys
            an["timelines"] = [t for t in an["timelines"] if t["target"] in ("bone", "drawOrder")
                               or (t["target"] == "slot" and t["property"] != "attachment")]
            if slots and rng.random() < 0.4:
                s = rng.choice(slots)
                names = sorted(self.slot_atts[s["id"]]) + [None]
                an["timelines"].append({"target": "slot", "id": s["id"], "property": "attachment",
                                        "keys": self.keys(an["duration"] or 1, lambda: rng.choice(names))})
        anim_ids = [a["id"] for a in doc["animations"]]
        inputs = [{"id": "i_on", "name": "on", "type": "bool", "default": rng.random() < 0.5},
                  {"id": "i_level", "name": "level", "type": "number", "default": _r(rng, -1, 2)},
                  {"id": "i_mode", "name": "mode", "type": "string", "default": rng.choice(["a", "b", ""])},
                  {"id": "i_go", "name": "go", "type": "trigger"}]
        sounds = [x["id"] for x in (doc.get("audio") or {}).get("sounds") or []]

        def condition():
            i = inputs[3] if rng.random() < 0.35 else rng.choice(inputs)
            if i["type"] == "trigger":
                return {"input": i["id"]}
            if i["type"] == "bool":
                return {"input": i["id"], "op": rng.choice(["==", "!="]), "value": rng.random() < 0.5}
            if i["type"] == "string":
                return {"input": i["id"], "op": rng.choice(["==", "!="]), "value": rng.choice(["a", "b"])}
            return {"input": i["id"], "op": rng.choice(["==", "!=", ">", "<", ">=", "<="]),
                    "value": rng.choice([0, 0.5, 1, _r(rng, -1, 2)])}

        layers = []
        for li in range(rng.choice([1, 1, 2])):
            states = []
            for si in range(rng.randint(2, 5)):
                st: Dict[str, Any] = {"id": "L%dS%d" % (li, si), "name": "state %d.%d" % (li, si)}
                kind = rng.choice(["animation"] * 4 + ["blend1d", "exit"]) if si else "animation"
                st["type"] = kind
                if kind == "animation":
                    st["animation"] = rng.choice(anim_ids)
                elif kind == "blend1d":
                    st["input"] = "i_level"
                    st["entries"] = [{"value": v, "animation": rng.choice(anim_ids)}
                                     for v in sorted(_r(rng, -1, 2) for _ in range(rng.randint(1, 3)))]
                if kind != "exit":
                    if rng.random() < 0.5:
                        st["loop"] = rng.random() < 0.6
                    if rng.random() < 0.3:
                        st["speed"] = rng.choice([0.5, 2, 1.5])
                    if rng.random() < 0.2:
                        st["inputs"] = [{"input": "i_level", "value": _r(rng, -1, 2)}]
                    if sounds and rng.random() < 0.3:
                        st["sounds"] = [{"sound": sounds[0], "on": rng.choice(["enter", "exit"]),
                                         "action": rng.choice(["play", "stop"])}]
                states.append(st)
            ids = [x["id"] for x in states]
            for st in states:
                if st["type"] != "exit" and rng.random() < 0.3:
                    st["onComplete"] = rng.choice(ids)
            trans = []
            for _ in range(rng.randint(len(states), 3 * len(states))):
                t: Dict[str, Any] = {"from": rng.choice(ids + ["@any"]), "to": rng.choice(ids),
                                     "conditions": [condition() for _ in range(rng.choice([0, 0, 1, 1, 2]))]}
                if rng.random() < 0.5:
                    t["duration"] = rng.choice([0, 0.1, 0.25, 0.5])
                if rng.random() < 0.3:
                    t["exitTime"] = rng.choice([None, 0.5, 1, 0])
                trans.append(t)
            layers.append({"id": "L%d" % li, "name": "layer %d" % li, "entry": ids[0], "states": states,
                           "transitions": trans})
        machine: Dict[str, Any] = {"id": "m0", "name": "machine", "inputs": inputs, "layers": layers}
        bindings = []
        for bi in range(rng.choice([0, 0, 1, 2])):
            if slots and rng.random() < 0.4:
                s = rng.choice(slots)
                if rng.random() < 0.5:
                    bindings.append({"id": "bd%d" % bi, "input": rng.choice(["i_level", "i_on"]), "object": "slot",
                                     "target": s["id"], "property": "alpha", "inMin": 0, "inMax": 1,
                                     "outMin": 0, "outMax": 1})
                else:
                    bindings.append({"id": "bd%d" % bi, "input": "i_level", "object": "slot", "target": s["id"],
                                     "property": "color", "inMin": 0, "inMax": 1, "outMin": _hex(rng), "outMax": _hex(rng)})
            else:
                bindings.append({"id": "bd%d" % bi, "input": rng.choice(["i_level", "i_on"]), "object": "bone",
                                 "target": rng.choice(self.bone_ids), "property": rng.choice(BONE_PROPS),
                                 "inMin": rng.choice([0, -1]), "inMax": rng.choice([1, 2, 0]),
                                 "outMin": _r(rng, -50, 50), "outMax": _r(rng, -50, 50)})
        if bindings:
            machine["bindings"] = bindings
        listeners = []
        boxed = [s["id"] for s in slots if self.slot_atts[s["id"]]]
        for k in range(rng.choice([0, 1, 2, 3])):
            act = rng.choice(["setInput", "toggleInput", "fireTrigger", "reportEvent", "playSound", "stopSound", "setMute"])
            if act == "setInput":
                a = {"type": act, "input": rng.choice(["i_on", "i_level", "i_mode"]), "value": rng.choice([1, 0.25, "b", True])}
            elif act == "toggleInput":
                a = {"type": act, "input": "i_on"}
            elif act == "fireTrigger":
                a = {"type": act, "input": "i_go"}
            elif act == "reportEvent" and doc.get("events"):
                a = {"type": act, "event": doc["events"][0]["id"]}
            elif act in ("playSound", "stopSound") and sounds:
                a = {"type": act, "sound": sounds[0]}
            elif act == "setMute" and sounds:
                a = {"type": act, "bus": rng.choice(["bus_sfx", None]), "muted": rng.choice([True, False, "toggle"])}
            else:
                a = {"type": "setInput", "input": "i_level", "value": 1.5}
            listeners.append({"id": "li%d" % k, "name": "listener %d" % k,
                              "slot": rng.choice(boxed + [None]) if boxed else None,
                              "event": rng.choice(["down", "up", "move", "click", "enter", "exit"]), "actions": [a]})
        if listeners:
            machine["listeners"] = listeners
        doc["stateMachines"] = [machine]
        cases = []
        for ci in range(rng.randint(1, 3)):
            groups = []
            for _ in range(rng.randint(2, 8)):
                g: Dict[str, Any] = {"dt": rng.choice(STEP_DTS[:-1])}
                if rng.random() < 0.5:
                    g["repeat"] = rng.randint(2, 5)
                acts = []
                for _ in range(rng.choice([0, 1, 1, 2])):
                    c = rng.random()
                    if c < 0.4:
                        i = rng.choice(inputs)
                        v = {"bool": lambda: rng.choice([True, False, "true", "false", 0, 1]),
                             "number": lambda: rng.choice([_r(rng, -1, 2), "0.5", "abc", True]),
                             "string": lambda: rng.choice(["a", "b", 3]),
                             "trigger": lambda: True}[i["type"]]()
                        acts.append({"setInput": [i["name"], v]})
                    elif c < 0.7:
                        acts.append({"fire": "go"})
                    else:
                        acts.append({"pointer": [rng.choice(["down", "up", "move"]), _r(rng, -80, 80, 1),
                                                 _r(rng, -80, 80, 1)]})
                if acts:
                    g["actions"] = acts
                groups.append(g)
            cases.append({"name": "machine%d" % ci, "stateMachine": "machine", "steps": groups})
        return doc, {"document": "doc.obone", "cases": cases}


def generate(seed: int, size: Optional[int] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(document, case file) for one seed."""
    g = Generator(seed, size)
    if g.rng.random() < 0.15:
        return g.machine_document()
    doc = g.document()
    return doc, g.cases(doc)
