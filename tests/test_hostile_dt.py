"""Issue 21 item 1: huge, non-finite and negative time steps (NOTES §5.2, §12; README "Limits").

* advance(dt) refuses NaN, ±inf and |dt| > 1e9 s with OpenBoneError and leaves the instance as
  it was; bake does the same before advancing.
* §5.2 looping events: a key fires once per cycle crossed (exactly the spec's rule) up to 100
  times per key per advance; one call is O(1) per key whatever dt or speed is.
* physics and state machines stay finite after enormous steps and speeds.

Whatever could hang runs in a subprocess with a generous timeout (never a timing assertion)."""
import json
import math
import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import numpy as np
import pytest

import openbone
from oracles.sm_helpers import anim, doc, inst, layer, state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "conformance", "fixtures")


def run_isolated(code, timeout=120):
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       timeout=timeout, cwd=os.path.dirname(os.path.abspath(__file__)))
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def walk():
    i = openbone.Instance(openbone.load(os.path.join(FIX, "animation.obone")))
    i.set_animation(0, "walk", True)  # 1 s loop, event keys at 0 and 0.5
    return i


@pytest.mark.parametrize("dt", [math.nan, math.inf, -math.inf, 1e300, -1e300, 1e9 * (1 + 2 ** -40), 10 ** 400])
def test_advance_refuses_non_finite_and_enormous_dt_and_changes_nothing(dt):
    i = walk()
    i.advance(0.25)
    world, t = i.world.copy(), i.time
    with pytest.raises(openbone.OpenBoneError, match="dt|out of range"):
        i.advance(dt)
    assert i.time == t and np.array_equal(i.world, world)
    with pytest.raises(openbone.OpenBoneError, match="dt|out of range"):
        i.bake(dt, 3)
    assert i.time == t
    i.advance(0.25)  # and it goes on
    assert i.time == 0.5


def test_wrong_types_for_dt_are_type_errors():
    i = walk()
    for bad in ([1], "0.1", None):
        with pytest.raises(TypeError):
            i.advance(bad)


def expected_crossings(prev, nxt, d, k):
    """§5.2 by exact rational arithmetic: cycles c in [floor(prev/d), floor(next/d)] with
    prev < c·d + k <= next (the test's own count, independent of timeline.c)."""
    prev, nxt, d, k = map(Fraction, (prev, nxt, d, k))
    c0, c1 = math.floor(prev / d), math.floor(nxt / d)
    return sum(1 for c in range(c0, c1 + 1) if prev < c * d + k <= nxt)


@pytest.mark.parametrize("dt", [0.3, 1.0, 2.6, 7.25, 99.5])
def test_multi_cycle_steps_fire_every_crossing_as_the_spec_says(dt):
    i = walk()
    i.advance(0.2)
    i.advance(dt)  # from 0.2 to 0.2 + dt
    got = [e["time"] for e in i.events]
    want = {k: expected_crossings(0.2, 0.2 + dt, 1, k) for k in (0, 0.5)}
    assert got.count(0.0) == want[0] and got.count(0.5) == want[0.5]
    assert got == [0.0] * want[0] + [0.5] * want[0.5]  # key order, cycles ascending per key


def test_enormous_steps_fire_each_key_at_most_100_times_and_return_at_once():
    out = run_isolated(f"""
        import json, sys, openbone
        i = openbone.Instance(openbone.load({os.path.join(FIX, "animation.obone")!r}))
        i.set_animation(0, "walk", True)
        counts = []
        for dt in (1e7, 1e9, -1e9, 1e9, 123456.75):
            i.advance(dt)
            ev = [e["time"] for e in i.events]
            counts.append([ev.count(0.0), ev.count(0.5)])
        i.set_track_speed(0, 1e300)  # a track speed of 1e300: track time 1e298 in one step
        i.advance(0.01)
        ev = [e["time"] for e in i.events]
        counts.append([ev.count(0.0), ev.count(0.5)])
        print(json.dumps([counts, i.time, bool(all(map(lambda v: v == v, i.world.ravel())))]))
    """)
    counts, t, finite = out
    assert counts[0] == [100, 100] and counts[1] == [100, 100]
    assert counts[2] == [0, 0]  # dt < 0: no events (§6 "if dt > 0")
    assert counts[3] == [100, 100] and counts[4] == [100, 100]
    assert counts[5] == [100, 100]
    assert t == 1e7 + 1e9 + 1e9 + 123456.75 + 0.01 and finite


def test_physics_stays_finite_and_recovers_after_huge_steps():
    i = openbone.Instance(openbone.load(os.path.join(FIX, "physics.obone")))
    i.set_animation(0, "sway", True)
    for dt in (1 / 60, 1e9, 1 / 60, -1e9, 1 / 60, 5e8):
        i.advance(dt)
        assert np.isfinite(i.world).all()
        for c in range(4):
            s = i._physics_state(c)
            assert s is None or all(math.isfinite(v) for v in s["origin"] + s["tip"])
    # at most 8 steps per frame (§7.4 drops the excess): the rig keeps simulating from there
    before = i._physics_state(0)["steps"]
    i.advance(1 / 60)
    assert i._physics_state(0)["steps"] == before + 1


def test_physics_restarts_at_rest_when_its_bone_goes_non_finite():
    # an animation keys the body's x to 1e400 (+Infinity, as JSON.parse reads it) for 0.1 s, then
    # to 0: the physics state is never stuck non-finite once the pose is finite again
    d = json.load(open(os.path.join(FIX, "physics.obone")))
    d["animations"].append({"id": "boom", "name": "boom", "duration": 1, "timelines": [
        {"target": "bone", "id": "bone_body", "property": "x",
         "keys": [{"time": 0, "value": 424242, "curve": "stepped"}, {"time": 0.1, "value": 0}]}]})
    i = openbone.Instance(openbone.loads(json.dumps(d).replace("424242", "1e400")))
    i.set_animation(0, "boom", False)
    i.advance(1 / 60)
    assert not np.isfinite(i.world).all()  # the keyed pose itself is non-finite
    for _ in range(12):
        i.advance(1 / 60)
    assert np.isfinite(i.world).all()
    for c in range(4):
        s = i._physics_state(c)
        assert s is not None and all(math.isfinite(v) for v in s["origin"] + s["tip"]), (c, s)


def test_state_machine_with_an_infinite_state_speed_keeps_a_finite_clock():
    events = [{"id": "e", "name": "e"}]
    a = anim("a", [], duration=1, events=[{"time": 0.5, "event": "e"}])
    lay = layer([state("A", "a", speed=12345, loop=True)])
    d = doc(layers=[lay], animations=[a], events=events)
    d = openbone.loads(d.json.replace("12345", "1e400"))  # speed +Infinity once parsed
    out = run_isolated(f"""
        import json, openbone
        i = openbone.Instance(openbone.loads({d.json!r}), state_machine="m")
        for dt in (0.1, 1e9, 0.1):
            i.advance(dt)
        print(json.dumps([i._sm_elapsed, len(i.sm_events)]))
    """)
    elapsed, n_events = out
    assert elapsed == 0.1 + 1e9 + 0.1
    assert n_events <= 100


def test_cli_bake_refuses_impossible_requests_cleanly(tmp_path):
    rig = os.path.join(ROOT, "examples", "hero.obone")
    for args, needle in ((["--fps", "1e-300", "--frames", "3"], "at least 1e-9"),
                         (["--fps", "inf"], "positive number"),
                         (["--seconds", "1e12"], "frames a bake may have"),
                         (["--frames", "1000000000"], "too large")):
        r = subprocess.run([sys.executable, "-m", "openbone", "bake", rig, "--animation", "walk", *args, "-o",
                            str(tmp_path / "x.npz")], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2, (args, r.stderr)
        assert needle in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_bake_resource_requests_are_open_bone_errors():
    i = walk()
    with pytest.raises(openbone.OpenBoneError, match="steps must be"):
        i.bake(1 / 30, 10 ** 9)
    with pytest.raises(openbone.OpenBoneError, match="steps must be"):
        i.bake(1 / 30, -1)
    with pytest.raises(openbone.OpenBoneError, match="steps must be"):
        i.bake(1 / 30, 10 ** 400)
    with pytest.raises(TypeError):
        i.bake(1 / 30, 2.5)
    from openbone import bake as B
    with pytest.raises(openbone.OpenBoneError):
        B.bake(i.document, animation="walk", seconds=1e12)
    with pytest.raises(openbone.OpenBoneError):
        B.bake(i.document, animation="walk", frames=10 ** 12)
