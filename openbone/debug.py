"""Rig debugging helpers (no pandas, no display needed): the bone table, one bone's
details, and picking a bone at a point.

* :func:`bone_table` (``inst.bone_table()``): one row per bone (name, parent, active,
  local pose, world position / rotation / scale, constraints), an :class:`HtmlTable`
  that notebooks show as HTML and ``str()`` prints as text;
* :func:`bone_info`: the same for one bone, as a dict;
* :func:`pick_bone`: the bone whose drawn shape (origin to tip) is nearest a point of
  skeleton space, within a radius.
"""
from __future__ import annotations

import html
import math
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

LOCAL_FIELDS = ("x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY")


def world_decomposed(m: Sequence[float]) -> Dict[str, float]:
    """x, y, rotation (deg, of the x axis), scaleX, scaleY (signed by the determinant),
    shearY (deg: the y axis' angle past 90° from the x axis) of a world matrix
    [a, b, c, d, x, y]."""
    a, b, c, d, x, y = (float(v) for v in m)
    rx = math.degrees(math.atan2(c, a))
    ry = math.degrees(math.atan2(d, b))
    det = a * d - b * c
    shear = ((ry - rx - 90.0 + 180.0) % 360.0) - 180.0 if det >= 0 else ((ry - rx + 90.0 + 180.0) % 360.0) - 180.0
    return {"x": x, "y": y, "rotation": rx, "scaleX": math.hypot(a, c),
            "scaleY": math.hypot(b, d) * (1.0 if det >= 0 else -1.0), "shearY": shear}


def bone_constraints(doc) -> Dict[int, List[str]]:
    """Per bone index: 'kind name' of the constraints that move it, 'kind name (target)'
    of those it is the target of."""
    from .render.engine import constraint_parts
    out: Dict[int, List[str]] = {}
    for c in constraint_parts(doc):
        for b in c["bones"]:
            out.setdefault(b, []).append(f"{c['kind']} {c['name']}")
        if c["target"] >= 0:
            out.setdefault(c["target"], []).append(f"{c['kind']} {c['name']} (target)")
    return out


def bone_info(inst, bone: Union[int, str]) -> Dict[str, Any]:
    """Name, parent, active flag, local pose, world matrix and its decomposition, inherit
    mode and constraints of one bone of ``inst`` (by name, id or index)."""
    doc = inst.document
    i = bone if isinstance(bone, int) else doc.bone_index(bone)
    if not 0 <= i < len(doc.bones):
        from .document import OpenBoneError
        raise OpenBoneError(f"no bone named {bone!r}")
    b = doc.bones[i]
    local = np.asarray(inst.local_pose)[i]
    world = np.asarray(inst.world)[i]
    return {"index": i, "name": b.name, "id": b.id, "parent": b.parent, "length": b.length,
            "active": bool(np.asarray(inst.active_bones)[i]), "inherit": inst.inherit_modes[i],
            "local": {k: float(v) for k, v in zip(LOCAL_FIELDS, local)},
            "world_matrix": [float(v) for v in world], "world": world_decomposed(world),
            "constraints": bone_constraints(doc).get(i, [])}


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        s = f"{v:.3f}".rstrip("0").rstrip(".")
        return "0" if s == "-0" else s
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return ""
    if isinstance(v, (list, tuple)):
        return ", ".join(_fmt(x) for x in v)
    return str(v)


class HtmlTable:
    """Rows of a table (``columns``, ``rows`` as lists of values); ``_repr_html_`` for
    notebooks, ``str()`` for terminals, ``to_dicts()`` for code."""

    def __init__(self, columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str = "",
                 highlight: Optional[int] = None):
        self.columns = list(columns)
        self.rows = [list(r) for r in rows]
        self.title = title
        self.highlight = highlight

    def to_dicts(self) -> List[Dict[str, Any]]:
        return [dict(zip(self.columns, r)) for r in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left;padding:1px 6px'>{html.escape(c)}</th>" for c in self.columns)
        body = []
        for k, r in enumerate(self.rows):
            style = " style='background:#ffe2bf'" if k == self.highlight else ""
            cells = "".join(f"<td style='padding:1px 6px'>{html.escape(_fmt(v))}</td>" for v in r)
            body.append(f"<tr{style}>{cells}</tr>")
        cap = f"<caption style='text-align:left'><b>{html.escape(self.title)}</b></caption>" if self.title else ""
        return (f"<table class='openbone-table' style='border-collapse:collapse;font-size:12px'>{cap}"
                f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")

    def __str__(self) -> str:
        cells = [self.columns] + [[_fmt(v) for v in r] for r in self.rows]
        widths = [max(len(row[j]) for row in cells) for j in range(len(self.columns))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return (self.title + "\n" if self.title else "") + "\n".join(lines)

    __repr__ = __str__


BONE_COLUMNS = ("bone", "parent", "active", "x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY",
                "world x", "world y", "world rotation", "world scaleX", "world scaleY", "constraints")


def bone_table(inst, bones: Optional[Sequence[str]] = None, highlight: Optional[str] = None) -> HtmlTable:
    """One row per bone (or per named bone): local pose, world transform, constraints."""
    doc = inst.document
    idx = range(len(doc.bones)) if bones is None else [doc.bone_index(b) for b in bones]
    local = np.asarray(inst.local_pose)
    world = np.asarray(inst.world)
    active = np.asarray(inst.active_bones)
    cons = bone_constraints(doc)
    rows = []
    hl = None
    for k, i in enumerate(idx):
        if i < 0:
            from .document import OpenBoneError
            raise OpenBoneError(f"no bone named {list(bones)[k]!r}")  # type: ignore[arg-type]
        b = doc.bones[i]
        w = world_decomposed(world[i])
        rows.append([b.name, b.parent, bool(active[i])] + [float(v) for v in local[i]] +
                    [w["x"], w["y"], w["rotation"], w["scaleX"], w["scaleY"], ", ".join(cons.get(i, []))])
        if highlight is not None and b.name == highlight:
            hl = k
    return HtmlTable(BONE_COLUMNS, rows, title=f"{doc.name or 'rig'} bones at t={inst.time:g}", highlight=hl)


def pick_bone(inst, x: float, y: float, radius: float = 6.0) -> Optional[int]:
    """The active bone whose segment (origin to tip; a point for length 0) passes nearest
    skeleton point (x, y), if within ``radius``; None otherwise.  Ties go to the later bone
    (drawn on top)."""
    doc = inst.document
    w = np.asarray(inst.world)
    active = np.asarray(inst.active_bones)
    best, best_d = None, radius
    p = np.array([x, y], dtype=np.float64)
    for i, b in enumerate(doc.bones):
        if not active[i]:
            continue
        o = w[i, 4:6]
        t = o + np.array([w[i, 0], w[i, 2]]) * b.length
        seg = t - o
        L2 = float(seg @ seg)
        u = 0.0 if L2 == 0 else min(1.0, max(0.0, float((p - o) @ seg) / L2))
        d = float(np.hypot(*(o + u * seg - p)))
        if d <= best_d:
            best, best_d = i, d
    return best
