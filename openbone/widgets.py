"""A rig debugger for Jupyter: ``openbone.widgets.RigViewer(doc_or_inst)``
(``pip install 'openbone[jupyter]'``: ipywidgets, anywidget, skia-python).

    from openbone.widgets import RigViewer
    viewer = RigViewer(openbone.examples.hero())
    viewer                       # the widget (JupyterLab, Notebook, VS Code)

Controls: a time slider with play/pause, the animation (track 0, looping), the skin, a
second animation mixed in on track 1 with its alpha (the track mix), and toggles for
textures, bones, bounding boxes, clipping masks, IK chains and targets, path curves and
physics bones.  Clicking the picture picks the bone under the pointer: its name, local
and world transform and constraints are shown beside it (:mod:`openbone.debug`).

The viewer poses its own instances: given an Instance it starts from a copy of it
(``Instance.copy()``), and every pose is computed from that copy, so the caller's instance
never changes.  Frame k of the time slider is ``advance(0)`` then k ``advance(1/fps)``, as
``openbone bake`` counts frames.  Without a kernel (a static export, GitHub) the viewer
shows as a PNG of its current picture (its ``_repr_mimebundle_`` carries ``image/png``
next to the widget view).
"""
from __future__ import annotations

import base64
import html
import io
from typing import Any, Dict, List, Optional

import numpy as np

from .debug import bone_info, pick_bone
from .document import Document

TOGGLES = (("textures", True), ("bones", True), ("boxes", False), ("clipping", False), ("ik", False),
           ("paths", False), ("physics", False))

_ESM = """
function render({ model, el }) {
  const img = document.createElement("img");
  img.style.cursor = "crosshair";
  img.style.maxWidth = "100%";
  const update = () => { img.src = "data:image/png;base64," + model.get("png"); };
  update();
  model.on("change:png", update);
  img.addEventListener("click", (e) => {
    const r = img.getBoundingClientRect();
    const sx = img.naturalWidth / r.width, sy = img.naturalHeight / r.height;
    model.set("click", [(e.clientX - r.left) * sx, (e.clientY - r.top) * sy, Date.now()]);
    model.save_changes();
  });
  el.appendChild(img);
}
export default { render };
"""


def _widgets():
    try:
        import ipywidgets
    except ImportError as e:
        raise ImportError("RigViewer needs ipywidgets: pip install 'openbone[jupyter]'") from e
    return ipywidgets


def _canvas_class():
    """An anywidget showing a PNG that reports clicks in image pixels, or None."""
    try:
        import anywidget
        import traitlets
    except ImportError:
        return None

    class PoseCanvas(anywidget.AnyWidget):
        _esm = _ESM
        png = traitlets.Unicode("").tag(sync=True)
        click = traitlets.List([]).tag(sync=True)

    return PoseCanvas


_CANVAS = None


def _png_bytes(img) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


class RigViewer:
    """See the module doc.  Attributes: the controls (``animation``, ``skin``, ``mix``,
    ``mix_alpha``, ``time``, ``play``, ``toggles`` by name), ``canvas``, ``info``,
    ``widget`` (the whole layout), ``instance`` (the pose shown), ``picked`` (a bone name
    or None), ``view`` (skeleton → pixels)."""

    def __init__(self, source, size: int = 420, fps: Optional[float] = None, animation: Optional[str] = None,
                 skin: Optional[str] = None):
        global _CANVAS
        from .instance import Instance
        from .render import Textures
        w = _widgets()
        if isinstance(source, Document):
            base = Instance(source)
        elif hasattr(source, "copy") and hasattr(source, "document"):
            base = source.copy()
        else:
            raise TypeError("RigViewer(doc_or_inst): expected an openbone.Document or Instance")
        self._base = base
        self.document: Document = base.document
        doc = self.document
        self.fps = float(fps or doc.fps or 30.0)
        self.size = int(size)
        self.textures = Textures(doc)
        self.picked: Optional[str] = None
        self.calls: List[tuple] = []  # what the last pose did to its instance (for tests and curious users)
        names = [a.name for a in doc.animations]
        self.animation = w.Dropdown(options=[("(setup pose)", None)] + [(n, n) for n in names],
                                    value=animation if animation in names else (names[0] if names else None),
                                    description="animation")
        self.skin = w.Dropdown(options=[("(none)", None)] + [(s.name, s.name) for s in doc.skins],
                               value=skin if skin in [s.name for s in doc.skins] else base.skin_name,
                               description="skin")
        self.mix = w.Dropdown(options=[("(none)", None)] + [(n, n) for n in names], value=None,
                              description="mix in")
        self.mix_alpha = w.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.05, description="mix α")
        self.time = w.FloatSlider(value=0.0, min=0.0, max=1.0, step=1.0 / self.fps, description="time",
                                  readout_format=".3f", continuous_update=True)
        self.play = w.Play(value=0, min=0, max=1, step=1, interval=int(round(1000 / self.fps)), description="play")
        self.frame = w.IntText(value=0, description="frame", layout=w.Layout(width="150px"))
        self.toggles = {name: w.Checkbox(value=v, description=name, indent=False,
                                         layout=w.Layout(width="95px")) for name, v in TOGGLES}
        if _CANVAS is None:
            _CANVAS = _canvas_class() or False
        self.canvas = _CANVAS() if _CANVAS else w.Image(format="png")
        self.info = w.HTML(value="<i>click a bone</i>", layout=w.Layout(width="340px"))
        self.widget = w.VBox([
            w.HBox([self.animation, self.skin]), w.HBox([self.mix, self.mix_alpha]),
            w.HBox([self.play, self.time, self.frame]), w.HBox(list(self.toggles.values())),
            w.HBox([self.canvas, self.info]),
        ])
        self._busy = False
        self._range()
        self._fit()
        for c in (self.animation, self.mix):
            c.observe(self._on_animation, names="value")
        for c in [self.skin, self.mix_alpha] + list(self.toggles.values()):
            c.observe(lambda ch: self.update(), names="value")
        self.time.observe(self._on_time, names="value")
        self.play.observe(self._on_play, names="value")
        self.frame.observe(self._on_frame, names="value")
        if _CANVAS:
            self.canvas.observe(self._on_click, names="click")
        self.update()

    # ---- posing --------------------------------------------------------------
    def _duration(self) -> float:
        doc = self.document
        a = self.animation.value
        return doc.animations[doc.animation_index(a)].length if a is not None else 1.0

    def _range(self) -> None:
        from .bake import frame_count
        n = frame_count(self._duration(), self.fps)
        self._busy = True
        try:
            self.time.max = max((n - 1) / self.fps, 1.0 / self.fps)
            self.play.max = max(n - 1, 1)
            self.time.value = min(self.time.value, self.time.max)
        finally:
            self._busy = False

    @property
    def frame_index(self) -> int:
        return int(round(self.time.value * self.fps))

    def pose(self, frame: Optional[int] = None):
        """A new instance posed at ``frame`` (default: the slider's) with the current
        animation, skin and mix: a copy of the viewer's starting instance."""
        inst = self._base.copy()
        calls = []
        if self.skin.value != inst.skin_name:
            inst.set_skin(self.skin.value)
            calls.append(("set_skin", self.skin.value))
        if self.animation.value is not None:
            inst.set_animation(0, self.animation.value, True, 0.0)
            calls.append(("set_animation", 0, self.animation.value))
        if self.mix.value is not None:
            inst.set_animation(1, self.mix.value, True, 0.0)
            inst.set_track_alpha(1, float(self.mix_alpha.value))
            calls.append(("set_animation", 1, self.mix.value))
            calls.append(("set_track_alpha", 1, float(self.mix_alpha.value)))
        inst.advance(0.0)
        k = self.frame_index if frame is None else int(frame)
        dt = 1.0 / self.fps
        for _ in range(k):
            inst.advance(dt)
        calls.append(("advance", k, dt))
        self.calls = calls
        return inst

    def _fit(self) -> None:
        """One view for the whole animation (so the figure does not jump while playing)."""
        from .render import View, pose_points
        step = max(1, int(self.fps // 6))
        from .bake import frame_count
        n = frame_count(self._duration(), self.fps)
        pts = [pose_points(self.pose(k)) for k in range(0, n, step)]
        self.view = View.fit(pts, size=(self.size, self.size))

    def render_options(self) -> Dict[str, Any]:
        t = {k: c.value for k, c in self.toggles.items()}
        return {"textured": t["textures"], "bones": t["bones"], "boxes": t["boxes"], "clipping": t["clipping"],
                "ik": t["ik"], "paths": t["paths"], "physics": t["physics"], "highlight": self.picked}

    def picture(self):
        """The current picture (a PIL image)."""
        from .render import render_pose
        return render_pose(self.instance, view=self.view, textures=self.textures, **self.render_options())

    def update(self) -> None:
        """Pose and draw again (called by every control)."""
        if self._busy:
            return
        self.instance = self.pose()
        png = _png_bytes(self.picture())
        self._png = png
        if _CANVAS:
            self.canvas.png = base64.b64encode(png).decode("ascii")
        else:
            self.canvas.value = png
        self._show_info()

    # ---- events ----------------------------------------------------------------
    def _on_animation(self, change) -> None:
        self._range()
        self._fit()
        self.update()

    def _on_time(self, change) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            self.frame.value = self.frame_index
            self.play.value = min(self.frame_index, self.play.max)
        finally:
            self._busy = False
        self.update()

    def _on_play(self, change) -> None:
        if not self._busy:
            self.time.value = min(change["new"] / self.fps, self.time.max)

    def _on_frame(self, change) -> None:
        if not self._busy:
            self.time.value = min(max(0, int(change["new"])) / self.fps, self.time.max)

    def _on_click(self, change) -> None:
        c = change["new"]
        if c and len(c) >= 2:
            self.pick(float(c[0]), float(c[1]))

    def pick(self, px: float, py: float, radius_px: float = 8.0) -> Optional[str]:
        """Pick the bone at image pixel (px, py) (what a click does); its name or None."""
        v = self.view
        x, y = px / v.scale - v.ox, v.oy - py / v.scale
        i = pick_bone(self.instance, x, y, radius=radius_px / v.scale)
        self.picked = self.document.bones[i].name if i is not None else None
        self.update()
        return self.picked

    def select(self, bone: Optional[str]) -> None:
        """Inspect a bone by name (what clicking on it does), or None."""
        if bone is not None and self.document.bone_index(bone) < 0:
            from .document import OpenBoneError
            raise OpenBoneError(f"no bone named {bone!r}")
        self.picked = None if bone is None else self.document.bones[self.document.bone_index(bone)].name
        self.update()

    def _show_info(self) -> None:
        if self.picked is None:
            self.info.value = "<i>click a bone to inspect it</i>"
            return
        b = bone_info(self.instance, self.picked)
        self.bone = b

        def rows(d):
            return "".join(f"<tr><td>{html.escape(k)}</td><td>{v:.4g}</td></tr>" for k, v in d.items())
        cons = "".join(f"<li>{html.escape(c)}</li>" for c in b["constraints"]) or "<li><i>none</i></li>"
        m = ", ".join(f"{v:.4g}" for v in b["world_matrix"])
        self.info.value = (
            f"<b>{html.escape(b['name'])}</b> (parent {html.escape(str(b['parent']))}, inherit {b['inherit']}, "
            f"{'active' if b['active'] else 'inactive'})"
            f"<table style='font-size:12px'><tr><th colspan=2 align=left>local</th></tr>{rows(b['local'])}"
            f"<tr><th colspan=2 align=left>world</th></tr>{rows(b['world'])}</table>"
            f"<div style='font-size:11px'>[a b c d x y] = [{m}]</div>"
            f"<b>constraints</b><ul style='margin:0'>{cons}</ul>")

    # ---- display -----------------------------------------------------------------
    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data = dict(data or {})
        data["image/png"] = base64.b64encode(self.snapshot()).decode("ascii")
        data["text/plain"] = repr(self)
        return data

    def snapshot(self) -> bytes:
        """The viewer as a PNG (the picture and the picked bone's panel): what a static
        export shows."""
        return _png_bytes(self.screenshot())

    def screenshot(self):
        """A PIL image of the viewer: its controls' state, the picture and the inspected
        bone, drawn by skia (for READMEs and static exports)."""
        import skia
        from PIL import Image
        pic = np.asarray(self.picture().convert("RGBA"))
        H, W = pic.shape[:2]
        panel = 300
        top = 54
        surf = skia.Surface(W + panel, H + top)
        c = surf.getCanvas()
        c.clear(0xFFF6F6F6)
        img = skia.Image.fromarray(np.ascontiguousarray(pic), colorType=skia.kRGBA_8888_ColorType,
                                   alphaType=skia.kUnpremul_AlphaType)
        c.drawImage(img, 0, top)
        face = skia.FontMgr.RefDefault().matchFamilyStyle(None, skia.FontStyle())
        font = skia.Font(face, 13)
        small = skia.Font(face, 11)
        ink = skia.Paint(Color=0xFF202020, AntiAlias=True)
        grey = skia.Paint(Color=0xFF707070, AntiAlias=True)
        box = skia.Paint(Color=0xFFFFFFFF)
        edge = skia.Paint(Color=0xFFB0B0B0, Style=skia.Paint.kStroke_Style)
        x = 6

        def control(label, value, width):
            nonlocal x
            c.drawRect(skia.Rect.MakeXYWH(x, 6, width, 20), box)
            c.drawRect(skia.Rect.MakeXYWH(x, 6, width, 20), edge)
            c.drawString(f"{label}: {value}", x + 5, 21, font, ink)
            x += width + 6
        control("animation", self.animation.value or "(setup pose)", 150)
        control("skin", self.skin.value or "(none)", 110)
        control("mix in", (f"{self.mix.value} α {self.mix_alpha.value:g}" if self.mix.value else "(none)"), 150)
        # the time bar
        c.drawString("time", 6, 45, font, ink)
        span = W - 170
        c.drawRect(skia.Rect.MakeXYWH(44, 36, span, 6), skia.Paint(Color=0xFFD0D0D0))
        f = self.time.value / self.time.max if self.time.max > 0 else 0
        c.drawCircle(44 + f * span, 39, 6, skia.Paint(Color=0xFF2F6FD0, AntiAlias=True))
        c.drawString(f"{self.time.value:.3f} s (frame {self.frame_index})", 54 + span, 45, small, ink)
        on = [k for k, t in self.toggles.items() if t.value]
        c.drawString("layers: " + ", ".join(on), W + 10, 21, small, grey)
        y = top + 18
        if self.picked is not None:
            b = bone_info(self.instance, self.picked)
            lines = [(f"bone {b['name']}", font, ink), (f"parent {b['parent']}, inherit {b['inherit']}", small, grey)]
            lines.append(("local", font, ink))
            lines += [(f"  {k} {v:.4g}", small, grey) for k, v in b["local"].items()]
            lines.append(("world", font, ink))
            lines += [(f"  {k} {v:.4g}", small, grey) for k, v in b["world"].items()]
            lines.append(("constraints", font, ink))
            lines += [(f"  {cn}", small, grey) for cn in (b["constraints"] or ["none"])]
        else:
            lines = [("click a bone to inspect it", font, grey)]
        for text, fnt, paint in lines:
            c.drawString(text, W + 10, y, fnt, paint)
            y += 17 if fnt is font else 14
        a = surf.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kUnpremul_AlphaType)
        return Image.fromarray(a, "RGBA")

    def __repr__(self) -> str:
        return (f"<RigViewer {self.document.name!r}: animation={self.animation.value!r} skin={self.skin.value!r} "
                f"t={self.time.value:g} picked={self.picked!r}>")
