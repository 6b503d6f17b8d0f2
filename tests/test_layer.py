"""The instance layer (csrc/layer.c, openbone/layer.py): bone offsets, joint limits, reaches and
the skeleton placement, checked against values derived by hand (law of cosines, rotation
matrices), against properties (bit-identity with the layer empty, no accumulation), and for its
place in the §3.2 pipeline (after the animation, before the constraints)."""
import math

import numpy as np
import pytest

import openbone
from conftest import make_doc

DEG = math.pi / 180


def bone(name, parent=None, x=0.0, y=0.0, rotation=0.0, length=0.0, **kw):
    b = {"id": name, "name": name, "parent": parent, "length": length, "x": x, "y": y, "rotation": rotation,
         "scaleX": 1, "scaleY": 1, "shearX": 0, "shearY": 0, "inherit": "normal"}
    b.update(kw)
    return b


def arm_bones():
    """root → shoulder (at (5, 20)) → upper (len 10, pointing down) → lower (len 8) → hand."""
    return [bone("root"), bone("shoulder", "root", 5, 20), bone("upper", "shoulder", 0, 0, -90, 10),
            bone("lower", "upper", 10, 0, 0, 8), bone("hand", "lower", 8, 0, 0, 3)]


def arm_doc(loads_dict, **extra):
    return loads_dict(make_doc({"bones": arm_bones()}, **extra))


def turning(loads_dict, degrees):
    """The arm with an animation "turn" keying upper's rotation 0 → degrees over 1 s, and two
    instances playing it."""
    anim = {"id": "a", "name": "turn", "duration": 1, "events": [], "timelines": [
        {"target": "bone", "id": "upper", "property": "rotation",
         "keys": [{"time": 0, "value": 0, "curve": "linear"}, {"time": 1, "value": degrees, "curve": "linear"}]}]}
    doc = arm_doc(loads_dict, animations=[anim])
    pair = openbone.Instance(doc), openbone.Instance(doc)
    for inst in pair:
        inst.set_animation(0, "turn", loop=False, mix=0)
    return pair


def angle(inst, name):
    w = inst.world[inst.bone_index(name)]
    return math.atan2(w[2], w[0]) / DEG


def pos(inst, name):
    w = inst.world[inst.bone_index(name)]
    return np.array([w[4], w[5]])


def wrap(d):
    return (d + 180) % 360 - 180


# ---- offsets -------------------------------------------------------------

def test_rotation_offset_turns_the_bone_and_its_children_by_exactly_that(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    a0, h0 = angle(inst, "upper"), angle(inst, "hand")
    inst.set_bone_offset("upper", rotation=30)
    inst.update_world_transform()
    assert angle(inst, "upper") - a0 == pytest.approx(30, abs=1e-12)
    assert angle(inst, "hand") - h0 == pytest.approx(30, abs=1e-12)
    # the elbow swings on a circle of radius 10 about the shoulder: from (5, 10) to
    # (5 + 10 cos(-60°), 20 + 10 sin(-60°))
    assert pos(inst, "lower") == pytest.approx([5 + 10 * math.cos(-60 * DEG), 20 + 10 * math.sin(-60 * DEG)], abs=1e-12)


def test_translation_offset_moves_the_bone_in_the_parents_space(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    p0 = pos(inst, "lower")
    inst.set_bone_offset("lower", x=2, y=3)   # the parent "upper" points down: its x axis is world -y
    inst.update_world_transform()
    # parent linear part R(-90°) = [[0, 1], [-1, 0]]: (2, 3) → (3, -2)
    assert pos(inst, "lower") - p0 == pytest.approx([3, -2], abs=1e-12)


def test_scale_and_shear_offsets(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_bone_offset("upper", scale_x=2, scale_y=0.5)
    inst.update_world_transform()
    w = inst.world[inst.bone_index("upper")]
    assert math.hypot(w[0], w[2]) == pytest.approx(2, abs=1e-12)
    assert math.hypot(w[1], w[3]) == pytest.approx(0.5, abs=1e-12)
    assert pos(inst, "lower") == pytest.approx([5, 0], abs=1e-12)   # the elbow at twice the length
    assert inst.bone_offset("upper") == {"rotation": 0, "x": 0, "y": 0, "scale_x": 2, "scale_y": 0.5,
                                         "shear_x": 0, "shear_y": 0}


def test_offsets_add_to_the_animation_and_never_accumulate(loads_dict):
    plain, layered = turning(loads_dict, 40)
    layered.set_bone_offset("upper", rotation=-25)
    for _ in range(12):
        plain.advance(0.05)
        layered.advance(0.05)
        assert angle(layered, "upper") - angle(plain, "upper") == pytest.approx(-25, abs=1e-9)
    before = layered.world.copy()
    layered.update_world_transform()   # applied afresh: a second update adds nothing
    layered.update_world_transform()
    assert np.array_equal(before, layered.world)
    assert layered.local_pose[layered.bone_index("upper")][2] == plain.local_pose[plain.bone_index("upper")][2]


def test_identity_offset_removes_it_and_an_empty_layer_is_bit_identical(loads_dict):
    doc = openbone.load("examples/hero.obone")
    ref, inst = openbone.Instance(doc), openbone.Instance(doc)
    for i in (ref, inst):
        i.set_animation(0, "walk", loop=True, mix=0)
    inst.set_bone_offset("head", rotation=12, x=1)
    inst.set_joint_limit("torso", -5, 5)
    inst.set_reach("upper_arm_r", "lower_arm_r", target=(30, 120))
    inst.clear_layer()
    inst.set_bone_offset("head", rotation=3)
    inst.clear_bone_offset("head")
    assert inst.bone_offset("head")["rotation"] == 0 and inst.reaches == [] and inst.joint_limit("torso") is None
    for _ in range(40):
        ref.advance(1 / 30)
        inst.advance(1 / 30)
        assert np.array_equal(ref.world, inst.world)


# ---- the pipeline position -----------------------------------------------

def test_layer_runs_before_the_constraints():
    """hero's leg_l IK (thigh_l, shin_l → ik_foot_l): an offset on the thigh is undone by the IK that
    runs after it, and an offset on the target moves the foot (the IK sees the moved target)."""
    doc = openbone.load("examples/hero.obone")
    ref, inst = openbone.Instance(doc), openbone.Instance(doc)
    inst.set_bone_offset("thigh_l", rotation=25)
    inst.update_world_transform()
    assert pos(inst, "shin_l") == pytest.approx(pos(ref, "shin_l"), abs=1e-9)
    inst.clear_layer()
    inst.set_bone_offset("ik_foot_l", x=6, y=4)
    inst.update_world_transform()
    target = pos(inst, "ik_foot_l")
    assert target == pytest.approx(pos(ref, "ik_foot_l") + [6, 4], abs=1e-12)
    shin = inst.world[inst.bone_index("shin_l")]
    tip = shin[4:] + 45 * np.array([shin[0], shin[2]])   # shin_l's length is 45
    assert tip == pytest.approx(target, abs=1e-3)   # §7.1 keeps a 1e-4 margin from full extension


def test_placement_mirrors_world_x(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_bone_offset("upper", rotation=20)
    inst.update_world_transform()
    before = inst.world.copy()
    inst.set_placement(scale_x=-1)
    inst.update_world_transform()
    assert inst.placement == (0, 0, -1, 1)
    assert inst.world[:, 4] == pytest.approx(-before[:, 4], abs=1e-12)
    assert inst.world[:, 5] == pytest.approx(before[:, 5], abs=1e-12)
    inst.set_placement(x=100, y=-3, scale_x=2, scale_y=2)
    inst.update_world_transform()
    assert inst.world[:, 4:] == pytest.approx(before[:, 4:] * 2 + [100, -3], abs=1e-12)


# ---- joint limits ----------------------------------------------------------

def test_joint_limits_clamp_the_summed_angle_from_setup(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    a0 = angle(inst, "upper")
    inst.set_joint_limit("upper", -10, 15)
    assert inst.joint_limit("upper") == (-10, 15, "setup")
    for off, want in ((30, 15), (-30, -10), (5, 5), (360 + 12, 12), (-350, 10), (190, -10)):
        inst.set_bone_offset("upper", rotation=off)
        inst.update_world_transform()
        assert wrap(angle(inst, "upper") - a0) == pytest.approx(want, abs=1e-9), off
    inst.clear_joint_limit("upper")
    inst.update_world_transform()
    assert wrap(angle(inst, "upper") - a0) == pytest.approx(190 - 360, abs=1e-9)


def test_pose_relative_limits_clamp_only_what_the_layer_adds(loads_dict):
    plain, inst = turning(loads_dict, 60)
    inst.set_joint_limit("upper", -5, 10, relative_to="pose")   # the animation's 60° is not limited
    inst.set_bone_offset("upper", rotation=25)
    for _ in range(20):
        plain.advance(0.05)
        inst.advance(0.05)
        assert wrap(angle(inst, "upper") - angle(plain, "upper")) == pytest.approx(10, abs=1e-9)
    inst.set_joint_limit("upper", -5, 10)   # from setup: the animation's 60° is clamped too
    inst.advance(0)
    assert wrap(angle(inst, "upper") - -90) == pytest.approx(10, abs=1e-9)
    with pytest.raises(openbone.OpenBoneError, match="relative_to: expected 'setup' or 'pose'"):
        inst.set_joint_limit("upper", 0, 1, relative_to="rest")


def test_limit_inside_the_range_keeps_the_bits(loads_dict):
    doc = openbone.load("examples/hero.obone")
    ref, inst = openbone.Instance(doc), openbone.Instance(doc)
    for i in (ref, inst):
        i.set_animation(0, "walk", loop=True, mix=0)
    for b in doc.bones:
        inst.set_joint_limit(b.name, -360, 360)
    for _ in range(30):
        ref.advance(1 / 30)
        inst.advance(1 / 30)
        assert np.array_equal(ref.world, inst.world)


# ---- reaches -------------------------------------------------------------

def tip_of(inst, name="lower", length=8.0):
    w = inst.world[inst.bone_index(name)]
    return w[4:] + length * np.array([w[0], w[2]])


@pytest.mark.parametrize("target", [(12, 14), (-3, 8), (5 + 17, 20), (9, 30), (5, 20 - 2.5)])
def test_reach_puts_the_tip_on_a_reachable_target(loads_dict, target):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_reach("upper", "lower", target=target)
    inst.update_world_transform()
    assert tip_of(inst) == pytest.approx(target, abs=1e-6)
    # and the elbow is where the law of cosines puts it: |elbow - shoulder| = 10, |tip - elbow| = 8
    assert np.linalg.norm(pos(inst, "lower") - [5, 20]) == pytest.approx(10, abs=1e-9)
    assert np.linalg.norm(tip_of(inst) - pos(inst, "lower")) == pytest.approx(8, abs=1e-9)


def test_reach_angles_by_hand(loads_dict):
    """Target (5 + 12, 20 - 5) from the shoulder (5, 20): d = 13, l1 = 10, l2 = 8.  Law of cosines:
    the shoulder opens acos((100 + 169 - 64) / 260) from the aim line, the elbow bends by
    180° − acos((100 + 64 − 169) / 160).  The FK arm is straight, so the bend is positive (the
    lower bone turns counter-clockwise): the elbow lies clockwise of the aim line."""
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_reach("upper", "lower", target=(17, 15))
    inst.update_world_transform()
    aim = math.atan2(-5, 12) / DEG
    shoulder = math.acos((100 + 169 - 64) / 260) / DEG
    elbow = 180 - math.acos((100 + 64 - 169) / 160) / DEG
    assert angle(inst, "upper") == pytest.approx(aim - shoulder, abs=1e-9)
    assert wrap(angle(inst, "lower") - angle(inst, "upper")) == pytest.approx(elbow, abs=1e-9)
    inst.set_reach("upper", "lower", target=(17, 15), bend=-1)
    inst.update_world_transform()
    assert angle(inst, "upper") == pytest.approx(aim + shoulder, abs=1e-9)
    assert wrap(angle(inst, "lower") - angle(inst, "upper")) == pytest.approx(-elbow, abs=1e-9)


def test_reach_weight_blends_each_local_rotation_half_way(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_bone_offset("lower", rotation=35)   # a bent FK pose
    inst.update_world_transform()
    fk_u, fk_l = angle(inst, "upper"), wrap(angle(inst, "lower") - angle(inst, "upper"))
    inst.set_reach("upper", "lower", target=(-4, 14), weight=1)
    inst.update_world_transform()
    ik_u, ik_l = angle(inst, "upper"), wrap(angle(inst, "lower") - angle(inst, "upper"))
    assert tip_of(inst) == pytest.approx([-4, 14], abs=1e-6)
    for w in (0.5, 0.25):
        inst.set_reach("upper", "lower", target=(-4, 14), weight=w)
        inst.update_world_transform()
        assert angle(inst, "upper") == pytest.approx(fk_u + w * wrap(ik_u - fk_u), abs=1e-9)
        assert wrap(angle(inst, "lower") - angle(inst, "upper")) == pytest.approx(fk_l + w * wrap(ik_l - fk_l), abs=1e-9)
    inst.set_reach("upper", "lower", target=(-4, 14), weight=0)
    inst.update_world_transform()
    assert angle(inst, "upper") == pytest.approx(fk_u, abs=1e-12)
    inst.set_reach("upper", "lower", target=(-4, 14), weight=7)   # held to 1
    assert inst.reaches[0].weight == 1


def test_reach_out_of_range_points_the_straight_limb_at_the_target(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_reach("upper", "lower", target=(5 + 30, 20 + 40))
    inst.update_world_transform()
    assert tip_of(inst) == pytest.approx([5 + 18 * 0.6, 20 + 18 * 0.8], abs=1e-6)


def test_reach_with_a_tip_bone_in_a_bone_space_and_an_offset(loads_dict):
    """Tip = the hand bone's origin (the end of lower here); target = a point in the root's frame,
    moved by the root's own offset, plus an offset along the shoulder's (rotated) axes."""
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_bone_offset("root", x=1, y=-2)
    inst.set_bone_offset("shoulder", rotation=90)
    inst.set_reach("upper", "lower", tip="hand", space="root", target=(4, 10), offset=(2, 0),
                   offset_space="shoulder")
    inst.update_world_transform()
    # root at (1, -2): the point (4, 10) is at (5, 8); the shoulder's x axis is world +y: (0, 2)
    assert pos(inst, "hand") == pytest.approx([5, 10], abs=1e-6)


def test_reach_on_a_rig_with_a_tip_bone_off_the_forearm_axis():
    doc = openbone.load("examples/hero.obone")
    inst = openbone.Instance(doc)
    inst.set_bone_offset("lower_arm_r", rotation=20, y=3)   # tip (lower's end) off any simple axis
    inst.set_reach("upper_arm_r", "lower_arm_r", target=(25, 150))
    inst.update_world_transform()
    assert tip_of(inst, "lower_arm_r", 26) == pytest.approx([25, 150], abs=1e-6)


def test_reach_follows_a_mirrored_placement(loads_dict):
    """Mirroring the placement mirrors the solved limb: the elbow stays on the same side of the
    limb as the rig sees it (bend is read in the upper bone's parent frame)."""
    a, b = openbone.Instance(arm_doc(loads_dict)), openbone.Instance(arm_doc(loads_dict))
    b.set_placement(scale_x=-1)
    a.set_reach("upper", "lower", target=(17, 15), bend=1)
    b.set_reach("upper", "lower", target=(-17, 15), bend=1)
    a.update_world_transform()
    b.update_world_transform()
    assert b.world[:, 4] == pytest.approx(-a.world[:, 4], abs=1e-9)
    assert b.world[:, 5] == pytest.approx(a.world[:, 5], abs=1e-9)


def test_reach_picks_the_bend_its_lower_limit_allows(loads_dict):
    """The FK arm bends positive (elbow +35°), but the lower bone may only bend −120..0: the solve
    takes the other side, and the tip still lands."""
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_bone_offset("lower", rotation=35)
    inst.set_joint_limit("lower", -120, 0)
    inst.update_world_transform()
    assert wrap(angle(inst, "lower") - angle(inst, "upper")) == pytest.approx(0, abs=1e-9)   # clamped FK
    inst.set_bone_offset("lower", rotation=-35)   # bent the allowed way: kept
    inst.set_reach("upper", "lower", target=(17, 15))
    inst.update_world_transform()
    assert tip_of(inst) == pytest.approx([17, 15], abs=1e-6)
    assert wrap(angle(inst, "lower") - angle(inst, "upper")) < 0
    inst.set_bone_offset("lower", rotation=35)    # the FK side breaks the limit: the solve flips
    inst.update_world_transform()
    assert tip_of(inst) == pytest.approx([17, 15], abs=1e-6)
    assert wrap(angle(inst, "lower") - angle(inst, "upper")) < 0


def test_limits_clamp_after_the_reach(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_joint_limit("upper", -20, 20)   # the upper arm may swing only ±20° from straight down
    inst.set_reach("upper", "lower", target=(5 + 12, 20 + 4))
    inst.update_world_transform()
    assert -90 - 20 - 1e-9 <= angle(inst, "upper") <= -90 + 20 + 1e-9
    assert angle(inst, "upper") == pytest.approx(-70, abs=1e-9)


def test_reach_replaces_per_upper_bone_and_clears(loads_dict):
    inst = openbone.Instance(arm_doc(loads_dict))
    inst.set_reach("upper", "lower", target=(1, 2))
    inst.set_reach("shoulder", "lower", target=(3, 4), tip="hand")
    inst.set_reach("upper", "lower", target=(5, 6), weight=0.5)
    r = inst.reaches
    assert [(x.upper, x.target, x.weight) for x in r] == [("upper", (5, 6), 0.5), ("shoulder", (3, 4), 1)]
    inst.clear_reach("upper")
    assert [x.upper for x in inst.reaches] == ["shoulder"]


@pytest.mark.parametrize("call, message", [
    (lambda i: i.set_bone_offset("nope", rotation=1), "no bone named 'nope'"),
    (lambda i: i.set_bone_offset("upper", rotation=float("nan")), "rotation: expected a finite number"),
    (lambda i: i.set_bone_offset(99), "out of range"),
    (lambda i: i.set_joint_limit("upper", 5, -5), "min 5 is above max -5"),
    (lambda i: i.set_reach("lower", "upper", target=(0, 0)), "is not below upper bone"),
    (lambda i: i.set_reach("upper", "lower", tip="shoulder", target=(0, 0)), "is not below lower bone"),
    (lambda i: i.set_reach("upper", "lower", target=(0,)), "(x, y) pairs"),
    (lambda i: i.set_reach("upper", "lower", target=(0, "a")), "target[1]: expected a number"),
    (lambda i: i.set_reach("upper", "lower", target=(0, 0), bend=2), "bend: expected -1, 0 or 1"),
    (lambda i: i.set_placement(scale_x=float("inf")), "scale_x: expected a finite number"),
])
def test_bad_arguments_raise_openbone_error(loads_dict, call, message):
    inst = openbone.Instance(arm_doc(loads_dict))
    with pytest.raises(openbone.OpenBoneError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        call(inst)


def test_random_layers_never_crash_and_stay_finite_for_finite_input():
    """A stress of the layer on a real rig: random offsets, limits and reaches (any bones, any
    spaces, extreme values included) over many frames.  Moderate values keep every world finite;
    extreme ones (1e300 scales) may overflow to inf/NaN but never crash or hang."""
    import random
    rng = random.Random(7)
    doc = openbone.load("examples/hero.obone")
    n = len(doc.bones)
    parents = {b.index: doc.bone_index(b.parent) if b.parent is not None else -1 for b in doc.bones}
    chains = [(parents[parents[b]], parents[b], b) for b in range(n) if parents[b] >= 0 and parents[parents[b]] >= 0]
    for extreme in (False, True):
        inst = openbone.Instance(doc)
        inst.set_animation(0, "walk", loop=True, mix=0)
        big = (lambda: rng.choice([0.0, 1e-300, 1e300, -1e300, 5e-324])) if extreme else (lambda: rng.uniform(-90, 90))
        for frame in range(60):
            b = rng.randrange(n)
            inst.set_bone_offset(b, rotation=big(), x=big(), y=big(),
                                 scale_x=rng.choice([1.0, 0.0, -1.0, 2.0]) if not extreme else big(),
                                 scale_y=rng.choice([1.0, 0.5, -2.0]))
            if rng.random() < 0.3:
                lo = rng.uniform(-200, 200)
                inst.set_joint_limit(rng.randrange(n), lo, lo + rng.uniform(0, 400))
            if rng.random() < 0.5:
                up, lo_, tip = rng.choice(chains)
                inst.set_reach(up, lo_, target=(big(), big()), weight=rng.uniform(-1, 2),
                               tip=tip if rng.random() < 0.5 else None,
                               space=rng.choice([None, rng.randrange(n)]), offset=(big(), big()),
                               offset_space=rng.choice([None, rng.randrange(n)]), bend=rng.choice([-1, 0, 1]))
            if rng.random() < 0.05:
                inst.clear_layer()
            inst.advance(1 / 30)
            if not extreme:
                assert np.isfinite(inst.world).all()


# ---- copies and pickles carry the layer -------------------------------------

def test_copy_and_pickle_carry_the_layer():
    """Instance.copy() and pickling (csrc/snapshot.c) take the layer with the rest of the state:
    the copy, the unpickled instance and the original stay bit-identical frame after frame, and
    clearing the original's layer leaves the copy's alone."""
    import pickle

    doc = openbone.load("examples/hero.obone")
    inst = openbone.Instance(doc)
    inst.set_animation(0, "walk", loop=True)
    inst.set_bone_offset("head", rotation=12, x=1.5)
    inst.set_joint_limit("thigh_r", -20, 20, relative_to="pose")
    inst.set_reach("thigh_l", "shin_l", (10, -40), weight=0.5)
    inst.advance(1 / 30)
    twins = [inst.copy(), pickle.loads(pickle.dumps(inst))]
    for _ in range(20):
        for i in [inst] + twins:
            i.advance(1 / 30)
        for t in twins:
            assert np.array_equal(t.world, inst.world)
    plain = openbone.Instance(doc)
    plain.set_animation(0, "walk", loop=True)
    for _ in range(21):
        plain.advance(1 / 30)
    assert not np.array_equal(plain.world, inst.world)   # the layer is in use
    inst.clear_layer()
    inst.advance(1 / 30)
    twins[0].advance(1 / 30)
    assert not np.array_equal(twins[0].world, inst.world)
