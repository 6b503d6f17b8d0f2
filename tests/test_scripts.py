"""§11 scripts through the QuickJS host (openbone/scripting.py, optional extra)."""
import time

import pytest

from oracles.sm_helpers import anim, cond, doc, inst, layer, state, tl, trans

from openbone import scripting

if not scripting.AVAILABLE:
    pytest.skip("the §11 script host needs the quickjs-ng package (openbone[scripts])", allow_module_level=True)

BONES = [{"id": "root", "name": "root"}, {"id": "b", "name": "bone_b", "parent": "root", "x": 3}]
SLOTS = [{"id": "s", "name": "s", "bone": "b", "attachment": "one"}]
SKINS = [{"id": "default", "name": "default", "attachments": {"s": {
    "one": {"type": "boundingBox", "vertices": [-10, -10, 10, -10, 10, 10, -10, 10]},
    "two": {"type": "point"}}}}]


def sdoc(code, inputs=(("n", "number", 0),), layers=None, extra_scripts=(), listeners=(), events=(), animations=()):
    scripts = [{"id": "sc", "name": "main", "code": code}, *extra_scripts]
    return doc(inputs=list(inputs), layers=layers or [layer([state("A")])], bones=BONES, slots=SLOTS, skins=SKINS,
               scripts=scripts, machine_scripts=["sc"], listeners=list(listeners), events=list(events),
               animations=list(animations))


def errors(i):
    return [r["text"] for r in i.log if r["type"] == "error"]


def test_on_start_and_on_update_order():
    code = """
    let frames = 0;
    function onStart() { ob.setInput("n", 100); }
    function onUpdate(dt) { frames++; ob.setInput("n", ob.input("n") + dt * 10); ob.log("f", frames, {dt}); }
    """
    i = inst(sdoc(code))
    i.advance(0.5)   # onStart: 100, then onUpdate: 100 + 5
    assert i.inputs["n"] == 105
    i.advance(0.25)  # 105 + 2.5
    assert i.inputs["n"] == 107.5
    logs = [r["text"] for r in i.log if r["type"] == "log"]
    assert logs == ['f 1 {"dt":0.5}', 'f 2 {"dt":0.25}']
    assert errors(i) == []


def test_emit_queues_event_with_elapsed_time():
    events = [{"id": "ev_hit", "name": "hit", "int": 7, "string": "s"}]
    code = """
    function onUpdate(dt) {
      if (ob.time() > 0.3) ob.emit("hit", {float: 1.5});
      ob.emit("custom", {int: 2});
    }
    """
    i = inst(sdoc(code, events=events))
    i.advance(0.25)
    assert [(e["name"], e["id"], e["time"], e["int"], e["float"], e["string"]) for e in i.events] == \
        [("custom", "custom", 0.25, 2, 0, "")]
    i.advance(0.25)  # elapsed 0.5: payload over the event's values
    assert [(e["name"], e["id"], e["time"], e["int"], e["float"], e["string"]) for e in i.events] == \
        [("hit", "ev_hit", 0.5, 7, 1.5, "s"), ("custom", "custom", 0.5, 2, 0, "")]


def test_on_event_receives_events_and_emits_next_frame():
    events = [{"id": "e1", "name": "tick", "int": 1}]
    a = anim("a", [], duration=1, events=[{"time": 0.1, "event": "e1", "int": 9}])
    code = """
    function onEvent(e) {
      ob.log(e.name, e.id, e.int, e.animation, e.time);
      if (e.name === "tick") ob.emit("echo");
    }
    """
    i = inst(sdoc(code, events=events, layers=[layer([state("A", "a")])], animations=[a]))
    i.advance(0.125)  # (−1e-6, 0.125] crosses 0.1
    assert [e["name"] for e in i.events] == ["tick"]
    i.advance(0.125)  # the emit made in onEvent comes out at the next step 13, with the
    # elapsed time of when it was queued (frame 1: 0.125)
    assert [(e["name"], e["time"]) for e in i.events] == [("echo", 0.125)]
    logs = [r["text"] for r in i.log if r["type"] == "log"]
    assert logs[0] == "tick e1 9 a 0.1" and logs[1].startswith("echo echo 0")


def test_set_bone_override_persists_until_cleared():
    code = """
    function onStart() { ob.setBone("bone_b", {x: 42, nonsense: 1}); }
    function onUpdate() { const b = ob.bone("bone_b"); ob.log(b.x, b.worldX, b.rotation); }
    """
    i = inst(sdoc(code))
    i.advance(0.1)
    assert i.world[1][4] == 42
    i.advance(0.1)
    assert i.world[1][4] == 42
    # ob.bone in frame 2's onUpdate: local pose now (setup reset happens later, at step 8:
    # the local x is still 42 from frame 1) and the last world x (42)
    assert [r["text"] for r in i.log if r["type"] == "log"][1] == "42 42 0"
    i.clear_overrides()
    i.advance(0.1)
    assert i.world[1][4] == 3


def test_slot_override_color_and_attachment():
    code = 'function onStart() { ob.slot("s", {color: "#ff000080", attachment: "two"}); }'
    i = inst(sdoc(code))
    i.advance(0.1)
    assert list(i.slot_colors[0]) == pytest.approx([1, 0, 0, 128 / 255])
    assert i.slot_attachments == ["two"]


def test_on_pointer_and_pointer_state():
    code = """
    function onPointer(p) { ob.log(p.type, p.x, p.y); }
    function onUpdate() { const p = ob.pointer(); ob.log("now", p.x, p.y, p.down); }
    """
    i = inst(sdoc(code))
    i.pointer("down", 1, 2)
    i.pointer("move", 3, 4)
    i.advance(0.1)
    assert [r["text"] for r in i.log if r["type"] == "log"] == ["down 1 2", "move 3 4", "now 3 4 true"]


def test_run_script_action_and_state_scripts():
    listeners = [{"id": "li", "name": "li", "slot": None, "event": "down",
                  "actions": [{"type": "runScript", "script": "sc", "fn": "poke"},
                              {"type": "runScript", "script": "sc"}]}]
    code = """
    function poke() { ob.log("poke"); ob.fire("go"); }
    function run() { ob.log("run"); }
    """
    st_code = """
    let k = 0;
    function onStart() { ob.log("B start"); }
    function onUpdate() { k++; ob.log("B update " + k); }
    """
    lay = layer([state("A"), state("B", scripts=["st"])], [trans("A", "B", [cond("go")])])
    d = sdoc(code, inputs=[("go", "trigger", None)], layers=[lay], listeners=listeners,
             extra_scripts=[{"id": "st", "name": "stateB", "code": st_code}])
    i = inst(d)
    i.pointer("down", 0, 0)
    i.advance(0.1)  # step 3: poke fires go; step 5: A → B (B's scripts load, onStart)
    i.advance(0.1)
    logs = [r["text"] for r in i.log if r["type"] == "log"]
    assert logs == ["poke", "run", "B start", "B update 1"]
    assert i.active_states == ["B"]


def test_infinite_loop_is_stopped_and_reported():
    code = """
    let n = 0;
    function onUpdate() { n++; ob.setInput("n", n); if (n === 2) { while (true) {} } }
    """
    i = inst(sdoc(code))
    t0 = time.perf_counter()
    for _ in range(4):
        i.advance(0.1)
    elapsed = time.perf_counter() - t0
    assert elapsed < 2.0
    errs = errors(i)
    assert len(errs) == 1 and "interrupted" in errs[0] and "onUpdate" in errs[0]
    # the effects queued before the loop were applied; the machine keeps running
    assert i.inputs["n"] == 4


def test_load_error_reported_and_swallowed():
    i = inst(sdoc("function onStart( {"))
    i.advance(0.1)
    i.advance(0.1)
    errs = errors(i)
    assert len(errs) == 1 and errs[0].startswith("main: load: SyntaxError")
    assert i.active_states == ["A"]


def test_runtime_error_reported_each_call():
    i = inst(sdoc("function onUpdate() { undefinedThing.x = 1; }"))
    i.advance(0.1)
    i.advance(0.1)
    errs = errors(i)
    assert len(errs) == 2 and "ReferenceError" in errs[0]


def test_scripts_disabled_without_a_host():
    i = inst(sdoc("function onStart() { ob.setInput('n', 5); }"))
    i._sm_set_script_host(None)
    i.advance(0.1)
    i.advance(0.1)
    warnings = [r for r in i.log if r["type"] == "warning"]
    assert len(warnings) == 1 and "scripts are disabled" in warnings[0]["text"]
    assert i.inputs["n"] == 0


def test_only_ob_is_visible():
    code = 'function onStart() { ob.log(typeof ob, typeof __ob_enter === "function", typeof require, typeof console.log); }'
    i = inst(sdoc(code))
    i.advance(0.1)
    assert [r["text"] for r in i.log if r["type"] == "log"] == ["object true undefined function"]


def test_trigger_fired_in_on_event_survives_to_next_frame():
    # onEvent (step 13) fires `go`: the next frame's settle (step 5) sees it before step 6
    events = [{"id": "e1", "name": "tick"}]
    a = anim("a", [], duration=1, events=[{"time": 0.05, "event": "e1"}])
    lay = layer([state("A", "a"), state("B")], [trans("A", "B", [cond("go")])])
    code = 'function onEvent(e) { ob.fire("go"); ob.log(String(ob.input("in_n")), String(ob.input("n"))); }'
    d = sdoc(code, inputs=[("go", "trigger", None), ("in_n", "number", 4, "n")], events=events, layers=[lay],
             animations=[a])
    i = inst(d)
    i.advance(0.1)
    assert i.active_states == ["A"]
    i.advance(0.1)
    assert i.active_states == ["B"]
    assert [r["text"] for r in i.log if r["type"] == "log"] == ["4 4"]  # ob.input by id or name


def test_clear_overrides_drops_emitter_overrides_too():
    particles = {"type": "particles", "emitting": True, "rate": 0}
    skins = [{"id": "default", "name": "default", "attachments": {"fx": {"p": particles}}}]
    lay = layer([state("A", emitters=[{"slot": "fx", "emitting": False}])])
    d = doc(inputs=[], layers=[lay], bones=BONES, slots=[{"id": "fx", "name": "fx", "bone": "b", "attachment": "p"}],
            skins=skins, scripts=[{"id": "sc", "name": "m", "code": ""}], machine_scripts=["sc"])
    i = inst(d)
    i.advance(0.1)
    assert i.particle_live("fx")["emitting"] is False
    i.clear_overrides()
    i.advance(0.1)
    assert i.particle_live("fx")["emitting"] is None  # unset: the attachment's own value applies


def test_a_read_after_a_write_in_the_same_call_sees_the_write():
    # §11 ob.input after ob.setInput in one call: the reference reads the new
    # value (setInput coerces first: §9.5 Number("4") = 4; "true" ⇒ true).
    code = """
    function onUpdate(dt) {
      ob.setInput("n", "4");
      ob.setInput("flag", "true");
      ob.setInput("n", ob.input("n") + 1);
      ob.log(ob.input("n"), ob.input("flag"));
      ob.setInput("n", "not a number");   // ignored: not finite
      ob.log(ob.input("n"));
    }
    """
    i = inst(sdoc(code, inputs=(("n", "number", 0), ("flag", "bool", False))))
    i.advance(0.1)
    assert [r["text"] for r in i.log if r["type"] == "log"] == ["5 true", "5"]
    assert i.inputs["n"] == 5 and i.inputs["flag"] is True
    assert errors(i) == []
