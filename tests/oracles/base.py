"""Independent pure-Python oracle for OpenBone setup poses.

Written from the specification text only (shared/spec/openbone-runtime-spec.txt,
CLARIFICATIONS.md and shared/conformance/FORMAT.md), never from the C sources under
csrc/.  It implements exactly what is needed to pose a skeleton without animations
or constraints:

* §2   skeleton construction (parent looked up among the bones created so far, slots
       whose bone is missing dropped, skins found by id then by name);
* §3.1 setToSetupPose (bone local pose and inherit, slot colour / dark / attachment,
       draw order);
* §3.2 updateWorldTransform (bones only; inactive bones keep their last world);
* §3.3 updateActive (skin-only bones, inactivity inherited from the parent);
* §4.1 localMatrix, §4.2 boneWorld for every inherit mode, §4.5 parseHex;
* FORMAT.md case running for ``setup`` cases and step cases whose only actions are
  ``setSkin`` (nothing animates, so each advance re-poses the setup pose);
* FORMAT.md sample shape, numbers rounded with JavaScript's
  ``Math.round(n * 1e4) / 1e4`` and -0 written as 0.

Anything the oracle does not implement (animations, constraints, sliders, state
machines, other actions) raises :class:`Unsupported` instead of guessing.

The API mirrors the runtime's ``openbone.Instance`` so that tests can run the same
checks against both::

    inst = Instance(load_document(text), skin=None)
    inst.world[i]          # [a, b, c, d, x, y]
    inst.active_bones[i]   # bool
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Optional

from . import common
from .common import DEG, IDENTITY, Unsupported, load_document, load_path, num, num_out, parse_hex  # noqa: F401

INHERIT_MODES = ("normal", "onlyTranslation", "noRotation", "noScale")


# ---------------------------------------------------------------------------
# §4 maths
# ---------------------------------------------------------------------------

def local_matrix(local: Dict[str, float]):
    """§4.1: (a, b, c, d, x, y) of a bone's local pose."""
    rx = (local["rotation"] + local["shearX"]) * DEG
    ry = (local["rotation"] + 90 + local["shearY"]) * DEG
    sx = local["scaleX"]
    sy = local["scaleY"]
    return (math.cos(rx) * sx, math.cos(ry) * sy,
            math.sin(rx) * sx, math.sin(ry) * sy,
            local["x"], local["y"])


def bone_world(p, local: Dict[str, float], inherit: str):
    """§4.2 boneWorld(P, local, inherit)."""
    la, lb, lc, ld, lx, ly = local_matrix(local)
    pa, pb, pc, pd, px, py = p
    wx = pa * lx + pb * ly + px
    wy = pc * lx + pd * ly + py
    if inherit == "onlyTranslation":
        return (la, lb, lc, ld, wx, wy)
    if inherit == "noRotation":
        sx = math.hypot(pa, pc)
        sy = math.hypot(pb, pd)
        return (la * sx, lb * sy, lc * sx, ld * sy, wx, wy)
    if inherit == "noScale":
        sx = math.hypot(pa, pc) or 1.0
        sy = math.hypot(pb, pd) or 1.0
        na, nb, nc, nd = pa / sx, pb / sy, pc / sx, pd / sy
        return (na * la + nb * lc, na * lb + nb * ld,
                nc * la + nd * lc, nc * lb + nd * ld, wx, wy)
    if inherit == "normal":
        return (pa * la + pb * lc, pa * lb + pb * ld,
                pc * la + pd * lc, pc * lb + pd * ld, wx, wy)
    if inherit in ("noRotationOrReflection", "noScaleOrReflection"):
        # rigby2d-runtime-spec "World transforms" (issue 9): Q replaces P's linear part.
        # rigby2d writes matrices by columns [a, b, c, d] = first column (a, b), second
        # (c, d); here the first column is (pa, pc) and the second (pb, pd).
        s = math.hypot(pa, pc)                 # rigby2d hypot(P.a, P.b): the first column
        det = pa * pd - pb * pc
        if s < 1e-12:
            s, ux, uy = 0.0, 1.0, 0.0
        else:
            ux, uy = pa / s, pc / s
        if inherit == "noRotationOrReflection":  # rigby2d [s, 0, 0, |det|/s]
            qa, qb, qc, qd = s, 0.0, 0.0, (abs(det) / s if s > 0 else 0.0)
        else:                                     # rigby2d [ux, uy, −uy, ux]: columns (ux, uy), (−uy, ux)
            qa, qb, qc, qd = ux, -uy, uy, ux
        return (qa * la + qb * lc, qa * lb + qb * ld,
                qc * la + qd * lc, qc * lb + qd * ld, wx, wy)
    raise Unsupported("unknown inherit mode %r" % (inherit,))


# ---------------------------------------------------------------------------
# §2 loading
# ---------------------------------------------------------------------------

_BONE_DEFAULTS = {"x": 0.0, "y": 0.0, "rotation": 0.0, "scaleX": 1.0, "scaleY": 1.0,
                  "shearX": 0.0, "shearY": 0.0}


class Bone:
    def __init__(self, data: Dict[str, Any], index: int, parent: Optional["Bone"]):
        self.data = data
        self.index = index
        self.id = data.get("id")
        self.name = data.get("name", self.id)
        self.parent = parent
        self.setup = {k: num(data.get(k), d) for k, d in _BONE_DEFAULTS.items()}
        self.setup_inherit = data.get("inherit") or "normal"
        self.local = dict(self.setup)
        self.inherit = self.setup_inherit
        self.world = IDENTITY
        self.active = True


class Slot:
    def __init__(self, data: Dict[str, Any], bone: Bone):
        self.data = data
        self.id = data.get("id")
        self.name = data.get("name", self.id)
        self.bone = bone
        self.color = [1.0, 1.0, 1.0, 1.0]
        self.dark = None
        self.attachment = None


class Instance:
    """Skeleton + (empty) animation state, mirroring openbone.Instance."""

    def __init__(self, doc, skin=None):
        doc = load_document(doc)
        self.doc = doc
        sk = doc.get("skeleton") or {}
        for kind in ("ik", "transform", "path", "physics", "sliders"):
            if sk.get(kind):
                raise Unsupported("constraints/sliders (%s) are not implemented by the oracle" % kind)
        # §2: bones in document order, parent among the bones already created.
        self.bones: List[Bone] = []
        by_id: Dict[Any, Bone] = {}
        for i, bd in enumerate(sk.get("bones") or []):
            pid = bd.get("parent")
            parent = by_id.get(pid) if pid is not None else None
            b = Bone(bd, i, parent)
            self.bones.append(b)
            if b.id not in by_id:  # duplicate ids: the first one wins
                by_id[b.id] = b
        self._bone_by_id = by_id
        # Slots whose bone is missing are dropped.
        self.slots: List[Slot] = []
        for sd in sk.get("slots") or []:
            bone = by_id.get(sd.get("bone"))
            if bone is None:
                continue
            self.slots.append(Slot(sd, bone))
        self.draw_order: List[Slot] = list(self.slots)
        self.skins = list(sk.get("skins") or [])
        self.skin = None
        self._flags_skin = None
        self._flags_computed = False
        self.root = IDENTITY  # skeleton placement: identity in the suite
        self.clock = 0.0
        # Constructor: updateActive (skin none), setToSetupPose, updateWorldTransform.
        self.update_active()
        self.set_to_setup_pose()
        self.update_world_transform()
        if skin is not None:
            self.set_skin(skin)

    # -- queries mirroring the runtime ------------------------------------
    @property
    def world(self) -> List[List[float]]:
        return [list(b.world) for b in self.bones]

    @property
    def bone_names(self) -> List[str]:
        return [b.name for b in self.bones]

    @property
    def active_bones(self) -> List[bool]:
        return [b.active for b in self.bones]

    def bone_index(self, name) -> int:
        for b in self.bones:
            if b.name == name:
                return b.index
        for b in self.bones:
            if b.id == name:
                return b.index
        raise KeyError(name)

    # -- §2 / §3.3 skins ----------------------------------------------------
    def find_skin(self, ref):
        if ref is None:
            return None
        for s in self.skins:
            if s.get("id") == ref:
                return s
        for s in self.skins:
            if s.get("name") == ref:
                return s
        return None

    def set_skin(self, ref) -> None:
        skin = self.find_skin(ref)
        if self._flags_computed and skin is self.skin and skin is self._flags_skin:
            return
        self.skin = skin
        self.update_active()

    def update_active(self) -> None:
        """§3.3 Skeleton.updateActive (bones only: the oracle has no constraints)."""
        req = set()
        for s in self.skins:
            for bid in s.get("bones") or []:
                req.add(bid)
        mine = set((self.skin or {}).get("bones") or [])
        if not req:
            for b in self.bones:
                b.active = True
        else:
            for b in self.bones:  # document order: parents come first
                b.active = ((b.parent is None or b.parent.active)
                            and (b.id not in req or b.id in mine))
        self._flags_skin = self.skin
        self._flags_computed = True

    # -- §3.1 / §3.2 ----------------------------------------------------------
    def set_to_setup_pose(self) -> None:
        for b in self.bones:
            b.local = dict(b.setup)
            b.inherit = b.setup_inherit
        for s in self.slots:
            c = s.data.get("color")
            s.color = parse_hex(c) if isinstance(c, str) else [1.0, 1.0, 1.0, 1.0]
            d = s.data.get("dark")
            s.dark = parse_hex(d) if isinstance(d, str) else None
            s.attachment = s.data.get("attachment")
        self.draw_order = list(self.slots)

    def update_world_transform(self) -> None:
        for b in self.bones:
            if not b.active:
                continue  # world left as it was
            if b.parent is None:
                b.world = bone_world(self.root, b.local, "normal")
            else:
                b.world = bone_world(b.parent.world, b.local, b.inherit)

    def advance(self, dt: float) -> None:
        """§3 pipeline with no animation state content, no constraints."""
        self.set_to_setup_pose()
        if dt > 0:
            self.clock += dt
        self.update_world_transform()

    # -- FORMAT.md sample -------------------------------------------------------
    def sample(self, step: int, time: float) -> Dict[str, Any]:
        return {"step": step, "time": num_out(time), **self.skeleton_sample(),
                "draw": _draw(self), "events": [], "audio": [], "states": []}

    def skeleton_sample(self) -> Dict[str, Any]:
        """FORMAT.md ``bones`` and ``slots`` of the current pose."""
        bones = []
        for b in self.bones:
            a, bb, c, d, x, y = b.world
            bones.append({"name": b.name, "x": num_out(x), "y": num_out(y),
                          "a": num_out(a), "b": num_out(bb),
                          "c": num_out(c), "d": num_out(d)})
        slots = []
        for s in self.draw_order:
            slots.append({"name": s.name, "attachment": s.attachment,
                          "color": [num_out(v) for v in s.color],
                          "dark": None if s.dark is None else [num_out(v) for v in s.dark]})
        return {"bones": bones, "slots": slots}


def _draw(inst: "Instance") -> List[Dict[str, Any]]:
    """§8.4 draw items, from the draw list's own independent oracle (oracles/draw.py)."""
    from . import draw  # late: draw imports this module
    return draw.rounded(draw.draw_list(inst))


# ---------------------------------------------------------------------------
# FORMAT.md case running
# ---------------------------------------------------------------------------

def case_supported(case: Dict[str, Any]) -> Optional[str]:
    """None if the oracle can run this case, else the reason it cannot."""
    if case.get("tracks"):
        return "tracks"
    if case.get("queue"):
        return "queue"
    if case.get("stateMachine"):
        return "stateMachine"
    if case.get("bounds"):
        return "bounds"
    if case.get("queries"):
        return "queries"
    for group in case.get("steps") or []:
        for action in group.get("actions") or []:
            if not (isinstance(action, dict) and list(action.keys()) == ["setSkin"]):
                return "action %r" % (action,)
    return None


def document_supported(doc: Dict[str, Any]) -> Optional[str]:
    sk = doc.get("skeleton") or {}
    for kind in ("ik", "transform", "path", "physics", "sliders"):
        if sk.get(kind):
            return kind
    return None


def drive(inst, case: Dict[str, Any], advance=None, sample=None, action=None) -> Dict[str, Any]:
    """FORMAT.md case running on an oracle instance: ``skin`` right after construction, then
    the ``setup`` sample (re-posed when a skin is set: no time passes) or the step groups
    (their actions, then ``repeat`` × advance(dt) and a sample, time summed exactly as given,
    §12).  ``action(kind, arg)`` runs an action (default: setSkin only)."""
    advance = advance or inst.advance
    sample = sample or inst.sample
    skin = case.get("skin")
    if skin is not None:
        inst.set_skin(skin)
    if case.get("setup"):
        if skin is not None:
            inst.set_to_setup_pose()
            inst.update_world_transform()
        return {"name": case.get("name"), "samples": [sample(0, 0.0)]}
    samples = []
    time = 0.0
    step = 0
    for group in case.get("steps") or []:
        for a in group.get("actions") or []:
            (kind, arg), = a.items()
            if action is not None:
                action(kind, arg)
            elif kind == "setSkin":
                inst.set_skin(arg)  # takes effect at the next advance
            else:
                raise Unsupported("action %r" % kind)
        dt = float(group.get("dt", 0))
        for _ in range(int(group.get("repeat", 1))):
            advance(dt)
            time += dt
            step += 1
            samples.append(sample(step, time))
    return {"name": case.get("name"), "samples": samples}


def run_case(doc: Dict[str, Any], case: Dict[str, Any]) -> Dict[str, Any]:
    why = case_supported(case)
    if why:
        raise Unsupported("case %r uses %s" % (case.get("name"), why))
    return drive(Instance(doc), case)


def run_case_file(path: str) -> Dict[str, Any]:
    """Samples for every case of a case file, in the FORMAT.md sample-file shape."""
    return common.run_case_file(path, run_case)


def case_file_supported(path: str) -> Optional[str]:
    with open(path, "r", encoding="utf-8") as f:
        cases = json.load(f)
    doc_path = os.path.join(os.path.dirname(os.path.abspath(path)), cases["document"])
    if doc_path.endswith(".obonb"):
        return "binary document"
    try:
        doc = load_path(doc_path)
    except Unsupported as e:
        return str(e)
    why = document_supported(doc)
    if why:
        return "document has %s" % why
    for c in cases.get("cases") or []:
        why = case_supported(c)
        if why:
            return "case %r uses %s" % (c.get("name"), why)
    return None


def dumps_samples(samples: Dict[str, Any]) -> str:
    """Stable, diff-friendly JSON text: one bone / slot per line."""
    lines = ["{", '  "document": %s,' % json.dumps(samples["document"]), '  "cases": [']
    for ci, case in enumerate(samples["cases"]):
        lines.append("    {")
        lines.append('      "name": %s,' % json.dumps(case["name"]))
        lines.append('      "samples": [')
        for si, s in enumerate(case["samples"]):
            lines.append("        {")
            lines.append('          "step": %s,' % json.dumps(s["step"]))
            lines.append('          "time": %s,' % json.dumps(s["time"]))
            for key in ("bones", "slots"):
                items = s[key]
                if not items:
                    lines.append('          "%s": [],' % key)
                    continue
                lines.append('          "%s": [' % key)
                for ii, item in enumerate(items):
                    lines.append("            " + json.dumps(item) + ("," if ii < len(items) - 1 else ""))
                lines.append("          ],")
            rest = [k for k in s.keys() if k not in ("step", "time", "bones", "slots")]
            for ki, k in enumerate(rest):
                lines.append('          %s: %s%s' % (json.dumps(k), json.dumps(s[k]),
                                                    "," if ki < len(rest) - 1 else ""))
            lines.append("        }" + ("," if si < len(case["samples"]) - 1 else ""))
        lines.append("      ]")
        lines.append("    }" + ("," if ci < len(samples["cases"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"
