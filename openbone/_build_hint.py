"""The message when ``openbone._core`` (the C extension) is missing or does not load."""
from pathlib import Path


def core_import_error(error: ImportError) -> ImportError:
    here = Path(__file__).resolve().parent
    built = sorted(p.name for p in here.glob("_core*") if p.suffix in (".so", ".pyd"))
    checkout = (here.parent / "setup.py").exists() and (here.parent / "csrc").is_dir()
    if not built:
        where = f"this looks like a source checkout ({here.parent})" if checkout else f"in {here}"
        return ImportError(
            f"openbone's C extension openbone._core is not built: {where}.\n"
            "Build it from the checkout with  pip install -e .  (it needs a C compiler, pkg-config and "
            "the cJSON headers: apt-get install libcjson-dev pkg-config), or install a wheel with  "
            "pip install openbone.", name="openbone._core")
    return ImportError(
        f"openbone's C extension {built[0]} does not load: {error}\n"
        "Rebuild it for this Python (pip install -e . in a checkout, or reinstall openbone); a "
        "missing libcjson.so means the system cJSON library is not installed (apt-get install "
        "libcjson1).", name="openbone._core")
