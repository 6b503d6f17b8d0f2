"""issue 17 (ik): the Spine pose model's IK writes a bone's applied pose only where a later entry
of the update cache reads it (constraints.c's analysis; ik.c).  A local transform constraint
after the IK reads the IK child's applied pose: it must see the solved one (its bone, a sibling
of the child with the same setup, then lands on the child's world), and the IK's own worlds must
not depend on whether the pose is written (bit for bit)."""
import json
import math

import numpy as np
import pytest

import openbone
from conftest import make_doc


def doc(two_bone, reader, target=(4.0, 11.0), mix=1):
    bones = [{"id": "root", "name": "root"},
             {"id": "p", "name": "p", "parent": "root", "length": 5, "rotation": 10},
             {"id": "c", "name": "c", "parent": "p", "x": 5, "length": 10, "rotation": -20},
             {"id": "m", "name": "m", "parent": "p", "x": 5, "length": 10, "rotation": -20},
             {"id": "t", "name": "t", "parent": "root", "x": target[0], "y": target[1]}]
    ik = {"id": "ik", "name": "ik", "bones": ["p", "c"] if two_bone else ["c"], "target": "t", "mix": mix,
          "bendPositive": True, "order": 0}
    sk = {"bones": bones, "ik": [ik]}
    if reader:  # local, absolute, every channel at 1: m's applied pose becomes c's
        sk["transform"] = [{"id": "tc", "name": "tc", "bones": ["m"], "target": "c", "local": True, "order": 1,
                            "mixRotate": 1, "mixX": 1, "mixY": 1, "mixScaleX": 1, "mixScaleY": 1,
                            "mixShearY": 1}]
    d = make_doc(sk)
    d["poseModel"] = "spine"
    return openbone.loads(json.dumps(d))


def worlds(d):
    inst = openbone.Instance(d)
    return {n: np.asarray(inst.world[d.bone_index(n)], dtype=float) for n in ("p", "c", "m")}


@pytest.mark.parametrize("two_bone", [True, False])
@pytest.mark.parametrize("mix", [1, 0.5])
def test_a_later_reader_sees_the_solved_applied_pose(two_bone, mix):
    w = worlds(doc(two_bone, reader=True, mix=mix))
    # m takes c's applied pose (solved), so its world is c's (to rounding: c's may be trig-free)
    assert w["m"] == pytest.approx(w["c"], abs=1e-9)
    # and not the unsolved one: c moved away from its setup angle (p 10°, c −20° ⇒ −10°)
    assert abs(math.degrees(math.atan2(w["c"][2], w["c"][0])) - (-10)) > 1


@pytest.mark.parametrize("two_bone", [True, False])
@pytest.mark.parametrize("mix", [1, 0.5])
def test_the_ik_worlds_do_not_depend_on_the_reader(two_bone, mix):
    a = worlds(doc(two_bone, reader=True, mix=mix))
    b = worlds(doc(two_bone, reader=False, mix=mix))
    for n in ("p", "c"):
        assert a[n].tobytes() == b[n].tobytes(), n


def test_the_two_bone_solve_reaches_the_target_without_a_reader():
    w = worlds(doc(True, reader=False))
    tip = w["c"][4:6] + 10 * w["c"][[0, 2]]
    assert tip == pytest.approx([4.0, 11.0], abs=1e-9)
