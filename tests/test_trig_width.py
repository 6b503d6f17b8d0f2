"""Determinism across vector widths (issue 17, csrc/obtrig.h): the runtime's trig and the
bone pipeline's trig pass (an AVX2 clone beside the SSE2 baseline, picked at run time) give
the same bits whatever width runs.  tests/c/test_width.c poses the example rig and five
imported Spine rigs (their inherit modes, shears, IK, transform, path and physics constraints)
for 90 frames of up to four animations and hashes the world matrices and vertices; it is built
three ways (the runtime dispatch, -DOB_NO_DISPATCH: SSE2 everywhere, and -DOB_NO_DISPATCH
-mavx2: AVX2 everywhere), and a fourth at -O3 with FMA allowed where the CPU has it (what a
-march=native build may use: -ffp-contract=off must still hold, csrc/obmath.h OB_UNFUSED), and
the hashes must agree."""
import glob
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import has_avx2, has_cpu_flag

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("pkg-config") is None, reason="needs gcc")
def test_same_bits_at_every_width(tmp_path):
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("x86-64 widths")
    cjson = subprocess.run(["pkg-config", "--cflags", "--libs", "libcjson"], capture_output=True, text=True)
    if cjson.returncode != 0:
        pytest.skip("libcjson not found")
    srcs = sorted(glob.glob(os.path.join(ROOT, "csrc", "*.c")))
    variants = {"dispatch": [], "sse2": ["-DOB_NO_DISPATCH"]}
    if has_avx2():
        variants["avx2"] = ["-DOB_NO_DISPATCH", "-mavx2"]
        if has_cpu_flag("fma"):  # AVX2 with FMA allowed, at -O3 (a -march=native build's)
            variants["avx2_fma_O3"] = ["-DOB_NO_DISPATCH", "-mavx2", "-mfma", "-O3"]

    def build(name):
        exe = str(tmp_path / f"test_width_{name}")
        cmd = (["gcc", "-std=c11", "-O2", "-ffp-contract=off", "-fno-math-errno", "-D_POSIX_C_SOURCE=200809L",
                "-I", os.path.join(ROOT, "csrc")] + variants[name] +
               [os.path.join(ROOT, "tests", "c", "test_width.c")] + srcs + cjson.stdout.split() + ["-lm", "-o", exe])
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        return exe

    with ThreadPoolExecutor(2) as ex:
        exes = dict(zip(variants, ex.map(build, variants)))
    docs = [os.path.join(ROOT, "examples", "hero.obone")]
    from conftest import REFERENCE
    skel = str(REFERENCE / "spine" / "skeletons")
    if os.path.isdir(skel):
        import json
        from openbone import spine
        for name in ("spineboy-pro", "raptor-pro", "tank-pro", "stretchyman-pro", "celestial-circus-pro"):
            out = tmp_path / f"{name}.obone"
            out.write_text(json.dumps(spine.skeleton_json_to_dict(os.path.join(skel, name + ".json"))))
            docs.append(str(out))
    outs = {}
    for name, exe in exes.items():
        r = subprocess.run([exe] + docs, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        outs[name] = r.stdout
    assert outs["dispatch"].count("animation") >= len(docs)
    for name in outs:
        assert outs[name] == outs["dispatch"], name


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("objdump") is None or shutil.which("pkg-config") is None,
                    reason="needs gcc, objdump and pkg-config")
def test_no_fused_multiply_add_where_fma_is_allowed(tmp_path):
    """Issue 17 item 3 and §1: the core is compiled without contraction (-ffp-contract=off),
    also where the CPU has FMA (a -march=native build, as the shared harness's native variant).
    GCC 12's SLP addsub pattern fused a·b ± c·d into vfmaddsub there despite the flag (physics.c's
    and path.c's rotations; csrc/obmath.h ob_turn).  Every source is compiled at -O3 with AVX2
    and FMA allowed; no fused instruction may appear.  Compiling runs nothing, so any x86-64 host
    checks it."""
    import platform
    import re
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("x86-64 instruction check")
    cjson = subprocess.run(["pkg-config", "--cflags", "libcjson"], capture_output=True, text=True)
    srcs = sorted(glob.glob(os.path.join(ROOT, "csrc", "*.c")) + glob.glob(os.path.join(ROOT, "csrc", "toon", "*.c")))
    fused = re.compile(r"\bv?fn?m(add|sub)(sub|add)?(132|213|231)[ps][sd]\b|\bvfmaddsub|\bvfmsubadd")

    def check(src):
        obj = str(tmp_path / (os.path.basename(os.path.dirname(src)) + "_" + os.path.basename(src) + ".o"))
        cmd = (["gcc", "-std=c11", "-O3", "-mavx2", "-mfma", "-ffp-contract=off", "-fno-fast-math", "-fno-math-errno",
                "-D_POSIX_C_SOURCE=200809L", "-I", os.path.join(ROOT, "csrc"), "-I", os.path.join(ROOT, "csrc", "include"),
                "-I", os.path.join(ROOT, "csrc", "toon")] + cjson.stdout.split() + ["-c", src, "-o", obj])
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True).stdout
        return os.path.relpath(src, ROOT), [line.strip() for line in dis.splitlines() if fused.search(line)]

    with ThreadPoolExecutor(2) as ex:
        found = {name: hits for name, hits in ex.map(check, srcs) if hits}
    assert not found, found
