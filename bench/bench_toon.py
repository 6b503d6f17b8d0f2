#!/usr/bin/env python3
"""Benchmark the Jabbertoon runtime (openbone.toon, csrc/toon/).

    python bench/bench_toon.py [--chars 1000] [--steps 240] [--seconds 10] [--only a,b,c,d]

Reports, in one run (no timing is asserted anywhere; this only prints):
  (a) crowd   : N characters, each running a behaviour with gait, a chain tail (swish), a follow
                on the ears (letFollow: five springs on the 240 Hz grid) and a reach, stepped at
                60 fps: ms per step for all of them (target <= 4 ms for 1,000), and µs per pose
                read (the §6 dict).  Same-run baselines: the same crowd without the followers, and
                a bare Python loop touching every character once per step.
  (b) scrub   : pose_at forward through S seconds of a follow-through behaviour at 24 fps, with
                warm runtimes, for S/2 and S (linear: the ratio is about 2), against the same
                frames each from a fresh runtime (quadratic: the ratio is about 4).
  (c) plan    : §7.7 planning the 10-minute loop of does / does…for / say / caption…for /
                together (about 150,000 timeline records); the text quotes 0.2 s for the JS engine.
  (d) play    : §7.7 playing the 14,400 frames of the 10-minute caption loop; the text quotes
                0.25 s for the JS engine.  (c) and (d) need the cartoon half (issue 14).
"""
import argparse
import os
import sys
import time

CLOCK = time.perf_counter  # --cpu: time.process_time (this process only: on a shared machine the wall clock
                           # counts other jobs' time slices too)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from openbone import toon  # noqa: E402


def behaviour(*blocks):
    return {"v": 1, "kind": "behaviour", "scripts": [{"body": list(blocks)}]}


CROWD = behaviour({"op": "gait", "every": 0.9, "bob": 3}, {"op": "swish", "part": "tail", "deg": 25},
                  {"op": "letFollow", "part": "ears"},
                  {"op": "forever", "body": [{"op": "reach", "part": "right hand", "at": "head", "dx": 0.1, "hold": 0.8},
                                             {"op": "wait", "for": 0.5}]})
NO_FOLLOW = behaviour({"op": "gait", "every": 0.9, "bob": 3}, {"op": "swish", "part": "tail", "deg": 25},
                      {"op": "forever", "body": [{"op": "reach", "part": "right hand", "at": "head", "dx": 0.1,
                                                  "hold": 0.8}, {"op": "wait", "for": 0.5}]})
SCRUB = behaviour({"op": "hop", "hz": 1.2}, {"op": "letFollow", "part": "ears"},
                  {"op": "letFollow", "part": "tail", "after": "head", "hz": 3},
                  {"op": "forever", "body": [{"op": "turnPart", "part": "head", "deg": 20, "over": 0.6},
                                             {"op": "turnPart", "part": "head", "deg": -20, "over": 0.6}]})


def crowd(program, n, steps, read=False):
    rt = toon.create_runtime(seed=1)
    ids = [f"c{i}" for i in range(n)]
    for i, c in enumerate(ids):
        rt.add_character(c, legs=2 if i % 3 else 4)
    for i, c in enumerate(ids):
        rt.step_to(i * 0.0007)  # staggered starts: the follow grids do not line up
        rt.start_behaviour(c, program)
    t0_sim = rt.t
    rt.step_to(t0_sim + 1 / 60)
    t0 = CLOCK()
    for k in range(2, steps + 2):
        rt.step_to(t0_sim + k / 60)
    step = (CLOCK() - t0) / steps
    pose = None
    if read:
        t0 = CLOCK()
        for c in ids:
            rt.pose(c)
        pose = (CLOCK() - t0) / n
    return step, pose


def bare(n, steps):
    chars = [{"dx": 0.0} for _ in range(n)]
    t0 = CLOCK()
    for k in range(steps):
        for c in chars:
            c["dx"] = k * 0.5
    return (CLOCK() - t0) / steps


def scrub(seconds, warm=True, repeat=5):
    """The best of repeat scrubs (each from a cold warm-cache)."""
    return min(scrub_once(seconds, warm) for _ in range(repeat))


def scrub_once(seconds, warm=True):
    from openbone.toon import runtime as R
    R._WARM.clear()
    frames = int(seconds * 24)
    t0 = CLOCK()
    for k in range(frames):
        if warm:
            toon.pose_at(SCRUB, k / 24)
        else:
            rt = toon.create_runtime()
            rt.add_character("c")
            rt.start_behaviour("c", SCRUB)
            rt.step_to(k / 24)
            rt.pose("c")
    return CLOCK() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chars", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=240)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--only", default="a,b,c,d")
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process instead of the wall clock")
    args = ap.parse_args(argv)
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    print(f"clock: {'process CPU time' if args.cpu else 'wall clock'}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    only = set(args.only.split(","))
    if "a" in only:
        step, pose = crowd(CROWD, args.chars, args.steps, read=True)
        nofollow, _ = crowd(NO_FOLLOW, args.chars, args.steps)
        loop = bare(args.chars, args.steps)
        print(f"(a) {args.chars} characters at 60 fps (gait, chain tail, ear followers, reach): "
              f"{step * 1e3:.2f} ms per step ({step / args.chars * 1e6:.2f} µs per character; target <= 4 ms), "
              f"pose read {pose * 1e6:.2f} µs per character")
        print(f"    baselines in this run: the same crowd without the ear followers {nofollow * 1e3:.3f} ms per step "
              f"(motions are evaluated when a pose is read: a step runs only block events and follow ticks); "
              f"a bare Python loop over the characters {loop * 1e3:.3f} ms per step ({step / loop:.1f}x)")
    if "b" in only:
        half = scrub(args.seconds / 2)
        full = scrub(args.seconds)
        cold_half = scrub(args.seconds / 4, warm=False)
        cold_full = scrub(args.seconds / 2, warm=False)
        print(f"(b) pose_at scrubbing {args.seconds:g} s at 24 fps, warm: {full:.3f} s "
              f"({full / (args.seconds * 24) * 1e3:.2f} ms per frame); half the length {half:.3f} s: "
              f"ratio {full / half:.2f} (linear: 2)")
        print(f"    baseline in this run, every frame from a fresh runtime: {args.seconds / 4:g} s {cold_half:.3f} s, "
              f"{args.seconds / 2:g} s {cold_full:.3f} s: ratio {cold_full / cold_half:.2f} (quadratic: 4); "
              f"at {args.seconds / 2:g} s the warm scrub is {cold_full / half:.1f}x faster")
    if "c" in only or "d" in only:
        try:
            sys.path.insert(0, HERE)
            from bench_toon_cartoon import run_cartoon_benches  # issue 14
        except ImportError:
            print("(c), (d): the cartoon half is not built in this tree")
        else:
            run_cartoon_benches(only, CLOCK)


if __name__ == "__main__":
    main()
