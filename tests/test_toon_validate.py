"""Validation (§1, §2, §4, §5, §8.6 of the Jabbertoon text): every error and warning the text
lists, reported as "path: text" with dotted paths.  Each case: a block (or a program) and the
paths of the errors and of the warnings expected."""
import pytest

from openbone import toon
from toon_util import prog


def paths(msgs):
    return sorted(m.split(": ", 1)[0] for m in msgs)


def check(program, errors=(), warnings=()):
    r = toon.validate(program)
    assert paths(r["errors"]) == sorted(errors), r
    assert paths(r["warnings"]) == sorted(warnings), r
    assert r["ok"] == (not errors)
    for m in r["errors"] + r["warnings"]:
        assert ": " in m  # "path: text"


B = "scripts.0.body.0"


def block(b, errors=(), warnings=()):
    check(prog([b]), [B + e if e.startswith(".") or not e else e for e in errors],
          [B + w if w.startswith(".") or not w else w for w in warnings])


# --- §1 the program ------------------------------------------------------------------------

@pytest.mark.parametrize("program,errors", [
    ([], ["program"]), (5, ["program"]), ("not json", ["program"]), ({"kind": "behaviour", "scripts": []}, ["v"]),
    ({"v": 2, "kind": "behaviour", "scripts": []}, ["v"]), ({"v": 1, "kind": "movie", "scripts": []}, ["kind"]),
    ({"v": 1, "kind": "behaviour"}, ["scripts"]), ({"v": 1, "kind": "behaviour", "scripts": [3]}, ["scripts.0"]),
    ({"v": 1, "kind": "behaviour", "scripts": [{}]}, ["scripts.0.body"]),
    ({"v": 1, "kind": "behaviour", "scripts": [{"hat": {"on": "tap"}, "body": []}]}, ["scripts.0.hat.on"]),
    ({"v": 1, "kind": "behaviour", "scripts": [{"hat": "start", "body": []}]}, ["scripts.0.hat"]),
])
def test_program_shape(program, errors):
    r = toon.validate(program)
    assert paths(r["errors"]) == errors and not r["ok"]


def test_every_hat():
    for on in ["start", "talk-start", "talk-end", "key", "click", "scene", "beat", "loud", "every", "touch"]:
        check({"v": 1, "kind": "behaviour", "scripts": [{"hat": {"on": on}, "body": []}]})


@pytest.mark.parametrize("vars,errors", [
    ({"x": 1, "y": -2.5}, []), ({"x": "=1"}, ["vars.x"]), ({"x": True, "y": None, "z": [1], "w": {}, "u": "3"},
                                                            ["vars.u", "vars.w", "vars.x", "vars.y", "vars.z"]),
    (None, []), (5, []), ([], []), ([1, "x"], ["vars.1"]), ("ab", ["vars.0", "vars.1"]),
    ("\U0001F600", ["vars.0", "vars.1"]),  # an emoji is two UTF-16 code units
    ({"x": float("nan")}, ["vars.x"]), ({"x": float("inf")}, ["vars.x"]),
])
def test_vars_start_at_finite_numbers(vars, errors):
    check(prog([], vars=vars), errors)


def test_params_are_numbers_or_formulas():
    check(prog([], params={"a": 1, "b": "=a*2", "c": "=dur"}))
    check(prog([], params={"a": True, "b": "fast", "c": None}), ["params.a", "params.b", "params.c"])


# --- §2 channels -----------------------------------------------------------------------------

@pytest.mark.parametrize("ch", ["part:Arm", "lift:arm:2", "part:__proto__", "part:arm#01", "Dx", "part:", "part:arm:-1#",
                                "lift:arm:1:1", "constructor"])
def test_malformed_channels_are_errors(ch):
    block({"op": "set", "ch": ch, "to": 1}, [".ch"])


@pytest.mark.parametrize("ch", ["dx", "dy", "sx", "sy", "rot", "mouth", "blink", "part:arm", "part:arm:-1",
                                "part:tail#3", "lift:hand:1", "part:leg:1#2", "part:ear:-1#0"])
def test_well_formed_channels(ch):
    block({"op": "set", "ch": ch, "to": 1})


def test_roles_nothing_draws_are_warnings_in_primitive_blocks():
    block({"op": "set", "ch": "part:elbow", "to": 1}, warnings=[".ch"])
    block({"op": "wave", "ch": "part:constructor"}, warnings=[".ch"])
    block({"op": "set", "ch": "part:neck", "to": 1}, warnings=[".ch"])  # no character draws a neck


def test_mood_is_not_a_number():
    block({"op": "set", "ch": "mood", "to": "happy"})
    for op in ("ramp", "wave", "drive"):
        block({"op": op, "ch": "mood", "to": 1, "value": 1}, [".ch"])


# --- §4 blocks and parts -----------------------------------------------------------------------

def test_unknown_ops_and_blocks():
    block({"op": "dance"}, [".op"])
    block({"op": "constructor"}, [".op"])
    block({"op": "toString"}, [".op"])
    block({}, [".op"])
    block(7, [""])
    block({"op": "say", "who": "A", "text": "hi"}, [".op"])  # a scene block in a behaviour


@pytest.mark.parametrize("part", ["elbow", "part:elbow", "part:constructor", "constructor", "__proto__", "left head",
                                  "front arm", "part:Arm", ""])
def test_unknown_friendly_parts_are_errors(part):
    block({"op": "setPart", "part": part, "deg": 10}, [".part"])


@pytest.mark.parametrize("part", ["arms", "left arm", "right forearm", "arm_l", "thigh_r", "front legs",
                                  "back left leg", "hind legs", "front paws", "front left paw", "paws", "left paw",
                                  "back paws", "feet", "tail", "the ears", "body", "head", "part:tail#2", "lift:arm:1"])
def test_friendly_parts(part):
    block({"op": "setPart", "part": part, "deg": 10})


def test_neck_is_a_warning_in_friendly_blocks():
    block({"op": "setPart", "part": "neck", "deg": 10}, warnings=[".part"])


def test_required_fields():
    block({"op": "set", "ch": "dx"}, [".to"])
    block({"op": "ramp", "ch": "dx"}, [""])
    block({"op": "ramp", "ch": "dx", "to": 1, "by": 2}, [""])
    block({"op": "wait"}, [""])
    block({"op": "wait", "for": 1, "until": 2}, [""])
    block({"op": "for", "body": []}, [""])
    block({"op": "while", "body": []}, [".cond"])
    block({"op": "repeat", "body": []}, [".times"])
    block({"op": "setVar", "value": 1}, [".var"])
    block({"op": "drive", "ch": "dx"}, [".value"])
    block({"op": "setPart", "deg": 3}, [".part"])
    block({"op": "together", "branches": [[], 3]}, [".branches.1"])
    block({"op": "if", "cond": 1, "then": {"op": "stop"}}, [".then"])


def test_if_given_body_warns():
    # an if runs {cond, then, else} (clarifications, block shapes); unknown fields are ignored (clarifications), so an if whose
    # blocks sit under body runs nothing: validation says so, and only when then is absent
    block({"op": "if", "cond": 1, "body": [{"op": "stop"}]}, warnings=[".body"])
    block({"op": "if", "cond": 1, "then": [], "body": [{"op": "stop"}]})
    block({"op": "if", "cond": 1, "then": [{"op": "stop"}]})


@pytest.mark.parametrize("field,value", [("ease", "bouncy"), ("ease", 3)])
def test_enums(field, value):
    block({"op": "ramp", "ch": "dx", "to": 1, field: value}, ["." + field])


def test_wave_enums():
    block({"op": "wave", "ch": "dx", "shape": "zigzag"}, [".shape"])
    block({"op": "wave", "ch": "dx", "clip": "both"}, [".clip"])
    block({"op": "wave", "ch": "dx", "sync": "global"}, [".sync"])


def test_values_are_numbers_or_formulas():
    block({"op": "set", "ch": "dx", "to": "12"}, [".to"])
    block({"op": "set", "ch": "dx", "to": True}, [".to"])
    block({"op": "set", "ch": "dx", "to": [1]}, [".to"])
    block({"op": "wait", "for": None}, [""])  # null counts as absent


# --- §5 expressions ------------------------------------------------------------------------------

@pytest.mark.parametrize("f", ["=1 +", "=(1", "=1)", "=", "=1 2", "=a b", "=1..2", "=sin()", "=clamp(1,2)",
                               "=pow(1)", "=1 = 2", "=foo(1)", "=constructor(1)", "=__proto__(2)", "=toString()",
                               "=#", "=1e", "=smoothstep(1,2)"])
def test_formula_errors(f):
    block({"op": "set", "ch": "dx", "to": f}, [".to"])


@pytest.mark.parametrize("f", ["=1", "=-2^2", "=sin(tau)*cos(local)+t", "=min()", "=max(1,2,3,4)", "=loud*talking",
                               "=random", "=pi*e", "=1 <= 2 && 3 != 4 || !0", "=smoothstep(0.3)", "=.5", "=1.",
                               "=2e-3", "=hopair(tau)", "=step(1,2)+lerp(1,2,3)+clamp(1,2,3)+mod(1,2)+sign(-1)",
                               "=floor(1)+ceil(1)+round(1)+abs(1)+exp(1)+sqrt(1)+tan(1)+pow(2,3)", "=dur"])
def test_formulas(f):
    block({"op": "set", "ch": "dx", "to": f})


def test_unknown_names_warn_params_and_vars_do_not():
    block({"op": "set", "ch": "dx", "to": "=speed * 2"}, warnings=[".to"])
    block({"op": "set", "ch": "dx", "to": "=dt"}, warnings=[".to"])  # there is no dt
    block({"op": "set", "ch": "dx", "to": "=a + a + b"}, warnings=[".to", ".to"])  # one per distinct name
    check(prog([{"op": "set", "ch": "dx", "to": "=speed + n + constructor"}],
               params={"speed": 1, "constructor": 2}, vars={"n": 0}))
    check(prog([{"op": "set", "ch": "dx", "to": "=dt"}], params={"dt": 1}))


def test_formula_nesting_limit():
    deep = "=" + "(" * 300 + "1" + ")" * 300
    block({"op": "set", "ch": "dx", "to": deep}, [".to"])
    block({"op": "set", "ch": "dx", "to": "=" + "-" * 300 + "1"}, [".to"])
    block({"op": "set", "ch": "dx", "to": "=" + "(" * 150 + "1" + ")" * 150})


# --- §8.6 the skeleton ---------------------------------------------------------------------------------

@pytest.mark.parametrize("b,errors,warnings", [
    ({"op": "chain", "ch": "part:tail"}, [], []),
    ({"op": "chain", "ch": "part:tail#2"}, [".ch"], []),
    ({"op": "chain", "ch": "dx"}, [".ch"], []),
    ({"op": "chain", "ch": "lift:ear:1"}, [], []),
    ({"op": "chain", "ch": "part:tail", "segments": 0}, [".segments"], []),
    ({"op": "chain", "ch": "part:tail", "segments": 17}, [".segments"], []),
    ({"op": "chain", "ch": "part:tail", "segments": 2.5}, [".segments"], []),
    ({"op": "chain", "ch": "part:tail", "segments": "=4"}, [".segments"], []),
    ({"op": "chain", "ch": "part:leg"}, [], [".ch"]),
    ({"op": "chain", "ch": "part:arm:1"}, [], [".ch"]),
    ({"op": "chain", "ch": "part:elbow"}, [], [".ch"]),
    ({"op": "chain", "ch": "part:neck"}, [], [".ch"]),
    ({"op": "chain", "ch": "part:tail", "lag": 1.5}, [], [".lag"]),
    ({"op": "chain", "ch": "part:tail", "lag": -0.1}, [], [".lag"]),
    ({"op": "chain", "ch": "part:tail", "falloff": 0}, [], [".falloff"]),
    ({"op": "chain", "ch": "part:tail", "falloff": 2.5}, [], [".falloff"]),
    ({"op": "follow", "source": "dy"}, [".ch"], []),
    ({"op": "follow", "ch": "part:ear:1"}, [".source"], []),
    ({"op": "follow", "ch": [], "source": "dy"}, [".ch"], []),
    ({"op": "follow", "ch": "part:ear:1", "source": ["dy"]}, [".source"], []),
    ({"op": "follow", "ch": "mood", "source": "dy"}, [".ch"], []),
    ({"op": "follow", "ch": "part:ear:1", "source": "mood"}, [".source"], []),
    ({"op": "follow", "ch": ["part:ear:1", "part:Ear"], "source": "dy"}, [".ch.1"], []),
    ({"op": "follow", "ch": "part:ear:1", "source": "dy", "hz": 0}, [".hz"], []),
    ({"op": "follow", "ch": "part:ear:1", "source": "dy", "hz": 61}, [".hz"], []),
    ({"op": "follow", "ch": "part:ear:1", "source": "dy", "hz": 8}, [], [".hz"]),
    ({"op": "follow", "ch": "part:ear:1", "source": "dy", "hz": "=0"}, [], []),
    ({"op": "follow", "ch": "part:ear:1", "source": "dy", "damping": -1}, [".damping"], []),
    ({"op": "follow", "ch": "part:elbow", "source": "dy"}, [], [".ch"]),
    ({"op": "view"}, [".to"], []),
    ({"op": "view", "to": "top"}, [".to"], []),
    ({"op": "view", "to": "side"}, [], []),
    ({"op": "reach", "part": "head", "at": "hip"}, [".part"], []),
    ({"op": "reach", "part": "left arm", "at": "hip"}, [".part"], []),
    ({"op": "reach", "part": "lift:hand:1", "at": "hip"}, [".part"], []),
    ({"op": "reach"}, [""], []),
    ({"op": "reach", "at": "hip", "to": {"x": 1, "y": 2}}, [""], []),
    ({"op": "reach", "to": {"x": 1}}, [".to"], []),
    ({"op": "reach", "to": {"x": 1, "y": 2, "z": 3}}, [".to"], []),
    ({"op": "reach", "to": {"x": "a", "y": 2}}, [".to"], []),
    ({"op": "reach", "to": [1, 2]}, [".to"], []),
    ({"op": "reach", "to": {"x": 1, "y": "=tau"}}, [], []),
    ({"op": "reach", "to": {"x": 1, "y": 2}, "dx": 0.1}, [""], []),
    ({"op": "reach", "dx": 0.1}, ["", ""], []),
    ({"op": "reach", "at": "head", "dx": "a"}, [".dx"], []),
    ({"op": "reach", "at": "nose"}, [".at"], []),
    ({"op": "reach", "at": "head", "dx": 0.1, "dy": "=-0.03"}, [], []),
    ({"op": "reach", "part": "hands", "at": "hip", "hold": 1}, [], []),
    ({"op": "reach", "at": "hip", "hold": -1}, [], [".hold"]),
    ({"op": "release", "part": "tail"}, [".part"], []),
    ({"op": "release", "part": "feet"}, [], []),
    ({"op": "swish", "part": "lift:tail"}, [".part"], []),
    ({"op": "swish", "part": "part:tail#2"}, [".part"], []),
    ({"op": "swish", "part": "arms", "segments": 3}, [], [".segments"]),
    ({"op": "swish", "part": "tail", "segments": 3}, [], []),
    ({"op": "swish", "part": "tail", "segments": 20}, [".segments"], []),
    ({"op": "swish", "part": "neck"}, [], [".part"]),
    ({"op": "bend", "part": "neck", "deg": 10}, [], [".part"]),
    ({"op": "bend", "part": "wiggle", "deg": 10}, [".part"], []),
    ({"op": "flop", "part": "ears"}, [], []),
    ({"op": "bow", "deg": 30}, [], []),
    ({"op": "letFollow", "part": "ears"}, [], []),
    ({"op": "letFollow", "part": "neck"}, [], [".part"]),
    ({"op": "letFollow", "part": "ears", "after": "neck"}, [], [".after"]),
    ({"op": "letFollow", "part": "ears", "after": "wobble"}, [".after"], []),
    ({"op": "letFollow", "part": "ears", "after": "lift:arm:1"}, [".after"], []),
    ({"op": "letFollow", "part": "tail#2"}, [".part"], []),
    ({"op": "letFollow", "part": "ears", "hz": 100}, [".hz"], []),
    ({"op": "letFollow", "part": "ears", "hz": 7}, [], [".hz"]),
    ({"op": "letFollow", "part": "arms", "segments": 2}, [], [".segments"]),
    ({"op": "turnView", "to": "back"}, [], []),
    ({"op": "turnView", "over": 0}, [], [".over"]),
    ({"op": "turnView", "over": -1}, [], [".over"]),
    ({"op": "turnView", "to": "top"}, [".to"], []),
])
def test_skeleton_validation(b, errors, warnings):
    block(b, errors, warnings)


def test_validate_never_raises_on_junk():
    import sys
    deep = {"op": "forever", "body": []}
    node = deep
    for _ in range(5000):
        nxt = {"op": "forever", "body": []}
        node["body"].append(nxt)
        node = nxt
    r = toon.validate(prog([deep]))
    assert not r["ok"] and r["errors"]
    assert sys.getrecursionlimit() >= 1000
    r = toon.validate(object())
    assert not r["ok"]
    r = toon.validate("{" * 100000)
    assert not r["ok"]


# --- §7 scenes and cartoons ---------------------------------------------------------------------------------

def cart(scripts, **extra):
    return dict({"v": 1, "kind": "cartoon", "cast": {"A": "a"}, "scripts": scripts}, **extra)


def sc(name, body, **hat):
    return {"hat": dict({"on": "scene", "name": name}, **hat), "body": body}


@pytest.mark.parametrize("program,errors,warnings", [
    ({"v": 1, "kind": "cartoon", "scripts": []}, ["cast"], []),
    (cart([{"body": []}]), ["scripts.0.hat"], []),
    (cart([{"hat": {"on": "start"}, "body": []}]), ["scripts.0.hat.on"], []),
    (cart([sc("a", [{"op": "hop"}])]), ["scripts.0.body.0.op"], []),
    (cart([sc("a", [{"op": "swish", "part": "tail"}])]), ["scripts.0.body.0.op"], []),  # skeleton blocks too
    (cart([sc("a", [{"op": "say", "who": "Z", "text": "x"}])]), ["scripts.0.body.0.who"], []),
    (cart([sc("a", [{"op": "place", "who": "A", "facing": 2, "h": 0, "y": 1.5}])]),
     ["scripts.0.body.0.facing", "scripts.0.body.0.h"], ["scripts.0.body.0.y"]),
    (cart([sc("a", [{"op": "enter", "who": "A", "from": "up"}, {"op": "exit", "who": "A", "to": 3}])]),
     ["scripts.0.body.0.from", "scripts.0.body.1.to"], []),
    (cart([sc("a", [], place="p"), sc("a", [], place="q")]), ["scripts.1.hat.place"], []),
    (cart([sc("a", [], mood="x"), sc("a", [], mood="y")]), ["scripts.1.hat.mood"], []),
    (cart([sc("a", [], mood="x"), sc("a", [])]), [], []),  # a script that does not say agrees
    (cart([sc("a", [], at=1), sc("a", [], at=2)]), ["scripts.1.hat.at"], []),
    (cart([sc("a", [], at=2), sc("b", [], at=1)]), [], ["scripts.1.hat.at"]),  # pinned before an earlier pin
    (cart([sc("a", [{"op": "window", "from": -1, "body": []}])]), [], ["scripts.0.body.0"]),  # never arrives
    (cart([sc("a", [{"op": "wait", "until": "=dur - 1"}])]), [], ["scripts.0.body.0"]),
    (cart([sc("a", [{"op": "wait", "until": "=dur"}])]), [], []),  # held, not counting back
    (cart([sc("a", [{"op": "window", "from": -1, "body": []}]), sc("b", [], at=5)]), [], []),
    (cart([sc("a", [{"op": "wait", "for": "=loud + talking"}])]), [], ["scripts.0.body.0.for"]),  # a scene reads 0
    (cart([sc("a", [{"op": "does", "who": "A", "behaviour": prog([{"op": "bob"}], params={"h": 1}),
                     "params": {"h": "=q", "z": 1}}])]),
     [], ["scripts.0.body.0.params.h", "scripts.0.body.0.params.z"]),
    (cart([sc("a", [{"op": "does", "who": "A", "behaviour": prog([{"op": "wave", "ch": "part:Arm"}])}])]),
     ["scripts.0.body.0.behaviour.scripts.0.body.0.ch"], []),
    (cart([sc("a", [{"op": "does", "who": "A", "behaviour": {"v": 1, "kind": "scene", "scripts": []}}])]),
     ["scripts.0.body.0.behaviour.kind"], []),
    (cart([sc("a", [{"op": "does", "who": "A", "behaviour": 5}, {"op": "does", "who": "A",
                                                                 "behaviour": {"id": 3}},
                    {"op": "does", "who": "A", "behaviour": "c4c:beh:bounce", "also": "yes"}])]),
     ["scripts.0.body.0.behaviour", "scripts.0.body.1.behaviour", "scripts.0.body.2.also"], []),
    (cart([sc("a", [])], cast={"A": {"look": 5, "pack": 3, "legs": 2.5, "zz": 1},
                               "B": {"look": {"template": "dog", "x": 1, "colors": {"body": "#f00", "q": 1}},
                                     "pack": {"id": "c4c:char:x", "version": "1"}, "at": {"x": 0.2, "facing": 0}},
                               "C": 7}),
     ["cast.A.legs", "cast.A.pack", "cast.A.look", "cast.C", "cast.B.at.facing"],
     ["cast.A.zz", "cast.B.look.x", "cast.B.look.colors.q"]),
    (cart([sc("a", [])], places={"p": "bg", "q": {"background": "x", "z": 1}, "r": 5}), ["places.r"], ["places.q.z"]),
    (cart([sc("a", [{"op": "caption"}, {"op": "cut"}, {"op": "mood", "who": "A"}, {"op": "does", "who": "A"}])]),
     ["scripts.0.body.0.text", "scripts.0.body.1", "scripts.0.body.2.mood", "scripts.0.body.3.behaviour"], []),
    ({"v": 1, "kind": "scene", "scripts": [{"body": []}, {"hat": {"on": "key"}, "body": []}]}, ["scripts.1.hat.on"], []),
    ({"v": 1, "kind": "scene", "cast": {"A": "any"}, "scripts": [{"body": [{"op": "say", "who": "A", "text": "=hi"}]}]},
     [], []),
])
def test_scene_validation(program, errors, warnings):
    check(program, errors, warnings)


def test_every_scene_block_and_control_block_in_a_scene():
    body = [{"op": "say", "who": "A", "text": "hi", "mood": "glad", "voice": "v", "speed": 1.2, "pitch": "=1"},
            {"op": "does", "who": "A", "behaviour": "c4c:beh:bounce", "for": 2, "params": {"h": 3}, "also": True},
            {"op": "caption", "text": "c", "for": 1}, {"op": "cut", "place": "p", "mood": "m"},
            {"op": "place", "who": "A", "x": 0.5, "y": 0.9, "h": 0.4, "facing": -1, "over": 1, "ease": "out"},
            {"op": "enter", "who": "A", "from": "top", "x": 0.2}, {"op": "exit", "who": "A", "to": "bottom", "over": 1},
            {"op": "mood", "who": "A", "mood": "sad"}, {"op": "wait", "for": 1},
            {"op": "for", "for": 1, "body": [{"op": "stop"}]}, {"op": "while", "cond": 0, "body": []},
            {"op": "until", "cond": 1}, {"op": "repeat", "times": 2, "body": []}, {"op": "forever", "body": [{"op": "stopAll"}]},
            {"op": "together", "branches": [[], []]}, {"op": "if", "cond": 1}, {"op": "setVar", "var": "x", "value": 1},
            {"op": "changeVar", "var": "x"}, {"op": "window", "from": 1, "to": 2, "body": []}]
    check(cart([sc("a", body)], places={"p": {"background": "p.png", "grade": "warm"}}))


@pytest.mark.parametrize("kw, text", [({"fps": float("nan")}, "fps must be a positive number, got nan"),
                                      ({"aspect": -1.0}, "aspect must be a positive number, got -1.0"),
                                      ({"max_duration": 0.0}, "max_duration must be a positive number, got 0.0")])
def test_bad_runtime_numbers_are_printed_in_the_message(kw, text):
    # the binding formats the number itself (PyErr_Format has no %g: it printed a literal "%g")
    with pytest.raises(toon.ToonError) as e:
        toon.create_runtime(**kw)
    assert str(e.value) == text


def test_bad_legs_are_printed_in_the_message():
    rt = toon.create_runtime(seed=0)
    with pytest.raises(toon.ToonError, match=r"legs is a whole number 0-1000, got 2\.5$"):
        rt.add_character("c", legs=2.5)
