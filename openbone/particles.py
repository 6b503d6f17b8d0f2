"""Instance API for §8.8 particles (mixed into openbone.Instance).

The C core steps the emitters (``csrc/particles.c``); this module resolves
slot names and shapes results as dicts and NumPy arrays.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import numpy as np

from . import _core
from .document import OpenBoneError


def fnv1a(text: str) -> int:
    """§8.8 FNV-1a (32-bit) over the UTF-16 code units of ``text``."""
    return _core.Instance._fnv1a(text)


def mulberry32(seed: int, n: int) -> np.ndarray:
    """The first ``n`` numbers of §8.8 mulberry32 seeded with ``seed`` (mod 2**32)."""
    return _core.Instance._mulberry32(seed % 2**32, n)


def _r4(v: float) -> Any:
    from .conformance import _num  # lazy: conformance imports instance

    return _num(v)


@dataclass
class ParticleItem:
    """One §8.8 particle draw item (FORMAT.md draw item shape via :meth:`conformance`)."""

    slot: str
    attachment: str
    blend: str
    texture: Optional[str]
    vertices: np.ndarray  # float32, flat x0, y0, x1, y1, ...
    uvs: np.ndarray  # float32, flat
    colors: np.ndarray  # float32, flat RGBA per vertex
    indices: np.ndarray  # uint32, item-local
    color: List[float]  # slot colour
    type: str = "particles"

    def conformance(self) -> Dict[str, Any]:
        return {"slot": self.slot, "attachment": self.attachment, "type": "particles", "blend": self.blend,
                "texture": self.texture, "vertices": [_r4(v) for v in self.vertices.tolist()],
                "uvs": [_r4(v) for v in self.uvs.tolist()], "indices": [int(i) for i in self.indices],
                "color": [_r4(v) for v in self.color], "dark": None,
                "colors": [_r4(v) for v in self.colors.tolist()], "clip": None, "text": None}


class ParticleAPI:
    """Methods of :class:`openbone.Instance` for §8.8 particles."""

    def _particle_slot(self, slot: Any) -> int:
        i = self.document.slot_index(slot)
        if i < 0:
            raise OpenBoneError(f"no slot named {slot!r}")
        return i

    def emit_particles(self, slot: str, count: float) -> None:
        """§9.5 emitParticles: ``count`` more particles at the slot's next particle step."""
        self._emit_particles(self._particle_slot(slot), count)

    def set_emitter(self, slot: str, emitting: bool) -> None:
        """§9.5 setEmitter: an override applied every frame; switching on restarts the emitter
        when its previous value (last override, else the attachment's ``emitting``) was off."""
        self._set_emitter(self._particle_slot(slot), bool(emitting))

    def particle_state(self, slot: str) -> Optional[Dict[str, Any]]:
        """Copies of the slot's particle buffer (float32 ``positions`` (n, 2), ``velocities``,
        ``ages``, ``lives``, ...) and emitter state, or ``None`` without an emitter."""
        return self._particle_state(self._particle_slot(slot))

    def particle_items(self) -> List[ParticleItem]:
        """The §8.8 particle draw items of the current pose, in draw order (no clipping)."""
        out: List[ParticleItem] = []
        names = self.document.slot_names
        colors = self.slot_colors
        for s in self.draw_order:
            s = int(s)
            g = self._particle_geometry(s)
            if g is None:
                continue
            att, blend, tex, v, uv, col, idx = g
            out.append(ParticleItem(names[s], att, blend, tex, v, uv, col, idx, colors[s].tolist()))
        return out
