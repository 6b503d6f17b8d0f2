"""The Spine pose model's constraint speed-ups (issue 17, csrc/path.c, transform.c, constraints.c):
properties that must hold whatever the arithmetic, on small documents worked out by hand.

* path, chain mode: each bone starts at the previous one's rotated tip (computed without trig
  since issue 17), on a curved path where the angles are not round;
* an updateAppliedTransform that a later constraint reads is still done (constraints.c skips only
  those nothing reads): a transform constraint moves a bone in world space, then IK aims it from
  there (spine-core's IK starts from the applied pose the transform left);
* transform at mix 1 (its turn built without trig) against mix 0.999999 (the trig form)."""
import json
import math

import numpy as np
import pytest

import openbone
from conftest import make_doc

K = 0.5522847498


def load(skeleton, **extra):
    d = make_doc(skeleton, **extra)
    d["poseModel"] = "spine"
    return openbone.loads(json.dumps(d))


def world(inst, doc, name):
    return np.asarray(inst.world[doc.bone_index(name)], dtype=float)


def arc_doc(mix_rotate, lengths=(30, 25, 40, 20, 35)):
    r = 200.0  # a quarter circle and a bit, open: anchors at 0°, 90°, 180°
    verts = []
    for deg in (0, 90, 180):
        a = math.radians(deg)
        ax, ay, tx, ty = r * math.cos(a), r * math.sin(a), -math.sin(a), math.cos(a)
        verts += [ax - tx * K * r, ay - ty * K * r, ax, ay, ax + tx * K * r, ay + ty * K * r]
    bones = [{"id": "root", "name": "root"}]
    parent = "root"
    for i, ln in enumerate(lengths):
        bones.append({"id": f"b{i}", "name": f"b{i}", "parent": parent, "length": ln, "x": 0 if i == 0 else 5})
        parent = f"b{i}"
    skins = [{"id": "default", "name": "default", "attachments": {"path": {"path": {
        "type": "path", "vertices": verts, "closed": False, "constantSpeed": True}}}}]
    slots = [{"id": "path", "name": "path", "bone": "root", "attachment": "path"}]
    c = {"id": "pc", "name": "pc", "bones": [f"b{i}" for i in range(len(lengths))], "target": "path",
         "positionMode": "fixed", "spacingMode": "length", "rotateMode": "chain", "position": 7, "spacing": 13,
         "mixRotate": mix_rotate, "mixX": 1, "mixY": 1}
    return load({"bones": bones, "slots": slots, "skins": skins, "path": [c]}), lengths


def test_path_chain_bones_start_at_the_previous_rotated_tip():
    doc, lengths = arc_doc(1)
    inst = openbone.Instance(doc)
    for i in range(len(lengths) - 1):
        w, nxt = world(inst, doc, f"b{i}"), world(inst, doc, f"b{i + 1}")
        tip = w[4:6] + lengths[i] * np.array([w[0], w[2]])  # length · the bone's world X axis
        assert nxt[4:6] == pytest.approx(tip, abs=1e-9)
        # and the bone aims at the next point of the path it was given: its X axis is unit length
        assert math.hypot(w[0], w[2]) == pytest.approx(1, abs=1e-12)


def test_path_chain_mix_below_one_is_continuous_with_mix_one():
    # the mix-1 turn is built without trig, a mix just below 1 takes the trig form: the poses meet
    d1, _ = arc_doc(1)
    d2, _ = arc_doc(1 - 1e-12)
    a, b = openbone.Instance(d1), openbone.Instance(d2)
    assert np.asarray(a.world) == pytest.approx(np.asarray(b.world), abs=1e-8)


def transform_then_ik_doc():
    # A starts at (0, 0); the transform constraint (world space, translate only) moves it onto T at
    # (100, 0); IK then aims A at U (100, 100) from the applied pose the transform left: A stays at
    # (100, 0) and turns to 90°.  (Without that updateAppliedTransform, IK would rebuild A from its
    # old local pose at (0, 0) and aim at 45°.)
    bones = [{"id": "root", "name": "root"}, {"id": "A", "name": "A", "parent": "root", "length": 10},
             {"id": "T", "name": "T", "parent": "root", "x": 100},
             {"id": "U", "name": "U", "parent": "root", "x": 100, "y": 100}]
    tc = {"id": "tc", "name": "tc", "order": 0, "bones": ["A"], "target": "T", "mixRotate": 0, "mixTranslate": 1,
          "mixY": 1, "mixScale": 0, "mixShear": 0}
    ik = {"id": "ik", "name": "ik", "order": 1, "bones": ["A"], "target": "U", "mix": 1}
    return load({"bones": bones, "transform": [tc], "ik": [ik]})


def test_applied_pose_read_later_is_still_synced():
    doc = transform_then_ik_doc()
    inst = openbone.Instance(doc)
    a = world(inst, doc, "A")
    assert a[4:6] == pytest.approx([100, 0], abs=1e-9)
    assert math.degrees(math.atan2(a[2], a[0])) == pytest.approx(90, abs=1e-9)
    inst.advance(1 / 30)  # the analysis is kept (and redone after a skin change)
    inst.set_skin(None)
    inst.advance(1 / 30)
    a = world(inst, doc, "A")
    assert a[4:6] == pytest.approx([100, 0], abs=1e-9)


@pytest.mark.parametrize("relative", [False, True])
def test_transform_rotate_mix_one_matches_the_trig_form(relative):
    def doc(mix):
        bones = [{"id": "root", "name": "root"},
                 {"id": "A", "name": "A", "parent": "root", "rotation": 17, "scaleX": 1.5, "shearY": 8},
                 {"id": "T", "name": "T", "parent": "root", "rotation": 123.4, "scaleX": 0.7, "x": 30}]
        tc = {"id": "tc", "name": "tc", "bones": ["A"], "target": "T", "offsetRotation": 33.3, "relative": relative,
              "mixRotate": mix, "mixTranslate": 0, "mixY": 0, "mixScale": 0, "mixShear": 0}
        return load({"bones": bones, "transform": [tc]})
    d1, d2 = doc(1), doc(1 - 1e-13)
    w1, w2 = world(openbone.Instance(d1), d1, "A"), world(openbone.Instance(d2), d2, "A")
    assert w1 == pytest.approx(w2, abs=1e-10)
    # absolute: A's X axis turned onto T's plus 33.3° (T's 123.4 + 33.3 = 156.7), its length kept
    if not relative:
        assert math.degrees(math.atan2(w1[2], w1[0])) == pytest.approx(156.7, abs=1e-9)
    assert math.hypot(w1[0], w1[2]) == pytest.approx(1.5, abs=1e-12)


def physics_pair_doc(which):
    """Two sibling bones with a physics constraint each (which: the ones kept); the root swings.
    spine-core runs the two one after the other; csrc/physics.c runs them in lockstep."""
    bones = [{"id": "root", "name": "root"},
             {"id": "a", "name": "a", "parent": "root", "length": 40, "x": 10, "rotation": 20},
             {"id": "b", "name": "b", "parent": "root", "length": 30, "x": -10, "rotation": 150}]
    spec = {"a": {"x": 0.5, "y": 0.3, "rotate": 1, "shearX": 0.4, "scaleX": 0.6, "inertia": 0.5, "strength": 120,
                  "damping": 0.85, "mass": 1.3, "fps": 60, "limit": 3000, "wind": 2, "gravity": -5},
            "b": {"rotate": 0.7, "scaleX": 0.3, "inertia": 0.8, "strength": 90, "damping": 0.8, "fps": 50,
                  "limit": 2000, "gravity": 3}}
    phys = [dict({"id": f"p{k}", "name": f"p{k}", "bone": k, "mix": 1}, **spec[k]) for k in which]
    anim = {"id": "swing", "name": "swing", "timelines": [
        {"target": "bone", "id": "root", "property": "rotation",
         "keys": [{"time": 0, "value": 0}, {"time": 0.5, "value": 40}, {"time": 1, "value": -30}]},
        {"target": "bone", "id": "root", "property": "x",
         "keys": [{"time": 0, "value": 0}, {"time": 0.7, "value": 80}, {"time": 1, "value": 0}]}]}
    return load({"bones": bones, "physics": phys}, animations=[anim])


def test_paired_physics_constraints_give_the_bits_of_each_alone():
    both, only_a, only_b = physics_pair_doc("ab"), physics_pair_doc("a"), physics_pair_doc("b")
    insts = [openbone.Instance(d) for d in (both, only_a, only_b)]
    for i in insts:
        i.set_animation(0, "swing", True, 0)
    for _ in range(90):
        for i in insts:
            i.advance(1 / 30)
        wa = np.asarray(insts[0].world)
        assert wa[both.bone_index("a")].tobytes() == np.asarray(insts[1].world)[only_a.bone_index("a")].tobytes()
        assert wa[both.bone_index("b")].tobytes() == np.asarray(insts[2].world)[only_b.bone_index("b")].tobytes()
    assert abs(wa[both.bone_index("a")][0] - math.cos(math.radians(20))) > 1e-6  # the springs did move the bones
