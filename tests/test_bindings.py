"""§9.6 input bindings, hand-worked: t = bindingT(v, inMin, inMax), out = outMin + (outMax − outMin)·t."""
import pytest

from oracles.sm_helpers import anim, doc, inst, layer, state, tl

BONES = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"},
         {"id": "t", "name": "t", "parent": "root", "x": 5}]
SLOTS = [{"id": "s", "name": "s", "bone": "b", "color": "#80808080"}]


def bdoc(bindings, inputs=(("v", "number", 0),), **kw):
    return doc(inputs=list(inputs), layers=[layer([state("A")])], bones=BONES, slots=SLOTS, bindings=bindings, **kw)


def binding(prop, obj="bone", target="b", inp="v", in_min=0, in_max=10, out_min=0, out_max=100, id="bd"):
    return {"id": id, "input": inp, "object": obj, "target": target, "property": prop,
            "inMin": in_min, "inMax": in_max, "outMin": out_min, "outMax": out_max}


def local(i, k):
    return i.world[i.document.bone_index("b")][k]


@pytest.mark.parametrize("v,x", [
    (0, 0), (2.5, 25), (10, 100),
    (15, 100),   # clamp(1.5) = 1
    (-5, 0),     # clamp(−0.5) = 0
])
def test_bone_x_linear_and_clamped(v, x):
    i = inst(bdoc([binding("x")]))
    i.set_input("v", v)
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(x)


@pytest.mark.parametrize("v,x", [(4.999, 20), (5, 80), (7, 80)])
def test_in_min_equals_in_max_is_a_step(v, x):
    # inMax == inMin = 5: t = v ≥ 5 ? 1 : 0; out 20 → 80
    i = inst(bdoc([binding("x", in_min=5, in_max=5, out_min=20, out_max=80)]))
    i.set_input("v", v)
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(x)


def test_rotation_and_scale_and_later_binding_wins():
    # rotation 0→90 over v 0..1 at v 0.5 ⇒ 45°: a = cos45, c = sin45.
    # scaleX: two bindings; the later (2 + 2·0.5 = 3) wins over the first (1.5).
    bs = [binding("rotation", in_max=1, out_max=90, id="r"),
          binding("scaleX", in_max=1, out_min=1, out_max=2, id="s1"),
          binding("scaleX", in_max=1, out_min=2, out_max=4, id="s2")]
    i = inst(bdoc(bs))
    i.set_input("v", 0.5)
    i.advance(0.1)
    a, b, c, d = i.world[1][:4]
    assert a == pytest.approx(3 * 0.7071067811865476) and c == pytest.approx(3 * 0.7071067811865476)
    assert b == pytest.approx(-0.7071067811865476) and d == pytest.approx(0.7071067811865476)


def test_bindings_apply_after_animations():
    # the state's animation keys x = 30; the binding (v = 5 ⇒ 50) replaces it
    a = anim("a", [tl("bone", "b", "x", [(0, 30), (1, 30)])])
    d = doc(inputs=[("v", "number", 5)], layers=[layer([state("A", "a")])], bones=BONES, slots=SLOTS,
            bindings=[binding("x")], animations=[a])
    i = inst(d)
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(50)


def test_bool_input_as_0_1_and_string_input_skipped():
    bs = [binding("y", inp="flag", in_max=1, out_min=3, out_max=9, id="y"),
          binding("x", inp="txt", in_max=1, out_min=3, out_max=9, id="x")]
    d = bdoc(bs, inputs=[("flag", "bool", False), ("txt", "string", "1")])
    i = inst(d)
    i.advance(0.1)
    assert local(i, 5) == pytest.approx(3)   # false ⇒ 0 ⇒ 3
    assert local(i, 4) == pytest.approx(0)   # text input skipped: setup x 0
    i.set_input("flag", True)
    i.advance(0.1)
    assert local(i, 5) == pytest.approx(9)   # true ⇒ 1 ⇒ 9


def test_missing_input_or_target_skipped():
    bs = [binding("x", inp="nope"), binding("x", target="ghost", id="g")]
    i = inst(bdoc(bs))
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(0)


def test_slot_alpha_replaces_alpha_only():
    # setup colour #80808080 = (128/255, 128/255, 128/255, 128/255); alpha ← 0.25 + 0.5·0.5
    i = inst(bdoc([binding("alpha", obj="slot", target="s", in_max=1, out_min=0.25, out_max=0.75)]))
    i.set_input("v", 0.5)
    i.advance(0.1)
    r, g, b, a = i.slot_colors[0]
    assert (r, g, b) == pytest.approx((128 / 255,) * 3) and a == pytest.approx(0.5)


def test_slot_color_lerps_hex_outputs():
    # #ff000000 → #00ff80ff at t = 0.25: (0.75, 0.25, 0.25·128/255, 0.25)
    bd = binding("color", obj="slot", target="s", in_max=4, out_min="#ff000000", out_max="#00ff80ff")
    i = inst(bdoc([bd]))
    i.set_input("v", 1)
    i.advance(0.1)
    assert list(i.slot_colors[0]) == pytest.approx([0.75, 0.25, 0.25 * 128 / 255, 0.25])


def test_constraint_live_value():
    # transform constraint mixRotate driven 0..1 → 0.2..0.6 at v 0.5 ⇒ 0.4
    cons = {"transform": [{"id": "tc", "name": "tc", "bones": ["b"], "target": "t", "mixRotate": 1,
                           "mixTranslate": 0, "mixScale": 0, "mixShear": 0}]}
    bd = binding("mixRotate", obj="constraint", target="tc", in_max=1, out_min=0.2, out_max=0.6)
    i = inst(bdoc([bd], constraints=cons))
    i.set_input("v", 0.5)
    i.advance(0.1)
    live = i.constraint_live("tc")
    assert live[5] == pytest.approx(0.4)  # OB_CV_MIX_ROTATE


def test_number_inputs_reach_sliders_at_step_10():
    # §9.1 step 10 copies number inputs to skeleton.inputValues; the §7.5 slider on input v
    # (from 0, to 10) scrubs "sa" (x 0→100 over 1 s): v = 5 ⇒ f = 0.5 ⇒ t = 0.5 ⇒ x = 50.
    # v = 0 falls back to the machine default (‖): default 2 ⇒ f = 0.2 ⇒ x = 20.
    sa = anim("sa", [tl("bone", "b", "x", [(0, 0), (1, 100)])])
    cons = {"sliders": [{"id": "sl", "name": "sl", "animation": "sa", "input": "v", "from": 0, "to": 10}]}
    d = doc(inputs=[("v", "number", 2)], layers=[layer([state("A")])], bones=BONES, slots=SLOTS,
            animations=[sa], constraints=cons)
    i = inst(d)
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(20)
    i.set_input("v", 5)
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(50)
    i.set_input("v", 0)
    i.advance(0.1)
    assert local(i, 4) == pytest.approx(20)
