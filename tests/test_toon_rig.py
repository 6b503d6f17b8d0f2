"""RigCharacter (openbone/toon/rig.py): Jabbertoon poses (the rt.pose contract, built by hand here:
the runtime is not needed) applied to rigs, checked against values derived by hand (issue 15 item 5):
a part angle turns its bone's world angle by exactly that, a lift moves it by the scaled pixels, a
reach puts the tip on the target within 1e-6 and half-way in angle at w = 0.5, limits clamp,
facing mirrors world x, and posing depends only on the time, not on the stepping."""
import functools
import math

import numpy as np
import pytest

import openbone
from conftest import ROOT, make_doc, reference
from openbone.toon.rig import RigCharacter
from openbone.toon.roles import guess_roles

DEG = math.pi / 180
HERO = str(ROOT / "examples" / "hero.obone")


def pose(**kw):
    """A pose in the exact rt.pose format (§2 rest values)."""
    p = {"dx": 0, "dy": 0, "sx": 1, "sy": 1, "rot": 0, "parts": {}, "lift": {}, "mouth": 0, "blink": 0,
         "mood": None, "reach": {}, "view": None}
    p.update(kw)
    return p


def angle(char, name):
    w = char.world[char.document.bone_index(name)]   # as the stage sees it (mirrored by facing × A)
    return math.atan2(w[2], w[0]) / DEG


def pos(char, name):
    w = char.world[char.document.bone_index(name)]
    return np.array([w[4], w[5]])


def wrap(d):
    return (d + 180) % 360 - 180


@functools.lru_cache(maxsize=None)
def spine_doc(name):
    """Imported once per run (documents are immutable)."""
    return openbone.import_skeleton_json(str(reference("spine", "skeletons", name + ".json")))


def spineboy(**kw):
    return RigCharacter(spine_doc("spineboy-pro"), **kw)


# ---- part angles ---------------------------------------------------------------

@pytest.mark.parametrize("rig, head", [("hero", "head"), ("spineboy", "head"), ("owl", "head")])
def test_set_part_head_turns_the_head_by_exactly_that(rig, head):
    """hero's art faces left (A = -1) and is mirrored to face right: the angle is still +30°
    counter-clockwise on screen (world y up)."""
    if rig == "hero":
        char = RigCharacter(HERO)
    else:
        char = RigCharacter(spine_doc(f"{rig}-pro"))
    char.apply_pose(pose(), 0)
    a0 = angle(char, head)
    char.apply_pose(pose(parts={"head": 30}), 0.25)
    assert wrap(angle(char, head) - a0) == pytest.approx(30, abs=1e-9)
    char.apply_pose(pose(parts={"head": -12.5}), 0.5)
    assert wrap(angle(char, head) - a0) == pytest.approx(-12.5, abs=1e-9)


def test_set_part_on_a_base_animation_adds_to_the_rigs_own_pose():
    char = RigCharacter(HERO, base_animation="walk")
    plain = openbone.Instance(char.document)
    for t in (0.0, 0.2, 0.7, 1.3):
        char.apply_pose(pose(parts={"head": 30}), t)
        plain.set_to_setup_pose()
        plain.apply_animation("walk", math.fmod(t, char.document.animations[char.document.animation_index("walk")].length))
        plain.update_world_transform()
        w = plain.world[char.document.bone_index("head")] * [-1, -1, 1, 1, -1, 1]   # hero is mirrored to face right
        assert wrap(angle(char, "head") - math.atan2(w[2], w[0]) / DEG) == pytest.approx(30, abs=1e-9)


def test_angle_sign_under_a_reflecting_parent(loads_dict):
    """A bone under a parent with scaleX -1 turns the other way locally, so that its world angle
    still turns counter-clockwise by the channel."""
    def b(name, parent=None, **kw):
        d = {"id": name, "name": name, "parent": parent, "length": 10, "x": 0, "y": 0, "rotation": 0,
             "scaleX": 1, "scaleY": 1, "shearX": 0, "shearY": 0, "inherit": "normal"}
        d.update(kw)
        return d
    doc = loads_dict(make_doc({"bones": [b("root"), b("flip", "root", scaleX=-1), b("head", "flip", x=5, rotation=40)]}))
    roles = {"root": "root", "height": 100, "parts": {"head": "head"}}
    char = RigCharacter(doc, roles)
    char.apply_pose(pose(), 0)
    a0 = angle(char, "head")
    char.apply_pose(pose(parts={"head": 30}), 1)
    assert wrap(angle(char, "head") - a0) == pytest.approx(30, abs=1e-9)
    assert char.instance.bone_offset("head")["rotation"] == -30


def test_lift_moves_the_bone_up_by_the_scaled_pixels():
    char = spineboy()
    char.apply_pose(pose(), 0)
    p0 = pos(char, "head")
    char.apply_pose(pose(lift={"head": 10}), 0.1)
    k = char.roles.height / 1080   # h = 1: the character as tall as the 1080p stage
    assert pos(char, "head") - p0 == pytest.approx([0, 10 * k], abs=1e-9)
    char.apply_pose(pose(lift={"head": 10}), 0.2, h=0.5)   # drawn half the stage tall: a pixel is twice the size
    assert pos(char, "head") - p0 == pytest.approx([0, 20 * k], abs=1e-9)


def test_root_channels_move_the_root_bone():
    char = RigCharacter(HERO)   # A = -1, facing +1: on screen the channels' x is world x
    k = char.scale
    char.apply_pose(pose(), 0)
    p0, a0 = pos(char, "head"), angle(char, "root")
    char.apply_pose(pose(dx=100, dy=-50), 0.1)   # dy is down (§3 hop: dy = -amp·h goes up)
    assert pos(char, "root") == pytest.approx([100 * k, 50 * k], abs=1e-9)
    assert pos(char, "head") - p0 == pytest.approx([100 * k, 50 * k], abs=1e-9)
    char.apply_pose(pose(rot=15), 0.2)
    assert wrap(angle(char, "root") - a0) == pytest.approx(15, abs=1e-9)
    char.apply_pose(pose(sx=1.2, sy=0.8), 0.3)
    w = char.instance.world[0]
    assert (math.hypot(w[0], w[2]), math.hypot(w[1], w[3])) == pytest.approx((1.2, 0.8), abs=1e-12)
    assert pos(char, "head")[1] == pytest.approx(p0[1] * 0.8, abs=1e-9)   # squashed about the feet


def test_facing_mirrors_world_x():
    char = RigCharacter(HERO)
    p = pose(dx=40, rot=10, parts={"head": 20, "arm:1": -30}, lift={"torso": 5})
    char.apply_pose(p, 0.5, facing=1)
    right = char.world
    char.apply_pose(p, 0.5, facing=-1)
    left = char.world
    assert np.array_equal(left[:, 4], -right[:, 4])   # exactly: the mirror only negates
    assert left[:, 4] == pytest.approx(-right[:, 4], abs=1e-9)
    assert left[:, 5] == pytest.approx(right[:, 5], abs=1e-9)
    assert left[:, [0, 1]] == pytest.approx(-right[:, [0, 1]], abs=1e-12)   # the linear parts mirrored
    assert left[:, [2, 3]] == pytest.approx(right[:, [2, 3]], abs=1e-12)


def test_joint_limits_clamp():
    char = RigCharacter(HERO, {"root": "root", "height": 214, "facing": -1, "parts": {"head": "head"},
                               "limits": {"head": {"min": -10, "max": 10}}})
    char.apply_pose(pose(), 0)
    a0 = angle(char, "head")
    for want, got in ((30, 10), (-25, -10), (4, 4)):
        char.apply_pose(pose(parts={"head": want}), 0)
        assert wrap(angle(char, "head") - a0) == pytest.approx(got, abs=1e-9)


def test_guessed_limits_leave_the_rigs_own_animations_alone():
    """The guessed elbow/knee limits are measured from the animated pose: with the channels at rest
    every animation plays exactly as without the layer (spineboy's death bends far past them)."""
    doc = spine_doc("spineboy-pro")
    char = RigCharacter(doc, base_animation="death")
    assert char.roles.limits
    plain = openbone.Instance(doc)
    for t in (0.3, 0.9, 1.4):
        char.apply_pose(pose(), t)
        plain.set_to_setup_pose()
        plain.apply_animation("death", t)
        plain.update_world_transform()
        assert np.array_equal(char.instance.world, plain.world)


def test_chain_reading_rules():
    """§8.1: a chain follower (tail#i, i >= 1) reads only its index channels; the last segment also
    reads the index channels beyond it; a segment spread over several bones turns by the shares."""
    char = RigCharacter(spine_doc("raptor-pro"))
    char.apply_pose(pose(), 0)
    rel0 = {i: angle(char, f"tail{i}") for i in range(1, 11)}

    def turned(i):   # a tail bone's own turn (its world angle change minus its parent's)
        d = wrap(angle(char, f"tail{i}") - rel0[i])
        return d - (wrap(angle(char, f"tail{i - 1}") - rel0[i - 1]) if i > 1 else 0)
    char.apply_pose(pose(parts={"tail": 30}), 0.1)
    assert [round(turned(i), 9) for i in range(1, 11)] == [10, 10, 10] + [0] * 7
    char.apply_pose(pose(parts={"tail#2": 12, "tail#5": 8}), 0.2)   # #5: beyond the four segments
    assert [round(turned(i), 9) for i in range(1, 11)] == [0] * 6 + [6, 6, 4, 4]
    hero = RigCharacter(HERO)   # a one-piece torso reads its general channel, #0 and every index
    hero.apply_pose(pose(), 0)
    t0 = angle(hero, "torso")
    hero.apply_pose(pose(parts={"torso": 5, "torso#0": 3, "torso#1": 2}), 0.1)
    assert wrap(angle(hero, "torso") - t0) == pytest.approx(10, abs=1e-9)


def test_wing_reads_the_arms(loads_dict):
    def b(name, parent=None, **kw):
        d = {"id": name, "name": name, "parent": parent, "length": 10, "x": 0, "y": 0, "rotation": 0,
             "scaleX": 1, "scaleY": 1, "shearX": 0, "shearY": 0, "inherit": "normal"}
        d.update(kw)
        return d
    doc = loads_dict(make_doc({"bones": [b("root"), b("wing", "root", x=5, rotation=10)]}))
    char = RigCharacter(doc, {"root": "root", "height": 100, "parts": {"wing:1": "wing"}})
    char.apply_pose(pose(), 0)
    a0 = angle(char, "wing")
    char.apply_pose(pose(parts={"arm:1": 20, "forearm": 10, "arm:-1": 99}), 1)
    assert wrap(angle(char, "wing") - a0) == pytest.approx(25, abs=1e-9)   # arm + ½ forearm, own side


# ---- reaches -----------------------------------------------------------------

def character_px(char, rig_point):
    """A rig point (skeleton space) as character-local 1080p pixels (x forward, y up, feet origin)."""
    ox, oy = char.roles.origin
    return (char.roles.facing * (rig_point[0] - ox) / char.scale, (rig_point[1] - oy) / char.scale)


@pytest.mark.parametrize("rig", ["hero", "spineboy"])
def test_reach_to_a_reachable_point(rig):
    char = RigCharacter(HERO) if rig == "hero" else spineboy()
    inst, doc = char.instance, char.document
    limb = char.roles.limbs["hand:1"]
    setup = openbone.Instance(doc)
    shoulder = setup.world[doc.bone_index(limb.upper), 4:]
    # within reach and within the guessed elbow limits (hero 28 + 26 long, spineboy 69.5 + 40.6)
    target = shoulder + ([20, -25] if rig == "hero" else [40, -60])
    x, y = character_px(char, target)
    char.apply_pose(pose(reach={"hand:1": {"x": x, "y": y, "w": 1}}), 0)
    mirror = np.array([char.mirror, 1])
    if limb.tip:
        tip = pos(char, limb.tip)
    else:
        w = char.world[doc.bone_index(limb.lower)]
        tip = w[4:] + doc.bones[doc.bone_index(limb.lower)].length * np.array([w[0], w[2]])
    assert tip == pytest.approx(target * mirror, abs=1e-6)


def test_reach_half_way_in_angle():
    char = RigCharacter(HERO)
    doc = char.document
    up, lo = "upper_arm_r", "lower_arm_r"
    setup = openbone.Instance(doc)
    target = setup.world[doc.bone_index(up), 4:] + [15, 30]
    x, y = character_px(char, target)

    def angles(w):
        char.apply_pose(pose(reach={"hand:1": {"x": x, "y": y, "w": w}}), 0)
        return angle(char, up), wrap(angle(char, lo) - angle(char, up))
    fk, ik, half = angles(0), angles(1), angles(0.5)
    assert half[0] == pytest.approx(wrap(fk[0] + 0.5 * wrap(ik[0] - fk[0])), abs=1e-9)
    assert half[1] == pytest.approx(fk[1] + 0.5 * wrap(ik[1] - fk[1]), abs=1e-9)
    assert wrap(ik[0] - fk[0]) != pytest.approx(0, abs=1)   # the reach really moved the arm


def test_reach_a_spot_with_an_offset_moves_with_the_character():
    """hero: the right hand to the chest spot (in reach) + (dx, dy) × the height, after a hop."""
    char = RigCharacter(HERO)
    doc = char.document
    spot = char.roles.spots["chest"]
    setup = openbone.Instance(doc)
    sw = setup.world[doc.bone_index(spot.bone)]
    chest = np.array([sw[0] * spot.x + sw[1] * spot.y + sw[4], sw[2] * spot.x + sw[3] * spot.y + sw[5]])
    H, A = char.roles.height, char.roles.facing
    char.apply_pose(pose(dy=-30, reach={"hand:1": {"spot": "chest", "dx": 0.05, "dy": 0.03, "w": 1}}), 0)
    # in rig space: the spot + (A·dx·H, dy·H), lifted by the hop (30 px up); then mirrored to face right
    want = chest + [A * 0.05 * H, 0.03 * H + 30 * char.scale]
    w = char.world[doc.bone_index("lower_arm_r")]
    tip = w[4:] + 26 * np.array([w[0], w[2]])
    assert tip == pytest.approx(want * [-1, 1], abs=1e-6)   # hero is mirrored to face right


def test_reach_release_and_unknown_limbs():
    char = RigCharacter(HERO)
    char.apply_pose(pose(), 0)
    rest = np.array(char.instance.world)
    char.apply_pose(pose(reach={"hand:1": {"spot": "chest", "w": 1}, "foot:1": {"spot": "nowhere", "w": 1},
                                "hand:9": {"x": 1, "y": 2, "w": 1}}), 0.1)
    assert len(char.instance.reaches) == 1
    char.apply_pose(pose(reach={"hand:1": {"spot": "chest", "w": 0}}), 0.2)   # released: weight 0
    assert char.instance.reaches == []
    assert np.array_equal(char.instance.world, rest)


# ---- view, mouth, blink, mood ----------------------------------------------------

def test_mouth_and_blink_attachments():
    char = spineboy()
    mouth = char.document.slot_index("mouth")
    char.apply_pose(pose(mouth=0.7), 0)
    assert char.instance.slot_attachments[mouth] == "mouth-oooo"
    char.apply_pose(pose(mouth=0.2), 0.1)
    assert char.instance.slot_attachments[mouth] == "mouth-smile"
    owl = RigCharacter(spine_doc("owl-pro"))
    owl.apply_pose(pose(blink=1), 0)
    shown = owl.instance.slot_attachments
    assert shown[owl.document.slot_index("R_eye-closed")] == "R_eye-closed"
    owl.apply_pose(pose(blink=0), 0.1)
    assert owl.instance.slot_attachments[owl.document.slot_index("R_eye-closed")] is None


def test_jaw_opens_with_the_mouth():
    char = RigCharacter(spine_doc("raptor-pro"))
    char.apply_pose(pose(), 0)
    a0 = angle(char, "jaw")
    char.apply_pose(pose(mouth=0.5), 0)
    assert wrap(angle(char, "jaw") - a0) == pytest.approx(-10, abs=1e-9)   # -20° per unit, clockwise


def test_mood_animation_and_view_skin():
    doc = spine_doc("goblins-pro")
    roles = guess_roles(doc).to_dict()
    roles["views"] = {"side": {"skin": "goblin"}, "front": {"skin": "goblingirl"}}
    roles["moods"] = {"walking": {"animation": "walk"}}
    char = RigCharacter(doc, roles, skin="goblin")
    char.apply_pose(pose(), 0)
    char.apply_pose(pose(mood="walking"), 1.0)
    char.apply_pose(pose(mood="walking"), 1.25)
    ref = openbone.Instance(doc, skin="goblin")
    ref.apply_animation("walk", 0.25)
    ref.update_world_transform()
    assert np.array(char.instance.world) == pytest.approx(np.array(ref.world), abs=1e-9)
    char.apply_pose(pose(view="front"), 1.5)
    assert char.instance.skin_name == "goblingirl"


# ---- time ------------------------------------------------------------------------

def test_posing_depends_on_the_time_not_the_stepping():
    def run(times):
        char = RigCharacter(HERO, base_animation="idle")
        for t in times:
            char.apply_pose(pose(parts={"head": 10 * t}, dx=5 * t, reach={"hand:1": {"spot": "chest", "w": min(t, 1)}}), t)
        return np.array(char.instance.world)
    fine = run([k / 24 for k in range(0, 37)])
    coarse = run([0, 0.7, 1.5])
    jump = run([1.5])
    assert np.array_equal(fine, coarse) and np.array_equal(fine, jump)


def test_legs_from_the_role_map():
    assert RigCharacter(HERO).legs == 2
    assert RigCharacter(spine_doc("owl-pro")).legs == 0
    quad = {"root": "root", "height": 100, "parts": {f"leg#{i}": "thigh_r" for i in range(4)}}
    assert RigCharacter(HERO, quad).legs == 4


def test_apply_pose_errors():
    char = RigCharacter(HERO)
    char.apply_pose(pose(), 1)
    with pytest.raises(openbone.OpenBoneError, match="before the previous step"):
        char.apply_pose(pose(), 0.5)
    with pytest.raises(openbone.OpenBoneError, match="facing must be 1 or -1"):
        char.apply_pose(pose(), 2, facing=0)
    with pytest.raises(openbone.OpenBoneError, match="no animation named"):
        RigCharacter(HERO, base_animation="dance")
    with pytest.raises(openbone.OpenBoneError, match="head: expected a number, got 'x'"):
        char.apply_pose(pose(parts={"head": "x"}), 3)
    char.apply_pose(pose(parts={"head": float("nan")}, dx=float("inf"), reach={"hand:1": {"x": None, "y": 1, "w": 1}}), 3)
    assert np.isfinite(char.world).all() and char.instance.reaches == []   # not finite: the rest value
    with pytest.raises(openbone.OpenBoneError, match="parts.head: no bone named"):
        RigCharacter(HERO, {"root": "root", "height": 1, "parts": {"head": "skull"}})


def test_with_the_jabbertoon_runtime():
    """End to end once openbone.toon's runtime is there (skipped before it lands): a behaviour's
    rt.pose drives the rig; setPart head 30 turns the head by exactly 30° from the rig's own walk
    (no scale keys: a non-uniform parent scale, like idle's torso, bends world angles), and the
    rig's pose at t is the same however the clock was stepped."""
    from openbone import toon
    if not hasattr(toon, "create_runtime"):
        pytest.skip("the Jabbertoon runtime (openbone.toon.create_runtime) is not in this build")
    prog = {"v": 1, "kind": "behaviour", "scripts": [{"body": [
        {"op": "setPart", "part": "head", "deg": 30, "over": 0.5},
        {"op": "reach", "part": "right hand", "at": "head", "dx": 0.09, "dy": -0.065, "over": 0.4}]}]}

    def run(times):
        char = RigCharacter(HERO, base_animation="walk")
        rt = toon.create_runtime(seed=0)
        rt.add_character("c", legs=char.legs)
        rt.start_behaviour("c", prog)
        for t in times:
            rt.step_to(t)
            char.apply_pose(rt.pose("c"), t)
        return char
    char = run([k / 30 for k in range(31)])
    assert np.array_equal(char.world, run([0, 0.37, 1.0]).world)
    plain = openbone.Instance(char.document)
    plain.apply_animation("walk", math.fmod(1.0, char.document.animations[char.document.animation_index("walk")].length))
    plain.update_world_transform()
    w = plain.world[char.document.bone_index("head")] * [-1, -1, 1, 1, -1, 1]   # hero is mirrored to face right
    head_turn = wrap(angle(char, "head") - math.atan2(w[2], w[0]) / DEG)
    assert head_turn == pytest.approx(30, abs=1e-9)
