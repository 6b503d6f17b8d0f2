"""Writing bakes: ``.npz`` (deterministic bytes) and Zarr stores, both atomic.

``.npz``: a zip of ``.npy`` members written with a fixed timestamp and member order, so
that the same bake gives the same bytes (and sha256) on every machine and worker.

Zarr (``--format zarr``, a ``.zarr`` directory): one array per bake array, chunked along
frames (``world`` is ``frames × bones × 6`` in chunks of 64 frames; draw-list arrays in
chunks of 65,536 rows), the names and settings in the group's attributes, so that
``dask.array.from_zarr(path, component="world")`` reads a bake lazily.
"""
from __future__ import annotations

import hashlib
import io
import os
import zipfile
from typing import Dict

import numpy as np

from ..atomic import atomic_path

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
NAME_ARRAYS = ("bone_names", "slot_names", "animation", "skin", "fps", "rig")


def write_npz(path: str, arrays: Dict[str, np.ndarray], overwrite: bool = True) -> None:
    with atomic_path(path, overwrite=overwrite) as tmp:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            for name in sorted(arrays):
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.asanyarray(arrays[name]), allow_pickle=False)
                info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, buf.getvalue())


def _chunks(name: str, a: np.ndarray):
    if a.ndim == 0:
        return ()
    if name in ("world", "slot_colors", "draw_order", "times"):
        return (min(64, max(1, a.shape[0])),) + a.shape[1:]
    return (min(65536, max(1, a.shape[0])),) + a.shape[1:]


def write_zarr(path: str, arrays: Dict[str, np.ndarray], overwrite: bool = True) -> None:
    try:
        import zarr
    except ImportError as e:
        raise ValueError("--format zarr needs zarr: pip install 'openbone[pipeline]'") from e
    with atomic_path(path, overwrite=overwrite, directory=True) as tmp:
        g = zarr.open_group(store=tmp, mode="w")
        attrs = {}
        for name in sorted(arrays):
            a = np.asarray(arrays[name])
            if name in NAME_ARRAYS or a.dtype.kind in "US":
                attrs[name] = a.tolist()
                continue
            create = getattr(g, "create_array", None) or g.create_dataset  # zarr 3, zarr 2
            z = create(name, shape=a.shape, dtype=a.dtype, chunks=_chunks(name, a) or None)
            if a.size:
                z[...] = a
        g.attrs.update(attrs)


def read_zarr(path: str) -> Dict[str, np.ndarray]:
    """A Zarr bake back as the arrays :func:`openbone.bake.bake` returns."""
    import zarr
    g = zarr.open_group(store=path, mode="r")
    out = {name: np.asarray(g[name][...]) for name in g.array_keys()}
    for name, v in g.attrs.items():
        out[name] = np.array(v, dtype=str) if isinstance(v, (list, str)) else np.array(v)
    return out


def sha256_of(path: str) -> str:
    """sha256 of a file, or of a directory's files (relative names and bytes, sorted)."""
    h = hashlib.sha256()
    if os.path.isdir(path):
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for f in sorted(files):
                full = os.path.join(root, f)
                h.update(os.path.relpath(full, path).replace(os.sep, "/").encode() + b"\0")
                with open(full, "rb") as fh:
                    h.update(hashlib.sha256(fh.read()).digest())
        return h.hexdigest()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
