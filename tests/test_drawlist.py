"""§8.2-§8.6 draw list: values worked out by hand from the spec formulas.

Every expected number below is derived in the comment next to it (never printed by
the runtime).  Fixtures: inline documents, plus conformance/fixtures/{clipping,shapes,
sequences}.obone (see conformance/README.md, "Draw list").
"""
import json
import math
import os

import numpy as np
import pytest

import openbone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "conformance", "fixtures")


def load_fixture(name):
    return openbone.load(os.path.join(FIX, name + ".obone"))


def bone(id, parent=None, x=0, y=0, rotation=0, sx=1, sy=1):
    return {"id": id, "name": id, "parent": parent, "x": x, "y": y, "rotation": rotation, "scaleX": sx, "scaleY": sy}


def make(bones, slots, atts, **extra):
    d = {"format": "openbone", "version": 1, "name": "t", "width": 100, "height": 100, "fps": 30,
         "images": [{"id": "img", "name": "img", "src": "", "width": 20, "height": 10}],
         "skeleton": {"bones": bones, "slots": slots,
                      "skins": [{"id": "skin_default", "name": "default", "attachments": atts}]}}
    d.update(extra)
    return openbone.Instance(openbone.loads(json.dumps(d)))


def slot(id, bone, att, **kw):
    s = {"id": id, "name": id, "bone": bone, "attachment": att}
    s.update(kw)
    return s


def items_by_slot(inst):
    return {it.slot: it for it in inst.draw_list()}


# ---- §8.2 quads -----------------------------------------------------------

def test_skewed_quad_by_hand():
    # width 20, height 10 ⇒ hw 10, hh 5; skewX 45 ⇒ kx = tan 45° = 1: (x, y) → (x + y, y)
    # TL(−10, 5) → (−5, 5); TR(10, 5) → (15, 5); BR(10, −5) → (5, −5); BL(−10, −5) → (−15, −5)
    # then the bone translation (100, 50).
    inst = make([bone("b", x=100, y=50)], [slot("s", "b", "q")],
                {"s": {"q": {"type": "region", "image": "img", "width": 20, "height": 10, "skewX": 45}}})
    it = inst.draw_list()[0]
    assert it.vertices.dtype == np.float32 and it.uvs.dtype == np.float32
    np.testing.assert_allclose(it.vertices, [[95, 55], [115, 55], [105, 45], [85, 45]], atol=1e-5)
    np.testing.assert_array_equal(it.uvs, [[0, 0], [1, 0], [1, 1], [0, 1]])
    assert it.indices.tolist() == [0, 1, 2, 0, 2, 3]
    assert it.texture == "img" and it.type == "region" and it.clip is None and it.text is None


def test_skew_y_then_rotation_by_hand():
    # skewY 45 ⇒ ky = 1: TL(−10, 5) → (−10, 5 − 10) = (−10, −5); then rotation 90: (x, y) → (−y, x)
    # = (5, −10); then (att.x, att.y) = (1, 2) ⇒ (6, −8).  TR(10, 5) → (10, 15) → (−15, 10) → (−14, 12).
    inst = make([bone("b")], [slot("s", "b", "q")],
                {"s": {"q": {"type": "region", "image": "img", "width": 20, "height": 10, "skewY": 45,
                             "rotation": 90, "x": 1, "y": 2}}})
    v = inst.draw_list()[0].vertices
    np.testing.assert_allclose(v[0], [6, -8], atol=1e-5)
    np.testing.assert_allclose(v[1], [-14, 12], atol=1e-5)


def test_scale_colour_dark_blend_missing_image():
    # scaleX 2, scaleY 0.5 ⇒ hw 20, hh 2.5; slot colour #80ffffff × attachment #ff000080:
    # (128/255·1, 0, 0, 1·128/255); dark from the slot; blend from the slot; missing image ⇒ texture None
    inst = make([bone("b")], [slot("s", "b", "q", color="#80ffffff", dark="#102030", blend="multiply")],
                {"s": {"q": {"type": "region", "image": "nope", "width": 20, "height": 10, "scaleX": 2,
                             "scaleY": 0.5, "color": "#ff000080"}}})
    it = inst.draw_list()[0]
    np.testing.assert_allclose(it.vertices, [[-20, 2.5], [20, 2.5], [20, -2.5], [-20, -2.5]])
    np.testing.assert_allclose(it.color, [128 / 255, 0, 0, 128 / 255])
    np.testing.assert_allclose(it.dark, [0x10 / 255, 0x20 / 255, 0x30 / 255, 1])
    assert it.blend == "multiply" and it.texture is None


def test_alpha_zero_and_inactive_bone_draw_nothing():
    inst = make([bone("b"), bone("skinbone")],
                [slot("a", "b", "q", color="#ffffff00"), slot("c", "skinbone", "q"), slot("d", "b", "q")],
                {"a": {"q": {"type": "region", "image": "img", "width": 2, "height": 2}},
                 "c": {"q": {"type": "region", "image": "img", "width": 2, "height": 2}},
                 "d": {"q": {"type": "region", "image": "img", "width": 2, "height": 2, "color": "#ffffff00"}}})
    assert [it.slot for it in inst.draw_list()] == ["c"]
    d = json.loads(inst.document.json)
    d["skeleton"]["skins"].append({"id": "sk", "name": "sk", "attachments": {}, "bones": ["skinbone"]})
    inst2 = openbone.Instance(openbone.loads(json.dumps(d)))
    assert inst2.draw_list() == []  # skinbone is skin-only and no skin is set: slot c draws nothing


def test_bounding_box_point_path_draw_nothing():
    doc = load_fixture("bounds")
    inst = openbone.Instance(doc)
    assert [(it.slot, it.type) for it in inst.draw_list()] == [("region", "region")]


# ---- §8.3 meshes ------------------------------------------------------------

def test_weighted_mesh_vertices_by_hand():
    # clipping.obone, slot "mesh": bone_w1 = translate(−20, 0); bone_w2 = translate(20, 0)·rot 90
    # (a b c d = 0 −1 1 0).  Vertex 1: 0.5·w1·(10, −10) + 0.5·w2·(−10, −20)
    #   = 0.5·(−10, −10) + 0.5·(0·−10 − 1·−20 + 20, 1·−10 + 0) = (−5, −5) + 0.5·(40, −10) = (15, −10).
    # Vertex 2: 0.75·w2·(10, −20) + 0.25·slot bone (root, identity)·(30, 10) [missing bone]
    #   = 0.75·(40, 10) + (7.5, 2.5) = (37.5, 10).
    inst = openbone.Instance(load_fixture("clipping"))
    it = items_by_slot(inst)["mesh"]
    np.testing.assert_allclose(it.vertices[1], [15, -10], atol=1e-5)
    np.testing.assert_allclose(it.vertices[2], [37.5, 10], atol=1e-5)
    np.testing.assert_allclose(it.vertices[0], [-30, -10], atol=1e-5)  # w1·(−10, −10)
    assert it.indices.tolist() == [0, 1, 2, 0, 2, 3]
    np.testing.assert_array_equal(it.uvs, [[0, 1], [1, 1], [1, 0], [0, 0]])


def test_mesh_missing_uvs_read_as_zero():
    inst = make([bone("b", x=1)], [slot("s", "b", "m")],
                {"s": {"m": {"type": "mesh", "image": "img", "vertices": [0, 0, 10, 0, 0, 10],
                             "uvs": [0.5, 0.25], "triangles": [0, 1, 2]}}})
    it = inst.draw_list()[0]
    np.testing.assert_array_equal(it.uvs, [[0.5, 0.25], [0, 0], [0, 0]])
    np.testing.assert_array_equal(it.vertices, [[1, 0], [11, 0], [1, 10]])


# ---- §8.4 clipping ------------------------------------------------------------

def test_clipping_masks_and_indices():
    inst = openbone.Instance(load_fixture("clipping"))
    # slot order: before, clip1 (end end1), in1, ignored (a mask while clip1 is active), mesh, shape,
    # end1 (no attachment: still ends clip1), after, clip_small (2 points: not a mask), clip2 (end end2),
    # in2, end2 (skin-only bone: inactive without a skin, draws nothing, still ends clip2), tail
    got = [(it.slot, it.clip) for it in inst.draw_list()]
    assert got == [("before", None), ("in1", 0), ("mesh", 0), ("shape", 0), ("after", None), ("in2", 1),
                   ("tail", None)]
    inst.set_skin("on")
    inst.pose_setup()
    got = [(it.slot, it.clip) for it in inst.draw_list()]
    assert got[-3:] == [("in2", 1), ("end2", 1), ("tail", None)]
    masks = inst.draw_batch().masks
    assert [inst.document.slots[m["slot"]].name for m in masks] == ["clip1", "clip2"]
    # clip2 is an unweighted polygon: indices = earcut of its local vertices
    local = [0, 0, 100, 0, 100, 100, 60, 100, 60, 40, 40, 40, 40, 100, 0, 100]
    assert masks[1]["indices"].tolist() == openbone.earcut(local).tolist()
    np.testing.assert_allclose(masks[1]["vertices"].ravel(), local, atol=1e-9)  # root bone: identity
    # clip1 on bone_mask (10, 20, rot 15, scale 1.2): vertex 0 = M·(−50, −40)
    c, s = math.cos(math.radians(15)), math.sin(math.radians(15))
    np.testing.assert_allclose(masks[0]["vertices"][0], [1.2 * c * -50 - s * -40 + 10, 1.2 * s * -50 + c * -40 + 20],
                               atol=1e-4)


def test_mask_index_counts_only_masks_that_clip():
    # a mask whose slots draw nothing gets no index: the next mask that clips is 0
    atts = {"m1": {"c": {"type": "clipping", "end": "e1", "vertices": [0, 0, 1, 0, 0, 1]}},
            "m2": {"c": {"type": "clipping", "end": None, "vertices": [0, 0, 5, 0, 0, 5]}},
            "x": {"q": {"type": "region", "image": "img", "width": 2, "height": 2}}}
    inst = make([bone("b")], [slot("m1", "b", "c"), slot("e1", "b", None), slot("m2", "b", "c"), slot("x", "b", "q")],
                atts)
    assert [(it.slot, it.clip) for it in inst.draw_list()] == [("x", 0)]


# ---- §8.5 shapes ----------------------------------------------------------------

def test_shape_outline_points_by_hand():
    # "round" in shapes.obone is on bone_s; pose a copy on an identity bone without rotation.
    d = json.loads(load_fixture("shapes").json)
    atts = d["skeleton"]["skins"][0]["attachments"]
    atts["slot_round"]["round"]["rotation"] = 0
    for b in d["skeleton"]["bones"]:
        b.update(x=0, y=0, rotation=0, scaleX=1, scaleY=1)
    inst = openbone.Instance(openbone.loads(json.dumps(d)))
    items = items_by_slot(inst)
    v = items["round"].vertices
    # width 60, height 40, radius 8 ⇒ hw 30, hh 20, r 8; 4 arcs × 9 points
    assert v.shape == (36, 2)
    r2 = 8 * math.sqrt(0.5)
    np.testing.assert_allclose(v[0], [22, -20], atol=1e-5)       # arc 1 centre (22, −12), −90°
    np.testing.assert_allclose(v[4], [22 + r2, -12 - r2], atol=1e-5)  # −45°
    np.testing.assert_allclose(v[8], [30, -12], atol=1e-5)       # 0°
    np.testing.assert_allclose(v[9], [30, 12], atol=1e-5)        # arc 2 centre (22, 12) from 0°
    np.testing.assert_allclose(v[18], [-22, 20], atol=1e-5)      # arc 3 centre (−22, 12) from 90°
    np.testing.assert_allclose(v[27], [-30, -12], atol=1e-5)     # arc 4 centre (−22, −12) from 180°
    np.testing.assert_allclose(v[35], [-22, -20], atol=1e-5)
    # pill: width 60, height 20, radius 25 ⇒ r = min(25, 30, 10) = 10, centres (±20, 0); at (−50, −50)
    p = items["pill"].vertices
    np.testing.assert_allclose(p[8], [-50 + 30, -50], atol=1e-5)
    np.testing.assert_allclose(p[9], [-50 + 30, -50], atol=1e-5)
    # rect without radius: (−hw,−hh) (hw,−hh) (hw,hh) (−hw,hh) + (10, 5), hw 20, hh 10
    np.testing.assert_allclose(items["rect"].vertices, [[-10, -5], [30, -5], [30, 15], [-10, 15]], atol=1e-5)
    # ellipse: 32 points (cos(2πi/32)·hw, sin·hh) + (5, 0), hw 15, hh 8: i = 8 ⇒ (5, 8), i = 16 ⇒ (−10, 0)
    e = items["ellipse"].vertices
    assert e.shape == (32, 2)
    np.testing.assert_allclose(e[8], [5, 8], atol=1e-5)
    np.testing.assert_allclose(e[16], [-10, 0], atol=1e-5)
    # polygon: the points rotated by −15° then + (100, 0); point 2 = (40, 40)
    c, s = math.cos(math.radians(-15)), math.sin(math.radians(-15))
    np.testing.assert_allclose(items["poly"].vertices[2], [c * 40 - s * 40 + 100, s * 40 + c * 40], atol=1e-4)
    # indices = earcut of the local outline
    assert items["poly"].indices.tolist() == openbone.earcut(
        [[100 + c * x - s * y, s * x + c * y] for x, y in [(0, 0), (40, 0), (40, 40), (20, 10), (0, 40)]]).tolist()


def test_shape_colours_white_block_and_skips():
    items = items_by_slot(openbone.Instance(load_fixture("shapes")))
    # hidden (transparent fill, zero-width stroke) and faded (slot alpha 0) are skipped;
    # stroke (transparent fill, visible stroke) and nofill (no fill, visible stroke) are drawn
    assert sorted(items) == sorted(["rect", "round", "pill", "ellipse", "poly", "stroke", "nofill"])
    assert items["stroke"].color[3] == 0 and items["nofill"].color == (0, 0, 0, 0)
    # rect: slot #ffffffcc × fill #ff8000 = (1, 128/255, 0, 204/255)
    np.testing.assert_allclose(items["rect"].color, [1, 128 / 255, 0, 204 / 255])
    # white block (10, 6, 4, 4) on a 64 × 32 page: centre uv (12/64, 8/32) = (0.1875, 0.25)
    assert items["rect"].texture == "page_w"
    np.testing.assert_array_equal(np.unique(items["ellipse"].uvs, axis=0), [[0.1875, 0.25]])
    assert items["ellipse"].dark == (1.0, 0.0, 0.0, 1.0)
    # without a white block (clipping.obone): texture None, zero uvs
    shape = items_by_slot(openbone.Instance(load_fixture("clipping")))["shape"]
    assert shape.texture is None and not shape.uvs.any()


# ---- §8.6 sequences -------------------------------------------------------------

def frames_after_steps(n_steps, dt=0.1):
    inst = openbone.Instance(load_fixture("sequences"))
    out = []
    for _ in range(n_steps):
        inst.advance(dt)
        out.append({it.slot: it.texture for it in inst.draw_list()})
    return out


def test_sequence_modes_frame_index_by_hand():
    # fps 10, dt 0.1 summed: after step k the counter is k (the +1e-6 keeps 0.1·8 summed =
    # 0.7999999999999999 on frame 8).  n = 4 frames img_f0..img_f3.
    # loop ((f % 4) + 4) % 4; once: f ≥ 4 hidden; holdLast clamp(f, 0, 3);
    # pingPong P = 6: k = f % 6, k < 4 ? k : 6 − k ⇒ 0 1 2 3 2 1 0 1 2 3 2 1 0 for f = 0..12;
    # offset −3 (loop): f − 3, e.g. f = 1 ⇒ −2 ⇒ 2; input default 6.9999999 ⇒ floor(7.0000009) = 7 ⇒ 3;
    # a single-frame pingPong is always 0.
    ping = [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0]
    seen = frames_after_steps(12)
    for k, fr in enumerate(seen, start=1):
        assert fr["loop"] == "img_f%d" % (k % 4), k
        assert fr.get("once") == ("img_f%d" % k if k < 4 else None), k
        assert fr["hold"] == "img_f%d" % min(k, 3), k
        assert fr["ping"] == "img_f%d" % ping[k], k
        assert fr["offset"] == "img_f%d" % ((k - 3) % 4), k
        assert fr["input"] == "img_f3", k
        assert fr["single_ping"] == "img_f0", k
    assert 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 < 0.8  # the float trap the +1e-6 absorbs


def test_sequence_sheet_trim_and_packed_frames_by_hand():
    inst = openbone.Instance(load_fixture("sequences"))
    inst.advance(0.1)  # counter 1
    items = items_by_slot(inst)
    # sheet frame 1: rect (32, 0, 32, 32) of 128 × 64 ⇒ uv [0.25, 0, 0.5, 0.5];
    # trim (4, 2) in 40 × 40 ⇒ quad [0.1, 0.05, 0.9, 0.85] of the 40 × 40 quad at (60, 0) on the root:
    # TL (40, 20), U = (40, 0), V = (0, −40) ⇒ TL' = (44, 18), BR' = (76, −14)
    sh = items["sheet"]
    np.testing.assert_allclose(sh.uvs, [[0.25, 0], [0.5, 0], [0.5, 0.5], [0.25, 0.5]])
    np.testing.assert_allclose(sh.vertices[0], [44, 18], atol=1e-5)
    np.testing.assert_allclose(sh.vertices[2], [76, -14], atol=1e-5)
    # packed frame 1: rect (32, 0, 32, 32) of 64 × 64 ⇒ uv [0.5, 0, 1, 0.5]; packed part (trim box)
    # [8/64, 4/64, 48/64, 48/64] = [0.125, 0.0625, 0.75, 0.75] ⇒ ∩ = [0.5, 0.0625, 0.75, 0.5];
    # quad fractions: u (0.5 → 0, 0.75 → 0.5), v (0.0625 → 0.125, 0.5 → 1) ⇒ [0, 0.125, 0.5, 1];
    # page uv: u' = (10 − 8)/128 + u·64/128, v' = (20 − 4)/128 + v·64/128
    pk = items["packed"]
    assert pk.texture == "page_s"
    np.testing.assert_allclose(pk.uvs[0], [2 / 128 + 0.25, 16 / 128 + 0.03125])
    np.testing.assert_allclose(pk.uvs[2], [2 / 128 + 0.375, 16 / 128 + 0.25])
    # bone_s (10, 10, rot 30, scale 1, 2) slot "packed" is index 5 ⇒ bone_s; quad 32 × 32 at x = 100:
    # local TL' = (100 − 16 + 0·32, 16 − 0.125·32) = (84, 12)
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    np.testing.assert_allclose(pk.vertices[0], [c * 84 - 2 * s * 12 + 10, s * 84 + 2 * c * 12 + 10], atol=1e-4)
    inst.advance(0.2)  # counter 3: rect (48, 48, 16, 16) lies outside the packed part ⇒ no item
    assert "packed" not in items_by_slot(inst)


# ---- batch, conformance dict, no per-frame allocation -----------------------------

def test_batch_matches_items_and_nothing_grows():
    inst = openbone.Instance(load_fixture("clipping"))
    items = inst.draw_list()
    b = inst.draw_batch()
    assert len(b) == len(items)
    for k, it in enumerate(items):
        fv, nv = b.items["first_vertex"][k], b.items["vertex_count"][k]
        fi, ni = b.items["first_index"][k], b.items["index_count"][k]
        np.testing.assert_array_equal(b.vertices[fv:fv + nv], it.vertices)
        np.testing.assert_array_equal(b.indices[fi:fi + ni] - fv, it.indices)
        assert b.textures[b.items["texture"][k]] == it.texture if it.texture else b.items["texture"][k] == -1
        assert b.items["clip"][k] == (-1 if it.clip is None else it.clip)
    for name in ("clipping", "shapes", "sequences", "text", "atlas-knight", "atlas-polygons"):
        inst = openbone.Instance(load_fixture(name))
        for _ in range(20):
            inst.advance(1 / 30)
            inst._draw_build()
        assert inst.draw_growths == 0, name
    hero = openbone.Instance(openbone.load(os.path.join(ROOT, "examples", "hero.obone")))
    for _ in range(10):
        hero.advance(1 / 30)
        hero._draw_build()
    assert hero.draw_growths == 0


def test_conformance_dict_shape():
    it = openbone.Instance(load_fixture("rigging")).draw_list()[0]
    d = it.conformance()
    assert list(d) == ["slot", "attachment", "type", "blend", "texture", "vertices", "uvs", "indices", "color",
                       "dark", "colors", "clip", "text"]
    # shadow: 120 × 30 region on the root ⇒ (−60, 15) (60, 15) (60, −15) (−60, −15); colour #00000080
    assert d["vertices"] == [-60, 15, 60, 15, 60, -15, -60, -15]
    assert d["color"] == [0, 0, 0, 0.502] and d["dark"] is None and d["colors"] is None


# ---- conformance files of the draw list --------------------------------------------

DRAW_CASES = ["rigging-setup", "atlas-knight", "atlas-polygons", "clipping", "shapes", "sequences", "text", "bounds"]


@pytest.mark.parametrize("name", ["text", "bounds"])
def test_expected_file_is_the_draw_oracles(name):
    """The case files the base oracle refuses (setText, bounds) come from tests/oracles/draw.py."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from oracles import draw as draw_oracle
    path = os.path.join(ROOT, "conformance", "cases", name + ".json")
    with open(os.path.join(ROOT, "conformance", "expected", name + ".json")) as f:
        assert f.read() == draw_oracle.dumps(draw_oracle.run_case_file(path))


@pytest.mark.parametrize("name", DRAW_CASES)
def test_runtime_matches_expected(name):
    from openbone import conformance
    path = os.path.join(ROOT, "conformance", "cases", name + ".json")
    actual, errored = conformance.run(path)
    assert not errored
    with open(os.path.join(ROOT, "conformance", "expected", name + ".json")) as f:
        expected = json.load(f)
    assert conformance.compare(expected, json.loads(json.dumps(actual))) == []


# ---- keyed state: deform offsets, linked-mesh deform key, sequence keys, animationTime ----

def keyed_doc():
    tri = {"type": "mesh", "image": "img", "vertices": [0, 0, 10, 0, 0, 10], "uvs": [0, 0, 1, 0, 0, 1],
           "triangles": [0, 1, 2]}
    return {"format": "openbone", "version": 1, "name": "t",
            "images": [{"id": "img", "name": "img", "src": "", "width": 10, "height": 10}] +
                      [{"id": "f%d" % i, "name": "f%d" % i, "src": "", "width": 4, "height": 4} for i in range(3)],
            "skeleton": {"bones": [{"id": "b", "name": "b", "x": 5}],
                         "slots": [{"id": "s", "name": "s", "bone": "b", "attachment": "m"},
                                   {"id": "l", "name": "l", "bone": "b", "attachment": "lk"},
                                   {"id": "q", "name": "q", "bone": "b", "attachment": "seq"}],
                         "skins": [{"id": "d", "name": "default", "attachments": {
                             "s": {"m": tri},
                             "l": {"src": tri, "lk": dict(tri, linked={"mesh": "src", "deform": True})},
                             "q": {"seq": {"type": "sequence", "width": 4, "height": 4, "fps": 10, "mode": "loop",
                                           "frames": [{"image": "f0"}, {"image": "f1"}, {"image": "f2"}]}}}}]},
            "animations": [
                {"id": "a", "name": "a", "duration": 1, "timelines": [
                    {"target": "deform", "id": "s", "attachment": "m", "property": "offsets",
                     "keys": [{"time": 0, "value": [1, 2, 3], "curve": "stepped"}]},
                    {"target": "deform", "id": "l", "attachment": "src", "property": "offsets",
                     "keys": [{"time": 0, "value": [0, 0, 7, 7], "curve": "stepped"}]},
                    {"target": "sequence", "id": "q", "attachment": "seq", "property": "frame",
                     "keys": [{"time": 0, "value": 1.9999999, "curve": "stepped"}]}]},
                {"id": "e", "name": "e", "duration": 0.2, "timelines": [
                    {"target": "bone", "id": "b", "property": "x", "keys": [{"time": 0, "value": 5}]}]}]}


@pytest.mark.skipif(not hasattr(openbone.Instance, "set_animation"), reason="animations not in this build")
def test_deform_linked_deform_and_sequence_key_by_hand():
    inst = openbone.Instance(openbone.loads(json.dumps(keyed_doc())))
    inst.set_animation(0, "a", True, 0)
    inst.advance(0.1)
    items = items_by_slot(inst)
    # offsets [1, 2, 3]: v0 + (1, 2), v1 + (3, 0) (a short array reads 0), v2 + (0, 0); bone at x = 5
    np.testing.assert_array_equal(items["s"].vertices, [[6, 2], [18, 0], [5, 10]])
    # linked mesh with deform: true uses the deform keyed for its source mesh "src": v1 + (7, 7)
    np.testing.assert_array_equal(items["l"].vertices, [[5, 0], [22, 7], [5, 10]])
    # sequence key 1.9999999: floor(1.9999999 + 1e-6) = 2 ⇒ f2 (the key replaces time·fps)
    assert items["q"].texture == "f2"


@pytest.mark.skipif(not hasattr(openbone.Instance, "set_animation"), reason="animations not in this build")
def test_sequence_follows_animation_time():
    # "e" loops over 0.2 s: animationTime after 0.1, 0.2, 0.3 s is 0.1, 0 (wrapped), 0.1 ⇒ frames
    # f1, f0, f1; the clock (0.1, 0.2, 0.3) would give f1, f2, f0
    inst = openbone.Instance(openbone.loads(json.dumps(keyed_doc())))
    inst.set_animation(0, "e", True, 0)
    seen = []
    for _ in range(3):
        inst.advance(0.1)
        seen.append(items_by_slot(inst)["q"].texture)
    assert seen == ["f1", "f0", "f1"]


def test_sequence_input_with_a_running_state_machine():
    # input "in_frame": default 6.9999999 ⇒ floor(7.0000009) = 7 ⇒ frame 7 % 4 = 3; set to 4 ⇒ frame 0
    inst = openbone.Instance(load_fixture("sequences"), state_machine="main")
    inst.advance(0.1)
    assert items_by_slot(inst)["input"].texture == "img_f3"
    inst.set_input("frame", 4)
    inst.advance(0.1)
    assert items_by_slot(inst)["input"].texture == "img_f0"


# ---- world vertices only (Instance.world_vertices) --------------------------

def test_world_vertices_by_hand():
    # region 20×10 on bone (100, 50) rotated 90°: corners TL(−10, 5) TR(10, 5) BR(10, −5) BL(−10, −5)
    # rotate 90° ((x, y) → (−y, x)) then translate: (95, 40) (95, 60) (105, 60) (105, 40).
    # mesh on bone (0, 0) scaled ×2: vertices (1, 2) (3, 4) (5, 0) ⇒ (2, 4) (6, 8) (10, 0).
    # The alpha-0 region still has vertices; the point attachment has none.
    inst = make([bone("b", x=100, y=50, rotation=90), bone("m", sx=2, sy=2)],
                [slot("s", "b", "q"), slot("t", "m", "mesh"), slot("h", "b", "q", color="ffffff00"),
                 slot("p", "b", "pt")],
                {"s": {"q": {"type": "region", "image": "img", "width": 20, "height": 10}},
                 "h": {"q": {"type": "region", "image": "img", "width": 20, "height": 10}},
                 "t": {"mesh": {"type": "mesh", "image": "img", "vertices": [1, 2, 3, 4, 5, 0],
                                "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2]}},
                 "p": {"pt": {"type": "point"}}})
    wv = inst.world_vertices()
    assert list(wv) == ["s", "t", "h"]  # draw order; the point slot has no vertices
    np.testing.assert_allclose(wv["s"], [[95, 40], [95, 60], [105, 60], [105, 40]], atol=1e-5)
    np.testing.assert_allclose(wv["t"], [[2, 4], [6, 8], [10, 0]], atol=1e-6)
    np.testing.assert_array_equal(wv["h"], wv["s"])
    assert "h" not in items_by_slot(inst)  # the draw list skips alpha 0 (§8.4)


@pytest.mark.parametrize("fixture", ["clipping", "shapes", "sequences"])
def test_world_vertices_are_the_draw_lists(fixture):
    # property: for every region and mesh item the draw list builds, world_vertices()
    # gives the same float32 vertices (one code path writes both)
    doc = load_fixture(fixture)
    inst = openbone.Instance(doc)
    names = [a.name for a in doc.animations]
    if names:
        inst.set_animation(0, names[0], True, 0)
    for _ in range(12):
        inst.advance(1 / 30)
        wv = inst.world_vertices()
        for it in inst.draw_list():
            if it.type in ("region", "mesh"):
                np.testing.assert_array_equal(wv[it.slot], it.vertices)


def test_world_vertices_spine_rigs_match_draw_list():
    from conftest import reference
    skel = reference("spine", "skeletons")
    for name, anim in [("raptor-pro", "walk"), ("tank-pro", "drive"), ("celestial-circus-pro", "swing")]:
        inst = openbone.Instance(openbone.import_skeleton_json(skel / f"{name}.json"))
        inst.set_animation(0, anim, True, 0)
        for _ in range(5):
            inst.advance(1 / 30)
        wv = inst.world_vertices()
        items = [it for it in inst.draw_list() if it.type in ("region", "mesh")]
        assert items
        for it in items:
            np.testing.assert_array_equal(wv[it.slot], it.vertices)
