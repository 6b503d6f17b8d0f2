"""Instance API for §8 draw list, bounds, text (mixed into openbone.Instance)."""
from __future__ import annotations


class DrawAPI:
    """Methods of :class:`openbone.Instance` for §8 draw list, bounds, text."""
