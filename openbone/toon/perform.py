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
import os
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


FLAP_HZ = 5.0   # the mouth's flap while a cartoon's line is spoken (§7.4), syllables a second


def talking_mouth(pose: Mapping[str, Any], talking: Any, t: float) -> Mapping[str, Any]:
    """§7.4: while a character speaks a line (``talking`` 1 in the frame) and no behaviour drives its
    mouth (the pose's mouth is 0), the renderer flaps it: mouth = (1 − cos(2π · FLAP_HZ · t)) / 2, a
    function of the runtime's time only (the same bits whatever the stepping)."""
    if talking != 1 or pose.get("mouth", 0) != 0:
        return pose
    return dict(pose, mouth=0.5 - 0.5 * math.cos(2 * math.pi * FLAP_HZ * t))


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
            h = placement_h(float(h), aspect) if isinstance(h, (int, float)) and 0 < h < math.inf else None
            pose = p.get("pose")
            pose = talking_mouth(pose if pose is not None else rt.pose(char_id), p.get("talking"), t)
            char.apply_pose(pose, t, facing=facing, h=h)
        else:
            char.apply_pose(rt.pose(char_id), t)


def _fresh(char: Any, who: str = "char") -> RigCharacter:
    from ..document import Document
    if isinstance(char, RigCharacter):
        return char.fresh()
    if not isinstance(char, (Document, str, os.PathLike)):
        raise OpenBoneError(f"toon.bake: {who} is a RigCharacter, a Document or a rig's path, "
                            f"not {type(char).__name__}")
    return RigCharacter(char)   # a Document or a path: its guessed role map


def bake(program: Any, char: Any, fps: float = 24, seconds: Optional[float] = None, *, dur: Any = None,
         params: Optional[Dict[str, Any]] = None, seed: Any = 0, inputs: Optional[Dict[str, Any]] = None,
         stage: bool = False, times: bool = False, **runtime: Any):
    """World matrices ``(frames, bones, 6)`` ``[a, b, c, d, x, y]`` of ``char`` performing the
    behaviour ``program`` (a dict, JSON text or a compiled Program), frame k at t = k / fps for
    k = 0 .. ceil(seconds · fps) − 1 (``seconds`` defaults to ``dur``, else 4).

    ``char`` is a RigCharacter (a fresh copy with its role map, skin, base animation, h and
    facing is used: ``char`` itself is not moved) or a Document / path (its guessed role map).
    ``stage=True`` gives the matrices as the stage sees them (mirrored by facing × the art's facing,
    ``RigCharacter.world``); by default they are the instance's, in the rig's own frame, as
    ``Instance.bake`` gives them.  ``times=True`` returns ``(times, world)``.

    A scene or cartoon (§7; a cartoon pack's content too) takes ``char`` as {cast id: rig} and
    returns {id: world} (``seconds`` defaulting to the cartoon's duration); each rig is placed by
    the stage (facing, h).  ``runtime`` keywords (speech, packs, aspect, max_duration) go to
    ``create_runtime``."""
    from .runtime import compile_program, create_runtime, to_number
    if isinstance(fps, bool) or not isinstance(fps, (int, float)):
        raise OpenBoneError(f"fps must be a number, got {type(fps).__name__}")
    if not (fps > 0) or not math.isfinite(fps):
        raise OpenBoneError(f"fps must be a positive number, got {fps!r}")
    kind = _program_kind(program)
    if kind != "behaviour":
        return _bake_cartoon(program, char, fps, seconds, params, seed, stage, times, runtime)
    compiled = compile_program(program)
    if seconds is None:
        d = None if dur is None else to_number(dur)
        seconds = d if d is not None and math.isfinite(d) and d >= 0 else 4.0
    n = frame_count(float(seconds), float(fps))
    rig = _fresh(char)
    nb = len(rig.document.bones)
    check_size(n, nb)
    rt = create_runtime(seed=seed, fps=fps, **runtime)
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


def _program_kind(program: Any) -> str:
    """"behaviour", "scene" or "cartoon" (a cartoon pack's content {cast?, places?, program} too)."""
    from .runtime import compile_program
    if isinstance(program, Mapping) and "program" in program and "scripts" not in program:
        return "cartoon"
    return compile_program(program).kind


def cast_order(program: Any) -> list:
    """The cast ids of a scene or cartoon (a pack's content: its outer cast, then the program's),
    in JavaScript's Object.keys order (§7.8: array-index ids ascending, then the others as written)."""
    ids: list = []
    if isinstance(program, (str, bytes)):
        import json
        try:
            program = json.loads(program)
        except ValueError:
            return ids
    if isinstance(program, Mapping) and "program" in program and "scripts" not in program:
        ids += list((program.get("cast") or {}).keys()) if isinstance(program.get("cast"), Mapping) else []
        program = program.get("program")
    cast = program.get("cast") if isinstance(program, Mapping) else None
    if isinstance(cast, Mapping):
        ids += [k for k in cast if k not in ids]

    def index(k: str) -> Optional[int]:
        if isinstance(k, str) and k.isascii() and k.isdigit() and (k == "0" or k[0] != "0") and int(k) < 2 ** 32 - 1:
            return int(k)
        return None
    return [k for _, k in sorted((index(k), k) for k in ids if index(k) is not None)] + \
        [k for k in ids if index(k) is None]


def _bake_cartoon(program, chars, fps, seconds, params, seed, stage, times, runtime):
    from .runtime import create_runtime
    if not isinstance(chars, Mapping):
        raise OpenBoneError("toon.bake of a scene or cartoon takes {cast id: rig} for char")
    rt = create_runtime(seed=seed, fps=fps, **runtime)
    if not hasattr(rt, "start_cartoon"):   # pragma: no cover - builds before issue 14
        raise OpenBoneError("this build of openbone.toon cannot run cartoons yet")
    rigs = {cid: _fresh(c, f"char[{cid!r}]") for cid, c in chars.items()}
    order = cast_order(program)
    for cid in order + [c for c in rigs if c not in order]:
        if cid in rigs:
            rt.add_character(cid, rig=rigs[cid])
    t0 = rt.t
    res = rt.start_cartoon(program, params=params)
    if seconds is None:
        seconds = res.get("duration")
        if seconds is None or not math.isfinite(seconds):
            raise OpenBoneError("the cartoon does not end within max_duration: give seconds")
    n = frame_count(float(seconds), float(fps))
    for r in rigs.values():
        check_size(n, len(r.document.bones))
    out = {cid: np.empty((n, len(r.document.bones), 6), dtype=np.float64) for cid, r in rigs.items()}
    ts = np.empty(n, dtype=np.float64)
    for k in range(n):
        t = t0 + k / fps   # the cartoon's own frames (§7.7)
        rt.step_to(t)
        ts[k] = t
        for cid, r in rigs.items():
            out[cid][k] = r.world if stage else r.instance.world
    return (ts, out) if times else out


def frame_times(fps: float, seconds: float) -> Tuple[int, np.ndarray]:
    """(frames, times): k / fps for k = 0 .. ceil(seconds · fps) − 1 (the timeline clock, §0)."""
    n = frame_count(float(seconds), float(fps))
    return n, np.array([k / fps for k in range(n)], dtype=np.float64)
