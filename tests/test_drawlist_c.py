"""C-level check: a frame allocates nothing (advance: pose, constraints, particles; the
§8.4 draw list, the world vertices and the §8.10 bounds snapshot).
tests/c/test_drawlist_alloc.c wraps malloc/calloc/realloc at link time (-Wl,--wrap, no
LD_PRELOAD) and counts the calls made over 120 frames of every fixture, the example rig
and five imported Spine rigs (first animation looping); a second run has the instance
layer in use as well (offsets, limits and reaches on every bone, rewritten each frame)."""
import glob
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("pkg-config") is None, reason="needs gcc")
def test_no_allocation_per_frame(tmp_path):
    cjson = subprocess.run(["pkg-config", "--cflags", "--libs", "libcjson"], capture_output=True, text=True)
    if cjson.returncode != 0:
        pytest.skip("libcjson not found")
    exe = str(tmp_path / "test_drawlist_alloc")
    srcs = sorted(glob.glob(os.path.join(ROOT, "csrc", "*.c")))
    cmd = (["gcc", "-std=c11", "-O1", "-ffp-contract=off", "-I", os.path.join(ROOT, "csrc"),
            os.path.join(ROOT, "tests", "c", "test_drawlist_alloc.c")] + srcs + cjson.stdout.split() +
           ["-lm", "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc", "-o", exe])
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    docs = sorted(glob.glob(os.path.join(ROOT, "conformance", "fixtures", "*.obone")))
    docs.append(os.path.join(ROOT, "examples", "hero.obone"))
    from conftest import REFERENCE, REQUIRE_REFERENCE, reference
    if REQUIRE_REFERENCE:
        reference("spine", "skeletons")  # CI: fails when the Spine rigs are missing
    skel = str(REFERENCE / "spine" / "skeletons")  # a bare clone checks the fixtures and the hero only
    if os.path.isdir(skel):
        import json
        from openbone import spine
        for name in ("spineboy-pro", "raptor-pro", "tank-pro", "celestial-circus-pro", "stretchyman-pro"):
            out = tmp_path / f"{name}.obone"
            out.write_text(json.dumps(spine.skeleton_json_to_dict(os.path.join(skel, name + ".json"))))
            docs.append(str(out))
    for flags in ([], ["--layer"]):
        r = subprocess.run([exe] + flags + docs, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        assert r.stdout.count("ok  ") == len(docs)
