"""Skeleton JSON 4.2 import (issue 9): structure of the imported documents.

Expected numbers are derived by hand from the skeleton JSON files and the
rigby2d text (relative keys, curve normalisation, draw-order offsets...) or
with the small Spine re-implementations in this file, never printed by the
importer.
"""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import openbone
from openbone import spine

ROOT = Path(__file__).resolve().parents[1]
from conftest import REFERENCE, reference  # noqa: E402

SKEL = REFERENCE / "spine" / "skeletons"
NAMES = ["spineboy-pro", "raptor-pro", "stretchyman-pro", "tank-pro", "vine-pro", "owl-pro", "goblins-pro",
         "hero-pro", "celestial-circus-pro", "sack-pro", "cloud-pot"]

@pytest.fixture(autouse=True)
def _needs_the_skeletons():
    reference("spine", "skeletons")

f32 = lambda x: float(np.float32(x))  # noqa: E731


def src(name):
    return json.loads((SKEL / f"{name}.json").read_text())


_cache = {}


def imported(name, curves="spine"):
    key = (name, curves)
    if key not in _cache:
        _cache[key] = spine.skeleton_json_to_dict(SKEL / f"{name}.json", curves=curves)
    return _cache[key]


def timeline(d, anim, target, id_, prop, attachment=None):
    a = next(a for a in d["animations"] if a["name"] == anim)
    for tl in a["timelines"]:
        if tl["target"] == target and tl["id"] == id_ and tl["property"] == prop and \
                tl.get("attachment") == attachment:
            return tl
    raise KeyError((anim, target, id_, prop))


def mini(**parts):
    """A minimal skeleton JSON 4.2 dict."""
    d = {"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}], "slots": [], "skins": [], "animations": {}}
    d.update(parts)
    return d


# ---- every example imports, poses, draws and converts ----------------------------------

@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("curves", ["spine", "exact", "linear"])
def test_examples_import_and_pose(name, curves):
    warns = []
    d = spine.skeleton_json_to_dict(SKEL / f"{name}.json", curves=curves, warnings=warns)
    doc = openbone.loads(json.dumps(d))
    s = src(name)
    assert len(doc.bones) == len(s["bones"])
    assert len(doc.slots) == len(s["slots"])
    assert [a.name for a in doc.animations] == list(s.get("animations", {}))
    assert doc.skins[0].name == "default"
    inst = openbone.Instance(doc)
    assert np.isfinite(inst.world).all()
    for anim in doc.animations:
        inst = openbone.Instance(doc)
        inst.set_animation(0, anim.name, True, 0)
        for _ in range(12):
            inst.advance(1 / 30)
            assert np.isfinite(inst.world).all(), anim.name
        for it in inst.draw_list():
            assert np.isfinite(np.asarray(it.vertices)).all()


@pytest.mark.parametrize("name", NAMES)
def test_examples_convert_obone_obonb(name, tmp_path):
    doc = openbone.import_skeleton_json(SKEL / f"{name}.json")
    for ext in ("obone", "obonb"):
        p = tmp_path / f"{name}.{ext}"
        doc.save(p)
        back = openbone.load(p)
        assert back.bone_names == doc.bone_names
        assert [a.name for a in back.animations] == [a.name for a in doc.animations]
        a, b = openbone.Instance(doc), openbone.Instance(back)
        if doc.animations:
            anim = doc.animations[-1].name
            a.set_animation(0, anim, True, 0)
            b.set_animation(0, anim, True, 0)
            for _ in range(5):
                a.advance(1 / 30)
                b.advance(1 / 30)
        # .obonb stores float32-representable numbers as float32 (7 significant digits)
        assert np.abs(a.world - b.world).max() < 2e-3


def test_cli_convert(tmp_path):
    for ext in ("obone", "obonb"):
        out = tmp_path / f"boy.{ext}"
        r = subprocess.run([sys.executable, "-m", "openbone", "convert", str(SKEL / "spineboy-pro.json"), str(out)],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        doc = openbone.load(out)
        assert len(doc.bones) == 67 and "run" in [a.name for a in doc.animations]
        # the import's per-document options survive the conversion and info shows them
        assert doc.meta["curveMode"] == "spine" and doc.meta["poseModel"] == "spine"
        r = subprocess.run([sys.executable, "-m", "openbone", "info", str(out), "--json"],
                           capture_output=True, text=True, cwd=ROOT)
        info = json.loads(r.stdout)
        assert (info["curveMode"], info["poseModel"]) == ("spine", "spine")
    plain = openbone.load(ROOT / "examples" / "hero.obone")
    assert plain.meta["curveMode"] == "openbone" and plain.meta["poseModel"] == "openbone"


def test_is_skeleton_json():
    assert spine.is_skeleton_json({"skeleton": {}, "bones": []})
    assert not spine.is_skeleton_json({"format": "openbone", "skeleton": {"bones": []}})
    with pytest.raises(ValueError):
        spine.skeleton_json_to_dict({"format": "openbone"})
    with pytest.raises(ValueError):
        spine.skeleton_json_to_dict(mini(), curves="cubic")


# ---- skeleton ------------------------------------------------------------------------

def test_bones_setup_and_inherit():
    d = imported("raptor-pro")
    s = {b["name"]: b for b in src("raptor-pro")["bones"]}
    for b in d["skeleton"]["bones"]:
        sb = s[b["id"]]
        assert b["rotation"] == sb.get("rotation", 0) and b["x"] == sb.get("x", 0)
        assert b["scaleX"] == sb.get("scaleX", 1) and b["shearY"] == sb.get("shearY", 0)
        assert b["inherit"] == sb.get("inherit", "normal")  # Spine noScale → OpenBone noScale
    modes = {b["inherit"] for b in d["skeleton"]["bones"]}
    assert {"noScale", "noRotationOrReflection", "onlyTranslation"} <= modes


def test_slots_colors_dark_blend():
    d = spine.skeleton_json_to_dict(mini(
        bones=[{"name": "root"}],
        slots=[{"name": "a", "bone": "root", "color": "ff000080", "dark": "00ff00", "blend": "additive",
                "attachment": "x"}, {"name": "b", "bone": "root"}]))
    a, b = d["skeleton"]["slots"]
    assert a == {"id": "a", "name": "a", "bone": "root", "color": "#FF000080", "dark": "#00FF00",
                 "attachment": "x", "blend": "additive"}
    assert b["color"] == "#FFFFFFFF" and "dark" not in b and b["attachment"] is None and b["blend"] == "normal"
    inst = openbone.Instance(openbone.loads(json.dumps(d)))
    assert np.allclose(inst.slot_colors[0], [1, 0, 0, 128 / 255])


def test_constraints_defaults_and_order():
    d = imported("spineboy-pro")
    ik = {c["id"]: c for c in d["skeleton"]["ik"]}
    # {"name": "aim-ik", "order": 13, "bones": ["rear-upper-arm"], "target": "crosshair", "mix": 0}
    assert ik["aim-ik"]["mix"] == 0 and ik["aim-ik"]["order"] == 13 and ik["aim-ik"]["bendPositive"] is True
    # front-leg-ik: mix defaults to 1 (Spine), bendPositive false, order 4
    assert ik["front-leg-ik"]["mix"] == 1 and ik["front-leg-ik"]["bendPositive"] is False
    tr = {c["id"]: c for c in d["skeleton"]["transform"]}
    # "shoulder" has no order in the file: Spine's default 0 must be written (OpenBone would use its index)
    assert tr["shoulder"]["order"] == 0
    # {"x": 40.17, "y": -1.66, "mixRotate": 0, "mixX": -1, "mixScaleX": 0, "mixShearY": 0}
    assert tr["shoulder"]["offsetX"] == 40.17 and tr["shoulder"]["mixTranslate"] == -1
    assert tr["aim-torso-transform"]["offsetRotation"] == 69.5 and tr["aim-torso-transform"]["offsetShear"] == -36
    doc = openbone.loads(json.dumps(d))
    order = [doc.constraints[i].name for i in openbone.Instance(doc).constraint_order]
    assert order[:3] == ["shoulder", "board-ik", "front-foot-board-transform"]


def test_physics_spine_fields():
    # poseModel "spine": spine-core 4.2's physics reads Spine's own fields, every one of them
    c = {"name": "p", "bone": "b", "x": 1, "rotate": 0.5, "scaleX": 0.25, "shearX": 0.75, "limit": 300,
         "inertia": 0.5, "strength": 80, "damping": 0.85, "mass": 2, "wind": 3, "gravity": -4, "mix": 0.7,
         "fps": 30, "inertiaGlobal": True, "windGlobal": True, "mixGlobal": True}
    d = spine.skeleton_json_to_dict(mini(bones=[{"name": "root"}, {"name": "b", "parent": "root", "length": 10}],
                                         physics=[c]))
    (p,) = d["skeleton"]["physics"]
    for k, v in c.items():
        assert p[k] == v, k
    assert p["y"] == 0 and p["strengthGlobal"] is False and p["gravityGlobal"] is False
    # SkeletonJson's defaults
    d = spine.skeleton_json_to_dict(mini(bones=[{"name": "root"}], physics=[{"name": "q", "bone": "root"}]))
    q = d["skeleton"]["physics"][0]
    assert (q["inertia"], q["strength"], q["damping"], q["mass"], q["fps"], q["mix"], q["limit"], q["shearX"]) == \
        (1, 100, 1, 1, 60, 1, 5000, 0)


def test_physics_mapping():
    # pose_model="openbone": mapped onto §7.4's parameters
    d = spine.skeleton_json_to_dict(mini(
        bones=[{"name": "root"}, {"name": "b", "parent": "root", "length": 10}],
        physics=[{"name": "p", "bone": "b", "x": 1, "rotate": 0.5, "inertia": 0.5, "strength": 80,
                  "damping": 0.85, "mass": 2, "wind": 3, "gravity": -4, "mix": 0.7, "fps": 30}]),
        pose_model="openbone")
    (p,) = d["skeleton"]["physics"]
    assert p["strength"] == 80 and p["mass"] == 2 and p["inertia"] == 0.5 and p["fps"] == 30
    # per-step velocity factor 0.85^(60 h) == exp(-damping h)  ⇒  damping = -60 ln 0.85
    assert p["damping"] == pytest.approx(-60 * math.log(0.85))
    # Spine accelerates by wind / mass (× referenceScale 100), OpenBone by wind × 100/100
    assert p["wind"] == pytest.approx(3 * 100 / 2) and p["gravity"] == pytest.approx(-4 * 100 / 2)
    assert p["mix"] == 0.7 and p["x"] == 1 and p["y"] == 0 and p["rotate"] == 0.5
    # defaults: inertia 1, strength 100, damping 1 (⇒ 0), mass 1, fps 60
    d = spine.skeleton_json_to_dict(mini(bones=[{"name": "root"}], physics=[{"name": "q", "bone": "root"}]),
                                    pose_model="openbone")
    q = d["skeleton"]["physics"][0]
    assert (q["inertia"], q["strength"], q["damping"], q["mass"], q["fps"], q["mix"]) == (1, 100, 0, 1, 60, 1)


def test_skin_bones_and_constraints():
    d = imported("hero-pro")
    skins = {k["name"]: k for k in d["skeleton"]["skins"]}
    s = {k["name"]: k for k in src("hero-pro")["skins"]}
    assert list(skins)[0] == "default"
    assert skins["weapon/morningstar"]["bones"] == s["weapon/morningstar"]["bones"]
    assert skins["weapon/morningstar"]["constraints"] == s["weapon/morningstar"]["path"]
    assert skins["weapon/sword"]["bones"] == s["weapon/sword"]["bones"]
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc, skin="weapon/sword")
    active = np.asarray(inst.active_bones, dtype=bool)
    names = doc.bone_names
    for b in s["weapon/morningstar"]["bones"]:
        if b not in s["weapon/sword"]["bones"]:
            assert not active[names.index(b)]
    for b in s["weapon/sword"]["bones"]:
        assert active[names.index(b)]


# ---- attachments ---------------------------------------------------------------------

def test_region_and_image():
    d = imported("spineboy-pro")
    reg = d["skeleton"]["skins"][0]["attachments"]["gun"]["gun"]
    a = src("spineboy-pro")["skins"][0]["attachments"]["gun"]["gun"]
    assert reg["type"] == "region" and reg["image"] == "gun"
    for k in ("x", "y", "rotation", "width", "height"):
        assert reg[k] == a[k]
    assert {"id": "gun", "name": "gun", "src": "images/gun.png", "width": a["width"], "height": a["height"]} \
        in d["images"]


def test_weighted_mesh_influences():
    d = imported("spineboy-pro")
    s = src("spineboy-pro")
    bones = [b["name"] for b in s["bones"]]
    a = s["skins"][0]["attachments"]["rear-foot"]["rear-foot"]
    m = d["skeleton"]["skins"][0]["attachments"]["rear-foot"]["rear-foot"]
    n = len(a["uvs"]) // 2
    assert len(a["vertices"]) > 2 * n and len(m["weights"]) == n and len(m["vertices"]) == 2 * n
    # walk Spine's flat list by hand for the first two vertices
    v = a["vertices"]
    i = 0
    for vert in range(2):
        cnt = v[i]
        i += 1
        infl = m["weights"][vert]
        assert len(infl) == cnt
        for j in range(cnt):
            assert infl[j] == {"bone": bones[v[i]], "x": f32(v[i + 1]), "y": f32(v[i + 2]), "weight": f32(v[i + 3])}
            i += 4
    assert m["uvs"] == [f32(u) for u in a["uvs"]] and m["triangles"] == a["triangles"]
    assert m["hull"] == a["hull"]


def test_weighted_setup_vertices_match_weights():
    """The editor copy of a weighted mesh's vertices is its setup pose in slot-bone space."""
    d = imported("spineboy-pro")
    doc = openbone.loads(json.dumps(d))
    names = doc.bone_names
    strip = dict(d)
    strip["skeleton"] = dict(d["skeleton"], ik=[], transform=[], path=[], physics=[])
    inst = openbone.Instance(openbone.loads(json.dumps(strip)))
    W = inst.world
    m = d["skeleton"]["skins"][0]["attachments"]["rear-foot"]["rear-foot"]
    sb = W[names.index("rear-foot")]
    for vi in (0, 5):
        wx = sum(w["weight"] * (W[names.index(w["bone"])][0] * w["x"] + W[names.index(w["bone"])][1] * w["y"] +
                                W[names.index(w["bone"])][4]) for w in m["weights"][vi])
        lx, ly = m["vertices"][2 * vi:2 * vi + 2]
        assert sb[0] * lx + sb[1] * ly + sb[4] == pytest.approx(wx, abs=1e-3)


def test_linked_mesh_resolved():
    d = imported("goblins-pro")
    skins = {k["name"]: k for k in d["skeleton"]["skins"]}
    # {"name": "goblingirl/left-foot", "type": "linkedmesh", "skin": "goblin", "parent": "left-foot"}
    lm = skins["goblingirl"]["attachments"]["left-foot"]["left-foot"]
    par = skins["goblin"]["attachments"]["left-foot"]["left-foot"]
    assert lm["linked"] == {"mesh": "left-foot", "deform": True}
    assert lm["image"] == "goblingirl/left-foot" and par["image"] == "goblin/left-foot"
    for k in ("uvs", "triangles", "vertices", "hull"):
        assert lm[k] == par[k]


def test_clipping_bbox_path_point():
    d = imported("spineboy-pro")
    atts = d["skeleton"]["skins"][0]["attachments"]
    clip = atts["clipping"]["clipping"]
    assert clip["type"] == "clipping" and clip["end"] == "head-bb" and len(clip["vertices"]) == 18
    assert atts["head-bb"]["head"]["type"] == "boundingBox"
    d = imported("tank-pro")
    paths = [a for e in d["skeleton"]["skins"][0]["attachments"].values() for a in e.values() if a["type"] == "path"]
    assert paths and all("closed" in p and "constantSpeed" in p for p in paths)
    d = spine.skeleton_json_to_dict(mini(slots=[{"name": "s", "bone": "root"}], skins=[{"name": "default", "attachments": {
        "s": {"p": {"type": "point", "x": 3, "y": 4, "rotation": 30}}}}]))
    assert d["skeleton"]["skins"][0]["attachments"]["s"]["p"] == {"type": "point", "x": 3, "y": 4, "rotation": 30,
                                                                  "color": "#FFFFFFFF"}


def test_sequence_region():
    d = spine.skeleton_json_to_dict(mini(slots=[{"name": "s", "bone": "root", "attachment": "f"}], skins=[{
        "name": "default", "attachments": {"s": {"f": {"width": 10, "height": 20,
                                                      "sequence": {"count": 3, "start": 1, "digits": 2,
                                                                   "setupIndex": 1}}}}}]))
    att = d["skeleton"]["skins"][0]["attachments"]["s"]["f"]
    assert att["type"] == "sequence" and [f["image"] for f in att["frames"]] == ["f01", "f02", "f03"]
    assert att["offset"] == 1 and att["fps"] == 0
    openbone.loads(json.dumps(d))


# ---- animations ----------------------------------------------------------------------

def test_bone_keys_relative_to_absolute():
    d = imported("spineboy-pro")
    # torso setup rotation 103.82; run rotate keys: -37.66 (t 0), -36.21 (t 0.1333)
    tl = timeline(d, "run", "bone", "torso", "rotation")
    assert tl["keys"][0]["value"] == 103.82 + f32(-37.66)
    assert tl["keys"][1]["time"] == f32(0.1333) and tl["keys"][1]["value"] == 103.82 + f32(-36.21)
    # front-thigh setup x -17.46, y -11.64; run translate {"x": -5.14, "y": 11.13}
    assert timeline(d, "run", "bone", "front-thigh", "x")["keys"][0]["value"] == -17.46 + f32(-5.14)
    assert timeline(d, "run", "bone", "front-thigh", "y")["keys"][0]["value"] == -11.64 + f32(11.13)


def test_scale_keys_multiply_setup():
    d = spine.skeleton_json_to_dict(mini(bones=[{"name": "root", "scaleX": 2, "scaleY": 3}], animations={"a": {
        "bones": {"root": {"scale": [{"x": 1.5}, {"time": 1, "y": 0.5}], "scalex": [{"time": 0.5, "value": 4}]}}}}))
    sx = timeline(d, "a", "bone", "root", "scaleX")
    sy = timeline(d, "a", "bone", "root", "scaleY")
    assert [k["value"] for k in sx["keys"]] == [3.0, 2.0]  # 2 × 1.5, 2 × default 1
    assert [k["value"] for k in sy["keys"]] == [3.0, 1.5]  # 3 × 1, 3 × 0.5
    # scalex: first key at 0.5 ⇒ a stepped setup key at 0 (Spine shows the setup pose before the first key)
    sxx = [tl for tl in next(a for a in d["animations"])["timelines"] if tl["property"] == "scaleX"][1]
    assert sxx["keys"] == [{"time": 0.0, "value": 2, "curve": "stepped"}, {"time": 0.5, "value": 8.0}]


def test_curve_normalisation_per_value():
    d = imported("spineboy-pro")
    # run front-thigh translate key 0: x -5.14 → -9.03, y 11.13 → 7.99 over 0 → 0.1667,
    # "curve": [0.033, -7.77, 0.112, -9.03, 0.034, 11.13, 0.108, 9.74]
    kx = timeline(d, "run", "bone", "front-thigh", "x")["keys"][0]["curve"]
    ky = timeline(d, "run", "bone", "front-thigh", "y")["keys"][0]["curve"]
    v1x, v2x, v1y, v2y = f32(-5.14), f32(-9.03), f32(11.13), f32(7.99)
    assert kx == pytest.approx([0.033 / 0.1667, (-7.77 - v1x) / (v2x - v1x), 0.112 / 0.1667, (-9.03 - v1x) / (v2x - v1x)])
    assert ky == pytest.approx([0.034 / 0.1667, (11.13 - v1y) / (v2y - v1y), 0.108 / 0.1667, (9.74 - v1y) / (v2y - v1y)])
    assert d["curveMode"] == "spine"
    assert imported("spineboy-pro", "exact")["curveMode"] == "exact"
    assert "curveMode" not in imported("spineboy-pro", "linear")


def test_stepped_and_attachment_keys():
    d = imported("spineboy-pro")
    tl = timeline(d, "run", "slot", "mouth", "attachment")
    assert tl["keys"] == [{"time": 0.0, "value": "mouth-grind", "curve": "stepped"}]
    tl = timeline(d, "hoverboard", "bone", "side-glow1", "rotation")
    assert all(k.get("curve") == "stepped" for k in tl["keys"][:-1])


def test_flat_span_bulge_split():
    """death / neck rotate: 18.51 (t 2.6667) → 18.51 (t 4.5333) with handles at 16.58 / 16.79:
    the value dips in Spine; the importer inserts Spine's 9 samples as linear keys."""
    d = imported("spineboy-pro")
    keys = timeline(d, "death", "bone", "neck", "rotation")["keys"]
    setup = -4.91  # neck setup rotation? read it from the file
    setup = next(b for b in src("spineboy-pro")["bones"] if b["name"] == "neck").get("rotation", 0)
    i = next(i for i, k in enumerate(keys) if k["time"] == f32(2.6667))
    inner = keys[i + 1:i + 10]
    assert "curve" not in keys[i] and len(inner) == 9 and keys[i + 10]["time"] == f32(4.5333)
    # sample 5 of spine-core setBezier by the closed form: forward differences give the exact cubic at s = k/10
    s = 0.5
    t1, v1, cx1, cy1, cx2, cy2, t2, v2 = 2.6667, 18.51, 3.172, 16.58, 4.06, 16.79, 4.5333, 18.51
    bez = lambda p0, p1, p2, p3: (1 - s) ** 3 * p0 + 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3 * p3  # noqa
    assert inner[4]["time"] == pytest.approx(bez(t1, cx1, cx2, t2), abs=1e-5)
    assert inner[4]["value"] == pytest.approx(setup + bez(v1, cy1, cy2, v2), abs=1e-4)
    # exact mode: one split at s = 1/2 with the mid point at the same place
    ke = timeline(imported("spineboy-pro", "exact"), "death", "bone", "neck", "rotation")["keys"]
    j = next(i for i, k in enumerate(ke) if k["time"] == f32(2.6667))
    assert ke[j + 1]["time"] == pytest.approx(bez(t1, cx1, cx2, t2), abs=1e-5)
    assert ke[j + 1]["value"] == pytest.approx(setup + bez(v1, cy1, cy2, v2), abs=1e-4)


def test_ik_transform_path_physics_keys():
    d = imported("spineboy-pro")
    # run: "front-leg-ik": [{"softness": 10, "bendPositive": false}, {"time": 0.5667, "softness": 14.8, ...}]
    soft = timeline(d, "run", "ik", "front-leg-ik", "softness")["keys"]
    assert [k["value"] for k in soft[:2]] == [10.0, f32(14.8)]
    mix = timeline(d, "run", "ik", "front-leg-ik", "mix")["keys"]
    assert all(k["value"] == 1 for k in mix)  # Spine's key default mix is 1
    d = imported("tank-pro")
    pos = timeline(d, "drive", "path", "treads-path", "position")
    assert pos["keys"]
    d = imported("sack-pro")
    a = next(a for a in d["animations"] if any(t["target"] == "physics" for t in a["timelines"]))
    assert {t["property"] for t in a["timelines"] if t["target"] == "physics"} <= \
        {"inertia", "strength", "damping", "mass", "wind", "gravity", "mix"}


def test_physics_all_constraints_key():
    src_dict = mini(
        bones=[{"name": "root"}], physics=[{"name": "p", "bone": "root", "mass": 2}, {"name": "q", "bone": "root"}],
        animations={"a": {"physics": {"": {"wind": [{"value": 1}, {"time": 1, "value": 2}],
                                           "reset": [{"time": 0.5}]}}}})
    d = spine.skeleton_json_to_dict(src_dict, pose_model="openbone")
    a = d["animations"][0]
    winds = {t["id"]: [k["value"] for k in t["keys"]] for t in a["timelines"] if t["property"] == "wind"}
    assert winds == {"p": [50.0, 100.0], "q": [100.0, 200.0]}
    assert a["duration"] == f32(1.0)
    # poseModel "spine": Spine's timelines as they are, the name "" kept (the runtime reaches the
    # constraints whose windGlobal is set), reset keys as a reset timeline
    a = spine.skeleton_json_to_dict(src_dict)["animations"][0]
    (wind,) = [t for t in a["timelines"] if t["property"] == "wind"]
    assert wind["id"] == "" and [k["value"] for k in wind["keys"]] == [1.0, 2.0]
    (reset,) = [t for t in a["timelines"] if t["property"] == "reset"]
    assert reset["id"] == "" and reset["keys"] == [{"time": 0.5}]
    assert a["duration"] == f32(1.0)


def test_color_timelines():
    d = spine.skeleton_json_to_dict(mini(
        slots=[{"name": "s", "bone": "root", "color": "ffffff80"}],
        animations={"a": {"slots": {"s": {
            "rgba2": [{"light": "ff000080", "dark": "00ff00"}, {"time": 1, "light": "0000ffff", "dark": "000000"}],
            "alpha": [{"value": 0.25}]}}}}))
    tls = d["animations"][0]["timelines"]
    col = [t for t in tls if t["property"] == "color"]
    dark = next(t for t in tls if t["property"] == "dark")
    assert col[0]["keys"][0]["value"] == "#FF000080" and col[0]["keys"][1]["value"] == "#0000FFFF"
    assert dark["keys"][0]["value"] == "#00FF00" and dark["keys"][1]["value"] == "#000000"
    # alpha only: the setup rgb with alpha 0.25 (0x40)
    assert col[1]["keys"][0]["value"] == "#FFFFFF40"


def test_sparse_deform_unweighted():
    d = spine.skeleton_json_to_dict(mini(
        slots=[{"name": "s", "bone": "root", "attachment": "m"}],
        skins=[{"name": "default", "attachments": {"s": {"m": {
            "type": "mesh", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2], "vertices": [0, 0, 10, 0, 10, 10],
            "hull": 3}}}}],
        animations={"a": {"attachments": {"default": {"s": {"m": {"deform": [
            {"offset": 2, "vertices": [1.5, -2], "curve": [0.25, 0.1, 0.75, 0.9]},
            {"time": 1}]}}}}}}))
    tl = next(t for t in d["animations"][0]["timelines"] if t["target"] == "deform")
    assert tl["attachment"] == "m" and tl["id"] == "s"
    assert tl["keys"][0]["value"] == [0.0, 0.0, 1.5, -2.0, 0.0, 0.0]
    assert tl["keys"][1]["value"] == [0.0] * 6
    assert tl["keys"][0]["curve"] == pytest.approx([0.25, 0.1, 0.75, 0.9])  # deform curves are 0..1 already


def test_weighted_deform_setup_exact():
    """A vertex on two bones: Spine adds a different offset to each influence; the
    imported per-vertex offset gives the same vertex in the setup pose."""
    bones = [{"name": "root"}, {"name": "a", "parent": "root", "rotation": 90},
             {"name": "b", "parent": "root", "x": 5, "scaleX": 2}]
    d = spine.skeleton_json_to_dict(mini(
        bones=bones, slots=[{"name": "s", "bone": "root", "attachment": "m"}],
        skins=[{"name": "default", "attachments": {"s": {"m": {
            "type": "mesh", "uvs": [0, 0], "triangles": [], "hull": 1,
            "vertices": [2, 1, 1, 0, 0.25, 2, 0, 1, 0.75]}}}}],
        animations={"a": {"attachments": {"default": {"s": {"m": {"deform": [
            {"vertices": [4, 0, 0, 2]}]}}}}}}), pose_model="openbone")
    tl = next(t for t in d["animations"][0]["timelines"] if t["target"] == "deform")
    dx, dy = tl["keys"][0]["value"]
    # Spine: 0.25·A(1+4, 0) + 0.75·B(0, 1+2) with A = rot 90 at 0, B = scaleX 2 at (5, 0)
    A = lambda x, y: (-y, x)  # noqa: E731
    B = lambda x, y: (2 * x + 5, y)  # noqa: E731
    sp = np.add(np.multiply(0.25, A(5, 0)), np.multiply(0.75, B(0, 3)))
    ob = np.add(np.multiply(0.25, A(1 + dx, 0 + dy)), np.multiply(0.75, B(0 + dx, 1 + dy)))
    assert ob == pytest.approx(sp)


def test_draw_order_offsets():
    slots = [{"name": n, "bone": "root"} for n in "abcde"]
    d = spine.skeleton_json_to_dict(mini(slots=slots, animations={"a": {"drawOrder": [
        {"offsets": [{"slot": "b", "offset": 2}, {"slot": "d", "offset": -3}]}, {"time": 1}]}}))
    tl = next(t for t in d["animations"][0]["timelines"] if t["target"] == "drawOrder")
    # by hand (Spine's rule): b (1) → 3, d (3) → 0; free places 1, 2, 4 take a, c, e in setup order
    assert tl["keys"][0]["value"] == ["d", "a", "c", "b", "e"]
    assert tl["keys"][1]["value"] == list("abcde")  # a key without offsets: the setup order
    inst = openbone.Instance(openbone.loads(json.dumps(d)))
    inst.set_animation(0, "a", False, 0)
    inst.advance(0.5)
    assert list(inst.draw_order) == [3, 0, 2, 1, 4]


def test_events():
    d = imported("spineboy-pro")
    assert d["events"] == [{"id": "footstep", "name": "footstep", "int": 0, "float": 0, "string": ""}]
    run = next(a for a in d["animations"] if a["name"] == "run")
    assert run["events"] == [{"time": f32(0.2333), "event": "footstep"}, {"time": f32(0.5667), "event": "footstep"}]
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    inst.set_animation(0, "run", True, 0)
    fired = []
    for _ in range(20):
        inst.advance(1 / 30)
        fired += [e["name"] for e in inst.events]
    assert fired == ["footstep", "footstep"]


def test_duration_float32_last_key():
    d = imported("spineboy-pro")
    dur = {a["name"]: a["duration"] for a in d["animations"]}
    assert dur["run"] == f32(0.6667) and dur["aim"] == 0 and dur["death"] == f32(4.9333)


def test_handles_leaving_span_count():
    total = 0
    for n in NAMES:
        w = []
        spine.skeleton_json_to_dict(SKEL / f"{n}.json", warnings=w)
        for m in w:
            if "time handles outside" in m:
                total += int(m.split()[0])
    assert total == 20


# ---- curves: spine sampling (independent re-implementation of spine-core) -------------

def spine_core_value(time1, value1, cx1, cy1, cx2, cy2, time2, value2, time):
    """spine-core CurveTimeline.setBezier + getBezierValue, transcribed (absolute units)."""
    curves = []
    tmpx = (time1 - cx1 * 2 + cx2) * 0.03
    tmpy = (value1 - cy1 * 2 + cy2) * 0.03
    dddx = ((cx1 - cx2) * 3 - time1 + time2) * 0.006
    dddy = ((cy1 - cy2) * 3 - value1 + value2) * 0.006
    ddx, ddy = tmpx * 2 + dddx, tmpy * 2 + dddy
    dx = (cx1 - time1) * 0.3 + tmpx + dddx * 0.16666667
    dy = (cy1 - value1) * 0.3 + tmpy + dddy * 0.16666667
    x, y = time1 + dx, value1 + dy
    for _ in range(9):
        curves += [x, y]
        dx += ddx
        dy += ddy
        ddx += dddx
        ddy += dddy
        x += dx
        y += dy
    if curves[0] > time:
        return value1 + (time - time1) / (curves[0] - time1) * (curves[1] - value1)
    for i in range(2, 18, 2):
        if curves[i] >= time:
            x, y = curves[i - 2], curves[i - 1]
            return y + (time - x) / (curves[i] - x) * (curves[i + 1] - y)
    x, y = curves[16], curves[17]
    return y + (time - x) / (time2 - x) * (value2 - y)


def one_bone_doc(curve_mode, keys):
    d = {"format": "openbone", "version": 1, "name": "c", "width": 0, "height": 0, "fps": 30,
         "skeleton": {"bones": [{"id": "b", "name": "b"}], "slots": [],
                      "skins": [{"id": "default", "name": "default", "attachments": {}}]},
         "animations": [{"id": "a", "name": "a", "duration": 0,
                         "timelines": [{"target": "bone", "id": "b", "property": "x", "keys": keys}]}]}
    if curve_mode:
        d["curveMode"] = curve_mode
    return openbone.loads(json.dumps(d))


def pose_x(doc, t):
    inst = openbone.Instance(doc)
    inst.set_to_setup_pose()
    inst.apply_animation("a", t)
    inst.update_world_transform()
    return inst.world[0][4]


CURVES = [
    (0, 0, 0.3, -20, 0.6, 130, 1.2, 100),          # overshooting values
    (0.5, 10, 0.6, 10, 1.4, 60, 1.5, 60),           # ease in-out
    (0, 0, 0.758, 131.59, 0.517, 144.01, 1, 150),   # handles crossing (non-monotonic x)
    (0, 5, -0.2, 30, 1.3, 40, 1, 50),               # time handles outside the span
]


@pytest.mark.parametrize("c", CURVES)
def test_spine_curve_python_matches_spine_core(c):
    t1, v1, cx1, cy1, cx2, cy2, t2, v2 = c
    nc = [(cx1 - t1) / (t2 - t1), (cy1 - v1) / (v2 - v1), (cx2 - t1) / (t2 - t1), (cy2 - v1) / (v2 - v1)]
    for k in range(1, 50):
        t = t1 + (t2 - t1) * k / 50
        want = spine_core_value(t1, v1, cx1, cy1, cx2, cy2, t2, v2, t)
        got = v1 + (v2 - v1) * spine.spine_curve(nc, (t - t1) / (t2 - t1))
        assert got == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("c", CURVES)
@pytest.mark.parametrize("mode", ["spine", "exact"])
def test_runtime_curve_modes(c, mode):
    t1, v1, cx1, cy1, cx2, cy2, t2, v2 = c
    nc = [(cx1 - t1) / (t2 - t1), (cy1 - v1) / (v2 - v1), (cx2 - t1) / (t2 - t1), (cy2 - v1) / (v2 - v1)]
    doc = one_bone_doc(mode, [{"time": t1, "value": v1, "curve": nc}, {"time": t2, "value": v2}])
    for k in range(0, 21):
        t = t1 + (t2 - t1) * k / 20
        if mode == "spine":
            want = spine_core_value(t1, v1, cx1, cy1, cx2, cy2, t2, v2, t) if 0 < k < 20 else (v1, v2)[k // 20]
        else:
            # exact: x handles clamped to [0, 1], then x(s) = f solved by bisection (independent, 200 steps)
            f = k / 20
            x1, x2 = min(1, max(0, nc[0])), min(1, max(0, nc[2]))
            lo, hi = 0.0, 1.0
            for _ in range(200):
                m = (lo + hi) / 2
                xm = 3 * (1 - m) ** 2 * m * x1 + 3 * (1 - m) * m * m * x2 + m ** 3
                lo, hi = (m, hi) if xm < f else (lo, m)
            s = (lo + hi) / 2
            y = 3 * (1 - s) ** 2 * s * nc[1] + 3 * (1 - s) * s * s * nc[3] + s ** 3
            want = v1 + (v2 - v1) * y
        assert pose_x(doc, t) == pytest.approx(want, abs=1e-6), (k, t)


def test_linear_bake_matches_spine_core():
    """curves="linear" bakes Spine's samples into keys: any OpenBone runtime then poses as spine-core."""
    d = spine.skeleton_json_to_dict(mini(animations={"a": {"bones": {"root": {"translatex": [
        {"value": 0, "curve": [0.3, -20, 0.6, 130]}, {"time": 1.2, "value": 100}]}}}}), curves="linear")
    doc = openbone.loads(json.dumps(d))
    for k in range(1, 24):
        t = 1.2 * k / 24
        want = spine_core_value(0, 0, 0.3, -20, 0.6, 130, 1.2, 100, t)
        assert pose_x(doc, t) == pytest.approx(want, abs=2e-4)  # key times are float32


@pytest.mark.parametrize("name", ["celestial-circus-pro", "cloud-pot", "sack-pro"])
def test_physics_rigs_stay_bounded(name):
    """Spine pose model physics (spine-core 4.2's, matched on celestial-circus by the goldens)
    on the rigs without goldens here: over 30 s of every animation the physics never
    diverges: how far it moves bones from their physics-free pose in the last 10 s is no
    more than in the first 10 s.  Bones of free-falling constraints (strength 0: cloud-pot's
    rain, which its `reset` keys bring back) are left out."""
    d = imported(name)
    free = json.loads(json.dumps(d))
    free["skeleton"]["physics"] = []
    for a in free["animations"]:
        a["timelines"] = [t for t in a["timelines"] if t["target"] != "physics"]
    doc, doc_free = openbone.loads(json.dumps(d)), openbone.loads(json.dumps(free))
    falling = {c["bone"] for c in d["skeleton"]["physics"] if c["strength"] == 0}
    keep = np.array([n not in falling for n in doc.bone_names])
    moved = 0.0
    for anim in doc.animations:
        a, b = openbone.Instance(doc), openbone.Instance(doc_free)
        a.set_animation(0, anim.name, True, 0)
        b.set_animation(0, anim.name, True, 0)
        Wa, Wb = a.bake(1 / 30, 900), b.bake(1 / 30, 900)
        assert np.isfinite(Wa).all(), anim.name
        dev = np.abs(Wa[:, keep, 4:6] - Wb[:, keep, 4:6]).max(axis=(1, 2))
        assert dev[600:].max() <= 1.1 * dev[:300].max() + 1, (anim.name, dev[:300].max(), dev[600:].max())
        moved = max(moved, dev.max())
    assert moved > 0.5  # the physics does something


@pytest.mark.parametrize("model", ["openbone", "spine"])
def test_weighted_deform_exact_at_keys(model):
    """openbone: the per-vertex offset is solved in the animation's pose at the key; spine:
    the offsets per influence (influenceOffsets), exact everywhere.  Bone a turns from 90 to
    120 degrees while the deform key at t = 1 moves the two influences apart."""
    bones = [{"name": "root"}, {"name": "a", "parent": "root", "rotation": 90},
             {"name": "b", "parent": "root", "x": 5, "scaleX": 2}]
    d = spine.skeleton_json_to_dict(pose_model=model, src=mini(
        bones=bones, slots=[{"name": "s", "bone": "root", "attachment": "m"}],
        skins=[{"name": "default", "attachments": {"s": {"m": {
            "type": "mesh", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2], "hull": 3,
            "vertices": [2, 1, 1, 0, 0.25, 2, 0, 1, 0.75, 1, 1, 0, 0, 1, 1, 2, 0, 0, 1]}}}}],
        animations={"a": {"bones": {"a": {"rotate": [{"value": 0}, {"time": 1, "value": 30}]}},
                          "attachments": {"default": {"s": {"m": {"deform": [
                              {"time": 1, "vertices": [4, 0, 0, 2]}]}}}}}}))
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 1.0)
    inst.update_world_transform()
    (item,) = [it for it in inst.draw_list() if it.type == "mesh"]
    r = math.radians(120)
    A = lambda x, y: (math.cos(r) * x - math.sin(r) * y, math.sin(r) * x + math.cos(r) * y)  # noqa: E731
    B = lambda x, y: (2 * x + 5, y)  # noqa: E731
    want = np.add(np.multiply(0.25, A(1 + 4, 0)), np.multiply(0.75, B(0, 1 + 2)))
    assert np.asarray(item.vertices, dtype=float).reshape(-1, 2)[0] == pytest.approx(want, abs=1e-4)


def test_weighted_deform_per_influence_between_keys():
    """poseModel "spine": the influenceOffsets extension keeps Spine's offset per influence
    and interpolates each (spine-core 4.2 DeformTimeline), so a vertex whose influences turn
    against each other is Spine's between keys too: at t = 0.5 bone a is at 105 degrees and
    the offsets are halfway, (2, 0) on a and (0, 1) on b."""
    bones = [{"name": "root"}, {"name": "a", "parent": "root", "rotation": 90},
             {"name": "b", "parent": "root", "x": 5, "scaleX": 2}]
    d = spine.skeleton_json_to_dict(mini(
        bones=bones, slots=[{"name": "s", "bone": "root", "attachment": "m"}],
        skins=[{"name": "default", "attachments": {"s": {"m": {
            "type": "mesh", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2], "hull": 3,
            "vertices": [2, 1, 1, 0, 0.25, 2, 0, 1, 0.75, 1, 1, 0, 0, 1, 1, 2, 0, 0, 1]}}}}],
        animations={"a": {"bones": {"a": {"rotate": [{"value": 0}, {"time": 1, "value": 30}]}},
                          "attachments": {"default": {"s": {"m": {"deform": [
                              {}, {"time": 1, "vertices": [4, 0, 0, 2]}]}}}}}}))
    tl = next(t for t in d["animations"][0]["timelines"] if t["target"] == "deform")
    assert tl["property"] == "influenceOffsets"
    assert [k["value"] for k in tl["keys"]] == [[0.0] * 8, [4.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0]]
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    inst.set_to_setup_pose()
    inst.apply_animation("a", 0.5)
    inst.update_world_transform()
    assert list(inst.deform("s", "m")) == [2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    (item,) = [it for it in inst.draw_list() if it.type == "mesh"]
    r = math.radians(105)
    A = lambda x, y: (math.cos(r) * x - math.sin(r) * y, math.sin(r) * x + math.cos(r) * y)  # noqa: E731
    B = lambda x, y: (2 * x + 5, y)  # noqa: E731
    want = np.add(np.multiply(0.25, A(1 + 2, 0)), np.multiply(0.75, B(0, 1 + 1)))
    assert np.asarray(item.vertices, dtype=float).reshape(-1, 2)[0] == pytest.approx(want, abs=1e-5)


@pytest.mark.parametrize("src_dict", [
    {"skeleton": {}, "bones": []},
    {"skeleton": {}, "bones": [{"name": "root"}], "animations": {"a": {"bones": {"nope": {"rotate": [{"value": 1}]}}}}},
    {"skeleton": {}, "bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root"}],
     "skins": [{"name": "default", "attachments": {"s": {"l": {"type": "linkedmesh", "parent": "missing"}}}}]},
    {"skeleton": {}, "bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "nobone"}]},
    {"skeleton": {}, "bones": [{"name": "root"}], "ik": [{"name": "k", "bones": ["x"], "target": "y"}],
     "animations": {"a": {"ik": {"k": [{"mix": 0.5}]}, "drawOrder": [{"offsets": [{"slot": "zz", "offset": 1}]}]}}},
    {"skeleton": {"spine": "4.3.0"}, "bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
     "constraints": [{"type": "transform", "name": "t", "bones": ["b"], "target": "root"},
                     {"type": "slider", "name": "s"}, {"type": "ik", "name": "k", "bones": ["b"], "target": "root"}]},
])
def test_broken_or_minimal_files_import(src_dict):
    """Missing references are dropped with a warning (importer) or left to the §2 lenient loader."""
    d = spine.skeleton_json_to_dict(src_dict)
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    for a in doc.animations:
        inst.set_animation(0, a.name, True, 0)
        inst.advance(0.1)
    assert np.isfinite(inst.world).all()


def test_v43_constraints_array_order():
    d = spine.skeleton_json_to_dict(
        {"skeleton": {"spine": "4.3.0"}, "bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
         "constraints": [{"type": "transform", "name": "t", "bones": ["b"], "target": "root"},
                         {"type": "ik", "name": "k", "bones": ["b"], "target": "root"}]})
    # 4.3: the array is the application order
    assert d["skeleton"]["transform"][0]["order"] == 0 and d["skeleton"]["ik"][0]["order"] == 1


def test_inherit_timeline():
    d = spine.skeleton_json_to_dict(mini(
        bones=[{"name": "root", "scaleX": 2}, {"name": "b", "parent": "root", "inherit": "onlyTranslation"}],
        animations={"a": {"bones": {"b": {"inherit": [{"time": 0.5, "inherit": "noScale"},
                                                      {"time": 1, "inherit": "noRotationOrReflection"}]}}}}))
    tl = timeline(d, "a", "bone", "b", "inherit")
    # before the first key Spine shows the setup mode: a stepped setup key at 0
    assert [(k["time"], k["value"]) for k in tl["keys"]] == [(0.0, "onlyTranslation"), (0.5, "noScale"),
                                                             (1.0, "noRotationOrReflection")]
    doc = openbone.loads(json.dumps(d))
    inst = openbone.Instance(doc)
    inst.set_animation(0, "a", False, 0)
    inst.advance(0.75)
    assert inst.inherit_modes[1] == "noScale"
