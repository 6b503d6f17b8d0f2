"""Instance API for §7 constraints (mixed into openbone.Instance)."""
from __future__ import annotations


class ConstraintAPI:
    """Methods of :class:`openbone.Instance` for §7 constraints."""
