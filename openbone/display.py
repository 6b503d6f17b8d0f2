"""Rich display in notebooks: HTML summaries and PNG pictures of poses.

Wired into :class:`openbone.Document` (``_repr_html_``: a summary table and a
picture of the setup pose), :class:`openbone.Instance` (``_repr_png_``: the current
pose) and draw items (``_repr_png_``: the item's triangles).  Pictures need Pillow
(``openbone[plot]``); without it the methods return None and Jupyter falls back to
the text ``repr``.  Nothing here is imported unless a notebook asks for a picture.
"""
from __future__ import annotations

import base64
import html
import io
from typing import Optional

import numpy as np

#: longest side of the pictures, in pixels
PICTURE_SIZE = 320


def _png(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def _have_pillow() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


def pose_image(inst, size: int = PICTURE_SIZE):
    """A Pillow image of the instance's pose, framed on the pose, longest side ``size``."""
    from .render import View, draw_items, pose_points, render_pose
    items = draw_items(inst)
    pts = pose_points(inst, items)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    extent = float(max(hi - lo)) + 40.0
    view = View.fit([pts], scale=size / max(extent, 1.0))
    return render_pose(inst, view=view)


def instance_repr_png(inst) -> Optional[bytes]:
    """PNG bytes of the current pose (None without Pillow)."""
    if not _have_pillow():
        return None
    return _png(pose_image(inst))


def document_repr_html(doc) -> str:
    """An HTML table summarising the document, with the setup pose when Pillow is there."""
    e = html.escape
    kinds: dict = {}
    for c in doc.constraints:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    rows = [
        ("size", f"{doc.width:g} × {doc.height:g}, fps {doc.fps:g}"),
        ("bones", f"{len(doc.bones)}: " + ", ".join(b.name for b in doc.bones[:12])
         + (" …" if len(doc.bones) > 12 else "")),
        ("slots", str(len(doc.slots))),
        ("skins", ", ".join(s.name for s in doc.skins) or "–"),
        ("animations", ", ".join(f"{a.name} ({a.length:g} s)" for a in doc.animations) or "–"),
        ("constraints", ", ".join(f"{k} {n}" for k, n in kinds.items()) or "–"),
        ("state machines", ", ".join(m.name for m in doc.state_machines) or "–"),
        ("images", f"{len(doc.images)}, atlas pages {doc.meta.get('pages', 0)}"),
    ]
    if doc.warnings:
        rows.append(("warnings", "<br>".join(e(w) for w in doc.warnings[:10])
                     + (f"<br>… {len(doc.warnings) - 10} more" if len(doc.warnings) > 10 else "")))
    table = "".join(f"<tr><th style='text-align:left'>{e(k)}</th><td style='text-align:left'>"
                    f"{v if k == 'warnings' else e(v)}</td></tr>" for k, v in rows)
    picture = ""
    if _have_pillow():
        try:
            from .instance import Instance
            data = base64.b64encode(_png(pose_image(Instance(doc), size=240))).decode("ascii")
            picture = f"<td style='vertical-align:top'><img src='data:image/png;base64,{data}'/></td>"
        except Exception:  # a summary must show even when posing fails
            picture = ""
    return (f"<div><b>openbone.Document</b> {e(repr(doc.name))}"
            f"<table><tr><td style='vertical-align:top'><table>{table}</table></td>{picture}</tr></table></div>")


def item_image(item, size: int = 160):
    """A Pillow image of one draw item: triangles filled with its colour, edges drawn."""
    from PIL import Image, ImageDraw
    v = np.asarray(item.vertices, dtype=np.float64).reshape(-1, 2)
    ix = np.asarray(item.indices, dtype=np.int64).reshape(-1)
    img = Image.new("RGBA", (size, size), (255, 255, 255, 255))
    if not len(v):
        return img
    lo, hi = v.min(axis=0), v.max(axis=0)
    k = (size - 16) / max(float(max(hi - lo)), 1e-9)
    px = np.stack([(v[:, 0] - lo[0]) * k + 8, (hi[1] - v[:, 1]) * k + 8], axis=1)
    d = ImageDraw.Draw(img, "RGBA")
    color = tuple(int(round(min(1, max(0, c)) * 255)) for c in tuple(getattr(item, "color", (1, 1, 1, 1)))[:4])
    for t in range(0, len(ix) - 2, 3):
        tri = [tuple(px[i]) for i in ix[t:t + 3] if i < len(px)]
        if len(tri) == 3:
            d.polygon(tri, fill=color, outline=(60, 60, 60, 255))
    return img


def item_repr_png(item) -> Optional[bytes]:
    if not _have_pillow():
        return None
    return _png(item_image(item))


def install_draw_item_display() -> None:
    """Give the draw-item class a ``_repr_png_`` (the class is the draw-list module's)."""
    try:
        from .drawing import DrawItem
    except ImportError:  # pragma: no cover
        return
    if not hasattr(DrawItem, "_repr_png_"):
        DrawItem._repr_png_ = item_repr_png  # type: ignore[attr-defined]
    from .render import PreviewItem
    PreviewItem._repr_png_ = item_repr_png  # type: ignore[attr-defined]
