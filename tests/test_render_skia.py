"""The skia renderer against pictures worked out by hand (issue 19 item 5).

Every rig here has a 100 x 100 artboard with the skeleton origin at its centre: skeleton
(x, y) is pixel (50 + x, 50 - y).  Edges fall on pixel boundaries, so with or without
supersampling each pixel is either inside (its exact colour) or outside (background)."""
import base64
import io
import json

import numpy as np
import pytest

import openbone

skia = pytest.importorskip("skia", reason="the renderer needs skia-python (openbone[render])")
from PIL import Image  # noqa: E402

from openbone.render import render_array, render_pose, pose_svg  # noqa: E402


def _png(rgba, size=(4, 4)):
    buf = io.BytesIO()
    Image.new("RGBA", size, rgba).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _rig(slots, atts, images, bones=None, background="#ffffff"):
    return {"format": "openbone", "version": 1, "name": "hand", "width": 100, "height": 100, "originX": 50,
            "originY": 50, "background": background, "fps": 30,
            "images": [{"id": k, "name": k, "src": src, "width": 4, "height": 4} for k, src in images.items()],
            "skeleton": {"bones": bones or [{"id": "root", "name": "root"}], "slots": slots,
                         "skins": [{"id": "skin_default", "name": "default", "attachments": atts}]}}


def _draw(rig, **kw):
    inst = openbone.Instance(openbone.loads(json.dumps(rig)))
    kw.setdefault("bones", False)
    kw.setdefault("boxes", False)
    return render_array(inst, **kw)


def _expected(background, rects):
    """A 100 x 100 RGBA picture: background, then each (x0, y0, x1, y1, rgba) rectangle
    (pixel coordinates, end excluded) painted over it."""
    img = np.empty((100, 100, 4), np.uint8)
    img[:] = background
    for x0, y0, x1, y1, c in rects:
        img[y0:y1, x0:x1] = c
    return img


RED = (255, 0, 0, 255)
WHITE = (255, 255, 255, 255)


@pytest.mark.parametrize("supersample", [1, 2, 4])
def test_a_red_rectangle_region(supersample):
    """A 40 x 20 region at the origin, textured red: pixels x 30..69, y 40..59 are red."""
    rig = _rig([{"id": "s", "name": "s", "bone": "root", "attachment": "a"}],
               {"s": {"a": {"type": "region", "image": "red", "width": 40, "height": 20}}}, {"red": _png(RED)})
    got = _draw(rig, supersample=supersample)
    assert np.array_equal(got, _expected(WHITE, [(30, 40, 70, 60, RED)]))


def test_a_rotated_bone():
    """A bone at (10, 0) rotated 90°, its 20 x 10 region centred 15 along the bone: the
    bone's x axis points up, so the centre is world (10, 15), the width runs along world
    y (5..25) and the height along world x (5..15).  Pixels x 55..64, y 25..44."""
    bones = [{"id": "root", "name": "root"}, {"id": "arm", "name": "arm", "parent": "root", "x": 10, "rotation": 90}]
    rig = _rig([{"id": "s", "name": "s", "bone": "arm", "attachment": "a"}],
               {"s": {"a": {"type": "region", "image": "red", "x": 15, "width": 20, "height": 10}}},
               {"red": _png(RED)}, bones=bones)
    got = _draw(rig)
    assert np.array_equal(got, _expected(WHITE, [(55, 25, 65, 45, RED)]))


def test_blend_modes_additive_multiply_screen():
    """Four white-textured 20 x 20 squares tinted by their slots over a #202020 background:
    A #800000 normal at x -40..-20 (px 10..29); B #004000 additive at x -30..-10 (px
    20..39: over A, then over the background); C #808080 multiply (px 50..69) and D
    #808080 screen (px 75..94) on the background.  Hand arithmetic in 8-bit
    premultiplied values (opaque, so straight = premultiplied):
    additive: d + s; multiply (opaque dst): s·d/255; screen: s + d − s·d/255."""
    white = _png(WHITE)
    slots, atts = [], {}
    for name, color, blend, x in (("a", "#800000", "normal", -30), ("b", "#004000", "additive", -20),
                                  ("c", "#808080", "multiply", 10), ("d", "#808080", "screen", 35)):
        slots.append({"id": name, "name": name, "bone": "root", "attachment": "q", "color": color, "blend": blend})
        atts[name] = {"q": {"type": "region", "image": "w", "x": x, "width": 20, "height": 20}}
    got = _draw(_rig(slots, atts, {"w": white}, background="#202020"), supersample=1)
    bg = (32, 32, 32, 255)
    mul = round(128 * 32 / 255)  # 16
    scr = 128 + 32 - round(128 * 32 / 255)  # 144
    want = _expected(bg, [(10, 40, 30, 60, (128, 0, 0, 255)),           # A alone: x -40..-20 → px 10..29
                          (30, 40, 40, 60, (32, 64 + 32, 32, 255)),     # B over the background: px 30..39
                          (20, 40, 30, 60, (128, 64, 0, 255)),          # B over A: px 20..29
                          (50, 40, 70, 60, (mul, mul, mul, 255)),       # C multiply: px 50..69
                          (75, 40, 95, 60, (scr, scr, scr, 255))])      # D screen: px 75..94
    diff = np.abs(got.astype(int) - want.astype(int)).max(axis=-1)
    assert diff.max() <= 1, np.argwhere(diff > 1)[:5]


def test_two_colour_tint():
    """Dark-colour tint: a texture pixel (0, 128, 255) with light white and dark red
    gives rgb = tex + (1 − tex)·dark = (255, 128, 255)."""
    rig = _rig([{"id": "s", "name": "s", "bone": "root", "attachment": "a", "dark": "#ff0000"}],
               {"s": {"a": {"type": "region", "image": "t", "width": 40, "height": 20}}},
               {"t": _png((0, 128, 255, 255))})
    got = _draw(rig)
    assert tuple(got[50, 50]) == (255, 128, 255, 255)
    assert tuple(got[5, 5]) == WHITE
    light = _rig([{"id": "s", "name": "s", "bone": "root", "attachment": "a", "color": "#80ff00"}],
                 {"s": {"a": {"type": "region", "image": "t", "width": 40, "height": 20}}},
                 {"t": _png((255, 128, 255, 255))})
    assert tuple(_draw(light)[50, 50]) == (128, 128, 0, 255)  # plain multiply without a dark colour


def test_clipping_as_a_path():
    """A clipping triangle (0,0) (20,0) (0,20) over a 40 x 40 red square centred at the
    origin: only the triangle is red; pixels well inside and well outside the hypotenuse
    are exact."""
    slots = [{"id": "c", "name": "c", "bone": "root", "attachment": "m"},
             {"id": "s", "name": "s", "bone": "root", "attachment": "a"}]
    atts = {"c": {"m": {"type": "clipping", "vertices": [0, 0, 20, 0, 0, 20], "end": None}},
            "s": {"a": {"type": "region", "image": "red", "width": 40, "height": 40}}}
    got = _draw(_rig(slots, atts, {"red": _png(RED)}))
    # the triangle x ≥ 0, y ≥ 0, x + y ≤ 20 (px ≥ 50, py ≤ 50) lies inside the square
    assert tuple(got[45, 55]) == RED           # (5, 5)
    assert tuple(got[35, 52]) == RED           # (2, 15)
    assert tuple(got[55, 55]) == WHITE         # (5, -5): below the mask
    assert tuple(got[45, 45]) == WHITE         # (-5, 5): left of the mask
    assert tuple(got[38, 62]) == WHITE         # (12, 12): beyond the hypotenuse
    red = np.all(got == RED, axis=-1).sum()
    assert abs(red - 20 * 20 / 2) <= 20        # the triangle's area, give or take its diagonal


def test_bones_highlight_and_debug_layers_draw_where_the_bones_are():
    doc = openbone.load("conformance/fixtures/ik.obone")
    inst = openbone.Instance(doc)
    plain = render_array(inst, bones=False, boxes=False, supersample=1)
    with_bones = render_array(inst, bones=True, boxes=False, supersample=1)
    assert (with_bones != plain).any()
    one = doc.bones[1].name
    only = render_array(inst, bones=[one], boxes=False, supersample=1)
    hl = render_array(inst, bones=False, highlight=one, boxes=False, supersample=1)
    # the highlighted bone is drawn in the highlight colour at its origin
    from openbone.render import View, HIGHLIGHT_COLOR
    v = View.artboard(doc)
    x, y = v.to_px(inst.world[1, 4:6])[0]
    assert tuple(hl[int(y), int(x)][:3]) == HIGHLIGHT_COLOR[:3]
    assert (only != plain).sum() < (with_bones != plain).sum()
    ik = render_array(inst, bones=False, boxes=False, ik=True, supersample=1)
    assert (ik != plain).any()


def test_render_pose_returns_a_pillow_image_and_the_svg_has_every_item():
    doc = openbone.load("examples/hero.obone")
    inst = openbone.Instance(doc)
    img = render_pose(inst)
    assert img.mode == "RGBA" and img.size == (400, 400)
    svg = pose_svg(inst)
    assert svg.startswith("<svg") and svg.count("data-slot=") == len(inst.draw_list())
    assert svg.count('<circle data-bone=') == int(np.sum(inst.active_bones))
