"""The Jabbertoon runtime contract (§6 of the Jabbertoon text) in snake_case.

Programs are compiled once by the C core (``openbone._core.toon_load``: validation, the friendly
blocks' desugaring, every formula to bytecode); the runtime is the C scheduler.  This module only
converts arguments, keeps compiled programs for the objects they came from, and builds results.
"""
from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import MutableMapping
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from .. import _core
from .._core import ToonError

__all__ = ["Program", "Runtime", "Behaviour", "create_runtime", "compile_program", "validate", "pose_at",
           "ToonError", "to_number", "cartoon_program", "scenes_of", "estimate_speech"]


def to_number(v: Any) -> float:
    """JavaScript ToNumber for the values a page passes (params, inputs, rt.vars)."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if v is None:
        return 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        return _core.toon_to_number(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        raise ToonError(f"expected a number, got {type(v).__name__}") from None


def _finite(node: Any) -> Any:
    """A program with NaN / ±Infinity numbers (which JSON cannot hold) written as the
    formulas that give them, so they run as the text says a non-finite value runs."""
    if isinstance(node, float) and not math.isfinite(node):
        return "=0/0" if math.isnan(node) else ("=1/0" if node > 0 else "=-1/0")
    if isinstance(node, dict):
        return {k: _finite(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [_finite(v) for v in node]
    return node


def program_json(program: Any) -> str:
    """The JSON text of a program given as a dict, a list, JSON text or bytes."""
    if isinstance(program, bytes):
        return program.decode("utf-8", "replace")
    if isinstance(program, str):
        return program
    try:
        return json.dumps(_finite(program), ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise ToonError("nested too deeply (JSON allows 1000 levels here)") from None
    except (TypeError, ValueError) as e:
        raise ToonError(f"not JSON data ({e})") from None


class Program:
    """A compiled program: validated once, desugared, its formulas compiled (immutable)."""

    __slots__ = ("source", "_core", "warnings")

    def __init__(self, program: Any):
        text = program_json(program)
        core, errors, warnings = _core.toon_load(text)
        if core is None:
            shown = "; ".join(errors[:5]) + (f" (and {len(errors) - 5} more)" if len(errors) > 5 else "")
            raise ToonError(f"invalid program: {shown}")
        self.source = program
        self._core = core
        self.warnings: List[str] = warnings

    @property
    def kind(self) -> str:
        return self._core.kind


_CACHE: "OrderedDict[Any, Tuple[Any, Program]]" = OrderedDict()
_CACHE_SIZE = 256


def compile_program(program: Any) -> Program:
    """The compiled Program of a program object (dict or JSON text), compiled once per object
    ("a program object must not change once it has run", §6)."""
    if isinstance(program, Program):
        return program
    key: Any = ("text", program) if isinstance(program, (str, bytes)) else ("id", id(program))
    hit = _CACHE.get(key)
    if hit is not None and (key[0] == "text" or hit[0] is program):
        _CACHE.move_to_end(key)
        return hit[1]
    compiled = Program(program)
    _CACHE[key] = (program, compiled)  # the object is held, so its id stays its own
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return compiled


def validate(program: Any) -> Dict[str, Any]:
    """§8.6 validate(program) -> {"ok", "errors", "warnings"}; messages are "path: text"."""
    try:
        text = program_json(program)
    except ToonError as e:
        return {"ok": False, "errors": [f"program: {e}"], "warnings": []}
    core, errors, warnings = _core.toon_load(text)
    return {"ok": not errors, "errors": list(errors), "warnings": list(warnings)}


class Behaviour:
    """A behaviour instance started by start_behaviour (pass it to stop_behaviour)."""

    __slots__ = ("id", "char_id")

    def __init__(self, id: int, char_id: str):
        self.id = id
        self.char_id = char_id

    def __int__(self) -> int:
        return self.id

    def __repr__(self) -> str:
        return f"<Behaviour {self.id} on {self.char_id!r}>"


class PageVars(MutableMapping):
    """rt.vars: the page's globals (§5), stored in the C runtime as numbers."""

    def __init__(self, rt: "_core.ToonRuntime"):
        self._rt = rt

    def __getitem__(self, name: str) -> float:
        if not isinstance(name, str):
            raise KeyError(name)
        return self._rt.global_get(name)

    def __setitem__(self, name: str, value: Any) -> None:
        if not isinstance(name, str):
            raise ToonError("a page global's name is a text")
        self._rt.global_set(name, to_number(value))

    def __delitem__(self, name: str) -> None:
        self._rt.global_delete(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._rt.global_names())

    def __len__(self) -> int:
        return len(self._rt.global_names())

    def __repr__(self) -> str:
        return f"PageVars({dict(self)!r})"


def _params(params: Optional[Dict[str, Any]]) -> Optional[List[Tuple[str, float]]]:
    if params is None:
        return None
    if not isinstance(params, dict):
        raise ToonError("params is a dict {name: value}")
    return [(str(k), to_number(v)) for k, v in params.items()]


def _id(char_id: Any) -> str:
    if not isinstance(char_id, str):
        raise ToonError(f"a character id is a text, got {type(char_id).__name__}")
    return char_id


class Runtime:
    """createRuntime (§6): characters, behaviour instances, the scheduler, the pose."""

    def __init__(self, clock: str = "timeline", seed: Any = 0, fps: float = 24, aspect: float = 16 / 9,
                 max_duration: float = 3600, speech=None, packs=None, **ignored: Any):
        if clock not in ("timeline", "live"):
            raise ToonError(f'clock is "timeline" or "live", not {clock!r}')
        for name, v in (("fps", fps), ("aspect", aspect), ("max_duration", max_duration)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ToonError(f"{name} must be a number, got {type(v).__name__}")
        self.clock = clock
        self._rt = _core.ToonRuntime(seed=to_number(seed), fps=float(fps), aspect=float(aspect),
                                     max_duration=float(max_duration), live=clock == "live",
                                     speech=speech, packs=packs)
        self.vars = PageVars(self._rt)
        self._speech = speech
        self._packs = packs
        self.aspect = float(aspect)
        self._rigs: Dict[str, Any] = {}   # issue 15: char id -> RigCharacter (openbone/toon/perform.py)

    # --- characters and behaviours ------------------------------------------------------
    def add_character(self, char_id: str, legs: Any = None, rig: Any = None, **ignored: Any) -> None:
        """``rig``: a RigCharacter the character performs (its legs from the role map; posed at
        every step, openbone/toon/perform.py)."""
        if rig is not None:
            from .perform import check_rig
            check_rig(self, _id(char_id), rig)
            legs = rig.legs if legs is None else legs
        self._rt.add_character(_id(char_id), 2 if legs is None else legs)
        if rig is not None:
            self._rigs[char_id] = rig
            self._pose_rigs()

    @property
    def rigs(self) -> Dict[str, Any]:
        """The characters performed by rigs: {id: RigCharacter} (a copy)."""
        return dict(self._rigs)

    def _pose_rigs(self) -> None:
        if self._rigs:
            from .perform import pose_rigs
            pose_rigs(self)

    @property
    def characters(self) -> List[str]:
        return self._rt.characters()

    def start_behaviour(self, char_id: str, program: Any, dur: Any = None, params: Optional[Dict[str, Any]] = None,
                        **ignored: Any) -> Behaviour:
        compiled = compile_program(program)
        if compiled.kind != "behaviour":
            raise ToonError(f"start_behaviour runs a behaviour, not a {compiled.kind}")
        d = None if dur is None else to_number(dur)
        inst = self._rt.start_behaviour(_id(char_id), compiled._core, d, _params(params))
        return Behaviour(inst, char_id)

    def stop_behaviour(self, inst: Union[Behaviour, int]) -> None:
        self._rt.stop_behaviour(int(inst))

    def set_inputs(self, char_id: str, loud: Any = None, talking: Any = None, **ignored: Any) -> None:
        self._rt.set_inputs(_id(char_id), None if loud is None else to_number(loud),
                            None if talking is None else to_number(talking))

    def emit(self, event: str, char_id: Optional[str] = None, key: Optional[str] = None,
             name: Optional[str] = None, **ignored: Any) -> None:
        if not isinstance(event, str):
            raise ToonError("an event is a text (a hat's on)")
        self._rt.emit(event, char_id, None if key is None else str(key), None if name is None else str(name))

    # --- time and the pose ------------------------------------------------------------------
    def step_to(self, T: Any) -> None:
        self._rt.step_to(to_number(T) if not isinstance(T, (int, float)) else T)
        self._pose_rigs()

    def step(self, dt: Any) -> None:
        self._rt.step(to_number(dt) if not isinstance(dt, (int, float)) else dt)
        self._pose_rigs()

    def pose(self, char_id: str) -> Dict[str, Any]:
        return self._rt.pose(char_id)

    @property
    def t(self) -> float:
        return self._rt.t

    @property
    def polled(self) -> bool:
        return self._rt.polled

    @property
    def inputs_read(self) -> bool:
        return self._rt.inputs_read

    @property
    def pose_drew_random(self) -> bool:
        return self._rt.pose_drew_random

    # --- cartoons (§7) -------------------------------------------------------------------------
    def start_cartoon(self, cartoon: Any, params: Optional[Dict[str, Any]] = None, **ignored: Any) -> Dict[str, Any]:
        """startCartoon(program | {cast, places, program}, {params}) (§7, §6): plans the cartoon on a
        twin runtime, then starts it now; returns {"duration", "timeline"}."""
        self._rt.start_cartoon(program_json(cartoon), _params(params))
        self._timeline = None
        self._cartoon_started = True   # issue 15: rigs now take facing and h from frame() (perform.py)
        return {"duration": self._rt.duration, "timeline": self._rt.timeline()}  # the caller's own list

    def frame(self) -> Dict[str, Any]:
        """rt.frame() (§7.8): the stage, every character's placement and pose, the draw order."""
        return self._rt.frame()

    @property
    def timeline(self) -> List[Dict[str, Any]]:
        """rt.timeline (§7.7): the plan's records in time order (a new list each time)."""
        if getattr(self, "_timeline", None) is None:
            self._timeline = self._rt.timeline()
        return [dict(r) for r in self._timeline]

    @property
    def duration(self) -> Optional[float]:
        return self._rt.duration

    @property
    def warnings(self) -> List[str]:
        return self._rt.warnings()


def create_runtime(clock: str = "timeline", seed: Any = 0, fps: float = 24, aspect: float = 16 / 9,
                   max_duration: float = 3600, speech=None, packs=None, **ignored: Any) -> Runtime:
    """createRuntime(options) (§6); any other keyword is ignored."""
    return Runtime(clock=clock, seed=seed, fps=fps, aspect=aspect, max_duration=max_duration, speech=speech,
                   packs=packs)


# --- poseAt (§6): warm runtimes ------------------------------------------------------------------

_WARM: "OrderedDict[Any, List[list]]" = OrderedDict()
_WARM_KEYS = 32      # programs x settings kept warm
_WARM_PER_KEY = 3    # runtimes per program and settings


def _settings_key(dur, params, legs, seed) -> Optional[str]:
    try:
        return json.dumps([dur, params, legs, seed], sort_keys=True, allow_nan=True)
    except (TypeError, ValueError):
        return None  # settings that cannot be compared by value: from scratch


def _inputs_key(inputs) -> Optional[str]:
    try:
        return json.dumps(inputs, sort_keys=True, allow_nan=True)
    except (TypeError, ValueError):
        return None


def _fresh(compiled: Program, dur, params, legs, inputs, seed) -> Runtime:
    rt = create_runtime(seed=seed)
    rt.add_character("c", legs=legs)
    if inputs:
        rt.set_inputs("c", **{k: v for k, v in inputs.items() if k in ("loud", "talking")})
    rt.start_behaviour("c", compiled, dur=dur, params=params)
    return rt


def pose_at(program: Any, tau: Any, dur: Any = None, params: Optional[Dict[str, Any]] = None, legs: Any = 2,
            inputs: Optional[Dict[str, Any]] = None, seed: Any = 0) -> Dict[str, Any]:
    """One behaviour's pose at tau: the same bits as a fresh runtime started at 0 and stepped
    once to tau.  Runtimes of recent calls stay warm and step on when the next call asks for the
    same or a later time, while that gives the same bits (§6)."""
    compiled = compile_program(program)
    tau = to_number(tau)
    if inputs is not None and not isinstance(inputs, dict):
        raise ToonError("inputs is a dict {loud, talking}")
    skey = _settings_key(dur, params, legs, seed)
    ikey = _inputs_key(inputs)
    pool = None
    if skey is not None and ikey is not None:
        key = (id(compiled), skey)
        pool = _WARM.get(key)
        if pool is None or (pool and pool[0][0] is not compiled):
            pool = []
            _WARM[key] = pool
        _WARM.move_to_end(key)
        while len(_WARM) > _WARM_KEYS:
            _WARM.popitem(last=False)
        best = None
        for entry in pool:
            _, rt, inp = entry
            if rt.t <= tau and not rt.polled and not rt.pose_drew_random and (inp == ikey or not rt.inputs_read):
                if best is None or rt.t > best[1].t:
                    best = entry
        if best is not None:
            _, rt, inp = best
            if inp != ikey:  # nothing has read the inputs yet: these are this call's
                rt.set_inputs("c", loud=(inputs or {}).get("loud", 0), talking=(inputs or {}).get("talking", 0))
                best[2] = ikey
            rt.step_to(tau)
            pose = rt.pose("c")
            if rt.polled or rt.pose_drew_random:
                pool.remove(best)
            return pose
    rt = _fresh(compiled, dur, params, legs, inputs, seed)
    rt.step_to(tau)
    pose = rt.pose("c")
    if pool is not None and not rt.polled and not rt.pose_drew_random:
        pool.append([compiled, rt, ikey])
        if len(pool) > _WARM_PER_KEY:
            pool.pop(0)
    return pose


# --- engine/director.js helpers (§6, §7.1, §7.4) -------------------------------------------------------------

def cartoon_program(content: Any) -> Any:
    """cartoonProgram(content): a cartoon pack's content {cast?, places?, program} as one program with the
    outer cast and places merged in (a whole pack: its content); any other program comes back as it is."""
    return json.loads(_core.toon_cartoon_program(program_json(content)))


def scenes_of(program: Any) -> List[Dict[str, Any]]:
    """scenesOf(program): the scenes of a scene or cartoon program in the order they run:
    [{"name", "place", "mood", "at", "scripts": [script indices]}]."""
    compiled = compile_program(cartoon_program(program) if isinstance(program, dict) and "program" in program
                               and "scripts" not in program else program)
    return compiled._core.scenes()


def estimate_speech(text: str, speed: float = 1) -> float:
    """estimateSpeech(text, {speed}): §7.4's default line length, 0.06 s per character (UTF-16 code
    unit) + 0.25 s, at least 0.6 s, divided by speed."""
    return _core.toon_estimate_speech(str(text), float(to_number(speed)))
