"""Jabbertoon behaviours performed by rigs end to end through the runtime (issue 15 items 3 and 5):
``rt.add_character("c", rig=char)`` poses ``char.instance`` at every step, ``toon.bake`` returns the
world matrices of every frame.  Expected values are worked out by hand from the rig's own pose (a plain
openbone.Instance), the §0 units and the IK blend rule of conformance/NOTES.md (law of cosines), never
from RigCharacter."""
import functools
import math
import random

import numpy as np
import pytest

import openbone
import openbone.examples
from conftest import reference
from openbone import toon

DEG = math.pi / 180


def prog(*body):
    return {"v": 1, "kind": "behaviour", "scripts": [{"body": list(body)}]}


def wrap(d):
    return (d + 180) % 360 - 180


def hero(**kw):
    return toon.RigCharacter(openbone.examples.hero(), **kw)


@functools.lru_cache(maxsize=None)
def spine_doc(name):
    return openbone.import_skeleton_json(str(reference("spine", "skeletons", name + ".json")))


def perform(char, program, times, **start):
    """Run ``program`` on ``char`` through the runtime, stepping to each time; the runtime."""
    rt = toon.create_runtime(seed=0)
    rt.add_character("c", rig=char)
    rt.start_behaviour("c", program, **start)
    for t in times:
        rt.step_to(t)
    return rt


def setup_world(doc, animation=None, t=0.0):
    """The rig's own pose: a plain instance (setup pose, or an animation applied at t)."""
    inst = openbone.Instance(doc)
    if animation:
        a = doc.animations[doc.animation_index(animation)]
        inst.apply_animation(animation, math.fmod(t, a.length))
    inst.update_world_transform()
    return np.array(inst.world)


def world_angle(w):
    return math.atan2(w[2], w[0]) / DEG


def seen(w, mirror):
    """World matrices as the stage sees them: x mirrored when mirror is -1."""
    w = np.array(w, dtype=np.float64)
    if mirror < 0:
        w[..., [0, 1, 4]] *= -1
    return w


# ---- item 3: rt.add_character(rig=) -------------------------------------------------------

def test_add_character_with_a_rig_poses_it_at_every_step():
    char = hero()
    rt = toon.create_runtime()
    rt.add_character("c", rig=char)
    assert rt.rigs == {"c": char}
    rt.start_behaviour("c", prog({"op": "ramp", "ch": "part:head", "to": 40, "over": 1, "ease": "linear"}))
    i = char.document.bone_index("head")
    a0 = world_angle(char.world[i])
    for t in (0.25, 0.5, 1.0):
        rt.step_to(t)
        assert wrap(world_angle(char.world[i]) - a0) == pytest.approx(40 * t, abs=1e-9)
    rt.step(0.5)   # step(dt) too
    assert char.instance is char.instance and char._time == 1.5


def test_legs_come_from_the_role_map():
    """A gait on a rig whose role map draws no legs writes no leg channels (§3: 0 legs bob and
    roll only); on hero (two legs) it swings part:leg:-1 / part:leg:1."""
    gait = prog({"op": "gait", "every": 1, "stride": 20})
    rt = toon.create_runtime()
    rt.add_character("h", rig=hero())
    quad = {"root": "root", "height": 214, "parts": {"head": "head"}}
    rt.add_character("q", rig=hero(roles=quad))
    for c in ("h", "q"):
        rt.start_behaviour(c, gait)
    rt.step_to(0.3)
    assert {"leg:-1", "leg:1"} <= set(rt.pose("h")["parts"])
    assert not any(k.startswith("leg") for k in rt.pose("q")["parts"])
    rt.add_character("x", legs=4, rig=hero())   # an explicit legs wins
    rt.start_behaviour("x", gait)
    rt.step_to(0.4)
    assert {"leg#0", "leg#3"} <= set(rt.pose("x")["parts"])


def test_add_character_rig_errors():
    rt = toon.create_runtime()
    char = hero()
    with pytest.raises(openbone.OpenBoneError, match="rig must be an openbone.toon.RigCharacter"):
        rt.add_character("c", rig=openbone.examples.hero())
    rt.add_character("a", rig=char)
    with pytest.raises(openbone.OpenBoneError, match="already performs 'a'"):
        rt.add_character("b", rig=char)
    late = hero()
    late.apply_pose({}, 5.0)
    with pytest.raises(openbone.OpenBoneError, match="after the runtime's t"):
        rt.add_character("c", rig=late)
    assert rt.characters == ["a"]   # nothing was added by the failed calls


# ---- item 5: checks by hand-derived values ---------------------------------------------

@pytest.mark.parametrize("rig", ["hero", "spineboy-pro", "raptor-pro", "owl-pro", "hero-pro", "goblins-pro"])
def test_set_part_head_30_turns_the_head_by_exactly_30(rig):
    """From the rig's own pose (the bundled hero walking; the Spine rigs at setup: no constraint moves
    their heads there: the owl's head looks round, hero-pro's and the goblins' too)."""
    if rig == "hero":
        char, anim = hero(base_animation="walk"), "walk"
    else:
        char, anim = toon.RigCharacter(spine_doc(rig)), None
    perform(char, prog({"op": "setPart", "part": "head", "deg": 30}), [0.1, 0.55])
    i = char.document.bone_index("head")
    assert char.roles.parts["head"].bones[0].bone == "head"
    own = seen(setup_world(char.document, anim, 0.55), char.mirror)[i]
    assert wrap(world_angle(char.world[i]) - world_angle(own)) == pytest.approx(30, abs=1e-9)
    assert char.world[i, 4:] == pytest.approx(own[4:], abs=1e-9)   # a turn, not a move


def test_lift_part_moves_the_bone_by_the_scaled_pixels():
    """liftPart head 12 px: up by 12 · height / 1080 rig units (h = 1), then twice that drawn at h = 0.5."""
    char = hero()
    perform(char, prog({"op": "liftPart", "part": "head", "px": 12}), [0.2])
    i = char.document.bone_index("head")
    own = seen(setup_world(char.document), char.mirror)[i]
    k = 214.0 / 1080   # hero's role-map height (feet to the top of the head box) over the 1080p stage
    assert char.roles.height == 214.0
    assert char.world[i, 4:] - own[4:] == pytest.approx([0, 12 * k], abs=1e-9)
    char.h = 0.5
    rt = perform(char.fresh(), prog({"op": "liftPart", "part": "head", "px": 12}), [0.2])
    moved = rt.rigs["c"].world[i, 4:] - own[4:]
    assert moved == pytest.approx([0, 24 * k], abs=1e-9)


def test_move_and_turn_move_the_root():
    char = hero()
    perform(char, prog({"op": "move", "dx": 54, "dy": -27}, {"op": "turn", "deg": 10}), [0.5])
    k = char.roles.height / 1080
    root = char.world[0]
    assert root[4:] == pytest.approx([54 * k, 27 * k], abs=1e-9)   # dx right, dy down (§3 hop: -dy rises)
    assert wrap(world_angle(root) - world_angle(seen(setup_world(char.document), char.mirror)[0])) == \
        pytest.approx(10, abs=1e-9)


def _arm(doc, upper="upper_arm_r", lower="lower_arm_r"):
    """Shoulder, elbow and hand (the lower bone's end) at setup, and the two world angles."""
    w = setup_world(doc)
    u, l = doc.bone_index(upper), doc.bone_index(lower)
    S, E = w[u, 4:], w[l, 4:]
    L = doc.bones[l].length
    T = E + L * np.array([w[l, 0], w[l, 2]]) / math.hypot(w[l, 0], w[l, 2])
    return S, E, T, world_angle(w[u]), world_angle(w[l])


def _two_bone(S, E, T, P):
    """The law of cosines for shoulder S, elbow E, tip T reaching P, bending to the side the
    setup pose bends to: the changes of the upper and lower world angles (degrees)."""
    l1, l2, d = np.linalg.norm(E - S), np.linalg.norm(T - E), np.linalg.norm(P - S)
    assert abs(l1 - l2) < d < l1 + l2   # reachable
    a, b = E - S, T - E
    side = 1.0 if a[0] * b[1] - a[1] * b[0] >= 0 else -1.0
    base = math.atan2(*(P - S)[::-1])
    a1 = base - side * math.acos((l1 * l1 + d * d - l2 * l2) / (2 * l1 * d))
    elbow = S + l1 * np.array([math.cos(a1), math.sin(a1)])
    a2 = math.atan2(*(P - elbow)[::-1])
    up0, lo0 = math.atan2(*(E - S)[::-1]), math.atan2(*(T - E)[::-1])
    return wrap((a1 - up0) / DEG), wrap((a2 - lo0) / DEG), elbow


def test_reach_puts_the_tip_on_the_point_and_half_way_at_half_weight():
    """hero's right hand to a point beside its shoulder, in character pixels (x forward, y up,
    feet origin): at w = 1 the hand's tip is there within 1e-6 and both world angles are the law
    of cosines'; a linear reach over 1 s has w = 0.5 at 0.5 s, where each bone's local rotation is
    half-way (FK + 0.5 · (IK − FK))."""
    doc = openbone.examples.hero()
    S, E, T, up0, lo0 = _arm(doc)
    P = S + np.array([15.0, 30.0])   # rig units, in the rig's own frame (hero's art faces left: A = -1)
    k = 214.0 / 1080
    x, y = -P[0] / k, P[1] / k       # character pixels: x forward = -rig x, origin at the feet (0, 0)
    du, dl, elbow = _two_bone(S, E, T, P)
    assert abs(du) > 5 and -145 < wrap(dl - du) < 15   # it moves the arm, inside the elbow limits (viewer -15..145, × A = -1)

    char = hero()
    perform(char, prog({"op": "reach", "part": "right hand", "to": {"x": x, "y": y}, "over": 0}), [0.1])
    w = char.instance.world   # the rig's own frame
    u, l = doc.bone_index("upper_arm_r"), doc.bone_index("lower_arm_r")
    tip = w[l, 4:] + 26.0 * np.array([w[l, 0], w[l, 2]])
    assert doc.bones[l].length == 26.0
    assert tip == pytest.approx(P, abs=1e-6)
    assert w[l, 4:] == pytest.approx(elbow, abs=1e-6)
    assert wrap(world_angle(w[u]) - up0) == pytest.approx(du, abs=1e-7)
    assert wrap(world_angle(w[l]) - lo0) == pytest.approx(dl, abs=1e-7)

    half = hero()
    perform(half, prog({"op": "reach", "part": "right hand", "to": {"x": x, "y": y}, "over": 1, "ease": "linear"}),
            [0.25, 0.5])
    w = half.instance.world
    assert wrap(world_angle(w[u]) - up0) == pytest.approx(0.5 * du, abs=1e-7)
    # the lower bone: its own local half-way plus the upper's half-way
    assert wrap(world_angle(w[l]) - lo0) == pytest.approx(wrap(0.5 * du + 0.5 * wrap(dl - du)), abs=1e-7)


def test_reach_a_spot_on_spineboy():
    """spineboy's front hand (tip: the fist bone's origin) to a point in front of its chest."""
    doc = spine_doc("spineboy-pro")
    char = toon.RigCharacter(doc)
    limb = char.roles.limbs["hand:1"]
    w0 = setup_world(doc)
    P = w0[doc.bone_index(limb.upper), 4:] + np.array([40.0, -60.0])
    k = char.roles.height / 1080
    x, y = (P[0] - char.roles.origin[0]) / k, (P[1] - char.roles.origin[1]) / k   # A = +1
    perform(char, prog({"op": "reach", "part": "right hand", "to": {"x": x, "y": y}, "over": 0.2}), [0.1, 0.3])
    assert char.instance.world[doc.bone_index(limb.tip), 4:] == pytest.approx(P, abs=1e-6)


def test_limits_clamp_the_summed_angle():
    """A role map limit of -20..90 on the right forearm (from the pose): 120 shows 90, -50 shows -20,
    45 shows 45, summed over two channels (part:forearm and part:forearm:1)."""
    doc = openbone.examples.hero()
    roles = toon.guess_roles(doc).to_dict()
    roles["limits"]["forearm:1"] = {"min": -20, "max": 90}
    u, l = doc.bone_index("upper_arm_r"), doc.bone_index("lower_arm_r")
    w0 = seen(setup_world(doc), -1)   # hero is mirrored to face right (facing 1 × A -1)
    rel0 = world_angle(w0[l]) - world_angle(w0[u])
    for both, one, want in ((60, 60, 90), (-30, -20, -20), (20, 25, 45)):
        char = hero(roles=roles)
        perform(char, prog({"op": "set", "ch": "part:forearm", "to": both},
                           {"op": "set", "ch": "part:forearm:1", "to": one}), [0.1])
        w = char.world
        assert wrap(world_angle(w[l]) - world_angle(w[u]) - rel0) == pytest.approx(want, abs=1e-9)


def test_mirrored_facing_mirrors_world_x():
    p = prog({"op": "hop"}, {"op": "setPart", "part": "arms", "deg": 60, "over": 0.3},
             {"op": "reach", "part": "left hand", "at": "head", "dx": 0.1, "over": 0.2})
    right, left = hero(), hero()
    left.facing = -1   # what a cartoon's placement sets (test_toon_stage.py runs it through one)
    a, b = toon.bake(p, right, 24, 1, stage=True), toon.bake(p, left, 24, 1, stage=True)
    assert np.array_equal(b[..., 4], -a[..., 4]) and np.array_equal(b[..., 5], a[..., 5])
    assert np.array_equal(b[..., [0, 1]], -a[..., [0, 1]]) and np.array_equal(b[..., [2, 3]], a[..., [2, 3]])
    assert not np.array_equal(a[..., 4], -a[..., 4])


# ---- item 3: bake, step-size independence -----------------------------------------------

SHOW = prog({"op": "hop", "hz": 1.5},
            {"op": "swingPart", "part": "arms", "deg": 25, "every": 0.7},
            {"op": "letFollow", "part": "head", "after": "body", "amount": 1.5},
            {"op": "reach", "part": "left hand", "at": "head", "dx": 0.09, "dy": -0.065, "over": 0.6},
            {"op": "wait", "for": 0.5},
            {"op": "release", "part": "left hand", "over": 0.4})


def irregular(char, program, fps, n, seed=3):
    """Step at random times (the frame times among them), sampling the rig at the frame times."""
    rng = random.Random(seed)
    frames = [k / fps for k in range(n)]
    times = sorted(set(frames + [rng.uniform(0, frames[-1]) for _ in range(3 * n)]))
    rt = toon.create_runtime(seed=0)
    rt.add_character("c", rig=char)
    rt.start_behaviour("c", program)
    out, want = [], set(frames)
    for t in times:
        rt.step_to(t)
        if t in want:
            out.append(np.array(char.instance.world))
    return np.array(out)


@pytest.mark.parametrize("rig", ["hero", "raptor"])
def test_bake_is_step_size_independent(rig):
    """The frames of a 24 fps bake equal, bit for bit, the rig sampled at the same times from a run
    stepped at irregular times (follow-through at 240 Hz, a hop, waves, a reach and its release on
    the rig's own looping animation)."""
    if rig == "hero":
        char = hero(base_animation="idle")
    else:
        char = toon.RigCharacter(spine_doc("raptor-pro"), base_animation="walk")
    baked = toon.bake(SHOW, char, 24, 2)
    assert baked.shape == (48, len(char.document.bones), 6) and baked.dtype == np.float64
    assert char._time is None   # the character itself was not moved: bake performs on a fresh copy
    assert np.array_equal(baked, irregular(char.fresh(), SHOW, 24, 48))
    one = perform(char.fresh(), SHOW, [47 / 24]).rigs["c"]   # one jump to the last frame
    assert np.array_equal(baked[-1], one.instance.world)


def test_bake_options():
    char = hero()
    t, w = toon.bake(SHOW, char, fps=10, seconds=0.95, times=True)
    assert w.shape[0] == 10 and np.array_equal(t, [k / 10 for k in range(10)])
    stage = toon.bake(SHOW, char, fps=10, seconds=0.95, stage=True)
    assert np.array_equal(stage[..., 4], -w[..., 4])   # hero's art faces left: mirrored to face right
    assert toon.bake(SHOW, openbone.examples.hero(), 10, 0.5).shape == (5, 16, 6)   # a Document: guessed roles
    assert toon.bake(prog({"op": "hop"}), char, 24, dur=2).shape[0] == 48      # seconds from dur
    with pytest.raises(openbone.OpenBoneError, match="takes {cast id: rig}"):
        toon.bake({"v": 1, "kind": "scene", "scripts": [{"body": [{"op": "wait", "for": 1}]}]}, char, 24, 1)
    with pytest.raises(openbone.OpenBoneError, match="fps must be a positive number"):
        toon.bake(SHOW, char, 0, 1)
    with pytest.raises(openbone.OpenBoneError, match="got nan"):
        toon.bake({"v": 1, "kind": "cartoon", "cast": {"A": "any"}, "scripts": []}, {"A": char}, float("nan"))
    with pytest.raises(openbone.OpenBoneError, match=r"char\['A'\] is a RigCharacter, a Document or a rig's path, not int"):
        toon.bake(STORY, {"A": 5}, 4)
    with pytest.raises(openbone.OpenBoneError, match="char is a RigCharacter, a Document or a rig's path, not list"):
        toon.bake(SHOW, [char], 4)
    with pytest.raises(toon.ToonError, match="invalid program"):
        toon.bake({"v": 1, "kind": "behaviour", "scripts": [{"body": [{"op": "fly"}]}]}, char, 24, 1)


# ---- cartoons (§7): rigs placed by rt.frame() ---------------------------------------------

def cartoon(cast, *body):
    return {"v": 1, "kind": "cartoon", "cast": cast,
            "scripts": [{"hat": {"on": "scene", "name": "s"}, "body": list(body)}]}


LIFT = prog({"op": "liftPart", "part": "head", "px": 12})
STORY = cartoon({"A": {"at": {"x": 0.3, "y": 0.92, "h": 0.25, "facing": 1}},
                 "B": {"at": {"x": 0.7, "y": 0.92, "h": 0.5, "facing": -1}}},
                {"op": "does", "who": "A", "behaviour": LIFT},
                {"op": "wait", "for": 1},
                {"op": "place", "who": "A", "facing": -1},
                {"op": "wait", "for": 1})


def sprout():
    return toon.RigCharacter(str(openbone.examples.path("sprout.json")))


def test_bake_a_cartoon_places_each_rig_by_the_stage():
    """toon.bake of a cartoon: {cast id: world}, frame k at t = k / fps up to the cartoon's duration
    (2 s); A's liftPart head 12 px at h 0.25 on a 16:9 stage is 12 · 214 / 1080 / 0.25 rig units
    (§0: pixels scaled by min(W, H) / 1080 = H / 1080; A drawn 0.25 · H tall for its 214 units);
    facing from the placement (A: +1, then −1 after the place at 1 s; B: −1) times the art's own
    (hero's −1, the sprout's +1) mirrors the stage's world x."""
    hero_w = setup_world(openbone.examples.hero())
    t, out = toon.bake(STORY, {"A": hero(), "B": sprout()}, fps=4, times=True)
    assert sorted(out) == ["A", "B"] and np.array_equal(t, [k / 4 for k in range(8)])
    assert out["A"].shape == (8, 16, 6) and out["B"].shape[0] == 8
    i = openbone.examples.hero().bone_index("head")
    k = 214.0 / 1080
    for f in range(1, 8):
        assert out["A"][f, i, 4:] - hero_w[i, 4:] == pytest.approx([0, 12 * k / 0.25], abs=1e-9)
    stage = toon.bake(STORY, {"A": hero(), "B": sprout()}, fps=4, stage=True)
    assert np.array_equal(stage["A"][:4, :, 4], -out["A"][:4, :, 4])   # facing 1 x A -1: mirrored
    assert np.array_equal(stage["A"][5:], out["A"][5:])                 # facing -1 x A -1: as drawn
    assert np.array_equal(stage["B"][..., 4], -out["B"][..., 4])        # facing -1 x A 1
    # a portrait stage (aspect 1/2): a pixel is min(W, H) / 1080 = H / 2160 of the stage, half as far
    tall = toon.bake(STORY, {"A": hero(), "B": sprout()}, fps=4, aspect=0.5)
    assert tall["A"][2, i, 4:] - hero_w[i, 4:] == pytest.approx([0, 12 * k / 0.25 / 2], abs=1e-9)
    # a cartoon pack's content {cast, program} and a rig the cast does not name (the page's character)
    pack = {"cast": STORY["cast"], "program": dict(STORY, cast={})}
    both = toon.bake(pack, {"A": hero(), "B": sprout(), "page": hero()}, fps=4, seconds=1)
    assert np.array_equal(both["A"], out["A"][:4]) and both["page"].shape == (4, 16, 6)


def test_a_cartoon_on_rigs_is_step_size_independent():
    """The rigs of a cartoon sampled at the frame times from a run stepped at irregular times are the
    bake's frames bit for bit (placements glide, a behaviour started by does)."""
    story = cartoon({"A": {"at": {"x": 0.3, "h": 0.4}}, "B": {"at": {"x": 0.7, "facing": -1}}},
                    {"op": "does", "who": "A", "behaviour": SHOW},
                    {"op": "place", "who": "A", "x": 0.5, "h": 0.6, "over": 1},
                    {"op": "place", "who": "A", "facing": -1, "over": 0.5})
    baked = toon.bake(story, {"A": hero(base_animation="idle"), "B": hero()}, fps=24, seconds=2)
    chars = {"A": hero(base_animation="idle"), "B": hero()}
    rt = toon.create_runtime(seed=0)
    for cid, c in chars.items():
        rt.add_character(cid, rig=c)
    rt.start_cartoon(story)
    rng = random.Random(5)
    frames = [k / 24 for k in range(48)]
    got = {"A": [], "B": []}
    for t in sorted(set(frames + [rng.uniform(0, 2) for _ in range(100)])):
        rt.step_to(t)
        if t in frames:
            for cid, c in chars.items():
                got[cid].append(np.array(c.instance.world))
            p = rt.frame()["characters"]["A"]
            assert chars["A"].h == pytest.approx(p["h"]) and chars["A"].facing == (1 if p["facing"] >= 0 else -1)
    for cid in chars:
        assert np.array_equal(baked[cid], np.array(got[cid]))


def test_a_speaker_flaps_its_mouth_while_its_line_lasts():
    """§7.4 leaves the mouth of a line to the renderer: while A's say lasts (talking 1) and no behaviour
    drives its mouth, mouth = (1 − cos(2π · 5 · t)) / 2; a jaw mapping of 10° per unit on hero's head
    turns it, as the stage sees it (counter-clockwise, facing right), by 10 · mouth: 0 at t = 0.2,
    5° at 0.25, 10° at 0.3 and 0.5, and nothing once the line ends (say "Hi!": 0.6 s, §7.4's least); a
    behaviour's drive mouth wins over the flap."""
    roles = toon.guess_roles(openbone.examples.hero()).to_dict()
    roles["mouth"] = {"bone": "head", "rotation": 10}
    doc = openbone.examples.hero()
    i = doc.bone_index("head")
    rest = world_angle(seen(setup_world(doc), -1)[i])   # facing 1 x A -1: mirrored
    story = cartoon({"A": {"at": {"x": 0.5}}}, {"op": "say", "who": "A", "text": "Hi!"}, {"op": "wait", "for": 0.5})
    got = toon.bake(story, {"A": hero(roles=roles)}, fps=20, stage=True)["A"]
    for k, mouth in ((4, 0), (5, 0.5), (6, 1), (10, 1), (11, 0.5 - 0.5 * math.cos(2 * math.pi * 5 * 0.55)),
                     (12, 0), (13, 0), (16, 0)):
        assert wrap(world_angle(got[k, i]) - rest) == pytest.approx(10 * mouth, abs=1e-9), k
    driven = cartoon({"A": {"at": {"x": 0.5}}},
                     {"op": "does", "who": "A", "behaviour": prog({"op": "set", "ch": "mouth", "to": 0.25})},
                     {"op": "say", "who": "A", "text": "Hi!"})
    got = toon.bake(driven, {"A": hero(roles=roles)}, fps=20, stage=True)["A"]
    assert wrap(world_angle(got[5, i]) - rest) == pytest.approx(2.5, abs=1e-9)


def test_the_raptors_tail_bends_by_its_segment_channels():
    """The raptor's tail (ten bones) as the role map's four chain segments (tail#0 = tail1-3 …): a
    set of part:tail#1 to 30 spreads 10° over each of tail4, tail5 and tail6 (weights 1/3), so
    tail6's world angle turns by 30 from the rig's own and tail3's by nothing; part:tail#3 20 turns
    tail10 by 20 more than tail8 (weights 1/2, tail9 and tail10)."""
    doc = spine_doc("raptor-pro")
    char = toon.RigCharacter(doc)
    assert [b.bone for b in char.roles.parts["tail#1"].bones] == ["tail4", "tail5", "tail6"]
    perform(char, prog({"op": "set", "ch": "part:tail#1", "to": 30}, {"op": "set", "ch": "part:tail#3", "to": 20}), [0.1])
    own, w = setup_world(doc), char.instance.world   # the raptor's art faces right: A = +1, no mirror

    def turn(name):
        i = doc.bone_index(name)
        return wrap(world_angle(w[i]) - world_angle(own[i]))
    assert turn("tail3") == pytest.approx(0, abs=1e-9)
    assert turn("tail4") == pytest.approx(10, abs=1e-9) and turn("tail6") == pytest.approx(30, abs=1e-9)
    assert turn("tail8") == pytest.approx(30, abs=1e-9) and turn("tail9") == pytest.approx(40, abs=1e-9)
    assert turn("tail10") == pytest.approx(50, abs=1e-9)


def test_facing_h_and_time_errors_name_the_place():
    char = hero()
    for attr, value, match in (("facing", 5, "RigCharacter.facing must be 1 or -1, got 5"),
                               ("facing", float("nan"), "RigCharacter.facing must be 1 or -1"),
                               ("h", -1, r"RigCharacter.h must be more than 0 \(and finite\), got -1"),
                               ("h", math.inf, "RigCharacter.h must be more than 0"),
                               ("h", "0.5", "RigCharacter.h must be a number, got '0.5'")):
        with pytest.raises(openbone.OpenBoneError, match=match):
            setattr(char, attr, value)
    assert (char.facing, char.h) == (1, 1.0)   # unchanged by the failed sets
    char.facing, char.h = np.int64(-1), np.float32(0.5)
    assert (char.facing, char.h) == (-1, 0.5) and type(char.facing) is int and type(char.h) is float
    with pytest.raises(openbone.OpenBoneError, match="apply_pose: time must be a finite number, got nan"):
        char.apply_pose({}, math.nan)
    with pytest.raises(openbone.OpenBoneError, match="apply_pose: time must be a number, got 'x'"):
        char.apply_pose({}, "x")
    with pytest.raises(openbone.OpenBoneError, match="apply_pose: h must be more than 0"):
        char.apply_pose({}, 0, h=math.nan)
    char.apply_pose({"reach": {"hand:1": {"x": 1e308, "y": -1e308, "w": 1}, "hand:-1": {"x": math.nan, "y": 0, "w": 1}}}, 0)
    assert char.instance.world.shape == (16, 6)   # an absurd reach target is no crash
