"""openbone.plot, openbone.render helpers and rich display (issue 8)."""
import json
from pathlib import Path

import numpy as np
import pytest

import openbone

matplotlib = pytest.importorskip("matplotlib", reason="openbone.plot needs matplotlib (openbone[plot])")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from openbone import plot  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HERO = ROOT / "examples" / "hero.obone"

needs_anim = pytest.mark.skipif(not hasattr(openbone.Instance, "set_animation"),
                                reason="Instance.set_animation (animation issue) not in this build")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ---- curves ---------------------------------------------------------------------

def test_eval_curve_py_by_hand():
    ev = plot.eval_curve_py
    assert ev("linear", 0.3) == 0.3
    assert ev("stepped", 0.999) == 0.0 and ev("stepped", 1.0) == 1.0
    # symmetric ease: the first probe s = t = 0.5 hits bx = 0.5 exactly, by(0.5) = 0.5
    assert ev([0.25, 0, 0.75, 1], 0.5) == 0.5
    # bx(s) = 1.5 s (1 - s) + s^3 for x1 = x2 = 0.5 → s = 0.5 at t = 0.5;
    # by(0.5) = 4.5 * 0.25 + 0.125 = 1.25 for y1 = y2 = 1.5: overshoot, not clamped
    assert ev([0.5, 1.5, 0.5, 1.5], 0.5) == pytest.approx(1.25, abs=1e-12)
    # ends: bx(0) = 0 and bx(1) = 1 are hit by the first probe
    assert ev([0.1, 0.9, 0.2, 0.3], 0.0) == 0.0 and ev([0.1, 0.9, 0.2, 0.3], 1.0) == 1.0
    out = ev([0.42, 0, 0.58, 1], np.array([[0.1, 0.2], [0.3, 0.4]]))
    assert out.shape == (2, 2)


@pytest.mark.skipif(not hasattr(openbone, "eval_curve"), reason="openbone.eval_curve (animation issue) missing")
@pytest.mark.parametrize("curve", ["linear", "stepped", [0.25, 0, 0.75, 1], [0.1, -0.5, 0.9, 1.6],
                                   [0.9, 0.1, 0.1, 0.9], [0, 0, 1, 1]])
def test_eval_curve_matches_the_runtime(curve):
    t = np.linspace(0, 1, 257)
    assert np.allclose(plot.eval_curve_py(curve, t), openbone.eval_curve(curve, t), rtol=0, atol=1e-12)


def test_plot_curve():
    ax = plot.plot_curve([0.25, 0, 0.75, 1])
    x, y = ax.lines[0].get_data()
    assert x[0] == 0 and x[-1] == 1 and y[0] == pytest.approx(0) and y[-1] == pytest.approx(1)
    assert len(ax.lines) == 4  # the curve, two handles, the control points
    ax = plot.plot_curve("stepped", ax=ax)
    assert len(ax.lines) == 5


# ---- timelines --------------------------------------------------------------------

def test_sample_timeline_by_hand():
    keys = [{"time": 0, "value": 0}, {"time": 1, "value": 10, "curve": "stepped"}, {"time": 2, "value": 20},
            {"time": 3, "value": 0}]
    v = plot.sample_timeline(keys, np.array([-1, 0, 0.5, 1.5, 2.5, 3, 4]))[:, 0]
    assert list(v) == [0, 0, 5, 10, 10, 0, 0]
    c = plot.sample_timeline([{"time": 0, "value": "#000000"}, {"time": 1, "value": "#ff000080"}], np.array([0.5]))
    assert c[0] == pytest.approx([0.5, 0, 0, (1 + 128 / 255) / 2])


def test_plot_timeline_keys_and_lines():
    doc = openbone.load(HERO)
    ax = plot.plot_timeline(doc, "walk", "hip")
    keys = json.loads(HERO.read_text())["animations"][1]["timelines"][0]["keys"]
    marker = [ln for ln in ax.lines if ln.get_marker() == "o"][0]
    assert list(marker.get_xdata()) == [k["time"] for k in keys]
    assert list(marker.get_ydata()) == [k["value"] for k in keys]
    ax = plot.plot_timeline(doc, "idle", "torso", "rotation")
    assert "torso" in ax.get_title()
    with pytest.raises(KeyError):
        plot.plot_timeline(doc, "idle", "nobody")


@needs_anim
@pytest.mark.parametrize("anim, bone, prop, col", [("walk", "hip", "y", 1), ("idle", "torso", "rotation", 2),
                                                   ("idle", "torso", "scaleX", 3), ("wave", "head", "rotation", 2)])
def test_sampled_timeline_matches_the_runtime(anim, bone, prop, col):
    """The plot's sampler (keys from the JSON, §5 locate/lerp, §4.3 curves) against the
    runtime's local pose after advancing the same summed time."""
    doc = openbone.load(HERO)
    (tl,) = plot._find_timelines(doc, anim, bone, prop)
    inst = openbone.Instance(doc)
    inst.set_animation(0, anim, True, 0.0)
    inst.advance(0.0)
    b = doc.bone_index(bone)
    t = 0.0
    for _ in range(int(doc.animations[doc.animation_index(anim)].length * 30)):
        want = plot.sample_timeline(tl["keys"], np.array([t]))[0, 0]
        assert inst.local_pose[b, col] == pytest.approx(want, abs=1e-9)
        inst.advance(1 / 30)
        t += 1 / 30


# ---- pose, physics, animation -----------------------------------------------------

def test_plot_pose():
    inst = openbone.Instance(openbone.load(HERO))
    ax = plot.plot_pose(inst, labels=True)
    n_items = len(inst.draw_list()) if hasattr(inst, "draw_list") else len(plot.draw_items(inst))
    assert len(ax.collections) == 2 * n_items  # fill + outline per item
    assert len(ax.texts) == 16
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    head_tip_y = inst.world[4, 5] + inst.world[4, 2] * 40  # the head bone points up
    assert x0 < 0 < x1 and y0 < 0 and head_tip_y < y1


PENDULUM = {
    "format": "openbone", "version": 1, "name": "pendulum", "width": 200, "height": 200, "fps": 30,
    "skeleton": {
        "bones": [{"id": "root", "name": "root"},
                  {"id": "arm", "name": "arm", "parent": "root", "length": 50, "rotation": 0}],
        "slots": [], "skins": [{"id": "skin_default", "name": "default", "attachments": {}}],
        "physics": [{"id": "ph", "name": "swing", "bone": "arm", "x": 0, "y": 0, "rotate": 1, "scaleX": 0,
                     "inertia": 1, "strength": 40, "damping": 1, "mass": 1, "gravity": 200, "wind": 0,
                     "mix": 1, "fps": 60}]},
}


def test_plot_physics_dict_and_array():
    steps = 50
    trace = {"time": np.arange(steps) / 30, "origin": np.zeros((steps, 1, 4)), "tip": np.ones((steps, 1, 4)),
             "names": ["swing"]}
    axes = plot.plot_physics(trace)
    assert len(axes) == 2 and len(axes[0].lines) == 4
    assert axes[-1].get_xlabel() == "time (s)"
    axes = plot.plot_physics(np.zeros((10, 3)))
    assert len(axes) == 1 and axes[0].get_xlabel() == "step"


@pytest.mark.skipif(not hasattr(openbone.Instance, "trace_physics"), reason="trace_physics (constraints issue)")
def test_plot_physics_trace_of_a_pendulum():
    inst = openbone.Instance(openbone.loads(json.dumps(PENDULUM)))
    trace = inst.trace_physics(1 / 60, 120)
    axes = plot.plot_physics(trace, fields=["tip", "world"])
    assert len(axes) == 2
    x, y = axes[0].lines[1].get_data()  # tip y over time: gravity pulls it down
    assert len(x) == 120 and y[-1] < y[0]


def test_animate(tmp_path):
    from matplotlib.animation import FuncAnimation
    inst = openbone.Instance(openbone.load(HERO))
    anim = plot.animate(inst, "walk" if hasattr(inst, "set_animation") else None, frames=3)
    assert isinstance(anim, FuncAnimation)
    anim.save(tmp_path / "walk.gif", writer="pillow", fps=10)
    assert (tmp_path / "walk.gif").stat().st_size > 0
    # issue 20: the animation plays a copy; the caller's instance is as it was
    assert inst.time == 0.0 and inst.track(0) is None
    from PIL import Image
    assert Image.open(tmp_path / "walk.gif").n_frames == 3


# ---- rendering helpers, rich display ------------------------------------------------

PIL = pytest.importorskip("PIL.Image")


def test_preview_items_match_the_draw_list():
    """The render module's preview (for builds without a draw list) agrees with the
    runtime's draw list on the hero's regions and (weighted) mesh."""
    from openbone.render import preview_items
    inst = openbone.Instance(openbone.load(HERO))
    if not hasattr(inst, "draw_list"):
        pytest.skip("Instance.draw_list (draw-list issue) not in this build")
    ours, theirs = preview_items(inst), inst.draw_list()
    assert [(p.slot, p.type) for p in ours] == [(d.slot, d.type) for d in theirs]
    for p, d in zip(ours, theirs):
        assert np.allclose(p.vertices, d.vertices, atol=1e-3)
        assert np.array_equal(p.indices.astype(int), d.indices.astype(int))
        assert np.allclose(p.color, d.color)


def _red_png():
    import io
    buf = io.BytesIO()
    PIL.new("RGBA", (8, 8), (255, 0, 0, 255)).save(buf, format="PNG")
    return buf.getvalue()


def _textured_rig(src, clip=None):
    slots = [{"id": "s", "name": "s", "bone": "root", "attachment": "a"}]
    atts = {"s": {"a": {"type": "region", "image": "img", "width": 40, "height": 40}}}
    if clip is not None:  # a clipping slot drawn first, masking the region
        slots.insert(0, {"id": "c", "name": "c", "bone": "root", "attachment": "mask"})
        atts["c"] = {"mask": {"type": "clipping", "vertices": clip, "end": None}}
    return {"format": "openbone", "version": 1, "name": "tex", "width": 100, "height": 100, "originX": 50,
            "originY": 50, "background": "#ffffff", "fps": 30,
            "images": [{"id": "img", "name": "img", "src": src, "width": 8, "height": 8}],
            "skeleton": {"bones": [{"id": "root", "name": "root"}], "slots": slots,
                         "skins": [{"id": "skin_default", "name": "default", "attachments": atts}]}}


@pytest.mark.parametrize("where", ["data-url", "file"])
def test_textures_load(tmp_path, where):
    """A rig whose image is a data: URL, or a file next to the rig, renders textured (red
    pixels from a red PNG): the quad is 40 x 40 around the artboard's centre."""
    import base64
    from openbone.render import render_pose
    if where == "file":
        (tmp_path / "img").mkdir()
        (tmp_path / "img" / "red.png").write_bytes(_red_png())
        (tmp_path / "rig.obone").write_text(json.dumps(_textured_rig("img/red.png")))
        doc = openbone.load(tmp_path / "rig.obone")
    else:
        url = "data:image/png;base64," + base64.b64encode(_red_png()).decode()
        doc = openbone.loads(json.dumps(_textured_rig(url)))
    img = np.asarray(render_pose(openbone.Instance(doc), bones=False))
    assert tuple(img[50, 50]) == (255, 0, 0, 255)  # the centre: texture
    assert tuple(img[5, 5]) == (255, 255, 255, 255)  # outside the quad: background
    red = np.all(img == (255, 0, 0, 255), axis=-1).sum()
    assert 36 * 36 <= red <= 41 * 41


def test_missing_texture_is_filled_and_outlined():
    from openbone.render import render_pose
    img = np.asarray(render_pose(openbone.Instance(openbone.loads(json.dumps(_textured_rig("nope.png")))),
                                 bones=False, background="#000000"))
    assert tuple(img[50, 50]) == (255, 255, 255, 255)  # slot colour (white), no texture
    assert tuple(img[5, 5]) == (0, 0, 0, 255)


@pytest.mark.skipif(not hasattr(openbone.Instance, "draw_batch"), reason="draw_batch masks (draw-list issue)")
def test_clipping_masks_the_item():
    """A triangle mask (0,0) (30,0) (0,30) in skeleton space over the 40 x 40 quad: only
    the part of the quad inside the triangle is red."""
    from openbone.render import render_pose
    inst = openbone.Instance(openbone.loads(json.dumps(_textured_rig("nope.png", clip=[0, 0, 30, 0, 0, 30]))))
    assert inst.draw_list()[0].clip == 0
    img = np.asarray(render_pose(inst, bones=False, boxes=False, background="#000000"))
    # skeleton (x, y) is pixel (50 + x, 50 - y)
    assert tuple(img[50 - 5, 50 + 5]) == (255, 255, 255, 255)  # (5, 5): inside the mask
    assert tuple(img[50 + 10, 50 + 10]) == (0, 0, 0, 255)  # (10, -10): in the quad, outside the mask
    assert tuple(img[50 - 15, 50 - 15]) == (0, 0, 0, 255)  # (-15, 15): likewise


def test_rich_display():
    doc = openbone.load(HERO)
    html = doc._repr_html_()
    assert "<table" in html and "walk (1 s)" in html and "data:image/png;base64," in html
    inst = openbone.Instance(doc)
    png = inst._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "hero" in repr(inst) and "16 bones" in repr(doc)
    if hasattr(inst, "draw_list"):
        item = inst.draw_list()[0]
        assert item._repr_png_()[:4] == b"\x89PNG"
        assert "region" in repr(item)
