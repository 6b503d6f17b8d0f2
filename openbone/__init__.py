"""openbone: a fast, exact C runtime for OpenBone 2D skeletal animation documents.

    import openbone
    doc = openbone.load("examples/hero.obone")
    inst = openbone.Instance(doc)
    inst.advance(1 / 30)
    inst.world          # (n_bones, 6) [a, b, c, d, x, y]
"""
from ._version import __version__

try:
    from . import _core
except ImportError as _e:  # an unbuilt checkout, or a build that does not load: say how to build
    from ._build_hint import core_import_error

    raise core_import_error(_e) from _e
from ._core import OpenBoneError, earcut, format_number, format_template
from ._core import eval_curve
from .document import Animation, Bone, Constraint, Document, Event, Skin, Slot, StateMachine, dumps, load, loads
from .drawing import Bounds, DrawBatch, DrawItem
from .instance import Instance, SlotState
from .spine import import_skeleton, import_skeleton_json


__all__ = [
    "OpenBoneError", "Document", "Instance", "SlotState", "load", "loads", "dumps", "earcut",
    "format_number", "format_template", "Bone", "Slot", "Skin", "Animation", "Event", "Constraint",
    "StateMachine", "eval_curve", "import_skeleton", "import_skeleton_json", "DrawItem", "DrawBatch", "Bounds",
]
