"""Instance API for §7 constraints (mixed into openbone.Instance)."""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Union

import numpy as np

from .document import OpenBoneError

Ref = Union[str, int]


class ConstraintAPI:
    """Methods of :class:`openbone.Instance` for §7 constraints.

    Constraints are named by name, then id (or by index into
    ``document.constraints``, the default list: ik, transform, path, physics).
    """

    def constraint_index(self, ref: Ref) -> int:
        """Index of a constraint in ``document.constraints`` (name, then id)."""
        i = self.document._find(self.document.constraints, ref)  # type: ignore[attr-defined]
        if i < 0:
            raise OpenBoneError(f"no constraint named {ref!r}")
        return i

    def constraint_values(self, ref: Ref) -> Dict[str, float]:
        """The live values of a constraint (§3.1 setup values, as timelines and
        bindings left them), keyed by timeline property name: ik ``mix softness
        bend stretch compress``; transform ``mix mixRotate mixTranslate mixScale
        mixShear``; path ``position spacing mixRotate mixX mixY``; physics ``mix
        inertia strength damping mass gravity wind``."""
        return self._constraint_values(self.constraint_index(ref))  # type: ignore[attr-defined]

    def physics_state(self, ref: Ref) -> Optional[Dict[str, Any]]:
        """The §7.4 state of a physics constraint: ``origin`` and ``tip`` as
        ``(x, y, vx, vy, px, py)``, ``last_origin``, ``last_tip``, ``time``,
        ``steps``; ``None`` before its first update (or after ``reset_physics``)."""
        return self._physics_state(self.constraint_index(ref))  # type: ignore[attr-defined]

    def trace_physics(self, dt: float, steps: int, constraint: Optional[Ref] = None) -> Dict[str, np.ndarray]:
        """Advance ``steps`` times by ``dt`` (the §3 pipeline) and record after
        each advance, for the physics constraint named (or every physics
        constraint): ``time`` (steps,), ``origin`` and ``tip`` (steps, n, 4) as
        ``[x, y, vx, vy]``, ``world`` (steps, n, 6) the constraint bone's world
        ``[a, b, c, d, x, y]``, ``constraints`` (n,) their indices and
        ``names``.  One C call: no Python loop per step."""
        idx = -1 if constraint is None else self.constraint_index(constraint)
        if idx >= 0 and self.document.constraints[idx].kind != "physics":  # type: ignore[attr-defined]
            raise OpenBoneError(f"constraint {constraint!r} is not a physics constraint")
        out = self._trace_physics(float(dt), int(steps), idx)  # type: ignore[attr-defined]
        out["names"] = [self.document.constraints[i].name for i in out["constraints"]]  # type: ignore[attr-defined]
        return out

    def set_local_pose(self, bone: Ref, pose: Sequence[float]) -> None:
        """Set a bone's local pose ``(x, y, rotation, scaleX, scaleY, shearX,
        shearY)`` (kept until the next setToSetupPose; for scripted tests with
        ``skeleton_update(dt)`` and ``update_world_transform()``)."""
        b = self.document.bone_index(bone) if not isinstance(bone, int) else bone  # type: ignore[attr-defined]
        if b < 0:
            raise OpenBoneError(f"no bone named {bone!r}")
        self._set_local_pose(b, tuple(float(v) for v in pose))  # type: ignore[attr-defined]

    def skeleton_update(self, dt: float) -> None:
        """skeleton.update(dt) alone: adds dt (if > 0) to the clock and the
        pending physics and particle time (§3)."""
        self._skeleton_update(float(dt))  # type: ignore[attr-defined]
