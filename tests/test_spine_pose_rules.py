"""The Spine pose model's rules (issue 16), each on a small document whose expected
numbers are worked out here by hand from spine-core 4.2's formulas (the steps are in
the comments), and, where the OpenBone model differs, its different answer on the
same document (the OpenBone model must not change)."""
import json
import math

import numpy as np
import pytest

import openbone
from conftest import make_doc, reference

SQ2 = math.sqrt(2)


def load(skeleton, model="spine", **extra):
    d = make_doc(skeleton, **extra)
    if model:
        d["poseModel"] = model
    return openbone.loads(json.dumps(d))


def world(inst, doc, name):
    return np.asarray(inst.world[doc.bone_index(name)], dtype=float)


# ---- inherit (spine-core 4.2 Bone.updateWorldTransformWith) ------------------------------

def inherit_doc(mode, model, parent):
    bones = [{"id": "root", "name": "root"},
             dict({"id": "p", "name": "p", "parent": "root"}, **parent),
             {"id": "c", "name": "c", "parent": "p", "rotation": 45 if "Scale" in mode else 0, "inherit": mode}]
    return load({"bones": bones}, model)


def test_no_scale_maps_the_rotation_through_the_parent():
    # parent P = diag(2, 1) (scaleX 2).  Child noScale, local rotation 45°: spine-core maps the
    # direction (cos 45, sin 45) through P: z = (2, 1)/√2, normalised (2, 1)/√5; the Y axis is its
    # perpendicular (−1, 2)/√5 (det P > 0: not flipped); shear 0, scale 1 ⇒ world = [z | z⊥].
    doc = inherit_doc("noScale", "spine", {"scaleX": 2})
    w = world(openbone.Instance(doc), doc, "c")
    s5 = math.sqrt(5)
    assert w[:4] == pytest.approx([2 / s5, -1 / s5, 1 / s5, 2 / s5], abs=1e-9)
    # the OpenBone rule normalises P's columns (identity here): the local 45° rotation as it is
    doc = inherit_doc("noScale", None, {"scaleX": 2})
    w = world(openbone.Instance(doc), doc, "c")
    assert w[:4] == pytest.approx([SQ2 / 2, -SQ2 / 2, SQ2 / 2, SQ2 / 2], abs=1e-12)


@pytest.mark.parametrize("mode, flip", [("noScale", -1), ("noScaleOrReflection", 1)])
def test_no_scale_under_reflection(mode, flip):
    # P = diag(2, −1) (det < 0).  z = (2·cos 45, −sin 45) ∝ (2, −1)/√5; the perpendicular at
    # +90° is (1, 2)/√5; noScale flips it under a reflection (s = −s), noScaleOrReflection not.
    doc = inherit_doc(mode, "spine", {"scaleX": 2, "scaleY": -1})
    w = world(openbone.Instance(doc), doc, "c")
    s5 = math.sqrt(5)
    assert w[:4] == pytest.approx([2 / s5, flip / s5, -1 / s5, flip * 2 / s5], abs=1e-9)


def test_no_rotation_or_reflection_keeps_the_parents_scale_frame():
    # P = R(30°)·diag(2, 1): pa = √3, pc = 1, pb = −1/2, pd = √3/2, det 2.  spine-core: s = det /
    # (pa² + pc²) = 1/2, pb' = pc·s = 1/2, pd' = pa·s = √3/2, prx = 30°; the child's rotation 0 taken
    # back by 30°: la = cos(−30°), lc = sin(−30°), lb = cos 60°, ld = sin 60° ⇒ a = pa·la − pb'·lc =
    # 3/2 + 1/4, b = pa·lb − pb'·ld = √3/4, c = pc·la + pd'·lc = √3/4, d = pc·lb + pd'·ld = 1/2 + 3/4:
    # R(30°)·diag(2, 1)·R(−30°), the parent's scale in its own rotated frame.
    doc = inherit_doc("noRotationOrReflection", "spine", {"rotation": 30, "scaleX": 2})
    w = world(openbone.Instance(doc), doc, "c")
    assert w[:4] == pytest.approx([1.75, math.sqrt(3) / 4, math.sqrt(3) / 4, 1.25], abs=1e-9)
    # rigby2d / OpenBone: diag(|X|, |det|/|X|) = diag(2, 1), in world axes
    doc = inherit_doc("noRotationOrReflection", None, {"rotation": 30, "scaleX": 2})
    w = world(openbone.Instance(doc), doc, "c")
    assert w[:4] == pytest.approx([2, 0, 0, 1], abs=1e-12)


# ---- two-bone IK (spine-core 4.2 IkConstraint.apply2) ----------------------------------------

def ik_doc(target, parent=None, child=None, **ik):
    bones = [{"id": "root", "name": "root"},
             dict({"id": "p", "name": "p", "parent": "root", "length": 5}, **(parent or {})),
             dict({"id": "c", "name": "c", "parent": "p", "x": 5, "length": 10}, **(child or {})),
             {"id": "t", "name": "t", "parent": "root", "x": target[0], "y": target[1]}]
    c = dict({"id": "ik", "name": "ik", "bones": ["p", "c"], "target": "t", "mix": 1, "bendPositive": True}, **ik)
    return load({"bones": bones, "ik": [c]})


def test_two_bone_ellipse_branch():
    # IK parent scale (2, 1), non-uniform: the child's tip moves on an ellipse.  In the parent's
    # parent space: l1 = |p.world·(5, 0)| = 10, l2 = 10 ⇒ a = psx·l2 = 20, b = psy·l2 = 10; tip =
    # R(θ)·(l1 + a cos φ, b sin φ).  Target (0, √200): dd = 200.  The quadratic in x:
    # c2 = b² − a² = −300, c1 = −2b²l1 = −2000, c = b²l1² + a²dd − a²b² = 50000; q = −(c1 − √(c1² −
    # 4c2c)) / 2 = 5000 (√ = 8000); roots q/c2 = −16.7 and c/q = 10: r = 10 (the smaller);
    # y = √(dd − r²) = 10 (bend +1).  a1 = atan2(ty, tx) − atan2(y, r) = 90° − 45° = 45°;
    # a2 = atan2(y/psy, (r − l1)/psx) = atan2(10, 0) = 90°.  So p turns to 45°, c to 90° (local),
    # and the tip R(45°)·(10, 10) = (0, √200) reaches the target.
    doc = ik_doc((0, math.sqrt(200)), parent={"scaleX": 2})
    inst = openbone.Instance(doc)
    p, c = world(inst, doc, "p"), world(inst, doc, "c")
    assert math.degrees(math.atan2(p[2], p[0])) == pytest.approx(45, abs=1e-9)
    assert math.hypot(p[0], p[2]) == pytest.approx(2, abs=1e-9)  # the scale stays
    tip = c[4:6] + 10 * c[[0, 2]]
    assert c[4:6] == pytest.approx([10 * SQ2 / 2, 10 * SQ2 / 2], abs=1e-9)  # p.world·(5, 0) = R45·(10, 0)
    assert tip == pytest.approx([0, math.sqrt(200)], abs=1e-9)
    # c's X axis: p's linear part R45·diag(2, 1) on (cos 90°, sin 90°) = R45·(0, 1): at 135°, unit
    assert math.degrees(math.atan2(c[2], c[0])) == pytest.approx(135, abs=1e-9)
    assert math.hypot(c[0], c[2]) == pytest.approx(1, abs=1e-9)


def test_two_bone_returns_when_inherit_is_not_normal():
    # spine-core apply2 returns at once when either bone's inherit is not normal: the FK pose stays
    doc = ik_doc((0, 14), child={"inherit": "noScale"})
    inst = openbone.Instance(doc)
    assert world(inst, doc, "p")[:4] == pytest.approx([1, 0, 0, 1], abs=1e-9)
    assert world(inst, doc, "c")[4:6] == pytest.approx([5, 0], abs=1e-12)


def test_two_bone_uniform_law_of_cosines_in_parent_space():
    # uniform parent scale 2: l1 = 10 (p.world·(5,0)), l2 = 10·csx·psx = 20 after `l2 *= psx`.
    # Target (30, 0) is the full reach: cos = (dd − l1² − l2²) / (2·l1·l2) = (900 − 100 − 400)/400 = 1
    # ⇒ a2 = 0, a1 = 0: the chain lies straight along +x; the tip p.world·(5 + 10, 0) = (30, 0).
    # (at the full reach cos rounds to 1 − ε and acos(1 − ε) ≈ √(2ε): 1e-8 rad, the tolerance)
    doc = ik_doc((30, 0), parent={"scaleX": 2, "scaleY": 2, "rotation": 20})
    inst = openbone.Instance(doc)
    p, c = world(inst, doc, "p"), world(inst, doc, "c")
    assert math.degrees(math.atan2(p[2], p[0])) == pytest.approx(0, abs=1e-6)
    assert (c[4:6] + 10 * c[[0, 2]]) == pytest.approx([30, 0], abs=1e-9)


# ---- path (spine-core 4.2 PathConstraint.update, the "tip" rule) -------------------------------

def path_doc(rotate_mode, offset_rotation=0):
    # a straight path from (0, 0) to (100, 0), handles at thirds (x(t) = 100 t); b1 (length 20,
    # rotation 30) → b2 (x 20, length 20) → b3 (x 20, unconstrained); position 10 (fixed),
    # spacing 10 (length mode).
    bones = [{"id": "root", "name": "root"},
             {"id": "b1", "name": "b1", "parent": "root", "length": 20, "rotation": 30},
             {"id": "b2", "name": "b2", "parent": "b1", "x": 20, "length": 20},
             {"id": "b3", "name": "b3", "parent": "b2", "x": 20}]
    verts = [-10, 0, 0, 0, 100 / 3, 0, 200 / 3, 0, 100, 0, 110, 0]
    skins = [{"id": "default", "name": "default", "attachments": {"path": {"path": {
        "type": "path", "vertices": verts, "closed": False, "constantSpeed": True}}}}]
    slots = [{"id": "path", "name": "path", "bone": "root", "attachment": "path"}]
    c = {"id": "pc", "name": "pc", "bones": ["b1", "b2"], "target": "path", "positionMode": "fixed",
         "spacingMode": "length", "rotateMode": rotate_mode, "offsetRotation": offset_rotation,
         "position": 10, "spacing": 10, "mixRotate": 1, "mixX": 1, "mixY": 1}
    return load({"bones": bones, "slots": slots, "skins": skins, "path": [c]})


def test_path_chain_tip_rule():
    # spaces: (setupLength + spacing)·length / setupLength = 30 for both bones (world length 20):
    # positions at 10, 40, 70 along the line.  b1 moves to (10, 0) and turns to aim at (40, 0)
    # (rotation 0).  Chain, offsetRotation 0 ⇒ tip: the next bone starts at b1's rotated tip
    # (10, 0) + 20·(1, 0) = (30, 0), not at (40, 0); b2 aims from there at (70, 0): rotation 0.
    # b3 (unconstrained) follows b2's constrained world: b2·(20, 0) = (50, 0).
    doc = path_doc("chain")
    inst = openbone.Instance(doc)
    b1, b2, b3 = (world(inst, doc, n) for n in ("b1", "b2", "b3"))
    assert b1[4:6] == pytest.approx([10, 0], abs=1e-9) and math.atan2(b1[2], b1[0]) == pytest.approx(0, abs=1e-9)
    assert b2[4:6] == pytest.approx([30, 0], abs=1e-9) and math.atan2(b2[2], b2[0]) == pytest.approx(0, abs=1e-9)
    assert b3[4:6] == pytest.approx([50, 0], abs=1e-9)
    # chainScale: no tip rule; b1 is scaled to reach (40, 0): |X| = 30/20; b2 at (40, 0)
    doc = path_doc("chainScale")
    inst = openbone.Instance(doc)
    b1, b2 = world(inst, doc, "b1"), world(inst, doc, "b2")
    assert b2[4:6] == pytest.approx([40, 0], abs=1e-9)
    assert math.hypot(b1[0], b1[2]) == pytest.approx(1.5, abs=1e-9)
    # with an offset rotation the tip rule is off: b2 starts at the next position (40, 0)
    doc = path_doc("chain", offset_rotation=10)
    b2 = world(openbone.Instance(doc), doc, "b2")
    assert b2[4:6] == pytest.approx([40, 0], abs=1e-9)


@pytest.mark.parametrize("mode, spacing, second", [
    ("length", 10, 40),        # (setupLength + spacing)·length / setupLength = 30
    ("fixed", 15, 25),         # spacing·length / setupLength = 15
    ("percent", 0.25, 35),     # spacing × path length 100 = 25
    ("proportional", 0.5, 35),  # lengths 20, 20 scaled by count / Σ · spacing = 3/40 · 0.5, × length/count
])
def test_path_spacing_modes(mode, spacing, second):
    # chainScale (no tip rule): b1 at the fixed position 10, b2 at the next position
    d = json.loads(openbone.dumps(path_doc("chainScale")))
    d["skeleton"]["path"][0].update({"spacingMode": mode, "spacing": spacing})
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    assert world(inst, doc, "b1")[4:6] == pytest.approx([10, 0], abs=1e-9)
    assert world(inst, doc, "b2")[4:6] == pytest.approx([second, 0], abs=1e-9)


def test_path_constrained_bones_keep_their_unconstrained_parents_world():
    # spine-core's sortPathConstraint computes every constrained bone before the constraint, so
    # b2's world is the FK one under b1's unconstrained world (rotation 30), and the constraint
    # turns it by mixRotate·(tangent − 30) from there.  Tangent mode, mixRotate 0.5: b1 30 → 15,
    # b2 30 → 15 too.  (Refreshing b2 from b1's constrained world first would give 15 → 7.5.)
    # Positions: spaces 0 and 30 (tangent: one per bone) ⇒ b1 at 10, b2 at 40.
    d = json.loads(openbone.dumps(path_doc("tangent")))
    d["skeleton"]["path"][0]["mixRotate"] = 0.5
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    b1, b2 = world(inst, doc, "b1"), world(inst, doc, "b2")
    assert math.degrees(math.atan2(b1[2], b1[0])) == pytest.approx(15, abs=1e-9)
    assert math.degrees(math.atan2(b2[2], b2[0])) == pytest.approx(15, abs=1e-9)
    assert b1[4:6] == pytest.approx([10, 0], abs=1e-9) and b2[4:6] == pytest.approx([40, 0], abs=1e-9)


# ---- physics (spine-core 4.2 PhysicsConstraint.update) -------------------------------------------

def physics_doc(**fields):
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"}]
    c = dict({"id": "ph", "name": "ph", "bone": "b", "x": 1, "inertia": 1, "strength": 100, "damping": 0.9,
              "mass": 2, "fps": 30, "mix": 1}, **fields)
    anim = {"id": "a", "name": "a", "timelines": [{"target": "bone", "id": "b", "property": "x",
                                                   "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 10}]}]}
    return load({"bones": bones, "physics": [c]}, animations=[anim])


def test_physics_spring_two_steps_by_hand():
    # dt = 1/30 = the physics step t.  Frame 1 (clock t): the first update since creation only
    # records the bone (ux = bx1 = 10t) and carries remaining = t.  Frame 2 (clock 2t): the bone is
    # at bx2 = 20t; xOffset += (ux − bx2)·inertia = −10t; remaining 2t ⇒ two steps, each:
    #   v += (wind − xOffset·strength)·massInverse·t;  xOffset += v·t;  v *= damping^(60·t)
    # (massInverse = 1/2, damping^(60/30) = 0.81), then world x = bx2 + xOffset·mix·x.
    t = 1 / 30
    inst = openbone.Instance(physics_doc())
    inst.set_animation(0, "a", False, 0)
    inst.advance(t)
    assert inst.world[1][4] == pytest.approx(10 * t, abs=1e-12)  # nothing yet
    inst.advance(t)
    off, v, m, d = 10 * t - 20 * t, 0.0, 0.5 * t, 0.9 ** (60 * t)
    for _ in range(2):
        v += (0 - off * 100) * m
        off += v * t
        v *= d
    assert inst.world[1][4] == pytest.approx(20 * t + off, abs=1e-12)
    st = inst._physics_state(0)
    assert st["x_offset"] == pytest.approx(off, abs=1e-12) and st["x_velocity"] == pytest.approx(v, abs=1e-12)
    assert st["remaining"] == pytest.approx(0, abs=1e-15)


def test_physics_limit_and_remainder():
    # limit 3 (px/s): the offset a frame adds is clamped to ±limit·delta = ±0.1 (not −1/3);
    # fps 20: a step is 1/20 and the 1/15 s available after frame 2 gives one step, 1/60 s carried
    t = 1 / 30
    inst = openbone.Instance(physics_doc(limit=3, fps=20))
    inst.set_animation(0, "a", False, 0)
    inst.advance(t)
    inst.advance(t)
    h = 1 / 20
    off = -3 * t
    v = (0 - off * 100) * 0.5 * h
    off += v * h
    v *= 0.9 ** (60 * h)
    st = inst._physics_state(0)
    assert st["x_offset"] == pytest.approx(off, abs=1e-12)
    assert st["remaining"] == pytest.approx(2 * t - h, abs=1e-15)


def test_physics_reset_key_fires_on_every_loop():
    # reset keys at 0 and 0.5 of a 1 s looping animation, dt = 1/32 (exact sums): a key is crossed
    # at frames 1 (0), 16 (0.5), 32 (1.0: the loop wraps to 0), 48, 64.  A reset zeroes the state
    # and the same frame's update only records the bone, so the offset is exactly 0 then; on every
    # other frame the bone has moved (x keyed 0 → 32) and the spring carries an offset.
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"}]
    c = {"id": "ph", "name": "ph", "bone": "b", "x": 1, "fps": 64}
    anim = {"id": "a", "name": "a", "timelines": [
        {"target": "bone", "id": "b", "property": "x", "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 32}]},
        {"target": "physics", "id": "ph", "property": "reset", "keys": [{"time": 0}, {"time": 0.5}]}]}
    inst = openbone.Instance(load({"bones": bones, "physics": [c]}, animations=[anim]))
    inst.set_animation(0, "a", True, 0)
    at_rest = []
    for f in range(1, 71):
        inst.advance(1 / 32)
        if inst._physics_state(0)["x_offset"] == 0:
            at_rest.append(f)
    assert at_rest == [1, 16, 32, 48, 64]


def test_physics_steps_follow_the_double_clock():
    # spine-core PhysicsConstraint.update(Physics.update) in doubles (spine-ts, the goldens):
    #   remaining += max(time − lastTime, 0); lastTime = time; the first update after creation
    #   (reset) only records the bone; later ones step while remaining ≥ step (1/60), remaining −= step.
    # With time the double sum of dt = 1/30, rounding makes a frame step 1 or 3 times instead of 2
    # at frames 6, 8, 12, 16, 24, 32, 84 (frame 2 steps 4: frame 1's time is carried).  spine-c sums
    # in float32 (1/30f, 1/60f: the same recurrence in numpy.float32) and steps 2, 2, 1, 2 at
    # frames 24, 32, 40, 84: that is the shared spine-c harness's celestial-circus `swing`
    # difference (swing-top, a physics rotate bone, < 1e-3 px at frame 23, 62 px at 24 and damped
    # down to 0.25 px by frame 80, then up again from 84): float time, not a rule of this model.
    inst = openbone.Instance(physics_doc(fps=60))
    inst.set_animation(0, "a", True, 0)
    t = rem = 0.0
    steps = []
    for f in range(1, 101):
        prev, t = t, t + 1 / 30
        rem += max(t - prev, 0)
        k = 0
        while f > 1 and rem >= 1 / 60:
            rem -= 1 / 60
            k += 1
        steps.append(k)
        inst.advance(1 / 30)
        assert inst._physics_state(0)["remaining"] == pytest.approx(rem, abs=1e-15), f
    assert [(f, k) for f, k in enumerate(steps, 1) if k != 2] == [
        (1, 0), (2, 4), (6, 1), (8, 3), (12, 1), (16, 3), (24, 1), (32, 3), (84, 1)]


def test_loop_wraps_on_the_double_summed_time():
    # spine-core: animation time = trackTime % duration, trackTime the double sum of dt.  x keyed
    # 0 → 100 over 1 s, looping, dt = 1/30: 30 steps sum to 0.9999999999999999 (< 1: the end,
    # x = 100·that), 60 steps to 2.0000000000000027 (wrapped: x = 100·2.7e-15).  spine-c's float32
    # sum is 1.0000004 at 30 (wrapped) and 1.9999994 at 60 (the end): the other way round.
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"}]
    anim = {"id": "a", "name": "a", "timelines": [{"target": "bone", "id": "b", "property": "x",
                                                   "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 100}]}]}
    inst = openbone.Instance(load({"bones": bones}, animations=[anim]))
    inst.set_animation(0, "a", True, 0)
    xs = {}
    for f in range(1, 61):
        inst.advance(1 / 30)
        xs[f] = inst.world[1][4]
    assert xs[30] == pytest.approx(100, abs=1e-9) and xs[60] == pytest.approx(0, abs=1e-9)


def test_loop_wrap_stretchyman_sneak_frame_54():
    # sneak lasts 1.8 s; 54 steps of 1/30 sum to 1.8000000000000023: wrapped, so hip (parent root
    # at the origin, no constraint on it) is at setup x 28.61 + the first key's x −57.44 = −28.83.
    # spine-c (the shared harness, float32 time 1.7999996) shows the last key there instead:
    # 28.61 + 1246.53 = 1275.14 (dumped: 1275.14001), the harness's 1.4e3 px stretchyman difference.
    # Goblins `walk` (1 s) is the same at frames 30 and 60 (torso / undie-straps deform keys at 0
    # and 1 differ by 0.92 / 1.57, the harness's 1.6 px).  Fed spine-c's float32 time sequence,
    # this runtime matches spine-c on both rigs within 0.01 px for 100 frames.
    path = reference("spine", "skeletons", "stretchyman-pro.json")
    doc = openbone.import_skeleton_json(path, curves="spine")
    inst = openbone.Instance(doc)
    inst.set_animation(0, "sneak", True, 0)
    hip = doc.bone_index("hip")
    for _ in range(54):
        inst.advance(1 / 30)
    assert inst.world[hip][4] == pytest.approx(28.61 - 57.44, abs=1e-4)


def test_global_physics_timeline_reaches_flagged_constraints():
    # a wind timeline with the constraint id "": only constraints with windGlobal get it
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"}]
    cons = [{"id": "p", "name": "p", "bone": "b", "windGlobal": True}, {"id": "q", "name": "q", "bone": "b"}]
    anim = {"id": "a", "name": "a", "timelines": [
        {"target": "physics", "id": "", "property": "wind", "keys": [{"time": 0.5, "value": 7}]}]}
    inst = openbone.Instance(load({"bones": bones, "physics": cons}, animations=[anim]))
    inst.set_animation(0, "a", False, 0)
    inst.advance(0.25)  # before the first key: each keeps its own setup value
    assert inst.constraint_values(0)["wind"] == 0
    inst.advance(0.5)
    assert inst.constraint_values(0)["wind"] == 7 and inst.constraint_values(1)["wind"] == 0


# ---- the influenceOffsets extension: loaders and the binary codec ---------------------------------

def test_influence_offsets_round_trip_binary():
    bones = [{"id": "root", "name": "root"}, {"id": "a", "name": "a", "parent": "root", "rotation": 90},
             {"id": "b", "name": "b", "parent": "root", "x": 5}]
    weights = [[{"bone": "a", "x": 1, "y": 0, "weight": 0.25}, {"bone": "b", "x": 0, "y": 1, "weight": 0.75}]]
    skins = [{"id": "default", "name": "default", "attachments": {"s": {"m": {
        "type": "mesh", "vertices": [0, 0], "weights": weights, "uvs": [0, 0], "triangles": []}}}}]
    anim = {"id": "a", "name": "a", "timelines": [{"target": "deform", "id": "s", "attachment": "m",
                                                   "property": "influenceOffsets",
                                                   "keys": [{"time": 0, "value": [4, 0, 0, 2]}]}]}
    doc = load({"bones": bones, "slots": [{"id": "s", "name": "s", "bone": "root", "attachment": "m"}],
                "skins": skins}, animations=[anim])
    again = openbone.loads(openbone.dumps(doc, binary=True))
    tl = json.loads(openbone.dumps(again))["animations"][0]["timelines"][0]
    assert tl["property"] == "influenceOffsets" and tl["keys"][0]["value"] == [4, 0, 0, 2]
    # hand: 0.25·A(1 + 4, 0) + 0.75·B(0, 1 + 2), A = rotation 90 at 0, B = translation (5, 0)
    want = 0.25 * np.array([0.0, 5.0]) + 0.75 * np.array([5.0, 3.0])
    for d in (doc, again):
        inst = openbone.Instance(d)
        inst.set_animation(0, "a", True, 0)
        inst.advance(0.1)
        (item,) = [it for it in inst.draw_list() if it.type == "mesh"]
        assert np.asarray(item.vertices, dtype=float).reshape(-1) == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("fps", [0, -30, 1e300])
def test_physics_bad_fps_does_not_hang(fps):
    # spine-core would loop forever on fps ≤ 0 (a step of −1/30 never runs out) and for ever
    # in effect on 1e300; here no steps unless 1/fps > 0, at most 10000 per update
    d = make_doc({"bones": [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"}],
                  "physics": [{"id": "ph", "name": "ph", "bone": "b", "x": 1, "fps": 1}]},
                 animations=[{"id": "a", "name": "a", "timelines": [{"target": "bone", "id": "b", "property": "x",
                              "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 10}]}]}])
    d["poseModel"] = "spine"
    d["skeleton"]["physics"][0]["fps"] = fps
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    inst.set_animation(0, "a", True, 0)
    for _ in range(5):
        inst.advance(1 / 30)
    assert inst._physics_state(0)["remaining"] >= 0
