"""Instance API for §9 state machines, §11 scripts (mixed into openbone.Instance)."""
from __future__ import annotations


class StateMachineAPI:
    """Methods of :class:`openbone.Instance` for §9 state machines, §11 scripts."""

    def _init_state_machine(self, state_machine) -> None:
        if state_machine is not None:
            from .document import OpenBoneError
            raise OpenBoneError("state machines are not supported by this build yet")
