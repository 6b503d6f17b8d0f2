"""Asset pipelines (issue 19): output naming and collisions, several animations and skins,
manifests, unknown formats, per-task failures, Zarr bakes, sprite sheets, MP4/GIF/WebP/SVG,
and a real distributed.LocalCluster of 2 workers compared bit for bit with local runs."""
import hashlib
import json
import os
import shutil

import numpy as np
import pytest

import openbone
from openbone import pipeline
from openbone.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERO = os.path.join(ROOT, "examples", "hero.obone")
FIX = os.path.join(ROOT, "conformance", "fixtures")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _two_heroes(tmp_path):
    for d in ("c1", "c2"):
        (tmp_path / d).mkdir()
        shutil.copy(HERO, tmp_path / d / "hero.obone")
    return str(tmp_path / "c1" / "hero.obone"), str(tmp_path / "c2" / "hero.obone")


# ---- naming, collisions, overwrite ------------------------------------------------

def test_colliding_outputs_are_found_before_anything_is_written(capsys, tmp_path):
    a, b = _two_heroes(tmp_path)
    out = tmp_path / "out"
    code, _, err = run(capsys, "bake", a, b, "--no-draw", "-o", f"{out}/")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert a in err and b in err and "hero.npz" in err and "{relpath}" in err
    assert not out.exists() or not any(out.iterdir())
    code, _, err = run(capsys, "bake", a, b, "--no-draw", "-o", f"{out}/{{relpath}}.npz")
    assert code == 0, err
    assert (out / "c1" / "hero.npz").exists() and (out / "c2" / "hero.npz").exists()


def test_existing_outputs_need_overwrite(capsys, tmp_path):
    out = tmp_path / "walk.npz"
    out.write_bytes(b"precious")
    code, _, err = run(capsys, "bake", HERO, "-a", "walk", "-o", out)
    assert code == 2 and "--overwrite" in err and out.read_bytes() == b"precious"
    code, _, err = run(capsys, "bake", HERO, "-a", "walk", "-o", out, "--overwrite")
    assert code == 0 and np.load(out)["world"].shape == (30, 16, 6)


def test_several_animations_and_skins_and_the_manifest(capsys, tmp_path):
    doc = openbone.load(HERO)
    names = [a.name for a in doc.animations]
    code, out, err = run(capsys, "bake", HERO, "-a", "walk", "-a", "idle", "--no-draw", "--json",
                         "-o", f"{tmp_path}/", "--manifest", tmp_path / "m.json")
    assert code == 0, err
    recs = json.loads(out)
    assert json.loads((tmp_path / "m.json").read_text()) == recs
    assert [r["animation"] for r in recs] == ["walk", "idle"]
    for r in recs:
        assert os.path.basename(r["output"]) == f"hero-{r['animation']}.npz"
        assert r["sha256"] == sha(r["output"]) and r["error"] is None and r["input"] == HERO
        a = np.load(r["output"])
        assert r["frames"] == a["world"].shape[0] == int(np.ceil(doc.animations[doc.animation_index(
            r["animation"])].length * 30 - 1e-9))
        assert str(a["animation"]) == r["animation"] and r["time"] >= 0
        assert set(r) >= {"input", "skin", "animation", "frames", "output", "sha256", "time"}
    code, out, _ = run(capsys, "bake", HERO, "--all-animations", "--all-skins", "--no-draw", "--json",
                       "-o", f"{tmp_path}/all/")
    recs = json.loads(out)
    assert code == 0 and sorted(r["animation"] for r in recs) == sorted(names * len(doc.skins))
    assert {os.path.basename(r["output"]) for r in recs} == {f"hero-{s.name}-{n}.npz" for s in doc.skins
                                                             for n in names}
    assert all(r["skin"] == doc.skins[0].name for r in recs)


def test_unknown_output_extensions_are_errors(capsys, tmp_path):
    for argv in (["bake", HERO, "-o", tmp_path / "x.h5"], ["render", HERO, "-o", tmp_path / "x.bmp"],
                 ["convert", HERO, tmp_path / "hero.glb"], ["render", HERO, "--sheet", tmp_path / "s.gif"]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "unknown output format" in err and len(err.strip().splitlines()) == 1, argv
    assert not list(tmp_path.iterdir())
    code, _, _ = run(capsys, "convert", HERO, tmp_path / "hero.txt", "--format", "json")
    assert code == 0


def test_one_failing_task_does_not_stop_the_others(capsys, tmp_path):
    bad = tmp_path / "bad.obone"
    bad.write_text("{not json")
    rig = os.path.join(FIX, "rigging.obone")
    code, out, err = run(capsys, "bake", bad, HERO, rig, "-a", "walk", "--no-draw", "--json", "-o",
                         f"{tmp_path}/out/")
    recs = {os.path.basename(r["input"]): r for r in json.loads(out)}
    assert code == 2
    assert recs["hero.obone"]["error"] is None and os.path.exists(recs["hero.obone"]["output"])
    assert "bad.obone" in err and recs["bad.obone"]["error"]
    assert "walk" in recs["rigging.obone"]["error"]  # rigging has no walk
    assert err.count("openbone: error:") == 2


def test_progress_bar_counts_tasks(capsys, tmp_path):
    pytest.importorskip("tqdm")
    code, _, err = run(capsys, "bake", HERO, os.path.join(FIX, "ik.obone"), "--no-draw", "--progress",
                       "-o", f"{tmp_path}/")
    assert code == 0 and "2/2" in err and "task" in err and "frame/s" not in err


# ---- zarr -------------------------------------------------------------------------

def test_zarr_bake_reads_lazily_and_equals_the_npz(capsys, tmp_path):
    pytest.importorskip("zarr")
    da = pytest.importorskip("dask.array")
    code, _, err = run(capsys, "bake", HERO, "-a", "walk", "--format", "zarr", "-o", tmp_path / "walk.zarr")
    assert code == 0, err
    code, _, _ = run(capsys, "bake", HERO, "-a", "walk", "-o", tmp_path / "walk.npz")
    ref = np.load(tmp_path / "walk.npz")
    world = da.from_zarr(str(tmp_path / "walk.zarr"), component="world")
    assert world.shape == (30, 16, 6) and world.chunks[0][0] <= 64  # chunked along frames, lazy
    assert np.array_equal(world[10:20].compute(), ref["world"][10:20])
    back = pipeline.read_zarr(str(tmp_path / "walk.zarr"))
    for k in ref.files:
        assert np.array_equal(back[k], ref[k]), k


# ---- render outputs ---------------------------------------------------------------

skia = pytest.importorskip("skia", reason="render needs skia-python (openbone[render])")


def test_sprite_sheet_and_its_frame_table(capsys, tmp_path):
    from PIL import Image
    from openbone.render import View, pose_points, render_pose
    sheet = tmp_path / "hero.png"
    code, out, err = run(capsys, "render", HERO, "-a", "walk", "-a", "idle", "--frames", "0:30:10",
                         "--sheet", sheet, "--json")
    assert code == 0, err
    rec = json.loads(out)[0]
    table = json.loads((tmp_path / "hero.json").read_text())
    assert rec["table"] == str(tmp_path / "hero.json") and rec["frames"] == 6
    frames = table["frames"]
    assert [f["filename"] for f in frames] == [f"hero/{a}/{k}" for a in ("walk", "idle") for k in (0, 10, 20)]
    assert table["animations"] == {"walk": [f"hero/walk/{k}" for k in (0, 10, 20)],
                                   "idle": [f"hero/idle/{k}" for k in (0, 10, 20)]}
    assert table["meta"]["frameTags"] == [{"name": "walk", "from": 0, "to": 2, "direction": "forward"},
                                          {"name": "idle", "from": 3, "to": 5, "direction": "forward"}]
    img = np.asarray(Image.open(sheet).convert("RGBA"))
    assert (table["meta"]["size"]["w"], table["meta"]["size"]["h"]) == (img.shape[1], img.shape[0])
    # the frames, rendered independently with the same fitted view, crop to the table's rects
    doc = openbone.load(HERO)
    insts = []
    for anim in ("walk", "idle"):
        for k in (0, 10, 20):
            inst = openbone.Instance(doc)
            inst.set_animation(0, anim, True, 0.0)
            inst.advance(0.0)
            for _ in range(k):
                inst.advance(1 / 30)
            insts.append(inst)
    view = View.fit([pose_points(i) for i in insts])
    ox, oy = view.to_px([[0.0, 0.0]])[0]
    for f, inst in zip(frames, insts):
        full = np.asarray(render_pose(inst, view=view, background=None, bones=False, boxes=False))
        r, s = f["frame"], f["spriteSourceSize"]
        assert f["sourceSize"] == {"w": full.shape[1], "h": full.shape[0]}
        assert np.array_equal(img[r["y"]:r["y"] + r["h"], r["x"]:r["x"] + r["w"]],
                              full[s["y"]:s["y"] + s["h"], s["x"]:s["x"] + s["w"]])
        assert full[..., 3][:s["y"]].max(initial=0) == 0 and full[..., 3][s["y"] + s["h"]:].max(initial=0) == 0
        assert f["pivot"] == {"x": round(ox / full.shape[1], 6), "y": round(oy / full.shape[0], 6)}
        assert f["duration"] == round(1000 / 30, 3) and f["trimmed"] is True
    rects = [(f["frame"]["x"], f["frame"]["y"], f["frame"]["w"], f["frame"]["h"]) for f in frames]
    for i, a in enumerate(rects):  # packed without overlaps
        for b in rects[i + 1:]:
            assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def test_mp4_gif_webp_svg(capsys, tmp_path):
    from PIL import Image
    ffmpeg = pytest.importorskip("imageio_ffmpeg")
    mp4 = tmp_path / "walk.mp4"
    code, _, err = run(capsys, "render", HERO, "-a", "walk", "--frames", "0:10", "--scale", "0.25", "-o", mp4)
    assert code == 0, err
    reader = ffmpeg.read_frames(str(mp4))
    meta = next(reader)
    assert tuple(meta["size"]) == (100, 100)
    assert sum(1 for _ in reader) == 10
    for name in ("walk.gif", "pose.webp", "pose.png"):
        code, _, err = run(capsys, "render", HERO, "-a", "walk", "--frames", "0:4" if name.endswith("gif") else "3",
                           "--scale", "0.25", "-o", tmp_path / name)
        assert code == 0, err
        im = Image.open(tmp_path / name)
        assert im.size == (100, 100) and im.format == {"gif": "GIF", "webp": "WEBP", "png": "PNG"}[name.split(".")[1]]
    code, _, err = run(capsys, "render", HERO, "-a", "walk", "--frames", "5", "-o", tmp_path / "pose.svg")
    assert code == 0, err
    svg = (tmp_path / "pose.svg").read_text()
    assert svg.startswith("<svg") and svg.count("data-slot=") == 13
    code, _, err = run(capsys, "render", HERO, "-a", "walk", "--frames", "0,5", "-o", tmp_path / "two.svg")
    assert code == 2 and "one frame" in err


def test_python_api_returns_the_manifest(tmp_path):
    recs = pipeline.bake([HERO, os.path.join(FIX, "physics.obone")], str(tmp_path / "{rig}.npz"), draw=False)
    assert [os.path.basename(r["output"]) for r in recs] == ["hero.npz", "physics.npz"]
    assert all(r["error"] is None and r["sha256"] == sha(r["output"]) for r in recs)
    with pytest.raises(pipeline.PlanError):
        pipeline.bake([HERO, HERO], str(tmp_path / "same.npz"))


# ---- Dask: a real LocalCluster of 2 workers, bit for bit ----------------------------

def test_dask_local_cluster_matches_the_local_run_bit_for_bit(tmp_path):
    distributed = pytest.importorskip("distributed")
    rigs = [HERO] + [os.path.join(FIX, f) for f in ("physics.obone", "particles.obone", "ik.obone",
                                                    "rigging.obone", "state-machine.obone")]
    bad = tmp_path / "broken.obone"
    bad.write_text('{"format": "openbone", "version": 1, "skeleton": {"bones": [{"id": "b", "x": "ninety"}]}}')
    local = pipeline.bake(rigs + [str(bad)], str(tmp_path / "local" / "{rig}-{animation}.npz"),
                          animations="all")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=40)
    client = distributed.Client(cluster)
    try:
        assert len(client.scheduler_info()["workers"]) == 2
        remote = pipeline.bake(rigs + [str(bad)], str(tmp_path / "dask" / "{rig}-{animation}.npz"),
                               animations="all", client=client)
        sheets_local = pipeline.render([HERO], str(tmp_path / "ls" / "{rig}.png"), animations="all", sheet=True,
                                       frames="0:30:15")
        sheets_dask = pipeline.render([HERO], str(tmp_path / "ds" / "{rig}.png"), animations="all", sheet=True,
                                      frames="0:30:15", client=client)
        workers = client.run(os.getpid)
    finally:
        client.close()
        cluster.close()
    assert len(set(workers.values())) == 2 and os.getpid() not in workers.values()
    assert len(local) == len(remote) > len(rigs)
    for a, b in zip(local, remote):
        assert (a["input"], a["skin"], a["animation"], a["frames"]) == (b["input"], b["skin"], b["animation"],
                                                                        b["frames"])
        if a["error"]:
            assert b["error"] == a["error"] and "ninety" in a["error"]
            continue
        assert b["error"] is None and a["sha256"] == b["sha256"] == sha(b["output"])
        x, y = np.load(a["output"]), np.load(b["output"])
        for k in x.files:
            assert x[k].tobytes() == y[k].tobytes(), k
    assert sum(1 for r in remote if r["error"]) == 1  # the broken rig only; the others ran
    assert sheets_local[0]["sha256"] == sheets_dask[0]["sha256"]
    assert sheets_local[0]["table_sha256"] == sheets_dask[0]["table_sha256"]


def test_cli_dask_run(capsys, tmp_path):
    pytest.importorskip("distributed")
    code, out, err = run(capsys, "bake", HERO, os.path.join(FIX, "ik.obone"), "--all-animations", "--dask",
                         "--workers", "2", "--no-draw", "--json", "-o", f"{tmp_path}/{{rig}}-{{animation}}.npz")
    assert code == 0, err
    recs = json.loads(out)
    assert len(recs) == len(openbone.load(HERO).animations) + max(1, len(openbone.load(
        os.path.join(FIX, "ik.obone")).animations))
    assert all(r["sha256"] == sha(r["output"]) for r in recs)
