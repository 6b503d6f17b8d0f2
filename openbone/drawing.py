"""Instance API for §8 draw list, bounds, text (mixed into openbone.Instance).

The C core builds the draw list (§8.4) into buffers sized at instance
creation; this module only wraps the result:

* ``inst.draw_list()`` -> list of :class:`DrawItem` (NumPy arrays per item);
* ``inst.draw_batch()`` -> :class:`DrawBatch`, every item's vertices, uvs and
  indices concatenated (indices rebased) plus an item table, built in one call;
* ``inst.set_text(slot, text_or_None)`` -> §8.9 setText;
* ``inst.bounds()`` -> :class:`Bounds`, the §8.10 bounding-box snapshot.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

#: ob_attachment_type order (csrc/document.h)
ATTACHMENT_TYPES = ("region", "mesh", "shape", "boundingBox", "point", "text", "sequence",
                    "particles", "clipping", "path", "unknown")
#: ob_blend order (csrc/document.h)
BLENDS = ("normal", "additive", "multiply", "screen")


def _round(v: float) -> Any:
    from .conformance import _num  # late: conformance imports the instance module
    return _num(v)


class DrawItem:
    """One §8.4 draw item.

    ``vertices``/``uvs`` are ``(n, 2)`` float32 (skeleton space, y up; uvs v down),
    ``indices`` item-local (uint16 when n < 65536, else uint32), ``color`` and
    ``dark`` RGBA tuples (``dark`` None when the slot has none), ``colors`` per-vertex
    RGBA ``(n, 4)`` float32 (particles) or None, ``texture`` the page / image id or
    None, ``clip`` the mask index among the masks this list uses, or None, ``text``
    the formatted text record (text items) or None.
    """

    __slots__ = ("slot", "attachment", "type", "blend", "texture", "vertices", "uvs", "indices",
                 "color", "dark", "colors", "clip", "text")

    def __init__(self, **kw: Any):
        for k in self.__slots__:
            setattr(self, k, kw[k])

    def conformance(self) -> Dict[str, Any]:
        """The FORMAT.md draw dict: flat lists, numbers rounded to 4 decimals."""
        r = _round
        return {
            "slot": self.slot, "attachment": self.attachment, "type": self.type, "blend": self.blend,
            "texture": self.texture,
            "vertices": [r(v) for v in self.vertices.ravel().tolist()],
            "uvs": [r(v) for v in self.uvs.ravel().tolist()],
            "indices": [int(i) for i in self.indices.tolist()],
            "color": [r(v) for v in self.color],
            "dark": None if self.dark is None else [r(v) for v in self.dark],
            "colors": None if self.colors is None else [r(v) for v in self.colors.ravel().tolist()],
            "clip": self.clip, "text": self.text,
        }

    def __repr__(self) -> str:
        return (f"<DrawItem {self.type} {self.slot}/{self.attachment}: {len(self.vertices)} vertices, "
                f"{len(self.indices) // 3} triangles, texture={self.texture!r}, clip={self.clip}>")


class DrawBatch:
    """The whole draw list in shared arrays (one C call).

    ``vertices``, ``uvs``: ``(V, 2)`` float32; ``indices``: uint32 into ``vertices``;
    ``colors``: ``(C, 4)`` float32 per-vertex colours (particles); ``items``: dict of
    arrays, one row per item: ``slot``, ``attachment`` (indices), ``type``, ``blend``
    (codes into :data:`ATTACHMENT_TYPES` / :data:`BLENDS`), ``texture`` (index into
    ``textures``, -1 none), ``first_vertex``, ``vertex_count``, ``first_index``,
    ``index_count``, ``first_color`` (-1 none), ``clip`` (-1 none), ``color``/``dark``
    ``(n, 4)`` float64, ``has_dark``, ``text`` (list); ``masks``: the clipping masks
    used (slot, attachment, world ``vertices``, ``indices``).
    """

    def __init__(self, raw: Dict[str, Any], textures: List[str]):
        self.vertices: np.ndarray = raw["vertices"]
        self.uvs: np.ndarray = raw["uvs"]
        self.indices: np.ndarray = raw["indices"]
        self.colors: np.ndarray = raw["colors"]
        self.items: Dict[str, Any] = raw["items"]
        self.masks: List[Dict[str, Any]] = raw["masks"]
        self.textures = textures

    def __len__(self) -> int:
        return len(self.items["slot"])


class Bounds:
    """§8.10 bounding-box snapshot of an instance's current pose (SkeletonBounds).

    Boxes are listed in draw order; queries answer slot names (or lists of them).
    """

    def __init__(self, core: Any, slot_names: Sequence[str], attachment_names: Sequence[str]):
        self._core = core
        boxes = core.boxes
        self.boxes: List[Dict[str, Any]] = [
            {"slot": slot_names[b["slot"]], "attachment": attachment_names[b["attachment"]],
             "vertices": b["vertices"], "minX": b["minX"], "minY": b["minY"], "maxX": b["maxX"],
             "maxY": b["maxY"]} for b in boxes]
        self.min_x, self.min_y, self.max_x, self.max_y = core.aabb

    def _slot(self, i: Optional[int]) -> Optional[str]:
        return None if i is None else self.boxes[i]["slot"]

    def aabb_contains_point(self, x: float, y: float) -> bool:
        return self._core.aabb_contains_point(x, y)

    def aabb_intersects(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        return self._core.aabb_intersects(x0, y0, x1, y1)

    def contains_point(self, x: float, y: float) -> Optional[str]:
        """Slot name of the first box containing the point (even-odd), or None."""
        return self._slot(self._core.contains_point(x, y))

    def contains_point_all(self, x: float, y: float) -> List[str]:
        return [self.boxes[i]["slot"] for i in self._core.contains_point_all(x, y)]

    def intersects_segment(self, x1: float, y1: float, x2: float, y2: float) -> Optional[str]:
        return self._slot(self._core.intersects_segment(x1, y1, x2, y2))

    def intersects_segment_all(self, x1: float, y1: float, x2: float, y2: float) -> List[str]:
        return [self.boxes[i]["slot"] for i in self._core.intersects_segment_all(x1, y1, x2, y2)]

    def intersects_bounds(self, other: "Bounds") -> Optional[Tuple[str, str]]:
        """The first pair (my slot, their slot) of boxes that overlap, or None."""
        pair = self._core.intersects_bounds(other._core)
        return None if pair is None else (self.boxes[pair[0]]["slot"], other.boxes[pair[1]]["slot"])

    _QUERIES = {"aabbContainsPoint": "aabb_contains_point", "aabbIntersects": "aabb_intersects",
                "containsPoint": "contains_point", "containsPointAll": "contains_point_all",
                "intersectsSegment": "intersects_segment", "intersectsSegmentAll": "intersects_segment_all"}

    def query(self, q: Dict[str, Any]) -> Any:
        """One FORMAT.md query object, e.g. ``{"containsPoint": [x, y]}``."""
        if not isinstance(q, dict) or len(q) != 1:
            raise ValueError(f"a bounds query is an object with one key, got {q!r}")
        (kind, args), = q.items()
        name = self._QUERIES.get(kind)
        if name is None:
            raise ValueError(f"unknown bounds query {kind!r}")
        return getattr(self, name)(*[float(a) for a in args])

    def conformance(self, queries: Sequence[Dict[str, Any]] = ()) -> Dict[str, Any]:
        """The FORMAT.md ``bounds`` dict, numbers rounded to 4 decimals."""
        r = _round
        return {
            "boxes": [{"slot": b["slot"], "attachment": b["attachment"],
                       "vertices": [r(v) for v in b["vertices"].ravel().tolist()],
                       "minX": r(b["minX"]), "minY": r(b["minY"]), "maxX": r(b["maxX"]), "maxY": r(b["maxY"])}
                      for b in self.boxes],
            "minX": r(self.min_x), "minY": r(self.min_y), "maxX": r(self.max_x), "maxY": r(self.max_y),
            "queries": [self.query(q) for q in queries],
        }

    def __repr__(self) -> str:
        return f"<openbone.Bounds: {len(self.boxes)} boxes, aabb={self._core.aabb}>"


class DrawAPI:
    """Methods of :class:`openbone.Instance` for §8 draw list, bounds, text."""

    def _draw_names(self) -> Tuple[List[str], List[str], List[str]]:
        names = getattr(self, "_draw_name_cache", None)
        if names is None:
            names = (self.document.slot_names, self.attachment_names, self.texture_names)
            self._draw_name_cache = names
        return names

    def world_vertices(self) -> Dict[str, np.ndarray]:
        """World vertices of every region and mesh shown, by slot name, in draw order.

        Each value is a float32 ``(n, 2)`` array: exactly the vertices the
        draw list gives that slot's item (§8.2 quad or §8.7 polygon for a
        region, §8.3 weights and deform for a mesh), but without uvs,
        colours, indices or clipping, and whatever the slot's alpha.  Slots
        on inactive bones (§3.3) and other attachment types are left out.
        This is the cheap per-frame output for a renderer that keeps its own
        uvs and triangles (``draw_batch()`` has those).
        """
        vertices, slots, _atts, first, count = self._world_vertices()
        names = self.document.slot_names
        return {names[s]: vertices[f:f + c] for s, f, c in zip(slots.tolist(), first.tolist(), count.tolist())}

    def draw_batch(self) -> DrawBatch:
        """§8.4 the draw list of the current pose as one batch (see :class:`DrawBatch`)."""
        return DrawBatch(self.draw_batch_raw(), self._draw_names()[2])

    def draw_list(self) -> List[DrawItem]:
        """§8.4 the draw list of the current pose, one :class:`DrawItem` per drawn attachment."""
        slots, atts, textures = self._draw_names()
        new = DrawItem.__new__
        out = []
        for (s, a, t, b, tex, v, uv, ix, color, dark, colors, clip, text) in self._draw_items():
            it = new(DrawItem)
            it.slot, it.attachment, it.type, it.blend = slots[s], atts[a], ATTACHMENT_TYPES[t], BLENDS[b]
            it.texture = textures[tex] if tex >= 0 else None
            it.vertices, it.uvs, it.indices, it.color, it.dark = v, uv, ix, color, dark
            it.colors, it.clip, it.text = colors, clip, text
            out.append(it)
        return out

    def set_text(self, slot: Any, text: Optional[str]) -> None:
        """§8.9 setText: replace the template shown by a slot's text (None restores it).

        ``slot`` is a slot name (then id) or index; an unknown slot is ignored.
        """
        i = self.document.slot_index(slot)
        if i >= 0:
            self._set_text(i, text)

    def bounds(self) -> Bounds:
        """§8.10 the bounding boxes of the current pose and their queries."""
        slots, atts, _ = self._draw_names()
        return Bounds(self._bounds(), slots, atts)
