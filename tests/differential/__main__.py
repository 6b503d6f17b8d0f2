"""Differential testing from the command line (the Makefile's ``differential`` target).

    python tests/differential run [--n 5000] [--seed 0] [--out DIR] [--no-reduce]
        generate N documents from consecutive seeds, run every case through the C core and
        through the oracles, report the counts; each distinct disagreement is reduced to a
        minimal document and written to DIR (default tests/data/differential/new/) as a
        regression-case file to review (say which side is wrong) and move up one level;
    python tests/differential show FILE|SEED [CASE]
        the differences of one regression file or generated seed;
    python tests/differential corpus --n 400 --out DIR
        write generated documents (JSON) as a structure-aware libFuzzer corpus.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from differential import check, generate  # noqa: E402

REGRESSIONS = os.path.join(os.path.dirname(HERE), "data", "differential")


def cmd_run(args) -> int:
    t0 = time.time()
    stats = collections.Counter()
    first = {}
    per_sig = collections.Counter()
    n_docs = 0
    for seed in range(args.seed, args.seed + args.n):
        doc, cf = generate.generate(seed)
        n_docs += 1
        try:
            document = check.load_runtime(doc)
        except Exception as e:  # the generator's documents are valid: a load error is a finding
            o = check.Outcome("load-error", str(e))
            stats[o.status] += 1
            per_sig["load-error " + o.detail[:80]] += 1
            first.setdefault("load-error " + o.detail[:80], (seed, doc, cf["cases"][0], o))
            continue
        for case in cf["cases"]:
            o = check.run_one(doc, case, document)
            stats[o.status] += 1
            stats["samples"] += 1 if case.get("setup") else sum(int(g.get("repeat", 1)) for g in case["steps"])
            if o.status != "ok":
                key = "%s %s" % (o.status, o.signature or o.detail[:80])
                per_sig[key] += 1
                first.setdefault(key, (seed, doc, case, o))
        if args.progress and n_docs % args.progress == 0:
            print("... %d documents, %s (%.0fs)" % (n_docs, dict(stats), time.time() - t0), flush=True)
    cases = sum(v for k, v in stats.items() if k != "samples")
    print("documents %d, cases %d, samples %d, %.0fs" % (n_docs, cases, stats["samples"], time.time() - t0))
    for k in sorted(stats):
        if k != "samples":
            print("  %-20s %d" % (k, stats[k]))
    status = 0
    for key, count in per_sig.most_common():
        seed, doc, case, o = first[key]
        status = status or int(o.status != "unstable")
        print("\n%s: %d case(s), first seed %d case %r" % (key, count, seed, case.get("name")))
        print(check.describe(o.diffs) if o.diffs else "  " + o.detail)
        if o.status == "unstable":
            print("  (ill-conditioned: the oracle itself moves beyond §1 under a 1e-9 change of the document)")
            continue
        if args.no_reduce or o.status == "oracle-unsupported":
            continue
        d, c, o2 = check.reduce(doc, case, o)
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "%s-seed%d.json" % (check.slug(key), seed))
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"finding": key, "wrong": "?", "why": "?", "seed": seed, "document": d, "case": c}, f, indent=1)
            f.write("\n")
        print("  reduced to %d bones, %d slots, %d animations -> %s" % (
            len(d["skeleton"].get("bones") or []), len(d["skeleton"].get("slots") or []),
            len(d.get("animations") or []), os.path.relpath(path)))
        print(check.describe(o2.diffs) if o2.diffs else "  " + o2.detail)
    return status


def cmd_show(args) -> int:
    if os.path.exists(args.what):
        with open(args.what, encoding="utf-8") as f:
            reg = json.load(f)
        pairs = [(reg["document"], reg["case"])]
    else:
        doc, cf = generate.generate(int(args.what))
        pairs = [(doc, c) for c in cf["cases"] if args.case is None or c["name"] == args.case]
    for doc, case in pairs:
        o = check.run_one(doc, case)
        print("%s: %s %s" % (case.get("name"), o.status, o.signature or o.detail))
        if o.diffs:
            print(check.describe(o.diffs, 20))
    return 0


def cmd_corpus(args) -> int:
    os.makedirs(args.out, exist_ok=True)
    for seed in range(args.seed, args.seed + args.n):
        doc, _ = generate.generate(seed)
        with open(os.path.join(args.out, "gen%05d.obone" % seed), "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"))
    print("wrote %d documents to %s" % (args.n, args.out))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python tests/differential", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--n", type=int, default=200)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", default=os.path.join(REGRESSIONS, "new"))
    r.add_argument("--no-reduce", action="store_true")
    r.add_argument("--progress", type=int, default=500, help="print a line every N documents (0: never)")
    s = sub.add_parser("show")
    s.add_argument("what")
    s.add_argument("case", nargs="?")
    c = sub.add_parser("corpus")
    c.add_argument("--n", type=int, default=400)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    return {"run": cmd_run, "show": cmd_show, "corpus": cmd_corpus}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
