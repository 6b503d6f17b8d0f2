"""The conformance suite that ships with openbone, and the helpers its runners share.

``openbone selftest`` (no pytest needed), ``pytest --pyargs openbone.selftest`` and the pytest
plugin (``pytest --openbone-cases DIR``, :mod:`openbone.pytest_plugin`) all run case files per
``../shared/conformance/FORMAT.md`` and compare every case with its expected samples at the §1
tolerances (:func:`openbone.conformance.compare`).  The bundled cases are the repository's
``conformance/`` directory, installed as ``openbone.selftest.suite``.
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

SHOWN = 20  # differences listed per failing case


def suite_dir() -> Path:
    """The bundled suite: ``cases/``, ``expected/``, ``fixtures/``."""
    from . import suite

    return Path(suite.__file__).resolve().parent


def is_case_file(path: Path) -> bool:
    """A FORMAT.md case file: a JSON object with ``document`` and a ``cases`` list."""
    if path.suffix != ".json" or path.name.endswith(".expected.json") or not path.is_file():
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "document" in data and isinstance(data.get("cases"), list) and \
        all(isinstance(c, dict) and "samples" not in c for c in data["cases"])


def cases_dir(directory: os.PathLike) -> Path:
    """``DIR`` itself, or ``DIR/cases`` when DIR is a suite root (cases/ + expected/)."""
    d = Path(directory)
    return d / "cases" if (d / "cases").is_dir() and (d / "expected").is_dir() else d


def case_files(directory: Optional[os.PathLike] = None) -> List[Path]:
    """Every case file of a directory (recursively), sorted; the bundled suite by default."""
    d = cases_dir(directory if directory is not None else suite_dir())
    return sorted(p for p in d.rglob("*.json") if is_case_file(p))


def expected_file(case_file: Path, expected_dir: Optional[os.PathLike] = None) -> Optional[Path]:
    """Where the expected samples of a case file are: ``EXPECTED_DIR/<name>``, else
    ``../expected/<name>`` beside the cases directory, else ``<stem>.expected.json`` beside it."""
    candidates = []
    if expected_dir is not None:
        candidates.append(Path(expected_dir) / case_file.name)
    candidates += [case_file.parent.parent / "expected" / case_file.name,
                   case_file.with_name(case_file.stem + ".expected.json")]
    return next((c for c in candidates if c.is_file()), None)


def needs_scripts(case_file: Path) -> bool:
    """Whether the case file's document has §11 scripts (openbone runs them with quickjs)."""
    try:
        doc = json.loads(case_file.read_text(encoding="utf-8"))["document"]
        return bool(json.loads((case_file.parent / doc).read_text(encoding="utf-8")).get("scripts"))
    except (OSError, ValueError, KeyError, TypeError):
        return False


def scripts_available() -> bool:
    from .. import scripting

    return scripting.AVAILABLE


class RunnerError(Exception):
    """The runner produced no sample file."""


def run_cases(case_file: Path, runner: Optional[str] = None, timeout: float = 600) -> Dict[str, Any]:
    """The sample file of a case file: openbone's own runner, or ``runner``, a shell command with
    ``{cases}`` and ``{out}`` placeholders (another port's ``conformance run``)."""
    if runner is None:
        from .. import conformance

        return conformance.run(str(case_file))[0]
    with tempfile.TemporaryDirectory(prefix="openbone-cases-") as tmp:
        out = Path(tmp) / "samples.json"
        cmd = runner.format(cases=shlex.quote(str(case_file)), out=shlex.quote(str(out)))
        try:
            r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RunnerError(f"the runner took longer than {timeout:g} s: {cmd}") from None
        if not out.exists():
            raise RunnerError(f"the runner wrote no sample file (exit {r.returncode}): {cmd}\n"
                              + (r.stderr or r.stdout)[-2000:])
        try:
            return json.loads(out.read_text(encoding="utf-8"))
        except ValueError as e:
            raise RunnerError(f"the runner's sample file is not JSON ({e}): {cmd}") from None


def compare_case(expected: Dict[str, Any], actual: Optional[Dict[str, Any]]) -> List[str]:
    """The differences of one case (expected and actual case objects), one line each."""
    from .. import conformance

    if actual is None:
        return [f"case {expected.get('name')}: missing from the actual samples"]
    if "error" in actual and "error" not in expected:
        return [f"case {expected.get('name')}: the runner reported an error: {actual['error']}"]
    return conformance.compare({"cases": [expected]}, {"cases": [actual]})


def format_diffs(name: str, diffs: Sequence[str]) -> str:
    """A readable report of a failing case: the first differences, then how many more."""
    lines = [f"case {name!r}: {len(diffs)} difference{'s' if len(diffs) != 1 else ''} "
             f"(§1 tolerances: bone x y 1e-3, a b c d 1e-4, colours 1/255, draw vertices 1e-3)"]
    lines += ["  " + d for d in diffs[:SHOWN]]
    if len(diffs) > SHOWN:
        lines.append(f"  ... and {len(diffs) - SHOWN} more")
    return "\n".join(lines)


def by_name(sample_file: Dict[str, Any]) -> Dict[Any, Dict[str, Any]]:
    return {c.get("name"): c for c in sample_file.get("cases", [])}


def check_file(case_file: Path, expected: Optional[Path] = None, runner: Optional[str] = None,
               timeout: float = 600) -> List[Tuple[str, Optional[str]]]:
    """(case name, failure report or None) for every case of a case file."""
    names = [c.get("name") for c in json.loads(case_file.read_text(encoding="utf-8"))["cases"]]
    expected = expected or expected_file(case_file)
    if expected is None:
        return [(n, f"no expected file for {case_file.name}") for n in names]
    exp = by_name(json.loads(expected.read_text(encoding="utf-8")))
    try:
        act = by_name(run_cases(case_file, runner, timeout))
    except RunnerError as e:
        return [(n, str(e)) for n in names]
    out = []
    for n in names:
        if n not in exp:
            out.append((n, f"case {n!r} is not in {expected}"))
            continue
        diffs = compare_case(exp[n], act.get(n))
        out.append((n, format_diffs(n, diffs) if diffs else None))
    return out


def main(argv: Optional[List[str]] = None, verbose: bool = False) -> int:
    """``openbone selftest``: every bundled case; exit 1 when one fails."""
    passed = failed = skipped = 0
    files = case_files()
    for cf in files:
        if needs_scripts(cf) and not scripts_available():
            n = len(json.loads(cf.read_text(encoding="utf-8"))["cases"])
            skipped += n
            print(f"{cf.stem}: {n} cases skipped (the §11 script host needs openbone[scripts])")
            continue
        for name, report in check_file(cf):
            if report is None:
                passed += 1
                if verbose:
                    print(f"{cf.stem}::{name} ok")
            else:
                failed += 1
                print(f"{cf.stem}::{name} FAILED\n{report}")
    from .._version import __version__

    print(f"openbone {__version__} selftest: {len(files)} case files in {suite_dir()}")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], verbose="-v" in sys.argv))
