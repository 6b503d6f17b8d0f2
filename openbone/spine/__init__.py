"""Spine (skeleton JSON 4.2) import: ``import_skeleton_json`` turns a Spine export into an
OpenBone document (``openbone/spine/importer.py``; rules in ``rigby2d-runtime-spec.txt``)."""
from .importer import import_skeleton_json, is_skeleton_json, skeleton_json_to_dict, spine_curve  # noqa: F401

__all__ = ["import_skeleton_json", "is_skeleton_json", "skeleton_json_to_dict", "spine_curve"]
