import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# Reference material the project does not redistribute (the Spine example rigs, their assets and
# goldens): OPENBONE_REFERENCE=DIR, else ../shared/reference beside the checkout.
REFERENCE = Path(os.environ.get("OPENBONE_REFERENCE") or (SHARED / "reference"))


def reference(*parts) -> Path:
    """A path under the reference directory; the test is skipped (one clear reason) when absent."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference material not found: {path} (set OPENBONE_REFERENCE=DIR)")
    return path


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
