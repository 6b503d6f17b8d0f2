"""Recording a behaviour's poses frame by frame (``openbone toon run``, ``plot_channels``)."""
from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

import numpy as np

from .runtime import ToonError, create_runtime

BASE = ("dx", "dy", "sx", "sy", "rot", "mouth", "blink")


class Recording:
    """The poses of one character at frames k/fps, k = 0 .. n-1 (n = ceil(seconds * fps)).

    ``channel(name)`` gives one channel over the frames: "dx" ... "blink", "part:<key>",
    "lift:<key>", "reach:<limb>" (the weight), "reach:<limb>:x" (x, y, dx, dy); NaN where a
    part, lift or reach channel is not written in a frame."""

    def __init__(self, t: np.ndarray, poses: List[Dict[str, Any]], fps: float):
        self.t = t
        self.poses = poses
        self.fps = fps

    def names(self) -> List[str]:
        seen: Dict[str, None] = {n: None for n in BASE}
        for p in self.poses:
            for k in p["parts"]:
                seen["part:" + k] = None
            for k in p["lift"]:
                seen["lift:" + k] = None
            for k in p["reach"]:
                seen["reach:" + k] = None
        return list(seen)

    def channel(self, name: str) -> np.ndarray:
        out = np.full(len(self.poses), np.nan)
        for i, p in enumerate(self.poses):
            if name in BASE:
                out[i] = p[name]
            elif name.startswith("part:"):
                out[i] = p["parts"].get(name[5:], np.nan)
            elif name.startswith("lift:"):
                out[i] = p["lift"].get(name[5:], np.nan)
            elif name.startswith("reach:"):
                bits = name[6:].split(":")  # reach:hand:1 (the weight) or reach:hand:1:x
                limb, field = ":".join(bits[:2]), (bits[2] if len(bits) > 2 else "w")
                r = p["reach"].get(limb)
                out[i] = np.nan if r is None else r.get(field, np.nan)
            else:
                raise ToonError(f"unknown channel {name!r} (dx .. blink, part:<key>, lift:<key>, reach:<limb>)")
        return out

    def arrays(self) -> Dict[str, np.ndarray]:
        """The recording as NumPy arrays: a channel x frame array per key (base, parts, lift,
        reach_*), their names, and the frame times, moods and views."""
        names = self.names()
        frames = len(self.poses)

        def stack(rows):
            return np.array(rows).reshape(len(rows), frames) if rows else np.empty((0, frames))

        parts = [n for n in names if n.startswith("part:")]
        lift = [n for n in names if n.startswith("lift:")]
        limbs = [n[6:] for n in names if n.startswith("reach:")]
        out: Dict[str, np.ndarray] = {
            "t": self.t, "fps": np.array(self.fps),
            "base": stack([self.channel(n) for n in BASE]),
            "base_names": np.array(BASE),
            "parts": stack([self.channel(n) for n in parts]),
            "parts_names": np.array([n[5:] for n in parts], dtype=str),
            "lift": stack([self.channel(n) for n in lift]),
            "lift_names": np.array([n[5:] for n in lift], dtype=str),
            "reach_names": np.array(limbs, dtype=str),
            "mood": np.array(["" if p["mood"] is None else p["mood"] for p in self.poses], dtype=str),
            "view": np.array(["" if p["view"] is None else p["view"] for p in self.poses], dtype=str),
        }
        for f in ("w", "x", "y", "dx", "dy"):
            out["reach_" + f] = stack([self.channel(f"reach:{limb}:{f}") for limb in limbs])
        out["reach_spot"] = np.array([[(p["reach"].get(limb) or {}).get("spot", "") for p in self.poses]
                                      for limb in limbs], dtype=str).reshape(len(limbs), frames)
        return out


def record(program: Any, legs: int = 2, dur: Optional[float] = None, fps: float = 24, seconds: Optional[float] = None,
           params: Optional[Dict[str, Any]] = None, seed: Any = 0, inputs: Optional[Dict[str, Any]] = None,
           frames: Optional[int] = None) -> Recording:
    """Run a behaviour on one character and record its pose at every frame k/fps."""
    if not (isinstance(fps, (int, float)) and fps > 0 and math.isfinite(fps)):
        raise ToonError(f"fps must be a positive number, got {fps!r}")
    if frames is None:
        length = seconds if seconds is not None else dur
        if length is None or not math.isfinite(length) or length < 0:
            raise ToonError("give seconds (or a finite dur) to record")
        frames = max(1, math.ceil(length * fps))
    rt = create_runtime(seed=seed)
    rt.add_character("c", legs=legs)
    if inputs:
        rt.set_inputs("c", **inputs)
    rt.start_behaviour("c", program, dur=dur, params=params)
    poses, ts = [], []
    for k in range(frames):
        T = k / fps
        rt.step_to(T)
        ts.append(T)
        poses.append(rt.pose("c"))
    return Recording(np.array(ts), poses, fps)
