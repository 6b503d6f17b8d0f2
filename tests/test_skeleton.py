"""§3 skeleton: constraint order (§3.2), active flags (§3.3), the clock (§12),
and the Python view of the pose.  Expected values worked out by hand."""
import gc
import json

import numpy as np
import pytest

import openbone
from conftest import make_doc


def doc_with_constraints(ik=(), transform=(), path=(), physics=(), skins=None, bones=None):
    sk = {"bones": bones or [{"id": "b0", "name": "root"}, {"id": "b1", "name": "a", "parent": "b0", "length": 10},
                             {"id": "b2", "name": "t", "parent": "b0"}],
          "ik": list(ik), "transform": list(transform), "path": list(path), "physics": list(physics)}
    if skins:
        sk["skins"] = skins
    return openbone.loads(json.dumps(make_doc(sk)))


def ik(cid, **kw):
    return {"id": cid, "name": cid, "bones": ["b1"], "target": "b2", "mix": 0, **kw}


def tr(cid, **kw):
    return {"id": cid, "name": cid, "bones": ["b1"], "target": "b2", **kw}


def ph(cid, **kw):
    return {"id": cid, "name": cid, "bone": "b1", **kw}


def order_names(doc):
    inst = openbone.Instance(doc)
    return [doc.constraints[i].name for i in inst.constraint_order]


def test_default_order_is_ik_transform_path_physics():
    doc = doc_with_constraints(ik=[ik("k0"), ik("k1")], transform=[tr("t0")], physics=[ph("p0")])
    assert order_names(doc) == ["k0", "k1", "t0", "p0"]


def test_order_keys_sort_stably_against_default_positions():
    # default list: k0(i=0) k1(i=1) t0(i=2) p0(i=3); keys: k0→0 (unset: its index),
    # k1→5, t0→0, p0→1.  Sorted by (key, index): k0(0,0) t0(0,2) p0(1,3) k1(5,1).
    doc = doc_with_constraints(ik=[ik("k0"), ik("k1", order=5)], transform=[tr("t0", order=0)],
                               physics=[ph("p0", order=1)])
    assert order_names(doc) == ["k0", "t0", "p0", "k1"]


def test_transform_before_ik_with_negative_and_fractional_orders():
    # keys: k0→0, k1→1, t0→-1, t1→0.5 (i=3) ⇒ t0(-1) k0(0) t1(0.5) k1(1)
    doc = doc_with_constraints(ik=[ik("k0"), ik("k1")], transform=[tr("t0", order=-1), tr("t1", order=0.5)])
    assert order_names(doc) == ["t0", "k0", "t1", "k1"]


def test_equal_orders_keep_default_order():
    doc = doc_with_constraints(ik=[ik("k0", order=2), ik("k1", order=2)], transform=[tr("t0", order=2)])
    assert order_names(doc) == ["k0", "k1", "t0"]


def test_skin_constraints_and_bones_active_flags():
    # §3.3: k_hero is listed by the hero skin only; k_cape targets a bone that
    # only the hero skin lists.  Without a skin both are skipped.
    bones = [{"id": "b0", "name": "root"}, {"id": "b1", "name": "a", "parent": "b0"},
             {"id": "b2", "name": "t", "parent": "b0"}, {"id": "cape", "name": "cape", "parent": "b0"}]
    skins = [{"id": "s0", "name": "default", "attachments": {}},
             {"id": "s1", "name": "hero", "attachments": {}, "bones": ["cape"], "constraints": ["k_hero"]},
             {"id": "s2", "name": "plain", "attachments": {}}]
    doc = doc_with_constraints(ik=[ik("k_free"), ik("k_hero"), {**ik("k_cape"), "target": "cape"}],
                               skins=skins, bones=bones)
    inst = openbone.Instance(doc)
    assert list(inst.constraint_active) == [True, False, False]
    assert list(inst.active_bones) == [True, True, True, False]
    inst.set_skin("hero")
    assert list(inst.constraint_active) == [True, True, True]
    assert list(inst.active_bones) == [True, True, True, True]
    inst.set_skin("plain")
    assert list(inst.constraint_active) == [True, False, False]
    inst.set_skin("no such skin")  # unknown ⇒ none
    assert inst.skin == -1 and inst.skin_name is None


def test_clock_sums_dt_exactly():
    doc = doc_with_constraints()
    inst = openbone.Instance(doc)
    total = 0.0
    for _ in range(10):
        inst.advance(0.1)
        total += 0.1
    # summed, not 10 * 0.1: 0.1 added ten times is 0.9999999999999999
    assert inst.time == total == 0.9999999999999999
    inst.advance(-1.0)  # skeleton.update adds dt only if > 0
    inst.advance(0.0)
    assert inst.time == total


def test_world_is_a_read_only_view_that_outlives_the_document_handle():
    doc = doc_with_constraints()
    inst = openbone.Instance(doc)
    w = inst.world
    assert w.shape == (3, 6) and w.dtype == np.float64
    with pytest.raises(ValueError):
        w[0, 0] = 5
    del doc
    gc.collect()
    assert inst.world[0].tolist() == [1, 0, 0, 1, 0, 0] or np.allclose(inst.world[0], [1, 0, 0, 1, 0, 0])


def test_setup_pose_restores_slot_state():
    d = make_doc({"bones": [{"id": "b"}], "slots": [{"id": "s", "bone": "b", "color": "#ff000080", "dark": "#00ff00",
                                                      "attachment": "img"}]})
    inst = openbone.Instance(openbone.loads(json.dumps(d)))
    assert inst.slots.attachments == ["img"]
    assert inst.slots.colors[0].tolist() == [1, 0, 0, 0x80 / 255]
    assert inst.slots.darks[0].tolist() == [0, 1, 0, 1] and inst.slots.has_dark[0]
    assert inst.slots.draw_order.tolist() == [0]


def test_instance_requires_a_document():
    with pytest.raises(TypeError):
        openbone.Instance("rig.obone")


@pytest.mark.parametrize("mode, linear", [
    # parent: rotation 30, scaleX 2, scaleY -1 ⇒ P = [a b; c d] = [√3, 0.5; 1, -√3/2],
    # det = √3·(-√3/2) - 0.5·1 = -2, s = |(a, c)| = 2, u = (√3/2, 1/2).
    # noRotationOrReflection: Q = [s, 0; 0, |det|/s] = [2, 0; 0, 1]
    ("noRotationOrReflection", [2, 0, 0, 1]),
    # noScaleOrReflection: Q = [ux, -uy; uy, ux] (the parent's rotation only)
    ("noScaleOrReflection", [3 ** 0.5 / 2, -0.5, 0.5, 3 ** 0.5 / 2]),
])
def test_spine_inherit_modes_by_hand(mode, linear):
    d = make_doc({"bones": [{"id": "p", "rotation": 30, "scaleX": 2, "scaleY": -1},
                            {"id": "c", "parent": "p", "x": 10, "inherit": mode}]})
    doc = openbone.loads(json.dumps(d))
    assert doc.bones[1].inherit == mode
    inst = openbone.Instance(doc)
    # the child's local matrix is the identity, so world linear = Q; position = P·(10, 0)
    np.testing.assert_allclose(inst.world[1], linear + [10 * 3 ** 0.5, 10], rtol=0, atol=1e-12)
