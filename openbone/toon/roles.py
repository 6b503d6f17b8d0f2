"""Role maps: which bones of a rig play which Jabbertoon roles (issue 15; Jabbertoon §2, §8.1).

A role map is a JSON file (``*.roles.json``; the format is documented in
``docs/ROLES.md``) that tells :class:`openbone.toon.rig.RigCharacter` how the
channels of a Jabbertoon pose move a rig:

* ``parts``: a node per role key ``role[:side][#index]`` (the channel names
  without their ``part:`` / ``lift:`` prefix) and the bone(s) it moves;
* ``root``: the bone the root channels (dx dy rot sx sy) move;
* ``height``: the character's height in rig units (channels are 1080p pixels);
* ``origin``, ``facing``, ``view``: the character-local frame (feet centre,
  the way the art faces, the view it is drawn in);
* ``limbs``: the reach limbs (``hand:S`` / ``foot:S``: upper, lower, tip);
* ``spots``: the reach spots (hip head chest mouth, optionally per side);
* ``limits``: joint limits per role key;
* ``views``, ``mouth``, ``blink``, ``moods``: optional mappings of the pose's
  view, mouth, blink and mood.

``load_roles`` reads and validates one (``OpenBoneError`` naming the place);
``guess_roles(doc)`` proposes one from the bone names and the hierarchy.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..document import Document, OpenBoneError

FORMAT = "openbone-roles"
VERSION = 1

# Jabbertoon §2: the role vocabulary (engine/parts.js ROLES)
ROLES = ("head", "neck", "torso", "hips", "arm", "forearm", "hand", "leg", "shin", "foot", "tail", "ear",
         "wing", "fin", "claw", "snout", "nose", "hair", "hat", "eye", "brow")
# §8.2 the chain roles and their default segment counts (engine/parts.js CHAIN_SEGMENTS)
CHAIN_SEGMENTS = {"tail": 4, "torso": 2, "ear": 2, "hair": 2}
SPOTS = ("hip", "head", "chest", "mouth")           # §8.4
VIEWS = ("front", "side", "back")                   # §8.5
LIMB_ROLES = ("hand", "foot")                       # §8.4: a reach names a hand or a foot
# The shape renderer's part synonyms (§2 "Renderer conventions") a node reads unless its entry
# says otherwise with "reads": a wing flaps with the arms, a hand wiggles with the claw channels.
DEFAULT_READS = {"wing": {"arm": 1.0, "forearm": 0.5}, "hand": {"claw": 1.0}}

KEY_RE = re.compile(r"^([a-z]+)(?::(-1|1))?(?:#(0|[1-9][0-9]*))?$")
_SPOT_RE = re.compile(r"^([a-z]+)(?::(-1|1))?$")

Source = Union[str, os.PathLike, Dict[str, Any], "RoleMap"]


def parse_key(key: str, where: str = "key") -> Tuple[str, Optional[int], Optional[int]]:
    """``"arm:-1#2"`` → ``("arm", -1, 2)``; an OpenBoneError for anything else (§2 channel form)."""
    m = KEY_RE.match(key) if isinstance(key, str) else None
    if not m:
        raise OpenBoneError(f"{where}: {key!r} is not a role key role[:side][#index] (side -1 or 1)")
    role = m.group(1)
    if role not in ROLES:
        raise OpenBoneError(f"{where}: unknown role {role!r} (roles: {' '.join(ROLES)})")
    return role, (int(m.group(2)) if m.group(2) else None), (int(m.group(3)) if m.group(3) else None)


def make_key(role: str, side: Optional[int] = None, index: Optional[int] = None) -> str:
    return role + (f":{side}" if side is not None else "") + (f"#{index}" if index is not None else "")


# ---- the data --------------------------------------------------------------

@dataclass(frozen=True)
class Limit:
    """A joint limit (§8.1): degrees counter-clockwise as seen, from the rig's animated pose
    (``relative_to="pose"``, the default: Jabbertoon's "relative to rest", the channels being
    offsets on that pose) or from its setup pose (``"setup"``: it clamps the rig's own animation
    too)."""

    min: float
    max: float
    relative_to: str = "pose"


@dataclass
class PartBone:
    """One bone a node moves: it turns by ``weight`` × the node's angle (lifts move only a node's
    first bone), clamped by ``limits`` when given."""

    bone: str
    weight: float = 1.0
    limits: Optional[Limit] = None


@dataclass
class Part:
    """A drawn node: role key, the bones it moves, and the other roles' channels it also reads
    (``reads``: role → factor; None = the default synonyms, DEFAULT_READS)."""

    key: str
    bones: List[PartBone]
    reads: Optional[Dict[str, float]] = None

    @property
    def role(self) -> str:
        return parse_key(self.key)[0]

    @property
    def side(self) -> Optional[int]:
        return parse_key(self.key)[1]

    @property
    def index(self) -> Optional[int]:
        return parse_key(self.key)[2]


@dataclass
class Limb:
    """A reach limb (§8.4): the two-bone IK upper → lower, tip the bone at its end (None: the end
    of lower), bend +1/−1 (counter-clockwise / clockwise as the character is drawn) or 0 (as posed)."""

    upper: str
    lower: str
    tip: Optional[str] = None
    bend: int = 0


@dataclass
class Spot:
    """A reach spot (§8.4): a point (x, y) in a bone's frame (rig units)."""

    bone: str
    x: float = 0.0
    y: float = 0.0


@dataclass
class RoleMap:
    """A parsed role map (see the module doc and docs/ROLES.md)."""

    root: str
    height: float
    facing: int = 1
    view: str = "front"
    origin: Tuple[float, float] = (0.0, 0.0)
    parts: Dict[str, Part] = field(default_factory=dict)
    limbs: Dict[str, Limb] = field(default_factory=dict)
    spots: Dict[str, Spot] = field(default_factory=dict)
    limits: Dict[str, Limit] = field(default_factory=dict)
    views: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    mouth: List[Dict[str, Any]] = field(default_factory=list)
    blink: List[Dict[str, Any]] = field(default_factory=list)
    moods: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    rig: Optional[str] = None

    # ---- look-ups the mapper uses

    def part_bones(self, key: str) -> List[str]:
        p = self.parts.get(key)
        return [b.bone for b in p.bones] if p else []

    def limit_for(self, key: str) -> Optional[Limit]:
        """The joint limit of a node: the most specific ``limits`` key that matches it
        (``R:S#I``, ``R#I``, ``R:S``, ``R``)."""
        role, side, index = parse_key(key)
        for k in (make_key(role, side, index), make_key(role, None, index), make_key(role, side), role):
            if k in self.limits:
                return self.limits[k]
        return None

    def spot(self, name: str, side: Optional[int]) -> Optional[Spot]:
        """A spot on a limb's side (``hip:-1``), else the side-less one."""
        if side is not None and f"{name}:{side}" in self.spots:
            return self.spots[f"{name}:{side}"]
        return self.spots.get(name)

    # ---- JSON

    def to_dict(self) -> Dict[str, Any]:
        def part(p: Part):
            bones = []
            for b in p.bones:
                if b.weight == 1 and b.limits is None:
                    bones.append(b.bone)
                else:
                    e: Dict[str, Any] = {"bone": b.bone}
                    if b.weight != 1:
                        e["weight"] = b.weight
                    if b.limits is not None:
                        e["limits"] = _limit_dict(b.limits)
                    bones.append(e)
            if p.reads is not None:
                first = bones[0] if isinstance(bones[0], dict) else {"bone": bones[0]}
                bones[0] = dict(first, reads=dict(p.reads))
            return bones[0] if len(bones) == 1 else bones

        d: Dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.rig is not None:
            d["rig"] = self.rig
        d.update({"root": self.root, "height": self.height, "origin": list(self.origin), "facing": self.facing,
                  "view": self.view, "parts": {k: part(p) for k, p in self.parts.items()}})
        d["limbs"] = {k: _drop_none({"upper": v.upper, "lower": v.lower, "tip": v.tip, "bend": v.bend or None})
                      for k, v in self.limbs.items()}
        d["spots"] = {k: {"bone": v.bone, "x": v.x, "y": v.y} for k, v in self.spots.items()}
        if self.limits:
            d["limits"] = {k: _limit_dict(v) for k, v in self.limits.items()}
        for name in ("views", "moods"):
            if getattr(self, name):
                d[name] = getattr(self, name)
        for name in ("mouth", "blink"):
            v = getattr(self, name)
            if v:
                d[name] = v[0] if len(v) == 1 else v
        return d

    def dumps(self, indent: Optional[int] = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: Union[str, os.PathLike], indent: Optional[int] = 2) -> None:
        """Writes the JSON atomically (a temporary file renamed over the target)."""
        path = os.fspath(path)
        d = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=".roles-", dir=d)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(self.dumps(indent) + "\n")
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


def _limit_dict(v: Limit) -> Dict[str, Any]:
    d: Dict[str, Any] = {"min": v.min, "max": v.max}
    if v.relative_to != "pose":
        d["from"] = v.relative_to
    return d


def _drop_none(d: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


# ---- loading and validation -------------------------------------------------

class _Checker:
    """Reads a role map dict, raising OpenBoneError("<source>: <path>: <what>")."""

    def __init__(self, source: str, doc: Optional[Document]):
        self.source = source
        self.doc = doc

    def fail(self, path: str, msg: str):
        raise OpenBoneError(f"{self.source}: {path}: {msg}")

    def number(self, path: str, v: Any, positive: bool = False) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            self.fail(path, f"expected a finite number, got {v!r}")
        if positive and not v > 0:
            self.fail(path, f"must be more than 0, got {v!r}")
        return float(v)

    def obj(self, path: str, v: Any) -> Dict[str, Any]:
        if not isinstance(v, dict):
            self.fail(path, f"expected an object, got {type(v).__name__}")
        return v

    def bone(self, path: str, v: Any) -> str:
        if not isinstance(v, str) or not v:
            self.fail(path, f"expected a bone name, got {v!r}")
        if self.doc is not None and self.doc.bone_index(v) < 0:
            self.fail(path, f"no bone named {v!r}")
        return v

    def slot(self, path: str, v: Any) -> str:
        if not isinstance(v, str) or not v:
            self.fail(path, f"expected a slot name, got {v!r}")
        if self.doc is not None and self.doc.slot_index(v) < 0:
            self.fail(path, f"no slot named {v!r}")
        return v

    def limits(self, path: str, v: Any) -> Limit:
        o = self.obj(path, v)
        lo = self.number(path + ".min", o.get("min"))
        hi = self.number(path + ".max", o.get("max"))
        if lo > hi:
            self.fail(path, f"min {lo:g} is above max {hi:g}")
        rel = o.get("from", "pose")
        if rel not in ("pose", "setup"):
            self.fail(path + ".from", f"expected 'pose' or 'setup', got {rel!r}")
        return Limit(lo, hi, rel)

    def reads(self, path: str, v: Any) -> Dict[str, float]:
        o = self.obj(path, v)
        out = {}
        for k, f in o.items():
            role, side, index = self.key(f"{path}.{k}", k)
            if side is not None or index is not None:
                self.fail(f"{path}.{k}", "a read names a role without side or index")
            out[role] = self.number(f"{path}.{k}", f)
        return out

    def key(self, path: str, k: str):
        try:
            return parse_key(k, path)
        except OpenBoneError as e:
            raise OpenBoneError(f"{self.source}: {e}") from None

    def descends(self, d: str, a: str) -> bool:
        doc = self.doc
        if doc is None:
            return True
        p = doc.bones[doc.bone_index(d)].parent
        while p is not None:
            if p == a or doc.bones[doc.bone_index(p)].name == a:
                return True
            p = doc.bones[doc.bone_index(p)].parent
        return False

    def mapping(self, path: str, v: Any) -> Dict[str, Any]:
        """One mouth / blink mapping: slot attachments or colours per threshold, a bone offset per
        unit of the value, or a state machine input."""
        o = self.obj(path, v)
        kinds = [k for k in ("attachments", "colors", "bone", "input") if k in o]
        if len(kinds) != 1:
            self.fail(path, "give exactly one of attachments (with slot), colors (with slot), bone or input")
        kind = kinds[0]
        if kind in ("attachments", "colors"):
            self.slot(path + ".slot", o.get("slot"))
            steps = o[kind]
            if not isinstance(steps, list) or not steps:
                self.fail(f"{path}.{kind}", "expected a list of [threshold, value] pairs")
            last = -math.inf
            for i, st in enumerate(steps):
                if not isinstance(st, list) or len(st) != 2:
                    self.fail(f"{path}.{kind}.{i}", "expected a [threshold, value] pair")
                t = self.number(f"{path}.{kind}.{i}.0", st[0])
                if t < last:
                    self.fail(f"{path}.{kind}.{i}.0", "thresholds must not decrease")
                last = t
                if kind == "attachments" and st[1] is not None and not isinstance(st[1], str):
                    self.fail(f"{path}.{kind}.{i}.1", f"expected an attachment name or null, got {st[1]!r}")
                if kind == "colors" and not (isinstance(st[1], str) and re.match(r"^#?[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$", st[1])):
                    self.fail(f"{path}.{kind}.{i}.1", f"expected a colour #rrggbb[aa], got {st[1]!r}")
        elif kind == "bone":
            self.bone(path + ".bone", o["bone"])
            for k in ("rotation", "x", "y", "scale_x", "scale_y"):
                if k in o:
                    self.number(f"{path}.{k}", o[k])
        else:
            if not isinstance(o["input"], str) or not o["input"]:
                self.fail(path + ".input", f"expected a state machine input name, got {o['input']!r}")
        return o

    def mappings(self, path: str, v: Any) -> List[Dict[str, Any]]:
        if v is None:
            return []
        items = v if isinstance(v, list) else [v]
        return [self.mapping(f"{path}.{i}" if isinstance(v, list) else path, m) for i, m in enumerate(items)]

    def role_map(self, d: Any) -> RoleMap:
        d = self.obj("(top)", d)
        if d.get("format", FORMAT) != FORMAT:
            self.fail("format", f"expected {FORMAT!r}, got {d.get('format')!r}")
        if d.get("version", VERSION) != VERSION:
            self.fail("version", f"unsupported version {d.get('version')!r} (this runtime reads {VERSION})")
        if "root" not in d:
            self.fail("root", "missing: the bone the root channels move")
        root = self.bone("root", d["root"])
        height = self.number("height", d.get("height"), positive=True)
        facing = d.get("facing", 1)
        if facing not in (1, -1) or isinstance(facing, bool):
            self.fail("facing", f"expected 1 or -1, got {facing!r}")
        view = d.get("view", "front")
        if view not in VIEWS:
            self.fail("view", f"expected one of {', '.join(VIEWS)}, got {view!r}")
        origin = d.get("origin", [0, 0])
        if not isinstance(origin, list) or len(origin) != 2:
            self.fail("origin", f"expected [x, y], got {origin!r}")
        origin = (self.number("origin.0", origin[0]), self.number("origin.1", origin[1]))

        parts: Dict[str, Part] = {}
        for k, v in self.obj("parts", d.get("parts", {})).items():
            path = f"parts.{k}"
            self.key(path, k)
            entries = v if isinstance(v, list) else [v]
            if not entries:
                self.fail(path, "expected a bone, an object or a non-empty list")
            bones, reads = [], None
            for i, e in enumerate(entries):
                ep = f"{path}.{i}" if isinstance(v, list) else path
                if isinstance(e, str):
                    bones.append(PartBone(self.bone(ep, e)))
                    continue
                e = self.obj(ep, e)
                for extra in set(e) - {"bone", "weight", "limits", "reads"}:
                    self.fail(f"{ep}.{extra}", "unknown field (bone, weight, limits, reads)")
                pb = PartBone(self.bone(ep + ".bone", e.get("bone")),
                              self.number(ep + ".weight", e.get("weight", 1.0)),
                              self.limits(ep + ".limits", e["limits"]) if "limits" in e else None)
                if "reads" in e:
                    if reads is not None:
                        self.fail(ep + ".reads", "give reads once per part")
                    reads = self.reads(ep + ".reads", e["reads"])
                bones.append(pb)
            parts[k] = Part(k, bones, reads)

        limbs: Dict[str, Limb] = {}
        for k, v in self.obj("limbs", d.get("limbs", {})).items():
            path = f"limbs.{k}"
            role, side, index = self.key(path, k)
            if role not in LIMB_ROLES or side is None or index is not None:
                self.fail(path, "a limb is hand:-1, hand:1, foot:-1 or foot:1 (§8.4)")
            o = self.obj(path, v)
            up, lo = self.bone(path + ".upper", o.get("upper")), self.bone(path + ".lower", o.get("lower"))
            tip = self.bone(path + ".tip", o["tip"]) if o.get("tip") is not None else None
            if not self.descends(lo, up):
                self.fail(path + ".lower", f"{lo!r} is not below {up!r}")
            if tip is not None and not self.descends(tip, lo):
                self.fail(path + ".tip", f"{tip!r} is not below {lo!r}")
            bend = o.get("bend", 0)
            if bend not in (-1, 0, 1) or isinstance(bend, bool):
                self.fail(path + ".bend", f"expected -1, 0 or 1, got {bend!r}")
            limbs[k] = Limb(up, lo, tip, bend)

        spots: Dict[str, Spot] = {}
        for k, v in self.obj("spots", d.get("spots", {})).items():
            path = f"spots.{k}"
            m = _SPOT_RE.match(k)
            if not m or m.group(1) not in SPOTS:
                self.fail(path, f"a spot is one of {', '.join(SPOTS)}, optionally :-1 or :1")
            o = self.obj(path, v)
            spots[k] = Spot(self.bone(path + ".bone", o.get("bone")), self.number(path + ".x", o.get("x", 0)),
                            self.number(path + ".y", o.get("y", 0)))

        limits = {}
        for k, v in self.obj("limits", d.get("limits", {})).items():
            self.key(f"limits.{k}", k)
            limits[k] = self.limits(f"limits.{k}", v)

        views = {}
        for k, v in self.obj("views", d.get("views", {})).items():
            path = f"views.{k}"
            if k not in VIEWS:
                self.fail(path, f"a view is one of {', '.join(VIEWS)}")
            o = self.obj(path, v)
            if "skin" in o and o["skin"] is not None:
                if not isinstance(o["skin"], str):
                    self.fail(path + ".skin", f"expected a skin name, got {o['skin']!r}")
                if self.doc is not None and self.doc.skin_index(o["skin"]) < 0:
                    self.fail(path + ".skin", f"no skin named {o['skin']!r}")
            for s, a in self.obj(path + ".attachments", o.get("attachments", {})).items():
                self.slot(f"{path}.attachments.{s}", s)
                if a is not None and not isinstance(a, str):
                    self.fail(f"{path}.attachments.{s}", f"expected an attachment name or null, got {a!r}")
            views[k] = o

        moods = {}
        for k, v in self.obj("moods", d.get("moods", {})).items():
            path = f"moods.{k}"
            o = self.obj(path, v)
            if ("animation" in o) == ("input" in o):
                self.fail(path, "give an animation or a state machine input")
            if "animation" in o:
                if not isinstance(o["animation"], str):
                    self.fail(path + ".animation", f"expected an animation name, got {o['animation']!r}")
                if self.doc is not None and self.doc.animation_index(o["animation"]) < 0:
                    self.fail(path + ".animation", f"no animation named {o['animation']!r}")
            elif not isinstance(o["input"], str) or not o["input"]:
                self.fail(path + ".input", f"expected an input name, got {o['input']!r}")
            moods[k] = o

        rig = d.get("rig")
        return RoleMap(root=root, height=height, facing=int(facing), view=view, origin=origin, parts=parts,
                       limbs=limbs, spots=spots, limits=limits, views=views,
                       mouth=self.mappings("mouth", d.get("mouth")), blink=self.mappings("blink", d.get("blink")),
                       moods=moods, rig=rig if isinstance(rig, str) else None)


def load_roles(source: Source, doc: Optional[Document] = None) -> RoleMap:
    """A role map from a path, JSON text, a dict or a RoleMap, validated (against ``doc``'s bone,
    slot, skin and animation names when given).  Bad input raises OpenBoneError naming the file
    and the place (``roles.json: parts.arm:1: no bone named 'uper-arm'``)."""
    if isinstance(source, RoleMap):
        return _Checker("roles", doc).role_map(source.to_dict()) if doc is not None else source
    name = "roles"
    if isinstance(source, dict):
        data = source
    else:
        text = os.fspath(source) if isinstance(source, os.PathLike) else source
        if not isinstance(text, str):
            raise OpenBoneError(f"roles: expected a path, JSON text or a dict, got {type(source).__name__}")
        if not text.lstrip().startswith("{"):
            name = text
            try:
                with open(text, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                raise OpenBoneError(f"{name}: {e.strerror or e}") from None
        try:
            data = json.loads(text)
        except ValueError as e:
            raise OpenBoneError(f"{name}: not valid JSON ({e})") from None
    return _Checker(name, doc).role_map(data)


# ---- guessing ----------------------------------------------------------------

_TOKEN_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# bones that steer rather than draw (IK targets, controls, helpers)
CONTROL_TOKENS = {"target", "ik", "ctrl", "control", "controller", "constraint", "goal", "effector", "aim",
                  "crosshair", "pole", "ground", "physics", "bb", "helper", "tip", "end", "look", "board",
                  "hoverboard", "portal", "flare", "muzzle", "exhaust", "glow", "thruster", "clipping",
                  "weapon", "sword", "gun", "spear", "chain", "saddle", "strap", "stirrup", "shadow", "bone"}
LEFT, RIGHT, NEAR, FAR = {"left", "l", "lf", "lft"}, {"right", "r", "rt", "rgt"}, {"front", "fore"}, \
    {"rear", "back", "hind"}
_ROLE_WORDS = {
    "head": "head", "skull": "head", "neck": "neck",
    "torso": "torso", "body": "torso", "spine": "torso", "chest": "torso", "belly": "torso", "trunk": "torso",
    "abdomen": "torso", "ribcage": "torso",
    "hip": "hips", "hips": "hips", "pelvis": "hips",
    "hand": "hand", "fist": "hand", "paw": "hand", "palm": "hand", "wrist": "hand",
    "forearm": "forearm", "bracer": "forearm", "elbow": "forearm",
    "upperarm": "arm", "humerus": "arm", "bicep": "arm", "biceps": "arm",
    "foot": "foot", "feet": "foot",
    "shin": "shin", "calf": "shin", "knee": "shin", "tibia": "shin", "lowerleg": "shin",
    "thigh": "leg", "femur": "leg", "upperleg": "leg",
    "tail": "tail", "ear": "ear", "ears": "ear", "wing": "wing", "wings": "wing", "fin": "fin", "flipper": "fin",
    "claw": "claw", "pincer": "claw", "snout": "snout", "beak": "snout", "nose": "nose",
    "hair": "hair", "ponytail": "hair", "bangs": "hair", "fringe": "hair", "pigtail": "hair",
    "hat": "hat", "cap": "hat", "helmet": "hat", "eye": "eye", "eyes": "eye", "brow": "brow", "eyebrow": "brow",
}
ARM_LIKE = {"arm", "forearm", "hand", "arm?", "shoulder"}
LEG_LIKE = {"leg", "shin", "foot", "leg?"}


def tokens(name: str) -> List[str]:
    """Lower-case words and numbers of a bone name: ``front-upper-arm`` → front upper arm,
    ``upper_arm_r`` → upper arm r, ``R_wing`` → r wing, ``tail10`` → tail 10."""
    return [t.lower() for t in _TOKEN_RE.findall(name)]


def _hint(name: str) -> Tuple[Optional[str], Optional[str], Optional[int]]:
    """(role or an ambiguous hint "arm?" / "leg?" / "shoulder", side word, number) from a name;
    role None for a control bone or an unknown word."""
    ts = tokens(name)
    words = [t for t in ts if not t.isdigit()]
    num = next((int(t) for t in ts if t.isdigit()), None)
    side = None
    for t in words:
        side = "left" if t in LEFT else "right" if t in RIGHT else "near" if t in NEAR else \
            "far" if t in FAR else side
    if any(t in CONTROL_TOKENS for t in words):
        return None, side, num
    joined = "".join(words)
    for compound, role in (("upperarm", "arm"), ("lowerarm", "forearm"), ("forearm", "forearm"),
                           ("upperleg", "leg"), ("lowerleg", "shin"), ("eyebrow", "brow")):
        if compound in joined:
            return role, side, num
    for t in words:
        if t in _ROLE_WORDS:
            return _ROLE_WORDS[t], side, num
    if "arm" in words:
        return "arm?", side, num
    if "leg" in words:
        return "leg?", side, num
    if "shoulder" in words:
        return "shoulder", side, num
    return None, side, num


class _Rig:
    """The setup pose of a document, with the hierarchy as indices (for guessing)."""

    def __init__(self, doc: Document, skin: Optional[str]):
        from ..instance import Instance
        self.doc = doc
        self.n = len(doc.bones)
        self.parent = [doc.bone_index(b.parent) if b.parent is not None else -1 for b in doc.bones]
        self.children: List[List[int]] = [[] for _ in range(self.n)]
        for i, p in enumerate(self.parent):
            if p >= 0:
                self.children[p].append(i)
        self.depth = [0] * self.n
        for i in range(self.n):
            self.depth[i] = self.depth[self.parent[i]] + 1 if self.parent[i] >= 0 else 0
        inst = Instance(doc)
        best, best_skin = -1, skin
        if skin is None:   # the skin that shows the most (a rig whose default skin is empty)
            for s in [None] + [s.name for s in doc.skins]:
                inst.set_skin(s)
                inst.update_world_transform()
                k = len(inst.world_vertices())
                if k > best:
                    best, best_skin = k, s
        inst.set_skin(best_skin)
        inst.update_world_transform()
        self.skin = best_skin
        self.world = np.array(inst.world)
        self.vertices = inst.world_vertices()
        self.slot_bone = {s.name: doc.bone_index(s.bone) for s in doc.slots}
        self.slot_order = {s.name: i for i, s in enumerate(doc.slots)}   # setup draw order = slot order
        self.hints = [_hint(b.name) for b in doc.bones]
        self.slot_hints: Dict[int, str] = {}   # a bone without a role word whose slot is named like one
        for s in doc.slots:
            b = self.slot_bone[s.name]
            role = _hint(s.name)[0]
            if b >= 0 and role in ("torso", "head", "hips") and self.hints[b][0] is None and \
                    not any(t in CONTROL_TOKENS for t in tokens(doc.bones[b].name)):
                self.slot_hints.setdefault(b, role)
        self.ik_targets: Dict[int, List[int]] = {}   # IK target bone → its constrained bones
        sk = json.loads(doc.json).get("skeleton", {})
        ids = {b.id: b.index for b in doc.bones}
        for c in sk.get("ik") or []:
            t = ids.get(c.get("target"))
            if t is not None:
                self.ik_targets[t] = [ids[b] for b in c.get("bones", []) if b in ids]

    def is_control(self, i: int) -> bool:
        return i in self.ik_targets or any(t in CONTROL_TOKENS for t in tokens(self.doc.bones[i].name))

    def role(self, i: int) -> Optional[str]:
        r = self.hints[i][0]
        if r is None and i in self.slot_hints:
            return self.slot_hints[i]
        if i in self.ik_targets:
            return None
        return r

    def ancestors(self, i: int) -> List[int]:
        out = []
        while i >= 0:
            out.append(i)
            i = self.parent[i]
        return out

    def lca(self, bones: Iterable[int]) -> int:
        bones = list(bones)
        common = set(self.ancestors(bones[0]))
        for b in bones[1:]:
            common &= set(self.ancestors(b))
        return max(common, key=lambda i: self.depth[i]) if common else -1

    def pos(self, i: int) -> np.ndarray:
        return self.world[i, 4:6]

    def local(self, i: int, p: Sequence[float]) -> Tuple[float, float]:
        a, b, c, d, x, y = self.world[i]
        det = a * d - b * c or 1e-9
        px, py = p[0] - x, p[1] - y
        return float((d * px - b * py) / det), float((-c * px + a * py) / det)

    def direction(self, i: int) -> float:
        w = self.world[i]
        return math.atan2(w[2], w[0])

    def subtree(self, i: int) -> List[int]:
        out, stack = [], [i]
        while stack:
            b = stack.pop()
            out.append(b)
            stack.extend(self.children[b])
        return out

    def slots_of(self, bones: Iterable[int]) -> List[str]:
        bs = set(bones)
        return [s for s, b in self.slot_bone.items() if b in bs]

    def extent(self, bones: Iterable[int]) -> Optional[np.ndarray]:
        pts = [self.vertices[s] for s in self.slots_of(bones) if s in self.vertices and len(self.vertices[s])]
        return np.concatenate(pts).astype(float) if pts else None


def _chain_down(rig: _Rig, start: int, like: set) -> List[int]:
    """A run of limb bones from start down: each step the child that is ``like`` (the one with the
    longest run below when several are)."""
    def run(b):
        best: List[int] = []
        for c in rig.children[b]:
            if rig.role(c) in like:
                r = run(c)
                if len(r) > len(best):
                    best = r
        return [b] + best
    return run(start)


def _assign_limb(rig: _Rig, chain: List[int], roles: Tuple[str, str, str], ambiguous: Tuple[str, ...]):
    """Roles (upper, lower, end) along a limb chain: the bones named for a role keep it (the first
    of each, in order), then the missing roles go to ambiguous bones (``arm?``, ``shoulder``) in
    chain order: the choice that fills the most roles, then the less ambiguous words, then the
    bones nearest the top."""
    got: Dict[str, int] = {}
    for pos, b in enumerate(chain):
        r = rig.role(b)
        if r in roles and r not in got and all(got[o] < pos for o in roles[:roles.index(r)] if o in got):
            got[r] = pos
    missing = [r for r in roles if r not in got]
    free = [p for p, b in enumerate(chain) if rig.role(b) in ambiguous and p not in got.values()]
    best, best_score = {}, None
    for k in range(len(missing), -1, -1):
        for rs in itertools.combinations(missing, k):
            for ps in itertools.combinations(free, k):
                trial = dict(got, **dict(zip(rs, ps)))
                order = [trial[r] for r in roles if r in trial]
                if order != sorted(order):
                    continue
                score = (k, -sum(ambiguous.index(rig.role(chain[p])) for p in ps), [-p for p in ps])
                if best_score is None or score > best_score:
                    best, best_score = trial, score
        if best_score is not None:
            break
    return {r: chain[p] for r, p in best.items()}


def _spread(bones: List[int], segments: int) -> List[List[int]]:
    """n bones in series over at most `segments` groups, the earlier groups the larger."""
    n = len(bones)
    k = min(n, segments)
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    out, i = [], 0
    for s in sizes:
        out.append(bones[i:i + s])
        i += s
    return out


def guess_roles(doc: Document, skin: Optional[str] = None) -> RoleMap:
    """Propose a role map for a rig from its bone names and hierarchy (and its setup pose: the
    height, the view, the facing, the spots).  A starting point to check and edit: see
    ``docs/ROLES.md`` for what it looks for."""
    if not isinstance(doc, Document):
        raise OpenBoneError("guess_roles(doc): expected an openbone.Document")
    rig = _Rig(doc, skin)
    names = [b.name for b in doc.bones]
    if rig.n == 0:
        raise OpenBoneError("guess_roles: the rig has no bones")

    # the head: a head-named bone, the shallowest (a rider's head sits deeper than its mount's)
    heads = [i for i in range(rig.n) if rig.role(i) == "head"]
    head = min(heads, key=lambda i: (rig.depth[i], len(tokens(names[i])), i)) if heads else -1
    spine_path = set(rig.ancestors(head)) if head >= 0 else set()
    BODY = {"torso", "hips", "neck", "head"}

    def attached(i: int) -> bool:
        """On the main body: the first body bone above it is on the path to the head."""
        p = rig.parent[i]
        while p >= 0:
            if p in spine_path:
                return True
            if rig.role(p) in BODY or rig.is_control(p):   # a rider's body, or steered by a control
                return False
            p = rig.parent[p]
        return not spine_path

    # limb chains: arm-like / leg-like runs whose top hangs from the body
    chains: List[Tuple[str, List[int]]] = []
    for kind, like in (("arm", ARM_LIKE), ("leg", LEG_LIKE)):
        for i in range(rig.n):
            if rig.role(i) in like and rig.role(rig.parent[i]) not in like and attached(i) and i not in spine_path:
                chains.append((kind, _chain_down(rig, i, like)))
    limbs = []
    for kind, chain in chains:
        roles = ("arm", "forearm", "hand") if kind == "arm" else ("leg", "shin", "foot")
        amb = ("arm?", "shoulder") if kind == "arm" else ("leg?",)
        got = _assign_limb(rig, chain, roles, amb)
        if got:
            limbs.append((kind, chain, got))

    # single parts and chains off the body (tails, ears, hair, wings, eyes ...)
    extras: Dict[str, List[List[int]]] = {}
    for i in range(rig.n):
        r = rig.role(i)
        if r in BODY or r in ARM_LIKE or r in LEG_LIKE or r is None or i in spine_path or not attached(i):
            continue
        if rig.role(rig.parent[i]) == r:
            continue   # not the top of its run
        run = [i]
        while True:
            nxt = [c for c in rig.children[run[-1]] if rig.role(c) == r]
            if not nxt:
                break
            run.append(nxt[0])
        extras.setdefault(r, []).append(run)

    # the root the root channels move: what holds the body, its limbs and their IK targets
    members = ([head] if head >= 0 else []) + [b for _, ch, got in limbs for b in got.values()]
    members += [b for runs in extras.values() for run in runs for b in run]
    limb_bones = {b for _, ch, _ in limbs for b in ch}
    members += [t for t, bs in rig.ik_targets.items() if any(b in limb_bones for b in bs)]
    if members and not (len(set(members)) == 1 and members[0] == head):
        root = rig.lca(members)
    else:
        root = rig.ancestors(head)[-1] if head >= 0 else 0
    if root < 0:
        root = 0
    top = rig.parent[root]
    if top >= 0 and rig.parent[top] < 0 and ("root" in tokens(names[top]) or len(rig.children[top]) == 1):
        root = top

    # the spine between the root and the head
    path = [b for b in reversed(rig.ancestors(head)) if rig.depth[b] >= rig.depth[root]] if head >= 0 else []
    spine: Dict[str, List[int]] = {"hips": [], "torso": [], "neck": []}
    for b in path:
        r = rig.role(b)
        if r in spine and b != head:
            spine[r].append(b)

    # view and facing: limb pairs drawn on both sides of the body mean a profile
    body_slots = [rig.slot_order[s] for s in rig.slots_of(spine["torso"] + spine["hips"])]

    def drawn_at(chain):
        o = [rig.slot_order[s] for s in rig.slots_of(chain)]
        return min(o) if o else None

    view = "front"
    for kind in ("arm", "leg"):
        at = [drawn_at(ch) for k, ch, _ in limbs if k == kind]
        at = [a for a in at if a is not None]
        if len(at) >= 2 and any(min(at) < b < max(at) for b in body_slots):
            view = "side"
    facing = 1
    feet = [got["foot"] for k, _, got in limbs if k == "leg" and "foot" in got]
    if view == "side" and feet:
        xs = [math.cos(rig.direction(f)) for f in feet]
        if all(x < -0.3 for x in xs):
            facing = -1

    # the feet line and the height
    origin = (float(rig.pos(root)[0]), float(rig.pos(root)[1]))
    top_pts = rig.extent(rig.subtree(head)) if head >= 0 else None
    if top_pts is not None:
        top_y = float(top_pts[:, 1].max())
    elif head >= 0:
        w = rig.world[head]
        top_y = float(max(w[5], w[5] + doc.bones[head].length * w[2]))
    else:
        pts = rig.extent(rig.subtree(root))
        top_y = float(pts[:, 1].max()) if pts is not None else origin[1] + 1
    height = top_y - origin[1]
    if not height > 0:
        height = 1.0

    # sides: names (left/right), else near/far (drawn after/before the body) in a profile, else
    # which side of the body it is on as drawn (front view)
    centre_x = float(rig.pos(head)[0]) if head >= 0 else origin[0]

    def side_of(bones: List[int], group: List[List[int]]) -> Optional[int]:
        if len(group) < 2:
            return None
        words = {rig.hints[b][1] for b in bones} - {None}
        if view == "side":
            if "left" in words or "right" in words:
                return -1 if "left" in words else 1
            if "near" in words or "far" in words:
                return facing if "near" in words else -facing
            at = drawn_at(bones)
            others = [drawn_at(g) for g in group if g is not bones]
            if at is not None and all(o is not None for o in others):
                return facing if at >= max(others) else -facing
        xs = [float(rig.pos(b)[0]) for b in bones]
        return 1 if (sum(xs) / len(xs) - centre_x) * facing >= 0 else -1

    parts: Dict[str, Part] = {}
    limbs_out: Dict[str, Limb] = {}
    limits: Dict[str, Limit] = {}
    for kind in ("arm", "leg"):
        group = [ch for k, ch, _ in limbs if k == kind]
        entries = [(ch, got) for k, ch, got in limbs if k == kind]
        # a four-legged body numbers its legs (§2): more than two leg chains get #i back to front
        numbered = kind == "leg" and len(entries) > 2
        if numbered:
            entries.sort(key=lambda e: float(rig.pos(e[0][0])[0]) * facing)
        for n, (ch, got) in enumerate(entries):
            side = side_of(ch, group)
            if numbered:
                side = None
            for role, b in got.items():
                key = make_key(role, side, n if numbered else None)
                if key not in parts:
                    parts[key] = Part(key, [PartBone(names[b])])
            end = "hand" if kind == "arm" else "foot"
            up, lo = got.get(roles_of(kind)[0]), got.get(roles_of(kind)[1])
            if up is not None and lo is not None and side is not None and not numbered:
                limbs_out[make_key(end, side)] = Limb(names[up], names[lo], names[got[end]] if end in got else None)
                if view == "side":
                    limits[make_key(roles_of(kind)[1], side)] = _bend_limit(rig, up, lo, kind, facing)

    for r in ("hips", "neck"):
        if spine[r]:
            parts[r] = Part(r, [PartBone(names[spine[r][0]])])
    if spine["torso"]:
        _chain_parts(parts, "torso", None, spine["torso"], names)
    if head >= 0:
        parts["head"] = Part("head", [PartBone(names[head])])
    for r, runs in extras.items():
        if r in CHAIN_SEGMENTS:
            if len(runs) == 1:
                _chain_parts(parts, r, None, runs[0], names)
            else:
                if r == "ear":   # a pair of ears; other chains side by side are strands
                    for run in runs:
                        _chain_parts(parts, r, side_of(run, runs), run, names)
                else:   # parallel strands (two hair chains): each segment moves them all
                    for k in range(CHAIN_SEGMENTS[r]):
                        groups = [_spread(run, CHAIN_SEGMENTS[r]) for run in runs]
                        bones = [PartBone(names[b], round(1 / len(g[k]), 12)) for g in groups if k < len(g)
                                 for b in g[k]]
                        if bones:
                            key = make_key(r, None, k)
                            parts[key] = Part(key, bones)
        else:
            for run in runs:
                s = side_of(run, runs)
                key = make_key(r, s)
                if key not in parts:
                    parts[key] = Part(key, [PartBone(names[run[0]])])

    # spots (§8.4): hips per side at the legs' tops, the head's centre, the chest, the mouth
    spots: Dict[str, Spot] = {}

    def spot_at(bone: int, p) -> Spot:
        x, y = rig.local(bone, p)
        return Spot(names[bone], round(x, 6), round(y, 6))

    hip_bone = spine["hips"][0] if spine["hips"] else (spine["torso"][0] if spine["torso"] else root)
    spots["hip"] = spot_at(hip_bone, rig.pos(hip_bone))
    for key, part in parts.items():
        role, side, index = parse_key(key)
        if role == "leg" and side is not None:
            b = doc.bone_index(part.bones[0].bone)
            spots[f"hip:{side}"] = spot_at(hip_bone, rig.pos(b))
    if head >= 0:
        pts = rig.extent([head])
        centre = (pts.min(axis=0) + pts.max(axis=0)) / 2 if pts is not None else \
            rig.pos(head) + doc.bones[head].length / 2 * np.array([rig.world[head, 0], rig.world[head, 2]])
        spots["head"] = spot_at(head, centre)
        mouth_slots = [s for s in rig.slots_of(rig.subtree(head)) if "mouth" in tokens(s) and s in rig.vertices]
        jaws = [b for b in rig.subtree(head) if "jaw" in tokens(names[b])]
        if mouth_slots:
            v = rig.vertices[mouth_slots[0]].astype(float)
            spots["mouth"] = spot_at(head, (v.min(axis=0) + v.max(axis=0)) / 2)
        elif jaws:
            spots["mouth"] = spot_at(head, rig.pos(jaws[0]))
        else:
            spots["mouth"] = spot_at(head, np.array(centre) - [0, 0.25 * max(1.0, float(np.ptp(pts[:, 1])) if pts is not None else doc.bones[head].length)])
    chest = spine["torso"][-1] if spine["torso"] else (spine["neck"][0] if spine["neck"] else hip_bone)
    cw = rig.world[chest]
    spots["chest"] = spot_at(chest, rig.pos(chest) + 0.5 * doc.bones[chest].length * np.array([cw[0], cw[2]]))

    mouth, blink = _guess_face(rig, head, names)
    if head >= 0:
        jaws = [b for b in rig.subtree(head) if "jaw" in tokens(names[b]) and rig.parent[b] == head]
        if jaws and not mouth:
            mouth = [{"bone": names[jaws[0]], "rotation": -20.0}]   # the jaw drops (clockwise, facing right)

    return RoleMap(root=names[root], height=round(height, 6), facing=facing, view=view,
                   origin=(round(origin[0], 6), round(origin[1], 6)), parts=parts, limbs=limbs_out, spots=spots,
                   limits=limits, mouth=mouth, blink=blink, rig=doc.name)


def roles_of(kind: str) -> Tuple[str, str, str]:
    return ("arm", "forearm", "hand") if kind == "arm" else ("leg", "shin", "foot")


def _chain_parts(parts: Dict[str, Part], role: str, side: Optional[int], run: List[int], names: List[str]) -> None:
    """A chain role over a run of bones: one index per segment group (§8.1); a one-bone run is the
    plain key (it reads every segment's channel, the last-segment rule)."""
    if len(run) == 1:
        key = make_key(role, side)
        parts[key] = Part(key, [PartBone(names[run[0]])])
        return
    for k, g in enumerate(_spread(run, CHAIN_SEGMENTS[role])):
        key = make_key(role, side, k)
        parts[key] = Part(key, [PartBone(names[b], 1.0 if len(g) == 1 else round(1 / len(g), 12)) for b in g])


def _bend_limit(rig: _Rig, up: int, lo: int, kind: str, facing: int) -> Limit:
    """In a profile a joint bends one way (§8 intro): the lower bone may turn from straight to 160°
    the way it bends at rest (or, straight at rest, the way an elbow / a knee bends: forward /
    backward), in viewer degrees from the pose under the layer (the range measured at the setup
    pose); 0 (that pose) is always inside, so the rig's own animation is never changed."""
    rel = (math.degrees(rig.direction(lo) - rig.direction(up)) + 180) % 360 - 180
    rel *= facing   # as the character is drawn facing right
    way = 1 if rel > 5 else -1 if rel < -5 else (1 if kind == "arm" else -1)
    if way > 0:
        lo_, hi_ = min(-rel, 0.0), max(160 - rel, 0.0)
    else:
        lo_, hi_ = min(-160 - rel, 0.0), max(-rel, 0.0)
    return Limit(round(lo_, 6), round(hi_, 6))


_OPEN, _CLOSED_EYE = {"open", "oooo", "ooo", "oo", "o", "aa", "ah", "talk", "shout", "surprised"}, \
    {"closed", "close", "blink", "shut", "sleep"}


def _guess_face(rig: _Rig, head: int, names: List[str]):
    """mouth / blink mappings from slots on the head: a mouth slot with an open-looking attachment,
    eye slots with a closed-looking one (or slots named like closed eyes, empty at rest)."""
    if head < 0:
        return [], []
    skin_atts: Dict[str, List[str]] = {}
    for s in rig.doc.skins:
        if rig.skin is not None and s.name not in (rig.skin, "default"):
            continue
        for slot, att, _t in s.attachments:
            skin_atts.setdefault(slot, [])
            if att not in skin_atts[slot]:
                skin_atts[slot].append(att)
    setup = {s.name: s.attachment for s in rig.doc.slots}
    head_slots = rig.slots_of(rig.subtree(head))
    mouth, blink = [], []
    for slot in head_slots:
        ts = set(tokens(slot))
        atts = skin_atts.get(slot, [])
        if "mouth" in ts:
            opened = [a for a in atts if set(tokens(a)) & _OPEN]
            if opened and setup.get(slot) not in opened:
                mouth.append({"slot": slot, "attachments": [[0, setup.get(slot)], [0.5, opened[0]]]})
        if ts & {"eye", "eyes"}:
            if ts & _CLOSED_EYE and atts and setup.get(slot) is None:
                blink.append({"slot": slot, "attachments": [[0, None], [0.5, atts[0]]]})
            else:
                closed = [a for a in atts if set(tokens(a)) & _CLOSED_EYE]
                if closed and setup.get(slot) not in closed:
                    blink.append({"slot": slot, "attachments": [[0, setup.get(slot)], [0.5, closed[0]]]})
    return mouth, blink
