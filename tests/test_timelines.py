"""§5 / §5.1 / §5.1a: applyAnimation per target, sampling, mixing out.

Each expected value is worked out from the spec formula in the comment next to it;
nothing here was printed by the runtime.  ``inst.apply_animation`` runs exactly one
§5 applyAnimation on the current pose (no setup reset, no world update) and the
``*_live`` accessors read what the timelines wrote.
"""
import json

import numpy as np
import pytest

import openbone
from conftest import make_doc

EPS = 1e-12


def key(t, v, curve=None):
    d = {"time": t, "value": v}
    if curve is not None:
        d["curve"] = curve
    return d


def tl(target, id, prop, keys, attachment=None):
    d = {"target": target, "id": id, "property": prop, "keys": keys}
    if attachment is not None:
        d["attachment"] = attachment
    return d


def rig(timelines, duration=1, extra_anims=()):
    skeleton = {
        "bones": [{"id": "b_root", "name": "root"},
                  {"id": "b1", "name": "b1", "parent": "b_root", "x": 10, "y": 20, "rotation": 350,
                   "scaleX": 2, "scaleY": 3, "shearX": 5, "shearY": 6, "inherit": "noScale"}],
        "slots": [{"id": "s1", "name": "s1", "bone": "b1", "color": "#808080", "attachment": "a"},
                  {"id": "s2", "name": "s2", "bone": "b1", "dark": "#204060"},
                  {"id": "s3", "name": "s3", "bone": "b1", "attachment": "fx"},
                  {"id": "s4", "name": "s4", "bone": "b1", "attachment": "pt"}],
        "skins": [{"id": "skin_default", "name": "default", "attachments": {
            "s1": {"a": {"type": "point"}, "b": {"type": "point"}},
            "s3": {"fx": {"type": "particles", "rate": 40}},
            "s4": {"pt": {"type": "point"}, "box": {"type": "boundingBox", "vertices": [0, 0, 1, 0, 1, 1]}}}}],
        "ik": [{"id": "ik1", "name": "ik1", "bones": ["b1"], "target": "b_root", "mix": 0.5, "bendPositive": True,
                "softness": 2, "stretch": False, "compress": True}],
        "transform": [{"id": "tc1", "name": "tc1", "bones": ["b1"], "target": "b_root", "mixRotate": 0.2,
                       "mixTranslate": 0.4, "mixScale": 0.6, "mixShear": 0.8}],
        "path": [{"id": "pc1", "name": "pc1", "bones": ["b1"], "target": "s1", "position": 3, "spacing": 4,
                  "mixRotate": 1, "mixX": 0.5, "mixY": 0.25}],
        "physics": [{"id": "ph1", "name": "ph1", "bone": "b1", "inertia": 0.5, "strength": 100, "damping": 1,
                     "mass": 2, "gravity": 3, "wind": 4, "mix": 0}],
    }
    anims = [{"id": "anim_a", "name": "a", "duration": duration, "timelines": timelines}] + list(extra_anims)
    return openbone.loads(json.dumps(make_doc(skeleton, animations=anims)))


def fresh(timelines, **kw):
    inst = openbone.Instance(rig(timelines, **kw))
    inst.set_to_setup_pose()
    return inst


POSE = {"x": 0, "y": 1, "rotation": 2, "scaleX": 3, "scaleY": 4, "shearX": 5, "shearY": 6}
SETUP = {"x": 10, "y": 20, "rotation": 350, "scaleX": 2, "scaleY": 3, "shearX": 5, "shearY": 6}


# ---- sampling (§5 locate / curves) -------------------------------------------------

def test_sampling_before_between_after_and_stepped():
    keys = [key(0.2, 10), key(0.6, 30, "stepped"), key(1.0, 50)]
    for t, want in [(0.0, 10),     # time ≤ first ⇒ first key
                    (0.2, 10),
                    (0.3, 15),     # f = 0.1/0.4 = 0.25 ⇒ 10 + 20·0.25
                    (0.59, 29.5),  # f = 0.39/0.4 ⇒ 10 + 20·0.975
                    (0.8, 30),     # stepped key holds its value
                    (1.0, 50), (7, 50)]:  # time ≥ last ⇒ last key
        inst = fresh([tl("bone", "b1", "x", keys)])
        inst.apply_animation("a", t, 1)
        assert inst.local_pose[1, 0] == pytest.approx(want, abs=EPS), t


def test_sampling_bezier_mid_span():
    # key 0 → 1 over 0..1 with [0.42, 0, 0.58, 1]: f = 0.5 ⇒ t = 0.5 (symmetric) ⇒ 100 + 100·0.5
    inst = fresh([tl("bone", "b1", "x", [key(0, 100, [0.42, 0, 0.58, 1]), key(1, 200)])])
    inst.apply_animation("a", 0.5, 1)
    assert inst.local_pose[1, 0] == pytest.approx(150, abs=1e-9)
    # f = 0.25: t = eval_curve(…, 0.25) (checked in test_curves), x = 100 + 100·t
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0.25, 1)
    t = openbone.eval_curve([0.42, 0, 0.58, 1], 0.25)
    assert 0 < t < 0.25
    assert inst.local_pose[1, 0] == pytest.approx(100 + 100 * t, abs=1e-9)


def test_duplicate_key_times_take_the_last_left_key():
    keys = [key(0, 0), key(0.5, 10), key(0.5, 20), key(1, 40)]
    inst = fresh([tl("bone", "b1", "y", keys)])
    inst.apply_animation("a", 0.75, 1)  # a = key[2] (20), b = key[3] (40), f = 0.5 ⇒ 30
    assert inst.local_pose[1, 1] == pytest.approx(30, abs=EPS)


# ---- bone rows ------------------------------------------------------------------------

@pytest.mark.parametrize("prop", ["x", "y", "scaleX", "scaleY", "shearX", "shearY"])
def test_bone_linear_props(prop):
    inst = fresh([tl("bone", "b1", prop, [key(0, 100), key(1, 200)])])
    inst.apply_animation("a", 0.5, 1)  # alpha ≥ 1 ⇒ v = 150
    assert inst.local_pose[1, POSE[prop]] == pytest.approx(150, abs=EPS)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0.5, 0.25)  # lerp(setup, 150, .25)
    s = SETUP[prop]
    assert inst.local_pose[1, POSE[prop]] == pytest.approx(s + (150 - s) * 0.25, abs=EPS)


def test_bone_rotation_raw_at_full_weight_shortest_way_when_mixed():
    inst = fresh([tl("bone", "b1", "rotation", [key(0, 370)])])
    inst.apply_animation("a", 0, 1)
    assert inst.local_pose[1, 2] == 370  # raw, not wrapped
    inst.set_to_setup_pose()
    # lerpAngle(350, 370, .5) = 350 + wrap(20)·.5 = 360
    inst.apply_animation("a", 0, 0.5)
    assert inst.local_pose[1, 2] == pytest.approx(360, abs=EPS)
    inst = fresh([tl("bone", "b1", "rotation", [key(0, 10)])])
    inst.apply_animation("a", 0, 0.25)  # 350 + wrap(10 − 350 = −340 → 20)·.25 = 355
    assert inst.local_pose[1, 2] == pytest.approx(355, abs=EPS)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0, 1.5)  # alpha ≥ 1 ⇒ v
    assert inst.local_pose[1, 2] == 10


def test_bone_interpolation_between_keys_is_plain_linear():
    inst = fresh([tl("bone", "b1", "rotation", [key(0, 170), key(1, -170)])])
    inst.apply_animation("a", 0.25, 1)  # 170 + (−340)·.25 = 85: no shortest path between keys
    assert inst.local_pose[1, 2] == pytest.approx(85, abs=EPS)


def test_bone_inherit_stepped_at_half_alpha():
    inst = fresh([tl("bone", "b1", "inherit", [key(0, "normal"), key(0.5, "onlyTranslation", [0.1, 0.2, 0.3, 0.4])])])
    assert inst.inherit_modes[1] == "noScale"
    inst.apply_animation("a", 0.49, 0.49)
    assert inst.inherit_modes[1] == "noScale"  # alpha < 0.5 ⇒ untouched
    inst.apply_animation("a", 0.49, 0.5)
    assert inst.inherit_modes[1] == "normal"  # sampleStep: left key
    inst.apply_animation("a", 0.75, 1)
    assert inst.inherit_modes[1] == "onlyTranslation"  # curve ignored
    inst.set_to_setup_pose()
    assert inst.inherit_modes[1] == "noScale"  # reset by setToSetupPose


# ---- slot rows ------------------------------------------------------------------------

def test_slot_color_replace_and_lerp():
    inst = fresh([tl("slot", "s1", "color", [key(0, "#ff0000"), key(1, "#0000ff80")])])
    inst.apply_animation("a", 0.5, 1)
    # keys lerped by t = .5: (1, 0, 0, 1)·.5 + (0, 0, 1, 128/255)·.5
    want = [0.5, 0, 0.5, 0.5 + 128 / 255 / 2]
    assert np.allclose(inst.slot_colors[0], want, atol=EPS)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0.5, 0.5)  # lerpColor(#808080 = 128/255, v, .5)
    g = 128 / 255
    assert np.allclose(inst.slot_colors[0], [g + (w - g) * 0.5 for w in want[:3]] + [1 + (want[3] - 1) * 0.5],
                       atol=EPS)


def test_slot_color_stepped_holds_left_key():
    inst = fresh([tl("slot", "s1", "color", [key(0, "#ff0000", "stepped"), key(1, "#00ff00")])])
    inst.apply_animation("a", 0.9, 1)
    assert inst.slot_colors[0].tolist() == [1, 0, 0, 1]


def test_slot_dark_mixes_from_black_when_unset_and_sets_has_dark():
    inst = fresh([tl("slot", "s1", "dark", [key(0, "#ffffff")]), tl("slot", "s2", "dark", [key(0, "#ffffff")])])
    assert not inst.slot_has_dark[0] and inst.slot_has_dark[1]
    inst.apply_animation("a", 0, 0.25)
    # s1: base [0,0,0,1] ⇒ .25 per channel, alpha 1; s2: base #204060 ⇒ c + (1 − c)·.25
    assert inst.slot_has_dark[0]
    assert np.allclose(inst.slot_darks[0], [0.25, 0.25, 0.25, 1], atol=EPS)
    base = np.array([0x20, 0x40, 0x60]) / 255
    assert np.allclose(inst.slot_darks[1][:3], base + (1 - base) * 0.25, atol=EPS)
    inst.set_to_setup_pose()
    assert not inst.slot_has_dark[0]


def test_slot_attachment_half_alpha_and_null_hides():
    inst = fresh([tl("slot", "s1", "attachment", [key(0, "b"), key(0.5, None)])])
    inst.apply_animation("a", 0.1, 0.49)
    assert inst.slot_attachments[0] == "a"
    inst.apply_animation("a", 0.1, 0.5)
    assert inst.slot_attachments[0] == "b"
    inst.apply_animation("a", 0.6, 1)
    assert inst.slot_attachments[0] is None


# ---- constraint rows ------------------------------------------------------------------

CV = ["mix", "softness", "bend", "stretch", "compress", "mixRotate", "mixTranslate", "mixScale", "mixShear",
      "position", "spacing", "mixX", "mixY", "inertia", "strength", "damping", "mass", "gravity", "wind"]


def live(inst, name):
    return dict(zip(CV, inst.constraint_live(name).tolist()))


def test_constraint_setup_values():
    inst = fresh([])
    ik = live(inst, "ik1")
    assert (ik["mix"], ik["softness"], ik["bend"], ik["stretch"], ik["compress"]) == (0.5, 2, 1, 0, 1)
    assert live(inst, "tc1")["mix"] == 1  # transform constraints also get mix = 1


def test_ik_mix_softness_lerp_and_switches():
    tls = [tl("ik", "ik1", "mix", [key(0, 1)]), tl("ik", "ik1", "softness", [key(0, 10), key(1, 20)]),
           tl("ik", "ik1", "bend", [key(0, False)]), tl("ik", "ik1", "stretch", [key(0, True)]),
           tl("ik", "ik1", "compress", [key(0, 0)])]
    inst = fresh(tls)
    inst.apply_animation("a", 0.5, 0.4)
    v = live(inst, "ik1")
    assert v["mix"] == pytest.approx(0.5 + 0.5 * 0.4, abs=EPS)        # lerp(.5, 1, .4)
    assert v["softness"] == pytest.approx(2 + (15 - 2) * 0.4, abs=EPS)  # lerp(2, 15, .4)
    assert (v["bend"], v["stretch"], v["compress"]) == (1, 0, 1)      # alpha < .5: untouched
    inst.apply_animation("a", 0.5, 0.5)
    v = live(inst, "ik1")
    assert (v["bend"], v["stretch"], v["compress"]) == (0, 1, 0)      # Number(sampleStep)


def test_transform_path_physics_values_lerp():
    tls = [tl("transform", "tc1", p, [key(0, 1)]) for p in ("mix", "mixRotate", "mixTranslate", "mixScale", "mixShear")]
    tls += [tl("path", "pc1", p, [key(0, 10)]) for p in ("position", "spacing", "mixRotate", "mixX", "mixY")]
    tls += [tl("physics", "ph1", p, [key(0, 10)])
            for p in ("inertia", "strength", "damping", "mass", "gravity", "wind", "mix")]
    inst = fresh(tls)
    inst.apply_animation("a", 0, 0.5)
    t = live(inst, "tc1")
    assert t["mix"] == pytest.approx(1, abs=EPS)  # lerp(1, 1, .5): stored, multiplied at use
    for p, s in (("mixRotate", 0.2), ("mixTranslate", 0.4), ("mixScale", 0.6), ("mixShear", 0.8)):
        assert t[p] == pytest.approx(s + (1 - s) * 0.5, abs=EPS)
    pth = live(inst, "pc1")
    for p, s in (("position", 3), ("spacing", 4), ("mixRotate", 1), ("mixX", 0.5), ("mixY", 0.25)):
        assert pth[p] == pytest.approx(s + (10 - s) * 0.5, abs=EPS)
    ph = live(inst, "ph1")
    for p, s in (("inertia", 0.5), ("strength", 100), ("damping", 1), ("mass", 2), ("gravity", 3), ("wind", 4),
                 ("mix", 0)):
        assert ph[p] == pytest.approx(s + (10 - s) * 0.5, abs=EPS)
    # full weight: lerp(cur, v, 1)
    inst.apply_animation("a", 0, 1)
    assert live(inst, "tc1")["mixScale"] == 1 and live(inst, "ph1")["mass"] == 10


def test_transform_mix_is_stored_not_applied_to_the_mixes():
    inst = fresh([tl("transform", "tc1", "mix", [key(0, 0.5)])])
    inst.apply_animation("a", 0, 1)
    t = live(inst, "tc1")
    assert (t["mix"], t["mixRotate"], t["mixTranslate"]) == (0.5, 0.2, 0.4)


# ---- particles ------------------------------------------------------------------------

def test_particles_emitting_half_alpha():
    inst = fresh([tl("particles", "s3", "emitting", [key(0, False), key(0.5, True)])])
    assert inst.particle_live("s3") == {"emitting": None, "rate": None}
    inst.apply_animation("a", 0.7, 0.3)
    assert inst.particle_live("s3")["emitting"] is None
    inst.apply_animation("a", 0.7, 0.5)
    assert inst.particle_live("s3")["emitting"] is True
    inst.apply_animation("a", 0.2, 1)
    assert inst.particle_live("s3")["emitting"] is False
    inst.set_to_setup_pose()
    assert inst.particle_live("s3")["emitting"] is None  # particle values cleared


def test_particles_rate_bases():
    tls = [tl("particles", "s3", "rate", [key(0, 100)]), tl("particles", "s1", "rate", [key(0, 100)])]
    inst = fresh(tls)
    inst.apply_animation("a", 0, 0.25)
    # s3 shows a particles attachment (rate 40): lerp(40, 100, .25) = 55
    assert inst.particle_live("s3")["rate"] == pytest.approx(55, abs=EPS)
    # s1 shows a point: base 0 ⇒ 25
    assert inst.particle_live("s1")["rate"] == pytest.approx(25, abs=EPS)
    inst.apply_animation("a", 0, 0.5)  # base = current rate 55 ⇒ 77.5
    assert inst.particle_live("s3")["rate"] == pytest.approx(77.5, abs=EPS)


def test_particles_rate_current_zero_falls_back_like_js_or():
    tls = [tl("particles", "s3", "rate", [key(0, 0), key(1, 100)])]
    inst = fresh(tls)
    inst.apply_animation("a", 0, 1)  # lerp(40, 0, 1) = 0
    assert inst.particle_live("s3")["rate"] == 0
    inst.apply_animation("a", 1, 0.5)  # current 0 ‖ 40 ⇒ lerp(40, 100, .5) = 70
    assert inst.particle_live("s3")["rate"] == pytest.approx(70, abs=EPS)


# ---- deform, sequence, draw order ---------------------------------------------------------

def test_deform_replace_scale_lerp_and_short_arrays():
    keys = [key(0, [2, 4]), key(1, [4, 8, 12, 16])]
    inst = fresh([tl("deform", "s4", "offsets", keys, attachment="box")])
    assert inst.deform("s4", "box") is None
    inst.apply_animation("a", 0.5, 0.5)
    # sampleArray at .5: [3, 6, 6, 8] (short array reads 0); none and alpha < 1 ⇒ v·alpha
    assert inst.deform("s4", "box").tolist() == [1.5, 3, 3, 4]
    inst.apply_animation("a", 0, 0.5)
    # existing, alpha < 1: v = [2, 4]; lerp(cur[i], v[i], .5) over v's length
    assert inst.deform("s4", "box").tolist() == [1.75, 3.5]
    inst.apply_animation("a", 1, 1)  # alpha ≥ 1 ⇒ replace
    assert inst.deform("s4", "box").tolist() == [4, 8, 12, 16]
    inst.set_to_setup_pose()
    assert inst.deform("s4", "box") is None


def test_deform_timeline_of_another_attachment_is_separate():
    tls = [tl("deform", "s4", "offsets", [key(0, [1, 1])], attachment="box"),
           tl("deform", "s4", "offsets", [key(0, [5])], attachment="pt")]
    inst = fresh(tls)
    inst.apply_animation("a", 0, 1)
    assert inst.deform("s4", "box").tolist() == [1, 1]
    assert inst.deform("s4", "pt").tolist() == [5]


def test_sequence_frame_sample_number_half_alpha():
    inst = fresh([tl("sequence", "s4", "frame", [key(0, 0), key(1, 8)], attachment="box")])
    assert inst.sequence_frame("s4", "box") is None
    inst.apply_animation("a", 0.25, 0.4)
    assert inst.sequence_frame("s4", "box") is None
    inst.apply_animation("a", 0.25, 0.5)
    assert inst.sequence_frame("s4", "box") == pytest.approx(2, abs=EPS)  # lerp(0, 8, .25)
    inst.set_to_setup_pose()
    assert inst.sequence_frame("s4", "box") is None


def test_draw_order_spine_fill():
    # slots s1 s2 s3 s4 (0..3); key lists [s4, s2]: unlisted s1 (0) and s3 (2) keep their
    # indices; listed ones fill indices 1 and 3 in listed order ⇒ [s1, s4, s3, s2]
    tls = [tl("drawOrder", "skeleton", "order", [key(0, ["s4", "s2", "nope"]), key(1, None)])]
    inst = fresh(tls)
    inst.apply_animation("a", 0.5, 0.49)
    assert inst.draw_order.tolist() == [0, 1, 2, 3]
    inst.apply_animation("a", 0.5, 0.5)
    assert inst.draw_order.tolist() == [0, 3, 2, 1]
    inst.apply_animation("a", 1, 1)  # null key ⇒ setup order
    assert inst.draw_order.tolist() == [0, 1, 2, 3]


def test_draw_order_reversed():
    tls = [tl("drawOrder", "skeleton", "order", [key(0, ["s4", "s3", "s2", "s1"])])]
    inst = fresh(tls)
    inst.apply_animation("a", 0, 1)
    assert inst.draw_order.tolist() == [3, 2, 1, 0]


# ---- skipping, alpha, animationTime ---------------------------------------------------

def test_missing_target_and_empty_timelines_are_skipped():
    tls = [tl("bone", "nope", "x", [key(0, 5)]), tl("bone", "b1", "x", []),
           tl("ik", "nope", "mix", [key(0, 0)]), tl("bone", "b1", "y", [key(0, 7)])]
    inst = fresh(tls)
    inst.apply_animation("a", 0, 1)
    assert inst.local_pose[1, 0] == 10 and inst.local_pose[1, 1] == 7


def test_alpha_zero_does_nothing():
    inst = fresh([tl("bone", "b1", "x", [key(0, 5)]), tl("slot", "s1", "attachment", [key(0, None)])])
    inst.apply_animation("a", 0.3, 0)
    inst.apply_animation("a", 0.3, -1)
    assert inst.local_pose[1, 0] == 10 and inst.slot_attachments[0] == "a"
    assert inst.animation_time is None


def test_animation_time_rule():
    inst = fresh([tl("bone", "b1", "x", [key(0, 5)])])
    assert inst.animation_time is None
    inst.apply_animation("a", 0.3, 0.2)  # null ⇒ set whatever alpha
    assert inst.animation_time == 0.3
    inst.apply_animation("a", 0.4, 0.2)  # alpha < .5 and set ⇒ kept
    assert inst.animation_time == 0.3
    inst.apply_animation("a", 0.5, 0.5)
    assert inst.animation_time == 0.5
    inst.set_to_setup_pose()
    assert inst.animation_time is None


# ---- §5.1a mixing out ---------------------------------------------------------------------

def mix_rig():
    a_tls = [tl("bone", "b1", "x", [key(0, 100)]), tl("bone", "b1", "y", [key(0, 100)]),
             tl("slot", "s1", "attachment", [key(0, "b")]), tl("slot", "s1", "color", [key(0, "#000000")]),
             tl("deform", "s4", "offsets", [key(0, [10])], attachment="box"),
             tl("deform", "s4", "offsets", [key(0, [10])], attachment="pt")]
    b = {"id": "anim_b", "name": "b", "duration": 1,
         "timelines": [tl("bone", "b1", "x", [key(0, 0)]), tl("bone", "b1", "y", []),
                       tl("deform", "s4", "offsets", [key(0, [0])], attachment="box")]}
    return openbone.Instance(rig(a_tls, extra_anims=[b]))


def test_mix_out_blending_timelines_not_keyed_by_into_use_out_alpha():
    inst = mix_rig()
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0, 1, into=["b"], out_alpha=0.25)
    pose = inst.local_pose[1]
    assert pose[0] == 100                                           # x: b keys it ⇒ full alpha
    assert pose[1] == pytest.approx(20 + (100 - 20) * 0.25, abs=EPS)  # y: b's timeline is empty ⇒ out alpha
    g = 128 / 255
    assert inst.slot_colors[0][0] == pytest.approx(g * 0.75, abs=EPS)  # colour blends ⇒ lerp by .25
    assert inst.slot_attachments[0] == "b"                          # attachment doesn't blend ⇒ alpha 1
    assert inst.deform("s4", "box").tolist() == [10]                # same (target, id, property, attachment)
    assert inst.deform("s4", "pt").tolist() == [2.5]                # other attachment ⇒ none·.25
    assert inst.animation_time == 0


def test_mix_out_zero_alpha_skips_and_switches_follow_call_alpha():
    inst = mix_rig()
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0, 0.4, into=["b"], out_alpha=0)
    pose = inst.local_pose[1]
    assert pose[1] == 20                                  # out alpha 0 ⇒ skipped
    assert pose[0] == pytest.approx(10 + 90 * 0.4)         # keyed by into ⇒ call alpha
    assert inst.slot_attachments[0] == "a"                 # switch at the call's alpha .4 < .5
    assert inst.animation_time == 0                        # null ⇒ set


def test_mix_out_with_empty_into_eases_every_blending_timeline():
    inst = mix_rig()
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0, 1, into=[], out_alpha=0.5)
    assert inst.local_pose[1, 0] == pytest.approx(55, abs=EPS)
    assert inst.slot_attachments[0] == "b"
