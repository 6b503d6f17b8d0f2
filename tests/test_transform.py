"""§7.2 transform constraints against values worked out by hand."""
import json
import math

import pytest

import openbone

from conftest import make_doc


def rot(m):
    return math.degrees(math.atan2(m[2], m[0]))


def sx(m):
    return math.hypot(m[0], m[2])


def sy(m):
    return math.hypot(m[1], m[3])


def skew(m):
    """angle between the axes minus 90 (§7.2 skewOf, unwrapped for small values)"""
    return math.degrees(math.atan2(m[3], m[1]) - math.atan2(m[2], m[0])) - 90


def make(con, target=None, bone=None, child=True):
    target = target or {"x": 50, "y": 40, "rotation": 30, "scaleX": 2, "scaleY": 0.5, "shearY": 10}
    bone = bone or {"x": -10, "y": 5, "rotation": -20, "scaleX": 1, "scaleY": 1}
    bones = [{"id": "root", "name": "root"},
             dict({"id": "tg", "name": "tg", "parent": "root", "length": 10}, **target),
             dict({"id": "b", "name": "b", "parent": "root", "length": 20}, **bone)]
    if child:
        bones.append({"id": "c", "name": "c", "parent": "b", "x": 20, "length": 5})
    c = {"id": "tc", "name": "follow", "bones": ["b"], "target": "tg"}
    c.update(con)
    return openbone.Instance(openbone.loads(json.dumps(make_doc({"bones": bones, "transform": [c]}))))


def test_world_absolute_rotate_and_translate():
    inst = make({"mixRotate": 1, "mixTranslate": 1, "offsetRotation": 15, "offsetX": 10, "offsetY": 0})
    b, t = inst.world[2], inst.world[1]
    assert rot(b) == pytest.approx(30 + 15)
    # t·(offX, offY) = (50, 40) + 2·(cos30, sin30)·10
    assert (b[4], b[5]) == pytest.approx((50 + 20 * math.cos(math.radians(30)), 40 + 20 * math.sin(math.radians(30))))
    # the child follows (updateSubtree)
    c = inst.world[3]
    assert (c[4], c[5]) == pytest.approx((b[0] * 20 + b[4], b[2] * 20 + b[5]))


def test_world_absolute_partial_mix():
    inst = make({"mixRotate": 0.5, "mixTranslate": 0.25})
    b = inst.world[2]
    # rotation −20 + wrap(30 − (−20))·0.5 = 5 ; position (−10, 5) + ((50, 40) − (−10, 5))·0.25
    assert rot(b) == pytest.approx(5)
    assert (b[4], b[5]) == pytest.approx((5.0, 13.75))


def test_world_absolute_scale_and_shear():
    inst = make({"mixScale": 0.5, "mixShear": 1, "offsetScaleX": 0.5, "offsetShear": 5})
    b = inst.world[2]
    # kx = (1 + (2 + 0.5 − 1)·0.5) / 1 = 1.75 ; ky = 1 + (0.5 − 1)·0.5 = 0.75
    assert sx(b) == pytest.approx(1.75)
    assert sy(b) == pytest.approx(0.75)
    # skew: 0 + wrap(10 + 5 − 0)·1 = 15 ; rotation untouched (mixRotate 0)
    assert skew(b) == pytest.approx(15)
    assert rot(b) == pytest.approx(-20)


def test_mix_multiplies_and_zero_mix_means_one():
    # the `mix` live value multiplies the four mixes; 0 reads as 1 (values.mix ‖ 1)
    inst = make({"mixRotate": 1})
    inst.set_to_setup_pose()
    assert inst.constraint_values("follow")["mix"] == 1.0
    assert rot(inst.world[2]) == pytest.approx(30)


def test_world_relative_adds_the_targets_change():
    inst = make({"mixRotate": 1, "mixTranslate": 1, "mixScale": 1, "relative": True, "offsetRotation": 5,
                 "offsetX": 1, "offsetY": 2, "offsetScaleX": 0.1})
    b = inst.world[2]
    # target at its setup pose: only the offsets act
    assert rot(b) == pytest.approx(-20 + 5)
    assert (b[4], b[5]) == pytest.approx((-9, 7))
    assert sx(b) == pytest.approx(1.1)
    # move the target: rotation +40, translation (+10, −5), scaleX ×1.5 since its setup
    inst.set_local_pose("tg", (60, 35, 70, 3, 0.5, 0, 10))
    inst.update_world_transform()
    b = inst.world[2]
    assert rot(b) == pytest.approx(-20 + 40 + 5)
    assert (b[4], b[5]) == pytest.approx((-10 + 10 + 1, 5 - 5 + 2))
    assert sx(b) == pytest.approx(1 + (3 / 2 - 1 + 0.1))


def test_world_relative_uses_setup_world_without_constraints():
    # the target itself is moved by an IK in setup: the cached setup world is the
    # unconstrained one, so the relative transform sees the IK's rotation (90°)
    bones = [{"id": "root", "name": "root"},
             {"id": "tg", "name": "tg", "parent": "root", "length": 10},
             {"id": "aim", "name": "aim", "x": 0, "y": 50},
             {"id": "b", "name": "b", "parent": "root", "length": 20}]
    sk = {"bones": bones, "ik": [{"id": "ik", "bones": ["tg"], "target": "aim", "mix": 1}],
          "transform": [{"id": "tc", "bones": ["b"], "target": "tg", "mixRotate": 1, "relative": True}]}
    inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))
    assert rot(inst.world[3]) == pytest.approx(90)


def test_local_absolute():
    inst = make({"local": True, "mixRotate": 1, "mixTranslate": 0.5, "mixScale": 1, "mixShear": 1,
                 "offsetRotation": 10, "offsetScaleY": 0.25, "offsetShear": 3})
    b = inst.world[2]
    # applied: rotation 30 + 10 = 40, x −10 + (50 + 0 + 10)·0.5 = 20, y 5 + 35·0.5 = 22.5,
    # scale (2, 0.75), shearY 10 + 3 = 13
    assert rot(b) == pytest.approx(40)
    assert (b[4], b[5]) == pytest.approx((20, 22.5))
    assert sx(b) == pytest.approx(2)
    assert sy(b) == pytest.approx(0.75)
    assert skew(b) == pytest.approx(13)


def test_local_relative():
    inst = make({"local": True, "relative": True, "mixRotate": 1, "mixTranslate": 1, "mixScale": 1,
                 "offsetRotation": 10, "offsetX": 2, "offsetScaleX": 0.5})
    b = inst.world[2]
    # target at setup: rotation −20 + (0 + 10) = −10 ; x −10 + 2 ; scaleX ×(1 + (1 − 1 + 0.5))
    assert rot(b) == pytest.approx(-10)
    assert (b[4], b[5]) == pytest.approx((-8, 5))
    assert sx(b) == pytest.approx(1.5)
    inst.set_local_pose("tg", (50, 40, 50, 4, 0.5, 0, 10))
    inst.update_world_transform()
    b = inst.world[2]
    # rotation −20 + (20 + 10) = 10 ; scaleX 1·(1 + (4/2 − 1 + 0.5)) = 2.5
    assert rot(b) == pytest.approx(10)
    assert sx(b) == pytest.approx(2.5)


def test_local_channel_with_zero_mix_changes_nothing():
    # relative local scale with mixScale 0: scaleX *= 1 + (1 − 1 + 5)·0 = 1, the offset does not act
    inst = make({"local": True, "relative": True, "mixRotate": 1, "offsetScaleX": 5})
    assert sx(inst.world[2]) == pytest.approx(1)


def test_local_relative_negative_mix_scale_applies():
    """CLARIFICATIONS "Runtime rules the text leaves open": §7.2 local mode has no per-channel
    mix gate, so mixScale −0.25 scales (mixRotate 1 keeps the constraint from being skipped:
    not all four mixes are ≤ 0; with offsetRotation 0 it changes nothing while t = s)."""
    inst = make({"local": True, "relative": True, "mixRotate": 1, "mixScale": -0.25, "offsetScaleX": 0.4})
    b = inst.world[2]
    # target at setup (t = s): scaleX = 1·(1 + (2/2 − 1 + 0.4)·(−0.25)) = 1 − 0.1 = 0.9
    #                          scaleY = 1·(1 + (0.5/0.5 − 1 + 0)·(−0.25)) = 1
    # rotation −20 + (wrap(30 − 30) + 0)·1 = −20 (the old "mix > 0" gate left scaleX at 1)
    assert sx(b) == pytest.approx(0.9)
    assert sy(b) == pytest.approx(1)
    assert rot(b) == pytest.approx(-20)
    inst.set_local_pose("tg", (50, 40, 30, 4, 2, 0, 10))  # x y rotation scaleX scaleY shearX shearY
    inst.update_world_transform()
    b = inst.world[2]
    # scaleX = 1·(1 + (4/2 − 1 + 0.4)·(−0.25)) = 1 − 1.4·0.25 = 0.65
    # scaleY = 1·(1 + (2/0.5 − 1)·(−0.25))     = 1 − 3·0.25   = 0.25
    assert sx(b) == pytest.approx(0.65)
    assert sy(b) == pytest.approx(0.25)
    assert rot(b) == pytest.approx(-20)


def _overshoot_doc(local, pose_model=None):
    """mixScale keyed 0 → 0.25 over 1 s with the bezier (1/3, −2, 2/3, −1): x(s) = s exactly, so
    §4.3's first probe s = t is the answer; at t = 0.5 y = 3·¼·½·(−2) + 3·½·¼·(−1) + ⅛ = −1 and
    mixScale = lerp(0, 0.25, −1) = −0.25 (no clamp)."""
    sk = {"bones": [{"id": "root", "name": "root"},
                    {"id": "tg", "name": "tg", "parent": "root", "scaleX": 2},
                    {"id": "b", "name": "b", "parent": "root", "x": 5}],
          "transform": [{"id": "tc", "name": "tc", "bones": ["b"], "target": "tg", "local": local,
                         "relative": True, "mixRotate": 1, "offsetScaleX": 0.4}]}
    anim = {"id": "a", "name": "a", "duration": 1, "timelines": [
        {"target": "transform", "id": "tc", "property": "mixScale",
         "keys": [{"time": 0, "value": 0, "curve": [1 / 3, -2, 2 / 3, -1]}, {"time": 1, "value": 0.25}]}]}
    d = make_doc(sk, animations=[anim])
    if pose_model:
        d["poseModel"] = pose_model
    return d


def test_local_overshooting_bezier_mix_applies():
    inst = openbone.Instance(openbone.loads(json.dumps(_overshoot_doc(True))))
    inst.set_animation(0, "a", loop=False, mix=0)
    inst.advance(0.5)
    assert inst.constraint_live("tc")[7] == pytest.approx(-0.25)  # OB_CV_MIX_SCALE: the keyed value, unclamped
    # scaleX = 1·(1 + (2/2 − 1 + 0.4)·(−0.25)) = 0.9
    assert sx(inst.world[2]) == pytest.approx(0.9)


def test_world_mode_keeps_the_channel_gate():
    # the same −0.25 in world mode: "each channel runs only when its mix > 0" (§7.2 world)
    inst = openbone.Instance(openbone.loads(json.dumps(_overshoot_doc(False))))
    inst.set_animation(0, "a", loop=False, mix=0)
    inst.advance(0.5)
    assert sx(inst.world[2]) == pytest.approx(1)


def test_sync_applied_keeps_a_reflection_as_negative_scale_y():
    """CLARIFICATIONS §3.2: syncApplied decomposes a reflected local matrix with a negative
    scaleY.  p (setup rotation 30, scaleX 1.2, scaleY −1.5) sits under a physics constraint at
    rest (the world does not move, but syncApplied rewrites p's applied pose from it); a
    relative local transform then reads p's applied pose against its setup (order 1 after
    physics 0).  Decomposed: L = (cos30·1.2, cos120·(−1.5), sin30·1.2, sin120·(−1.5)),
    det < 0 ⇒ scaleY = −hypot(b, d) = −1.5, rotation = atan2(c, a) = 30,
    shearY = wrap(atan2(d/sy, b/sy) − 90 − 30) = wrap(120 − 120) = 0, so every relative channel
    sees t = s: rotation +0, scale ×(1 + (−1.5/−1.5 − 1)) = ×1, shear +0 and b keeps its setup
    world.  (A positive scaleY with shearY 180 would give scaleY ×(1 + (1.5/−1.5 − 1)) = ×(−1)
    and shearY +180: b flipped.)"""
    sk = {"bones": [{"id": "p", "name": "p", "rotation": 30, "scaleX": 1.2, "scaleY": -1.5, "length": 10},
                    {"id": "b", "name": "b", "x": 10, "y": 5, "rotation": -20, "scaleX": 0.8, "scaleY": 1.25}],
          "physics": [{"id": "ph", "bone": "p", "order": 0, "x": 1, "y": 1, "rotate": 1, "scaleX": 1, "mix": 1,
                       "inertia": 0.5, "strength": 100, "damping": 1, "mass": 1}],
          "transform": [{"id": "tc", "bones": ["b"], "target": "p", "order": 1, "local": True, "relative": True,
                         "mixRotate": 1, "mixTranslate": 1, "mixScale": 1, "mixShear": 1}]}
    inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))
    c, s = math.cos(math.radians(-20)), math.sin(math.radians(-20))
    want = (c * 0.8, -s * 1.25, s * 0.8, c * 1.25, 10, 5)  # b's setup world: (cos r·sx, cos(r+90)·sy, ...)
    for _ in range(4):
        b = inst.world[1]
        assert tuple(b) == pytest.approx(want, abs=1e-9)
        assert b[0] * b[3] - b[1] * b[2] > 0  # not flipped
        inst.advance(1 / 60)  # still at rest: nothing moves p


def test_target_listed_as_bone_is_skipped():
    bones = [{"id": "a", "name": "a", "x": 5, "rotation": 10}, {"id": "b", "name": "b", "x": 50, "rotation": 60}]
    sk = {"bones": bones, "transform": [{"id": "tc", "bones": ["b", "a"], "target": "b", "mixRotate": 1}]}
    inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))
    assert rot(inst.world[1]) == pytest.approx(60)
    assert rot(inst.world[0]) == pytest.approx(60)


def test_world_result_synced_to_applied():
    """§3.2 syncApplied: a later constraint that recomputes an ancestor keeps
    the world transform's result (here: an IK on the parent of the moved bone)."""
    bones = [{"id": "p", "name": "p", "length": 10},
             {"id": "b", "name": "b", "parent": "p", "x": 10, "length": 10},
             {"id": "g", "name": "g", "x": 0, "y": 30, "rotation": 45},
             {"id": "aim", "name": "aim", "x": 0, "y": 100}]
    sk = {"bones": bones,
          "transform": [{"id": "tc", "bones": ["b"], "target": "g", "mixRotate": 1, "order": 0}],
          "ik": [{"id": "ik", "bones": ["p"], "target": "aim", "mix": 1, "order": 1}]}
    inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))
    w = inst.world
    # the transform set b's world rotation to 45 (local 45 under p at 0); the IK then
    # turns p by 90 and b's synced local 45 rides along: 135
    assert rot(w[0]) == pytest.approx(90)
    assert rot(w[1]) == pytest.approx(135)
    assert (w[1][4], w[1][5]) == pytest.approx((0, 10))


@pytest.mark.parametrize("mode", ["normal", "onlyTranslation", "noRotation", "noScale",
                                  "noRotationOrReflection", "noScaleOrReflection"])
def test_cached_setup_world_matches_the_setup_pose(mode):
    """The §7.2 cached setup world (computed once at creation, every inherit
    mode) equals the target's world in the setup pose: a relative world
    transform with no offsets then leaves its bone where it was."""
    bones = [{"id": "r", "name": "r", "rotation": 20, "scaleX": -1.2, "scaleY": 0.7, "shearX": 10},
             {"id": "p", "name": "p", "parent": "r", "x": 10, "y": 5, "rotation": 40, "scaleX": 1.5, "shearY": -15},
             {"id": "tg", "name": "tg", "parent": "p", "x": 20, "rotation": -70, "scaleY": 1.3, "inherit": mode},
             {"id": "b", "name": "b", "x": 3, "y": 4, "rotation": 15, "scaleX": 0.8}]
    plain = openbone.Instance(openbone.loads(json.dumps(make_doc({"bones": bones}))))
    sk = {"bones": bones, "transform": [{"id": "tc", "bones": ["b"], "target": "tg", "relative": True,
                                         "mixRotate": 1, "mixTranslate": 1, "mixScale": 1, "mixShear": 1}]}
    inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))
    assert inst.world[3] == pytest.approx(plain.world[3], abs=1e-12)
