"""§2 loading: header checks, type errors naming their place, lenient rules."""
import json

import pytest

import openbone
from conftest import make_doc


def err(text):
    with pytest.raises(openbone.OpenBoneError) as e:
        openbone.loads(text)
    return str(e.value)


def test_error_is_a_value_error():
    assert issubclass(openbone.OpenBoneError, ValueError)


def test_not_json():
    assert "JSON syntax error at byte" in err("{not json")
    assert "JSON syntax error" in err("")
    assert "unexpected text after the JSON value" in err('{"format":"openbone"} x')


def test_wrong_format_and_version():
    assert err('{"format":"spine","version":1}') == 'format: expected "openbone", got "spine"'
    assert err('{"version":1}') == 'format: expected "openbone", got nothing'
    assert "unsupported version 2" in err('{"format":"openbone","version":2}')
    assert "version" in err('{"format":"openbone","version":"1"}')
    assert err("[1,2]") == "document: expected a JSON object"
    # version 1 and an absent version are accepted (§2 rejects only version > 1)
    openbone.loads('{"format":"openbone","version":1}')
    openbone.loads('{"format":"openbone"}')


@pytest.mark.parametrize("patch, message", [
    ({"bones": [{"id": "b0", "name": "root"}, {"id": "b1", "rotation": "ninety"}]},
     'skeleton.bones[1].rotation: expected a number, got "ninety"'),
    ({"bones": [{"id": "b0", "inherit": "sideways"}]},
     'skeleton.bones[0].inherit: expected "normal", "onlyTranslation", "noRotation" or "noScale", got "sideways"'),
    ({"bones": "nope"}, 'skeleton.bones: expected an array, got "nope"'),
    ({"bones": [7]}, "skeleton.bones[0]: expected an object, got 7"),
    ({"bones": [{"id": "b0"}], "slots": [{"id": "s0", "bone": "b0", "color": "#12345g"}]},
     'skeleton.slots[0].color: expected a hex colour like "#rrggbb" or "#rrggbbaa", got "#12345g"'),
    ({"bones": [{"id": "b0"}], "slots": [{"id": "s0", "bone": "b0", "blend": "overlay"}]},
     'skeleton.slots[0].blend: expected "normal", "additive", "multiply" or "screen", got "overlay"'),
    ({"ik": [{"id": "k", "bones": ["b0"], "target": "b0", "mix": True}], "bones": [{"id": "b0"}]},
     "skeleton.ik[0].mix: expected a number, got true"),
    ({"bones": [{"id": "b0"}], "slots": [{"id": "s0", "bone": "b0"}],
      "skins": [{"id": "d", "name": "default", "attachments": {"s0": {"m": {
          "type": "mesh", "vertices": [0, 0, 1, 0, 0, 1], "uvs": [0, 0, 1, 0, 0, 1], "triangles": [0, 1, 3]}}}}]},
     "skeleton.skins[0].attachments.s0.m.triangles[2]: vertex index 3 out of range (the mesh has 3 vertices)"),
])
def test_type_errors_name_the_place(patch, message):
    assert err(json.dumps(make_doc(patch))) == message


def test_duplicate_keys_keep_the_last_value_like_json_parse():
    text = ('{"format":"openbone","version":1,"name":"first","skeleton":{"bones":'
            '[{"id":"b","x":1,"x":5}]},"name":"second"}')
    doc = openbone.loads(text)
    assert doc.name == "second"
    assert doc.bones[0].x == 5
    # the kept JSON holds each key once, at its first position (JS key order)
    assert doc.json.startswith('{"format":"openbone","version":1,"name":"second","skeleton"')
    assert doc.json.count('"x"') == 1


def test_lenient_rules_are_warnings():
    d = make_doc({
        "bones": [{"id": "child", "name": "child", "parent": "root"}, {"id": "root", "name": "root"}],
        "slots": [{"id": "s_ok", "name": "ok", "bone": "root"}, {"id": "s_lost", "name": "lost", "bone": "nobody"}],
    })
    doc = openbone.loads(json.dumps(d))
    # §2: a parent listed after its child makes the child a root
    assert doc.bones[0].parent is None
    # §2: a slot whose bone is missing is dropped
    assert [s.name for s in doc.slots] == ["ok"]
    assert any("child" in w or "parent" in w for w in doc.warnings)
    assert any('slot "lost" dropped' in w for w in doc.warnings)


def test_defaults_for_missing_fields():
    d = make_doc({"bones": [{"id": "b"}], "slots": [{"id": "s", "bone": "b"}]})
    doc = openbone.loads(json.dumps(d))
    b = doc.bones[0]
    assert (b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length, b.inherit) == \
        (0, 0, 0, 1, 1, 0, 0, 0, "normal")
    s = doc.slots[0]
    assert s.color == (1, 1, 1, 1) and s.dark is None and s.blend == "normal" and s.attachment is None
    assert doc.bones[0].name == "b"  # a missing name falls back to the id


def test_hex_colours_of_every_length():
    # §4.5: 3/4 digits doubled; alpha 1 unless 8 digits
    d = make_doc({"bones": [{"id": "b"}], "slots": [
        {"id": "a", "bone": "b", "color": "#f80"}, {"id": "c", "bone": "b", "color": "f80c"},
        {"id": "e", "bone": "b", "color": "#ff8800"}, {"id": "f", "bone": "b", "color": "#ff880033", "dark": "#000000"}]})
    doc = openbone.loads(json.dumps(d))
    assert doc.slots[0].color == (1, 0x88 / 255, 0, 1)
    assert doc.slots[1].color == (1, 0x88 / 255, 0, 0xcc / 255)
    assert doc.slots[2].color == (1, 0x88 / 255, 0, 1)
    assert doc.slots[3].color == (1, 0x88 / 255, 0, 0x33 / 255)
    assert doc.slots[3].dark == (0, 0, 0, 1)


def test_document_model_keeps_everything():
    d = make_doc({
        "bones": [{"id": "b0", "name": "root"}, {"id": "b1", "name": "arm", "parent": "b0", "length": 10}],
        "slots": [{"id": "s0", "name": "body", "bone": "b0", "attachment": "body"}],
        "skins": [{"id": "sk0", "name": "default", "attachments": {"s0": {
            "body": {"type": "region", "width": 10, "height": 20},
            "hit": {"type": "boundingBox", "vertices": [0, 0, 1, 0, 1, 1]}}}},
            {"id": "sk1", "name": "hero", "attachments": {}, "bones": ["b1"], "constraints": ["ik0"]}],
        "ik": [{"id": "ik0", "name": "reach", "bones": ["b1"], "target": "b0", "mix": 1}],
        "transform": [{"id": "t0", "name": "follow", "bones": ["b1"], "target": "b0", "order": 0}],
        "physics": [{"id": "p0", "name": "wobble", "bone": "b1"}],
    }, events=[{"id": "e0", "name": "step", "int": 1, "float": 0.5, "string": "s"}],
        animations=[{"id": "a0", "name": "walk", "duration": 1, "timelines": []}],
        stateMachines=[{"id": "m0", "name": "main", "inputs": [{"id": "i0", "name": "speed", "type": "number", "default": 0}],
                        "layers": [{"entry": "st0", "states": [{"id": "st0", "name": "idle", "type": "animation", "animation": "a0"}],
                                    "transitions": []}], "listeners": []}])
    doc = openbone.loads(json.dumps(d))
    assert doc.bone_names == ["root", "arm"]
    assert doc.bones[1].parent == "root"
    assert [s.name for s in doc.skins] == ["default", "hero"]
    assert doc.skins[0].attachments == [("body", "body", "region"), ("body", "hit", "boundingBox")]
    assert doc.skins[1].bones == ["arm"] and doc.skins[1].constraints == ["ik0"]
    assert [(c.name, c.kind, c.order) for c in doc.constraints] == \
        [("reach", "ik", None), ("follow", "transform", 0), ("wobble", "physics", None)]
    assert doc.events[0].name == "step" and doc.events[0].float == 0.5
    assert doc.animations[0].name == "walk" and doc.animations[0].length == 1
    assert doc.state_machines[0].name == "main"
    assert doc.state_machines[0].inputs == [("speed", "number")]
    assert doc.state_machines[0].layers == [["idle"]]
    assert (doc.name, doc.width, doc.height, doc.fps) == ("t", 100, 100, 30)


def test_save_and_load_both_formats(tmp_path):
    from conftest import ROOT
    doc = openbone.load(ROOT / "examples" / "hero.obone")
    doc.save(tmp_path / "hero.obonb")
    doc.save(tmp_path / "hero.obone", indent=2)
    data = (tmp_path / "hero.obonb").read_bytes()
    assert data[:4] == b"OBNB" and data[4] == 1
    back_bin = openbone.load(tmp_path / "hero.obonb")
    back_json = openbone.load(tmp_path / "hero.obone")
    assert back_bin.json == doc.json == back_json.json
    # the format is read from the content, not the name
    (tmp_path / "actually-binary.obone").write_bytes(data)
    assert openbone.load(tmp_path / "actually-binary.obone").json == doc.json
    # the binary form is smaller than compact JSON
    assert len(data) < len(doc.json.encode())


def test_truncated_binary_names_the_offset():
    from conftest import ROOT
    data = openbone.dumps(openbone.load(ROOT / "examples" / "hero.obone"), binary=True)
    for cut in (5, 6, len(data) // 2, len(data) - 1):
        with pytest.raises(openbone.OpenBoneError, match=r"binary: offset \d+"):
            openbone.loads(data[:cut])


def test_clipping_uses_its_local_vertices_even_with_weights():
    # §8.3: clipping vertices go through the slot bone; `weights` are ignored
    # (with a warning), so the mask is the 3 local points, not 1 weighted vertex.
    d = make_doc({"bones": [{"id": "b", "x": 5}],
                  "slots": [{"id": "c", "bone": "b", "attachment": "clip"}, {"id": "s", "bone": "b", "attachment": "r"}],
                  "skins": [{"id": "d", "name": "default", "attachments": {
                      "c": {"clip": {"type": "clipping", "vertices": [0, 0, 10, 0, 10, 10],
                                     "weights": [[{"bone": "b", "x": 0, "y": 0, "weight": 1}]], "end": None}},
                      "s": {"r": {"type": "region", "width": 4, "height": 4}}}}]})
    doc = openbone.loads(json.dumps(d))
    assert any("clipping weights are not used" in w for w in doc.warnings)
    inst = openbone.Instance(doc)
    inst.advance(0.1)
    items = inst.draw_list()
    assert [(it.type, it.clip) for it in items] == [("region", 0)]
