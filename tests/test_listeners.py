"""§9.5 pointer events, hit testing and listener actions, hand-worked.

The button bone sits at (100, 0) with the identity basis, so a local point (x, y)
is the world point (100 + x, y).
"""
import pytest

from oracles.sm_helpers import anim, cond, doc, inst, layer, state, tl, trans

BONES = [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root", "x": 100}]
SQUARE = {"type": "boundingBox", "vertices": [-10, -10, 10, -10, 10, 10, -10, 10]}
EVENTS = [{"id": "e_" + k, "name": k} for k in ("down", "up", "move", "click", "enter", "exit", "any")]


def listener(event, slot="s", actions=None, id=None):
    return {"id": id or "li_" + event, "name": id or event, "slot": slot, "event": event,
            "actions": actions if actions is not None else [{"type": "reportEvent", "event": "e_" + event}]}


def ldoc(listeners, attachments=None, current="box", skins=None, inputs=(), layers=None, animations=(), audio=None,
         slot_extra=None):
    slots = [dict({"id": "s", "name": "s", "bone": "b", "attachment": current}, **(slot_extra or {}))]
    skins = skins or [{"id": "default", "name": "default", "attachments": {"s": attachments or {"box": SQUARE}}}]
    return doc(inputs=list(inputs), layers=layers or [layer([state("A")])], bones=BONES, slots=slots, skins=skins,
               listeners=listeners, events=EVENTS, animations=list(animations), audio=audio)


def fired(i):
    return [e["name"] for e in i.events]


def step(i, *pointers, dt=0.1):
    for p in pointers:
        i.pointer(*p)
    i.advance(dt)
    return fired(i)


# ---- the listener event table ----------------------------------------------------

def test_down_up_move_need_type_and_hit():
    i = inst(ldoc([listener("down"), listener("up"), listener("move")]))
    assert step(i, ("move", 105, 5)) == ["move"]
    assert step(i, ("move", 0, 0)) == []              # not hit
    assert step(i, ("down", 100, 0)) == ["down"]
    assert step(i, ("up", 111, 0)) == []               # x = 11 > 10: outside
    assert step(i, ("up", 109, -9), ("down", 50, 50)) == ["up"]


def test_click_needs_press_and_release_on_the_slot():
    i = inst(ldoc([listener("click")]))
    assert step(i, ("down", 100, 0), ("up", 101, 1)) == ["click"]
    assert step(i, ("down", 100, 0), ("up", 200, 0)) == []   # released outside: unmarked
    assert step(i, ("up", 100, 0)) == []                     # no press pending
    assert step(i, ("down", 200, 0), ("up", 100, 0)) == []   # pressed outside
    assert step(i, ("down", 100, 0)) == []
    assert step(i, ("move", 300, 0)) == []
    assert step(i, ("up", 100, 0)) == ["click"]              # press kept across frames


def test_enter_exit_on_any_pointer_event():
    i = inst(ldoc([listener("enter"), listener("exit")]))
    assert step(i, ("move", 100, 0)) == ["enter"]
    assert step(i, ("move", 101, 0)) == []                  # already hovered
    assert step(i, ("down", 0, 0)) == ["exit"]              # any pointer event type
    assert step(i, ("up", 0, 0)) == []
    assert step(i, ("up", 100, 0), ("move", 0, 0), ("move", 100, 0)) == ["enter", "exit", "enter"]


def test_null_slot_hits_everywhere_missing_slot_never():
    i = inst(ldoc([listener("down", slot=None, id="anywhere"), listener("up", slot="ghost")]))
    assert step(i, ("down", -1000, 1000)) == ["down"]
    assert step(i, ("up", 100, 0)) == []


def test_uses_last_frames_world_pose():
    # the state's animation moves b to x = 300.  Frame 1's pointer is processed at step
    # 3, before posing: against the constructed pose (b at 100).
    a = anim("a", [tl("bone", "b", "x", [(0, 300), (1, 300)])])
    d = ldoc([listener("down")], layers=[layer([state("A", "a")])], animations=[a])
    i = inst(d)
    assert step(i, ("down", 300, 0)) == []
    assert step(i, ("down", 100, 0)) == []
    assert step(i, ("down", 300, 0)) == ["down"]


def test_pointer_events_processed_in_order_with_time():
    i = inst(ldoc([listener("down"), listener("up")]))
    i.advance(0.25)
    i.pointer("down", 100, 0)
    i.pointer("up", 100, 0)
    i.advance(0.125)
    # reportEvent: time = elapsed after the increment = 0.375
    assert [(e["name"], e["time"]) for e in i.events] == [("down", 0.375), ("up", 0.375)]


# ---- the hit polygon choice ------------------------------------------------------

def hit(d, x, y, skin=None):
    i = inst(d, skin=skin)
    return i.hit_test("s", x, y)


def test_current_bounding_box():
    d = ldoc([], attachments={"box": SQUARE})
    assert hit(d, 109, 9) and not hit(d, 111, 0)


def test_current_region_quad():
    # region 20×10 scaled 2: hw = 20, hh = 10, rotated 90° ⇒ spans x ±10, y ±20
    region = {"type": "region", "width": 20, "height": 10, "scaleX": 2, "scaleY": 2, "rotation": 90}
    d = ldoc([], attachments={"pic": region}, current="pic")
    assert hit(d, 109, 19) and not hit(d, 111, 0) and not hit(d, 100, 21)


def test_first_bounding_box_in_js_key_order():
    # current is a region; the slot's boxes "zz" (±40), "10" (±20), "2" (±5): integer-like
    # keys first, ascending ⇒ "2" is the hit polygon (not the first in file order).
    def box(h):
        return {"type": "boundingBox", "vertices": [-h, -h, h, -h, h, h, -h, h]}
    region = {"type": "region", "width": 100, "height": 100}
    atts = {"pic": region, "zz": box(40), "10": box(20), "2": box(5)}
    d = ldoc([], attachments=atts, current="pic")
    assert hit(d, 104, 4) and not hit(d, 106, 0)
    # the active skin overlays "2" with a region ⇒ "2" is not a box: next is "10"
    skins = [{"id": "default", "name": "default", "attachments": {"s": atts}},
             {"id": "alt", "name": "alt", "attachments": {"s": {"2": region}}}]
    d = ldoc([], skins=skins, current="pic")
    assert hit(d, 119, 0, skin="alt") and not hit(d, 121, 0, skin="alt")
    assert not hit(d, 119, 0)  # no skin: "2" (±5)


def test_shape_outline_polygon():
    # rect 40×20 (hw 20, hh 10, radius 0) at (5, 0) in bone space
    shape = {"type": "shape", "shape": "rect", "x": 5, "y": 0, "width": 40, "height": 20, "radius": 0}
    d = ldoc([], attachments={"sh": shape}, current="sh")
    assert hit(d, 124, 9) and not hit(d, 126, 0) and not hit(d, 84, 0)


def test_mesh_hull_only():
    # the first 4 vertices (hull) form the ±10 square; the 5th (50, 0) is not part of the
    # hit polygon.  Local (20, 2) is inside the 5-point polygon (edge (−10,10)→(50,0)
    # crosses y = 2 at x = 38 > 20: one crossing) but outside the hull.
    mesh = {"type": "mesh", "vertices": [-10, -10, 10, -10, 10, 10, -10, 10, 50, 0],
            "uvs": [0, 0, 1, 0, 1, 1, 0, 1, 1, 0.5], "triangles": [0, 1, 2, 0, 2, 3], "hull": 4}
    d = ldoc([], attachments={"m": mesh}, current="m")
    assert hit(d, 109, 9) and not hit(d, 120, 2)
    mesh5 = dict(mesh, hull=5)
    assert hit(ldoc([], attachments={"m": mesh5}, current="m"), 120, 2)


def test_no_attachment_never_hits():
    d = ldoc([], attachments={"pic": {"type": "point"}}, current=None)
    assert not hit(d, 100, 0)


# ---- actions -----------------------------------------------------------------------

AUDIO = {"assets": [{"id": "a1", "name": "beep", "duration": 2}],
         "buses": [{"id": "bus_sfx", "name": "sfx", "volume": 1, "muted": False},
                   {"id": "bus_music", "name": "music", "volume": 1, "muted": True}],
         "sounds": [{"id": "snd", "name": "beep", "asset": "a1", "bus": "bus_sfx", "volume": 0.5, "fadeOut": 0.2,
                     "loop": True}]}


def test_set_input_by_id_or_name_toggle_and_fire():
    inputs = [("in_n", "number", 0, "n"), ("in_flag", "bool", False, "flag"), ("in_go", "trigger", None, "go")]
    acts = [{"type": "setInput", "input": "in_n", "value": "4"},      # by id, Number("4")
            {"type": "setInput", "input": "n", "value": 5},           # by name (later wins)
            {"type": "toggleInput", "input": "flag"},
            {"type": "fireTrigger", "input": "in_go"}]
    lay = layer([state("A"), state("B")], [trans("A", "B", [cond("in_go")])])
    i = inst(ldoc([listener("down", actions=acts)], inputs=inputs, layers=[lay]))
    step(i, ("down", 100, 0))
    assert i.inputs == {"n": 5.0, "flag": True, "go": False}
    assert i.active_states == ["B"]  # the listener ran at step 3, before settle
    step(i, ("down", 100, 0))
    assert i.inputs["flag"] is False  # toggled back


def test_report_event_payload_and_audio():
    ev = [{"id": "e1", "name": "boom", "int": 4, "float": 0.5, "string": "x", "audio": "beep", "volume": 0.5}]
    d = doc(layers=[layer([state("A")])], bones=BONES, slots=[{"id": "s", "name": "s", "bone": "b",
                                                                 "attachment": "box"}],
            skins=[{"id": "default", "name": "default", "attachments": {"s": {"box": SQUARE}}}],
            listeners=[listener("down", actions=[{"type": "reportEvent", "event": "e1"}])], events=ev, audio=AUDIO)
    i = inst(d)
    i.pointer("down", 100, 0)
    i.advance(0.5)
    assert [(e["name"], e["id"], e["time"], e["int"], e["float"], e["string"]) for e in i.events] == \
        [("boom", "e1", 0.5, 4, 0.5, "x")]
    # the event's audio, unowned: volume 0.5 (sound) × 0.5 (event), loop from the sound
    assert i.audio_commands == [{"type": "play", "id": "play_1", "sound": "snd", "asset": "a1", "bus": "bus_sfx",
                                 "volume": 0.25, "rate": 1.0, "loop": True, "fadeIn": 0.0, "source": "event:boom"}]


def test_play_stop_sound_and_mute_toggle():
    acts_down = [{"type": "playSound", "sound": "beep", "volume": 2}]
    acts_up = [{"type": "stopSound", "sound": "snd"}, {"type": "setMute", "bus": "bus_music", "muted": "toggle"},
               {"type": "setMute", "bus": None, "muted": "toggle"}]
    acts_move = [{"type": "stopSound", "sound": "snd", "fade": 1.5},
                 {"type": "setMute", "bus": "bus_sfx", "muted": True}]
    d = ldoc([listener("down", actions=acts_down, id="press"), listener("up", actions=acts_up, id="release"),
              listener("move", actions=acts_move, id="hover")], audio=AUDIO)
    i = inst(d)
    step(i, ("down", 100, 0))
    assert i.audio_commands == [{"type": "play", "id": "play_1", "sound": "snd", "asset": "a1", "bus": "bus_sfx",
                                 "volume": 1.0, "rate": 1.0, "loop": True, "fadeIn": 0.0, "source": "listener:press"}]
    step(i, ("up", 100, 0))
    # stop with the sound's fadeOut 0.2; music starts muted (document) ⇒ toggle to False;
    # the master starts unmuted ⇒ True
    assert i.audio_commands == [{"type": "stop", "id": "play_1", "fade": 0.2},
                                {"type": "mix", "bus": "bus_music", "muted": False},
                                {"type": "mix", "bus": None, "muted": True}]
    step(i, ("down", 100, 0), ("move", 100, 0), ("up", 100, 0))
    assert i.audio_commands == [
        {"type": "play", "id": "play_2", "sound": "snd", "asset": "a1", "bus": "bus_sfx", "volume": 1.0,
         "rate": 1.0, "loop": True, "fadeIn": 0.0, "source": "listener:press"},
        {"type": "stop", "id": "play_2", "fade": 1.5},
        {"type": "mix", "bus": "bus_sfx", "muted": True},
        {"type": "mix", "bus": "bus_music", "muted": True},
        {"type": "mix", "bus": None, "muted": False}]
    assert i.conformance_audio()[0]["id"] == "p1"


def test_pointer_type_validation():
    i = inst(ldoc([]))
    with pytest.raises(Exception):
        i.pointer("tap", 0, 0)


# ---- emitters (§9.2 state emitters, §9.5 setEmitter / emitParticles) ---------------

def emitter_doc():
    particles = {"type": "particles", "emitting": True, "rate": 0, "bursts": [], "lifetime": [5, 5]}
    skins = [{"id": "default", "name": "default", "attachments": {"s": {"box": SQUARE}, "fx": {"p": particles}}}]
    slots_extra = [{"id": "fx", "name": "fx", "bone": "root", "attachment": "p"}]
    acts = [{"type": "setEmitter", "slot": "fx", "emitting": True},
            {"type": "emitParticles", "slot": "fx", "count": 3}]
    lay = layer([state("A", emitters=[{"slot": "fx", "emitting": False}])])
    d = doc(layers=[lay], bones=BONES,
            slots=[{"id": "s", "name": "s", "bone": "b", "attachment": "box"}] + slots_extra, skins=skins,
            listeners=[listener("down", actions=acts)], events=EVENTS)
    return d


def test_state_emitters_and_listener_emitter_actions():
    i = inst(emitter_doc())
    i.advance(1 / 60)
    # entering A switched the emitter off (override applied at step 10)
    assert i.particle_live("fx")["emitting"] is False
    assert len(i.particle_state("fx")["ages"]) == 0
    i.pointer("down", 100, 0)
    i.advance(1 / 60)
    assert i.particle_live("fx")["emitting"] is True
    # rate 0, no bursts: only the 3 emitParticles particles, spawned at this frame's step
    assert len(i.particle_state("fx")["ages"]) == 3


def test_weighted_box_text_and_sequence_polygons():
    # a weighted box: every vertex fully on bone b2 at (200, 0) ⇒ the ±10 square around it
    bones = BONES + [{"id": "b2", "name": "b2", "parent": "root", "x": 200}]
    wbox = {"type": "boundingBox", "vertices": [0] * 8,
            "weights": [[{"bone": "b2", "x": x, "y": y, "weight": 1}] for x, y in
                        ((-10, -10), (10, -10), (10, 10), (-10, 10))]}
    d = doc(layers=[layer([state("A")])], bones=bones, slots=[{"id": "s", "name": "s", "bone": "b", "attachment": "w"}],
            skins=[{"id": "default", "name": "default", "attachments": {"s": {"w": wbox}}}])
    i = inst(d)
    assert i.hit_test("s", 205, 5) and not i.hit_test("s", 105, 5)
    # text: the unscaled box (width 40, height 10; scale and skew ignored), offset (0, 20)
    text = {"type": "text", "text": "hi", "x": 0, "y": 20, "width": 40, "height": 10, "scaleX": 3, "skewX": 45}
    d = ldoc([], attachments={"t": text}, current="t")
    assert hit(d, 119, 24) and not hit(d, 121, 20) and not hit(d, 100, 26)
    # sequence: a region-like quad (width 10 × scale 2 ⇒ ±10, height 4 ⇒ ±2)
    seq = {"type": "sequence", "frames": [], "width": 10, "height": 4, "scaleX": 2}
    d = ldoc([], attachments={"q": seq}, current="q")
    assert hit(d, 109, 1) and not hit(d, 111, 0) and not hit(d, 100, 3)
