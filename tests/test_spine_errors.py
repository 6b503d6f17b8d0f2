"""Malformed Spine input (issue 21 item 8): every problem is an ``OpenBoneError`` naming the
place in the Spine file; references to things that do not exist are warnings.  The same
for ``.skel`` and ``.atlas`` input, and a seeded fuzzer over the example rigs' JSON, .skel
and .atlas asserts that nothing else escapes (bounded: a few seconds).

The expected messages are written from the inputs: the place is where the bad value is.
"""
import copy
import json
import random

import pytest

import openbone
from conftest import reference
from openbone import spine
from openbone.spine.atlas import read_atlas


def base(**kw):
    d = {"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}]}
    d.update(kw)
    return d


def mesh(vertices, uvs=(0, 0, 1, 0, 1, 1)):
    return base(slots=[{"name": "s", "bone": "root"}], skins=[{"name": "default", "attachments": {"s": {"m": {
        "type": "mesh", "uvs": list(uvs), "triangles": [0, 1, 2], "vertices": vertices}}}}])


CASES = [
    ({"skeleton": {}, "bones": [1, 2]}, r"^bones\[0\]: expected an object, got 1$"),
    ({"skeleton": {}, "bones": [{"x": 1}]}, r'^bones\[0\]: missing "name" \(required\)$'),
    (base(ik=[{"bones": ["root"], "target": "root"}]), r'^ik\[0\]: missing "name"'),
    (base(transform=[{"name": 3, "bones": ["root"], "target": "root"}]), r"^transform\[0\]\.name: expected a string, got 3"),
    ({"skeleton": 5, "bones": []}, r"^skeleton: expected an object, got 5$"),
    (base(slots=[{"name": "s"}]), r'^slots\[0\]: slot "s" has no "bone"'),
    (mesh([1, 0, 1, 2, 1, 1, 0]), r"^skins\[0\]\.attachments\.s\.m\.vertices\[5\]: vertex 1 has 1 influences .* only 1 values"),
    (mesh([1e9, 0, 1, 2, 1] * 3), r"^skins\[0\]\.attachments\.s\.m\.vertices\[0\]: vertex 0 has 1000000000 influences"),
    (mesh([1, 7, 1, 2, 1] * 3), r"^skins\[0\]\.attachments\.s\.m\.vertices\[1\]: 7 is out of range \(0 to 0\)"),
    (base(animations={"run": {"bones": {"root": {"rotate": [{"value": 1, "curve": ["a", "b", "c", "d"]}, {}]}}}}),
     r'^animations\.run\.bones\.root\.rotate\[0\]\.curve\[0\]: expected a number, got "a"$'),
    (base(animations={"run": {"bones": {"root": {"rotate": [{"time": "zero"}]}}}}),
     r'^animations\.run\.bones\.root\.rotate\[0\]\.time: expected a number, got "zero"$'),
    (base(animations={"run": {"bones": {"root": {"translate": [{"curve": [0, 0, 1, 1]}, {"time": 1}]}}}}),
     r"^animations\.run\.bones\.root\.translate\[0\]\.curve: 4 numbers; a bezier of 2 values needs 8$"),
    (base(animations=[1]), r"^animations: expected an object, got an array$"),
    (base(slots=[{"name": "s", "bone": "root"}], animations={"a": {"drawOrder": [{"offsets": [{"slot": "s", "offset": 1000}]}]}}),
     r"^animations\.a\.drawOrder\[0\]\.offsets\[0\]\.offset: 1000 moves slot \"s\" \(index 0\) outside the 1 slots$"),
    (base(slots=[{"name": "a", "bone": "root"}, {"name": "b", "bone": "root"}],
          animations={"x": {"drawOrder": [{"offsets": [{"slot": "b", "offset": -1}, {"slot": "a", "offset": 1}]}]}}),
     r"offsets\[1\]: slot \"a\" is listed after a slot that comes later"),
    (base(bones=[{"name": "root", "x": 1e39}]), r"^bones\[0\]\.x: 1e\+39 is beyond float32 range"),
    (base(bones=[{"name": "root"}, {"name": "root"}]), r'^bones\[1\]\.name: duplicate bone name "root"'),
    (base(skins=[{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": [0, 0], "triangles": [0, 1, 2],
                                                                 "vertices": [0, 0]}}}}]),
     r"^skins\[0\]\.attachments\.s\.m\.triangles\[1\]: 1 is out of range \(0 to 0\)$"),
    (base(slots=[{"name": "s", "bone": "root"}], skins=[{"name": "default", "attachments": {"s": {"f": {
        "sequence": {"count": 10 ** 9}}}}}]), r"sequence\.count: 1000000000 is out of range \(0 to 10000\)"),
    (base(animations={"a": {"attachments": {"default": {"s": {"m": {"deform": [{"offset": 1.5}]}}}}}}),
     r"deform\[0\]\.offset: expected an integer, got 1\.5"),
    (base(slots=[{"name": "s", "bone": "root", "color": "red"}]), r"^slots\[0\]\.color: expected a hex colour"),
    (base(events={"e": {"int": 0.5}}), r"^events\.e\.int: expected an integer, got 0\.5"),
    (base(physics=[{"name": "p", "bone": "root", "fps": 0}]), r"^physics\[0\]\.fps: expected a positive number"),
]


@pytest.mark.parametrize("src, message", CASES)
def test_malformed_json_names_the_place(src, message):
    with pytest.raises(openbone.OpenBoneError, match=message):
        spine.skeleton_json_to_dict(src)


@pytest.mark.parametrize("raw, message", [
    (b"hello, not JSON", r"^not a Spine skeleton: not JSON text, and not a binary export"),
    (b'{"skeleton": {}, "bones": [', r"^skeleton JSON: not JSON: Expecting value \(line 1, column 28\)$"),
    (b"[" * 100000 + b"]" * 100000, r"nested too deeply"),
    (b'{"skeleton": {}, "bones": [{"name": "root", "x": NaN}]}', r"^bones\[0\]\.x: expected a number, got NaN$"),
    (b'{"skeleton": {}, "bones": [{"name": "root", "y": -Infinity}]}', r"^bones\[0\]\.y: expected a number, got -Infinity$"),
    (b'{"skeleton": {}, "bones": [{"name": "root", "x": 1e999}]}', r"^bones\[0\]\.x: expected a number, got 1e999$"),
    (b'{"skeleton": {}, "bones": [{"name": "r\xff"}]}', r"not UTF-8 text \(line 1, byte 38\)"),
    (b'{"format": "openbone", "version": 1, "bones": []}', r"an OpenBone document, not a Spine skeleton"),
])
def test_malformed_files_name_the_place(raw, message):
    with pytest.raises(openbone.OpenBoneError, match=message):
        spine.skeleton_json_to_dict(raw)


def test_dangling_references_are_warnings():
    src = base(slots=[{"name": "s", "bone": "root"}], events={"e": {}}, animations={"a": {
        "bones": {"nope": {"rotate": [{"value": 1}]}, "root": {"rotate": [{"time": 0.5, "value": 10}]}},
        "slots": {"ghost": {"rgba": [{"color": "ff0000ff"}]}},
        "ik": {"no-ik": [{"mix": 0.5}]},
        "events": [{"name": "e"}, {"time": 0.5, "name": "nope"}],
        "drawOrder": [{"offsets": [{"slot": "zz", "offset": 1}]}]}})
    w = []
    d = spine.skeleton_json_to_dict(src, warnings=w)
    assert 'animations.a.bones.nope: no bone "nope"; its timelines are dropped' in w
    assert 'animations.a.slots.ghost: no slot "ghost"; its timelines are dropped' in w
    assert 'animations.a.ik.no-ik: no ik constraint "no-ik"; its keys are dropped' in w
    assert 'animations.a.events[1]: no event "nope"; the key is dropped' in w
    assert 'animations.a.drawOrder[0].offsets[0]: no slot "zz"; the offset is dropped' in w
    (a,) = d["animations"]
    assert {(t["target"], t["id"]) for t in a["timelines"]} == {("bone", "root"), ("drawOrder", "skeleton")}
    assert [e["event"] for e in a["events"]] == ["e"]
    assert len([x for x in w if "nope" in x]) == 2  # said once each (the importer does not repeat them)
    openbone.loads(json.dumps(d))


def test_input_dict_is_not_modified():
    src = base(animations={"a": {"bones": {"nope": {"rotate": [{"value": 1}]}}}})
    before = copy.deepcopy(src)
    spine.skeleton_json_to_dict(src)
    assert src == before


def test_extreme_values_give_a_clear_error():
    """Each value is a float32, but a weighted vertex 9e38 from its slot bone is not."""
    bones = [{"name": "root", "x": 3e38}, {"name": "b0", "parent": "root", "x": 3e38},
             {"name": "b1", "parent": "b0", "x": 3e38}]
    src = {"skeleton": {}, "bones": bones, "slots": [{"name": "s", "bone": "root"}],
           "skins": [{"name": "default", "attachments": {"s": {"m": {
               "type": "mesh", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2], "vertices": [1, 2, 3e38, 0, 1] * 3}}}}]}
    with pytest.raises(openbone.OpenBoneError, match=r"non-finite number at skeleton\.skins\[0\]\.attachments\.s\.m"
                                                     r"\.vertices\[0\] of the OpenBone document"):
        spine.skeleton_json_to_dict(src)


# ---- atlas -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("p.png\nsize: 64, x\n", r"^atlas line 2: size: expected an integer, got 'x'$"),
    ("p.png\nsize: 0, 64\n", r"^atlas line 2: size: a page must be at least 1 x 1"),
    ("p.png\nsize: 64, 64\nr\nbounds: 1, 2, 3\n", r"^atlas line 4: bounds: expected 4 integers"),
    ("p.png\nsize: 64, 64\nr\nbounds: 1, 2, -3, 4\n", r"^atlas line 3: region 'r': negative size"),
    ("p.png\nsize: 64, 64\nr\nbounds: 1, 2, 0, 0\n", r"^atlas line 3: region 'r': original size 0 x 0"),
    ("p.png\nsize: 64, 64\nr\nbounds: 1, 2, 3, 4\nrotate: sideways\n", r"^atlas line 5: rotate: expected an integer"),
    ("p.png\nscale: -1\n", r"^atlas line 2: scale: expected a positive number"),
    ("p.png\nsize: 99999999999, 4\n", r"^atlas line 2: size: expected an integer"),
    ("\0\0\0", r"a NUL byte"),
])
def test_malformed_atlas_names_the_line(text, message):
    with pytest.raises(openbone.OpenBoneError, match=message):
        read_atlas(text + "\n" if "\n" not in text else text)


def test_atlas_odd_angles_and_missing_regions_are_warnings(tmp_path):
    (tmp_path / "p.atlas").write_text("p.png\nsize: 64, 64\nr\nbounds: 1, 2, 3, 4\nrotate: 45\n")
    src = base(slots=[{"name": "s", "bone": "root", "attachment": "r"}],
               skins=[{"name": "default", "attachments": {"s": {"r": {"width": 3, "height": 4},
                                                                "q": {"width": 3, "height": 4}}}}])
    w = []
    d = spine.skeleton_json_to_dict(src, atlas=str(tmp_path / "p.atlas"), warnings=w)
    assert any("rotate 45 is not 90, 180 or 270; drawn unrotated" in x for x in w)
    assert any("no region for 1 image(s) ('q')" in x for x in w)
    assert [r["image"] for r in d["atlas"]["regions"]] == ["r"] and "rotation" not in d["atlas"]["regions"][0]


def test_missing_atlas_file_is_an_error():
    with pytest.raises(openbone.OpenBoneError, match="No such file"):
        spine.skeleton_json_to_dict(base(), atlas="/nonexistent/x.atlas")


# ---- fuzz: only OpenBoneError escapes ------------------------------------------------------------

WEIRD = [None, True, False, 0, -1, 1, 2, 7, 1e9, -1e9, 1e38, 1e300, 0.5, "", "x", "zero", "root", "stepped",
         "ff0000ff", [], {}, [1, 2, 3], {"a": 1}, [[[]]], 2 ** 31, 2 ** 63]


def _nodes(v, path=()):
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _nodes(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _nodes(x, path + (i,))


def mutate_json(d, rng):
    """1 to 3 random edits anywhere in the skeleton: a value replaced by a weird one, a key
    or item deleted or duplicated, a number shifted, a name swapped for another."""
    d = copy.deepcopy(d)
    for _ in range(rng.choice((1, 1, 2, 3))):
        nodes = list(_nodes(d))
        path, v = rng.choice(nodes[1:])
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        k = path[-1]
        r = rng.random()
        if r < 0.45:
            parent[k] = rng.choice(WEIRD)
        elif r < 0.6 and isinstance(parent, dict):
            del parent[k]
        elif r < 0.7 and isinstance(parent, list):
            parent.insert(k, copy.deepcopy(v))
        elif r < 0.85 and isinstance(v, (int, float)) and not isinstance(v, bool):
            parent[k] = rng.choice([v + 1, v - 1, -v, v * 1000, int(v) + 7])
        elif isinstance(v, str):
            parent[k] = rng.choice([x for _, x in nodes if isinstance(x, str)])
        elif isinstance(parent, list):
            del parent[k]
        else:
            parent[k] = rng.choice(WEIRD)
    return d


def mutate_bytes(b, rng):
    b = bytearray(b)
    for _ in range(rng.choice((1, 1, 2, 4, 8))):
        i = rng.randrange(len(b))
        r = rng.random()
        if r < 0.5:
            b[i] = rng.randrange(256)
        elif r < 0.7:
            b[i] ^= 1 << rng.randrange(8)
        elif r < 0.8:
            del b[i:i + rng.randrange(1, 16)]
        elif r < 0.9:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        else:
            del b[i:]
        if not b:
            break
    return bytes(b)


def _import_only_openbone_errors(arg, **kw):
    try:
        d = spine.skeleton_json_to_dict(arg, **kw)
        openbone.loads(json.dumps(d))
        return "ok"
    except openbone.OpenBoneError:
        return "error"


SMALL = ["vine-pro", "cloud-pot", "goblins-pro", "stretchyman-pro"]


def test_fuzz_json_only_openbone_errors():
    rng = random.Random(21)
    srcs = {n: json.loads((reference("spine", "skeletons") / f"{n}.json").read_text()) for n in SMALL}
    seen = {"ok": 0, "error": 0}
    for _ in range(50):
        seen[_import_only_openbone_errors(mutate_json(srcs[rng.choice(SMALL)], rng))] += 1
    assert seen["error"] > 10 and seen["ok"] > 5, seen  # the mutations reach both outcomes


def test_fuzz_skel_only_openbone_errors():
    rng = random.Random(16)
    blobs = {n: (reference("spine", "assets") / f"{n}.skel").read_bytes() for n in SMALL}
    seen = {"ok": 0, "error": 0}
    for _ in range(100):
        seen[_import_only_openbone_errors(mutate_bytes(blobs[rng.choice(SMALL)], rng))] += 1
    assert seen["error"] > 20 and seen["ok"] > 5, seen


def test_fuzz_atlas_only_openbone_errors(tmp_path):
    rng = random.Random(6)
    assets = reference("spine", "assets")
    src = spine.skeleton_json_to_dict(reference("spine", "skeletons") / "goblins-pro.json", atlas=False)
    images = [im["id"] for im in src["images"]]
    texts = {n: (assets / f"{n.split('-pro')[0]}.atlas").read_bytes() for n in SMALL}
    from openbone.spine.atlas import atlas_section
    for i in range(200):
        raw = mutate_bytes(texts[rng.choice(SMALL)], rng)
        try:
            at = read_atlas(raw)
            at.path = str(assets / "x.atlas")
            atlas_section(at, images, [])
        except openbone.OpenBoneError:
            pass
