"""The §7 constraint conformance cases (issue 4): the expected files are the
independent oracle's output (tests/oracles/constraint.py, never the runtime's),
and the runtime matches them within the §1 tolerances."""
import json
import os
import sys

import pytest

from openbone import conformance

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from oracles import constraint as constraint_oracle  # noqa: E402
from oracles.common import expected_path  # noqa: E402
from oracles import base as oracle  # noqa: E402

NAMES = ["ik", "transform", "path", "physics", "rigging-constraints"]


def case_file(name):
    return os.path.join(REPO, "conformance", "cases", name + ".json")


@pytest.mark.parametrize("name", NAMES)
def test_expected_is_the_oracles_output(name):
    text = oracle.dumps_samples(constraint_oracle.run_case_file(case_file(name)))
    with open(expected_path(case_file(name)), encoding="utf-8") as f:
        assert f.read() == text, "regenerate: python tests/oracles constraint " + case_file(name)


@pytest.mark.parametrize("name", NAMES)
def test_runtime_matches_expected(name):
    actual, errored = conformance.run(case_file(name))
    assert not errored
    with open(expected_path(case_file(name)), encoding="utf-8") as f:
        expected = json.load(f)
    assert conformance.compare(expected, json.loads(json.dumps(actual))) == []


def test_rigging_constraints_keeps_rigging_bones():
    """rigging-constraints.obone is rigging.obone plus constraints and two bones."""
    with open(os.path.join(REPO, "conformance", "fixtures", "rigging.obone"), encoding="utf-8") as f:
        base = json.load(f)
    with open(os.path.join(REPO, "conformance", "fixtures", "rigging-constraints.obone"), encoding="utf-8") as f:
        ext = json.load(f)
    assert ext["skeleton"]["bones"][:len(base["skeleton"]["bones"])] == base["skeleton"]["bones"]
    assert ext["skeleton"]["slots"] == base["skeleton"]["slots"]


def test_skin_constraints_toggle_in_the_hero_case():
    """In steps/hero-villain-hero the hero-only physics freezes while the villain
    skin is on (weapon then shows its plain pose) and resumes afterwards."""
    with open(expected_path(case_file("rigging-constraints")), encoding="utf-8") as f:
        exp = json.load(f)
    case = next(c for c in exp["cases"] if c["name"] == "steps/hero-villain-hero")
    weapon = [next(b for b in s["bones"] if b["name"] == "weapon") for s in case["samples"]]
    villain = weapon[15:21]  # steps 16-21 run with the villain skin
    assert all(w == villain[0] for w in villain)
    assert weapon[21] != villain[0]
