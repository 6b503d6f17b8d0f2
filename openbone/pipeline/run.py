"""Running tasks: one function a local loop, a process pool or a Dask worker calls.

:func:`run_task` never raises for a bad rig or a failed write: it returns the task's
manifest record, with ``error`` set, so that one failure does not stop the rest.  The
record: ``input``, ``skin``, ``animation``, ``frames``, ``output``, ``sha256``, ``time``
(seconds the task took), ``error`` (None), plus ``kind`` and, for sheets, ``table`` and
``animations``.
"""
from __future__ import annotations

import json
import os
import time
import traceback
from typing import Any, Dict, List, Optional, Tuple

from ..document import Document
from .store import sha256_of, write_npz, write_zarr
from .tasks import Task, load_rig

_DOCS: Dict[Tuple[str, float, int], Document] = {}


def _doc(path: str) -> Document:
    """Documents loaded once per process (keyed by path, mtime and size)."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_mtime, st.st_size)
    doc = _DOCS.get(key)
    if doc is None:
        if len(_DOCS) > 64:
            _DOCS.clear()
        doc = _DOCS[key] = load_rig(path)
    return doc


def record(task: Task, frames: int = 0, sha: Optional[str] = None, seconds: float = 0.0,
           error: Optional[str] = None, **extra: Any) -> Dict[str, Any]:
    out = {"kind": task.kind, "input": task.rig, "skin": task.skin,
           "animation": task.animation if task.kind != "sheet" else None,
           "frames": frames, "output": task.output, "sha256": sha, "time": round(seconds, 6), "error": error}
    out.update(extra)
    return out


def _bake(task: Task) -> Dict[str, Any]:
    from ..bake import bake
    o = task.options
    doc = _doc(task.rig)
    arrays = bake(doc, animation=task.animation, fps=o.get("fps"), skin=task.skin, seconds=o.get("seconds"),
                  frames=o.get("frames"), slots=o.get("slots", True), draw=o.get("draw", True),
                  progress=o.get("progress", False))
    os.makedirs(os.path.dirname(os.path.abspath(task.output)), exist_ok=True)
    if o.get("format", "npz") == "zarr":
        write_zarr(task.output, arrays, overwrite=task.overwrite)
    else:
        write_npz(task.output, arrays, overwrite=task.overwrite)
    return {"frames": int(arrays["times"].shape[0]), "bones": int(arrays["world"].shape[1]),
            "draw": "draw_vertices" in arrays}


def _frames_for(doc: Document, animation: Optional[str], spec: Optional[str], fps: float) -> List[int]:
    from ..bake import frame_count
    from ..render import parse_frames
    count = None
    if animation is not None:
        count = frame_count(doc.animations[doc.animation_index(animation)].length, fps)
    return parse_frames(spec, count)


def _render(task: Task) -> Dict[str, Any]:
    from ..render import pose_svg, render_frames, save_images
    from ..render.output import check_extension
    o = task.options
    doc = _doc(task.rig)
    fps = o.get("fps") or doc.fps or 30.0
    frames = _frames_for(doc, task.animation, o.get("frames_spec"), fps)
    ext = check_extension(task.output)
    kw = {k: o[k] for k in ("bones", "attachments", "boxes", "background") if k in o}
    os.makedirs(os.path.dirname(os.path.abspath(task.output)), exist_ok=True)
    if ext == ".svg":
        from ..atomic import write_text
        from ..bake import start_animation
        from ..instance import Instance
        from ..render import View, drawn_points
        if len(frames) != 1:
            raise ValueError("an .svg shows one frame (--frames N)")
        inst = Instance(doc, skin=task.skin)
        start_animation(inst, task.animation)
        inst.advance(0.0)
        for _ in range(frames[0]):
            inst.advance(1.0 / fps)
        view = View.fit([drawn_points(inst, attachments=kw.get("attachments", True), bones=bool(kw.get("bones", True)))],
                        scale=o.get("scale", 1.0)) if o.get("fit") else None
        write_text(task.output, pose_svg(inst, view=view, scale=o.get("scale", 1.0),
                                         **{k: kw[k] for k in ("bones", "boxes", "attachments", "background")
                                            if k in kw}), overwrite=task.overwrite)
        return {"frames": 1}
    images = render_frames(doc, frames, animation=task.animation, fps=fps, skin=task.skin,
                           scale=o.get("scale", 1.0), fit=o.get("fit", False), **kw)
    if o.get("size"):
        from PIL import Image
        images = [im.resize(tuple(o["size"]), Image.LANCZOS) for im in images]
    steps = {b - a for a, b in zip(frames, frames[1:])}
    step = steps.pop() if len(steps) == 1 else 1
    save_images(images, task.output, fps=fps / max(1, step), columns=o.get("columns"), overwrite=task.overwrite)
    w, h = images[0].size
    return {"frames": len(images), "size": [w, h]}


def _sheet(task: Task) -> Dict[str, Any]:
    """Every frame of every animation of the task, one fitted view for all (so the
    skeleton origin, the pivot, sits at the same pixel in every frame)."""
    from ..bake import start_animation
    from ..instance import Instance
    from ..render import Textures, View, drawn_points, render_pose
    from ..render.output import save_sprite_sheet
    o = task.options
    doc = _doc(task.rig)
    fps = o.get("fps") or doc.fps or 30.0
    dt = 1.0 / fps
    poses = []
    for anim in task.animations or [None]:
        frames = _frames_for(doc, anim, o.get("frames_spec") or ("all" if anim is not None else "0"), fps)
        inst, k = Instance(doc, skin=task.skin), 0
        start_animation(inst, anim)
        inst.advance(0.0)
        for f in sorted(set(frames)):
            while k < f:
                inst.advance(dt)
                k += 1
            poses.append((anim, f, inst.copy()))
    scale = o.get("scale", 1.0)
    view = View.fit([drawn_points(p, attachments=o.get("attachments", True), bones=bool(o.get("bones", False)))
                     for _, _, p in poses], scale=scale) if o.get("fit", True) else \
        View.artboard(doc, scale)
    pivot = tuple(view.to_px([[0.0, 0.0]])[0])
    textures = Textures(doc)
    kw = {k: o[k] for k in ("bones", "attachments", "boxes") if k in o}
    kw.setdefault("bones", False)
    kw.setdefault("boxes", False)
    rig = os.path.splitext(os.path.basename(task.rig))[0]
    frames = [{"image": render_pose(p, view=view, textures=textures, background=None, **kw),
               "name": f"{rig}/{anim or 'setup'}/{f}", "animation": anim or "setup", "pivot": pivot}
              for anim, f, p in poses]
    os.makedirs(os.path.dirname(os.path.abspath(task.output)), exist_ok=True)
    _, table_path, table = save_sprite_sheet(frames, task.output, fps, overwrite=task.overwrite,
                                             trim=o.get("trim", True))
    return {"frames": len(frames), "table": table_path, "animations": list(table["animations"]),
            "size": [table["meta"]["size"]["w"], table["meta"]["size"]["h"]]}


def run_task(task: Task) -> Dict[str, Any]:
    """Run one task; its manifest record (``error`` set instead of raising)."""
    t0 = time.perf_counter()
    if task.error:
        return record(task, error=task.error)
    try:
        extra = {"bake": _bake, "render": _render, "sheet": _sheet}[task.kind](task)
    except (OSError, ValueError, ImportError, MemoryError) as e:  # OpenBoneError is a ValueError
        msg = (e.strerror if isinstance(e, OSError) and e.strerror else str(e)) or type(e).__name__
        if isinstance(e, OSError) and e.filename and str(e.filename) not in msg:
            msg = f"{msg}: {e.filename}"
        return record(task, seconds=time.perf_counter() - t0, error=msg.splitlines()[0])
    except Exception as e:  # a bug must not stop the other tasks either; report it whole
        return record(task, seconds=time.perf_counter() - t0,
                      error=f"{type(e).__name__}: {e} ({traceback.format_exc(limit=3).splitlines()[-2].strip()})")
    frames = extra.pop("frames", 0)
    sha = sha256_of(task.output)
    if task.kind == "sheet":
        extra["table_sha256"] = sha256_of(extra["table"])
    return record(task, frames, sha, time.perf_counter() - t0, None, **extra)


def run_batch(tasks: List[Task]) -> List[Dict[str, Any]]:
    """Several tasks in one call (one Dask task): their records, in order."""
    return [run_task(t) for t in tasks]


def manifest_json(records: List[Dict[str, Any]]) -> str:
    return json.dumps(records, indent=1)
