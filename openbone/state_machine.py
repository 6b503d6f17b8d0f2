"""Instance API for §9 state machines, §11 scripts (mixed into openbone.Instance).

``Instance(doc, state_machine="name")`` runs a machine (name, then id): every
``advance(dt)`` then goes through ``StateMachineInstance.advance`` (§9.1) in C
(``csrc/state_machine.c``, ``listeners.c``, ``bindings.c``, ``scripts.c``).

* ``set_input(name, value)``, ``fire(name)``, ``pointer(type, x, y)``,
  ``inputs`` (dict name → value), ``active_states`` (per layer: ``"exit"``,
  the state name, or None).
* ``sm_events``: the machine's events of the last advance (animation events
  with the key's time, listener and script events with the elapsed time).
* ``sm_audio_commands``: the machine's audio commands of the last advance
  (its own §10 AudioDirector).
* ``log``: records accumulated since construction (or ``clear_log()``):
  ``stateChange`` (§9.2 "Emits stateChange": ``text`` is ``"<from> -> <to>"``,
  ``layer`` the layer index), ``inputChange``, script ``log`` and ``error``
  records, and ``warning`` (e.g. scripts disabled without ``quickjs-ng``).
* §11 scripts run when the optional ``quickjs-ng`` package is installed
  (``pip install openbone[scripts]``); ``clear_overrides()`` drops the
  persistent ``ob.setBone`` / ``ob.slot`` overrides.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

POINTER_TYPES = {"down": 0, "up": 1, "move": 2}


class StateMachineAPI:
    """Methods of :class:`openbone.Instance` for §9 state machines, §11 scripts."""

    def _init_state_machine(self, state_machine) -> None:
        self.state_machine: Optional[str] = None
        self._log_records: List[Dict[str, Any]] = []
        self._sm_audio_ids: Dict[str, str] = {}
        self.script_host = None
        if state_machine is None:
            return
        from .document import OpenBoneError
        i = self.document.state_machine_index(state_machine)
        if i < 0:
            raise OpenBoneError(f"no state machine named {state_machine!r}")
        self._sm_start(i)
        self.state_machine = self.document.state_machines[i].name
        from . import scripting
        if scripting.AVAILABLE:
            self.script_host = scripting.QuickJSHost(self)
            self._sm_set_script_host(self.script_host)

    # ---- inputs (§9.5) ------------------------------------------------------
    def _input_ref(self, name) -> int:
        from .document import OpenBoneError
        if self.state_machine is None:
            raise OpenBoneError("no state machine is running")
        table = self._sm_inputs
        for k, (_id, nm, _t, _v) in enumerate(table):  # name, then id
            if nm == name:
                return k
        for k, (iid, _n, _t, _v) in enumerate(table):
            if iid == name:
                return k
        raise OpenBoneError(f"no input named {name!r}")

    def set_input(self, name: str, value: Any) -> bool:
        """§9.5 setInput by name (then id): trigger ⇒ fire; string ⇒ String(value);
        bool ⇒ ``value == "true"`` for strings, else truthiness; number ⇒ Number(value),
        ignored if not finite.  Returns whether the value changed."""
        return self._sm_set_input(self._input_ref(name), value)

    def fire(self, name: str) -> None:
        """§9.5 fire: the trigger counts as fired until step 6 of the next advance."""
        self._sm_fire(self._input_ref(name))

    @property
    def inputs(self) -> Dict[str, Any]:
        """Input name → live value (triggers read False)."""
        return {nm: v for _id, nm, _t, v in self._sm_inputs}

    def _sm_input_table(self) -> Dict[str, Any]:
        """§11 ob.input lookups: by id or name (the first input whose id or name matches)."""
        out: Dict[str, Any] = {}
        for iid, nm, _t, v in self._sm_inputs:
            for k in (iid, nm):
                if k is not None and k not in out:
                    out[k] = v
        return out

    # ---- pointer (§9.5) -----------------------------------------------------
    def pointer(self, type: str, x: float, y: float) -> None:
        """Queues a pointer event (``down``, ``up``, ``move``) in skeleton space; processed at
        step 3 of the next advance against that frame's previous world pose."""
        from .document import OpenBoneError
        if type not in POINTER_TYPES:
            raise OpenBoneError(f"pointer type must be down, up or move, got {type!r}")
        self._sm_pointer(POINTER_TYPES[type], x, y)  # numbers; C refuses non-finite ones

    def hit_test(self, slot: str, x: float, y: float) -> bool:
        """§9.5 hitTest of a slot at (x, y) on the current world pose."""
        from .document import OpenBoneError
        i = self.document.slot_index(slot)
        if i < 0:
            raise OpenBoneError(f"no slot named {slot!r}")
        return self._sm_hit_test(i, x, y)

    # ---- reports -------------------------------------------------------------
    @property
    def active_states(self) -> List[Optional[str]]:
        """§9.1 activeStates: per layer ``"exit"``, the current state's name, or None."""
        return self._sm_active_states

    @property
    def sm_events(self) -> List[Dict[str, Any]]:
        """The machine's events of the last advance: ``{name, id, time, int, float, string,
        animation}`` (animation None for listener and script events)."""
        return self._sm_events

    @property
    def sm_audio_commands(self) -> List[Dict[str, Any]]:
        """The machine's audio commands of the last advance (real ids ``play_<n>``)."""
        return self._sm_audio

    def sm_conformance_audio(self) -> List[Dict[str, Any]]:
        """The machine's audio commands with ids renumbered ``p1, p2, ...`` (FORMAT.md)."""
        from .animation import renumber_audio
        return renumber_audio(self._sm_audio, self._sm_audio_ids)

    @property
    def log(self) -> List[Dict[str, Any]]:
        """Log records since construction (or :meth:`clear_log`): ``{type, text, layer, time}``."""
        self._log_records.extend(self._sm_take_log())
        return self._log_records

    def clear_log(self) -> None:
        self._sm_take_log()
        self._log_records.clear()

    def format_text(self, template: str) -> str:
        """§8.9 formatTemplate with the running machine's inputs (by id or name) as values."""
        from ._core import format_template
        values = {k: v for k, v in self._sm_input_table().items() if v is not None}
        return format_template(template, values)
