"""Every case file of conformance/cases runs through `openbone conformance run`
and matches its expected samples within the §1 tolerances.  The expected files
come from independent oracles (tests/oracles/) and hand checks, listed in
conformance/README.md."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from openbone import conformance

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted((ROOT / "conformance" / "cases").glob("*.json"))


def test_every_case_file_has_an_expected_file():
    assert CASES
    for c in CASES:
        assert (ROOT / "conformance" / "expected" / c.name).exists(), c.name


def needs_scripts(cases):
    doc = json.loads(cases.read_text())["document"]
    return bool(json.loads((cases.parent / doc).read_text()).get("scripts"))


@pytest.mark.parametrize("cases", CASES, ids=[c.stem for c in CASES])
def test_case_file_matches_expected(cases):
    if needs_scripts(cases):
        from openbone import scripting
        if not scripting.AVAILABLE:
            pytest.skip("the §11 script host is the optional extra openbone[scripts] (quickjs-ng)")
    out, errored = conformance.run(str(cases))
    assert not errored, [c for c in out["cases"] if "error" in c]
    expected = json.loads((ROOT / "conformance" / "expected" / cases.name).read_text())
    assert conformance.compare(expected, out) == []


def test_cli_run_and_compare_exit_codes(tmp_path):
    cases = ROOT / "conformance" / "cases" / "rigging-setup.json"
    out = tmp_path / "out.json"
    r = subprocess.run([sys.executable, "-m", "openbone", "conformance", "run", str(cases), "-o", str(out)])
    assert r.returncode == 0
    expected = ROOT / "conformance" / "expected" / "rigging-setup.json"
    r = subprocess.run([sys.executable, "-m", "openbone", "conformance", "compare", str(expected), str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0
    # a changed number beyond its tolerance is reported with case, step, path and both values
    data = json.loads(out.read_text())
    data["cases"][0]["samples"][0]["bones"][1]["x"] += 0.01
    out.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "openbone", "conformance", "compare", str(expected), str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert "case setup/none step 0: bones[1].x: expected" in r.stdout


def test_compare_tolerances_follow_section_1():
    def sample(**kw):
        s = {"step": 1, "time": 0, "bones": [{"name": "b", "x": 0, "y": 0, "a": 1, "b": 0, "c": 0, "d": 1}],
             "slots": [], "draw": [], "events": [], "audio": [], "states": []}
        s.update(kw)
        return {"cases": [{"name": "c", "samples": [s]}]}
    base = sample()
    # bone x within 1e-3 passes, beyond fails; a..d have 1e-4
    near = sample(bones=[{"name": "b", "x": 0.0009, "y": 0, "a": 1.00009, "b": 0, "c": 0, "d": 1}])
    far = sample(bones=[{"name": "b", "x": 0.0011, "y": 0, "a": 1.0002, "b": 0, "c": 0, "d": 1}])
    assert conformance.compare(base, near) == []
    assert len(conformance.compare(base, far)) == 2
    # particle vertices get 1e-2, other draw vertices 1e-3; names are exact
    item = {"slot": "s", "type": "particles", "vertices": [0.0]}
    assert conformance.compare(sample(draw=[item]), sample(draw=[dict(item, vertices=[0.009])])) == []
    item = dict(item, type="region")
    assert len(conformance.compare(sample(draw=[item]), sample(draw=[dict(item, vertices=[0.009])]))) == 1
    assert len(conformance.compare(sample(states=["idle"]), sample(states=["walk"]))) == 1


def test_js_round4_is_math_round():
    # Math.round(x·1e4)/1e4: ties go up (towards +infinity), -0 becomes 0
    assert conformance.js_round4(0.00005) == 0.0001
    assert conformance.js_round4(-0.00005) == 0.0
    assert conformance.js_round4(-0.00015) == -0.0001
    assert conformance.js_round4(0.49999999999999994 / 1e4) == 0.0
