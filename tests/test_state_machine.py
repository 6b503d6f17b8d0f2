"""§9.1-§9.4 state machines: inputs, conditions, transitions, applying states.

Every expectation is worked out by hand from the spec text (comments give the
derivation); none was printed by the code under test.
"""
import math

import pytest

import openbone
from oracles.sm_helpers import anim, bone_local_x, bone_local_y, cond, doc, inst, layer, state, tl, trans


def two_state(input_type, default, op, value, extra_inputs=()):
    """A → B when the one condition on input `v` passes."""
    return doc(inputs=[("v", input_type, default), *extra_inputs],
               layers=[layer([state("A"), state("B")], [trans("A", "B", [cond("v", op, value)])])])


def taken(d, setup=None):
    i = inst(d)
    if setup:
        setup(i)
    i.advance(0.1)
    return i.active_states[0] == "B"


# ---- §9.3 conditionPasses -------------------------------------------------------

def test_trigger_condition_fires_this_frame_only():
    d = doc(inputs=[("go", "trigger", None)],
            layers=[layer([state("A"), state("B")], [trans("A", "B", [cond("go")])])])
    i = inst(d)
    i.advance(0.1)
    assert i.active_states == ["A"]  # not fired
    i.fire("go")
    i.advance(0.1)
    assert i.active_states == ["B"]


def test_trigger_cleared_at_step_6_when_unused():
    # fired while no transition uses it: step 6 clears it, so a later frame does not see it
    d = doc(inputs=[("go", "trigger", None), ("ok", "bool", False)],
            layers=[layer([state("A"), state("B")], [trans("A", "B", [cond("go"), cond("ok", "==", True)])])])
    i = inst(d)
    i.fire("go")
    i.advance(0.1)  # ok false: not taken; go cleared at step 6
    assert i.active_states == ["A"]
    i.set_input("ok", True)
    i.advance(0.1)
    assert i.active_states == ["A"]
    i.fire("go")
    i.advance(0.1)
    assert i.active_states == ["B"]


def test_eq_is_strict_true_is_not_1():
    assert not taken(two_state("bool", True, "==", 1))        # true === 1 is false
    assert taken(two_state("bool", True, "==", True))
    assert not taken(two_state("number", 1, "==", True))      # 1 === true is false


def test_eq_numbers_within_1e9():
    d = two_state("number", 0, "==", 0.3)
    assert taken(d, lambda i: i.set_input("v", 0.1 + 0.2))    # 0.30000000000000004: |Δ| = 5.6e-17
    assert taken(d, lambda i: i.set_input("v", 0.3 + 5e-10))  # |Δ| = 5e-10 ≤ 1e-9
    assert not taken(d, lambda i: i.set_input("v", 0.3 + 2e-9))


def test_ne_is_strict_without_epsilon():
    d = two_state("number", 0, "!=", 0.3)
    assert taken(d, lambda i: i.set_input("v", 0.1 + 0.2))    # not === 0.3 ⇒ != passes
    assert not taken(d, lambda i: i.set_input("v", 0.3))
    assert taken(two_state("bool", True, "!=", 1))            # true !== 1


@pytest.mark.parametrize("op,w,v,expected", [
    (">", 0.5, True, True),      # Number(true) = 1 > 0.5
    (">", 0.5, False, False),    # 0 > 0.5
    ("<", 1, False, True),       # 0 < 1
    (">=", 1, True, True),       # 1 >= 1
    ("<=", 0, False, True),      # 0 <= 0
    ("<=", -0.5, False, False),  # 0 <= -0.5
])
def test_ordering_ops_on_bool_inputs(op, w, v, expected):
    assert taken(two_state("bool", v, op, w)) is expected


@pytest.mark.parametrize("op,w,v,expected", [
    (">", 9, 10, True), (">", 10, 10, False), (">=", 10, 10, True),
    ("<", 10, 9.5, True), ("<=", 9.5, 9.5, True), ("<", 9.5, 9.5, False),
    (">", "9", 10, True),        # Number("9") = 9
])
def test_ordering_ops_on_numbers(op, w, v, expected):
    assert taken(two_state("number", v, op, w)) is expected


def test_ordering_ops_on_strings_use_number():
    assert taken(two_state("string", "10", ">", 9))        # Number("10") = 10 > 9
    assert not taken(two_state("string", "abc", ">", 0))   # NaN > 0 false
    assert not taken(two_state("string", "abc", "<=", 0))  # NaN <= 0 false


def test_string_inputs_compare_string_forms():
    assert taken(two_state("string", "1", "==", 1))         # String(1) = "1"
    assert taken(two_state("string", "true", "==", True))   # String(true) = "true"
    assert not taken(two_state("string", "1.0", "==", 1))   # "1.0" ≠ "1"
    assert taken(two_state("string", "a", "!=", "b"))
    assert not taken(two_state("string", "2", "!=", 2))     # "2" == "2"


def test_missing_input_condition_is_false():
    d = doc(inputs=[("v", "number", 1)],
            layers=[layer([state("A"), state("B")], [trans("A", "B", [cond("nope", ">", 0)])])])
    assert not taken(d)


# ---- §9.5 setInput coercions ------------------------------------------------------

def test_set_input_coercions():
    d = doc(inputs=[("n", "number", 0), ("b", "bool", False), ("s", "string", ""), ("t", "trigger", None)],
            layers=[layer([state("A")])])
    i = inst(d)
    assert i.set_input("n", "2.5") and i.inputs["n"] == 2.5      # Number("2.5")
    assert not i.set_input("n", "abc") and i.inputs["n"] == 2.5  # NaN: ignored
    assert not i.set_input("n", math.inf) and i.inputs["n"] == 2.5
    assert not i.set_input("n", 2.5)                             # no change ⇒ no inputChange
    assert i.set_input("n", True) and i.inputs["n"] == 1.0       # Number(true)
    assert i.set_input("n", " 0x10 ") and i.inputs["n"] == 16.0  # Number(" 0x10 ") = 16
    assert i.set_input("b", "true") and i.inputs["b"] is True
    assert i.set_input("b", "false") is True and i.inputs["b"] is False  # "false" === "true"? no
    assert i.set_input("b", 1) and i.inputs["b"] is True          # truthiness
    assert i.set_input("b", "x") and i.inputs["b"] is False       # a string: === "true"
    assert i.set_input("b", 0.5) and i.inputs["b"] is True
    assert i.set_input("s", 1.5) and i.inputs["s"] == "1.5"       # String(1.5)
    assert i.set_input("s", True) and i.inputs["s"] == "true"
    assert i.set_input("s", 3.0) and i.inputs["s"] == "3"         # String(3)
    assert i.set_input("t", 123) is False                         # trigger ⇒ fire
    assert i.inputs["t"] is False
    changes = [r["text"] for r in i.log if r["type"] == "inputChange"]
    assert changes[0] == "n=2.5" and "b=true" in changes


def test_unknown_input_raises():
    d = doc(inputs=[("n", "number", 0)], layers=[layer([state("A")])])
    i = inst(d)
    with pytest.raises(openbone.OpenBoneError):
        i.set_input("zzz", 1)
    with pytest.raises(openbone.OpenBoneError):
        openbone.Instance(d, state_machine="nope")


# ---- §9.3 canTake / exitTime / order ----------------------------------------------

def one_second():
    return anim("a1", [tl("bone", "b", "x", [(0, 0), (1, 100)])], duration=1)


def frames_until_b(d, dt=0.25, n=8):
    i = inst(d)
    for k in range(1, n + 1):
        i.advance(dt)
        if i.active_states[0] == "B":
            return k
    return None


def test_no_conditions_means_exit_time_1():
    # A plays a 1 s animation.  Settle (step 5) sees the time before this frame's
    # increment: frame k sees (k−1)·0.25, so progress 1 first at frame 5.
    d = doc(layers=[layer([state("A", "a1"), state("B")], [trans("A", "B")])], animations=[one_second()])
    assert frames_until_b(d) == 5


def test_explicit_exit_time_with_conditions():
    # exitTime 0.5: progress 0.5 at frame 3 (time 0.5 before its increment)
    d = doc(inputs=[("ok", "bool", True)],
            layers=[layer([state("A", "a1"), state("B")],
                          [trans("A", "B", [cond("ok", "==", True)], exitTime=0.5)])],
            animations=[one_second()])
    assert frames_until_b(d) == 3
    # conditions without exitTime: taken at once (frame 1)
    d = doc(inputs=[("ok", "bool", True)],
            layers=[layer([state("A", "a1"), state("B")], [trans("A", "B", [cond("ok", "==", True)])])],
            animations=[one_second()])
    assert frames_until_b(d) == 1


def test_self_transition_without_conditions_never_taken():
    d = doc(layers=[layer([state("A", "a1"), state("B")], [trans("A", "A"), trans("A", "B", exitTime=0.75)])],
            animations=[one_second()])
    # A→A (no conditions) is never taken; A→B at progress 0.75 = frame 4
    assert frames_until_b(d) == 4


def test_any_to_current_never_taken():
    d = doc(inputs=[("ok", "bool", True)],
            layers=[layer([state("A", "a1"), state("B")], [trans("@any", "A", [cond("ok", "==", True)])])],
            animations=[one_second()])
    i = inst(d)
    for _ in range(3):
        i.advance(0.5)
    # re-entering A would log "A -> A" and restart its time
    assert [r["text"] for r in i.log if r["type"] == "stateChange"] == ["null -> A"]
    # a self transition with conditions is taken (fresh instance: time restarts)
    d = doc(inputs=[("go", "trigger", None)],
            layers=[layer([state("A", "a1")], [trans("A", "A", [cond("go")])])], animations=[one_second()])
    i = inst(d)
    i.advance(0.5)
    assert bone_local_x(i) == pytest.approx(50)
    i.fire("go")
    i.advance(0.25)  # re-entered at step 5: time 0 + 0.25 ⇒ x 25
    assert bone_local_x(i) == pytest.approx(25)


def test_specific_first_stable_order():
    # @any→C is listed first, A→B second: specific-first puts A→B ahead.
    d = doc(inputs=[("ok", "bool", True)],
            layers=[layer([state("A"), state("B"), state("C")],
                          [trans("@any", "C", [cond("ok", "==", True)]),
                           trans("A", "B", [cond("ok", "==", True)])])])
    i = inst(d)
    i.advance(0.1)
    # hop 1 A→B; hop 2 from B: @any→C passes ⇒ C (in the same frame)
    assert i.active_states == ["C"]
    stages = [r["text"] for r in i.log if r["type"] == "stateChange"]
    assert stages == ["null -> A", "A -> B", "B -> C"]


def test_missing_target_skipped_and_keeps_trigger():
    d = doc(inputs=[("go", "trigger", None)],
            layers=[layer([state("A"), state("B")],
                          [trans("A", "nowhere", [cond("go")]), trans("A", "B", [cond("go")])])])
    i = inst(d)
    i.fire("go")
    i.advance(0.1)
    assert i.active_states == ["B"]


def test_settle_stops_after_4_hops():
    states = [state(s) for s in "ABCDEF"]
    chain = [trans(a, b, [cond("ok", "==", True)]) for a, b in zip("ABCDE", "BCDEF")]
    d = doc(inputs=[("ok", "bool", True)], layers=[layer(states, chain)])
    i = inst(d)
    i.advance(0.1)
    assert i.active_states == ["E"]  # A→B→C→D→E: 4 hops
    i.advance(0.1)
    assert i.active_states == ["F"]


def test_on_complete_enters_with_mix_0_1():
    # A: 0.5 s, x 0→50 (not looping); onComplete B: y keyed to 20, x not keyed.
    # dt 0.25: frame 3 settle sees time 0.5 ⇒ progress 1 ⇒ enter B, mix 0.1.
    # Frame 3, step 7: A.time = 0.75, mixTime = 0.25 ≥ 0.1 ⇒ from dropped: only B.
    a = anim("a", [tl("bone", "b", "x", [(0, 0), (0.5, 50)])], duration=0.5)
    bb = anim("bb", [tl("bone", "b", "y", [(0, 20), (1, 20)])], duration=1)
    d = doc(layers=[layer([state("A", "a", loop=False, onComplete="B"), state("B", "bb")])], animations=[a, bb])
    i = inst(d)
    i.advance(0.25)
    assert bone_local_x(i) == pytest.approx(25)
    i.advance(0.25)
    assert i.active_states == ["A"] and bone_local_x(i) == pytest.approx(50)
    i.advance(0.25)
    assert i.active_states == ["B"]
    assert bone_local_x(i) == pytest.approx(0) and bone_local_y(i) == pytest.approx(20)
    # with dt 0.0625 (exact in binary; §12) the 0.1 s cross-fade is visible: frame 9
    # settle sees 8·0.0625 = 0.5 ⇒ B; step 7: mixTime 0.0625 ⇒ mixA 0.625; A (time
    # 0.5625, clamped to 0.5: x 50) applied at 1 with mix-out alpha 0.375 for x (B does
    # not key x): x = 50·0.375 = 18.75; B at 0.625: y = 20·0.625 = 12.5.
    i = inst(d)
    for _ in range(9):
        i.advance(0.0625)
    assert i.active_states == ["B"]
    assert bone_local_x(i) == pytest.approx(18.75) and bone_local_y(i) == pytest.approx(12.5)
    # with dt 0.05 the summed time after 10 frames is 0.49999999999999994 < 0.5 (§12):
    # onComplete waits one more frame
    i = inst(d)
    for _ in range(11):
        i.advance(0.05)
    assert i.active_states == ["A"]
    i.advance(0.05)
    assert i.active_states == ["B"]


def test_on_complete_of_looping_state_after_first_cycle():
    a = anim("a", [tl("bone", "b", "x", [(0, 0), (0.5, 50)])], duration=0.5)
    d = doc(layers=[layer([state("A", "a", onComplete="B"), state("B")])], animations=[a])
    i = inst(d)
    i.advance(0.25)
    i.advance(0.25)
    assert i.active_states == ["A"]
    i.advance(0.25)  # progress 0.5/0.5 = 1
    assert i.active_states == ["B"]


# ---- §9.2 exit states, §9.4 applying ---------------------------------------------

def test_exit_state_fades_layer_out():
    # A keys x = 40.  Exit with duration 0.4, dt 0.1: frame 1 enters the exit (mix 0.4);
    # step 7 mixTime 0.1 ⇒ mixA 0.25 ⇒ A applied at 1 − 0.25: x = 40·0.75 = 30;
    # frame 2: 40·0.5 = 20; frame 3: 10; frame 4: mixTime 0.4 ≥ 0.4 ⇒ from dropped: 0.
    a = anim("a", [tl("bone", "b", "x", [(0, 40), (1, 40)])])
    d = doc(inputs=[("leave", "bool", True)],
            layers=[layer([state("A", "a"), {"id": "X", "name": "X", "type": "exit"}],
                          [trans("A", "X", [cond("leave", "==", True)], duration=0.4)])],
            animations=[a])
    i = inst(d)
    xs = []
    for _ in range(5):
        i.advance(0.1)
        xs.append(round(bone_local_x(i), 9))
    assert xs == [30, 20, 10, 0, 0]
    assert i.active_states == ["exit"]
    i.set_input("leave", False)  # never evaluates again
    i.advance(0.1)
    assert i.active_states == ["exit"]


def blend_doc(entries, v):
    anims = [anim("lo", [tl("bone", "b", "x", [(0, 10), (1, 10)])]),
             anim("mid", [tl("bone", "b", "x", [(0, 20), (1, 20)])]),
             anim("hi", [tl("bone", "b", "x", [(0, 40), (1, 40)])])]
    st = {"id": "S", "name": "S", "type": "blend1d", "input": "v",
          "entries": [{"value": val, "animation": a} for val, a in entries]}
    return doc(inputs=[("v", "number", v)], layers=[layer([st])], animations=anims)


@pytest.mark.parametrize("v,x", [
    (0.5, 15),     # lo=lo(0) hi=mid(1) t=0.5: 10 then lerp to 20 at 0.5 = 15
    (1.5, 30),     # mid(1), hi(2): t = 0.5: 20 + (40 − 20)·0.5 = 30
    (1.75, 35),    # t = 0.75: 20 + 20·0.75
    (2, 40),       # v ≥ last: lo = hi = last
    (5, 40),
    (-3, 10),      # below the first: lo = hi = first
    (0, 10),       # t = 0: hi not applied
])
def test_blend1d_lo_hi_t(v, x):
    # entries listed out of order: stably sorted by value (0 lo, 1 mid, 2 hi)
    i = inst(blend_doc([(2, "hi"), (0, "lo"), (1, "mid")], v))
    i.advance(0.1)
    assert bone_local_x(i) == pytest.approx(x)


def test_blend1d_stable_sort_of_equal_values():
    # values [1: hi, 0: lo, 1: mid] sort stably to lo(0), hi(1), mid(1); v = 1 ≥ last
    # (1) ⇒ lo = hi = the last entry: mid ⇒ x = 20.  v = 0.5: lo(0)…hi(1): 10→40 at 0.5 = 25.
    i = inst(blend_doc([(1, "hi"), (0, "lo"), (1, "mid")], 1))
    i.advance(0.1)
    assert bone_local_x(i) == pytest.approx(20)
    i = inst(blend_doc([(1, "hi"), (0, "lo"), (1, "mid")], 0.5))
    i.advance(0.1)
    assert bone_local_x(i) == pytest.approx(25)


def test_blend1d_progress_uses_stronger_entry():
    # lo: 1 s, hi: 0.5 s.  v = 0.75 ⇒ t = 0.75 ≥ 0.5 ⇒ progress over hi's 0.5 s.
    # onComplete at progress 1: settle sees 0.5 at frame 3 (dt 0.25).  With v = 0.25
    # (lo stronger, 1 s) it is frame 5.
    lo = anim("lo", [tl("bone", "b", "x", [(0, 0), (1, 10)])], duration=1)
    hi = anim("hi", [tl("bone", "b", "x", [(0, 0), (0.5, 10)])], duration=0.5)
    for v, frame in ((0.75, 3), (0.25, 5)):
        st = {"id": "A", "name": "A", "type": "blend1d", "input": "v", "onComplete": "B",
              "entries": [{"value": 0, "animation": "lo"}, {"value": 1, "animation": "hi"}]}
        d = doc(inputs=[("v", "number", v)], layers=[layer([st, state("B")])], animations=[lo, hi])
        assert frames_until_b(d) == frame


def test_cross_fade_mixes_out_what_only_the_old_state_keys():
    # A keys x = 10; B keys y = 20.  Trigger at frame 1, duration 0.5, dt 0.1:
    # step 7 mixTime 0.1 ⇒ mixA 0.2.  A at alpha 1 with mixOut {into: [b], 1 − 0.2}:
    # x (not keyed by B) uses 0.8: 0 + 10·0.8 = 8.  B at 0.2: y = 20·0.2 = 4.
    a = anim("a", [tl("bone", "b", "x", [(0, 10), (1, 10)])])
    b = anim("bb", [tl("bone", "b", "y", [(0, 20), (1, 20)])])
    d = doc(inputs=[("go", "trigger", None)],
            layers=[layer([state("A", "a"), state("B", "bb")], [trans("A", "B", [cond("go")], duration=0.5)])],
            animations=[a, b])
    i = inst(d)
    i.fire("go")
    i.advance(0.1)
    assert bone_local_x(i) == pytest.approx(8) and bone_local_y(i) == pytest.approx(4)
    i.advance(0.1)  # mixA 0.4: x 6, y 8
    assert bone_local_x(i) == pytest.approx(6) and bone_local_y(i) == pytest.approx(8)


def test_events_from_current_state_only_with_key_time():
    # A has an event at 0.15, B one at 0.05.  Switching A→B at frame 1 (mix 0.5):
    # A is the from-state and fires nothing; B fires its key at 0.05 in frame 1
    # ((−1e-6, 0.1]).  A state entered fresh again fires from time 0.
    ev = [{"id": "e1", "name": "ping", "int": 3}, {"id": "e2", "name": "pong", "string": "s"}]
    a = anim("a", [], duration=1, events=[{"time": 0.15, "event": "e1"}])
    b = anim("bb", [], duration=1, events=[{"time": 0.05, "event": "e2", "float": 1.5}])
    d = doc(inputs=[("go", "trigger", None)], events=ev,
            layers=[layer([state("A", "a"), state("B", "bb")], [trans("A", "B", [cond("go")], duration=0.5)])],
            animations=[a, b])
    i = inst(d)
    i.fire("go")
    i.advance(0.1)
    assert [(e["name"], e["time"], e["int"], e["float"], e["string"]) for e in i.events] == \
        [("pong", 0.05, 0, 1.5, "s")]
    i.advance(0.1)
    assert i.events == []
    i = inst(d)
    i.advance(0.1)
    i.advance(0.1)  # (0.1, 0.2] crosses 0.15
    assert [(e["name"], e["time"], e["int"]) for e in i.events] == [("ping", 0.15, 3)]
    assert i.events[0]["animation"] == "a"


def test_speed_scales_state_time():
    a = anim("a", [tl("bone", "b", "x", [(0, 0), (1, 100)])])
    d = doc(layers=[layer([state("A", "a", speed=2, loop=False)])], animations=[a])
    i = inst(d)
    i.advance(0.1)  # time 0.2 ⇒ x 20
    assert bone_local_x(i) == pytest.approx(20)


def test_no_state_machine_keeps_plain_pipeline():
    d = doc(layers=[layer([state("A")])])
    i = openbone.Instance(d)
    i.advance(0.1)
    assert i.state_machine is None and i.active_states == []


def test_layers_apply_in_order():
    # layer 2 keys x = 50 over layer 1's x = 10: the later layer wins at full alpha
    a = anim("a", [tl("bone", "b", "x", [(0, 10), (1, 10)])])
    b = anim("bb", [tl("bone", "b", "x", [(0, 50), (1, 50)])])
    d = doc(layers=[layer([state("A", "a")], id="one"), layer([state("B", "bb")], id="two")], animations=[a, b])
    i = inst(d)
    i.advance(0.1)
    assert i.active_states == ["A", "B"] and bone_local_x(i) == pytest.approx(50)


def test_inputs_on_enter_and_state_change_log():
    d = doc(inputs=[("n", "number", 0), ("t", "trigger", None), ("go", "trigger", None)],
            layers=[layer([state("A"), state("B", inputs=[{"input": "n", "value": 7}, {"input": "t", "value": 1},
                                                          {"input": "zz", "value": 1}])],
                          [trans("A", "B", [cond("go")])])])
    i = inst(d)
    i.fire("go")
    i.advance(0.1)
    assert i.inputs["n"] == 7.0 and i.active_states == ["B"]
    assert [r["text"] for r in i.log if r["type"] == "stateChange"] == ["null -> A", "A -> B"]


# ---- §8.9 text driven by an input (crash-game multiplier) ----------------------------

@pytest.mark.parametrize("v,text", [
    (1, "1.00x"), (2.5, "2.50x"),
    (12.345, "12.35x"),   # 12.345 is 12.34500000000000063948…: above the tie ⇒ "12.35"
    (1.005, "1.00x"),     # 1.005 is 1.00499999999999989341…: below the tie ⇒ "1.00"
    (0.125, "0.13x"),     # an exact tie: JS toFixed rounds it up (§12; printf gives "0.12")
])
def test_multiplier_template(v, text):
    # §8.9 formatNumber(v, "0.00x"): prefix "", int "0", frac "00" (minFrac = maxFrac = 2),
    # suffix "x"; s = |v|.toFixed(2), no trailing zeros stripped.
    assert openbone.format_template("{multiplier:0.00x}", {"multiplier": v}) == text


def test_multiplier_text_item_follows_the_input():
    d = doc(inputs=[("mult", "number", 1, "multiplier")], layers=[layer([state("A")])],
            slots=[{"id": "s", "name": "s", "bone": "b", "attachment": "t"}],
            skins=[{"id": "default", "name": "default", "attachments": {"s": {
                "t": {"type": "text", "text": "x{multiplier:0.00x} {{ok}}", "width": 100, "height": 20,
                      "size": 16}}}}])
    i = inst(d)
    assert i.format_text("{multiplier:0.00x}") == "1.00x"
    i.set_input("multiplier", 3.14159)
    i.advance(0.1)
    assert i.format_text("{mult:0.00x}") == "3.14x"  # by id or name
    texts = [it.text for it in i.draw_list() if it.type == "text"]
    assert texts == ["x3.14x {ok}"]


# ---- §9.2 sound hooks, §10 ownership ------------------------------------------------

HOOK_AUDIO = {"assets": [{"id": "a", "name": "a", "duration": 1}],
              "buses": [],
              "sounds": [{"id": "loop", "name": "loop", "asset": "a", "loop": True, "fadeOut": 0.5},
                         {"id": "once", "name": "once", "asset": "a", "fadeOut": 0.125}]}


def test_state_sound_hooks_and_owned_loops():
    # A: enter plays `loop` twice (same owner and tag hook:loop ⇒ the second is skipped)
    # and `once`; B: enter stops every `once` (its fadeOut 0.125), exit plays `once`.
    # A→B with duration 0.25: A's looping sounds stop with max(0.25, fadeOut 0.5) = 0.5.
    a_sounds = [{"sound": "loop", "on": "enter", "action": "play"},
                {"sound": "loop", "on": "enter", "action": "play", "volume": 0.5},
                {"sound": "once", "on": "enter", "action": "play", "volume": 0.5}]
    b_sounds = [{"sound": "once", "on": "enter", "action": "stop"},
                {"sound": "once", "on": "exit", "action": "play"}]
    d = doc(inputs=[("go", "trigger", None)], audio=HOOK_AUDIO,
            layers=[layer([state("A", sounds=a_sounds), state("B", sounds=b_sounds)],
                          [trans("A", "B", [cond("go")], duration=0.25), trans("B", "A", [cond("go")])])])
    i = inst(d)
    i.advance(0.1)
    assert [(c["type"], c["id"], c["sound"], c["volume"], c["loop"], c["source"]) for c in i.audio_commands] == \
        [("play", "play_1", "loop", 1.0, True, "state:A"), ("play", "play_2", "once", 0.5, False, "state:A")]
    i.fire("go")
    i.advance(0.1)
    assert i.audio_commands == [{"type": "stop", "id": "play_1", "fade": 0.5},
                                {"type": "stop", "id": "play_2", "fade": 0.125}]
    i.fire("go")
    i.advance(0.1)  # B → A: B's exit hook, then A's enter hooks (fresh owner)
    assert [(c["type"], c["id"], c["sound"]) for c in i.audio_commands] == \
        [("play", "play_3", "once", ), ("play", "play_4", "loop"), ("play", "play_5", "once")]


def test_inputs_on_enter_fire_triggers():
    # §9.2 inputs on enter use setInput: on a trigger that fires it, and the same settle
    # can use it (B's inputs fire `next` ⇒ B → C in the second hop of frame 1)
    d = doc(inputs=[("next", "trigger", None), ("go", "trigger", None)],
            layers=[layer([state("A"), state("B", inputs=[{"input": "next", "value": True}]), state("C")],
                          [trans("A", "B", [cond("go")]), trans("B", "C", [cond("next")])])])
    i = inst(d)
    i.fire("go")
    i.advance(0.1)
    assert i.active_states == ["C"]
