"""Where a Spine import starts: the input (a path, bytes or a parsed dict; JSON or
``.skel`` told apart by content), the checking pass, the texture atlas beside it, and
the CLI's "any rig" loader.

``import_skeleton(path)`` is the one entry point users need::

    doc = openbone.import_skeleton("spineboy-pro.skel")        # or .json; atlas found beside it
    doc = openbone.import_skeleton("hero.json", atlas="hero.atlas", curves="exact")
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Tuple, Union

from .atlas import Atlas, atlas_section, find_atlas, read_atlas
from .read import SpineError, check_skeleton, loads_json
from .skel import is_skel, read_skel

__all__ = ["read_source", "import_skeleton", "attach_atlas", "sniff", "rig_kind", "load_rig"]

MAX_SKELETON_BYTES = 256 << 20

Source = Union[str, "os.PathLike[str]", bytes, bytearray, Dict[str, Any]]
AtlasArg = Union[None, bool, str, "os.PathLike[str]", Atlas]


def sniff(data: bytes) -> Optional[str]:
    """"skel", "json" (a Spine skeleton JSON), "openbone" (an OpenBone document) or None."""
    if data[:4] == b"OBNB":
        return "openbone"
    if is_skel(data):
        return "skel"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] != b"{":
        return None
    if b'"format"' in head and b'"openbone"' in head:
        return "openbone"
    if b'"skeleton"' in head or b'"bones"' in head:
        return "json"
    return None


def _read_file(path: str) -> bytes:
    try:
        size = os.path.getsize(path)
        if size > MAX_SKELETON_BYTES:
            raise SpineError(f"{path}: {size} bytes is larger than a skeleton can be ({MAX_SKELETON_BYTES})")
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise SpineError(f"{path}: {e.strerror or e}") from None


def read_source(src: Source, warnings: Optional[List[str]] = None) -> Tuple[Dict[str, Any], Optional[str], str]:
    """(checked skeleton data as the JSON dict, the file path or None, "json" | "skel" | "dict").

    A path or bytes is read by content: a Spine binary export (``.skel``) or JSON.
    Malformed input raises :class:`openbone.OpenBoneError` naming the place."""
    path = None
    if isinstance(src, dict):
        data, kind = src, "dict"
    else:
        if isinstance(src, (bytes, bytearray, memoryview)):
            raw = bytes(src)
        else:
            path = os.fspath(src)
            raw = _read_file(path)
        if is_skel(raw, truncated=True):
            data, kind = read_skel(raw), "skel"
        elif raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
            data, kind = loads_json(raw), "json"
        else:
            raise SpineError("not a Spine skeleton: not JSON text, and not a binary export (.skel: 8 hash bytes, "
                             "then a version such as \"4.2.22\")")
        if isinstance(data, dict) and data.get("format") == "openbone":
            raise SpineError("an OpenBone document, not a Spine skeleton (load it with openbone.load)")
        if not isinstance(data, dict) or "bones" not in data:
            raise SpineError("not a Spine skeleton (no top-level \"bones\" array)")
    data = check_skeleton(data, warnings)
    return data, path, kind


def attach_atlas(doc: Dict[str, Any], atlas: AtlasArg, skeleton_path: Optional[str], warnings: List[str],
                 relative_to: Optional[str] = None) -> Optional[str]:
    """Add the OpenBone ``atlas`` section for ``atlas`` (a path, an :class:`Atlas`, None:
    look beside the skeleton, False: none) to the document dict; images found in it get
    ``src: ""`` (they exist only in the atlas).  Returns the atlas path used."""
    if atlas is False or (atlas is None and skeleton_path is None):
        return None
    if atlas is None or atlas is True:
        found = find_atlas(skeleton_path) if skeleton_path else None
        if found is None:
            if skeleton_path:
                warnings.append(f"no texture atlas beside {os.path.basename(skeleton_path)} (Spine's naming: "
                                "<name>.atlas, or without the -pro / -ess part): images are untextured")
            return None
        atlas = found
    if not isinstance(atlas, Atlas):
        atlas = read_atlas(os.fspath(atlas))
    if relative_to is None and skeleton_path is not None:
        relative_to = os.path.dirname(os.path.abspath(skeleton_path))
    images = doc.get("images") or []
    sec, found_ids = atlas_section(atlas, [im["id"] for im in images], warnings, relative_to)
    held = set(found_ids)
    for im in images:
        if im["id"] in held:
            im["src"] = ""
    if sec["regions"]:
        doc["atlas"] = sec
    return atlas.path


def import_skeleton(src: Source, atlas: AtlasArg = None, curves: str = "spine", name: Optional[str] = None,
                    pose_model: str = "spine", relative_to: Optional[str] = None):
    """Import a Spine skeleton (``.json`` or ``.skel``, told apart by content; or the
    parsed dict) as an :class:`openbone.Document`, textured from its atlas.

    ``atlas``: the ``.atlas`` path (default: found beside the skeleton by Spine's naming,
    ``spineboy-pro.json`` → ``spineboy.atlas``; ``False``: none).  Page paths in the
    document are relative to ``relative_to`` (default: the skeleton's directory, which
    becomes ``doc.source``).  ``curves`` and ``pose_model`` as for
    :func:`openbone.import_skeleton_json`.  ``doc.import_warnings`` lists what could not
    be mapped exactly; ``doc.import_kind`` is "json", "skel" or "dict"."""
    from ..document import loads
    from .importer import skeleton_json_to_dict
    warns: List[str] = []
    meta: Dict[str, Any] = {}
    d = skeleton_json_to_dict(src, curves=curves, name=name, warnings=warns, pose_model=pose_model, atlas=atlas,
                              relative_to=relative_to, _meta=meta)
    path = meta.get("path")
    source = None
    if path is not None:
        base = relative_to if relative_to is not None else os.path.dirname(os.path.abspath(path))
        source = os.path.join(base, os.path.basename(path))
    doc = loads(json.dumps(d), source=source)
    doc.import_warnings = warns  # type: ignore[attr-defined]
    doc.import_kind = meta.get("kind")  # type: ignore[attr-defined]
    doc.import_atlas = meta.get("atlas")  # type: ignore[attr-defined]
    return doc


def rig_kind(path: str) -> Optional[str]:
    """"skel" or "json" when the file is a Spine skeleton (binary export, or JSON with
    top-level ``bones`` and no ``"format": "openbone"``), else None (an OpenBone file, or
    something for the OpenBone loader to report).  Raises OSError when unreadable."""
    with open(path, "rb") as f:
        head = f.read(4096)
    kind = sniff(head)
    if kind == "json":  # decide on the whole document, not its first bytes
        with open(path, "rb") as f:
            raw = f.read()
        try:
            data = loads_json(raw)
        except SpineError:  # not valid JSON: a Spine file only if it reads like one (its error then)
            return None if (b'"format"' in head or b'"skeleton"' not in head) else "json"
        if not isinstance(data, dict) or data.get("format") == "openbone" or not isinstance(data.get("bones"), list):
            return None
    return kind if kind in ("json", "skel") else None


def load_rig(path: str, **import_kw) -> Tuple[Any, Optional[str]]:
    """(Document, None) for an OpenBone file, (Document, "Spine skeleton JSON" | "Spine
    binary") for a Spine skeleton imported on the fly (:func:`rig_kind`; ``import_kw`` go
    to :func:`import_skeleton`).  Errors: ``OSError`` (unreadable), ``OpenBoneError``."""
    from ..document import load
    kind = rig_kind(path)
    if kind is None:
        return load(path), None
    return import_skeleton(path, **import_kw), KIND_NAMES[kind]


KIND_NAMES = {"skel": "Spine binary", "json": "Spine skeleton JSON"}
