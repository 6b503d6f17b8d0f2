"""Build of openbone._core: every csrc/*.c and csrc/python/*.c, C11, against
NumPy and the system cJSON (Debian/Ubuntu: apt-get install libcjson-dev pkg-config)."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def cjson_flags():
    """Compiler and linker flags of libcjson, from pkg-config."""
    missing = (
        "openbone needs the cJSON C library and its headers.\n"
        "  Debian/Ubuntu: apt-get install libcjson-dev pkg-config\n"
        "  Fedora: dnf install cjson-devel pkgconf    macOS: brew install cjson pkg-config"
    )
    if shutil.which("pkg-config") is None:
        sys.exit("error: pkg-config not found.\n" + missing)
    try:
        cflags = subprocess.check_output(["pkg-config", "--cflags", "libcjson"], text=True).split()
        libs = subprocess.check_output(["pkg-config", "--libs", "libcjson"], text=True).split()
    except subprocess.CalledProcessError:
        sys.exit("error: pkg-config cannot find libcjson.\n" + missing)
    return cflags, libs


class LazyNumpyInclude(os.PathLike):
    """numpy's include dir, resolved when the build runs (numpy is a build dependency)."""

    def __fspath__(self):
        import numpy

        return numpy.get_include()

    def __str__(self):
        return self.__fspath__()


def extension():
    cflags, libs = cjson_flags()
    sources = sorted(glob.glob("csrc/*.c")) + sorted(glob.glob("csrc/toon/*.c")) + sorted(glob.glob("csrc/python/*.c"))
    extra = ["-std=c11", "-Wall", "-Wextra", "-ffp-contract=off", "-fno-fast-math", "-fno-math-errno", "-O2"]
    extra += os.environ.get("OPENBONE_CFLAGS", "").split()
    return Extension(
        "openbone._core",
        sources=sources,
        include_dirs=["csrc", "csrc/include", "csrc/toon", str(LazyNumpyInclude())]
        + [f[2:] for f in cflags if f.startswith("-I")],
        extra_compile_args=extra + [f for f in cflags if not f.startswith("-I")],
        extra_link_args=libs + os.environ.get("OPENBONE_LDFLAGS", "").split(),
        libraries=[],
        define_macros=[("_POSIX_C_SOURCE", "200809L")],
    )


setup(ext_modules=[extension()])
