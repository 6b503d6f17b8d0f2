"""§10 AudioDirector through the AnimationState: play/stop commands, resolveSound,
looping (owner, tag) de-duplication, end-time bookkeeping, stop fades, reporting of
commands emitted between advances, and conformance_audio renumbering."""
import json

import pytest

import openbone
from conftest import make_doc

SKELETON = {"bones": [{"id": "root", "name": "root"}], "slots": [],
            "skins": [{"id": "skin_default", "name": "default", "attachments": {}}]}
AUDIO = {"master": 1, "muted": False,
         "assets": [{"id": "as_a", "name": "a.ogg", "src": "a.ogg", "duration": 0.6},
                    {"id": "as_b", "name": "b.ogg", "src": "b.ogg", "duration": 0}],
         "buses": [{"id": "bus_m", "name": "music", "volume": 1, "muted": False},
                   {"id": "bus_x", "name": "sfx", "volume": 1, "muted": False}],
         "sounds": [{"id": "s_loop", "name": "hum", "asset": "as_a", "bus": "bus_m", "volume": 0.5, "rate": 2,
                     "loop": True, "fadeIn": 0.25, "fadeOut": 0.4},
                    {"id": "s_one", "name": "click", "asset": "as_a", "bus": None, "volume": 0.8, "rate": 1.5,
                     "loop": False, "fadeIn": 0, "fadeOut": 0.1},
                    {"id": "s_name", "name": "s_one", "asset": "as_b", "bus": None, "volume": 1, "rate": 1,
                     "loop": False, "fadeIn": 0, "fadeOut": 0}]}
EVENTS = [{"id": "ev", "name": "boom", "int": 0, "float": 0, "string": "", "audio": "click", "volume": 0.5}]


def make(anims, **kw):
    d = make_doc(SKELETON, events=EVENTS, animations=anims, audio=AUDIO, **kw)
    return openbone.Instance(openbone.loads(json.dumps(d)))


def anim(id, duration=1, audio=(), events=()):
    return {"id": id, "name": id + "_name", "duration": duration, "timelines": [], "audio": list(audio),
            "events": list(events)}


def play(**kw):
    base = {"type": "play", "bus": None, "fadeIn": 0, "loop": False}
    base.update(kw)
    return base


def strip(cmds):
    return [{k: v for k, v in c.items() if k != "id"} for c in cmds]


# ---- play -----------------------------------------------------------------------------------

def test_audio_key_play_fields():
    inst = make([anim("a", audio=[{"time": 0.1, "sound": "s_loop", "volume": 0.5}])])
    inst.set_animation(0, "a_name")
    inst.advance(0.2)
    (c,) = inst.audio_commands
    # volume = sound.volume × key volume = .25; rate = sound.rate; loop = sound.loop; fadeIn = sound.fadeIn
    assert strip([c]) == [play(sound="s_loop", asset="as_a", bus="bus_m", volume=0.25, rate=2, loop=True,
                               fadeIn=0.25, source="key:a_name")]
    assert c["id"].startswith("play_")


def test_key_options_override_rate_and_loop():
    inst = make([anim("a", audio=[{"time": 0, "sound": "s_loop", "rate": 0.5, "loop": False}])])
    inst.set_animation(0, "a_name")
    inst.advance(0.1)
    (c,) = inst.audio_commands
    assert (c["rate"], c["loop"], c["volume"]) == (0.5, False, 0.5)


def test_resolve_sound_id_then_name_then_asset():
    keys = [{"time": 0, "sound": "s_one"},     # sound id s_one (not the sound *named* s_one)
            {"time": 0, "sound": "hum"},       # by name
            {"time": 0, "sound": "as_b"},      # asset id ⇒ played directly on the "sfx" bus
            {"time": 0, "sound": "a.ogg"},     # asset name
            {"time": 0, "sound": "nothing"}]   # unknown ⇒ nothing
    inst = make([anim("a", audio=keys)])
    inst.set_animation(0, "a_name")
    inst.advance(0.1)
    got = [(c["sound"], c["asset"], c["bus"], c["volume"], c["rate"], c["loop"]) for c in inst.audio_commands]
    assert got == [("s_one", "as_a", None, 0.8, 1.5, False), ("s_loop", "as_a", "bus_m", 0.5, 2, True),
                   ("as_b", "as_b", "bus_x", 1, 1, False), ("as_a", "as_a", "bus_x", 1, 1, False)]


def test_event_audio_source_and_volume():
    inst = make([anim("a", events=[{"time": 0.2, "event": "ev"}])])
    inst.set_animation(0, "a_name")
    inst.advance(0.3)
    assert strip(inst.audio_commands) == [play(sound="s_one", asset="as_a", volume=0.4, rate=1.5,
                                               source="event:boom")]
    assert [e["name"] for e in inst.events] == ["boom"]


def test_looping_key_is_deduplicated_per_owner_and_tag():
    inst = make([anim("a", duration=0.5, audio=[{"time": 0, "sound": "s_loop"}])])
    inst.set_animation(0, "a_name", loop=True)
    inst.advance(0.1)
    assert len(inst.audio_commands) == 1
    inst.advance(0.5)  # the key at 0 of cycle 1 is crossed: same (owner, tag) still looping ⇒ skipped
    assert inst.audio_commands == []
    # a new entry is a new owner: the old entry's loop stops (fade max(mix .2, fadeOut .4)), the new plays
    inst.set_animation(0, "a_name", loop=True, mix=0.2)
    inst.advance(0.1)
    cmds = inst.audio_commands
    assert [c["type"] for c in cmds] == ["stop", "play"]
    assert cmds[0]["fade"] == 0.4
    assert cmds[1]["id"] != cmds[0]["id"]


def test_stop_fade_is_max_of_mix_and_fade_out():
    inst = make([anim("a", audio=[{"time": 0, "sound": "s_loop"}]), anim("b")])
    inst.set_animation(0, "a_name")
    inst.advance(0.1)
    pid = inst.audio_commands[0]["id"]
    inst.set_animation(0, "b_name", mix=0.9)
    inst.advance(0.1)
    assert inst.audio_commands == [{"type": "stop", "id": pid, "fade": 0.9}]


def test_commands_between_advances_come_first_in_the_next_report():
    inst = make([anim("a", audio=[{"time": 0, "sound": "s_loop"}]), anim("b", audio=[{"time": 0, "sound": "click"}])])
    inst.set_animation(0, "a_name")
    inst.advance(0.1)
    first = inst.audio_commands
    inst.set_animation(0, "b_name", mix=0)  # emits stop now, outside an advance
    assert inst.audio_commands == first    # the last advance's report is unchanged
    inst.advance(0.1)
    assert [c["type"] for c in inst.audio_commands] == ["stop", "play"]
    assert inst.audio_commands[0]["fade"] == 0.4


def test_end_time_bookkeeping_forgets_finished_sounds():
    inst = make([anim("a", duration=5, audio=[{"time": 0, "sound": "click"}, {"time": 0, "sound": "s_name"},
                                              {"time": 0, "sound": "hum"}])])
    inst.set_animation(0, "a_name")
    inst.advance(0.1)
    # click: duration .6 / rate 1.5 = .4 ⇒ end .5 (now was .1: update runs before the keys)
    # s_name: asset duration 0 ⇒ 10 s ⇒ end 10.1; hum loops ⇒ never
    ends = sorted(e for _, _, e in inst._audio_playing())
    assert ends[0] == pytest.approx(0.5) and ends[1] == pytest.approx(10.1) and ends[2] == float("inf")
    inst.advance(0.39)
    assert len(inst._audio_playing()) == 3
    inst.advance(0.01)  # now .5 ≥ end ⇒ forgotten, no command
    assert len(inst._audio_playing()) == 2 and inst.audio_commands == []


def test_direct_calls_stop_stop_sound_stop_all():
    inst = make([anim("a")])
    p1 = inst._audio_play("hum")
    p2 = inst._audio_play("click", 0.5, 3, True)
    p3 = inst._audio_play("click")
    assert inst._audio_play("nothing") is None
    inst._audio_stop(p1)              # fade ?? fadeOut .4
    inst._audio_stop_sound("click")   # every click instance, its fadeOut .1
    inst.advance(0.1)
    cmds = inst.audio_commands
    assert [c["type"] for c in cmds] == ["play"] * 3 + ["stop"] * 3
    assert cmds[1]["volume"] == 0.4 and cmds[1]["rate"] == 3 and cmds[1]["loop"] is True
    assert [(c["id"], c["fade"]) for c in cmds[3:]] == [(p1, 0.4), (p2, 0.1), (p3, 0.1)]
    p4 = inst._audio_play("hum")
    inst._audio_stop(p4, 2)
    p5 = inst._audio_play("hum")
    inst._audio_stop_all()            # fade 0
    inst.advance(0.1)
    assert [(c["type"], c.get("fade")) for c in inst.audio_commands] == \
        [("play", None), ("stop", 2), ("play", None), ("stop", 0)]
    assert inst.audio_commands[3]["id"] == p5


def test_conformance_audio_renumbers_in_order_of_first_appearance():
    inst = make([anim("a", audio=[{"time": 0, "sound": "hum"}, {"time": 0.2, "sound": "click"}]), anim("b")])
    inst.set_animation(0, "a_name")
    inst.advance(0.1)
    assert [(c["type"], c["id"]) for c in inst.conformance_audio()] == [("play", "p1")]
    inst.advance(0.2)
    assert [(c["type"], c["id"]) for c in inst.conformance_audio()] == [("play", "p2")]
    inst.set_animation(0, "b_name")
    inst.advance(0.1)
    assert inst.conformance_audio() == [{"type": "stop", "id": "p1", "fade": 0.4}]
