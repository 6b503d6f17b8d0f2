"""Issue 21 items 6 and 7: what loading guarantees (README "Security", NOTES §2).

* text: JSON is decoded as TextDecoder does: a leading BOM is dropped, invalid UTF-8 becomes
  U+FFFD with a warning (as the binary path does for its string table); every string the
  bindings return is valid Unicode.  U+0000 in a string (a \\u0000 escape or a raw NUL) is
  refused with OpenBoneError in both formats, never truncated.
* size: loading is linear in the document (ids and keys hashed): big documents are checked
  in a subprocess with a generous timeout, never with a timer."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import openbone
from openbone import _core

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rig(name="ZZZZ", extra=None):
    d = {"format": "openbone", "version": 1, "name": "meta" + name,
         "skeleton": {"bones": [{"id": "root", "name": name}],
                      "slots": [{"id": "s", "name": "s" + name, "bone": "root"}]}}
    d.update(extra or {})
    return json.dumps(d).encode()


def test_invalid_utf8_in_json_is_replaced_like_the_binary_path_and_warned():
    raw = rig().replace(b"ZZZZ", b"Z\xffZ\xe2\x82")  # a bad byte and a truncated sequence
    doc = openbone.loads(raw)
    assert doc.bones[0].name == "Z\ufffdZ\ufffd" and doc.name == "metaZ\ufffdZ\ufffd"
    assert doc.slots[0].name == "sZ\ufffdZ\ufffd"
    (w,) = [w for w in doc.warnings if "UTF-8" in w]
    assert "byte" in w and "U+FFFD" in w
    json.loads(doc.json)  # the kept JSON is valid text
    # the same bytes in the binary string table decode to the same text
    binary = _core.json_to_binary(rig().decode())
    assert binary.count(b"ZZZZ") == 3
    bdoc = openbone.loads(binary.replace(b"ZZZZ", b"Z\xffZ\xe2"))
    assert bdoc.bones[0].name == "Z\ufffdZ\ufffd"


def test_a_bom_is_dropped_as_text_decoder_does():
    doc = openbone.loads(b"\xef\xbb\xbf" + rig())
    assert doc.bones[0].name == "ZZZZ"


@pytest.mark.parametrize("raw", [rig().replace(b"ZZZZ", b"a\\u0000b"), rig().replace(b"ZZZZ", b"a\x00bc")])
def test_u0000_in_a_string_is_refused_not_truncated(raw):
    with pytest.raises(openbone.OpenBoneError, match="U\\+0000"):
        openbone.loads(raw)


def test_u0000_is_refused_in_the_binary_format_too():
    binary = _core.json_to_binary(rig().decode())
    with pytest.raises(openbone.OpenBoneError, match="NUL"):
        openbone.loads(binary.replace(b"ZZZZ", b"Z\x00ZZ"))


def test_an_escaped_backslash_before_u0000_is_just_text():
    doc = openbone.loads(rig().replace(b"ZZZZ", b"a\\\\u0000b"))  # JSON text a\\u0000b
    assert doc.bones[0].name == "a\\u0000b"


def test_a_lone_surrogate_in_python_text_is_an_open_bone_error():
    with pytest.raises(openbone.OpenBoneError, match="surrogate"):
        openbone.loads(rig().decode().replace("ZZZZ", "\ud800"))
    with pytest.raises(openbone.OpenBoneError, match="Unicode"):
        _core.json_to_binary(rig().decode().replace("ZZZZ", "\ud800"))


def test_cli_reads_invalid_utf8_without_a_traceback(tmp_path):
    path = tmp_path / "bad.obone"
    path.write_bytes(rig().replace(b"ZZZZ", b"Z\xffZZ"))
    for cmd in (["info", str(path)], ["validate", str(path)], ["info", str(path), "--json"]):
        r = subprocess.run([sys.executable, "-m", "openbone", *cmd], capture_output=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert b"Traceback" not in r.stderr
        r.stdout.decode("utf-8")


def run_isolated(code, timeout):
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip().splitlines()[-1]


def test_80000_keys_and_duplicates_load_in_linear_time():
    out = run_isolated("""
        import openbone
        keys = ",".join('"k%d": %d' % (k, k) for k in range(80000))
        dup = ",".join('"a": %d' % k for k in range(80000))
        text = '{"format": "openbone", "version": 1, "x": {' + keys + '}, "y": {' + dup + '}, "skeleton": {"bones": []}}'
        d = openbone.loads(text)
        print(len(text), d.json.count('"k'), d.json.count('"a":79999'))
    """, timeout=180)
    size, nkeys, last = map(int, out.split())
    assert size > 1_000_000 and nkeys == 80000 and last == 1  # JSON.parse: the last value wins


def test_a_100000_bone_chain_with_timelines_and_attachments_loads_and_poses():
    out = run_isolated("""
        import json, openbone
        n = 100000
        bones = ['{"id": "root", "name": "root"}'] + ['{"id": "b%d", "parent": "%s", "x": 1}' % (k, "b%d" % (k - 1) if k else "root") for k in range(1, n)]
        slots = ['{"id": "s%d", "bone": "b%d", "attachment": "a%d"}' % (k, k, k) for k in range(1, n, 4)]
        atts = ",".join('"s%d": {"a%d": {"type": "point"}}' % (k, k) for k in range(1, n, 4))
        tls = ",".join('{"target": "bone", "id": "b%d", "property": "rotation", "keys": [{"time": 0, "value": 0}, {"time": 1, "value": 1}]}' % k for k in range(1, n, 2))
        parent_late = '{"id": "late", "parent": "zz"}, {"id": "zz"}'
        text = ('{"format": "openbone", "version": 1, "skeleton": {"bones": [' + ",".join(bones) + "," + parent_late + '], "slots": [' + ",".join(slots) +
                '], "skins": [{"id": "default", "attachments": {' + atts + '}}]}, "animations": [{"id": "a", "duration": 1, "timelines": [' + tls + ']}]}')
        d = openbone.loads(text)
        i = openbone.Instance(d, skin="default")
        i.set_animation(0, "a", True)
        i.advance(0.5)
        late = [w for w in d.warnings if "late" in w or "zz" in w]
        print(len(d.bones), d.bones[-3].parent, int(i.world[n - 1][4]), d.animations[0].timelines, len(late), "listed after" in late[0])
    """, timeout=300)
    nb, parent, x, ntl, nlate, after = out.split()
    assert int(nb) == 100002 and parent == "b99998" and int(ntl) == 50000
    assert int(nlate) == 1 and after == "True"
    assert x != "0"


def test_a_million_bone_chain_finishes():
    out = run_isolated("""
        from openbone import _core
        n = 1000000
        bones = ",".join('{"id": "b%d", "parent": "b%d"}' % (k, k - 1) for k in range(n))
        doc = _core.load_bytes(('{"format": "openbone", "version": 1, "skeleton": {"bones": [' + bones + ']}}').encode())
        inst = _core.Instance(doc)
        inst.advance(0.1)
        print(len(doc.bones()), inst.world.shape[0])
    """, timeout=600)
    assert out.split() == ["1000000", "1000000"]
