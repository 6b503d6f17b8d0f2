"""Issue 21 item 12: advance, bake and the draw list release the GIL around their C work, so that
threads posing different instances run in parallel; results are identical to serial runs.  An
instance is used by one thread at a time: while a long call runs on it, calls on it from
another thread raise RuntimeError (no timing is asserted anywhere)."""
import os
import threading

import numpy as np
import pytest

import openbone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "conformance", "fixtures")
HERO = os.path.join(ROOT, "examples", "hero.obone")


def pose_run(doc, animation, frames):
    i = openbone.Instance(doc)
    i.set_animation(0, animation, True)
    baked = i.bake(1 / 60, frames)
    worlds, batches = [], []
    for _ in range(frames // 4):
        i.advance(1 / 30)
        worlds.append(i.world.copy())
        b = i.draw_batch()
        batches.append((np.array(b.vertices), np.array(b.indices)))
    return baked, worlds, batches


def same(a, b):
    baked_a, worlds_a, batches_a = a
    baked_b, worlds_b, batches_b = b
    return (np.array_equal(baked_a, baked_b) and all(np.array_equal(x, y) for x, y in zip(worlds_a, worlds_b))
            and all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(batches_a, batches_b)))


def test_two_threads_posing_two_instances_match_serial_results():
    hero = openbone.load(HERO)
    phys = openbone.load(os.path.join(FIX, "physics.obone"))
    jobs = [(hero, "walk", 400), (phys, "sway", 400), (hero, hero.animations[-1].name, 300)]
    serial = [pose_run(*j) for j in jobs]
    results = [None] * len(jobs)
    errors = []

    def work(k):
        try:
            results[k] = pose_run(*jobs[k])
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors and all(r is not None for r in results)
    for k in range(len(jobs)):
        assert same(serial[k], results[k]), jobs[k][1]


def test_the_gil_is_released_during_a_bake_and_the_instance_is_guarded():
    inst = openbone.Instance(openbone.load(HERO))
    inst.set_animation(0, "walk", True)
    started, out = threading.Event(), {}

    def bake():
        started.set()
        out["world"] = inst.bake(1 / 60, 100000)

    t = threading.Thread(target=bake)
    t.start()
    started.wait()
    saw_busy = False
    while t.is_alive() and not saw_busy:  # this thread runs while the C bake does: the GIL is free
        try:
            inst.time
        except RuntimeError as e:
            assert "another thread" in str(e)
            saw_busy = True
    t.join()
    assert saw_busy, "the bake ended before this thread could run: the GIL was held throughout"
    assert out["world"].shape == (100000, len(inst.document.bones), 6)
    assert inst.time == pytest.approx(100000 / 60)
    inst.advance(1 / 60)  # usable again once the bake returned


def test_threads_on_scripted_instances_keep_the_gil_and_match_serial():
    from openbone import scripting
    if not scripting.AVAILABLE:
        pytest.skip("needs quickjs-ng")
    from oracles.sm_helpers import doc, layer, state
    d = doc(inputs=[("n", "number", 0)], layers=[layer([state("A")])],
            scripts=[{"id": "sc", "name": "m", "code": "function onUpdate(dt) { ob.setInput('n', ob.input('n') + dt); }"}],
            machine_scripts=["sc"])

    def run():
        i = openbone.Instance(d, state_machine="m")
        for _ in range(200):
            i.advance(0.01)
        return i.inputs["n"], [r for r in i.log if r["type"] == "error"]

    serial = run()
    results = []
    threads = [threading.Thread(target=lambda: results.append(run())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert results == [serial, serial] and serial[1] == []
