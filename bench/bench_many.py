#!/usr/bin/env python3
"""Many characters: openbone.advance_all on N spineboy instances at 60 fps, 1 vs 2 threads.

    python bench/bench_many.py [--instances 1000] [--frames 30] [--rounds 15] [--json out.json]

spineboy-pro (Spine JSON from the reference folder, imported with curves="spine" as the
shared spine-c harness does) playing "run", the instances started at different phases.
Per round, interleaved so that a noisy shared machine hits both alike: ``--frames`` calls of
``advance_all(crowd, 1/60)`` on a 1-thread and on a 2-thread ``Batch``, plus the same frames
as a plain Python loop of ``inst.advance`` (the baseline). Reported per variant, as medians
over rounds: wall ms per frame, instance-steps per wall second, and thread CPU µs per
instance-step (``Batch.thread_stats``: CPU time of each thread, so time stolen by other
processes is not counted). Scaling 1→2 threads is reported twice, from the same rounds:

* wall: median over rounds of wall(1 thread) / wall(2 threads), what this machine gave;
* CPU: 2 × cpu(1 thread) / cpu(2 threads) per instance-step, the wall scaling two free cores
  would give (it is < 2 only through the pool's own overhead and the two threads slowing
  each other: shared cache, memory bandwidth); with the busiest thread's share of the
  instances (1 = perfect balance, 0.5 = one thread did all).

A second pass paces the frames as a game does, one call every 1/60 s (sleeping between calls),
and times each call: the pool's threads have gone to sleep by the next frame (a worker spins
50 µs after a job, then sleeps), so this measures the wake-up a real 60 fps loop pays, where
the back-to-back pass does not.

Before timing, the 2-thread crowd is checked bit for bit against instances stepped alone.
No timing assertion anywhere (tests never assert timings).
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import openbone

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.environ.get("OPENBONE_REFERENCE", os.path.join(os.path.dirname(HERE), "..", "shared", "reference"))
SPINEBOY = os.path.join(REFERENCE, "spine", "skeletons", "spineboy-pro.json")
DT = 1 / 60


def crowd(doc, n):
    out = []
    for i in range(n):
        inst = openbone.Instance(doc)
        inst.set_animation(0, "run", loop=True)
        inst.advance((i % 97) / 97 * 0.6667)  # spread the phases over the run cycle
        out.append(inst)
    return out


def check_bits(doc, n=64, frames=20):
    together, alone = crowd(doc, n), crowd(doc, n)
    for _ in range(frames):
        openbone.advance_all(together, DT, threads=2)
    for inst in alone:
        for _ in range(frames):
            inst.advance(DT)
    same = all(np.array_equal(a.world, b.world) and a.time == b.time for a, b in zip(together, alone))
    if not same:
        sys.exit("advance_all differs from advancing alone")


def cpu_total(batch):
    stats = batch.thread_stats()
    return sum(c for c, _ in stats), [k for _, k in stats]


def run_batch(batch, insts, frames):
    c0, k0 = cpu_total(batch)
    t0 = time.perf_counter()
    for _ in range(frames):
        batch.advance_all(insts, DT)
    wall = time.perf_counter() - t0
    c1, k1 = cpu_total(batch)
    items = [b - a for a, b in zip(k0, k1)]
    return wall, c1 - c0, max(items) / max(1, sum(items))


def run_paced(batch, insts, frames):
    """``frames`` calls started 1/60 s apart; the summed wall time of the calls alone."""
    total = 0.0
    nxt = time.perf_counter()
    for _ in range(frames):
        nxt += DT
        rest = nxt - time.perf_counter()
        if rest > 0:
            time.sleep(rest)
        t0 = time.perf_counter()
        batch.advance_all(insts, DT)
        total += time.perf_counter() - t0
    return total


def run_loop(insts, frames):
    t0 = time.perf_counter()
    c0 = time.thread_time()
    for _ in range(frames):
        for inst in insts:
            inst.advance(DT)
    return time.perf_counter() - t0, time.thread_time() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=1000)
    ap.add_argument("--frames", type=int, default=30, help="frames per round and variant")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--paced-rounds", type=int, default=10, help="rounds of the 60 fps paced pass (0: none)")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    if not os.path.exists(SPINEBOY):
        sys.exit(f"no {SPINEBOY} (set OPENBONE_REFERENCE)")
    doc = openbone.import_skeleton_json(SPINEBOY, curves="spine")
    check_bits(doc)
    pools = {1: openbone.Batch(1), 2: openbone.Batch(2)}
    crowds = {1: crowd(doc, a.instances), 2: crowd(doc, a.instances), "loop": crowd(doc, a.instances)}
    for t in (1, 2):
        run_batch(pools[t], crowds[t], 5)  # warm-up
    run_loop(crowds["loop"], 5)
    rows = {1: [], 2: [], "loop": []}
    load0 = os.getloadavg()
    for r in range(a.rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        for t in order:
            rows[t].append(run_batch(pools[t], crowds[t], a.frames))
        w, c = run_loop(crowds["loop"], a.frames)
        rows["loop"].append((w, c, 1.0))
    paced = {1: [], 2: []}
    for r in range(a.paced_rounds):
        for t in ((1, 2) if r % 2 == 0 else (2, 1)):
            paced[t].append(run_paced(pools[t], crowds[t], a.frames))
    load1 = os.getloadavg()
    steps = a.instances * a.frames
    med = statistics.median
    res = {"instances": a.instances, "frames_per_round": a.frames, "rounds": a.rounds, "fps": 60,
           "cores": os.cpu_count(), "loadavg": [load0[0], load1[0]]}
    for key in (1, 2, "loop"):
        walls = [w for w, _, _ in rows[key]]
        cpus = [c for _, c, _ in rows[key]]
        res[str(key)] = {
            "wall_ms_per_frame": med(walls) / a.frames * 1e3,
            "steps_per_s": steps / med(walls),
            "cpu_us_per_step": med(cpus) / steps * 1e6,
            "busiest_share": med(b for _, _, b in rows[key]),
        }
    res["scaling_wall"] = med(w1 / w2 for (w1, _, _), (w2, _, _) in zip(rows[1], rows[2]))
    res["scaling_wall_best"] = min(w for w, _, _ in rows[1]) / min(w for w, _, _ in rows[2])
    res["scaling_cpu"] = 2 * res["1"]["cpu_us_per_step"] / res["2"]["cpu_us_per_step"]
    if a.paced_rounds:
        res["paced_wall_ms_per_frame"] = {str(t): med(paced[t]) / a.frames * 1e3 for t in (1, 2)}
        res["paced_scaling_wall"] = med(w1 / w2 for w1, w2 in zip(paced[1], paced[2]))
    res["vs_python_loop"] = res["loop"]["wall_ms_per_frame"] / res["2"]["wall_ms_per_frame"]
    res["realtime_instances_2_threads"] = 1 / 60 / (res["2"]["wall_ms_per_frame"] / 1e3 / a.instances)
    print(f"spineboy-pro 'run', {a.instances} instances, dt 1/60, {a.rounds} rounds x {a.frames} frames, "
          f"load average {load0[0]:.1f} -> {load1[0]:.1f}, {os.cpu_count()} cores")
    print("| variant | wall ms/frame | instance-steps/s | CPU µs/step | busiest thread's share |")
    print("|---|---:|---:|---:|---:|")
    for key, name in ((1, "advance_all, 1 thread"), (2, "advance_all, 2 threads"), ("loop", "Python loop of advance")):
        v = res[str(key)]
        print(f"| {name} | {v['wall_ms_per_frame']:.2f} | {v['steps_per_s']:,.0f} | {v['cpu_us_per_step']:.2f} | "
              f"{v['busiest_share']:.2f} |")
    print(f"scaling 1->2 threads: wall {res['scaling_wall']:.2f}x (median of per-round ratios; best-of "
          f"{res['scaling_wall_best']:.2f}x), CPU-time {res['scaling_cpu']:.2f}x; 2 threads vs the Python loop "
          f"{res['vs_python_loop']:.2f}x; instances that fit a 60 fps frame on 2 threads: "
          f"{res['realtime_instances_2_threads']:,.0f}")
    if a.paced_rounds:
        p = res["paced_wall_ms_per_frame"]
        print(f"paced at 60 fps ({a.paced_rounds} rounds x {a.frames} frames, each call timed): 1 thread "
              f"{p['1']:.2f} ms/frame, 2 threads {p['2']:.2f} ms/frame, scaling {res['paced_scaling_wall']:.2f}x "
              f"(median of per-round ratios)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
