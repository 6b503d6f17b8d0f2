#!/usr/bin/env python3
"""Benchmark §8.4 the draw list of examples/hero.obone, per frame.

    python bench/bench_drawlist.py [--frames 2000] [--repeat 3]

Reports, in one run (best of --repeat), microseconds per frame for:
  * pose       : inst.advance(1/60) playing "walk" (the baseline);
  * + build    : the same plus the C draw list built in place (inst._draw_build(), no copies);
  * + batch    : the same plus inst.draw_batch() (one call, arrays copied out);
  * + items    : the same plus inst.draw_list() (one DrawItem with NumPy views per item);
  * oracle     : the pure-Python draw list of tests/oracles/draw.py on the setup pose (per frame);
and the ratios against posing, plus the draw buffers' growth counter (0 = nothing was
allocated per frame after creation).  No timing is asserted anywhere; this only prints.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests"))

import openbone  # noqa: E402

HERO = os.path.join(REPO, "examples", "hero.obone")


def run(doc, frames, what):
    inst = openbone.Instance(doc)
    if hasattr(inst, "set_animation"):
        inst.set_animation(0, "walk", True, 0)
    inst.advance(1 / 60)
    inst._draw_build()  # first frame outside the timing
    step = {"pose": None, "build": inst._draw_build, "batch": inst.draw_batch, "items": inst.draw_list}[what]
    t0 = time.perf_counter()
    for _ in range(frames):
        inst.advance(1 / 60)
        if step is not None:
            step()
    return (time.perf_counter() - t0) / frames, inst


def run_oracle(frames):
    from oracles import draw as draw_oracle
    from oracles import base as oracle
    doc = oracle.load_path(HERO)
    for kind in ("ik", "transform", "path", "physics", "sliders"):  # the oracle poses bones only
        doc["skeleton"].pop(kind, None)
    inst = oracle.Instance(doc)
    t0 = time.perf_counter()
    for _ in range(frames):
        draw_oracle.draw_list(inst)
    return (time.perf_counter() - t0) / frames


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    doc = openbone.load(HERO)
    n_items = len(openbone.Instance(doc).draw_list())
    best = {}
    growths = 0
    for what in ("pose", "build", "batch", "items"):
        ts = []
        for _ in range(args.repeat):
            t, inst = run(doc, args.frames, what)
            ts.append(t)
            growths = max(growths, inst.draw_growths)
        best[what] = min(ts)
    oracle_t = min(run_oracle(max(1, args.frames // 20)) for _ in range(args.repeat))
    base = best["pose"]
    print(f"hero.obone: {n_items} draw items per frame, {args.frames} frames, best of {args.repeat}")
    print(f"  pose              {base * 1e6:9.2f} us/frame   1.00x")
    for what, label in (("build", "pose + build (C)"), ("batch", "pose + draw_batch"), ("items", "pose + draw_list")):
        t = best[what]
        extra = t - base
        print(f"  {label:17s} {t * 1e6:9.2f} us/frame   {t / base:.2f}x   (draw list alone {extra * 1e6:7.2f} us)")
    c_only = best["build"] - base
    print(f"  oracle draw list  {oracle_t * 1e6:9.2f} us/frame   "
          f"({oracle_t / c_only:.0f}x the C build)" if c_only > 0 else "")
    print(f"  draw buffer growths after creation: {growths} (0 = no allocation per frame)")


if __name__ == "__main__":
    main()
