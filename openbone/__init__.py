"""openbone: a fast, exact C runtime for OpenBone 2D skeletal animation documents.

    import openbone
    doc = openbone.load("examples/hero.obone")
    inst = openbone.Instance(doc)
    inst.advance(1 / 30)
    inst.world          # (n_bones, 6) [a, b, c, d, x, y]
"""
from . import _core
from ._core import OpenBoneError, earcut, format_number, format_template
from ._core import eval_curve
from .document import Animation, Bone, Constraint, Document, Event, Skin, Slot, StateMachine, dumps, load, loads
from .drawing import Bounds, DrawBatch, DrawItem
from .instance import Instance, SlotState
from .spine import import_skeleton, import_skeleton_json

__version__ = "0.1.0"

__all__ = [
    "OpenBoneError", "Document", "Instance", "SlotState", "load", "loads", "dumps", "earcut",
    "format_number", "format_template", "Bone", "Slot", "Skin", "Animation", "Event", "Constraint",
    "StateMachine", "eval_curve", "import_skeleton", "import_skeleton_json", "DrawItem", "DrawBatch", "Bounds",
]
