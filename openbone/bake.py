"""Baking an animation into NumPy arrays (`openbone bake`).

A bake plays one animation on track 0 (looping, no mix) and samples the pose at
``times = [0, dt, dt + dt, ...]`` with ``dt = 1 / fps``: frame 0 is the pose after
``advance(0)``, frame k the pose after k further ``advance(dt)`` calls.  Times are
summed in double exactly as the runtime sums them (§12), so frame k is *not* at
``k * dt`` but at the k-fold sum, and the arrays equal what a host that calls
``inst.advance(dt)`` once per frame sees.

Arrays written (``F`` frames, ``B`` bones, ``S`` slots):

* ``times`` ``(F,)``, ``world`` ``(F, B, 6)`` ``[a, b, c, d, x, y]`` (from the C
  ``inst.bake(dt, steps)`` loop when the build has it, else one ``advance`` per frame);
* ``slot_colors`` ``(F, S, 4)``, ``draw_order`` ``(F, S)`` (slot indices, back to front);
* the draw list of every frame, concatenated (only when the build has
  ``inst.draw_list()``): ``draw_vertices`` ``(V, 2)`` float32, ``draw_uvs``
  ``(V, 2)``, ``draw_indices`` ``(K,)`` uint32 into ``draw_vertices`` (so item r's
  triangles are ``draw_vertices[draw_indices[s:s + c]]`` with ``s, c`` its index start
  and count), and one row per item: ``item_frame``, ``item_slot`` (document slot
  index), ``item_vertex_start``, ``item_vertex_count``, ``item_index_start``,
  ``item_index_count``, ``item_color`` ``(I, 4)``; ``frame_items`` ``(F + 1,)``
  offsets into the items (frame k's items are rows ``frame_items[k]:frame_items[k+1]``).
  Built from ``inst.draw_batch()`` (one C call per frame) when the build has it.
* names: ``bone_names``, ``slot_names``, ``animation``, ``skin``, ``fps``, ``rig``.
"""
from __future__ import annotations

import math
import os
import sys
import warnings
from typing import Any, Dict, List, Optional, Union

import numpy as np

from .document import Document, OpenBoneError
from .instance import Instance


MAX_FRAMES = 100_000_000  # frames of one bake (Instance.bake's limit too; README "Limits")
MAX_BYTES = 1 << 32  # bytes of one bake's (frames, bones, 6) world array


def check_size(frames: int, bones: int) -> None:
    """Refuses (OpenBoneError) a bake past MAX_FRAMES frames or MAX_BYTES of world matrices."""
    if frames > MAX_FRAMES or frames * max(bones, 1) * 48 > MAX_BYTES:
        raise OpenBoneError(f"a bake of {frames} frames of {bones} bones is too large (at most {MAX_FRAMES} frames "
                            f"and {MAX_BYTES >> 30} GiB of world matrices; bake in parts)")


def frame_count(seconds: float, fps: float) -> int:
    """Frames covering ``[0, seconds)`` at ``fps``: ``ceil(seconds * fps)`` (at least 1).

    A looping animation of length T baked with ``seconds = T`` therefore ends one
    frame before it wraps, so the frames tile when played in a loop.  The 1e-9
    guards products like ``1.2 * 30 = 36.00000000000001``."""
    if not (fps > 0) or not math.isfinite(fps):
        raise OpenBoneError(f"fps must be a positive number, got {fps!r}")
    if not (seconds >= 0) or not math.isfinite(seconds):
        raise OpenBoneError(f"seconds must be a non-negative number, got {seconds!r}")
    n = seconds * fps - 1e-9
    if not n <= MAX_FRAMES:
        raise OpenBoneError(f"{seconds:g} s at {fps:g} fps is more than the {MAX_FRAMES} frames a bake may have")
    return max(1, int(math.ceil(n)))


def summed_times(dt: float, frames: int) -> np.ndarray:
    """``[0, dt, dt + dt, ...]`` summed in double as the runtime sums time (§12)."""
    out = np.empty(frames, dtype=np.float64)
    t = 0.0
    for k in range(frames):
        out[k] = t
        t += dt
    return out


def has_animation_api(inst: Any) -> bool:
    return hasattr(inst, "set_animation")


def start_animation(inst: Instance, animation: Optional[str]) -> None:
    """Play ``animation`` looping on track 0 without a mix (nothing when None)."""
    if animation is None:
        return
    if inst.document.animation_index(animation) < 0:
        raise OpenBoneError(f"no animation named {animation!r} "
                            f"(the rig has: {', '.join(a.name for a in inst.document.animations) or 'none'})")
    if not has_animation_api(inst):
        warnings.warn("this build of openbone cannot play animations yet (no Instance.set_animation): "
                      "the setup pose is used", RuntimeWarning, stacklevel=3)
        return
    inst.set_animation(0, animation, True, 0.0)


def _as_slot_index(doc: Document, slot: Any) -> int:
    if slot is None:
        return -1
    if isinstance(slot, (int, np.integer)):
        return int(slot)
    return doc.slot_index(str(slot))


def _progress(total: int, enabled: Optional[bool], desc: str):
    """A tqdm bar (when tqdm is installed) for long loops; None otherwise."""
    if enabled is None:
        enabled = total >= 2000 and sys.stderr.isatty()
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit="frame", file=sys.stderr, leave=False)


def bake(doc: Union[Document, str, os.PathLike], animation: Optional[str] = None, fps: Optional[float] = None,
         skin: Optional[str] = None, seconds: Optional[float] = None, frames: Optional[int] = None,
         slots: bool = True, draw: bool = True, progress: Optional[bool] = None) -> Dict[str, np.ndarray]:
    """Bake ``animation`` of ``doc`` (a Document or a path) into a dict of arrays.

    ``fps`` defaults to the document's fps, ``animation`` to the first animation
    (the setup pose when the rig has none), ``seconds`` to the animation's length
    (§5.1 animationDuration; 1 s without an animation).  ``frames`` overrides
    ``seconds``.  ``slots`` / ``draw`` switch the per-frame slot and draw-list
    arrays (these need one ``advance`` per frame in Python; ``world`` alone is a
    single C call when the build has ``Instance.bake``)."""
    if not isinstance(doc, Document):  # a path: OpenBone, or a Spine skeleton imported on the fly
        from .spine.source import load_rig
        doc = load_rig(os.fspath(doc))[0]
    if fps is None:
        fps = doc.fps if doc.fps > 0 else 30.0
    if animation is None and doc.animations:
        animation = doc.animations[0].name
    if frames is None:
        if seconds is None:
            ai = doc.animation_index(animation) if animation is not None else -1
            seconds = doc.animations[ai].length if ai >= 0 else 1.0
        frames = frame_count(seconds, fps)
    if frames < 1:
        raise ValueError("a bake needs at least one frame")
    dt = 1.0 / fps
    nb, ns = len(doc.bones), len(doc.slots)
    check_size(frames, nb)

    def fresh() -> Instance:
        inst = Instance(doc, skin=skin)
        start_animation(inst, animation)
        inst.advance(0.0)
        return inst

    out: Dict[str, np.ndarray] = {
        "times": summed_times(dt, frames),
        "bone_names": np.array(doc.bone_names, dtype=str),
        "slot_names": np.array(doc.slot_names, dtype=str),
        "animation": np.array(animation or ""),
        "skin": np.array(skin or ""),
        "fps": np.array(float(fps)),
        "rig": np.array(doc.name or ""),
    }

    inst = fresh()
    use_c_bake = hasattr(inst, "bake")
    if use_c_bake:
        world = np.empty((frames, nb, 6), dtype=np.float64)
        world[0] = inst.world
        if frames > 1:
            world[1:] = np.asarray(inst.bake(dt, frames - 1), dtype=np.float64).reshape(frames - 1, nb, 6)
        out["world"] = world
        per_frame = slots or (draw and hasattr(inst, "draw_list"))
        if per_frame:
            inst = fresh()  # the C bake advanced the first instance: replay on a new one
    else:
        per_frame = True
    draw = draw and hasattr(inst, "draw_list")

    if per_frame:
        if not use_c_bake:
            world = np.empty((frames, nb, 6), dtype=np.float64)
        colors = np.empty((frames, ns, 4), dtype=np.float64)
        order = np.empty((frames, ns), dtype=np.int32)
        verts: List[np.ndarray] = []
        uvs: List[np.ndarray] = []
        idx: List[np.ndarray] = []
        rows: List[np.ndarray] = []
        colors_i: List[np.ndarray] = []
        batched = hasattr(inst, "draw_batch")
        frame_items = np.zeros(frames + 1, dtype=np.int64)
        nv = ni = 0
        bar = _progress(frames, progress, f"bake {doc.name or 'rig'}")
        for k in range(frames):
            if k:
                inst.advance(dt)
            if not use_c_bake:
                world[k] = inst.world
            colors[k] = inst.slot_colors
            order[k] = inst.draw_order
            if draw and batched:
                b = inst.draw_batch()  # this frame's list in shared arrays; copied (C reuses them)
                it = b.items
                n_items = len(it["slot"])
                verts.append(np.array(b.vertices, dtype=np.float32).reshape(-1, 2))
                uvs.append(np.array(b.uvs, dtype=np.float32).reshape(-1, 2))
                idx.append(np.asarray(b.indices, dtype=np.uint32) + np.uint32(nv))
                cols = np.empty((n_items, 6), dtype=np.int64)
                cols[:, 0] = k
                cols[:, 1] = it["slot"]
                cols[:, 2] = np.asarray(it["first_vertex"]) + nv
                cols[:, 3] = it["vertex_count"]
                cols[:, 4] = np.asarray(it["first_index"]) + ni
                cols[:, 5] = it["index_count"]
                rows.append(cols)
                colors_i.append(np.asarray(it["color"], dtype=np.float32).reshape(-1, 4))
                nv += len(verts[-1])
                ni += len(idx[-1])
                frame_items[k + 1] = frame_items[k] + n_items
            elif draw:
                for item in inst.draw_list():
                    v = np.asarray(item.vertices, dtype=np.float32).reshape(-1, 2)
                    u = getattr(item, "uvs", None)
                    u = np.zeros_like(v) if u is None else np.asarray(u, dtype=np.float32).reshape(-1, 2)
                    ix = np.asarray(item.indices, dtype=np.uint32).reshape(-1) + np.uint32(nv)
                    verts.append(v)
                    uvs.append(u)
                    idx.append(ix)
                    rows.append(np.array([[k, _as_slot_index(doc, getattr(item, "slot", None)), nv, len(v), ni,
                                           len(ix)]], dtype=np.int64))
                    colors_i.append(np.asarray(getattr(item, "color", (1, 1, 1, 1)), dtype=np.float32)[:4]
                                    .reshape(1, 4))
                    nv += len(v)
                    ni += len(ix)
                    frame_items[k + 1] = frame_items[k + 1] + 1
                frame_items[k + 1] += frame_items[k]
            if bar is not None:
                bar.update(1)
        if bar is not None:
            bar.close()
        if not use_c_bake:
            out["world"] = world
        if slots:
            out["slot_colors"] = colors
            out["draw_order"] = order
        if draw:
            out["draw_vertices"] = np.concatenate(verts) if verts else np.zeros((0, 2), np.float32)
            out["draw_uvs"] = np.concatenate(uvs) if uvs else np.zeros((0, 2), np.float32)
            out["draw_indices"] = np.concatenate(idx) if idx else np.zeros(0, np.uint32)
            table = np.concatenate(rows) if rows else np.zeros((0, 6), np.int64)
            cols = ["item_frame", "item_slot", "item_vertex_start", "item_vertex_count", "item_index_start",
                    "item_index_count"]
            for j, name in enumerate(cols):
                out[name] = np.ascontiguousarray(table[:, j])
            out["item_color"] = np.concatenate(colors_i) if colors_i else np.zeros((0, 4), np.float32)
            out["frame_items"] = frame_items
    return out
