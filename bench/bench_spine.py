"""Benchmark: the Spine example rigs posed per frame on this runtime (issue 9).

Each frame does what the issue's Spine C figures measure: AnimationState update
and apply, world transforms (constraints included), and the world vertices of
every region and mesh (``inst._world_vertices_build()``: the vertices the draw
list would give, in place, without uvs, colours or indices), dt = 1/30.  A
second column builds the whole §8.4 draw list instead (``inst._draw_build()``:
vertices, uvs, indices, colours, clipping), which is more than Spine's figure
covers.  Rigs are imported from skeleton JSON 4.2 with ``curves="spine"``.

    python bench/bench_spine.py [--frames N] [--repeats R] [--markdown]

Reported: µs per frame as the minimum over R repeats of N frames, in thread CPU
time (``time.thread_time``: the machine may be shared, and short batches with
the minimum taken filter out the time other jobs steal; wall time is printed too),
and the ratio to the Spine C runtime figures given in issue 9.  The Python loop
(two method calls per frame) is included; its cost alone is printed as
``loop`` (an empty two-call loop) so the C-side cost can be read off.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the CPUs

import openbone  # noqa: E402

SKEL = Path(os.environ.get("OPENBONE_REFERENCE") or Path(__file__).resolve().parents[2] / "shared" / "reference"
            ) / "spine" / "skeletons"

# The Spine C runtime per frame (issue 9), µs
SPINE_C = [
    ("spineboy-pro", "run", 5.6),
    ("raptor-pro", "walk", 11.6),
    ("tank-pro", "drive", 16.8),
    ("celestial-circus-pro", "swing", 14.4),
    ("stretchyman-pro", "sneak", 12.9),
]


class _Nop:
    def advance(self, dt):
        pass

    def build(self):
        pass


def measure(fn_advance, fn_build, frames: int, repeats: int, dt: float = 1 / 30):
    best_cpu = best_wall = float("inf")
    for _ in range(repeats):
        c0, w0 = time.thread_time(), time.perf_counter()
        for _ in range(frames):
            fn_advance(dt)
            fn_build()
        c1, w1 = time.thread_time(), time.perf_counter()
        best_cpu = min(best_cpu, (c1 - c0) / frames * 1e6)
        best_wall = min(best_wall, (w1 - w0) / frames * 1e6)
    return best_cpu, best_wall


def bench(frames: int, repeats: int, curves: str = "spine"):
    rows = []
    nop = _Nop()
    loop_cpu, _ = measure(nop.advance, nop.build, frames, repeats)
    insts = []
    for name, anim, spine_us in SPINE_C:
        doc = openbone.import_skeleton_json(SKEL / f"{name}.json", curves=curves)
        inst = openbone.Instance(doc)
        inst.set_animation(0, anim, True, 0)
        for _ in range(100):  # warm up (physics settles, buffers touched)
            inst.advance(1 / 30)
            inst._draw_build()
            inst._world_vertices_build()
        insts.append((doc, inst))
    best = [[float("inf")] * 4 for _ in SPINE_C]
    for _ in range(repeats):  # the rigs interleaved, so a busy spell hits them alike
        for k, (doc, inst) in enumerate(insts):
            cpu, wall = measure(inst.advance, inst._world_vertices_build, frames, 1)
            dcpu, _ = measure(inst.advance, inst._draw_build, frames, 1)
            best[k] = [min(best[k][0], cpu), min(best[k][1], wall), min(best[k][2], dcpu), 0]
    for (name, anim, spine_us), (doc, inst), (cpu, wall, dcpu, _) in zip(SPINE_C, insts, best):
        rows.append({"rig": name, "animation": anim, "us": cpu, "wall": wall, "draw_us": dcpu,
                     "spine_c": spine_us, "ratio": spine_us / cpu, "bones": len(doc.bones),
                     "meshes": inst._world_vertices_build(), "items": inst._draw_build()})
    return rows, loop_cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=60)
    ap.add_argument("--curves", default="spine", choices=["spine", "exact", "linear"])
    ap.add_argument("--markdown", action="store_true", help="print the bench/README.md table")
    args = ap.parse_args(argv)
    rows, loop = bench(args.frames, args.repeats, args.curves)
    if args.markdown:
        print("| rig / animation | bones | regions + meshes | openbone µs/frame | Spine C µs/frame | "
              "Spine C / openbone | with the full draw list, µs/frame |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['rig']} / {r['animation']} | {r['bones']} | {r['meshes']} | {r['us']:.2f} | "
                  f"{r['spine_c']:.1f} | {r['ratio']:.2f}× | {r['draw_us']:.2f} |")
        print(f"\nPython loop alone (2 calls/frame): {loop:.2f} µs/frame; {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.1f}.")
    else:
        for r in rows:
            print(f"{r['rig']:>22} {r['animation']:<6} {r['us']:8.2f} µs/frame cpu ({r['wall']:.2f} wall)  "
                  f"Spine C {r['spine_c']:5.1f}  ratio {r['ratio']:.2f}x  target ≥ 2x: "
                  f"{'yes' if r['ratio'] >= 2 else 'NO'}  (full draw list {r['draw_us']:.2f})")
        print(f"python loop overhead {loop:.2f} µs/frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
