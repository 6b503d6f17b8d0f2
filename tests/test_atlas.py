"""§8.7 packed atlas: uv maps, trimmed quads, rotated regions, polygons, the white block.

Expected numbers are worked out by hand from the §8.7 formulas in the comments:
  not rotated: u' = (r.x − offX)/P.w + u·origW/P.w,  v' = (r.y − offY)/P.h + v·origH/P.h
  rotated:     u' = (r.x + r.height + offY)/P.w − v·origH/P.w,  v' = (r.y − offX)/P.h + u·origW/P.h
The fixtures' bones and placements are reset to identity so the quads are plain numbers.
"""
import json
import os

import numpy as np

import openbone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def flat_instance(name):
    """The fixture with identity bones and attachments at the origin, unrotated, unscaled."""
    with open(os.path.join(ROOT, "conformance", "fixtures", name + ".obone")) as f:
        d = json.load(f)
    for b in d["skeleton"]["bones"]:
        b.update(x=0, y=0, rotation=0, scaleX=1, scaleY=1, shearX=0, shearY=0)
    for slots in d["skeleton"]["skins"][0]["attachments"].values():
        for a in slots.values():
            if a.get("type") == "region":
                a.update(x=0, y=0, rotation=0, scaleX=1, scaleY=1, skewX=0, skewY=0)
    return openbone.Instance(openbone.loads(json.dumps(d)))


def by_slot(inst):
    return {it.slot: it for it in inst.draw_list()}


def test_rotated_region_uvs_by_hand():
    # helm: x 64, y 2, 40 × 30, rotated, no trim, page 256 × 128.
    # u' = (64 + 30)/256 − v·30/256 ; v' = 2/128 + u·40/128
    # TL (0,0) → (94/256, 2/128); TR (1,0) → (94/256, 42/128); BR (1,1) → (64/256, 42/128); BL → (64/256, 2/128)
    it = by_slot(flat_instance("atlas-knight"))["helm"]
    assert it.texture == "page_0"
    np.testing.assert_allclose(it.uvs, [[0.3671875, 0.015625], [0.3671875, 0.328125], [0.25, 0.328125],
                                        [0.25, 0.015625]], atol=1e-7)
    np.testing.assert_allclose(it.vertices, [[-20, 15], [20, 15], [20, -15], [-20, -15]], atol=1e-5)


def test_rotated_trimmed_region_by_hand():
    # sword: x 10, y 20, 16 × 90 packed of 20 × 100, offsets (2, 4), rotated, page 256 × 256.
    # trim box [2/20, 4/100, 18/20, 94/100] = [0.1, 0.04, 0.9, 0.94]
    # u' = (10 + 90 + 4)/256 − v·100/256 ; v' = (20 − 2)/256 + u·20/256
    # TL (0.1, 0.04) → (100/256, 20/256)   (the packed part's first pixel sits at page (x + height, y))
    # TR (0.9, 0.04) → (100/256, 36/256); BR (0.9, 0.94) → (10/256, 36/256); BL (0.1, 0.94) → (10/256, 20/256)
    it = by_slot(flat_instance("atlas-knight"))["sword"]
    assert it.texture == "page_1" and it.blend == "additive"
    np.testing.assert_allclose(it.uvs, np.array([[100, 20], [100, 36], [10, 36], [10, 20]]) / 256, atol=1e-7)
    # 20 × 100 quad: TL (−10, 50), U = (20, 0), V = (0, −100); trimQuad:
    # TL' = (−10 + 2, 50 − 4) = (−8, 46); TR' = (8, 46); BR' = (8, 50 − 94) = (8, −44); BL' = (−8, −44)
    np.testing.assert_allclose(it.vertices, [[-8, 46], [8, 46], [8, -44], [-8, -44]], atol=1e-5)


def test_trimmed_region_by_hand():
    # shield: x 100, y 2, 40 × 36 of 50 × 50, offsets (4, 6), page 256 × 128, not rotated.
    # trim box [0.08, 0.12, 0.88, 0.84]; u' = 96/256 + u·50/256, v' = −4/128 + v·50/128
    # TL → (100/256, 2/128), BR → (140/256, 38/128): the packed rect's corners
    it = by_slot(flat_instance("atlas-knight"))["shield"]
    np.testing.assert_allclose(it.uvs[0], [100 / 256, 2 / 128], atol=1e-7)
    np.testing.assert_allclose(it.uvs[2], [140 / 256, 38 / 128], atol=1e-7)
    # 50 × 50 quad TL (−25, 25): TL' = (−25 + 4, 25 − 6) = (−21, 19); BR' = (−25 + 44, 25 − 42) = (19, −17)
    np.testing.assert_allclose(it.vertices[0], [-21, 19], atol=1e-5)
    np.testing.assert_allclose(it.vertices[2], [19, -17], atol=1e-5)
    # colour: slot white × attachment #80ff80
    np.testing.assert_allclose(it.color, [128 / 255, 1, 128 / 255, 1])


def test_plain_empty_loose_missing_and_mesh():
    items = by_slot(flat_instance("atlas-knight"))
    # torso: x 2, y 2, 60 × 80 untrimmed ⇒ uvs (2/256, 2/128) .. (62/256, 82/128)
    np.testing.assert_allclose(items["torso"].uvs[0], [2 / 256, 2 / 128])
    np.testing.assert_allclose(items["torso"].uvs[2], [62 / 256, 82 / 128])
    # empty region: kept (the reference runtime draws it), the 1 × 1 block at (250, 120)
    np.testing.assert_allclose(items["blank"].uvs[0], [250 / 256, 120 / 128])
    np.testing.assert_allclose(items["blank"].uvs[2], [251 / 256, 121 / 128])
    assert items["blank"].texture == "page_0"
    # a loose image: its own id and unit uvs; a missing image: texture None, still drawn
    assert items["loose"].texture == "img_loose"
    np.testing.assert_array_equal(items["loose"].uvs, [[0, 0], [1, 0], [1, 1], [0, 1]])
    assert items["ghost"].texture is None
    # helm's slot dark (#102030) and the torso's slot colour #ff8080c0 × white
    np.testing.assert_allclose(items["helm"].dark, [16 / 255, 32 / 255, 48 / 255, 1])
    np.testing.assert_allclose(items["torso"].color, [1, 128 / 255, 128 / 255, 192 / 255])
    # cape mesh on a rotated, trimmed region (x 120, y 4, h 56, offsets (2, 4), orig 64 × 64, page 256²):
    # u' = (120 + 56 + 4)/256 − v·64/256, v' = (4 − 2)/256 + u·64/256
    # uv (0.5, 0.5) → (148/256, 34/256); uv (0, 1) → (116/256, 2/256)
    cape = items["cape"]
    assert cape.type == "mesh" and cape.texture == "page_1"
    np.testing.assert_allclose(cape.uvs[4], [148 / 256, 34 / 256], atol=1e-7)
    np.testing.assert_allclose(cape.uvs[0], [116 / 256, 2 / 256], atol=1e-7)


def test_polygons_by_hand():
    items = by_slot(flat_instance("atlas-polygons"))
    # torso octagon (10, 0) (50, 0) (60, 10) (60, 70) (50, 80) (10, 80) (0, 70) (0, 10) in 60 × 80:
    # img[0] = (10/60, 0); quad TL (−30, 40), U = (60, 0), V = (0, −80) ⇒ vertex 0 = (−20, 40),
    # vertex 3 = img (1, 0.875) ⇒ (30, −30); uv 0 = (2/256 + 10/256, 2/128)
    t = items["torso"]
    assert t.vertices.shape == (8, 2)
    np.testing.assert_allclose(t.vertices[0], [-20, 40], atol=1e-4)
    np.testing.assert_allclose(t.vertices[3], [30, -30], atol=1e-4)
    np.testing.assert_allclose(t.uvs[0], [12 / 256, 2 / 128], atol=1e-6)
    # fan indices: [0, i+1, i+2] for i in 0..5
    assert t.indices.tolist() == [0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5, 0, 5, 6, 0, 6, 7]
    # rotated helm octagon (6, 0) ...: img[0] = (0.15, 0) ⇒ u' = 94/256, v' = 2/128 + 0.15·40/128 = 8/128;
    # vertex 0 = (−20 + 0.15·40, 15) = (−14, 15)
    h = items["helm"]
    np.testing.assert_allclose(h.uvs[0], [94 / 256, 8 / 128], atol=1e-6)
    np.testing.assert_allclose(h.vertices[0], [-14, 15], atol=1e-4)
    # trimmed shield: the polygon replaces the trim (untrimmed quad): (8, 6) ⇒ img (0.16, 0.12)
    # ⇒ vertex (−25 + 8, 25 − 6) = (−17, 19); uv ((96 + 8)/256, (−4 + 6)/128)
    s = items["shield"]
    np.testing.assert_allclose(s.vertices[0], [-17, 19], atol=1e-4)
    np.testing.assert_allclose(s.uvs[0], [104 / 256, 2 / 128], atol=1e-6)
    # premultipliedAlpha changes nothing: colours stay straight
    np.testing.assert_allclose(items["torso"].color, [1, 128 / 255, 128 / 255, 192 / 255])


def test_white_block_centre():
    # shapes.obone: white (10, 6, 4 × 4) on a 64 × 32 page ⇒ centre (12/64, 8/32)
    inst = openbone.Instance(openbone.load(os.path.join(ROOT, "conformance", "fixtures", "shapes.obone")))
    it = inst.draw_list()[0]
    np.testing.assert_array_equal(it.uvs[0], [0.1875, 0.25])
