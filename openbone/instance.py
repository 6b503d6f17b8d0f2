"""Instances: a skeleton posed from a document (§3)."""
from __future__ import annotations

import copy as _copy
from dataclasses import dataclass
from typing import List, Optional

import numpy as np

from . import _core
from .animation import AnimationAPI
from .constraints import ConstraintAPI
from .display import install_draw_item_display
from .document import Document, OpenBoneError
from .drawing import DrawAPI
from .layer import LayerAPI
from .particles import ParticleAPI
from .state_machine import StateMachineAPI


@dataclass
class SlotState:
    """Slot state in document slot order; ``draw_order`` gives the drawing order."""

    names: List[str]
    colors: np.ndarray  # (n, 4) RGBA
    darks: np.ndarray  # (n, 4) RGBA, valid where has_dark
    has_dark: np.ndarray  # (n,) bool
    attachments: List[Optional[str]]
    draw_order: np.ndarray  # (n,) slot indices, back to front


class Instance(AnimationAPI, ConstraintAPI, DrawAPI, LayerAPI, ParticleAPI, StateMachineAPI, _core.Instance):
    """A skeleton instance: ``Instance(doc, skin=None)``.

    Constructed as §2 says (active flags for no skin, setup pose, one world
    update), then ``set_skin(skin)`` when a skin is given.  ``world`` is a
    read-only ``(n_bones, 6)`` view ``[a, b, c, d, x, y]`` updated in place.
    """

    def __init__(self, document: Document, skin: Optional[str] = None, state_machine: Optional[str] = None):
        if not isinstance(document, Document):
            raise TypeError("Instance(document): expected an openbone.Document")
        _core.Instance.__init__(self, document._core)
        self.document = document
        self._init_state_machine(state_machine)
        if skin is not None:
            self.set_skin(skin)

    def set_skin(self, skin: Optional[str]) -> None:  # type: ignore[override]
        """§2 setSkin: by name, then id; ``None`` or an unknown name means no skin."""
        super().set_skin(self.document.skin_index(skin))

    @property
    def skin_name(self) -> Optional[str]:
        i = self.skin
        return self.document.skins[i].name if i >= 0 else None

    def pose_setup(self) -> None:
        """setToSetupPose() then updateWorldTransform() (no time passes)."""
        self.set_to_setup_pose()
        self.update_world_transform()

    @property
    def bone_names(self) -> List[str]:
        return self.document.bone_names

    def bone_index(self, name: str) -> int:
        i = self.document.bone_index(name)
        if i < 0:
            raise OpenBoneError(f"no bone named {name!r}")
        return i

    @property
    def slots(self) -> SlotState:
        return SlotState(self.document.slot_names, self.slot_colors, self.slot_darks,
                         self.slot_has_dark, self.slot_attachments, self.draw_order)

    def copy(self) -> "Instance":
        """An independent instance in the same state (``ob_instance_copy``): the same
        pose, clocks, tracks, physics, particles, state machine and logs; advancing the
        copy and the original the same way gives the same bits.  The document is shared
        (it is immutable).  An instance whose state machine runs scripts cannot be
        copied (the live QuickJS host holds JS state): OpenBoneError."""
        if getattr(self, "script_host", None) is not None:
            raise OpenBoneError(_SCRIPTS_CANNOT_TRAVEL.format(what="copied"))
        new = self._copy_core()
        new.__dict__.update({k: _copy.copy(v) for k, v in self.__dict__.items()})
        return new

    __copy__ = copy

    def bone_table(self, bones=None, highlight: Optional[str] = None):
        """The bones as a table (an ``HtmlTable``: HTML in notebooks, text with ``print``,
        ``to_dicts()`` in code): name, parent, active, local pose, world position,
        rotation and scale, constraints (:func:`openbone.debug.bone_table`)."""
        from .debug import bone_table
        return bone_table(self, bones, highlight)

    def __deepcopy__(self, memo) -> "Instance":
        return self.copy()

    def __reduce__(self):
        """Pickling: the document (as its ``.obonb`` bytes) and the whole C state
        (``ob_instance_snapshot``), restored by ``ob_instance_restore``."""
        if getattr(self, "script_host", None) is not None:
            raise OpenBoneError(_SCRIPTS_CANNOT_TRAVEL.format(what="pickled"))
        state = {k: v for k, v in self.__dict__.items() if k not in ("document", "script_host")}
        return (_unpickle_instance, (type(self), self.document, self._snapshot(), state))

    def __repr__(self) -> str:
        return (f"<openbone.Instance of {self.document.name!r}: skin={self.skin_name!r}, "
                f"time={self.time:g}>")

    def _repr_png_(self):  # notebooks: a picture of the current pose (openbone/display.py)
        from .display import instance_repr_png
        return instance_repr_png(self)


_SCRIPTS_CANNOT_TRAVEL = ("this instance cannot be {what}: its state machine runs scripts, and the live "
                          "QuickJS script host (the scripts' JS state) cannot travel")


def _unpickle_instance(cls, document: Document, snapshot: bytes, state: dict) -> "Instance":
    inst = cls.__new__(cls)
    _core.Instance.__init__(inst, document._core)
    inst.document = document
    inst._init_state_machine(None)
    inst.__dict__.update(state)
    inst._restore(snapshot)
    return inst


install_draw_item_display()  # draw items get a _repr_png_ too (openbone/display.py)
