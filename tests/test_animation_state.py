"""§6 AnimationState: tracks, TrackEntry times, events (§5.2), completion, the queue,
cross-fades, localTime (§5.1), bake.  Expected values are worked out from the spec in
the comments; none was printed by the runtime."""
import json
import math

import numpy as np
import pytest

import openbone
from conftest import make_doc


def key(t, v, curve=None):
    d = {"time": t, "value": v}
    if curve is not None:
        d["curve"] = curve
    return d


def tl(target, id, prop, keys):
    return {"target": target, "id": id, "property": prop, "keys": keys}


def anim(id, duration, timelines=(), events=(), audio=()):
    return {"id": id, "name": id, "duration": duration, "timelines": list(timelines), "events": list(events),
            "audio": list(audio)}


SKELETON = {"bones": [{"id": "root", "name": "root"}, {"id": "b1", "name": "b1", "parent": "root", "y": 20}],
            "slots": [], "skins": [{"id": "skin_default", "name": "default", "attachments": {}}]}
EVENTS = [{"id": "e0", "name": "zero", "int": 1, "float": 0.5, "string": "z"},
          {"id": "e1", "name": "half", "int": 2, "float": 1.5, "string": "h"}]
AUDIO = {"master": 1, "muted": False, "assets": [{"id": "as_loop", "name": "loop", "src": "l.ogg", "duration": 1}],
         "buses": [], "sounds": [{"id": "hum", "name": "hum", "asset": "as_loop", "bus": None, "volume": 1,
                                  "rate": 1, "loop": True, "fadeIn": 0, "fadeOut": 0.5}]}

RAMP = [tl("bone", "b1", "x", [key(0, 0), key(1, 100)])]          # x = 100·t over 1 s
HOLD_A = [tl("bone", "b1", "x", [key(0, 100)]), tl("bone", "b1", "y", [key(0, 100)])]
HOLD_B = [tl("bone", "b1", "x", [key(0, 0)])]


def doc(*anims):
    return openbone.loads(json.dumps(make_doc(SKELETON, events=EVENTS, animations=list(anims), audio=AUDIO)))


def names(inst):
    return [(e["name"], e["time"]) for e in inst.events]


def x(inst):
    return inst.local_pose[1, 0]


# ---- API ----------------------------------------------------------------------------

def test_unknown_animation_and_bad_track_raise():
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    with pytest.raises(openbone.OpenBoneError):
        inst.set_animation(0, "nope")
    with pytest.raises(openbone.OpenBoneError):
        inst.add_animation(0, "nope")
    with pytest.raises(openbone.OpenBoneError):
        inst.set_animation(inst.track_count, "a")
    with pytest.raises(openbone.OpenBoneError):
        inst.set_animation(-1, "a")


def test_tracks_inspection_and_clear():
    inst = openbone.Instance(doc(anim("a", 1, RAMP), anim("b", 1, RAMP)))
    assert inst.tracks == [None] * inst.track_count
    inst.set_animation(1, "a", loop=True)
    inst.add_animation(1, "b", loop=False, delay=0.5, mix=0.1)
    inst.advance(0.25)
    t = inst.tracks[1]
    assert t["animation"] == "a" and t["time"] == 0.25 and t["loop"] is True
    assert t["mixing_from"] is None
    assert [(q["animation"], q["delay"], q["mix"]) for q in t["queue"]] == [("b", 0.5, 0.1)]
    assert inst.tracks[0] is None
    inst.clear_track(1)
    assert inst.tracks[1] is None


def test_entry_defaults():
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    inst.set_animation(0, "a")
    t = inst.track(0)
    # TrackEntry {time 0, prevTime −1e-6, speed 1, alpha 1, completedLoops 0}
    assert (t["time"], t["prev_time"], t["speed"], t["alpha"], t["completed_loops"]) == (0, -1e-6, 1, 1, 0)
    assert t["loop"] is True  # set_animation's default


# ---- times (§6 update, §12) -------------------------------------------------------------

def test_time_is_summed_exactly():
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    inst.set_animation(0, "a")
    total = 0.0
    for dt in [0.1] * 7 + [1 / 60] * 11 + [0.0137] * 5:
        inst.advance(dt)
        total += dt
    assert inst.track(0)["time"] == total  # bit-exact: time += dt·speed


def test_prev_time_rule():
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    inst.set_animation(0, "a")
    inst.advance(0)
    assert inst.track(0)["prev_time"] == -1e-6  # min(−1e-6, 0)
    inst.advance(0.25)
    assert inst.track(0)["prev_time"] == -1e-6  # time was 0 ⇒ min keeps −1e-6
    inst.advance(0.25)
    assert inst.track(0)["prev_time"] == 0.25   # time > 0 ⇒ prevTime = time


def test_local_time_loop_and_clamp():
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    inst.set_animation(0, "a", loop=True)
    inst.advance(1.25)
    assert x(inst) == pytest.approx(25, abs=1e-9)  # ((1.25 % 1) + 1) % 1 = .25
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    inst.set_animation(0, "a", loop=False)
    inst.advance(1.25)
    assert x(inst) == 100  # clamp(1.25, 0, 1)


def test_duration_zero_uses_max_key_time():
    # duration 0 ⇒ animationDuration = max key time (0.5) ⇒ loop wraps at 0.5
    inst = openbone.Instance(doc(anim("a", 0, [tl("bone", "b1", "x", [key(0, 0), key(0.5, 50)])])))
    inst.set_animation(0, "a", loop=True)
    inst.advance(0.6)
    assert x(inst) == pytest.approx(10, abs=1e-9)  # local .1 ⇒ 10


# ---- events (§5.2) ------------------------------------------------------------------------

EV = [{"time": 0, "event": "e0"}, {"time": 0.5, "event": "e1", "int": 9, "string": "k"}]


def test_key_at_zero_fires_once_and_overrides():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, EV)))
    inst.set_animation(0, "a", loop=False)
    inst.advance(0.1)
    ev = inst.events
    assert [(e["name"], e["time"], e["int"], e["float"], e["string"], e["animation"]) for e in ev] == \
        [("zero", 0, 1, 0.5, "z", "a")]
    inst.advance(0.1)
    assert inst.events == []
    inst.advance(0.35)  # (0.2, 0.55] crosses 0.5: key int/string override, float from the event
    assert [(e["name"], e["int"], e["float"], e["string"]) for e in inst.events] == [("half", 9, 1.5, "k")]


def test_loop_wrap_fires_again():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, EV)))
    inst.set_animation(0, "a", loop=True)
    got = []
    for _ in range(4):
        inst.advance(0.3)
        got.append(names(inst))
    # (−1e-6, .3] ⇒ zero; (.3, .6] ⇒ half; (.6, .9] ⇒ none; (.9, 1.2] ⇒ zero of cycle 1
    assert got == [[("zero", 0)], [("half", 0.5)], [], [("zero", 0)]]


def test_big_step_key_order_then_cycles():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, EV)))
    inst.set_animation(0, "a", loop=True)
    inst.advance(2.2)
    # key-array order, cycles ascending per key: zero at 0, 1, 2, then half at .5, 1.5
    assert names(inst) == [("zero", 0)] * 3 + [("half", 0.5)] * 2


def test_non_loop_fires_nothing_after_the_end_and_dt_zero_fires_nothing():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, EV + [{"time": 1, "event": "e0"}])))
    inst.set_animation(0, "a", loop=False)
    inst.advance(0)
    assert inst.events == []  # dt = 0: nothing crossed
    inst.advance(1.0)
    assert names(inst) == [("zero", 0), ("half", 0.5), ("zero", 1)]
    inst.advance(1.0)
    assert inst.events == []  # (1, 2] non-loop: no key there


def test_missing_event_never_fires():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, [{"time": 0.1, "event": "nope"}, {"time": 0.2, "event": "e0"}])))
    inst.set_animation(0, "a")
    inst.advance(0.5)
    assert names(inst) == [("zero", 0.2)]


def test_events_reset_each_advance():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, EV)))
    inst.set_animation(0, "a")
    inst.advance(0.1)
    assert len(inst.events) == 1
    inst.advance(0.1)
    assert inst.events == []


def test_mixed_out_entry_fires_nothing():
    inst = openbone.Instance(doc(anim("a", 1, RAMP, EV), anim("b", 1, RAMP)))
    inst.set_animation(0, "a", loop=True)
    inst.advance(0.4)
    inst.set_animation(0, "b", loop=True, mix=0.5)
    inst.advance(0.2)  # a (mixing out) crosses .5 but fires nothing
    assert inst.events == []
    assert inst.track(0)["mixing_from"]["animation"] == "a"


# ---- completion ------------------------------------------------------------------------------

def test_non_loop_completion_stops_looping_sounds():
    inst = openbone.Instance(doc(anim("a", 0.5, RAMP[:0], audio=[{"time": 0, "sound": "hum"}])))
    inst.set_animation(0, "a", loop=False)
    inst.advance(0.25)
    (play,) = inst.audio_commands
    assert play["type"] == "play" and play["loop"] is True
    inst.advance(0.25)  # prevTime .25 < d = .5 ≤ time .5 ⇒ complete, stop loops (fade max(0, .5))
    assert inst.audio_commands == [{"type": "stop", "id": play["id"], "fade": 0.5}]
    assert inst.track(0)["completed_loops"] == 1
    inst.advance(0.25)
    assert inst.audio_commands == []


def test_loop_completion_counts_loops():
    inst = openbone.Instance(doc(anim("a", 0.5, RAMP)))
    inst.set_animation(0, "a", loop=True)
    inst.advance(0.4)
    assert inst.track(0)["completed_loops"] == 0
    inst.advance(0.7)  # time 1.1 ⇒ loops = floor(1.1/.5) = 2 > 0
    assert inst.track(0)["completed_loops"] == 2
    assert inst._anim_counters()[1] == 1  # one "complete" this advance


# ---- queue ------------------------------------------------------------------------------------

def test_add_on_empty_track_starts_now():
    inst = openbone.Instance(doc(anim("a", 1, RAMP)))
    inst.add_animation(0, "a", loop=False, delay=5)
    assert inst.track(0)["animation"] == "a" and inst.track(0)["queue"] == []
    inst.advance(0.5)
    assert x(inst) == pytest.approx(50, abs=1e-9)


def test_queue_delay_and_crossfade():
    inst = openbone.Instance(doc(anim("a", 1, HOLD_A), anim("b", 1, HOLD_B)))
    inst.set_animation(0, "a", loop=True)
    inst.add_animation(0, "b", loop=True, delay=0.3, mix=0.4)
    inst.advance(0.2)
    assert inst.track(0)["animation"] == "a"
    inst.advance(0.2)  # a.time .4 ≥ delay .3 ⇒ b replaces a, mixingFrom = a, mixDuration .4
    t = inst.track(0)
    assert (t["animation"], t["mixing_from"]["animation"], t["mix_duration"], t["time"]) == ("b", "a", 0.4, 0)
    # this frame: mix = 0/.4 = 0 ⇒ a at full weight, b at 0 (skipped)
    assert x(inst) == 100
    inst.advance(0.2)
    # mix = .2/.4 = .5: a first at alpha 1 (x keyed by b ⇒ full: 100; y not keyed ⇒ out alpha .5:
    # lerp(20, 100, .5) = 60), then b at .5: lerp(100, 0, .5) = 50
    assert x(inst) == pytest.approx(50, abs=1e-12)
    assert inst.local_pose[1, 1] == pytest.approx(60, abs=1e-12)
    inst.advance(0.2)  # mixTime .4 ≥ .4 ⇒ mixingFrom dropped
    assert inst.track(0)["mixing_from"] is None
    assert x(inst) == 0 and inst.local_pose[1, 1] == 20


def test_queue_without_delay_waits_for_the_end():
    inst = openbone.Instance(doc(anim("a", 0.5, RAMP), anim("b", 1, RAMP)))
    inst.set_animation(0, "a", loop=False)
    inst.add_animation(0, "b", loop=False, delay=0, mix=0)
    inst.advance(0.3)
    assert inst.track(0)["animation"] == "a"
    inst.advance(0.3)  # !loop and time .6 ≥ d .5
    assert inst.track(0)["animation"] == "b"
    # mix 0: mixingFrom = a with mixDuration 0; mix = min(1, 0/(0 ‖ 1)) = 0 this frame
    assert inst.track(0)["mixing_from"]["animation"] == "a"
    inst.advance(0.1)  # mixTime .1 ≥ 0 ⇒ dropped
    assert inst.track(0)["mixing_from"] is None
    assert x(inst) == pytest.approx(10, abs=1e-9)


def test_queue_after_a_looping_entry_waits_for_its_first_end():
    inst = openbone.Instance(doc(anim("a", 0.5, RAMP), anim("b", 1, RAMP)))
    inst.set_animation(0, "a", loop=True)
    inst.add_animation(0, "b", loop=False)
    inst.advance(0.45)
    assert inst.track(0)["animation"] == "a"
    inst.advance(0.1)  # loop and d > 0 and time .55 ≥ .5
    assert inst.track(0)["animation"] == "b"


def test_one_queued_entry_starts_per_update():
    inst = openbone.Instance(doc(anim("a", 0.5, RAMP), anim("b", 0.5, RAMP), anim("c", 0.5, RAMP)))
    inst.set_animation(0, "a", loop=False)
    inst.add_animation(0, "b", delay=0.1)
    inst.add_animation(0, "c", delay=0.1)
    inst.advance(0.2)
    assert inst.track(0)["animation"] == "b" and len(inst.track(0)["queue"]) == 1
    inst.advance(0.2)
    assert inst.track(0)["animation"] == "c"


def test_set_animation_drops_queue_and_mix_zero_has_no_mixing_from():
    inst = openbone.Instance(doc(anim("a", 1, RAMP), anim("b", 1, RAMP)))
    inst.set_animation(0, "a")
    inst.add_animation(0, "b", delay=0.1)
    inst.set_animation(0, "b", loop=True, mix=0)
    t = inst.track(0)
    assert t["queue"] == [] and t["mixing_from"] is None and t["animation"] == "b"


def test_set_animation_mixing_from_chain():
    inst = openbone.Instance(doc(anim("a", 1, RAMP), anim("b", 1, RAMP), anim("c", 1, RAMP)))
    inst.set_animation(0, "a")
    inst.set_animation(0, "b", mix=0.5)
    inst.set_animation(0, "c", mix=0.5)
    t = inst.track(0)
    # mixingFrom = cur (b), cur.mixingFrom = null: only one level
    assert t["mixing_from"]["animation"] == "b" and t["mix_duration"] == 0.5


# ---- apply (tracks) ---------------------------------------------------------------------------

def test_higher_tracks_lerp_over_lower():
    inst = openbone.Instance(doc(anim("a", 1, HOLD_A), anim("b", 1, HOLD_B)))
    inst.set_animation(0, "a")
    inst.set_animation(1, "b")
    inst.advance(0.1)
    assert x(inst) == 0 and inst.local_pose[1, 1] == 100


def test_crossfade_rotation_goes_the_shortest_way():
    a = anim("a", 1, [tl("bone", "b1", "rotation", [key(0, 170)])])
    b = anim("b", 1, [tl("bone", "b1", "rotation", [key(0, -170)])])
    inst = openbone.Instance(doc(a, b))
    inst.set_animation(0, "a")
    inst.advance(0.1)
    inst.set_animation(0, "b", mix=0.4)
    inst.advance(0.1)  # mix .25: 170 then lerpAngle(170, −170, .25) = 170 + 20·.25 = 175
    assert inst.local_pose[1, 2] == pytest.approx(175, abs=1e-12)


# ---- bake ---------------------------------------------------------------------------------------

def test_bake_matches_a_python_loop():
    d = openbone.load(str(__import__("pathlib").Path(__file__).parents[1] / "examples" / "hero.obone"))
    one = openbone.Instance(d)
    one.set_animation(0, "walk", loop=True)
    baked = one.bake(1 / 60, 90)
    two = openbone.Instance(d)
    two.set_animation(0, "walk", loop=True)
    frames = []
    for _ in range(90):
        two.advance(1 / 60)
        frames.append(np.array(two.world))
    assert baked.shape == (90, len(d.bones), 6) and baked.dtype == np.float64
    assert np.array_equal(baked, np.stack(frames))
    assert one.bake(1 / 60, 0).shape == (0, len(d.bones), 6)
    with pytest.raises(openbone.OpenBoneError):
        one.bake(1 / 60, -1)


# ---- conformance: conformance/cases/animation.json ------------------------------------------

def test_expected_file_is_the_oracles_output():
    """expected/animation.json is written by tests/oracles/anim.py (independent of csrc/);
    this fails on hand edits.  Regenerate with ``python tests/oracles anim``."""
    from oracles import anim as anim_oracle
    with open(anim_oracle.EXPECTED) as f:
        assert f.read() == anim_oracle.dumps(anim_oracle.run_case_file(anim_oracle.CASES))


def test_runtime_matches_expected_animation_cases():
    from openbone import conformance
    from oracles import anim as anim_oracle
    out, errored = conformance.run(anim_oracle.CASES)
    assert not errored, [c for c in out["cases"] if "error" in c]
    with open(anim_oracle.EXPECTED) as f:
        expected = json.load(f)
    assert conformance.compare(expected, out) == []


def test_oracle_hand_checked_frames():
    """Frames of expected/animation.json checked against numbers worked out by hand
    (conformance/README.md, section "Animation")."""
    from oracles import anim as anim_oracle
    with open(anim_oracle.EXPECTED) as f:
        exp = {c["name"]: c["samples"] for c in json.load(f)["cases"]}
    walk = exp["walk/loop-60fps"]

    def bone(sample, name):
        return next(b for b in sample["bones"] if b["name"] == name)

    def ref_bezier(x1, y1, x2, y2, t):  # exact root of bx(s) = t by long bisection
        lo, hi = 0.0, 1.0
        for _ in range(100):
            s = (lo + hi) / 2
            if 3 * (1 - s) ** 2 * s * x1 + 3 * (1 - s) * s ** 2 * x2 + s ** 3 > t:
                hi = s
            else:
                lo = s
        return 3 * (1 - s) ** 2 * s * y1 + 3 * (1 - s) * s ** 2 * y2 + s ** 3

    # step 15, t = .25: hip rotation = 20·bez(.25,.1,.25,1 at f=.5) = 20·.80240 = 16.048°,
    # hip y = key .25 = 95 ⇒ world (cos, sin of 16.048°) = (.96103, .27645), y 95
    r = 20 * ref_bezier(0.25, 0.1, 0.25, 1, 0.5)
    assert r == pytest.approx(16.048, abs=1e-3)
    hip = bone(walk[14], "hip")
    assert hip["y"] == 95 and hip["x"] == 0
    assert hip["a"] == pytest.approx(math.cos(math.radians(r)), abs=1e-4)
    assert hip["c"] == pytest.approx(math.sin(math.radians(r)), abs=1e-4)
    assert hip["a"] == pytest.approx(0.9610, abs=2e-4) and hip["c"] == pytest.approx(0.2765, abs=2e-4)
    # crossfade walk → jump, step 19: jump started at update 16 ⇒ time = mixTime = 3/30 = .1,
    # mix = .1/.25 = .4; walk (mixing out) at 19/30 = .6333.
    q = exp["walk/queue-jump-walk"]
    t_walk = 19 / 30
    walk_y = 100 + (95 - 100) * (t_walk - 0.5) / 0.25                       # 97.333
    jump_y = 100 + 40 * ref_bezier(0.5, 0, 0.5, 1, 0.1 / 0.3)               # both key hip y
    hip_y = walk_y + (jump_y - walk_y) * 0.4                                 # walk at 1, jump lerped at .4
    walk_hip_rot = 20 + (0 - 20) * (t_walk - 0.5) / 0.5                      # 14.667, jump doesn't key it
    hip_rot = 0 + (walk_hip_rot - 0) * (1 - 0.4)                             # mixed out: 8.8
    walk_leg = 160 + (-100 - 160) * (t_walk - 0.5) / 0.5                     # 90.667
    leg_rot = walk_leg + ((-170 - walk_leg + 180) % 360 - 180) * 0.4         # lerpAngle: 130.4
    assert (hip_rot, leg_rot) == (pytest.approx(8.8), pytest.approx(130.4))
    hip = bone(q[18], "hip")
    assert hip["y"] == pytest.approx(hip_y, abs=1e-3)
    assert hip["a"] == pytest.approx(math.cos(math.radians(hip_rot)), abs=1e-4)
    leg = bone(q[18], "leg")
    assert leg["a"] == pytest.approx(math.cos(math.radians(hip_rot + leg_rot)), abs=1e-4)
    assert leg["c"] == pytest.approx(math.sin(math.radians(hip_rot + leg_rot)), abs=1e-4)
    # events: key at 0 fires at step 1 with its int override 7; the .5 key at step 31
    # (t = .5167 > .5) with string "R" and float 2.5; the loop wrap at step 60 (t ≈ 1)
    ev = [(s["step"], e["name"], e["time"], e["int"], e["float"], e["string"]) for s in walk for e in s["events"]]
    assert ev == [(1, "step", 0, 7, 0.5, "L"), (31, "step", 0.5, 1, 2.5, "R"), (60, "step", 0, 7, 0.5, "L")]
    # audio: looping hum (volume .8·.5 = .4) once; its cycle-1 key is deduplicated
    plays = [(s["step"], a["id"], a["volume"]) for s in walk for a in s["audio"]]
    assert plays == [(1, "p1", 0.4), (31, "p2", 0.9)]
    # queue: jump (delay .5, mix .25) starts at step 16 (t = .5333 ≥ .5) stopping hum with
    # fade max(.25, fadeOut .3) = .3
    assert {"type": "stop", "id": "p1", "fade": 0.3} in q[15]["audio"]


def test_start_and_complete_notifications_by_hand():
    # §6: a non-looping 1 s animation stepped by 0.25 completes when prevTime < 1 <= time,
    # i.e. on the 4th step; a queued entry (delay 0, previous not looping) starts on
    # that same update (time >= d) and emits "start"; a looping 0.5 s animation
    # completes each time floor(time / d) grows.
    import json as _json
    import openbone as _ob
    d = {"format": "openbone", "version": 1,
         "skeleton": {"bones": [{"id": "b"}], "slots": [], "skins": [{"id": "s", "name": "default", "attachments": {}}]},
         "animations": [
             {"id": "once", "name": "once", "duration": 1, "timelines": [
                 {"target": "bone", "id": "b", "property": "x", "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 1}]}]},
             {"id": "spin", "name": "spin", "duration": 0.5, "timelines": []}]}
    inst = _ob.Instance(_ob.loads(_json.dumps(d)))
    inst.set_animation(0, "once", loop=False, mix=0)
    inst.add_animation(0, "spin", loop=True, delay=0, mix=0)
    seen = []
    for step in range(1, 8):
        inst.advance(0.25)
        seen += [(step, e["type"], e["animation"]) for e in inst.track_events]
    assert seen == [(1, "start", "once"), (4, "complete", "once"), (4, "start", "spin"),
                    (6, "complete", "spin")]


def test_track_speed_and_alpha_by_hand():
    # §6: time += dt·speed; apply at entry.alpha: x = lerp(setup 0, key value, alpha).
    # Keys x: 0 at t=0, 10 at t=1 (linear).  speed 2, four steps of 0.1 ⇒ time 0.8 ⇒ x 8;
    # alpha 0.5 ⇒ x = 0 + (8 - 0)·0.5 = 4.
    import json as _json
    import openbone as _ob
    d = {"format": "openbone", "version": 1,
         "skeleton": {"bones": [{"id": "b"}], "slots": [], "skins": [{"id": "s", "name": "default", "attachments": {}}]},
         "animations": [{"id": "a", "name": "a", "duration": 1, "timelines": [
             {"target": "bone", "id": "b", "property": "x", "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 10}]}]}]}
    inst = _ob.Instance(_ob.loads(_json.dumps(d)))
    inst.set_animation(0, "a", loop=False, mix=0)
    inst.set_track_speed(0, 2)
    for _ in range(4):
        inst.advance(0.1)
    assert abs(inst.world[0][4] - 8) < 1e-12
    inst.set_track_alpha(0, 0.5)
    inst.advance(0)
    assert abs(inst.world[0][4] - 4) < 1e-12
    import pytest as _pytest
    with _pytest.raises(_ob.OpenBoneError):
        inst.set_track_speed(3, 1)


def test_event_report_capacity_256_and_crossings_100():
    """conformance/NOTES.md §6 fixed capacities (256 events per advance report, the rest
    dropped and counted) and §5.2 (a key fires for its first 100 crossings of one advance).
    The report buffer is sized from the document (load, issue 17): it must keep and drop
    exactly what a 256-event buffer does, with tracks added after creation too."""
    one = [{"time": 0.5, "event": "e0"}]  # one key: 100 firings per track on a long advance
    inst = openbone.Instance(doc(anim("a", 1, RAMP, one), anim("b", 1, RAMP, EV)))
    inst.set_animation(0, "a", loop=True)
    inst.advance(1000)  # keys at 0.5, 1.5, ... 999.5: the first 100 crossings fire
    assert len(inst.events) == 100 and inst._anim_counters()[2] == 0
    assert all(e["name"] == "zero" and e["time"] == 0.5 for e in inst.events)
    for t in (1, 2):
        inst.set_animation(t, "a", loop=True)
    inst.advance(1000)  # 3 tracks x 100 = 300: 256 reported, 44 dropped
    assert len(inst.events) == 256 and inst._anim_counters()[2] == 44
    assert [e["track"] for e in inst.events] == [0] * 100 + [1] * 100 + [2] * 56
    import copy
    c = copy.copy(inst)  # a copy (a snapshot) carries the full report
    assert c.events == inst.events
    inst.advance(0.25)  # (2000, 2000.25]: no key crossed (the dropped count is a running total)
    assert inst.events == [] and inst._anim_counters()[2] == 44
    two = openbone.Instance(doc(anim("a", 1, RAMP, one), anim("b", 1, RAMP, EV)))
    two.set_animation(3, "b", loop=True)  # two keys, track 3 only
    two.advance(1000)
    assert len(two.events) == 200 and two._anim_counters()[2] == 0
    two.set_animation(0, "b", loop=True)
    two.advance(1000)  # 2 tracks x 200 = 400: 256 and 144 dropped
    assert len(two.events) == 256 and two._anim_counters()[2] == 144
    assert [e["track"] for e in two.events] == [0] * 200 + [3] * 56  # tracks fire in order
