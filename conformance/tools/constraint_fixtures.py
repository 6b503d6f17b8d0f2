#!/usr/bin/env python3
"""Writes the §7 constraint fixtures and their case files (issue 4):

    conformance/fixtures/{ik,transform,path,physics,rigging-constraints}.obone
    conformance/cases/{ik,transform,path,physics,rigging-constraints}.json

then `python tests/oracles constraint conformance/cases/<name>.json` writes the
expected samples from the independent oracle.  The fixtures are plain JSON and
may be edited by hand instead; this script is how they were made.
"""

import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.dirname(HERE)

# irregular step groups (brief): 1/60, 1/30, 0.0137, one 0.5 jump, then 1/60 again
STEPS = [{"dt": 1 / 60, "repeat": 12}, {"dt": 1 / 30, "repeat": 6}, {"dt": 0.0137, "repeat": 9},
         {"dt": 0.5, "repeat": 1}, {"dt": 1 / 60, "repeat": 8}]


def bone(id_, parent=None, length=0, **kw):
    b = {"id": "bone_" + id_, "name": id_, "parent": ("bone_" + parent) if parent else None, "length": length}
    b.update(kw)
    return b


def doc(name, bones, slots=(), skins=None, animations=(), **sk):
    d = {"format": "openbone", "version": 1, "name": name, "width": 400, "height": 400, "originX": 200,
         "originY": 300, "fps": 30, "images": [],
         "skeleton": {"bones": bones, "slots": list(slots),
                      "skins": skins or [{"id": "skin_default", "name": "default", "attachments": {}}]},
         "events": [], "animations": list(animations), "stateMachines": [], "scripts": []}
    d["skeleton"].update(sk)
    return d


def key(t, v, curve=None):
    k = {"time": t, "value": v}
    if curve:
        k["curve"] = curve
    return k


def tl(target, id_, prop, keys):
    return {"target": target, "id": id_, "property": prop, "keys": keys}


def ik_doc():
    bones = [
        bone("root"),
        bone("shoulder", "root", 60, x=-40, y=100, rotation=-30),
        bone("elbow", "shoulder", 50, x=60, rotation=20, scaleX=1.1),
        bone("hand", "elbow", 15, x=50),
        bone("pad", "shoulder", 10, x=30, y=5, rotation=90),          # the other child of the parent bone
        bone("aim", "root", 0, x=40, y=60),
        bone("hip", "root", 20, x=60, y=80, scaleX=-1, rotation=10),   # reflected parent (det < 0)
        bone("thigh", "hip", 40, x=20, rotation=-70),
        bone("shin", "thigh", 45, x=40, rotation=30),
        bone("foot", "root", 0, x=40, y=20),
        bone("neck", "root", 20, x=0, y=150, rotation=80),
        bone("head", "neck", 30, x=20, rotation=-10, shearX=5),
        bone("look", "root", 0, x=60, y=190),
    ]
    ik = [
        {"id": "ik_arm", "name": "arm", "bones": ["bone_shoulder", "bone_elbow"], "target": "bone_aim",
         "mix": 0.9, "bendPositive": False, "softness": 15, "stretch": True, "compress": False},
        {"id": "ik_leg", "name": "leg", "bones": ["bone_thigh", "bone_shin"], "target": "bone_foot",
         "mix": 1, "bendPositive": True, "softness": 0, "stretch": True, "uniform": True},
        {"id": "ik_head", "name": "head", "bones": ["bone_head"], "target": "bone_look",
         "mix": 0.6, "bendPositive": True, "stretch": True, "compress": True},
    ]
    reach = {"id": "anim_reach", "name": "reach", "duration": 2, "timelines": [
        tl("bone", "bone_aim", "x", [key(0, 40), key(0.5, 130), key(1, 20), key(1.5, -60), key(2, 40)]),
        tl("bone", "bone_aim", "y", [key(0, 60), key(0.5, 120), key(1, 200), key(1.5, 90), key(2, 60)]),
        tl("bone", "bone_foot", "x", [key(0, 40), key(1, 140), key(2, 40)]),
        tl("bone", "bone_foot", "y", [key(0, 20), key(1, -10), key(2, 20)]),
        tl("bone", "bone_look", "x", [key(0, 60), key(1, 15), key(2, 60)]),
        tl("bone", "bone_look", "y", [key(0, 190), key(0.7, 230), key(2, 190)]),
        tl("ik", "ik_arm", "mix", [key(0, 0.9), key(1, 0.4), key(2, 0.9)]),
        tl("ik", "ik_arm", "softness", [key(0, 15), key(1, 40), key(2, 15)]),
        tl("ik", "ik_head", "compress", [key(0, 1), key(1, 0, "stepped")]),
        tl("ik", "ik_leg", "bend", [key(0, 1), key(1.2, -1, "stepped")]),
    ]}
    return doc("ik", bones, animations=[reach], ik=ik, referenceScale=80)


def transform_doc():
    bones = [bone("root"), bone("driver", "root", 30, x=50, y=40, rotation=25, scaleX=1.2, scaleY=0.8, shearY=10)]
    cons = []
    for i, (local, relative) in enumerate([(False, False), (False, True), (True, False), (True, True)]):
        n = ("local" if local else "world") + ("_rel" if relative else "_abs")
        bones.append(bone(n, "root", 25, x=-60 + 40 * i, y=-30, rotation=-40 + 15 * i, scaleX=0.9, shearX=5))
        bones.append(bone(n + "_child", n, 15, x=25, rotation=30, inherit=["normal", "noScale", "noRotation",
                                                                             "onlyTranslation"][i]))
        cons.append({"id": "tc_" + n, "name": n, "bones": ["bone_" + n], "target": "bone_driver",
                     "mixRotate": 0.8, "mixTranslate": 0.6, "mixScale": 0.5, "mixShear": 0.7,
                     "offsetRotation": 15, "offsetX": 5, "offsetY": -8, "offsetScaleX": 0.1,
                     "offsetScaleY": -0.2, "offsetShear": 6, "local": local, "relative": relative})
    drive = {"id": "anim_drive", "name": "drive", "duration": 1.5, "timelines": [
        tl("bone", "bone_driver", "rotation", [key(0, 25), key(0.75, 160), key(1.5, 385)]),
        tl("bone", "bone_driver", "x", [key(0, 50), key(1.5, -20)]),
        tl("bone", "bone_driver", "scaleX", [key(0, 1.2), key(0.5, 0.6), key(1.5, 1.2)]),
        tl("bone", "bone_driver", "shearY", [key(0, 10), key(1, -25), key(1.5, 10)]),
        tl("transform", "tc_world_abs", "mixRotate", [key(0, 0.8), key(0.6, 0), key(1.5, 0.8)]),
        tl("transform", "tc_world_rel", "mix", [key(0, 1), key(0.75, 0.5), key(1.5, 1)]),
    ]}
    return doc("transform", bones, animations=[drive], transform=cons)


def path_doc():
    bones = [bone("root"), bone("rail", "root", 0, x=-80, y=20, rotation=10, scaleX=1.1),
             bone("ring", "root", 0, x=60, y=100), bone("ring_helper", "root", 0, x=70, y=110, rotation=20)]
    for prefix, n in (("a", 4), ("b", 3), ("c", 3)):
        parent = "root"
        for i in range(n):
            bones.append(bone("%s%d" % (prefix, i), parent, 18 + 4 * i, x=0 if parent == "root" else 18 + 4 * (i - 1)))
            parent = "%s%d" % (prefix, i)
    r, k = 50.0, 0.5522847498 * 50.0
    circle = []  # 4 knots on a circle (in, anchor, out), counter-clockwise from (r, 0)
    for (ax, ay), (tx, ty) in [((r, 0), (0, 1)), ((0, r), (-1, 0)), ((-r, 0), (0, -1)), ((0, -r), (1, 0))]:
        circle += [ax - tx * k, ay - ty * k, ax, ay, ax + tx * k, ay + ty * k]
    weights = []
    for i in range(len(circle) // 2):
        x, y = circle[2 * i], circle[2 * i + 1]
        weights.append([{"bone": "bone_ring", "x": x, "y": y, "weight": 0.7},
                        {"bone": "bone_ring_helper", "x": x - 10, "y": y - 10, "weight": 0.3}])
    slots = [{"id": "slot_rail", "name": "rail", "bone": "bone_rail", "attachment": "rail"},
             {"id": "slot_ring", "name": "ring", "bone": "bone_ring", "attachment": "ring"},
             {"id": "slot_wave", "name": "wave", "bone": "bone_rail", "attachment": "wave"}]
    atts = {
        "slot_rail": {"rail": {"type": "path", "closed": False,
                               "vertices": [-20, -10, 0, 0, 40, 30, 60, 50, 100, 50, 140, 50, 170, 30, 200, 0, 230, -40]}},
        "slot_ring": {"ring": {"type": "path", "closed": True, "vertices": circle, "weights": weights}},
        "slot_wave": {"wave": {"type": "path", "closed": False, "constantSpeed": False,
                               "vertices": [0, 0, 0, -60, 10, -60, 80, -20, 100, -60, 140, -90, 160, -80, 200, -60, 220, -40]}},
    }
    skins = [{"id": "skin_default", "name": "default", "attachments": atts}]
    path = [
        {"id": "pc_rail", "name": "rail", "bones": ["bone_a0", "bone_a1", "bone_a2", "bone_a3"], "target": "slot_rail",
         "positionMode": "percent", "spacingMode": "length", "rotateMode": "tangent", "offsetRotation": 5,
         "position": 0.1, "spacing": 4, "mixRotate": 1, "mixX": 1, "mixY": 0.8},
        {"id": "pc_ring", "name": "ring", "bones": ["bone_b0", "bone_b1", "bone_b2"], "target": "slot_ring",
         "positionMode": "fixed", "spacingMode": "proportional", "rotateMode": "chainScale",
         "position": 30, "spacing": 0.4, "mixRotate": 0.9, "mixX": 1, "mixY": 1},
        {"id": "pc_wave", "name": "wave", "bones": ["bone_c0", "bone_c1", "bone_c2"], "target": "slot_wave",
         "positionMode": "fixed", "spacingMode": "fixed", "rotateMode": "chain",
         "position": -15, "spacing": 35, "mixRotate": 0.7, "mixX": 0.9, "mixY": 1},
    ]
    slide = {"id": "anim_slide", "name": "slide", "duration": 2, "timelines": [
        tl("path", "pc_rail", "position", [key(0, 0.1), key(1, 0.95), key(2, 0.1)]),
        tl("path", "pc_ring", "position", [key(0, 30), key(2, 30 + 2 * 314.2)]),
        tl("path", "pc_wave", "position", [key(0, -15), key(1.2, 180), key(2, -15)]),
        tl("path", "pc_wave", "spacing", [key(0, 35), key(1, 10), key(2, 35)]),
        tl("bone", "bone_rail", "rotation", [key(0, 10), key(1, -20), key(2, 10)]),
        tl("bone", "bone_ring_helper", "x", [key(0, 70), key(1, 90), key(2, 70)]),
        tl("bone", "bone_ring", "rotation", [key(0, 0), key(2, 90)]),
    ]}
    return doc("path", bones, slots, skins, animations=[slide], path=path)


def physics_doc():
    bones = [bone("root"), bone("body", "root", 30, x=0, y=100),
             bone("tail0", "body", 30, x=-10, rotation=200),
             bone("tail1", "tail0", 25, x=30, rotation=-15),
             bone("tail2", "tail1", 20, x=25, rotation=-10),
             bone("flag", "root", 40, x=80, y=150, rotation=90),
             bone("cloth", "flag", 35, x=40, rotation=-90, scaleX=0.8)]
    phys = [
        {"id": "ph_tail0", "name": "tail0", "bone": "bone_tail0", "x": 0, "y": 0, "rotate": 1, "scaleX": 0,
         "inertia": 0.5, "strength": 120, "damping": 3, "mass": 1, "gravity": 150, "wind": 0, "mix": 1, "fps": 60},
        {"id": "ph_tail1", "name": "tail1", "bone": "bone_tail1", "x": 0.5, "y": 0.5, "rotate": 0.8, "scaleX": 0.3,
         "inertia": 0.2, "strength": 80, "damping": 1.5, "mass": 1.5, "gravity": 150, "wind": 0, "mix": 0.8, "fps": 60},
        {"id": "ph_tail2", "name": "tail2", "bone": "bone_tail2", "x": 1, "y": 1, "rotate": 1, "scaleX": 1,
         "inertia": 0, "strength": 60, "damping": 2, "mass": 1, "gravity": 150, "wind": -20, "mix": 1, "fps": 30},
        {"id": "ph_cloth", "name": "cloth", "bone": "bone_cloth", "x": 1, "y": 0.5, "rotate": 0.6, "scaleX": 0.5,
         "inertia": 1, "strength": 200, "damping": 4, "mass": 2, "gravity": 60, "wind": 90, "mix": 0.7, "fps": 24},
    ]
    sway = {"id": "anim_sway", "name": "sway", "duration": 1.2, "timelines": [
        tl("bone", "bone_body", "x", [key(0, 0), key(0.3, 60), key(0.9, -50), key(1.2, 0)]),
        tl("bone", "bone_body", "rotation", [key(0, 0), key(0.6, 35), key(1.2, 0)]),
        tl("bone", "bone_flag", "y", [key(0, 150), key(0.4, 190), key(1.2, 150)]),
        tl("physics", "ph_cloth", "wind", [key(0, 90), key(0.6, -60), key(1.2, 90)]),
        tl("physics", "ph_tail1", "mix", [key(0, 0.8), key(0.6, 0), key(1.2, 0.8)]),
    ]}
    return doc("physics", bones, animations=[sway], physics=phys, referenceScale=120)


def rigging_constraints_doc():
    with open(os.path.join(CONF, "fixtures", "rigging.obone"), encoding="utf-8") as f:
        d = json.load(f)
    d = copy.deepcopy(d)
    d["name"] = "rigging-constraints"
    sk = d["skeleton"]
    # no drawable attachments: the draw list is not what these cases check
    for s in sk["skins"]:
        s["attachments"] = {}
    sk["bones"].append(bone("cape_target", "root", 0, x=-40, y=60))
    sk["bones"].append(bone("reach", "root", 0, x=90, y=200))
    sk["ik"] = [
        {"id": "ik_cape", "name": "cape_ik", "order": 5, "bones": ["bone_cape", "bone_cape_tip"],
         "target": "bone_cape_target", "mix": 1, "bendPositive": True, "softness": 10, "stretch": False},
        {"id": "ik_spine", "name": "spine_ik", "bones": ["bone_spine"], "target": "bone_reach", "mix": 0.5,
         "bendPositive": True, "stretch": True},
    ]
    sk["transform"] = [
        {"id": "tc_target", "name": "target_follow", "order": 1, "bones": ["bone_cape_target"],
         "target": "bone_shear", "mixRotate": 0, "mixTranslate": 0.5, "mixScale": 0, "mixShear": 0,
         "offsetX": 10, "offsetY": 0},
    ]
    sk["physics"] = [
        {"id": "ph_weapon", "name": "weapon_physics", "bone": "bone_weapon", "x": 1, "y": 1, "rotate": 1,
         "scaleX": 0, "inertia": 0.5, "strength": 90, "damping": 2, "mass": 1, "gravity": 100, "wind": 10,
         "mix": 1, "fps": 60},
    ]
    for s in sk["skins"]:
        if s["id"] == "skin_hero":
            s["constraints"] = ["ik_cape", "ph_weapon"]
    return d


def cases_for(name, fixture, animation=None, extra=()):
    cases = [{"name": "setup", "setup": True}, {"name": "steps/no-animation", "steps": STEPS}]
    if animation:
        cases.append({"name": "steps/" + animation, "tracks": [{"track": 0, "animation": animation, "loop": True}],
                      "steps": STEPS})
    cases += list(extra)
    return {"document": "../fixtures/" + fixture, "cases": cases}


def main():
    docs = {"ik": ik_doc(), "transform": transform_doc(), "path": path_doc(), "physics": physics_doc(),
            "rigging-constraints": rigging_constraints_doc()}
    cases = {
        "ik": cases_for("ik", "ik.obone", "reach"),
        "transform": cases_for("transform", "transform.obone", "drive"),
        "path": cases_for("path", "path.obone", "slide"),
        "physics": cases_for("physics", "physics.obone", "sway"),
        "rigging-constraints": {"document": "../fixtures/rigging-constraints.obone", "cases": [
            {"name": "setup/none", "setup": True},
            {"name": "setup/hero", "skin": "hero", "setup": True},
            {"name": "setup/villain", "skin": "villain", "setup": True},
            {"name": "steps/hero-villain-hero", "skin": "hero", "steps": [
                {"dt": 1 / 60, "repeat": 10}, {"dt": 0.0137, "repeat": 5},
                {"dt": 1 / 30, "repeat": 6, "actions": [{"setSkin": "villain"}]},
                {"dt": 1 / 60, "repeat": 6, "actions": [{"setSkin": "hero"}]},
                {"dt": 0.5, "repeat": 1}, {"dt": 1 / 30, "repeat": 4}]},
        ]},
    }
    for name, d in docs.items():
        with open(os.path.join(CONF, "fixtures", name + ".obone"), "w", encoding="utf-8") as f:
            json.dump(d, f, indent=1)
            f.write("\n")
        with open(os.path.join(CONF, "cases", name + ".json"), "w", encoding="utf-8") as f:
            json.dump(cases[name], f, indent=2)
            f.write("\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
