"""The pytest plugin (issue 18.7): `pytest --openbone-cases DIR` makes one test item per case of
every FORMAT.md case file of DIR, compared with its expected file at the §1 tolerances, with a
readable diff; `--openbone-runner` checks another port's output; `pytest --pyargs
openbone.selftest` runs the bundled suite.  Runs pytest in subprocesses (the plugin is loaded
through its pytest11 entry point, as a user gets it)."""
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
pytest_plugins = ["pytester"]


def suite(tmp, names=("ik", "rigging-setup")):
    """A small suite root: cases/, expected/, fixtures/ (the cases point at ../fixtures)."""
    for sub in ("cases", "expected", "fixtures"):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
    for n in names:
        shutil.copy(SUITE / "cases" / f"{n}.json", tmp / "cases")
        shutil.copy(SUITE / "expected" / f"{n}.json", tmp / "expected")
        doc = json.loads((SUITE / "cases" / f"{n}.json").read_text())["document"]
        shutil.copy(SUITE / "cases" / doc, tmp / "fixtures")
    return tmp


def n_cases(d):
    return sum(len(json.loads(p.read_text())["cases"]) for p in (d / "cases").glob("*.json"))


def test_registered_as_a_pytest11_entry_point():
    eps = metadata.entry_points(group="pytest11")
    assert any(ep.name == "openbone" and ep.value == "openbone.pytest_plugin" for ep in eps)


def test_one_item_per_case_and_all_pass(pytester):
    d = suite(pytester.path / "suite")
    pytester.makepyfile(test_other="def test_not_collected(): pass")
    r = pytester.runpytest_subprocess("--openbone-cases", str(d / "cases"), "-v")
    r.assert_outcomes(passed=n_cases(d))
    r.stdout.fnmatch_lines(["*ik.json::setup PASSED*", "*rigging-setup.json::*PASSED*"])
    assert "test_not_collected" not in r.stdout.str()  # only the cases without positional paths
    # the suite root works too, and positional paths are collected beside the cases
    r = pytester.runpytest_subprocess("--openbone-cases", str(d), "test_other.py")
    r.assert_outcomes(passed=n_cases(d) + 1)


def test_a_difference_is_reported_readably(pytester):
    d = suite(pytester.path / "suite", names=("ik",))
    exp = json.loads((d / "expected" / "ik.json").read_text())
    exp["cases"][1]["samples"][3]["bones"][1]["x"] += 0.01
    exp["cases"][1]["samples"][4]["bones"][1]["a"] += 0.00005  # within the 1e-4 tolerance
    (d / "expected" / "ik.json").write_text(json.dumps(exp))
    r = pytester.runpytest_subprocess("--openbone-cases", str(d / "cases"))
    r.assert_outcomes(passed=n_cases(d) - 1, failed=1)
    name = exp["cases"][1]["name"]
    r.stdout.fnmatch_lines([f"*_ {name} _*", f"ik.json: case '{name}': 1 difference (§1 tolerances*",
                            f"  case {name} step 4: bones[[]1].x: expected -39.99, got -40"])
    assert "Traceback" not in r.stdout.str()


def test_another_ports_runner(pytester):
    d = suite(pytester.path / "suite", names=("ik",))
    good = f"{sys.executable} -m openbone conformance run {{cases}} -o {{out}}"
    r = pytester.runpytest_subprocess("--openbone-cases", str(d / "cases"), "--openbone-runner", good)
    r.assert_outcomes(passed=n_cases(d))
    # a "port" that gets one bone wrong in every sample
    port = pytester.path / "port.py"
    port.write_text(
        "import json, subprocess, sys\n"
        f"subprocess.run([{sys.executable!r}, '-m', 'openbone', 'conformance', 'run', sys.argv[1], '-o', sys.argv[2]])\n"
        "d = json.load(open(sys.argv[2]))\n"
        "for c in d['cases']:\n"
        "    for s in c['samples']:\n"
        "        s['bones'][0]['y'] += 1\n"
        "json.dump(d, open(sys.argv[2], 'w'))\n")
    r = pytester.runpytest_subprocess("--openbone-cases", str(d / "cases"), "--openbone-runner",
                                      f"{sys.executable} {port} {{cases}} {{out}}")
    r.assert_outcomes(failed=n_cases(d))
    r.stdout.fnmatch_lines(["*bones[[]0].y: expected *, got *"])
    r = pytester.runpytest_subprocess("--openbone-cases", str(d / "cases"), "--openbone-runner", "false {cases} {out}")
    r.assert_outcomes(failed=n_cases(d))
    r.stdout.fnmatch_lines(["*the runner wrote no sample file (exit 1): false *"])


def test_missing_expected_file_fails_each_case(pytester):
    d = suite(pytester.path / "suite", names=("ik",))
    (d / "expected" / "ik.json").unlink()
    r = pytester.runpytest_subprocess("--openbone-cases", str(d / "cases"))
    r.assert_outcomes(failed=n_cases(d))
    r.stdout.fnmatch_lines(["*no expected file for ik.json*"])


def test_bad_directory_is_a_usage_error(pytester):
    r = pytester.runpytest_subprocess("--openbone-cases", str(pytester.path / "nope"))
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*--openbone-cases *nope: not a directory*"])


def test_without_the_option_nothing_changes(pytester):
    suite(pytester.path / "suite", names=("ik",))
    pytester.makepyfile(test_x="def test_x(): pass")
    pytester.runpytest_subprocess().assert_outcomes(passed=1)


def test_pyargs_selftest_runs_the_bundled_suite(pytester):
    from openbone import selftest

    total = sum(len(json.loads(p.read_text())["cases"]) for p in selftest.case_files())
    assert total == n_cases(SUITE)  # the bundled suite is the repository's conformance/
    r = pytester.runpytest_subprocess("--pyargs", "openbone.selftest", "-p", "no:cacheprovider")
    outcomes = r.parseoutcomes()
    assert r.ret == 0 and outcomes.get("failed", 0) == 0
    assert outcomes.get("passed", 0) + outcomes.get("skipped", 0) == total + 1


def test_openbone_selftest_command():
    import subprocess

    r = subprocess.run([sys.executable, "-m", "openbone", "selftest"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    assert r.stdout.strip().splitlines()[-1].endswith("0 failed") or ", 0 failed," in r.stdout
