"""The instance layer's cost per frame (csrc/layer.c), as ratios against a plain instance in the
same run: `inst.bake(dt, N)` (one C call: advance + world copy per frame) of a walk cycle with

* no layer (the baseline: inst->layer is NULL),
* a layer used and cleared (allocated, empty: what a host pays after clear_layer),
* an offset on every bone,
* offsets on every bone and a reach on every limb (the RigCharacter case),

and RigCharacter.apply_pose per step (Python: the pose dict → the layer, then the pose), and a
behaviour (hop, swing, a follower, a reach) through the runtime alone and through ``toon.bake`` on
the rig (runtime + apply_pose per frame).

    python bench/bench_layer.py [--frames 2000] [--rig examples/hero.obone] [--animation walk]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import openbone  # noqa: E402
from openbone.toon.rig import RigCharacter  # noqa: E402


def best(fn, repeat=5):
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--rig", default="examples/hero.obone")
    ap.add_argument("--animation", default="walk")
    a = ap.parse_args(argv)
    from openbone.spine.source import load_rig   # .obone / .obonb, or a Spine .json / .skel
    doc = load_rig(a.rig)[0]
    roles = RigCharacter(doc).roles
    n = a.frames

    def make(kind):
        inst = openbone.Instance(doc)
        inst.set_animation(0, a.animation, loop=True, mix=0)
        if kind in ("cleared", "offsets", "reaches"):
            inst.set_bone_offset(0, rotation=1)
            inst.clear_layer()
        if kind in ("offsets", "reaches"):
            for b in range(len(doc.bones)):
                inst.set_bone_offset(b, rotation=2, x=0.5, scale_y=1.01)
        if kind == "reaches":
            for limb in roles.limbs.values():
                inst.set_reach(limb.upper, limb.lower, tip=limb.tip, space=roles.root, target=(20, 120), weight=0.8)
        return inst

    times = {}
    for kind in ("plain", "cleared", "offsets", "reaches"):
        inst = make(kind)
        times[kind] = best(lambda: inst.bake(1 / 60, n)) / n
    char = RigCharacter(doc, roles, base_animation=a.animation)
    pose = {"dx": 3, "dy": -2, "sx": 1, "sy": 1, "rot": 2, "parts": {"head": 10, "arm:1": 20, "tail": 5},
            "lift": {"torso": 2}, "mouth": 0, "blink": 0, "mood": None, "view": None,
            "reach": {"hand:1": {"spot": "chest", "w": 0.7}}}
    steps = max(50, n // 10)
    state = {"t": 0.0}

    def run_char():
        for _ in range(steps):
            state["t"] += 1 / 60
            char.apply_pose(pose, state["t"])
    times["apply_pose"] = best(run_char, 3) / steps

    # a behaviour through the runtime: the runtime alone (step + the §6 pose dict), then toon.bake
    from openbone import toon
    program = {"v": 1, "kind": "behaviour", "scripts": [{"body": [
        {"op": "hop", "hz": 1.5}, {"op": "swingPart", "part": "arms", "deg": 25, "every": 0.7},
        {"op": "letFollow", "part": "head", "after": "body"},
        {"op": "reach", "part": "left hand", "at": "head", "dx": 0.09, "over": 0.6}]}]}

    def run_runtime():
        rt = toon.create_runtime(seed=0, fps=60)
        rt.add_character("c", legs=char.legs)
        rt.start_behaviour("c", program)
        for k in range(steps):
            rt.step_to(k / 60)
            rt.pose("c")
    times["runtime"] = best(run_runtime, 3) / steps
    times["bake"] = best(lambda: toon.bake(program, char, 60, steps / 60), 3) / steps
    base = times["plain"]
    print(f"{a.rig} {a.animation}, {n} frames, {len(doc.bones)} bones, {len(roles.limbs)} limbs")
    for k, label in (("plain", "no layer (baseline)"), ("cleared", "layer allocated, empty"),
                     ("offsets", "an offset on every bone"), ("reaches", "offsets + a reach per limb"),
                     ("apply_pose", "RigCharacter.apply_pose (Python)"),
                     ("runtime", "Jabbertoon runtime step + pose (no rig)"),
                     ("bake", "toon.bake: runtime + rig, per frame")):
        print(f"  {label:40s} {times[k] * 1e6:8.2f} µs/frame  {times[k] / base:6.2f}×")


if __name__ == "__main__":
    main()
