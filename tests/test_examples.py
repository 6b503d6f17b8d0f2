"""openbone.examples (issue 18.5): the bundled rigs load from the package, and the project's own
Spine-format rig `sprout` poses as worked out by hand from its file (Spine 4.2 skeleton JSON: the
bone chain root > stem (y 36, rotation 90, length 60) > tip (x 60); the stem mesh's rows at 0, 30
and 60 along the stem, weighted to stem and tip)."""
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import openbone
import openbone.examples as ex

ROOT = Path(__file__).resolve().parents[1]


def test_bundled_files_and_paths():
    assert ex.files() == ["hero.obone", "sprout.atlas", "sprout.json", "sprout.png", "wave.toon.json"]
    assert ex.path("hero.obone").read_bytes() == (ROOT / "examples" / "hero.obone").read_bytes()
    with pytest.raises(FileNotFoundError, match="no bundled example 'nope.json'; there are hero.obone"):
        ex.path("nope.json")
    with pytest.raises(FileNotFoundError):
        ex.path("__init__.py")


def test_hero_is_the_readme_rig():
    doc = ex.hero()
    assert doc.name == "hero" and len(doc.bones) == 16
    assert [a.name for a in doc.animations] == ["idle", "walk", "wave"]


def test_sprout_setup_pose_by_hand():
    doc = ex.sprout()
    assert doc.import_warnings == []
    assert [b.name for b in doc.bones] == ["root", "stem", "tip", "pot"]
    inst = openbone.Instance(doc)
    w = inst.world
    # stem: rotation 90 at (0, 36): a = cos 90, c = sin 90
    np.testing.assert_allclose(w[1], [0, -1, 1, 0, 0, 36], atol=1e-12)
    # tip: 60 along the stem's x axis, which points up
    np.testing.assert_allclose(w[2][4:], [0, 96], atol=1e-12)
    items = {it.slot: it for it in inst.draw_list()}
    assert [it.slot for it in inst.draw_list()] == ["stem", "pot", "bloom"]
    # stem mesh: bone-local (x, +-6) -> world (-+6, 36 + x), hull order (0,-6) (30,-6) (60,-6) (60,6) (30,6) (0,6)
    np.testing.assert_allclose(items["stem"].vertices, [[6, 36], [6, 66], [6, 96], [-6, 96], [-6, 66], [-6, 36]],
                               atol=1e-5)
    assert items["stem"].indices.tolist() == [0, 1, 5, 1, 4, 5, 1, 2, 4, 2, 3, 4]
    # pot: a 48 x 36 region centred 18 above the root; bloom: 40 x 40 centred 14 past the tip, upright
    np.testing.assert_allclose(np.sort(items["pot"].vertices, axis=0), [[-24, 0], [-24, 0], [24, 36], [24, 36]])
    np.testing.assert_allclose(np.sort(items["bloom"].vertices, axis=0), [[-20, 90], [-20, 90], [20, 130], [20, 130]],
                               atol=1e-5)


def test_sprout_sway_by_hand():
    """At t = 1 the stem's rotate key is +8 (bezier keys hit their values exactly at key times),
    the tip's +10; at 1.5 the `pop` event fires; the mesh's middle row is the mean of the two
    bones' transforms of its bone-local points."""
    inst = openbone.Instance(ex.sprout())
    inst.set_animation(0, "sway", loop=True)
    for _ in range(30):
        inst.advance(1 / 30)
    w = inst.world
    stem = math.radians(98)
    np.testing.assert_allclose(w[1][[0, 2]], [math.cos(stem), math.sin(stem)], atol=1e-9)
    tip_at = [60 * math.cos(stem), 36 + 60 * math.sin(stem)]
    np.testing.assert_allclose(w[2][4:], tip_at, atol=1e-9)
    tip = math.radians(108)
    np.testing.assert_allclose(w[2][[0, 2]], [math.cos(tip), math.sin(tip)], atol=1e-9)
    verts = {it.slot: it for it in inst.draw_list()}["stem"].vertices.astype(float)

    def at(m, x, y):
        return np.array([m[0] * x + m[1] * y + m[4], m[2] * x + m[3] * y + m[5]])
    mid = 0.5 * at(w[1], 30, -6) + 0.5 * at(w[2], -30, -6)
    np.testing.assert_allclose(verts[1], mid, atol=1e-4)
    np.testing.assert_allclose(verts[2], at(w[2], 0, -6), atol=1e-4)
    events = []
    for _ in range(16):
        inst.advance(1 / 30)
        events += inst.events
    assert [(e["name"], e["int"], e["string"]) for e in events] == [("pop", 1, "bloom")]


def test_sprout_grow_hides_the_bloom_until_its_key():
    inst = openbone.Instance(ex.sprout())
    inst.set_animation(0, "grow", loop=False)
    inst.advance(0.5)
    assert "bloom" not in {it.slot for it in inst.draw_list()}
    inst.advance(0.4)
    assert "bloom" in {it.slot for it in inst.draw_list()}


def test_sprout_atlas_and_page_agree():
    from PIL import Image

    lines = ex.path("sprout.atlas").read_text().splitlines()
    assert lines[0] == "sprout.png" and lines[1].strip() == "size: 128, 128"
    im = Image.open(ex.path("sprout.png")).convert("RGBA")
    assert im.size == (128, 128)
    regions = {}
    for name, bounds in zip(lines[3::2], lines[4::2]):
        regions[name] = [int(v) for v in bounds.split(":")[1].split(",")]
    import json
    skel = json.loads(ex.path("sprout.json").read_text())
    atts = {a for slot in skel["skins"][0]["attachments"].values() for a in slot}
    assert set(regions) == atts  # every attachment has its region
    for name, (x, y, w, h) in regions.items():
        assert x + w <= 128 and y + h <= 128, name
        alpha = np.asarray(im.crop((x, y, x + w, y + h)))[..., 3]
        assert alpha.mean() > 40, name  # the region is drawn on
        mesh = skel["skins"][0]["attachments"].get(name, {}).get(name, {})
        if "width" in mesh:
            assert (mesh["width"], mesh["height"]) == (w, h), name


def test_sprout_files_are_what_the_generator_writes():
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "tools" / "make_sprout.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
