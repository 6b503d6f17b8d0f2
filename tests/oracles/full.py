"""The oracles together: the whole §3 pipeline of one instance, for the differential test.

Written from the specification text (runtime spec §3, §5, §6, §7.5, §8), never from csrc/.
It composes the other oracles rather than repeating them:

* ``anim.Skeleton`` / ``anim.AnimationState`` hold the pose before the world pass (bone
  local poses and inherit modes, slot colours / attachments, draw order, constraint values,
  deform offsets, keyed sequence frames, animationTime) and apply every §5.1 timeline with
  §4.3 curves, §5.1a mixing out, §6 tracks / queues and §5.2 events / §10 audio;
* §7.5 sliders (here) run on that pose first, in updateWorldTransform;
* the pose is then handed to a ``constraint.Instance`` (the FullInstance below) for the
  world pass, §3.3 activity and §7.1-§7.4 constraints, and to ``draw`` for the §8 draw list
  (deform, sequences, clipping, shapes, ...).

and to the particle oracle's emitters (§8.8, stepped at the end of the world pass).

Not covered (raises Unsupported): state machines, scripts, setText / pointer / setInput
actions.

    from oracles import full
    samples = full.run_case(doc_dict, case_dict)   # FORMAT.md {"name", "samples"}
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

from . import anim, base, common, constraint, draw, particle
from .common import Unsupported, animation_duration, clamp, js_or, num, num_out, wrap_deg

BONE_PROPS = anim.BONE_PROPS


def _input_default(doc, ref) -> float:
    """§7.5 ``first state-machine default for that input id`` as a number (NOTES §7.5: a
    bool ⇒ 0/1, a string parsed as a whole number else NaN, anything else 0)."""
    for sm in doc.get("stateMachines") or []:
        for inp in sm.get("inputs") or []:
            if inp.get("id") == ref:
                d = inp.get("default")
                if isinstance(d, bool):
                    return 1.0 if d else 0.0
                if isinstance(d, (int, float)):
                    return float(d)
                if isinstance(d, str):
                    try:
                        return float(d.strip()) if d.strip() else 0.0
                    except ValueError:
                        return math.nan
                return 0.0
    return 0.0


class FullInstance(constraint.Instance, particle.ParticleInstance):
    """constraint.Instance whose pre-world pose comes from an ``anim.Skeleton``, with the
    particle oracle's emitters (MRO: constraint, particle, base)."""

    SLIDERS = True

    def __init__(self, doc, skin=None):
        doc = base.load_document(doc)
        self.sk = anim.Skeleton(doc)
        self.state = anim.AnimationState(doc, self.sk)
        self.deforms: Dict[Any, List[float]] = {}
        self.sequence_frames: Dict[Any, float] = {}
        self.animation_time: Optional[float] = None
        self.sliders = list((doc.get("skeleton") or {}).get("sliders") or [])
        self._doc = doc
        super().__init__(doc, skin)

    # -- §3.1 --------------------------------------------------------------------
    def set_to_setup_pose(self) -> None:
        super().set_to_setup_pose()
        if hasattr(self, "sk"):
            self.sk.set_to_setup_pose()

    def set_skin(self, ref) -> None:
        super().set_skin(ref)
        self.sk.skin = self.skin

    # -- §3.2 ---------------------------------------------------------------------
    def update_world_transform(self) -> None:
        if hasattr(self, "sk") and hasattr(self, "order"):
            self.apply_sliders()
            self.take_pose()
        constraint.Instance.update_world_transform(self)
        # §3.2 end: advanceParticles(particlePending) when the particle clock is realtime
        if getattr(self, "particle_pending", 0) > 0:
            self.advance_particles(self.particle_pending)
        self.particle_pending = 0.0

    def take_pose(self) -> None:
        """Copy the anim skeleton's pose into this instance (bones and slots by index: both
        keep document order and drop the same slots)."""
        sk = self.sk
        for b, sb in zip(self.bones, sk.bones):
            b.local = dict(sb["local"])
            b.inherit = sb["inherit"]
        slot_of = {}
        for s, ss in zip(self.slots, sk.slots):
            s.color = list(sk.color[ss["id"]])
            d = sk.dark[ss["id"]]
            s.dark = None if d is None else list(d)
            s.attachment = sk.attachment[ss["id"]]
            slot_of[id(ss)] = s
        self.draw_order = [slot_of[id(ss)] for ss in sk.draw_order]
        done = set()
        for c in self.constraints:  # timelines target the first constraint of an id
            key = (c.kind, c.id)
            if key in done:
                continue
            done.add(key)
            vals = sk.values.get(key)
            if vals is not None:
                for k, v in vals.items():
                    if k in c.values:
                        c.values[k] = float(v)
        index = {ss["id"]: i for i, ss in reversed(list(enumerate(sk.slots)))}
        self.particle_values = {index[sid]: {"emitting": pv.get("emitting"), "rate": pv.get("rate")}
                                for sid, pv in sk.particle_values.items() if sid in index}
        self.deforms = {k: list(v) for k, v in sk.deform.items()}
        self.sequence_frames = dict(sk.sequence_frames)
        self.animation_time = sk.animation_time

    # -- §7.5 sliders ---------------------------------------------------------------
    def apply_sliders(self) -> None:
        sk = self.sk
        saved_time = sk.animation_time
        by_id = {}
        for a in self._doc.get("animations") or []:
            by_id.setdefault(a.get("id"), a)
        for sl in self.sliders:
            mix = num(sl.get("mix"), 1.0)
            an = by_id.get(sl.get("animation"))
            if mix <= 0 or an is None:
                continue
            if sl.get("bone") is not None:
                b = sk.bone_by_id.get(sl.get("bone"))
                if b is None:
                    continue
                v = b["local"][sl.get("property") or "rotation"]
            elif sl.get("input") is not None:
                v = js_or(_input_default(self._doc, sl.get("input")), 0.0)
            else:
                v = 0.0
            frm, to = num(sl.get("from")), num(sl.get("to"))
            f = 0.0 if to == frm else (v - frm) / (to - frm)
            f = f - math.floor(f) if sl.get("loop") else clamp(f, 0.0, 1.0)
            t0 = js_or(num(sl.get("timeFrom"), math.nan), 0.0)
            t1 = js_or(num(sl.get("timeTo"), math.nan), animation_duration(an))
            t = t0 + f * (t1 - t0)
            if not sl.get("additive"):
                sk.apply_animation(an, t, mix)
                continue
            saved = [(dict(b["local"]), b["inherit"]) for b in sk.bones]
            for b in sk.bones:  # all bones ← setup pose (inherit too)
                b["local"] = {k: num(b["data"].get(k), dv) for k, dv in anim.BONE_DEFAULTS.items()}
                b["inherit"] = b["data"].get("inherit", "normal")
            tls = an.get("timelines") or []
            sk.apply_animation(dict(an, timelines=[x for x in tls if x.get("target") == "bone"]), t, 1.0)
            keyed_inherit = {x.get("id") for x in tls
                             if x.get("target") == "bone" and x.get("property") == "inherit" and x.get("keys")}
            for b, (loc, inh) in zip(sk.bones, saved):
                setup = {k: num(b["data"].get(k), dv) for k, dv in anim.BONE_DEFAULTS.items()}
                cur = b["local"]
                out = {}
                for p in BONE_PROPS:
                    delta = wrap_deg(cur[p] - setup[p]) if p == "rotation" else cur[p] - setup[p]
                    out[p] = loc[p] + delta * mix
                b["local"] = out
                if not (b["id"] in keyed_inherit and mix >= 0.5):
                    b["inherit"] = inh
            sk.apply_animation(dict(an, timelines=[x for x in tls if x.get("target") != "bone"]), t, mix)
        sk.animation_time = saved_time


# ---------------------------------------------------------------------------
# FORMAT.md case running
# ---------------------------------------------------------------------------

class Player:
    """One case's instance: §3 advance(dt) without a state machine (driven by anim.run_case)."""

    def __init__(self, doc, case=None):
        self.inst = FullInstance(doc)
        self.doc = self.inst._doc
        self.state = self.inst.state
        self.case = case or {}
        self.ids: Dict[str, str] = {}

    def advance(self, dt: float):
        inst = self.inst
        inst.state.update(dt)            # §6 times, events, audio, queue
        inst.set_to_setup_pose()         # §3.1
        inst.state.apply()               # §6 timelines, track order
        if dt > 0:                       # skeleton.update(dt)
            inst.clock += dt
            inst.pending += dt
            inst.particle_pending += dt
        inst.update_world_transform()    # §3.2 sliders → bones → constraints → particles
        ev, inst.state.events = inst.state.events, []
        cmds, inst.state.audio.commands = inst.state.audio.commands, []
        return ev, cmds

    def action(self, kind, a):
        if kind == "setSkin":
            self.inst.set_skin(a)
        elif kind == "setEmitter":
            self.inst.set_emitter(a[0], a[1])
        elif kind == "emitParticles":
            self.inst.emit_particles(a[0], a[1])
        else:
            raise Unsupported("action %r" % kind)

    def sample(self, step, time, ev=(), cmds=()):
        inst = self.inst
        s = {"step": step, "time": num_out(time), **inst.skeleton_sample(),
             "draw": draw.rounded(draw.draw_list(inst)), "events": anim.events_sample(ev),
             "audio": anim.audio_sample(cmds, self.ids), "states": []}
        if self.case.get("bounds"):
            s["bounds"] = draw.bounds(inst, self.case.get("queries") or [])
        return s


ACTIONS = ("setSkin", "setAnimation", "addAnimation", "setEmitter", "emitParticles")


def case_supported(case) -> Optional[str]:
    if case.get("stateMachine"):
        return "stateMachine"
    for g in case.get("steps") or []:
        for a in g.get("actions") or []:
            if not (isinstance(a, dict) and len(a) == 1 and next(iter(a)) in ACTIONS):
                return "action %r" % (a,)
    return None


def run_case(doc, case) -> Dict[str, Any]:
    why = case_supported(case)
    if why:
        raise Unsupported("case %r uses %s" % (case.get("name"), why))
    p = Player(doc, case)
    if case.get("skin") is not None:
        p.inst.set_skin(case["skin"])
    if case.get("setup"):
        if case.get("skin") is not None:  # FORMAT.md: with a skin the runner re-poses
            p.inst.set_to_setup_pose()
            p.inst.update_world_transform()
        return {"name": case.get("name"), "samples": [p.sample(0, 0.0)]}
    return anim.run_case(p.doc, case, p)


def run_case_file(path):
    return common.run_case_file(path, run_case)
