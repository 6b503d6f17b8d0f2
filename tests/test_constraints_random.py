"""Random rigs: the runtime against the independent constraint oracle
(tests/oracles/constraint.py) on every constraint kind, inherit mode and path
mode, over irregular steps.  Seeds are fixed; a failure names the seed."""
import json
import random
import sys
import os

import numpy as np
import pytest

import openbone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracles import constraint as constraint_oracle  # noqa: E402
from conftest import make_doc  # noqa: E402

MODES = ["normal", "onlyTranslation", "noRotation", "noScale"]


def random_doc(rng):
    nb = rng.randint(5, 10)
    bones = [{"id": "b0", "name": "b0"}]
    for i in range(1, nb):
        bones.append({"id": "b%d" % i, "name": "b%d" % i, "parent": "b%d" % rng.randrange(i),
                      "length": rng.choice([0, rng.uniform(5, 60)]), "x": rng.uniform(-50, 50),
                      "y": rng.uniform(-50, 50), "rotation": rng.uniform(-200, 200),
                      "scaleX": rng.choice([1, rng.uniform(-1.5, 2)]), "scaleY": rng.choice([1, rng.uniform(-1.5, 2)]),
                      "shearX": rng.choice([0, rng.uniform(-20, 20)]), "shearY": rng.choice([0, rng.uniform(-20, 20)]),
                      "inherit": rng.choice(MODES)})
    ids = [b["id"] for b in bones]

    def pick(k):
        return rng.sample(ids, k)

    sk = {"bones": bones, "ik": [], "transform": [], "path": [], "physics": []}
    for i in range(rng.randint(0, 2)):
        # a parent/child pair for two bones when possible
        child = [b for b in bones[1:] if b["parent"] != "b0"]
        if child and rng.random() < 0.6:
            c = rng.choice(child)
            bl = [c["parent"], c["id"]]
        else:
            bl = pick(1)
        tgt = rng.choice([x for x in ids if x not in bl])
        sk["ik"].append({"id": "ik%d" % i, "bones": bl, "target": tgt, "mix": rng.choice([1, rng.uniform(0, 1)]),
                         "bendPositive": rng.random() < 0.5, "softness": rng.choice([0, rng.uniform(0, 40)]),
                         "stretch": rng.random() < 0.5, "compress": rng.random() < 0.5,
                         "uniform": rng.random() < 0.5})
    for i in range(rng.randint(0, 2)):
        bl = pick(rng.randint(1, 3))
        sk["transform"].append({
            "id": "tc%d" % i, "bones": bl, "target": rng.choice(ids),
            "mixRotate": rng.uniform(-0.2, 1), "mixTranslate": rng.uniform(-0.2, 1),
            "mixScale": rng.uniform(-0.2, 1), "mixShear": rng.uniform(-0.2, 1),
            "offsetRotation": rng.uniform(-30, 30), "offsetX": rng.uniform(-10, 10), "offsetY": rng.uniform(-10, 10),
            "offsetScaleX": rng.uniform(-0.3, 0.3), "offsetScaleY": rng.uniform(-0.3, 0.3),
            "offsetShear": rng.uniform(-10, 10), "local": rng.random() < 0.5, "relative": rng.random() < 0.5})
    slots, atts = [], {}
    if rng.random() < 0.7:
        knots = rng.randint(1, 4)
        verts = [rng.uniform(-100, 100) for _ in range(6 * knots)]
        att = {"type": "path", "vertices": verts, "closed": rng.random() < 0.4}
        if rng.random() < 0.3:
            att["constantSpeed"] = False
        if rng.random() < 0.4:
            att["weights"] = [[{"bone": rng.choice(ids + ["missing"]), "x": verts[2 * v] + rng.uniform(-5, 5),
                                "y": verts[2 * v + 1], "weight": w} for w in (0.3, 0.7)] for v in range(3 * knots)]
        slots.append({"id": "ps", "name": "ps", "bone": rng.choice(ids), "attachment": "p"})
        atts = {"ps": {"p": att}}
        for i in range(rng.randint(1, 2)):
            sk["path"].append({
                "id": "pc%d" % i, "bones": pick(rng.randint(1, 3)), "target": "ps",
                "positionMode": rng.choice(["fixed", "percent"]),
                "spacingMode": rng.choice(["length", "fixed", "percent", "proportional"]),
                "rotateMode": rng.choice(["tangent", "chain", "chainScale"]),
                "offsetRotation": rng.uniform(-20, 20), "position": rng.choice([rng.uniform(-0.5, 1.5), rng.uniform(-50, 300)]),
                "spacing": rng.uniform(-0.1, 0.4) if rng.random() < 0.5 else rng.uniform(-5, 30),
                "mixRotate": rng.uniform(-0.2, 1), "mixX": rng.uniform(-0.2, 1), "mixY": rng.uniform(-0.2, 1)})
    for i in range(rng.randint(0, 2)):
        sk["physics"].append({
            "id": "ph%d" % i, "bone": rng.choice(ids), "x": rng.uniform(0, 1), "y": rng.uniform(0, 1),
            "rotate": rng.choice([0, rng.uniform(0, 1)]), "scaleX": rng.choice([0, rng.uniform(0, 1)]),
            "inertia": rng.uniform(-0.2, 1.2), "strength": rng.uniform(0, 300), "damping": rng.uniform(0, 5),
            "mass": rng.uniform(0.2, 3), "gravity": rng.uniform(-100, 200), "wind": rng.uniform(-50, 50),
            "mix": rng.uniform(-0.2, 1.2), "fps": rng.choice([60, 30, 24, 0])})
    cons = [c for k in ("ik", "transform", "path", "physics") for c in sk[k]]
    if cons and rng.random() < 0.5:
        for c in cons:
            if rng.random() < 0.6:
                c["order"] = rng.randint(-2, 6)
    sk["slots"] = slots
    sk["skins"] = [{"id": "skin_default", "name": "default", "attachments": atts}]
    sk["referenceScale"] = rng.choice([100, 50, 150])
    # an animation moving two bones, so physics and relative modes see motion
    anim = {"id": "move", "name": "move", "duration": 1, "timelines": [
        {"target": "bone", "id": b, "property": p,
         "keys": [{"time": 0, "value": rng.uniform(-50, 50)}, {"time": 0.5, "value": rng.uniform(-50, 50)},
                  {"time": 1, "value": rng.uniform(-50, 50)}]}
        for b in pick(2) for p in ("x", "rotation")]}
    return make_doc(sk, animations=[anim])


STEPS = [1 / 60] * 5 + [1 / 30] * 3 + [0.0137] * 4 + [0.5] + [1 / 60] * 3


@pytest.mark.parametrize("seed", range(60))
def test_random_rig_matches_oracle(seed):
    rng = random.Random(seed)
    d = random_doc(rng)
    inst = openbone.Instance(openbone.loads(json.dumps(d)))
    ora = constraint_oracle.Instance(d)
    np.testing.assert_allclose(inst.world, np.array(ora.world), rtol=1e-9, atol=1e-7, err_msg="seed %d setup" % seed)
    inst.set_animation(0, "move", True, 0)
    track = constraint_oracle.Track(d["animations"][0], True)
    for k, dt in enumerate(STEPS):
        inst.advance(dt)
        track.time += dt
        ora.set_to_setup_pose()
        constraint_oracle.apply_animation_alpha1(ora, track.anim, constraint_oracle.local_time(track.anim, track.time, True))
        ora.clock += dt
        ora.pending += dt
        ora.update_world_transform()
        np.testing.assert_allclose(inst.world, np.array(ora.world), rtol=1e-9, atol=1e-7,
                                   err_msg="seed %d step %d" % (seed, k + 1))
