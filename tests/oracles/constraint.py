"""Independent pure-Python oracle for OpenBone §7 constraints (IK, transform,
path, physics) on top of the setup-pose oracle (tests/oracles/base.py).

Written from the specification text (runtime spec §3.2, §3.3, §7.1-§7.4, §8.3,
§12; file format "Constraints", "Constraint order", "Reference scale"), not from
csrc/.  It covers what the constraint conformance fixtures use:

* §3.2 constraint order (stable sort by ``order ?? index``), syncApplied
  (core/math.ts:localFromWorld as §3.2 describes it) and updateSubtree;
* §3.3 constraint active flags (skin constraints, bones off);
* §7.1 one- and two-bone IK, §7.2 transform (local/world, absolute/relative,
  with the cached setup world), §7.3 path (float32 world vertices, §8.3
  weights, spline, arc-length table, sample, every mode), §7.4 physics;
* FORMAT.md case running for setup cases and step cases with ``setSkin``
  actions only (physics state carries over between advances);

* §5/§6 only as far as the fixtures need: one track set at mix 0 (alpha 1),
  keys of every curve (§4.3) on bone x/y/rotation/scale/shear and on constraint
  values.

Not covered (raises Unsupported): sliders, mixing, other
timelines, deform keys, state machines.

    python tests/oracles constraint conformance/cases/ik.json ...   # writes expected/
    python tests/oracles constraint --check conformance/cases/ik.json
"""

from __future__ import annotations

import math
import sys
from typing import Any, Dict, List, Optional

from . import base
from .base import bone_world
from . import common
from .common import (DEG, IDENTITY, RAD, Unsupported, apply, clamp, f32, find_animation, invert,  # noqa: F401
                     local_time, multiply, sample_number, sample_step, skin_attachment, wrap_deg)
from .common import num as _n

KINDS = ("ik", "transform", "path", "physics")
wrap = wrap_deg


# ---------------------------------------------------------------------------
# small maths (§4, §7)
# ---------------------------------------------------------------------------

def rot_deg(m) -> float:
    return math.atan2(m[2], m[0]) * RAD


def scale_x(m) -> float:
    return math.hypot(m[0], m[2])


def scale_y(m) -> float:
    return math.hypot(m[1], m[3])


def det_sign(m) -> float:
    """§7 det(m) = sign(a·d − b·c) ‖ 1"""
    v = m[0] * m[3] - m[1] * m[2]
    return 1.0 if v > 0 else (-1.0 if v < 0 else 1.0)


def rotate_axes(m, r):
    """§7.2 rotateAxes: rotation r (radians) times the linear part; r === 0 no-op."""
    if r == 0:
        return m
    cs, sn = math.cos(r), math.sin(r)
    a, b, c, d, x, y = m
    return (cs * a - sn * c, cs * b - sn * d, sn * a + cs * c, sn * b + cs * d, x, y)


def skew_of(m) -> float:
    return wrap((math.atan2(m[3], m[1]) - math.atan2(m[2], m[0])) * RAD - 90)


def set_skew(m, k):
    ly = math.hypot(m[1], m[3])
    ang = math.atan2(m[2], m[0]) + (90 + k) * DEG
    return (m[0], math.cos(ang) * ly, m[2], math.sin(ang) * ly, m[4], m[5])


# ---------------------------------------------------------------------------
# constraints as data
# ---------------------------------------------------------------------------

class Constraint:
    def __init__(self, kind: str, data: Dict[str, Any], index: int):
        self.kind = kind
        self.data = data
        self.index = index  # in the default list
        self.id = data.get("id")
        self.name = data.get("name", self.id)
        order = data.get("order")
        self.order = float(order) if isinstance(order, (int, float)) and not isinstance(order, bool) else None
        self.values: Dict[str, float] = {}
        self.physics: Optional[Dict[str, Any]] = None

    def setup_values(self) -> Dict[str, float]:
        """§3.1 setupValues: keyable properties, non-number ⇒ 0; transform mix = 1;
        IK bend ±1, stretch/compress 1/0."""
        d = self.data
        if self.kind == "ik":
            return {"mix": _n(d.get("mix")), "softness": _n(d.get("softness")),
                    "bend": 1.0 if d.get("bendPositive") else -1.0,
                    "stretch": 1.0 if d.get("stretch") else 0.0,
                    "compress": 1.0 if d.get("compress") else 0.0}
        if self.kind == "transform":
            return {"mix": 1.0, "mixRotate": _n(d.get("mixRotate")), "mixTranslate": _n(d.get("mixTranslate")),
                    "mixScale": _n(d.get("mixScale")), "mixShear": _n(d.get("mixShear"))}
        if self.kind == "path":
            return {k: _n(d.get(k)) for k in ("position", "spacing", "mixRotate", "mixX", "mixY")}
        return {k: _n(d.get(k)) for k in ("mix", "inertia", "strength", "damping", "mass", "gravity", "wind")}


class Instance(base.Instance):
    """base.Instance plus §7 constraints."""

    SLIDERS = False  # §7.5 lives in oracles.full (it needs §5 applyAnimation)

    def __init__(self, doc, skin=None):
        doc = base.load_document(doc)
        sk = doc.get("skeleton") or {}
        if sk.get("sliders") and not self.SLIDERS:
            raise Unsupported("sliders are not implemented by the constraint oracle (oracles.full has them)")
        stripped = dict(doc)
        stripped["skeleton"] = {k: v for k, v in sk.items() if k not in KINDS + ("sliders",)}
        self.constraints: List[Constraint] = []
        self.pending = 0.0
        self.scale = (1.0, 1.0)  # placement scale (§7 unit scale)
        super().__init__(stripped, None)  # bones, slots, skins; posed without constraints
        self.doc = doc
        # default list: ik, transform, path, physics, each in array order
        for kind in KINDS:
            for cd in sk.get(kind) or []:
                self.constraints.append(Constraint(kind, cd, len(self.constraints)))
        self.reference_scale = _n(sk.get("referenceScale"), 100.0) if "referenceScale" in sk else 100.0
        self.order = self.constraint_order()
        self.setup_worlds = self.compute_setup_worlds()
        # the constructor again, now with constraints: updateActive, setup pose, one update
        self.update_active()
        self.set_to_setup_pose()
        self.update_world_transform()
        if skin is not None:
            self.set_skin(skin)

    # -- §3.2 constraint order --------------------------------------------------
    def constraint_order(self) -> List[Constraint]:
        lst = list(self.constraints)
        if not any(c.order is not None for c in lst):
            return lst
        return sorted(lst, key=lambda c: (c.order if c.order is not None else c.index, c.index))

    def compute_setup_worlds(self):
        """core/setup.ts:setupWorld: setup local poses through boneWorld with the
        data inherit, no constraints, roots under identity."""
        out = []
        for b in self.bones:
            if b.parent is None:
                out.append(bone_world(IDENTITY, b.setup, "normal"))
            else:
                out.append(bone_world(out[b.parent.index], b.setup, b.setup_inherit))
        return out

    def find_bone(self, ref):
        return self._bone_by_id.get(ref)

    def find_slot(self, ref):
        for s in self.slots:
            if s.id == ref:
                return s
        return None

    # -- §3.3 --------------------------------------------------------------------
    def update_active(self) -> None:
        super().update_active()
        if not hasattr(self, "order"):
            return
        req_bones = set()
        req_cons = set()
        for s in self.skins:
            req_bones.update(s.get("bones") or [])
            req_cons.update(s.get("constraints") or [])
        mine = set((self.skin or {}).get("constraints") or [])

        def off(bid):
            b = self.find_bone(bid)
            return b is not None and not b.active

        for c in self.constraints:
            skip = c.id in req_cons and c.id not in mine
            if not skip and req_bones:
                d = c.data
                if c.kind == "physics":
                    skip = off(d.get("bone"))
                elif c.kind == "path":
                    slot = self.find_slot(d.get("target"))
                    skip = any(off(x) for x in d.get("bones") or []) or (slot is not None and not slot.bone.active)
                else:
                    skip = any(off(x) for x in d.get("bones") or []) or off(d.get("target"))
            c.active = not skip

    # -- §3.1 / §3 ---------------------------------------------------------------
    def set_to_setup_pose(self) -> None:
        super().set_to_setup_pose()
        for c in getattr(self, "constraints", []):
            c.values = c.setup_values()

    def advance(self, dt: float) -> None:
        self.set_to_setup_pose()
        if dt > 0:  # skeleton.update(dt)
            self.clock += dt
            self.pending += dt
        self.update_world_transform()

    def update_world_transform(self) -> None:
        for b in self.bones:
            if not b.active:
                continue
            b.applied = dict(b.local)
            parent = b.parent
            b.world = bone_world(parent.world if parent else self.root, b.applied,
                                 b.inherit if parent else "normal")
        if not hasattr(self, "order"):
            return
        dt = self.pending
        self.pending = 0.0
        for c in self.order:
            if not c.active:
                continue
            getattr(self, "apply_" + c.kind)(c, dt)

    # -- bone helpers (§3.2) -------------------------------------------------------
    def parent_world(self, b):
        return b.parent.world if b.parent else self.root

    def update_world(self, b) -> None:
        b.world = bone_world(self.parent_world(b), b.applied, b.inherit if b.parent else "normal")

    def children(self, b):
        return [x for x in self.bones if x.parent is b]

    def update_subtree(self, b, include_self=True) -> None:
        if not b.active:
            return
        if include_self:
            self.update_world(b)
        for ch in self.children(b):
            self.update_subtree(ch, True)

    def sync_applied(self, b) -> None:
        """§3.2 syncApplied (localFromWorld): position always; for inherit normal
        the full decomposition keeping shearX."""
        pinv = invert(self.parent_world(b))
        w = b.world
        ap = b.applied
        ap["x"], ap["y"] = apply(pinv, w[4], w[5])
        mode = b.inherit if b.parent else "normal"
        if mode != "normal":
            return
        la, lb, lc, ld = (pinv[0] * w[0] + pinv[1] * w[2], pinv[0] * w[1] + pinv[1] * w[3],
                          pinv[2] * w[0] + pinv[3] * w[2], pinv[2] * w[1] + pinv[3] * w[3])
        sx = math.hypot(la, lc)
        sy = math.hypot(lb, ld)
        if la * ld - lb * lc < 0:
            sy = -sy
        ap["scaleX"], ap["scaleY"] = sx, sy
        ap["rotation"] = math.atan2(lc, la) * RAD - ap["shearX"]
        if sy != 0:
            ap["shearY"] = wrap(math.atan2(ld / sy, lb / sy) * RAD - 90 - ap["rotation"])

    def us_x(self):
        return self.reference_scale / 100 * self.scale[0]

    def us_y(self):
        return self.reference_scale / 100 * self.scale[1]

    # -- §7.1 IK -----------------------------------------------------------------
    def apply_ik(self, c, dt):
        v = c.values
        mix = v["mix"]
        target = self.find_bone(c.data.get("target"))
        bones = [b for b in (self.find_bone(x) for x in c.data.get("bones") or []) if b is not None]
        if mix <= 0 or target is None or not bones:
            return
        tx, ty = target.world[4], target.world[5]
        stretch, compress, bend_pos = v["stretch"] > 0, v["compress"] > 0, v["bend"] > 0
        uniform = bool(c.data.get("uniform"))
        if len(bones) == 1:
            b = bones[0]
            dx, dy = tx - b.world[4], ty - b.world[5]
            pi = invert(self.parent_world(b))
            lx, ly = pi[0] * dx + pi[1] * dy, pi[2] * dx + pi[3] * dy
            want = math.atan2(ly, lx) * RAD - b.applied["shearX"]
            b.applied["rotation"] += wrap(want - b.applied["rotation"]) * mix
            self.update_world(b)
            ln = _n(b.data.get("length")) * scale_x(b.world)
            if (stretch or compress) and ln > 1e-6:
                k = math.hypot(dx, dy) / ln
                if (k > 1 and stretch) or (k < 1 and compress):
                    s = 1 + (k - 1) * mix
                    a, bb, cc, d, x, y = b.world
                    u = s if uniform else 1.0
                    b.world = (a * s, bb * u, cc * s, d * u, x, y)
                    self.sync_applied(b)
            self.update_subtree(b, False)
            return
        p, ch = bones[0], bones[1]
        px, py = p.world[4], p.world[5]
        l1 = math.hypot(ch.world[4] - px, ch.world[5] - py)
        l2 = _n(ch.data.get("length")) * scale_x(ch.world)
        reach = l1 + l2
        d_raw = math.hypot(tx - px, ty - py)
        soft = min(v["softness"] * abs(self.us_x()), reach)
        if soft > 1e-6 and d_raw > reach - soft:
            d_soft = reach - soft + soft * (1 - math.exp(-(d_raw - (reach - soft)) / soft))
        else:
            d_soft = d_raw
        d_eff = min(max(d_soft, abs(l1 - l2) + 1e-4), reach - 1e-4)
        ux, uy = ((tx - px) / d_raw, (ty - py) / d_raw) if d_raw > 1e-9 else (1.0, 0.0)
        ax, ay = px + ux * d_eff, py + uy * d_eff
        cos_a = (l1 * l1 + d_eff * d_eff - l2 * l2) / ((2 * l1 * d_eff) or 1)
        a1 = math.atan2(uy, ux) + (-1 if bend_pos else 1) * math.acos(clamp(cos_a, -1, 1))
        cur = math.atan2(ch.world[5] - py, ch.world[4] - px)
        delta_p = wrap((a1 - cur) * RAD) * det_sign(self.parent_world(p))
        p_rot, c_rot = p.applied["rotation"], ch.applied["rotation"]
        p.applied["rotation"] = p_rot + delta_p
        self.update_subtree(p, True)
        delta_c = wrap(math.atan2(ay - ch.world[5], ax - ch.world[4]) * RAD - rot_deg(ch.world)) * det_sign(p.world)
        p.applied["rotation"] = p_rot + delta_p * mix
        ch.applied["rotation"] = c_rot + delta_c * mix
        self.update_world(p)
        self.update_world(ch)
        if stretch and d_raw > d_eff + 1e-9:
            s = 1 + (d_raw / d_eff - 1) * mix
            u = s if uniform else 1.0
            a, bb, cc, d, x, y = p.world
            p.world = (a * s, bb * u, cc * s, d * u, x, y)
            cx, cy = apply(p.world, ch.applied["x"], ch.applied["y"])
            a, bb, cc, d, _, _ = ch.world
            ch.world = (a * s, bb * u, cc * s, d * u, cx, cy)
            self.sync_applied(p)
            self.sync_applied(ch)
        self.update_subtree(ch, False)
        for o in self.children(p):
            if o is not ch:
                self.update_subtree(o, True)

    # -- §7.2 transform -------------------------------------------------------------
    def apply_transform(self, c, dt):
        v, d = c.values, c.data
        m = v["mix"] or 1.0
        mr, mt, ms, mh = v["mixRotate"] * m, v["mixTranslate"] * m, v["mixScale"] * m, v["mixShear"] * m
        target = self.find_bone(d.get("target"))
        if (mr <= 0 and mt <= 0 and ms <= 0 and mh <= 0) or target is None:
            return
        off_r, off_x, off_y = _n(d.get("offsetRotation")), _n(d.get("offsetX")), _n(d.get("offsetY"))
        off_sx, off_sy, off_sh = _n(d.get("offsetScaleX")), _n(d.get("offsetScaleY")), _n(d.get("offsetShear"))
        relative = bool(d.get("relative"))
        for bid in d.get("bones") or []:
            b = self.find_bone(bid)
            if b is None or b is target:
                continue
            if d.get("local"):
                # §7.2 local mode: no per-channel gate (CLARIFICATIONS "Runtime rules the text
                # leaves open"): each channel runs with its mix as it is, negative included.
                p, t, s = b.applied, target.applied, target.setup
                if not relative:
                    p["rotation"] += wrap(t["rotation"] + off_r - p["rotation"]) * mr
                    p["x"] += (t["x"] + off_x - p["x"]) * mt
                    p["y"] += (t["y"] + off_y - p["y"]) * mt
                    p["scaleX"] += (t["scaleX"] + off_sx - p["scaleX"]) * ms
                    p["scaleY"] += (t["scaleY"] + off_sy - p["scaleY"]) * ms
                    p["shearY"] += (t["shearY"] + off_sh - p["shearY"]) * mh
                else:
                    p["rotation"] += (wrap(t["rotation"] - s["rotation"]) + off_r) * mr
                    p["x"] += (t["x"] - s["x"] + off_x) * mt
                    p["y"] += (t["y"] - s["y"] + off_y) * mt
                    p["scaleX"] *= 1 + ((t["scaleX"] / s["scaleX"] if s["scaleX"] else 1) - 1 + off_sx) * ms
                    p["scaleY"] *= 1 + ((t["scaleY"] / s["scaleY"] if s["scaleY"] else 1) - 1 + off_sy) * ms
                    p["shearY"] += (t["shearY"] - s["shearY"] + off_sh) * mh
                self.update_subtree(b, True)
                continue
            w, t = b.world, target.world
            if not relative:
                if mr > 0:
                    w = rotate_axes(w, wrap(rot_deg(t) + off_r - rot_deg(w)) * mr * DEG)
                if mt > 0:
                    gx, gy = apply(t, off_x, off_y)
                    w = w[:4] + (w[4] + (gx - w[4]) * mt, w[5] + (gy - w[5]) * mt)
                if ms > 0:
                    sx = scale_x(w) or 1.0
                    sy = scale_y(w) or 1.0
                    kx = (sx + (scale_x(t) + off_sx - sx) * ms) / sx
                    ky = (sy + (scale_y(t) + off_sy - sy) * ms) / sy
                    w = (w[0] * kx, w[1] * ky, w[2] * kx, w[3] * ky, w[4], w[5])
                if mh > 0:
                    sb = skew_of(w)
                    w = set_skew(w, sb + wrap(skew_of(t) + off_sh - sb) * mh)
            else:
                s = multiply(self.root, self.setup_worlds[target.index])
                if mr > 0:
                    w = rotate_axes(w, (wrap(rot_deg(t) - rot_deg(s)) + off_r) * mr * DEG)
                if mt > 0:
                    w = w[:4] + (w[4] + (t[4] - s[4] + off_x) * mt, w[5] + (t[5] - s[5] + off_y) * mt)
                if ms > 0:
                    kx = 1 + (scale_x(t) / (scale_x(s) or 1.0) - 1 + off_sx) * ms
                    ky = 1 + (scale_y(t) / (scale_y(s) or 1.0) - 1 + off_sy) * ms
                    w = (w[0] * kx, w[1] * ky, w[2] * kx, w[3] * ky, w[4], w[5])
                if mh > 0:
                    w = set_skew(w, skew_of(w) + (wrap(skew_of(t) - skew_of(s)) + off_sh) * mh)
            b.world = w
            self.sync_applied(b)
            self.update_subtree(b, False)

    # -- §7.3 path ------------------------------------------------------------------
    def attachment(self, slot):
        """§8.1 getAttachment(slot, slot.attachment)."""
        return skin_attachment(self.skins, self.skin, slot.id, slot.attachment)

    def world_vertices(self, slot, att) -> List[float]:
        """§8.3 float32 world vertices, deform offsets included (``self.deforms``)."""
        from .draw import polygon_world
        return [f32(c) for p in polygon_world(self, slot, att) for c in p]

    def apply_path(self, c, dt):
        v, d = c.values, c.data
        mix_r, mix_x, mix_y = v["mixRotate"], v["mixX"], v["mixY"]
        slot = self.find_slot(d.get("target"))
        if (mix_r <= 0 and mix_x <= 0 and mix_y <= 0) or slot is None:
            return
        att = self.attachment(slot)
        if att is None or att.get("type") != "path":
            return
        spline = Spline(self.world_vertices(slot, att), bool(att.get("closed")),
                        att.get("constantSpeed") is not False)
        L = spline.length
        if L <= 1e-9:
            return
        bones = [b for b in (self.find_bone(x) for x in d.get("bones") or []) if b is not None]
        n = len(bones)
        lengths = [_n(b.data.get("length")) * scale_x(b.world) for b in bones]
        total = sum(lengths)
        spacing = v["spacing"]
        dist = [v["position"] * L if d.get("positionMode", "percent") == "percent" else v["position"]]
        mode = d.get("spacingMode", "length")
        for i in range(n):
            if mode == "fixed":
                gap = spacing
            elif mode == "percent":
                gap = spacing * L
            elif mode == "proportional":
                gap = spacing * L * (lengths[i] / total if total > 0 else 1.0 / n)
            else:
                gap = lengths[i] + spacing
            dist.append(dist[-1] + gap)
        pts = [spline.sample(x) for x in dist]
        rotate_mode = d.get("rotateMode", "tangent")
        off_r = _n(d.get("offsetRotation"))
        for i, b in enumerate(bones):
            w = b.world
            x = w[4] + (pts[i][0] - w[4]) * mix_x
            y = w[5] + (pts[i][1] - w[5]) * mix_y
            w = w[:4] + (x, y)
            if mix_r > 0:
                ang = pts[i][2]
                if rotate_mode != "tangent":
                    dx, dy = pts[i + 1][0] - x, pts[i + 1][1] - y
                    dd = math.hypot(dx, dy)
                    if dd > 1e-6:
                        ang = math.atan2(dy, dx)
                        if rotate_mode == "chainScale" and lengths[i] > 1e-6:
                            k = 1 + (dd / lengths[i] - 1) * mix_r
                            w = (w[0] * k, w[1], w[2] * k, w[3], w[4], w[5])
                w = rotate_axes(w, wrap((ang + off_r * DEG) * RAD - rot_deg(w)) * mix_r * DEG)
            b.world = w
            self.sync_applied(b)
            self.update_subtree(b, False)

    # -- §7.4 physics -----------------------------------------------------------------
    def apply_physics(self, c, dt):
        d, v = c.data, c.values
        b = self.find_bone(d.get("bone"))
        if b is None:
            return
        w = b.world
        data_len = _n(b.data.get("length"))
        ln = data_len if data_len > 1e-6 else 1.0
        ox, oy = w[4], w[5]
        tx, ty = apply(w, ln, 0)
        st = c.physics
        if st is None:
            st = c.physics = {"o": [ox, oy, 0.0, 0.0, ox, oy], "t": [tx, ty, 0.0, 0.0, tx, ty],
                              "lastO": (ox, oy), "lastT": (tx, ty), "time": 0.0, "steps": 0}
        carry = 1 - clamp(v["inertia"], 0, 1)
        o, t = st["o"], st["t"]
        for p, (nx, ny), (lx, ly) in ((o, (ox, oy), st["lastO"]), (t, (tx, ty), st["lastT"])):
            sx, sy = (nx - lx) * carry, (ny - ly) * carry
            p[0] += sx
            p[4] += sx
            p[1] += sy
            p[5] += sy
        st["lastO"], st["lastT"] = (ox, oy), (tx, ty)
        fps = _n(d.get("fps"), 60.0) or 60.0
        h = 1 / max(1.0, fps)
        st["time"] += dt
        due = math.floor(st["time"] / h + 1e-6)
        if due - st["steps"] > 8:
            st["steps"] = due - 8
        k = min(max(0.0, v["strength"]) / max(1e-6, v["mass"]), 1 / (h * h))
        decay = math.exp(-max(0.0, v["damping"]) * h)
        wind = v["wind"] * self.us_x()
        gravity = v["gravity"] * self.us_y()

        def step(p, gx, gy):
            p[4], p[5] = p[0], p[1]
            p[2] = (p[2] + ((gx - p[0]) * k + wind) * h) * decay
            p[3] = (p[3] + ((gy - p[1]) * k - gravity) * h) * decay
            p[0] += p[2] * h
            p[1] += p[3] * h

        rest = math.hypot(tx - ox, ty - oy) or ln
        while st["steps"] < due:
            step(o, ox, oy)
            step(t, tx, ty)
            st["steps"] += 1
        mix = clamp(v["mix"], 0, 1)
        if mix <= 0:
            return
        f = clamp(st["time"] / h - st["steps"], 0, 1)

        def S(p):
            return (p[4] + (p[0] - p[4]) * f, p[5] + (p[1] - p[5]) * f)

        so, stp = S(o), S(t)
        cx, cy = _n(d.get("x")), _n(d.get("y"))
        c_rot, c_sx = _n(d.get("rotate")), _n(d.get("scaleX"))
        x = ox + (so[0] - ox) * cx * mix
        y = oy + (so[1] - oy) * cy * mix
        w = w[:4] + (x, y)
        if c_rot > 0 or c_sx > 0:
            dx, dy = stp[0] - x, stp[1] - y
            dd = math.hypot(dx, dy)
            if dd > 1e-9:
                w = rotate_axes(w, wrap((math.atan2(dy, dx) - math.atan2(ty - oy, tx - ox)) * RAD) * c_rot * mix * DEG)
                if c_sx > 0 and data_len > 1e-6:
                    s = 1 + (dd / rest - 1) * c_sx * mix
                    w = (w[0] * s, w[1], w[2] * s, w[3], w[4], w[5])
        b.world = w
        self.sync_applied(b)
        self.update_subtree(b, False)


class Spline:
    """§7.3 core/path.ts:buildSpline + sample, on doubles made from float32 vertices."""

    STEPS = 32

    def __init__(self, verts: List[float], closed: bool, constant_speed: bool):
        self.closed = closed
        self.constant_speed = constant_speed
        knots = len(verts) // 6
        self.knots = knots
        nseg = 0 if knots < 2 else (knots if closed else knots - 1)
        self.segs = []
        for s in range(nseg):
            n = (s + 1) % knots
            self.segs.append(((verts[6 * s + 2], verts[6 * s + 3]), (verts[6 * s + 4], verts[6 * s + 5]),
                              (verts[6 * n], verts[6 * n + 1]), (verts[6 * n + 2], verts[6 * n + 3])))
        self.first = (verts[2], verts[3]) if len(verts) >= 4 else (0.0, 0.0)
        table = [0.0]
        for s in range(nseg):
            prev = self.pos(s, 0.0)
            for j in range(1, self.STEPS + 1):
                cur = self.pos(s, j / self.STEPS)
                table.append(table[-1] + math.hypot(cur[0] - prev[0], cur[1] - prev[1]))
                prev = cur
        self.table = table
        self.length = table[-1]

    def pos(self, s, t):
        p0, p1, p2, p3 = self.segs[s]
        u = 1 - t
        w0, w1, w2, w3 = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        return (w0 * p0[0] + w1 * p1[0] + w2 * p2[0] + w3 * p3[0],
                w0 * p0[1] + w1 * p1[1] + w2 * p2[1] + w3 * p3[1])

    def point(self, s, t):
        p0, p1, p2, p3 = self.segs[s]
        u = 1 - t
        dx = 3 * u * u * (p1[0] - p0[0]) + 6 * u * t * (p2[0] - p1[0]) + 3 * t * t * (p3[0] - p2[0])
        dy = 3 * u * u * (p1[1] - p0[1]) + 6 * u * t * (p2[1] - p1[1]) + 3 * t * t * (p3[1] - p2[1])
        if dx * dx + dy * dy < 1e-12:
            a = self.pos(s, max(0.0, t - 1e-3))
            b = self.pos(s, min(1.0, t + 1e-3))
            dx, dy = b[0] - a[0], b[1] - a[1]
            if dx * dx + dy * dy < 1e-18:
                dx, dy = p3[0] - p0[0], p3[1] - p0[1]
        x, y = self.pos(s, t)
        return (x, y, math.atan2(dy, dx))

    def sample(self, dist):
        if not self.segs:
            return (self.first[0], self.first[1], 0.0)
        L = self.length
        T = self.table
        nseg = len(self.segs)
        if self.closed:
            dist = math.fmod(math.fmod(dist, L) + L, L)
        elif dist <= 0 or dist >= L:
            x, y, a = self.point(0, 0.0) if dist <= 0 else self.point(nseg - 1, 1.0)
            e = dist if dist <= 0 else dist - L
            return (x + math.cos(a) * e, y + math.sin(a) * e, a)
        if not self.constant_speed:
            seg = 0
            while not (seg == nseg - 1 or T[(seg + 1) * 32] > dist):
                seg += 1
            start = T[seg * 32]
            span = T[(seg + 1) * 32] - start
            return self.point(seg, min(1.0, (dist - start) / span) if span > 0 else 0.0)
        lo = max(i for i in range(len(T)) if T[i] <= dist)  # linear: the last entry <= dist
        lo = min(lo, len(T) - 2)
        hi = lo + 1
        f = (dist - T[lo]) / (T[hi] - T[lo]) if T[hi] != T[lo] else 0.0
        seg = min(nseg - 1, lo // 32)
        t = (lo - seg * 32 + f) / 32
        return self.point(seg, min(1.0, t))


# ---------------------------------------------------------------------------
# FORMAT.md case running
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# §5 / §6 (just enough): tracks set at mix 0, alpha 1, linear and stepped keys
# ---------------------------------------------------------------------------

BONE_PROPS = ("rotation", "x", "y", "scaleX", "scaleY", "shearX", "shearY")
STEP_PROPS = ("bend", "stretch", "compress")


def sample_keys(keys, time, step=False):
    """§5: sampleStep for the switching properties, else locate + the key's curve."""
    return sample_step(keys, time) if step else sample_number(keys, time)


class Track:
    def __init__(self, anim, loop):
        self.anim = anim
        self.loop = loop
        self.time = 0.0


def apply_animation_alpha1(inst: Instance, anim, time) -> None:
    for tl in anim.get("timelines") or []:
        keys = tl.get("keys") or []
        if not keys:
            continue
        target, prop = tl.get("target"), tl.get("property")
        if target == "bone":
            b = inst.find_bone(tl.get("id"))
            if b is None:
                continue
            if prop not in BONE_PROPS:
                raise Unsupported("bone %s timelines" % prop)
            b.local[prop] = float(sample_keys(keys, time))
        elif target in KINDS:
            c = next((c for c in inst.constraints if c.kind == target and c.id == tl.get("id")), None)
            if c is None:
                continue
            if prop in STEP_PROPS:
                c.values[prop] = float(sample_keys(keys, time, step=True))
            elif prop in c.values:
                c.values[prop] = float(sample_keys(keys, time))
        else:
            raise Unsupported("%s timelines" % target)


def case_supported(case):
    if case.get("queue") or case.get("stateMachine") or case.get("bounds") or case.get("queries"):
        return "queue/stateMachine/bounds"
    for t in case.get("tracks") or []:
        if t.get("track", 0) != 0:
            return "tracks other than 0"
    for group in case.get("steps") or []:
        for action in group.get("actions") or []:
            if not (isinstance(action, dict) and list(action.keys()) == ["setSkin"]):
                return "action %r" % (action,)
    return None


def run_case(doc, case):
    why = case_supported(case)
    if why:
        raise Unsupported("case %r uses %s" % (case.get("name"), why))
    inst = Instance(doc)
    tracks = []
    for t in case.get("tracks") or []:
        tracks = [Track(find_animation(doc, t["animation"]), bool(t.get("loop", False)))]

    def advance(dt):
        for tr in tracks:  # §6 update: time += dt·speed
            tr.time += dt
        inst.set_to_setup_pose()
        for tr in tracks:  # §6 apply (alpha 1, no mixing)
            apply_animation_alpha1(inst, tr.anim, local_time(tr.anim, tr.time, tr.loop))
        if dt > 0:
            inst.clock += dt
            inst.pending += dt
        inst.update_world_transform()
    return base.drive(inst, case, advance)


def run_case_file(path):
    return common.run_case_file(path, run_case)


def main(argv=None):
    from .common import expected_main
    return expected_main(argv, lambda p: base.dumps_samples(run_case_file(p)), (), __doc__)


if __name__ == "__main__":
    sys.exit(main())
