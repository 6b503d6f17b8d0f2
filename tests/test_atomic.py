"""Atomic outputs (issue 21 item 9): every writer writes a temporary file in the output's
directory and renames it, so a failure part-way leaves an existing output intact.

The failures are real: a child process under ``ulimit -f`` (the file-size limit makes the
write fail with EFBIG, "File too large", part-way through), and in-process a write that
raises after some bytes."""
import os
import subprocess
import sys

import numpy as np
import pytest

import openbone
from openbone.atomic import atomic_path, atomic_write, write_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERO = os.path.join(ROOT, "examples", "hero.obone")
PRECIOUS = b"precious output that must survive\n"


def _limited(args, cwd, blocks=2):
    """Run `python -m openbone ARGS` with a file-size limit of `blocks` KiB."""
    cmd = "ulimit -f %d; exec %s -m openbone %s" % (blocks, sys.executable, " ".join(f"'{a}'" for a in args))
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, capture_output=True, text=True, timeout=300)


def _left(tmp_path, name):
    return sorted(p for p in os.listdir(tmp_path) if p != name and not p.endswith(".obone"))


CASES = [
    ("convert", lambda out: ["convert", HERO, out], "out.obonb"),
    ("convert-json", lambda out: ["convert", HERO, out], "out.obone"),
    ("bake", lambda out: ["bake", HERO, "-a", "walk", "-o", out, "--overwrite"], "walk.npz"),
    ("render", lambda out: ["render", HERO, "-a", "walk", "--frames", "0:6", "-o", out, "--overwrite"], "walk.png"),
    ("render-gif", lambda out: ["render", HERO, "-a", "walk", "--frames", "0:6", "-o", out, "--overwrite"],
     "walk.gif"),
]


@pytest.mark.parametrize("kind,argv,name", CASES, ids=[c[0] for c in CASES])
def test_a_failure_part_way_leaves_the_existing_output_intact(tmp_path, kind, argv, name):
    if kind.startswith("render"):
        pytest.importorskip("skia")
    out = tmp_path / name
    out.write_bytes(PRECIOUS)
    r = _limited(argv(str(out)), tmp_path, 2)
    assert r.returncode != 0, r.stdout
    assert "File too large" in r.stderr, r.stderr
    assert len([ln for ln in r.stderr.splitlines() if ln.startswith("openbone: error")]) >= 1
    assert "Traceback" not in r.stderr
    assert out.read_bytes() == PRECIOUS
    assert not [p for p in os.listdir(tmp_path) if p.startswith(f".{name}.")]  # no temporary file left


def test_a_manifest_that_fails_part_way(tmp_path, monkeypatch, capsys):
    """The manifest is written last and small, so a file-size limit cannot single it out:
    its write fails in-process instead, after the new content reached the temporary file."""
    import openbone.atomic as A
    from openbone.cli import main
    out = tmp_path / "manifest.json"
    out.write_bytes(PRECIOUS)
    real = A._publish

    def boom(tmp, dest, overwrite):
        if dest.endswith("manifest.json"):
            assert b'"sha256"' in open(tmp, "rb").read()
            raise OSError(27, "File too large")
        return real(tmp, dest, overwrite)
    monkeypatch.setattr(A, "_publish", boom)
    code = main(["bake", HERO, "-a", "idle", "--no-draw", "-o", str(tmp_path / "idle.npz"), "--manifest", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "File too large" in err and out.read_bytes() == PRECIOUS
    assert sorted(os.listdir(tmp_path)) == ["idle.npz", "manifest.json"]


def test_the_same_commands_succeed_without_the_limit(tmp_path):
    out = tmp_path / "out.obonb"
    out.write_bytes(PRECIOUS)
    r = _limited(["convert", HERO, str(out)], tmp_path, blocks=1 << 20)
    assert r.returncode == 0 and out.read_bytes()[:4] == b"OBNB"


def test_a_write_that_raises_part_way(tmp_path, monkeypatch):
    """In-process: a writer that dies after writing some bytes (an exception, as a full disk
    raises) leaves the file as it was, for file outputs, directories (zarr) and Document.save."""
    out = tmp_path / "x.bin"
    out.write_bytes(PRECIOUS)
    with pytest.raises(RuntimeError):
        with atomic_write(out) as f:
            f.write(b"half of the new ")
            raise RuntimeError("disk full")
    assert out.read_bytes() == PRECIOUS and os.listdir(tmp_path) == ["x.bin"]
    doc = openbone.load(HERO)
    target = tmp_path / "hero.obonb"
    target.write_bytes(PRECIOUS)
    import openbone.atomic as A
    real = A._publish

    def boom(tmp, dest, overwrite):
        assert os.path.getsize(tmp) > 0  # the new content was complete in the temporary file
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(A, "_publish", boom)
    with pytest.raises(OSError):
        doc.save(target)
    assert target.read_bytes() == PRECIOUS
    monkeypatch.setattr(A, "_publish", real)
    doc.save(target)
    assert openbone.load(target).bone_names == doc.bone_names


def test_zarr_store_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    pytest.importorskip("zarr")
    from openbone import pipeline
    from openbone.pipeline import store
    rec = pipeline.bake(HERO, str(tmp_path / "w.zarr"), animations=["walk"], format="zarr")[0]
    assert rec["error"] is None
    before = store.sha256_of(rec["output"])
    real = np.asarray

    def failing_zarr(path, arrays, overwrite=True):
        with atomic_path(path, overwrite=overwrite, directory=True) as tmp:
            open(os.path.join(tmp, "partial"), "w").write("x")
            raise OSError(28, "No space left on device")
    monkeypatch.setattr("openbone.pipeline.run.write_zarr", failing_zarr)
    rec2 = pipeline.bake(HERO, str(tmp_path / "w.zarr"), animations=["idle"], format="zarr", overwrite=True)[0]
    assert "No space left" in rec2["error"]
    assert store.sha256_of(rec["output"]) == before
    assert sorted(os.listdir(tmp_path)) == ["w.zarr"]
    monkeypatch.undo()
    rec3 = pipeline.bake(HERO, str(tmp_path / "w.zarr"), animations=["idle"], format="zarr", overwrite=True)[0]
    assert rec3["error"] is None and store.sha256_of(rec3["output"]) != before
    assert real is np.asarray


def test_overwrite_false_refuses_at_the_rename(tmp_path):
    out = tmp_path / "a.txt"
    with pytest.raises(FileExistsError):
        with atomic_path(out, overwrite=False) as tmp:
            out.write_text("appeared meanwhile")
            open(tmp, "w").write("new")
    assert out.read_text() == "appeared meanwhile" and os.listdir(tmp_path) == ["a.txt"]
    write_bytes(tmp_path / "b.txt", b"1", overwrite=False)
    assert (tmp_path / "b.txt").read_bytes() == b"1"
