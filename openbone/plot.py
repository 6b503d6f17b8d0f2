"""Matplotlib plots for notebooks and debugging (``pip install 'openbone[plot]'``).

* :func:`plot_pose` — the current pose of an instance (draw-list polygons in slot
  colours, or the skia-rendered textured picture, clipping/bounding-box outlines,
  bones: all or a subset, labelled, one highlighted) in skeleton space (y up);
* :func:`plot_compare` — two poses overlaid (two instances, or an instance and a golden
  frame of world matrices) and the per-bone deviation;
* :func:`plot_curve` — a §4.3 key curve over 0..1 (``openbone.eval_curve``, in
  C, vectorised; :func:`eval_curve_py` is a plain-Python transcription of §4.3 kept as a reference);
* :func:`plot_timeline` — the keys of one timeline and its sampled value over time (§5);
* :func:`plot_physics` — the arrays of a physics trace (``inst.trace_physics``) over time;
* :func:`animate` — a :class:`matplotlib.animation.FuncAnimation` of an instance playing;
* :func:`plot_channels` — Jabbertoon pose channels over time (``openbone.toon.record``);
* :func:`plot_cartoon_timeline` — a Jabbertoon cartoon's timeline (``rt.timeline``) as a Gantt chart.

Every function takes ``ax=None`` (a new figure) and returns the axes it drew on
(:func:`plot_compare` the figure).  None of them changes the instance it is given: they
draw a copy (``Instance.copy()``), so the caller's time, tracks and draw-list buffers stay
as they were.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from .render import BONE_COLOR, BOX_COLOR, CLIP_COLOR, _boundary_edges, draw_items, outlines, parse_hex

HIGHLIGHT = (1.0, 0.55, 0.0, 1.0)

Curve = Union[str, Sequence[float]]


def _plt():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover
        raise ImportError("openbone.plot needs matplotlib: pip install 'openbone[plot]'") from e
    return plt


def _ax(ax):
    if ax is None:
        _, ax = _plt().subplots()
    return ax


# ---- curves (§4.3) ---------------------------------------------------------

def eval_curve_py(curve: Curve, t: Union[float, np.ndarray]) -> Union[float, np.ndarray]:
    """§4.3 evalCurve in plain Python (a reference for plots and notebooks).

    ``"linear"`` ⇒ t; ``"stepped"`` ⇒ 0 below 1, 1 at t ≥ 1 (the left key holds; sampling
    handles it, §5); a bezier ``[x1, y1, x2, y2]`` by bisection: first probe s = t, 24
    halvings, stop when |bx(s) − t| < 1e-6; y is not clamped."""
    arr = np.asarray(t, dtype=np.float64)
    flat = arr.reshape(-1)
    out = np.empty_like(flat)
    for i, x in enumerate(flat):
        out[i] = _eval1(curve, float(x))
    return float(out[0]) if arr.ndim == 0 else out.reshape(arr.shape)


def _eval1(curve: Curve, t: float) -> float:
    if curve is None or curve == "linear":
        return t
    if curve == "stepped":
        return 1.0 if t >= 1 else 0.0
    x1, y1, x2, y2 = (float(v) for v in curve)

    def bez(s: float, p1: float, p2: float) -> float:
        u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s

    lo, hi, s = 0.0, 1.0, t
    for _ in range(24):
        e = bez(s, x1, x2) - t
        if abs(e) < 1e-6:
            break
        if e > 0:
            hi = s
        else:
            lo = s
        s = (lo + hi) / 2
    return bez(s, y1, y2)


def eval_curve(curve: Curve, t: Union[float, np.ndarray]) -> Union[float, np.ndarray]:
    """``openbone.eval_curve``: §4.3 vectorised in C (accepts any sequence of 4 handles)."""
    import openbone
    return openbone.eval_curve(curve if isinstance(curve, str) else list(curve), t)


def plot_curve(curve: Curve, ax=None, samples: int = 401, label: Optional[str] = None, handles: bool = True, **style):
    """The curve's value over t in [0, 1]; for a bezier also its control polygon."""
    ax = _ax(ax)
    t = np.linspace(0.0, 1.0, samples)
    y = np.asarray(eval_curve(curve, t), dtype=np.float64)
    name = label if label is not None else (curve if isinstance(curve, str) else f"bezier {list(curve)}")
    ax.plot(t, y, label=name, **style)
    if handles and not isinstance(curve, str):
        x1, y1, x2, y2 = curve
        ax.plot([0, x1], [0, y1], ":", color="gray", lw=0.8)
        ax.plot([1, x2], [1, y2], ":", color="gray", lw=0.8)
        ax.plot([x1, x2], [y1, y2], "o", color="gray", ms=3)
    ax.set_xlabel("t (fraction of the key span)")
    ax.set_ylabel("curve value")
    return ax


# ---- timelines (§5) --------------------------------------------------------

def timelines(doc, animation: str) -> List[Dict[str, Any]]:
    """The raw timeline dicts of ``animation`` (by name, then id) from ``doc.json``."""
    i = doc.animation_index(animation)
    if i < 0:
        raise KeyError(f"no animation {animation!r}")
    d = json.loads(doc.json)
    return list((d.get("animations") or [])[i].get("timelines") or [])


def _find_timelines(doc, animation: str, target: Union[int, str], prop: Optional[str]) -> List[Dict[str, Any]]:
    tls = timelines(doc, animation)
    if isinstance(target, int):
        return [tls[target]]
    ids = {target}
    for items in (doc.bones, doc.slots, doc.constraints):
        for it in items:
            if it.name == target or it.id == target:
                ids.add(it.id)
    found = [t for t in tls if t.get("id") in ids and (prop is None or t.get("property") == prop)]
    if not found:
        raise KeyError(f"animation {animation!r} has no timeline for {target!r}"
                       + (f" property {prop!r}" if prop else ""))
    return found


def _key_value(v: Any) -> np.ndarray:
    if isinstance(v, str):
        return np.asarray(parse_hex(v), dtype=np.float64)
    if isinstance(v, bool):
        return np.asarray([float(v)])
    if isinstance(v, (int, float)):
        return np.asarray([float(v)])
    if isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
        return np.asarray(v, dtype=np.float64)
    return np.asarray([np.nan])


def sample_timeline(keys: Sequence[Dict[str, Any]], times: np.ndarray) -> np.ndarray:
    """§5 locate + evalCurve + lerp at each time (values as arrays; colours as RGBA)."""
    ktimes = np.asarray([float(k.get("time", 0)) for k in keys])
    vals = [_key_value(k.get("value")) for k in keys]
    width = max(len(v) for v in vals)
    vals = [np.pad(v, (0, width - len(v))) for v in vals]
    out = np.empty((len(times), width))
    for j, time in enumerate(np.asarray(times, dtype=np.float64)):
        if time <= ktimes[0]:
            out[j] = vals[0]
            continue
        if time >= ktimes[-1]:
            out[j] = vals[-1]
            continue
        a = int(np.searchsorted(ktimes, time, side="right")) - 1
        b = a + 1
        span = ktimes[b] - ktimes[a]
        f = (time - ktimes[a]) / (span or 1)
        curve = keys[a].get("curve", "linear")
        if curve == "stepped":
            out[j] = vals[a]
        else:
            t = float(eval_curve(curve, f))
            out[j] = vals[a] + (vals[b] - vals[a]) * t
    return out


def _target_name(doc, target: Optional[str], ident: Optional[str]) -> str:
    """The name of a timeline's target (a bone, slot, constraint... by id), else its id."""
    groups = {"bone": doc.bones, "slot": doc.slots}
    for items in ([groups[target]] if target in groups else []) + [doc.bones, doc.slots, doc.constraints,
                                                                   doc.state_machines]:
        for it in items:
            if it.id == ident:
                return it.name
    return str(ident)


def plot_timeline(doc, animation: str, target: Union[int, str], prop: Optional[str] = None, ax=None,
                  samples: int = 400):
    """Keys (markers) and the interpolated value (lines) of the timelines of ``target`` (a
    bone/slot/constraint name or id, or a timeline index) in ``animation``; ``prop``
    picks one property.  Keys are read from ``doc.json``; the value between them follows
    §5 (stepped holds, curves through :func:`eval_curve`)."""
    ax = _ax(ax)
    anim = doc.animations[doc.animation_index(animation)]
    found = _find_timelines(doc, animation, target, prop)
    end = max([anim.length] + [float(k.get("time", 0)) for t in found for k in t.get("keys") or []])
    ts = np.linspace(0.0, end if end > 0 else 1.0, samples)
    for tl in found:
        keys = tl.get("keys") or []
        if not keys:
            continue
        ys = sample_timeline(keys, ts)
        kt = [float(k.get("time", 0)) for k in keys]
        kv = np.stack([_key_value(k.get("value")) for k in keys]) if keys else None
        label = f"{_target_name(doc, tl.get('target'), tl.get('id'))} {tl.get('property') or ''}".strip()
        channels = ys.shape[1]
        names = "rgba" if isinstance(keys[0].get("value"), str) and channels == 4 else None
        for c in range(channels):
            lab = label + (f" {names[c]}" if names else (f"[{c}]" if channels > 1 else ""))
            line, = ax.plot(ts, ys[:, c], label=lab)
            if kv is not None and c < kv.shape[1]:
                ax.plot(kt, kv[:, c], "o", color=line.get_color(), ms=4)
    ax.axvline(anim.length, color="gray", lw=0.8, ls="--")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("value")
    ax.set_title(f"{anim.name}: {target}" + (f".{prop}" if prop else ""))
    ax.legend(fontsize="small")
    return ax


# ---- pose ------------------------------------------------------------------

def _bone_set(doc, refs) -> Optional[List[int]]:
    """None for every bone; else the indices of the named bones (names or ids)."""
    if refs is True or refs is None:
        return None
    if refs is False:
        return []
    if isinstance(refs, str):
        refs = [refs]
    out = []
    for r in refs:
        i = doc.bone_index(r)
        if i < 0:
            raise KeyError(f"no bone named {r!r}")
        out.append(i)
    return out


def plot_pose(inst, ax=None, bones: Union[bool, Sequence[str]] = True, attachments: bool = True, boxes: bool = True,
              labels: Union[bool, Sequence[str]] = False, wireframe: bool = False, textured: bool = False,
              highlight: Union[None, str, Sequence[str]] = None, scale: float = 2.0):
    """The instance's current pose in skeleton space (y up).

    ``textured=True`` shows the picture the skia renderer draws (textures, blend modes,
    clipping) as an image placed in skeleton coordinates; otherwise draw-list triangles
    are filled with their colours.  Clipping masks (magenta) and bounding boxes (green)
    are outlined.  ``bones``: True, False or the names of the bones to draw;
    ``labels``: True labels the bones drawn, or a list of names to label;
    ``highlight``: a bone or slot name (or several) drawn in orange, labelled.
    The instance is not changed (a copy is drawn)."""
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.patches import Polygon
    ax = _ax(ax)
    inst = inst.copy() if hasattr(inst, "copy") else inst
    doc = inst.document
    which = _bone_set(doc, bones)
    hl = [highlight] if isinstance(highlight, str) else list(highlight or [])
    hl_bones = {doc.bone_index(h) for h in hl} - {-1}
    hl_slots = {doc.slot_index(h) for h in hl} - {-1}
    if hl and not hl_bones and not hl_slots:
        raise KeyError(f"no bone or slot named {highlight!r}")
    pts = []
    items = draw_items(inst) if attachments else []
    for item in items:
        pts.append(np.asarray(item.vertices, dtype=np.float64).reshape(-1, 2))
    if attachments and textured:
        from .render import View, pose_points, render_array
        view = View.fit([pose_points(inst, items)], scale=scale, margin=10.0)
        img = render_array(inst, view=view, bones=False, boxes=False, background=None)
        x0, y1 = -view.ox, view.oy
        ax.imshow(img, extent=(x0, x0 + view.width / view.scale, y1 - view.height / view.scale, y1),
                  origin="upper", interpolation="antialiased", zorder=1)
    for item in items:
        v = np.asarray(item.vertices, dtype=np.float64).reshape(-1, 2)
        ix = np.asarray(item.indices, dtype=np.int64).reshape(-1)
        ix = ix[: len(ix) // 3 * 3]
        if not len(v) or not len(ix) or ix.max() >= len(v):
            continue
        color = np.clip(np.asarray(getattr(item, "color", (1, 1, 1, 1)), dtype=np.float64)[:4], 0, 1)
        slot = doc.slot_index(item.slot)
        if not textured:
            tris = v[ix.reshape(-1, 3)]
            ax.add_collection(PolyCollection(tris, facecolors=[color], edgecolors="none" if not wireframe else
                                             [(0, 0, 0, 0.3)], linewidths=0.4, zorder=1))
        edges = [(v[a], v[b]) for a, b in _boundary_edges(ix)]
        if slot in hl_slots:
            ax.add_collection(LineCollection(edges, colors=[HIGHLIGHT], linewidths=2.0, zorder=3,
                                             label=f"slot {item.slot}"))
        elif not textured:
            ax.add_collection(LineCollection(edges, colors=[(*(color[:3] * 0.45), 1.0)], linewidths=0.8, zorder=1))
    if boxes:
        for kind, poly in outlines(inst):
            c = np.asarray(CLIP_COLOR if kind == "clipping" else BOX_COLOR) / 255
            ax.add_patch(Polygon(poly, closed=True, fill=False, edgecolor=c, lw=1.2,
                                 ls="--" if kind == "clipping" else "-", zorder=2))
            pts.append(poly)
    label_set = set(range(len(doc.bones))) if labels is True else set(_bone_set(doc, labels or False) or [])
    if which is None:
        drawn = list(range(len(doc.bones)))
    else:
        drawn = sorted(set(which) | hl_bones)
    w = np.asarray(inst.world)
    active = np.asarray(inst.active_bones)
    bc = np.asarray(BONE_COLOR) / 255
    for i in drawn:
        b = doc.bones[i]
        if not active[i]:
            continue
        color = np.asarray(HIGHLIGHT) if i in hl_bones else bc
        a, _, c, _, x, y = w[i]
        o = np.array([x, y])
        if b.length > 0:
            tip = o + np.array([a, c]) * b.length
            d = tip - o
            n = float(np.hypot(*d))
            if n > 1e-9:
                side = np.array([-d[1], d[0]]) / n * min(0.18 * n, 4.0)
                mid = o + d * 0.15
                patch = Polygon([o, mid + side, tip, mid - side], closed=True, facecolor=(*color[:3], 0.45),
                                edgecolor=color, lw=1.6 if i in hl_bones else 0.8, zorder=4)
                patch.set_gid(f"bone:{b.name}")
                ax.add_patch(patch)
            pts.append(np.array([tip]))
        dot, = ax.plot([x], [y], "o", color=color, ms=5 if i in hl_bones else 3, zorder=5)
        dot.set_gid(f"bone-origin:{b.name}")
        pts.append(np.array([o]))
        if i in label_set or i in hl_bones:
            ax.annotate(b.name, (x, y), fontsize=8 if i in hl_bones else 7, color=color, xytext=(3, 3),
                        textcoords="offset points", zorder=6)
    if pts:
        allp = np.concatenate(pts)
        lo, hi = allp.min(axis=0), allp.max(axis=0)
        pad = max(10.0, 0.05 * float(max(hi - lo)))
        ax.set_xlim(lo[0] - pad, hi[0] + pad)
        ax.set_ylim(lo[1] - pad, hi[1] + pad)
    ax.set_aspect("equal")
    ax.set_title(f"{doc.name or 'rig'} t={getattr(inst, 'time', 0):g}")
    return ax


def _worlds(pose, doc=None) -> np.ndarray:
    """(n_bones, 6) world matrices of an instance, an array, a bake frame or a golden sample
    (a dict with "world", or a FORMAT.md sample whose "bones" are [a, b, c, d, x, y] rows or
    dicts with those keys)."""
    if hasattr(pose, "world"):
        return np.asarray(pose.world, dtype=np.float64)
    if isinstance(pose, dict):
        for k in ("world", "bones"):
            if k in pose:
                v = pose[k]
                if isinstance(v, dict) and doc is not None:  # {bone name: [...]}
                    v = [v[b.name] if b.name in v else v.get(b.id) for b in doc.bones]
                rows = [[r[k2] for k2 in "abcdxy"] if isinstance(r, dict) else r for r in v]
                return np.asarray(rows, dtype=np.float64).reshape(-1, 6)
        raise ValueError("a golden frame needs 'world' or 'bones'")
    return np.asarray(pose, dtype=np.float64).reshape(-1, 6)


def bone_deviation(a, b, doc=None) -> Dict[str, np.ndarray]:
    """Per bone: ``position`` |Δ(x, y)| of the origins, ``tip`` |Δ| of the bone tips
    (origin + length along the world x axis) and ``matrix`` max |Δ| of a, b, c, d."""
    wa, wb = _worlds(a, doc), _worlds(b, doc)
    if wa.shape != wb.shape:
        raise ValueError(f"the poses have {len(wa)} and {len(wb)} bones")
    lengths = np.array([bone.length for bone in doc.bones]) if doc is not None else np.zeros(len(wa))
    ta = wa[:, 4:6] + wa[:, [0, 2]] * lengths[:, None]
    tb = wb[:, 4:6] + wb[:, [0, 2]] * lengths[:, None]
    return {"position": np.hypot(*(wa[:, 4:6] - wb[:, 4:6]).T), "tip": np.hypot(*(ta - tb).T),
            "matrix": np.abs(wa[:, :4] - wb[:, :4]).max(axis=1)}


def plot_compare(a, b, labels: Sequence[str] = ("a", "b"), top: int = 20, fig=None):
    """Two poses overlaid, and the per-bone deviation.

    ``a`` is an Instance; ``b`` an Instance of the same rig or a golden frame (world
    matrices: an ``(n_bones, 6)`` array, a bake frame, a conformance sample).  Left: a's
    bones (blue) and b's (orange, dashed) with a red segment from each origin of a to the
    same bone's origin in b.  Right: the bones with the largest deviation (origin and tip
    distance), largest first.  Returns the figure; ``fig.deviation`` holds the arrays."""
    plt = _plt()
    from matplotlib.collections import LineCollection
    doc = a.document
    dev = bone_deviation(a, b, doc)
    wa, wb = _worlds(a, doc), _worlds(b, doc)
    if fig is None:
        fig = plt.figure(figsize=(11, 5))
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    lengths = np.array([bone.length for bone in doc.bones])
    for w, color, ls, lab in ((wa, (0.16, 0.27, 0.63, 1), "-", labels[0]), (wb, (1.0, 0.55, 0.0, 1), "--",
                                                                           labels[1])):
        segs = [(w[i, 4:6], w[i, 4:6] + w[i, [0, 2]] * lengths[i]) for i in range(len(w))]
        lc = LineCollection(segs, colors=[color], linestyles=ls, linewidths=2, label=lab)
        lc.set_gid(f"pose:{lab}")
        ax.add_collection(lc)
        ax.plot(w[:, 4], w[:, 5], "o", color=color, ms=3)
    err = LineCollection([(wa[i, 4:6], wb[i, 4:6]) for i in range(len(wa))], colors="red", linewidths=1,
                         label="deviation")
    err.set_gid("deviation")
    ax.add_collection(err)
    allp = np.concatenate([wa[:, 4:6], wb[:, 4:6]])
    pad = max(10.0, 0.05 * float(np.ptp(allp, axis=0).max()))
    ax.set_xlim(allp[:, 0].min() - pad, allp[:, 0].max() + pad)
    ax.set_ylim(allp[:, 1].min() - pad, allp[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.legend(fontsize="small")
    ax.set_title(f"{doc.name or 'rig'}: {labels[0]} vs {labels[1]}")
    order = np.argsort(-np.maximum(dev["position"], dev["tip"]), kind="stable")[:top]
    names = [doc.bones[i].name for i in order]
    y = np.arange(len(order))
    bx.barh(y - 0.2, dev["position"][order], height=0.4, label="origin")
    bx.barh(y + 0.2, dev["tip"][order], height=0.4, label="tip")
    bx.set_yticks(y)
    bx.set_yticklabels(names, fontsize=7)
    bx.invert_yaxis()
    bx.set_xlabel("deviation (skeleton units)")
    bx.set_title(f"max {float(max(dev['position'].max(), dev['tip'].max())):.3g}")
    bx.legend(fontsize="small")
    fig.deviation = dev
    fig.tight_layout()
    return fig


# ---- physics ---------------------------------------------------------------

def _trace_fields(trace: Any) -> Dict[str, np.ndarray]:
    if isinstance(trace, np.ndarray):
        return {"value": trace}
    if isinstance(trace, dict):
        items = trace.items()
    else:
        names = getattr(trace, "_fields", None) or [n for n in dir(trace) if not n.startswith("_")]
        items = ((n, getattr(trace, n)) for n in names)
    out = {}
    for k, v in items:
        if callable(v):
            continue
        try:
            a = np.asarray(v)
        except Exception:
            continue
        if a.dtype.kind in "fiub" and a.ndim >= 1:
            out[k] = a
    return out


def plot_physics(trace: Any, fields: Optional[Sequence[str]] = None, time: Optional[np.ndarray] = None,
                 axes=None):
    """Each numeric array of a physics trace over time, one panel per field.

    ``trace`` is what ``inst.trace_physics(dt, steps)`` returns (a dict or an object with
    array attributes, first axis = step) or a plain ``(steps, ...)`` array.  The x axis is
    the trace's ``time``/``times`` field when it has one, else the step number.  Trailing
    axes are flattened into separate lines (a last axis of 2 is labelled x / y)."""
    plt = _plt()
    f = _trace_fields(trace)
    if time is None:
        for k in ("time", "times", "t"):
            if k in f and f[k].ndim == 1:
                time = f[k]
                break
    keys = [k for k in (fields or f.keys()) if k in f and k not in ("time", "times", "t")]
    if not keys:
        raise ValueError("the trace has no numeric arrays to plot")
    if axes is None:
        fig, axes = plt.subplots(len(keys), 1, figsize=(7, 2.2 * len(keys)), sharex=True, squeeze=False)
        axes = axes[:, 0]
    axes = list(np.atleast_1d(axes))
    for ax, k in zip(axes, keys):
        a = f[k]
        n = a.shape[0]
        x = time[:n] if time is not None and len(time) >= n else np.arange(n)
        flat = a.reshape(n, -1).astype(np.float64)
        last = a.shape[-1] if a.ndim > 1 else 1
        for j in range(flat.shape[1]):
            if a.ndim == 1:
                lab = k
            elif last == 2:
                lab = f"{k}[{j // 2}].{'xy'[j % 2]}" if flat.shape[1] > 2 else f"{k}.{'xy'[j % 2]}"
            else:
                lab = f"{k}[{j}]"
            ax.plot(x, flat[:, j], label=lab, lw=1)
        ax.set_ylabel(k)
        if flat.shape[1] <= 8:
            ax.legend(fontsize="x-small", loc="best")
    axes[-1].set_xlabel("time (s)" if time is not None else "step")
    return axes


# ---- animation -------------------------------------------------------------

def animate(inst, animation: Optional[str] = None, frames: Optional[int] = None, fps: Optional[float] = None,
            ax=None, **pose_kw):
    """A FuncAnimation that advances a copy of ``inst`` by ``1/fps`` per frame and redraws
    the pose (``inst`` itself is not changed).

    ``animation`` (optional) is started on track 0, looping, first; ``frames`` defaults to
    the animation's length × fps (60 without one).  Save with ``anim.save("walk.gif")`` or
    show with ``IPython.display.HTML(anim.to_jshtml())``."""
    plt = _plt()
    from matplotlib.animation import FuncAnimation
    from .bake import frame_count, start_animation
    inst = inst.copy()  # the caller's instance keeps its time and tracks
    doc = inst.document
    fps = fps or doc.fps or 30.0
    if animation is not None:
        start_animation(inst, animation)
        inst.advance(0.0)
    if frames is None:
        ai = doc.animation_index(animation) if animation is not None else -1
        frames = frame_count(doc.animations[ai].length, fps) if ai >= 0 else 60
    if ax is None:
        fig, ax = plt.subplots()
    else:
        fig = ax.figure
    plot_pose(inst, ax=ax, **pose_kw)
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    grow = [min(xlim[0], xlim[1]), max(xlim), min(ylim), max(ylim)]

    def update(k):
        if k:
            inst.advance(1.0 / fps)
        ax.clear()
        plot_pose(inst, ax=ax, **pose_kw)
        x, y = ax.get_xlim(), ax.get_ylim()
        grow[0], grow[1] = min(grow[0], x[0]), max(grow[1], x[1])
        grow[2], grow[3] = min(grow[2], y[0]), max(grow[3], y[1])
        ax.set_xlim(grow[0], grow[1])
        ax.set_ylim(grow[2], grow[3])
        return []

    return FuncAnimation(fig, update, frames=frames, interval=1000.0 / fps, blit=False)


# ---- Jabbertoon channels over time -------------------------------------------

def plot_channels(recording: Any, channels: Optional[Sequence[str]] = None, ax=None, title: Optional[str] = None,
                  times: Optional[Sequence[float]] = None, **style):
    """Draw Jabbertoon pose channels over time: ``recording`` is an ``openbone.toon.record``
    Recording or a list of pose dicts (``times`` then gives their times, else the frame index).
    ``channels``: "dx" .. "blink", "part:<key>", "lift:<key>", "reach:<limb>" (the weight),
    "reach:<limb>:x"; default: every channel that moves."""
    from .toon.record import Recording
    if not isinstance(recording, Recording):
        poses = list(recording)
        t = np.asarray(times if times is not None else range(len(poses)), dtype=float)
        recording = Recording(t, poses, 0)
    ax = _ax(ax)
    names = list(channels) if channels else [n for n in recording.names()
                                             if np.nanmax(recording.channel(n)) != np.nanmin(recording.channel(n))]
    for n in names:
        ax.plot(recording.t, recording.channel(n), label=n, **style)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("value (px, °, factor, weight)")
    if title:
        ax.set_title(title)
    if names:
        ax.legend(loc="best", fontsize="small", ncol=2 if len(names) > 6 else 1)
    ax.grid(True, alpha=0.3)
    return ax


_TIMELINE_COLORS = {"scene": "#d0d7e2", "say": "#4c72b0", "does": "#55a868", "caption": "#c44e52", "cut": "#8172b3",
                    "place": "#ccb974", "enter": "#64b5cd", "exit": "#937860", "mood": "#da8bc3"}


def _behaviour_label(b: Any) -> str:
    if isinstance(b, str):
        return b.rsplit(":", 1)[-1]
    if isinstance(b, dict):
        return str(b.get("name") or b.get("id") or "behaviour").rsplit(":", 1)[-1]
    return "behaviour"


def plot_cartoon_timeline(timeline: Sequence[Dict[str, Any]], ax=None, title: Optional[str] = None):
    """A Jabbertoon cartoon's timeline (``rt.timeline``, §7.7) as a Gantt chart: one row per
    character (its lines, behaviours, placement) and rows for the scenes, cuts and captions;
    instant records (a mood, a cut of 0 s) are ticks."""
    ax = _ax(ax)
    rows: List[str] = []

    def row(name):
        if name not in rows:
            rows.append(name)
        return rows.index(name)

    end = max((r["t"] + (r["dur"] if np.isfinite(r["dur"]) else 0) for r in timeline), default=1.0)
    for kind in ("scene", "cut", "caption"):
        if any(r["kind"] == kind for r in timeline):
            row(kind + "s")
    for r in timeline:
        kind = r["kind"]
        if kind in ("scene", "cut", "caption"):
            y = row(kind + "s")
        else:
            y = row(f"{r.get('who')} does" if kind == "does" else str(r.get("who")))
        dur = r["dur"] if np.isfinite(r["dur"]) else end - r["t"]
        color = _TIMELINE_COLORS.get(kind, "#999999")
        label = {"scene": r.get("name"), "say": r.get("text"), "caption": r.get("text"), "cut": r.get("place"),
                 "does": _behaviour_label(r.get("behaviour")),
                 "mood": r.get("mood")}.get(kind, kind)
        if dur > 0:
            ax.barh(y, dur, left=r["t"], height=0.6, color=color, edgecolor="white", alpha=0.9)
            ax.text(r["t"] + dur / 2, y, str(label)[:24], ha="center", va="center", fontsize=7, clip_on=True)
        else:
            ax.plot([r["t"]], [y], marker="|", markersize=14, color=color)
            ax.text(r["t"], y + 0.38, str(label)[:16], ha="left", va="bottom", fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows)
    ax.invert_yaxis()
    ax.set_xlabel("t (s)")
    ax.set_xlim(min((r["t"] for r in timeline), default=0), end)
    if title:
        ax.set_title(title)
    from matplotlib.patches import Patch
    used = [k for k in _TIMELINE_COLORS if any(r["kind"] == k for r in timeline)]
    ax.legend([Patch(color=_TIMELINE_COLORS[k]) for k in used], used, loc="upper left", bbox_to_anchor=(1.0, 1.0),
              fontsize="x-small")
    return ax
