"""`openbone info|validate|render|bake|convert` on Spine skeletons (issue 16 item 8):
imported on the fly and said once on stderr; convert prints the import's warnings and takes
--curves / --pose-model; render --fit frames the draw list's bounds."""
import json
import math
import os

import numpy as np
import pytest

import openbone
from conftest import reference
from openbone.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def said_once(err, path):
    lines = [ln for ln in err.splitlines() if "imported from a Spine" in ln and f" {path}: " in ln]
    return len(lines) == 1


def test_info_and_validate_import_spine(capsys):
    skel = reference("spine", "assets", "vine-pro.skel")
    js = reference("spine", "skeletons", "vine-pro.json")
    code, out, err = run(capsys, "info", skel)
    assert code == 0 and "bones: 18" in out and "animations: grow" in out
    assert said_once(err, skel) and "Spine binary (atlas vine.atlas)" in err
    code, out, err = run(capsys, "validate", skel, js)
    assert code == 0 and f"{skel}: ok" in out
    assert said_once(err, skel) and said_once(err, js) and "Spine skeleton JSON" in err
    code, out, err = run(capsys, "info", "--json", js)
    assert code == 0 and json.loads(out)["poseModel"] == "spine"


def test_convert_spine_options_and_warnings(capsys, tmp_path):
    skel = reference("spine", "assets", "spineboy-pro.skel")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    dst = out_dir / "spineboy.obone"
    code, out, err = run(capsys, "convert", skel, dst, "--curves", "exact", "--pose-model", "openbone")
    assert code == 0 and said_once(err, skel)
    assert "openbone: warning: 4 bezier spans have time handles outside their span" in err
    d = json.loads(dst.read_text())
    assert d["curveMode"] == "exact" and "poseModel" not in d
    (page,) = d["atlas"]["pages"]
    assert os.path.isfile(out_dir / page["src"])  # relative to where the document went
    doc = openbone.load(dst)
    assert len(doc.bones) == 67
    code, out, err = run(capsys, "convert", skel, tmp_path / "b.obonb", "--no-atlas")
    assert code == 0 and "atlas" not in json.loads(openbone.load(tmp_path / "b.obonb").json)
    # the options are for Spine input
    code, out, err = run(capsys, "convert", dst, tmp_path / "x.obone", "--curves", "exact")
    assert code == 2 and "apply to Spine input only" in err


def test_convert_malformed_spine_is_one_error_line(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"skeleton": {}, "bones": [{"name": "root"}],
                               "animations": {"run": {"bones": {"root": {"rotate": [{"time": "zero"}]}}}}}))
    code, out, err = run(capsys, "convert", bad, tmp_path / "o.obone")
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1
    assert lines[0] == f'openbone: error: {bad}: animations.run.bones.root.rotate[0].time: expected a number, got "zero"'
    cut = tmp_path / "cut.skel"
    cut.write_bytes(reference("spine", "assets", "vine-pro.skel").read_bytes()[:500])
    code, out, err = run(capsys, "info", cut)
    assert code == 2 and ".skel byte " in err and "Traceback" not in err


def _draw_bounds(doc, skin=None):
    inst = openbone.Instance(doc, skin=skin)
    inst.advance(0)
    pts = np.concatenate([np.asarray(it.vertices).reshape(-1, 2) for it in inst.draw_list()])
    return pts.min(axis=0), pts.max(axis=0)


def test_render_fit_frames_the_draw_list(capsys, tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image
    skel = reference("spine", "assets", "spineboy-pro.skel")
    png = tmp_path / "sb.png"
    code, out, err = run(capsys, "render", skel, "--fit", "-o", png, "--no-bones")
    assert code == 0 and said_once(err, skel)
    lo, hi = _draw_bounds(openbone.import_skeleton(skel))
    # View.fit: the points' box plus a 20 px margin each side, at scale 1
    w, h = math.ceil(hi[0] - lo[0] + 40), math.ceil(hi[1] - lo[1] + 40)
    assert Image.open(png).size == (w, h)
    doc = openbone.import_skeleton(skel)
    inst = openbone.Instance(doc)
    inst.advance(0)
    world = np.asarray(inst.world)
    assert world[:, 4].max() > hi[0] + 20  # a bone (the crosshair) lies outside what is drawn: not framed


def test_bake_spine(capsys, tmp_path):
    skel = reference("spine", "assets", "vine-pro.skel")
    out = tmp_path / "v.npz"
    code, _, err = run(capsys, "bake", skel, "-o", out, "--frames", "5")
    assert code == 0 and said_once(err, skel)
    arrays = np.load(out)
    assert arrays["world"].shape == (5, 18, 6) and np.isfinite(arrays["world"]).all()
