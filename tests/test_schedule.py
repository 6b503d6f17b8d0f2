"""The Spine pose model's run order (issue 17, csrc/constraints.c spine_schedule): physics entries
are brought together so that their groups run in lockstep, and every other entry keeps its
place unless it depends on one of them.  tests/c/test_schedule.c poses each rig twice for 200
frames (the scheduled order and the cache as built) and requires the same bits, checks that the
run order is a permutation keeping every dependent pair in order, and prints the groups.

The group counts are derived by hand from celestial-circus-pro's update cache (spine-core 4.2's
updateCache, which the import reproduces): its 30 physics constraints are a chain of six (each
on a descendant of the one before: bones 2, 3, 4, 9, 10, 31), one alone between the transform
and IK constraints 2, 1 and 0, and 23 after those that depend on nothing the others write but
their own chains, so 6 + 1 + ceil(23 / 4) = 13 groups at most four wide, where the built order
(each physics entry followed by its bone's children) gives 16."""
import glob
import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("pkg-config") is None, reason="needs gcc")
def test_schedule_same_bits_and_dependences(tmp_path):
    from conftest import REFERENCE
    from openbone import spine
    skel = REFERENCE / "spine" / "skeletons"
    if not skel.is_dir():
        pytest.skip("no Spine reference rigs")
    cjson = subprocess.run(["pkg-config", "--cflags", "--libs", "libcjson"], capture_output=True, text=True)
    if cjson.returncode != 0:
        pytest.skip("libcjson not found")
    exe = str(tmp_path / "test_schedule")
    cmd = (["gcc", "-std=c11", "-O2", "-ffp-contract=off", "-fno-math-errno", "-D_POSIX_C_SOURCE=200809L",
            "-I", os.path.join(ROOT, "csrc"), os.path.join(ROOT, "tests", "c", "test_schedule.c")] +
           sorted(glob.glob(os.path.join(ROOT, "csrc", "*.c"))) + cjson.stdout.split() + ["-lm", "-o", exe])
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    args = []
    for name, anim in [("celestial-circus-pro", "swing"), ("spineboy-pro", "run"), ("tank-pro", "drive")]:
        out = tmp_path / f"{name}.obone"
        out.write_text(json.dumps(spine.skeleton_json_to_dict(str(skel / f"{name}.json"))))
        args += [str(out), anim]
    r = subprocess.run([exe] + args, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = {line.split()[0].rsplit("/", 1)[-1]: line.split() for line in r.stdout.splitlines() if " groups " in line}
    cel = lines["celestial-circus-pro.obone"]
    assert (int(cel[3]), int(cel[5])) == (13, 16), cel
    assert int(cel[7]) > 0
    for name in ("spineboy-pro.obone", "tank-pro.obone"):  # no physics: the cache as built, nothing moved
        assert lines[name][3] == lines[name][5] == "0" and lines[name][7] == "0", lines[name]
