"""§11 hostile scripts (issue 21 items 2-5): the sandbox bounds time, memory and stack, never
runs script code outside the budget, and its effect queue cannot be forged.

Whatever could hang or crash the host runs in a subprocess with a generous timeout: a hang
shows as a timeout, a crash as a signal.  Nothing here asserts timings."""
import json
import math
import os
import subprocess
import sys
import textwrap

import pytest

from oracles.sm_helpers import doc, inst, layer, state

import openbone
from openbone import scripting

if not scripting.AVAILABLE:
    pytest.skip("the §11 script host needs the quickjs-ng package (openbone[scripts])", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
BONES = [{"id": "root", "name": "root"}, {"id": "b", "name": "bone_b", "parent": "root", "x": 3}]
SLOTS = [{"id": "s", "name": "s", "bone": "b", "attachment": "one"}]
SKINS = [{"id": "default", "name": "default", "attachments": {"s": {"one": {"type": "point"}, "two": {"type": "point"}}}}]
INPUTS = [("n", "number", 0), ("s", "string", ""), ("go", "trigger", None)]


def sdoc(code, bones=BONES, huge=None):
    d = doc(inputs=INPUTS, layers=[layer([state("A")])], bones=bones, slots=SLOTS, skins=SKINS,
               scripts=[{"id": "sc", "name": "main", "code": code}], machine_scripts=["sc"])
    if huge is not None:  # that number written as the JSON literal 1e400 (+Infinity once parsed)
        d = openbone.loads(d.json.replace(huge, "1e400"))
    return d


def records(i, kind):
    return [r["text"] for r in i.log if r["type"] == kind]


def run_isolated(code, frames=3, timeout=120):
    """Runs `code` as the machine script in a fresh interpreter for `frames` advances; returns
    (inputs, error records, log records).  A crash fails with the signal, a hang with the timeout."""
    prog = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {HERE!r})
        from test_sandbox import sdoc, records
        from oracles.sm_helpers import inst
        i = inst(sdoc({code!r}))
        for _ in range({frames}):
            i.advance(0.1)
        print(json.dumps([i.inputs, records(i, "error"), records(i, "log")]))
    """)
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=timeout, cwd=HERE)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


DEEP = "let deep = {}; { let p = deep; for (let k = 0; k < 30000; k++) { p.a = {}; p = p.a; } }"


# ---- item 2: the stack ------------------------------------------------------------------
def test_stringify_of_a_30000_deep_object_in_a_hook_is_an_error_not_a_crash():
    inputs, errs, _ = run_isolated(DEEP + """
    function onUpdate() { ob.setInput("n", ob.input("n") + 1); JSON.stringify(deep); }""")
    assert inputs["n"] == 3  # the effect before the throw is applied, every frame
    assert len(errs) == 3 and all("RangeError" in e and "stack" in e for e in errs)


def test_set_input_of_a_30000_deep_value_is_an_error_not_a_crash():
    inputs, errs, _ = run_isolated(DEEP + """
    function onUpdate() { ob.setInput("s", deep); ob.setInput("n", 1); ob.log(deep); }""", frames=2)
    # §9.5 string input: String(deep) is "[object Object]"; ob.log(deep) stringifies it: too deep
    assert inputs["s"] == "[object Object]" and inputs["n"] == 1
    assert len(errs) == 2 and all("RangeError" in e for e in errs)


def test_deep_recursion_and_deep_json_parse_are_errors():
    _, errs, _ = run_isolated("""
    function f(k) { return f(k + 1) + 1; }
    function onStart() { try { JSON.parse("[".repeat(200000)); } catch (e) { ob.log(e.name); } }
    function onUpdate() { f(0); }""", frames=2)
    assert len(errs) == 2 and all("RangeError" in e for e in errs)


# ---- item 3: time, and the glue ------------------------------------------------------------
def test_a_thrown_object_whose_to_string_never_returns_is_stopped():
    inputs, errs, _ = run_isolated("""
    function onUpdate() { ob.setInput("n", ob.input("n") + 1); throw {toString() { for (;;) {} }}; }""")
    assert inputs["n"] == 3
    assert len(errs) == 3 and all("interrupted" in e for e in errs)


def test_replaced_error_machinery_cannot_hang_the_host():
    # the error classes are frozen before the script runs: these assignments fail (silently,
    # outside strict mode) and an interrupted loop is reported as usual
    inputs, errs, _ = run_isolated("""
    Error.prototype.toString = function () { for (;;) {} };
    Error.prepareStackTrace = function () { for (;;) {} };
    try { Object.defineProperty(Error.prototype, "name", {get() { for (;;) {} }}); } catch (e) {}
    function onUpdate() { ob.setInput("n", ob.input("n") + 1); for (;;) {} }""", frames=2)
    assert inputs["n"] == 2
    assert len(errs) == 2 and all("interrupted" in e for e in errs)


def test_catastrophic_regex_and_huge_repeat_are_bounded():
    inputs, errs, _ = run_isolated("""
    let k = 0;
    function onUpdate() {
      k++; ob.setInput("n", k);
      if (k === 1) /^(a+)+$/.test("a".repeat(34) + "b");
      if (k === 2) "ab".repeat(1 << 28).length;
      if (k === 3) { let s = "x"; for (;;) s += s; }
    }""")
    assert inputs["n"] == 3
    assert len(errs) == 3
    assert "interrupted" in errs[0]
    assert "out of memory" in errs[1] or "Invalid string length" in errs[1] or "RangeError" in errs[1]
    assert "InternalError" in errs[2] or "RangeError" in errs[2]  # string too long, or out of memory


def test_replaced_json_and_prototypes_change_nothing_for_the_host():
    code = """
    JSON.stringify = function () { for (;;) {} };
    JSON.parse = function () { for (;;) {} };
    Array.prototype.toJSON = function () { return [["setInput", "n", 666]]; };
    Array.prototype.push = function () { for (;;) {} };
    Array.prototype.join = function () { for (;;) {} };
    String.prototype.slice = function () { for (;;) {} };
    Reflect.apply = function () { for (;;) {} };
    Object.prototype.hasOwnProperty = function () { for (;;) {} };
    Object.defineProperty(Object.prototype, "color", {get() { return "#00ff00"; }, configurable: true});
    function onUpdate() {
      ob.setInput("n", ob.input("n") + 1);
      ob.slot("s", {attachment: "two"});
      ob.log("x", 1);
    }"""
    inputs, errs, logs = run_isolated(code, frames=2)
    assert errs == []
    assert inputs["n"] == 2
    assert logs == ["x 1", "x 1"]
    i = inst(sdoc(code))
    i.advance(0.1)
    assert i.slot_attachments == ["two"]
    assert list(i.slot_colors[0]) == [1, 1, 1, 1]  # the inherited getter is not an own "color"


def test_an_array_index_setter_reaches_only_the_scripts_own_calls():
    # QuickJS-ng's JSON.stringify of an object stores into an internal array with [[Set]], so
    # an index setter on Array.prototype runs when a script's own value is copied (ob.slot's
    # argument: its call, its budget); the glue stringifies primitives only
    code = """
    Object.defineProperty(Array.prototype, "0", {set(v) { for (;;) {} }, configurable: true});
    function onUpdate() { ob.setInput("n", ob.input("n") + 1); ob.fire("go"); ob.log("x", 2, null);
                          if (ob.input("n") === 2) ob.slot("s", {attachment: "two"}); }"""
    inputs, errs, logs = run_isolated(code, frames=3)
    assert inputs["n"] == 3 and logs == ["x 2 null"] * 3
    assert len(errs) == 1 and "interrupted" in errs[0]


def test_the_glue_cannot_be_replaced_or_reentered_to_forge_effects():
    code = """
    function onUpdate() {
      try { globalThis.__ob_leave = () => '[["setInput","n",666]]'; } catch (e) {}
      try { globalThis.__ob_enter = null; } catch (e) {}
      __ob_leave();              // drops this call's own effects so far, nothing else
      ob.setInput("n", ob.input("n") + 1);
    }"""
    i = inst(sdoc(code))
    i.advance(0.1)
    i.advance(0.1)
    assert records(i, "error") == [] and i.inputs["n"] == 2


def test_effects_per_call_are_capped():
    i = inst(sdoc("""const long = "g".repeat(100000);
    function onUpdate() { ob.setInput("n", 1); for (;;) ob.fire(long); }"""))
    i.advance(0.1)
    errs = records(i, "error")
    assert len(errs) == 1 and "too many effects" in errs[0]
    assert i.inputs["n"] == 1  # the effects queued before the cap are applied


# ---- item 4: memory and logs -------------------------------------------------------------
def test_a_script_cannot_grow_past_its_memory_limit():
    i = inst(sdoc("""
    const keep = [];
    function onUpdate() { keep.push(new Array(1 << 20).fill(keep.length)); ob.setInput("n", keep.length); }"""))
    for _ in range(12):  # 16 MiB of values per frame
        i.advance(0.1)
    errs = records(i, "error")
    assert errs and all("out of memory" in e for e in errs)
    ctx = next(iter(i.script_host._scripts.values()))[0]
    assert ctx.memory()["memory_used_size"] <= scripting.MEMORY_LIMIT
    assert i.inputs["n"] < 12


def test_log_records_are_capped_in_size_and_number():
    i = inst(sdoc("""function onUpdate() { ob.log("x".repeat(1 << 22)); ob.log("\u00e9".repeat(5000)); }"""))
    i.advance(0.1)
    texts = records(i, "log")
    assert [len(t) for t in texts] == [scripting.LOG_TEXT_MAX + 1] * 2 and texts[0].endswith("\u2026")
    # the C core's caps, whoever logs: 16 KiB per record, 10,000 records and 1 MiB between reads
    i.clear_log()
    i._sm_log("log", "\u00e9" * 20000)
    (r,) = i.log
    assert r["text"].endswith("\u2026") and len(r["text"].encode()) <= 16384 + 3
    i.clear_log()
    for k in range(12000):
        i._sm_log("log", f"line {k}")
    logs = i.log
    assert len(logs) == 10001 and logs[-1]["type"] == "warning" and "2000 log records dropped" in logs[-1]["text"]
    i.clear_log()
    for k in range(2000):
        i._sm_log("log", "y" * 1000)
    logs = i.log
    assert sum(len(r["text"]) for r in logs if r["type"] == "log") <= 1 << 20
    assert logs[-1]["type"] == "warning" and "dropped" in logs[-1]["text"]
    i.clear_log()
    assert i.log == []  # reported once


# ---- item 5: non-finite numbers --------------------------------------------------------------
def test_non_finite_pointer_is_refused():
    i = inst(sdoc("function onUpdate() { ob.log(ob.pointer().x); }"))
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(openbone.OpenBoneError, match="finite"):
            i.pointer("move", bad, 0)
    i.pointer("move", 2, 3)
    i.advance(0.1)
    assert records(i, "log") == ["2"] and records(i, "error") == []


def test_non_finite_pose_values_reach_the_script_as_numbers():
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "bone_b", "parent": "root", "x": 12345}]
    i = inst(sdoc("""function onUpdate() { const b = ob.bone("bone_b"); ob.log(String(b.x), String(b.worldX),
                     typeof b.worldY); ob.setInput("n", ob.input("n") + 1); }""", bones=bones, huge="12345"))
    i.advance(0.1)
    i.advance(0.1)
    assert records(i, "error") == []
    assert records(i, "log") == ["Infinity Infinity number"] * 2
    assert i.inputs["n"] == 2


# ---- the script fuzzer (tests/fuzz/fuzz_scripts.py) ---------------------------------------
def test_script_fuzzer_short_seeded_run():
    """60 random hostile programs (seed 1) in a subprocess: no crash, hang or inconsistency.
    `make -C tests/fuzz scripts FUZZ_SECONDS=...` runs it for longer with the extension under ASan."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "fuzz", "fuzz_scripts.py"), "--programs", "60", "--seed",
                        "1"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.returncode, r.stdout[-1000:], r.stderr[-3000:])
    assert "programs: 60," in r.stdout and "findings: 0" in r.stdout


def test_strict_and_sloppy_scripts_define_their_hooks_as_global_code():
    # the glue runs a script's top level by indirect eval (global code), so that what it throws
    # is caught in JS; strict code keeps its declarations in the eval's scope, so the glue
    # publishes the functions it declared, as a strict script's would be global
    for code in ('"use strict";\nlet k = 0;\nfunction onUpdate() { k++; ob.setInput("n", k); }',
                 "// a comment\n'use strict'\nvar onUpdate = function () { ob.setInput('n', ob.input('n') + 1); };",
                 'let k = 0; function onUpdate() { k++; ob.setInput("n", k); }'):
        i = inst(sdoc(code))
        i.advance(0.1)
        i.advance(0.1)
        assert records(i, "error") == [] and i.inputs["n"] == 2, code
    i = inst(sdoc('"use strict"; function onUpdate() { undeclared = 1; }'))
    i.advance(0.1)
    assert "ReferenceError" in records(i, "error")[0]  # still strict
