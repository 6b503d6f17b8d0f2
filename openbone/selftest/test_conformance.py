"""``pytest --pyargs openbone.selftest``: the bundled conformance suite, one test per case."""
import functools
import json

import pytest

from openbone import selftest

FILES = selftest.case_files()
CASES = [(f, c.get("name")) for f in FILES for c in json.loads(f.read_text(encoding="utf-8"))["cases"]]


@functools.lru_cache(maxsize=None)
def _checked(case_file):
    return dict(selftest.check_file(case_file))


def test_the_suite_is_bundled():
    assert FILES, f"no case files in {selftest.suite_dir()}"


@pytest.mark.parametrize("case_file, name", CASES, ids=[f"{f.stem}::{n}" for f, n in CASES])
def test_case(case_file, name):
    if selftest.needs_scripts(case_file) and not selftest.scripts_available():
        pytest.skip("the §11 script host is the optional extra openbone[scripts] (quickjs)")
    report = _checked(case_file)[name]
    if report is not None:
        pytest.fail(report, pytrace=False)
