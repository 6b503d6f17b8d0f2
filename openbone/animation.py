"""Instance API for §5-§6, §10 animation tracks, events, audio (mixed into openbone.Instance)."""
from __future__ import annotations


class AnimationAPI:
    """Methods of :class:`openbone.Instance` for §5-§6, §10 animation tracks, events, audio."""
