"""fuzz_scripts.py: a seeded generator of hostile §11 scripts for the QuickJS sandbox (issue 21).

Each program is built from a grammar of fragments an attacker or a careless author would write
(deep recursion and nesting, huge strings and arrays, catastrophic regexes, replaced built-ins
and prototypes, thrown objects whose conversion loops or throws, getters and proxies in
arguments, non-finite and odd values through every ``ob`` function, promises, infinite loops)
and runs in a state machine for a few frames with pointer events, animation events and hostile
time steps.  A finding is anything but a clean run:

* the process dies (a crash: a signal from the subprocess driving this file),
* one advance takes more than HANG_SECONDS of CPU (the watchdog; CPU time, so that a loaded
  machine or ASan does not count: §11 budgets are per call, and an advance may make many calls),
* an exception other than the documented ones escapes (OpenBoneError for refused time steps),
* an input's value leaves its declared type, a log record is malformed or over the caps,
* the process grows past RSS_LIMIT_MB (the memory limit does not hold).

Usage:  python tests/fuzz/fuzz_scripts.py [--seconds S | --programs N] [--seed K] [--save DIR]
Under ASan: build the extension with the sanitizers (the Makefile's ``scripts`` target does).
Prints ``programs: N, advances: M, findings: F``; exit 1 on a finding (saved to --save)."""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))

import openbone  # noqa: E402
from openbone import scripting  # noqa: E402

HANG_SECONDS = 60.0
RSS_LIMIT_MB = 3072

VALUES = ["0", "-0", "1", "-1", "0.5", "NaN", "Infinity", "-Infinity", "1e308", "5e-324", "2**53", "''", "'x'",
          "'true'", "'4'", "' 12 '", "true", "false", "null", "undefined", "[]", "[1,[2,[3]]]", "{}",
          "{a: 1}", "{x: NaN, y: Infinity}", "Symbol('s')", "10n", "new Date(0)", "/re/g", "function(){}",
          "'\\u0000'", "'\\ud800'", "'\u00e9\u4e2d'", "'x'.repeat(1e5)", "new Array(1e5).fill(7)", "DEEP", "CYCLE",
          "GETTER", "PROXY", "THROWER", "TOJSON", "HUGEKEY", "Object.create(null)", "new Uint8Array(16)"]
NAMES = ["'n'", "'s'", "'b'", "'go'", "'in_n'", "'missing'", "''", "'bone_b'", "'root'", "'s1'", "'hit'",
         "'__proto__'", "'constructor'", "'toString'", "0", "null", "undefined", "{toString(){return 'n'}}",
         "{toString(){throw 1}}", "{toString(){for(;;){}}}", "Symbol()"]
OB_CALLS = ["ob.setInput({n}, {v})", "ob.fire({n})", "ob.emit({n}, {v})", "ob.emit({n}, {{int: {v}, float: {v}, string: {v}}})",
            "ob.setBone({n}, {v})", "ob.setBone({n}, {{x: {v}, y: {v}, rotation: {v}, scaleX: {v}}})",
            "ob.slot({n}, {v})", "ob.slot({n}, {{color: {v}, attachment: {v}}})", "ob.log({v}, {v})",
            "console.log({v})", "ob.input({n})", "ob.bone({n})", "ob.pointer()", "ob.time()",
            "ob.setInput({n}, ob.input({n}))", "JSON.stringify(ob.bone({n}))"]
PRELUDES = {
    "DEEP": "var DEEP = {}; { let p = DEEP; for (let k = 0; k < 50000; k++) { p.a = {}; p = p.a; } }",
    "CYCLE": "var CYCLE = {}; CYCLE.self = CYCLE;",
    "GETTER": "var GETTER = {get x() { for (;;) {} }, get int() { throw new Error('g'); }};",
    "PROXY": "var PROXY = new Proxy({}, {get() { return PROXY; }, ownKeys() { for (;;) {} }, has() { throw 1; }});",
    "THROWER": "var THROWER = {toString() { throw THROWER; }, valueOf() { for (;;) {} }, toJSON() { throw 2; }};",
    "TOJSON": "var TOJSON = {toJSON() { return TOJSON; }};",
    "HUGEKEY": "var HUGEKEY = {}; HUGEKEY['k'.repeat(1 << 20)] = 1;",
}
STATEMENTS = [
    "for (;;) {}", "while (true) { ob.fire('go'); }", "(function f() { f(); })()", "JSON.stringify(DEEP)",
    "String(DEEP)", "JSON.parse('['.repeat(1e5))", "/^(a+)+$/.test('a'.repeat(40) + 'b')",
    "/(x+x+)+y/.exec('x'.repeat(5000))", "'ab'.repeat(1 << 28)", "let s = 'x'; for (;;) s += s;",
    "var keep = keep || []; keep.push(new Array(1 << 20).fill(1));", "new ArrayBuffer(1 << 30)",
    "throw {toString() { for (;;) {} }}", "throw THROWER", "throw Symbol('t')", "throw 10n", "throw null",
    "throw new Proxy({}, {get() { for (;;) {} }})", "JSON.stringify = () => { for (;;) {} }",
    "JSON.parse = null", "Array.prototype.push = () => { throw 3; }", "Array.prototype.join = undefined",
    "Object.defineProperty(Array.prototype, '0', {set(v) { for (;;) {} }, configurable: true})",
    "Object.prototype.toJSON = () => ({forged: true})", "Error.prototype.toString = () => { for (;;) {} }",
    "Object.freeze(Object.prototype)", "globalThis.__ob_leave = () => '[[\"setInput\",\"n\",1]]'",
    "__ob_enter('{}')", "__ob_leave()", "__ob_call('onUpdate', [])", "__ob_load('for(;;){}')",
    "Promise.resolve().then(() => { for (;;) {} })", "(async () => { for (;;) {} })()",
    "eval('for (;;) {}')", "new Function('for (;;) {}')()", "Reflect.apply = null", "String.prototype.slice = null",
    "Object.create = () => ({})", "delete globalThis.ob", "ob.x = 1", "console = null",
    "for (let k = 0; k < 100000; k++) ob.log(k)", "for (let k = 0; k < 5000; k++) ob.setInput('n', k)",
    "ob.log('z'.repeat(1 << 24))", "new Array(1e9)", "[].concat.apply([], new Array(1e6))",
    "Array.from({length: 1e7}, (_, i) => i)", "'x'.padEnd(1e9)", "new Intl.NumberFormat()",
    "setTimeout(() => {}, 0)", "require('fs')", "import('os')", "WeakRef", "globalThis.std", "globalThis.os",
]
HOOKS = ["onStart()", "onUpdate(dt)", "onPointer(p)", "onEvent(e)", "poke()"]


def random_program(rng: random.Random) -> str:
    parts = []
    for name, code in PRELUDES.items():
        if rng.random() < 0.35:
            parts.append(code)

    def stmt() -> str:
        r = rng.random()
        if r < 0.45:
            return rng.choice(OB_CALLS).format(n=rng.choice(NAMES), v=rng.choice(VALUES))
        if r < 0.85:
            return rng.choice(STATEMENTS)
        return "try { " + stmt() + " } catch (e) { ob.log(String(e)); }"

    for _ in range(rng.randint(0, 3)):
        parts.append(stmt() + ";")
    for hook in rng.sample(HOOKS, rng.randint(1, len(HOOKS))):
        body = "; ".join(stmt() for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.3:
            body = f"if (ob.time() > {rng.choice([0, 0.1, 0.3])}) {{ {body} }}"
        parts.append(f"function {hook} {{ {body}; }}")
    # undefined names in fragments are fine: a ReferenceError is a clean outcome
    return "\n".join(p.replace("DEEP", "DEEP") for p in parts)


def machine_doc(code: str, state_code: str) -> openbone.Document:
    from oracles.sm_helpers import doc, layer, state, trans, cond
    events = [{"id": "ev", "name": "hit", "int": 1}]
    a = {"id": "a", "name": "a", "duration": 0.2, "events": [{"time": 0.1, "event": "ev"}], "timelines": []}
    lay = layer([state("A", "a", loop=True), state("B", scripts=["st"])], [trans("A", "B", [cond("go")]),
                                                                         trans("B", "A", [cond("go")])])
    listeners = [{"id": "li", "name": "li", "slot": None, "event": "down",
                  "actions": [{"type": "runScript", "script": "sc", "fn": "poke"}]}]
    bones = [{"id": "root", "name": "root"}, {"id": "b", "name": "bone_b", "parent": "root", "x": 3}]
    slots = [{"id": "s1", "name": "s1", "bone": "b", "attachment": "p"}]
    skins = [{"id": "default", "name": "default", "attachments": {"s1": {"p": {"type": "point"}}}}]
    return doc(inputs=[("n", "number", 0), ("s", "string", ""), ("b", "bool", False), ("go", "trigger", None),
                       ("in_n", "number", 1, "n")],
               layers=[lay], animations=[a], events=events, bones=bones, slots=slots, skins=skins,
               listeners=listeners,
               scripts=[{"id": "sc", "name": "main", "code": code}, {"id": "st", "name": "state", "code": state_code}],
               machine_scripts=["sc"])


class Hang(BaseException):  # not an Exception: the host's error handling must not swallow it
    pass


HUNG = []


def _alarm(signum, frame):
    HUNG.append(True)  # recorded even when the exception is swallowed by the C host callback
    raise Hang()


TYPES = {"number": (float, int), "string": (str,), "bool": (bool,), "trigger": (bool,)}


def check(i) -> str:
    """'' when the instance is consistent, else what is wrong."""
    for iid, name, typ, value in i._sm_inputs:
        if typ != "trigger" and not isinstance(value, TYPES[typ]):
            return f"input {name!r} of type {typ} holds {value!r}"
        if typ == "number" and not math.isfinite(value):
            return f"input {name!r} holds a non-finite number {value!r}"
    for r in i.log:
        if set(r) != {"type", "text", "layer", "time"} or not isinstance(r["text"], str):
            return f"malformed log record {r!r}"
        if len(r["text"].encode()) > 16384 + 3:
            return f"a log record of {len(r['text'])} characters"
    i.clear_log()
    return ""


def run_one(rng: random.Random, code: str, state_code: str) -> (str, int):
    d = machine_doc(code, state_code)
    i = openbone.Instance(d, state_machine="m")
    advances = 0
    steps = [1 / 60, 0.1, 0.1, 0.25, -0.05, 1e9, math.nan, 0.1, 1 / 60, math.inf, 0.05]
    rng.shuffle(steps)
    for dt in steps[:rng.randint(3, len(steps))]:
        if rng.random() < 0.5:
            i.pointer(rng.choice(["down", "up", "move"]), rng.uniform(-20, 20), rng.uniform(-20, 20))
        if rng.random() < 0.3:
            i.set_input("s", rng.choice(["", "x" * 1000, "\u00e9", "true"]))
        HUNG.clear()
        signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
        try:
            i.advance(dt)
            advances += 1
        except openbone.OpenBoneError as e:
            if math.isfinite(dt) and abs(dt) <= 1e9:
                return f"advance({dt}) raised {e}", advances
        except Hang:
            pass
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        if HUNG:
            return f"advance({dt}) ran past {HANG_SECONDS} s of CPU", advances
        problem = check(i)
        if problem:
            return problem, advances
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    if rss > RSS_LIMIT_MB:
        return f"the process grew to {rss} MiB", advances
    return "", advances


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--programs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", default=None, help="directory for the programs of findings")
    args = ap.parse_args(argv)
    if not scripting.AVAILABLE:
        print("fuzz_scripts: quickjs-ng is not installed", file=sys.stderr)
        return 2
    signal.signal(signal.SIGPROF, _alarm)
    rng = random.Random(args.seed)
    deadline = time.monotonic() + (args.seconds if args.seconds is not None else 1e18)
    limit = args.programs if args.programs is not None else (None if args.seconds is not None else 200)
    programs = advances = findings = 0
    while time.monotonic() < deadline and (limit is None or programs < limit):
        code, state_code = random_program(rng), random_program(rng)
        try:
            problem, n = run_one(rng, code, state_code)
        except Exception as e:  # anything but the documented errors is a finding
            problem, n = f"{type(e).__name__}: {e}", 0
        programs += 1
        advances += n
        if problem:
            findings += 1
            print(f"finding {findings} (program {programs}): {problem}", file=sys.stderr)
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, f"script-{args.seed}-{programs}.json"), "w") as f:
                    json.dump({"problem": problem, "machine": code, "state": state_code}, f, indent=1)
    print(f"programs: {programs}, advances: {advances}, findings: {findings}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
