import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# Reference material the project does not redistribute (the Spine example rigs, their assets and
# goldens): OPENBONE_REFERENCE=DIR, else ../shared/reference beside the checkout.  What the project
# may redistribute (earcut's reference outputs) is in tests/data/ instead and never skips.
REFERENCE = Path(os.environ.get("OPENBONE_REFERENCE") or (SHARED / "reference"))
# OPENBONE_REQUIRE_REFERENCE=1 (set by .ci/run) turns a missing reference into a failure, so that a
# CI run cannot silently lose the Spine checks.
REQUIRE_REFERENCE = os.environ.get("OPENBONE_REQUIRE_REFERENCE") == "1"
DATA = ROOT / "tests" / "data"


def reference(*parts) -> Path:
    """A path under the reference directory; the test is skipped (one clear reason) when absent,
    or fails when OPENBONE_REQUIRE_REFERENCE=1."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        msg = f"reference material not found: {path} (set OPENBONE_REFERENCE=DIR)"
        if REQUIRE_REFERENCE:
            pytest.fail(msg + " and OPENBONE_REQUIRE_REFERENCE=1", pytrace=False)
        pytest.skip(msg)
    return path


def has_cpu_flag(flag: str) -> bool:
    """Whether this CPU lists flag in /proc/cpuinfo (the width tests build an AVX2 or FMA
    variant only then)."""
    try:
        with open("/proc/cpuinfo") as f:
            return f" {flag}" in f.read()
    except OSError:
        return False


def has_avx2() -> bool:
    return has_cpu_flag("avx2")


def make_doc(skeleton=None, **extra):
    """A minimal valid document dict with the given skeleton parts."""
    d = {"format": "openbone", "version": 1, "name": "t", "width": 100, "height": 100, "fps": 30,
         "skeleton": {"bones": [], "slots": [], "skins": [{"id": "skin_default", "name": "default", "attachments": {}}]}}
    if skeleton:
        d["skeleton"].update(skeleton)
    d.update(extra)
    return d


@pytest.fixture
def loads_dict():
    import openbone

    def _loads(d):
        return openbone.loads(json.dumps(d))
    return _loads
