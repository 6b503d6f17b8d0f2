"""Atomic outputs: every writer (convert, bake, render, sheets, manifests, Document.save)
writes a temporary file in the destination's directory and renames it over the
destination only once it is complete, so a failure part-way (a full disk, ``ulimit -f``,
an exception, a kill) leaves an existing output as it was.

``atomic_path(dest)`` yields a temporary path with the destination's extension (for
writers that need a file name: NumPy, Pillow, imageio, zarr directories);
``atomic_write(dest, mode)`` yields an open file.  ``overwrite=False`` refuses to replace
an existing destination (``FileExistsError``), checked again at the rename.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from typing import IO, Iterator, Union

PathLike = Union[str, "os.PathLike[str]"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


def _publish(tmp: str, dest: str, overwrite: bool) -> None:
    """Rename ``tmp`` to ``dest`` (a file or a directory)."""
    if os.path.isdir(tmp) and not os.path.islink(tmp):
        if os.path.lexists(dest):
            if not overwrite:
                raise FileExistsError(f"{dest} exists (--overwrite replaces it)")
            old = tempfile.mkdtemp(prefix=f".{os.path.basename(dest)}.old.", dir=os.path.dirname(dest) or ".")
            os.rmdir(old)
            os.rename(dest, old)  # moved aside, then the new tree takes its name
            try:
                os.rename(tmp, dest)
            except BaseException:
                os.rename(old, dest)
                raise
            _remove(old)
        else:
            os.rename(tmp, dest)
        return
    if overwrite:
        os.replace(tmp, dest)
        return
    os.link(tmp, dest)  # fails with FileExistsError when dest appeared meanwhile
    os.unlink(tmp)


@contextlib.contextmanager
def atomic_path(dest: PathLike, overwrite: bool = True, directory: bool = False) -> Iterator[str]:
    """A temporary path next to ``dest`` (same extension); renamed to ``dest`` when the
    block ends without an exception, removed otherwise.  ``directory=True`` makes it an
    empty directory (zarr stores)."""
    dest = os.fspath(dest)
    parent = os.path.dirname(os.path.abspath(dest))
    if not overwrite and os.path.lexists(dest):
        raise FileExistsError(f"{dest} exists (--overwrite replaces it)")
    base = os.path.basename(dest)
    ext = os.path.splitext(base)[1]
    if directory:
        tmp = tempfile.mkdtemp(prefix=f".{base}.", suffix=".tmp" + ext, dir=parent)
    else:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp" + ext, dir=parent)
        os.close(fd)
        os.chmod(tmp, 0o666 & ~_umask())
    try:
        yield tmp
        if not directory:
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
        _publish(tmp, dest, overwrite)
    except BaseException:
        _remove(tmp)
        raise


@contextlib.contextmanager
def atomic_write(dest: PathLike, mode: str = "wb", overwrite: bool = True, **kw) -> Iterator[IO]:
    """``open(tmp, mode)`` for a temporary file next to ``dest``, renamed to ``dest`` once
    written (and flushed to disk)."""
    if "w" not in mode:
        raise ValueError("atomic_write needs a write mode")
    with atomic_path(dest, overwrite=overwrite) as tmp:
        with open(tmp, mode, **kw) as f:
            yield f
            f.flush()


def write_bytes(dest: PathLike, data: bytes, overwrite: bool = True) -> None:
    with atomic_write(dest, "wb", overwrite=overwrite) as f:
        f.write(data)


def write_text(dest: PathLike, text: str, overwrite: bool = True) -> None:
    with atomic_write(dest, "w", overwrite=overwrite, encoding="utf-8") as f:
        f.write(text)
