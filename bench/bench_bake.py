#!/usr/bin/env python3
"""Bake 1,000 frames of examples/hero.obone (walk) two ways and report the ratio.

    python bench/bench_bake.py [--frames N] [--repeat R]

* ``inst.bake(dt, N)``: one C call, advance + world copy per frame, no Python per frame;
* a Python loop of ``inst.advance(dt)`` + ``np.array(inst.world)`` per frame.

Both produce the same (N, n_bones, 6) array (checked).  Reports the best of R runs; no
timing assertion (timings depend on the machine).
"""
import argparse
import os
import time

import numpy as np

import openbone

HERE = os.path.dirname(os.path.abspath(__file__))
HERO = os.path.join(os.path.dirname(HERE), "examples", "hero.obone")


def fresh(doc):
    inst = openbone.Instance(doc)
    inst.set_animation(0, "walk", loop=True)
    return inst


def bake_c(doc, dt, n):
    return fresh(doc).bake(dt, n)


def bake_py(doc, dt, n):
    inst = fresh(doc)
    out = np.empty((n, len(doc.bones), 6))
    for i in range(n):
        inst.advance(dt)
        out[i] = inst.world
    return out


def best(fn, repeat):
    t = float("inf")
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        t = min(t, time.perf_counter() - t0)
    return t, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dt", type=float, default=1 / 60)
    a = ap.parse_args()
    doc = openbone.load(HERO)
    tc, rc = best(lambda: bake_c(doc, a.dt, a.frames), a.repeat)
    tp, rp = best(lambda: bake_py(doc, a.dt, a.frames), a.repeat)
    assert np.array_equal(rc, rp), "bake and the Python loop disagree"
    print(f"hero.obone walk, {a.frames} frames of dt={a.dt:.6g}, {len(doc.bones)} bones (best of {a.repeat})")
    print(f"  inst.bake (one C call)      : {tc * 1e3:8.2f} ms  ({tc / a.frames * 1e6:6.2f} us/frame)")
    print(f"  Python advance + copy loop  : {tp * 1e3:8.2f} ms  ({tp / a.frames * 1e6:6.2f} us/frame)")
    print(f"  ratio (Python loop / bake)  : {tp / tc:8.2f}x")


if __name__ == "__main__":
    main()
