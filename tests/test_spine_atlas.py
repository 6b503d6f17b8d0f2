"""The libGDX / Spine texture atlas (issue 16 item 6): reading ``.atlas`` text, the mapping
onto the OpenBone atlas section, and what the runtime and ``render`` then do with it.

Expected values come from spine-core 4.2's own uv rules, re-implemented here from
MeshAttachment.updateRegion / RegionAttachment.updateRegion (``spine_mesh_uv``,
``spine_region_corners`` below), and from the PNG pages themselves: a pixel drawn at an
image point must carry the page's colour at the place spine-core samples for it.
Hand-worked numbers are in the comments.
"""
import json
import math
import re

import numpy as np
import pytest

import openbone
from conftest import reference
from openbone import spine
from openbone.spine.atlas import read_atlas

RIGS = ["spineboy-pro", "raptor-pro", "stretchyman-pro", "tank-pro", "vine-pro", "owl-pro", "goblins-pro",
        "hero-pro", "celestial-circus-pro", "sack-pro", "cloud-pot"]


# ---- an independent reading of the atlas text and spine-core's uv rules ---------------------------

def parse_atlas(text):
    """{region name: dict(page, pw, ph, x, y, w, h, ox, oy, ow, oh, deg)} straight from the text
    (spine-core conventions: offsets from the bottom-left, rotate counter-clockwise)."""
    pages, out, page, region = {}, {}, None, None
    for line in text.splitlines():
        if not line.strip():
            page = region = None
            continue
        m = re.match(r"\s*(\w+)\s*:\s*(.*)$", line)
        if m and (page or region):
            k, vals = m.group(1), [v.strip() for v in m.group(2).split(",")]
            target = out[region] if region else pages[page]
            if k == "size" and not region:
                target["pw"], target["ph"] = int(vals[0]), int(vals[1])
            elif k == "bounds":
                target.update(x=int(vals[0]), y=int(vals[1]), w=int(vals[2]), h=int(vals[3]))
            elif k == "offsets":
                target.update(ox=int(vals[0]), oy=int(vals[1]), ow=int(vals[2]), oh=int(vals[3]))
            elif k == "rotate":
                target["deg"] = 90 if vals[0] == "true" else 0 if vals[0] == "false" else int(vals[0])
            continue
        if page is None:
            page = line.strip()
            pages[page] = {}
        else:
            region = line.strip()
            out[region] = {"page": page, "deg": 0}
    for r in out.values():
        r.setdefault("ox", 0), r.setdefault("oy", 0)
        r.setdefault("ow", r["w"]), r.setdefault("oh", r["h"])
        r.update(pw=pages[r["page"]]["pw"], ph=pages[r["page"]]["ph"])
    return out


def spine_mesh_uv(r, mu, mv):
    """spine-core MeshAttachment.updateRegion for one region uv."""
    u, v, tw, th = r["x"] / r["pw"], r["y"] / r["ph"], r["pw"], r["ph"]
    if r["deg"] == 90:
        u -= (r["oh"] - r["oy"] - r["h"]) / tw
        v -= (r["ow"] - r["ox"] - r["w"]) / th
        return u + mv * r["oh"] / tw, v + (1 - mu) * r["ow"] / th
    if r["deg"] == 180:
        u -= (r["ow"] - r["ox"] - r["w"]) / tw
        v -= r["oy"] / th
        return u + (1 - mu) * r["ow"] / tw, v + (1 - mv) * r["oh"] / th
    if r["deg"] == 270:
        u -= r["oy"] / tw
        v -= r["ox"] / th
        return u + (1 - mv) * r["oh"] / tw, v + mu * r["ow"] / th
    u -= r["ox"] / tw
    v -= (r["oh"] - r["oy"] - r["h"]) / th
    return u + mu * r["ow"] / tw, v + mv * r["oh"] / th


def page_pixel_of(r, mu, mv):
    """The page pixel (x, y) spine-core samples for region uv (mu, mv) (uv × page size)."""
    u, v = spine_mesh_uv(r, mu, mv)
    return u * r["pw"], v * r["ph"]


# ---- reading and mapping, by hand ----------------------------------------------------------------

ATLAS = """
page.png
\tsize: 64, 32
\tfilter: Nearest, Linear
\tpma: true
\tscale: 0.5
a
\tbounds: 2, 4, 10, 6
b
\tbounds: 20, 2, 8, 12
\toffsets: 1, 3, 10, 16
\trotate: 90
c
\tbounds: 40, 2, 6, 4
\trotate: 180
d
\tbounds: 50, 10, 6, 4
\trotate: 270
flame
\tbounds: 1, 20, 3, 3
\tindex: 2
"""


def test_atlas_fields_by_hand():
    at = read_atlas(ATLAS)
    (p,) = at.pages
    assert (p.name, p.width, p.height, p.pma, p.scale, p.min_filter, p.mag_filter) == \
        ("page.png", 64, 32, True, 0.5, "Nearest", "Linear")
    b = at.find("b")
    assert (b.x, b.y, b.width, b.height, b.offset_x, b.offset_y, b.original_width, b.original_height, b.degrees) == \
        (20, 2, 8, 12, 1, 3, 10, 16, 90)
    assert at.find("a").original_width == 10 and at.find("a").degrees == 0
    # sequence frames: "flame2" / "flame02" find the region "flame" with index 2
    assert at.find("flame2") is at.find("flame02") is at.find("flame")
    assert at.find("flame3") is None and at.find("nope") is None


def test_openbone_section_by_hand(tmp_path):
    (tmp_path / "page.atlas").write_text(ATLAS)
    src = {"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
           "slots": [{"name": n, "bone": "root", "attachment": n} for n in "abcd"],
           "skins": [{"name": "default", "attachments": {n: {n: {"width": 10, "height": 10}} for n in "abcd"}}]}
    w = []
    d = spine.skeleton_json_to_dict(src, atlas=str(tmp_path / "page.atlas"), warnings=w)
    at = d["atlas"]
    assert at["premultipliedAlpha"] is True and at["scale"] == 0.5
    assert at["filterMin"] == "nearest" and at["filterMag"] == "linear"
    assert [p["width"] for p in at["pages"]] == [64] and at["pages"][0]["src"].endswith("page.png")
    reg = {r["image"]: r for r in at["regions"]}
    # b: Spine offsets (1, 3) from the bottom-left of the 10 x 16 original, 8 x 12 packed:
    # OpenBone offsetY from the top = 16 - 12 - 3 = 1; Spine's 90 (counter-clockwise) = 270 clockwise
    assert reg["b"] == {"image": "b", "page": "page.png", "x": 20, "y": 2, "width": 8, "height": 12, "offsetX": 1,
                        "offsetY": 1, "originalWidth": 10, "originalHeight": 16, "rotation": 270}
    assert "rotated" not in reg["a"] and "rotation" not in reg["a"]
    assert reg["c"]["rotation"] == 180
    assert reg["d"].get("rotated") is True and "rotation" not in reg["d"]  # Spine 270 = OpenBone's rotated
    assert all(im["src"] == "" for im in d["images"])  # they exist only in the atlas
    openbone.loads(json.dumps(d))


@pytest.mark.parametrize("name", ["a", "b", "c", "d"])
def test_mesh_uvs_follow_spine_core(tmp_path, name):
    """Draw-list uvs of a mesh on each region = spine-core's MeshAttachment.updateRegion.
    By hand for b (rotate 90): u = 20/64 - (16 - 3 - 12)/64 = 19/64, v = 2/32 - (10 - 1 - 8)/32 = 1/32,
    uv (0, 0) -> (19/64, 1/32 + 10/32), (1, 0) -> (19/64, 1/32), (0, 1) -> (35/64, 11/32)."""
    (tmp_path / "page.atlas").write_text(ATLAS)
    uvs = [0, 0, 1, 0, 1, 1, 0, 1, 0.25, 0.75]
    src = {"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
           "slots": [{"name": "s", "bone": "root", "attachment": name}],
           "skins": [{"name": "default", "attachments": {"s": {name: {
               "type": "mesh", "uvs": uvs, "triangles": [0, 1, 2, 0, 2, 3, 0, 1, 4],
               "vertices": [0, 0, 10, 0, 10, 10, 0, 10, 2, 7], "hull": 4}}}}]}
    doc = openbone.import_skeleton(src, atlas=str(tmp_path / "page.atlas"))
    inst = openbone.Instance(doc)
    inst.advance(0)
    (it,) = list(inst.draw_list())
    r = parse_atlas(ATLAS)[name]
    want = [spine_mesh_uv(r, uvs[i], uvs[i + 1]) for i in range(0, len(uvs), 2)]
    np.testing.assert_allclose(it.uvs, want, atol=1e-7)
    if name == "b":
        np.testing.assert_allclose(it.uvs[:3], [[19 / 64, 11 / 32], [19 / 64, 1 / 32], [35 / 64, 1 / 32]], atol=1e-7)


def test_synthetic_page_pixels(tmp_path):
    """A page whose regions hold a 2 x 2 colour pattern stored as spine-core stores it for
    each rotation: the rendered quads show the pattern upright (top-left red, top-right
    green, bottom-left blue, bottom-right yellow)."""
    pytest.importorskip("PIL")
    from PIL import Image
    from openbone import render as R
    colours = {(0, 0): (255, 0, 0), (1, 0): (0, 255, 0), (0, 1): (0, 0, 255), (1, 1): (255, 255, 0)}
    text = "\npage.png\n\tsize: 64, 64\n\tfilter: Nearest, Nearest\n"
    boxes = {"r0": (2, 2, 0), "r90": (22, 2, 90), "r180": (42, 2, 180), "r270": (2, 32, 270)}
    page = np.zeros((64, 64, 4), np.uint8)
    for n, (x, y, deg) in boxes.items():
        text += f"{n}\n\tbounds: {x}, {y}, 16, 16\n\trotate: {deg}\n"
        r = {"x": x, "y": y, "w": 16, "h": 16, "ox": 0, "oy": 0, "ow": 16, "oh": 16, "deg": deg, "pw": 64, "ph": 64}
        for iy in range(16):  # image pixel (ix, iy) goes where spine-core samples its centre
            for ix in range(16):
                px, py = page_pixel_of(r, (ix + 0.5) / 16, (iy + 0.5) / 16)
                page[int(py), int(px)] = colours[(ix // 8, iy // 8)] + (255,)
    Image.fromarray(page, "RGBA").save(tmp_path / "page.png")
    (tmp_path / "page.atlas").write_text(text)
    names = list(boxes)
    src = {"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
           "slots": [{"name": n, "bone": "root", "attachment": n} for n in names],
           "skins": [{"name": "default", "attachments": {
               n: {n: {"x": 40 * k, "width": 32, "height": 32}} for k, n in enumerate(names)}}]}
    doc = openbone.import_skeleton(src, atlas=str(tmp_path / "page.atlas"))
    assert doc.import_warnings == []
    inst = openbone.Instance(doc)
    inst.advance(0)
    view = R.View(200, 60, 30, 30, 1.0)
    im = np.asarray(R.render_pose(inst, view=view, bones=False, boxes=False, background="#000000", supersample=1))
    for k, n in enumerate(names):
        for (qx, qy), c in colours.items():
            # the quad spans x 40k - 16 .. 40k + 16, y -16 .. 16 (y up); quadrant centres ±8
            px = 30 + 40 * k + (-8 if qx == 0 else 8)
            py = 30 + (-8 if qy == 0 else 8)
            assert tuple(im[py, px, :3]) == c, (n, qx, qy, im[py, px])


# ---- the eleven rigs --------------------------------------------------------------------------------

def _rig(name):
    assets = reference("spine", "assets")
    skel = assets / f"{name}.skel"
    atlas_path = spine.find_atlas(str(skel))
    assert atlas_path is not None, f"no atlas beside {skel}"
    return skel, atlas_path


@pytest.mark.parametrize("name", RIGS)
def test_atlas_found_and_every_image_mapped(name):
    skel, atlas_path = _rig(name)
    doc = openbone.import_skeleton(skel)
    assert doc.import_atlas == atlas_path
    assert not [w for w in doc.import_warnings if "atlas" in w]
    d = json.loads(doc.json)
    held = {r["image"] for r in d["atlas"]["regions"]}
    assert {im["id"] for im in d["images"]} == held


def _attachments(d, skin):
    skins = d["skeleton"]["skins"]
    out = dict(skins[0]["attachments"])
    for sk in skins:
        if sk["name"] == skin:
            for s, a in sk["attachments"].items():
                out[s] = {**out.get(s, {}), **a}
    return out


@pytest.mark.parametrize("name", RIGS)
def test_rig_uvs_follow_spine_core(name):
    """Every mesh vertex's uv and every region corner's uv in the setup pose's draw list is
    spine-core's (MeshAttachment / RegionAttachment.updateRegion on the atlas text)."""
    skel, atlas_path = _rig(name)
    regions = parse_atlas(open(atlas_path).read())
    doc = openbone.import_skeleton(skel)
    d = json.loads(doc.json)
    skin = doc.skins[-1].name
    atts = _attachments(d, skin)
    inst = openbone.Instance(doc, skin=skin if len(doc.skins) > 1 else None)
    inst.advance(0)
    checked = 0
    for it in inst.draw_list():
        a = atts.get(it.slot, {}).get(it.attachment)
        if a is None or a.get("type") not in ("region", "mesh"):
            continue
        r = regions[a["image"]]
        if a["type"] == "mesh":
            uv = np.asarray(a["uvs"], dtype=np.float64).reshape(-1, 2)
            want = [spine_mesh_uv(r, mu, mv) for mu, mv in uv]
        else:  # corners TL, TR, BR, BL = image uv (0,0), (1,0), (1,1), (0,1); untrimmed in these atlases
            want = [spine_mesh_uv(r, mu, mv) for mu, mv in ((0, 0), (1, 0), (1, 1), (0, 1))]
        if len(it.uvs) != len(want):  # clipped items have new vertices
            continue
        np.testing.assert_allclose(it.uvs, want, atol=2e-7, err_msg=f"{name} {it.slot}/{it.attachment}")
        checked += 1
    assert checked > 0


def _inside(p, tris):
    """Which of the triangles (n, 3, 2) hold point p (edges included)."""
    tris = np.asarray(tris, dtype=np.float64).reshape(-1, 3, 2)
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]

    def side(q, r):
        return (p[0] - r[:, 0]) * (q[:, 1] - r[:, 1]) - (q[:, 0] - r[:, 0]) * (p[1] - r[:, 1])
    d1, d2, d3 = side(a, b), side(b, c), side(c, a)
    neg = (d1 < 0) | (d2 < 0) | (d3 < 0)
    pos = (d1 > 0) | (d2 > 0) | (d3 > 0)
    return ~(neg & pos)


@pytest.mark.parametrize("name", RIGS)
def test_render_pixels_carry_page_colours(name):
    """``render`` draws textured: at the centre of every visible, unoccluded, unclipped
    region attachment (and at an off-centre point, which a wrong turn would move), and
    at the centroids of meshes' largest triangles, the picture holds the page's colour
    (bilinear, as the renderer samples) at the place spine-core samples for that image
    point, wherever the page is opaque there."""
    pytest.importorskip("PIL")
    from PIL import Image
    from openbone import render as R
    skel, atlas_path = _rig(name)
    regions = parse_atlas(open(atlas_path).read())
    pages = {}
    doc = openbone.import_skeleton(skel)
    d = json.loads(doc.json)
    skin = doc.skins[-1].name if len(doc.skins) > 1 else None
    atts = _attachments(d, skin)
    inst = openbone.Instance(doc, skin=skin)
    inst.advance(0)
    items = list(inst.draw_list())
    pts = np.concatenate([np.asarray(it.vertices).reshape(-1, 2) for it in items])
    extent = (pts.max(axis=0) - pts.min(axis=0)).max()
    view = R.View.fit([pts], scale=min(1.0, 320 / extent))  # at most ~320 pixels: the test stays fast
    picture = np.asarray(R.render_pose(inst, view=view, bones=False, boxes=False, background="#000000",
                                       supersample=1), dtype=np.float64)
    sampled = {"region": 0, "mesh": 0}
    for k, it in enumerate(items):
        a = atts.get(it.slot, {}).get(it.attachment)
        if a is None or a.get("type") not in ("region", "mesh") or it.clip is not None \
                or tuple(it.color) != (1, 1, 1, 1):
            continue
        r = regions[a["image"]]
        if r["page"] not in pages:
            pages[r["page"]] = np.asarray(Image.open(f"{atlas_path.rsplit('/', 1)[0]}/{r['page']}").convert("RGBA"),
                                          dtype=np.float64)
        page = pages[r["page"]]
        v = np.asarray(it.vertices, dtype=np.float64).reshape(-1, 2)
        tris = np.asarray(it.indices).reshape(-1, 3)
        if a["type"] == "region":  # world TL, TR, BR, BL = image uv (0,0), (1,0), (1,1), (0,1)
            image_uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
            targets = [v[0] + mu * (v[1] - v[0]) + mv * (v[3] - v[0]) for mu, mv in ((0.5, 0.5), (0.3, 0.35), (0.62, 0.7))]
        else:
            image_uv = np.asarray(a["uvs"], dtype=np.float64).reshape(-1, 2)
            e1, e2 = v[tris[:, 1]] - v[tris[:, 0]], v[tris[:, 2]] - v[tris[:, 0]]
            area = np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])
            targets = [v[tris[t]].mean(axis=0) for t in np.argsort(area)[-4:]]
        later = [np.asarray(o.vertices).reshape(-1, 2)[np.asarray(o.indices).reshape(-1, 3)] for o in items[k + 1:]]
        later = np.concatenate(later) if later else np.zeros((0, 3, 2))
        for target in targets:
            sx, sy = (int(c) for c in view.to_px(target[None])[0])
            world = np.array([(sx + 0.5) / view.scale - view.ox, view.oy - (sy + 0.5) / view.scale])
            hit = np.flatnonzero(_inside(world, v[tris]))
            if not len(hit) or _inside(world, later).any():
                continue
            tri = tris[hit[0]]
            # barycentric coordinates of the pixel centre in that triangle -> its image uv
            m = np.stack([v[tri[1]] - v[tri[0]], v[tri[2]] - v[tri[0]]], axis=1)
            b1, b2 = np.linalg.solve(m, world - v[tri[0]])
            mu, mv = image_uv[tri[0]] + b1 * (image_uv[tri[1]] - image_uv[tri[0]]) + \
                b2 * (image_uv[tri[2]] - image_uv[tri[0]])
            px, py = page_pixel_of(r, mu, mv)
            ix, iy = int(math.floor(px - 0.5)), int(math.floor(py - 0.5))  # bilinear: texel centres at +0.5
            fx, fy = px - 0.5 - ix, py - 0.5 - iy
            patch = page[iy:iy + 2, ix:ix + 2]
            if patch.shape[:2] != (2, 2) or patch[..., 3].min() < 255:
                continue  # a transparent part: the picture shows what lies below
            want = (patch[0, 0] * (1 - fx) * (1 - fy) + patch[0, 1] * fx * (1 - fy) + patch[1, 0] * (1 - fx) * fy
                    + patch[1, 1] * fx * fy)[:3]
            got = picture[sy, sx, :3]
            assert np.abs(got - want).max() <= 10, (name, it.slot, it.attachment, (mu, mv), got, want)
            sampled[a["type"]] += 1
    assert sum(sampled.values()) >= 2, f"{name}: only {sampled} samples"


# ---- the OpenBone region "rotation" extension itself ---------------------------------------------

def _one_region_doc(region):
    return {"format": "openbone", "version": 1, "name": "t", "width": 100, "height": 100, "fps": 30,
            "images": [{"id": "im", "name": "im", "src": "", "width": 10, "height": 20}],
            "atlas": {"pages": [{"id": "pg", "name": "pg", "src": "", "width": 64, "height": 32}],
                      "regions": [dict({"image": "im", "page": "pg", "x": 4, "y": 2, "width": 10, "height": 20,
                                        "offsetX": 0, "offsetY": 0, "originalWidth": 10, "originalHeight": 20},
                                       **region)]},
            "skeleton": {"bones": [{"id": "root", "name": "root"}], "slots": [
                {"id": "s", "name": "s", "bone": "root", "color": "#FFFFFFFF", "attachment": "m", "blend": "normal"}],
                "skins": [{"id": "default", "name": "default", "attachments": {"s": {"m": {
                    "type": "mesh", "image": "im", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2],
                    "vertices": [0, 0, 10, 0, 10, 20]}}}}]}}


@pytest.mark.parametrize("region, want", [
    # 180: u' = (x + w + offX - u·origW)/P.w, v' = (y + h + offY - v·origH)/P.h with x 4, y 2, 10 x 20, page 64 x 32
    ({"rotation": 180}, [[14 / 64, 22 / 32], [4 / 64, 22 / 32], [4 / 64, 2 / 32]]),
    # 270: u' = (x - offY + v·origH)/P.w, v' = (y + w + offX - u·origW)/P.h
    ({"rotation": 270}, [[4 / 64, 12 / 32], [4 / 64, 2 / 32], [24 / 64, 2 / 32]]),
    # 90 = rotated: u' = (x + h + offY - v·origH)/P.w, v' = (y - offX + u·origW)/P.h
    ({"rotation": 90}, [[24 / 64, 2 / 32], [24 / 64, 12 / 32], [4 / 64, 12 / 32]]),
    ({"rotated": True, "rotation": 0}, [[4 / 64, 2 / 32], [14 / 64, 2 / 32], [14 / 64, 22 / 32]]),
])
def test_region_rotation_extension_by_hand(region, want):
    doc = openbone.loads(json.dumps(_one_region_doc(region)))
    inst = openbone.Instance(doc)
    inst.advance(0)
    (it,) = list(inst.draw_list())
    np.testing.assert_allclose(it.uvs, want, atol=1e-7)
    # the .obonb codec keeps it
    back = openbone.loads(openbone.dumps(doc, binary=True))
    i2 = openbone.Instance(back)
    i2.advance(0)
    np.testing.assert_array_equal(list(i2.draw_list())[0].uvs, it.uvs)


def test_region_rotation_other_angles_warn():
    doc = openbone.loads(json.dumps(_one_region_doc({"rotated": True, "rotation": 45})))
    assert any("region rotation 45 is not 0, 90, 180 or 270: rotated used" in w for w in doc.warnings)
    inst = openbone.Instance(doc)
    inst.advance(0)
    np.testing.assert_allclose(list(inst.draw_list())[0].uvs[0], [24 / 64, 2 / 32], atol=1e-7)
