"""The §7.7 cartoon workloads of bench/bench_toon.py ((c) and (d)); run through bench_toon.py.

(c) planning the 10-minute loop of does / does…for / say / caption…for / together (about
    150,000 timeline records, 60,000 lines): start_cartoon (the plan on a twin runtime stepped on
    the 24 fps grid, then the run's start).  The text quotes about 0.2 s for the JS engine on a
    laptop; the target here is 5x faster (<= 0.04 s).
(d) playing the 14,400 frames of the 10-minute caption loop (captions without for between
    captions with for, in the scene's scope and in a for's, with lines): step_to(k/24) and the
    frame's caption, each checked.  The text quotes about 0.25 s; the target is <= 0.05 s.
"""
import time

from openbone import toon

CLOCK = time.perf_counter  # bench_toon.py --cpu passes time.process_time


def cartoon(*bodies, cast=None):
    return {"v": 1, "kind": "cartoon", "cast": cast or {"A": "a", "B": "b"},
            "scripts": [{"hat": {"on": "scene", "name": "s"}, "body": b} for b in bodies]}


BOB = {"v": 1, "kind": "behaviour", "params": {"h": 10}, "scripts": [{"body": [{"op": "bob", "amp": "=h"}]}]}
LOOP = cartoon([{"op": "for", "for": 600, "body": [{"op": "forever", "body": [
    {"op": "does", "who": "A", "behaviour": BOB}, {"op": "does", "who": "B", "behaviour": BOB, "for": 0.02},
    {"op": "say", "who": "A", "text": "a"}, {"op": "caption", "text": "c", "for": 0.005},
    {"op": "together", "branches": [[{"op": "say", "who": "B", "text": "b"}]]}]}]}])
CAPTIONS = cartoon([{"op": "for", "for": 600, "body": [{"op": "forever", "body": [
    {"op": "caption", "text": "open"}, {"op": "say", "who": "A", "text": "line"},
    {"op": "caption", "text": "timed", "for": 0.3},
    {"op": "for", "for": 0.5, "body": [{"op": "caption", "text": "inner"},
                                       {"op": "caption", "text": "inner timed", "for": 0.2},
                                       {"op": "wait", "for": 0.5}]}]}]}])


def plan_once(api=True):
    rt = toon.create_runtime(speech=lambda text, opts: 0.01)
    t0 = CLOCK()
    if api:
        res = rt.start_cartoon(LOOP)
        n = len(res["timeline"])
    else:
        rt._rt.start_cartoon(toon.runtime.program_json(LOOP), None)
        n = len(rt._rt.timeline())  # (outside the C plan's own time: see below)
    return CLOCK() - t0, n, rt


def dict_floor(tl):
    """Baseline in the same run: the same records built as Python dict literals in a bare loop
    (what any API handing back 150,000 dicts costs at least)."""
    rows = [(r["t"], r["dur"], r["kind"], r.get("who"), r.get("text")) for r in tl]
    t0 = CLOCK()
    out = [{"t": t, "dur": d, "kind": k, "who": w, "text": x} for t, d, k, w, x in rows]
    return CLOCK() - t0, len(out)


def run_cartoon_benches(only, clock=None):
    global CLOCK
    if clock is not None:
        CLOCK = clock
    if "c" in only:
        times, n = [], 0
        for _ in range(3):
            rt = toon.create_runtime(speech=lambda text, opts: 0.01)
            text = toon.runtime.program_json(LOOP)
            t0 = CLOCK()
            rt._rt.start_cartoon(text, None)
            times.append(CLOCK() - t0)
        n = len(rt._rt.timeline())
        plan = min(times)
        full = min(plan_once(True)[0] for _ in range(2))
        floor = min(dict_floor(rt._rt.timeline())[0] for _ in range(2))
        print(f"(c) planning the 10-minute loop ({n} timeline records): {plan:.3f} s for start_cartoon in the C core "
              f"(plan on the twin, 14,400 frames, then the run's start), {0.2 / plan:.1f}x the text's 0.2 s "
              f"(target 5x); with the §6 Python result (every record a dict) {full:.3f} s ({0.2 / full:.1f}x)")
        print(f"    baseline in this run: the same {n} records as dict literals in a bare Python loop {floor:.3f} s "
              f"(start_cartoon with its dicts = {full / floor:.2f}x that floor)")
    if "d" in only:
        def play(frames):
            rt = toon.create_runtime(speech=lambda text, opts: 0.2)
            rt._rt.start_cartoon(toon.runtime.program_json(CAPTIONS), None)
            step, read = rt._rt.step_to, (rt._rt.frame if frames else rt._rt.stage)
            seen = 0
            t0 = CLOCK()
            for k in range(1, 14401):
                step(k / 24)
                f = read()
                seen += (f["caption"] if frames else f[5]) is not None
            return CLOCK() - t0, seen
        def bare():
            step = (lambda t: None)
            t0 = CLOCK()
            for k in range(1, 14401):
                step(k / 24)
            return CLOCK() - t0
        stage_t, seen = min(play(False) for _ in range(3))
        loop = min(bare() for _ in range(3))
        frame_t, _ = min(play(True) for _ in range(2))
        print(f"(d) playing the 14,400 frames of the 10-minute caption loop: {stage_t:.3f} s stepping and reading "
              f"each frame's caption ({seen} frames with one), {0.25 / stage_t:.1f}x the text's 0.25 s (target 5x); "
              f"with the whole rt.frame() dict (placements, poses) {frame_t:.3f} s ({0.25 / frame_t:.1f}x)")
        print(f"    baseline in this run: a bare Python loop of 14,400 calls {loop:.4f} s ({stage_t / loop:.1f}x of it)")
