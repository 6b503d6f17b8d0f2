"""§2, §3, §4 of the Jabbertoon text: base channels, motions, scopes, friendly blocks.
Every expected value is worked out here by hand from the text and the clarifications."""
import math

import pytest

from openbone import toon
from toon_util import TAU, pose_at, prog, runtime, smooth


# --- §3 ramp and the eases ------------------------------------------------------------

@pytest.mark.parametrize("ease,f", [
    ("linear", lambda u: u),
    ("smooth", smooth),
    ("inout", smooth),
    ("in", lambda u: u * u),
    ("out", lambda u: math.sin(u * math.pi / 2)),
    ("snappy", lambda u: 1 + 2.70158 * (u - 1) ** 3 + 1.70158 * (u - 1) ** 2),
])
def test_ramp_value_at_u(ease, f):
    for T in (0.25, 0.5, 1.3, 1.9):
        u = T / 2
        p = pose_at([{"op": "ramp", "ch": "dx", "to": 100, "over": 2, "ease": ease}], T)
        assert p["dx"] == pytest.approx(100 * f(u), abs=1e-12)


def test_ramp_lands_exactly_and_holds():
    body = [{"op": "wait", "for": 0.1}, {"op": "ramp", "ch": "dy", "to": -30, "over": 0.2}]
    assert pose_at(body, 0.1 + 0.2)["dy"] == -30.0  # exactly b once T >= t0 + over
    assert pose_at(body, 50)["dy"] == -30.0


def test_ramp_by_starts_from_the_instances_own_value():
    body = [{"op": "set", "ch": "rot", "to": 10}, {"op": "ramp", "ch": "rot", "by": 20, "over": 1}]
    assert pose_at(body, 0.5)["rot"] == pytest.approx(10 + 20 * smooth(0.5))
    assert pose_at(body, 1)["rot"] == 30.0


def test_ramp_waits_and_over_zero_is_instant():
    body = [{"op": "ramp", "ch": "dx", "to": 5, "over": 1}, {"op": "set", "ch": "dy", "to": 7}]
    assert pose_at(body, 0.999)["dy"] == 0
    assert pose_at(body, 1)["dy"] == 7
    body = [{"op": "ramp", "ch": "dx", "to": 5}, {"op": "set", "ch": "dy", "to": 7}]
    p = pose_at(body, 0)
    assert (p["dx"], p["dy"]) == (5, 7)


# --- §3 wave -------------------------------------------------------------------------

def shape(name, x):
    p = (x / TAU) % 1
    return {
        "sin": math.sin(x), "cos": math.cos(x), "abssin": abs(math.sin(x)), "possin": max(math.sin(x), 0),
        "dampsin": math.sin(x), "square": 1 if p < 0.5 else -1, "saw": 2 * p - 1,
        "tri": 4 * p if p < 0.25 else (2 - 4 * p if p < 0.75 else 4 * p - 4),
    }[name]


@pytest.mark.parametrize("name", ["sin", "cos", "abssin", "possin", "dampsin", "square", "saw", "tri"])
def test_wave_shapes(name):
    for T in (0.1, 0.37, 0.8, 1.55):
        p = pose_at([{"op": "wave", "ch": "dx", "shape": name, "amp": 10, "hz": 0.7, "phase": 0.3, "decay": 0.5}], T)
        x = TAU * 0.7 * T + 0.3
        s = shape(name, x) * (math.exp(-0.5 * T) if name == "dampsin" else 1)
        assert p["dx"] == pytest.approx(10 * s, abs=1e-9)


def test_wave_frequency_offset_pow_clip():
    T = 0.3
    assert pose_at([{"op": "wave", "ch": "dy", "w": 3}], T)["dy"] == pytest.approx(math.sin(3 * T))
    assert pose_at([{"op": "wave", "ch": "dy", "every": 2}], T)["dy"] == pytest.approx(math.sin(TAU / 2 * T))
    assert pose_at([{"op": "wave", "ch": "dy"}], T)["dy"] == pytest.approx(math.sin(TAU * T))  # every 1 s
    # offset defaults to the rest: on sx the wave is the factor
    assert pose_at([{"op": "wave", "ch": "sx", "amp": 0.1}], T)["sx"] == pytest.approx(1 + 0.1 * math.sin(TAU * T))
    assert pose_at([{"op": "wave", "ch": "dx", "offset": 5, "amp": 2}], T)["dx"] == pytest.approx(5 + 2 * math.sin(TAU * T))
    s = math.sin(TAU * T) ** 2
    assert pose_at([{"op": "wave", "ch": "dx", "pow": 2}], T)["dx"] == pytest.approx(s)
    T2 = 0.7  # sin negative
    assert pose_at([{"op": "wave", "ch": "dx", "clip": "pos"}], T2)["dx"] == 0
    assert pose_at([{"op": "wave", "ch": "dx", "clip": "neg"}], T2)["dx"] == pytest.approx(math.sin(TAU * T2))


def test_wave_amp_is_live_w_is_fixed():
    # amp "=10*tau" grows with the pose time; hz "=1+tau" is evaluated once at the start (tau 0.5)
    body = [{"op": "wait", "for": 0.5}, {"op": "wave", "ch": "dx", "amp": "=10*tau", "hz": "=1+tau"}]
    T = 1.2
    assert pose_at(body, T)["dx"] == pytest.approx(10 * T * math.sin(TAU * 1.5 * (T - 0.5)))


def test_sync_start_keeps_the_behaviours_phase():
    body = [{"op": "wait", "for": 0.25}, {"op": "wave", "ch": "dx", "sync": "start"}]
    assert pose_at(body, 0.4)["dx"] == pytest.approx(math.sin(TAU * 0.4))
    body[1]["sync"] = "local"
    assert pose_at(body, 0.4)["dx"] == pytest.approx(math.sin(TAU * 0.15))


# --- §3 hop -----------------------------------------------------------------------------

def hop(t, hz=2, amp=30):
    cyc = (t * hz) % 1
    if cyc < 0.12:
        k = cyc / 0.12
        return 6 * k, 1 + 0.08 * k, 1 - 0.08 * k
    c = (cyc - 0.12) / 0.88
    h = math.sin(c * math.pi)
    dy, sx, sy = -amp * h, 1 - 0.10 * h, 1 + 0.12 * h
    if c > 0.86:
        k = (c - 0.86) / 0.14
        sx, sy = 1 + 0.11 * k, 1 - 0.11 * k
    return dy, sx, sy


@pytest.mark.parametrize("T", [0.02, 0.05, 0.2, 0.3, 0.48, 0.49, 0.77])
def test_hop_crouch_air_landing(T):
    p = pose_at([{"op": "hop"}], T)
    dy, sx, sy = hop(T)
    assert (p["dy"], p["sx"], p["sy"]) == pytest.approx((dy, sx, sy), abs=1e-12)


def test_hop_crouch_values():
    p = pose_at([{"op": "hop", "hz": 1, "amp": 50}], 0.06)  # cyc 0.06: k = 0.5
    assert p["dy"] == pytest.approx(3) and p["sx"] == pytest.approx(1.04) and p["sy"] == pytest.approx(0.96)
    p = pose_at([{"op": "hop", "hz": 1, "amp": 50}], 0.56)  # c = 0.5: h = 1
    assert p["dy"] == pytest.approx(-50) and p["sx"] == pytest.approx(0.9) and p["sy"] == pytest.approx(1.12)


def test_hopair_in_expressions():
    p = pose_at([{"op": "drive", "ch": "dx", "value": "=hopair(tau*2)"}], 0.28)  # cyc 0.56: h = 1
    assert p["dx"] == pytest.approx(1)
    assert pose_at([{"op": "drive", "ch": "dx", "value": "=hopair(0.05)"}], 0)["dx"] == 0


# --- §3 gait -----------------------------------------------------------------------------

def walkleg(p, stride=20, give=5, bend=30):
    if p < 0.5:
        s = 2 * p
        return stride - 2 * stride * s, give * math.sin(s * math.pi)
    s = 2 * p - 1
    return -stride + 2 * stride * s, bend * math.sin(s * math.pi)


def test_gait_two_legs_thigh_shin_and_arms():
    T = 0.3  # ph 0.3: left at 0.3 (stance), right at 0.8 (swing)
    p = pose_at([{"op": "gait", "armSwing": 0.5}], T)["parts"]
    tl, sl = walkleg(0.3)
    tr, sr = walkleg(0.8)
    assert p["leg:-1"] == pytest.approx(tl) and p["shin:-1"] == pytest.approx(sl)
    assert p["leg:1"] == pytest.approx(tr) and p["shin:1"] == pytest.approx(sr)
    assert p["arm:-1"] == pytest.approx(-tl * 0.5) and p["arm:1"] == pytest.approx(-tr * 0.5)
    assert tl == pytest.approx(-4) and tr == pytest.approx(4)


def test_gait_four_and_six_legs():
    T = 1.6  # every 2: ph 0.8
    p = pose_at([{"op": "gait", "every": 2, "stride": 10, "give": 2, "bend": 12}], T, legs=4)["parts"]
    for i, off in enumerate([0, 0.5, 0.5, 0]):
        th, sh = walkleg((0.8 + off) % 1, 10, 2, 12)
        assert p[f"leg#{i}"] == pytest.approx(th) and p[f"shin#{i}"] == pytest.approx(sh)
    assert "arm:-1" not in p
    p = pose_at([{"op": "gait"}], 0.1, legs=6)["parts"]
    for i, off in enumerate([0, 0.5, 0.5, 0, 0, 0.5]):
        assert p[f"leg#{i}"] == pytest.approx(walkleg((0.1 + off) % 1)[0])
    assert pose_at([{"op": "gait"}], 0.1, legs=0)["parts"] == {}


def test_gait_bob_and_roll():
    T = 0.2
    p = pose_at([{"op": "gait", "bob": 4, "base": 1, "roll": 3}], T)
    assert p["dy"] == pytest.approx(1 - 4 * abs(math.sin(TAU * 0.2)))
    assert p["rot"] == pytest.approx(math.sin(TAU * 0.2) * 3)


# --- §2 combining, scopes, start-or-keep -----------------------------------------------------

def test_combining_add_multiply_max():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "set", "ch": "dx", "to": 3}, {"op": "set", "ch": "sx", "to": 2},
                                  {"op": "set", "ch": "mouth", "to": 0.4}]))
    rt.start_behaviour("c", prog([{"op": "set", "ch": "dx", "to": 4}, {"op": "set", "ch": "sx", "to": 1.5},
                                  {"op": "set", "ch": "mouth", "to": 0.2}, {"op": "drive", "ch": "dx", "value": 1},
                                  {"op": "drive", "ch": "sx", "value": 2}, {"op": "drive", "ch": "mouth", "value": 0.9}]))
    rt.step_to(0.1)
    p = rt.pose("c")
    assert p["dx"] == 8 and p["sx"] == 6 and p["mouth"] == 0.9


def test_last_writer_wins_within_an_instance():
    p = pose_at([{"op": "set", "ch": "dx", "to": 3}, {"op": "set", "ch": "dx", "to": 9}], 0)
    assert p["dx"] == 9


def test_for_scope_stops_its_motions_root_scope_keeps_them():
    body = [{"op": "for", "for": 1, "body": [{"op": "wave", "ch": "dx", "amp": 5}]},
            {"op": "wave", "ch": "dy", "amp": 2}]
    p = pose_at(body, 1.2)
    assert p["dx"] == 0 and p["dy"] == pytest.approx(2 * math.sin(TAU * 0.2))
    assert pose_at(body, 0.5)["dx"] == pytest.approx(5 * math.sin(TAU * 0.5))
    # the root scope's motions outlive the script
    assert pose_at([{"op": "bob", "amp": 10}], 7.25)["dy"] == pytest.approx(-10 * abs(math.sin(TAU * 7.25)))


def test_start_or_keep_in_a_forever():
    body = [{"op": "forever", "body": [{"op": "wave", "ch": "dx", "amp": 1}, {"op": "wait", "for": 1}]}]
    assert pose_at(body, 3.3)["dx"] == pytest.approx(math.sin(TAU * 3.3))  # one wave, never restarted


def test_together_branches_start_motions_in_the_enclosing_scope():
    body = [{"op": "for", "for": 2, "body": [
        {"op": "together", "branches": [[{"op": "wave", "ch": "dx"}], [{"op": "wait", "for": 0.5}]]},
        {"op": "wait", "for": 0.2}]}]
    # the branch ended at 0, the wave lives in the for's scope until 2
    assert pose_at(body, 1.1)["dx"] == pytest.approx(math.sin(TAU * 1.1))
    assert pose_at(body, 2.1)["dx"] == 0


def test_together_waits_for_every_branch():
    body = [{"op": "together", "branches": [[{"op": "wait", "for": 0.5}], [{"op": "wait", "for": 1.5}]]},
            {"op": "set", "ch": "dx", "to": 1}]
    assert pose_at(body, 1.49)["dx"] == 0 and pose_at(body, 1.5)["dx"] == 1


def test_for_deadline_cuts_a_ramp_which_freezes():
    body = [{"op": "for", "for": 0.5, "body": [{"op": "ramp", "ch": "dx", "to": 100, "over": 1, "ease": "linear"}]},
            {"op": "wait", "for": 1}]
    assert pose_at(body, 0.75)["dx"] == pytest.approx(50)
    assert pose_at(body, 3)["dx"] == pytest.approx(50)


def test_for_deadline_first_at_an_equal_time():
    # a body block due exactly at the for's end does not run; a ramp landing then has landed
    body = [{"op": "for", "for": 1, "body": [{"op": "ramp", "ch": "dx", "to": 10, "over": 1},
                                             {"op": "set", "ch": "dy", "to": 5}]}]
    p = pose_at(body, 1)
    assert p["dx"] == 10 and p["dy"] == 0


def test_for_body_ending_early_waits():
    body = [{"op": "for", "for": 1, "body": [{"op": "wait", "for": 0.2}]}, {"op": "set", "ch": "dx", "to": 1}]
    assert pose_at(body, 0.99)["dx"] == 0 and pose_at(body, 1)["dx"] == 1


def test_wait_until_and_for_until_count_from_the_behaviours_start():
    rt = runtime()
    rt.step_to(2)
    rt.start_behaviour("c", prog([{"op": "wait", "until": 0.5}, {"op": "set", "ch": "dx", "to": 1},
                                  {"op": "for", "until": 1, "body": [{"op": "wave", "ch": "dy"}]}]))
    rt.step_to(2.49)
    assert rt.pose("c")["dx"] == 0
    rt.step_to(2.75)
    p = rt.pose("c")
    assert p["dx"] == 1 and p["dy"] == pytest.approx(math.sin(TAU * 0.25))
    rt.step_to(3.01)
    assert rt.pose("c")["dy"] == 0


def test_stop_and_stop_all():
    body = [{"op": "wave", "ch": "dx"}, {"op": "stop"}, {"op": "set", "ch": "dy", "to": 1}]
    p = pose_at(body, 0.3)
    assert p["dy"] == 0 and p["dx"] == pytest.approx(math.sin(TAU * 0.3))
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "wait", "for": 0.5}, {"op": "stopAll"}],
                                 [{"op": "bob"}, {"op": "wait", "for": 1}, {"op": "set", "ch": "dx", "to": 1}]))
    rt.step_to(2)
    p = rt.pose("c")
    assert p["dx"] == 0 and p["dy"] != 0  # the other script was ended; its root-scope bob stays


def test_if_else():
    body = [{"op": "if", "cond": "=1 > 2", "then": [{"op": "set", "ch": "dx", "to": 1}],
             "else": [{"op": "set", "ch": "dx", "to": 2}]}]
    assert pose_at(body, 0)["dx"] == 2


# --- §0 polls ----------------------------------------------------------------------------------

def test_zero_time_iterations_wait_for_the_next_step():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "repeat", "times": 3, "body": [{"op": "changeVar", "var": "n", "by": 1}]},
                                  {"op": "set", "ch": "dx", "to": "=n"}], vars={"n": 0}))
    assert rt.polled
    for k, T in enumerate([0.1, 0.2, 0.3]):
        assert rt.pose("c")["dx"] == 0
        rt.step_to(T)
    assert rt.pose("c")["dx"] == 3  # the last iteration waited too


def test_until_polls_and_while_checks_each_iteration():
    rt = runtime()
    rt.vars["go"] = 0
    rt.start_behaviour("c", prog([{"op": "until", "cond": "=go"}, {"op": "set", "ch": "dx", "to": 1}]))
    rt.step_to(1)
    assert rt.pose("c")["dx"] == 0
    rt.vars["go"] = 1
    rt.step_to(1.5)
    assert rt.pose("c")["dx"] == 1
    body = [{"op": "while", "cond": "=tau < 1", "body": [{"op": "changeVar", "var": "n"}, {"op": "wait", "for": 0.25}]},
            {"op": "set", "ch": "dx", "to": "=n"}]
    assert pose_at(body, 5, vars={"n": 0})["dx"] == 4


def test_repeat_huge_and_forever_without_wait_do_not_hang():
    for body in ([{"op": "repeat", "times": 1e12, "body": [{"op": "changeVar", "var": "n"}]}],
                 [{"op": "forever", "body": [{"op": "changeVar", "var": "n"}]}],
                 [{"op": "forever", "body": []}], [{"op": "while", "cond": 1}]):
        rt = runtime()
        rt.start_behaviour("c", prog(body + [{"op": "set", "ch": "dx", "to": 1}], vars={"n": 0}))
        for k in range(1, 11):
            rt.step_to(k / 24)
        assert rt.pose("c")["dx"] == 0 and rt.polled


# --- §4 friendly blocks --------------------------------------------------------------------------

def test_move_turn_scale_squash():
    p = pose_at([{"op": "move", "dx": 10, "dy": -4, "over": 1, "ease": "linear"}], 0.5)
    assert (p["dx"], p["dy"]) == pytest.approx((5, -2))
    p = pose_at([{"op": "moveTo", "x": 3, "y": 4}, {"op": "turn", "deg": 10}, {"op": "turn", "deg": 5},
                 {"op": "scaleTo", "s": 2}, {"op": "squash", "k": 0.25}], 0)
    assert (p["dx"], p["dy"], p["rot"]) == (3, 4, 15) and (p["sx"], p["sy"]) == (1.25, 0.75)
    p = pose_at([{"op": "turnTo", "deg": 40}, {"op": "turnTo", "deg": 30}, {"op": "scaleTo", "sy": "=1/2"}], 0)
    assert p["rot"] == 30 and (p["sx"], p["sy"]) == (1, 0.5)


def test_part_words_and_lift_outward():
    p = pose_at([{"op": "setPart", "part": "arms", "deg": 80}], 0)["parts"]
    assert p == {"arm:-1": -80, "arm:1": 80}
    p = pose_at([{"op": "setPart", "part": "left arm", "deg": 30}, {"op": "turnPart", "part": "arm_r", "deg": 5},
                 {"op": "setPart", "part": "head", "deg": 12}, {"op": "setPart", "part": "part:ear:-1", "deg": 7}], 0)["parts"]
    assert p == {"arm:-1": -30, "arm:1": 5, "head": 12, "ear:-1": -7}
    p = pose_at([{"op": "setPart", "part": "front legs", "deg": 20}, {"op": "setPart", "part": "back right leg", "deg": 4},
                 {"op": "setPart", "part": "thigh_l", "deg": 1}], 0, legs=4)["parts"]
    assert p == {"leg:-1#2": -20, "leg:1#3": 20, "leg:1#1": 4, "leg:-1": -1}
    p = pose_at([{"op": "setPart", "part": "front paws", "deg": 10}, {"op": "setPart", "part": "left paw", "deg": 3},
                 {"op": "setPart", "part": "back paws", "deg": 2}, {"op": "setPart", "part": "tail", "deg": -6}], 0)["parts"]
    assert p == {"hand:-1": -3, "hand:1": 10, "foot:-1": -2, "foot:1": 2, "tail": -6}
    p = pose_at([{"op": "liftPart", "part": "hands", "px": 12}], 0)
    assert p["lift"] == {"hand:-1": 12, "hand:1": 12} and p["parts"] == {}


def test_wiggles():
    T = 0.3
    s = math.sin(TAU * T)
    assert pose_at([{"op": "bob", "amp": 8}], T)["dy"] == pytest.approx(-8 * abs(s))
    assert pose_at([{"op": "sway"}], T)["rot"] == pytest.approx(5 * s)
    assert pose_at([{"op": "wobble", "px": 3, "every": 0.5}], T)["dx"] == pytest.approx(3 * math.sin(TAU * 2 * T))
    p = pose_at([{"op": "shake", "deg": 4}], T)  # 6 times a second
    assert p["dx"] == pytest.approx(5 * math.sin(TAU * 6 * T)) and p["rot"] == pytest.approx(4 * math.sin(TAU * 6 * T))
    p = pose_at([{"op": "swingPart", "part": "arms", "deg": 30}], T)["parts"]
    assert p["arm:1"] == pytest.approx(30 * s) and p["arm:-1"] == pytest.approx(-30 * s)


def test_window_counts_back_from_dur():
    body = [{"op": "window", "from": 1, "to": -1, "body": [{"op": "wave", "ch": "dx"}]}]
    assert pose_at(body, 0.9, dur=4)["dx"] == 0
    assert pose_at(body, 2.2, dur=4)["dx"] == pytest.approx(math.sin(TAU * 1.2))
    assert pose_at(body, 3.1, dur=4)["dx"] == 0
    body = [{"op": "window", "from": -1, "body": [{"op": "set", "ch": "dx", "to": 1}]}]
    assert pose_at(body, 2.99, dur=4)["dx"] == 0 and pose_at(body, 3, dur=4)["dx"] == 1


# --- §1 params and vars, §5 names ------------------------------------------------------------------

def test_params_defaults_use_dur_and_earlier_params_caller_overrides():
    params = {"a": "=dur * 2", "b": "=a + 1", "c": 5}
    body = [{"op": "set", "ch": "dx", "to": "=a"}, {"op": "set", "ch": "dy", "to": "=b"},
            {"op": "set", "ch": "rot", "to": "=c + extra"}]
    rt = runtime()
    rt.start_behaviour("c", prog(body, params=params), dur=3, params={"c": 1, "extra": 10})
    p = rt.pose("c")
    assert (p["dx"], p["dy"], p["rot"]) == (6, 7, 11)


def test_own_property_names_are_ordinary():
    params = {"constructor": 2, "__proto__": 3, "toString": 4}
    body = [{"op": "set", "ch": "dx", "to": "=constructor + __proto__ * toString"},
            {"op": "set", "ch": "dy", "to": "=hasOwnProperty"}]
    rt = runtime()
    rt.start_behaviour("c", prog(body, params=params, vars={"hasOwnProperty": 7}))
    p = rt.pose("c")
    assert p["dx"] == 14 and p["dy"] == 7


def test_setvar_changevar_and_page_globals():
    rt = runtime()
    rt.vars["speed"] = 2
    rt.start_behaviour("c", prog([{"op": "setVar", "var": "speed", "value": 5},      # a page global: written there
                                  {"op": "changeVar", "var": "count", "by": 2},      # new instance var from 0
                                  {"op": "changeVar", "var": "own", "by": 1},        # the instance's var
                                  {"op": "set", "ch": "dx", "to": "=speed + count + own"}], vars={"own": 10}))
    assert rt.vars["speed"] == 5 and rt.pose("c")["dx"] == 5 + 2 + 11
    assert "count" not in rt.vars


def test_unknown_name_at_run_time_is_a_toon_error():
    rt = runtime()
    with pytest.raises(toon.ToonError, match="unknown name"):
        rt.start_behaviour("c", prog([{"op": "set", "ch": "dx", "to": "=nowhere"}]))
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "wait", "for": 1}, {"op": "set", "ch": "dx", "to": "=later"}]))
    with pytest.raises(toon.ToonError, match=r"scripts\.0\.body\.1.*later"):
        rt.step_to(2)
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "drive", "ch": "dx", "value": "=ghost"}]))
    with pytest.raises(toon.ToonError, match="ghost"):
        rt.pose("c")
    rt.vars["ghost"] = 3
    assert rt.pose("c")["dx"] == 3


def test_random_is_mulberry32_seeded():
    def mulberry32(a):
        def nxt():
            nonlocal a
            a = (a + 0x6D2B79F5) & 0xFFFFFFFF
            t = a
            t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
            t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
            return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296
        return nxt
    rng = mulberry32(42)
    expect = [rng() for _ in range(3)]
    rt = runtime(seed=42)
    rt.start_behaviour("c", prog([{"op": "set", "ch": "dx", "to": "=random"}, {"op": "set", "ch": "dy", "to": "=random"},
                                  {"op": "set", "ch": "rot", "to": "=random"}]))
    p = rt.pose("c")
    assert [p["dx"], p["dy"], p["rot"]] == expect
    assert not rt.pose_drew_random


# --- moods and hats ------------------------------------------------------------------------------

def test_mood_latest_write_and_stopped_instances():
    rt = runtime()
    assert rt.pose("c")["mood"] is None
    a = rt.start_behaviour("c", prog([{"op": "set", "ch": "mood", "to": "happy"}, {"op": "wait", "for": 1},
                                      {"op": "set", "ch": "mood", "to": "calm"}]))
    rt.step_to(0.5)
    b = rt.start_behaviour("c", prog([{"op": "set", "ch": "mood", "to": "grumpy"}]))
    assert rt.pose("c")["mood"] == "grumpy"
    rt.step_to(1)
    assert rt.pose("c")["mood"] == "calm"
    rt.stop_behaviour(a)
    assert rt.pose("c")["mood"] == "grumpy"
    rt.stop_behaviour(b)
    assert rt.pose("c")["mood"] is None


def test_hats_key_talk_restart():
    rt = runtime(chars=("a", "b"))
    p = prog([{"op": "ramp", "ch": "dx", "by": 10, "over": 1, "ease": "linear"}],
             [{"op": "set", "ch": "dy", "to": "=talking"}],
             [{"op": "set", "ch": "rot", "to": 1}],
             hats=[{"on": "key", "key": "a"}, {"on": "talk-start"}, {"on": "click"}])
    rt.start_behaviour("a", p)
    rt.start_behaviour("b", p)
    rt.emit("key", char_id="a", key="b")
    assert rt.pose("a")["dx"] == 0
    rt.emit("key", char_id="a", key="a")
    rt.step_to(0.5)
    assert rt.pose("a")["dx"] == pytest.approx(5)
    rt.emit("key", key="a")  # restarts a's ramp from 5, starts b's
    rt.step_to(1)
    assert rt.pose("a")["dx"] == pytest.approx(10) and rt.pose("b")["dx"] == pytest.approx(5)
    rt.emit("talk-start", char_id="b")
    assert rt.pose("b")["dy"] == 1 and rt.pose("a")["dy"] == 0
    rt.emit("click")
    assert rt.pose("a")["rot"] == 1 and rt.pose("b")["rot"] == 1
    with pytest.raises(toon.ToonError):
        rt.emit("key", char_id="zed")


def test_inputs_live_in_values():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "bob", "amp": "=20*loud"}]))
    rt.set_inputs("c", loud=0.5)
    rt.step_to(0.25)
    assert rt.pose("c")["dy"] == pytest.approx(-10)
    assert not rt.inputs_read  # a pose reading them does not count
