"""Writes examples/sprout.json, sprout.atlas and sprout.png: the project's own small rig in the
Spine 4.2 skeleton-JSON format (what `openbone.import_skeleton_json` reads), drawn here with
Pillow, so that the README tour, the notebooks and the tests have an import example the project
may redistribute (the Spine example rigs are test data only).

A potted sprout: bones root > pot > stem > tip; a region for the pot, a two-bone weighted mesh for
the stem (it bends between the stem and tip bones), a region for the bloom on the tip; "sway"
(bezier rotate keys, an rgba key, an event) and "grow" (bezier scale keys, an attachment key).

    python tests/tools/make_sprout.py          # rewrites the three files
    python tests/tools/make_sprout.py --check  # exit 1 if a file would change (tests/test_examples.py)
"""
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "examples"
PAGE = (128, 128)
# atlas regions: name -> (x, y, width, height) on the page (y down, as in the atlas format)
REGIONS = {"pot": (2, 2, 48, 36), "stem": (52, 2, 12, 64), "bloom": (66, 2, 40, 40)}


def skeleton():
    half = 6  # stem half-width
    # stem mesh: 3 rows x 2 columns along the stem bone's x axis (length 60); weights: row 0 on the
    # stem bone, row 1 half and half, row 2 on the tip bone (which starts at stem x = 60)
    rows = [(0, [(1, 1.0)]), (30, [(1, 0.5), (2, 0.5)]), (60, [(2, 1.0)])]
    bone_x0 = {1: 0, 2: 60}  # where each weighting bone starts along the stem
    verts, uvs = [], []
    order = [(0, -half), (1, -half), (2, -half), (2, half), (1, half), (0, half)]  # around the hull
    for r, y in order:
        x, weights = rows[r]
        verts.append(len(weights))
        for bone, w in weights:
            verts += [bone, x - bone_x0[bone], y, w]
        uvs += [1.0 if y < 0 else 0.0, 1.0 - x / 60]
    return {
        "skeleton": {"hash": "openbone-sprout", "spine": "4.2.22", "x": -40, "y": -4, "width": 80,
                     "height": 140, "images": "./images/", "audio": ""},
        "bones": [
            {"name": "root"},
            {"name": "stem", "parent": "root", "length": 60, "rotation": 90, "y": 36},
            {"name": "tip", "parent": "stem", "length": 24, "x": 60},
            {"name": "pot", "parent": "root"},
        ],
        "slots": [
            {"name": "stem", "bone": "stem", "attachment": "stem"},
            {"name": "pot", "bone": "pot", "attachment": "pot"},
            {"name": "bloom", "bone": "tip", "attachment": "bloom", "color": "fff4f8ff"},
        ],
        "skins": [{"name": "default", "attachments": {
            "pot": {"pot": {"y": 18, "width": 48, "height": 36}},
            "stem": {"stem": {"type": "mesh", "uvs": uvs, "triangles": [0, 1, 5, 1, 4, 5, 1, 2, 4, 2, 3, 4],
                              "vertices": verts, "hull": 6, "width": 12, "height": 64}},
            "bloom": {"bloom": {"x": 14, "rotation": -90, "width": 40, "height": 40}},
        }}],
        "events": {"pop": {"int": 1, "string": "bloom"}},
        "animations": {
            "sway": {
                "bones": {
                    "stem": {"rotate": [{"curve": [0.5, 0, 0.5, 8]}, {"time": 1, "value": 8, "curve": [1.5, 8, 1.5, -8]},
                                        {"time": 2, "value": -8, "curve": [2.5, -8, 2.5, 0]}, {"time": 3}]},
                    "tip": {"rotate": [{"value": -4, "curve": [0.5, -4, 0.5, 10]}, {"time": 1, "value": 10},
                                       {"time": 2, "value": -10}, {"time": 3, "value": -4}]},
                },
                "slots": {"bloom": {"rgba": [{"color": "fff4f8ff"}, {"time": 1.5, "color": "ffc8dcff"},
                                             {"time": 3, "color": "fff4f8ff"}]}},
                "events": [{"time": 1.5, "name": "pop"}],
            },
            "grow": {
                "bones": {"stem": {"scale": [{"x": 0.3, "y": 0.6, "curve": [0.4, 0.3, 0.6, 1, 0.4, 0.6, 0.6, 1]},
                                             {"time": 1}]}},
                "slots": {"bloom": {"attachment": [{"name": None}, {"time": 0.8, "name": "bloom"}]}},
            },
        },
    }


def atlas():
    lines = ["sprout.png", f"\tsize: {PAGE[0]}, {PAGE[1]}", "\tfilter: Linear, Linear"]
    for name, (x, y, w, h) in REGIONS.items():
        lines += [name, f"\tbounds: {x}, {y}, {w}, {h}"]
    return "\n".join(lines) + "\n"


def page():
    from PIL import Image, ImageDraw
    im = Image.new("RGBA", PAGE, (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    x, y, w, h = REGIONS["pot"]  # a terracotta pot: rim and tapering body
    d.polygon([(x + 4, y + 10), (x + w - 5, y + 10), (x + w - 10, y + h - 1), (x + 9, y + h - 1)], fill=(196, 98, 58, 255))
    d.rectangle([x, y, x + w - 1, y + 10], fill=(214, 120, 76, 255))
    x, y, w, h = REGIONS["stem"]  # the stem, lighter along one edge
    d.rectangle([x + 2, y, x + w - 3, y + h - 1], fill=(70, 150, 60, 255))
    d.rectangle([x + 2, y, x + 4, y + h - 1], fill=(110, 190, 90, 255))
    x, y, w, h = REGIONS["bloom"]  # five petals around a yellow heart
    cx, cy, r = x + w / 2, y + h / 2, 8
    for dx, dy in [(0, -11), (10.5, -3.4), (6.5, 8.9), (-6.5, 8.9), (-10.5, -3.4)]:
        d.ellipse([cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r], fill=(235, 90, 140, 255))
    d.ellipse([cx - 6, cy - 6, cx + 6, cy + 6], fill=(250, 210, 60, 255))
    return im


def texts():
    return {"sprout.json": json.dumps(skeleton(), indent=1) + "\n", "sprout.atlas": atlas()}


def main(argv):
    check = "--check" in argv
    stale = []
    for name, text in texts().items():
        path = OUT / name
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
    im = page()
    png = OUT / "sprout.png"
    if check:
        from PIL import Image
        if not png.exists() or Image.open(png).convert("RGBA").tobytes() != im.tobytes():
            stale.append("sprout.png")
    else:
        im.save(png, optimize=True)
    if stale:
        print("out of date (run python tests/tools/make_sprout.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
