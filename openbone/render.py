"""Pictures of a pose (`openbone render`, rich display): Pillow, no display needed.

What is drawn, back to front, on the artboard (``doc.width x doc.height`` pixels,
y down, the skeleton origin at ``doc.origin_x, doc.origin_y``; §4 world space is y up):

* the draw list (``inst.draw_list()``, §8.4): each item's triangles filled with its
  colour, textured when its texture (an image or atlas page id) can be loaded from a
  ``data:`` URL or a file next to the rig, else outlined so white parts stay visible;
* clipping masks and bounding boxes (current attachments) outlined;
* bones: a tapered shape from the origin along the bone's world x axis for its
  ``length`` (a dot for length 0).

Builds without ``Instance.draw_list`` get a *preview* instead of the draw list:
region quads (§8.2, no skew) and meshes (§8.3, no deform) of the current
attachments, computed here from the document JSON.  It is for pictures only; the
runtime's draw list is the contract.

Clipped items are masked by their clipping polygon (the even-odd fill of the mask's
outline).  Not rendered: blend modes other than normal/additive (drawn as normal),
dark colours (two-colour tint), text glyphs (the text box is filled and outlined).
"""
from __future__ import annotations

import base64
import io
import json
import math
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from .document import Document

BONE_COLOR = (40, 70, 160, 220)
BOX_COLOR = (20, 150, 60, 255)
CLIP_COLOR = (200, 30, 200, 255)


def _require_pillow():
    try:
        from PIL import Image  # noqa: F401
    except ImportError as e:  # pragma: no cover - exercised only without Pillow
        raise ImportError("rendering needs Pillow: pip install 'openbone[plot]'") from e


def parse_hex(h: Optional[str], default=(1.0, 1.0, 1.0, 1.0)) -> Tuple[float, float, float, float]:
    """§4.5 parseHex: '#rgb', '#rgba', '#rrggbb', '#rrggbbaa' → RGBA in 0..1."""
    if not isinstance(h, str):
        return default
    s = h[1:] if h.startswith("#") else h
    if len(s) in (3, 4):
        s = "".join(c + c for c in s)
    try:
        ch = [int(s[i:i + 2], 16) / 255 for i in range(0, len(s), 2)]
    except ValueError:
        return default
    if len(ch) == 3:
        ch.append(1.0)
    return tuple(ch[:4]) if len(ch) >= 4 else default  # type: ignore[return-value]


def _rgba8(c: Sequence[float]) -> Tuple[int, int, int, int]:
    return tuple(int(round(min(1.0, max(0.0, float(v))) * 255)) for v in c[:4])  # type: ignore[return-value]


# ---- the document JSON, parsed once per document ---------------------------

class _DocInfo:
    """What rendering needs from ``doc.json``: skins' attachments by slot, bones by id."""

    def __init__(self, doc: Document):
        self.doc = doc
        d = json.loads(doc.json)
        self.json = d
        sk = d.get("skeleton") or {}
        self.bone_ids = {b.id: b.index for b in doc.bones}
        self.slot_ids = [s.id for s in doc.slots]
        self.skins = [(s.get("attachments") or {}) for s in (sk.get("skins") or []) if isinstance(s, dict)]
        self.images = {im["id"]: im for im in doc.images}
        for im in doc.images:
            self.images.setdefault(im["name"], im)
        atlas = d.get("atlas") or {}
        self.pages = {p.get("id"): p for p in (atlas.get("pages") or []) if isinstance(p, dict)}
        self.premultiplied = bool(atlas.get("premultipliedAlpha", False))

    def attachment(self, skin: int, slot: int, name: Optional[str]) -> Optional[Dict[str, Any]]:
        """§8.1: the current skin's entry, else the default (first) skin's."""
        if name is None or slot < 0:
            return None
        sid = self.slot_ids[slot]
        for k in ([skin] if 0 <= skin < len(self.skins) else []) + [0]:
            if k < len(self.skins):
                a = (self.skins[k].get(sid) or {}).get(name)
                if isinstance(a, dict):
                    return a
        return None


def doc_info(doc: Document) -> _DocInfo:
    info = getattr(doc, "_render_info", None)
    if info is None:
        info = _DocInfo(doc)
        try:
            doc._render_info = info  # type: ignore[attr-defined]
        except AttributeError:  # pragma: no cover
            pass
    return info


# ---- geometry from the document (outlines, preview) ------------------------

def _apply(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    a, b, c, d, x, y = m
    return np.stack([a * pts[:, 0] + b * pts[:, 1] + x, c * pts[:, 0] + d * pts[:, 1] + y], axis=1)


def attachment_world_vertices(inst, slot: int, att: Dict[str, Any]) -> Optional[np.ndarray]:
    """World vertices ``(n, 2)`` of a vertex attachment (mesh, boundingBox, clipping, path)
    or a region quad, from the document (§8.2 without skew, §8.3 without deform)."""
    info = doc_info(inst.document)
    world = np.asarray(inst.world)
    bone = inst.document.bone_index(inst.document.slots[slot].bone)
    typ = att.get("type")
    if typ in ("region", "sequence", "text"):
        sx = 1.0 if typ == "text" else float(att.get("scaleX", 1))
        sy = 1.0 if typ == "text" else float(att.get("scaleY", 1))
        hw, hh = float(att.get("width", 0)) / 2 * sx, float(att.get("height", 0)) / 2 * sy
        q = np.array([[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]])
        r = math.radians(float(att.get("rotation", 0)))
        cr, sr = math.cos(r), math.sin(r)
        q = np.stack([q[:, 0] * cr - q[:, 1] * sr + float(att.get("x", 0)),
                      q[:, 0] * sr + q[:, 1] * cr + float(att.get("y", 0))], axis=1)
        return _apply(world[bone], q)
    weights = att.get("weights")
    if isinstance(weights, list) and weights:
        out = np.zeros((len(weights), 2))
        for i, infl in enumerate(weights):
            for w in infl or []:
                bi = info.bone_ids.get(w.get("bone"), bone)
                p = _apply(world[bi], np.array([[float(w.get("x", 0)), float(w.get("y", 0))]]))[0]
                out[i] += float(w.get("weight", 0)) * p
        return out
    v = att.get("vertices")
    if not isinstance(v, list) or len(v) < 2:
        return None
    pts = np.asarray(v[: len(v) // 2 * 2], dtype=np.float64).reshape(-1, 2)
    return _apply(world[bone], pts)


@dataclass
class PreviewItem:
    """A draw item computed by the preview (builds without ``Instance.draw_list``)."""

    slot: str
    attachment: str
    type: str
    vertices: np.ndarray
    uvs: np.ndarray
    indices: np.ndarray
    color: Tuple[float, float, float, float]
    texture: Optional[str]
    blend: str = "normal"
    colors: Any = None
    clip: Any = None

    def __repr__(self) -> str:
        return f"<preview item {self.type} {self.slot}/{self.attachment}: {len(self.vertices)} vertices>"


def preview_items(inst) -> List[PreviewItem]:
    """Region and mesh items of the current attachments, in draw order (see the module doc)."""
    doc = inst.document
    info = doc_info(doc)
    atts = inst.slot_attachments
    active = np.asarray(inst.active_bones)
    colors = np.asarray(inst.slot_colors)
    out: List[PreviewItem] = []
    for s in np.asarray(inst.draw_order):
        s = int(s)
        slot = doc.slots[s]
        if not active[doc.bone_index(slot.bone)]:
            continue
        att = info.attachment(inst.skin, s, atts[s])
        if att is None or att.get("type") not in ("region", "mesh"):
            continue
        c = np.asarray(colors[s]) * np.asarray(parse_hex(att.get("color")))
        if c[3] <= 0:
            continue
        v = attachment_world_vertices(inst, s, att)
        if v is None or len(v) < 3:
            continue
        if att["type"] == "region":
            uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
            ix = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)
        else:
            u = list(att.get("uvs") or [])
            u = (u + [0.0] * (2 * len(v)))[: 2 * len(v)]
            uv = np.asarray(u, dtype=np.float32).reshape(-1, 2)
            ix = np.asarray([i for i in (att.get("triangles") or []) if 0 <= i < len(v)], dtype=np.uint32)
            ix = ix[: len(ix) // 3 * 3]
        out.append(PreviewItem(slot.name, atts[s], att["type"], v.astype(np.float32), uv, ix,
                               tuple(float(x) for x in c), att.get("image")))
    return out


def draw_items(inst) -> List[Any]:
    """The runtime's draw list when the build has it, else the preview."""
    if hasattr(inst, "draw_list"):
        return list(inst.draw_list())
    return preview_items(inst)


def clip_masks(inst) -> List[np.ndarray]:
    """World polygons of the clipping masks the current draw list uses, by ``clip`` index
    (``inst.draw_batch().masks``; empty on builds without it)."""
    if not hasattr(inst, "draw_batch"):
        return []
    try:
        masks = inst.draw_batch().masks
    except Exception:  # a half-finished API must not break a picture
        return []
    out = []
    for m in masks:
        v = m["vertices"] if isinstance(m, dict) else getattr(m, "vertices")
        out.append(np.asarray(v, dtype=np.float64).reshape(-1, 2))
    return out


def outlines(inst) -> List[Tuple[str, np.ndarray]]:
    """(kind, world polygon) of the clipping masks in use and the current bounding boxes.

    Clipping masks come from ``inst.draw_batch().masks`` and boxes from
    ``inst.bounds()`` when the build has them; otherwise both are computed from the
    document (current clipping / boundingBox attachments, §8.3 without deform)."""
    doc = inst.document
    info = doc_info(doc)
    out: List[Tuple[str, np.ndarray]] = []
    have_bounds = have_masks = False
    if hasattr(inst, "draw_batch"):
        out.extend(("clipping", m) for m in clip_masks(inst))
        have_masks = True
    if hasattr(inst, "bounds"):
        try:
            boxes = getattr(inst.bounds(), "boxes", None)
            if boxes is not None:
                for box in boxes:
                    v = box["vertices"] if isinstance(box, dict) else getattr(box, "vertices")
                    out.append(("boundingBox", np.asarray(v, dtype=np.float64).reshape(-1, 2)))
                have_bounds = True
        except Exception:
            have_bounds = False
    if have_bounds and have_masks:
        return out
    atts = inst.slot_attachments
    active = np.asarray(inst.active_bones)
    for s in np.asarray(inst.draw_order):
        s = int(s)
        if not active[doc.bone_index(doc.slots[s].bone)]:
            continue
        att = info.attachment(inst.skin, s, atts[s])
        if att is None:
            continue
        t = att.get("type")
        if (t == "clipping" and not have_masks) or (t == "boundingBox" and not have_bounds):
            v = attachment_world_vertices(inst, s, att)
            if v is not None and len(v) >= 3:
                out.append((t, v))
    return out


# ---- textures --------------------------------------------------------------

class Textures:
    """Texture id (image or atlas page id) → Pillow RGBA image, loaded once; None when
    the source is missing or unreadable (a data: URL or a path relative to the rig)."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.info = doc_info(doc)
        self.base = os.path.dirname(os.path.abspath(doc.source)) if doc.source else os.getcwd()
        self.cache: Dict[Any, Any] = {}

    def _open(self, src: str):
        from PIL import Image
        if src.startswith("data:"):
            head, _, payload = src.partition(",")
            raw = base64.b64decode(payload) if head.endswith(";base64") else payload.encode("latin-1")
            return Image.open(io.BytesIO(raw))
        path = src if os.path.isabs(src) else os.path.join(self.base, src)
        return Image.open(path)

    def premultiplied(self, tid: Any):
        """The texture as Pillow's premultiplied "RGBa", converted once (Pillow's bilinear
        transform of an RGBA image converts the whole image on every call)."""
        key = ("RGBa", tid)
        if key not in self.cache:
            img = self.get(tid)
            self.cache[key] = img.convert("RGBa") if img is not None else None
        return self.cache[key]

    def get(self, tid: Any):
        if tid is None:
            return None
        if tid in self.cache:
            return self.cache[tid]
        img = None
        if tid == "@openbone/particle-dot":  # §8.8: the runtime's soft round dot
            from PIL import Image
            r = np.hypot(*np.meshgrid(np.linspace(-1, 1, 64), np.linspace(-1, 1, 64)))
            a = np.zeros((64, 64, 4), np.uint8)
            a[..., :3] = 255
            a[..., 3] = (np.clip(1 - r, 0, 1) ** 1.5 * 255).astype(np.uint8)
            img = Image.fromarray(a, "RGBA")
            self.cache[tid] = img
            return img
        page = self.info.pages.get(tid)
        meta = page if page is not None else self.info.images.get(tid)
        src = meta.get("src") if isinstance(meta, dict) else None
        if src:
            try:
                img = self._open(src).convert("RGBA")
                if page is not None and self.info.premultiplied:
                    a = np.asarray(img, dtype=np.float32)
                    al = np.maximum(a[..., 3:4], 1.0) / 255.0
                    a[..., :3] = np.clip(a[..., :3] / al, 0, 255)
                    from PIL import Image
                    img = Image.fromarray(a.astype(np.uint8), "RGBA")
            except Exception:
                img = None
        self.cache[tid] = img
        return img


# ---- the view --------------------------------------------------------------

@dataclass
class View:
    """Skeleton space → image pixels: ``px = (ox + x) * scale``, ``py = (oy - y) * scale``."""

    width: int
    height: int
    ox: float
    oy: float
    scale: float = 1.0

    def to_px(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        return np.stack([(self.ox + pts[:, 0]) * self.scale, (self.oy - pts[:, 1]) * self.scale], axis=1)

    @classmethod
    def artboard(cls, doc: Document, scale: float = 1.0) -> "View":
        w, h = doc.width, doc.height
        if not (w > 0 and h > 0):
            return cls.fit([np.zeros((1, 2))], scale=scale)
        return cls(max(1, int(round(w * scale))), max(1, int(round(h * scale))), doc.origin_x, doc.origin_y, scale)

    @classmethod
    def fit(cls, point_sets: Iterable[np.ndarray], scale: float = 1.0, margin: float = 20.0,
            size: Optional[Tuple[int, int]] = None) -> "View":
        pts = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in point_sets]
        pts = [p[np.isfinite(p).all(axis=1)] for p in pts if len(p)]
        allp = np.concatenate(pts) if pts else np.zeros((1, 2))
        if not len(allp):
            allp = np.zeros((1, 2))
        x0, y0 = allp.min(axis=0) - margin
        x1, y1 = allp.max(axis=0) + margin
        w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        if size is not None:
            scale = min(size[0] / w, size[1] / h)
            W, H = size
            ox = -x0 + (W / scale - w) / 2
            oy = y1 + (H / scale - h) / 2
            return cls(int(W), int(H), ox, oy, scale)
        return cls(max(1, int(math.ceil(w * scale))), max(1, int(math.ceil(h * scale))), -x0, y1, scale)


def pose_points(inst, items: Optional[List[Any]] = None) -> np.ndarray:
    """Every point a picture of the pose shows (bone origins and tips, item vertices)."""
    w = np.asarray(inst.world)
    lengths = np.array([b.length for b in inst.document.bones])
    tips = np.stack([w[:, 4] + w[:, 0] * lengths, w[:, 5] + w[:, 2] * lengths], axis=1)
    parts = [w[:, 4:6], tips]
    for it in items if items is not None else draw_items(inst):
        parts.append(np.asarray(it.vertices, dtype=np.float64).reshape(-1, 2))
    return np.concatenate(parts) if parts else np.zeros((0, 2))


def drawn_points(inst, attachments: bool = True, bones: bool = True) -> np.ndarray:
    """What ``render --fit`` frames: the draw list's vertices (what is drawn); the bones
    only when nothing else is drawn (no attachments, or ``attachments=False``)."""
    if attachments:
        items = [np.asarray(it.vertices, dtype=np.float64).reshape(-1, 2) for it in draw_items(inst)]
        items = [p for p in items if len(p)]
        if items:
            return np.concatenate(items)
    if not bones:
        return np.zeros((0, 2))
    return pose_points(inst, items=[])


# ---- drawing ---------------------------------------------------------------

def _boundary_edges(ix: np.ndarray) -> List[Tuple[int, int]]:
    count: Dict[Tuple[int, int], int] = {}
    first: Dict[Tuple[int, int], Tuple[int, int]] = {}
    for t in range(0, len(ix) - 2, 3):
        a, b, c = int(ix[t]), int(ix[t + 1]), int(ix[t + 2])
        for e in ((a, b), (b, c), (c, a)):
            k = (min(e), max(e))
            count[k] = count.get(k, 0) + 1
            first.setdefault(k, e)
    return [first[k] for k, n in count.items() if n == 1]


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
        src = textures.premultiplied(getattr(item, "texture", None)) if textures is not None else None
        uv = np.asarray(uvs, dtype=np.float64).reshape(-1, 2) * (tex.width, tex.height)
        for t in tris:
            coef = _affine(uv[t], local[t])
            if coef is None:
                continue
            # only the triangle's own box is warped (a mesh's triangles are small next to the item)
            lo = np.maximum(np.floor(local[t].min(axis=0)).astype(int) - 1, 0)
            hi = np.minimum(np.ceil(local[t].max(axis=0)).astype(int) + 1, (w, h))
            tw, th = int(hi[0] - lo[0]), int(hi[1] - lo[1])
            if tw <= 0 or th <= 0:
                continue
            a, b, c, d, e, f = coef
            ox, oy = float(lo[0]), float(lo[1])
            warped = src.transform((tw, th), Image.AFFINE, (a, b, a * ox + b * oy + c, d, e, d * ox + e * oy + f),
                                   resample=Image.BILINEAR).convert("RGBA")
            mask = Image.new("L", (tw, th), 0)
            ImageDraw.Draw(mask).polygon([tuple(p) for p in local[t] - lo], fill=255)
            layer.paste(warped, (int(lo[0]), int(lo[1])), mask)
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


# ---- frames of an animation ------------------------------------------------

def parse_frames(spec: Optional[str], count: Optional[int] = None) -> List[int]:
    """``"0"``, ``"0,10,20"``, ``"0:30"`` (end excluded), ``"0:30:5"``, ``":"`` / ``"all"``
    (every frame of the animation: ``count`` frames) → frame numbers."""
    if spec is None or spec == "":
        return [0]
    out: List[int] = []
    for part in spec.split(","):
        part = part.strip()
        if part in ("all", ":"):
            if count is None:
                raise ValueError("'all' frames needs an animation")
            out.extend(range(count))
        elif ":" in part:
            bits = part.split(":")
            if len(bits) > 3:
                raise ValueError(f"bad frame range {part!r}")
            start = int(bits[0]) if bits[0] else 0
            if len(bits) > 1 and bits[1]:
                stop = int(bits[1])
            elif count is not None:
                stop = count
            else:
                raise ValueError(f"open frame range {part!r} needs an animation")
            step = int(bits[2]) if len(bits) == 3 and bits[2] else 1
            if step <= 0:
                raise ValueError(f"bad frame step in {part!r}")
            out.extend(range(start, stop, step))
        else:
            out.append(int(part))
    if any(f < 0 for f in out):
        raise ValueError("frame numbers must be >= 0")
    if not out:
        raise ValueError(f"no frames in {spec!r}")
    return out


def render_frames(doc: Document, frames: Sequence[int], animation: Optional[str] = None, fps: Optional[float] = None,
                  skin: Optional[str] = None, scale: float = 1.0, fit: bool = False, **kw) -> List[Any]:
    """Images of the given frames (frame k = after ``advance(0)`` and k ``advance(1/fps)``, as
    :func:`openbone.bake.bake` counts them).  ``fit`` frames what is drawn (:func:`drawn_points`)
    instead of the artboard, with one view for all frames."""
    from .bake import start_animation
    from .instance import Instance
    fps = fps or doc.fps or 30.0
    dt = 1.0 / fps
    wanted = sorted(set(frames))

    def fresh():
        inst = Instance(doc, skin=skin)
        start_animation(inst, animation)
        inst.advance(0.0)
        return inst

    def poses():
        """(frame, instance posed at it) for the wanted frames, in order."""
        inst, k = fresh(), 0
        for f in wanted:
            while k < f:
                inst.advance(dt)
                k += 1
            yield f, inst

    if fit:  # one view for all frames: a first pass collects the points, a second draws
        kw["view"] = View.fit([drawn_points(inst, attachments=kw.get("attachments", True),
                                            bones=kw.get("bones", True)) for _, inst in poses()], scale=scale)
    snaps = {f: render_pose(inst, scale=scale, **kw) for f, inst in poses()}
    return [snaps[f] for f in frames]


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


def save_images(images: Sequence[Any], path: str, fps: float = 30.0, columns: Optional[int] = None) -> None:
    """``.gif``: an animation at ``fps`` (looping); otherwise one image (a contact sheet
    for several frames) in the format the extension names (png, webp, jpg...)."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".gif":
        frames = [im.convert("RGB").convert("P", palette=1, colors=255) for im in images]
        duration = max(20, int(round(1000 / fps)))
        frames[0].save(path, save_all=True, append_images=frames[1:], duration=duration, loop=0, disposal=2)
        return
    sheet = contact_sheet(images, columns)
    if ext in (".jpg", ".jpeg"):
        sheet = sheet.convert("RGB")
    sheet.save(path)
