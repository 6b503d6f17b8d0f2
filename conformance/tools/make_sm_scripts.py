"""Writes conformance/fixtures/state-machine-scripts.obone, its case file and its
expected samples.  The expected numbers are worked out here by hand from the
spec's formulas (no runtime code is called); conformance/README.md lists them.

The rig: bones root, arm (x 10) and follower (y 30); a world transform
constraint `follow` (follower copies arm's rotation, setup mixRotate 0); a text
slot showing `{multiplier:0.00x}`.  The machine `gauge` has inputs level
(number), multiplier (number) and go (trigger); bindings map level [0, 1] to
arm rotation [0, 90] (§9.6 bone) and to follow's mixRotate [0, 1] (§9.6
constraint); a machine script fires `go` from onUpdate once level ≥ 0.5
(§11), and the trigger takes idle → done in the same frame (§9.1 step 4 runs
before step 5's settle).
"""
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from oracles.common import num_out as js_round  # noqa: E402  (Math.round(n·1e4)/1e4, -0 → 0; no runtime code)

DOC = {
    "format": "openbone", "version": 1, "name": "state-machine-scripts", "width": 200, "height": 200, "fps": 30,
    "skeleton": {
        "bones": [
            {"id": "b_root", "name": "root"},
            {"id": "b_arm", "name": "arm", "parent": "b_root", "x": 10, "length": 20},
            {"id": "b_follower", "name": "follower", "parent": "b_root", "y": 30, "length": 10},
        ],
        "slots": [{"id": "s_label", "name": "label", "bone": "b_root", "attachment": "label"}],
        "skins": [{"id": "skin_default", "name": "default", "attachments": {"s_label": {"label": {
            "type": "text", "text": "{multiplier:0.00x}", "x": 0, "y": -30, "rotation": 0,
            "width": 60, "height": 20, "font": "sans-serif", "size": 12, "weight": "normal",
            "color": "#ffffff", "align": "center"}}}}],
        "transform": [{"id": "tc_follow", "name": "follow", "bones": ["b_follower"], "target": "b_arm",
                       "mixRotate": 0, "mixTranslate": 0, "mixScale": 0, "mixShear": 0}],
    },
    "animations": [
        {"id": "anim_idle", "name": "idle", "duration": 1, "timelines": []},
        {"id": "anim_done", "name": "done", "duration": 1, "timelines": []},
    ],
    "scripts": [{"id": "sc_main", "name": "main",
                 "code": "function onUpdate(dt) { if (ob.input('level') >= 0.5) ob.fire('go'); }"}],
    "stateMachines": [{
        "id": "sm_gauge", "name": "gauge",
        "inputs": [{"id": "in_level", "name": "level", "type": "number", "default": 0},
                   {"id": "in_mult", "name": "multiplier", "type": "number", "default": 1},
                   {"id": "in_go", "name": "go", "type": "trigger"}],
        "bindings": [
            {"id": "bd_arm", "input": "in_level", "object": "bone", "target": "b_arm", "property": "rotation",
             "inMin": 0, "inMax": 1, "outMin": 0, "outMax": 90},
            {"id": "bd_follow", "input": "in_level", "object": "constraint", "target": "tc_follow",
             "property": "mixRotate", "inMin": 0, "inMax": 1, "outMin": 0, "outMax": 1},
        ],
        "layers": [{"id": "ly_main", "name": "main", "entry": "st_idle",
                    "states": [{"id": "st_idle", "name": "idle", "type": "animation", "animation": "anim_idle"},
                               {"id": "st_done", "name": "done", "type": "animation", "animation": "anim_done"}],
                    "transitions": [{"id": "tr_go", "from": "st_idle", "to": "st_done", "duration": 0,
                                     "conditions": [{"input": "in_go"}]}]}],
        "listeners": [],
        "scripts": ["sc_main"],
    }],
}

CASES = {"document": "../fixtures/state-machine-scripts.obone", "cases": [{
    "name": "sm/script-trigger-bindings-text", "stateMachine": "gauge",
    "steps": [
        {"dt": 0.1, "repeat": 1},
        {"dt": 0.1, "repeat": 1, "actions": [{"setInput": ["level", 0.25]}, {"setInput": ["multiplier", 1.5]}]},
        {"dt": 0.1, "repeat": 2, "actions": [{"setInput": ["level", 0.75]}]},
    ]}]}


def rot(deg, x, y):
    """A bone world [a b; c d | x y] of a pure rotation (§4.1: a = cos, b = cos(r + 90°) = −sin,
    c = sin, d = sin(r + 90°) = cos)."""
    r = math.radians(deg)
    return {"x": x, "y": y, "a": math.cos(r), "b": -math.sin(r), "c": math.sin(r), "d": math.cos(r)}


def sample(step, time, level, text, state):
    arm = 90 * level                 # §9.6: outMin + (outMax − outMin)·t, t = level (in [0, 1])
    follower = arm * level           # §7.2 world absolute rotate: wrap(rot(t) + 0 − 0)·mixRotate, mixRotate = level
    bones = [("root", rot(0, 0, 0)), ("arm", rot(arm, 10, 0)), ("follower", rot(follower, 0, 30))]
    return {
        "step": step, "time": js_round(time),
        "bones": [{"name": n, **{k: js_round(v) for k, v in m.items()}} for n, m in bones],
        "slots": [{"name": "label", "attachment": "label", "color": [1, 1, 1, 1], "dark": None}],
        # §8.4 text: the unscaled box quad (hw 30, hh 10) at (0, -30) through root's identity world
        "draw": [{"slot": "label", "attachment": "label", "type": "text", "blend": "normal", "texture": None,
                  "vertices": [-30, -20, 30, -20, 30, -40, -30, -40], "uvs": [0, 0, 1, 0, 1, 1, 0, 1],
                  "indices": [0, 1, 2, 0, 2, 3], "color": [1, 1, 1, 1], "dark": None, "colors": None,
                  "clip": None, "text": text}],
        "events": [], "audio": [], "states": [state],
    }


def expected():
    t = 0.0
    out = []
    # step 1: level 0 ⇒ arm 0°, follower 0°; multiplier 1 ⇒ "1.00x"; idle
    t += 0.1
    out.append(sample(1, t, 0.0, "1.00x", "idle"))
    # step 2: level 0.25 ⇒ arm 22.5°, follower 22.5·0.25 = 5.625°; "1.50x"; still idle (0.25 < 0.5)
    t += 0.1
    out.append(sample(2, t, 0.25, "1.50x", "idle"))
    # steps 3, 4: level 0.75 ⇒ arm 67.5°, follower 50.625°; onUpdate fires go (step 4), settle
    # takes idle → done in the same frame (step 5); the trigger clears at step 6; done stays
    for step in (3, 4):
        t += 0.1
        out.append(sample(step, t, 0.75, "1.50x", "done"))
    return {"document": CASES["document"], "cases": [{"name": CASES["cases"][0]["name"], "samples": out}]}


def main():
    (ROOT / "conformance" / "fixtures" / "state-machine-scripts.obone").write_text(json.dumps(DOC, indent=1) + "\n")
    (ROOT / "conformance" / "cases" / "state-machine-scripts.json").write_text(json.dumps(CASES, indent=1) + "\n")
    (ROOT / "conformance" / "expected" / "state-machine-scripts.json").write_text(json.dumps(expected(), indent=1) + "\n")


if __name__ == "__main__":
    main()
