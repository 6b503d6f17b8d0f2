"""Instances: a skeleton posed from a document (§3)."""
from __future__ import annotations

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

    def __repr__(self) -> str:
        return (f"<openbone.Instance of {self.document.name!r}: skin={self.skin_name!r}, "
                f"time={self.time:g}>")

    def _repr_png_(self):  # notebooks: a picture of the current pose (openbone/display.py)
        from .display import instance_repr_png
        return instance_repr_png(self)


install_draw_item_display()  # draw items get a _repr_png_ too (openbone/display.py)
