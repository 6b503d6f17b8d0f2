"""The conformance runner: `openbone conformance run` and `compare`.

Implements ../shared/conformance/FORMAT.md (the case and sample contract) and the
tolerance table of runtime spec §1.
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, Iterable, List, Optional, Tuple

from .document import Document, OpenBoneError, load
from .instance import Instance


def js_round4(v: float) -> float:
    """``Math.round(v * 1e4) / 1e4`` with ``-0`` written as ``0`` (FORMAT.md)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return v
    if not math.isfinite(v):
        return v
    x = v * 1e4
    r = math.floor(x)
    if x - r >= 0.5:  # Math.round: the nearest integer, ties towards +infinity
        r += 1
    out = r / 1e4
    return 0.0 if out == 0 else out


def _num(v: float) -> Any:
    """A rounded number as JSON writes it: integers without a fraction."""
    r = js_round4(float(v))
    if isinstance(r, float) and r.is_integer() and abs(r) < 2**53:
        return int(r)
    return r


def _color(c) -> List[Any]:
    return [_num(x) for x in c]


# ---- running cases ----------------------------------------------------------

class CaseError(Exception):
    pass


def _call(inst: Instance, method: str, *args):
    fn = getattr(inst, method, None)
    if fn is None:
        raise CaseError(f"this build of openbone does not support {method}() yet")
    return fn(*args)


def _run_action(inst: Instance, action: Dict[str, Any]) -> None:
    if not isinstance(action, dict) or len(action) != 1:
        raise CaseError(f"an action must be an object with one key, got {action!r}")
    (kind, arg), = action.items()
    if kind == "setSkin":
        inst.set_skin(arg)
    elif kind == "setInput":
        _call(inst, "set_input", arg[0], arg[1])
    elif kind == "fire":
        _call(inst, "fire", arg)
    elif kind == "pointer":
        _call(inst, "pointer", arg[0], arg[1], arg[2])
    elif kind == "setText":
        _call(inst, "set_text", arg[0], arg[1])
    elif kind == "setAnimation":
        _call(inst, "set_animation", arg.get("track", 0), arg["animation"], bool(arg.get("loop", False)),
              arg.get("mix", 0.2))
    elif kind == "addAnimation":
        _call(inst, "add_animation", arg.get("track", 0), arg["animation"], bool(arg.get("loop", False)),
              arg.get("delay", 0), arg.get("mix", 0.2))
    elif kind == "emitParticles":
        _call(inst, "emit_particles", arg[0], arg[1])
    elif kind == "setEmitter":
        _call(inst, "set_emitter", arg[0], arg[1])
    else:
        raise CaseError(f"unknown action {kind!r}")


def _sample(inst: Instance, step: int, time: float, case: Dict[str, Any]) -> Dict[str, Any]:
    doc = inst.document
    world = inst.world
    bones = []
    for i, b in enumerate(doc.bones):
        a, bb, c, d, x, y = world[i]
        bones.append({"name": b.name, "x": _num(x), "y": _num(y), "a": _num(a), "b": _num(bb),
                      "c": _num(c), "d": _num(d)})
    colors, darks, has_dark = inst.slot_colors, inst.slot_darks, inst.slot_has_dark
    atts = inst.slot_attachments
    slots = []
    for i in inst.draw_order:
        i = int(i)
        slots.append({"name": doc.slots[i].name, "attachment": atts[i], "color": _color(colors[i]),
                      "dark": _color(darks[i]) if has_dark[i] else None})
    sample: Dict[str, Any] = {"step": step, "time": _num(time), "bones": bones, "slots": slots}
    sample["draw"] = _draw(inst) if hasattr(inst, "draw_list") else []
    sample["events"] = _events(inst) if hasattr(inst, "events") else []
    sample["audio"] = inst.conformance_audio() if hasattr(inst, "conformance_audio") else []
    sample["states"] = list(inst.active_states) if getattr(inst, "state_machine", None) is not None else []
    if case.get("bounds"):
        if not hasattr(inst, "bounds"):
            raise CaseError("this build of openbone does not support bounds() yet")
        sample["bounds"] = inst.bounds().conformance(case.get("queries") or [])
    return sample


def _draw(inst: Instance) -> List[Dict[str, Any]]:
    out = []
    for item in inst.draw_list():
        out.append(item.conformance() if hasattr(item, "conformance") else item)
    return out


def _events(inst: Instance) -> List[Dict[str, Any]]:
    out = []
    for e in inst.events:
        out.append({"name": e["name"], "time": _num(e["time"]), "int": _num(e.get("int", 0)),
                    "float": _num(e.get("float", 0)), "string": e.get("string", "")})
    return out


def run_case(doc: Document, case: Dict[str, Any]) -> Dict[str, Any]:
    """Runs one case on a fresh instance (FORMAT.md) and returns its samples."""
    name = case.get("name")
    sm = case.get("stateMachine")
    if sm is not None:
        inst = Instance(doc, state_machine=sm)  # type: ignore[call-arg]
    else:
        inst = Instance(doc)
    if case.get("skin") is not None:
        inst.set_skin(case["skin"])
    samples = []
    if case.get("setup"):
        if case.get("skin") is not None:
            inst.pose_setup()
        samples.append(_sample(inst, 0, 0.0, case))
        return {"name": name, "samples": samples}
    for t in case.get("tracks") or []:
        _call(inst, "set_animation", t.get("track", 0), t["animation"], bool(t.get("loop", False)), 0)
    for q in case.get("queue") or []:
        _call(inst, "add_animation", q.get("track", 0), q["animation"], bool(q.get("loop", False)),
              q.get("delay", 0), q.get("mix", 0.2))
    step = 0
    time = 0.0
    for group in case.get("steps") or []:
        for action in group.get("actions") or []:
            _run_action(inst, action)
        dt = float(group["dt"])
        for _ in range(int(group.get("repeat", 1))):
            inst.advance(dt)
            time += dt  # §12: summed exactly as given, never i * dt
            step += 1
            samples.append(_sample(inst, step, time, case))
    return {"name": name, "samples": samples}


def run(cases_path: str) -> Tuple[Dict[str, Any], bool]:
    """Runs every case of a case file; returns the sample file and whether any case errored."""
    with open(cases_path, "r", encoding="utf-8") as f:
        spec = json.load(f)
    doc_ref = spec["document"]
    doc_path = os.path.join(os.path.dirname(os.path.abspath(cases_path)), doc_ref)
    out: Dict[str, Any] = {"document": doc_ref, "cases": []}
    errored = False
    try:
        doc: Optional[Document] = load(doc_path)
        doc_error = None
    except (OSError, OpenBoneError) as e:
        doc, doc_error = None, f"cannot load {doc_ref}: {e}"
    for case in spec.get("cases", []):
        if doc is None:
            out["cases"].append({"name": case.get("name"), "error": doc_error})
            errored = True
            continue
        try:
            out["cases"].append(run_case(doc, case))
        except (CaseError, OpenBoneError, KeyError, TypeError, ValueError, IndexError) as e:
            msg = str(e) if not isinstance(e, KeyError) else f"missing field {e}"
            out["cases"].append({"name": case.get("name"), "error": msg})
            errored = True
    return out, errored


# ---- comparing --------------------------------------------------------------

COLOR = 1 / 255


def tolerance(path: Tuple[Any, ...], item_type: Optional[str]) -> Optional[float]:
    """§1 tolerance for a value at `path` inside a sample (None: exact)."""
    head = path[0]
    last = next((p for p in reversed(path) if isinstance(p, str)), None)
    if head == "bones":
        return 1e-3 if last in ("x", "y") else 1e-4 if last in ("a", "b", "c", "d") else None
    if head == "slots":
        return COLOR if last in ("color", "dark") else None
    if head == "draw":
        if last in ("color", "dark", "colors"):
            return COLOR
        if last == "vertices":
            return 1e-2 if item_type == "particles" else 1e-3
        if last == "uvs":
            return 1e-3
        return None
    if head == "events":
        return 1e-4 if last == "float" else None
    if head == "audio":
        return 1e-4
    if head == "bounds":
        if "queries" in path:
            return None
        return 1e-3
    if head == "time":
        return None
    return None


def _fmt_path(path: Iterable[Any]) -> str:
    s = ""
    for p in path:
        s += f"[{p}]" if isinstance(p, int) else (f".{p}" if s else str(p))
    return s


def _walk(exp: Any, act: Any, path: Tuple[Any, ...], item_type: Optional[str], out: List[Tuple[str, Any, Any]]):
    if isinstance(exp, dict) and isinstance(act, dict):
        if path and path[0] == "draw" and len(path) == 2:
            item_type = exp.get("type")
        for k in exp:
            if k not in act:
                out.append((_fmt_path(path + (k,)), exp[k], "<missing>"))
            else:
                _walk(exp[k], act[k], path + (k,), item_type, out)
        for k in act:
            if k not in exp:
                out.append((_fmt_path(path + (k,)), "<missing>", act[k]))
        return
    if isinstance(exp, list) and isinstance(act, list):
        if len(exp) != len(act):
            out.append((_fmt_path(path) + ".length", len(exp), len(act)))
        for i, (e, a) in enumerate(zip(exp, act)):
            _walk(e, a, path + (i,), item_type, out)
        return
    num = (int, float)
    if isinstance(exp, num) and isinstance(act, num) and not isinstance(exp, bool) and not isinstance(act, bool):
        tol = tolerance(path, item_type) if path else None
        if tol is None:
            if exp != act:
                out.append((_fmt_path(path), exp, act))
        elif not (abs(exp - act) <= tol + 1e-9):
            out.append((_fmt_path(path), exp, act))
        return
    if exp != act or type(exp) is bool and type(act) is not bool or type(act) is bool and type(exp) is not bool:
        out.append((_fmt_path(path), exp, act))


def compare(expected: Dict[str, Any], actual: Dict[str, Any]) -> List[str]:
    """Every difference between two sample files, one line each (empty: they match)."""
    diffs: List[str] = []
    acts = {c.get("name"): c for c in actual.get("cases", [])}
    for ec in expected.get("cases", []):
        name = ec.get("name")
        ac = acts.pop(name, None)
        if ac is None:
            diffs.append(f"case {name}: missing from the actual samples")
            continue
        if "error" in ec or "error" in ac:
            if ("error" in ec) != ("error" in ac):
                diffs.append(f"case {name}: expected {'an error' if 'error' in ec else 'samples'}, "
                             f"got {ac.get('error', 'samples')!r}")
            continue
        es, as_ = ec.get("samples", []), ac.get("samples", [])
        if len(es) != len(as_):
            diffs.append(f"case {name}: expected {len(es)} samples, got {len(as_)}")
        for e, a in zip(es, as_):
            found: List[Tuple[str, Any, Any]] = []
            for k in e:
                if k not in a:
                    found.append((k, e[k], "<missing>"))
                elif k == "step":
                    if e[k] != a[k]:
                        found.append((k, e[k], a[k]))
                else:
                    _walk(e[k], a[k], (k,), None, found)
            for k in a:
                if k not in e:
                    found.append((k, "<missing>", a[k]))
            for path, ev, av in found:
                diffs.append(f"case {name} step {e.get('step')}: {path}: expected {json.dumps(ev)}, got {json.dumps(av)}")
    for name in acts:
        diffs.append(f"case {name}: not in the expected samples")
    return diffs
