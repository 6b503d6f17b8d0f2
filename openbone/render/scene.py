"""What a picture of a pose shows, independent of the 2D engine that draws it.

Skeleton space → pixels (:class:`View`), the document's attachments as the
renderer needs them (:func:`doc_info`), textures (:class:`Textures`: a ``data:``
URL or a file next to the rig, loaded once), the draw items (the runtime's draw
list; a *preview* computed from the document for builds without one), clipping
masks and bounding boxes (:func:`outlines`), the points a framing must show
(:func:`pose_points`) and frame specifications (:func:`parse_frames`).
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

from ..document import Document

BONE_COLOR = (40, 70, 160, 220)
BOX_COLOR = (20, 150, 60, 255)
CLIP_COLOR = (200, 30, 200, 255)


def _boundary_edges(ix: np.ndarray) -> List[Tuple[int, int]]:
    """Edges of a triangle list that only one triangle uses (a mesh's outline)."""
    count: Dict[Tuple[int, int], int] = {}
    first: Dict[Tuple[int, int], Tuple[int, int]] = {}
    for t in range(0, len(ix) - 2, 3):
        a, b, c = int(ix[t]), int(ix[t + 1]), int(ix[t + 2])
        for e in ((a, b), (b, c), (c, a)):
            k = (min(e), max(e))
            count[k] = count.get(k, 0) + 1
            first.setdefault(k, e)
    return [first[k] for k, n in count.items() if n == 1]


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

    def skia_image(self, tid: Any):
        """The texture as a ``skia.Image`` (straight alpha), None when missing."""
        key = ("skia", tid)
        if key not in self.cache:
            img = self.get(tid)
            if img is None:
                self.cache[key] = None
            else:
                import skia
                a = np.ascontiguousarray(np.asarray(img.convert("RGBA"), dtype=np.uint8))
                self.cache[key] = skia.Image.fromarray(a, colorType=skia.kRGBA_8888_ColorType,
                                                       alphaType=skia.kUnpremul_AlphaType)
        return self.cache[key]


def texture_files(doc: Document, base: Optional[str] = None) -> List[Tuple[str, str, str, bool]]:
    """(kind, id, src, exists) for every image and atlas page whose ``src`` is a file
    path (not a ``data:`` or network URL), resolved next to the rig (``base``, default the
    document's directory)."""
    info = doc_info(doc)
    if base is None:
        base = os.path.dirname(os.path.abspath(doc.source)) if doc.source else os.getcwd()
    out = []
    entries = [("image", im.get("id"), im.get("src")) for im in doc.images]
    entries += [("atlas page", pid, p.get("src")) for pid, p in info.pages.items()]
    for kind, ident, src in entries:
        if not isinstance(src, str) or not src or src.startswith("data:") or "://" in src:
            continue
        path = src if os.path.isabs(src) else os.path.join(base, src)
        out.append((kind, str(ident), src, os.path.isfile(path)))
    return out


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
