"""Pictures of Jabbertoon performances on rigs (issue 15): one character, or a cartoon's stage (§7.8).

The drawing is the project's skia renderer (:mod:`openbone.render.engine`: one ``drawVertices`` per
draw item, textures, tint, blend modes, clipping masks); this module only places the rigs' draw
lists on a picture:

* :func:`character_affine` maps a rig's world coordinates onto the stage for a placement (§7.2):
  the character's origin (its feet, the role map's ``origin``) at x · W, y · H (y from the top), its
  role-map ``height`` drawn h · H tall, mirrored by facing × A (A the art's own facing) so that it
  faces ``facing`` on screen whichever way its art was drawn;
* :class:`Stage` draws a frame of ``rt.frame()``: the background (a colour, or a place name drawn as
  a sky and a ground at the feet line 0.92), every visible character in ``order`` (first drawn
  behind), the caption as text, the grade as a colour filter;
* :class:`Solo` frames one character (the rig as designed: ``facing`` = the art's own facing unless
  one is given), fitted to what the frames draw.

Picture coordinates are the renderer's :class:`~openbone.render.View`: pixels, y up from the bottom
edge for the stage.  Mirroring only negates x, so it is exact.
"""
from __future__ import annotations

import math
import zlib
from types import SimpleNamespace
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..render.engine import _Canvas, _draw_bones, _draw_item, require_skia
from ..render.scene import Textures, View, _rgba8, draw_items, parse_hex
from .rig import RigCharacter

GROUND = 0.92   # §7.2: the ground line, as a fraction of the stage height from the top
FAR = 1000.0    # a placement's x, y or h beyond this many stage sizes is not drawn (NaN and infinities neither)

# A few colour names a cartoon may give as a background (CSS names), and the places the example
# cartoons use: a place name is drawn as (sky, ground) colours; any other name gets a pastel pair
# of its own, the same on every machine (CRC-32 of the name).
COLOURS = {
    "white": "#ffffff", "black": "#000000", "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0",
    "red": "#e53935", "green": "#43a047", "blue": "#1e88e5", "yellow": "#fdd835", "orange": "#fb8c00",
    "purple": "#8e24aa", "pink": "#f48fb1", "brown": "#795548", "cyan": "#00bcd4", "magenta": "#d81b60",
    "navy": "#1a237e", "teal": "#00897b", "beige": "#f5f5dc", "ivory": "#fffff0", "skyblue": "#87ceeb",
    "transparent": "#00000000",
}
PLACES = {
    "park": ("#bfe3f7", "#7cc36b"), "garden": ("#c8e8f5", "#6fbf5c"), "forest": ("#a9d2c3", "#3f7f4a"),
    "beach": ("#9fd8f2", "#f1dca0"), "sea": ("#9fd8f2", "#3f88c5"), "desert": ("#f6e3b4", "#e0b46c"),
    "street": ("#cfd8dc", "#8d8d8d"), "city": ("#b0bec5", "#757575"), "room": ("#f3e6d3", "#b58a60"),
    "home": ("#f3e6d3", "#b58a60"), "kitchen": ("#fbf3e4", "#c9a27e"), "school": ("#f6f0dc", "#a1887f"),
    "stage": ("#3b2f4a", "#8d6e63"), "night": ("#1c2541", "#2e4a3a"), "space": ("#0b0d1a", "#2b2d42"),
    "snow": ("#dfe9f3", "#fafafa"), "office": ("#e8eaf0", "#9e9e9e"), "studio": ("#eceff1", "#cfd8dc"),
}
# §7.6 grades ("normal" | a mood name): a colour filter per grade, out = c · mul + add (0..1)
GRADES = {
    "normal": None,
    "warm": ((1.06, 0.97, 0.86), (0.02, 0.0, 0.0)),
    "cool": ((0.88, 0.97, 1.08), (0.0, 0.0, 0.02)),
    "night": ((0.45, 0.52, 0.78), (0.0, 0.0, 0.05)),
    "dusk": ((0.95, 0.72, 0.70), (0.04, 0.0, 0.04)),
    "sepia": None,   # a matrix below
    "bloom": ((0.88, 0.88, 0.88), (0.14, 0.13, 0.12)),
    "dark": ((0.55, 0.55, 0.6), (0.0, 0.0, 0.0)),
    "happy": ((1.04, 1.02, 0.92), (0.03, 0.03, 0.0)),
    "sad": ((0.82, 0.86, 0.96), (0.02, 0.02, 0.04)),
    "spooky": ((0.62, 0.78, 0.66), (0.0, 0.02, 0.0)),
}


def parse_colour(value: Any) -> Optional[Tuple[int, int, int, int]]:
    """A colour a cartoon or the CLI gives: ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa`` or a
    name of :data:`COLOURS`; None when it is not a colour (a place name)."""
    if not isinstance(value, str):
        return None
    s = value.strip().lower()
    s = COLOURS.get(s, s)
    if s.startswith("#") and len(s) in (4, 5, 7, 9) and all(c in "0123456789abcdef" for c in s[1:]):
        return _rgba8(parse_hex(s))
    return None


def place_colours(name: str) -> Tuple[Tuple[int, int, int, int], Tuple[int, int, int, int]]:
    """(sky, ground) RGBA of a place name: :data:`PLACES`, else a pastel pair from its CRC-32."""
    key = name.strip().lower()
    if key in PLACES:
        sky, ground = PLACES[key]
        return _rgba8(parse_hex(sky)), _rgba8(parse_hex(ground))
    hue = (zlib.crc32(key.encode("utf-8")) % 360) / 360.0
    import colorsys
    sky = colorsys.hls_to_rgb(hue, 0.88, 0.55)
    ground = colorsys.hls_to_rgb((hue + 0.28) % 1.0, 0.62, 0.35)
    return _rgba8(tuple(sky) + (1.0,)), _rgba8(tuple(ground) + (1.0,))


# ---- placing a rig --------------------------------------------------------------

def character_affine(char: RigCharacter, x: float, y: float, h: float, width: int, height: int,
                     mirror: Optional[int] = None) -> np.ndarray:
    """The 2×3 affine ``[a b c d tx ty]`` (§4 layout: X = a·x + b·y + tx, Y = c·x + d·y + ty) from the
    rig's world coordinates to stage pixels (y up from the bottom edge) for a placement (§7.2):
    the origin at (x·W, (1 − y)·H), ``roles.height`` drawn h·H tall, x mirrored by ``mirror``
    (default ``char.mirror`` = facing × A)."""
    s = h * height / char.roles.height
    m = float(char.mirror if mirror is None else mirror)
    ox, oy = char.roles.origin
    return np.array([m * s, 0.0, 0.0, s, x * width - m * s * ox, (1.0 - y) * height - s * oy])


def turn_width(facing: Any) -> float:
    """How wide a placement's art is drawn: |facing| (at most 1), so that a glide of facing
    through 0 (§7.2 "a glide through 0 turns it round") looks like a turn: the art narrows to
    nothing and widens again mirrored (the rig's own mirror is the sign, RigCharacter.facing).
    Exactly 1 for the placements §7.2 allows at rest (±1)."""
    if isinstance(facing, bool) or not isinstance(facing, (int, float)) or not math.isfinite(facing):
        return 1.0
    return min(abs(float(facing)), 1.0)


def _apply(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    return np.stack([m[0] * pts[:, 0] + m[1] * pts[:, 1] + m[4], m[2] * pts[:, 0] + m[3] * pts[:, 1] + m[5]], axis=1)


def _world_through(m: np.ndarray, world: np.ndarray) -> np.ndarray:
    """World matrices [a b c d x y] (a, c the x axis; b, d the y axis) carried by the affine m."""
    w = np.asarray(world, dtype=np.float64)
    out = np.empty_like(w)
    out[:, 0] = m[0] * w[:, 0] + m[1] * w[:, 2]
    out[:, 2] = m[2] * w[:, 0] + m[3] * w[:, 2]
    out[:, 1] = m[0] * w[:, 1] + m[1] * w[:, 3]
    out[:, 3] = m[2] * w[:, 1] + m[3] * w[:, 3]
    out[:, 4:6] = _apply(m, w[:, 4:6])
    return out


class Snapshot:
    """What a picture needs of a posed rig, copied (the instance moves on): its draw items and
    clipping masks carried by an affine, and its world matrices (for the bones overlay)."""

    __slots__ = ("items", "masks", "world", "active", "document")

    def __init__(self, char: RigCharacter, affine: np.ndarray):
        inst = char.instance
        self.document = char.document
        self.items = []
        for it in draw_items(inst):
            self.items.append(SimpleNamespace(
                vertices=_apply(affine, it.vertices), indices=it.indices, uvs=it.uvs, color=it.color,
                dark=getattr(it, "dark", None), colors=getattr(it, "colors", None), texture=it.texture,
                clip=getattr(it, "clip", None), blend=getattr(it, "blend", "normal"), slot=it.slot))
        masks: List[np.ndarray] = []
        if any(it.clip is not None for it in self.items) and hasattr(inst, "draw_batch"):
            for mk in inst.draw_batch().masks:
                masks.append(_apply(affine, np.asarray(mk["vertices"], dtype=np.float64)))
        self.masks = masks
        self.world = _world_through(affine, inst.world)
        self.active = np.array(inst.active_bones)

    def points(self) -> np.ndarray:
        """Every vertex drawn (the bone origins when nothing is)."""
        parts = [it.vertices for it in self.items if len(it.vertices)]
        return np.concatenate(parts) if parts else self.world[:, 4:6].copy()


class _Textures:
    """One :class:`openbone.render.Textures` per document (a cartoon's cast shares them)."""

    def __init__(self, textured: bool = True):
        self.textured = textured
        self._by_doc: Dict[int, Tuple[Any, Textures]] = {}

    def of(self, doc) -> Textures:
        hit = self._by_doc.get(id(doc))
        if hit is None or hit[0] is not doc:
            hit = (doc, Textures(doc))
            self._by_doc[id(doc)] = hit
        return hit[1]


def _draw_snapshot(cv: _Canvas, snap: Snapshot, textures: _Textures, bones: bool) -> None:
    tex = textures.of(snap.document)
    for item in snap.items:
        clip = item.clip
        mask = snap.masks[clip] if clip is not None and 0 <= clip < len(snap.masks) else None
        _draw_item(cv, item, tex, mask, outline=True, textured=textures.textured)
    if bones:
        _draw_bones(cv, SimpleNamespace(world=snap.world, active_bones=snap.active, document=snap.document),
                    None, (), {})


def _font(size: float):
    import skia
    face = skia.FontMgr.RefDefault().matchFamilyStyle(None, skia.FontStyle())
    return skia.Font(face, size)


def _plain(text: Any) -> str:
    """Text skia can draw: lone surrogates (a JSON "\\ud800") become U+FFFD."""
    return str(text).encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _wrap(font, text: str, width: float, most: int = 5) -> List[str]:
    """Lines of at most ``width`` pixels (a word wider than that on a line of its own); stops once
    ``most`` lines are made (the caption shows 4)."""
    lines: List[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = word if not line else line + " " + word
            if line and font.measureText(trial) > width:
                lines.append(line)
                if len(lines) >= most:
                    return lines
                line = word
            else:
                line = trial
        lines.append(line)
        if len(lines) >= most:
            return lines
    return lines


def _text(cv: _Canvas, text: str, x: float, y: float, size: float, color, align: str = "left",
          box=None, max_width: Optional[float] = None, bottom: bool = False) -> None:
    """Text at pixel (x, y) of the canvas (y down; the top of the first line, or with ``bottom``
    the bottom of the last), wrapped to ``max_width`` (at most 4 lines), over a rounded ``box``
    colour when given."""
    import skia
    font = _font(size)
    text = _plain(text)
    lines = _wrap(font, text, max_width) if max_width else text.split("\n")
    if len(lines) > 4:
        lines = lines[:3] + [lines[3] + " …"]
    ascent = -font.getMetrics().fAscent
    step = size * 1.25
    if bottom:
        y -= step * (len(lines) - 1) + size * 1.1
    widths = [font.measureText(ln) for ln in lines]
    w = max(widths) if widths else 0.0
    x0 = x - w / 2 if align == "center" else x
    if box is not None and lines:
        pad = size * 0.4
        rect = skia.Rect.MakeLTRB(x0 - pad, y - pad, x0 + w + pad, y + step * (len(lines) - 1) + size * 1.1 + pad)
        cv.canvas.drawRoundRect(rect, pad, pad, skia.Paint(Color=skia.Color(*box[:3], box[3]), AntiAlias=True))
    paint = skia.Paint(Color=skia.Color(*color[:3], color[3]), AntiAlias=True)
    for k, (ln, lw) in enumerate(zip(lines, widths)):
        lx = x - lw / 2 if align == "center" else x
        cv.canvas.drawString(ln, float(lx), float(y + ascent + k * step), font, paint)


def _grade(a: np.ndarray, grade: Optional[str]) -> np.ndarray:
    if not grade or grade == "normal":
        return a
    g = str(grade).lower()
    if g not in GRADES:
        return a   # a grade nothing here knows: drawn as normal (rt.frame() still reports it)
    rgb = a[..., :3].astype(np.float32) / 255.0
    if g == "sepia":
        m = np.array([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]], dtype=np.float32)
        rgb = rgb @ m.T
    else:
        mul, add = GRADES[g]
        rgb = rgb * np.array(mul, dtype=np.float32) + np.array(add, dtype=np.float32)
    out = a.copy()
    out[..., :3] = np.clip(np.round(rgb * 255), 0, 255).astype(np.uint8)
    return out


def _image(a: np.ndarray):
    from PIL import Image
    return Image.fromarray(a, "RGBA")


# ---- the stage of a cartoon ------------------------------------------------------

class Stage:
    """Draws ``rt.frame()`` (§7.8) of a runtime whose characters are rigs.

    ``width`` × ``height`` pixels; ``rigs``: {id: RigCharacter} (a cast member without one is not
    drawn); ``background``: the colour when the frame has none (default white); ``captions``,
    ``grades``, ``bones``, ``textured`` switch those layers; ``supersample`` as the renderer's."""

    def __init__(self, width: int, height: int, rigs: Mapping[str, RigCharacter], background: Any = "#ffffff",
                 captions: bool = True, grades: bool = True, bones: bool = False, textured: bool = True,
                 supersample: int = 2, place_label: bool = True):
        require_skia()
        if not (int(width) > 0 and int(height) > 0):
            raise ValueError(f"a stage is at least 1x1 pixels, not {width}x{height}")
        self.width, self.height = int(width), int(height)
        self.rigs = dict(rigs)
        self.default_background = parse_colour(background) if background is not None else None
        if background is not None and self.default_background is None:
            raise ValueError(f"background: not a colour: {background!r} (#rrggbb or a name: {', '.join(sorted(COLOURS))})")
        self.captions, self.grades, self.bones = captions, grades, bones
        self.textures = _Textures(textured)
        self.supersample = supersample
        self.place_label = place_label
        self.view = View(self.width, self.height, 0.0, float(self.height), 1.0)

    def snapshots(self, frame: Mapping[str, Any]) -> List[Snapshot]:
        """The visible rigged characters of the frame, in ``order``, as placed (§7.2)."""
        chars = frame.get("characters")
        chars = chars if isinstance(chars, Mapping) else {}
        order = frame.get("order")
        out = []
        for cid in order if isinstance(order, (list, tuple)) else list(chars):
            c = chars.get(cid) if isinstance(cid, str) else None
            rig = self.rigs.get(cid) if isinstance(cid, str) else None
            if not isinstance(c, Mapping) or rig is None or not c.get("visible", True):
                continue
            x, y, h = (c.get(k) for k in ("x", "y", "h"))
            if not all(isinstance(v, (int, float)) and math.isfinite(v) and abs(v) <= FAR for v in (x, y, h)) or h <= 0:
                continue   # a placement a formula made NaN, infinite or absurd: nothing sensible to draw
            m = character_affine(rig, float(x), float(y), float(h), self.width, self.height,
                                 mirror=rig.mirror * turn_width(c.get("facing")))
            out.append(Snapshot(rig, m))
        return out

    def _background(self, cv: _Canvas, background: Any) -> None:
        import skia
        W, H = cv.w, cv.h
        colour = parse_colour(background) if background is not None else None
        if colour is not None or background is None:
            c = colour if colour is not None else (self.default_background or (255, 255, 255, 255))
            cv.canvas.clear(skia.Color(*c[:3], c[3]))
            return
        sky, ground = place_colours(str(background))
        cv.canvas.clear(skia.Color(*sky[:3], sky[3]))
        top = GROUND * H - 0.01 * H
        cv.canvas.drawRect(skia.Rect.MakeLTRB(0, top, W, H), skia.Paint(Color=skia.Color(*ground[:3], ground[3])))
        if self.place_label:
            _text(cv, str(background), 0.012 * W, 0.012 * H, max(8.0, 0.028 * H), (40, 40, 40, 150))

    def render_array(self, frame: Mapping[str, Any], snapshots: Optional[List[Snapshot]] = None) -> np.ndarray:
        cv = _Canvas(self.view, None, self.supersample)
        self._background(cv, frame.get("background"))
        for snap in (snapshots if snapshots is not None else self.snapshots(frame)):
            _draw_snapshot(cv, snap, self.textures, self.bones)
        caption = frame.get("caption")
        if self.captions and caption:
            size = max(8.0, cv.h / 22)
            _text(cv, str(caption), cv.w / 2, cv.h - 0.045 * cv.h, size, (255, 255, 255, 255), align="center",
                  box=(0, 0, 0, 150), max_width=cv.w * 0.86, bottom=True)
        a = cv.pixels()
        return _grade(a, frame.get("grade")) if self.grades else a

    def render(self, frame: Mapping[str, Any]):
        """A Pillow RGBA image of the frame."""
        return _image(self.render_array(frame))


# ---- one character -----------------------------------------------------------------

class Solo:
    """Pictures of one performing rig, framed on what it draws: ``add(char)`` copies a posed frame,
    ``images()`` draws them all with one view (fitted to every frame's vertices, ``margin`` pixels
    around, ``scale`` pixels per rig unit or ``size`` = (W, H) to fit into)."""

    def __init__(self, scale: Optional[float] = None, size: Optional[Tuple[int, int]] = None, background: Any = "#ffffff",
                 bones: bool = False, textured: bool = True, supersample: int = 2, margin: float = 16.0):
        require_skia()
        self.scale, self.size, self.bones, self.supersample, self.margin = scale, size, bones, supersample, margin
        self.background = parse_colour(background) if background is not None else None
        if background is not None and self.background is None:
            raise ValueError(f"background: not a colour: {background!r}")
        self.textures = _Textures(textured)

    @staticmethod
    def snapshot(char: RigCharacter) -> Snapshot:
        """The rig as the stage sees it (mirrored by facing × A) in rig units."""
        return Snapshot(char, np.array([float(char.mirror), 0.0, 0.0, 1.0, 0.0, 0.0]))

    def view(self, snapshots: Iterable[Snapshot], char: RigCharacter) -> View:
        pts = [s.points() for s in snapshots]
        scale = self.scale if self.scale is not None else 480.0 / char.roles.height
        if self.size is not None:
            return View.fit(pts, size=self.size, margin=self.margin / scale)
        return View.fit(pts, scale=scale, margin=self.margin / scale)

    def render_array(self, snap: Snapshot, view: View) -> np.ndarray:
        cv = _Canvas(view, self.background, self.supersample)
        _draw_snapshot(cv, snap, self.textures, self.bones)
        return cv.pixels()

    def render(self, snap: Snapshot, view: View):
        return _image(self.render_array(snap, view))


def even_frames(n: int, count: int) -> List[int]:
    """``count`` frame indices spread evenly over ``n`` frames (first and last included)."""
    if n <= count:
        return list(range(n))
    return sorted({int(round(k * (n - 1) / (count - 1))) for k in range(count)})
