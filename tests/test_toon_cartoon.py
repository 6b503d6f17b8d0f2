"""§7 scenes and cartoons: the director, placement, say, does, captions, cuts, pins, held
scripts, stopAll, the plan on a twin runtime, frames, the §6 failure rules.  Every expected
value is worked out here from the text (§7.2's units and off-stage positions, §7.4's default
line length, the smooth ease u²(3 − 2u))."""
import math

import pytest

from openbone import toon
from toon_util import prog, smooth

ASPECT = 16 / 9


def cartoon(*scenes, cast=None, places=None, params=None):
    """scenes: (name, hat extras, [body, body, ...]) — one script per body."""
    scripts = []
    for name, hat, bodies in scenes:
        for body in bodies:
            scripts.append({"hat": dict({"on": "scene", "name": name}, **hat), "body": body})
    c = {"v": 1, "kind": "cartoon", "cast": cast if cast is not None else {"A": "a", "B": "b"}, "scripts": scripts}
    if places is not None:
        c["places"] = places
    if params is not None:
        c["params"] = params
    return c


def started(c, **kw):
    rt = toon.create_runtime(**{k: v for k, v in kw.items() if k in ("speech", "packs", "max_duration", "fps", "seed")})
    res = rt.start_cartoon(c, params=kw.get("params"))
    return rt, res


def speech_len(text, speed=1):
    return max(0.06 * len(text) + 0.25, 0.6) / speed


def kinds(timeline):
    return [r["kind"] for r in timeline]


# --- the timeline and the scene order ---------------------------------------------------------------

def test_two_scenes_timeline_and_duration():
    c = cartoon(("one", {}, [[{"op": "say", "who": "A", "text": "Hello"}, {"op": "caption", "text": "c1", "for": 1},
                              {"op": "wait", "for": 1}]]),
                ("two", {}, [[{"op": "enter", "who": "A", "from": "left", "over": 1},
                              {"op": "say", "who": "B", "text": "Good morning, Grump!", "mood": "happy"}]]))
    rt, res = started(c)
    hello = speech_len("Hello")  # 5 units: 0.55, at least 0.6
    grump = speech_len("Good morning, Grump!")  # 20 units: 1.45
    assert hello == 0.6 and grump == pytest.approx(1.45)
    end1 = hello + 1
    t2 = end1 + 1
    assert res["duration"] == t2 + grump == rt.duration
    tl = res["timeline"]
    assert kinds(tl) == ["scene", "say", "caption", "scene", "enter", "say"]
    assert tl[0] == {"t": 0.0, "dur": end1, "kind": "scene", "name": "one", "place": None, "grade": "normal"}
    assert tl[1] == {"t": 0.0, "dur": hello, "kind": "say", "who": "A", "text": "Hello", "voice": None, "mood": None}
    assert tl[2] == {"t": hello, "dur": 1.0, "kind": "caption", "text": "c1"}
    assert tl[4] == {"t": end1, "dur": 1.0, "kind": "enter", "who": "A", "from": "left"}
    assert tl[5]["t"] == t2 and tl[5]["dur"] == grump and tl[5]["mood"] == "happy"
    assert rt.timeline == tl and rt.warnings == []


def test_scripts_of_one_scene_run_in_parallel_scenes_in_first_appearance_order():
    c = {"v": 1, "kind": "cartoon", "cast": {"A": "a"}, "scripts": [
        {"hat": {"on": "scene", "name": "b"}, "body": [{"op": "wait", "for": 1}]},
        {"hat": {"on": "scene", "name": "a"}, "body": [{"op": "wait", "for": 2}]},
        {"hat": {"on": "scene", "name": "b"}, "body": [{"op": "wait", "for": 0.5}, {"op": "caption", "text": "x"}]}]}
    rt, res = started(c)
    scenes = [(r["name"], r["t"], r["dur"]) for r in res["timeline"] if r["kind"] == "scene"]
    assert scenes == [("b", 0.0, 1.0), ("a", 1.0, 2.0)]
    assert toon.scenes_of(c) == [{"name": "b", "place": None, "mood": None, "at": None, "scripts": [0, 2]},
                                 {"name": "a", "place": None, "mood": None, "at": None, "scripts": [1]}]


# --- §7.2 placement ---------------------------------------------------------------------------------

def off_left(h=0.5):
    return -(0.02 + h / ASPECT)


def off_right(h=0.5):
    return 1 + 0.02 + h / ASPECT


def test_default_placement_and_visibility():
    rt = toon.create_runtime()
    rt.add_character("page")  # added by the page first: drawn first, spread after the cast
    c = cartoon(("s", {}, [[{"op": "wait", "for": 1}]]), cast={"B": "b", "A": {"at": {"x": 0.25, "h": 0.4}}})
    rt.start_cartoon(c)
    f = rt.frame()
    assert f["order"] == ["page", "B", "A"]
    ch = f["characters"]
    # cast first (B, A), then the page's: x = (i+1)/(n+1) with n = 3
    assert ch["B"]["x"] == 1 / 4 and ch["page"]["x"] == 3 / 4 and (ch["B"]["y"], ch["B"]["h"], ch["B"]["facing"]) == (0.92, 0.5, 1)
    assert ch["A"]["x"] == 0.25 and ch["A"]["h"] == 0.4 and ch["A"]["y"] == 0.92
    assert ch["A"]["visible"] and not ch["B"]["visible"] and not ch["page"]["visible"]
    rt2 = toon.create_runtime()
    rt2.add_character("x")
    rt2.add_character("y")
    f = rt2.frame()  # without a cartoon every character is visible at its default placement
    assert [f["characters"][k]["x"] for k in "xy"] == [1 / 3, 2 / 3] and f["characters"]["x"]["visible"]
    assert f["scene"] is None and f["grade"] == "normal" and f["caption"] is None


def test_enter_exit_glides_and_the_spot_memory():
    body = [{"op": "enter", "who": "A", "from": "left", "over": 1},   # 0..1: to its spot, 1/3
            {"op": "exit", "who": "A", "to": "right", "over": 2},     # 1..3
            {"op": "wait", "for": 0.5},
            {"op": "enter", "who": "A", "from": "left", "over": 1},   # 3.5..4.5: back where it stood
            {"op": "exit", "who": "A", "to": "bottom"},               # 4.5: at once
            {"op": "enter", "who": "A", "from": "right", "over": 1},  # 4.5..5.5: feet back on the ground
            {"op": "wait", "for": 1}]
    rt, res = started(cartoon(("s", {}, [body])))
    home = 1 / 3
    for T, x in [(0.5, off_left() + (home - off_left()) * smooth(0.5)), (1, home),
                 (2, home + (off_right() - home) * smooth(0.5))]:
        rt.step_to(T)
        a = rt.frame()["characters"]["A"]
        assert a["x"] == pytest.approx(x, abs=1e-12) and a["visible"], T
    rt.step_to(3.25)
    a = rt.frame()["characters"]["A"]
    assert not a["visible"] and a["x"] == off_right()  # the exit landed
    rt.step_to(4)
    a = rt.frame()["characters"]["A"]
    assert a["visible"] and a["x"] == pytest.approx(off_left() + (home - off_left()) * smooth(0.5))
    rt.step_to(5)
    a = rt.frame()["characters"]["A"]
    assert a["y"] == 0.92 and a["x"] == pytest.approx(off_right() + (home - off_right()) * smooth(0.5))
    rt.step_to(6.5)
    a = rt.frame()["characters"]["A"]
    assert (a["x"], a["y"], a["visible"]) == (home, 0.92, True)
    assert [r["kind"] for r in res["timeline"]][1:] == ["enter", "exit", "enter", "exit", "enter"]


def test_cut_off_glides_freeze_and_a_taken_over_exit_does_not_hide():
    body = [{"op": "place", "who": "A", "x": 0.5}, {"op": "for", "for": 0.5, "body": [
        {"op": "exit", "who": "A", "to": "left", "over": 1, "ease": "linear"}]}, {"op": "wait", "for": 1}]
    rt, res = started(cartoon(("s", {}, [body])))
    rt.step_to(1)
    a = rt.frame()["characters"]["A"]
    assert a["visible"] and a["x"] == pytest.approx(0.5 + (off_left() - 0.5) * 0.5)
    assert res["timeline"][2]["kind"] == "exit" and res["timeline"][2]["dur"] == 0.5  # what ran
    c = cartoon(("s", {}, [[{"op": "exit", "who": "A", "to": "left", "over": 1}],
                           [{"op": "wait", "for": 0.5}, {"op": "place", "who": "A", "x": 0.7}, {"op": "wait", "for": 1}]]))
    rt, _ = started(c)
    rt.step_to(1.2)
    a = rt.frame()["characters"]["A"]
    assert a["visible"] and a["x"] == 0.7


def test_place_values_and_record():
    rt, res = started(cartoon(("s", {}, [[{"op": "place", "who": "B", "x": 0.3, "facing": -1, "h": "=0.25*2",
                                          "over": 1, "ease": "linear"}]])))
    assert res["timeline"][1] == {"t": 0.0, "dur": 1.0, "kind": "place", "who": "B", "x": 0.3, "h": 0.5,
                                  "facing": -1.0}
    rt.step_to(0.5)
    b = rt.frame()["characters"]["B"]
    assert b["x"] == pytest.approx(2 / 3 + (0.3 - 2 / 3) * 0.5) and b["facing"] == pytest.approx(0) and b["visible"]


# --- §7.4 say --------------------------------------------------------------------------------------------

def test_say_talking_hats_moods_and_overlaps():
    beh = prog([{"op": "set", "ch": "dx", "to": 1}], [{"op": "changeVar", "var": "ends"}, {"op": "set", "ch": "dy",
                                                                                              "to": "=ends"}],
               hats=[{"on": "talk-start"}, {"on": "talk-end"}], vars={"ends": 0})
    c = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": beh}, {"op": "say", "who": "A", "text": "x" * 20,
                                                                           "mood": "glad"}, {"op": "wait", "for": 1}],
                           [{"op": "wait", "for": 0.5}, {"op": "say", "who": "A", "text": "y"}]]))
    rt, res = started(c)
    line1 = speech_len("x" * 20)  # 1.45: overlaps the second line, 0.5 .. 1.1
    rt.step_to(0.3)
    f = rt.frame()
    assert f["characters"]["A"]["talking"] == 1 and f["characters"]["A"]["pose"]["dx"] == 1
    assert f["characters"]["A"]["pose"]["mood"] == "glad" and f["caption"] == "x" * 20
    rt.step_to(0.7)
    assert rt.frame()["caption"] == "y"  # the latest-started line is the caption
    rt.step_to(1.2)
    assert rt.frame()["caption"] == "x" * 20 and rt.frame()["characters"]["A"]["pose"]["dy"] == 0
    rt.step_to(line1)
    f = rt.frame()
    assert f["characters"]["A"]["talking"] == 0 and f["characters"]["A"]["pose"]["dy"] == 1  # one talk-end


def test_speech_provider_options_once_per_line_and_fallbacks():
    asked = []

    def speech(text, opts):
        asked.append((text, dict(opts)))
        return {"one": 1.25, "two": -1, "three": "soon"}.get(text, 2.0)

    c = cartoon(("s", {}, [[{"op": "say", "who": "A", "text": "one"}, {"op": "say", "who": "A", "text": "one"},
                            {"op": "say", "who": "B", "text": "two", "voice": "deep", "speed": 2},
                            {"op": "say", "who": "A", "text": "three", "mood": "sad", "pitch": 1.5}]]),
                cast={"A": {"voice": "bright"}, "B": "b"})
    rt, res = started(c, speech=speech)
    says = [r for r in res["timeline"] if r["kind"] == "say"]
    assert [r["dur"] for r in says] == [1.25, 1.25, speech_len("two", 2), speech_len("three")]
    assert asked == [("one", {"who": "A", "voice": "bright"}),
                     ("two", {"who": "B", "voice": "deep", "speed": 2.0}),
                     ("three", {"who": "A", "voice": "bright", "mood": "sad", "pitch": 1.5})]
    assert says[2]["voice"] == "deep" and says[2]["speed"] == 2 and says[3]["pitch"] == 1.5
    assert len(rt.warnings) == 2 and all("speech" in w for w in rt.warnings)
    rt2, res2 = started(c, speech=lambda t, o: 1 / 0)
    assert len(rt2.warnings) == 3 and [r["dur"] for r in res2["timeline"] if r["kind"] == "say"][0] == speech_len("one")
    assert toon.estimate_speech("one") == 0.6 and toon.estimate_speech("x" * 20, speed=2) == pytest.approx(0.725)
    assert toon.estimate_speech("\U0001F600" * 10) == pytest.approx(0.06 * 20 + 0.25)  # UTF-16 code units


def test_scene_mood_beats_a_behaviours_at_equal_times():
    beh = prog([{"op": "set", "ch": "mood", "to": "cross"}, {"op": "wait", "for": 1},
                {"op": "set", "ch": "mood", "to": "sleepy"}])
    c = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": beh}, {"op": "mood", "who": "A", "mood": "glad"},
                            {"op": "wait", "for": 2}]]))
    rt, res = started(c)
    assert rt.frame()["characters"]["A"]["pose"]["mood"] == "glad"
    rt.step_to(1.5)
    assert rt.frame()["characters"]["A"]["pose"]["mood"] == "sleepy"
    assert res["timeline"][2] == {"t": 0.0, "dur": 0.0, "kind": "mood", "who": "A", "mood": "glad"}


# --- §7.5 does -----------------------------------------------------------------------------------------------

BOB = prog([{"op": "bob", "amp": "=h"}, {"op": "set", "ch": "dx", "to": "=dur"}], params={"h": 10})


def test_does_dur_params_replacement_and_also():
    c = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": BOB, "params": {"h": "=tau + 4"}},
                            {"op": "wait", "for": 1},
                            {"op": "for", "for": 2, "body": [{"op": "does", "who": "A", "behaviour": BOB}]},
                            {"op": "does", "who": "B", "behaviour": BOB, "for": 0.5},
                            {"op": "does", "who": "B", "behaviour": prog([{"op": "sway"}]), "also": True},
                            {"op": "wait", "for": 1}]]))
    rt, res = started(c)
    rt.step_to(0.25)
    a = rt.frame()["characters"]["A"]["pose"]
    assert a["dy"] == pytest.approx(-4 * abs(math.sin(2 * math.pi * 0.25))) and a["dx"] == 4  # dur: the scene's end (4)
    rt.step_to(1.25)
    a = rt.frame()["characters"]["A"]["pose"]
    assert a["dx"] == 2 and a["dy"] == pytest.approx(-10)  # replaced; dur: its for's end
    rt.step_to(3.25)
    f = rt.frame()["characters"]
    assert f["A"]["pose"]["dx"] == 0 and f["B"]["pose"]["dx"] == 0.5  # A's ended with its for; B for 0.5
    assert f["B"]["pose"]["rot"] == pytest.approx(5 * math.sin(2 * math.pi * 0.25))
    rt.step_to(3.6)
    assert rt.frame()["characters"]["B"]["pose"]["dx"] == 0 and rt.frame()["characters"]["B"]["pose"]["rot"] != 0
    does = [r for r in res["timeline"] if r["kind"] == "does"]
    assert [(r["who"], r["t"], r["dur"]) for r in does] == [("A", 0.0, 1.0), ("A", 1.0, 2.0), ("B", 3.0, 0.5),
                                                            ("B", 3.0, 1.0)]
    assert does[3]["also"] is True and "also" not in does[0]
    rt.step_to(10)
    assert rt.frame()["characters"]["B"]["pose"]["rot"] == 0  # the scene ended: its behaviours stopped


def test_does_packs_fallback_and_undeclared_params():
    packs = {"c4c:beh:bounce": BOB, "c4c:beh:idle": {"id": "c4c:beh:idle", "content": prog([{"op": "sway"}])},
             "c4c:beh:junk": [1, 2], "c4c:beh:boom": "raise"}

    def provider(pid, version):
        got = packs.get(pid)
        if got == "raise":
            raise KeyError(pid)
        return got
    c = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": {"id": "c4c:beh:bounce", "version": "1.0.0"},
                             "params": {"h": 3, "extra": 1}},
                            {"op": "does", "who": "B", "behaviour": "c4c:beh:nope"},
                            {"op": "wait", "for": 0.25}, {"op": "does", "who": "B", "behaviour": "c4c:beh:junk"},
                            {"op": "does", "who": "B", "behaviour": "c4c:beh:boom", "also": True},
                            {"op": "wait", "for": 1}]]))
    rt, res = started(c, packs=provider)
    rt.step_to(0.125)
    f = rt.frame()["characters"]
    assert f["B"]["pose"]["rot"] == pytest.approx(5 * math.sin(2 * math.pi * 0.125))  # idle instead of nope
    rt.step_to(0.25)
    assert rt.frame()["characters"]["A"]["pose"]["dy"] == pytest.approx(-3)
    rt.step_to(0.5)  # junk replaced it with idle, boom added another idle (also): two sways from 0.25
    assert rt.frame()["characters"]["B"]["pose"]["rot"] == pytest.approx(10)
    assert len(rt.warnings) == 4  # the undeclared param, nope, junk, boom
    assert res["timeline"][1]["behaviour"] == {"id": "c4c:beh:bounce", "version": "1.0.0"}
    rt2, _ = started(c)  # no provider: nothing runs, every does warned about
    assert len(rt2.warnings) == 4 and rt2.frame()["characters"]["B"]["pose"]["rot"] == 0


# --- §7.6 captions, cuts ----------------------------------------------------------------------------------------

def test_captions_show_the_latest_started_and_return():
    body = [{"op": "caption", "text": "long", "for": 3}, {"op": "wait", "for": 0.5},
            {"op": "caption", "text": "short", "for": 0.5}, {"op": "wait", "for": 1},
            {"op": "caption", "text": "hides", "for": 1}, {"op": "wait", "for": 2}]
    rt, res = started(cartoon(("s", {}, [body])))
    seen = []
    for T in (0.25, 0.75, 1.25, 1.75, 2.75, 3.25):
        rt.step_to(T)
        seen.append(rt.frame()["caption"])
    # "short" ends first, "long" returns; "hides" (ending at 2.5, before "long" at 3) lets "long" come back
    assert seen == ["long", "short", "long", "hides", "long", None]
    body = [{"op": "caption", "text": "old", "for": 1}, {"op": "caption", "text": "new"}, {"op": "wait", "for": 2}]
    rt, res = started(cartoon(("s", {}, [body])))
    rt.step_to(0.5)
    assert rt.frame()["caption"] == "new"
    caps = [r for r in res["timeline"] if r["kind"] == "caption"]
    assert caps[1]["dur"] == 2.0  # without for: until its scope (the scene) ends


def test_cuts_places_and_grades():
    places = {"park": {"background": "park.png", "grade": "warm"}, "street": "street.png", "void": {}}
    c = cartoon(("s", {"place": "park"}, [[{"op": "wait", "for": 1}, {"op": "cut", "place": "street"},
                                           {"op": "wait", "for": 1}, {"op": "cut", "mood": "noir"},
                                           {"op": "wait", "for": 1}]]),
                ("t", {"place": "void", "mood": "bright"}, [[{"op": "wait", "for": 1}, {"op": "cut", "place": "else"}]]),
                places=places)
    rt, res = started(c)
    frames = []
    for T in (0.5, 1.5, 2.5, 3.5, 4.0):
        rt.step_to(T)
        f = rt.frame()
        frames.append((f["scene"], f["place"], f["background"], f["grade"]))
    assert frames == [("s", "park", "park.png", "warm"), ("s", "street", "street.png", "normal"),
                      ("s", "street", "street.png", "noir"), ("t", "void", "void", "bright"),
                      (None, "else", "else", "normal")]
    cuts = [(r["t"], r["dur"], r["place"], r["grade"]) for r in res["timeline"] if r["kind"] == "cut"]
    assert cuts == [(1.0, 1.0, "street", "normal"), (2.0, 1.0, "street", "noir"), (4.0, 0.0, "else", "normal")]
    scenes = [(r["name"], r["place"], r["grade"]) for r in res["timeline"] if r["kind"] == "scene"]
    assert scenes == [("s", "park", "warm"), ("t", "void", "bright")]


# --- §7.6 pins, held scripts, stopAll, loss reports ---------------------------------------------------------------

def test_a_pin_cuts_the_scene_and_holds_its_stage():
    c = cartoon(("a", {}, [[{"op": "say", "who": "A", "text": "x" * 40}, {"op": "caption", "text": "never"}]]),
                ("b", {"at": 1}, [[{"op": "wait", "for": 0.5}]]),
                ("c", {"at": 3}, [[{"op": "wait", "for": 0.5}]]))
    rt, res = started(c)
    scenes = [(r["name"], r["t"], r["dur"]) for r in res["timeline"] if r["kind"] == "scene"]
    assert scenes == [("a", 0.0, 1.0), ("b", 1.0, 2.0), ("c", 3.0, 0.5)]
    assert res["timeline"][1]["dur"] == 1.0  # what was spoken
    assert len(rt.warnings) == 1 and "1 of 2.65 s" in rt.warnings[0]
    rt.step_to(2)
    assert rt.frame()["scene"] == "b"  # b holds its stage until c's pin


def test_a_pin_that_passed_squeezes_the_scene():
    c = cartoon(("a", {}, [[{"op": "wait", "for": 2}]]), ("b", {"at": 1}, [[{"op": "caption", "text": "quick"},
                                                                             {"op": "say", "who": "A", "text": "hi"}]]),
                ("c", {"at": 0.5}, [[{"op": "wait", "for": 0.25}]]))
    rt, res = started(c)
    tl = res["timeline"]
    assert [(r["kind"], r["t"], r["dur"]) for r in tl] == [("scene", 0.0, 1.0), ("scene", 1.0, 0.0),
                                                           ("caption", 1.0, 0.0), ("say", 1.0, 0.0),
                                                           ("scene", 1.0, 0.25)]
    assert len(rt.warnings) == 1  # b ran 0 s (a's wait at its end is a hold, not a loss)
    assert toon.validate(c)["warnings"]  # c is pinned before b


def test_held_scripts_end_with_their_scene():
    c = cartoon(("s", {}, [[{"op": "window", "from": 1, "body": [{"op": "caption", "text": "late"}]}],
                           [{"op": "wait", "until": "=dur"}, {"op": "caption", "text": "unreached"}],
                           [{"op": "wait", "for": 3}]]))
    rt, res = started(c)
    assert res["duration"] == 3.0
    cap = [r for r in res["timeline"] if r["kind"] == "caption"]
    assert [(r["text"], r["t"], r["dur"]) for r in cap] == [("late", 1.0, 2.0)]
    assert len(rt.warnings) == 1  # the blocks after a wait for an end that never comes
    alone = cartoon(("s", {}, [[{"op": "window", "from": 1, "body": [{"op": "caption", "text": "late", "for": 0.5},
                                                                      {"op": "wait", "for": 0.5}]}]]))
    rt, res = started(alone)
    assert res["duration"] == 1.5 and rt.warnings == []


def test_stop_all_ends_the_scene_or_holds_until_the_pin():
    c = cartoon(("a", {}, [[{"op": "wait", "for": 1}, {"op": "stopAll"}, {"op": "caption", "text": "after"}],
                           [{"op": "wait", "for": 5}, {"op": "caption", "text": "unreached"}]]),
                ("b", {}, [[{"op": "wait", "for": 1}]]))
    rt, res = started(c)
    assert [(r["name"], r["t"]) for r in res["timeline"] if r["kind"] == "scene"] == [("a", 0.0), ("b", 1.0)]
    assert len(rt.warnings) == 1 and "stop all" in rt.warnings[0]
    pinned = cartoon(("a", {}, [[{"op": "wait", "for": 1}, {"op": "stopAll"}]]),
                     ("b", {"at": 3}, [[{"op": "wait", "for": 1}]]))
    rt, res = started(pinned)
    assert [(r["name"], r["t"]) for r in res["timeline"] if r["kind"] == "scene"] == [("a", 0.0), ("b", 3.0)]
    assert rt.warnings == []
    rt.step_to(2)
    assert rt.frame()["scene"] == "a"


def test_losses_amounts_and_exact_ends():
    c = cartoon(("a", {}, [[{"op": "caption", "text": "cap", "for": 0.3001},
                            {"op": "does", "who": "A", "behaviour": BOB, "for": 5}, {"op": "wait", "for": 0.3}]]),
                ("b", {}, [[{"op": "exit", "who": "A", "over": 0.1}, {"op": "wait", "for": "=0.1 + 0.2 - 0.1"}]]))
    rt, res = started(c)
    assert len(rt.warnings) == 1
    w = rt.warnings[0]
    assert "0.3 of 0.3001" in w or "0.3 s of it" in w or "shown 0.3 s" in w
    assert "0.3001" in w and "5 s" in w


# --- §7.7 the plan --------------------------------------------------------------------------------------------------

def test_plan_equals_run_also_off_grid():
    c = cartoon(("a", {}, [[{"op": "enter", "who": "A", "over": 0.7}, {"op": "say", "who": "A", "text": "Hello there"},
                            {"op": "repeat", "times": 3, "body": [{"op": "caption", "text": "=n", "for": 0.3},
                                                                  {"op": "wait", "for": 0.21}]},
                            {"op": "until", "cond": "=tau > 2.3"}, {"op": "exit", "who": "A", "over": 0.4}],
                           [{"op": "does", "who": "B", "behaviour": BOB, "for": "=random + 1"}]]),
                ("b", {"at": 4}, [[{"op": "say", "who": "B", "text": "bye"}]]))
    for t0 in (0.0, 0.0137):
        rt = toon.create_runtime(seed=5)
        rt.step_to(t0)
        res = rt.start_cartoon(c)
        k = 1
        while rt.frame()["scene"] is not None or k < 10:
            rt.step_to(t0 + k / 24)  # a renderer stepping on the cartoon's own frames
            k += 1
            if k > 200:
                break
        assert rt._rt.timeline(0, True) == res["timeline"], t0
        assert res["timeline"][0]["t"] == t0 and rt.warnings == []


def test_one_cartoon_at_a_time_and_a_fresh_stage():
    c = cartoon(("s", {}, [[{"op": "place", "who": "A", "x": 0.1}, {"op": "mood", "who": "A", "mood": "glad"},
                            {"op": "wait", "for": 1}]]))
    rt, _ = started(c)
    with pytest.raises(toon.ToonError, match="one at a time"):
        rt.start_cartoon(c)
    rt.step_to(0.5)
    assert rt.frame()["characters"]["A"]["visible"]
    rt.step_to(1)
    assert rt.frame()["scene"] is None
    res = rt.start_cartoon(cartoon(("s", {}, [[{"op": "wait", "for": 1}]])))
    f = rt.frame()
    assert res["timeline"][0]["t"] == 1.0 and not f["characters"]["A"]["visible"] and f["characters"]["A"]["pose"]["mood"] is None


def test_a_cartoon_that_never_ends():
    c = cartoon(("s", {}, [[{"op": "forever", "body": [{"op": "caption", "text": "again", "for": 1},
                                                       {"op": "wait", "for": 1}]}]]))
    rt, res = started(c, max_duration=30)
    assert res["duration"] is None and len(res["timeline"]) == 32  # the scene and the captions at 0, 1 .. 30
    rt.step_to(100)
    assert rt.frame()["scene"] == "s"


def test_start_cartoon_failures_leave_the_runtime_as_section_6_says():
    rt = toon.create_runtime()
    rt.add_character("page")
    for bad in ({"v": 1, "kind": "cartoon", "scripts": []}, prog([{"op": "bob"}]), [], "not json"):
        with pytest.raises(toon.ToonError):
            rt.start_cartoon(bad)
    plan_fails = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": BOB, "params": {"h": "=nowhere"}}]]))
    with pytest.raises(toon.ToonError, match="nowhere"):
        rt.start_cartoon(plan_fails)
    assert rt.frame()["order"] == ["page"]  # no cast added
    fails_at_once = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": prog(
        [{"op": "set", "ch": "dx", "to": "=ghost"}])}]]))
    with pytest.raises(toon.ToonError, match="ghost"):
        rt.start_cartoon(fails_at_once)
    assert rt.frame()["order"] == ["page", "A", "B"]  # the run failed once begun: the cast stays
    assert rt.frame()["scene"] is None
    res = rt.start_cartoon(cartoon(("s", {}, [[{"op": "wait", "for": 1}]])))
    assert res["duration"] == 1.0


def test_pack_contents_scene_programs_and_cast_key_order():
    content = {"cast": {"7": "seven", "__proto__": "proto", "A": "a"}, "places": {"p": "p.png"},
               "program": {"v": 1, "kind": "cartoon", "cast": {"A": {"name": "Sunny"}},
                           "scripts": [{"hat": {"on": "scene", "name": "s", "place": "p"},
                                        "body": [{"op": "say", "who": "__proto__", "text": "I am a key"}]}]}}
    merged = toon.cartoon_program(content)
    assert list(merged["cast"]) == ["A", "7", "__proto__"] and merged["cast"]["A"] == "a" and merged["places"] == {"p": "p.png"}
    rt = toon.create_runtime()
    rt.add_character("page")
    res = rt.start_cartoon(content)
    f = rt.frame()
    assert f["order"] == ["page", "7", "A", "__proto__"]  # Object.keys order: index keys first
    assert set(f["characters"]) == {"page", "7", "A", "__proto__"} and f["background"] == "p.png"
    assert res["timeline"][1]["who"] == "__proto__"
    scene = {"v": 1, "kind": "scene", "name": "solo", "cast": {"X": "any"}, "scripts": [
        {"body": [{"op": "caption", "text": "one", "for": 1}, {"op": "wait", "for": 1}]},
        {"hat": {"on": "scene"}, "body": [{"op": "wait", "for": 0.5}]}]}
    rt, res = started(scene)
    assert res["timeline"][0]["name"] == "solo" and res["duration"] == 1.0


# --- §7.7 the cost model: the director keeps only what is still running (not timed) -----------------------------

def test_ten_minute_loop_keeps_a_small_working_state():
    c = cartoon(("s", {}, [[{"op": "for", "for": 600, "body": [{"op": "forever", "body": [
        {"op": "does", "who": "A", "behaviour": BOB}, {"op": "does", "who": "B", "behaviour": BOB, "for": 0.02},
        {"op": "say", "who": "A", "text": "a"}, {"op": "caption", "text": "c", "for": 0.005},
        {"op": "together", "branches": [[{"op": "say", "who": "B", "text": "b"}]]}]}]}]]))
    rt, res = started(c, speech=lambda text, opts: 0.01)
    assert res["duration"] == 600
    tl = rt._rt.timeline()
    # 5 records a 0.02 s iteration for 600 s (the iterations' times are sums of 0.01: the last one may
    # start a hair before 600 and be cut there)
    assert 150001 <= len(tl) <= 150006 and 60000 <= sum(r["kind"] == "say" for r in tl) <= 60002
    for T in (30, 200, 450, 599.5):
        rt.step_to(T)
        st = rt._rt.stats()
        assert st["live_items"] < 100 and st["queue"] < 100 and st["displayed_captions"] <= 8, (T, st)


def test_caption_loop_display_and_poll_queue():
    loop = [{"op": "caption", "text": "open"}, {"op": "say", "who": "A", "text": "line"},
            {"op": "caption", "text": "timed", "for": 0.3},
            {"op": "for", "for": 0.5, "body": [{"op": "caption", "text": "inner"},
                                               {"op": "caption", "text": "inner timed", "for": 0.2},
                                               {"op": "wait", "for": 0.5}]}]
    c = cartoon(("s", {}, [[{"op": "for", "for": 600, "body": [{"op": "forever", "body": loop}]}],
                           [{"op": "for", "for": 600, "body": [{"op": "until", "cond": "=tau > 1e9"}]}]]))
    rt, res = started(c, speech=lambda text, opts: 0.2)
    worst = 0
    for k in range(1, 14400, 7):
        rt.step_to(k / 24)
        f = rt.frame()
        st = rt._rt.stats()
        worst = max(worst, st["displayed_captions"])
        assert st["queue"] < 50 and st["live_items"] < 30, st
        assert f["caption"] in ("open", "line", "timed", "inner", "inner timed")
    assert worst <= 8


def test_a_hundred_captions_a_second_keep_four_live_items():
    loop = [{"op": "caption", "text": "a"}, {"op": "caption", "text": "b", "for": "=1/0"},
            {"op": "caption", "text": "c", "for": "=0/0"},
            {"op": "for", "for": 0.01, "body": [{"op": "caption", "text": "d"}, {"op": "wait", "for": 0.01}]}]
    c = cartoon(("s", {}, [[{"op": "for", "for": 300, "body": [{"op": "forever", "body": loop}]}]]))
    rt, res = started(c)
    assert res["duration"] == 300
    worst = 0
    for T in (10, 100, 299):
        rt.step_to(T)
        st = rt._rt.stats()
        worst = max(worst, st["live_items"] + st["displayed_captions"])
        assert st["live_items"] <= 4 and st["displayed_captions"] <= 4 and st["open_scopes"] <= 4, st
        assert st["queue"] < 20, st
    nan = [r for r in res["timeline"] if r["kind"] == "caption" and r["text"] == "c"]
    assert all(math.isnan(r["dur"]) for r in nan[:5])
    b = [r for r in res["timeline"] if r["kind"] == "caption" and r["text"] == "b"]
    assert b[0]["dur"] == 300  # open until its scope (the for) ends


# --- toText (§7.9, §8.7) and the CLI ---------------------------------------------------------------------------

def test_to_text_screenplay_and_skeleton_phrasings():
    c = {"v": 1, "kind": "cartoon", "cast": {"A": {"name": "Sunny"}, "B": {"name": "Grump"}},
         "scripts": [{"hat": {"on": "scene", "name": "Morning", "place": "park"}, "body": [
             {"op": "say", "who": "A", "text": "Good morning, Grump!", "mood": "happy"},
             {"op": "does", "who": "B", "behaviour": "c4c:beh:annoyed", "for": 2},
             {"op": "does", "who": "B", "behaviour": "c4c:beh:wag", "also": True},
             {"op": "caption", "text": "One bite later...", "for": 1.6}, {"op": "cut", "place": "park", "mood": "bloom"},
             {"op": "enter", "who": "A", "from": "left", "over": 2}, {"op": "exit", "who": "A", "to": "left", "over": 2.4},
             {"op": "place", "who": "A", "x": 0.3, "facing": -1, "over": 1}, {"op": "mood", "who": "B", "mood": "happy"},
             {"op": "does", "who": "A", "behaviour": prog([{"op": "bob"}])}]}]}
    text = toon.to_text(c).splitlines()
    assert text[:11] == ["cast: A = Sunny, B = Grump", 'scene "Morning" at park', '  A says "Good morning, Grump!" (happy)',
                         "  B does annoyed for 2 s", "  B also does wag", '  caption "One bite later..." for 1.6 s',
                         "  cut to park (bloom)", "  A enters from the left in 2 s", "  A exits to the left in 2.4 s",
                         "  place A at x 0.3, facing left in 1 s", "  B looks happy"]
    assert text[11] == "  A does this:" and text[12].startswith("    bob 10 px")  # an inline behaviour, indented
    beh = prog([{"op": "chain", "ch": "part:tail", "amp": 20, "lag": 0.1, "falloff": 0.8},
                {"op": "follow", "ch": "part:tail", "source": "dy", "gain": 0.5},
                {"op": "reach", "part": "hands", "at": "hip"}, {"op": "reach", "to": {"x": 80, "y": 300}, "hold": 1},
                {"op": "reach", "part": "right hand", "at": "head", "dx": 0.1, "dy": -0.03},
                {"op": "release", "part": "right hand", "over": 0.3}, {"op": "view", "to": "side"},
                {"op": "swish", "part": "tail", "deg": 30, "every": 0.7}, {"op": "flop", "part": "ears", "deg": 25,
                                                                           "every": 1.2},
                {"op": "bend", "part": "body", "deg": 20, "over": 0.5}, {"op": "bow", "deg": 35, "over": 0.6},
                {"op": "letFollow", "part": "ears", "after": "head", "amount": 2}, {"op": "turnView", "to": "back"}])
    assert toon.to_text(beh).splitlines() == [
        "sin wave down the tail chain, every 1 s, amp 20, 0.1 s later each segment, each × 0.8, 4 segments",
        "tail 0.5 × behind dy, springing 2 per second, damping 0.3", "reach hands for the hip in 0.4 s",
        "reach right hand to x 80, y 300, hold 1 s, let go",
        "reach right hand for the head + 0.1 out and -0.03 up (× its height) in 0.4 s",
        "let go with right hand in 0.3 s", "show the side view", "swish tail 30°, every 0.7 s",
        "flop ears 25°, every 1.2 s", "bend body 20° in 0.5 s", "bow 35° in 0.6 s", "let the ears follow the head × 2",
        "turn to the back in 0.24 s"]
    with pytest.raises(toon.ToonError):
        toon.to_text("{nope")


def test_cli_cartoon(tmp_path, capsys):
    import json
    from openbone.cli import main
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "bounce.json").write_text(json.dumps(BOB))
    (packs / "x.json").write_text(json.dumps({"id": "c4c:beh:idle", "content": prog([{"op": "sway"}])}))
    lines = tmp_path / "lines.json"
    lines.write_text(json.dumps({"Hello": 0.5}))
    c = cartoon(("s", {}, [[{"op": "say", "who": "A", "text": "Hello"}, {"op": "does", "who": "B",
                                                                        "behaviour": "c4c:beh:bounce", "for": 1},
                            {"op": "does", "who": "A", "behaviour": "c4c:beh:gone"}, {"op": "wait", "for": 1}]]))
    path = tmp_path / "story.json"
    path.write_text(json.dumps(c))
    assert main(["toon", "cartoon", str(path), "--text"]) == 0
    assert 'A says "Hello"' in capsys.readouterr().out
    assert main(["toon", "cartoon", str(path), "--json", "--packs", str(packs), "--speech", str(lines)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["duration"] == 1.5 and doc["timeline"][1]["dur"] == 0.5 and len(doc["warnings"]) == 1
    out = tmp_path / "frames.json"
    assert main(["toon", "cartoon", str(path), "--frames", "-o", str(out), "--packs", str(packs), "--speech",
                 str(lines), "--fps", "10", "-q"]) == 0
    frames = json.loads(out.read_text())["frames"]
    assert len(frames) == 16 and frames[2]["caption"] == "Hello" and frames[7]["characters"]["B"]["pose"]["dy"] < 0
    assert frames[7]["characters"]["A"]["pose"]["rot"] != 0  # idle for the pack that is gone
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"v": 1, "kind": "cartoon", "scripts": []}))
    assert main(["toon", "cartoon", str(bad), "--json"]) == 2
    assert "invalid program" in capsys.readouterr().err


# --- exactness and bad input -------------------------------------------------------------------------------------

def test_literal_times_keep_every_bit():
    # 0.30000000000000004 is not 0.3: a cartoon (and a does' inline behaviour) is re-read after merging,
    # and the text it is re-read from must keep the number's bits (§0, "sum time exactly as written")
    c = cartoon(("s", {}, [[{"op": "wait", "for": 0.30000000000000004}, {"op": "caption", "text": "x"},
                            {"op": "does", "who": "A", "behaviour": prog([{"op": "set", "ch": "dx", "to": 0.30000000000000004}]),
                             "for": 0.1}, {"op": "wait", "for": 0.1}]]))
    rt, res = started(c)
    assert res["timeline"][1]["t"] == 0.30000000000000004 and res["timeline"][1]["t"] != 0.3
    assert res["timeline"][2]["behaviour"]["scripts"][0]["body"][0]["to"] == 0.30000000000000004
    rt.step_to(0.35)
    assert rt.frame()["characters"]["A"]["pose"]["dx"] == 0.30000000000000004
    packed = {"content": {"cast": {"A": "a"}, "program": c}}  # a cartoon pack: merged, then re-read
    assert toon.create_runtime().start_cartoon(packed)["timeline"][1]["t"] == 0.30000000000000004


def test_an_exit_a_hair_after_the_pin_has_not_landed():
    # 0.1 + 0.2 = 0.30000000000000004: the exit lands 5.55e-17 s after the pin at 0.3 (§7.6)
    c = cartoon(("a", {}, [[{"op": "place", "who": "B", "x": 0.5}, {"op": "wait", "for": 0.1},
                            {"op": "exit", "who": "B", "over": 0.2}]]),
                ("b", {"at": 0.3}, [[{"op": "wait", "for": 0.5}]]))
    rt, res = started(c)
    assert len(rt.warnings) == 1 and "lands 5.6e-17 s after the scene ends (rounding)" in rt.warnings[0]
    rt.step_to(0.5)
    b = rt.frame()["characters"]["B"]
    assert b["visible"] and b["x"] == pytest.approx(1 + 0.02 + 0.5 / ASPECT, abs=1e-9)  # on stage, out of frame
    landed = cartoon(("a", {}, [[{"op": "place", "who": "B", "x": 0.5}, {"op": "exit", "who": "B", "over": 0.25}]]),
                     ("b", {"at": 0.25}, [[{"op": "wait", "for": 0.5}]]))
    rt, _ = started(landed)  # landing exactly at the pin: it has landed, nothing lost
    rt.step_to(0.5)
    assert rt.warnings == [] and not rt.frame()["characters"]["B"]["visible"]


def test_a_caption_running_past_the_end_is_not_a_wait():
    c = cartoon(("a", {}, [[{"op": "caption", "text": "cap", "for": 0.3001}, {"op": "wait", "for": 0.3}]]))
    rt, _ = started(c)
    assert len(rt.warnings) == 1
    assert "0.3 of 0.3001" in rt.warnings[0] or "shown 0.3 s" in rt.warnings[0]
    assert "never comes" not in rt.warnings[0]


@pytest.mark.parametrize("answer", [float("nan"), float("inf"), -0.5, None, "2", [1], True, {"s": 1}])
def test_speech_answers_that_are_not_a_length(answer):
    c = cartoon(("s", {}, [[{"op": "say", "who": "A", "text": "hello there"}, {"op": "say", "who": "A", "text": "hello there"}]]))
    rt, res = started(c, speech=lambda text, opts: answer)
    says = [r["dur"] for r in res["timeline"] if r["kind"] == "say"]
    # (a bool is not a number here: True would be 1 s in JS, whose typeof true is "boolean", not "number")
    assert says == [speech_len("hello there")] * 2
    assert len(rt.warnings) == 1 and "speech" in rt.warnings[0]  # once per distinct line


def test_speech_provider_exceptions_of_every_kind():
    class Odd(Exception):
        pass

    for exc in (Odd("no audio"), KeyboardInterrupt, RecursionError("deep")):
        def speech(text, opts, exc=exc):
            raise exc
        c = cartoon(("s", {}, [[{"op": "say", "who": "A", "text": "hi"}]]))
        if exc is KeyboardInterrupt:  # not swallowed: the page asked to stop; no cartoon runs (§6)
            rt = toon.create_runtime(speech=speech)
            with pytest.raises(KeyboardInterrupt):
                rt.start_cartoon(c)
            assert rt.frame()["order"] == [] and rt.warnings == []
            assert rt.start_cartoon(cartoon(("s", {}, [[{"op": "wait", "for": 1}]])))["duration"] == 1
            continue
        rt, res = started(c, speech=speech)
        assert res["timeline"][1]["dur"] == 0.6 and len(rt.warnings) == 1


@pytest.mark.parametrize("answer", [None, 5, "not json", {"v": 1, "kind": "scene", "scripts": []},
                                    {"v": 1, "kind": "behaviour", "scripts": [{"body": [{"op": "nope"}]}]},
                                    {"content": 3}, {"id": "x", "content": {"v": 2}}, [{"v": 1}]])
def test_packs_that_return_junk_fall_back_to_idle(answer):
    idle = prog([{"op": "sway"}])
    c = cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": "c4c:beh:odd"}, {"op": "wait", "for": 0.25}]]))
    rt, res = started(c, packs=lambda pid, version: idle if pid == "c4c:beh:idle" else answer)
    rt.step_to(0.125)
    assert rt.frame()["characters"]["A"]["pose"]["rot"] == pytest.approx(5 * math.sin(2 * math.pi * 0.125))
    assert len(rt.warnings) == 1 and "c4c:beh:odd" in rt.warnings[0]
    assert res["duration"] == 0.25


def test_a_packs_provider_interrupted_fails_the_cartoon():
    def packs(pid, version):
        raise KeyboardInterrupt
    rt = toon.create_runtime(packs=packs)
    with pytest.raises(KeyboardInterrupt):
        rt.start_cartoon(cartoon(("s", {}, [[{"op": "does", "who": "A", "behaviour": "c4c:beh:x"}]])))
    assert rt.frame()["scene"] is None and rt.frame()["order"] == []


def test_does_without_for_gets_the_earliest_known_end():
    dur = prog([{"op": "set", "ch": "dx", "to": "=dur"}])

    def dx(c, T=0.1):
        rt, _ = started(c)
        rt.step_to(T)
        return rt.frame()["characters"]["A"]["pose"]["dx"]
    does = {"op": "does", "who": "A", "behaviour": dur}
    assert dx(cartoon(("a", {}, [[{"op": "for", "for": 1, "body": [{"op": "for", "for": 5, "body": [
        does, {"op": "wait", "for": 9}]}]}]]))) == 1  # the outer for ends first
    pinned = ("b", {"at": 2}, [[{"op": "wait", "for": 1}]])
    assert dx(cartoon(("a", {}, [[{"op": "for", "for": 10, "body": [does, {"op": "wait", "for": 9}]}]]), pinned)) == 2
    assert dx(cartoon(("a", {}, [[{"op": "wait", "for": 0.5}, {"op": "for", "for": 10, "body": [
        does, {"op": "wait", "for": 9}]}]]), pinned), 0.6) == 1.5  # from its start at 0.5 to the pin
    assert dx(cartoon(("a", {}, [[{"op": "for", "for": 3, "body": [{"op": "together", "branches": [
        [does, {"op": "wait", "for": 9}]]}]}]]))) == 3  # the for around the together
    assert dx(cartoon(("a", {}, [[does, {"op": "wait", "for": 4}]]))) == 4  # the scene's end from the plan


def test_to_text_scene_program_and_sides():
    scene = {"v": 1, "kind": "scene", "cast": {"A": "any"}, "scripts": [{"body": [
        {"op": "enter", "who": "A", "from": "top", "x": 0.3, "over": 1}, {"op": "exit", "who": "A", "to": "bottom"},
        {"op": "say", "who": "A", "text": "Hi", "mood": "glad", "voice": "deep", "speed": 1.5, "pitch": 2}]}]}
    assert toon.to_text(scene).splitlines() == ["cast: A = any", 'scene "scene"', "  A enters from the top at x 0.3 in 1 s",
                                                "  A exits to the bottom",
                                                '  A says "Hi" (glad, in the deep voice, 1.5× speed, pitch 2)']
