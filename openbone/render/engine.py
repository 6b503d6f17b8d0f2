"""The skia renderer: a pose drawn by a real 2D engine (skia-python).

Every draw item (§8.4) is one ``drawVertices`` call: its triangles with their
uvs (in texture pixels) as the local coordinates of an image shader when the
texture loads, else filled with the item colour.  One SkSL shader applies the
tint: ``rgb = tex.rgb·light.rgb + (1 − tex.rgb)·dark.rgb``, ``a = tex.a·light.a``
(straight alpha; the two-colour tint, dark = black when the slot has none, which
is the plain multiply).  Particle items carry per-vertex colours, modulated with
the shader.  Blend modes (§8.4 ``blend``) map to skia's on premultiplied colour, as
the reference WebGL renderer blends: normal = SrcOver, additive = Plus (ONE, ONE),
multiply = Multiply, screen = Screen.  A clipped item is drawn inside
``clipPath(mask polygon)`` (anti-aliased).  Pixels are supersampled (``supersample``
× in each direction, averaged exactly in premultiplied 8-bit values by NumPy).

Debug layers on top: clipping masks and bounding boxes outlined, IK chains and
targets, path constraints' curves, physics bones, the bones (all, or a subset),
and a highlighted bone or slot.  Pillow is used only to hand the picture out
(``PIL.Image``) and to write files.
"""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..document import Document
from .scene import (BONE_COLOR, BOX_COLOR, CLIP_COLOR, Textures, View, _boundary_edges, _rgba8, attachment_world_vertices,
                    doc_info, draw_items, drawn_points, outlines, parse_hex)

HIGHLIGHT_COLOR = (255, 140, 0, 255)
IK_COLOR = (230, 60, 40, 255)
PATH_COLOR = (0, 150, 200, 255)
PHYSICS_COLOR = (150, 60, 210, 255)

BLEND_MODES = {"normal": "kSrcOver", "additive": "kPlus", "multiply": "kMultiply", "screen": "kScreen"}

_TINT_SKSL = """
uniform shader tex;
uniform half4 light;
uniform half4 dark;
half4 main(float2 p) {
    half4 t = tex.eval(p);
    half a = t.a * light.a;
    half3 rgb = t.a > 0 ? t.rgb / t.a : half3(0);
    half3 o = rgb * light.rgb + (1 - rgb) * dark.rgb;
    return half4(o * a, a);
}
"""


def require_skia():
    try:
        import skia  # noqa: F401
    except ImportError as e:  # pragma: no cover - exercised only without skia-python
        raise ImportError("rendering needs skia-python and Pillow: pip install 'openbone[render]'") from e
    try:
        from PIL import Image  # noqa: F401
    except ImportError as e:  # pragma: no cover
        raise ImportError("rendering needs skia-python and Pillow: pip install 'openbone[render]'") from e
    return skia


_EFFECT = None


def _tint_effect():
    global _EFFECT
    if _EFFECT is None:
        import skia
        _EFFECT = skia.RuntimeEffect.MakeForShader(_TINT_SKSL)
    return _EFFECT


def _color4f(c: Sequence[float]):
    import skia
    r, g, b, a = (min(1.0, max(0.0, float(v))) for v in c[:4])
    return skia.Color4f(r, g, b, a)


def _argb(c: Sequence[int]) -> int:
    r, g, b, a = c
    return (a << 24) | (r << 16) | (g << 8) | b


def _points(arr: np.ndarray) -> list:
    import skia
    return [skia.Point(x, y) for x, y in np.asarray(arr, dtype=np.float64).reshape(-1, 2).tolist()]


def _poly_path(px: np.ndarray, close: bool = True):
    import skia
    path = skia.Path()
    pts = np.asarray(px, dtype=np.float64).reshape(-1, 2).tolist()
    if not pts:
        return path
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    if close:
        path.close()
    return path


def _stroke(color, width: float):
    import skia
    return skia.Paint(Color=_argb(color), Style=skia.Paint.kStroke_Style, StrokeWidth=width, AntiAlias=True)


def _fill(color):
    import skia
    return skia.Paint(Color=_argb(color), AntiAlias=True)


# ---- constraint geometry (debug layers) -------------------------------------

def constraint_parts(doc: Document) -> List[Dict[str, Any]]:
    """The document's constraints as the debug layers draw them: ``kind``, ``name``,
    ``bones`` (indices), ``target`` (bone index, -1) and ``slot`` (path target, -1)."""
    info = doc_info(doc)
    cached = getattr(info, "_constraint_parts", None)
    if cached is not None:
        return cached
    sk = info.json.get("skeleton") or {}
    slot_ids = {s.id: s.index for s in doc.slots}
    out = []
    for kind in ("ik", "transform", "path", "physics"):
        for c in sk.get(kind) or []:
            if not isinstance(c, dict):
                continue
            bones = c.get("bones") if kind != "physics" else [c.get("bone")]
            idx = [info.bone_ids[b] for b in bones or [] if b in info.bone_ids]
            tgt = c.get("target")
            out.append({"kind": kind, "name": c.get("name") or c.get("id"), "bones": idx,
                        "target": info.bone_ids.get(tgt, -1) if kind != "path" else -1,
                        "slot": slot_ids.get(tgt, -1) if kind == "path" else -1})
    info._constraint_parts = out  # type: ignore[attr-defined]
    return out


def _names(doc: Document, refs: Union[None, str, Iterable[str]], kind: str) -> List[int]:
    if refs is None:
        return []
    if isinstance(refs, str):
        refs = [refs]
    find = doc.bone_index if kind == "bone" else doc.slot_index
    return [i for i in (find(r) for r in refs) if i >= 0]


# ---- drawing -------------------------------------------------------------------

class _Canvas:
    """A skia raster surface with the view's skeleton → pixel matrix."""

    def __init__(self, view: View, background, supersample: int):
        import skia
        self.view = view
        self.ss = max(1, int(supersample))
        self.w, self.h = view.width * self.ss, view.height * self.ss
        self.surface = skia.Surface(self.w, self.h)
        self.canvas = self.surface.getCanvas()
        self.canvas.clear(_argb(background) if background else 0)
        self.s = view.scale * self.ss
        # px = (ox + x)·s, py = (oy − y)·s
        self.matrix = skia.Matrix.MakeAll(self.s, 0, view.ox * self.s, 0, -self.s, view.oy * self.s, 0, 0, 1)

    def px(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        return np.stack([(self.view.ox + pts[:, 0]) * self.s, (self.view.oy - pts[:, 1]) * self.s], axis=1)

    def pixels(self) -> np.ndarray:
        """(H, W, 4) uint8 straight RGBA.  Supersampled pixels are averaged by skia: the
        image scaled to 1/ss, each output pixel centre falling between ss × ss texels
        (bilinear at ss = 2, the box-filtered mipmap level beyond)."""
        import skia
        img = self.surface.makeImageSnapshot()
        if self.ss == 1:
            return img.toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kUnpremul_AlphaType)
        W, H = self.view.width, self.view.height
        out = np.empty((H, W, 4), np.uint8)
        pm = skia.Pixmap(skia.ImageInfo.Make(W, H, skia.kRGBA_8888_ColorType, skia.kUnpremul_AlphaType), out, 4 * W)
        if self.ss > 2:
            img = img.withDefaultMipmaps()
        sampling = skia.SamplingOptions(skia.FilterMode.kLinear,
                                        skia.MipmapMode.kNone if self.ss == 2 else skia.MipmapMode.kNearest)
        if not img.scalePixels(pm, sampling):  # pragma: no cover - skia refuses only bad pixmaps
            raise RuntimeError("skia could not scale the picture")
        return out


def _draw_item(cv: _Canvas, item, textures: Optional[Textures], mask: Optional[np.ndarray], outline: bool,
               textured: bool) -> None:
    import skia
    v = np.asarray(item.vertices, dtype=np.float64).reshape(-1, 2)
    ix = np.asarray(item.indices, dtype=np.int64).reshape(-1)
    ix = ix[: len(ix) // 3 * 3]
    if len(v) == 0 or len(ix) == 0:
        return
    if ix.max() >= len(v) or ix.min() < 0:
        ix = ix[np.all((ix.reshape(-1, 3) < len(v)) & (ix.reshape(-1, 3) >= 0), axis=1).repeat(3)]
        if len(ix) == 0:
            return
    color = np.asarray(getattr(item, "color", (1, 1, 1, 1)), dtype=np.float64)[:4]
    dark = getattr(item, "dark", None)
    per_vertex = getattr(item, "colors", None)
    tex = textures.skia_image(getattr(item, "texture", None)) if (textures is not None and textured) else None
    uvs = getattr(item, "uvs", None)
    canvas = cv.canvas
    canvas.save()
    if mask is not None and len(mask) >= 3:
        canvas.clipPath(_poly_path(cv.px(mask)), skia.ClipOp.kIntersect, True)
    pos = _points(cv.px(v))
    colors = None
    if per_vertex is not None:
        pv = np.asarray(per_vertex, dtype=np.float64).reshape(-1, 4)[: len(v)] * color
        c8 = np.clip(np.round(pv * 255), 0, 255).astype(np.int64)
        colors = ((c8[:, 3] << 24) | (c8[:, 0] << 16) | (c8[:, 1] << 8) | c8[:, 2]).tolist()
        if len(colors) < len(v):
            colors += [0xFFFFFFFF] * (len(v) - len(colors))
    blend = getattr(skia.BlendMode, BLEND_MODES.get(getattr(item, "blend", "normal"), "kSrcOver"))
    paint = skia.Paint(AntiAlias=True)
    paint.setBlendMode(blend)
    texs = None
    if tex is not None and uvs is not None and len(uvs):
        uv = np.asarray(uvs, dtype=np.float64).reshape(-1, 2)[: len(v)] * (tex.width(), tex.height())
        texs = _points(uv)
        light = [float(x) for x in np.clip(color if colors is None else np.ones(4), 0, 1)]
        dark4 = [float(x) for x in np.clip(dark[:3], 0, 1)] + [1.0] if dark is not None else [0.0, 0.0, 0.0, 1.0]
        # skia-python's Paint.setShader costs ~0.5 s with a page-sized image shader (measured: 1024 x 1024,
        # any image kind) while copying a Paint that holds one is free: one paint per texture, tint and blend
        key = ("paint", getattr(item, "texture", None), tuple(light), tuple(dark4), int(blend))
        cached = textures.cache.get(key)
        if cached is None:
            b = skia.RuntimeShaderBuilder(_tint_effect())
            b.setUniform("light", light)
            b.setUniform("dark", dark4)
            b.setChild("tex", tex.makeShader(skia.TileMode.kClamp, skia.TileMode.kClamp,
                                             skia.SamplingOptions(skia.FilterMode.kLinear)))
            paint.setShader(b.makeShader())
            textures.cache[key] = cached = paint
        paint = skia.Paint(cached)
    elif colors is None:
        paint.setColor4f(_color4f(color))
    else:
        paint.setColor(0xFFFFFFFF)
    verts = skia.Vertices.MakeCopy(skia.Vertices.kTriangles_VertexMode, pos, texs, colors, ix.tolist())
    canvas.drawVertices(verts, paint, skia.BlendMode.kModulate)
    canvas.restore()
    if outline and tex is None:
        edge = _rgba8(np.r_[color[:3] * 0.45, 1.0])
        px = cv.px(v)
        path = skia.Path()
        for a, b_ in _boundary_edges(ix):
            path.moveTo(*px[a])
            path.lineTo(*px[b_])
        canvas.drawPath(path, _stroke(edge, max(1.0, cv.ss * cv.view.scale)))


def _bone_shape(cv: _Canvas, o, tip, color, fill_alpha: int, width: float) -> None:
    dx, dy = tip - o
    n = math.hypot(dx, dy)
    if n <= 1e-9:
        return
    k = min(0.18 * n, 4.0 * cv.s) / n
    side = np.array([-dy, dx]) * k
    mid = o + (tip - o) * 0.15
    path = _poly_path(np.array([o, mid + side, tip, mid - side]))
    cv.canvas.drawPath(path, _fill(tuple(color[:3]) + (fill_alpha,)))
    cv.canvas.drawPath(path, _stroke(color, width))


def _draw_bones(cv: _Canvas, inst, which: Optional[List[int]], highlight: Sequence[int], colors: Dict[int, Tuple]):
    w = np.asarray(inst.world)
    active = np.asarray(inst.active_bones)
    bones = inst.document.bones
    width = max(1.0, 0.75 * cv.s)
    for i in (range(len(bones)) if which is None else which):
        if not active[i]:
            continue
        a, _, c, _, x, y = w[i]
        color = HIGHLIGHT_COLOR if i in highlight else colors.get(i, BONE_COLOR)
        o = cv.px(np.array([[x, y]]))[0]
        if bones[i].length > 0:
            tip = cv.px(np.array([[x + a * bones[i].length, y + c * bones[i].length]]))[0]
            _bone_shape(cv, o, tip, color, 110 if i not in highlight else 170, width * (2 if i in highlight else 1))
        r = 2.2 * cv.s * (1.5 if i in highlight else 1)
        cv.canvas.drawCircle(float(o[0]), float(o[1]), float(r), _fill(color))


def _draw_outlines(cv: _Canvas, inst, boxes: bool, clipping: bool) -> None:
    lw = max(1.0, cv.s)
    for kind, poly in outlines(inst):
        if (kind == "clipping" and not clipping) or (kind != "clipping" and not boxes):
            continue
        cv.canvas.drawPath(_poly_path(cv.px(poly)), _stroke(CLIP_COLOR if kind == "clipping" else BOX_COLOR, lw))


def _draw_ik(cv: _Canvas, inst) -> None:
    w = np.asarray(inst.world)
    lw = max(1.0, cv.s)
    for c in constraint_parts(inst.document):
        if c["kind"] != "ik" or not c["bones"]:
            continue
        chain = [w[b, 4:6] for b in c["bones"]]
        last = c["bones"][-1]
        L = inst.document.bones[last].length
        chain.append(w[last, 4:6] + np.array([w[last, 0], w[last, 2]]) * L)
        px = cv.px(np.array(chain))
        cv.canvas.drawPath(_poly_path(px, close=False), _stroke(IK_COLOR, 2 * lw))
        if c["target"] >= 0:
            t = cv.px(w[c["target"], 4:6])[0]
            r = 5 * cv.s
            cv.canvas.drawCircle(float(t[0]), float(t[1]), float(r), _stroke(IK_COLOR, lw))
            cv.canvas.drawLine(float(t[0] - r), float(t[1]), float(t[0] + r), float(t[1]), _stroke(IK_COLOR, lw))
            cv.canvas.drawLine(float(t[0]), float(t[1] - r), float(t[0]), float(t[1] + r), _stroke(IK_COLOR, lw))
            cv.canvas.drawLine(float(px[-1][0]), float(px[-1][1]), float(t[0]), float(t[1]),
                               _stroke(IK_COLOR[:3] + (110,), lw))


def path_curves(inst) -> List[np.ndarray]:
    """World control points ``(n, 2)`` of the current path attachments (§7.3 curves:
    anchor, control, control, anchor, ...)."""
    doc = inst.document
    info = doc_info(doc)
    atts = inst.slot_attachments
    active = np.asarray(inst.active_bones)
    out = []
    for s, name in enumerate(atts):
        if name is None or not active[doc.bone_index(doc.slots[s].bone)]:
            continue
        att = info.attachment(inst.skin, s, name)
        if att is None or att.get("type") != "path":
            continue
        v = attachment_world_vertices(inst, s, att)
        if v is not None and len(v) >= 4:
            out.append((v, bool(att.get("closed", False))))
    return out


def _draw_paths(cv: _Canvas, inst) -> None:
    import skia
    lw = max(1.0, cv.s)
    for v, closed in path_curves(inst):
        px = cv.px(v)
        # the vertex list is [c_in, anchor, c_out] per point (Spine's path layout)
        n = len(px) // 3
        if n < 2:
            continue
        path = skia.Path()
        path.moveTo(*px[1])
        segs = n if closed else n - 1
        for k in range(segs):
            a, b = k, (k + 1) % n
            path.cubicTo(*px[3 * a + 2], *px[3 * b], *px[3 * b + 1])
        cv.canvas.drawPath(path, _stroke(PATH_COLOR, 2 * lw))
        for k in range(n):
            p = px[3 * k + 1]
            cv.canvas.drawCircle(float(p[0]), float(p[1]), float(2.5 * cv.s), _fill(PATH_COLOR))


def render_array(inst, view: Optional[View] = None, scale: float = 1.0, background: Optional[str] = "doc",
                 bones: Union[bool, Sequence[str]] = True, attachments: bool = True, boxes: bool = True,
                 clipping: Optional[bool] = None, textures: Optional[Textures] = None, textured: bool = True,
                 highlight: Union[None, str, Sequence[str]] = None, ik: bool = False, paths: bool = False,
                 physics: bool = False, supersample: int = 2, items: Optional[List[Any]] = None) -> np.ndarray:
    """The picture as an ``(H, W, 4)`` uint8 straight-RGBA array (see :func:`render_pose`)."""
    require_skia()
    doc = inst.document
    if view is None:
        view = View.artboard(doc, scale)
    if background == "doc":
        background = doc.background or "#ffffff"
    bg = _rgba8(parse_hex(background)) if background else None
    cv = _Canvas(view, bg, supersample)
    cv.canvas.save()
    hl_bones = _names(doc, highlight, "bone")
    hl_slots = set(_names(doc, highlight, "slot"))
    if attachments:
        if textures is None:
            textures = Textures(doc)
        batch = inst.draw_batch() if hasattr(inst, "draw_batch") else None
        masks = [np.asarray(m["vertices"], dtype=np.float64).reshape(-1, 2) for m in batch.masks] if batch else []
        for item in (items if items is not None else draw_items(inst)):
            clip = getattr(item, "clip", None)
            mask = masks[clip] if clip is not None and 0 <= clip < len(masks) else None
            _draw_item(cv, item, textures, mask, outline=True, textured=textured)
            if hl_slots and doc.slot_index(item.slot) in hl_slots:
                px = cv.px(np.asarray(item.vertices, dtype=np.float64))
                import skia
                path = skia.Path()
                ix = np.asarray(item.indices, dtype=np.int64)
                for a, b in _boundary_edges(ix):
                    path.moveTo(*px[a])
                    path.lineTo(*px[b])
                cv.canvas.drawPath(path, _stroke(HIGHLIGHT_COLOR, max(2.0, 2 * cv.s)))
    if clipping is None:
        clipping = boxes
    if boxes or clipping:
        _draw_outlines(cv, inst, boxes, clipping)
    if paths:
        _draw_paths(cv, inst)
    if ik:
        _draw_ik(cv, inst)
    bone_colors: Dict[int, Tuple] = {}
    if physics:
        for c in constraint_parts(doc):
            if c["kind"] == "physics":
                for b in c["bones"]:
                    bone_colors[b] = PHYSICS_COLOR
    which: Optional[List[int]]
    if bones is True:
        which = None
    elif bones is False or bones is None:
        which = sorted(set(hl_bones) | (set(bone_colors) if physics else set()))
    else:
        which = _names(doc, bones, "bone")
        which = sorted(set(which) | set(hl_bones))
    if bones is not False or which:
        _draw_bones(cv, inst, which, hl_bones, bone_colors)
    cv.canvas.restore()
    return cv.pixels()


def render_pose(inst, view: Optional[View] = None, scale: float = 1.0, background: Optional[str] = "doc",
                bones: Union[bool, Sequence[str]] = True, attachments: bool = True, boxes: bool = True,
                textures: Optional[Textures] = None, supersample: int = 2, **kw):
    """A Pillow RGBA image of the instance's current pose, drawn by skia.

    ``view`` defaults to the artboard at ``scale``; ``background`` is a hex colour,
    ``"doc"`` (the document's, else white) or None (transparent).  ``bones``: True, False
    or bone names to draw; ``boxes`` outlines bounding boxes (and clipping masks unless
    ``clipping=False``); ``textured=False`` fills items with their colours;
    ``highlight`` a bone or slot name (or several); ``ik``, ``paths``, ``physics`` add
    IK chains and targets, path curves and physics bones."""
    from PIL import Image
    a = render_array(inst, view=view, scale=scale, background=background, bones=bones, attachments=attachments,
                     boxes=boxes, textures=textures, supersample=supersample, **kw)
    return Image.fromarray(a, "RGBA")


def render_frames(doc: Document, frames: Sequence[int], animation: Optional[str] = None, fps: Optional[float] = None,
                  skin: Optional[str] = None, scale: float = 1.0, fit: bool = False, size=None, **kw) -> List[Any]:
    """Images of the given frames (frame k = after ``advance(0)`` and k ``advance(1/fps)``, as
    :func:`openbone.bake.bake` counts them).  ``fit`` frames what is drawn (:func:`drawn_points`:
    the draw list's bounds, the bones when nothing is drawn) instead of the artboard, with one
    view for all frames (``size`` = (w, h) fits it into that many pixels)."""
    from ..bake import start_animation
    from ..instance import Instance
    fps = fps or doc.fps or 30.0
    dt = 1.0 / fps
    wanted = sorted(set(frames))
    textures = kw.pop("textures", None) or Textures(doc)

    def poses():
        inst, k = Instance(doc, skin=skin), 0
        start_animation(inst, animation)
        inst.advance(0.0)
        for f in wanted:
            while k < f:
                inst.advance(dt)
                k += 1
            yield f, inst

    if fit:  # one view for all frames: a first pass collects the points, a second draws
        kw["view"] = View.fit([drawn_points(inst, attachments=kw.get("attachments", True),
                                            bones=bool(kw.get("bones", True))) for _, inst in poses()],
                              scale=scale, size=size)
    snaps = {f: render_pose(inst, scale=scale, textures=textures, **kw) for f, inst in poses()}
    return [snaps[f] for f in frames]
