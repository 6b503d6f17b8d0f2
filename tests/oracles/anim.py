#!/usr/bin/env python3
"""Independent pure-Python model of animation playback, for expected values.

Written from the specification text (shared/spec/openbone-runtime-spec.txt §4.3, §5,
§5.1, §5.1a, §5.2, §6, §10, §12 and shared/conformance/FORMAT.md), not from csrc/.
It reuses only the setup-pose helpers of tests/oracles/base.py (§4.1/§4.2 boneWorld, §4.5
parseHex, FORMAT.md rounding).  Each rule is written the way the spec words it, in
plain dictionaries keyed by ids, without the C code's indices, interning or buffers.

Covered: curves (§4.3), locate/sampleStep/sampleArray (§5), every §5.1 row, the
§5.1a mix-out, §5.1 localTime, §5.2 eventsBetween / audioKeysBetween, the §6
AnimationState (tracks, queue, update, apply), the §10 AudioDirector, FORMAT.md case
running for documents whose constraints do not move bones (the model keeps their live
values but never solves them) and that draw nothing (draw is written as []).

    python tests/oracles anim            # rewrites conformance/expected/animation.json
    python tests/oracles anim --check    # exit 1 if it would change
"""
from __future__ import annotations

import math
import os
import sys
from typing import Any, Dict, List, Optional

from .base import bone_world
from . import common
from .common import (IDENTITY, REPO, animation_duration, find_animation, js_or, lerp, local_time,  # noqa: F401
                     num_out, parse_hex, sample_array, sample_color, sample_number, sample_step,
                     skin_attachment, wrap_deg)

BONE_PROPS = ("x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY")
BONE_DEFAULTS = {"x": 0.0, "y": 0.0, "rotation": 0.0, "scaleX": 1.0, "scaleY": 1.0, "shearX": 0.0, "shearY": 0.0}


# §5.1a: what blends (the rest switches)
NON_BLENDING = {("bone", "inherit"), ("slot", "attachment"), ("ik", "bend"), ("ik", "stretch"),
                ("ik", "compress"), ("particles", "emitting"), ("sequence", "frame"), ("drawOrder", "order")}


def blends(tl) -> bool:
    return (tl["target"], tl["property"]) not in NON_BLENDING


def keys_same(anim, tl) -> bool:
    for o in anim.get("timelines") or []:
        if (o.get("keys") and o["target"] == tl["target"] and o.get("id") == tl.get("id")
                and o["property"] == tl["property"] and o.get("attachment") == tl.get("attachment")):
            return True
    return False


# ---------------------------------------------------------------------------
# §10 AudioDirector
# ---------------------------------------------------------------------------

class Audio:
    def __init__(self, doc):
        self.doc = doc
        a = doc.get("audio") or {}
        self.sounds = a.get("sounds") or []
        self.assets = a.get("assets") or []
        self.buses = a.get("buses") or []
        self.now = 0.0
        self.n = 0
        self.playing: List[Dict[str, Any]] = []  # {id, sound, loop, end, fadeOut, owner, tag}
        self.commands: List[Dict[str, Any]] = []

    def resolve(self, ref):
        for s in self.sounds:
            if s.get("id") == ref:
                return s
        for s in self.sounds:
            if s.get("name") == ref:
                return s
        asset = None
        for x in self.assets:
            if x.get("id") == ref:
                asset = x
                break
        if asset is None:
            for x in self.assets:
                if x.get("name") == ref:
                    asset = x
                    break
        if asset is None:
            return None
        sfx = next((b for b in self.buses if b.get("name") == "sfx"), None)
        return {"id": asset["id"], "asset": asset["id"], "bus": sfx["id"] if sfx else None, "volume": 1,
                "rate": 1, "loop": False, "fadeIn": 0, "fadeOut": 0, "_direct": True}

    def asset_duration(self, snd):
        for x in self.assets:
            if x.get("id") == snd.get("asset"):
                return x.get("duration") or 0
        return 0

    def update(self, dt):
        self.now += dt
        self.playing = [p for p in self.playing if not p["end"] <= self.now]

    def play(self, ref, volume=None, rate=None, loop=None, owner=None, tag=None, source=None):
        snd = self.resolve(ref)
        if snd is None:
            return None
        lp = loop if loop is not None else bool(snd.get("loop", False))
        if lp and tag is not None:
            for p in self.playing:
                if p["owner"] is owner and p["tag"] == tag and p["loop"]:
                    return None
        vol = snd.get("volume", 1) * (volume if volume is not None else 1)
        rt = rate if rate is not None else snd.get("rate", 1)
        self.n += 1
        pid = "play_%d" % self.n
        dur = self.asset_duration(snd)
        end = math.inf if lp else self.now + (dur / rt if dur > 0 else 10)
        self.playing.append({"id": pid, "sound": snd, "loop": lp, "end": end, "owner": owner, "tag": tag})
        self.commands.append({"type": "play", "id": pid, "sound": snd["id"], "asset": snd.get("asset"),
                              "bus": snd.get("bus"), "volume": vol, "rate": rt, "loop": lp,
                              "fadeIn": snd.get("fadeIn", 0), "source": source})
        return pid

    def _stop(self, p, fade):
        self.playing.remove(p)
        self.commands.append({"type": "stop", "id": p["id"], "fade": fade})

    def stop_owner(self, owner, fade=0):
        for p in list(self.playing):
            if p["owner"] is owner and p["loop"]:
                self._stop(p, max(fade, p["sound"].get("fadeOut", 0)))


# ---------------------------------------------------------------------------
# The skeleton state the timelines write (§3.1, §5.1)
# ---------------------------------------------------------------------------

class Skeleton:
    def __init__(self, doc):
        self.doc = doc
        sk = doc["skeleton"]
        self.bones = []
        by_id = {}
        for bd in sk.get("bones") or []:
            b = {"id": bd["id"], "name": bd.get("name", bd["id"]), "data": bd,
                 "parent": by_id.get(bd.get("parent")), "world": IDENTITY}
            self.bones.append(b)
            by_id.setdefault(bd["id"], b)
        self.bone_by_id = by_id
        self.slots = [s for s in (sk.get("slots") or []) if s.get("bone") in by_id]
        self.slot_by_id = {}
        for s in self.slots:
            self.slot_by_id.setdefault(s["id"], s)
        self.skins = sk.get("skins") or []
        self.skin = None
        self.constraints = {}
        for kind in ("ik", "transform", "path", "physics"):
            for c in sk.get(kind) or []:
                self.constraints.setdefault((kind, c["id"]), c)
        self.animation_time = None
        self.set_to_setup_pose()
        self.update_world_transform()

    def set_to_setup_pose(self):
        for b in self.bones:
            b["local"] = {k: float(b["data"].get(k, v)) for k, v in BONE_DEFAULTS.items()}
            b["inherit"] = b["data"].get("inherit", "normal")
        self.color = {}
        self.dark = {}
        self.attachment = {}
        for s in self.slots:
            self.color[s["id"]] = parse_hex(s["color"]) if isinstance(s.get("color"), str) else [1.0] * 4
            self.dark[s["id"]] = parse_hex(s["dark"]) if isinstance(s.get("dark"), str) else None
            self.attachment[s["id"]] = s.get("attachment")
        self.deform: Dict[Any, List[float]] = {}
        self.sequence_frames: Dict[Any, float] = {}
        self.draw_order = list(self.slots)
        self.animation_time = None
        self.values = {}
        for (kind, cid), c in self.constraints.items():
            if kind == "ik":
                v = {"mix": c.get("mix", 0), "softness": c.get("softness", 0),
                     "bend": 1 if c.get("bendPositive") else -1,
                     "stretch": 1 if c.get("stretch") else 0, "compress": 1 if c.get("compress") else 0}
            elif kind == "transform":
                v = {"mix": 1, **{p: c.get(p, 0) for p in ("mixRotate", "mixTranslate", "mixScale", "mixShear")}}
            elif kind == "path":
                v = {p: c.get(p, 0) for p in ("position", "spacing", "mixRotate", "mixX", "mixY")}
            else:
                v = {p: c.get(p, 0) for p in ("inertia", "strength", "damping", "mass", "gravity", "wind", "mix")}
            self.values[(kind, cid)] = v
        self.particle_values: Dict[str, Dict[str, Any]] = {}

    def update_world_transform(self):
        for b in self.bones:
            if b["parent"] is None:
                b["world"] = bone_world(IDENTITY, b["local"], "normal")
            else:
                b["world"] = bone_world(b["parent"]["world"], b["local"], b["inherit"])

    def get_attachment(self, slot_id, name):
        return skin_attachment(self.skins, self.skin, slot_id, name)

    # ---- §5 applyAnimation --------------------------------------------------
    def target_exists(self, tl):
        t = tl["target"]
        if t == "bone":
            return tl.get("id") in self.bone_by_id
        if t in ("slot", "sequence", "particles", "deform"):
            return tl.get("id") in self.slot_by_id
        if t in ("ik", "transform", "path", "physics"):
            return (t, tl.get("id")) in self.constraints
        return t == "drawOrder"

    def apply_animation(self, anim, time, alpha, mix_out=None):
        if alpha <= 0:
            return
        if alpha >= 0.5 or self.animation_time is None:
            self.animation_time = time
        for tl in anim.get("timelines") or []:
            keys = tl.get("keys") or []
            if not keys or not self.target_exists(tl):
                continue
            a = alpha
            if mix_out is not None and blends(tl) and not any(keys_same(o, tl) for o in mix_out["into"]):
                a = mix_out["alpha"]
            if a <= 0:
                continue
            self.apply_timeline(tl, keys, time, a)

    def apply_timeline(self, tl, keys, time, alpha):
        t, p, tid = tl["target"], tl["property"], tl.get("id")
        if t == "bone":
            b = self.bone_by_id[tid]
            if p == "inherit":
                if alpha >= 0.5:
                    b["inherit"] = sample_step(keys, time)
                return
            v = sample_number(keys, time)
            cur = b["local"][p]
            if alpha >= 1:
                b["local"][p] = v
            elif p == "rotation":
                b["local"][p] = cur + wrap_deg(v - cur) * alpha  # lerpAngle
            else:
                b["local"][p] = lerp(cur, v, alpha)
        elif t == "slot":
            if p == "attachment":
                if alpha >= 0.5:
                    self.attachment[tid] = sample_step(keys, time)
                return
            v = sample_color(keys, time)
            if p == "color":
                cur = self.color[tid]
                self.color[tid] = v if alpha >= 1 else [lerp(cur[i], v[i], alpha) for i in range(4)]
            else:
                cur = self.dark[tid] or [0.0, 0.0, 0.0, 1.0]
                self.dark[tid] = v if alpha >= 1 else [lerp(cur[i], v[i], alpha) for i in range(4)]
        elif t in ("ik", "transform", "path", "physics"):
            vals = self.values[(t, tid)]
            if t == "ik" and p in ("bend", "stretch", "compress"):
                if alpha >= 0.5:
                    v = sample_step(keys, time)
                    vals[p] = (1 if v else 0) if isinstance(v, bool) else v
                return
            vals[p] = lerp(js_or(vals.get(p), 0), sample_number(keys, time), alpha)
        elif t == "particles":
            pv = self.particle_values.setdefault(tid, {})
            if p == "emitting":
                if alpha >= 0.5:
                    pv["emitting"] = bool(sample_step(keys, time))
                return
            att = self.get_attachment(tid, self.attachment[tid])
            att_rate = att.get("rate", 20) if att and att.get("type") == "particles" else 0
            pv["rate"] = lerp(js_or(pv.get("rate"), att_rate), sample_number(keys, time), alpha)
        elif t == "deform":
            v = sample_array(keys, time)
            key = (tid, tl.get("attachment"))
            cur = self.deform.get(key)
            if cur is not None and alpha < 1:
                self.deform[key] = [lerp(js_or(cur[i] if i < len(cur) else 0, 0), v[i], alpha)
                                    for i in range(len(v))]
            elif cur is None and alpha < 1:
                self.deform[key] = [x * alpha for x in v]
            else:
                self.deform[key] = list(v)
        elif t == "sequence":
            if alpha >= 0.5:
                self.sequence_frames[(tid, tl.get("attachment"))] = sample_number(keys, time)
        elif t == "drawOrder":
            if alpha >= 0.5:
                listed_ids = sample_step(keys, time) or []
                listed = []
                for sid in listed_ids:
                    s = self.slot_by_id.get(sid)
                    if s is not None and s not in listed:
                        listed.append(s)
                order = []
                it = iter(listed)
                for s in self.slots:  # setup index i keeps slot i unless slot i is listed
                    order.append(next(it) if s in listed else s)
                self.draw_order = order


# ---------------------------------------------------------------------------
# §6 AnimationState
# ---------------------------------------------------------------------------

class Entry:
    def __init__(self, anim, loop, delay=0.0, mix=0.2):
        self.anim = anim
        self.loop = loop
        self.time = 0.0
        self.prev_time = -1e-6
        self.speed = 1.0
        self.alpha = 1.0
        self.mixing_from = None
        self.mix_time = 0.0
        self.mix_duration = 0.0
        self.completed_loops = 0
        self.delay = delay
        self.mix = mix


def crossed(keys, d, prev, nxt, loop, exists=lambda k: True):
    """§5.2: the keys fired for (prev, next], key-array order, cycles ascending."""
    out = []
    if nxt <= prev:
        return out
    for i, k in enumerate(keys):
        if not exists(k):
            continue
        if not loop or d <= 0:
            if prev < k["time"] <= nxt:
                out.append(i)
        else:
            c = math.floor(prev / d)
            while c <= math.floor(nxt / d):
                if prev < c * d + k["time"] <= nxt:
                    out.append(i)
                c += 1
    return out


class AnimationState:
    def __init__(self, doc, sk: Skeleton):
        self.doc = doc
        self.sk = sk
        self.tracks: Dict[int, Optional[Entry]] = {}
        self.queues: Dict[int, List[Entry]] = {}
        self.audio = Audio(doc)
        self.events: List[Dict[str, Any]] = []
        self.event_by_id = {}
        for e in doc.get("events") or []:
            self.event_by_id.setdefault(e["id"], e)

    def set_animation(self, track, anim, loop, mix=0.2):
        cur = self.tracks.get(track)
        e = Entry(anim, loop)
        if cur is not None:
            self.audio.stop_owner(cur, mix)
            if mix > 0:
                e.mixing_from = cur
                cur.mixing_from = None
                e.mix_duration = mix
        self.tracks[track] = e
        self.queues[track] = []

    def add_animation(self, track, anim, loop, delay=0.0, mix=0.2):
        if self.tracks.get(track) is None:
            self.tracks[track] = Entry(anim, loop, delay, mix)
            return
        self.queues.setdefault(track, []).append(Entry(anim, loop, delay, mix))

    def update(self, dt):
        self.audio.update(dt)
        for ti in sorted(self.tracks):
            e = self.tracks[ti]
            if e is None:
                continue
            e.prev_time = e.time if e.time > 0 else min(e.prev_time, e.time)
            e.time += dt * e.speed
            if e.mixing_from is not None:
                f = e.mixing_from
                f.prev_time = f.time
                f.time += dt * f.speed
                e.mix_time += dt
                if e.mix_time >= e.mix_duration:
                    e.mixing_from = None
            anim = e.anim
            d = animation_duration(anim)
            if dt > 0:
                akeys = anim.get("audio") or []
                for i in crossed(akeys, d, e.prev_time, e.time, e.loop):
                    k = akeys[i]
                    self.audio.play(k["sound"], volume=k.get("volume"), rate=k.get("rate"), loop=k.get("loop"),
                                    owner=e, tag="%s#%d" % (anim["id"], i), source="key:" + anim.get("name", anim["id"]))
                ekeys = anim.get("events") or []
                for i in crossed(ekeys, d, e.prev_time, e.time, e.loop,
                                 lambda k: k.get("event") in self.event_by_id):
                    k = ekeys[i]
                    ev = self.event_by_id[k["event"]]
                    if ev.get("audio"):
                        self.audio.play(ev["audio"], volume=ev.get("volume"), owner=e,
                                        source="event:" + ev.get("name", ev["id"]))
                    self.events.append({"name": ev.get("name", ev["id"]), "time": k["time"],
                                        "int": k["int"] if "int" in k else ev.get("int", 0),
                                        "float": k["float"] if "float" in k else ev.get("float", 0),
                                        "string": k["string"] if "string" in k else ev.get("string", "")})
            if d > 0:
                loops = math.floor(e.time / d)
                if (loops > e.completed_loops) if e.loop else (e.prev_time < d <= e.time):
                    e.completed_loops = loops
                    if not e.loop:
                        self.audio.stop_owner(e, 0)
            q = self.queues.get(ti) or []
            if q:
                n = q[0]
                due = (e.time >= n.delay) if n.delay > 0 else ((not e.loop and e.time >= d)
                                                               or (e.loop and d > 0 and e.time >= d))
                if due:
                    self.audio.stop_owner(e, n.mix)
                    q.pop(0)
                    n.mixing_from = e
                    e.mixing_from = None
                    n.mix_duration = n.mix
                    self.tracks[ti] = n

    def apply(self):
        for ti in sorted(self.tracks):
            e = self.tracks[ti]
            if e is None:
                continue
            if e.mixing_from is not None:
                f = e.mixing_from
                mix = min(1.0, e.mix_time / js_or(e.mix_duration, 1))
                self.sk.apply_animation(f.anim, local_time(f.anim, f.time, f.loop), e.alpha,
                                        {"into": [e.anim], "alpha": e.alpha * (1 - mix)})
                self.sk.apply_animation(e.anim, local_time(e.anim, e.time, e.loop), e.alpha * mix)
            else:
                self.sk.apply_animation(e.anim, local_time(e.anim, e.time, e.loop), e.alpha)


# ---------------------------------------------------------------------------
# FORMAT.md runner
# ---------------------------------------------------------------------------

class Player:
    def __init__(self, doc):
        self.doc = doc
        self.sk = Skeleton(doc)
        self.state = AnimationState(doc, self.sk)
        self.ids: Dict[str, str] = {}

    def advance(self, dt):
        """§3 pipeline; returns (events, audio commands) of this advance."""
        self.state.update(dt)
        self.sk.set_to_setup_pose()
        self.state.apply()
        self.sk.update_world_transform()
        ev, self.state.events = self.state.events, []
        cmds, self.state.audio.commands = self.state.audio.commands, []
        return ev, cmds

    def action(self, kind, arg):
        raise NotImplementedError(kind)

    def sample(self, step, time, ev, cmds):
        return {"step": step, "time": num_out(time), **skeleton_sample(self.sk), "draw": [],
                "events": events_sample(ev), "audio": audio_sample(cmds, self.ids), "states": []}


def skeleton_sample(sk: Skeleton) -> Dict[str, Any]:
    """FORMAT.md ``bones`` and ``slots`` of a posed Skeleton."""
    bones = []
    for b in sk.bones:
        a, bb, c, d, x, y = b["world"]
        bones.append({"name": b["name"], "x": num_out(x), "y": num_out(y), "a": num_out(a),
                      "b": num_out(bb), "c": num_out(c), "d": num_out(d)})
    slots = []
    for s in sk.draw_order:
        dk = sk.dark[s["id"]]
        slots.append({"name": s.get("name", s["id"]), "attachment": sk.attachment[s["id"]],
                      "color": [num_out(v) for v in sk.color[s["id"]]],
                      "dark": None if dk is None else [num_out(v) for v in dk]})
    return {"bones": bones, "slots": slots}


def events_sample(ev) -> List[Dict[str, Any]]:
    return [{"name": e["name"], "time": num_out(e["time"]), "int": num_out(e["int"]),
             "float": num_out(e["float"]), "string": e["string"]} for e in ev]


def audio_sample(cmds, ids: Dict[str, str]) -> List[Dict[str, Any]]:
    """Audio commands with play ids renumbered p1, p2, ... in order of appearance."""
    audio = []
    for c in cmds:
        c = dict(c)
        if "id" in c:
            if c["id"] not in ids:
                ids[c["id"]] = "p%d" % (len(ids) + 1)
            c["id"] = ids[c["id"]]
        for k in ("volume", "rate", "fadeIn", "fade", "duration"):
            if k in c:
                c[k] = num_out(c[k])
        audio.append(c)
    return audio


def run_case(doc, case, player=None):
    """FORMAT.md case running: tracks, queue, steps with setAnimation / addAnimation actions.
    ``player`` (default a Player of this module) may be any object with ``state`` (an
    AnimationState), ``advance(dt)`` → (events, audio commands), ``sample(step, time, ev,
    cmds)`` and ``action(kind, arg)`` for the other actions (oracles.full passes its own)."""
    p = player if player is not None else Player(doc)
    for t in case.get("tracks") or []:
        p.state.set_animation(t.get("track", 0), find_animation(doc, t["animation"]), bool(t.get("loop", False)), 0)
    for q in case.get("queue") or []:
        p.state.add_animation(q.get("track", 0), find_animation(doc, q["animation"]), bool(q.get("loop", False)),
                              q.get("delay", 0), q.get("mix", 0.2))
    samples = []
    step, time = 0, 0.0
    for g in case.get("steps") or []:
        for action in g.get("actions") or []:
            (kind, a), = action.items()
            if kind == "setAnimation":
                p.state.set_animation(a.get("track", 0), find_animation(doc, a["animation"]),
                                      bool(a.get("loop", False)), a.get("mix", 0.2))
            elif kind == "addAnimation":
                p.state.add_animation(a.get("track", 0), find_animation(doc, a["animation"]),
                                      bool(a.get("loop", False)), a.get("delay", 0), a.get("mix", 0.2))
            else:
                p.action(kind, a)
        dt = float(g["dt"])
        for _ in range(int(g.get("repeat", 1))):
            ev, cmds = p.advance(dt)
            time += dt  # §12: summed exactly as given
            step += 1
            samples.append(p.sample(step, time, ev, cmds))
    return {"name": case["name"], "samples": samples}


def run_case_file(path):
    return common.run_case_file(path, run_case)


CASES = os.path.join(REPO, "conformance", "cases", "animation.json")
EXPECTED = os.path.join(REPO, "conformance", "expected", "animation.json")


dumps = common.dumps_indented


def main(argv=None):
    from .common import expected_main
    return expected_main(argv, lambda p: dumps(run_case_file(p)), [CASES], __doc__)


if __name__ == "__main__":
    sys.exit(main())
