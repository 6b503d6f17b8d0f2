"""Issue 17, deform: a full-weight deform sample is recorded (ob_deform.lazy_*), not stored, and
an unweighted mesh computes its world vertices straight from the keys (the §5 lerp fused with
the §8.3 vertex transform, csrc/attachment_vertices.c); every other reader (Instance.deform,
weighted meshes, paths, bounds, snapshots/copies, mixing) gets the values stored first.

Checked against values derived independently:

* a hand-built rig (one bone with an exact matrix, an unweighted mesh, linear / stepped / bezier
  deform keys, a short key): world vertices = M·(v + lerp(k0, k1, t)) computed here in doubles;
* Instance.deform() = the keys' lerp computed here, whatever was read before it;
* the fused output is bit for bit the materialise-then-transform output: width 3 (the tests'
  direct loop, which stores the offsets and sums per value) against the SSE2 and AVX2 loops,
  on the Spine example rigs with deformed unweighted meshes, also across cross-fades;
* a copy (snapshot) of an instance whose samples are pending poses the same vertices.
"""
import json

import numpy as np
import pytest

import openbone

from conftest import reference

V = [0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0, 5.0, 15.0]  # 5 vertices: an odd count (the 1-vertex tail)
K0 = [1.0, -2.0, 0.5, 0.25, -1.0, 3.0, 2.0, 2.0, 0.125, -0.75]
K1 = [3.0, 4.0, -1.5, 0.75, 2.0, -1.0, 0.0, 6.0, 1.125, 0.25]
K2 = [9.0, 9.0]  # a short key: the rest count as 0 (§5 sampleArray)


def rig_doc():
    mesh = {"type": "mesh", "image": "img", "uvs": [0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5],
            "triangles": [0, 1, 2, 0, 2, 3, 2, 3, 4], "vertices": V, "color": "#ffffff"}
    doc = {
        "format": "openbone", "version": 1, "name": "deform-hand", "width": 100, "height": 100,
        "images": [{"id": "img", "name": "img", "src": "img.png", "width": 10, "height": 10}],
        "skeleton": {
            # world matrix of "b": scale 2 then translate (10, 20): exact in binary
            "bones": [{"id": "root", "name": "root", "parent": None, "x": 10, "y": 20, "scaleX": 2, "scaleY": 2}],
            "slots": [{"id": "s", "name": "s", "bone": "root", "attachment": "m"},
                      {"id": "s2", "name": "s2", "bone": "root", "attachment": "m"}],
            "skins": [{"id": "skin_default", "name": "default",
                       "attachments": {"s": {"m": mesh}, "s2": {"m": mesh}}}],
        },
        "animations": [{
            "id": "a", "name": "a", "timelines": [
                {"target": "deform", "id": "s", "attachment": "m", "property": "offsets", "keys": [
                    {"time": 0, "value": K0, "curve": "linear"},
                    {"time": 1, "value": K1, "curve": "stepped"},
                    {"time": 2, "value": K0, "curve": [0.25, 0, 0.75, 1]},
                    {"time": 3, "value": K1}]},
                {"target": "deform", "id": "s2", "attachment": "m", "property": "offsets", "keys": [
                    {"time": 0, "value": K0}, {"time": 2, "value": K2}]},
            ]}],
    }
    return openbone.loads(json.dumps(doc))


def lerp(a, b, t):
    n = max(len(a), len(b))
    a = list(a) + [0.0] * (n - len(a))
    b = list(b) + [0.0] * (n - len(b))
    return [x + (y - x) * t for x, y in zip(a, b)]


def expected_world(offsets):
    o = list(offsets) + [0.0] * (len(V) - len(offsets))
    w = []
    for i in range(0, len(V), 2):
        x, y = V[i] + o[i], V[i + 1] + o[i + 1]
        w += [2 * x + 0 * y + 10, 0 * x + 2 * y + 20]
    return np.array(w, np.float32).reshape(-1, 2)


@pytest.mark.parametrize("width", [0, 1, 3])
def test_hand_rig_world_vertices(width):
    doc = rig_doc()
    inst = openbone.Instance(doc)
    inst._set_vertex_width(width)
    cases = [(0.0, K0), (0.25, lerp(K0, K1, 0.25)), (0.75, lerp(K0, K1, 0.75)),
             (1.5, K1),                                   # stepped: the left key held
             (3.5, K1)]                                   # after the last key
    for time, offsets in cases:
        inst.set_to_setup_pose()
        inst.apply_animation("a", time)
        inst.update_world_transform()
        wv = inst.world_vertices()
        np.testing.assert_allclose(wv["s"], expected_world(offsets), rtol=1e-6, atol=1e-5)
        np.testing.assert_allclose(inst.deform("s", "m"), offsets, rtol=1e-12, atol=1e-12)
        # the short key: sampleArray to the longer length, missing = 0
        short = lerp(K0, K2, time / 2) if time < 2 else K2 + [0.0] * 0
        np.testing.assert_allclose(wv["s2"], expected_world(short), rtol=1e-6, atol=1e-5)
    # a bezier span: the fused vertices are the stored offsets' vertices (read in either order)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 2.5)
    inst.update_world_transform()
    first = inst.world_vertices()["s"].copy()
    d = inst.deform("s", "m")
    assert d.shape == (10,) and np.all(d != np.array(K0)) and np.all(d != np.array(K1))
    np.testing.assert_array_equal(inst.world_vertices()["s"], first)
    np.testing.assert_allclose(first, expected_world(d), rtol=1e-6, atol=1e-5)


def test_hand_rig_mixing_reads_the_pending_values():
    """alpha < 1 lerps from the current offsets: a pending full-weight sample must be stored first."""
    doc = rig_doc()
    inst = openbone.Instance(doc)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0.25)          # full weight: pending
    inst.apply_animation("a", 0.75, 0.5)     # mixed with it
    inst.update_world_transform()
    cur, new = lerp(K0, K1, 0.25), lerp(K0, K1, 0.75)
    mixed = [c + (n - c) * 0.5 for c, n in zip(cur, new)]
    np.testing.assert_allclose(inst.deform("s", "m"), mixed, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(inst.world_vertices()["s"], expected_world(mixed), rtol=1e-6, atol=1e-5)


def test_hand_rig_copy_of_pending_sample():
    doc = rig_doc()
    inst = openbone.Instance(doc)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0.4)
    inst.update_world_transform()
    twin = inst.copy()
    np.testing.assert_array_equal(twin.world_vertices()["s"], inst.world_vertices()["s"])
    np.testing.assert_allclose(twin.deform("s", "m"), lerp(K0, K1, 0.4), rtol=1e-12, atol=1e-12)
    # the setup pose clears the deform: no stale pending sample is drawn
    inst.set_to_setup_pose()
    inst.update_world_transform()
    np.testing.assert_allclose(inst.world_vertices()["s"], expected_world([]), rtol=1e-6, atol=1e-5)
    assert inst.deform("s", "m") is None or inst.deform("s", "m").size == 0


RIGS = [("goblins-pro", "goblin"), ("hero-pro", None), ("stretchyman-pro", None), ("tank-pro", None),
        ("spineboy-pro", None), ("owl-pro", None)]


def frames(doc, anims, width, skin, n=30):
    inst = openbone.Instance(doc)
    inst._set_vertex_width(width)
    if skin:
        inst.set_skin(skin)
    inst.set_animation(0, anims[0], True, 0)
    out = []
    for i in range(n):
        if i == n // 2 and len(anims) > 1:
            inst.set_animation(0, anims[1], True, 0.3)  # a cross-fade: mixed deforms
        inst.advance(1 / 30 + 0.011 * (i % 3))
        out.append(inst._world_vertices()[0].copy())
    return np.concatenate(out)


@pytest.mark.parametrize("rig,skin", RIGS)
def test_fused_equals_materialised(rig, skin):
    """width 3 stores every sample and sums per value; 1 and 0 read pending samples fused."""
    doc = openbone.import_skeleton_json(reference("spine", "skeletons", f"{rig}.json"), curves="spine")
    names = [a.name for a in doc.animations]
    for anims in (names[:2], names[2:4] or names[:1]):
        direct = frames(doc, anims, 3, skin)
        assert direct.size and np.isfinite(direct).all()
        for width in (1, 0):
            np.testing.assert_array_equal(frames(doc, anims, width, skin).view(np.uint32), direct.view(np.uint32))


def test_goblins_deform_values_are_the_keys_lerp():
    """Instance.deform after a frame = the lerp of the imported keys (linear spans), computed here."""
    path = reference("spine", "skeletons", "goblins-pro.json")
    doc = openbone.import_skeleton_json(path, curves="spine")
    keys = {}
    for a in json.loads(doc.dumps())["animations"]:
        if a["name"] == "walk":
            for t in a["timelines"]:
                if t["target"] == "deform":
                    keys[(t["id"], t["attachment"])] = t["keys"]
    inst = openbone.Instance(doc)
    inst.set_skin("goblin")
    checked = 0
    for time in (0.05, 0.21, 0.33, 0.48):
        inst.set_to_setup_pose()
        inst.apply_animation("walk", time)
        inst.update_world_transform()
        inst.world_vertices()  # draws from the pending samples first
        for (slot, att), ks in keys.items():
            i = max(j for j in range(len(ks)) if ks[j]["time"] <= time)
            if i + 1 >= len(ks) or ks[i].get("curve", "linear") != "linear":
                continue
            a, b = ks[i], ks[i + 1]
            t = (time - a["time"]) / (b["time"] - a["time"])
            np.testing.assert_allclose(inst.deform(slot, att), lerp(a["value"], b["value"], t),
                                       rtol=1e-12, atol=1e-12)
            checked += 1
    assert checked >= 12
