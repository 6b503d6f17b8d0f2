"""§7.3 path constraints: bones placed on a straight path and on a circle,
positions worked out analytically here."""
import json
import math

import pytest

import openbone

from conftest import make_doc

K = 0.5522847498  # cubic bezier quarter-circle handle factor


def straight(length=300.0):
    """Two knots on the x axis with handles at thirds: B(t) = (length·t, 0), so
    arc length is linear in t and the table is exact."""
    h = length / 3
    return [-h, 0, 0, 0, h, 0, length - h, 0, length, 0, length + h, 0]


def circle(r):
    """4 knots counter-clockwise from (r, 0), in/anchor/out per knot."""
    v = []
    for (ax, ay), (tx, ty) in [((r, 0), (0, 1)), ((0, r), (-1, 0)), ((-r, 0), (0, -1)), ((0, -r), (1, 0))]:
        v += [ax - tx * K * r, ay - ty * K * r, ax, ay, ax + tx * K * r, ay + ty * K * r]
    return v


def rig(vertices, con, closed=False, lengths=(20, 30, 40), slot_bone=None, attachment=None, weights=None):
    bones = [{"id": "root", "name": "root"},
             dict({"id": "sb", "name": "sb", "parent": "root"}, **(slot_bone or {}))]
    parent = "root"
    names = []
    for i, ln in enumerate(lengths):
        bones.append({"id": "c%d" % i, "name": "c%d" % i, "parent": parent, "length": ln,
                      "x": 0 if i == 0 else lengths[i - 1]})
        parent = "c%d" % i
        names.append("c%d" % i)
    att = {"type": "path", "vertices": vertices, "closed": closed}
    if weights:
        att["weights"] = weights
    att.update(attachment or {})
    sk = {"bones": bones, "slots": [{"id": "s", "name": "s", "bone": "sb", "attachment": "p"}],
          "skins": [{"id": "skin_default", "name": "default", "attachments": {"s": {"p": att}}}]}
    c = {"id": "pc", "name": "path", "bones": names, "target": "s", "mixRotate": 1, "mixX": 1, "mixY": 1,
         "positionMode": "fixed", "spacingMode": "length", "rotateMode": "tangent", "position": 0, "spacing": 0}
    c.update(con)
    sk["path"] = [c]
    return openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))


def pos(m):
    return (m[4], m[5])


def rot(m):
    return math.degrees(math.atan2(m[2], m[0]))


def test_straight_path_length_spacing():
    inst = rig(straight(), {"position": 10, "spacing": 5})
    w = inst.world
    # dist = 10, 10 + 20 + 5, 35 + 30 + 5
    assert [pos(w[i]) for i in (2, 3, 4)] == [pytest.approx((10, 0)), pytest.approx((35, 0)), pytest.approx((70, 0))]
    assert [rot(w[i]) for i in (2, 3, 4)] == pytest.approx([0, 0, 0], abs=1e-9)


def test_straight_path_through_the_slot_bone():
    # slot bone at (5, 50) rotated 90°: the path runs up the y axis from (5, 50)
    inst = rig(straight(), {"position": 0.1, "positionMode": "percent", "spacingMode": "fixed", "spacing": 50},
               slot_bone={"x": 5, "y": 50, "rotation": 90})
    w = inst.world
    assert [pos(w[i]) for i in (2, 3, 4)] == [pytest.approx((5, 80), abs=1e-4), pytest.approx((5, 130), abs=1e-4),
                                              pytest.approx((5, 180), abs=1e-4)]
    assert rot(w[2]) == pytest.approx(90, abs=1e-4)


def test_open_path_extends_straight_past_the_ends():
    inst = rig(straight(), {"position": -25, "spacingMode": "fixed", "spacing": 175})
    w = inst.world
    # −25 before the start, then 150 (inside), then 325 = 25 past the end (300)
    assert [pos(w[i]) for i in (2, 3, 4)] == [pytest.approx((-25, 0)), pytest.approx((150, 0)),
                                              pytest.approx((325, 0))]


@pytest.mark.parametrize("mode,gaps", [
    ("fixed", [12, 12, 12]),
    ("percent", [30, 30, 30]),                        # 0.1·L with L = 300
    ("proportional", [20 / 90 * 30, 30 / 90 * 30, 40 / 90 * 30]),   # 0.1·L·lengths[i]/sum
])
def test_spacing_modes(mode, gaps):
    spacing = 12 if mode == "fixed" else 0.1
    inst = rig(straight(), {"position": 5, "spacingMode": mode, "spacing": spacing})
    xs = [inst.world[i][4] for i in (2, 3, 4)]
    assert xs == pytest.approx([5, 5 + gaps[0], 5 + gaps[0] + gaps[1]])


def test_mix_x_y():
    inst = rig(straight(), {"position": 100, "mixX": 0.5, "mixY": 0.5, "mixRotate": 0},
               slot_bone={"y": 40})
    # c0 at (0, 0) moves halfway to (100, 40)
    assert pos(inst.world[2]) == pytest.approx((50, 20))


@pytest.mark.parametrize("r", [50.0, 100.0])
def test_circle_anchors_and_midpoints(r):
    """The 4-knot circle passes through its anchors exactly, and by symmetry
    each quarter's arc-length midpoint is its bezier midpoint B(1/2) =
    r·(4 + 3K)/8 on both axes (radius r·1.000272)."""
    inst = rig(circle(r), {"positionMode": "percent", "position": 0.25, "spacingMode": "percent", "spacing": 0.125},
               closed=True, lengths=(10, 10, 10))
    w = inst.world
    m = r * (4 + 3 * K) / 8
    assert pos(w[2]) == pytest.approx((0, r), abs=1e-4)        # 1/4 of the way: anchor (0, r)
    assert pos(w[3]) == pytest.approx((-m, m), abs=1e-4)       # 3/8: the second quarter's midpoint
    assert pos(w[4]) == pytest.approx((-r, 0), abs=1e-4)       # 1/2: anchor (−r, 0)
    # tangent at (0, r) points along −x (counter-clockwise): 180°; at (−m, m): 225° ≡ −135°
    assert rot(w[2]) == pytest.approx(180, abs=1e-4)
    assert rot(w[3]) == pytest.approx(-135, abs=1e-4)
    assert rot(w[4]) == pytest.approx(-90, abs=1e-4)


def test_circle_positions_close_to_analytic_arc():
    r = 100.0
    inst = rig(circle(r), {"positionMode": "fixed", "position": 40, "spacingMode": "fixed", "spacing": 60},
               closed=True)
    L = 2 * math.pi * r   # the bezier circle's length is within 0.03 % of 2πr
    for k, i in enumerate((2, 3, 4)):
        s = 40 + 60 * k
        ang = s / r
        assert pos(inst.world[i]) == pytest.approx((r * math.cos(ang), r * math.sin(ang)), abs=0.05)
        # the bezier circle's tangent strays up to ~0.06° from the true circle's
        diff = (rot(inst.world[i]) - (math.degrees(ang) + 90) + 180) % 360 - 180
        assert diff == pytest.approx(0, abs=0.1)
    assert L == pytest.approx(628.3185, abs=1e-4)


def test_closed_path_wraps():
    a = rig(circle(50.0), {"positionMode": "percent", "position": 0.25}, closed=True, lengths=(10,))
    b = rig(circle(50.0), {"positionMode": "percent", "position": 1.25}, closed=True, lengths=(10,))
    c = rig(circle(50.0), {"positionMode": "percent", "position": -0.75}, closed=True, lengths=(10,))
    assert pos(a.world[2]) == pytest.approx(pos(b.world[2]), abs=1e-9)
    assert pos(a.world[2]) == pytest.approx(pos(c.world[2]), abs=1e-9)


def test_chain_and_chain_scale():
    # straight path, fixed spacing 50; bones of length 20/30/40 aim at the next point
    inst = rig(straight(), {"rotateMode": "chain", "spacingMode": "fixed", "spacing": 50}, slot_bone={})
    assert [rot(inst.world[i]) for i in (2, 3, 4)] == pytest.approx([0, 0, 0], abs=1e-9)
    inst = rig(straight(), {"rotateMode": "chainScale", "spacingMode": "fixed", "spacing": 50})
    # chainScale: each bone's world x axis ×(1 + (d/length − 1)·mixRotate) with d = 50; the
    # bones are a chain and later bones are read after earlier subtrees were recomputed,
    # so each inherits its parent's stretch first: 2.5, 2.5·50/30, 2.5·50/30·50/40
    assert [math.hypot(inst.world[i][0], inst.world[i][2]) for i in (2, 3, 4)] == pytest.approx(
        [2.5, 2.5 * 50 / 30, 2.5 * 50 / 30 * 50 / 40])


def test_constant_speed_false_uses_the_raw_parameter():
    # one segment from (0,0) to (90,0) with handles at (60,0) and (90,0): position
    # is not linear in t.  constantSpeed false: t = dist / L, point = B(t).
    v = [0, 0, 0, 0, 60, 0, 90, 0, 90, 0, 120, 0]
    inst = rig(v, {"position": 45}, attachment={"constantSpeed": False}, lengths=(10,))
    # B(0.5) = 0.125·0 + 0.375·60 + 0.375·90 + 0.125·90 = 67.5 (L = 90 exactly: monotone straight line)
    assert pos(inst.world[2]) == pytest.approx((67.5, 0), abs=1e-4)
    # constant speed (default): the 32-chord table interpolates linearly inside a
    # chord, so the distance is exact up to the chord error (~0.02 here)
    inst = rig(v, {"position": 45}, lengths=(10,))
    assert pos(inst.world[2]) == pytest.approx((45, 0), abs=0.05)


def test_weighted_path_vertices():
    # every vertex weighted 0.5 on the slot bone (sb, at y 10) and 0.5 on a bone at y 30:
    # the path runs at y 20
    bones_w = [[{"bone": "sb", "x": x, "y": 0, "weight": 0.5}, {"bone": "c0", "x": x, "y": 0, "weight": 0.5}]
               for x in straight()[0::2]]
    inst = rig(straight(), {"position": 10, "mixRotate": 0}, slot_bone={"y": 10}, weights=bones_w, lengths=(10, 10))
    # c0 is the first placed bone: its world is read as the path is built (before it moves), at (0, 0)
    assert pos(inst.world[2]) == pytest.approx((10, 5), abs=1e-4)


def test_skips():
    # the slot shows no path attachment / mixes all zero: nothing moves
    inst = rig(straight(), {"position": 10, "mixRotate": 0, "mixX": 0, "mixY": 0})
    assert pos(inst.world[2]) == pytest.approx((0, 0))
    inst = rig(straight(), {"position": 10}, attachment={"type": "boundingBox"})
    assert pos(inst.world[2]) == pytest.approx((0, 0))


def test_deform_offsets_move_the_path():
    """§8.3: deform offsets (by the attachment's name) are added to the path's
    vertices before the spline is built: (0, +10) on every vertex lifts the bones."""
    n = len(straight()) // 2
    anim = {"id": "lift", "name": "lift", "timelines": [
        {"target": "deform", "id": "s", "attachment": "p", "property": "offsets",
         "keys": [{"time": 0, "value": [0, 10] * n}]}]}
    bones = [{"id": "root", "name": "root"}, {"id": "sb", "name": "sb", "parent": "root"},
             {"id": "c0", "name": "c0", "parent": "root", "length": 20}]
    sk = {"bones": bones, "slots": [{"id": "s", "name": "s", "bone": "sb", "attachment": "p"}],
          "skins": [{"id": "skin_default", "name": "default",
                     "attachments": {"s": {"p": {"type": "path", "vertices": straight()}}}}],
          "path": [{"id": "pc", "bones": ["c0"], "target": "s", "mixRotate": 1, "mixX": 1, "mixY": 1,
                    "positionMode": "fixed", "position": 30}]}
    inst = openbone.Instance(openbone.loads(json.dumps(make_doc(sk, animations=[anim]))))
    assert pos(inst.world[2]) == pytest.approx((30, 0))
    inst.set_animation(0, "lift", True, 0)
    inst.advance(0.1)
    assert pos(inst.world[2]) == pytest.approx((30, 10), abs=1e-4)
