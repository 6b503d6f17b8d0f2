"""Spine's binary skeleton export (``.skel``, 4.2) read into the skeleton JSON dict.

Behaviour reference: spine-core 4.2's ``SkeletonBinary`` (spine-ts/spine-core/src/
SkeletonBinary.ts, Esoteric Software, spine-runtimes branch 4.2) for the layout, and
``SkeletonJson`` for the JSON names and defaults each value becomes.  This is our own
reader: it produces the same Python data ``json.load`` gives for the ``.json`` export
of the same skeleton, so one importer serves both.

* Numbers: the file stores float32 (big-endian).  Each becomes the shortest decimal
  that reads back as the same float32, which is what Spine's JSON export writes, so a
  ``.skel`` and its ``.json`` give equal numbers (and the importer rounds both alike).
* Integers are varints (7 bits a byte, low first, at most 5 bytes, int32 as spine-core
  computes them); strings a varint byte count + 1 then UTF-8 (0 = null), or a varint
  index + 1 into the string table (``readStringRef``).  Colours are RGBA8888 int32 and
  keyed colours bytes / 255, written as the JSON's hex strings.
* Values the binary always holds but the JSON leaves out at their default are written
  where the importer cares (event keys' int / float / string only when they differ
  from the event's), else as read.
* Malformed input (truncated, counts larger than the bytes left, indices out of range,
  unknown type bytes, non-finite floats) raises :class:`openbone.OpenBoneError` naming
  the byte offset and the place in the skeleton.  Every count is checked against the
  bytes left before anything is allocated, so no input makes the reader allocate more
  than a small multiple of its size or run longer than a pass over it.
"""
from __future__ import annotations

import base64
import struct
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .read import SpineError, place

__all__ = ["read_skel", "is_skel"]

_INHERIT = ["normal", "onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection"]
_BLEND = ["normal", "additive", "multiply", "screen"]
_POSITION = ["fixed", "percent"]
_SPACING = ["length", "fixed", "percent", "proportional"]
_ROTATE = ["tangent", "chain", "chainScale"]
_SEQ_MODES = ["hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse"]
_BONE_TL = {0: "rotate", 1: "translate", 2: "translatex", 3: "translatey", 4: "scale", 5: "scalex", 6: "scaley",
            7: "shear", 8: "shearx", 9: "sheary"}
_TWO = {"translate", "scale", "shear"}
_PHYS_TL = {0: "inertia", 1: "strength", 2: "damping", 4: "mass", 5: "wind", 6: "gravity", 7: "mix"}
_FLOAT = struct.Struct(">f")
_F32_TEXT: Dict[int, float] = {}


def _short(bits_value: float) -> float:
    """The shortest decimal reading back as this float32, as a double."""
    return float(str(np.float32(bits_value)))


def is_skel(data: bytes, truncated: bool = False) -> bool:
    """True when ``data`` starts like a Spine binary export: 8 hash bytes, then the
    version string ("3." / "4." and digits).  ``truncated``: also when the data ends
    inside that header, so that a cut file is reported as a cut ``.skel``."""
    if len(data) < 9:
        return truncated and len(data) > 0 and data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"[")
    n = data[8]  # the version's byte count + 1
    version = data[9:8 + n]
    if not (4 <= n <= 33 and all(48 <= c <= 57 or c == 46 for c in version)):
        return False
    if len(data) >= 8 + n:
        return version[:2] in (b"3.", b"4.")
    return truncated and any(p.startswith(version[:2]) for p in (b"3.", b"4."))


class _Input:
    def __init__(self, data: bytes):
        self.data = data
        self.n = len(data)
        self.i = 0
        self.strings: List[str] = []
        self.where = "the header"

    def fail(self, msg: str, at: Optional[int] = None):
        raise SpineError(f".skel byte {self.i if at is None else at} ({self.where}): {msg}")

    def need(self, k: int) -> None:
        if self.i + k > self.n:
            self.fail(f"the file ends ({self.n} bytes) where {k} more byte{'s are' if k > 1 else ' is'} needed")

    def byte(self) -> int:
        self.need(1)
        b = self.data[self.i]
        self.i += 1
        return b - 256 if b > 127 else b

    def ubyte(self) -> int:
        self.need(1)
        b = self.data[self.i]
        self.i += 1
        return b

    def boolean(self) -> bool:
        return self.ubyte() != 0

    def int32(self) -> int:
        self.need(4)
        v = int.from_bytes(self.data[self.i:self.i + 4], "big", signed=True)
        self.i += 4
        return v

    def varint(self, optimize_positive: bool = True) -> int:
        """spine-core's readInt: up to 5 bytes, int32 arithmetic."""
        result = 0
        for k in range(5):
            b = self.ubyte()
            result |= (b & 0x7F) << (7 * k)
            if not b & 0x80:
                break
        result &= 0xFFFFFFFF
        if optimize_positive:
            return result - (1 << 32) if result >= 1 << 31 else result
        v = (result >> 1) ^ -(result & 1)
        return v

    def count(self, what: str, per_item: int = 1) -> int:
        """A count of items that each take at least ``per_item`` bytes: bounded by the
        bytes left, so a corrupt count cannot make the reader allocate or loop."""
        at = self.i
        n = self.varint()
        if n < 0:
            self.fail(f"{what}: count {n} is negative", at)
        if n * per_item > self.n - self.i:
            self.fail(f"{what}: count {n} needs more than the {self.n - self.i} bytes left", at)
        return n

    def index(self, what: str, size: int) -> int:
        at = self.i
        k = self.varint()
        if not 0 <= k < size:
            self.fail(f"{what} index {k} is out of range (0 to {size - 1})" if size else
                      f"{what} index {k}: there are none", at)
        return k

    def float(self) -> float:
        self.need(4)
        at = self.i
        raw = self.data[at:at + 4]
        self.i += 4
        key = int.from_bytes(raw, "big")
        v = _F32_TEXT.get(key)
        if v is None:
            (f,) = _FLOAT.unpack(raw)
            if f != f or f in (float("inf"), float("-inf")):
                self.fail(f"a float that is not a finite number ({raw.hex()})", at)
            v = _short(f)
            if len(_F32_TEXT) < 1 << 16:
                _F32_TEXT[key] = v
        return v

    def floats(self, n: int) -> List[float]:
        self.need(4 * n)
        a = np.frombuffer(self.data, dtype=">f4", count=n, offset=self.i)
        if not np.isfinite(a).all():
            bad = int(np.flatnonzero(~np.isfinite(a))[0])
            self.fail("a float that is not a finite number", self.i + 4 * bad)
        self.i += 4 * n
        return [float(str(x)) for x in a.astype(np.float32)]

    def string(self) -> Optional[str]:
        at = self.i
        n = self.varint()
        if n == 0:
            return None
        if n < 0:
            self.fail(f"a string of {n} bytes", at)
        n -= 1
        self.need(n)
        raw = self.data[self.i:self.i + n]
        self.i += n
        try:
            s = raw.decode("utf-8", "surrogatepass")
            if any(0xD800 <= ord(c) <= 0xDFFF for c in s):  # Java writes pairs as two 3-byte units
                s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeError:
            self.fail("a string that is not UTF-8", at)
        if "\0" in s:
            self.fail("a NUL character in a string", at)
        return s

    def string_ref(self) -> Optional[str]:
        at = self.i
        k = self.varint()
        if k == 0:
            return None
        if not 0 < k <= len(self.strings):
            self.fail(f"string reference {k} is out of range (1 to {len(self.strings)})", at)
        return self.strings[k - 1]

    def name(self, what: str) -> str:
        at = self.i
        s = self.string()
        if not s:
            self.fail(f"{what} has no name", at)
        return s


def _hex8(v: int) -> str:
    return "%08x" % (v & 0xFFFFFFFF)


def _put(d: Dict[str, Any], key: str, v: Any, default: Any) -> None:
    if v != default or isinstance(v, bool) != isinstance(default, bool):
        d[key] = v


class _Reader:
    def __init__(self, data: bytes):
        self.inp = _Input(data)
        self.linked: List[tuple] = []  # (skin index, slot, key, attachment, parent skin index, byte)

    # ---- top level ----------------------------------------------------------------------

    def read(self) -> Dict[str, Any]:
        inp = self.inp
        head: Dict[str, Any] = {}
        hash_bytes = inp.data[:8]
        inp.need(8)
        inp.i = 8
        if hash_bytes != b"\0" * 8:
            head["hash"] = base64.b64encode(hash_bytes).decode("ascii").rstrip("=")
        version = inp.string()
        head["spine"] = version or ""
        if not version or not version[:2] in ("4.",):
            inp.fail(f"version {version!r}: not a Spine 4.x binary export (nor JSON text); "
                     "only 4.x binary exports are read (4.2 layout)")
        for k in ("x", "y", "width", "height", "referenceScale"):
            head[k] = inp.float()
        self.nonessential = inp.boolean()
        if self.nonessential:
            head["fps"] = inp.float()
            img, aud = inp.string(), inp.string()
            if img is not None:
                head["images"] = img
            if aud is not None:
                head["audio"] = aud
        out: Dict[str, Any] = {"skeleton": head}

        inp.where = "the string table"
        for _ in range(inp.count("strings")):
            s = inp.name("a string table entry")
            inp.strings.append(s)

        self.bones: List[Dict[str, Any]] = []
        inp.where = "bones"
        for i in range(inp.count("bones", 30)):
            inp.where = place("bones", i)
            self.bones.append(self.bone(i))
        out["bones"] = self.bones

        self.slots: List[Dict[str, Any]] = []
        inp.where = "slots"
        for i in range(inp.count("slots", 7)):
            inp.where = place("slots", i)
            self.slots.append(self.slot())
        out["slots"] = self.slots

        self.ik: List[Dict[str, Any]] = []
        inp.where = "ik"
        for i in range(inp.count("ik constraints", 4)):
            inp.where = place("ik", i)
            self.ik.append(self.ik_constraint())
        self.transform: List[Dict[str, Any]] = []
        inp.where = "transform"
        for i in range(inp.count("transform constraints", 5)):
            inp.where = place("transform", i)
            self.transform.append(self.transform_constraint())
        self.path: List[Dict[str, Any]] = []
        inp.where = "path"
        for i in range(inp.count("path constraints", 20)):
            inp.where = place("path", i)
            self.path.append(self.path_constraint())
        self.physics: List[Dict[str, Any]] = []
        inp.where = "physics"
        for i in range(inp.count("physics constraints", 25)):
            inp.where = place("physics", i)
            self.physics.append(self.physics_constraint())
        for k in ("ik", "transform", "path", "physics"):
            if getattr(self, k):
                out[k] = getattr(self, k)

        self.skins: List[Dict[str, Any]] = []
        inp.where = "skins[0]"
        default = self.skin(True)
        if default is not None:
            self.skins.append(default)
        inp.where = "skins"
        for i in range(inp.count("skins", 6)):
            inp.where = place("skins", len(self.skins))
            self.skins.append(self.skin(False))
        # linked meshes name their parent's skin by index (resolved once all are read)
        for sk, slot, key, att, skin_index, at in self.linked:
            if not 0 <= skin_index < len(self.skins):
                inp.where = place(place(place(place("skins", sk), "attachments"), slot), key)
                inp.fail(f"linked mesh skin index {skin_index} is out of range (0 to {len(self.skins) - 1})", at)
            name = self.skins[skin_index]["name"]
            if name != "default":
                att["skin"] = name
        out["skins"] = self.skins

        inp.where = "events"
        self.events: Dict[str, Dict[str, Any]] = {}
        self.event_names: List[str] = []
        for i in range(inp.count("events", 8)):
            inp.where = place("events", i)
            name = inp.name("an event")
            e: Dict[str, Any] = {}
            _put(e, "int", inp.varint(False), 0)
            _put(e, "float", inp.float(), 0)
            s = inp.string()
            if s is not None and s != "":
                e["string"] = s
            audio = inp.string()
            if audio:
                e["audio"] = audio
                _put(e, "volume", inp.float(), 1)
                _put(e, "balance", inp.float(), 0)
            self.events[name] = e
            self.event_names.append(name)
        if self.events:
            out["events"] = self.events

        anims: Dict[str, Any] = {}
        inp.where = "animations"
        for i in range(inp.count("animations", 10)):
            inp.where = place("animations", i)
            name = inp.name("an animation")
            inp.where = place("animations", name)
            anims[name] = self.animation(name)
        if anims:
            out["animations"] = anims
        if inp.i != inp.n:
            inp.where = "the end"
            inp.fail(f"{inp.n - inp.i} bytes after the last animation")
        return out

    # ---- skeleton parts -------------------------------------------------------------------

    def bone(self, i: int) -> Dict[str, Any]:
        inp = self.inp
        b: Dict[str, Any] = {"name": inp.name("a bone")}
        if i > 0:
            b["parent"] = self.bones[inp.index("parent bone", len(self.bones))]["name"]
        for k, dflt in (("rotation", 0), ("x", 0), ("y", 0), ("scaleX", 1), ("scaleY", 1), ("shearX", 0),
                        ("shearY", 0), ("length", 0)):
            _put(b, k, inp.float(), dflt)
        at = inp.i
        inherit = inp.ubyte()
        if inherit >= len(_INHERIT):
            inp.fail(f"inherit {inherit} is not one of 0 to {len(_INHERIT) - 1}", at)
        _put(b, "inherit", _INHERIT[inherit], "normal")
        if inp.boolean():
            b["skin"] = True
        if self.nonessential:
            b["color"] = _hex8(inp.int32())
            icon = inp.string()
            if icon:
                b["icon"] = icon
            if not inp.boolean():
                b["visible"] = False
        return b

    def slot(self) -> Dict[str, Any]:
        inp = self.inp
        s: Dict[str, Any] = {"name": inp.name("a slot")}
        s["bone"] = self.bones[inp.index("bone", len(self.bones))]["name"]
        _put(s, "color", _hex8(inp.int32()), "ffffffff")
        dark = inp.int32()
        if dark != -1:
            s["dark"] = "%06x" % (dark & 0xFFFFFF)
        att = inp.string_ref()
        if att is not None:
            s["attachment"] = att
        at = inp.i
        blend = inp.varint()
        if not 0 <= blend < len(_BLEND):
            inp.fail(f"blend mode {blend} is not one of 0 to {len(_BLEND) - 1}", at)
        _put(s, "blend", _BLEND[blend], "normal")
        if self.nonessential and not inp.boolean():
            s["visible"] = False
        return s

    def bone_list(self, what: str) -> List[str]:
        inp = self.inp
        return [self.bones[inp.index(what, len(self.bones))]["name"] for _ in range(inp.count(what))]

    def ik_constraint(self) -> Dict[str, Any]:
        inp = self.inp
        c: Dict[str, Any] = {"name": inp.name("an IK constraint")}
        _put(c, "order", inp.varint(), 0)
        c["bones"] = self.bone_list("IK bone")
        c["target"] = self.bones[inp.index("IK target bone", len(self.bones))]["name"]
        flags = inp.ubyte()
        if flags & 1:
            c["skin"] = True
        if not flags & 2 and len(c["bones"]) > 1:  # one bone: no bend (the JSON leaves it out too)
            c["bendPositive"] = False
        for bit, k in ((4, "compress"), (8, "stretch"), (16, "uniform")):
            if flags & bit:
                c[k] = True
        mix = 0.0  # IkConstraintData's default when the flag is clear
        if flags & 32:
            mix = inp.float() if flags & 64 else 1.0
        c["mix"] = mix
        if flags & 128:
            _put(c, "softness", inp.float(), 0)
        return c

    def transform_constraint(self) -> Dict[str, Any]:
        inp = self.inp
        c: Dict[str, Any] = {"name": inp.name("a transform constraint")}
        _put(c, "order", inp.varint(), 0)
        c["bones"] = self.bone_list("transform bone")
        c["target"] = self.bones[inp.index("transform target bone", len(self.bones))]["name"]
        flags = inp.ubyte()
        if flags & 1:
            c["skin"] = True
        if flags & 2:
            c["local"] = True
        if flags & 4:
            c["relative"] = True
        for bit, k in ((8, "rotation"), (16, "x"), (32, "y"), (64, "scaleX"), (128, "scaleY")):
            if flags & bit:
                _put(c, k, inp.float(), 0)
        flags = inp.ubyte()
        if flags & 1:
            _put(c, "shearY", inp.float(), 0)
        # the mixes are 0 unless stored (TransformConstraintData's defaults; JSON's are 1)
        for bit, k in ((2, "mixRotate"), (4, "mixX"), (8, "mixY"), (16, "mixScaleX"), (32, "mixScaleY"),
                       (64, "mixShearY")):
            c[k] = inp.float() if flags & bit else 0.0
        return c

    def path_constraint(self) -> Dict[str, Any]:
        inp = self.inp
        c: Dict[str, Any] = {"name": inp.name("a path constraint")}
        _put(c, "order", inp.varint(), 0)
        if inp.boolean():
            c["skin"] = True
        c["bones"] = self.bone_list("path bone")
        c["target"] = self.slots[inp.index("path target slot", len(self.slots))]["name"]
        at = inp.i
        flags = inp.ubyte()
        spacing, rotate = (flags >> 1) & 3, (flags >> 3) & 3
        if rotate >= len(_ROTATE):
            inp.fail(f"rotate mode {rotate} is not one of 0 to 2", at)
        c["positionMode"] = _POSITION[flags & 1]
        c["spacingMode"] = _SPACING[spacing]
        c["rotateMode"] = _ROTATE[rotate]
        if flags & 128:
            _put(c, "rotation", inp.float(), 0)
        for k in ("position", "spacing", "mixRotate", "mixX", "mixY"):
            c[k] = inp.float()
        return c

    def physics_constraint(self) -> Dict[str, Any]:
        inp = self.inp
        c: Dict[str, Any] = {"name": inp.name("a physics constraint")}
        _put(c, "order", inp.varint(), 0)
        c["bone"] = self.bones[inp.index("physics bone", len(self.bones))]["name"]
        flags = inp.ubyte()
        if flags & 1:
            c["skin"] = True
        for bit, k in ((2, "x"), (4, "y"), (8, "rotate"), (16, "scaleX"), (32, "shearX")):
            if flags & bit:
                _put(c, k, inp.float(), 0)
        if flags & 64:
            _put(c, "limit", inp.float(), 5000)
        at = inp.i
        fps = inp.ubyte()
        if fps == 0:
            inp.fail("physics fps 0 (the step is 1 / fps)", at)
        _put(c, "fps", fps, 60)
        for k, dflt in (("inertia", 1), ("strength", 100), ("damping", 1)):
            _put(c, k, inp.float(), dflt)
        if flags & 128:
            at = inp.i
            inverse = inp.float()
            if inverse == 0:
                inp.fail("physics mass inverse 0", at)
            _put(c, "mass", _short(1 / inverse), 1)
        for k in ("wind", "gravity"):
            _put(c, k, inp.float(), 0)
        flags = inp.ubyte()
        for bit, k in ((1, "inertiaGlobal"), (2, "strengthGlobal"), (4, "dampingGlobal"), (8, "massGlobal"),
                       (16, "windGlobal"), (32, "gravityGlobal"), (64, "mixGlobal")):
            if flags & bit:
                c[k] = True
        if flags & 128:
            _put(c, "mix", inp.float(), 1)
        return c

    # ---- skins and attachments ------------------------------------------------------------

    def skin(self, default: bool) -> Optional[Dict[str, Any]]:
        inp = self.inp
        if default:
            nslots = inp.count("default skin slots", 2)
            if nslots == 0:
                return None
            sk: Dict[str, Any] = {"name": "default"}
        else:
            sk = {"name": inp.name("a skin")}
            inp.where = place("skins", len(self.skins))
            if self.nonessential:
                sk["color"] = _hex8(inp.int32())
            bones = self.bone_list("skin bone")
            if bones:
                sk["bones"] = bones
            for key, lst in (("ik", self.ik), ("transform", self.transform), ("path", self.path),
                             ("physics", self.physics)):
                names = [lst[inp.index(f"skin {key} constraint", len(lst))]["name"]
                         for _ in range(inp.count(f"skin {key} constraints"))]
                if names:
                    sk[key] = names
            nslots = inp.count("skin slots", 2)
        skin_path = inp.where
        atts: Dict[str, Dict[str, Any]] = {}
        for _ in range(nslots):
            inp.where = skin_path
            slot = self.slots[inp.index("skin slot", len(self.slots))]["name"]
            entries = atts.setdefault(slot, {})
            for _ in range(inp.count("attachments", 2)):
                at = inp.i
                key = inp.string_ref()
                if not key:
                    inp.fail("an attachment without a name", at)
                inp.where = place(place(place(skin_path, "attachments"), slot), key)
                entries[key] = self.attachment(len(self.skins), slot, key)
        sk["attachments"] = atts
        return sk

    def vertices(self, a: Dict[str, Any], weighted: bool) -> int:
        """Reads vertexCount and the vertices into ``a`` (flat JSON layout); returns the
        vertex count."""
        inp = self.inp
        n = inp.count("vertices", 1 if weighted else 8)
        if not weighted:
            a["vertices"] = inp.floats(2 * n)
            return n
        flat: List[Any] = []
        for _ in range(n):
            k = inp.count("vertex bones", 13)
            flat.append(k)
            for _ in range(k):
                flat.append(inp.index("weight bone", len(self.bones)))
                flat.extend(inp.floats(3))
        a["vertices"] = flat
        return n

    def sequence(self) -> Dict[str, Any]:
        inp = self.inp
        return {"count": inp.varint(), "start": inp.varint(), "digits": inp.varint(), "setup": inp.varint()}

    def attachment(self, skin_index: int, slot: str, key: str) -> Dict[str, Any]:
        inp = self.inp
        flags = inp.ubyte()
        name = inp.string_ref() if flags & 8 else key
        if not name:
            inp.fail("an attachment without a name")
        a: Dict[str, Any] = {}
        if name != key:
            a["name"] = name
        kind = flags & 7
        if kind == 0:  # region
            path = inp.string_ref() if flags & 16 else None
            if path is not None and path != name:
                a["path"] = path
            if flags & 32:
                _put(a, "color", _hex8(inp.int32()), "ffffffff")
            if flags & 64:
                a["sequence"] = self.sequence()
            if flags & 128:
                _put(a, "rotation", inp.float(), 0)
            for k, dflt in (("x", 0), ("y", 0), ("scaleX", 1), ("scaleY", 1)):
                _put(a, k, inp.float(), dflt)
            a["width"], a["height"] = inp.float(), inp.float()
            return a
        if kind == 1:  # bounding box
            a["type"] = "boundingbox"
            a["vertexCount"] = self.vertices(a, bool(flags & 16))
            if self.nonessential:
                a["color"] = _hex8(inp.int32())
            return a
        if kind == 2:  # mesh
            a["type"] = "mesh"
            path = inp.string_ref() if flags & 16 else None
            if path is not None and path != name:
                a["path"] = path
            if flags & 32:
                _put(a, "color", _hex8(inp.int32()), "ffffffff")
            if flags & 64:
                a["sequence"] = self.sequence()
            at = inp.i
            hull = inp.varint()
            n = self.vertices(a, bool(flags & 128))
            if not 0 <= hull <= n:
                inp.fail(f"hull {hull} is not within the {n} vertices", at)
            a["uvs"] = inp.floats(2 * n)
            ntri = (2 * n - hull - 2) * 3
            if ntri < 0:
                inp.fail(f"{n} vertices and a hull of {hull} leave no triangles", at)
            if ntri > inp.n - inp.i:
                inp.fail(f"{ntri // 3} triangles need more than the {inp.n - inp.i} bytes left")
            a["triangles"] = [inp.index("triangle vertex", n) for _ in range(ntri)]
            a["hull"] = hull
            if self.nonessential:
                a["edges"] = [inp.varint() for _ in range(inp.count("mesh edges"))]
                a["width"], a["height"] = inp.float(), inp.float()
            return a
        if kind == 3:  # linked mesh
            a["type"] = "linkedmesh"
            path = inp.string_ref() if flags & 16 else None
            if path is not None and path != name:
                a["path"] = path
            if flags & 32:
                _put(a, "color", _hex8(inp.int32()), "ffffffff")
            if flags & 64:
                a["sequence"] = self.sequence()
            if not flags & 128:
                a["timelines"] = False
            at = inp.i
            skin_ref = inp.varint()
            parent = inp.string_ref()
            if not parent:
                inp.fail("a linked mesh without a parent")
            a["parent"] = parent
            self.linked.append((skin_index, slot, key, a, skin_ref, at))
            if self.nonessential:
                a["width"], a["height"] = inp.float(), inp.float()
            return a
        if kind == 4:  # path
            a["type"] = "path"
            if flags & 16:
                a["closed"] = True
            if not flags & 32:
                a["constantSpeed"] = False
            n = self.vertices(a, bool(flags & 64))
            a["vertexCount"] = n
            if n % 3:
                inp.fail(f"a path of {n} vertices (not a multiple of 3)")
            a["lengths"] = inp.floats(n // 3)
            if self.nonessential:
                a["color"] = _hex8(inp.int32())
            return a
        if kind == 5:  # point
            a["type"] = "point"
            _put(a, "rotation", inp.float(), 0)
            _put(a, "x", inp.float(), 0)
            _put(a, "y", inp.float(), 0)
            if self.nonessential:
                a["color"] = _hex8(inp.int32())
            return a
        if kind == 6:  # clipping
            a["type"] = "clipping"
            at = inp.i
            end = inp.varint()
            if not 0 <= end < len(self.slots):
                inp.fail(f"clipping end slot index {end} is out of range (0 to {len(self.slots) - 1})", at)
            a["end"] = self.slots[end]["name"]
            a["vertexCount"] = self.vertices(a, bool(flags & 16))
            if self.nonessential:
                a["color"] = _hex8(inp.int32())
            return a
        inp.fail(f"attachment type {kind} is not one of 0 to 6")
        raise AssertionError  # unreachable

    # ---- animations -------------------------------------------------------------------------

    def curve(self, inp: _Input, key: Dict[str, Any], nvalues: int, kind: Optional[int] = None) -> None:
        """The curve of the span that starts at ``key``: 0 linear, 1 stepped, 2 bezier
        (4 floats per value: cx1, cy1, cx2, cy2, absolute, as the JSON's)."""
        at = inp.i
        c = inp.byte() if kind is None else kind
        if c == 1:
            key["curve"] = "stepped"
        elif c == 2:
            key["curve"] = inp.floats(4 * nvalues)
        elif c != 0:
            inp.fail(f"curve type {c} is not 0, 1 or 2", at)

    def frames(self, what: str, per_frame: int, at_least_one: bool = True) -> int:
        """A frame count; timelines whose first key spine-core reads unconditionally
        need at least one."""
        at = self.inp.i
        n = self.inp.count(what, per_frame)
        if at_least_one and n == 0:
            self.inp.fail("a timeline with 0 frames", at)
        return n

    def keyed(self, frame_count: int, nvalues: int, values, curve_last: bool = True) -> List[Dict[str, Any]]:
        """Keys of a curve timeline: each key's time, then ``values(key)`` reads its values;
        from the second key on, the curve of the span before it follows its values
        (``curve_last``; deform keys have it between the time and the values)."""
        inp = self.inp
        keys: List[Dict[str, Any]] = []
        for f in range(frame_count):
            k: Dict[str, Any] = {}
            _put(k, "time", inp.float(), 0)
            if f > 0 and not curve_last:
                self.curve(inp, keys[-1], nvalues)
            values(k)
            if f > 0 and curve_last:
                self.curve(inp, keys[-1], nvalues)
            keys.append(k)
        return keys

    def timeline(self, fields: List[str], frame_count: int) -> List[Dict[str, Any]]:
        """readTimeline1/2 (and the constraint mixes): values as floats."""
        def values(k: Dict[str, Any]) -> None:
            for name in fields:
                k[name] = self.inp.float()
        return self.keyed(frame_count, len(fields), values)

    def color_timeline(self, names: List[Tuple[str, int]], frame_count: int) -> List[Dict[str, Any]]:
        """Colour keys: a byte per channel (value / 255), written as the JSON's hex
        strings; ``names`` = (key field, channel count)."""
        inp = self.inp

        def values(k: Dict[str, Any]) -> None:
            for field, n in names:
                inp.need(n)
                k[field] = inp.data[inp.i:inp.i + n].hex()
                inp.i += n
        return self.keyed(frame_count, sum(n for _, n in names), values)

    def animation(self, name: str) -> Dict[str, Any]:
        inp = self.inp
        base = inp.where
        inp.varint()  # the number of timelines (spine-core ignores it)
        a: Dict[str, Any] = {}
        slots: Dict[str, Any] = {}
        inp.where = place(base, "slots")
        for _ in range(inp.count("slot timelines", 2)):
            inp.where = place(base, "slots")
            sname = self.slots[inp.index("slot", len(self.slots))]["name"]
            tls = slots.setdefault(sname, {})
            for _ in range(inp.count("timelines", 2)):
                inp.where = place(place(base, "slots"), sname)
                at = inp.i
                t = inp.ubyte()
                n = self.frames("frames", 5, t != 0)
                if t == 0:
                    inp.where = place(inp.where, "attachment")
                    keys = []
                    for _ in range(n):
                        k: Dict[str, Any] = {}
                        _put(k, "time", inp.float(), 0)
                        k["name"] = inp.string_ref()
                        keys.append(k)
                    tls["attachment"] = keys
                    continue
                spec = {1: ("rgba", [("color", 4)]), 2: ("rgb", [("color", 3)]),
                        3: ("rgba2", [("light", 4), ("dark", 3)]), 4: ("rgb2", [("light", 3), ("dark", 3)]),
                        5: ("alpha", None)}.get(t)
                if spec is None:
                    inp.fail(f"slot timeline type {t} is not one of 0 to 5", at)
                tname, names = spec
                inp.where = place(inp.where, tname)
                inp.varint()  # bezier count
                if names is None:
                    tls[tname] = self.keyed(n, 1, lambda k: k.__setitem__("value", _short(inp.ubyte() / 255)))
                else:
                    tls[tname] = self.color_timeline(names, n)
        if slots:
            a["slots"] = slots

        bones: Dict[str, Any] = {}
        inp.where = place(base, "bones")
        for _ in range(inp.count("bone timelines", 2)):
            inp.where = place(base, "bones")
            bname = self.bones[inp.index("bone", len(self.bones))]["name"]
            tls = bones.setdefault(bname, {})
            for _ in range(inp.count("timelines", 2)):
                inp.where = place(place(base, "bones"), bname)
                at = inp.i
                t = inp.ubyte()
                n = self.frames("frames", 5, t != 10)
                if t == 10:
                    inp.where = place(inp.where, "inherit")
                    keys = []
                    for _ in range(n):
                        k = {}
                        _put(k, "time", inp.float(), 0)
                        at2 = inp.i
                        m = inp.ubyte()
                        if m >= len(_INHERIT):
                            inp.fail(f"inherit {m} is not one of 0 to {len(_INHERIT) - 1}", at2)
                        k["inherit"] = _INHERIT[m]
                        keys.append(k)
                    tls["inherit"] = keys
                    continue
                tname = _BONE_TL.get(t)
                if tname is None:
                    inp.fail(f"bone timeline type {t} is not one of 0 to 10", at)
                inp.where = place(inp.where, tname)
                inp.varint()  # bezier count
                tls[tname] = self.timeline(["x", "y"] if tname in _TWO else ["value"], n)
        if bones:
            a["bones"] = bones

        ik: Dict[str, Any] = {}
        inp.where = place(base, "ik")
        for _ in range(inp.count("IK timelines", 3)):
            inp.where = place(base, "ik")
            cname = self.ik[inp.index("IK constraint", len(self.ik))]["name"]
            inp.where = place(place(base, "ik"), cname)
            n = self.frames("frames", 5)
            inp.varint()  # bezier count
            keys = []
            flags = inp.ubyte()
            for f in range(n):
                if f > 0:
                    flags = inp.ubyte()
                    curve = 1 if flags & 64 else 2 if flags & 128 else 0
                k = {}
                _put(k, "time", inp.float(), 0)
                k["mix"] = (inp.float() if flags & 2 else 1.0) if flags & 1 else 0.0
                k["softness"] = inp.float() if flags & 4 else 0.0
                if not flags & 8:
                    k["bendPositive"] = False
                if flags & 16:
                    k["compress"] = True
                if flags & 32:
                    k["stretch"] = True
                if f > 0:  # the curve of the previous span comes after this key's values
                    self.curve(inp, keys[-1], 2, curve)
                keys.append(k)
            ik[cname] = keys
        if ik:
            a["ik"] = ik

        tr: Dict[str, Any] = {}
        inp.where = place(base, "transform")
        for _ in range(inp.count("transform timelines", 3)):
            inp.where = place(base, "transform")
            cname = self.transform[inp.index("transform constraint", len(self.transform))]["name"]
            inp.where = place(place(base, "transform"), cname)
            n = self.frames("frames", 28)
            inp.varint()
            tr[cname] = self.timeline(["mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"], n)
        if tr:
            a["transform"] = tr

        pa: Dict[str, Any] = {}
        inp.where = place(base, "path")
        for _ in range(inp.count("path timelines", 2)):
            inp.where = place(base, "path")
            cname = self.path[inp.index("path constraint", len(self.path))]["name"]
            tls = pa.setdefault(cname, {})
            for _ in range(inp.count("timelines", 3)):
                inp.where = place(place(base, "path"), cname)
                at = inp.i
                t = inp.ubyte()
                n = self.frames("frames", 8)
                inp.varint()
                tname = {0: "position", 1: "spacing", 2: "mix"}.get(t)
                if tname is None:
                    inp.fail(f"path timeline type {t} is not one of 0 to 2", at)
                inp.where = place(inp.where, tname)
                tls[tname] = self.timeline(["mixRotate", "mixX", "mixY"] if t == 2 else ["value"], n)
        if pa:
            a["path"] = pa

        ph: Dict[str, Any] = {}
        inp.where = place(base, "physics")
        for _ in range(inp.count("physics timelines", 2)):
            inp.where = place(base, "physics")
            at = inp.i
            idx = inp.varint() - 1
            if not -1 <= idx < len(self.physics):
                inp.fail(f"physics constraint index {idx} is out of range (-1 to {len(self.physics) - 1})", at)
            cname = self.physics[idx]["name"] if idx >= 0 else ""
            tls = ph.setdefault(cname, {})
            for _ in range(inp.count("timelines", 2)):
                inp.where = place(place(base, "physics"), cname)
                at = inp.i
                t = inp.ubyte()
                n = self.frames("frames", 4, t != 8)
                if t == 8:
                    inp.where = place(inp.where, "reset")
                    keys = []
                    for _ in range(n):
                        k = {}
                        _put(k, "time", inp.float(), 0)
                        keys.append(k)
                    tls["reset"] = keys
                    continue
                tname = _PHYS_TL.get(t)
                if tname is None:
                    inp.fail(f"physics timeline type {t} is not one of 0 to 8", at)
                inp.where = place(inp.where, tname)
                inp.varint()
                tls[tname] = self.timeline(["value"], n)
        if ph:
            a["physics"] = ph

        atts: Dict[str, Any] = {}
        inp.where = place(base, "attachments")
        for _ in range(inp.count("attachment timelines", 2)):
            inp.where = place(base, "attachments")
            skin = self.skins[inp.index("skin", len(self.skins))]
            sk = atts.setdefault(skin["name"], {})
            for _ in range(inp.count("slots", 2)):
                inp.where = place(place(base, "attachments"), skin["name"])
                slot = self.slots[inp.index("slot", len(self.slots))]["name"]
                sl = sk.setdefault(slot, {})
                for _ in range(inp.count("attachments", 3)):
                    inp.where = place(place(place(base, "attachments"), skin["name"]), slot)
                    at = inp.i
                    aname = inp.string_ref()
                    if not aname:
                        inp.fail("an attachment timeline without an attachment name", at)
                    inp.where = place(inp.where, aname)
                    tls = sl.setdefault(aname, {})
                    at = inp.i
                    t = inp.ubyte()
                    n = self.frames("frames", 5, t != 1)
                    if t == 0:
                        inp.where = place(inp.where, "deform")
                        inp.varint()

                        def values(k: Dict[str, Any]) -> None:
                            end = inp.count("deform values", 4)
                            if end:
                                at = inp.i
                                start = inp.varint()
                                if start < 0:
                                    inp.fail(f"deform offset {start} is negative", at)
                                _put(k, "offset", start, 0)
                                k["vertices"] = inp.floats(end)
                        tls["deform"] = self.keyed(n, 1, values, curve_last=False)
                    elif t == 1:
                        inp.where = place(inp.where, "sequence")
                        keys = []
                        for _ in range(n):
                            k = {}
                            _put(k, "time", inp.float(), 0)
                            at2 = inp.i
                            mi = inp.int32()
                            if not 0 <= (mi & 0xF) < len(_SEQ_MODES):
                                inp.fail(f"sequence mode {mi & 0xF} is not one of 0 to 6", at2)
                            _put(k, "mode", _SEQ_MODES[mi & 0xF], "hold")
                            _put(k, "index", mi >> 4, 0)
                            _put(k, "delay", inp.float(), 0)
                            keys.append(k)
                        tls["sequence"] = keys
                    else:
                        inp.fail(f"attachment timeline type {t} is not 0 or 1", at)
        if atts:
            a["attachments"] = atts

        inp.where = place(base, "drawOrder")
        nslots = len(self.slots)
        draw = []
        for i in range(inp.count("draw order keys", 5)):
            inp.where = place(place(base, "drawOrder"), i)
            k: Dict[str, Any] = {}
            _put(k, "time", inp.float(), 0)
            at = inp.i
            m = inp.count("draw order offsets", 2)
            if m > nslots:
                inp.fail(f"{m} draw order offsets for {nslots} slots", at)
            offs = []
            for _ in range(m):
                si = inp.index("draw order slot", nslots)
                offs.append({"slot": self.slots[si]["name"], "offset": inp.varint()})
            if offs:
                k["offsets"] = offs
            draw.append(k)
        if draw:
            a["drawOrder"] = draw

        inp.where = place(base, "events")
        evs = []
        for i in range(inp.count("event keys", 6)):
            inp.where = place(place(base, "events"), i)
            k = {}
            _put(k, "time", inp.float(), 0)
            en = self.event_names[inp.index("event", len(self.event_names))]
            data = self.events[en]
            k["name"] = en
            v = inp.varint(False)
            if v != data.get("int", 0):
                k["int"] = v
            f = inp.float()
            if f != data.get("float", 0):
                k["float"] = f
            s = inp.string()
            if s is not None and s != data.get("string", ""):
                k["string"] = s
            if data.get("audio"):
                _put(k, "volume", inp.float(), 1)
                _put(k, "balance", inp.float(), 0)
            evs.append(k)
        if evs:
            a["events"] = evs
        return a


def read_skel(data: bytes) -> Dict[str, Any]:
    """The skeleton JSON dict (as ``json.load`` gives for the ``.json`` export) of a
    Spine 4.2 binary export."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("read_skel takes the file's bytes")
    data = bytes(data)
    if len(data) < 9:
        raise SpineError(f".skel: {len(data)} bytes is too short for a Spine binary export (nor JSON text)")
    return _Reader(data).read()
