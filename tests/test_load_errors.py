"""Errors and warnings of the animation, slider, audio, script and state-machine
loaders (csrc/load_animation.c, csrc/load_state_machine.c) through the Python API.

A value of the wrong type fails the load with ``openbone.OpenBoneError`` (a
ValueError) whose message names the place; what the spec treats leniently (a
missing target, an unknown id) loads, with a note in ``Document.warnings``.
"""
import json

import pytest

import openbone
from conftest import make_doc

SKELETON = {
    "bones": [{"id": "root"}, {"id": "arm", "parent": "root", "length": 10}],
    "slots": [{"id": "s1", "bone": "root"}, {"id": "s2", "bone": "arm"}],
    "ik": [{"id": "ik1", "bones": ["arm"], "target": "root"}],
    "physics": [{"id": "ph", "bone": "arm"}],
}


def doc(**extra):
    return make_doc(json.loads(json.dumps(SKELETON)), **extra)


def timeline(**fields):
    """A document with one animation holding one bone-x timeline patched by fields."""
    tl = {"target": "bone", "id": "arm", "property": "x", "keys": [{"time": 0, "value": 1}]}
    tl.update(fields)
    return doc(animations=[{"id": "a", "name": "a", "duration": 1, "timelines": [tl], "events": []}])


def machine(**fields):
    sm = {"id": "sm", "name": "sm", "inputs": [], "bindings": [], "layers": [], "listeners": [], "scripts": []}
    sm.update(fields)
    return doc(stateMachines=[sm])


def err(d):
    with pytest.raises(openbone.OpenBoneError) as e:
        openbone.loads(json.dumps(d))
    assert isinstance(e.value, ValueError)
    return str(e.value)


ANIMATION_ERRORS = [
    (doc(animations={}), 'animations: expected an array, got an object'),
    (doc(animations=[7]), 'animations[0]: expected an object, got 7'),
    (doc(animations=[{"id": "a", "duration": "2s"}]), 'animations[0].duration: expected a number, got "2s"'),
    (doc(animations=[{"id": "a", "timelines": [{"target": "bone", "id": "arm", "property": "x", "keys": []},
                                               {"target": "bone", "id": "arm", "property": "y", "keys": []},
                                               {"target": "bone", "id": "arm", "property": "x",
                                                "keys": [{"time": 0, "value": 0}, {"time": "x", "value": 1}]}]}]),
     'animations[0].timelines[2].keys[1].time: expected a number, got "x"'),
    (timeline(keys=[{"value": 1}]), 'animations[0].timelines[0].keys[0].time: expected a number, got nothing'),
    (timeline(keys=[{"time": 0, "value": "1"}]),
     'animations[0].timelines[0].keys[0].value: expected a number, got "1"'),
    (timeline(keys=[{"time": 0, "value": 1, "curve": "ease"}]),
     'animations[0].timelines[0].keys[0].curve: expected "linear", "stepped" or [cx1, cy1, cx2, cy2], got "ease"'),
    (timeline(keys=[{"time": 0, "value": 1, "curve": [0.1, 0.2]}]),
     'animations[0].timelines[0].keys[0].curve: expected "linear", "stepped" or [cx1, cy1, cx2, cy2], got an array'),
    (timeline(keys=[{"time": 0, "value": 1, "curve": [0.1, 0.2, None, 1]}]),
     'animations[0].timelines[0].keys[0].curve[2]: expected a number, got null'),
    (timeline(property="inherit", keys=[{"time": 0, "value": "sideways"}]),
     'animations[0].timelines[0].keys[0].value: expected "normal", "onlyTranslation", "noRotation" or "noScale", '
     'got "sideways"'),
    (timeline(target="slot", id="s1", property="color", keys=[{"time": 0, "value": "#ggg"}]),
     'animations[0].timelines[0].keys[0].value: expected a hex colour like "#rrggbb" or "#rrggbbaa", got "#ggg"'),
    (timeline(target="slot", id="s1", property="color", keys=[{"time": 0, "value": [1, 0, 0, 1]}]),
     'animations[0].timelines[0].keys[0].value: expected a hex colour string, got an array'),
    (timeline(target="ik", id="ik1", property="bend", keys=[{"time": 0, "value": "positive"}]),
     'animations[0].timelines[0].keys[0].value: expected a number or true/false, got "positive"'),
    (timeline(target="deform", id="s1", attachment="m", property="offsets", keys=[{"time": 0, "value": [0, "1"]}]),
     'animations[0].timelines[0].keys[0].value[1]: expected a number, got "1"'),
    (timeline(target="drawOrder", id="skeleton", property="order", keys=[{"time": 0, "value": {"s1": 0}}]),
     'animations[0].timelines[0].keys[0].value: expected a list of slot ids, got an object'),
    (timeline(target=["bone"]), 'animations[0].timelines[0].target: expected a string, got an array'),
    (timeline(keys={"0": 1}), 'animations[0].timelines[0].keys: expected an array, got an object'),
    (doc(events=[{"id": "e"}], animations=[{"id": "a", "events": [{"time": "0", "event": "e"}]}]),
     'animations[0].events[0].time: expected a number, got "0"'),
    (doc(animations=[{"id": "a", "audio": [{"time": 0, "sound": "s", "volume": "loud"}]}]),
     'animations[0].audio[0].volume: expected a number, got "loud"'),
    (doc(events=[{"id": "e", "float": "1.5"}]), 'events[0].float: expected a number, got "1.5"'),
]


@pytest.mark.parametrize("d, message", ANIMATION_ERRORS)
def test_animation_errors(d, message):
    assert err(d) == message


def test_slider_errors():
    d = doc(animations=[{"id": "a"}])
    d["skeleton"]["sliders"] = [{"id": "sl", "animation": "a", "mix": "full"}]
    assert err(d) == 'skeleton.sliders[0].mix: expected a number, got "full"'
    d["skeleton"]["sliders"] = [{"id": "sl", "animation": "a", "property": "alpha"}]
    assert err(d) == ('skeleton.sliders[0].property: expected a bone property '
                      '(rotation, x, y, scaleX, scaleY, shearX, shearY), got "alpha"')


AUDIO_ERRORS = [
    (doc(audio=[1]), 'audio: expected an object, got an array'),
    (doc(audio={"muted": "yes"}), 'audio.muted: expected true or false, got "yes"'),
    (doc(audio={"assets": [{"id": "a", "duration": "3"}]}), 'audio.assets[0].duration: expected a number, got "3"'),
    (doc(audio={"sounds": [{"id": "s", "fadeOut": [1]}]}), 'audio.sounds[0].fadeOut: expected a number, got an array'),
    (doc(audio={"sounds": [{"id": "s", "asset": {"id": "a"}}]}),
     'audio.sounds[0].asset: expected an id (a string), got an object'),
    (doc(scripts=[{"id": "s", "code": ["x"]}]), 'scripts[0].code: expected a string, got an array'),
]


@pytest.mark.parametrize("d, message", AUDIO_ERRORS)
def test_audio_and_script_errors(d, message):
    assert err(d) == message


NUMBER_INPUT = {"id": "n", "name": "n", "type": "number", "default": 0}

MACHINE_ERRORS = [
    (doc(stateMachines={}), 'stateMachines: expected an array, got an object'),
    (machine(inputs=[{"id": "i", "type": "integer"}]),
     'stateMachines[0].inputs[0].type: expected "bool", "number", "string" or "trigger", got "integer"'),
    (machine(inputs=[{"id": "i", "type": "number", "default": {}}]),
     'stateMachines[0].inputs[0].default: expected a number, boolean or string, got an object'),
    (machine(layers=[{"entry": "s", "states": [{"id": "s", "speed": "2"}], "transitions": []}]),
     'stateMachines[0].layers[0].states[0].speed: expected a number, got "2"'),
    (machine(layers=[{"states": [{"id": "s", "entries": [{"value": "low", "animation": "a"}]}]}]),
     'stateMachines[0].layers[0].states[0].entries[0].value: expected a number, got "low"'),
    (machine(layers=[{"states": [{"id": "s", "sounds": [{"sound": "x", "action": "pause"}]}]}]),
     'stateMachines[0].layers[0].states[0].sounds[0].action: expected "play" or "stop", got "pause"'),
    (machine(layers=[{"states": [{"id": "s", "emitters": [{"slot": "s1", "emitting": "on"}]}]}]),
     'stateMachines[0].layers[0].states[0].emitters[0].emitting: expected true or false, got "on"'),
    (machine(layers=[{"states": [{"id": "s"}], "transitions": [{"from": "s", "to": "s", "duration": None},
                                                               {"from": "s", "to": "s", "duration": "1"}]}]),
     'stateMachines[0].layers[0].transitions[1].duration: expected a number, got "1"'),
    (machine(inputs=[NUMBER_INPUT],
             layers=[{"states": [], "transitions": [{"conditions": [{"input": "n", "op": "~", "value": 1}]}]}]),
     'stateMachines[0].layers[0].transitions[0].conditions[0].op: expected "==", "!=", ">", "<", ">=" or "<=", '
     'got "~"'),
    (machine(inputs=[NUMBER_INPUT],
             layers=[{"states": [], "transitions": [{"conditions": [{"input": "n", "op": ">", "value": [1]}]}]}]),
     'stateMachines[0].layers[0].transitions[0].conditions[0].value: expected a number, boolean or string, '
     'got an array'),
    (machine(listeners=[{"id": "l", "slot": "s1", "event": "down", "actions": [{"type": "setMute", "muted": 1}]}]),
     'stateMachines[0].listeners[0].actions[0].muted: expected true, false or "toggle", got 1'),
    (machine(listeners=[{"id": "l", "actions": [{"type": "runScript", "script": "x", "fn": 3}]}]),
     'stateMachines[0].listeners[0].actions[0].fn: expected a string, got 3'),
    (machine(listeners=[{"id": "l", "actions": [{"type": "playSound", "sound": "x", "volume": "max"}]}]),
     'stateMachines[0].listeners[0].actions[0].volume: expected a number, got "max"'),
    (machine(listeners=[{"id": "l", "actions": {}}]),
     'stateMachines[0].listeners[0].actions: expected an array, got an object'),
    (machine(bindings=[{"id": "b", "input": "n", "object": "slot", "target": "s1", "property": "color",
                        "outMin": "#000", "outMax": "red"}]),
     'stateMachines[0].bindings[0].outMax: expected a hex colour like "#rrggbb" or "#rrggbbaa", got "red"'),
    (machine(bindings=[{"id": "b", "input": "n", "object": "bone", "target": "arm", "property": "x",
                        "outMax": "#fff"}]),
     'stateMachines[0].bindings[0].outMax: expected a number, got "#fff"'),
    (machine(scripts=["x", 5, True]), 'stateMachines[0].scripts[2]: expected an id (a string), got true'),
]


@pytest.mark.parametrize("d, message", MACHINE_ERRORS)
def test_state_machine_errors(d, message):
    assert err(d) == message


def test_lenient_references_load_with_warnings():
    """§2/§5: missing targets and unknown ids are not errors; validate reports them."""
    d = doc(
        events=[{"id": "e"}],
        animations=[{"id": "a", "timelines": [
            {"target": "bone", "id": "ghost", "property": "x", "keys": [{"time": 0, "value": 1}]},
            {"target": "laser", "id": "arm", "property": "x", "keys": [{"time": 0, "value": "anything"}]},
            {"target": "drawOrder", "id": "skeleton", "property": "order", "keys": [{"time": 0, "value": ["s2", "zz"]}]},
        ], "events": [{"time": 1, "event": "nope"}]}],
        stateMachines=[{"id": "sm", "inputs": [], "layers": [
            {"entry": "missing", "states": [{"id": "s", "animation": "zz", "onComplete": "nowhere"}],
             "transitions": [{"from": "@any", "to": "gone"}]}],
            "listeners": [{"id": "l", "slot": "gone", "event": "tap", "actions": [{"type": "dance"}]}]}],
    )
    document = openbone.loads(json.dumps(d))
    w = "\n".join(document.warnings)
    for part in [
        'animations[0].timelines[0].id: no bone "ghost"',
        'animations[0].timelines[1].target: unknown timeline target "laser"',
        'animations[0].timelines[2].keys[0].value[1]: no slot "zz"',
        'animations[0].events[0].event: no event "nope"',
        'stateMachines[0].layers[0].entry: no state "missing"',
        'stateMachines[0].layers[0].states[0].animation: no animation "zz"',
        'stateMachines[0].layers[0].states[0].onComplete: no state "nowhere"',
        'stateMachines[0].layers[0].transitions[0].to: no state "gone"',
        'stateMachines[0].listeners[0].slot: no slot "gone"',
        'stateMachines[0].listeners[0].event: unknown listener event "tap"',
        'stateMachines[0].listeners[0].actions[0].type: unknown action type "dance"',
    ]:
        assert part in w, part
    assert document.animations[0].length == 1  # §5.1: the event key's time counts


def test_null_means_absent():
    """JSON null reads as an absent optional field (defaults apply)."""
    d = doc(events=[{"id": "e", "int": None, "string": None}],
            audio={"master": None, "assets": None, "buses": None, "sounds": None},
            animations=[{"id": "a", "duration": None, "timelines": None, "events": None, "audio": None}],
            stateMachines=[{"id": "sm", "inputs": None, "bindings": None, "layers": None}],
            scripts=None)
    document = openbone.loads(json.dumps(d))
    assert document.animations[0].length == 0
    assert document.events[0].int == 0 and document.events[0].string == ""
