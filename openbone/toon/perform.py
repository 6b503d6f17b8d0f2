"""Jabbertoon characters performed by rigs (issue 15, phase B).

``rt.add_character("c", rig=char)`` ties a :class:`~openbone.toon.rig.RigCharacter` to a runtime
character: its legs come from the role map, and every ``rt.step_to(t)`` / ``rt.step(dt)`` then
poses ``char.instance`` with ``char.apply_pose(rt.pose("c"), rt.t, ...)``.  In a cartoon (§7) the
character's placement in ``rt.frame()`` gives the facing and the height fraction h (§7.2).  This is
wiring in the Python runtime class; the C scheduler knows nothing of rigs.

``bake(program, char, fps, seconds)`` runs a behaviour on a fresh copy of the character from time 0
and returns the world matrices of every frame k at t = k / fps, ``(frames, bones, 6)`` like
:meth:`openbone.Instance.bake`.  Exact in time as the channels are (§0): the frames are the same bits
whatever stepping reached those times, except for polls (§0) and the rig's physics and particles,
which see the step (``RigCharacter.apply_pose``).
"""
from __future__ import annotations

import math
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from ..bake import check_size, frame_count
from ..document import OpenBoneError
from .rig import RigCharacter


def check_rig(rt: Any, char_id: str, rig: Any) -> None:
    """A rig for ``rt.add_character(char_id, rig=...)``: a RigCharacter not performing another
    character of this runtime, and not already past the runtime's time."""
    if not isinstance(rig, RigCharacter):
        raise OpenBoneError(f"add_character({char_id!r}): rig must be an openbone.toon.RigCharacter, "
                            f"not {type(rig).__name__}")
    for other, r in rt._rigs.items():
        if r is rig and other != char_id:
            raise OpenBoneError(f"add_character({char_id!r}): this RigCharacter already performs {other!r} "
                                f"(one rig per character: make another RigCharacter)")
    if rig._time is not None and rig._time > rt.t:
        raise OpenBoneError(f"add_character({char_id!r}): the rig was posed at t = {rig._time!r}, after the "
                            f"runtime's t = {rt.t!r} (time only moves forward)")


def placement_h(h: float, aspect: float) -> float:
    """The h to pose a rig with for a placement of height fraction ``h`` on a stage of ``aspect`` =
    W / H: channels are 1080p pixels scaled by min(W, H) / 1080 (§0), so a pixel is
    height · min(W, H) / (1080 · h · H) rig units, i.e. RigCharacter's pixel with h / min(aspect, 1)."""
    return h / min(aspect, 1.0) if aspect > 0 and math.isfinite(aspect) else h


def _placements(rt: Any) -> Optional[Dict[str, Mapping[str, Any]]]:
    """The characters' placements and poses from ``rt.frame()`` once a cartoon has been started on
    this runtime (the stage then owns facing and h, §7.2), else None."""
    if not getattr(rt, "_cartoon_started", False):
        return None
    frame = rt.frame()
    return frame.get("characters") or {}


def pose_rigs(rt: Any) -> None:
    """Pose every rigged character of ``rt`` at ``rt.t`` (called after each step)."""
    t = rt.t
    placed = _placements(rt)
    aspect = getattr(rt, "aspect", 16 / 9)
    for char_id, char in rt._rigs.items():
        p = placed.get(char_id) if placed is not None else None
        if p is not None:
            facing = p.get("facing")
            facing = 1 if not isinstance(facing, (int, float)) or facing >= 0 else -1   # a glide through 0 turns
            h = p.get("h")
            h = placement_h(float(h), aspect) if isinstance(h, (int, float)) and h > 0 else None
            pose = p.get("pose")
            char.apply_pose(pose if pose is not None else rt.pose(char_id), t, facing=facing, h=h)
        else:
            char.apply_pose(rt.pose(char_id), t)


def _fresh(char: Any) -> RigCharacter:
    if isinstance(char, RigCharacter):
        return char.fresh()
    return RigCharacter(char)   # a Document or a path: its guessed role map


def bake(program: Any, char: Any, fps: float = 24, seconds: Optional[float] = None, *, dur: Any = None,
         params: Optional[Dict[str, Any]] = None, seed: Any = 0, inputs: Optional[Dict[str, Any]] = None,
         stage: bool = False, times: bool = False):
    """World matrices ``(frames, bones, 6)`` ``[a, b, c, d, x, y]`` of ``char`` performing the
    behaviour ``program`` (a dict, JSON text or a compiled Program), frame k at t = k / fps for
    k = 0 .. ceil(seconds · fps) − 1 (``seconds`` defaults to ``dur``, else 4).

    ``char`` is a RigCharacter (a fresh copy with its role map, skin, base animation, h and
    facing is used: ``char`` itself is not moved) or a Document / path (its guessed role map).
    ``stage=True`` gives the matrices as the stage sees them (mirrored by facing × the art's facing,
    ``RigCharacter.world``); by default they are the instance's, in the rig's own frame, as
    ``Instance.bake`` gives them.  ``times=True`` returns ``(times, world)``."""
    from .runtime import compile_program, create_runtime, to_number
    compiled = compile_program(program)
    if compiled.kind != "behaviour":
        raise OpenBoneError(f"toon.bake runs a behaviour, not a {compiled.kind} (render a cartoon with "
                            f"openbone toon render --cast)")
    if isinstance(fps, bool) or not isinstance(fps, (int, float)):
        raise OpenBoneError(f"fps must be a number, got {type(fps).__name__}")
    if seconds is None:
        d = None if dur is None else to_number(dur)
        seconds = d if d is not None and math.isfinite(d) and d >= 0 else 4.0
    n = frame_count(float(seconds), float(fps))
    rig = _fresh(char)
    nb = len(rig.document.bones)
    check_size(n, nb)
    rt = create_runtime(seed=seed, fps=fps)
    rt.add_character("c", rig=rig)
    if inputs:
        if not isinstance(inputs, dict):
            raise OpenBoneError("inputs is a dict {loud, talking}")
        rt.set_inputs("c", **{k: v for k, v in inputs.items() if k in ("loud", "talking")})
    rt.start_behaviour("c", compiled, dur=dur, params=params)
    out = np.empty((n, nb, 6), dtype=np.float64)
    ts = np.empty(n, dtype=np.float64)
    for k in range(n):
        t = k / fps   # §0: the renderer calls stepTo(frame / fps)
        rt.step_to(t)
        ts[k] = t
        out[k] = rig.world if stage else rig.instance.world
    return (ts, out) if times else out


def frame_times(fps: float, seconds: float) -> Tuple[int, np.ndarray]:
    """(frames, times): k / fps for k = 0 .. ceil(seconds · fps) − 1 (the timeline clock, §0)."""
    n = frame_count(float(seconds), float(fps))
    return n, np.array([k / fps for k in range(n)], dtype=np.float64)
