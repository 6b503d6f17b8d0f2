"""§7.5 sliders: a bone property or an input scrubs an animation (values
worked out by hand from the linear keys below)."""
import json
import math

import pytest

import openbone

from conftest import make_doc

# "bend": arm rotation 10 → 100 and x 0 → 40 over 2 s (linear), from the setup 10 / 0
BEND = {"id": "anim_bend", "name": "bend", "timelines": [
    {"target": "bone", "id": "arm", "property": "rotation", "keys": [{"time": 0, "value": 10}, {"time": 2, "value": 100}]},
    {"target": "bone", "id": "arm", "property": "x", "keys": [{"time": 0, "value": 0}, {"time": 2, "value": 40}]},
]}


def rig(slider, animations=(BEND,), machines=None, arm=None, extra_bones=()):
    bones = [{"id": "root", "name": "root"},
             {"id": "knob", "name": "knob", "parent": "root", "rotation": 45},
             dict({"id": "arm", "name": "arm", "parent": "root", "length": 10, "rotation": 10}, **(arm or {}))]
    bones += list(extra_bones)
    s = {"id": "sl", "name": "slider", "animation": "anim_bend", "bone": "knob", "from": 0, "to": 90, "mix": 1}
    s.update(slider)
    for k in [k for k, v in s.items() if v is None]:
        del s[k]
    d = make_doc({"bones": bones, "sliders": [s]}, animations=list(animations))
    if machines:
        d["stateMachines"] = machines
    return openbone.Instance(openbone.loads(json.dumps(d)))


def rot(m):
    return math.degrees(math.atan2(m[2], m[0]))


def test_bone_driven_scrub():
    # knob 45 ⇒ f = 0.5 ⇒ t = 0.5·2 = 1 ⇒ arm rotation 55, x 20
    inst = rig({})
    arm = inst.world[2]
    assert rot(arm) == pytest.approx(55)
    assert arm[4] == pytest.approx(20)


def test_mix_lerps_from_the_current_pose():
    # mix 0.5: rotation 10 + (55 − 10)·0.5 = 32.5 ; x 0 + 20·0.5 = 10
    inst = rig({"mix": 0.5})
    assert rot(inst.world[2]) == pytest.approx(32.5)
    assert inst.world[2][4] == pytest.approx(10)


def test_time_range_and_clamp():
    # timeFrom 1, timeTo 1.5: t = 1 + 0.5·0.5 = 1.25 ⇒ rotation 10 + 90·1.25/2 = 66.25
    assert rot(rig({"timeFrom": 1, "timeTo": 1.5}).world[2]) == pytest.approx(66.25)
    # from 0 to 30: f = 1.5 clamped to 1 ⇒ t = 2 ⇒ 100
    assert rot(rig({"to": 30}).world[2]) == pytest.approx(100)
    # to == from ⇒ f = 0 ⇒ t = 0 ⇒ 10
    assert rot(rig({"to": 0}).world[2]) == pytest.approx(10)


def test_loop_wraps():
    # from 0 to 36: f = 45/36 = 1.25 ⇒ loop ⇒ 0.25 ⇒ t = 0.5 ⇒ rotation 32.5
    assert rot(rig({"to": 36, "loop": True}).world[2]) == pytest.approx(32.5)


def test_property_x_driver():
    extra = [{"id": "ctl", "name": "ctl", "parent": "root", "x": 30}]
    inst = rig({"bone": "ctl", "property": "x", "from": 0, "to": 40}, extra_bones=extra)
    # f = 0.75 ⇒ t = 1.5 ⇒ rotation 10 + 90·0.75 = 77.5
    assert rot(inst.world[2]) == pytest.approx(77.5)


def test_input_driven_reads_the_machine_default():
    machines = [{"id": "sm", "name": "sm", "inputs": [{"id": "in_amount", "name": "amount", "type": "number",
                                                          "default": 0.25}],
                 "bindings": [], "layers": [], "listeners": [], "scripts": []}]
    inst = rig({"bone": None, "input": "in_amount", "from": 0, "to": 1}, machines=machines)
    # f = 0.25 ⇒ t = 0.5 ⇒ rotation 10 + 90·0.25 = 32.5
    assert rot(inst.world[2]) == pytest.approx(32.5)
    # an unknown input reads 0 ⇒ t = 0 ⇒ 10
    inst = rig({"bone": None, "input": "nope", "from": 0, "to": 1}, machines=machines)
    assert rot(inst.world[2]) == pytest.approx(10)


def test_additive_adds_the_change_from_setup():
    # setup rotation 30, x 5; at t = 1 the animation gives rotation 55, x 20: the
    # deltas from setup (25, 15) times mix 0.5 are added to the saved pose (30, 5)
    inst = rig({"additive": True, "mix": 0.5}, arm={"rotation": 30, "x": 5})
    assert rot(inst.world[2]) == pytest.approx(30 + 25 * 0.5)
    assert inst.world[2][4] == pytest.approx(5 + 15 * 0.5)


def test_additive_wraps_rotation_delta():
    # setup 170, value at t = 2 (f clamped): 100 ⇒ wrap(100 − 170) = −70
    anim = {"id": "anim_bend", "name": "bend", "timelines": [
        {"target": "bone", "id": "arm", "property": "rotation",
         "keys": [{"time": 0, "value": -170}, {"time": 2, "value": -170}]}]}
    inst = rig({"additive": True, "to": 30}, animations=(anim,), arm={"rotation": 170})
    # wrap(−170 − 170) = wrap(−340) = 20 ⇒ 170 + 20 = 190 ≡ −170
    assert rot(inst.world[2]) == pytest.approx(-170)


def test_skips():
    assert rot(rig({"mix": 0}).world[2]) == pytest.approx(10)
    assert rot(rig({"bone": "missing"}).world[2]) == pytest.approx(10)


def test_slider_runs_before_constraints():
    # an IK on arm then overrides the slider's rotation
    bones_extra = [{"id": "t", "name": "t", "x": 0, "y": 50}]
    d = make_doc({"bones": [{"id": "root", "name": "root"},
                            {"id": "knob", "name": "knob", "parent": "root", "rotation": 45},
                            {"id": "arm", "name": "arm", "parent": "root", "length": 10, "rotation": 10}] + bones_extra,
                  "sliders": [{"id": "sl", "animation": "anim_bend", "bone": "knob", "from": 0, "to": 90, "mix": 1}],
                  "ik": [{"id": "ik", "bones": ["arm"], "target": "t", "mix": 1}]}, animations=[BEND])
    inst = openbone.Instance(openbone.loads(json.dumps(d)))
    arm = inst.world[2]
    # the slider moved arm to x 20; the IK then aims from (20, 0) at (0, 50)
    assert arm[4] == pytest.approx(20)
    assert rot(arm) == pytest.approx(math.degrees(math.atan2(50, -20)))


def test_animation_time_restored():
    # the slider's applyAnimation sets animationTime; it is restored (null) after
    inst = rig({})
    assert inst.animation_time is None


@pytest.mark.parametrize("mix,expected", [(1.0, "noRotation"), (0.5, "noRotation"), (0.4, "noScale")])
def test_additive_inherit_rule(mix, expected):
    """the setup reset also resets inherit; afterwards bones get their previous
    mode back, except a mode keyed by the slider's animation when mix ≥ 0.5"""
    anim = dict(BEND, timelines=BEND["timelines"] + [
        {"target": "bone", "id": "arm", "property": "inherit", "keys": [{"time": 0, "value": "noRotation"}]}])
    inst = rig({"additive": True, "mix": mix}, animations=(anim,), arm={"inherit": "noScale"})
    assert inst.inherit_modes[2] == expected
