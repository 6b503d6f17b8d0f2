"""Instance API of the instance layer (mixed into openbone.Instance; C: csrc/layer.c).

The layer poses a rig from outside on top of its own animation, every frame:

* **bone offsets** add to a bone's local pose (rotation, x/y in the parent's
  space, shear) or multiply it (scale);
* **joint limits** hold a bone's local rotation, measured from its setup
  rotation or from the animated pose under the layer, to ``[min, max]`` degrees;
* **reaches** bend a limb (an upper bone, a lower bone and a tip) toward a
  target point with a two-bone IK, blended with the FK pose by a weight.

It runs inside ``update_world_transform`` (so inside ``advance``), after
resetApplied and before the rig's constraints (§3.2), on the applied pose: the
local pose that animations wrote is untouched and the layer is applied afresh
every frame (setting an offset twice does not add twice).  ``set_to_setup_pose``
leaves the layer as it is; ``clear_layer()`` empties it.  Nothing allocates per
frame, and an instance that never used the layer pays nothing for it::

    inst = openbone.Instance(doc)
    inst.set_bone_offset("head", rotation=30)        # +30° counter-clockwise
    inst.set_joint_limit("lower_arm_r", -150, 0)     # degrees from the setup rotation
    inst.set_reach("upper_arm_r", "lower_arm_r", target=(40, 190), weight=1)
    inst.advance(1 / 30)

Angles are degrees, counter-clockwise positive in the y-up skeleton space (a
bone under a reflecting parent turns the other way on screen).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

from .document import OpenBoneError

Ref = Union[str, int]
LIMIT_FROM = ("setup", "pose")   # ob_limit_from


class JointLimit(NamedTuple):
    """A joint limit: degrees from the reference rotation ("setup" or "pose")."""

    min: float
    max: float
    relative_to: str


@dataclass(frozen=True)
class Reach:
    """One reach of the layer, as ``Instance.reaches`` lists them (bone names;
    ``tip``, ``space`` and ``offset_space`` are None for "the end of the lower
    bone" and "world")."""

    upper: str
    lower: str
    tip: Optional[str]
    space: Optional[str]
    target: Tuple[float, float]
    offset_space: Optional[str]
    offset: Tuple[float, float]
    weight: float
    bend: int


def _finite(name: str, v) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise OpenBoneError(f"{name}: expected a number, got {v!r}") from None
    if not math.isfinite(f):
        raise OpenBoneError(f"{name}: expected a finite number, got {v!r}")
    return f


class LayerAPI:
    """Methods of :class:`openbone.Instance` for the instance layer (see the module doc)."""

    def _layer_bone(self, ref: Optional[Ref], what: str, allow_none: bool = False) -> int:
        if ref is None and allow_none:
            return -1
        n = len(self.document.bones)  # type: ignore[attr-defined]
        if isinstance(ref, bool) or not isinstance(ref, (str, int)):
            raise OpenBoneError(f"{what}: expected a bone name or index, got {ref!r}")
        if isinstance(ref, int):
            if not 0 <= ref < n:
                raise OpenBoneError(f"{what}: bone index {ref} out of range (0..{n - 1})")
            return ref
        i = self.document.bone_index(ref)  # type: ignore[attr-defined]
        if i < 0:
            raise OpenBoneError(f"{what}: no bone named {ref!r}")
        return i

    def _bone_name(self, i: int) -> Optional[str]:
        return None if i < 0 else self.document.bones[i].name  # type: ignore[attr-defined]

    # ---- offsets ----------------------------------------------------------

    def set_bone_offset(self, bone: Ref, rotation: float = 0.0, x: float = 0.0, y: float = 0.0,
                        scale_x: float = 1.0, scale_y: float = 1.0, shear_x: float = 0.0,
                        shear_y: float = 0.0) -> None:
        """Set a bone's additive offset: ``rotation`` (degrees), ``x``, ``y`` (the
        parent's space), ``shear_x``, ``shear_y`` add to the local pose;
        ``scale_x``, ``scale_y`` multiply it.  Replaces the bone's previous
        offset; the defaults (the identity) remove it."""
        b = self._layer_bone(bone, "set_bone_offset")
        vals = tuple(_finite(f"set_bone_offset({bone!r}).{k}", v) for k, v in
                     (("rotation", rotation), ("x", x), ("y", y), ("scale_x", scale_x), ("scale_y", scale_y),
                      ("shear_x", shear_x), ("shear_y", shear_y)))
        self._set_bone_offset(b, vals)  # type: ignore[attr-defined]

    def bone_offset(self, bone: Ref) -> dict:
        """The bone's offset as a dict (the identity when none is set)."""
        b = self._layer_bone(bone, "bone_offset")
        v = self._bone_offset(b)  # type: ignore[attr-defined]
        return dict(zip(("rotation", "x", "y", "scale_x", "scale_y", "shear_x", "shear_y"), v))

    def clear_bone_offset(self, bone: Ref) -> None:
        """Remove a bone's offset."""
        self.set_bone_offset(bone)

    # ---- joint limits -----------------------------------------------------

    def set_joint_limit(self, bone: Ref, min: float, max: float,  # noqa: A002 (the natural names)
                        relative_to: str = "setup") -> None:
        """Hold the bone's local rotation to ``[min, max]`` degrees from a reference rotation:
        ``relative_to="setup"`` its setup rotation (an anatomical range: it clamps the rig's own
        animation too) or ``"pose"`` its rotation in the pose under the layer (the animation's:
        only what the layer adds is limited).  Compared by direction (370 counts as 10); it
        clamps after the offsets, and again after a reach moved the bone."""
        b = self._layer_bone(bone, "set_joint_limit")
        lo = _finite(f"set_joint_limit({bone!r}).min", min)
        hi = _finite(f"set_joint_limit({bone!r}).max", max)
        if lo > hi:
            raise OpenBoneError(f"set_joint_limit({bone!r}): min {lo:g} is above max {hi:g}")
        if relative_to not in LIMIT_FROM:
            raise OpenBoneError(f"set_joint_limit({bone!r}).relative_to: expected 'setup' or 'pose', got {relative_to!r}")
        self._set_joint_limit(b, lo, hi, LIMIT_FROM.index(relative_to))  # type: ignore[attr-defined]

    def joint_limit(self, bone: Ref) -> Optional[JointLimit]:
        """The bone's joint limit ``(min, max, relative_to)``, or None."""
        v = self._joint_limit(self._layer_bone(bone, "joint_limit"))  # type: ignore[attr-defined]
        return None if v is None else JointLimit(v[0], v[1], LIMIT_FROM[v[2]])

    def clear_joint_limit(self, bone: Ref) -> None:
        self._clear_joint_limit(self._layer_bone(bone, "clear_joint_limit"))  # type: ignore[attr-defined]

    # ---- reaches ----------------------------------------------------------

    def set_reach(self, upper: Ref, lower: Ref, target: Sequence[float], weight: float = 1.0,
                  tip: Optional[Ref] = None, space: Optional[Ref] = None,
                  offset: Sequence[float] = (0.0, 0.0), offset_space: Optional[Ref] = None,
                  bend: int = 0) -> None:
        """Bend the limb ``upper`` → ``lower`` → ``tip`` toward ``target`` with a
        two-bone IK, blended with the FK pose by ``weight`` (0..1).

        ``target`` is ``(x, y)`` in bone ``space``'s frame (None: world
        coordinates, as ``world`` reports them), plus ``offset`` along bone
        ``offset_space``'s axes (None: world axes).  ``tip`` is a bone below
        ``lower`` whose origin is the limb's end (None: the end of ``lower``,
        its length along its x axis).  ``bend`` +1 / −1 puts the elbow on the
        side where the lower bone turns counter-clockwise / clockwise from the
        upper one (in the upper bone's parent frame); 0 keeps the side the
        FK pose bends to (or the other side when that one breaks the lower
        bone's joint limit and the other keeps it).

        The blend: each of the two bones' local rotations moves from its FK
        value by ``weight`` × the change the full solve makes (wrapped to
        ±180°), so 1 puts the tip on the target (when in reach) and 0.5 is
        half-way in angle.  One reach per upper bone: setting it again
        replaces it; reaches run in the order they were first set."""
        u = self._layer_bone(upper, "set_reach.upper")
        lo = self._layer_bone(lower, "set_reach.lower")
        t = self._layer_bone(tip, "set_reach.tip", allow_none=True)
        s = self._layer_bone(space, "set_reach.space", allow_none=True)
        os_ = self._layer_bone(offset_space, "set_reach.offset_space", allow_none=True)
        bones = self.document.bones  # type: ignore[attr-defined]

        def descends(d: int, a: int) -> bool:
            p = bones[d].parent
            while p is not None:
                i = self.document.bone_index(p)  # type: ignore[attr-defined]
                if i == a:
                    return True
                p = bones[i].parent
            return False

        if not descends(lo, u):
            raise OpenBoneError(f"set_reach: lower bone {bones[lo].name!r} is not below upper bone {bones[u].name!r}")
        if t >= 0 and not descends(t, lo):
            raise OpenBoneError(f"set_reach: tip bone {bones[t].name!r} is not below lower bone {bones[lo].name!r}")
        if len(target) != 2 or len(offset) != 2:
            raise OpenBoneError("set_reach: target and offset are (x, y) pairs")
        tx, ty = (_finite(f"set_reach.target[{k}]", v) for k, v in enumerate(target))
        ox, oy = (_finite(f"set_reach.offset[{k}]", v) for k, v in enumerate(offset))
        w = float(weight)
        if math.isnan(w):
            raise OpenBoneError("set_reach.weight: expected a number, got nan")
        if bend not in (-1, 0, 1):
            raise OpenBoneError(f"set_reach.bend: expected -1, 0 or 1, got {bend!r}")
        self._set_reach(u, lo, t, s, tx, ty, os_, ox, oy, w, int(bend))  # type: ignore[attr-defined]

    def clear_reach(self, upper: Ref) -> None:
        """Remove the reach of the limb whose upper bone is ``upper``."""
        self._clear_reach(self._layer_bone(upper, "clear_reach"))  # type: ignore[attr-defined]

    @property
    def reaches(self) -> List[Reach]:
        """The layer's reaches, in the order they run."""
        n = self._bone_name
        return [Reach(n(u), n(lo), n(t), n(s), (x, y), n(os_), (ox, oy), w, bend)  # type: ignore[arg-type]
                for u, lo, t, s, x, y, os_, ox, oy, w, bend in self._reaches()]  # type: ignore[attr-defined]

    # ---- slot state of the current pose ---------------------------------------

    def set_slot_attachment(self, slot: Ref, attachment: Optional[str]) -> None:
        """Show ``attachment`` (a name, or None for none) in a slot on the current pose: like
        a key it holds until the next ``set_to_setup_pose`` (``advance`` does one), so set it
        after the animations were applied (or after ``advance``: the draw list reads it)."""
        s = self.document.slot_index(slot) if isinstance(slot, str) else slot  # type: ignore[attr-defined]
        if not isinstance(s, int) or not 0 <= s < len(self.document.slots):  # type: ignore[attr-defined]
            raise OpenBoneError(f"set_slot_attachment: no slot {slot!r}")
        a = -1
        if attachment is not None:
            a = self._att_name_id(str(attachment))  # type: ignore[attr-defined]
            if a < 0:
                raise OpenBoneError(f"set_slot_attachment: no attachment named {attachment!r}")
        self._set_slot_attachment(s, a)  # type: ignore[attr-defined]

    def set_slot_color(self, slot: Ref, rgba: Sequence[float]) -> None:
        """Set a slot's colour (r, g, b, a in 0..1) on the current pose (held like a key until
        the next ``set_to_setup_pose``)."""
        s = self.document.slot_index(slot) if isinstance(slot, str) else slot  # type: ignore[attr-defined]
        if not isinstance(s, int) or not 0 <= s < len(self.document.slots):  # type: ignore[attr-defined]
            raise OpenBoneError(f"set_slot_color: no slot {slot!r}")
        if len(rgba) != 4:
            raise OpenBoneError("set_slot_color: expected (r, g, b, a)")
        self._set_slot_color(s, tuple(_finite(f"set_slot_color[{i}]", v) for i, v in enumerate(rgba)))  # type: ignore[attr-defined]

    # ---- placement --------------------------------------------------------

    def set_placement(self, x: float = 0.0, y: float = 0.0, scale_x: float = 1.0, scale_y: float = 1.0) -> None:
        """§3.2 skeleton placement, root = [scale_x 0; 0 scale_y | x, y] (the
        identity by default; ``scale_x=-1`` mirrors the whole skeleton).  The
        scales are the placement factors of the §7 unit scale too (IK
        softness, physics wind and gravity).  Seen from the next world update."""
        vals = [_finite(f"set_placement.{k}", v) for k, v in
                (("x", x), ("y", y), ("scale_x", scale_x), ("scale_y", scale_y))]
        self._set_placement(*vals)  # type: ignore[attr-defined]
