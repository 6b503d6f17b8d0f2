"""Many instances per call (issue 17): ``advance_all`` and ``bake_all``.

    crowd = [openbone.Instance(doc) for _ in range(1000)]
    for inst in crowd:
        inst.set_animation("run")
    openbone.advance_all(crowd, 1 / 60)            # one C call, GIL released, every core
    frames = openbone.bake_all(crowd, 1 / 60, 120)  # [(120, n_bones, 6) float64] per instance

Each instance is stepped exactly as ``inst.advance(dt)`` (``inst.bake(dt, steps)``) would
step it alone: the same bits whatever the thread count, the order or the other instances.
The instances may come from different documents.  The call checks everything first (every
item an initialised :class:`openbone.Instance`, each named once, dt finite with
``|dt| <= 1e9``) and raises :class:`openbone.OpenBoneError` before any instance moves; an
instance busy in another thread raises ``RuntimeError`` as ``advance`` does.  Instances
whose state machine runs scripts through a Python host are stepped afterwards in the
calling thread with the GIL held (the host is Python).

``threads``: ``None`` = the CPUs this process may run on (its affinity), else 1..256 (the
calling thread counts as one).  The module keeps one :class:`Batch` (a pool of sleeping threads) per thread count
it was asked for; make your own ``Batch(threads)`` to control its life.  ``Batch.thread_stats()``
gives each thread's CPU seconds and instances stepped.  After a call a pool's threads spin for
50 µs (so back-to-back calls do not pay a wake-up), then sleep; on Linux a call keeps them
off the calling thread's CPU (their affinity, never the caller's), so that a woken thread does
not share the caller's core.  A pool with more threads than cores never spins.
"""
from __future__ import annotations

import os
import threading
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._core import Batch

__all__ = ["Batch", "advance_all", "bake_all"]

_pools: Dict[Tuple[int, Optional[int]], Batch] = {}  # (pid, threads): a forked child makes its own
_pools_lock = threading.Lock()


def _pool(threads: Optional[int]) -> Batch:
    with _pools_lock:
        key = (os.getpid(), threads)
        b = _pools.get(key)
        if b is None:
            b = _pools[key] = Batch(threads)
        return b


def advance_all(instances: Sequence, dt: float, *, threads: Optional[int] = None) -> None:
    """``inst.advance(dt)`` for every instance, in one C call across ``threads`` threads."""
    _pool(threads).advance_all(instances, dt)


def bake_all(instances: Sequence, dt: float, steps: int, *, threads: Optional[int] = None) -> List[np.ndarray]:
    """``inst.bake(dt, steps)`` for every instance, in one C call across ``threads`` threads:
    a list of ``(steps, n_bones, 6)`` float64 arrays, one per instance, in order."""
    return _pool(threads).bake_all(instances, dt, steps)
