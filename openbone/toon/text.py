"""toText (§7.9, §8.7 of the Jabbertoon text): a program as a screenplay-like outline.

Scenes print as headings, say as lines with a parenthetical, does / enter / exit as action lines,
cut as a transition, parallel scripts of a scene as simultaneous action ("meanwhile:"); an
inline behaviour is printed indented under its does; behaviour blocks print in the text's
phrasings (``swish tail 30°, every 0.7 s``, ``reach right hand for the head + 0.1 out and -0.03
up (× its height) in 0.4 s``, ``let the ears follow the head × 2``). One-way: it is not parsed
back.  Numbers print as JavaScript's String(n); a formula prints as written.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from .. import _core
from .runtime import ToonError, cartoon_program, program_json

__all__ = ["to_text"]


def _num(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v).lower()
    if isinstance(v, (int, float)):
        return _core.js_to_string(float(v))
    if isinstance(v, str):
        return f"({v})" if v.startswith("=") else v
    return json.dumps(v)


def _secs(v: Any) -> str:
    return f"{_num(v)} s"


def _over(b: Dict[str, Any], dflt: Any = 0) -> str:
    over = b.get("over", dflt)
    return "" if over in (0, None) else f" in {_secs(over)}"


def _part(b: Dict[str, Any], dflt: str = "") -> str:
    p = b.get("part", dflt)
    if isinstance(p, str) and p.startswith(("part:", "lift:")):
        return p.split(":", 1)[1]
    return str(p)


def _chan(ch: Any) -> str:
    if isinstance(ch, list):
        return " and ".join(_chan(c) for c in ch)
    if isinstance(ch, str) and ch.startswith("part:"):
        return ch[5:]
    return str(ch)


def _freq(b: Dict[str, Any], default_every: Optional[Any] = 1) -> List[str]:
    if "w" in b:
        return [f"{_num(b['w'])} rad/s"]
    if "hz" in b:
        return [f"{_num(b['hz'])} per second"]
    every = b.get("every", default_every)
    return [] if every is None else [f"every {_secs(every)}"]


def _limb(b: Dict[str, Any]) -> str:
    return str(b.get("part", "right hand"))


def _behaviour_text(b: Dict[str, Any]) -> str:
    """One behaviour block's words (§8.7 for the skeleton's)."""
    op = b.get("op")
    if op == "set":
        return f"set {_chan(b.get('ch'))} to {_num(b.get('to'))}"
    if op == "ramp":
        what = f"by {_num(b['by'])}" if "by" in b else f"to {_num(b.get('to'))}"
        return f"ramp {_chan(b.get('ch'))} {what}{_over(b)}"
    if op == "drive":
        return f"drive {_chan(b.get('ch'))} with {_num(b.get('value'))}"
    if op == "wave":
        parts = [f"{b.get('shape', 'sin')} wave on {_chan(b.get('ch'))}"] + _freq(b) + [f"amp {_num(b.get('amp', 1))}"]
        return ", ".join(parts)
    if op == "hop":
        return f"hop {_num(b.get('hz', 2))} per second, {_num(b.get('amp', 30))} px high"
    if op == "gait":
        return f"walk, a step every {_secs(b.get('every', 1))}, stride {_num(b.get('stride', 20))}°"
    if op == "chain":
        parts = [f"{b.get('shape', 'sin')} wave down the {_chan(b.get('ch'))} chain"] + _freq(b)
        parts += [f"amp {_num(b.get('amp', 1))}", f"{_secs(b.get('lag', 0.08))} later each segment"]
        if b.get("falloff", 1) != 1:
            parts.append(f"each × {_num(b['falloff'])}")
        parts.append(f"{_num(b.get('segments', 4))} segments")
        return ", ".join(parts)
    if op == "follow":
        return (f"{_chan(b.get('ch'))} {_num(b.get('gain', 1))} × behind {_chan(b.get('source'))}, springing "
                f"{_num(b.get('hz', 2))} per second, damping {_num(b.get('damping', 0.3))}")
    if op in ("reach", "release"):
        if op == "release":
            return f"let go with {_limb(b)}{_over(b, 0.4)}"
        if "to" in b and isinstance(b["to"], dict):
            text = f"reach {_limb(b)} to x {_num(b['to'].get('x'))}, y {_num(b['to'].get('y'))}"
        else:
            text = f"reach {_limb(b)} for the {b.get('at')}"
            if b.get("dx", 0) or b.get("dy", 0):
                text += f" + {_num(b.get('dx', 0))} out and {_num(b.get('dy', 0))} up (× its height)"
        if "hold" in b:
            return text + f", hold {_secs(b['hold'])}, let go"
        return text + _over(b, 0.4)
    if op == "view":
        return f"show the {b.get('to')} view"
    if op == "turnView":
        return f"turn to the {b.get('to', 'side')}{_over(b, 0.24)}"
    if op in ("swish", "flop"):
        dflt = "tail" if op == "swish" else "ears"
        return ", ".join([f"{op} {_part(b, dflt)} {_num(b.get('deg', 20))}°"] + _freq(b, 1 if "every" in b else None))
    if op == "bend":
        return f"bend {_part(b, 'body')} {_num(b.get('deg', 0))}°{_over(b)}"
    if op == "bow":
        return f"bow {_num(b.get('deg', 30))}°{_over(b, 0.6)}"
    if op == "letFollow":
        text = f"let the {_part(b)} follow the {b.get('after', 'body')}"
        return text + (f" × {_num(b['amount'])}" if "amount" in b else "")
    if op in ("move", "moveTo"):
        keys = ("dx", "dy") if op == "move" else ("x", "y")
        what = ", ".join(f"{k} {_num(b[k])}" for k in keys if k in b)
        return f"{'move by' if op == 'move' else 'move to'} {what}{_over(b)}"
    if op in ("turn", "turnTo"):
        return f"turn {'by' if op == 'turn' else 'to'} {_num(b.get('deg'))}°{_over(b)}"
    if op == "scaleTo":
        what = f"× {_num(b['s'])}" if "s" in b else ", ".join(f"{k} × {_num(b[k])}" for k in ("sx", "sy") if k in b)
        return f"scale to {what}{_over(b)}"
    if op == "squash":
        return f"squash {_num(b.get('k'))}{_over(b)}"
    if op in ("setPart", "turnPart"):
        return f"{'set' if op == 'setPart' else 'turn'} {_part(b)} {'to ' if op == 'setPart' else 'by '}" \
               f"{_num(b.get('deg'))}°{_over(b)}"
    if op == "liftPart":
        return f"lift {_part(b)} {_num(b.get('px'))} px{_over(b)}"
    if op in ("bob", "sway", "wobble", "shake", "swingPart"):
        amount = {"bob": ("amp", 10, " px"), "sway": ("deg", 5, "°"), "wobble": ("px", 5, " px"),
                  "shake": ("px", 5, " px"), "swingPart": ("deg", 20, "°")}[op]
        who = f" {_part(b)}" if op == "swingPart" else ""
        freq = _freq(b, 1 / 6 if op == "shake" and not {"w", "hz", "every"} & set(b) else 1)
        return ", ".join([f"{op}{who} {_num(b.get(amount[0], amount[1]))}{amount[2]}"] + freq)
    return None


def _control_text(b: Dict[str, Any]) -> Optional[str]:
    op = b.get("op")
    if op == "wait":
        return f"wait {_secs(b['for'])}" if "for" in b else f"wait until {_secs(b.get('until'))}"
    if op == "for":
        return (f"for {_secs(b['for'])}:" if "for" in b else f"until {_secs(b.get('until'))}:")
    if op == "while":
        return f"while {_num(b.get('cond'))}:"
    if op == "until":
        return f"until {_num(b.get('cond'))}" + (":" if b.get("body") else "")
    if op == "repeat":
        return f"repeat {_num(b.get('times'))} times:"
    if op == "forever":
        return "forever:"
    if op == "if":
        return f"if {_num(b.get('cond'))}:"
    if op == "together":
        return "together:"
    if op == "stop":
        return "stop"
    if op == "stopAll":
        return "stop all"
    if op == "setVar":
        return f"set {b.get('var')} to {_num(b.get('value'))}"
    if op == "changeVar":
        return f"change {b.get('var')} by {_num(b.get('by', 1))}"
    if op == "window":
        to = f" to {_secs(b['to'])}" if "to" in b else " to the end"
        return f"from {_secs(b.get('from', 0))}{to}:"
    return None


def _slug(behaviour: Any) -> str:
    if isinstance(behaviour, dict) and "id" in behaviour and "scripts" not in behaviour:
        behaviour = behaviour["id"]
    if isinstance(behaviour, str):
        return behaviour.rsplit(":", 1)[-1]
    if isinstance(behaviour, dict):
        return str(behaviour.get("name") or "this")
    return "something"


def _side(name: str) -> str:
    return f"the {name}" if name in ("left", "right", "top", "bottom") else str(name)


def _at(b: Dict[str, Any]) -> str:
    """enter's own spot: " at x 0.3, y 0.8" (else it comes back to the one it left)"""
    parts = [f"{k} {_num(b[k])}" for k in ("x", "y") if k in b]
    return f" at {', '.join(parts)}" if parts else ""


def _scene_text(b: Dict[str, Any]) -> Optional[str]:
    op = b.get("op")
    who = b.get("who")
    if op == "say":
        extra = [str(b["mood"])] if "mood" in b else []  # the parenthetical: mood, then how it is voiced
        if "voice" in b:
            extra.append(f"in the {b['voice']} voice")
        if "speed" in b:
            extra.append(f"{_num(b['speed'])}× speed")
        if "pitch" in b:
            extra.append(f"pitch {_num(b['pitch'])}")
        return f'{who} says "{b.get("text", "")}"' + (f" ({', '.join(extra)})" if extra else "")
    if op == "does":
        also = "also " if b.get("also") else ""
        beh = b.get("behaviour")
        inline = isinstance(beh, dict) and "scripts" in beh
        text = f"{who} {also}does {_slug(beh) if not inline or beh.get('name') else 'this'}"
        return text + (f" for {_secs(b['for'])}" if "for" in b else "") + (":" if inline else "")
    if op == "caption":
        return f'caption "{b.get("text", "")}"' + (f" for {_secs(b['for'])}" if "for" in b else "")
    if op == "cut":
        if "place" in b:
            return f"cut to {b['place']}" + (f" ({b['mood']})" if "mood" in b else "")
        return f"the mood turns {b.get('mood')}"
    if op == "place":
        parts = [f"{k} {_num(b[k])}" for k in ("x", "y", "h") if k in b]
        if "facing" in b:
            parts.append("facing " + ("left" if b["facing"] == -1 else "right" if b["facing"] == 1 else _num(b["facing"])))
        return f"place {who} at {', '.join(parts)}{_over(b)}" if parts else f"show {who}{_over(b)}"
    if op == "enter":
        return f"{who} enters from {_side(b.get('from', 'left'))}{_at(b)}{_over(b)}"
    if op == "exit":
        return f"{who} exits to {_side(b.get('to', 'right'))}{_over(b)}"
    if op == "mood":
        return f"{who} looks {b.get('mood')}"
    return None


def _blocks(body: Any, depth: int, out: List[str]) -> None:
    pad = "  " * depth
    if not isinstance(body, list):
        return
    for b in body:
        if not isinstance(b, dict):
            out.append(pad + "?")
            continue
        text = _scene_text(b) or _control_text(b) or _behaviour_text(b)
        if text is None:
            text = f"{b.get('op')} (an unknown block)"
        if "note" in b:
            text += f"  [{b['note']}]"
        out.append(pad + text)
        op = b.get("op")
        if op == "does" and isinstance(b.get("behaviour"), dict) and "scripts" in b["behaviour"]:
            _program(b["behaviour"], depth + 1, out)
        if op == "together":
            for i, br in enumerate(b.get("branches") or []):
                out.append(pad + "  " + ("and:" if i else "with:"))
                _blocks(br, depth + 2, out)
        elif op == "if":
            _blocks(b.get("then"), depth + 1, out)
            if b.get("else"):
                out.append(pad + "else:")
                _blocks(b.get("else"), depth + 1, out)
        else:
            _blocks(b.get("body"), depth + 1, out)


def _hat_text(hat: Any) -> Optional[str]:
    if not isinstance(hat, dict) or hat.get("on", "start") == "start":
        return None
    on = hat.get("on")
    if on == "key":
        return f"when key {hat['key']} is pressed:" if "key" in hat else "when a key is pressed:"
    if on == "scene":
        return f'when scene "{hat["name"]}" starts:' if "name" in hat else "when a scene starts:"
    return f"on {on}:"


def _program(p: Dict[str, Any], depth: int, out: List[str]) -> None:
    pad = "  " * depth
    kind = p.get("kind", "behaviour")
    scripts = p.get("scripts") if isinstance(p.get("scripts"), list) else []
    if kind == "behaviour":
        if p.get("name") and depth == 0:
            out.append(f'behaviour "{p["name"]}"')
        for i, s in enumerate(scripts):
            if not isinstance(s, dict):
                continue
            hat = _hat_text(s.get("hat"))
            if i and hat is None:
                out.append(pad + "meanwhile:")
            if hat:
                out.append(pad + hat)
            _blocks(s.get("body"), depth + (1 if hat or i else 0), out)
        return
    cast = p.get("cast") if isinstance(p.get("cast"), dict) else {}
    if cast:
        names = []
        for cid, e in cast.items():
            name = e.get("name") if isinstance(e, dict) else e
            names.append(f"{cid} = {name}" if name else str(cid))
        out.append(pad + "cast: " + ", ".join(names))
    order: List[str] = []
    by_scene: Dict[str, List[Dict[str, Any]]] = {}
    heads: Dict[str, Dict[str, Any]] = {}
    for s in scripts:
        if not isinstance(s, dict):
            continue
        hat = s.get("hat") if isinstance(s.get("hat"), dict) else {}
        name = hat.get("name") or (order[0] if kind == "scene" and order else p.get("name") or "scene")
        if kind == "scene" and order:
            name = order[0]
        if name not in by_scene:
            order.append(name)
            by_scene[name] = []
            heads[name] = hat
        by_scene[name].append(s)
    for name in order:
        hat = heads[name]
        head = f'scene "{name}"'
        if hat.get("place"):
            head += f" at {hat['place']}"
        if hat.get("mood"):
            head += f" ({hat['mood']})"
        if "at" in hat:
            head += f", from {_secs(hat['at'])}"
        out.append(pad + head)
        for i, s in enumerate(by_scene[name]):
            if i:
                out.append(pad + "  meanwhile:")
            _blocks(s.get("body"), depth + (2 if i else 1), out)


def to_text(program: Any) -> str:
    """toText(program): the screenplay-like outline of a behaviour, scene or cartoon (§7.9, §8.7)."""
    if isinstance(program, (str, bytes)):
        try:
            program = json.loads(program)
        except ValueError as e:
            raise ToonError(f"program: not JSON ({e})") from None
    if isinstance(program, dict) and "program" in program and "scripts" not in program:
        program = cartoon_program(program)
    if not isinstance(program, dict):
        raise ToonError("a program is an object {v: 1, kind, scripts}")
    json.loads(program_json(program))  # the same checks as the runtime's (NaN, depth)
    out: List[str] = []
    _program(program, 0, out)
    return "\n".join(out)
