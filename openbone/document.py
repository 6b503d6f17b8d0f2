"""Documents: loading (§2), the document model as Python sees it, saving."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO, Any, Dict, List, Optional, Tuple, Union

from . import _core

OpenBoneError = _core.OpenBoneError


@dataclass(frozen=True)
class Bone:
    index: int
    id: str
    name: str
    parent: Optional[str]
    length: float
    x: float
    y: float
    rotation: float
    scale_x: float
    scale_y: float
    shear_x: float
    shear_y: float
    inherit: str


@dataclass(frozen=True)
class Slot:
    index: int
    id: str
    name: str
    bone: str
    color: Tuple[float, float, float, float]
    dark: Optional[Tuple[float, float, float, float]]
    attachment: Optional[str]
    blend: str


@dataclass(frozen=True)
class Skin:
    index: int
    id: str
    name: str
    attachments: List[Tuple[str, str, str]]  # (slot name, attachment name, type)
    bones: List[str]
    constraints: List[str]


@dataclass(frozen=True)
class Animation:
    index: int
    id: str
    name: str
    duration: float  # the file's field
    length: float  # §5.1 animationDuration
    timelines: int
    events: int
    audio: int


@dataclass(frozen=True)
class Event:
    index: int
    id: str
    name: str
    int: float
    float: float
    string: str
    audio: Optional[str]


@dataclass(frozen=True)
class Constraint:
    index: int
    id: str
    name: str
    kind: str  # ik, transform, path, physics
    order: Optional[float]


@dataclass(frozen=True)
class StateMachine:
    index: int
    id: str
    name: str
    inputs: List[Tuple[str, str]]  # (name, type)
    layers: List[List[str]]  # state names per layer
    listeners: int


class Document:
    """A parsed OpenBone document.  Immutable; pose it with :class:`openbone.Instance`.

    ``bones``, ``slots``, ``skins``, ``animations``, ``events``, ``constraints`` and
    ``state_machines`` list the document's parts (names and ids); ``warnings`` what
    the lenient §2 rules dropped or fixed (a slot on a missing bone, ...).
    """

    def __init__(self, core: "_core.Document", source: Optional[str] = None):
        self._core = core
        self.source = source
        meta = core.meta()
        self.name: str = meta["name"]
        self.width: float = meta["width"]
        self.height: float = meta["height"]
        self.origin_x: float = meta["originX"]
        self.origin_y: float = meta["originY"]
        self.fps: float = meta["fps"]
        self.background: Optional[str] = meta["background"]
        self.reference_scale: float = meta["referenceScale"]
        self.meta: Dict[str, Any] = meta
        bones = core.bones()
        names = [b["name"] for b in bones]
        self.bones: List[Bone] = _Parts([
            Bone(b["index"], b["id"], b["name"], names[b["parent"]] if b["parent"] >= 0 else None,
                 b["length"], b["x"], b["y"], b["rotation"], b["scaleX"], b["scaleY"],
                 b["shearX"], b["shearY"], b["inherit"])
            for b in bones
        ])
        self.slots: List[Slot] = _Parts([
            Slot(s["index"], s["id"], s["name"], names[s["bone"]], s["color"], s["dark"],
                 s["attachment"], s["blend"])
            for s in core.slots()
        ])
        self.skins: List[Skin] = _Parts([
            Skin(k["index"], k["id"], k["name"], k["attachments"],
                 [names[i] for i in k["bones"]], k["constraints"])
            for k in core.skins()
        ])
        self.animations: List[Animation] = _Parts([
            Animation(a["index"], a["id"], a["name"], a["duration"], a["length"], a["timelines"],
                      a["events"], a["audio"])
            for a in core.animations()
        ])
        self.events: List[Event] = _Parts([
            Event(e["index"], e["id"], e["name"], e["int"], e["float"], e["string"], e["audio"])
            for e in core.events()
        ])
        self.constraints: List[Constraint] = _Parts([
            Constraint(c["index"], c["id"], c["name"], c["kind"], c["order"]) for c in core.constraints()
        ])
        self.state_machines: List[StateMachine] = _Parts([
            StateMachine(m["index"], m["id"], m["name"], m["inputs"], m["layers"], m["listeners"])
            for m in core.state_machines()
        ])
        self.images: List[Dict[str, Any]] = core.images()
        self.warnings: List[str] = core.warnings()

    # look-ups by name, then id (CLARIFICATIONS: public API names things by name)
    @staticmethod
    def _find(items, ref: Optional[str]) -> int:
        """By name, then id (first wins); an int is an index.  A table per list, made on
        first use (issue 21: no linear search per look-up)."""
        if ref is None:
            return -1
        if isinstance(ref, int):
            return ref if 0 <= ref < len(items) else -1
        if isinstance(items, _Parts):
            return items.index_of.get(ref, -1)
        for it in items:
            if it.name == ref:
                return it.index
        for it in items:
            if it.id == ref:
                return it.index
        return -1

    def bone_index(self, ref: str) -> int:
        return self._find(self.bones, ref)

    def slot_index(self, ref: str) -> int:
        return self._find(self.slots, ref)

    def skin_index(self, ref: Optional[str]) -> int:
        return self._find(self.skins, ref)

    def animation_index(self, ref: str) -> int:
        return self._find(self.animations, ref)

    def state_machine_index(self, ref: str) -> int:
        return self._find(self.state_machines, ref)

    @property
    def bone_names(self) -> List[str]:
        return [b.name for b in self.bones]

    @property
    def slot_names(self) -> List[str]:
        return [s.name for s in self.slots]

    @property
    def json(self) -> str:
        """The document as compact JSON text (JSON.stringify form)."""
        return self._core.json

    def dumps(self, binary: bool = False, indent: Optional[int] = None) -> Union[bytes, str]:
        return dumps(self, binary=binary, indent=indent)

    def save(self, path: Union[str, os.PathLike], binary: Optional[bool] = None, indent: Optional[int] = None) -> None:
        """Write the document (atomically: a temporary file renamed over ``path``);
        ``binary`` defaults to the file name (``.obonb`` ⇒ binary)."""
        path = os.fspath(path)
        if binary is None:
            binary = path.endswith(".obonb")
        data = dumps(self, binary=binary, indent=indent)
        from .atomic import write_bytes
        write_bytes(path, data if binary else data.encode("utf-8"))  # temp file + rename

    def __repr__(self) -> str:
        return (f"<openbone.Document {self.name!r}: {len(self.bones)} bones, {len(self.slots)} slots, "
                f"{len(self.skins)} skins, {len(self.animations)} animations, "
                f"{len(self.constraints)} constraints, {len(self.state_machines)} state machines>")

    def __reduce__(self):
        """Pickling: the document travels as its ``.obonb`` bytes (and its source path)."""
        return (_unpickle_document, (dumps(self, binary=True), self.source))

    def __copy__(self) -> "Document":
        return self  # immutable

    def __deepcopy__(self, memo) -> "Document":
        return self

    def _repr_html_(self) -> str:  # notebooks: a summary table and the setup pose (openbone/display.py)
        from .display import document_repr_html
        return document_repr_html(self)


class _Parts(list):
    """A document's list of parts (bones, slots...) with ``index_of``: name or id → index, names
    first, first wins, made once (the lists are not changed after loading)."""

    @property
    def index_of(self) -> Dict[Any, int]:
        table = self.__dict__.get("_index")
        if table is None:
            table = {}
            for it in reversed(self):
                table[it.id] = it.index
            for it in reversed(self):  # names win over ids
                table[it.name] = it.index
            self.__dict__["_index"] = table
        return table


def loads(data: Union[bytes, bytearray, memoryview, str], source: Optional[str] = None) -> Document:
    """Parse a document from JSON text or .obonb bytes (detected by the ``OBNB`` magic)."""
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as e:  # a lone surrogate: not Unicode text, no UTF-8 for it
            raise OpenBoneError(f"not a valid document: a lone surrogate at character {e.start} "
                                "(the text is not valid Unicode)") from None
    return Document(_core.load_bytes(bytes(data)), source)


def _unpickle_document(data: bytes, source: Optional[str]) -> Document:
    return loads(data, source=source)


def load(source: Union[str, os.PathLike, bytes, bytearray, memoryview, IO]) -> Document:
    """Load a document: a path to a ``.obone`` / ``.obonb`` file, the bytes of one, or a
    file object opened for reading (binary, or text for JSON).  The format is read from
    the content (the ``OBNB`` magic), not the name."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return loads(source)
    if hasattr(source, "read"):
        data = source.read()
        name = getattr(source, "name", None)
        if not isinstance(data, (bytes, bytearray, str)):
            raise TypeError(f"load(file): read() returned {type(data).__name__}, expected bytes or str")
        return loads(data, source=name if isinstance(name, str) else None)
    path = os.fspath(source)
    with open(path, "rb") as f:
        data = f.read()
    return loads(data, source=path)


def dumps(doc: Document, binary: bool = False, indent: Optional[int] = None) -> Union[bytes, str]:
    """The document as ``.obonb`` bytes (``binary=True``) or JSON text (compact, or
    ``indent=2`` for JSON.stringify(doc, null, 2) layout)."""
    if binary:
        return _core.json_to_binary(doc.json)
    if indent:
        return _core.binary_to_json(doc.json.encode("utf-8"), True)
    return doc.json
