#!/usr/bin/env python3
"""Frames per second of `render`: the skia renderer against the old per-triangle Pillow path
(bench/pillow_render.py), in the same run, on the same frames.

    python bench/bench_render.py [--frames N] [--scale S] [--untextured]

The rig is examples/hero.obone copied to a scratch directory with generated textures for its
eight images (gradients with soft alpha edges), so that both paths draw textured meshes and
regions; ``--untextured`` draws the hero as shipped (flat colours).  Both render the walk at
the artboard size × scale, supersampled 2×, textures loaded once.  No timing assertion.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

import openbone
from openbone.render import Textures, render_pose

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pillow_render import render_pose_pillow  # noqa: E402

HERO = os.path.join(os.path.dirname(HERE), "examples", "hero.obone")


def textured_hero(tmp: str) -> str:
    from PIL import Image
    path = os.path.join(tmp, "hero.obone")
    shutil.copy(HERO, path)
    d = json.load(open(HERO))
    for k, im in enumerate(d.get("images") or []):
        w, h = int(im["width"]), int(im["height"])
        y, x = np.mgrid[0:h, 0:w]
        a = np.zeros((h, w, 4), np.uint8)
        a[..., 0] = (60 + 150 * x / max(1, w - 1)).astype(np.uint8)
        a[..., 1] = (40 + 30 * k) % 256
        a[..., 2] = (200 - 150 * y / max(1, h - 1)).astype(np.uint8)
        edge = np.minimum(np.minimum(x, w - 1 - x), np.minimum(y, h - 1 - y))
        a[..., 3] = np.clip(edge * 80, 0, 255).astype(np.uint8)
        out = os.path.join(tmp, im["src"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        Image.fromarray(a, "RGBA").save(out)
    return path


def timed(fn, frames):
    t0 = time.perf_counter()
    for f in frames:
        fn(f)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--untextured", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-render-")
    try:
        doc = openbone.load(HERO if args.untextured else textured_hero(tmp))
        inst = openbone.Instance(doc)
        inst.set_animation(0, "walk", True, 0.0)
        poses = []
        for _ in range(args.frames):
            inst.advance(1 / 30)
            poses.append(inst.copy())
        tex = Textures(doc)
        n_tex = sum(tex.get(t) is not None for t in {it.texture for it in poses[0].draw_list()})
        tris = sum(len(it.indices) // 3 for it in poses[0].draw_list())
        render_pose(poses[0], scale=args.scale, textures=tex)  # warm up both (texture decoding)
        render_pose_pillow(poses[0], scale=args.scale, textures=tex)
        t_skia = timed(lambda p: render_pose(p, scale=args.scale, textures=tex), poses)
        t_pil = timed(lambda p: render_pose_pillow(p, scale=args.scale, textures=tex), poses)
        n = len(poses)
        print(f"hero walk, {n} frames at {doc.width * args.scale:g}x{doc.height * args.scale:g}, "
              f"{len(poses[0].draw_list())} items, {tris} triangles, {n_tex} textures loaded")
        print(f"  skia:   {n / t_skia:8.1f} frames/s ({1e3 * t_skia / n:.2f} ms/frame)")
        print(f"  Pillow: {n / t_pil:8.1f} frames/s ({1e3 * t_pil / n:.2f} ms/frame)")
        print(f"  skia / Pillow: {t_pil / t_skia:.1f}x faster")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
