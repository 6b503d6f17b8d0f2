"""pytest plugin (registered as the ``pytest11`` entry point ``openbone``): conformance case files
as test items, one per case.

    pytest --openbone-cases DIR                        # openbone runs every case file of DIR
    pytest --openbone-cases DIR --openbone-runner "myport conformance run {cases} -o {out}"
    pytest --openbone-cases DIR --openbone-expected EXPECTED_DIR

A case file is what ``../shared/conformance/FORMAT.md`` describes (``document`` + ``cases``); DIR may
also be a suite root holding ``cases/`` and ``expected/``.  Each case is compared with its expected
file (``EXPECTED_DIR/<name>``, ``../expected/<name>`` or ``<stem>.expected.json``) at the §1
tolerances by :func:`openbone.conformance.compare`; a failure lists the case, step, path and both
values.  ``--openbone-runner`` runs another port instead (a shell command; ``{cases}`` and ``{out}``
are replaced by the case file and the sample file it must write).  Without positional paths only
the cases are collected.  ``pytest --pyargs openbone.selftest`` runs the suite bundled with the
package.  The module imports nothing of openbone until cases are collected.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("openbone", "OpenBone conformance cases (FORMAT.md)")
    group.addoption("--openbone-cases", action="append", default=[], metavar="DIR",
                    help="collect every conformance case file of DIR, one test per case (repeatable)")
    group.addoption("--openbone-expected", default=None, metavar="DIR",
                    help="directory of the expected sample files (default: ../expected beside the cases)")
    group.addoption("--openbone-runner", default=None, metavar="CMD",
                    help='check another runtime: a shell command with {cases} and {out}, '
                         'e.g. "myport conformance run {cases} -o {out}"')
    group.addoption("--openbone-timeout", type=float, default=600, metavar="SECONDS",
                    help="time limit of one --openbone-runner call (default 600)")


def _dirs(config):
    return [Path(d).resolve() for d in config.getoption("openbone_cases") or []]


def pytest_configure(config):
    dirs = _dirs(config)
    for d in dirs:
        if not d.is_dir():
            raise pytest.UsageError(f"--openbone-cases {d}: not a directory")
    if not dirs:
        return
    from openbone import selftest

    roots = [str(selftest.cases_dir(d)) for d in dirs]
    source = getattr(config, "args_source", None)
    explicit = source is not None and source.name == "ARGS"
    # no paths on the command line: collect the cases only (not testpaths or the current directory)
    config.args[:] = (list(config.args) if explicit else []) + roots


def pytest_collect_file(file_path, parent):
    dirs = _dirs(parent.config)
    if not dirs or file_path.suffix != ".json":
        return None
    from openbone import selftest

    roots = [selftest.cases_dir(d) for d in dirs]
    if not any(r == file_path or r in file_path.parents for r in roots) or not selftest.is_case_file(file_path):
        return None
    return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    """One case file: runs it once (openbone or --openbone-runner) and yields one item per case."""

    def collect(self):
        data = json.loads(self.path.read_text(encoding="utf-8"))
        for case in data.get("cases", []):
            yield CaseItem.from_parent(self, name=str(case.get("name")), case_name=case.get("name"))

    def results(self):
        """{case name: failure report or None}, computed on first use."""
        if not hasattr(self, "_results"):
            from openbone import selftest

            config = self.config
            runner = config.getoption("openbone_runner")
            expected_dir = config.getoption("openbone_expected")
            expected = selftest.expected_file(self.path, expected_dir)
            if runner is None and selftest.needs_scripts(self.path) and not selftest.scripts_available():
                self._results = None  # skipped: openbone's script host is an extra
            elif expected is None:
                self._results = {c: f"no expected file for {self.path.name} (looked in "
                                    f"{expected_dir or self.path.parent.parent / 'expected'})"
                                 for c in self._names()}
            else:
                self._results = dict(selftest.check_file(self.path, expected, runner,
                                                         config.getoption("openbone_timeout")))
        return self._results

    def _names(self):
        return [c.get("name") for c in json.loads(self.path.read_text(encoding="utf-8")).get("cases", [])]


class CaseFailure(Exception):
    pass


class CaseItem(pytest.Item):
    def __init__(self, *, case_name, **kw):
        super().__init__(**kw)
        self.case_name = case_name

    def runtest(self):
        results = self.parent.results()
        if results is None:
            pytest.skip("the §11 script host is the optional extra openbone[scripts] (quickjs)")
        report = results.get(self.case_name)
        if report is not None:
            raise CaseFailure(f"{self.path.name}: {report}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, self.name
