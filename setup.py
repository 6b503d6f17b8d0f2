"""Build of openbone._core: every csrc/*.c, csrc/toon/*.c and csrc/python/*.c, C11, against NumPy
and the system cJSON found through pkg-config (Debian/Ubuntu: apt-get install libcjson-dev
pkg-config).  pkg-config runs only when the extension is compiled, so an sdist builds without
cJSON.  Binary wheels bundle libcjson through auditwheel (pyproject.toml [tool.cibuildwheel])."""
import glob
import os
import shutil
import subprocess
import sys

import setuptools
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

if int(setuptools.__version__.split(".")[0]) < 77:
    sys.exit(f"error: building openbone needs setuptools >= 77 (this is {setuptools.__version__}): "
             "pip install -U 'setuptools>=77', or build with build isolation (plain pip install .)")

CJSON_MISSING = (
    "openbone needs the cJSON C library and its headers to build from source.\n"
    "  Debian/Ubuntu: apt-get install libcjson-dev pkg-config\n"
    "  Fedora/RHEL (EPEL): dnf install cjson-devel pkgconf    Alpine: apk add cjson-dev pkgconf\n"
    "  macOS: brew install cjson pkg-config\n"
    "or install a binary wheel (pip install openbone), which bundles it."
)


def cjson_flags():
    """Compiler and linker flags of libcjson, from pkg-config (a clear error when missing)."""
    pkg_config = os.environ.get("PKG_CONFIG", "pkg-config")
    if shutil.which(pkg_config) is None:
        sys.exit(f"error: {pkg_config} not found.\n" + CJSON_MISSING)
    try:
        cflags = subprocess.check_output([pkg_config, "--cflags", "libcjson"], text=True).split()
        libs = subprocess.check_output([pkg_config, "--libs", "libcjson"], text=True).split()
    except subprocess.CalledProcessError:
        sys.exit("error: pkg-config cannot find libcjson.\n" + CJSON_MISSING)
    return cflags, libs


class BuildExt(build_ext):
    """Adds cJSON's and NumPy's flags when the extension is actually compiled."""

    def build_extensions(self):
        import numpy

        cflags, libs = cjson_flags()
        for ext in self.extensions:
            ext.include_dirs += [numpy.get_include()] + [f[2:] for f in cflags if f.startswith("-I")]
            ext.extra_compile_args += [f for f in cflags if not f.startswith("-I")]
            ext.extra_link_args = libs + ext.extra_link_args
        super().build_extensions()


def extension():
    sources = sorted(glob.glob("csrc/*.c")) + sorted(glob.glob("csrc/toon/*.c")) + sorted(glob.glob("csrc/python/*.c"))
    extra = ["-std=c11", "-Wall", "-Wextra", "-ffp-contract=off", "-fno-fast-math", "-fno-math-errno", "-O2"]
    extra += os.environ.get("OPENBONE_CFLAGS", "").split()
    return Extension(
        "openbone._core",
        sources=sources,
        include_dirs=["csrc", "csrc/include", "csrc/toon"],
        extra_compile_args=extra,
        extra_link_args=os.environ.get("OPENBONE_LDFLAGS", "").split(),
        define_macros=[("_POSIX_C_SOURCE", "200809L")],
    )


# Data directories of the repository shipped as packages: the example rigs and the conformance
# suite (cases, expected samples, fixtures), found by pattern so that new files ship unlisted.
MAPPED = {"openbone.examples": "examples", "openbone.selftest.suite": "conformance"}
DATA = {
    "": ["py.typed", "*.pyi"],
    "openbone.examples": ["*.obone", "*.obonb", "*.json", "*.atlas", "*.png", "*.skel", "**/*.obone",
                          "**/*.obonb", "**/*.json", "**/*.atlas", "**/*.png"],
    "openbone.selftest.suite": ["*.md", "cases/**/*.json", "expected/**/*.json", "fixtures/**/*"],
}

setup(
    packages=find_packages(include=["openbone", "openbone.*"]) + list(MAPPED),
    package_dir=MAPPED,
    package_data=DATA,
    exclude_package_data={"openbone.selftest.suite": ["tools/*"]},  # the suite's generators stay in the sdist
    ext_modules=[extension()],
    cmdclass={"build_ext": BuildExt},
)
