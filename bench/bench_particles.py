#!/usr/bin/env python3
"""Benchmark §8.8 particles: step ~1,000 live particles for 600 frames.

    python bench/bench_particles.py [--frames 600] [--repeat 3]

Reports, in one run:
  * runtime  : openbone.Instance.advance(1/60) x frames with one emitter holding ~1,000
               particles (prewarmed to the steady state), emitter stepping included;
  * geometry : the same plus building the particle draw item every frame;
  * empty    : the same document with the particles attachment hidden (the cost of the
               rest of the pipeline, subtracted to isolate the particle step);
  * oracle   : the pure-Python oracle (tests/oracles/particle.py) for a few frames, scaled:
               the baseline the ratio is taken against.
No timing is asserted anywhere; this only prints.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests"))

import openbone  # noqa: E402

EMITTER = {"type": "particles", "rate": 1000, "lifetime": [0.95, 1.05], "speed": [40, 120], "maxParticles": 1500,
           "shape": "circle", "radius": 20, "gravity": 60, "drag": 0.5, "prewarm": True, "duration": 1,
           "startRotation": [0, 90], "angularVelocity": [-90, 90], "look": "circle", "seed": 3}


def document(visible=True):
    return {
        "format": "openbone", "version": 1, "name": "bench",
        "skeleton": {
            "bones": [{"id": "b0", "name": "root"}, {"id": "b1", "name": "emitter", "parent": "b0", "x": 5, "y": 5}],
            "slots": [{"id": "s1", "name": "fx", "bone": "b1", "attachment": "p" if visible else None}],
            "skins": [{"id": "default", "name": "default", "attachments": {"s1": {"p": EMITTER}}}],
        },
        "animations": [],
    }


def time_runtime(frames, geometry=False, visible=True):
    doc = openbone.loads(json.dumps(document(visible)))
    inst = openbone.Instance(doc)
    inst.advance(1 / 60)  # first step: prewarm (one cycle) outside the timing
    t0 = time.perf_counter()
    for _ in range(frames):
        inst.advance(1 / 60)
        if geometry:
            inst._particle_geometry(0)
    dt = time.perf_counter() - t0
    return dt, int(inst.particle_counts[0])


def time_oracle(frames):
    from oracles import particle as po

    ref = po.ParticleInstance(document())
    ref.advance(1 / 60)
    t0 = time.perf_counter()
    for _ in range(frames):
        ref.advance(1 / 60)
    return time.perf_counter() - t0, len(ref.emitters[0].particles)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--oracle-frames", type=int, default=20)
    args = ap.parse_args()

    best = lambda f: min((f() for _ in range(args.repeat)), key=lambda r: r[0])  # noqa: E731
    run, alive = best(lambda: time_runtime(args.frames))
    geo, _ = best(lambda: time_runtime(args.frames, geometry=True))
    empty, _ = best(lambda: time_runtime(args.frames, visible=False))
    ora, ora_alive = time_oracle(args.oracle_frames)
    ora_scaled = ora * args.frames / args.oracle_frames
    per_frame = (run - empty) / args.frames
    print(f"particles alive: {alive} (oracle {ora_alive})")
    print(f"runtime  {args.frames} frames: {run * 1e3:8.2f} ms  ({run / args.frames * 1e6:7.2f} us/frame)")
    print(f"geometry {args.frames} frames: {geo * 1e3:8.2f} ms  ({(geo - run) / args.frames * 1e6:7.2f} us/frame for the item)")
    print(f"empty    {args.frames} frames: {empty * 1e3:8.2f} ms")
    print(f"particle step: {per_frame * 1e6:.2f} us/frame, {per_frame / max(alive, 1) * 1e9:.1f} ns/particle/frame")
    print(f"oracle   {args.frames} frames: {ora_scaled * 1e3:8.2f} ms  (scaled from {args.oracle_frames})")
    print(f"ratio runtime/oracle: {run / ora_scaled:.4f}  (speed-up x{ora_scaled / run:.0f})")


if __name__ == "__main__":
    main()
