"""Spine import: skeleton JSON 4.2 and the ``.skel`` binary export become OpenBone documents
(``importer.py``; rules in ``rigby2d-runtime-spec.txt``), textured from their libGDX ``.atlas``
(``atlas.py``); ``read.py`` checks the input, ``skel.py`` reads the binary, ``source.py`` ties
them together (``import_skeleton``)."""
from .importer import import_skeleton_json, is_skeleton_json, skeleton_json_to_dict, spine_curve  # noqa: F401
from .atlas import Atlas, read_atlas, find_atlas  # noqa: F401
from .skel import read_skel  # noqa: F401
from .source import import_skeleton, load_rig, rig_kind, sniff  # noqa: F401

__all__ = ["import_skeleton", "import_skeleton_json", "is_skeleton_json", "skeleton_json_to_dict", "spine_curve",
           "Atlas", "read_atlas", "find_atlas", "read_skel", "load_rig", "rig_kind", "sniff"]
