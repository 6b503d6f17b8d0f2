"""Keyed values sampled as pieces linear in time (issue 17, session 4; conformance/NOTES.md).

Values are checked against §5 computed by hand here (locate + lerp), and the piece look-up's
hint against its own absence: a value must not depend on which times were sampled before.
"""
import json
import math
import random

import numpy as np
import pytest

import openbone
from conftest import reference


def rig(keys_rot, keys_x=None):
    bone = {"rotate": keys_rot}
    if keys_x is not None:
        bone["translate"] = keys_x
    return {"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
            "slots": [], "animations": {"a": {"bones": {"b": bone}}}}


def local(doc, time):
    inst = openbone.Instance(doc)
    inst.apply_animation("a", time)
    return np.array(inst.local_pose)[1]


def test_linear_keys_match_hand_lerp():
    keys = [{"time": 0, "value": 10}, {"time": 1, "value": 40}, {"time": 3, "value": -20}]
    doc = openbone.import_skeleton_json(rig(keys), curves="spine")
    times = [0, 1e-300, 0.25, 0.999999, 1, 1.5, 2.75, 3 - 1e-12]
    inst = openbone.Instance(doc)
    for t in random.Random(5).sample(times, len(times)):
        inst.apply_animation("a", t)
        (t0, v0), (t1, v1) = ((0, 10), (1, 40)) if t < 1 else ((1, 40), (3, -20))
        want = v0 + (v1 - v0) * ((t - t0) / (t1 - t0))  # §5 lerp of the span's fraction
        assert inst.local_pose[1][2] == pytest.approx(want, rel=1e-14, abs=1e-13)


@pytest.mark.parametrize("t, want", [(-5, 10.0), (0, 10.0), (3, -20.0), (7.5, -20.0), (1e301, -20.0), (1e289, -20.0),
                                     (-1e289, 10.0), (-1e301, 10.0)])
def test_holds_give_the_key_value_exactly(t, want):
    keys = [{"time": 0, "value": 10}, {"time": 1, "value": 40}, {"time": 3, "value": -20}]
    doc = openbone.import_skeleton_json(rig(keys), curves="spine")
    assert local(doc, t)[2] == want


def test_stepped_and_held_negative_zero_stay_negative_zero():
    keys = [{"time": 0.5, "value": 1, "curve": "stepped"}, {"time": 1, "value": 5}]
    d = json.loads(openbone.import_skeleton_json(rig(keys), curves="spine").json)
    # the importer adds the setup rotation (and a key at 0): the keys written as the format's own
    d["animations"][0]["timelines"][0]["keys"] = [{"time": 0.5, "value": -0.0, "curve": "stepped"},
                                                  {"time": 1, "value": 5}]
    doc = openbone.loads(json.dumps(d))
    for t in (0.0, 0.5, 0.75, 0.9999):
        r = local(doc, t)[2]
        assert r == 0 and math.copysign(1, r) == -1, t


def test_values_do_not_depend_on_the_times_sampled_before():
    """Forward, backward and random orders (the hint moves or misses) give the bits a fresh
    instance gives at that time, on a rig with Spine curves on every bone value kind."""
    doc = openbone.import_skeleton_json(reference("spine", "skeletons", "spineboy-pro.json"), curves="spine")
    d = 1 / 30
    times = [k * d for k in range(40)] + [0.6666, 0.0001, 0.33, 2.0, -1.0]
    fresh = {}
    for t in times:
        inst = openbone.Instance(doc)
        inst.apply_animation("run", t)
        fresh[t] = np.array(inst.local_pose)
    for order in (times, times[::-1], random.Random(1).sample(times, len(times))):
        inst = openbone.Instance(doc)
        for t in order:
            inst.set_to_setup_pose()
            inst.apply_animation("run", t)
            assert np.array_equal(np.array(inst.local_pose), fresh[t]), t


def test_spine_curve_matches_its_segments():
    """A Spine bezier span: the value is the curve's own 10-segment polyline (spine-core
    CurveTimeline.setBezier's samples, computed here) lerped between the keys."""
    c = [0.25, 0.1, 0.75, 0.9]
    keys = [{"time": 0, "value": 0, "curve": [0.25 * 2, 100 * 0.1, 0.75 * 2, 100 * 0.9]}, {"time": 2, "value": 100}]
    doc = openbone.import_skeleton_json(rig(keys), curves="spine")
    # the samples by forward differencing, as spine-core
    cx1, cy1, cx2, cy2 = c
    tmpx, tmpy = (-cx1 * 2 + cx2) * 0.03, (-cy1 * 2 + cy2) * 0.03
    dddx, dddy = ((cx1 - cx2) * 3 + 1) * 0.006, ((cy1 - cy2) * 3 + 1) * 0.006
    ddx, ddy = tmpx * 2 + dddx, tmpy * 2 + dddy
    dx, dy = cx1 * 0.3 + tmpx + dddx * 0.16666667, cy1 * 0.3 + tmpy + dddy * 0.16666667
    x, y, pts = dx, dy, [(0.0, 0.0)]
    for _ in range(9):
        pts.append((x, y))
        dx += ddx; dy += ddy; ddx += dddx; ddy += dddy; x += dx; y += dy
    pts.append((1.0, 1.0))
    for t in (0.05, 0.3, 0.77, 1.0, 1.41, 1.99):
        f = t / 2
        i = next(k for k in range(1, len(pts)) if pts[k][0] >= f)
        (x0, y0), (x1, y1) = pts[i - 1], pts[i]
        want = 100 * (y0 + (f - x0) / (x1 - x0) * (y1 - y0))
        assert local(doc, t)[2] == pytest.approx(want, rel=1e-12, abs=1e-12), t
