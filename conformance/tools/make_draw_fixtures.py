#!/usr/bin/env python3
"""Writes the draw-list fixtures and their case files (issue 5, runtime spec §8).

    python conformance/tools/make_draw_fixtures.py

Fixtures are small hand-built rigs with round numbers so that key values can be
checked by hand (conformance/README.md, "Draw list").  Expected samples come from
tests/oracles/draw.py (python conformance/tools/make_expected.py for the files the
base oracle runs; python tests/oracles draw for the bounds / setText files).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.dirname(HERE)


def bone(id, parent=None, x=0, y=0, rotation=0, scaleX=1, scaleY=1, shearX=0, shearY=0, length=0):
    return {"id": id, "name": id.replace("bone_", ""), "parent": parent, "length": length, "x": x, "y": y,
            "rotation": rotation, "scaleX": scaleX, "scaleY": scaleY, "shearX": shearX, "shearY": shearY,
            "inherit": "normal"}


def slot(id, bone, attachment, color="#ffffff", blend="normal", dark=None):
    s = {"id": id, "name": id.replace("slot_", ""), "bone": bone, "color": color, "attachment": attachment,
         "blend": blend}
    if dark:
        s["dark"] = dark
    return s


def doc(name, images, bones, slots, skins, atlas=None, machines=None):
    d = {"format": "openbone", "version": 1, "name": name, "width": 400, "height": 300, "originX": 200,
         "originY": 250, "background": "#ffffff", "fps": 30, "images": images,
         "skeleton": {"bones": bones, "slots": slots, "skins": skins},
         "events": [], "animations": [], "stateMachines": machines or [], "scripts": []}
    if atlas:
        d["atlas"] = atlas
    return d


def img(id, w, h):
    return {"id": id, "name": id.replace("img_", ""), "src": "", "width": w, "height": h}


def region(image, w, h, x=0, y=0, rotation=0, sx=1, sy=1, color="#ffffff", **kw):
    a = {"type": "region", "image": image, "x": x, "y": y, "rotation": rotation, "scaleX": sx, "scaleY": sy,
         "width": w, "height": h, "color": color}
    a.update(kw)
    return a


def write(name, d, cases):
    with open(os.path.join(CONF, "fixtures", name + ".obone"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
    with open(os.path.join(CONF, "cases", name + ".json"), "w") as f:
        json.dump({"document": "../fixtures/%s.obone" % name, "cases": cases}, f, indent=1)
        f.write("\n")


SETUP = {"name": "setup", "skin": None, "setup": True}


def steps(name, dt, repeat, actions=None, **kw):
    c = {"name": name, "skin": None, "setup": False, "tracks": [], "queue": [], "stateMachine": None,
         "steps": [{"dt": dt, "repeat": repeat, "actions": actions or []}], "bounds": False, "queries": []}
    c.update(kw)
    return c


def octagon(w, h, inset):
    """A convex octagon inside a w × h image (y-down pixels)."""
    return [inset, 0, w - inset, 0, w, inset, w, h - inset, w - inset, h, inset, h, 0, h - inset, 0, inset]


def knight_parts():
    images = [img("img_helm", 40, 30), img("img_torso", 60, 80), img("img_shield", 50, 50),
              img("img_sword", 20, 100), img("img_cape", 64, 64), img("img_blank", 16, 16),
              img("img_loose", 32, 32)]
    bones = [bone("bone_root"), bone("bone_body", "bone_root", 0, 50, 10, 1.5, 1.25),
             bone("bone_arm", "bone_body", 30, 20, -30, 1, 0.8, 0, 15)]
    slots = [slot("slot_cape", "bone_body", "cape"), slot("slot_torso", "bone_body", "torso", "#ff8080c0"),
             slot("slot_helm", "bone_body", "helm", dark="#102030"), slot("slot_shield", "bone_arm", "shield"),
             slot("slot_sword", "bone_arm", "sword", blend="additive"), slot("slot_blank", "bone_root", "blank"),
             slot("slot_loose", "bone_root", "loose"), slot("slot_ghost", "bone_root", "ghost")]
    atts = {
        "slot_cape": {"cape": {"type": "mesh", "image": "img_cape", "color": "#ffffff",
                               "vertices": [-32, -32, 32, -32, 32, 32, -32, 32, 0, 0],
                               "uvs": [0, 1, 1, 1, 1, 0, 0, 0, 0.5, 0.5],
                               "triangles": [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4], "hull": 4}},
        "slot_torso": {"torso": region("img_torso", 60, 80, 5, 10, 0, 1, 1)},
        "slot_helm": {"helm": region("img_helm", 40, 30, 0, 70, 20, 1.2, 0.9, skewX=10, skewY=-5)},
        "slot_shield": {"shield": region("img_shield", 50, 50, 20, 0, -90, 1, 1, "#80ff80")},
        "slot_sword": {"sword": region("img_sword", 20, 100, 0, 50, 0, 1, 1)},
        "slot_blank": {"blank": region("img_blank", 16, 16, 0, 0, 0)},
        "slot_loose": {"loose": region("img_loose", 32, 32, -80, 10, 45)},
        "slot_ghost": {"ghost": region("img_missing", 10, 10, 60, 60, 0)},
    }
    return images, bones, slots, atts


def atlas_knight():
    images, bones, slots, atts = knight_parts()
    regions = [
        # plain: untrimmed, not rotated
        {"image": "img_torso", "page": "page_0", "x": 2, "y": 2, "width": 60, "height": 80, "offsetX": 0,
         "offsetY": 0, "originalWidth": 60, "originalHeight": 80},
        # rotated, untrimmed: covers 30 × 40 page pixels at (64, 2)
        {"image": "img_helm", "page": "page_0", "x": 64, "y": 2, "width": 40, "height": 30, "offsetX": 0,
         "offsetY": 0, "originalWidth": 40, "originalHeight": 30, "rotated": True},
        # trimmed, not rotated: the packed part is 40 × 36 of 50 × 50 at offset (4, 6)
        {"image": "img_shield", "page": "page_0", "x": 100, "y": 2, "width": 40, "height": 36, "offsetX": 4,
         "offsetY": 6, "originalWidth": 50, "originalHeight": 50},
        # rotated and trimmed: 16 × 90 of 20 × 100 at offset (2, 4), covering 90 × 16 page pixels
        {"image": "img_sword", "page": "page_1", "x": 10, "y": 20, "width": 16, "height": 90, "offsetX": 2,
         "offsetY": 4, "originalWidth": 20, "originalHeight": 100, "rotated": True},
        # mesh image, rotated and trimmed
        {"image": "img_cape", "page": "page_1", "x": 120, "y": 4, "width": 60, "height": 56, "offsetX": 2,
         "offsetY": 4, "originalWidth": 64, "originalHeight": 64, "rotated": True},
        # an empty (blank) image: the 1 × 1 transparent block
        {"image": "img_blank", "page": "page_0", "x": 250, "y": 120, "width": 1, "height": 1, "offsetX": 0,
         "offsetY": 0, "originalWidth": 1, "originalHeight": 1, "empty": True},
        # a region whose image does not exist: ignored
        {"image": "img_nothing", "page": "page_0", "x": 0, "y": 0, "width": 8, "height": 8},
    ]
    atlas = {"pages": [{"id": "page_0", "name": "knight", "src": "knight.png", "width": 256, "height": 128},
                       {"id": "page_1", "name": "knight_2", "src": "knight_2.png", "width": 256, "height": 256}],
             "regions": regions, "white": {"page": "page_0", "x": 200, "y": 100, "width": 4, "height": 4},
             "padding": 2}
    d = doc("atlas-knight", images, bones, slots, [{"id": "skin_default", "name": "default", "attachments": atts}],
            atlas)
    write("atlas-knight", d, [SETUP, steps("steps", 0.25, 2)])


def atlas_polygons():
    images, bones, slots, atts = knight_parts()
    regions = [
        {"image": "img_torso", "page": "page_0", "x": 2, "y": 2, "width": 60, "height": 80,
         "originalWidth": 60, "originalHeight": 80, "polygon": octagon(60, 80, 10)},
        {"image": "img_helm", "page": "page_0", "x": 64, "y": 2, "width": 40, "height": 30,
         "originalWidth": 40, "originalHeight": 30, "rotated": True, "polygon": octagon(40, 30, 6)},
        # trimmed with a polygon: the polygon replaces the trim
        {"image": "img_shield", "page": "page_0", "x": 100, "y": 2, "width": 40, "height": 36, "offsetX": 4,
         "offsetY": 6, "originalWidth": 50, "originalHeight": 50,
         "polygon": [8, 6, 42, 6, 44, 20, 40, 40, 25, 42, 10, 40, 6, 20, 7, 10]},
        {"image": "img_sword", "page": "page_1", "x": 10, "y": 20, "width": 16, "height": 90, "offsetX": 2,
         "offsetY": 4, "originalWidth": 20, "originalHeight": 100, "rotated": True,
         "polygon": [4, 4, 16, 4, 18, 50, 16, 94, 10, 96, 4, 94, 2, 50, 3, 20]},
        # a polygon of 2 points (< 6 numbers): ignored, the trimmed quad is drawn
        {"image": "img_cape", "page": "page_1", "x": 120, "y": 4, "width": 60, "height": 56, "offsetX": 2,
         "offsetY": 4, "originalWidth": 64, "originalHeight": 64, "rotated": True, "polygon": [0, 0, 64, 64]},
        {"image": "img_loose", "page": "page_1", "x": 200, "y": 200, "width": 32, "height": 32,
         "originalWidth": 32, "originalHeight": 32, "polygon": octagon(32, 32, 8)},
    ]
    atlas = {"pages": [{"id": "page_0", "name": "knight", "src": "knight.png", "width": 256, "height": 128},
                       {"id": "page_1", "name": "knight_2", "src": "knight_2.png", "width": 256, "height": 256}],
             "regions": regions, "premultipliedAlpha": True, "polygons": True, "stripWhitespace": True,
             "padding": 2}
    d = doc("atlas-polygons", images, bones, slots,
            [{"id": "skin_default", "name": "default", "attachments": atts}], atlas)
    write("atlas-polygons", d, [SETUP])


def clipping():
    images = [img("img_a", 40, 40), img("img_b", 64, 64)]
    bones = [bone("bone_root"), bone("bone_mask", "bone_root", 10, 20, 15, 1.2, 1),
             bone("bone_b", "bone_root", -30, 40, -20), bone("bone_skin", "bone_root", 0, 0, 0),
             bone("bone_w1", "bone_root", -20, 0, 0), bone("bone_w2", "bone_root", 20, 0, 90)]
    slots = [
        slot("slot_before", "bone_root", "a"),
        slot("slot_clip1", "bone_mask", "clip1"),
        slot("slot_in1", "bone_b", "a", "#ff000080"),
        slot("slot_ignored", "bone_root", "clip_ignored"),   # met while clip1 is active: ignored
        slot("slot_mesh", "bone_root", "mesh"),              # weighted mesh
        slot("slot_shape", "bone_b", "shape"),               # shape without an atlas white block
        slot("slot_end1", "bone_root", None),                # clip1 ends here (draws nothing)
        slot("slot_after", "bone_root", "a"),
        slot("slot_clip_small", "bone_root", "clip_small"),  # 2 points: never a mask
        slot("slot_clip2", "bone_root", "clip2"),
        slot("slot_in2", "bone_root", "a"),
        slot("slot_end2", "bone_skin", "a"),                 # clip2's end; bone_skin is skin-only
        slot("slot_tail", "bone_root", "a"),
    ]
    weights = [[{"bone": "bone_w1", "x": -10, "y": -10, "weight": 1}],
               [{"bone": "bone_w1", "x": 10, "y": -10, "weight": 0.5}, {"bone": "bone_w2", "x": -10, "y": -20, "weight": 0.5}],
               [{"bone": "bone_w2", "x": 10, "y": -20, "weight": 0.75}, {"bone": "bone_missing", "x": 30, "y": 10, "weight": 0.25}],
               [{"bone": "bone_w1", "x": -10, "y": 10, "weight": 1}]]
    atts = {
        "slot_before": {"a": region("img_a", 40, 40, 0, -60)},
        "slot_clip1": {"clip1": {"type": "clipping", "end": "slot_end1", "color": "#ff0000",
                                 "vertices": [-50, -40, 50, -40, 50, 40, 0, 0, -50, 40]}},
        "slot_in1": {"a": region("img_a", 40, 40, 5, 5, 30)},
        "slot_ignored": {"clip_ignored": {"type": "clipping", "end": None,
                                          "vertices": [0, 0, 10, 0, 10, 10]}},
        "slot_mesh": {"mesh": {"type": "mesh", "image": "img_b", "color": "#ffffff", "vertices": [],
                               "weights": weights, "uvs": [0, 1, 1, 1, 1, 0, 0, 0],
                               "triangles": [0, 1, 2, 0, 2, 3], "hull": 4}},
        "slot_shape": {"shape": {"type": "shape", "shape": "polygon", "x": 3, "y": -4, "rotation": 10,
                                 "width": 0, "height": 0, "points": [0, 0, 30, 0, 30, 20, 15, 8, 0, 20],
                                 "fill": "#3366ccff", "stroke": "#000000", "strokeWidth": 2}},
        "slot_after": {"a": region("img_a", 40, 40, 0, 80)},
        "slot_clip_small": {"clip_small": {"type": "clipping", "end": None, "vertices": [0, 0, 10, 10]}},
        "slot_clip2": {"clip2": {"type": "clipping", "end": "slot_end2",
                                 "vertices": [0, 0, 100, 0, 100, 100, 60, 100, 60, 40, 40, 40, 40, 100, 0, 100]}},
        "slot_in2": {"a": region("img_a", 40, 40, 50, 20)},
        "slot_end2": {"a": region("img_a", 40, 40, 50, 60)},
        "slot_tail": {"a": region("img_a", 20, 20, 120, 0)},
    }
    skins = [{"id": "skin_default", "name": "default", "attachments": atts},
             {"id": "skin_on", "name": "on", "attachments": {}, "bones": ["bone_skin"]}]
    d = doc("clipping", images, bones, slots, skins)
    # skin "on": bone_skin active, so clip2 ends at slot_end2 (which is clipped) and slot_tail is not;
    # no skin: bone_skin inactive, slot_end2 draws nothing but still ends clip2.
    write("clipping", d, [SETUP, {"name": "setup/on", "skin": "on", "setup": True}])


def shapes():
    bones = [bone("bone_root"), bone("bone_s", "bone_root", 20, 30, 30, 1.5, 0.5)]
    slots = [slot("slot_rect", "bone_root", "rect", "#ffffffcc"), slot("slot_round", "bone_s", "round"),
             slot("slot_pill", "bone_root", "pill"), slot("slot_ellipse", "bone_s", "ellipse", dark="#ff0000"),
             slot("slot_poly", "bone_root", "poly"), slot("slot_stroke", "bone_root", "stroke"),
             slot("slot_hidden", "bone_root", "hidden"), slot("slot_faded", "bone_root", "faded", "#ffffff00"),
             slot("slot_nofill", "bone_root", "nofill")]

    def shape(kind, **kw):
        a = {"type": "shape", "shape": kind, "x": 0, "y": 0, "rotation": 0, "width": 0, "height": 0}
        a.update(kw)
        return a
    atts = {
        "slot_rect": {"rect": shape("rect", x=10, y=5, width=40, height=20, fill="#ff8000", stroke="#000000",
                                    strokeWidth=1)},
        "slot_round": {"round": shape("rect", rotation=20, width=60, height=40, radius=8, fill="#00ff0080")},
        # radius larger than hh: r = min(radius, hw, hh) = 10
        "slot_pill": {"pill": shape("rect", x=-50, y=-50, width=60, height=20, radius=25, fill="#0000ff")},
        "slot_ellipse": {"ellipse": shape("ellipse", x=5, width=30, height=16, fill="#ffffff80")},
        "slot_poly": {"poly": shape("polygon", x=100, y=0, rotation=-15,
                                    points=[0, 0, 40, 0, 40, 40, 20, 10, 0, 40], fill="#abcdef")},
        # transparent fill but a visible stroke: still drawn (colour alpha 0)
        "slot_stroke": {"stroke": shape("ellipse", x=-100, width=20, height=20, fill="#ff000000",
                                        stroke="#00ff00", strokeWidth=3)},
        # transparent fill, zero-width stroke: skipped
        "slot_hidden": {"hidden": shape("rect", width=10, height=10, fill="#ff000000", stroke="#00ff00",
                                        strokeWidth=0)},
        # slot alpha 0: fill and stroke alpha × 0: skipped
        "slot_faded": {"faded": shape("rect", width=10, height=10, fill="#ff0000", stroke="#00ff00",
                                      strokeWidth=2)},
        # no fill at all, visible stroke
        "slot_nofill": {"nofill": shape("polygon", points=[0, 0, 10, 0, 5, 8], stroke="#123456",
                                        strokeWidth=1)},
    }
    atlas = {"pages": [{"id": "page_w", "name": "white", "src": "white.png", "width": 64, "height": 32}],
             "regions": [], "white": {"page": "page_w", "x": 10, "y": 6, "width": 4, "height": 4}}
    d = doc("shapes", [], bones, slots, [{"id": "skin_default", "name": "default", "attachments": atts}], atlas)
    write("shapes", d, [SETUP])


def sequences():
    images = [img("img_f%d" % i, 32, 32) for i in range(4)] + [img("img_sheet", 128, 64), img("img_packed", 64, 64)]
    bones = [bone("bone_root"), bone("bone_s", "bone_root", 10, 10, 30, 1, 2)]
    names = ["loop", "once", "hold", "ping", "sheet", "packed", "input", "offset", "single_ping"]
    slots = [slot("slot_" + n, "bone_s" if i % 2 else "bone_root", n) for i, n in enumerate(names)]
    frames4 = [{"image": "img_f%d" % i} for i in range(4)]

    def seq(mode, fps=10, frames=frames4, **kw):
        a = {"type": "sequence", "x": 0, "y": 0, "rotation": 0, "scaleX": 1, "scaleY": 1, "width": 32,
             "height": 32, "color": "#ffffff", "frames": frames, "fps": fps, "mode": mode, "offset": 0}
        a.update(kw)
        return a
    sheet = [{"image": "img_sheet", "rect": {"x": 32 * i, "y": 0, "width": 32, "height": 32}} for i in range(4)]
    sheet[1]["trim"] = {"x": 4, "y": 2, "sourceWidth": 40, "sourceHeight": 40}
    sheet[2] = {"image": "img_sheet", "rect": {"x": 64, "y": 32, "width": 24, "height": 28},
                "trim": {"x": 4, "y": 2, "sourceWidth": 32, "sourceHeight": 32}}
    packed = [{"image": "img_packed", "rect": {"x": 0, "y": 0, "width": 32, "height": 32}},
              {"image": "img_packed", "rect": {"x": 32, "y": 0, "width": 32, "height": 32}},
              {"image": "img_packed", "rect": {"x": 0, "y": 32, "width": 32, "height": 32}},
              {"image": "img_packed", "rect": {"x": 48, "y": 48, "width": 16, "height": 16}}]  # outside the packed part
    atts = {
        "slot_loop": {"loop": seq("loop", 10, x=-100)},
        "slot_once": {"once": seq("once", 10, x=-60, skewX=20)},
        "slot_hold": {"hold": seq("holdLast", 10, x=-20, rotation=45)},
        "slot_ping": {"ping": seq("pingPong", 10, x=20, scaleX=1.5)},
        "slot_sheet": {"sheet": seq("loop", 10, sheet, x=60, width=40, height=40)},
        "slot_packed": {"packed": seq("loop", 10, packed, x=100)},
        "slot_input": {"input": seq("loop", 10, x=140, input="in_frame")},
        "slot_offset": {"offset": seq("loop", 10, x=180, offset=-3, color="#ff000080")},
        "slot_single_ping": {"single_ping": seq("pingPong", 10, frames4[:1], x=220)},
    }
    atlas = {"pages": [{"id": "page_s", "name": "seq", "src": "seq.png", "width": 128, "height": 128}],
             "regions": [{"image": "img_packed", "page": "page_s", "x": 10, "y": 20, "width": 40, "height": 44,
                          "offsetX": 8, "offsetY": 4, "originalWidth": 64, "originalHeight": 64}]}
    machines = [{"id": "sm_main", "name": "main", "inputs": [{"id": "in_frame", "name": "frame", "type": "number",
                                                               "default": 6.9999999}],
                 "bindings": [], "layers": [], "listeners": [], "scripts": []}]
    d = doc("sequences", images, bones, slots, [{"id": "skin_default", "name": "default", "attachments": atts}],
            atlas, machines)
    # dt 0.1 summed: 0.30000000000000004 etc.; the +1e-6 keeps floor(time·fps) on the frame
    write("sequences", d, [SETUP, steps("clock", 0.1, 12)])


def text():
    bones = [bone("bone_root"), bone("bone_t", "bone_root", 10, 20, 30, 2, 0.5)]
    slots = [slot("slot_score", "bone_t", "score", "#ffffffcc"), slot("slot_plain", "bone_root", "plain"),
             slot("slot_misc", "bone_root", "misc", dark="#000000"), slot("slot_pct", "bone_root", "pct"),
             slot("slot_hidden", "bone_root", "hidden", "#ffffff00")]

    def t(text, **kw):
        a = {"type": "text", "text": text, "x": 0, "y": 0, "rotation": 0, "width": 100, "height": 20,
             "font": "sans-serif", "size": 16, "weight": "bold", "color": "#ff0000", "align": "center",
             "scaleX": 3, "scaleY": 3, "skewX": 20}
        a.update(kw)
        return a
    atts = {
        "slot_score": {"score": t("Score: {score:#,##0} ({ratio:0.0#%})", x=5, y=-3, rotation=15)},
        "slot_plain": {"plain": t("Hello", x=-50, y=40, width=60, height=10)},
        "slot_misc": {"misc": t("{{x}} {name} {flag} {unknown} { score } {speed:+0.00x} {big}", y=-40)},
        "slot_pct": {"pct": t("{ratio:0%}|{neg:0.0}|{tiny}|{trig}", y=80)},
        "slot_hidden": {"hidden": t("never")},
    }
    machines = [
        {"id": "sm_a", "name": "a", "inputs": [
            {"id": "in_score", "name": "score", "type": "number", "default": 1234567.891},
            {"id": "in_ratio", "name": "ratio", "type": "number", "default": 0.12345},
            {"id": "in_trig", "name": "trig", "type": "trigger", "default": False},
            {"id": "in_name", "name": "name", "type": "string", "default": "Ada"}],
         "bindings": [], "layers": [], "listeners": [], "scripts": []},
        {"id": "sm_b", "name": "b", "inputs": [
            {"id": "in_score2", "name": "score", "type": "number", "default": 5},
            {"id": "in_flag", "name": "flag", "type": "bool", "default": True},
            {"id": "in_speed", "name": "speed", "type": "number", "default": 1.5},
            {"id": "in_big", "name": "big", "type": "number", "default": 1e21},
            {"id": "in_neg", "name": "neg", "type": "number", "default": -0.04},
            {"id": "in_tiny", "name": "tiny", "type": "number", "default": 0.1 + 0.2},
            {"id": "in_trig2", "name": "trig", "type": "number", "default": 7}],
         "bindings": [], "layers": [], "listeners": [], "scripts": []},
    ]
    d = doc("text", [], bones, slots, [{"id": "skin_default", "name": "default", "attachments": atts}],
            None, machines)
    write("text", d, [SETUP, {"name": "set-text", "skin": None, "setup": False, "tracks": [], "queue": [],
                              "stateMachine": None, "bounds": False, "queries": [],
                              "steps": [{"dt": 0.1, "repeat": 1, "actions": [{"setText": ["plain", "Hi {name}!"]}]},
                                        {"dt": 0.1, "repeat": 1, "actions": [{"setText": ["score", "{{{score}}}"]},
                                                                             {"setText": ["nobody", "x"]}]},
                                        {"dt": 0.1, "repeat": 1, "actions": [{"setText": ["plain", None]}]}]}])


def bounds():
    bones = [bone("bone_root"), bone("bone_a", "bone_root", 0, 0, 0), bone("bone_b", "bone_root", 50, 0, 90),
             bone("bone_c", "bone_root", 0, 0, 0), bone("bone_hero", "bone_root", -100, 0, 0)]
    slots = [slot("slot_tri", "bone_a", "tri"), slot("slot_ushape", "bone_b", "ushape"),
             slot("slot_weighted", "bone_root", "weighted"), slot("slot_small", "bone_root", "small"),
             slot("slot_hero", "bone_hero", "herobox"), slot("slot_point", "bone_root", "pt"),
             slot("slot_path", "bone_root", "path"), slot("slot_region", "bone_root", "reg")]
    atts = {
        "slot_tri": {"tri": {"type": "boundingBox", "vertices": [0, 0, 40, 0, 0, 40], "color": "#ff0000"}},
        # a U in bone_b's space (rotated 90°): the notch is outside the polygon but inside its min/max
        "slot_ushape": {"ushape": {"type": "boundingBox",
                                   "vertices": [0, 0, 30, 0, 30, 30, 20, 30, 20, 10, 10, 10, 10, 30, 0, 30]}},
        "slot_weighted": {"weighted": {"type": "boundingBox", "vertices": [], "weights": [
            [{"bone": "bone_a", "x": -20, "y": -20, "weight": 1}],
            [{"bone": "bone_a", "x": 10, "y": -20, "weight": 0.5}, {"bone": "bone_b", "x": 10, "y": 0, "weight": 0.5}],
            [{"bone": "bone_c", "x": 10, "y": 10, "weight": 1}],
            [{"bone": "bone_a", "x": -20, "y": 10, "weight": 1}]]}},
        # 2 points (4 numbers): not a box
        "slot_small": {"small": {"type": "boundingBox", "vertices": [0, 0, 5, 5]}},
        "slot_hero": {"herobox": {"type": "boundingBox", "vertices": [-10, -10, 10, -10, 10, 10, -10, 10]}},
        "slot_point": {"pt": {"type": "point", "x": 5, "y": 5, "rotation": 10}},
        "slot_path": {"path": {"type": "path", "vertices": [0, 0, 10, 0, 20, 0, 30, 0, 40, 0, 50, 0],
                               "closed": False, "color": "#ff00ff"}},
        "slot_region": {"reg": region("img_none", 10, 10)},
    }
    skins = [{"id": "skin_default", "name": "default", "attachments": atts},
             {"id": "skin_hero", "name": "hero", "attachments": {}, "bones": ["bone_hero"]}]
    d = doc("bounds", [], bones, slots, skins)
    queries = [{"aabbContainsPoint": [5, 5]}, {"aabbContainsPoint": [500, 5]},
               {"aabbIntersects": [-200, -200, -150, -150]}, {"aabbIntersects": [45, 25, 60, 28]},
               {"containsPoint": [5, 5]}, {"containsPointAll": [5, 5]},
               {"containsPoint": [35, 15]},      # inside the U's min/max, in its notch: only if another box has it
               {"containsPointAll": [40, 5]}, {"containsPoint": [-100, 0]}, {"containsPointAll": [300, 300]},
               {"intersectsSegment": [-5, 20, 100, 20]}, {"intersectsSegmentAll": [-5, 20, 100, 20]},
               {"intersectsSegment": [35, 12, 36, 18]}, {"intersectsSegmentAll": [-120, 0, -80, 0]},
               {"intersectsSegmentAll": [2, 2, 3, 3]}, {"intersectsSegment": [200, 200, 300, 300]}]
    cases = [{"name": "setup", "skin": None, "setup": True, "bounds": True, "queries": queries},
             {"name": "setup/hero", "skin": "hero", "setup": True, "bounds": True, "queries": queries},
             {"name": "step", "skin": None, "setup": False, "tracks": [], "queue": [], "stateMachine": None,
              "steps": [{"dt": 0.1, "repeat": 1, "actions": []}], "bounds": True,
              "queries": [{"aabbContainsPoint": [0, 0]}]}]
    write("bounds", d, cases)


def bounds_empty():
    pass


if __name__ == "__main__":
    atlas_knight()
    atlas_polygons()
    clipping()
    shapes()
    sequences()
    text()
    bounds()
