"""§8 the skeleton: chains, follow-through on the 240 Hz grid, reach / release with spots and
offsets, views, and the friendly swish, bend, letFollow, turnView; values worked out by hand
from the text (the follow recurrence is written out independently here)."""
import math

import pytest

from toon_util import TAU, pose_at, prog, runtime, smooth

H = 1 / 240


# --- §8.2 chain ----------------------------------------------------------------------------------

def chain_segments(tl, amp=1, w=TAU, phase=0, lag=0.08, falloff=1, n=4, decay=None):
    out, f = [], 1
    for i in range(n):
        if i:
            f = f * falloff
        ti = tl - i * lag
        if ti < 0:
            out.append(0)
            continue
        s = math.sin(w * ti + phase) * (math.exp(-decay * ti) if decay is not None else 1)
        out.append(amp * f * s)
    return out


def test_chain_segments_lag_and_falloff():
    b = {"op": "chain", "ch": "part:tail", "amp": 10, "hz": 0.8, "lag": 0.1, "falloff": 0.7, "segments": 4}
    for T in (0.05, 0.15, 0.25, 0.9):
        p = pose_at([b], T)["parts"]
        exp = chain_segments(T, amp=10, w=TAU * 0.8, lag=0.1, falloff=0.7)
        got = [p["tail"], p["tail#1"], p["tail#2"], p["tail#3"]]
        assert got == pytest.approx(exp, abs=1e-12)
    p = pose_at([b], 0.05)["parts"]
    assert p["tail#1"] == 0 and p["tail#3"] == 0  # every segment channel is written from the start


def test_chain_dampsin_on_each_segments_own_clock():
    b = {"op": "chain", "ch": "part:ear:1", "shape": "dampsin", "decay": 2, "segments": 2, "lag": 0.2}
    p = pose_at([b], 0.5)["parts"]
    assert [p["ear:1"], p["ear:1#1"]] == pytest.approx(chain_segments(0.5, lag=0.2, n=2, decay=2))


def test_swish_spreads_deg_over_the_segments():
    p = pose_at([{"op": "swish", "part": "tail", "deg": 20, "every": 0.7}], 0.6)["parts"]
    exp = chain_segments(0.6, amp=5, w=TAU / 0.7)
    assert [p["tail"], p["tail#1"], p["tail#2"], p["tail#3"]] == pytest.approx(exp)
    # a formula is divided as text: "=(x) / 4"
    p2 = pose_at([{"op": "swish", "part": "tail", "deg": "=10*2", "every": 0.7}], 0.6)["parts"]
    assert p2 == p
    # a pair: both sides mirrored, two segments each; a part that is no chain moves whole
    p = pose_at([{"op": "swish", "part": "ears", "deg": 10, "segments": 2}], 0.3)["parts"]
    s = chain_segments(0.3, amp=5, n=2)
    assert p["ear:1"] == pytest.approx(s[0]) and p["ear:-1#1"] == pytest.approx(-s[1])
    p = pose_at([{"op": "swish", "part": "head", "deg": 10}], 0.3)["parts"]
    assert p == {"head": pytest.approx(10 * math.sin(TAU * 0.3))}


def test_bend_ramps_every_segment_to_its_share():
    p = pose_at([{"op": "bend", "part": "body", "deg": 20, "over": 0.5}], 0.25)["parts"]
    assert p == {"torso": pytest.approx(10 * smooth(0.5)), "torso#1": pytest.approx(10 * smooth(0.5))}
    p = pose_at([{"op": "bend", "part": "tail", "deg": 12, "segments": 3}], 0)["parts"]
    assert p == {"tail": 4, "tail#1": 4, "tail#2": 4}


# --- §8.3 follow ------------------------------------------------------------------------------------

def spring(source, T, hz=2.0, damping=0.3, gain=1.0, t0=0.0):
    """The §8.3 grid: ticks at t0 + k/240, semi-implicit Euler, the output of the last tick <= T."""
    w = 2 * math.pi * hz
    w2 = w * w
    den = 1 + H * (2 * damping * w)
    y = v = u = 0.0
    k = 0
    while t0 + k / 240 <= T:
        u = source(t0 + k / 240)
        if k == 0 or not math.isfinite(y) or not math.isfinite(v):
            y, v = u, 0.0
        else:
            v = (v + H * (w2 * (u - y))) / den
            y = y + H * v
        k += 1
    return gain * (y - u)


def step_source(t):
    return 40.0 if t >= 0.5 else 0.0


STEP = [{"op": "wait", "for": 0.5}, {"op": "set", "ch": "dy", "to": 40}]


@pytest.mark.parametrize("T", [0.49, 0.5, 0.51, 0.6, 0.77, 1.3, 2.0])
def test_follow_tick_recurrence_bit_for_bit(T):
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "follow", "ch": "part:ear:1", "source": "dy", "gain": 1.5, "hz": 3,
                                   "damping": 0.2}], STEP))
    rt.step_to(T)
    assert rt.pose("c")["parts"]["ear:1"] == spring(step_source, T, hz=3, damping=0.2, gain=1.5)


def test_follow_source_is_a_motion_read_at_tick_times():
    def hop_dy(t, hz=2, amp=30):
        cyc = (t * hz) % 1
        if cyc < 0.12:
            return 6 * (cyc / 0.12)
        return -amp * math.sin(((cyc - 0.12) / 0.88) * math.pi)
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "hop"}, {"op": "follow", "ch": ["part:ear:-1", "lift:tail"], "source": "dy"}]))
    for T in (0.3, 0.71, 1.5):
        rt.step_to(T)
        p = rt.pose("c")
        exp = spring(hop_dy, T)
        assert p["parts"]["ear:-1"] == exp and p["lift"]["tail"] == exp


def test_follow_starts_settled_and_grid_starts_at_its_own_t0():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "wait", "for": 0.3}, {"op": "follow", "ch": "part:ear:1", "source": "dy"}],
                                 STEP))
    for T in (0.3, 0.55, 0.9):
        rt.step_to(T)
        assert rt.pose("c")["parts"]["ear:1"] == spring(step_source, T, t0=0.3)


def test_follow_never_follows_a_follower_and_sx_rest_is_one():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "follow", "ch": "dy", "source": "rot"},
                                  {"op": "follow", "ch": "sx", "source": "dy"}],
                                 [{"op": "wait", "for": 0.5}, {"op": "set", "ch": "rot", "to": 40}]))
    rt.step_to(0.8)
    p = rt.pose("c")
    assert p["dy"] == spring(step_source, 0.8)
    assert p["sx"] == 1.0  # dy's only writer is a follower: its source reads 0, the output is rest 1


def test_follow_zero_hz_adds_nothing_and_hz_is_held():
    p = pose_at([{"op": "follow", "ch": "part:ear:1", "source": "dy", "hz": "=0"}] + STEP, 1)
    assert p["parts"]["ear:1"] == 0
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "follow", "ch": "part:ear:1", "source": "dy", "hz": "=100"}], STEP))
    rt.step_to(0.6)
    assert rt.pose("c")["parts"]["ear:1"] == spring(step_source, 0.6, hz=60)


def test_follow_nan_source_recovers():
    # the source is Infinity for 0.5 <= tau < 0.52: those ticks give NaN, then it settles again
    body = [{"op": "follow", "ch": "part:ear:1", "source": "dx"},
            {"op": "drive", "ch": "dx", "value": "=10*tau / (tau < 0.5 || tau >= 0.52)"}]

    def src(t):
        return 10 * t if (t < 0.5 or t >= 0.52) else math.inf
    for T in (0.51, 0.55, 0.9):
        p = pose_at(body, T)["parts"]["ear:1"]
        e = spring(src, T)
        assert (math.isnan(p) and math.isnan(e)) or p == e
    assert math.isnan(pose_at(body, 0.51)["parts"]["ear:1"]) and math.isfinite(pose_at(body, 0.55)["parts"]["ear:1"])


def test_let_follow_ears_after_body_gains():
    """letFollow ears after body: dy per side with f = (side*0.4)/n (n = 2 ear segments),
    rot and the spine with f = 1/n; here only dy moves, so each ear channel is f·spring(dy)."""
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "letFollow", "part": "ears", "amount": 2}], STEP))
    rt.step_to(0.9)
    p = rt.pose("c")["parts"]
    s = spring(step_source, 0.9)
    f = 1 * 0.4 / 2
    assert p["ear:1"] == pytest.approx(2 * f * s, abs=0) or p["ear:1"] == (2 * f) * s
    assert p["ear:1#1"] == p["ear:1"] and p["ear:-1"] == pytest.approx(-(2 * f) * s)
    assert set(p) == {"ear:-1", "ear:-1#1", "ear:1", "ear:1#1"}


def test_let_follow_after_a_part_and_a_side_less_target():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "letFollow", "part": "tail", "after": "arms", "hz": 4}],
                                 [{"op": "wait", "for": 0.5}, {"op": "setPart", "part": "right arm", "deg": 40}]))
    rt.step_to(0.8)
    p = rt.pose("c")["parts"]
    s = spring(step_source, 0.8, hz=4)
    # the tail (4 segments) follows the pair's friendly angle: right arm with f = (1*0.5)/4
    assert p["tail"] == pytest.approx(0.125 * s) and p["tail#3"] == pytest.approx(0.125 * s)


# --- §8.4 reach -----------------------------------------------------------------------------------------

def test_reach_spot_weight_glides_like_a_ramp():
    p = pose_at([{"op": "reach", "part": "hands", "at": "hip"}], 0.2)["reach"]
    assert p == {"hand:-1": {"spot": "hip", "w": pytest.approx(0.5)}, "hand:1": {"spot": "hip", "w": pytest.approx(0.5)}}
    assert pose_at([{"op": "reach", "at": "hip"}], 0.4)["reach"] == {"hand:1": {"spot": "hip", "w": 1.0}}
    assert pose_at([], 0)["reach"] == {}


def test_reach_point_hold_release():
    body = [{"op": "reach", "part": "right hand", "to": {"x": 80, "y": "=300"}, "hold": 1}]
    assert pose_at(body, 0.2)["reach"] == {"hand:1": {"x": 80, "y": 300, "w": pytest.approx(0.5)}}
    assert pose_at(body, 1.4)["reach"]["hand:1"]["w"] == 1
    assert pose_at(body, 1.6)["reach"] == {"hand:1": {"x": 80, "y": 300, "w": pytest.approx(0.5)}}  # let go the same way
    assert pose_at(body, 2)["reach"] == {"hand:1": {"x": 80, "y": 300, "w": 0.0}}


def test_reach_point_glides_to_a_new_point():
    body = [{"op": "reach", "to": {"x": 0, "y": 0}}, {"op": "reach", "to": {"x": 100, "y": 50}, "over": 1, "ease": "linear"}]
    assert pose_at(body, 0.9)["reach"] == {"hand:1": {"x": pytest.approx(50), "y": pytest.approx(25), "w": 1.0}}
    body = [{"op": "reach", "at": "chest"}, {"op": "reach", "to": {"x": 100, "y": 50}, "over": 1}]
    assert pose_at(body, 0.5)["reach"]["hand:1"]["x"] == 100  # from a spot the target changes at once


def test_reach_offset_glides_on_the_same_spot():
    body = [{"op": "reach", "at": "head", "dx": 0.1, "dy": -0.03},
            {"op": "reach", "at": "head", "over": 1, "ease": "linear"}]
    assert pose_at(body, 0.2)["reach"] == {"hand:1": {"spot": "head", "dx": 0.1, "dy": -0.03, "w": pytest.approx(0.5)}}
    assert pose_at(body, 0.9)["reach"] == {"hand:1": {"spot": "head", "dx": pytest.approx(0.05),
                                                      "dy": pytest.approx(-0.015), "w": 1.0}}
    assert pose_at(body, 1.4)["reach"] == {"hand:1": {"spot": "head", "w": 1.0}}  # 0, 0 is the spot itself
    body = [{"op": "reach", "at": "head", "dx": 0.1}, {"op": "reach", "at": "mouth", "dx": 0.2, "over": 1}]
    assert pose_at(body, 0.5)["reach"]["hand:1"] == {"spot": "mouth", "dx": 0.2, "dy": 0.0, "w": 1.0}


def test_release_keeps_the_target_and_a_cut_off_glide_freezes():
    body = [{"op": "reach", "part": "left foot", "at": "hip", "over": 0},
            {"op": "for", "for": 0.2, "body": [{"op": "release", "part": "left foot", "ease": "linear"}]}]
    assert pose_at(body, 1)["reach"] == {"foot:-1": {"spot": "hip", "w": pytest.approx(0.5)}}


def test_reach_latest_write_across_instances_and_stop():
    rt = runtime()
    a = rt.start_behaviour("c", prog([{"op": "reach", "at": "hip", "over": 0}]))
    b = rt.start_behaviour("c", prog([{"op": "wait", "for": 1}, {"op": "reach", "at": "head", "over": 0.5}]))
    rt.step_to(1.25)
    r = rt.pose("c")["reach"]["hand:1"]
    assert r == {"spot": "head", "w": pytest.approx(1.0)}  # the glide started from the pose's weight, 1
    rt.stop_behaviour(b)
    assert rt.pose("c")["reach"]["hand:1"] == {"spot": "hip", "w": 1.0}
    rt.stop_behaviour(a)
    assert rt.pose("c")["reach"] == {}


# --- §8.5 views -------------------------------------------------------------------------------------------

def test_view_latest_write_and_turn_view():
    assert pose_at([], 0)["view"] is None
    assert pose_at([{"op": "view", "to": "back"}], 0)["view"] == "back"
    body = [{"op": "turnView", "to": "side", "over": 0.24}, {"op": "set", "ch": "dx", "to": 1}]
    p = pose_at(body, 0.06)
    assert p["sx"] == pytest.approx(abs(math.cos(math.pi * 0.06 / 0.24))) and p["view"] is None
    p = pose_at(body, 0.12)
    assert p["view"] == "side" and p["sx"] == pytest.approx(0, abs=1e-15)
    p = pose_at(body, 0.24)
    assert p["sx"] == 1 and p["dx"] == 1  # the drive stopped with its for; the script waited over
    assert pose_at([{"op": "turnView", "to": "back", "over": 0}], 0)["view"] == "back"


def test_stopped_instance_view_is_gone():
    rt = runtime()
    a = rt.start_behaviour("c", prog([{"op": "view", "to": "side"}]))
    rt.start_behaviour("c", prog([{"op": "wait", "for": 1}, {"op": "view", "to": "front"}]))
    rt.step_to(1)
    assert rt.pose("c")["view"] == "front"
    rt.stop_behaviour(a)
    assert rt.pose("c")["view"] == "front"


def test_flop_and_bow_definitions():
    p = pose_at([{"op": "flop", "part": "ears", "deg": 20}], 0.3)["parts"]
    s = chain_segments(0.3, amp=10, lag=0.1, n=2)
    assert p["ear:1"] == pytest.approx(abs(math.sin(TAU * 0.3)) * 10) and p["ear:-1"] == pytest.approx(-p["ear:1"])
    assert s[0] != 0
    p = pose_at([{"op": "bow", "deg": 30, "over": 0.6}], 0.6)["parts"]
    assert p == {"torso": -15, "torso#1": -15}
