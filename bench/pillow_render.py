#!/usr/bin/env python3
"""The previous render path, kept as the benchmark's baseline (bench/bench_render.py):
every textured triangle warped with a Pillow affine transform and pasted through a
polygon mask, untextured triangles filled by ImageDraw, masks by multiplying alpha,
additive blending by NumPy.  openbone.render now draws with skia (openbone/render/engine.py);
this file is not part of the package.
"""
import math
from typing import Optional, Sequence, Tuple

import numpy as np

from openbone.render import (BONE_COLOR, BOX_COLOR, CLIP_COLOR, Textures, View, _boundary_edges, _rgba8, clip_masks,
                             draw_items, outlines, parse_hex)


def _affine(src: np.ndarray, dst: np.ndarray) -> Optional[Tuple[float, ...]]:
    """Coefficients (a..f) with src = A·dst + c (Pillow's AFFINE maps output → input)."""
    M = np.array([[dst[0, 0], dst[0, 1], 1.0], [dst[1, 0], dst[1, 1], 1.0], [dst[2, 0], dst[2, 1], 1.0]])
    if abs(np.linalg.det(M)) < 1e-9:
        return None
    cx = np.linalg.solve(M, src[:, 0])
    cy = np.linalg.solve(M, src[:, 1])
    return (cx[0], cx[1], cx[2], cy[0], cy[1], cy[2])


def _draw_item(canvas, item, view: View, textures: Optional[Textures], outline: bool,
               masks: Sequence[np.ndarray] = ()) -> None:
    from PIL import Image, ImageChops, ImageDraw
    v = np.asarray(item.vertices, dtype=np.float64).reshape(-1, 2)
    ix = np.asarray(item.indices, dtype=np.int64).reshape(-1)
    ix = ix[: len(ix) // 3 * 3]
    if len(v) == 0 or len(ix) == 0:
        return
    if ix.max() >= len(v):
        ix = ix[np.all(ix.reshape(-1, 3) < len(v), axis=1).repeat(3)]
    px = view.to_px(v)
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.width), min(y1, canvas.height)
    if x1 <= x0 or y1 <= y0:
        return
    w, h = x1 - x0, y1 - y0
    local = px - (x0, y0)
    color = np.asarray(getattr(item, "color", (1, 1, 1, 1)), dtype=np.float64)[:4]
    per_vertex = getattr(item, "colors", None)
    tex = textures.get(getattr(item, "texture", None)) if textures is not None else None
    uvs = getattr(item, "uvs", None)
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    tris = ix.reshape(-1, 3)
    if tex is not None and uvs is not None and len(uvs):
        uv = np.asarray(uvs, dtype=np.float64).reshape(-1, 2) * (tex.width, tex.height)
        for t in tris:
            coef = _affine(uv[t], local[t])
            if coef is None:
                continue
            warped = tex.transform((w, h), Image.AFFINE, coef, resample=Image.BILINEAR)
            mask = Image.new("L", (w, h), 0)
            ImageDraw.Draw(mask).polygon([tuple(p) for p in local[t]], fill=255)
            layer.paste(warped, (0, 0), mask)
        tint = Image.new("RGBA", (w, h), _rgba8(color))
        layer = ImageChops.multiply(layer, tint)
    else:
        d = ImageDraw.Draw(layer)
        if per_vertex is not None:
            pv = np.asarray(per_vertex, dtype=np.float64).reshape(-1, 4)
            for t in tris:
                c = pv[t].mean(axis=0) * np.r_[color[:3], 1.0]
                d.polygon([tuple(p) for p in local[t]], fill=_rgba8(c))
        else:
            fill = _rgba8(color)
            for t in tris:
                d.polygon([tuple(p) for p in local[t]], fill=fill)
    clip = getattr(item, "clip", None)
    if clip is not None and 0 <= clip < len(masks) and len(masks[clip]) >= 3:
        m = Image.new("L", (w, h), 0)
        ImageDraw.Draw(m).polygon([tuple(p) for p in view.to_px(masks[clip]) - (x0, y0)], fill=255)
        alpha = ImageChops.multiply(layer.getchannel("A"), m)
        layer.putalpha(alpha)
    if getattr(item, "blend", "normal") == "additive":
        base = canvas.crop((x0, y0, x1, y1))
        a = np.asarray(layer, dtype=np.float32)
        b = np.asarray(base, dtype=np.float32)
        b[..., :3] = np.minimum(255, b[..., :3] + a[..., :3] * a[..., 3:4] / 255)
        canvas.paste(Image.fromarray(b.astype(np.uint8), "RGBA"), (x0, y0))
    else:
        canvas.alpha_composite(layer, (int(x0), int(y0)))
    if outline and tex is None:
        d = ImageDraw.Draw(canvas)
        edge = _rgba8(np.r_[color[:3] * 0.45, 1.0])
        lw = max(1, int(round(view.scale)))
        for a, b in _boundary_edges(ix):
            d.line([tuple(px[a]), tuple(px[b])], fill=edge, width=lw)


def _draw_bones(canvas, inst, view: View) -> None:
    from PIL import ImageDraw
    d = ImageDraw.Draw(canvas, "RGBA")
    w = np.asarray(inst.world)
    active = np.asarray(inst.active_bones)
    s = view.scale
    for i, b in enumerate(inst.document.bones):
        if not active[i]:
            continue
        a, _, c, _, x, y = w[i]
        o = view.to_px(np.array([[x, y]]))[0]
        if b.length > 0:
            tip = view.to_px(np.array([[x + a * b.length, y + c * b.length]]))[0]
            dx, dy = tip - o
            n = math.hypot(dx, dy)
            if n > 1e-9:
                k = min(0.18 * n, 4.0 * s) / n
                side = np.array([-dy, dx]) * k
                mid = o + (tip - o) * 0.15
                d.polygon([tuple(o), tuple(mid + side), tuple(tip), tuple(mid - side)], fill=BONE_COLOR[:3] + (110,),
                          outline=BONE_COLOR)
        r = 2.2 * s
        d.ellipse([o[0] - r, o[1] - r, o[0] + r, o[1] + r], fill=BONE_COLOR)


def _draw_outlines(canvas, inst, view: View) -> None:
    from PIL import ImageDraw
    d = ImageDraw.Draw(canvas)
    lw = max(1, int(round(view.scale)))
    for kind, poly in outlines(inst):
        p = [tuple(q) for q in view.to_px(poly)]
        d.line(p + [p[0]], fill=CLIP_COLOR if kind == "clipping" else BOX_COLOR, width=lw)


def render_pose(inst, view: Optional[View] = None, scale: float = 1.0, background: Optional[str] = "doc",
                bones: bool = True, attachments: bool = True, boxes: bool = True, textures: Optional[Textures] = None,
                supersample: int = 2):
    """A Pillow RGBA image of the instance's current pose (see the module doc).

    ``view`` defaults to the artboard at ``scale``; ``background`` is a hex colour,
    ``"doc"`` (the document's, else white) or None (transparent)."""
    _require_pillow()
    from PIL import Image
    doc = inst.document
    if view is None:
        view = View.artboard(doc, scale)
    if background == "doc":
        background = doc.background or "#ffffff"
    bg = _rgba8(parse_hex(background)) if background else (0, 0, 0, 0)
    ss = max(1, int(supersample))
    big = View(view.width * ss, view.height * ss, view.ox, view.oy, view.scale * ss)
    canvas = Image.new("RGBA", (big.width, big.height), bg)
    if attachments:
        if textures is None:
            textures = Textures(doc)
        masks = clip_masks(inst)
        for item in draw_items(inst):
            _draw_item(canvas, item, big, textures, outline=True, masks=masks)
    if boxes:
        _draw_outlines(canvas, inst, big)
    if bones:
        _draw_bones(canvas, inst, big)
    if ss > 1:
        canvas = canvas.resize((view.width, view.height), Image.LANCZOS)
    return canvas


def render_pose_pillow(inst, view: Optional[View] = None, scale: float = 1.0, background: Optional[str] = "doc",
                       bones: bool = True, attachments: bool = True, boxes: bool = True,
                       textures: Optional[Textures] = None, supersample: int = 2):
    """The old ``openbone.render.render_pose``: a Pillow RGBA image of the pose."""
    from PIL import Image
    doc = inst.document
    if view is None:
        view = View.artboard(doc, scale)
    if background == "doc":
        background = doc.background or "#ffffff"
    bg = _rgba8(parse_hex(background)) if background else (0, 0, 0, 0)
    ss = max(1, int(supersample))
    big = View(view.width * ss, view.height * ss, view.ox, view.oy, view.scale * ss)
    canvas = Image.new("RGBA", (big.width, big.height), bg)
    if attachments:
        if textures is None:
            textures = Textures(doc)
        masks = clip_masks(inst)
        for item in draw_items(inst):
            _draw_item(canvas, item, big, textures, outline=True, masks=masks)
    if boxes:
        _draw_outlines(canvas, inst, big)
    if bones:
        _draw_bones(canvas, inst, big)
    if ss > 1:
        canvas = canvas.resize((view.width, view.height), Image.LANCZOS)
    return canvas
