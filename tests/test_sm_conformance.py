"""The §9 state-machine conformance cases (issue 7): the expected file is the
independent oracle's output (tests/oracles/sm.py, never the runtime's), and the
runtime matches it within the §1 tolerances."""
import json
import os
import sys

from openbone import conformance

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from oracles import sm as sm_oracle  # noqa: E402


def test_expected_is_the_oracles_output():
    with open(sm_oracle.EXPECTED, encoding="utf-8") as f:
        assert f.read() == sm_oracle.dumps(sm_oracle.run_case_file(sm_oracle.CASES)), \
            "regenerate: python tests/oracles sm"


def test_runtime_matches_expected():
    actual, errored = conformance.run(sm_oracle.CASES)
    assert not errored
    with open(sm_oracle.EXPECTED, encoding="utf-8") as f:
        expected = json.load(f)
    assert conformance.compare(expected, json.loads(json.dumps(actual))) == []


def test_fixture_is_generated():
    # conformance/tools/make_sm_fixture.py writes the fixture; keep them in step
    path = os.path.join(os.path.dirname(sm_oracle.CASES), "..", "fixtures", "state-machine.obone")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["stateMachines"][0]["name"] == "character"
