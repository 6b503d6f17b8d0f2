"""The libGDX / Spine texture atlas (``.atlas`` text) and its mapping onto the OpenBone
atlas section (file format § Images and the texture atlas).

Behaviour reference: spine-core 4.2's ``TextureAtlas`` (spine-ts/spine-core/src/
TextureAtlas.ts) and ``MeshAttachment.updateRegion`` / ``RegionAttachment.updateRegion``
(how a runtime reads the page and region fields and turns them into uvs), Esoteric
Software, spine-runtimes branch 4.2.  This is our own reader.

The text: optional header lines, then pages separated by blank lines.  A page is its
file name followed by ``key: value`` lines (``size``, ``format``, ``filter``, ``repeat``,
``pma``, ``scale``), then its regions: a region is a name line followed by indented
``key: value`` lines (``bounds: x, y, w, h``, ``offsets: x, y, origW, origH``,
``rotate: true | false | degrees``, ``index: n``; the old ``xy``/``size``/``offset``/
``orig`` pairs are read too; other named values such as ``split``/``pad`` are kept
as they are but have no OpenBone meaning).

Conventions (conformance/NOTES.md, "Spine import"):

* Spine's region offsets are measured from the *bottom-left* of the original image
  (y up); OpenBone's from the top-left (y down): ``offsetY = origH − h − spineOffsetY``.
* Spine's ``rotate: 90`` (or ``true``) stores the image turned 90° *counter-clockwise*
  on the page; OpenBone's ``rotated: true`` is 90° clockwise.  Spine 270 is written
  as ``rotated: true``, Spine 90 and 180 with the documented region extension
  ``"rotation": 270`` / ``180`` (clockwise degrees on the page, csrc/atlas.c).  Other
  angles are not multiples of 90: spine-core draws them unrotated, so do we (warning).
* ``pma: true`` → ``atlas.premultipliedAlpha``, page ``scale`` → ``atlas.scale``,
  ``filter`` → ``filterMin``/``filterMag``, ``repeat`` → ``wrapX``/``wrapY``,
  ``format`` → ``pixelFormat``.  The OpenBone section holds one value of each for all
  pages; pages that disagree get the first page's value and a warning.
* A sequence frame image ``name<digits>`` is found as the region ``name`` (or
  ``name_``) with ``index: <digits>`` when no region carries the full name.
"""
from __future__ import annotations

import os
import re
import struct
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

from .read import SpineError

__all__ = ["Atlas", "AtlasPage", "AtlasRegion", "read_atlas", "find_atlas", "atlas_section"]

MAX_ATLAS_BYTES = 64 << 20  # a real atlas is a few kB; larger input is refused, not parsed


@dataclass
class AtlasPage:
    name: str
    line: int
    width: int = 0
    height: int = 0
    format: Optional[str] = None
    min_filter: str = "Nearest"
    mag_filter: str = "Nearest"
    repeat_x: bool = False
    repeat_y: bool = False
    pma: bool = False
    scale: Optional[float] = None
    regions: List["AtlasRegion"] = field(default_factory=list)


@dataclass
class AtlasRegion:
    name: str
    page: AtlasPage
    line: int
    x: int = 0
    y: int = 0
    width: int = 0
    height: int = 0
    offset_x: int = 0  # Spine convention: from the left
    offset_y: int = 0  # Spine convention: from the bottom
    original_width: int = 0
    original_height: int = 0
    degrees: int = 0
    index: Optional[int] = None
    values: Dict[str, List[int]] = field(default_factory=dict)


@dataclass
class Atlas:
    pages: List[AtlasPage]
    regions: List[AtlasRegion]
    path: Optional[str] = None  # the .atlas file (page files are relative to its directory)
    warnings: List[str] = field(default_factory=list)

    def find(self, name: str) -> Optional[AtlasRegion]:
        """The first region named ``name`` (as spine-core's findRegion), else the region
        of a sequence frame: ``base<digits>`` → region ``base`` (or ``base_``) with
        ``index`` equal to the digits."""
        by = self._by_name()
        r = by.get((name, None))
        if r is not None:
            return r
        m = re.fullmatch(r"(.*?)(\d+)", name)
        if m:
            base, idx = m.group(1), int(m.group(2))
            for b in (base, base + "_", base.rstrip("_")):
                r = by.get((b, idx))
                if r is not None:
                    return r
        return None

    def _by_name(self) -> Dict[Tuple[str, Optional[int]], AtlasRegion]:
        cache = self.__dict__.get("_cache")
        if cache is None:
            cache = {}
            for r in self.regions:
                cache.setdefault((r.name, None), r)
                if r.index is not None:
                    cache.setdefault((r.name, r.index), r)
            self.__dict__["_cache"] = cache
        return cache


# ---- reading -------------------------------------------------------------------------

def _entry(line: str) -> Optional[Tuple[str, List[str]]]:
    """``key: a, b, c`` → (key, [a, b, c]) as spine-core's readEntry (at most 4 values,
    the 4th keeps the rest of the line); None for a line without a colon."""
    line = line.strip()
    if not line:
        return None
    colon = line.find(":")
    if colon < 0:
        return None
    key = line[:colon].strip()
    rest = line[colon + 1:]
    vals = rest.split(",", 3)
    return key, [v.strip() for v in vals]


def _ints(where: str, key: str, vals: List[str], n: int) -> List[int]:
    if len(vals) < n:
        raise SpineError(f"{where}: {key}: expected {n} integers, got {', '.join(vals)!r}")
    out = []
    for v in vals[:n]:
        if not re.fullmatch(r"[+-]?\d{1,9}", v):
            raise SpineError(f"{where}: {key}: expected an integer, got {v!r}")
        out.append(int(v))
    return out


_FILTERS = {"nearest": "nearest", "linear": "linear", "mipmap": "mipmap",
            "mipmapnearestnearest": "mipmapNearestNearest", "mipmaplinearnearest": "mipmapLinearNearest",
            "mipmapnearestlinear": "mipmapNearestLinear", "mipmaplinearlinear": "mipmapLinearLinear"}
_FORMATS = {"rgba8888": "RGBA8888", "rgb888": "RGB888", "rgba4444": "RGBA4444", "rgb565": "RGB565",
            "alpha": "Alpha"}


def read_atlas(src: Union[str, bytes, os.PathLike], path: Optional[str] = None) -> Atlas:
    """Parse a ``.atlas`` file (a path) or its text (``str`` containing a newline, or
    ``bytes``).  Malformed input raises :class:`openbone.OpenBoneError` naming the line."""
    if isinstance(src, bytes):
        data = src
    elif isinstance(src, str) and ("\n" in src or "\r" in src):
        data = src.encode("utf-8")
    else:
        path = os.fspath(src)
        try:
            size = os.path.getsize(path)
        except OSError as e:
            raise SpineError(f"{path}: {e.strerror or e}") from None
        if size > MAX_ATLAS_BYTES:
            raise SpineError(f"{path}: {size} bytes is too large for a texture atlas")
        with open(path, "rb") as f:
            data = f.read()
    if len(data) > MAX_ATLAS_BYTES:
        raise SpineError(f"atlas: {len(data)} bytes is too large for a texture atlas")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SpineError(f"atlas: not UTF-8 text (byte {e.start})") from None
    if "\0" in text:
        raise SpineError(f"atlas: line {text[:text.index(chr(0))].count(chr(10)) + 1}: a NUL byte "
                         "(not an atlas text file)")
    lines = re.split(r"\r\n|\r|\n", text)
    atlas = Atlas([], [], path=path)
    i, n = 0, len(lines)

    def where(k: int) -> str:
        return f"atlas line {k + 1}"

    while i < n and not lines[i].strip():
        i += 1
    # header entries (spine-core ignores them all)
    while i < n and lines[i].strip() and _entry(lines[i]) is not None:
        i += 1
    page: Optional[AtlasPage] = None
    while i < n:
        line = lines[i]
        if not line.strip():
            page = None
            i += 1
            continue
        if page is None:
            page = AtlasPage(line.strip(), i)
            i += 1
            while i < n:
                e = _entry(lines[i])
                if e is None:
                    break
                key, vals = e
                w = where(i)
                if key == "size":
                    page.width, page.height = _ints(w, key, vals, 2)
                    if page.width <= 0 or page.height <= 0:
                        raise SpineError(f"{w}: size: a page must be at least 1 x 1, got {page.width} x {page.height}")
                elif key == "format":
                    page.format = vals[0]
                elif key == "filter":
                    page.min_filter = vals[0]
                    page.mag_filter = vals[1] if len(vals) > 1 else vals[0]
                elif key == "repeat":
                    page.repeat_x, page.repeat_y = "x" in vals[0], "y" in vals[0]
                elif key == "pma":
                    page.pma = vals[0] == "true"
                elif key == "scale":
                    try:
                        page.scale = float(vals[0])
                    except ValueError:
                        raise SpineError(f"{w}: scale: expected a number, got {vals[0]!r}") from None
                    if not (0 < page.scale < float("inf")):
                        raise SpineError(f"{w}: scale: expected a positive number, got {vals[0]!r}")
                i += 1
            atlas.pages.append(page)
            continue
        # a region of the current page
        region = AtlasRegion(line.strip(), page, i)
        i += 1
        have_orig = False
        while i < n:
            e = _entry(lines[i])
            if e is None:
                break
            key, vals = e
            w = where(i)
            if key == "bounds":
                region.x, region.y, region.width, region.height = _ints(w, key, vals, 4)
            elif key == "xy":
                region.x, region.y = _ints(w, key, vals, 2)
            elif key == "size":
                region.width, region.height = _ints(w, key, vals, 2)
            elif key == "offsets":
                region.offset_x, region.offset_y, region.original_width, region.original_height = \
                    _ints(w, key, vals, 4)
                have_orig = True
            elif key == "offset":
                region.offset_x, region.offset_y = _ints(w, key, vals, 2)
            elif key == "orig":
                region.original_width, region.original_height = _ints(w, key, vals, 2)
                have_orig = True
            elif key == "rotate":
                v = vals[0]
                if v == "true":
                    region.degrees = 90
                elif v != "false":
                    (region.degrees,) = _ints(w, key, vals, 1)
            elif key == "index":
                (idx,) = _ints(w, key, vals, 1)
                region.index = idx if idx >= 0 else None
            else:
                region.values[key] = [int(v) if re.fullmatch(r"[+-]?\d{1,9}", v) else 0 for v in vals]
            i += 1
        w = where(region.line)
        if region.width < 0 or region.height < 0:
            raise SpineError(f"{w}: region {region.name!r}: negative size {region.width} x {region.height}")
        if not have_orig or (region.original_width == 0 and region.original_height == 0):
            region.original_width, region.original_height = region.width, region.height
        if region.original_width <= 0 or region.original_height <= 0:
            raise SpineError(f"{w}: region {region.name!r}: original size "
                             f"{region.original_width} x {region.original_height} (must be at least 1 x 1)")
        if region.degrees not in (0, 90, 180, 270):
            atlas.warnings.append(f"{w}: region {region.name!r}: rotate {region.degrees} is not 90, 180 or 270; "
                                  "drawn unrotated (as spine-core does)")
            region.degrees = 0
        page.regions.append(region)
        atlas.regions.append(region)
    return atlas


def find_atlas(skeleton_path: str) -> Optional[str]:
    """The atlas beside a skeleton file by Spine's naming: ``<stem>.atlas``, then with
    trailing ``-word`` parts of the stem removed one by one (``spineboy-pro.json`` →
    ``spineboy.atlas``); ``.atlas.txt`` is tried after each ``.atlas``."""
    d = os.path.dirname(os.path.abspath(skeleton_path))
    stem = os.path.basename(skeleton_path)
    for ext in (".json", ".skel", ".bytes", ".txt"):
        if stem.lower().endswith(ext):
            stem = stem[: -len(ext)]
    while stem:
        for ext in (".atlas", ".atlas.txt"):
            p = os.path.join(d, stem + ext)
            if os.path.isfile(p):
                return p
        if "-" not in stem:
            break
        stem = stem.rsplit("-", 1)[0]
    return None


def _png_size(path: str) -> Optional[Tuple[int, int]]:
    """(width, height) from a PNG header, else None."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if len(head) == 24 and head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    return None


# ---- the OpenBone atlas section --------------------------------------------------------

def _openbone_region(r: AtlasRegion, image_id: str, page_id: str) -> Dict[str, Any]:
    """One OpenBone region: Spine's bottom-up offsetY becomes a top-down one; Spine's
    counter-clockwise turns become OpenBone's clockwise ones (see the module doc)."""
    out: Dict[str, Any] = {
        "image": image_id, "page": page_id, "x": r.x, "y": r.y, "width": r.width, "height": r.height,
        "offsetX": r.offset_x, "offsetY": r.original_height - r.height - r.offset_y,
        "originalWidth": r.original_width, "originalHeight": r.original_height,
    }
    cw = (360 - r.degrees) % 360  # Spine turns counter-clockwise, OpenBone clockwise
    if cw == 90:
        out["rotated"] = True
    elif cw:
        out["rotation"] = cw
    return out


def atlas_section(atlas: Atlas, image_names: List[str], warnings: List[str],
                  relative_to: Optional[str] = None) -> Tuple[Dict[str, Any], List[str]]:
    """The OpenBone ``atlas`` section for the images a document uses (by image id = the
    Spine attachment path) and the image ids the atlas holds.  Page ``src`` is the page
    file's path relative to ``relative_to`` (a directory; default: absolute)."""
    warnings.extend(w for w in atlas.warnings if w not in warnings)
    base = os.path.dirname(os.path.abspath(atlas.path)) if atlas.path else os.getcwd()
    pages_used: Dict[int, Dict[str, Any]] = {}
    regions: List[Dict[str, Any]] = []
    found: List[str] = []
    ids: Dict[int, str] = {}
    taken = set(image_names)
    for k, p in enumerate(atlas.pages):
        pid = p.name
        while pid in taken:
            pid = f"{pid}#{k}"
        taken.add(pid)
        ids[id(p)] = pid
    missing = []
    for name in image_names:
        r = atlas.find(name)
        if r is None:
            missing.append(name)
            continue
        p = r.page
        if id(p) not in pages_used:
            file = os.path.join(base, p.name)
            w, h = p.width, p.height
            if not (w > 0 and h > 0):
                size = _png_size(file)
                if size is None:
                    raise SpineError(f"atlas line {p.line + 1}: page {p.name!r} has no size (and no readable PNG)")
                w, h = size
                p.width, p.height = w, h
            src = os.path.relpath(file, relative_to) if relative_to else file
            pages_used[id(p)] = {"id": ids[id(p)], "name": p.name, "src": src.replace(os.sep, "/"),
                                 "width": w, "height": h}
        regions.append(_openbone_region(r, name, ids[id(p)]))
        found.append(name)
    if missing:
        shown = ", ".join(repr(m) for m in missing[:8]) + (" ..." if len(missing) > 8 else "")
        warnings.append(f"atlas: no region for {len(missing)} image(s) ({shown}): drawn untextured")
    order = [p for p in atlas.pages if id(p) in pages_used]
    sec: Dict[str, Any] = {"pages": [pages_used[id(p)] for p in order], "regions": regions}
    if not order:
        return sec, found

    def first(what: str, value):
        """The OpenBone section has one value for all pages: the first used page's."""
        if len({value(p) for p in order}) > 1:
            warnings.append(f"atlas: pages differ in {what}; the first page's is used for all")
        return value(order[0])

    if first("premultiplied alpha", lambda p: p.pma):
        sec["premultipliedAlpha"] = True
    scale = first("scale", lambda p: p.scale)
    if scale not in (None, 1.0):
        sec["scale"] = scale
    for key, attr in (("filterMin", "min_filter"), ("filterMag", "mag_filter")):
        v = first(f"filter ({key})", lambda p, a=attr: getattr(p, a))
        f = _FILTERS.get(str(v).lower())
        if f is None:
            warnings.append(f"atlas: filter {v!r} unknown; linear used")
            f = "linear"
        sec[key] = f
    rx, ry = first("repeat", lambda p: (p.repeat_x, p.repeat_y))
    if rx:
        sec["wrapX"] = "repeat"
    if ry:
        sec["wrapY"] = "repeat"
    fmt = first("format", lambda p: p.format)
    if fmt is not None:
        f = _FORMATS.get(fmt.lower())
        if f is None:
            warnings.append(f"atlas: pixel format {fmt!r} has no OpenBone equivalent; RGBA8888 assumed")
        elif f != "RGBA8888":
            sec["pixelFormat"] = f
    return sec, found
