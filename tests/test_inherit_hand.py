"""World matrices, active flags and colours worked out BY HAND from the spec.

Every expected number below is derived in the comments from §4.1 / §4.2 / §3.3 / §4.5 of
the runtime spec with exact trigonometric values; none is computed by the oracle.  Each
check runs twice: once against the runtime (`openbone`) and once against the independent
oracle (`tests/oracles/base.py`), so a disagreement points at whichever side departs from the
hand value.

Conventions (§4): a world matrix is [a, b, c, d, x, y] with
world·(x, y) = (a·x + b·y + x0, c·x + d·y + y0).
§4.1: rx = rotation + shearX, ry = rotation + 90 + shearY (degrees),
      a = cos(rx)·scaleX, b = cos(ry)·scaleY, c = sin(rx)·scaleX, d = sin(ry)·scaleY.
Exact values used: cos/sin of 0, 30, 60, 90, 120, 150, 180, 210, 270 degrees.
"""

import json
import math
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from oracles import base as oracle  # noqa: E402

S3 = math.sqrt(3)          # sqrt(3)   = 1.7320508075688772
S3_2 = math.sqrt(3) / 2    # sqrt(3)/2 = 0.8660254037844386
S3_4 = math.sqrt(3) / 4    # sqrt(3)/4 = 0.4330127018922193
TOL = 1e-12

BACKENDS = ["oracle", "runtime"]


def bone(id_, parent=None, x=0, y=0, rotation=0, scaleX=1, scaleY=1, shearX=0, shearY=0,
         inherit="normal"):
    return {"id": "bone_" + id_, "name": id_, "parent": None if parent is None else "bone_" + parent,
            "length": 10, "x": x, "y": y, "rotation": rotation, "scaleX": scaleX,
            "scaleY": scaleY, "shearX": shearX, "shearY": shearY, "inherit": inherit}


def document(bones, skins=None, slots=None):
    return {
        "format": "openbone", "version": 1, "name": "hand", "width": 100, "height": 100,
        "originX": 50, "originY": 50, "fps": 30, "images": [],
        "skeleton": {"bones": bones, "slots": slots or [],
                     "skins": skins or [{"id": "skin_default", "name": "default", "attachments": {}}],
                     "ik": [], "transform": [], "path": [], "physics": []},
        "events": [], "animations": [],
    }


class Posed:
    """World matrices / active flags of a freshly constructed instance, from one backend."""

    def __init__(self, backend, doc, skin=None):
        text = json.dumps(doc)
        if backend == "runtime":
            import openbone
            inst = openbone.Instance(openbone.loads(text))
        else:
            inst = oracle.Instance(oracle.load_document(text))
        self.inst = inst
        if skin is not None:
            self.set_skin(skin)

    def set_skin(self, skin):
        # Like a FORMAT.md setup case with a skin: setSkin, then re-pose (no time passes).
        self.inst.set_skin(skin)
        self.inst.set_to_setup_pose()
        self.inst.update_world_transform()

    def world(self, name):
        i = self.inst.bone_index(name)
        return [float(v) for v in self.inst.world[i]]

    def active(self, name):
        return bool(self.inst.active_bones[self.inst.bone_index(name)])


def assert_world(got, want, label):
    assert len(got) == 6, got
    for k, (g, w) in enumerate(zip(got, want)):
        assert abs(g - w) <= TOL, "%s: %s = %r, hand value %r (full %r)" % (
            label, "abcdxy"[k], g, w, got)


# ---------------------------------------------------------------------------
# 1. Parent rotated AND scaled non-uniformly
# ---------------------------------------------------------------------------
# Parent P: x 10, y 20, rotation 90, scaleX 2, scaleY 0.5.
#   rx = 90:  cos 0, sin 1   -> a = 0·2 = 0,      c = 1·2 = 2
#   ry = 180: cos -1, sin 0  -> b = -1·0.5 = -0.5, d = 0·0.5 = 0
#   P = [0, -0.5; 2, 0 | 10, 20]   (root is identity, so world = local)
# Every child sits at local (4, 6): P·(4, 6) = (0·4 - 0.5·6 + 10, 2·4 + 0·6 + 20) = (7, 28).
ROT_PARENT = bone("p", "root", x=10, y=20, rotation=90, scaleX=2, scaleY=0.5)
ROOT = bone("root")

HAND_CASES = {
    "rotscaled_parent_itself": (
        [ROOT, ROT_PARENT], "p",
        [0.0, -0.5, 2.0, 0.0, 10.0, 20.0]),

    # normal, child rotation 30 (scale 1):
    #   rx = 30: cos √3/2, sin 1/2 ; ry = 120: cos -1/2, sin √3/2
    #   L = [√3/2, -1/2; 1/2, √3/2]
    #   P·L: a = 0·√3/2 + (-0.5)·(1/2)   = -0.25
    #        b = 0·(-1/2) + (-0.5)·(√3/2) = -√3/4 = -0.4330127018922193
    #        c = 2·√3/2 + 0·(1/2)         = √3    = 1.7320508075688772
    #        d = 2·(-1/2) + 0·(√3/2)      = -1
    "normal_under_rotscaled": (
        [ROOT, ROT_PARENT, bone("c", "p", x=4, y=6, rotation=30, inherit="normal")], "c",
        [-0.25, -S3_4, S3, -1.0, 7.0, 28.0]),

    # onlyTranslation, child rotation 30, scaleX 2, shearY 30:
    #   rx = 30:  a = (√3/2)·2 = √3, c = (1/2)·2 = 1
    #   ry = 150: cos -√3/2, sin 1/2 -> b = -√3/2, d = 1/2
    #   linear part = L (parent ignored), translation P·(4, 6) = (7, 28)
    "onlyTranslation_under_rotscaled": (
        [ROOT, ROT_PARENT, bone("c", "p", x=4, y=6, rotation=30, scaleX=2, shearY=30,
                                inherit="onlyTranslation")], "c",
        [S3, -S3_2, 1.0, 0.5, 7.0, 28.0]),

    # noRotation, child rotation 60:
    #   sx = hypot(P.a, P.c) = hypot(0, 2) = 2 ; sy = hypot(P.b, P.d) = hypot(-0.5, 0) = 0.5
    #   rx = 60: cos 1/2, sin √3/2 ; ry = 150: cos -√3/2, sin 1/2
    #   L = [1/2, -√3/2; √3/2, 1/2]
    #   a = L.a·sx = 1/2·2 = 1 ; b = L.b·sy = -√3/2·0.5 = -√3/4
    #   c = L.c·sx = √3/2·2 = √3 ; d = L.d·sy = 1/2·0.5 = 0.25
    "noRotation_under_rotscaled": (
        [ROOT, ROT_PARENT, bone("c", "p", x=4, y=6, rotation=60, inherit="noRotation")], "c",
        [1.0, -S3_4, S3, 0.25, 7.0, 28.0]),

    # noScale, child rotation 30, scaleX 1.5:
    #   sx = 2, sy = 0.5 ; N = [0/2, -0.5/0.5; 2/2, 0/0.5] = [0, -1; 1, 0]  (a 90° rotation)
    #   L = [1.5·√3/2, -1/2; 1.5·1/2, √3/2] = [0.75√3, -0.5; 0.75, √3/2]
    #   N·L: a = 0·L.a + (-1)·L.c = -0.75 ; b = 0·L.b + (-1)·L.d = -√3/2
    #        c = 1·L.a + 0·L.c = 0.75√3 = 1.299038105676658 ; d = 1·L.b + 0 = -0.5
    "noScale_under_rotscaled": (
        [ROOT, ROT_PARENT, bone("c", "p", x=4, y=6, rotation=30, scaleX=1.5, inherit="noScale")], "c",
        [-0.75, -S3_2, 0.75 * S3, -0.5, 7.0, 28.0]),
}

# ---------------------------------------------------------------------------
# 2. Reflected parents
# ---------------------------------------------------------------------------
# Parent R (negative scaleX): x 5, y -5, rotation 90, scaleX -1, scaleY 2.
#   rx = 90:  cos 0, sin 1  -> a = 0·(-1) = 0, c = 1·(-1) = -1
#   ry = 180: cos -1, sin 0 -> b = -1·2 = -2,  d = 0·2 = 0
#   R = [0, -2; -1, 0 | 5, -5]   det = 0·0 - (-2)(-1) = -2 < 0 (reflection)
# Children at local (3, 1): R·(3, 1) = (0·3 - 2·1 + 5, -1·3 + 0·1 - 5) = (3, -8).
# Child rotation 60: L = [1/2, -√3/2; √3/2, 1/2].
REFL_X = bone("r", "root", x=5, y=-5, rotation=90, scaleX=-1, scaleY=2)
HAND_CASES.update({
    # normal: R·L: a = 0·1/2 + (-2)·(√3/2) = -√3 ; b = 0·(-√3/2) + (-2)·(1/2) = -1
    #              c = -1·1/2 + 0 = -1/2       ; d = -1·(-√3/2) + 0 = √3/2
    "normal_under_reflectedX": (
        [ROOT, REFL_X, bone("c", "r", x=3, y=1, rotation=60)], "c",
        [-S3, -1.0, -0.5, S3_2, 3.0, -8.0]),
    # onlyTranslation: linear = L = [1/2, -√3/2; √3/2, 1/2]
    "onlyTranslation_under_reflectedX": (
        [ROOT, REFL_X, bone("c", "r", x=3, y=1, rotation=60, inherit="onlyTranslation")], "c",
        [0.5, -S3_2, S3_2, 0.5, 3.0, -8.0]),
    # noRotation: sx = hypot(0, -1) = 1, sy = hypot(-2, 0) = 2
    #   a = 1/2·1 = 1/2, b = -√3/2·2 = -√3, c = √3/2·1 = √3/2, d = 1/2·2 = 1
    #   det = 1/2 + 3/2 = 2 > 0: the parent's reflection is lost (magnitudes only).
    "noRotation_under_reflectedX": (
        [ROOT, REFL_X, bone("c", "r", x=3, y=1, rotation=60, inherit="noRotation")], "c",
        [0.5, -S3, S3_2, 1.0, 3.0, -8.0]),
    # noScale: N = [0/1, -2/2; -1/1, 0/2] = [0, -1; -1, 0]   (det -1: keeps the reflection)
    #   N·L: a = -L.c = -√3/2 ; b = -L.d = -1/2 ; c = -L.a = -1/2 ; d = -L.b = √3/2
    "noScale_under_reflectedX": (
        [ROOT, REFL_X, bone("c", "r", x=3, y=1, rotation=60, inherit="noScale")], "c",
        [-S3_2, -0.5, -0.5, S3_2, 3.0, -8.0]),
})

# Parent Q (negative scaleY): x 0, y 10, rotation 180, scaleX 0.5, scaleY -1.
#   rx = 180: cos -1, sin 0 -> a = -0.5, c = 0
#   ry = 270: cos 0, sin -1 -> b = 0·(-1) = 0, d = -1·(-1) = 1
#   Q = [-0.5, 0; 0, 1 | 0, 10]   det = -0.5 < 0
# Children at local (2, 4): Q·(2, 4) = (-1, 14). Child rotation 30: L = [√3/2, -1/2; 1/2, √3/2].
REFL_Y = bone("q", "root", x=0, y=10, rotation=180, scaleX=0.5, scaleY=-1)
HAND_CASES.update({
    # normal: a = -0.5·√3/2 = -√3/4 ; b = -0.5·(-1/2) = 1/4 ; c = 1·1/2 = 1/2 ; d = 1·√3/2
    "normal_under_reflectedY": (
        [ROOT, REFL_Y, bone("c", "q", x=2, y=4, rotation=30)], "c",
        [-S3_4, 0.25, 0.5, S3_2, -1.0, 14.0]),
    # onlyTranslation: L itself.
    "onlyTranslation_under_reflectedY": (
        [ROOT, REFL_Y, bone("c", "q", x=2, y=4, rotation=30, inherit="onlyTranslation")], "c",
        [S3_2, -0.5, 0.5, S3_2, -1.0, 14.0]),
    # noRotation: sx = hypot(-0.5, 0) = 0.5, sy = hypot(0, 1) = 1
    #   a = √3/2·0.5 = √3/4 ; b = -1/2 ; c = 1/2·0.5 = 1/4 ; d = √3/2
    "noRotation_under_reflectedY": (
        [ROOT, REFL_Y, bone("c", "q", x=2, y=4, rotation=30, inherit="noRotation")], "c",
        [S3_4, -0.5, 0.25, S3_2, -1.0, 14.0]),
    # noScale: N = [-0.5/0.5, 0/1; 0/0.5, 1/1] = [-1, 0; 0, 1]
    #   a = -√3/2 ; b = -(-1/2) = 1/2 ; c = 1/2 ; d = √3/2
    "noScale_under_reflectedY": (
        [ROOT, REFL_Y, bone("c", "q", x=2, y=4, rotation=30, inherit="noScale")], "c",
        [-S3_2, 0.5, 0.5, S3_2, -1.0, 14.0]),
})

# ---------------------------------------------------------------------------
# 3. Sheared parent (shearX and shearY non-zero)
# ---------------------------------------------------------------------------
# Parent S: x 1, y 2, rotation 0, scaleX 2, scaleY 1, shearX 30, shearY 60.
#   rx = 0 + 30 = 30:       cos √3/2, sin 1/2  -> a = √3, c = 1
#   ry = 0 + 90 + 60 = 150: cos -√3/2, sin 1/2 -> b = -√3/2, d = 1/2
#   S = [√3, -√3/2; 1, 1/2 | 1, 2]  (axes at 30° and 150°: 120° apart, sheared)
# Children at local (2, 0): S·(2, 0) = (2√3 + 1, 2 + 2) = (4.464101615137754, 4).
# Child rotation 90: rx = 90 -> (0, 1); ry = 180 -> (-1, 0); L = [0, -1; 1, 0].
SHEAR = bone("s", "root", x=1, y=2, rotation=0, scaleX=2, scaleY=1, shearX=30, shearY=60)
SX = 2 * S3 + 1
HAND_CASES.update({
    "sheared_parent_itself": (
        [ROOT, SHEAR], "s", [S3, -S3_2, 1.0, 0.5, 1.0, 2.0]),
    # normal: S·L: a = √3·0 + (-√3/2)·1 = -√3/2 ; b = √3·(-1) + (-√3/2)·0 = -√3
    #              c = 1·0 + 1/2·1 = 1/2        ; d = 1·(-1) + 1/2·0 = -1
    "normal_under_sheared": (
        [ROOT, SHEAR, bone("c", "s", x=2, y=0, rotation=90)], "c",
        [-S3_2, -S3, 0.5, -1.0, SX, 4.0]),
    # onlyTranslation: L = [0, -1; 1, 0]
    "onlyTranslation_under_sheared": (
        [ROOT, SHEAR, bone("c", "s", x=2, y=0, rotation=90, inherit="onlyTranslation")], "c",
        [0.0, -1.0, 1.0, 0.0, SX, 4.0]),
    # noRotation: sx = hypot(√3, 1) = 2, sy = hypot(-√3/2, 1/2) = 1
    #   a = 0·2 = 0 ; b = -1·1 = -1 ; c = 1·2 = 2 ; d = 0·1 = 0   (shear lost)
    "noRotation_under_sheared": (
        [ROOT, SHEAR, bone("c", "s", x=2, y=0, rotation=90, inherit="noRotation")], "c",
        [0.0, -1.0, 2.0, 0.0, SX, 4.0]),
    # noScale: N = [√3/2, -√3/2; 1/2, 1/2]  (columns divided by 2 and 1: shear kept)
    #   N·L: a = √3/2·0 + (-√3/2)·1 = -√3/2 ; b = √3/2·(-1) + (-√3/2)·0 = -√3/2
    #        c = 1/2·0 + 1/2·1 = 1/2         ; d = 1/2·(-1) + 1/2·0 = -1/2
    "noScale_under_sheared": (
        [ROOT, SHEAR, bone("c", "s", x=2, y=0, rotation=90, inherit="noScale")], "c",
        [-S3_2, -S3_2, 0.5, -0.5, SX, 4.0]),
})

# ---------------------------------------------------------------------------
# 4. A 3-deep chain mixing modes
# ---------------------------------------------------------------------------
# A: parent root, x 10, rotation 90, scaleX 2 -> A = [0, -1; 2, 0 | 10, 0]
# B: parent A, noRotation, x 5: sx = hypot(0, 2) = 2, sy = hypot(-1, 0) = 1, L = I
#    B = [2, 0; 0, 1 | A·(5, 0)] = [2, 0; 0, 1 | 10, 10]
# C: parent B, noScale, x 3, y 4, rotation 90: sx = 2, sy = 1, N = [1, 0; 0, 1]
#    C = L = [0, -1; 1, 0 | B·(3, 4)] = [0, -1; 1, 0 | 2·3 + 10, 1·4 + 10] = [.. | 16, 14]
CHAIN = [ROOT, bone("a", "root", x=10, rotation=90, scaleX=2),
         bone("b", "a", x=5, inherit="noRotation"),
         bone("c", "b", x=3, y=4, rotation=90, inherit="noScale")]
HAND_CASES.update({
    "chain_depth2_noRotation": (CHAIN, "b", [2.0, 0.0, 0.0, 1.0, 10.0, 10.0]),
    "chain_depth3_noScale": (CHAIN, "c", [0.0, -1.0, 1.0, 0.0, 16.0, 14.0]),
})

# ---------------------------------------------------------------------------
# 5. A bone whose parent is listed after it is a root (§2): normal, P = identity,
#    whatever its own inherit mode says.
# ---------------------------------------------------------------------------
# orphan: parent "late" (listed later), inherit noRotation, x 7, y 8, rotation 90, scaleY 3:
#   rx = 90 -> a = 0, c = 1 ; ry = 180 -> b = -3, d = 0 ; world = [0, -3; 1, 0 | 7, 8]
# (Under "late" = rotation 90, scale 3 at (100, 0) it would be elsewhere entirely.)
ORPHAN = [ROOT, bone("orphan", "late", x=7, y=8, rotation=90, scaleY=3, inherit="noRotation"),
          bone("late", "root", x=100, rotation=90, scaleX=3, scaleY=3)]
HAND_CASES.update({
    "orphan_is_root": (ORPHAN, "orphan", [0.0, -3.0, 1.0, 0.0, 7.0, 8.0]),
    # late itself: rx = 90 -> a = 0, c = 3 ; ry = 180 -> b = -3, d = 0
    "late_parent": (ORPHAN, "late", [0.0, -3.0, 3.0, 0.0, 100.0, 0.0]),
})


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(HAND_CASES))
def test_hand_world(backend, case):
    bones, name, want = HAND_CASES[case]
    posed = Posed(backend, document(bones))
    assert_world(posed.world(name), want, "%s/%s" % (backend, case))


def test_every_mode_is_hand_checked_under_every_parent_kind():
    for parent in ("rotscaled", "reflectedX", "reflectedY", "sheared"):
        for mode in ("normal", "onlyTranslation", "noRotation", "noScale"):
            assert "%s_under_%s" % (mode, parent) in HAND_CASES


# ---------------------------------------------------------------------------
# 6. §3.3 active flags on a small tree
# ---------------------------------------------------------------------------
# bones (document order):
#   root
#   orphan   parent "skinbone", listed BEFORE it -> a root (§2), so always active
#   skinbone parent root, listed in skin "extra" -> skin-only
#   child    parent skinbone, in no skin         -> inactive with its parent
#   grand    parent child                        -> inactive with its parent
#   other    parent root                         -> always active
# reqBones = {bone_skinbone}.
#   skin none / default: mineB = {}            -> skinbone off, child off, grand off
#   skin extra:          mineB = {bone_skinbone} -> everything on
ACTIVE_BONES = [
    ROOT,
    bone("orphan", "skinbone", x=1, y=2),
    bone("skinbone", "root", x=10, rotation=90),   # world [0, -1; 1, 0 | 10, 0]
    bone("child", "skinbone", x=5),                 # world [0, -1; 1, 0 | 10, 5]
    bone("grand", "child", y=2),                    # world [0, -1; 1, 0 | 8, 5]
    bone("other", "root", x=-3),
]
ACTIVE_SKINS = [
    {"id": "skin_default", "name": "default", "attachments": {}},
    {"id": "skin_extra", "name": "extra", "bones": ["bone_skinbone"], "attachments": {}},
]
IDENT = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
EXPECT_ACTIVE = {
    None: {"root": True, "orphan": True, "skinbone": False, "child": False, "grand": False, "other": True},
    "default": {"root": True, "orphan": True, "skinbone": False, "child": False, "grand": False, "other": True},
    "extra": {"root": True, "orphan": True, "skinbone": True, "child": True, "grand": True, "other": True},
    "skin_extra": {"root": True, "orphan": True, "skinbone": True, "child": True, "grand": True, "other": True},
}
# Posed worlds with skin extra:
#   skinbone: rotation 90 -> [0, -1; 1, 0 | 10, 0]
#   child:    skinbone·(5, 0) = (0·5 + 10, 1·5 + 0) = (10, 5); linear [0, -1; 1, 0]
#   grand:    child·(0, 2) = (-1·2 + 10, 0 + 5) = (8, 5); linear [0, -1; 1, 0]
POSED = {"skinbone": [0.0, -1.0, 1.0, 0.0, 10.0, 0.0],
         "child": [0.0, -1.0, 1.0, 0.0, 10.0, 5.0],
         "grand": [0.0, -1.0, 1.0, 0.0, 8.0, 5.0],
         "orphan": [1.0, 0.0, 0.0, 1.0, 1.0, 2.0]}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("skin", [None, "default", "extra", "skin_extra"])
def test_active_flags(backend, skin):
    posed = Posed(backend, document(ACTIVE_BONES, ACTIVE_SKINS), skin=skin)
    got = {n: posed.active(n) for n in EXPECT_ACTIVE[skin]}
    assert got == EXPECT_ACTIVE[skin]
    for n, on in EXPECT_ACTIVE[skin].items():
        if n in POSED:
            # inactive and never posed -> identity; active -> posed
            assert_world(posed.world(n), POSED[n] if on else IDENT, "%s/%s/%s" % (backend, skin, n))


@pytest.mark.parametrize("backend", BACKENDS)
def test_inactive_bone_keeps_last_world(backend):
    posed = Posed(backend, document(ACTIVE_BONES, ACTIVE_SKINS))
    assert_world(posed.world("child"), IDENT, "never posed")
    posed.set_skin("extra")
    assert_world(posed.world("grand"), POSED["grand"], "posed with extra")
    # Back to no skin: flags off again, but the world is left as it was (§3.3).
    posed.set_skin(None)
    assert not posed.active("grand")
    for n in ("skinbone", "child", "grand"):
        assert_world(posed.world(n), POSED[n], "%s after un-skinning" % n)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_skin_lists_bones_every_bone_active(backend):
    posed = Posed(backend, document(ACTIVE_BONES, [ACTIVE_SKINS[0]]))
    assert all(posed.active(n) for n in EXPECT_ACTIVE[None])
    assert_world(posed.world("grand"), POSED["grand"], "reqBones empty")


# ---------------------------------------------------------------------------
# 7. §4.5 colours
# ---------------------------------------------------------------------------
# "#f80c": remove "#" -> "f80c", 4 digits -> each doubled -> "ff8800cc" (8 digits, so alpha read)
#   r = 0xff/255 = 255/255 = 1
#   g = 0x88/255 = 136/255 = 0.5333333333333333
#   b = 0x00/255 = 0
#   a = 0xcc/255 = 204/255 = 0.8
F80C = [1.0, 136 / 255, 0.0, 204 / 255]
# "#3C9" -> "33CC99" (6 digits, alpha 1): 51/255 = 0.2, 204/255 = 0.8, 153/255 = 0.6
C3C9 = [0.2, 0.8, 0.6, 1.0]
# "#00000080" -> alpha 128/255 = 0.5019607843137255
C80 = [0.0, 0.0, 0.0, 128 / 255]


def test_parse_hex_oracle():
    for text, want in (("#f80c", F80C), ("#3C9", C3C9), ("#00000080", C80)):
        got = oracle.parse_hex(text)
        assert all(abs(g - w) <= TOL for g, w in zip(got, want)), (text, got, want)


def test_slot_colours_runtime(tmp_path):
    doc = document([ROOT], slots=[
        {"id": "slot_a", "name": "a", "bone": "bone_root", "color": "#f80c", "attachment": None},
        {"id": "slot_b", "name": "b", "bone": "bone_root", "color": "#3C9", "dark": "#00000080",
         "attachment": None},
        {"id": "slot_gone", "name": "gone", "bone": "bone_missing", "attachment": None},
        {"id": "slot_c", "name": "c", "bone": "bone_root", "attachment": None},
    ])
    (tmp_path / "doc.obone").write_text(json.dumps(doc))
    (tmp_path / "cases.json").write_text(json.dumps(
        {"document": "doc.obone", "cases": [{"name": "setup", "setup": True}]}))
    out = tmp_path / "out.json"
    subprocess.run([sys.executable, "-m", "openbone", "conformance", "run",
                    str(tmp_path / "cases.json"), "-o", str(out)], check=True,
                   cwd=os.path.dirname(HERE))
    slots = json.loads(out.read_text())["cases"][0]["samples"][0]["slots"]
    # rounded to 4 decimals (Math.round(n·1e4)/1e4): 0.5333.., 0.8, 0.50196.. -> 0.502
    assert [s["name"] for s in slots] == ["a", "b", "c"]  # slot on a missing bone dropped
    assert slots[0]["color"] == [1, 0.5333, 0, 0.8]
    assert slots[0]["dark"] is None
    assert slots[1]["color"] == [0.2, 0.8, 0.6, 1]
    assert slots[1]["dark"] == [0, 0, 0, 0.502]
    assert slots[2]["color"] == [1, 1, 1, 1]  # no colour -> white
