"""The repository's own promises: CI runs the README's test command, the C
checkers pass, and the fuzzers survive a short run."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.*?)\n```", text, re.S)


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    test_cmd = [c for c in readme_commands() if "pytest" in c]
    assert len(test_cmd) == 1
    assert ci[-1] == test_cmd[0]


def test_readme_main_command_uses_the_bundled_rig():
    main = [c for c in readme_commands() if "examples/" in c and "pytest" not in c]
    assert main and (ROOT / "examples" / "hero.obone").exists()


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("pkg-config") is None, reason="needs gcc")
def test_c_checkers():
    r = subprocess.run(["make", "-s", "-C", str(ROOT / "tests" / "c"), "check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


@pytest.mark.skipif(shutil.which("clang") is None or shutil.which("pkg-config") is None
                    or os.environ.get("OPENBONE_SANITIZED") == "1", reason="needs clang")
def test_batch_under_thread_sanitizer():
    """csrc/batch.c's hand-offs (spin, then sleep and wake; the workers kept off the caller's
    CPU) under ThreadSanitizer: tests/c/test_batch.c with 1, 2, 3, 8 threads and the cores."""
    r = subprocess.run(["make", "-s", "-C", str(ROOT / "tests" / "c"), "tsan"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


@pytest.mark.skipif(shutil.which("clang") is None or os.environ.get("OPENBONE_SANITIZED") == "1",
                    reason="needs clang with libFuzzer")
def test_fuzz_smoke():
    """Both loaders under libFuzzer + ASan/UBSan for a few seconds each."""
    fz = ROOT / "tests" / "fuzz"
    r = subprocess.run(["make", "-s", "-C", str(fz), "corpus_document", "smoke"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def test_readme_tour_runs():
    """The README's Python tour is real code: run it from the repository root."""
    text = (ROOT / "README.md").read_text()
    code = re.findall(r"```python\n(.*?)\n```", text, re.S)[0]
    assert "shared/" not in code  # only the project's own files (issue 23): openbone.examples
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)


REGRESSIONS = sorted((ROOT / "tests" / "fuzz" / "regressions").glob("*"))


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_fuzz_regressions_load_and_run(path):
    """Inputs the fuzzers once broke: each loads or fails with OpenBoneError, then
    runs a few frames in every skin (run under `make asan` for the sanitizers)."""
    import openbone
    try:
        doc = openbone.loads(path.read_bytes())
    except openbone.OpenBoneError:
        return
    inst = openbone.Instance(doc)
    for skin in [None] + [s.name for s in doc.skins]:
        inst.set_skin(skin)
        inst.advance(1 / 60)
        inst.advance(0.25)
        if hasattr(inst, "draw_list"):
            inst.draw_list()
