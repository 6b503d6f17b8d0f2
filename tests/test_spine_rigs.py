"""The six Spine example rigs whose goldens are held by independent checkers
(stretchyman, vine, owl, goblins, sack, cloud-pot; issue 16), under the Spine pose
model: they import and pose with finite values on every animation and skin, and hold
properties of spine-core 4.2's rules that need no golden:

* a path constraint in rotate mode chain or chainScale with offsetRotation 0 and its
  mixes at 1 joins its bones tip to root (PathConstraint.update: chainScale scales each
  bone to reach the next position; chain's "tip" rule starts the next bone at the
  rotated tip), so bone i's tip, world·(length, 0), is bone i + 1's origin.  Under
  the OpenBone model's §7.3 this did not hold (stretchyman sneak: 164 px);
* physics stays bounded (test_spine_import.test_physics_rigs_stay_bounded covers sack and
  cloud-pot over 30 s).
"""
import json
import math

import numpy as np
import pytest

import openbone
from openbone import spine
from conftest import reference

SIX = ["stretchyman-pro", "vine-pro", "owl-pro", "goblins-pro", "sack-pro", "cloud-pot"]
DT = 1 / 30


def _doc(rig):
    return spine.import_skeleton_json(reference("spine", "skeletons", f"{rig}.json"))


@pytest.mark.parametrize("rig", SIX)
def test_rig_poses_finite(rig):
    doc = _doc(rig)
    for skin in range(len(doc.skins)):
        for anim in doc.animations:
            inst = openbone.Instance(doc)
            inst.set_skin(skin)
            inst.set_animation(0, anim.name, True, 0)
            frames = int(math.ceil(max(anim.length, DT) / DT)) * 2 + 3  # two loops and a bit
            for _ in range(frames):
                inst.advance(DT)
                assert np.isfinite(np.asarray(inst.world)).all(), (anim.name, skin)
                for it in inst.draw_list():
                    assert np.isfinite(np.asarray(it.vertices, dtype=float)).all(), (anim.name, it.slot)


def _chains(d):
    """(constraint id, bone ids) of the path constraints whose bones must join tip to root."""
    out = []
    for c in d["skeleton"]["path"]:
        if c["rotateMode"] in ("chain", "chainScale") and c["offsetRotation"] == 0 and len(c["bones"]) > 1:
            out.append((c["id"], c["bones"]))
    return out


@pytest.mark.parametrize("rig", ["stretchyman-pro", "vine-pro", "tank-pro", "hero-pro"])
def test_path_chains_join_tip_to_root(rig):
    d = spine.skeleton_json_to_dict(reference("spine", "skeletons", f"{rig}.json"))
    doc = openbone.loads(json.dumps(d))
    chains = _chains(d)
    assert chains
    length = {b["id"]: b["length"] for b in d["skeleton"]["bones"]}
    skin = next((i for i, s in enumerate(doc.skins) if s.name == "weapon/morningstar"), 0)
    checked = 0
    for anim in doc.animations:
        inst = openbone.Instance(doc)
        inst.set_skin(skin)
        inst.set_animation(0, anim.name, True, 0)
        for _ in range(int(math.ceil(max(anim.length, DT) / DT)) + 1):
            inst.advance(DT)
            W = np.asarray(inst.world)
            for cid, bones in chains:
                ci = inst.constraint_index(cid)
                v = inst.constraint_values(ci)
                if not inst.constraint_active[ci] or (v["mixRotate"], v["mixX"], v["mixY"]) != (1, 1, 1):
                    continue
                for a, b in zip(bones, bones[1:]):
                    wa, wb = W[doc.bone_index(a)], W[doc.bone_index(b)]
                    tip = wa[4:6] + length[a] * wa[[0, 2]]
                    assert np.abs(tip - wb[4:6]).max() <= 1e-6 * max(1.0, np.abs(tip).max()), \
                        (anim.name, cid, a, b, tip, wb[4:6])
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("rig, anim, skin", [("celestial-circus-pro", "swing", None),
                                             ("hero-pro", "attack", "weapon/morningstar"),
                                             ("spineboy-pro", "hoverboard", None)])
def test_copy_and_pickle_carry_the_spine_state(rig, anim, skin):
    # the Spine pose model's state (spine-core's physics, the update cache for the skin, which
    # deforms are per influence) travels with Instance.copy() and pickling: the twins follow the
    # original bit for bit
    import pickle
    doc = _doc(rig)
    inst = openbone.Instance(doc)
    if skin:
        inst.set_skin(skin)
    inst.set_animation(0, anim, True, 0)
    for _ in range(7):
        inst.advance(DT)
    twins = [inst.copy(), pickle.loads(pickle.dumps(inst))]
    for _ in range(30):
        inst.advance(DT)
        ref = np.asarray(inst.world).tobytes(), [np.asarray(it.vertices).tobytes() for it in inst.draw_list()]
        for t in twins:
            t.advance(DT)
            assert (np.asarray(t.world).tobytes(), [np.asarray(it.vertices).tobytes() for it in t.draw_list()]) == ref


ALL = SIX + ["spineboy-pro", "hero-pro", "raptor-pro", "tank-pro", "celestial-circus-pro"]


@pytest.mark.parametrize("rig", ALL)
def test_import_loads_without_skipped_timelines(rig):
    # everything the import writes for the Spine pose model is read: the only loader notes are the
    # Spine inherit modes (an extension) and tank's clipping weights (§8.3 ignores them)
    doc = _doc(rig)
    rest = [w for w in doc.warnings if "is a Spine inherit mode" not in w and "clipping weights" not in w]
    assert rest == []
