"""Issue 17: the weighted-mesh kernel of Instance.world_vertices / the draw list.

Weighted meshes go through a plan built once per document (vertices grouped by their
bones, weights premultiplied, one pass per vertex: t = (a*w*x + b*w*y) + tx*w summed in
the file's order), with an SSE2 baseline (a vertex in two lanes) and an AVX2 clone (two
in four).  Properties checked bit for bit over the Spine example rigs (every rig, its
first animations, both pose models so that deform keys hit both the per-influence and
the per-vertex offsets):

* the SSE2 and AVX2 kernels give the same float32 vertices (the AVX2 part skips where
  the CPU has no AVX2);
* either kernel gives exactly the vertices of the direct loop (§8.3 Σ w·M·(x+dx, y+dy),
  summed in the file's order), width 3, which the plan must reproduce;
* the draw list's region and mesh vertices are world_vertices()' (one code path);
* and on a rig built so that float32 vertices show the doubles' last bits (mirrored bones
  1e12 from the origin, every vertex weighted alike on both of a pair: the big terms
  cancel), the same again: a kernel whose operations or their order differ from the
  direct loop's changes hundreds of these vertices (checked by hand: reassociating one
  sum in the AVX2 clone changed 203 of 460 values), where the example rigs' vertices,
  rounded to float32, almost never show it.
"""
import json

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


def cancelling_rig():
    """Mirrored bone pairs at +T and -T (T ~ 1e12), posed alike, a bone near the origin; each
    vertex is weighted equally on both bones of 0-3 pairs (same local point), with or without
    the near bone, 1-7 influences in shuffled order; one animation with per-vertex deform."""
    bones = [{"name": "root"}, {"name": "c", "parent": "root", "x": 3.5, "y": -2.25, "rotation": 12}]
    for j in range(3):
        for s in (1, -1):
            bones.append({"name": f"p{j}{'ab'[s < 0]}", "parent": "root", "x": s * (1e12 + j * 3.3e10),
                          "y": -s * (3e11 + j * 1.1e10), "rotation": 17.0 + 41 * j, "scaleX": 1 + j / 9,
                          "scaleY": 1 - j / 11})
    rng = np.random.default_rng(5)
    kinds = [1, 2, 3, 2, 2, 4, 3, 2, 5, 6, 2, 3, 4, 7, 2, 2, 1, 3, 6, 2, 2, 4, 3]
    verts, uvs = [], []
    for kind in kinds:
        infl = []
        for j in rng.choice(3, size=(kind // 2 if kind > 1 else 0), replace=False):
            x, y, w = rng.normal() * 40, rng.normal() * 40, rng.random() + 0.1
            infl += [[2 + 2 * int(j), x, y, w], [3 + 2 * int(j), x, y, w]]
        if kind % 2:
            infl.append([1, rng.normal() * 40, rng.normal() * 40, rng.random() + 0.1])
        rng.shuffle(infl)
        verts.append(len(infl))
        for b, x, y, w in infl:
            verts += [int(b), float(x), float(y), float(w)]
        uvs += [float(rng.random()), float(rng.random())]
    keys = {f"p{j}{s}": {"rotate": [{"time": 0, "value": 0}, {"time": 1, "value": 90 + 11 * j}],
                         "translate": [{"time": 0, "x": 0, "y": 0}, {"time": 1, "x": 1234.5 * (j + 1), "y": -777.25 * j}]}
            for j in range(3) for s in "ab"}
    deform = {"default": {"s": {"m": {"deform": [{"time": 0}, {"time": 1, "offset": 0, "vertices":
              [float(v) for v in rng.normal(size=2 * len(kinds)) * 10]}]}}}}
    mesh = {"type": "mesh", "uvs": uvs, "triangles": [0, 1, 2], "vertices": verts, "hull": len(kinds)}
    return {"skeleton": {"spine": "4.2.22"}, "bones": bones,
            "slots": [{"name": "s", "bone": "root", "attachment": "m"}],
            "skins": [{"name": "default", "attachments": {"s": {"m": mesh}}}],
            "animations": {"spin": {"bones": keys}, "spin_deform": {"bones": keys, "attachments": deform}}}


@pytest.mark.parametrize("pose_model", ["spine", "openbone"])
def test_kernels_agree_where_float32_shows_the_last_bits(tmp_path, pose_model):
    path = tmp_path / "cancelling.json"
    path.write_text(json.dumps(cancelling_rig()))
    doc = openbone.import_skeleton_json(str(path), curves="spine", pose_model=pose_model)
    for anim in ("spin", "spin_deform"):
        direct, _, _ = frames(doc, anim, 3, n=20)
        # the big terms cancel: the vertices stay within 1e5 of the origin (1e12 terms)
        assert np.isfinite(direct).all() and 0 < np.abs(direct).max() < 1e5
        sse2, avx2_here, _ = frames(doc, anim, 1, n=20)
        np.testing.assert_array_equal(sse2.view(np.uint32), direct.view(np.uint32))
        if avx2_here:
            avx2, _, _ = frames(doc, anim, 2, n=20)
            np.testing.assert_array_equal(avx2.view(np.uint32), direct.view(np.uint32))
