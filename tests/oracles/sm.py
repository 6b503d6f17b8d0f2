#!/usr/bin/env python3
"""Independent pure-Python model of §9 state machines, for expected values.

Written from the specification text (shared/spec/openbone-runtime-spec.txt §9.1-§9.6,
§10, shared/spec/CLARIFICATIONS.md "State machines", shared/conformance/FORMAT.md), not
from csrc/.  Timelines, localTime, eventsBetween and the AudioDirector come from
tests/oracles/anim.py (the animation engineer's independent model of §5, §10); the
skeleton posing from tests/oracles/base.py.  Everything here works on the document dicts
keyed by ids, the way the spec words the rules.

Covered: inputs (setInput coercions, fire), §9.1 advance order (no scripts), §9.2
enter (exit states, cross-fade bookkeeping, sound hooks, inputs on enter), §9.3
settle/evaluate/canTake/conditions/progress/onComplete, §9.4 animation and blend1d
states with mix-out and collectEvents, §9.5 pointer events and listeners (hit test on
the current boundingBox, unweighted, or the first boundingBox of the slot, every
listener event, the actions setInput/toggleInput/fireTrigger/reportEvent/playSound/
stopSound/setMute), §9.6 bindings on bones and slots.  Not covered (raises): scripts,
constraints that move bones, drawn attachments.

    python tests/oracles sm            # rewrites conformance/expected/state-machine.json
    python tests/oracles sm --check    # exit 1 if it would change
"""
from __future__ import annotations

import math
import os
import sys
from typing import Any, Dict, List, Optional

from .anim import Audio, Skeleton, audio_sample, crossed, events_sample, skeleton_sample
from . import common
from .common import REPO, animation_duration, f32, local_time, num_out, pairs, parse_hex, point_in_polygon

CASES = os.path.join(REPO, "conformance", "cases", "state-machine.json")
EXPECTED = os.path.join(REPO, "conformance", "expected", "state-machine.json")


class Undefined:
    def __repr__(self):
        return "undefined"


UNDEF = Undefined()


# ---- JS scalar semantics -------------------------------------------------------

def js_string(v) -> str:
    if v is UNDEF:
        return "undefined"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if v == int(v) and abs(v) < 1e21:
            return str(int(v))
        return repr(float(v))
    return str(v)


def js_number(v) -> float:
    if v is UNDEF:
        return math.nan
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    s = v.strip()
    if s == "":
        return 0.0
    try:
        if s.lower() in ("inf", "+inf", "-inf", "nan", "infinity", "+infinity", "-infinity") and \
                s not in ("Infinity", "+Infinity", "-Infinity"):
            return math.nan
        return float(s)
    except ValueError:
        return math.nan


def js_truthy(v) -> bool:
    if v is UNDEF or v is None:
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v != 0 and not math.isnan(v)
    return len(v) > 0


def strict_equal(v, w) -> bool:
    if isinstance(v, bool) or isinstance(w, bool):
        return isinstance(v, bool) and isinstance(w, bool) and v == w
    if isinstance(v, (int, float)) and isinstance(w, (int, float)):
        return v == w
    if isinstance(v, str) and isinstance(w, str):
        return v == w
    return v is w


# ---- audio: the §10 director of anim_oracle plus stopSound and mix ----------------

class SMAudio(Audio):
    def stop_sound(self, ref, fade=None):
        snd = self.resolve(ref)
        if snd is None:
            return
        for p in list(self.playing):
            if p["sound"].get("id") == snd.get("id"):
                self._stop(p, fade if fade is not None else p["sound"].get("fadeOut", 0))

    def mix(self, bus, muted):
        self.commands.append({"type": "mix", "bus": bus, "muted": muted})


# ---- the machine -------------------------------------------------------------------

class StateInst:
    def __init__(self, state):
        self.state = state
        self.time = 0.0
        self.prev_time = -1e-6


class Layer:
    def __init__(self, data):
        self.data = data
        self.states = {}
        for s in data.get("states") or []:
            self.states.setdefault(s["id"], s)
        self.current: Optional[StateInst] = None
        self.frm: Optional[StateInst] = None
        self.mix_time = 0.0
        self.mix_duration = 0.0
        self.exited = False


class Machine:
    def __init__(self, doc, ref):
        self.doc = doc
        machines = doc.get("stateMachines") or []
        m = next((x for x in machines if x.get("name") == ref), None) or \
            next((x for x in machines if x.get("id") == ref), None)
        if m is None:
            raise KeyError(ref)
        if m.get("scripts") or any(s.get("scripts") for ly in m.get("layers") or [] for s in ly.get("states") or []):
            raise NotImplementedError("scripts")
        self.m = m
        self.sk = Skeleton(doc)
        self.audio = SMAudio(doc)
        self.inputs_data = m.get("inputs") or []
        # §9: inputs start at their defaults (triggers false)
        self.values: Dict[str, Any] = {}
        for i in self.inputs_data:
            self.values.setdefault(i["id"], False if i["type"] == "trigger" else i.get("default", UNDEF))
        self.fired = set()
        self.layers = [Layer(ly) for ly in m.get("layers") or []]
        self.started = False
        self.elapsed = 0.0
        self.pending: List[Dict[str, Any]] = []
        self.pointers: List[Any] = []
        self.hovered = set()
        self.pressed = set()
        self.bus_muted = {b["id"]: bool(b.get("muted", False)) for b in (doc.get("audio") or {}).get("buses") or []}
        self.master_muted = bool((doc.get("audio") or {}).get("muted", False))
        self.events_by_id = {}
        for e in doc.get("events") or []:
            self.events_by_id.setdefault(e["id"], e)
        self.anims = {}
        for a in doc.get("animations") or []:
            self.anims.setdefault(a["id"], a)

    # ---- inputs (§9.5) ----
    def input_data(self, ref):
        for i in self.inputs_data:
            if i["id"] == ref or i.get("name") == ref:
                return i
        return None

    def set_input(self, ref, value):
        i = self.input_data(ref)
        if i is None:
            return
        t = i["type"]
        if t == "trigger":
            self.fired.add(i["id"])
            return
        if t == "string":
            nv = js_string(value)
        elif t == "bool":
            nv = value == "true" if isinstance(value, str) else js_truthy(value)
        else:
            nv = js_number(value)
            if not math.isfinite(nv):
                return
        self.values[i["id"]] = nv

    def fire(self, ref):
        i = self.input_data(ref)
        if i is not None and i["type"] == "trigger":
            self.fired.add(i["id"])

    def input_value(self, iid):
        i = next((x for x in self.inputs_data if x["id"] == iid), None)
        if i is None:
            return UNDEF
        return self.values[iid]

    # ---- §9.3 ----
    def condition_passes(self, c) -> bool:
        i = next((x for x in self.inputs_data if x["id"] == c.get("input")), None)
        if i is None:
            return False
        if i["type"] == "trigger":
            return i["id"] in self.fired
        v = self.values[i["id"]]
        w = c.get("value", UNDEF)
        op = c.get("op")
        if i["type"] == "string" and op in ("==", "!="):
            eq = js_string(v) == js_string(w)
            return eq if op == "==" else not eq
        if op == "==":
            if strict_equal(v, w):
                return True
            num = (int, float)
            return (isinstance(v, num) and not isinstance(v, bool) and isinstance(w, num)
                    and not isinstance(w, bool) and abs(v - w) <= 1e-9)
        if op == "!=":
            return not strict_equal(v, w)
        a, b = js_number(v), js_number(w)
        return {">": a > b, "<": a < b, ">=": a >= b, "<=": a <= b}.get(op, False)

    def blend_pair(self, st):
        entries = sorted(st.get("entries") or [], key=lambda e: e["value"])  # stable
        if not entries:
            return None, None, 0.0
        iv = self.input_value(st.get("input")) if st.get("input") is not None else UNDEF
        v = js_number(0 if iv is UNDEF or iv is None else iv)  # Number(input ?? 0)
        if v >= entries[-1]["value"]:
            return entries[-1], entries[-1], 0.0
        for i in range(len(entries) - 1):
            lo, hi = entries[i], entries[i + 1]
            if lo["value"] <= v <= hi["value"]:
                d = hi["value"] - lo["value"]
                return lo, hi, (v - lo["value"]) / (d if d else 1)
        return entries[0], entries[0], 0.0

    def progress(self, s: StateInst) -> float:
        st = s.state
        if st.get("type") == "exit":
            return 1.0
        anim = None
        if st.get("type", "animation") == "blend1d":
            lo, hi, t = self.blend_pair(st)
            e = hi if t >= 0.5 else lo
            anim = self.anims.get(e["animation"]) if e else None
        else:
            anim = self.anims.get(st.get("animation"))
        d = animation_duration(anim) if anim else 0
        return s.time / d if d > 0 else 1.0

    def can_take(self, t, s: Optional[StateInst]) -> bool:
        conds = t.get("conditions") or []
        sid = s.state["id"] if s else None
        if t["from"] != "@any" and s and t["to"] == sid and not conds:
            return False
        if t["from"] == "@any" and s and t["to"] == sid:
            return False
        exit_time = t.get("exitTime")
        if exit_time is None:
            exit_time = 1 if not conds else None
        if exit_time is not None and s and self.progress(s) < exit_time:
            return False
        return all(self.condition_passes(c) for c in conds)

    def evaluate(self, ly: Layer):
        if ly.exited:
            return None
        cur = ly.current
        trans = ly.data.get("transitions") or []
        cands = [t for t in trans if cur is not None and t["from"] == cur.state["id"]] + \
                [t for t in trans if t["from"] == "@any"]
        for t in cands:
            if not self.can_take(t, cur):
                continue
            if t["to"] not in ly.states:
                continue
            self.enter(ly, ly.states[t["to"]], t.get("duration", 0))
            return t
        if cur is not None and cur.state.get("onComplete") in ly.states and self.progress(cur) >= 1:
            self.enter(ly, ly.states[cur.state["onComplete"]], 0.1)
        return None

    def settle(self, ly: Layer):
        for _ in range(4):
            t = self.evaluate(ly)
            if t is None:
                return
            for c in t.get("conditions") or []:
                self.fired.discard(c.get("input"))

    # ---- §9.2 ----
    def sounds(self, st, on, owner):
        for h in st.get("sounds") or []:
            if h.get("on", "enter") != on:
                continue
            if h.get("action", "play") == "stop":
                self.audio.stop_sound(h["sound"])
            else:
                self.audio.play(h["sound"], volume=h.get("volume"), owner=owner, tag="hook:" + h["sound"],
                                source="state:" + st.get("name", st["id"]))

    def enter(self, ly: Layer, st, mix):
        prev = ly.current
        if prev is not None:
            self.audio.stop_owner(prev, mix)
            self.sounds(prev.state, "exit", prev)
        if st.get("type") == "exit":
            ly.exited = True
            ly.frm = prev
            ly.current = None
            ly.mix_time = 0.0
            ly.mix_duration = mix
            return
        s = StateInst(st)
        ly.frm = prev if mix > 0 else None
        ly.current = s
        ly.mix_time = 0.0
        ly.mix_duration = mix
        ly.exited = False
        self.sounds(st, "enter", s)
        for e in st.get("emitters") or []:
            raise NotImplementedError("emitters")
        for a in st.get("inputs") or []:  # setInput, only for inputs that exist (a trigger fires)
            i = next((x for x in self.inputs_data if x["id"] == a.get("input")), None)
            if i is not None:
                self.set_input(i["id"], a.get("value"))

    # ---- §9.4 ----
    def animations(self, s: StateInst):
        st = s.state
        if st.get("type", "animation") == "animation":
            a = self.anims.get(st.get("animation"))
            return [a] if a else []
        if st.get("type") == "blend1d":
            lo, hi, _t = self.blend_pair(st)
            out = []
            for e in (lo, hi):
                if e is not None and e["animation"] in self.anims:
                    out.append(self.anims[e["animation"]])
            return out
        return []

    def apply_state(self, s: StateInst, alpha, into=None, out_alpha=0.0):
        st = s.state
        loop = st.get("loop", True)
        mo = {"into": into, "alpha": out_alpha} if into is not None else None
        if st.get("type", "animation") == "animation":
            a = self.anims.get(st.get("animation"))
            if a:
                self.sk.apply_animation(a, local_time(a, s.time, loop), alpha, mo)
        elif st.get("type") == "blend1d":
            lo, hi, t = self.blend_pair(st)
            if lo is None:
                return
            la = self.anims.get(lo["animation"])
            if la:
                self.sk.apply_animation(la, local_time(la, s.time, loop), alpha, mo)
            if hi["animation"] != lo["animation"] and t > 0:
                ha = self.anims.get(hi["animation"])
                if ha:
                    self.sk.apply_animation(ha, local_time(ha, s.time, loop), alpha * t,
                                            {"into": into, "alpha": out_alpha * t} if into is not None else None)

    def collect_events(self, s: StateInst):
        st = s.state
        loop = st.get("loop", True)
        if st.get("type") == "blend1d":
            lo, hi, t = self.blend_pair(st)
            e = hi if t >= 0.5 else lo
            anim = self.anims.get(e["animation"]) if e else None
        else:
            anim = self.anims.get(st.get("animation"))
        if not anim:
            return
        d = animation_duration(anim)
        akeys = anim.get("audio") or []
        for i in crossed(akeys, d, s.prev_time, s.time, loop):
            k = akeys[i]
            self.audio.play(k["sound"], volume=k.get("volume"), rate=k.get("rate"), loop=k.get("loop"), owner=s,
                            tag="%s#%d" % (anim["id"], i), source="key:" + anim.get("name", anim["id"]))
        ekeys = anim.get("events") or []
        for i in crossed(ekeys, d, s.prev_time, s.time, loop, lambda k: k.get("event") in self.events_by_id):
            k = ekeys[i]
            ev = self.events_by_id[k["event"]]
            if ev.get("audio"):
                self.audio.play(ev["audio"], volume=ev.get("volume"), owner=s, source="event:" + ev.get("name", ev["id"]))
            self.pending.append({"name": ev.get("name", ev["id"]), "time": k["time"],
                                 "int": k["int"] if "int" in k else ev.get("int", 0),
                                 "float": k["float"] if "float" in k else ev.get("float", 0),
                                 "string": k["string"] if "string" in k else ev.get("string", "")})

    # ---- §9.5 ----
    def slot_attachments(self, slot_id):
        """The default skin's names overlaid by the active skin's, in JS key order."""
        merged: Dict[str, Any] = {}
        for skin in self.sk.skins[:1] + ([self.sk.skin] if self.sk.skin else []):
            for name, att in ((skin.get("attachments") or {}).get(slot_id) or {}).items():
                merged[name] = att
        ints = sorted((k for k in merged if k.isdigit() and (k == "0" or k[0] != "0")), key=int)
        return [merged[k] for k in ints] + [merged[k] for k in merged if k not in ints]

    def hit(self, slot_id, x, y) -> bool:
        slot = self.sk.slot_by_id.get(slot_id)
        if slot is None:
            return False
        cur = self.sk.get_attachment(slot_id, self.sk.attachment[slot_id])
        poly = None
        if cur is not None and cur.get("type") == "boundingBox":
            poly = cur
        if poly is None:
            poly = next((a for a in self.slot_attachments(slot_id) if a.get("type") == "boundingBox"), None)
        if poly is None:
            if cur is not None:
                raise NotImplementedError("hit polygon of a %s" % cur.get("type"))
            return False
        if poly.get("weights"):
            raise NotImplementedError("weighted bounding box")
        a, b, c, d, wx, wy = self.sk.bone_by_id[slot["bone"]]["world"]
        vs = poly.get("vertices") or []
        world = []
        for k in range(0, len(vs) - 1, 2):
            world += [f32(a * vs[k] + b * vs[k + 1] + wx), f32(c * vs[k] + d * vs[k + 1] + wy)]
        return point_in_polygon(pairs(world), x, y)

    def run_actions(self, li):
        for a in li.get("actions") or []:
            t = a.get("type")
            if t == "setInput":
                self.set_input(a.get("input"), a.get("value"))
            elif t == "toggleInput":
                i = self.input_data(a.get("input"))
                if i is not None:
                    self.set_input(i["id"], not js_truthy(self.values[i["id"]]))
            elif t == "fireTrigger":
                self.fire(a.get("input"))
            elif t == "reportEvent":
                ev = self.events_by_id.get(a.get("event"))
                if ev is None:
                    continue
                if ev.get("audio"):
                    self.audio.play(ev["audio"], volume=ev.get("volume"), source="event:" + ev.get("name", ev["id"]))
                self.pending.append({"name": ev.get("name", ev["id"]), "time": self.elapsed,
                                     "int": ev.get("int", 0), "float": ev.get("float", 0),
                                     "string": ev.get("string", "")})
            elif t == "playSound":
                self.audio.play(a["sound"], volume=a.get("volume"), source="listener:" + li.get("name", li["id"]))
            elif t == "stopSound":
                self.audio.stop_sound(a["sound"], a.get("fade"))
            elif t == "setMute":
                bus = a.get("bus")
                cur = self.bus_muted.get(bus, False) if bus is not None else self.master_muted
                muted = (not cur) if a.get("muted") == "toggle" else bool(a.get("muted"))
                if bus is None:
                    self.master_muted = muted
                else:
                    self.bus_muted[bus] = muted
                self.audio.mix(bus, muted)
            else:
                raise NotImplementedError(t)

    def process_pointer(self):
        queue, self.pointers = self.pointers, []
        for typ, x, y in queue:
            for k, li in enumerate(self.m.get("listeners") or []):
                hit = True if li.get("slot") is None else self.hit(li["slot"], x, y)
                ev = li.get("event")
                fire = False
                if ev in ("down", "up", "move"):
                    fire = typ == ev and hit
                elif ev == "click":
                    if typ == "down" and hit:
                        self.pressed.add(k)
                    elif typ == "up":
                        fire = hit and k in self.pressed
                        self.pressed.discard(k)
                elif ev in ("enter", "exit"):
                    if hit and k not in self.hovered:
                        self.hovered.add(k)
                        fire = ev == "enter"
                    elif not hit and k in self.hovered:
                        self.hovered.discard(k)
                        fire = ev == "exit"
                if fire:
                    self.run_actions(li)

    # ---- §9.6 ----
    def apply_bindings(self):
        for b in self.m.get("bindings") or []:
            i = next((x for x in self.inputs_data if x["id"] == b.get("input")), None)
            if i is None or i["type"] == "string":
                continue
            v = js_number(self.values[i["id"]])
            if not math.isfinite(v):
                continue
            lo, hi = b.get("inMin", 0), b.get("inMax", 1)
            t = (1.0 if v >= hi else 0.0) if hi == lo else min(1.0, max(0.0, (v - lo) / (hi - lo)))
            obj, prop = b.get("object"), b.get("property")
            if obj == "bone":
                bone = self.sk.bone_by_id.get(b.get("target"))
                if bone is not None:
                    o0, o1 = b.get("outMin", 0), b.get("outMax", 1)
                    bone["local"][prop] = o0 + (o1 - o0) * t
            elif obj == "slot":
                if b.get("target") not in self.sk.color:
                    continue
                col = list(self.sk.color[b["target"]])
                if prop == "alpha":
                    o0, o1 = b.get("outMin", 0), b.get("outMax", 1)
                    col[3] = o0 + (o1 - o0) * t
                elif prop == "color":
                    c0, c1 = parse_hex(b["outMin"]), parse_hex(b["outMax"])
                    col = [c0[k] + (c1[k] - c0[k]) * t for k in range(4)]
                self.sk.color[b["target"]] = col
            else:
                raise NotImplementedError("constraint bindings")

    # ---- §9.1 ----
    def advance(self, dt):
        if not self.started:
            self.started = True
            for ly in self.layers:
                if ly.data.get("entry") in ly.states:
                    self.enter(ly, ly.states[ly.data["entry"]], 0)
        self.elapsed += dt
        self.audio.update(dt)
        self.process_pointer()
        for ly in self.layers:
            self.settle(ly)
        self.fired.clear()
        for ly in self.layers:
            for s in (ly.current, ly.frm):
                if s is not None:
                    s.prev_time = s.time if s.time > 0 else min(s.prev_time, s.time)
                    s.time += dt * s.state.get("speed", 1)
            if ly.current is not None and dt > 0:
                self.collect_events(ly.current)
            if ly.frm is not None:
                ly.mix_time += dt
                if ly.mix_time >= ly.mix_duration:
                    ly.frm = None
        self.sk.set_to_setup_pose()
        for ly in self.layers:
            mix_a = min(1.0, ly.mix_time / ly.mix_duration) if ly.mix_duration > 0 else 1.0
            if ly.frm is not None:
                if ly.current is not None:
                    self.apply_state(ly.frm, 1.0, self.animations(ly.current), 1 - mix_a)
                else:
                    self.apply_state(ly.frm, 1 - mix_a if ly.exited else 1.0)
            if ly.current is not None:
                self.apply_state(ly.current, mix_a if ly.frm is not None else 1.0)
        self.apply_bindings()
        self.sk.update_world_transform()
        events, self.pending = self.pending, []
        cmds, self.audio.commands = self.audio.commands, []
        return events, cmds

    def active_states(self):
        out = []
        for ly in self.layers:
            if ly.exited:
                out.append("exit")
            elif ly.current is None:
                out.append(None)
            else:
                out.append(ly.current.state.get("name", ly.current.state["id"]))
        return out


# ---- FORMAT.md runner ------------------------------------------------------------

def sample(m: Machine, ids, step, time, ev, cmds):
    return {"step": step, "time": num_out(time), **skeleton_sample(m.sk), "draw": [],
            "events": events_sample(ev), "audio": audio_sample(cmds, ids), "states": m.active_states()}


def run_case(doc, case):
    if case.get("tracks") or case.get("queue") or case.get("skin") or case.get("setup"):
        raise NotImplementedError("state-machine cases only")
    m = Machine(doc, case["stateMachine"])
    ids: Dict[str, str] = {}
    samples = []
    step, time = 0, 0.0
    for g in case.get("steps") or []:
        for action in g.get("actions") or []:
            (kind, a), = action.items()
            if kind == "setInput":
                # public API: by name, then id
                i = next((x for x in m.inputs_data if x.get("name") == a[0]), None) or \
                    next((x for x in m.inputs_data if x["id"] == a[0]), None)
                m.set_input(i["id"], a[1])
            elif kind == "fire":
                i = next((x for x in m.inputs_data if x.get("name") == a), None) or \
                    next((x for x in m.inputs_data if x["id"] == a), None)
                m.fire(i["id"])
            elif kind == "pointer":
                m.pointers.append((a[0], float(a[1]), float(a[2])))
            else:
                raise NotImplementedError(kind)
        dt = float(g["dt"])
        for _ in range(int(g.get("repeat", 1))):
            ev, cmds = m.advance(dt)
            time += dt
            step += 1
            samples.append(sample(m, ids, step, time, ev, cmds))
    return {"name": case["name"], "samples": samples}


def run_case_file(path):
    return common.run_case_file(path, run_case)


dumps = common.dumps_indented


def main(argv=None):
    from .common import expected_main
    return expected_main(argv, lambda p: dumps(run_case_file(p)), [CASES], __doc__)


if __name__ == "__main__":
    sys.exit(main())
