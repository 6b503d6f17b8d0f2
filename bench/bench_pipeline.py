#!/usr/bin/env python3
"""Rigs per second of a pipeline bake: N rigs baked locally (one process) against the same
bake on a distributed.LocalCluster of W workers (`--dask`), in the same run, outputs checked
equal (sha256 of every .npz).

    python bench/bench_pipeline.py [--rigs 2000] [--workers 2] [--jobs 0]

The rigs are copies of examples/hero.obone and the conformance fixtures, cycled, in a
scratch directory (each bake: the rig's first animation, every frame at 30 fps, with the
draw list).  ``--jobs N`` adds the process-pool run (``openbone bake --jobs N``).  The
cluster's start-up is reported apart and not counted.  No timing assertion.
"""
import argparse
import glob
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from openbone import pipeline  # noqa: E402


def make_rigs(tmp: str, n: int):
    sources = [os.path.join(ROOT, "examples", "hero.obone")] + sorted(
        p for p in glob.glob(os.path.join(ROOT, "conformance", "fixtures", "*.obone")) if "script" not in p)
    rigs = []
    for i in range(n):
        d = os.path.join(tmp, "rigs", f"{i // 100:03d}")
        os.makedirs(d, exist_ok=True)
        dst = os.path.join(d, f"r{i:05d}.obone")
        shutil.copy(sources[i % len(sources)], dst)
        rigs.append(dst)
    return rigs


def timed_bake(rigs, out, **kw):
    t0 = time.perf_counter()
    recs = pipeline.bake(rigs, out, **kw)
    return time.perf_counter() - t0, recs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rigs", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=0)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-pipeline-")
    try:
        rigs = make_rigs(tmp, args.rigs)
        t_local, local = timed_bake(rigs, os.path.join(tmp, "local", "{relpath}.npz"))
        frames = sum(r["frames"] for r in local)
        failed = sum(1 for r in local if r["error"])
        print(f"{args.rigs} rigs ({frames} frames, {failed} failed):")
        print(f"  local, 1 process:         {args.rigs / t_local:8.1f} rigs/s ({t_local:.1f} s)")
        if args.jobs:
            t_jobs, jobs = timed_bake(rigs, os.path.join(tmp, "jobs", "{relpath}.npz"), jobs=args.jobs)
            assert [r["sha256"] for r in jobs] == [r["sha256"] for r in local]
            print(f"  --jobs {args.jobs}:                 {args.rigs / t_jobs:8.1f} rigs/s ({t_jobs:.1f} s), "
                  f"{t_local / t_jobs:.2f}x local")
        t0 = time.perf_counter()
        client = pipeline.connect("local", workers=args.workers)
        t_start = time.perf_counter() - t0
        try:
            t_dask, remote = timed_bake(rigs, os.path.join(tmp, "dask", "{relpath}.npz"), client=client)
        finally:
            pipeline.close(client)
        same = [r["sha256"] for r in remote] == [r["sha256"] for r in local]
        print(f"  --dask, {args.workers} workers:       {args.rigs / t_dask:8.1f} rigs/s ({t_dask:.1f} s; cluster "
              f"start {t_start:.1f} s not counted), {t_local / t_dask:.2f}x local; outputs identical: {same}")
        print(f"  machine: {os.cpu_count()} CPUs (shared)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
