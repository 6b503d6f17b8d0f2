"""§8.8 particles: RNG and hash against hand-worked values, hand-stepped emitters.

Every expected number here is worked out by hand from the spec formulas (the
derivations are in the comments and in conformance/README.md "Particles"), never
printed by the code under test.
"""
import json
import math
import os
import sys

import numpy as np
import pytest

import openbone
from openbone import OpenBoneError
from openbone.particles import fnv1a, mulberry32

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracles import particle as po  # noqa: E402

STEP = 1 / 60
FIXTURE = os.path.join(os.path.dirname(HERE), "conformance", "fixtures", "particles.obone")

# ---- hand-worked hash and generator values -----------------------------------
# FNV-1a 32: h = 0x811c9dc5; per UTF-16 unit h = (h ^ unit) * 0x01000193 mod 2^32,
# computed as (x << 24) + x * 0x193 mod 2^32.
#  "a": x = 0x811c9dc5 ^ 0x61 = 0x811c9da4 -> 0xe40c292c (the published FNV-1a test vector)
#  "é" (U+00E9, one unit): x = 0x811c9d2c -> 0x6c0b6c44
#  "🔥fire": U+1F525 is the surrogate pair D83D DD25, then f i r e:
#     D83D: x = 0x811c45f8 -> 0x37822568;  DD25: x = 0x3782f84d -> 0xb02ce137
#     'f': x = 0xb02ce151 -> 0xa7a6b283;   'i': x = 0xa7a6b2ea -> 0xd56ba65e
#     'r': x = 0xd56ba62c -> 0x24769744;   'e': x = 0x24769721 -> 0x87afe8f3
FNV_HAND = {
    "": 0x811C9DC5,
    "a": 0xE40C292C,
    "foobar": 0xBF9CF968,  # published FNV-1a 32 test vector
    "fire": 0x8EAB16D9,
    "é": 0x6C0B6C44,
    "🔥fire": 0x87AFE8F3,
}

# mulberry32 next(), first two numbers: s += 0x6D2B79F5; t = imul(s ^ s>>>15, s | 1);
# t ^= t + imul(t ^ t>>>7, t | 61); (t ^ t>>>14) / 2^32.
#  seed 1: s = 0x6d2b79f6, t1 = 0x91517f60, t2 = 0xa08568e6, out 0xa087eaf3 -> 0.6270739405881613
#  seed 0: s = 0x6d2b79f5, t1 = 0xfe7ca5ff, t2 = 0x4435a4b4, out 0x4434b462 -> 0.26642920868471265
#  seed 0xffffffff: s wraps to 0x6d2b79f4, t1 = 0x91512c0a, t2 = 0xe5786632, out 0xe57bf3d3
MULBERRY_HAND = {
    0: (0x4434B462 / 2**32, 0x00159C37 / 2**32),
    1: (0xA087EAF3 / 2**32, 0x00B349C9 / 2**32),
    42: (0x99E1EF7C / 2**32, 0x72C32B8A / 2**32),
    0xFFFFFFFF: (0xE57BF3D3 / 2**32, 0x3081A5A4 / 2**32),
}


@pytest.mark.parametrize("text", list(FNV_HAND))
def test_fnv1a_hand(text):
    assert fnv1a(text) == FNV_HAND[text]
    assert po.fnv1a(text) == FNV_HAND[text]


def test_fnv1a_runs_over_utf16_not_utf8():
    utf8 = 0x811C9DC5
    for b in "🔥fire".encode("utf-8"):
        utf8 = ((utf8 ^ b) * 0x01000193) & 0xFFFFFFFF
    assert utf8 != FNV_HAND["🔥fire"]


@pytest.mark.parametrize("seed", list(MULBERRY_HAND))
def test_mulberry32_hand(seed):
    got = mulberry32(seed, 2)
    assert got[0] == MULBERRY_HAND[seed][0] and got[1] == MULBERRY_HAND[seed][1]
    r = po.Mulberry32(seed)
    assert (r.next(), r.next()) == MULBERRY_HAND[seed]


def test_mulberry32_published_value():
    # the widely published first output of mulberry32(1)
    assert mulberry32(1, 1)[0] == 0.6270739405881613


def test_mulberry32_range_in_unit_interval():
    v = mulberry32(123456789, 10000)
    assert v.min() >= 0 and v.max() < 1
    assert abs(v.mean() - 0.5) < 0.02


# ---- documents for hand-stepped tests ------------------------------------------

def make_doc(att, slot_name="emitter", bone=None, extra_skins=(), atlas=None, images=None):
    bone = dict({"id": "b1", "name": "b1", "parent": "b0", "x": 10, "y": 20}, **(bone or {}))
    doc = {
        "format": "openbone", "version": 1, "name": "t",
        "skeleton": {
            "bones": [{"id": "b0", "name": "root"}, bone],
            "slots": [{"id": "s1", "name": slot_name, "bone": "b1", "attachment": "p"},
                      {"id": "s2", "name": "plain", "bone": "b0", "attachment": None}],
            "skins": [{"id": "default", "name": "default", "attachments": {"s1": {"p": dict(att, type="particles")}}}]
            + list(extra_skins),
        },
        "animations": [],
    }
    if atlas:
        doc["atlas"] = atlas
    if images:
        doc["images"] = images
    return openbone.loads(json.dumps(doc))


FIXED = {  # every range [a, a], angle 0: no randomness reaches the particle
    "shape": "point", "angle": 0, "rotation": 90, "rate": 0, "emitting": True,
    "lifetime": [0.555, 0.555], "speed": [30, 30], "startSize": [10, 10], "endSize": [10, 10],
    "colors": [{"t": 0, "color": "#ffffffff"}], "look": "square",
}


def run(inst, n, dt=STEP):
    for _ in range(n):
        inst.advance(dt)


def test_single_particle_matches_analytic_trajectory():
    g = 40.0
    inst = openbone.Instance(make_doc(dict(FIXED, gravity=g)))
    inst.emit_particles("emitter", 1)
    h = STEP
    v0 = 30.0
    for n in range(1, 35):
        inst.advance(h)
        st = inst.particle_state("emitter")
        assert len(st["ages"]) == 1
        # spawned at step 1 with preAge 0 at the bone origin (10, 20) + (x, y) = (10, 20); the
        # spawn step does not move it.  After k further steps (semi-implicit Euler):
        #   vy_k = v0 - k g h ;  y_k = 20 + sum_{j=1..k} vy_j h = 20 + k v0 h - g h^2 k(k+1)/2
        k = n - 1
        vy = v0 - k * g * h
        y = 20 + k * v0 * h - g * h * h * k * (k + 1) / 2
        x = 10 + math.cos(math.pi / 2) * v0 * h * k  # cos(90°) is 6e-17, not 0
        assert st["velocities"][0][1] == pytest.approx(vy, abs=1e-3)
        assert st["positions"][0][1] == pytest.approx(y, abs=1e-3)
        assert st["positions"][0][0] == pytest.approx(x, abs=1e-4)
        assert st["ages"][0] == pytest.approx(k * h, abs=1e-5)
    # life 0.555: alive at age 33h = 0.55 (step 34), dropped when age reaches 34h = 0.5667
    inst.advance(h)
    assert inst.particle_counts[0] == 0 and len(inst.particle_state("emitter")["ages"]) == 0


def test_single_particle_with_drag_matches_geometric_series():
    drag = 3.0
    inst = openbone.Instance(make_doc(dict(FIXED, drag=drag, rotation=0)))
    inst.emit_particles("emitter", 1)
    h = STEP
    damp = math.exp(-drag * h)
    inst.advance(h)
    for k in range(1, 20):
        inst.advance(h)
        st = inst.particle_state("emitter")
        # vx_k = 30 damp^k ; x_k = 10 + 30 h sum_{j=1..k} damp^j = 10 + 30 h damp (1 - damp^k)/(1 - damp)
        assert st["velocities"][0][0] == pytest.approx(30 * damp ** k, abs=1e-4)
        assert st["positions"][0][0] == pytest.approx(10 + 30 * h * damp * (1 - damp ** k) / (1 - damp), abs=1e-3)
        assert st["positions"][0][1] == pytest.approx(20, abs=1e-9)


def test_single_particle_quad_by_hand():
    # square look, no atlas: texture null, unit uvs; size 10 constant, angle 0:
    # U = (5, 0), V = perp(U)/|U| * 5 = (0, 5); TL = pos - U + V ...
    inst = openbone.Instance(make_doc(dict(FIXED, gravity=0)))
    inst.emit_particles("emitter", 1)
    inst.advance(STEP)
    inst.advance(0.01)  # no step (acc = frac + 0.01 < STEP): frac moves the drawn quad
    frac = inst.particle_frac
    assert frac == pytest.approx(0.01, abs=1e-9)
    (item,) = inst.particle_items()
    x, y = 10.0, 20 + 30 * frac  # pos + vel * frac
    assert item.texture is None
    np.testing.assert_allclose(item.vertices, [x - 5, y + 5, x + 5, y + 5, x + 5, y - 5, x - 5, y - 5], atol=1e-4)
    np.testing.assert_array_equal(item.uvs, [0, 0, 1, 0, 1, 1, 0, 1])
    np.testing.assert_array_equal(item.indices, [0, 1, 2, 0, 2, 3])
    np.testing.assert_allclose(item.colors, [1, 1, 1, 1] * 4)
    c = item.conformance()
    assert c["type"] == "particles" and c["blend"] == "normal" and c["slot"] == "emitter" and c["attachment"] == "p"


def test_spark_quad_by_hand():
    # spark: sp = |vel| = 30, len = size/2 + sp*stretch/2 = 5 + 30*0.1/2 = 6.5 along the
    # velocity (90°); V = perp(U)/|U| * 5 = (-5, 0)
    inst = openbone.Instance(make_doc(dict(FIXED, look="spark", stretch=0.1)))
    inst.emit_particles("emitter", 1)
    inst.advance(STEP)
    (item,) = inst.particle_items()
    frac = inst.particle_frac
    x, y = 10.0, 20 + 30 * frac
    assert item.texture == "@openbone/particle-dot"
    np.testing.assert_allclose(item.vertices, [x - 5, y - 6.5, x - 5, y + 6.5, x + 5, y + 6.5, x + 5, y - 6.5],
                               atol=1e-3)


def test_local_space_size_scale_and_gravity_axis():
    # local space on a bone rotated 90° and scaled 2: gravity acts along bone-space -y,
    # drawn size = 10 * sqrt(|det|) = 20, positions through the bone matrix
    att = dict(FIXED, space="local", gravity=60, speed=[0, 0], rotation=0)
    inst = openbone.Instance(make_doc(att, bone={"rotation": 90, "scaleX": 2, "scaleY": 2}))
    inst.emit_particles("emitter", 1)
    run(inst, 4)
    st = inst.particle_state("emitter")
    # bone space: vy_k = -60 k h, y_k = -60 h^2 k(k+1)/2 with k = 3
    k = 3
    assert st["positions"][0][1] == pytest.approx(-60 * STEP * STEP * k * (k + 1) / 2, abs=1e-4)
    assert st["positions"][0][0] == pytest.approx(0, abs=1e-6)
    (item,) = inst.particle_items()
    v = np.asarray(item.vertices).reshape(4, 2)
    side = np.linalg.norm(v[1] - v[0])
    assert side == pytest.approx(20, abs=1e-3)
    # world: bone (rot 90, scale 2) maps bone-space (0, y) to (10 - 2y, 20)
    frac = inst.particle_frac
    yb = st["positions"][0][1] + st["velocities"][0][1] * frac
    centre = v.mean(axis=0)
    assert centre[0] == pytest.approx(10 - 2 * yb, abs=1e-3)
    assert centre[1] == pytest.approx(20, abs=1e-3)


# ---- clock ---------------------------------------------------------------------

def test_clock_steps_and_frac():
    inst = openbone.Instance(make_doc(dict(FIXED, rate=0)))
    # dt 0.01: acc 0.01 -> n 0, frac 0.01 ; then acc 0.02 -> n 1, frac 0.02 - 1/60
    inst.advance(0.01)
    assert inst.particle_state("emitter") is None  # no step yet: no emitter
    assert inst.particle_frac == pytest.approx(0.01)
    inst.advance(0.01)
    assert inst.particle_state("emitter")["steps"] == 1
    assert inst.particle_frac == pytest.approx(0.02 - STEP)
    # dt 0.7: acc = 0.7 + 0.00333 -> n = 42, only 30 steps; frac = clamp(acc - 42/60) = 0.00333
    inst.advance(0.7)
    assert inst.particle_state("emitter")["steps"] == 31
    assert inst.particle_frac == pytest.approx(0.02 + 0.7 - 43 * STEP, abs=1e-9)
    inst.advance(0)  # dt 0: nothing pending, no step
    assert inst.particle_state("emitter")["steps"] == 31


def test_clock_exact_sixtieths():
    inst = openbone.Instance(make_doc(dict(FIXED, rate=0)))
    for _ in range(600):
        inst.advance(1 / 60)
    # floor(acc/STEP + 1e-6) absorbs the rounding of the summed frac: one step a frame
    assert inst.particle_state("emitter")["steps"] == 600


# ---- bursts, wrap rule, prewarm, cap ------------------------------------------------

BURSTS = [{"time": 0, "count": 6}, {"time": 0.005, "count": 2}, {"time": 0.3, "count": 3},
          {"time": 0.6, "count": 9}]


def counts_per_step(att, n):
    inst = openbone.Instance(make_doc(att))
    out = []
    for _ in range(n):
        inst.advance(STEP)
        out.append(int(inst.particle_counts[0]))
    return out


def test_bursts_wrap_rule_loop():
    # duration 0.51, h = 1/60 (hand): step 1 covers [0, 1/60): bursts 0 and 0.005 -> 8.
    # step 19 starts at 18/60 = 0.3 -> +3 = 11.  step 31: [0.5, 0.5167) wraps, rest = 0.00667:
    # bursts 0 and 0.005 < rest fire -> 19; cycle = 0.00667.  burst 0.3: start 0.00667 + j/60 <= 0.3
    # < +1/60 -> j = 17 -> step 49 -> 22.  next wrap when 0.00667 + (j+1)/60 >= 0.51 -> j = 30,
    # step 62 (rest 0.01333) -> 30.  0.6 > duration never fires.
    att = dict(FIXED, lifetime=[100, 100], bursts=BURSTS, duration=0.51, loop=True, maxParticles=1000)
    c = counts_per_step(att, 70)
    expect = {1: 8, 18: 8, 19: 11, 30: 11, 31: 19, 48: 19, 49: 22, 61: 22, 62: 30, 70: 30}
    for step, n in expect.items():
        assert c[step - 1] == n, (step, c)


def test_bursts_no_loop():
    # loop false: step 31 wraps but the wrap rule needs loop; cycle = duration, inactive after
    att = dict(FIXED, lifetime=[100, 100], bursts=BURSTS, duration=0.51, loop=False, rate=30)
    c = counts_per_step(att, 70)
    assert c[0] == 8 and c[18] > c[17] and c[-1] == c[31]


def test_max_particles_cap():
    att = dict(FIXED, lifetime=[100, 100], bursts=[{"time": 0, "count": 50}], maxParticles=12)
    c = counts_per_step(att, 3)
    assert c == [12, 12, 12]


def test_prewarm_runs_a_cycle():
    # duration 0.5: ceil(0.5/h - 1e-6) = 30 prewarm advances before the first step's own,
    # so after one frame the oldest particle has aged 30 steps (0.5 s)
    att = dict(FIXED, rate=60, lifetime=[2, 2], prewarm=True, duration=0.5, loop=True)
    inst = openbone.Instance(make_doc(att))
    inst.advance(STEP)
    st = inst.particle_state("emitter")
    assert st["ages"].max() == pytest.approx(30 * STEP, abs=1e-4)
    assert 29 <= len(st["ages"]) <= 31
    # no prewarm without loop
    inst = openbone.Instance(make_doc(dict(att, loop=False)))
    inst.advance(STEP)
    assert inst.particle_state("emitter")["ages"].max() < 2 * STEP


def test_streamed_spawns_pre_aged():
    # rate 180 at h = 1/60: acc += 3 per step (floor may see 2.9999): ns spawns with
    # preAge (1 - k) h, k = (i + 1)/ns -> ages {2h/3, h/3, 0} on the first step
    att = dict(FIXED, rate=180.5, lifetime=[5, 5])
    inst = openbone.Instance(make_doc(att))
    inst.advance(STEP)
    ages = inst.particle_state("emitter")["ages"]
    assert len(ages) == 3
    np.testing.assert_allclose(ages, [2 * STEP / 3, STEP / 3, 0], atol=1e-6)


# ---- actions -------------------------------------------------------------------------

def test_set_emitter_restart_replays_bursts():
    att = dict(FIXED, emitting=False, loop=False, duration=0.3, lifetime=[100, 100],
               bursts=[{"time": 0.1, "count": 3}])
    inst = openbone.Instance(make_doc(att))
    run(inst, 30)
    assert inst.particle_counts[0] == 0
    inst.set_emitter("emitter", True)  # previous value: the attachment's emitting (off) -> restart
    run(inst, 30)  # burst at 0.1 fires once, then the cycle ends at 0.3
    assert inst.particle_counts[0] == 3
    inst.set_emitter("emitter", True)  # previous value on: no restart
    run(inst, 30)
    assert inst.particle_counts[0] == 3
    inst.set_emitter("emitter", False)
    inst.set_emitter("emitter", True)  # off -> on in the same frame: restart, bursts replay
    run(inst, 30)
    assert inst.particle_counts[0] == 6


def test_set_emitter_off_stops_emission_each_frame():
    att = dict(FIXED, rate=60.5, lifetime=[100, 100])
    inst = openbone.Instance(make_doc(att))
    inst.set_emitter("emitter", False)
    run(inst, 20)
    assert inst.particle_counts[0] == 0
    inst.set_emitter("emitter", True)
    run(inst, 10)
    assert inst.particle_counts[0] == 10


def test_emit_particles_pending_until_next_step():
    inst = openbone.Instance(make_doc(dict(FIXED, lifetime=[100, 100])))
    inst.emit_particles("emitter", 4)
    inst.advance(0.005)  # no particle step: still pending
    assert inst.particle_counts[0] == 0
    inst.advance(0.012)  # one step
    assert inst.particle_counts[0] == 4
    inst.emit_particles("emitter", 2)
    inst.emit_particles("emitter", 1)
    inst.advance(STEP)
    assert inst.particle_counts[0] == 7


def test_unknown_slot_raises():
    inst = openbone.Instance(make_doc(FIXED))
    with pytest.raises(OpenBoneError):
        inst.emit_particles("nope", 1)
    with pytest.raises(OpenBoneError):
        inst.set_emitter("nope", True)


def test_slot_without_particles_has_no_emitter():
    inst = openbone.Instance(make_doc(FIXED))
    inst.emit_particles("plain", 3)  # kept pending, harmless
    run(inst, 3)
    assert inst.particle_state("plain") is None
    assert list(inst.particle_counts) == [0, 0]


# ---- emitter lifetime: skins, inactive bones --------------------------------------------

def test_attachment_change_creates_new_emitter_and_inactive_bone_freezes():
    # b1 is listed by skins "gated" and "other" only: under no skin or "default" it is inactive
    other = {"id": "other", "name": "other", "bones": ["b1"],
             "attachments": {"s1": {"p": dict(FIXED, type="particles", seed=9, lifetime=[100, 100])}}}
    gated = {"id": "gated", "name": "gated", "bones": ["b1"], "attachments": {}}
    inst = openbone.Instance(make_doc(dict(FIXED, lifetime=[100, 100]), extra_skins=[other, gated]))
    inst.emit_particles("emitter", 5)
    run(inst, 2)
    assert inst.particle_state("emitter") is None  # inactive from the start: never stepped
    inst.set_skin("gated")  # active; "p" from the first skin (fallback)
    run(inst, 2)
    assert inst.particle_counts[0] == 5  # the pending emit waited for the first active step
    inst.set_skin("other")  # same name, a different attachment object: new emitter
    run(inst, 1)
    assert inst.particle_counts[0] == 0
    inst.emit_particles("emitter", 2)
    run(inst, 1)
    assert inst.particle_counts[0] == 2
    steps = inst.particle_state("emitter")["steps"]
    inst.set_skin("default")  # b1 inactive: frozen, emitter kept, not drawn
    inst.emit_particles("emitter", 3)
    run(inst, 10)
    st = inst.particle_state("emitter")
    assert st["steps"] == steps and len(st["ages"]) == 2
    assert inst.particle_items() == []
    inst.set_skin("other")
    run(inst, 1)
    assert inst.particle_state("emitter")["steps"] == steps + 1
    assert inst.particle_counts[0] == 5  # the pending 3 used at the first active step


def test_seed_mixes_slot_name():
    # two emitters with the same seed on differently named slots emit different directions;
    # the first number drawn is between(-half, half) = -half + 2 half * next()
    att = dict(FIXED, angle=90, rotation=0, speed=[10, 10], seed=4242)
    a = openbone.Instance(make_doc(att, slot_name="🔥fire"))
    a.emit_particles("🔥fire", 1)
    a.advance(STEP)
    vel = a.particle_state("🔥fire")["velocities"][0]
    seed = (4242 ^ FNV_HAND["🔥fire"]) & 0xFFFFFFFF  # = 0x87afe8f3 ^ 0x1092 = 0x87aff861
    assert seed == 0x87AFF861
    u = mulberry32(seed, 1)[0]
    ang = math.radians(-45 + 90 * u)
    np.testing.assert_allclose(vel, [10 * math.cos(ang), 10 * math.sin(ang)], atol=1e-5)


# ---- fixture geometry details -----------------------------------------------------------

def fixture_instance():
    return openbone.Instance(openbone.load(FIXTURE))


def test_fixture_uvs_rotated_region_and_white_block():
    inst = fixture_instance()
    run(inst, 12)
    items = {it.slot: it for it in inst.particle_items()}
    # smoke: region x 4, y 6, w 32, h 24, rotated, page 128 x 64 (§8.7 rotated):
    # u' = (4 + 24)/128 - v*24/128 ; v' = 6/64 + u*32/64
    # TL(0,0) -> (0.21875, 0.09375)  TR(1,0) -> (0.21875, 0.59375)
    # BR(1,1) -> (0.03125, 0.59375)  BL(0,1) -> (0.03125, 0.09375)
    sm = items["smoke"]
    assert sm.texture == "page_fx" and sm.blend == "screen"
    np.testing.assert_allclose(sm.uvs[:8], [0.21875, 0.09375, 0.21875, 0.59375, 0.03125, 0.59375, 0.03125, 0.09375])
    # ring (square look): white block x 100, y 40, 4 x 4 -> centre (102/128, 42/64)
    ring = items["ring"]
    assert ring.texture == "page_fx"
    np.testing.assert_allclose(ring.uvs, [0.796875, 0.65625] * (len(ring.uvs) // 2))
    assert items["sparks"].texture == "@openbone/particle-dot" and items["sparks"].blend == "additive"
    # fire: slot colour #ffffffcc tints alpha by 0.8
    fire = items["🔥fire"]
    assert fire.color[3] == pytest.approx(0.8)
    assert np.all(np.asarray(fire.colors)[3::4] <= 0.8 + 1e-6)
    assert inst.particle_growths == 0


def test_unsorted_gradient_sorted_at_use():
    # stops given as t = 1, 0, 0.5 -> sorted 0 (red), 0.5 (green), 1 (blue); a particle with
    # life 1 drawn at age 0.25 (+frac) has t ~ 0.25: halfway red -> green
    att = dict(FIXED, lifetime=[1, 1], look="circle", speed=[0, 0],
               colors=[{"t": 1, "color": "#0000ffff"}, {"t": 0, "color": "#ff0000ff"},
                       {"t": 0.5, "color": "#00ff00ff"}])
    inst = openbone.Instance(make_doc(att))
    inst.emit_particles("emitter", 1)
    run(inst, 16)  # spawned at step 1, aged 15 steps = 0.25
    (item,) = inst.particle_items()
    t = 0.25 + inst.particle_frac
    r, g, b, a = item.colors[:4]
    assert r == pytest.approx(1 - 2 * t, abs=1e-4) and g == pytest.approx(2 * t, abs=1e-4) and b == 0 and a == 1


def test_draw_cap_16383():
    att = dict(FIXED, lifetime=[100, 100], bursts=[{"time": 0, "count": 20000}], maxParticles=20000,
               look="circle")
    inst = openbone.Instance(make_doc(att))
    inst.advance(STEP)
    assert inst.particle_counts[0] == 20000
    (item,) = inst.particle_items()
    assert len(item.vertices) == 16383 * 8 and len(item.indices) == 16383 * 6
    assert item.indices[-1] == 4 * 16382 + 3


def test_image_look_missing_image_draws_nothing():
    inst = openbone.Instance(make_doc(dict(FIXED, look="image", image="img_none")))
    inst.emit_particles("emitter", 2)
    inst.advance(STEP)
    assert inst.particle_counts[0] == 2
    assert inst.particle_items() == []


def test_loose_image_texture_unit_uvs():
    images = [{"id": "img_a", "name": "a", "src": "a.png", "width": 8, "height": 8}]
    inst = openbone.Instance(make_doc(dict(FIXED, look="image", image="img_a"), images=images))
    inst.emit_particles("emitter", 1)
    inst.advance(STEP)
    (item,) = inst.particle_items()
    assert item.texture == "img_a"
    np.testing.assert_array_equal(item.uvs, [0, 0, 1, 0, 1, 1, 0, 1])


def test_negative_burst_breaks_the_bound_safely():
    # JS semantics: nb = min(-5, room) = -5 spawns nothing, ns = min(streamed, room - nb) lets the
    # stream exceed maxParticles: the buffer grows (counted), the item stays within its buffers
    att = dict(FIXED, lifetime=[100, 100], bursts=[{"time": 0, "count": -5}], rate=600.5, maxParticles=4)
    inst = openbone.Instance(make_doc(att))
    inst.advance(STEP)
    assert inst.particle_counts[0] == 9  # streamed 10, room - nb = 4 + 5 = 9
    assert inst.particle_growths >= 1
    (item,) = inst.particle_items()
    assert len(item.vertices) <= 8 * 9


def test_nan_emit_count_spawns_nothing():
    inst = openbone.Instance(make_doc(dict(FIXED, lifetime=[100, 100])))
    inst.emit_particles("emitter", float("nan"))  # JS: min(NaN, room) = NaN, i < NaN is false
    inst.advance(STEP)
    assert inst.particle_counts[0] == 0
