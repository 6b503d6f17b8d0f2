"""Checks a repaired (manylinux) openbone wheel as a user gets it, without the system's cJSON.

    python tests/tools/check_wheel.py WHEEL [--python PY] [--numpy link|SPEC] [--pytest] [--scripts] [--work DIR]

1. ``auditwheel show`` reports a manylinux tag no newer than manylinux_2_17 and no external libcjson; the wheel carries
   ``openbone.libs/libcjson-*`` and the licence files (LICENSE, THIRD_PARTY_NOTICES.md).
2. A fresh venv of PY (default: this Python) gets the wheel (offline, ``--no-deps``) and NumPy:
   ``link`` symlinks this interpreter's NumPy (offline; PY must be this Python's version), a
   pip requirement (``"numpy==1.26.*"``) installs it from the index.  ``--pytest`` installs pytest,
   ``--scripts`` quickjs-ng (the openbone[scripts] extra, where it has a wheel for PY: then the
   bundled script case runs too).
3. With the loader audit module tests/c/hide_libcjson.c (LD_AUDIT: every search for
   ``libcjson.so*`` fails; checked first on ``ctypes.CDLL("libcjson.so.1")``), from an empty
   folder: ``import openbone`` from the venv, cJSON mapped from ``openbone.libs`` only, the
   bundled example rigs, ``openbone --version``, ``openbone selftest`` and, with ``--pytest``,
   ``pytest --pyargs openbone.selftest``.

Used by tests/test_packaging.py (NumPy linked) and .ci/run (each Python; NumPy 1.26 and 2.x).
Exit code 0 when every check passes.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIM = ROOT / "tests" / "c" / "hide_libcjson.c"

IMPORT_CHECK = r"""
import sys, openbone, openbone.examples, numpy
venv = sys.argv[1]
assert openbone.__file__.startswith(venv), openbone.__file__
maps = [l.split()[-1] for l in open("/proc/self/maps") if l.split()[-1].rsplit("/", 1)[-1].startswith("libcjson")]
assert maps and all("openbone.libs" in m for m in maps), maps
doc = openbone.examples.hero()
inst = openbone.Instance(doc)
inst.set_animation(0, "walk", loop=True)
inst.advance(1 / 30)
assert inst.world.shape == (len(doc.bones), 6)
sprout = openbone.examples.sprout()
assert [b.name for b in sprout.bones] == ["root", "stem", "tip", "pot"]
print("openbone", openbone.__version__, "numpy", numpy.__version__, "python", sys.version.split()[0],
      "cjson from", sorted(set(maps)))
"""


class CheckError(Exception):
    pass


def run(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode != 0:
        shown = " ".join(str(c) if len(str(c)) < 80 else str(c).strip().splitlines()[0][:60] + "..." for c in cmd)
        raise CheckError(f"{shown} exited {r.returncode}:\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r.stdout


def audit(wheel: Path) -> str:
    """auditwheel's verdict: a manylinux tag and no external libcjson."""
    out = run([sys.executable, "-m", "auditwheel", "show", wheel])
    text = " ".join(out.split())
    tag = re.search(r'consistent with the following platform tag: "manylinux_(\d+)_(\d+)_\w+"', text)
    if not tag:
        raise CheckError(f"auditwheel show gives no manylinux tag:\n{out}")
    # the core asks glibc for nothing newer than 2.17 (batch.c binds pthread_create's base version;
    # glibc 2.34's new one would raise the tag to manylinux_2_34 and refuse older distributions)
    if (int(tag[1]), int(tag[2])) > (2, 17):
        raise CheckError(f"the wheel needs glibc {tag[1]}.{tag[2]} (manylinux_2_17 expected):\n{out}")
    if "libcjson" in out:
        raise CheckError(f"auditwheel show lists libcjson as external:\n{out}")
    names = zipfile.ZipFile(wheel).namelist()
    for pattern in (r"^openbone\.libs/libcjson-[0-9a-f]+\.so", r"\.dist-info/licenses/LICENSE$",
                    r"\.dist-info/licenses/THIRD_PARTY_NOTICES\.md$", r"^openbone/examples/hero\.obone$",
                    r"^openbone/selftest/suite/cases/.+\.json$", r"^openbone/py\.typed$", r"^openbone/_core\.pyi$"):
        if not any(re.search(pattern, n) for n in names):
            raise CheckError(f"{wheel.name} has no file matching {pattern}")
    return out


def link_numpy(venv_python: Path) -> None:
    """This interpreter's NumPy, symlinked into the venv (offline)."""
    import numpy

    site = Path(run([venv_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip())
    src = Path(numpy.__file__).resolve().parent.parent
    for p in src.iterdir():
        if p.name == "numpy" or p.name.startswith("numpy.libs") or re.match(r"numpy-[\d.]+.*\.dist-info$", p.name):
            (site / p.name).symlink_to(p)


def check(wheel: Path, python: str = sys.executable, numpy: str = "link", pytest: bool = False,
          work: Path | None = None, scripts: bool = False) -> str:
    """Every check of the module docstring; returns a short log.  Raises CheckError."""
    wheel = Path(wheel).resolve()
    log = [audit(wheel).strip().splitlines()[0]]
    work = Path(work or tempfile.mkdtemp(prefix="openbone-wheel-")).resolve()
    venv = work / "venv"
    if venv.exists():
        shutil.rmtree(venv)
    run([python, "-m", "venv", venv])
    py = venv / "bin" / "python"
    run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel])
    if numpy == "link":
        link_numpy(py)
    else:
        run([py, "-m", "pip", "install", "-q", numpy])
    if pytest:
        run([py, "-m", "pip", "install", "-q", "pytest"])
    if scripts:
        try:
            run([py, "-m", "pip", "install", "-q", "--only-binary", ":all:", "quickjs-ng>=0.17"])
        except CheckError:
            log.append("quickjs-ng has no wheel for this Python: the bundled script case is skipped")
    shim = work / "hide_libcjson.so"
    run(["gcc", "-shared", "-fPIC", "-O2", "-o", shim, SHIM])
    env = dict(os.environ, LD_AUDIT=str(shim))
    for k in ("PYTHONPATH", "PYTHONHOME", "OPENBONE_REFERENCE"):
        env.pop(k, None)
    empty = work / "cwd"
    empty.mkdir(exist_ok=True)
    hidden = subprocess.run([py, "-c", "import ctypes; ctypes.CDLL('libcjson.so.1')"], env=env, cwd=empty,
                            capture_output=True, text=True)
    if hidden.returncode == 0:
        raise CheckError("the loader audit did not hide libcjson.so.1")
    log.append("libcjson.so.1 hidden from the loader (ctypes.CDLL fails under LD_AUDIT)")
    log.append(run([py, "-c", IMPORT_CHECK, venv], env=env, cwd=empty).strip())
    log.append(run([venv / "bin" / "openbone", "--version"], env=env, cwd=empty).strip())
    log.append(run([venv / "bin" / "openbone", "selftest"], env=env, cwd=empty).strip().splitlines()[-1])
    if pytest:
        out = run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs", "openbone.selftest"],
                  env=env, cwd=empty)
        log.append("pytest --pyargs openbone.selftest: " + out.strip().splitlines()[-1])
    return "\n".join(log)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheel")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--numpy", default="link", help='"link" (this Python\'s NumPy) or a pip requirement')
    ap.add_argument("--pytest", action="store_true")
    ap.add_argument("--scripts", action="store_true", help="install quickjs-ng (openbone[scripts]) where it has a wheel")
    ap.add_argument("--work")
    a = ap.parse_args(argv)
    try:
        print(check(Path(a.wheel), a.python, a.numpy, a.pytest, Path(a.work) if a.work else None, a.scripts))
    except CheckError as e:
        print(f"check_wheel: {e}", file=sys.stderr)
        return 1
    print(f"check_wheel: {Path(a.wheel).name} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
