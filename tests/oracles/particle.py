"""Independent pure-Python oracle for §8.8 particles.

Written from the specification text (runtime spec §8.8, §3.2, §8.7, §12; CLARIFICATIONS
"Particles" defaults; FORMAT.md setEmitter/emitParticles), never from csrc/.  Bone and slot
posing come from ``tests/oracles/base.py`` (the lead's independent setup-pose oracle); this module
adds the particle clock, the emitters and their draw items on top of it.

Float32 storage (§12 "particle buffers are float32"): every per-particle field (x, y, vx, vy,
age, life, size0, size1, rot0, rot1, spin) is stored as a float32; each statement of §8.8 is
computed in double from the stored values and rounded once when stored (``r32``).  Emitter
state (cycle, acc, pending, last, the clock's frac) is double.  Geometry output (vertices,
uvs, colours) is float32.

Usage::

    python tests/oracles particle            # regenerate conformance/expected/particles.json
    python tests/oracles particle --check    # exit 1 if it would change
"""
from __future__ import annotations

import json
import math
import os
import sys
from typing import Any, Callable, Dict, List, Optional

from . import base, common
from .common import REPO, atlas_uv, f32, local_time, num_out, sample_number, sample_step

STEP = 1 / 60
MAX_STEPS = 30
MAX_DRAWN = 16383
DEG = math.pi / 180
U32 = 0xFFFFFFFF
DOT = "@openbone/particle-dot"

# CLARIFICATIONS.md "Particles (§2 defaults, defaultParticleSettings)"
DEFAULTS: Dict[str, Any] = {
    "emitting": True, "rate": 20, "bursts": [], "maxParticles": 200, "duration": 1, "loop": True,
    "prewarm": False, "shape": "point", "x": 0, "y": 0, "rotation": 90, "angle": 30, "radius": 10,
    "width": 20, "height": 20, "space": "world", "lifetime": [1, 1], "speed": [100, 100], "gravity": 0,
    "drag": 0, "startSize": [16, 16], "endSize": [0, 0], "startRotation": [0, 0], "endRotation": [0, 0],
    "angularVelocity": [0, 0], "colors": [{"t": 0, "color": "#ffffffff"}, {"t": 1, "color": "#ffffff00"}],
    "blend": "normal", "look": "circle", "stretch": 0.05, "seed": 1,
}


r32 = f32  # a store into a Float32Array


# ---- §8.8 RNG ---------------------------------------------------------------

def imul(a: int, b: int) -> int:
    """Math.imul as unsigned 32 bits: the low 32 bits of the product."""
    return ((a & U32) * (b & U32)) & U32


def fnv1a(text: str) -> int:
    """§8.8 fnv1a over UTF-16 code units, unsigned."""
    h = 0x811C9DC5
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        unit = data[i] | (data[i + 1] << 8)
        h = imul(h ^ unit, 0x01000193)
    return h


def to_int32_bits(x: float) -> int:
    """ToInt32 (as the unsigned bit pattern) of a JS number."""
    if not math.isfinite(x):
        return 0
    return int(math.trunc(x)) & U32


class Mulberry32:
    def __init__(self, seed: int):
        self.s = seed & U32

    def next(self) -> float:
        self.s = (self.s + 0x6D2B79F5) & U32
        t = self.s
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & U32
        return ((t ^ (t >> 14)) & U32) / 2 ** 32

    def range(self, r) -> float:
        a, b = float(r[0]), float(r[1])
        if a == b:
            return a
        return a + (b - a) * self.next()

    def between(self, a: float, b: float) -> float:
        return a + (b - a) * self.next()


# ---- settings ---------------------------------------------------------------

def settings(att: Dict[str, Any]) -> Dict[str, Any]:
    """§2: every missing field from defaultParticleSettings (except image)."""
    s = dict(DEFAULTS)
    s.update({k: v for k, v in att.items()})
    s["stops"] = [(float(c.get("t", 0)), base.parse_hex(c.get("color", "#ffffffff"))) for c in s["colors"]]
    return s


def gradient(stops, t: float) -> List[float]:
    """§8.8 gradient: stable sort only if unsorted, clamp to first/last, lerp between brackets."""
    if not stops:
        return [1.0, 1.0, 1.0, 1.0]
    if any(stops[i][0] < stops[i - 1][0] for i in range(1, len(stops))):
        stops = sorted(stops, key=lambda s: s[0])  # Python's sort is stable
    if t <= stops[0][0]:
        return list(stops[0][1])
    if t >= stops[-1][0]:
        return list(stops[-1][1])
    i = 0
    while stops[i + 1][0] <= t:
        i += 1
    (t0, c0), (t1, c1) = stops[i], stops[i + 1]
    u = (t - t0) / (t1 - t0)
    return [c0[k] + (c1[k] - c0[k]) * u for k in range(4)]


# ---- §8.8 emitter -------------------------------------------------------------

class Particle:
    __slots__ = ("x", "y", "vx", "vy", "age", "life", "size0", "size1", "rot0", "rot1", "spin")


class Emitter:
    def __init__(self, data: Dict[str, Any], key, seed: int):
        self.data = data
        self.key = key  # which attachment object (skin, slot id, name)
        self.rng = Mulberry32(seed)
        self.particles: List[Particle] = []
        self.steps = 0
        self.was_emitting = False
        self.cycle = 0.0
        self.acc = 0.0
        self.pending = 0.0
        self.last = None

    def restart(self):
        self.cycle = 0.0
        self.acc = 0.0
        self.was_emitting = False

    def step(self, h: float, m, values: Dict[str, Any]):
        d = self.data
        emitting = values["emitting"] if values.get("emitting") is not None else bool(d["emitting"])
        rate = values["rate"] if values.get("rate") is not None else float(d["rate"])
        if self.steps == 0 and emitting and d["prewarm"] and d["loop"]:
            self.last = (m[4], m[5])
            n = min(600, math.ceil(float(d["duration"]) / h - 1e-6))
            for _ in range(n):
                self.advance(h, m, True, rate)
        self.advance(h, m, emitting, rate)
        self.steps += 1

    def advance(self, h: float, m, emitting: bool, rate: float):
        d = self.data
        drag, gravity = float(d["drag"]), float(d["gravity"])
        damp = math.exp(-drag * h) if drag > 0 else 1.0
        kept = []
        for p in self.particles:
            p.age = r32(p.age + h)
            if p.age >= p.life:
                continue
            p.vy = r32(p.vy - gravity * h)
            p.vx = r32(p.vx * damp)
            p.vy = r32(p.vy * damp)
            p.x = r32(p.x + p.vx * h)
            p.y = r32(p.y + p.vy * h)
            kept.append(p)
        self.particles = kept
        alive = len(kept)
        if emitting and not self.was_emitting:
            self.cycle = 0.0
            self.acc = 0.0
        self.was_emitting = emitting
        duration = float(d["duration"])
        active = emitting and (d["loop"] or self.cycle < duration)
        burst = self.pending
        self.pending = 0.0
        streamed = 0.0
        if active:
            self.acc += max(0.0, rate) * h
            streamed = float(math.floor(self.acc))
            self.acc -= streamed
            start = self.cycle
            end = start + h
            wraps = end >= duration - 1e-9
            rest = end - duration
            for b in d["bursts"]:
                bt = float(b.get("time", 0))
                if bt > duration + 1e-9:
                    continue
                if start - 1e-9 <= bt < end - 1e-9:
                    burst += float(b.get("count", 0))
                elif wraps and d["loop"] and bt < rest - 1e-9:
                    burst += float(b.get("count", 0))
            self.cycle = (max(0.0, rest) if d["loop"] else duration) if wraps else end
        room = max(0.0, float(d["maxParticles"]) - alive)
        nb = min(burst, room)
        ns = min(streamed, room - nb)
        lx, ly = self.last if self.last is not None else (m[4], m[5])
        i = 0
        while i < nb:
            self.spawn(m, 0.0, m[4], m[5])
            i += 1
        i = 0
        while i < ns:
            k = (i + 1) / ns
            self.spawn(m, (1 - k) * h, lx + (m[4] - lx) * k, ly + (m[5] - ly) * k)
            i += 1
        self.last = (m[4], m[5])

    def spawn(self, m, pre_age: float, ox: float, oy: float):
        d = self.data
        rng = self.rng
        rot = float(d["rotation"]) * DEG
        half = float(d["angle"]) / 2 * DEG
        f = s = 0.0
        direction = rot + rng.between(-half, half)
        shape = d["shape"]
        if shape == "circle":
            a = rng.next() * 2 * math.pi
            r = math.sqrt(rng.next()) * float(d["radius"])
            f = math.cos(a) * r
            s = math.sin(a) * r
            direction = rot + a
        elif shape == "box":
            w, hh = float(d["width"]), float(d["height"])
            s = rng.between(-w / 2, w / 2)
            f = rng.between(-hh / 2, hh / 2)
        elif shape == "cone":
            radius = float(d["radius"])
            s = rng.between(-radius, radius)
            if radius > 0:
                direction = rot + (s / radius) * half
        x = float(d["x"]) + f * math.cos(rot) - s * math.sin(rot)
        y = float(d["y"]) + f * math.sin(rot) + s * math.cos(rot)
        speed = rng.range(d["speed"])
        vx, vy = math.cos(direction) * speed, math.sin(direction) * speed
        if d["space"] != "local":
            a, b, c, dd = m[0], m[1], m[2], m[3]
            x, y = a * x + b * y + ox, c * x + dd * y + oy
            wx, wy = a * vx + b * vy, c * vx + dd * vy
            length = math.hypot(wx, wy)
            if length <= 1e-9:
                vx = vy = 0.0
            else:
                vx, vy = wx / length * abs(speed), wy / length * abs(speed)
        life = max(1e-3, rng.range(d["lifetime"]))
        size0 = rng.range(d["startSize"])
        size1 = rng.range(d["endSize"])
        rot0 = rng.range(d["startRotation"])
        rot1 = rng.range(d["endRotation"])
        spin = rng.range(d["angularVelocity"])
        age = 0.0
        if pre_age > 0:
            age = pre_age
            vy -= float(d["gravity"]) * pre_age
            x += vx * pre_age
            y += vy * pre_age
        p = Particle()
        p.x, p.y, p.vx, p.vy = r32(x), r32(y), r32(vx), r32(vy)
        p.age, p.life = r32(age), r32(life)
        p.size0, p.size1, p.rot0, p.rot1, p.spin = r32(size0), r32(size1), r32(rot0), r32(rot1), r32(spin)
        if p.age < p.life:
            self.particles.append(p)

    # ---- geometry(frac, m, tint) ----
    def geometry(self, frac: float, m, tint):
        d = self.data
        local = d["space"] == "local"
        a, b, c, dd, mx, my = m
        scale = math.sqrt(abs(a * dd - b * c)) if local else 1.0
        verts: List[float] = []
        colors: List[float] = []
        count = 0
        for p in self.particles[:MAX_DRAWN]:
            age = min(p.age + frac, p.life)
            t = age / p.life
            px, py = p.x + p.vx * frac, p.y + p.vy * frac
            vx, vy = p.vx, p.vy
            if local:
                px, py = a * px + b * py + mx, c * px + dd * py + my
                vx, vy = a * vx + b * vy, c * vx + dd * vy
            size = max(0.0, p.size0 + (p.size1 - p.size0) * t) * scale
            col = gradient(d["stops"], t)
            alpha = col[3] * tint[3]
            if size <= 0 or alpha <= 0:
                continue
            turn = (p.rot0 + (p.rot1 - p.rot0) * t + p.spin * age) * DEG
            if d["look"] == "spark":
                sp = math.hypot(vx, vy)
                length = size / 2 + sp * float(d["stretch"]) / 2
                ang = math.atan2(vy, vx) if sp > 1e-6 else turn
                ux, uy = math.cos(ang) * length, math.sin(ang) * length
            else:
                ux, uy = math.cos(turn) * size / 2, math.sin(turn) * size / 2
            ulen = math.hypot(ux, uy) or 1.0
            qx, qy = -uy / ulen * size / 2, ux / ulen * size / 2
            verts += [px - ux + qx, py - uy + qy, px + ux + qx, py + uy + qy,
                      px + ux - qx, py + uy - qy, px - ux - qx, py - uy - qy]
            colors += [col[0] * tint[0], col[1] * tint[1], col[2] * tint[2], alpha] * 4
            count += 1
        return count, [r32(v) for v in verts], [r32(v) for v in colors]


# ---- the instance -------------------------------------------------------------

class ParticleInstance(base.Instance):
    """tests/oracles/base.py's instance plus the §8.8 particle clock and items.

    ``world_source(inst)`` (optional) replaces the bone matrices after each world update,
    for rigs the base oracle cannot pose (tests feed the runtime's bone matrices there:
    the particle system only reads them)."""

    def __init__(self, doc, skin=None, world_source: Optional[Callable] = None):
        self.emitters: Dict[int, Emitter] = {}
        self.pending_emits: Dict[int, float] = {}
        self.overrides: Dict[int, bool] = {}
        self.frac = 0.0
        self.particle_pending = 0.0
        self.particle_values: Dict[int, Dict[str, Any]] = {}
        self.world_source = world_source
        self._doc_json = base.load_document(doc)
        super().__init__(self._doc_json, skin)
        self.slot_index = {}
        for i, s in enumerate(self.slots):
            self.slot_index.setdefault(s.name, i)
        for i, s in enumerate(self.slots):
            self.slot_index.setdefault(s.id, i)

    def update_world_transform(self) -> None:
        super().update_world_transform()
        if self.world_source is not None:
            for b, w in zip(self.bones, self.world_source(self)):
                b.world = tuple(float(v) for v in w)

    # §8.1 getAttachment: the current skin, then the first skin
    def current_attachment(self, slot):
        name = slot.attachment
        if name is None:
            return None
        skins = []
        if self.skin is not None:
            skins.append(self.skin)
        if self.skins and (self.skin is None or self.skin is not self.skins[0]):
            skins.append(self.skins[0])
        for skin in skins:
            att = ((skin.get("attachments") or {}).get(slot.id) or {}).get(name)
            if att is not None:
                return (id(skin), slot.id, name), att
        return None

    def particles_attachment(self, slot):
        found = self.current_attachment(slot)
        if found is None or found[1].get("type", "region") != "particles":
            return None
        return found

    # A single looping track (mix 0) of linear/stepped keys: enough to move bones and key
    # particle emitting/rate (§5, §5.1, §6 with one entry and no mixing).
    track = None
    track_time = 0.0

    def set_animation(self, name: str, loop: bool) -> None:
        for a in self._doc_json.get("animations") or []:
            if a.get("name") == name or a.get("id") == name:
                self.track = (a, bool(loop))
                self.track_time = 0.0
                return
        raise base.Unsupported("unknown animation %r" % name)

    def apply_track(self) -> None:
        self.particle_values = {}
        if self.track is None:
            return
        anim, loop = self.track
        t = local_time(anim, self.track_time, loop)
        for tl in anim.get("timelines") or []:
            keys = tl.get("keys") or []
            if not keys:
                continue
            target, prop = tl.get("target"), tl.get("property")
            value = sample_step(keys, t) if prop == "emitting" else sample_number(keys, t)
            if target == "bone":
                bone = next((b for b in self.bones if b.id == tl.get("id")), None)
                if bone is None or prop not in ("x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY"):
                    raise base.Unsupported("particle oracle: bone timeline %r" % prop)
                bone.local[prop] = value
            elif target == "particles":
                si = next((i for i, sl in enumerate(self.slots) if sl.id == tl.get("id")), None)
                if si is None:
                    continue
                vals = self.particle_values.setdefault(si, {"emitting": None, "rate": None})
                if prop == "emitting":
                    vals["emitting"] = bool(value)  # sampleStep
                elif prop == "rate":
                    vals["rate"] = value  # alpha 1: lerp(cur, v, 1) = v
            else:
                raise base.Unsupported("particle oracle: timeline target %r" % target)

    def advance(self, dt: float) -> None:
        if self.track is not None:
            self.track_time += dt  # AnimationState.update: e.time += dt·speed
        self.set_to_setup_pose()  # particle values cleared; timelines and overrides below
        self.apply_track()
        if dt > 0:
            self.clock += dt
            self.particle_pending += dt
        self.update_world_transform()
        if self.particle_pending > 0:
            self.advance_particles(self.particle_pending)
        self.particle_pending = 0.0

    def advance_particles(self, dt: float) -> None:
        acc = self.frac + dt
        n = math.floor(acc / STEP + 1e-6)
        self.frac = min(max(acc - n * STEP, 0.0), STEP)
        for _ in range(min(n, MAX_STEPS)):
            for si, slot in enumerate(self.slots):
                if not slot.bone.active:
                    continue  # §3.3 frozen
                found = self.particles_attachment(slot)
                if found is None:
                    self.emitters.pop(si, None)
                    continue
                key, att = found
                e = self.emitters.get(si)
                if e is None or e.key != key:
                    seed = (to_int32_bits(float(settings(att)["seed"])) ^ fnv1a(slot.name)) & U32
                    e = Emitter(settings(att), key, seed)
                    self.emitters[si] = e
                e.pending += self.pending_emits.pop(si, 0.0)
                values = dict(self.particle_values.get(si) or {"emitting": None, "rate": None})
                if si in self.overrides:  # §9.1 step 10: emitter overrides
                    values["emitting"] = self.overrides[si]
                e.step(STEP, slot.bone.world, values)

    # FORMAT.md actions
    def emit_particles(self, name: str, count: float) -> None:
        si = self.slot_index[name]
        self.pending_emits[si] = self.pending_emits.get(si, 0.0) + float(count)

    def set_emitter(self, name: str, emitting: bool) -> None:
        si = self.slot_index[name]
        if si in self.overrides:
            prev = self.overrides[si]
        else:
            found = self.particles_attachment(self.slots[si])
            prev = bool(settings(found[1])["emitting"]) if found else False
        self.overrides[si] = bool(emitting)
        if emitting and not prev and si in self.emitters:
            self.emitters[si].restart()

    # §8.8 item
    def texture_and_uvs(self, d):
        unit = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
        atlas = self._doc_json.get("atlas") or {}
        pages = {p.get("id"): p for p in atlas.get("pages") or []}
        look = d["look"]
        if look == "image":
            img = d.get("image")
            images = [i for i in self._doc_json.get("images") or [] if i.get("id") == img]
            if not images:
                return False, None, None
            for r in atlas.get("regions") or []:
                if r.get("image") == img and r.get("page") in pages:
                    P = pages[r["page"]]
                    return True, P["id"], [v for u, v0 in zip(unit[0::2], unit[1::2])
                                           for v in atlas_uv(r, P, u, v0)]
            return True, img, unit
        if look == "square":
            w = atlas.get("white")
            if w and w.get("page") in pages:
                P = pages[w["page"]]
                cu = (w["x"] + w["width"] / 2) / P["width"]
                cv = (w["y"] + w["height"] / 2) / P["height"]
                return True, P["id"], [cu, cv] * 4
            return True, None, unit
        return True, DOT, unit

    def particle_items(self) -> List[Dict[str, Any]]:
        out = []
        for slot in self.draw_order:
            item = self.particle_item(slot)
            if item is not None:
                out.append(item)
        return out

    def particle_item(self, slot) -> Optional[Dict[str, Any]]:
        """§8.8 the slot's particles item (unrounded), None when it draws nothing."""
        si = self.slots.index(slot)
        if not slot.bone.active:
            return None
        found = self.particles_attachment(slot)
        e = self.emitters.get(si)
        if found is None or e is None or e.key != found[0]:
            return None
        d = e.data
        ok, tex, uvs = self.texture_and_uvs(d)
        if not ok:
            return None
        n, verts, colors = e.geometry(self.frac, slot.bone.world, slot.color)
        if n == 0:
            return None
        indices = []
        for q in range(n):
            indices += [4 * q + k for k in (0, 1, 2, 0, 2, 3)]
        return {"slot": slot.name, "attachment": found[0][2], "type": "particles",
                "blend": d["blend"], "texture": tex, "vertices": verts,
                "uvs": [r32(v) for v in uvs] * n, "indices": indices,
                "color": list(slot.color), "dark": None, "colors": colors,
                "clip": None, "text": None}

    def sample(self, step: int, time: float) -> Dict[str, Any]:
        # bones and slots as the base oracle writes them; draw = the particle items (the
        # fixture shows nothing else)
        s = {"step": step, "time": num_out(time), **self.skeleton_sample(), "draw": [], "events": [],
             "audio": [], "states": []}
        items = self.particle_items()
        for it in items:
            for k in ("vertices", "uvs", "colors", "color"):
                it[k] = [num_out(v) for v in it[k]]
        s["draw"] = items
        return s


# ---- FORMAT.md case running -----------------------------------------------------

def run_case(doc, case: Dict[str, Any]) -> Dict[str, Any]:
    for k in ("queue", "stateMachine", "bounds", "queries"):
        if case.get(k):
            raise base.Unsupported("particle oracle: case uses %s" % k)
    inst = ParticleInstance(doc)
    tracks = case.get("tracks") or []
    if len(tracks) > 1 or any(t.get("track", 0) != 0 for t in tracks):
        raise base.Unsupported("particle oracle: one track 0 only")
    for t in tracks:
        inst.set_animation(t["animation"], bool(t.get("loop", False)))

    def action(kind, arg):
        if kind == "setSkin":
            inst.set_skin(arg)
        elif kind == "setEmitter":
            inst.set_emitter(arg[0], arg[1])
        elif kind == "emitParticles":
            inst.emit_particles(arg[0], arg[1])
        else:
            raise base.Unsupported("particle oracle: action %s" % kind)
    return base.drive(inst, case, action=action)


def run_case_file(path):
    return common.run_case_file(path, run_case)


def dumps(samples: Dict[str, Any]) -> str:
    """Compact JSON, one sample per line (particle samples are large)."""
    lines = ["{", '  "document": %s,' % json.dumps(samples["document"]), '  "cases": [']
    for ci, case in enumerate(samples["cases"]):
        lines.append('    {"name": %s, "samples": [' % json.dumps(case["name"]))
        for si, s in enumerate(case["samples"]):
            sep = "," if si + 1 < len(case["samples"]) else ""
            lines.append("      " + json.dumps(s, separators=(",", ":"), ensure_ascii=False) + sep)
        lines.append("    ]}" + ("," if ci + 1 < len(samples["cases"]) else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


CASE_FILES = [os.path.join(REPO, "conformance", "cases", "particles.json")]


def main(argv=None) -> int:
    from .common import expected_main
    return expected_main(argv, lambda p: dumps(run_case_file(p)), CASE_FILES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
