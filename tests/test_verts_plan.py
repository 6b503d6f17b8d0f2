"""Issue 17 (world vertices, session 5): the per-attachment plan of csrc/attachment_vertices.c.

* Weighted paths go through the plan too (doubles, the Spine pose model's path constraints, and
  float32 for the openbone model): the bones' world matrices are bit for bit those of the direct
  loop (width 3) with the SSE2 baseline (width 1) and the AVX2 clone (width 2), over frames.
* Unweighted meshes skip the formula's "+ 0" only when no local value is -0.0 (the plan's flag):
  a mesh whose local vertices include -0.0 gives the direct loop's bits at every width (a
  regression check; the sign shows only where the bone's world translation is -0.0 too).
"""
import json

import numpy as np
import pytest

import openbone

from conftest import reference


def world_frames(doc, anim, width, n=30, skin=None):
    inst = openbone.Instance(doc)
    avx2 = inst._set_vertex_width(width)
    if skin:
        inst.set_skin(skin)
    inst.set_animation(0, anim, True, 0)
    W, V = [], []
    for i in range(n):
        inst.advance(1 / 30 + 0.011 * (i % 3))
        W.append(np.array(inst.world, dtype=np.float64).ravel().copy())
        wv = inst.world_vertices()
        V.append(np.concatenate([np.asarray(wv[k], dtype=np.float32).ravel() for k in sorted(wv)]))
    return np.concatenate(W), np.concatenate(V), avx2


@pytest.mark.parametrize("pose_model", ["spine", "openbone"])
@pytest.mark.parametrize("rig", ["tank-pro", "vine-pro", "stretchyman-pro", "hero-pro"])
def test_paths_through_the_plan_match_the_direct_loop(rig, pose_model):
    doc = openbone.import_skeleton_json(reference("spine", "skeletons", f"{rig}.json"), curves="spine",
                                        pose_model=pose_model)
    for anim in [a.name for a in doc.animations][:2]:
        w3, v3, _ = world_frames(doc, anim, 3)
        w1, v1, avx2_here = world_frames(doc, anim, 1)
        assert np.isfinite(w3).all()
        np.testing.assert_array_equal(w1.view(np.uint64), w3.view(np.uint64))
        np.testing.assert_array_equal(v1.view(np.uint32), v3.view(np.uint32))
        if avx2_here:
            w2, v2, _ = world_frames(doc, anim, 2)
            np.testing.assert_array_equal(w2.view(np.uint64), w3.view(np.uint64))
            np.testing.assert_array_equal(v2.view(np.uint32), v3.view(np.uint32))


def negative_zero_rig():
    mesh = {"type": "mesh", "uvs": [0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5],
            "triangles": [0, 1, 2, 0, 2, 3], "hull": 4,
            "vertices": [-0.0, -0.0, 0.0, -0.0, -0.0, 0.0, -0.0, -0.0, 3.5, -0.0]}
    return {"skeleton": {"spine": "4.2.22"},
            "bones": [{"name": "root", "x": -0.0, "y": -0.0}],
            "slots": [{"name": "s", "bone": "root", "attachment": "m"}],
            "skins": [{"name": "default", "attachments": {"s": {"m": mesh}}}],
            "animations": {"still": {"bones": {"root": {"rotate": [{"time": 0, "value": 0}]}}}}}


def test_negative_zero_vertices_keep_the_formulas_plus_zero(tmp_path):
    path = tmp_path / "negzero.json"
    path.write_text(json.dumps(negative_zero_rig()))
    doc = openbone.import_skeleton_json(str(path), curves="spine")
    _, v3, _ = world_frames(doc, "still", 3, n=3)
    _, v1, avx2_here = world_frames(doc, "still", 1, n=3)
    np.testing.assert_array_equal(v1.view(np.uint32), v3.view(np.uint32))
    if avx2_here:
        _, v2, _ = world_frames(doc, "still", 2, n=3)
        np.testing.assert_array_equal(v2.view(np.uint32), v3.view(np.uint32))
