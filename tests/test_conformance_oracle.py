"""Guards conformance/expected/*.json against hand edits, and the oracle's rounding.

For every case file under conformance/cases/ that the independent oracle can run (setup
cases and step cases with no animation, setSkin actions only, documents without
constraints), the oracle's samples must equal the expected file exactly.  Regenerate
with ``python conformance/tools/make_expected.py`` after changing a case or fixture.
"""

import glob
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from oracles import base as oracle  # noqa: E402
from oracles import common  # noqa: E402

CASES = sorted(glob.glob(os.path.join(REPO, "conformance", "cases", "*.json")))
SUPPORTED = [p for p in CASES if oracle.case_file_supported(p) is None]


def test_rigging_setup_is_covered():
    assert os.path.join(REPO, "conformance", "cases", "rigging-setup.json") in SUPPORTED


@pytest.mark.parametrize("case_file", SUPPORTED, ids=os.path.basename)
def test_expected_matches_oracle(case_file):
    expected_file = os.path.join(REPO, "conformance", "expected", os.path.basename(case_file))
    assert os.path.exists(expected_file), "run conformance/tools/make_expected.py"
    with open(expected_file, encoding="utf-8") as f:
        expected = json.load(f)
    produced = oracle.run_case_file(case_file)
    # Compare through JSON so ints/floats are treated alike.
    produced = json.loads(json.dumps(produced))
    assert expected["document"] == produced["document"]
    assert [c["name"] for c in expected["cases"]] == [c["name"] for c in produced["cases"]]
    for ce, cp in zip(expected["cases"], produced["cases"]):
        assert len(ce["samples"]) == len(cp["samples"]), ce["name"]
        for se, sp in zip(ce["samples"], cp["samples"]):
            assert se == sp, "%s step %s differs from the oracle" % (ce["name"], se["step"])


@pytest.mark.parametrize("case_file", SUPPORTED, ids=os.path.basename)
def test_expected_file_text_is_generated(case_file):
    expected_file = os.path.join(REPO, "conformance", "expected", os.path.basename(case_file))
    with open(expected_file, encoding="utf-8") as f:
        text = f.read()
    assert text == oracle.dumps_samples(oracle.run_case_file(case_file))


def test_expected_sample_shape():
    """FORMAT.md: every sample has the same keys; bones in document order; -0 never written."""
    with open(os.path.join(REPO, "conformance", "expected", "rigging-setup.json")) as f:
        expected = json.load(f)
    with open(os.path.join(REPO, "conformance", "fixtures", "rigging.obone")) as f:
        doc = json.load(f)
    bone_names = [b["name"] for b in doc["skeleton"]["bones"]]
    slot_bones = {b["id"] for b in doc["skeleton"]["bones"]}
    slot_names = [s["name"] for s in doc["skeleton"]["slots"] if s["bone"] in slot_bones]
    assert expected["document"] == "../fixtures/rigging.obone"
    for case in expected["cases"]:
        for s in case["samples"]:
            assert list(s.keys()) == ["step", "time", "bones", "slots", "draw", "events", "audio", "states"]
            assert [b["name"] for b in s["bones"]] == bone_names
            assert [x["name"] for x in s["slots"]] == slot_names
            for b in s["bones"]:
                assert list(b.keys()) == ["name", "x", "y", "a", "b", "c", "d"]
            for x in s["slots"]:
                assert list(x.keys()) == ["name", "attachment", "color", "dark"]
    assert "-0" not in json.dumps(expected).replace("-0.", "")


# ---------------------------------------------------------------------------
# JavaScript rounding (spec §1, §12; FORMAT.md): Math.round rounds halves up.
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("x, want", [
    (0.5, 1.0), (1.5, 2.0), (2.5, 3.0), (-0.5, 0.0), (-1.5, -1.0), (-2.5, -2.0),
    (0.49999999999999994, 0.0),   # floor(x + 0.5) would give 1
    (-0.49999999999999994, 0.0), (4503599627370497.0, 4503599627370497.0),
    (0.4, 0.0), (-0.6, -1.0), (1e300, 1e300),
])
def test_js_round(x, want):
    assert common.js_round(x) == want


def test_js_round_keeps_negative_zero_and_round4_drops_it():
    import math
    assert math.copysign(1.0, common.js_round(-0.3)) == -1.0
    assert math.copysign(1.0, common.round4(-0.00003)) == 1.0
    assert common.round4(-0.00003) == 0.0


@pytest.mark.parametrize("x, want", [
    (0.00005, 0.0001),            # 0.5 exactly after scaling -> up
    (-0.00005, 0.0),              # -0.5 -> -0 -> 0
    (0.53333333333333333, 0.5333),
    (128 / 255, 0.502),
    (1.23456, 1.2346),
    (-1.23455, -1.2345),          # -12345.5 (as computed) rounds up, towards +infinity
])
def test_round4(x, want):
    assert common.round4(x) == want
