#!/usr/bin/env python3
"""Instance.bake per bone per frame against a bare local-matrix + parent-multiply loop (issue 17).

    python bench/bench_bake_bare.py [--frames N] [--repeat R]

The rig: 22 bones (a spine, two arms, two legs, a tail), generated here as Spine 4.2 JSON and
imported with ``curves="spine"``; every bone has rotate and shear keys (``--channels`` adds
translate and scale) on bezier curves, and four bones key their inherit mode (noScale,
noRotationOrReflection, onlyTranslation, then back to normal).  Timed the same run, thread CPU time, best of R:

* ``inst.bake(1/60, N)``: the whole §3 frame (animation state, timelines, world transforms with
  the inherit modes) for N frames in one C call, the world copied out per frame;
* ``_core._bench_bare_pose``: a C loop over the same frames' local poses (read from the instance
  beforehand) doing only §4.1 localMatrix with libm cos/sin and the parent multiply
  (normal inheritance), the floor of any pose loop.

Reports ns per bone per frame and the ratio (target <= 2).  No timing assertion anywhere.
"""
import argparse
import time

import numpy as np

import openbone
from openbone import _core

# parent of each of the 22 bones (-1: root), parents first
TREE = [("root", None), ("hip", "root"), ("spine1", "hip"), ("spine2", "spine1"), ("chest", "spine2"),
        ("neck", "chest"), ("head", "neck"), ("arm_l", "chest"), ("fore_l", "arm_l"), ("hand_l", "fore_l"),
        ("arm_r", "chest"), ("fore_r", "arm_r"), ("hand_r", "fore_r"), ("thigh_l", "hip"), ("shin_l", "thigh_l"),
        ("foot_l", "shin_l"), ("thigh_r", "hip"), ("shin_r", "thigh_r"), ("foot_r", "shin_r"),
        ("tail1", "hip"), ("tail2", "tail1"), ("tail3", "tail2")]
INHERIT = {"neck": "noScale", "hand_l": "noRotationOrReflection", "foot_r": "onlyTranslation", "tail2": "noScale"}
CURVE = [0.25, 0.1, 0.75, 0.9]


def spine_keys(values, times=(0, 0.3, 0.65, 1.0)):
    """Keys at `times` with the given value dicts; each span on a bezier (Spine 4.2 JSON: per value
    cx1, cy1, cx2, cy2 in time and value units)."""
    out = []
    for k, (t, v) in enumerate(zip(times, values)):
        key = dict(time=t, **v)
        if k + 1 < len(times):
            t1, v1 = times[k + 1], values[k + 1]
            key["curve"] = [c for f in v for c in (t + CURVE[0] * (t1 - t), v[f] + CURVE[1] * (v1[f] - v[f]),
                                                   t + CURVE[2] * (t1 - t), v[f] + CURVE[3] * (v1[f] - v[f]))]
        out.append(key)
    return out


def rig(channels=("rotate", "shear")):
    bones, anim = [], {}
    for i, (name, parent) in enumerate(TREE):
        b = {"name": name, "length": 40 + 3 * i, "rotation": 7.0 * i - 60, "x": 20 + i, "y": 3 - i}
        if parent:
            b["parent"] = parent
        bones.append(b)
        keys = lambda f: spine_keys([f(k) for k in range(4)])
        tl = {
            "rotate": keys(lambda k: {"value": 15.0 * ((k + i) % 3) - 12}),
            "translate": keys(lambda k: {"x": 2.0 * k - i % 4, "y": 1.5 * ((k * i) % 3)}),
            "scale": keys(lambda k: {"x": 1 + 0.05 * k, "y": 1 - 0.04 * ((k + i) % 2)}),
            "shear": keys(lambda k: {"x": 3.0 * ((k + i) % 2), "y": -2.0 * (k % 2)}),
        }
        tl = {k: v for k, v in tl.items() if k in channels}
        if name in INHERIT:
            tl["inherit"] = [{"time": 0, "inherit": INHERIT[name]}, {"time": 0.5, "inherit": "normal"}]
        anim[name] = tl
    return {"skeleton": {"spine": "4.2.00"}, "bones": bones, "slots": [],
            "animations": {"move": {"bones": anim}}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--channels", default="rotate,shear",
                    help="keyed on every bone, of rotate,translate,scale,shear (inherit keys always)")
    a = ap.parse_args()
    dt, n = 1 / 60, a.frames
    channels = tuple(a.channels.split(","))
    unknown = sorted(set(channels) - {"rotate", "translate", "scale", "shear"})
    if unknown:
        ap.error(f"--channels: unknown {', '.join(unknown)} (choose from rotate,translate,scale,shear)")
    doc = openbone.import_skeleton_json(rig(channels), curves="spine")
    nb = len(doc.bones)

    def fresh():
        inst = openbone.Instance(doc)
        inst.set_animation(0, "move", loop=True)
        return inst

    inst = fresh()  # the local poses of the same frames, for the bare loop
    poses = np.empty((n, nb, 7))
    for f in range(n):
        inst.advance(dt)
        poses[f] = inst._local_pose()
    index = {b.name: b.index for b in doc.bones}
    parents = np.array([index[b.parent] if b.parent is not None else -1 for b in doc.bones], dtype=np.int32)
    best_bake = float("inf")
    for _ in range(a.repeat):
        inst = fresh()
        t0 = time.thread_time_ns()
        inst.bake(dt, n)
        best_bake = min(best_bake, time.thread_time_ns() - t0)
    best_bare, _ = _core._bench_bare_pose(parents, poses, a.repeat)
    per_bake = best_bake / (n * nb)
    per_bare = best_bare / (n * nb)
    print(f"{nb} bones ({a.channels} keyed on each, inherit on 4), {n} frames: Instance.bake {per_bake:.2f} ns per bone per frame, "
          f"bare localMatrix + parent multiply {per_bare:.2f} ns: ratio {per_bake / per_bare:.2f}x (target <= 2)")


if __name__ == "__main__":
    main()
