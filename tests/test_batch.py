"""Many instances per call (issue 17): openbone.advance_all / bake_all / Batch (csrc/batch.c).

Property checked: an instance stepped in a batch, on any number of threads, beside any
other instances, ends in exactly the state (every byte of ob_instance_snapshot) that
stepping it alone gives; and a refused call moves no instance."""
import os
import threading

import numpy as np
import pytest

import openbone
from conftest import reference

HERE = os.path.dirname(os.path.abspath(__file__))
HERO = os.path.join(os.path.dirname(HERE), "examples", "hero.obone")
DTS = [1 / 60, 1 / 30, 0.0, 0.37, -0.05, 1 / 60, 2.5, 1e-9]


@pytest.fixture(scope="module")
def docs():
    out = [openbone.load(HERO)]
    spineboy = reference("spine", "skeletons", "spineboy-pro.json")
    if os.path.exists(spineboy):
        out.append(openbone.import_skeleton_json(spineboy, curves="spine"))
    return out


def crowd(docs, n):
    """n instances over the documents and their animations, at different phases."""
    insts = []
    for i in range(n):
        doc = docs[i % len(docs)]
        inst = openbone.Instance(doc)
        names = [a.name for a in doc.animations]
        inst.set_animation(0, names[i % len(names)], loop=True)
        inst.advance((i % 7) * 0.11)
        insts.append(inst)
    return insts


def alone(insts, dts):
    for inst in insts:
        for dt in dts:
            inst.advance(dt)


@pytest.mark.parametrize("threads", [1, 2, 3, 8, None])
def test_advance_all_is_bit_identical_to_stepping_alone(docs, threads):
    together, single = crowd(docs, 23), crowd(docs, 23)
    for dt in DTS:
        openbone.advance_all(together, dt, threads=threads)
    alone(single, DTS)
    for a, b in zip(together, single):
        assert a._snapshot() == b._snapshot()
        assert np.array_equal(a.world, b.world) and a.time == b.time


def test_thread_count_changes_no_bit(docs):
    runs = []
    for threads in (1, 2, 5):
        insts = crowd(docs, 40)
        for dt in DTS:
            openbone.advance_all(insts, dt, threads=threads)
        runs.append([i._snapshot() for i in insts])
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_bake_all_matches_instance_bake(docs, threads):
    together, single = crowd(docs, 9), crowd(docs, 9)
    frames = openbone.bake_all(together, 1 / 30, 17, threads=threads)
    assert len(frames) == 9
    for arr, inst, ref in zip(frames, together, single):
        expect = ref.bake(1 / 30, 17)
        assert arr.shape == (17, len(inst.document.bones), 6) and arr.dtype == np.float64
        assert np.array_equal(arr, expect)
        assert inst._snapshot() == ref._snapshot()
    assert [a.shape[0] for a in openbone.bake_all(together, 0.1, 0)] == [0] * 9


def test_empty_list_and_one_instance(docs):
    openbone.advance_all([], 1 / 60)
    assert openbone.bake_all((), 1 / 60, 5) == []
    a, b = crowd(docs, 1), crowd(docs, 1)
    openbone.advance_all(a, 0.2)
    b[0].advance(0.2)
    assert a[0]._snapshot() == b[0]._snapshot()


def snapshots(insts):
    return [i._snapshot() for i in insts]


@pytest.mark.parametrize("bad, what", [
    (float("nan"), "dt must be"), (float("inf"), "dt must be"), (-float("inf"), "dt must be"), (1e10, "dt must be"),
])
def test_hostile_dt_moves_nothing(docs, bad, what):
    insts = crowd(docs, 5)
    before = snapshots(insts)
    with pytest.raises(openbone.OpenBoneError, match=what):
        openbone.advance_all(insts, bad)
    with pytest.raises(openbone.OpenBoneError, match=what):
        openbone.bake_all(insts, bad, 3)
    assert snapshots(insts) == before


def test_bad_items_move_nothing(docs):
    insts = crowd(docs, 6)
    before = snapshots(insts)
    never_initialised = openbone.Instance.__new__(openbone.Instance)
    cases = [
        (insts[:3] + ["spineboy"] + insts[3:], r"item 3 is a str, not an openbone Instance"),
        (insts + [docs[0]], r"item 6 is a Document"),
        (insts + [None], r"item 6 is a NoneType"),
        (insts[:2] + [never_initialised], r"item 2 is an Instance that was never initialised"),
        (insts + [insts[4]], r"item 6 is item 4 again"),
    ]
    for items, msg in cases:
        with pytest.raises(openbone.OpenBoneError, match=msg):
            openbone.advance_all(items, 1 / 60)
        with pytest.raises(openbone.OpenBoneError, match=msg):
            openbone.bake_all(items, 1 / 60, 4)
    with pytest.raises(openbone.OpenBoneError, match="sequence"):
        openbone.advance_all(42, 1 / 60)
    with pytest.raises(openbone.OpenBoneError, match="steps must be"):
        openbone.bake_all(insts, 1 / 60, -1)
    with pytest.raises(openbone.OpenBoneError, match="steps must be"):
        openbone.bake_all(insts, 1 / 60, 10**12)
    with pytest.raises(openbone.OpenBoneError, match="bake in parts"):
        openbone.bake_all(insts, 1 / 60, 50_000_000)
    with pytest.raises(TypeError):
        openbone.bake_all(insts, 1 / 60, 2.0)
    with pytest.raises(TypeError):
        openbone.advance_all(insts, "fast")
    assert snapshots(insts) == before


def test_other_instance_types_refused(docs):
    from openbone import toon
    rt = toon.create_runtime()
    insts = crowd(docs, 2)
    with pytest.raises(openbone.OpenBoneError, match="item 1 is a Runtime, not an openbone Instance"):
        openbone.advance_all([insts[0], rt, insts[1]], 1 / 60)


def test_thread_argument():
    assert openbone.Batch(1).threads == 1
    assert openbone.Batch(3).threads == 3
    assert openbone.Batch().threads == openbone.Batch(None).threads >= 1
    for bad in (0, -1, 257, 2**70):
        with pytest.raises(openbone.OpenBoneError, match="threads must be"):
            openbone.Batch(bad)
    with pytest.raises(TypeError):
        openbone.Batch("2")


def test_thread_stats_count_every_instance(docs):
    b = openbone.Batch(2)
    insts = crowd(docs, 30)
    for _ in range(4):
        b.advance_all(insts, 1 / 60)
    stats = b.thread_stats()
    assert len(stats) == 2
    assert sum(k for _, k in stats) == 120
    assert all(cpu >= 0 for cpu, _ in stats)


def test_concurrent_calls_from_python_threads(docs):
    """Two Python threads sharing one Batch (calls serialise) on disjoint crowds."""
    b = openbone.Batch(2)
    crowds = [crowd(docs, 12), crowd(docs, 12)]
    refs = [crowd(docs, 12), crowd(docs, 12)]
    errors = []

    def work(insts):
        try:
            for dt in DTS * 3:
                b.advance_all(insts, dt)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(c,)) for c in crowds]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []
    for ref in refs:
        alone(ref, DTS * 3)
    for c, ref in zip(crowds, refs):
        assert snapshots(c) == snapshots(ref)


def test_scripted_instances_are_stepped_with_the_gil():
    from openbone import scripting
    if not scripting.AVAILABLE:
        pytest.skip("the §11 script host needs quickjs-ng")
    from oracles.sm_helpers import doc, inst, layer, state
    code = "function onUpdate(dt) { ob.setInput('n', ob.input('n') + dt * 10); }"
    d = doc(inputs=[("n", "number", 0)], layers=[layer([state("A")])],
            bones=[{"id": "root", "name": "root"}], scripts=[{"id": "sc", "name": "main", "code": code}],
            machine_scripts=["sc"])
    scripted = [inst(d) for _ in range(3)]
    assert all(s.script_host is not None for s in scripted)
    plain = openbone.Instance(openbone.load(HERO))
    plain.set_animation(0, "walk", loop=True)
    items = [scripted[0], plain, scripted[1], scripted[2]]
    for _ in range(3):
        openbone.advance_all(items, 0.5, threads=2)
    assert [s.inputs["n"] for s in scripted] == [15, 15, 15]
    frames = openbone.bake_all(items, 0.25, 2, threads=2)
    assert [s.inputs["n"] for s in scripted] == [20, 20, 20]
    ref = openbone.Instance(openbone.load(HERO))
    ref.set_animation(0, "walk", loop=True)
    for _ in range(3):
        ref.advance(0.5)
    assert np.array_equal(frames[1], ref.bake(0.25, 2))


def test_document_json_is_written_once_on_first_use_from_any_thread(docs):
    """ob_document_json writes the text lazily (issue 17): threads racing for it get one text,
    the same as the document that was loaded from that text gives back."""
    blob = openbone._core.json_to_binary(docs[0].json)
    for _ in range(3):
        doc = openbone.loads(blob)
        texts = []
        ts = [threading.Thread(target=lambda: texts.append(doc.json)) for _ in range(6)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert len(set(texts)) == 1 and texts[0] == docs[0].json
        assert openbone.loads(texts[0]).json == texts[0]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def in_child(fn):
    """fn() in a forked child, its truth reported through a pipe (the child never returns
    into pytest)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ok = 0
        try:
            ok = int(bool(fn()))
        finally:
            os.write(w, bytes([ok]))
            os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.close(r)
    os.waitpid(pid, 0)
    return got == b"\x01"


def test_a_forked_child_steps_without_the_parents_threads(docs):
    """A Batch inherited through fork has no worker threads in the child: it steps on the
    caller alone there (no hang), with the same bits."""
    b = openbone.Batch(2)
    insts = crowd(docs, 8)
    b.advance_all(insts, 1 / 60)
    ref = crowd(docs, 8)
    alone(ref, [1 / 60, 0.1])

    def child():
        b.advance_all(insts, 0.1)
        openbone.advance_all(crowd(docs, 3), 0.1)  # the module's pools: the child's own
        return all(a._snapshot() == c._snapshot() for a, c in zip(insts, ref))

    assert in_child(child)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_default_threads_follow_the_affinity_and_an_oversubscribed_pool_steps_alike(docs):
    """Batch(None) has one thread per CPU the process may run on (a cpuset or taskset gives
    fewer than the machine's cores), and a pool with more threads than those CPUs (which
    never spins) still gives the bits of stepping alone.  In a child process: the affinity
    change stays there."""
    def child():
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        insts, ref = crowd(docs, 12), crowd(docs, 12)
        b = openbone.Batch(3)
        for dt in DTS:
            b.advance_all(insts, dt)
        alone(ref, DTS)
        return openbone.Batch().threads == 1 and all(a._snapshot() == c._snapshot() for a, c in zip(insts, ref))

    assert in_child(child)
