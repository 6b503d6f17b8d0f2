"""The `openbone` command line (also `python -m openbone`).

Exit codes: 0 success, 1 the command ran and found a problem (differences,
broken references, a case that errored), 2 bad usage or unreadable input.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from . import conformance
from .document import OpenBoneError, dumps, load


def _fail(msg: str, code: int = 2) -> int:
    print(f"openbone: error: {msg}", file=sys.stderr)
    return code


def cmd_conformance_run(args) -> int:
    try:
        out, errored = conformance.run(args.cases)
    except (OSError, ValueError, KeyError) as e:
        return _fail(f"{args.cases}: {e}")
    text = json.dumps(out, indent=1 if args.pretty else None, separators=None if args.pretty else (",", ":"))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    for c in out["cases"]:
        if "error" in c:
            print(f"openbone: case {c['name']}: {c['error']}", file=sys.stderr)
    return 1 if errored else 0


def cmd_conformance_compare(args) -> int:
    try:
        with open(args.expected, encoding="utf-8") as f:
            expected = json.load(f)
        with open(args.actual, encoding="utf-8") as f:
            actual = json.load(f)
    except (OSError, ValueError) as e:
        return _fail(str(e))
    diffs = conformance.compare(expected, actual)
    for d in diffs:
        print(d)
    n_cases = len(expected.get("cases", []))
    if diffs:
        print(f"{len(diffs)} differences in {n_cases} cases", file=sys.stderr)
        return 1
    print(f"all {n_cases} cases match", file=sys.stderr)
    return 0


def cmd_info(args) -> int:
    try:
        doc = load(args.rig)
    except (OSError, OpenBoneError) as e:
        return _fail(f"{args.rig}: {e}")
    kinds = {}
    for c in doc.constraints:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    print(f"{doc.name or args.rig}: {doc.width:g}x{doc.height:g}, fps {doc.fps:g}")
    print(f"  bones: {len(doc.bones)}   slots: {len(doc.slots)}   skins: {', '.join(s.name for s in doc.skins) or '-'}")
    print("  animations: " + (", ".join(f"{a.name} ({a.length:g}s)" for a in doc.animations) or "-"))
    print("  constraints: " + (", ".join(f"{k} {n}" for k, n in kinds.items()) or "-"))
    print("  state machines: " + (", ".join(m.name for m in doc.state_machines) or "-"))
    print(f"  images: {len(doc.images)}   atlas pages: {doc.meta['pages']}")
    for w in doc.warnings:
        print(f"  warning: {w}")
    return 0


def cmd_validate(args) -> int:
    reports = []
    worst = 0
    for rig in args.rigs:
        try:
            doc = load(rig)
            reports.append({"file": rig, "ok": True, "error": None, "warnings": doc.warnings})
        except (OSError, OpenBoneError) as e:
            reports.append({"file": rig, "ok": False, "error": str(e), "warnings": []})
            worst = 1
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        for r in reports:
            print(f"{r['file']}: {'ok' if r['ok'] else 'error: ' + r['error']}")
            for w in r["warnings"]:
                print(f"  warning: {w}")
    return worst


def cmd_convert(args) -> int:
    try:
        doc = load(args.input)
    except (OSError, OpenBoneError) as e:
        return _fail(f"{args.input}: {e}")
    binary = args.output.endswith(".obonb")
    data = dumps(doc, binary=binary, indent=None if args.compact else 2)
    try:
        if binary:
            with open(args.output, "wb") as f:
                f.write(data)
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(data + "\n")
    except OSError as e:
        return _fail(str(e))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="openbone", description="OpenBone runtime tools.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    c = sub.add_parser("conformance", help="run and compare conformance cases (FORMAT.md)")
    csub = c.add_subparsers(dest="action", metavar="ACTION")
    csub.required = True
    r = csub.add_parser("run", help="run every case of a case file and write the samples")
    r.add_argument("cases", help="case file (JSON)")
    r.add_argument("-o", "--output", help="sample file to write (default: standard output)")
    r.add_argument("--pretty", action="store_true", help="indent the JSON")
    r.set_defaults(func=cmd_conformance_run)
    cp = csub.add_parser("compare", help="compare two sample files with the §1 tolerances")
    cp.add_argument("expected")
    cp.add_argument("actual")
    cp.set_defaults(func=cmd_conformance_compare)

    i = sub.add_parser("info", help="summarise a rig")
    i.add_argument("rig")
    i.set_defaults(func=cmd_info)

    v = sub.add_parser("validate", help="load rigs and report errors and warnings")
    v.add_argument("rigs", nargs="+")
    v.add_argument("--json", action="store_true", help="a JSON report for pipelines")
    v.set_defaults(func=cmd_validate)

    cv = sub.add_parser("convert", help="convert between .obone (JSON) and .obonb (binary)")
    cv.add_argument("input")
    cv.add_argument("output", help="the extension picks the format: .obonb binary, else JSON")
    cv.add_argument("--compact", action="store_true", help="compact JSON instead of indented")
    cv.set_defaults(func=cmd_convert)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
