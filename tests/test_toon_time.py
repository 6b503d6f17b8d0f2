"""§0 exact time: a pose depends only on T.  The same runs stepped at 24 fps, 30 fps, odd steps
and one jump give the same bits; polls are the only step dependence.  And §6 pose_at: warm
runtimes answer with the bits of a fresh runtime stepped once."""
import math
import random

import pytest

from openbone import toon
from toon_util import pose_bits, prog, runtime

EVERYTHING = prog(
    [{"op": "hop", "hz": 1.5, "amp": 20}, {"op": "gait", "every": 0.8, "bob": 3, "roll": 2},
     {"op": "swish", "part": "tail", "deg": 25, "every": 0.7}, {"op": "letFollow", "part": "ears"},
     {"op": "reach", "part": "hands", "at": "hip", "hold": 0.7},
     {"op": "forever", "body": [{"op": "wave", "ch": "part:arm:1", "amp": 12, "hz": 0.9},
                                {"op": "ramp", "ch": "dx", "by": 10, "over": 0.37, "ease": "snappy"},
                                {"op": "wait", "for": 0.13}, {"op": "changeVar", "var": "n"}]}],
    [{"op": "window", "from": 0.5, "to": 2.5, "body": [
        {"op": "bob", "amp": "=3 + n"}, {"op": "turnView", "to": "side", "over": 0.3},
        {"op": "bend", "part": "body", "deg": 15, "over": 0.4}, {"op": "reach", "part": "left foot", "to": {"x": 10, "y": "=n"},
                                                              "over": 0.6},
        {"op": "wait", "for": 0.45}, {"op": "reach", "part": "left foot", "to": {"x": 40, "y": 5}, "over": 0.5}]},
     {"op": "for", "for": 0.9, "body": [{"op": "chain", "ch": "part:hair", "segments": 3, "amp": 7}]}],
    [{"op": "repeat", "times": 5, "body": [{"op": "set", "ch": "dy", "to": "=random*3"}, {"op": "wait", "for": 0.21}]},
     {"op": "follow", "ch": ["part:hand:1", "sx"], "source": "rot", "hz": 3.3, "gain": 0.01},
     {"op": "sway", "deg": 4}, {"op": "together", "branches": [
         [{"op": "turnPart", "part": "arms", "deg": 30, "over": 0.5}],
         [{"op": "wait", "for": 0.3}, {"op": "set", "ch": "mood", "to": "happy"}, {"op": "follow", "ch": "lift:tail",
                                                                                   "source": "part:arm:1"}]]}],
    vars={"n": 0})


def run(schedule, legs=2, program=EVERYTHING, checkpoints=(1.0, 2.0, 3.0)):
    rt = runtime(legs=legs)
    rt.start_behaviour("c", program, dur=3)
    out = {}
    for T in sorted(set(schedule) | set(checkpoints)):
        rt.step_to(T)
        if T in checkpoints:
            out[T] = pose_bits(rt.pose("c"))
    return out


@pytest.mark.parametrize("legs", [0, 2, 4])
def test_step_independence_bit_for_bit(legs):
    at24 = run([k / 24 for k in range(1, 73)], legs)
    at30 = run([k / 30 for k in range(1, 91)], legs)
    rnd = random.Random(7)
    odd = sorted(rnd.uniform(0, 3) for _ in range(137))
    odd_steps = run(odd, legs)
    jump = run([], legs)
    assert at24 == at30 == odd_steps == jump
    # and every 24 fps frame against its own one-jump run
    rt = runtime(legs=legs)
    rt.start_behaviour("c", EVERYTHING, dur=3)
    for k in range(1, 73, 5):
        T = k / 24
        rt.step_to(T)
        one = runtime(legs=legs)
        one.start_behaviour("c", EVERYTHING, dur=3)
        one.step_to(T)
        assert pose_bits(rt.pose("c")) == pose_bits(one.pose("c")), T


def test_polls_are_the_only_step_dependence():
    p = prog([{"op": "until", "cond": "=tau >= 0.5"}, {"op": "set", "ch": "dx", "to": "=tau"}])
    a = runtime()
    a.start_behaviour("c", p)
    for k in range(1, 25):
        a.step_to(k / 24)
    b = runtime()
    b.start_behaviour("c", p)
    b.step_to(1)
    assert a.polled and b.polled
    assert a.pose("c")["dx"] == 12 / 24 and b.pose("c")["dx"] == 1.0


def test_step_to_equal_time_is_a_step():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "repeat", "times": 2, "body": []}, {"op": "set", "ch": "dx", "to": 1}]))
    rt.step_to(0)
    rt.step_to(0)
    assert rt.pose("c")["dx"] == 1 and rt.t == 0


def test_step_sums_time_as_written():
    rt = runtime()
    rt.step(0.1)
    rt.step(0.2)
    assert rt.t == 0.1 + 0.2


# --- §6 pose_at ------------------------------------------------------------------------------------

FOLLOW = prog([{"op": "hop"}, {"op": "letFollow", "part": "ears"}, {"op": "swish", "part": "tail"}])


def fresh(program, tau, **kw):
    rt = toon.create_runtime(seed=kw.pop("seed", 0))
    rt.add_character("c", legs=kw.pop("legs", 2))
    if kw.get("inputs"):
        rt.set_inputs("c", **kw.pop("inputs"))
    kw.pop("inputs", None)
    rt.start_behaviour("c", program, **kw)
    rt.step_to(tau)
    return rt.pose("c")


def test_pose_at_is_a_fresh_runtime_stepped_once():
    for k in list(range(0, 48, 3)) + [10, 5, 0, 47]:  # forward, then backwards (from scratch)
        tau = k / 24
        assert pose_bits(toon.pose_at(FOLLOW, tau)) == pose_bits(fresh(FOLLOW, tau)), tau


def test_pose_at_settings_and_inputs():
    p = prog([{"op": "bob", "amp": "=20*loud"}, {"op": "set", "ch": "dx", "to": "=loud"}])
    a = toon.pose_at(p, 0.4, inputs={"loud": 0.5})
    b = toon.pose_at(p, 0.5, inputs={"loud": 0.25})  # the block read the inputs: not reused
    assert a == fresh(p, 0.4, inputs={"loud": 0.5})
    assert b == fresh(p, 0.5, inputs={"loud": 0.25})
    q = prog([{"op": "gait"}], params={"k": 1})
    assert toon.pose_at(q, 0.3, legs=4, dur=2, params={"k": 3}) == fresh(q, 0.3, legs=4, dur=2, params={"k": 3})


def test_pose_at_with_polls_and_random():
    p = prog([{"op": "repeat", "times": 3, "body": [{"op": "changeVar", "var": "n"}]},
              {"op": "set", "ch": "dx", "to": "=n"}], [{"op": "drive", "ch": "dy", "value": "=random"}], vars={"n": 0})
    for tau in (0.1, 0.2, 0.3, 0.3, 1.0):
        assert pose_bits(toon.pose_at(p, tau)) == pose_bits(fresh(p, tau))


def test_pose_at_warm_scrub_is_linear():
    """Scrubbing forward reuses the warm runtime: each call costs the new stretch only
    (counted in ticks through rt.t, not timed)."""
    from openbone.toon import runtime as R
    p = prog([{"op": "letFollow", "part": "tail"}, {"op": "hop"}])
    toon.pose_at(p, 0.0)
    key = next(k for k in R._WARM if k[0] == id(R.compile_program(p)))
    rt_first = R._WARM[key][0][1]
    for k in range(1, 48):
        toon.pose_at(p, k / 24)
    assert R._WARM[key][0][1] is rt_first and rt_first.t == 47 / 24


# --- bad input (issue 13 item 7) ------------------------------------------------------------------

def test_bad_programs_raise_toon_error():
    rt = runtime()
    for bad in ([], 5, "not json", "{", {"v": 1}, b"\xff\xfe", object()):
        with pytest.raises(toon.ToonError):
            rt.start_behaviour("c", bad)
    assert issubclass(toon.ToonError, ValueError)
    import openbone
    assert issubclass(toon.ToonError, openbone.OpenBoneError)


def test_deep_nesting():
    node = body = []
    for _ in range(100000):
        inner = []
        node.append({"op": "forever", "body": inner})
        node = inner
    rt = runtime()
    with pytest.raises(toon.ToonError):
        rt.start_behaviour("c", prog(body))
    text = '{"v":1,"kind":"behaviour","scripts":[{"body":' + '[{"op":"forever","body":' * 100000 + "[]" + "}]" * 100000 + "}]}"
    with pytest.raises(toon.ToonError):
        rt.start_behaviour("c", text)
    # nesting within JSON's limit runs
    node = body = []
    for _ in range(200):
        inner = []
        node.append({"op": "repeat", "times": 1, "body": inner})
        node = inner
    node.append({"op": "set", "ch": "dx", "to": 3})
    rt.start_behaviour("c", prog(body))
    assert rt.pose("c")["dx"] == 3


def test_megabyte_formulas():
    rt = runtime()
    f = "=" + "+".join(["1"] * 500000)
    rt.start_behaviour("c", prog([{"op": "set", "ch": "dx", "to": f}]))
    assert rt.pose("c")["dx"] == 500000
    for bad in ("=" + "(" * 1000000, "=" + "1+" * 500000, "=" + "-" * 1000000 + "1", "=" + "x" * 1000000 + "(",
                "=" + "2^" * 400000 + "2"):
        with pytest.raises(toon.ToonError):
            rt.start_behaviour("c", prog([{"op": "set", "ch": "dx", "to": bad}]))


NUMERIC = {
    "set": {"ch": "dx", "to": 0}, "ramp": {"ch": "dx", "to": 0, "over": 0}, "drive": {"ch": "dx", "value": 0},
    "wave": {"ch": "dx", "amp": 0, "hz": 0, "phase": 0, "offset": 0, "pow": 0, "decay": 0},
    "hop": {"hz": 0, "amp": 0}, "gait": {"every": 0, "stride": 0, "give": 0, "bend": 0, "armSwing": 0, "bob": 0,
                                         "base": 0, "roll": 0},
    "chain": {"ch": "part:tail", "amp": 0, "hz": 0, "phase": 0, "decay": 0, "lag": 0, "falloff": 0, "segments": 4},
    "follow": {"ch": "part:ear:1", "source": "dy", "gain": 0, "hz": 0, "damping": 0},
    "reach": {"to": {"x": 0, "y": 0}, "over": 0, "hold": 0}, "release": {"over": 0},
    "wait": {"for": 0}, "for": {"for": 0, "body": [{"op": "bob", "amp": 0}]}, "repeat": {"times": 0, "body": []},
    "while": {"cond": 0, "body": []}, "if": {"cond": 0}, "setVar": {"var": "q", "value": 0},
    "changeVar": {"var": "q", "by": 0}, "window": {"from": 0, "to": 0, "body": []},
    "move": {"dx": 0, "dy": 0, "over": 0}, "scaleTo": {"s": 0}, "squash": {"k": 0},
    "setPart": {"part": "arms", "deg": 0, "over": 0}, "liftPart": {"part": "hands", "px": 0},
    "bob": {"amp": 0, "every": 0}, "shake": {"px": 0, "deg": 0}, "swingPart": {"part": "tail", "deg": 0},
    "swish": {"part": "tail", "deg": 0, "lag": 0}, "bend": {"part": "body", "deg": 0, "over": 0},
    "letFollow": {"part": "ears", "amount": 0, "hz": 0, "damping": 0}, "turnView": {"over": 0},
    "bow": {"deg": 0, "over": 0},
}


@pytest.mark.parametrize("op", sorted(NUMERIC))
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "=0/0"])
def test_nan_everywhere_a_number_goes(op, value):
    for field in NUMERIC[op]:
        if not isinstance(NUMERIC[op][field], (int, float)):
            continue
        b = dict(NUMERIC[op], op=op)
        b[field] = value
        rt = runtime()
        try:
            rt.start_behaviour("c", prog([b, {"op": "wait", "for": 0.1}, b]))
        except toon.ToonError:
            continue  # e.g. segments must be a whole number
        for T in (0.05, 0.1, 0.5, 1):
            rt.step_to(T)
            rt.pose("c")


def test_unknown_character_and_time_going_back():
    rt = runtime()
    p = prog([{"op": "bob"}])
    with pytest.raises(toon.ToonError, match="unknown character"):
        rt.start_behaviour("zed", p)
    for call in (lambda: rt.pose("zed"), lambda: rt.set_inputs("zed", loud=1), lambda: rt.emit("click", char_id="zed")):
        with pytest.raises(toon.ToonError):
            call()
    rt.step_to(1)
    for T in (0.5, math.nan):
        with pytest.raises(toon.ToonError):
            rt.step_to(T)
    with pytest.raises(toon.ToonError):
        rt.step(-0.1)
    assert rt.t == 1
    with pytest.raises(toon.ToonError):
        rt.add_character("x", legs=2.5)
    with pytest.raises(toon.ToonError):
        toon.create_runtime(fps=0)


def test_step_to_infinity():
    rt = runtime()
    rt.start_behaviour("c", prog([{"op": "ramp", "ch": "dx", "to": 3, "over": 2}]))
    rt.step_to(math.inf)
    assert rt.pose("c")["dx"] == 3 and rt.t == math.inf
    rt = toon.create_runtime(max_duration=10)
    rt.add_character("c")
    rt.start_behaviour("c", prog([{"op": "forever", "body": [{"op": "wait", "for": 1}]}]))
    with pytest.raises(toon.ToonError, match="max_duration"):
        rt.step_to(math.inf)
