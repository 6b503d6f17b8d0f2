"""Role maps (openbone/toon/roles.py): guess_roles gets the obvious roles right on the Spine example
rigs and the bundled hero (what "obvious" means is listed per rig below: the bones a person reading
the names and the hierarchy would pick); load_roles validates with errors naming the place; the
JSON round-trips; the `openbone toon roles` CLI function prints and checks."""
import functools
import json

import pytest

import openbone
from conftest import ROOT, reference
from openbone.toon.roles import Limit, RoleMap, guess_roles, load_roles, parse_key, tokens
from openbone.toon.roles_cli import main as roles_main


@functools.lru_cache(maxsize=None)
def spine(name):
    return openbone.import_skeleton_json(str(reference("spine", "skeletons", name + ".json")))


def bone_of(roles, key):
    bones = roles.part_bones(key)
    assert len(bones) == 1, (key, bones)
    return bones[0]


def assert_parts(roles, expect):
    """Each role key maps to exactly that one bone."""
    assert {k: bone_of(roles, k) for k in expect} == expect


def all_bones(roles):
    return {b.bone for p in roles.parts.values() for b in p.bones}


def check_common(doc, roles):
    """Every guess is a valid role map of its rig, and survives JSON."""
    again = load_roles(json.loads(roles.dumps()), doc)
    assert again.to_dict() == roles.to_dict()
    assert roles.height > 0


def test_tokens():
    assert tokens("front-upper-arm") == ["front", "upper", "arm"]
    assert tokens("upper_arm_r") == ["upper", "arm", "r"]
    assert tokens("R_wing") == ["r", "wing"]
    assert tokens("tail10") == ["tail", "10"]
    assert tokens("spineboyHip") == ["spineboy", "hip"]


def test_guess_spineboy():
    doc = spine("spineboy-pro")
    r = guess_roles(doc)
    check_common(doc, r)
    # a profile facing right; "front" limbs are the near side (+1), "rear" ones the far side
    assert (r.root, r.view, r.facing) == ("root", "side", 1)
    expect = {"head": "head", "neck": "neck", "hips": "hip",
              "arm:1": "front-upper-arm", "forearm:1": "front-bracer", "hand:1": "front-fist",
              "arm:-1": "rear-upper-arm", "forearm:-1": "rear-bracer",
              "leg:1": "front-thigh", "shin:1": "front-shin", "foot:1": "front-foot",
              "leg:-1": "rear-thigh", "shin:-1": "rear-shin", "foot:-1": "rear-foot"}
    assert_parts(r, expect)
    torso = [b for k, p in sorted(r.parts.items()) if k.startswith("torso") for b in r.part_bones(k)]
    assert torso == ["torso", "torso2", "torso3"]
    assert {b for k in r.parts if k.startswith("hair") for b in r.part_bones(k)} == {"hair1", "hair2", "hair3", "hair4"}
    assert r.limbs["hand:1"].upper == "front-upper-arm" and r.limbs["hand:1"].tip == "front-fist"
    assert (r.limbs["foot:-1"].upper, r.limbs["foot:-1"].lower, r.limbs["foot:-1"].tip) == ("rear-thigh", "rear-shin", "rear-foot")
    # no control, target, hoverboard, gun or portal bone plays a role
    assert not {b for b in all_bones(r) if any(w in b for w in ("target", "control", "hover", "gun", "portal", "tip", "shoulder"))}
    assert 402 < r.height < 800   # above the head bone's origin (y 402), the hair included
    assert r.mouth == [{"slot": "mouth", "attachments": [[0, "mouth-smile"], [0.5, "mouth-oooo"]]}]
    assert {"hip", "head", "chest", "mouth"} <= set(r.spots)


def test_guess_raptor_leaves_the_rider_alone():
    doc = spine("raptor-pro")
    r = guess_roles(doc)
    check_common(doc, r)
    assert (r.root, r.view, r.facing) == ("root", "side", 1)
    expect = {"head": "head", "neck": "neck", "hips": "hip", "torso#0": "torso1", "torso#1": "torso2",
              "arm:1": "front-arm1", "forearm:1": "front-arm2", "hand:1": "front-hand",
              "arm:-1": "back-arm1", "forearm:-1": "back-arm2", "hand:-1": "back-hand",
              "leg:1": "front-leg1", "shin:1": "front-leg2", "foot:1": "front-foot1",
              "leg:-1": "back-leg1", "shin:-1": "back-leg2", "foot:-1": "back-foot1"}
    assert_parts(r, expect)
    tail = [b for i in range(4) for b in r.part_bones(f"tail#{i}")]
    assert tail == [f"tail{i}" for i in range(1, 11)]   # the whole tail, root to tip, over 4 segments
    assert sum(b.weight for b in r.parts["tail#0"].bones) == pytest.approx(1)
    rider = {b.name for b in doc.bones if "spineboy" in b.name or b.name in ("head2", "neck2", "front-arm", "back-arm",
                                                                             "front-thigh", "back-thigh", "front-bracer")}
    assert not all_bones(r) & rider
    assert r.limbs["foot:1"].tip == "front-foot1"
    assert r.mouth == [{"bone": "jaw", "rotation": -20.0}]   # the jaw drops for the mouth


def test_guess_hero_pro():
    doc = spine("hero-pro")
    r = guess_roles(doc)
    check_common(doc, r)
    assert r.root == "root" and r.view == "side"
    assert_parts(r, {"head": "head", "torso": "body", "hips": "hip", "hair": "hair01"})
    # the numbered limbs: each limb's three bones on one side, the two limbs on opposite sides
    for kind, names in (("arm", ("upper-arm", "forearm", "hand")), ("leg", ("thigh", "shin", "foot"))):
        roles = ("arm", "forearm", "hand") if kind == "arm" else ("leg", "shin", "foot")
        s1 = {s for s in (-1, 1) if bone_of(r, f"{roles[0]}:{s}") == names[0] + "1"}
        assert len(s1) == 1
        s1 = s1.pop()
        for role, name in zip(roles, names):
            assert bone_of(r, f"{role}:{s1}") == name + "1"
            assert bone_of(r, f"{role}:{-s1}") == name + "2"
    assert bone_of(r, "arm:1") == "upper-arm1"   # drawn in front of the body: the near side
    assert not {b for b in all_bones(r) if any(w in b for w in ("cape", "chain", "weapon", "ground", "ankle", "look"))}


def test_guess_owl_moves_the_owl_not_its_branch():
    doc = spine("owl-pro")
    r = guess_roles(doc)
    check_common(doc, r)
    assert (r.root, r.view) == ("owl-base", "front")
    assert bone_of(r, "head") == "head" and bone_of(r, "tail") == "tail-feathers"
    assert not {b for b in all_bones(r) if "branch" in b or "leaf" in b}
    assert r.origin == pytest.approx(tuple(openbone.Instance(doc).world[doc.bone_index("owl-base"), 4:]))
    assert sorted(m["slot"] for m in r.blink) == ["L_eye-closed", "R_eye-closed"]


def test_guess_goblins():
    doc = spine("goblins-pro")
    r = guess_roles(doc)
    check_common(doc, r)
    assert (r.root, r.view, r.facing) == ("root", "side", 1)
    expect = {"head": "head", "neck": "neck", "torso": "torso", "hips": "hip",
              "arm:-1": "left-shoulder", "forearm:-1": "left-arm", "hand:-1": "left-hand",
              "arm:1": "right-shoulder", "forearm:1": "right-arm", "hand:1": "right-hand",
              "leg:-1": "left-upper-leg", "shin:-1": "left-lower-leg", "foot:-1": "left-foot",
              "leg:1": "right-upper-leg", "shin:1": "right-lower-leg", "foot:1": "right-foot"}
    assert_parts(r, expect)
    assert not {b for b in all_bones(r) if "spear" in b}
    assert r.blink == [{"slot": "eyes", "attachments": [[0, None], [0.5, "eyes-closed"]]}]


def test_guess_bundled_hero():
    doc = openbone.load(str(ROOT / "examples" / "hero.obone"))
    r = guess_roles(doc)
    check_common(doc, r)
    # the hero is drawn in profile facing left (its feet point to -x); _r / _l name its sides
    assert (r.root, r.view, r.facing) == ("root", "side", -1)
    expect = {"head": "head", "neck": "neck", "torso": "torso", "hips": "hip",
              "arm:1": "upper_arm_r", "forearm:1": "lower_arm_r", "arm:-1": "upper_arm_l", "forearm:-1": "lower_arm_l",
              "leg:1": "thigh_r", "shin:1": "shin_r", "foot:1": "foot_r",
              "leg:-1": "thigh_l", "shin:-1": "shin_l", "foot:-1": "foot_l"}
    assert_parts(r, expect)
    assert "ik_foot_l" not in all_bones(r)
    assert (r.limbs["hand:1"].upper, r.limbs["hand:1"].lower, r.limbs["hand:1"].tip) == ("upper_arm_r", "lower_arm_r", None)
    # the head image's top: head bone at y 172 + the 44 px image (0..42 along it) → 214
    assert r.height == pytest.approx(214, abs=1)


# ---- the format ------------------------------------------------------------

def minimal(**over):
    d = {"format": "openbone-roles", "version": 1, "root": "root", "height": 200,
         "parts": {"head": "head", "arm:1": {"bone": "upper_arm_r", "limits": {"min": -90, "max": 170}}},
         "limbs": {"hand:1": {"upper": "upper_arm_r", "lower": "lower_arm_r"}},
         "spots": {"head": {"bone": "head", "x": 20, "y": 0}}}
    d.update(over)
    return d


@pytest.fixture(scope="module")
def hero():
    return openbone.load(str(ROOT / "examples" / "hero.obone"))


def test_load_roles_reads_every_form(hero, tmp_path):
    d = minimal(parts={"head": "head", "torso#0": [{"bone": "torso", "weight": 0.5}, "neck"],
                       "arm:-1": {"bone": "upper_arm_l", "reads": {"claw": 1}}},
                limits={"forearm": {"min": -150, "max": 0}, "shin": {"min": -1, "max": 1, "from": "setup"}}, facing=-1, view="side", origin=[1, 2],
                views={"back": {"attachments": {"head": None}}}, mouth={"slot": "head", "colors": [[0, "#ff0000"]]},
                blink=[{"bone": "head", "rotation": 3}], moods={"happy": {"animation": "wave"}, "sad": {"input": "mood"}})
    r = load_roles(d, hero)
    assert [(b.bone, b.weight) for b in r.parts["torso#0"].bones] == [("torso", 0.5), ("neck", 1.0)]
    assert r.parts["arm:-1"].reads == {"claw": 1.0}
    assert r.limit_for("forearm:1") == Limit(-150, 0, "pose") and r.limit_for("forearm:-1#2").max == 0
    assert r.limit_for("shin:1") == Limit(-1, 1, "setup")
    assert r.spot("head", -1).bone == "head"
    assert (r.facing, r.view, r.origin) == (-1, "side", (1.0, 2.0))
    p = tmp_path / "hero.roles.json"
    r.save(p)
    assert load_roles(str(p), hero).to_dict() == r.to_dict()
    assert [f.name for f in tmp_path.iterdir()] == ["hero.roles.json"]   # atomic: no temporary left
    assert load_roles(p.read_text(), hero).to_dict() == r.to_dict()   # JSON text too


@pytest.mark.parametrize("over, where", [
    ({"parts": {"Arm": "head"}}, "parts.Arm: 'Arm' is not a role key"),
    ({"parts": {"elbow": "head"}}, "parts.elbow: unknown role 'elbow'"),
    ({"parts": {"arm:2": "head"}}, "parts.arm:2: 'arm:2' is not a role key"),
    ({"parts": {"head": "hed"}}, "parts.head: no bone named 'hed'"),
    ({"parts": {"head": {"bone": "head", "weight": "x"}}}, "parts.head.weight: expected a finite number"),
    ({"parts": {"head": {"bone": "head", "colour": 1}}}, "parts.head.colour: unknown field"),
    ({"parts": {"head": []}}, "parts.head: expected a bone"),
    ({"parts": {"head": {"bone": "head", "limits": {"min": 5, "max": -5}}}}, "parts.head.limits: min 5 is above max -5"),
    ({"height": 0}, "height: must be more than 0"),
    ({"height": float("nan")}, "height: expected a finite number"),
    ({"facing": 2}, "facing: expected 1 or -1"),
    ({"view": "top"}, "view: expected one of front, side, back"),
    ({"root": "nope"}, "root: no bone named 'nope'"),
    ({"format": "other"}, "format: expected 'openbone-roles'"),
    ({"version": 9}, "version: unsupported version 9"),
    ({"limbs": {"hand": {"upper": "head", "lower": "neck"}}}, "limbs.hand: a limb is hand:-1"),
    ({"limbs": {"hand:1": {"upper": "lower_arm_r", "lower": "upper_arm_r"}}}, "limbs.hand:1.lower: 'upper_arm_r' is not below 'lower_arm_r'"),
    ({"limbs": {"foot:1": {"upper": "thigh_r", "lower": "shin_r", "tip": "head"}}}, "limbs.foot:1.tip: 'head' is not below 'shin_r'"),
    ({"limbs": {"hand:1": {"upper": "upper_arm_r", "lower": "lower_arm_r", "bend": 2}}}, "limbs.hand:1.bend"),
    ({"spots": {"knee": {"bone": "head"}}}, "spots.knee: a spot is one of hip, head, chest, mouth"),
    ({"limits": {"forearm": {"min": 1}}}, "limits.forearm.max: expected a finite number"),
    ({"limits": {"forearm": {"min": 1, "max": 2, "from": "rest"}}}, "limits.forearm.from: expected 'pose' or 'setup'"),
    ({"views": {"top": {}}}, "views.top: a view is one of"),
    ({"views": {"front": {"skin": "nope"}}}, "views.front.skin: no skin named 'nope'"),
    ({"mouth": {"slot": "head"}}, "mouth: give exactly one of"),
    ({"mouth": {"slot": "nope", "attachments": [[0, "a"]]}}, "mouth.slot: no slot named 'nope'"),
    ({"mouth": {"slot": "head", "attachments": [[0.5, "a"], [0.1, "b"]]}}, "mouth.attachments.1.0: thresholds must not decrease"),
    ({"blink": [{"slot": "head", "colors": [[0, "red"]]}]}, "blink.0.colors.0.1: expected a colour"),
    ({"moods": {"happy": {"animation": "dance"}}}, "moods.happy.animation: no animation named 'dance'"),
    ({"moods": {"happy": {}}}, "moods.happy: give an animation or a state machine input"),
])
def test_load_roles_errors_name_the_place(hero, over, where):
    with pytest.raises(openbone.OpenBoneError) as e:
        load_roles(minimal(**over), hero)
    assert str(e.value).startswith("roles: ") and where in str(e.value), str(e.value)


def test_load_roles_bad_files(tmp_path):
    with pytest.raises(openbone.OpenBoneError, match="not valid JSON"):
        load_roles("{not json")
    with pytest.raises(openbone.OpenBoneError, match="nope.json: No such file"):
        load_roles(str(tmp_path / "nope.json"))
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(minimal(height=-1)))
    with pytest.raises(openbone.OpenBoneError, match=r"bad.json: height: must be more than 0"):
        load_roles(str(p))
    with pytest.raises(openbone.OpenBoneError, match="expected a path"):
        load_roles(5)


def test_parse_key():
    assert parse_key("arm:-1#2") == ("arm", -1, 2)
    assert parse_key("tail#0") == ("tail", None, 0)
    for bad in ("arm#01", "arm:-1:1", "part:arm", "__proto__", ""):
        with pytest.raises(openbone.OpenBoneError):
            parse_key(bad)


def test_roles_cli(tmp_path, capsys):
    assert roles_main([str(ROOT / "examples" / "hero.obone")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "openbone-roles" and out["parts"]["head"] == "head"
    path = tmp_path / "r.json"
    assert roles_main([str(ROOT / "examples" / "hero.obone"), "-o", str(path), "--compact"]) == 0
    assert json.loads(path.read_text()) == out
    assert roles_main([str(ROOT / "examples" / "hero.obone"), "--roles", str(path)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(out, root="nope")))
    assert roles_main([str(ROOT / "examples" / "hero.obone"), "--roles", str(bad)]) == 1
    assert "root: no bone named 'nope'" in capsys.readouterr().err
    assert roles_main([str(tmp_path / "missing.obone")]) == 2
    assert roles_main([str(ROOT / "examples" / "hero.obone"), "--roles", str(tmp_path / "missing.json")]) == 2


def test_roles_cli_on_a_spine_skeleton(capsys):
    assert roles_main([str(reference("spine", "skeletons", "spineboy-pro.json"))]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["parts"]["hand:1"] == "front-fist"


def test_guess_needs_a_document():
    with pytest.raises(openbone.OpenBoneError):
        guess_roles("examples/hero.obone")
    assert isinstance(guess_roles(openbone.load(str(ROOT / "examples" / "hero.obone"))), RoleMap)


def test_load_roles_never_fails_other_than_openbone_error(hero):
    """A small fuzz: every field of a valid map replaced by values of the wrong kinds either loads
    or raises OpenBoneError (never a TypeError, KeyError, ... or a crash)."""
    import random
    rng = random.Random(15)
    base = minimal(limits={"forearm": {"min": -150, "max": 0}}, views={"front": {"attachments": {"head": None}}},
                   mouth={"slot": "head", "attachments": [[0, None]]}, moods={"happy": {"animation": "wave"}})
    junk = [None, True, 0, -1, 1.5, float("inf"), "", "x", "head", [], [1], [[0, 1]], {}, {"bone": 3},
            {"min": "a"}, {"bone": "head", "weight": None}, [{"bone": []}], {"slot": None, "colors": [[0, 1]]}]

    def paths(d, prefix=()):
        yield prefix
        if isinstance(d, dict):
            for k, v in d.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(d, list):
            for i, v in enumerate(d):
                yield from paths(v, prefix + (i,))
    all_paths = [p for p in paths(base) if p]
    for _ in range(600):
        d = json.loads(json.dumps(base))
        for _ in range(rng.randint(1, 3)):
            p = rng.choice(all_paths)
            node = d
            try:
                for k in p[:-1]:
                    node = node[k]
                node[p[-1]] = rng.choice(junk)
            except (KeyError, IndexError, TypeError):
                continue
        try:
            load_roles(d, hero)
        except openbone.OpenBoneError:
            pass
