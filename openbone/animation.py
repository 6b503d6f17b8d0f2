"""Instance API for §5-§6, §10 animation tracks, events, audio (mixed into openbone.Instance).

Names are resolved here (name, then id); everything else runs in C
(``csrc/timeline.c``, ``csrc/animation_state.c``, ``csrc/audio.c``).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

from ._core import OpenBoneError

INHERIT_MODES = ("normal", "onlyTranslation", "noRotation", "noScale",
                 "noRotationOrReflection", "noScaleOrReflection")  # csrc/document.h ob_inherit order


def renumber_audio(commands: List[Dict[str, Any]], ids: Dict[str, str]) -> List[Dict[str, Any]]:
    """Audio commands with their ids renumbered ``p1, p2, ...`` in order of first appearance
    (FORMAT.md); ``ids`` is the instance's running map, so ids stay stable across advances."""
    out = []
    for c in commands:
        c = dict(c)
        if "id" in c:
            if c["id"] not in ids:
                ids[c["id"]] = f"p{len(ids) + 1}"
            c["id"] = ids[c["id"]]
        out.append(c)
    return out


class AnimationAPI:
    """Methods of :class:`openbone.Instance` for §5-§6, §10 animation tracks, events, audio."""

    # ---- tracks (§6) ------------------------------------------------------
    def _animation_ref(self, name) -> int:
        i = self.document.animation_index(name)
        if i < 0:
            raise OpenBoneError(f"no animation named {name!r}")
        return i

    def set_animation(self, track: int, name: str, loop: bool = True, mix: float = 0.2) -> None:
        """§6 setAnimation: start ``name`` (by name, then id) now on ``track``.

        The current entry's looping sounds stop (fade ``max(mix, fadeOut)``); when there
        was an entry and ``mix > 0`` the new one cross-fades from it over ``mix`` seconds;
        the track's queue is dropped.  Unknown names raise :class:`OpenBoneError`.
        """
        self._set_animation(int(track), self._animation_ref(name), bool(loop), mix)

    def add_animation(self, track: int, name: str, loop: bool = False, delay: float = 0,
                      mix: float = 0.2) -> None:
        """§6 addAnimation: on an empty track start now, else queue.

        A queued entry starts when the current one reaches ``delay`` (if > 0) or its end
        (its duration; for a looping entry the end of the first loop), cross-fading over ``mix``.
        """
        self._add_animation(int(track), self._animation_ref(name), bool(loop), delay, mix)

    def _entry(self, e: Dict[str, Any]) -> Dict[str, Any]:
        anims = self.document.animations
        out = dict(e)
        out["animation"] = anims[e["animation"]].name
        return out

    def track(self, index: int) -> Optional[Dict[str, Any]]:
        """One track as a dict (animation name, time, loop, mix info, mixing_from, queue), or None."""
        info = self._track(int(index))
        if info is None:
            return None
        entry, frm, queue = info
        d = self._entry(entry)
        d["mixing_from"] = self._entry(frm) if frm is not None else None
        d["queue"] = [self._entry(q) for q in queue]
        return d

    @property
    def tracks(self) -> List[Optional[Dict[str, Any]]]:
        """Per track (``track_count`` of them): a dict of its current entry, or None."""
        return [self.track(i) for i in range(self.track_count)]

    # ---- events and audio of the last advance ----------------------------
    def _machine_runs(self) -> bool:
        """With a state machine (§9.1) its advance replaces the AnimationState: the
        reports below are then the machine's (StateMachineAPI.sm_*)."""
        return getattr(self, "state_machine", None) is not None and hasattr(self, "sm_events")

    @property
    def events(self) -> List[Dict[str, Any]]:
        """Events of the last advance in emission order (§5.2, §10), including those
        emitted by calls made before it: ``{name, time, int, float, string, animation}``.
        With a state machine running, the machine's events."""
        if self._machine_runs():
            return self.sm_events
        doc = self.document
        out = []
        for ev, anim, time, i, f, s, track in self._events():
            out.append({"name": doc.events[ev].name, "time": time, "int": i, "float": f, "string": s,
                        "animation": doc.animations[anim].name, "id": doc.events[ev].id, "track": track})
        return out

    @property
    def track_events(self) -> List[Dict[str, Any]]:
        """§6 "start" and "complete" notifications of the last advance, in emission order
        (those from set/add_animation calls made before it included):
        ``{type: "start" | "complete", track, animation}``."""
        doc = self.document
        return [{"type": t, "track": track, "animation": doc.animations[a].name}
                for t, track, a in self._notices()]

    @property
    def audio_commands(self) -> List[Dict[str, Any]]:
        """Audio commands of the last advance (FORMAT.md shapes, real ids ``play_<n>``)."""
        if self._machine_runs():
            return self.sm_audio_commands
        return self._audio_commands()

    def conformance_audio(self) -> List[Dict[str, Any]]:
        """The last advance's audio commands with ids renumbered ``p1, p2, ...`` per instance
        in order of first appearance (FORMAT.md).  With a state machine, the machine's."""
        if self._machine_runs():
            return self.sm_conformance_audio()
        return renumber_audio(self._audio_commands(), self.__dict__.setdefault("_audio_ids", {}))

    # ---- live values (inspection, tests) ---------------------------------
    def constraint_live(self, ref) -> np.ndarray:
        """The live values (OB_CV_* order) of a constraint by name, id or index."""
        if isinstance(ref, int):
            return self._constraint_live(ref)
        for c in self.document.constraints:
            if c.name == ref or c.id == ref:
                return self._constraint_live(c.index)
        raise OpenBoneError(f"no constraint named {ref!r}")

    def particle_live(self, slot: str) -> Dict[str, Any]:
        """§5.1 particle values of a slot: ``{emitting, rate}`` (None where unset)."""
        i = self.document.slot_index(slot)
        if i < 0:
            raise OpenBoneError(f"no slot named {slot!r}")
        he, e, hr, r = self._particle_live(i)
        return {"emitting": e if he else None, "rate": r if hr else None}

    def deform(self, slot: str, attachment: str) -> Optional[np.ndarray]:
        """The §5.1 deform offsets of (slot, attachment name); None when none are set."""
        i = self.document.slot_index(slot)
        if i < 0:
            raise OpenBoneError(f"no slot named {slot!r}")
        d = self._deform_live(i, self._att_name_id(attachment))
        return d if d is not None and len(d) else None

    def sequence_frame(self, slot: str, attachment: str) -> Optional[float]:
        """The keyed §5.1 sequence frame of (slot, attachment name), None when unset."""
        i = self.document.slot_index(slot)
        if i < 0:
            raise OpenBoneError(f"no slot named {slot!r}")
        return self._seqframe_live(i, self._att_name_id(attachment))

    @property
    def inherit_modes(self) -> List[str]:
        """The live inherit mode of every bone."""
        return [INHERIT_MODES[m] for m in self._inherit_live()]

    @property
    def local_pose(self) -> np.ndarray:
        """Copy of the local pose ``(n_bones, 7)``: x, y, rotation, scaleX, scaleY, shearX, shearY."""
        return self._local_pose()

    def apply_animation(self, name, time: float, alpha: float = 1.0, into=None,
                        out_alpha: Optional[float] = None) -> None:
        """§5 applyAnimation(name, time, alpha[, mixOut]) on the current pose, nothing else
        (no setup reset, no world update).  ``into`` names the animations faded to."""
        idx = [self._animation_ref(n) for n in (into or [])]
        self._apply_animation(self._animation_ref(name), time, alpha,
                              idx if out_alpha is not None else None, out_alpha)
