#!/usr/bin/env python3
"""Document load time: openbone (.obone JSON and .obonb) against spine-c 4.2's
spSkeletonJson_readSkeletonData, in one process (bench/load_driver.c).

    SPINE_GIT=/path/to/spine-runtimes/.git python bench/bench_load.py [--rounds 25] [--work DIR]

Builds spine-c (exported from SPINE_GIT at SPINE_REV, default HEAD, a 4.2 commit) as its CMake
build does (-std=c99 -O2), this checkout's csrc/ with setup.py's flags and load_driver.c into
--work (default /tmp/openbone-bench-load; nothing is written into the repository), imports
every Spine example rig (reference/spine/skeletons, through OPENBONE_REFERENCE) with
``openbone.import_skeleton_json(curves="spine")`` as the shared spine-c harness does, saves it
as .obone (the document's JSON text) and .obonb, and times, per rig and round, interleaved:
spine-c reading the rig's Spine JSON text, openbone loading the .obone text, openbone loading
the .obonb bytes, and the system cJSON's parse alone of the .obone text (thread CPU time;
files already in memory; freeing not timed).

Reports per rig the median µs per load and the medians of the per-round ratios ours / spine-c
(< 1: openbone faster; issue 17's target is <= 0.5).  A .obone load is cJSON's parse (the
brief requires the system cJSON) and our post-parse work: the table shows both against spine-c,
cJSON_Parse / spine-c and (.obone - cJSON_Parse) / spine-c, per round, so the floor is measured;
and cJSON_Parse of the rig's own Spine JSON text / spine-c: the same rig in fewer, shorter numbers than
its .obone holds, so a floor under any .obone load that cJSON parses.  The Python importer of Spine JSON
(a one-time conversion, not a load) is timed once per rig for information.
"""
import argparse
import glob
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

import openbone

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REFERENCE = os.environ.get("OPENBONE_REFERENCE", os.path.join(ROOT, "..", "shared", "reference"))
OB_FLAGS = ["-std=c11", "-pthread", "-O2", "-ffp-contract=off", "-fno-fast-math", "-fno-math-errno",
            "-D_POSIX_C_SOURCE=200809L"]


def sh(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def cjson_flags():
    out = subprocess.run(["pkg-config", "--cflags", "--libs", "libcjson"], capture_output=True, text=True)
    return shlex.split(out.stdout) if out.returncode == 0 else ["-lcjson"]


def build(work, spine_git, rev, cc):
    src = os.path.join(work, "src")
    sh(["rm", "-rf", src])
    os.makedirs(src)
    archive = subprocess.run(["git", "-C", spine_git, "archive", rev, "spine-c/spine-c"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    inc = os.path.join(src, "spine-c", "spine-c", "include")
    objs = []
    procs = []
    odir = os.path.join(work, "obj")
    os.makedirs(odir, exist_ok=True)
    for f in sorted(glob.glob(os.path.join(src, "spine-c", "spine-c", "src", "spine", "*.c"))):
        o = os.path.join(odir, "sp_" + os.path.basename(f)[:-2] + ".o")
        procs.append([cc, "-std=c99", "-O2", "-w", "-I" + inc, "-c", f, "-o", o])
        objs.append(o)
    cj = cjson_flags()
    cj_inc = [f for f in cj if f.startswith("-I")]
    for f in sorted(glob.glob(os.path.join(ROOT, "csrc", "*.c"))):
        o = os.path.join(odir, "ob_" + os.path.basename(f)[:-2] + ".o")
        procs.append([cc, *OB_FLAGS, "-I" + os.path.join(ROOT, "csrc"), "-I" + os.path.join(ROOT, "csrc", "include"),
                      *cj_inc, "-c", f, "-o", o])
        objs.append(o)
    running = []
    for p in procs:  # two at a time (a 2-core machine)
        running.append(subprocess.Popen(p))
        if len(running) == 2:
            for r in running:
                if r.wait():
                    sys.exit("build failed")
            running = []
    for r in running:
        if r.wait():
            sys.exit("build failed")
    exe = os.path.join(work, "load_driver")
    sh([cc, "-std=c11", "-O2", "-Wall", "-I" + inc, "-I" + os.path.join(ROOT, "csrc", "include"),
        os.path.join(HERE, "load_driver.c"), *objs, "-o", exe, *[f for f in cj if not f.startswith("-I")], "-lm",
        "-pthread"])
    return exe


def export(work, skel_dir):
    docs = os.path.join(work, "docs")
    os.makedirs(docs, exist_ok=True)
    rigs = []
    for path in sorted(glob.glob(os.path.join(skel_dir, "*.json"))):
        name = os.path.basename(path)[:-5]
        t0 = time.perf_counter()
        doc = openbone.import_skeleton_json(path, curves="spine")
        t_import = time.perf_counter() - t0
        text = doc.json
        ob, bn = os.path.join(docs, name + ".obone"), os.path.join(docs, name + ".obonb")
        with open(ob, "w") as f:
            f.write(text)
        with open(bn, "wb") as f:
            f.write(openbone._core.json_to_binary(text))
        rigs.append((name, path, ob, bn, t_import))
    return rigs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--work", default=os.environ.get("WORK", "/tmp/openbone-bench-load"))
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    spine_git = os.environ.get("SPINE_GIT")
    skel = os.path.join(REFERENCE, "spine", "skeletons")
    if not os.path.isdir(skel):
        sys.exit(f"no {skel} (set OPENBONE_REFERENCE)")
    os.makedirs(a.work, exist_ok=True)
    exe = os.path.join(a.work, "load_driver")
    if not (a.skip_build and os.path.exists(exe)):
        if not spine_git:
            sys.exit("set SPINE_GIT to a git dir of EsotericSoftware/spine-runtimes (branch 4.2)")
        exe = build(a.work, spine_git, os.environ.get("SPINE_REV", "HEAD"), os.environ.get("CC", "gcc"))
    rigs = export(a.work, skel)
    args = [exe, str(a.rounds)]
    for name, path, ob, bn, _ in rigs:
        args += [name, path, ob, bn]
    load0 = os.getloadavg()[0]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    imports = {name: t for name, _, _, _, t in rigs}
    med = statistics.median
    print(f"{a.rounds} rounds, thread CPU time, load average {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    print("| rig | bones | Spine JSON KB | .obone KB | .obonb KB | spine-c µs | .obone µs | .obonb µs "
          "| .obone / spine-c | cJSON_Parse / spine-c | cJSON_Parse of the Spine text / spine-c "
          "| post-parse / spine-c | .obonb / spine-c | import (Python) ms | import / spine-c |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        r["ratio_obone"] = med(o / s for o, s in zip(r["obone"], r["spine"]))
        r["ratio_obonb"] = med(b / s for b, s in zip(r["obonb"], r["spine"]))
        r["ratio_cjson"] = med(c / s for c, s in zip(r["cjson"], r["spine"]))
        r["ratio_cjson_spine_text"] = med(c / s for c, s in zip(r["cjson_spine_text"], r["spine"]))
        r["ratio_post_parse"] = med((o - c) / s for o, c, s in zip(r["obone"], r["cjson"], r["spine"]))
        r["import_ms"] = imports[r["rig"]] * 1e3
        print(f"| {r['rig']} | {r['bones']} | {r['spine_json_bytes'] / 1024:.0f} | {r['obone_bytes'] / 1024:.0f} | "
              f"{r['obonb_bytes'] / 1024:.0f} | {med(r['spine']):.0f} | {med(r['obone']):.0f} | "
              f"{med(r['obonb']):.0f} | {r['ratio_obone']:.2f} | {r['ratio_cjson']:.2f} | {r['ratio_cjson_spine_text']:.2f} | "
              f"{r['ratio_post_parse']:.2f} | {r['ratio_obonb']:.2f} | {r['import_ms']:.0f} | "
              f"{r['import_ms'] * 1e3 / med(r['spine']):.0f} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
