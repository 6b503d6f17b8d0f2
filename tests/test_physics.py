"""§7.4 physics: a spring stepped by hand, settling to rest, the step cap, the
state's lifetime (setup pose, reset, skins) and the trace helper."""
import json
import math

import numpy as np
import pytest

import openbone

from conftest import make_doc


def rig(phys=None, bone=None, reference_scale=None, skins=None):
    bones = [{"id": "root", "name": "root"},
             dict({"id": "b", "name": "b", "parent": "root", "length": 10}, **(bone or {}))]
    c = {"id": "ph", "name": "spring", "bone": "b", "x": 1, "y": 1, "rotate": 0, "scaleX": 0, "inertia": 1,
         "strength": 100, "damping": 0, "mass": 1, "gravity": 0, "wind": 0, "mix": 1, "fps": 16}
    c.update(phys or {})
    sk = {"bones": bones, "physics": [c]}
    if reference_scale is not None:
        sk["referenceScale"] = reference_scale
    if skins:
        sk["skins"] = skins
    return openbone.Instance(openbone.loads(json.dumps(make_doc(sk))))


def test_first_call_at_rest():
    inst = rig()
    s = inst.physics_state("spring")
    assert s["origin"] == (0, 0, 0, 0, 0, 0)
    assert s["tip"] == (10, 0, 0, 0, 10, 0)
    assert s["time"] == 0 and s["steps"] == 0


def test_spring_three_steps_by_hand():
    """fps 16: h = 1/16 = 0.0625 (every number below is exact in binary).
    k = min(strength/mass, 1/h²) = min(100, 256) = 100; damping 0 ⇒ decay 1;
    inertia 1 ⇒ carry 0: the particles stay where they were when the bone
    moves to x = 1.  step: vx = (vx + (gx − x)·k·h)·decay; x += vx·h

      step 1: vx = 0 + (1 − 0)·100·0.0625 = 6.25;              x = 0 + 6.25·0.0625 = 0.390625
      step 2: vx = 6.25 + (1 − 0.390625)·6.25 = 10.05859375;    x = 0.390625 + 10.05859375·0.0625 = 1.019287109375
      step 3: vx = 10.05859375 + (1 − 1.019287109375)·6.25 = 9.93804931640625;
              x = 1.019287109375 + 9.93804931640625·0.0625 = 1.640415191650390625

    After each whole step f = time/h − steps = 0, so the bone shows the previous
    position S = px (x mix 1): 0, 0.390625, 1.019287109375.  The tip (goal (11, 0))
    follows the same numbers shifted by 10."""
    inst = rig()
    inst.set_local_pose("b", (1, 0, 0, 1, 1, 0, 0))
    want = [(6.25, 0.390625, 0.0), (10.05859375, 1.019287109375, 0.390625),
            (9.93804931640625, 1.640415191650390625, 1.019287109375)]
    for vx, x, shown in want:
        inst.skeleton_update(0.0625)
        inst.update_world_transform()
        s = inst.physics_state("spring")
        assert s["origin"][2] == vx and s["origin"][0] == x
        assert s["tip"][2] == vx and s["tip"][0] == 10 + x
        assert s["origin"][1] == 0 and s["origin"][3] == 0
        assert inst.world[1][4] == shown
    # half a step later: no new step (due = floor(3.5 + 1e-6) = 3), f = 0.5:
    # S = px + (x − px)·0.5 = 1.019287109375 + 0.621128082275390625·0.5
    inst.skeleton_update(0.03125)
    inst.update_world_transform()
    assert inst.physics_state("spring")["steps"] == 3
    assert inst.world[1][4] == pytest.approx(1.3298511505126953, abs=1e-15)


def test_inertia_zero_carries_the_particles():
    # inertia 0 ⇒ carry 1: the particles move with the bone, nothing springs
    inst = rig({"inertia": 0})
    inst.set_local_pose("b", (5, 2, 0, 1, 1, 0, 0))
    for _ in range(5):
        inst.skeleton_update(0.0625)
        inst.update_world_transform()
    s = inst.physics_state("spring")
    assert s["origin"][:2] == (5, 2) and s["origin"][2:4] == (0, 0)
    assert (inst.world[1][4], inst.world[1][5]) == (5, 2)


def test_gravity_settles_to_rest():
    """At rest v = 0 ⇒ (gy − y)·k = gravity ⇒ y = gy − gravity/k.  strength 100,
    mass 1 ⇒ k = 100; gravity 50 (usY = 1) ⇒ the origin hangs 0.5 below."""
    inst = rig({"gravity": 50, "damping": 5, "fps": 60})
    for _ in range(600):
        inst.advance(1 / 60)
    s = inst.physics_state("spring")
    assert s["origin"][1] == pytest.approx(-0.5, abs=1e-9)
    assert s["origin"][3] == pytest.approx(0, abs=1e-9)
    assert inst.world[1][5] == pytest.approx(-0.5, abs=1e-9)
    assert inst.world[1][4] == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("reference_scale,offset", [(200, -1.0), (50, -0.25)])
def test_unit_scale_multiplies_gravity(reference_scale, offset):
    inst = rig({"gravity": 50, "damping": 5, "fps": 60}, reference_scale=reference_scale)
    for _ in range(600):
        inst.advance(1 / 60)
    assert inst.world[1][5] == pytest.approx(offset, abs=1e-9)


def test_wind_settles_sideways():
    # (gx − x)·k + wind = 0 ⇒ x = wind / k = 20 / 100
    inst = rig({"wind": 20, "damping": 5, "fps": 60})
    for _ in range(600):
        inst.advance(1 / 60)
    assert inst.world[1][4] == pytest.approx(0.2, abs=1e-9)


def test_rotate_follows_the_tip():
    # only rotate: the tip hangs 0.5 below (10, 0) at rest ⇒ the bone turns by atan2(−0.5, 10)
    inst = rig({"gravity": 50, "damping": 5, "fps": 60, "x": 0, "y": 0, "rotate": 1})
    for _ in range(600):
        inst.advance(1 / 60)
    w = inst.world[1]
    assert (w[4], w[5]) == (0, 0)
    assert math.degrees(math.atan2(w[2], w[0])) == pytest.approx(math.degrees(math.atan2(-0.5, 10)), abs=1e-7)


def test_scale_x_stretches_to_the_tip():
    # x and y off, scaleX 1, rotate 0: tip at (10, −0.5): d = hypot(10, 0.5), rest 10
    inst = rig({"gravity": 50, "damping": 5, "fps": 60, "x": 0, "y": 0, "rotate": 0, "scaleX": 1})
    for _ in range(600):
        inst.advance(1 / 60)
    w = inst.world[1]
    assert math.hypot(w[0], w[2]) == pytest.approx(math.hypot(10, 0.5) / 10, abs=1e-9)


def test_step_cap_drops_excess():
    inst = rig({"fps": 60})
    inst.advance(0.5)          # due = floor(30 + 1e-6) = 30 > 8 ⇒ steps = 22, 8 run
    s = inst.physics_state("spring")
    assert s["steps"] == 30 and s["time"] == 0.5


def test_mix_zero_still_advances_state():
    inst = rig({"mix": 0, "gravity": 50, "fps": 60})
    for _ in range(10):
        inst.advance(1 / 60)
    s = inst.physics_state("spring")
    assert s["steps"] == 10 and s["origin"][1] < 0
    assert inst.world[1][5] == 0


def test_state_survives_setup_pose_and_resets():
    inst = rig({"gravity": 50, "fps": 60})
    for _ in range(5):
        inst.advance(1 / 60)
    before = inst.physics_state("spring")
    inst.set_to_setup_pose()
    assert inst.physics_state("spring") == before
    inst.reset_physics()
    assert inst.physics_state("spring") is None
    inst.update_world_transform()  # the next call starts at rest
    s = inst.physics_state("spring")
    assert s["origin"] == (0, 0, 0, 0, 0, 0) and s["steps"] == 0


def test_skin_only_physics_does_not_advance_while_off():
    """§3.3: an inactive constraint is skipped (state untouched) while the
    frame's dt is still consumed."""
    skins = [{"id": "skin_default", "name": "default", "attachments": {}},
             {"id": "skin_hero", "name": "hero", "attachments": {}, "constraints": ["ph"]}]
    inst = rig({"gravity": 50, "fps": 60}, skins=skins)
    assert inst.physics_state("spring") is None          # never ran: no skin
    for _ in range(5):
        inst.advance(1 / 60)
    assert inst.physics_state("spring") is None
    inst.set_skin("hero")
    for _ in range(3):
        inst.advance(1 / 60)
    s = inst.physics_state("spring")
    # first call at rest (dt 1/60 then added), 3 steps: the 5 skipped frames are not owed
    assert s["steps"] == 3 and s["time"] == pytest.approx(3 / 60)
    inst.set_skin(None)
    for _ in range(4):
        inst.advance(1 / 60)
    assert inst.physics_state("spring") == s
    inst.set_skin("hero")
    inst.advance(1 / 60)
    assert inst.physics_state("spring")["steps"] == 4


def test_trace_physics_records_every_advance():
    inst = rig({"gravity": 50, "fps": 60})
    other = rig({"gravity": 50, "fps": 60})
    tr = inst.trace_physics(1 / 60, 20)
    assert tr["origin"].shape == (20, 1, 4) and tr["tip"].shape == (20, 1, 4)
    assert tr["world"].shape == (20, 1, 6) and tr["time"].shape == (20,)
    assert tr["names"] == ["spring"]
    for k in range(20):
        other.advance(1 / 60)
        s = other.physics_state("spring")
        assert np.array_equal(tr["origin"][k, 0], s["origin"][:4])
        assert np.array_equal(tr["tip"][k, 0], s["tip"][:4])
        assert np.array_equal(tr["world"][k, 0], other.world[1])
    tr2 = inst.trace_physics(1 / 60, 3, constraint="spring")
    assert tr2["origin"].shape == (3, 1, 4)
    with pytest.raises(openbone.OpenBoneError):
        inst.trace_physics(1 / 60, 3, constraint="nope")
