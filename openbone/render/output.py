"""Writing pictures: PNG / WebP / JPEG (one frame, or a grid of frames), animated GIF,
MP4 (H.264 through imageio-ffmpeg), SVG (untextured vector debug view) and sprite
sheets (every frame packed into one texture, with a JSON frame table).  Every file is
written atomically (:mod:`openbone.atomic`).

The sprite-sheet table follows the TexturePacker "JSON (array)" layout that Phaser,
PixiJS, Godot and Unity importers read, plus Aseprite-style ``frameTags``::

    {"frames": [{"filename": "hero/walk/0", "frame": {"x", "y", "w", "h"}, "rotated": false,
                 "trimmed": true, "spriteSourceSize": {"x", "y", "w", "h"},
                 "sourceSize": {"w", "h"}, "pivot": {"x", "y"}, "duration": 33.333}, ...],
     "animations": {"walk": ["hero/walk/0", ...]},
     "meta": {"app": "openbone", "image": "sheet.png", "format": "RGBA8888", "size": {"w", "h"},
              "scale": 1, "fps": 30, "frameTags": [{"name", "from", "to", "direction"}]}}

``frame`` is the rectangle in the sheet, ``spriteSourceSize`` where that (trimmed)
rectangle sits in the full frame of ``sourceSize``, ``pivot`` the skeleton origin as a
fraction of the full frame (x right, y down), ``duration`` milliseconds.
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..atomic import atomic_path, write_text
from .scene import View, _rgba8, draw_items, outlines, parse_hex

RASTER = (".png", ".webp", ".jpg", ".jpeg")
FORMATS = RASTER + (".gif", ".mp4", ".svg")


def check_extension(path: str, allowed: Sequence[str] = FORMATS) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in allowed:
        raise ValueError(f"unknown output format {ext or '(no extension)'!r} "
                         f"(expected one of {', '.join(allowed)})")
    return ext


def contact_sheet(images: Sequence[Any], columns: Optional[int] = None, background=(255, 255, 255, 255)):
    """Frames side by side (a grid of ``columns``) in one image."""
    from PIL import Image
    n = len(images)
    if n == 1:
        return images[0]
    columns = columns or min(n, 6)
    rows = (n + columns - 1) // columns
    w, h = images[0].size
    sheet = Image.new("RGBA", (w * columns, h * rows), background)
    for i, im in enumerate(images):
        sheet.paste(im, ((i % columns) * w, (i // columns) * h))
    return sheet


def save_images(images: Sequence[Any], path: str, fps: float = 30.0, columns: Optional[int] = None,
                overwrite: bool = True) -> None:
    """``.gif``: an animation at ``fps`` (looping); ``.mp4``: H.264 video at ``fps``
    (imageio-ffmpeg, yuv420p, even sizes padded); otherwise one image (a contact sheet
    for several frames) in the format the extension names (png, webp, jpg)."""
    ext = check_extension(path, RASTER + (".gif", ".mp4"))
    with atomic_path(path, overwrite=overwrite) as tmp:
        if ext == ".gif":
            frames = [im.convert("RGB").convert("P", palette=1, colors=255) for im in images]
            duration = max(20, int(round(1000 / fps)))
            frames[0].save(tmp, format="GIF", save_all=True, append_images=frames[1:], duration=duration, loop=0,
                           disposal=2)
        elif ext == ".mp4":
            write_mp4(images, tmp, fps)
        else:
            sheet = contact_sheet(images, columns)
            fmt = {".png": "PNG", ".webp": "WEBP", ".jpg": "JPEG", ".jpeg": "JPEG"}[ext]
            if fmt == "JPEG":
                sheet = sheet.convert("RGB")
            sheet.save(tmp, format=fmt, **({"lossless": True} if fmt == "WEBP" else {}))


def write_mp4(images: Sequence[Any], path: str, fps: float) -> None:
    """H.264 in an MP4 through the ffmpeg binary imageio-ffmpeg ships."""
    try:
        import imageio_ffmpeg
    except ImportError as e:
        raise ValueError("writing .mp4 needs imageio-ffmpeg: pip install 'openbone[render]'") from e
    w, h = images[0].size
    W, H = w + (w & 1), h + (h & 1)  # yuv420p needs even sizes
    writer = imageio_ffmpeg.write_frames(path, (W, H), fps=float(fps), codec="libx264", pix_fmt_in="rgb24",
                                         pix_fmt_out="yuv420p", quality=8, macro_block_size=1,
                                         output_params=["-f", "mp4"], ffmpeg_log_level="error")
    writer.send(None)
    try:
        for im in images:
            rgb = np.asarray(im.convert("RGB"), dtype=np.uint8)
            if (W, H) != (w, h):
                rgb = np.pad(rgb, ((0, H - h), (0, W - w), (0, 0)), mode="edge")
            writer.send(np.ascontiguousarray(rgb))
    finally:
        writer.close()


# ---- sprite sheets ---------------------------------------------------------------

def _trim_box(a: np.ndarray) -> Tuple[int, int, int, int]:
    """(x, y, w, h) of the pixels with alpha > 0 (the whole frame when none)."""
    alpha = a[..., 3] > 0
    if not alpha.any():
        return 0, 0, 1, 1
    ys, xs = np.nonzero(alpha.any(axis=1))[0], np.nonzero(alpha.any(axis=0))[0]
    return int(xs[0]), int(ys[0]), int(xs[-1] - xs[0] + 1), int(ys[-1] - ys[0] + 1)


def pack_shelves(sizes: Sequence[Tuple[int, int]], padding: int = 1, max_width: Optional[int] = None
                 ) -> Tuple[List[Tuple[int, int]], Tuple[int, int]]:
    """Positions for rectangles, in order, left to right on shelves (rows) no wider than
    ``max_width`` (default: about the square root of the total area); returns
    (positions, sheet size)."""
    if max_width is None:
        area = sum((w + padding) * (h + padding) for w, h in sizes)
        max_width = max(max(w for w, _ in sizes) + padding, int(math.ceil(math.sqrt(area))))
    pos = []
    x = y = shelf = 0
    width = 0
    for w, h in sizes:
        if x > 0 and x + w > max_width:
            y += shelf + padding
            x = shelf = 0
        pos.append((x, y))
        x += w + padding
        shelf = max(shelf, h)
        width = max(width, x - padding)
    return pos, (max(1, width), max(1, y + shelf))


def sprite_sheet(frames: Sequence[Dict[str, Any]], image_name: str, fps: float, trim: bool = True,
                 padding: int = 1, max_width: Optional[int] = None) -> Tuple[Any, Dict[str, Any]]:
    """Pack frames into one RGBA sheet.  Each frame is a dict: ``image`` (PIL RGBA),
    ``name`` (its filename in the table), ``animation`` (tag), ``pivot`` (pixel position
    of the skeleton origin in the full frame).  Returns (sheet image, JSON table)."""
    from PIL import Image
    arrays = [np.asarray(f["image"].convert("RGBA")) for f in frames]
    boxes = [(_trim_box(a) if trim else (0, 0, a.shape[1], a.shape[0])) for a in arrays]
    pos, (W, H) = pack_shelves([(b[2], b[3]) for b in boxes], padding, max_width)
    sheet = np.zeros((H, W, 4), np.uint8)
    table: List[Dict[str, Any]] = []
    animations: Dict[str, List[str]] = {}
    tags: List[Dict[str, Any]] = []
    duration = 1000.0 / fps
    for i, (f, a, (bx, by, bw, bh), (x, y)) in enumerate(zip(frames, arrays, boxes, pos)):
        sheet[y:y + bh, x:x + bw] = a[by:by + bh, bx:bx + bw]
        fh, fw = a.shape[:2]
        px, py = f.get("pivot", (fw / 2, fh / 2))
        table.append({
            "filename": f["name"], "frame": {"x": x, "y": y, "w": bw, "h": bh}, "rotated": False,
            "trimmed": bool(trim and (bw, bh) != (fw, fh)),
            "spriteSourceSize": {"x": bx, "y": by, "w": bw, "h": bh}, "sourceSize": {"w": fw, "h": fh},
            "pivot": {"x": round(px / fw, 6), "y": round(py / fh, 6)}, "duration": round(duration, 3),
        })
        anim = f.get("animation") or ""
        if anim not in animations:
            animations[anim] = []
            tags.append({"name": anim, "from": i, "to": i, "direction": "forward"})
        animations[anim].append(f["name"])
        tags[-1]["to"] = i
    meta = {"app": "openbone", "version": _version(), "image": image_name, "format": "RGBA8888",
            "size": {"w": W, "h": H}, "scale": 1, "fps": fps, "frameTags": tags}
    return Image.fromarray(sheet, "RGBA"), {"frames": table, "animations": animations, "meta": meta}


def _version() -> str:
    from .. import __version__
    return __version__


def save_sprite_sheet(frames: Sequence[Dict[str, Any]], path: str, fps: float, overwrite: bool = True,
                      trim: bool = True, table_path: Optional[str] = None) -> Tuple[str, str, Dict[str, Any]]:
    """Write the sheet (``path``, PNG or WebP) and its table (``table_path``, default the
    same name with ``.json``).  Returns (sheet path, table path, table)."""
    ext = check_extension(path, (".png", ".webp"))
    table_path = table_path or os.path.splitext(path)[0] + ".json"
    sheet, table = sprite_sheet(frames, os.path.basename(path), fps, trim=trim)
    with atomic_path(path, overwrite=overwrite) as tmp:
        sheet.save(tmp, format="PNG" if ext == ".png" else "WEBP", **({"lossless": True} if ext == ".webp" else {}))
    write_text(table_path, json.dumps(table, indent=1) + "\n", overwrite=overwrite)
    return path, table_path, table


# ---- SVG (vector debug view) -------------------------------------------------------

def _num(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _poly_d(px: np.ndarray) -> str:
    return "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in px) + " Z"


def _hex(c: Sequence[float]) -> Tuple[str, float]:
    r, g, b, a = _rgba8(c)
    return f"#{r:02x}{g:02x}{b:02x}", round(a / 255, 4)


def _int_hex(c: Sequence[int]) -> str:
    return "#%02x%02x%02x" % tuple(int(v) for v in c[:3])


_SVG_BLEND = {"additive": "plus-lighter", "multiply": "multiply", "screen": "screen"}


def pose_svg(inst, view: Optional[View] = None, scale: float = 1.0, background: Optional[str] = "doc",
             bones: bool = True, boxes: bool = True, attachments: bool = True) -> str:
    """An SVG document of the current pose: draw items as filled triangles in their
    colours (no textures), clipping as ``clipPath``, blend modes as ``mix-blend-mode``,
    clipping masks and bounding boxes outlined, bones on top."""
    from .engine import BONE_COLOR, BOX_COLOR, CLIP_COLOR
    doc = inst.document
    if view is None:
        view = View.artboard(doc, scale)
    if background == "doc":
        background = doc.background or "#ffffff"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{view.width}" height="{view.height}" '
           f'viewBox="0 0 {view.width} {view.height}">']
    if background:
        fill, op = _hex(parse_hex(background))
        out.append(f'<rect width="100%" height="100%" fill="{fill}" fill-opacity="{op}"/>')
    if attachments:
        masks = inst.draw_batch().masks if hasattr(inst, "draw_batch") else []
        if masks:
            out.append("<defs>")
            for k, m in enumerate(masks):
                px = view.to_px(np.asarray(m["vertices"], dtype=np.float64).reshape(-1, 2))
                out.append(f'<clipPath id="clip{k}"><path d="{_poly_d(px)}"/></clipPath>')
            out.append("</defs>")
        for item in draw_items(inst):
            v = view.to_px(np.asarray(item.vertices, dtype=np.float64).reshape(-1, 2))
            ix = np.asarray(item.indices, dtype=np.int64).reshape(-1)
            ix = ix[: len(ix) // 3 * 3]
            if not len(ix) or ix.max() >= len(v):
                continue
            fill, op = _hex(item.color)
            d = " ".join(_poly_d(v[t]) for t in ix.reshape(-1, 3))
            attrs = f'fill="{fill}" fill-opacity="{op}"'
            if getattr(item, "clip", None) is not None and item.clip < len(masks):
                attrs += f' clip-path="url(#clip{item.clip})"'
            blend = _SVG_BLEND.get(getattr(item, "blend", "normal"))
            if blend:
                attrs += f' style="mix-blend-mode:{blend}"'
            out.append(f'<path data-slot="{item.slot}" data-attachment="{item.attachment}" {attrs} d="{d}"/>')
    if boxes:
        for kind, poly in outlines(inst):
            color = CLIP_COLOR if kind == "clipping" else BOX_COLOR
            out.append(f'<path data-kind="{kind}" d="{_poly_d(view.to_px(poly))}" fill="none" '
                       f'stroke="{_int_hex(color)}"/>')
    if bones:
        w = np.asarray(inst.world)
        active = np.asarray(inst.active_bones)
        stroke = _int_hex(BONE_COLOR)
        for i, b in enumerate(doc.bones):
            if not active[i]:
                continue
            a, _, c, _, x, y = w[i]
            o = view.to_px(np.array([[x, y]]))[0]
            if b.length > 0:
                t = view.to_px(np.array([[x + a * b.length, y + c * b.length]]))[0]
                out.append(f'<line data-bone="{b.name}" x1="{_num(o[0])}" y1="{_num(o[1])}" x2="{_num(t[0])}" '
                           f'y2="{_num(t[1])}" stroke="{stroke}" stroke-width="{_num(2 * view.scale)}"/>')
            out.append(f'<circle data-bone="{b.name}" cx="{_num(o[0])}" cy="{_num(o[1])}" '
                       f'r="{_num(2.2 * view.scale)}" fill="{stroke}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
