#!/usr/bin/env python3
"""Regenerate conformance/expected/<case-file>.json from the independent oracle.

    python conformance/tools/make_expected.py                      # every case file the oracle supports
    python conformance/tools/make_expected.py conformance/cases/rigging-setup.json
    python conformance/tools/make_expected.py --check ...          # exit 1 if a file would change

The oracle (tests/oracles/base.py) is written from the specification only; it covers setup
poses and step cases with no animation (setSkin actions only).  Case files that need
more (animations, constraints, state machines, ...) are skipped with a message when
no file is named, and are an error when named explicitly.
"""

import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.dirname(HERE)
REPO = os.path.dirname(CONFORMANCE)
sys.path.insert(0, os.path.join(REPO, "tests"))

from oracles import base as oracle  # noqa: E402


def expected_path(case_path):
    return os.path.join(CONFORMANCE, "expected", os.path.basename(case_path))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="case files (default: every supported file in conformance/cases)")
    ap.add_argument("--check", action="store_true", help="do not write; fail if an expected file differs")
    ap.add_argument("-o", "--output", help="write here instead of conformance/expected/<name> (one case file only)")
    args = ap.parse_args(argv)

    explicit = bool(args.cases)
    paths = args.cases or sorted(glob.glob(os.path.join(CONFORMANCE, "cases", "*.json")))
    if args.output and len(paths) != 1:
        ap.error("-o needs exactly one case file")
    status = 0
    for path in paths:
        why = oracle.case_file_supported(path)
        if why:
            msg = "%s: not supported by the oracle (%s)" % (os.path.relpath(path), why)
            if explicit:
                print("error: " + msg, file=sys.stderr)
                status = 1
            else:
                print("skip: " + msg)
            continue
        text = oracle.dumps_samples(oracle.run_case_file(path))
        out = args.output or expected_path(path)
        if args.check:
            old = open(out, encoding="utf-8").read() if os.path.exists(out) else None
            if old != text:
                print("differs: %s" % os.path.relpath(out))
                status = 1
            else:
                print("ok: %s" % os.path.relpath(out))
            continue
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % os.path.relpath(out))
    return status


if __name__ == "__main__":
    sys.exit(main())
