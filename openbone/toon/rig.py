"""Jabbertoon poses on real rigs (issue 15): a pose dict → the instance layer of a rig.

``RigCharacter(doc, roles, skin=None, base_animation=None)`` holds an
:class:`openbone.Instance` (``char.instance``) and, every step, turns a
Jabbertoon pose (``rt.pose(id)``: ``{"dx", "dy", "sx", "sy", "rot", "parts",
"lift", "mouth", "blink", "mood", "reach", "view"}``, §2 / §8.1) into the
instance layer (csrc/layer.c) through the character's role map
(openbone/toon/roles.py), then poses the rig at that time::

    char = RigCharacter(openbone.load("examples/hero.obone"), base_animation="idle")
    char.apply_pose({"parts": {"head": 30}, "reach": {"hand:1": {"spot": "head", "w": 1}}}, t=0.5)
    char.instance.world      # the rig's world matrices, draw list etc. at t = 0.5

The mapping rules (conformance/NOTES.md "Jabbertoon on rigs"):

* Units.  Channels are 1080p pixels; a pixel is ``height / (1080 · h)`` rig
  units, ``height`` the role map's character height and ``h`` the fraction of
  the stage height the character is drawn at (``char.h``, default 1: the
  character as tall as the 1080 stage; a scene sets it from the placement).
* The character frame is the rig's skeleton frame mirrored by the art's facing
  A (``roles.facing``) so that it faces right; its origin is ``roles.origin``
  (the feet), y up.  Angles are degrees counter-clockwise as the viewer sees
  it (§0): a part angle turns its bone's world angle by exactly that, the sign
  taken from A and the reflection of the bone's parent at the setup pose.
* part angles → rotation offsets (× the node's weight; the reading rules of
  §2/§8.1: R, R:S, R#I, R:S#I, chain followers only their index channels, the
  last segment also the index channels beyond it, plus the synonyms ``reads``);
  lifts → translation "up" by the scaled pixels, in the parent's space as the
  setup pose has it (on a node's first bone); dx dy rot sx sy → the root bone
  (dx right, dy down as the channels are, rot counter-clockwise, sx sy factors);
  joint limits (viewer degrees; from the rig's animated pose unless a limit
  says ``"from": "setup"``) clamp the summed angle.
* reach → the layer's reach of that limb: a point (character-local pixels) or a
  spot (+ dx, dy in character heights), in the root bone's frame so it moves
  with the character; the weight blends the two-bone IK with the FK pose.
* facing (the placement's, ±1) mirrors the whole performance by facing × A:
  ``char.world`` / ``char.stage_transform`` (the instance stays in the rig's own
  frame, so the rig's own world-space IK bends are kept).
* view / mouth / blink / mood → the role map's optional mappings (a skin and
  attachments per view; attachments, colours, a bone offset or an input per
  mouth / blink value; an animation or an input per mood).

Posing is exact in time: without a state machine, ``apply_pose(pose, t)``
poses the setup pose, the base animation at ``t`` (looped) and the mood
animation, then updates the world; only physics and particles see the step
(``t − previous t``).  With a state machine the instance advances by the step.
"""
from __future__ import annotations

import functools
from collections import abc
import math
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from ..document import Document, OpenBoneError
from ..instance import Instance
from .roles import CHAIN_SEGMENTS, DEFAULT_READS, RoleMap, guess_roles, load_roles, make_key, parse_key

STAGE = 1080.0   # §0: channels are 1080p pixels


@dataclass
class _Node:
    key: str
    role: str
    side: Optional[int]
    index: Optional[int]
    bones: List[Tuple[int, float, float]]   # (bone, weight, angle sign)
    lift: Tuple[float, float]               # "up" in the first bone's parent space (per rig unit)
    reads: Dict[str, float]                 # synonym role → factor
    follower: bool                          # a chain segment i >= 1: its index channels only
    last: bool                              # the last segment of its chain: reads the indices beyond


def _inv_linear(m) -> Tuple[float, float, float, float]:
    a, b, c, d = m[0], m[1], m[2], m[3]
    det = a * d - b * c
    if det == 0:
        det = 1e-9
    return d / det, -b / det, -c / det, a / det


def _det_sign(m) -> float:
    d = m[0] * m[3] - m[1] * m[2]
    return -1.0 if d < 0 else 1.0


def _hex_rgba(s: str) -> Tuple[float, float, float, float]:
    s = s.lstrip("#")
    v = [int(s[i:i + 2], 16) / 255 for i in range(0, len(s), 2)]
    return (v[0], v[1], v[2], v[3] if len(v) > 3 else 1.0)


def _num(where: str, v: Any, rest: float = 0.0) -> float:
    """A channel value: a number (bools and None count as rest); a value that is not finite is
    the rest value too (a motion's NaN, §8.3: nothing sensible to draw); anything else is an
    OpenBoneError naming the channel."""
    if v is None or isinstance(v, bool):
        return rest
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise OpenBoneError(f"apply_pose: {where}: expected a number, got {v!r}") from None
    return f if math.isfinite(f) else rest


@functools.lru_cache(maxsize=4096)
def _channel_key_cached(key: str) -> Optional[Tuple[str, Optional[int], Optional[int]]]:
    try:
        return parse_key(key)
    except OpenBoneError:
        return None


def _channel_key(key: Any) -> Optional[Tuple[str, Optional[int], Optional[int]]]:
    """parse_key of a pose's channel key, None when it is not a role key (remembered: a pose
    has the same few keys every step)."""
    return _channel_key_cached(key) if isinstance(key, str) else None


def _real(where: str, v: Any) -> float:
    if isinstance(v, (bool, str, bytes)):
        raise OpenBoneError(f"{where} must be a number, got {v!r}")
    try:
        return float(v)
    except (TypeError, ValueError):
        raise OpenBoneError(f"{where} must be a number, got {type(v).__name__}") from None


def _height(where: str, v: Any) -> float:
    h = _real(where, v)
    if not (h > 0 and math.isfinite(h)):
        raise OpenBoneError(f"{where} must be more than 0 (and finite), got {v!r}")
    return h


def _facing(where: str, v: Any) -> int:
    f = _real(where, v)
    if f not in (1.0, -1.0):
        raise OpenBoneError(f"{where} must be 1 or -1, got {v!r}")
    return int(f)


def _step(steps: List[list], value: float):
    """The value of the last [threshold, value] pair whose threshold ≤ value (else the first)."""
    out = steps[0][1]
    for t, v in steps:
        if value >= t:
            out = v
    return out


class RigCharacter:
    """A rig that a Jabbertoon pose moves (see the module doc).

    ``doc``: an :class:`openbone.Document` or a path (.obone / .obonb, or a Spine skeleton
    .json / .skel, textured by the atlas Spine's naming finds beside it); ``roles``: a :class:`RoleMap`, a path, JSON text or a dict (None: ``guess_roles``);
    ``skin``; ``base_animation``: the rig's own animation under the channels (looped, e.g.
    ``"idle"``); ``state_machine``: run the rig's state machine instead (mood inputs).
    """

    def __init__(self, doc: Union[Document, str, os.PathLike], roles: Any = None, skin: Optional[str] = None,
                 base_animation: Optional[str] = None, state_machine: Optional[str] = None):
        if not isinstance(doc, Document):
            from ..spine.source import load_rig   # .obone / .obonb, or a Spine .json / .skel (its atlas beside it)
            doc = load_rig(os.fspath(doc))[0]
        self.document = doc
        self.roles: RoleMap = guess_roles(doc, skin) if roles is None else load_roles(roles, doc)
        self.skin = skin
        self.instance = Instance(doc, skin=skin, state_machine=state_machine)
        self.state_machine = state_machine
        self._machine = state_machine is not None
        if base_animation is not None and doc.animation_index(base_animation) < 0:
            raise OpenBoneError(f"RigCharacter: no animation named {base_animation!r}")
        self.base_animation = base_animation
        self._h = 1.0       # the character's height as a fraction of the stage height (§7.2)
        self._facing = 1    # the placement's facing (§7.2): +1 right, -1 left
        self._time: Optional[float] = None
        self._mood: Optional[str] = None
        self._mood_since = 0.0
        self._view: Optional[str] = None
        self._offset_bones: set = set()
        self._compile()

    # ---- set-up ---------------------------------------------------------------

    def _compile(self) -> None:
        doc, roles, inst = self.document, self.roles, self.instance
        self._keys: Dict[str, Tuple[List[str], int, List[Tuple[str, float]]]] = {}
        setup = Instance(doc, skin=self.skin)
        self._setup_world = np.array(setup.world)
        w = self._setup_world
        self.A = float(roles.facing)
        n = len(doc.bones)
        self._parent = [doc.bone_index(b.parent) if b.parent is not None else -1 for b in doc.bones]
        ident = np.array([1.0, 0, 0, 1, 0, 0])

        def parent_world(b: int):
            p = self._parent[b]
            return w[p] if p >= 0 else ident

        def bone(name: str) -> int:
            return doc.bone_index(name)

        # a chain's last drawn segment (per role and side): it reads the index channels beyond it
        last: Dict[Tuple[str, Optional[int]], int] = {}
        for key in roles.parts:
            r, s, i = parse_key(key)
            if r in CHAIN_SEGMENTS:
                last[(r, s)] = max(last.get((r, s), -1), i or 0)
        self._nodes: List[_Node] = []
        self._limits: Dict[int, Tuple[float, float, str]] = {}
        for key, part in roles.parts.items():
            r, s, i = parse_key(key)
            bones = []
            for pb in part.bones:
                b = bone(pb.bone)
                sign = self.A * _det_sign(parent_world(b))   # viewer degrees → local degrees
                bones.append((b, pb.weight, sign))
                lim = pb.limits or roles.limit_for(key)
                if lim is not None:   # viewer degrees → local degrees
                    self._limits[b] = ((lim.min, lim.max) if sign > 0 else (-lim.max, -lim.min)) + (lim.relative_to,)
            ia, ib, ic, id_ = _inv_linear(parent_world(bones[0][0]))
            reads = part.reads if part.reads is not None else DEFAULT_READS.get(r, {})
            follower = r in CHAIN_SEGMENTS and i is not None and i >= 1
            self._nodes.append(_Node(key, r, s, i, bones, (ib, id_), dict(reads), follower,
                                     r in CHAIN_SEGMENTS and (i or 0) == last.get((r, s))))
        for b, (lo, hi, rel) in self._limits.items():
            inst.set_joint_limit(b, lo, hi, relative_to=rel)

        # the root channels: translation in the root's parent space, rotation sign
        self._root = bone(roles.root)
        pw = parent_world(self._root)
        self._root_inv = _inv_linear(pw)
        self._root_sign = self.A * _det_sign(pw)
        # character-local points and offsets → the root bone's frame (so they move with it)
        rw = w[self._root]
        self._root_world_inv = _inv_linear(rw)
        self._root_pos = (rw[4], rw[5])
        self._limbs: Dict[str, Tuple[int, int, int, int]] = {}
        for key, limb in roles.limbs.items():
            up = bone(limb.upper)
            bend = int(limb.bend * self.A * _det_sign(parent_world(up)))
            self._limbs[key] = (up, bone(limb.lower), bone(limb.tip) if limb.tip else -1, bend)

    def fresh(self) -> "RigCharacter":
        """A new RigCharacter of the same rig, role map, skin, base animation and state machine,
        with this one's ``h`` and ``facing``, not yet posed (``toon.bake`` performs on one)."""
        other = RigCharacter(self.document, self.roles, skin=self.skin, base_animation=self.base_animation,
                             state_machine=self.state_machine)
        other.h, other.facing = self.h, self.facing
        return other

    @property
    def h(self) -> float:
        """The character's height as a fraction of the stage height (§7.2; a number more than 0,
        finite): channel pixels are ``height / (1080 · h)`` rig units."""
        return self._h

    @h.setter
    def h(self, value: Any) -> None:
        self._h = _height("RigCharacter.h", value)

    @property
    def facing(self) -> int:
        """The placement's facing (§7.2): +1 right, −1 left; the stage mirrors by facing × A."""
        return self._facing

    @facing.setter
    def facing(self, value: Any) -> None:
        self._facing = _facing("RigCharacter.facing", value)

    @property
    def legs(self) -> int:
        """How many legs the role map draws (distinct leg nodes: leg:±1 are two, leg#i one each):
        what a runtime gives gait (§3: 2, 4 or 6 legs; 0 bobs and rolls only)."""
        legs = set()
        for node in self._nodes:
            if node.role == "leg":
                legs.add((node.side, node.index))
        return len(legs)

    @property
    def scale(self) -> float:
        """Rig units per channel pixel: height / (1080 · h)."""
        return self.roles.height / (STAGE * self.h)

    def _to_root(self, x: float, y: float) -> Tuple[float, float]:
        """A point of the character frame (rig units from the origin, y up, x forward) in the
        root bone's frame at the setup pose."""
        ox, oy = self.roles.origin
        px, py = ox + self.A * x - self._root_pos[0], oy + y - self._root_pos[1]
        a, b, c, d = self._root_world_inv
        return a * px + b * py, c * px + d * py

    def _vec_to_root(self, x: float, y: float) -> Tuple[float, float]:
        a, b, c, d = self._root_world_inv
        x = self.A * x
        return a * x + b * y, c * x + d * y

    # ---- per step -------------------------------------------------------------

    def _node_keys(self, node: _Node) -> Tuple[List[str], int, List[Tuple[str, float]]]:
        """The channel keys a node reads (§8.1, engine/parts.js partAngle), its segment index, and
        its synonym reads (key, factor): worked out once per node."""
        cached = self._keys.get(node.key)
        if cached is not None:
            return cached
        r, s, i = node.role, node.side, node.index
        if i is None and r in CHAIN_SEGMENTS:
            i = 0   # §8.1: a one-piece chain part is its segment 0 (it reads R#0 too)
        if node.follower:
            keys = [make_key(r, None, i)] + ([make_key(r, s, i)] if s is not None else [])
        else:
            keys = [r]
            if s is not None:
                keys.append(make_key(r, s))
            if i is not None:
                keys.append(make_key(r, None, i))
                if s is not None:
                    keys.append(make_key(r, s, i))
        reads = [(k, f) for role, f in node.reads.items()
                 for k in (role, make_key(role, s) if s is not None else None) if k is not None]
        cached = self._keys[node.key] = (keys, i or 0, reads)
        return cached

    def _channel_sum(self, channels: Mapping[str, float], node: _Node, beyond: Dict[Tuple[str, Optional[int]], List[str]]) -> float:
        keys, i, reads = self._node_keys(node)
        total = 0.0
        for k in keys:
            if k in channels:
                total += _num(k, channels[k])
        if node.last:
            r, s = node.role, node.side
            for k in beyond.get((r, None), []) + (beyond.get((r, s), []) if s is not None else []):
                if _channel_key(k)[2] > i:
                    total += _num(k, channels[k])
        for k, f in reads:
            if k in channels:
                total += f * _num(k, channels[k])
        return total

    def pose_offsets(self, pose: Mapping[str, Any]) -> Dict[int, List[float]]:
        """The layer offsets a pose gives, per bone index: [rotation, x, y, scale_x, scale_y]
        (local degrees and rig units; before limits and reaches).  ``apply_pose`` sets them."""
        k = self.scale
        out: Dict[int, List[float]] = {}

        def acc(b: int) -> List[float]:
            return out.setdefault(b, [0.0, 0.0, 0.0, 1.0, 1.0])

        if not isinstance(pose, abc.Mapping):
            raise OpenBoneError(f"apply_pose: expected a pose dict (rt.pose), got {type(pose).__name__}")
        parts = pose.get("parts") or {}
        lifts = pose.get("lift") or {}
        for name, v in (("parts", parts), ("lift", lifts), ("reach", pose.get("reach") or {})):
            if not isinstance(v, abc.Mapping):
                raise OpenBoneError(f"apply_pose: {name}: expected an object, got {type(v).__name__}")
        beyond: Dict[Tuple[str, Optional[int]], List[str]] = {}
        beyond_lift: Dict[Tuple[str, Optional[int]], List[str]] = {}
        for src, dst in ((parts, beyond), (lifts, beyond_lift)):
            for key in src:
                parsed = _channel_key(key)
                if parsed is None:
                    continue   # a well-formed channel of an undrawn role (part:elbow): nothing draws it
                r, s, i = parsed
                if i is not None and r in CHAIN_SEGMENTS:
                    dst.setdefault((r, s), []).append(key)
        for node in self._nodes:
            angle = self._channel_sum(parts, node, beyond) if parts else 0.0
            if angle:
                for b, wgt, sign in node.bones:
                    acc(b)[0] += angle * wgt * sign
            lift = self._channel_sum(lifts, node, beyond_lift) if lifts else 0.0
            if lift:
                b = node.bones[0][0]
                o = acc(b)
                o[1] += node.lift[0] * lift * k
                o[2] += node.lift[1] * lift * k
        # §2 root channels on the root bone: dx right, dy down (the channels' y), rot, sx, sy
        dx, dy = _num("dx", pose.get("dx")), _num("dy", pose.get("dy"))
        rot = _num("rot", pose.get("rot"))
        sx, sy = _num("sx", pose.get("sx"), 1.0), _num("sy", pose.get("sy"), 1.0)
        if dx or dy or rot or sx != 1 or sy != 1:
            o = acc(self._root)
            a, b, c, d = self._root_inv
            vx, vy = self.A * dx * k, -dy * k
            o[1] += a * vx + b * vy
            o[2] += c * vx + d * vy
            o[0] += rot * self._root_sign
            o[3] *= sx
            o[4] *= sy
        for m in self.roles.mouth:
            if "bone" in m:
                self._bone_mapping(m, _num("mouth", pose.get("mouth")), acc)
        for m in self.roles.blink:
            if "bone" in m:
                self._bone_mapping(m, _num("blink", pose.get("blink")), acc)
        return out

    def _bone_mapping(self, m: Dict[str, Any], value: float, acc) -> None:
        if not value:
            return
        b = self.document.bone_index(m["bone"])
        p = self._parent[b]
        sign = self.A * _det_sign(self._setup_world[p] if p >= 0 else [1, 0, 0, 1])
        o = acc(b)
        o[0] += float(m.get("rotation", 0)) * value * sign
        o[1] += float(m.get("x", 0)) * value
        o[2] += float(m.get("y", 0)) * value
        o[3] *= 1 + (float(m.get("scale_x", 1)) - 1) * value
        o[4] *= 1 + (float(m.get("scale_y", 1)) - 1) * value

    def _set_reaches(self, reach: Mapping[str, Any]) -> None:
        inst, k = self.instance, self.scale
        done = set()
        for key, r in (reach or {}).items():
            limb = self._limbs.get(key)
            if limb is None or not isinstance(r, abc.Mapping):
                continue   # a limb this rig has no bones for: left as the pose has it (canReach)
            w = _num(f"reach.{key}.w", r.get("w"))
            if not w > 0:
                continue
            up, lo, tip, bend = limb
            side = _channel_key(key)[1]
            if r.get("spot") is not None:
                spot = self.roles.spot(str(r["spot"]), side)
                if spot is None:
                    continue   # a spot the rig does not place: this limb cannot reach it
                ddx, ddy = _num(f"reach.{key}.dx", r.get("dx")), _num(f"reach.{key}.dy", r.get("dy"))
                view = self._view or self.roles.view
                if view != "side":
                    ddx *= side or 1   # §8.4: outward seen head on
                ox, oy = self._vec_to_root(ddx * self.roles.height, ddy * self.roles.height)
                inst._set_reach(up, lo, tip, self.document.bone_index(spot.bone), spot.x, spot.y, self._root,
                                ox, oy, min(w, 1.0), bend)
            else:
                x, y = _num(f"reach.{key}.x", r.get("x"), math.nan), _num(f"reach.{key}.y", r.get("y"), math.nan)
                if not (math.isfinite(x) and math.isfinite(y)):
                    continue   # no point to reach
                px, py = self._to_root(x * k, y * k)
                inst._set_reach(up, lo, tip, self._root, px, py, -1, 0.0, 0.0, min(w, 1.0), bend)
            done.add(up)
        for up, *_ in self._limbs.values():
            if up not in done:
                inst._clear_reach(up)

    def _slots(self, pose: Mapping[str, Any]) -> None:
        """view attachments, mouth / blink attachments and colours: on the current pose."""
        inst = self.instance
        view = self._view or self.roles.view
        for slot, att in (self.roles.views.get(view, {}).get("attachments") or {}).items():
            inst.set_slot_attachment(slot, att)
        for name in ("mouth", "blink"):
            value = _num(name, pose.get(name))
            for m in getattr(self.roles, name):
                if "attachments" in m:
                    inst.set_slot_attachment(m["slot"], _step(m["attachments"], value))
                elif "colors" in m:
                    inst.set_slot_color(m["slot"], _hex_rgba(_step(m["colors"], value)))

    def _inputs(self, pose: Mapping[str, Any]) -> None:
        inst = self.instance
        for name in ("mouth", "blink"):
            for m in getattr(self.roles, name):
                if "input" in m:
                    inst.set_input(m["input"], _num(name, pose.get(name)))
        mood = self._mood
        if mood is not None and "input" in self.roles.moods.get(mood, {}):
            m = self.roles.moods[mood]
            inst.set_input(m["input"], m.get("value", mood))

    def apply_pose(self, pose: Mapping[str, Any], t: float, facing: Optional[int] = None,
                   h: Optional[float] = None) -> None:
        """Pose the rig for the Jabbertoon pose ``pose`` at time ``t`` (seconds, not before the
        previous call's): the channels into the instance layer, then the rig's own animation at
        ``t`` and the world update.  ``facing`` (±1) and ``h`` (the stage height fraction) are the
        placement's, when a scene gives them (they persist)."""
        if not isinstance(pose, abc.Mapping):
            raise OpenBoneError(f"apply_pose: expected a pose dict (rt.pose), got {type(pose).__name__}")
        t = _real("apply_pose: time", t)
        if not math.isfinite(t):
            raise OpenBoneError(f"apply_pose: time must be a finite number, got {t!r}")
        if self._time is not None and t < self._time:
            raise OpenBoneError(f"apply_pose: time {t!r} is before the previous step ({self._time!r})")
        if facing is not None:
            self.facing = _facing("apply_pose: facing", facing)
        if h is not None:
            self.h = _height("apply_pose: h", h)
        dt = 0.0 if self._time is None else t - self._time
        self._time = t
        inst = self.instance

        # view (a skin per view), mood
        view = pose.get("view") or None
        if view != self._view:
            self._view = view
            entry = self.roles.views.get(view or self.roles.view)
            if entry is not None and "skin" in entry:
                inst.set_skin(entry["skin"])
        mood = pose.get("mood") or None
        if mood != self._mood:
            self._mood, self._mood_since = mood, t

        # the layer
        offsets = self.pose_offsets(pose)
        for b in self._offset_bones - offsets.keys():
            inst._set_bone_offset(b, (0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0))
        for b, (r, x, y, sx, sy) in offsets.items():
            inst._set_bone_offset(b, (r, x, y, sx, sy, 0.0, 0.0))
        self._offset_bones = set(offsets)
        self._set_reaches(pose.get("reach") or {})

        if self._machine:
            self._inputs(pose)
            inst.advance(dt)
            self._slots(pose)
            return
        inst.set_to_setup_pose()
        if self.base_animation is not None:
            inst.apply_animation(self.base_animation, self._loop_time(self.base_animation, t))
        m = self.roles.moods.get(mood) if mood is not None else None
        if m is not None and "animation" in m:
            inst.apply_animation(m["animation"], self._loop_time(m["animation"], t - self._mood_since))
        self._slots(pose)
        inst.skeleton_update(dt)
        inst.update_world_transform()

    # ---- what the stage sees ---------------------------------------------------

    @property
    def mirror(self) -> int:
        """§7.2: the art is drawn mirrored by facing × A (−1) or not (+1).  The instance keeps
        the rig in its own frame (so the rig's own IK, whose bend is a world-space rule (§7.1),
        is not turned inside out); the mirror is applied to what the stage sees: ``world``,
        ``stage_transform`` (for draw-list vertices)."""
        return self.facing * int(self.A)

    @property
    def stage_transform(self) -> np.ndarray:
        """The 2×3 affine ``[a b c d x y]`` (§4 layout) from the instance's world coordinates to
        the character as the stage draws it: x mirrored when ``mirror`` is −1."""
        return np.array([float(self.mirror), 0.0, 0.0, 1.0, 0.0, 0.0])

    @property
    def world(self) -> np.ndarray:
        """The instance's world matrices ``(n_bones, 6)`` as the stage sees them (mirrored by
        ``mirror``; a copy).  Exact: a mirror only negates."""
        w = np.array(self.instance.world)
        if self.mirror < 0:
            w[:, [0, 1, 4]] *= -1
        return w

    def _loop_time(self, name: str, t: float) -> float:
        a = self.document.animations[self.document.animation_index(name)]
        return math.fmod(t, a.length) if a.length > 0 else t

    def __repr__(self) -> str:
        return f"<openbone.toon.RigCharacter {self.document.name!r}: root {self.roles.root!r}, {len(self.roles.parts)} parts>"
