"""§7.1 IK against closed-form geometry (law of cosines) worked out here, not
printed by the runtime; plus §3.2 constraint order and the live-value API."""
import json
import math

import numpy as np
import pytest

import openbone

from conftest import make_doc


def rig(target=(150.0, 50.0), ik=None, bones_extra=(), reference_scale=None, root_rot=0.0,
        a_scale=(1.0, 1.0), **skeleton):
    """root → a (length 100) → b (x 100, length 100); target t under root."""
    bones = [{"id": "root", "name": "root", "rotation": root_rot, "scaleX": a_scale[0], "scaleY": a_scale[1]},
             {"id": "a", "name": "a", "parent": "root", "length": 100},
             {"id": "b", "name": "b", "parent": "a", "x": 100, "length": 100},
             {"id": "t", "name": "t", "x": target[0], "y": target[1]}] + list(bones_extra)
    c = {"id": "ik", "name": "arm", "bones": ["a", "b"], "target": "t", "mix": 1, "bendPositive": True}
    c.update(ik or {})
    sk = {"bones": bones, "ik": [c]}
    if reference_scale is not None:
        sk["referenceScale"] = reference_scale
    sk.update(skeleton)
    return openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))


def rot(m):
    return math.degrees(math.atan2(m[2], m[0]))


def tip(m, length):
    return (m[0] * length + m[4], m[2] * length + m[5])


@pytest.mark.parametrize("bend", [True, False])
def test_two_bones_reachable_law_of_cosines(bend):
    inst = rig(ik={"bendPositive": bend})
    w = inst.world
    d = math.hypot(150, 50)
    # law of cosines, l1 = l2 = 100: cos A = (l1² + d² − l2²) / (2·l1·d) = d / 200
    A = math.degrees(math.acos(d / 200))
    aim = math.degrees(math.atan2(50, 150))            # 18.4349°
    want_parent = aim - A if bend else aim + A         # bendPositive: −1·acos
    assert rot(w[1]) == pytest.approx(want_parent, abs=1e-9)
    # the child bends by ±(180 − C), cos C = (l1² + l2² − d²) / (2·l1·l2)
    C = math.degrees(math.acos((2 * 100 ** 2 - d * d) / (2 * 100 * 100)))
    assert rot(w[2]) - rot(w[1]) == pytest.approx((180 - C) if bend else -(180 - C), abs=1e-9)
    # the tip reaches the target
    assert tip(w[2], 100) == pytest.approx((150, 50), abs=1e-9)
    # hand numbers: d = 158.1139, A = 37.7612°, parent −19.3263° (bend) / 56.1961°
    assert want_parent == pytest.approx(-19.3263 if bend else 56.1961, abs=1e-4)


def test_two_bones_unreachable_straightens_towards_target():
    inst = rig(target=(300.0, 0.0))
    w = inst.world
    # dEff = min(max(300, |l1−l2| + 1e-4), reach − 1e-4) = 199.9999
    d_eff = 200 - 1e-4
    A = math.degrees(math.acos(d_eff / 200))           # ≈ 0.0573°
    assert A == pytest.approx(0.05730, abs=1e-5)
    assert rot(w[1]) == pytest.approx(-A, abs=1e-9)
    # the child aims at the aim point (d_eff along the target direction)
    assert tip(w[2], 100) == pytest.approx((d_eff, 0), abs=1e-9)
    # no stretch: lengths unchanged
    assert math.hypot(w[2][0], w[2][2]) == pytest.approx(1.0)


def test_two_bones_unreachable_with_stretch_reaches():
    inst = rig(target=(300.0, 40.0), ik={"stretch": True})
    w = inst.world
    d_raw = math.hypot(300, 40)
    s = d_raw / (200 - 1e-4)                            # mix 1: s = dRaw / dEff
    assert math.hypot(w[1][0], w[1][2]) == pytest.approx(s, rel=1e-12)
    assert math.hypot(w[1][1], w[1][3]) == pytest.approx(1.0)   # not uniform
    assert math.hypot(w[2][0], w[2][2]) == pytest.approx(s, rel=1e-12)
    assert tip(w[2], 100) == pytest.approx((300, 40), abs=1e-6)


def test_two_bones_uniform_stretch_scales_both_axes():
    inst = rig(target=(300.0, 0.0), ik={"stretch": True, "uniform": True})
    s = 300 / (200 - 1e-4)
    for i in (1, 2):
        assert math.hypot(inst.world[i][1], inst.world[i][3]) == pytest.approx(s, rel=1e-12)


def test_two_bones_mix_half():
    full = rig()
    half = rig(ik={"mix": 0.5})
    # p.applied.rotation = pRot + deltaP·mix with pRot = 0: half the full-solve angle
    assert rot(half.world[1]) == pytest.approx(rot(full.world[1]) / 2, abs=1e-9)


@pytest.mark.parametrize("reference_scale,d_raw,expected", [
    # soft = softness·|usX| = 20; reach − soft = 180 < 190:
    # dSoft = 180 + 20·(1 − e^(−10/20)) = 180 + 20·0.3934693 = 187.869387
    (100, 190.0, 187.869387),
    # referenceScale 50 halves soft to 10: 190 + 10·(1 − e^(−5/10)) = 193.934693
    (50, 195.0, 193.934693),
    # below reach − soft nothing changes: 150
    (100, 150.0, 150.0),
])
def test_softness_eases_the_reach(reference_scale, d_raw, expected):
    inst = rig(target=(d_raw, 0.0), ik={"softness": 20}, reference_scale=reference_scale)
    assert tip(inst.world[2], 100) == pytest.approx((expected, 0), abs=1e-5)


def test_reflected_parent_det_sign():
    # root scaleY −1 (det < 0): the solve still puts the tip on the target
    inst = rig(target=(120.0, -60.0), a_scale=(1.0, -1.0))
    w = inst.world
    # the target is a root bone (world = its local), the chain lives under the flipped root
    assert tip(w[2], 100) == pytest.approx((120, -60), abs=1e-9)


def test_other_children_follow():
    extra = [{"id": "pad", "name": "pad", "parent": "a", "x": 30, "y": 5, "rotation": 90, "length": 10}]
    inst = rig(bones_extra=extra)
    w = inst.world
    a = w[1]
    # pad = a.world · local(pad): position a·(30, 5), rotation rot(a) + 90
    assert (w[4][4], w[4][5]) == pytest.approx((a[0] * 30 + a[1] * 5 + a[4], a[2] * 30 + a[3] * 5 + a[5]))
    assert rot(w[4]) == pytest.approx(rot(a) + 90)


def one_bone(target, ik, length=50.0, parent_rot=30.0):
    bones = [{"id": "root", "name": "root", "rotation": parent_rot},
             {"id": "a", "name": "a", "parent": "root", "x": 10, "length": length, "rotation": 5},
             {"id": "t", "name": "t", "x": target[0], "y": target[1]}]
    c = {"id": "ik", "name": "one", "bones": ["a"], "target": "t", "mix": 1}
    c.update(ik)
    return openbone.Instance(openbone.loads(json.dumps(make_doc({"bones": bones, "ik": [c]}))))


def test_one_bone_aims():
    inst = one_bone((0.0, 100.0), {})
    a = inst.world[1]
    # a's origin = root·(10, 0) = (10cos30, 10sin30); it points at (0, 100)
    ox, oy = 10 * math.cos(math.radians(30)), 10 * math.sin(math.radians(30))
    assert (a[4], a[5]) == pytest.approx((ox, oy))
    assert rot(a) == pytest.approx(math.degrees(math.atan2(100 - oy, -ox)), abs=1e-9)


def test_one_bone_mix():
    inst = one_bone((0.0, 100.0), {"mix": 0.25})
    ox, oy = 10 * math.cos(math.radians(30)), 10 * math.sin(math.radians(30))
    want_world = math.degrees(math.atan2(100 - oy, -ox))
    # local rotation 5 → 5 + (want_local − 5)·0.25 with want_local = want_world − 30
    assert rot(inst.world[1]) == pytest.approx(30 + 5 + (want_world - 30 - 5) * 0.25, abs=1e-9)


@pytest.mark.parametrize("ik,dist,sx,sy", [
    ({"stretch": True}, 200.0, 4.0, 1.0),                 # k = 200 / 50 = 4
    ({"stretch": True, "uniform": True}, 200.0, 4.0, 4.0),
    ({"stretch": True}, 20.0, 1.0, 1.0),                  # k < 1 without compress: nothing
    ({"compress": True}, 20.0, 0.4, 1.0),                 # k = 20 / 50
    ({"compress": True, "uniform": True, "mix": 0.5}, 20.0, 0.7, 0.7),  # s = 1 + (0.4 − 1)·0.5
])
def test_one_bone_stretch_compress(ik, dist, sx, sy):
    ang = math.radians(40)
    ox, oy = 10 * math.cos(math.radians(30)), 10 * math.sin(math.radians(30))
    inst = one_bone((ox + dist * math.cos(ang), oy + dist * math.sin(ang)), ik)
    a = inst.world[1]
    assert math.hypot(a[0], a[2]) == pytest.approx(sx, rel=1e-12)
    assert math.hypot(a[1], a[3]) == pytest.approx(sy, rel=1e-12)


def test_skip_rules():
    # mix 0 or a missing target: nothing moves
    assert rot(rig(ik={"mix": 0}).world[1]) == pytest.approx(0)
    doc = make_doc({"bones": [{"id": "a", "name": "a", "length": 10}],
                    "ik": [{"id": "ik", "bones": ["a"], "target": "nope", "mix": 1}]})
    inst = openbone.Instance(openbone.loads(json.dumps(doc)))
    assert inst.world[0] == pytest.approx([1, 0, 0, 1, 0, 0])


def test_constraint_values_by_name_then_id():
    inst = rig(ik={"softness": 7, "stretch": True, "bendPositive": False})
    v = inst.constraint_values("arm")
    assert v == {"mix": 1.0, "softness": 7.0, "bend": -1.0, "stretch": 1.0, "compress": 0.0}
    assert inst.constraint_values("ik") == v
    with pytest.raises(openbone.OpenBoneError):
        inst.constraint_values("nope")


def test_constraint_order_hand_built():
    """§3.2: default ik, transform, path, physics; with any order, a stable sort
    by (order ?? index, index)."""
    def order_of(orders):
        sk = {"bones": [{"id": "a", "name": "a"}, {"id": "b", "name": "b"}],
              "ik": [{"id": "i0", "bones": ["a"], "target": "b"}, {"id": "i1", "bones": ["a"], "target": "b"}],
              "transform": [{"id": "t0", "bones": ["a"], "target": "b"}],
              "physics": [{"id": "p0", "bone": "a"}, {"id": "p1", "bone": "a"}]}
        for kind in ("ik", "transform", "physics"):
            for c in sk[kind]:
                if c["id"] in orders:
                    c["order"] = orders[c["id"]]
        inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))
        names = [c.id for c in inst.document.constraints]
        return [names[i] for i in inst.constraint_order]
    assert order_of({}) == ["i0", "i1", "t0", "p0", "p1"]
    # keys: i0 0, i1 1, t0 −1, p0 3, p1 4 → t0 first
    assert order_of({"t0": -1}) == ["t0", "i0", "i1", "p0", "p1"]
    # p1 order 1 ties with i1 (index 1): index breaks the tie (i1 index 1 < p1 index 4)
    assert order_of({"p1": 1}) == ["i0", "i1", "p1", "t0", "p0"]
    # i0 order 2.5 lands between t0 (2) and p0 (3)
    assert order_of({"i0": 2.5}) == ["i1", "t0", "i0", "p0", "p1"]
    # equal explicit orders keep default-list order (stable)
    assert order_of({"p1": 0, "p0": 0, "i1": 0}) == ["i0", "i1", "p0", "p1", "t0"]


def test_order_changes_the_result():
    """A transform that moves the IK target, before or after the IK."""
    def run(order):
        sk = {"bones": [{"id": "root", "name": "root"},
                        {"id": "a", "name": "a", "parent": "root", "length": 100},
                        {"id": "t", "name": "t", "x": 0, "y": 100},
                        {"id": "g", "name": "g", "x": 100, "y": 0}],
              "ik": [{"id": "ik", "bones": ["a"], "target": "t", "mix": 1}],
              "transform": [{"id": "tc", "bones": ["t"], "target": "g", "mixTranslate": 1}]}
        if order:
            sk["transform"][0]["order"] = -1
        return openbone.Instance(openbone.loads(json.dumps(make_doc(sk)))).world
    # IK first aims at (0, 100) (90°), then t moves; transform first: IK aims at (100, 0)
    assert rot(run(False)[1]) == pytest.approx(90)
    assert rot(run(True)[1]) == pytest.approx(0, abs=1e-9)
    assert np.allclose(run(False)[2][4:], [100, 0])
