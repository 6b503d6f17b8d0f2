"""Issue 17 (keys): the plain apply (alpha >= 1, no mix-out) and localTime's wrap.

* deform timelines run from flat records (ob_dline) with the hinted span, or its next one, taken in
  place: the offsets are bit for bit those of a fresh instance sampled at the same time only (whose
  hint finds nothing: the full search), and the keys' lerp computed here;
* bone lines whose every piece gives one value store it: exact, -0.0 kept, the same as a fresh
  instance, next to lines that vary;
* a looping Spine track's local time total % d is computed without fmod when the exact remainder
  is certain: poses bit for bit those sampled at math.fmod(total, d) (C's fmod), over many cycles.
"""
import json
import math
import random

import numpy as np
import pytest

import openbone

V = [0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0, 5.0, 15.0]
K0 = [1.0, -2.0, 0.5, 0.25, -1.0, 3.0, 2.0, 2.0, 0.125, -0.75]
K1 = [3.0, 4.0, -1.5, 0.75, 2.0, -1.0, 0.0, 6.0, 1.125, 0.25]


def deform_doc():
    mesh = {"type": "mesh", "image": "img", "uvs": [0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5],
            "triangles": [0, 1, 2, 0, 2, 3, 2, 3, 4], "vertices": V, "color": "#ffffff"}
    doc = {
        "format": "openbone", "version": 1, "name": "keys-plain", "width": 100, "height": 100,
        "images": [{"id": "img", "name": "img", "src": "img.png", "width": 10, "height": 10}],
        "skeleton": {
            "bones": [{"id": "root", "name": "root", "parent": None}],
            "slots": [{"id": "s", "name": "s", "bone": "root", "attachment": "m"},
                      {"id": "s2", "name": "s2", "bone": "root", "attachment": "m"}],
            "skins": [{"id": "skin_default", "name": "default",
                       "attachments": {"s": {"m": mesh}, "s2": {"m": mesh}}}],
        },
        "animations": [{
            "id": "a", "name": "a", "timelines": [
                {"target": "deform", "id": "s", "attachment": "m", "property": "offsets", "keys": [
                    {"time": 0, "value": K0, "curve": "linear"},
                    {"time": 0.05, "value": K1, "curve": "linear"},   # shorter than a frame
                    {"time": 0.1, "value": K0, "curve": "stepped"},
                    {"time": 0.5, "value": K1, "curve": [0.25, 0, 0.75, 1]},
                    {"time": 0.5, "value": K0},                          # a zero-length span
                    {"time": 1.0, "value": K1}]},
                {"target": "deform", "id": "s2", "attachment": "m", "property": "offsets", "keys": [
                    {"time": 0, "value": K0}, {"time": 0.3, "value": K1}, {"time": 0.6, "value": K0}]},
            ]}],
    }
    return openbone.loads(json.dumps(doc))


def sample(inst, time):
    inst.set_to_setup_pose()
    inst.apply_animation("a", time)
    return inst.deform("s", "m").copy(), inst.deform("s2", "m").copy()


def test_deform_records_equal_a_fresh_search():
    doc = deform_doc()
    walker = openbone.Instance(doc)
    times = [i / 60 for i in range(-3, 75)] + [0.05, 0.1, 0.5, 0.3, 0.6, 1.0, 1.2] + [i / 7 for i in range(9)]
    for t in times:  # forward, then a few jumps back and to the keys
        got = sample(walker, t)
        want = sample(openbone.Instance(doc), t)
        for g, w in zip(got, want):
            assert g.tobytes() == w.tobytes(), t
    # the linear spans against the lerp written here
    for t, (a, b, f) in [(0.02, (K0, K1, 0.02 / 0.05)), (0.07, (K1, K0, (0.07 - 0.05) / 0.05))]:
        np.testing.assert_allclose(sample(openbone.Instance(doc), t)[0],
                                   [x + (y - x) * f for x, y in zip(a, b)], rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(sample(walker, 0.3)[0], K0)  # stepped: the left key held


def bone_doc(keys_const, keys_var):
    d = {"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
         "slots": [], "animations": {"a": {"bones": {"b": {"rotate": keys_var, "translate": keys_const}}}}}
    return openbone.import_skeleton_json(d, curves="spine")


def test_constant_lines_store_their_value():
    var = [{"time": 0, "value": 10}, {"time": 0.4, "value": 40, "curve": [0.2, 0.1, 0.8, 0.9]}, {"time": 1, "value": -20}]
    const = [{"time": 0, "x": 7.25, "y": 3}, {"time": 0.5, "x": 7.25, "y": 3, "curve": "stepped"},
             {"time": 0.75, "x": 7.25, "y": 3}]
    doc = bone_doc(const, var)
    walker = openbone.Instance(doc)
    for t in [i / 30 for i in range(-2, 40)] + [0.5, 0.75, 1e6, -1e6]:
        walker.set_to_setup_pose()
        walker.apply_animation("a", t)
        fresh = openbone.Instance(doc)
        fresh.apply_animation("a", t)
        got, want = np.array(walker.local_pose)[1], np.array(fresh.local_pose)[1]
        assert got.tobytes() == want.tobytes(), t
        assert got[0] == 7.25 and got[1] == 3


def test_constant_negative_zero_stays_negative_zero():
    d = json.loads(bone_doc([{"time": 0, "x": 1, "y": 1}], [{"time": 0, "value": 1}, {"time": 1, "value": 2}]).json)
    for tl in d["animations"][0]["timelines"]:
        if tl["property"] == "x":
            tl["keys"] = [{"time": 0.25, "value": -0.0, "curve": "stepped"},
                          {"time": 0.5, "value": -0.0, "curve": "stepped"}, {"time": 1, "value": -0.0}]
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    for t in (0.0, 0.25, 0.3, 0.5, 0.75, 1.0, 2.0):
        inst.set_to_setup_pose()
        inst.apply_animation("a", t)
        x = inst.local_pose[1][0]
        assert x == 0 and math.copysign(1, x) == -1, t


@pytest.mark.parametrize("d", [0.5333333333333333, 1.0, 2.2, 0.1, 1 / 3, 6.666666666666667])
def test_loop_wrap_is_fmod(d):
    keys = [{"time": 0, "value": 0}, {"time": d, "value": 360 * d + 0.1}]
    doc = bone_doc([{"time": 0, "x": 0, "y": 0}, {"time": d, "x": 1000, "y": -1}], keys)
    d = json.loads(doc.json)["animations"][0]["duration"]  # as imported (Spine's times are floats)
    inst = openbone.Instance(doc)
    inst.set_animation(0, "a", loop=True)
    rng = random.Random(17)
    total = 0.0
    probe = openbone.Instance(doc)
    for i in range(1500):
        dt = 1 / 30 if i % 3 else rng.choice([1 / 60, 0.1, d, 2 * d, 0.0137])
        inst.advance(dt)
        total += dt * 1.0
        probe.set_to_setup_pose()
        probe.apply_animation("a", math.fmod(total, d))
        got, want = np.array(inst.local_pose)[1], np.array(probe.local_pose)[1]
        assert got.tobytes() == want.tobytes(), (i, total)
