"""§8.10 bounding-box queries: boxes, aabb, point / segment / bounds tests, by hand.

bounds.obone (conformance/README.md, "Draw list"): tri (0,0) (40,0) (0,40) on an identity
bone; ushape, a U opening towards −x after bone_b's rotation (50, 0, 90°):
(x, y) → (50 − y, x) gives (50,0) (50,30) (20,30) (20,20) (40,20) (40,10) (20,10) (20,0) with the
notch x ∈ (20, 40), y ∈ (10, 20) outside the polygon; weighted: (−20,−20), 0.5·(10,−20) +
0.5·bone_b·(10, 0) = (5,−10) + 0.5·(50, 10) = (30,−5), (10,10), (−20,10); small has 2 points (not a
box); herobox on the hero-only bone (−100, 0).
"""
import json
import os

import numpy as np
import pytest

import openbone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inst(skin=None):
    i = openbone.Instance(openbone.load(os.path.join(ROOT, "conformance", "fixtures", "bounds.obone")))
    if skin:
        i.set_skin(skin)
        i.pose_setup()
    return i


def test_boxes_and_aabb_by_hand():
    b = inst().bounds()
    assert [(x["slot"], x["attachment"]) for x in b.boxes] == [("tri", "tri"), ("ushape", "ushape"),
                                                               ("weighted", "weighted")]
    np.testing.assert_allclose(b.boxes[0]["vertices"], [[0, 0], [40, 0], [0, 40]], atol=1e-5)
    np.testing.assert_allclose(b.boxes[1]["vertices"],
                               [[50, 0], [50, 30], [20, 30], [20, 20], [40, 20], [40, 10], [20, 10], [20, 0]],
                               atol=1e-5)
    np.testing.assert_allclose(b.boxes[2]["vertices"], [[-20, -20], [30, -5], [10, 10], [-20, 10]], atol=1e-5)
    assert b.boxes[2]["vertices"].dtype == np.float32
    assert (b.boxes[1]["minX"], b.boxes[1]["maxY"]) == pytest.approx((20, 30), abs=1e-5)
    # overall: min over boxes (−20, −20), max (50, 40)
    assert (b.min_x, b.min_y, b.max_x, b.max_y) == pytest.approx((-20, -20, 50, 40), abs=1e-5)


def test_point_queries_by_hand():
    b = inst().bounds()
    assert b.aabb_contains_point(5, 5) and not b.aabb_contains_point(500, 5)
    assert b.aabb_contains_point(50, 40)  # inclusive
    # (5, 5): inside tri (5 + 5 ≤ 40); inside weighted (one crossing, on edge (30,−5)→(10,10) at x ≈ 16.7)
    assert b.contains_point(5, 5) == "tri"
    assert b.contains_point_all(5, 5) == ["tri", "weighted"]
    # (35, 15): in the U's min/max but in its notch ⇒ outside (even-odd), and outside tri (35 + 15 > 40)
    assert b.contains_point(35, 15) is None
    assert b.contains_point_all(45, 15) == ["ushape"]
    assert b.contains_point_all(300, 300) == []


def test_segment_queries_by_hand():
    b = inst().bounds()
    # y = 20 from x = −5 to 100: crosses tri's hypotenuse at (20, 20) and the U's outer edge x = 50;
    # weighted's max y is 10 ⇒ its rect test fails
    assert b.intersects_segment(-5, 20, 100, 20) == "tri"
    assert b.intersects_segment_all(-5, 20, 100, 20) == ["tri", "ushape"]
    # a segment inside the notch touches nothing
    assert b.intersects_segment(35, 12, 36, 18) is None
    # a segment wholly inside tri and weighted: no edge crossing but pointInPolygon(x1, y1)
    assert b.intersects_segment_all(2, 2, 3, 3) == ["tri", "weighted"]
    assert b.intersects_segment(200, 200, 300, 300) is None


def test_aabb_intersects_and_skins():
    b = inst().bounds()
    assert b.aabb_intersects(45, 25, 60, 28)
    assert not b.aabb_intersects(-200, -200, -150, -150)
    h = inst("hero").bounds()
    assert [x["slot"] for x in h.boxes][-1] == "hero"
    assert h.contains_point(-100, 0) == "hero"
    assert h.min_x == pytest.approx(-110)


def test_no_boxes_gives_zero_aabb():
    b = openbone.Instance(openbone.load(os.path.join(ROOT, "conformance", "fixtures", "rigging.obone"))).bounds()
    assert b.boxes == [] and (b.min_x, b.min_y, b.max_x, b.max_y) == (0, 0, 0, 0)
    assert not b.aabb_contains_point(0, 0) and not b.aabb_intersects(-1, -1, 1, 1)
    assert b.conformance([{"aabbContainsPoint": [0, 0]}]) == {"boxes": [], "minX": 0, "minY": 0, "maxX": 0,
                                                              "maxY": 0, "queries": [False]}


def square_doc(squares):
    atts, slots = {}, []
    for i, (x0, y0, x1, y1) in enumerate(squares):
        slots.append({"id": "s%d" % i, "name": "s%d" % i, "bone": "root", "attachment": "box"})
        atts["s%d" % i] = {"box": {"type": "boundingBox", "vertices": [x0, y0, x1, y0, x1, y1, x0, y1]}}
    d = {"format": "openbone", "version": 1, "name": "sq", "skeleton": {
        "bones": [{"id": "root", "name": "root"}], "slots": slots,
        "skins": [{"id": "d", "name": "default", "attachments": atts}]}}
    return openbone.Instance(openbone.loads(json.dumps(d))).bounds()


def test_intersects_bounds():
    a = square_doc([(0, 0, 10, 10), (20, 0, 30, 10)])
    assert a.intersects_bounds(square_doc([(5, 5, 15, 15)])) == ("s0", "s0")    # edges cross
    assert a.intersects_bounds(square_doc([(22, 2, 24, 4)])) == ("s1", "s0")    # theirs inside mine
    assert square_doc([(22, 2, 24, 4)]).intersects_bounds(a) == ("s0", "s1")    # mine inside theirs
    assert a.intersects_bounds(square_doc([(100, 100, 110, 110)])) is None      # aabbs apart
    # aabbs overlap but no pair does: a box in the gap between s0 and s1
    assert a.intersects_bounds(square_doc([(12, 2, 18, 8)])) is None


def test_conformance_dict():
    out = inst().bounds().conformance([{"containsPoint": [5, 5]}, {"intersectsSegmentAll": [-5, 20, 100, 20]}])
    assert list(out) == ["boxes", "minX", "minY", "maxX", "maxY", "queries"]
    assert out["boxes"][0] == {"slot": "tri", "attachment": "tri", "vertices": [0, 0, 40, 0, 0, 40],
                               "minX": 0, "minY": 0, "maxX": 40, "maxY": 40}
    assert out["queries"] == ["tri", ["tri", "ushape"]]
