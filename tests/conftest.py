import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


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
