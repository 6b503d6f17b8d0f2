#!/usr/bin/env python3
"""Writes conformance/fixtures/state-machine.obone (the §9 state-machine fixture).

A character with a layered machine: `base` (idle, blend1d locomotion driven by the
number input `speed`, a `jump` trigger with an onComplete chain jump → land → idle)
and `upper` (rest → wave when the bool `waving` is true, wave → exit state when the
string `mood` is "tired").  A `button` slot carries a boundingBox for the listeners
(hover/click/toggle, reportEvent, playSound, setMute toggle).  Bindings drive bones
and a slot alpha/colour.  Nothing is drawn (bounding boxes only), so samples carry
no draw items.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures", "state-machine.obone")


def bone(id, name, parent=None, **kw):
    d = {"id": id, "name": name, "parent": parent}
    d.update(kw)
    return d


def tl(target, id, prop, keys):
    return {"target": target, "id": id, "property": prop,
            "keys": [{"time": t, "value": v} for t, v in keys]}


doc = {
    "format": "openbone", "version": 1, "name": "state-machine", "width": 400, "height": 300, "fps": 30,
    "skeleton": {
        "bones": [
            bone("b_root", "root"),
            bone("b_body", "body", "b_root", y=50, length=40),
            bone("b_arm", "arm", "b_body", x=10, y=30, rotation=-20, length=25),
            bone("b_button", "button", "b_root", x=150, y=20, rotation=30, scaleX=2),
            bone("b_needle", "needle", "b_root", x=-100, y=10),
        ],
        "slots": [
            {"id": "s_body", "name": "body", "bone": "b_body", "attachment": None},
            {"id": "s_button", "name": "button", "bone": "b_button", "attachment": "hit"},
            {"id": "s_needle", "name": "needle", "bone": "b_needle", "color": "#ff8000", "attachment": None},
        ],
        "skins": [{"id": "skin_default", "name": "default", "attachments": {
            "s_button": {"hit": {"type": "boundingBox", "vertices": [-10, -10, 10, -10, 10, 10, -10, 10]}},
        }}],
    },
    "events": [
        {"id": "ev_step", "name": "footstep", "int": 1, "audio": "snd_step", "volume": 0.5},
        {"id": "ev_cheer", "name": "cheer", "int": 5, "float": 2.5, "string": "yay"},
    ],
    "audio": {
        "master": 1, "muted": False,
        "assets": [{"id": "a_step", "name": "step", "src": "step.wav", "duration": 0.3},
                   {"id": "a_music", "name": "music", "src": "music.ogg", "duration": 12}],
        "buses": [{"id": "bus_sfx", "name": "sfx", "volume": 1, "muted": False},
                  {"id": "bus_music", "name": "music", "volume": 0.8, "muted": True}],
        "sounds": [
            {"id": "snd_step", "name": "step", "asset": "a_step", "bus": "bus_sfx", "volume": 0.8, "rate": 1.25},
            {"id": "snd_music", "name": "music", "asset": "a_music", "bus": "bus_music", "loop": True,
             "fadeIn": 0.5, "fadeOut": 0.25},
            {"id": "snd_click", "name": "click", "asset": "a_step", "bus": None, "volume": 1},
        ],
    },
    "animations": [
        {"id": "anim_idle", "name": "idle", "duration": 1, "timelines": [
            tl("bone", "b_body", "rotation", [(0, 0), (0.5, 10), (1, 0)])]},
        {"id": "anim_walk", "name": "walk", "duration": 0.8, "timelines": [
            tl("bone", "b_body", "x", [(0, 0), (0.8, 20)]),
            tl("bone", "b_arm", "rotation", [(0, -20), (0.4, 10), (0.8, -20)])],
         "events": [{"time": 0.4, "event": "ev_step"}]},
        {"id": "anim_run", "name": "run", "duration": 0.5, "timelines": [
            tl("bone", "b_body", "x", [(0, 0), (0.5, 40)]),
            tl("bone", "b_body", "rotation", [(0, -10), (0.5, -10)])],
         "events": [{"time": 0.25, "event": "ev_step", "int": 2}]},
        {"id": "anim_jump", "name": "jump", "duration": 0.4, "timelines": [
            tl("bone", "b_body", "y", [(0, 50), (0.2, 100), (0.4, 50)])]},
        {"id": "anim_land", "name": "land", "duration": 0.2, "timelines": [
            tl("bone", "b_body", "scaleY", [(0, 1), (0.1, 0.8), (0.2, 1)])],
         "audio": [{"time": 0, "sound": "snd_step", "volume": 0.5}]},
        {"id": "anim_wave", "name": "wave", "duration": 0.6, "timelines": [
            tl("bone", "b_arm", "rotation", [(0, -20), (0.3, 70), (0.6, -20)])]},
    ],
    "stateMachines": [{
        "id": "sm_char", "name": "character",
        "inputs": [
            {"id": "in_speed", "name": "speed", "type": "number", "default": 0},
            {"id": "in_jump", "name": "jump", "type": "trigger"},
            {"id": "in_waving", "name": "waving", "type": "bool", "default": False},
            {"id": "in_mood", "name": "mood", "type": "string", "default": "calm"},
        ],
        "bindings": [
            {"id": "bd_needle", "input": "in_speed", "object": "bone", "target": "b_needle", "property": "rotation",
             "inMin": 0, "inMax": 2, "outMin": 0, "outMax": -90},
            {"id": "bd_alpha", "input": "in_speed", "object": "slot", "target": "s_needle", "property": "alpha",
             "inMin": 0, "inMax": 2, "outMin": 1, "outMax": 0.5},
            {"id": "bd_color", "input": "in_waving", "object": "slot", "target": "s_body", "property": "color",
             "inMin": 0, "inMax": 1, "outMin": "#ffffff", "outMax": "#00ff0080"},
            {"id": "bd_grow", "input": "in_waving", "object": "bone", "target": "b_button", "property": "scaleY",
             "inMin": 0, "inMax": 1, "outMin": 1, "outMax": 1.5},
            {"id": "bd_text", "input": "in_mood", "object": "bone", "target": "b_needle", "property": "x",
             "inMin": 0, "inMax": 1, "outMin": 0, "outMax": 500},
        ],
        "layers": [
            {"id": "ly_base", "name": "base", "entry": "st_idle",
             "states": [
                 {"id": "st_idle", "name": "idle", "type": "animation", "animation": "anim_idle", "loop": True},
                 {"id": "st_move", "name": "locomotion", "type": "blend1d", "input": "in_speed", "loop": True,
                  "entries": [{"value": 2, "animation": "anim_run"}, {"value": 0, "animation": "anim_idle"},
                              {"value": 1, "animation": "anim_walk"}]},
                 {"id": "st_jump", "name": "jump", "type": "animation", "animation": "anim_jump", "loop": False,
                  "onComplete": "st_land"},
                 {"id": "st_land", "name": "land", "type": "animation", "animation": "anim_land", "loop": False,
                  "onComplete": "st_idle"},
             ],
             "transitions": [
                 {"id": "tr_go", "from": "st_idle", "to": "st_move", "duration": 0.2,
                  "conditions": [{"input": "in_speed", "op": ">", "value": 0.1}]},
                 {"id": "tr_stop", "from": "st_move", "to": "st_idle", "duration": 0.2,
                  "conditions": [{"input": "in_speed", "op": "<=", "value": 0.1}]},
                 {"id": "tr_jump", "from": "@any", "to": "st_jump", "duration": 0.1,
                  "conditions": [{"input": "in_jump"}]},
                 {"id": "tr_nowhere", "from": "@any", "to": "st_missing", "duration": 0,
                  "conditions": [{"input": "in_jump"}]},
             ]},
            {"id": "ly_upper", "name": "upper", "entry": "st_rest",
             "states": [
                 {"id": "st_rest", "name": "rest", "type": "animation"},
                 {"id": "st_wave", "name": "wave", "type": "animation", "animation": "anim_wave", "loop": True,
                  "sounds": [{"sound": "snd_music", "on": "enter", "action": "play"},
                             {"sound": "snd_click", "on": "exit", "action": "play", "volume": 0.5}],
                  "inputs": [{"input": "in_mood", "value": "waving"}]},
                 {"id": "st_done", "name": "done", "type": "exit"},
             ],
             "transitions": [
                 {"id": "tr_wave", "from": "st_rest", "to": "st_wave", "duration": 0.25,
                  "conditions": [{"input": "in_waving", "op": "==", "value": True}]},
                 {"id": "tr_done", "from": "st_wave", "to": "st_done", "duration": 0.3,
                  "conditions": [{"input": "in_mood", "op": "==", "value": "tired"}]},
             ]},
        ],
        "listeners": [
            {"id": "li_hover", "name": "hover", "slot": "s_button", "event": "enter",
             "actions": [{"type": "playSound", "sound": "snd_click", "volume": 0.25}]},
            {"id": "li_click", "name": "click", "slot": "s_button", "event": "click",
             "actions": [{"type": "toggleInput", "input": "in_waving"},
                         {"type": "reportEvent", "event": "ev_cheer"}]},
            {"id": "li_leave", "name": "leave", "slot": "s_button", "event": "exit",
             "actions": [{"type": "setInput", "input": "speed", "value": "1.5"}]},
            {"id": "li_mute", "name": "mute", "slot": None, "event": "up",
             "actions": [{"type": "setMute", "bus": "bus_music", "muted": "toggle"},
                         {"type": "setMute", "bus": None, "muted": True}]},
            {"id": "li_down", "name": "press", "slot": "s_button", "event": "down",
             "actions": [{"type": "fireTrigger", "input": "jump"}]},
        ],
    }],
}

with open(OUT, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print("wrote", os.path.relpath(OUT))
