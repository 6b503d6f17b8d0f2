"""issue 17 (trig2): the trig pass (skeleton.c bones_trig_pass) either compares each listed row's
keys with its cache entry or, while few listed rows keep their angles, recomputes every listed
row's entry without comparing (probing every 16th frame); both must give the same bits.

The property checked: world matrices and world vertices of Spine example rigs, frame after frame
over animation switches, are bit-identical to those of a twin instance whose every frame takes the
full pass (a local-pose write before each advance marks every row: the pass then checks all bones
from scratch), so neither mode's cache can drift from what the angles give."""
import numpy as np
import pytest

import openbone
from openbone import spine
from conftest import reference

RIGS = [("goblins-pro", ["walk", "idle", "walk"], "goblin"), ("hero-pro", ["run", "idle"], None),
        ("owl-pro", ["idle", "blink"], None), ("spineboy-pro", ["run", "walk"], None)]


def _frames(doc, anims, skin, touch):
    inst = openbone.Instance(doc, skin=skin)
    setup = inst.local_pose.copy()
    out = []
    for k, anim in enumerate(anims):
        if anim not in [a.name for a in doc.animations]:
            continue
        inst.set_animation(0, anim, True, 0 if k == 0 else 0.1)
        for f in range(40):
            if touch:
                inst.set_local_pose(0, tuple(setup[0]))  # (restored by the advance's setToSetupPose)
            inst.advance(1 / 30)
            wv = inst.world_vertices()
            out.append((np.array(inst.world, dtype=np.float64).tobytes(),
                        b"".join(np.asarray(wv[n], dtype=np.float64).tobytes() for n in sorted(wv))))
    return out


@pytest.mark.parametrize("rig,anims,skin", RIGS, ids=[r[0] for r in RIGS])
def test_trig_modes_bit_identical(rig, anims, skin):
    doc = spine.import_skeleton_json(reference("spine", "skeletons", f"{rig}.json"))
    fast, full = _frames(doc, anims, skin, False), _frames(doc, anims, skin, True)
    assert len(fast) == len(full) >= 40
    for f, (a, b) in enumerate(zip(fast, full)):
        assert a[0] == b[0], f"{rig}: world matrices differ at frame {f}"
        assert a[1] == b[1], f"{rig}: world vertices differ at frame {f}"
