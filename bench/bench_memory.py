#!/usr/bin/env python3
"""Bytes per instance beyond the shared document, for every Spine example rig.

    python bench/bench_memory.py [--instances 200] [--rigs spineboy-pro,...]

Each rig is imported (``import_skeleton_json(curves="spine")``, as the other benches) and
loaded from its .obonb bytes; then ``--instances`` instances are created (one "run"/first
animation set on each) and glibc's ``mallinfo2`` is read before and after: the heap bytes in
use (``uordblks + hblkhd``, so allocator rounding is counted) per instance, C state and the
Python Instance object together.  Then every instance is advanced once and builds its world
vertices once (what a frame allocates on first use: the output buffers, and the document's
weighted-vertex plan, built by the first instance and shared), and the heap is read again:
"KB per instance, drawn" is everything an instance holds once it has been drawn, the shared
plan counted in "document KB, drawn".  The document itself (its arena, the kept source
bytes) is shared by all instances and reported apart.  glibc only (other platforms: skipped).
Issue 17's target: <= 64 KB per spineboy-pro instance.
"""
import argparse
import ctypes
import ctypes.util
import gc
import glob
import os
import sys

import openbone

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.environ.get("OPENBONE_REFERENCE", os.path.join(os.path.dirname(HERE), "..", "shared", "reference"))


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]


def heap_in_use(libc):
    m = libc.mallinfo2()
    return m.uordblks + m.hblkhd


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=200)
    ap.add_argument("--rigs", default="", help="comma-separated rig names (default: all)")
    a = ap.parse_args()
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):
        sys.exit("needs glibc's mallinfo2")
    skel = os.path.join(REFERENCE, "spine", "skeletons")
    print("| rig | bones | slots | document KB | KB per instance | document KB, drawn | KB per instance, drawn |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    only = [r for r in a.rigs.split(",") if r]
    for path in sorted(glob.glob(os.path.join(skel, "*.json"))):
        name = os.path.basename(path)[:-5]
        if only and name not in only:
            continue
        blob = openbone._core.json_to_binary(openbone.import_skeleton_json(path, curves="spine").json)
        gc.collect()
        h0 = heap_in_use(libc)
        doc = openbone.loads(blob)
        h1 = heap_in_use(libc)
        anim = next((x.name for x in doc.animations if x.name == "run"), doc.animations[0].name if doc.animations else None)
        insts = []
        for _ in range(a.instances):
            inst = openbone.Instance(doc)
            if anim:
                inst.set_animation(0, anim, loop=True)
            insts.append(inst)
        h2 = heap_in_use(libc)
        # the first instance's first build also builds the document's shared plan: measured apart
        insts[0].advance(1 / 30)
        insts[0].world_vertices()
        gc.collect()
        h3 = heap_in_use(libc)
        for inst in insts[1:]:
            inst.advance(1 / 30)
            inst.world_vertices()
        gc.collect()
        h4 = heap_in_use(libc)
        per_drawn = (h4 - h3) / max(1, a.instances - 1) + (h2 - h1) / a.instances
        shared = (h3 - h2) - (h4 - h3) / max(1, a.instances - 1)  # the first build beyond a later one's
        print(f"| {name} | {len(doc.bones)} | {len(doc.slots)} | {(h1 - h0) / 1024:.0f} | "
              f"{(h2 - h1) / a.instances / 1024:.1f} | {(h1 - h0 + shared) / 1024:.0f} | {per_drawn / 1024:.1f} |")
        del insts, doc


if __name__ == "__main__":
    main()
