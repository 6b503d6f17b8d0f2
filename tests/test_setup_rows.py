"""setToSetupPose restores every row (§3.1) although, since issue 17, it copies only the local
pose rows, slot colours and constraint values that the applied animations' timelines can have
written (skeleton.c build_setup_lists, ob_instance_pose_mark), and every row after any other
writer (set_slot_color, set_local_pose, a snapshot restore, a running state machine).

The property checked: after setToSetupPose the local pose, slot colours and darks, and
constraint values equal the setup values written in the document below, whatever wrote them
before (values read off the document by hand, not produced by the code)."""
import json
import pickle

import numpy as np

import openbone
from conftest import make_doc

# setup values, by hand: bone rows (x, y, rotation, scaleX, scaleY, shearX, shearY)
SETUP_POSE = {
    "root": (0, 0, 0, 1, 1, 0, 0),
    "b1": (10, 20, 30, 1, 1, 0, 0),
    "b2": (5, 0, -45, 2, 1, 0, 0),
    "b3": (1, 2, 3, 1, 1, 0, 0),
}
SETUP_COLOR = {"s1": (1, 1, 1, 1), "s2": (0.5019607843137255, 0.5019607843137255, 0.5019607843137255, 1)}
IK_MIX = 0.75


def _bone(name, parent, p):
    d = {"id": name, "name": name, "x": p[0], "y": p[1], "rotation": p[2], "scaleX": p[3], "scaleY": p[4],
         "shearX": p[5], "shearY": p[6]}
    if parent:
        d["parent"] = parent
    return d


def _tl(target, id, prop, keys):
    return {"target": target, "id": id, "property": prop, "keys": [{"time": t, "value": v} for t, v in keys]}


def _doc():
    skeleton = {
        "bones": [_bone("root", None, SETUP_POSE["root"]), _bone("b1", "root", SETUP_POSE["b1"]),
                  _bone("b2", "b1", SETUP_POSE["b2"]), _bone("b3", "root", SETUP_POSE["b3"])],
        "slots": [{"id": "s1", "name": "s1", "bone": "b1"},
                  {"id": "s2", "name": "s2", "bone": "b2", "color": "#808080"}],
        "ik": [{"id": "ik1", "name": "ik1", "bones": ["b2"], "target": "b3", "mix": IK_MIX}],
    }
    anims = [
        {"id": "anim_a", "name": "a", "duration": 1, "timelines": [
            _tl("bone", "b1", "rotation", [(0, 90), (1, 180)]),
            _tl("bone", "b1", "x", [(0, -7)]),
            _tl("slot", "s1", "color", [(0, "#ff000080")]),
            _tl("ik", "ik1", "mix", [(0, 0.25)]),
            _tl("particles", "s1", "rate", [(0, 100)])]},
        {"id": "anim_b", "name": "b", "duration": 1, "timelines": [
            _tl("bone", "b2", "shearY", [(0, 12), (1, 24)])]},
    ]
    return openbone.loads(json.dumps(make_doc(skeleton, animations=anims)))


def _assert_setup(inst):
    doc = inst.document
    pose = inst._local_pose()
    for name, row in SETUP_POSE.items():
        np.testing.assert_array_equal(pose[doc.bone_index(name)], np.array(row, dtype=float), err_msg=name)
    for name, rgba in SETUP_COLOR.items():
        np.testing.assert_array_equal(inst.slot_colors[doc.slot_index(name)], np.array(rgba), err_msg=name)
    assert inst._constraint_live(0)[0] == IK_MIX
    # every value of every row as a new instance has them (its creation copies every row)
    new = openbone.Instance(inst.document)
    np.testing.assert_array_equal(inst._constraint_live(0), new._constraint_live(0))
    np.testing.assert_array_equal(inst.slot_colors, new.slot_colors)
    np.testing.assert_array_equal(inst.slot_darks, new.slot_darks)
    np.testing.assert_array_equal(inst._local_pose(), new._local_pose())
    for s in range(len(doc.slots)):
        assert inst._particle_live(s) == new._particle_live(s)


def _played(name, frames=5):
    inst = openbone.Instance(_doc())
    inst.set_animation(0, name, loop=True, mix=0)
    for _ in range(frames):
        inst.advance(1 / 30)
    return inst


def test_rows_an_animation_wrote_are_restored():
    inst = _played("a")
    doc = inst.document
    assert inst._local_pose()[doc.bone_index("b1")][0] == -7  # the animation did write
    assert inst._constraint_live(0)[0] == 0.25
    assert inst._particle_live(doc.slot_index("s1"))[2]  # has_rate
    inst.set_to_setup_pose()
    _assert_setup(inst)


def test_rows_of_an_animation_no_longer_played_are_restored():
    inst = _played("a")
    inst.set_animation(0, "b", loop=True, mix=0)
    for _ in range(3):
        inst.advance(1 / 30)
    inst.set_to_setup_pose()
    _assert_setup(inst)


def test_rows_other_writers_set_are_restored():
    inst = _played("b")
    doc = inst.document
    inst.set_slot_color("s2", (0.1, 0.2, 0.3, 0.4))
    inst.set_local_pose("b3", (9, 9, 9, 9, 9, 9, 9))
    inst.set_to_setup_pose()
    _assert_setup(inst)
    # and again on a later frame (the instance tracks rows again after the full copy)
    inst.advance(1 / 30)
    inst.set_local_pose("root", (1, 2, 3, 4, 5, 6, 7))
    inst.set_to_setup_pose()
    _assert_setup(inst)
    assert inst._local_pose()[doc.bone_index("b2")][6] == 0


def test_rows_a_restored_snapshot_carries_are_restored():
    src = _played("a")
    src.set_slot_color("s2", (0.1, 0.2, 0.3, 0.4))
    src.set_local_pose("b3", (9, 9, 9, 9, 9, 9, 9))
    dst = pickle.loads(pickle.dumps(src))
    assert dst.slot_colors[dst.document.slot_index("s2")][0] == 0.1
    dst.set_to_setup_pose()
    _assert_setup(dst)
    cp = src.copy()
    cp.set_to_setup_pose()
    _assert_setup(cp)


def test_rows_a_state_machine_binding_wrote_are_restored():
    from oracles.sm_helpers import doc, inst, layer, state
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root", "x": 3}]
    slots = [{"id": "s", "name": "s", "bone": "b", "color": "#80808080"}]
    bindings = [{"id": "c", "input": "v", "object": "slot", "target": "s", "property": "alpha",
                 "inMin": 0, "inMax": 1, "outMin": 0, "outMax": 1},
                {"id": "x", "input": "v", "object": "bone", "target": "b", "property": "x",
                 "inMin": 0, "inMax": 1, "outMin": 0, "outMax": 50}]
    i = inst(doc(inputs=[("v", "number", 0)], layers=[layer([state("A")])], bones=bones, slots=slots,
                 bindings=bindings))
    i.set_input("v", 1)
    i.advance(0.1)
    assert i.slot_colors[0][3] == 1 and i._local_pose()[1][0] == 50  # the bindings did write
    i.set_to_setup_pose()
    assert i.slot_colors[0][3] == 0.5019607843137255 and i._local_pose()[1][0] == 3
