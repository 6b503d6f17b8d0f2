"""§11 scripts: a QuickJS script host for state machines (optional extra ``openbone[scripts]``).

The C core calls the host through ``csrc/scripts.h`` (load / call / free); this
module implements that host with the ``quickjs`` PyPI package.  Each script
runs in its own ``quickjs.Context`` and sees only the global ``ob`` (and
``console.log`` → ``ob.log``).  Arguments and results cross as JSON.

Budgets: 16 ms per call, 50 ms per load (``quickjs`` CPU-time limit).  Errors
and timeouts are reported as ``error`` records in ``inst.log`` and swallowed;
the machine keeps running.

``quickjs`` refuses to call back into Python while a time limit is set, so the
``ob`` functions do not call the runtime directly: before each call the host
hands the script a snapshot (``time``, inputs, bones, pointer) that the reads
use, and the effects (``setInput``, ``fire``, ``emit``, ``setBone``, ``slot``,
``log``) are queued in the script and applied in order right after the call
returns (also when it failed or timed out, for the effects made before).  A
read after a write in the same call therefore sees the value from before the
call.
"""
from __future__ import annotations

import json
import math
import weakref
from typing import Any, Dict, List, Optional, Tuple

try:  # optional extra
    import quickjs  # type: ignore
except ImportError:  # pragma: no cover - exercised when the extra is missing
    quickjs = None

CALL_BUDGET = 0.016  # s, §11
LOAD_BUDGET = 0.050  # s, §11

AVAILABLE = quickjs is not None

_PRELUDE = r"""
(() => {
  let S = {time: 0, inputs: {}, meta: [], bones: {}, pointer: {x: 0, y: 0, down: false}};
  let Q = [];
  const clone = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));
  const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  // A write is applied to the runtime after the call returns; so that a read
  // after a write in the same call sees it (as in the reference), the
  // snapshot takes the §9.5 setInput coercion too.
  const first = (k) => S.meta.findIndex((m) => m[0] === k || m[1] === k);
  const see = (k, v) => {
    const i = first(k);
    if (i < 0) return;
    const [id, name, type] = S.meta[i];
    let x;
    if (type === "number") { x = Number(v); if (!Number.isFinite(x)) return; }
    else if (type === "string") x = String(v);
    else if (type === "bool") x = typeof v === "string" ? v === "true" : !!v;
    else return;  // triggers: fire() is applied after the call
    for (const key of [id, name]) if (key != null && first(key) === i) S.inputs[key] = x;
  };
  const ob = {
    time: () => S.time,
    input: (n) => { const k = String(n); return has(S.inputs, k) ? S.inputs[k] : undefined; },
    setInput: (n, v) => {
      Q.push(["setInput", String(n), v === undefined ? null : clone(v)]);
      see(String(n), v);
    },
    fire: (n) => { Q.push(["fire", String(n)]); },
    emit: (name, p) => { Q.push(["emit", String(name), p == null ? null : clone(p)]); },
    bone: (n) => { const k = String(n); return has(S.bones, k) ? Object.assign({}, S.bones[k]) : null; },
    setBone: (n, props) => { Q.push(["setBone", String(n), clone(props == null ? {} : props)]); },
    slot: (n, o) => { Q.push(["slot", String(n), clone(o == null ? {} : o)]); },
    pointer: () => Object.assign({}, S.pointer),
    log: (...a) => { Q.push(["log", a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" ")]); },
  };
  Object.freeze(ob);
  Object.defineProperty(globalThis, "ob", {value: ob, enumerable: false});
  globalThis.console = {log: ob.log};
  Object.defineProperty(globalThis, "__ob_enter", {value: (s) => { S = JSON.parse(s); Q = []; }});
  Object.defineProperty(globalThis, "__ob_leave", {value: () => { const q = Q; Q = []; return JSON.stringify(q); }});
  Object.defineProperty(globalThis, "__ob_call", {value: (fn, args) => {
    const f = globalThis[fn];
    if (typeof f === "function") f(...args);
  }});
})();
"""


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
            raise ImportError("the quickjs package is not installed (pip install openbone[scripts])")
        self._inst = weakref.ref(inst)
        self._scripts: Dict[int, Tuple[Any, str, bool]] = {}
        self._next = 0
        self.errors = 0

    # ---- the scripts.h callbacks --------------------------------------------
    def load(self, script: int, name: str, code: str) -> int:
        ctx = quickjs.Context()
        ctx.eval(_PRELUDE)
        uses_bones = "bone" in code
        handle = self._next
        self._next += 1
        self._scripts[handle] = (ctx, name, uses_bones)
        if not self._run(handle, code, LOAD_BUDGET, "load"):
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
        try:
            ctx.set_time_limit(-1)
            ctx.eval("__ob_enter(" + json.dumps(json.dumps(self._snapshot(inst, uses_bones))) + ")")
            ctx.set_time_limit(budget)
            ctx.eval(source)
        except Exception as e:  # JS errors and timeouts: reported, swallowed (§11)
            ok = False
            self.errors += 1
            inst._sm_log("error", f"{name}: {what}: {_message(e)}")
        try:
            ctx.set_time_limit(-1)
            queue = json.loads(ctx.eval("__ob_leave()"))
        except Exception as e:  # pragma: no cover - defensive
            inst._sm_log("error", f"{name}: {what}: {_message(e)}")
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
        kind = cmd[0]
        if kind == "setInput":
            i = inst._sm_find_input(cmd[1])
            if i >= 0:
                inst._sm_set_input(i, _scalar(cmd[2]))
        elif kind == "fire":
            i = inst._sm_find_input(cmd[1])
            if i >= 0:
                inst._sm_fire(i)
        elif kind == "emit":
            p = cmd[2] if isinstance(cmd[2], dict) else {}

            def num(v):
                return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None

            s = p.get("string")
            inst._sm_emit(cmd[1], num(p.get("int")), num(p.get("float")), s if isinstance(s, str) else None)
        elif kind == "setBone":
            b = inst.document.bone_index(cmd[1])
            if b >= 0 and isinstance(cmd[2], dict):
                inst._sm_set_bone(b, cmd[2])
        elif kind == "slot":
            s = inst.document.slot_index(cmd[1])
            o = cmd[2] if isinstance(cmd[2], dict) else {}
            if s >= 0:
                color = parse_hex(o.get("color")) if "color" in o else None
                has_att = "attachment" in o
                att = o.get("attachment")
                inst._sm_set_slot(s, color, has_att, att if isinstance(att, str) else None)
        elif kind == "log":
            inst._sm_log("log", str(cmd[1]))


def _scalar(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return json.dumps(v)
