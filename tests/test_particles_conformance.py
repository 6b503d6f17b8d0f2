"""§8.8 particle conformance: conformance/cases/particles.json against the expected samples
written by the independent oracle (tests/oracles/particle.py), at the §1 tolerances.

The cases run twice: through the plain runner (the draw list, csrc/drawlist.c, emits the particle
items) and with the runner's ``draw`` filled from ``inst.particle_items()`` (the fixture shows
particles only, so that is the whole draw list).  A moving-bone case (physics swings the emitter bone) runs here too: the oracle
takes the bone matrices from the runtime, since the particle system only reads them.
"""
import json
import os
import sys

import numpy as np
import pytest

import openbone
import openbone.conformance as conf

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from oracles import particle as po  # noqa: E402

CASES = os.path.join(REPO, "conformance", "cases", "particles.json")
EXPECTED = os.path.join(REPO, "conformance", "expected", "particles.json")


def test_expected_file_is_the_oracle_output():
    """Guards the expected file against hand edits (regenerate: python tests/oracles particle)."""
    with open(EXPECTED, encoding="utf-8") as f:
        text = f.read()
    assert text == po.dumps(po.run_case_file(CASES))


def test_cases_are_long_and_mixed():
    with open(CASES, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    for c in cases:
        steps = sum(int(g.get("repeat", 1)) for g in c["steps"])
        assert steps >= 120
        assert len({g["dt"] for g in c["steps"]}) >= 3


def _run_with_particle_items(monkeypatch):
    orig = conf._sample

    def sample(inst, step, time, case):
        s = orig(inst, step, time, case)
        s["draw"] = [it.conformance() for it in inst.particle_items()]
        return s

    monkeypatch.setattr(conf, "_sample", sample)
    out, errored = conf.run(CASES)
    assert not errored, [c.get("error") for c in out["cases"]]
    return out


def test_particle_cases_match_expected(monkeypatch):
    out = _run_with_particle_items(monkeypatch)
    with open(EXPECTED, encoding="utf-8") as f:
        expected = json.load(f)
    diffs = conf.compare(expected, out)
    assert diffs == [], "\n".join(diffs[:20])


def test_expected_exercises_every_feature():
    with open(EXPECTED, encoding="utf-8") as f:
        expected = json.load(f)
    seen = {}
    for case in expected["cases"]:
        for s in case["samples"]:
            for it in s["draw"]:
                seen.setdefault(it["slot"], set()).add(it["texture"])
    assert seen["🔥fire"] == {"@openbone/particle-dot"}
    assert seen["ring"] == {"page_fx"} and seen["smoke"] == {"page_fx"}
    assert seen["once"] == {"img_loose"}
    assert {"sparks", "swap", "aura"} <= set(seen)


def test_runner_draw_list_matches():
    """The plain runner (its draw list emits the particle items, csrc/drawlist.c) matches too."""
    out, errored = conf.run(CASES)
    assert not errored, [c.get("error") for c in out["cases"]]
    with open(EXPECTED, encoding="utf-8") as f:
        expected = json.load(f)
    diffs = conf.compare(expected, out)
    assert diffs == [], "\n".join(diffs[:20])


# ---- a moving bone (physics), world and local space, mixed steps --------------------------

MOVING = {
    "format": "openbone", "version": 1, "name": "moving",
    "skeleton": {
        "bones": [{"id": "b0", "name": "root"},
                  {"id": "arm", "name": "arm", "parent": "b0", "length": 60, "rotation": 20},
                  {"id": "tip", "name": "tip", "parent": "arm", "x": 60, "rotation": -30}],
        "slots": [{"id": "s_world", "name": "trail", "bone": "tip", "attachment": "w"},
                  {"id": "s_local", "name": "halo", "bone": "tip", "attachment": "l"}],
        "skins": [{"id": "default", "name": "default", "attachments": {
            "s_world": {"w": {"type": "particles", "rate": 45, "lifetime": [0.4, 0.7], "speed": [20, 60],
                              "shape": "circle", "radius": 6, "gravity": -30, "drag": 1, "look": "spark",
                              "stretch": 0.1, "seed": 77, "angle": 120}},
            "s_local": {"l": {"type": "particles", "space": "local", "rate": 20, "lifetime": [0.3, 0.5],
                              "speed": [10, 30], "shape": "box", "width": 12, "height": 4, "look": "square",
                              "startRotation": [0, 90], "angularVelocity": [90, 180], "seed": 78}}}}],
        "physics": [{"id": "ph", "name": "ph", "bone": "arm", "x": 0, "y": 0, "rotate": 1, "scaleX": 0,
                     "inertia": 0.5, "strength": 40, "damping": 1, "mass": 1, "gravity": 300, "wind": 50,
                     "mix": 1, "fps": 60}],
    },
    "animations": [],
}

STEPS = [(1 / 60, 40), (0.025, 30), (0.01, 30), (0.045, 20), (1 / 30, 10)]


def test_moving_bone_matches_oracle():
    inst = openbone.Instance(openbone.loads(json.dumps(MOVING)))
    static = json.loads(json.dumps(MOVING))
    del static["skeleton"]["physics"]  # the oracle poses nothing itself: matrices come from inst
    ref = po.ParticleInstance(static, world_source=lambda _o: inst.world.tolist())
    n = 0
    moved = 0.0
    last = None
    for dt, repeat in STEPS:
        for _ in range(repeat):
            inst.advance(dt)
            ref.advance(dt)
            n += 1
            tip = inst.world[2]
            if last is not None:
                moved += float(np.hypot(tip[4] - last[4], tip[5] - last[5]))
            last = tip.copy()
            got = {it.slot: it for it in inst.particle_items()}
            want = {it["slot"]: it for it in ref.particle_items()}
            assert set(got) == set(want), n
            for slot, w in want.items():
                g = got[slot]
                assert g.texture == w["texture"] and g.blend == w["blend"]
                assert len(g.vertices) == len(w["vertices"]), (n, slot)
                np.testing.assert_allclose(g.vertices, w["vertices"], atol=1e-2, err_msg="%d %s" % (n, slot))
                np.testing.assert_allclose(g.colors, w["colors"], atol=1 / 255)
                np.testing.assert_array_equal(g.indices, w["indices"])
    assert n >= 120
    assert moved > 20  # the bone really moved
