"""openbone/_core.pyi lists every name of the extension (regenerate with
`python tests/tools/gen_core_stubs.py` after adding a binding)."""
import re
from pathlib import Path

from openbone import _core

STUB = (Path(__file__).resolve().parents[1] / "openbone" / "_core.pyi").read_text()


def test_every_extension_name_is_stubbed():
    names = set(re.findall(r"def (\w+)|class (\w+)", STUB))
    declared = {a or b for a, b in names}
    missing = [n for n in dir(_core) if not n.startswith("__") and n not in declared and not n.startswith("_")]
    missing += [f"Instance.{n}" for n in vars(_core.Instance) if not n.startswith("__") and n not in declared]
    missing += [f"Document.{n}" for n in vars(_core.Document) if not n.startswith("__") and n not in declared]
    assert missing == []
