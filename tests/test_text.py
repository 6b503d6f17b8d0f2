"""§8.9 text records: templates, the input lookup without a state machine, setText.

text.obone inputs (conformance/README.md, "Draw list"): machine a: score 1234567.891,
ratio 0.12345, trig (trigger), name "Ada"; machine b: score 5, flag true, speed 1.5, big 1e21,
neg −0.04, tiny 0.1 + 0.2, trig 7.  Lookup = the default of the first non-trigger input with
that name across machines ⇒ score 1234567.891 (a wins over b), trig 7 (a's trigger skipped).
"""
import math
import os

import numpy as np

import openbone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inst():
    return openbone.Instance(openbone.load(os.path.join(ROOT, "conformance", "fixtures", "text.obone")))


def texts(i):
    return {it.slot: it.text for it in i.draw_list()}


def test_template_outputs_by_hand():
    t = texts(inst())
    # #,##0: toFixed(0) of 1234567.891 = "1234568", separators ⇒ 1,234,568;
    # 0.0#%: 0.12345·100 = 12.3450000000000006 ⇒ toFixed(2) "12.35", minFrac 1 keeps both ⇒ 12.35%
    assert t["score"] == "Score: 1,234,568 (12.35%)"
    assert t["plain"] == "Hello"  # fast path: no braces
    # {{ ⇒ {, }} ⇒ }; string and bool values as String(v); unknown names stay; names are trimmed;
    # a number without pattern: String(Number(v.toFixed(6))); +0.00x: plus sign, 2 decimals, suffix x;
    # 1e21.toFixed(6) is String(1e21) = "1e+21"
    assert t["misc"] == "{x} Ada true {unknown} 1234567.891 +1.50x 1e+21"
    # 0%: 12.345 ⇒ "12"; −0.04 with 0.0 ⇒ "0.0" (no '-' when every digit is 0); 0.1 + 0.2 ⇒ toFixed(6)
    # "0.300000" ⇒ 0.3; trig: the trigger in machine a is skipped, machine b's number 7 is used
    assert t["pct"] == "12%|0.0|0.3|7"
    assert "hidden" not in t  # slot alpha 0: no item


def test_text_item_geometry_and_colour():
    items = {it.slot: it for it in inst().draw_list()}
    plain = items["plain"]
    # the unscaled, unskewed box: width 60, height 10 at (−50, 40) on the root (scaleX 3, skewX 20 ignored)
    np.testing.assert_allclose(plain.vertices, [[-80, 45], [-20, 45], [-20, 35], [-80, 35]], atol=1e-5)
    np.testing.assert_array_equal(plain.uvs, [[0, 0], [1, 0], [1, 1], [0, 1]])
    assert plain.indices.tolist() == [0, 1, 2, 0, 2, 3] and plain.texture is None
    # colour = slot colour (#ffffffcc), not the attachment's red
    np.testing.assert_allclose(items["score"].color, [1, 1, 1, 0.8])
    # score: bone_t (10, 20, rot 30, scale 2 × 0.5); box 100 × 20 rotated 15 at (5, −3): TL = (−50, 10)
    c, s = math.cos(math.radians(15)), math.sin(math.radians(15))
    lx, ly = c * -50 - s * 10 + 5, s * -50 + c * 10 - 3
    C, S = math.cos(math.radians(30)), math.sin(math.radians(30))
    np.testing.assert_allclose(items["score"].vertices[0], [2 * C * lx - 0.5 * S * ly + 10, 2 * S * lx + 0.5 * C * ly + 20],
                               atol=1e-4)
    assert items["misc"].dark == (0.0, 0.0, 0.0, 1.0)


def test_set_text_overrides_per_slot():
    i = inst()
    i.set_text("plain", "Hi {name}!")
    assert texts(i)["plain"] == "Hi Ada!"
    i.set_text("score", "{{{score}}}")  # {{ ⇒ {, {score} ⇒ value, }} ⇒ }
    assert texts(i)["score"] == "{1234567.891}"
    i.set_text("nobody", "x")  # unknown slot: ignored
    i.set_text("plain", None)  # restores the attachment's template
    assert texts(i)["plain"] == "Hello"
    i.advance(0.1)
    assert texts(i)["score"] == "{1234567.891}"  # the override survives setToSetupPose
    i.set_text(1, "by index")
    assert texts(i)["plain"] == "by index"


def test_long_text_grows_only_the_text_buffer():
    i = inst()
    i._draw_build()
    before = i.draw_growths
    i.set_text("plain", "x" * 100000)
    assert texts(i)["plain"] == "x" * 100000
    assert i.draw_growths == before + 1  # counted: the formatted text had to grow once
    texts(i)
    assert i.draw_growths == before + 1


def test_lookup_with_a_running_state_machine():
    # machine b runs: its inputs by id or name; names only machine a has stay as written
    i = openbone.Instance(openbone.load(os.path.join(ROOT, "conformance", "fixtures", "text.obone")),
                          state_machine="b")
    i.advance(0.1)
    t = texts(i)
    assert t["score"] == "Score: 5 ({ratio:0.0#%})"
    assert t["misc"] == "{x} {name} true {unknown} 5 +1.50x 1e+21"
    i.set_input("score", 42.5)
    i.set_input("flag", False)
    i.advance(0.1)
    t = texts(i)
    # 42.5 with #,##0: toFixed(0) rounds the exact tie up ⇒ "43"; without a pattern ⇒ "42.5"
    assert t["score"] == "Score: 43 ({ratio:0.0#%})"
    assert t["misc"] == "{x} {name} false {unknown} 42.5 +1.50x 1e+21"
