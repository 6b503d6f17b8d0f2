"""Packaging (issue 18): the sdist holds the source tree and builds without cJSON, the wheel built
from it is repaired into a manylinux wheel that bundles libcjson, and that wheel works in a fresh
venv with the system's libcjson hidden from the loader (tests/tools/check_wheel.py).  .ci/run
builds the wheels first and passes them in OPENBONE_WHEELHOUSE; alone, this file builds one."""
import email
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import openbone

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
NO_CJSON = {"PKG_CONFIG_LIBDIR": "/nonexistent", "PKG_CONFIG_PATH": ""}  # pkg-config finds no libcjson


def _env(**extra):
    env = dict(os.environ, **extra)
    env.pop("PYTHONPATH", None)
    return env


def _tracked():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return {p for p in out.splitlines() if (ROOT / p).is_file()}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    """`python -m build --sdist` of the checkout, with pkg-config unable to find libcjson."""
    pytest.importorskip("build", reason="the packaging tests need the build package (test extra)")
    import setuptools

    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(f"setuptools {setuptools.__version__} < 77 (the test extra asks for 77)")
    out = tmp_path_factory.mktemp("sdist")
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(out), str(ROOT)],
                       capture_output=True, text=True, env=_env(**NO_CJSON), timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (path,) = out.glob("openbone-*.tar.gz")
    return path


def test_sdist_holds_the_source_tree_and_no_build_output(sdist):
    with tarfile.open(sdist) as tar:
        top = f"openbone-{openbone.__version__}/"
        names = {m.name[len(top):] for m in tar.getmembers() if m.isfile()}
        binaries = [m.name for m in tar.getmembers() if m.isfile() and tar.extractfile(m).read(4) == b"\x7fELF"]
    missing = sorted(_tracked() - names)
    assert missing == []
    assert binaries == []
    for must in ("csrc/include/openbone.h", "csrc/earcut.h", "openbone/_core.pyi", "openbone/py.typed", "LICENSE",
                 "THIRD_PARTY_NOTICES.md", "CHANGELOG.md", "examples/sprout.png", "conformance/cases/ik.json",
                 "tests/data/earcut/LICENSE", "PKG-INFO"):
        assert must in names, must


def test_building_from_the_sdist_without_cjson_says_what_to_install(sdist, tmp_path):
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(tmp_path)
    (src,) = tmp_path.glob("openbone-*")
    r = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "-b", str(tmp_path / "b"), "-t", str(tmp_path / "t")],
                       cwd=src, capture_output=True, text=True, env=_env(**NO_CJSON), timeout=120)
    assert r.returncode != 0
    assert "pkg-config cannot find libcjson" in r.stderr and "apt-get install libcjson-dev pkg-config" in r.stderr
    assert "Traceback" not in r.stderr
    assert not list(tmp_path.glob("t/**/*.o"))  # stopped before compiling anything


def _wheelhouse_wheel():
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    house = os.environ.get("OPENBONE_WHEELHOUSE")
    if house:
        found = sorted(Path(house).glob(f"openbone-{openbone.__version__}-{tag}-{tag}-*manylinux*.whl"))
        assert found, f"no {tag} manylinux wheel in OPENBONE_WHEELHOUSE={house}"
        return found[-1]
    return None


@pytest.fixture(scope="module")
def repaired_wheel(sdist, tmp_path_factory):
    if not sys.platform.startswith("linux") or shutil.which("gcc") is None:
        pytest.skip("manylinux wheels: Linux with gcc")
    pytest.importorskip("auditwheel", reason="auditwheel (test extra) repairs the wheel")
    given = _wheelhouse_wheel()
    if given:
        return given
    if subprocess.run(["pkg-config", "--exists", "libcjson"]).returncode != 0:
        pytest.skip("building the wheel needs libcjson-dev")
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                        str(out / "raw"), str(sdist)], capture_output=True, text=True, env=_env(), timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (raw,) = (out / "raw").glob("*.whl")
    r = subprocess.run([sys.executable, "-m", "auditwheel", "repair", "-w", str(out / "house"), str(raw)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (wheel,) = (out / "house").glob("*manylinux*.whl")
    return wheel


def test_repaired_wheel_works_without_the_system_libcjson(repaired_wheel, tmp_path):
    import check_wheel

    try:
        log = check_wheel.check(repaired_wheel, numpy="link", work=tmp_path)
    except check_wheel.CheckError as e:
        pytest.fail(str(e), pytrace=False)
    assert "manylinux" in log and "0 failed" in log


def test_wheel_metadata(repaired_wheel):
    with zipfile.ZipFile(repaired_wheel) as z:
        info = f"openbone-{openbone.__version__}.dist-info/"
        meta = email.message_from_bytes(z.read(info + "METADATA"))
        entry_points = z.read(info + "entry_points.txt").decode()
        notices = z.read(info + "licenses/THIRD_PARTY_NOTICES.md").decode()
    assert meta["Version"] == openbone.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.10"
    classifiers = meta.get_all("Classifier")
    assert {f"Programming Language :: Python :: 3.{m}" for m in range(10, 14)} <= set(classifiers)
    assert any(u.startswith("Changelog, ") for u in meta.get_all("Project-URL"))
    assert any(r.startswith("numpy>=1.26") for r in meta.get_all("Requires-Dist"))
    assert "openbone = openbone.pytest_plugin" in entry_points and "openbone = openbone.cli:main" in entry_points
    assert "ISC License" in notices and "Dave Gamble" in notices


def test_one_version_everywhere():
    from openbone import _version

    assert openbone.__version__ == _version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", openbone.__version__)
    r = subprocess.run([sys.executable, "-m", "openbone", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == f"openbone {openbone.__version__}"
    assert f"## {openbone.__version__}" in (ROOT / "CHANGELOG.md").read_text()
    text = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in text and "\nversion =" not in text.split("[tool.setuptools.dynamic]")[0]


def test_supported_pythons_are_declared_as_tested():
    """requires-python and the classifiers say 3.10-3.13; .ci/run builds and checks a wheel on each."""
    text = (ROOT / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.10"' in text
    ci = (ROOT / ".ci" / "run").read_text()
    for minor in range(10, 14):
        assert f"3.{minor}" in ci
    assert "numpy==1.26" in ci


def test_unbuilt_checkout_says_how_to_build(tmp_path):
    shutil.copytree(ROOT / "openbone", tmp_path / "openbone", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "csrc").mkdir()
    # -S: no site-packages, so that no installed (or editable) openbone supplies the extension
    r = subprocess.run([sys.executable, "-S", "-c", "import openbone"], cwd=tmp_path, capture_output=True, text=True,
                       env=_env())
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()
    assert "openbone._core is not built: this looks like a source checkout" in r.stderr
    assert "pip install -e ." in r.stderr and "libcjson-dev" in r.stderr
    assert "circular import" not in last[-1] and "circular import" not in last[-3]


def test_no_stray_files_at_the_top_level():
    allowed = {"pyproject.toml", "setup.py", "README.md", "Makefile", "LICENSE", "THIRD_PARTY_NOTICES.md",
               "CHANGELOG.md", "MANIFEST.in", ".gitignore"}
    top = {p for p in _tracked() if "/" not in p}
    assert top <= allowed, top - allowed
    assert not (ROOT / "tools").exists()


def test_extension_suffix_matches_this_python():
    """The build is for the running interpreter (a wheel per Python, cp310-cp313)."""
    so = Path(openbone._core.__file__).name
    assert so.endswith(sysconfig.get_config_var("EXT_SUFFIX"))
