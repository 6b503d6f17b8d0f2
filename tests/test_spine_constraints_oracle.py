"""The runtime's constraint stage on the imported Spine example rigs against the
independent eager oracle (tests/oracles/constraint.py, written from §3.2 and §7).

Each frame the C runtime advances (animation with Spine-sampled curves, then the
constraints, with updateSubtree deferred and the other speed-ups of csrc/); the
oracle is handed the same animated local pose, inherit modes, slot attachments,
deform offsets and live constraint values and runs §3.2 updateWorldTransform its plain way: every
updateSubtree recomputes the subtree at once, no caches.  The rigs are imported
with pose_model="openbone" (the oracle implements OpenBone's §7 rules).  Physics
steps carry over in both.  The worlds must agree to 1e-9 (Python's math.hypot is
not libm's, so bits may differ in the last place)."""
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from oracles import constraint as constraint_oracle  # noqa: E402
import openbone  # noqa: E402
from openbone import spine  # noqa: E402

from conftest import REFERENCE, reference  # noqa: E402

SKEL = REFERENCE / "spine" / "skeletons"
FIELDS = ("x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY")

RIGS = [("spineboy-pro", "run"), ("raptor-pro", "walk"), ("tank-pro", "drive"),
        ("celestial-circus-pro", "swing"), ("stretchyman-pro", "sneak")]


@pytest.mark.parametrize("name, anim", RIGS)
def test_constraints_match_the_eager_oracle(name, anim):
    reference("spine", "skeletons", f"{name}.json")
    d = spine.skeleton_json_to_dict(SKEL / f"{name}.json", pose_model="openbone")
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    inst.set_animation(0, anim, True, 0)
    orc = constraint_oracle.Instance(d)
    # the oracle's keys: slot attachments by name; constraint values by id
    cons = [(c, inst.constraint_index(c.id)) for c in orc.constraints]
    dt = 1 / 30
    worst = 0.0
    for frame in range(45):
        inst.advance(dt)
        orc.set_to_setup_pose()
        for b, row, mode in zip(orc.bones, inst.local_pose, inst.inherit_modes):
            b.local = dict(zip(FIELDS, (float(v) for v in row)))
            b.inherit = mode
        orc.deforms = {}
        for s, att in zip(orc.slots, inst.slot_attachments):
            s.attachment = att
            if att is not None:
                off = inst.deform(s.id, att)
                if off is not None:
                    orc.deforms[(s.id, att)] = [float(x) for x in off]
        for c, ci in cons:
            c.values = dict(inst.constraint_values(ci))
        orc.pending += dt
        orc.update_world_transform()
        want = np.array([b.world for b in orc.bones], dtype=np.float64)
        got = np.asarray(inst.world)
        scale = np.maximum(1.0, np.abs(want))
        err = float(np.max(np.abs(got - want) / scale))
        worst = max(worst, err)
        assert err <= 1e-9, (frame, err, orc.bones[int(np.argmax(np.max(np.abs(got - want) / scale, axis=1)))].name)
    assert math.isfinite(worst)
