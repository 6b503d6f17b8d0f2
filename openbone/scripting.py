"""§11 scripts: a QuickJS script host for state machines (optional extra ``openbone[scripts]``).

The C core calls the host through ``csrc/scripts.h`` (load / call / free); this
module implements that host with QuickJS-ng through the ``quickjs-ng`` PyPI
package (``_quickjs``).  Each script runs in its own ``Context`` (its own
QuickJS runtime) and sees only the global ``ob`` (and ``console.log`` →
``ob.log``).  Arguments and results cross as JSON.

The sandbox (README "Security"):

* time: 16 ms of CPU per call, 50 ms per load (the engine's interrupt handler;
  it also stops regular expressions and long built-ins such as ``repeat``);
* memory: each script's runtime may hold ``MEMORY_LIMIT`` bytes (32 MiB); an
  allocation past it fails with ``InternalError: out of memory``;
* stack: ``STACK_LIMIT`` bytes (1 MiB) of C stack, checked by the engine in
  every recursive path (calls, ``JSON.stringify``/``parse``, ``toString``...):
  ``RangeError: Maximum call stack size exceeded``, never a crash;
* no I/O: the context has no ``std``/``os`` modules, no timers, no imports;
  pending promise jobs are never run;
* the host never calls code the script can replace: the glue below captures
  the pristine ``JSON.parse``/``JSON.stringify``/``Reflect.apply``... before
  any script runs, freezes the error classes (so that converting an error
  to text cannot run script code), catches whatever a script throws inside
  JavaScript (converting it under the budget), and keeps the effect queue as
  strings in a closure (a script cannot forge or rewrite it);
* log records are capped: ``LOG_TEXT_MAX`` characters per ``ob.log`` record
  here, and the C core keeps at most 10,000 records / 1 MiB of text between
  two reads of ``Instance.log`` (``csrc/state_machine.c``), counting the rest.

Errors and timeouts are reported as ``error`` records in ``inst.log`` and
swallowed; the machine keeps running.

The ``ob`` functions do not call the runtime directly (the engine is not
re-entered from Python): before each call the host hands the script a snapshot
(``time``, inputs, bones, pointer) that the reads use, and the effects
(``setInput``, ``fire``, ``emit``, ``setBone``, ``slot``, ``log``) are queued in
the script and applied in order right after the call returns (also when it
failed or timed out, for the effects made before).  A read after a write in
the same call sees the write (the snapshot takes the §9.5 coercion).

Why QuickJS-ng rather than the ``quickjs`` package (QuickJS 2021-03-27): with
that engine ``JSON.stringify`` of a deep object overflows the C stack whatever
``set_max_stack_size`` says (SIGSEGV), and a catastrophic regular expression
ignores the time limit (``/^(a+)+$/`` on 34 a's runs for minutes).  QuickJS-ng
checks the stack in those paths and polls the interrupt handler inside the
regexp engine; its Python API is the same.  Both packages install a module
named ``_quickjs`` and Python prefers the old one's file name, so the engine is
loaded from the quickjs-ng distribution's own file (``_load_engine``).
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import sys
import weakref
from typing import Any, Dict, List, Optional, Tuple

CALL_BUDGET = 0.016  # s, §11
LOAD_BUDGET = 0.050  # s, §11
GLUE_BUDGET = 1.0  # s: the host's own enter/leave steps (no script code runs in them)
MEMORY_LIMIT = 32 << 20  # bytes per script runtime
STACK_LIMIT = 1 << 20  # bytes of C stack per script runtime
LOG_TEXT_MAX = 4096  # UTF-16 units per ob.log record (the C core caps bytes too)
QUEUE_MAX = 1 << 20  # UTF-16 units of queued effects per call


def _load_engine():
    """The ``_quickjs`` extension of the ``quickjs-ng`` distribution, or None."""
    try:
        from importlib import metadata
        dist = metadata.distribution("quickjs-ng")
    except Exception:  # not installed (or no metadata)
        return None
    for f in dist.files or ():
        if f.name.startswith("_quickjs.") and f.name.endswith((".so", ".pyd")):
            path = str(f.locate())
            if not os.path.exists(path):
                continue
            loaded = sys.modules.get("_quickjs")
            if loaded is not None and os.path.exists(getattr(loaded, "__file__", "") or "") \
                    and os.path.samefile(loaded.__file__, path):
                return loaded
            spec = importlib.util.spec_from_file_location("_quickjs", path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)  # not put in sys.modules: the name may be another package's
            return module
    return None


quickjs = _load_engine()
AVAILABLE = quickjs is not None

# The glue.  Everything the host relies on is captured here, before any script
# runs; nothing below reads a global or a prototype a script can replace.
_PRELUDE = r"""
(() => {
  "use strict";
  const G = globalThis;
  const parse = JSON.parse, stringify = JSON.stringify, apply = Reflect.apply;
  const create = Object.create, freeze = Object.freeze, defineProperty = Object.defineProperty;
  const assign = Object.assign, hasOwnF = Object.prototype.hasOwnProperty;
  const NumberF = Number, StringF = String, isFinite = Number.isFinite, slice = String.prototype.slice;
  const join = Array.prototype.join;
  // a flat string: concatenation makes ropes, which the binding cannot convert
  const flat = (s) => parse(stringify(s));
  const geval = eval, ErrorF = Error, RangeErrorF = RangeError, isArray = Array.isArray;
  const has = (o, k) => o !== null && typeof o === "object" && apply(hasOwnF, o, [k]);
  // converting an error to text (here and in the binding) must not run script code
  for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
                   AggregateError, G.InternalError]) {
    if (typeof E === "function") { freeze(E.prototype); freeze(E); }
  }
  let S = {time: 0, inputs: {}, meta: [], bones: {}, pointer: {x: 0, y: 0, down: false}};
  let Q = create(null), n = 0, size = 0;
  // one effect: a JSON array text made of primitives only (no toJSON can run)
  const j = (v) => (v === undefined ? "null" : stringify(v));
  const put = (text) => {
    if (size + text.length > %(QUEUE_MAX)d) throw new RangeErrorF("ob: too many effects in one call");
    Q[n] = text; n++; size += text.length;
  };
  // a plain-data copy, as crossing the boundary as JSON makes it (runs script getters/toJSON,
  // in the script's call and budget)
  const clone = (v) => { const t = stringify(v); return t === undefined ? null : parse(t); };
  const num = (o, k) => { if (!has(o, k)) return null; const v = o[k]; return typeof v === "number" ? v : null; };
  // §9.5 by id or name: the first input whose id or name matches
  const first = (k) => {
    const M = S.meta;
    for (let i = 0; i < M.length; i++) if (M[i][0] === k || M[i][1] === k) return i;
    return -1;
  };
  // §9.5 setInput coercion, done here so that only a scalar crosses, and so
  // that a read after a write in the same call sees it
  const setInput = (k, v) => {
    const i = first(k);
    if (i < 0) return;
    const [id, name, type] = S.meta[i];
    if (type === "trigger") { put("[\"fire\"," + j(k) + "]"); return; }
    let x;
    if (type === "number") { x = NumberF(v); if (!isFinite(x)) return; }
    else if (type === "string") x = StringF(v);
    else if (type === "bool") x = typeof v === "string" ? v === "true" : !!v;
    else return;
    put("[\"setInput\"," + j(k) + "," + j(x) + "]");
    for (const key of [id, name]) if (key != null && first(key) === i) S.inputs[key] = x;
  };
  const cap = (s) => (s.length > %(LOG_TEXT_MAX)d ? apply(slice, s, [0, %(LOG_TEXT_MAX)d]) + "\u2026" : s);
  const logText = (a) => {
    let s = "";
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const t = typeof x === "string" ? x : stringify(x);
      s += (i ? " " : "") + (t === undefined ? "" : t);  // as Array.prototype.join writes undefined
      if (s.length > %(LOG_TEXT_MAX)d) break;
    }
    return cap(s);
  };
  const ob = {
    time: () => S.time,
    input: (name) => { const k = StringF(name); return has(S.inputs, k) ? S.inputs[k] : undefined; },
    setInput: (name, v) => setInput(StringF(name), v),
    fire: (name) => { put("[\"fire\"," + j(StringF(name)) + "]"); },
    emit: (name, p) => {
      const k = StringF(name), c = p == null ? null : clone(p);
      const s = has(c, "string") && typeof c.string === "string" ? c.string : null;
      put("[\"emit\"," + j(k) + "," + j(num(c, "int")) + "," + j(num(c, "float")) + "," + j(s) + "]");
    },
    bone: (name) => { const k = StringF(name); return has(S.bones, k) ? assign({}, S.bones[k]) : null; },
    setBone: (name, props) => {
      const k = StringF(name), c = clone(props == null ? {} : props);
      if (c === null || typeof c !== "object" || isArray(c)) return;
      let t = "";
      for (const f of ["rotation", "x", "y", "scaleX", "scaleY", "shearX", "shearY"]) {
        const v = has(c, f) ? c[f] : null;  // numbers (true/false count as 1/0)
        if (typeof v === "number" || typeof v === "boolean") t += "," + j(f) + "," + j(NumberF(v));
      }
      put("[\"setBone\"," + j(k) + t + "]");
    },
    slot: (name, o) => {
      const k = StringF(name), c = clone(o == null ? {} : o);
      const hc = has(c, "color"), color = hc && typeof c.color === "string" ? c.color : null;
      const ha = has(c, "attachment"), att = ha && typeof c.attachment === "string" ? c.attachment : null;
      put("[\"slot\"," + j(k) + "," + j(hc) + "," + j(color) + "," + j(ha) + "," + j(att) + "]");
    },
    pointer: () => assign({}, S.pointer),
    log: (...a) => { put("[\"log\"," + j(logText(a)) + "]"); },
  };
  freeze(ob);
  defineProperty(G, "ob", {value: ob, enumerable: false});
  G.console = {log: ob.log};
  // a thrown value as text, converted in the script's budget; never throws
  const describe = (e) => {
    try {
      if (e instanceof ErrorF) return flat(cap(StringF(e.name) + ": " + StringF(e.message)));
      return flat(cap("uncaught " + (typeof e === "symbol" ? "symbol" : StringF(e))));
    } catch (e2) {
      return "uncaught exception (not convertible to text)";
    }
  };
  defineProperty(G, "__ob_enter", {value: (text) => {
    const x = parse(text);
    const p = x.patch;  // non-finite numbers, which JSON cannot carry: [path..., "NaN"]
    for (let i = 0; i < p.length; i++) {
      let o = x, q = p[i];
      for (let k = 0; k < q.length - 2; k++) o = o[q[k]];
      o[q[q.length - 2]] = NumberF(q[q.length - 1]);
    }
    S = x.snapshot; Q = create(null); n = 0; size = 0;
  }});
  // the queued effects, comma-separated (the host adds the brackets); Q is a
  // null-prototype object holding strings, so join runs no script code
  defineProperty(G, "__ob_leave", {value: () => {
    Q.length = n;
    const out = apply(join, Q, [","]);
    Q = create(null); n = 0; size = 0;
    return out;
  }});
  // runs a script's top level (global code, by indirect eval) or one of its
  // functions; returns null, or the text of what it threw
  defineProperty(G, "__ob_export", {value: (name, f) => { G[name] = f; }});
  defineProperty(G, "__ob_load", {value: (code) => {
    try { geval(code); return null; } catch (e) { return describe(e); }
  }});
  defineProperty(G, "__ob_call", {value: (fn, args) => {
    try {
      const f = G[fn];
      if (typeof f === "function") apply(f, undefined, args);
      return null;
    } catch (e) { return describe(e); }
  }});
})();
""" % {"QUEUE_MAX": QUEUE_MAX, "LOG_TEXT_MAX": LOG_TEXT_MAX}


def parse_hex(h: Any) -> Optional[Tuple[float, float, float, float]]:
    """§4.5 parseHex: drop the first ``#``; 3/4 digits doubled; channel i = parseInt(2 digits, 16)/255;
    alpha 1 unless ≥ 8 digits.  Not a string ⇒ None."""
    if not isinstance(h, str):
        return None
    s = h.replace("#", "", 1)
    if len(s) in (3, 4):
        s = "".join(c + c for c in s)

    def channel(i: int) -> float:
        part = s[2 * i:2 * i + 2]
        digits = ""
        for c in part:  # parseInt: leading hex digits
            if c in "0123456789abcdefABCDEF":
                digits += c
            else:
                break
        return int(digits, 16) / 255 if digits else math.nan

    return (channel(0), channel(1), channel(2), channel(3) if len(s) >= 8 else 1.0)


def _message(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


class QuickJSHost:
    """The §11 host of one instance's state machine (plugged in by ``StateMachineAPI``)."""

    def __init__(self, inst):
        if quickjs is None:
            raise ImportError("the quickjs-ng package is not installed (pip install openbone[scripts])")
        self._inst = weakref.ref(inst)
        self._scripts: Dict[int, Tuple[Any, str, bool]] = {}
        self._next = 0
        self.errors = 0

    # ---- the scripts.h callbacks --------------------------------------------
    def load(self, script: int, name: str, code: str) -> int:
        ctx = quickjs.Context()
        ctx.set_memory_limit(MEMORY_LIMIT)
        ctx.set_max_stack_size(STACK_LIMIT)
        ctx.set_time_limit(GLUE_BUDGET)
        ctx.eval(_PRELUDE)
        uses_bones = "bone" in code
        handle = self._next
        self._next += 1
        self._scripts[handle] = (ctx, name, uses_bones)
        if not self._run(handle, "__ob_load(" + json.dumps(_global_code(code)) + ")", LOAD_BUDGET, "load"):
            del self._scripts[handle]
            return -1
        return handle

    def call(self, handle: int, fn: str, json_args: str) -> bool:
        if handle not in self._scripts:
            return True
        return self._run(handle, f"__ob_call({json.dumps(fn)}, {json_args})", CALL_BUDGET, fn)

    def free(self, handle: int) -> None:
        self._scripts.pop(handle, None)

    # ---- internals ------------------------------------------------------------
    def _run(self, handle: int, source: str, budget: float, what: str) -> bool:
        inst = self._inst()
        if inst is None:
            return False
        ctx, name, uses_bones = self._scripts[handle]
        ok = True

        def report(text: str) -> None:
            nonlocal ok
            ok = False
            self.errors += 1
            inst._sm_log("error", f"{name}: {what}: {text}")

        try:
            ctx.set_time_limit(GLUE_BUDGET)
            ctx.eval("__ob_enter(" + json.dumps(_encode_snapshot(self._snapshot(inst, uses_bones))) + ")")
            ctx.set_time_limit(budget)
            thrown = ctx.eval(source)  # null, or the text of what the script threw
            if isinstance(thrown, str):
                report(thrown)
        except Exception as e:  # timeouts (uncatchable in JS), out of memory in the glue
            report(_message(e))
        try:
            ctx.set_time_limit(GLUE_BUDGET)
            queue = json.loads("[" + ctx.eval("__ob_leave()") + "]")
        except Exception as e:  # pragma: no cover - defensive (out of memory)
            report(f"effects lost: {_message(e)}")
            return False
        for cmd in queue:
            try:
                self._apply(inst, cmd)
            except Exception as e:
                inst._sm_log("error", f"{name}: {what}: ob.{cmd[0]}: {_message(e)}")
        return ok

    @staticmethod
    def _snapshot(inst, uses_bones: bool) -> Dict[str, Any]:
        x, y, down = inst._sm_pointer_state
        snap: Dict[str, Any] = {"time": inst._sm_elapsed, "pointer": {"x": x, "y": y, "down": down},
                                "inputs": inst._sm_input_table(), "bones": {},
                                "meta": [[iid, nm, t] for iid, nm, t, _v in inst._sm_inputs]}
        if uses_bones:
            bones = {}
            for b in reversed(inst.document.bones):  # names win over ids, first wins
                v = inst._sm_bone(b.index)
                bones[b.id] = v
            for b in reversed(inst.document.bones):
                bones[b.name] = inst._sm_bone(b.index)
            snap["bones"] = bones
        return snap

    @staticmethod
    def _apply(inst, cmd: List[Any]) -> None:
        """One effect, as the glue wrote it (kinds and field types are the glue's)."""
        kind = cmd[0]
        if kind == "setInput":
            i = inst._sm_find_input(cmd[1])
            if i >= 0:
                inst._sm_set_input(i, cmd[2])
        elif kind == "fire":
            i = inst._sm_find_input(cmd[1])
            if i >= 0:
                inst._sm_fire(i)
        elif kind == "emit":
            inst._sm_emit(cmd[1], cmd[2], cmd[3], cmd[4])
        elif kind == "setBone":
            b = inst.document.bone_index(cmd[1])
            if b >= 0:
                inst._sm_set_bone(b, dict(zip(cmd[2::2], cmd[3::2])))
        elif kind == "slot":
            s = inst.document.slot_index(cmd[1])
            if s >= 0:
                color = parse_hex(cmd[3]) if cmd[2] else None
                inst._sm_set_slot(s, color, bool(cmd[4]), cmd[5])
        elif kind == "log":
            inst._sm_log("log", cmd[1])


_RESERVED = frozenset("""break case catch class const continue debugger default delete do else enum export extends
false finally for function if import in instanceof new null return super switch this throw true try typeof var void
while with yield let static implements interface package private protected public await arguments eval""".split())
_DECLARED = re.compile(r"\b(?:function\s*\*?|var)\s+([A-Za-z_$][\w$]*)")
_PROLOGUE = re.compile(r"""\s+|//[^\n]*|/\*[\s\S]*?\*/|(?P<q>["'])(?P<d>(?:(?!(?P=q))[^\\\n]|\\.)*)(?P=q)\s*;?""")


def _is_strict(code: str) -> bool:
    """Whether the script's directive prologue holds "use strict"."""
    i = 0
    while True:
        m = _PROLOGUE.match(code, i)
        if not m or m.end() == i:
            return False
        if m.group("q") and m.group("d") == "use strict":
            return True
        i = m.end()


def _global_code(code: str) -> str:
    """The script as the glue evaluates it: indirect eval is global code, so function and var
    declarations become globals as in a script, except in strict code, whose declarations stay
    in the eval's scope.  For strict code an epilogue publishes the functions it declared with
    `function NAME` or `var NAME` (what a strict script would make global)."""
    if not _is_strict(code):
        return code
    names = sorted({n for n in _DECLARED.findall(code) if n not in _RESERVED})
    epilogue = "".join(f'try {{ if (typeof {n} === "function") __ob_export("{n}", {n}); }} catch (e) {{}}\n'
                       for n in names)
    return code + "\n;\n" + epilogue


def _encode_snapshot(snap: Dict[str, Any]) -> str:
    """The snapshot as JSON text for ``__ob_enter``: ``{"snapshot": ..., "patch": [...]}``, where
    the patch lists the non-finite numbers (NaN, ±Infinity; JSON has none) by path, written null
    in the snapshot and restored by the glue, so that the script sees what the runtime has."""
    try:
        return json.dumps({"snapshot": snap, "patch": []}, allow_nan=False)
    except ValueError:
        pass
    patch: List[List[Any]] = []

    def walk(v: Any, path: List[Any]) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            patch.append(path + ["NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")])
            return None
        if isinstance(v, dict):
            return {k: walk(x, path + [k]) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [walk(x, path + [k]) for k, x in enumerate(v)]
        return v

    clean = walk(snap, ["snapshot"])
    return json.dumps({"snapshot": clean, "patch": patch}, allow_nan=False)
