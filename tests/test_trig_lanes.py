"""csrc/obtrig.h (issue 17): the four-lane sin/cos and atan2 (lane tests by shuffles, m·π/4 by a
multiply) give the bits of the two-lane ones: tests/c/test_trig_lanes.c compares them over 1.6 million
random and special arguments, built for the SSE2 baseline and, where the CPU has it, with -mavx2."""
import os
import shutil
import subprocess

import pytest

from conftest import has_avx2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("width", ["sse2", "avx2"])
def test_four_and_two_lanes_same_bits(tmp_path, width):
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("x86-64 widths")
    if width == "avx2" and not has_avx2():
        pytest.skip("no AVX2")
    exe = str(tmp_path / f"test_trig_lanes_{width}")
    cmd = ["gcc", "-std=c11", "-O2", "-ffp-contract=off", "-fno-math-errno", "-Wno-psabi", "-I", os.path.join(ROOT, "csrc"),
           os.path.join(ROOT, "tests", "c", "test_trig_lanes.c"), "-lm", "-o", exe] + (["-mavx2"] if width == "avx2" else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([exe], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stdout + r.stderr
