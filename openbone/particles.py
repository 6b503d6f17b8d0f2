"""Instance API for §8.8 particles (mixed into openbone.Instance)."""
from __future__ import annotations


class ParticleAPI:
    """Methods of :class:`openbone.Instance` for §8.8 particles."""
