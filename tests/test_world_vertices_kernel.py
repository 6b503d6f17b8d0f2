"""Issue 17: the weighted-mesh kernel of Instance.world_vertices / the draw list.

Weighted meshes go through a plan built at an instance's first build (products per
bone, then per-vertex sums in the file's order, two vertices in four lanes), with an
SSE2 baseline and an AVX2 clone.  Properties checked bit for bit over the Spine example
rigs (every rig, its first animations, both pose models so that deform keys hit both
the per-influence and the per-vertex offsets):

* the SSE2 and AVX2 kernels give the same float32 vertices (the AVX2 part skips where
  the CPU has no AVX2);
* either kernel gives exactly the vertices of the direct loop (§8.3 Σ w·M·(x+dx, y+dy),
  summed in the file's order), width 3, which the plan must reproduce;
* the draw list's region and mesh vertices are world_vertices()' (one code path).
"""
import numpy as np
import pytest

import openbone

from conftest import reference

RIGS = ["celestial-circus-pro", "cloud-pot", "goblins-pro", "hero-pro", "owl-pro", "raptor-pro",
        "sack-pro", "spineboy-pro", "stretchyman-pro", "tank-pro", "vine-pro"]


def frames(doc, anim, width, n=24, skin=None):
    inst = openbone.Instance(doc)
    avx2 = inst._set_vertex_width(width)
    if skin:
        inst.set_skin(skin)
    inst.set_animation(0, anim, True, 0)
    out = []
    for i in range(n):
        inst.advance(1 / 30 + 0.013 * (i % 3))
        out.append(inst._world_vertices()[0])
    return np.concatenate(out), avx2, inst


@pytest.mark.parametrize("pose_model", ["spine", "openbone"])
@pytest.mark.parametrize("rig", RIGS)
def test_kernel_widths_and_direct_loop_agree(rig, pose_model):
    path = reference("spine", "skeletons", f"{rig}.json")
    doc = openbone.import_skeleton_json(path, curves="spine", pose_model=pose_model)
    anims = [a.name for a in doc.animations][:2]
    assert anims
    skin = "goblin" if rig == "goblins-pro" else None
    for anim in anims:
        direct, _, _ = frames(doc, anim, 3, skin=skin)
        sse2, avx2_here, inst = frames(doc, anim, 1, skin=skin)
        assert direct.size and np.isfinite(direct).all()
        np.testing.assert_array_equal(sse2.view(np.uint32), direct.view(np.uint32))
        if avx2_here:
            avx2, _, _ = frames(doc, anim, 2, skin=skin)
            np.testing.assert_array_equal(avx2.view(np.uint32), direct.view(np.uint32))
        # the draw list's vertices are the same (draw_mesh goes through the same kernel)
        wv = inst.world_vertices()
        for it in inst.draw_list():
            if it.type in ("region", "mesh"):
                np.testing.assert_array_equal(wv[it.slot], it.vertices)


def test_width_switch_refuses_nonsense():
    doc = openbone.import_skeleton_json(reference("spine", "skeletons", "vine-pro.json"), curves="spine")
    inst = openbone.Instance(doc)
    with pytest.raises(ValueError):
        inst._set_vertex_width(7)
