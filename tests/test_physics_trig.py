"""csrc/physics_trig.h (issue 17, physics): physics.c's four-lane sin/cos and atan2 give the bits
of obtrig.h's ob_sincos_v4p / ob_atan2_v4p (the same operations lane by lane, cheaper lane
bookkeeping): tests/c/test_physics_trig.c compares them over 1.6 million random and special
arguments, built for the SSE2 baseline and, where the CPU has it, with -mavx2."""
import os
import shutil
import subprocess

import pytest

from conftest import has_avx2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("width", ["sse2", "avx2"])
def test_physics_trig_same_bits(tmp_path, width):
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("x86-64 widths")
    if width == "avx2" and not has_avx2():
        pytest.skip("no AVX2")
    exe = str(tmp_path / f"test_physics_trig_{width}")
    cmd = ["gcc", "-std=c11", "-O2", "-ffp-contract=off", "-fno-math-errno", "-Wno-psabi", "-I", os.path.join(ROOT, "csrc"),
           os.path.join(ROOT, "tests", "c", "test_physics_trig.c"), "-lm", "-o", exe] + (["-mavx2"] if width == "avx2" else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([exe], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stdout + r.stderr
