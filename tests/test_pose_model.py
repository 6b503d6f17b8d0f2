"""The Spine pose model ("poseModel": "spine", written by the skeleton JSON
import, issues 9 and 16): three places where it differs from OpenBone (§5.1
looping time, §7.1 two-bone IK softness and reach, §7.2 transform mixes ≠ 0).
Every expected value is worked out here from spine-core's formulas (as quoted in
csrc/curve_spine.h and conformance/NOTES.md), and each is checked against the
OpenBone rule on the same document, which must not change.  The rest of the
model (spine-core 4.2's inherit, IK, path and physics rules) is checked by hand
in test_spine_pose_rules.py and against the goldens in test_spine_golden.py."""
import json
import math

import pytest

import openbone

from conftest import make_doc


def load(skeleton, model, **extra):
    d = make_doc(skeleton, **extra)
    if model:
        d["poseModel"] = model
    return openbone.loads(json.dumps(d))


# ---- §5.1 looping time ---------------------------------------------------------

@pytest.mark.parametrize("model", [None, "openbone", "spine"])
def test_loop_time_one_ulp_before_the_end(model):
    # x keyed 0 at t = 0 and 100 at t = 1 (linear), looping, duration 1.  Track time
    # t = 1 − 2⁻⁵³ = 0.9999999999999999: Spine's t % 1 = t, so x = 100·t = 99.99999999999999;
    # OpenBone's ((t % 1) + 1) % 1 rounds t + 1 = 2 − 2⁻⁵³ to 2 (ties to even), so x = 0.
    anim = {"id": "a", "name": "a", "duration": 1,
            "timelines": [{"target": "bone", "id": "b", "property": "x",
                           "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 100}]}]}
    doc = load({"bones": [{"id": "b", "name": "b"}]}, model, animations=[anim])
    inst = openbone.Instance(doc)
    inst.set_animation(0, "a", True, 0)
    t = 1 - 2 ** -53
    inst.advance(t)
    want = 100 * t if model == "spine" else 0.0
    assert inst.world[0][4] == want


def test_unknown_pose_model_warns():
    doc = load({"bones": [{"id": "b", "name": "b"}]}, "bogus")
    assert any("poseModel" in w for w in doc.warnings)


# ---- §7.2 transform mixes ------------------------------------------------------

@pytest.mark.parametrize("model", ["openbone", "spine"])
def test_transform_negative_mix(model):
    # world absolute, mixTranslate −1: target at (10, 4), bone at (2, 0).
    # Spine applies a channel whose mix is ≠ 0: x += (10 − 2)·(−1) = −6, y += (4 − 0)·(−1) = −4.
    # OpenBone applies only mixes > 0: the bone stays at (2, 0).
    bones = [{"id": "t", "name": "t", "x": 10, "y": 4}, {"id": "b", "name": "b", "x": 2}]
    c = {"id": "tc", "name": "tc", "bones": ["b"], "target": "t", "mixRotate": 0, "mixTranslate": -1}
    inst = openbone.Instance(load({"bones": bones, "transform": [c]}, model))
    w = inst.world[1]
    assert (w[4], w[5]) == ((-6.0, -4.0) if model == "spine" else (2.0, 0.0))


# ---- §7.1 two-bone IK ------------------------------------------------------------

def arm(target_x, softness, model):
    """a (length 10) → b (x 10, length 10) along +x, target at (target_x, 0)."""
    bones = [{"id": "a", "name": "a", "length": 10}, {"id": "b", "name": "b", "parent": "a", "x": 10, "length": 10},
             {"id": "t", "name": "t", "x": target_x}]
    ik = {"id": "ik", "name": "ik", "bones": ["a", "b"], "target": "t", "mix": 1, "bendPositive": True,
          "softness": softness}
    return openbone.Instance(load({"bones": bones, "ik": [ik]}, model))


def tip_distance(inst):
    b = inst.world[1]
    return math.hypot(b[0] * 10 + b[4], b[2] * 10 + b[5])


@pytest.mark.parametrize("target_x, spine_d, openbone_d", [
    # reach 20, softness 5.  Spine: sd = d − 20 + 5; when sd > 0, q = min(1, sd/10) − 1 and
    # d' = d − (sd − 5(1 − q²)).  OpenBone: d' = 15 + 5(1 − e^(−(d − 15)/5)).
    (18, 17.55, 15 + 5 * (1 - math.exp(-0.6))),  # sd = 3, q = −0.7: 18 − (3 − 5·0.51) = 17.55
    (25, 20.0, 15 + 5 * (1 - math.exp(-2))),     # sd = 10, q = 0: 25 − (10 − 5) = 20, the full reach
    (14, 14.0, 14.0),                            # sd = −1: no easing in either model
])
def test_two_bone_softness(target_x, spine_d, openbone_d):
    assert tip_distance(arm(target_x, 5, "spine")) == pytest.approx(spine_d, abs=1e-9)
    assert tip_distance(arm(target_x, 5, "openbone")) == pytest.approx(openbone_d, abs=1e-9)


def test_two_bone_reach_without_margin():
    # target beyond the reach, no softness: Spine straightens the arm to exactly l1 + l2 = 20
    # (both bones along +x, rotation 0); OpenBone stops at reach − 1e-4 = 19.9999, so the
    # elbow keeps a bend: cos A = (l1² + d² − l2²) / (2·l1·d) = d/20 ⇒ A = acos(0.999995) = 0.1812°.
    sp = arm(30, 0, "spine")
    assert tip_distance(sp) == pytest.approx(20, abs=1e-12)
    assert math.degrees(math.atan2(sp.world[1][2], sp.world[1][0])) == pytest.approx(0, abs=1e-6)
    ob = arm(30, 0, "openbone")
    assert tip_distance(ob) == pytest.approx(19.9999, abs=1e-9)
    assert abs(math.degrees(math.atan2(ob.world[0][2], ob.world[0][0]))) == pytest.approx(
        math.degrees(math.acos(19.9999 / 20)), abs=1e-6)


def test_import_writes_the_pose_model():
    from conftest import reference
    from openbone import spine
    src = reference("spine", "skeletons", "spineboy-pro.json")
    assert spine.skeleton_json_to_dict(src)["poseModel"] == "spine"
    assert "poseModel" not in spine.skeleton_json_to_dict(src, pose_model="openbone")
    with pytest.raises(ValueError):
        spine.skeleton_json_to_dict(src, pose_model="nope")
